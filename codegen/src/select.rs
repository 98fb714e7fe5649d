//! Operation selection (`select` in the config), decided on the lowered document before any IR is
//! built: what a selection leaves out is never converted, so nothing unselected can fail a regen.
//!
//! The pass knows the document only, not the IR: it returns the selected operations and the
//! component schemas they reach through `$ref`s (and discriminator mappings), and `ir::build`
//! converts exactly those.

use std::collections::{BTreeMap, BTreeSet};

use openapiv3::{OpenAPI, ReferenceOr, Schema, SchemaKind};
use serde_json::Value;

use crate::{Error, Note};

/// What to convert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Selection {
    /// `(path, lower-case method)` of every selected operation; `None`: every operation.
    pub(crate) operations: Option<BTreeSet<(String, String)>>,
    /// Keys of the component schemas to convert; `None`: every component schema.
    pub(crate) schemas: Option<BTreeSet<String>>,
}

impl Selection {
    /// Everything in the document (no `select` in the config).
    pub(crate) fn everything() -> Self {
        Selection {
            operations: None,
            schemas: None,
        }
    }

    pub(crate) fn has_operation(&self, path: &str, method: &str) -> bool {
        self.operations
            .as_ref()
            .is_none_or(|selected| selected.contains(&(path.to_owned(), method.to_owned())))
    }

    pub(crate) fn has_schema(&self, key: &str) -> bool {
        self.schemas
            .as_ref()
            .is_none_or(|selected| selected.contains(key))
    }

    /// Whether what an error names stands where the selection reaches: a selected operation,
    /// a selected schema, or anywhere when nothing is selected. A part the lowering removed
    /// (a path item, a component that is not a schema) no selection can see, so only an
    /// unselective run reaches it.
    pub(crate) fn reaches(&self, error: &Error) -> bool {
        match error {
            Error::LeftOut { pointer, .. } => self.reaches_pointer(pointer),
            _ => true,
        }
    }

    /// [`Selection::reaches`] for a place in the document.
    pub(crate) fn reaches_pointer(&self, pointer: &str) -> bool {
        if self.operations.is_none() {
            return true;
        }
        let keys: Vec<String> = pointer
            .trim_start_matches("#/")
            .split('/')
            .map(crate::error::Pointer::unescape)
            .collect();
        match keys.as_slice() {
            [paths, path, method, ..] if paths == "paths" => {
                let path = path.split('#').next().unwrap_or_default();
                self.has_operation(path, method) || self.has_operation(&keys[1], method)
            }
            [components, schemas, key, ..]
                if components == "components" && schemas == "schemas" =>
            {
                self.has_schema(key)
            }
            // The document's own fields belong to every selection.
            [field, ..] => DOCUMENT_FIELDS.contains(&field.as_str()),
            _ => false,
        }
    }
}

/// The document's own fields, which every selection reaches.
const DOCUMENT_FIELDS: &[&str] = &["info", "servers", "tags", "security", "externalDocs"];

/// Applies `selectors` to `spec`. Every pattern (`*`, `tag:`) must pick at least one operation:
/// one that picks none is a typo. A selector naming one operation exactly that the document does
/// not have names an operation it no longer has (a change report between two documents must be
/// able to say so): a note, and an error only in strict mode.
pub(crate) fn select(
    spec: &OpenAPI,
    selectors: &[String],
    strict: bool,
    notes: &mut Vec<Note>,
) -> Result<Selection, Error> {
    if selectors.is_empty() {
        return Ok(Selection::everything());
    }
    let mut operations = BTreeSet::new();
    let mut used = vec![false; selectors.len()];
    for (path, item) in &spec.paths.paths {
        // A path item given as `$ref` has no operations of its own to select.
        let ReferenceOr::Item(item) = item else {
            continue;
        };
        for (method, operation) in item.iter() {
            let key = format!("{} {path}", method.to_ascii_uppercase());
            let mut selected = false;
            for (i, selector) in selectors.iter().enumerate() {
                if is_selected(selector, &key, &operation.tags) {
                    used[i] = true;
                    selected = true;
                }
            }
            if selected {
                operations.insert((path.clone(), method.to_owned()));
            }
        }
    }
    for (i, selector) in selectors.iter().enumerate() {
        if used.get(i).copied().unwrap_or(true) {
            continue;
        }
        let pointer = format!("#/select/{i}");
        let reason = format!("{selector:?} selects no operation in the document");
        let pattern = selector.contains('*') || selector.starts_with("tag:");
        if strict || pattern {
            return Err(Error::Config { pointer, reason });
        }
        notes.push(Note {
            pointer,
            message: format!("{reason}: the operation is gone, and so is its method"),
        });
    }
    let schemas = reachable_schemas(spec, &operations);
    Ok(Selection {
        operations: Some(operations),
        schemas: Some(schemas),
    })
}

