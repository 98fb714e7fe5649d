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
mod decode;
mod keywords;
mod operation_ids;
mod refs;
mod salvage;
mod slots;
mod spoiled;
pub(crate) mod typed;

pub(crate) use decode::pointer_of;
pub use operation_ids::with_operation_ids;

use self::decode::decode;
use self::keywords::{
    check_schema_node, drop_inapplicable_keywords, is_null_schema, lower_const,
    lower_exclusive_bounds, lower_ref_siblings, single_members, strip_examples, strip_extensions,
    typed_const_members,
};
use self::slots::schema_slots;

/// What a schema left out by the lowering becomes: any JSON value (the IR counts each as a
/// place typed `serde_json::Value`).
pub const READ_AS_ANY_VALUE: &str = "the schema (read as any JSON value)";

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
    check_version(object)?;
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
    lowerer.paths(object, &root)?;
    lowerer.components(object, &root)?;
    lowerer.leave_out_undecodable(&mut document)?;
    let openapi = decode(&document)?;
    Ok(Lowered {
        openapi,
        notes: lowerer.notes,
        left_out: lowerer.left_out,
    })
}

/// The document's version, which must be OpenAPI 3.1 or 3.0 (a Swagger 2 document is named
/// as such).
fn check_version(object: &Map<String, Value>) -> Result<(), Error> {
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
    Ok(())
}

impl Lowerer {
    /// Every path item lowered; one with a malformed template is left out alone.
    fn paths(&mut self, object: &mut Map<String, Value>, root: &Pointer) -> Result<(), Error> {
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
                self.path_item(item, &pointer.join(path))?;
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
                self.leave_out(&pointer, &format!("path item {path}"), &reason);
            }
        }
        Ok(())
    }

    /// Every component lowered by its kind; callbacks are noted and dropped.
    fn components(&mut self, object: &mut Map<String, Value>, root: &Pointer) -> Result<(), Error> {
        if let Some(Value::Object(components)) = object.get_mut("components") {
            let pointer = root.join("components");
            if components.remove("callbacks").is_some() {
                self.note(&pointer.join("callbacks"), "callbacks are not generated");
            }
            for (kind, entries) in components.iter_mut() {
                let Value::Object(entries) = entries else {
                    continue;
                };
                let pointer = pointer.join(kind);
                for (name, entry) in entries.iter_mut() {
                    let pointer = pointer.join(name);
                    match kind.as_str() {
                        "schemas" => self.schema(entry, &pointer)?,
                        "parameters" | "headers" => self.parameter(entry, &pointer)?,
                        "responses" => self.response(entry, &pointer)?,
                        "requestBodies" => self.content_holder(entry, &pointer)?,
                        "pathItems" => self.path_item(entry, &pointer)?,
                        _ => {}
                    }
                }
            }
        }
        Ok(())
    }

    /// Every schema has been checked node by node. The rest is checked with each schema stood in
    /// for by `{}`: `openapiv3` decodes a failing part several times over (once per form it tries,
    /// at each level), and without its schemas each part is small and nests a bounded depth.
    /// A part that does not decode (a `content: {$ref}`, a parameter of no known shape) leaves
    /// out the operation, path item or component it stands in, not the document: each round
    /// removes at least one part, so this ends.
    fn leave_out_undecodable(&mut self, document: &mut Value) -> Result<(), Error> {
        loop {
            let schemas: Vec<Value> = schema_slots(document)
                .into_iter()
                .map(|slot| std::mem::replace(slot, Value::Object(Map::new())))
                .collect();
            let fault = match decode(document) {
                Ok(_) => None,
                Err(error) => Some((salvage::undecodable_parts(document), error)),
            };
            for (slot, schema) in schema_slots(document).into_iter().zip(schemas) {
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
                if !salvage::remove(document, &part) {
                    return Err(error);
                }
                self.leave_out(&part.pointer, &part.what, &reason);
            }
        }
        Ok(())
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
                self.leave_out(pointer, READ_AS_ANY_VALUE, &reason);
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
            self.leave_out(pointer, READ_AS_ANY_VALUE, &reason);
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
        compose::fold_annotation_members(object);
        compose::fold_all_of_siblings(object);
        content::content_formats(object);
        typed_const_members(object);
        // Before `enum` is dropped as not applying to `type: object`.
        typed::structured_enum(object);
        drop_inapplicable_keywords(object);
        self.integer_bounds(object, pointer);
        lower_const(object);
        typed::structured_enum(object);
        typed::typed_enum(object);
        self.string_enum_texts(object, pointer);
        self.enum_within_limit(object, pointer);
        lower_ref_siblings(object);
        compose::constraints_beside_one_member(object);
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
                    self.leave_out(pointer, READ_AS_ANY_VALUE, &reason);
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
