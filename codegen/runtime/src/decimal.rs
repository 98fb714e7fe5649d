//! [`Decimal`]: an exact decimal number, for money and every other value the document gives as
//! "a number, or a string of decimal digits".

use std::fmt;
use std::iter::Sum;
use std::str::FromStr;

use serde_core::de::{self, MapAccess, Visitor};
use serde_core::{Deserialize, Deserializer, Serialize, Serializer};

mod exact;

/// An exact decimal number (up to 28 significant digits), over [`rust_decimal::Decimal`](https://docs.rs/rust_decimal/1/rust_decimal/struct.Decimal.html).
///
/// The generator uses it for a schema that is `anyOf`/`oneOf` a `number` and a `string` with a
/// decimal `pattern` (Baseten's billing amounts and prices): the server may send either form.
///
/// - **Decoding** accepts both a JSON number (`0.2`, `1e-3`) and a JSON string (`"0.10"`). From
///   JSON text, a number is read from its digits as written, never through an `f64`, so
///   `0.1 + 0.2` is exactly `0.3` and `"0.10"` keeps its two decimal places. A value that is not
///   a decimal (`"abc"`, `true`, a number beyond 28 digits) is a decode error; through the
///   crate's decode it names its JSON path. (Only where serde buffers a value before decoding
///   it, inside a `#[serde(untagged)]` or `flatten`ed type, does a JSON number arrive as an
///   `f64`; its shortest round-trip text is used then, exact up to 15 significant digits.)
/// - **Encoding** writes a JSON **string** (`"0.10"`): exact, whatever the reader's number
///   type, and accepted by the document's string member.
/// - **Display** is exact and keeps the scale: `"0.10"` displays as `0.10`.
/// - Equality, ordering and hashing are by value: `0.1 == 0.10`.
/// - **Arithmetic is checked and exact**: [`checked_add`](Self::checked_add),
///   [`checked_sub`](Self::checked_sub), [`checked_mul`](Self::checked_mul) (by an integer
///   quantity or a `Decimal`, never rounded), and sums collected into `Option<Decimal>`, each `None`
///   when the result does not fit. There is no `+`, `-` or `Sum` into a bare `Decimal`: those
///   would panic on amounts a server sent, and saturating would report a wrong total. For other
///   arithmetic, [`as_decimal`](Self::as_decimal) gives the [`rust_decimal::Decimal`](https://docs.rs/rust_decimal/1/rust_decimal/struct.Decimal.html).
///
/// ```
/// # use baseten_runtime::Decimal;
/// // In baseten-api: `use baseten_api::primitives::Decimal;` (feature `decimal`).
///
/// let a: Decimal = serde_json::from_str(r#""0.1""#).unwrap();
/// let b: Decimal = serde_json::from_str("0.2").unwrap();
/// let sum = a.checked_add(b).unwrap();
/// assert_eq!(sum.to_string(), "0.3");
/// assert_eq!(serde_json::to_string(&sum).unwrap(), r#""0.3""#);
/// let total: Option<Decimal> = [a, b, b].iter().sum();
/// assert_eq!(total, Some("0.5".parse().unwrap()));
/// // Two amounts near the largest a Decimal holds have no total, rather than a panic.
/// let huge: Decimal = "70000000000000000000000000000".parse().unwrap();
/// assert_eq!([huge, huge].iter().sum::<Option<Decimal>>(), None);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Decimal(rust_decimal::Decimal);

/// A string that is not a decimal number, from [`Decimal::from_str`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecimalError(String);

impl fmt::Display for DecimalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DecimalError {}

impl Decimal {
    /// Zero.
    pub const ZERO: Decimal = Decimal(rust_decimal::Decimal::ZERO);

    /// The value as a [`rust_decimal::Decimal`](https://docs.rs/rust_decimal/1/rust_decimal/struct.Decimal.html), for arithmetic this type does not offer.
    pub fn as_decimal(&self) -> rust_decimal::Decimal {
        self.0
    }

    /// The inner [`rust_decimal::Decimal`](https://docs.rs/rust_decimal/1/rust_decimal/struct.Decimal.html).
    pub fn into_inner(self) -> rust_decimal::Decimal {
        self.0
    }