/// Whether `selector` picks the operation `key` (`"GET /v1/models"`) with `tags`.
pub(crate) fn is_selected(selector: &str, key: &str, tags: &[String]) -> bool {
    match selector.strip_prefix("tag:") {
        Some(tag) => tags.iter().any(|t| t == tag),
        None => glob_matches(selector.as_bytes(), key.as_bytes()),
    }
}

/// `*` matches within one path segment (no `/`), `**` matches anything; all else is literal.
/// `{` and `}` are literal, so `GET /v1/models/{model_id}` selects exactly that template.
///
/// Matched position by position (which text positions each step of the pattern can reach), so
/// the cost is the pattern's length times the text's: trying each split recursively was
/// exponential in the number of `*`s (`**a**a**a…` against `aaaa…b`).
fn glob_matches(pattern: &[u8], text: &[u8]) -> bool {
    let mut reached = vec![false; text.len() + 1];
    reached[0] = true;
    let mut rest = pattern;
    while !rest.is_empty() {
        let mut next = vec![false; text.len() + 1];
        match rest {
            [b'*', b'*', tail @ ..] => {
                let mut any = false;
                for (j, slot) in next.iter_mut().enumerate() {
                    any |= reached[j];
                    *slot = any;
                }
                rest = tail;
            }
            [b'*', tail @ ..] => {
                // Some start at or before `j` with no `/` between it and `j`.
                let mut run = false;
                for (j, slot) in next.iter_mut().enumerate() {
                    if j > 0 && text[j - 1] == b'/' {
                        run = false;
                    }
                    run |= reached[j];
                    *slot = run;
                }
                rest = tail;
            }
            [literal, tail @ ..] => {
                for (j, &byte) in text.iter().enumerate() {
                    next[j + 1] = reached[j] && byte == *literal;
                }
                rest = tail;
            }
            [] => break,
        }
        reached = next;
    }
    reached[text.len()]
}

/// The component schemas the selected operations reach, following every local `$ref` (through
/// components of any kind: parameters, request bodies, responses) and discriminator mapping.
/// The walk is over the document as JSON, so it sees every place a reference can stand.
fn reachable_schemas(spec: &OpenAPI, operations: &BTreeSet<(String, String)>) -> BTreeSet<String> {
    let Ok(document) = serde_json::to_value(spec) else {
        // Not reachable for a document that was deserialised; converting everything is the
        // safe answer (the same as no selection).
        return all_schema_keys(spec);
    };
    let mut pending: Vec<&Value> = Vec::new();
    let paths = document.get("paths");
    for (path, method) in operations {
        if let Some(item) = paths.and_then(|paths| paths.get(path)) {
            pending.extend(item.get(method.as_str()));
            pending.extend(item.get("parameters"));
        }
    }
    // A base with a discriminator reaches its subtypes: the IR makes it a union of them.
    let mut subtypes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (key, schema) in spec.components.iter().flat_map(|c| c.schemas.iter()) {
        if let ReferenceOr::Item(Schema {
            schema_kind: SchemaKind::AllOf { all_of },
            ..
        }) = schema
        {
            for member in all_of {
                if let ReferenceOr::Reference { reference } = member {
                    let subtype = crate::error::Pointer::to(&["components", "schemas", key]);
                    subtypes.entry(reference.clone()).or_default().push(subtype);
                }
            }
        }
    }
    let mut seen_refs: BTreeSet<&str> = BTreeSet::new();
    let mut schemas = BTreeSet::new();
    while let Some(value) = pending.pop() {
        let mut references = Vec::new();
        collect_references(value, &mut references);
        while let Some(reference) = references.pop() {
            if !seen_refs.insert(reference) {
                continue;
            }
            let Some(target) = reference
                .strip_prefix('#')
                .and_then(|pointer| document.pointer(pointer))
            else {
                // Dangling or external: the IR build reports it where it stands.
                continue;
            };
            if let Some(key) = reference.strip_prefix("#/components/schemas/") {
                schemas.insert(crate::error::Pointer::unescape(key));
                if target.get("discriminator").is_some() {
                    references.extend(
                        subtypes
                            .get(reference)
                            .into_iter()
                            .flatten()
                            .map(String::as_str),
                    );
                }
            }
            pending.push(target);
        }
    }
    schemas
}

