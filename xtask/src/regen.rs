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

const FIX: &str = "run `cargo xtask regen` and commit the result";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Overwrite,
    Check,
}

pub fn run(root: &Path, mode: Mode) -> Result<()> {
    let files = generate(root)?;
    let stale = sync_dir(root, OUT_DIR, &files, mode)?;
    if stale.is_empty() {
        if mode == Mode::Overwrite {
            eprintln!("{OUT_DIR}: {} files up to date", files.len());
        }
        return Ok(());
    }
    match mode {
        Mode::Overwrite => {
            eprintln!("{OUT_DIR}: updated {}", stale.join(", "));
            report_changes_since_commit(root);
            Ok(())
        }
        Mode::Check => bail!(
            "{OUT_DIR} is out of date with {SPEC} ({}); {FIX}",
            stale.join(", ")
        ),
    }
}

/// Generates a standalone crate from any document into `out` (depending on this workspace's
/// runtime by path).
pub fn run_standalone(spec: &Path, out: &Path, config: Option<&Path>, mode: Mode) -> Result<()> {
    let spec_text =
        fs::read_to_string(spec).with_context(|| format!("reading {}", spec.display()))?;
    let config_text = config
        .map(|path| fs::read_to_string(path).with_context(|| format!("reading {}", path.display())))
        .transpose()?;
    let spec_display = spec.display().to_string();
    let name = spec
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let runtime = workspace_root().join("generated");
    let command = format!(
        "cargo xtask regen --spec {spec_display} --out {}",
        out.display()
    );
    let settings = baseten_codegen::CrateSettings {
        name: &format!("generated-{name}"),
        runtime_path: &runtime.display().to_string(),
        command: &command,
    };
    let input = baseten_codegen::Input {
        spec_path: &spec_display,
        spec_text: &spec_text,
        config_text: config_text.as_deref(),
    };
    let output = baseten_codegen::generate_crate(&input, &settings)
        .with_context(|| format!("generating from {spec_display}"))?;
    eprintln!("{spec_display}: {} notes", output.notes.len());
    let mut stale = Vec::new();
    for (relative, contents) in &output.files {
        if ensure_file_contents(mode, out, relative, contents)? {
            stale.push(relative.clone());
        }
    }
    if mode == Mode::Check && !stale.is_empty() {
        bail!(
            "{} is out of date ({}); rerun {command}",
            out.display(),
            stale.join(", ")
        );
    }
    Ok(())
}

/// Prints the API change report from one document to another (all operations of each).
pub fn diff(old: &Path, new: &Path) -> Result<()> {
    let read = |path: &Path| {
        fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
    };
    let (old_text, new_text) = (read(old)?, read(new)?);
    let report = changes(&old_text, None, &new_text, None)?;
    print!("{report}");
    Ok(())
}

fn changes(
    old: &str,
    old_config: Option<&str>,
    new: &str,
    new_config: Option<&str>,
) -> Result<baseten_codegen::diff::ChangeReport> {
    let ir = |text: &str, config: Option<&str>, which: &str| {
        let input = baseten_codegen::Input {
            spec_path: which,
            spec_text: text,
            config_text: config,
        };
        baseten_codegen::build_ir(&input)
            .map(|(api, _)| api)
            .with_context(|| format!("generating from the {which} document"))
    };
    Ok(baseten_codegen::diff::api_changes(
        &ir(old, old_config, "old")?,
        &ir(new, new_config, "new")?,
    ))
}

/// After a regen that changed something: what it changed in the API, against the committed
/// schema (`git show HEAD:…`). Best effort: outside a git checkout there is nothing to compare.
fn report_changes_since_commit(root: &Path) {
    let committed = |path: &str| {
        std::process::Command::new("git")
            .current_dir(root)
            .args(["show", &format!("HEAD:{path}")])
            .output()
            .ok()
            .filter(|output| output.status.success())
            .map(|output| String::from_utf8_lossy(&output.stdout).into_owned())
    };
    let Some(old_spec) = committed(SPEC) else {
        return;
    };
    let old_config = committed(CONFIG);
    let (Ok(new_spec), new_config) = (
        fs::read_to_string(root.join(SPEC)),
        fs::read_to_string(root.join(CONFIG)).ok(),
    ) else {
        return;
    };
    match changes(
        &old_spec,
        old_config.as_deref(),
        &new_spec,
        new_config.as_deref(),
    ) {
        Ok(report) => eprint!("API changes since the last commit: {report}"),
        Err(error) => eprintln!("note: no API change report: {error:#}"),
    }
}

pub fn workspace_root() -> PathBuf {
    // xtask/ sits directly under the root.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Runs the generator on `schema/`; prints its notes; returns the files it emitted.
pub fn generate(root: &Path) -> Result<BTreeMap<String, String>> {
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
    let output =
        baseten_codegen::generate(&input).with_context(|| format!("generating from {SPEC}"))?;
    for note in &output.notes {
        eprintln!("note: {SPEC}{}", note.to_string().trim_start_matches('#'));
    }
    Ok(output.files)
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
        let root = workspace_root();
        let files = generate(&root).expect("generation succeeds");
        let stale = sync_dir(&root, OUT_DIR, &files, Mode::Check).expect("check runs");
        assert!(
            stale.is_empty(),
            "{OUT_DIR} is stale ({}); {FIX}",
            stale.join(", ")
        );
    }
}
