//! Redirects, followed by the client itself, by RFC 9110's table and only within the origin a
//! request was sent to.
//!
//! A request's credentials travel in more than `Authorization`: default headers
//! (`x-api-key`), header and cookie parameters, a key in the query. reqwest's own redirect
//! policy strips only `Authorization` and `Cookie` when it follows a redirect to another host,
//! so the client's reqwest client follows none (`redirect::Policy::none()`) and this module
//! decides every hop ([`next_hop`], the one function that builds a hop from the one before):
//! within the same scheme, host and port it is followed, anywhere else it is
//! [`Error::RedirectRefused`] and nothing is sent there.
//!
//! What a followed redirect sends (RFC 9110 §15.4.2–15.4.9, as the Fetch standard's
//! "HTTP-redirect fetch" applies it):
//!
//! | status | method sent next | body (and its `Content-*` headers) |
//! |---|---|---|
//! | 301, 302 | `GET` after `POST`; any other method unchanged | dropped after `POST`, else kept |
//! | 303 | `HEAD` after `HEAD`; `GET` after anything else | dropped |
//! | 307, 308 | unchanged | kept |
//!
//! A body once dropped stays dropped further down the chain. Userinfo in a `Location`
//! (`http://user:pass@host/…`) is stripped: reqwest would turn it into an `Authorization: Basic`
//! header of the server's choosing.

use reqwest::header::{
    CONTENT_ENCODING, CONTENT_LANGUAGE, CONTENT_LOCATION, CONTENT_TYPE, HeaderMap, HeaderName,
    LOCATION,
};
use reqwest::{Method, StatusCode, Url};

use crate::error::Error;
use crate::server_text::ServerText;
use crate::telemetry::redacted_url;

/// The most redirects one attempt follows (reqwest's default); the next one is the answer.
pub(crate) const MAX_REDIRECTS: u32 = 10;

/// The headers that describe a body (Fetch's "request-body-header names"): not sent on a hop
/// whose body was dropped.
pub(crate) const BODY_HEADERS: [HeaderName; 4] = [
    CONTENT_ENCODING,
    CONTENT_LANGUAGE,
    CONTENT_LOCATION,
    CONTENT_TYPE,
];

/// One request of an attempt: the first, or the next of a redirect followed.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Hop {
    pub(crate) url: Url,
    pub(crate) method: Method,
    /// Whether the original body (and its `Content-*` headers) is sent.
    pub(crate) keep_body: bool,
}

impl Hop {
    /// The request as the caller made it: its own method, with its body.
    pub(crate) fn first(url: Url, method: Method) -> Self {
        Self {
            url,
            method,
            keep_body: true,
        }
    }

    /// `headers` without the body's own headers when this hop sends no body.
    pub(crate) fn drop_body_headers(&self, headers: &mut HeaderMap) {
        if !self.keep_body {
            for name in &BODY_HEADERS {
                headers.remove(name);
            }
        }
    }
}

/// RFC 9110's table: the method a redirect of `status` sends after `method`, and whether it
/// keeps the body; `None` for a status that is not a redirect to follow.
pub(crate) fn redirected(status: StatusCode, method: &Method) -> Option<(Method, bool)> {
    match status.as_u16() {
        307 | 308 => Some((method.clone(), true)),
        301 | 302 if *method == Method::POST => Some((Method::GET, false)),
        301 | 302 => Some((method.clone(), true)),
        303 if *method == Method::HEAD => Some((Method::HEAD, false)),
        303 => Some((Method::GET, false)),
        _ => None,
    }
}

/// What to do with a response of `status` and `headers` to the request `from`, after `hops`
/// redirects: `None` when it is the answer (not a redirect, no usable `Location`, or one
/// redirect too many), the next hop when it leads within `from`'s origin, and the error to
/// report when it leads elsewhere.
pub(crate) fn next_hop(
    status: StatusCode,
    headers: &HeaderMap,
    from: &Hop,
    hops: u32,
) -> Option<Result<Hop, Error>> {
    let (method, keeps_body) = redirected(status, &from.method)?;
    let location = headers.get(LOCATION)?.to_str().ok()?;
    let mut next = from.url.join(location).ok()?;
    if !same_origin(&from.url, &next) {
        return Some(Err(refused(status, &next)));
    }
    if hops >= MAX_REDIRECTS {
        return None;
    }
    // Never a credential of the server's choosing. Both succeed on an http(s) URL with a host,
    // which a URL of `from`'s origin is.
    let _ = next.set_username("");
    let _ = next.set_password(None);
    Some(Ok(Hop {
        url: next,
        method,
        keep_body: from.keep_body && keeps_body,
    }))
}

/// Whether `a` and `b` share scheme, host and port (a default port written out or not).
pub(crate) fn same_origin(a: &Url, b: &Url) -> bool {
    a.origin() == b.origin()
}

/// The error for a redirect to `location`, in another origin; the URL is shown with its
/// secret-looking query values and every live key redacted.
pub(crate) fn refused(status: StatusCode, location: &Url) -> Error {
    let mut shown = location.clone();
    // A password in the server's URL is not shown either.
    let _ = shown.set_password(None);
    Error::RedirectRefused {
        status: status.as_u16(),
        location: ServerText::new(redacted_url(&shown)),
    }
}

#[cfg(test)]
#[path = "redirect_tests.rs"]
mod tests;
