//! Round trips of a generated crate's types, for the generator's own tests (feature `mock`,
//! hidden from the docs): a JSON value decodes as the type, encodes to JSON text that decodes
//! back to an equal value and encodes to the same text, and built field by field as the test
//! builders build (`Fields`) is that value too. A generated `mock::round_trips()` lists one
//! [`RoundTrip`] per type, so a test reaches every type of a crate without naming one.

use std::fmt;

use serde_core::Serialize;
use serde_core::de::DeserializeOwned;
use serde_json::Value;

use super::Fields;

/// Pushes the [`RoundTrip`] of each listed type, named as written, onto `all`: a generated
/// `round_trips()` lists its types once per feature gate through it.
#[macro_export]
#[doc(hidden)]
macro_rules! round_trips {
    ($all:ident, [$($ty:ident),* $(,)?]) => {
        $($all.push($crate::mock::round_trip::RoundTrip::of::<$ty>(stringify!($ty)));)*
    };
}

/// One type of a generated crate, by name, with its round trip.
#[derive(Clone, Copy)]
pub struct RoundTrip {
    name: &'static str,
    check: fn(&Value) -> Result<String, String>,
    encoding: fn(&Value) -> Result<Value, String>,
}

impl fmt::Debug for RoundTrip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RoundTrip").field(&self.name).finish()
    }
}

