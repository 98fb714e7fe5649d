//! When and how long the client waits before sending a request again, and which requests may be
//! sent again at all.

use std::time::Duration;

use backon::{BackoffBuilder, ExponentialBuilder};

/// How the client retries requests that failed in a way that may pass.
///
/// # Which requests are sent again
///
/// By what the server said, then by the method (RFC 9110 §9.2.2):
///
/// | The attempt ended with | `GET` `HEAD` `PUT` `DELETE` `OPTIONS` `TRACE` | `POST` `PATCH` (any other method) |
/// |---|---|---|
/// | `429 Too Many Requests` | resent | resent |
/// | `503 Service Unavailable` with `Retry-After` (header or body) | resent | resent |
/// | a connection that could not be made (nothing was written) | resent | resent |
/// | another 5xx (not 501), `408`, a timeout, a connection lost after the request went out | resent | once only, unless opted in |
/// | any other status, a decode failure, a body over the cap | never | never |
///
/// A `429`, or a `503` naming when to come back, says the request was not processed, and a
/// connection that was never made carried nothing: sending such a request again cannot repeat
/// its effect, whatever its method. Any other failure may have reached the server's side
/// effect, so only a method whose repetition means the same as one request (the idempotent
/// ones) is sent again — unless the caller says the operation is safe to repeat:
/// [`with_non_idempotent_retries(true)`](Self::with_non_idempotent_retries), per client
/// (`ClientBuilder::retry_policy`) or for one call (`client.with_retry_policy(..)`, a copy
/// sharing the connection pool). OpenAPI has no standard mark for an idempotent operation
/// (no `x-idempotent` or the like is in the specification or in Baseten's documents), so the
/// opt-in is the caller's.
///
/// ```
/// # fn main() -> Result<(), baseten_runtime::Error> {
/// # use baseten_runtime::RetryPolicy;
/// // In baseten-api: `use baseten_api::client::RetryPolicy;`.
/// // An autoscaler whose PATCH sets absolute values: repeating it changes nothing more.
/// let policy = RetryPolicy::default().with_non_idempotent_retries(true);
/// assert!(policy.non_idempotent_retries());
/// assert!(!RetryPolicy::default().non_idempotent_retries());
/// # Ok(()) }
/// ```
///
/// # How long the client waits
///
/// - `429 Too Many Requests`: after the wait the server asks for, its body's
///   `retry_after` (seconds) or else its `Retry-After` header (seconds), or
///   the backoff below if it names none. The wait is the endpoint's, not the request's: every
///   request of the client (and its clones) to the same path template is held until it has
///   passed, plus up to a fifth more at random (at most a second) so that clients do not come
///   back together, and from then on the endpoint's send rate adapts (0.7× what the server
///   admitted in the last second, growing back on successes as aws-sdk-rust's adaptive mode
///   does): back at the old level ∛(0.75 × rate) seconds after the 429 (under a second after
///   a lone request, 3.3 s at 50 requests/s) however the requests come, so a caller sending
///   one at a time is held about 1.4 s once and not noticeably after about 4 s; see
///   [`ClientBuilder::adaptive_rate`](crate::ClientBuilder::adaptive_rate) to turn the
///   adaptive rate off. A requested wait longer than
///   [`max_retry_after`](Self::max_retry_after) is not sat out: the client
///   returns [`Error::RateLimited`](crate::Error::RateLimited) at once,
///   carrying the wait, and does not pause the endpoint for it, so the next
///   request asks the server again (one absurd `Retry-After`, epoch seconds
///   sent by mistake, fails one request, not every request for a day).
/// - Server errors (5xx other than 501, and 408), timeouts and connection
///   failures: after the wait a 5xx names the same way (given up on, with
///   the [`Error::Api`](crate::Error::Api), if it is over the cap), or else
///   an exponential backoff with jitter. The `n`-th wait is
///   `initial_backoff · 2ⁿ⁻¹` plus a random extra of up to as much again,
///   never more than [`with_max_backoff`](Self::with_max_backoff). Each such retry is paid
///   for from a budget all requests of the client share (aws-sdk-rust's retry quota: 500
///   tokens, 5 a retry, 10 after a timeout, a success pays back 1 or what its retries cost);
///   when it is empty the request fails at once with its last error, so an outage is not met
///   with three times the load.
///
/// The default is 3 attempts in all, backoff from 500 ms up to 8 s, and
/// server-requested waits of up to 60 s.
///
/// ```
/// use std::time::Duration;
/// # use baseten_runtime::RetryPolicy;
/// // In baseten-api: `use baseten_api::client::RetryPolicy;`.
/// let patient = RetryPolicy::default()
///     .with_max_attempts(5)
///     .with_max_backoff(Duration::from_secs(30));
/// assert_eq!(patient.max_attempts(), 5);
/// assert_eq!(RetryPolicy::none().max_attempts(), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    max_attempts: u32,
    initial_backoff: Duration,
    max_backoff: Duration,
    max_retry_after: Duration,
    non_idempotent_retries: bool,
}

impl Default for RetryPolicy {
    /// 3 attempts, 500 ms initial and 8 s longest backoff, server-requested
    /// waits of up to 60 s.
    fn default() -> Self {
        Self {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
            non_idempotent_retries: false,
        }
    }
}

