//! OpenAPI 3.1 → the `openapiv3` (3.0) model.
//!
//! The rewrite happens on the JSON value, in schema positions only, before `openapiv3`
//! deserialises it, because `openapiv3` would otherwise drop 3.1 constructs without a word:
//! - `type: [T, "null"]`, and `anyOf`/`oneOf` with a `{type: null}` member → `nullable: true`;
//! - `const: v` → a one-value `enum`;
//! - a `$ref` with sibling keywords → `allOf: [$ref]` keeping `description` and `default`;
//! - numeric `exclusiveMinimum`/`exclusiveMaximum` → the 3.0 boolean form;
//! - `examples: [...]` → `example` (the first).
//!
//! Anything else 3.0 cannot hold is removed and reported as a [`Note`].

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::error::Pointer;
use crate::{Error, Note};

mod compose;
pub(crate) mod content;
mod refs;
mod salvage;
mod spoiled;
pub(crate) mod typed;

/// A document lowered to the 3.0 model, with the notes the lowering made.
#[derive(Debug, Clone)]
pub struct Lowered {
    /// The lowered document.
    pub openapi: openapiv3::OpenAPI,
    /// What was lowered with a loss.
    pub notes: Vec<Note>,
    /// What was left out (each also a note), as the errors strict mode reports.
    pub left_out: Vec<Error>,
}

/// Schema keywords the 3.0 model keeps.
const KEPT_KEYWORDS: &[&str] = &[
    "$ref",
    content::MEDIA_TYPE_EXTENSION,
    "title",
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
    "enum",
    "type",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "items",
    "properties",
    "additionalProperties",
    "description",
    "format",
    "default",
    "nullable",
    "discriminator",
    "readOnly",
    "writeOnly",
    "xml",
    "externalDocs",
    "example",
    "deprecated",
];

/// Keywords that only annotate, so dropping them loses nothing the emitters use.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "contentMediaType",
    "contentEncoding",
];

const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Lowers a parsed document (3.1 or 3.0) to the `openapiv3` model.
pub fn lower(document: Value) -> Result<Lowered, Error> {
    lower_loaded(crate::load::Loaded {
        value: document,
        too_deep: Vec::new(),
    })
}

