//! Tests of the parameter encoder: OpenAPI's style table row by row, the cases, and
//! round trips (encode, then parse by the style's grammar) over random items.

use super::{Encoding, ParamLocation, Params, Style, form_text, path_param};
use crate::error::Error;
use crate::percent::{Component, encode};
use proptest::prelude::*;
use serde_json::json;

fn query(style: Style, explode: bool, value: &serde_json::Value) -> String {
    let mut params = Params::new();
    params
        .add(ParamLocation::Query, "color", style, explode, value)
        .unwrap_or_else(|error| panic!("{error}"));
    params.query_string().unwrap_or_default()
}

fn path(style: Style, explode: bool, value: &serde_json::Value) -> String {
    path_param("color", style, explode, value).unwrap_or_else(|error| panic!("{error}"))
}

fn header(explode: bool, value: &serde_json::Value) -> Option<String> {
    let mut params = Params::new();
    params
        .add(
            ParamLocation::Header,
            "X-Color",
            Style::Simple,
            explode,
            value,
        )
        .unwrap_or_else(|error| panic!("{error}"));
    params.headers().next().map(|(_, value)| value.to_owned())
}

fn cookie(explode: bool, value: &serde_json::Value) -> Option<String> {
    let mut params = Params::new();
    params
        .add(ParamLocation::Cookie, "color", Style::Form, explode, value)
        .unwrap_or_else(|error| panic!("{error}"));
    params.cookie_header()
}

/// OpenAPI 3.1's style examples, with `color` = `"blue"`, `["blue", "black", "brown"]` and
/// `{"B": 150, "G": 200, "R": 100}` (the document's example, in sorted order).
#[test]
fn the_openapi_style_examples() {
    let string = json!("blue");
    let array = json!(["blue", "black", "brown"]);
    // Keys in sorted order: serde_json keeps insertion order only with its `preserve_order`.
    let object = json!({"B": 150, "G": 200, "R": 100});
    let cases: [(Style, bool, [&str; 3]); 12] = [
        (
            Style::Matrix,
            false,
            [
                ";color=blue",
                ";color=blue,black,brown",
                ";color=B,150,G,200,R,100",
            ],
        ),
        (
            Style::Matrix,
            true,
            [
                ";color=blue",
                ";color=blue;color=black;color=brown",
                ";B=150;G=200;R=100",
            ],
        ),
        (
            Style::Label,
            false,
            [".blue", ".blue,black,brown", ".B,150,G,200,R,100"],
        ),
        (
            Style::Label,
            true,
            [".blue", ".blue.black.brown", ".B=150.G=200.R=100"],
        ),
        (
            Style::Simple,
            false,
            ["blue", "blue,black,brown", "B,150,G,200,R,100"],
        ),
        (
            Style::Simple,
            true,
            ["blue", "blue,black,brown", "B=150,G=200,R=100"],
        ),
        (
            Style::Form,
            false,
            [
                "color=blue",
                "color=blue,black,brown",
                "color=B,150,G,200,R,100",
            ],
        ),
        (
            Style::Form,
            true,
            [
                "color=blue",
                "color=blue&color=black&color=brown",
                "B=150&G=200&R=100",
            ],
        ),
        (
            Style::SpaceDelimited,
            false,
            [
                "color=blue",
                "color=blue%20black%20brown",
                "color=B%20150%20G%20200%20R%20100",
            ],
        ),
        (
            Style::PipeDelimited,
            false,
            [
                "color=blue",
                "color=blue|black|brown",
                "color=B|150|G|200|R|100",
            ],
        ),
        (
            Style::PipeDelimited,
            true,
            [
                "color=blue",
                "color=blue&color=black&color=brown",
                "B=150&G=200&R=100",
            ],
        ),
        (
            Style::DeepObject,
            true,
            [
                "color=blue",
                "color[]=blue&color[]=black&color[]=brown",
                "color[B]=150&color[G]=200&color[R]=100",
            ],
        ),
    ];
    for (style, explode, [scalar, list, map]) in cases {
        let encode = |value: &serde_json::Value| match style {
            Style::Matrix | Style::Label | Style::Simple => path(style, explode, value),
            _ => query(style, explode, value),
        };
        assert_eq!(
            encode(&string),
            scalar,
            "{style:?} explode={explode} string"
        );
        assert_eq!(encode(&array), list, "{style:?} explode={explode} array");
        assert_eq!(encode(&object), map, "{style:?} explode={explode} object");
    }
    assert_eq!(header(false, &array).as_deref(), Some("blue,black,brown"));
    assert_eq!(header(true, &object).as_deref(), Some("B=150,G=200,R=100"));
    assert_eq!(header(false, &object).as_deref(), Some("B,150,G,200,R,100"));
    assert_eq!(
        cookie(false, &array).as_deref(),
        Some("color=blue,black,brown")
    );
    assert_eq!(
        cookie(true, &array).as_deref(),
        Some("color=blue; color=black; color=brown")
    );
    assert_eq!(
        cookie(true, &object).as_deref(),
        Some("B=150; G=200; R=100")
    );
    assert_eq!(
        cookie(false, &object).as_deref(),
        Some("color=B,150,G,200,R,100")
    );
    assert_eq!(cookie(false, &string).as_deref(), Some("color=blue"));
}

