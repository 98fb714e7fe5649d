//! Hostile documents: whatever a document holds, the generator returns a pointer-named error or
//! Rust that parses (and, in CI, compiles without warnings); it never panics, and no text from
//! the document ever runs as code.
//!
//! One `check_*` line per class of hostile input, then proptest documents assembled from
//! adversarial parts. Cases: `PROPTEST_CASES` (`.ci/run` sets 10000) capped at
//! [`MAX_DOCUMENT_CASES`], else proptest's default.

use std::panic::{AssertUnwindSafe, catch_unwind};

use baseten_codegen::ir::{Api, Held, TypeDef, TypeRef};
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

thread_local! {
    /// Documents `generate_ok` saw, when the compiled batch is collecting the regressions.
    static SUCCEEDED: std::cell::RefCell<Option<Vec<String>>> = const { std::cell::RefCell::new(None) };
}

/// Generation succeeds and every file parses as Rust.
fn generate_ok(spec: &str) -> Output {
    let output = generate(spec).unwrap_or_else(|error| panic!("{error}\nfor:\n{spec}"));
    SUCCEEDED.with_borrow_mut(|seen| {
        if let Some(seen) = seen {
            seen.push(spec.to_owned());
        }
    });
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
            TypeRef::Unsigned => "u64".into(),
            TypeRef::Number => "f64".into(),
            TypeRef::Boolean => "bool".into(),
            TypeRef::Decimal => "Decimal".into(),
            TypeRef::Timestamp => "Timestamp".into(),
            TypeRef::Date => "Date".into(),
            TypeRef::Json => "Json".into(),
            TypeRef::Bytes => "Bytes".into(),
            TypeRef::Named(name) => name.clone(),
            TypeRef::Vec(inner) => format!("Vec<{}>", ty(inner)),
            TypeRef::Map(inner) => format!("Map<{}>", ty(inner)),
            TypeRef::Option(inner) => format!("Option<{}>", ty(inner)),
            TypeRef::Indirect(inner) => format!("Indirect<{}>", ty(inner)),
        }
    }
    let held = |t: String, held: Held| match held.name() {
        Some(wrapper) => format!("{wrapper}<{t}>"),
        None => t,
    };
    let mut lines = Vec::new();
    for def in api.types.values() {
        lines.push(match def {
            TypeDef::Struct(s) => format!(
                "struct {} {{ {} }}",
                s.name,
                s.fields
                    .iter()
                    .map(|f| format!("{}: {}", f.rust_name, held(ty(&f.ty), f.held)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            TypeDef::Enum(e) | TypeDef::ValueEnum(e) => format!(
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
            TypeDef::Untagged(u) => format!(
                "untagged {} {{ {} }}",
                u.name,
                u.variants
                    .iter()
                    .map(|v| format!("{}({})", v.rust_name, held(ty(&v.ty), v.held)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            TypeDef::IntEnum(e) => format!(
                "int enum {} {{ {} }}",
                e.name,
                e.variants
                    .iter()
                    .map(|v| v.rust_name.as_str())
                    .chain([e.fallback.as_str()])
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
fn suffixed_keyword_names_stay_in_case() {
    check_ir(
        &schemas(
            "    self: {type: object, properties: {type: {type: string}, Type: {type: string}}}\n    Self: {type: string}\n",
        ),
        "type Self2 = String\nstruct Self_ { type_: String, type_2: String }",
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

#[test]
fn query_setters_never_shadow_derived_methods() {
    let output = generate_ok(&format!(
        "{HEAD}paths:\n  /x:\n    get:\n      parameters:\n        - {{name: default, in: query, schema: {{type: string}}}}\n        - {{name: clone, in: query, schema: {{type: integer}}}}\n      responses: {{'204': {{description: ok}}}}\n"
    ));
    let operations = &output.files["operations.rs"];
    let setters: Vec<&str> = operations
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub fn "))
        .filter_map(|rest| rest.split('(').next())
        .collect();
    // `GetXQuery::default()` stays `Default`'s and `.clone()` stays `Clone`'s.
    assert_eq!(setters[..2], ["set_default", "set_clone"], "{operations}");
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

/// Generation succeeds with the note `expected`, and strict mode refuses naming its place.
fn check_left_out(spec: &str, expected: &str) {
    let output = generate_ok(spec);
    let notes: Vec<String> = output.notes.iter().map(ToString::to_string).collect();
    assert!(notes.iter().any(|note| note == expected), "{notes:#?}");
    let strict_config = format!("{CONFIG}strict: true\n");
    let strict = Input {
        spec_path: "hostile.yaml",
        spec_text: spec,
        config_text: Some(&strict_config),
    };
    let pointer = expected.split(": ").next().unwrap_or_default();
    match baseten_codegen::generate(&strict) {
        Err(Error::LeftOut { pointer: at, .. }) => assert_eq!(at, pointer),
        other => panic!("{:?}", other.map(|output| output.notes)),
    }
}

#[test]
fn path_templates_are_validated() {
    // A malformed template leaves out its path item alone.
    let left_out = |template: &str, reason: &str| {
        let pointer = format!("#/paths/{}", template.replace('~', "~0").replace('/', "~1"));
        check_left_out(
            &path(template),
            &format!(
                "{pointer}: path item {template} is left out: path template {template:?} {reason}"
            ),
        );
    };
    left_out("/v1/x{", "has a `{` with no `}`");
    left_out("/v1/x}", "has a `}` with no `{`");
    left_out("/v1/{a{b}}", "has a `{` inside a placeholder");
    left_out("v1/x", "does not start with `/`");
    left_out("/v1/{}", "has an empty placeholder");
    // A fragment is never sent; a query string of plain pairs is sent as written.
    let fragment = generate_ok(&path("/v1/x#y"));
    let operations = &fragment.files["operations.rs"];
    assert!(
        operations.contains("rt::Request::get(\"get_x_y\", \"/v1/x\").finish()?;"),
        "{operations}"
    );
    assert!(!operations.contains("#y"), "{operations}");
    let query = generate_ok(&path("/v1/x?y=1"));
    assert!(query.files["operations.rs"].contains(".fixed_query(\"y\", \"1\")\n"));
    check_left_out(
        &path("/v1/x?y={a}{b}"),
        "#/paths/~1v1~1x?y={a}{b}/get: operation get_x_y_a_b (GET /v1/x?y={a}{b}) is left out: a query string in the path key (\"y={a}{b}\") that is not plain `key=value` pairs",
    );
    check_left_out(
        &path("/v1/x?y={z}"),
        "#/paths/~1v1~1x?y={z}/get: operation get_x_y_z (GET /v1/x?y={z}) is left out: the path key's query pair `y={z}` names no parameter",
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
fn nesting_is_bounded_before_any_walk_recurses() {
    let nested = |levels: usize| {
        let mut schema = "{type: string}".to_owned();
        for _ in 0..levels {
            schema = format!("{{type: array, items: {schema}}}");
        }
        schemas(&format!("    A: {schema}\n"))
    };
    // Past the loader's limit, the schema there is read as any JSON value, with a note.
    let cut = format!("#/components/schemas/A{}", "/items".repeat(29));
    check_left_out(
        &nested(60),
        &format!(
            "{cut}: the schema (read as any JSON value) is left out: {cut} is nested more than 32 levels deep"
        ),
    );
    // Deeper than the parsers read at all, the document is refused, naming the place cut off.
    let error = generate(&nested(200)).err();
    assert_eq!(
        error.map(|e| e.to_string()),
        Some(format!("{cut}: nested more than 32 levels deep"))
    );
}

#[test]
fn errors_name_the_exact_place() {
    check_left_out(
        &format!("{HEAD}paths:\n  /x:\n    get: 3\n"),
        "#/paths/~1x/get: operation GET /x is left out: invalid type: integer `3`, expected struct Operation",
    );
    check_left_out(
        &format!("{HEAD}paths:\n  /x:\n    get:\n      responses: {{'204': {{description: 3}}}}\n"),
        "#/paths/~1x/get: operation GET /x is left out: /responses/204: invalid type: integer `3`, expected a string",
    );
}

// ---------------------------------------------------------------------------------------------
// Documents assembled from adversarial parts
// ---------------------------------------------------------------------------------------------

use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::ValueTree;
use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
use serde_json::{Map, Value, json};

/// Cases of the hostile documents in the slow tier's full-strength run: each generates a whole
/// crate. A run of its own because the `proptest!` macro lets `PROPTEST_CASES` override any
/// configured count.
const FULL_STRENGTH_DOCUMENT_CASES: &str = "1000";

/// The hostile documents again, in a child run of the binary itself at
/// [`FULL_STRENGTH_DOCUMENT_CASES`]; the normal tier runs them at their quick default.
#[test]
#[ignore = "slow: reruns the hostile documents at 1,000 cases"]
fn hostile_documents_at_full_strength() {
    let filter = "hostile::hostile_documents_fail_with_a_place_or_generate_rust";
    let binary = std::env::current_exe().expect("the test binary");
    let output = std::process::Command::new(binary)
        .env("PROPTEST_CASES", FULL_STRENGTH_DOCUMENT_CASES)
        .arg(filter)
        .output()
        .expect("running the test binary");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let ran = stdout
        .lines()
        .find_map(|line| line.strip_prefix("test result: ok. "))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|count| count.parse::<usize>().ok());
    assert!(
        output.status.success() && ran.is_some_and(|count| count >= 1),
        "the full-strength run of {filter} failed or ran nothing:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    eprintln!("{stdout}");
}

/// Cases when `PROPTEST_CASES` is not set: a quick local run.
const DEFAULT_DOCUMENT_CASES: u32 = 64;
/// At most this many documents per run: 10,000 (CI's `PROPTEST_CASES`) would take minutes in a
/// debug build, and 1,000 already covers every part many times over.
const MAX_DOCUMENT_CASES: u32 = 1_000;

fn document_config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .map_or(DEFAULT_DOCUMENT_CASES, |cases: u32| {
            cases.min(MAX_DOCUMENT_CASES)
        });
    // A fixed seed, so CI judges the same documents every run; `HOSTILE_SEED=N` explores others.
    let seed = std::env::var("HOSTILE_SEED")
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(0x5eed_ba5e_7e57_0001);
    ProptestConfig {
        rng_algorithm: RngAlgorithm::XorShift,
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        // A failing document is shown whole; shrinking one this size takes long and says little.
        max_shrink_iters: 200,
        max_shrink_time: 10_000,
        ..ProptestConfig::with_cases(cases)
    }
}

/// Names that have broken generation before, or could: Unicode Rust refuses in identifiers,
/// keywords, names the emitted code uses, emitted locals, empty and punctuation-only names.
const NAMES: &[&str] = &[
    "½",
    "a²",
    "٣٤",
    "é",
    "e\u{301}",
    "日本",
    "ß",
    "İ",
    "🦀",
    "a b",
    "a/b",
    "a~b",
    "{x}",
    "type",
    "self",
    "Self",
    "crate",
    "super",
    "_",
    "__",
    "r#type",
    "Option",
    "Result",
    "String",
    "Vec",
    "Box",
    "Serialize",
    "Deserialize",
    "Client",
    "I",
    "S",
    "D",
    "pairs",
    "headers",
    "cookies",
    "Content-Type",
    "request",
    "value",
    "values",
    "query",
    "body",
    "rt",
    "Unknown",
    "Other",
    "2fa",
    "",
    "-",
    "a-b",
    "A_B",
    "aB",
    "x\u{202e}y",
    "x\ry",
    "x\u{0}y",
    "Ok",
    "None",
    "Some",
    "default",
    "KNOWN",
    "as_str",
    "tag",
    "Empty",
    "V2",
    "T",
    "dyn",
    "async",
    "model_id",
    "ModelId",
];

/// Component keys, every one defined in every document, so that references mostly resolve.
const COMPONENTS: &[&str] = &[
    "A", "Option", "½", "type", "I", "a/b", "a~b", "Self", "pairs",
];

/// Description pieces: every fence style, markup rustdoc reads, control and bidi characters.
const DESCRIPTIONS: &[&str] = &[
    "```",
    "```rust",
    "```should_panic",
    "```compile_fail",
    "````",
    "~~~",
    "~~~rust",
    "```text",
    "fn main() { std::process::exit(1) }",
    "    indented(code);",
    "- ```rust",
    "> ~~~",
    "1. ```",
    "-     list_code();",
    "`unbalanced",
    "``a`b``",
    "`code`",
    "<script>",
    "<deployment_id>",
    "[link](x)",
    "[x]",
    "values[i]",
    "https://example.com/a_(b)",
    "http://x/<y>",
    "\\",
    "*/",
    "/*",
    "#[doc = \"x\"]",
    "\"",
    "}",
    "{",
    "\r",
    "\r\n",
    "\n",
    "\n\n",
    "\t",
    "\u{202e}",
    "\u{2066}",
    "\u{200f}",
    "\u{0}",
    "\u{7}",
    "\u{1b}[31m",
    "\u{2028}",
    "\u{85}",
    "é",
    "🦀",
    "# Heading",
    "---",
    "|a|b|",
    "&amp;",
    "&#x60;",
    "<!--",
    "-->",
    "*",
    "_",
    "~~",
    "plain text",
];

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => select(NAMES).prop_map(str::to_owned),
        1 => "\\PC{0,6}",
        1 => "[a-z\\-_ 0-9\u{300}\u{202e}\r\u{0}]{0,5}",
    ]
}

fn description() -> impl Strategy<Value = String> {
    vec(
        prop_oneof![select(DESCRIPTIONS).prop_map(str::to_owned), "\\PC{0,8}"],
        0..8,
    )
    .prop_map(|pieces| pieces.concat())
}

fn component_ref() -> impl Strategy<Value = Value> {
    prop_oneof![
        // Dangling now and then: most documents have a dozen references.
        60 => select(COMPONENTS),
        1 => select(&["Missing", ""][..]),
    ]
    .prop_map(|key| {
        let escaped = key.replace('~', "~0").replace('/', "~1");
        json!({"$ref": format!("#/components/schemas/{escaped}")})
    })
}

/// Adds a description to a schema object now and then.
fn described(schema: impl Strategy<Value = Value>) -> impl Strategy<Value = Value> {
    (schema, proptest::option::weighted(0.3, description())).prop_map(|(mut schema, doc)| {
        if let (Value::Object(object), Some(doc)) = (&mut schema, doc) {
            object.insert("description".into(), Value::String(doc));
        }
        schema
    })
}

fn leaf_schema() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({"type": "integer"})),
        Just(json!({"type": "number"})),
        Just(json!({"type": "boolean"})),
        Just(json!({"type": ["string", "null"]})),
        Just(json!({"type": "null"})),
        Just(json!({})),
        Just(json!(true)),
        Just(json!(false)),
        Just(json!({"type": "object"})),
        Just(json!({"type": ["string", "integer"]})),
        component_ref(),
        component_ref(),
        vec(name(), 1..5).prop_map(|values| json!({"type": "string", "enum": values})),
        name().prop_map(|value| json!({"const": value})),
        Just(json!({"type": "string", "format": "date-time"})),
        Just(json!({"type": "string", "format": "date"})),
        Just(
            json!({"anyOf": [{"type": "number"}, {"type": "string", "pattern": "^-?\\d+(\\.\\d+)?$"}]})
        ),
        vec(any::<i64>(), 1..4).prop_map(|values| json!({"type": "integer", "enum": values})),
    ]
}

fn schema() -> impl Strategy<Value = Value> {
    described(leaf_schema()).prop_recursive(5, 40, 5, |inner| {
        described(prop_oneof![
            (btree_map(name(), inner.clone(), 1..5), vec(name(), 0..3)).prop_map(
                |(properties, required)| {
                    json!({"type": "object", "properties": properties, "required": required})
                }
            ),
            inner
                .clone()
                .prop_map(|items| json!({"type": "array", "items": items})),
            inner
                .clone()
                .prop_map(|values| json!({"type": "object", "additionalProperties": values})),
            (vec(component_ref(), 1..4), btree_map(name(), component_ref(), 0..3), name())
                .prop_map(|(members, mapping, tag)| {
                    let mapping: Map<String, Value> = mapping
                        .into_iter()
                        .map(|(key, reference)| (key, reference["$ref"].clone()))
                        .collect();
                    json!({"oneOf": members, "discriminator": {"propertyName": tag, "mapping": mapping}})
                }),
            inner
                .clone()
                .prop_map(|member| json!({"anyOf": [member, {"type": "null"}]})),
            vec(inner.clone(), 1..3).prop_map(|members| json!({"allOf": members})),
            vec(inner, 2..3).prop_map(|members| json!({"oneOf": members})),
        ])
    })
}

/// A nesting `depth` deep of arrays or objects, across the generator's depth bound.
fn deep_schema() -> impl Strategy<Value = Value> {
    (0..70usize, any::<bool>()).prop_map(|(depth, objects)| {
        let mut schema = json!({"type": "string"});
        for _ in 0..depth {
            schema = if objects {
                json!({"type": "object", "properties": {"a": schema}})
            } else {
                json!({"type": "array", "items": schema})
            };
        }
        schema
    })
}

/// A path template from ordinary and odd segments, and the placeholders it holds.
fn template() -> impl Strategy<Value = (String, Vec<String>)> {
    let segment = prop_oneof![
        4 => name().prop_map(|n| (n.replace(['{', '}', '/', '?', '#'], ""), None)),
        3 => name().prop_map(|n| {
            let n = n.replace(['{', '}', '/'], "");
            (format!("{{{n}}}"), Some(n))
        }),
        1 => select(&["{", "}", "{}", "x?y=1", "x#f", "{a{b}}", "v1", "v2", ""][..])
            .prop_map(|s| (s.to_owned(), None)),
    ];
    (vec(segment, 0..4), prop::bool::weighted(0.95)).prop_map(|(segments, slash)| {
        let placeholders = segments.iter().filter_map(|(_, p)| p.clone()).collect();
        let joined = segments
            .into_iter()
            .map(|(s, _)| s)
            .collect::<Vec<_>>()
            .join("/");
        (
            if slash { format!("/{joined}") } else { joined },
            placeholders,
        )
    })
}

fn parameter_schema() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({"type": "integer"})),
        Just(json!({"type": "boolean"})),
        Just(json!({"type": "array", "items": {"type": "string"}})),
        component_ref(),
        vec(name(), 1..4).prop_map(|values| json!({"type": "string", "enum": values})),
        vec(name(), 1..3).prop_map(
            |values| json!({"type": "array", "items": {"type": "string", "enum": values}})
        ),
    ]
}

fn operation(placeholders: Vec<String>) -> impl Strategy<Value = Value> {
    let locations = select(&["query", "query", "header", "cookie"][..]);
    let query = vec((name(), any::<bool>(), parameter_schema(), locations), 0..4);
    let path_schemas = vec(parameter_schema(), placeholders.len());
    (
        query,
        path_schemas,
        prop::bool::weighted(0.9),
        proptest::option::of(schema()),
        proptest::option::of(schema()),
        proptest::option::of(description()),
        proptest::option::of(description()),
    )
        .prop_map(
            move |(query, path_schemas, declare_path, body, response, summary, doc)| {
                let mut parameters: Vec<Value> = Vec::new();
                if declare_path {
                    for (placeholder, schema) in placeholders.iter().zip(path_schemas) {
                        parameters.push(json!({"name": placeholder, "in": "path", "required": true, "schema": schema}));
                    }
                }
                for (name, required, schema, location) in query {
                    parameters.push(json!({"name": name, "in": location, "required": required, "schema": schema, "description": "a\rb"}));
                }
                let mut operation = json!({"parameters": parameters});
                let responses = match response {
                    Some(schema) => json!({"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}}),
                    None => json!({"204": {"description": "none"}}),
                };
                operation["responses"] = responses;
                if let Some(body) = body {
                    operation["requestBody"] =
                        json!({"required": true, "content": {"application/json": {"schema": body}}});
                }
                if let Some(summary) = summary {
                    operation["summary"] = Value::String(summary);
                }
                if let Some(doc) = doc {
                    operation["description"] = Value::String(doc);
                }
                operation
            },
        )
}

fn path_item() -> impl Strategy<Value = (String, Value)> {
    template().prop_flat_map(|(template, placeholders)| {
        let methods =
            prop::sample::subsequence(&["get", "post", "put", "delete", "patch"][..], 1..3);
        (methods, vec(operation(placeholders), 3)).prop_map(move |(methods, operations)| {
            let item: Map<String, Value> = methods
                .into_iter()
                .zip(operations)
                .map(|(method, operation)| (method.to_owned(), operation))
                .collect();
            (template.clone(), Value::Object(item))
        })
    })
}

/// A whole document: components from adversarial schemas, paths from odd templates.
fn hostile_document() -> impl Strategy<Value = Value> {
    let components = vec(
        prop_oneof![4 => schema(), 1 => deep_schema(), 1 => component_ref()],
        COMPONENTS.len(),
    );
    (components, vec(path_item(), 0..4)).prop_map(|(schemas, paths)| {
        let schemas: Map<String, Value> = COMPONENTS
            .iter()
            .map(|key| (*key).to_owned())
            .zip(schemas)
            .collect();
        let paths: Map<String, Value> = paths.into_iter().collect();
        json!({
            "openapi": "3.1.0",
            "info": {"title": "hostile", "version": "1"},
            "servers": [{"url": "https://example.com/\u{202e}"}],
            "paths": paths,
            "components": {"schemas": schemas},
        })
    })
}

/// Names of the crate's own surface: the `Client`'s and the fake's inherent methods, the fixed
/// types, the emitted bodies' locals, and the names the surface derives for support structs,
/// streams, query structs and expectations. Documents built from them collide with every item
/// kind the surface holds.
const SURFACE_NAMES: &[&str] = &[
    "new",
    "from_env",
    "builder",
    "runtime",
    "base_url",
    "with_timeout",
    "with_retry_policy",
    "start",
    "client",
    "uri",
    "server",
    "cursor",
    "query",
    "options",
    "request",
    "response",
    "get_things",
    "get_things_pages",
    "get_things_items",
    "on_get_things",
    "environment_metrics",
];

/// Component keys for the metrics and page schemas, named like the crate's own types.
const SURFACE_TYPE_NAMES: &[&str] = &[
    "Client",
    "FakeBaseten",
    "EnvironmentMetricsOperation",
    "ThingsMetricsOperation",
    "GetThingsQuery",
    "DEFAULT_BASE_URL",
    "Page",
    "Item",
    "Usage",
    "Metrics",
    "Window",
];

/// Metrics paths whose entry points derive to a `Client` method's name (`base_url`, `from_env`,
/// `with_timeout`) or to the usual one; `{A}` and `{B}` become surface names.
const METRICS_PATHS: &[&str] = &[
    "/v1/bases/{A}/url",
    "/v1/froms/{A}/env",
    "/v1/withs/{A}/timeout",
    "/v1/models/{A}/environments/{B}/metrics",
    "/v1/things/{A}/metrics",
];

/// Paginated paths, and plain ones named like a stream (`get_things_pages`).
const PAGED_PATHS: &[&str] = &[
    "/v1/things/{A}",
    "/v1/things/{A}/{B}/events",
    "/v1/things_pages",
    "/v1/things_items/{A}",
];

fn surface_path(template: &str, a: &str, b: &str) -> (String, Vec<String>) {
    let mut placeholders = Vec::new();
    if template.contains("{A}") {
        placeholders.push(a.to_owned());
    }
    if template.contains("{B}") {
        placeholders.push(b.to_owned());
    }
    (
        template
            .replace("{A}", &format!("{{{a}}}"))
            .replace("{B}", &format!("{{{b}}}")),
        placeholders,
    )
}

fn path_parameters(placeholders: &[String]) -> Vec<Value> {
    placeholders
        .iter()
        .map(|name| json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}}))
        .collect()
}

/// A document whose metrics operation, paginated operation, stream-named operation, parameters
/// and schemas are all named like items of the crate's surface.
fn surface_document() -> impl Strategy<Value = Value> {
    let two_names = prop::sample::subsequence(SURFACE_NAMES, 2).prop_shuffle();
    let type_names = prop::sample::subsequence(SURFACE_TYPE_NAMES, 5).prop_shuffle();
    (
        select(METRICS_PATHS),
        select(PAGED_PATHS),
        two_names.clone(),
        two_names,
        select(SURFACE_NAMES),
        type_names,
    )
        .prop_map(|(metrics_path, paged_path, metrics_names, paged_names, extra, types)| {
            let (usage, descriptor, value_set, page, item) =
                (&types[0], &types[1], &types[2], &types[3], &types[4]);
            let reference = |key: &str| json!({"$ref": format!("#/components/schemas/{key}")});
            let (metrics_path, metrics_placeholders) =
                surface_path(metrics_path, metrics_names[0], metrics_names[1]);
            let mut metrics_parameters = path_parameters(&metrics_placeholders);
            metrics_parameters.extend([
                json!({"name": "mode", "in": "query", "schema": {"type": "string"}}),
                json!({"name": "start_epoch_millis", "in": "query", "schema": {"type": "integer"}}),
                json!({"name": "end_epoch_millis", "in": "query", "schema": {"type": "integer"}}),
                json!({"name": "metrics", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}}),
            ]);
            let (paged_path, paged_placeholders) =
                surface_path(paged_path, paged_names[0], paged_names[1]);
            let mut paged_parameters = path_parameters(&paged_placeholders);
            paged_parameters.push(json!({"name": "cursor", "in": "query", "schema": {"anyOf": [{"type": "string"}, {"type": "null"}]}}));
            if !paged_placeholders.contains(&extra.to_owned()) && extra != "cursor" {
                paged_parameters.push(json!({"name": extra, "in": "query", "schema": {"type": "string"}}));
            }
            let ok = |schema: Value| json!({"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}});
            let mut paths = Map::new();
            paths.insert(metrics_path, json!({"get": {"parameters": metrics_parameters, "responses": ok(reference(usage))}}));
            paths.insert(paged_path, json!({"get": {"parameters": paged_parameters, "responses": ok(reference(page))}}));
            // A plain operation whose method is named like the stream of the one above.
            paths.entry("/v1/things/pages".to_owned()).or_insert_with(|| {
                json!({"get": {"responses": {"204": {"description": "none"}}}})
            });
            let mut schemas = Map::new();
            schemas.insert(usage.to_string(), json!({
                "type": "object",
                "required": ["start_epoch_millis", "end_epoch_millis", "descriptors", "value_sets"],
                "properties": {
                    "start_epoch_millis": {"type": "integer"},
                    "end_epoch_millis": {"type": "integer"},
                    "mode": {"type": "string"},
                    "descriptors": {"type": "array", "items": reference(descriptor)},
                    "value_sets": {"type": "array", "items": reference(value_set)},
                },
            }));
            schemas.insert(descriptor.to_string(), json!({
                "type": "object",
                "required": ["name", "label_sets"],
                "properties": {
                    "name": {"type": "string"},
                    "unit_hint": {"type": "string", "enum": ["SECONDS", "WATTS"]},
                    "label_sets": {"type": "array", "items": {"type": "object", "additionalProperties": {"type": "string"}}},
                },
            }));
            schemas.insert(value_set.to_string(), json!({
                "type": "object",
                "required": ["start_epoch_millis", "values"],
                "properties": {
                    "start_epoch_millis": {"type": "integer"},
                    "values": {"type": "array", "items": {"type": "array", "items": {"type": ["number", "null"]}}},
                },
            }));
            schemas.insert(page.to_string(), json!({
                "type": "object",
                "required": ["items", "has_more"],
                "properties": {
                    "items": {"type": "array", "items": reference(item)},
                    "has_more": {"type": "boolean"},
                    "cursor": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                },
            }));
            schemas.insert(item.to_string(), json!({
                "type": "object",
                "required": ["id"],
                "properties": {"id": {"type": "string"}, "client": {"type": "string"}},
            }));
            json!({
                "openapi": "3.1.0",
                "info": {"title": "surface", "version": "1"},
                "servers": [{"url": "https://surface.example"}],
                "paths": paths,
                "components": {"schemas": schemas},
            })
        })
}

/// Why generating from `document` went wrong, if it did: a panic, an error naming no place,
/// an emitted file that is not Rust, or text from the document that rustdoc could run.
/// [`fault`] on a thread with the stack the generator's own formatting threads have (64 MiB),
/// not a test thread's 2 MiB: `syn::parse_file` of deeply nested output recurses deeply in a
/// debug build.
fn fault_on_a_main_sized_stack(text: &str) -> Option<String> {
    // A stack overflow aborts the process before proptest can shrink or persist the case:
    // `HOSTILE_DUMP=PATH` leaves each document on disk before it is checked, so the last one
    // written is the one that aborted.
    if let Some(path) = std::env::var_os("HOSTILE_DUMP") {
        let _ = std::fs::write(path, text);
    }
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(64 * 1024 * 1024)
            .spawn_scoped(scope, || fault(text))
            .map_or_else(
                |error| Some(format!("no thread: {error}")),
                |handle| {
                    handle
                        .join()
                        .unwrap_or_else(|_| Some("the check panicked".to_owned()))
                },
            )
    })
}

fn fault(text: &str) -> Option<String> {
    let input = Input {
        spec_path: "hostile.json",
        spec_text: text,
        config_text: Some(CONFIG),
    };
    let output = match catch_unwind(AssertUnwindSafe(|| baseten_codegen::generate(&input))) {
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            return Some(format!("panicked: {message}"));
        }
        Ok(Err(error)) => {
            let text = error.to_string();
            return (!text.contains("#/")).then(|| format!("error naming no place: {text}"));
        }
        Ok(Ok(output)) => output,
    };
    for (file, text) in &output.files {
        if let Err(error) = syn::parse_file(text) {
            return Some(format!("{file} does not parse: {error}"));
        }
        if let Some(c) = text.chars().find(|c| is_forbidden_in_source(*c)) {
            return Some(format!("{file} holds {c:?}"));
        }
        if let Some(line) = runnable_fence(text) {
            return Some(format!("{file} has a doc block rustdoc could run: {line}"));
        }
    }
    None
}

/// Characters that break or are denied in Rust source: a bare CR, bidi controls.
fn is_forbidden_in_source(c: char) -> bool {
    matches!(c, '\r' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The first doc-comment fence that opens as anything but `text`, or stays open.
fn runnable_fence(file: &str) -> Option<String> {
    let mut fence: Option<(char, usize)> = None;
    for line in file.lines() {
        let Some(doc) = line.trim_start().strip_prefix("///") else {
            if fence.is_some() {
                return Some("an unclosed fence".into());
            }
            continue;
        };
        let doc = doc.trim();
        let run = |c: char| doc.chars().take_while(|d| *d == c).count();
        match fence {
            Some((c, length)) => {
                if doc.chars().all(|d| d == c) && doc.len() >= length {
                    fence = None;
                }
            }
            None => {
                for c in ['`', '~'] {
                    let length = run(c);
                    let info = doc[length..].trim();
                    // CommonMark: a backtick fence's info string holds no backtick.
                    let opens = length >= 3 && !(c == '`' && info.contains('`'));
                    if opens {
                        if info != "text" {
                            return Some(line.to_owned());
                        }
                        fence = Some((c, length));
                    }
                }
            }
        }
    }
    None
}

proptest! {
    #![proptest_config(document_config())]

    #[test]
    fn hostile_documents_fail_with_a_place_or_generate_rust(document in hostile_document()) {
        let text = serde_json::to_string_pretty(&document).unwrap_or_default();
        if let Some(fault) = fault_on_a_main_sized_stack(&text) {
            prop_assert!(false, "{}\nfor:\n{}", fault, text);
        }
    }

    #[test]
    fn surface_named_documents_generate_rust_with_every_item_kind(document in surface_document()) {
        let text = serde_json::to_string_pretty(&document).unwrap_or_default();
        if let Some(fault) = fault_on_a_main_sized_stack(&text) {
            prop_assert!(false, "{}\nfor:\n{}", fault, text);
        }
        // Not refused: each has an entry point, a page stream and the fake's expectations.
        let output = generate(&text);
        prop_assert!(output.is_ok(), "{:?}\nfor:\n{}", output.err(), text);
        let files = output.map(|output| output.files).unwrap_or_default();
        let client = files.get("client.rs").map_or("", String::as_str);
        let mock = files.get("mock.rs").map_or("", String::as_str);
        prop_assert!(client.contains("MetricsRequest<"), "no entry point:\n{}", client);
        prop_assert!(client.contains("_pages("), "no page stream:\n{}", client);
        prop_assert!(mock.contains("pub fn on_"), "no expectation:\n{}", mock);
    }
}

// ---------------------------------------------------------------------------------------------
// The compiled batch
// ---------------------------------------------------------------------------------------------

/// Generated documents in the batch, beside every document the checks above generate from.
const COMPILED_DOCUMENTS: usize = 50;
/// Surface-named documents in the batch ([`surface_document`]).
const SURFACE_COMPILED_DOCUMENTS: usize = 20;

/// The documents of the regression checks above and [`COMPILED_DOCUMENTS`] generated hostile
/// ones (a fixed seed, so the batch is the same every run), compiled as modules of one crate:
/// zero errors, zero warnings, zero doctests.
#[test]
#[ignore = "slow: compiles 50 generated hostile documents, 20 surface-named ones and the regression ones"]
fn hostile_documents_compile_without_warnings() {
    SUCCEEDED.with_borrow_mut(|seen| *seen = Some(Vec::new()));
    document_text_never_becomes_a_doctest();
    control_characters_never_reach_a_comment();
    any_unicode_name_becomes_an_identifier();
    document_names_never_shadow_what_the_emitted_code_uses();
    suffixed_keyword_names_stay_in_case();
    document_names_never_collide_with_emitted_locals_or_generics();
    unions_on_a_containment_cycle_are_boxed();
    query_setters_never_shadow_derived_methods();
    let regressions = SUCCEEDED.with_borrow_mut(Option::take).unwrap_or_default();
    let mut modules: Vec<Output> = regressions.iter().map(|spec| generate_ok(spec)).collect();
    for name in crate::documents::FIXTURES {
        modules.push(generate_ok(&crate::documents::fixture(name)));
    }

    let mut runner = TestRunner::new_with_rng(
        ProptestConfig::default(),
        TestRng::from_seed(RngAlgorithm::XorShift, &[11; 16]),
    );
    let strategy = hostile_document();
    let mut generated = 0;
    for _ in 0..20 * COMPILED_DOCUMENTS {
        if generated == COMPILED_DOCUMENTS {
            break;
        }
        let document = strategy.new_tree(&mut runner).unwrap().current();
        let text = serde_json::to_string_pretty(&document).unwrap();
        if let Ok(output) = generate(&text) {
            modules.push(output);
            generated += 1;
        }
    }
    assert_eq!(generated, COMPILED_DOCUMENTS, "too few documents generate");
    // And documents named like the crate's own surface, each with a metrics entry point, a page
    // stream and the fake's expectations: every one must generate, and compile.
    let surface = surface_document();
    for _ in 0..SURFACE_COMPILED_DOCUMENTS {
        let document = surface.new_tree(&mut runner).unwrap().current();
        let text = serde_json::to_string_pretty(&document).unwrap();
        match generate(&text) {
            Ok(output) => modules.push(output),
            Err(error) => panic!("a surface-named document is refused: {error}\n{text}"),
        }
    }

    let dir = check_batch(&modules);
    // Every fence and indented block the documents hold is in there: none may be a doctest.
    let doctests = baseten_tests::cargo_sharing_target()
        .args(["test", "--doc", "--quiet", "--manifest-path"])
        .arg(dir.path().join("Cargo.toml"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&doctests.stdout);
    assert!(
        doctests.status.success() && stdout.contains("running 0 tests"),
        "text from the documents runs as doctests:\n{stdout}\n{}",
        String::from_utf8_lossy(&doctests.stderr)
    );
}

/// Writes `modules` as one crate ([`write_batch_crate`]) and checks it: zero errors, zero
/// warnings. The crate's directory is returned for more checks.
pub(crate) fn check_batch(modules: &[Output]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_batch_crate(dir.path(), modules);
    let output = baseten_tests::cargo_sharing_target()
        .args([
            "check",
            "--quiet",
            "--message-format",
            "short",
            "--manifest-path",
        ])
        .arg(dir.path().join("Cargo.toml"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the batch does not compile:\n{stderr}"
    );
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("warning")).collect();
    assert!(
        warnings.is_empty(),
        "the batch has warnings:\n{}",
        warnings.join("\n")
    );
    dir
}

/// `count` schemas on one cycle, each also reaching others through an optional field, an
/// array and a map (the `recursive` stress shape), and a chain of `count` optional fields
/// ending in a cycle of 8 the generator keeps as `Box` and `Vec` would (the largest its depth
/// bound allows: 8 optional boxed fields, 3 levels each).
fn cycle_and_chain(count: usize) -> [String; 2] {
    let document = |root: &str| {
        format!(
            "{HEAD}paths:\n  /root:\n    get:\n      operationId: getRoot\n      responses: {{'200': \
             {{description: ok, content: {{application/json: {{schema: {{$ref: \
             '#/components/schemas/{root}'}}}}}}}}}}\ncomponents:\n  schemas:\n"
        )
    };
    let (mut cycle, mut chain) = (document("Node0"), document("Link0"));
    let node = |j: usize| format!("{{$ref: '#/components/schemas/Node{}'}}", j % count);
    for i in 0..count {
        cycle.push_str(&format!(
            "    Node{i}: {{type: object, required: [next], properties: {{label: {{type: string}}, \
             next: {}, optional: {{anyOf: [{}, {{type: 'null'}}]}}, children: {{type: array, \
             items: {}}}, index: {{type: object, additionalProperties: {}}}}}}}\n",
            node(i + 1),
            node(i * 5 + 1),
            node(i * 13 + 5),
            node(i * 3 + 2),
        ));
        let next = if i + 1 < count {
            format!("next: {{$ref: '#/components/schemas/Link{}'}}", i + 1)
        } else {
            "ring: {$ref: '#/components/schemas/Ring0'}".to_owned()
        };
        chain.push_str(&format!(
            "    Link{i}: {{type: object, properties: {{label: {{type: string}}, {next}}}}}\n"
        ));
    }
    for i in 0..8 {
        chain.push_str(&format!(
            "    Ring{i}: {{type: object, properties: {{next: {{$ref: '#/components/schemas/Ring{}'}}, \
             children: {{type: array, items: {{$ref: '#/components/schemas/Ring{}'}}}}}}}}\n",
            (i + 1) % 8,
            (i + 3) % 8,
        ));
    }
    [cycle, chain]
}

/// A cycle of 56 schemas and a chain of 130 optional fields failed with E0320 ("overflow while
/// adding drop-check rules"): the generator's `Indirect` edges keep both, at 300, compiling,
/// and the chain is cut soundly above the small cycle it ends in.
#[test]
#[ignore = "slow: compiles a generated cycle of 300 schemas and a chain of 300"]
fn long_cycles_and_chains_compile() {
    let modules: Vec<Output> = cycle_and_chain(300)
        .iter()
        .map(|spec| generate_ok(spec))
        .collect();
    let models = &modules[0].files["models.rs"];
    assert!(
        models.contains("rt::Indirect<Node1>"),
        "the cycle holds no `Indirect`"
    );
    let models = &modules[1].files["models.rs"];
    assert!(
        models.contains("Option<Box<Ring1>>") && models.contains("Vec<Ring3>"),
        "the small cycle at the chain's end is not held as `Box` and `Vec`"
    );
    check_batch(&modules);
}

/// Writes a crate at `dir` with one module per generator output (`src/doc_N/`).
///
/// What it assumes of the runtime (adapt here when its layout changes): the runtime is the
/// `baseten-api` crate at `<workspace>/generated`; the emitted code reaches it as
/// `baseten_api::runtime` ([`CONFIG`]); the emitted `operations.rs` adds methods to
/// `super::Client`, so each module defines a `Client` newtype that derefs to
/// `baseten_api::Client`, as `baseten_codegen::generate_crate` and the snapshots do; and the
/// emitted modules get the same `allow`s as in a generated crate.
fn write_batch_crate(dir: &std::path::Path, modules: &[Output]) {
    let root = baseten_tests::workspace_root();
    let write = |path: std::path::PathBuf, text: &str| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    // Every module's items are gated by its API areas (and `full`): the batch declares each and
    // turns them all on, so nothing is compiled out.
    let areas: std::collections::BTreeSet<&str> = modules
        .iter()
        .flat_map(|output| output.cargo_features.lines())
        .filter_map(|line| line.split_once(" = [").map(|(name, _)| name))
        .filter(|name| !["jiff", "decimal"].contains(name))
        .collect();
    assert!(areas.contains("full"), "no features in the outputs");
    let declared: String = areas.iter().map(|area| format!("{area} = []\n")).collect();
    let enabled: Vec<String> = areas.iter().map(|area| format!("{area:?}")).collect();
    write(
        dir.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"hostile-batch\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\nbaseten-api = {{ path = {:?}, features = [\"mock\"] }}\n\
             serde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\n\n\
             # The emitted `mock.rs` needs the serde impls models keep behind `mock`.\n\
             [features]\ndefault = [\"mock\", {}]\nmock = []\n{declared}\n[workspace]\n",
            root.join("generated").display().to_string(),
            enabled.join(", ")
        ),
    );
    // The workspace's lock file keeps dependency versions (and so build artifacts) shared.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let mut lib = String::from("//! Hostile documents, one generated module each.\n");
    for (i, output) in modules.iter().enumerate() {
        lib.push_str(&format!("pub mod doc_{i};\n"));
        // Like a generated crate's root: the emitted `client.rs` defines the `Client` the
        // emitted operations add methods to.
        let mut module = String::from("//! One generated document.\n\npub use client::Client;\n");
        for (file, text) in &output.files {
            let name = file.trim_end_matches(".rs");
            let visibility = if name == "index_mapped" { "" } else { "pub " };
            module.push_str(&format!(
                "\n#[allow(clippy::all, clippy::pedantic, missing_docs, unused_imports)]\n{visibility}mod {name};\n"
            ));
            write(dir.join(format!("src/doc_{i}/{file}")), text);
        }
        write(dir.join(format!("src/doc_{i}/mod.rs")), &module);
    }
    write(dir.join("src/lib.rs"), &lib);
}

/// Found by the harness in CI: a parameter whose schema is a one-member `allOf` wrapping an
/// inline one-member `allOf` of itself looped forever (the composition check follows only
/// `$ref` members, so it let this cycle through). Now an
/// error naming the place, for a query and a path parameter, directly and through a `oneOf`.
#[test]
fn a_self_wrapping_all_of_in_a_parameter_is_an_error_not_a_hang() {
    for (place, schema) in [
        ("query", r##"{"$ref": "#/components/schemas/Loop"}"##),
        (
            "query",
            r##"{"oneOf": [{"$ref": "#/components/schemas/Loop"}, {"type": "string"}]}"##,
        ),
        ("path", r##"{"$ref": "#/components/schemas/Loop"}"##),
    ] {
        let (name, path) = if place == "path" {
            ("id", "/v1/x/{id}")
        } else {
            ("q", "/v1/x")
        };
        let text = format!(
            r##"{{"openapi": "3.1.0", "info": {{"title": "t", "version": "1"}},
               "paths": {{"{path}": {{"get": {{"parameters": [{{"name": "{name}", "in": "{place}",
                   "required": true, "schema": {schema}}}],
                 "responses": {{"204": {{"description": "none"}}}}}}}}}},
               "components": {{"schemas": {{"Loop": {{"allOf": [{{"allOf": [{{"$ref": "#/components/schemas/Loop"}}]}}]}}}}}}}}"##
        );
        let input = Input {
            spec_path: "loop.json",
            spec_text: &text,
            config_text: None,
        };
        match baseten_codegen::generate(&input) {
            Err(error) => assert!(error.to_string().contains("#/"), "{error}"),
            Ok(output) => assert!(
                output
                    .notes
                    .iter()
                    .any(|note| note.to_string().contains("#/")),
                "{place}: neither an error nor a note: {:?}",
                output.files.keys()
            ),
        }
    }
}
