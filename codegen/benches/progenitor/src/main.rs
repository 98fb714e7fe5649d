//! Compares our generator with progenitor on one OpenAPI 3.1 document: generation wall time,
//! lines emitted, and the `cargo check` time of each output as a standalone crate.
//!
//! From the repository root:
//!
//! ```text
//! CARGO_TARGET_DIR=target cargo run --release --manifest-path codegen/benches/progenitor/Cargo.toml -- ../shared/specs/baseten-management-2026-08-22.json
//! ```
//!
//! Options after the document: `--runs N` (generation runs per generator, default 10) and
//! `--check-runs N` (timed `cargo check` runs per output, default 3). The table is printed and
//! written to `$CARGO_TARGET_DIR/bench-vs-progenitor.md`.
//!
//! Progenitor only reads OpenAPI 3.0 and needs an `operationId` on every operation, so it is fed
//! our own lowering of the document (3.1 → the `openapiv3` model) with each operation named as
//! our generator names its method; both generators therefore see the same operations and names.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context, Result, bail};
use baseten_codegen::{CrateSettings, Input};
use openapiv3::{OpenAPI, ReferenceOr};
use progenitor_impl::{GenerationSettings, Generator};
use serde_json::Value;

/// Our generation time over progenitor's must be at most this.
const GENERATION_TARGET: f64 = 0.5;
/// Our output's `cargo check` time over progenitor's must be at most this.
const CHECK_TARGET: f64 = 0.8;

fn main() -> Result<()> {
    let args = Args::parse()?;
    let spec_text = fs::read_to_string(&args.spec)
        .with_context(|| format!("reading the document {}", args.spec))?;
    let target_dir = target_dir()?;
    let input = Input {
        spec_path: &args.spec,
        spec_text: &spec_text,
        config_text: None,
    };

    // Ours, from the raw 3.1 text, so parsing and lowering are inside the figure.
    let (ours_timing, ours_output) = time_runs(args.runs, || {
        baseten_codegen::generate(&input).context("our generator failed")
    })?;
    let ours_lines: usize = ours_output
        .files
        .values()
        .map(|text| text.lines().count())
        .sum();

    let prepared = progenitor_input(&input)?;
    // Progenitor's runs start from the prepared 3.0 JSON text, so deserialising it is inside
    // the figure just as parsing is inside ours.
    let progenitor = time_runs(args.runs, || generate_progenitor(&prepared.json));

    println!("document: {}", args.spec);
    println!(
        "generation runs: {} each; timed cargo check runs: {} each",
        args.runs, args.check_runs
    );
    println!(
        "progenitor input: {} operations named from our IR; {}",
        prepared.named_operations, prepared.rewrites
    );

    let check_root = target_dir.join("bench-check");
    let ours_check = {
        // The crate depends on the runtime, as `regen --spec … --out …` writes it (an absolute
        // path here: the scratch directory is outside the repository).
        let runtime_path = repository_root()?.join("codegen/runtime");
        let runtime_path = runtime_path
            .to_str()
            .context("the runtime crate's path is not UTF-8")?;
        let spec_name = Path::new(&args.spec)
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let krate = baseten_codegen::generate_crate(
            &input,
            &CrateSettings {
                name: "bench-ours",
                runtime_path,
                spec_name: &spec_name,
                own_workspace: true,
            },
        )
        .context("generating our standalone crate")?;
        let dir = scratch_dir("ours");
        write_crate(&dir, &krate.files)?;
        // The workspace's lock, so the dependencies resolve to what it builds, offline.
        let lock = dir.join("Cargo.lock");
        if !lock.is_file() {
            fs::copy(repository_root()?.join("Cargo.lock"), &lock)
                .context("copying the workspace's Cargo.lock")?;
        }
        time_check(&dir, &check_root, args.check_runs).context("checking our output")?
    };

    let progenitor = match progenitor {
        Ok((timing, generated)) => {
            let lines = generated.code.lines().count();
            let dir = scratch_dir("progenitor");
            let mut files = BTreeMap::new();
            files.insert(
                "Cargo.toml".to_owned(),
                progenitor_cargo_toml(&generated.deps),
            );
            files.insert("src/lib.rs".to_owned(), generated.code);
            write_crate(&dir, &files)?;
            let check = time_check(&dir, &check_root, args.check_runs)
                .context("checking progenitor's output")?;
            Some(Figures {
                timing,
                lines,
                check,
            })
        }
        Err(error) => {
            println!("progenitor could not generate: {error:#}");
            None
        }
    };

    let ours = Figures {
        timing: ours_timing,
        lines: ours_lines,
        check: ours_check,
    };
    let table = table(&ours, progenitor.as_ref());
    println!();
    print!("{table}");
    let report = target_dir.join("bench-vs-progenitor.md");
    let markdown = format!(
        "# Our generator vs progenitor\n\n\
         Document: `{}`; {} generation runs each; `cargo check` after touching `src/lib.rs`, \
         median of {} runs each. Progenitor's input: our 3.0 lowering with operationIds from \
         our method names; {}.\n\n{table}",
        args.spec, args.runs, args.check_runs, prepared.rewrites
    );
    fs::write(&report, markdown).with_context(|| format!("writing {}", report.display()))?;
    println!("\nwritten to {}", report.display());
    Ok(())
}

