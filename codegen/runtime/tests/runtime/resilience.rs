//! The client under trouble, against servers on 127.0.0.1: authentication headers, retries on
//! 429 / 5xx / timeouts with their waits and bounds, typed errors for bodies good and bad, and
//! many requests at once through one client. Backoffs are configured tiny so this stays fast.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use baseten_api::models::GetModelMetricsResponseV1;
use baseten_api::operations::GetModelEnvironmentMetricsQuery;
use baseten_api::runtime::{Method, Request};
use baseten_api::{Client, ClientBuilder, Error, client::AuthScheme, client::RetryPolicy};
use serde_json::json;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Shaped like a real key, so a leak into any message is easy to spot.
const API_KEY: &str = "abcdefgh.SuperSecretResilienceKey42";

fn ms(millis: u64) -> Duration {
    Duration::from_millis(millis)
}

/// Retries with millisecond backoffs, so bounded-attempt tests finish quickly.
fn fast_retries(attempts: u32) -> RetryPolicy {
    RetryPolicy::default()
        .with_max_attempts(attempts)
        .with_initial_backoff(ms(5))
        .with_max_backoff(ms(20))
}

fn builder(base_url: &str) -> ClientBuilder {
    Client::builder()
        .api_key(API_KEY)
        .base_url(base_url)
        .retry_policy(fast_retries(3))
}

fn build(builder: ClientBuilder) -> Client {
    builder
        .build()
        .unwrap_or_else(|error| panic!("client: {error}"))
}

fn fixture() -> String {
    let path = crate::tests_dir().join("fixtures/responses/current.json");
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn ok_response() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(fixture(), "application/json")
}

/// A server that answers the first `times` requests with `first` and every later one with
/// `then`.
async fn server_with(first: ResponseTemplate, times: u64, then: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(first)
        .up_to_n_times(times)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(any())
        .respond_with(then)
        .with_priority(2)
        .mount(&server)
        .await;
    server
}

/// A server that answers every request with `response`.
async fn server_always(response: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(response)
        .mount(&server)
        .await;
    server
}

async fn received(server: &MockServer) -> Vec<wiremock::Request> {
    server
        .received_requests()
        .await
        .expect("wiremock records requests unless told not to")
}

/// The one GET every test sends: `/v1/models/m1/environments/production/metrics?mode=CURRENT`.
async fn get_metrics(client: &Client) -> Result<GetModelMetricsResponseV1, Error> {
    let query = GetModelEnvironmentMetricsQuery::default().mode("CURRENT");
    client
        .get_model_environment_metrics("m1", "production", &query)
        .await
}

/// Sends `get_metrics` and returns its result, the time it took and how many requests the
/// server saw.
async fn timed_get(
    client: &Client,
    server: &MockServer,
) -> (Result<GetModelMetricsResponseV1, Error>, Duration, usize) {
    let started = Instant::now();
    let result = get_metrics(client).await;
    let elapsed = started.elapsed();
    (result, elapsed, received(server).await.len())
}

/// Error messages end up in logs: each must be one line and never carry the key.
fn assert_loggable(error: &Error) {
    let shown = error.to_string();
    assert!(!shown.contains(['\n', '\r']), "not one line: {shown:?}");
    for text in [shown, format!("{error:?}"), format!("{error:#?}")] {
        assert!(
            !text.contains(API_KEY) && !text.contains("SuperSecret"),
            "key leaked: {text}"
        );
    }
}

fn expect_error<T: std::fmt::Debug>(result: Result<T, Error>) -> Error {
    let error = result.expect_err("expected an error");
    assert_loggable(&error);
    error
}