/// Issue 29: `["a,b","c"]` with `explode: false` went out as `tags=a%2Cb%2Cc`, read as three
/// items; `pipeDelimited` and header arrays had the same fault.
#[test]
fn delimiters_inside_items_are_encoded_and_the_styles_are_literal() {
    let tags = json!(["a,b", "c"]);
    assert_eq!(query(Style::Form, false, &tags), "color=a%2Cb,c");
    assert_eq!(
        query(Style::PipeDelimited, false, &json!(["a|b", "c"])),
        "color=a%7Cb|c"
    );
    assert_eq!(
        query(Style::SpaceDelimited, false, &json!(["a b", "c"])),
        "color=a+b%20c"
    );
    assert_eq!(header(false, &tags).as_deref(), Some("a%2Cb,c"));
    assert_eq!(
        header(true, &json!({"k=": "v,"})).as_deref(),
        Some("k%3D=v%2C")
    );
    assert_eq!(path(Style::Simple, false, &tags), "a%2Cb,c");
    assert_eq!(path(Style::Label, true, &json!(["a.b", "c"])), ".a%2Eb.c");
    assert_eq!(
        path(Style::Matrix, true, &json!(["a;b=", "c"])),
        ";color=a%3Bb%3D;color=c"
    );
    assert_eq!(
        cookie(false, &json!(["a,b; c", "d"])).as_deref(),
        Some("color=a%2Cb%3B%20c,d")
    );
    // Keys too: a property name cannot close a bracket or start a pair.
    assert_eq!(
        query(Style::DeepObject, true, &json!({"a]&b=": {"c[": 1}})),
        "color[a%5D%26b%3D][c%5B]=1"
    );
}

/// `deepObject` arrays: scalars as `key[]` once each; an array holding an object or an array
/// indexed (`key[0][k]`), since `key[][k]=1&key[][j]=2` cannot say whether that is one item or
/// two; the index is per array, and `null` items keep their index and send nothing.
#[test]
fn deep_object_indexes_arrays_of_objects_only() {
    assert_eq!(
        query(Style::DeepObject, true, &json!({"tags": ["a", null, 1]})),
        "color[tags][]=a&color[tags][]=1"
    );
    assert_eq!(
        query(
            Style::DeepObject,
            true,
            &json!([{"p": "x", "q": 2}, null, {"p": "y"}])
        ),
        "color[0][p]=x&color[0][q]=2&color[2][p]=y"
    );
    assert_eq!(
        query(Style::DeepObject, true, &json!({"m": [["a"], "b"]})),
        "color[m][0][]=a&color[m][1]=b"
    );
}

