//! Shared helpers for the workspace's cross-crate integration tests (`tests/tests/it`), and the
//! compiled generator snapshots.

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
/// whose build script watches one (ring watches `CARGO_MANIFEST_DIR` and `OUT_DIR`); the next outer build
/// then rebuilds them back.
///
/// The command starts with `--config <this workspace's .cargo/config.toml>`; add the
/// subcommand and its arguments after it.
pub fn cargo_command() -> std::process::Command {
    let mut command =
        std::process::Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    for (name, _) in std::env::vars_os() {
        let text = name.to_string_lossy();
        let per_package = text.starts_with("CARGO_PKG_")
            || text.starts_with("CARGO_MANIFEST_")
            || text.starts_with("CARGO_BIN_EXE_")
            || [
                "CARGO_CRATE_NAME",
                "CARGO_PRIMARY_PACKAGE",
                "CARGO_TARGET_TMPDIR",
                // This package's build-script output directory: ring's build script watches
                // `OUT_DIR`, so leaving it in place rebuilds ring, rustls, reqwest and every
                // crate above them in each nested build, and again in the next outer one.
                "OUT_DIR",
            ]
            .contains(&text.as_ref());
        if per_package {
            command.env_remove(&name);
        }
    }
    // This workspace's build profile (`.cargo/config.toml`), which cargo would not find from a
    // scratch directory: without it, every dependency is built again under the default profile.
    command
        .arg("--config")
        .arg(workspace_root().join(".cargo/config.toml"));
    command.current_dir(workspace_root());
    command
}

/// What one in-process run of the `baseten-metrics` CLI printed, and its exit code.
#[derive(Debug)]
pub struct CliOutput {
    /// The exit code `baseten_metrics::run` returned, as the process would exit with it.
    pub code: std::process::ExitCode,
    /// Standard output, as UTF-8 (invalid bytes replaced).
    pub stdout: String,
    /// Standard error, as UTF-8 (invalid bytes replaced).
    pub stderr: String,
}

impl CliOutput {
    /// Whether the run succeeded.
    pub fn success(&self) -> bool {
        self.code == std::process::ExitCode::SUCCESS
    }
}

/// The context the CLI tests run in: an API key no expected output contains (every live
/// client's key is scrubbed from every error in the process), no base URL, and now at
/// `2026-07-04T19:00:00Z`.
pub fn cli_context() -> baseten_metrics::Context {
    baseten_metrics::Context {
        api_key: Some("cli-test-key-Vq7Zr2".to_owned()),
        base_url: None,
        now: "2026-07-04T19:00:00Z".parse().unwrap_or_default(),
    }
}

/// Runs `baseten-metrics ARGS…` in process with `context` and captures what it printed.
///
/// It blocks (the CLI runs its own async runtime), so async tests call it through
/// `tokio::task::spawn_blocking`.
pub fn run_cli(args: &[&str], context: &baseten_metrics::Context) -> CliOutput {
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let argv = std::iter::once("baseten-metrics").chain(args.iter().copied());
    let code = baseten_metrics::run(argv, context, &mut stdout, &mut stderr);
    CliOutput {
        code,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

/// [`cargo_command`] building into the workspace's own target directory, so the crates a test
/// writes elsewhere share its dependency builds.
pub fn cargo_sharing_target() -> std::process::Command {
    let mut command = cargo_command();
    command.env("CARGO_TARGET_DIR", workspace_root().join("target"));
    command
}