    /// `self + other`, exactly, or `None` when the exact sum does not fit: beyond about
    /// 7.9 × 10²⁸, or needing more than the 28 to 29 significant digits a `Decimal` holds
    /// (where [`rust_decimal::Decimal::checked_add`](https://docs.rs/rust_decimal/1/rust_decimal/struct.Decimal.html#method.checked_add)
    /// would round). The sum keeps the larger scale of the two (`0.10 + 1` is `1.10`), or a
    /// smaller one only when that scale does not fit and the digits dropped are zeros.
    ///
    /// ```
    /// # use baseten_runtime::Decimal;
    /// // In baseten-api: `use baseten_api::primitives::Decimal;` (feature `decimal`).
    ///
    /// let big: Decimal = "999999999999999999999999999.9".parse().unwrap();
    /// let cents: Decimal = "0.05".parse().unwrap();
    /// // 999999999999999999999999999.95 has 29 significant digits: no sum rather than a rounded one.
    /// assert_eq!(big.checked_add(cents), None);
    /// let small: Decimal = "0.1".parse().unwrap();
    /// assert_eq!(big.checked_add(small).map(|d| d.to_string()), Some("1000000000000000000000000000.0".into()));
    /// ```
    pub fn checked_add(self, other: Decimal) -> Option<Decimal> {
        exact::sum(self.0, other.0).map(Decimal)
    }

    /// The exact sum of `amounts`, or `None` when it does not fit (beyond about 7.9 × 10²⁸, or
    /// needing more digits than a `Decimal` holds: see [`checked_add`](Self::checked_add)) or
    /// an amount is itself `None`: items are `Decimal`s or `Option<Decimal>`s, such as the
    /// checked products of [`checked_mul`](Self::checked_mul), so a report sums prices × quantities
    /// in one expression. The empty sum is `Some(Decimal::ZERO)`. (Collecting `Decimal`s into
    /// `Option<Decimal>` with `.sum()` gives the same.)
    ///
    /// ```
    /// # use baseten_runtime::Decimal;
    /// // In baseten-api: `use baseten_api::primitives::Decimal;` (feature `decimal`).
    ///
    /// let per_minute: Decimal = "0.0105".parse().unwrap();
    /// let minutes = [10_080_i64, 4_321];
    /// let cost = Decimal::checked_sum(minutes.iter().map(|m| per_minute.checked_mul(*m)));
    /// assert_eq!(cost.map(|c| c.to_string()), Some("151.2105".into()));
    /// let huge: Decimal = "70000000000000000000000000000".parse().unwrap();
    /// assert_eq!(Decimal::checked_sum([huge, huge]), None);
    /// ```
    pub fn checked_sum<I>(amounts: I) -> Option<Decimal>
    where
        I: IntoIterator,
        I::Item: Into<Option<Decimal>>,
    {
        amounts
            .into_iter()
            .try_fold(Decimal::ZERO, |total, amount| {
                total.checked_add(amount.into()?)
            })
    }

    /// `self - other`, exactly, or `None` when the exact difference does not fit (as
    /// [`checked_add`](Self::checked_add)).
    pub fn checked_sub(self, other: Decimal) -> Option<Decimal> {
        exact::sum(self.0, -other.0).map(Decimal)
    }

    /// `self × other`, exactly, or `None` when the exact product does not fit: a price times a
    /// quantity (`price.checked_mul(minutes)` with an integer, or by another `Decimal`).
    ///
    /// Never rounds: `None` when the product is beyond about 7.9 × 10²⁸ or needs more than 28
    /// digits after the point (where [`rust_decimal::Decimal::checked_mul`](https://docs.rs/rust_decimal/1/rust_decimal/struct.Decimal.html#method.checked_mul) would round).
    ///
    /// ```
    /// # use baseten_runtime::Decimal;
    /// // In baseten-api: `use baseten_api::primitives::Decimal;` (feature `decimal`).
    ///
    /// let per_minute: Decimal = "0.0105".parse().unwrap();
    /// assert_eq!(per_minute.checked_mul(1_440).map(|d| d.to_string()), Some("15.1200".into()));
    /// let share: Decimal = "0.5".parse().unwrap();
    /// assert_eq!(per_minute.checked_mul(share).map(|d| d.to_string()), Some("0.00525".into()));
    /// // 28 decimal places times 28 would need 56: no product rather than a rounded one.
    /// let tiny: Decimal = "0.0000000000000000000000000001".parse().unwrap();
    /// assert_eq!(tiny.checked_mul(tiny), None);
    /// ```
    pub fn checked_mul(self, other: impl Into<Decimal>) -> Option<Decimal> {
        // Without trailing zeros, the exact product's scale is the sum of the scales; a result
        // of any other scale is one rust_decimal rounded to fit.
        let (a, b) = (self.0.normalize(), other.into().0.normalize());
        if a.is_zero() || b.is_zero() {
            return Some(Decimal::ZERO);
        }
        // A product rounded to fit can even be zero: only its scale tells.
        let product = a.checked_mul(b)?;
        (product.scale() == a.scale() + b.scale()).then_some(Decimal(product))
    }
}

