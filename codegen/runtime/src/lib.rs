//! The hand-written runtime under every crate generated from a Baseten OpenAPI document.
//!
//! A generated crate (the workspace's `baseten-api`, or any crate `cargo xtask regen --spec DOC
//! --out DIR` writes) is thin: its models, its operations and a crate-local `Client` that calls
//! into this crate. This crate names nothing generated: what it knows of a document's types it
//! knows through traits the generator implements ([`IndexMappedResponse`],
//! [`MetricsOperation`]), so one runtime serves every document.
//!
//! | Module | Contents |
//! |---|---|
//! | [`Client`], [`ClientBuilder`], [`RetryPolicy`] | connection settings, authentication, timeouts, retries, shared rate-limit state, limits (feature `client`) |
//! | [`Interceptor`] | a hook into every attempt's request and response (feature `client`) |
//! | [`Watch`] | a metrics request polled at an interval, as a `Stream` (feature `client`) |
//! | [`Error`] | the error every call returns |
//! | [`ServerText`], [`server_text`] | the one boundary for text from a server: key scrubbed, unprintable characters escaped |
//! | [`Decimal`], [`jiff`] | exact decimals (money) and timestamps / dates of the models |
//! | [`requests`] | typestate metrics requests, [`Window`], mode-checked results |
//! | [`metrics`] | decoding, validating and reading index-mapped metrics responses |
//! | [`index_mapped`] | the traits the generator implements for index-mapped response types |
//!
//! Everything but the HTTP client works without the default `client` feature, on serde and
//! serde_json alone.

#![warn(missing_docs)]

// The generic layer: what every generated crate needs, knowing nothing of Baseten or metrics.
// No module of it imports one of the metrics layer (a test reads their `use` lines to check).
#[cfg(feature = "client")]
mod client;
mod decimal;
mod decode;
mod error;
#[cfg(feature = "mock")]
pub mod mock;
#[cfg(feature = "client")]
pub mod pages;
mod patch;
#[cfg(feature = "client")]
mod retry;
pub mod server_text;
mod support;
pub mod tagged;
#[cfg(feature = "client")]
mod telemetry;
#[cfg(feature = "client")]
mod throttle;

// The metrics layer above it: index-mapped responses, their alignment and views, typestate
// metrics requests, metric names, and the fake's metrics responses (`mock/metrics.rs`).
pub mod index_mapped;
pub mod metric_names;
pub mod metrics;
pub mod requests;

#[cfg(test)]
#[path = "test_models.rs"]
mod models;

#[cfg(feature = "client")]
pub use client::{
    API_KEY_ENV, AuthScheme, BASE_URL_ENV, Client, ClientBuilder, DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_REQUEST_ID_HEADER, DEFAULT_TIMEOUT,
};
pub use decimal::{Decimal, DecimalError};
pub use error::{Error, InvalidResponse};
pub use index_mapped::{IndexMappedDescriptor, IndexMappedResponse, IndexMappedValueSet};
/// The date and time types of `format: date-time` ([`jiff::Timestamp`]) and `format: date`
/// ([`jiff::civil::Date`]) fields, re-exported so a generated crate needs no jiff of its own.
pub use jiff;
pub use patch::Patch;
pub use requests::{
    CurrentMetrics, Metrics, MetricsMode, MetricsOperation, MetricsQuery, ResponseError,
    SeriesMetrics, SummaryMetrics, Window, WindowError, mode,
};
#[cfg(feature = "client")]
pub use requests::{MetricsRequest, Watch};
#[cfg(feature = "client")]
pub use retry::RetryPolicy;
/// The number type under [`Decimal`], re-exported for arithmetic beyond what `Decimal` offers.
pub use rust_decimal;
pub use server_text::ServerText;
#[doc(hidden)]
pub use support::__private;
pub use support::json_body;
#[cfg(feature = "client")]
pub use support::{Body, Method, Request, cookie_header, encode_path_segment};
#[cfg(feature = "client")]
pub use telemetry::{AttemptContext, InterceptedResponse, Interceptor};
