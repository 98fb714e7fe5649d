//! Operations: parameters, request bodies and responses of each selected path and method.

use std::collections::BTreeSet;

use openapiv3::{
    Parameter, ReferenceOr, RequestBody, Response, Schema, SchemaKind, StatusCode, StringFormat,
    Type, VariantOrUnknownOrEmpty,
};

use super::media::{ResponseMedia, response_media};
use super::parameters::query_style;
use super::values::ValueReason;
use super::{
    Body, BodyKind, Builder, DeclaredStatus, FormStyle, JsonKind, Location, Operation, PARAMETERS,
    Param, ParamStyle, REQUEST_BODIES, RESPONSES, ResponseKind, SchemaAt, SkippedOperation,
    TypeDef, TypeRef, local_key,
};
use crate::error::Pointer;
use crate::lock::Names;
use crate::names::Namespace;
use crate::select::Selection;
use crate::{Config, Error, names};

impl<'a> Builder<'a> {
    pub(super) fn operations(
        &mut self,
        selection: &Selection,
        config: &Config,
    ) -> Result<Vec<Operation>, Error> {
        let paths_pointer = Pointer::root().join("paths");
        let mut found = Vec::new();
        for (path, item) in &self.spec.paths.paths {
            let pointer = paths_pointer.join(path);
            let item = match item {
                ReferenceOr::Item(item) => item,
                ReferenceOr::Reference { .. } => {
                    // A selection cannot pick what it cannot see; only an unselective run says so.
                    if selection.operations.is_none() {
                        self.leave_out(
                            pointer.as_str(),
                            &format!("path item {path}"),
                            "a path item given as `$ref` is not supported",
                        );
                    }
                    continue;
                }
            };
            for (method, operation) in item.iter() {
                found.push((
                    path.as_str(),
                    method,
                    operation,
                    &item.parameters,
                    pointer.join(method),
                ));
            }
        }
        // Named over the whole document, so a selection never renames an operation.
        let keyed: Vec<(&str, &str, Option<&str>)> = found
            .iter()
            .map(|(path, method, operation, ..)| {
                let operation_id = operation
                    .operation_id
                    .as_deref()
                    .filter(|_| config.operation_id_names);
                (*method, *path, operation_id)
            })
            .collect();
        let names = self
            .names
            .name_operations(&keyed, &config.operation_names)?;
        let mut operations = Vec::with_capacity(found.len());
        for ((path, method, operation, shared_parameters, pointer), name) in
            found.into_iter().zip(names)
        {
            if !selection.has_operation(path, method) {
                continue;
            }
            let built = self.operation(&name, path, method, operation, shared_parameters, &pointer);
            match built {
                Ok(built) => operations.push(built),
                // A `$ref` that names nothing, or nothing of its kind, in this operation alone
                // leaves out this operation alone.
                Err(
                    Error::Unsupported {
                        pointer: at,
                        reason,
                    }
                    | Error::Invalid {
                        pointer: at,
                        reason,
                    },
                ) => {
                    let method = method.to_ascii_uppercase();
                    self.leave_out(&at, &format!("operation {name} ({method} {path})"), &reason);
                    self.skipped.push(SkippedOperation {
                        name,
                        method,
                        path: path.to_owned(),
                        pointer: at,
                        reason,
                    });
                }
                Err(error @ (Error::DanglingRef { .. } | Error::RefCycle { .. })) => {
                    let (at, reason) = match &error {
                        Error::DanglingRef { pointer, reference } => (
                            pointer.clone(),
                            format!(
                                "`$ref` {reference:?} does not resolve to anything of its kind in the document"
                            ),
                        ),
                        Error::RefCycle { pointer, chain } => (
                            pointer.clone(),
                            format!("`$ref` cycle with no schema in it: {}", chain.join(" -> ")),
                        ),
                        _ => (pointer.to_string(), error.to_string()),
                    };
                    let method = method.to_ascii_uppercase();
                    self.leave_out(&at, &format!("operation {name} ({method} {path})"), &reason);
                    self.skipped.push(SkippedOperation {
                        name,
                        method,
                        path: path.to_owned(),
                        pointer: at,
                        reason,
                    });
                }
                Err(other) => return Err(other),
            }
        }
        Ok(operations)
    }

    pub(super) fn operation(
        &mut self,
        name: &str,
        path: &str,
        method: &str,
        operation: &'a openapiv3::Operation,
        shared_parameters: &'a [ReferenceOr<Parameter>],
        pointer: &Pointer,
    ) -> Result<Operation, Error> {
        let camel = names::camel_ident(name, "Op");
        // A fragment in a path key tells two operations on one path apart; it is never sent. A
        // query string in one is sent as written, before the operation's own query; a pair of
        // it whose value is a placeholder (`?from={from}`) is that parameter, sent as the key.
        let path = path.split('#').next().unwrap_or_default();
        let (path, (fixed_query, templated_query)) = match path.split_once('?') {
            Some((path, query)) => (path, fixed_query(query, pointer)?),
            None => (path, (Vec::new(), Vec::new())),
        };
        let parameters = self.parameters_of(operation, shared_parameters, pointer)?;
        let mut argument_names = Names::arguments();
        let Placed {
            path: mut path_params,
            mut required_query,
            mut optional_query,
        } = self.place_parameters(parameters, &camel, &mut argument_names)?;
        query_from_path_key(
            templated_query,
            &mut path_params,
            &mut required_query,
            &optional_query,
            pointer,
        )?;
        dedupe_field_names(&mut optional_query);

        let ordered = self.in_template_order(path, path_params, &mut argument_names, pointer)?;
        check_path_arguments(path, &ordered, pointer)?;

        let mut bodies = self.request_body_of(operation, &camel, pointer)?;
        let other_bodies = bodies.split_off(bodies.len().min(1));
        let body = bodies.pop();
        let (response, accept) = self.response(operation, &camel, &pointer.join("responses"))?;
        let error_statuses = self.error_statuses(operation, &pointer.join("responses"));
        let query_type = (!optional_query.is_empty())
            .then(|| self.inline_name(&format!("{camel}Query"), &pointer.join("parameters")));
        Ok(Operation {
            name: name.to_owned(),
            method: method.to_ascii_uppercase(),
            path: path.to_owned(),
            tags: operation.tags.clone(),
            // Given with every operation in view (`ir::areas`).
            area: String::new(),
            doc: operation_doc(operation),
            path_params: ordered,
            fixed_query,
            required_query,
            optional_query,
            query_type,
            body,
            other_bodies,
            response,
            accept,
            error_statuses,
            security: operation
                .security
                .as_deref()
                .map(super::security::alternatives),
        })
    }

