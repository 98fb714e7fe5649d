//! Nested schemas: a fault at any depth, under any wrapper, is refused with the pointer of the
//! keyword at fault, and decoding never backtracks (`openapiv3` retried every form at every
//! level, so an invalid schema 20 levels down took minutes); callbacks, which nest path items
//! without bound, are left out with a note.
//!
//! The sweep here is cheap enough for CI with no time-out; `cargo run --release -p
//! baseten-codegen --example depth_sweep` times 1,000 such documents and prints the slowest.

use baseten_codegen::{Error, Input, Note};
use proptest::prelude::*;

const HEAD: &str = r#""openapi": "3.1.0", "info": {"title": "t", "version": "1"}"#;

/// The deepest container the loader accepts is at depth 31 (`load::MAX_DEPTH` is 32); schema
/// `A` stands at depth 3.
const DEEPEST_LEVEL: usize = baseten_codegen::load::MAX_DEPTH - 1;
const SCHEMA_LEVEL: usize = 3;

/// A schema keyword that holds a schema, and how it wraps one.
#[derive(Debug, Clone, Copy)]
enum Wrapper {
    Items,
    Not,
    AdditionalProperties,
    Properties,
    AnyOf,
    OneOf,
    AllOf,
}

const WRAPPERS: [Wrapper; 7] = [
    Wrapper::Items,
    Wrapper::Not,
    Wrapper::AdditionalProperties,
    Wrapper::Properties,
    Wrapper::AnyOf,
    Wrapper::OneOf,
    Wrapper::AllOf,
];

