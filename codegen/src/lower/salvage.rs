//! The parts of a lowered document that do not decode into the 3.0 model (a `content: {$ref}`,
//! a parameter of no known shape), each found alone, so that the operation, path item or
//! component holding one is left out and the rest of the document still generates.

use openapiv3::{
    Callback, Example, Header, Link, Operation, Parameter, PathItem, ReferenceOr, RequestBody,
    Response, SecurityScheme,
};
use serde_json::Value;

use super::METHODS;
use crate::Error;
use crate::error::Pointer;

/// A part of the document that can be left out alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Part {
    /// Where it stands.
    pub pointer: Pointer,
    /// What it is, for the note (`operation GET /a`, `component parameters/limit`).
    pub what: String,
    /// The keys down to it from the document's root.
    keys: Vec<String>,
}

impl Part {
    fn new(keys: &[&str], what: String) -> Part {
        Part {
            pointer: keys
                .iter()
                .fold(Pointer::root(), |pointer, key| pointer.join(key)),
            what,
            keys: keys.iter().map(|key| (*key).to_owned()).collect(),
        }
    }

    fn operation(path: &str, method: &str) -> Part {
        let what = format!("operation {} {path}", method.to_ascii_uppercase());
        Part::new(&["paths", path, method], what)
    }

    fn path_item(path: &str) -> Part {
        Part::new(&["paths", path], format!("path item {path}"))
    }

    fn component(kind: &str, name: &str) -> Part {
        Part::new(
            &["components", kind, name],
            format!("component {kind}/{name}"),
        )
    }
}

/// Every operation, path item and component that does not decode on its own, with the
/// decoder's reason (each operation of a path item alone first; the item only when none of
/// its operations is at fault).
pub(super) fn undecodable_parts(document: &Value) -> Vec<(Part, String)> {
    let mut parts = Vec::new();
    if let Some(Value::Object(paths)) = document.get("paths") {
        for (path, item) in paths.iter().filter(|(path, _)| !path.starts_with("x-")) {
            let Err(item_error) = fault::<ReferenceOr<PathItem>>(item) else {
                continue;
            };
            let before = parts.len();
            if let Value::Object(item) = item {
                for (method, operation) in item
                    .iter()
                    .filter(|(key, _)| METHODS.contains(&key.as_str()))
                {
                    if let Err(reason) = fault::<Operation>(operation) {
                        let reason = operation_fault(operation).unwrap_or(reason);
                        parts.push((Part::operation(path, method), reason));
                    }
                }
            }
            if parts.len() == before {
                parts.push((Part::path_item(path), item_error));
            }
        }
    }
    if let Some(Value::Object(components)) = document.get("components") {
        for (kind, entries) in components {
            let Value::Object(entries) = entries else {
                continue;
            };
            let check: fn(&Value) -> Result<(), String> = match kind.as_str() {
                "parameters" => fault::<ReferenceOr<Parameter>>,
                "responses" => fault::<ReferenceOr<Response>>,
                "requestBodies" => fault::<ReferenceOr<RequestBody>>,
                "headers" => fault::<ReferenceOr<Header>>,
                "securitySchemes" => fault::<ReferenceOr<SecurityScheme>>,
                "examples" => fault::<ReferenceOr<Example>>,
                "links" => fault::<ReferenceOr<Link>>,
                "callbacks" => fault::<ReferenceOr<Callback>>,
                "pathItems" => fault::<ReferenceOr<PathItem>>,
                _ => continue,
            };
            for (name, entry) in entries {
                if let Err(reason) = check(entry) {
                    parts.push((Part::component(kind, name), reason));
                }
            }
        }
    }
    parts
}

/// The operation, path item or component an error's pointer stands in, if it stands in one.
pub(super) fn enclosing_part(error: &Error) -> Option<Part> {
    let Error::Invalid { pointer, .. } = error else {
        return None;
    };
    let keys: Vec<String> = pointer
        .strip_prefix("#/")?
        .split('/')
        .map(Pointer::unescape)
        .collect();
    match keys.as_slice() {
        [paths, path, method, ..] if paths == "paths" && METHODS.contains(&method.as_str()) => {
            Some(Part::operation(path, method))
        }
        [paths, path, ..] if paths == "paths" && !path.starts_with("x-") => {
            Some(Part::path_item(path))
        }
        [components, kind, name, ..] if components == "components" => {
            Some(Part::component(kind, name))
        }
        _ => None,
    }
}

