//! The client against hostile or odd servers on 127.0.0.1: a server that echoes the API key in
//! any shape, bodies larger than the cap (with and without a length), every form of
//! `Retry-After`, redirect loops, refused connections; and the knobs a reqwest user expects
//! (default headers, a reqwest client of one's own, per-client timeouts, request ids).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::time::Duration;

use baseten_api::{Client, ClientBuilder, Error, client::RetryPolicy};
use wiremock::matchers::{any, header};
use wiremock::{Mock, MockServer, ResponseTemplate};

const API_KEY: &str = "abcdefgh.SuperSecretHostileKey77";

fn fast(attempts: u32) -> RetryPolicy {
    RetryPolicy::default()
        .with_max_attempts(attempts)
        .with_initial_backoff(Duration::from_millis(5))
        .with_max_backoff(Duration::from_millis(20))
}

fn builder(base_url: &str) -> ClientBuilder {
    Client::builder()
        .api_key(API_KEY)
        .base_url(base_url)
        .retry_policy(fast(3))
}

fn build(builder: ClientBuilder) -> Client {
    builder
        .build()
        .unwrap_or_else(|error| panic!("client: {error}"))
}

async fn serve(response: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(response)
        .mount(&server)
        .await;
    server
}

/// One call of a generated operation; every test goes through the emitted code.
async fn call(client: &Client) -> Result<baseten_api::models::GetModelMetricsResponseV1, Error> {
    let query = baseten_api::operations::GetModelEnvironmentMetricsQuery::default();
    client
        .get_model_environment_metrics("m1", "production", &query)
        .await
}

async fn requests_seen(server: &MockServer) -> usize {
    server.received_requests().await.map_or(0, |r| r.len())
}

/// Neither `Display`, `{:#}`-style chains nor `Debug` of `error` contain the key in any form.
fn assert_no_key(error: &Error) {
    let mut shown = vec![error.to_string(), format!("{error:?}")];
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        shown.push(cause.to_string());
        source = cause.source();
    }
    for text in shown {
        assert!(!text.contains(API_KEY), "key leaked: {text}");
        assert!(!text.contains("SuperSecret"), "key leaked: {text}");
    }
}

