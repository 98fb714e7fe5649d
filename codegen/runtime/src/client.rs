//! The API client: connection pool, base URL, credentials, timeouts and retries, and the one
//! function every generated operation sends its request through.

use std::ffi::OsString;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::header::{
    ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, RETRY_AFTER,
};
use reqwest::{Method, StatusCode};
use tracing::Instrument as _;
use tracing::field::Empty;

use crate::error::{
    Error, ErrorBody, excerpt, parse_retry_after, retryable_status, retryable_transport,
};
use crate::redirect;
use crate::retry::RetryPolicy;
use crate::server_text::{RegisteredSecret, ServerText};
use crate::support::Request;
use crate::telemetry::{self, AttemptContext, InterceptedResponse, Interceptor};
use crate::throttle::{Outcome, Traffic};

/// Sent with every request so Baseten can tell this client's traffic apart.
const USER_AGENT: &str = concat!("baseten-api-rust/", env!("CARGO_PKG_VERSION"));

/// The environment variable a generated `Client::from_env` and
/// `ClientBuilder::api_key_from_env` read the API key from.
pub const API_KEY_ENV: &str = "BASETEN_API_KEY";

/// The environment variable a generated `Client::from_env` and
/// `ClientBuilder::base_url_from_env` read a base URL from, when it is set.
pub const BASE_URL_ENV: &str = "BASETEN_BASE_URL";

/// How long establishing a connection (TCP and TLS) may take by default.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long one attempt (connecting, sending, and reading the whole
/// response) may take by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The response header whose value [`Error::Api`] keeps as `request_id`, unless
/// `ClientBuilder::request_id_header` names another.
pub const DEFAULT_REQUEST_ID_HEADER: &str = "x-request-id";

/// The longest response body a client reads by default: 64 MiB, ten times the largest metrics
/// response a 7-day window at the finest step gives.
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 64 * 1024 * 1024;

/// The message for a key that cannot be sent as a header; it deliberately
/// says nothing about the key itself.
const INVALID_KEY: &str = "API key is not a valid HTTP header value";

/// How the API key is presented in the `Authorization` header.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthScheme {
    /// `Authorization: Bearer <key>`, the default.
    #[default]
    Bearer,
    /// `Authorization: Api-Key <key>`, the legacy form Baseten still
    /// accepts.
    ApiKey,
}

impl AuthScheme {
    fn prefix(self) -> &'static str {
        match self {
            Self::Bearer => "Bearer",
            Self::ApiKey => "Api-Key",
        }
    }
}

/// A ready-made `Authorization` header value, and the key's registration with the scrubber of
/// [`ServerText`], so that a server echoing the key back is scrubbed from every error, even
/// those raised far from the client. Kept private and redacted so the key cannot leak through
/// `Debug` output or reqwest's own logging (the value is marked sensitive).
#[derive(Clone)]
struct ApiKey {
    header: HeaderValue,
    /// Shared by the clones of one client; the key is scrubbed until the last one is dropped.
    _scrubbed: Arc<RegisteredSecret>,
}

impl ApiKey {
    fn new(key: &str, scheme: AuthScheme) -> Result<Self, Error> {
        if key.is_empty() {
            return Err(Error::InvalidRequest("API key is empty".to_owned()));
        }
        let mut header = HeaderValue::try_from(format!("{} {key}", scheme.prefix()))
            .map_err(|_| Error::InvalidRequest(INVALID_KEY.to_owned()))?;
        header.set_sensitive(true);
        Ok(Self {
            header,
            _scrubbed: Arc::new(RegisteredSecret::new(key)),
        })
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// The HTTP client under a generated crate's `Client`: connection pool, base URL, credentials,
/// timeouts and retries.
///
/// Cheap to clone (one `Arc`), `Send` and `Sync`: clones share one connection pool, so
/// create one client and reuse it, across tasks too. A generated crate's operations send their
/// requests through [`execute`](Self::execute).
///
/// Every request carries `Accept: application/json`, a `User-Agent` naming
/// this crate and its version, and the API key (if any) in the
/// `Authorization` header. Idempotent requests are retried as the
/// [`RetryPolicy`] says; each attempt is bounded by the request timeout.
///
/// Clones share one traffic state (see [`RetryPolicy`]): per endpoint (the operation's path
/// template), a 429 pauses every request until the server's time has passed and the send rate
/// adapts; a retry budget caps retries across all requests; `ClientBuilder::max_in_flight`
/// and `ClientBuilder::endpoint_rate_limit` set limits of one's own.
///
/// Each call runs in a `tracing` span named `baseten_api.request` (debug level) and each
/// attempt in a child span `baseten_api.attempt`, with OpenTelemetry's HTTP client attributes
/// (`http.request.method`, `server.address`, `server.port`, `url.template`, `url.full` with
/// secret query values redacted, `http.response.status_code`, `http.request.resend_count`,
/// `error.type`, `otel.name`, `otel.kind`) and the fields `operation`, `method`,
/// `path_template`, `attempt`, `status` and `elapsed_ms`; every retry logs a debug event with
/// its wait. The key is never logged.
#[derive(Clone)]
pub struct RuntimeClient {
    inner: Arc<Settings>,
}

/// Everything a [`RuntimeClient`] holds, behind one `Arc`.
#[derive(Clone)]
struct Settings {
    http: reqwest::Client,
    /// Without a trailing slash; request paths start with one.
    base_url: String,
    api_key: Option<ApiKey>,
    retry: RetryPolicy,
    connect_timeout: Duration,
    timeout: Duration,
    default_headers: HeaderMap,
    request_id_header: HeaderName,
    max_response_bytes: u64,
    /// Shared by every clone, and by the copies `with_timeout` and `with_retry_policy` make.
    traffic: Arc<Traffic>,
    limits: Limits,
    interceptors: Arc<[Arc<dyn Interceptor>]>,
    /// The base URL's host and port, for the `server.address` and `server.port` attributes.
    server_address: String,
    server_port: Option<u16>,
}

impl fmt::Debug for RuntimeClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let settings = &*self.inner;
        f.debug_struct("RuntimeClient")
            .field("base_url", &settings.base_url)
            .field("api_key", &settings.api_key)
            .field("retry", &settings.retry)
            .field("connect_timeout", &settings.connect_timeout)
            .field("timeout", &settings.timeout)
            .field(
                "default_headers",
                &settings.default_headers.keys().collect::<Vec<_>>(),
            )
            .field("request_id_header", &settings.request_id_header)
            .field("max_response_bytes", &settings.max_response_bytes)
            .field("limits", &settings.limits)
            .field("interceptors", &settings.interceptors.len())
            .finish_non_exhaustive()
    }
}

