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
    /// use futures_util::StreamExt as _;
    /// let request = client.environment_metrics("abcd1234", "production").current();
    /// let mut every_10s = std::pin::pin!(request.watch(std::time::Duration::from_secs(10)));
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
        let now = Instant::now();
        let mut ticks = tokio::time::interval_at(now.checked_add(offset).unwrap_or(now), interval);
        ticks.set_missed_tick_behavior(MissedTickBehavior::Skip);
        Box::pin(stream::unfold(
            (request, ticks),
            |(request, mut ticks)| async move {
                ticks.tick().await;
                let result = request.clone().send().await;
                Some((result, (request, ticks)))
            },
        ))
    }
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
