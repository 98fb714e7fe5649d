//! One call's retry accounting, the operation level's memory between attempts: the attempts
//! made, the backoff, what the call's retries took from the client's shared retry budget (paid
//! back on success), the last 429's body, and the decision after each failed attempt.

use std::time::Duration;

use super::failure::Failure;
use crate::error::Error;
use crate::retry::RetryPolicy;
use crate::server_text::ServerText;
use crate::telemetry;
use crate::throttle::{HeldBack, Outcome, Traffic};

/// What to do after a failed attempt.
pub(super) enum Next {
    /// Report this error: the failure is final, the attempts or the budget are spent, or the
    /// server wants a longer wait than the policy allows.
    Stop(Error),
    /// Try again once the endpoint's pause is over (the wait is the traffic state's, shared by
    /// every request to the endpoint).
    AfterPause,
    /// Try again after this wait of this call's own.
    After(Duration),
}

/// The state of one call's attempts.
pub(super) struct RetryLoop<B> {
    policy: RetryPolicy,
    /// Whether a failure that may have been processed may be resent (see `Prepared`).
    resend_after_processing: bool,
    backoff: B,
    attempts: u32,
    /// What this call's retries took from the budget, refunded on success.
    budget_held: u32,
    last_throttle: Option<ServerText>,
}

impl<B: Iterator<Item = Duration>> RetryLoop<B> {
    /// Before the first attempt of a call under `policy`, waiting `backoff`'s waits; a failure
    /// the server may have processed is resent only if `resend_after_processing`.
    pub(super) fn new(policy: RetryPolicy, resend_after_processing: bool, backoff: B) -> Self {
        Self {
            policy,
            resend_after_processing,
            backoff,
            attempts: 0,
            budget_held: 0,
            last_throttle: None,
        }
    }

    /// Whether the next attempt is a retry.
    pub(super) fn next_is_retry(&self) -> bool {
        self.attempts > 0
    }

    /// Counts the attempt about to go out; its number (1 for the first).
    pub(super) fn begin_attempt(&mut self) -> u32 {
        self.attempts += 1;
        self.attempts
    }

    /// The error when the traffic state will not let the next attempt go: the endpoint is
    /// paused, or the turn does not come, for longer than the policy waits.
    pub(super) fn held_back(self, held: HeldBack) -> Error {
        Error::RateLimited {
            retry_after: held.paused_for,
            attempts: self.attempts,
            body: self.last_throttle.unwrap_or_default(),
        }
    }

    /// After a success: the endpoint's rate may grow back, and the budget is paid back.
    pub(super) fn succeeded(
        &self,
        traffic: &Traffic,
        template: &'static str,
        sent_at: tokio::time::Instant,
    ) {
        traffic.record(template, Outcome::Success(sent_at));
        traffic.refund(self.budget_held);
    }

    /// After a failed attempt sent at `sent_at`: a 429 pauses the endpoint (unless the attempt
    /// level did already), then the decision, paying for a retry from the budget.
    pub(super) fn after_failure(
        &mut self,
        failure: Failure,
        traffic: &Traffic,
        template: &'static str,
        sent_at: tokio::time::Instant,
    ) -> Next {
        let attempt = self.attempts;
        let max_wait = self.policy.max_retry_after();
        let throttled = matches!(failure.error, Error::RateLimited { .. });
        if throttled {
            // The whole endpoint waits, this request included (in `admit`).
            let wait = failure.retry_after.unwrap_or_else(|| self.next_backoff());
            if !failure.throttle_noted {
                let throttled = Outcome::Throttled {
                    wait,
                    sent: sent_at,
                    longest: max_wait,
                };
                traffic.record(template, throttled);
            }
            if let Error::RateLimited { body, .. } = &failure.error {
                self.last_throttle = Some(body.clone());
            }
        }
        let resendable = failure.retryable && (failure.unprocessed || self.resend_after_processing);
        if !resendable || attempt >= self.policy.max_attempts() {
            return Next::Stop(failure.error);
        }
        if failure.retry_after.is_some_and(|wait| wait > max_wait) {
            // The server wants more patience than the policy allows: report its wait
            // rather than sit it out.
            return Next::Stop(failure.error);
        }
        if throttled {
            telemetry::instruments::retry(template, "throttled");
            tracing::debug!(attempt, reason = %failure.error, "retrying after the endpoint's pause");
            return Next::AfterPause;
        }
        let timed_out = matches!(failure.error, Error::Timeout { .. });
        let Some(cost) = traffic.withdraw_retry(timed_out) else {
            // The budget is spent: the server is struggling for everyone, so stop adding
            // load and report what happened.
            telemetry::instruments::budget_exhausted(template);
            tracing::debug!(attempt, reason = %failure.error, "retry budget exhausted");
            return Next::Stop(failure.error);
        };
        self.budget_held = self.budget_held.saturating_add(cost);
        let wait = failure.retry_after.unwrap_or_else(|| self.next_backoff());
        telemetry::instruments::retry(
            template,
            match failure.error {
                Error::Timeout { .. } => "timeout",
                Error::Transport(_) => "transport",
                _ => "server_error",
            },
        );
        tracing::debug!(
            attempt,
            wait_ms = telemetry::millis(wait),
            reason = %failure.error,
            "retrying",
        );
        Next::After(wait)
    }

    /// The next backoff wait; the policy's longest once the backoff runs out.
    fn next_backoff(&mut self) -> Duration {
        self.backoff
            .next()
            .unwrap_or_else(|| self.policy.max_backoff())
    }
}
