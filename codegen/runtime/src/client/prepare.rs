//! A request made ready once for all its attempts: its URL, its headers checked (a hand-built
//! request must not panic the client), the URL its spans show, and how many attempts it may
//! take.

use reqwest::Method;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

use crate::error::Error;
use crate::percent;
use crate::retry::RetryPolicy;
use crate::support::Request;
use crate::telemetry;

/// What every attempt of one request sends the same.
pub(super) struct Prepared {
    /// `{base_url}{path}?{query}`.
    pub(super) url: reqwest::Url,
    pub(super) headers: RequestHeaders,
    /// Whether a failure that may have reached the server (a 5xx, a timeout) may be resent: the
    /// method is idempotent, or the policy opts every method in. What says the request was not
    /// processed (a 429, a 503 with `Retry-After`, no connection) is resent either way.
    pub(super) resend_after_processing: bool,
}

impl Prepared {
    /// Checks `request` and builds what its attempts share; `accept` is the `Accept` header.
    pub(super) fn new(
        request: &Request,
        accept: &str,
        base_url: &str,
        credentials: bool,
        retry: &RetryPolicy,
    ) -> Result<Self, Error> {
        let url = url_for(base_url, request)?;
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
            parameters: parameter_headers(request)?,
            credentials,
        };
        let resend_after_processing =
            is_idempotent(&request.method) || retry.non_idempotent_retries();
        Ok(Self {
            url,
            headers,
            resend_after_processing,
        })
    }

    /// The URL as spans show it (`url.full`): a credential parameter's value is never in it.
    /// Made only for a span that records it: scrubbing costs, and most clients run without a
    /// subscriber.
    pub(super) fn shown_url(&self, request: &Request) -> String {
        let mut shown = self.url.clone();
        if let Some(query) = request.params.shown_query_string("REDACTED") {
            shown.set_query(Some(&query));
        }
        telemetry::redacted_url(&shown)
    }
}

/// The per-request headers, validated once for every attempt.
pub(super) struct RequestHeaders {
    pub(super) accept: HeaderValue,
    pub(super) content_type: Option<HeaderValue>,
    /// Header parameters and the `Cookie` header of cookie parameters.
    pub(super) parameters: HeaderMap,
    /// Whether the client's credentials (the key, the default headers) go with the request:
    /// not to an operation's own server of another origin unless the user opted in.
    pub(super) credentials: bool,
}

/// Methods that mean the same whether sent once or several times (RFC 9110 §9.2.2: the safe
/// methods `GET`, `HEAD`, `OPTIONS`, `TRACE`, and `PUT`, `DELETE`), and so may be retried after
/// any failure.
pub(super) fn is_idempotent(method: &Method) -> bool {
    [
        Method::GET,
        Method::HEAD,
        Method::PUT,
        Method::DELETE,
        Method::OPTIONS,
        Method::TRACE,
    ]
    .contains(method)
}

/// `{base_url}{path}?{query}`. The path and the query arrive percent-encoded; the path passes
/// the one path rule ([`percent::check_path`]: no dot segment in any form), and the URL built
/// is checked to be under the base URL's path all the same.
fn url_for(base_url: &str, request: &Request) -> Result<reqwest::Url, Error> {
    percent::check_path(request.operation, &request.path)?;
    let cannot_build = |source: &dyn std::fmt::Display| {
        Error::InvalidRequest(format!(
            "{}: cannot build the request URL: {source}",
            request.operation
        ))
    };
    let mut url = reqwest::Url::parse(&format!("{base_url}{}", request.path))
        .map_err(|source| cannot_build(&source))?;
    let base = reqwest::Url::parse(base_url).map_err(|source| cannot_build(&source))?;
    let under = base.path().trim_end_matches('/');
    let stays = url.origin() == base.origin()
        && url
            .path()
            .strip_prefix(under)
            .is_some_and(|rest| rest.starts_with('/'));
    if !stays {
        return Err(Error::InvalidRequest(format!(
            "{}: the request URL leaves the base URL",
            request.operation
        )));
    }
    // Encoded by the parameters' styles: written as it is, so that each style's delimiters
    // stay literal and the items' own are escaped.
    if let Some(query) = request.params.query_string() {
        url.set_query(Some(&query));
    }
    Ok(url)
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
