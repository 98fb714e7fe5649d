//! The client's unit tests: attempts, retries, headers and failure mapping against local servers.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use reqwest::Method;

use super::builder::USER_AGENT;
use super::credentials::INVALID_KEY;
use super::prepare::is_idempotent;
use super::{attempt, prepare, retry_loop, *};
use crate::support::Body;

const SECRET: &str = "abcdefgh.SuperSecretKey1234567890";
/// What a generated crate passes as its document's base URL.
const DEFAULT_BASE_URL: &str = "https://api.baseten.co";
/// What a generated crate names its key's and base URL's variables (after its API).
const API_KEY_ENV: &str = "ACME_API_KEY";
const BASE_URL_ENV: &str = "ACME_BASE_URL";

/// What a generated crate's `Client` offers, on the runtime client.
impl RuntimeClient {
    fn builder() -> ClientBuilder {
        ClientBuilder::new(DEFAULT_BASE_URL).env_names(API_KEY_ENV, BASE_URL_ENV)
    }

    fn new(api_key: &str) -> Result<Self, Error> {
        Self::builder().api_key(api_key).build()
    }
}

/// The header value the client's API key is sent as, if it is sent in a header.
fn key_header(client: &RuntimeClient) -> Option<reqwest::header::HeaderValue> {
    match client.inner.credentials.key.as_ref().map(|key| &key.placed) {
        Some(credentials::Placed::Header(_, value)) => Some(value.clone()),
        _ => None,
    }
}

fn client_for(base_url: &str) -> RuntimeClient {
    match RuntimeClient::builder()
        .api_key(SECRET)
        .base_url(base_url)
        .build()
    {
        Ok(client) => client,
        Err(err) => panic!("client: {err}"),
    }
}

#[test]
fn client_is_clone_send_sync() {
    fn assert_bounds<T: Clone + Send + Sync + 'static>() {}
    assert_bounds::<RuntimeClient>();
    assert_bounds::<ClientBuilder>();
}

#[test]
fn debug_never_shows_the_key() {
    let client = client_for("https://api.baseten.co/");
    assert_eq!(client.base_url(), "https://api.baseten.co");
    for shown in [
        format!("{client:?}"),
        format!("{client:#?}"),
        format!("{:?}", client.inner.credentials.key),
        format!("{:?}", RuntimeClient::builder().api_key(SECRET)),
    ] {
        assert!(!shown.contains(SECRET), "{shown}");
        assert!(!shown.contains("SuperSecret"), "{shown}");
    }
    assert_eq!(
        format!("{:?}", client.inner.credentials.key),
        "Some(ApiKey(<redacted>))"
    );
}

#[test]
fn defaults() {
    let client = client_for("http://127.0.0.1:9");
    assert_eq!(client.connect_timeout(), Duration::from_secs(10));
    assert_eq!(client.timeout(), Duration::from_secs(30));
    assert_eq!(client.retry_policy(), &RetryPolicy::default());
    let tuned = RuntimeClient::builder()
        .connect_timeout(Duration::from_millis(250))
        .timeout(Duration::from_secs(2))
        .retry_policy(RetryPolicy::none())
        .build();
    let tuned = tuned.map(|c| {
        (
            c.connect_timeout(),
            c.timeout(),
            c.inner.retry.max_attempts(),
        )
    });
    assert_eq!(
        tuned.ok(),
        Some((Duration::from_millis(250), Duration::from_secs(2), 1))
    );
    for builder in [
        RuntimeClient::builder().timeout(Duration::ZERO),
        RuntimeClient::builder().connect_timeout(Duration::ZERO),
    ] {
        assert!(matches!(builder.build(), Err(Error::InvalidRequest(_))));
    }
}

#[test]
fn invalid_key_is_refused_without_echo() {
    for key in [
        format!("{SECRET}\n"),
        format!("{SECRET}\r\nX-Evil: 1"),
        format!("{SECRET}\0"),
    ] {
        for scheme in [AuthScheme::Bearer, AuthScheme::ApiKey] {
            let built = RuntimeClient::builder()
                .api_key(key.as_str())
                .auth_scheme(scheme)
                .build();
            match built {
                Err(err @ Error::InvalidRequest(_)) => {
                    let shown = format!("{err} {err:?}");
                    assert!(!shown.contains("SuperSecret"), "{shown}");
                    assert!(shown.contains(INVALID_KEY), "{shown}");
                }
                other => panic!("{other:?}"),
            }
        }
    }
    assert!(matches!(
        RuntimeClient::new(""),
        Err(Error::InvalidRequest(_))
    ));
}

#[test]
fn default_and_custom_base_urls() {
    let default = RuntimeClient::new(SECRET)
        .map(|c| c.base_url().to_owned())
        .ok();
    assert_eq!(default.as_deref(), Some(DEFAULT_BASE_URL));
    assert_eq!(
        client_for("http://127.0.0.1:9/prefix//").base_url(),
        "http://127.0.0.1:9/prefix"
    );
    for bad in [
        "",
        "api.baseten.co",
        "ftp://x.test",
        "https://x.test/?a=b",
        "https://x.test/#f",
        "mailto:someone@x.test",
        "https://user:hunter2@x.test",
        "https://user@x.test",
        "https://:hunter2@x.test/",
    ] {
        match RuntimeClient::builder().base_url(bad).build() {
            Err(err @ Error::InvalidRequest(_)) => {
                let shown = format!("{err} {err:?}");
                assert!(!shown.contains("hunter2"), "{shown}");
            }
            other => panic!("{bad}: {other:?}"),
        }
    }
}

