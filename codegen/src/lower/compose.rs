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
}
