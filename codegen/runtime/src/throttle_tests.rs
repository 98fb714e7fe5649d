//! Tests of the shared traffic state: the pause after a 429, the rate (configured, and the
//! adaptive one's cut, climb and idle rule), the retry budget, and properties over caller
//! patterns on tokio's paused clock (the rate recovers after one 429 for every kind of caller;
//! a cut still holds a storm to the fleet bar).

use std::time::Duration;

use futures_util::future::join_all;
use proptest::prelude::*;
use tokio::time::Instant;

use super::{
    Admission, Cubic, EndpointState, HeldBack, IDLE, LastSecond, MAX_PAUSE, Outcome, RETRY_BUDGET,
    RETRY_COST, TIMEOUT_RETRY_COST, Traffic,
};

const T: &str = "/v1/things/{id}";

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
    let traffic = Traffic::new(None, None, true);
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
    state.throttled(at, Duration::from_secs(1), at, true);
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
    state.throttled(now, Duration::ZERO, now, true);
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
    state.throttled(first, Duration::from_secs(1), start, true);
    assert_eq!(state.rate(None), Some(7.0));
    // The rest of the burst: 40 more admitted, then more 429s for it.
    for _ in 0..40 {
        state.succeeded(first, start);
    }
    state.throttled(first, Duration::from_secs(2), start, true);
    let rate = state.rate(None).unwrap_or_default();
    assert!((rate - 35.0).abs() < 1e-9, "{rate}");
    let paused = state.paused_for(first).unwrap_or_default();
    assert!(paused >= Duration::from_secs(2), "{paused:?}");
    // A 429 for a request sent after the cut cuts again.
    let later = first + Duration::from_millis(10);
    state.throttled(later, Duration::ZERO, later, true);
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
    state.throttled(now, Duration::MAX, now, true);
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
    state.throttled(now, Duration::ZERO, now, true);
    let rate = state.rate(None).unwrap_or_default();
    assert!((rate - 14.0).abs() < 1e-9, "{rate}");
}

/// A request through the state's demand bookkeeping: arrives at `at`, is sent and answered
/// at once.
fn send_at(state: &mut EndpointState, at: Instant) {
    state.arrived(at);
    assert_eq!(state.try_send(at, false, None), Ok(()));
    state.departed(at);
}

/// 50 admitted in the second before a cut at `start`: K = ∛(50 · 0.3 / 0.4) ≈ 3.35 s.
fn cut_from_fifty(start: Instant) -> EndpointState {
    let mut state = EndpointState::new(start);
    for _ in 0..50 {
        state.succeeded(start, start);
    }
    state.throttled(start, Duration::ZERO, start, true);
    state
}

/// Requests every half second from `from` to `to`, each answered at once: demand throughout.
fn busy(state: &mut EndpointState, from: Instant, to: Instant) {
    let mut now = from;
    while now <= to {
        send_at(state, now);
        state.succeeded(now, now);
        now += Duration::from_millis(500);
    }
}

fn curve(state: &EndpointState) -> Cubic {
    state.adaptive.unwrap_or_else(|| panic!("no adaptive rate"))
}

#[test]
fn idle_time_past_the_plateau_does_not_grow_the_rate() {
    let start = Instant::now();
    let mut state = cut_from_fifty(start);
    let until = start + Duration::from_secs(5);
    busy(&mut state, start, until);
    assert_eq!(curve(&state).last_throttle, start);
    let before_idle = state.rate(None).unwrap_or_default();
    assert!(before_idle > 50.0, "{before_idle}");
    // Ten idle seconds, then traffic again: growth past the old maximum resumes where it
    // stood (without the shift it would be above 400).
    let back = until + Duration::from_secs(10);
    send_at(&mut state, back);
    assert_eq!(curve(&state).last_throttle, start + Duration::from_secs(10));
    state.succeeded(back, back);
    let after_idle = state.rate(None).unwrap_or_default();
    assert!(
        (after_idle - before_idle).abs() < 1e-9,
        "{before_idle} -> {after_idle}"
    );
}