/// Removes `part` from the document; false when it is not there (nothing was removed).
pub(super) fn remove(document: &mut Value, part: &Part) -> bool {
    let Some((last, parents)) = part.keys.split_last() else {
        return false;
    };
    let mut current = document;
    for key in parents {
        match current.get_mut(key.as_str()) {
            Some(next) => current = next,
            None => return false,
        }
    }
    match current {
        Value::Object(object) => object.shift_remove(last.as_str()).is_some(),
        _ => false,
    }
}

/// The fault of an operation at its exact place: `openapiv3` reads responses through a
/// flattened map, which hides the path below it, so each response, parameter and the request
/// body is decoded alone.
fn operation_fault(operation: &Value) -> Option<String> {
    let at = |prefix: String, reason: String| {
        Some(match reason.strip_prefix('/') {
            Some(_) => format!("{prefix}{reason}"),
            None => format!("{prefix}: {reason}"),
        })
    };
    if let Some(Value::Object(responses)) = operation.get("responses") {
        for (status, response) in responses {
            if let Err(reason) = fault::<ReferenceOr<Response>>(response) {
                let prefix = Pointer::root().join("responses").join(status).to_string();
                return at(prefix.trim_start_matches('#').to_owned(), reason);
            }
        }
    }
    if let Some(Value::Array(parameters)) = operation.get("parameters") {
        for (i, parameter) in parameters.iter().enumerate() {
            if let Err(reason) = fault::<ReferenceOr<Parameter>>(parameter) {
                let prefix = Pointer::root().join("parameters").join(i).to_string();
                return at(prefix.trim_start_matches('#').to_owned(), reason);
            }
        }
    }
    None
}

fn fault<T: serde::de::DeserializeOwned>(value: &Value) -> Result<(), String> {
    serde_path_to_error::deserialize::<_, T>(value)
        .map(drop)
        .map_err(|error| {
            let at = super::pointer_of(error.path());
            let inner = error.inner().to_string();
            if at == "#" {
                inner
            } else {
                format!("{}: {inner}", at.trim_start_matches('#'))
            }
        })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn each_part_that_does_not_decode_is_found_alone() {
        let document = json!({
            "paths": {
                "/a": {
                    "get": {"responses": {"200": {"description": 3}}},
                    "put": {"responses": {}},
                },
                "/b": {"parameters": 3, "get": {"responses": {}}},
                "x-ignored": 3,
            },
            "components": {
                "parameters": {"good": {"$ref": "#/x"}, "bad": {"name": "n"}},
                "schemas": {"anything": 3},
            },
        });
        let parts = undecodable_parts(&document);
        let found: Vec<(&str, &str)> = parts
            .iter()
            .map(|(part, reason)| (part.pointer.as_str(), reason.as_str()))
            .collect();
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(found[0].0, "#/paths/~1a/get");
        assert!(found[0].1.starts_with("/responses/200"), "{}", found[0].1);
        assert_eq!(found[1].0, "#/paths/~1b");
        assert_eq!(found[2].0, "#/components/parameters/bad");
        assert_eq!(parts[0].0.what, "operation GET /a");
        assert_eq!(parts[1].0.what, "path item /b");
        assert_eq!(parts[2].0.what, "component parameters/bad");
    }

    #[test]
    fn an_error_names_the_part_it_stands_in() {
        let invalid = |pointer: &str| Error::Invalid {
            pointer: pointer.to_owned(),
            reason: String::new(),
        };
        let part = |error: Error| enclosing_part(&error).map(|part| part.pointer.to_string());
        assert_eq!(
            part(invalid("#/paths/~1a/get/responses/200")).as_deref(),
            Some("#/paths/~1a/get")
        );
        assert_eq!(
            part(invalid("#/paths/~1a/parameters/0")).as_deref(),
            Some("#/paths/~1a")
        );
        assert_eq!(
            part(invalid("#/components/responses/R/content")).as_deref(),
            Some("#/components/responses/R")
        );
        assert_eq!(part(invalid("#/paths/x-ext/a")), None);
        assert_eq!(part(invalid("#/info/title")), None);
        assert_eq!(part(invalid("#/paths")), None);
        assert_eq!(part(Error::Empty), None);
    }

    #[test]
    fn removing_a_part_removes_only_it() {
        let mut document = json!({"paths": {"/a": {"get": {}, "put": {}}}});
        assert!(remove(&mut document, &Part::operation("/a", "get")));
        assert_eq!(document, json!({"paths": {"/a": {"put": {}}}}));
        assert!(!remove(&mut document, &Part::operation("/a", "get")));
        assert!(!remove(&mut document, &Part::component("schemas", "A")));
        assert!(remove(&mut document, &Part::path_item("/a")));
        assert_eq!(document, json!({"paths": {}}));
    }
}
