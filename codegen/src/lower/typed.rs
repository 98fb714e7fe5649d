//! A schema's `enum` as the model types it: the `type` its values imply when it writes none,
//! and no `enum` at all past the most values a Rust enum can cheaply have.

use serde_json::{Map, Value};

use super::Lowerer;
use super::keywords::one_value_members;
use crate::error::Pointer;

/// The most values an `enum` becomes a Rust enum with; past it the schema is its values' type
/// (a string, an integer) with a note. rustc checks an enum in time that grows faster than its
/// variants even without a `match` over them (its coherence pass compares them: an enum of
/// 32,000 unit variants alone took 2.3 s, 4 times as long per doubling), so a 5 MB document of
/// one enum (450,000 values) could not be checked in hours; at this size one takes under 2 s,
/// and real enums are far smaller (App Store Connect's largest, of 1,263 operations: 233).
pub const MAX_ENUM_VALUES: usize = 10_000;

impl Lowerer {
    /// Leaves out an `enum` of more than [`MAX_ENUM_VALUES`] values, with a note.
    pub(super) fn enum_within_limit(&mut self, object: &mut Map<String, Value>, pointer: &Pointer) {
        let count = match object.get("enum") {
            Some(Value::Array(values)) if values.len() > MAX_ENUM_VALUES => values.len(),
            _ => return,
        };
        object.remove("enum");
        self.leave_out(
            &pointer.join("enum"),
            "keyword `enum`",
            &format!(
                "{count} values are more than the {MAX_ENUM_VALUES} a Rust enum is generated \
                 with (rustc's check of an enum grows faster than its variants): the schema is \
                 typed by its values' type"
            ),
        );
    }

    /// A `type: string` schema's `enum` values that are booleans or numbers (`enum: [true]`,
    /// YAML's unquoted `true`), which no string matches, read as the text they are written as
    /// (`"true"`), with a note: the enum the document's author meant, where as written it
    /// holds no value at all (and its schema was any JSON value).
    pub(super) fn string_enum_texts(&mut self, object: &mut Map<String, Value>, pointer: &Pointer) {
        if object.get("type").and_then(Value::as_str) != Some("string") {
            return;
        }
        let Some(Value::Array(values)) = object.get_mut("enum") else {
            return;
        };
        let mut read = Vec::new();
        for value in values.iter_mut() {
            if matches!(value, Value::Bool(_) | Value::Number(_)) {
                let text = value.to_string();
                read.push(text.clone());
                *value = Value::String(text);
            }
        }
        if !read.is_empty() {
            self.note(
                &pointer.join("enum"),
                format!(
                    "values {} of a string `enum` are no strings; read as their text",
                    read.join(", ")
                ),
            );
        }
    }
}

/// `{enum: [a, b]}` with no `type` (as some documents write every enum parameter): the type
/// its values all share (`string`, `boolean`, `integer`, else `number` for numbers), so that
/// it is that enum, not any JSON value. Values of several kinds, or a null among them, keep it
/// as written.
pub(super) fn typed_enum(object: &mut Map<String, Value>) {
    if object.contains_key("type")
        || ["$ref", "allOf", "oneOf", "anyOf", "not"]
            .iter()
            .any(|keyword| object.contains_key(*keyword))
    {
        return;
    }
    let Some(Value::Array(values)) = object.get("enum") else {
        return;
    };
    let mut shared: Option<&str> = None;
    for value in values {
        let kind = match value {
            Value::String(_) => "string",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Value::Number(_) => "number",
            _ => return,
        };
        shared = match (shared, kind) {
            (None, kind) => Some(kind),
            (Some(a), b) if a == b => Some(a),
            (Some("integer" | "number"), "integer" | "number") => Some("number"),
            _ => return,
        };
    }
    if let Some(kind) = shared {
        object.insert("type".into(), Value::String(kind.into()));
    }
}

/// Whether a value is a JSON object or array: what no string or integer enum holds.
fn is_structured(value: &Value) -> bool {
    matches!(value, Value::Object(_) | Value::Array(_))
}