impl RuntimeClient {
    /// A copy of this client (sharing its connection pool) whose attempts may each take
    /// `timeout` instead: for one slow call without a second client.
    #[must_use]
    pub fn with_timeout(&self, timeout: Duration) -> Self {
        self.with_settings(|settings| settings.timeout = timeout)
    }

    /// A copy of this client (sharing its connection pool) that retries as `policy` says.
    #[must_use]
    pub fn with_retry_policy(&self, policy: RetryPolicy) -> Self {
        self.with_settings(|settings| settings.retry = policy)
    }

    fn with_settings(&self, change: impl FnOnce(&mut Settings)) -> Self {
        let mut settings = (*self.inner).clone();
        change(&mut settings);
        Self {
            inner: Arc::new(settings),
        }
    }

    /// The base URL requests go to, without a trailing slash.
    #[must_use]
    pub fn base_url(&self) -> &str {
        &self.inner.base_url
    }

    /// The retry policy in force.
    #[must_use]
    pub fn retry_policy(&self) -> &RetryPolicy {
        &self.inner.retry
    }

    /// How long establishing a connection may take.
    #[must_use]
    pub fn connect_timeout(&self) -> Duration {
        self.inner.connect_timeout
    }

    /// How long one attempt, from connecting to reading the whole response,
    /// may take.
    #[must_use]
    pub fn timeout(&self) -> Duration {
        self.inner.timeout
    }

    /// The cap on requests out at once, if one was set
    /// (`ClientBuilder::max_in_flight`).
    #[must_use]
    pub fn max_in_flight(&self) -> Option<usize> {
        self.inner.limits.max_in_flight
    }

    /// The configured per-endpoint rate, requests per second
    /// (`ClientBuilder::endpoint_rate_limit`).
    #[must_use]
    pub fn endpoint_rate_limit(&self) -> Option<f64> {
        self.inner.limits.endpoint_rate
    }

    /// What is left of the retry budget all requests of this client share (500 when full; a
    /// retry after a server error costs 5, after a timeout 10, and successes pay it back).
    #[must_use]
    pub fn retry_budget_left(&self) -> u32 {
        self.inner.traffic.budget_left()
    }

    /// Sends one request, retrying it as the [`RetryPolicy`] allows, and
    /// decodes a 2xx JSON response into `T`.
    ///
    /// Called by the generated operations, which build `request`; not meant
    /// to be called directly.
    ///
    /// An empty 2xx body decodes as JSON `null`, so `T = ()` (or an
    /// `Option`) works for `204 No Content`.
    ///
    /// # Errors
    ///
    /// [`Error::RateLimited`] for a 429, [`Error::Api`] for any other
    /// non-2xx status, [`Error::Decode`] for a 2xx body that is not the
    /// expected JSON, [`Error::Timeout`] if the last attempt timed out,
    /// [`Error::Transport`] if the exchange failed otherwise,
    /// [`Error::InvalidRequest`] if the request's path is unusable. When
    /// retries are used up, the error is the last attempt's.
    #[doc(hidden)]
    pub async fn execute<T: serde::de::DeserializeOwned>(
        &self,
        request: Request,
    ) -> Result<T, Error> {
        let bytes = self.execute_bytes(request, "application/json").await?;
        decode(&bytes)
    }

