//! Typestate metrics requests: what the API refuses does not compile.
//!
//! A generated crate's `Client` has one entry point per metrics operation it recognised in its
//! document (the workspace's `baseten-api` has `environment_metrics(model, env)` and
//! `deployment_metrics(model, deployment)`); each returns a [`MetricsRequest`] with no mode
//! chosen yet, over that operation's own response type. Choosing a mode fixes what the request
//! may carry:
//!
//! | Mode | Chosen with | Window | Result | Read with |
//! |---|---|---|---|---|
//! | `CURRENT` | [`current()`](MetricsRequest::current) | none (a snapshot taken now) | [`CurrentMetrics`] | [`values`](CheckedMetrics::values), [`readings`](CheckedMetrics::readings), [`reading`](CheckedMetrics::reading) |
//! | `SUMMARY` | [`summary(window)`](MetricsRequest::summary) | a [`Window`] | [`SummaryMetrics`] | the same |
//! | `SERIES` | [`series(window)`](MetricsRequest::series) | a [`Window`] | [`SeriesMetrics`] | [`steps`](CheckedMetrics::steps), [`step_seconds`](CheckedMetrics::step_seconds), [`series`](CheckedMetrics::series) |
//!
//! The compiler refuses sending without a mode, a window on `CURRENT`, an unchecked
//! `(start, end)` pair where a [`Window`] belongs, and reading steps from a result that holds
//! one value set. A [`Window`] is checked when it is built (start before end, at most
//! [`Window::MAX_SPAN_MS`]), so nothing the API would refuse for its window is sent.
//!
//! A request owns what it needs (a clone of the client, which shares one connection pool, and
//! the ids), so it is `'static` and `Send`: it can be built in one place and spawned in another.
//! [`send`](MetricsRequest::send) calls the generated operation ([`MetricsOperation`]), then
//! checks the response against the mode before handing it out: the mode it echoes, one value
//! set for `CURRENT` and `SUMMARY`, a step length for `SERIES`, and the alignment
//! [`metrics::validate`] checks. A response that fails is [`Error::InvalidResponse`]. The result
//! owns the response; its readers borrow it and copy no values.

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::time::Duration;

use crate::Error;
use crate::error::{InvalidArgument, InvalidResponse};
use crate::metrics::contract::check_mode_counts;
pub use crate::metrics::contract::{MetricsMode, ResponseError};
use crate::metrics::index_mapped::IndexMappedResponse;
use crate::metrics::{self, Lookup, MetricsView, Step, TimeSeries};
use crate::server_text::ServerText;

#[cfg(feature = "client")]
mod boxed;
#[cfg(feature = "jiff")]
mod times;
#[cfg(feature = "client")]
mod watch;
#[cfg(feature = "client")]
pub use boxed::BoxedOperation;
#[cfg(feature = "client")]
pub use watch::Watch;

/// A time window for `SUMMARY` and `SERIES` requests, checked when built.
///
/// A window bounded on both sides ([`Window::new`]) starts strictly before it ends and spans at
/// most [`MAX_SPAN_MS`](Self::MAX_SPAN_MS) (7 days). A side left open is filled in by the
/// server: the end defaults to now and the start to one hour before the end. So
/// [`Window::since`] means "from `start` until now", [`Window::until`] "the hour before
/// `end`", and [`Window::last_hour`] "the hour up to now". The client cannot check a window
/// with an open end against the server's clock: a [`Window::since`] more than 7 days ago (or in
/// the future) is the server's to refuse.
///
/// Times are milliseconds since the Unix epoch.
///
/// ```
/// use std::time::Duration;
/// use baseten_api::requests::{Window, WindowError};
///
/// let twenty_minutes = Window::new(1_783_191_332_703, 1_783_192_532_703)?;
/// assert_eq!(twenty_minutes.span(), Some(Duration::from_secs(20 * 60)));
/// // Refused before anything is sent: more than 7 days, or an end before the start.
/// assert!(matches!(Window::last(Duration::from_secs(8 * 24 * 3600)), Err(WindowError::TooLong { .. })));
/// assert!(Window::new(2_000, 1_000).is_err());
/// # Ok::<(), WindowError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Window {
    start_ms: Option<i64>,
    end_ms: Option<i64>,
}

impl Window {
    /// The longest window the API accepts: 7 days, in milliseconds.
    pub const MAX_SPAN_MS: u64 = 7 * 24 * 60 * 60 * 1000;

    /// The window `[start_ms, end_ms)`.
    ///
    /// # Errors
    ///
    /// [`WindowError::NotBeforeEnd`] unless `start_ms < end_ms`;
    /// [`WindowError::TooLong`] if it spans more than [`MAX_SPAN_MS`](Self::MAX_SPAN_MS).
    pub const fn new(start_ms: i64, end_ms: i64) -> Result<Self, WindowError> {
        if start_ms >= end_ms {
            return Err(WindowError::NotBeforeEnd { start_ms, end_ms });
        }
        let span_ms = end_ms.abs_diff(start_ms);
        if span_ms > Self::MAX_SPAN_MS {
            return Err(WindowError::TooLong {
                start_ms,
                end_ms,
                span_ms,
            });
        }
        Ok(Self {
            start_ms: Some(start_ms),
            end_ms: Some(end_ms),
        })
    }

    /// From `start_ms` until now: the server fills in the end.
    #[must_use]
    pub const fn since(start_ms: i64) -> Self {
        Self {
            start_ms: Some(start_ms),
            end_ms: None,
        }
    }

    /// The hour before `end_ms`: the server fills in the start.
    #[must_use]
    pub const fn until(end_ms: i64) -> Self {
        Self {
            start_ms: None,
            end_ms: Some(end_ms),
        }
    }

    /// The hour up to now: the server fills in both sides. Also [`Window::default`].
    #[must_use]
    pub const fn last_hour() -> Self {
        Self {
            start_ms: None,
            end_ms: None,
        }
    }

