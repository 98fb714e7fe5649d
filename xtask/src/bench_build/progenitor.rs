//! progenitor beside our generator in `bench-build`, on the newest document lowered to OpenAPI
//! 3.0 with operation ids by our lowering (progenitor reads 3.0 only and names methods by
//! `operationId`) and trimmed of what progenitor refuses, or on a document the user trimmed by
//! hand: the user's own `cargo-progenitor` binary (nothing here installs or builds it), and
//! `progenitor-impl` as a library in a scratch project beside ours (see [`library`]).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use super::Options;

/// `--progenitor BIN` and the document it reads.
pub(super) struct Progenitor<'a> {
    binary: &'a Path,
    input: PathBuf,
}

impl<'a> Progenitor<'a> {
    /// `None` without `--progenitor`: the sections then print our figures only. Writes the
    /// lowered document into `scratch` unless `--progenitor-input` names one.
    pub fn new(options: &'a Options, scratch: &Path, spec: &Path) -> Result<Option<Self>> {
        let Some(binary) = options.progenitor.as_deref() else {
            return Ok(None);
        };
        let input = match &options.progenitor_input {
            Some(input) => input.clone(),
            None => write_lowered(scratch, spec)?,
        };
        println!(
            "  progenitor: {} reading {}",
            binary.display(),
            input.display()
        );
        Ok(Some(Progenitor { binary, input }))
    }

    /// progenitor generating its crate into `out`. `cargo-progenitor` is a cargo subcommand:
    /// run directly, it takes its own name first.
    pub fn generate(&self, out: &Path) -> Command {
        let mut command = Command::new(self.binary);
        let subcommand = self
            .binary
            .file_name()
            .and_then(|name| name.to_str())
            .and_then(|name| name.strip_prefix("cargo-"));
        command.args(subcommand);
        command.arg("-i").arg(&self.input).arg("-o").arg(out).args([
            "-n",
            "bench-progenitor",
            "-v",
            "0.1.0",
        ]);
        command
    }