    /// The operation's parameters, with the path item's (`shared_parameters`) it does not
    /// replace, each with its pointer.
    fn parameters_of(
        &mut self,
        operation: &'a openapiv3::Operation,
        shared_parameters: &'a [ReferenceOr<Parameter>],
        pointer: &Pointer,
    ) -> Result<Vec<(&'a Parameter, Pointer)>, Error> {
        let mut parameters: Vec<(&'a Parameter, Pointer)> = Vec::new();
        let path_item_pointer = Pointer::from_ref(
            pointer
                .as_str()
                .rsplit_once('/')
                .map_or("#", |(parent, _)| parent),
        );
        for (list, list_pointer) in [
            (shared_parameters, path_item_pointer.join("parameters")),
            (&operation.parameters[..], pointer.join("parameters")),
        ] {
            for (i, parameter) in list.iter().enumerate() {
                let at = list_pointer.join(i);
                let parameter = self.parameter(parameter, &at)?;
                let data = parameter.parameter_data_ref();
                // An operation's parameter replaces the path item's of the same name and place.
                parameters.retain(|(existing, _)| {
                    let existing_data = existing.parameter_data_ref();
                    !(existing_data.name == data.name
                        && std::mem::discriminant(*existing) == std::mem::discriminant(parameter))
                });
                parameters.push((parameter, at));
            }
        }

        Ok(parameters)
    }

    /// Each parameter lowered and placed: path and required query parameters named as
    /// arguments (from `argument_names`), optional ones as the query struct's fields. An
    /// optional parameter the generator cannot send is left out alone; a required one fails
    /// the operation.
    fn place_parameters(
        &mut self,
        parameters: Vec<(&'a Parameter, Pointer)>,
        camel: &str,
        argument_names: &mut Namespace,
    ) -> Result<Placed, Error> {
        let mut path_params = Vec::new();
        let mut required_query = Vec::new();
        let mut optional_query = Vec::new();
        for (parameter, at) in parameters {
            let data = parameter.parameter_data_ref();
            let lowered = match self.lower_parameter(parameter, &at, camel) {
                Ok(lowered) => lowered,
                // An optional parameter can go alone; a required one takes its operation along.
                Err(Error::Unsupported {
                    pointer: place,
                    reason,
                }) if !data.required && !matches!(parameter, Parameter::Path { .. }) => {
                    self.leave_out(&place, &format!("parameter `{}`", data.name), &reason);
                    continue;
                }
                Err(error) => return Err(error),
            };
            for (place, mut param) in lowered {
                match place {
                    Place::Ignored => {}
                    Place::Path => {
                        param.rust_name =
                            argument_names.claim(&names::snake_ident(&param.wire_name), "_");
                        path_params.push(param);
                    }
                    Place::Sent { required: true } => {
                        param.rust_name =
                            argument_names.claim(&names::snake_ident(&param.wire_name), "_");
                        required_query.push(param);
                    }
                    Place::Sent { required: false } => optional_query.push(param),
                }
            }
        }
        Ok(Placed {
            path: path_params,
            required_query,
            optional_query,
        })
    }

    /// The path parameters in template order: every one placed, and a placeholder the
    /// document declares no parameter for taken as a string (its name is all a caller needs to
    /// fill it), so an operation is never emitted with a parameter missing from its URL.
    fn in_template_order(
        &mut self,
        path: &str,
        mut path_params: Vec<Param>,
        argument_names: &mut Namespace,
        pointer: &Pointer,
    ) -> Result<Vec<Param>, Error> {
        let mut ordered: Vec<Param> = Vec::new();
        for placeholder in names::path_parameters(path) {
            // `/a/{id}/b/{id}`: the same value twice.
            if ordered.iter().any(|p| p.wire_name == placeholder) {
                continue;
            }
            match path_params
                .iter()
                .position(|p: &Param| p.wire_name == placeholder)
            {
                Some(index) => ordered.push(path_params.remove(index)),
                None => {
                    let param = undeclared_placeholder(&placeholder, argument_names);
                    self.note(
                        pointer,
                        format!(
                            "path placeholder {{{placeholder}}} has no `in: path` parameter: \
                             taken as the string argument `{}`",
                            param.rust_name
                        ),
                    );
                    ordered.push(param);
                }
            }
        }
        if let Some(extra) = path_params.first() {
            return Err(Error::Unsupported {
                pointer: pointer.to_string(),
                reason: format!(
                    "path parameter `{}` does not appear in the path template",
                    extra.wire_name
                ),
            });
        }
        Ok(ordered)
    }

    /// The operation's request body in each media type the generator can send (the preferred
    /// first, see [`Self::bodies`]); an optional one it cannot send is left out with a note.
    fn request_body_of(
        &mut self,
        operation: &'a openapiv3::Operation,
        camel: &str,
        pointer: &Pointer,
    ) -> Result<Vec<Body>, Error> {
        Ok(match &operation.request_body {
            Some(body) => {
                let body_pointer = pointer.join("requestBody");
                match self.bodies(body, camel, &body_pointer) {
                    Ok(bodies) => bodies,
                    Err(Error::Unsupported { pointer, reason }) if !self.body_required(body) => {
                        self.leave_out(&pointer, "the optional request body", &reason);
                        Vec::new()
                    }
                    Err(error) => return Err(error),
                }
            }
            None => Vec::new(),
        })
    }

    /// The statuses outside 2xx the operation declares, with their descriptions (a response
    /// through a `$ref` that names nothing keeps its status, without one).
    fn error_statuses(
        &self,
        operation: &'a openapiv3::Operation,
        pointer: &Pointer,
    ) -> Vec<DeclaredStatus> {
        let declared = operation
            .responses
            .responses
            .iter()
            .filter(|(status, _)| match status {
                StatusCode::Code(code) => !(200..300).contains(code),
                StatusCode::Range(range) => *range != 2,
            })
            .map(|(status, response)| (status.to_string(), response));
        let default = operation
            .responses
            .default
            .as_ref()
            .map(|response| ("default".to_owned(), response));
        declared
            .chain(default)
            .map(|(status, response)| {
                let description = self
                    .resolve_response(response, &pointer.join(&status))
                    .ok()
                    .map(|response| response.description.trim().to_owned())
                    .filter(|description| !description.is_empty());
                DeclaredStatus {
                    status,
                    description,
                }
            })
            .collect()
    }

    pub(super) fn parameter(
        &self,
        parameter: &'a ReferenceOr<Parameter>,
        pointer: &Pointer,
    ) -> Result<&'a Parameter, Error> {
        let mut chain = Vec::new();
        let mut current = parameter;
        loop {
            match current {
                ReferenceOr::Item(parameter) => return Ok(parameter),
                ReferenceOr::Reference { reference } => {
                    let repeated = chain.contains(reference);
                    chain.push(reference.clone());
                    if repeated {
                        return Err(Error::RefCycle {
                            pointer: pointer.to_string(),
                            chain,
                        });
                    }
                    let key = local_key(reference, PARAMETERS, pointer)?;
                    current = self
                        .spec
                        .components
                        .as_ref()
                        .and_then(|c| c.parameters.get(key.as_str()))
                        .ok_or_else(|| Error::DanglingRef {
                            pointer: pointer.to_string(),
                            reference: reference.clone(),
                        })?;
                }
            }
        }
    }

    /// The request body, through a `$ref` to `components/requestBodies`.
    pub(super) fn request_body(
        &self,
        body: &'a ReferenceOr<RequestBody>,
        pointer: &Pointer,
    ) -> Result<&'a RequestBody, Error> {
        let components = self.spec.components.as_ref();
        through_component(body, REQUEST_BODIES, "request body", pointer, |key| {
            components.and_then(|c| c.request_bodies.get(key))
        })
    }

