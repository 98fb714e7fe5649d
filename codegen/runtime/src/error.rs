//! The error type every API call returns, and the parsing of Baseten's JSON error bodies.

// Without the HTTP client, only the variants and helpers that need no response are reachable.
#![cfg_attr(not(feature = "client"), allow(dead_code))]

use std::fmt;
use std::time::Duration;

use crate::server_text::{ServerText, escape_unprintable};

/// Longest body excerpt (in characters) an error message quotes; bodies can
/// be whole HTML error pages, which would swamp a log line.
const EXCERPT_CHARS: usize = 200;

/// Everything that can go wrong when calling the API.
///
/// Every variant's `Display` is one line, bounded in length, and never
/// contains the API key (the key only ever travels in the `Authorization`
/// header, which no error captures). `Debug` never shows the key either:
/// every text a server sent is held as [`ServerText`], scrubbed of the key
/// when it was received, and shown with control and format characters escaped.
///
/// Marked `#[non_exhaustive]` because later versions may add variants; match
/// with a `_` arm.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use baseten_api::Error;
///
/// let fake = baseten_api::mock::FakeBaseten::start().await;
/// let gone = baseten_api::mock::ErrorReply::new("NOT_FOUND", "no such model");
/// fake.on_get_model("gone").respond_error(404, &gone).await;
///
/// match fake.client()?.get_model("gone").await {
///     // A code compares with a `&str` as it is: no allocation.
///     Err(error) if error.is_not_found() => assert_eq!(error.code(), Some("NOT_FOUND")),
///     Err(other) => return Err(other.into()), // rate limits, timeouts, decoding, …
///     Ok(model) => panic!("the fake answered {model:?}"),
/// }
///
/// // Or the fields themselves: `code` is `ServerText`, which compares with `&str`.
/// let error = fake.client()?.get_model("gone").await.err();
/// assert!(matches!(&error, Some(Error::Api { code: Some(code), .. }) if code == "NOT_FOUND"));
///
/// // Or the whole body as a type: the document's error model, or Baseten's `ErrorReply`.
/// let model = error.and_then(|error| error.error_model::<baseten_api::mock::ErrorReply>());
/// assert_eq!(model, Some(gone));
/// # Ok(()) }
/// ```

