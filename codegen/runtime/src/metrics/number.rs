//! Fast writing of metric values in the CSV contract's form: `f64`'s `Display`, without its cost.

/// Appends `value` to `out` exactly as `value.to_string()` would write it.
///
/// `Display` for `f64` writes the shortest digits that parse back to the same value, in plain
/// positional notation. zmij finds the same shortest digits many times faster but writes them
/// its own way: `2.0` for 2, and an exponent outside a middle range (`1e21`, `1.5e-7`). Without
/// an exponent its text is `Display`'s but for that `.0`; with one, the digits are rewritten:
/// the decimal point moved by the exponent, padded with zeros.
pub(crate) fn write_value(out: &mut Vec<u8>, value: f64) {
    if !value.is_finite() || value == 0.0 {
        // NaN, the infinities and both zeros: rare, and `Display` is the contract for them.
        out.extend_from_slice(value.to_string().as_bytes());
        return;
    }
    let mut buffer = zmij::Buffer::new();
    let text = buffer.format_finite(value).as_bytes();
    if text.contains(&b'e') {
        write_from_exponent_form(out, text, value);
        return;
    }
    let text = text.strip_suffix(b".0").unwrap_or(text);
    let fraction_digits = text
        .iter()
        .position(|&b| b == b'.')
        .map_or(0, |dot| text.len() - dot - 1);
    if is_tie(value, fraction_digits) {
        out.extend_from_slice(value.to_string().as_bytes());
    } else {
        out.extend_from_slice(text);
    }
}

/// Whether the shortest digits, `fraction_digits` after the point, are one of two equally near.
///
/// A value with `f` fractional bits is exactly a decimal with `f` fractional digits, the last a
/// 5. When the shortest round-trip form has `f - 1` of them, the value lies exactly halfway
/// between two such forms, both of which round-trip: zmij then picks the even one, `Display`
/// the one further from zero. Only then do they differ, so only then is `Display` asked.
fn is_tie(value: f64, fraction_digits: usize) -> bool {
    fraction_bits(value).checked_sub(1) == Some(fraction_digits as u32)
}

/// The number of binary digits after the point in `value`'s exact value (0 for an integer).
fn fraction_bits(value: f64) -> u32 {
    let bits = value.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (mantissa, exponent) = if exponent == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), exponent - 1075)
    };
    if mantissa == 0 {
        return 0;
    }
    let lowest_bit = exponent + mantissa.trailing_zeros() as i32;
    if lowest_bit < 0 {
        lowest_bit.unsigned_abs()
    } else {
        0
    }
}

/// Rewrites `[-]digits[.digits]e[+|-]exponent`, zmij's text for `value`, into plain positional
/// notation.
fn write_from_exponent_form(out: &mut Vec<u8>, text: &[u8], value: f64) {
    let (negative, text) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let (mantissa, exponent) = split_exponent(text);
    // The mantissa is `int.frac`, or digits alone; gather its digits and where the point falls.
    let (int, frac) = match mantissa.iter().position(|&b| b == b'.') {
        Some(dot) => (&mantissa[..dot], &mantissa[dot + 1..]),
        None => (mantissa, &[][..]),
    };
    let mut digits = [0u8; 40];
    let mut len = 0;
    for &digit in int.iter().chain(frac) {
        if let Some(slot) = digits.get_mut(len) {
            *slot = digit;
            len += 1;
        }
    }
    // Position of the decimal point among `digits`, counted from the left.
    let mut point = int.len() as i32 + exponent;
    let mut digits = &digits[..len];
    while let [b'0', rest @ ..] = digits {
        digits = rest;
        point -= 1;
    }
    while let [rest @ .., b'0'] = digits {
        digits = rest;
    }
    let count = digits.len() as i32;
    if is_tie(value, (count - point).max(0) as usize) {
        out.extend_from_slice(value.to_string().as_bytes());
        return;
    }
    if negative {
        out.push(b'-');
    }
    if point <= 0 {
        out.extend_from_slice(b"0.");
        out.resize(out.len() + point.unsigned_abs() as usize, b'0');
        out.extend_from_slice(digits);
    } else if point >= count {
        out.extend_from_slice(digits);
        out.resize(out.len() + (point - count) as usize, b'0');
    } else {
        let (whole, fraction) = digits.split_at(point as usize);
        out.extend_from_slice(whole);
        out.push(b'.');
        out.extend_from_slice(fraction);
    }
}

