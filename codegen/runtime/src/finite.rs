//! Whether a value holds a number with no wire form (NaN, ±∞), found by walking it through
//! serde: `serde_json` writes such a number as `null`, which a parameter encoder reads as
//! "not set", so the value would vanish from the request instead of being refused.

use std::fmt;

use serde_core::ser::{self, Serialize};

/// A non-finite number was found (its text: `NaN`, `inf` or `-inf`), or serde reported
/// something else (left to the encoder to report).
#[derive(Debug)]
pub(crate) enum Found {
    NonFinite(String),
    Other,
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFinite(text) => write!(f, "non-finite number {text}"),
            Self::Other => f.write_str("not serialisable"),
        }
    }
}

impl std::error::Error for Found {}

impl ser::Error for Found {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Self::Other
    }
}

/// The text of the first non-finite number `value` holds, anywhere inside it (an item, a field,
/// a map's value); `None` when every number is finite (or serde fails: the encoder says why).
pub(crate) fn non_finite<T: Serialize + ?Sized>(value: &T) -> Option<String> {
    match value.serialize(Walker) {
        Err(Found::NonFinite(text)) => Some(text),
        Ok(()) | Err(Found::Other) => None,
    }
}

/// A serializer that writes nothing and stops at the first non-finite float.
struct Walker;

fn float(value: f64) -> Result<(), Found> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(Found::NonFinite(value.to_string()))
    }
}

/// The methods of a scalar that holds no float.
macro_rules! nothing_to_check {
    ($($method:ident($ty:ty)),* $(,)?) => {$(
        fn $method(self, _: $ty) -> Result<(), Found> {
            Ok(())
        }
    )*};
}

impl ser::Serializer for Walker {
    type Ok = ();
    type Error = Found;
    type SerializeSeq = Walker;
    type SerializeTuple = Walker;
    type SerializeTupleStruct = Walker;
    type SerializeTupleVariant = Walker;
    type SerializeMap = Walker;
    type SerializeStruct = Walker;
    type SerializeStructVariant = Walker;

    nothing_to_check!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_unit_struct(&'static str),
    );

    fn serialize_f32(self, value: f32) -> Result<(), Found> {
        float(f64::from(value))
    }

    fn serialize_f64(self, value: f64) -> Result<(), Found> {
        float(value)
    }

