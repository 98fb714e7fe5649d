//! `regen`: run the generator in memory, then bring every emitted file up to date (or, in check
//! mode, report how each differs). Nothing is written unless generation succeeded as a whole.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// The document we generate from, relative to the workspace root.
pub const SPEC: &str = "schema/baseten-management.yaml";
/// The generator config beside it (optional).
pub const CONFIG: &str = "schema/codegen.yaml";
/// Where the emitted files go; the generator owns this directory entirely.
pub const OUT_DIR: &str = "generated/src/gen";
/// The runtime crate every generated crate depends on, relative to the workspace root.
pub const RUNTIME_DIR: &str = "codegen/runtime";

const FIX: &str = "run `cargo xtask regen` and commit the result";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Overwrite,
    Check,
}

pub fn run(root: &Path, mode: Mode, strict: bool) -> Result<()> {
    let Generated {
        files,
        cargo_features,
    } = generate(root, strict)?;
    let stale = sync_dir(root, OUT_DIR, &files, mode)?;
    let mut stale_listings = Vec::new();
    if let Some(manifest) = manifest_with_features(root, &cargo_features)?
        && ensure_file_contents(mode, root, MANIFEST, &manifest)?
    {
        stale_listings.push(MANIFEST.to_owned());
    }
    for (crate_dir, listing) in public_api_listings(root)? {
        let relative = format!("{crate_dir}/{PUBLIC_API}");
        if ensure_file_contents(mode, root, &relative, &listing)? {
            stale_listings.push(relative);
        }
    }
    if mode == Mode::Overwrite && !stale_listings.is_empty() {
        eprintln!(
            "updated {} (the public API changed: review its diff)",
            stale_listings.join(", ")
        );
    }
    // The generated listing shows the runtime's re-exported items from the runtime listing this
    // xtask was built with: a changed one is read by the next build of it.
    if stale_listings
        .iter()
        .any(|listing| listing == &format!("{RUNTIME_DIR}/{PUBLIC_API}"))
    {
        eprintln!(
            "the runtime's API changed: run `cargo xtask regen` once more so {OUT_DIR}/api.txt \
             lists the re-exported items as they are now"
        );
    }
    if stale.is_empty() {
        if mode == Mode::Overwrite {
            eprintln!("{OUT_DIR}: {} files up to date", files.len());
        }
        if mode == Mode::Check && !stale_listings.is_empty() {
            bail!(
                "{} out of date with the sources; {FIX}",
                stale_listings.join(", ")
            );
        }
        return Ok(());
    }
    match mode {
        Mode::Overwrite => {
            eprintln!("{OUT_DIR}: updated {}", stale.join(", "));
            eprint!("{}", changes_since_commit(root, &files));
            Ok(())
        }
        Mode::Check => bail!(
            "{OUT_DIR} is out of date with {SPEC} ({}); {FIX}",
            stale
                .iter()
                .chain(&stale_listings)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The public-API listing's file name, at the root of each hand-written crate it covers.
pub const PUBLIC_API: &str = "api.txt";

/// The hand-written crates whose public API is listed (`baseten_codegen::public_api`), each by
/// its directory and root file. Not the generated crate: its one listing is the generator's
/// (`generated/src/gen/api.txt`, with gates and endpoints), and a test checks it names
/// everything the crate's sources, its hand-written root included, make nameable.
pub const LISTED_CRATES: &[(&str, &str)] = &[("codegen/runtime", "src/lib.rs")];

/// Each listed crate's directory and its listing, from its sources as they are on disk. A crate
/// not in this tree (a scratch copy holding only `schema/` and the emitted files) is skipped.
pub fn public_api_listings(root: &Path) -> Result<Vec<(&'static str, String)>> {
    LISTED_CRATES
        .iter()
        .filter(|(crate_dir, lib)| root.join(crate_dir).join(lib).is_file())
        .map(|&(crate_dir, lib)| {
            let dir = root.join(crate_dir);
            let listing = baseten_codegen::public_api::list_public_api(lib, &mut |path| {
                fs::read_to_string(dir.join(path)).ok()
            })
            .with_context(|| format!("listing the public API of {crate_dir}"))?;
            Ok((crate_dir, listing))
        })
        .collect()
}

/// What `regen --spec PATH --out DIR` generates.
pub struct Standalone<'a> {
    pub spec: &'a Path,
    pub out: &'a Path,
    pub config: Option<&'a Path>,
    /// `--name`; without it, the name of the crate already in `out`, else the file name's.
    pub name: Option<&'a str>,
    pub own_workspace: bool,
    /// `--strict`: what the generator would leave out is an error.
    pub strict: bool,
    /// This workspace's runtime crate directory.
    pub runtime: &'a Path,
    /// Print the change report against the crate `out` held (off for the benches' timed runs).
    pub report: bool,
}

/// Generates a crate from any document into `out`, depending on this workspace's runtime by a
/// path relative to `out`. Over a crate it wrote before, it keeps its package name (unless
/// `--name` says otherwise) and prints what changed for its dependents.
pub fn run_standalone(target: &Standalone<'_>, mode: Mode) -> Result<()> {
    let spec = target.spec;
    let spec_text =
        fs::read_to_string(spec).with_context(|| format!("reading {}", spec.display()))?;
    let config_text = target
        .config
        .map(|path| fs::read_to_string(path).with_context(|| format!("reading {}", path.display())))
        .transpose()?;
    let spec_name = spec
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let manifest_path = target.out.join("Cargo.toml");
    let existing_manifest = read_if_present(&manifest_path)?;
    let name = baseten_codegen::package_name::package_name(
        target.name,
        existing_manifest.as_deref(),
        &spec_name,
    )
    .with_context(|| format!("naming the crate in {}", target.out.display()))?;
    let previous_listing = match name.previous {
        Some(_) if target.report && mode == Mode::Overwrite => read_if_present(
            &target
                .out
                .join("src/gen")
                .join(baseten_codegen::API_SNAPSHOT),
        )?,
        _ => None,
    };
    fs::create_dir_all(target.out).with_context(|| format!("creating {}", target.out.display()))?;
    let runtime_path = relative_path(target.out, target.runtime)?;
    let settings = baseten_codegen::CrateSettings {
        name: &name.name,
        runtime_path: &runtime_path,
        spec_name: &spec_name,
        own_workspace: target.own_workspace,
    };
    let input = baseten_codegen::Input {
        spec_path: &spec_name,
        spec_text: &spec_text,
        config_text: config_text.as_deref(),
    };
    let mut config = parse_config(config_text.as_deref(), target.strict)?;
    let lock_path = target
        .out
        .join("src/gen")
        .join(baseten_codegen::lock::LOCK_FILE);
    config.names_lock = read_lock(&lock_path)?;
    let output = baseten_codegen::generate_crate_with(&input, &config, &settings)
        .with_context(|| format!("generating from {}", spec.display()))?;
    for note in &output.notes {
        eprintln!(
            "note: {spec_name}{}",
            note.to_string().trim_start_matches('#')
        );
    }
    let mut stale = Vec::new();
    for (relative, contents) in &output.files {
        if ensure_file_contents(mode, target.out, relative, contents)? {
            stale.push(relative.clone());
        }
    }
    if mode == Mode::Check && !stale.is_empty() {
        bail!(
            "{} is out of date ({}); rerun `cargo xtask regen --spec {} --out {}`",
            target.out.display(),
            stale.join(", "),
            spec.display(),
            target.out.display(),
        );
    }
    if let (Some(previous), Some(listing)) = (&name.previous, previous_listing) {
        let report = standalone_report(&listing, &input, &config, &output.api_snapshot)
            .with_package_rename(previous, &name.name);
        eprint!("API changes to {}: {report}", target.out.display());
    }
    Ok(())
}

/// The report of a regeneration in place: the listing the crate had against the one just
/// written, with the new document's IR (the old document is not kept beside the crate, so a
/// renamed type reads as one removed and one added, as the report's note says).
fn standalone_report(
    old_listing: &str,
    input: &baseten_codegen::Input<'_>,
    config: &baseten_codegen::Config,
    new_listing: &str,
) -> baseten_codegen::diff::ChangeReport {
    let new_ir = baseten_codegen::build_ir_with(input, config)
        .map(|(api, _)| api)
        .map_err(|error| error.to_string());
    baseten_codegen::diff::changes(
        baseten_codegen::diff::Side {
            listing: old_listing,
            ir: Err("the previous document is not kept in --out"),
        },
        baseten_codegen::diff::Side {
            listing: new_listing,
            ir: new_ir.as_ref().map_err(String::as_str),
        },
    )
}

/// A file's text; `None` when there is no such file.
fn read_if_present(path: &Path) -> Result<Option<String>> {
    match fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error).with_context(|| format!("reading {}", path.display())),
    }
}

