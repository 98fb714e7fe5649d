//! Open string enums: `open_enum_impls!`, the impls every generated open enum shares.
//!
//! Two forms. A small enum's values are matched as string literals, and its definition derives
//! `Debug` and `Clone`. rustc checks a `match` in time that grows with its arms times the enum's
//! variants (pattern usefulness), so an enum of thousands of values made each of those matches
//! quadratic (16,000 values: 28 CPU s and 1.5 GiB to check; 32,000: 4× that). The large form
//! (`chunks of N [...]`) has no match of more than `N` arms: the wire string finds its index
//! in a table built on first use ([`WireTable`]), the variant's index comes from a binary
//! search of `KNOWN` by the derived `Ord` (the order of declaration), names and wire strings are
//! read from tables by that index, and an index becomes a variant through a match on
//! `index / N` and then one of `N` arms.

use std::collections::HashMap;
use std::sync::OnceLock;

/// The index of each wire string of a large open enum, built on first use.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct WireTable(OnceLock<HashMap<&'static str, usize>>);

impl WireTable {
    /// An empty table, for a `static`.
    #[must_use]
    pub const fn new() -> Self {
        Self(OnceLock::new())
    }

    /// The index of `value` in `wires` (the first, as a `match` would pick), `None` when it is
    /// not there. `wires` must be the same slice on every call: the table is built from the
    /// first.
    pub fn index(&self, wires: &'static [&'static str], value: &str) -> Option<usize> {
        self.0
            .get_or_init(|| {
                let mut table = HashMap::with_capacity(wires.len());
                for (index, wire) in wires.iter().enumerate() {
                    table.entry(*wire).or_insert(index);
                }
                table
            })
            .get(value)
            .copied()
    }
}