/// `enum: [{x: 0}, {x: 1}]` beside `type: object` (or `array`): the 3.0 model keeps no `enum`
/// on those types and would read any object, so the `type` goes (the values say it) and the
/// schema is the enum of its values. `oneOf: [{const: {x: 0}}, {const: {x: 1}}]` (each member
/// lowered to a one-value `enum`, with at most a title, description or `deprecated` beside) is
/// the same enum: a value is exactly one of them.
pub(super) fn structured_enum(object: &mut Map<String, Value>) {
    if object.contains_key("discriminator") {
        return;
    }
    let structured = matches!(object.get("enum"),
        Some(Value::Array(values)) if values.iter().any(is_structured));
    if structured {
        if matches!(
            object.get("type").and_then(Value::as_str),
            Some("object" | "array")
        ) {
            object.remove("type");
        }
        return;
    }
    if object.contains_key("type") || object.contains_key("enum") {
        return;
    }
    for keyword in ["oneOf", "anyOf"] {
        let Some(Value::Array(members)) = object.get(keyword) else {
            continue;
        };
        let Some(values) = one_value_members(members, None) else {
            return;
        };
        if !values.iter().any(is_structured) {
            return;
        }
        object.remove(keyword);
        object.insert("enum".into(), Value::Array(values));
        return;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn typed(schema: Value) -> Value {
        let Value::Object(mut object) = schema else {
            return Value::Null;
        };
        typed_enum(&mut object);
        Value::Object(object)
    }

    #[test]
    fn an_untyped_enum_takes_the_type_its_values_share() {
        for (values, kind) in [
            (json!(["a", "b"]), "string"),
            (json!([true]), "boolean"),
            (json!([1, 2]), "integer"),
            (json!([-1, u64::MAX]), "integer"),
            (json!([1, 2.5]), "number"),
            (json!([2.5, 1]), "number"),
        ] {
            assert_eq!(
                typed(json!({"enum": values.clone()})),
                json!({"enum": values, "type": kind})
            );
        }
        for kept in [
            json!({"enum": [1, "a"]}),
            json!({"enum": ["a", null]}),
            json!({"enum": [true, 1]}),
            json!({"enum": [[1]]}),
            json!({"enum": ["a"], "type": "integer"}),
            json!({"enum": ["a"], "allOf": [{"$ref": "#/a"}]}),
            json!({"enum": ["a"], "$ref": "#/a"}),
            json!({"enum": ["a"], "oneOf": []}),
            json!({"enum": ["a"], "anyOf": []}),
            json!({"enum": ["a"], "not": {}}),
            json!({"enum": "a"}),
            json!({"description": "d"}),
        ] {
            assert_eq!(typed(kept.clone()), kept);
        }
    }

    #[test]
    fn an_enum_past_the_limit_is_its_values_type_with_a_note() {
        let mut lowerer = Lowerer {
            notes: Vec::new(),
            left_out: Vec::new(),
            bad_refs: std::collections::HashMap::new(),
        };
        let schema = |count: usize| {
            let values: Vec<Value> = (0..count).map(|k| json!(format!("v{k}"))).collect();
            let Value::Object(object) = json!({"type": "string", "enum": values}) else {
                unreachable!("an object")
            };
            object
        };
        let pointer = Pointer::root()
            .join("components")
            .join("schemas")
            .join("Big");
        let mut kept = schema(MAX_ENUM_VALUES);
        lowerer.enum_within_limit(&mut kept, &pointer);
        assert_eq!(kept, schema(MAX_ENUM_VALUES));
        assert!(lowerer.notes.is_empty() && lowerer.left_out.is_empty());
        let mut capped = schema(MAX_ENUM_VALUES + 1);
        lowerer.enum_within_limit(&mut capped, &pointer);
        assert_eq!(Value::Object(capped), json!({"type": "string"}));
        let notes: Vec<String> = lowerer.notes.iter().map(ToString::to_string).collect();
        assert_eq!(
            notes,
            [format!(
                "#/components/schemas/Big/enum: keyword `enum` is left out: {} values are more \
                 than the {MAX_ENUM_VALUES} a Rust enum is generated with (rustc's check of an \
                 enum grows faster than its variants): the schema is typed by its values' type",
                MAX_ENUM_VALUES + 1
            )]
        );
        assert!(matches!(
            &lowerer.left_out[..],
            [crate::Error::LeftOut { pointer, .. }] if pointer == "#/components/schemas/Big/enum"
        ));
    }
}