/// Builds through a fake environment.
fn build_in(builder: ClientBuilder, vars: &[(&str, &str)]) -> Result<RuntimeClient, Error> {
    let vars: HashMap<String, OsString> = vars
        .iter()
        .map(|(name, value)| ((*name).to_owned(), OsString::from(value)))
        .collect();
    builder.build_with_env(|name| vars.get(name).cloned())
}

#[test]
fn from_env_reads_key_and_base_url() {
    let from_env = || {
        RuntimeClient::builder()
            .api_key_from_env()
            .base_url_from_env()
    };
    let client = build_in(from_env(), &[(API_KEY_ENV, SECRET)]);
    let client = client.unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(client.base_url(), DEFAULT_BASE_URL);
    let header = key_header(&client);
    assert_eq!(
        header.as_ref().and_then(|h| h.to_str().ok()),
        Some(format!("Bearer {SECRET}").as_str())
    );
    assert!(header.is_some_and(|h| h.is_sensitive()));

    let vars = [(API_KEY_ENV, SECRET), (BASE_URL_ENV, "http://127.0.0.1:9/")];
    let client = build_in(from_env(), &vars).map(|c| c.base_url().to_owned());
    assert_eq!(client.ok().as_deref(), Some("http://127.0.0.1:9"));
    // The variable wins over an explicit base URL only when it is set and not empty.
    let vars = [(API_KEY_ENV, SECRET), (BASE_URL_ENV, "")];
    let builder = from_env().base_url("http://127.0.0.1:8");
    let client = build_in(builder, &vars).map(|c| c.base_url().to_owned());
    assert_eq!(client.ok().as_deref(), Some("http://127.0.0.1:8"));
    // Without `base_url_from_env` the variable is ignored.
    let builder = RuntimeClient::builder().api_key_from_env();
    let vars = [(API_KEY_ENV, SECRET), (BASE_URL_ENV, "http://127.0.0.1:9/")];
    let client = build_in(builder, &vars).map(|c| c.base_url().to_owned());
    assert_eq!(client.ok().as_deref(), Some(DEFAULT_BASE_URL));

    let legacy = from_env().auth_scheme(AuthScheme::ApiKey);
    let client = build_in(legacy, &[(API_KEY_ENV, SECRET)]);
    let header = client.ok().and_then(|c| key_header(&c));
    assert_eq!(
        header.as_ref().and_then(|h| h.to_str().ok()),
        Some(format!("Api-Key {SECRET}").as_str())
    );
}

#[test]
fn from_env_errors_name_the_variable_not_the_value() {
    let from_env = || {
        RuntimeClient::builder()
            .api_key_from_env()
            .base_url_from_env()
    };
    let cases: [&[(&str, &str)]; 4] = [
        &[],
        &[(API_KEY_ENV, "")],
        &[(API_KEY_ENV, "abc\nSuperSecret")],
        &[
            (API_KEY_ENV, SECRET),
            (BASE_URL_ENV, "https://u:SuperSecret@x.test"),
        ],
    ];
    for vars in cases {
        match build_in(from_env(), vars) {
            Err(err @ Error::InvalidRequest(_)) => {
                let shown = format!("{err} {err:?}");
                assert!(!shown.contains("SuperSecret"), "{shown}");
            }
            other => panic!("{vars:?}: {other:?}"),
        }
    }
    let missing = build_in(from_env(), &[]).err().map(|err| err.to_string());
    assert_eq!(
        missing.as_deref(),
        Some("invalid request: environment variable ACME_API_KEY is not set")
    );
}

#[test]
fn only_the_variables_the_crate_names_are_read() {
    let vars = [
        ("BASETEN_API_KEY", SECRET),
        ("BASETEN_BASE_URL", "http://127.0.0.1:9"),
    ];
    let unnamed = ClientBuilder::<RuntimeClient>::new(DEFAULT_BASE_URL).api_key_from_env();
    let error = build_in(unnamed, &vars).err().map(|err| err.to_string());
    assert_eq!(
        error.as_deref(),
        Some("invalid request: no environment variable is named for the API key (see `env_names`)")
    );
    let unnamed = ClientBuilder::<RuntimeClient>::new(DEFAULT_BASE_URL).base_url_from_env();
    let error = build_in(unnamed, &vars).err().map(|err| err.to_string());
    assert_eq!(
        error.as_deref(),
        Some(
            "invalid request: no environment variable is named for the base URL (see `env_names`)"
        )
    );
    // Another API's variables are not this crate's.
    let named = RuntimeClient::builder().api_key_from_env();
    assert!(build_in(named, &vars).is_err());
    let named = RuntimeClient::builder().api_key(SECRET).base_url_from_env();
    let base = build_in(named, &vars).map(|client| client.base_url().to_owned());
    assert_eq!(base.ok().as_deref(), Some(DEFAULT_BASE_URL));
    let shown = format!("{:?}", RuntimeClient::builder().api_key_from_env());
    assert!(shown.contains("ACME_API_KEY"), "{shown}");
}

#[cfg(unix)]
#[test]
fn from_env_refuses_non_utf8() {
    use std::os::unix::ffi::OsStringExt;
    let builder = RuntimeClient::builder().api_key_from_env();
    let built = builder.build_with_env(|_| Some(OsString::from_vec(vec![0xff, b'k'])));
    assert!(matches!(built, Err(Error::InvalidRequest(_))), "{built:?}");
}

#[test]
fn idempotent_methods() {
    for method in [
        Method::GET,
        Method::HEAD,
        Method::PUT,
        Method::DELETE,
        Method::OPTIONS,
        Method::TRACE,
    ] {
        assert!(is_idempotent(&method), "{method}");
    }
    for method in [Method::POST, Method::PATCH, Method::CONNECT] {
        assert!(!is_idempotent(&method), "{method}");
    }
}