/// `to` relative to the directory `from`, with `/` separators, both resolved first (so symlinks
/// and `..` do not confuse the count).
pub fn relative_path(from: &Path, to: &Path) -> Result<String> {
    let from = fs::canonicalize(from).with_context(|| format!("resolving {}", from.display()))?;
    let to = fs::canonicalize(to).with_context(|| format!("resolving {}", to.display()))?;
    let from: Vec<_> = from.components().collect();
    let to: Vec<_> = to.components().collect();
    let shared = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_owned(); from.len() - shared];
    parts.extend(
        to[shared..]
            .iter()
            .map(|part| part.as_os_str().to_string_lossy().into_owned()),
    );
    Ok(if parts.is_empty() {
        ".".to_owned()
    } else {
        parts.join("/")
    })
}

/// Prints the API change report from one document to another: of the crates `config` selects
/// from each (all operations without one). `strict` (`--strict`, whatever the config says) makes
/// a selected operation the new document lacks an error rather than a removal.
pub fn diff(old: &Path, new: &Path, config: Option<&Path>, strict: bool) -> Result<()> {
    let read = |path: &Path| {
        fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
    };
    let (old_text, new_text) = (read(old)?, read(new)?);
    let config = config.map(read).transpose()?;
    let config = config.as_deref();
    let report = documents_report(&old_text, config, None, &new_text, config, strict)?;
    print!("{report}");
    Ok(())
}

