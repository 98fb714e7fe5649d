//! A consumer written as a user would write one, from the documentation alone: a dashboard (p95
//! by number, both metrics endpoints through one function), an autoscaler (a 404, a throttled
//! `PATCH`), a cost report and an endpoint the crate does not generate
//! (`tests/fixtures/consumer-app/`), built outside this workspace and tested against the fake,
//! with only documented paths and no JSON for its test values.

use std::path::Path;

use baseten_tests::{tests_dir, workspace_root};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(entry.file_name()));
        } else {
            std::fs::copy(&path, to.join(entry.file_name())).unwrap();
        }
    }
}

/// The consumer's sources name no hidden path (`baseten_api::runtime`, `__private`) and build
/// no test value from JSON.
#[test]
fn the_consumer_names_only_documented_paths_and_no_json() {
    let app = tests_dir().join("fixtures/consumer-app");
    for file in ["src/lib.rs", "tests/app.rs"] {
        let text = std::fs::read_to_string(app.join(file)).unwrap();
        for forbidden in ["runtime::", "__private", "serde_json", "json!"] {
            assert!(!text.contains(forbidden), "{file} names {forbidden}");
        }
    }
}

#[test]
#[ignore = "slow: builds and tests the consumer app (dashboard, autoscaler, cost report)"]
fn the_consumer_app_passes_its_tests_against_the_fake() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let api = workspace_root().join("generated");
    std::fs::write(
        root.join("Cargo.toml"),
        "[workspace]\nresolver = \"3\"\nmembers = [\"app\"]\n",
    )
    .unwrap();
    std::fs::copy(workspace_root().join("Cargo.lock"), root.join("Cargo.lock")).unwrap();
    copy_dir(
        &tests_dir().join("fixtures/consumer-app"),
        &root.join("app"),
    );
    std::fs::write(
        root.join("app/Cargo.toml"),
        format!(
            "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
             [dependencies]\nbaseten-api = {{ path = {api:?} }}\n\
             serde = {{ version = \"1\", features = [\"derive\"] }}\n\n\
             [dev-dependencies]\nbaseten-api = {{ path = {api:?}, features = [\"mock\"] }}\n\
             tokio = {{ version = \"1\", features = [\"macros\", \"rt\"] }}\n"
        ),
    )
    .unwrap();
    let mut test = baseten_tests::cargo_sharing_target();
    test.current_dir(root).args(["test", "-q", "-p", "app"]);
    let output = test.output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "{stderr}\n{stdout}");
    assert!(stdout.contains("6 passed"), "{stdout}");
}