#[test]
fn decode_treats_empty_as_null_and_bounds_excerpt() {
    assert!(matches!(decode::<()>(b""), Ok(())));
    assert!(matches!(decode::<Option<u8>>(b" \n"), Ok(None)));
    assert!(matches!(decode::<u8>(b"7"), Ok(7)));
    let long = format!("<html>{}</html>", "é".repeat(5000));
    match decode::<u8>(long.as_bytes()) {
        Err(Error::Decode { body_excerpt, .. }) => {
            assert!(body_excerpt.starts_with("<html>é"));
            assert!(body_excerpt.chars().count() <= 201);
        }
        other => panic!("{other:?}"),
    }
}

/// An HTTP/1.1 server on a std thread: answers one connection per entry
/// of `responses`, in order, and hands back each raw request's text.
fn serve(responses: Vec<&'static str>) -> (String, JoinHandle<Vec<String>>) {
    let (listener, base) = bind();
    (
        base,
        serve_on(listener, responses.into_iter().map(str::to_owned).collect()),
    )
}

/// A listener on a free port of 127.0.0.1, and its base URL.
fn bind() -> (TcpListener, String) {
    let listener = match TcpListener::bind("127.0.0.1:0") {
        Ok(listener) => listener,
        Err(err) => panic!("bind: {err}"),
    };
    let base = match listener.local_addr() {
        Ok(addr) => format!("http://{addr}"),
        Err(err) => panic!("addr: {err}"),
    };
    (listener, base)
}

/// [`serve`] on a listener already bound, for responses that name its address.
fn serve_on(listener: TcpListener, responses: Vec<String>) -> JoinHandle<Vec<String>> {
    std::thread::spawn(move || {
        let mut seen = Vec::new();
        for response in responses {
            let Ok((stream, _)) = listener.accept() else {
                break;
            };
            seen.push(answer(stream, &response));
        }
        seen
    })
}

fn answer(stream: std::net::TcpStream, response: &str) -> String {
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    let mut content_length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some(len) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            content_length = len.trim().parse().unwrap_or(0);
        }
        head.push_str(&line);
    }
    let mut body = vec![0; content_length];
    let _ = reader.read_exact(&mut body);
    let _ = reader.get_mut().write_all(response.as_bytes());
    head.push_str("\r\n");
    head.push_str(&String::from_utf8_lossy(&body));
    head
}

fn serve_once(response: &'static str) -> (String, JoinHandle<String>) {
    let (base, handle) = serve(vec![response]);
    let one = std::thread::spawn(move || {
        handle
            .join()
            .ok()
            .and_then(|seen| seen.into_iter().next())
            .unwrap_or_default()
    });
    (base, one)
}

fn request(method: Method, path: &str, body: Option<Vec<u8>>) -> Request {
    Request {
        operation: "test_op",
        method,
        path_template: "/v1/things/{id}",
        path: path.to_owned(),
        params: {
            let mut params = crate::param_style::Params::new();
            let added = params.add(
                crate::param_style::ParamLocation::Query,
                "metrics",
                crate::param_style::Style::Form,
                true,
                &["a b", "c&d"],
            );
            assert!(added.is_ok(), "{added:?}");
            params
        },
        body: body.map(|bytes| Body {
            content_type: "application/json".into(),
            bytes,
        }),
        security: crate::Security::ClientKey,
    }
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt.block_on(future),
        Err(err) => panic!("runtime: {err}"),
    }
}

