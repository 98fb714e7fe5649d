//! The exact sum of two decimals, or `None` when no `Decimal` holds it: rust_decimal rounds a
//! sum that needs more than its 96-bit mantissa (it drops digits after the point to fit), so
//! sums are computed here on the mantissas aligned to the larger scale, in 256 bits.

use std::cmp::Ordering;

use rust_decimal::Decimal;

/// The largest magnitude a `Decimal`'s mantissa holds, plus one.
const MANTISSA_LIMIT: u128 = 1 << 96;

/// A magnitude of up to 256 bits, least significant 64-bit limb first. A mantissa (under
/// 2^96) times 10^28 (under 2^94), and the sum of two such, stay under 2^191.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Wide([u64; 4]);

impl Wide {
    fn of(value: u128) -> Wide {
        // Truncation intended: the low and the high 64 bits.
        Wide([value as u64, (value >> 64) as u64, 0, 0])
    }

    fn times_ten(self) -> Wide {
        let mut out = [0u64; 4];
        let mut carry = 0u128;
        for (limb, digit) in out.iter_mut().zip(self.0) {
            let product = u128::from(digit) * 10 + carry;
            *limb = product as u64;
            carry = product >> 64;
        }
        Wide(out)
    }

    /// `self / 10` and the remainder.
    fn div_rem_ten(self) -> (Wide, u128) {
        let mut out = [0u64; 4];
        let mut remainder = 0u128;
        for (limb, digit) in out.iter_mut().zip(self.0).rev() {
            let current = (remainder << 64) | u128::from(digit);
            *limb = (current / 10) as u64;
            remainder = current % 10;
        }
        (Wide(out), remainder)
    }

    fn plus(self, other: Wide) -> Wide {
        let mut out = [0u64; 4];
        let mut carry = 0u128;
        for ((limb, a), b) in out.iter_mut().zip(self.0).zip(other.0) {
            let sum = u128::from(a) + u128::from(b) + carry;
            *limb = sum as u64;
            carry = sum >> 64;
        }
        Wide(out)
    }

    /// `self - other`, for `self >= other`.
    fn minus(self, other: Wide) -> Wide {
        let mut out = [0u64; 4];
        let mut borrow = false;
        for ((limb, a), b) in out.iter_mut().zip(self.0).zip(other.0) {
            let (difference, under) = a.overflowing_sub(b);
            let (difference, under_again) = difference.overflowing_sub(u64::from(borrow));
            *limb = difference;
            borrow = under || under_again;
        }
        Wide(out)
    }

    /// The value, when it is a mantissa a `Decimal` holds.
    fn mantissa(self) -> Option<u128> {
        let [low, high, 0, 0] = self.0 else {
            return None;
        };
        let value = u128::from(low) | (u128::from(high) << 64);
        (value < MANTISSA_LIMIT).then_some(value)
    }
}

