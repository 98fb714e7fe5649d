//! A fake Baseten for consumers' tests (feature `mock`): a local HTTP server (wiremock) that a
//! generated crate's `FakeBaseten` wraps with one typed `on_<operation>` expectation per
//! operation, and builders for metrics responses that always satisfy the index-mapped
//! contract. Test-only: enable it in `[dev-dependencies]`.

use std::marker::PhantomData;
use std::time::Duration;

use serde_core::Serialize;
use wiremock::matchers::{body_json, header, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

mod builder;
pub mod metrics;
#[doc(hidden)]
pub mod round_trip;
pub mod throttled;

pub use builder::{BuildError as ModelBuildError, Fields};

/// The API key a fake's client sends; any key works with a fake.
pub const FAKE_API_KEY: &str = "fake-baseten-key";

/// A running fake server. It stops when dropped; requests no expectation matches get 404.
#[derive(Debug)]
pub struct FakeServer {
    server: MockServer,
}

impl FakeServer {
    /// Starts a server on 127.0.0.1 at a free port.
    pub async fn start() -> Self {
        Self {
            server: MockServer::start().await,
        }
    }

    /// Its base URL (`http://127.0.0.1:PORT`), for `ClientBuilder::base_url`.
    pub fn uri(&self) -> String {
        self.server.uri()
    }

    /// An expectation for `method_name path` (the path already filled in); generated
    /// `on_<operation>` methods call this with their operation's method and path.
    pub fn on<T>(&self, method_name: &'static str, request_path: String) -> Expectation<'_, T> {
        self.on_method(
            &reqwest::Method::from_bytes(method_name.as_bytes()).unwrap_or_default(),
            request_path,
        )
    }

    /// An expectation for `method path`, any method (a generated `FakeBaseten::on_request`, for
    /// requests sent with `Client::request`); `path` is matched as sent, percent-encoded.
    pub fn on_method<T>(
        &self,
        method_name: &reqwest::Method,
        request_path: impl Into<String>,
    ) -> Expectation<'_, T> {
        Expectation {
            server: &self.server,
            method: method_name.as_str().to_owned(),
            path: request_path.into(),
            query: Vec::new(),
            headers: Vec::new(),
            cookies: Vec::new(),
            body: None,
            parts: Vec::new(),
            times: None,
            response: PhantomData,
        }
    }

    /// Every request the server has received, in order.
    pub async fn received(&self) -> Vec<wiremock::Request> {
        self.server.received_requests().await.unwrap_or_default()
    }

    /// The wiremock server itself, for anything the typed expectations do not cover.
    pub fn wiremock(&self) -> &MockServer {
        &self.server
    }
}

/// A retry policy for clients of a fake: the default attempts, millisecond backoffs.
pub fn fast_retries() -> crate::RetryPolicy {
    crate::RetryPolicy::default()
        .with_initial_backoff(Duration::from_millis(1))
        .with_max_backoff(Duration::from_millis(5))
}

/// `template` with each `{name}` replaced by its value, percent-encoded as the client encodes
/// it, by the same boundary (a value the client refuses, empty or a dot segment, leaves the
/// placeholder as it is: no request the client sends has a brace, so it matches nothing, and
/// the path never navigates out of the fake's root).
pub fn fill_path(template: &str, values: &[(&str, &str)]) -> String {
    let mut filled = template.to_owned();
    for (name, value) in values {
        if let Ok(encoded) = crate::encode_path_segment("path", value) {
            filled = filled.replace(&format!("{{{name}}}"), &encoded);
        }
    }
    filled
}

/// Baseten's error body, `{"code": "NOT_FOUND", "message": "no such model"}`, as the fake answers
/// it ([`Expectation::respond_error`]) and as a test reads it back
/// ([`Error::error_model`](crate::Error::error_model)).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ErrorReply {
    /// A machine-readable code: `NOT_FOUND`, `PERMISSION_DENIED`, `VALIDATION_ERROR`, …
    pub code: String,
    /// What went wrong, for people.
    pub message: String,
}

impl ErrorReply {
    /// An error body with this code and message.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            message: message.into(),
        }
    }
}

// By hand, as everywhere in the runtime (no derive macro in its build).
impl Serialize for ErrorReply {
    fn serialize<S: serde_core::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde_core::ser::SerializeStruct as _;
        let mut body = serializer.serialize_struct("ErrorReply", 2)?;
        body.serialize_field("code", &self.code)?;
        body.serialize_field("message", &self.message)?;
        body.end()
    }
}

impl<'de> serde_core::Deserialize<'de> for ErrorReply {
    fn deserialize<D: serde_core::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde_core::de::Error as _;
        let body = serde_json::Value::deserialize(deserializer)?;
        let text = |key: &str| {
            body.get(key)
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| D::Error::custom(format_args!("no string `{key}`")))
        };
        Ok(Self {
            code: text("code")?,
            message: text("message")?,
        })
    }
}