/// Command-line arguments.
struct Args {
    spec: String,
    runs: usize,
    check_runs: usize,
}

impl Args {
    fn parse() -> Result<Self> {
        let mut spec = None;
        let mut runs = 10;
        let mut check_runs = 3;
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--runs" | "--check-runs" => {
                    let value = args
                        .next()
                        .with_context(|| format!("{arg} needs a value"))?;
                    let value: usize = value
                        .parse()
                        .with_context(|| format!("{arg} {value}: not a count"))?;
                    if value == 0 {
                        bail!("{arg} must be at least 1");
                    }
                    if arg == "--runs" {
                        runs = value;
                    } else {
                        check_runs = value;
                    }
                }
                _ if spec.is_none() && !arg.starts_with("--") => spec = Some(arg),
                _ => {
                    bail!("unexpected argument {arg}; usage: DOCUMENT [--runs N] [--check-runs N]")
                }
            }
        }
        let spec = spec.context("usage: DOCUMENT [--runs N] [--check-runs N]")?;
        Ok(Self {
            spec,
            runs,
            check_runs,
        })
    }
}

/// The repository root, found from this package's place in it (`codegen/benches/progenitor`).
fn repository_root() -> Result<PathBuf> {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = manifest_dir.join("../../..");
    root.canonicalize()
        .with_context(|| format!("resolving the repository root {}", root.display()))
}

/// `$CARGO_TARGET_DIR` as the documented command sets it (relative to where it was run), else
/// the repository's `target`.
fn target_dir() -> Result<PathBuf> {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                Ok(dir)
            } else {
                Ok(std::env::current_dir()
                    .context("reading the current directory")?
                    .join(dir))
            }
        }
        None => Ok(repository_root()?.join("target")),
    }
}

/// Where a generated crate's sources go. A fixed path per output, so its `Cargo.lock` survives
/// from run to run and the dependencies resolve to what the check directory already built.
fn scratch_dir(name: &str) -> PathBuf {
    std::env::temp_dir().join("bench-vs-progenitor").join(name)
}

/// Minimum and median wall time of a set of runs.
#[derive(Debug, Clone, Copy)]
struct Timing {
    min: Duration,
    median: Duration,
}

impl Timing {
    fn of(mut samples: Vec<Duration>) -> Self {
        samples.sort();
        let middle = samples.len() / 2;
        let median = if samples.len().is_multiple_of(2) {
            (samples[middle - 1] + samples[middle]) / 2
        } else {
            samples[middle]
        };
        Self {
            min: samples[0],
            median,
        }
    }
}