impl Ord for Wide {
    fn cmp(&self, other: &Wide) -> Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

impl PartialOrd for Wide {
    fn partial_cmp(&self, other: &Wide) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `a + b` exactly, at the larger of their scales, or at a smaller one only where the sum's
/// trailing digits are zeros and the larger does not fit; `None` when no `Decimal` holds it.
pub(super) fn sum(a: Decimal, b: Decimal) -> Option<Decimal> {
    let mut scale = a.scale().max(b.scale());
    let aligned = |d: Decimal| {
        let mut magnitude = Wide::of(d.mantissa().unsigned_abs());
        for _ in d.scale()..scale {
            magnitude = magnitude.times_ten();
        }
        (d.is_sign_negative(), magnitude)
    };
    let ((a_negative, a), (b_negative, b)) = (aligned(a), aligned(b));
    let (negative, mut magnitude) = if a_negative == b_negative {
        (a_negative, a.plus(b))
    } else if a >= b {
        (a_negative, a.minus(b))
    } else {
        (b_negative, b.minus(a))
    };
    loop {
        if let Some(mantissa) = magnitude.mantissa() {
            // Under 2^96: an `i128`, and a `Decimal` at any scale up to 28.
            let mantissa = i128::try_from(mantissa).ok()?;
            let signed = if negative { -mantissa } else { mantissa };
            return Decimal::try_from_i128_with_scale(signed, scale).ok();
        }
        let (shorter, digit) = magnitude.div_rem_ten();
        if scale == 0 || digit != 0 {
            return None;
        }
        magnitude = shorter;
        scale -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The exact sum of two decimal texts (`-12.5`), digit by digit, without trailing zeros
    /// after the point: the reference the 256-bit sum is held to.
    fn reference_sum(a: &str, b: &str) -> String {
        fn split(text: &str) -> (bool, Vec<u8>, Vec<u8>) {
            let (negative, digits) = match text.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, text),
            };
            let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
            let bytes = |s: &str| s.bytes().map(|c| c - b'0').collect::<Vec<u8>>();
            (negative, bytes(whole), bytes(fraction))
        }
        let (a_negative, a_whole, a_fraction) = split(a);
        let (b_negative, b_whole, b_fraction) = split(b);
        let places = a_fraction.len().max(b_fraction.len());
        let width = a_whole.len().max(b_whole.len()) + 1;
        // Most significant first, `width` whole digits then `places` fraction digits.
        let pad = |whole: &[u8], fraction: &[u8]| {
            let mut digits = vec![0u8; width - whole.len()];
            digits.extend_from_slice(whole);
            digits.extend_from_slice(fraction);
            digits.resize(width + places, 0);
            digits
        };
        let (a, b) = (pad(&a_whole, &a_fraction), pad(&b_whole, &b_fraction));
        let (negative, digits) = if a_negative == b_negative {
            let mut out = vec![0u8; a.len()];
            let mut carry = 0;
            for i in (0..a.len()).rev() {
                let s = a[i] + b[i] + carry;
                out[i] = s % 10;
                carry = s / 10;
            }
            (a_negative, out)
        } else {
            let (big, small, negative) = if a >= b {
                (&a, &b, a_negative)
            } else {
                (&b, &a, b_negative)
            };
            let mut out = vec![0u8; a.len()];
            let mut borrow = 0;
            for i in (0..a.len()).rev() {
                let (x, y) = (big[i], small[i] + borrow);
                (out[i], borrow) = if x >= y { (x - y, 0) } else { (x + 10 - y, 1) };
            }
            (negative, out)
        };
        let text = |ds: &[u8]| ds.iter().map(|d| char::from(b'0' + d)).collect::<String>();
        let whole = text(&digits[..width]);
        let fraction = text(&digits[width..]);
        let whole = whole.trim_start_matches('0');
        let fraction = fraction.trim_end_matches('0');
        let whole = if whole.is_empty() { "0" } else { whole };
        let zero = whole == "0" && fraction.is_empty();
        let sign = if negative && !zero { "-" } else { "" };
        match fraction.is_empty() {
            true => format!("{sign}{whole}"),
            false => format!("{sign}{whole}.{fraction}"),
        }
    }

    /// A mantissa of any size a `Decimal` holds, or of exactly 28 digits (the sums rust_decimal
    /// rounds), of either sign, at any scale.
    fn decimal() -> impl Strategy<Value = Decimal> {
        let largest = (MANTISSA_LIMIT - 1) as i128;
        let twenty_eight = 10i128.pow(27)..10i128.pow(28);
        let mantissa = prop_oneof![
            -largest..=largest,
            twenty_eight.clone(),
            twenty_eight.prop_map(|m| -m),
            -1000i128..1000,
            Just(largest),
            Just(-largest),
        ];
        (mantissa, 0u32..=28).prop_map(|(m, scale)| Decimal::from_i128_with_scale(m, scale))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// The sum is the exact one whenever a `Decimal` holds it (at the larger scale when
        /// that fits), and `None` only when none does.
        #[test]
        fn sums_are_exact_or_none(a in decimal(), b in decimal()) {
            let expected = reference_sum(&a.to_string(), &b.to_string());
            let fits = Decimal::from_str_exact(&expected).ok();
            // Through the public API: a sum, a sum of two, a difference from the negation.
            let (public_a, public_b) = (crate::Decimal::from(a), crate::Decimal::from(b));
            let got = public_a.checked_add(public_b).map(crate::Decimal::into_inner);
            prop_assert_eq!(got, fits, "{} + {} = {}", a, b, expected);
            let summed = crate::Decimal::checked_sum([public_a, public_b]);
            prop_assert_eq!(summed.map(crate::Decimal::into_inner), got);
            let difference = public_a.checked_sub(crate::Decimal::from(-b));
            prop_assert_eq!(difference.map(crate::Decimal::into_inner), got);
            if let Some(got) = got {
                // At the larger scale, unless only a smaller one holds it.
                let larger = a.scale().max(b.scale());
                let (whole, fraction) = expected.split_once('.').unwrap_or((&expected, ""));
                let zeros = "0".repeat(larger as usize - fraction.len());
                let at_larger = match larger {
                    0 => whole.to_owned(),
                    _ => format!("{whole}.{fraction}{zeros}"),
                };
                let scale = match Decimal::from_str_exact(&at_larger) {
                    Ok(_) => larger,
                    Err(_) => got.scale(),
                };
                prop_assert_eq!(got.scale(), scale, "{} + {} = {}", a, b, got);
                prop_assert!(scale <= larger);
            }
        }
    }