    /// Whether values of `ty` may be JSON objects (through aliases): a struct, a map, a union
    /// with an object member, or any JSON value.
    fn may_be_object(&self, ty: &TypeRef) -> bool {
        let mut current = ty;
        // More steps than types means a cycle of aliases, which holds no object.
        for _ in 0..=self.types.len() {
            match current {
                TypeRef::Map(_) | TypeRef::Json => return true,
                TypeRef::Named(name) => match self.types.get(name) {
                    Some(TypeDef::Struct(_) | TypeDef::Union(_)) => return true,
                    Some(TypeDef::Untagged(def)) => {
                        return def.variants.iter().any(|v| v.kind == JsonKind::Object);
                    }
                    Some(TypeDef::Alias(alias)) => current = &alias.ty,
                    _ => return false,
                },
                _ => return false,
            }
        }
        false
    }

    /// Whether a request body must be sent (an unresolvable one counts as required).
    pub(super) fn body_required(&self, body: &'a ReferenceOr<RequestBody>) -> bool {
        self.request_body(body, &Pointer::root())
            .map_or(true, |body| body.required)
    }

    /// The request body in each media type the generator can send: first the preferred one
    /// (JSON, then a form, then multipart, then text, then bytes; the first listed of a kind),
    /// the operation's method; then the others in the document's order, each a method of its
    /// own (`Body::suffix`). A media type that cannot be sent while another can is left out
    /// with a note; one repeated with other parameters (`; charset=…`) is sent as the first.
    pub(super) fn bodies(
        &mut self,
        body: &'a ReferenceOr<RequestBody>,
        camel: &str,
        pointer: &Pointer,
    ) -> Result<Vec<Body>, Error> {
        let body = self.request_body(body, pointer)?;
        if body.content.is_empty() {
            return Ok(Vec::new());
        }
        let content_pointer = pointer.join("content");
        let mut usable: Vec<(&'a String, &'a openapiv3::MediaType, MediaKind)> = Vec::new();
        let mut unsendable: Vec<&'a String> = Vec::new();
        for (media_type, media) in &body.content {
            let Some(kind) = media_kind(media_type) else {
                unsendable.push(media_type);
                continue;
            };
            let essence = media_essence(media_type);
            if let Some((first, ..)) = usable
                .iter()
                .find(|(other, ..)| media_essence(other) == essence)
            {
                let first = first.to_string();
                self.note(
                    &content_pointer.join(media_type),
                    format!("the request body is sent as {first}, the same media type"),
                );
                continue;
            }
            usable.push((media_type, media, kind));
        }
        // Stable: the first listed of the preferred kind leads.
        usable.sort_by_key(|(_, _, kind)| *kind);
        let Some(&(media_type, media, kind)) = usable.first() else {
            let listed: Vec<&str> = body.content.keys().map(String::as_str).collect();
            return Err(Error::Unsupported {
                pointer: content_pointer.to_string(),
                reason: format!(
                    "a request body in no media type the generator can send ({})",
                    listed.join(", ")
                ),
            });
        };
        let preferred = self.body_in(
            media_type,
            media,
            kind,
            &format!("{camel}Body"),
            &content_pointer,
        )?;
        let mut bodies = vec![Body {
            kind: preferred,
            media_type: media_type.clone(),
            required: body.required,
            suffix: String::new(),
        }];
        for media_type in unsendable {
            self.leave_out(
                content_pointer.join(media_type).as_str(),
                &format!("the request body as {media_type}"),
                "a media type the generator cannot send (it is sent in the others)",
            );
        }
        let mut others = usable[1..].to_vec();
        // In the document's order.
        others.sort_by_key(|(media_type, ..)| body.content.get_index_of(media_type.as_str()));
        for &(media_type, media, kind) in &others {
            let shared_kind = usable.iter().filter(|(.., other)| *other == kind).count() > 1;
            let suffix = if shared_kind {
                names::snake_ident(&media_essence(media_type).unwrap_or_default())
            } else {
                kind.word().to_owned()
            };
            let hint = format!("{camel}{}Body", names::camel_ident(&suffix, "Media"));
            match self.body_in(media_type, media, kind, &hint, &content_pointer) {
                Ok(kind) => bodies.push(Body {
                    kind,
                    media_type: media_type.clone(),
                    required: body.required,
                    suffix,
                }),
                Err(
                    Error::Unsupported { pointer, reason } | Error::Invalid { pointer, reason },
                ) => self.leave_out(&pointer, &format!("the request body as {media_type}"), &reason),
                Err(Error::DanglingRef { pointer, reference }) => self.leave_out(
                    &pointer,
                    &format!("the request body as {media_type}"),
                    &format!("`$ref` {reference:?} does not resolve to anything of its kind in the document"),
                ),
                Err(error) => return Err(error),
            }
        }
        Ok(bodies)
    }