    /// The `span` up to now (by this machine's clock).
    ///
    /// # Errors
    ///
    /// [`WindowError::TooLong`] for more than 7 days; [`WindowError::NotBeforeEnd`] for a zero
    /// span.
    pub fn last(span: Duration) -> Result<Self, WindowError> {
        let now = std::time::SystemTime::now();
        Self::between(now.checked_sub(span).unwrap_or(std::time::UNIX_EPOCH), now)
    }

    /// `[start, end)` from two points in time: `SystemTime`, or anything that converts into
    /// it, such as a `jiff::Timestamp`. Times before the epoch count as the epoch.
    ///
    /// # Errors
    ///
    /// As [`Window::new`].
    pub fn between(
        start: impl Into<std::time::SystemTime>,
        end: impl Into<std::time::SystemTime>,
    ) -> Result<Self, WindowError> {
        Self::new(epoch_ms(start.into()), epoch_ms(end.into()))
    }

    /// The start sent with the request, if any.
    #[must_use]
    pub const fn start_ms(&self) -> Option<i64> {
        self.start_ms
    }

    /// The end sent with the request, if any.
    #[must_use]
    pub const fn end_ms(&self) -> Option<i64> {
        self.end_ms
    }

    /// How long the window is, when both sides are given.
    #[must_use]
    pub fn span(&self) -> Option<Duration> {
        match (self.start_ms, self.end_ms) {
            (Some(start), Some(end)) => Some(Duration::from_millis(end.abs_diff(start))),
            _ => None,
        }
    }
}

/// Milliseconds since the epoch, saturating (before it: 0; past `i64`: `i64::MAX`).
fn epoch_ms(time: std::time::SystemTime) -> i64 {
    time.duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
        })
}

/// Why [`Window::new`] refused a window. Converts into [`Error::InvalidArgument`] with `?`, and
/// [`WindowError::of`] reads it back, so the reason stays a type:
///
/// ```
/// use baseten_api::Error;
/// use baseten_api::requests::{Window, WindowError};
///
/// fn eight_days() -> Result<Window, Error> {
///     Ok(Window::new(0, 8 * 24 * 3_600_000)?)
/// }
/// let error = eight_days().unwrap_err();
/// assert!(matches!(WindowError::of(&error), Some(WindowError::TooLong { .. })));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum WindowError {
    /// The start is not strictly before the end.
    NotBeforeEnd {
        /// The start given, epoch milliseconds.
        start_ms: i64,
        /// The end given, epoch milliseconds.
        end_ms: i64,
    },
    /// The window spans more than [`Window::MAX_SPAN_MS`].
    TooLong {
        /// The start given, epoch milliseconds.
        start_ms: i64,
        /// The end given, epoch milliseconds.
        end_ms: i64,
        /// `end_ms - start_ms`.
        span_ms: u64,
    },
}

impl fmt::Display for WindowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotBeforeEnd { start_ms, end_ms } => write!(
                f,
                "window start {start_ms} ms is not before its end {end_ms} ms"
            ),
            Self::TooLong {
                start_ms,
                end_ms,
                span_ms,
            } => write!(
                f,
                "window from {start_ms} ms to {end_ms} ms spans {span_ms} ms, more than the 7 days \
                 ({max_ms} ms) the API allows",
                max_ms = Window::MAX_SPAN_MS
            ),
        }
    }
}

impl std::error::Error for WindowError {}

impl From<ResponseError> for Error {
    /// A response that is not the answer to its metrics request: [`Error::InvalidResponse`],
    /// holding the [`ResponseError`] ([`ResponseError::of`] reads it back).
    fn from(error: ResponseError) -> Self {
        Self::InvalidResponse(InvalidResponse::new(error))
    }
}

impl ResponseError {
    /// The metrics layer's reason inside an [`Error::InvalidResponse`], if that is what `error`
    /// is.
    #[must_use]
    pub fn of(error: &Error) -> Option<&Self> {
        match error {
            Error::InvalidResponse(invalid) => invalid.downcast_ref(),
            _ => None,
        }
    }
}

impl From<WindowError> for Error {
    /// A refused window is a request that was never sent: [`Error::InvalidArgument`], holding
    /// the [`WindowError`] ([`WindowError::of`] reads it back).
    fn from(error: WindowError) -> Self {
        Self::InvalidArgument(InvalidArgument::new(error))
    }
}

impl WindowError {
    /// The window's reason inside an [`Error::InvalidArgument`], if that is what `error` is.
    #[must_use]
    pub fn of(error: &Error) -> Option<&Self> {
        match error {
            Error::InvalidArgument(invalid) => invalid.downcast_ref(),
            _ => None,
        }
    }
}

/// What a [`MetricsRequest`] asks for, handed to its [`MetricsOperation`] to send.
#[doc(hidden)] // the generated code's, not a user's
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct MetricsQuery {
    /// The mode.
    pub mode: MetricsMode,
    /// The window: `None` for `CURRENT`.
    pub window: Option<Window>,
    /// The metric names, each once, in the order first asked for; empty for the server's default
    /// set.
    pub metrics: Vec<String>,
}

