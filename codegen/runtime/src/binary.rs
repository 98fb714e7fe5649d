//! Bytes a document types as `format: binary` (or, in OpenAPI 3.1, a string with a
//! `contentMediaType`): a file's content, with the file name and media type a multipart part
//! sends it under. Sent as raw bytes in a multipart file part, never through text.

use std::cell::RefCell;
use std::fmt;

use serde_core::{Deserialize, Deserializer, Serialize, Serializer};

/// Raw bytes: a file to upload or a binary value read from a response.
///
/// In a `multipart/form-data` request body it is a file part of its own (an array of them one
/// part per item), sent byte for byte with its [`file_name`](Binary::file_name) (the property's
/// name if none) and [`content_type`](Binary::content_type) (the document's `encoding` for the
/// property if none, else `application/octet-stream`). In a JSON body, which only holds text,
/// it is written as a string when its bytes are UTF-8, and refused otherwise.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Binary {
    bytes: Vec<u8>,
    file_name: Option<String>,
    content_type: Option<String>,
}

impl Binary {
    /// The bytes, with no file name or media type of their own.
    pub fn new(bytes: impl Into<Vec<u8>>) -> Self {
        Binary {
            bytes: bytes.into(),
            file_name: None,
            content_type: None,
        }
    }

    /// Sent with this file name (a multipart part's `filename`).
    #[must_use]
    pub fn with_file_name(mut self, file_name: impl Into<String>) -> Self {
        self.file_name = Some(file_name.into());
        self
    }

    /// Sent with this media type (a multipart part's `Content-Type`), e.g. `image/png`.
    #[must_use]
    pub fn with_content_type(mut self, content_type: impl Into<String>) -> Self {
        self.content_type = Some(content_type.into());
        self
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes, owned.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The file name given, if any.
    pub fn file_name(&self) -> Option<&str> {
        self.file_name.as_deref()
    }

    /// The media type given, if any.
    pub fn content_type(&self) -> Option<&str> {
        self.content_type.as_deref()
    }
}

/// The length, name and media type: a file's content is no use in a log, and may be large.
impl fmt::Debug for Binary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Binary")
            .field("len", &self.bytes.len())
            .field("file_name", &self.file_name)
            .field("content_type", &self.content_type)
            .finish()
    }
}

impl From<Vec<u8>> for Binary {
    fn from(bytes: Vec<u8>) -> Self {
        Binary::new(bytes)
    }
}

impl From<&[u8]> for Binary {
    fn from(bytes: &[u8]) -> Self {
        Binary::new(bytes)
    }
}

impl<const N: usize> From<&[u8; N]> for Binary {
    fn from(bytes: &[u8; N]) -> Self {
        Binary::new(bytes.as_slice())
    }
}

impl From<String> for Binary {
    fn from(text: String) -> Self {
        Binary::new(text)
    }
}

impl From<&str> for Binary {
    fn from(text: &str) -> Self {
        Binary::new(text)
    }
}

impl From<Binary> for Vec<u8> {
    fn from(binary: Binary) -> Self {
        binary.bytes
    }
}

impl Serialize for Binary {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if let Some(marker) = CAPTURE
            .with_borrow_mut(|capture| capture.as_mut().map(|capture| capture.keep(self.clone())))
        {
            return serializer.serialize_str(&marker);
        }
        match std::str::from_utf8(&self.bytes) {
            Ok(text) => serializer.serialize_str(text),
            Err(_) => Err(serde_core::ser::Error::custom(
                "binary content that is not UTF-8 cannot be written as JSON text",
            )),
        }
    }
}

impl<'de> Deserialize<'de> for Binary {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Binary::from)
    }
}

thread_local! {
    /// While a multipart body is encoded: the values met so far, each written as a marker.
    static CAPTURE: RefCell<Option<Capture>> = const { RefCell::new(None) };
}

/// The [`Binary`] values a serialization met, by the marker each was written as.
pub(crate) struct Capture {
    /// Starts every marker: a NUL and a random number, which no text a caller writes holds by
    /// chance.
    prefix: String,
    kept: Vec<Option<Binary>>,
}

impl Capture {
    fn keep(&mut self, binary: Binary) -> String {
        self.kept.push(Some(binary));
        format!("{}{}", self.prefix, self.kept.len() - 1)
    }

    /// The value a marker stands for, taken out (each is sent once).
    #[cfg(feature = "client")]
    pub(crate) fn take(&mut self, marker: &str) -> Option<Binary> {
        let index: usize = marker.strip_prefix(&self.prefix)?.parse().ok()?;
        self.kept.get_mut(index)?.take()
    }

    /// Whether `text` is a marker of this capture.
    #[cfg(feature = "client")]
    pub(crate) fn is_marker(&self, text: &str) -> bool {
        text.strip_prefix(&self.prefix)
            .is_some_and(|index| index.parse::<usize>().is_ok())
    }
}

/// Runs `serialize` with every [`Binary`] it meets written as a marker string, and hands back
/// what it wrote with the values by marker. Synchronous, so nothing else serializes on this
/// thread meanwhile; the capture is cleared even if `serialize` panics.
#[cfg(feature = "client")]
pub(crate) fn capture<T>(serialize: impl FnOnce() -> T) -> (T, Capture) {
    struct Clear;
    impl Drop for Clear {
        fn drop(&mut self) {
            CAPTURE.with_borrow_mut(|capture| *capture = None);
        }
    }
    let random = {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u8(0);
        hasher.finish()
    };
    let prefix = format!("\u{0}baseten-binary-{random:016x}:");
    CAPTURE.with_borrow_mut(|capture| {
        *capture = Some(Capture {
            prefix,
            kept: Vec::new(),
        });
    });
    let clear = Clear;
    let written = serialize();
    let taken = CAPTURE.with_borrow_mut(Option::take);
    drop(clear);
    let capture = taken.unwrap_or(Capture {
        prefix: String::new(),
        kept: Vec::new(),
    });
    (written, capture)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "client")]
    #[test]
    fn json_holds_text_only_and_a_capture_holds_any_bytes() {
        let text = Binary::new("héllo");
        assert_eq!(
            serde_json::to_value(&text).ok(),
            Some(serde_json::json!("héllo"))
        );
        let raw = Binary::new(vec![0xff, 0x00, 0xfe]).with_file_name("a.bin");
        assert!(serde_json::to_value(&raw).is_err());
        let (written, mut capture) = capture(|| serde_json::to_value([&raw, &text]));
        let Ok(serde_json::Value::Array(markers)) = written else {
            panic!("{written:?}")
        };
        let markers: Vec<&str> = markers
            .iter()
            .filter_map(serde_json::Value::as_str)
            .collect();
        assert!(markers.iter().all(|marker| capture.is_marker(marker)));
        assert!(!capture.is_marker("héllo"));
        assert_eq!(capture.take(markers[0]), Some(raw.clone()));
        assert_eq!(capture.take(markers[0]), None);
        assert_eq!(capture.take(markers[1]), Some(text));
        // Outside a capture, markers are not written.
        assert!(serde_json::to_value(&raw).is_err());
        let read: Binary = serde_json::from_str("\"abc\"").unwrap_or_default();
        assert_eq!(read.bytes(), b"abc");
        assert_eq!(
            format!("{raw:?}"),
            "Binary { len: 3, file_name: Some(\"a.bin\"), content_type: None }"
        );
    }
}
