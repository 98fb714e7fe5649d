//! Typed async client for Baseten's management API (`https://api.baseten.co`).
//!
//! Most of this crate is generated from the OpenAPI document in the
//! workspace's `schema/` directory by `cargo xtask regen`; do not edit the
//! generated files by hand, change the schema or the generator instead.
//!
//! | Module | Origin | Contents |
//! |---|---|---|
//! | [`models`] | generated (`src/gen/models.rs`) | request and response types |
//! | [`operations`] | generated (`src/gen/operations.rs`) | one call per API operation, and [`DEFAULT_BASE_URL`] |
//! | [`requests`] | hand-written | typestate metrics requests: [`Client::environment_metrics`], [`Client::deployment_metrics`], [`Window`], mode-checked results |
//! | [`metrics`] | hand-written | decoding, validating and reading index-mapped metrics responses |
//! | [`runtime`] | hand-written | the small support layer the generated code calls |
//! | [`Client`], [`ClientBuilder`], [`AuthScheme`], [`RetryPolicy`], [`Error`] | hand-written | connection settings, authentication, timeouts and retries, error type |
//!
//! # Example
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use baseten_api::{Client, RetryPolicy};
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
//!     .build()?;
//! assert_eq!(client.base_url(), baseten_api::DEFAULT_BASE_URL);
//! # Ok(())
//! # }
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
//! `SERIES` take a [`Window`] checked when it is built, and the result offers only what its
//! mode has. Here, the p99 end-to-end latency of an environment over twenty minutes, step by
//! step:
//!
//! ```no_run
//! use baseten_api::metrics::Lookup;
//! use baseten_api::{Client, Window};
//!
//! # async fn run() -> Result<(), baseten_api::Error> {
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
//! match series.series(latency, &[("quantile", "0.99")]) {
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
//! [`Metrics::view`](requests::Metrics::view) (see [`metrics`]).

#![warn(missing_docs)]

// The generated modules are declared like this (rather than through
// `include!`) so that rust-analyzer sees them as ordinary files; rustfmt and
// the lints are switched off because the generator owns their formatting.
#[rustfmt::skip]
#[allow(clippy::all, clippy::pedantic, missing_docs, unused_imports)]
#[path = "gen/models.rs"]
pub mod models;

#[rustfmt::skip]
#[allow(clippy::all, clippy::pedantic, missing_docs, unused_imports)]
#[path = "gen/operations.rs"]
pub mod operations;

// Only trait impls: nothing to name from outside.
#[rustfmt::skip]
#[allow(clippy::all, clippy::pedantic, missing_docs, unused_imports)]
#[path = "gen/index_mapped.rs"]
mod index_mapped_impls;

pub mod index_mapped;
pub mod metrics;
pub mod requests;
pub mod runtime;

mod client;
mod error;
mod retry;

pub use client::{
    API_KEY_ENV, AuthScheme, BASE_URL_ENV, Client, ClientBuilder, DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_TIMEOUT,
};
pub use error::Error;
pub use operations::DEFAULT_BASE_URL;
pub use requests::{
    CurrentMetrics, MetricsRequest, ResponseError, SeriesMetrics, SummaryMetrics, Window,
    WindowError,
};
pub use retry::RetryPolicy;

// The README's Rust examples, compiled as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