#[test]
fn execute_sends_headers_query_and_body() {
    let (base, server) = serve_once(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\
         connection: close\r\n\r\n{\"ok\":true}",
    );
    let client = client_for(&format!("{base}/"));
    let body = Some(br#"{"x":1}"#.to_vec());
    let got: Result<serde_json::Value, Error> =
        block_on(client.execute(request(Method::POST, "/v1/things/a%2Fb", body)));
    assert_eq!(got.ok(), Some(serde_json::json!({"ok": true})));

    let seen = server.join().unwrap_or_default();
    let lower = seen.to_ascii_lowercase();
    assert!(
        seen.starts_with("POST /v1/things/a%2Fb?metrics=a%20b&metrics=c%26d HTTP/1.1\r\n"),
        "{seen}"
    );
    assert!(lower.contains(&format!(
        "authorization: bearer {}",
        SECRET.to_ascii_lowercase()
    )));
    assert!(lower.contains("accept: application/json\r\n"), "{seen}");
    assert!(
        lower.contains("content-type: application/json\r\n"),
        "{seen}"
    );
    assert!(
        lower.contains(&format!("user-agent: {USER_AGENT}\r\n")),
        "{seen}"
    );
    assert!(seen.ends_with("\r\n\r\n{\"x\":1}"), "{seen}");
}

#[test]
fn execute_maps_non_2xx_to_api_error() {
    let (base, server) = serve_once(
        "HTTP/1.1 404 Not Found\r\ncontent-length: 21\r\nconnection: close\r\n\r\n\
         {\"error\":\"not\nfound\"}",
    );
    let client = client_for(&base);
    let got: Result<serde_json::Value, Error> =
        block_on(client.execute(request(Method::GET, "/v1/things/x", None)));
    match got {
        Err(err @ Error::Api { .. }) => {
            assert_eq!(err.status(), Some(404));
            // A raw newline inside a JSON string: not JSON, so only the body is kept.
            assert_eq!(err.to_string(), "HTTP 404: {\"error\":\"not found\"}");
            if let Error::Api { body, message, .. } = err {
                assert_eq!(body, "{\"error\":\"not\nfound\"}");
                assert_eq!(message, None);
            }
        }
        other => panic!("{other:?}"),
    }
    let seen = server.join().unwrap_or_default();
    assert!(
        !seen.to_ascii_lowercase().contains("content-type"),
        "{seen}"
    );
}

#[test]
fn execute_decodes_204_as_unit() {
    let (base, server) = serve_once("HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n");
    let client = client_for(&base);
    let got: Result<(), Error> =
        block_on(client.execute(request(Method::DELETE, "/v1/things/x", None)));
    assert!(got.is_ok(), "{got:?}");
    let _ = server.join();
}

#[test]
fn execute_refuses_relative_path() {
    let client = client_for("http://127.0.0.1:9");
    let got: Result<(), Error> = block_on(client.execute(request(Method::GET, "v1/things", None)));
    assert!(matches!(got, Err(Error::InvalidRequest(_))), "{got:?}");
}

/// The default client speaks TLS (rustls with its crypto provider compiled in: without one,
/// reqwest panics building the client) and offers HTTP/1.1 alone by ALPN: reqwest's `http2`
/// feature is off, so https traffic takes the HTTP/1.1 path every other test here exercises.
#[test]
fn default_client_offers_tls_with_http1_alone() {
    let listener = match TcpListener::bind("127.0.0.1:0") {
        Ok(listener) => listener,
        Err(err) => panic!("bind: {err}"),
    };
    let base = match listener.local_addr() {
        Ok(addr) => format!("https://{addr}"),
        Err(err) => panic!("addr: {err}"),
    };
    // Reads the first TLS record (the ClientHello) and hangs up.
    let server = std::thread::spawn(move || {
        let Ok((mut stream, _)) = listener.accept() else {
            return Vec::new();
        };
        let mut header = [0u8; 5];
        if stream.read_exact(&mut header).is_err() {
            return Vec::new();
        }
        let mut record = vec![0; usize::from(u16::from_be_bytes([header[3], header[4]]))];
        let _ = stream.read_exact(&mut record);
        [header.as_slice(), &record].concat()
    });
    let client = match RuntimeClient::builder()
        .base_url(base)
        .retry_policy(RetryPolicy::none())
        .build()
    {
        Ok(client) => client,
        Err(err) => panic!("client: {err}"),
    };
    let got: Result<(), Error> =
        block_on(client.execute(request(Method::GET, "/v1/things/x", None)));
    assert!(matches!(got, Err(Error::Transport(_))), "{got:?}");
    let hello = server.join().unwrap_or_default();
    assert_eq!(hello.first(), Some(&0x16), "not a TLS handshake: {hello:?}");
    let offered: Option<Vec<String>> = alpn_offers(&hello).map(|names| {
        names
            .iter()
            .map(|name| String::from_utf8_lossy(name).into_owned())
            .collect()
    });
    assert_eq!(offered, Some(vec!["http/1.1".to_owned()]));
}

/// The protocols a TLS record holding a ClientHello offers by ALPN; `None` if the record is
/// not one or offers none.
fn alpn_offers(record: &[u8]) -> Option<Vec<Vec<u8>>> {
    // A length-prefixed field (`width` bytes of length): its bytes and what follows.
    fn field(bytes: &[u8], width: usize) -> Option<(&[u8], &[u8])> {
        let len = bytes
            .get(..width)?
            .iter()
            .fold(0usize, |len, &b| (len << 8) | usize::from(b));
        let rest = bytes.get(width..)?;
        Some((rest.get(..len)?, rest.get(len..)?))
    }
    // Record header (5 bytes), then handshake type 1 (ClientHello) and its length (3).
    let body = record.get(5..)?;
    if *body.first()? != 1 {
        return None;
    }
    // Legacy version (2) and random (32), then session id, cipher suites, compression.
    let rest = body.get(4 + 2 + 32..)?;
    let (_, rest) = field(rest, 1)?;
    let (_, rest) = field(rest, 2)?;
    let (_, rest) = field(rest, 1)?;
    let (mut extensions, _) = field(rest, 2)?;
    while !extensions.is_empty() {
        let kind = extensions.get(..2)?;
        let (data, rest) = field(extensions.get(2..)?, 2)?;
        extensions = rest;
        if kind == [0x00, 0x10] {
            let (mut list, _) = field(data, 2)?;
            let mut offered = Vec::new();
            while !list.is_empty() {
                let (name, rest) = field(list, 1)?;
                offered.push(name.to_vec());
                list = rest;
            }
            return Some(offered);
        }
    }
    None
}

#[test]
fn put_is_retried_with_its_body_post_is_not() {
    const UNAVAILABLE: &str =
        "HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
    const OK: &str = "HTTP/1.1 200 OK\r\ncontent-length: 1\r\nconnection: close\r\n\r\n1";
    let fast = RetryPolicy::default().with_initial_backoff(Duration::from_millis(1));
    let (base, server) = serve(vec![UNAVAILABLE, OK]);
    let client = RuntimeClient::builder()
        .base_url(base)
        .retry_policy(fast)
        .build();
    let client = client.unwrap_or_else(|err| panic!("{err}"));
    let body = Some(b"{\"v\":2}".to_vec());
    let got: Result<u8, Error> =
        block_on(client.execute(request(Method::PUT, "/v1/things/x", body.clone())));
    assert_eq!(got.ok(), Some(1));
    let seen = server.join().unwrap_or_default();
    assert_eq!(seen.len(), 2);
    assert!(
        seen.iter().all(|text| text.ends_with("\r\n\r\n{\"v\":2}")),
        "{seen:?}"
    );

    let (base, server) = serve(vec![UNAVAILABLE]);
    let client = RuntimeClient::builder()
        .base_url(base)
        .retry_policy(fast)
        .build();
    let client = client.unwrap_or_else(|err| panic!("{err}"));
    let got: Result<u8, Error> =
        block_on(client.execute(request(Method::POST, "/v1/things", body)));
    assert!(
        matches!(got, Err(Error::Api { status: 503, .. })),
        "{got:?}"
    );
    assert_eq!(server.join().map(|seen| seen.len()).ok(), Some(1));
}

/// A body dropped at one hop of a redirect chain (a 303 turns the request into a GET) stays
/// dropped at the next, even one (a 307) that keeps the body of the request it redirects.
#[test]
fn a_body_dropped_by_a_redirect_is_not_sent_again_further_down_the_chain() {
    const SEE_OTHER: &str = "HTTP/1.1 303 See Other\r\nlocation: /v1/b\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
    const TEMPORARY: &str = "HTTP/1.1 307 Temporary Redirect\r\nlocation: /v1/c\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
    const OK: &str = "HTTP/1.1 200 OK\r\ncontent-length: 1\r\nconnection: close\r\n\r\n1";
    let (base, server) = serve(vec![SEE_OTHER, TEMPORARY, OK]);
    let client = RuntimeClient::builder()
        .base_url(base)
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap_or_else(|err| panic!("{err}"));
    let body = Some(b"{\"v\":2}".to_vec());
    let got: Result<u8, Error> = block_on(client.execute(request(Method::PUT, "/v1/a", body)));
    assert_eq!(got.ok(), Some(1));
    let seen = server.join().unwrap_or_default();
    assert_eq!(seen.len(), 3, "{seen:?}");
    assert!(
        seen[0].starts_with("PUT /v1/a") && seen[0].ends_with("{\"v\":2}"),
        "{seen:?}"
    );
    for hop in &seen[1..] {
        assert!(hop.starts_with("GET /v1/"), "{hop}");
        assert!(hop.ends_with("\r\n\r\n"), "a body was sent again: {hop}");
        assert!(!hop.to_ascii_lowercase().contains("content-type"), "{hop}");
    }
}

/// RFC 9110 §15.4.3: a `PATCH` answered `302` within the origin is sent again as a `PATCH`
/// with its body (it was re-sent as a `GET` without it, and the call returned the GET's
/// answer); a `Location` with userinfo sends no `Authorization: Basic` of the server's choosing,
/// only the client's own key.
#[test]
fn an_update_redirected_by_302_is_sent_again_as_itself_and_userinfo_is_no_credential() {
    let (listener, base) = bind();
    let authority = base.trim_start_matches("http://");
    let responses = vec![
        format!(
            "HTTP/1.1 302 Found\r\nlocation: http://intruder:hunter2@{authority}/v1/b\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
        ),
        "HTTP/1.1 200 OK\r\ncontent-length: 1\r\nconnection: close\r\n\r\n1".to_owned(),
    ];
    let server = serve_on(listener, responses);
    let client = RuntimeClient::builder()
        .api_key(SECRET)
        .base_url(base)
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap_or_else(|err| panic!("{err}"));
    let body = Some(b"{\"v\":2}".to_vec());
    let got: Result<u8, Error> = block_on(client.execute(request(Method::PATCH, "/v1/a", body)));
    assert_eq!(got.ok(), Some(1));
    let seen = server.join().unwrap_or_default();
    assert_eq!(seen.len(), 2, "{seen:?}");
    let second = &seen[1];
    assert!(second.starts_with("PATCH /v1/b"), "{second}");
    assert!(second.ends_with("\r\n\r\n{\"v\":2}"), "{second}");
    assert!(
        second
            .to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{second}"
    );
    let authorizations: Vec<&str> = second
        .lines()
        .filter(|line| line.to_ascii_lowercase().starts_with("authorization:"))
        .collect();
    assert_eq!(authorizations.len(), 1, "{second}");
    assert!(authorizations[0].contains(SECRET), "{second}");
    assert!(!second.contains("Basic"), "{second}");
}

/// The cap holds at its exact size: a body of `limit` bytes is read, one byte more is refused,
/// with a `Content-Length` and without one (read until the connection closes).
#[test]
fn the_response_cap_admits_its_size_and_refuses_one_byte_more() {
    const EXACT: &str = "HTTP/1.1 200 OK\r\ncontent-length: 4\r\nconnection: close\r\n\r\n1234";
    const OVER: &str = "HTTP/1.1 200 OK\r\ncontent-length: 5\r\nconnection: close\r\n\r\n12345";
    const EXACT_UNSIZED: &str = "HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n1234";
    const OVER_UNSIZED: &str = "HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n12345";
    for (response, fits) in [
        (EXACT, true),
        (OVER, false),
        (EXACT_UNSIZED, true),
        (OVER_UNSIZED, false),
    ] {
        let (base, server) = serve_once(response);
        let client = RuntimeClient::builder()
            .base_url(base)
            .retry_policy(RetryPolicy::none())
            .max_response_bytes(4)
            .build()
            .unwrap_or_else(|err| panic!("{err}"));
        let got = block_on(client.execute_bytes(request(Method::GET, "/v1/x", None), "*/*"));
        let _ = server.join();
        if fits {
            assert_eq!(got.ok().as_deref(), Some(&b"1234"[..]), "{response}");
        } else {
            assert!(
                matches!(got, Err(Error::ResponseTooLarge { limit_bytes: 4 })),
                "{response}: {got:?}"
            );
        }
    }
}

/// The attempt level pauses the endpoint for a 429 naming its wait, as soon as it is read; an
/// answer of any other status, with a `Retry-After` or not, pauses nothing.
#[test]
fn only_a_429_naming_its_wait_pauses_the_endpoint() {
    let answer = |status: u16, retry_after: Option<u64>| attempt::Answer {
        status: reqwest::StatusCode::from_u16(status).unwrap_or_default(),
        headers: reqwest::header::HeaderMap::new(),
        retry_after: retry_after.map(Duration::from_secs),
        request_id: None,
        body: Vec::new(),
        throttle_noted: false,
    };
    for (status, retry_after, pauses) in [
        (429, Some(5), true),
        (429, None, false),
        (503, Some(5), false),
        (200, Some(5), false),
    ] {
        let client = client_for("http://127.0.0.1:9");
        let template = "/v1/things/{id}";
        let noted = client.note_throttle(
            template,
            &answer(status, retry_after),
            tokio::time::Instant::now(),
        );
        assert_eq!(noted, pauses, "{status} {retry_after:?}");
        let admitted = block_on(client.inner.traffic.admit(template, false, Duration::ZERO));
        assert_eq!(admitted.is_err(), pauses, "{status} {retry_after:?}");
    }
}

/// An interceptor sees each response, read whole, before the client judges it, and what it
/// changes in the body is what the caller decodes.
#[test]
fn an_interceptor_may_rewrite_the_body_before_it_is_decoded() {
    struct Rewrite;
    impl Interceptor for Rewrite {
        fn after_response(
            &self,
            response: crate::telemetry::InterceptedResponse<'_>,
            context: &crate::telemetry::AttemptContext,
        ) {
            assert_eq!(response.status.as_u16(), 200);
            assert_eq!(context.attempt, 1);
            *response.body = b"7".to_vec();
        }
    }
    const OK: &str = "HTTP/1.1 200 OK\r\ncontent-length: 1\r\nconnection: close\r\n\r\n1";
    let (base, server) = serve_once(OK);
    let client = RuntimeClient::builder()
        .base_url(base)
        .interceptor(Rewrite)
        .build()
        .unwrap_or_else(|err| panic!("{err}"));
    let got: Result<u8, Error> = block_on(client.execute(request(Method::GET, "/v1/x", None)));
    let _ = server.join();
    assert_eq!(got.ok(), Some(7));
}

/// A transport error keeps its (redacted) URL, except for a request carrying a credential as a
/// parameter: its URL held the credential, so the error names none.
#[test]
fn a_transport_error_names_no_url_when_a_credential_was_in_it() {
    // A port nothing listens on: bound, then let go.
    let refused = TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .unwrap_or_else(|err| panic!("{err}"));
    let client = RuntimeClient::builder()
        .base_url(format!("http://{refused}"))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap_or_else(|err| panic!("{err}"));
    for with_secret in [false, true] {
        let mut sent = request(Method::GET, "/v1/x", None);
        if with_secret {
            let added = sent.params.add_secret(
                crate::param_style::ParamLocation::Query,
                "token",
                crate::param_style::Style::Form,
                true,
                "transport-secret-123",
            );
            assert!(added.is_ok(), "{added:?}");
        }
        let got = block_on(client.execute_bytes(sent, "*/*"));
        let Err(Error::Transport(source)) = &got else {
            panic!("{got:?}");
        };
        assert_eq!(source.url().is_none(), with_secret, "{source:?}");
    }
}

/// The operation level asks the traffic state for a first attempt's turn, then for retries'.
#[test]
fn the_retry_loop_counts_attempts_and_knows_a_retry() {
    let mut retries = retry_loop::RetryLoop::new(RetryPolicy::default(), true, std::iter::empty());
    assert!(!retries.next_is_retry());
    assert_eq!(retries.begin_attempt(), 1);
    assert!(retries.next_is_retry());
    assert_eq!(retries.begin_attempt(), 2);
    assert!(retries.next_is_retry());
}

/// A header parameter's value may hold spaces and tabs among visible ASCII; anything else (a
/// byte above 0x7f, a control character) is refused, naming the parameter, before any attempt.
#[test]
fn header_parameters_take_visible_ascii_spaces_and_tabs_only() {
    for (value, valid) in [
        ("a b\tc", true),
        ("plain", true),
        ("caf\u{e9}", false),
        ("bell\u{7}", false),
        ("del\u{7f}", false),
    ] {
        let mut sent = request(Method::GET, "/v1/x", None);
        let added = sent.params.add(
            crate::param_style::ParamLocation::Header,
            "x-note",
            crate::param_style::Style::Simple,
            false,
            value,
        );
        assert!(added.is_ok(), "{added:?}");
        let prepared = prepare::Prepared::new(
            &sent,
            "application/json",
            ("http://127.0.0.1:9", true),
            &RetryPolicy::default(),
            &credentials::Credentials::default(),
        );
        match prepared {
            Ok(prepared) => {
                assert!(valid, "{value:?} was accepted");
                assert_eq!(
                    prepared
                        .headers
                        .parameters
                        .get("x-note")
                        .map(|v| v.as_bytes()),
                    Some(value.as_bytes())
                );
            }
            Err(Error::InvalidRequest(message)) => {
                assert!(!valid, "{value:?}: {message}");
                assert!(message.contains("`x-note`"), "{message}");
            }
            Err(other) => panic!("{value:?}: {other:?}"),
        }
    }
}

thread_local! {
    /// Where [`Capture`] writes on this thread; `None` while not capturing.
    static CAPTURED: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// A global subscriber that writes every span and event field, as `name=value`, into
/// [`CAPTURED`] on threads that are capturing, and ignores all other threads.
///
/// Global rather than scoped (`with_default`): with a scoped subscriber, a test on another
/// thread that reaches a callsite first caches "never interested" for it, and the event is
/// then lost here too. `Interest::sometimes` keeps `enabled` asked on every call.
struct Capture {
    next_id: AtomicU64,
}

struct Writer<'a>(&'a mut String);

impl tracing::field::Visit for Writer<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn fmt::Debug) {
        use std::fmt::Write as _;
        let _ = write!(self.0, "{}={value:?} ", field.name());
    }
}