/// Runs `run` `runs` times (at least once), returning the timing and the last result.
fn time_runs<T>(runs: usize, mut run: impl FnMut() -> Result<T>) -> Result<(Timing, T)> {
    let mut samples = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let output = run()?;
        samples.push(start.elapsed());
        last = Some(output);
    }
    let last = last.context("no runs")?;
    Ok((Timing::of(samples), last))
}

/// Progenitor's input: our lowered document as JSON, with what it took to get there.
struct Prepared {
    json: String,
    named_operations: usize,
    rewrites: Rewrites,
}

/// Lowers the document as our generator does and names every operation after our method for
/// it, then applies the rewrites progenitor needs (see [`rewrite_for_progenitor`]).
fn progenitor_input(input: &Input<'_>) -> Result<Prepared> {
    let document =
        baseten_codegen::load::parse_document(input.spec_text).context("parsing the document")?;
    let mut openapi: OpenAPI = baseten_codegen::lower::lower(document)
        .context("lowering the document")?
        .openapi;
    let (api, _notes) = baseten_codegen::build_ir(input).context("building our IR")?;
    let names: BTreeMap<(String, &str), &str> = api
        .operations
        .iter()
        .map(|operation| {
            (
                (
                    operation.method.to_ascii_lowercase(),
                    operation.path.as_str(),
                ),
                operation.name.as_str(),
            )
        })
        .collect();

    let mut named_operations = 0;
    let mut unnamed = Vec::new();
    for (path, item) in openapi.paths.paths.iter_mut() {
        let ReferenceOr::Item(item) = item else {
            bail!("path {path} is a $ref, which the lowering should have resolved");
        };
        let methods = [
            ("get", &mut item.get),
            ("put", &mut item.put),
            ("post", &mut item.post),
            ("delete", &mut item.delete),
            ("options", &mut item.options),
            ("head", &mut item.head),
            ("patch", &mut item.patch),
            ("trace", &mut item.trace),
        ];
        for (method, operation) in methods {
            let Some(operation) = operation else { continue };
            match names.get(&(method.to_owned(), path.as_str())) {
                Some(name) => {
                    operation.operation_id = Some((*name).to_owned());
                    named_operations += 1;
                }
                None => unnamed.push(format!("{} {path}", method.to_ascii_uppercase())),
            }
        }
    }
    if !unnamed.is_empty() {
        bail!(
            "operations our IR does not name, so progenitor would see different ones: {}",
            unnamed.join(", ")
        );
    }

    let mut value = serde_json::to_value(&openapi).context("serialising the lowered document")?;
    let rewrites = rewrite_for_progenitor(&mut value);
    let json = serde_json::to_string(&value).context("serialising progenitor's input")?;
    Ok(Prepared {
        json,
        named_operations,
        rewrites,
    })
}

/// The smallest changes that let progenitor generate, and its output compile, from the lowered
/// document; returns how many were made. Each is one of:
///
/// 1. [`drop_enum_defaults`]: `default` dropped from a one-value `enum` holding that value.
/// 2. [`rename_shadowed_components`]: a component renamed to its own `title` when its key is
///    also the `title` of another schema.
fn rewrite_for_progenitor(document: &mut Value) -> Rewrites {
    Rewrites {
        enum_defaults: drop_enum_defaults(document),
        renamed: rename_shadowed_components(document),
    }
}

/// What [`rewrite_for_progenitor`] changed.
struct Rewrites {
    enum_defaults: usize,
    /// Old and new key of each renamed component.
    renamed: BTreeMap<String, String>,
}

impl std::fmt::Display for Rewrites {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} rewrites ({} one-value enum defaults dropped, {} component renames",
            self.enum_defaults + self.renamed.len(),
            self.enum_defaults,
            self.renamed.len()
        )?;
        for (old, new) in &self.renamed {
            write!(f, "; {old} → {new}")?;
        }
        f.write_str(")")
    }
}