#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The server answered `429 Too Many Requests`, and either retries are
    /// off, every attempt was used up, the retry budget is spent, or the server
    /// asked for a longer wait than
    /// [`RetryPolicy::max_retry_after`](crate::RetryPolicy::max_retry_after)
    /// allows.
    RateLimited {
        /// How long the server asked to wait before trying again (its body's
        /// `retry_after` or else its `Retry-After` header), if it said.
        retry_after: Option<Duration>,
        /// How many requests were sent, the last one included.
        attempts: u32,
        /// The last response's complete body, decoded as UTF-8 (invalid
        /// bytes are replaced with U+FFFD), scrubbed of the API key.
        body: ServerText,
    },

    /// The server answered with a status outside 200–299 (other than 429,
    /// which is [`Error::RateLimited`]).
    ///
    /// Baseten's JSON error bodies are picked apart where present:
    /// `{"code": ..., "message": ...}`, `{"detail": ...}` and
    /// `{"error": ...}` (whose text lands in `message`). Anything else, such
    /// as a proxy's HTML error page, is only in `body`.
    Api {
        /// The HTTP status code.
        status: u16,
        /// The body's `code` string, e.g. `PERMISSION_DENIED`.
        code: Option<ServerText>,
        /// The body's `message` string, or else its `error` string.
        message: Option<ServerText>,
        /// The body's `detail`: the string itself, or compact JSON when the
        /// server sent a structure (validation errors list their fields).
        detail: Option<ServerText>,
        /// The server's id for the request (the `x-request-id` response header, or the one
        /// the client was configured with), for a support ticket or the server's logs.
        request_id: Option<ServerText>,
        /// The complete response body, decoded as UTF-8 (invalid bytes are
        /// replaced with U+FFFD), scrubbed of the API key.
        body: ServerText,
    },

    /// The server answered 2xx, but the body is not the JSON the operation
    /// expects.
    Decode {
        /// The JSON path of the value that failed (`metric_values[3].values[1][0]`), `.` for
        /// the document as a whole; its map keys are the server's.
        path: ServerText,
        /// What kind of failure serde_json saw: syntax, end of input, or data of the wrong
        /// shape.
        category: serde_json::error::Category,
        /// The path and what serde_json objected to, scrubbed of the API key (serde quotes
        /// offending values, and a server may echo the key).
        message: ServerText,
        /// The start of the body, on one line and at most about 200
        /// characters, so the error stays loggable; scrubbed of the API key.
        body_excerpt: ServerText,
    },

    /// The response body is longer than the client reads
    /// ([`ClientBuilder::max_response_bytes`](crate::ClientBuilder::max_response_bytes)); it
    /// was not read to its end.
    ResponseTooLarge {
        /// The cap in force.
        limit_bytes: u64,
    },

    /// No complete response arrived within the client's connect or request
    /// timeout, on every attempt made.
    Timeout {
        /// How many requests were sent, the last one included.
        attempts: u32,
    },

    /// The request could not be sent or the response could not be read
    /// (DNS, TLS, connection refused or reset, a body cut short, ...).
    ///
    /// `Display` is one line with the whole cause chain (`error sending request for url (…):
    /// client error (Connect): tcp connect error: Connection refused (os error 111)`), since
    /// reqwest's own message names only the first link. The URL reqwest keeps (shown by
    /// `Display`, `Debug` and the error's `source()`) has its secret-looking query values and
    /// every live key redacted before the error is made, and `Display` is scrubbed again whole:
    /// a key sent as a query value (`?api-key=…`) is never shown.
    #[cfg(feature = "client")]
    Transport(reqwest::Error),

    /// The server redirected the request to another origin (scheme, host or port) than the one
    /// it was sent to. The client follows redirects only within the origin, where its
    /// credentials (the `Authorization` header, default headers, header parameters, a key in
    /// the query) may go; nothing was sent to `location`.
    RedirectRefused {
        /// The redirect's status (301, 302, 303, 307 or 308; for a reqwest client brought with
        /// [`ClientBuilder::http_client`](crate::ClientBuilder::http_client) that followed the
        /// redirect itself, the status of the response it reached).
        status: u16,
        /// Where the server pointed, with secret-looking query values and every live key
        /// redacted.
        location: ServerText,
    },

    /// A check on the client side failed before anything was sent, for
    /// example a path parameter that cannot be a URL segment or an API key
    /// that is not a valid header value. The message never repeats secrets, and `Display`
    /// scrubs it of every live key all the same.
    InvalidRequest(String),

    /// A value a layer above the client checks was refused before anything was sent: a metrics
    /// window longer than the API allows, or with its start not before its end; a parameter
    /// holding NaN or ±∞ ([`NonFinite`](crate::NonFinite), naming it), which has no wire form;
    /// or a lookup the caller made in a valid response asked for one match where there are
    /// several (an ambiguous lookup). The layer's own
    /// error stays a type: that layer's `of` (`WindowError::of(&error)`) or
    /// [`InvalidArgument::downcast_ref`] reads it back.
    InvalidArgument(InvalidArgument),

    /// A page says there is more but names no cursor, or a cursor already followed: the
    /// next request would loop, so none is sent.
    PaginationStalled {
        /// The cursor the page named, if any.
        cursor: Option<ServerText>,
    },

    /// The server answered 2xx with JSON of the right type, but not with an answer to the
    /// request that was sent, by the rules of the layer that sent it (for a metrics request:
    /// another mode than the one asked for, the wrong number of value sets, misaligned values).
    /// [`InvalidResponse::downcast_ref`] gives that layer's own error.
    InvalidResponse(InvalidResponse),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::RateLimited {
                retry_after,
                attempts,
                ..
            } => write!(
                f,
                "{}",
                RateLimitedDisplay {
                    retry_after: *retry_after,
                    attempts: *attempts,
                }
            ),
            Self::Api {
                status,
                code,
                message,
                detail,
                body,
                ..
            } => write!(
                f,
                "{}",
                ApiDisplay {
                    status: *status,
                    code: code.as_ref(),
                    message: message.as_ref(),
                    detail: detail.as_ref(),
                    body,
                }
            ),
            Self::Decode {
                message,
                body_excerpt,
                ..
            } => write!(
                f,
                "response body is not the expected JSON: {message} (body: {body_excerpt})"
            ),
            Self::ResponseTooLarge { limit_bytes } => write!(
                f,
                "response body is longer than the {limit_bytes} bytes this client reads"
            ),
            Self::Timeout { attempts } => {
                write!(f, "request timed out after {}", Attempts(*attempts))
            }
            #[cfg(feature = "client")]
            Self::Transport(source) => write!(
                f,
                "HTTP transport failed: {}",
                ServerText::new(CauseChain(source).to_string())
            ),
            Self::RedirectRefused { status, location } => write!(
                f,
                "HTTP {status}: redirect to another origin not followed, nothing sent there: {location}"
            ),
            Self::InvalidRequest(message) => {
                write!(f, "invalid request: {}", ServerText::new(message.as_str()))
            }
            Self::InvalidArgument(source) => write!(f, "invalid argument: {source}"),
            Self::PaginationStalled { cursor } => match cursor {
                Some(cursor) => write!(
                    f,
                    "the server returned cursor {cursor:?} again; paging would never end"
                ),
                None => f.write_str("the server says there are more pages but gives no cursor"),
            },
            Self::InvalidResponse(source) => write!(f, "invalid response: {source}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            #[cfg(feature = "client")]
            Self::Transport(source) => Some(source),
            Self::InvalidArgument(source) => Some(source),
            Self::InvalidResponse(source) => Some(source),
            _ => None,
        }
    }
}

