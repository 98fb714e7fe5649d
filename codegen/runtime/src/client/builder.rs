//! [`ClientBuilder`]: what a user configures on a client, its defaults, and the checks that turn
//! it into a [`RuntimeClient`] (a key that is a header value, a base URL without credentials,
//! timeouts that are not zero).

use std::ffi::OsString;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

use super::credentials::{ApiKey, AuthScheme, Credentials, Place};
use super::routes::{OperationServers, resolve_relative};
use super::{RuntimeClient, Settings};
use crate::error::Error;
use crate::retry::RetryPolicy;
use crate::server_url::ServerUrl;
use crate::telemetry::Interceptor;
use crate::throttle::Traffic;

/// Sent with every request so Baseten can tell this client's traffic apart.
pub(super) const USER_AGENT: &str = concat!("baseten-api-rust/", env!("CARGO_PKG_VERSION"));

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
    /// The document's scheme the API key stands for, and its query parameter when the key goes
    /// in the query (`key_scheme`).
    key_scheme: Option<&'static str>,
    key_query: Option<&'static str>,
    /// The other schemes' credentials: name, place, value.
    credentials: Vec<(&'static str, Place, String)>,
    default_base_url: String,
    base_url: Option<String>,
    origin: Option<String>,
    base_url_from_env: bool,
    /// The declared server chosen with `server`, else the default.
    server: Option<ServerUrl>,
    operation_servers: OperationServers,
    env_names: EnvNames,
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

/// The environment variables the API's crate reads its key and base URL from (its `API_KEY_ENV`
/// and `BASE_URL_ENV`): each generated crate names its own, after its API.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct EnvNames {
    api_key: Option<&'static str>,
    base_url: Option<&'static str>,
}

/// The limits a user sets on the builder: the cap and the fixed rate off by default, the
/// adaptive rate on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Limits {
    pub(super) max_in_flight: Option<usize>,
    pub(super) endpoint_rate: Option<f64>,
    pub(super) adaptive_rate: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_in_flight: None,
            endpoint_rate: None,
            adaptive_rate: true,
        }
    }
}