/// A form body: a styled property as the query parameter of its name, the others by
/// OpenAPI's defaults (a scalar once, an array repeated, an object as its JSON text); `null`
/// nothing; anything but an object refused.
#[test]
fn form_bodies_follow_each_property_style() {
    let value = json!({
        "a b": "x&y",
        "list": ["p", null, "q"],
        "obj": {"k": "v w"},
        "none": null,
        "deep": {"k": {"j": 1}},
        "csv": ["1", "2,3"],
        "piped": ["1", "2"],
    });
    let styles = [
        ("deep", Encoding::new(Style::DeepObject, true)),
        ("csv", Encoding::new(Style::Form, false)),
        ("piped", Encoding::new(Style::PipeDelimited, false)),
        ("absent", Encoding::new(Style::DeepObject, true)),
    ];
    // Sorted: the properties' order is serde_json's (inserted with `preserve_order`, which a
    // workspace build may turn on, else sorted).
    let text = form_text(&value, &styles).unwrap_or_else(|error| panic!("{error}"));
    let mut pairs: Vec<&str> = text.split('&').collect();
    pairs.sort_unstable();
    assert_eq!(
        pairs,
        [
            "a%20b=x%26y",
            "csv=1,2%2C3",
            "deep[k][j]=1",
            "list=p",
            "list=q",
            "obj=%7B%22k%22%3A%22v%20w%22%7D",
            "piped=1|2"
        ]
    );
    assert_eq!(form_text(&json!({}), &styles).ok().as_deref(), Some(""));
    // A nested value under a flat style has no encoding: refused, naming the property.
    let refused = form_text(&json!({"csv": [{"k": 1}]}), &styles);
    assert!(
        matches!(&refused, Err(Error::InvalidRequest(message)) if message.contains("`csv`")),
        "{refused:?}"
    );
    for not_an_object in [json!([1]), json!("a"), json!(null)] {
        let refused = form_text(&not_an_object, &styles);
        assert!(
            matches!(&refused, Err(Error::InvalidRequest(message)) if message.contains("not an object")),
            "{refused:?}"
        );
    }
}

/// Issue 29: a required array sent empty sent nothing; each style has its empty form.
#[test]
fn an_empty_array_is_sent_as_its_style_says() {
    let empty = json!([]);
    assert_eq!(query(Style::Form, true, &empty), "color=");
    assert_eq!(query(Style::Form, false, &empty), "color=");
    assert_eq!(query(Style::PipeDelimited, false, &empty), "color=");
    assert_eq!(query(Style::SpaceDelimited, false, &empty), "color=");
    assert_eq!(query(Style::DeepObject, true, &empty), "");
    // `label`'s empty form is `.`: a dot segment, refused below like `simple`'s empty one.
    assert_eq!(path(Style::Matrix, false, &empty), ";color");
    assert_eq!(path(Style::Matrix, true, &empty), ";color");
    assert_eq!(header(false, &empty).as_deref(), Some(""));
    assert_eq!(cookie(true, &empty).as_deref(), Some("color="));
    assert_eq!(path(Style::Matrix, false, &json!("")), ";color");
    // A simple path value that would be no segment, or a dot segment, is refused by name.
    for (style, value) in [
        (Style::Simple, json!([])),
        (Style::Simple, json!("")),
        (Style::Simple, json!(".")),
        (Style::Simple, json!("..")),
        (Style::Simple, json!(null)),
        (Style::Label, json!([])),
        (Style::Label, json!("")),
        // `.%2E`: WHATWG's URL parser reads `%2e` as a dot, so this is `..` too.
        (Style::Label, json!(".")),
        (Style::Label, json!(["."])),
    ] {
        match path_param("color", style, false, &value) {
            Err(Error::InvalidRequest(message)) => {
                assert!(message.contains("`color`"), "{message}")
            }
            other => panic!("{value} gave {other:?}"),
        }
    }
    assert_eq!(path(Style::Label, false, &json!("..")), ".%2E%2E");
}

