//! The traffic state every clone of a client shares: per endpoint (the operation's path
//! template) a pause after a 429, a send rate (the one configured, and an adaptive one after a
//! throttle), and per client a cap on requests in flight and a retry budget.
//!
//! Modelled on aws-smithy-runtime: the adaptive rate is its `ClientRateLimiter` (CUBIC: cut to
//! 0.7× on a throttle, grow back along a cubic curve on successes), and the budget is its
//! standard mode's retry quota (`TokenBucket`: 500 tokens, a retry costs 5, a retry after a
//! timeout 10, a first-attempt success refunds 1 and a successful retry its cost). Unlike
//! there, a 429 also pauses every request to its endpoint until the server's wait (plus
//! jitter) has passed, and the rate after a throttle starts from what the server admitted in
//! the last second rather than from what was sent.
//!
//! The curve's clock (RFC 9438 §4.2's `t`, time since the cut) runs while anyone wants to
//! send, waiting in the client included: a request held by the pause or the rate is limited by
//! the limiter, not by its caller. Only an idle spell (no request waiting or out for over
//! [`IDLE`]) is application-limited time in RFC 9438 §5.8's sense, and only its part past
//! the curve's plateau is kept off the clock: the climb back to what the server admitted before
//! the cut takes the time window K whatever the caller does, while growth past it, probing for
//! more than the server was seen to take, needs demand. aws-sdk's limiter has no idle rule; it
//! caps the rate at twice the measured send rate instead, which would keep a slow caller below
//! what the server admitted.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

/// How much to scale back after a throttle (CUBIC's β, as aws-sdk's adaptive mode).
const BETA: f64 = 0.7;
/// How fast the rate grows back after a throttle (CUBIC's C, as aws-sdk's adaptive mode).
const SCALE_CONSTANT: f64 = 0.4;
/// The slowest the adaptive rate goes, requests per second.
const MIN_RATE: f64 = 0.5;
/// No request to an endpoint waiting or out for longer than this is an idle spell,
/// kept off the adaptive rate's clock past its plateau (see [`Cubic::skip_idle`]).
const IDLE: Duration = Duration::from_secs(1);
/// Successes remembered per endpoint to measure the admitted rate (one second's worth).
const MAX_REMEMBERED_SUCCESSES: usize = 10_000;

/// The retry budget's size, a retry's cost and a retry-after-timeout's cost (aws-sdk's
/// standard-mode retry quota).
pub(crate) const RETRY_BUDGET: u32 = 500;
const RETRY_COST: u32 = 5;
const TIMEOUT_RETRY_COST: u32 = 10;

/// The shared state; one per client, behind the client's `Arc`s.
#[derive(Debug)]
pub(crate) struct Traffic {
    endpoints: Mutex<HashMap<&'static str, Arc<Endpoint>>>,
    in_flight: Option<Arc<Semaphore>>,
    endpoint_rate: Option<f64>,
    adaptive: bool,
    budget: AtomicU32,
}

/// A request let through, to keep while it is out: the slot it holds (with a cap), how long
/// the limiter held it (the endpoint's pause and its rate, the waits as the limiter set them),
/// and its mark as the endpoint's demand until it is answered.
#[derive(Debug)]
pub(crate) struct Admission {
    pub(crate) slot: Option<OwnedSemaphorePermit>,
    pub(crate) held: Duration,
    _demand: Demand,
}

/// Why a request was not let through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HeldBack {
    /// How much longer the endpoint is paused, if that is the reason.
    pub(crate) paused_for: Option<Duration>,
}

/// The outcome of one attempt, as the shared state learns from it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Outcome {
    /// A 2xx for a request sent at this time.
    Success(Instant),
    /// A 429 asking to `wait`, for a request sent at `sent`, by a caller that waits at most
    /// `longest` (its policy's `max_retry_after`).
    Throttled {
        wait: Duration,
        sent: Instant,
        longest: Duration,
    },
}

