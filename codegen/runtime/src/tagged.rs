//! Serde for the generated tagged unions (a discriminated `oneOf`): a value is read whole, its
//! tag property picks the variant, and a variant is written as its payload with the tag added.
//! A union of objects with no tag is read whole too, and the properties only one member holds
//! pick it. Kept here so that each generated union is a `match` over its tags and nothing more.
//! A tag is a string, an integer or a boolean ([`Tag`]), as the members pin it.

use serde_core::de::DeserializeOwned;
use serde_core::{Deserialize, Deserializer, Serialize, Serializer};

/// A kind of value a union's tag property holds: `&str`, `i64` or `bool`.
pub trait Tag<'v>: Sized {
    /// The tag `value` holds, if it is of this kind.
    fn of(value: &'v serde_json::Value) -> Option<Self>;
}

impl<'v> Tag<'v> for &'v str {
    fn of(value: &'v serde_json::Value) -> Option<Self> {
        value.as_str()
    }
}

/// 2^63, the first float past `i64::MAX`.
const I64_BOUND: f64 = 9_223_372_036_854_775_808.0;

/// An integral JSON number: `2` and `2.0` are one number to JSON (and to JSON Schema's `enum`).
impl Tag<'_> for i64 {
    fn of(value: &serde_json::Value) -> Option<Self> {
        let number = value.as_number()?;
        number.as_i64().or_else(|| {
            let float = number.as_f64()?;
            // The bounds are -2^63 and 2^63: every integral float in between is an `i64`, so
            // the cast is exact.
            let fits = float.fract() == 0.0 && (-I64_BOUND..I64_BOUND).contains(&float);
            fits.then_some(float as i64)
        })
    }
}

impl Tag<'_> for bool {
    fn of(value: &serde_json::Value) -> Option<Self> {
        value.as_bool()
    }
}

/// A union value read whole, before its tag picks the variant.
#[derive(Debug, Clone, PartialEq)]
pub struct TaggedValue(serde_json::Value);

impl<'de> Deserialize<'de> for TaggedValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // A union told apart by a property holds objects only: anything else is no member,
        // not an unknown one (a null, say, belongs to the `Option` around the union).
        let value = serde_json::Value::deserialize(deserializer)?;
        if !value.is_object() {
            return Err(serde_core::de::Error::custom(format_args!(
                "expected a JSON object, found {}",
                kind_name(&value)
            )));
        }
        Ok(TaggedValue(value))
    }
}

impl TaggedValue {
    /// The value's tag: the string (integer, boolean) at `property`, if it is an object that
    /// has one of that kind.
    pub fn tag<'v, T: Tag<'v>>(&'v self, property: &str) -> Option<T> {
        tag_of(&self.0, property)
    }

    /// The value as the variant's payload type; an error in the deserializer's own error type,
    /// so the caller's path-tracking still places it.
    pub fn decode<T: DeserializeOwned, E: serde_core::de::Error>(self) -> Result<T, E> {
        serde_json::from_value(self.0).map_err(E::custom)
    }

    /// The value as the variant's payload type, or the value itself where it is not one: for
    /// a tag an heir shares with its base object, whose own values the fallback keeps.
    pub fn decode_or_keep<T: DeserializeOwned>(self) -> Result<T, serde_json::Value> {
        T::deserialize(&self.0).map_err(|_| self.0)
    }