#[test]
fn nulls_are_undefined_and_nested_values_only_deep_objects_encode() {
    assert_eq!(query(Style::Form, true, &json!(null)), "");
    assert_eq!(header(false, &json!(null)), None);
    assert_eq!(cookie(false, &json!(null)), None);
    assert_eq!(
        query(Style::Form, true, &json!(["a", null, "b"])),
        "color=a&color=b"
    );
    assert_eq!(query(Style::Form, true, &json!({"a": null, "b": 1})), "b=1");
    assert_eq!(
        query(
            Style::DeepObject,
            true,
            &json!({"a": {"b": {"c": "v w"}, "n": null}, "l": [1, true]})
        ),
        "color[a][b][c]=v%20w&color[l][]=1&color[l][]=true"
    );
    for nested in [json!([[1]]), json!({"a": {"b": 1}}), json!([{"a": 1}])] {
        let mut params = Params::new();
        let refused = params.add(ParamLocation::Query, "color", Style::Form, true, &nested);
        assert!(
            matches!(&refused, Err(Error::InvalidRequest(message)) if message.contains("`color`")),
            "{nested}: {refused:?}"
        );
        assert!(path_param("color", Style::Simple, false, &nested).is_err());
        assert!(
            params
                .add(ParamLocation::Header, "x", Style::Simple, false, &nested)
                .is_err()
        );
        assert!(
            params
                .add(ParamLocation::Cookie, "c", Style::Form, false, &nested)
                .is_err()
        );
    }
    let mut params = Params::new();
    assert!(
        params
            .add(ParamLocation::Path, "p", Style::Simple, false, &1)
            .is_err()
    );
    assert!(
        params
            .add(ParamLocation::Cookie, "a b", Style::Form, false, &1)
            .is_err()
    );
    assert!(!params.has_query() && params.query_string().is_none());
}

#[test]
fn scalars_keep_their_json_text() {
    assert_eq!(query(Style::Form, true, &json!(1.5)), "color=1.5");
    assert_eq!(query(Style::Form, true, &json!(-3)), "color=-3");
    assert_eq!(query(Style::Form, true, &json!(false)), "color=false");
    assert_eq!(
        query(Style::Form, true, &json!("é/?&")),
        "color=%C3%A9%2F%3F%26"
    );
    // A scalar header is sent as given; the client refuses one that is no header value.
    assert_eq!(
        header(false, &json!("a, b=c %")).as_deref(),
        Some("a, b=c %")
    );
    assert_eq!(header(false, &json!(7)).as_deref(), Some("7"));
}

#[test]
fn a_cookie_header_parameter_is_merged_never_dropped() {
    let mut params = Params::new();
    params.fixed_query("beta", "true");
    params
        .add(
            ParamLocation::Header,
            "Cookie",
            Style::Simple,
            false,
            " session=1 ",
        )
        .and_then(|()| params.add(ParamLocation::Cookie, "theme", Style::Form, false, "dark"))
        .and_then(|()| params.add(ParamLocation::Header, "X-A", Style::Simple, false, "1"))
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        params.cookie_header().as_deref(),
        Some("session=1; theme=dark")
    );
    let headers: Vec<(&str, &str)> = params.headers().collect();
    assert_eq!(headers, [("X-A", "1")]);
    assert_eq!(params.query_string().as_deref(), Some("beta=true"));
    assert!(params.has_query());
    assert_eq!(Params::new().cookie_header(), None);
    let mut blank = Params::new();
    blank
        .add(ParamLocation::Header, "cookie", Style::Simple, false, "  ")
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(blank.cookie_header(), None);
}

#[test]
fn secrets_are_recorded_and_never_debug_printed() {
    let mut params = Params::new();
    params
        .add_secret(
            ParamLocation::Query,
            "api_key",
            Style::Form,
            true,
            "sk-SECRET",
        )
        .and_then(|()| {
            params.add_secret(
                ParamLocation::Header,
                "X-Keys",
                Style::Simple,
                false,
                &json!(["k1", 2, null]),
            )
        })
        .and_then(|()| params.add(ParamLocation::Query, "plain", Style::Form, true, "shown"))
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(params.secrets(), ["sk-SECRET", "k1", "2"]);
    assert_eq!(
        params.query_string().as_deref(),
        Some("api_key=sk-SECRET&plain=shown")
    );
    assert_eq!(
        params.shown_query_string("REDACTED").as_deref(),
        Some("api_key=REDACTED&plain=shown")
    );
    assert_eq!(Params::new().shown_query_string("REDACTED"), None);
    let debug = format!("{params:?}");
    assert!(
        !debug.contains("SECRET") && !debug.contains("k1") && !debug.contains("shown"),
        "{debug}"
    );
    assert!(
        debug.contains("api_key") && debug.contains("X-Keys"),
        "{debug}"
    );
    assert!(format!("{:?}", Params::new()).contains("secrets: 0"));
}

