//! Open enums of JSON values (`enum: [{x: 0, y: 0}, {x: 1, y: 1}]`, `oneOf` of `const`
//! objects): `value_enum_impls!`, the impls each such generated enum shares. A value is known
//! when it equals a listed one as JSON Schema compares values (numbers by value, objects by
//! their members whatever their order); any other value is kept whole by the fallback variant.

use std::sync::OnceLock;

use serde_json::Value;

/// The listed values of one value enum, parsed from their JSON text on first use.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct ValueTable(OnceLock<Vec<Value>>);

impl ValueTable {
    /// An empty table, for a `static`.
    #[must_use]
    pub const fn new() -> Self {
        Self(OnceLock::new())
    }

    /// `texts` parsed; `texts` must be the same slice on every call. The generator writes each
    /// text with `serde_json`, so every one parses (one that did not would stand for null).
    fn values(&self, texts: &'static [&'static str]) -> &[Value] {
        self.0.get_or_init(|| {
            texts
                .iter()
                .map(|text| serde_json::from_str(text).unwrap_or(Value::Null))
                .collect()
        })
    }

    /// The listed value at `index` (null past the end: the macro asks for its own only).
    pub fn value(&self, texts: &'static [&'static str], index: usize) -> Value {
        self.values(texts)
            .get(index)
            .cloned()
            .unwrap_or(Value::Null)
    }

    /// The index of the first listed value equal to `value` as JSON.
    pub fn index(&self, texts: &'static [&'static str], value: &Value) -> Option<usize> {
        self.values(texts)
            .iter()
            .position(|known| json_equal(known, value))
    }
}

/// Equality of JSON values as JSON Schema defines it (2020-12 core, "Instance Equality"): the
/// same kind, numbers of the same mathematical value (`1` and `1.0`), strings and booleans
/// alike, arrays item by item, objects with the same members in any order.
fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if let (Some(x), Some(y)) = (x.as_i64(), y.as_i64()) {
                x == y
            } else if let (Some(x), Some(y)) = (x.as_u64(), y.as_u64()) {
                x == y
            } else {
                matches!((x.as_f64(), y.as_f64()), (Some(x), Some(y)) if x == y)
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_equal(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, x)| y.get(key).is_some_and(|y| json_equal(x, y)))
        }
        _ => a == b,
    }
}

/// Implements a value enum's inherent API (`KNOWN`, `to_value`, `is_unknown`), `From<Value>`
/// and serde through `serde_json::Value`, for a definition with one unit variant per listed
/// value and a fallback variant holding a `serde_json::Value`, deriving `Debug`, `Clone` and
/// `PartialEq`. Each listed value is given with its index and its JSON text:
/// `[0 => Variant = "{\"x\":0}", …]`.
#[doc(hidden)]
#[macro_export]
macro_rules! value_enum_impls {
    ($name:ident, $fallback:ident, [$($index:literal => $variant:ident = $json:literal),* $(,)?]) => {
        impl $name {
            /// Every value the document lists, in its order.
            pub const KNOWN: &'static [Self] = &[$(Self::$variant),*];

            const __JSON: &'static [&'static str] = &[$($json),*];

            fn __table() -> &'static $crate::__private::ValueTable {
                static TABLE: $crate::__private::ValueTable = $crate::__private::ValueTable::new();
                &TABLE
            }

            /// The value as sent on the wire.
            pub fn to_value(&self) -> $crate::__private::serde_json::Value {
                match self {
                    $(Self::$variant => Self::__table().value(Self::__JSON, $index),)*
                    Self::$fallback(value) => ::core::clone::Clone::clone(value),
                }
            }

            /// Whether this is a value the document does not list.
            pub fn is_unknown(&self) -> bool {
                matches!(self, Self::$fallback(_))
            }
        }

        impl ::core::convert::From<$crate::__private::serde_json::Value> for $name {
            fn from(value: $crate::__private::serde_json::Value) -> Self {
                match Self::__table().index(Self::__JSON, &value) {
                    $(::core::option::Option::Some($index) => Self::$variant,)*
                    _ => Self::$fallback(value),
                }
            }
        }

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S: $crate::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                $crate::__private::serde::Serialize::serialize(&self.to_value(), serializer)
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let value = <$crate::__private::serde_json::Value as $crate::__private::serde::Deserialize>::deserialize(deserializer)?;
                ::core::result::Result::Ok(Self::from(value))
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::json_equal;

    #[test]
    fn values_are_equal_as_json_schema_compares_them() {
        let equal = [
            (json!(1), json!(1.0)),
            (
                json!({"x": 0, "y": [1, "a"]}),
                json!({"y": [1.0, "a"], "x": 0}),
            ),
            (json!(u64::MAX), json!(u64::MAX)),
            (json!(-3), json!(-3)),
            (json!(null), json!(null)),
            (json!("a"), json!("a")),
        ];
        for (a, b) in equal {
            assert!(json_equal(&a, &b), "{a} = {b}");
            assert!(json_equal(&b, &a), "{b} = {a}");
        }
        let different = [
            (json!(1), json!(2)),
            (json!(1), json!("1")),
            (json!(-1), json!(u64::MAX)),
            (json!({"x": 0}), json!({"x": 0, "y": 0})),
            (json!({"x": 0}), json!({"y": 0})),
            (json!([1, 2]), json!([2, 1])),
            (json!([1]), json!([1, 1])),
            (json!(true), json!(1)),
            (json!(null), json!(false)),
        ];
        for (a, b) in different {
            assert!(!json_equal(&a, &b), "{a} ≠ {b}");
            assert!(!json_equal(&b, &a), "{b} ≠ {a}");
        }
    }
}
