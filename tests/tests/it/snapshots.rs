//! Generator snapshots: each fixture spec in `tests/fixtures/specs/` against the expected
//! `.rs` files in `tests/src/snapshots/<name>/`, which `baseten_tests::snapshots` also compiles.
//! `UPDATE_SNAPSHOTS=1 cargo test -p baseten-tests --test it snapshots` rewrites them.

use std::path::Path;

use baseten_tests::{files_with_extension, tests_dir};

/// Snapshots call the runtime from outside the `baseten-api` crate; the fixtures written before
/// crates were named after their API and its `operationId`s keep Baseten's fake and variables
/// and method + path names (the fixtures of those features have their own config).
const CONFIG: &str =
    "runtime_path: baseten_api::runtime\napi_name: Baseten\noperation_id_names: false\n";

/// The fixtures of any document's own crate: named after their `info.title`, their operations
/// after their `operationId`s (the generator's defaults).
const OWN_NAMES: &[&str] = &[
    "acme",
    "auth",
    "auth_per_operation",
    "placeholders",
    "servers",
];

/// The config a fixture is generated with.
pub(crate) fn config_of(name: &str) -> &'static str {
    if OWN_NAMES.contains(&name) {
        "runtime_path: baseten_api::runtime\n"
    } else {
        CONFIG
    }
}

fn check(name: &str) {
    let spec_path = format!("tests/fixtures/specs/{name}.yaml");
    let spec_text = std::fs::read_to_string(
        tests_dir()
            .join("fixtures/specs")
            .join(format!("{name}.yaml")),
    )
    .unwrap_or_else(|error| panic!("{spec_path}: {error}"));
    let input = baseten_codegen::Input {
        spec_path: &spec_path,
        spec_text: &spec_text,
        config_text: Some(config_of(name)),
    };
    let output =
        baseten_codegen::generate(&input).unwrap_or_else(|error| panic!("{spec_path}: {error}"));
    let dir = tests_dir().join("src/snapshots").join(name);
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    for (file, actual) in &output.files {
        let path = dir.join(file);
        let expected = std::fs::read_to_string(&path)
            .unwrap_or_default()
            .replace("\r\n", "\n");
        if expected == *actual {
            continue;
        }
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, actual).unwrap();
            continue;
        }
        let diff = similar::TextDiff::from_lines(&expected, actual);
        panic!(
            "{} differs from what the generator emits now:\n{}\nrun `UPDATE_SNAPSHOTS=1 cargo test -p baseten-tests --test it snapshots` and review",
            path.display(),
            diff.unified_diff().header("expected", "actual")
        );
    }
    let stale: Vec<_> = files_with_extension(&dir, "rs")
        .into_iter()
        .filter(|path| !output.files.contains_key(&file_name(path)))
        .collect();
    assert!(
        stale.is_empty(),
        "snapshot files the generator no longer emits: {stale:?}"
    );
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[test]
fn acme() {
    check("acme");
}

#[test]
fn auth() {
    check("auth");
}

#[test]
fn auth_per_operation() {
    check("auth_per_operation");
}

#[test]
fn best_fit() {
    check("best_fit");
}

#[test]
fn best_fit30() {
    check("best_fit30");
}

#[test]
fn const_tags() {
    check("const_tags");
}

#[test]
fn consumers() {
    check("consumers");
}

#[test]
fn exact() {
    check("exact");
}

#[test]
fn exact30() {
    check("exact30");
}

#[test]
fn index_mapped() {
    check("index_mapped");
}

#[test]
fn int_tags() {
    check("int_tags");
}

#[test]
fn int_tags30() {
    check("int_tags30");
}

#[test]
fn inheritance() {
    check("inheritance");
}

#[test]
fn keyed() {
    check("keyed");
}

#[test]
fn kinds() {
    check("kinds");
}

#[test]
fn kinds30() {
    check("kinds30");
}

#[test]
fn media() {
    check("media");
}

#[test]
fn media_multi() {
    check("media_multi");
}

#[test]
fn names() {
    check("names");
}

#[test]
fn nullable() {
    check("nullable");
}

#[test]
fn nullable30() {
    check("nullable30");
}

#[test]
fn operations() {
    check("operations");
}

#[test]
fn placeholders() {
    check("placeholders");
}

#[test]
fn recursion() {
    check("recursion");
}

#[test]
fn salvage() {
    check("salvage");
}

#[test]
fn servers() {
    check("servers");
}

#[test]
fn shared() {
    check("shared");
}

#[test]
fn tagged() {
    check("tagged");
}

#[test]
fn twins() {
    check("twins");
}

#[test]
fn styles() {
    check("styles");
}

#[test]
fn types() {
    check("types");
}

#[test]
fn uploads() {
    check("uploads");
}

#[test]
fn wire() {
    check("wire");
}

/// A fixture without a `check` above or a `snapshot!` line in `tests/src/snapshots.rs` would
/// be neither compared nor compiled.
#[test]
fn every_fixture_is_checked_and_compiled() {
    let compiled = std::fs::read_to_string(tests_dir().join("src/snapshots.rs")).unwrap();
    let checked = include_str!("snapshots.rs");
    for fixture in files_with_extension(&tests_dir().join("fixtures/specs"), "yaml") {
        let name = file_name(&fixture).trim_end_matches(".yaml").to_owned();
        // The files an extension added for it are declared after its name, and only those.
        let mut declared = vec![name.clone()];
        let dir = tests_dir().join("src/snapshots").join(&name);
        for file in files_with_extension(&dir, "rs") {
            let module = file_name(&file).trim_end_matches(".rs").to_owned();
            if !["client", "mock", "models", "operations"].contains(&module.as_str()) {
                declared.push(module);
            }
        }
        let line = format!("snapshot!({});", declared.join(", "));
        assert!(
            compiled.lines().any(|compiled| compiled == line),
            "{name} is not compiled in tests/src/snapshots.rs as `{line}`"
        );
        assert!(
            checked.contains(&format!("check(\"{name}\")")),
            "{name} has no check in tests/tests/it/snapshots.rs"
        );
    }
}

/// The snapshots are compiled with every API-area feature their items are gated by: a feature
/// this crate lacked would compile those items out without a word.
#[test]
fn the_snapshots_are_compiled_with_every_area_they_name() {
    let mut named = std::collections::BTreeSet::new();
    for dir in std::fs::read_dir(tests_dir().join("src/snapshots")).unwrap() {
        for file in files_with_extension(&dir.unwrap().path(), "rs") {
            let text = std::fs::read_to_string(&file).unwrap();
            for piece in text.split("feature = \"").skip(1) {
                let feature = piece.split('"').next().unwrap_or_default();
                if feature != "mock" {
                    named.insert(feature.to_owned());
                }
            }
        }
    }
    let manifest = std::fs::read_to_string(tests_dir().join("Cargo.toml")).unwrap();
    let areas_line = manifest
        .lines()
        .find_map(|line| line.strip_prefix("snapshot-areas = "))
        .expect("tests/Cargo.toml has a snapshot-areas feature");
    let declared: std::collections::BTreeSet<String> = areas_line
        .trim_matches(['[', ']'])
        .split(", ")
        .map(|feature| feature.trim_matches('"').to_owned())
        .collect();
    assert!(named.contains("things"), "no area found: {named:?}");
    assert_eq!(declared, named);
}