fn all_schema_keys(spec: &OpenAPI) -> BTreeSet<String> {
    spec.components
        .iter()
        .flat_map(|components| components.schemas.keys().cloned())
        .collect()
}

/// Every `$ref` string and discriminator mapping target under `value`.
fn collect_references<'v>(value: &'v Value, out: &mut Vec<&'v str>) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(object) => {
                for (key, member) in object {
                    match (key.as_str(), member) {
                        ("$ref", Value::String(reference)) => out.push(reference),
                        ("discriminator", Value::Object(discriminator)) => {
                            if let Some(Value::Object(mapping)) = discriminator.get("mapping") {
                                out.extend(mapping.values().filter_map(Value::as_str));
                            }
                        }
                        _ => stack.push(member),
                    }
                }
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::{Note, Selection, glob_matches, select};
    use crate::Error;

    const DOCUMENT: &str = r##"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /pets/{id}:
    parameters:
      - $ref: "#/components/parameters/Id"
    get:
      tags: [pets]
      responses:
        "200":
          $ref: "#/components/responses/Pet"
  /broken:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Missing"}
      responses:
        "204": {description: none}
components:
  parameters:
    Id:
      name: id
      in: path
      required: true
      schema: {$ref: "#/components/schemas/PetId"}
  responses:
    Pet:
      description: a pet
      content:
        application/json:
          schema: {$ref: "#/components/schemas/Pet"}
  schemas:
    PetId: {type: string}
    Pet:
      oneOf: [{$ref: "#/components/schemas/Cat"}]
      discriminator:
        propertyName: kind
        mapping: {dog: "#/components/schemas/Dog"}
    Cat: {type: object, properties: {kind: {type: string}}}
    Dog: {type: object, properties: {kind: {type: string}}}
    Unused: {type: object, properties: {x: {$ref: "#/components/schemas/Missing"}}}