/// Longest excerpt of a refused value quoted in an error.
const EXCERPT_CHARS: usize = 40;

fn refused(text: &str, why: impl fmt::Display) -> DecimalError {
    let excerpt: String = text.chars().take(EXCERPT_CHARS).collect();
    let more = if text.chars().count() > EXCERPT_CHARS {
        "…"
    } else {
        ""
    };
    DecimalError(format!("invalid decimal {excerpt:?}{more}: {why}"))
}

/// Decimal text, as a JSON number writes it or as the document's decimal strings do (`+1.5`,
/// `.5`, `007`): exact, with exponent notation (`1e-3`) accepted too.
fn parse(text: &str) -> Result<Decimal, DecimalError> {
    let parsed = if text.contains(['e', 'E']) {
        rust_decimal::Decimal::from_scientific(text)
    } else {
        // `from_str_exact` refuses what it would have to round, rather than rounding it.
        rust_decimal::Decimal::from_str_exact(text)
    };
    parsed.map(Decimal).map_err(|error| refused(text, error))
}

impl FromStr for Decimal {
    type Err = DecimalError;

    fn from_str(text: &str) -> Result<Decimal, DecimalError> {
        parse(text)
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl From<rust_decimal::Decimal> for Decimal {
    fn from(value: rust_decimal::Decimal) -> Decimal {
        Decimal(value)
    }
}

impl From<Decimal> for rust_decimal::Decimal {
    fn from(value: Decimal) -> rust_decimal::Decimal {
        value.0
    }
}

impl From<i64> for Decimal {
    fn from(value: i64) -> Decimal {
        Decimal(rust_decimal::Decimal::from(value))
    }
}

impl From<i32> for Decimal {
    fn from(value: i32) -> Decimal {
        Decimal(rust_decimal::Decimal::from(value))
    }
}

impl From<u32> for Decimal {
    fn from(value: u32) -> Decimal {
        Decimal(rust_decimal::Decimal::from(value))
    }
}

impl From<u64> for Decimal {
    fn from(value: u64) -> Decimal {
        Decimal(rust_decimal::Decimal::from(value))
    }
}

/// The sum of the amounts, or `None` when it does not fit (beyond about 7.9 × 10²⁸): amounts
/// come from a server, so their total is checked rather than panicking, and never saturated
/// (a wrong total is worse than none). Collect into `Option<Decimal>`:
/// `let total: Option<Decimal> = amounts.iter().sum();`. The empty sum is `Some(Decimal::ZERO)`.
impl Sum<Decimal> for Option<Decimal> {
    fn sum<I: Iterator<Item = Decimal>>(mut iter: I) -> Option<Decimal> {
        iter.try_fold(Decimal::ZERO, Decimal::checked_add)
    }
}

/// As the sum of [`Decimal`]s by value.
impl<'a> Sum<&'a Decimal> for Option<Decimal> {
    fn sum<I: Iterator<Item = &'a Decimal>>(iter: I) -> Option<Decimal> {
        iter.copied().sum()
    }
}

/// Encoded as a JSON string: exact for any reader, and the document's string member accepts it.
impl Serialize for Decimal {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

/// The name under which serde_json hands a value's raw JSON text to a
/// `serde_json::value::RawValue` (and so to [`Decimal`]): from JSON text or a
/// `serde_json::Value` alike. Any other deserializer sees an ordinary newtype struct request
/// and its value is decoded by kind instead.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";
/// The same for a number under serde_json's `arbitrary_precision` feature.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Reads the value as `Box<RawValue>` does, then parses its text; accepts plain values too.
struct DecimalVisitor;

impl<'de> Visitor<'de> for DecimalVisitor {
    type Value = Decimal;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a decimal number, or a string of one")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Decimal, A::Error> {
        let key: Option<String> = map.next_key()?;
        match key.as_deref() {
            Some(RAW_VALUE_TOKEN | NUMBER_TOKEN) => {
                let raw: String = map.next_value()?;
                parse_raw(&raw).map_err(de::Error::custom)
            }
            _ => Err(de::Error::invalid_type(de::Unexpected::Map, &self)),
        }
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, inner: D) -> Result<Decimal, D::Error> {
        inner.deserialize_any(self)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Decimal, E> {
        parse(text).map_err(E::custom)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Decimal, E> {
        Ok(Decimal::from(value))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Decimal, E> {
        Ok(Decimal(rust_decimal::Decimal::from(value)))
    }

    fn visit_i128<E: de::Error>(self, value: i128) -> Result<Decimal, E> {
        rust_decimal::Decimal::try_from_i128_with_scale(value, 0)
            .map(Decimal)
            .map_err(|error| E::custom(refused(&value.to_string(), error)))
    }

    fn visit_u128<E: de::Error>(self, value: u128) -> Result<Decimal, E> {
        match i128::try_from(value) {
            Ok(value) => self.visit_i128(value),
            Err(error) => Err(E::custom(refused(&value.to_string(), error))),
        }
    }

    /// Only from a deserializer that has nothing but the `f64` (not serde_json's): its
    /// shortest round-trip text, which is the text that was sent whenever that had at most
    /// 15 significant digits.
    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Decimal, E> {
        if !value.is_finite() {
            return Err(E::custom(refused(
                &value.to_string(),
                "not a finite number",
            )));
        }
        parse(&format!("{value:e}")).map_err(E::custom)
    }
}

/// A value's raw JSON text: a number as written, or a string (quoted, maybe with escapes).
fn parse_raw(raw: &str) -> Result<Decimal, DecimalError> {
    let raw = raw.trim();
    if raw.starts_with('"') {
        let text: String = serde_json::from_str(raw).map_err(|error| refused(raw, error))?;
        return parse(&text);
    }
    if raw.starts_with(['-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']) {
        return parse(raw);
    }
    Err(refused(
        raw,
        "expected a decimal number, or a string of one",
    ))
}

impl<'de> Deserialize<'de> for Decimal {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Decimal, D::Error> {
        deserializer.deserialize_newtype_struct(RAW_VALUE_TOKEN, DecimalVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Decimal {
        match text.parse() {
            Ok(value) => value,
            Err(error) => panic!("{text}: {error}"),
        }
    }

    #[test]
    fn products_are_exact_or_none() {
        let shown = |product: Option<Decimal>| product.map(|p| p.to_string());
        // (a, b, a × b): exact, with trailing zeros dropped from the operands first.
        let cases = [
            ("0.0105", "1440", Some("15.12")),
            ("0.10", "3", Some("0.3")),
            ("-2.5", "4", Some("-10")),
            ("0", "0.0000000000000000000000000001", Some("0")),
            ("0.5", "0.2", Some("0.10")),
            (
                "79228162514264337593543950335",
                "1",
                Some("79228162514264337593543950335"),
            ),
            // Beyond the largest Decimal.
            ("79228162514264337593543950335", "2", None),
            // 14 + 15 = 29 places: rust_decimal would round to 28.
            ("0.00000000000001", "0.000000000000003", None),
            ("0.3333333333333333333333333333", "0.3", None),
        ];
        // Compared by value (`0.10 == 0.1`); the scale is the operands' without trailing zeros.
        for (a, b, expected) in cases {
            assert_eq!(d(a).checked_mul(d(b)), expected.map(d), "{a} × {b}");
            assert_eq!(d(b).checked_mul(d(a)), expected.map(d), "{b} × {a}");
        }
        assert_eq!(
            shown(d("0.0105").checked_mul(1_440)),
            Some("15.1200".into())
        );
        assert_eq!(shown(d("2.50").checked_mul(d("4.0"))), Some("10.0".into()));
        assert_eq!(shown(d("0.25").checked_mul(3_i64)), Some("0.75".into()));
        assert_eq!(shown(d("0.25").checked_mul(3_u32)), Some("0.75".into()));
        assert_eq!(shown(d("0.25").checked_mul(-3_i32)), Some("-0.75".into()));
        assert_eq!(
            shown(d("0.25").checked_mul(u64::MAX)),
            Some("4611686018427387903.75".into())
        );
    }

    fn decoded(json: &str) -> Result<String, String> {
        serde_json::from_str::<Decimal>(json)
            .map(|d| d.to_string())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn decodes_numbers_and_strings_exactly() {
        let cases = [
            ("0.1", "0.1"),
            (r#""0.10""#, "0.10"),
            (
                "12345678901234567890.123456789",
                "12345678901234567890.123456789",
            ),
            ("1e-3", "0.001"),
            ("2.5E2", "250"),
            (r#""+1.5""#, "1.5"),
            (r#""007""#, "7"),
            ("-0.5", "-0.5"),
            ("  3 ", "3"),
        ];
        for (json, expected) in cases {
            assert_eq!(decoded(json).as_deref(), Ok(expected), "{json}");
        }
    }

    #[test]
    fn refuses_what_is_not_a_decimal() {
        for json in [
            r#""abc""#,
            "true",
            "null",
            "[1]",
            r#"{"a": 1}"#,
            r#""""#,
            "1e400",
        ] {
            assert!(decoded(json).is_err(), "{json} decoded");
        }
        // Beyond 28 digits is refused, not rounded.
        assert!(decoded("0.12345678901234567890123456789012").is_err());
    }

    #[test]
    fn decodes_from_a_value_and_plain_deserializers() {
        let from_value = |v: serde_json::Value| {
            serde_json::from_value::<Decimal>(v)
                .map(|d| d.to_string())
                .ok()
        };
        assert_eq!(from_value(serde_json::json!(0.2)).as_deref(), Some("0.2"));
        assert_eq!(
            from_value(serde_json::json!("0.20")).as_deref(),
            Some("0.20")
        );
        assert_eq!(from_value(serde_json::json!(7)).as_deref(), Some("7"));
        assert_eq!(from_value(serde_json::json!("x")), None);
        // A deserializer that is not serde_json's: the value by kind.
        use serde_core::de::IntoDeserializer;
        let d: Result<Decimal, de::value::Error> = Decimal::deserialize("1.25".into_deserializer());
        assert_eq!(d.map(|d| d.to_string()).ok().as_deref(), Some("1.25"));
        let d: Result<Decimal, de::value::Error> = Decimal::deserialize(0.5f64.into_deserializer());
        assert_eq!(d.map(|d| d.to_string()).ok().as_deref(), Some("0.5"));
    }

    #[test]
    fn integers_from_plain_deserializers_keep_their_value() {
        use serde_core::de::IntoDeserializer;
        fn via<'de, D: Deserializer<'de, Error = de::value::Error>>(d: D) -> String {
            Decimal::deserialize(d).map_or_else(|e| e.to_string(), |d| d.to_string())
        }
        assert_eq!(via((-7i64).into_deserializer()), "-7");
        assert_eq!(via(7u64.into_deserializer()), "7");
        assert_eq!(via(12i128.into_deserializer()), "12");
        assert_eq!(via(13u128.into_deserializer()), "13");
        assert!(via(u128::MAX.into_deserializer()).starts_with("invalid decimal"));
        // What the visitor expects, in a plain deserializer's type error.
        let error = via(true.into_deserializer());
        assert!(
            error.ends_with("expected a decimal number, or a string of one"),
            "{error}"
        );
    }

    #[test]
    fn errors_quote_at_most_forty_characters() {
        let message = |text: &str| text.parse::<Decimal>().unwrap_err().to_string();
        let forty = "x".repeat(40);
        assert!(message(&forty).starts_with(&format!("invalid decimal {forty:?}:")));
        let long = "x".repeat(41);
        assert!(message(&long).starts_with(&format!("invalid decimal {forty:?}…:")));
        assert!(message("x").starts_with("invalid decimal \"x\":"));
    }

    #[test]
    fn conversions_and_checked_arithmetic() {
        let inner = rust_decimal::Decimal::new(125, 2);
        let value = Decimal::from(inner);
        assert_eq!(value.as_decimal(), inner);
        assert_eq!(value.into_inner(), inner);
        assert_eq!(rust_decimal::Decimal::from(value), inner);
        assert_eq!(Decimal::from(-3i64).to_string(), "-3");
        let three = Decimal::from(3i64);
        let one = Decimal::from(1i64);
        assert_eq!(three.checked_add(one), Some(Decimal::from(4i64)));
        assert_eq!(three.checked_sub(one), Some(Decimal::from(2i64)));
        let min = Decimal::from(rust_decimal::Decimal::MIN);
        assert_eq!(min.checked_sub(three), None);
    }

    #[test]
    fn arithmetic_is_exact() {
        let a: Decimal = "0.1".parse().unwrap_or_default();
        let b: Decimal = "0.2".parse().unwrap_or_default();
        assert_eq!(a.checked_add(b), "0.3".parse().ok());
        assert_eq!(
            b.checked_sub(a).map(|d| d.to_string()).as_deref(),
            Some("0.1")
        );
        let c = b;
        let total: Option<Decimal> = vec![a, b].into_iter().sum();
        assert_eq!(total.map(|d| d.to_string()).as_deref(), Some("0.3"));
        let by_reference: Option<Decimal> = [a, b, b].iter().sum();
        assert_eq!(by_reference, "0.5".parse().ok());
        assert_eq!(
            std::iter::empty::<Decimal>().sum::<Option<Decimal>>(),
            Some(Decimal::ZERO)
        );
        assert_eq!(Decimal::default(), Decimal::ZERO);
        assert!(a < b);
        assert_eq!(
            Decimal::from(rust_decimal::Decimal::new(5, 1)),
            "0.50".parse().unwrap_or_default()
        );
        assert_eq!(serde_json::to_string(&c).ok().as_deref(), Some(r#""0.2""#));
        let max = Decimal::from(rust_decimal::Decimal::MAX);
        assert_eq!(max.checked_add(max), None);
    }

    /// Two server amounts near the largest a `Decimal` holds: their sum is `None`, wherever the
    /// overflow happens, and an overflow is not undone by a later negative amount.
    #[test]
    fn checked_sum_adds_amounts_and_checked_products() {
        assert_eq!(
            Decimal::checked_sum(Vec::<Decimal>::new()),
            Some(Decimal::ZERO)
        );
        assert_eq!(Decimal::checked_sum([d("0.1"), d("0.2")]), Some(d("0.3")));
        assert_eq!(
            Decimal::checked_sum([Some(d("1.5")), Some(d("-0.5"))]),
            Some(d("1"))
        );
        // One product that did not fit spoils the total, wherever it is.
        assert_eq!(Decimal::checked_sum([Some(d("1")), None]), None);
        assert_eq!(Decimal::checked_sum([None, Some(d("1"))]), None);
        let huge = d("70000000000000000000000000000");
        assert_eq!(Decimal::checked_sum([huge, huge]), None);
        assert_eq!(
            Decimal::checked_sum([huge, huge.checked_sub(huge).unwrap_or(huge)]),
            Some(huge)
        );
    }

    #[test]
    fn sums_that_do_not_fit_are_none_not_a_panic() {
        let huge: Decimal = "79000000000000000000000000000".parse().unwrap_or_default();
        let one = Decimal::from(1i64);
        let minus_huge = Decimal::from(-huge.as_decimal());
        assert_eq!([huge, huge].iter().sum::<Option<Decimal>>(), None);
        assert_eq!(
            [one, huge, huge, minus_huge]
                .iter()
                .sum::<Option<Decimal>>(),
            None
        );
        assert_eq!(
            [minus_huge, minus_huge]
                .into_iter()
                .sum::<Option<Decimal>>(),
            None
        );
        assert_eq!(
            [huge, minus_huge, huge].iter().sum::<Option<Decimal>>(),
            Some(huge)
        );
    }
}
