//! A deserializer adapter that makes decoding stricter than serde_json in two ways the metrics
//! contract needs: a key repeated within one JSON object is an error (serde_json would let a map
//! keep the last one silently), and an integer field accepts `-0`.

use std::fmt;
use std::marker::PhantomData;

use serde_core::de::value::{BorrowedStrDeserializer, SeqDeserializer, StringDeserializer};
use serde_core::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// Wraps a deserializer, and every nested one, with the strict rules.
///
/// `divert`, given only to the document's own deserializer, receives the value of the
/// document's `metric_values` key in place of the type being decoded, which then sees an empty
/// list there (see [`Divert`]).
pub(crate) struct Strict<D, S = NoDivert> {
    pub(crate) de: D,
    pub(crate) divert: Option<S>,
}

impl<D> Strict<D> {
    /// The strict rules, diverting nothing.
    pub(crate) fn new(de: D) -> Self {
        Self { de, divert: None }
    }
}

/// The name of the value-set list in the index-mapped responses of the metrics contract.
pub(crate) const VALUE_SETS_KEY: &str = "metric_values";

/// Takes over decoding the value sets of a document, so that they need not be held as the
/// response type holds them.
pub(crate) trait Divert<'de> {
    /// Decodes the value of the document's `metric_values` key.
    fn divert<D: Deserializer<'de>>(&mut self, deserializer: D) -> Result<(), D::Error>;
}

/// Diverts nothing: every value is decoded as its type asks.
pub(crate) enum NoDivert {}

impl<'de> Divert<'de> for NoDivert {
    fn divert<D: Deserializer<'de>>(&mut self, _deserializer: D) -> Result<(), D::Error> {
        match *self {}
    }
}

impl<'de, T: Divert<'de>> Divert<'de> for &mut T {
    fn divert<D: Deserializer<'de>>(&mut self, deserializer: D) -> Result<(), D::Error> {
        (**self).divert(deserializer)
    }
}

/// Wraps a visitor; `integer` is set when the caller asked for an integer.
struct StrictVisitor<V, S> {
    inner: V,
    integer: bool,
    divert: Option<S>,
}

struct StrictSeed<S>(S);
struct StrictSeq<A>(A);

/// Wraps a map's entries, remembering its keys to refuse a repeated one.
struct StrictMap<'de, A, S> {
    map: A,
    divert: Option<S>,
    /// Set when the last key read is `metric_values` and `divert` is given.
    diverting: bool,
    keys: Vec<Key<'de>>,
    /// Set when the last key read repeats an earlier one. The error is raised for its value,
    /// not the key, so that its JSON path ends with the repeated key.
    repeated: bool,
}

/// A map key, borrowed from the input when it has no escapes.
pub(crate) enum Key<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl Key<'_> {
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Key::Borrowed(key) => key,
            Key::Owned(key) => key,
        }
    }
}

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key::Borrowed(key))
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key::Owned(key.to_owned()))
            }
            fn visit_string<E: de::Error>(self, key: String) -> Result<Key<'de>, E> {
                Ok(Key::Owned(key))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

macro_rules! forward {
    ($integer:literal => $($method:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
            self.de.$method($($arg,)* StrictVisitor { inner: visitor, integer: $integer, divert: self.divert })
        }
    )*};
}

impl<'de, D: Deserializer<'de>, S: Divert<'de>> Deserializer<'de> for Strict<D, S> {
    type Error = D::Error;