#[test]
fn idle_time_before_the_plateau_still_brings_the_rate_back() {
    let start = Instant::now();
    let mut state = cut_from_fifty(start);
    let early = start + Duration::from_secs(1);
    send_at(&mut state, early);
    state.succeeded(early, early);
    assert!(state.rate(None).unwrap_or_default() < 50.0);
    let window = Duration::from_secs_f64(curve(&state).time_window());
    // Back after ten quiet seconds: the climb to the old maximum was not held back, the
    // growth past it was.
    let back = early + Duration::from_secs(10);
    send_at(&mut state, back);
    let cubic = curve(&state);
    let since = back - cubic.last_throttle;
    assert!(
        since.abs_diff(window) < Duration::from_micros(1),
        "{since:?} {window:?}"
    );
    state.succeeded(back, back);
    let rate = state.rate(None).unwrap_or_default();
    assert!((rate - 50.0).abs() < 1e-6, "{rate}");
}

#[test]
fn a_quiet_second_is_not_yet_an_idle_spell() {
    let start = Instant::now();
    let mut state = cut_from_fifty(start);
    let past_plateau = start + Duration::from_secs(10);
    busy(&mut state, start, past_plateau);
    send_at(&mut state, past_plateau + IDLE);
    assert_eq!(curve(&state).last_throttle, start);
    let just_past = past_plateau + IDLE * 2 + Duration::from_nanos(1);
    send_at(&mut state, just_past);
    assert_eq!(
        curve(&state).last_throttle,
        start + IDLE + Duration::from_nanos(1)
    );
}

#[test]
fn waiting_in_the_client_and_answers_out_are_no_idle_spell() {
    let start = Instant::now();
    let mut state = EndpointState::new(start);
    state.succeeded(start, start);
    state.throttled(start, Duration::ZERO, start, true);
    // The caller: one request at a time, the first held ~1.43 s by the cut rate of 0.7.
    let mut now = start + Duration::from_millis(1);
    let mut held = Vec::new();
    for _ in 0..16 {
        state.arrived(now);
        while let Err(wait) = state.try_send(now, false, None) {
            held.push(wait);
            now += wait;
        }
        let sent = now;
        now += Duration::from_millis(5);
        state.departed(now);
        state.succeeded(now, sent);
    }
    assert_eq!(curve(&state).last_throttle, start, "{held:?}");
    assert!(held[0] > Duration::from_millis(1400), "{held:?}");
    assert!(
        held.iter()
            .rev()
            .take(5)
            .all(|wait| *wait < Duration::from_millis(200)),
        "{held:?}"
    );
    // Another request waiting or out holds the clock too, however long the gap between
    // arrivals; the quiet time counts from when the last one left.
    let mut state = cut_from_fifty(start);
    let later = start + Duration::from_secs(10);
    busy(&mut state, start, later);
    state.arrived(later);
    state.arrived(later + Duration::from_secs(30));
    assert_eq!(curve(&state).last_throttle, start);
    state.departed(later + Duration::from_secs(30));
    state.arrived(later + Duration::from_secs(40));
    assert_eq!(curve(&state).last_throttle, start);
    state.departed(later + Duration::from_secs(40));
    state.departed(later + Duration::from_secs(45));
    assert_eq!(state.demand, 0);
    state.arrived(later + Duration::from_secs(47));
    assert_eq!(curve(&state).last_throttle, start + Duration::from_secs(2));
    assert_eq!(state.demand, 1);
}

#[test]
fn without_the_adaptive_rate_a_throttle_only_pauses() {
    let now = Instant::now();
    let mut state = EndpointState::new(now);
    for _ in 0..10 {
        state.succeeded(now, now);
    }
    state.throttled(now, Duration::from_secs(1), now, false);
    assert!(
        state
            .paused_for(now)
            .is_some_and(|wait| wait >= Duration::from_secs(1))
    );
    assert_eq!(state.rate(None), None);
    assert_eq!(state.rate(Some(3.0)), Some(3.0));
    let traffic = Traffic::new(None, None, false);
    traffic.record(T, throttled(Duration::ZERO));
    assert_eq!(traffic.rate(T), None);
}

