//! Support the generated code calls: the request it hands to `Client::execute`, path and body
//! encoding, and the impls of open enums. Re-exported at the crate root; most users never need it.

use crate::error::Error;
#[cfg(feature = "client")]
use crate::percent::{self, Component};
#[cfg(feature = "client")]
pub use reqwest::Method;
#[cfg(feature = "client")]
use std::borrow::Cow;

/// One HTTP request an emitted operation hands to
/// [`RuntimeClient::execute`](crate::RuntimeClient::execute).
#[cfg(feature = "client")]
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
    /// The query, header and cookie parameters, encoded by their styles
    /// ([`param_style`](crate::param_style)).
    pub params: crate::param_style::Params,
    /// The encoded body and its media type, if the operation has one.
    pub body: Option<Body>,
    /// Which of the client's credentials the request carries: the API key
    /// ([`Security::ClientKey`](crate::Security::ClientKey), the default), or the first of the
    /// operation's security requirements the client can meet.
    pub security: crate::Security,
}

/// An encoded request body and the `Content-Type` it is sent with.
#[cfg(feature = "client")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body {
    /// The media type as the document writes it (`application/json`, `text/plain`, …); owned
    /// because a multipart body's carries a boundary chosen per request.
    pub content_type: Cow<'static, str>,
    /// The bytes sent.
    pub bytes: Vec<u8>,
}

#[cfg(feature = "client")]
impl Body {
    /// `value` as JSON.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] if `value` cannot be represented as JSON.
    pub fn json<T: serde_core::Serialize + ?Sized>(
        content_type: &'static str,
        value: &T,
    ) -> Result<Body, Error> {
        Ok(Body {
            content_type: Cow::Borrowed(content_type),
            bytes: json_body(value)?,
        })
    }

    /// `value` form-encoded (`application/x-www-form-urlencoded`): an object, each property a
    /// pair; an array its key once per item; an object (property or item) its JSON text, as
    /// OpenAPI's default `contentType` for an object (`application/json`) says.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] if `value` is not an object.
    pub fn form<T: serde_core::Serialize + ?Sized>(
        content_type: &'static str,
        value: &T,
    ) -> Result<Body, Error> {
        // Flat scalars keep their field order through `serde_urlencoded`; an array (the key
        // once per item, as OpenAPI's default `form` style explodes it) goes through JSON.
        let text = match serde_urlencoded::to_string(value) {
            Ok(text) => text,
            Err(flat) => form_with_arrays(value).map_err(|reason| {
                Error::InvalidRequest(format!(
                    "request body cannot be form-encoded: {flat}; {reason}"
                ))
            })?,
        };
        // `serde_urlencoded` writes a space as `+` (and a `+` as `%2B`); `%20` is what RFC 3986
        // and OpenAPI's form style say, and what a validator that refuses reserved characters
        // (Prism) accepts.
        let text = text.replace('+', "%20");
        Ok(Body {
            content_type: Cow::Borrowed(content_type),
            bytes: text.into_bytes(),
        })
    }

    /// `value` form-encoded with a `style`, `explode` and `allowReserved` for some properties,
    /// by wire name (the document's `encoding`): each such property as the query parameter of
    /// its name would be (`deepObject`: `a[b][c]=v`), the others as [`form`](Self::form) sends
    /// them.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] if `value` is not an object, or a styled property holds what
    /// its style cannot encode (an object inside an array outside `deepObject`).
    pub fn form_styled<T: serde_core::Serialize + ?Sized>(
        content_type: &'static str,
        value: &T,
        styles: &[(&str, crate::param_style::Encoding)],
    ) -> Result<Body, Error> {
        if let Some(number) = crate::finite::non_finite(value) {
            // serde_json would write it as `null`, and the field would vanish.
            return Err(Error::InvalidArgument(crate::error::InvalidArgument::new(
                crate::param_style::NonFinite {
                    parameter: "request body".to_owned(),
                    value: number,
                },
            )));
        }
        let value = serde_json::to_value(value).map_err(|error| {
            Error::InvalidRequest(format!("request body cannot be form-encoded: {error}"))
        })?;
        Ok(Body {
            content_type: Cow::Borrowed(content_type),
            bytes: crate::param_style::form_text(&value, styles)?.into_bytes(),
        })
    }

    /// Text as given.
    pub fn text(content_type: &'static str, value: &str) -> Body {
        Body {
            content_type: Cow::Borrowed(content_type),
            bytes: value.as_bytes().to_vec(),
        }
    }

