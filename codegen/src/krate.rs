//! A whole crate around the emitted modules, for generating from any document
//! (`cargo xtask regen --spec PATH --out DIR --name NAME`): `Cargo.toml`, a `lib.rs` declaring the
//! emitted modules and re-exporting the runtime, and `src/gen/*.rs`.
//!
//! The crate has the shape of the workspace's own `baseten-api`: the same features (`client` and
//! `full`, every API area, on by default; one feature per area, `jiff`, `decimal`, `mock`), the
//! same crate root ([`CRATE_ROOT`] over the emitted `gen/mod.rs`, which
//! `generated/src/lib.rs` holds too, as a test checks), a crate-local `Client` with `new`, `from_env` and `builder`. Nothing it writes
//! names an absolute path: the runtime is found by the relative path the caller passes.

use std::collections::BTreeMap;

use crate::{Config, Error, Input, Output};

/// How the crate is named and where it finds the runtime.
#[derive(Debug, Clone)]
pub struct CrateSettings<'a> {
    /// The package name (`baseten-full`).
    pub name: &'a str,
    /// The `baseten-runtime` crate's directory, relative to the crate's own directory, with `/`
    /// separators (`../baseten-api/codegen/runtime`).
    pub runtime_path: &'a str,
    /// The document's name as the headers should say it (a file name, not a path).
    pub spec_name: &'a str,
    /// Whether `Cargo.toml` gets an empty `[workspace]` table, making the crate the root of a
    /// workspace of its own rather than a member of an enclosing one.
    pub own_workspace: bool,
}

/// What every generated crate's hand-written or generated `lib.rs` holds after its docs: the
/// emitted modules, as one private module whose public items the root re-exports (the shape of
/// rust-analyzer's `ast/generated.rs`). `generated/src/lib.rs` holds exactly this text too.
///
/// `gen` is a reserved word in edition 2024, so the module is `generated`, at `gen/mod.rs`. Its
/// formatting belongs to the generator and its lints are the emitted code's, not the root's.
pub const CRATE_ROOT: &str = r#"// On docs.rs (`--cfg docsrs`), each item shows the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[rustfmt::skip]
#[allow(clippy::all, clippy::pedantic, missing_docs, unused_imports)]
#[path = "gen/mod.rs"]
mod generated;
pub use generated::*;
"#;

/// The body of `gen/mod.rs` (after its header): the runtime re-exported so one dependency is
/// enough, then the emitted modules.
const MODULES: &str = r#"//! The emitted modules, and each runtime item a user names at one path of this crate.

// The runtime, for the generated code (`crate::runtime`); every item of it a user names has its
// own path below, so the documentation shows each once.
#[doc(hidden)]
pub use baseten_runtime as runtime;

pub use runtime::{Error, metric_names, metrics, requests};
#[cfg(feature = "jiff")]
pub use runtime::spans;

pub mod models;

#[cfg(feature = "client")]
pub mod operations;

#[cfg(feature = "client")]
pub mod client;

#[cfg(feature = "mock")]
pub mod mock;

/// The value types of the models: exact decimals (money, feature `decimal`), the three states
/// of an optional nullable field of a request body, bytes (files to upload) and dates and
/// times (feature `jiff`). The
/// API areas whose types hold decimals or dates enable those features.
///
/// # Times
///
/// One time type, `jiff::Timestamp`, with the epoch milliseconds the API sends always at hand:
///
/// | From | To | With |
/// |---|---|---|
/// | two `Timestamp`s | a metrics window | `requests::Window::from_timestamps(start, end)?` (or `Window::between`, which takes `SystemTime`s too) |
/// | a `Timestamp` | an open window | `Window::since_timestamp(start)`, `Window::until_timestamp(end)` |
/// | a window | its sides | `window.start()`, `window.end()` (`Option<Timestamp>`); `start_ms()`, `end_ms()` |
/// | a step or a point of a series | its bounds | `point.start()`, `point.end()` (`Option<Timestamp>`: `None` only beyond jiff's years ±9999); `start_ms`, `end_ms` |
/// | a `Timestamp` | an epoch-millisecond argument (an integer query parameter) | `timestamp.as_millisecond()` |
/// | epoch milliseconds | a `Timestamp` | `jiff::Timestamp::from_millisecond(ms)?` |
/// | `std::time::SystemTime` | a `Timestamp` | `jiff::Timestamp::try_from(time)?`; back with `SystemTime::from(timestamp)` |
///
/// A `format: date-time` field or argument is a `Timestamp` already (sent as RFC 3339 text), a
/// `format: date` one a `jiff::civil::Date`; `spans` cuts a long range of `Timestamp`s into the
/// spans an endpoint takes.
pub mod primitives {
    pub use crate::runtime::{Binary, Patch};
    #[cfg(feature = "decimal")]
    pub use crate::runtime::{Decimal, DecimalError};
    #[cfg(feature = "jiff")]
    pub use crate::runtime::jiff;
}