    fn serialize_none(self) -> Result<(), Found> {
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Found> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Found> {
        Ok(())
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), Found> {
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Found> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        value: &T,
    ) -> Result<(), Found> {
        value.serialize(self)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Walker, Found> {
        Ok(Walker)
    }

    fn serialize_tuple(self, _: usize) -> Result<Walker, Found> {
        Ok(Walker)
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Walker, Found> {
        Ok(Walker)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Walker, Found> {
        Ok(Walker)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Walker, Found> {
        Ok(Walker)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Walker, Found> {
        Ok(Walker)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Walker, Found> {
        Ok(Walker)
    }
}

/// Every compound walks its elements with a new [`Walker`].
macro_rules! compound {
    ($($trait:ident::$method:ident($($skip:ty),*)),* $(,)?) => {$(
        impl ser::$trait for Walker {
            type Ok = ();
            type Error = Found;

            fn $method<T: Serialize + ?Sized>(&mut self, $(_: $skip,)* value: &T) -> Result<(), Found> {
                value.serialize(Walker)
            }

            fn end(self) -> Result<(), Found> {
                Ok(())
            }
        }
    )*};
}

compound!(
    SerializeSeq::serialize_element(),
    SerializeTuple::serialize_element(),
    SerializeTupleStruct::serialize_field(),
    SerializeTupleVariant::serialize_field(),
    SerializeStruct::serialize_field(&'static str),
    SerializeStructVariant::serialize_field(&'static str),
);

impl ser::SerializeMap for Walker {
    type Ok = ();
    type Error = Found;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Found> {
        key.serialize(Walker)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Found> {
        value.serialize(Walker)
    }

    fn end(self) -> Result<(), Found> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::non_finite;

    #[test]
    fn a_non_finite_number_is_found_wherever_it_is() {
        assert_eq!(non_finite(&f64::NAN).as_deref(), Some("NaN"));
        assert_eq!(non_finite(&f64::INFINITY).as_deref(), Some("inf"));
        assert_eq!(non_finite(&f32::NEG_INFINITY).as_deref(), Some("-inf"));
        assert_eq!(non_finite(&Some(f64::NAN)).as_deref(), Some("NaN"));
        assert_eq!(non_finite(&vec![1.0, f64::NAN]).as_deref(), Some("NaN"));
        assert_eq!(non_finite(&(1, f64::INFINITY)).as_deref(), Some("inf"));
        let map = BTreeMap::from([("a", 1.0), ("b", f64::NAN)]);
        assert_eq!(non_finite(&map).as_deref(), Some("NaN"));
        let nested = serde_json::json!({"a": [1.5, {"b": 2}]});
        assert_eq!(non_finite(&nested), None);
    }

    #[derive(serde::Serialize)]
    struct Tuple(u8, f64);

    #[derive(serde::Serialize)]
    struct Newtype(f64);

    #[derive(serde::Serialize)]
    struct Fields {
        a: u8,
        b: f32,
    }

    #[derive(serde::Serialize)]
    enum Shapes {
        Unit,
        Newtype(f64),
        Tuple(u8, f64),
        Struct { a: u8, b: f64 },
    }

    /// A map whose key is a float (no std map holds one).
    struct FloatKeys(f64);

    impl serde::Serialize for FloatKeys {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_map([(self.0, 1u8)])
        }
    }

    #[test]
    fn every_serde_shape_is_walked() {
        let bad = f64::NAN;
        assert_eq!(non_finite(&Tuple(1, bad)).as_deref(), Some("NaN"));
        assert_eq!(non_finite(&Newtype(bad)).as_deref(), Some("NaN"));
        assert_eq!(
            non_finite(&Fields {
                a: 1,
                b: f32::INFINITY
            })
            .as_deref(),
            Some("inf")
        );
        assert_eq!(non_finite(&Shapes::Newtype(bad)).as_deref(), Some("NaN"));
        assert_eq!(non_finite(&Shapes::Tuple(1, bad)).as_deref(), Some("NaN"));
        assert_eq!(
            non_finite(&Shapes::Struct { a: 1, b: bad }).as_deref(),
            Some("NaN")
        );
        assert_eq!(non_finite(&FloatKeys(bad)).as_deref(), Some("NaN"));
        for finite in [
            non_finite(&Tuple(1, 2.0)),
            non_finite(&Newtype(2.0)),
            non_finite(&Fields { a: 1, b: 2.0 }),
            non_finite(&Shapes::Unit),
            non_finite(&Shapes::Newtype(2.0)),
            non_finite(&Shapes::Tuple(1, 2.0)),
            non_finite(&Shapes::Struct { a: 1, b: 2.0 }),
            non_finite(&FloatKeys(2.0)),
        ] {
            assert_eq!(finite, None);
        }
    }

    #[test]
    fn what_was_found_is_shown() {
        assert_eq!(
            super::Found::NonFinite("NaN".to_owned()).to_string(),
            "non-finite number NaN"
        );
        assert_eq!(super::Found::Other.to_string(), "not serialisable");
        // serde's own error (a map key that is not a string, say) is `Other`: left to the
        // encoder, which reports it.
        let custom: super::Found = serde_core::ser::Error::custom("x");
        assert!(matches!(custom, super::Found::Other));
    }

    #[test]
    fn finite_values_of_every_kind_pass() {
        assert_eq!(non_finite(&1.5f64), None);
        assert_eq!(non_finite(&f64::MAX), None);
        assert_eq!(non_finite(&-0.0f32), None);
        assert_eq!(non_finite(&None::<f64>), None);
        assert_eq!(non_finite("text"), None);
        assert_eq!(non_finite(&(true, 'c', 1u8, -1i128, ())), None);
        assert_eq!(non_finite(&vec![vec![1.0f32]]), None);
    }
}
