//! Redirects, followed by the client itself and only within the origin a request was sent to.
//!
//! A request's credentials travel in more than `Authorization`: default headers
//! (`x-api-key`), header and cookie parameters, a key in the query. reqwest's own redirect
//! policy strips only `Authorization` and `Cookie` when it follows a redirect to another host,
//! so the client's reqwest client follows none (`redirect::Policy::none()`) and this module
//! decides every hop: within the same scheme, host and port it is followed (as reqwest would:
//! 303, and 301/302 after anything but GET or HEAD, turn into a GET without the body);
//! anywhere else it is [`Error::RedirectRefused`] and nothing is sent there.

use reqwest::header::{HeaderMap, LOCATION};
use reqwest::{Method, StatusCode, Url};

use crate::error::Error;
use crate::server_text::ServerText;
use crate::telemetry::redacted_url;

/// The most redirects one attempt follows (reqwest's default); the next one is the answer.
pub(crate) const MAX_REDIRECTS: u32 = 10;

/// The next request of a redirect followed.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Hop {
    pub(crate) url: Url,
    pub(crate) method: Method,
    /// Whether the body (and its `Content-Type`) is sent again.
    pub(crate) keep_body: bool,
}

/// What to do with a response of `status` and `headers` to a `method` request to `url`, after
/// `hops` redirects: `None` when it is the answer (not a redirect, no usable `Location`, or one
/// redirect too many), the next hop when it leads within `url`'s origin, and the error to
/// report when it leads elsewhere.
pub(crate) fn next_hop(
    status: StatusCode,
    headers: &HeaderMap,
    url: &Url,
    method: &Method,
    hops: u32,
) -> Option<Result<Hop, Error>> {
    if !matches!(status.as_u16(), 301 | 302 | 303 | 307 | 308) {
        return None;
    }
    let location = headers.get(LOCATION)?.to_str().ok()?;
    let next = url.join(location).ok()?;
    if !same_origin(url, &next) {
        return Some(Err(refused(status, &next)));
    }
    if hops >= MAX_REDIRECTS {
        return None;
    }
    let keep = matches!(status.as_u16(), 307 | 308);
    let method = if keep || *method == Method::GET || *method == Method::HEAD {
        method.clone()
    } else {
        Method::GET
    };
    Some(Ok(Hop {
        url: next,
        method,
        keep_body: keep,
    }))
}

/// Whether `a` and `b` share scheme, host and port (a default port written out or not).
pub(crate) fn same_origin(a: &Url, b: &Url) -> bool {
    a.origin() == b.origin()
}

/// The error for a redirect to `location`, in another origin; the URL is shown with its
/// secret-looking query values and every live key redacted.
pub(crate) fn refused(status: StatusCode, location: &Url) -> Error {
    Error::RedirectRefused {
        status: status.as_u16(),
        location: ServerText::new(redacted_url(location)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap_or_else(|error| panic!("{text}: {error}"))
    }

    fn located(location: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Ok(value) = location.parse() {
            headers.insert(LOCATION, value);
        }
        headers
    }

    fn hop(status: u16, location: &str, method: Method, hops: u32) -> Option<Result<Hop, Error>> {
        let status = StatusCode::from_u16(status).unwrap_or_else(|error| panic!("{error}"));
        let from = url("http://127.0.0.1:8080/v1/a?x=1");
        next_hop(status, &located(location), &from, &method, hops)
    }

    #[test]
    fn redirects_within_the_origin_are_followed_as_reqwest_would() {
        for (status, method, expected, keep_body) in [
            (301, Method::GET, Method::GET, false),
            (302, Method::POST, Method::GET, false),
            (303, Method::PUT, Method::GET, false),
            (303, Method::HEAD, Method::HEAD, false),
            (307, Method::POST, Method::POST, true),
            (308, Method::PUT, Method::PUT, true),
        ] {
            let next = hop(status, "/v1/b?y=2", method.clone(), 0);
            let expected = Hop {
                url: url("http://127.0.0.1:8080/v1/b?y=2"),
                method: expected,
                keep_body,
            };
            assert!(
                matches!(next, Some(Ok(ref hop)) if *hop == expected),
                "{status} {method}: {next:?}"
            );
        }
        // A default port written out is the same origin.
        let from = url("http://api.test/v1");
        let to = url("http://api.test:80/v2");
        assert!(same_origin(&from, &to));
    }

    #[test]
    fn other_origins_are_refused_naming_the_location_without_secrets() {
        let _key = crate::server_text::RegisteredSecret::new("redirect-test-key-0123456789");
        for location in [
            "http://127.0.0.1:9090/v1/b?api-key=redirect-test-key-0123456789",
            "https://127.0.0.1:8080/v1/b",
            "http://localhost:8080/v1/b",
            "//evil.test/path",
        ] {
            let refused = hop(302, location, Method::GET, 0);
            let Some(Err(error)) = refused else {
                panic!("{location}: {refused:?}");
            };
            assert!(matches!(error, Error::RedirectRefused { status: 302, .. }));
            let shown = format!("{error} {error:?}");
            assert!(!shown.contains("redirect-test-key"), "{shown}");
            assert!(
                shown.contains("/v1/b") || shown.contains("evil.test"),
                "{shown}"
            );
        }
    }

    #[test]
    fn what_is_not_a_redirect_to_follow_is_the_answer() {
        assert!(hop(200, "/v1/b", Method::GET, 0).is_none());
        assert!(hop(304, "/v1/b", Method::GET, 0).is_none());
        assert!(hop(300, "/v1/b", Method::GET, 0).is_none());
        assert!(hop(302, "", Method::GET, 0).is_some_and(|next| next.is_ok()));
        let status = StatusCode::FOUND;
        let from = url("http://127.0.0.1:8080/v1/a");
        assert!(next_hop(status, &HeaderMap::new(), &from, &Method::GET, 0).is_none());
        assert!(hop(302, "http://[::1", Method::GET, 0).is_none());
        // One too many: the redirect is the answer; another origin is refused even then.
        assert!(hop(302, "/v1/b", Method::GET, MAX_REDIRECTS).is_none());
        assert!(hop(302, "/v1/b", Method::GET, MAX_REDIRECTS - 1).is_some());
        assert!(
            hop(302, "http://evil.test/", Method::GET, MAX_REDIRECTS)
                .is_some_and(|next| next.is_err())
        );
    }
}
