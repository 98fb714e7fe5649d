//! A typed async client for [Baseten](https://www.baseten.co)'s management API
//! (`https://api.baseten.co`): models, deployments, environments, autoscaling, billing, audit
//! logs, and the metrics of an environment or a deployment, read as checked time series.
//!
//! Start with a [`Client`] ([`Client::from_env`] or [`Client::builder`]); every call returns
//! `Result<_, `[`Error`]`>`.
//!
//! | Module | Contents |
//! |---|---|
//! | [`client`] | [`Client`], its [`ClientBuilder`] and settings ([`RetryPolicy`], [`AuthScheme`], the defaults), the metrics entry points [`Client::environment_metrics`] and [`Client::deployment_metrics`] |
//! | [`operations`] | one async method on [`Client`] per operation, and their query types |
//! | [`models`] | request and response types |
//! | [`requests`] | typestate metrics requests, [`Window`](requests::Window), mode-checked results ([`CheckedMetrics`](requests::CheckedMetrics)) |
//! | [`metrics`] | decoding, validating and reading metrics responses: the [`MetricsView`](metrics::MetricsView), [`TimeSeries`](metrics::TimeSeries), tables and CSV |
//! | [`metric_names`] | the metric names Baseten documents |
//! | [`primitives`] | [`Decimal`] (money), [`Patch`](primitives::Patch) (a field to leave, clear or set), [`jiff`](https://docs.rs/jiff/0.2/jiff/) dates and times |
//! | [`error`] | what an [`Error`] carries: [`ServerText`](error::ServerText), [`InvalidResponse`](error::InvalidResponse) |
//! | `spans` | a range longer than one call takes (billing's 31 days), cut into calls made in order (feature `jiff`) |
//! | `mock` | a fake Baseten for tests, `FakeBaseten`, and `Model::builder()` for test values without JSON (feature `mock`) |
//!
//! The crate is generated from the OpenAPI document in the workspace's `schema/` by
//! `cargo xtask regen` over the hand-written runtime crate `baseten-runtime`; this crate is the
//! only dependency a user needs.
//!
//! # Features
//!
//! `client` (default): the HTTP client (reqwest with rustls, tokio's timer), [`Client`] and the
//! [`operations`]. With `default-features = false` the crate is the [`models`], their open
//! enums and the whole [`metrics`] module on serde and serde_json alone: for code that
//! only reads saved responses.
//!
//! One feature per API area compiles that area's operations and the models they use: `metrics`
//! (the two metrics endpoints), `models`, `billing` and `audit-logs`; `full` (default) is all of
//! them. `default-features = false, features = ["metrics"]` builds the metrics models alone,
//! without jiff or rust_decimal, which only the areas whose models hold dates (`jiff`) or money
//! (`decimal`) turn on. Features only add items: a type is the same in every build that has it.
//!
//! `mock` (off; for `[dev-dependencies]`): `mock::FakeBaseten`, a local server with one typed
//! `on_<operation>` expectation per operation, and `mock::MetricsResponseBuilder` for metrics
//! responses that satisfy the index-mapped contract. A test of code that takes a [`Client`]:
//!
//! ```
//! # #[cfg(feature = "mock")]
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use baseten_api::metric_names::REPLICAS_ACTIVE;
//! use baseten_api::mock::{FakeBaseten, MetricsResponseBuilder};
//!
//! let fake = FakeBaseten::start().await;
//! let now = MetricsResponseBuilder::current(0).gauge(REPLICAS_ACTIVE, "COUNT", &[Some(3.0)]);
//! fake.on_environment_metrics("m1", "production").respond(&now.build()?).await;
//!
//! let client = fake.client()?; // a `Client` pointed at the fake
//! let now = client.environment_metrics("m1", "production").current().send().await?;
//! let replicas = now.reading(REPLICAS_ACTIVE, &[]).unique()?.and_then(|r| r.value);
//! assert_eq!(replicas, Some(3.0));
//! # Ok(()) }
//! # #[cfg(not(feature = "mock"))]
//! # fn main() {}
//! ```
//!
//! # Example
//!
//! ```no_run
//! # #[cfg(feature = "client")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use baseten_api::Client;
//! use baseten_api::client::RetryPolicy;
//!
//! // The key from BASETEN_API_KEY (and BASETEN_BASE_URL, if set).
//! let client = Client::from_env()?;
//!
//! // Or spelled out, with every knob.
//! let key = std::env::var("BASETEN_API_KEY")?;
//! let client = Client::builder()
//!     .api_key(key)
//!     .connect_timeout(Duration::from_secs(5))
//!     .timeout(Duration::from_secs(60))
//!     .retry_policy(RetryPolicy::default().with_max_attempts(5))
//!     .default_header("x-team", "autoscaler")
//!     .build()?;
//! assert_eq!(client.base_url(), baseten_api::client::DEFAULT_BASE_URL);
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "client"))]
//! # fn main() {}
//! ```
//!
//! A [`Client`] is cheap to clone and is `Send + Sync`: clones share one
//! connection pool, so build it once and pass it around. Idempotent
//! requests are retried on rate limits, server errors and timeouts as its
//! [`RetryPolicy`] allows; what finally goes wrong is an [`Error`].
//!
//! # Fetching metrics
//!
//! [`Client::environment_metrics`] and [`Client::deployment_metrics`] build a request whose
//! mode is part of its type (see [`requests`]): `CURRENT` takes no window, `SUMMARY` and
//! `SERIES` take a [`Window`](requests::Window) checked when it is built, and the result offers only what its
//! mode has. A request owns a clone of the client, so it can be spawned. Here, the p99
//! end-to-end latency of an environment over twenty minutes, step by step:
//!
//! ```no_run
//! # #[cfg(feature = "client")]
//! # async fn run() -> Result<(), baseten_api::Error> {
//! use baseten_api::metrics::Lookup;
//! use baseten_api::Client;
//! use baseten_api::requests::Window;
//!
//! let client = Client::from_env()?;
//! // At most 7 days, start before end: checked here, before anything is sent.
//! let window = Window::new(1_783_191_332_703, 1_783_192_532_703)?;
//! let series = client
//!     .environment_metrics("abcd1234", "production")
//!     .series(window)
//!     .metric("baseten_end_to_end_response_time_seconds")
//!     .send()
//!     .await?;
//! println!("{} steps of nominally {} s", series.steps().len(), series.step_seconds());
//!
//! let latency = "baseten_end_to_end_response_time_seconds";
//! // A quantile is read by number (0.5, 0.9, 0.95 and 0.99 are served): `0.99` finds "0.990".
//! match series.quantile(latency, 0.99) {
//!     Lookup::Found(p99) => {
//!         for point in p99.points() {
//!             // `None`: no requests in that step.
//!             println!("{}..{} ms: {:?} s", point.start_ms, point.end_ms, point.value);
//!         }
//!     }
//!     Lookup::NotFound => println!("no p99 latency (no traffic in the window?)"),
//!     Lookup::Ambiguous(all) => println!("{} p99 series with the same labels", all.len()),
//! }
//! # Ok(()) }
//! ```
//!
//! The full view of any result, for tables and the CSV export, is
//! [`CheckedMetrics::view`](requests::CheckedMetrics::view) (see [`metrics`]).
//!
// The client's items exist with feature `client` only (the metrics entry points with `metrics`
// too), `Decimal` with `decimal`: without them their links lead to the Features section, which
// says so, rather than dangling.
#![cfg_attr(
    feature = "client",
    doc = "[`client`]: client\n[`operations`]: operations\n[`Client`]: Client\n[`Client::from_env`]: Client::from_env\n[`Client::builder`]: Client::builder\n[`ClientBuilder`]: ClientBuilder\n[`RetryPolicy`]: client::RetryPolicy\n[`AuthScheme`]: client::AuthScheme"
)]
#![cfg_attr(
    all(feature = "client", feature = "metrics"),
    doc = "[`Client::environment_metrics`]: Client::environment_metrics\n[`Client::deployment_metrics`]: Client::deployment_metrics"
)]
#![cfg_attr(
    not(all(feature = "client", feature = "metrics")),
    doc = "[`Client::environment_metrics`]: #features\n[`Client::deployment_metrics`]: #features"
)]
#![cfg_attr(feature = "decimal", doc = "[`Decimal`]: primitives::Decimal")]
#![cfg_attr(not(feature = "decimal"), doc = "[`Decimal`]: #features")]
#![cfg_attr(
    not(feature = "client"),
    doc = "[`client`]: #features\n[`operations`]: #features\n[`Client`]: #features\n[`Client::from_env`]: #features\n[`Client::builder`]: #features\n[`ClientBuilder`]: #features\n[`RetryPolicy`]: #features\n[`AuthScheme`]: #features"
)]
#![warn(missing_docs)]
// On docs.rs (`--cfg docsrs`), each item shows the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[rustfmt::skip]
#[allow(clippy::all, clippy::pedantic, missing_docs, unused_imports)]
#[path = "gen/mod.rs"]
mod generated;
pub use generated::*;

// The README's and the guide's Rust examples, compiled as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;

#[cfg(doctest)]
#[doc = include_str!("../GUIDE.md")]
struct GuideDoctests;