/// Implements an open enum's inherent API, conversions and serde by wire string.
///
/// The generator emits each enum's definition (variants and docs, readable in the generated
/// file) followed by one call of this macro, so the boilerplate shared by every open enum is
/// written once here instead of a hundred times in the emitted code.
///
/// The small form, `[Variant = "wire", …]`, is for a definition that derives `Debug` and
/// `Clone`. The large form, `chunks of N [0 => [0 => Variant = "wire", …], 1 => [N => …], …]`
/// (chunk `c` holds the variants of indices `c * N` to `c * N + N - 1`, each with its index),
/// implements `Debug` and `Clone` itself, for a definition that derives only `PartialEq`, `Eq`,
/// `Hash`, `PartialOrd` and `Ord`; see the module's documentation for why.
#[doc(hidden)]
#[macro_export]
macro_rules! open_enum_impls {
    ($name:ident, $fallback:ident, [$($variant:ident = $wire:literal),* $(,)?]) => {
        impl $name {
            /// Every value the document lists, in its order.
            pub const KNOWN: &'static [Self] = &[$(Self::$variant),*];

            /// The value as sent on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $wire,)*
                    Self::$fallback(value) => value,
                }
            }

            /// Whether this is a value the document does not list.
            pub fn is_unknown(&self) -> bool {
                matches!(self, Self::$fallback(_))
            }
        }

        impl ::core::convert::From<&str> for $name {
            fn from(value: &str) -> Self {
                match value {
                    $($wire => Self::$variant,)*
                    other => Self::$fallback(other.to_owned()),
                }
            }
        }

        impl ::core::convert::From<::std::string::String> for $name {
            fn from(value: ::std::string::String) -> Self {
                match value.as_str() {
                    $($wire => Self::$variant,)*
                    _ => Self::$fallback(value),
                }
            }
        }

        $crate::open_enum_impls!(@shared $name);
    };
    (
        $name:ident,
        $fallback:ident,
        chunks of $size:literal [
            $($chunk:literal => [$($index:literal => $variant:ident = $wire:literal),* $(,)?]),* $(,)?
        ]
    ) => {
        // Paths are `$name::Variant`, not `Self::Variant`: rustc resolves the latter by a search
        // of the enum's variants, once per mention.
        impl $name {
            /// Every value the document lists, in its order.
            pub const KNOWN: &'static [Self] = &[$($($name::$variant,)*)*];

            const __WIRES: &'static [&'static str] = &[$($($wire,)*)*];

            const __NAMES: &'static [&'static str] = &[$($(::core::stringify!($variant),)*)*];

            /// The known value at `index` of `KNOWN`.
            fn __known(index: usize) -> ::core::option::Option<Self> {
                match index / $size {
                    $($chunk => match index {
                        $($index => ::core::option::Option::Some($name::$variant),)*
                        _ => ::core::option::Option::None,
                    },)*
                    _ => ::core::option::Option::None,
                }
            }

            /// This value's index in `KNOWN`: `KNOWN` is in the order of declaration, which is
            /// the derived `Ord`'s, and the fallback (declared last) is in no position.
            fn __index(&self) -> ::core::option::Option<usize> {
                Self::KNOWN.binary_search(self).ok()
            }

            /// The known value whose wire string is `value`.
            fn __lookup(value: &str) -> ::core::option::Option<Self> {
                static TABLE: $crate::__private::WireTable = $crate::__private::WireTable::new();
                TABLE.index(Self::__WIRES, value).and_then(Self::__known)
            }

            /// The value as sent on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $name::$fallback(value) => value,
                    known => known.__index().map_or("", |index| Self::__WIRES[index]),
                }
            }

            /// Whether this is a value the document does not list.
            pub fn is_unknown(&self) -> bool {
                matches!(self, $name::$fallback(_))
            }
        }

        impl ::core::clone::Clone for $name {
            fn clone(&self) -> Self {
                match self {
                    $name::$fallback(value) => $name::$fallback(::core::clone::Clone::clone(value)),
                    known => known
                        .__index()
                        .and_then(Self::__known)
                        .unwrap_or_else(|| $name::$fallback(known.as_str().to_owned())),
                }
            }
        }

        impl ::core::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match self {
                    $name::$fallback(value) => f
                        .debug_tuple(::core::stringify!($fallback))
                        .field(value)
                        .finish(),
                    known => f.write_str(known.__index().map_or("", |index| Self::__NAMES[index])),
                }
            }
        }

        impl ::core::convert::From<&str> for $name {
            fn from(value: &str) -> Self {
                Self::__lookup(value).unwrap_or_else(|| $name::$fallback(value.to_owned()))
            }
        }

        impl ::core::convert::From<::std::string::String> for $name {
            fn from(value: ::std::string::String) -> Self {
                Self::__lookup(&value).unwrap_or($name::$fallback(value))
            }
        }

        $crate::open_enum_impls!(@shared $name);
    };
    (@shared $name:ident) => {
        impl ::core::str::FromStr for $name {
            type Err = ::core::convert::Infallible;
            // Spelled out: `Self::Err` is ambiguous beside a variant named `Err` (a value "err").
            fn from_str(value: &str) -> ::core::result::Result<Self, ::core::convert::Infallible> {
                Ok(Self::from(value))
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S: $crate::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                <::std::string::String as $crate::__private::serde::Deserialize>::deserialize(deserializer)
                    .map(Self::from)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    /// The same values in both forms: the large one must behave as the small one does.
    #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
    enum Small {
        A,
        A2,
        Unknown2,
        Empty,
        Last,
        Unknown(String),
    }

    crate::open_enum_impls!(
        Small,
        Unknown,
        [
            A = "a",
            A2 = "a-",
            Unknown2 = "Unknown",
            Empty = "",
            Last = "a."
        ]
    );

    #[derive(PartialEq, Eq, Hash, PartialOrd, Ord)]
    enum Large {
        A,
        A2,
        Unknown2,
        Empty,
        Last,
        Unknown(String),
    }

    // Chunks of 2, so that the last chunk is partly filled.
    crate::open_enum_impls!(
        Large,
        Unknown,
        chunks of 2 [
            0 => [0 => A = "a", 1 => A2 = "a-"],
            1 => [2 => Unknown2 = "Unknown", 3 => Empty = ""],
            2 => [4 => Last = "a."],
        ]
    );

    fn both(wire: &str) -> (Small, Large) {
        (Small::from(wire), Large::from(wire.to_owned()))
    }

    #[test]
    fn the_large_form_decodes_encodes_and_prints_as_the_small_one() {
        assert_eq!(Small::KNOWN.len(), Large::KNOWN.len());
        for wire in ["a", "a-", "Unknown", "", "a.", "b", "a-.", "A"] {
            let (small, large) = both(wire);
            assert_eq!(small.as_str(), large.as_str(), "{wire:?}");
            assert_eq!(large.as_str(), wire);
            assert_eq!(small.is_unknown(), large.is_unknown(), "{wire:?}");
            assert_eq!(format!("{small:?}"), format!("{large:?}"), "{wire:?}");
            assert_eq!(format!("{small:#?}"), format!("{large:#?}"), "{wire:?}");
            assert_eq!(small.to_string(), large.to_string());
            assert!(large.clone() == large, "{wire:?}");
            assert_eq!(format!("{:?}", large.clone()), format!("{large:?}"));
            let json = serde_json::to_string(&large).unwrap_or_default();
            assert_eq!(json, serde_json::to_string(&small).unwrap_or_default());
            let back: Large = serde_json::from_str(&json).unwrap_or(Large::Unknown("x".into()));
            assert!(back == large, "{wire:?}");
            let parsed: Large = wire.parse().unwrap_or(Large::Unknown("x".into()));
            assert!(parsed == large, "{wire:?}");
        }
    }

    #[test]
    fn known_values_are_their_own_variants_in_order_and_unknown_ones_keep_their_string() {
        let wires: Vec<&str> = Large::KNOWN.iter().map(Large::as_str).collect();
        assert_eq!(wires, ["a", "a-", "Unknown", "", "a."]);
        assert!(Large::KNOWN.iter().all(|known| !known.is_unknown()));
        assert!(Large::KNOWN.windows(2).all(|pair| pair[0] < pair[1]));
        for (index, known) in Large::KNOWN.iter().enumerate() {
            assert_eq!(known.__index(), Some(index));
            assert!(Large::__known(index) == Some(known.clone()));
        }
        assert!(Large::__known(Large::KNOWN.len()).is_none());
        assert!(Large::from("Unknown") == Large::Unknown2);
        let unknown = Large::from("Unknown ");
        assert!(unknown == Large::Unknown("Unknown ".to_owned()));
        assert_eq!(format!("{unknown:?}"), "Unknown(\"Unknown \")");
        assert_eq!(format!("{:?}", Large::Unknown2), "Unknown2");
    }

    #[test]
    fn a_wire_table_finds_the_first_index_of_a_value() {
        static WIRES: &[&str] = &["x", "y", "x"];
        let table = super::WireTable::new();
        assert_eq!(table.index(WIRES, "x"), Some(0));
        assert_eq!(table.index(WIRES, "y"), Some(1));
        assert_eq!(table.index(WIRES, "z"), None);
    }
}
