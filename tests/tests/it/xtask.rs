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

/// `cargo xtask regen --spec SPEC --out OUT [extra…]`; returns (success, stderr).
fn regen_standalone(spec: &Path, out: &Path, extra: &[&str]) -> (bool, String) {
    let mut command = baseten_tests::cargo_command();
    command.args([
        "run",
        "--quiet",
        "--package",
        "xtask",
        "--",
        "regen",
        "--spec",
    ]);
    let output = command
        .arg(spec)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `cargo check` of one member of the scratch workspace at `root`, sharing this workspace's
/// target directory; returns (success, stderr).
fn check_member(root: &Path, member: &str) -> (bool, String) {
    let mut command = baseten_tests::cargo_sharing_target();
    let output = command
        .current_dir(root)
        .args(["check", "--quiet", "--package", member])
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The `[package]` name line of a generated crate's manifest.
fn package_line(crate_dir: &Path) -> String {
    let manifest = std::fs::read_to_string(crate_dir.join("Cargo.toml")).unwrap();
    manifest
        .lines()
        .find(|line| line.starts_with("name = "))
        .unwrap_or_else(|| panic!("no name in\n{manifest}"))
        .to_owned()
}

/// Issue 42: a crate generated from `payments-2026-11.yaml`, regenerated in place from the
/// same document saved as `payments-2026-12.yaml`, keeps its package name (the file name's
/// default is a first generation's), `--check` agrees, and the crate depending on it still
/// compiles; `--name` renames it, the report calls that breaking, and the dependent indeed no
/// longer resolves.
#[test]
#[ignore = "slow: builds the xtask and checks a generated crate and a dependent of it"]
fn regenerating_in_place_keeps_the_package_name_and_a_rename_is_breaking() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let schema = std::fs::read_to_string(workspace_root().join(SPEC)).unwrap();
    let (november, december) = (
        root.join("specs/payments-2026-11.yaml"),
        root.join("specs/payments-2026-12.yaml"),
    );
    std::fs::create_dir_all(root.join("specs")).unwrap();
    std::fs::write(&november, &schema).unwrap();
    std::fs::write(&december, &schema).unwrap();
    std::fs::write(
        root.join("Cargo.toml"),
        "[workspace]\nresolver = \"3\"\nmembers = [\"payments\", \"user\"]\n",
    )
    .unwrap();
    std::fs::copy(workspace_root().join("Cargo.lock"), root.join("Cargo.lock")).unwrap();
    let out = root.join("payments");

    let (ok, stderr) = regen_standalone(&november, &out, &[]);
    assert!(ok, "{stderr}");
    assert_eq!(package_line(&out), "name = \"generated-payments-2026-11\"");
    assert!(
        !stderr.contains("API changes"),
        "a first generation has nothing to compare with:\n{stderr}"
    );
    std::fs::create_dir_all(root.join("user/src")).unwrap();
    std::fs::write(
        root.join("user/Cargo.toml"),
        "[package]\nname = \"user\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
         [dependencies]\ngenerated-payments-2026-11 = { path = \"../payments\", default-features = false, features = [\"models\"] }\n",
    )
    .unwrap();
    std::fs::write(
        root.join("user/src/main.rs"),
        "fn main() {\n    let error: Option<generated_payments_2026_11::Error> = None;\n    println!(\"{}\", error.is_none());\n}\n",
    )
    .unwrap();

    // The next document, saved under its own date: same package, nothing changed for users.
    let (ok, stderr) = regen_standalone(&december, &out, &[]);
    assert!(ok, "{stderr}");
    assert_eq!(package_line(&out), "name = \"generated-payments-2026-11\"");
    assert!(
        stderr.contains(&format!(
            "API changes to {}: note: no IR for the old side",
            out.display()
        )) && stderr.contains("\nno changes to the generated API\n"),
        "{stderr}"
    );
    let (ok, stderr) = regen_standalone(&december, &out, &["--check"]);
    assert!(ok, "--check names the crate as regen does:\n{stderr}");
    let (ok, stderr) = check_member(root, "user");
    assert!(ok, "the dependent still compiles:\n{stderr}");

    // `--name` renames it: breaking, and the dependent's manifest no longer finds it.
    let (ok, stderr) = regen_standalone(&december, &out, &["--name", "billing", "--check"]);
    assert!(!ok, "--check with another --name is drift:\n{stderr}");
    assert!(stderr.contains("+name = \"billing\""), "{stderr}");
    let (ok, stderr) = regen_standalone(&december, &out, &["--name", "billing"]);
    assert!(ok, "{stderr}");
    assert_eq!(package_line(&out), "name = \"billing\"");
    assert!(
        stderr.contains("1 changes to the generated API (1 breaking, 0 additive)")
            && stderr.contains(
                "  breaking  package renamed from `generated-payments-2026-11` to `billing`"
            ),
        "{stderr}"
    );
    let (ok, stderr) = check_member(root, "user");
    assert!(!ok, "the report said breaking, and it is:\n{stderr}");
    assert!(stderr.contains("generated-payments-2026-11"), "{stderr}");
    // From now on the crate is `billing`, whatever the document is called.
    let (ok, stderr) = regen_standalone(&november, &out, &[]);
    assert!(ok, "{stderr}");
    assert_eq!(package_line(&out), "name = \"billing\"");
}
