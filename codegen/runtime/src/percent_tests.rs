//! The boundary against its standards: RFC 3986's character classes byte by byte for every
//! component, RFC 6570's reserved-expansion examples, the dot-segment rule over every spelling
//! (as a property), the path rule and the cookie builder.

use percent_encoding::percent_decode_str;
use proptest::prelude::*;

use super::{
    Component, check_path, checked_segment, cookie_header, cookie_pair, encode, is_dot_segment,
    is_token,
};
use crate::error::Error;

/// RFC 3986 §2.3.
fn unreserved(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~')
}

/// RFC 3986 §2.2: gen-delims and sub-delims.
fn reserved(byte: u8) -> bool {
    b":/?#[]@!$&'()*+,;=".contains(&byte)
}

/// Whether `component` writes the ASCII byte as it is, by the table the module documents.
fn literal(component: Component, byte: u8) -> bool {
    match component {
        Component::PathSegment | Component::Query | Component::Cookie => unreserved(byte),
        Component::SpaceDelimited => unreserved(byte),
        Component::LabelItem => unreserved(byte) && byte != b'.',
        Component::PathLiteral => (0x21..=0x7e).contains(&byte) && !b"\"#<>?`{}\\".contains(&byte),
        Component::Reserved => unreserved(byte) || reserved(byte),
        Component::Header => (0x21..=0x7e).contains(&byte) && !b"%,=\"".contains(&byte),
    }
}

const COMPONENTS: [Component; 8] = [
    Component::PathSegment,
    Component::LabelItem,
    Component::PathLiteral,
    Component::Query,
    Component::SpaceDelimited,
    Component::Reserved,
    Component::Header,
    Component::Cookie,
];

#[test]
fn every_ascii_byte_is_literal_or_escaped_by_its_components_table() {
    for component in COMPONENTS {
        for byte in 0u8..=0x7f {
            let text = char::from(byte).to_string();
            let expected = if literal(component, byte) {
                text.clone()
            } else if byte == b' ' && component == Component::SpaceDelimited {
                "+".to_owned()
            } else {
                format!("%{byte:02X}")
            };
            assert_eq!(
                encode(&text, component),
                expected,
                "{component:?} {byte:#04x}"
            );
        }
        // Beyond ASCII: the UTF-8 bytes, each `%XX`.
        assert_eq!(
            encode("é🦀", component),
            "%C3%A9%F0%9F%A6%80",
            "{component:?}"
        );
    }
}

#[test]
fn reserved_expansion_matches_rfc_6570s_examples() {
    // RFC 6570 §3.2.3 (and §1.2's level-2 table), with its variables.
    for (value, expanded) in [
        ("value", "value"),
        ("Hello World!", "Hello%20World!"),
        ("/foo/bar", "/foo/bar"),
        ("50%", "50%25"),
        ("http://example.com/home/", "http://example.com/home/"),
        ("red,green,blue", "red,green,blue"),
        ("?a=1&b=[2]#c", "?a=1&b=[2]#c"),
        // A `%XX` triple passes (a cursor the server encoded comes back as it was); a `%` that
        // starts none is escaped.
        ("a%2Fb%3d", "a%2Fb%3d"),
        ("%", "%25"),
        ("%4", "%254"),
        ("%zz%41", "%25zz%41"),
        ("100%%41", "100%25%41"),
        ("é%C3%A9", "%C3%A9%C3%A9"),
    ] {
        assert_eq!(encode(value, Component::Reserved), expanded, "{value:?}");
    }
}

#[test]
fn a_dot_segment_is_refused_in_every_spelling() {
    for segment in [".", "..", "%2e", "%2E", ".%2e", "%2E.", "%2e%2E", "%2E%2E"] {
        assert!(is_dot_segment(segment), "{segment}");
        assert!(
            matches!(checked_segment("id", segment.to_owned()), Err(Error::InvalidRequest(m)) if m.contains("`id`") && m.contains("dot segment")),
            "{segment}"
        );
        for path in [
            format!("/v1/{segment}/admin"),
            format!("/{segment}"),
            format!("/v1/models/{segment}"),
        ] {
            let refused = check_path("op", &path);
            assert!(
                matches!(&refused, Err(Error::InvalidRequest(m)) if m.starts_with("op: the path holds a dot segment")),
                "{path}: {refused:?}"
            );
        }
    }
    for segment in ["...", ".a", "a.", "%2e%2e%2e", "%252e", "%2f", "a..b", "~"] {
        assert!(!is_dot_segment(segment), "{segment}");
        assert_eq!(
            checked_segment("id", segment.to_owned()).ok().as_deref(),
            Some(segment)
        );
        assert!(
            check_path("op", &format!("/v1/{segment}/x")).is_ok(),
            "{segment}"
        );
    }
    assert!(
        matches!(checked_segment("id", String::new()), Err(Error::InvalidRequest(m)) if m == "path parameter `id` is empty")
    );
}