/// A value the layer above the client refused before sending, as that layer judged it: its own
/// error, kept whole.
#[derive(Debug)]
pub struct InvalidArgument(Box<dyn std::error::Error + Send + Sync + 'static>);

impl InvalidArgument {
    /// Wraps a layer's own error.
    pub fn new(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self(Box::new(error))
    }

    /// The layer's error, if it is an `E`.
    #[must_use]
    pub fn downcast_ref<E: std::error::Error + 'static>(&self) -> Option<&E> {
        self.0.downcast_ref()
    }
}

impl fmt::Display for InvalidArgument {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for InvalidArgument {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// Why a 2xx response is not the answer to its request, as the layer above the client judged
/// it: that layer's own error, kept whole.
#[derive(Debug)]
pub struct InvalidResponse(Box<dyn std::error::Error + Send + Sync + 'static>);

impl InvalidResponse {
    /// Wraps a layer's own error.
    pub fn new(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self(Box::new(error))
    }

    /// The layer's error, if it is an `E`.
    #[must_use]
    pub fn downcast_ref<E: std::error::Error + 'static>(&self) -> Option<&E> {
        self.0.downcast_ref()
    }
}

impl fmt::Display for InvalidResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for InvalidResponse {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl Error {
    /// The HTTP status of the response this error came from, if there was
    /// one (`429` for [`Error::RateLimited`]).
    #[must_use]
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::RateLimited { .. } => Some(429),
            Self::Api { status, .. } | Self::RedirectRefused { status, .. } => Some(*status),
            #[cfg(feature = "client")]
            Self::Transport(source) => source.status().map(|status| status.as_u16()),
            Self::Decode { .. }
            | Self::ResponseTooLarge { .. }
            | Self::Timeout { .. }
            | Self::InvalidRequest(_)
            | Self::InvalidArgument(_)
            | Self::PaginationStalled { .. }
            | Self::InvalidResponse(_) => None,
        }
    }

    /// Whether sending the same request again later might succeed: rate
    /// limits, timeouts, connection failures and server errors (5xx other
    /// than `501 Not Implemented`, plus `408 Request Timeout`).
    ///
    /// The client already retries on these errors as its
    /// [`RetryPolicy`](crate::RetryPolicy) allows (every method after a 429, a 503 naming its
    /// wait or a connection never made; only idempotent ones, unless opted in, after the
    /// others); this is for callers deciding what to do once it has given up, or with a
    /// non-idempotent request (where a retry may repeat a side effect).
    #[must_use]
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::RateLimited { .. } | Self::Timeout { .. } => true,
            Self::Api { status, .. } => retryable_status(*status),
            #[cfg(feature = "client")]
            Self::Transport(source) => retryable_transport(source),
            Self::Decode { .. }
            | Self::ResponseTooLarge { .. }
            | Self::InvalidRequest(_)
            | Self::InvalidArgument(_)
            | Self::PaginationStalled { .. }
            | Self::RedirectRefused { .. }
            | Self::InvalidResponse(_) => false,
        }
    }

    /// The body of an [`Error::Api`] (or [`Error::RateLimited`]) decoded as the error model
    /// `E`: the type the document declares for that status, Baseten's `{"code", "message"}`,
    /// or a type of your own. `None` for any other error, or a body that is not an `E` (a
    /// proxy's HTML page). The body is the one the error holds, scrubbed of the API key.
    ///
    /// ```
    /// # fn main() -> Result<(), serde_json::Error> {
    /// # use baseten_runtime::{Error, ServerText};
    /// // In baseten-api: `use baseten_api::{Error, error::ServerText};`.
    /// let error = Error::Api {
    ///     status: 404,
    ///     code: None,
    ///     message: None,
    ///     detail: None,
    ///     request_id: None,
    ///     body: ServerText::new(r#"{"code": "NOT_FOUND", "message": "no such model"}"#),
    /// };
    /// let model: Option<serde_json::Value> = error.error_model();
    /// assert_eq!(model.as_ref().and_then(|body| body["code"].as_str()), Some("NOT_FOUND"));
    /// assert_eq!(Error::Timeout { attempts: 1 }.error_model::<serde_json::Value>(), None);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn error_model<E: serde_core::de::DeserializeOwned>(&self) -> Option<E> {
        match self {
            Self::Api { body, .. } | Self::RateLimited { body, .. } => {
                serde_json::from_str(body.as_str()).ok()
            }
            _ => None,
        }
    }

    /// The error body's `code` (`NOT_FOUND`, `PERMISSION_DENIED`, …) of an [`Error::Api`], as
    /// text to compare: `error.code() == Some("NOT_FOUND")` allocates nothing.
    #[must_use]
    pub fn code(&self) -> Option<&str> {
        match self {
            Self::Api {
                code: Some(code), ..
            } => Some(code.as_str()),
            _ => None,
        }
    }

    /// Whether the server answered `404 Not Found`: no such model, deployment, environment, …
    #[must_use]
    pub fn is_not_found(&self) -> bool {
        self.api_status() == Some(404)
    }

    /// Whether the server answered `409 Conflict`: the resource's state does not allow the
    /// change (a name taken, a deployment already promoting, …).
    #[must_use]
    pub fn is_conflict(&self) -> bool {
        self.api_status() == Some(409)
    }

    /// Whether the server answered `401 Unauthorized`: the API key is missing, wrong or
    /// revoked. (`403 Forbidden`, a key without the permission, is [`status`](Self::status)
    /// `Some(403)`.)
    #[must_use]
    pub fn is_unauthorized(&self) -> bool {
        self.api_status() == Some(401)
    }

    /// Whether the server answered `429 Too Many Requests` and the client gave up waiting
    /// ([`Error::RateLimited`]).
    #[must_use]
    pub fn is_rate_limited(&self) -> bool {
        matches!(self, Self::RateLimited { .. })
    }

    /// The status of an [`Error::Api`]: an answer from the server, not a transport's.
    fn api_status(&self) -> Option<u16> {
        match self {
            Self::Api { status, .. } => Some(*status),
            _ => None,
        }
    }
}

