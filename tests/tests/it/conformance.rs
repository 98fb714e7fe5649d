//! Baseten's published documents as a whole: names stay stable from one dated document to the
//! next, the committed selection of the newest one is exactly our `schema/`, and (slow tier) every
//! document compiles as a standalone crate whose types decode authored samples.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use baseten_tests::{files_with_extension, shared_dir, workspace_root};

fn generate_ir(spec: &Path, config: Option<&str>) -> baseten_codegen::ir::Api {
    generate_ir_locked(spec, config, baseten_codegen::NameLock::default())
}

/// The IR as `regen` builds it after an earlier generation: keeping that one's names.
fn generate_ir_locked(
    spec: &Path,
    config: Option<&str>,
    lock: baseten_codegen::NameLock,
) -> baseten_codegen::ir::Api {
    let text = std::fs::read_to_string(spec).unwrap();
    let name = spec.display().to_string();
    let input = baseten_codegen::Input {
        spec_path: &name,
        spec_text: &text,
        config_text: config,
    };
    let mut parsed = baseten_codegen::Config::parse(config.unwrap_or_default()).unwrap();
    parsed.names_lock = lock;
    baseten_codegen::build_ir_with(&input, &parsed)
        .unwrap_or_else(|error| panic!("{name}: {error}"))
        .0
}

fn dated_management_documents() -> Option<Vec<PathBuf>> {
    let dir = shared_dir("specs")?;
    let documents: Vec<PathBuf> = files_with_extension(&dir, "json")
        .into_iter()
        .filter(|path| {
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("baseten-management-"))
        })
        .collect();
    assert_eq!(documents.len(), 5, "five dated management documents");
    Some(documents)
}

/// Every operation and schema present in two dated documents has the same Rust name in both.
#[test]
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared: Baseten's published documents and recorded responses"
)]
fn names_are_stable_across_dated_documents() {
    let Some(documents) = dated_management_documents() else {
        return;
    };
    let mut operation_names: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut type_names: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut conflicts = Vec::new();
    for document in &documents {
        let label = document.file_name().unwrap().to_string_lossy().into_owned();
        let api = generate_ir(document, None);
        for operation in &api.operations {
            let key = format!("{} {}", operation.method, operation.path);
            let (first_name, first_seen) = operation_names
                .entry(key.clone())
                .or_insert((operation.name.clone(), label.clone()));
            if *first_name != operation.name {
                conflicts.push(format!(
                    "{key}: {first_name} in {first_seen}, {} in {label}",
                    operation.name
                ));
            }
        }
        for (key, name) in &api.component_names {
            let (first_name, first_seen) = type_names
                .entry(key.clone())
                .or_insert((name.clone(), label.clone()));
            if first_name != name {
                conflicts.push(format!(
                    "schema {key}: {first_name} in {first_seen}, {name} in {label}"
                ));
            }
        }
    }
    assert!(
        conflicts.is_empty(),
        "names changed between documents:\n{}",
        conflicts.join("\n")
    );
    assert!(
        operation_names.len() > 150 && type_names.len() > 400,
        "{} operations, {} schemas",
        operation_names.len(),
        type_names.len()
    );
}

/// Emitted files with documentation and headers removed: the Rust API and its code.
fn without_docs(files: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    files
        .iter()
        .map(|(name, text)| {
            let code = text.lines().filter(|line| {
                let line = line.trim_start();
                !(line.starts_with("///")
                    || line.starts_with("//!")
                    || line.starts_with("// @generated"))
            });
            (name.clone(), code.collect::<Vec<_>>().join("\n"))
        })
        .collect()
}

/// The newest full document with `schema/codegen.yaml`'s selection emits what `schema/` does.
#[test]
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared: Baseten's published documents and recorded responses"
)]
fn committed_selection_of_the_newest_document_equals_schema() {
    let Some(dir) = shared_dir("specs") else {
        return;
    };
    let root = workspace_root();
    let config = std::fs::read_to_string(root.join("schema/codegen.yaml")).unwrap();
    let generate = |path: &Path| {
        let text = std::fs::read_to_string(path).unwrap();
        let input = baseten_codegen::Input {
            spec_path: "x",
            spec_text: &text,
            config_text: Some(&config),
        };
        baseten_codegen::generate(&input).unwrap().files
    };
    let full = without_docs(&generate(&dir.join("baseten-management-2026-08-22.json")));
    let ours = without_docs(&generate(&root.join("schema/baseten-management.yaml")));
    for (name, text) in &ours {
        let diff = similar::TextDiff::from_lines(text, &full[name]);
        assert_eq!(
            text,
            &full[name],
            "{name} differs:\n{}",
            diff.unified_diff()
                .header("schema/", "2026-08-22 + selection")
        );
    }
    assert_eq!(
        full.keys().collect::<Vec<_>>(),
        ours.keys().collect::<Vec<_>>()
    );
}

