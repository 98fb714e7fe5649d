//! The runtime's two layers: the generic one (client, retries, errors, pagination, decoding,
//! `Patch`, `Decimal`, tagged unions, the fake's machinery) never names the metrics layer above
//! it (index-mapped responses, typestate requests, metric names, the fake's metrics responses),
//! neither by module nor through a name the crate root re-exports from it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The metrics layer's modules, as the crate root declares them.
const METRICS_MODULES: &[&str] = &["index_mapped", "metric_names", "metrics", "requests"];
/// The metrics layer's other files: the fake's metrics responses, and the test-only models that
/// stand in for a generated crate's index-mapped types.
const METRICS_FILES: &[&str] = &["mock/metrics.rs", "test_models.rs"];

fn runtime_src() -> PathBuf {
    crate::workspace_root().join("codegen/runtime/src")
}

/// Every `.rs` file under `dir`, relative to it, with `/` separators.
fn sources(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if path.is_dir() {
            sources(&path, &format!("{prefix}{name}/"), out);
        } else if name.ends_with(".rs") {
            out.push(format!("{prefix}{name}"));
        }
    }
}

fn is_metrics_file(file: &str) -> bool {
    METRICS_FILES.contains(&file)
        || METRICS_MODULES
            .iter()
            .any(|module| file == format!("{module}.rs") || file.starts_with(&format!("{module}/")))
}

/// The names the crate root re-exports from the metrics layer (`pub use requests::{Window, …}`).
fn reexported_metrics_names(lib: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut statement = String::new();
    for line in lib.lines() {
        let line = line.trim();
        if statement.is_empty() && !line.starts_with("pub use ") {
            continue;
        }
        statement.push_str(line);
        statement.push(' ');
        if !line.ends_with(';') {
            continue;
        }
        let path = statement.trim_start_matches("pub use ").trim();
        let from_metrics = METRICS_MODULES
            .iter()
            .any(|module| path.starts_with(&format!("{module}::")));
        if from_metrics {
            let items = path.split_once("::").map_or("", |(_, rest)| rest);
            names.extend(identifiers(items));
        }
        statement.clear();
    }
    names
}

fn identifiers(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|word| !word.is_empty() && word != &"self" && word != &"as")
        .map(str::to_owned)
        .collect()
}

/// What `text` names of the metrics layer after `crate::` (a path, a `use` group, a doc link).
fn references(text: &str, forbidden: &BTreeSet<String>) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        let named: Vec<String> = if rest.starts_with('{') {
            let group = rest.find('}').map_or(rest, |end| &rest[..end]);
            identifiers(group)
        } else {
            identifiers(rest).into_iter().take(1).collect()
        };
        found.extend(named.into_iter().filter(|name| forbidden.contains(name)));
    }
    found
}

fn check_layers(src: &Path) -> Vec<String> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let mut forbidden = reexported_metrics_names(&lib);
    forbidden.extend(METRICS_MODULES.iter().map(|module| (*module).to_owned()));
    let mut files = Vec::new();
    sources(src, "", &mut files);
    let mut violations = Vec::new();
    for file in files
        .iter()
        .filter(|file| *file != "lib.rs" && !is_metrics_file(file))
    {
        let text = std::fs::read_to_string(src.join(file)).unwrap();
        for (number, line) in text.lines().enumerate() {
            for name in references(line, &forbidden) {
                violations.push(format!("{file}:{}: names `{name}`", number + 1));
            }
        }
    }
    violations
}

#[test]
fn the_generic_runtime_never_names_the_metrics_layer() {
    let violations = check_layers(&runtime_src());
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn the_check_sees_every_way_of_naming_the_layer() {
    let forbidden: BTreeSet<String> = ["requests", "Window", "metrics"]
        .into_iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(
        references("use crate::requests::ResponseError;", &forbidden),
        ["requests"]
    );
    assert_eq!(
        references("use crate::{Error, Window};", &forbidden),
        ["Window"]
    );
    assert_eq!(
        references("/// see [`decode`](crate::metrics::decode)", &forbidden),
        ["metrics"]
    );
    assert!(references("use crate::server_text::ServerText;", &forbidden).is_empty());
    assert!(references("use crate::Error; // not crate::requested", &forbidden).is_empty());
    let lib = "pub use requests::{\n    Metrics, Window,\n};\npub use error::Error;\n";
    assert_eq!(
        reexported_metrics_names(lib)
            .into_iter()
            .collect::<Vec<_>>(),
        ["Metrics", "Window"]
    );
    assert!(is_metrics_file("metrics/view.rs") && is_metrics_file("mock/metrics.rs"));
    assert!(!is_metrics_file("mock.rs") && !is_metrics_file("decode/mod.rs"));
}

#[test]
fn a_generic_module_naming_the_metrics_layer_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("lib.rs"),
        "mod client;\npub mod requests;\npub use requests::Window;\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("requests.rs"), "use crate::client::X;\n").unwrap();
    std::fs::write(dir.path().join("client.rs"), "fn f(_: crate::Window) {}\n").unwrap();
    assert_eq!(check_layers(dir.path()), ["client.rs:1: names `Window`"]);
}

/// The generator, not the runtime, maps a document's unit hints and modes onto the metrics
/// layer's `Unit` and `MetricsMode`: every value of the crate's enums lands on the runtime value
/// of the same wire name, and one the runtime does not know on none.
#[test]
fn generated_conversions_map_every_wire_value_onto_the_runtime_vocabulary() {
    use baseten_api::metrics::Unit;
    use baseten_api::models::{GetModelMetricsResponseV1, ModelMetricDescriptorV1};
    use baseten_api::{
        metrics::IndexMappedDescriptor as _, metrics::IndexMappedResponse as _,
        requests::MetricsMode,
    };

    let unit = |hint: &str| {
        let json =
            format!(r#"{{"name": "m", "unit_hint": "{hint}", "kind": "GAUGE", "label_sets": []}}"#);
        serde_json::from_str::<ModelMetricDescriptorV1>(&json)
            .unwrap()
            .unit()
    };
    for (hint, expected) in [
        ("PER_SECOND", Unit::PerSecond),
        ("SECONDS", Unit::Seconds),
        ("BYTES", Unit::Bytes),
        ("MEBIBYTES", Unit::Mebibytes),
        ("COUNT", Unit::Count),
        ("RATIO", Unit::Ratio),
        ("WATTS", Unit::Unknown),
        ("seconds", Unit::Unknown),
    ] {
        assert_eq!(unit(hint), expected, "{hint}");
    }
    let mode = |mode: &str| {
        let json = format!(
            r#"{{"mode": "{mode}", "start_epoch_millis": 0, "end_epoch_millis": 1, "step_seconds": null, "metric_descriptors": [], "metric_values": []}}"#
        );
        serde_json::from_str::<GetModelMetricsResponseV1>(&json)
            .unwrap()
            .mode()
    };
    assert_eq!(mode("CURRENT"), Some(MetricsMode::Current));
    assert_eq!(mode("SUMMARY"), Some(MetricsMode::Summary));
    assert_eq!(mode("SERIES"), Some(MetricsMode::Series));
    assert_eq!(mode("HOURLY"), None);
}
