//! `cargo xtask regen` as a user runs it, on a scratch copy of the workspace's schema and
//! emitted files: the drift check catches hand edits, schema edits and stray files; a broken
//! schema exits non-zero and leaves the emitted files exactly as they were.

use std::collections::BTreeMap;
use std::path::Path;

use baseten_tests::workspace_root;

const SPEC: &str = "schema/baseten-management.yaml";
const CONFIG: &str = "schema/codegen.yaml";
const GEN: &str = "generated/src/gen";

/// A scratch workspace holding copies of the committed schema and emitted files.
fn scratch() -> tempfile::TempDir {
    scratch_with_config(true)
}

/// A scratch workspace; `with_config` copies `schema/codegen.yaml` too (its selection only
/// fits the committed schema).
fn scratch_with_config(with_config: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = workspace_root();
    std::fs::create_dir_all(dir.path().join("schema")).unwrap();
    std::fs::copy(root.join(SPEC), dir.path().join(SPEC)).unwrap();
    if with_config {
        std::fs::copy(root.join(CONFIG), dir.path().join(CONFIG)).unwrap();
    }
    std::fs::create_dir_all(dir.path().join(GEN)).unwrap();
    for (name, contents) in emitted(&root) {
        std::fs::write(dir.path().join(GEN).join(name), contents).unwrap();
    }
    dir
}

fn emitted(root: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(root.join(GEN))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .map(|path| {
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&path).unwrap(),
            )
        })
        .collect()
}

/// Runs `cargo xtask regen [--check]` on `root`; returns (success, stderr without the
/// generator's `note:` lines, which every run prints).
fn regen(root: &Path, check: bool) -> (bool, String) {
    let mut command = baseten_tests::cargo_command();
    command.args(["run", "--quiet", "--package", "xtask", "--", "regen"]);
    if check {
        command.arg("--check");
    }
    let output = command.arg("--root").arg(root).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stderr: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.starts_with("note: "))
        .collect();
    let mut stderr = stderr.join("\n");
    if !stderr.is_empty() {
        stderr.push('\n');
    }
    (output.status.success(), stderr)
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(
        text.contains(from),
        "{} does not contain {from:?}",
        path.display()
    );
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
#[ignore = "slow: builds and runs the xtask binary"]
fn drift_check_catches_every_kind_of_drift_and_regen_repairs_it() {
    let dir = scratch();
    let root = dir.path();
    let committed = emitted(root);
    assert_eq!(
        regen(root, true),
        (true, String::new()),
        "a fresh copy passes the check"
    );

    // A hand edit of an emitted file.
    edit(
        &root.join(GEN).join("models.rs"),
        "pub struct",
        "pub(crate) struct",
    );
    let before_check = emitted(root);
    let (ok, stderr) = regen(root, true);
    assert!(!ok, "a hand edit must fail the check");
    assert!(
        stderr.contains("--- a/generated/src/gen/models.rs"),
        "names the file:\n{stderr}"
    );
    assert!(
        stderr.contains("-pub(crate) struct") && stderr.contains("+pub struct"),
        "shows a unified diff:\n{stderr}"
    );
    assert!(
        stderr.contains("run `cargo xtask regen` and commit"),
        "names the fix:\n{stderr}"
    );
    assert_eq!(emitted(root), before_check, "--check writes nothing");
    assert!(regen(root, false).0);
    assert_eq!(
        emitted(root),
        committed,
        "regen restores the emitted files byte for byte"
    );

    // A schema edit.
    edit(
        &root.join(SPEC),
        "Gets the metrics for a model environment.",
        "Reads an environment's metrics.",
    );
    let (ok, stderr) = regen(root, true);
    assert!(
        !ok && stderr.contains("+    /// Reads an environment's metrics."),
        "{stderr}"
    );
    assert!(regen(root, false).0);
    assert_eq!(regen(root, true), (true, String::new()));
    let after_schema_edit = emitted(root);
    assert!(regen(root, false).0);
    assert_eq!(
        emitted(root),
        after_schema_edit,
        "a second regen changes no byte"
    );

    // A file the generator does not emit.
    std::fs::write(root.join(GEN).join("stray.rs"), "// left behind\n").unwrap();
    let (ok, stderr) = regen(root, true);
    assert!(
        !ok && stderr.contains("stray.rs should not exist"),
        "{stderr}"
    );
    assert!(regen(root, false).0);
    assert!(
        !root.join(GEN).join("stray.rs").exists(),
        "regen removes stray files"
    );
}