fn write_captured(prefix: &str, record: impl FnOnce(&mut Writer<'_>)) {
    CAPTURED.with_borrow_mut(|captured| {
        if let Some(text) = captured {
            text.push_str(prefix);
            record(&mut Writer(text));
            text.push('\n');
        }
    });
}

impl tracing::Subscriber for Capture {
    fn register_callsite(
        &self,
        _: &'static tracing::Metadata<'static>,
    ) -> tracing::subscriber::Interest {
        tracing::subscriber::Interest::sometimes()
    }
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        CAPTURED.with_borrow(Option::is_some)
    }
    fn new_span(&self, span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        write_captured(span.metadata().name(), |w| span.record(w));
        tracing::span::Id::from_u64(self.next_id.fetch_add(1, Ordering::Relaxed))
    }
    fn record(&self, _: &tracing::span::Id, values: &tracing::span::Record<'_>) {
        write_captured("record ", |w| values.record(w));
    }
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        write_captured("event ", |w| event.record(w));
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

/// Runs `f` with [`Capture`] recording this thread, and returns what it wrote.
fn capture<R>(f: impl FnOnce() -> R) -> (R, String) {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let capture = Capture {
            next_id: AtomicU64::new(1),
        };
        let installed = tracing::subscriber::set_global_default(capture);
        assert!(installed.is_ok(), "another global subscriber is installed");
    });
    // A callsite that another test's thread registered while the subscriber was being
    // installed can keep the "never" it cached then (a race in tracing-core's registry):
    // ask every callsite again, so this capture sees all of its own spans.
    tracing::callsite::rebuild_interest_cache();
    CAPTURED.set(Some(String::new()));
    let result = f();
    (result, CAPTURED.take().unwrap_or_default())
}