/// Each shape a server echoing the `Authorization` header has been seen to take.
#[tokio::test]
async fn an_echoed_key_is_scrubbed_from_every_error() {
    let bearer = format!("Bearer {API_KEY}");
    let cases = [
        (
            403,
            format!(r#"{{"code": "DENIED", "message": "bad header: {bearer}"}}"#),
        ),
        (
            401,
            format!(r#"{{"detail": {{"authorization": "{bearer}"}}}}"#),
        ),
        (
            502,
            format!("<html><pre>Authorization: {bearer}</pre></html>"),
        ),
        (
            200,
            format!("<html>Authorization: Api-Key {API_KEY}</html>"),
        ),
        (200, format!(r#"{{"start_epoch_millis": "{bearer}"}}"#)),
        (
            429,
            format!(
                r#"{{"message": "{}", "retry_after": 999}}"#,
                API_KEY.replace('.', "%2E")
            ),
        ),
    ];
    for (status, body) in cases {
        let server =
            serve(ResponseTemplate::new(status).set_body_raw(body.clone(), "text/plain")).await;
        let client = build(builder(&server.uri()).retry_policy(RetryPolicy::none()));
        let error = call(&client).await.expect_err("every case fails");
        assert_no_key(&error);
        let kept = match &error {
            Error::Api {
                body,
                message,
                detail,
                ..
            } => {
                format!("{body}{message:?}{detail:?}")
            }
            Error::RateLimited { body, .. } => body.to_string(),
            Error::Decode {
                body_excerpt,
                message,
                ..
            } => format!("{body_excerpt}{message}"),
            other => panic!("{status}: unexpected {other:?}"),
        };
        assert!(
            kept.contains("<redacted>"),
            "{status}: the rest is kept: {kept}"
        );
    }
}

#[tokio::test]
async fn a_body_over_the_cap_is_refused_while_reading() {
    let big = "x".repeat(300_000);
    let server = serve(ResponseTemplate::new(200).set_body_raw(big, "application/json")).await;
    let client = build(builder(&server.uri()).max_response_bytes(100_000));
    let error = call(&client).await.expect_err("over the cap");
    assert!(
        matches!(
            error,
            Error::ResponseTooLarge {
                limit_bytes: 100_000
            }
        ),
        "{error:?}"
    );
    assert_eq!(requests_seen(&server).await, 1, "not retried");
    assert_eq!(
        error.to_string(),
        "response body is longer than the 100000 bytes this client reads"
    );
}

/// A server that sends no length and never stops: the client stops at the cap.
#[tokio::test]
async fn an_endless_body_without_a_length_stops_at_the_cap() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = std::thread::spawn(move || {
        let Ok((stream, _)) = listener.accept() else {
            return 0;
        };
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
            line.clear();
        }
        let mut stream = reader.into_inner();
        let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n");
        let chunk = vec![b'7'; 64 * 1024];
        let mut sent = 0usize;
        // Bounded: 64 MiB at most, far past the 1 MiB cap.
        while sent < 64 * 1024 * 1024 && stream.write_all(&chunk).is_ok() {
            sent += chunk.len();
        }
        sent
    });
    let client = build(builder(&base).max_response_bytes(1024 * 1024));
    let error = call(&client).await.expect_err("over the cap");
    assert!(matches!(error, Error::ResponseTooLarge { .. }), "{error:?}");
    // Joined off the runtime: the connection is closed by a task that must keep running.
    let sent = tokio::task::spawn_blocking(move || server.join().unwrap())
        .await
        .unwrap();
    assert!(
        sent < 64 * 1024 * 1024,
        "the client hung up early ({sent} bytes sent)"
    );
}

/// `Retry-After` longer than the cap, in any form, is `RateLimited` at once with the wait.
#[tokio::test]
async fn long_retry_after_in_any_form_is_returned_at_once() {
    let in_an_hour =
        httpdate::fmt_http_date(std::time::SystemTime::now() + Duration::from_secs(3600));
    type Expected = fn(Duration) -> bool;
    let cases: [(&str, Expected); 4] = [
        ("120.5", |wait| wait == Duration::from_millis(120_500)),
        ("99999999999999999999999999", |wait| wait == Duration::MAX),
        ("", |wait| {
            wait > Duration::from_secs(3590) && wait <= Duration::from_secs(3600)
        }),
        ("86400", |wait| wait == Duration::from_secs(86_400)),
    ];
    for (value, expected) in cases {
        let value = if value.is_empty() {
            in_an_hour.as_str()
        } else {
            value
        };
        let server = serve(ResponseTemplate::new(429).insert_header("retry-after", value)).await;
        let client = build(builder(&server.uri()));
        let error = call(&client).await.expect_err("rate limited");
        match error {
            Error::RateLimited {
                retry_after: Some(wait),
                attempts: 1,
                ..
            } => {
                assert!(expected(wait), "{value}: waited {wait:?}");
            }
            other => panic!("{value}: {other:?}"),
        }
        assert_eq!(requests_seen(&server).await, 1, "{value}: not sat out");
    }
}

#[tokio::test]
async fn a_short_fractional_retry_after_is_waited_out() {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(429).insert_header("retry-after", "0.05"))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(500))
        .with_priority(2)
        .mount(&server)
        .await;
    let client = build(builder(&server.uri()).retry_policy(fast(2)));
    let started = std::time::Instant::now();
    let error = call(&client).await.expect_err("500 after the wait");
    assert!(matches!(error, Error::Api { status: 500, .. }), "{error:?}");
    assert!(started.elapsed() >= Duration::from_millis(50));
    assert_eq!(requests_seen(&server).await, 2);
}

/// A redirect loop fails the same way every time: one attempt, not three. The client follows
/// ten redirects within the origin and answers the eleventh as the response it is.
#[tokio::test]
async fn a_redirect_loop_is_not_retried() {
    let server = MockServer::start().await;
    let target = format!(
        "{}/v1/models/m1/environments/production/metrics",
        server.uri()
    );
    Mock::given(any())
        .respond_with(ResponseTemplate::new(302).insert_header("location", target.as_str()))
        .mount(&server)
        .await;
    let client = build(builder(&server.uri()));
    let error = call(&client).await.expect_err("redirect loop");
    assert!(matches!(error, Error::Api { status: 302, .. }), "{error:?}");
    assert!(!error.is_retryable());
    let seen = requests_seen(&server).await;
    assert!(
        (2..=11).contains(&seen),
        "one attempt's redirects only, saw {seen}"
    );
}