/// Statuses worth another attempt: server trouble that may pass. `501 Not
/// Implemented` is a permanent answer, and 429 is handled separately.
pub(crate) fn retryable_status(status: u16) -> bool {
    status == 408 || ((500..=599).contains(&status) && status != 501)
}

/// Transport failures worth another attempt: the connection could not be
/// made, broke while sending, or broke while reading the body. Not a
/// redirect loop (or too many redirects) or a request reqwest could not even build: those
/// fail the same way every time.
///
/// reqwest reports a body cut short as a "decode" error; the client never
/// has reqwest decode anything (it reads raw bytes and parses them itself),
/// so here that always means the body could not be read.
#[cfg(feature = "client")]
pub(crate) fn retryable_transport(source: &reqwest::Error) -> bool {
    if source.is_redirect() || source.is_builder() {
        return false;
    }
    source.is_connect()
        || source.is_timeout()
        || source.is_request()
        || source.is_body()
        || source.is_decode()
}

/// Writes an error and each of its sources, `: `-separated, skipping a source whose text its
/// predecessor already ends with (hyper and reqwest often repeat their inner error).
#[cfg(feature = "client")]
struct CauseChain<'a>(&'a reqwest::Error);

#[cfg(feature = "client")]
impl fmt::Display for CauseChain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut previous = self.0.to_string();
        f.write_str(&previous)?;
        let mut source = std::error::Error::source(self.0);
        while let Some(cause) = source {
            let text = cause.to_string();
            if !previous.ends_with(&text) {
                write!(f, ": {text}")?;
            }
            previous = text;
            source = cause.source();
        }
        Ok(())
    }
}

/// Writes `1 attempt` / `3 attempts`.
struct Attempts(u32);

impl fmt::Display for Attempts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1 => f.write_str("1 attempt"),
            n => write!(f, "{n} attempts"),
        }
    }
}

/// `rate limited (HTTP 429) after 3 attempts; retry after 1.5s`.
struct RateLimitedDisplay {
    retry_after: Option<Duration>,
    attempts: u32,
}

impl fmt::Display for RateLimitedDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rate limited (HTTP 429) after {}",
            Attempts(self.attempts)
        )?;
        match self.retry_after {
            Some(wait) => write!(f, "; server asked to retry after {wait:?}"),
            None => Ok(()),
        }
    }
}

/// `HTTP 403 PERMISSION_DENIED: <message>`, falling back to the detail and
/// then to an excerpt of the raw body; always one bounded line.
struct ApiDisplay<'a> {
    status: u16,
    code: Option<&'a ServerText>,
    message: Option<&'a ServerText>,
    detail: Option<&'a ServerText>,
    body: &'a ServerText,
}

