//! `multipart/form-data` request bodies: a part per property, files ([`Binary`] values, or a
//! list of them) sent byte for byte with their file name and media type.

use std::borrow::Cow;

use crate::binary::{Binary, Capture, capture};
use crate::error::Error;
use crate::support::Body;

/// The media type of a file part nothing else names.
const OCTET_STREAM: &str = "application/octet-stream";

impl Body {
    /// `value` (an object) as `multipart/form-data`, encoded here rather than by reqwest's
    /// `multipart::Form` so that the body is plain bytes a retry can send again. One part per
    /// property that is not `null`, in the order `serde_json` keeps an object's keys (the
    /// struct's field order when its `preserve_order` feature is on, as in this workspace;
    /// sorted otherwise):
    /// - a [`Binary`] as a file: its bytes as they are, `filename` its own file name or the
    ///   property's name, `Content-Type` its own media type, or the one `content_types` gives
    ///   the property (the document's `encoding`), or `application/octet-stream`;
    /// - a list of [`Binary`] values as one such file part per item, under the same name;
    /// - a string property named in `files` (text typed as a file) as a file of its UTF-8 bytes;
    /// - any other string as `text/plain; charset=utf-8`, a number or boolean as its JSON text
    ///   in `text/plain`, an object or array as `application/json`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] if `value` is not an object, a property named in `files` is
    /// neither a string nor [`Binary`], or bytes stand inside an object or a list of other
    /// values (a JSON part holds text only).
    pub fn multipart<T: serde_core::Serialize + ?Sized>(
        content_type: &'static str,
        value: &T,
        files: &[&str],
        content_types: &[(&str, &str)],
    ) -> Result<Body, Error> {
        let (value, mut binaries) = capture(|| serde_json::to_value(value));
        let value = value.map_err(|error| {
            Error::InvalidRequest(format!("request body cannot be encoded: {error}"))
        })?;
        let serde_json::Value::Object(object) = value else {
            return Err(Error::InvalidRequest(
                "a multipart/form-data request body must be an object".into(),
            ));
        };
        let media_type_of = |name: &str| {
            content_types
                .iter()
                .find(|(property, _)| *property == name)
                .map(|(_, media_type)| *media_type)
        };
        let mut parts: Vec<(String, Vec<u8>)> = Vec::new();
        for (name, value) in &object {
            let escaped = escape_part_name(name);
            let default_type = media_type_of(name);
            match value {
                serde_json::Value::Null => {}
                serde_json::Value::String(marker) if binaries.is_marker(marker) => {
                    let binary = take(&mut binaries, marker)?;
                    parts.push(file_part(&escaped, name, binary, default_type));
                }
                serde_json::Value::Array(items)
                    if !items.is_empty()
                        && items
                            .iter()
                            .all(|item| item.as_str().is_some_and(|m| binaries.is_marker(m))) =>
                {
                    for marker in items.iter().filter_map(serde_json::Value::as_str) {
                        let binary = take(&mut binaries, marker)?;
                        parts.push(file_part(&escaped, name, binary, default_type));
                    }
                }
                _ if holds_marker(value, &binaries) => {
                    return Err(Error::InvalidRequest(format!(
                        "multipart property {name:?} holds bytes inside a JSON value; only a \
                         file or a list of files is sent as bytes"
                    )));
                }
                serde_json::Value::String(text) if files.contains(&name.as_str()) => {
                    let binary = Binary::new(text.as_bytes());
                    parts.push(file_part(&escaped, name, binary, default_type));
                }
                _ if files.contains(&name.as_str()) => {
                    return Err(Error::InvalidRequest(format!(
                        "multipart file property {name:?} is not a string or bytes"
                    )));
                }
                serde_json::Value::String(text) => parts.push((
                    format!(
                        "Content-Disposition: form-data; name=\"{escaped}\"\r\n\
                         Content-Type: text/plain; charset=utf-8\r\n"
                    ),
                    text.as_bytes().to_vec(),
                )),
                serde_json::Value::Bool(_) | serde_json::Value::Number(_) => parts.push((
                    format!(
                        "Content-Disposition: form-data; name=\"{escaped}\"\r\n\
                         Content-Type: text/plain\r\n"
                    ),
                    value.to_string().into_bytes(),
                )),
                serde_json::Value::Array(_) | serde_json::Value::Object(_) => parts.push((
                    format!(
                        "Content-Disposition: form-data; name=\"{escaped}\"\r\n\
                         Content-Type: application/json\r\n"
                    ),
                    value.to_string().into_bytes(),
                )),
            }
        }
        let boundary = multipart_boundary(&parts)?;
        let mut bytes = Vec::new();
        for (headers, content) in &parts {
            bytes.extend_from_slice(format!("--{boundary}\r\n{headers}\r\n").as_bytes());
            bytes.extend_from_slice(content);
            bytes.extend_from_slice(b"\r\n");
        }
        bytes.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        // The document's media type without parameters, and the boundary this body uses.
        let essence = content_type
            .split(';')
            .next()
            .unwrap_or(content_type)
            .trim();
        Ok(Body {
            content_type: Cow::Owned(format!("{essence}; boundary={boundary}")),
            bytes,
        })
    }
}