/// One side of a change report: the crate's API listing and the IR it was generated from
/// (`Err`: why there is none, which the report states).
pub struct Generation {
    pub listing: String,
    pub ir: Result<baseten_codegen::ir::Api, String>,
    /// The names it gave, for the next generation to keep.
    pub names: baseten_codegen::NameLock,
}

impl Generation {
    /// The generation of `text` as `regen` runs it, keeping `lock`'s names; strict only when
    /// `strict` says so, whatever the config says (a report names what it cannot represent).
    pub fn of(
        text: &str,
        config: Option<&str>,
        lock: baseten_codegen::NameLock,
        which: &str,
        strict: bool,
    ) -> Result<Generation> {
        let input = baseten_codegen::Input {
            spec_path: which,
            spec_text: text,
            config_text: config,
        };
        let mut config = parse_config(config, false)?;
        config.strict = strict;
        config.names_lock = lock;
        let context = || format!("generating from the {which} document");
        let output = baseten_codegen::generate_with(&input, &config).with_context(context)?;
        let (api, _) = baseten_codegen::build_ir_with(&input, &config).with_context(context)?;
        Ok(Generation {
            listing: output.api_snapshot,
            ir: Ok(api),
            names: output.names,
        })
    }
}

/// The one change report, of `cargo xtask diff` and of `regen`: a diff of the two listings,
/// annotated from the IRs ([`baseten_codegen::diff::changes`]).
pub fn report(old: &Generation, new: &Generation) -> baseten_codegen::diff::ChangeReport {
    fn side(generation: &Generation) -> baseten_codegen::diff::Side<'_> {
        baseten_codegen::diff::Side {
            listing: &generation.listing,
            ir: generation.ir.as_ref().map_err(String::as_str),
        }
    }
    baseten_codegen::diff::changes(side(old), side(new))
}