impl RoundTrip {
    /// The round trip of `T`, named `name` (its name in the crate).
    pub fn of<T>(name: &'static str) -> Self
    where
        T: Serialize + DeserializeOwned + PartialEq + fmt::Debug,
    {
        Self {
            name,
            check: round_trip::<T>,
            encoding: encoding::<T>,
        }
    }

    /// The type's name in its crate.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// `json` decoded as the type and checked to round-trip: the value's `Debug` text (which
    /// starts with the variant a union picked).
    ///
    /// # Errors
    ///
    /// What went wrong, with the values: `json` does not decode, the value does not encode,
    /// its encoding decodes as another value or encodes anew to other text, or the test
    /// builders build another value from its fields.
    pub fn check(&self, json: &Value) -> Result<String, String> {
        (self.check)(json)
    }

    /// `json` decoded as the type and encoded again, as a JSON value: what a union's member
    /// identity is checked against where a value may decode as another member with the same
    /// JSON (a best-fit union's).
    ///
    /// # Errors
    ///
    /// `json` does not decode, or the value does not encode.
    pub fn encoding(&self, json: &Value) -> Result<Value, String> {
        (self.encoding)(json)
    }

    /// Whether the type reads `json` exactly, as a best-fit union judges its members
    /// ([`same_json`](crate::best_fit::same_json) of `json` and its decoding's encoding).
    pub fn reads_exactly(&self, json: &Value) -> bool {
        self.encoding(json)
            .is_ok_and(|encoded| crate::best_fit::same_json(json, &encoded))
    }

    /// Whether a value `json` of this union, made for one member, may decode as another (the
    /// variant `debug`, its decoded value's `Debug` text, starts with), by a best-fit union's
    /// rule (the first member reading the value exactly): the union reads the value exactly,
    /// and the member it took is one of `earlier` (those before the value's own), or the
    /// value's own member (`own`, its round trip) does not read it exactly.
    pub fn may_decode_as_another<S: AsRef<str>>(
        &self,
        json: &Value,
        debug: &str,
        earlier: &[S],
        own: Option<&RoundTrip>,
    ) -> bool {
        let is_earlier = earlier
            .iter()
            .any(|earlier| is_variant(debug, earlier.as_ref()));
        let own_inexact = own.is_some_and(|own| !own.reads_exactly(json));
        (is_earlier || own_inexact) && self.reads_exactly(json)
    }
}

/// Whether `debug` (a decoded value's `Debug` text) is the variant `variant`.
pub fn is_variant(debug: &str, variant: &str) -> bool {
    debug == variant
        || debug
            .strip_prefix(variant)
            .is_some_and(|rest| rest.starts_with('('))
}

fn encoding<T>(json: &Value) -> Result<Value, String>
where
    T: Serialize + DeserializeOwned,
{
    let decoded: T = serde_json::from_value(json.clone())
        .map_err(|error| format!("does not decode: {error}"))?;
    serde_json::to_value(&decoded).map_err(|error| format!("does not encode: {error}"))
}

fn round_trip<T>(json: &Value) -> Result<String, String>
where
    T: Serialize + DeserializeOwned + PartialEq + fmt::Debug,
{
    let decoded: T = serde_json::from_value(json.clone())
        .map_err(|error| format!("does not decode: {error}"))?;
    let text =
        serde_json::to_string(&decoded).map_err(|error| format!("does not encode: {error}"))?;
    let again: T = serde_json::from_str(&text)
        .map_err(|error| format!("its encoding {text} does not decode: {error}"))?;
    if again != decoded {
        return Err(format!(
            "{decoded:?} encodes as {text}, which decodes as {again:?}"
        ));
    }
    let text_again =
        serde_json::to_string(&again).map_err(|error| format!("does not encode: {error}"))?;
    if text_again != text {
        return Err(format!(
            "{decoded:?} encodes as {text}, then as {text_again}"
        ));
    }
    if let Ok(Value::Object(fields)) = serde_json::from_str::<Value>(&text) {
        let built: T = Fields::from_object(fields)
            .build()
            .map_err(|error| format!("the builder refuses the fields of {text}: {error}"))?;
        if built != decoded {
            return Err(format!(
                "built from the fields of {text}: {built:?}, not {decoded:?}"
            ));
        }
    }
    Ok(format!("{decoded:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};
    use serde_json::json;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Exact {
        id: i64,
    }

    /// Reads `id` but writes it doubled: no round trip.
    #[derive(Debug, PartialEq, Deserialize)]
    struct Doubling {
        id: i64,
    }

    impl Serialize for Doubling {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            Exact { id: self.id * 2 }.serialize(serializer)
        }
    }

    /// Writes a different key order each time it is written.
    #[derive(Debug, PartialEq, Deserialize)]
    struct Restless {
        a: i64,
    }

    impl Serialize for Restless {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use std::sync::atomic::{AtomicBool, Ordering};
            static FLIP: AtomicBool = AtomicBool::new(false);
            if FLIP.fetch_xor(true, Ordering::Relaxed) {
                json!({"a": self.a, "b": 1}).serialize(serializer)
            } else {
                json!({"a": self.a, "b": 2}).serialize(serializer)
            }
        }
    }

    #[test]
    fn a_faithful_type_round_trips_and_shows_its_value() {
        let exact = RoundTrip::of::<Exact>("Exact");
        assert_eq!(exact.name(), "Exact");
        assert_eq!(
            exact.check(&json!({"id": 7})),
            Ok("Exact { id: 7 }".to_owned())
        );
        assert_eq!(format!("{exact:?}"), "RoundTrip(\"Exact\")");
        assert_eq!(
            RoundTrip::of::<i64>("Int").check(&json!(3)),
            Ok("3".to_owned())
        );
    }

    #[test]
    fn every_way_to_lose_the_value_is_reported() {
        let exact = RoundTrip::of::<Exact>("Exact");
        assert_eq!(
            exact.check(&json!({"id": "x"})),
            Err("does not decode: invalid type: string \"x\", expected i64".to_owned())
        );
        assert_eq!(
            RoundTrip::of::<Doubling>("Doubling").check(&json!({"id": 2})),
            Err(
                "Doubling { id: 2 } encodes as {\"id\":4}, which decodes as Doubling { id: 4 }"
                    .to_owned()
            )
        );
        let restless = RoundTrip::of::<Restless>("Restless").check(&json!({"a": 1}));
        assert!(
            restless.as_ref().is_err_and(
                |error| error.starts_with("Restless { a: 1 } encodes as {\"a\":1,\"b\":")
            ),
            "{restless:?}"
        );
        assert_eq!(
            RoundTrip::of::<f64>("Number").check(&json!(1.5)),
            Ok("1.5".to_owned())
        );
    }

    #[test]
    fn an_encoding_is_the_decoded_value_written_again() {
        assert_eq!(
            RoundTrip::of::<Doubling>("Doubling").encoding(&json!({"id": 2})),
            Ok(json!({"id": 4}))
        );
        assert_eq!(
            RoundTrip::of::<f64>("Number").encoding(&json!(3)),
            Ok(json!(3.0))
        );
        assert_eq!(
            RoundTrip::of::<Exact>("Exact").encoding(&json!({"id": "x"})),
            Err("does not decode: invalid type: string \"x\", expected i64".to_owned())
        );
    }
}