    /// Bytes as given (a `Vec<u8>`, `bytes::Bytes`, `&[u8]`, a `String`, …).
    pub fn bytes(content_type: &'static str, value: impl Into<Vec<u8>>) -> Body {
        Body {
            content_type: Cow::Borrowed(content_type),
            bytes: value.into(),
        }
    }
}

/// A form of any object: an array as its key repeated (`a=1&a=2`), an object or an array
/// inside an array as its JSON text (`a={"b":1}`); `null` and an absent value send nothing.
#[cfg(feature = "client")]
fn form_with_arrays<T: serde_core::Serialize + ?Sized>(value: &T) -> Result<String, String> {
    use serde_json::Value;
    let text = |value: Value| match value {
        Value::String(text) => text,
        Value::Number(number) => number.to_string(),
        Value::Bool(flag) => flag.to_string(),
        nested => nested.to_string(),
    };
    let Value::Object(fields) = serde_json::to_value(value).map_err(|e| e.to_string())? else {
        return Err("the value is not an object".to_owned());
    };
    let mut pairs = Vec::new();
    for (key, value) in fields {
        match value {
            Value::Null => {}
            Value::Array(items) => {
                for item in items.into_iter().filter(|item| !item.is_null()) {
                    pairs.push((key.clone(), text(item)));
                }
            }
            other => pairs.push((key, text(other))),
        }
    }
    serde_urlencoded::to_string(&pairs).map_err(|e| e.to_string())
}

/// Percent-encodes a path parameter as exactly one segment, by the crate's one boundary: every
/// byte but RFC 3986's unreserved ALPHA / DIGIT / `-` / `.` / `_` / `~` is `%XX`, so `/`, `?`,
/// `#` and `%` cannot change the path.
///
/// An empty value and a dot segment in any form (`.`, `..`, and what decodes to them) are
/// refused with [`Error::InvalidRequest`] naming the parameter (the value itself is not
/// echoed): no encoding keeps URL normalisation from reading them as path navigation, and an
/// empty segment would address a different resource.
///
/// # Errors
///
/// [`Error::InvalidRequest`] for an empty or dot-segment value.
#[cfg(feature = "client")]
pub fn encode_path_segment(name: &'static str, value: &str) -> Result<String, Error> {
    percent::checked_segment(name, percent::encode(value, Component::PathSegment))
}

/// The one `Cookie` header for a request's cookie parameters: `name=value` pairs joined by
/// `; ` (RFC 6265 §4.2.1), each value percent-encoded as the client encodes a cookie
/// parameter; `None` when there are none.
///
/// # Errors
///
/// [`Error::InvalidRequest`] for a name that is not an HTTP token (the generator only emits
/// tokens; a hand-built request must not break the header either).
#[cfg(feature = "client")]
pub fn cookie_header(cookies: &[(&str, String)]) -> Result<Option<String>, Error> {
    let pairs = cookies
        .iter()
        .map(|(name, value)| percent::cookie_pair(name, value))
        .collect::<Result<Vec<String>, Error>>()?;
    Ok(percent::cookie_header(pairs.iter().map(String::as_str)))
}

/// Serialises a JSON request body.
///
/// # Errors
///
/// [`Error::InvalidRequest`] if `value` cannot be represented as JSON (for
/// example a map whose keys are not strings).
pub fn json_body<T: serde_core::Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
    serde_json::to_vec(value).map_err(|source| {
        Error::InvalidRequest(format!(
            "request body cannot be serialised as JSON: {source}"
        ))
    })
}

/// Implements an open integer enum's inherent API, conversions and serde by wire integer.
///
/// The integer counterpart of [`open_enum_impls!`]: the generator emits the definition (variants
/// `V200`, `VMinus1`, … and a fallback keeping any other `i64`), then one call of this macro.
#[doc(hidden)]
#[macro_export]
macro_rules! open_int_enum_impls {
    ($name:ident, $fallback:ident, [$($variant:ident = $value:literal),* $(,)?]) => {
        impl $name {
            /// Every value the document lists, in its order.
            pub const KNOWN: &'static [Self] = &[$(Self::$variant),*];

            /// The value as sent on the wire.
            pub fn value(&self) -> i64 {
                match self {
                    $(Self::$variant => $value,)*
                    Self::$fallback(value) => *value,
                }
            }

            /// Whether this is a value the document does not list.
            pub fn is_unknown(&self) -> bool {
                matches!(self, Self::$fallback(_))
            }
        }

        impl ::core::convert::From<i64> for $name {
            fn from(value: i64) -> Self {
                match value {
                    $($value => Self::$variant,)*
                    other => Self::$fallback(other),
                }
            }
        }

        impl ::core::convert::From<$name> for i64 {
            fn from(value: $name) -> i64 {
                value.value()
            }
        }

        impl ::core::str::FromStr for $name {
            type Err = ::core::num::ParseIntError;
            fn from_str(value: &str) -> ::core::result::Result<Self, ::core::num::ParseIntError> {
                value.parse::<i64>().map(Self::from)
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::core::fmt::Display::fmt(&self.value(), f)
            }
        }

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S: $crate::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_i64(self.value())
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                <i64 as $crate::__private::serde::Deserialize>::deserialize(deserializer)
                    .map(Self::from)
            }
        }
    };
}