/// Splits zmij's text at its `e`, returning the mantissa and the exponent (0 without one).
fn split_exponent(text: &[u8]) -> (&[u8], i32) {
    let Some(e) = text.iter().position(|&b| b == b'e') else {
        return (text, 0);
    };
    let (mantissa, exponent) = (&text[..e], &text[e + 1..]);
    let (sign, magnitude) = match exponent.split_first() {
        Some((b'-', rest)) => (-1, rest),
        Some((b'+', rest)) => (1, rest),
        _ => (1, exponent),
    };
    let magnitude = magnitude
        .iter()
        .fold(0i32, |acc, &d| acc * 10 + i32::from(d - b'0'));
    (mantissa, sign * magnitude)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(value: f64) -> String {
        let mut out = Vec::new();
        write_value(&mut out, value);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn edge_cases_match_display() {
        for value in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.5,
            2.5,
            10.0,
            100.0,
            123.456,
            -123.456,
            1e7,
            1e15,
            1e16,
            1e17,
            1e20,
            1e21,
            1e22,
            1.5e300,
            1e-5,
            1e-6,
            1e-7,
            1.5e-7,
            1e-300,
            5e-324,
            f64::MIN_POSITIVE,
            f64::MIN_POSITIVE / 3.0,
            f64::MAX,
            f64::MIN,
            f64::EPSILON,
            1.9733999999999998,
            112.30799999999999,
            9007199254740993.0,
            123456789012345680.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            assert_eq!(written(value), value.to_string(), "{value:e}");
        }
    }

    #[test]
    fn every_exponent_matches_display() {
        for exponent in -324..=308 {
            for mantissa in [1.0, 1.25, 9.999, 3.3333333333333335, 7.0] {
                let value: f64 = format!("{mantissa}e{exponent}").parse().unwrap();
                assert_eq!(written(value), value.to_string(), "{value:e}");
                assert_eq!(written(-value), (-value).to_string(), "{value:e}");
            }
        }
    }

    #[test]
    fn ties_between_two_shortest_forms_round_away_from_zero_as_display_does() {
        // Exactly ...797.25 and 8 + 2^-16: each halfway between two shortest forms. (Sums, as
        // their exact literals are longer than clippy accepts.)
        let quarter = -(1_149_636_667_324_797.0 + 0.25);
        let three_quarters = 1_149_636_667_324_797.0 + 0.75;
        for value in [
            quarter,
            three_quarters,
            8.0 + 1.0 / 65536.0,
            1.0e-7 + f64::EPSILON,
        ] {
            assert_eq!(written(value), value.to_string(), "{value:e}");
        }
        assert_eq!(written(quarter), "-1149636667324797.3");
        assert_eq!(fraction_bits(0.75), 2);
        assert_eq!(fraction_bits(-0.5), 1);
        assert_eq!(fraction_bits(3.0), 0);
        assert_eq!(fraction_bits(1e300), 0);
        assert_eq!(fraction_bits(5e-324), 1074);
        assert_eq!(fraction_bits(f64::MIN_POSITIVE), 1022);
        assert_eq!(fraction_bits(0.0), 0);
        assert!(is_tie(three_quarters, 1));
        assert!(!is_tie(three_quarters, 2));
        assert!(!is_tie(0.5, 1));
    }

    #[test]
    fn appends_after_existing_bytes() {
        let mut out = b"x,".to_vec();
        write_value(&mut out, 0.25);
        write_value(&mut out, -0.0);
        assert_eq!(out, b"x,0.25-0");
    }

    #[test]
    fn random_bit_patterns_and_short_decimals_match_display() {
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..200_000 {
            let bits = f64::from_bits(next());
            let decimal = (next() % 100_000_000) as f64 / 10_f64.powi((next() % 12) as i32);
            for value in [bits, decimal, -decimal] {
                assert_eq!(written(value), value.to_string(), "{:#x}", value.to_bits());
            }
        }
    }
}
