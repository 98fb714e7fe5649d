//! The round-trip property over a whole corpus of documents (issue 38): every type of the crate
//! `cargo xtask corpus DIR --out WS` generated from each document, with a bounded number of
//! cases per type. `cargo xtask corpus DIR --out WS --round-trip` runs this test with
//! `BASETEN_CORPUS=DIR` and `BASETEN_CORPUS_WS=WS`; run alone (the slow tier), it takes the two
//! union fixtures into a corpus of its own: Baseten's published documents are already covered by
//! `conformance.rs`, and the tier's time is better spent once.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use baseten_tests::files_with_extension;

/// Cases per type: bounded, so a corpus of thousands of types stays minutes (`PROPTEST_CASES`
/// does not apply: the cases are written into each crate).
const CORPUS_CASES: u32 = 16;

/// The corpus the test takes when no `BASETEN_CORPUS` is given: the fixtures whose unions are
/// told apart by tags (mapped, inferred, pinned by `const`). Integer tags (`int_tags.yaml`) are
/// covered by the fast tier's round trip over compiled snapshots; a third crate here would cost
/// CI a crate build for no case the fast tier lacks.
const UNION_FIXTURES: [&str; 2] = ["tagged.yaml", "const_tags.yaml"];

/// The package `cargo xtask corpus` names a document's crate: `corpus-` and the file stem,
/// lower-cased, every other character than an ASCII letter or digit a `-`.
fn corpus_package(document: &Path) -> String {
    let stem: String = document
        .file_stem()
        .map(|stem| stem.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("corpus-{}", stem.trim_matches('-'))
}

/// The documents `cargo xtask corpus` reads in `dir`.
fn documents(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = ["json", "yaml", "yml"]
        .iter()
        .flat_map(|extension| files_with_extension(dir, extension))
        .filter(|path| path.is_file())
        .collect();
    found.sort();
    found
}

/// The model of a document as the corpus generates it: all operations, no config.
fn corpus_model(document: &Path) -> Option<baseten_codegen::ir::Api> {
    let text = std::fs::read_to_string(document).ok()?;
    let name = document.display().to_string();
    let input = baseten_codegen::Input {
        spec_path: &name,
        spec_text: &text,
        config_text: None,
    };
    baseten_codegen::build_ir(&input).ok().map(|(api, _)| api)
}

/// Failures per package, read from the crates' test output: each failure line of the
/// generated test starts with the package's name (see `round_trip::CRATE_TEST`).
fn failures_by_package(output: &str) -> BTreeMap<String, Vec<String>> {
    let mut failures: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current: Option<(String, Vec<String>)> = None;
    for line in output.lines() {
        if let Some(rest) = line.strip_prefix("round-trip failure in ") {
            if let Some((package, lines)) = current.take() {
                failures.entry(package).or_default().push(lines.join("\n"));
            }
            let (package, first) = rest.split_once(": ").unwrap_or((rest, ""));
            current = Some((package.to_owned(), vec![first.to_owned()]));
        } else if let Some((_, lines)) = current.as_mut() {
            if line.starts_with("    from ") {
                lines.push(line.to_owned());
            } else {
                let (package, lines) = current.take().unwrap_or_default();
                failures.entry(package).or_default().push(lines.join("\n"));
            }
        }
    }
    if let Some((package, lines)) = current {
        failures.entry(package).or_default().push(lines.join("\n"));
    }
    failures
}

#[test]
#[ignore = "slow: generates, builds and tests a crate per corpus document"]
fn every_type_of_every_corpus_document_round_trips() {
    let (dir, workspace, _scratch) = match (
        std::env::var_os("BASETEN_CORPUS"),
        std::env::var_os("BASETEN_CORPUS_WS"),
    ) {
        (Some(dir), Some(workspace)) => (PathBuf::from(dir), PathBuf::from(workspace), None),
        _ => {
            let scratch = tempfile::tempdir().unwrap();
            let dir = scratch.path().join("documents");
            std::fs::create_dir(&dir).unwrap();
            for fixture in UNION_FIXTURES {
                let from = Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("fixtures/specs")
                    .join(fixture);
                std::fs::copy(&from, dir.join(fixture)).unwrap();
            }
            let status = baseten_tests::cargo_sharing_target()
                .args(["run", "--quiet", "--package", "xtask", "--", "corpus"])
                .arg(&dir)
                .arg("--out")
                .arg(scratch.path().join("workspace"))
                .arg("--generate-only")
                .status()
                .unwrap();
            assert!(status.success(), "cargo xtask corpus {}", dir.display());
            (dir, scratch.path().join("workspace"), Some(scratch))
        }
    };
    let mut covered = 0;
    let mut packages = Vec::new();
    for document in documents(&dir) {
        let package = corpus_package(&document);
        let crate_dir = workspace.join(&package);
        // A document that did not generate has no crate (the corpus table says why).
        let (Some(api), true) = (corpus_model(&document), crate_dir.is_dir()) else {
            continue;
        };
        covered += crate::round_trip::write_cases(&crate_dir, &package, &api, CORPUS_CASES);
        packages.push(package);
    }
    assert!(
        !packages.is_empty(),
        "{}: no crate to test",
        workspace.display()
    );
    let features: Vec<String> = packages.iter().map(|p| format!("{p}/mock")).collect();
    let mut command = baseten_tests::cargo_sharing_target();
    command
        .current_dir(&workspace)
        .args([
            "test",
            "--no-fail-fast",
            "--test",
            "round_trip",
            "--features",
        ])
        .arg(features.join(","));
    for package in &packages {
        command.args(["-p", package]);
    }
    let output = command.output().unwrap();
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let failures = failures_by_package(&text);
    eprintln!(
        "round trips: {covered} types of {} corpus crates ({CORPUS_CASES} cases each); \
         {} failing types in {} crates",
        packages.len(),
        failures.values().map(Vec::len).sum::<usize>(),
        failures.len()
    );
    for (package, lines) in &failures {
        eprintln!("{package}: {} failing types", lines.len());
        for line in lines {
            eprintln!("  {line}");
        }
    }
    assert!(
        output.status.success() && failures.is_empty(),
        "the round trip failed over {}:\n{}",
        workspace.display(),
        if failures.is_empty() {
            text.as_str()
        } else {
            "(failures above)"
        }
    );
}

#[test]
fn failures_are_read_per_package() {
    let output = "\
running 1 test
round-trip failure in corpus-a: Thing: missing field `x`
    from {}
round-trip failure in corpus-a: Other: Other(Unknown) decodes as Unknown, not as Cat
round-trip failure in corpus-b: U: expected a string
    from 1
test every_type_round_trips ... FAILED
";
    let failures = failures_by_package(output);
    assert_eq!(
        failures,
        BTreeMap::from([
            (
                "corpus-a".to_owned(),
                vec![
                    "Thing: missing field `x`\n    from {}".to_owned(),
                    "Other: Other(Unknown) decodes as Unknown, not as Cat".to_owned(),
                ]
            ),
            (
                "corpus-b".to_owned(),
                vec!["U: expected a string\n    from 1".to_owned()]
            ),
        ])
    );
    assert_eq!(
        corpus_package(Path::new("/c/Twilio_API v2010.json")),
        "corpus-twilio-api-v2010"
    );
}
