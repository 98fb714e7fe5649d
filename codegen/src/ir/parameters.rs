//! Parameters: each declared parameter as a method argument or query-struct field with the
//! style, `explode`, `allowReserved` and secrecy the runtime's one encoder (`param_style`)
//! sends it by; the header names the client owns; which values the encoder can write for a
//! style.

use openapiv3::{
    APIKeyLocation, Parameter, ParameterSchemaOrContent, PathStyle, QueryStyle, ReferenceOr,
    SchemaKind, SecurityScheme,
};

use super::convert::doc_of;
use super::operations::{Place, is_token};
use super::{Builder, Location, ObjectParts, Param, ParamStyle, SchemaAt, TypeDef, TypeRef};
use crate::Error;
use crate::error::Pointer;
use crate::names;

/// How deep a `deepObject` value may nest (`a[b][c]…`): beyond it, or through a cycle, a type
/// has no encoding.
const MAX_DEPTH: usize = 16;

impl<'a> Builder<'a> {
    /// One parameter as the method's arguments or query fields: one, or one per property of
    /// a `form`-exploded query object. Rust names are given by the caller.
    pub(super) fn lower_parameter(
        &mut self,
        parameter: &'a Parameter,
        at: &Pointer,
        camel: &str,
    ) -> Result<Vec<(Place, Param)>, Error> {
        let data = parameter.parameter_data_ref();
        let (location, style) = location_and_style(parameter);
        // OpenAPI: `explode` defaults to true for `form`, false for every other style.
        let explode = data.explode.unwrap_or(style == ParamStyle::Form);
        // OpenAPI defines `allowReserved` for query parameters alone.
        let allow_reserved = matches!(
            parameter,
            Parameter::Query {
                allow_reserved: true,
                ..
            }
        );
        let shape = Shape {
            location,
            style,
            explode,
            allow_reserved,
        };
        let param = |wire_name: &str, doc: Option<String>, ty: TypeRef, any_scalar: bool| {
            shape.param(wire_name, doc, ty, any_scalar)
        };
        if location == Location::Header
            && let Some(why) = ignored_header(&data.name)
        {
            self.note(
                at,
                format!("header parameter `{}` is ignored: {why}", data.name),
            );
            return Ok(vec![(
                Place::Ignored,
                param(&data.name, None, TypeRef::String, false),
            )]);
        }
        if matches!(location, Location::Header | Location::Cookie) && !is_token(&data.name) {
            return Err(Error::Unsupported {
                pointer: at.join("name").to_string(),
                reason: format!("{:?} is not a header or cookie name", data.name),
            });
        }
        let schema = match &data.format {
            ParameterSchemaOrContent::Schema(schema) => schema,
            ParameterSchemaOrContent::Content(_) => {
                return Err(Error::Unsupported {
                    pointer: at.join("content").to_string(),
                    reason: "a parameter serialised through `content`".into(),
                });
            }
        };
        let schema_pointer = at.join("schema");
        let place = match location {
            Location::Path => Place::Path,
            _ => Place::Sent {
                required: data.required,
            },
        };
        let secret = self.is_credential(location, &data.name);
        let hint = format!("{camel}{}", names::camel_ident(&data.name, ""));
        // `style: form, explode: true` on a query object: every property is a query key of its
        // own, so each is an argument or field of its own.
        if location == Location::Query
            && style == ParamStyle::Form
            && explode
            && let Some(parts) = self.object_of(SchemaAt::of(schema), &schema_pointer)?
            && !parts.properties.is_empty()
        {
            return self.exploded_properties(
                parts,
                data.required,
                secret,
                camel,
                &schema_pointer,
                shape,
            );
        }
        let (ty, any_scalar) = self.param_type(SchemaAt::of(schema), &hint, &schema_pointer)?;
        // Outside `deepObject` a style writes a scalar, or one list or map of scalars.
        let deepest = if style == ParamStyle::DeepObject {
            MAX_DEPTH
        } else {
            1
        };
        if self.depth(&ty, 0).is_none_or(|depth| depth > deepest) {
            return Err(no_encoding(&schema_pointer, location, style));
        }
        let mut param = param(&data.name, data.description.clone(), ty, any_scalar);
        param.secret = secret;
        Ok(vec![(place, param)])
    }