    /// Which member of a union of objects the value is, by the properties it holds: `keys`
    /// lists, per member, the properties only that member holds; the one member with none is
    /// picked when the value holds no other member's. An error when the value is not an object,
    /// holds properties of two members, or of none with no member left to pick.
    pub fn member_by_keys(&self, keys: &[&[&str]]) -> Result<usize, String> {
        let serde_json::Value::Object(object) = &self.0 else {
            return Err(format!(
                "expected a JSON object, found {}",
                kind_name(&self.0)
            ));
        };
        let mut picked: Option<(usize, &str)> = None;
        for (member, member_keys) in keys.iter().enumerate() {
            let Some(key) = member_keys.iter().find(|key| object.contains_key(**key)) else {
                continue;
            };
            if let Some((_, first)) = picked {
                return Err(format!(
                    "the object holds both `{first}` and `{key}`, which belong to different members"
                ));
            }
            picked = Some((member, key));
        }
        if let Some((member, _)) = picked {
            return Ok(member);
        }
        keys.iter()
            .position(|member_keys| member_keys.is_empty())
            .ok_or_else(|| {
                let all: Vec<String> = keys
                    .iter()
                    .flat_map(|k| k.iter().map(|key| format!("`{key}`")))
                    .collect();
                format!(
                    "the object holds none of {}, so no member fits it",
                    all.join(", ")
                )
            })
    }

    /// The value itself, for the fallback variant.
    pub fn into_value(self) -> serde_json::Value {
        self.0
    }
}

/// The string (integer, boolean) at `property` of `value`, if `value` is an object that has
/// one of that kind.
pub fn tag_of<'v, T: Tag<'v>>(value: &'v serde_json::Value, property: &str) -> Option<T> {
    value.get(property).and_then(T::of)
}

