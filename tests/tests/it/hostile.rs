//! Hostile documents: whatever a document holds, the generator returns a pointer-named error or
//! Rust that parses (and, in CI, compiles without warnings); it never panics, and no text from
//! the document ever runs as code.
//!
//! One `check_*` line per class of hostile input, then proptest documents assembled from
//! adversarial parts. Cases: `PROPTEST_CASES` (`.ci/run` sets 10000) capped at
//! [`MAX_DOCUMENT_CASES`], else proptest's default.

use std::panic::{AssertUnwindSafe, catch_unwind};

use baseten_codegen::ir::{Api, TypeDef, TypeRef};
use baseten_codegen::{Error, Input, Output};

/// The emitted code calls the runtime from outside the `baseten-api` crate.
const CONFIG: &str = "runtime_path: baseten_api::runtime\n";

const HEAD: &str = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n";

/// Runs the generator, turning a panic into a test failure that shows the document.
fn generate(spec: &str) -> Result<Output, Error> {
    let input = Input {
        spec_path: "hostile.yaml",
        spec_text: spec,
        config_text: Some(CONFIG),
    };
    catch_unwind(|| baseten_codegen::generate(&input))
        .unwrap_or_else(|_| panic!("the generator panicked on:\n{spec}"))
}

fn build_ir(spec: &str) -> Result<Api, Error> {
    let input = Input {
        spec_path: "hostile.yaml",
        spec_text: spec,
        config_text: Some(CONFIG),
    };
    catch_unwind(|| baseten_codegen::build_ir(&input))
        .unwrap_or_else(|_| panic!("the generator panicked on:\n{spec}"))
        .map(|(api, _)| api)
}

/// Generation succeeds and every file parses as Rust.
fn generate_ok(spec: &str) -> Output {
    let output = generate(spec).unwrap_or_else(|error| panic!("{error}\nfor:\n{spec}"));
    for (file, text) in &output.files {
        if let Err(error) = syn::parse_file(text) {
            panic!("{file} does not parse: {error}\n{text}");
        }
    }
    output
}

/// A JSON string literal, which is also a YAML double-quoted scalar.
fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// The rustdoc the struct `T` gets when its schema's description is `description`.
fn check_doc(description: &str, expected: &str) {
    let spec = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    T: {{type: object, description: {}, properties: {{a: {{type: string}}}}}}\n",
        quoted(description)
    );
    let output = generate_ok(&spec);
    let models = &output.files["models.rs"];
    let doc: Vec<&str> = models
        .lines()
        .skip_while(|line| !line.starts_with("///"))
        .take_while(|line| line.starts_with("///"))
        .collect();
    assert_eq!(doc.join("\n"), expected, "description {description:?}");
}

#[test]
fn document_text_never_becomes_a_doctest() {
    check_doc(
        "```rust\nexit(1);\n```",
        "/// ```text\n/// exit(1);\n/// ```",
    );
    check_doc(
        "```should_panic\np!()\n```",
        "/// ```text\n/// p!()\n/// ```",
    );
    check_doc("~~~\nexit(1);\n~~~", "/// ~~~text\n/// exit(1);\n/// ~~~");
    check_doc(
        "````\n```\nx\n````",
        "/// ````text\n/// ```\n/// x\n/// ````",
    );
    check_doc("```\nunclosed", "/// ```text\n/// unclosed\n/// ```");
    check_doc(
        "- ```rust\n  x\n  ```",
        "/// - \\`\\`\\`rust\n/// x\n/// ```text\n/// ```",
    );
    check_doc("> ~~~\n> x", "/// &gt; \\~\\~\\~\n/// &gt; x");
    check_doc("-     exit(1);", "/// - exit(1);");
}

#[test]
fn control_characters_never_reach_a_comment() {
    check_doc("a\rb", "/// a\n/// b");
    check_doc("a\u{202e}b\u{2066}c", "/// abc");
    check_doc("a\u{0}b\u{7}c\u{2028}d", "/// abcd");
}