#[tokio::test]
async fn transport_errors_show_their_cause_chain_on_one_line() {
    // A port nothing listens on: bind, note the address, close.
    let address = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let client = build(builder(&format!("http://{address}")).retry_policy(RetryPolicy::none()));
    let error = call(&client).await.expect_err("refused");
    let shown = error.to_string();
    assert!(
        shown.starts_with("HTTP transport failed: error sending request"),
        "{shown}"
    );
    assert!(shown.to_ascii_lowercase().contains("connect"), "{shown}");
    assert!(
        shown.contains("refused") || shown.contains("os error"),
        "the root cause: {shown}"
    );
    assert!(!shown.contains('\n'), "{shown}");
}

#[tokio::test]
async fn the_servers_request_id_is_kept_on_api_errors() {
    let server = serve(ResponseTemplate::new(404).insert_header("x-request-id", "req-123")).await;
    let client = build(builder(&server.uri()));
    let error = call(&client).await.expect_err("404");
    assert!(
        matches!(&error, Error::Api { status: 404, request_id: Some(id), .. } if id == "req-123"),
        "{error:?}"
    );
    let server = serve(ResponseTemplate::new(404).insert_header("cf-ray", "ray-9")).await;
    let client = build(builder(&server.uri()).request_id_header("cf-ray"));
    let error = call(&client).await.expect_err("404");
    assert!(
        matches!(&error, Error::Api { request_id: Some(id), .. } if id == "ray-9"),
        "{error:?}"
    );
}

#[tokio::test]
async fn default_headers_and_a_clients_own_reqwest_are_used() {
    let server = MockServer::start().await;
    Mock::given(header("x-team", "autoscaler"))
        .and(header("x-from-reqwest", "yes"))
        .and(header(
            "authorization",
            format!("Bearer {API_KEY}").as_str(),
        ))
        .respond_with(ResponseTemplate::new(418))
        .mount(&server)
        .await;
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(
        "x-from-reqwest",
        reqwest::header::HeaderValue::from_static("yes"),
    );
    let http = reqwest::Client::builder()
        .default_headers(headers)
        .build()
        .unwrap();
    let client = build(
        builder(&server.uri())
            .http_client(http)
            .default_header("x-team", "autoscaler"),
    );
    let error = call(&client).await.expect_err("418");
    assert!(
        matches!(error, Error::Api { status: 418, .. }),
        "both headers matched: {error:?}"
    );
    assert!(matches!(
        Client::builder().default_header("bad name", "v").build(),
        Err(Error::InvalidRequest(_))
    ));
    assert!(matches!(
        Client::builder().request_id_header("bad name").build(),
        Err(Error::InvalidRequest(_))
    ));
}

#[tokio::test]
async fn a_client_copy_can_have_a_shorter_timeout() {
    let server = serve(ResponseTemplate::new(500).set_delay(Duration::from_millis(400))).await;
    let client = build(builder(&server.uri()).retry_policy(RetryPolicy::none()));
    let hasty = client.with_timeout(Duration::from_millis(50));
    assert_eq!(hasty.runtime().timeout(), Duration::from_millis(50));
    assert_eq!(client.runtime().timeout(), Duration::from_secs(30));
    let error = call(&hasty).await.expect_err("times out");
    assert!(matches!(error, Error::Timeout { attempts: 1 }), "{error:?}");
    let error = call(&client.with_retry_policy(RetryPolicy::none()))
        .await
        .expect_err("500");
    assert!(matches!(error, Error::Api { status: 500, .. }), "{error:?}");
}

/// A key no test knows in advance: 64 random hex digits and the punctuation real keys carry.
fn random_key() -> String {
    use std::hash::{BuildHasher, Hasher};
    let state = std::collections::hash_map::RandomState::new();
    let mut key = String::from("rk");
    for part in 0..4u32 {
        let mut hasher = state.build_hasher();
        hasher.write_u32(part);
        key.push_str(&format!("{:016x}", hasher.finish()));
    }
    key.push_str(".Zz-_~");
    key
}