    /// progenitor's crate in `out`, made a workspace of its own (the scratch directory is inside
    /// ours). Its lock and target directory stay from an earlier run: its dependencies are
    /// built once.
    pub fn generate_crate(&self, out: &Path) -> Result<()> {
        super::remove_dir(&out.join("src"))?;
        let mut command = self.generate(out);
        let output = command
            .output()
            .with_context(|| format!("running {command:?}"))?;
        if !output.status.success() {
            bail!(
                "{command:?} failed (trim what it refuses and pass --progenitor-input):\n{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let manifest = out.join("Cargo.toml");
        let text = fs::read_to_string(&manifest)
            .with_context(|| format!("reading {}", manifest.display()))?;
        if !text.lines().any(|line| line.trim() == "[workspace]") {
            super::write(&manifest, &format!("{text}\n[workspace]\n"))?;
        }
        Ok(())
    }
}

/// progenitor's library version the scratch project pins (the binary the README names is 0.15).
const PROGENITOR_IMPL: &str = "=0.15.1";

/// The scratch project's program: both generators timed in one process.
const LIBRARY_MAIN: &str = include_str!("../../bench/progenitor_library.rs");

/// Generation as a library: a scratch Cargo project under `scratch` (its own workspace, so the
/// xtask's dependency tree never holds progenitor) depending on `progenitor-impl` from
/// crates.io and on our `baseten-codegen` by path, built in release, then run on `spec` and its
/// lowered copy, `runs` paired runs (see `xtask/bench/progenitor_library.rs`). When the
/// dependencies cannot be fetched (no crates.io), says so and returns.
pub(super) fn library(root: &Path, scratch: &Path, spec: &Path, runs: usize) -> Result<()> {
    println!("\n## generate: progenitor-impl {PROGENITOR_IMPL} as a library, in one process");
    let lowered = write_lowered(scratch, spec)?;
    let project = scratch.join("progenitor-library");
    super::write(
        &project.join("Cargo.toml"),
        &library_manifest(&root.join("codegen")),
    )?;
    super::write(&project.join("src/main.rs"), LIBRARY_MAIN)?;
    let lock = project.join("Cargo.lock");
    if !lock.is_file() {
        // Our dependencies at the workspace's versions; cargo adds progenitor's.
        fs::copy(root.join("Cargo.lock"), &lock).context("copying Cargo.lock")?;
    }
    let mut fetch = super::cargo();
    fetch.current_dir(&project).args(["fetch", "--quiet"]);
    let fetched = fetch
        .output()
        .with_context(|| format!("running {fetch:?}"))?;
    if !fetched.status.success() {
        let stderr = String::from_utf8_lossy(&fetched.stderr);
        println!(
            "  skipped: its dependencies could not be fetched (is crates.io reachable?): {}",
            stderr.lines().last().unwrap_or("no message")
        );
        return Ok(());
    }
    let mut build = super::cargo();
    build
        .current_dir(&project)
        .args(["build", "--release", "--quiet", "--offline"]);
    let built = super::measure(build)?;
    println!("  built in {:.1} s", built.wall.as_secs_f64());
    let mut run = Command::new(project.join("target/release/progenitor-library"));
    run.arg(spec).arg(&lowered).arg(runs.to_string());
    let status = run.status().with_context(|| format!("running {run:?}"))?;
    if !status.success() {
        bail!("{run:?} failed ({status})");
    }
    Ok(())
}

/// The scratch project's manifest: its own workspace, our generator by path.
fn library_manifest(codegen: &Path) -> String {
    format!(
        "[package]\n\
         name = \"progenitor-library\"\n\
         version = \"0.0.0\"\n\
         edition = \"2024\"\n\
         publish = false\n\
         \n\
         [dependencies]\n\
         anyhow = \"1\"\n\
         baseten-codegen = {{ path = {codegen:?} }}\n\
         libc = \"0.2\"\n\
         openapiv3 = \"2\"\n\
         prettyplease = \"0.2\"\n\
         progenitor-impl = \"{PROGENITOR_IMPL}\"\n\
         serde_json = \"1\"\n\
         syn = {{ version = \"2\", default-features = false, features = [\"full\", \"parsing\", \"printing\"] }}\n\
         \n\
         # Not a member of the enclosing workspace.\n\
         [workspace]\n",
        codegen = codegen.display().to_string()
    )
}

/// The newest document lowered to OpenAPI 3.0 by our lowering, with an `operationId` on every
/// operation (`baseten_codegen::lower::with_operation_ids`), as JSON in the scratch directory.
fn write_lowered(scratch: &Path, spec: &Path) -> Result<PathBuf> {
    let text = fs::read_to_string(spec).with_context(|| format!("reading {}", spec.display()))?;
    let document = baseten_codegen::load::parse_document(&text)
        .with_context(|| format!("reading {}", spec.display()))?;
    let lowered = baseten_codegen::lower::lower(document)
        .with_context(|| format!("lowering {}", spec.display()))?;
    let openapi = baseten_codegen::lower::with_operation_ids(lowered.openapi);
    let mut value = serde_json::to_value(&openapi).context("writing the lowered document")?;
    let trimmed = trim(&mut value);
    println!(
        "  progenitor's input: {} default(s) beside enum/const/allOf/anyOf/oneOf/$ref and {} inline title(s) removed",
        trimmed.defaults, trimmed.titles
    );
    let json = serde_json::to_string_pretty(&value).context("writing the lowered document")?;
    let path = scratch.join("progenitor/lowered.json");
    super::write(&path, &json)?;
    Ok(path)
}

/// What [`trim`] removed.
#[derive(Debug, Default, PartialEq)]
struct Trimmed {
    defaults: usize,
    titles: usize,
}

/// Removes what progenitor 0.15 refuses from a 3.0 document, changing no type it generates:
/// a `default` beside `enum`, `const`, a composition or a `$ref` (typify rejects a one-value
/// enum's default as an invalid value), and the `title` of every schema below a component's
/// root or inside `paths` (typify names inline types by title, and titles such as `Name`
/// repeat, giving colliding types).
fn trim(document: &mut serde_json::Value) -> Trimmed {
    /// `inline`: the value is not a component's root, so its title goes too.
    fn walk(value: &mut serde_json::Value, inline: bool, trimmed: &mut Trimmed) {
        match value {
            serde_json::Value::Object(map) => {
                let beside = ["enum", "const", "allOf", "anyOf", "oneOf", "$ref"];
                if map.contains_key("default") && beside.iter().any(|key| map.contains_key(*key)) {
                    map.remove("default");
                    trimmed.defaults += 1;
                }
                if inline && map.get("title").is_some_and(serde_json::Value::is_string) {
                    map.remove("title");
                    trimmed.titles += 1;
                }
                for child in map.values_mut() {
                    walk(child, true, trimmed);
                }
            }
            serde_json::Value::Array(items) => {
                for item in items {
                    walk(item, true, trimmed);
                }
            }
            _ => {}
        }
    }
    let mut trimmed = Trimmed::default();
    if let Some(paths) = document.get_mut("paths") {
        walk(paths, true, &mut trimmed);
    }
    let schemas = document
        .get_mut("components")
        .and_then(|components| components.get_mut("schemas"))
        .and_then(serde_json::Value::as_object_mut);
    for schema in schemas.into_iter().flat_map(|schemas| schemas.values_mut()) {
        // A component keeps its own title; what it holds does not.
        walk(schema, false, &mut trimmed);
    }
    trimmed
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn the_lowered_input_has_operation_ids_and_no_refused_default() {
        let scratch = std::env::temp_dir().join(format!("xtask-{}-lowered", std::process::id()));
        let spec = scratch.join("spec.yaml");
        super::super::write(
            &spec,
            "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /v1/things:\n    get:\n      \
             parameters:\n        - {name: kind, in: query, schema: {type: string, enum: [a], default: a}}\n      \
             responses: {'200': {description: ok}}\n",
        )
        .unwrap();
        let lowered = super::write_lowered(&scratch, &spec).unwrap();
        let text = std::fs::read_to_string(&lowered).unwrap();
        let _ = std::fs::remove_dir_all(&scratch);
        let document: serde_json::Value = serde_json::from_str(&text).unwrap();
        let operation = &document["paths"]["/v1/things"]["get"];
        assert!(operation["operationId"].is_string(), "{text}");
        assert_eq!(
            operation["parameters"][0]["schema"],
            json!({"type": "string", "enum": ["a"]}),
            "{text}"
        );
    }

    #[test]
    fn the_library_project_is_its_own_workspace_pinning_progenitor_and_our_codegen_by_path() {
        let manifest = super::library_manifest(std::path::Path::new("/repo/codegen"));
        let value: toml_lines::Lines = toml_lines::Lines::of(&manifest);
        assert_eq!(
            value.get("name"),
            Some("\"progenitor-library\""),
            "{manifest}"
        );
        assert_eq!(
            value.get("progenitor-impl"),
            Some(format!("\"{}\"", super::PROGENITOR_IMPL).as_str()),
            "{manifest}"
        );
        assert_eq!(
            value.get("baseten-codegen"),
            Some("{ path = \"/repo/codegen\" }"),
            "{manifest}"
        );
        assert!(
            manifest.lines().any(|line| line == "[workspace]"),
            "{manifest}"
        );
        // Every crate the program names is a dependency.
        for used in [
            "anyhow",
            "libc",
            "openapiv3",
            "prettyplease",
            "serde_json",
            "syn",
        ] {
            assert!(value.get(used).is_some(), "{used} missing:\n{manifest}");
            assert!(
                super::LIBRARY_MAIN.contains(&format!("{used}::")),
                "{used} unused"
            );
        }
    }

    /// `key = value` lines of a manifest, as written.
    mod toml_lines {
        pub struct Lines<'a>(Vec<(&'a str, &'a str)>);

        impl<'a> Lines<'a> {
            pub fn of(text: &'a str) -> Self {
                Lines(
                    text.lines()
                        .filter_map(|line| line.split_once(" = "))
                        .collect(),
                )
            }

            pub fn get(&self, key: &str) -> Option<&'a str> {
                self.0
                    .iter()
                    .find(|(found, _)| *found == key)
                    .map(|(_, value)| *value)
            }
        }
    }

    #[test]
    fn trim_removes_defaults_beside_enums_and_inline_titles_only() {
        let mut document = json!({
            "info": {"title": "API"},
            "paths": {"/a": {"get": {"parameters": [
                {"schema": {"title": "Name", "type": "string", "enum": ["x"], "default": "x"}}
            ]}}},
            "components": {"schemas": {
                "Name": {"title": "Name", "type": "object", "properties": {
                    "name": {"title": "Name", "type": "string", "default": "n"},
                    "kind": {"allOf": [{"$ref": "#/components/schemas/Kind"}], "default": "k"},
                    "title": {"type": "string"}
                }},
                "Kind": {"type": "string", "const": "k", "default": "k"}
            }}
        });
        let trimmed = super::trim(&mut document);
        assert_eq!(
            trimmed,
            super::Trimmed {
                defaults: 3,
                titles: 2
            }
        );
        assert_eq!(
            document,
            json!({
                "info": {"title": "API"},
                "paths": {"/a": {"get": {"parameters": [
                    {"schema": {"type": "string", "enum": ["x"]}}
                ]}}},
                "components": {"schemas": {
                    "Name": {"title": "Name", "type": "object", "properties": {
                        "name": {"type": "string", "default": "n"},
                        "kind": {"allOf": [{"$ref": "#/components/schemas/Kind"}]},
                        "title": {"type": "string"}
                    }},
                    "Kind": {"type": "string", "const": "k"}
                }}
            })
        );
    }
}
