//! Typed async client for Baseten's management API (`https://api.baseten.co`).
//!
//! Most of this crate is generated from the OpenAPI document in the workspace's `schema/`
//! directory by `cargo xtask regen`; do not edit the generated files by hand, change the schema
//! or the generator instead. Everything hand-written lives in the runtime crate,
//! [`baseten_runtime`], re-exported here as [`runtime`], so this crate is the only dependency a
//! user needs.
//!
//! | Module | Origin | Contents |
//! |---|---|---|
//! | [`models`] | generated (`src/gen/models.rs`) | request and response types |
//! | [`operations`] | generated (`src/gen/operations.rs`) | one async method on [`Client`] per operation, and their query types |
//! | [`client`] | generated (`src/gen/client.rs`) | [`Client`], [`DEFAULT_BASE_URL`], the typestate metrics requests [`Client::environment_metrics`] and [`Client::deployment_metrics`] |
//! | [`requests`] | runtime | [`Window`], mode-checked results ([`Metrics`]) |
//! | [`metrics`] | runtime | decoding, validating and reading index-mapped metrics responses |
//! | [`runtime`] | runtime | [`ClientBuilder`], [`RetryPolicy`], [`Error`], and what the generated code calls |
//!
//! # Features
//!
//! `client` (default): the HTTP client (reqwest with rustls, tokio's timer), [`Client`] and the
//! [`operations`]. With `default-features = false` the crate is the [`models`], their open
//! enums and the whole [`metrics`] module on serde and serde_json alone: for code that
//! only reads saved responses.
//!
//! # Example
//!
//! ```no_run
//! # #[cfg(feature = "client")]
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
//!     .default_header("x-team", "autoscaler")
//!     .build()?;
//! assert_eq!(client.base_url(), baseten_api::DEFAULT_BASE_URL);
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
//! `SERIES` take a [`Window`] checked when it is built, and the result offers only what its
//! mode has. A request owns a clone of the client, so it can be spawned. Here, the p99
//! end-to-end latency of an environment over twenty minutes, step by step:
//!
//! ```no_run
//! # #[cfg(feature = "client")]
//! # async fn run() -> Result<(), baseten_api::Error> {
//! use baseten_api::metrics::Lookup;
//! use baseten_api::{Client, Window};
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
//! [`Metrics::view`] (see [`metrics`]).

#![warn(missing_docs)]

#[rustfmt::skip]
#[allow(clippy::all, clippy::pedantic, missing_docs, unused_imports)]
#[path = "gen/mod.rs"]
mod generated;
pub use generated::*;

// The README's Rust examples, compiled as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
