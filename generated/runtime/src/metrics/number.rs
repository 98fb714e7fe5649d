//! Fast writing of metric values in the CSV contract's form: `f64`'s `Display`, without its cost.

/// Appends `value` to `out` exactly as `value.to_string()` would write it.
///
/// `Display` for `f64` writes the shortest digits that parse back to the same value, in plain
/// positional notation. ryu finds the same shortest digits several times faster but writes them
/// its own way (`1e21`, `1.5e-7`, `0.1`, `2.0`); this rewrites ryu's text into `Display`'s form:
/// the digits, with the decimal point moved by the exponent and padded with zeros.
pub(crate) fn write_value(out: &mut Vec<u8>, value: f64) {
    if !value.is_finite() || value == 0.0 {
        // NaN, the infinities and both zeros: rare, and `Display` is the contract for them.
        out.extend_from_slice(value.to_string().as_bytes());
        return;
    }
    let mut buffer = ryu::Buffer::new();
    let text = buffer.format_finite(value).as_bytes();
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
    if negative {
        out.push(b'-');
    }
    let count = digits.len() as i32;
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

/// Splits ryu's text at its `e`, returning the mantissa and the exponent (0 without one).
fn split_exponent(text: &[u8]) -> (&[u8], i32) {
    let Some(e) = text.iter().position(|&b| b == b'e') else {
        return (text, 0);
    };
    let (mantissa, exponent) = (&text[..e], &text[e + 1..]);
    let (sign, magnitude) = match exponent.split_first() {
        Some((b'-', rest)) => (-1, rest),
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
    fn appends_after_existing_bytes() {
        let mut out = b"x,".to_vec();
        write_value(&mut out, 0.25);
        write_value(&mut out, -0.0);
        assert_eq!(out, b"x,0.25-0");
    }
}
