//! The `baseten-metrics` CLI on Baseten's recorded responses (`../shared/recorded`): the one CLI
//! check that reads Baseten's published material, so it stays with the tests that do (the
//! CLI's own tests are `generated/cli/tests/cli/`).

use std::path::Path;

use baseten_api::metrics::{self, format_labels};
use baseten_api::models::GetModelMetricsResponseV1;
use baseten_tests::{CliOutput, cli_context, run_cli, shared_dir};

fn show(path: &Path, format: &str) -> CliOutput {
    run_cli(
        &["show", &path.to_string_lossy(), "--format", format],
        &cli_context(),
    )
}

fn decoded(path: &Path) -> GetModelMetricsResponseV1 {
    let bytes = std::fs::read(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    metrics::decode(&bytes).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// The drawn series of an SVG chart: per metric, each path's `data-labels` and `d`.
fn drawn_series(svg: &str) -> Vec<(String, Vec<(String, String)>)> {
    let document = roxmltree::Document::parse(svg).unwrap_or_else(|error| panic!("{error}\n{svg}"));
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    root.children()
        .filter(|node| node.has_tag_name("g") && node.attribute("class") == Some("metric"))
        .map(|group| {
            let paths = group
                .children()
                .filter(|node| {
                    node.has_tag_name("path") && node.attribute("class") == Some("series")
                })
                .map(|path| {
                    (
                        path.attribute("data-labels").unwrap_or_default().to_owned(),
                        path.attribute("d").unwrap_or_default().to_owned(),
                    )
                })
                .collect();
            (
                group
                    .attribute("data-metric")
                    .unwrap_or_default()
                    .to_owned(),
                paths,
            )
        })
        .collect()
}

/// Expects one panel per metric with label sets, and in it one path per label set, in order.
fn assert_one_path_per_label_set(svg: &str, response: &GetModelMetricsResponseV1) {
    let drawn = drawn_series(svg);
    let expected: Vec<(String, Vec<String>)> = response
        .metric_descriptors
        .iter()
        .filter(|d| !d.label_sets.is_empty())
        .map(|d| {
            (
                d.name.clone(),
                d.label_sets.iter().map(format_labels).collect(),
            )
        })
        .collect();
    let actual: Vec<(String, Vec<String>)> = drawn
        .iter()
        .map(|(name, paths)| {
            (
                name.clone(),
                paths.iter().map(|(labels, _)| labels.clone()).collect(),
            )
        })
        .collect();
    assert_eq!(actual, expected);
}

/// The points of a path's `d`, as runs (a new run at every `M`).
fn runs(d: &str) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    for command in d.split_whitespace() {
        let (kind, point) = command.split_at(1);
        let (x, y) = point.split_once(',').unwrap_or_else(|| panic!("{command}"));
        let point = (x.parse().unwrap(), y.parse().unwrap());
        match kind {
            "M" => runs.push(vec![point]),
            "L" => runs
                .last_mut()
                .unwrap_or_else(|| panic!("L before M in {d}"))
                .push(point),
            other => panic!("unexpected command {other} in {d}"),
        }
    }
    runs
}

#[test]
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared: Baseten's published documents and recorded responses"
)]
fn a_recorded_series_renders_as_svg_with_one_path_per_label_set() {
    let Some(dir) = shared_dir("recorded") else {
        return;
    };
    let input = dir.join("deployment-series-20m-requests.json");
    let output = show(&input, "svg");
    assert!(output.success(), "{}", output.stderr);
    let response = decoded(&input);
    assert_one_path_per_label_set(&output.stdout, &response);
    let drawn = drawn_series(&output.stdout);
    // Every step has data: one unbroken line through every step.
    let (_, paths) = &drawn[0];
    let view = metrics::validate(&response).unwrap();
    let line = runs(&paths[0].1);
    assert_eq!(line.len(), 1);
    assert_eq!(line[0].len(), view.step_count());
}
