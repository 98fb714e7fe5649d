//! One schema node's keywords rewritten from 3.1 to 3.0 (`const`, `$ref` siblings, exclusive
//! bounds, single members, keywords of another type), and the node checked before the model
//! decodes it.

use serde_json::{Map, Value};

use crate::Error;
use crate::error::Pointer;

use super::content;
use super::decode::pointer_of;

/// Decodes one lowered schema object as `openapiv3` would, with its subschemas (already checked,
/// children first) stood in for by `{}`, and names the place of the first fault.
///
/// `openapiv3` decodes a schema or reference by trying each form and, on failure, decoding the
/// same value again for its message, at every level: a fault 20 levels down costs 2^20 decodes
/// of it. Checked here node by node, each value is decoded once, so the decode of the whole
/// document that follows cannot fail inside a schema. A node is valid exactly when it decodes
/// alone and its subschemas are valid: no `openapiv3` rule looks into a subschema from its
/// parent, and the stand-in keeps every keyword present, so the same form is chosen.
pub(super) fn check_schema_node(
    object: &mut Map<String, Value>,
    pointer: &Pointer,
) -> Result<(), Error> {
    let taken: Vec<Value> = subschemas(object)
        .into_iter()
        .map(|slot| std::mem::replace(slot, Value::Object(Map::new())))
        .collect();
    let node = Value::Object(std::mem::take(object));
    let fault = decode_schema(&node).err().map(|error| {
        let mut at = pointer_of(error.path());
        // The keywords are read through flattened structs, which hide the path below the node:
        // the first keyword that does not decode on its own is the place, when one is.
        if at == "#"
            && let Value::Object(keywords) = &node
        {
            let alone = keywords.iter().find(|(keyword, value)| {
                let single = Map::from_iter([((*keyword).clone(), (*value).clone())]);
                decode_schema(&Value::Object(single)).is_err()
            });
            if let Some((keyword, _)) = alone {
                at = Pointer::root().join(keyword).into_string();
            }
        }
        Error::Invalid {
            pointer: format!("{pointer}{}", at.trim_start_matches('#')),
            reason: error.inner().to_string(),
        }
    });
    if let Value::Object(node) = node {
        *object = node;
    }
    for (slot, original) in subschemas(object).into_iter().zip(taken) {
        *slot = original;
    }
    fault.map_or(Ok(()), Err)
}

pub(super) fn decode_schema(
    node: &Value,
) -> Result<(), serde_path_to_error::Error<serde_json::Error>> {
    serde_path_to_error::deserialize::<_, openapiv3::ReferenceOr<openapiv3::Schema>>(node).map(drop)
}

/// The subschemas of a schema object that [`Lowerer::schema`] walks, always in the same order.
/// A keyword whose value has the wrong shape is not one: the node's own decode names it.
pub(super) fn subschemas(object: &mut Map<String, Value>) -> Vec<&mut Value> {
    let mut slots = Vec::new();
    for (keyword, value) in object.iter_mut() {
        match (keyword.as_str(), value) {
            ("items" | "additionalProperties" | "not", value @ Value::Object(_)) => {
                slots.push(value);
            }
            ("properties", Value::Object(properties)) => slots.extend(properties.values_mut()),
            ("allOf" | "anyOf" | "oneOf", Value::Array(members)) => slots.extend(members),
            _ => {}
        }
    }
    slots
}

/// `x-` extensions (code samples, stability markers) feed nothing the emitters use, and
/// decoding them into the 3.0 model is a good part of its cost.
pub(super) fn strip_extensions(object: &mut Map<String, Value>) {
    object.retain(|key, _| !key.starts_with("x-") || key == content::MEDIA_TYPE_EXTENSION);
}

/// The examples of a media type, parameter or header: any size, and unused by the emitters.
pub(super) fn strip_examples(object: &mut Map<String, Value>) {
    object.remove("example");
    object.remove("examples");
}

