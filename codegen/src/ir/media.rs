//! How a response body in one media type is read, decided from the media type (RFC 6838's
//! `type/subtype`, RFC 9110 §8.3.1) and the Media Type Object's schema (OpenAPI 3.1 §4.8.14):
//! JSON, text, bytes, or a `multipart/*` body the client returns unsplit, as bytes.
//!
//! | media type | schema | read as |
//! |---|---|---|
//! | not a valid header value | any | not read |
//! | `application/json`, `*/*+json` | any | JSON |
//! | `application/x-www-form-urlencoded` | any | not read (a form is sent, never answered) |
//! | `multipart/*` | any | bytes, unsplit, with a note |
//! | any other | binary (`format: binary`, 3.1 `contentMediaType` or `contentEncoding`) | bytes |
//! | `text/*` | not binary | text |
//! | any other | a string, not binary | text |
//! | any other | none, or not a string | bytes |

use openapiv3::{MediaType, SchemaKind, StringFormat, Type, VariantOrUnknownOrEmpty};

use super::{Builder, SchemaAt};
use crate::error::Pointer;

/// How the generated code reads a response body of one media type, in order of preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum ResponseMedia {
    /// Decoded as JSON into the schema's type.
    Json,
    /// Decoded as text by the response's charset (UTF-8 by default).
    Text,
    /// The bytes as they came.
    Bytes,
    /// A `multipart/*` body, returned as its bytes with a note: the client does not split parts.
    Parts,
}

/// What a Media Type Object's schema says of the body's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SchemaShape {
    /// No schema.
    Absent,
    /// A string of raw or encoded bytes: `format: binary` or `byte` (3.1's `contentMediaType`
    /// and `contentEncoding`, as the lowering writes them).
    Binary,
    /// A string that is not binary.
    Text,
    /// Anything else.
    Other,
}

/// How a response body in `media_type` whose schema has `shape` is read, or `None` when the
/// generated code reads no such body (see the module's table).
pub(super) fn response_media(media_type: &str, shape: SchemaShape) -> Option<ResponseMedia> {
    let essence = super::operations::media_essence(media_type)?;
    if super::operations::is_json(&essence) {
        return Some(ResponseMedia::Json);
    }
    if essence == "application/x-www-form-urlencoded" {
        return None;
    }
    if essence.starts_with("multipart/") {
        return Some(ResponseMedia::Parts);
    }
    Some(match shape {
        SchemaShape::Binary => ResponseMedia::Bytes,
        _ if essence.starts_with("text/") => ResponseMedia::Text,
        SchemaShape::Text => ResponseMedia::Text,
        SchemaShape::Absent | SchemaShape::Other => ResponseMedia::Bytes,
    })
}

impl<'a> Builder<'a> {
    /// What `media`'s schema says of the body (through `$ref`s); a schema that cannot be
    /// resolved says nothing (`Other`), and its type is reported where it is converted.
    pub(super) fn schema_shape(&self, media: &'a MediaType, pointer: &Pointer) -> SchemaShape {
        let Some(schema) = &media.schema else {
            return SchemaShape::Absent;
        };
        let Ok(schema) = self.resolve(SchemaAt::of(schema), pointer) else {
            return SchemaShape::Other;
        };
        match &schema.schema_kind {
            SchemaKind::Type(Type::String(string)) => match &string.format {
                VariantOrUnknownOrEmpty::Item(StringFormat::Binary | StringFormat::Byte) => {
                    SchemaShape::Binary
                }
                _ => SchemaShape::Text,
            },
            _ => SchemaShape::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ResponseMedia, SchemaShape, response_media};

    /// The module's table, row by row, with the media types the issue names.
    #[test]
    fn response_media_follows_the_table() {
        use ResponseMedia::{Bytes, Json, Parts, Text};
        use SchemaShape::{Absent, Binary, Other};
        let string = SchemaShape::Text;
        let cases: &[(&str, SchemaShape, Option<ResponseMedia>)] = &[
            ("text/plain\nX-Injected: 1", string, None),
            ("text/plé", string, None),
            ("", string, None),
            ("application/json", Other, Some(Json)),
            ("application/json", string, Some(Json)),
            ("Application/JSON; charset=utf-8", Absent, Some(Json)),
            ("application/problem+json", Other, Some(Json)),
            ("application/x-www-form-urlencoded", Other, None),
            ("multipart/mixed", Other, Some(Parts)),
            ("multipart/form-data", Other, Some(Parts)),
            (
                "Multipart/Related; type=application/json",
                Absent,
                Some(Parts),
            ),
            ("text/csv", Binary, Some(Bytes)),
            ("image/png", Binary, Some(Bytes)),
            ("application/octet-stream", Binary, Some(Bytes)),
            ("text/plain", string, Some(Text)),
            ("text/csv; charset=utf-8", Absent, Some(Text)),
            ("text/html", Other, Some(Text)),
            ("application/csv", string, Some(Text)),
            ("application/x-ndjson", string, Some(Text)),
            ("application/xml", string, Some(Text)),
            ("*/*", string, Some(Text)),
            ("application/octet-stream", Absent, Some(Bytes)),
            ("application/octet-stream", Other, Some(Bytes)),
            ("image/png", Absent, Some(Bytes)),
            ("application/csv", Absent, Some(Bytes)),
            ("*/*", Absent, Some(Bytes)),
        ];
        for (media_type, shape, expected) in cases {
            assert_eq!(
                response_media(media_type, *shape),
                *expected,
                "{media_type:?} {shape:?}"
            );
        }
    }
}
