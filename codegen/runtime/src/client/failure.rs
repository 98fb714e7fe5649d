//! Failure mapping: what an attempt that did not succeed means to the caller — the [`Error`] to
//! report if it is the last, whether another attempt may help, and how long the server asked
//! to wait — and a 2xx body that is not the expected JSON as [`Error::Decode`]. Every text taken
//! from a response is [`ServerText`].

use std::time::Duration;

use reqwest::StatusCode;

use super::attempt::{Answer, SendError};
use crate::error::{Error, ErrorBody, excerpt, retryable_status, retryable_transport};
use crate::server_text::ServerText;

/// A failed attempt: the error to report if it is the last, whether another
/// attempt may help, and how long the server asked to wait first.
pub(super) struct Failure {
    pub(super) error: Error,
    pub(super) retryable: bool,
    /// The server said it did not process the request (a 429, a 503 naming its wait), or the
    /// connection was never made: resending cannot repeat a side effect, whatever the method.
    pub(super) unprocessed: bool,
    pub(super) retry_after: Option<Duration>,
    /// A 429 whose wait the shared traffic state has already been told (at the attempt level).
    pub(super) throttle_noted: bool,
}

impl Failure {
    /// The error for a non-2xx answer.
    pub(super) fn from_response(answer: Answer, attempts: u32) -> Self {
        let Answer {
            status,
            retry_after: retry_after_header,
            headers: _,
            request_id,
            body: bytes,
            throttle_noted,
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
                unprocessed: true,
                retry_after,
                throttle_noted,
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
            // RFC 9110 §15.6.4: a 503 with `Retry-After` is the server refusing for now.
            unprocessed: status == 503 && retry_after.is_some(),
            retry_after,
            throttle_noted,
        }
    }

    /// The error for an attempt that got no answer. `url_has_secrets`: the request carries a
    /// credential as a parameter, so reqwest's message (which names the URL) must not name it;
    /// `limit_bytes` is the client's cap, for [`Error::ResponseTooLarge`].
    pub(super) fn from_send_error(
        error: SendError,
        attempts: u32,
        url_has_secrets: bool,
        limit_bytes: u64,
    ) -> Self {
        match error {
            SendError::Transport(source) if url_has_secrets => {
                Self::from_transport(source.without_url(), attempts)
            }
            SendError::Transport(source) => Self::from_transport(source, attempts),
            SendError::TooLarge => Self::final_error(Error::ResponseTooLarge { limit_bytes }),
            SendError::Refused(error) => Self::final_error(error),
        }
    }

    fn from_transport(source: reqwest::Error, attempts: u32) -> Self {
        // hyper's connector failed (refused, DNS, TLS handshake, connect timeout): the request
        // was never written. A connection lost later is not `is_connect`.
        let unprocessed = source.is_connect();
        if source.is_timeout() {
            return Self {
                error: Error::Timeout { attempts },
                retryable: true,
                unprocessed,
                retry_after: None,
                throttle_noted: false,
            };
        }
        Self {
            retryable: retryable_transport(&source),
            unprocessed,
            error: Error::Transport(source),
            retry_after: None,
            throttle_noted: false,
        }
    }

    /// A failure no retry can help.
    fn final_error(error: Error) -> Self {
        Self {
            error,
            retryable: false,
            unprocessed: false,
            retry_after: None,
            throttle_noted: false,
        }
    }
}

/// Decodes a 2xx body through [`decode`](crate::decode::decode), so a failure names
/// its JSON path as a saved response's would; an empty (or all-whitespace) body counts as `null`.
/// serde's message can quote a value of the body, so it is [`ServerText`] like the excerpt.
pub(crate) fn decode<T: serde_core::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
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