/// [`lower`] for a document read by [`crate::load::parse_spec`]: each schema holding a
/// container the loader cut off is read as any JSON value, with a note.
pub fn lower_loaded(loaded: crate::load::Loaded) -> Result<Lowered, Error> {
    let crate::load::Loaded {
        value: mut document,
        too_deep,
    } = loaded;
    let root = Pointer::root();
    let mut lowerer = Lowerer {
        notes: Vec::new(),
        left_out: Vec::new(),
        bad_refs: HashMap::new(),
    };
    let Some(object) = document.as_object_mut() else {
        return Err(Error::Invalid {
            pointer: root.into_string(),
            reason: "the document is not an object".into(),
        });
    };
    if let Some(version) = object.get("swagger") {
        return Err(Error::Invalid {
            pointer: "#/swagger".into(),
            reason: format!(
                "Swagger {version} documents are not supported; convert to OpenAPI 3.1 or 3.0 first"
            ),
        });
    }
    let version = match object.get("openapi") {
        Some(Value::String(version)) => version.clone(),
        Some(other) => {
            return Err(Error::Invalid {
                pointer: "#/openapi".into(),
                reason: format!("expected a version string, found {other}"),
            });
        }
        None => {
            return Err(Error::Invalid {
                pointer: "#/openapi".into(),
                reason: "missing `openapi` version field: not an OpenAPI 3 document".into(),
            });
        }
    };
    if !(version.starts_with("3.1.") || version.starts_with("3.0.")) {
        return Err(Error::Invalid {
            pointer: "#/openapi".into(),
            reason: format!("OpenAPI {version} is not supported; expected 3.1.x or 3.0.x"),
        });
    }
    object.insert("openapi".into(), Value::String("3.0.3".into()));
    // 3.1 made `paths` optional; the 3.0 model requires it.
    object
        .entry("paths")
        .or_insert_with(|| Value::Object(Map::new()));

    // Extensions feed nothing emitters use; those in operations and schemas go where walked.
    strip_extensions(object);
    for key in ["info", "components"] {
        if let Some(Value::Object(part)) = object.get_mut(key) {
            strip_extensions(part);
        }
    }
    lowerer.document_fields(object);
    lowerer.cut_off(&mut document, &too_deep);
    let Some(object) = document.as_object_mut() else {
        return Err(Error::Invalid {
            pointer: root.into_string(),
            reason: "the document is not an object".into(),
        });
    };
    match object.remove("webhooks") {
        Some(Value::Object(webhooks)) => {
            for name in webhooks.keys() {
                lowerer.note(
                    &root.join("webhooks").join(name),
                    format!("webhook `{name}` is not generated (a request the server sends, not one the client makes)"),
                );
            }
        }
        Some(_) => lowerer.note(&root.join("webhooks"), "webhooks are not generated"),
        None => {}
    }
    refs::canonical_refs(object);
    refs::hoist_pointer_refs(object);
    lowerer.bad_refs = refs::unusable_schema_refs(object);
    if let Some(Value::Object(paths)) = object.get_mut("paths") {
        let pointer = root.join("paths");
        let mut malformed = Vec::new();
        for (path, item) in paths.iter_mut() {
            // `x-` keys of the paths object are extensions, not templates.
            if !path.starts_with("x-")
                && let Err(error) = check_path_template(path, item, &pointer.join(path))
            {
                malformed.push((path.clone(), error));
                continue;
            }
            lowerer.path_item(item, &pointer.join(path))?;
        }
        // One malformed template leaves out its own path item, not the document.
        for (path, error) in malformed {
            paths.shift_remove(&path);
            let (pointer, reason) = match &error {
                Error::PathTemplate {
                    template, reason, ..
                } => (
                    pointer.join(&path),
                    format!("path template {template:?} {reason}"),
                ),
                other => (pointer.join(&path), other.to_string()),
            };
            lowerer.leave_out(&pointer, &format!("path item {path}"), &reason);
        }
    }
    if let Some(Value::Object(components)) = object.get_mut("components") {
        let pointer = root.join("components");
        if components.remove("callbacks").is_some() {
            lowerer.note(&pointer.join("callbacks"), "callbacks are not generated");
        }
        for (kind, entries) in components.iter_mut() {
            let Value::Object(entries) = entries else {
                continue;
            };
            let pointer = pointer.join(kind);
            for (name, entry) in entries.iter_mut() {
                let pointer = pointer.join(name);
                match kind.as_str() {
                    "schemas" => lowerer.schema(entry, &pointer)?,
                    "parameters" | "headers" => lowerer.parameter(entry, &pointer)?,
                    "responses" => lowerer.response(entry, &pointer)?,
                    "requestBodies" => lowerer.content_holder(entry, &pointer)?,
                    "pathItems" => lowerer.path_item(entry, &pointer)?,
                    _ => {}
                }
            }
        }
    }

    // Every schema has been checked node by node. The rest is checked with each schema stood in
    // for by `{}`: `openapiv3` decodes a failing part several times over (once per form it tries,
    // at each level), and without its schemas each part is small and nests a bounded depth.
    // A part that does not decode (a `content: {$ref}`, a parameter of no known shape) leaves
    // out the operation, path item or component it stands in, not the document: each round
    // removes at least one part, so this ends.
    loop {
        let schemas: Vec<Value> = schema_slots(&mut document)
            .into_iter()
            .map(|slot| std::mem::replace(slot, Value::Object(Map::new())))
            .collect();
        let fault = match decode(&document) {
            Ok(_) => None,
            Err(error) => Some((salvage::undecodable_parts(&document), error)),
        };
        for (slot, schema) in schema_slots(&mut document).into_iter().zip(schemas) {
            *slot = schema;
        }
        let Some((parts, error)) = fault else {
            break;
        };
        let parts = if parts.is_empty() {
            match salvage::enclosing_part(&error) {
                Some(part) => vec![(part, error.to_string())],
                None => return Err(error),
            }
        } else {
            parts
        };
        for (part, reason) in parts {
            if !salvage::remove(&mut document, &part) {
                return Err(error);
            }
            lowerer.leave_out(&part.pointer, &part.what, &reason);
        }
    }
    let openapi = decode(&document)?;
    Ok(Lowered {
        openapi,
        notes: lowerer.notes,
        left_out: lowerer.left_out,
    })
}

/// Decodes the lowered document; only a failure tracks the path (it costs time on every value),
/// by decoding again.
fn decode(document: &Value) -> Result<openapiv3::OpenAPI, Error> {
    use serde::Deserialize;
    match openapiv3::OpenAPI::deserialize(document) {
        Ok(openapi) => Ok(openapi),
        Err(_) => serde_path_to_error::deserialize(document)
            .map_err(|error| decode_error(document, &error)),
    }
}

/// The outermost schemas of the document: where the document, not another schema, holds one.
/// Each is walked (and so checked) by [`Lowerer::schema`]; the order is always the same.
fn schema_slots(document: &mut Value) -> Vec<&mut Value> {
    let mut slots = Vec::new();
    let Value::Object(document) = document else {
        return slots;
    };
    for (key, value) in document.iter_mut() {
        match (key.as_str(), value) {
            ("paths", Value::Object(paths)) => {
                for (path, item) in paths.iter_mut() {
                    if !path.starts_with("x-") {
                        path_item_slots(item, &mut slots);
                    }
                }
            }
            ("components", Value::Object(components)) => {
                for (kind, entries) in components.iter_mut() {
                    let Value::Object(entries) = entries else {
                        continue;
                    };
                    for entry in entries.values_mut() {
                        match kind.as_str() {
                            "schemas" => slots.push(entry),
                            "parameters" | "headers" => parameter_slots(entry, &mut slots),
                            "responses" | "requestBodies" => content_slots(entry, &mut slots),
                            _ => {}
                        }
                    }
                }
            }
            _ => {}
        }
    }
    slots
}