/// The report between two documents, the new one generated as `regen` would: keeping the
/// names the old generation gave (which itself kept `old_lock`'s). A document that does not
/// generate is an error.
pub fn documents_report(
    old: &str,
    old_config: Option<&str>,
    old_lock: Option<&str>,
    new: &str,
    new_config: Option<&str>,
    strict: bool,
) -> Result<baseten_codegen::diff::ChangeReport> {
    let old_lock = match old_lock {
        Some(text) => {
            baseten_codegen::NameLock::parse(text).context("reading the old names lock")?
        }
        None => baseten_codegen::NameLock::default(),
    };
    let old = Generation::of(old, old_config, old_lock, "old", strict)?;
    let new = Generation::of(new, new_config, old.names.clone(), "new", strict)?;
    Ok(report(&old, &new))
}

/// The names lock at `path`; none (a first generation) when there is no file.
fn read_lock(path: &Path) -> Result<baseten_codegen::NameLock> {
    match fs::read_to_string(path) {
        Ok(text) => baseten_codegen::NameLock::parse(&text)
            .with_context(|| format!("reading {}", path.display())),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            Ok(baseten_codegen::NameLock::default())
        }
        Err(error) => Err(error).with_context(|| format!("reading {}", path.display())),
    }
}

/// A file as the last commit holds it (`git show HEAD:…`); `None` outside a git checkout or
/// when the commit has no such file.
fn committed(root: &Path, path: &str) -> Option<String> {
    std::process::Command::new("git")
        .current_dir(root)
        .args(["show", &format!("HEAD:{path}")])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| String::from_utf8_lossy(&output.stdout).into_owned())
}

/// What the last commit holds of one generation: its listing, document, config and lock.
pub struct Committed {
    pub listing: Option<String>,
    pub spec: Option<String>,
    pub config: Option<String>,
    pub lock: Option<String>,
}

impl Committed {
    fn read(root: &Path) -> Committed {
        let committed = |path: &str| committed(root, path);
        Committed {
            listing: committed(&format!("{OUT_DIR}/{}", baseten_codegen::API_SNAPSHOT)),
            spec: committed(SPEC),
            config: committed(CONFIG),
            lock: committed(&format!("{OUT_DIR}/{}", baseten_codegen::lock::LOCK_FILE)),
        }
    }

    /// The old side of `regen`'s report: the committed listing (what the committed generator
    /// wrote, so a change of the generator shows too) and the IR of the committed document.
    /// `None` without a committed listing; an IR that cannot be built is the side's note.
    pub fn generation(&self, strict: bool) -> Option<Generation> {
        let listing = self.listing.clone()?;
        let ir = (|| -> Result<baseten_codegen::ir::Api> {
            let spec = self
                .spec
                .as_deref()
                .context("no document in the last commit")?;
            let lock = match &self.lock {
                Some(text) => baseten_codegen::NameLock::parse(text)
                    .context("reading the committed names lock")?,
                None => baseten_codegen::NameLock::default(),
            };
            let generation = Generation::of(spec, self.config.as_deref(), lock, "old", strict)?;
            generation.ir.map_err(anyhow::Error::msg)
        })();
        Some(Generation {
            listing,
            ir: ir.map_err(|error| format!("{error:#}")),
            names: baseten_codegen::NameLock::default(),
        })
    }
}

/// After a regen that changed something: what it changed in the API against the last commit,
/// whatever changed it (the document, the config or the generator itself), as text to print.
/// Outside a git checkout, or without a committed listing, it says there is nothing to compare
/// with. Not strict, whatever `regen` was: a report names what the generator cannot represent.
fn changes_since_commit(root: &Path, files: &BTreeMap<String, String>) -> String {
    let Some(old) = Committed::read(root).generation(false) else {
        return format!(
            "note: no API change report: no committed {OUT_DIR}/{}\n",
            baseten_codegen::API_SNAPSHOT
        );
    };
    match fresh_generation(root, files, false) {
        Ok(new) => format!("API changes since the last commit: {}", report(&old, &new)),
        Err(error) => format!("note: no API change report: {error:#}\n"),
    }
}