    /// Like [`execute`](Self::execute), for a `text/*` response: the 2xx body as text, asked for
    /// with `accept` as the `Accept` header.
    ///
    /// # Errors
    ///
    /// As [`execute`](Self::execute), without the decoding; bytes that are not UTF-8 are
    /// replaced by U+FFFD.
    #[doc(hidden)]
    pub async fn execute_text(
        &self,
        request: Request,
        accept: &'static str,
    ) -> Result<String, Error> {
        let bytes = self.execute_bytes(request, accept).await?;
        // Text in another charset than UTF-8 keeps what it can rather than failing the call;
        // `execute_bytes` is there for the exact bytes.
        Ok(match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
        })
    }

    /// Like [`execute`](Self::execute), for any other response: the 2xx body as it came, asked
    /// for with `accept` as the `Accept` header.
    ///
    /// # Errors
    ///
    /// As [`execute`](Self::execute), without the decoding.
    #[doc(hidden)]
    pub async fn execute_bytes(
        &self,
        request: Request,
        accept: &'static str,
    ) -> Result<Vec<u8>, Error> {
        Ok(self.execute_response(request, accept).await?.body)
    }

    /// Like [`execute_bytes`](Self::execute_bytes), keeping the 2xx response's status and
    /// headers: what [`RawRequest::send_raw`](crate::RawRequest::send_raw) returns.
    pub(crate) async fn execute_response(
        &self,
        request: Request,
        accept: &'static str,
    ) -> Result<Success, Error> {
        let settings = &*self.inner;
        // Credentials sent as parameters are scrubbed from every text this request writes.
        let _secrets: Vec<RegisteredSecret> = request
            .params
            .secrets()
            .iter()
            .map(|secret| RegisteredSecret::new(secret))
            .collect();
        // The span's name is fixed; `otel.name` is what an OpenTelemetry exporter shows
        // (`GET /v1/models/{model_id}`), from the document's path template.
        let span = tracing::debug_span!(
            "baseten_api.request",
            otel.name = %format_args!("{} {}", request.method, request.path_template),
            otel.kind = "client",
            operation = request.operation,
            method = %request.method,
            path_template = request.path_template,
            http.request.method = %request.method,
            server.address = %settings.server_address,
            server.port = settings.server_port,
            url.template = request.path_template,
            http.response.status_code = Empty,
            http.request.resend_count = Empty,
            error.type = Empty,
            attempt = Empty,
            status = Empty,
            elapsed_ms = Empty,
        );
        let work = async {
            let started = Instant::now();
            let result = self.execute_with_retries(request, accept, &span).await;
            span.record("elapsed_ms", millis(started.elapsed()));
            if let Err(error) = &result {
                span.record("error.type", telemetry::error_type(error));
                tracing::debug!(error = %error, "request failed");
            }
            result
        };
        work.instrument(span.clone()).await
    }

    /// The attempt loop: returns the body of the first 2xx response, or the
    /// error that ended the attempts.
    ///
    /// Every attempt first waits its turn in the client's shared traffic state (the endpoint's
    /// pause after a 429, its send rate, a slot under `max_in_flight`); a 429 pauses the
    /// endpoint for every request instead of this one sleeping alone, and a retry after a
    /// server error or timeout is paid for from the shared retry budget.
    ///
    /// `span` is the request's span, passed in rather than taken from
    /// `Span::current()` so that recording works under any subscriber.
    async fn execute_with_retries(
        &self,
        request: Request,
        accept: &'static str,
        span: &tracing::Span,
    ) -> Result<Success, Error> {
        let settings = &*self.inner;
        let url = self.url_for(&request)?;
        // Checked once, before any attempt: the generator only emits valid media types, but a
        // hand-built request must not panic the client either.
        let accept = header_value("Accept", accept)?;
        let content_type = request
            .body
            .as_ref()
            .map(|body| header_value("Content-Type", &body.content_type))
            .transpose()?;
        let headers = RequestHeaders {
            accept,
            content_type,
            parameters: parameter_headers(&request)?,
        };
        let max_attempts = if is_idempotent(&request.method) {
            settings.retry.max_attempts()
        } else {
            1
        };
        let template = request.path_template;
        let traffic = &settings.traffic;
        let max_wait = settings.retry.max_retry_after();
        // The URL as spans show it: a credential parameter's value is never in it.
        let full_url = {
            let mut shown = url.clone();
            if let Some(query) = request.params.shown_query_string("REDACTED") {
                shown.set_query(Some(&query));
            }
            telemetry::redacted_url(&shown)
        };
        let mut backoff = settings.retry.backoff();
        let mut attempt: u32 = 0;
        // What this call's retries took from the budget, refunded on success.
        let mut budget_held: u32 = 0;
        let mut last_throttle: Option<ServerText> = None;
        loop {
            let slot = match traffic.admit(template, attempt > 0, max_wait).await {
                Ok(slot) => slot,
                Err(held) => {
                    return Err(Error::RateLimited {
                        retry_after: held.paused_for,
                        attempts: attempt,
                        body: last_throttle.unwrap_or_default(),
                    });
                }
            };
            attempt += 1;
            span.record("attempt", attempt);
            if attempt > 1 {
                span.record("http.request.resend_count", attempt - 1);
            }
            let attempt_span = tracing::debug_span!(
                "baseten_api.attempt",
                otel.name = %format_args!("{} {}", request.method, template),
                otel.kind = "client",
                http.request.method = %request.method,
                server.address = %settings.server_address,
                server.port = settings.server_port,
                url.template = template,
                url.full = %full_url,
                http.request.resend_count = attempt.checked_sub(1).filter(|n| *n > 0),
                http.response.status_code = Empty,
                error.type = Empty,
            );
            let context = AttemptContext {
                operation: request.operation,
                path_template: template,
                attempt,
            };
            let started = Instant::now();
            let sent_at = tokio::time::Instant::now();
            let sent = self
                .send_once(&request, &headers, url.clone(), &context, sent_at)
                .instrument(attempt_span.clone())
                .await;
            drop(slot);
            let status = sent.as_ref().ok().map(|answer| answer.status.as_u16());
            let mut throttle_noted = false;
            if let Some(status) = status {
                span.record("status", status);
                span.record("http.response.status_code", status);
                attempt_span.record("http.response.status_code", status);
            }
            let failure = match sent {
                Ok(answer) if answer.status.is_success() => {
                    traffic.record(template, Outcome::Success(sent_at));
                    traffic.refund(budget_held);
                    telemetry::instruments::request_duration(
                        request.method.as_str(),
                        template,
                        &settings.server_address,
                        status,
                        None,
                        started.elapsed().as_secs_f64(),
                    );
                    return Ok(Success {
                        status: answer.status,
                        headers: answer.headers,
                        body: answer.body,
                    });
                }
                Ok(answer) => {
                    throttle_noted = answer.throttle_noted;
                    Failure::from_response(answer, attempt)
                }
                // reqwest's message names the URL; a credential sent as a parameter is in it.
                Err(SendError::Transport(source)) if !request.params.secrets().is_empty() => {
                    Failure::from_transport(source.without_url(), attempt)
                }
                Err(SendError::Transport(source)) => Failure::from_transport(source, attempt),
                Err(SendError::TooLarge) => Failure {
                    error: Error::ResponseTooLarge {
                        limit_bytes: settings.max_response_bytes,
                    },
                    retryable: false,
                    retry_after: None,
                },
                Err(SendError::Refused(error)) => Failure {
                    error,
                    retryable: false,
                    retry_after: None,
                },
            };
            let error_type = telemetry::error_type(&failure.error);
            attempt_span.record("error.type", error_type.as_str());
            telemetry::instruments::request_duration(
                request.method.as_str(),
                template,
                &settings.server_address,
                status,
                Some(&error_type),
                started.elapsed().as_secs_f64(),
            );
            let throttled = matches!(failure.error, Error::RateLimited { .. });
            if throttled {
                // The whole endpoint waits, this request included (in `admit`).
                let wait = failure.retry_after.unwrap_or_else(|| {
                    backoff
                        .next()
                        .unwrap_or_else(|| settings.retry.max_backoff())
                });
                if !throttle_noted {
                    let throttled = Outcome::Throttled {
                        wait,
                        sent: sent_at,
                        longest: max_wait,
                    };
                    traffic.record(template, throttled);
                }
                if let Error::RateLimited { body, .. } = &failure.error {
                    last_throttle = Some(body.clone());
                }
            }
            if !failure.retryable || attempt >= max_attempts {
                return Err(failure.error);
            }
            if failure
                .retry_after
                .is_some_and(|wait| wait > settings.retry.max_retry_after())
            {
                // The server wants more patience than the policy allows: report its wait
                // rather than sit it out.
                return Err(failure.error);
            }
            if throttled {
                telemetry::instruments::retry(template, "throttled");
                tracing::debug!(attempt, reason = %failure.error, "retrying after the endpoint's pause");
                continue;
            }
            let timed_out = matches!(failure.error, Error::Timeout { .. });
            let Some(cost) = traffic.withdraw_retry(timed_out) else {
                // The budget is spent: the server is struggling for everyone, so stop adding
                // load and report what happened.
                telemetry::instruments::budget_exhausted(template);
                tracing::debug!(attempt, reason = %failure.error, "retry budget exhausted");
                return Err(failure.error);
            };
            budget_held = budget_held.saturating_add(cost);
            let wait = failure.retry_after.unwrap_or_else(|| {
                backoff
                    .next()
                    .unwrap_or_else(|| settings.retry.max_backoff())
            });
            telemetry::instruments::retry(
                template,
                match failure.error {
                    Error::Timeout { .. } => "timeout",
                    Error::Transport(_) => "transport",
                    _ => "server_error",
                },
            );
            tracing::debug!(
                attempt,
                wait_ms = millis(wait),
                reason = %failure.error,
                "retrying",
            );
            tokio::time::sleep(wait).await;
        }
    }

    /// One attempt: the status, the headers that matter and the whole body, with the
    /// interceptors run on the request before and on the response after. Redirects within the
    /// origin are followed here, and one to another origin refused (see [`redirect`]).
    async fn send_once(
        &self,
        request: &Request,
        headers: &RequestHeaders,
        url: reqwest::Url,
        context: &AttemptContext,
        sent_at: tokio::time::Instant,
    ) -> Result<Answer, SendError> {
        let settings = &*self.inner;
        let mut hop = redirect::Hop {
            url,
            method: request.method.clone(),
            keep_body: true,
        };
        let mut hops = 0;
        let mut response = loop {
            let mut outgoing = self.outgoing(request, headers, &hop)?;
            for interceptor in settings.interceptors.iter() {
                interceptor
                    .before_send(&mut outgoing, context)
                    .map_err(SendError::Refused)?;
            }
            let response = settings.http.execute(outgoing).await?;
            // A reqwest client brought with `http_client` may follow redirects itself: what it
            // reached elsewhere is not read, and is reported as the redirect it was.
            if !redirect::same_origin(response.url(), &hop.url) {
                let error = redirect::refused(response.status(), response.url());
                return Err(SendError::Refused(error));
            }
            match redirect::next_hop(
                response.status(),
                response.headers(),
                &hop.url,
                &hop.method,
                hops,
            ) {
                None => break response,
                Some(Err(refused)) => return Err(SendError::Refused(refused)),
                Some(Ok(next)) => {
                    hop = redirect::Hop {
                        keep_body: hop.keep_body && next.keep_body,
                        ..next
                    };
                    hops += 1;
                }
            }
        };
        let status = response.status();
        let header = |name: &HeaderName| {
            response
                .headers()
                .get(name)
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned)
        };
        let retry_after = header(&RETRY_AFTER)
            .as_deref()
            .and_then(|text| parse_retry_after(text, std::time::SystemTime::now()));
        let request_id = header(&settings.request_id_header);
        let response_headers = response.headers().clone();
        let limit = settings.max_response_bytes;
        if response
            .content_length()
            .is_some_and(|length| length > limit)
        {
            return Err(SendError::TooLarge);
        }
        // Read chunk by chunk against the cap: a body without a (truthful) length must not be
        // taken whole into memory first.
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await? {
            if body.len() as u64 + chunk.len() as u64 > limit {
                return Err(SendError::TooLarge);
            }
            body.extend_from_slice(&chunk);
        }
        // A 429 naming its wait pauses the endpoint now, before any interceptor runs: every
        // moment it is not noted, other requests may go out against it.
        let throttle_noted = status == StatusCode::TOO_MANY_REQUESTS && {
            let wait = ErrorBody::parse(&body).retry_after.or(retry_after);
            if let Some(wait) = wait {
                let throttled = Outcome::Throttled {
                    wait,
                    sent: sent_at,
                    longest: settings.retry.max_retry_after(),
                };
                settings.traffic.record(request.path_template, throttled);
            }
            wait.is_some()
        };
        for interceptor in settings.interceptors.iter() {
            let seen = InterceptedResponse {
                status,
                headers: &response_headers,
                body: &mut body,
            };
            interceptor.after_response(seen, context);
        }
        Ok(Answer {
            status,
            headers: response_headers,
            retry_after,
            request_id,
            body,
            throttle_noted,
        })
    }

    /// The request of one hop of an attempt.
    fn outgoing(
        &self,
        request: &Request,
        headers: &RequestHeaders,
        hop: &redirect::Hop,
    ) -> Result<reqwest::Request, reqwest::Error> {
        let settings = &*self.inner;
        let mut builder = settings
            .http
            .request(hop.method.clone(), hop.url.clone())
            // Per request rather than on the reqwest client, so that it holds for a client
            // brought with `ClientBuilder::http_client` too.
            .timeout(settings.timeout)
            .headers(settings.default_headers.clone())
            // The operation's own header parameters replace a default header of the same name.
            .headers(headers.parameters.clone())
            .header(ACCEPT, headers.accept.clone());
        if let Some(key) = &settings.api_key {
            builder = builder.header(AUTHORIZATION, key.header.clone());
        }
        if let (Some(body), Some(content_type), true) =
            (&request.body, &headers.content_type, hop.keep_body)
        {
            builder = builder
                .header(CONTENT_TYPE, content_type.clone())
                .body(body.bytes.clone());
        }
        builder.build()
    }

    /// `{base_url}{path}?{query}`. The path and the query arrive percent-encoded.
    fn url_for(&self, request: &Request) -> Result<reqwest::Url, Error> {
        if !request.path.starts_with('/') {
            return Err(Error::InvalidRequest(format!(
                "{}: request path does not start with '/'",
                request.operation
            )));
        }
        let mut url = reqwest::Url::parse(&format!("{}{}", self.inner.base_url, request.path))
            .map_err(|source| {
                Error::InvalidRequest(format!(
                    "{}: cannot build the request URL: {source}",
                    request.operation
                ))
            })?;
        // Encoded by the parameters' styles: written as it is, so that each style's delimiters
        // stay literal and the items' own are escaped.
        if let Some(query) = request.params.query_string() {
            url.set_query(Some(&query));
        }
        Ok(url)
    }
}

