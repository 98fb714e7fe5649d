//! The library's poller: a metrics request sent again at every tick of an interval, as a
//! `Stream` of results ([`MetricsRequest::watch`]).
//!
//! One request at a time: the next tick's request goes out only once the previous result has
//! been taken from the stream, so ticks never overlap. A tick missed because a request (or the
//! consumer) took longer than the interval is skipped, not made up for with a burst (tokio's
//! [`MissedTickBehavior::Skip`]). Each watcher's schedule starts at a random offset within the
//! jitter, so many watchers started together do not poll in lockstep. Rate limits are the
//! client's business: a 429 pauses the endpoint for every request of the client and the
//! request waits it out; a result is an error only when the client gave up.

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use futures_core::Stream;
use futures_util::stream;
use tokio::time::{Instant, MissedTickBehavior};

use super::{CheckedMetrics, MetricsOperation, MetricsRequest, mode};
use crate::Error;

/// The results of a [`MetricsRequest`] sent at every tick; made by
/// [`MetricsRequest::watch`]. It never ends by itself: take as many results as needed, or drop
/// it to stop.
#[must_use = "a watch sends nothing until its stream is polled"]
pub struct Watch<O: MetricsOperation, M> {
    state: State<O, M>,
}

type Results<O, M> = Pin<
    Box<
        dyn Stream<Item = Result<CheckedMetrics<<O as MetricsOperation>::Response, M>, Error>>
            + Send
            + 'static,
    >,
>;

enum State<O: MetricsOperation, M> {
    Configured {
        request: MetricsRequest<O, M>,
        interval: Duration,
        jitter: Duration,
    },
    Running(Results<O, M>),
    /// Only while switching from one to the other.
    Switching,
}

// The running stream is boxed and nothing is pin-projected, so moving a `Watch` is fine.
impl<O: MetricsOperation, M> Unpin for Watch<O, M> {}

impl<O: MetricsOperation, M> fmt::Debug for Watch<O, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut shown = f.debug_struct("Watch");
        match &self.state {
            State::Configured {
                request,
                interval,
                jitter,
            } => shown
                .field("request", request)
                .field("interval", interval)
                .field("jitter", jitter),
            State::Running(_) | State::Switching => shown.field("running", &true),
        };
        shown.finish()
    }
}

impl<O, M> MetricsRequest<O, M>
where
    O: MetricsOperation + Clone,
    M: mode::Mode + 'static,
{
    /// Sends this request at every tick of `interval` (at least 1 ms, at most a year), as a
    /// stream of results.
    ///
    /// The first request goes out at a random moment within the first tenth of `interval`
    /// (see [`Watch::jitter`]) and the next ones `interval` apart; a request still running at
    /// a tick makes that tick skipped, so requests never overlap or bunch up.
    ///
    /// ```no_run
    /// # async fn run(client: baseten_api::Client) {
    /// // `next` is the watch's own: no `futures` needed (it is a `Stream` too, for its
    /// // combinators, with `futures` in your own dependencies).
    /// let request = client.environment_metrics("abcd1234", "production").current();
    /// let mut every_10s = request.watch(std::time::Duration::from_secs(10));
    /// while let Some(result) = every_10s.next().await {
    ///     match result {
    ///         Ok(now) => println!("{} series", now.readings().count()),
    ///         Err(error) => eprintln!("{error}"),
    ///     }
    /// }
    /// # }
    /// ```
    pub fn watch(self, interval: Duration) -> Watch<O, M> {
        // A year is as good as forever for a poller, and keeps the timer's arithmetic in range.
        let interval = interval.clamp(Duration::from_millis(1), Duration::from_secs(365 * 86_400));
        Watch {
            state: State::Configured {
                request: self,
                interval,
                jitter: interval / 10,
            },
        }
    }
}

impl<O, M> Watch<O, M>
where
    O: MetricsOperation + Clone,
    M: mode::Mode + 'static,
{
    /// The most the schedule's start is put off by, at random (default a tenth of the
    /// interval, never more than the interval); `Duration::ZERO` sends the first request at
    /// once. Only before the first result is taken; later it changes nothing.
    pub fn jitter(mut self, most: Duration) -> Self {
        if let State::Configured {
            jitter, interval, ..
        } = &mut self.state
        {
            *jitter = most.min(*interval);
        }
        self
    }

    fn start(request: MetricsRequest<O, M>, interval: Duration, jitter: Duration) -> Results<O, M> {
        let offset = jitter.mul_f64(fastrand::f64());
        Box::pin(every_tick(offset, interval, move || request.clone().send()))
    }
}