impl Traffic {
    /// `max_in_flight` requests at once in all (none: no cap); `endpoint_rate` requests per
    /// second per endpoint (none: only the adaptive rate, after a throttle); `adaptive`: whether
    /// a throttle cuts the endpoint's rate (its pause holds either way).
    pub(crate) fn new(
        max_in_flight: Option<usize>,
        endpoint_rate: Option<f64>,
        adaptive: bool,
    ) -> Self {
        Self {
            endpoints: Mutex::new(HashMap::new()),
            in_flight: max_in_flight
                .map(|n| Arc::new(Semaphore::new(n.clamp(1, Semaphore::MAX_PERMITS)))),
            endpoint_rate: endpoint_rate.filter(|rate| rate.is_finite() && *rate > 0.0),
            adaptive,
            budget: AtomicU32::new(RETRY_BUDGET),
        }
    }

    fn endpoint(&self, template: &'static str) -> Arc<Endpoint> {
        let mut endpoints = self
            .endpoints
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        Arc::clone(endpoints.entry(template).or_insert_with(|| {
            Arc::new(Endpoint {
                first_attempts: Semaphore::new(1),
                retries: Semaphore::new(1),
                state: Mutex::new(EndpointState::new(Instant::now())),
            })
        }))
    }

    /// Waits until a request to `template` may be sent: the endpoint's pause is over, its rate
    /// allows one more, and (with a cap) a slot is free; the slot comes back, to hold while the
    /// request is out. Requests wait their turn in order, first attempts behind retries (which
    /// have waited once already). Waiting does not hold a slot.
    ///
    /// Gives up, without waiting, when the endpoint is paused for longer than `max_wait`, and
    /// when the turn has not come after `max_wait`.
    pub(crate) async fn admit(
        &self,
        template: &'static str,
        is_retry: bool,
        max_wait: Duration,
    ) -> Result<Admission, HeldBack> {
        let endpoint = self.endpoint(template);
        let demand = Demand::arrive(Arc::clone(&endpoint), Instant::now());
        let paused_for = endpoint.lock().paused_for(Instant::now());
        if let Some(paused_for) = paused_for
            && paused_for > max_wait
        {
            return Err(HeldBack {
                paused_for: Some(paused_for),
            });
        }
        let mut held = Duration::ZERO;
        let waiting = async {
            let _retry_mark = is_retry.then(|| RetryWaiting::new(&endpoint));
            let gate = if is_retry {
                &endpoint.retries
            } else {
                &endpoint.first_attempts
            };
            // Never closed, so `acquire` cannot fail; waiting in line is what it is for.
            let _turn = gate.acquire().await.ok();
            loop {
                let now = Instant::now();
                let wait = endpoint.lock().try_send(now, is_retry, self.endpoint_rate);
                match wait {
                    Ok(()) => break,
                    Err(wait) => {
                        held = held.saturating_add(wait);
                        tokio::time::sleep(wait).await;
                    }
                }
            }
            drop(_retry_mark);
            match &self.in_flight {
                Some(slots) => Arc::clone(slots).acquire_owned().await.ok(),
                None => None,
            }
        };
        let slot = tokio::time::timeout(max_wait, waiting)
            .await
            .map_err(|_| HeldBack { paused_for: None })?;
        Ok(Admission {
            slot,
            held,
            _demand: demand,
        })
    }

    /// Learns from an attempt's outcome: a 429 pauses the endpoint and cuts its rate, a
    /// success lets the rate grow back.
    pub(crate) fn record(&self, template: &'static str, outcome: Outcome) {
        let endpoint = self.endpoint(template);
        let mut state = endpoint.lock();
        let now = Instant::now();
        match outcome {
            Outcome::Success(sent) => state.succeeded(now, sent),
            // A wait longer than the caller sits out is the caller's failure, not the
            // endpoint's pause: one absurd `Retry-After` must not silence every later request.
            Outcome::Throttled {
                wait,
                sent,
                longest,
            } => {
                if wait <= longest {
                    state.throttled(now, wait, sent, self.adaptive);
                }
            }
        }
    }