/// The forms a server might echo `key` in: raw, every byte percent-encoded in lower and in upper
/// case, every character JSON-escaped, and its UTF-16 in either byte order written as JSON
/// (`\u0000`-interleaved, which a decoder reads as NUL-interleaved text).
fn echoed_forms(key: &str) -> Vec<String> {
    let lower: String = key.bytes().map(|b| format!("%{b:02x}")).collect();
    let upper: String = key.bytes().map(|b| format!("%{b:02X}")).collect();
    let json: String = key
        .chars()
        .map(|c| format!("\\u{:04x}", u32::from(c)))
        .collect();
    let little = interleaved(key, "\\u0000", false);
    let big = interleaved(key, "\\u0000", true);
    vec![key.to_owned(), lower, upper, json, little, big]
}

/// `text` with `between` before (`zero_first`) or after each character.
fn interleaved(text: &str, between: &str, zero_first: bool) -> String {
    text.chars()
        .map(|c| {
            if zero_first {
                format!("{between}{c}")
            } else {
                format!("{c}{between}")
            }
        })
        .collect()
}

/// `text` holds `key` in none of its echoed forms, nor its random middle alone.
fn assert_free_of(key: &str, text: &str) {
    for form in echoed_forms(key) {
        assert!(!text.contains(&form), "key leaked as {form}: {text}");
    }
    assert!(
        !text.contains(&key[2..34]),
        "part of the key leaked: {text}"
    );
    // Its middle in UTF-16 as text shows it: NUL-interleaved, or with the NULs escaped.
    for between in ["\0", "\\u0000", "\\u{0}"] {
        for zero_first in [false, true] {
            let form = interleaved(&key[2..34], between, zero_first);
            assert!(!text.contains(&form), "key leaked as {form:?}: {text}");
        }
    }
}

/// `Display`, `Debug` and every source's `Display` of `error` are free of `key`.
fn assert_error_free_of(key: &str, error: &Error) {
    assert_free_of(key, &error.to_string());
    assert_free_of(key, &format!("{error:?}"));
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        assert_free_of(key, &cause.to_string());
        source = cause.source();
    }
}

/// A `CURRENT` metrics response whose `mode` and only metric name are `mode` and `name`, and
/// whose one value list is `values`.
fn metrics_json(mode: &str, name: &str, values: &str) -> String {
    format!(
        r#"{{"start_epoch_millis": 0, "end_epoch_millis": 60000, "mode": "{mode}",
          "metric_descriptors": [{{"name": "{name}", "unit_hint": "COUNT", "kind": "GAUGE",
            "label_sets": [{{}}]}}],
          "metric_values": [{{"start_epoch_millis": 0, "values": [{values}]}}]}}"#
    )
}

/// A server that sends the key back inside a well-formed 200 — as the `mode` (a mode mismatch)
/// or as a metric name of a misaligned response — does not get it into the error: these
/// errors quote server text, which passes through the same scrubber as error bodies.
#[tokio::test]
async fn a_key_echoed_in_a_well_formed_response_is_scrubbed() {
    let key = random_key();
    for form in echoed_forms(&key) {
        let bodies = [
            metrics_json(&form, "requests", "[1.0]"),
            metrics_json("CURRENT", &form, "[]"),
        ];
        for body in bodies {
            let server =
                serve(ResponseTemplate::new(200).set_body_raw(body, "application/json")).await;
            let client = build(
                Client::builder()
                    .api_key(key.as_str())
                    .base_url(server.uri())
                    .retry_policy(RetryPolicy::none()),
            );
            let request = client.environment_metrics("m1", "production").current();
            let error = request
                .send()
                .await
                .expect_err("not an answer to the request");
            assert!(matches!(error, Error::InvalidResponse(_)), "{error:?}");
            assert_error_free_of(&key, &error);
            assert!(error.to_string().contains("<redacted>"), "{error}");
        }
    }
}