#[test]
fn the_path_rule_takes_visible_ascii_from_a_leading_slash_only() {
    for (path, why) in [
        ("v1/x", "does not start with '/'"),
        ("", "does not start with '/'"),
        ("/v1/x?y=1", "holds '?'"),
        ("/v1/x#y", "holds '#'"),
        ("/v1\\x", "holds '\\\\'"),
        ("/v1/x y", "holds ' '"),
        ("/v1/\tx", "holds '\\t'"),
        ("/v1/é", "holds 'é'"),
        ("/v1/\u{7f}", "holds '\\u{7f}'"),
    ] {
        let refused = check_path("op", path);
        assert!(
            matches!(&refused, Err(Error::InvalidRequest(m)) if m.starts_with(&format!("op: the path {why}"))),
            "{path:?}: {refused:?}"
        );
    }
    for path in ["/", "/v1/models", "/v1//x", "/v1/%2F/~!$&'()*+,;=:@"] {
        assert!(check_path("op", path).is_ok(), "{path}");
    }
}

#[test]
fn cookies_are_token_named_encoded_pairs_in_one_header() {
    assert_eq!(
        cookie_pair("a", "1; b=2").ok().as_deref(),
        Some("a=1%3B%20b%3D2")
    );
    for name in ["", "a b", "a;b", "é", "a=b", "a,b"] {
        assert!(
            matches!(cookie_pair(name, "v"), Err(Error::InvalidRequest(m)) if m.contains("not an HTTP token")),
            "{name:?}"
        );
    }
    assert!(is_token("!#$%&'*+-.^_`|~aZ9"));
    assert!(!is_token("a\"b") && !is_token("a(b") && !is_token(""));
    assert_eq!(
        cookie_header([" a=1 ", "", "  ", "b=2"]).as_deref(),
        Some("a=1; b=2")
    );
    assert_eq!(cookie_header(["a=1"]).as_deref(), Some("a=1"));
    assert_eq!(cookie_header(["", " "]), None);
    assert_eq!(cookie_header(std::iter::empty()), None);
}

fn component() -> impl Strategy<Value = Component> {
    proptest::sample::select(COMPONENTS.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// Any text, in any component: the output holds only the component's literal bytes and
    /// `%XX` triples (and `+` for a space delimited item), and decodes back to the text (a
    /// reserved expansion decodes to it with its own triples decoded too).
    #[test]
    fn encoding_escapes_what_the_table_says_and_decodes_back(
        text in "[a-zA-Z0-9 ._~%:/?#\\[\\]@!$&'()*+,;=\"<>|\\\\é🦀\t\u{0}-]{0,24}",
        component in component(),
    ) {
        let encoded = encode(&text, component);
        if component == Component::PathLiteral {
            // A template's own `%` is kept (a document may write a path already encoded): the
            // text is each character as the table says, nothing decoded.
            let expected: String = text
                .chars()
                .map(|c| match u8::try_from(c) {
                    Ok(byte) if byte.is_ascii() && literal(component, byte) => c.to_string(),
                    _ => c.to_string().bytes().map(|byte| format!("%{byte:02X}")).collect(),
                })
                .collect();
            prop_assert_eq!(encoded, expected);
            return Ok(());
        }
        let mut bytes = encoded.bytes();
        while let Some(byte) = bytes.next() {
            if byte == b'%' {
                let triple: Vec<u8> = bytes.by_ref().take(2).collect();
                prop_assert!(triple.len() == 2 && triple.iter().all(u8::is_ascii_hexdigit), "{encoded}");
            } else {
                let plus = byte == b'+' && component == Component::SpaceDelimited;
                prop_assert!(plus || literal(component, byte), "{component:?} {encoded}");
            }
        }
        let spaced = if component == Component::SpaceDelimited {
            encoded.replace('+', " ")
        } else {
            encoded.clone()
        };
        let decoded = percent_decode_str(&spaced).decode_utf8_lossy().into_owned();
        let expected = if component == Component::Reserved {
            percent_decode_str(&text).decode_utf8_lossy().into_owned()
        } else {
            text.clone()
        };
        prop_assert_eq!(decoded, expected);
    }

    /// A segment of dots and `%2e`s in either case is navigation exactly when it stands for one
    /// or two dots; anything after the encoder is never one unless the value was.
    #[test]
    fn dot_segments_are_what_decodes_to_one_or_two_dots(
        parts in proptest::collection::vec(proptest::sample::select(vec![".", "%2e", "%2E", "a", "%2f"]), 0..4),
    ) {
        let segment = parts.concat();
        let dots = parts.iter().all(|part| part.eq_ignore_ascii_case("%2e") || *part == ".");
        prop_assert_eq!(is_dot_segment(&segment), dots && (1..=2).contains(&parts.len()));
        let encoded = encode(&segment, Component::PathSegment);
        prop_assert_eq!(is_dot_segment(&encoded), segment == "." || segment == "..");
    }
}
