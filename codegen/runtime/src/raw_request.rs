//! A request the generator did not emit (`Client::request(method, path)`), sent through the same
//! attempt loop as every generated operation: authentication, retries, the shared throttle,
//! telemetry, the response cap and the redaction of server text.

use std::borrow::Cow;
use std::fmt;

use reqwest::header::HeaderMap;
use reqwest::{Method, StatusCode};

use crate::client::RuntimeClient;
use crate::error::Error;
use crate::param_style::{ParamLocation, Params, Style};
use crate::percent;
use crate::server_text::ServerText;
use crate::support::{Body, Request, encode_path_segment};

/// The endpoint name (for the throttle, `url.template` and `otel.name`) of a request whose path
/// was built at run time: such paths share one endpoint, so a 429 on one holds back the others
/// (cautious, never the reverse).
const RUNTIME_PATH_ENDPOINT: &str = "{request}";

/// The `operation` field of a hand-built request's span and of its errors.
const OPERATION: &str = "request";

/// Headers the client sets itself: the key, the body's and the wanted media types, the host.
const RESERVED_HEADERS: &[&str] = &[
    "authorization",
    "proxy-authorization",
    "host",
    "content-type",
    "accept",
    "content-length",
];

/// A request to any path of the API, for operations the crate does not generate: made by a
/// generated crate's `Client::request(method, path)`, finished by [`send`](Self::send) (a JSON
/// body decoded into your type) or [`send_raw`](Self::send_raw) (status, headers and bytes).
///
/// It goes through everything a generated call does: the client's key (never a key of your own:
/// an `Authorization` header is refused), retries as the
/// [`RetryPolicy`](crate::RetryPolicy) allows, the shared per-endpoint throttle and retry budget,
/// the `tracing` spans, the response cap, and errors whose server text is scrubbed.
///
/// The path is relative to the client's base URL and starts with `/`. A path written as a
/// literal may hold `{name}` placeholders, filled by [`path_param`](Self::path_param) and
/// percent-encoded like a generated operation's; the literal is then the endpoint's template in
/// traces and for the throttle (Baseten counts rate limits per template). A path built at run
/// time (a `String`) is sent as it is (it must already be percent-encoded) and all such paths
/// share one endpoint, `{request}`.
///
/// A path with a query (`?`), a fragment (`#`), a backslash or bytes other than visible ASCII
/// is refused, as is an unfilled placeholder: every such error is an
/// [`Error::InvalidRequest`] before anything is sent.
#[must_use = "a request does nothing until `send` or `send_raw` is awaited"]
pub struct RawRequest {
    client: RuntimeClient,
    method: Method,
    path: Cow<'static, str>,
    path_params: Vec<(&'static str, String)>,
    query: Vec<(String, String)>,
    headers: Vec<(&'static str, String)>,
    body: Option<Result<Body, Error>>,
    accept: &'static str,
}

impl fmt::Debug for RawRequest {
    // Values are left out: a header or query value may be a credential.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RawRequest")
            .field("method", &self.method)
            .field("path", &self.path)
            .field(
                "query",
                &self.query.iter().map(|(key, _)| key).collect::<Vec<_>>(),
            )
            .field(
                "headers",
                &self
                    .headers
                    .iter()
                    .map(|(name, _)| name)
                    .collect::<Vec<_>>(),
            )
            .field("accept", &self.accept)
            .finish_non_exhaustive()
    }
}

impl RawRequest {
    /// A request of `method` to `path` through `client`; a generated `Client::request` calls
    /// this.
    #[doc(hidden)]
    pub fn new(client: RuntimeClient, method: Method, path: impl Into<Cow<'static, str>>) -> Self {
        Self {
            client,
            method,
            path: path.into(),
            path_params: Vec::new(),
            query: Vec::new(),
            headers: Vec::new(),
            body: None,
            accept: "application/json",
        }
    }

    /// Fills the path's `{name}` placeholder with `value`, percent-encoded as one segment (so
    /// `/`, `?` and `#` in it cannot change the path; an empty, `.` or `..` value is refused).
    pub fn path_param(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.path_params.push((name, value.into()));
        self
    }

    /// Adds a query pair (form-encoded when sent); a key may repeat.
    pub fn query(mut self, key: impl Into<String>, value: impl ToString) -> Self {
        self.query.push((key.into(), value.to_string()));
        self
    }