    /// A `form`-exploded query object's properties, each an argument or field of its own:
    /// required when the parameter and the property are.
    fn exploded_properties(
        &mut self,
        parts: ObjectParts<'a>,
        required: bool,
        secret: bool,
        camel: &str,
        schema_pointer: &Pointer,
        shape: Shape,
    ) -> Result<Vec<(Place, Param)>, Error> {
        let mut expanded = Vec::with_capacity(parts.properties.len());
        for (wire, property) in parts.properties {
            let property_pointer = schema_pointer.join("properties").join(wire);
            let property = SchemaAt::of_boxed(property);
            let hint = format!("{camel}{}", names::camel_ident(wire, ""));
            let (ty, any_scalar) = self.param_type(property, &hint, &property_pointer)?;
            if self.depth(&ty, 0).is_none_or(|depth| depth > 1) {
                return Err(no_encoding(&property_pointer, shape.location, shape.style));
            }
            let doc = match property {
                SchemaAt::Item(schema) => doc_of(schema),
                SchemaAt::Ref(_) => None,
            };
            let required = required && parts.required.contains(wire.as_str());
            let mut param = shape.param(wire, doc, ty, any_scalar);
            param.secret = secret;
            expanded.push((Place::Sent { required }, param));
        }
        Ok(expanded)
    }

    /// A parameter's type: a union of scalars is anything `Display` (`any_scalar`), and a
    /// schema that says nothing (`{}`) is a string, the text every location carries.
    fn param_type(
        &mut self,
        at: SchemaAt<'a>,
        hint: &str,
        pointer: &Pointer,
    ) -> Result<(TypeRef, bool), Error> {
        if self.is_scalar_union(at, pointer)? {
            return Ok((TypeRef::String, true));
        }
        let schema = self.resolve(at, pointer)?;
        if let SchemaKind::Any(any) = &schema.schema_kind
            && *any == openapiv3::AnySchema::default()
        {
            return Ok((TypeRef::String, false));
        }
        let (ty, _nullable) = self.type_of(at, hint, pointer)?;
        Ok((ty, false))
    }

    /// How deep a value of `ty` nests: 0 for a scalar, 1 for a list or map of scalars, and so
    /// on; `None` for what the encoder cannot write (any JSON value, a tagged union, a cycle,
    /// past [`MAX_DEPTH`]). An `Option` adds nothing: `null` is not sent.
    fn depth(&self, ty: &TypeRef, level: usize) -> Option<usize> {
        if level > MAX_DEPTH {
            return None;
        }
        let next = level + 1;
        match ty {
            TypeRef::Json => None,
            TypeRef::Option(inner) => self.depth(inner, next),
            TypeRef::Vec(inner) | TypeRef::Map(inner) => Some(self.depth(inner, next)? + 1),
            TypeRef::Named(name) => match self.types.get(name)? {
                TypeDef::Enum(_) | TypeDef::IntEnum(_) => Some(0),
                // A value is any JSON, which no style writes as a scalar.
                TypeDef::ValueEnum(_) => None,
                TypeDef::Alias(def) => self.depth(&def.ty, next),
                TypeDef::Struct(def) => {
                    let mut deepest = 0;
                    for field in &def.fields {
                        deepest = deepest.max(self.depth(&field.ty, next)?);
                    }
                    Some(deepest + 1)
                }
                // Each member is written as it is: a string as a scalar, an array as a list.
                TypeDef::Untagged(def) => {
                    let mut deepest = 0;
                    for variant in &def.variants {
                        deepest = deepest.max(self.depth(&variant.ty, next)?);
                    }
                    Some(deepest)
                }
                TypeDef::Union(_) => None,
            },
            scalar if self.is_scalar(scalar) => Some(0),
            _ => None,
        }
    }

    /// Whether the document's `securitySchemes` name this parameter as a credential (an
    /// `apiKey` in the same place under the same name; header names in any case).
    fn is_credential(&self, location: Location, name: &str) -> bool {
        let Some(components) = &self.spec.components else {
            return false;
        };
        components.security_schemes.values().any(|scheme| {
            let ReferenceOr::Item(SecurityScheme::APIKey {
                location: key_location,
                name: key_name,
                ..
            }) = scheme
            else {
                return false;
            };
            match (key_location, location) {
                (APIKeyLocation::Query, Location::Query)
                | (APIKeyLocation::Cookie, Location::Cookie) => key_name == name,
                (APIKeyLocation::Header, Location::Header) => key_name.eq_ignore_ascii_case(name),
                _ => false,
            }
        })
    }
}