    /// Takes the cost of a retry after `timed_out` (or another retryable failure) from the
    /// budget; `None` when the budget cannot pay, so the caller gives up.
    pub(crate) fn withdraw_retry(&self, timed_out: bool) -> Option<u32> {
        let cost = if timed_out {
            TIMEOUT_RETRY_COST
        } else {
            RETRY_COST
        };
        self.budget
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |left| {
                left.checked_sub(cost)
            })
            .ok()
            .map(|_| cost)
    }

    /// Gives back to the budget after a success: what the call's retries cost, or 1 for a
    /// first-attempt success. Never above the budget's size.
    pub(crate) fn refund(&self, held: u32) {
        let amount = if held == 0 { 1 } else { held };
        let _ = self
            .budget
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |left| {
                Some(left.saturating_add(amount).min(RETRY_BUDGET))
            });
    }

    /// What is left of the retry budget.
    pub(crate) fn budget_left(&self) -> u32 {
        self.budget.load(Ordering::Acquire)
    }

    /// The endpoint's send rate in force (requests per second), if any.
    #[cfg(test)]
    pub(crate) fn rate(&self, template: &'static str) -> Option<f64> {
        self.endpoint(template).lock().rate(self.endpoint_rate)
    }
}

#[derive(Debug)]
struct Endpoint {
    /// Whose turn it is among first attempts (one at a time, in order).
    first_attempts: Semaphore,
    /// Whose turn it is among retries.
    retries: Semaphore,
    state: Mutex<EndpointState>,
}

impl Endpoint {
    fn lock(&self) -> std::sync::MutexGuard<'_, EndpointState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Counts a request as the endpoint's demand from its arrival until it is answered (or given
/// up), so that neither the time it waits in the client nor its time out is taken for an
/// idle spell.
#[derive(Debug)]
struct Demand(Arc<Endpoint>);

impl Demand {
    fn arrive(endpoint: Arc<Endpoint>, now: Instant) -> Self {
        endpoint.lock().arrived(now);
        Self(endpoint)
    }
}

impl Drop for Demand {
    fn drop(&mut self) {
        self.0.lock().departed(Instant::now());
    }
}

/// Counts a retry as waiting for as long as it lives, so first attempts let it go first.
struct RetryWaiting<'a>(&'a Endpoint);

impl<'a> RetryWaiting<'a> {
    fn new(endpoint: &'a Endpoint) -> Self {
        endpoint.lock().retries_waiting += 1;
        Self(endpoint)
    }
}

impl Drop for RetryWaiting<'_> {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.retries_waiting = state.retries_waiting.saturating_sub(1);
    }
}

#[derive(Debug)]
struct EndpointState {
    /// No request goes out before this.
    paused_until: Option<Instant>,
    /// Send tokens: at most one, so requests are spaced, never bunched.
    tokens: f64,
    last_refill: Instant,
    /// The adaptive rate, from the first throttle on.
    adaptive: Option<Cubic>,
    /// When the successes of the last second came back.
    successes: LastSecond,
    /// When the last second's requests went out.
    sends: LastSecond,
    retries_waiting: usize,
    /// Requests between their arrival and their answer (or giving up).
    demand: usize,
    /// When the last request arrived or left: when the endpoint last had demand.
    last_demand: Instant,
}

/// The moments of the last second's events (sends, or successes), for a rate.
#[derive(Debug, Default)]
struct LastSecond(VecDeque<Instant>);

impl LastSecond {
    fn note(&mut self, now: Instant) {
        // Kept in order even when a caller read its clock before another took the lock (by
        // microseconds), so that `rate` may bisect.
        let now = self.0.back().map_or(now, |last| now.max(*last));
        self.forget_before(now);
        if self.0.len() >= MAX_REMEMBERED_SUCCESSES {
            self.0.pop_front();
        }
        self.0.push_back(now);
    }

    fn forget_before(&mut self, now: Instant) {
        while self
            .0
            .front()
            .is_some_and(|at| now.saturating_duration_since(*at) >= Duration::from_secs(1))
        {
            self.0.pop_front();
        }
    }