/// Methods that mean the same whether sent once or several times (RFC 9110
/// §9.2.2), and so may be retried.
fn is_idempotent(method: &Method) -> bool {
    [
        Method::GET,
        Method::HEAD,
        Method::PUT,
        Method::DELETE,
        Method::OPTIONS,
    ]
    .contains(method)
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Why one attempt got no answer.
enum SendError {
    Transport(reqwest::Error),
    /// The body is longer than the client's cap.
    TooLarge,
    /// An interceptor refused to let the request go.
    Refused(Error),
}

impl From<reqwest::Error> for SendError {
    /// The error with its URL shown without secrets, before anything can show it.
    fn from(source: reqwest::Error) -> Self {
        Self::Transport(telemetry::without_secrets(source))
    }
}

/// A 2xx response, read whole.
pub(crate) struct Success {
    pub(crate) status: StatusCode,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Vec<u8>,
}

/// One response, read whole.
struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    /// The `Retry-After` header, if usable.
    retry_after: Option<Duration>,
    /// The request id header's value, if the server sent one.
    request_id: Option<String>,
    body: Vec<u8>,
    /// A 429 whose wait the shared traffic state has already been told.
    throttle_noted: bool,
}

/// A failed attempt: the error to report if it is the last, whether another
/// attempt may help, and how long the server asked to wait first.
struct Failure {
    error: Error,
    retryable: bool,
    retry_after: Option<Duration>,
}

