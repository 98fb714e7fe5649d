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
mod tests {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpListener;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::thread::JoinHandle;

    use super::*;
    use crate::support::Body;

    const SECRET: &str = "abcdefgh.SuperSecretKey1234567890";
    /// What a generated crate passes as its document's base URL.
    const DEFAULT_BASE_URL: &str = "https://api.baseten.co";

    /// What a generated crate's `Client` offers, on the runtime client.
    impl RuntimeClient {
        fn builder() -> ClientBuilder {
            ClientBuilder::new(DEFAULT_BASE_URL)
        }

        fn new(api_key: &str) -> Result<Self, Error> {
            Self::builder().api_key(api_key).build()
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
            format!("{:?}", client.inner.api_key),
            format!("{:?}", RuntimeClient::builder().api_key(SECRET)),
        ] {
            assert!(!shown.contains(SECRET), "{shown}");
            assert!(!shown.contains("SuperSecret"), "{shown}");
        }
        assert_eq!(
            format!("{:?}", client.inner.api_key),
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
        let header = client.inner.api_key.as_ref().map(|key| key.header.clone());
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
        let header = client
            .ok()
            .and_then(|c| c.inner.api_key.clone())
            .map(|key| key.header);
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
            Some("invalid request: environment variable BASETEN_API_KEY is not set")
        );
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
        let listener = match TcpListener::bind("127.0.0.1:0") {
            Ok(listener) => listener,
            Err(err) => panic!("bind: {err}"),
        };
        let base = match listener.local_addr() {
            Ok(addr) => format!("http://{addr}"),
            Err(err) => panic!("addr: {err}"),
        };
        let handle = std::thread::spawn(move || {
            let mut seen = Vec::new();
            for response in responses {
                let Ok((stream, _)) = listener.accept() else {
                    break;
                };
                seen.push(answer(stream, response));
            }
            seen
        });
        (base, handle)
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
        let got: Result<(), Error> =
            block_on(client.execute(request(Method::GET, "v1/things", None)));
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
        let full_url =
            format!("url.full={base}/v1/things/x?metrics=a+b&metrics=c%26d&token=REDACTED ");
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
}
