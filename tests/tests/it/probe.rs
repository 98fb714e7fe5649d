//! The change report proved by the compiler: for each pair of documents (Baseten's consecutive
//! dated ones, and an authored pair per change class under `tests/fixtures/probe/`), a probe
//! emitted from the old crate's IR is type-checked against the crate `regen` generates from the
//! new document after the old one (keeping its names lock). It must compile exactly when the report names no breaking change that old code
//! cannot compile through, and every error must fall in the probe function of an item the
//! report names as such. Each crate's own probe compiles with no warnings.
//!
//! All crates are members of one temporary workspace checked by one `cargo check`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use baseten_codegen::diff::ChangeReport;
use baseten_codegen::ir::Api;
use baseten_codegen::probe::Probe;
use baseten_tests::{files_with_extension, shared_dir, tests_dir, workspace_root};

/// One document: its file name (for headers) and text.
#[derive(Clone)]
struct Document {
    name: String,
    text: String,
    /// Generated as after deleting the names lock: names derived afresh, as a first generation
    /// would give them (a fixture with an `unlocked` file marks its new document so, to
    /// exercise the changes the lock otherwise prevents).
    forgets_names: bool,
}

impl Document {
    fn read(path: &Path) -> Self {
        Document {
            name: path.file_name().unwrap().to_string_lossy().into_owned(),
            text: std::fs::read_to_string(path)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display())),
            forgets_names: false,
        }
    }

    fn input(&self) -> baseten_codegen::Input<'_> {
        baseten_codegen::Input {
            spec_path: &self.name,
            spec_text: &self.text,
            config_text: None,
        }
    }
}

fn ir(document: &Document) -> Api {
    baseten_codegen::build_ir(&document.input())
        .unwrap_or_else(|error| panic!("{}: {error}", document.name))
        .0
}

/// The config `regen` uses after generating `old`: keeping the names that generation gave
/// (its names lock), so that a newcomer's name collision never renames an old item.
fn config_after(old: &Api, new: &Document) -> baseten_codegen::Config {
    if new.forgets_names {
        return baseten_codegen::Config::default();
    }
    baseten_codegen::Config {
        names_lock: old.names.clone(),
        ..baseten_codegen::Config::default()
    }
}

/// The new document's IR as regenerating after `old` gives it.
fn new_ir_after(old: &Api, new: &Document) -> Api {
    baseten_codegen::build_ir_with(&new.input(), &config_after(old, new))
        .unwrap_or_else(|error| panic!("{}: {error}", new.name))
        .0
}

/// The crate regenerating after `old` writes for `new` (see [`new_ir_after`]).
fn new_crate_after(
    old: &Api,
    new: &Document,
    settings: &baseten_codegen::CrateSettings<'_>,
) -> BTreeMap<String, String> {
    baseten_codegen::generate_crate_with(&new.input(), &config_after(old, new), settings)
        .unwrap_or_else(|error| panic!("{}: {error}", new.name))
        .files
}

/// A probe against a generated crate, and what the compiler is expected to say about it.
struct ProbeCrate {
    /// What it checks, for messages: `2026-06-18 → 2026-06-19`, `fixture union-payload`.
    label: String,
    /// Its directory (and package) name in the workspace.
    dir: String,
    probe: Probe,
    /// The report for the pair; `None` for a crate's probe of itself, which must compile.
    report: Option<ChangeReport>,
}

/// The workspace being assembled.
struct Workspace {
    root: tempfile::TempDir,
    members: Vec<String>,
    probes: Vec<ProbeCrate>,
}

impl Workspace {
    fn new() -> Self {
        Workspace {
            root: tempfile::tempdir().unwrap(),
            members: Vec::new(),
            probes: Vec::new(),
        }
    }

    fn write(&self, relative: &str, contents: &str) {
        let path = self.root.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }

    /// Adds the crate generated for `new` after `old`, as package `dir`.
    fn add_generated(&mut self, dir: &str, old: &Api, new: &Document) {
        let runtime = workspace_root().join("codegen/runtime");
        let runtime = runtime.to_string_lossy().replace('\\', "/");
        let settings = baseten_codegen::CrateSettings {
            name: dir,
            runtime_path: &runtime,
            spec_name: &new.name,
            own_workspace: false,
        };
        for (relative, contents) in new_crate_after(old, new, &settings) {
            self.write(&format!("{dir}/{relative}"), &contents);
        }
        self.members.push(dir.to_owned());
    }

