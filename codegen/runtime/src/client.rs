//! The API client: [`RuntimeClient`], the settings its clones share, and the entry points every
//! generated operation sends its request through.
//!
//! The client's other roles are files of their own, each importing what it uses:
//!
//! | File | Role |
//! |---|---|
//! | `builder.rs` | [`ClientBuilder`], its defaults and its checks of what a user configures |
//! | `credentials.rs` | [`AuthScheme`], [`Place`], the key and each scheme's credential redacted and scrubbed, and what an operation's [`Security`] picks |
//! | `orchestrator.rs` | the send path's operation level: the request's span, permits, the retry loop |
//! | `retry_loop.rs` | one call's retry accounting: backoff, retry budget, the decision after a failure |
//! | `prepare.rs` | a request made ready once for all its attempts: URL, headers, attempts allowed |
//! | `attempt.rs` | the send path's attempt level: one HTTP exchange, in named interceptor phases |
//! | `failure.rs` | an HTTP or transport failure as the [`Error`] a caller sees, and whether to retry |
//! | `routes.rs` | where an operation with servers of its own goes, and whether credentials go too |

mod attempt;
mod builder;
mod credentials;
mod failure;
mod orchestrator;
mod prepare;
mod retry_loop;
mod routes;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName};

// One `pub use` per item: the public-API listing (`baseten_codegen::public_api`) follows a
// re-export of a re-export only when it names one item.
use crate::error::Error;
use crate::retry::RetryPolicy;
use crate::support::Request;
use crate::telemetry::Interceptor;
use crate::throttle::Traffic;
pub use builder::ClientBuilder;
pub use builder::DEFAULT_CONNECT_TIMEOUT;
pub use builder::DEFAULT_MAX_RESPONSE_BYTES;
pub use builder::DEFAULT_REQUEST_ID_HEADER;
pub use builder::DEFAULT_TIMEOUT;
use builder::Limits;
pub use credentials::AuthScheme;
use credentials::Credentials;
pub use credentials::MissingCredentials;
pub use credentials::Place;
pub use credentials::Security;
pub(crate) use failure::decode;

/// The HTTP client under a generated crate's `Client`: connection pool, base URL, credentials,
/// timeouts and retries.
///
/// Cheap to clone (one `Arc`), `Send` and `Sync`: clones share one connection pool, so
/// create one client and reuse it, across tasks too. A generated crate's operations send their
/// requests through [`execute`](Self::execute).
///
/// Every request carries `Accept: application/json`, a `User-Agent` naming
/// this crate and its version, and the API key (if any) in the
/// `Authorization` header. Requests are retried as the [`RetryPolicy`] says (by what the
/// server said, then by the method); each attempt is bounded by the request timeout.
///
/// Clones share one traffic state (see [`RetryPolicy`]): per endpoint (the operation's path
/// template), a 429 pauses every request until the server's time has passed and the send rate
/// adapts; a retry budget caps retries across all requests; `ClientBuilder::max_in_flight`
/// and `ClientBuilder::endpoint_rate_limit` set limits of one's own, and
/// `ClientBuilder::adaptive_rate(false)` keeps the rate fixed after a 429.
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
    /// The API key and the other security schemes' credentials.
    credentials: Credentials,
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
    /// The operations sent elsewhere than `base_url` (their own `servers`).
    routes: Arc<routes::Routes>,
}

impl fmt::Debug for RuntimeClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let settings = &*self.inner;
        f.debug_struct("RuntimeClient")
            .field("base_url", &settings.base_url)
            .field("api_key", &settings.credentials.key)
            .field("credentials", &settings.credentials.scheme_names())
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

    /// Whether a 429 cuts the endpoint's send rate (`ClientBuilder::adaptive_rate`; on by
    /// default).
    #[must_use]
    pub fn adaptive_rate(&self) -> bool {
        self.inner.limits.adaptive_rate
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
    pub async fn execute<T: serde_core::de::DeserializeOwned>(
        &self,
        request: Request,
    ) -> Result<T, Error> {
        self.execute_decoded(request, "application/json", |success| decode(&success.body))
            .await
    }

    /// Like [`execute`](Self::execute), asking for the media types `accept` lists (a JSON
    /// response the document gives as `application/problem+json`, or in several media types).
    ///
    /// # Errors
    ///
    /// As [`execute`](Self::execute).
    #[doc(hidden)]
    pub async fn execute_json<T: serde_core::de::DeserializeOwned>(
        &self,
        request: Request,
        accept: &'static str,
    ) -> Result<T, Error> {
        self.execute_decoded(request, accept, |success| decode(&success.body))
            .await
    }

    /// Like [`execute`](Self::execute), for a text response: the 2xx body as text, decoded by
    /// the charset its `Content-Type` names (UTF-8 when it names none), asked for with `accept`
    /// as the `Accept` header.
    ///
    /// # Errors
    ///
    /// As [`execute`](Self::execute), but for the decoding: a body that is not text in its
    /// charset, or names an unknown charset, is [`Error::InvalidResponse`] holding a
    /// [`text::UndecodableText`](crate::text::UndecodableText).
    #[doc(hidden)]
    pub async fn execute_text(
        &self,
        request: Request,
        accept: &'static str,
    ) -> Result<String, Error> {
        self.execute_decoded(request, accept, |success| {
            crate::text::decode_text(&success.headers, success.body)
                .map_err(|error| Error::InvalidResponse(crate::InvalidResponse::new(error)))
        })
        .await
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
}

#[cfg(test)]
mod tests;