/// A key echoed percent-encoded in lower-case hex, or JSON-escaped, in an error body is
/// scrubbed like the raw key.
#[tokio::test]
async fn a_key_echoed_in_lower_case_hex_or_escaped_is_scrubbed() {
    let key = random_key();
    for form in echoed_forms(&key) {
        let body = format!(r#"{{"code": "DENIED", "message": "sent {form}", "detail": "{form}"}}"#);
        let server = serve(
            ResponseTemplate::new(403)
                .insert_header("x-request-id", form.as_str())
                .set_body_raw(body, "application/json"),
        )
        .await;
        let client = build(
            Client::builder()
                .api_key(key.as_str())
                .base_url(server.uri())
                .retry_policy(RetryPolicy::none()),
        );
        let error = call(&client).await.expect_err("403");
        assert_error_free_of(&key, &error);
        let Error::Api {
            body,
            message,
            request_id,
            ..
        } = &error
        else {
            panic!("{error:?}")
        };
        assert_free_of(&key, body);
        assert!(
            message
                .as_ref()
                .is_some_and(|m| m.as_str() == "sent <redacted>"),
            "{message:?}"
        );
        assert_eq!(
            request_id.as_ref().map(|id| id.as_str()),
            Some("<redacted>")
        );
    }
}

/// Everything `tracing` recorded on this thread while capturing: span names and fields, events.
pub(crate) mod traces {
    use std::cell::RefCell;
    use std::fmt::{self, Write as _};
    use std::sync::atomic::{AtomicU64, Ordering};

    thread_local! {
        static CAPTURED: RefCell<Option<String>> = const { RefCell::new(None) };
    }

    struct Capture {
        next_id: AtomicU64,
    }

    struct Fields<'a>(&'a mut String);

    impl tracing::field::Visit for Fields<'_> {
        fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn fmt::Debug) {
            let _ = write!(self.0, "{}={value:?} ", field.name());
        }

        fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
            let _ = write!(self.0, "{}={value} ", field.name());
        }
    }

    fn write(prefix: &str, record: impl FnOnce(&mut Fields<'_>)) {
        CAPTURED.with_borrow_mut(|captured| {
            if let Some(text) = captured {
                text.push_str(prefix);
                record(&mut Fields(text));
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
            write(span.metadata().name(), |fields| span.record(fields));
            tracing::span::Id::from_u64(self.next_id.fetch_add(1, Ordering::Relaxed))
        }
        fn record(&self, _: &tracing::span::Id, values: &tracing::span::Record<'_>) {
            write("record ", |fields| values.record(fields));
        }
        fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
        fn event(&self, event: &tracing::Event<'_>) {
            write("event ", |fields| event.record(fields));
        }
        fn enter(&self, _: &tracing::span::Id) {}
        fn exit(&self, _: &tracing::span::Id) {}
    }

    /// Starts capturing this thread's traces (installing the capturing subscriber once).
    pub fn start() {
        static INSTALL: std::sync::Once = std::sync::Once::new();
        INSTALL.call_once(|| {
            let capture = Capture {
                next_id: AtomicU64::new(1),
            };
            let _ = tracing::subscriber::set_global_default(capture);
        });
        // A callsite that another test's thread registered while the subscriber was being
        // installed can keep the "never" it cached then (a race in tracing-core's registry):
        // ask every callsite again, so this capture sees all of its own spans.
        tracing::callsite::rebuild_interest_cache();
        CAPTURED.set(Some(String::new()));
    }

    /// What was captured since [`start`], which it stops.
    pub fn take() -> String {
        CAPTURED.take().unwrap_or_default()
    }
}

/// The variant path of an error from its `Debug`: `InvalidResponse/Misaligned/LabelSetCountMismatch`.
fn variant_path(debug: &str) -> String {
    let mut path = Vec::new();
    let mut rest = debug;
    loop {
        let end = rest.find(['(', ' ', '{']).unwrap_or(rest.len());
        path.push(&rest[..end]);
        match rest[end..].strip_prefix('(') {
            Some(inner) if inner.starts_with(|c: char| c.is_ascii_uppercase()) => rest = inner,
            _ => return path.join("/"),
        }
    }
}

/// A server that reads one request, answers with `head` and the start of a body it promised to
/// be longer, and hangs up: the client's read fails (a transport error).
fn serve_cut_short(head_and_body: String) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let Ok((stream, _)) = listener.accept() else {
            return;
        };
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
            line.clear();
        }
        let _ = reader.into_inner().write_all(head_and_body.as_bytes());
    });
    base
}

