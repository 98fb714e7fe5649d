//! The client's credentials per security scheme: which one a request's [`Security`] picks (the
//! whole table of OpenAPI 3.1 §4.8.30: alternatives, several schemes at once, the empty
//! requirement), where each goes on the wire (header, the one `Cookie` header, the query), and,
//! as a property over random keys, that a key sent in the query is in no text the client shows.

use proptest::prelude::*;
use reqwest::Method;

use super::super::credentials::{Credentials, MissingCredentials, Place, Placed, Security};
use super::{block_on, capture, request, serve};
use crate::client::{AuthScheme, ClientBuilder, RuntimeClient};
use crate::error::Error;
use crate::param_style::{ParamLocation, Style};
use crate::retry::RetryPolicy;

const HEADER: Place = Place::Auth(AuthScheme::Header("X-Api-Key"));
const QUERY: Place = Place::Query("k");
const COOKIE: Place = Place::Auth(AuthScheme::Cookie("session"));

/// A client holding the key (for scheme `bearer`) and the named schemes' credentials.
fn holding(key: bool, named: &[(&'static str, Place)]) -> RuntimeClient {
    let mut builder = ClientBuilder::<RuntimeClient>::new("http://127.0.0.1:9")
        .key_scheme("bearer", Place::Auth(AuthScheme::Bearer));
    if key {
        builder = builder.api_key("key-value");
    }
    for (name, place) in named {
        builder = builder.credential(name, *place, format!("{name}-value"));
    }
    builder.build().unwrap_or_else(|error| panic!("{error}"))
}

/// What a chosen credential sends, as `place:value` (`header:x-api-key=…`).
fn shown(credentials: &Credentials, security: Security) -> Result<Vec<String>, String> {
    match credentials.chosen("op", security) {
        Ok(chosen) => Ok(chosen
            .into_iter()
            .map(|credential| match &credential.placed {
                Placed::Header(name, value) => {
                    format!("header:{name}={}", value.to_str().unwrap_or_default())
                }
                Placed::Cookie(pair) => format!("cookie:{pair}"),
                Placed::Query(key, value) => format!("query:{key}={value}"),
            })
            .collect()),
        Err(Error::InvalidArgument(argument)) => {
            Err(argument.downcast_ref::<MissingCredentials>().map_or_else(
                || format!("not MissingCredentials: {argument}"),
                ToString::to_string,
            ))
        }
        Err(other) => Err(format!("{other:?}")),
    }
}

/// Every shape of requirement against every shape of holding: the first alternative met wins,
/// an alternative needs all its schemes, the empty one is met with nothing, and meeting none is
/// `MissingCredentials` naming the operation and each alternative's schemes.
#[test]
fn a_request_carries_the_first_requirement_the_client_meets() {
    let bearer = "header:authorization=Bearer key-value";
    let header = "header:x-api-key=h-value";
    let query = "query:k=q-value";
    let cookie = "cookie:session=c-value";
    const ALL: &[(&str, Place)] = &[("h", HEADER), ("q", QUERY), ("c", COOKIE)];
    let all = ALL;
    type Row = (
        &'static [&'static [&'static str]],
        bool,
        &'static [(&'static str, Place)],
        Result<Vec<&'static str>, &'static str>,
    );
    let missing_a = "op: the client holds no credentials for the security schemes it needs (`h`); \
                     set them on the client builder";
    let missing_and = "op: the client holds no credentials for the security schemes it needs \
                       (`h` and `c` or `q`); set them on the client builder";
    let table: Vec<Row> = vec![
        (&[&[]], true, all, Ok(vec![])),
        (&[&["h"]], false, all, Ok(vec![header])),
        (&[&["h"]], true, &[], Err(missing_a)),
        (&[&["h"], &["q"]], false, &[("q", QUERY)], Ok(vec![query])),
        (&[&["h"], &["q"]], false, all, Ok(vec![header])),
        (&[&["q"], &["h"]], false, all, Ok(vec![query])),
        (
            &[&["h", "c"], &["q"]],
            false,
            &[("h", HEADER)],
            Err(missing_and),
        ),
        (
            &[&["h", "c"], &["q"]],
            false,
            &[("h", HEADER), ("c", COOKIE)],
            Ok(vec![header, cookie]),
        ),
        (&[&["h", "c"], &["q"]], false, all, Ok(vec![header, cookie])),
        (&[&["h"], &[]], false, &[], Ok(vec![])),
        (&[&["h"], &[]], false, all, Ok(vec![header])),
        (&[&["bearer"]], true, &[], Ok(vec![bearer])),
        (&[&["bearer", "q"]], true, all, Ok(vec![bearer, query])),
    ];
    for (requirements, key, named, expected) in table {
        let client = holding(key, named);
        let got = shown(
            &client.inner.credentials,
            Security::Requirements(requirements),
        );
        let expected = expected
            .map(|names| names.into_iter().map(str::to_owned).collect::<Vec<_>>())
            .map_err(str::to_owned);
        assert_eq!(
            got, expected,
            "{requirements:?} holding key={key} {named:?}"
        );
    }
    // No requirements of its own: the key if there is one, nothing (and no error) if not.
    let keyed = holding(true, all);
    assert_eq!(
        shown(&keyed.inner.credentials, Security::ClientKey),
        Ok(vec![bearer.to_owned()])
    );
    let bare = holding(false, all);
    assert_eq!(
        shown(&bare.inner.credentials, Security::ClientKey),
        Ok(vec![])
    );
}

/// The typed setter of the key's own scheme sets the API key; a credential that cannot be sent
/// where its scheme puts it is refused at `build`, naming the scheme and not the value.
#[test]
fn the_key_schemes_setter_is_the_key_and_bad_values_are_refused_by_scheme() {
    let client = ClientBuilder::<RuntimeClient>::new("http://127.0.0.1:9")
        .key_scheme("q", QUERY)
        .credential("q", QUERY, "the-key")
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    assert!(client.inner.credentials.key.is_some());
    assert!(client.inner.credentials.named.is_empty());
    for (place, value) in [
        (HEADER, "line\nbreak-SECRETVALUE"),
        (COOKIE, "semi;colon-SECRETVALUE"),
        (QUERY, ""),
    ] {
        let error = ClientBuilder::<RuntimeClient>::new("http://127.0.0.1:9")
            .credential("s", place, value)
            .build()
            .err()
            .map(|error| format!("{error} {error:?}"))
            .unwrap_or_else(|| panic!("{place:?} {value:?} accepted"));
        assert!(error.contains("security scheme `s`"), "{error}");
        assert!(!error.contains("SECRETVALUE"), "{error}");
    }
}

/// On the wire: a header credential replaces a default header of its name, a cookie one joins
/// the cookie parameters in the one `Cookie` header, a query one follows the parameters, and
/// one the operation takes as its own argument is not sent twice.
#[test]
fn credentials_go_where_their_place_says() {
    const OK: &str = "HTTP/1.1 200 OK\r\ncontent-length: 1\r\nconnection: close\r\n\r\n1";
    let (base, server) = serve(vec![OK, OK]);
    let client = ClientBuilder::<RuntimeClient>::new(base)
        .default_header("X-Api-Key", "a-default")
        .credential("h", HEADER, "h-value")
        .credential("q", QUERY, "q value/+")
        .credential("c", COOKIE, "c-value")
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let mut sent = request(Method::GET, "/v1/x", None);
    let added = sent
        .params
        .add(ParamLocation::Cookie, "theme", Style::Form, false, "dark");
    assert!(added.is_ok(), "{added:?}");
    sent.security = Security::Requirements(&[&["h", "q", "c"]]);
    let got = block_on(client.execute::<u8>(sent));
    assert_eq!(got.ok(), Some(1));
    let mut again = request(Method::GET, "/v1/x", None);
    let added = again
        .params
        .add_secret(ParamLocation::Query, "k", Style::Form, true, "given");
    assert!(added.is_ok(), "{added:?}");
    again.security = Security::Requirements(&[&["q"]]);
    let got = block_on(client.execute::<u8>(again));
    assert_eq!(got.ok(), Some(1));
    let seen = server.join().unwrap_or_default();
    let first = seen.first().map(String::as_str).unwrap_or_default();
    assert!(
        first.starts_with("GET /v1/x?metrics=a%20b&metrics=c%26d&k=q%20value%2F%2B HTTP/1.1\r\n"),
        "{first}"
    );
    let lower = first.to_ascii_lowercase();
    assert_eq!(lower.matches("x-api-key:").count(), 1, "{first}");
    assert!(lower.contains("x-api-key: h-value\r\n"), "{first}");
    assert_eq!(lower.matches("cookie:").count(), 1, "{first}");
    assert!(
        lower.contains("cookie: theme=dark; session=c-value\r\n"),
        "{first}"
    );
    let second = seen.get(1).map(String::as_str).unwrap_or_default();
    assert!(
        second.starts_with("GET /v1/x?metrics=a%20b&metrics=c%26d&k=given HTTP/1.1\r\n"),
        "{second}"
    );
}

/// Nothing is sent for an operation whose requirements the client cannot meet.
#[test]
fn an_unmet_requirement_sends_nothing() {
    // A port nothing listens on: were a request sent, the error would be a transport one.
    let client = ClientBuilder::<RuntimeClient>::new("http://127.0.0.1:9")
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let mut sent = request(Method::GET, "/v1/x", None);
    sent.security = Security::Requirements(&[&["h"], &["q", "c"]]);
    let got = block_on(client.execute::<u8>(sent));
    let Err(Error::InvalidArgument(argument)) = &got else {
        panic!("{got:?}");
    };
    assert_eq!(
        argument.downcast_ref::<MissingCredentials>(),
        Some(&MissingCredentials {
            operation: "test_op",
            requirements: &[&["h"], &["q", "c"]],
        })
    );
}

/// Every form the scrubber covers of `key`: as given, percent-encoded (either case), as a form
/// writes it, base64 and hex.
fn forms(key: &str) -> Vec<String> {
    use base64::Engine as _;
    let encoded = crate::percent::encode(key, crate::percent::Component::Query);
    vec![
        key.to_owned(),
        encoded.clone(),
        encoded.to_ascii_lowercase(),
        encoded.replace("%20", "+"),
        base64::engine::general_purpose::STANDARD.encode(key),
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(key),
        key.bytes().map(|b| format!("{b:02x}")).collect(),
    ]
}

/// A server that answers `status` with the request line it read as its body (so an error
/// quotes the URL the key was sent in), and a `Location` to another origin holding it.
fn echo_server(status: u16) -> (String, std::thread::JoinHandle<String>) {
    use std::io::{BufRead as _, BufReader, Write as _};
    let (listener, base) = super::bind();
    let handle = std::thread::spawn(move || {
        let Ok((stream, _)) = listener.accept() else {
            return String::new();
        };
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        let _ = reader.read_line(&mut line);
        let target = line.split(' ').nth(1).unwrap_or_default().to_owned();
        let body = format!("{{\"message\": \"bad request {line}\", \"url\": \"{target}\"}}");
        let response = format!(
            "HTTP/1.1 {status} Echo\r\nlocation: http://elsewhere.test{target}\r\n\
             content-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = reader.get_mut().write_all(response.as_bytes());
        line
    });
    (base, handle)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A key sent in the query (under a name no redaction rule knows) reaches the server, and is
    /// in no text the client shows: its `Debug`, its builder's, the spans and events of a call,
    /// an error quoting the URL back, a refused redirect to another origin, a transport error.
    #[test]
    fn a_query_key_is_in_no_shown_text(key in "[A-Za-z0-9 ._~+/=%&#?-]{12,40}") {
        let builder = ClientBuilder::<RuntimeClient>::new("http://127.0.0.1:9")
            .retry_policy(RetryPolicy::none())
            .credential("q", Place::Query("pass"), key.clone());
        let mut texts = vec![format!("{builder:?}")];
        for status in [400_u16, 307] {
            let (base, server) = echo_server(status);
            let client = builder
                .clone()
                .base_url(base)
                .build()
                .unwrap_or_else(|error| panic!("{error}"));
            texts.push(format!("{client:?}"));
            let mut sent = request(Method::GET, "/v1/x", None);
            sent.security = Security::Requirements(&[&["q"]]);
            let (got, spans) = capture(|| block_on(client.execute::<u8>(sent)));
            let error = got.err().unwrap_or_else(|| panic!("an error"));
            let line = server.join().unwrap_or_default();
            // Sent, so that its absence below is the redaction.
            let sent_key = crate::percent::encode(&key, crate::percent::Component::Query);
            prop_assert!(line.contains(&format!("pass={sent_key} ")), "{}", line);
            texts.extend([format!("{error}"), format!("{error:?}"), spans]);
        }
        let refused = builder
            .clone()
            .base_url("http://127.0.0.1:9")
            .build()
            .unwrap_or_else(|error| panic!("{error}"));
        let mut sent = request(Method::GET, "/v1/x", None);
        sent.security = Security::Requirements(&[&["q"]]);
        let (got, spans) = capture(|| block_on(refused.execute::<u8>(sent)));
        let error = got.err().unwrap_or_else(|| panic!("an error"));
        texts.extend([format!("{error}"), format!("{error:?}"), spans]);
        for text in &texts {
            for form in forms(&key) {
                prop_assert!(!text.contains(&form), "{:?} in {}", form, text);
            }
        }
    }
}

/// A redirect to another origin is refused with every credential on the request (a header, a
/// cookie, a query key): nothing reaches the other origin, and the refusal shows none of them.
#[test]
fn no_credential_follows_a_redirect_to_another_origin() {
    let (elsewhere, elsewhere_base) = super::bind();
    let Ok(()) = elsewhere.set_nonblocking(true) else {
        panic!("non-blocking listener");
    };
    let redirect = format!(
        "HTTP/1.1 307 Temporary Redirect\r\nlocation: {elsewhere_base}/v1/x?k=copied\r\n\
         content-length: 0\r\nconnection: close\r\n\r\n"
    );
    let (listener, base) = super::bind();
    let server = super::serve_on(listener, vec![redirect]);
    let client = ClientBuilder::<RuntimeClient>::new(base)
        .retry_policy(RetryPolicy::none())
        .credential("h", HEADER, "h-secret-value-123")
        .credential("q", QUERY, "q-secret-value-123")
        .credential("c", COOKIE, "c-secret-value-123")
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let mut sent = request(Method::GET, "/v1/x", None);
    sent.security = Security::Requirements(&[&["h", "q", "c"]]);
    let got = block_on(client.execute::<u8>(sent));
    let seen = server.join().unwrap_or_default();
    // Sent where it was addressed, with every credential.
    let first = seen.first().map(String::as_str).unwrap_or_default();
    for credential in ["h-secret", "q-secret", "c-secret"] {
        assert!(first.contains(credential), "{credential} not sent: {first}");
    }
    let Err(error @ Error::RedirectRefused { .. }) = &got else {
        panic!("{got:?}");
    };
    let shown = format!("{error} {error:?}");
    assert!(!shown.contains("secret-value"), "{shown}");
    // Nothing connected to the other origin.
    assert!(
        elsewhere
            .accept()
            .is_err_and(|error| error.kind() == std::io::ErrorKind::WouldBlock),
        "a request reached the other origin"
    );
}