/// What the fake answers one matching request with.
#[derive(Debug, Clone)]
pub enum Reply<T> {
    /// `200` with this body.
    Ok(T),
    /// This status with this JSON body (Baseten's error shape is `{"code", "message"}`).
    Status(u16, serde_json::Value),
    /// `429` with `Retry-After` (whole seconds, rounded up) and the same wait in the body.
    RateLimited(Duration),
}

/// Requests an `on_<operation>` expectation matches, and what it answers.
#[must_use = "an expectation does nothing until one of its `respond…` methods is awaited"]
pub struct Expectation<'s, T> {
    server: &'s MockServer,
    method: String,
    path: String,
    query: Vec<(String, String)>,
    headers: Vec<(String, String)>,
    cookies: Vec<(String, String)>,
    body: Option<serde_json::Value>,
    parts: Vec<(String, Vec<u8>)>,
    times: Option<u64>,
    response: PhantomData<fn() -> T>,
}

impl<T: Serialize> Expectation<'_, T> {
    /// Only requests carrying this query pair (others may be present too).
    pub fn query(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.query.push((key.into(), value.into()));
        self
    }

    /// Only requests carrying this header with this value (others may be present too).
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Only requests whose `Cookie` header holds this cookie, its value percent-encoded as the
    /// client sends it (other cookies may be present too).
    pub fn cookie(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.cookies.push((name.into(), value.into()));
        self
    }

    /// Only requests whose JSON body equals `body` exactly (absent fields must be absent).
    pub fn json_body(mut self, body: impl Serialize) -> Self {
        self.body = Some(serde_json::to_value(body).unwrap_or(serde_json::Value::Null));
        self
    }

    /// Only `multipart/form-data` requests with a part named `name` whose content is `value`
    /// (other parts may be present too); a number or boolean part is its JSON text, an object
    /// or array part its JSON.
    pub fn multipart_field(mut self, name: impl Into<String>, value: impl Into<Vec<u8>>) -> Self {
        self.parts.push((name.into(), value.into()));
        self
    }

    /// Fails the test (when the fake is dropped) unless exactly `n` requests matched.
    pub fn times(mut self, n: u64) -> Self {
        self.times = Some(n);
        self
    }

    fn mock(&self) -> wiremock::MockBuilder {
        let mut mock = Mock::given(method(self.method.as_str())).and(path(self.path.as_str()));
        for (key, value) in &self.query {
            mock = mock.and(query_param(key.as_str(), value.as_str()));
        }
        for (name, value) in &self.headers {
            mock = mock.and(header(name.as_str(), value.as_str()));
        }
        for (name, value) in &self.cookies {
            let expected = crate::support::cookie_header(&[(name.as_str(), value.clone())])
                .ok()
                .flatten()
                .unwrap_or_default();
            mock = mock.and(move |request: &wiremock::Request| {
                request
                    .headers
                    .get_all("cookie")
                    .iter()
                    .filter_map(|value| value.to_str().ok())
                    .flat_map(|value| value.split(';'))
                    .any(|pair| pair.trim() == expected)
            });
        }
        if let Some(body) = &self.body {
            mock = mock.and(body_json(body));
        }
        for (name, value) in &self.parts {
            let (name, value) = (name.clone(), value.clone());
            mock = mock.and(move |request: &wiremock::Request| {
                let content_type = request
                    .headers
                    .get("content-type")
                    .and_then(|value| value.to_str().ok())
                    .unwrap_or_default();
                multipart_parts(content_type, &request.body).is_some_and(|parts| {
                    parts
                        .iter()
                        .any(|(part, content)| *part == name && *content == value)
                })
            });
        }
        mock
    }

    /// Answers every matching request with `200` and `body`.
    pub async fn respond(self, body: &T) {
        self.respond_with(Reply::Ok(body)).await;
    }

    /// Answers every matching request with `status` and `body` as `content_type`: for
    /// operations that return text or bytes, or a body no type describes.
    pub async fn respond_raw(self, status: u16, content_type: &str, body: impl Into<Vec<u8>>) {
        self.mount(ResponseTemplate::new(status).set_body_raw(body.into(), content_type))
            .await;
    }

    /// Answers every matching request with `status` and `error`, a typed error body as JSON:
    /// an error model of the document's, or Baseten's `{"code", "message"}` as an
    /// [`ErrorReply`]. The client reads it back as an `Error::Api` whose
    /// [`error_model`](crate::Error::error_model) is that type again.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use baseten_api::mock::{ErrorReply, FakeBaseten};
    ///
    /// let fake = FakeBaseten::start().await;
    /// let gone = ErrorReply::new("NOT_FOUND", "no such model");
    /// fake.on_get_model("gone").respond_error(404, &gone).await;
    ///
    /// let error = fake.client()?.get_model("gone").await.expect_err("a 404");
    /// assert!(error.is_not_found());
    /// assert_eq!(error.error_model::<ErrorReply>(), Some(gone));
    /// # Ok(()) }
    /// ```
    pub async fn respond_error<E: Serialize>(self, status: u16, error: &E) {
        self.mount(ResponseTemplate::new(status).set_body_json(error))
            .await;
    }

    /// Answers every matching request with `status` and a JSON error body, such as
    /// `serde_json::json!({"error": "not found"})` (with `serde_json` in your own
    /// `[dev-dependencies]`; `serde_json::Value::Null` for none); for a typed one, without
    /// `serde_json`, [`respond_error`](Self::respond_error).
    pub async fn respond_status(self, status: u16, body: serde_json::Value) {
        self.respond_with(Reply::<&T>::Status(status, body)).await;
    }

    /// Answers every matching request with `429` asking for `retry_after`.
    pub async fn rate_limited(self, retry_after: Duration) {
        self.respond_with(Reply::<&T>::RateLimited(retry_after))
            .await;
    }

    /// Answers matching requests with `replies` in turn; the last one repeats. A sequence
    /// yields to any `respond…` expectation that also matches (it is the fallback).
    pub async fn respond_in_turn(self, replies: Vec<Reply<T>>) {
        let count = replies.len();
        for (index, reply) in replies.iter().enumerate() {
            let mut mock = self
                .mock()
                .respond_with(template(reply))
                // Lower numbers win: earlier replies first, each once, all after wiremock's
                // default priority (5) of the plain expectations.
                .with_priority(u8::try_from(index + 10).unwrap_or(u8::MAX));
            if index + 1 < count {
                mock = mock.up_to_n_times(1);
            }
            mock.mount(self.server).await;
        }
    }

    async fn respond_with<B: Serialize>(self, reply: Reply<B>) {
        self.mount(template(&reply)).await;
    }

    /// Mounts the expectation answering with `response`, counted when `times` was given.
    async fn mount(self, response: ResponseTemplate) {
        let mut mock = self.mock().respond_with(response);
        if let Some(times) = self.times {
            mock = mock.expect(times);
        }
        mock.mount(self.server).await;
    }
}