    /// The request body in one media type.
    fn body_in(
        &mut self,
        media_type: &'a String,
        media: &'a openapiv3::MediaType,
        kind: MediaKind,
        type_hint: &str,
        content_pointer: &Pointer,
    ) -> Result<BodyKind, Error> {
        let schema_pointer = content_pointer.join(media_type).join("schema");
        let value_type = |builder: &mut Self| -> Result<TypeRef, Error> {
            match &media.schema {
                Some(schema) => Ok(builder
                    .type_of(SchemaAt::of(schema), type_hint, &schema_pointer)?
                    .0),
                None => Ok(TypeRef::Json),
            }
        };
        Ok(match kind {
            MediaKind::Json => BodyKind::Json(value_type(self)?),
            MediaKind::Form => {
                let ty = value_type(self)?;
                self.form_body(ty, media, &schema_pointer)?
            }
            MediaKind::Multipart => {
                let ty = value_type(self)?;
                self.multipart_body(ty, media, &schema_pointer)?
            }
            MediaKind::Text => BodyKind::Text,
            MediaKind::Bytes => BodyKind::Bytes,
        })
    }

    /// A form-encoded body of `ty` (an object), each property sent as the `encoding` of
    /// `media` says.
    fn form_body(
        &mut self,
        ty: TypeRef,
        media: &'a openapiv3::MediaType,
        schema_pointer: &Pointer,
    ) -> Result<BodyKind, Error> {
        let is_object = match &ty {
            TypeRef::Map(_) => true,
            TypeRef::Named(name) => {
                matches!(self.types.get(name), Some(TypeDef::Struct(_)))
            }
            _ => false,
        };
        if !is_object {
            return Err(Error::Unsupported {
                pointer: schema_pointer.to_string(),
                reason: "a form-encoded body whose schema is not an object".into(),
            });
        }
        // The runtime sends a form as `key=value` pairs, an array as its key once per
        // item (`form`, exploded), and an object (or an object or array inside an
        // array) as its JSON text, as OpenAPI's default `contentType` for an object
        // says. A property whose `encoding` names a `style` or `explode` is sent as the
        // query parameter of its name would be: any value by `deepObject`
        // (`a[b][c]=v`), only flat ones by the other styles; bytes have no text at all.
        let values: Vec<(String, Option<&str>, &TypeRef)> = match &ty {
            TypeRef::Map(value) => vec![("values".to_owned(), None, value)],
            TypeRef::Named(name) => match self.types.get(name) {
                Some(TypeDef::Struct(def)) => def
                    .fields
                    .iter()
                    .map(|field| {
                        let what = format!("property `{}`", field.wire_name);
                        (what, Some(field.wire_name.as_str()), &field.ty)
                    })
                    .collect(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        let flat = |ty: &TypeRef| match ty {
            TypeRef::Vec(item) => self.is_scalar(item),
            scalar => self.is_scalar(scalar),
        };
        let style_of = |wire_name: Option<&str>| {
            let encodings = media.encoding.iter();
            encodings
                .filter(|(name, _)| wire_name.is_none_or(|wire| wire == name.as_str()))
                .find(|(_, encoding)| {
                    encoding.style.is_some() || encoding.explode || encoding.allow_reserved
                })
                .map(|(_, encoding)| {
                    // `allowReserved` named alone keeps the default `form`, exploded.
                    let alone = encoding.style.is_none() && !encoding.explode;
                    (
                        query_style(encoding.style.as_ref()),
                        encoding.explode || alone,
                        encoding.allow_reserved,
                        alone,
                    )
                })
        };
        let bytes = |ty: &TypeRef| match ty {
            TypeRef::Vec(item) | TypeRef::Option(item) => **item == TypeRef::Bytes,
            ty => *ty == TypeRef::Bytes,
        };
        let mut styles = Vec::new();
        for (what, wire_name, ty) in &values {
            // `allowReserved` alone on a value the default sends as JSON text changes
            // nothing of how it is sent but its escaping: left to the default.
            let style = style_of(*wire_name).filter(|(.., alone)| !alone || flat(ty));
            let unsendable = bytes(ty)
                || style.is_some_and(|(style, ..)| style != ParamStyle::DeepObject && !flat(ty));
            if unsendable {
                return Err(Error::Unsupported {
                    pointer: schema_pointer.to_string(),
                    reason: format!(
                        "a form-encoded body whose {what} is bytes, or is neither a \
                         string, number, boolean, enum nor array of those and its \
                         `encoding` asks for a `style` other than `deepObject` (which \
                         only flat values have)"
                    ),
                });
            }
            if let (Some(wire_name), Some((style, explode, allow_reserved, _))) = (wire_name, style)
            {
                styles.push(FormStyle {
                    wire_name: (*wire_name).to_owned(),
                    style,
                    explode,
                    allow_reserved,
                });
            }
        }
        Ok(BodyKind::Form { ty, styles })
    }

    /// A `multipart/form-data` body of `ty` (an object): its `format: binary` properties are
    /// files, each part's media type from `media`'s `encoding` or the property's own.
    fn multipart_body(
        &mut self,
        ty: TypeRef,
        media: &'a openapiv3::MediaType,
        schema_pointer: &Pointer,
    ) -> Result<BodyKind, Error> {
        // A part per property: only an object (a struct, a map, a union of objects, or
        // any JSON value, which the runtime checks is one) has properties.
        if !self.may_be_object(&ty) {
            return Err(Error::Unsupported {
                pointer: schema_pointer.to_string(),
                reason: "a multipart/form-data body whose schema is not an object".into(),
            });
        }
        // `format: binary` properties are files (the struct types them as strings).
        let mut files = Vec::new();
        // The document's `encoding` names a part's media type; else a 3.1
        // `contentMediaType` on the file (or on a list's items) does.
        let mut content_types: Vec<(String, String)> = media
            .encoding
            .iter()
            .filter_map(|(name, encoding)| Some((name.clone(), encoding.content_type.clone()?)))
            .collect();
        if let Some(schema) = &media.schema
            && let Some(parts) = self.object_of(SchemaAt::of(schema), schema_pointer)?
        {
            for (name, property) in &parts.properties {
                let property_pointer = schema_pointer.join("properties").join(name);
                let property = self.resolve(SchemaAt::of_boxed(property), &property_pointer)?;
                if let SchemaKind::Type(Type::String(string)) = &property.schema_kind
                    && string.format == VariantOrUnknownOrEmpty::Item(StringFormat::Binary)
                {
                    files.push((*name).clone());
                }
                if !content_types.iter().any(|(named, _)| named == *name)
                    && let Some(media_type) = self.file_media_type(property, &property_pointer)
                {
                    content_types.push(((*name).clone(), media_type));
                }
            }
        }
        Ok(BodyKind::Multipart {
            ty,
            files,
            content_types,
        })
    }

    /// The success body: every 2xx response is read, not only the first listed. One body (in
    /// any number of 2xx responses) is its type; with a 2xx response that has no body beside
    /// it (`204` and `200`), `Option` of it (an empty body decodes as `None`); 2xx bodies of
    /// different schemas are a `serde_json::Value` with a note, and of different encodings
    /// (JSON and text) are left out with a note. Each body is read as `ir::media`'s table says
    /// (JSON, text, bytes; `multipart/*` as bytes with a note), and the second value is the
    /// `Accept` header: every media type of the 2xx bodies that is read the chosen way.
    pub(super) fn response(
        &mut self,
        operation: &'a openapiv3::Operation,
        camel: &str,
        pointer: &Pointer,
    ) -> Result<(ResponseKind, String), Error> {
        let empty = || Ok((ResponseKind::Empty, DEFAULT_ACCEPT.to_owned()));
        let mut bodiless = false;
        let mut bodies: Vec<(Pointer, &'a Response)> = Vec::new();
        for (status, response) in &operation.responses.responses {
            let success = match status {
                StatusCode::Code(code) => (200..300).contains(code),
                StatusCode::Range(range) => *range == 2,
            };
            if !success {
                continue;
            }
            let pointer = pointer.join(status);
            // A `$ref` naming nothing of its kind (PagerDuty's responses name request bodies)
            // spoils the success body alone: the operation is sent, its body not read.
            let response = match self.resolve_response(response, &pointer) {
                Ok(response) => response,
                Err(Error::DanglingRef { reference, .. }) => {
                    let reason = format!(
                        "`$ref` {reference:?} does not resolve to a response in the document"
                    );
                    self.leave_out(pointer.as_str(), "the response body", &reason);
                    return empty();
                }
                Err(error) => return Err(error),
            };
            if response.content.is_empty() {
                bodiless = true;
            } else {
                bodies.push((pointer.join("content"), response));
            }
        }
        let Some((content_pointer, response)) = bodies.first() else {
            return empty();
        };
        let Some((media_type, media, kind)) = self.usable_response_media(response, content_pointer)
        else {
            let listed: Vec<&str> = response.content.keys().map(String::as_str).collect();
            self.leave_out(
                content_pointer.as_str(),
                "the response body",
                &format!(
                    "a response in no media type the generator can read ({})",
                    listed.join(", ")
                ),
            );
            return empty();
        };
        // Every media type read the chosen way (for JSON, into the same schema) is accepted.
        let mut accept: Vec<&'a str> = Vec::new();
        let mut accepts = |builder: &Self, response: &'a Response, pointer: &Pointer| {
            for (other_type, other_media) in &response.content {
                let at = pointer.join(other_type).join("schema");
                let same = builder.read_as(other_type, other_media, &at) == Some(kind)
                    && (kind != ResponseMedia::Json || other_media.schema == media.schema);
                if same && !accept.contains(&other_type.as_str()) {
                    accept.push(other_type);
                }
            }
        };
        accepts(self, response, content_pointer);
        // The other 2xx bodies: the same body again, or one the single type cannot hold.
        let mut other_schema = None;
        for (other_pointer, other) in &bodies[1..] {
            match self.usable_response_media(other, other_pointer) {
                Some((_, other_media, other_kind))
                    if other_kind == kind
                        && (kind != ResponseMedia::Json || other_media.schema == media.schema) =>
                {
                    accepts(self, other, other_pointer);
                }
                Some((_, _, ResponseMedia::Json)) if kind == ResponseMedia::Json => {
                    other_schema.get_or_insert(other_pointer);
                    accepts(self, other, other_pointer);
                }
                _ => {
                    self.leave_out(
                        other_pointer.as_str(),
                        "the response body",
                        &format!(
                            "2xx responses with bodies of different encodings (as {} at {content_pointer})",
                            media_type
                        ),
                    );
                    return empty();
                }
            }
        }
        let accept = accept.join(", ");
        let body = match kind {
            ResponseMedia::Json => match (&media.schema, other_schema) {
                (Some(schema), None) => {
                    self.type_of(
                        SchemaAt::of(schema),
                        &format!("{camel}Response"),
                        &content_pointer.join(media_type).join("schema"),
                    )?
                    .0
                }
                (_, Some(other_pointer)) => {
                    self.typed_as_value(
                        other_pointer,
                        ValueReason::ResponsesDiffer,
                        format!(
                            "2xx responses with bodies of different schemas (as at \
                             {content_pointer}) are decoded as serde_json::Value"
                        ),
                    );
                    TypeRef::Json
                }
                (None, None) => TypeRef::Json,
            },
            ResponseMedia::Text => return Ok((ResponseKind::Text(media_type.clone()), accept)),
            ResponseMedia::Bytes => return Ok((ResponseKind::Bytes(media_type.clone()), accept)),
            ResponseMedia::Parts => {
                self.note(
                    &content_pointer.join(media_type),
                    format!(
                        "the {media_type} response is returned as its bytes, unsplit: the \
                         client does not read the parts of a multipart body"
                    ),
                );
                return Ok((ResponseKind::Bytes(media_type.clone()), accept));
            }
        };
        let body = if bodiless {
            TypeRef::Option(Box::new(body))
        } else {
            body
        };
        Ok((ResponseKind::Json(body), accept))
    }

    /// How a response body in `media_type` is read (`ir::media`'s table), its schema at
    /// `schema_pointer`.
    fn read_as(
        &self,
        media_type: &str,
        media: &'a openapiv3::MediaType,
        schema_pointer: &Pointer,
    ) -> Option<ResponseMedia> {
        response_media(media_type, self.schema_shape(media, schema_pointer))
    }

    /// The media type of a response the generated code reads, by `ResponseMedia`'s order of
    /// preference (the first listed of the preferred kind).
    fn usable_response_media(
        &self,
        response: &'a Response,
        content_pointer: &Pointer,
    ) -> Option<(&'a String, &'a openapiv3::MediaType, ResponseMedia)> {
        response
            .content
            .iter()
            .filter_map(|(media_type, media)| {
                let at = content_pointer.join(media_type).join("schema");
                self.read_as(media_type, media, &at)
                    .map(|kind| (media_type, media, kind))
            })
            .min_by_key(|(_, _, kind)| *kind)
    }

    /// A response, through one `$ref` to `#/components/responses`.
    fn resolve_response(
        &self,
        response: &'a ReferenceOr<Response>,
        pointer: &Pointer,
    ) -> Result<&'a Response, Error> {
        let components = self.spec.components.as_ref();
        through_component(response, RESPONSES, "response", pointer, |key| {
            components.and_then(|c| c.responses.get(key))
        })
    }
}

/// `item` itself, or what its `$ref` names under `prefix` (`#/components/responses/`), looked
/// up by key with `component`: one step, as a reference to a reference is not followed.
fn through_component<'a, T>(
    item: &'a ReferenceOr<T>,
    prefix: &str,
    what: &str,
    pointer: &Pointer,
    component: impl FnOnce(&str) -> Option<&'a ReferenceOr<T>>,
) -> Result<&'a T, Error> {
    let reference = match item {
        ReferenceOr::Item(item) => return Ok(item),
        ReferenceOr::Reference { reference } => reference,
    };
    let key = local_key(reference, prefix, pointer)?;
    match component(key.as_str()) {
        Some(ReferenceOr::Item(item)) => Ok(item),
        Some(ReferenceOr::Reference { .. }) => Err(Error::Unsupported {
            pointer: pointer.to_string(),
            reason: format!("a {what} reference to a reference"),
        }),
        None => Err(Error::DanglingRef {
            pointer: pointer.to_string(),
            reference: reference.clone(),
        }),
    }
}

