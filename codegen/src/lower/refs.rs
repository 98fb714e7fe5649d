//! `$ref`s beyond `#/components/schemas/<key>`: a reference to any schema of the document
//! (`#/components/parameters/X/schema`, `#/components/schemas/A/properties/b`) is made a
//! component of its own, and a schema reference that still names no schema is found here, so
//! that the schema holding it alone is left out.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use crate::error::Pointer;

const SCHEMAS: &str = "#/components/schemas/";

/// Keys whose values are data, not document structure: a `$ref` inside one is text.
const DATA_KEYS: &[&str] = &["example", "examples", "default", "enum", "const"];

/// Copies every schema a `$ref` names by a pointer other than `#/components/schemas/<key>` into
/// `components/schemas` under a key of its own, and points every such `$ref` at the copy. The
/// copies are taken before any is made, from the document as written, so their own pointers
/// into each other are rewritten too and a copy that refers to itself stays a cycle.
pub(super) fn hoist_pointer_refs(document: &mut Map<String, Value>) {
    let mut references = Vec::new();
    for value in document.values() {
        collect_refs(value, &mut references);
    }
    references.sort();
    references.dedup();
    let existing: Vec<String> = component_schemas(document).keys().cloned().collect();
    let mut taken: std::collections::HashSet<String> = existing.into_iter().collect();
    let mut hoisted: BTreeMap<String, (String, Value)> = BTreeMap::new();
    let root = Value::Object(std::mem::take(document));
    for reference in references {
        if !is_hoistable(&reference) {
            continue;
        }
        let Some(target) = resolve(&root, &reference) else {
            continue;
        };
        if !(target.is_object() || target.is_boolean()) {
            continue;
        }
        let key = unique_key(&reference, &mut taken);
        hoisted.insert(reference, (key, target.clone()));
    }
    let Value::Object(restored) = root else {
        return;
    };
    *document = restored;
    if hoisted.is_empty() {
        return;
    }
    let renamed: HashMap<String, String> = hoisted
        .iter()
        .map(|(reference, (key, _))| {
            (
                reference.clone(),
                format!(
                    "{SCHEMAS}{}",
                    Pointer::root().join(key).as_str().trim_start_matches("#/")
                ),
            )
        })
        .collect();
    for value in document.values_mut() {
        rewrite_refs(value, &renamed);
    }
    let mut copies: Vec<(String, Value)> = hoisted.into_values().collect();
    for (_, copy) in &mut copies {
        rewrite_refs(copy, &renamed);
    }
    let components = document
        .entry("components")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(components) = components else {
        return;
    };
    let schemas = components
        .entry("schemas")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(schemas) = schemas {
        schemas.extend(copies);
    }
}

/// Every `$ref` a schema position could hold that names no schema component, with why: an
/// external reference, a pointer to something else, or one that resolves to nothing.
pub(super) fn unusable_schema_refs(document: &Map<String, Value>) -> HashMap<String, String> {
    let mut references = Vec::new();
    for value in document.values() {
        collect_refs(value, &mut references);
    }
    let schemas = component_schemas(document);
    let mut unusable = HashMap::new();
    for reference in references {
        if unusable.contains_key(&reference) {
            continue;
        }
        let reason = if !reference.starts_with('#') {
            Some(format!(
                "external reference {reference:?} (only references into the document are followed)"
            ))
        } else {
            match reference.strip_prefix(SCHEMAS) {
                Some(key) if !key.contains('/') => (!schemas.contains_key(&Pointer::unescape(key)))
                    .then(|| {
                        format!("`$ref` {reference:?} does not resolve to anything in the document")
                    }),
                _ => Some(format!("`$ref` {reference:?} does not name a schema")),
            }
        };
        if let Some(reason) = reason {
            unusable.insert(reference, reason);
        }
    }
    unusable
}