/// One metrics endpoint of a generated crate (the workspace's `baseten-api` has two: an
/// environment's and a deployment's): the bound to write for code that serves every one of them
/// with one function, as `MetricsRequest<O>` with `O: MetricsOperation`.
///
/// Each of a generated crate's metrics entry points (`environment_metrics`,
/// `deployment_metrics`) returns a `MetricsRequest` over its own `MetricsOperation`; what the
/// request offers ([`current`](MetricsRequest::current), [`summary`](MetricsRequest::summary),
/// [`series`](MetricsRequest::series), [`send`](MetricsRequest::send),
/// [`watch`](MetricsRequest::watch)) is the same for all. Only the generated code implements it,
/// and only the request calls its method: a user names it, nothing more.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use baseten_api::metric_names::REPLICAS_ACTIVE;
/// use baseten_api::models::GetModelMetricsResponseV1;
/// use baseten_api::requests::{MetricsOperation, MetricsRequest};
/// use baseten_api::Error;
///
/// /// Active replicas now, of an environment or of a deployment alike.
/// async fn replicas<O>(request: MetricsRequest<O>) -> Result<Option<f64>, Error>
/// where
///     O: MetricsOperation<Response = GetModelMetricsResponseV1>,
/// {
///     let now = request.metric(REPLICAS_ACTIVE).current().send().await?;
///     Ok(now.reading(REPLICAS_ACTIVE, &[]).unique()?.and_then(|r| r.value))
/// }
///
/// # use baseten_api::mock::{FakeBaseten, MetricsResponseBuilder};
/// # let fake = FakeBaseten::start().await;
/// # let two = MetricsResponseBuilder::current(0).gauge(REPLICAS_ACTIVE, "COUNT", &[Some(2.0)]);
/// # fake.on_environment_metrics("m1", "production").respond(&two.build()?).await;
/// # fake.on_deployment_metrics("m1", "d1").respond(&two.build()?).await;
/// let client = fake.client()?;
/// assert_eq!(replicas(client.environment_metrics("m1", "production")).await?, Some(2.0));
/// assert_eq!(replicas(client.deployment_metrics("m1", "d1")).await?, Some(2.0));
/// # Ok(()) }
/// ```
pub trait MetricsOperation: fmt::Debug + Send + Sync + 'static {
    /// The operation's response type.
    type Response: IndexMappedResponse + fmt::Debug + Clone + Send + Sync + 'static;

    /// Sends `query` through the generated operation. Only a [`MetricsRequest`] can call it: no
    /// one else can make the [`Sealed`] it takes.
    #[doc(hidden)]
    fn send(
        self,
        query: MetricsQuery,
        sealed: Sealed,
    ) -> impl Future<Output = Result<Self::Response, Error>> + Send + 'static;
}

/// What [`MetricsOperation::send`] takes so that only a [`MetricsRequest`] calls it (its field
/// is private to this module): the generated code names it, nothing makes one but the request.
#[doc(hidden)]
#[derive(Debug)]
pub struct Sealed(());

/// The modes as types: the state of a [`MetricsRequest`] and the kind of a [`CheckedMetrics`] result.
///
/// None of these types has a value; they only appear as type parameters.
pub mod mode {
    use super::MetricsMode;

    /// No mode chosen yet: the state a generated crate's metrics entry points start in. Choose
    /// one with [`current`](super::MetricsRequest::current),
    /// [`summary`](super::MetricsRequest::summary) or [`series`](super::MetricsRequest::series).
    #[derive(Debug)]
    pub enum Unset {}

    /// `CURRENT`: one snapshot taken when the request arrives; no window.
    #[derive(Debug)]
    pub enum CurrentMode {}

    /// `SUMMARY`: one value set aggregating a [`Window`](super::Window).
    #[derive(Debug)]
    pub enum SummaryMode {}

    /// `SERIES`: one value set per step across a [`Window`](super::Window).
    #[derive(Debug)]
    pub enum SeriesMode {}

    /// The old name of [`CurrentMode`].
    #[doc(hidden)]
    #[deprecated(note = "renamed `CurrentMode`")]
    pub type Current = CurrentMode;

    /// The old name of [`SummaryMode`].
    #[doc(hidden)]
    #[deprecated(note = "renamed `SummaryMode`")]
    pub type Summary = SummaryMode;

    /// The old name of [`SeriesMode`], which shared its name with a time series.
    #[doc(hidden)]
    #[deprecated(note = "renamed `SeriesMode`; a time series is `metrics::TimeSeries`")]
    pub type Series = SeriesMode;

    /// A mode chosen, so the request can be sent.
    #[diagnostic::on_unimplemented(
        message = "no metrics mode chosen: call `.current()`, `.summary(window)` or `.series(window)` before `.send()`",
        label = "this request has no mode yet",
        note = "the server needs to know how to aggregate: a snapshot now, one value set over a window, or a series of steps"
    )]
    pub trait Mode: sealed::Sealed {}

    /// A result holding exactly one value set (`CURRENT` or `SUMMARY`).
    #[diagnostic::on_unimplemented(
        message = "a SERIES result has one value set per step, not a single one",
        label = "this is a SERIES result",
        note = "read its steps with `.steps()`, or one series' points with `.series(name, labels)`"
    )]
    pub trait OneValueSet: Mode {}

    /// A result made of steps (`SERIES`).
    #[diagnostic::on_unimplemented(
        message = "only a SERIES result has steps; a CURRENT or SUMMARY result holds one value set",
        label = "this result holds one value set, not steps",
        note = "read it with `.values()`, `.readings()` or `.reading(name, labels)`; request `.series(window)` for steps"
    )]
    pub trait Stepped: Mode {}

    impl Mode for CurrentMode {}
    impl Mode for SummaryMode {}
    impl Mode for SeriesMode {}
    impl OneValueSet for CurrentMode {}
    impl OneValueSet for SummaryMode {}
    impl Stepped for SeriesMode {}

    pub(super) mod sealed {
        use super::MetricsMode;

        /// Keeps [`Mode`](super::Mode) closed, and says what each mode sends.
        pub trait Sealed {
            /// The mode sent.
            const MODE: MetricsMode;
        }

        impl Sealed for super::CurrentMode {
            const MODE: MetricsMode = MetricsMode::Current;
        }

        impl Sealed for super::SummaryMode {
            const MODE: MetricsMode = MetricsMode::Summary;
        }

        impl Sealed for super::SeriesMode {
            const MODE: MetricsMode = MetricsMode::Series;
        }
    }

    // Only the sealed trait's constant names the runtime's mode; keep the import used.
    const _: MetricsMode = MetricsMode::Current;
}

