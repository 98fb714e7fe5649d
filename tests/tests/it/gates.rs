//! Feature gates compile what each build uses: a type shared by more areas than a gate lists
//! (`tests/fixtures/surface/widely-shared.yaml`) is gated by the value types every one of those
//! areas enables, and the crate builds with no feature, one area, or all, with no warning.

use baseten_codegen::{CrateSettings, Input};
use baseten_tests::{tests_dir, workspace_root};

/// The fixture's crate, checked with no feature, each of two areas alone (one that reaches the
/// shared types through a type of its own, one directly) with and without the client, and every
/// feature: an item gated more narrowly than an item naming it fails one of these builds.
#[test]
#[ignore = "slow: checks one generated crate with six feature sets"]
fn a_widely_shared_type_compiles_in_every_build_that_uses_it() {
    let text =
        std::fs::read_to_string(tests_dir().join("fixtures/surface/widely-shared.yaml")).unwrap();
    let runtime = workspace_root().join("codegen/runtime");
    let runtime = runtime.to_string_lossy().replace('\\', "/");
    let settings = CrateSettings {
        name: "widely-shared",
        runtime_path: &runtime,
        spec_name: "widely-shared",
        own_workspace: true,
    };
    let output = baseten_codegen::generate_crate(
        &Input {
            spec_path: "widely-shared.yaml",
            spec_text: &text,
            config_text: None,
        },
        &settings,
    )
    .unwrap_or_else(|error| panic!("{error}"));
    let models = output
        .files
        .iter()
        .find_map(|(path, text)| path.ends_with("models.rs").then_some(text))
        .expect("a models file");
    // The shared types take the widely-shared gate (so this test exercises it), the area's own
    // type its area.
    assert!(
        models.contains("#[cfg(feature = \"jiff\")]\n#[derive")
            && models.contains("pub struct Hub"),
        "{models}"
    );
    assert!(models.contains("#[cfg(feature = \"a0\")]"), "{models}");
    let root = tempfile::tempdir().unwrap();
    for (relative, contents) in &output.files {
        let path = root.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
    std::fs::copy(
        workspace_root().join("Cargo.lock"),
        root.path().join("Cargo.lock"),
    )
    .unwrap();
    for features in ["", "a0", "a5", "client,a0", "client,a5", "full,mock"] {
        let output = baseten_tests::cargo_sharing_target()
            .current_dir(root.path())
            .args([
                "check",
                "--quiet",
                "--message-format=short",
                "--no-default-features",
            ])
            .args(["--features", features])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success() && !stderr.contains("warning"),
            "--features {features:?}:\n{stderr}"
        );
    }
}