impl Failure {
    /// The error for a non-2xx answer; every text taken from the response is [`ServerText`].
    fn from_response(answer: Answer, attempts: u32) -> Self {
        let Answer {
            status,
            retry_after: retry_after_header,
            headers: _,
            request_id,
            body: bytes,
            throttle_noted: _,
        } = answer;
        let parsed = ErrorBody::parse(&bytes);
        let retry_after = parsed.retry_after.or(retry_after_header);
        let body = ServerText::from_utf8_lossy(&bytes);
        let clean = |text: Option<String>| text.map(ServerText::new);
        let request_id = clean(request_id);
        if status == StatusCode::TOO_MANY_REQUESTS {
            return Self {
                error: Error::RateLimited {
                    retry_after,
                    attempts,
                    body,
                },
                retryable: true,
                retry_after,
            };
        }
        let status = status.as_u16();
        Self {
            error: Error::Api {
                status,
                code: clean(parsed.code),
                message: clean(parsed.message),
                detail: clean(parsed.detail),
                request_id,
                body,
            },
            retryable: retryable_status(status),
            retry_after,
        }
    }

    fn from_transport(source: reqwest::Error, attempts: u32) -> Self {
        if source.is_timeout() {
            return Self {
                error: Error::Timeout { attempts },
                retryable: true,
                retry_after: None,
            };
        }
        Self {
            retryable: retryable_transport(&source),
            error: Error::Transport(source),
            retry_after: None,
        }
    }
}

/// The per-request headers, validated once for every attempt.
struct RequestHeaders {
    accept: HeaderValue,
    content_type: Option<HeaderValue>,
    /// Header parameters and the `Cookie` header of cookie parameters.
    parameters: HeaderMap,
}