#[test]
fn header_items_encode_only_what_a_list_cannot_hold() {
    assert_eq!(
        encode("a-Z~!#$&'*+/:;<>?@[]^_`{|}", Component::Header),
        "a-Z~!#$&'*+/:;<>?@[]^_`{|}"
    );
    assert_eq!(
        encode("% ,=\"\té\u{7f}", Component::Header),
        "%25%20%2C%3D%22%09%C3%A9%7F"
    );
    assert_eq!(encode("aZ09-._~ +%", Component::Query), "aZ09-._~%20%2B%25");
    assert_eq!(
        encode("aZ09-._~ +%", Component::SpaceDelimited),
        "aZ09-._~+%2B%25"
    );
    assert_eq!(
        encode("aZ09-._~ +%", Component::PathSegment),
        "aZ09-._~%20%2B%25"
    );
    assert_eq!(
        encode("aZ09-._~ +%", Component::LabelItem),
        "aZ09-%2E_~%20%2B%25"
    );
}

/// `%XX` decoded, and `+` as a space when `plus` (a query's form-urlencoded reading).
fn decode(text: &str, plus: bool) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("zz");
                out.push(
                    u8::from_str_radix(hex, 16).unwrap_or_else(|_| panic!("bad escape in {text}")),
                );
                i += 3;
            }
            b'+' if plus => {
                out.push(b' ');
                i += 1;
            }
            byte => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| panic!("not UTF-8: {text}"))
}