#[test]
#[ignore = "slow: builds and runs the xtask binary"]
fn a_broken_schema_fails_and_leaves_generated_untouched() {
    let dir = scratch_with_config(false);
    let root = dir.path();
    let committed = emitted(root);
    let deep = format!(
        "{{\"openapi\": \"3.1.0\", \"paths\": {{}}, \"x\": {}1{}}}",
        "[".repeat(120),
        "]".repeat(120)
    );
    let cases = [
        ("", "the document is empty"),
        ("openapi: 3.1.0\ninfo: [unclosed\n", "YAML syntax error"),
        (
            "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n",
            "#/swagger: Swagger",
        ),
        // A `$ref` cycle is no longer a refusal (the schema is read as any JSON value, with a
        // note); a document nested past what the parsers read still is.
        (deep.as_str(), "nested more than 32 levels deep"),
    ];
    for (schema, expected) in cases {
        std::fs::write(root.join(SPEC), schema).unwrap();
        let (ok, stderr) = regen(root, false);
        assert!(!ok, "regen must fail for {schema:?}");
        assert!(
            stderr.contains(expected),
            "stderr for {schema:?} lacks {expected:?}:\n{stderr}"
        );
        assert!(
            stderr.lines().count() <= 2,
            "one clear error, not a dump:\n{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert_eq!(
            emitted(root),
            committed,
            "generated/ untouched after {schema:?}"
        );
    }
}

/// A dangling `$ref` leaves out only the schema that holds it: regen writes the crate and names
/// the pointer in a note, and `--strict` refuses with the same pointer, writing nothing.
#[test]
#[ignore = "slow: builds and runs the xtask binary"]
fn a_dangling_ref_is_a_note_and_strict_refuses_it() {
    let dir = scratch_with_config(false);
    let root = dir.path();
    std::fs::write(
        root.join(SPEC),
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    A: {type: object, properties: {b: {$ref: '#/components/schemas/Nope'}}}\n",
    )
    .unwrap();
    let committed = emitted(root);
    let (ok, stderr) = regen_with(root, &["--strict"]);
    assert!(!ok, "--strict must refuse a dangling $ref:\n{stderr}");
    assert!(
        stderr.contains("#/components/schemas/A/properties/b"),
        "the refusal names the pointer:\n{stderr}"
    );
    assert_eq!(emitted(root), committed, "a refused regen writes nothing");
    let (ok, stderr) = regen_with(root, &[]);
    assert!(ok, "without --strict the document generates:\n{stderr}");
    let notes: Vec<&str> = stderr.lines().filter(|l| l.starts_with("note: ")).collect();
    assert!(
        notes
            .iter()
            .any(|note| note.contains("/components/schemas/A/properties/b")
                && note.contains("#/components/schemas/Nope")),
        "a note names the pointer and the missing target: {notes:?}"
    );
    assert_ne!(emitted(root), committed, "the crate is written");
}

/// Runs `cargo xtask regen --root ROOT` with extra arguments; returns (success, stderr).
fn regen_with(root: &Path, extra: &[&str]) -> (bool, String) {
    let mut command = baseten_tests::cargo_command();
    command.args(["run", "--quiet", "--package", "xtask", "--", "regen"]);
    let output = command
        .args(extra)
        .arg("--root")
        .arg(root)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
#[ignore = "slow: builds and runs the xtask binary"]
fn regen_prints_every_note_and_strict_refuses() {
    let dir = scratch_with_config(false);
    let media = baseten_tests::tests_dir().join("fixtures/specs/media.yaml");
    std::fs::copy(media, dir.path().join(SPEC)).unwrap();
    let (ok, stderr) = regen_with(dir.path(), &[]);
    assert!(ok, "{stderr}");
    let notes: Vec<&str> = stderr.lines().filter(|l| l.starts_with("note: ")).collect();
    assert_eq!(
        notes,
        [
            "note: schema/baseten-management.yaml/paths/~1v1~1raw_parts/post/requestBody/content/multipart~1form-data/schema: operation post_raw_parts (POST /v1/raw_parts) is left out: a multipart/form-data body whose schema is not an object",
            // A first generation has no committed listing to report changes against.
            "note: no API change report: no committed generated/src/gen/api.txt",
        ]
    );
    let before = emitted(dir.path());
    let (ok, stderr) = regen_with(dir.path(), &["--strict"]);
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains("#/paths/~1v1~1raw_parts/post/requestBody/content/multipart~1form-data/schema: operation post_raw_parts (POST /v1/raw_parts) would be left out (a multipart/form-data body whose schema is not an object); strict mode leaves nothing out"),
        "{stderr}"
    );
    assert_eq!(
        emitted(dir.path()),
        before,
        "a refused regen writes nothing"
    );
}