/// The request's header and cookie parameters as headers. A name that is not a header name or
/// a value that is not a header value is refused naming the parameter, not echoing the value
/// (which may be a credential).
fn parameter_headers(request: &Request) -> Result<HeaderMap, Error> {
    let operation = request.operation;
    let mut headers = HeaderMap::new();
    for (name, value) in request.params.headers() {
        let header = HeaderName::from_bytes(name.as_bytes()).map_err(|_| {
            Error::InvalidRequest(format!("{operation}: {name:?} is not a valid header name"))
        })?;
        // Stricter than `HeaderValue`, which lets bytes above 0x7f through: no server reads
        // those the same way.
        let visible = value
            .bytes()
            .all(|b| b == b'\t' || (b' '..=b'~').contains(&b));
        let mut value = HeaderValue::from_str(value)
            .ok()
            .filter(|_| visible)
            .ok_or_else(|| {
                Error::InvalidRequest(format!(
                    "{operation}: header parameter `{name}` is not a valid header value \
                 (visible ASCII, spaces and tabs only)"
                ))
            })?;
        value.set_sensitive(true);
        headers.append(header, value);
    }
    if let Some(cookie) = request.params.cookie_header() {
        let mut value = HeaderValue::from_str(&cookie).map_err(|_| {
            Error::InvalidRequest(format!(
                "{operation}: the Cookie header is not a header value"
            ))
        })?;
        value.set_sensitive(true);
        headers.insert(reqwest::header::COOKIE, value);
    }
    Ok(headers)
}

/// A media type as a header value; one that is not (a newline, a non-ASCII byte) is refused.
fn header_value(name: &str, media_type: &str) -> Result<HeaderValue, Error> {
    HeaderValue::from_str(media_type).map_err(|_| {
        Error::InvalidRequest(format!("{media_type:?} is not a valid {name} header value"))
    })
}

/// Decodes a 2xx body through [`decode`](crate::decode::decode), so a failure names
/// its JSON path as a saved response's would; an empty (or all-whitespace) body counts as `null`.
/// serde's message can quote a value of the body, so it is [`ServerText`] like the excerpt.
pub(crate) fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    let json: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"null"
    } else {
        bytes
    };
    crate::decode::decode(json).map_err(|error| {
        // Scrubbed whole before it is cut, so that the cut cannot keep a piece of the key, and
        // again after, in case collapsing whitespace joined one.
        let body = ServerText::from_utf8_lossy(bytes);
        Error::Decode {
            path: error.path().clone(),
            category: error.category(),
            message: ServerText::new(error.to_string()),
            body_excerpt: ServerText::new(excerpt(&body)),
        }
    })
}

/// Where the builder takes the API key from.
#[derive(Clone, Default)]
enum KeySource {
    #[default]
    None,
    Given(String),
    Env,
}

/// Configures a client; a generated crate's `Client::builder()` starts one with its document's
/// default base URL, and [`build`](Self::build) gives that crate's `Client` (`C`).
///
/// Defaults: no API key, the document's base URL, [`AuthScheme::Bearer`],
/// [`DEFAULT_CONNECT_TIMEOUT`] (10 s), [`DEFAULT_TIMEOUT`] (30 s per attempt),
/// [`RetryPolicy::default`], request ids read from [`DEFAULT_REQUEST_ID_HEADER`].
pub struct ClientBuilder<C = RuntimeClient> {
    api_key: KeySource,
    auth_scheme: AuthScheme,
    default_base_url: String,
    base_url: Option<String>,
    base_url_from_env: bool,
    connect_timeout: Duration,
    timeout: Duration,
    retry: RetryPolicy,
    http: Option<reqwest::Client>,
    default_headers: Vec<(String, String)>,
    request_id_header: String,
    max_response_bytes: u64,
    limits: Limits,
    interceptors: Vec<Arc<dyn Interceptor>>,
    client: PhantomData<fn() -> C>,
}

/// The limits a user sets on the builder; both off by default.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Limits {
    max_in_flight: Option<usize>,
    endpoint_rate: Option<f64>,
}

impl<C> Clone for ClientBuilder<C> {
    fn clone(&self) -> Self {
        Self {
            api_key: self.api_key.clone(),
            auth_scheme: self.auth_scheme,
            default_base_url: self.default_base_url.clone(),
            base_url: self.base_url.clone(),
            base_url_from_env: self.base_url_from_env,
            connect_timeout: self.connect_timeout,
            timeout: self.timeout,
            retry: self.retry,
            http: self.http.clone(),
            default_headers: self.default_headers.clone(),
            request_id_header: self.request_id_header.clone(),
            max_response_bytes: self.max_response_bytes,
            limits: self.limits,
            interceptors: self.interceptors.clone(),
            client: PhantomData,
        }
    }
}

impl<C> fmt::Debug for ClientBuilder<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let api_key = match self.api_key {
            KeySource::None => "none",
            KeySource::Given(_) => "<redacted>",
            KeySource::Env => API_KEY_ENV,
        };
        // Header values may be credentials of their own: names only.
        let headers: Vec<&str> = self
            .default_headers
            .iter()
            .map(|(n, _)| n.as_str())
            .collect();
        f.debug_struct("ClientBuilder")
            .field("api_key", &api_key)
            .field("auth_scheme", &self.auth_scheme)
            .field("default_base_url", &self.default_base_url)
            .field("base_url", &self.base_url)
            .field("base_url_from_env", &self.base_url_from_env)
            .field("connect_timeout", &self.connect_timeout)
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .field("http_client", &self.http.is_some())
            .field("default_headers", &headers)
            .field("request_id_header", &self.request_id_header)
            .field("max_response_bytes", &self.max_response_bytes)
            .field("limits", &self.limits)
            .field("interceptors", &self.interceptors.len())
            .finish()
    }
}