    /// Adds a header. The client's own (`Authorization`, `Accept`, `Content-Type`, `Host`,
    /// `Content-Length`) are refused: use [`accept`](Self::accept) and the body's media type. A
    /// value must be visible ASCII, spaces and tabs; it is marked sensitive, so never logged.
    pub fn header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    /// The `Accept` header (`application/json` unless set).
    pub fn accept(mut self, media_type: &'static str) -> Self {
        self.accept = media_type;
        self
    }

    /// `value` as the JSON body (`Content-Type: application/json`).
    pub fn json<T: serde_core::Serialize + ?Sized>(mut self, value: &T) -> Self {
        self.body = Some(Body::json("application/json", value));
        self
    }

    /// `bytes` as the body, sent with `content_type`.
    pub fn body(mut self, content_type: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        self.body = Some(Ok(Body {
            content_type: Cow::Owned(content_type.into()),
            bytes: bytes.into(),
        }));
        self
    }

    /// Sends the request and decodes a 2xx JSON body into `T` (an empty body reads as `null`,
    /// so `()` or an `Option` suits `204 No Content`; `serde_json::Value` takes anything).
    ///
    /// # Errors
    ///
    /// As every generated call: [`Error::Api`] for a non-2xx status, [`Error::RateLimited`],
    /// [`Error::Timeout`], [`Error::Transport`], [`Error::ResponseTooLarge`], [`Error::Decode`]
    /// for a body that is not a `T`, and [`Error::InvalidRequest`] for a request that cannot be
    /// sent (see the type's documentation).
    pub async fn send<T: serde_core::de::DeserializeOwned>(self) -> Result<T, Error> {
        let client = self.client.clone();
        let accept = self.accept;
        let request = self.into_request()?;
        // Decoded inside the attempt, so that its span and instruments see a decode failure.
        client
            .execute_decoded(request, accept, |success| {
                crate::client::decode(&success.body)
            })
            .await
    }

    /// Sends the request and returns the 2xx response as it came: status, headers and bytes.
    ///
    /// # Errors
    ///
    /// As [`send`](Self::send), without the decoding: a non-2xx status is still an error.
    pub async fn send_raw(self) -> Result<RawResponse, Error> {
        let client = self.client.clone();
        let accept = self.accept;
        let request = self.into_request()?;
        let success = client.execute_response(request, accept).await?;
        Ok(RawResponse {
            _client: client,
            status: success.status,
            headers: success.headers,
            body: success.body,
        })
    }

    /// The request as the attempt loop takes it, every part checked.
    fn into_request(self) -> Result<Request, Error> {
        let template = match &self.path {
            Cow::Borrowed(literal) => *literal,
            Cow::Owned(_) => RUNTIME_PATH_ENDPOINT,
        };
        let mut path = self.path.into_owned();
        for (name, value) in &self.path_params {
            let placeholder = format!("{{{name}}}");
            if !path.contains(&placeholder) {
                return Err(Error::InvalidRequest(format!(
                    "{OPERATION}: the path has no `{{{name}}}` placeholder"
                )));
            }
            path = path.replace(&placeholder, &encode_path_segment(name, value)?);
        }
        check_path(&path)?;
        // The one encoder of every parameter: a query pair as `form` (each key and value
        // percent-encoded), a header as given.
        let mut params = Params::new();
        for (key, value) in &self.query {
            params.add(ParamLocation::Query, key, Style::Form, true, value)?;
        }
        for (name, value) in &self.headers {
            if RESERVED_HEADERS
                .iter()
                .any(|reserved| name.eq_ignore_ascii_case(reserved))
            {
                return Err(Error::InvalidRequest(format!(
                    "{OPERATION}: the `{name}` header is the client's own"
                )));
            }
            params.add(ParamLocation::Header, name, Style::Simple, false, value)?;
        }
        Ok(Request {
            operation: OPERATION,
            method: self.method,
            path_template: template,
            path,
            params,
            body: self.body.transpose()?,
            security: crate::Security::ClientKey,
        })
    }
}

/// A path the URL keeps as it is, under the base URL: no placeholder left unfilled, then the
/// client's one path rule ([`percent::check_path`]: a leading `/`, visible ASCII without query,
/// fragment or backslash, no dot segment in any form).
fn check_path(path: &str) -> Result<(), Error> {
    if let Some(start) = path.find('{') {
        let name: String = path[start..]
            .chars()
            .skip(1)
            .take_while(|c| *c != '}')
            .take(64)
            .collect();
        return Err(Error::InvalidRequest(format!(
            "{OPERATION}: the path has a placeholder `{{{}}}` no `path_param` filled",
            name.escape_debug()
        )));
    }
    if path.contains('}') {
        return Err(Error::InvalidRequest(format!(
            "{OPERATION}: the path holds '}}': percent-encode it"
        )));
    }
    percent::check_path(OPERATION, path)
}

/// A 2xx response of a [`RawRequest`]: its status, headers and body as they came.
///
/// Its `Debug` shows the status, the header names and the body's length only: a server's
/// headers or body may echo a credential.
#[derive(Clone)]
pub struct RawResponse {
    /// Keeps the client's key registered for scrubbing while the response lives (see
    /// [`text`](Self::text)).
    _client: RuntimeClient,
    status: StatusCode,
    headers: HeaderMap,
    body: Vec<u8>,
}

impl fmt::Debug for RawResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RawResponse")
            .field("status", &self.status.as_u16())
            .field("headers", &self.headers.keys().collect::<Vec<_>>())
            .field("body_bytes", &self.body.len())
            .finish()
    }
}