fn component_schemas(document: &Map<String, Value>) -> &Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    match document.get("components").and_then(|c| c.get("schemas")) {
        Some(Value::Object(schemas)) => schemas,
        _ => EMPTY.get_or_init(Map::new),
    }
}

/// A local pointer to a schema that is not a component's own key: somewhere under a component
/// schema, or under a `schema` keyword (of a parameter, header or media type).
fn is_hoistable(reference: &str) -> bool {
    let Some(pointer) = reference.strip_prefix("#/") else {
        return false;
    };
    if let Some(under) = reference.strip_prefix(SCHEMAS) {
        return under.contains('/');
    }
    pointer.split('/').any(|segment| segment == "schema")
}

/// The value a local `$ref` names (made canonical by [`canonical_refs`] first).
fn resolve<'v>(root: &'v Value, reference: &str) -> Option<&'v Value> {
    root.pointer(reference.strip_prefix('#')?)
}

/// Writes every local `$ref` (and every discriminator `mapping` target) of the document as the
/// JSON pointer it names: a URI fragment is percent-decoded first (RFC 3986; RFC 6901 §6), so
/// `#/components/schemas/Model%20Info` names the key `Model Info` and `%7E1` is the pointer
/// escape `~1` (a `/` in the key), which every later stage unescapes (`~1` → `/`, `~0` → `~`).
/// The one place references are decoded: a fragment that only resolves as written (a key
/// holding `%20` itself) stays as written.
pub(super) fn canonical_refs(document: &mut Map<String, Value>) {
    let root = Value::Object(std::mem::take(document));
    let mut canonical: HashMap<String, String> = HashMap::new();
    let mut references = Vec::new();
    collect_refs(&root, &mut references);
    collect_mapping_targets(&root, &mut references);
    for reference in references {
        if canonical.contains_key(&reference) {
            continue;
        }
        let Some(decoded) = reference
            .strip_prefix('#')
            .and_then(percent_decode)
            .map(|pointer| format!("#{pointer}"))
        else {
            continue;
        };
        let as_written = resolve(&root, &reference).is_some();
        if !as_written || resolve(&root, &decoded).is_some() {
            canonical.insert(reference, decoded);
        }
    }
    let Value::Object(mut restored) = root else {
        return;
    };
    if !canonical.is_empty() {
        for value in restored.values_mut() {
            rewrite_refs(value, &canonical);
        }
    }
    *document = restored;
}

/// Every discriminator's `mapping` target in `value`, outside data keywords.
fn collect_mapping_targets(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            if let Some(Value::Object(mapping)) = object
                .get("discriminator")
                .and_then(|discriminator| discriminator.get("mapping"))
            {
                found.extend(
                    mapping
                        .values()
                        .filter_map(Value::as_str)
                        .map(str::to_owned),
                );
            }
            for (key, child) in object {
                if !DATA_KEYS.contains(&key.as_str()) {
                    collect_mapping_targets(child, found);
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                collect_mapping_targets(item, found);
            }
        }
        _ => {}
    }
}

/// `%7B` → `{`: a URI fragment may escape what a JSON pointer holds as is. `None` when there
/// is nothing to decode or the bytes decoded are not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return None;
    }
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = text.get(i + 1..i + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            decoded.push(byte);
            i += 3;
            continue;
        }
        decoded.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(decoded).ok()
}

/// A component key for the schema at `reference`, from the pointer's meaningful segments
/// (`#/components/parameters/limit/schema` → `limit_schema`), not taken by any other.
fn unique_key(reference: &str, taken: &mut std::collections::HashSet<String>) -> String {
    const STRUCTURAL: &[&str] = &["components", "schemas", "properties", "content", "paths"];
    let segments: Vec<String> = reference
        .trim_start_matches("#/")
        .split('/')
        .map(Pointer::unescape)
        .filter(|segment| !STRUCTURAL.contains(&segment.as_str()) && !segment.contains('/'))
        .collect();
    let base = segments.join("_");
    let base = if base.is_empty() {
        "schema".to_owned()
    } else {
        base
    };
    let mut key = base.clone();
    let mut n = 2;
    while !taken.insert(key.clone()) {
        key = format!("{base}_{n}");
        n += 1;
    }
    key
}