/// The new side of `regen`'s report: the listing it just wrote, and the IR of the document
/// with the lock it was generated with.
fn fresh_generation(
    root: &Path,
    files: &BTreeMap<String, String>,
    strict: bool,
) -> Result<Generation> {
    let listing = files
        .get(baseten_codegen::API_SNAPSHOT)
        .context("the generator wrote no API listing")?
        .clone();
    let spec = fs::read_to_string(root.join(SPEC)).with_context(|| format!("reading {SPEC}"))?;
    let config = fs::read_to_string(root.join(CONFIG)).ok();
    let lock = read_lock(&root.join(OUT_DIR).join(baseten_codegen::lock::LOCK_FILE))?;
    let ir = Generation::of(&spec, config.as_deref(), lock, "new", strict)
        .and_then(|generation| generation.ir.map_err(anyhow::Error::msg))
        .map_err(|error| format!("{error:#}"));
    Ok(Generation {
        listing,
        ir,
        names: baseten_codegen::NameLock::default(),
    })
}

/// The workspace this xtask runs in, found at run time (after rust-analyzer's xtask): the
/// directory above the `CARGO_MANIFEST_DIR` cargo sets when it runs the binary, else the nearest
/// directory at or above the current one that holds `schema/` and a `Cargo.toml`. Never a path
/// baked in when the binary was compiled: a binary shared between checkouts (one
/// `CARGO_TARGET_DIR`) must still check the checkout it is run in.
pub fn workspace_root() -> Result<PathBuf> {
    if let Some(manifest_dir) = std::env::var_os("CARGO_MANIFEST_DIR") {
        let manifest_dir = PathBuf::from(manifest_dir);
        if let Some(root) = manifest_dir.parent().filter(|root| is_workspace_root(root)) {
            return Ok(root.to_path_buf());
        }
    }
    let current = std::env::current_dir().context("reading the current directory")?;
    current
        .ancestors()
        .find(|dir| is_workspace_root(dir))
        .map(Path::to_path_buf)
        .with_context(|| {
            format!(
                "no workspace at or above {} (looking for Cargo.toml beside {SPEC})",
                current.display()
            )
        })
}

fn is_workspace_root(dir: &Path) -> bool {
    dir.join("Cargo.toml").is_file() && dir.join(SPEC).is_file()
}

/// The generator config from its text (none: the defaults), made strict when `strict` is set
/// (`--strict`); a config's own `strict: true` stays.
pub fn parse_config(text: Option<&str>, strict: bool) -> Result<baseten_codegen::Config> {
    let mut config = match text {
        Some(text) => {
            baseten_codegen::Config::parse(text).context("reading the generator config")?
        }
        None => baseten_codegen::Config::default(),
    };
    config.strict |= strict;
    Ok(config)
}

/// The generated crate's manifest, whose `[features]` table holds the generator's lines
/// between [`FEATURES_BEGIN`] and [`FEATURES_END`].
pub const MANIFEST: &str = "generated/Cargo.toml";
pub const FEATURES_BEGIN: &str = "# @generated begin: the API areas, written by `cargo xtask regen` from schema/. Do not edit.\n";
pub const FEATURES_END: &str = "# @generated end\n";

/// [`MANIFEST`] with `features` between its markers; `None` when the tree has no such crate (a
/// scratch copy holding only `schema/` and the emitted files).
pub fn manifest_with_features(root: &Path, features: &str) -> Result<Option<String>> {
    let path = root.join(MANIFEST);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text.replace("\r\n", "\n"),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error).with_context(|| format!("reading {MANIFEST}")),
    };
    let Some(begin) = text.find(FEATURES_BEGIN) else {
        bail!(
            "{MANIFEST} has no `{}` line in its [features] table for the generator's features",
            FEATURES_BEGIN.trim_end()
        );
    };
    let start = begin + FEATURES_BEGIN.len();
    let Some(end) = text[start..].find(FEATURES_END).map(|at| start + at) else {
        bail!(
            "{MANIFEST} has no `{}` line after its begin line",
            FEATURES_END.trim_end()
        );
    };
    Ok(Some(format!(
        "{}{features}{}",
        &text[..start],
        &text[end..]
    )))
}