impl fmt::Display for ApiDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HTTP {}", self.status)?;
        if let Some(code) = self.code {
            write!(f, " {}", excerpt(code))?;
        }
        let text = self.message.or(self.detail);
        match (text, self.code) {
            (Some(text), _) => write!(f, ": {}", excerpt(text)),
            // The code alone says what went wrong.
            (None, Some(_)) => Ok(()),
            (None, None) => write!(f, ": {}", excerpt(self.body)),
        }
    }
}

/// What a JSON error body says, where it is a JSON object at all.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct ErrorBody {
    pub(crate) code: Option<String>,
    pub(crate) message: Option<String>,
    pub(crate) detail: Option<String>,
    /// The body's `retry_after`, in seconds (fractions allowed).
    pub(crate) retry_after: Option<Duration>,
}

impl ErrorBody {
    /// Picks the known fields out of `bytes`; anything that is not a JSON
    /// object (an HTML page, plain text, nothing) gives all `None`.
    pub(crate) fn parse(bytes: &[u8]) -> Self {
        let Ok(serde_json::Value::Object(object)) =
            serde_json::from_slice::<serde_json::Value>(bytes)
        else {
            return Self::default();
        };
        let string = |name: &str| match object.get(name) {
            Some(serde_json::Value::String(text)) => Some(text.clone()),
            _ => None,
        };
        let detail = match object.get("detail") {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(text)) => Some(text.clone()),
            Some(other) => Some(other.to_string()),
        };
        Self {
            code: string("code"),
            message: string("message").or_else(|| string("error")),
            detail,
            retry_after: object.get("retry_after").and_then(retry_after_value),
        }
    }
}

/// A `retry_after` JSON value: a non-negative number of seconds, or a
/// string holding one (or an HTTP date).
fn retry_after_value(value: &serde_json::Value) -> Option<Duration> {
    match value {
        serde_json::Value::Number(number) => number.as_f64().and_then(seconds),
        serde_json::Value::String(text) => parse_retry_after(text, std::time::SystemTime::now()),
        _ => None,
    }
}

/// A `Retry-After` value as a wait from `now`: seconds, whole or fractional (`1`, `0.25`), or an
/// HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`; one in the past is no wait). A number too large
/// for a `Duration` is [`Duration::MAX`], so that it is over any cap and reported rather than
/// dropped. Anything else (negative, `inf`, `1e3`, garbage) is `None`.
pub(crate) fn parse_retry_after(text: &str, now: std::time::SystemTime) -> Option<Duration> {
    let text = text.trim();
    let plain_decimal = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && text.bytes().any(|b| b.is_ascii_digit());
    if plain_decimal {
        // 400 nines parse as infinity: absurdly large, not invalid.
        return text.parse::<f64>().ok().map(|value| {
            if value.is_finite() {
                seconds(value).unwrap_or(Duration::MAX)
            } else {
                Duration::MAX
            }
        });
    }
    let date = httpdate_parse(text)?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(feature = "client")]
fn httpdate_parse(text: &str) -> Option<std::time::SystemTime> {
    httpdate::parse_http_date(text).ok()
}

#[cfg(not(feature = "client"))]
fn httpdate_parse(_: &str) -> Option<std::time::SystemTime> {
    None
}

/// Non-negative finite seconds as a `Duration`; too large for one is [`Duration::MAX`].
fn seconds(value: f64) -> Option<Duration> {
    if value.is_finite() && value >= 0.0 {
        Some(Duration::try_from_secs_f64(value).unwrap_or(Duration::MAX))
    } else {
        None
    }
}