/// A metrics request being built for operation `O`; `M` is its [`mode`] (at first
/// [`mode::Unset`]).
///
/// Made by a generated crate's metrics entry points. Nothing is sent until
/// [`send`](Self::send) is awaited. It owns its operation (a client clone and the ids), so it is
/// `'static` and, with its future, `Send`.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use baseten_api::metric_names::REPLICAS_ACTIVE;
/// use baseten_api::mock::{FakeBaseten, MetricsResponseBuilder};
/// use baseten_api::requests::Window;
///
/// let fake = FakeBaseten::start().await;
/// let steps = MetricsResponseBuilder::series(0, 60, 3)
///     .gauge(REPLICAS_ACTIVE, "COUNT", &[Some(1.0), Some(2.0), None]);
/// fake.on_environment_metrics("m1", "production").respond(&steps.build()?).await;
///
/// let request = fake.client()?.environment_metrics("m1", "production"); // no mode yet
/// let series = request.series(Window::new(0, 180_000)?).metric(REPLICAS_ACTIVE).send().await?;
/// let replicas = series.series(REPLICAS_ACTIVE, &[]).unique()?.expect("one series");
/// let values: Vec<Option<f64>> = replicas.points().map(|point| point.value).collect();
/// assert_eq!(values, [Some(1.0), Some(2.0), None]);
/// # Ok(()) }
/// ```
#[must_use = "a metrics request does nothing until `.send().await`"]
pub struct MetricsRequest<O, M = mode::Unset> {
    operation: O,
    window: Option<Window>,
    metrics: Vec<String>,
    mode: PhantomData<fn() -> M>,
}

impl<O: Clone, M> Clone for MetricsRequest<O, M> {
    fn clone(&self) -> Self {
        Self {
            operation: self.operation.clone(),
            window: self.window,
            metrics: self.metrics.clone(),
            mode: PhantomData,
        }
    }
}

impl<O: fmt::Debug, M> fmt::Debug for MetricsRequest<O, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MetricsRequest")
            .field("mode", &std::any::type_name::<M>())
            .field("operation", &self.operation)
            .field("window", &self.window)
            .field("metrics", &self.metrics)
            .finish()
    }
}

impl<O: MetricsOperation> MetricsRequest<O, mode::Unset> {
    /// A request for `operation` with no mode chosen yet; generated entry points call this.
    #[doc(hidden)]
    pub fn new(operation: O) -> Self {
        Self {
            operation,
            window: None,
            metrics: Vec::new(),
            mode: PhantomData,
        }
    }

    /// `CURRENT`: one snapshot taken when the request arrives. Takes no window.
    pub fn current(self) -> MetricsRequest<O, mode::CurrentMode> {
        self.into_mode(None)
    }

    /// `SUMMARY`: one value set aggregating `window`.
    pub fn summary(self, window: Window) -> MetricsRequest<O, mode::SummaryMode> {
        self.into_mode(Some(window))
    }

    /// `SERIES`: one value set per step across `window`; the server picks the step length
    /// from the window's length.
    pub fn series(self, window: Window) -> MetricsRequest<O, mode::SeriesMode> {
        self.into_mode(Some(window))
    }

    fn into_mode<N>(self, window: Option<Window>) -> MetricsRequest<O, N> {
        MetricsRequest {
            operation: self.operation,
            window,
            metrics: self.metrics,
            mode: PhantomData,
        }
    }
}

impl<O: MetricsOperation, M> MetricsRequest<O, M> {
    /// Asks for the metric `name` too. Without any, the server returns its default set (active
    /// replicas, request totals and end-to-end response time). A name already asked for is not
    /// sent twice.
    ///
    /// A name the server does not know makes it refuse the request; a known metric without
    /// data for this model is left out of the response.
    pub fn metric(mut self, name: impl Into<String>) -> Self {
        self.push_metric(name.into());
        self
    }

    /// Asks for each of `names` too, like [`metric`](Self::metric): in order, each name once.
    pub fn metrics<I>(mut self, names: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        for name in names {
            self.push_metric(name.into());
        }
        self
    }

    fn push_metric(&mut self, name: String) {
        if !self.metrics.contains(&name) {
            self.metrics.push(name);
        }
    }

    /// The metric names asked for so far, each once, in the order first asked.
    #[must_use]
    pub fn metric_names(&self) -> &[String] {
        &self.metrics
    }

    /// The window to send: `None` before a mode is chosen and for `CURRENT`.
    #[must_use]
    pub fn requested_window(&self) -> Option<Window> {
        self.window
    }

    /// The operation this request goes to (it holds the ids).
    #[doc(hidden)]
    #[must_use]
    pub fn operation(&self) -> &O {
        &self.operation
    }

    /// Sends the request and checks the response against the mode.
    ///
    /// The future owns everything it uses: it is `Send + 'static`, so it can be spawned.
    ///
    /// # Errors
    ///
    /// Whatever the generated operation returns (see [`Error`]), for instance
    /// [`Error::InvalidRequest`] for an id that cannot be a path segment (empty, `.`, `..`)
    /// and [`Error::Api`] for a model, environment or metric name the server does not know;
    /// [`Error::InvalidResponse`] if the response is not a well-formed answer in this mode.
    pub fn send(
        self,
    ) -> impl Future<Output = Result<CheckedMetrics<O::Response, M>, Error>> + Send + 'static
    where
        M: mode::Mode,
    {
        let query = MetricsQuery {
            mode: M::MODE,
            window: self.window,
            metrics: self.metrics,
        };
        let sent = self.operation.send(query, Sealed(()));
        async move {
            let response = sent.await?;
            CheckedMetrics::check(response).map_err(Error::from)
        }
    }
}

