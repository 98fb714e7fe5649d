//! `allOf` beside object keywords (`{allOf: [$ref Base], properties: {...}}`, as inheritance is
//! often written): the 3.0 model reads such a schema as either the composition or the object,
//! dropping the other, so the object keywords become one more member of the composition.

use serde_json::{Map, Value};

/// The keywords that declare an object's own fields.
const OBJECT_KEYWORDS: &[&str] = &["properties", "required", "additionalProperties"];

/// Moves the object keywords beside an `allOf` into a member of their own, appended last (so
/// its properties override the inherited ones, as a subtype's do).
pub(super) fn fold_all_of_siblings(object: &mut Map<String, Value>) {
    if !matches!(object.get("allOf"), Some(Value::Array(_))) {
        return;
    }
    if !OBJECT_KEYWORDS
        .iter()
        .any(|keyword| object.contains_key(*keyword))
    {
        return;
    }
    if object
        .get("type")
        .is_some_and(|ty| ty.as_str() != Some("object"))
    {
        return;
    }
    let mut member = Map::new();
    member.insert("type".into(), Value::String("object".into()));
    for keyword in OBJECT_KEYWORDS {
        if let Some(value) = object.remove(*keyword) {
            member.insert((*keyword).to_owned(), value);
        }
    }
    object.remove("type");
    if let Some(Value::Array(members)) = object.get_mut("allOf") {
        members.push(Value::Object(member));
    }
}

/// The keywords that say nothing about which values a schema takes.
const ANNOTATION_KEYWORDS: &[&str] = &[
    "title",
    "description",
    "default",
    "example",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "nullable",
    "externalDocs",
];

/// `{type: string, allOf: [$ref Kind]}` (a `$ref` with a `type` beside it, as 3.1 allows and
/// some generators write for every enum parameter; or an empty `enum` beside): the values are
/// the composition's, which the `type` only repeats. The 3.0 model has no room for a `type`
/// beside `allOf` and would read the schema as any JSON value, so the `type` (and an empty
/// `enum`, which generators write for "no list here") is dropped when nothing else constrains
/// the schema.
pub(super) fn type_beside_all_of(object: &mut Map<String, Value>) {
    if !matches!(object.get("allOf"), Some(Value::Array(members)) if !members.is_empty())
        || !matches!(object.get("type"), Some(Value::String(_)))
    {
        return;
    }
    let only_annotations = object.iter().all(|(key, value)| match key.as_str() {
        "type" | "allOf" => true,
        "enum" => matches!(value, Value::Array(values) if values.is_empty()),
        other => ANNOTATION_KEYWORDS.contains(&other),
    });
    if only_annotations {
        object.remove("type");
        object.remove("enum");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn folded(schema: Value) -> Value {
        let Value::Object(mut object) = schema else {
            return Value::Null;
        };
        fold_all_of_siblings(&mut object);
        Value::Object(object)
    }

    #[test]
    fn object_keywords_beside_all_of_become_its_last_member() {
        assert_eq!(
            folded(json!({
                "type": "object",
                "description": "d",
                "allOf": [{"$ref": "#/components/schemas/A"}],
                "required": ["b"],
                "properties": {"b": {"type": "string"}},
            })),
            json!({
                "description": "d",
                "allOf": [
                    {"$ref": "#/components/schemas/A"},
                    {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]},
                ],
            })
        );
        let alone = json!({"allOf": [{"type": "object"}], "description": "d"});
        assert_eq!(folded(alone.clone()), alone);
        let other_type =
            json!({"allOf": [{"type": "object"}], "type": "string", "required": ["x"]});
        assert_eq!(folded(other_type.clone()), other_type);
        let no_all_of = json!({"type": "object", "properties": {}});
        assert_eq!(folded(no_all_of.clone()), no_all_of);
    }

    fn untyped(schema: Value) -> Value {
        let Value::Object(mut object) = schema else {
            return Value::Null;
        };
        type_beside_all_of(&mut object);
        Value::Object(object)
    }

    #[test]
    fn a_type_beside_all_of_that_only_repeats_it_is_dropped() {
        let kind = json!([{"$ref": "#/components/schemas/Kind"}]);
        assert_eq!(
            untyped(json!({"type": "string", "description": "d", "nullable": true, "allOf": kind})),
            json!({"description": "d", "nullable": true, "allOf": kind})
        );
        assert_eq!(
            untyped(json!({"type": "string", "enum": [], "allOf": kind})),
            json!({"allOf": kind})
        );
        // Anything that constrains the values keeps the schema as it is.
        for kept in [
            json!({"type": "string", "enum": ["a"], "allOf": kind}),
            json!({"type": "string", "maxLength": 3, "allOf": kind}),
            json!({"type": "string", "allOf": []}),
            json!({"type": ["string"], "allOf": kind}),
            json!({"type": "string"}),
            json!({"allOf": kind, "enum": []}),
        ] {
            assert_eq!(untyped(kept.clone()), kept);
        }
    }
}