/// The value a marker stands for; a marker written twice (the same value serialized twice
/// would be two markers) cannot happen, but is an error rather than a panic.
fn take(binaries: &mut Capture, marker: &str) -> Result<Binary, Error> {
    binaries
        .take(marker)
        .ok_or_else(|| Error::InvalidRequest("a multipart file was written twice".into()))
}

/// Whether a marker stands anywhere inside `value`.
fn holds_marker(value: &serde_json::Value, binaries: &Capture) -> bool {
    match value {
        serde_json::Value::String(text) => binaries.is_marker(text),
        serde_json::Value::Array(items) => items.iter().any(|item| holds_marker(item, binaries)),
        serde_json::Value::Object(object) => {
            object.values().any(|item| holds_marker(item, binaries))
        }
        _ => false,
    }
}

/// A file part's headers and content.
fn file_part(
    escaped_name: &str,
    name: &str,
    binary: Binary,
    default_type: Option<&str>,
) -> (String, Vec<u8>) {
    let file_name = escape_part_name(binary.file_name().unwrap_or(name));
    let media_type = [binary.content_type(), default_type]
        .into_iter()
        .flatten()
        .find(|media_type| is_media_type(media_type))
        .unwrap_or(OCTET_STREAM)
        .to_owned();
    (
        format!(
            "Content-Disposition: form-data; name=\"{escaped_name}\"; filename=\"{file_name}\"\r\n\
             Content-Type: {media_type}\r\n"
        ),
        binary.into_bytes(),
    )
}

/// Whether `text` can stand as a part's `Content-Type`: one concrete `type/subtype` (with
/// parameters) of visible ASCII, not a list or a wildcard from a document's `encoding`, and
/// nothing that could end the header.
fn is_media_type(text: &str) -> bool {
    let essence = text.split(';').next().unwrap_or_default().trim();
    let concrete = essence.split_once('/').is_some_and(|(kind, sub)| {
        !kind.is_empty() && !sub.is_empty() && kind != "*" && sub != "*"
    });
    concrete
        && !text.contains(',')
        && text
            .bytes()
            .all(|byte| byte == b' ' || byte.is_ascii_graphic())
}

