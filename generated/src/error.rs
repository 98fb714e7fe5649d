//! The error type every API call returns.

/// Longest body excerpt (in characters) an error message quotes; bodies can
/// be whole HTML error pages, which would swamp a log line.
const EXCERPT_CHARS: usize = 200;

/// Everything that can go wrong when calling the API.
///
/// Marked `#[non_exhaustive]` because later versions add variants (for
/// example for retries, timeouts and rate limits); match with a `_` arm.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The server answered with a status outside 200–299.
    #[error("HTTP {status}: {}", excerpt(body))]
    Api {
        /// The HTTP status code.
        status: u16,
        /// The complete response body, decoded as UTF-8 (invalid bytes are
        /// replaced with U+FFFD). Usually a JSON error object.
        body: String,
    },

    /// The server answered 2xx, but the body is not the JSON the operation
    /// expects.
    #[error("response body is not the expected JSON: {source} (body: {body_excerpt})")]
    Decode {
        /// What `serde_json` objected to.
        source: serde_json::Error,
        /// The start of the body, on one line and at most about 200
        /// characters, so the error stays loggable.
        body_excerpt: String,
    },

    /// The request could not be sent or the response could not be read
    /// (DNS, TLS, connection reset, ...).
    // reqwest's message names the URL, which never carries the API key: the
    // key only travels in the Authorization header.
    #[error("HTTP transport failed: {0}")]
    Transport(#[source] reqwest::Error),

    /// A check on the client side failed before anything was sent, for
    /// example a path parameter that cannot be a URL segment or an API key
    /// that is not a valid header value. The message never repeats secrets.
    #[error("invalid request: {0}")]
    InvalidRequest(String),
}

impl Error {
    /// The HTTP status of the response this error came from, if there was
    /// one.
    #[must_use]
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Api { status, .. } => Some(*status),
            Self::Transport(source) => source.status().map(|status| status.as_u16()),
            Self::Decode { .. } | Self::InvalidRequest(_) => None,
        }
    }
}

/// Shortens `text` for an error message: whitespace and control characters
/// become single spaces (so the message stays one line), and at most
/// [`EXCERPT_CHARS`] characters are kept. Counting `char`s rather than bytes
/// means the cut always falls on a character boundary.
pub(crate) fn excerpt(text: &str) -> String {
    let mut out = String::new();
    let mut kept = 0;
    let mut pending_space = false;
    for c in text.chars() {
        if c.is_whitespace() || c.is_control() {
            pending_space = !out.is_empty();
            continue;
        }
        if kept + 1 + usize::from(pending_space) > EXCERPT_CHARS {
            out.push('…');
            return out;
        }
        if pending_space {
            out.push(' ');
            kept += 1;
            pending_space = false;
        }
        out.push(c);
        kept += 1;
    }
    if out.is_empty() {
        out.push_str("(empty body)");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let err = Error::Api {
            status: 503,
            body: format!("<html>\n{}\n</html>", "ü".repeat(10_000)),
        };
        let shown = err.to_string();
        assert!(shown.starts_with("HTTP 503: <html> ü"));
        assert!(!shown.contains('\n'));
        assert!(shown.chars().count() < 250);
        assert_eq!(err.status(), Some(503));
    }
}
