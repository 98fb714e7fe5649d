//! The redirect rules against RFC 9110's table, whole (method × status × origin × a body
//! already dropped), and as a property over any method, status and `Location`.

use proptest::prelude::*;
use reqwest::header::{CONTENT_LANGUAGE, CONTENT_TYPE, HeaderMap, HeaderValue, LOCATION};
use reqwest::{Method, StatusCode, Url};

use super::{Hop, MAX_REDIRECTS, next_hop, same_origin};
use crate::error::Error;

const FROM: &str = "http://127.0.0.1:8080/v1/a?x=1";

fn url(text: &str) -> Url {
    Url::parse(text).unwrap_or_else(|error| panic!("{text}: {error}"))
}

fn located(location: &str) -> HeaderMap {
    let mut headers = HeaderMap::new();
    if let Ok(value) = location.parse() {
        headers.insert(LOCATION, value);
    }
    headers
}

fn status(code: u16) -> StatusCode {
    StatusCode::from_u16(code).unwrap_or_else(|error| panic!("{code}: {error}"))
}

fn method(name: &str) -> Method {
    Method::from_bytes(name.as_bytes()).unwrap_or_else(|error| panic!("{name}: {error}"))
}

fn hop(code: u16, location: &str, method: Method, hops: u32) -> Option<Result<Hop, Error>> {
    let from = Hop::first(url(FROM), method);
    next_hop(status(code), &located(location), &from, hops)
}

/// RFC 9110 §15.4 as the Fetch standard applies it, written out per status: the method sent
/// next after each method, and whether the body goes with it. `None`: not a redirect followed.
fn rfc_9110(code: u16, sent: &str) -> Option<(&'static str, bool)> {
    let same = |name: &str| -> &'static str {
        match name {
            "GET" => "GET",
            "HEAD" => "HEAD",
            "POST" => "POST",
            "PUT" => "PUT",
            "PATCH" => "PATCH",
            "DELETE" => "DELETE",
            "OPTIONS" => "OPTIONS",
            _ => "PROPFIND",
        }
    };
    match (code, sent) {
        // §15.4.2 / §15.4.3: "for historical reasons, a user agent MAY change the request
        // method from POST to GET"; Fetch does exactly that and nothing else.
        (301 | 302, "POST") => Some(("GET", false)),
        (301 | 302, other) => Some((same(other), true)),
        // §15.4.4: a GET (or HEAD) of the other resource.
        (303, "HEAD") => Some(("HEAD", false)),
        (303, _) => Some(("GET", false)),
        // §15.4.8 / §15.4.9: "MUST NOT change the request method".
        (307 | 308, other) => Some((same(other), true)),
        _ => None,
    }
}

const METHODS: [&str; 8] = [
    "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND",
];

