//! OpenAPI 3.1's content keywords on strings, as the 3.0 formats they replace: a
//! `contentMediaType` with no `contentEncoding` is raw bytes (`format: binary`, a file in a
//! multipart body), a `contentEncoding` (`base64`) is encoded text (`format: byte`).

use serde_json::{Map, Value};

/// Where the lowered schema keeps a raw `contentMediaType` (the 3.0 model has no keyword for it,
/// and keeps only extensions): a multipart file part's media type when the document's
/// `encoding` names none.
pub(crate) const MEDIA_TYPE_EXTENSION: &str = "x-content-media-type";

/// Writes out an `encoding`'s `explode` where it is `form`'s default (`true`): the 3.0 model
/// reads an absent `explode` as `false`, whatever the style.
pub(super) fn default_explode(encoding: &mut Value) {
    if let Value::Object(encoding) = encoding
        && encoding.get("style").and_then(Value::as_str) == Some("form")
        && !encoding.contains_key("explode")
    {
        encoding.insert("explode".into(), Value::Bool(true));
    }
}

/// Gives a string schema with content keywords the 3.0 `format` they stand for, unless it has a
/// format of its own; the media type of raw bytes (`format: binary`, a `contentMediaType` with
/// no `contentEncoding`) is kept as [`MEDIA_TYPE_EXTENSION`].
pub(super) fn content_formats(object: &mut Map<String, Value>) {
    let typed_string = match object.get("type") {
        None => true,
        Some(ty) => ty.as_str() == Some("string"),
    };
    if typed_string && !object.contains_key("format") {
        let format = if object.contains_key("contentEncoding") {
            Some("byte")
        } else if object.contains_key("contentMediaType") {
            Some("binary")
        } else {
            None
        };
        if let Some(format) = format {
            object.insert("type".into(), Value::String("string".into()));
            object.insert("format".into(), Value::String(format.into()));
        }
    }
    if object.get("format").and_then(Value::as_str) == Some("binary")
        && let Some(Value::String(media_type)) = object.get("contentMediaType")
    {
        let media_type = Value::String(media_type.clone());
        object.insert(MEDIA_TYPE_EXTENSION.into(), media_type);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lowered(schema: Value) -> Value {
        let Value::Object(mut object) = schema else {
            return Value::Null;
        };
        content_formats(&mut object);
        Value::Object(object)
    }

    /// Only a `form` encoding without `explode` gets `form`'s default written out.
    #[test]
    fn form_encodings_explode_by_default() {
        let defaulted = |mut encoding: Value| {
            default_explode(&mut encoding);
            encoding
        };
        assert_eq!(
            defaulted(json!({"style": "form"})),
            json!({"style": "form", "explode": true})
        );
        for kept in [
            json!({"style": "form", "explode": false}),
            json!({"style": "deepObject"}),
            json!({"style": "pipeDelimited"}),
            json!({"explode": false}),
            json!({"contentType": "text/plain"}),
            json!("form"),
        ] {
            assert_eq!(defaulted(kept.clone()), kept);
        }
    }

    #[test]
    fn content_keywords_are_the_formats_they_replace() {
        assert_eq!(
            lowered(json!({"type": "string", "contentMediaType": "image/png"})),
            json!({"type": "string", "contentMediaType": "image/png", "format": "binary", "x-content-media-type": "image/png"})
        );
        assert_eq!(
            lowered(json!({"contentMediaType": "application/pdf"})),
            json!({"contentMediaType": "application/pdf", "type": "string", "format": "binary", "x-content-media-type": "application/pdf"})
        );
        assert_eq!(
            lowered(
                json!({"type": "string", "contentEncoding": "base64", "contentMediaType": "image/png"})
            ),
            json!({"type": "string", "contentEncoding": "base64", "contentMediaType": "image/png", "format": "byte"})
        );
        // A file's media type beside `format: binary` is kept too.
        assert_eq!(
            lowered(json!({"type": "string", "format": "binary", "contentMediaType": "audio/wav"})),
            json!({"type": "string", "format": "binary", "contentMediaType": "audio/wav", "x-content-media-type": "audio/wav"})
        );
        for kept in [
            json!({"type": "string", "format": "uri", "contentMediaType": "text/plain"}),
            json!({"type": "string", "format": "binary", "contentMediaType": 3}),
            json!({"type": "object", "contentMediaType": "application/json"}),
            json!({"type": "string"}),
        ] {
            assert_eq!(lowered(kept.clone()), kept);
        }
    }
}