/// Drops `default` from every schema whose `enum` holds exactly that one value; returns how many.
///
/// These come from 3.1 `const` tags with a matching default (`kind: model_archive`, the `type`
/// of each deployment patch op, ...), which our lowering turns into one-value enums. typify 0.8
/// rejects such a default with "value does not conform to the given schema" and aborts the
/// whole generation. The default says nothing the enum does not, so only an optional tag
/// property loses its fill-in value.
fn drop_enum_defaults(value: &mut Value) -> usize {
    match value {
        Value::Object(object) => {
            let only_value = match object.get("enum") {
                Some(Value::Array(values)) if values.len() == 1 => values.first(),
                _ => None,
            };
            let dropped = if only_value.is_some() && only_value == object.get("default") {
                object.remove("default");
                1
            } else {
                0
            };
            dropped + object.values_mut().map(drop_enum_defaults).sum::<usize>()
        }
        Value::Array(values) => values.iter_mut().map(drop_enum_defaults).sum(),
        _ => 0,
    }
}

const SCHEMA_REF_PREFIX: &str = "#/components/schemas/";

/// Renames each component whose key is also the `title` of some other schema to its own
/// `title` (when no component has that name), pointing every `$ref` at the new name; returns
/// the renames.
///
/// typify names an inline schema that needs a type of its own after its `title`. The document
/// has a component keyed `Name` (titled `LoopsDeploymentStatus`) and an inline length-limited
/// string titled `Name` (`UpdateDeploymentRequestV1.name`), so progenitor emits two
/// `types::Name` and its output does not compile.
fn rename_shadowed_components(document: &mut Value) -> BTreeMap<String, String> {
    let Some(schemas) = document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
    else {
        return BTreeMap::new();
    };
    let mut titles = Vec::new();
    for schema in schemas.values() {
        // A component's own title names that component, so only titles below it count.
        if let Value::Object(schema) = schema {
            for keyword in schema.values() {
                collect_titles(keyword, &mut titles);
            }
        }
    }
    if let Some(paths) = document.get("paths") {
        collect_titles(paths, &mut titles);
    }
    let renames: BTreeMap<String, String> = schemas
        .iter()
        .filter_map(|(key, schema)| {
            let title = schema.get("title")?.as_str()?;
            let shadowed = titles.contains(&key.as_str());
            (shadowed && title != key && !schemas.contains_key(title))
                .then(|| (key.clone(), title.to_owned()))
        })
        .collect();
    if renames.is_empty() {
        return renames;
    }

    if let Some(Value::Object(schemas)) = document.pointer_mut("/components/schemas") {
        for (old, new) in &renames {
            if let Some(schema) = schemas.remove(old) {
                schemas.insert(new.clone(), schema);
            }
        }
    }
    retarget_refs(document, &renames);
    renames
}

fn collect_titles<'a>(value: &'a Value, titles: &mut Vec<&'a str>) {
    match value {
        Value::Object(object) => {
            if let Some(Value::String(title)) = object.get("title") {
                titles.push(title);
            }
            for child in object.values() {
                collect_titles(child, titles);
            }
        }
        Value::Array(values) => {
            for child in values {
                collect_titles(child, titles);
            }
        }
        _ => {}
    }
}

fn retarget_refs(value: &mut Value, renames: &BTreeMap<String, String>) {
    match value {
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get_mut("$ref")
                && let Some(name) = reference.strip_prefix(SCHEMA_REF_PREFIX)
                && let Some(new) = renames.get(name)
            {
                *reference = format!("{SCHEMA_REF_PREFIX}{new}");
            }
            for child in object.values_mut() {
                retarget_refs(child, renames);
            }
        }
        Value::Array(values) => {
            for child in values {
                retarget_refs(child, renames);
            }
        }
        _ => {}
    }
}

