//! OpenAPI 3.1's content keywords on strings, as the 3.0 formats they replace: a
//! `contentMediaType` with no `contentEncoding` is raw bytes (`format: binary`, a file in a
//! multipart body), a `contentEncoding` (`base64`) is encoded text (`format: byte`).

use serde_json::{Map, Value};

/// Gives a string schema with content keywords the 3.0 `format` they stand for, unless it has a
/// format of its own.
pub(super) fn content_formats(object: &mut Map<String, Value>) {
    if object.contains_key("format") {
        return;
    }
    let typed_string = match object.get("type") {
        None => true,
        Some(ty) => ty.as_str() == Some("string"),
    };
    if !typed_string {
        return;
    }
    let format = if object.contains_key("contentEncoding") {
        "byte"
    } else if object.contains_key("contentMediaType") {
        "binary"
    } else {
        return;
    };
    object.insert("type".into(), Value::String("string".into()));
    object.insert("format".into(), Value::String(format.into()));
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

    #[test]
    fn content_keywords_are_the_formats_they_replace() {
        assert_eq!(
            lowered(json!({"type": "string", "contentMediaType": "image/png"})),
            json!({"type": "string", "contentMediaType": "image/png", "format": "binary"})
        );
        assert_eq!(
            lowered(json!({"contentMediaType": "application/pdf"})),
            json!({"contentMediaType": "application/pdf", "type": "string", "format": "binary"})
        );
        assert_eq!(
            lowered(
                json!({"type": "string", "contentEncoding": "base64", "contentMediaType": "image/png"})
            ),
            json!({"type": "string", "contentEncoding": "base64", "contentMediaType": "image/png", "format": "byte"})
        );
        for kept in [
            json!({"type": "string", "format": "uri", "contentMediaType": "text/plain"}),
            json!({"type": "object", "contentMediaType": "application/json"}),
            json!({"type": "string"}),
        ] {
            assert_eq!(lowered(kept.clone()), kept);
        }
    }
}