#[tokio::test(start_paused = true)]
async fn admit_reports_the_waits_it_imposed() {
    let traffic = Traffic::new(None, None, true);
    let admitted = traffic.admit(T, false, Duration::from_secs(60)).await;
    assert_eq!(admitted.map(|a| a.held), Ok(Duration::ZERO));
    traffic.record(T, Outcome::Success(Instant::now()));
    traffic.record(T, throttled(Duration::from_secs(2)));
    // The pause (and its jitter), then the cut rate's spacing: 1 / 0.7 s.
    let started = Instant::now();
    let first = traffic.admit(T, false, Duration::from_secs(60)).await;
    let paused = first.map(|a| a.held).unwrap_or_default();
    assert!(paused >= Duration::from_secs(2), "{paused:?}");
    // The timer sleeps whole milliseconds.
    let slept = started.elapsed();
    assert!(
        slept >= paused && slept - paused < Duration::from_millis(1),
        "{slept:?}"
    );
    let second = traffic.admit(T, false, Duration::from_secs(60)).await;
    assert_eq!(
        second.map(|a| a.held),
        Ok(Duration::from_secs_f64(1.0 / 0.7))
    );
}

#[test]
fn first_attempts_yield_to_waiting_retries() {
    let now = Instant::now();
    let mut state = EndpointState::new(now);
    state.throttled(now, Duration::ZERO, now, true);
    let later = now + Duration::from_secs(10);
    state.retries_waiting = 1;
    assert!(state.try_send(later, false, None).is_err());
    assert_eq!(state.try_send(later, true, None), Ok(()));
}

#[test]
fn budget_pays_for_retries_and_refunds() {
    let traffic = Traffic::new(None, None, true);
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
    let traffic = Traffic::new(None, None, true);
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
    let traffic = Traffic::new(None, Some(10.0), true);
    assert!(traffic.admit(T, true, Duration::from_secs(1)).await.is_ok());
    let started = Instant::now();
    let first = traffic.admit(T, false, Duration::from_secs(1)).await;
    assert!(first.is_ok(), "{first:?}");
    assert!(started.elapsed() <= Duration::from_millis(100));
}

