//! Serde for the generated tagged unions (a discriminated `oneOf`): a value is read whole, its
//! tag property picks the variant, and a variant is written as its payload with the tag added.
//! Kept here so that each generated union is a `match` over its tags and nothing more.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A union value read whole, before its tag picks the variant.
#[derive(Debug, Clone, PartialEq)]
pub struct TaggedValue(serde_json::Value);

impl<'de> Deserialize<'de> for TaggedValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(deserializer).map(TaggedValue)
    }
}

impl TaggedValue {
    /// The value's tag: the string at `property`, if it is an object that has one.
    pub fn tag(&self, property: &str) -> Option<&str> {
        tag_of(&self.0, property)
    }

    /// The value as the variant's payload type; an error in the deserializer's own error type,
    /// so the caller's path-tracking still places it.
    pub fn decode<T: DeserializeOwned, E: serde::de::Error>(self) -> Result<T, E> {
        serde_json::from_value(self.0).map_err(E::custom)
    }

    /// The value itself, for the fallback variant.
    pub fn into_value(self) -> serde_json::Value {
        self.0
    }
}

/// The string at `property` of `value`, if `value` is an object that has one.
pub fn tag_of<'v>(value: &'v serde_json::Value, property: &str) -> Option<&'v str> {
    value.get(property).and_then(serde_json::Value::as_str)
}

/// Writes `payload` with `property` set to `tag` (unless the payload carries the property
/// itself: its own value is kept).
pub fn serialize<S: Serializer, T: Serialize + ?Sized>(
    serializer: S,
    property: &str,
    tag: &str,
    payload: &T,
) -> Result<S::Ok, S::Error> {
    let mut value = serde_json::to_value(payload).map_err(serde::ser::Error::custom)?;
    if let serde_json::Value::Object(object) = &mut value {
        object
            .entry(property)
            .or_insert_with(|| serde_json::Value::from(tag));
    }
    value.serialize(serializer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Payload {
        id: i64,
    }

    #[test]
    fn the_tag_is_added_unless_the_payload_has_it() {
        let written = serialize(
            serde_json::value::Serializer,
            "kind",
            "a",
            &Payload { id: 1 },
        );
        assert_eq!(written.unwrap(), json!({"id": 1, "kind": "a"}));
        let own = json!({"kind": "mine", "id": 2});
        let written = serialize(serde_json::value::Serializer, "kind", "a", &own);
        assert_eq!(written.unwrap(), json!({"kind": "mine", "id": 2}));
        // Not an object: written as it is.
        let written = serialize(serde_json::value::Serializer, "kind", "a", &3);
        assert_eq!(written.unwrap(), json!(3));
    }

    #[test]
    fn a_read_value_gives_its_tag_and_decodes_as_a_payload() {
        let value: TaggedValue = serde_json::from_value(json!({"kind": "a", "id": 7})).unwrap();
        assert_eq!(value.tag("kind"), Some("a"));
        assert_eq!(value.tag("other"), None);
        let payload: Result<Payload, serde_json::Error> = value.clone().decode();
        assert_eq!(payload.unwrap(), Payload { id: 7 });
        assert_eq!(value.into_value(), json!({"kind": "a", "id": 7}));
        let not_tagged: TaggedValue = serde_json::from_value(json!({"kind": 1})).unwrap();
        assert_eq!(not_tagged.tag("kind"), None);
        let bad: Result<Payload, serde_json::Error> = not_tagged.decode();
        assert!(bad.unwrap_err().to_string().contains("missing field `id`"));
    }
}