pub(super) fn is_null_schema(schema: &Value) -> bool {
    let Value::Object(object) = schema else {
        return false;
    };
    let only_null_type = object.get("type").and_then(Value::as_str) == Some("null")
        || object.get("nullable") == Some(&Value::Bool(true))
            && object.keys().all(|key| {
                matches!(
                    key.as_str(),
                    "nullable" | "description" | "title" | "default"
                )
            });
    let null_enum = matches!(object.get("enum"), Some(Value::Array(values)) if values.iter().all(Value::is_null));
    let null_const = object.get("const") == Some(&Value::Null);
    only_null_type || null_enum || null_const
}

/// `const: v` → `enum: [v]`, with a `type` when the schema gave none.
pub(super) fn lower_const(object: &mut Map<String, Value>) {
    let Some(value) = object.remove("const") else {
        return;
    };
    if !object.contains_key("type") {
        let inferred = match &value {
            Value::String(_) => Some("string"),
            Value::Bool(_) => Some("boolean"),
            Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
            Value::Number(_) => Some("number"),
            _ => None,
        };
        if let Some(inferred) = inferred {
            object.insert("type".into(), Value::String(inferred.into()));
        }
    }
    if value.is_null() {
        object.insert("nullable".into(), Value::Bool(true));
    }
    object
        .entry("enum")
        .or_insert_with(|| Value::Array(vec![value]));
}

/// A `$ref` with siblings would lose them (3.0 ignores them); wrap it in `allOf`.
pub(super) fn lower_ref_siblings(object: &mut Map<String, Value>) {
    if !object.contains_key("$ref") || object.len() == 1 {
        return;
    }
    if let Some(reference) = object.remove("$ref") {
        let mut target = Map::new();
        target.insert("$ref".into(), reference);
        object.insert("allOf".into(), Value::Array(vec![Value::Object(target)]));
    }
}

/// 3.1 writes exclusive bounds as numbers; 3.0 as booleans beside `minimum`/`maximum`.
pub(super) fn lower_exclusive_bounds(object: &mut Map<String, Value>) {
    for (exclusive, inclusive) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        if let Some(bound @ Value::Number(_)) = object.get(exclusive).cloned() {
            object.insert(inclusive.into(), bound);
            object.insert(exclusive.into(), Value::Bool(true));
        }
    }
}

/// `oneOf: [X]` and `anyOf: [X]` are X: the member joins `allOf`, which the IR reads as the
/// member itself when it is the only one.
pub(super) fn single_members(object: &mut Map<String, Value>) {
    // A discriminated union of one member is still a union (its tag is checked).
    if object.contains_key("discriminator") {
        return;
    }
    for keyword in ["oneOf", "anyOf"] {
        if !matches!(object.get(keyword), Some(Value::Array(members)) if members.len() == 1) {
            continue;
        }
        let Some(Value::Array(member)) = object.remove(keyword) else {
            continue;
        };
        match object.get_mut("allOf") {
            Some(Value::Array(all_of)) => all_of.extend(member),
            _ => {
                object.insert("allOf".into(), Value::Array(member));
            }
        }
    }
}

/// Keywords that constrain values of one JSON type only, by that type.
pub(super) const TYPE_KEYWORDS: &[(&str, &[&str])] = &[
    (
        "string",
        &["format", "pattern", "minLength", "maxLength", "enum"],
    ),
    (
        "number",
        &[
            "format",
            "multipleOf",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "enum",
        ],
    ),
    (
        "integer",
        &[
            "format",
            "multipleOf",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "enum",
        ],
    ),
    ("boolean", &["enum"]),
    ("array", &["items", "minItems", "maxItems", "uniqueItems"]),
    (
        "object",
        &[
            "properties",
            "required",
            "additionalProperties",
            "minProperties",
            "maxProperties",
        ],
    ),
];