#[tokio::test(start_paused = true)]
async fn in_flight_cap_hands_out_slots() {
    let traffic = Traffic::new(Some(2), None, true);
    let a = traffic.admit(T, false, Duration::from_secs(1)).await;
    let b = traffic.admit(T, false, Duration::from_secs(1)).await;
    assert!(matches!(
        (&a, &b),
        (
            Ok(Admission { slot: Some(_), .. }),
            Ok(Admission { slot: Some(_), .. })
        )
    ));
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

/// How one kind of caller sends to an endpoint (each request answered `latency` after it goes
/// out).
#[derive(Debug, Clone, Copy)]
enum Caller {
    /// One request at a time, the next `think` after the last answer.
    OneAtATime { think: Duration },
    /// `size` requests at once, every `every`.
    Bursts { size: usize, every: Duration },
    /// `callers` callers each sending one request at a time.
    Concurrent { callers: usize },
    /// A poller every `period` (missed ticks skipped, one request at a time), slower or
    /// faster than the cut rate's spacing (1 / 0.7 s after a lone request).
    Poller { period: Duration },
}

impl Caller {
    /// The longest the caller itself leaves between requests.
    fn longest_gap(self) -> Duration {
        match self {
            Self::OneAtATime { think } => think,
            Self::Bursts { every, .. } => every,
            Self::Concurrent { .. } => Duration::ZERO,
            Self::Poller { period } => period,
        }
    }
}

/// The server of the recovery property: it admits everything, except that the first answer
/// after `throttle_next` is set is one 429.
#[derive(Debug, Default)]
struct OneThrottle {
    throttle_next: bool,
    /// When the 429 was recorded, and the curve's estimate of what the server took then.
    cut: Option<(Instant, f64)>,
    /// When each success came back.
    successes: Vec<Instant>,
    /// Successes the server admitted in the second before the 429.
    admitted_before_cut: usize,
    /// Each success from the curve's plateau on: (when, the rate then, the estimate then).
    after_plateau: Vec<(Instant, f64, f64)>,
}

type Shared = std::sync::Arc<std::sync::Mutex<OneThrottle>>;

fn lock(shared: &Shared) -> std::sync::MutexGuard<'_, OneThrottle> {
    shared
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One call: attempts until a success, a 429 asking for `wait` retried after the pause.
async fn call(traffic: &Traffic, server: &Shared, latency: Duration, wait: Duration) {
    let mut is_retry = false;
    for _ in 0..3 {
        let admitted = traffic.admit(T, is_retry, Duration::from_secs(60));
        let Ok(admission) = admitted.await else {
            return;
        };
        let sent = Instant::now();
        tokio::time::sleep(latency).await;
        drop(admission);
        let now = Instant::now();
        let mut server = lock(server);
        if server.throttle_next {
            server.throttle_next = false;
            let outcome = Outcome::Throttled {
                wait,
                sent,
                longest: Duration::from_secs(60),
            };
            traffic.record(T, outcome);
            let estimate = curve(&traffic.endpoint(T).lock()).last_max_rate;
            server.admitted_before_cut = server
                .successes
                .iter()
                .filter(|at| now - **at < Duration::from_secs(1))
                .count();
            server.cut = Some((now, estimate));
            is_retry = true;
            continue;
        }
        traffic.record(T, Outcome::Success(sent));
        server.successes.push(now);
        if let Some((cut, _)) = server.cut {
            let cubic = curve(&traffic.endpoint(T).lock());
            // K = ∛(W_max (1 − β) / C), RFC 9438 §4.2 with aws-sdk's β = 0.7 and C = 0.4.
            let window = Duration::from_secs_f64((cubic.last_max_rate * 0.3 / 0.4).cbrt());
            if now >= cut + window {
                server
                    .after_plateau
                    .push((now, cubic.rate, cubic.last_max_rate));
            }
        }
        return;
    }
}

/// Runs `caller` against `traffic` until stopped.
async fn run_caller(
    caller: Caller,
    traffic: &Traffic,
    server: &Shared,
    latency: Duration,
    wait: Duration,
) {
    match caller {
        Caller::OneAtATime { think } => loop {
            call(traffic, server, latency, wait).await;
            tokio::time::sleep(think).await;
        },
        Caller::Bursts { size, every } => loop {
            let burst = (0..size).map(|_| call(traffic, server, latency, wait));
            join_all(burst).await;
            tokio::time::sleep(every).await;
        },
        Caller::Concurrent { callers } => {
            let each = (0..callers).map(|_| async {
                loop {
                    call(traffic, server, latency, wait).await;
                }
            });
            join_all(each).await;
        }
        Caller::Poller { period } => {
            let mut ticks = tokio::time::interval(period);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            loop {
                ticks.tick().await;
                call(traffic, server, latency, wait).await;
            }
        }
    }
}

fn caller() -> impl Strategy<Value = Caller> {
    let ms = |range: std::ops::Range<u64>| range.prop_map(Duration::from_millis);
    prop_oneof![
        ms(0..400).prop_map(|think| Caller::OneAtATime { think }),
        (2..20usize, ms(200..4000)).prop_map(|(size, every)| Caller::Bursts { size, every }),
        (2..10usize).prop_map(|callers| Caller::Concurrent { callers }),
        // Faster and slower than the cut rate's 1.43 s.
        ms(100..6000).prop_map(|period| Caller::Poller { period }),
    ]
}

/// After one 429 and only successes afterwards, what the recovery property checks: the curve's
/// estimate is at least what the server admitted in the second before; at every success from
/// the curve's plateau on (K after the cut) the rate is at least the estimate; and a success
/// comes within K (or the pause, if longer) plus a margin: two seconds (a wait at the slowest
/// rate) plus the caller's own longest gap and one answer's latency.
fn recovers(
    caller: Caller,
    latency: Duration,
    wait: Duration,
    warm_up: Duration,
) -> Result<(), TestCaseError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .map_err(|error| TestCaseError::fail(error.to_string()))?;
    let server = Shared::default();
    let (cut, estimate) = runtime
        .block_on(async {
            let traffic = Traffic::new(None, None, true);
            let traffic = &traffic;
            let run = run_caller(caller, traffic, &server, latency, wait);
            let watch = async {
                tokio::time::sleep(warm_up).await;
                lock(&server).throttle_next = true;
                // Bounded: the caller answers within its longest gap.
                let mut cut = None;
                for _ in 0..1000 {
                    cut = lock(&server).cut;
                    if cut.is_some() {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                let (cut, estimate) = cut?;
                let window = Duration::from_secs_f64((estimate * 0.3 / 0.4).cbrt());
                let deadline = cut + window.max(wait * 6 / 5) + margin(caller, latency);
                tokio::time::sleep_until(deadline + Duration::from_millis(1)).await;
                Some((cut, estimate))
            };
            tokio::select! {
                () = run => None,
                cut = watch => cut,
            }
        })
        .ok_or_else(|| TestCaseError::fail("no 429 was answered"))?;
    let server = lock(&server);
    prop_assert!(
        estimate >= server.admitted_before_cut as f64,
        "estimate {estimate} below the {} admitted",
        server.admitted_before_cut
    );
    for (at, rate, estimate) in &server.after_plateau {
        prop_assert!(
            *rate >= *estimate - 1e-9,
            "{:?} after the cut the rate is {rate}, below the {estimate} admitted before",
            *at - cut
        );
    }
    let window = Duration::from_secs_f64((estimate * 0.3 / 0.4).cbrt());
    let deadline = cut + window.max(wait * 6 / 5) + margin(caller, latency);
    prop_assert!(
        server
            .after_plateau
            .iter()
            .any(|(at, _, _)| *at <= deadline),
        "no success between the plateau ({window:?}) and the deadline ({:?}): {:?}",
        deadline - cut,
        server
            .successes
            .iter()
            .rev()
            .take(3)
            .map(|at| *at - cut)
            .collect::<Vec<_>>()
    );
    Ok(())
}

fn margin(caller: Caller, latency: Duration) -> Duration {
    Duration::from_secs(2) + caller.longest_gap() + latency
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Issue 43: one 429 must not slow an endpoint for minutes, whatever the caller's pattern.
    #[test]
    fn after_one_throttle_every_caller_gets_the_rate_back(
        caller in caller(),
        latency in (10..150u64).prop_map(Duration::from_millis),
        wait in prop_oneof![Just(0u64), 1..2500u64].prop_map(Duration::from_millis),
        warm_up in (0..3000u64).prop_map(Duration::from_millis),
    ) {
        recovers(caller, latency, wait, warm_up)?;
    }
}

/// The fleet test's server (`mock::throttled` with `RetryAfter::UntilWindowEnd`): `limit`
/// requests per one-second window, the rest refused until the window ends.
#[derive(Debug)]
struct WindowLimit {
    started: Instant,
    limit: u32,
    window: u64,
    count: u32,
    requests: u64,
}

impl WindowLimit {
    /// `None` when admitted, else the wait a 429 asks for.
    fn answer(&mut self, now: Instant) -> Option<Duration> {
        self.requests += 1;
        let since = now - self.started;
        if since.as_secs() != self.window {
            self.window = since.as_secs();
            self.count = 0;
        }
        if self.count < self.limit {
            self.count += 1;
            return None;
        }
        Some(Duration::from_secs(self.window + 1) - since)
    }
}

/// The fleet test on the paused clock: `pollers` pollers every 500 ms for 8 s through one
/// client's traffic state (3 attempts a poll, a 429 waited out), against `limit` requests a
/// second. Requests sent and polls that succeeded, and polls lost.
async fn storm(pollers: usize, limit: u32) -> (u64, u64, u64) {
    let traffic = Traffic::new(None, None, true);
    let started = Instant::now();
    let server = std::sync::Mutex::new(WindowLimit {
        started,
        limit,
        window: 0,
        count: 0,
        requests: 0,
    });
    let until = started + Duration::from_secs(8);
    let poller = |index: usize| {
        let (traffic, server) = (&traffic, &server);
        async move {
            let (mut ok, mut lost) = (0u64, 0u64);
            // The library's poller starts within a tenth of its interval.
            let start = started + Duration::from_millis(50) * index as u32 / pollers as u32;
            let mut ticks = tokio::time::interval_at(start, Duration::from_millis(500));
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            while Instant::now() < until {
                ticks.tick().await;
                let mut succeeded = false;
                for attempt in 0..3 {
                    let admitted = traffic.admit(T, attempt > 0, Duration::from_secs(60));
                    let Ok(admission) = admitted.await else {
                        break;
                    };
                    let sent = Instant::now();
                    tokio::time::sleep(Duration::from_millis(1)).await;
                    drop(admission);
                    let refused = server
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .answer(sent);
                    match refused {
                        None => {
                            traffic.record(T, Outcome::Success(sent));
                            succeeded = true;
                            break;
                        }
                        Some(wait) => traffic.record(
                            T,
                            Outcome::Throttled {
                                wait,
                                sent,
                                longest: Duration::from_secs(60),
                            },
                        ),
                    }
                }
                if succeeded {
                    ok += 1;
                } else {
                    lost += 1;
                }
            }
            (ok, lost)
        }
    };
    let results = join_all((0..pollers).map(poller)).await;
    let requests = server
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .requests;
    let ok = results.iter().map(|(ok, _)| ok).sum();
    let lost = results.iter().map(|(_, lost)| lost).sum();
    (requests, ok, lost)
}

/// A cut still holds a storm: the fleet test's bar (at most 1.5 requests per successful poll,
/// none lost) on the paused clock, where a busy machine cannot move it.
#[tokio::test(start_paused = true)]
async fn a_cut_still_holds_a_storm_to_the_fleet_bar() {
    for (pollers, limit) in [(200, 50), (100, 50), (300, 100), (200, 20)] {
        let (requests, ok, lost) = storm(pollers, limit).await;
        eprintln!(
            "{pollers} pollers, {limit}/s: {:.2} requests per successful poll ({requests} for {ok}), {lost} lost",
            requests as f64 / ok as f64
        );
        assert_eq!(lost, 0, "{pollers} pollers, {limit}/s");
        assert!(requests * 2 <= ok * 3, "{requests} requests for {ok} polls");
    }
}

/// An admission is the endpoint's demand until it is dropped (the attempt answered): while one
/// is out no quiet time counts; after it, the quiet time past the plateau is skipped.
#[tokio::test(start_paused = true)]
async fn an_admission_is_demand_until_dropped() {
    let traffic = Traffic::new(None, None, true);
    for _ in 0..50 {
        traffic.record(T, Outcome::Success(Instant::now()));
    }
    traffic.record(T, throttled(Duration::ZERO));
    let cut = Instant::now();
    let out = traffic.admit(T, false, Duration::from_secs(60)).await;
    assert_eq!(traffic.endpoint(T).lock().demand, 1);
    // Out for ten seconds (a slow answer), then another request: no idle spell.
    tokio::time::sleep(Duration::from_secs(10)).await;
    let next = traffic.admit(T, false, Duration::from_secs(60)).await;
    assert_eq!(curve(&traffic.endpoint(T).lock()).last_throttle, cut);
    drop((out, next));
    assert_eq!(traffic.endpoint(T).lock().demand, 0);
    // Ten quiet seconds after both left, past the plateau: skipped.
    tokio::time::sleep(Duration::from_secs(10)).await;
    let after_quiet = traffic.admit(T, false, Duration::from_secs(60)).await;
    assert!(after_quiet.is_ok());
    assert_eq!(
        curve(&traffic.endpoint(T).lock()).last_throttle,
        cut + Duration::from_secs(10)
    );
    // Given up waiting counts as leaving too.
    let state = traffic.endpoint(T);
    state.lock().paused_until = Some(Instant::now() + Duration::from_secs(30));
    let gave_up = traffic.admit(T, false, Duration::from_secs(5)).await;
    assert!(gave_up.is_err());
    assert_eq!(state.lock().demand, 1);
}

/// A pause exactly as long as the caller waits is sat out; a nanosecond longer is not.
#[tokio::test(start_paused = true)]
async fn a_pause_as_long_as_the_wait_is_sat_out() {
    let traffic = Traffic::new(None, None, true);
    let wait = Duration::from_secs(5);
    traffic.endpoint(T).lock().paused_until = Some(Instant::now() + wait);
    let sat_out = traffic.admit(T, false, wait).await;
    assert_eq!(sat_out.map(|a| a.held), Ok(wait));
    traffic.endpoint(T).lock().paused_until = Some(Instant::now() + wait);
    let refused = traffic
        .admit(T, false, wait - Duration::from_nanos(1))
        .await;
    assert_eq!(
        refused.err(),
        Some(HeldBack {
            paused_for: Some(wait)
        })
    );
}

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