/// The pairs of a query string written in a path key (`beta=true&v=2`), kept as written, and
/// those whose value is one placeholder (`from={from}`), as key and placeholder; one holding
/// another placeholder or a character a URL would change is not a fixed query.
fn fixed_query(query: &str, pointer: &Pointer) -> Result<TemplatedQuery, Error> {
    let plain = |text: &str| {
        text.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b))
    };
    let mut pairs = Vec::new();
    let mut templated = Vec::new();
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let placeholder = value
            .strip_prefix('{')
            .and_then(|rest| rest.strip_suffix('}'))
            .filter(|name| !name.is_empty() && !name.contains(['{', '}']));
        if let Some(placeholder) = placeholder
            && !key.is_empty()
            && plain(key)
        {
            templated.push((key.to_owned(), placeholder.to_owned()));
            continue;
        }
        if key.is_empty() || !plain(key) || !plain(value) {
            return Err(Error::Unsupported {
                pointer: pointer.to_string(),
                reason: format!(
                    "a query string in the path key ({query:?}) that is not plain `key=value` pairs"
                ),
            });
        }
        pairs.push((key.to_owned(), value.to_owned()));
    }
    Ok((pairs, templated))
}

/// A path key's query: fixed `(key, value)` pairs and `(key, placeholder)` pairs.
type TemplatedQuery = (Vec<(String, String)>, Vec<(String, String)>);

