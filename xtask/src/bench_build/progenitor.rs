//! progenitor beside our generator in `bench-build`: the user's own `cargo-progenitor` (nothing
//! here installs or builds it) run on the newest document, lowered to OpenAPI 3.0 with operation
//! ids by our lowering (progenitor reads 3.0 only and names methods by `operationId`), or on a
//! document the user trimmed from that one where progenitor refuses a construct.

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

/// The newest document lowered to OpenAPI 3.0 by our lowering, with an `operationId` on every
/// operation (`baseten_codegen::lower::with_operation_ids`), as JSON in the scratch directory.
fn write_lowered(scratch: &Path, spec: &Path) -> Result<PathBuf> {
    let text = fs::read_to_string(spec).with_context(|| format!("reading {}", spec.display()))?;
    let document = baseten_codegen::load::parse_document(&text)
        .with_context(|| format!("reading {}", spec.display()))?;
    let lowered = baseten_codegen::lower::lower(document)
        .with_context(|| format!("lowering {}", spec.display()))?;
    let openapi = baseten_codegen::lower::with_operation_ids(lowered.openapi);
    let json = serde_json::to_string_pretty(&openapi).context("writing the lowered document")?;
    let path = scratch.join("progenitor/lowered.json");
    super::write(&path, &json)?;
    Ok(path)
}