impl RetryPolicy {
    /// No retries: every request is sent exactly once.
    #[must_use]
    pub fn none() -> Self {
        Self::default().with_max_attempts(1)
    }

    /// How many times a request may be sent in all, the first attempt
    /// included. `0` counts as `1`.
    #[must_use]
    pub fn with_max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts.max(1);
        self
    }

    /// The first backoff wait, before jitter; each later one doubles.
    #[must_use]
    pub fn with_initial_backoff(mut self, wait: Duration) -> Self {
        self.initial_backoff = wait;
        self
    }

    /// The longest backoff wait, jitter included.
    #[must_use]
    pub fn with_max_backoff(mut self, wait: Duration) -> Self {
        self.max_backoff = wait;
        self
    }

    /// The longest wait a server may ask for (with `retry_after` or
    /// `Retry-After`) that the client sits out before retrying; asked for
    /// more, it gives up and reports the wait instead.
    #[must_use]
    pub fn with_max_retry_after(mut self, wait: Duration) -> Self {
        self.max_retry_after = wait;
        self
    }

    /// Whether a request of any method is sent again after a failure that may have reached the
    /// server (a 5xx, a timeout, a connection lost after the request went out), as an
    /// idempotent one is: for operations the caller knows are safe to repeat. Off by default.
    /// A `429`, a `503` with `Retry-After` and a connection never made are resent for every
    /// method either way (see the table above).
    #[must_use]
    pub fn with_non_idempotent_retries(mut self, enabled: bool) -> Self {
        self.non_idempotent_retries = enabled;
        self
    }

    /// See [`with_non_idempotent_retries`](Self::with_non_idempotent_retries).
    #[must_use]
    pub fn non_idempotent_retries(&self) -> bool {
        self.non_idempotent_retries
    }

    /// See [`with_max_attempts`](Self::with_max_attempts).
    #[must_use]
    pub fn max_attempts(&self) -> u32 {
        self.max_attempts
    }

    /// See [`with_initial_backoff`](Self::with_initial_backoff).
    #[must_use]
    pub fn initial_backoff(&self) -> Duration {
        self.initial_backoff
    }

    /// See [`with_max_backoff`](Self::with_max_backoff).
    #[must_use]
    pub fn max_backoff(&self) -> Duration {
        self.max_backoff
    }

    /// See [`with_max_retry_after`](Self::with_max_retry_after).
    #[must_use]
    pub fn max_retry_after(&self) -> Duration {
        self.max_retry_after
    }

    /// The backoff waits, one per retry, endless (the caller counts
    /// attempts): exponential with jitter, each capped at `max_backoff`.
    pub(crate) fn backoff(&self) -> impl Iterator<Item = Duration> + use<> {
        let max = self.max_backoff;
        ExponentialBuilder::new()
            .with_min_delay(self.initial_backoff.min(max))
            .with_max_delay(max)
            .with_factor(2.0)
            .with_jitter()
            .without_max_times()
            .build()
            // backon adds the jitter on top of the capped delay.
            .map(move |wait| wait.min(max))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        let policy = RetryPolicy::default();
        assert_eq!(policy.max_attempts(), 3);
        assert_eq!(policy.initial_backoff(), Duration::from_millis(500));
        assert_eq!(policy.max_backoff(), Duration::from_secs(8));
        assert_eq!(policy.max_retry_after(), Duration::from_secs(60));
        assert_eq!(RetryPolicy::none().max_attempts(), 1);
        assert_eq!(
            RetryPolicy::default().with_max_attempts(0).max_attempts(),
            1
        );
        assert!(!policy.non_idempotent_retries());
        let opted = policy.with_non_idempotent_retries(true);
        assert!(opted.non_idempotent_retries());
        assert!(
            !opted
                .with_non_idempotent_retries(false)
                .non_idempotent_retries()
        );
    }

    #[test]
    fn backoff_grows_with_jitter_and_stays_capped() {
        for _ in 0..50 {
            let waits: Vec<Duration> = RetryPolicy::default().backoff().take(8).collect();
            let ms: Vec<u128> = waits.iter().map(Duration::as_millis).collect();
            assert!((500..=1000).contains(&ms[0]), "{ms:?}");
            assert!((1000..=2000).contains(&ms[1]), "{ms:?}");
            assert!((2000..=4000).contains(&ms[2]), "{ms:?}");
            assert!(ms.iter().all(|&wait| wait <= 8000), "{ms:?}");
            assert!(ms[5..].iter().all(|&wait| wait == 8000), "{ms:?}");
        }
        let tiny = RetryPolicy::default()
            .with_initial_backoff(Duration::from_secs(5))
            .with_max_backoff(Duration::from_millis(10));
        assert!(
            tiny.backoff()
                .take(5)
                .all(|w| w == Duration::from_millis(10))
        );
        let zero = RetryPolicy::default().with_initial_backoff(Duration::ZERO);
        assert!(zero.backoff().take(5).all(|w| w == Duration::ZERO));
        // Absurd settings saturate rather than overflow.
        let huge = RetryPolicy::default()
            .with_initial_backoff(Duration::MAX)
            .with_max_backoff(Duration::MAX);
        for _ in 0..200 {
            assert!(
                huge.backoff()
                    .take(3)
                    .all(|w| w > Duration::from_secs(1 << 60))
            );
        }
    }
}
