//! Bad input: every malformed document or config is a typed error naming its place, never a
//! panic; through `cargo xtask regen` it is a non-zero exit that leaves `generated/` untouched.

use baseten_codegen::{Error, Input};

/// Generates from `spec` and returns the error's text; the test fails if generation succeeds.
fn error_for(spec: &str, config: Option<&str>) -> Error {
    let input = Input {
        spec_path: "schema/spec.yaml",
        spec_text: spec,
        config_text: config,
    };
    match baseten_codegen::generate(&input) {
        Ok(_) => panic!("expected an error for:\n{spec}"),
        Err(error) => error,
    }
}

fn check(spec: &str, expected: &str) {
    let error = error_for(spec, None);
    assert_eq!(error.to_string(), expected, "{error:?}");
}

const HEAD: &str = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n";

#[test]
fn malformed_text() {
    check("", "the document is empty");
    check("  \n\n", "the document is empty");
    check(
        "openapi: 3.1.0\ninfo: [unclosed",
        "YAML syntax error at line 3, column 1: did not find expected ',' or ']' at line 3 column 1, while parsing a flow sequence at line 2 column 7",
    );
    check(
        "{\"openapi\": \"3.1.0\",}",
        "JSON syntax error at line 1, column 21: trailing comma at line 1 column 21",
    );
    check("- a\n- b\n", "#: the document is not an object");
}

#[test]
fn wrong_kind_of_document() {
    check(
        "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n",
        "#/swagger: Swagger \"2.0\" documents are not supported; convert to OpenAPI 3.1 or 3.0 first",
    );
    check(
        "info: {title: t, version: '1'}\n",
        "#/openapi: missing `openapi` version field: not an OpenAPI 3 document",
    );
    check(
        "openapi: 4.0.0\ninfo: {title: t, version: '1'}\n",
        "#/openapi: OpenAPI 4.0.0 is not supported; expected 3.1.x or 3.0.x",
    );
}

/// A bad place that leaves out only what holds it: generation succeeds with `expected` among
/// the notes, and strict mode refuses naming the same place.
fn check_left_out(spec: &str, expected: &str) {
    let input = Input {
        spec_path: "schema/spec.yaml",
        spec_text: spec,
        config_text: None,
    };
    let notes: Vec<String> = match baseten_codegen::generate(&input) {
        Ok(output) => output.notes.iter().map(ToString::to_string).collect(),
        Err(error) => panic!("{spec}\nexpected notes, got {error}"),
    };
    assert!(notes.iter().any(|note| note == expected), "{notes:#?}");
    let pointer = expected.split(": ").next().unwrap_or_default();
    match error_for(spec, Some("strict: true")) {
        Error::LeftOut { pointer: at, .. } => assert_eq!(at, pointer),
        other => panic!("{other:?}"),
    }
}

#[test]
fn dangling_references() {
    check_left_out(
        &format!(
            "{HEAD}components:\n  schemas:\n    A:\n      type: object\n      properties:\n        b: {{$ref: '#/components/schemas/Missing'}}\n"
        ),
        "#/components/schemas/A/properties/b: the schema (read as any JSON value) is left out: `$ref` \"#/components/schemas/Missing\" does not resolve to anything in the document",
    );
    check_left_out(
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /x/{id}:\n    get:\n      parameters: [{$ref: '#/components/parameters/id'}]\n      responses: {'204': {description: ok}}\n",
        "#/paths/~1x~1{id}/get/parameters/0: operation get_x (GET /x/{id}) is left out: `$ref` \"#/components/parameters/id\" does not resolve to anything of its kind in the document",
    );
}

#[test]
fn reference_loops() {
    // Each is read as any JSON value alone, with a note; strict mode refuses it.
    check_left_out(
        &format!(
            "{HEAD}components:\n  schemas:\n    A: {{$ref: '#/components/schemas/B'}}\n    B: {{$ref: '#/components/schemas/A'}}\n"
        ),
        "#/components/schemas/A: the schema (read as any JSON value) is left out: `$ref` cycle with no schema in it: #/components/schemas/B -> #/components/schemas/A -> #/components/schemas/B",
    );
    check_left_out(
        &format!(
            "{HEAD}components:\n  schemas:\n    A: {{allOf: [{{$ref: '#/components/schemas/B'}}], description: a}}\n    B: {{allOf: [{{$ref: '#/components/schemas/A'}}], description: b}}\n"
        ),
        "#/components/schemas/A: the schema (read as any JSON value) is left out: `$ref` cycle with no schema in it: #/components/schemas/A -> #/components/schemas/B -> #/components/schemas/A",
    );
    check_left_out(
        &format!(
            "{HEAD}components:\n  schemas:\n    A: {{type: array, items: {{$ref: '#/components/schemas/A'}}}}\n"
        ),
        "#/components/schemas/A: the type (read as any JSON value) is left out: it contains itself only through arrays or maps of itself (a recursive alias)",
    );
}

#[test]
fn structural_errors_name_their_place() {
    check_left_out(
        &format!("{HEAD}components:\n  schemas:\n    A: {{type: object, properties: 3}}\n"),
        "#/components/schemas/A/properties: keyword `properties` is left out: `properties` must be an object",
    );
    check_left_out(
        &format!(
            "{HEAD}components:\n  schemas:\n    A: {{type: array, items: [{{type: string}}]}}\n"
        ),
        "#/components/schemas/A/items: keyword `items` (the items are read as any JSON value) is left out: tuple-form `items` (an array of schemas)",
    );
}

#[test]
fn bad_config() {
    let spec = HEAD;
    assert_eq!(
        error_for(spec, Some("runtime_path: 'not a path!'")).to_string(),
        "generator config: #/runtime_path: \"not a path!\" is not a Rust path"
    );
    assert_eq!(
        error_for(spec, Some("operation_names: {'GET /nope': get_nope}")).to_string(),
        "generator config: #/operation_names/GET ~1nope: no operation GET /nope in the document"
    );
    assert_eq!(
        error_for(spec, Some("select: ['GET /v1/nothing/**']")).to_string(),
        "generator config: #/select/0: \"GET /v1/nothing/**\" selects no operation in the document"
    );
    assert_eq!(
        error_for(spec, Some("areas: {client: ['GET /v1/x']}")).to_string(),
        "generator config: #/areas/client: every generated crate has a feature \"client\" of its own"
    );
    assert_eq!(
        error_for(spec, Some("areas: {Mixed Case: ['GET /v1/x']}")).to_string(),
        "generator config: #/areas/Mixed Case: an area's feature name is lower-case ASCII letters, digits, `-` and `_`, starting with a letter or digit"
    );
    assert_eq!(
        error_for(spec, Some("runtime_pth: crate::runtime")).to_string(),
        "generator config: #/runtime_pth: unknown field `runtime_pth`, expected one of `runtime_path`, `operation_names`, `operation_id_names`, `select`, `strict`, `crate_name`, `api_name`, `env_prefix`, `areas`"
    );
}