/// Every `$ref` string in `value`, outside data keywords.
fn collect_refs(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                match (key.as_str(), child) {
                    ("$ref", Value::String(reference)) => found.push(reference.clone()),
                    (key, _) if DATA_KEYS.contains(&key) => {}
                    _ => collect_refs(child, found),
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                collect_refs(item, found);
            }
        }
        _ => {}
    }
}

/// Rewrites every `$ref` (and discriminator `mapping` target) `renamed` names.
fn rewrite_refs(value: &mut Value, renamed: &HashMap<String, String>) {
    match value {
        Value::Object(object) => {
            for (key, child) in object.iter_mut() {
                match (key.as_str(), &mut *child) {
                    ("$ref", Value::String(reference)) => {
                        if let Some(new) = renamed.get(reference) {
                            *reference = new.clone();
                        }
                    }
                    ("discriminator", Value::Object(discriminator)) => {
                        if let Some(Value::Object(mapping)) = discriminator.get_mut("mapping") {
                            for target in mapping.values_mut() {
                                if let Value::String(target) = target
                                    && let Some(new) = renamed.get(target)
                                {
                                    *target = new.clone();
                                }
                            }
                        }
                    }
                    (key, _) if DATA_KEYS.contains(&key) => {}
                    _ => rewrite_refs(child, renamed),
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                rewrite_refs(item, renamed);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn references_are_decoded_once_as_uri_fragments_then_pointers() {
        let mut document = json!({
            "components": {"schemas": {
                "a b": {"type": "string"},
                "c%20d": {"type": "string"},
                "e/f": {"type": "string"},
                "U": {
                    "properties": {
                        "space": {"$ref": "#/components/schemas/a%20b"},
                        "literal": {"$ref": "#/components/schemas/c%20d"},
                        "escaped": {"$ref": "#/components/schemas/e%7E1f"},
                        "bad": {"$ref": "#/components/schemas/%zz"},
                        "external": {"$ref": "other.yaml#/a%20b"},
                        "data": {"example": {"$ref": "#/components/schemas/a%20b"}},
                    },
                    "discriminator": {"propertyName": "k", "mapping": {"x": "#/components/schemas/a%20b", "y": "b"}},
                },
            }},
        });
        let Value::Object(object) = &mut document else {
            unreachable!()
        };
        canonical_refs(object);
        let at = |pointer: &str| document.pointer(pointer).cloned();
        let properties = "/components/schemas/U/properties";
        assert_eq!(
            at(&format!("{properties}/space/$ref")),
            Some(json!("#/components/schemas/a b"))
        );
        assert_eq!(
            at(&format!("{properties}/literal/$ref")),
            Some(json!("#/components/schemas/c%20d"))
        );
        assert_eq!(
            at(&format!("{properties}/escaped/$ref")),
            Some(json!("#/components/schemas/e~1f"))
        );
        assert_eq!(
            at(&format!("{properties}/bad/$ref")),
            Some(json!("#/components/schemas/%zz"))
        );
        assert_eq!(
            at(&format!("{properties}/external/$ref")),
            Some(json!("other.yaml#/a%20b"))
        );
        assert_eq!(
            at(&format!("{properties}/data/example/$ref")),
            Some(json!("#/components/schemas/a%20b"))
        );
        assert_eq!(
            at("/components/schemas/U/discriminator/mapping"),
            Some(json!({"x": "#/components/schemas/a b", "y": "b"}))
        );
    }

    #[test]
    fn hoisted_keys_and_pointers() {
        let mut taken = std::collections::HashSet::from(["limit_schema".to_owned()]);
        assert_eq!(
            unique_key("#/components/parameters/limit/schema", &mut taken),
            "parameters_limit_schema"
        );
        assert_eq!(
            unique_key("#/components/schemas/A/properties/b", &mut taken),
            "A_b"
        );
        assert_eq!(
            unique_key("#/components/schemas/A/properties/b", &mut taken),
            "A_b_2"
        );
        assert!(is_hoistable("#/components/schemas/A/properties/b"));
        assert!(is_hoistable("#/paths/~1a/get/parameters/0/schema"));
        assert!(!is_hoistable("#/components/schemas/A"));
        assert!(!is_hoistable("#/components/parameters/limit"));
        assert!(!is_hoistable(
            "other.yaml#/components/schemas/A/properties/b"
        ));
        assert_eq!(
            percent_decode("/paths/~1a%7Bid%7D").as_deref(),
            Some("/paths/~1a{id}")
        );
        assert_eq!(percent_decode("/a%zz").as_deref(), Some("/a%zz"));
        assert_eq!(percent_decode("/a"), None);
    }
}

#[cfg(test)]
mod hoisting_tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_ref_into_a_schema_becomes_a_component_of_its_own() {
        let mut document = json!({
            "paths": {"/a": {"get": {"parameters": [
                {"name": "n", "in": "query", "schema": {"$ref": "#/components/parameters/P/schema"}},
            ]}}},
            "components": {
                "parameters": {"P": {"name": "p", "in": "query", "schema": {"type": "integer"}}},
                "schemas": {
                    "A": {"properties": {"b": {"properties": {"again": {"$ref": "#/components/schemas/A/properties/b"}}}}},
                    "Kept": {"$ref": "#/components/schemas/A"},
                    "Data": {"example": {"$ref": "#/components/schemas/A/properties/b"}},
                },
            },
        });
        let Value::Object(object) = &mut document else {
            unreachable!()
        };
        hoist_pointer_refs(object);
        assert_eq!(
            document.pointer("/paths/~1a/get/parameters/0/schema/$ref"),
            Some(&json!("#/components/schemas/parameters_P_schema"))
        );
        assert_eq!(
            document.pointer("/components/schemas/parameters_P_schema"),
            Some(&json!({"type": "integer"}))
        );
        // The copy of a schema holding a reference to itself refers to the copy.
        assert_eq!(
            document.pointer("/components/schemas/A_b/properties/again/$ref"),
            Some(&json!("#/components/schemas/A_b"))
        );
        assert_eq!(
            document.pointer("/components/schemas/Kept/$ref"),
            Some(&json!("#/components/schemas/A"))
        );
        // Data is not a reference.
        assert_eq!(
            document.pointer("/components/schemas/Data/example/$ref"),
            Some(&json!("#/components/schemas/A/properties/b"))
        );
    }

    #[test]
    fn schema_refs_that_name_no_schema_say_why() {
        let document = json!({
            "paths": {},
            "components": {"schemas": {
                "A": {"properties": {
                    "ok": {"$ref": "#/components/schemas/A"},
                    "missing": {"$ref": "#/components/schemas/B"},
                    "external": {"$ref": "other.yaml#/A"},
                    "elsewhere": {"$ref": "#/components/parameters/P"},
                    "escaped": {"$ref": "#/components/schemas/a~1b"},
                }},
                "a/b": {},
            }},
        });
        let Value::Object(object) = &document else {
            unreachable!()
        };
        let unusable = unusable_schema_refs(object);
        let mut keys: Vec<&str> = unusable.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "#/components/parameters/P",
                "#/components/schemas/B",
                "other.yaml#/A"
            ]
        );
        assert!(unusable["other.yaml#/A"].starts_with("external reference"));
        assert!(unusable["#/components/schemas/B"].contains("does not resolve"));
        assert!(unusable["#/components/parameters/P"].contains("does not name a schema"));
    }
}