/// Paths the runtime's macros (those above and `struct_deserialize!`) expand to, so that a
/// crate using them needs no serde of its own.
#[doc(hidden)]
pub mod __private {
    pub use crate::open_enum::WireTable;
    pub use crate::struct_de::{
        FromFields, deserialize, next_field, optional, read, required, skip,
    };
    pub use crate::value_enum::ValueTable;
    pub use serde_core as serde;
    pub use serde_json;
}

#[cfg(test)]
mod tests {
    #[cfg(feature = "client")]
    #[test]
    fn forms_send_arrays_as_repeated_keys_and_objects_as_json() {
        let body = super::Body::form(
            "application/x-www-form-urlencoded",
            &serde_json::json!({"a": ["x y", 2, null, true, {"k": [1]}], "b": null, "c": 1.5, "d": {"e": "f g"}, "h": [[1]]}),
        );
        let bytes = body.map(|body| body.bytes).unwrap_or_default();
        let mut pairs: Vec<&str> = std::str::from_utf8(&bytes)
            .unwrap_or("")
            .split('&')
            .collect();
        pairs.sort_unstable();
        assert_eq!(
            pairs,
            [
                "a=%7B%22k%22%3A%5B1%5D%7D",
                "a=2",
                "a=true",
                "a=x%20y",
                "c=1.5",
                "d=%7B%22e%22%3A%22f%20g%22%7D",
                "h=%5B1%5D"
            ]
        );
        for nested in [serde_json::json!([1, 2]), serde_json::json!("a")] {
            let refused = super::Body::form("application/x-www-form-urlencoded", &nested);
            assert!(
                matches!(&refused, Err(Error::InvalidRequest(message)) if message.contains("cannot be form-encoded")),
                "{nested}: {refused:?}"
            );
        }
    }

    #[cfg(feature = "client")]
    #[test]
    fn cookies_are_one_header_of_encoded_values() {
        assert_eq!(super::cookie_header(&[]).ok(), Some(None));
        let header = super::cookie_header(&[("a", "1; b=2".to_owned()), ("c", "é,\"".to_owned())]);
        assert_eq!(
            header.ok().flatten().as_deref(),
            Some("a=1%3B%20b%3D2; c=%C3%A9%2C%22")
        );
        for name in ["", "a b", "a;b", "é"] {
            assert!(
                super::cookie_header(&[(name, "v".to_owned())]).is_err(),
                "{name:?}"
            );
        }
    }

    use super::*;

    #[cfg(feature = "client")]
    fn encode(value: &str) -> String {
        match encode_path_segment("model_id", value) {
            Ok(encoded) => encoded,
            Err(err) => panic!("{value:?} refused: {err}"),
        }
    }

    #[cfg(feature = "client")]
    #[test]
    fn path_segment_keeps_unreserved() {
        assert_eq!(encode("abcXYZ019-._~"), "abcXYZ019-._~");
        // Dots are only dangerous as a whole segment.
        assert_eq!(encode("..."), "...");
        assert_eq!(encode("a..b"), "a..b");
    }

    #[cfg(feature = "client")]
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

    #[cfg(feature = "client")]
    #[test]
    fn path_segment_encodes_unicode() {
        assert_eq!(encode("é"), "%C3%A9");
        assert_eq!(encode("🦀"), "%F0%9F%A6%80");
    }

    #[cfg(feature = "client")]
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

