//! Issue 29's cases, each as a hostile server or a user met it on the old main: two live keys one
//! the prefix of the other, a key sent as a query value, encoded forms the old list lacked, a
//! redirect to another origin, and a `Retry-After` of epoch seconds that silenced a monitor.

use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE_NO_PAD};
use baseten_runtime::param_style::{ParamLocation, Params, Style};
use baseten_runtime::server_text::{REDACTED, RegisteredSecret};
use baseten_runtime::{
    ClientBuilder, Error, Method, Request, RetryPolicy, RuntimeClient, ServerText,
};
use wiremock::matchers::{any, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::http_hostile::traces;

/// A key no other test registers, shaped like a real one.
const KEY: &str = "trust29.Rk7fQ2mZx9Lp4Vb8Nc3Hd6Js1";

/// Every run of 12 characters of `key`, and the key itself.
fn runs(key: &str) -> Vec<&str> {
    let mut runs: Vec<&str> = (0..=key.len() - 12).map(|at| &key[at..at + 12]).collect();
    runs.push(key);
    runs
}

/// Asserts `shown` holds no run of 12 characters of `key`.
fn assert_no_run(what: &str, key: &str, shown: &str) {
    for run in runs(key) {
        assert!(!shown.contains(run), "{what}: {run} in {shown}");
    }
}

fn client(base_url: &str, key: &str) -> RuntimeClient {
    ClientBuilder::<RuntimeClient>::new(base_url)
        .api_key(key)
        .default_header("x-api-key", key)
        .retry_policy(
            RetryPolicy::default()
                .with_initial_backoff(Duration::from_millis(1))
                .with_max_backoff(Duration::from_millis(5)),
        )
        .build()
        .unwrap_or_else(|error| panic!("client: {error}"))
}

fn get(path: &str, query: Vec<(&'static str, String)>) -> Request {
    let mut params = Params::new();
    for (key, value) in &query {
        params
            .add(ParamLocation::Query, key, Style::Form, true, value)
            .unwrap_or_else(|error| panic!("query {key}: {error}"));
    }
    Request {
        operation: "trust_test",
        method: Method::GET,
        path_template: "/v1/trust/{case}",
        path: path.to_owned(),
        params,
        body: None,
        security: Default::default(),
    }
}

// ---------------------------------------------------------------------------------------------
// The scrubber
// ---------------------------------------------------------------------------------------------

/// Two clients in one process, one key the prefix of the other: neither leaves a tail, in
/// whichever order they were registered.
#[test]
fn two_live_keys_one_a_prefix_of_the_other_are_both_scrubbed_whole() {
    let short = "prefix29-Key-0123456789";
    let long = "prefix29-Key-0123456789EXTRA-tail-Qz81mW";
    for order in [[short, long], [long, short]] {
        let _first = RegisteredSecret::new(order[0]);
        let _second = RegisteredSecret::new(order[1]);
        assert_eq!(ServerText::new(format!("echo: {long}")), "echo: <redacted>");
        assert_eq!(
            ServerText::new(format!("echo: {short}")),
            "echo: <redacted>"
        );
        assert_eq!(
            ServerText::new(format!("{long} and {short}")),
            "<redacted> and <redacted>"
        );
    }
}

/// base64 (standard, URL-safe, padded or not, at each byte alignment) of the key and of
/// `Bearer KEY`, hex in both cases, JSON-escaped then percent-encoded, and a 20-character
/// prefix: each leaves at most the few characters that mix in other bytes.
#[test]
fn encoded_forms_outside_the_old_list_are_scrubbed() {
    let key = "trust29.EncodedForms-Xq4Lm8Pz2Wc7";
    let _registered = RegisteredSecret::new(key);
    let mut forms = Vec::new();
    for engine in [&STANDARD, &STANDARD_NO_PAD, &URL_SAFE_NO_PAD] {
        for before in ["", "a", "ab"] {
            for payload in [key.to_owned(), format!("Bearer {key}")] {
                forms.push(engine.encode(format!("{before}{payload}")));
            }
        }
    }
    forms.push(key.bytes().map(|b| format!("{b:02x}")).collect());
    forms.push(key.bytes().map(|b| format!("{b:02X}")).collect());
    let json: String = key
        .chars()
        .map(|c| format!("\\u{:04x}", u32::from(c)))
        .collect();
    forms.push(json.bytes().map(|b| format!("%{b:02X}")).collect());
    forms.push(key[..20].to_owned());
    forms.push(key[7..27].to_owned());
    for form in forms {
        let shown = ServerText::new(format!("<{form}>")).into_string();
        assert!(shown.contains(REDACTED), "{form} -> {shown}");
        let left = shown.len() - REDACTED.len() - 2;
        assert!(left <= 6, "{form} -> {shown}");
        assert_no_run("form", key, &shown);
    }
}

// ---------------------------------------------------------------------------------------------
// A key in the query
// ---------------------------------------------------------------------------------------------

/// A document whose security scheme is `apiKey` `in: query` sends the key in the URL: a
/// transport error's `Display`, `Debug` and sources, the `retrying` events and the spans'
/// `url.full` show none of it, under the names such schemes use and under any other.
#[test]
fn a_key_sent_as_a_query_value_is_never_shown() {
    // A port nothing listens on: every attempt fails to connect, and is retried.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .unwrap_or_else(|error| panic!("{error}"));
    let base = format!("http://127.0.0.1:{port}");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    for name in ["api-key", "x-api-key", "auth", "q"] {
        let client = client(&base, KEY);
        traces::start();
        let query = vec![(name, KEY.to_owned()), ("page", "2".to_owned())];
        let result: Result<serde_json::Value, Error> =
            runtime.block_on(client.execute(get("/v1/trust/query", query)));
        let traced = traces::take();
        let error = result.expect_err("nothing listens there");
        assert!(matches!(error, Error::Transport(_)), "{error:?}");
        let mut shown = format!("{error}\n{error:?}");
        let mut source = std::error::Error::source(&error);
        while let Some(cause) = source {
            shown.push_str(&format!("\n{cause}\n{cause:?}"));
            source = cause.source();
        }
        assert!(shown.contains("page=2"), "{shown}");
        assert_no_run(name, KEY, &shown);
        assert!(traced.contains("retrying"), "{traced}");
        assert!(traced.contains("url.full"), "{traced}");
        assert_no_run(name, KEY, &traced);
    }
}

// ---------------------------------------------------------------------------------------------
// Redirects
// ---------------------------------------------------------------------------------------------

/// A 302 from the API server to another port: the request fails naming the location, and the
/// other server receives nothing — neither `Authorization` nor the `x-api-key` default header.
#[tokio::test(flavor = "multi_thread")]
async fn a_redirect_to_another_origin_is_refused_and_nothing_is_sent_there() {
    let elsewhere = MockServer::start().await;
    let api = MockServer::start().await;
    let location = format!("{}/v1/collect?stolen=1", elsewhere.uri());
    Mock::given(any())
        .respond_with(ResponseTemplate::new(302).insert_header("location", location.as_str()))
        .mount(&api)
        .await;
    for status in [301, 302, 303, 307, 308] {
        api.reset().await;
        Mock::given(any())
            .respond_with(
                ResponseTemplate::new(status).insert_header("location", location.as_str()),
            )
            .mount(&api)
            .await;
        let client = client(&api.uri(), KEY);
        let result: Result<serde_json::Value, Error> =
            client.execute(get("/v1/trust/redirect", Vec::new())).await;
        let error = result.expect_err("a redirect elsewhere is refused");
        assert_eq!(error.status(), Some(status), "{error:?}");
        let shown = error.to_string();
        assert!(shown.contains("redirect"), "{shown}");
        assert!(shown.contains(&elsewhere.address().to_string()), "{shown}");
        assert!(shown.contains("/v1/collect"), "{shown}");
        assert!(!error.is_retryable());
        assert_no_run("redirect", KEY, &format!("{shown} {error:?}"));
    }
    let sent_there = elsewhere.received_requests().await.unwrap_or_default();
    assert!(sent_there.is_empty(), "{sent_there:?}");
}

/// A redirect within the origin is followed, credentials and all.
#[tokio::test(flavor = "multi_thread")]
async fn a_redirect_within_the_origin_is_followed() {
    let api = MockServer::start().await;
    Mock::given(path("/v1/trust/old"))
        .respond_with(ResponseTemplate::new(308).insert_header("location", "/v1/trust/new?page=2"))
        .mount(&api)
        .await;
    Mock::given(path("/v1/trust/new"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({"moved": true})))
        .mount(&api)
        .await;
    let client = client(&api.uri(), KEY);
    let answer: serde_json::Value = client
        .execute(get("/v1/trust/old", Vec::new()))
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(answer, serde_json::json!({"moved": true}));
    let requests = api.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 2);
    let second = &requests[1];
    assert_eq!(second.url.query(), Some("page=2"));
    assert_eq!(
        second.headers.get("x-api-key").map(|v| v.as_bytes()),
        Some(KEY.as_bytes())
    );
}

/// A reqwest client brought with `http_client`, left to follow redirects itself, reaches the
/// other origin before the client sees anything; the client still refuses the answer and
/// reports the redirect. (Its docs ask for `Policy::none()`, with which nothing goes there.)
#[tokio::test(flavor = "multi_thread")]
async fn a_brought_client_that_followed_a_redirect_elsewhere_gets_no_answer_from_there() {
    let elsewhere = MockServer::start().await;
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(200).set_body_json(serde_json::json!({"from": "elsewhere"})),
        )
        .mount(&elsewhere)
        .await;
    let api = MockServer::start().await;
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(302)
                .insert_header("location", format!("{}/v1/x", elsewhere.uri()).as_str()),
        )
        .mount(&api)
        .await;
    for (http, reached) in [
        (reqwest::Client::new(), 1),
        (
            reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap_or_else(|error| panic!("{error}")),
            0,
        ),
    ] {
        elsewhere.reset().await;
        Mock::given(any())
            .respond_with(
                ResponseTemplate::new(200).set_body_json(serde_json::json!({"from": "elsewhere"})),
            )
            .mount(&elsewhere)
            .await;
        let client = ClientBuilder::<RuntimeClient>::new(api.uri())
            .api_key(KEY)
            .http_client(http)
            .build()
            .unwrap_or_else(|error| panic!("{error}"));
        let result: Result<serde_json::Value, Error> =
            client.execute(get("/v1/trust/brought", Vec::new())).await;
        let error = result.expect_err("an answer from elsewhere is refused");
        assert!(error.to_string().contains("redirect"), "{error}");
        let requests = elsewhere.received_requests().await.unwrap_or_default();
        assert_eq!(requests.len(), reached);
        // reqwest itself strips `Authorization` on the way.
        assert!(
            requests
                .iter()
                .all(|r| !r.headers.contains_key("authorization"))
        );
    }
}