impl RawResponse {
    /// The status code (always 2xx: any other is an error).
    #[must_use]
    pub fn status(&self) -> u16 {
        self.status.as_u16()
    }

    /// The response headers.
    #[must_use]
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// A header's value, if it is present and text.
    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name)?.to_str().ok()
    }

    /// The body's bytes.
    #[must_use]
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// The body's bytes, owned.
    #[must_use]
    pub fn into_body(self) -> Vec<u8> {
        self.body
    }

    /// The body as text from a server: the API key scrubbed, unprintable characters escaped,
    /// bytes that are not UTF-8 replaced.
    #[must_use]
    pub fn text(&self) -> ServerText {
        ServerText::from_utf8_lossy(&self.body)
    }

    /// The body decoded as JSON into `T` (an empty body reads as `null`).
    ///
    /// # Errors
    ///
    /// [`Error::Decode`], naming the JSON path, for a body that is not a `T`.
    pub fn json<T: serde_core::de::DeserializeOwned>(&self) -> Result<T, Error> {
        crate::client::decode(&self.body)
    }
}

#[cfg(all(test, feature = "mock"))]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::ClientBuilder;
    use crate::mock::{FakeServer, fast_retries};
    use crate::telemetry::{AttemptContext, Interceptor};

    const KEY: &str = "raw-request-secret-key-0123456789";

    /// Records the endpoint template of every attempt.
    #[derive(Default)]
    struct Templates(Mutex<Vec<(&'static str, &'static str)>>);

    impl Interceptor for Arc<Templates> {
        fn before_send(
            &self,
            _request: &mut reqwest::Request,
            context: &AttemptContext,
        ) -> Result<(), Error> {
            if let Ok(mut seen) = self.0.lock() {
                seen.push((context.operation, context.path_template));
            }
            Ok(())
        }
    }

    fn client(fake: &FakeServer, templates: &Arc<Templates>) -> RuntimeClient {
        ClientBuilder::<RuntimeClient>::new("https://unused.invalid")
            .api_key(KEY)
            .base_url(fake.uri())
            .retry_policy(fast_retries())
            .interceptor(Arc::clone(templates))
            .build()
            .unwrap_or_else(|error| panic!("client: {error}"))
    }

    fn header<'r>(request: &'r wiremock::Request, name: &str) -> Option<&'r str> {
        request.headers.get(name)?.to_str().ok()
    }

    #[tokio::test]
    async fn sends_through_the_client_and_decodes() {
        let fake = FakeServer::start().await;
        let templates = Arc::default();
        fake.on_method::<serde_json::Value>(&Method::POST, "/v1/things/a%2Fb%20c/items")
            .query("limit", "10")
            .query("tag", "x y")
            .json_body(serde_json::json!({"name": "n"}))
            .respond(&serde_json::json!({"id": 7}))
            .await;
        let answer: serde_json::Value = RawRequest::new(
            client(&fake, &templates),
            Method::POST,
            "/v1/things/{thing}/items",
        )
        .path_param("thing", "a/b c")
        .query("limit", 10)
        .query("tag", "x y")
        .header("x-team", "ops")
        .json(&serde_json::json!({"name": "n"}))
        .send()
        .await
        .unwrap_or_else(|error| panic!("send: {error}"));
        assert_eq!(answer, serde_json::json!({"id": 7}));
        let received = fake.received().await;
        assert_eq!(received.len(), 1);
        let request = &received[0];
        assert_eq!(
            header(request, "authorization"),
            Some(format!("Bearer {KEY}").as_str())
        );
        assert_eq!(header(request, "x-team"), Some("ops"));
        assert_eq!(header(request, "accept"), Some("application/json"));
        assert_eq!(header(request, "content-type"), Some("application/json"));
        let seen = templates
            .0
            .lock()
            .map(|seen| seen.clone())
            .unwrap_or_default();
        assert_eq!(seen, [("request", "/v1/things/{thing}/items")]);
    }

    #[tokio::test]
    async fn raw_response_keeps_status_headers_and_bytes_and_retries_like_an_operation() {
        let fake = FakeServer::start().await;
        let templates = Arc::default();
        wiremock::Mock::given(wiremock::matchers::path("/v1/blob"))
            .respond_with(wiremock::ResponseTemplate::new(503))
            .up_to_n_times(1)
            .with_priority(1)
            .mount(fake.wiremock())
            .await;
        wiremock::Mock::given(wiremock::matchers::path("/v1/blob"))
            .respond_with(
                wiremock::ResponseTemplate::new(202)
                    .insert_header("x-kind", "blob")
                    .set_body_raw(format!("blob {KEY}\u{202e}"), "application/octet-stream"),
            )
            .with_priority(2)
            .mount(fake.wiremock())
            .await;
        let path = String::from("/v1/blob");
        let raw = RawRequest::new(client(&fake, &templates), Method::GET, path)
            .accept("application/octet-stream")
            .send_raw()
            .await
            .unwrap_or_else(|error| panic!("send: {error}"));
        assert_eq!(raw.status(), 202);
        assert_eq!(raw.header("x-kind"), Some("blob"));
        assert_eq!(raw.headers().len(), raw.headers().keys().count());
        let sent = format!("blob {KEY}\u{202e}").into_bytes();
        assert_eq!(raw.body(), sent);
        // The text is server text: the key scrubbed, the bidi override escaped.
        let text = raw.text();
        assert!(text.starts_with("blob ") && !text.contains(KEY), "{text}");
        assert!(!text.to_string().contains('\u{202e}'), "{text}");
        assert!(matches!(
            raw.json::<serde_json::Value>(),
            Err(Error::Decode { .. })
        ));
        let shown = format!("{raw:?}");
        assert!(
            shown.contains("202") && shown.contains(&format!("body_bytes: {}", sent.len())),
            "{shown}"
        );
        assert!(!shown.contains("blob\"") && !shown.contains(KEY), "{shown}");
        assert_eq!(raw.clone().into_body(), sent);
        let received = fake.received().await;
        assert_eq!(received.len(), 2, "the 503 was retried");
        assert_eq!(
            header(&received[1], "accept"),
            Some("application/octet-stream")
        );
        // A path built at run time shares one endpoint.
        let seen = templates
            .0
            .lock()
            .map(|seen| seen.clone())
            .unwrap_or_default();
        assert_eq!(seen, [("request", "{request}"), ("request", "{request}")]);
    }

    #[tokio::test]
    async fn a_post_is_not_retried_and_errors_are_the_clients() {
        let fake = FakeServer::start().await;
        let templates = Arc::default();
        fake.on_method::<()>(&Method::POST, "/v1/x")
            .respond_status(503, serde_json::json!({"code": "DOWN", "message": "no"}))
            .await;
        let error = RawRequest::new(client(&fake, &templates), Method::POST, "/v1/x")
            .body("text/plain", "hi")
            .send::<serde_json::Value>()
            .await
            .err();
        assert!(
            matches!(&error, Some(Error::Api { status: 503, code: Some(code), .. }) if code == "DOWN"),
            "{error:?}"
        );
        assert_eq!(fake.received().await.len(), 1);
        assert_eq!(
            header(&fake.received().await[0], "content-type"),
            Some("text/plain")
        );
    }

    #[tokio::test]
    async fn unusable_requests_are_refused_before_sending() {
        let fake = FakeServer::start().await;
        let templates = Arc::default();
        let client = client(&fake, &templates);
        let request = |path: &'static str| RawRequest::new(client.clone(), Method::GET, path);
        let refused = [
            request("v1/x"),
            request("/v1/x?a=b"),
            request("/v1/x#frag"),
            request("/v1/x\\y"),
            request("/v1/ x"),
            request("/v1/é"),
            request("/v1/{id}"),
            request("/v1/x}"),
            request("/v1/x").path_param("id", "1"),
            request("/v1/{id}").path_param("id", ".."),
            request("/v1/{id}").path_param("id", ""),
            request("/v1/x").header("Authorization", "Bearer other"),
            request("/v1/x").header("accept", "text/plain"),
            request("/v1/x").header("x-bad", "line\nbreak"),
            request("/v1/x").json(&std::collections::BTreeMap::from([((1, 2), 3)])),
            request("/v1/x").body("text/plain\n", "x"),
        ];
        for raw in refused {
            let shown = format!("{raw:?}");
            let error = raw.send_raw().await.err();
            assert!(
                matches!(error, Some(Error::InvalidRequest(_))),
                "{shown}: {error:?}"
            );
        }
        assert!(fake.received().await.is_empty());
        assert!(
            templates
                .0
                .lock()
                .map(|seen| seen.is_empty())
                .unwrap_or(false)
        );
    }

    /// Issue 38: with a base URL that has a path, no spelling of a dot segment (literal,
    /// `%2e` in either case, mixed, built at run time or filled in) takes a request out of it:
    /// each is refused before anything is sent; a path under the base is sent under it.
    #[tokio::test]
    async fn no_path_leaves_the_base_url_in_any_spelling() {
        let fake = FakeServer::start().await;
        let client = ClientBuilder::<RuntimeClient>::new("https://unused.invalid")
            .api_key(KEY)
            .base_url(format!("{}/api", fake.uri()))
            .retry_policy(fast_retries())
            .build()
            .unwrap_or_else(|error| panic!("client: {error}"));
        for dots in ["..", ".", "%2e%2e", "%2E%2E", ".%2e", "%2E.", "%2e"] {
            for path in [
                format!("/models/{dots}/{dots}/admin/keys"),
                format!("/models/{dots}"),
                format!("/{dots}/admin"),
            ] {
                let literal: &'static str = Box::leak(path.clone().into_boxed_str());
                for raw in [
                    RawRequest::new(client.clone(), Method::GET, path.clone()),
                    RawRequest::new(client.clone(), Method::GET, literal),
                ] {
                    let error = raw.send_raw().await.err();
                    assert!(
                        matches!(&error, Some(Error::InvalidRequest(m)) if m.contains("dot segment")),
                        "{path}: {error:?}"
                    );
                }
            }
            let filled = RawRequest::new(client.clone(), Method::GET, "/models/{id}/x")
                .path_param("id", dots)
                .send_raw()
                .await;
            // A value is encoded first (`%` is `%25`): only `.` and `..` themselves are dots.
            if dots == "." || dots == ".." {
                assert!(
                    matches!(&filled, Err(Error::InvalidRequest(m)) if m.contains("dot segment")),
                    "{dots}: {filled:?}"
                );
            }
        }
        let sent: Vec<String> = fake
            .received()
            .await
            .iter()
            .map(|request| request.url.path().to_owned())
            .collect();
        assert!(
            sent.iter().all(|path| path.starts_with("/api/models/")),
            "{sent:?}"
        );
        let _ = RawRequest::new(client.clone(), Method::GET, "/models/a.b/..c")
            .send_raw()
            .await;
        let last = fake
            .received()
            .await
            .pop()
            .map(|request| request.url.path().to_owned());
        assert_eq!(last.as_deref(), Some("/api/models/a.b/..c"));
    }

    #[test]
    fn debug_leaves_values_out() {
        let client = ClientBuilder::<RuntimeClient>::new("https://api.baseten.co")
            .api_key(KEY)
            .build()
            .unwrap_or_else(|error| panic!("client: {error}"));
        let raw = RawRequest::new(client, Method::GET, "/v1/x")
            .query("token", "query-secret")
            .header("x-secret", "header-secret");
        let shown = format!("{raw:?}");
        assert!(
            shown.contains("token") && shown.contains("x-secret"),
            "{shown}"
        );
        for secret in ["query-secret", "header-secret", KEY] {
            assert!(!shown.contains(secret), "{shown}");
        }
    }
}