/// Authored samples decoded through the types generated from the newest document.
const SAMPLES: &str = r#"//! Authored samples decoded through the types generated from the newest document.
use generated_baseten_management_2026_08_22::models::*;
use generated_baseten_management_2026_08_22::runtime::IndexMappedResponse;

#[test]
fn audit_log_events_decode_as_a_tagged_union_open_to_new_tags() {
    let known = serde_json::json!({
        "id": "ale_1", "created": "2026-08-01T10:00:00Z", "event_type": "API_KEY_CREATED",
        "event_data": {"event_type": "API_KEY_CREATED", "api_key_id": "k1", "api_key_type": "PERSONAL",
                       "prefix": "abc", "added_later": true},
        "actor": {"type": "USER", "id": "u1", "email": "a@example.com", "future_field": 1},
        "source": "REST_API"
    });
    let entry: AuditLogEntryV1 = serde_json::from_value(known.clone()).expect("decodes");
    match &entry.event_data {
        AuditLogEntryV1EventData::ApiKeyCreated(event) => assert_eq!(event.api_key_id, "k1"),
        other => panic!("wrong variant: {other:?}"),
    }
    assert_eq!(entry.event_data.tag(), Some("API_KEY_CREATED"));

    let mut future = known;
    future["event_type"] = "SOMETHING_NEW".into();
    future["event_data"] = serde_json::json!({"event_type": "SOMETHING_NEW", "x": 1});
    let entry: AuditLogEntryV1 = serde_json::from_value(future).expect("an unknown tag still decodes");
    assert!(entry.event_type.is_unknown());
    match &entry.event_data {
        AuditLogEntryV1EventData::Unknown(value) => assert_eq!(value["x"], 1),
        other => panic!("wrong variant: {other:?}"),
    }
    // A response type encodes only for the fake (`mock`), which answers with it.
    #[cfg(feature = "mock")]
    {
        let back = serde_json::to_value(&entry.event_data).unwrap();
        assert_eq!(back, serde_json::json!({"event_type": "SOMETHING_NEW", "x": 1}));
    }
}

#[test]
fn metrics_responses_decode_and_are_index_mapped() {
    let body = serde_json::json!({
        "start_epoch_millis": 1000, "end_epoch_millis": 61000, "mode": "SERIES", "step_seconds": 30,
        "metric_descriptors": [{"name": "m", "unit_hint": "NEW_UNIT", "kind": "GAUGE", "label_sets": [{}], "extra": 1}],
        "metric_values": [{"start_epoch_millis": 1000, "values": [[1.5]]}, {"start_epoch_millis": 31000, "values": [[null]]}],
        "new_top_level": "ignored"
    });
    let response: GetModelMetricsResponseV1 = serde_json::from_value(body).expect("decodes");
    assert_eq!(response.descriptors()[0].unit_hint.as_str(), "NEW_UNIT");
    assert_eq!(response.value_sets()[1].values, vec![vec![None]]);
    assert_eq!(response.mode_str(), Some("SERIES"));
}
"#;