impl Wrapper {
    /// `inner` wrapped once, as JSON text.
    fn wrap(self, inner: &str) -> String {
        match self {
            Wrapper::Items => format!(r#"{{"type": "array", "items": {inner}}}"#),
            Wrapper::Not => format!(r#"{{"not": {inner}}}"#),
            Wrapper::AdditionalProperties => {
                format!(r#"{{"type": "object", "additionalProperties": {inner}}}"#)
            }
            Wrapper::Properties => {
                format!(r#"{{"type": "object", "properties": {{"p": {inner}}}}}"#)
            }
            // The wrapped schema is the second member, so a pointer naming index 0 is wrong.
            Wrapper::AnyOf => format!(r#"{{"anyOf": [{{"type": "string"}}, {inner}]}}"#),
            Wrapper::OneOf => format!(r#"{{"oneOf": [{{"type": "integer"}}, {inner}]}}"#),
            Wrapper::AllOf => format!(r#"{{"allOf": [{{"type": "object"}}, {inner}]}}"#),
        }
    }

    /// The pointer segments from the wrapper to the wrapped schema.
    fn segments(self) -> &'static str {
        match self {
            Wrapper::Items => "/items",
            Wrapper::Not => "/not",
            Wrapper::AdditionalProperties => "/additionalProperties",
            Wrapper::Properties => "/properties/p",
            Wrapper::AnyOf => "/anyOf/1",
            Wrapper::OneOf => "/oneOf/1",
            Wrapper::AllOf => "/allOf/1",
        }
    }

    /// Levels of JSON nesting one wrap adds.
    fn levels(self) -> usize {
        self.segments().matches('/').count()
    }
}

/// The innermost schema: valid ones, and faults of each kind with the keyword at fault.
const VALID_LEAVES: &[&str] = &[
    r#"{"type": "string"}"#,
    r##"{"$ref": "#/components/schemas/B"}"##,
    "true",
    "{}",
];
const INVALID_LEAVES: &[(&str, &str)] = &[
    (r#"{"type": 5}"#, "/type"),
    (r#"{"type": "string", "minLength": "x"}"#, "/minLength"),
    (r#"{"type": "object", "required": "p"}"#, "/required"),
    (
        r#"{"type": "object", "discriminator": 3}"#,
        "/discriminator",
    ),
    (
        r#"{"type": "object", "additionalProperties": "x"}"#,
        "/additionalProperties",
    ),
];

/// A document whose schema `A` is `leaf` inside `wrappers` (outermost first).
fn document(wrappers: &[Wrapper], leaf: &str) -> String {
    let schema = wrappers
        .iter()
        .rev()
        .fold(leaf.to_owned(), |inner, wrapper| wrapper.wrap(&inner));
    format!(
        r#"{{{HEAD}, "paths": {{}}, "components": {{"schemas": {{"A": {schema}, "B": {{"type": "integer"}}}}}}}}"#
    )
}

fn pointer(wrappers: &[Wrapper], at: &str) -> String {
    let path: String = wrappers.iter().map(|wrapper| wrapper.segments()).collect();
    format!("#/components/schemas/A{path}{at}")
}

/// Whether `wrappers` around a leaf object stay within the loader's depth limit.
fn fits(wrappers: &[Wrapper]) -> bool {
    SCHEMA_LEVEL + wrappers.iter().map(|w| w.levels()).sum::<usize>() <= DEEPEST_LEVEL
}

fn build(spec: &str) -> Result<Vec<Note>, Error> {
    let input = Input {
        spec_path: "nesting.json",
        spec_text: spec,
        config_text: None,
    };
    baseten_codegen::build_ir(&input).map(|(_, notes)| notes)
}

/// The first "left out" note a document gives (pointer: message), or the error.
fn first_left_out(spec: &str) -> Result<Option<String>, Error> {
    let notes = build(spec)?;
    Ok(notes
        .iter()
        .find(|note| note.message.contains(" is left out: "))
        .map(ToString::to_string))
}

/// A valid leaf builds; each invalid one leaves out its keyword alone, naming it under the
/// wrappers, and strict mode refuses naming the same place.
fn check(wrappers: &[Wrapper]) {
    for leaf in VALID_LEAVES {
        let spec = document(wrappers, leaf);
        if let Err(error) = build(&spec) {
            panic!("{error}\nfor:\n{spec}");
        }
    }
    for (leaf, at) in INVALID_LEAVES {
        let spec = document(wrappers, leaf);
        let expected = pointer(wrappers, at);
        match first_left_out(&spec) {
            Ok(Some(note)) => assert!(
                note.starts_with(&format!("{expected}: ")),
                "{note} for:\n{spec}"
            ),
            other => panic!("expected a left-out note, got {other:?} for:\n{spec}"),
        }
        let strict = Input {
            spec_path: "nesting.json",
            spec_text: &spec,
            config_text: Some("strict: true"),
        };
        match baseten_codegen::build_ir(&strict) {
            Err(Error::LeftOut { pointer: found, .. }) => {
                assert_eq!(found, expected, "for:\n{spec}")
            }
            other => panic!(
                "expected Error::LeftOut, got {:?} for:\n{spec}",
                other.map(|(_, notes)| notes)
            ),
        }
    }
}

/// One regression per wrapper class, three deep: before the node-by-node check, the pointer
/// stopped at the outermost schema (`#/components/schemas/A`) and each level doubled the time.
#[test]
fn a_fault_under_each_wrapper_names_its_keyword() {
    for wrapper in WRAPPERS {
        check(&[wrapper; 3]);
    }
    let spec = document(&[Wrapper::Items, Wrapper::Not], r#"{"type": 5}"#);
    assert_eq!(
        first_left_out(&spec).ok().flatten().as_deref(),
        Some(
            "#/components/schemas/A/items/not/type: keyword `type` is left out: invalid type: integer `5`, expected a string"
        )
    );
}

/// Every wrapper kind alone, at every depth up to the loader's limit, valid and invalid.
#[test]
fn depth_sweep_over_every_wrapper() {
    for wrapper in WRAPPERS {
        let mut wrappers = Vec::new();
        while fits(&wrappers) {
            check(&wrappers);
            wrappers.push(wrapper);
        }
        // One past the limit, the schema holding the first container too deep is read as any
        // JSON value, with a note naming it.
        let spec = document(&wrappers, r#"{"type": "string"}"#);
        let note = first_left_out(&spec);
        assert!(
            note.as_ref().is_ok_and(|note| note
                .as_deref()
                .is_some_and(|note| note.ends_with("nested more than 32 levels deep"))),
            "{note:?} for:\n{spec}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Wrappers mixed in any order, as deep as the limit allows.
    #[test]
    fn mixed_wrappers_to_the_depth_limit(
        picks in proptest::collection::vec(0..WRAPPERS.len(), 0..=28),
    ) {
        let mut wrappers: Vec<Wrapper> = picks.into_iter().map(|i| WRAPPERS[i]).collect();
        while !fits(&wrappers) {
            wrappers.pop();
        }
        check(&wrappers);
    }
}

/// A schema inside a media type's encoding headers is checked like any other.
#[test]
fn encoding_header_schemas_are_checked() {
    let spec = format!(
        r#"{{{HEAD}, "paths": {{"/x": {{"post": {{
            "requestBody": {{"content": {{"multipart/form-data": {{
                "schema": {{"type": "object", "properties": {{"f": {{"type": "string"}}}}}},
                "encoding": {{"f": {{"headers": {{"X-H": {{"schema": {{"type": "array", "items": {{"type": 5}}}}}}}}}}}}
            }}}}}},
            "responses": {{"204": {{"description": "ok"}}}}
        }}}}}}}}"#
    );
    assert_eq!(
        first_left_out(&spec).ok().flatten().as_deref(),
        Some(
            "#/paths/~1x/post/requestBody/content/multipart~1form-data/encoding/f/headers/X-H/schema/items/type: keyword `type` is left out: invalid type: integer `5`, expected a string"
        )
    );
}

/// Callbacks nest path items in path items without bound; they are left out with a note, at
/// every level of the document, even when what they hold is invalid.
#[test]
fn callbacks_are_left_out_with_a_note() {
    let mut callback = r#"{"get": {"responses": {"200": {"description": 5}}}}"#.to_owned();
    for _ in 0..3 {
        callback = format!(
            r#"{{"post": {{"callbacks": {{"c": {{"{{$url}}": {callback}}}}}, "responses": {{"204": {{"description": "ok"}}}}}}}}"#
        );
    }
    let spec = format!(
        r#"{{{HEAD}, "paths": {{"/x": {{"get": {{"callbacks": {{"c": {{"{{$url}}": {callback}}}}}, "responses": {{"204": {{"description": "ok"}}}}}}}}}},
            "components": {{"callbacks": {{"c": {{"{{$url}}": {callback}}}}}}}}}"#
    );
    let notes = build(&spec).unwrap_or_else(|error| panic!("{error}\nfor:\n{spec}"));
    let notes: Vec<String> = notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        [
            "#/paths/~1x/get/callbacks: callbacks are not generated",
            "#/components/callbacks: callbacks are not generated",
        ]
    );
}

/// YAML aliases are expanded on every use: four levels of a hundred aliases would be 10^8
/// values from 2 KB of text (minutes and gigabytes before the budget). The read stops at the
/// first value past the budget, naming it.
#[test]
fn yaml_aliases_cannot_expand_a_document_past_its_budget() {
    let list = |item: &str| format!("[{}]", vec![item; 100].join(", "));
    let spec = format!(
        "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths: {{}}\nx-a: &a {}\nx-b: &b {}\nx-c: &c {}\nx-d: {}\n",
        list("1"),
        list("*a"),
        list("*b"),
        list("*c"),
    );
    assert!(spec.len() < 2_000, "{}", spec.len());
    let error = build(&spec).err().map(|error| error.to_string());
    assert_eq!(
        error.as_deref(),
        Some(
            "#/x-d/0/2/94/99: with its aliases expanded, the document is larger than its length plus 1048576 nodes and bytes"
        )
    );
}

/// Aliases as documents use them (one schema shared by several places) still load, and YAML
/// keys that are numbers become their text.
#[test]
fn yaml_aliases_within_the_budget_load() {
    let spec = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /x:\n    get:\n      responses:\n        200: {description: ok, content: {application/json: {schema: &s {type: object, properties: {a: {type: string}}}}}}\n  /y:\n    get:\n      responses:\n        200: {description: ok, content: {application/json: {schema: *s}}}\n";
    let input = Input {
        spec_path: "aliases.yaml",
        spec_text: spec,
        config_text: None,
    };
    let (api, _) = baseten_codegen::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(api.operations.len(), 2);
}

/// A property whose `allOf` names its own schema: each merge inlines the schema again, with the
/// same property in it. Without a bound on inline nesting this overflowed the stack (the
/// full-strength hostile run found it); now the nesting stops with a note naming the place,
/// and the rest of the document generates.
#[test]
fn an_all_of_that_reaches_itself_stops_with_a_note() {
    let spec = format!(
        r##"{{{HEAD}, "paths": {{}}, "components": {{"schemas": {{
            "Node": {{"type": "object", "properties": {{"next": {{"allOf": [
                {{"$ref": "#/components/schemas/Other"}}, {{"$ref": "#/components/schemas/Node"}}]}}}}}},
            "Other": {{"type": "object", "properties": {{"a": {{"type": "string"}}}}}}}}}}}}"##
    );
    let input = Input {
        spec_path: "self.json",
        spec_text: &spec,
        config_text: None,
    };
    let output = baseten_codegen::generate(&input).expect("the document generates");
    let notes: Vec<&Note> = output
        .notes
        .iter()
        .filter(|note| note.message.contains("inline schemas nest more than"))
        .collect();
    assert_eq!(
        notes.len(),
        1,
        "one note where the nesting stops: {:?}",
        output.notes
    );
    assert!(
        notes[0]
            .pointer
            .starts_with("#/components/schemas/Node/properties/next/"),
        "{}",
        notes[0].pointer
    );
    let models = output.files.get("models.rs").map_or("", String::as_str);
    assert!(models.contains("pub struct Node"), "{models}");
}