/// What an [`Error`](crate::Error) carries: text from a server (scrubbed of the API key,
/// unprintable characters escaped), why a response was invalid, and which argument was refused.
pub mod error {
    pub use crate::runtime::{InvalidArgument, InvalidResponse};
    pub use crate::runtime::server_text::{ServerText, is_unprintable};
    #[cfg(feature = "scrub")]
    pub use crate::runtime::server_text::RegisteredSecret;
}

{extension_modules}
// Shown as re-exports: each item is listed once, in `client`.
#[cfg(feature = "client")]
#[doc(no_inline)]
pub use client::{Client, ClientBuilder};

// The names this root had before each item got one path, kept for one release.
#[doc(hidden)]
pub use runtime::{IndexMappedDescriptor, IndexMappedResponse, IndexMappedValueSet, index_mapped};
#[cfg(feature = "jiff")]
#[doc(hidden)]
pub use runtime::jiff;
#[doc(hidden)]
#[deprecated(note = "moved to `requests::Window`")]
pub type Window = runtime::requests::Window;
#[doc(hidden)]
#[deprecated(note = "moved to `requests::WindowError`")]
pub type WindowError = runtime::requests::WindowError;
#[doc(hidden)]
#[deprecated(note = "renamed `requests::CheckedMetrics`")]
pub type Metrics<R, M> = runtime::requests::CheckedMetrics<R, M>;
#[doc(hidden)]
#[deprecated(note = "moved to `requests::CurrentMetrics`")]
pub type CurrentMetrics<R> = runtime::requests::CurrentMetrics<R>;
#[doc(hidden)]
#[deprecated(note = "moved to `requests::SummaryMetrics`")]
pub type SummaryMetrics<R> = runtime::requests::SummaryMetrics<R>;
#[doc(hidden)]
#[deprecated(note = "moved to `requests::SeriesMetrics`")]
pub type SeriesMetrics<R> = runtime::requests::SeriesMetrics<R>;
#[doc(hidden)]
#[deprecated(note = "moved to `requests::MetricsMode`")]
pub type MetricsMode = runtime::requests::MetricsMode;
#[doc(hidden)]
#[deprecated(note = "moved to `requests::ResponseError`")]
pub type ResponseError = runtime::requests::ResponseError;
#[cfg(feature = "decimal")]
#[doc(hidden)]
#[deprecated(note = "moved to `primitives::Decimal`")]
pub type Decimal = runtime::Decimal;
#[doc(hidden)]
#[deprecated(note = "moved to `primitives::Patch`")]
pub type Patch<T> = runtime::Patch<T>;
#[cfg(feature = "client")]
#[doc(hidden)]
#[deprecated(note = "moved to `requests::MetricsRequest`")]
pub type MetricsRequest<O, M = runtime::requests::mode::Unset> = runtime::requests::MetricsRequest<O, M>;
#[cfg(feature = "client")]
#[doc(hidden)]
#[deprecated(note = "moved to `client::RetryPolicy`")]
pub type RetryPolicy = runtime::RetryPolicy;
#[cfg(feature = "client")]
#[doc(hidden)]
#[deprecated(note = "moved to `client::AuthScheme`")]
pub type AuthScheme = runtime::AuthScheme;
#[cfg(feature = "client")]
#[doc(hidden)]
pub use client::{
    API_KEY_ENV, BASE_URL_ENV, DEFAULT_BASE_URL, DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_REQUEST_ID_HEADER, DEFAULT_TIMEOUT,
};
"#;

/// `gen/mod.rs` of a generated crate, headed like the other emitted files (`generated_by` is
/// the command and document the header names), declaring the files the extensions added
/// (`extension_modules`, [`Output::extension_modules`]).
pub fn modules_file(generated_by: &str, extension_modules: &str) -> String {
    let body = MODULES.replace("{extension_modules}\n", extension_modules);
    format!("// @generated by {generated_by}. Do not edit.\n\n{body}")
}

/// Generates a crate: `Cargo.toml`, `src/lib.rs` and `src/gen/*.rs`.
pub fn generate_crate(input: &Input<'_>, settings: &CrateSettings<'_>) -> Result<Output, Error> {
    let config = match input.config_text {
        Some(text) => Config::parse(text)?,
        None => Config::default(),
    };
    generate_crate_with(input, &config, settings)
}

