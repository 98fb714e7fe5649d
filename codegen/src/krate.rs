//! A whole crate around the emitted modules, for generating from any document
//! (`cargo xtask regen --spec PATH --out DIR --name NAME`): `Cargo.toml`, a `lib.rs` declaring the
//! emitted modules and re-exporting the runtime, and `src/gen/*.rs`.
//!
//! The crate has the shape of the workspace's own `baseten-api`: the same features (`client`, on
//! by default), the same crate root ([`CRATE_ROOT`], which `generated/src/lib.rs` holds too, as a
//! test checks), a crate-local `Client` with `new`, `from_env` and `builder`. Nothing it writes
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

/// The items of every generated crate's root, after its docs: the runtime re-exported so one
/// dependency is enough, then the emitted modules. `generated/src/lib.rs` contains exactly this
/// text too.
/// (In the order rustfmt keeps, since the hand-written copy is formatted.)
pub const CRATE_ROOT: &str = r#"pub use baseten_runtime as runtime;
#[cfg(feature = "client")]
pub use runtime::{
    API_KEY_ENV, AuthScheme, BASE_URL_ENV, ClientBuilder, DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_REQUEST_ID_HEADER, DEFAULT_TIMEOUT, MetricsRequest,
    RetryPolicy,
};
pub use runtime::{
    CurrentMetrics, Decimal, Error, IndexMappedDescriptor, IndexMappedResponse,
    IndexMappedValueSet, Metrics, MetricsMode, Patch, ResponseError, SeriesMetrics, SummaryMetrics,
    Window, WindowError, index_mapped, jiff, metric_names, metrics, requests,
};

// The generated modules are declared like this (rather than through `include!`) so that
// rust-analyzer sees them as ordinary files; rustfmt and the lints are switched off because the
// generator owns their formatting.
#[rustfmt::skip]
#[allow(clippy::all, clippy::pedantic, missing_docs, unused_imports)]
#[path = "gen/models.rs"]
pub mod models;

#[cfg(feature = "client")]
#[rustfmt::skip]
#[allow(clippy::all, clippy::pedantic, missing_docs, unused_imports)]
#[path = "gen/operations.rs"]
pub mod operations;

#[cfg(feature = "client")]
#[rustfmt::skip]
#[allow(clippy::all, clippy::pedantic, missing_docs, unused_imports)]
#[path = "gen/client.rs"]
pub mod client;

#[cfg(feature = "mock")]
#[rustfmt::skip]
#[allow(clippy::all, clippy::pedantic, missing_docs, unused_imports)]
#[path = "gen/mock.rs"]
pub mod mock;

// Only trait impls: nothing to name from outside.
#[rustfmt::skip]
#[allow(clippy::all, clippy::pedantic, missing_docs, unused_imports)]
#[path = "gen/index_mapped.rs"]
mod index_mapped_impls;

#[cfg(feature = "client")]
pub use client::{Client, DEFAULT_BASE_URL};
"#;

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
    files.insert("Cargo.toml".to_owned(), cargo_toml(settings));
    files.insert("src/lib.rs".to_owned(), lib_rs(settings));
    Ok(Output {
        files,
        notes: output.notes,
        names: output.names,
        api_snapshot: output.api_snapshot,
    })
}

/// The command the headers name; no paths, so the bytes do not depend on where it ran.
fn command(settings: &CrateSettings<'_>) -> String {
    format!(
        "cargo xtask regen --spec … --out … --name {} from {}",
        settings.name, settings.spec_name
    )
}

fn cargo_toml(settings: &CrateSettings<'_>) -> String {
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
         [features]\n\
         default = [\"client\"]\n\
         # The HTTP client and the `Client`; without it, the models and `metrics` on serde alone.\n\
         client = [\"baseten-runtime/client\"]\n\
         # A fake of the API for tests: `mock::FakeBaseten` (wiremock). For dev-dependencies.\n\
         mock = [\"client\", \"baseten-runtime/mock\"]\n\
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

fn lib_rs(settings: &CrateSettings<'_>) -> String {
    format!(
        "// @generated by {command}. Do not edit.\n\
         //! A typed client for the API `{spec}` describes, over the `baseten-runtime` runtime.\n\
         \n\
         {CRATE_ROOT}",
        command = command(settings),
        spec = settings.spec_name,
    )
}