    /// Events in the second up to `now`: a rate per second. The moments are noted in order
    /// (`note`), so the older ones are a prefix found by bisection: a scan of every remembered success per request was a
    /// sixth of a request's cost at 10,000 requests a second (the `request_cost` bench).
    fn rate(&self, now: Instant) -> f64 {
        let older = self
            .0
            .partition_point(|at| now.saturating_duration_since(*at) >= Duration::from_secs(1));
        (self.0.len() - older) as f64
    }
}

/// CUBIC's state (aws-smithy-runtime's `ClientRateLimiter`).
#[derive(Debug, Clone, Copy)]
struct Cubic {
    rate: f64,
    last_max_rate: f64,
    last_throttle: Instant,
}

impl Cubic {
    /// For an answer to a request sent before the last cut: the server admitted `admitted`
    /// requests in the last second, counting answers that came in after the cut, so the
    /// estimate of what it takes can only rise. Whether the request was that old.
    fn learn_from_stale(&mut self, sent: Instant, admitted: f64) -> bool {
        if sent > self.last_throttle {
            return false;
        }
        if admitted > self.last_max_rate {
            self.last_max_rate = admitted;
            self.rate = self.rate.max(admitted * BETA);
        }
        true
    }

    /// How long after a throttle the curve is back at `last_max_rate`.
    fn time_window(&self) -> f64 {
        (self.last_max_rate * (1.0 - BETA) / SCALE_CONSTANT).cbrt()
    }

    /// When the curve is back at `last_max_rate`: the end of its concave climb.
    fn plateau(&self) -> Instant {
        let window = seconds(self.time_window());
        self.last_throttle
            .checked_add(window)
            .unwrap_or(self.last_throttle)
    }

    /// An idle spell from `quiet_since` to `now`: its part past the plateau moves the curve's
    /// epoch on by as much, so growth past what the server took resumes where it stood and
    /// the climb back to it is not held back (RFC 9438 §5.8: no growth while
    /// application-limited, lest the rate come back far above anything the server was seen
    /// to take).
    fn skip_idle(&mut self, quiet_since: Instant, now: Instant) {
        let past_plateau = now.saturating_duration_since(quiet_since.max(self.plateau()));
        if let Some(shifted) = self.last_throttle.checked_add(past_plateau) {
            self.last_throttle = shifted;
        }
    }

    fn after_success(&self, now: Instant) -> f64 {
        let since = now.duration_since(self.last_throttle).as_secs_f64();
        let dt = since - self.time_window();
        (SCALE_CONSTANT * dt.powi(3) + self.last_max_rate).max(MIN_RATE)
    }
}

impl EndpointState {
    fn new(now: Instant) -> Self {
        Self {
            paused_until: None,
            tokens: 1.0,
            last_refill: now,
            adaptive: None,
            successes: LastSecond::default(),
            sends: LastSecond::default(),
            retries_waiting: 0,
            demand: 0,
            last_demand: now,
        }
    }

    fn paused_for(&self, now: Instant) -> Option<Duration> {
        self.paused_until
            .filter(|until| *until > now)
            .map(|until| until - now)
    }

