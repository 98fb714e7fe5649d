//! Support the generated code calls: the request it hands to
//! [`Client::execute`](crate::Client::execute), path and body encoding, and
//! serde helpers for open enums.
//!
//! This module is hand-written and public only so that the generated
//! modules can reach it; most users never need it.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

pub use crate::error::Error;
pub use crate::index_mapped::{IndexMappedDescriptor, IndexMappedResponse, IndexMappedValueSet};
pub use reqwest::Method;

/// One HTTP request an emitted operation hands to
/// [`Client::execute`](crate::Client::execute).
#[derive(Debug, Clone)]
pub struct Request {
    /// The operation's name (its OpenAPI `operationId`), for diagnostics.
    pub operation: &'static str,
    /// The HTTP method.
    pub method: Method,
    /// The path as written in the schema, e.g. `/v1/models/{model_id}`, for
    /// diagnostics.
    pub path_template: &'static str,
    /// The path with parameters filled in and percent-encoded (see
    /// [`encode_path_segment`]); starts with `/`.
    pub path: String,
    /// Query pairs in order; a key may repeat (`metrics=a&metrics=b`).
    /// Values are encoded when the URL is built.
    pub query: Vec<(&'static str, String)>,
    /// A serialised JSON body (see [`json_body`]), if the operation has one.
    pub body: Option<Vec<u8>>,
}

/// Bytes left as they are in a path segment: RFC 3986 "unreserved"
/// (ALPHA / DIGIT / `-` / `.` / `_` / `~`). Encoding everything else, even
/// sub-delimiters that would be legal, means no value can add a segment
/// (`/`), start a query (`?`) or fragment (`#`), or smuggle in an escape
/// (`%`).
const PATH_SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Percent-encodes a path parameter as exactly one segment.
///
/// Empty, `.` and `..` are refused with [`Error::InvalidRequest`] naming the
/// parameter (the value itself is not echoed) because no encoding keeps URL
/// normalisation from treating them as path navigation (WHATWG URL parsing
/// treats `%2E%2E` as `..`), and an empty segment would address a different
/// resource. Everything except unreserved ALPHA / DIGIT / `-` / `.` / `_` /
/// `~` is encoded, so `/`, `?`, `#` and `%` cannot change the path.
///
/// # Errors
///
/// [`Error::InvalidRequest`] for an empty, `.` or `..` value.
pub fn encode_path_segment(name: &'static str, value: &str) -> Result<String, Error> {
    match value {
        "" => Err(Error::InvalidRequest(format!(
            "path parameter `{name}` is empty"
        ))),
        "." | ".." => Err(Error::InvalidRequest(format!(
            "path parameter `{name}` is a dot segment (\".\" or \"..\"), \
             which URLs treat as path navigation"
        ))),
        _ => Ok(utf8_percent_encode(value, PATH_SEGMENT).to_string()),
    }
}

/// Serialises a JSON request body.
///
/// # Errors
///
/// [`Error::InvalidRequest`] if `value` cannot be represented as JSON (for
/// example a map whose keys are not strings).
pub fn json_body<T: serde::Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
    serde_json::to_vec(value).map_err(|source| {
        Error::InvalidRequest(format!(
            "request body cannot be serialised as JSON: {source}"
        ))
    })
}

/// Serialises an open enum by its wire string.
///
/// # Errors
///
/// Whatever the serializer reports for a string.
pub fn serialize_wire_str<S: serde::Serializer>(
    value: &str,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(value)
}

/// Deserialises the wire string of an open enum (any string is accepted, so
/// values the schema does not list yet still decode).
///
/// # Errors
///
/// Whatever the deserializer reports when the input is not a string.
pub fn deserialize_wire_string<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<String, D::Error> {
    <String as serde::Deserialize>::deserialize(deserializer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(value: &str) -> String {
        match encode_path_segment("model_id", value) {
            Ok(encoded) => encoded,
            Err(err) => panic!("{value:?} refused: {err}"),
        }
    }

    #[test]
    fn path_segment_keeps_unreserved() {
        assert_eq!(encode("abcXYZ019-._~"), "abcXYZ019-._~");
        // Dots are only dangerous as a whole segment.
        assert_eq!(encode("..."), "...");
        assert_eq!(encode("a..b"), "a..b");
    }

    #[test]
    fn path_segment_encodes_delimiters() {
        assert_eq!(encode("a/b"), "a%2Fb");
        assert_eq!(encode("../x"), "..%2Fx");
        assert_eq!(encode("a?b#c"), "a%3Fb%23c");
        assert_eq!(encode("100%"), "100%25");
        assert_eq!(encode("%2E%2E"), "%252E%252E");
        assert_eq!(encode("a b+c"), "a%20b%2Bc");
        assert_eq!(encode("a\\b;c=d"), "a%5Cb%3Bc%3Dd");
    }

    #[test]
    fn path_segment_encodes_unicode() {
        assert_eq!(encode("é"), "%C3%A9");
        assert_eq!(encode("🦀"), "%F0%9F%A6%80");
    }

    #[test]
    fn path_segment_refuses_navigation() {
        for value in ["", ".", ".."] {
            match encode_path_segment("model_id", value) {
                Err(Error::InvalidRequest(message)) => {
                    assert!(message.contains("`model_id`"), "{message}");
                }
                other => panic!("{value:?} gave {other:?}"),
            }
        }
    }

    #[test]
    fn json_body_serialises_and_reports_errors() {
        let body = json_body(&serde_json::json!({"name": "x"})).ok();
        assert_eq!(body.as_deref(), Some(&br#"{"name":"x"}"#[..]));

        let mut bad = std::collections::BTreeMap::new();
        bad.insert((1, 2), 3);
        assert!(matches!(json_body(&bad), Err(Error::InvalidRequest(_))));
    }

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Wire(
        #[serde(
            serialize_with = "serialize_wire_str",
            deserialize_with = "deserialize_wire_string"
        )]
        String,
    );

    #[test]
    fn wire_string_helpers_round_trip() {
        let wire = Wire("SOMETHING_NEW".to_owned());
        let json = serde_json::to_string(&wire).ok();
        assert_eq!(json.as_deref(), Some("\"SOMETHING_NEW\""));
        let back: Option<Wire> = serde_json::from_str("\"SOMETHING_NEW\"").ok();
        assert_eq!(back, Some(wire));
        assert!(serde_json::from_str::<Wire>("1").is_err());
    }
}
