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
    "xml",
];

/// Keywords that narrow the values a schema takes without changing their shape: the crate
/// enforces none of them, so beside a one-member `allOf` (a `$ref` with siblings, as 3.1
/// allows) they leave the member's type as it is.
const CONSTRAINT_KEYWORDS: &[&str] = &[
    "format",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxProperties",
    "minProperties",
    "required",
];

/// Whether an `allOf` member only annotates (`{description: ...}`, `{nullable: true}`, `{}`):
/// it admits every value, so the composition is its other members.
fn only_annotates(member: &Value) -> bool {
    matches!(member, Value::Object(member) if member
        .keys()
        .all(|keyword| ANNOTATION_KEYWORDS.contains(&keyword.as_str())))
}

/// `allOf: [{$ref: Money}, {description: The amount charged.}]` (the common way to annotate a
/// reference) is a Money with that description: an `allOf` member that only annotates admits
/// every value, so it is removed and its keywords join the schema (the schema's own win; a
/// member's `nullable: true` makes the schema nullable). As typify merges a reference with a
/// schema that narrows nothing, the reference is what remains. A member with any constraint or
/// structure stays, and the composition is a merge as before.
pub(super) fn fold_annotation_members(object: &mut Map<String, Value>) {
    let Some(Value::Array(members)) = object.get_mut("allOf") else {
        return;
    };
    if !members.iter().any(only_annotates) {
        return;
    }
    let mut annotations = Vec::new();
    members.retain(|member| {
        let annotates = only_annotates(member);
        if annotates {
            annotations.push(member.clone());
        }
        !annotates
    });
    if members.is_empty() {
        object.remove("allOf");
    }
    for annotation in annotations {
        let Value::Object(annotation) = annotation else {
            continue;
        };
        for (keyword, value) in annotation {
            if keyword == "nullable" {
                if value == Value::Bool(true) {
                    object.insert(keyword, value);
                }
                continue;
            }
            object.entry(keyword).or_insert(value);
        }
    }
}

/// `{$ref: Label, type: string, maxLength: 64}` (lowered to `{allOf: [$ref Label], type:
/// string, maxLength: 64}`), `{$ref: Count, minimum: 0}`, `{$ref: Money, required: [amount]}`:
/// every value is a value of the one member, which is the type; the constraints narrow it in
/// ways the crate does not check, and a `type` beside only repeats it (a contradicting one
/// admits nothing, which the member's type holds too). The 3.0 model would read such a schema
/// as any JSON value or as the bare `type`, so the `type`, the constraints and an empty `enum`
/// are dropped when nothing else stands beside the member; an `enum` of values, `properties` or
/// a second member keep the schema as it is.
pub(super) fn constraints_beside_one_member(object: &mut Map<String, Value>) {
    if !matches!(object.get("allOf"), Some(Value::Array(members)) if members.len() == 1) {
        return;
    }
    let only_constraints = object.iter().all(|(key, value)| match key.as_str() {
        "allOf" => true,
        "type" => value.is_string(),
        "enum" => matches!(value, Value::Array(values) if values.is_empty()),
        other => ANNOTATION_KEYWORDS.contains(&other) || CONSTRAINT_KEYWORDS.contains(&other),
    });
    if only_constraints {
        object.retain(|key, _| {
            !(key == "type" || key == "enum" || CONSTRAINT_KEYWORDS.contains(&key.as_str()))
        });
    }
}

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

    fn annotations_folded(schema: Value) -> Value {
        let Value::Object(mut object) = schema else {
            return Value::Null;
        };
        fold_annotation_members(&mut object);
        Value::Object(object)
    }

    #[test]
    fn members_that_only_annotate_join_the_schema() {
        let money = json!({"$ref": "#/components/schemas/Money"});
        assert_eq!(
            annotations_folded(json!({"allOf": [money, {"description": "d", "title": "T"}]})),
            json!({"allOf": [money], "description": "d", "title": "T"})
        );
        // The schema's own annotations win; a member's `nullable: true` makes it nullable.
        assert_eq!(
            annotations_folded(json!({
                "description": "own",
                "allOf": [{"description": "member", "nullable": true}, money, {}],
            })),
            json!({"description": "own", "allOf": [money], "nullable": true})
        );
        assert_eq!(
            annotations_folded(json!({"allOf": [{"nullable": false}, money]})),
            json!({"allOf": [money]})
        );
        // Nothing but annotations: no composition is left.
        assert_eq!(
            annotations_folded(json!({"allOf": [{"description": "d"}]})),
            json!({"description": "d"})
        );
        // A member with a constraint or structure keeps the merge.
        for kept in [
            json!({"allOf": [money, {"description": "d", "required": ["a"]}]}),
            json!({"allOf": [money, {"type": "object", "properties": {"a": {}}}]}),
            json!({"allOf": [money, {"maxLength": 3}]}),
            json!({"allOf": [money, {"enum": [1]}]}),
        ] {
            assert_eq!(annotations_folded(kept.clone()), kept);
        }
    }

    fn constraints_dropped(schema: Value) -> Value {
        let Value::Object(mut object) = schema else {
            return Value::Null;
        };
        constraints_beside_one_member(&mut object);
        Value::Object(object)
    }

    #[test]
    fn constraints_beside_one_member_leave_its_type() {
        let label = json!([{"$ref": "#/components/schemas/Label"}]);
        assert_eq!(
            constraints_dropped(json!({"allOf": label, "type": "string", "maxLength": 64,
                "minLength": 1, "pattern": "^a", "format": "f", "description": "d"})),
            json!({"allOf": label, "description": "d"})
        );
        assert_eq!(
            constraints_dropped(json!({"allOf": label, "minimum": 0, "exclusiveMaximum": 9,
                "multipleOf": 3, "nullable": true})),
            json!({"allOf": label, "nullable": true})
        );
        assert_eq!(
            constraints_dropped(json!({"allOf": label, "type": "object", "required": ["a"],
                "minProperties": 1, "maxItems": 2, "minItems": 1, "uniqueItems": true,
                "maxProperties": 3, "enum": []})),
            json!({"allOf": label})
        );
        // Values, structure or a second member keep the schema as it is.
        for kept in [
            json!({"allOf": label, "enum": ["a"], "maxLength": 3}),
            json!({"allOf": label, "properties": {}, "required": ["a"]}),
            json!({"allOf": label, "items": {}, "minItems": 1}),
            json!({"allOf": [{"$ref": "#/a"}, {"$ref": "#/b"}], "maxLength": 3}),
            json!({"allOf": label, "type": ["string"], "maxLength": 3}),
            json!({"allOf": label, "not": {}, "minimum": 3}),
        ] {
            assert_eq!(constraints_dropped(kept.clone()), kept);
        }
    }
}