/// The IR's names and shapes, one line per type and operation.
fn summary(api: &Api) -> String {
    fn ty(t: &TypeRef) -> String {
        match t {
            TypeRef::String => "String".into(),
            TypeRef::Integer => "i64".into(),
            TypeRef::Number => "f64".into(),
            TypeRef::Boolean => "bool".into(),
            TypeRef::Json => "Json".into(),
            TypeRef::Named(name) => name.clone(),
            TypeRef::Vec(inner) => format!("Vec<{}>", ty(inner)),
            TypeRef::Map(inner) => format!("Map<{}>", ty(inner)),
            TypeRef::Option(inner) => format!("Option<{}>", ty(inner)),
        }
    }
    let boxed = |t: String, boxed: bool| if boxed { format!("Box<{t}>") } else { t };
    let mut lines = Vec::new();
    for def in api.types.values() {
        lines.push(match def {
            TypeDef::Struct(s) => format!(
                "struct {} {{ {} }}",
                s.name,
                s.fields
                    .iter()
                    .map(|f| format!("{}: {}", f.rust_name, boxed(ty(&f.ty), f.boxed)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            TypeDef::Enum(e) => format!(
                "enum {} {{ {} }}",
                e.name,
                e.variants
                    .iter()
                    .map(|v| v.rust_name.as_str())
                    .chain([e.fallback.as_str()])
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            TypeDef::Alias(a) => format!("type {} = {}", a.name, ty(&a.ty)),
            TypeDef::Union(u) => format!(
                "union {} {{ {} }}",
                u.name,
                u.variants
                    .iter()
                    .map(|v| format!("{}({})", v.rust_name, ty(&v.ty)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    for operation in &api.operations {
        let arguments: Vec<&str> = operation
            .path_params
            .iter()
            .chain(&operation.required_query)
            .map(|p| p.rust_name.as_str())
            .collect();
        lines.push(format!("fn {}({})", operation.name, arguments.join(", ")));
    }
    lines.join("\n")
}

/// The IR summary for `spec` (which must generate Rust that parses), against `expected`.
fn check_ir(spec: &str, expected: &str) {
    generate_ok(spec);
    let api = build_ir(spec).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(summary(&api), expected, "for:\n{spec}");
}

/// `spec` with `schemas` (YAML lines, indented 4) under `components` and no paths.
fn schemas(schemas: &str) -> String {
    format!("{HEAD}paths: {{}}\ncomponents:\n  schemas:\n{schemas}")
}

#[test]
fn any_unicode_name_becomes_an_identifier() {
    check_ir(&schemas("    ½: {type: string}\n"), "type U00bd = String");
    check_ir(
        &schemas("    a²: {type: object, properties: {a²: {type: string}, ٣: {type: integer}}}\n"),
        "struct AU00b2 { a_u00b2: String, u0663: i64 }",
    );
    check_ir(
        &schemas("    E: {type: string, enum: ['½', 'é', '🦀']}\n"),
        "enum E { U00bd, U00e9, U1f980, Unknown }",
    );
    check_ir(
        &format!(
            "{HEAD}paths:\n  /v1/½/{{a²}}:\n    get:\n      parameters: [{{name: a², in: path, required: true, schema: {{type: string}}}}]\n      responses: {{'204': {{description: ok}}}}\n"
        ),
        "fn get_u00bd(a_u00b2)",
    );
}

#[test]
fn document_names_never_shadow_what_the_emitted_code_uses() {
    check_ir(
        &schemas(
            "    Option: {type: object, properties: {a: {$ref: '#/components/schemas/Result'}}}\n    Result: {type: string}\n    String: {type: object, properties: {v: {$ref: '#/components/schemas/Vec'}}}\n    Vec: {type: array, items: {$ref: '#/components/schemas/Box'}}\n    Box: {type: string, enum: [a]}\n    Serialize: {type: object, properties: {d: {$ref: '#/components/schemas/Deserialize'}}}\n    Deserialize: {type: integer}\n    Client: {type: boolean}\n",
        ),
        "enum Box2 { A, Unknown }\ntype Client2 = bool\ntype Deserialize2 = i64\nstruct Option2 { a: Result2 }\ntype Result2 = String\nstruct Serialize2 { d: Deserialize2 }\nstruct String2 { v: Vec2 }\ntype Vec2 = Vec<Box2>",
    );
}

#[test]
fn document_names_never_collide_with_emitted_locals_or_generics() {
    check_ir(
        &format!(
            "{HEAD}paths:\n  /x/{{pairs}}:\n    get:\n      parameters:\n        - {{name: pairs, in: path, required: true, schema: {{type: string}}}}\n        - {{name: request, in: query, required: true, schema: {{type: string}}}}\n        - {{name: i, in: query, schema: {{type: array, items: {{$ref: '#/components/schemas/I'}}}}}}\n      responses: {{'204': {{description: ok}}}}\ncomponents:\n  schemas:\n    I: {{type: string, enum: [a]}}\n"
        ),
        "enum I2 { A, Unknown }\nfn get_x(pairs_2, request_2)",
    );
}

/// The variants of the union `U` as emitted.
fn check_union_variants(schemas_yaml: &str, expected: &str) {
    let output = generate_ok(&schemas(schemas_yaml));
    let variants: Vec<&str> = output.files["models.rs"]
        .lines()
        .skip_while(|line| !line.starts_with("pub enum U "))
        .skip(1)
        .take_while(|line| !line.starts_with('}'))
        .filter(|line| !line.trim_start().starts_with("///"))
        .map(str::trim)
        .collect();
    assert_eq!(variants.join(" "), expected, "for:\n{schemas_yaml}");
}

#[test]
fn unions_on_a_containment_cycle_are_boxed() {
    let alias = "    A: {$ref: '#/components/schemas/U'}\n";
    check_union_variants(
        &format!(
            "    U: {{oneOf: [{{$ref: '#/components/schemas/U'}}], discriminator: {{propertyName: k}}}}\n{alias}"
        ),
        "U(Box<U>), Unknown(::serde_json::Value),",
    );
    check_union_variants(
        &format!(
            "    U: {{oneOf: [{{$ref: '#/components/schemas/A'}}], discriminator: {{propertyName: k}}}}\n{alias}"
        ),
        "A(Box<U>), Unknown(::serde_json::Value),",
    );
    check_union_variants(
        "    U: {oneOf: [{$ref: '#/components/schemas/S'}], discriminator: {propertyName: k, mapping: {s: '#/components/schemas/U'}}}\n    S: {type: object, properties: {k: {type: string}}}\n",
        "S(Box<U>), S2(S2), Unknown(::serde_json::Value),",
    );
}

/// Generation fails with exactly `expected`.
fn check_error(spec: &str, expected: &str) {
    match generate(spec) {
        Ok(_) => panic!("expected an error for:\n{spec}"),
        Err(error) => assert_eq!(error.to_string(), expected, "{error:?}"),
    }
}

fn path(template: &str) -> String {
    format!(
        "{HEAD}paths:\n  {}:\n    get:\n      responses: {{'204': {{description: ok}}}}\n",
        quoted(template)
    )
}

#[test]
fn path_templates_are_validated() {
    check_error(
        &path("/v1/x{"),
        "#/paths/~1v1~1x{/get: path template \"/v1/x{\" has a `{` with no `}`",
    );
    check_error(
        &path("/v1/x}"),
        "#/paths/~1v1~1x}/get: path template \"/v1/x}\" has a `}` with no `{`",
    );
    check_error(
        &path("/v1/{a{b}}"),
        "#/paths/~1v1~1{a{b}}/get: path template \"/v1/{a{b}}\" has a `{` inside a placeholder",
    );
    check_error(
        &path("/v1/x?y=1"),
        "#/paths/~1v1~1x?y=1/get: path template \"/v1/x?y=1\" holds a query string or fragment",
    );
    check_error(
        &path("/v1/x#y"),
        "#/paths/~1v1~1x#y/get: path template \"/v1/x#y\" holds a query string or fragment",
    );
    check_error(
        &path("v1/x"),
        "#/paths/v1~1x/get: path template \"v1/x\" does not start with `/`",
    );
    check_error(
        &path("/v1/{}"),
        "#/paths/~1v1~1{}/get: path template \"/v1/{}\" has an empty placeholder",
    );
}

#[test]
fn duplicate_json_keys_are_refused() {
    check_error(
        "{\"openapi\": \"3.1.0\", \"info\": {\"title\": \"t\", \"version\": \"1\", \"title\": \"u\"}, \"paths\": {}}",
        "#/info/title: duplicate key \"title\" (JSON line 1, column 67)",
    );
}

#[test]
fn errors_name_the_exact_place() {
    check_error(
        &format!("{HEAD}paths:\n  /x:\n    get: 3\n"),
        "#/paths/~1x/get: invalid type: integer `3`, expected struct Operation",
    );
    check_error(
        &format!("{HEAD}paths:\n  /x:\n    get:\n      responses: {{'204': {{description: 3}}}}\n"),
        "#/paths/~1x/get/responses/204: invalid type: integer `3`, expected a string",
    );
}