/// A response checked against mode `M`; see [`CurrentMetrics`], [`SummaryMetrics`] and
/// [`SeriesMetrics`].
///
/// It owns the response, and everything it hands out borrows it. What can be read depends on
/// the mode: [`values`](Self::values), [`readings`](Self::readings) and
/// [`series`](Self::series) for the one value set of `CURRENT` and `SUMMARY`;
/// [`steps`](Self::steps), [`step_seconds`](Self::step_seconds) and
/// [`series`](#method.series-1) for `SERIES`. [`view`](Self::view) is the full
/// [`MetricsView`] view in any mode (tables, CSV, every lookup).
pub struct CheckedMetrics<R, M> {
    response: R,
    mode: PhantomData<fn() -> M>,
}

/// The old name of [`CheckedMetrics`], which read like the [`metrics`] module.
#[doc(hidden)]
#[deprecated(note = "renamed `CheckedMetrics`")]
pub type Metrics<R, M> = CheckedMetrics<R, M>;

/// A `CURRENT` result: one snapshot.
pub type CurrentMetrics<R> = CheckedMetrics<R, mode::CurrentMode>;

/// A `SUMMARY` result: one value set covering the window.
pub type SummaryMetrics<R> = CheckedMetrics<R, mode::SummaryMode>;

/// A `SERIES` result: one value set per step.
pub type SeriesMetrics<R> = CheckedMetrics<R, mode::SeriesMode>;

impl<R: Clone, M> Clone for CheckedMetrics<R, M> {
    fn clone(&self) -> Self {
        Self {
            response: self.response.clone(),
            mode: PhantomData,
        }
    }
}

impl<R: fmt::Debug, M> fmt::Debug for CheckedMetrics<R, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CheckedMetrics")
            .field("mode", &std::any::type_name::<M>())
            .field("response", &self.response)
            .finish()
    }
}

impl<R: IndexMappedResponse, M: mode::Mode> CheckedMetrics<R, M> {
    /// Checks `response` as the answer to a request in mode `M`.
    ///
    /// # Errors
    ///
    /// [`ResponseError`] if the response names another mode, holds the wrong number of value
    /// sets for its mode, lacks a positive step (`SERIES`), or is misaligned.
    pub fn check(response: R) -> Result<Self, ResponseError> {
        let requested = M::MODE;
        if let Some(returned) = response.mode_str()
            && response.mode() != Some(requested)
        {
            return Err(ResponseError::ModeMismatch {
                requested,
                returned: ServerText::new(returned),
            });
        }
        check_mode_counts(
            requested,
            response.value_sets().len(),
            response.step_seconds(),
        )?;
        metrics::validate(&response).map_err(ResponseError::Misaligned)?;
        Ok(Self {
            response,
            mode: PhantomData,
        })
    }
}

impl<R: IndexMappedResponse, M> CheckedMetrics<R, M> {
    /// The response itself.
    #[must_use]
    pub fn response(&self) -> &R {
        &self.response
    }

    /// The response, given up.
    #[must_use]
    pub fn into_response(self) -> R {
        self.response
    }

    /// The full validated view: metrics, series, steps, tables and CSV (see [`metrics`]).
    #[must_use]
    pub fn view(&self) -> MetricsView<'_, R> {
        // `check` validated this very response, which cannot have changed since.
        MetricsView::new(&self.response)
    }

    /// Start of the window the server used, epoch milliseconds.
    #[must_use]
    pub fn window_start_ms(&self) -> i64 {
        self.response.window_start_millis()
    }

    /// End of the window the server used, epoch milliseconds.
    #[must_use]
    pub fn window_end_ms(&self) -> i64 {
        self.response.window_end_millis()
    }

    /// The one value set, as a [`Step`] spanning the window (`CURRENT` and `SUMMARY` only).
    ///
    /// `values.values[descriptor][label_set]` is a value; [`readings`](Self::readings) pairs
    /// each with its series.
    #[must_use]
    pub fn values(&self) -> Step<'_>
    where
        M: mode::OneValueSet,
    {
        use crate::metrics::index_mapped::IndexMappedValueSet as _;
        let first = self.response.value_sets().first();
        Step {
            index: 0,
            start_ms: first.map_or(self.response.window_start_millis(), |set| {
                set.start_epoch_millis()
            }),
            end_ms: self.response.window_end_millis(),
            values: first.map_or(&[][..], |set| set.values()),
        }
    }

    /// Every series with its value, in response order (`CURRENT` and `SUMMARY` only).
    pub fn readings(&self) -> impl Iterator<Item = Reading<'_, R>> + use<'_, R, M>
    where
        M: mode::OneValueSet,
    {
        self.view().all_series().map(Reading::of)
    }

    /// The steps, in time order (`SERIES` only).
    pub fn steps(&self) -> impl ExactSizeIterator<Item = Step<'_>> + use<'_, R, M>
    where
        M: mode::Stepped,
    {
        self.view().steps()
    }

    /// The server's nominal step length in seconds (`SERIES` only); always positive.
    ///
    /// Informational: step boundaries come from the value sets' starts (see [`Step`]).
    #[must_use]
    pub fn step_seconds(&self) -> i64
    where
        M: mode::Stepped,
    {
        // `check` refused a SERIES response without a positive step.
        self.response.step_seconds().unwrap_or(0)
    }
}

impl<R: IndexMappedResponse, M: mode::OneValueSet> CheckedMetrics<R, M> {
    /// The reading of the one series named `name` whose labels are exactly `labels`.
    ///
    /// Matches like [`MetricsView::series`]: `&[]` is the unlabelled series; a name and label set
    /// the response repeats is [`Lookup::Ambiguous`].
    pub fn reading(&self, name: &str, labels: &[(&str, &str)]) -> Lookup<Reading<'_, R>> {
        self.view().series(name, labels).map(Reading::of)
    }

    /// The reading of the metric `name`'s series whose `quantile` is the number `quantile`
    /// (`0.95` finds `"0.95"` and `"0.950"`), as [`MetricsView::quantile`] finds it. Baseten
    /// serves 0.5, 0.9, 0.95 and 0.99 (see [`metrics`](crate::metrics#quantiles)).
    pub fn quantile(&self, name: &str, quantile: f64) -> Lookup<Reading<'_, R>> {
        self.view().quantile(name, quantile).map(Reading::of)
    }

    /// The old name of [`reading`](Self::reading), which says what it returns.
    #[doc(hidden)]
    #[deprecated(
        note = "renamed `reading`: a CURRENT or SUMMARY result holds readings, not series"
    )]
    pub fn series(&self, name: &str, labels: &[(&str, &str)]) -> Lookup<Reading<'_, R>> {
        self.reading(name, labels)
    }
}

