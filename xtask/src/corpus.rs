//! `corpus DIR`: generate every OpenAPI document in a directory as a crate, all of them members of
//! one workspace sharing one target directory, `cargo check` them in one run, and print a table
//! (document / generated / left out / notes / compiled / warnings / time). Not part of CI: it
//! measures how far the generator gets on real-world documents (see `codegen/CORPUS.md`).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use baseten_codegen::ir::values::{ValuePlace, ValueReason};

use crate::regen;

/// One document's row.
struct Row {
    document: String,
    package: String,
    /// `None` when generation failed; the error text is printed below the table.
    generated: Option<Generated>,
    error: Option<String>,
    time: Duration,
    /// Operations the document declares (under `paths`).
    declared: usize,
    /// Parameters its operations declare (each operation's own and its path item's).
    declared_parameters: usize,
    /// Schemas under `components/schemas`.
    declared_schemas: usize,
}

struct Generated {
    notes: usize,
    left_out: usize,
    /// Notes saying a parameter was left out.
    parameters_left_out: usize,
    /// Operations the crate has.
    emitted: usize,
    /// Places the document declares a structure that the crate types `serde_json::Value`.
    values: Vec<ValuePlace>,
}

/// How to run the corpus.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Generate as `strict: true` does.
    pub strict: bool,
    /// Run the one `cargo check` (else only generate).
    pub check: bool,
    /// List every structural `serde_json::Value` under the table.
    pub values_detail: bool,
    /// Then run the round-trip property over every type of every generated crate.
    pub round_trip: bool,
}

/// What `cargo check` said about one package.
#[derive(Default)]
struct Checked {
    compiled: bool,
    warnings: usize,
    errors: usize,
}

