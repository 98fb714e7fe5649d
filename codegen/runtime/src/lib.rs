//! The hand-written runtime under every crate generated from a Baseten OpenAPI document.
//!
//! A generated crate (the workspace's `baseten-api`, or any crate `cargo xtask regen --spec DOC
//! --out DIR` writes) is thin: its models, its operations and a crate-local `Client` that wraps
//! this crate's [`RuntimeClient`]. This crate names nothing generated: what it knows of a
//! document's types it knows through traits the generator implements (see
//! [`metrics::IndexMappedResponse`]), so
//! one runtime serves every document. A generated crate re-exports each item a user needs at
//! one path of its own; this page is for the runtime's maintainers and for reading its source.
//!
//! | Item or module | Contents |
//! |---|---|
//! | [`RuntimeClient`], [`ClientBuilder`], [`RetryPolicy`] | connection settings, authentication, timeouts, retries, shared rate-limit state, limits (feature `client`) |
//! | [`Interceptor`] | a hook into every attempt's request and response (feature `client`) |
//! | [`pages`] | [`PageStream`](pages::PageStream): the pages or items of a paginated operation, read with `next().await` (feature `client`) |
//! | [`Error`], [`InvalidResponse`] | the error every call returns |
//! | [`server_text`] | the one boundary for text from a server: key scrubbed, unprintable characters escaped |
//! | `spans` | a range longer than one call takes, cut into spans and called in order (feature `jiff`) |
//! | [`Decimal`], [`Patch`], [`jiff`](https://docs.rs/jiff/0.2/jiff/), [`Binary`] | exact decimals (money, feature `decimal`), three-state fields of request bodies, timestamps and dates (feature `jiff`), bytes (`format: binary`: files to upload) |
//! | [`Indirect`] | a `Box` that rustc's drop check does not look through: the edges of a cycle (or a long chain) of generated types |
//! | [`requests`] | typestate metrics requests, [`Window`], mode-checked results, [`Watch`] |
//! | [`metrics`] | decoding, validating and reading index-mapped metrics responses |
//! | [`metric_names`] | the metric names Baseten documents |
//! | `mock` | a fake server and metrics responses for tests (feature `mock`) |
//!
//! Everything but the HTTP client works without the default `client` feature, on serde and
//! serde_json alone. The value types some documents need are features of their own, which a
//! generated crate enables only for the API areas whose types hold them: `jiff` (dates and
//! times) and `decimal` (exact decimals).

#![warn(missing_docs)]
// On docs.rs (`--cfg docsrs`), each item shows the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

// The generic layer: what every generated crate needs, knowing nothing of Baseten or metrics.
// No module of it imports one of the metrics layer (a test reads their `use` lines to check).
#[doc(hidden)] // what the generated best-fit unions call
pub mod best_fit;
mod binary;
#[cfg(feature = "client")]
mod client;
#[cfg(feature = "decimal")]
mod decimal;
mod decode;
mod error;
mod finite;
mod indirect;
#[cfg(feature = "mock")]
pub mod mock;
#[cfg(feature = "client")]
mod multipart;
mod open_enum;
#[cfg(feature = "client")]
pub mod pages;
#[doc(hidden)] // what the generated operations call
pub mod param_style;
mod patch;
mod percent;
#[cfg(feature = "client")]
mod raw_request;
#[cfg(feature = "client")]
mod redirect;
#[cfg(feature = "client")]
mod request_builder;
#[cfg(feature = "client")]
mod retry;
pub mod server_text;
#[cfg(feature = "client")]
mod server_url;
#[cfg(feature = "jiff")]
pub mod spans;
mod struct_de;
mod support;
#[doc(hidden)]
pub mod tagged;
#[cfg(feature = "client")]
mod telemetry;
#[cfg(feature = "client")]
pub mod text;
#[cfg(feature = "client")]
mod throttle;
mod value_enum;

// The metrics layer above it: index-mapped responses, their alignment and views, typestate
// metrics requests, metric names, and the fake's metrics responses (`mock/metrics.rs`).
pub mod metric_names;
pub mod metrics;
pub mod requests;

#[cfg(test)]
#[path = "test_models.rs"]
mod models;

// Each item has one public path: the modules' items are not repeated here, and what only the
// generated code calls is `#[doc(hidden)]` (progenitor-client's convention), so a user's
// documentation shows what a user calls.
pub use binary::Binary;
#[cfg(feature = "client")]
pub use client::{
    AuthScheme, ClientBuilder, DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_REQUEST_ID_HEADER, DEFAULT_TIMEOUT, MissingCredentials, Place, RuntimeClient, Security,
};
#[cfg(feature = "decimal")]
pub use decimal::{Decimal, DecimalError};
pub use error::{Error, InvalidArgument, InvalidResponse};
pub use indirect::Indirect;
/// The date and time types of `format: date-time` ([`jiff::Timestamp`]) and `format: date`
/// ([`jiff::civil::Date`]) fields, re-exported so a generated crate needs no jiff of its own.
#[cfg(feature = "jiff")]
pub use jiff;
pub use param_style::NonFinite;
pub use patch::Patch;
#[cfg(feature = "client")]
pub use raw_request::{RawRequest, RawResponse};
/// The HTTP client crate, at the version the runtime uses: build a `reqwest::Client` of your own
/// (proxies, a custom CA, middleware) for [`ClientBuilder::http_client`] without adding it.
#[cfg(feature = "client")]
pub use reqwest;
#[cfg(feature = "client")]
pub use retry::RetryPolicy;
/// The number type under [`Decimal`], re-exported for arithmetic beyond what `Decimal` offers.
#[cfg(feature = "decimal")]
pub use rust_decimal;
#[cfg(feature = "client")]
pub use server_url::ServerUrl;
#[cfg(feature = "client")]
pub use telemetry::{AttemptContext, InterceptedResponse, Interceptor};

/// The old name of [`RuntimeClient`], which shared its name with every generated crate's
/// `Client`.
#[cfg(feature = "client")]
#[doc(hidden)]
#[deprecated(note = "renamed `RuntimeClient`; a generated crate's `Client` wraps it")]
pub type Client = RuntimeClient;

// What the generated code names at this root; each has its public path in a module.
// The module the generated `index_mapped.rs` implements (in `metrics`, whose layer it is); its
// traits are `metrics`'s, for a user.
#[doc(hidden)]
pub use metrics::index_mapped;
#[doc(hidden)]
pub use metrics::index_mapped::{IndexMappedDescriptor, IndexMappedResponse, IndexMappedValueSet};
#[cfg(feature = "client")]
#[doc(hidden)]
pub use request_builder::{Encoding, OptionalParam, RequestBuilder, encodings::*};
#[allow(deprecated)]
#[doc(hidden)]
pub use requests::Metrics;
#[doc(hidden)]
pub use requests::{
    CurrentMetrics, MetricsMode, MetricsOperation, MetricsQuery, ResponseError, SeriesMetrics,
    SummaryMetrics, Window, WindowError, mode,
};
#[cfg(feature = "client")]
#[doc(hidden)]
pub use requests::{MetricsRequest, Watch};
#[doc(hidden)]
pub use server_text::ServerText;
#[doc(hidden)]
pub use support::__private;
#[doc(hidden)]
pub use support::json_body;
#[cfg(feature = "client")]
#[doc(hidden)]
pub use support::{Body, Method, Request, cookie_header, encode_path_segment};