/// A part or file name as a quoted-string in `Content-Disposition`, escaped as browsers do (the
/// HTML form-data encoding): `"`, CR and LF percent-encoded, so text from a spec or a caller can
/// never end the header or start another.
fn escape_part_name(name: &str) -> String {
    name.replace('"', "%22")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A random boundary that no part's content holds (a delimiter inside a part would split it);
/// a few tries, since a 128-bit random string colliding is already next to impossible.
fn multipart_boundary(parts: &[(String, Vec<u8>)]) -> Result<String, Error> {
    for _ in 0..8 {
        let boundary = format!(
            "baseten-{:016x}{:016x}",
            fastrand::u64(..),
            fastrand::u64(..)
        );
        let delimiter = format!("--{boundary}");
        let inside = parts.iter().any(|(_, content)| {
            content
                .windows(delimiter.len())
                .any(|window| window == delimiter.as_bytes())
        });
        if !inside {
            return Ok(boundary);
        }
    }
    Err(Error::InvalidRequest(
        "no multipart boundary found that the body does not contain".into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fields in name order: `serde_json` keeps a struct's order only with `preserve_order`.
    #[derive(serde::Serialize)]
    struct Upload {
        file: Binary,
        label: &'static str,
        pages: Vec<Binary>,
        thumbnail: Option<Binary>,
    }

    fn parts_of(body: &Body) -> (String, Vec<u8>) {
        let boundary = body
            .content_type
            .strip_prefix("multipart/form-data; boundary=")
            .unwrap_or_else(|| panic!("{}", body.content_type))
            .to_owned();
        (boundary, body.bytes.clone())
    }

    #[test]
    fn files_are_sent_byte_for_byte_with_their_name_and_type() {
        let raw: Vec<u8> = vec![0xff, 0x00, b'\r', b'\n', 0x80];
        let upload = Upload {
            label: "scan",
            file: Binary::new(raw.clone()).with_file_name("scan \"1\".pdf"),
            pages: vec![
                Binary::new(vec![1, 2]),
                Binary::new(vec![3]).with_content_type("image/png"),
            ],
            thumbnail: None,
        };
        let body = Body::multipart(
            "multipart/form-data",
            &upload,
            &[],
            &[("file", "application/pdf"), ("pages", "image/*")],
        )
        .unwrap_or_else(|error| panic!("{error}"));
        let (b, bytes) = parts_of(&body);
        let mut expected = format!(
            "--{b}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"scan %221%22.pdf\"\r\n\
             Content-Type: application/pdf\r\n\r\n"
        )
        .into_bytes();
        expected.extend_from_slice(&raw);
        expected.extend_from_slice(
            format!(
                "\r\n--{b}\r\nContent-Disposition: form-data; name=\"label\"\r\n\
                 Content-Type: text/plain; charset=utf-8\r\n\r\nscan\r\n\
                 --{b}\r\nContent-Disposition: form-data; name=\"pages\"; filename=\"pages\"\r\n\
                 Content-Type: application/octet-stream\r\n\r\n\u{1}\u{2}\r\n\
                 --{b}\r\nContent-Disposition: form-data; name=\"pages\"; filename=\"pages\"\r\n\
                 Content-Type: image/png\r\n\r\n\u{3}\r\n--{b}--\r\n"
            )
            .as_bytes(),
        );
        assert_eq!(bytes, expected);
    }

    #[test]
    fn a_multipart_body_escapes_names_and_types_each_part() {
        let value = serde_json::json!({
            "a\"b\r\nX-Injected: 1": "x",
            "file": "raw\u{0}bytes",
            "n": 2,
            "none": null,
            "tags": ["t"],
        });
        let body = Body::multipart(
            "multipart/form-data",
            &value,
            &["file"],
            &[("file", "x\r\ny/z")],
        )
        .unwrap_or_else(|error| panic!("{error}"));
        let (b, bytes) = parts_of(&body);
        let expected = format!(
            "--{b}\r\nContent-Disposition: form-data; name=\"a%22b%0D%0AX-Injected: 1\"\r\n\
             Content-Type: text/plain; charset=utf-8\r\n\r\nx\r\n\
             --{b}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"file\"\r\n\
             Content-Type: application/octet-stream\r\n\r\nraw\u{0}bytes\r\n\
             --{b}\r\nContent-Disposition: form-data; name=\"n\"\r\nContent-Type: text/plain\r\n\r\n2\r\n\
             --{b}\r\nContent-Disposition: form-data; name=\"tags\"\r\n\
             Content-Type: application/json\r\n\r\n[\"t\"]\r\n--{b}--\r\n"
        );
        assert_eq!(String::from_utf8_lossy(&bytes), expected);
        // A fresh boundary per body, and a value that is not an object is refused.
        let again = Body::multipart("multipart/form-data", &value, &["file"], &[])
            .unwrap_or_else(|error| panic!("{error}"));
        assert_ne!(again.content_type, body.content_type);
        assert!(matches!(
            Body::multipart("multipart/form-data", &[1], &[], &[]),
            Err(Error::InvalidRequest(_))
        ));
        assert!(matches!(
            Body::multipart(
                "multipart/form-data",
                &serde_json::json!({"file": 1}),
                &["file"],
                &[]
            ),
            Err(Error::InvalidRequest(_))
        ));
    }

    #[test]
    fn bytes_inside_a_json_part_are_refused() {
        let nested = serde_json::json!({"meta": {"x": 1}});
        assert!(Body::multipart("multipart/form-data", &nested, &[], &[]).is_ok());
        #[derive(serde::Serialize)]
        struct Nested {
            meta: Vec<(i32, Binary)>,
        }
        let nested = Nested {
            meta: vec![(1, Binary::new(vec![0xff]))],
        };
        assert!(matches!(
            Body::multipart("multipart/form-data", &nested, &[], &[]),
            Err(Error::InvalidRequest(message)) if message.contains("inside a JSON value")
        ));
    }

    #[test]
    fn only_one_concrete_media_type_heads_a_part() {
        assert!(is_media_type("image/png"));
        assert!(is_media_type("text/plain; charset=utf-8"));
        for bad in [
            "image/*",
            "*/*",
            "image/png, image/jpeg",
            "png",
            "a/b\r\nX: 1",
            "",
        ] {
            assert!(!is_media_type(bad), "{bad:?}");
        }
    }
}
