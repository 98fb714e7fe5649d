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
pub use retry::RetryPolicy;