impl<C: From<RuntimeClient>> ClientBuilder<C> {
    /// A builder for a client that sends to `default_base_url` unless told otherwise.
    #[must_use]
    pub fn new(default_base_url: impl Into<String>) -> Self {
        Self {
            api_key: KeySource::None,
            auth_scheme: AuthScheme::Bearer,
            default_base_url: default_base_url.into(),
            base_url: None,
            base_url_from_env: false,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            timeout: DEFAULT_TIMEOUT,
            retry: RetryPolicy::default(),
            http: None,
            default_headers: Vec::new(),
            request_id_header: DEFAULT_REQUEST_ID_HEADER.to_owned(),
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            limits: Limits::default(),
            interceptors: Vec::new(),
            client: PhantomData,
        }
    }

    /// The API key to send in the `Authorization` header (see
    /// [`auth_scheme`](Self::auth_scheme)). Without one, requests go out
    /// unauthenticated.
    #[must_use]
    pub fn api_key(mut self, api_key: impl Into<String>) -> Self {
        self.api_key = KeySource::Given(api_key.into());
        self
    }

    /// Reads the API key from `BASETEN_API_KEY` ([`API_KEY_ENV`]) when the
    /// client is built; [`build`](Self::build) fails if it is unset.
    #[must_use]
    pub fn api_key_from_env(mut self) -> Self {
        self.api_key = KeySource::Env;
        self
    }

    /// How to present the key: `Bearer <key>` (the default) or the legacy
    /// `Api-Key <key>`.
    #[must_use]
    pub fn auth_scheme(mut self, scheme: AuthScheme) -> Self {
        self.auth_scheme = scheme;
        self
    }

    /// Where to send requests instead of the document's base URL, e.g. a test server.
    /// An absolute `http` or `https` URL, optionally with a path prefix;
    /// trailing slashes are ignored. It may not carry credentials
    /// (`https://user:password@host`).
    #[must_use]
    pub fn base_url(mut self, base_url: impl Into<String>) -> Self {
        self.base_url = Some(base_url.into());
        self
    }

    /// Uses `BASETEN_BASE_URL` ([`BASE_URL_ENV`]) as the base URL when the
    /// client is built, if it is set and not empty; otherwise the base URL
    /// set with [`base_url`](Self::base_url), or the default.
    #[must_use]
    pub fn base_url_from_env(mut self) -> Self {
        self.base_url_from_env = true;
        self
    }

    /// How long establishing a connection (TCP and TLS) may take; default
    /// 10 s. A connect timeout counts as a timed-out attempt. Not applied to a client brought
    /// with [`http_client`](Self::http_client), which keeps its own.
    #[must_use]
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// How long one attempt, from connecting to reading the whole response,
    /// may take; default 30 s. Retries each get this long again.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// When and how to retry; default [`RetryPolicy::default`]. Use
    /// [`RetryPolicy::none`] to send every request once.
    #[must_use]
    pub fn retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// Sends through `http` instead of a reqwest client of this crate's making: for proxies,
    /// custom root certificates, or middleware set up on it. Its own timeouts and user agent
    /// stay as configured there; the per-attempt [`timeout`](Self::timeout) still applies.
    ///
    /// Build it with `.redirect(reqwest::redirect::Policy::none())`: the client follows
    /// redirects itself, within the request's origin only, and refuses one to another origin
    /// ([`Error::RedirectRefused`]). A reqwest client left to follow redirects by its own policy
    /// sends every header but `Authorization` and `Cookie` (default headers, header
    /// parameters) wherever a server points it, before the client sees the answer; the client
    /// then reports [`Error::RedirectRefused`] and reads nothing from there.
    #[must_use]
    pub fn http_client(mut self, http: reqwest::Client) -> Self {
        self.http = Some(http);
        self
    }