#[tokio::test]
async fn sends_key_in_either_scheme_and_user_agent() {
    for (scheme, expected) in [
        (None, format!("Bearer {API_KEY}")),
        (Some(AuthScheme::Bearer), format!("Bearer {API_KEY}")),
        (Some(AuthScheme::ApiKey), format!("Api-Key {API_KEY}")),
    ] {
        let server = server_always(ok_response()).await;
        let mut client = builder(&server.uri());
        if let Some(scheme) = scheme {
            client = client.auth_scheme(scheme);
        }
        let result = get_metrics(&build(client)).await;
        assert!(result.is_ok(), "{scheme:?}: {result:?}");
        let requests = received(&server).await;
        let [request] = requests.as_slice() else {
            panic!("{scheme:?}: {} requests", requests.len());
        };
        assert_eq!(request.method.as_str(), "GET");
        assert_eq!(
            request.url.path(),
            "/v1/models/m1/environments/production/metrics"
        );
        assert_eq!(request.url.query(), Some("mode=CURRENT"));
        let header = |name: &str| {
            request
                .headers
                .get(name)
                .and_then(|value| value.to_str().ok())
        };
        assert_eq!(
            header("authorization"),
            Some(expected.as_str()),
            "{scheme:?}"
        );
        assert_eq!(header("accept"), Some("application/json"));
        let agent = header("user-agent").unwrap_or_default();
        let version = agent.strip_prefix("baseten-api-rust/");
        let is_version =
            |v: &str| v.split('.').count() == 3 && v.split('.').all(|n| n.parse::<u32>().is_ok());
        assert!(version.is_some_and(is_version), "user-agent {agent:?}");
        // A GET carries no body, so no content type.
        assert_eq!(header("content-type"), None);
        assert!(request.body.is_empty());
    }

    // Without a key nothing is sent in its place.
    let server = server_always(ok_response()).await;
    let client = Client::builder().base_url(server.uri()).build();
    let result = get_metrics(&client.unwrap_or_else(|error| panic!("{error}"))).await;
    assert!(result.is_ok(), "{result:?}");
    let requests = received(&server).await;
    assert!(requests[0].headers.get("authorization").is_none());
}

#[tokio::test]
async fn rate_limit_waits_for_body_retry_after() {
    let limited = ResponseTemplate::new(429)
        .set_body_json(json!({"error": "Too many requests", "retry_after": 0.3}));
    let server = server_with(limited, 1, ok_response()).await;
    // The backoff is milliseconds, so a wait of 300 ms can only come from the body.
    let client = build(builder(&server.uri()));
    let (result, elapsed, seen) = timed_get(&client, &server).await;
    assert!(result.is_ok(), "{result:?}");
    assert_eq!(seen, 2);
    assert!(elapsed >= ms(300), "retried after {elapsed:?}");
    assert!(elapsed < ms(2000), "retried after {elapsed:?}");
}

#[tokio::test]
async fn rate_limit_waits_for_retry_after_header() {
    let limited = ResponseTemplate::new(429)
        .insert_header("Retry-After", "1")
        .set_body_raw("slow down", "text/plain");
    let server = server_with(limited, 1, ok_response()).await;
    let client = build(builder(&server.uri()));
    let (result, elapsed, seen) = timed_get(&client, &server).await;
    assert!(result.is_ok(), "{result:?}");
    assert_eq!(seen, 2);
    assert!(elapsed >= ms(1000), "retried after {elapsed:?}");
    assert!(elapsed < ms(3000), "retried after {elapsed:?}");
}