fn path_item_slots<'v>(item: &'v mut Value, slots: &mut Vec<&'v mut Value>) {
    let Value::Object(item) = item else {
        return;
    };
    for (key, value) in item.iter_mut() {
        if key == "parameters" {
            parameter_list_slots(value, slots);
        } else if METHODS.contains(&key.as_str()) {
            let Value::Object(operation) = value else {
                continue;
            };
            for (key, value) in operation.iter_mut() {
                match (key.as_str(), value) {
                    ("parameters", value) => parameter_list_slots(value, slots),
                    ("requestBody", body) => content_slots(body, slots),
                    ("responses", Value::Object(responses)) => {
                        for response in responses.values_mut() {
                            content_slots(response, slots);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

fn parameter_list_slots<'v>(parameters: &'v mut Value, slots: &mut Vec<&'v mut Value>) {
    if let Value::Array(parameters) = parameters {
        for parameter in parameters {
            parameter_slots(parameter, slots);
        }
    }
}

/// A parameter or header: its `schema`, and the schemas of its `content`.
fn parameter_slots<'v>(parameter: &'v mut Value, slots: &mut Vec<&'v mut Value>) {
    let Value::Object(parameter) = parameter else {
        return;
    };
    for (key, value) in parameter.iter_mut() {
        match key.as_str() {
            "schema" => slots.push(value),
            "content" => media_slots(value, slots),
            _ => {}
        }
    }
}

/// A request body or response: the schemas of its `content` and of its `headers`.
fn content_slots<'v>(holder: &'v mut Value, slots: &mut Vec<&'v mut Value>) {
    let Value::Object(holder) = holder else {
        return;
    };
    for (key, value) in holder.iter_mut() {
        match (key.as_str(), value) {
            ("content", content) => media_slots(content, slots),
            ("headers", Value::Object(headers)) => {
                for header in headers.values_mut() {
                    parameter_slots(header, slots);
                }
            }
            _ => {}
        }
    }
}

/// A `content` map: each media type's `schema`, and the headers of its `encoding`.
fn media_slots<'v>(content: &'v mut Value, slots: &mut Vec<&'v mut Value>) {
    let Value::Object(content) = content else {
        return;
    };
    for media in content.values_mut() {
        let Value::Object(media) = media else {
            continue;
        };
        for (key, value) in media.iter_mut() {
            match (key.as_str(), value) {
                ("schema", schema) => slots.push(schema),
                ("encoding", Value::Object(encodings)) => {
                    for encoding in encodings.values_mut() {
                        if let Some(Value::Object(headers)) = encoding.get_mut("headers") {
                            for header in headers.values_mut() {
                                parameter_slots(header, slots);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// A path template must be a path: a leading `/`, no query string or fragment, and balanced,
/// non-empty, unnested `{placeholders}` (that each is declared is checked with the operation's
/// parameters). The error names the first operation the template would have produced.
fn check_path_template(template: &str, item: &Value, pointer: &Pointer) -> Result<(), Error> {
    // A fragment is never sent (`/oauth2/token#refresh` tells two operations on one path
    // apart): the template is what comes before it.
    // A query string is sent as written (the IR checks its pairs).
    let template = template.split('#').next().unwrap_or_default();
    let template = template.split('?').next().unwrap_or_default();
    let fault = if !template.starts_with('/') {
        Some("does not start with `/`")
    } else {
        let mut fault = None;
        let mut placeholder: Option<usize> = None;
        for c in template.chars() {
            match (c, placeholder) {
                ('{', None) => placeholder = Some(0),
                ('{', Some(_)) => fault = Some("has a `{` inside a placeholder"),
                ('}', None) => fault = Some("has a `}` with no `{`"),
                ('}', Some(0)) => fault = Some("has an empty placeholder"),
                ('}', Some(_)) => placeholder = None,
                (_, Some(length)) => placeholder = Some(length + 1),
                (_, None) => {}
            }
            if fault.is_some() {
                break;
            }
        }
        fault.or(placeholder.map(|_| "has a `{` with no `}`"))
    };
    let Some(fault) = fault else {
        return Ok(());
    };
    let first_operation = item
        .as_object()
        .and_then(|item| item.keys().find(|key| METHODS.contains(&key.as_str())));
    let pointer = match first_operation {
        Some(method) => pointer.join(method),
        None => pointer.clone(),
    };
    Err(Error::PathTemplate {
        pointer: pointer.to_string(),
        template: template.to_owned(),
        reason: fault.to_owned(),
    })
}

/// The error of a failed decode, at its exact place. `openapiv3` reads path items, operations
/// and responses through flattened maps, which hide the path below them; the parts of each are
/// decoded alone then, down to the one at fault and the place inside it.
fn decode_error(document: &Value, error: &serde_path_to_error::Error<serde_json::Error>) -> Error {
    use openapiv3::{Operation, Parameter, PathItem, ReferenceOr, RequestBody, Response};
    let mut found = (
        Pointer::root(),
        pointer_of(error.path()),
        error.inner().to_string(),
    );
    if found.1 == "#/paths" {
        let paths = document.get("paths").and_then(Value::as_object);
        let root = Pointer::root().join("paths");
        let at = paths.and_then(|paths| {
            let items = paths.iter().filter(|(key, _)| !key.starts_with("x-"));
            first_error::<ReferenceOr<PathItem>>(items, &root)
        });
        if let Some((at, item, inner)) = at {
            found = (
                at.clone(),
                pointer_of(inner.path()),
                inner.inner().to_string(),
            );
            let operations = item.as_object().map(|item| {
                item.iter()
                    .filter(|(key, _)| METHODS.contains(&key.as_str()))
                    .collect::<Vec<_>>()
            });
            if let Some((at, operation, inner)) =
                operations.and_then(|o| first_error::<Operation>(o.into_iter(), &at))
            {
                found = (
                    at.clone(),
                    pointer_of(inner.path()),
                    inner.inner().to_string(),
                );
                let part = |key: &str| operation.get(key);
                let narrower = part("responses")
                    .and_then(Value::as_object)
                    .and_then(|r| {
                        first_error::<ReferenceOr<Response>>(r.iter(), &at.join("responses"))
                    })
                    .or_else(|| {
                        part("parameters").and_then(Value::as_array).and_then(|p| {
                            first_error::<ReferenceOr<Parameter>>(
                                p.iter().enumerate().map(|(i, v)| (i.to_string(), v)),
                                &at.join("parameters"),
                            )
                        })
                    })
                    .or_else(|| {
                        let body = part("requestBody")?;
                        let inner =
                            serde_path_to_error::deserialize::<_, ReferenceOr<RequestBody>>(body)
                                .err()?;
                        Some((at.join("requestBody"), body, inner))
                    });
                if let Some((at, _, inner)) = narrower {
                    found = (at, pointer_of(inner.path()), inner.inner().to_string());
                }
            }
        }
    }
    let (at, inner, reason) = found;
    // `inner` is a pointer from `#` of the part decoded alone; `at` is where that part stands.
    let pointer = if at == Pointer::root() {
        inner
    } else {
        format!("{at}{}", inner.trim_start_matches('#'))
    };
    Error::Invalid { pointer, reason }
}

/// The first of `parts` that does not decode as a `T`: where it stands, its value and the error.
fn first_error<'v, T: serde::de::DeserializeOwned>(
    mut parts: impl Iterator<Item = (impl std::fmt::Display, &'v Value)>,
    parent: &Pointer,
) -> Option<(
    Pointer,
    &'v Value,
    serde_path_to_error::Error<serde_json::Error>,
)> {
    parts.find_map(|(key, value)| {
        serde_path_to_error::deserialize::<_, T>(value)
            .err()
            .map(|error| (parent.join(key), value, error))
    })
}

/// A `serde_path_to_error` path as a JSON pointer.
pub(crate) fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = Pointer::root();
    for segment in path.iter() {
        pointer = match segment {
            Segment::Seq { index } => pointer.join(index),
            Segment::Map { key } => pointer.join(key),
            Segment::Enum { variant } => pointer.join(variant),
            Segment::Unknown => pointer.join("?"),
        };
    }
    pointer.into_string()
}

impl Pointer {
    fn into_string(self) -> String {
        String::from(&self)
    }
}

struct Lowerer {
    notes: Vec<Note>,
    left_out: Vec<Error>,
    /// `$ref`s in schema positions that name no schema of the document, with why.
    bad_refs: HashMap<String, String>,
}

impl Lowerer {
    fn note(&mut self, pointer: &Pointer, message: impl Into<String>) {
        self.notes.push(Note {
            pointer: pointer.to_string(),
            message: message.into(),
        });
    }

    /// Leaves `what` out with a note, and records it for strict mode.
    fn leave_out(&mut self, pointer: &Pointer, what: &str, reason: &str) {
        self.note(pointer, format!("{what} is left out: {reason}"));
        self.left_out.push(Error::LeftOut {
            pointer: pointer.to_string(),
            what: what.to_owned(),
            reason: reason.to_owned(),
        });
    }

    fn path_item(&mut self, item: &mut Value, pointer: &Pointer) -> Result<(), Error> {
        let Value::Object(item) = item else {
            return Ok(());
        };
        strip_extensions(item);
        self.descriptive_fields(item, pointer, false);
        if let Some(Value::Array(parameters)) = item.get_mut("parameters") {
            for (i, parameter) in parameters.iter_mut().enumerate() {
                self.parameter(parameter, &pointer.join("parameters").join(i))?;
            }
        }
        for method in METHODS {
            let Some(Value::Object(operation)) = item.get_mut(*method) else {
                continue;
            };
            let pointer = pointer.join(method);
            strip_extensions(operation);
            self.descriptive_fields(operation, &pointer, true);
            // 3.1 made `responses` optional; the 3.0 model requires it.
            operation
                .entry("responses")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Some(Value::Array(parameters)) = operation.get_mut("parameters") {
                for (i, parameter) in parameters.iter_mut().enumerate() {
                    self.parameter(parameter, &pointer.join("parameters").join(i))?;
                }
            }
            if let Some(body) = operation.get_mut("requestBody") {
                self.content_holder(body, &pointer.join("requestBody"))?;
            }
            if let Some(Value::Object(responses)) = operation.get_mut("responses") {
                for (status, response) in responses.iter_mut() {
                    self.response(response, &pointer.join("responses").join(status))?;
                }
            }
            // Removed, not only noted: a callback holds path items, which hold callbacks, and
            // `openapiv3` retries a failed decode at every level of that nesting.
            if operation.remove("callbacks").is_some() {
                self.note(&pointer.join("callbacks"), "callbacks are not generated");
            }
        }
        Ok(())
    }

    /// A parameter or header: a `schema`, or a `content` map.
    fn parameter(&mut self, parameter: &mut Value, pointer: &Pointer) -> Result<(), Error> {
        let Value::Object(object) = parameter else {
            return Ok(());
        };
        strip_extensions(object);
        strip_examples(object);
        // A parameter with neither `schema` nor `content` says nothing of its value: it is text,
        // which every location carries (`{}` is lowered to a string parameter).
        if !object.contains_key("$ref")
            && !object.contains_key("schema")
            && !object.contains_key("content")
            && object.contains_key("in")
        {
            object.insert("schema".to_owned(), Value::Object(serde_json::Map::new()));
            self.note(
                pointer,
                "a parameter without `schema` or `content` is sent as a string",
            );
        }
        if let Some(schema) = object.get_mut("schema") {
            self.schema(schema, &pointer.join("schema"))?;
        }
        self.content_holder(parameter, pointer)
    }

    fn response(&mut self, response: &mut Value, pointer: &Pointer) -> Result<(), Error> {
        if let Some(Value::Object(headers)) = response.get_mut("headers") {
            for (name, header) in headers.iter_mut() {
                self.parameter(header, &pointer.join("headers").join(name))?;
            }
        }
        self.content_holder(response, pointer)
    }

    /// Anything with a `content` map of media types (request bodies, responses).
    fn content_holder(&mut self, holder: &mut Value, pointer: &Pointer) -> Result<(), Error> {
        if let Value::Object(holder) = holder {
            strip_extensions(holder);
        }
        let Some(Value::Object(content)) = holder.get_mut("content") else {
            return Ok(());
        };
        for (media_type, media) in content.iter_mut() {
            let pointer = pointer.join("content").join(media_type);
            if let Value::Object(media) = media {
                strip_extensions(media);
                strip_examples(media);
                if let Some(schema) = media.get_mut("schema") {
                    self.schema(schema, &pointer.join("schema"))?;
                }
                // Encoding headers hold schemas too, so every schema is checked on the way.
                if let Some(Value::Object(encodings)) = media.get_mut("encoding") {
                    for (property, encoding) in encodings.iter_mut() {
                        content::default_explode(encoding);
                        let pointer = pointer.join("encoding").join(property);
                        if let Some(Value::Object(headers)) = encoding.get_mut("headers") {
                            for (name, header) in headers.iter_mut() {
                                self.parameter(header, &pointer.join("headers").join(name))?;
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn schema(&mut self, schema: &mut Value, pointer: &Pointer) -> Result<(), Error> {
        match &*schema {
            Value::Object(_) => {}
            // 3.1 allows boolean schemas: `true` accepts anything.
            Value::Bool(true) => {
                *schema = Value::Object(Map::new());
                return Ok(());
            }
            Value::Bool(false) => {
                self.note(
                    pointer,
                    "the `false` schema (nothing valid) is lowered to an untyped schema",
                );
                *schema = Value::Object(Map::new());
                return Ok(());
            }
            other => {
                let reason = format!("a schema must be an object, found {other}");
                self.leave_out(pointer, "the schema (read as any JSON value)", &reason);
                *schema = Value::Object(Map::new());
                return Ok(());
            }
        }
        let Value::Object(object) = schema else {
            return Ok(());
        };
        // A `$ref` that names no schema of the document: this schema alone becomes any value.
        if let Some(Value::String(reference)) = object.get("$ref")
            && let Some(reason) = self.bad_refs.get(reference)
        {
            let reason = reason.clone();
            self.leave_out(pointer, "the schema (read as any JSON value)", &reason);
            object.clear();
            return Ok(());
        }

        // Children first, so that every member below is already in 3.0 form.
        if let Some(properties) = object.get_mut("properties") {
            if let Value::Object(properties) = properties {
                for (name, property) in properties.iter_mut() {
                    self.schema(property, &pointer.join("properties").join(name))?;
                }
            } else {
                object.remove("properties");
                self.leave_out(
                    &pointer.join("properties"),
                    "keyword `properties`",
                    "`properties` must be an object",
                );
            }
        }
        match object.get_mut("items") {
            Some(Value::Array(_)) => {
                object.remove("items");
                self.leave_out(
                    &pointer.join("items"),
                    "keyword `items` (the items are read as any JSON value)",
                    "tuple-form `items` (an array of schemas)",
                );
            }
            Some(items) => self.schema(items, &pointer.join("items"))?,
            None => {}
        }
        if let Some(additional @ Value::Object(_)) = object.get_mut("additionalProperties") {
            self.schema(additional, &pointer.join("additionalProperties"))?;
        }
        if let Some(not) = object.get_mut("not") {
            self.schema(not, &pointer.join("not"))?;
        }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            match object.get_mut(keyword) {
                Some(Value::Array(members)) => {
                    for (i, member) in members.iter_mut().enumerate() {
                        self.schema(member, &pointer.join(keyword).join(i))?;
                    }
                }
                Some(_) => {
                    object.remove(keyword);
                    self.leave_out(
                        &pointer.join(keyword),
                        &format!("keyword `{keyword}`"),
                        &format!("`{keyword}` must be an array"),
                    );
                }
                None => {}
            }
        }

        self.type_array(object, pointer);
        self.null_members(object, pointer);
        single_members(object);
        compose::fold_all_of_siblings(object);
        content::content_formats(object);
        typed_const_members(object);
        drop_inapplicable_keywords(object);
        self.integer_bounds(object, pointer);
        lower_const(object);
        typed::typed_enum(object);
        self.enum_within_limit(object, pointer);
        lower_ref_siblings(object);
        compose::type_beside_all_of(object);
        lower_exclusive_bounds(object);
        if let Some(examples) = object.remove("examples")
            && let (false, Value::Array(mut examples)) = (object.contains_key("example"), examples)
            && !examples.is_empty()
        {
            object.insert("example".into(), examples.swap_remove(0));
        }
        strip_extensions(object);
        let dropped: Vec<String> = object
            .keys()
            .filter(|key| !KEPT_KEYWORDS.contains(&key.as_str()))
            .cloned()
            .collect();
        for key in dropped {
            object.remove(&key);
            if !ANNOTATIONS.contains(&key.as_str()) {
                self.note(
                    &pointer.join(&key),
                    format!("keyword `{key}` has no OpenAPI 3.0 form and is not generated"),
                );
            }
        }
        self.check_schema_node(object, pointer);
        Ok(())
    }

    /// Checks one schema node (see [`check_schema_node`]); a keyword that does not decode is left
    /// out with a note, and a node that still does not is left out whole (any JSON value).
    fn check_schema_node(&mut self, object: &mut Map<String, Value>, pointer: &Pointer) {
        // Each round removes a keyword, so this ends.
        while let Err(error) = check_schema_node(object, pointer) {
            let (at, reason) = match error {
                Error::Invalid { pointer, reason } => (pointer, reason),
                other => (pointer.to_string(), other.to_string()),
            };
            let keyword = at
                .strip_prefix(pointer.as_str())
                .and_then(|rest| rest.strip_prefix('/'))
                .map(|rest| Pointer::unescape(rest.split('/').next().unwrap_or_default()))
                .filter(|keyword| object.contains_key(keyword));
            match keyword {
                Some(keyword) => {
                    object.remove(&keyword);
                    self.leave_out(
                        &pointer.join(&keyword),
                        &format!("keyword `{keyword}`"),
                        &reason,
                    );
                }
                None => {
                    object.clear();
                    self.leave_out(pointer, "the schema (read as any JSON value)", &reason);
                    return;
                }
            }
        }
    }

    /// `type: integer` bounds the 3.0 model holds as `i64`: a bound written as a float
    /// (`1.8446744073709552e+19`, `1e3`) is read as the integer it is; a maximum above `i64`
    /// with no negative minimum means the unsigned integer it implies (`format: uint64`); a
    /// bound beyond what any 64-bit integer holds is dropped (bounds are not generated).
    fn integer_bounds(&mut self, object: &mut Map<String, Value>, pointer: &Pointer) {
        if object.get("type").and_then(Value::as_str) != Some("integer") {
            return;
        }
        let minimum = object.get("minimum").and_then(Value::as_f64);
        let mut unsigned = false;
        for keyword in ["minimum", "maximum"] {
            let Some(Value::Number(bound)) = object.get(keyword) else {
                continue;
            };
            if bound.is_i64() {
                continue;
            }
            let value = bound.as_f64().unwrap_or(f64::NAN);
            // `as` saturates; the comparisons keep only values it converts exactly.
            let integral = value.fract() == 0.0;
            if integral && value >= i64::MIN as f64 && value < i64::MAX as f64 {
                object.insert(keyword.into(), Value::from(value as i64));
                continue;
            }
            object.remove(keyword);
            if keyword == "maximum" && value > i64::MAX as f64 && minimum.is_none_or(|m| m >= 0.0) {
                unsigned = true;
            } else if !integral {
                self.note(
                    &pointer.join(keyword),
                    format!("a fractional `{keyword}` on an integer is not generated"),
                );
            }
        }
        let format = object.get("format").and_then(Value::as_str);
        if unsigned && matches!(format, None | Some("int64" | "integer")) {
            object.insert("format".into(), Value::String("uint64".into()));
        }
    }

    /// `type: [T, "null"]` → `type: T, nullable: true`.
    fn type_array(&mut self, object: &mut Map<String, Value>, pointer: &Pointer) {
        match object.get("type") {
            Some(Value::Array(types)) => {
                let mut rest: Vec<Value> = types
                    .iter()
                    .filter(|t| t.as_str() != Some("null"))
                    .cloned()
                    .collect();
                if rest.len() < types.len() {
                    object.insert("nullable".into(), Value::Bool(true));
                }
                match rest.len() {
                    0 => {
                        object.remove("type");
                    }
                    1 => {
                        object.insert("type".into(), rest.swap_remove(0));
                    }
                    _ => {
                        self.note(
                            &pointer.join("type"),
                            "several types in `type` are lowered to an untyped value",
                        );
                        object.remove("type");
                    }
                }
            }
            Some(Value::String(t)) if t == "null" => {
                object.remove("type");
                object.insert("nullable".into(), Value::Bool(true));
            }
            _ => {}
        }
    }

    /// `anyOf`/`oneOf` with null members → `nullable: true` and the remaining members; a single
    /// remaining member is merged in (or, for a `$ref`, wrapped as `allOf`).
    fn null_members(&mut self, object: &mut Map<String, Value>, pointer: &Pointer) {
        for keyword in ["anyOf", "oneOf"] {
            let Some(Value::Array(members)) = object.get(keyword) else {
                continue;
            };
            let rest: Vec<Value> = members
                .iter()
                .filter(|m| !is_null_schema(m))
                .cloned()
                .collect();
            if rest.len() == members.len() {
                continue;
            }
            object.insert("nullable".into(), Value::Bool(true));
            object.remove(keyword);
            match <[Value; 1]>::try_from(rest) {
                Ok([Value::Object(member)]) => {
                    if member.contains_key("$ref") && member.len() == 1 {
                        object.insert("allOf".into(), Value::Array(vec![Value::Object(member)]));
                    } else {
                        for (key, value) in member {
                            if key == "nullable" || object.contains_key(&key) {
                                continue;
                            }
                            object.insert(key, value);
                        }
                    }
                }
                Ok([_]) => self.note(
                    &pointer.join(keyword),
                    "a non-object member is lowered to an untyped value",
                ),
                Err(rest) if rest.is_empty() => {}
                Err(rest) => {
                    object.insert(keyword.into(), Value::Array(rest));
                }
            }
        }
    }
}

/// Decodes one lowered schema object as `openapiv3` would, with its subschemas (already checked,
/// children first) stood in for by `{}`, and names the place of the first fault.
///
/// `openapiv3` decodes a schema or reference by trying each form and, on failure, decoding the
/// same value again for its message, at every level: a fault 20 levels down costs 2^20 decodes
/// of it. Checked here node by node, each value is decoded once, so the decode of the whole
/// document that follows cannot fail inside a schema. A node is valid exactly when it decodes
/// alone and its subschemas are valid: no `openapiv3` rule looks into a subschema from its
/// parent, and the stand-in keeps every keyword present, so the same form is chosen.
fn check_schema_node(object: &mut Map<String, Value>, pointer: &Pointer) -> Result<(), Error> {
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

fn decode_schema(node: &Value) -> Result<(), serde_path_to_error::Error<serde_json::Error>> {
    serde_path_to_error::deserialize::<_, openapiv3::ReferenceOr<openapiv3::Schema>>(node).map(drop)
}

/// The subschemas of a schema object that [`Lowerer::schema`] walks, always in the same order.
/// A keyword whose value has the wrong shape is not one: the node's own decode names it.
fn subschemas(object: &mut Map<String, Value>) -> Vec<&mut Value> {
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
fn strip_extensions(object: &mut Map<String, Value>) {
    object.retain(|key, _| !key.starts_with("x-") || key == content::MEDIA_TYPE_EXTENSION);
}

/// The examples of a media type, parameter or header: any size, and unused by the emitters.
fn strip_examples(object: &mut Map<String, Value>) {
    object.remove("example");
    object.remove("examples");
}

fn is_null_schema(schema: &Value) -> bool {
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
fn lower_const(object: &mut Map<String, Value>) {
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
fn lower_ref_siblings(object: &mut Map<String, Value>) {
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
fn lower_exclusive_bounds(object: &mut Map<String, Value>) {
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
fn single_members(object: &mut Map<String, Value>) {
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
const TYPE_KEYWORDS: &[(&str, &[&str])] = &[
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
fn drop_inapplicable_keywords(object: &mut Map<String, Value>) {
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
fn typed_const_members(object: &mut Map<String, Value>) {
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
        let mut values = Vec::new();
        for member in members {
            let Value::Object(member) = member else {
                return;
            };
            let only_a_value = member.keys().all(|key| {
                matches!(
                    key.as_str(),
                    "enum" | "type" | "title" | "description" | "deprecated"
                )
            });
            let same_type = member
                .get("type")
                .is_none_or(|member_type| member_type.as_str() == Some(ty.as_str()));
            match member.get("enum") {
                Some(Value::Array(member_values))
                    if only_a_value && same_type && !member_values.is_empty() =>
                {
                    values.extend(member_values.iter().cloned());
                }
                _ => return,
            }
        }
        if values.is_empty() {
            return;
        }
        object.remove(keyword);
        object.insert("enum".into(), Value::Array(values));
        return;
    }
}

/// A lowered document as a generator that names methods by `operationId` needs it (the bench
/// runs progenitor on it): every operation without one gets `<method>_<path words>` in snake
/// case (`get_v1_models_model_id`), with `_2`, `_3`… when that is taken; ids the document has
/// stay.
pub fn with_operation_ids(mut openapi: openapiv3::OpenAPI) -> openapiv3::OpenAPI {
    let mut taken: std::collections::HashSet<String> = openapi
        .operations()
        .filter_map(|(_, _, operation)| operation.operation_id.clone())
        .collect();
    for (path, item) in &mut openapi.paths.paths {
        let openapiv3::ReferenceOr::Item(item) = item else {
            continue;
        };
        let words: Vec<String> = path
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|word| !word.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        let operations = [
            ("get", &mut item.get),
            ("put", &mut item.put),
            ("post", &mut item.post),
            ("delete", &mut item.delete),
            ("options", &mut item.options),
            ("head", &mut item.head),
            ("patch", &mut item.patch),
            ("trace", &mut item.trace),
        ];
        for (method, operation) in operations {
            let Some(operation) = operation.as_mut() else {
                continue;
            };
            if operation.operation_id.is_some() {
                continue;
            }
            let base = std::iter::once(method.to_owned())
                .chain(words.iter().cloned())
                .collect::<Vec<_>>()
                .join("_");
            let mut id = base.clone();
            let mut n = 1;
            while taken.contains(&id) {
                n += 1;
                id = format!("{base}_{n}");
            }
            taken.insert(id.clone());
            operation.operation_id = Some(id);
        }
    }
    openapi
}

#[cfg(test)]
mod operation_id_tests {
    use serde_json::json;

    #[test]
    fn operations_without_an_id_get_a_unique_one_and_ids_stay() {
        let document = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
        "paths": {
            "/v1/models/{model_id}": {"get": {"responses": {}}, "post": {"operationId": "keep", "responses": {}}},
            "/v1/models/{model-id}": {"get": {"responses": {}}},
            "/": {"get": {"responses": {}}},
            "/get_2": {"delete": {"operationId": "get_v1_models_model_id_2", "responses": {}}}
        }});
        let lowered = super::lower(document).expect("lowers");
        let openapi = super::with_operation_ids(lowered.openapi);
        let ids: Vec<(&str, &str, Option<&str>)> = openapi
            .operations()
            .map(|(path, method, operation)| (path, method, operation.operation_id.as_deref()))
            .collect();
        assert_eq!(
            ids,
            [
                (
                    "/v1/models/{model_id}",
                    "get",
                    Some("get_v1_models_model_id")
                ),
                ("/v1/models/{model_id}", "post", Some("keep")),
                (
                    "/v1/models/{model-id}",
                    "get",
                    Some("get_v1_models_model_id_3")
                ),
                ("/", "get", Some("get")),
                ("/get_2", "delete", Some("get_v1_models_model_id_2")),
            ]
        );
    }
}

#[cfg(test)]
mod keyword_tests {
    use serde_json::json;

    use super::*;

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