/// Where a parameter goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    Path,
    /// A query, header or cookie parameter: a method argument when required, else a field of
    /// the query struct.
    Sent {
        required: bool,
    },
    /// Declared but not sent (a header OpenAPI says to ignore).
    Ignored,
}

/// An HTTP token (RFC 9110 §5.6.2): what a header or cookie name may be.
pub(super) fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// The check behind "never a wrong URL": the template's placeholders and the operation's path
/// arguments are the same names in the same order, each placeholder once.
pub(crate) fn check_path_arguments(
    path: &str,
    arguments: &[Param],
    pointer: &Pointer,
) -> Result<(), Error> {
    let mut placeholders = names::path_parameters(path);
    let mut seen = BTreeSet::new();
    placeholders.retain(|placeholder| seen.insert(placeholder.clone()));
    let wires: Vec<&str> = arguments.iter().map(|p| p.wire_name.as_str()).collect();
    if placeholders
        .iter()
        .map(String::as_str)
        .ne(wires.iter().copied())
        || arguments.iter().any(|p| p.location != Location::Path)
        || path.contains('?')
        || path.contains('#')
    {
        return Err(Error::Unsupported {
            pointer: pointer.to_string(),
            reason: format!(
                "the path template's placeholders ({}) are not its path parameters ({})",
                placeholders.join(", "),
                wires.join(", ")
            ),
        });
    }
    Ok(())
}