/// [`generate_crate`] with an already parsed config (the input's config text is not read).
pub fn generate_crate_with(
    input: &Input<'_>,
    config: &Config,
    settings: &CrateSettings<'_>,
) -> Result<Output, Error> {
    let named = Input {
        spec_path: settings.spec_name,
        ..*input
    };
    let output = crate::generate_with(&named, config)?;
    let mut files = BTreeMap::new();
    for (name, contents) in output.files {
        files.insert(format!("src/gen/{name}"), contents);
    }
    files.insert(
        format!("src/gen/{}", crate::lock::LOCK_FILE),
        output.names.to_text(),
    );
    files.insert(
        format!("src/gen/{}", crate::API_SNAPSHOT),
        output.api_snapshot.clone(),
    );
    files.insert(
        "src/gen/mod.rs".to_owned(),
        modules_file(&command(settings), &output.extension_modules),
    );
    files.insert(
        "Cargo.toml".to_owned(),
        cargo_toml(settings, &output.cargo_features),
    );
    files.insert("src/lib.rs".to_owned(), lib_rs(settings, &output.crate_doc));
    Ok(Output {
        files,
        notes: output.notes,
        names: output.names,
        api_snapshot: output.api_snapshot,
        cargo_features: output.cargo_features,
        extension_modules: output.extension_modules,
        crate_doc: output.crate_doc,
    })
}

/// How every generated crate's `Cargo.toml` starts: the generator knows its own crates by it
/// (a regeneration in place keeps the package name, `package_name`).
pub(crate) const MANIFEST_MARKER: &str =
    "# @generated by cargo xtask regen --spec … --out … --name ";

/// The command the headers name; no paths, so the bytes do not depend on where it ran.
fn command(settings: &CrateSettings<'_>) -> String {
    format!(
        "cargo xtask regen --spec … --out … --name {} from {}",
        settings.name, settings.spec_name
    )
}

fn cargo_toml(settings: &CrateSettings<'_>, features: &str) -> String {
    let workspace = if settings.own_workspace {
        "\n# The root of a workspace of its own, not a member of an enclosing one.\n[workspace]\n"
    } else {
        ""
    };
    format!(
        "# @generated by {command}. Do not edit.\n\
         [package]\n\
         name = {name:?}\n\
         version = \"0.1.0\"\n\
         edition = \"2024\"\n\
         publish = false\n\
         \n\
         # docs.rs documents every feature and shows which one each item needs.\n\
         [package.metadata.docs.rs]\n\
         all-features = true\n\
         rustdoc-args = [\"--cfg\", \"docsrs\"]\n\
         \n\
         [features]\n\
         default = [\"client\", \"full\"]\n\
         # The HTTP client and the `Client`; without it, the models and `metrics` on serde alone.\n\
         client = [\"scrub\", \"baseten-runtime/client\"]\n\
         # The key scrubber (`error::RegisteredSecret`); the client enables it, for its key.\n\
         scrub = [\"baseten-runtime/scrub\"]\n\
         # A fake of the API for tests: `mock::Fake<Api>` (wiremock). For dev-dependencies.\n\
         mock = [\"client\", \"baseten-runtime/mock\"]\n\
         {features}\
         \n\
         [dependencies]\n\
         baseten-runtime = {{ path = {runtime:?}, default-features = false }}\n\
         serde = {{ version = \"1\", features = [\"derive\"] }}\n\
         serde_json = \"1\"\n\
         {workspace}",
        command = command(settings),
        name = settings.name,
        runtime = settings.runtime_path,
    )
}

fn lib_rs(settings: &CrateSettings<'_>, crate_doc: &str) -> String {
    format!(
        "// @generated by {command}. Do not edit.\n\
         //! A typed client for the API `{spec}` describes, over the `baseten-runtime` runtime.\n\
         {crate_doc}\
         \n\
         {CRATE_ROOT}",
        command = command(settings),
        spec = settings.spec_name,
    )
}

#[cfg(test)]
mod tests {
    use super::modules_file;

    /// The root declares what the extensions added where the fixed text leaves room, one blank
    /// line between items either way; with nothing added, no module is declared for a file the
    /// crate does not have.
    #[test]
    fn the_root_declares_only_the_files_extensions_added() {
        let bare = modules_file("x", "");
        assert!(bare.starts_with("// @generated by x. Do not edit.\n\n//! The emitted modules"));
        assert!(!bare.contains("index_mapped.rs"));
        assert!(!bare.contains("{extension_modules}"));
        assert!(bare.contains("}\n\n// Shown as re-exports"), "{bare}");
        let added = modules_file("x", "mod a;\n\nmod b;\n\n");
        assert!(
            added.contains("}\n\nmod a;\n\nmod b;\n\n// Shown as re-exports"),
            "{added}"
        );
    }
}