/// What the generator makes of `schema/`.
pub struct Generated {
    /// The files of [`OUT_DIR`], by name.
    pub files: BTreeMap<String, String>,
    /// The generated crate's feature lines (see [`manifest_with_features`]).
    pub cargo_features: String,
}

/// Runs the generator on `schema/`; prints its notes; returns what it emitted.
pub fn generate(root: &Path, strict: bool) -> Result<Generated> {
    let spec_text =
        fs::read_to_string(root.join(SPEC)).with_context(|| format!("reading {SPEC}"))?;
    let config_text = match fs::read_to_string(root.join(CONFIG)) {
        Ok(text) => Some(text),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => return Err(error).with_context(|| format!("reading {CONFIG}")),
    };
    let input = baseten_codegen::Input {
        spec_path: SPEC,
        spec_text: &spec_text,
        config_text: config_text.as_deref(),
    };
    let mut config = parse_config(config_text.as_deref(), strict)?;
    let lock_file = baseten_codegen::lock::LOCK_FILE;
    config.names_lock = read_lock(&root.join(OUT_DIR).join(lock_file))?;
    let output = baseten_codegen::generate_with(&input, &config)
        .with_context(|| format!("generating from {SPEC}"))?;
    for note in &output.notes {
        eprintln!("note: {SPEC}{}", note.to_string().trim_start_matches('#'));
    }
    let mut files = output.files;
    let root = baseten_codegen::modules_file(
        &format!("cargo xtask regen from {SPEC}"),
        &output.extension_modules,
    );
    files.insert(lock_file.to_owned(), output.names.to_text());
    files.insert(
        baseten_codegen::API_SNAPSHOT.to_owned(),
        output.api_snapshot,
    );
    files.insert("mod.rs".to_owned(), root);
    Ok(Generated {
        files,
        cargo_features: output.cargo_features,
    })
}

/// Makes `dir` hold exactly `files`: writes what differs and deletes what should not be there
/// (in check mode, only reports it with a diff). Returns the names that were or are stale.
pub fn sync_dir(
    root: &Path,
    out_dir: &str,
    files: &BTreeMap<String, String>,
    mode: Mode,
) -> Result<Vec<String>> {
    let dir = root.join(out_dir);
    let mut stale = Vec::new();
    for (name, contents) in files {
        if ensure_file_contents(mode, root, &format!("{out_dir}/{name}"), contents)? {
            stale.push(name.clone());
        }
    }
    let existing = match fs::read_dir(&dir) {
        Ok(entries) => entries
            .collect::<std::io::Result<Vec<_>>>()
            .with_context(|| format!("listing {}", dir.display()))?,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(error) => return Err(error).with_context(|| format!("listing {}", dir.display())),
    };
    let mut extra: Vec<PathBuf> = existing
        .iter()
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_none_or(|name| !files.contains_key(name))
        })
        .collect();
    extra.sort();
    for path in extra {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match mode {
            Mode::Check => {
                eprintln!("{out_dir}/{name} should not exist: the generator does not emit it")
            }
            Mode::Overwrite => {
                if path.is_dir() {
                    fs::remove_dir_all(&path)
                } else {
                    fs::remove_file(&path)
                }
                .with_context(|| format!("removing {}", path.display()))?;
            }
        }
        stale.push(name);
    }
    Ok(stale)
}