#[tokio::test]
async fn rate_limit_without_hint_backs_off_and_gives_up() {
    let body = r#"{"error": "Too many requests"}"#;
    let server =
        server_always(ResponseTemplate::new(429).set_body_raw(body, "application/json")).await;
    let client = build(builder(&server.uri()));
    let (result, elapsed, seen) = timed_get(&client, &server).await;
    assert_eq!(seen, 3);
    // Refused twice with nothing admitted, the endpoint's adaptive rate is at its floor of
    // 0.5 requests/s: the third attempt waits up to 2 s for its turn.
    assert!(elapsed < ms(4000), "{elapsed:?}");
    let error = expect_error(result);
    assert_eq!(error.status(), Some(429));
    assert!(error.is_retryable());
    assert_eq!(
        error.to_string(),
        "rate limited (HTTP 429) after 3 attempts"
    );
    match error {
        Error::RateLimited {
            retry_after: None,
            attempts: 3,
            body: got,
        } => assert_eq!(got, body),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn rate_limit_longer_than_the_cap_is_reported_not_waited() {
    let limited = ResponseTemplate::new(429)
        .set_body_json(json!({"error": "Too many requests", "retry_after": 120}));
    let server = server_always(limited).await;
    let client = build(builder(&server.uri()));
    let (result, elapsed, seen) = timed_get(&client, &server).await;
    assert_eq!(seen, 1);
    assert!(elapsed < ms(2000), "{elapsed:?}");
    let error = expect_error(result);
    assert_eq!(
        error.to_string(),
        "rate limited (HTTP 429) after 1 attempt; server asked to retry after 120s"
    );
    assert!(
        matches!(
            &error,
            Error::RateLimited { retry_after: Some(wait), attempts: 1, .. }
                if *wait == Duration::from_secs(120)
        ),
        "{error:?}"
    );

    // A lower cap applies to the header too.
    let limited = ResponseTemplate::new(429).insert_header("Retry-After", "2");
    let server = server_always(limited).await;
    let policy = fast_retries(3).with_max_retry_after(Duration::from_secs(1));
    let client = build(builder(&server.uri()).retry_policy(policy));
    let (result, _, seen) = timed_get(&client, &server).await;
    assert_eq!(seen, 1);
    let error = expect_error(result);
    assert!(
        matches!(
            &error,
            Error::RateLimited { retry_after: Some(wait), attempts: 1, .. }
                if *wait == Duration::from_secs(2)
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn endless_server_errors_stop_after_max_attempts() {
    let server = server_always(ResponseTemplate::new(500).set_body_raw("oops", "text/plain")).await;
    let client = build(builder(&server.uri()).retry_policy(fast_retries(5)));
    let (result, elapsed, seen) = timed_get(&client, &server).await;
    assert_eq!(seen, 5);
    // Four waits of at most 20 ms each.
    assert!(elapsed < ms(1500), "{elapsed:?}");
    let error = expect_error(result);
    assert!(error.is_retryable());
    assert_eq!(error.to_string(), "HTTP 500: oops");

    // With retries off, one request.
    let server = server_always(ResponseTemplate::new(500).set_body_raw("oops", "text/plain")).await;
    let client = build(builder(&server.uri()).retry_policy(RetryPolicy::none()));
    let (result, _, seen) = timed_get(&client, &server).await;
    assert_eq!(seen, 1);
    assert!(matches!(
        expect_error(result),
        Error::Api { status: 500, .. }
    ));
}

#[tokio::test]
async fn server_error_then_success_is_success() {
    let server = server_with(ResponseTemplate::new(503), 2, ok_response()).await;
    let client = build(builder(&server.uri()));
    let (result, _, seen) = timed_get(&client, &server).await;
    assert!(result.is_ok(), "{result:?}");
    assert_eq!(seen, 3);
}

#[tokio::test]
async fn permission_denied_is_typed_and_not_retried() {
    let body = r#"{"code": "PERMISSION_DENIED", "message": "You do not have access to model m1"}"#;
    let server =
        server_always(ResponseTemplate::new(403).set_body_raw(body, "application/json")).await;
    let client = build(builder(&server.uri()));
    let (result, _, seen) = timed_get(&client, &server).await;
    assert_eq!(seen, 1);
    let error = expect_error(result);
    assert!(!error.is_retryable());
    assert_eq!(
        error.to_string(),
        "HTTP 403 PERMISSION_DENIED: You do not have access to model m1"
    );
    match error {
        Error::Api {
            status: 403,
            code,
            message,
            detail: None,
            request_id: None,
            body: got,
        } => {
            assert_eq!(code.as_deref(), Some("PERMISSION_DENIED"));
            assert_eq!(
                message.as_deref(),
                Some("You do not have access to model m1")
            );
            assert_eq!(got, body);
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn detail_body_is_typed() {
    let body = r#"{"detail": "Invalid API key"}"#;
    let server =
        server_always(ResponseTemplate::new(403).set_body_raw(body, "application/json")).await;
    let client = build(builder(&server.uri()));
    let (result, _, seen) = timed_get(&client, &server).await;
    assert_eq!(seen, 1);
    let error = expect_error(result);
    assert_eq!(error.to_string(), "HTTP 403: Invalid API key");
    match error {
        Error::Api {
            status: 403,
            code: None,
            message: None,
            detail,
            request_id: None,
            body: got,
        } => {
            assert_eq!(detail.as_deref(), Some("Invalid API key"));
            assert_eq!(got, body);
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn bad_gateway_html_is_retried_and_kept_raw() {
    let html = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n\
                <body><center><h1>502 Bad Gateway</h1></center></body>\r\n</html>\r\n";
    let server = server_always(ResponseTemplate::new(502).set_body_raw(html, "text/html")).await;
    let client = build(builder(&server.uri()));
    let (result, _, seen) = timed_get(&client, &server).await;
    assert_eq!(seen, 3);
    let error = expect_error(result);
    assert!(
        error.to_string().starts_with("HTTP 502: <html> <head>"),
        "{error}"
    );
    match error {
        Error::Api {
            status: 502,
            code: None,
            message: None,
            detail: None,
            request_id: None,
            body,
        } => assert_eq!(body, html),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn silent_server_times_out() {
    let slow = ok_response().set_delay(Duration::from_secs(10));
    let server = server_always(slow).await;
    let client = builder(&server.uri())
        .timeout(ms(200))
        .retry_policy(fast_retries(2));
    let (result, elapsed, seen) = timed_get(&build(client), &server).await;
    assert_eq!(seen, 2);
    assert!(elapsed >= ms(400), "{elapsed:?}");
    assert!(elapsed < ms(2500), "{elapsed:?}");
    let error = expect_error(result);
    assert!(error.is_retryable());
    assert_eq!(error.to_string(), "request timed out after 2 attempts");
    assert!(matches!(error, Error::Timeout { attempts: 2 }), "{error:?}");
}

/// A raw HTTP/1.1 server on a std thread that answers each of up to `connections` connections
/// with `response` and then closes it; it stops by itself after a few seconds. Returns the
/// base URL and, on join, how many connections it answered.
fn raw_server(response: &'static [u8], connections: usize) -> (String, JoinHandle<usize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|error| panic!("{error}"));
    let address = listener
        .local_addr()
        .unwrap_or_else(|error| panic!("{error}"));
    listener
        .set_nonblocking(true)
        .unwrap_or_else(|error| panic!("{error}"));
    let handle = std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut served = 0;
        while served < connections && Instant::now() < deadline {
            let Ok((stream, _)) = listener.accept() else {
                std::thread::sleep(ms(2));
                continue;
            };
            served += 1;
            let _ = stream.set_nonblocking(false);
            let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
            let mut reader = BufReader::new(stream);
            // A GET has no body: the head ends at the empty line.
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
            }
            let mut stream = reader.into_inner();
            let _ = stream.write_all(response);
            let _ = stream.flush();
            // Dropping the stream closes the connection.
        }
        served
    });
    (format!("http://{address}"), handle)
}

#[tokio::test]
async fn truncated_body_is_an_error_not_a_panic() {
    // Promises 500 bytes, sends a few, closes.
    let (base, server) = raw_server(
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n\
          {\"mode\": \"CURRENT\", \"start_epoch",
        3,
    );
    let client = build(builder(&base));
    let error = expect_error(get_metrics(&client).await);
    assert!(
        matches!(error, Error::Transport(_) | Error::Decode { .. }),
        "{error:?}"
    );
    // A body cut short may go better next time, so a GET is retried.
    assert!(error.is_retryable(), "{error:?}");
    let served = tokio::task::spawn_blocking(move || server.join().unwrap_or(0)).await;
    assert_eq!(served.ok(), Some(3));
}

#[tokio::test]
async fn non_finite_number_is_decode_error() {
    for body in ["NaN", r#"{"mode": "CURRENT", "start_epoch_millis": NaN}"#] {
        let response = ResponseTemplate::new(200).set_body_raw(body, "application/json");
        let server = server_always(response).await;
        let client = build(builder(&server.uri()));
        let (result, _, seen) = timed_get(&client, &server).await;
        // A body that does not decode will not decode next time either.
        assert_eq!(seen, 1, "{body}");
        let error = expect_error(result);
        assert!(!error.is_retryable());
        match error {
            Error::Decode { body_excerpt, .. } => assert_eq!(body_excerpt, body),
            other => panic!("{body}: {other:?}"),
        }
    }
}

/// A `POST` or `PATCH` that may have been processed (a 503 naming no wait) gets one attempt; one
/// the server refused for now (a 429) is resent and its last wait reported. The whole table is
/// `retry_table.rs`'s.
#[tokio::test]
async fn non_idempotent_requests_are_resent_only_when_not_processed() {
    for (status, body, sent) in [
        (429, r#"{"error": "slow down", "retry_after": 0.01}"#, 3),
        (503, "", 1),
    ] {
        for method in [Method::POST, Method::PATCH] {
            let response = ResponseTemplate::new(status).set_body_raw(body, "application/json");
            let server = server_always(response).await;
            let client = build(builder(&server.uri()));
            let request = Request {
                operation: "create_thing",
                method: method.clone(),
                path_template: "/v1/things",
                path: "/v1/things".to_owned(),
                params: baseten_api::runtime::param_style::Params::new(),
                body: Some(baseten_api::runtime::Body {
                    content_type: "application/json".into(),
                    bytes: br#"{"name":"x"}"#.to_vec(),
                }),
                security: Default::default(),
            };
            let error = expect_error(client.runtime().execute::<serde_json::Value>(request).await);
            assert_eq!(error.status(), Some(status), "{method}");
            assert_eq!(received(&server).await.len(), sent, "{method} {status}");
            if status == 429 {
                assert!(
                    matches!(
                        &error,
                        Error::RateLimited { attempts: 3, retry_after: Some(wait), .. }
                            if *wait == ms(10)
                    ),
                    "{error:?}"
                );
            }
        }
    }

    // The same 503 on a PUT is retried, body and all.
    let server = server_with(ResponseTemplate::new(503), 1, ResponseTemplate::new(204)).await;
    let client = build(builder(&server.uri()));
    let request = Request {
        operation: "replace_thing",
        method: Method::PUT,
        path_template: "/v1/things/{id}",
        path: "/v1/things/t1".to_owned(),
        params: baseten_api::runtime::param_style::Params::new(),
        body: Some(baseten_api::runtime::Body {
            content_type: "application/json".into(),
            bytes: br#"{"name":"x"}"#.to_vec(),
        }),
        security: Default::default(),
    };
    let result = client.runtime().execute::<()>(request).await;
    assert!(result.is_ok(), "{result:?}");
    let requests = received(&server).await;
    assert_eq!(requests.len(), 2);
    assert!(requests.iter().all(|r| r.body == br#"{"name":"x"}"#));
}

#[tokio::test]
async fn refused_connection_is_transport_error() {
    // A port that was just free: connecting to it is refused.
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|error| panic!("{error}"));
        listener
            .local_addr()
            .unwrap_or_else(|error| panic!("{error}"))
            .port()
    };
    let client = build(builder(&format!("http://127.0.0.1:{port}")));
    let started = Instant::now();
    let error = expect_error(get_metrics(&client).await);
    assert!(started.elapsed() < ms(2000));
    assert!(matches!(error, Error::Transport(_)), "{error:?}");
    assert!(error.is_retryable());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousand_concurrent_requests_through_one_client() {
    const REQUESTS: usize = 1000;
    let server = server_always(ok_response()).await;
    let client = build(builder(&server.uri()));
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..REQUESTS {
        let client = client.clone();
        tasks.spawn(async move { get_metrics(&client).await.map(|r| r.mode) });
    }
    let mut ok = 0;
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(error)) => panic!("request failed: {error}"),
            Err(error) => panic!("task failed: {error}"),
        }
    }
    assert_eq!(ok, REQUESTS);
    assert_eq!(received(&server).await.len(), REQUESTS);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}