/// What kind of JSON value `value` is, for an error message.
fn kind_name(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// Writes `payload` with `property` set to `tag` (unless the payload carries the property
/// itself: its own value is kept).
pub fn serialize<S: Serializer, G: Into<serde_json::Value>, T: Serialize + ?Sized>(
    serializer: S,
    property: &str,
    tag: G,
    payload: &T,
) -> Result<S::Ok, S::Error> {
    let mut value = serde_json::to_value(payload).map_err(serde_core::ser::Error::custom)?;
    if let serde_json::Value::Object(object) = &mut value {
        object.entry(property).or_insert_with(|| tag.into());
    }
    value.serialize(serializer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};
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

    fn pick(value: serde_json::Value, keys: &[&[&str]]) -> Result<usize, String> {
        let value: TaggedValue =
            serde_json::from_value(value).map_err(|refusal| refusal.to_string())?;
        value.member_by_keys(keys)
    }

    #[test]
    fn only_objects_are_tagged_values() {
        for (value, kind) in [
            (json!(null), "null"),
            (json!(true), "a boolean"),
            (json!(2), "a number"),
            (json!("a"), "a string"),
            (json!([]), "an array"),
        ] {
            let refused = serde_json::from_value::<TaggedValue>(value.clone())
                .map(|_| ())
                .map_err(|refusal| refusal.to_string());
            assert_eq!(
                refused,
                Err(format!("expected a JSON object, found {kind}")),
                "{value}"
            );
        }
        assert!(serde_json::from_value::<TaggedValue>(json!({})).is_ok());
    }

    #[test]
    fn a_member_is_picked_by_the_properties_only_it_holds() {
        let keys: &[&[&str]] = &[&["radius"], &["side", "corner"], &[]];
        assert_eq!(pick(json!({"radius": 1}), keys), Ok(0));
        assert_eq!(pick(json!({"corner": 1, "x": 2}), keys), Ok(1));
        assert_eq!(pick(json!({"side": 1}), keys), Ok(1));
        // None of any member's own: the member that has none.
        assert_eq!(pick(json!({"x": 1}), keys), Ok(2));
        assert_eq!(pick(json!({}), keys), Ok(2));
        assert_eq!(
            pick(json!({"radius": 1, "side": 2}), keys),
            Err(
                "the object holds both `radius` and `side`, which belong to different members"
                    .into()
            )
        );
        assert_eq!(
            pick(json!([1]), keys),
            Err("expected a JSON object, found an array".into())
        );
        let all_keyed: &[&[&str]] = &[&["radius"], &["side"]];
        assert_eq!(
            pick(json!({"x": 1}), all_keyed),
            Err("the object holds none of `radius`, `side`, so no member fits it".into())
        );
        assert_eq!(pick(json!({"side": 1}), all_keyed), Ok(1));
        for (value, kind) in [
            (json!(null), "null"),
            (json!(true), "a boolean"),
            (json!(1), "a number"),
            (json!("s"), "a string"),
        ] {
            assert_eq!(
                pick(value, all_keyed),
                Err(format!("expected a JSON object, found {kind}"))
            );
        }
    }

    #[test]
    fn a_read_value_gives_its_tag_and_decodes_as_a_payload() {
        let value: TaggedValue = serde_json::from_value(json!({"kind": "a", "id": 7})).unwrap();
        assert_eq!(value.tag("kind"), Some("a"));
        assert_eq!(value.tag::<&str>("other"), None);
        let payload: Result<Payload, serde_json::Error> = value.clone().decode();
        assert_eq!(payload.unwrap(), Payload { id: 7 });
        assert_eq!(value.into_value(), json!({"kind": "a", "id": 7}));
        let not_tagged: TaggedValue = serde_json::from_value(json!({"kind": 1})).unwrap();
        assert_eq!(not_tagged.tag::<&str>("kind"), None);
        let bad: Result<Payload, serde_json::Error> = not_tagged.decode();
        assert!(bad.unwrap_err().to_string().contains("missing field `id`"));
    }

    #[test]
    fn a_tag_is_read_as_the_kind_asked_for() {
        let value: TaggedValue = serde_json::from_value(
            json!({"s": "a", "i": 2, "f": 2.0, "n": -3.0, "b": true, "x": 2.5}),
        )
        .unwrap();
        assert_eq!(value.tag::<&str>("s"), Some("a"));
        assert_eq!(value.tag::<i64>("s"), None);
        assert_eq!(value.tag::<bool>("s"), None);
        assert_eq!(value.tag::<i64>("i"), Some(2));
        assert_eq!(value.tag::<&str>("i"), None);
        // One number to JSON: `2.0` is the tag `2`.
        assert_eq!(value.tag::<i64>("f"), Some(2));
        assert_eq!(value.tag::<i64>("n"), Some(-3));
        assert_eq!(value.tag::<i64>("x"), None);
        assert_eq!(value.tag::<bool>("b"), Some(true));
        assert_eq!(value.tag::<i64>("b"), None);
        assert_eq!(value.tag::<bool>("missing"), None);
        // Past `i64`: no integer tag, whether written as an integer or a float.
        for (number, tag) in [
            (json!(u64::MAX), None),
            (json!(9_223_372_036_854_775_808.0_f64), None),
            (json!(-9_223_372_036_854_775_808.0_f64), Some(i64::MIN)),
            (json!(i64::MAX), Some(i64::MAX)),
            (json!(-1.0e300), None),
            (json!(1.0e300), None),
        ] {
            assert_eq!(tag_of::<i64>(&json!({"t": number}), "t"), tag, "{number}");
        }
    }

    #[test]
    fn a_tag_of_any_kind_is_written_unless_the_payload_has_it() {
        let written = serialize(
            serde_json::value::Serializer,
            "t",
            7_i64,
            &Payload { id: 1 },
        );
        assert_eq!(written.unwrap(), json!({"id": 1, "t": 7}));
        let written = serialize(
            serde_json::value::Serializer,
            "t",
            false,
            &Payload { id: 1 },
        );
        assert_eq!(written.unwrap(), json!({"id": 1, "t": false}));
        let own = json!({"t": 8, "id": 2});
        let written = serialize(serde_json::value::Serializer, "t", 7_i64, &own);
        assert_eq!(written.unwrap(), own);
    }

    #[test]
    fn a_value_its_payload_does_not_read_is_kept_whole() {
        let fits: TaggedValue = serde_json::from_value(json!({"kind": "a", "id": 7})).unwrap();
        assert_eq!(fits.decode_or_keep::<Payload>(), Ok(Payload { id: 7 }));
        let unfit: TaggedValue = serde_json::from_value(json!({"kind": "a", "n": 1})).unwrap();
        assert_eq!(
            unfit.decode_or_keep::<Payload>(),
            Err(json!({"kind": "a", "n": 1}))
        );
    }
}