/// Where a parameter goes and how its style writes it.
#[derive(Clone, Copy)]
struct Shape {
    location: Location,
    style: ParamStyle,
    explode: bool,
    allow_reserved: bool,
}

impl Shape {
    /// A parameter of this shape (not a credential; Rust names are given by the caller).
    fn param(self, wire_name: &str, doc: Option<String>, ty: TypeRef, any_scalar: bool) -> Param {
        Param {
            location: self.location,
            wire_name: wire_name.to_owned(),
            rust_name: names::snake_ident(wire_name),
            doc,
            ty,
            any_scalar,
            style: self.style,
            explode: self.explode,
            allow_reserved: self.allow_reserved,
            secret: false,
        }
    }
}

/// A parameter's location and style (its own, or its location's default).
fn location_and_style(parameter: &Parameter) -> (Location, ParamStyle) {
    match parameter {
        Parameter::Path { style, .. } => (
            Location::Path,
            match style {
                PathStyle::Simple => ParamStyle::Simple,
                PathStyle::Label => ParamStyle::Label,
                PathStyle::Matrix => ParamStyle::Matrix,
            },
        ),
        Parameter::Query { style, .. } => (Location::Query, query_style(Some(style))),
        Parameter::Header { .. } => (Location::Header, ParamStyle::Simple),
        Parameter::Cookie { .. } => (Location::Cookie, ParamStyle::Form),
    }
}

/// A query style (a query parameter's, or a form-encoded property's `encoding`), `form` when
/// none is named.
pub(super) fn query_style(style: Option<&QueryStyle>) -> ParamStyle {
    match style {
        None | Some(QueryStyle::Form) => ParamStyle::Form,
        Some(QueryStyle::SpaceDelimited) => ParamStyle::SpaceDelimited,
        Some(QueryStyle::PipeDelimited) => ParamStyle::PipeDelimited,
        Some(QueryStyle::DeepObject) => ParamStyle::DeepObject,
    }
}

/// Why a header parameter is never sent, or `None` for one that is: the one rule for header
/// names. OpenAPI says `Accept`, `Content-Type` and `Authorization` "SHALL be ignored" (the
/// media types and the client's credentials set them); transport and framing headers belong to
/// the HTTP client, and one a document sets could reroute the request (`Host`), break its
/// framing (`Content-Length`, `Transfer-Encoding`) or its connection. A `Cookie` header
/// parameter is sent: the runtime merges it into the one `Cookie` header.
pub(super) fn ignored_header(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "accept" | "content-type" | "authorization" => {
            Some("OpenAPI says so (the media types and the client's credentials set it)")
        }
        "host" | "content-length" | "transfer-encoding" | "connection" | "te" | "upgrade"
        | "expect" | "keep-alive" | "trailer" => {
            Some("a transport or framing header, which the HTTP client sets")
        }
        _ if lower.starts_with("proxy-") => {
            Some("a transport or framing header, which the HTTP client sets")
        }
        _ => None,
    }
}

/// A parameter whose value the style cannot write.
fn no_encoding(pointer: &Pointer, location: Location, style: ParamStyle) -> Error {
    let place = match location {
        Location::Path => "path",
        Location::Query => "query",
        Location::Header => "header",
        Location::Cookie => "cookie",
    };
    Error::Unsupported {
        pointer: pointer.to_string(),
        reason: format!(
            "a {place} parameter whose value has no `{}` encoding (an object or array inside an \
             array or object, which only `deepObject` writes; any JSON value; a tagged union)",
            style.runtime_name()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::ignored_header;

    #[test]
    fn one_rule_for_header_names() {
        for name in [
            "Accept",
            "content-type",
            "AUTHORIZATION",
            "Host",
            "Content-Length",
            "Transfer-Encoding",
            "connection",
            "TE",
            "Upgrade",
            "Expect",
            "Keep-Alive",
            "Proxy-Authorization",
            "proxy-connection",
            "Trailer",
        ] {
            assert!(ignored_header(name).is_some(), "{name}");
        }
        for name in [
            "Cookie",
            "X-Host",
            "Accept-Language",
            "X-Proxy",
            "Tenant",
            "ETag",
        ] {
            assert!(ignored_header(name).is_none(), "{name}");
        }
    }
}