/// Every variant of `Error` (and of `ResponseError` and `AlignmentError` under it), provoked
/// by a local server that echoes a random key in every form it can — in bodies, headers, modes,
/// metric names, JSON keys, cursors — is free of the key in `Display`, `Debug`, every source,
/// and every trace the request left. The variants seen are checked against the full list, so a
/// case that stops provoking its variant fails.
#[tokio::test]
async fn no_error_variant_carries_an_echoed_key() {
    use baseten_api::runtime::pages::{PageInfo, pages};
    use futures_util::StreamExt as _;

    let key = random_key();
    let forms = echoed_forms(&key);
    let all = forms.join(" ");
    let raw = key.as_str();
    let client_for = |base: &str| {
        build(
            Client::builder()
                .api_key(raw)
                .base_url(base)
                .retry_policy(RetryPolicy::none()),
        )
    };
    let current = |mode: &str, name: &str, values: &str, sets: usize| {
        let set = format!(r#"{{"start_epoch_millis": 0, "values": [{values}]}}"#);
        format!(
            r#"{{"start_epoch_millis": 0, "end_epoch_millis": 60000, "mode": "{mode}",
              "metric_descriptors": [{{"name": "{name}", "unit_hint": "COUNT", "kind": "GAUGE",
                "label_sets": [{{"{raw}": "{raw}"}}]}}], "metric_values": [{}]}}"#,
            vec![set; sets].join(", ")
        )
    };
    let series = |step: i64, starts: [i64; 2], end: i64| {
        format!(
            r#"{{"start_epoch_millis": 0, "end_epoch_millis": {end}, "mode": "SERIES",
              "step_seconds": {step}, "metric_descriptors": [{{"name": "{raw}", "unit_hint":
              "COUNT", "kind": "GAUGE", "label_sets": [{{}}]}}], "metric_values": [
              {{"start_epoch_millis": {}, "values": [[1]]}},
              {{"start_epoch_millis": {}, "values": [[2]]}}]}}"#,
            starts[0], starts[1]
        )
    };
    let window = baseten_api::requests::Window::new(0, 60_000).unwrap();
    let mut errors: Vec<(Error, String)> = Vec::new();

    // Answers over HTTP, each fetched once through a generated operation or metrics request.
    let cases: Vec<(&str, ResponseTemplate)> = vec![
        (
            "current",
            ResponseTemplate::new(429)
                .insert_header("retry-after", "0")
                .set_body_raw(format!(r#"{{"message": "{all}"}}"#), "application/json"),
        ),
        (
            "current",
            ResponseTemplate::new(403)
                .insert_header("x-request-id", raw)
                .set_body_raw(
                    format!(
                        r#"{{"code": "{raw}", "message": "{all}", "detail": {{"k": "{all}"}}}}"#
                    ),
                    "application/json",
                ),
        ),
        (
            "current",
            ResponseTemplate::new(200).set_body_raw(
                format!(r#"{{"start_epoch_millis": "{all}"}}"#),
                "application/json",
            ),
        ),
        (
            "current",
            ResponseTemplate::new(200).set_body_raw(
                r#"{"start_epoch_millis": 0, "end_epoch_millis": 1, "mode": "CURRENT",
                   "metric_descriptors": [{"name": "m", "unit_hint": "COUNT", "kind": "GAUGE",
                   "label_sets": [{"KEY": 5}]}], "metric_values": []}"#
                    .replace("KEY", raw),
                "application/json",
            ),
        ),
        (
            "timeout",
            ResponseTemplate::new(500)
                .set_delay(Duration::from_millis(400))
                .set_body_raw(all.clone(), "text/plain"),
        ),
        (
            "too large",
            ResponseTemplate::new(200).set_body_raw(
                format!("[\"{all}\", {}]", "0,".repeat(2000)),
                "application/json",
            ),
        ),
        (
            "current",
            ResponseTemplate::new(200)
                .set_body_raw(current(raw, "m", "[1]", 1), "application/json"),
        ),
        (
            "current",
            ResponseTemplate::new(200)
                .set_body_raw(current(&forms[3], "m", "[1]", 1), "application/json"),
        ),
        (
            "current",
            ResponseTemplate::new(200)
                .set_body_raw(current("CURRENT", raw, "[1]", 2), "application/json"),
        ),
        (
            "current",
            ResponseTemplate::new(200)
                .set_body_raw(current("CURRENT", raw, "", 1), "application/json"),
        ),
        (
            "current",
            ResponseTemplate::new(200)
                .set_body_raw(current("CURRENT", raw, "[]", 1), "application/json"),
        ),
        (
            "series",
            ResponseTemplate::new(200)
                .set_body_raw(series(0, [0, 30_000], 60_000), "application/json"),
        ),
        (
            "series",
            ResponseTemplate::new(200).set_body_raw(series(30, [0, 0], 60_000), "application/json"),
        ),
        (
            "series",
            ResponseTemplate::new(200)
                .set_body_raw(series(30, [0, 90_000], 60_000), "application/json"),
        ),
        (
            "pages",
            ResponseTemplate::new(200)
                .set_body_raw(current("CURRENT", raw, "[1]", 1), "application/json"),
        ),
    ];
    for (how, answer) in cases {
        let server = serve(answer).await;
        let client = client_for(&server.uri());
        traces::start();
        let error = match how {
            "too large" => {
                let small = build(
                    Client::builder()
                        .api_key(raw)
                        .base_url(server.uri())
                        .retry_policy(RetryPolicy::none())
                        .max_response_bytes(1024),
                );
                small
                    .environment_metrics("m", "e")
                    .current()
                    .send()
                    .await
                    .err()
            }
            "current" => client
                .environment_metrics("m", "e")
                .current()
                .send()
                .await
                .err(),
            "series" => client
                .environment_metrics("m", "e")
                .series(window)
                .send()
                .await
                .err(),
            "timeout" => {
                let hasty = client.with_timeout(Duration::from_millis(50));
                hasty
                    .environment_metrics("m", "e")
                    .current()
                    .send()
                    .await
                    .err()
            }
            _ => {
                // The page's metric name read as its cursor: the second page repeats it.
                let fetcher = client.clone();
                let stream = pages(
                    move |_cursor| {
                        let request = fetcher.environment_metrics("m", "e");
                        async move {
                            request
                                .current()
                                .send()
                                .await
                                .map(|result| result.into_response())
                        }
                    },
                    |page| PageInfo {
                        cursor: page.metric_descriptors.first().map(|d| d.name.clone()),
                        has_more: true,
                    },
                );
                let mut stream = std::pin::pin!(stream);
                let mut found = None;
                for _ in 0..3 {
                    match stream.next().await {
                        Some(Err(error)) => {
                            found = Some(error);
                            break;
                        }
                        Some(Ok(_)) => {}
                        None => break,
                    }
                }
                found
            }
        };
        let traced = traces::take();
        let error = error.unwrap_or_else(|| panic!("{how}: no error"));
        errors.push((error, traced));
    }

    // A body cut short, and a request refused before sending.
    let cut = format!("HTTP/1.1 200 OK\r\ncontent-length: 100000\r\n\r\n{{\"mode\": \"{all}");
    let client = client_for(&serve_cut_short(cut));
    traces::start();
    let error = call(&client).await.expect_err("cut short");
    errors.push((error, traces::take()));
    traces::start();
    let error = client
        .environment_metrics("..", "e")
        .current()
        .send()
        .await
        .expect_err("..");
    errors.push((error, traces::take()));

    let mut seen: Vec<String> = Vec::new();
    for (error, traced) in &errors {
        assert_error_free_of(&key, error);
        assert_free_of(&key, traced);
        seen.push(variant_path(&format!("{error:?}")));
    }
    // The requests that reached a server were traced, with the error they ended in.
    assert!(
        errors[1].1.contains("request failed") && errors[1].1.contains("HTTP 403"),
        "{}",
        errors[1].1
    );

    // The two alignment errors only a response built in code can have.
    use baseten_api::metrics::{self, AlignmentError};
    let mut built: baseten_api::models::GetModelMetricsResponseV1 =
        metrics::decode(current("SUMMARY", raw, "[1]", 2).as_bytes()).unwrap();
    let two_summaries = metrics::validate(&built)
        .map(|_| ())
        .expect_err("two value sets");
    built.metric_values.truncate(1);
    built.metric_values[0].values[0][0] = Some(f64::NAN);
    let not_finite = metrics::validate(&built).map(|_| ()).expect_err("NaN");
    for error in [&two_summaries, &not_finite] {
        assert_free_of(&key, &format!("{error} {error:?}"));
        seen.push(format!(
            "InvalidResponse/InvalidResponse/Misaligned/{}",
            variant_path(&format!("{error:?}"))
        ));
    }
    assert!(matches!(
        two_summaries,
        AlignmentError::SummaryValueSetCount { count: 2 }
    ));
    assert!(matches!(not_finite, AlignmentError::NonFiniteValue { .. }));

    seen.sort();
    seen.dedup();
    assert_eq!(
        seen,
        [
            "Api",
            "Decode",
            "InvalidRequest",
            // The generic Error::InvalidResponse, holding the metrics layer's ResponseError.
            "InvalidResponse/InvalidResponse/Misaligned/DescriptorCountMismatch",
            "InvalidResponse/InvalidResponse/Misaligned/LabelSetCountMismatch",
            "InvalidResponse/InvalidResponse/Misaligned/NonFiniteValue",
            "InvalidResponse/InvalidResponse/Misaligned/StartNotIncreasing",
            "InvalidResponse/InvalidResponse/Misaligned/StepAfterWindowEnd",
            "InvalidResponse/InvalidResponse/Misaligned/SummaryValueSetCount",
            "InvalidResponse/InvalidResponse/ModeMismatch",
            "InvalidResponse/InvalidResponse/StepSeconds",
            "InvalidResponse/InvalidResponse/ValueSetCount",
            "PaginationStalled",
            "RateLimited",
            "ResponseTooLarge",
            "Timeout",
            "Transport",
        ]
    );
}

/// Whatever scheme carries the key (`Authorization` with any word, basic, a header or cookie of
/// the document's naming), a server echoing the key, the header value as sent, or a basic
/// password alone, in any encoded form, in an error body or a request id, gets none of it into
/// the error; and the key went out only in the scheme's header.
#[tokio::test]
async fn a_key_echoed_under_any_scheme_is_scrubbed() {
    use base64::Engine as _;
    use baseten_api::client::AuthScheme;

    let password = random_key();
    let key = format!("someone:{password}");
    let basic = base64::engine::general_purpose::STANDARD.encode(&key);
    let schemes = [
        (AuthScheme::Bearer, "authorization", format!("Bearer {key}")),
        (AuthScheme::Basic, "authorization", format!("Basic {basic}")),
        (
            AuthScheme::Scheme("Token"),
            "authorization",
            format!("Token {key}"),
        ),
        (AuthScheme::Header("X-Api-Key"), "x-api-key", key.clone()),
        (AuthScheme::Cookie("sid"), "cookie", format!("sid={key}")),
    ];
    for (scheme, header_name, sent) in schemes {
        let mut echoes = echoed_forms(&key);
        echoes.extend(echoed_forms(&password));
        echoes.push(sent.clone());
        for echo in echoes {
            let body =
                format!(r#"{{"code": "DENIED", "message": "got {echo}", "detail": "{echo}"}}"#);
            let server = serve(
                ResponseTemplate::new(403)
                    .insert_header("x-request-id", echo.as_str())
                    .set_body_raw(body, "application/json"),
            )
            .await;
            let client = build(
                Client::builder()
                    .api_key(key.as_str())
                    .auth_scheme(scheme)
                    .base_url(server.uri())
                    .retry_policy(RetryPolicy::none()),
            );
            let error = call(&client).await.expect_err("403");
            assert_error_free_of(&password, &error);
            assert_free_of(&password, &format!("{client:?}"));
            let requests = server.received_requests().await.unwrap_or_default();
            let request = &requests[0];
            let carried: Vec<String> = request
                .headers
                .iter()
                .filter(|(_, value)| {
                    value
                        .to_str()
                        .is_ok_and(|v| v.contains(&basic) || v.contains(&password))
                })
                .map(|(name, _)| name.as_str().to_owned())
                .collect();
            assert_eq!(carried, [header_name], "{scheme:?}");
            assert_eq!(
                request
                    .headers
                    .get(header_name)
                    .and_then(|v| v.to_str().ok()),
                Some(sent.as_str())
            );
            assert!(!request.url.as_str().contains(&password), "{scheme:?}");
        }
    }
}