    forward!(true =>
        deserialize_i8(), deserialize_i16(), deserialize_i32(), deserialize_i64(),
        deserialize_i128(), deserialize_u8(), deserialize_u16(), deserialize_u32(),
        deserialize_u64(), deserialize_u128(),
    );
    forward!(false =>
        deserialize_any(), deserialize_bool(), deserialize_f32(), deserialize_f64(),
        deserialize_char(), deserialize_str(), deserialize_string(), deserialize_bytes(),
        deserialize_byte_buf(), deserialize_option(), deserialize_unit(),
        deserialize_unit_struct(name: &'static str),
        deserialize_newtype_struct(name: &'static str), deserialize_seq(),
        deserialize_tuple(len: usize), deserialize_tuple_struct(name: &'static str, len: usize),
        deserialize_map(),
        deserialize_struct(name: &'static str, fields: &'static [&'static str]),
        deserialize_enum(name: &'static str, variants: &'static [&'static str]),
        deserialize_identifier(), deserialize_ignored_any(),
    );

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

macro_rules! pass {
    ($($method:ident($ty:ty)),* $(,)?) => {$(
        fn $method<E: de::Error>(self, value: $ty) -> Result<V::Value, E> {
            self.inner.$method(value)
        }
    )*};
}

impl<'de, V: Visitor<'de>, S: Divert<'de>> Visitor<'de> for StrictVisitor<V, S> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    pass!(
        visit_bool(bool),
        visit_i8(i8),
        visit_i16(i16),
        visit_i32(i32),
        visit_i64(i64),
        visit_i128(i128),
        visit_u8(u8),
        visit_u16(u16),
        visit_u32(u32),
        visit_u64(u64),
        visit_u128(u128),
        visit_f32(f32),
        visit_char(char),
        visit_str(&str),
        visit_borrowed_str(&'de str),
        visit_string(String),
        visit_bytes(&[u8]),
        visit_borrowed_bytes(&'de [u8]),
        visit_byte_buf(Vec<u8>),
    );

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<V::Value, E> {
        // serde_json reads `-0` as the float -0.0 (it has no negative integer zero), which an
        // integer visitor refuses; it is zero.
        if self.integer && value == 0.0 && value.is_sign_negative() {
            self.inner.visit_i64(0)
        } else {
            self.inner.visit_f64(value)
        }
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D2: Deserializer<'de>>(self, deserializer: D2) -> Result<V::Value, D2::Error> {
        self.inner.visit_some(Strict::new(deserializer))
    }

    fn visit_newtype_struct<D2: Deserializer<'de>>(
        self,
        deserializer: D2,
    ) -> Result<V::Value, D2::Error> {
        self.inner.visit_newtype_struct(Strict::new(deserializer))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.inner.visit_seq(StrictSeq(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.inner.visit_map(StrictMap {
            map,
            divert: self.divert,
            diverting: false,
            keys: Vec::new(),
            repeated: false,
        })
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        // Enum payloads are not checked: JSON carries an enum as a string or a one-key object,
        // and the response types' enums are strings.
        self.inner.visit_enum(data)
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for StrictSeed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Strict::new(deserializer))
    }
}

/// Hands a value to a [`Divert`], under the strict rules.
struct DivertSeed<'a, S>(&'a mut S);

impl<'de, S: Divert<'de>> DeserializeSeed<'de> for DivertSeed<'_, S> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.0.divert(Strict::new(deserializer))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for StrictSeq<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(StrictSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: MapAccess<'de>, S: Divert<'de>> MapAccess<'de> for StrictMap<'de, A, S> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let Some(key) = self.map.next_key::<Key<'de>>()? else {
            return Ok(None);
        };
        self.repeated = self.keys.iter().any(|seen| seen.as_str() == key.as_str());
        self.diverting = self.divert.is_some() && key.as_str() == VALUE_SETS_KEY;
        let value = match &key {
            Key::Borrowed(text) => seed.deserialize(BorrowedStrDeserializer::new(text))?,
            Key::Owned(text) => seed.deserialize(StringDeserializer::new(text.clone()))?,
        };
        self.keys.push(key);
        Ok(Some(value))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        if let (false, true, Some(divert)) = (self.repeated, self.diverting, self.divert.as_mut()) {
            self.map.next_value_seed(DivertSeed(divert))?;
            // The response type gets an empty list: its value sets are held by `divert`.
            return seed.deserialize(SeqDeserializer::new(std::iter::empty::<()>()));
        }
        if self.repeated {
            // Handed to the seed, so that a path-tracking seed records the key in the path.
            let key = self.keys.last().map_or("", Key::as_str);
            return seed.deserialize(Repeated {
                key,
                error: PhantomData,
            });
        }
        self.map.next_value_seed(StrictSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// The value of a repeated key: a deserializer that fails, naming the key.
struct Repeated<'a, E> {
    key: &'a str,
    error: PhantomData<E>,
}

impl<'de, E: de::Error> Deserializer<'de> for Repeated<'_, E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, E> {
        Err(E::custom(format_args!(
            "duplicate key {:?} in one object",
            self.key
        )))
    }

    serde_core::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}
