//! Compile-fail cases (`tests/ui/*.rs`) for the typestate metrics requests and for the
//! `#[non_exhaustive]` generated types (no struct literal, no exhaustive match outside the
//! crate): each must fail to compile with the message in its `.stderr`.
//!
//! Each case is checked by `rustc` directly against the `baseten_api` this test binary was built
//! with (its metadata is beside the binary in `target/*/deps`), so a case costs a fraction of a
//! second. trybuild, which this replaced, builds every dependency again in a target directory of
//! its own: over five minutes on a fresh 2-core machine.
//!
//! After a deliberate change to the API or its diagnostics, or a new compiler release, rewrite
//! the expected messages with `UI_OVERWRITE=1 cargo test -p baseten-tests --test it ui` and review
//! the diff.

use std::path::{Path, PathBuf};
use std::process::Command;

const OVERWRITE_ENV: &str = "UI_OVERWRITE";

/// A program that uses what the cases use (the client, the typestate requests, the models): the
/// candidate `baseten_api` it compiles against is the one this binary was built with.
const CONTROL: &str = r#"
use baseten_api::{Client, requests::Window};
async fn fetch(client: &Client) -> Result<(), baseten_api::Error> {
    let window = Window::new(1_783_191_332_703, 1_783_192_532_703)?;
    let series = client.environment_metrics("m", "e").series(window).send().await?;
    let _ = series.steps();
    let _ = baseten_api::models::ModelMetricValueSetV1::new(0, Vec::new());
    Ok(())
}
fn main() { let _ = fetch; }
"#;

