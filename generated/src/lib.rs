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
//! | [`Client`], [`ClientBuilder`], [`Error`] | hand-written | connection settings, authentication, error type |
//!
//! # Example
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let key = std::env::var("BASETEN_API_KEY")?;
//! let client = baseten_api::Client::new(key)?;
//! assert_eq!(client.base_url(), baseten_api::DEFAULT_BASE_URL);
//! # Ok(())
//! # }
//! ```
//!
//! A [`Client`] is cheap to clone and is `Send + Sync`: clones share one
//! connection pool, so build it once and pass it around.

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

pub mod index_mapped;
pub mod runtime;

mod client;
mod error;

pub use client::{Client, ClientBuilder};
pub use error::Error;
pub use operations::DEFAULT_BASE_URL;