"##;

    fn selection(selectors: &[&str]) -> Result<Selection, Error> {
        let lowered = crate::lower::lower(crate::load::parse_document(DOCUMENT)?)?;
        let selectors: Vec<String> = selectors.iter().map(|s| (*s).to_owned()).collect();
        select(&lowered.openapi, &selectors, true, &mut Vec::new())
    }

    #[test]
    fn reaches_schemas_through_every_kind_of_reference() {
        let expected = Selection {
            operations: Some(BTreeSet::from([(
                "/pets/{id}".to_owned(),
                "get".to_owned(),
            )])),
            schemas: Some(
                ["Cat", "Dog", "Pet", "PetId"]
                    .map(str::to_owned)
                    .into_iter()
                    .collect(),
            ),
        };
        assert_eq!(selection(&["tag:pets"]), Ok(expected.clone()));
        assert_eq!(selection(&["GET /pets/*"]), Ok(expected));
        assert_eq!(selection(&[]), Ok(Selection::everything()));
    }

    #[test]
    fn a_selector_that_selects_nothing_is_named() {
        assert_eq!(
            selection(&["tag:pets", "GET /cats"]),
            Err(Error::Config {
                pointer: "#/select/1".to_owned(),
                reason: "\"GET /cats\" selects no operation in the document".to_owned(),
            })
        );
    }

    #[test]
    fn an_operation_gone_from_the_document_is_a_note_unless_strict() {
        let lowered = crate::lower::lower(crate::load::parse_document(DOCUMENT).unwrap()).unwrap();
        let selectors = ["tag:pets".to_owned(), "GET /cats".to_owned()];
        let mut notes = Vec::new();
        let selection = select(&lowered.openapi, &selectors, false, &mut notes).unwrap();
        assert_eq!(selection.operations.map(|o| o.len()), Some(1));
        assert_eq!(
            notes,
            [Note {
                pointer: "#/select/1".to_owned(),
                message: "\"GET /cats\" selects no operation in the document: the operation is \
                          gone, and so is its method"
                    .to_owned(),
            }]
        );
        let globbed = ["GET /cats/*".to_owned()];
        assert!(select(&lowered.openapi, &globbed, false, &mut notes).is_err());
    }

    #[test]
    fn what_is_not_selected_is_never_converted() {
        let generate = |config: &str| {
            crate::generate(&crate::Input {
                spec_path: "t.yaml",
                spec_text: DOCUMENT,
                config_text: Some(config),
            })
            .map(|output| output.notes)
        };
        assert_eq!(generate("select: [tag:pets]\nstrict: true"), Ok(Vec::new()));
        // Unselective, a dangling `$ref` leaves out the schema holding it, and strict mode
        // refuses with the first such place.
        let left_out = |pointer: &str| Note {
            pointer: pointer.to_owned(),
            message: "the schema (read as any JSON value) is left out: `$ref` \
                      \"#/components/schemas/Missing\" does not resolve to anything in the document"
                .to_owned(),
        };
        let notes = generate("").unwrap_or_default();
        for pointer in [
            "#/paths/~1broken/post/requestBody/content/application~1json/schema",
            "#/components/schemas/Unused/properties/x",
        ] {
            assert!(notes.contains(&left_out(pointer)), "{notes:?}");
        }
        assert!(matches!(
            generate("strict: true"),
            Err(Error::LeftOut { pointer, .. })
                if pointer == "#/paths/~1broken/post/requestBody/content/application~1json/schema"
        ));
    }

    /// Forty `**`s against text that almost matches: the recursive matcher tried every way of
    /// splitting the text among them (about 2^40 calls); this one steps through it once.
    #[test]
    fn globs_are_matched_without_backtracking() {
        let pattern = "**a".repeat(40) + "b";
        let text = "a".repeat(60);
        assert!(!glob_matches(pattern.as_bytes(), text.as_bytes()));
        assert!(glob_matches(pattern.as_bytes(), (text + "b").as_bytes()));
        let single = "*a".repeat(40) + "b";
        assert!(!glob_matches(single.as_bytes(), "a".repeat(60).as_bytes()));
    }

    #[test]
    fn globs() {
        let cases = [
            ("GET /v1/models", "GET /v1/models", true),
            ("GET /v1/models", "GET /v1/models/{model_id}", false),
            ("GET /v1/models/*", "GET /v1/models/{model_id}", true),
            (
                "GET /v1/models/*",
                "GET /v1/models/{model_id}/deployments",
                false,
            ),
            (
                "GET /v1/models/**",
                "GET /v1/models/{model_id}/deployments",
                true,
            ),
            ("* /v1/secrets", "DELETE /v1/secrets", true),
            (
                "GET /v1/**/metrics",
                "GET /v1/models/{model_id}/environments/{env_name}/metrics",
                true,
            ),
            (
                "GET /v1/*/metrics",
                "GET /v1/models/{model_id}/environments/{env_name}/metrics",
                false,
            ),
            ("GET /v1/*", "GET /v1/", true),
            ("GET /v1/**", "GET /v1", false),
            ("*", "", true),
            ("***", "a/b", true),
            ("a*", "ab/", false),
            ("", "", true),
            ("", "a", false),
        ];
        for (pattern, text, expected) in cases {
            assert_eq!(
                glob_matches(pattern.as_bytes(), text.as_bytes()),
                expected,
                "{pattern} ~ {text}"
            );
        }
    }
}