#[test]
fn tracing_records_attempts_without_key() {
    const UNAVAILABLE: &str = "HTTP/1.1 503 Service Unavailable\r\ncontent-length: 4\r\n\
                               connection: close\r\n\r\nbusy";
    const OK: &str = "HTTP/1.1 200 OK\r\ncontent-length: 1\r\nconnection: close\r\n\r\n1";
    let (base, server) = serve(vec![UNAVAILABLE, OK]);
    let fast = RetryPolicy::default().with_initial_backoff(Duration::from_millis(1));
    let client = RuntimeClient::builder()
        .api_key(SECRET)
        .base_url(base)
        .retry_policy(fast);
    let client = client.build().unwrap_or_else(|err| panic!("{err}"));
    let (got, text) =
        capture(|| block_on(client.execute::<u8>(request(Method::GET, "/v1/things/x", None))));
    assert_eq!(got.ok(), Some(1));
    let _ = server.join();
    for expected in [
        "baseten_api.request",
        "operation=\"test_op\"",
        "method=GET",
        "path_template=\"/v1/things/{id}\"",
        "record attempt=1",
        "record status=503",
        "wait_ms=",
        "reason=HTTP 503: busy",
        "record attempt=2",
        "record status=200",
        "record elapsed_ms=",
    ] {
        assert!(text.contains(expected), "{expected} missing from:\n{text}");
    }
    assert!(!text.contains("SuperSecret"), "{text}");
}

