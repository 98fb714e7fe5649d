//! A `type` a schema implies but does not write: an `enum` whose values are all of one kind.

use serde_json::{Map, Value};

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
}