/// Items with every delimiter the styles use, `%`, `+`, spaces and non-ASCII text.
fn item() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-z0-9 ,|;=.&?#%+\\[\\]\"é🦀-]{0,8}")
        .unwrap_or_else(|error| panic!("{error}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Encoding an array, then splitting the wire text on the style's literal delimiter and
    /// decoding each piece, gives back the items, in every location and style.
    #[test]
    fn arrays_round_trip_by_their_styles_grammar(items in proptest::collection::vec(item(), 1..5)) {
        let value = json!(items);
        // Query, not exploded: one value split on its delimiter.
        for (style, delimiter, plus) in [
            (Style::Form, ",", false),
            (Style::PipeDelimited, "|", false),
            (Style::SpaceDelimited, "%20", true),
        ] {
            let wire = query(style, false, &value);
            let joined = wire.strip_prefix("color=").unwrap_or_else(|| panic!("{wire}"));
            prop_assert!(!joined.contains('&') && !joined.contains('='), "{}", wire);
            let back: Vec<String> = joined.split(delimiter).map(|piece| decode(piece, plus)).collect();
            prop_assert_eq!(&back, &items, "{:?}: {}", style, wire);
        }
        // Query, exploded: one pair per item.
        let wire = query(Style::Form, true, &value);
        let back: Vec<String> = wire
            .split('&')
            .map(|pair| decode(pair.strip_prefix("color=").unwrap_or_else(|| panic!("{wire}")), true))
            .collect();
        prop_assert_eq!(&back, &items);
        // Path: one segment, split by the style.
        for (style, explode) in [(Style::Simple, false), (Style::Label, false), (Style::Label, true), (Style::Matrix, false), (Style::Matrix, true)] {
            let Ok(wire) = path_param("color", style, explode, &value) else { continue };
            prop_assert!(!wire.contains('/') && !wire.contains('?') && !wire.contains('#'), "{}", wire);
            let pieces: Vec<&str> = match (style, explode) {
                (Style::Label, true) => wire[1..].split('.').collect(),
                (Style::Label, false) => wire[1..].split(',').collect(),
                (Style::Matrix, true) => wire[1..].split(';').map(|part| part.strip_prefix("color=").unwrap_or("?")).collect(),
                (Style::Matrix, false) => wire.strip_prefix(";color=").unwrap_or("?").split(',').collect(),
                _ => wire.split(',').collect(),
            };
            let back: Vec<String> = pieces.into_iter().map(|piece| decode(piece, false)).collect();
            prop_assert_eq!(&back, &items, "{:?} {}: {}", style, explode, wire);
        }
        // Header: a comma list of visible ASCII.
        let wire = header(false, &value).unwrap_or_default();
        prop_assert!(wire.bytes().all(|b| (b'!'..=b'~').contains(&b)), "{}", wire);
        let back: Vec<String> = wire.split(',').map(|piece| decode(piece, false)).collect();
        prop_assert_eq!(&back, &items);
        // Cookie: `; ` between pairs, nothing a cookie cannot hold in a value.
        let wire = cookie(true, &value).unwrap_or_default();
        let back: Vec<String> = wire
            .split("; ")
            .map(|pair| decode(pair.strip_prefix("color=").unwrap_or("?"), false))
            .collect();
        prop_assert_eq!(&back, &items);
    }

    /// An object's properties come back from every object grammar, deepObject's nested too.
    #[test]
    fn objects_round_trip(pairs in proptest::collection::btree_map(item(), item(), 1..4)) {
        let value = json!(pairs);
        let expected: Vec<(String, String)> = pairs.clone().into_iter().collect();
        let from_flat = |flat: &str, delimiter: &str, plus: bool| -> Vec<(String, String)> {
            let pieces: Vec<String> = flat.split(delimiter).map(|piece| decode(piece, plus)).collect();
            pieces.chunks(2).map(|pair| (pair[0].clone(), pair.get(1).cloned().unwrap_or_default())).collect()
        };
        let wire = query(Style::Form, false, &value);
        prop_assert_eq!(from_flat(wire.strip_prefix("color=").unwrap_or("?"), ",", true), expected.clone());
        let wire = query(Style::Form, true, &value);
        let back: Vec<(String, String)> = wire
            .split('&')
            .map(|pair| {
                let (key, value) = pair.split_once('=').unwrap_or((pair, "?"));
                (decode(key, true), decode(value, true))
            })
            .collect();
        prop_assert_eq!(back, expected.clone());
        let nested = json!({"outer": value});
        let wire = query(Style::DeepObject, true, &nested);
        let back: Vec<(String, String)> = wire
            .split('&')
            .map(|pair| {
                let (key, value) = pair.split_once('=').unwrap_or((pair, "?"));
                let inner = key
                    .strip_prefix("color[outer][")
                    .and_then(|rest| rest.strip_suffix(']'))
                    .unwrap_or("?");
                (decode(inner, true), decode(value, true))
            })
            .collect();
        prop_assert_eq!(back, expected.clone());
        let wire = header(true, &value).unwrap_or_default();
        let back: Vec<(String, String)> = wire
            .split(',')
            .map(|pair| {
                let (key, value) = pair.split_once('=').unwrap_or((pair, "?"));
                (decode(key, false), decode(value, false))
            })
            .collect();
        prop_assert_eq!(back, expected.clone());
        let wire = path(Style::Matrix, true, &value);
        let back: Vec<(String, String)> = wire[1..]
            .split(';')
            .map(|pair| {
                let (key, value) = pair.split_once('=').unwrap_or((pair, "?"));
                (decode(key, false), decode(value, false))
            })
            .collect();
        prop_assert_eq!(back, expected);
    }
}

/// RFC 6570 §3.2's variables, as `allowReserved` query parameters and form fields: reserved
/// characters and `%XX` triples pass (the `{+var}` column), everything else is encoded as
/// without it; the style's own delimiters are unchanged. Each row also shows the same value
/// without `allowReserved`, which must differ wherever the value holds a reserved character.
#[test]
fn allow_reserved_expands_as_rfc_6570s_reserved_expansion_in_every_query_style() {
    let hello = json!("Hello World!");
    let path_value = json!("/foo/bar");
    let half = json!("50%");
    let base = json!("http://example.com/home/");
    let cursor = json!("a%2Fb%3D%3D");
    let list = json!(["red", "green", "blue"]);
    // RFC 6570's `keys`, written in key order: serde_json keeps insertion order when another
    // crate of the build turns on `preserve_order` (the workspace does) and sorts otherwise.
    let keys = json!({"comma": ",", "dot": ".", "semi": ";"});
    let encoded = |encoding: Encoding, value: &serde_json::Value| {
        let mut params = Params::new();
        params
            .add_encoded(ParamLocation::Query, "v", encoding, value)
            .unwrap_or_else(|error| panic!("{error}"));
        params.query_string().unwrap_or_default()
    };
    let rows: [(Style, bool, &serde_json::Value, &str, &str); 16] = [
        (
            Style::Form,
            true,
            &hello,
            "v=Hello%20World!",
            "v=Hello%20World%21",
        ),
        (
            Style::Form,
            true,
            &path_value,
            "v=/foo/bar",
            "v=%2Ffoo%2Fbar",
        ),
        (Style::Form, true, &half, "v=50%25", "v=50%25"),
        (
            Style::Form,
            true,
            &base,
            "v=http://example.com/home/",
            "v=http%3A%2F%2Fexample.com%2Fhome%2F",
        ),
        (
            Style::Form,
            true,
            &cursor,
            "v=a%2Fb%3D%3D",
            "v=a%252Fb%253D%253D",
        ),
        (
            Style::Form,
            false,
            &list,
            "v=red,green,blue",
            "v=red,green,blue",
        ),
        (
            Style::Form,
            true,
            &list,
            "v=red&v=green&v=blue",
            "v=red&v=green&v=blue",
        ),
        (
            Style::Form,
            false,
            &keys,
            "v=comma,,,dot,.,semi,;",
            "v=comma,%2C,dot,.,semi,%3B",
        ),
        (
            Style::Form,
            true,
            &keys,
            "comma=,&dot=.&semi=;",
            "comma=%2C&dot=.&semi=%3B",
        ),
        (
            Style::SpaceDelimited,
            false,
            &list,
            "v=red%20green%20blue",
            "v=red%20green%20blue",
        ),
        (
            Style::SpaceDelimited,
            false,
            &json!(["a b", "c/d"]),
            "v=a%20b%20c/d",
            "v=a+b%20c%2Fd",
        ),
        (
            Style::PipeDelimited,
            false,
            &json!(["a|b", "c/d"]),
            "v=a%7Cb|c/d",
            "v=a%7Cb|c%2Fd",
        ),
        (
            Style::PipeDelimited,
            true,
            &json!(["c/d"]),
            "v=c/d",
            "v=c%2Fd",
        ),
        (
            Style::DeepObject,
            true,
            &keys,
            "v[comma]=,&v[dot]=.&v[semi]=;",
            "v[comma]=%2C&v[dot]=.&v[semi]=%3B",
        ),
        (
            Style::DeepObject,
            true,
            &json!({"a/b": {"c": "?"}}),
            "v[a%2Fb][c]=?",
            "v[a%2Fb][c]=%3F",
        ),
        (
            Style::DeepObject,
            true,
            &json!({"l": ["x&y"]}),
            "v[l][]=x&y",
            "v[l][]=x%26y",
        ),
    ];
    for (style, explode, value, reserved, plain) in rows {
        let encoding = Encoding::new(style, explode);
        assert_eq!(
            encoded(encoding.allowing_reserved(), value),
            reserved,
            "{style:?} explode={explode} {value} allowReserved"
        );
        assert_eq!(
            encoded(encoding, value),
            plain,
            "{style:?} explode={explode} {value}"
        );
    }
    // A form field by its `encoding`, as the query parameter it would be.
    let styles = [("next", Encoding::new(Style::Form, true).allowing_reserved())];
    let text = form_text(&json!({"next": "a%2Fb/c", "other": "a/b"}), &styles);
    let mut pairs: Vec<String> = text
        .unwrap_or_else(|error| panic!("{error}"))
        .split('&')
        .map(str::to_owned)
        .collect();
    pairs.sort_unstable();
    assert_eq!(pairs, ["next=a%2Fb/c", "other=a%2Fb"]);
    // Headers and cookies have no `allowReserved`: their encodings are unchanged by it.
    let mut params = Params::new();
    for location in [ParamLocation::Header, ParamLocation::Cookie] {
        let added = params.add_encoded(
            location,
            "X-V",
            Encoding::new(Style::Simple, false).allowing_reserved(),
            &json!(["a,b", "c/d"]),
        );
        assert!(added.is_ok(), "{added:?}");
    }
    assert_eq!(params.headers().next(), Some(("X-V", "a%2Cb,c/d")));
    assert_eq!(params.cookie_header().as_deref(), Some("X-V=a%2Cb,c%2Fd"));
}

/// Issue 38 item 4: a number with no wire form is refused naming the parameter, wherever it is
/// (path, query, header, cookie; required or optional; inside an array or object) and however
/// it is sent (plain or as a credential), never sent as nothing.
#[test]
fn a_non_finite_number_is_refused_naming_its_parameter_in_every_location() {
    use std::collections::BTreeMap;

    use crate::request_builder::encodings::{DEEP_OBJECT_EXPLODED, FORM_EXPLODED, SIMPLE};
    use crate::support::Request;

    fn refused(built: Result<Request, Error>, parameter: &str) {
        let Err(Error::InvalidArgument(invalid)) = &built else {
            panic!("{parameter}: {built:?}");
        };
        let found = invalid.downcast_ref::<super::NonFinite>();
        assert_eq!(
            found.map(|found| found.parameter.as_str()),
            Some(parameter),
            "{invalid}"
        );
        assert!(
            invalid.to_string().contains(&format!("`{parameter}`")),
            "{invalid}"
        );
    }
    let request = || Request::get("op", "/v1/{p}");
    let nested = BTreeMap::from([("a", BTreeMap::from([("b", f64::NAN)]))]);
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        refused(request().path("p", SIMPLE, &bad).finish(), "p");
        refused(request().path("p", SIMPLE, &[1.0, bad]).finish(), "p");
        refused(
            request()
                .path("p", SIMPLE, &"x")
                .query("q", FORM_EXPLODED, &bad)
                .finish(),
            "q",
        );
        refused(
            request()
                .path("p", SIMPLE, &"x")
                .query_opt("q", FORM_EXPLODED, &Some(bad))
                .finish(),
            "q",
        );
        refused(
            request()
                .path("p", SIMPLE, &"x")
                .query_opt("q", FORM_EXPLODED, &vec![bad])
                .finish(),
            "q",
        );
        refused(
            request()
                .path("p", SIMPLE, &"x")
                .header("h", SIMPLE, &[bad])
                .finish(),
            "h",
        );
        refused(
            request()
                .path("p", SIMPLE, &"x")
                .header_opt("h", SIMPLE, &Some(bad as f32))
                .finish(),
            "h",
        );
        refused(
            request()
                .path("p", SIMPLE, &"x")
                .cookie("c", FORM_EXPLODED, &BTreeMap::from([("k", bad)]))
                .finish(),
            "c",
        );
        refused(
            request()
                .path("p", SIMPLE, &"x")
                .cookie_opt("c", FORM_EXPLODED, &Some(bad))
                .finish(),
            "c",
        );
        refused(
            request()
                .path("p", SIMPLE, &"x")
                .secret(ParamLocation::Query, "key", FORM_EXPLODED, &bad)
                .finish(),
            "key",
        );
        refused(
            request()
                .path("p", SIMPLE, &"x")
                .query("deep", DEEP_OBJECT_EXPLODED, &nested)
                .finish(),
            "deep",
        );
    }
    // Finite values, and an optional one left unset, still go out.
    let sent = request()
        .path("p", SIMPLE, &1.5)
        .query("q", FORM_EXPLODED, &f64::MAX)
        .query_opt("o", FORM_EXPLODED, &None::<f64>)
        .finish()
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(sent.path, "/v1/1.5");
    assert_eq!(
        sent.params.query_string().as_deref(),
        Some("q=1.7976931348623157e%2B308")
    );
}