/// Progenitor's output and what its `Cargo.toml` must provide.
struct ProgenitorOutput {
    code: String,
    deps: Vec<String>,
}

/// One progenitor generation, from the JSON text to formatted source — formatted with the same
/// `syn` + `prettyplease` our generator uses, since ours formats too.
fn generate_progenitor(json: &str) -> Result<ProgenitorOutput> {
    let spec: OpenAPI = serde_json::from_str(json).context("deserialising progenitor's input")?;
    let mut generator = Generator::new(&GenerationSettings::default());
    let tokens = generator
        .generate_tokens(&spec)
        .context("progenitor's generate_tokens")?;
    let file = syn::parse2::<syn::File>(tokens).context("parsing progenitor's tokens")?;
    let code = prettyplease::unparse(&file);
    Ok(ProgenitorOutput {
        code,
        deps: progenitor_deps(&generator),
    })
}

/// The dependencies progenitor's output uses, as `cargo progenitor` 0.15 lists them for a crate
/// that depends on `progenitor-client` (rather than inlining it).
fn progenitor_deps(generator: &Generator) -> Vec<String> {
    let mut deps = vec![
        r#"bytes = "1.9""#.to_owned(),
        r#"futures-core = "0.3""#.to_owned(),
        r#"progenitor-client = "0.15""#.to_owned(),
        r#"reqwest = { version = "0.13", default-features = false, features = ["json", "query", "stream"] }"#.to_owned(),
        r#"serde = { version = "1.0", features = ["derive"] }"#.to_owned(),
        r#"serde_urlencoded = "0.7""#.to_owned(),
    ];
    let types = generator.get_type_space();
    if types.uses_regress() {
        deps.push(r#"regress = "0.10""#.to_owned());
    }
    if types.uses_uuid() {
        deps.push(r#"uuid = { version = "1.0", features = ["serde", "v4"] }"#.to_owned());
    }
    if types.uses_chrono() {
        deps.push(
            r#"chrono = { version = "0.4", default-features = false, features = ["serde"] }"#
                .to_owned(),
        );
    }
    if generator.uses_futures() {
        deps.push(r#"futures = "0.3""#.to_owned());
    }
    if generator.uses_websockets() {
        deps.push(r#"base64 = "0.22""#.to_owned());
        deps.push(r#"rand = "0.8""#.to_owned());
    }
    if types.uses_serde_json() {
        deps.push(r#"serde_json = "1.0""#.to_owned());
    }
    deps
}

fn progenitor_cargo_toml(deps: &[String]) -> String {
    // Edition 2021, as `cargo progenitor` writes it.
    let mut text = "[package]\n\
                    name = \"bench-progenitor\"\n\
                    version = \"0.1.0\"\n\
                    edition = \"2021\"\n\
                    publish = false\n\
                    \n\
                    [dependencies]\n"
        .to_owned();
    for dep in deps {
        text.push_str(dep);
        text.push('\n');
    }
    text.push_str("\n# Standalone: not a member of any enclosing workspace.\n[workspace]\n");
    text
}

/// Replaces the crate's sources (keeping its `Cargo.lock`) with `files`.
fn write_crate(dir: &Path, files: &BTreeMap<String, String>) -> Result<()> {
    let src = dir.join("src");
    if src.exists() {
        fs::remove_dir_all(&src).with_context(|| format!("clearing {}", src.display()))?;
    }
    for (name, contents) in files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        }
        fs::write(&path, contents).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// Warms the check directory with one `cargo check` (dependencies included), then times
/// `runs` checks that each follow a touch of `src/lib.rs`, so only the generated crate is
/// checked again. Returns the median wall time.
fn time_check(dir: &Path, target_dir: &Path, runs: usize) -> Result<Duration> {
    cargo_check(dir, target_dir).context("warming up")?;
    let lib = dir.join("src/lib.rs");
    let mut samples = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        fs::File::options()
            .write(true)
            .open(&lib)
            .and_then(|file| file.set_modified(SystemTime::now()))
            .with_context(|| format!("touching {}", lib.display()))?;
        let start = Instant::now();
        cargo_check(dir, target_dir)?;
        samples.push(start.elapsed());
    }
    Ok(Timing::of(samples).median)
}

fn cargo_check(dir: &Path, target_dir: &Path) -> Result<()> {
    // The cargo that runs this binary, so both checks use the same toolchain.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["check", "--quiet", "--message-format", "short"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir)
        .output()
        .with_context(|| format!("running cargo check in {}", dir.display()))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(40).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        bail!(
            "cargo check in {} failed ({}):\n{}",
            dir.display(),
            output.status,
            tail.join("\n")
        );
    }
    Ok(())
}

/// One generator's figures.
struct Figures {
    timing: Timing,
    lines: usize,
    check: Duration,
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// The comparison as a Markdown table; progenitor's columns read `n/a` if it could not generate.
fn table(ours: &Figures, progenitor: Option<&Figures>) -> String {
    let ratio = |ours: f64, theirs: f64| ours / theirs;
    let verdict = |ratio: f64, target: f64| {
        if ratio <= target {
            format!("≤ {target}×: met")
        } else {
            format!("≤ {target}×: not met")
        }
    };
    let mut rows: Vec<[String; 5]> = Vec::new();
    let mut row =
        |metric: &str, ours: String, theirs: Option<String>, ratio: Option<f64>, target: String| {
            rows.push([
                metric.to_owned(),
                ours,
                theirs.unwrap_or_else(|| "n/a".to_owned()),
                ratio.map_or_else(|| "n/a".to_owned(), |ratio| format!("{ratio:.2}×")),
                target,
            ]);
        };

    let generation_median =
        progenitor.map(|theirs| ratio(millis(ours.timing.median), millis(theirs.timing.median)));
    let check =
        progenitor.map(|theirs| ratio(ours.check.as_secs_f64(), theirs.check.as_secs_f64()));
    row(
        "generation, min (ms)",
        format!("{:.1}", millis(ours.timing.min)),
        progenitor.map(|theirs| format!("{:.1}", millis(theirs.timing.min))),
        progenitor.map(|theirs| ratio(millis(ours.timing.min), millis(theirs.timing.min))),
        String::new(),
    );
    row(
        "generation, median (ms)",
        format!("{:.1}", millis(ours.timing.median)),
        progenitor.map(|theirs| format!("{:.1}", millis(theirs.timing.median))),
        generation_median,
        generation_median.map_or_else(
            || format!("≤ {GENERATION_TARGET}×: n/a"),
            |ratio| verdict(ratio, GENERATION_TARGET),
        ),
    );
    row(
        "lines emitted",
        ours.lines.to_string(),
        progenitor.map(|theirs| theirs.lines.to_string()),
        progenitor.map(|theirs| ratio(ours.lines as f64, theirs.lines as f64)),
        String::new(),
    );
    row(
        "cargo check after touch (s)",
        format!("{:.2}", ours.check.as_secs_f64()),
        progenitor.map(|theirs| format!("{:.2}", theirs.check.as_secs_f64())),
        check,
        check.map_or_else(
            || format!("≤ {CHECK_TARGET}×: n/a"),
            |ratio| verdict(ratio, CHECK_TARGET),
        ),
    );

    let header = ["", "ours", "progenitor", "ours/progenitor", "target"];
    let mut widths = header.map(|cell| cell.chars().count());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut text = String::new();
    let mut line = |cells: &[String]| {
        text.push('|');
        for (cell, width) in cells.iter().zip(widths) {
            let padding = width - cell.chars().count();
            let _ = write!(text, " {cell}{} |", " ".repeat(padding));
        }
        text.push('\n');
    };
    line(&header.map(str::to_owned));
    line(&widths.map(|width| "-".repeat(width)));
    for row in &rows {
        line(row);
    }
    text
}
