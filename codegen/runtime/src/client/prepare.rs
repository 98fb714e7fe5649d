//! A request made ready once for all its attempts: its URL, its headers checked (a hand-built
//! request must not panic the client), the credentials its operation's security picks (headers,
//! cookies joining the one `Cookie` header, query pairs appended to the URL), the URL its spans
//! show (every credential `REDACTED`), and how many attempts it may take.

use reqwest::Method;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

use super::credentials::{Credentials, Placed};
use crate::error::Error;
use crate::param_style::ParamLocation;
use crate::percent;
use crate::retry::RetryPolicy;
use crate::support::Request;
use crate::telemetry;

/// What every attempt of one request sends the same.
pub(super) struct Prepared {
    /// `{base_url}{path}?{query}`.
    pub(super) url: reqwest::Url,
    pub(super) headers: RequestHeaders,
    /// The query keys of the credentials appended to the URL (shown `REDACTED`).
    credential_query_keys: Vec<String>,
    /// Whether a failure that may have reached the server (a 5xx, a timeout) may be resent: the
    /// method is idempotent, or the policy opts every method in. What says the request was not
    /// processed (a 429, a 503 with `Retry-After`, no connection) is resent either way.
    pub(super) resend_after_processing: bool,
}

impl Prepared {
    /// Checks `request` and builds what its attempts share; `accept` is the `Accept` header.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] for a request that cannot be sent as built;
    /// [`Error::InvalidArgument`] holding
    /// [`MissingCredentials`](super::MissingCredentials) when `credentials` meet none of the
    /// operation's security requirements.
    pub(super) fn new(
        request: &Request,
        accept: &str,
        (base_url, trusted_origin): (&str, bool),
        retry: &RetryPolicy,
        credentials: &Credentials,
    ) -> Result<Self, Error> {
        let chosen = credentials.chosen(request.operation, request.security)?;
        // An operation's own server of another origin gets no credential the user did not send
        // there: refused before anything is sent, not sent without (a silent anonymous request).
        if !trusted_origin && !chosen.is_empty() {
            return Err(Error::InvalidRequest(format!(
                "{}: its server is of another origin than the base URL's, and the client's \
                 credentials go there only when it is named with `send_credentials_to`",
                request.operation
            )));
        }
        let mut url = url_for(base_url, request)?;
        // Checked once, before any attempt: the generator only emits valid media types, but a
        // hand-built request must not panic the client either.
        let accept = header_value("Accept", accept)?;
        let content_type = request
            .body
            .as_ref()
            .map(|body| header_value("Content-Type", &body.content_type))
            .transpose()?;
        let mut parameters = parameter_headers(request)?;
        let mut credential_headers = HeaderMap::new();
        let mut cookies = Vec::new();
        let mut query = Vec::new();
        // A credential the operation takes as an argument (a parameter the document declares
        // at the scheme's place) is sent as the caller gave it, not twice.
        let params = &request.params;
        for credential in chosen {
            match &credential.placed {
                Placed::Header(name, value) => {
                    if !params.carries(ParamLocation::Header, name.as_str()) {
                        credential_headers.insert(name.clone(), value.clone());
                    }
                }
                Placed::Cookie(pair) => {
                    let name = pair.split_once('=').map_or("", |(name, _)| name);
                    if !params.carries(ParamLocation::Cookie, name) {
                        cookies.push(pair.as_str());
                    }
                }
                Placed::Query(key, value) => {
                    if !params.carries(ParamLocation::Query, key) {
                        query.push((key.as_str(), value.as_str()));
                    }
                }
            }
        }
        if !cookies.is_empty() {
            // Alongside the cookie parameters, in the one `Cookie` header (RFC 6265 §5.4).
            let given = parameters
                .get(reqwest::header::COOKIE)
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned);
            let joined = percent::cookie_header(given.as_deref().into_iter().chain(cookies))
                .unwrap_or_default();
            let mut value = HeaderValue::from_str(&joined).map_err(|_| {
                Error::InvalidRequest(format!(
                    "{}: the Cookie header is not a header value",
                    request.operation
                ))
            })?;
            value.set_sensitive(true);
            parameters.insert(reqwest::header::COOKIE, value);
        }
        let credential_query_keys = query.iter().map(|(key, _)| (*key).to_owned()).collect();
        if !query.is_empty() {
            // Encoded when the client was built (`percent.rs`), appended after the parameters.
            let mut text = url.query().unwrap_or_default().to_owned();
            for (key, value) in query {
                if !text.is_empty() {
                    text.push('&');
                }
                text.push_str(key);
                text.push('=');
                text.push_str(value);
            }
            url.set_query(Some(&text));
        }
        let headers = RequestHeaders {
            accept,
            content_type,
            parameters,
            credentials: credential_headers,
            trusted_origin,
        };
        let resend_after_processing =
            is_idempotent(&request.method) || retry.non_idempotent_retries();
        Ok(Self {
            url,
            headers,
            credential_query_keys,
            resend_after_processing,
        })
    }

    /// Whether the URL holds a credential (a secret parameter or a scheme's query key), so that
    /// a transport error, whose message names the URL, must not.
    pub(super) fn url_has_secrets(&self, request: &Request) -> bool {
        !request.params.secrets().is_empty() || !self.credential_query_keys.is_empty()
    }

    /// The URL as spans show it (`url.full`): a credential parameter's value is never in it.
    /// Made only for a span that records it: scrubbing costs, and most clients run without a
    /// subscriber.
    pub(super) fn shown_url(&self, request: &Request) -> String {
        let mut shown = self.url.clone();
        let mut query = request
            .params
            .shown_query_string("REDACTED")
            .unwrap_or_default();
        for key in &self.credential_query_keys {
            if !query.is_empty() {
                query.push('&');
            }
            query.push_str(key);
            query.push_str("=REDACTED");
        }
        shown.set_query((!query.is_empty()).then_some(query.as_str()));
        telemetry::redacted_url(&shown)
    }
}

/// The per-request headers, validated once for every attempt.
pub(super) struct RequestHeaders {
    pub(super) accept: HeaderValue,
    pub(super) content_type: Option<HeaderValue>,
    /// Header parameters and the one `Cookie` header of cookie parameters and credentials.
    pub(super) parameters: HeaderMap,
    /// The credentials sent as headers (`Authorization`, a scheme's own header), each marked
    /// sensitive; they replace a default header or parameter of the same name.
    pub(super) credentials: HeaderMap,
    /// Whether the request goes to the base URL's origin or one the user named
    /// (`send_credentials_to`): only then are the default headers sent.
    pub(super) trusted_origin: bool,
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