pub fn run(dir: &Path, out: Option<&Path>, runtime: &Path, options: Options) -> Result<ExitCode> {
    let Options {
        strict,
        check,
        values_detail,
        round_trip,
    } = options;
    let documents = documents(dir)?;
    if documents.is_empty() {
        bail!("{} holds no .json, .yaml or .yml document", dir.display());
    }
    let workspace = match out {
        Some(out) => out.to_path_buf(),
        None => std::env::temp_dir().join(format!("baseten-corpus-{}", std::process::id())),
    };
    fs::create_dir_all(&workspace).with_context(|| format!("creating {}", workspace.display()))?;
    let config = regen::parse_config(None, strict)?;
    let mut rows = Vec::new();
    for document in &documents {
        rows.push(generate_one(document, &workspace, runtime, &config)?);
    }
    let members: Vec<String> = rows
        .iter()
        .filter(|row| row.generated.is_some())
        .map(|row| format!("{:?}", row.package))
        .collect();
    let manifest = format!(
        "# Written by `cargo xtask corpus`: one member per generated document.\n\
         [workspace]\nresolver = \"2\"\nmembers = [{}]\n",
        members.join(", ")
    );
    fs::write(workspace.join("Cargo.toml"), manifest).context("writing the corpus Cargo.toml")?;
    // The workspace's own lock file: the same dependency versions, nothing to resolve anew.
    if let Some(lock) = runtime
        .ancestors()
        .map(|dir| dir.join("Cargo.lock"))
        .find(|lock| lock.is_file())
    {
        fs::copy(&lock, workspace.join("Cargo.lock")).context("copying Cargo.lock")?;
    }
    let started = Instant::now();
    let checked = if members.is_empty() || !check {
        BTreeMap::new()
    } else {
        cargo_check(&workspace)?
    };
    let check_time = started.elapsed();
    print_table(&rows, &checked, check.then_some(check_time));
    if values_detail {
        print_values(&rows);
    }
    eprintln!("corpus workspace: {}", workspace.display());
    let round_trips = !round_trip || round_trip_over(dir, &workspace, runtime)?;
    if !check {
        let all_generated = rows.iter().all(|row| row.generated.is_some());
        return Ok(if all_generated && round_trips {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    let all_compiled = rows.iter().all(|row| {
        checked
            .get(&row.package)
            .is_some_and(|checked| checked.compiled && checked.errors == 0)
    });
    Ok(if all_compiled && round_trips {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn documents(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("listing {}", dir.display()))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.is_file()
                && path
                    .extension()
                    .is_some_and(|e| e == "json" || e == "yaml" || e == "yml")
        })
        .collect();
    found.sort();
    Ok(found)
}

fn generate_one(
    document: &Path,
    workspace: &Path,
    runtime: &Path,
    config: &baseten_codegen::Config,
) -> Result<Row> {
    let started = Instant::now();
    let file_name = document
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem: String = document
        .file_stem()
        .map(|stem| stem.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let package = format!("corpus-{}", stem.trim_matches('-'));
    let text =
        fs::read_to_string(document).with_context(|| format!("reading {}", document.display()))?;
    let declared = declared(&text);
    let crate_dir = workspace.join(&package);
    fs::create_dir_all(&crate_dir).with_context(|| format!("creating {}", crate_dir.display()))?;
    let runtime_path = regen::relative_path(&crate_dir, runtime)?;
    let settings = baseten_codegen::CrateSettings {
        name: &package,
        runtime_path: &runtime_path,
        spec_name: &file_name,
        own_workspace: false,
    };
    let input = baseten_codegen::Input {
        spec_path: &file_name,
        spec_text: &text,
        config_text: None,
    };
    let generated = baseten_codegen::generate_crate_with(&input, config, &settings);
    let time = started.elapsed();
    let (generated, error) = match generated {
        Ok(output) => {
            for note in &output.notes {
                eprintln!(
                    "note: {file_name}{}",
                    note.to_string().trim_start_matches('#')
                );
            }
            for (relative, contents) in &output.files {
                regen::ensure_file_contents(
                    regen::Mode::Overwrite,
                    &crate_dir,
                    relative,
                    contents,
                )?;
            }
            let left_out = output
                .notes
                .iter()
                .filter(|note| note.message.contains(" is left out: "))
                .count();
            let parameters_left_out = output
                .notes
                .iter()
                .filter(|note| {
                    note.message.starts_with("parameter `")
                        && note.message.contains(" is left out: ")
                })
                .count();
            let (emitted, values) = baseten_codegen::build_ir_with(&input, config)
                .map_or((0, Vec::new()), |(api, _)| {
                    (api.operations.len(), api.values)
                });
            let generated = Generated {
                notes: output.notes.len(),
                left_out,
                parameters_left_out,
                emitted,
                values,
            };
            (Some(generated), None)
        }
        Err(error) => (None, Some(error.to_string())),
    };
    Ok(Row {
        document: file_name,
        package,
        generated,
        error,
        time,
        declared: declared.operations,
        declared_parameters: declared.parameters,
        declared_schemas: declared.schemas,
    })
}

/// What a document declares under `paths`.
#[derive(Debug, Default, PartialEq)]
struct Declared {
    /// Every method of every path item.
    operations: usize,
    /// Every operation's parameters: its own and its path item's, one per name and location
    /// (an operation's own replaces its path item's), `$ref`s into the document followed.
    parameters: usize,
    /// Schemas under `components/schemas`.
    schemas: usize,
}

fn declared(text: &str) -> Declared {
    use serde_json::Value;
    const METHODS: &[&str] = &[
        "get", "put", "post", "delete", "options", "head", "patch", "trace",
    ];
    let Ok(document) = baseten_codegen::load::parse_document(text) else {
        return Declared::default();
    };
    let listed = |holder: &Value| -> Vec<(String, String)> {
        let parameters = holder.get("parameters").and_then(Value::as_array);
        parameters
            .into_iter()
            .flatten()
            .filter_map(|parameter| parameter_identity(&document, parameter))
            .collect()
    };
    let schemas = document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .map_or(0, serde_json::Map::len);
    let Some(paths) = document.get("paths").and_then(Value::as_object) else {
        return Declared {
            schemas,
            ..Declared::default()
        };
    };
    let mut declared = Declared {
        schemas,
        ..Declared::default()
    };
    for (_, item) in paths.iter().filter(|(path, _)| !path.starts_with("x-")) {
        let Some(methods) = item.as_object() else {
            continue;
        };
        let shared = listed(item);
        for (_, operation) in methods
            .iter()
            .filter(|(key, _)| METHODS.contains(&key.as_str()))
        {
            let mut parameters: std::collections::BTreeSet<(String, String)> =
                shared.iter().cloned().collect();
            parameters.extend(listed(operation));
            declared.operations += 1;
            declared.parameters += parameters.len();
        }
    }
    declared
}

/// One `cargo check` over the whole corpus workspace, read as JSON messages per package.
fn cargo_check(workspace: &Path) -> Result<BTreeMap<String, Checked>> {
    let mut command = nested_cargo();
    command
        .current_dir(workspace)
        .args(["check", "--workspace", "--message-format=json", "--quiet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    let output = command.output().context("running cargo check")?;
    let mut checked: BTreeMap<String, Checked> = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let Some(package) = message
            .get("package_id")
            .and_then(serde_json::Value::as_str)
            .and_then(package_name)
        else {
            continue;
        };
        let entry = checked.entry(package).or_default();
        match message.get("reason").and_then(serde_json::Value::as_str) {
            Some("compiler-artifact") => entry.compiled = true,
            Some("compiler-message") => {
                match message
                    .pointer("/message/level")
                    .and_then(serde_json::Value::as_str)
                {
                    Some("warning") => entry.warnings += 1,
                    Some("error") => entry.errors += 1,
                    _ => {}
                }
            }
            _ => {}
        }
    }
    Ok(checked)
}

/// A parameter's name and location, through `$ref`s into the document (a few steps: a cycle
/// names none).
fn parameter_identity<'v>(
    document: &'v serde_json::Value,
    mut parameter: &'v serde_json::Value,
) -> Option<(String, String)> {
    for _ in 0..8 {
        let Some(reference) = parameter.get("$ref").and_then(serde_json::Value::as_str) else {
            let field = |key: &str| parameter.get(key).and_then(serde_json::Value::as_str);
            return Some((field("name")?.to_owned(), field("in")?.to_owned()));
        };
        let pointer = reference.strip_prefix('#')?.replace("%20", " ");
        parameter = document.pointer(&pointer)?;
    }
    None
}

/// `part` of `whole` as a percentage with two decimals (`0.00%` of nothing).
fn share(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "0.00%".to_owned();
    }
    // Integer arithmetic, rounded half up: hundredths of a percent.
    let hundredths = (part * 10_000 * 2 + whole) / (whole * 2);
    format!("{}.{:02}%", hundredths / 100, hundredths % 100)
}

/// The package name of a cargo package id: `path+file:///…/corpus-x#0.1.0` (new style) or
/// `corpus-x 0.1.0 (path+file://…)` (old style); only corpus members are kept.
fn package_name(id: &str) -> Option<String> {
    let name = match id.split_once(' ') {
        Some((name, _)) if !id.starts_with("path+") => name.to_owned(),
        _ => match id.rsplit_once('#') {
            // `…/dir#name@version` when the name is not the directory's.
            Some((_, fragment)) if fragment.contains('@') => {
                fragment.split('@').next().unwrap_or_default().to_owned()
            }
            Some((path, _)) => path.rsplit('/').next().unwrap_or_default().to_owned(),
            None => id.rsplit('/').next().unwrap_or_default().to_owned(),
        },
    };
    name.starts_with("corpus-").then_some(name)
}

fn print_table(rows: &[Row], checked: &BTreeMap<String, Checked>, check_time: Option<Duration>) {
    let width = rows
        .iter()
        .map(|row| row.document.len())
        .max()
        .unwrap_or(8)
        .max(8);
    println!(
        "{:<width$}  {:>9}  {:>10}  {:>10}  {:>8}  {:>5}  {:>12}  {:>8}  {:>8}  {:>9}",
        "document",
        "generated",
        "operations",
        "params out",
        "left out",
        "notes",
        "values",
        "compiled",
        "warnings",
        "time (ms)"
    );
    let (mut declared, mut emitted) = (0, 0);
    let (mut declared_schemas, mut values) = (0, 0);
    let (mut declared_parameters, mut parameters_left_out) = (0, 0);
    for row in rows {
        let checked = checked.get(&row.package);
        declared += row.declared;
        declared_parameters += row.declared_parameters;
        declared_schemas += row.declared_schemas;
        let (generated, operations, parameters, left_out, notes, row_values) = match &row.generated
        {
            Some(g) => {
                emitted += g.emitted;
                parameters_left_out += g.parameters_left_out;
                values += g.values.len();
                (
                    "yes",
                    format!("{}/{}", g.emitted, row.declared),
                    format!("{}/{}", g.parameters_left_out, row.declared_parameters),
                    g.left_out.to_string(),
                    g.notes.to_string(),
                    format!("{}/{}", g.values.len(), row.declared_schemas),
                )
            }
            None => (
                "no",
                format!("0/{}", row.declared),
                format!("-/{}", row.declared_parameters),
                "-".to_owned(),
                "-".to_owned(),
                format!("-/{}", row.declared_schemas),
            ),
        };
        let compiled = match (row.generated.is_some(), checked) {
            (false, _) => "-",
            (true, _) if check_time.is_none() => "-",
            (true, Some(c)) if c.compiled && c.errors == 0 => "yes",
            (true, _) => "no",
        };
        let warnings = checked.map_or("-".to_owned(), |c| c.warnings.to_string());
        println!(
            "{:<width$}  {:>9}  {:>10}  {:>10}  {:>8}  {:>5}  {:>12}  {:>8}  {:>8}  {:>9}",
            row.document,
            generated,
            operations,
            parameters,
            left_out,
            notes,
            row_values,
            compiled,
            warnings,
            row.time.as_millis()
        );
    }
    println!(
        "operations generated: {emitted} of {declared} the documents declare ({} left out)",
        share(declared.saturating_sub(emitted), declared)
    );
    println!(
        "parameters left out: {parameters_left_out} of {declared_parameters} ({}; those of \
         operations left out whole are not counted)",
        share(parameters_left_out, declared_parameters)
    );
    println!(
        "structural values: {values} over {declared_schemas} component schemas ({}; places \
         where a document declares a structure that its crate types serde_json::Value)",
        share(values, declared_schemas)
    );
    if let Some(check_time) = check_time {
        println!("cargo check of all members: {} ms", check_time.as_millis());
    }
    for row in rows {
        if let Some(error) = &row.error {
            println!("{}: {error}", row.document);
        }
    }
}

/// A cargo command without this run's package variables, which would make the nested cargo
/// see a changed environment (and rebuild what watches it, ring's build script among them).
fn nested_cargo() -> Command {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    for (name, _) in std::env::vars_os() {
        let text = name.to_string_lossy();
        if text.starts_with("CARGO_PKG_")
            || text.starts_with("CARGO_MANIFEST_")
            || text.starts_with("CARGO_BIN_EXE_")
            || text == "CARGO_CRATE_NAME"
            || text == "CARGO_PRIMARY_PACKAGE"
            || text == "OUT_DIR"
        {
            command.env_remove(&name);
        }
    }
    command
}

/// The round-trip property over every crate of `workspace`: baseten-tests' slow test, which
/// writes bounded cases from each document's model (the value generator lives in the tests)
/// into each crate and runs them. Whether every type round-tripped.
fn round_trip_over(dir: &Path, workspace: &Path, runtime: &Path) -> Result<bool> {
    const TEST: &str = "corpus_round_trip::every_type_of_every_corpus_document_round_trips";
    let root = runtime
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").is_file())
        .context("no workspace above the runtime")?;
    let absolute = |path: &Path| -> Result<PathBuf> {
        fs::canonicalize(path).with_context(|| format!("resolving {}", path.display()))
    };
    let status = nested_cargo()
        .current_dir(root)
        .args(["test", "-p", "baseten-tests", "--test", "it", TEST, "--"])
        .args(["--ignored", "--exact", "--nocapture"])
        .env("BASETEN_CORPUS", absolute(dir)?)
        .env("BASETEN_CORPUS_WS", absolute(workspace)?)
        .status()
        .context("running the round-trip test")?;
    Ok(status.success())
}

/// Every structural `serde_json::Value` of every generated document: a count per reason class,
/// then one line per place (pointer, class, reason).
fn print_values(rows: &[Row]) {
    for row in rows {
        let Some(generated) = &row.generated else {
            continue;
        };
        if generated.values.is_empty() {
            continue;
        }
        println!();
        println!(
            "{}: {} structural values over {} component schemas ({}): {}",
            row.document,
            generated.values.len(),
            row.declared_schemas,
            share(generated.values.len(), row.declared_schemas),
            by_reason(&generated.values)
        );
        for place in &generated.values {
            println!("  {place}");
        }
    }
}

/// `union 3, allOf 1`: how many places each reason class holds, in the classes' order.
fn by_reason(places: &[ValuePlace]) -> String {
    let mut counts: BTreeMap<ValueReason, usize> = BTreeMap::new();
    for place in places {
        *counts.entry(place.reason).or_default() += 1;
    }
    counts
        .iter()
        .map(|(reason, count)| format!("{reason} {count}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::{Declared, declared, package_name, share};

    /// Operations and their parameters: a path item's shared ones count for each of its
    /// operations, an operation's own of the same name and location replaces one, `$ref`s are
    /// followed (a dangling one counts nothing), `x-` keys and non-methods are not operations.
    #[test]
    fn declared_operations_and_parameters() {
        let text = r##"
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /a/{id}:
    parameters:
      - {name: id, in: path, required: true}
      - $ref: '#/components/parameters/Limit'
    get:
      parameters:
        - {name: id, in: path, required: true, description: again}
        - {name: id, in: header}
    post: {}
    summary: not an operation
  /b:
    delete:
      parameters:
        - $ref: '#/components/parameters/Missing'
        - $ref: '#/components/parameters/Alias'
  x-extension:
    get: {}
components:
  parameters:
    Limit: {name: limit, in: query}
    Alias: {$ref: '#/components/parameters/Limit'}
"##;
        assert_eq!(
            declared(text),
            Declared {
                operations: 3,
                parameters: 3 + 2 + 1,
                schemas: 0,
            }
        );
        assert_eq!(declared("not: [a document"), Declared::default());
        assert_eq!(declared("openapi: 3.0.3\npaths: []\n"), Declared::default());
    }

    #[test]
    fn shares_round_to_hundredths() {
        assert_eq!(share(0, 0), "0.00%");
        assert_eq!(share(1, 9364), "0.01%");
        assert_eq!(share(55, 4212), "1.31%");
        assert_eq!(share(1, 200), "0.50%");
        assert_eq!(share(1, 3), "33.33%");
        assert_eq!(share(2, 3), "66.67%");
        assert_eq!(share(3, 3), "100.00%");
    }

    #[test]
    fn package_ids_of_both_styles() {
        assert_eq!(
            package_name("path+file:///tmp/ws/corpus-a#0.1.0").as_deref(),
            Some("corpus-a")
        );
        assert_eq!(
            package_name("path+file:///tmp/ws/dir#corpus-b@0.1.0").as_deref(),
            Some("corpus-b")
        );
        assert_eq!(
            package_name("corpus-c 0.1.0 (path+file:///tmp/ws/corpus-c)").as_deref(),
            Some("corpus-c")
        );
        assert_eq!(
            package_name("registry+https://github.com/rust-lang/crates.io-index#serde@1.0.0"),
            None
        );
    }
}