/// The schedule alone: `send` called once per tick of `interval` from `offset` on, the next
/// call only after the previous result was taken, and ticks missed meanwhile skipped. Kept
/// apart from the request so that its timing is tested on tokio's paused clock.
fn every_tick<F, Fut>(
    offset: Duration,
    interval: Duration,
    send: F,
) -> impl Stream<Item = Fut::Output>
where
    F: FnMut() -> Fut,
    Fut: Future,
{
    let now = Instant::now();
    let mut ticks = tokio::time::interval_at(now.checked_add(offset).unwrap_or(now), interval);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Skip);
    stream::unfold((send, ticks), |(mut send, mut ticks)| async move {
        ticks.tick().await;
        let result = send().await;
        Some((result, (send, ticks)))
    })
}

impl<O, M> Watch<O, M>
where
    O: MetricsOperation + Clone,
    M: mode::Mode + 'static,
{
    /// The next tick's result (no `futures` crate or `pin!` needed); never `None` while the
    /// watch runs.
    pub async fn next(&mut self) -> Option<Result<CheckedMetrics<O::Response, M>, Error>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }
}

impl<O, M> Stream for Watch<O, M>
where
    O: MetricsOperation + Clone,
    M: mode::Mode + 'static,
{
    type Item = Result<CheckedMetrics<O::Response, M>, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if matches!(this.state, State::Configured { .. })
            && let State::Configured {
                request,
                interval,
                jitter,
            } = std::mem::replace(&mut this.state, State::Switching)
        {
            this.state = State::Running(Self::start(request, interval, jitter));
        }
        match &mut this.state {
            State::Running(results) => results.as_mut().poll_next(cx),
            State::Configured { .. } | State::Switching => Poll::Ready(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use futures_util::StreamExt;
    use tokio::time::Instant;

    use super::every_tick;

    /// Ticks every 200 ms, the first answer taking 550 ms and the rest 10 ms, on tokio's
    /// paused clock (exact, whatever the machine's load): the ticks missed at 200 and 400 ms
    /// give one call at once (550 ms), then the schedule resumes on its grid. A burst would
    /// call again at once to catch up (560 ms); a delay would shift the grid (750, 950 ms);
    /// overlapping calls would start before the slow one ended.
    #[tokio::test(start_paused = true)]
    async fn missed_ticks_are_skipped_and_calls_never_overlap() {
        let started = Instant::now();
        let calls: Arc<Mutex<Vec<(u128, u128)>>> = Arc::default();
        let record = Arc::clone(&calls);
        let mut latency = [550_u64, 10, 10, 10, 10, 10].into_iter();
        let schedule = every_tick(Duration::ZERO, Duration::from_millis(200), move || {
            let record = Arc::clone(&record);
            let took = Duration::from_millis(latency.next().unwrap_or(10));
            async move {
                let began = started.elapsed().as_millis();
                tokio::time::sleep(took).await;
                let ended = started.elapsed().as_millis();
                if let Ok(mut calls) = record.lock() {
                    calls.push((began, ended));
                }
            }
        });
        let taken = schedule.take(5).count().await;
        assert_eq!(taken, 5);
        let calls = calls.lock().map(|calls| calls.clone()).unwrap_or_default();
        let began: Vec<u128> = calls.iter().map(|(began, _)| *began).collect();
        assert_eq!(began, [0, 550, 600, 800, 1000]);
        for pair in calls.windows(2) {
            assert!(pair[0].1 <= pair[1].0, "calls overlap: {calls:?}");
        }
    }

    /// The first call waits for the offset (the jitter's draw), then one call per interval.
    #[tokio::test(start_paused = true)]
    async fn the_schedule_starts_after_its_offset() {
        let started = Instant::now();
        let schedule = every_tick(
            Duration::from_millis(70),
            Duration::from_millis(100),
            move || std::future::ready(started.elapsed().as_millis()),
        );
        let began: Vec<u128> = schedule.take(3).collect().await;
        assert_eq!(began, [70, 170, 270]);
    }
}