#[test]
fn spans_carry_opentelemetry_attributes_with_secrets_redacted() {
    const UNAVAILABLE: &str = "HTTP/1.1 503 Service Unavailable\r\ncontent-length: 4\r\n\
                               connection: close\r\n\r\nbusy";
    const OK: &str = "HTTP/1.1 200 OK\r\ncontent-length: 1\r\nconnection: close\r\n\r\n1";
    let (base, server) = serve(vec![UNAVAILABLE, OK]);
    let port = base.rsplit(':').next().unwrap_or_default().to_owned();
    let fast = RetryPolicy::default().with_initial_backoff(Duration::from_millis(1));
    let client = RuntimeClient::builder()
        .api_key(SECRET)
        .base_url(base.clone())
        .retry_policy(fast);
    let client = client.build().unwrap_or_else(|err| panic!("{err}"));
    let mut with_secret = request(Method::GET, "/v1/things/x", None);
    let added = with_secret.params.add(
        crate::param_style::ParamLocation::Query,
        "token",
        crate::param_style::Style::Form,
        true,
        SECRET,
    );
    assert!(added.is_ok(), "{added:?}");
    let (got, text) = capture(|| block_on(client.execute::<u8>(with_secret)));
    assert_eq!(got.ok(), Some(1));
    let seen = server.join().unwrap_or_default();
    // The secret did go to the server, so its absence from the spans is the redaction.
    assert!(
        seen.iter()
            .any(|request| request.contains("token=abcdefgh.SuperSecret"))
    );
    let spans = |name: &str| text.lines().filter(|line| line.starts_with(name)).count();
    assert_eq!(spans("baseten_api.request"), 1, "{text}");
    assert_eq!(spans("baseten_api.attempt"), 2, "{text}");
    let full_url = format!("url.full={base}/v1/things/x?metrics=a+b&metrics=c%26d&token=REDACTED ");
    for expected in [
        "otel.name=GET /v1/things/{id} ",
        "otel.kind=\"client\" ",
        "http.request.method=GET ",
        "server.address=127.0.0.1 ",
        &format!("server.port={port} "),
        "url.template=\"/v1/things/{id}\" ",
        &full_url,
        "record http.response.status_code=503",
        "record error.type=\"503\"",
        "http.request.resend_count=1 ",
        "record http.request.resend_count=1",
        "record http.response.status_code=200",
    ] {
        assert!(text.contains(expected), "{expected} missing from:\n{text}");
    }
    // The first attempt is no resend: the attribute is absent there.
    let first_attempt = text
        .lines()
        .find(|line| line.starts_with("baseten_api.attempt"))
        .unwrap_or_default();
    assert!(!first_attempt.contains("resend_count"), "{first_attempt}");
    assert!(!text.contains("SuperSecret"), "{text}");
    assert!(!text.contains("Bearer"), "{text}");
}

