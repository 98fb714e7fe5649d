//! Text responses: a 2xx body the document says is text (`text/*`, or any media type whose
//! schema is a string that is not binary), decoded by the `charset` parameter of the response's
//! `Content-Type` (RFC 9110 §8.3.2; UTF-8 when it names none, as RFC 6838 §4.2.1 asks new text
//! types to default). Bytes that are not text in that charset are an error, never replaced.

use std::fmt;

use reqwest::header::{CONTENT_TYPE, HeaderMap};

use crate::server_text::ServerText;

/// A 2xx text body that is not text in its charset, or names a charset no decoder knows. The
/// call's error is [`Error::InvalidResponse`](crate::Error::InvalidResponse) holding it (read
/// it back with [`InvalidResponse::downcast_ref`](crate::InvalidResponse::downcast_ref)); the
/// exact bytes are there with the operation's raw request.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UndecodableText {
    /// The charset the body was decoded by, as the response named it (`utf-8` when it named
    /// none), scrubbed of every live key.
    pub charset: ServerText,
    /// What went wrong.
    pub reason: UndecodableReason,
}

/// Why a text body could not be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum UndecodableReason {
    /// The charset is not one WHATWG's Encoding Standard names.
    UnknownCharset,
    /// The bytes are not text in the charset: the first `valid_up_to` bytes are (for UTF-8;
    /// `None` for a charset whose decoder does not say).
    Malformed {
        /// How many leading bytes are valid.
        valid_up_to: Option<usize>,
    },
}

impl fmt::Display for UndecodableText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.reason {
            UndecodableReason::UnknownCharset => {
                write!(
                    f,
                    "the text response names an unknown charset {:?}",
                    self.charset.as_str()
                )
            }
            UndecodableReason::Malformed {
                valid_up_to: Some(valid),
            } => write!(
                f,
                "the text response is not valid {} (from byte {valid})",
                self.charset
            ),
            UndecodableReason::Malformed { valid_up_to: None } => {
                write!(f, "the text response is not valid {}", self.charset)
            }
        }
    }
}

impl std::error::Error for UndecodableText {}

/// The charset a `Content-Type` names (its `charset` parameter, unquoted), if any.
fn charset_of(headers: &HeaderMap) -> Option<String> {
    let content_type = headers.get(CONTENT_TYPE)?.to_str().ok()?;
    content_type.split(';').skip(1).find_map(|parameter| {
        let (name, value) = parameter.split_once('=')?;
        name.trim().eq_ignore_ascii_case("charset").then(|| {
            let value = value.trim();
            value
                .strip_prefix('"')
                .and_then(|quoted| quoted.strip_suffix('"'))
                .unwrap_or(value)
                .to_owned()
        })
    })
}

/// `body` as text, by the charset `headers` name (UTF-8 when they name none).
///
/// # Errors
///
/// [`UndecodableText`] when the charset is unknown or the bytes are not text in it.
pub(crate) fn decode_text(headers: &HeaderMap, body: Vec<u8>) -> Result<String, UndecodableText> {
    let label = charset_of(headers);
    let undecodable = |reason| UndecodableText {
        charset: ServerText::new(label.as_deref().unwrap_or("utf-8")),
        reason,
    };
    let encoding = match &label {
        None => encoding_rs::UTF_8,
        Some(label) => encoding_rs::Encoding::for_label(label.as_bytes())
            .ok_or_else(|| undecodable(UndecodableReason::UnknownCharset))?,
    };
    if encoding == encoding_rs::UTF_8 {
        return String::from_utf8(body).map_err(|error| {
            undecodable(UndecodableReason::Malformed {
                valid_up_to: Some(error.utf8_error().valid_up_to()),
            })
        });
    }
    encoding
        .decode_without_bom_handling_and_without_replacement(&body)
        .map(std::borrow::Cow::into_owned)
        .ok_or_else(|| undecodable(UndecodableReason::Malformed { valid_up_to: None }))
}

#[cfg(test)]
mod tests {
    use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderValue};

    use super::{UndecodableReason, decode_text};

    fn headers(content_type: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(value) = content_type {
            headers.insert(
                CONTENT_TYPE,
                HeaderValue::from_str(value).unwrap_or_else(|e| panic!("{e}")),
            );
        }
        headers
    }

    /// A case: the response's `Content-Type`, its body, and what it decodes as (or why not).
    type Case<'a> = (
        Option<&'a str>,
        &'a [u8],
        Result<&'a str, UndecodableReason>,
    );

    /// Each charset case: the body's bytes and what they decode as (or why not).
    #[test]
    fn text_is_decoded_by_its_charset() {
        let cases: &[Case<'_>] = &[
            (None, "héllo".as_bytes(), Ok("héllo")),
            (Some("text/plain"), "héllo".as_bytes(), Ok("héllo")),
            (
                Some("text/plain; charset=utf-8"),
                "héllo".as_bytes(),
                Ok("héllo"),
            ),
            (
                Some("text/plain;Charset=\"UTF-8\""),
                "héllo".as_bytes(),
                Ok("héllo"),
            ),
            (
                Some("text/csv; header=present; charset=ISO-8859-1"),
                b"h\xe9llo",
                Ok("héllo"),
            ),
            (Some("text/plain; charset=latin1"), b"\xe9", Ok("é")),
            (Some("text/plain; charset=windows-1252"), b"\x80", Ok("€")),
            (
                Some("text/plain; charset=utf-16le"),
                b"h\x00\xe9\x00",
                Ok("hé"),
            ),
            (Some("text/plain; charset=shift_jis"), b"\x82\xa0", Ok("あ")),
            (Some("application/csv"), b"", Ok("")),
            (
                None,
                b"ab\xffcd",
                Err(UndecodableReason::Malformed {
                    valid_up_to: Some(2),
                }),
            ),
            (
                Some("text/plain; charset=utf-8"),
                b"h\xe9llo",
                Err(UndecodableReason::Malformed {
                    valid_up_to: Some(1),
                }),
            ),
            (
                Some("text/plain; charset=shift_jis"),
                b"\x82",
                Err(UndecodableReason::Malformed { valid_up_to: None }),
            ),
            (
                Some("text/plain; charset=klingon"),
                b"x",
                Err(UndecodableReason::UnknownCharset),
            ),
        ];
        for (content_type, body, expected) in cases {
            let got = decode_text(&headers(*content_type), body.to_vec());
            let got = got.as_deref().map_err(|error| error.reason);
            assert_eq!(got, *expected, "{content_type:?} {body:?}");
        }
    }

    #[test]
    fn the_error_names_the_charset() {
        let error = decode_text(&headers(Some("text/plain; charset=klingon")), vec![1]);
        assert_eq!(
            error.map_err(|error| error.to_string()),
            Err("the text response names an unknown charset \"klingon\"".to_owned())
        );
        let error = decode_text(&headers(None), vec![b'a', 0xff]);
        assert_eq!(
            error.map_err(|error| error.to_string()),
            Err("the text response is not valid utf-8 (from byte 1)".to_owned())
        );
    }
}