impl<R: IndexMappedResponse> CheckedMetrics<R, mode::SeriesMode> {
    /// The one series named `name` whose labels are exactly `labels`, with its points.
    ///
    /// Matches like [`MetricsView::series`]: `&[]` is the unlabelled series; a name and label set
    /// the response repeats is [`Lookup::Ambiguous`].
    pub fn series(&self, name: &str, labels: &[(&str, &str)]) -> Lookup<TimeSeries<'_, R>> {
        self.view().series(name, labels)
    }

    /// The metric `name`'s series whose `quantile` is the number `quantile`, with its points,
    /// as [`MetricsView::quantile`] finds it.
    pub fn quantile(&self, name: &str, quantile: f64) -> Lookup<TimeSeries<'_, R>> {
        self.view().quantile(name, quantile)
    }
}

/// One series of a `CURRENT` or `SUMMARY` result and its value.
#[derive(Debug)]
pub struct Reading<'a, R> {
    /// The series: name, labels, unit and kind.
    pub series: TimeSeries<'a, R>,
    /// Its value; `None` when it had no data.
    pub value: Option<f64>,
}

impl<R> Clone for Reading<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Reading<'_, R> {}

impl<'a, R: IndexMappedResponse> Reading<'a, R> {
    fn of(series: TimeSeries<'a, R>) -> Self {
        Self {
            value: series.value_at(0),
            series,
        }
    }