    #[cfg(feature = "client")]
    #[test]
    fn bodies_keep_their_media_type() {
        #[derive(serde::Serialize)]
        struct Form<'a> {
            name: &'a str,
            count: u32,
        }
        let form = Body::form(
            "application/x-www-form-urlencoded",
            &Form {
                name: "a b&c",
                count: 2,
            },
        );
        assert_eq!(
            form.ok(),
            Some(Body {
                content_type: "application/x-www-form-urlencoded".into(),
                bytes: b"name=a%20b%26c&count=2".to_vec(),
            })
        );
        let not_an_object = Body::form("application/x-www-form-urlencoded", &[1, 2]);
        match not_an_object {
            Err(Error::InvalidRequest(message)) => {
                assert!(
                    message.starts_with("request body cannot be form-encoded: "),
                    "{message}"
                );
            }
            other => panic!("a list as a form gave {other:?}"),
        }
        assert_eq!(
            Body::text("text/plain", "hé"),
            Body {
                content_type: "text/plain".into(),
                bytes: "hé".as_bytes().to_vec(),
            }
        );
        assert_eq!(
            Body::bytes("application/octet-stream", &[0u8, 255][..]),
            Body {
                content_type: "application/octet-stream".into(),
                bytes: vec![0, 255],
            }
        );
        assert_eq!(
            Body::json("application/problem+json", &serde_json::json!({"x": 1})).ok(),
            Some(Body {
                content_type: "application/problem+json".into(),
                bytes: br#"{"x":1}"#.to_vec(),
            })
        );
    }

    #[test]
    fn json_body_serialises_and_reports_errors() {
        let body = json_body(&serde_json::json!({"name": "x"})).ok();
        assert_eq!(body.as_deref(), Some(&br#"{"name":"x"}"#[..]));

        let mut bad = std::collections::BTreeMap::new();
        bad.insert((1, 2), 3);
        assert!(matches!(json_body(&bad), Err(Error::InvalidRequest(_))));
    }

    #[derive(Debug, Clone, PartialEq)]
    enum Level {
        Low,
        High,
        Unknown(String),
    }
    crate::open_enum_impls!(Level, Unknown, [Low = "LOW", High = "HIGH"]);

    /// Variants named like `Result`'s and `FromStr`'s own items (a Rust-style `ok`/`err` enum,
    /// as dropshot documents write): the impls still compile (`Self::Err` was ambiguous).
    #[derive(Debug, Clone, PartialEq)]
    enum Outcome {
        Ok,
        Err,
        Unknown(String),
    }
    crate::open_enum_impls!(Outcome, Unknown, [Ok = "ok", Err = "err"]);

    #[test]
    fn variants_named_err_and_ok_parse() {
        assert_eq!("err".parse::<Outcome>(), Ok(Outcome::Err));
        assert_eq!("ok".parse::<Outcome>(), Ok(Outcome::Ok));
        assert_eq!(
            "other".parse::<Outcome>(),
            Ok(Outcome::Unknown("other".into()))
        );
        assert_eq!(Outcome::KNOWN, &[Outcome::Ok, Outcome::Err]);
        assert!(Outcome::Unknown("other".into()).is_unknown() && !Outcome::Err.is_unknown());
    }

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Status {
        V200,
        VMinus1,
        Unknown(i64),
    }
    crate::open_int_enum_impls!(Status, Unknown, [V200 = 200, VMinus1 = -1]);

    #[test]
    fn open_int_enums_round_trip_known_and_unknown_values() {
        assert_eq!(Status::KNOWN, &[Status::V200, Status::VMinus1]);
        assert_eq!(
            serde_json::from_str::<Status>("-1").ok(),
            Some(Status::VMinus1)
        );
        assert_eq!(
            serde_json::from_str::<Status>("7").ok(),
            Some(Status::Unknown(7))
        );
        assert_eq!(
            serde_json::to_string(&Status::V200).ok().as_deref(),
            Some("200")
        );
        assert_eq!(
            serde_json::to_string(&Status::Unknown(7)).ok().as_deref(),
            Some("7")
        );
        assert_eq!("200".parse::<Status>(), Ok(Status::V200));
        assert_eq!(i64::from(Status::VMinus1), -1);
        assert_eq!(Status::Unknown(9).to_string(), "9");
        assert!(Status::Unknown(9).is_unknown() && !Status::V200.is_unknown());
        assert!(serde_json::from_str::<Status>("\"200\"").is_err());
        assert!(serde_json::from_str::<Status>("2.5").is_err());
    }

    #[test]
    fn open_enums_round_trip_known_and_unknown_values() {
        assert_eq!(Level::KNOWN, &[Level::Low, Level::High]);
        assert_eq!(
            serde_json::from_str::<Level>("\"HIGH\"").ok(),
            Some(Level::High)
        );
        let new: Option<Level> = serde_json::from_str("\"EXTREME\"").ok();
        assert_eq!(new, Some(Level::Unknown("EXTREME".to_owned())));
        assert_eq!(
            serde_json::to_string(&Level::Unknown("EXTREME".to_owned()))
                .ok()
                .as_deref(),
            Some("\"EXTREME\"")
        );
        assert_eq!("LOW".parse::<Level>(), Ok(Level::Low));
        assert_eq!(Level::from("x").to_string(), "x");
        assert!(Level::from("x").is_unknown() && !Level::Low.is_unknown());
        assert!(serde_json::from_str::<Level>("1").is_err());
    }
}