// ---------------------------------------------------------------------------------------------
// No wait a server can stretch without end
// ---------------------------------------------------------------------------------------------

/// One 429 with `Retry-After: 1733200000` (epoch seconds sent by mistake): that request fails
/// naming the wait, and the next one is sent — and succeeds, the server having recovered.
#[tokio::test(flavor = "multi_thread")]
async fn an_absurd_retry_after_fails_one_request_and_the_next_asks_again() {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(429).insert_header("retry-after", "1733200000"))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({"ok": true})))
        .with_priority(2)
        .mount(&server)
        .await;
    let client = client(&server.uri(), KEY);
    let first: Result<serde_json::Value, Error> =
        client.execute(get("/v1/trust/throttled", Vec::new())).await;
    match first {
        Err(Error::RateLimited {
            retry_after: Some(wait),
            attempts: 1,
            ..
        }) => {
            assert_eq!(wait, Duration::from_secs(1_733_200_000));
        }
        other => panic!("{other:?}"),
    }
    let second = tokio::time::timeout(
        Duration::from_secs(10),
        client.execute::<serde_json::Value>(get("/v1/trust/throttled", Vec::new())),
    )
    .await;
    let Ok(second) = second else {
        panic!("the second request waited");
    };
    let second = second.unwrap_or_else(|error| panic!("the second request was not sent: {error}"));
    assert_eq!(second, serde_json::json!({"ok": true}));
    let requests = server.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 2);
}