/// `cargo xtask regen --spec PATH --out DIR` for every published document, as members of one
/// workspace built by one cargo run (shared target dir, parallel) with the fake: zero warnings,
/// every type round-trips, and the newest one decodes the samples above.
#[test]
#[ignore = "slow: generates and builds a crate per published document"]
fn every_published_document_compiles_as_a_standalone_crate() {
    let Some(dir) = shared_dir("specs") else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let mut members = Vec::new();
    for spec in files_with_extension(&dir, "json") {
        let stem = spec.file_stem().unwrap().to_string_lossy().into_owned();
        let status = baseten_tests::cargo_sharing_target()
            .args([
                "run",
                "--quiet",
                "--package",
                "xtask",
                "--",
                "regen",
                "--spec",
            ])
            .arg(&spec)
            .arg("--out")
            .arg(out.path().join(&stem))
            .status()
            .unwrap();
        assert!(status.success(), "regen --spec {stem}");
        members.push(format!("{stem:?}"));
    }
    std::fs::write(
        out.path().join("Cargo.toml"),
        format!(
            "[workspace]\nresolver = \"3\"\nmembers = [{}]\n",
            members.join(", ")
        ),
    )
    .unwrap();
    // The workspace's lock file keeps dependency versions (and so build artifacts) shared.
    std::fs::copy(
        workspace_root().join("Cargo.lock"),
        out.path().join("Cargo.lock"),
    )
    .unwrap();
    // The round-trip property over every type of every document's crate.
    let mut round_trips = Vec::new();
    let mut covered = 0;
    for spec in files_with_extension(&dir, "json") {
        let stem = spec.file_stem().unwrap().to_string_lossy().into_owned();
        let package = format!("generated-{stem}");
        covered += crate::round_trip::write_cases(
            &out.path().join(&stem),
            &package,
            &generate_ir(&spec, None),
            crate::round_trip::SLOW_CASES,
        );
        round_trips.push(format!("{package}/mock"));
    }
    let newest = out.path().join("baseten-management-2026-08-22");
    std::fs::create_dir_all(newest.join("tests")).unwrap();
    std::fs::write(newest.join("tests/samples.rs"), SAMPLES).unwrap();
    let run = |args: &[&str]| {
        let output = baseten_tests::cargo_sharing_target()
            .current_dir(out.path())
            .args(args)
            .args(["--quiet", "--message-format", "short"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(
            output.status.success(),
            "cargo {args:?} failed:\n{stderr}\n{}",
            String::from_utf8_lossy(&output.stdout)
        );
        let warnings: Vec<&str> = stderr
            .lines()
            .filter(|line| line.contains("warning"))
            .collect();
        assert!(
            warnings.is_empty(),
            "cargo {args:?} warns:\n{}",
            warnings.join("\n")
        );
    };
    // Every crate is built once, with the fake's feature, by the round-trip run below (its
    // warnings fail the test as a check's would): a separate `cargo check` of the default
    // features compiled them all a second time. Builds without the fake are checked on the
    // fixtures (`any_document`) and on this newest document's crate (`consumers`).
    // With the fake's feature: the samples encode a response type back, which only the fake
    // needs outside tests (a response type's `Serialize` is behind `mock`).
    run(&[
        "test",
        "-p",
        "generated-baseten-management-2026-08-22",
        "--features",
        "mock",
        "--test",
        "samples",
    ]);
    let features = round_trips.join(",");
    let mut args = vec!["test", "--features", &features, "--test", "round_trip"];
    for package in &round_trips {
        args.extend(["-p", package.trim_end_matches("/mock")]);
    }
    let started = std::time::Instant::now();
    run(&args);
    eprintln!(
        "round trips: {covered} types of {} published documents, in {:.0?}",
        round_trips.len(),
        started.elapsed()
    );
}

/// The change report along Baseten's real update history, against committed expectations
/// (`UPDATE_GOLDEN=1` rewrites them).
#[test]
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared: Baseten's published documents and recorded responses"
)]
fn api_change_reports_along_the_dated_documents() {
    let Some(documents) = dated_management_documents() else {
        return;
    };
    let expected_dir = baseten_tests::tests_dir().join("fixtures/api-changes");
    for pair in documents.windows(2) {
        let [old, new] = pair else { continue };
        let date = |path: &PathBuf| {
            path.file_stem()
                .unwrap()
                .to_string_lossy()
                .trim_start_matches("baseten-management-")
                .to_owned()
        };
        let old_api = generate_ir(old, None);
        let new_api = generate_ir_locked(new, None, old_api.names.clone());
        let report = baseten_codegen::diff::api_changes(&old_api, &new_api)
            .unwrap_or_else(|error| panic!("{}: {error}", new.display()))
            .to_string();
        let path = expected_dir.join(format!("{}_to_{}.txt", date(old), date(new)));
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::create_dir_all(&expected_dir).unwrap();
            std::fs::write(&path, &report).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            report,
            expected,
            "{} differs; UPDATE_GOLDEN=1 rewrites it",
            path.display()
        );
    }
}