/// A keyword of another type does not apply to a schema of one `type` (JSON Schema applies
/// `uniqueItems` to arrays only, so `{type: string, uniqueItems: true}` is any string): it is
/// dropped, as it constrains nothing, so the schema keeps its type.
pub(super) fn drop_inapplicable_keywords(object: &mut Map<String, Value>) {
    let Some(Value::String(ty)) = object.get("type") else {
        return;
    };
    let Some((_, own)) = TYPE_KEYWORDS.iter().find(|(name, _)| name == ty) else {
        return;
    };
    let own: &[&str] = own;
    object.retain(|keyword, _| {
        let typed = TYPE_KEYWORDS
            .iter()
            .any(|(_, keywords)| keywords.contains(&keyword.as_str()));
        !typed || own.contains(&keyword.as_str())
    });
}

/// `{type: string, oneOf: [{const: a, title: A}, {const: b}]}` (an enum whose values each carry
/// a title, as some generators write every enum) is `{type: string, enum: [a, b]}`: the 3.0
/// model has no room for a `type` beside `oneOf`, and would make it untyped.
///
/// A typed schema with an `enum` beside a composition (`{type: integer, enum: [1], allOf: [$ref
/// Kinds]}`, one value of a shared enum) is its `enum`: every value it may take is listed.
pub(super) fn typed_const_members(object: &mut Map<String, Value>) {
    let Some(Value::String(ty)) = object.get("type") else {
        return;
    };
    let ty = ty.clone();
    if object.contains_key("discriminator") {
        return;
    }
    if matches!(object.get("enum"), Some(Value::Array(values)) if !values.is_empty()) {
        for keyword in ["allOf", "oneOf", "anyOf"] {
            object.remove(keyword);
        }
        return;
    }
    for keyword in ["oneOf", "anyOf"] {
        let Some(Value::Array(members)) = object.get(keyword) else {
            continue;
        };
        let Some(values) = one_value_members(members, Some(&ty)) else {
            return;
        };
        if values.is_empty() {
            return;
        }
        object.remove(keyword);
        object.insert("enum".into(), Value::Array(values));
        return;
    }
}

/// The values of `oneOf`/`anyOf` members that each only give values (`enum`, a lowered `const`,
/// with at most a `type`, title, description or `deprecated` beside), in order; `None` when a
/// member does more, gives no value, or (with `ty`) says another type.
pub(super) fn one_value_members(members: &[Value], ty: Option<&str>) -> Option<Vec<Value>> {
    let mut values = Vec::new();
    for member in members {
        let Value::Object(member) = member else {
            return None;
        };
        let only_a_value = member.keys().all(|key| {
            matches!(
                key.as_str(),
                "enum" | "type" | "title" | "description" | "deprecated"
            )
        });
        let same_type = ty.is_none_or(|ty| {
            member
                .get("type")
                .is_none_or(|member_type| member_type.as_str() == Some(ty))
        });
        match member.get("enum") {
            Some(Value::Array(member_values))
                if only_a_value && same_type && !member_values.is_empty() =>
            {
                values.extend(member_values.iter().cloned());
            }
            _ => return None,
        }
    }
    Some(values)
}

#[cfg(test)]
mod keyword_tests {
    use std::collections::HashMap;

    use serde_json::json;

    use super::*;
    use crate::lower::Lowerer;