    /// Sends `name: value` with every request (checked when the client is built). The API key's
    /// `Authorization` header and `Accept` are set per request and win over a default of the same
    /// name.
    #[must_use]
    pub fn default_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.default_headers.push((name.into(), value.into()));
        self
    }

    /// The response header [`Error::Api`] takes its `request_id` from; default
    /// [`DEFAULT_REQUEST_ID_HEADER`].
    #[must_use]
    pub fn request_id_header(mut self, name: impl Into<String>) -> Self {
        self.request_id_header = name.into();
        self
    }

    /// The longest response body the client reads, in bytes; default
    /// [`DEFAULT_MAX_RESPONSE_BYTES`] (64 MiB). A longer one ends the request with
    /// [`Error::ResponseTooLarge`] as soon as the cap is passed, without reading the rest.
    #[must_use]
    pub fn max_response_bytes(mut self, limit: u64) -> Self {
        self.max_response_bytes = limit;
        self
    }

    /// At most `n` requests of this client (and its clones) out at once; more wait their turn.
    /// A request waiting for its endpoint's rate or sitting out a 429 does not hold a slot, so
    /// the slots go to requests that can be sent. `0` counts as `1`. Default: no cap (a request
    /// opens a connection when none is idle).
    #[must_use]
    pub fn max_in_flight(mut self, n: usize) -> Self {
        self.limits.max_in_flight = Some(n.max(1));
        self
    }

    /// Sends at most `requests_per_second` requests to each endpoint (an operation's path
    /// template), spaced evenly; requests over it wait in the client. Default: off, and the
    /// client only slows down after the server throttles it (see [`RetryPolicy`]).
    ///
    /// Baseten allows 100 requests per second per API key, counted per endpoint, and less on
    /// some operations. Set a little under the limit (90 for 100) to leave room for network
    /// jitter, and divide by the number of processes that share a key. A rate that is not a
    /// positive number leaves the limit off.
    #[must_use]
    pub fn endpoint_rate_limit(mut self, requests_per_second: f64) -> Self {
        self.limits.endpoint_rate =
            Some(requests_per_second).filter(|rate| rate.is_finite() && *rate > 0.0);
        self
    }

    /// Runs `interceptor` on every attempt: on the request just before it is sent, and on the
    /// response once it is read (see [`Interceptor`]). Interceptors run in the order added.
    #[must_use]
    pub fn interceptor(mut self, interceptor: impl Interceptor) -> Self {
        self.interceptors.push(Arc::new(interceptor));
        self
    }

    /// Builds the client.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] if the API key is empty, not a valid HTTP
    /// header value, or to be read from an unset variable; if the base URL
    /// is not an absolute `http(s)` URL without credentials, query or
    /// fragment; if a timeout is zero; or if a default header or the request id header is not
    /// a valid header. [`Error::Transport`] if the HTTP stack cannot be initialised.
    pub fn build(self) -> Result<C, Error> {
        self.build_with_env(|name| std::env::var_os(name))
    }

    /// [`build`](Self::build), reading environment variables through `env`.
    fn build_with_env(self, env: impl Fn(&str) -> Option<OsString>) -> Result<C, Error> {
        let key = match self.api_key {
            KeySource::None => None,
            KeySource::Given(key) => Some(key),
            KeySource::Env => Some(env_string(&env, API_KEY_ENV)?.ok_or_else(|| {
                Error::InvalidRequest(format!("environment variable {API_KEY_ENV} is not set"))
            })?),
        };
        let api_key = key
            .as_deref()
            .map(|key| ApiKey::new(key, self.auth_scheme))
            .transpose()?;
        let from_env = if self.base_url_from_env {
            env_string(&env, BASE_URL_ENV)?.filter(|url| !url.is_empty())
        } else {
            None
        };
        let base_url = normalise_base_url(
            from_env
                .as_deref()
                .or(self.base_url.as_deref())
                .unwrap_or(&self.default_base_url),
        )?;
        let parsed = reqwest::Url::parse(&base_url).ok();
        let server_address = parsed
            .as_ref()
            .and_then(|url| url.host_str().map(str::to_owned))
            .unwrap_or_default();
        let server_port = parsed
            .as_ref()
            .and_then(reqwest::Url::port_or_known_default);
        for (name, timeout) in [
            ("connect timeout", self.connect_timeout),
            ("timeout", self.timeout),
        ] {
            if timeout.is_zero() {
                return Err(Error::InvalidRequest(format!("{name} is zero")));
            }
        }
        let mut default_headers = HeaderMap::new();
        for (name, value) in &self.default_headers {
            let name = HeaderName::try_from(name.as_str()).map_err(|_| {
                Error::InvalidRequest(format!("default header name {name:?} is not valid"))
            })?;
            // The value is not echoed: it may be a credential.
            let mut value = HeaderValue::try_from(value.as_str()).map_err(|_| {
                Error::InvalidRequest(format!("default header {name} has an invalid value"))
            })?;
            value.set_sensitive(true);
            default_headers.append(name, value);
        }
        let request_id_header =
            HeaderName::try_from(self.request_id_header.as_str()).map_err(|_| {
                Error::InvalidRequest(format!(
                    "request id header {:?} is not a valid header name",
                    self.request_id_header
                ))
            })?;
        let http = match self.http {
            Some(http) => http,
            // Redirects are followed by the client itself, within the origin only (see
            // `redirect`): reqwest would send default headers such as `x-api-key` anywhere.
            None => reqwest::Client::builder()
                .user_agent(USER_AGENT)
                .connect_timeout(self.connect_timeout)
                .timeout(self.timeout)
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .map_err(Error::Transport)?,
        };
        Ok(C::from(RuntimeClient {
            inner: Arc::new(Settings {
                http,
                base_url,
                api_key,
                retry: self.retry,
                connect_timeout: self.connect_timeout,
                timeout: self.timeout,
                default_headers,
                request_id_header,
                max_response_bytes: self.max_response_bytes,
                traffic: Arc::new(Traffic::new(
                    self.limits.max_in_flight,
                    self.limits.endpoint_rate,
                )),
                limits: self.limits,
                interceptors: self.interceptors.into(),
                server_address,
                server_port,
            }),
        }))
    }
}

/// An environment variable as UTF-8, `None` if unset. The message for a
/// non-UTF-8 value names the variable but not the value.
fn env_string(
    env: &impl Fn(&str) -> Option<OsString>,
    name: &str,
) -> Result<Option<String>, Error> {
    env(name)
        .map(|value| {
            value.into_string().map_err(|_| {
                Error::InvalidRequest(format!("environment variable {name} is not valid UTF-8"))
            })
        })
        .transpose()
}

/// Checks the base URL and drops trailing slashes, so that appending a path
/// (which starts with `/`) never produces `//`.
fn normalise_base_url(base_url: &str) -> Result<String, Error> {
    // The message does not echo the URL: it could carry credentials in its
    // userinfo part.
    let invalid = || {
        Error::InvalidRequest(
            "base URL must be an absolute http(s) URL without credentials, query or fragment"
                .to_owned(),
        )
    };
    let trimmed = base_url.trim_end_matches('/');
    let parsed = reqwest::Url::parse(trimmed).map_err(|_| invalid())?;
    // Credentials in the URL would travel in every error message that names
    // the URL (reqwest's transport errors do).
    let usable = matches!(parsed.scheme(), "http" | "https")
        && parsed.has_host()
        && parsed.username().is_empty()
        && parsed.password().is_none()
        && parsed.query().is_none()
        && parsed.fragment().is_none();
    if usable {
        Ok(trimmed.to_owned())
    } else {
        Err(invalid())
    }
}

#[cfg(test)]
mod tests;
