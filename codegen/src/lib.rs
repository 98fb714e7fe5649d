//! Pure OpenAPI 3.1 → Rust generator behind the `baseten-api` crate.
//!
//! The pipeline is `load` (YAML or JSON text → JSON value) → `lower` (3.1 → the `openapiv3`
//! 3.0 model, with notes for anything lowered with a loss) → `ir` (validated, named Rust
//! types and operations) → `surface` (every public item of the crate and every name it uses,
//! decided once, with what each domain extension in `extensions` recognised and added) → `emit` (tokens via `quote`, formatted by `syn` + `prettyplease`).
//! Nothing here touches the file system: callers hand in text and get files back as strings.

pub mod config;
pub mod diff;
mod emit;
mod error;
mod extensions;
pub mod identity;
pub mod ir;
mod krate;
pub mod load;
pub mod lock;
pub mod lower;
mod names;
pub mod package_name;
pub mod probe;
pub mod public_api;
pub(crate) mod reserved;
mod runtime_traits;
mod select;
mod surface;
mod tokens;

use std::collections::BTreeMap;

pub use config::Config;
pub use error::{Error, Note};
pub use krate::{CRATE_ROOT, CrateSettings, generate_crate, generate_crate_with, modules_file};
pub use lock::NameLock;
pub use lower::typed::MAX_ENUM_VALUES;

/// The API listing's file name beside the emitted modules (`api.txt`): one line per public item
/// of the crate, with its gate and signature, the crate's one listing; compare two with
/// [`diff::changes`].
pub const API_SNAPSHOT: &str = surface::listing::FILE;

/// The runtime's package name, as every generated crate's manifest depends on it.
pub const RUNTIME_PACKAGE: &str = "baseten-runtime";

/// What to generate from.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    /// The document's path as the header of every emitted file should name it,
    /// e.g. `schema/baseten-management.yaml`.
    pub spec_path: &'a str,
    /// The OpenAPI document, YAML or JSON.
    pub spec_text: &'a str,
    /// The generator config (YAML or JSON), if any.
    pub config_text: Option<&'a str>,
}

/// Everything one generation produces.
#[derive(Debug, Clone)]
pub struct Output {
    /// Emitted files by name (relative to the output directory), formatted, with headers.
    pub files: BTreeMap<String, String>,
    /// Constructs lowered with a loss or left out, each naming its place in the document.
    pub notes: Vec<Note>,
    /// Every Rust name given, for the next generation to keep (`names.lock.yaml`).
    pub names: NameLock,
    /// The crate's public API, one item per line ([`API_SNAPSHOT`], `api.txt`).
    pub api_snapshot: String,
    /// The crate root's declarations of the files the extensions added (for
    /// [`modules_file`]): empty when no extension added one.
    pub extension_modules: String,
    /// The lines of the crate's `[features]` table the document decides: `full`, one feature
    /// per API area, `jiff` and `decimal` (the rest, `default`, `client` and `mock`, are the
    /// same in every generated crate). Each area compiles its operations and the types they use.
    pub cargo_features: String,
    /// The crate root's docs the document decides (its servers), as `//!` lines; empty when it
    /// has nothing to say. `krate` writes it into a whole crate's `lib.rs`.
    pub crate_doc: String,
}

/// Runs the whole pipeline on one document.
pub fn generate(input: &Input<'_>) -> Result<Output, Error> {
    let config = match input.config_text {
        Some(text) => Config::parse(text)?,
        None => Config::default(),
    };
    generate_with(input, &config)
}

/// Runs the pipeline up to the IR: what the emitters would see, for tests and reports.
pub fn build_ir(input: &Input<'_>) -> Result<(ir::Api, Vec<Note>), Error> {
    let config = match input.config_text {
        Some(text) => Config::parse(text)?,
        None => Config::default(),
    };
    build_ir_with(input, &config)
}

/// [`build_ir`] with an already parsed config (the input's config text is not read).
pub fn build_ir_with(input: &Input<'_>, config: &Config) -> Result<(ir::Api, Vec<Note>), Error> {
    let lowered = lower::lower_loaded(load::parse_spec(input.spec_text)?)?;
    // Selection first: what it leaves out is never converted, so it cannot fail the build.
    let mut selected_notes = Vec::new();
    let selection = select::select(
        &lowered.openapi,
        &config.select,
        config.strict,
        &mut selected_notes,
    )?;
    // Schemas the lowering left out are read as any JSON value: places typed
    // `serde_json::Value` where the selection reaches them.
    let lowered_values: Vec<ir::values::ValuePlace> = lowered
        .left_out
        .iter()
        .filter(|left_out| selection.reaches(left_out))
        .filter_map(|left_out| match left_out {
            Error::LeftOut {
                pointer,
                what,
                reason,
            } if what == lower::READ_AS_ANY_VALUE => Some(ir::values::ValuePlace {
                pointer: pointer.clone(),
                reason: ir::values::ValueReason::LeftOut,
                detail: reason.clone(),
            }),
            _ => None,
        })
        .collect();
    // What the lowering noted or left out counts where the selection reaches; strict mode
    // refuses what it left out there.
    if config.strict
        && let Some(first) = lowered
            .left_out
            .into_iter()
            .find(|left_out| selection.reaches(left_out))
    {
        return Err(first);
    }
    let mut notes: Vec<Note> = lowered
        .notes
        .into_iter()
        .filter(|note| selection.reaches_pointer(&note.pointer))
        .collect();
    notes.append(&mut selected_notes);
    let reserved_types = extensions::reserved_type_names(extensions::EXTENSIONS);
    let api = ir::build(
        &lowered.openapi,
        &selection,
        config,
        &reserved_types,
        &mut notes,
        lowered_values,
    )?;
    Note::dedupe(&mut notes);
    Ok((api, notes))
}

/// [`generate`] with an already parsed config (the input's config text is not read), e.g. one
/// whose `strict` a command-line flag has set.
pub fn generate_with(input: &Input<'_>, config: &Config) -> Result<Output, Error> {
    let (api, notes) = build_ir_with(input, config)?;
    let (files, names, api_snapshot, cargo_features, extension_modules, crate_doc) = {
        let surface = surface::build(
            &api,
            config.crate_name.as_deref(),
            crate::extensions::EXTENSIONS,
        )?;
        // The snapshot is rendered while the files are formatted.
        let (files, snapshot) = emit::emit_files(&surface, config, input.spec_path, || {
            surface::listing::render(&surface.listing(), input.spec_path)
        })?;
        let features = surface.features.cargo_features(RUNTIME_PACKAGE);
        let modules = surface
            .contributions
            .iter()
            .flat_map(|contribution| contribution.files())
            .map(|file| file.declaration)
            .collect();
        let crate_doc = emit::crate_doc(surface.api);
        (files, surface.names, snapshot, features, modules, crate_doc)
    };
    // The surface's lock is the whole lock: it continued from the one the IR settled.
    Ok(Output {
        files,
        notes,
        names,
        api_snapshot,
        cargo_features,
        extension_modules,
        crate_doc,
    })
}