    #[test]
    fn sums_rust_decimal_rounds_are_exact_or_none() {
        let d = |text: &str| Decimal::from_str_exact(text).unwrap_or_else(|e| panic!("{e}"));
        let cases = [
            // 29 significant digits: rust_decimal gives 1000000000000000000000000000.0 (rounded).
            ("999999999999999999999999999.9", "0.05", None),
            // 28 places and a whole digit: a mantissa past 2^96 (about 7.9 × 10^28), or under it.
            ("0.9234567890123456789012345678", "9", None),
            (
                "0.1234567890123456789012345678",
                "1",
                Some("1.1234567890123456789012345678"),
            ),
            // The larger scale overflows but the sum's last digit is zero: exact at a smaller one.
            (
                "7922816251426433759354395033.5",
                "0.5",
                Some("7922816251426433759354395034"),
            ),
            // Scaled up past 2^96, yet the difference fits at the larger scale.
            (
                "7922816251426433759354395034",
                "-0.5",
                Some("7922816251426433759354395033.5"),
            ),
            ("79228162514264337593543950335", "1", None),
            ("-79228162514264337593543950335", "-1", None),
            (
                "-79228162514264337593543950335",
                "1",
                Some("-79228162514264337593543950334"),
            ),
            ("0.00", "1.5", Some("1.50")),
            ("-1.5", "1.5", Some("0.0")),
            ("2", "-3.25", Some("-1.25")),
        ];
        for (a, b, expected) in cases {
            let shown = sum(d(a), d(b)).map(|s| s.to_string());
            assert_eq!(shown.as_deref(), expected, "{a} + {b}");
            let swapped = sum(d(b), d(a)).map(|s| s.to_string());
            assert_eq!(swapped.as_deref(), expected, "{b} + {a}");
        }
    }

    #[test]
    fn wide_arithmetic() {
        let big = Wide([u64::MAX, u64::MAX, 1, 0]);
        assert_eq!(big.plus(Wide::of(1)), Wide([0, 0, 2, 0]));
        assert_eq!(Wide([0, 0, 2, 0]).minus(Wide::of(1)), big);
        assert_eq!(
            Wide::of(u128::from(u64::MAX)).times_ten(),
            Wide([u64::MAX - 9, 9, 0, 0])
        );
        assert_eq!(
            Wide([u64::MAX - 9, 9, 0, 0]).div_rem_ten(),
            (Wide::of(u128::from(u64::MAX)), 0)
        );
        assert_eq!(Wide::of(57).div_rem_ten(), (Wide::of(5), 7));
        assert!(Wide([0, 0, 0, 1]) > Wide([u64::MAX, u64::MAX, u64::MAX, 0]));
        assert!(Wide::of(3) < Wide::of(4));
        assert_eq!(
            Wide::of(MANTISSA_LIMIT - 1).mantissa(),
            Some(MANTISSA_LIMIT - 1)
        );
        assert_eq!(Wide::of(MANTISSA_LIMIT).mantissa(), None);
        assert_eq!(Wide([0, 0, 1, 0]).mantissa(), None);
        assert_eq!(Wide([0, 0, 0, 1]).mantissa(), None);
    }
}