    /// The rate in force: the lower of the configured and the adaptive one.
    fn rate(&self, configured: Option<f64>) -> Option<f64> {
        match (configured, self.adaptive.map(|cubic| cubic.rate)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn refill(&mut self, now: Instant, rate: Option<f64>) {
        if let Some(rate) = rate {
            let elapsed = now
                .saturating_duration_since(self.last_refill)
                .as_secs_f64();
            self.tokens = (self.tokens + elapsed * rate).min(1.0);
        }
        self.last_refill = now;
    }

    /// Takes a send token now, or says how long to wait for one.
    fn try_send(
        &mut self,
        now: Instant,
        is_retry: bool,
        configured: Option<f64>,
    ) -> Result<(), Duration> {
        if let Some(paused_for) = self.paused_for(now) {
            return Err(paused_for);
        }
        let rate = self.rate(configured);
        self.refill(now, rate);
        let Some(rate) = rate else {
            self.sent(now);
            return Ok(());
        };
        if !is_retry && self.retries_waiting > 0 {
            return Err(seconds(1.0 / rate));
        }
        let wait = seconds((1.0 - self.tokens).max(0.0) / rate);
        // A float shortfall below a nanosecond would sleep zero and spin: count it as there.
        if self.tokens >= 1.0 || wait.is_zero() {
            self.tokens = (self.tokens - 1.0).max(0.0);
            self.sent(now);
            return Ok(());
        }
        Err(wait)
    }

    /// Notes a send.
    fn sent(&mut self, now: Instant) {
        self.sends.note(now);
    }

    /// A request arrives wanting to go out. With no other request waiting or out for over
    /// [`IDLE`], the time since the last one left was an idle spell (a poller between ticks, a
    /// caller gone quiet): the caller, not the limiter, kept traffic away.
    fn arrived(&mut self, now: Instant) {
        let quiet_since = self.last_demand;
        if self.demand == 0
            && now.saturating_duration_since(quiet_since) > IDLE
            && let Some(cubic) = &mut self.adaptive
        {
            cubic.skip_idle(quiet_since, now);
        }
        self.demand += 1;
        self.last_demand = now;
    }

    /// A request leaves: answered, or given up.
    fn departed(&mut self, now: Instant) {
        self.demand = self.demand.saturating_sub(1);
        self.last_demand = now;
    }

    /// What the server admitted in the last second, requests per second.
    fn admitted_rate(&self, now: Instant) -> f64 {
        self.successes.rate(now)
    }

    fn succeeded(&mut self, now: Instant, sent: Instant) {
        self.successes.note(now);
        let admitted = self.admitted_rate(now);
        if let Some(cubic) = &mut self.adaptive {
            cubic.learn_from_stale(sent, admitted);
            cubic.rate = cubic.after_success(now);
        }
    }

    /// A 429 asking for `wait`: pause until then plus jitter (so many clients do not come back
    /// at once), and cut the rate to 0.7× what the server was admitting. A 429 for a request
    /// sent before the last cut is news of that same throttle: it extends the pause but does
    /// not cut again (as TCP cuts once per window). Without `adaptive`, only the pause.
    fn throttled(&mut self, now: Instant, wait: Duration, sent: Instant, adaptive: bool) {
        let wait = wait.min(MAX_PAUSE);
        let until = now
            .checked_add(wait.saturating_add(jitter(wait)))
            .unwrap_or(now);
        self.paused_until = Some(self.paused_until.map_or(until, |old| old.max(until)));
        if !adaptive {
            return;
        }
        // What the server took in the last second; when it took nothing, what was sent.
        let mut admitted = self.admitted_rate(now);
        if admitted < 1.0 {
            admitted = self.sends.rate(now);
        }
        if let Some(cubic) = &mut self.adaptive
            && cubic.learn_from_stale(sent, admitted)
        {
            return;
        }
        let rate_to_use = match self.adaptive {
            Some(cubic) => admitted.min(cubic.rate),
            None => admitted,
        }
        .max(MIN_RATE);
        self.refill(now, self.adaptive.map(|cubic| cubic.rate));
        self.adaptive = Some(Cubic {
            rate: (rate_to_use * BETA).max(MIN_RATE),
            last_max_rate: rate_to_use,
            last_throttle: now,
        });
    }
}

/// The longest pause a 429 sets (a server may ask for years); a request that would wait
/// longer than its policy allows fails at once anyway.
const MAX_PAUSE: Duration = Duration::from_secs(24 * 60 * 60);

/// `secs` as a duration; past what a `Duration` holds (a rate near zero), the longest pause.
fn seconds(secs: f64) -> Duration {
    Duration::try_from_secs_f64(secs).map_or(MAX_PAUSE, |wait| wait.min(MAX_PAUSE))
}

/// Up to a fifth of `wait` more, at most a second: spreads the clients (and processes) a
/// server told to come back at the same moment.
fn jitter(wait: Duration) -> Duration {
    let most = (wait / 5).min(Duration::from_secs(1));
    most.mul_f64(fastrand::f64())
}

#[cfg(test)]
#[path = "throttle_tests.rs"]
mod tests;
