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
/// A pause in sending longer than this stops the adaptive rate's clock (see
/// [`EndpointState::try_send`]).
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
    budget: AtomicU32,
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
    /// second per endpoint (none: only the adaptive rate, after a throttle).
    pub(crate) fn new(max_in_flight: Option<usize>, endpoint_rate: Option<f64>) -> Self {
        Self {
            endpoints: Mutex::new(HashMap::new()),
            in_flight: max_in_flight
                .map(|n| Arc::new(Semaphore::new(n.clamp(1, Semaphore::MAX_PERMITS)))),
            endpoint_rate: endpoint_rate.filter(|rate| rate.is_finite() && *rate > 0.0),
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
    ) -> Result<Option<OwnedSemaphorePermit>, HeldBack> {
        let endpoint = self.endpoint(template);
        let paused_for = endpoint.lock().paused_for(Instant::now());
        if let Some(paused_for) = paused_for
            && paused_for > max_wait
        {
            return Err(HeldBack {
                paused_for: Some(paused_for),
            });
        }
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
                    Err(wait) => tokio::time::sleep(wait).await,
                }
            }
            drop(_retry_mark);
            match &self.in_flight {
                Some(slots) => Arc::clone(slots).acquire_owned().await.ok(),
                None => None,
            }
        };
        tokio::time::timeout(max_wait, waiting)
            .await
            .map_err(|_| HeldBack { paused_for: None })
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
                    state.throttled(now, wait, sent);
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
    last_send: Instant,
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
            last_send: now,
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

    /// Notes a send. After an idle spell (a poller between ticks) the adaptive rate's clock
    /// moves on by the spell, as Linux's CUBIC shifts its epoch after idle: time without
    /// traffic says nothing about what the server would take.
    fn sent(&mut self, now: Instant) {
        let idle = now.saturating_duration_since(self.last_send);
        if idle > IDLE
            && let Some(cubic) = &mut self.adaptive
        {
            let shifted = cubic.last_throttle.checked_add(idle).unwrap_or(now);
            cubic.last_throttle = shifted.min(now);
        }
        self.last_send = now;
        self.sends.note(now);
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
    /// not cut again (as TCP cuts once per window).
    fn throttled(&mut self, now: Instant, wait: Duration, sent: Instant) {
        let wait = wait.min(MAX_PAUSE);
        let until = now
            .checked_add(wait.saturating_add(jitter(wait)))
            .unwrap_or(now);
        self.paused_until = Some(self.paused_until.map_or(until, |old| old.max(until)));
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
mod tests {
    use super::*;

    const T: &str = "/v1/things/{id}";

    /// The rate counts the events of the second up to `now`, exactly at its edge, and a moment
    /// noted late (read before another took the lock) keeps the order the bisection needs.
    #[test]
    fn the_last_second_counts_to_its_edge() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let mut last = LastSecond::default();
        for ms in [0, 100, 100, 500, 900] {
            last.note(at(ms));
        }
        last.note(at(800)); // late: kept as 900
        assert_eq!(last.rate(at(900)), 6.0);
        assert_eq!(last.rate(at(999)), 6.0);
        assert_eq!(last.rate(at(1000)), 5.0);
        assert_eq!(last.rate(at(1100)), 3.0);
        assert_eq!(last.rate(at(1500)), 2.0);
        assert_eq!(last.rate(at(1899)), 2.0);
        assert_eq!(last.rate(at(1900)), 0.0);
        assert_eq!(LastSecond::default().rate(at(0)), 0.0);
    }

    /// A 429 asking for `wait`, from a request just sent by a caller waiting up to 90 s.
    fn throttled(wait: Duration) -> Outcome {
        Outcome::Throttled {
            wait,
            sent: Instant::now(),
            longest: Duration::from_secs(90),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_wait_longer_than_the_caller_waits_is_never_stored() {
        let traffic = Traffic::new(None, None);
        // `Retry-After: 1733200000`, epoch seconds sent by mistake, to a caller waiting 60 s.
        traffic.record(
            T,
            Outcome::Throttled {
                wait: Duration::from_secs(1_733_200_000),
                sent: Instant::now(),
                longest: Duration::from_secs(60),
            },
        );
        let started = Instant::now();
        let next = traffic.admit(T, false, Duration::from_secs(60)).await;
        assert!(next.is_ok(), "{next:?}");
        assert_eq!(started.elapsed(), Duration::ZERO);
        assert_eq!(traffic.rate(T), None);
        // One the caller sits out is stored, and held to (the jitter adds up to a fifth).
        traffic.record(
            T,
            Outcome::Throttled {
                wait: Duration::from_secs(60),
                sent: Instant::now(),
                longest: Duration::from_secs(60),
            },
        );
        let paused = traffic.admit(T, false, Duration::from_secs(59)).await;
        assert!(
            matches!(paused, Err(HeldBack { paused_for: Some(wait) }) if wait >= Duration::from_secs(60))
        );
    }

    #[test]
    fn unthrottled_and_unconfigured_sends_at_once() {
        let now = Instant::now();
        let mut state = EndpointState::new(now);
        for _ in 0..1000 {
            assert_eq!(state.try_send(now, false, None), Ok(()));
        }
        assert_eq!(state.rate(None), None);
    }

    #[test]
    fn configured_rate_spaces_requests() {
        let now = Instant::now();
        let mut state = EndpointState::new(now);
        assert_eq!(state.try_send(now, false, Some(10.0)), Ok(()));
        let wait = state.try_send(now, false, Some(10.0));
        assert_eq!(wait, Err(Duration::from_millis(100)));
        let later = now + Duration::from_millis(50);
        assert_eq!(
            state.try_send(later, false, Some(10.0)),
            Err(Duration::from_millis(50))
        );
        let later = now + Duration::from_millis(100);
        assert_eq!(state.try_send(later, false, Some(10.0)), Ok(()));
        // Idle time stores one token, never more.
        let idle = later + Duration::from_secs(10);
        assert_eq!(state.try_send(idle, false, Some(10.0)), Ok(()));
        assert!(state.try_send(idle, false, Some(10.0)).is_err());
    }

    #[test]
    fn throttle_pauses_and_cuts_to_what_was_admitted() {
        let now = Instant::now();
        let mut state = EndpointState::new(now);
        for i in 0..50 {
            state.succeeded(now + Duration::from_millis(i), now);
        }
        let at = now + Duration::from_millis(100);
        state.throttled(at, Duration::from_secs(1), at);
        let paused = state.paused_for(at).unwrap_or_default();
        assert!(paused >= Duration::from_secs(1), "{paused:?}");
        assert!(paused <= Duration::from_millis(1200), "{paused:?}");
        assert!(state.try_send(at, true, None).is_err());
        let rate = state.rate(None).unwrap_or_default();
        assert!((rate - 35.0).abs() < 1e-9, "{rate}");
        // The configured rate still caps it.
        assert_eq!(state.rate(Some(10.0)), Some(10.0));
        let cubic = state.adaptive.unwrap_or_else(|| panic!("adaptive"));
        assert!((cubic.last_max_rate - 50.0).abs() < 1e-9);
        // Back at the old maximum after the time window, above it later.
        let window = Duration::from_secs_f64(cubic.time_window());
        assert!((cubic.after_success(at + window) - 50.0).abs() < 1e-6);
        assert!(cubic.after_success(at + window * 2) > 50.0);
        assert!(cubic.after_success(at + window / 2) < 50.0);
        assert!(cubic.after_success(at + window / 2) > 35.0);
    }

    #[test]
    fn successes_grow_the_rate_back() {
        let now = Instant::now();
        let mut state = EndpointState::new(now);
        state.succeeded(now, now);
        state.throttled(now, Duration::ZERO, now);
        let cut = state.rate(None).unwrap_or_default();
        let later = now + Duration::from_secs(5);
        state.succeeded(later, later);
        let grown = state.rate(None).unwrap_or_default();
        assert!(grown > cut, "{cut} -> {grown}");
    }

    #[test]
    fn answers_to_requests_sent_before_the_cut_do_not_cut_again() {
        let start = Instant::now();
        let mut state = EndpointState::new(start);
        for _ in 0..10 {
            state.succeeded(start, start);
        }
        let first = start + Duration::from_millis(5);
        state.throttled(first, Duration::from_secs(1), start);
        assert_eq!(state.rate(None), Some(7.0));
        // The rest of the burst: 40 more admitted, then more 429s for it.
        for _ in 0..40 {
            state.succeeded(first, start);
        }
        state.throttled(first, Duration::from_secs(2), start);
        let rate = state.rate(None).unwrap_or_default();
        assert!((rate - 35.0).abs() < 1e-9, "{rate}");
        let paused = state.paused_for(first).unwrap_or_default();
        assert!(paused >= Duration::from_secs(2), "{paused:?}");
        // A 429 for a request sent after the cut cuts again.
        let later = first + Duration::from_millis(10);
        state.throttled(later, Duration::ZERO, later);
        let rate = state.rate(None).unwrap_or_default();
        assert!(rate < 35.0, "{rate}");
    }

    #[test]
    fn a_stale_answer_only_ever_raises_the_estimate() {
        let cut = Instant::now();
        let mut cubic = Cubic {
            rate: 1.0,
            last_max_rate: 10.0,
            last_throttle: cut,
        };
        // Sent after the cut: news, not stale.
        assert!(!cubic.learn_from_stale(cut + Duration::from_millis(1), 50.0));
        assert_eq!((cubic.rate, cubic.last_max_rate), (1.0, 10.0));
        // Sent at the very moment of the cut: stale. Admitting as much as known: no change.
        assert!(cubic.learn_from_stale(cut, 10.0));
        assert_eq!((cubic.rate, cubic.last_max_rate), (1.0, 10.0));
        // Admitting more: the estimate rises, and the rate with it.
        let before = cut.checked_sub(Duration::from_millis(1)).unwrap_or(cut);
        assert!(cubic.learn_from_stale(before, 20.0));
        assert_eq!(cubic.last_max_rate, 20.0);
        assert!((cubic.rate - 14.0).abs() < 1e-9, "{}", cubic.rate);
    }

    #[test]
    fn absurd_waits_and_rates_saturate() {
        let now = Instant::now();
        let mut state = EndpointState::new(now);
        state.throttled(now, Duration::MAX, now);
        assert_eq!(state.paused_for(now).map(|p| p >= MAX_PAUSE), Some(true));
        let mut state = EndpointState::new(now);
        assert_eq!(state.try_send(now, false, Some(1e-300)), Ok(()));
        assert_eq!(state.try_send(now, false, Some(1e-300)), Err(MAX_PAUSE));
    }

    #[test]
    fn a_throttle_with_nothing_admitted_starts_from_what_was_sent() {
        let now = Instant::now();
        let mut state = EndpointState::new(now);
        for _ in 0..20 {
            assert_eq!(state.try_send(now, false, None), Ok(()));
        }
        state.throttled(now, Duration::ZERO, now);
        let rate = state.rate(None).unwrap_or_default();
        assert!((rate - 14.0).abs() < 1e-9, "{rate}");
    }

    #[test]
    fn idle_time_does_not_grow_the_rate() {
        let start = Instant::now();
        let mut state = EndpointState::new(start);
        for _ in 0..50 {
            state.succeeded(start, start);
        }
        state.throttled(start, Duration::ZERO, start);
        let busy = start + Duration::from_secs(2);
        assert_eq!(state.try_send(busy, false, None), Ok(()));
        state.succeeded(busy, busy);
        let before_idle = state.rate(None).unwrap_or_default();
        // Ten idle seconds, then traffic again: the curve resumes where it left off.
        let back = busy + Duration::from_secs(10);
        assert_eq!(state.try_send(back, false, None), Ok(()));
        state.succeeded(back, back);
        let after_idle = state.rate(None).unwrap_or_default();
        assert!(after_idle < 50.0, "{before_idle} -> {after_idle}");
        assert!(after_idle >= before_idle, "{before_idle} -> {after_idle}");
        // Without the shift it would be far above the old maximum.
        let cubic = state.adaptive.unwrap_or_else(|| panic!("adaptive"));
        assert!(cubic.last_throttle > start + Duration::from_secs(9));
    }

    #[test]
    fn first_attempts_yield_to_waiting_retries() {
        let now = Instant::now();
        let mut state = EndpointState::new(now);
        state.throttled(now, Duration::ZERO, now);
        let later = now + Duration::from_secs(10);
        state.retries_waiting = 1;
        assert!(state.try_send(later, false, None).is_err());
        assert_eq!(state.try_send(later, true, None), Ok(()));
    }

    #[test]
    fn budget_pays_for_retries_and_refunds() {
        let traffic = Traffic::new(None, None);
        assert_eq!(traffic.budget_left(), RETRY_BUDGET);
        assert_eq!(traffic.withdraw_retry(false), Some(RETRY_COST));
        assert_eq!(traffic.withdraw_retry(true), Some(TIMEOUT_RETRY_COST));
        assert_eq!(traffic.budget_left(), RETRY_BUDGET - 15);
        traffic.refund(15);
        assert_eq!(traffic.budget_left(), RETRY_BUDGET);
        traffic.refund(0);
        assert_eq!(traffic.budget_left(), RETRY_BUDGET);
        let mut paid = 0;
        while traffic.withdraw_retry(true).is_some() {
            paid += 1;
        }
        assert_eq!(paid, RETRY_BUDGET / TIMEOUT_RETRY_COST);
        assert_eq!(traffic.withdraw_retry(false), None);
        traffic.refund(0);
        assert_eq!(traffic.budget_left(), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn admit_waits_out_a_pause_and_gives_up_on_a_long_one() {
        let traffic = Traffic::new(None, None);
        traffic.record(T, Outcome::Success(Instant::now()));
        traffic.record(T, throttled(Duration::from_secs(2)));
        let started = Instant::now();
        let admitted = traffic.admit(T, false, Duration::from_secs(60)).await;
        assert!(admitted.is_ok());
        assert!(started.elapsed() >= Duration::from_secs(2));
        traffic.record(T, throttled(Duration::from_secs(90)));
        let held = traffic.admit(T, false, Duration::from_secs(90)).await;
        assert!(
            matches!(held, Err(HeldBack { paused_for: Some(wait) }) if wait >= Duration::from_secs(90))
        );
        // Other endpoints are not paused.
        assert!(traffic.admit("/other", false, Duration::ZERO).await.is_ok());
        assert_eq!(traffic.rate("/other"), None);
    }

    #[test]
    fn last_second_forgets_older_events() {
        let now = Instant::now();
        let mut events = LastSecond::default();
        for i in 0..5 {
            events.note(now + Duration::from_millis(i * 100));
        }
        let later = now + Duration::from_millis(1250);
        events.note(later);
        // The two within the second before `later` (300 and 400 ms), and `later` itself.
        assert_eq!(events.0.len(), 3);
        assert!((events.rate(later) - 3.0).abs() < 1e-9);
    }

    #[tokio::test(start_paused = true)]
    async fn an_admitted_retry_stops_holding_first_attempts_back() {
        let traffic = Traffic::new(None, Some(10.0));
        assert!(traffic.admit(T, true, Duration::from_secs(1)).await.is_ok());
        let started = Instant::now();
        let first = traffic.admit(T, false, Duration::from_secs(1)).await;
        assert!(first.is_ok(), "{first:?}");
        assert!(started.elapsed() <= Duration::from_millis(100));
    }

    #[tokio::test(start_paused = true)]
    async fn in_flight_cap_hands_out_slots() {
        let traffic = Traffic::new(Some(2), None);
        let a = traffic.admit(T, false, Duration::from_secs(1)).await;
        let b = traffic.admit(T, false, Duration::from_secs(1)).await;
        assert!(matches!((&a, &b), (Ok(Some(_)), Ok(Some(_)))));
        let c = traffic.admit(T, false, Duration::from_secs(1)).await;
        assert_eq!(c.err(), Some(HeldBack { paused_for: None }));
        drop(a);
        assert!(
            traffic
                .admit(T, false, Duration::from_secs(1))
                .await
                .is_ok()
        );
    }
}
