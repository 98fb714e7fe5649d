//! The CLI's integration tests, one binary (every extra test binary is another link in CI):
//! `baseten-metrics` run in process on saved responses and against local wiremock servers
//! (`cli`), under an absurd rate limit (`rate_limits`), and the paths of `baseten-api` its
//! sources name (`paths`). Its check on Baseten's recorded responses reads `../shared`, so it
//! stays in the workspace's tests (`tests/tests/it/cli_recorded.rs`).

use std::path::PathBuf;

mod cli;
mod paths;
mod rate_limits;
mod svg;

/// The workspace's root directory.
fn workspace_root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The cross-crate tests' directory, whose `fixtures/` holds the metrics responses the
/// runtime's, the CLI's and the consumers' tests read alike.
fn tests_dir() -> PathBuf {
    workspace_root().join("tests")
}

/// What one in-process run of the CLI printed, and how it ended.
#[derive(Debug)]
struct CliOutput {
    /// The exit code `baseten_metrics::run` returned, as the process would exit with it.
    code: std::process::ExitCode,
    /// Standard output, as UTF-8 (invalid bytes replaced).
    stdout: String,
    /// Standard error, as UTF-8 (invalid bytes replaced).
    stderr: String,
}

impl CliOutput {
    /// Whether the run succeeded.
    fn success(&self) -> bool {
        self.code == std::process::ExitCode::SUCCESS
    }
}

/// The context the CLI tests run in: an API key no expected output contains (every live
/// client's key is scrubbed from every error in the process), no base URL, and now at
/// `2026-07-04T19:00:00Z`.
fn cli_context() -> baseten_metrics::Context {
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
fn run_cli(args: &[&str], context: &baseten_metrics::Context) -> CliOutput {
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let argv = std::iter::once("baseten-metrics").chain(args.iter().copied());
    let code = baseten_metrics::run(argv, context, &mut stdout, &mut stderr);
    CliOutput {
        code,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}
