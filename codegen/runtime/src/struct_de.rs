//! `Deserialize` for a generated struct: one `struct_deserialize!` call per struct, expanding to
//! a visitor that reads a JSON object and nothing else.
//!
//! `derive(Deserialize)` was most of a generated crate's check time: for each struct it also
//! emits a field enum with its own `Deserialize` impl and visitor (names, integers and bytes)
//! and a visitor for structs written as JSON arrays, none of which a JSON API sends. The
//! expansion here keeps only the object reading, with the key lookup, duplicate check and
//! missing-field rule written once in this module; the full document's crate checks in about
//! 60% of the time. What a struct decodes, and every error message, is serde's: unknown keys
//! are skipped, a repeated key is `duplicate field`, an absent required field is
//! `missing field` (an absent `Option` is `None`, as serde's derive has it), and anything but
//! an object is `invalid type: …, expected struct Name`.

use std::fmt;
use std::marker::PhantomData;

use serde_core::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

/// Implements `Deserialize` for a struct from its fields' wire names, each `required` (absent:
/// an error, unless its type is an `Option`) or `optional` (absent: the type's `Default`).
///
/// ```
/// # use baseten_runtime as rt;
/// #[derive(Debug, PartialEq)]
/// struct Replica {
///     id: String,
///     type_: Option<String>,
///     tags: Vec<String>,
/// }
/// rt::struct_deserialize!(Replica, [id = required("id"), type_ = required("type"), tags = optional("tags")]);
///
/// let replica: Replica = serde_json::from_str(r#"{"id": "r1", "other": [1]}"#)?;
/// assert_eq!(replica, Replica { id: "r1".into(), type_: None, tags: vec![] });
/// let absent = serde_json::from_str::<Replica>(r#"{"tags": []}"#).unwrap_err();
/// assert_eq!(absent.to_string(), "missing field `id` at line 1 column 12");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! struct_deserialize {
    ($name:ident, [$($field:ident = $presence:ident($wire:literal)),* $(,)?]) => {
        impl $crate::__private::FromFields for $name {
            const NAME: &'static str = ::core::stringify!($name);
            const FIELDS: &'static [&'static str] = &[$($wire),*];

            #[allow(unused_mut)]
            fn from_fields<'de, A: $crate::__private::serde::de::MapAccess<'de>>(
                mut map: A,
            ) -> ::core::result::Result<Self, A::Error> {
                $(let mut $field = ::core::option::Option::None;)*
                while let ::core::option::Option::Some(key) =
                    $crate::__private::next_field(&mut map, Self::FIELDS)?
                {
                    match key {
                        $($wire => $crate::__private::read(&mut map, &mut $field, $wire)?,)*
                        // `next_field` returns names in `FIELDS` only; a `str` match needs the arm.
                        _ => $crate::__private::skip(&mut map)?,
                    }
                }
                ::core::result::Result::Ok(Self {
                    $($field: $crate::__private::$presence($field, $wire)?,)*
                })
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                $crate::__private::deserialize(deserializer)
            }
        }
    };
}

/// What `struct_deserialize!` implements: a struct read from a JSON object's fields. Hidden:
/// a user sees the struct's `Deserialize`, never this.
#[doc(hidden)]
pub trait FromFields: Sized {
    /// The struct's name, for `expected struct Name`.
    const NAME: &'static str;
    /// The fields' wire names.
    const FIELDS: &'static [&'static str];

    /// Reads the object's entries.
    fn from_fields<'de, A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// Decodes a [`FromFields`] struct from a JSON object.
pub fn deserialize<'de, T: FromFields, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    deserializer.deserialize_struct(T::NAME, T::FIELDS, StructVisitor(PhantomData))
}

/// Reads an object into `T`; anything else is `invalid type: …, expected struct T`.
struct StructVisitor<T>(PhantomData<T>);

impl<'de, T: FromFields> Visitor<'de> for StructVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "struct {}", T::NAME)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::from_fields(map)
    }
}

/// The next key of the object that names one of `fields` (as that entry of `fields`), skipping
/// the values of every other key; `None` at the object's end.
pub fn next_field<'de, A: MapAccess<'de>>(
    map: &mut A,
    fields: &'static [&'static str],
) -> Result<Option<&'static str>, A::Error> {
    while let Some(key) = map.next_key_seed(FieldName(fields))? {
        match key {
            Some(field) => return Ok(Some(field)),
            None => skip(map)?,
        }
    }
    Ok(None)
}

/// Reads the value of the key just returned into `slot`; a second value for it is an error.
pub fn read<'de, A: MapAccess<'de>, T: de::Deserialize<'de>>(
    map: &mut A,
    slot: &mut Option<T>,
    wire: &'static str,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(wire));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

/// Skips the value of the key just returned.
pub fn skip<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    map.next_value::<IgnoredAny>().map(|_| ())
}

/// A required field's value: absent is `missing field`, except for a type that decodes from
/// nothing (an `Option`, as `None`), exactly as serde's derive decides.
pub fn required<'de, T: de::Deserialize<'de>, E: de::Error>(
    slot: Option<T>,
    wire: &'static str,
) -> Result<T, E> {
    match slot {
        Some(value) => Ok(value),
        None => T::deserialize(Absent(wire, PhantomData)),
    }
}

/// An optional field's value: absent is the type's `Default`.
pub fn optional<T: Default, E>(slot: Option<T>, _wire: &'static str) -> Result<T, E> {
    Ok(slot.unwrap_or_default())
}

