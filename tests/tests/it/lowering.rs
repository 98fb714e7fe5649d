//! OpenAPI 3.1 → 3.0 lowering, one 3.1 construct per line: the schema as written, and the
//! 3.0 schema `openapiv3` holds after lowering (serialised back to JSON).

use serde_json::{Value, json};

/// Lowers `schema` placed at `#/components/schemas/S` and compares the result with `expected`.
fn check(schema: Value, expected: Value) {
    let document = json!({
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {},
        "components": {"schemas": {"S": schema, "Target": {"type": "string"}}}
    });
    let lowered = baseten_codegen::lower::lower(document).expect("lowers");
    let schemas = &lowered.openapi.components.expect("components").schemas;
    let actual = serde_json::to_value(&schemas["S"]).unwrap();
    assert_eq!(
        actual, expected,
        "\n actual: {actual}\n expected: {expected}"
    );
}

/// Lowers `schema` and returns the notes it produced.
fn notes_for(schema: Value) -> Vec<String> {
    let document = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "components": {"schemas": {"S": schema}}});
    let lowered = baseten_codegen::lower::lower(document).expect("lowers");
    lowered.notes.iter().map(ToString::to_string).collect()
}

#[test]
fn type_arrays_with_null_become_nullable() {
    check(
        json!({"type": ["integer", "null"]}),
        json!({"type": "integer", "nullable": true}),
    );
    check(
        json!({"type": ["null", "string"], "format": "date-time"}),
        json!({"type": "string", "format": "date-time", "nullable": true}),
    );
    check(json!({"type": "null"}), json!({"nullable": true}));
}

#[test]
fn any_of_and_one_of_with_null_become_nullable() {
    check(
        json!({"anyOf": [{"type": "integer"}, {"type": "null"}]}),
        json!({"type": "integer", "nullable": true}),
    );
    check(
        json!({"oneOf": [{"type": "null"}, {"type": "number"}]}),
        json!({"type": "number", "nullable": true}),
    );
    // The wrapper's own keywords win over the member's.
    check(
        json!({"anyOf": [{"type": "string", "description": "inner"}, {"type": "null"}], "description": "outer", "default": null, "title": "T"}),
        json!({"type": "string", "description": "outer", "title": "T", "nullable": true}),
    );
    check(
        json!({"anyOf": [{"$ref": "#/components/schemas/Target"}, {"type": "null"}]}),
        json!({"allOf": [{"$ref": "#/components/schemas/Target"}], "nullable": true}),
    );
    // Two non-null members stay a union, now nullable.
    check(
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}),
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "nullable": true}),
    );
}

#[test]
fn const_becomes_a_one_value_enum() {
    check(
        json!({"const": "reading"}),
        json!({"type": "string", "enum": ["reading"]}),
    );
    check(
        json!({"type": "integer", "const": 3}),
        json!({"type": "integer", "enum": [3]}),
    );
    check(
        json!({"const": true}),
        json!({"type": "boolean", "enum": [true]}),
    );
}

#[test]
fn ref_with_siblings_keeps_description_and_default() {
    check(
        json!({"$ref": "#/components/schemas/Target", "description": "Why.", "default": "x"}),
        json!({"allOf": [{"$ref": "#/components/schemas/Target"}], "description": "Why.", "default": "x"}),
    );
    check(
        json!({"$ref": "#/components/schemas/Target"}),
        json!({"$ref": "#/components/schemas/Target"}),
    );
}

#[test]
fn numeric_exclusive_bounds_become_boolean_flags() {
    check(
        json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1.5}),
        json!({"type": "number", "minimum": 0.0, "exclusiveMinimum": true, "maximum": 1.5, "exclusiveMaximum": true}),
    );
}

#[test]
fn examples_become_the_first_example() {
    check(
        json!({"type": "string", "examples": ["a", "b"]}),
        json!({"type": "string", "example": "a"}),
    );
}

#[test]
fn nested_schemas_are_lowered_too() {
    check(
        json!({"type": "object", "properties": {"v": {"type": "array", "items": {"anyOf": [{"type": "number"}, {"type": "null"}]}}}}),
        json!({"type": "object", "properties": {"v": {"type": "array", "items": {"type": "number", "nullable": true}}}}),
    );
    check(
        json!({"type": "object", "additionalProperties": {"type": ["string", "null"]}}),
        json!({"type": "object", "additionalProperties": {"type": "string", "nullable": true}}),
    );
}

#[test]
fn constructs_without_a_3_0_form_are_reported() {
    let notes =
        notes_for(json!({"type": "object", "patternProperties": {"^x": {"type": "string"}}}));
    assert_eq!(
        notes,
        [
            "#/components/schemas/S/patternProperties: keyword `patternProperties` has no OpenAPI 3.0 form and is not generated"
        ]
    );
    let notes = notes_for(json!({"type": ["string", "integer"]}));
    assert_eq!(
        notes,
        ["#/components/schemas/S/type: several types in `type` are lowered to an untyped value"]
    );
    assert!(notes_for(json!({"type": "string", "$comment": "annotation only"})).is_empty());
}

#[test]
fn parameters_and_responses_are_lowered() {
    let document = json!({
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/x": {"get": {
            "parameters": [{"name": "n", "in": "query", "schema": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}],
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": ["string", "null"]}}}}}
        }}}
    });
    let lowered = baseten_codegen::lower::lower(document).expect("lowers");
    let operation = serde_json::to_value(&lowered.openapi.paths.paths["/x"]).unwrap();
    assert_eq!(
        operation["get"]["parameters"][0]["schema"],
        json!({"type": "integer", "nullable": true})
    );
    assert_eq!(
        operation["get"]["responses"]["200"]["content"]["application/json"]["schema"],
        json!({"type": "string", "nullable": true})
    );
}