/// The `Accept` header of an operation whose response the client reads as JSON or not at all:
/// what the runtime's `execute` sends.
pub(crate) const DEFAULT_ACCEPT: &str = "application/json";

/// How a body of a media type is encoded, in order of preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum MediaKind {
    Json,
    Form,
    Multipart,
    Text,
    Bytes,
}

impl MediaKind {
    /// The word a method sending a body of this kind ends with (`post_files_multipart`).
    pub(super) fn word(self) -> &'static str {
        match self {
            MediaKind::Json => "json",
            MediaKind::Form => "form",
            MediaKind::Multipart => "multipart",
            MediaKind::Text => "text",
            MediaKind::Bytes => "bytes",
        }
    }
}

/// The encoding of a media type, or `None` for one the generator cannot send or read:
/// `multipart/*` other than `multipart/form-data`, and anything that is not a valid header value.
pub(super) fn media_kind(media_type: &str) -> Option<MediaKind> {
    let essence = media_essence(media_type)?;
    if is_json(&essence) {
        Some(MediaKind::Json)
    } else if essence == "application/x-www-form-urlencoded" {
        Some(MediaKind::Form)
    } else if essence == "multipart/form-data" {
        Some(MediaKind::Multipart)
    } else if essence.starts_with("multipart/") {
        None
    } else if essence.starts_with("text/") {
        Some(MediaKind::Text)
    } else {
        Some(MediaKind::Bytes)
    }
}

/// A media type's `type/subtype` in lower case (RFC 9110 §8.3.1: case-insensitive), or `None`
/// for one that cannot be a header value: it is sent as `Content-Type` / `Accept`, so visible
/// ASCII and spaces only.
pub(super) fn media_essence(media_type: &str) -> Option<String> {
    if media_type.is_empty() || !media_type.bytes().all(|b| (b' '..=b'~').contains(&b)) {
        return None;
    }
    Some(
        media_type
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase(),
    )
}

pub(super) fn is_json(media_type: &str) -> bool {
    let essence = media_type.split(';').next().unwrap_or_default().trim();
    essence == "application/json" || essence.ends_with("+json")
}

/// The argument for a path placeholder no parameter declares: a required string, written as
/// `style: simple` writes a string (percent-encoded, one segment).
fn undeclared_placeholder(placeholder: &str, argument_names: &mut Namespace) -> Param {
    Param {
        location: Location::Path,
        wire_name: placeholder.to_owned(),
        rust_name: argument_names.claim(&names::snake_ident(placeholder), "_"),
        doc: Some(format!(
            "The path's `{{{placeholder}}}`, which the document declares no parameter for."
        )),
        ty: TypeRef::String,
        any_scalar: false,
        style: ParamStyle::Simple,
        explode: false,
        allow_reserved: false,
        secret: false,
    }
}

/// The parameters placed: path, required query (both arguments) and optional query (the query
/// struct's fields).
struct Placed {
    path: Vec<Param>,
    required_query: Vec<Param>,
    optional_query: Vec<Param>,
}

/// The path key's query pairs whose value is a placeholder (`?from={from}`): a parameter
/// declared `in: path` for it becomes a required query parameter sent as the key; one declared
/// `in: query` under its own name is sent as every query parameter is; a pair naming no
/// parameter fails the operation.
fn query_from_path_key(
    templated_query: Vec<(String, String)>,
    path_params: &mut Vec<Param>,
    required_query: &mut Vec<Param>,
    optional_query: &[Param],
    pointer: &Pointer,
) -> Result<(), Error> {
    for (key, placeholder) in templated_query {
        if let Some(index) = path_params.iter().position(|p| p.wire_name == placeholder) {
            // Declared `in: path` for the path key's query: a required query parameter.
            let mut param = path_params.remove(index);
            param.location = Location::Query;
            param.style = ParamStyle::Form;
            param.explode = true;
            param.wire_name = key;
            required_query.push(param);
        } else if key != placeholder
            || !required_query
                .iter()
                .chain(optional_query)
                .any(|p| p.location == Location::Query && p.wire_name == placeholder)
        {
            return Err(Error::Unsupported {
                pointer: pointer.to_string(),
                reason: format!(
                    "the path key's query pair `{key}={{{placeholder}}}` names no parameter"
                ),
            });
        }
        // Declared `in: query` under its own name: sent as every query parameter is.
    }
    Ok(())
}

/// An operation's docs: its summary and description, blank ones skipped.
fn operation_doc(operation: &openapiv3::Operation) -> Option<String> {
    let doc = [
        operation.summary.as_deref(),
        operation.description.as_deref(),
    ]
    .into_iter()
    .flatten()
    .filter(|text| !text.trim().is_empty())
    .collect::<Vec<_>>()
    .join("\n\n");
    (!doc.is_empty()).then_some(doc)
}

pub(super) fn dedupe_field_names(params: &mut [Param]) {
    let mut field_names = Names::query_fields();
    for param in params {
        param.rust_name = field_names.claim(&param.rust_name, "_");
    }
}