/// The one writer for every output (after rust-analyzer's): returns whether the file was stale.
/// Line endings are normalised before comparing, so a CRLF checkout is not drift.
pub fn ensure_file_contents(
    mode: Mode,
    root: &Path,
    relative: &str,
    contents: &str,
) -> Result<bool> {
    let path = &root.join(relative);
    let current = match fs::read(path) {
        Ok(bytes) => Some(String::from_utf8_lossy(&bytes).replace("\r\n", "\n")),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => return Err(error).with_context(|| format!("reading {}", path.display())),
    };
    if current.as_deref() == Some(contents) {
        return Ok(false);
    }
    match mode {
        Mode::Check => {
            let old = current.as_deref().unwrap_or_default();
            let diff = similar::TextDiff::from_lines(old, contents);
            let header = diff
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{relative}"), &format!("b/{relative}"))
                .to_string();
            eprintln!("{header}");
        }
        Mode::Overwrite => {
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent)
                    .with_context(|| format!("creating {}", parent.display()))?;
            }
            fs::write(path, contents).with_context(|| format!("writing {}", path.display()))?;
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed output matches what the generator makes of the committed schema.
    #[test]
    fn generated_code_is_fresh() {
        let root = workspace_root().expect("the workspace is found");
        let generated = generate(&root, false).expect("generation succeeds");
        let manifest = manifest_with_features(&root, &generated.cargo_features)
            .expect("the manifest has its markers")
            .expect("the workspace has the generated crate");
        assert!(
            !ensure_file_contents(Mode::Check, &root, MANIFEST, &manifest).expect("check runs"),
            "{MANIFEST}'s features are stale; {FIX}"
        );
        let stale = sync_dir(&root, OUT_DIR, &generated.files, Mode::Check).expect("check runs");
        assert!(
            stale.is_empty(),
            "{OUT_DIR} is stale ({}); {FIX}",
            stale.join(", ")
        );
    }

    /// `regen` writes one listing of the generated crate, the generator's, among its emitted
    /// files; the hand-written listings it keeps are of other crates.
    #[test]
    fn regen_writes_one_listing_of_the_generated_crate() {
        let root = workspace_root().expect("the workspace is found");
        let generated = generate(&root, false).expect("generation succeeds");
        assert!(generated.files.contains_key(baseten_codegen::API_SNAPSHOT));
        let listed: Vec<&str> = public_api_listings(&root)
            .expect("the hand-written crates are listed")
            .into_iter()
            .map(|(dir, _)| dir)
            .collect();
        assert_eq!(listed, ["codegen/runtime"]);
        assert!(!MANIFEST.starts_with(listed[0]));
    }

    /// `cargo xtask diff` and `regen` share one report: for the same pair of documents, what
    /// regen reports (the committed listing and document against the fresh generation, read
    /// as regen reads them) is what diff prints.
    #[test]
    fn diff_and_regen_report_a_pair_alike() {
        let root = workspace_root().expect("the workspace is found");
        let fixture = root.join("tests/fixtures/probe/type-rename");
        let read = |name: &str| fs::read_to_string(fixture.join(name)).expect("the fixture");
        let (old, new) = (read("old.yaml"), read("new.yaml"));
        let printed = documents_report(&old, None, None, &new, None, false)
            .expect("both generate")
            .to_string();
        // The old generation as committed, the new one as regen writes it.
        let committed = Generation::of(
            &old,
            None,
            baseten_codegen::NameLock::default(),
            "old",
            false,
        )
        .expect("the old document generates");
        let fresh = Generation::of(&new, None, committed.names.clone(), "new", false)
            .expect("the new document generates");
        let scratch = scratch_manifest("report", None);
        fs::create_dir_all(scratch.join("schema")).expect("schema/");
        fs::write(scratch.join(SPEC), &new).expect("the document is written");
        let lock = scratch.join(OUT_DIR).join(baseten_codegen::lock::LOCK_FILE);
        fs::create_dir_all(lock.parent().expect("a parent")).expect("the output directory");
        fs::write(&lock, fresh.names.to_text()).expect("the lock is written");
        let files = BTreeMap::from([(baseten_codegen::API_SNAPSHOT.to_owned(), fresh.listing)]);
        let old_side = Committed {
            listing: Some(committed.listing),
            spec: Some(old),
            config: None,
            lock: None,
        }
        .generation(false)
        .expect("a committed listing");
        let new_side = fresh_generation(&scratch, &files, false).expect("the fresh side");
        assert_eq!(report(&old_side, &new_side).to_string(), printed);
        assert!(printed.contains("renamed to"), "{printed}");
        assert!(!printed.contains("note:"), "{printed}");
        // Without a committed document the report says so, rather than leaving renames out.
        let no_document = Committed {
            listing: Some(String::new()),
            spec: None,
            config: None,
            lock: None,
        }
        .generation(false)
        .expect("a committed listing");
        let text = report(&no_document, &new_side).to_string();
        assert!(
            text.starts_with("note: no IR for the old side (no document in the last commit)"),
            "{text}"
        );
        let nothing = Committed {
            listing: None,
            spec: None,
            config: None,
            lock: None,
        };
        assert!(nothing.generation(false).is_none());
    }

    /// Outside a git checkout regen says it has nothing to compare with; `diff` of a document
    /// that does not generate, or is not there, is an error: never a report with a gap.
    #[test]
    fn a_report_without_a_side_says_so() {
        let scratch = std::env::temp_dir().join(format!("xtask-{}-nogit", std::process::id()));
        let _ = fs::remove_dir_all(&scratch);
        fs::create_dir_all(&scratch).expect("a scratch directory");
        assert_eq!(
            changes_since_commit(&scratch, &BTreeMap::new()),
            format!(
                "note: no API change report: no committed {OUT_DIR}/{}\n",
                baseten_codegen::API_SNAPSHOT
            )
        );
        let missing = scratch.join("missing.yaml");
        assert!(diff(&missing, &missing, None, false).is_err());
        let broken = scratch.join("broken.yaml");
        fs::write(&broken, "openapi: 3.1.0\npaths: [").expect("written");
        let root = workspace_root().expect("the workspace is found");
        let fixture = root.join("tests/fixtures/probe/type-rename/old.yaml");
        let error = diff(&fixture, &broken, None, false).expect_err("the new side fails");
        assert!(
            format!("{error:#}").contains("the new document"),
            "{error:#}"
        );
        assert!(diff(&fixture, &fixture, None, false).is_ok());
    }

    /// A directory of this test's own under the system's temporary one (the xtask has no
    /// tempfile dependency), holding `generated/Cargo.toml` when `text` is given.
    fn scratch_manifest(name: &str, text: Option<&str>) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("generated")).expect("generated/");
        if let Some(text) = text {
            fs::write(dir.join(MANIFEST), text).expect("the manifest is written");
        }
        dir
    }

    #[test]
    fn the_features_go_between_the_markers_and_nowhere_else() {
        let text = format!(
            "[package]\r\n[features]\r\nclient = []\r\n{FEATURES_BEGIN}old = []\n{FEATURES_END}\n[dependencies]\n"
        );
        let dir = scratch_manifest("between", Some(&text));
        let manifest = manifest_with_features(&dir, "full = []\nnew = []\n")
            .expect("markers found")
            .expect("a manifest");
        assert_eq!(
            manifest,
            format!(
                "[package]\n[features]\nclient = []\n{FEATURES_BEGIN}full = []\nnew = []\n{FEATURES_END}\n[dependencies]\n"
            )
        );
        let nowhere = scratch_manifest("nowhere", None);
        assert!(
            manifest_with_features(&nowhere, "")
                .expect("no manifest is no error")
                .is_none()
        );
    }

    #[test]
    fn a_manifest_without_its_markers_is_an_error() {
        let dir = scratch_manifest("unmarked", Some("[features]\nclient = []\n"));
        let error = manifest_with_features(&dir, "").expect_err("no markers");
        assert!(
            error.to_string().contains("has no `# @generated begin"),
            "{error}"
        );
        let reversed =
            scratch_manifest("reversed", Some(&format!("{FEATURES_END}{FEATURES_BEGIN}")));
        let error = manifest_with_features(&reversed, "").expect_err("reversed markers");
        assert!(
            error.to_string().contains("after its begin line"),
            "{error}"
        );
        let unended = scratch_manifest("unended", Some(FEATURES_BEGIN));
        let error = manifest_with_features(&unended, "").expect_err("no end marker");
        assert!(
            error.to_string().contains("after its begin line"),
            "{error}"
        );
        // A manifest that cannot be read is an error, not a tree without the crate.
        let unreadable = scratch_manifest("unreadable", None);
        fs::create_dir_all(unreadable.join(MANIFEST)).expect("a directory in its place");
        assert!(manifest_with_features(&unreadable, "").is_err());
    }
}