    /// Adds a probe of `api` against the generated crate `target`.
    fn add_probe(
        &mut self,
        label: String,
        dir: String,
        api: &Api,
        target: &str,
        report: Option<ChangeReport>,
    ) {
        let probe = baseten_codegen::probe::emit_probe(api, target)
            .unwrap_or_else(|error| panic!("{label}: {error}"));
        self.write(
            &format!("{dir}/Cargo.toml"),
            &format!(
                "[package]\nname = {dir:?}\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
                 [dependencies]\n{target} = {{ path = \"../{target}\", features = [\"mock\"] }}\nserde_json = \"1\"\n"
            ),
        );
        self.write(&format!("{dir}/src/lib.rs"), &probe.source);
        self.members.push(dir.clone());
        self.probes.push(ProbeCrate {
            label,
            dir,
            probe,
            report,
        });
    }

    /// One `cargo check` of every member; the compiler's messages per member directory.
    fn check(&self) -> BTreeMap<String, Vec<Diagnostic>> {
        let members: Vec<String> = self.members.iter().map(|m| format!("{m:?}")).collect();
        self.write(
            "Cargo.toml",
            &format!(
                "[workspace]\nresolver = \"3\"\nmembers = [{}]\n",
                members.join(", ")
            ),
        );
        // The workspace's lock file keeps dependency versions (and so build artifacts) shared.
        std::fs::copy(
            workspace_root().join("Cargo.lock"),
            self.root.path().join("Cargo.lock"),
        )
        .unwrap();
        let started = Instant::now();
        let output = baseten_tests::cargo_sharing_target()
            .current_dir(self.root.path())
            .args([
                "check",
                "--workspace",
                "--keep-going",
                "--quiet",
                "--message-format=json",
            ])
            .output()
            .unwrap();
        report_time(&format!(
            "probe: cargo check of {} crates took {:.1?}",
            self.members.len(),
            started.elapsed()
        ));
        let mut diagnostics: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
        for line in String::from_utf8_lossy(&output.stdout).lines() {
            let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if message["reason"] != "compiler-message" {
                continue;
            }
            let manifest = PathBuf::from(message["manifest_path"].as_str().unwrap_or_default());
            let member = manifest
                .parent()
                .and_then(Path::file_name)
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default();
            let inner = &message["message"];
            let primary = inner["spans"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|span| span["is_primary"] == true);
            diagnostics.entry(member).or_default().push(Diagnostic {
                level: inner["level"].as_str().unwrap_or_default().to_owned(),
                file: primary
                    .and_then(|span| span["file_name"].as_str())
                    .unwrap_or_default()
                    .to_owned(),
                line: primary
                    .and_then(|span| span["line_start"].as_u64())
                    .unwrap_or_default() as usize,
                rendered: inner["rendered"].as_str().unwrap_or_default().to_owned(),
            });
        }
        let generated_errors: Vec<String> = diagnostics
            .iter()
            .filter(|(member, _)| !self.probes.iter().any(|p| &p.dir == *member))
            .flat_map(|(member, list)| {
                list.iter()
                    .filter(|d| d.level == "error")
                    .map(move |d| format!("{member}: {}", d.rendered))
            })
            .collect();
        assert!(
            generated_errors.is_empty(),
            "a generated crate does not compile:\n{}",
            generated_errors.join("\n")
        );
        if !output.status.success() && diagnostics.is_empty() {
            panic!(
                "cargo check failed without compiler messages:\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        diagnostics
    }
}

/// Prints to the process's stderr itself: the test harness captures `eprintln!` of a passing
/// test, and the time should be in CI's log either way.
fn report_time(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// One compiler message.
#[derive(Debug)]
struct Diagnostic {
    level: String,
    file: String,
    line: usize,
    rendered: String,
}

/// What went wrong with one probe: empty when the compiler agreed with the report.
fn disagreements(probe: &ProbeCrate, diagnostics: &[Diagnostic]) -> Vec<String> {
    let errors: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.level == "error").collect();
    let warnings: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.level == "warning")
        .collect();
    // "aborting due to …" and the like carry no span.
    let located: Vec<&&Diagnostic> = errors.iter().filter(|d| !d.file.is_empty()).collect();
    let mut problems = Vec::new();
    // What the probe has no function for (a test builder, a metrics entry's support type, the
    // crate's fixed items) it can prove neither way.
    let probed: BTreeSet<&str> = probe
        .probe
        .functions
        .iter()
        .map(|(_, item)| item.as_str())
        .collect();
    let expected: BTreeSet<&str> = probe
        .report
        .as_ref()
        // The probe builds with the fake (`mock`) and every area, so an impl that now needs the
        // fake, or an item that left one area, still compiles.
        .map(ChangeReport::items_failing_to_compile_with_every_feature)
        .unwrap_or_default()
        .intersection(&probed)
        .copied()
        .collect();
    if errors.is_empty() {
        if !expected.is_empty() {
            problems.push(format!(
                "the probe compiles, but the report says these items break: {}",
                expected.iter().copied().collect::<Vec<_>>().join(", ")
            ));
        }
        for warning in warnings {
            problems.push(format!("warning: {}", warning.rendered));
        }
        return problems;
    }
    let mut failing: BTreeSet<&str> = BTreeSet::new();
    for error in located {
        // Spans name files relative to the workspace root.
        let item = (error.file == format!("{}/src/lib.rs", probe.dir))
            .then(|| probe.probe.item_at_line(error.line))
            .flatten();
        failing.extend(item);
        match item {
            Some(item) if expected.contains(item) => {}
            Some(item) => problems.push(format!(
                "{item} fails to compile, but the report names no breaking change of it:\n{}",
                error.rendered
            )),
            None => problems.push(format!(
                "an error outside every probe function:\n{}",
                error.rendered
            )),
        }
    }
    if expected.is_empty() {
        problems.push("the report names no breaking change, but the probe fails".to_owned());
    }
    // And the other way round: an item the report says old code cannot compile against is
    // one the compiler rejects.
    let unproved: Vec<&str> = expected.difference(&failing).copied().collect();
    if !unproved.is_empty() {
        problems.push(format!(
            "the report says these items break, but their probe functions compile: {}",
            unproved.join(", ")
        ));
    }
    problems
}

fn fixture_pairs() -> Vec<(String, Document, Document)> {
    let dir = tests_dir().join("fixtures/probe");
    let mut classes: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
        .collect();
    classes.sort();
    let mut pairs = Vec::new();
    for class in classes {
        let name = class.file_name().unwrap().to_string_lossy().into_owned();
        let old = Document::read(&class.join("old.yaml"));
        let new = Document::read(&class.join("new.yaml"));
        // A class marked `unlocked` runs both ways: without the lock (what it exercises) and
        // with it (`<class>+locked`, whose report is `report-locked.txt`).
        if class.join("unlocked").exists() {
            pairs.push((format!("{name}+locked"), old.clone(), new.clone()));
            let forgetting = Document {
                forgets_names: true,
                ..new
            };
            pairs.push((name, old, forgetting));
        } else {
            pairs.push((name, old, new));
        }
    }
    pairs
}

fn dated_pairs() -> Vec<(String, Document, Document)> {
    let Some(dir) = shared_dir("specs") else {
        return Vec::new();
    };
    let documents: Vec<PathBuf> = files_with_extension(&dir, "json")
        .into_iter()
        .filter(|path| {
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("baseten-management-"))
        })
        .collect();
    assert_eq!(documents.len(), 5, "five dated management documents");
    let date = |path: &PathBuf| {
        path.file_stem()
            .unwrap()
            .to_string_lossy()
            .trim_start_matches("baseten-management-")
            .to_owned()
    };
    documents
        .windows(2)
        .filter_map(|pair| match pair {
            [old, new] => Some((
                format!("{}-to-{}", date(old), date(new)),
                Document::read(old),
                Document::read(new),
            )),
            _ => None,
        })
        .collect()
}

/// Each fixture's report against `report.txt` beside it (`UPDATE_GOLDEN=1` rewrites them), so
/// that what each class exercises is pinned too.
fn check_fixture_report(class: &str, report: &ChangeReport) {
    let path = match class.strip_suffix("+locked") {
        Some(class) => tests_dir().join(format!("fixtures/probe/{class}/report-locked.txt")),
        None => tests_dir().join(format!("fixtures/probe/{class}/report.txt")),
    };
    let text = report.to_string();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        text,
        expected,
        "{} differs; UPDATE_GOLDEN=1 rewrites it",
        path.display()
    );
}

#[test]
#[ignore = "slow: compiles the change probe's crates, fixture and dated pairs"]
fn the_compiler_agrees_with_the_change_report() {
    let started = Instant::now();
    let mut workspace = Workspace::new();
    let fixtures = fixture_pairs();
    assert!(fixtures.len() >= 10, "a fixture pair per change class");
    let dated = dated_pairs();
    for (kind, pairs) in [("fixture", &fixtures), ("dated", &dated)] {
        for (index, (name, old, new)) in pairs.iter().enumerate() {
            let old_api = ir(old);
            let new_api = new_ir_after(&old_api, new);
            let report = baseten_codegen::diff::api_changes(&old_api, &new_api)
                .unwrap_or_else(|error| panic!("{kind} {name}: {error}"));
            if kind == "fixture" {
                check_fixture_report(name, &report);
            }
            // A package name, so `variant-rename+locked` is `variant-rename-locked`.
            let package = name.replace('+', "-");
            let target = format!("new-{package}");
            workspace.add_generated(&target, &old_api, new);
            workspace.add_probe(
                format!("{kind} {name}"),
                format!("probe-{package}"),
                &old_api,
                &target,
                Some(report),
            );
            // Every fixture's own probe (they are small); of the dated documents only the
            // newest one's, as the others cost a full-size crate each and their pair probes
            // already compile against real documents.
            if kind == "dated" && index + 1 != pairs.len() {
                continue;
            }
            workspace.add_probe(
                format!("{kind} {name}: the new crate's own probe"),
                format!("self-{package}"),
                &new_api,
                &target,
                None,
            );
        }
    }
    let diagnostics = workspace.check();
    let mut failures = Vec::new();
    for probe in &workspace.probes {
        let problems = disagreements(
            probe,
            diagnostics.get(&probe.dir).map_or(&[], Vec::as_slice),
        );
        if !problems.is_empty() {
            failures.push(format!("{}:\n  {}", probe.label, problems.join("\n  ")));
        }
    }
    report_time(&format!(
        "probe: {} probes checked in {:.1?} in all",
        workspace.probes.len(),
        started.elapsed()
    ));
    assert!(
        failures.is_empty(),
        "the compiler disagrees with the change report:\n\n{}",
        failures.join("\n\n")
    );
}

/// Every line of a probe function maps to its item, and nothing before the first one does.
#[test]
fn probe_lines_map_back_to_their_items() {
    let document = Document::read(&tests_dir().join("fixtures/probe/additive-request/new.yaml"));
    let probe = baseten_codegen::probe::emit_probe(&ir(&document), "some-crate").unwrap();
    let lines: Vec<&str> = probe.source.lines().collect();
    let mut seen = BTreeSet::new();
    let mut current: Option<&str> = None;
    for (index, line) in lines.iter().enumerate() {
        if let Some(rest) = line
            .strip_prefix("pub fn ")
            .or_else(|| line.strip_prefix("pub async fn "))
        {
            let name = rest.split('(').next().unwrap();
            current = probe
                .functions
                .iter()
                .find(|(function, _)| function == name)
                .map(|(_, item)| item.as_str());
            assert!(current.is_some(), "{name} is no probe function");
            seen.extend(current);
        }
        assert_eq!(probe.item_at_line(index + 1), current, "line {}", index + 1);
    }
    let items: BTreeSet<&str> = probe
        .functions
        .iter()
        .map(|(_, item)| item.as_str())
        .collect();
    assert_eq!(seen, items, "every item has a function in the source");
    for item in [
        "models::ModelV1",
        "models::EventV1",
        "models::ModelStatusV1",
        "Client::get_models",
        "operations::GetModelsQuery",
    ] {
        assert!(items.contains(item), "{item} is probed");
    }
    assert!(
        baseten_codegen::probe::emit_probe(&ir(&document), "not a crate").is_err(),
        "a crate name no path can name is an error"
    );
}