fn template<B: Serialize>(reply: &Reply<B>) -> ResponseTemplate {
    match reply {
        Reply::Ok(body) => ResponseTemplate::new(200).set_body_json(body),
        Reply::Status(status, body) => ResponseTemplate::new(*status).set_body_json(body),
        Reply::RateLimited(wait) => {
            let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            ResponseTemplate::new(429)
                .insert_header("retry-after", seconds.to_string().as_str())
                .set_body_json(serde_json::json!({
                    "code": "RATE_LIMITED",
                    "message": "slow down",
                    "retry_after": wait.as_secs_f64(),
                }))
        }
    }
}

/// The parts of a `multipart/form-data` body as `(name, content)`, names unescaped as the
/// runtime escapes them; `None` for another content type or a body that does not parse.
pub fn multipart_parts(content_type: &str, body: &[u8]) -> Option<Vec<(String, Vec<u8>)>> {
    let (essence, parameters) = content_type.split_once(';')?;
    if !essence.trim().eq_ignore_ascii_case("multipart/form-data") {
        return None;
    }
    let boundary = parameters
        .split(';')
        .find_map(|parameter| parameter.trim().strip_prefix("boundary="))?
        .trim_matches('"');
    let delimiter = format!("--{boundary}");
    let mut rest = body.strip_prefix(delimiter.as_bytes())?;
    let mut parts = Vec::new();
    loop {
        if rest.starts_with(b"--") {
            return Some(parts);
        }
        rest = rest.strip_prefix(b"\r\n")?;
        let end = find(rest, format!("\r\n{delimiter}").as_bytes())?;
        let part = &rest[..end];
        rest = &rest[end + 2 + delimiter.len()..];
        let split = find(part, b"\r\n\r\n")?;
        let headers = std::str::from_utf8(&part[..split]).ok()?;
        let name = headers.split("\r\n").find_map(|line| {
            let (key, value) = line.split_once(':')?;
            if !key.eq_ignore_ascii_case("content-disposition") {
                return None;
            }
            let start = value.find("name=\"")? + "name=\"".len();
            let len = value[start..].find('"')?;
            Some(
                value[start..start + len]
                    .replace("%0A", "\n")
                    .replace("%0D", "\r")
                    .replace("%22", "\""),
            )
        })?;
        parts.push((name, part[split + 4..].to_vec()));
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}