impl<C> Clone for ClientBuilder<C> {
    fn clone(&self) -> Self {
        Self {
            api_key: self.api_key.clone(),
            auth_scheme: self.auth_scheme,
            key_scheme: self.key_scheme,
            key_query: self.key_query,
            credentials: self.credentials.clone(),
            default_base_url: self.default_base_url.clone(),
            base_url: self.base_url.clone(),
            origin: self.origin.clone(),
            base_url_from_env: self.base_url_from_env,
            server: self.server.clone(),
            operation_servers: self.operation_servers.clone(),
            env_names: self.env_names,
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
            KeySource::Env => self.env_names.api_key.unwrap_or("<no variable named>"),
        };
        // Header values may be credentials of their own: names only.
        let headers: Vec<&str> = self
            .default_headers
            .iter()
            .map(|(n, _)| n.as_str())
            .collect();
        // The other schemes' credentials: their names only.
        let credentials: Vec<&str> = self.credentials.iter().map(|(name, ..)| *name).collect();
        f.debug_struct("ClientBuilder")
            .field("api_key", &api_key)
            .field("auth_scheme", &self.auth_scheme)
            .field("key_scheme", &self.key_scheme)
            .field("key_query", &self.key_query)
            .field("credentials", &credentials)
            .field("default_base_url", &self.default_base_url)
            .field("base_url", &self.base_url)
            .field("origin", &self.origin)
            .field("base_url_from_env", &self.base_url_from_env)
            .field("server", &self.server)
            .field("operation_servers", &self.operation_servers)
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
            key_scheme: None,
            key_query: None,
            credentials: Vec::new(),
            default_base_url: default_base_url.into(),
            base_url: None,
            origin: None,
            base_url_from_env: false,
            server: None,
            operation_servers: OperationServers::default(),
            env_names: EnvNames::default(),
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

    /// The API key (for HTTP basic, `user:password`) to send as
    /// [`auth_scheme`](Self::auth_scheme) says: in `Authorization` by default. Without one,
    /// requests go out unauthenticated.
    #[must_use]
    pub fn api_key(mut self, api_key: impl Into<String>) -> Self {
        self.api_key = KeySource::Given(api_key.into());
        self
    }

    /// Reads the API key from the crate's `API_KEY_ENV` variable (see
    /// [`env_names`](Self::env_names)) when the client is built; [`build`](Self::build) fails if
    /// it is unset.
    #[must_use]
    pub fn api_key_from_env(mut self) -> Self {
        self.api_key = KeySource::Env;
        self
    }

    /// The environment variables [`api_key_from_env`](Self::api_key_from_env) and
    /// [`base_url_from_env`](Self::base_url_from_env) read: a generated crate's
    /// `Client::builder()` sets its own (`client::API_KEY_ENV`, `client::BASE_URL_ENV`, named
    /// after its API). Without them, reading either from the environment fails the build.
    #[must_use]
    pub fn env_names(mut self, api_key: &'static str, base_url: &'static str) -> Self {
        self.env_names = EnvNames {
            api_key: Some(api_key),
            base_url: Some(base_url),
        };
        self
    }

    /// How to present the key: `Authorization: Bearer <key>` (the default), another
    /// `Authorization` scheme, or a header or cookie of its own; a generated crate's
    /// `Client::builder()` sets what its document's `securitySchemes` declare.
    #[must_use]
    pub fn auth_scheme(mut self, scheme: AuthScheme) -> Self {
        self.auth_scheme = scheme;
        self.key_query = None;
        self
    }

    /// The API key is the credential of the document's security scheme `scheme`, sent where
    /// `place` says (an operation whose requirements name `scheme` is met by the key). Set by a
    /// generated crate's `Client::builder()` when its operations differ in what they need.
    #[doc(hidden)]
    #[must_use]
    pub fn key_scheme(mut self, scheme: &'static str, place: Place) -> Self {
        self.key_scheme = Some(scheme);
        match place {
            Place::Auth(auth) => {
                self.auth_scheme = auth;
                self.key_query = None;
            }
            Place::Query(name) => self.key_query = Some(name),
        }
        self
    }

    /// The credential of the document's security scheme `scheme`, sent where `place` says to
    /// each operation whose requirement it meets; for the scheme of
    /// [`key_scheme`](Self::key_scheme), the API key. What a generated crate's typed credential
    /// setters call. Registered with the scrubber and never shown, like the key.
    #[doc(hidden)]
    #[must_use]
    pub fn credential(
        mut self,
        scheme: &'static str,
        place: Place,
        value: impl Into<String>,
    ) -> Self {
        if self.key_scheme == Some(scheme) {
            self.api_key = KeySource::Given(value.into());
            return self;
        }
        self.credentials.retain(|(held, ..)| *held != scheme);
        self.credentials.push((scheme, place, value.into()));
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

    /// The origin (`https://api.example.test`) a relative server URL of the document
    /// (`/api/v2`, the default base URL or one of `client::servers`) is resolved against: the
    /// document leaves it to whoever deploys the API. Ignored when the default is absolute, and
    /// when [`base_url`](Self::base_url) gives a whole base URL.
    #[must_use]
    pub fn origin(mut self, origin: impl Into<String>) -> Self {
        self.origin = Some(origin.into());
        self
    }

    /// Sends every operation without servers of its own to `server`, one of the document's
    /// (`client::servers`: a constant, or a server builder with its variables set) instead of
    /// the first; a relative one is resolved against [`origin`](Self::origin). A whole
    /// [`base_url`](Self::base_url) (or one from the environment) wins over it.
    #[must_use]
    pub fn server(mut self, server: impl Into<ServerUrl>) -> Self {
        self.server = Some(server.into());
        self
    }

    /// Sends `operation` (its method's name, `upload_file`) to `server` instead of the server
    /// the document gives it (its path's or its own `servers`): a whole URL or a
    /// [`ServerUrl`]. Only an operation with servers of its own can be sent elsewhere;
    /// [`build`](Self::build) refuses any other name. The client's credentials go with it only
    /// to the client's own origin or one named with [`send_credentials_to`](Self::send_credentials_to).
    #[must_use]
    pub fn operation_server(
        mut self,
        operation: &'static str,
        server: impl Into<ServerUrl>,
    ) -> Self {
        self.operation_servers
            .overrides
            .push((operation, server.into()));
        self
    }

    /// Also sends the client's credentials (the API key and the default headers) to `origin`
    /// (`https://uploads.example.test`) when an operation's own server is there. Without it,
    /// an operation whose server is of another origin than the client's base URL is refused
    /// before sending when its security would send a credential ([`Error::InvalidRequest`]),
    /// and sent without the default headers otherwise: a document (or a server variable) does
    /// not decide where a key goes.
    #[must_use]
    pub fn send_credentials_to(mut self, origin: impl Into<String>) -> Self {
        self.operation_servers.trusted.push(origin.into());
        self
    }

    /// The operations (by method name) the document sends to servers of their own, each with
    /// its first server, variables at their defaults: a generated crate's `Client::builder()`
    /// sets them.
    #[doc(hidden)]
    #[must_use]
    pub fn operation_servers(mut self, declared: &'static [(&'static str, &'static str)]) -> Self {
        self.operation_servers.declared = declared;
        self
    }

    /// Uses the crate's `BASE_URL_ENV` variable (see [`env_names`](Self::env_names)) as the base
    /// URL when the client is built, if it is set and not empty; otherwise the base URL set with
    /// [`base_url`](Self::base_url), or the default.
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

    /// Whether a 429 also slows the endpoint down; default: on. After a 429 every request to
    /// the endpoint waits until the server's time has passed (plus up to a fifth more, at most
    /// a second), then the endpoint's rate is cut to 0.7× what the server admitted in the
    /// second before (at least one request per 2 s) and climbs back along CUBIC's curve: at
    /// that level again ∛(0.75 × rate) seconds after the 429 (under a second after a lone
    /// request, about 3.3 s at 50 requests/s) however the requests come, and higher while
    /// they keep coming. A caller sending one request at a time is held about 1.4 s once,
    /// then less each time, and no longer noticeably after about 4 s.
    ///
    /// Off, a 429 still pauses the endpoint but sets no rate; an
    /// [`endpoint_rate_limit`](Self::endpoint_rate_limit) still applies.
    #[must_use]
    pub fn adaptive_rate(mut self, on: bool) -> Self {
        self.limits.adaptive_rate = on;
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
    pub(super) fn build_with_env(self, env: impl Fn(&str) -> Option<OsString>) -> Result<C, Error> {
        let key = match self.api_key {
            KeySource::None => None,
            KeySource::Given(key) => Some(key),
            KeySource::Env => {
                let name = self.env_names.api_key.ok_or_else(|| {
                    Error::InvalidRequest(
                        "no environment variable is named for the API key (see `env_names`)"
                            .to_owned(),
                    )
                })?;
                Some(env_string(&env, name)?.ok_or_else(|| {
                    Error::InvalidRequest(format!("environment variable {name} is not set"))
                })?)
            }
        };
        let key_place = match self.key_query {
            Some(name) => Place::Query(name),
            None => Place::Auth(self.auth_scheme),
        };
        let api_key = key
            .as_deref()
            .map(|key| ApiKey::placed(key, key_place))
            .transpose()?;
        let named = self
            .credentials
            .iter()
            .map(|(scheme, place, value)| {
                // The value is not echoed: only which scheme's credential is refused.
                let credential = ApiKey::placed(value, *place).map_err(|_| {
                    Error::InvalidRequest(format!(
                        "the credential of security scheme `{scheme}` is empty or cannot be \
                         sent where the scheme puts it"
                    ))
                })?;
                Ok((*scheme, credential))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let credentials = Credentials {
            key: api_key,
            key_scheme: self.key_scheme,
            named,
        };
        let from_env = match (self.base_url_from_env, self.env_names.base_url) {
            (true, Some(name)) => env_string(&env, name)?.filter(|url| !url.is_empty()),
            (true, None) => {
                return Err(Error::InvalidRequest(
                    "no environment variable is named for the base URL (see `env_names`)"
                        .to_owned(),
                ));
            }
            (false, _) => None,
        };
        // A whole base URL (a test server, a proxy) is where every operation goes.
        let whole = from_env.or(self.base_url);
        let overridden = whole.is_some();
        let chosen = match (whole, &self.server) {
            (Some(url), _) => url,
            (None, Some(server)) => resolve_default(&server.url()?, self.origin.as_deref())?,
            (None, None) => resolve_default(&self.default_base_url, self.origin.as_deref())?,
        };
        let base_url = normalise_base_url(&chosen)?;
        let routes = self.operation_servers.resolve(
            &base_url,
            self.origin.as_deref(),
            overridden,
            normalise_base_url,
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
                credentials,
                retry: self.retry,
                connect_timeout: self.connect_timeout,
                timeout: self.timeout,
                default_headers,
                request_id_header,
                max_response_bytes: self.max_response_bytes,
                traffic: Arc::new(Traffic::new(
                    self.limits.max_in_flight,
                    self.limits.endpoint_rate,
                    self.limits.adaptive_rate,
                )),
                limits: self.limits,
                interceptors: self.interceptors.into(),
                server_address,
                server_port,
                routes: Arc::new(routes),
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

/// The document's default base URL, a relative one (`/api/v2`) joined to `origin`; a relative
/// one without an origin is refused with what to set (the message shows the document's URL,
/// never the user's).
fn resolve_default(default: &str, origin: Option<&str>) -> Result<String, Error> {
    let relative = !default.is_empty() && reqwest::Url::parse(default).is_err();
    if !relative {
        return Ok(default.to_owned());
    }
    let Some(origin) = origin else {
        return Err(Error::InvalidRequest(format!(
            "the document's server URL {default:?} is relative: set the origin it is relative \
             to with `origin(..)`, or a whole base URL with `base_url(..)`"
        )));
    };
    Ok(resolve_relative(default, origin))
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