/// Matches a key against the struct's wire names without allocating: `Some(name)` for one of
/// them, `None` for any other key.
struct FieldName(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for FieldName {
    type Value = Option<&'static str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for FieldName {
    type Value = Option<&'static str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(self.0.iter().copied().find(|name| *name == key))
    }

    fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<Self::Value, E> {
        Ok(self.0.iter().copied().find(|name| name.as_bytes() == key))
    }
}

/// The value of an absent field: what decodes from nothing (`Option`) does, anything else is
/// `missing field` (serde's own rule, from its derive's private helper).
struct Absent<E>(&'static str, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for Absent<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, E> {
        Err(E::missing_field(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }

    serde_core::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use serde_core::de::value::{Error as ValueError, MapDeserializer};

    /// Every way a field can be declared: required, required of a type that decodes from
    /// nothing, optional with a default, and a wire name that is not the field's.
    #[derive(Debug, PartialEq)]
    struct Replica {
        id: String,
        note: Option<String>,
        tags: Vec<String>,
        kind: u8,
    }

    crate::struct_deserialize!(
        Replica,
        [
            id = required("id"),
            note = required("note"),
            tags = optional("tags"),
            kind = optional("type"),
        ]
    );

    #[derive(Debug, PartialEq)]
    struct Empty {}

    crate::struct_deserialize!(Empty, []);

    /// Decodes `json` as a `Replica`: the value, or the error's text.
    fn check(json: &str, expected: Result<Replica, &str>) {
        let decoded = serde_json::from_str::<Replica>(json).map_err(|error| error.to_string());
        assert_eq!(decoded, expected.map_err(str::to_owned), "{json}");
    }

    fn replica(id: &str, note: Option<&str>, tags: &[&str], kind: u8) -> Replica {
        Replica {
            id: id.to_owned(),
            note: note.map(str::to_owned),
            tags: tags.iter().map(|tag| (*tag).to_owned()).collect(),
            kind,
        }
    }

    #[test]
    fn an_object_decodes_by_wire_names_skipping_other_keys() {
        check(
            r#"{"type": 3, "id": "r", "note": "n", "tags": ["a", "b"]}"#,
            Ok(replica("r", Some("n"), &["a", "b"], 3)),
        );
        check(
            r#"{"kind": 9, "id": "r", "extra": {"nested": [1, {"id": "x"}]}, "note": null}"#,
            Ok(replica("r", None, &[], 0)),
        );
        check(r#"{"id": "\u0072"}"#, Ok(replica("r", None, &[], 0)));
        assert_eq!(
            serde_json::from_str::<Empty>(r#"{"a": 1}"#).ok(),
            Some(Empty {})
        );
    }

    #[test]
    fn absent_fields_follow_serdes_rules() {
        // Required: an error, but an `Option` is `None`; optional: the default.
        check(
            r#"{"note": "n"}"#,
            Err("missing field `id` at line 1 column 13"),
        );
        check(r#"{"id": "r"}"#, Ok(replica("r", None, &[], 0)));
    }

    #[test]
    fn a_repeated_key_is_an_error() {
        check(
            r#"{"id": "r", "type": 1, "type": 1}"#,
            Err("duplicate field `type` at line 1 column 29"),
        );
        // An unknown key may repeat: its values are skipped.
        check(
            r#"{"x": 1, "id": "r", "x": 2}"#,
            Ok(replica("r", None, &[], 0)),
        );
    }

    #[test]
    fn anything_but_an_object_is_an_invalid_type() {
        check(
            r#"["r", null, [], 1]"#,
            Err("invalid type: sequence, expected struct Replica at line 1 column 1"),
        );
        check(
            r#""r""#,
            Err("invalid type: string \"r\", expected struct Replica at line 1 column 3"),
        );
        check(
            r#"{"id": 1}"#,
            Err("invalid type: integer `1`, expected a string at line 1 column 8"),
        );
        check(
            r#"{"id": "r", "type": "one"}"#,
            Err("invalid type: string \"one\", expected u8 at line 1 column 25"),
        );
    }

    #[test]
    fn keys_may_arrive_as_bytes() {
        let entries: Vec<(&[u8], &str)> = vec![(b"other", "x"), (b"id", "r")];
        let decoded: Result<Replica, ValueError> =
            serde_core::Deserialize::deserialize(MapDeserializer::new(entries.into_iter()));
        assert_eq!(
            decoded.map_err(|e| e.to_string()),
            Ok(replica("r", None, &[], 0))
        );
    }

    #[test]
    fn a_key_that_is_no_name_is_an_invalid_type() {
        let entries = vec![(1_u8, "r")];
        let decoded: Result<Replica, ValueError> =
            serde_core::Deserialize::deserialize(MapDeserializer::new(entries.into_iter()));
        assert_eq!(
            decoded.map_err(|e| e.to_string()),
            Err("invalid type: integer `1`, expected field identifier".to_owned())
        );
    }

    #[test]
    fn an_error_names_the_path_of_the_value() {
        let json = r#"{"id": "r", "tags": ["a", 2]}"#;
        let mut deserializer = serde_json::Deserializer::from_str(json);
        let error = serde_path_to_error::deserialize::<_, Replica>(&mut deserializer)
            .err()
            .map(|error| error.path().to_string());
        assert_eq!(error.as_deref(), Some("tags[1]"));
    }
}
