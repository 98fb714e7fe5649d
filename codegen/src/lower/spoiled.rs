//! Places one bad value could spoil the whole document through: the document's own fields
//! (`info`, `servers`, `tags`, `security`, `externalDocs`, the shape of `paths` and
//! `components`) and subtrees the loader cut off past its depth limit. Each is mended where it
//! stands (defaulted, left out, or read as any JSON value) with a note naming its pointer, and
//! recorded as left out, so strict mode still refuses it.

use openapiv3::{
    ExternalDocumentation, Info, Operation, PathItem, SecurityRequirement, Server, Tag,
};
use serde_json::{Map, Value};

use super::Lowerer;
use crate::error::Pointer;

/// What `info.title` and `info.version` default to when missing or not text.
const DEFAULT_TITLE: &str = "API";
const DEFAULT_VERSION: &str = "0.0.0";

/// Schema keywords whose value is one schema.
const SCHEMA_KEYWORDS: &[&str] = &[
    "schema",
    "items",
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
    "additionalItems",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// Schema keywords whose value maps names to schemas.
const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Schema keywords whose value is a list of schemas.
const SCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

impl Lowerer {
    /// Mends the document's own fields, each alone: a bad value spoils itself, not the rest.
    pub(super) fn document_fields(&mut self, document: &mut Map<String, Value>) {
        let root = Pointer::root();
        self.info(document, &root.join("info"));
        self.list_field::<Server>(document, "servers", "server");
        self.list_field::<Tag>(document, "tags", "tag");
        self.list_field::<SecurityRequirement>(document, "security", "security requirement");
        if let Some(docs) = document.get("externalDocs")
            && let Err(reason) = decodes::<ExternalDocumentation>(docs)
        {
            document.remove("externalDocs");
            self.leave_out(&root.join("externalDocs"), "`externalDocs`", &reason);
        }
        for key in ["paths", "components"] {
            match document.get(key) {
                None | Some(Value::Object(_)) => {}
                Some(other) => {
                    let reason = format!("`{key}` must be an object, found {}", kind(other));
                    document.insert(key.into(), Value::Object(Map::new()));
                    self.leave_out(&root.join(key), &format!("`{key}`"), &reason);
                }
            }
        }
        if let Some(Value::Object(components)) = document.get_mut("components") {
            let pointer = root.join("components");
            let bad: Vec<String> = components
                .iter()
                .filter(|(key, value)| !key.starts_with("x-") && !value.is_object())
                .map(|(key, _)| key.clone())
                .collect();
            for key in bad {
                let found = components
                    .remove(&key)
                    .map(|v| kind(&v))
                    .unwrap_or_default();
                self.leave_out(
                    &pointer.join(&key),
                    &format!("components `{key}`"),
                    &format!("must be an object, found {found}"),
                );
            }
        }
    }

    /// `info`: a title and a version (text; a number is read as its text), defaulted when
    /// missing; any other field that does not decode is left out alone.
    fn info(&mut self, document: &mut Map<String, Value>, pointer: &Pointer) {
        let info = document
            .entry("info")
            .or_insert_with(|| Value::Object(Map::new()));
        if !info.is_object() {
            let reason = format!("`info` must be an object, found {}", kind(info));
            *info = Value::Object(Map::new());
            self.leave_out(pointer, "`info`", &reason);
        }
        let Value::Object(info) = info else {
            return;
        };
        for (field, default) in [("title", DEFAULT_TITLE), ("version", DEFAULT_VERSION)] {
            let at = pointer.join(field);
            match info.get(field) {
                Some(Value::String(_)) => {}
                Some(value @ (Value::Number(_) | Value::Bool(_))) => {
                    let text = value.to_string();
                    self.note(
                        &at,
                        format!("`{field}` {text} is read as the text {text:?}"),
                    );
                    info.insert(field.into(), Value::String(text));
                }
                found => {
                    let reason = match found {
                        None => format!("`info` has no `{field}`"),
                        Some(other) => format!("`{field}` must be text, found {}", kind(other)),
                    };
                    // Noted, and refused in strict mode like anything left out.
                    self.note(&at, format!("{reason}; {default:?} is used"));
                    self.left_out.push(crate::Error::LeftOut {
                        pointer: at.to_string(),
                        what: format!("`info.{field}`"),
                        reason,
                    });
                    info.insert(field.into(), Value::String(default.into()));
                }
            }
        }
        let fields: Vec<String> = info.keys().cloned().collect();
        for field in fields {
            if field == "title" || field == "version" {
                continue;
            }
            let mut alone = Map::new();
            for key in ["title", "version", field.as_str()] {
                if let Some(value) = info.get(key) {
                    alone.insert(key.to_owned(), value.clone());
                }
            }
            if let Err(reason) = decodes::<Info>(&Value::Object(alone)) {
                info.remove(&field);
                self.leave_out(&pointer.join(&field), &format!("`info.{field}`"), &reason);
            }
        }
    }

    /// A document field holding a list of `T`: an item that does not decode is left out alone,
    /// and a field that is not a list is left out whole.
    fn list_field<T: serde::de::DeserializeOwned>(
        &mut self,
        document: &mut Map<String, Value>,
        field: &str,
        what: &str,
    ) {
        let pointer = Pointer::root().join(field);
        match document.get_mut(field) {
            None => {}
            Some(Value::Array(items)) => {
                let taken = std::mem::take(items);
                for (i, item) in taken.into_iter().enumerate() {
                    match decodes::<T>(&item) {
                        Ok(()) => items.push(item),
                        Err(reason) => {
                            self.leave_out(&pointer.join(i), &format!("{what} {i}"), &reason);
                        }
                    }
                }
            }
            Some(other) => {
                let reason = format!("must be a list, found {}", kind(other));
                document.remove(field);
                self.leave_out(&pointer, &format!("`{field}`"), &reason);
            }
        }
    }

    /// The fields of an operation or path item that only describe it (`tags`, `summary`,
    /// `description`, `operationId`, `deprecated`, `externalDocs`, `servers`, `security`): one
    /// that does not decode is left out alone, not the operation or path item holding it.
    pub(super) fn descriptive_fields(
        &mut self,
        object: &mut Map<String, Value>,
        pointer: &Pointer,
        operation: bool,
    ) {
        let fields: &[&str] = if operation {
            &[
                "tags",
                "summary",
                "description",
                "operationId",
                "deprecated",
                "externalDocs",
                "servers",
                "security",
            ]
        } else {
            &["summary", "description", "servers"]
        };
        for field in fields {
            let Some(value) = object.get(*field) else {
                continue;
            };
            let mut alone = Map::new();
            alone.insert((*field).to_owned(), value.clone());
            let fault = if operation {
                alone.insert("responses".into(), Value::Object(Map::new()));
                decodes::<Operation>(&Value::Object(alone))
            } else {
                decodes::<PathItem>(&Value::Object(alone))
            };
            if let Err(reason) = fault {
                object.remove(*field);
                self.leave_out(&pointer.join(field), &format!("`{field}`"), &reason);
            }
        }
    }

    /// Replaces the schema holding each container the loader cut off past its depth limit with
    /// the untyped schema (any JSON value), with a note naming both places.
    pub(super) fn cut_off(&mut self, document: &mut Value, too_deep: &[String]) {
        let mut mended: Vec<Vec<String>> = Vec::new();
        for at in too_deep {
            let keys: Vec<String> = at
                .trim_start_matches('#')
                .split('/')
                .skip(1)
                .map(Pointer::unescape)
                .collect();
            let Some(schema) = (1..=keys.len())
                .rev()
                .find(|n| is_schema_position(&keys[..*n]))
            else {
                // Not inside a schema (an example, an extension): the `null` standing in for it
                // is data, or the part holding it is left out when it does not decode.
                continue;
            };
            let keys = &keys[..schema];
            // One schema may hold several places cut off, or lie inside one already mended.
            if mended.iter().any(|done| keys.starts_with(done)) {
                continue;
            }
            let Some(slot) = lookup(document, keys) else {
                continue;
            };
            *slot = Value::Object(Map::new());
            let pointer = keys.iter().fold(Pointer::root(), |p, key| p.join(key));
            self.leave_out(
                &pointer,
                super::READ_AS_ANY_VALUE,
                &format!(
                    "{at} is nested more than {} levels deep",
                    crate::load::MAX_DEPTH
                ),
            );
            mended.push(keys.to_vec());
        }
    }
}

/// Whether the keys from the root lead to a schema (by the keyword holding it).
fn is_schema_position(keys: &[String]) -> bool {
    let parent = |back: usize| {
        keys.len()
            .checked_sub(back)
            .and_then(|i| keys.get(i))
            .map(String::as_str)
    };
    if let (Some("components"), Some("schemas"), 3) = (parent(3), parent(2), keys.len()) {
        return true;
    }
    let last = parent(1).unwrap_or_default();
    let above = parent(2).unwrap_or_default();
    SCHEMA_KEYWORDS.contains(&last)
        || SCHEMA_MAPS.contains(&above)
        || (SCHEMA_LISTS.contains(&above) && last.parse::<usize>().is_ok())
}

/// The value the keys lead to.
fn lookup<'v>(document: &'v mut Value, keys: &[String]) -> Option<&'v mut Value> {
    keys.iter().try_fold(document, |value, key| match value {
        Value::Object(object) => object.get_mut(key),
        Value::Array(items) => items.get_mut(key.parse::<usize>().ok()?),
        _ => None,
    })
}

/// Whether `value` decodes as a `T`, and why not.
fn decodes<T: serde::de::DeserializeOwned>(value: &Value) -> Result<(), String> {
    serde_path_to_error::deserialize::<_, T>(value)
        .map(drop)
        .map_err(|error| {
            let at = super::pointer_of(error.path());
            let inner = error.inner().to_string();
            match at.strip_prefix('#').filter(|rest| !rest.is_empty()) {
                Some(rest) => format!("{rest}: {inner}"),
                None => inner,
            }
        })
}

/// A JSON value's kind, for a note.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