#[test]
fn wrong_combinations_do_not_compile() {
    let ui = baseten_tests::tests_dir().join("ui");
    let checker = Checker::new();
    let mut failures = Vec::new();
    for case in baseten_tests::files_with_extension(&ui, "rs") {
        if let Err(failure) = check(&checker, &case) {
            failures.push(failure);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_control_program_compiles_so_failures_are_the_cases_own() {
    // Without this, a driver that failed every case for a reason of its own (a wrong library
    // path, a missing crate) would look like a passing compile-fail suite.
    let checker = Checker::new();
    let dir = tempfile::tempdir().unwrap();
    let control = dir.path().join("control.rs");
    std::fs::write(&control, CONTROL).unwrap();
    let (success, stderr) = checker.compile(&control);
    assert!(success, "{stderr}");
}

#[test]
fn normalising_keeps_the_message_and_drops_what_moves() {
    let root = baseten_tests::workspace_root();
    let raw = format!(
        "error[E0308]: mismatched types\n --> tests/ui/raw_window.rs:8:18\n  |\n8 |         .series(x)\n  |          ^\nnote: method defined here\n  --> {}/codegen/runtime/src/requests.rs:123:12\n   |\n123 |     pub fn series(\n 45 ~ x\n\nerror: aborting due to 1 previous error\n\nFor more information about this error, try `rustc --explain E0308`.\n",
        root.display()
    );
    assert_eq!(
        normalise(&raw, &root),
        "error[E0308]: mismatched types\n  --> tests/ui/raw_window.rs\n  |\n  |         .series(x)\n  |          ^\nnote: method defined here\n  --> codegen/runtime/src/requests.rs\n  |\n  |     pub fn series(\n  ~ x\n"
    );
}

/// Compiles one case and compares its normalised diagnostics with `<case>.stderr`.
fn check(checker: &Checker, case: &Path) -> Result<(), String> {
    let name = case.display();
    let (success, stderr) = checker.compile(case);
    if success {
        return Err(format!("{name} compiled, but it must not"));
    }
    let actual = normalise(&stderr, &baseten_tests::workspace_root());
    let expected_path = case.with_extension("stderr");
    if std::env::var_os(OVERWRITE_ENV).is_some() {
        std::fs::write(&expected_path, &actual).unwrap();
        return Ok(());
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if actual == expected {
        return Ok(());
    }
    let diff = similar::TextDiff::from_lines(&expected, &actual)
        .unified_diff()
        .header("expected", "actual")
        .to_string();
    Err(format!(
        "{name}: the compiler's message changed ({OVERWRITE_ENV}=1 rewrites it):\n{diff}"
    ))
}

/// `rustc` with this test binary's dependency directory and the `baseten_api` it links.
struct Checker {
    deps: PathBuf,
    library: PathBuf,
}

impl Checker {
    /// Finds the `baseten_api` build this binary links: the newest one under which the control
    /// program compiles (a dependency directory can hold several, one per feature set).
    fn new() -> Self {
        let exe = std::env::current_exe().expect("the test binary");
        let deps = exe
            .parent()
            .map(Path::to_path_buf)
            .expect("the test binary's directory");
        // Built before this binary was linked: a later one comes from another build sharing the
        // target directory (a slow test's consumer crate), with its own paths and features.
        let linked_at = exe.metadata().and_then(|meta| meta.modified()).ok();
        let mut candidates: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(&deps)
            .expect("the dependency directory")
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| {
                path.file_name()
                    .and_then(|name| name.to_str())
                    .is_some_and(|name| {
                        name.starts_with("libbaseten_api-") && name.ends_with(".rlib")
                    })
            })
            .filter_map(|path| Some((path.metadata().ok()?.modified().ok()?, path)))
            .filter(|(modified, _)| linked_at.is_none_or(|linked| *modified <= linked))
            .collect();
        candidates.sort_by_key(|(modified, _)| std::cmp::Reverse(*modified));
        let dir = tempfile::tempdir().unwrap();
        let control = dir.path().join("control.rs");
        std::fs::write(&control, CONTROL).unwrap();
        let mut tried = Vec::new();
        for (_, library) in candidates {
            let checker = Self {
                deps: deps.clone(),
                library,
            };
            let (success, stderr) = checker.compile(&control);
            if success {
                return checker;
            }
            tried.push(format!("{}:\n{stderr}", checker.library.display()));
        }
        panic!(
            "no baseten_api in {} compiles the control program; tried:\n{}",
            deps.display(),
            tried.join("\n")
        );
    }

    /// Type-checks `source` as a binary crate: whether it compiled, and what rustc printed.
    fn compile(&self, source: &Path) -> (bool, String) {
        let out = tempfile::tempdir().unwrap();
        let root = baseten_tests::workspace_root();
        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let output = Command::new(rustc)
            // From the workspace root: the library's metadata names its sources relative to it, so
            // rustc can quote them there.
            .current_dir(&root)
            .arg(source.strip_prefix(&root).unwrap_or(source))
            .args([
                "--edition",
                "2024",
                "--crate-type",
                "bin",
                "--emit=metadata",
            ])
            .args(["--color", "never", "--diagnostic-width", "100"])
            .arg("--out-dir")
            .arg(out.path())
            .arg("-L")
            .arg(format!("dependency={}", self.deps.display()))
            .arg("--extern")
            .arg(format!("baseten_api={}", self.library.display()))
            .output()
            .expect("running rustc");
        (
            output.status.success(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    }
}

/// What of rustc's message is the case's own: paths under the workspace relative to it, no
/// line or column numbers (an edit elsewhere in a file must not change every case), and no
/// closing summary lines.
fn normalise(stderr: &str, workspace: &Path) -> String {
    let root = format!("{}/", workspace.display());
    let mut lines: Vec<String> = Vec::new();
    for line in stderr.lines() {
        // Relative, as cargo names a workspace member's sources; a build of the same crate from
        // outside the workspace names them absolutely.
        let line = line.replace(&root, "");
        let trimmed = line.trim_start();
        if trimmed.starts_with("error: aborting due to")
            || trimmed.starts_with("Some errors have detailed explanations")
            || trimmed.starts_with("For more information about")
        {
            continue;
        }
        let line = match trimmed.strip_prefix("--> ") {
            Some(location) => format!("  --> {}", strip_position(location)),
            None => without_gutter_number(&line),
        };
        lines.push(line);
    }
    while lines.last().is_some_and(|line| line.trim().is_empty()) {
        lines.pop();
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// `path:12:5` → `path`.
fn strip_position(location: &str) -> &str {
    let mut location = location;
    for _ in 0..2 {
        if let Some((head, tail)) = location.rsplit_once(':')
            && !tail.is_empty()
            && tail.bytes().all(|b| b.is_ascii_digit())
        {
            location = head;
        }
    }
    location
}

/// ` 12 |     code` → `  |     code`: the gutter, whose width follows the largest line number
/// quoted, becomes two spaces.
fn without_gutter_number(line: &str) -> String {
    let after = line.trim_start_matches(|c: char| c == ' ' || c.is_ascii_digit());
    let gutter = ['|', '~', '+', '=']
        .iter()
        .any(|mark| after.starts_with(*mark));
    if gutter && after.len() < line.len() {
        format!("  {after}")
    } else {
        line.to_owned()
    }
}