    fn object(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(object) => object,
            _ => Map::new(),
        }
    }

    #[test]
    fn one_member_unions_join_all_of_unless_discriminated() {
        let mut single = object(json!({"oneOf": [{"type": "string"}]}));
        single_members(&mut single);
        assert_eq!(
            Value::Object(single),
            json!({"allOf": [{"type": "string"}]})
        );
        let mut beside = object(json!({"anyOf": [{"$ref": "#/a"}], "allOf": [{"$ref": "#/b"}]}));
        single_members(&mut beside);
        assert_eq!(
            Value::Object(beside),
            json!({"allOf": [{"$ref": "#/b"}, {"$ref": "#/a"}]})
        );
        let kept = json!({"oneOf": [{"$ref": "#/a"}], "discriminator": {"propertyName": "k"}});
        let mut tagged = object(kept.clone());
        single_members(&mut tagged);
        assert_eq!(Value::Object(tagged), kept);
        let two = json!({"oneOf": [{"type": "string"}, {"type": "integer"}]});
        let mut union = object(two.clone());
        single_members(&mut union);
        assert_eq!(Value::Object(union), two);
    }

    #[test]
    fn typed_constants_are_an_enum() {
        let mut titled = object(json!({"type": "string", "oneOf": [
            {"title": "A", "enum": ["a"], "type": "string"},
            {"enum": ["b"], "description": "b"},
        ]}));
        typed_const_members(&mut titled);
        assert_eq!(
            Value::Object(titled),
            json!({"type": "string", "enum": ["a", "b"]})
        );
        // A member that is more than a value, or of another type, keeps the union.
        for members in [
            json!([{"enum": ["a"]}, {"enum": ["b"], "pattern": "x"}]),
            json!([{"enum": ["a"]}, {"enum": [1], "type": "integer"}]),
            json!([{"enum": ["a"]}, {"type": "string"}]),
            json!([{"enum": []}]),
        ] {
            let kept = json!({"type": "string", "oneOf": members});
            let mut union = object(kept.clone());
            typed_const_members(&mut union);
            assert_eq!(Value::Object(union), kept);
        }
        let mut narrowed =
            object(json!({"type": "integer", "enum": [1], "allOf": [{"$ref": "#/k"}]}));
        typed_const_members(&mut narrowed);
        assert_eq!(
            Value::Object(narrowed),
            json!({"type": "integer", "enum": [1]})
        );
        let untyped = json!({"oneOf": [{"enum": ["a"]}]});
        let mut union = object(untyped.clone());
        typed_const_members(&mut union);
        assert_eq!(Value::Object(union), untyped);
    }

    #[test]
    fn keywords_of_other_types_are_dropped() {
        let mut string = object(json!({"type": "string", "uniqueItems": true, "minimum": 1,
            "properties": {}, "maxLength": 3, "description": "d"}));
        drop_inapplicable_keywords(&mut string);
        assert_eq!(
            Value::Object(string),
            json!({"type": "string", "maxLength": 3, "description": "d"})
        );
        let untyped = json!({"uniqueItems": true, "minimum": 1});
        let mut any = object(untyped.clone());
        drop_inapplicable_keywords(&mut any);
        assert_eq!(Value::Object(any), untyped);
    }

    #[test]
    fn integer_bounds_fit_the_model() {
        let mut lowerer = Lowerer {
            notes: Vec::new(),
            left_out: Vec::new(),
            bad_refs: HashMap::new(),
        };
        let mut bounds = |value: Value| {
            let mut schema = object(value);
            lowerer.integer_bounds(&mut schema, &Pointer::root());
            Value::Object(schema)
        };
        assert_eq!(
            bounds(json!({"type": "integer", "maximum": 1.844_674_407_370_955_2e19})),
            json!({"type": "integer", "format": "uint64"})
        );
        assert_eq!(
            bounds(
                json!({"type": "integer", "minimum": -1, "maximum": 1.844_674_407_370_955_2e19})
            ),
            json!({"type": "integer", "minimum": -1})
        );
        assert_eq!(
            bounds(json!({"type": "integer", "format": "int32", "maximum": 1.0e19})),
            json!({"type": "integer", "format": "int32"})
        );
        assert_eq!(
            bounds(json!({"type": "integer", "minimum": 2.0, "maximum": 1.0e3})),
            json!({"type": "integer", "minimum": 2, "maximum": 1000})
        );
        assert_eq!(
            bounds(json!({"type": "integer", "minimum": -9.3e18, "maximum": 0.5})),
            json!({"type": "integer"})
        );
        assert_eq!(
            bounds(json!({"type": "number", "maximum": 1.0e19})),
            json!({"type": "number", "maximum": 1.0e19})
        );
        assert_eq!(lowerer.notes.len(), 1, "{:?}", lowerer.notes);
    }
}
