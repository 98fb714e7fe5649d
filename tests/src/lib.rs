//! Shared helpers for the workspace's integration tests (`tests/tests/it`), and the compiled
//! generator snapshots.

use std::path::{Path, PathBuf};

/// Set by `.ci/run`: tests that read `../shared` must run, not skip.
pub const REQUIRE_SHARED_ENV: &str = "BASETEN_REQUIRE_SHARED";

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), Path::to_path_buf)
}

/// This crate's directory (`tests/`), where fixtures and snapshots live.
pub fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/<sub>` beside the workspace, if present.
///
/// A newcomer's clone has no `../shared`: the caller skips with a printed note. Under `.ci/run`
/// ([`REQUIRE_SHARED_ENV`] set) a missing directory fails the test instead.
pub fn shared_dir(sub: &str) -> Option<PathBuf> {
    let dir = workspace_root().join("..").join("shared").join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os(REQUIRE_SHARED_ENV).is_none(),
        "{} is missing but {REQUIRE_SHARED_ENV} is set: these tests must run here",
        dir.display()
    );
    eprintln!(
        "note: skipping, {} is not present (it is in CI)",
        dir.display()
    );
    None
}

/// The files directly in `dir` with the given extension, sorted by name.
pub fn files_with_extension(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("listing {}: {error}", dir.display()))
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    files
}
pub mod snapshots;

/// A `cargo` command for tests that run cargo themselves, from the workspace root.
///
/// Cargo gives a test its package's variables (`CARGO_MANIFEST_DIR`, `CARGO_PKG_NAME`, …). Left
/// in place, the nested cargo sees them as a changed environment and rebuilds every dependency
/// whose build script watches one (ring watches `CARGO_MANIFEST_DIR`); the next outer build
/// then rebuilds them back.
pub fn cargo_command() -> std::process::Command {
    let mut command =
        std::process::Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    for (name, _) in std::env::vars_os() {
        let text = name.to_string_lossy();
        let per_package = text.starts_with("CARGO_PKG_")
            || text.starts_with("CARGO_MANIFEST_")
            || [
                "CARGO_CRATE_NAME",
                "CARGO_PRIMARY_PACKAGE",
                "CARGO_TARGET_TMPDIR",
            ]
            .contains(&text.as_ref());
        if per_package {
            command.env_remove(&name);
        }
    }
    command.current_dir(workspace_root());
    command
}

/// `cargo run -p baseten-api --example metrics --`, ready for the example's own flags.
pub fn metrics_example_command() -> std::process::Command {
    let mut command = cargo_command();
    command.args([
        "run",
        "-q",
        "-p",
        "baseten-api",
        "--example",
        "metrics",
        "--",
    ]);
    command
}