impl<'a> Builder<'a> {
    /// The media type a 3.1 `contentMediaType` gives a file property (raw bytes), or the items
    /// of a list of files, as the lowering kept it.
    fn file_media_type(&self, property: &'a Schema, pointer: &Pointer) -> Option<String> {
        let file = match &property.schema_kind {
            SchemaKind::Type(Type::Array(array)) => {
                let items = array.items.as_ref()?;
                self.resolve(SchemaAt::of_boxed(items), pointer).ok()?
            }
            _ => property,
        };
        let media_type = file
            .schema_data
            .extensions
            .get(crate::lower::content::MEDIA_TYPE_EXTENSION)?
            .as_str()?;
        Some(media_type.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::{MediaKind, media_kind};
    use crate::Input;
    use crate::ir::{BodyKind, FormStyle, ParamStyle, ResponseKind};

    /// The form styles of `POST /x`, whose form body has `properties` and `encoding` (YAML
    /// flow syntax), or the notes when its body is left out.
    fn form_styles(properties: &str, encoding: &str) -> Result<Vec<FormStyle>, Vec<String>> {
        let spec = format!(
            "openapi: 3.0.3\ninfo: {{title: t, version: '1'}}\npaths:\n  /x:\n    post:\n      \
             requestBody:\n        content:\n          application/x-www-form-urlencoded:\n            \
             schema: {{type: object, properties: {properties}}}\n            encoding: {encoding}\n      \
             responses: {{'204': {{description: ok}}}}\n"
        );
        let input = Input {
            spec_path: "t.yaml",
            spec_text: &spec,
            config_text: None,
        };
        let (api, notes) = crate::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
        match api.operations.first().and_then(|op| op.body.as_ref()) {
            Some(body) => match &body.kind {
                BodyKind::Form { styles, .. } => Ok(styles.clone()),
                other => panic!("{other:?}"),
            },
            None => Err(notes.iter().map(ToString::to_string).collect()),
        }
    }

    fn styled(wire_name: &str, style: ParamStyle, explode: bool) -> FormStyle {
        FormStyle {
            wire_name: wire_name.to_owned(),
            style,
            explode,
            allow_reserved: false,
        }
    }

    /// Each property the `encoding` styles is listed with its style (`form` when only
    /// `explode` is named, exploded when `form` is named alone); `deepObject` takes any value,
    /// the other styles only flat ones; an encoding naming neither lists nothing.
    #[test]
    fn form_properties_take_their_encoding_style() {
        let object = "{type: object, properties: {a: {type: string}}}";
        let list = "{type: array, items: {type: string}}";
        assert_eq!(
            form_styles(
                &format!("{{o: {object}, l: {list}, m: {list}, n: {list}, s: {{type: string}}}}"),
                "{o: {style: deepObject, explode: true}, l: {style: form}, m: {explode: true}, \
                 n: {style: pipeDelimited}, s: {contentType: text/plain}}",
            ),
            Ok(vec![
                styled("o", ParamStyle::DeepObject, true),
                styled("l", ParamStyle::Form, true),
                styled("m", ParamStyle::Form, true),
                styled("n", ParamStyle::PipeDelimited, false),
            ])
        );
        assert_eq!(form_styles(&format!("{{o: {object}}}"), "{}"), Ok(vec![]));
        for encoding in [
            "{o: {style: form}}",
            "{o: {explode: true}}",
            "{o: {style: spaceDelimited}}",
        ] {
            let left_out = form_styles(&format!("{{o: {object}}}"), encoding);
            assert!(
                left_out.as_ref().is_err_and(|notes| notes.iter().any(|note| note.contains(
                    "property `o` is bytes, or is neither a string, number, boolean, enum nor array of those and its `encoding` asks for a `style` other than `deepObject`"
                ))),
                "{encoding}: {left_out:?}"
            );
        }
        let bytes = form_styles(
            "{f: {type: string, format: binary}}",
            "{f: {style: deepObject}}",
        );
        assert!(bytes.is_err(), "{bytes:?}");
    }

    /// `allowReserved` is read from the `encoding`: alone, on a flat property, it keeps the
    /// default `form` (exploded); beside a style, that style; on a property the default sends
    /// as JSON text, alone, it changes nothing (no style to refuse it by).
    #[test]
    fn form_properties_take_their_encoding_allow_reserved() {
        let object = "{type: object, properties: {a: {type: string}}}";
        let list = "{type: array, items: {type: string}}";
        let reserved = |wire: &str, style, explode| FormStyle {
            allow_reserved: true,
            ..styled(wire, style, explode)
        };
        assert_eq!(
            form_styles(
                &format!(
                    "{{s: {{type: string}}, l: {list}, p: {list}, o: {object}, n: {{type: string}}}}"
                ),
                "{s: {allowReserved: true}, l: {style: form, explode: false, allowReserved: true}, \
                 p: {style: pipeDelimited, allowReserved: true}, o: {allowReserved: true}, \
                 n: {allowReserved: false}}",
            ),
            Ok(vec![
                reserved("s", ParamStyle::Form, true),
                reserved("l", ParamStyle::Form, false),
                reserved("p", ParamStyle::PipeDelimited, false),
            ])
        );
    }

    /// A success response whose `$ref` names a request body leaves out the body alone.
    #[test]
    fn a_response_ref_to_another_kind_leaves_out_the_body() {
        let spec = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /x:\n    get:\n      \
                    responses:\n        '200': {$ref: '#/components/requestBodies/B'}\n\
                    components:\n  requestBodies:\n    B:\n      content:\n        application/json:\n          \
                    schema: {type: string}\n";
        let input = Input {
            spec_path: "t.yaml",
            spec_text: spec,
            config_text: None,
        };
        let (api, notes) = crate::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(api.operations.len(), 1);
        assert_eq!(api.operations[0].response, ResponseKind::Empty);
        let notes: Vec<String> = notes.iter().map(ToString::to_string).collect();
        assert_eq!(
            notes,
            [
                "#/paths/~1x/get/responses/200: the response body is left out: `$ref` \"#/components/requestBodies/B\" does not resolve to a response in the document"
            ]
        );
    }

    #[test]
    fn media_kinds() {
        let cases = [
            ("application/json", Some(MediaKind::Json)),
            ("Application/JSON; charset=utf-8", Some(MediaKind::Json)),
            ("application/problem+json", Some(MediaKind::Json)),
            ("application/x-www-form-urlencoded", Some(MediaKind::Form)),
            ("text/plain", Some(MediaKind::Text)),
            ("text/csv; charset=utf-8", Some(MediaKind::Text)),
            ("application/octet-stream", Some(MediaKind::Bytes)),
            ("image/png", Some(MediaKind::Bytes)),
            ("*/*", Some(MediaKind::Bytes)),
            ("multipart/form-data", Some(MediaKind::Multipart)),
            ("multipart/mixed", None),
            ("text/plain\nX-Injected: 1", None),
            ("text/plé", None),
            ("", None),
        ];
        for (media_type, expected) in cases {
            assert_eq!(media_kind(media_type), expected, "{media_type:?}");
        }
    }
}
