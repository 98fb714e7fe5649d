//! heck's `snake_case` and `UpperCamelCase` for ASCII names, without its `fmt` machinery.
//!
//! heck writes every character through `core::fmt` and Unicode case tables; the generator
//! cases every wire name it meets, and on large documents that cost 20–30% of generation. The
//! names it cases are ASCII (see `ascii_words`), so this is heck's word splitting on bytes,
//! giving exactly heck's output (the tests compare the two exhaustively on short strings and on
//! random long ones); anything not ASCII still goes to heck.

use heck::{ToSnakeCase, ToUpperCamelCase};

/// `wire` in snake_case, exactly as `heck::ToSnakeCase` writes it.
pub(crate) fn to_snake_case(wire: &str) -> String {
    if !wire.is_ascii() {
        return wire.to_snake_case();
    }
    let mut out = String::with_capacity(wire.len() + 4);
    for_each_word(wire, |word, first| {
        if !first {
            out.push('_');
        }
        out.extend(word.bytes().map(|b| char::from(b.to_ascii_lowercase())));
    });
    out
}

/// `wire` in UpperCamelCase, exactly as `heck::ToUpperCamelCase` writes it.
pub(crate) fn to_upper_camel_case(wire: &str) -> String {
    if !wire.is_ascii() {
        return wire.to_upper_camel_case();
    }
    let mut out = String::with_capacity(wire.len());
    for_each_word(wire, |word, _| {
        let mut bytes = word.bytes();
        if let Some(head) = bytes.next() {
            out.push(char::from(head.to_ascii_uppercase()));
        }
        out.extend(bytes.map(|b| char::from(b.to_ascii_lowercase())));
    });
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Boundary,
    Lowercase,
    Uppercase,
}

/// heck's `transform` on an ASCII string: calls `word(word, is_first)` for each word in order.
/// Words are the runs of alphanumerics, cut again before a capital that follows a lowercase
/// letter (`aB` → `a`, `B`) and before the last capital of a capital run followed by a
/// lowercase letter (`XMLHttp` → `XML`, `Http`); a digit keeps the case mode before it.
fn for_each_word(wire: &str, mut word: impl FnMut(&str, bool)) {
    let mut first = true;
    for run in wire.split(|c: char| !c.is_ascii_alphanumeric()) {
        let bytes = run.as_bytes();
        let mut init = 0;
        let mut mode = Mode::Boundary;
        for (i, &c) in bytes.iter().enumerate() {
            let Some(&next) = bytes.get(i + 1) else {
                word(&run[init..], first);
                first = false;
                break;
            };
            let next_mode = if c.is_ascii_lowercase() {
                Mode::Lowercase
            } else if c.is_ascii_uppercase() {
                Mode::Uppercase
            } else {
                mode
            };
            if next_mode == Mode::Lowercase && next.is_ascii_uppercase() {
                word(&run[init..=i], first);
                first = false;
                init = i + 1;
                mode = Mode::Boundary;
            } else if mode == Mode::Uppercase && c.is_ascii_uppercase() && next.is_ascii_lowercase()
            {
                word(&run[init..i], first);
                first = false;
                init = i;
                mode = Mode::Boundary;
            } else {
                mode = next_mode;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use heck::{ToSnakeCase, ToUpperCamelCase};

    /// Both styles agree with heck on `wire`.
    fn assert_like_heck(wire: &str) {
        assert_eq!(super::to_snake_case(wire), wire.to_snake_case(), "{wire:?}");
        assert_eq!(
            super::to_upper_camel_case(wire),
            wire.to_upper_camel_case(),
            "{wire:?}"
        );
    }

    /// Every character class heck's splitting tells apart: lowercase, uppercase, digit, `_`,
    /// `-`, space, other punctuation (the first 10, ASCII), and two non-ASCII letters (the
    /// fallback to heck).
    const ALPHABET: &[char] = &['a', 'z', 'B', 'Y', '0', '9', '_', '-', ' ', '.', 'é', 'Σ'];

    #[test]
    fn every_short_string_cases_as_heck_does() {
        let mut strings = vec![String::new()];
        let mut checked = 0;
        for _ in 0..4 {
            let mut longer = Vec::with_capacity(strings.len() * ALPHABET.len());
            for prefix in &strings {
                for &c in ALPHABET {
                    let mut s = prefix.clone();
                    s.push(c);
                    assert_like_heck(&s);
                    checked += 1;
                    longer.push(s);
                }
            }
            strings = longer;
        }
        assert_like_heck("");
        // 12 + 12² + 12³ + 12⁴ strings.
        assert_eq!(checked, 22_620);
    }

    #[test]
    fn random_strings_case_as_heck_does() {
        let ascii: Vec<char> = (0u8..128).map(char::from).collect();
        let any: Vec<char> = ascii
            .iter()
            .copied()
            .chain(['é', 'Σ', 'ß', 'İ', '\u{a0}', '²'])
            .collect();
        // xorshift64: a seeded, repeatable sequence without a dependency.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            usize::try_from(state >> 32).unwrap_or(0)
        };
        let mut fast = 0;
        for _ in 0..5_000 {
            // One string in five may leave ASCII (heck's own path); the rest test ours.
            let pool = if next() % 5 == 0 { &any } else { &ascii };
            let len = next() % 24;
            let wire: String = (0..len)
                .map(|_| {
                    let pick = next();
                    // Half the characters from the classes that matter most.
                    if pick % 2 == 0 {
                        ALPHABET[pick / 2 % 10]
                    } else {
                        pool[pick / 2 % pool.len()]
                    }
                })
                .collect();
            fast += usize::from(wire.is_ascii());
            assert_like_heck(&wire);
        }
        assert!(fast > 3_000, "only {fast} ASCII strings");
    }

    #[test]
    fn heck_examples_hold() {
        for (wire, snake, camel) in [
            ("XMLHttpRequest", "xml_http_request", "XmlHttpRequest"),
            (
                "ABC123dEEf456FOO",
                "abc123d_e_ef456_foo",
                "Abc123dEEf456Foo",
            ),
            ("FieldNamE11", "field_nam_e11", "FieldNamE11"),
            ("99BOTTLES", "99bottles", "99bottles"),
            ("ABcDE", "a_bc_de", "ABcDe"),
        ] {
            assert_eq!(super::to_snake_case(wire), snake, "{wire}");
            assert_eq!(super::to_upper_camel_case(wire), camel, "{wire}");
        }
    }
}