    /// The value converted into the base unit of the series' unit (mebibytes become bytes;
    /// everything else is unchanged).
    #[must_use]
    pub fn value_in_base_unit(&self) -> Option<f64> {
        let unit = self.series.unit();
        self.value.map(|value| unit.to_base(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::AlignmentError;
    use crate::models::GetModelMetricsResponseV1;

    const SERIES: &str = r#"{
      "start_epoch_millis": 1000, "end_epoch_millis": 61000, "mode": "SERIES", "step_seconds": 30,
      "metric_descriptors": [
        {"name": "latency", "unit_hint": "SECONDS", "kind": "HISTOGRAM",
         "label_sets": [{"quantile": "0.99"}, {"stat": "avg"}]},
        {"name": "memory", "unit_hint": "MEBIBYTES", "kind": "GAUGE", "label_sets": [{}]}
      ],
      "metric_values": [
        {"start_epoch_millis": 1000, "values": [[2.5, 1.0], [1.0]]},
        {"start_epoch_millis": 31000, "values": [[null, null], [2.0]]}
      ]
    }"#;

    fn response(mode: &str, step_seconds: Option<i64>, sets: usize) -> GetModelMetricsResponseV1 {
        let mut response: GetModelMetricsResponseV1 = match metrics::decode(SERIES.as_bytes()) {
            Ok(response) => response,
            Err(error) => panic!("{error}"),
        };
        response.mode = mode.into();
        response.step_seconds = step_seconds;
        response.metric_values.truncate(sets);
        response
    }

    /// An operation that answers every query with `SERIES` (or refuses an empty id, as the
    /// generated path encoding does), and records nothing: what a generated one looks like.
    #[derive(Debug, Clone)]
    struct Fake {
        id: String,
    }

    impl MetricsOperation for Fake {
        type Response = GetModelMetricsResponseV1;

        async fn send(self, query: MetricsQuery, _: Sealed) -> Result<Self::Response, Error> {
            if self.id.is_empty() {
                return Err(Error::InvalidRequest("path parameter `id` is empty".into()));
            }
            let mut answer = response(query.mode.as_str(), Some(30), 2);
            if query.mode != MetricsMode::Series {
                answer.step_seconds = None;
                answer.metric_values.truncate(1);
            }
            Ok(answer)
        }
    }

    fn request(id: &str) -> MetricsRequest<Fake> {
        MetricsRequest::new(Fake { id: id.to_owned() })
    }

    fn block_on<F: Future>(future: F) -> F::Output {
        match tokio::runtime::Builder::new_current_thread().build() {
            Ok(runtime) => runtime.block_on(future),
            Err(error) => panic!("{error}"),
        }
    }

    #[test]
    fn windows_are_checked_when_built() {
        let window = Window::new(1, 2);
        assert_eq!(
            window.map(|w| (w.start_ms(), w.end_ms())),
            Ok((Some(1), Some(2)))
        );
        assert_eq!(
            Window::new(5, 5),
            Err(WindowError::NotBeforeEnd {
                start_ms: 5,
                end_ms: 5
            })
        );
        assert!(Window::new(6, 5).is_err());
        let week = 604_800_000;
        assert_eq!(
            Window::new(0, week).ok().and_then(|w| w.span()),
            Some(Duration::from_secs(7 * 86_400))
        );
        assert_eq!(
            Window::new(0, week + 1).map_err(|e| e.to_string()),
            Err(
                "window from 0 ms to 604800001 ms spans 604800001 ms, more than the 7 days \
                 (604800000 ms) the API allows"
                    .to_owned()
            )
        );
        assert!(matches!(
            Window::new(i64::MIN, i64::MAX),
            Err(WindowError::TooLong { .. })
        ));
        assert_eq!(
            (Window::since(3).start_ms(), Window::since(3).end_ms()),
            (Some(3), None)
        );
        assert_eq!(
            (Window::until(3).start_ms(), Window::until(3).end_ms()),
            (None, Some(3))
        );
        assert_eq!(Window::last_hour(), Window::default());
        assert_eq!(Window::since(3).span(), None);
        let error: Error = WindowError::NotBeforeEnd {
            start_ms: 2,
            end_ms: 1,
        }
        .into();
        assert!(matches!(error, Error::InvalidArgument(_)), "{error}");
        assert_eq!(
            WindowError::of(&error),
            Some(&WindowError::NotBeforeEnd {
                start_ms: 2,
                end_ms: 1
            })
        );
        assert_eq!(
            error.to_string(),
            "invalid argument: window start 2 ms is not before its end 1 ms"
        );
        assert!(!error.is_retryable() && error.status().is_none());
        assert_eq!(WindowError::of(&Error::InvalidRequest("x".into())), None);
        let other: Error = ResponseError::ModeMismatch {
            requested: MetricsMode::Current,
            returned: ServerText::new("SERIES"),
        }
        .into();
        assert_eq!(WindowError::of(&other), None);
    }

    #[test]
    fn metric_names_are_deduplicated_in_first_seen_order() {
        let request = request("m")
            .metric("b")
            .metrics(["a", "b", "c", "a"])
            .series(Window::since(7))
            .metric("c")
            .metric(String::from("d"));
        assert_eq!(request.metric_names(), ["b", "a", "c", "d"]);
        assert_eq!(request.requested_window(), Some(Window::since(7)));
        assert_eq!(request.operation().id, "m");
        let current = super::tests::request("m2").current();
        assert_eq!(current.requested_window(), None);
        assert_eq!(current.operation().id, "m2");
        assert!(format!("{current:?}").contains("Current"));
        assert!(format!("{:?}", current.clone()).contains("m2"));
    }

    #[test]
    fn responses_must_match_their_mode() {
        let mismatch =
            CheckedMetrics::<_, mode::SummaryMode>::check(response("SERIES", Some(30), 1));
        assert_eq!(
            mismatch.map(|_| ()).map_err(|e| e.to_string()),
            Err("asked for SUMMARY metrics, the response is SERIES".to_owned())
        );
        for (mode, sets) in [
            ("CURRENT", 0),
            ("CURRENT", 2),
            ("SUMMARY", 0),
            ("SUMMARY", 2),
        ] {
            let error = match mode {
                "CURRENT" => {
                    CheckedMetrics::<_, mode::CurrentMode>::check(response(mode, None, sets)).err()
                }
                _ => {
                    CheckedMetrics::<_, mode::SummaryMode>::check(response(mode, None, sets)).err()
                }
            };
            assert_eq!(
                error,
                Some(ResponseError::ValueSetCount {
                    mode: if mode == "CURRENT" {
                        MetricsMode::Current
                    } else {
                        MetricsMode::Summary
                    },
                    count: sets
                })
            );
        }
        for step_seconds in [None, Some(0), Some(-30)] {
            assert_eq!(
                CheckedMetrics::<_, mode::SeriesMode>::check(response("SERIES", step_seconds, 2))
                    .err(),
                Some(ResponseError::StepSeconds { step_seconds })
            );
        }
        let mut misaligned = response("SERIES", Some(30), 2);
        misaligned.metric_values[1].values.pop();
        assert!(matches!(
            CheckedMetrics::<_, mode::SeriesMode>::check(misaligned),
            Err(ResponseError::Misaligned(
                AlignmentError::DescriptorCountMismatch { value_set: 1, .. }
            ))
        ));
    }

    #[test]
    fn one_value_set_results_read_directly() {
        let summary =
            match CheckedMetrics::<_, mode::SummaryMode>::check(response("SUMMARY", None, 1)) {
                Ok(summary) => summary,
                Err(error) => panic!("{error}"),
            };
        let values = summary.values();
        assert_eq!((values.start_ms, values.end_ms), (1000, 61000));
        assert_eq!(values.value(0, 0), Some(2.5));
        let p99 = summary
            .reading("latency", &[("quantile", "0.99")])
            .unique()
            .unwrap_or_default();
        assert_eq!(p99.map(|r| r.value), Some(Some(2.5)));
        // One rule for a quantile: by number, as a label or as a number.
        for p99 in [
            summary.reading("latency", &[("quantile", "0.990")]),
            summary.quantile("latency", 0.99),
        ] {
            let value = p99.unique().unwrap_or_default().map(|r| r.value);
            assert_eq!(value, Some(Some(2.5)));
        }
        assert!(!summary.quantile("latency", 0.5).is_found());
        let memory = summary.reading("memory", &[]).unique().unwrap_or_default();
        assert_eq!(
            memory.and_then(|r| r.value_in_base_unit()),
            Some(1_048_576.0)
        );
        let readings: Vec<_> = summary
            .readings()
            .map(|r| (r.series.name, r.value))
            .collect();
        assert_eq!(
            readings,
            [
                ("latency", Some(2.5)),
                ("latency", Some(1.0)),
                ("memory", Some(1.0))
            ]
        );
        assert!(!summary.reading("absent", &[]).is_found());
        assert_eq!(summary.view().step_count(), 1);
        assert_eq!(summary.clone().into_response().mode, "SUMMARY");
    }

    #[test]
    fn series_results_read_by_step() {
        let series =
            match CheckedMetrics::<_, mode::SeriesMode>::check(response("SERIES", Some(30), 2)) {
                Ok(series) => series,
                Err(error) => panic!("{error}"),
            };
        assert_eq!(series.step_seconds(), 30);
        let spans: Vec<_> = series.steps().map(|s| (s.start_ms, s.end_ms)).collect();
        assert_eq!(spans, [(1000, 31000), (31000, 61000)]);
        let p99 = series
            .series("latency", &[("quantile", "0.99")])
            .unique()
            .unwrap_or_default();
        let values: Vec<_> = p99
            .map(|s| s.points().map(|p| p.value).collect())
            .unwrap_or_default();
        assert_eq!(values, [Some(2.5), None]);
        let by_number = series
            .quantile("latency", 0.99)
            .unique()
            .unwrap_or_default();
        assert_eq!(by_number.map(|s| s.label_index), Some(0));
        assert!(!series.quantile("latency", 0.5).is_found());
        assert_eq!(
            (series.window_start_ms(), series.window_end_ms()),
            (1000, 61000)
        );
        assert_eq!(series.response().metric_descriptors.len(), 2);
    }

    #[test]
    fn requests_futures_and_results_cross_threads() {
        fn assert_send<T: Send>(_: &T) {}
        fn assert_send_sync<T: Send + Sync + 'static>() {}
        let request = request("m").series(Window::last_hour());
        assert_send(&request);
        assert_send_sync::<MetricsRequest<Fake, mode::SeriesMode>>();
        let future = request.send();
        assert_send(&future);
        // Spawnable: the request owns everything it needs.
        let sent = block_on(async { std::thread::spawn(move || block_on(future)).join() });
        assert!(matches!(sent, Ok(Ok(_))));
        assert_send_sync::<CurrentMetrics<GetModelMetricsResponseV1>>();
        assert_send_sync::<SummaryMetrics<GetModelMetricsResponseV1>>();
        assert_send_sync::<SeriesMetrics<GetModelMetricsResponseV1>>();
        assert_send_sync::<Window>();
        assert_send_sync::<ResponseError>();
    }

    #[test]
    fn send_checks_the_answer_and_passes_errors_through() {
        let current = block_on(request("m").current().metric("x").send());
        assert!(current.is_ok_and(|c| c.values().values.len() == 2));
        let series = block_on(request("m").series(Window::last_hour()).send());
        assert!(series.is_ok_and(|s| s.step_seconds() == 30));
        let refused = block_on(request("").summary(Window::last_hour()).send());
        assert!(
            matches!(&refused, Err(Error::InvalidRequest(message)) if message.contains("`id`")),
            "{refused:?}"
        );
    }

    /// An operation that records every query it is sent.
    #[derive(Debug, Clone)]
    struct Recording(std::sync::Arc<std::sync::Mutex<Vec<MetricsQuery>>>);

    impl MetricsOperation for Recording {
        type Response = GetModelMetricsResponseV1;

        async fn send(self, query: MetricsQuery, _: Sealed) -> Result<Self::Response, Error> {
            let mode = query.mode;
            if let Ok(mut sent) = self.0.lock() {
                sent.push(query);
            }
            let mut answer = response(mode.as_str(), Some(30), 2);
            if mode != MetricsMode::Series {
                answer.step_seconds = None;
                answer.metric_values.truncate(1);
            }
            Ok(answer)
        }
    }

    #[cfg(feature = "client")]
    #[test]
    fn a_boxed_request_sends_what_the_original_would() {
        let sent = std::sync::Arc::default();
        let window = Window::new(1, 2).unwrap_or_else(|error| panic!("{error}"));
        let original = MetricsRequest::new(Recording(std::sync::Arc::clone(&sent)))
            .metric("a")
            .series(window)
            .metric("b");
        let boxed: MetricsRequest<BoxedOperation<GetModelMetricsResponseV1>, mode::SeriesMode> =
            original.clone().boxed();
        assert!(
            format!("{boxed:?}").contains("BoxedOperation(Recording("),
            "{boxed:?}"
        );
        let twice = boxed.clone();
        let (direct, via_box) = (block_on(original.send()), block_on(boxed.send()));
        let again = block_on(twice.send());
        assert!(direct.is_ok() && via_box.is_ok() && again.is_ok());
        assert_eq!(via_box.map(|r| r.step_seconds()).ok(), Some(30));
        let sent = sent.lock().map(|sent| sent.clone()).unwrap_or_default();
        assert_eq!(sent.len(), 3);
        assert!(sent.iter().all(|query| *query == sent[0]), "{sent:?}");
        assert_eq!(
            (sent[0].mode, sent[0].window, sent[0].metrics.clone()),
            (
                MetricsMode::Series,
                Some(window),
                vec!["a".to_owned(), "b".to_owned()]
            )
        );
        // Errors pass through the box as they are.
        let refused = block_on(request("").boxed().current().send());
        assert!(
            matches!(refused, Err(Error::InvalidRequest(_))),
            "{refused:?}"
        );
    }

    #[test]
    fn windows_from_durations_and_times() {
        use std::time::{SystemTime, UNIX_EPOCH};
        let at = |ms: u64| UNIX_EPOCH + Duration::from_millis(ms);
        assert_eq!(
            Window::between(at(1_000), at(61_000)),
            Window::new(1_000, 61_000)
        );
        assert_eq!(
            Window::between(at(5), at(5)),
            Err(WindowError::NotBeforeEnd {
                start_ms: 5,
                end_ms: 5
            })
        );
        let before_epoch = UNIX_EPOCH - Duration::from_secs(1);
        assert_eq!(Window::between(before_epoch, at(10)), Window::new(0, 10));
        let hour = match Window::last(Duration::from_secs(3600)) {
            Ok(window) => window,
            Err(error) => panic!("{error}"),
        };
        assert_eq!(hour.span(), Some(Duration::from_secs(3600)));
        let now = epoch_ms(SystemTime::now());
        assert!(
            hour.end_ms()
                .is_some_and(|end| (now - 5_000..=now).contains(&end))
        );
        assert!(matches!(
            Window::last(Duration::from_secs(8 * 86_400)),
            Err(WindowError::TooLong { .. })
        ));
        assert!(Window::last(Duration::ZERO).is_err());
        assert_eq!(
            epoch_ms(UNIX_EPOCH + Duration::from_secs(u64::MAX / 4)),
            i64::MAX
        );
    }

    #[test]
    fn modes_name_their_wire_values() {
        let all = [
            MetricsMode::Current,
            MetricsMode::Summary,
            MetricsMode::Series,
        ];
        let names: Vec<String> = all.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["CURRENT", "SUMMARY", "SERIES"]);
    }
}