#[test]
fn failed_call_span_names_the_error_type() {
    const DENIED: &str = "HTTP/1.1 403 Forbidden\r\ncontent-length: 2\r\n\
                          connection: close\r\n\r\nno";
    let (base, server) = serve(vec![DENIED]);
    let client = client_for(&base);
    let (got, text) =
        capture(|| block_on(client.execute::<u8>(request(Method::GET, "/v1/things/x", None))));
    assert_eq!(got.err().and_then(|error| error.status()), Some(403));
    let _ = server.join();
    assert_eq!(
        text.matches("record error.type=\"403\"").count(),
        2,
        "{text}"
    );
    assert!(!text.contains("resend_count"), "{text}");
}

/// Each scheme puts the key where OpenAPI's `http` and `apiKey` schemes say, marked sensitive;
/// a scheme word, header name or cookie name that cannot be sent is refused without the key.
#[test]
fn each_auth_scheme_places_the_key_where_it_says() {
    let placed = |scheme: AuthScheme, key: &str| {
        let client = RuntimeClient::builder()
            .api_key(key)
            .auth_scheme(scheme)
            .build()
            .unwrap_or_else(|error| panic!("{error}"));
        let key = client.inner.credentials.key.clone().expect("a key");
        match key.placed {
            credentials::Placed::Header(name, value) => {
                assert!(value.is_sensitive());
                (
                    name.as_str().to_owned(),
                    value.to_str().unwrap_or_default().to_owned(),
                )
            }
            credentials::Placed::Cookie(pair) => ("cookie".to_owned(), pair),
            credentials::Placed::Query(..) => panic!("{scheme:?} placed the key in the query"),
        }
    };
    let cases = [
        (AuthScheme::Bearer, "k1", ("authorization", "Bearer k1")),
        (AuthScheme::ApiKey, "k1", ("authorization", "Api-Key k1")),
        // RFC 7617's own example.
        (
            AuthScheme::Basic,
            "Aladdin:open sesame",
            ("authorization", "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="),
        ),
        (
            AuthScheme::Scheme("Token"),
            "k1",
            ("authorization", "Token k1"),
        ),
        (AuthScheme::Header("X-Api-Key"), "k1", ("x-api-key", "k1")),
        (
            AuthScheme::Cookie("session"),
            "k1",
            ("cookie", "session=k1"),
        ),
    ];
    for (scheme, key, (name, value)) in cases {
        assert_eq!(
            placed(scheme, key),
            (name.to_owned(), value.to_owned()),
            "{scheme:?}"
        );
    }
    for scheme in [
        AuthScheme::Scheme(""),
        AuthScheme::Scheme("To ken"),
        AuthScheme::Header("X Key"),
        AuthScheme::Header(""),
        AuthScheme::Cookie("a=b"),
        AuthScheme::Cookie(""),
    ] {
        let error = RuntimeClient::builder()
            .api_key("SuperSecret")
            .auth_scheme(scheme)
            .build()
            .err()
            .map(|error| format!("{error} {error:?}"));
        let error = error.unwrap_or_else(|| panic!("{scheme:?} accepted"));
        assert!(error.contains("auth scheme"), "{error}");
        assert!(!error.contains("SuperSecret"), "{error}");
    }
}

/// A basic password echoed on its own is scrubbed like the whole key.
#[test]
fn a_basic_password_alone_is_scrubbed() {
    let client = RuntimeClient::builder()
        .api_key("someone:PasswordEchoed42")
        .auth_scheme(AuthScheme::Basic)
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let shown = crate::server_text::ServerText::new("wrong password PasswordEchoed42".to_owned());
    assert!(!shown.to_string().contains("PasswordEchoed42"), "{shown}");
    drop(client);
}

/// A relative default base URL is joined to the origin the user gives, an absolute one is kept,
/// and a relative one without an origin is refused, naming the document's URL only.
#[test]
fn a_relative_default_is_resolved_against_the_origin() {
    let base = |default: &str, origin: Option<&str>| {
        let builder = ClientBuilder::<RuntimeClient>::new(default);
        let builder = match origin {
            Some(origin) => builder.origin(origin),
            None => builder,
        };
        builder
            .build()
            .map(|client| client.base_url().to_owned())
            .map_err(|error| error.to_string())
    };
    let ok = |url: &str| Ok::<String, String>(url.to_owned());
    assert_eq!(
        base("/api/v2/", Some("https://h.test/")),
        ok("https://h.test/api/v2")
    );
    assert_eq!(
        base("api", Some("https://h.test")),
        ok("https://h.test/api")
    );
    assert_eq!(
        base("./api", Some("https://h.test")),
        ok("https://h.test/api")
    );
    assert_eq!(
        base("https://a.test/v1", Some("https://h.test")),
        ok("https://a.test/v1")
    );
    assert_eq!(base("https://a.test/v1", None), ok("https://a.test/v1"));
    let refused = base("/api", None).unwrap_err();
    assert_eq!(
        refused,
        "invalid request: the document's server URL \"/api\" is relative: set the origin it is \
         relative to with `origin(..)`, or a whole base URL with `base_url(..)`"
    );
    // An origin that is no URL fails as any base URL does, without echoing it.
    let refused = base("/api", Some("u:SuperSecret@nowhere")).unwrap_err();
    assert!(!refused.contains("SuperSecret"), "{refused}");
    assert!(base("", None).is_err());
}

/// Per-scheme credentials and per-operation requirements.
#[path = "credentials_tests.rs"]
mod credentials_tests;