#[test]
fn every_method_and_status_follows_rfc_9110s_table() {
    let locations = [
        ("/v1/b?y=2", true),
        ("http://127.0.0.1:8080/v1/b?y=2", true),
        ("http://127.0.0.1:9090/v1/b?y=2", false),
        ("https://127.0.0.1:8080/v1/b?y=2", false),
        ("//evil.test/v1/b?y=2", false),
    ];
    for code in (300..=309).chain([200, 201, 204, 400, 404, 500]) {
        for sent in METHODS {
            for (location, same) in locations {
                for had_body in [true, false] {
                    let from = Hop {
                        url: url(FROM),
                        method: method(sent),
                        keep_body: had_body,
                    };
                    let next = next_hop(status(code), &located(location), &from, 0);
                    let case = format!("{code} {sent} {location} body={had_body}: {next:?}");
                    match (rfc_9110(code, sent), same) {
                        (None, _) => assert!(next.is_none(), "{case}"),
                        (Some(_), false) => assert!(
                            matches!(&next, Some(Err(Error::RedirectRefused { status, .. })) if *status == code),
                            "{case}"
                        ),
                        (Some((expected, keeps)), true) => {
                            let expected = Hop {
                                url: url("http://127.0.0.1:8080/v1/b?y=2"),
                                method: method(expected),
                                keep_body: had_body && keeps,
                            };
                            assert!(matches!(&next, Some(Ok(hop)) if *hop == expected), "{case}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn an_update_redirected_by_301_or_302_stays_an_update_with_its_body() {
    for code in [301, 302] {
        for sent in ["PUT", "PATCH", "DELETE"] {
            let next = hop(code, "/v1/b", method(sent), 0);
            assert!(
                matches!(&next, Some(Ok(hop)) if hop.method.as_str() == sent && hop.keep_body),
                "{code} {sent}: {next:?}"
            );
        }
    }
}

#[test]
fn userinfo_in_a_location_is_never_a_credential() {
    for location in [
        "http://user:pass@127.0.0.1:8080/v1/b",
        "http://user@127.0.0.1:8080/v1/b",
        "http://:pass@127.0.0.1:8080/v1/b",
    ] {
        let next = hop(307, location, Method::PUT, 0);
        let Some(Ok(next)) = next else {
            panic!("{location}: {next:?}");
        };
        assert_eq!(
            next.url.as_str(),
            "http://127.0.0.1:8080/v1/b",
            "{location}"
        );
    }
    // Another origin is refused, and its password is not shown.
    let refused = hop(302, "http://user:hunter2@evil.test/v1/b", Method::GET, 0);
    let Some(Err(error)) = refused else {
        panic!("{refused:?}");
    };
    let shown = format!("{error} {error:?}");
    assert!(
        !shown.contains("hunter2") && shown.contains("evil.test"),
        "{shown}"
    );
}

#[test]
fn a_hop_without_its_body_sends_none_of_the_bodys_headers() {
    let headers = || {
        let mut headers = HeaderMap::new();
        for name in super::BODY_HEADERS {
            headers.insert(name, HeaderValue::from_static("x"));
        }
        headers.insert("x-kept", HeaderValue::from_static("y"));
        headers
    };
    let mut kept = headers();
    Hop::first(url(FROM), Method::PUT).drop_body_headers(&mut kept);
    assert_eq!(kept.len(), 5);
    let mut dropped = headers();
    let without = Hop {
        url: url(FROM),
        method: Method::GET,
        keep_body: false,
    };
    without.drop_body_headers(&mut dropped);
    assert_eq!(dropped.len(), 1);
    assert!(dropped.contains_key("x-kept"));
    assert!(!dropped.contains_key(CONTENT_TYPE) && !dropped.contains_key(CONTENT_LANGUAGE));
}

#[test]
fn other_origins_are_refused_naming_the_location_without_secrets() {
    let _key = crate::server_text::RegisteredSecret::new("redirect-test-key-0123456789");
    for location in [
        "http://127.0.0.1:9090/v1/b?api-key=redirect-test-key-0123456789",
        "https://127.0.0.1:8080/v1/b",
        "http://localhost:8080/v1/b",
        "//evil.test/path",
    ] {
        let refused = hop(302, location, Method::GET, 0);
        let Some(Err(error)) = refused else {
            panic!("{location}: {refused:?}");
        };
        assert!(matches!(error, Error::RedirectRefused { status: 302, .. }));
        let shown = format!("{error} {error:?}");
        assert!(!shown.contains("redirect-test-key"), "{shown}");
        assert!(
            shown.contains("/v1/b") || shown.contains("evil.test"),
            "{shown}"
        );
    }
    // A default port written out is the same origin.
    assert!(same_origin(
        &url("http://api.test/v1"),
        &url("http://api.test:80/v2")
    ));
}

#[test]
fn what_is_not_a_redirect_to_follow_is_the_answer() {
    assert!(hop(302, "", Method::GET, 0).is_some_and(|next| next.is_ok()));
    let from = Hop::first(url(FROM), Method::GET);
    assert!(next_hop(StatusCode::FOUND, &HeaderMap::new(), &from, 0).is_none());
    assert!(hop(302, "http://[::1", Method::GET, 0).is_none());
    // A Location that is not text is no Location.
    let mut opaque = HeaderMap::new();
    opaque.insert(
        LOCATION,
        HeaderValue::from_bytes(b"/v1/\xff").unwrap_or_else(|e| panic!("{e}")),
    );
    assert!(next_hop(StatusCode::FOUND, &opaque, &from, 0).is_none());
    // One too many: the redirect is the answer; another origin is refused even then.
    assert!(hop(302, "/v1/b", Method::GET, MAX_REDIRECTS).is_none());
    assert!(hop(302, "/v1/b", Method::GET, MAX_REDIRECTS - 1).is_some());
    assert!(
        hop(302, "http://evil.test/", Method::GET, MAX_REDIRECTS).is_some_and(|next| next.is_err())
    );
}

fn any_method() -> impl Strategy<Value = Method> {
    prop_oneof![
        proptest::sample::select(METHODS.to_vec()).prop_map(method),
        "[A-Z]{1,8}".prop_map(|name| method(&name)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Whatever the method, status, `Location` and the body's fate so far: a method changes
    /// only to `GET` (or a `HEAD` stays one) by 303, or from `POST` by 301/302; a body comes
    /// back never; it survives only the statuses that keep the method's meaning; userinfo never
    /// reaches the next URL; another origin is always refused.
    #[test]
    fn a_hop_changes_only_what_rfc_9110_lets_it(
        sent in any_method(),
        code in 100u16..600,
        path in "/[a-z]{0,6}",
        userinfo in proptest::option::of("[a-z]{1,4}(:[a-z]{0,4})?@"),
        other_origin in any::<bool>(),
        had_body in any::<bool>(),
        hops in 0..=MAX_REDIRECTS,
    ) {
        let host = if other_origin { "127.0.0.2:8080" } else { "127.0.0.1:8080" };
        let location = format!("http://{}{host}{path}", userinfo.as_deref().unwrap_or(""));
        let from = Hop { url: url(FROM), method: sent.clone(), keep_body: had_body };
        let next = next_hop(status(code), &located(&location), &from, hops);
        let redirect = matches!(code, 301 | 302 | 303 | 307 | 308);
        match next {
            None => prop_assert!(!redirect || (!other_origin && hops == MAX_REDIRECTS)),
            Some(Err(error)) => {
                let refused = matches!(error, Error::RedirectRefused { status, .. } if status == code);
                prop_assert!(redirect && other_origin && refused);
            }
            Some(Ok(next)) => {
                prop_assert!(redirect && !other_origin && hops < MAX_REDIRECTS);
                prop_assert_eq!(next.url.username(), "");
                prop_assert_eq!(next.url.password(), None);
                prop_assert_eq!(next.url.path(), path.as_str());
                let post_to_get = matches!(code, 301 | 302) && sent == Method::POST;
                let see_other = code == 303 && sent != Method::HEAD;
                let method = if post_to_get || see_other { Method::GET } else { sent.clone() };
                prop_assert_eq!(&next.method, &method);
                let keeps = matches!(code, 307 | 308) || (matches!(code, 301 | 302) && !post_to_get);
                prop_assert_eq!(next.keep_body, had_body && keeps);
            }
        }
    }
}