/// Shortens `text` for an error message: runs of whitespace (line breaks
/// too) become single spaces (so the message stays one line), other control
/// characters and format characters (ESC, bidi overrides, zero-width spaces)
/// are escaped (`\u{1b}`), and at most
/// [`EXCERPT_CHARS`] characters are kept. Counting `char`s rather than bytes
/// means the cut always falls on a character boundary.
pub(crate) fn excerpt(text: &str) -> String {
    let mut out = String::new();
    let mut kept = 0;
    let mut pending_space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            pending_space = !out.is_empty();
            continue;
        }
        let mut buffer = [0; 4];
        let shown = escape_unprintable(c.encode_utf8(&mut buffer));
        let width = shown.chars().count();
        if kept + width + usize::from(pending_space) > EXCERPT_CHARS {
            out.push('…');
            return out;
        }
        if pending_space {
            out.push(' ');
            kept += 1;
            pending_space = false;
        }
        out.push_str(&shown);
        kept += width;
    }
    if out.is_empty() {
        out.push_str("(empty body)");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `source()` is the wrapped error of the variants that wrap one, and nothing else's.
    #[test]
    fn source_is_the_wrapped_error() {
        use std::error::Error as _;
        let layers = || std::io::Error::other("a layer's own error");
        let source = |error: &Error| error.source().map(ToString::to_string);
        let argument = Error::InvalidArgument(InvalidArgument::new(layers()));
        assert_eq!(source(&argument), Some(layers().to_string()));
        let response = Error::InvalidResponse(InvalidResponse::new(layers()));
        assert_eq!(source(&response), Some(layers().to_string()));
        #[cfg(feature = "client")]
        {
            let refused = || {
                reqwest::Client::new()
                    .get("not a url")
                    .build()
                    .expect_err("no scheme")
            };
            let transport = Error::Transport(refused());
            assert_eq!(source(&transport), Some(refused().to_string()));
        }
        assert_eq!(source(&Error::Timeout { attempts: 1 }), None);
        assert_eq!(source(&Error::InvalidRequest("x".to_owned())), None);
    }

    #[test]
    fn status_predicates_read_the_servers_answer_only() {
        let predicates = |error: &Error| {
            [
                error.is_not_found(),
                error.is_conflict(),
                error.is_unauthorized(),
                error.is_rate_limited(),
            ]
        };
        assert_eq!(predicates(&api(404, "{}")), [true, false, false, false]);
        assert_eq!(predicates(&api(409, "{}")), [false, true, false, false]);
        assert_eq!(predicates(&api(401, "{}")), [false, false, true, false]);
        for status in [200, 400, 403, 405, 410, 500] {
            assert_eq!(predicates(&api(status, "{}")), [false; 4], "{status}");
        }
        let limited = Error::RateLimited {
            retry_after: None,
            attempts: 1,
            body: ServerText::default(),
        };
        assert_eq!(predicates(&limited), [false, false, false, true]);
        for other in [
            Error::InvalidRequest("404".into()),
            Error::Timeout { attempts: 1 },
            Error::PaginationStalled { cursor: None },
        ] {
            assert_eq!(predicates(&other), [false; 4], "{other}");
        }
    }

    #[test]
    fn code_is_the_bodys_code_without_allocating() {
        let error = api(404, r#"{"code": "NOT_FOUND", "message": "gone"}"#);
        assert_eq!(error.code(), Some("NOT_FOUND"));
        assert_eq!(api(404, r#"{"message": "gone"}"#).code(), None);
        assert_eq!(Error::InvalidRequest("NOT_FOUND".into()).code(), None);
    }

    #[test]
    fn invalid_argument_keeps_its_error() {
        #[derive(Debug, PartialEq, thiserror::Error)]
        #[error("too long by {0}")]
        struct TooLong(u32);
        let error = Error::InvalidArgument(InvalidArgument::new(TooLong(3)));
        assert_eq!(error.to_string(), "invalid argument: too long by 3");
        let Error::InvalidArgument(invalid) = &error else {
            unreachable!()
        };
        assert_eq!(invalid.downcast_ref::<TooLong>(), Some(&TooLong(3)));
        assert!(invalid.downcast_ref::<std::fmt::Error>().is_none());
        assert!(std::error::Error::source(invalid).is_none());
        assert!(!error.is_retryable());
        assert_eq!(error.status(), None);
    }

    fn api(status: u16, body: &str) -> Error {
        let parsed = ErrorBody::parse(body.as_bytes());
        Error::Api {
            status,
            code: parsed.code.map(ServerText::new),
            message: parsed.message.map(ServerText::new),
            detail: parsed.detail.map(ServerText::new),
            request_id: None,
            body: ServerText::new(body),
        }
    }

    /// The name of `error`'s variant; exhaustive, so a variant added to `Error` stops this
    /// compiling until the test below builds it too.
    fn variant(error: &Error) -> &'static str {
        match error {
            Error::RateLimited { .. } => "RateLimited",
            Error::Api { .. } => "Api",
            Error::Decode { .. } => "Decode",
            Error::ResponseTooLarge { .. } => "ResponseTooLarge",
            Error::Timeout { .. } => "Timeout",
            #[cfg(feature = "client")]
            Error::Transport(_) => "Transport",
            Error::InvalidRequest(_) => "InvalidRequest",
            Error::InvalidArgument(_) => "InvalidArgument",
            Error::PaginationStalled { .. } => "PaginationStalled",
            Error::RedirectRefused { .. } => "RedirectRefused",
            Error::InvalidResponse(_) => "InvalidResponse",
        }
    }

    /// A layer's reason for an invalid response, quoting server text as layers must.
    #[derive(Debug, thiserror::Error)]
    #[error("the response names {0}")]
    struct Quoting(ServerText);

    /// Text holding `key` raw, percent-encoded in lower case, Debug-quoted and JSON-escaped.
    fn echoing(key: &str) -> String {
        let lower: String = key.bytes().map(|b| format!("%{b:02x}")).collect();
        let json: String = key
            .chars()
            .map(|c| format!("\\u{:04x}", u32::from(c)))
            .collect();
        format!("{key} {lower} {key:?} {json}")
    }

    /// Asserts that neither `Display` nor `Debug` of `error` holds `key` in a form of
    /// [`echoing`].
    fn assert_free_of(key: &str, name: &str, error: &dyn std::error::Error) {
        let shown = format!("{error} {error:?}");
        let lower: String = key.bytes().map(|b| format!("%{b:02x}")).collect();
        let json: String = key
            .chars()
            .map(|c| format!("\\u{:04x}", u32::from(c)))
            .collect();
        for form in [key, &lower, &json] {
            assert!(!shown.contains(form), "{name}: {form} in {shown}");
        }
    }

    /// Every variant that can hold server text, holding a registered key echoed in several
    /// forms, shows none of them in `Display` or `Debug` (`Transport` needs a live request; the
    /// integration tests provoke it, and every variant of the metrics layer's errors).
    #[test]
    fn no_variant_shows_a_registered_key() {
        let key = "unit-test-key-Hq9.Zz";
        let _registered = crate::server_text::RegisteredSecret::new(key);
        let text = || ServerText::new(echoing(key));
        let errors = [
            Error::RateLimited {
                retry_after: None,
                attempts: 1,
                body: text(),
            },
            Error::Api {
                status: 403,
                code: Some(text()),
                message: Some(text()),
                detail: Some(text()),
                request_id: Some(text()),
                body: text(),
            },
            Error::Decode {
                path: text(),
                category: serde_json::error::Category::Data,
                message: text(),
                body_excerpt: ServerText::new(excerpt(&text())),
            },
            Error::ResponseTooLarge { limit_bytes: 1 },
            Error::Timeout { attempts: 1 },
            Error::InvalidRequest("path parameter `id` is empty".to_owned()),
            Error::InvalidArgument(InvalidArgument::new(Quoting(text()))),
            Error::PaginationStalled {
                cursor: Some(text()),
            },
            Error::RedirectRefused {
                status: 302,
                location: text(),
            },
            Error::InvalidResponse(InvalidResponse::new(Quoting(text()))),
        ];
        let mut names: Vec<&str> = errors.iter().map(variant).collect();
        names.dedup();
        assert_eq!(names.len(), errors.len(), "{names:?}");
        for error in &errors {
            assert_free_of(key, variant(error), error);
        }
        assert!(errors[1].to_string().contains("<redacted>"));
    }

    #[test]
    fn error_is_send_sync_static() {
        fn assert_bounds<T: Send + Sync + 'static>() {}
        assert_bounds::<Error>();
    }

    #[test]
    fn excerpt_is_one_line() {
        assert_eq!(excerpt("  {\"a\":\n\t1}\r\n  "), "{\"a\": 1}");
        assert_eq!(excerpt(""), "(empty body)");
        assert_eq!(excerpt(" \n "), "(empty body)");
        assert_eq!(
            excerpt("a\u{1b}[2J\u{7} \u{202e}b\u{85}\u{2028}c"),
            "a\\u{1b}[2J\\u{7} \\u{202e}b c"
        );
    }

    #[test]
    fn excerpt_cuts_on_char_boundaries() {
        // Multi-byte characters straddle every byte offset near the limit.
        for text in ["é".repeat(500), "日本".repeat(300), "🦀".repeat(250)] {
            let short = excerpt(&text);
            assert!(short.ends_with('…'));
            assert_eq!(short.chars().count(), EXCERPT_CHARS + 1);
        }
        let exact = "x".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exact), exact);
    }

    #[test]
    fn api_display_is_bounded_single_line() {
        let err = api(503, &format!("<html>\n{}\n</html>", "ü".repeat(10_000)));
        let shown = err.to_string();
        assert!(shown.starts_with("HTTP 503: <html> ü"));
        assert!(!shown.contains('\n'));
        assert!(shown.chars().count() < 250);
        assert_eq!(err.status(), Some(503));
        assert!(err.is_retryable());
    }

    #[test]
    fn api_display_prefers_code_and_message() {
        let cases = [
            (
                r#"{"code": "PERMISSION_DENIED", "message": "no access\nto m1"}"#,
                "HTTP 403 PERMISSION_DENIED: no access to m1",
            ),
            (
                r#"{"code": "PERMISSION_DENIED"}"#,
                "HTTP 403 PERMISSION_DENIED",
            ),
            (
                r#"{"detail": "Not authenticated"}"#,
                "HTTP 403: Not authenticated",
            ),
            (
                r#"{"error": "Model not found"}"#,
                "HTTP 403: Model not found",
            ),
            (
                r#"{"detail": [{"loc": ["query"], "msg": "bad"}]}"#,
                r#"HTTP 403: [{"loc":["query"],"msg":"bad"}]"#,
            ),
            (
                r#"{"code": 7, "other": 1}"#,
                r#"HTTP 403: {"code": 7, "other": 1}"#,
            ),
            ("[1, 2]", "HTTP 403: [1, 2]"),
        ];
        for (body, shown) in cases {
            let err = api(403, body);
            assert_eq!(err.to_string(), shown, "{body}");
            assert!(!err.is_retryable());
        }
    }

    #[test]
    fn error_body_fields() {
        let parsed = ErrorBody::parse(br#"{"error": "slow down", "retry_after": 2}"#);
        assert_eq!(parsed.message.as_deref(), Some("slow down"));
        assert_eq!(parsed.retry_after, Some(Duration::from_secs(2)));
        let parsed = ErrorBody::parse(br#"{"retry_after": 0.25, "message": "m", "error": "e"}"#);
        assert_eq!(parsed.message.as_deref(), Some("m"));
        assert_eq!(parsed.retry_after, Some(Duration::from_millis(250)));
        for bad in [
            &br#"{"retry_after": -1}"#[..],
            br#"{"retry_after": "soon"}"#,
            br#"{"retry_after": 1e400}"#,
            br#"{"retry_after": null}"#,
            b"NaN",
            b"<html>",
            b"",
        ] {
            assert_eq!(ErrorBody::parse(bad).retry_after, None);
        }
        assert_eq!(
            ErrorBody::parse(br#"{"retry_after": "3"}"#).retry_after,
            Some(Duration::from_secs(3))
        );
    }

    #[test]
    fn retry_after_takes_seconds_dates_and_absurd_values() {
        use std::time::SystemTime;
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_400); // 07:26:40 GMT
        let parse = |text: &str| parse_retry_after(text, now);
        assert_eq!(parse(" 1 "), Some(Duration::from_secs(1)));
        assert_eq!(parse("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse("0"), Some(Duration::ZERO));
        assert_eq!(parse("90000"), Some(Duration::from_secs(90_000)));
        assert_eq!(parse(&"9".repeat(400)), Some(Duration::MAX));
        assert_eq!(parse("1e300".trim_start_matches('1')), None);
        assert_eq!(parse(&format!("{}.5", "9".repeat(30))), Some(Duration::MAX));
        assert_eq!(
            parse("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::from_secs(80))
        );
        assert_eq!(parse("Wed, 21 Oct 2015 07:00:00 GMT"), Some(Duration::ZERO));
        for bad in ["", "-1", "inf", "NaN", "1e3", ".", "1.2.3", "soon", "-0.5"] {
            assert_eq!(parse(bad), None, "{bad}");
        }
        assert_eq!(seconds(1e300), Some(Duration::MAX));
        assert_eq!(seconds(-1.0), None);
        assert_eq!(
            ErrorBody::parse(br#"{"retry_after": 1e300}"#).retry_after,
            Some(Duration::MAX)
        );
    }

    #[test]
    fn other_displays() {
        let limited = Error::RateLimited {
            retry_after: Some(Duration::from_millis(1500)),
            attempts: 3,
            body: ServerText::default(),
        };
        assert_eq!(
            limited.to_string(),
            "rate limited (HTTP 429) after 3 attempts; server asked to retry after 1.5s"
        );
        assert_eq!(limited.status(), Some(429));
        assert!(limited.is_retryable());
        let limited = Error::RateLimited {
            retry_after: None,
            attempts: 1,
            body: ServerText::default(),
        };
        assert_eq!(
            limited.to_string(),
            "rate limited (HTTP 429) after 1 attempt"
        );
        let timeout = Error::Timeout { attempts: 2 };
        assert_eq!(timeout.to_string(), "request timed out after 2 attempts");
        assert_eq!(timeout.status(), None);
        assert!(timeout.is_retryable());
        assert!(!Error::InvalidRequest(String::new()).is_retryable());
        #[derive(Debug, thiserror::Error)]
        #[error("two value sets, expected one")]
        struct Shape;
        let invalid = Error::InvalidResponse(InvalidResponse::new(Shape));
        assert_eq!(
            invalid.to_string(),
            "invalid response: two value sets, expected one"
        );
        let Error::InvalidResponse(layer) = &invalid else {
            unreachable!()
        };
        assert!(layer.downcast_ref::<Shape>().is_some());
        assert!(layer.downcast_ref::<std::fmt::Error>().is_none());
        assert_eq!(invalid.status(), None);
        assert!(!invalid.is_retryable());
        assert!(!api(501, "").is_retryable());
        assert!(api(408, "").is_retryable());
        assert!(!api(404, "").is_retryable());
    }
}
