//! Reading the CLI's SVG charts back as XML: the series each panel draws, one path per label
//! set, and a path's points as runs. Shared with the workspace's check on Baseten's recorded
//! responses (`tests/tests/it/cli_recorded.rs` includes this file by path).

use baseten_api::metrics::format_labels;
use baseten_api::models::GetModelMetricsResponseV1;

/// The drawn series of an SVG chart: per metric, each path's `data-labels` and `d`.
pub fn drawn_series(svg: &str) -> Vec<(String, Vec<(String, String)>)> {
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
pub fn assert_one_path_per_label_set(svg: &str, response: &GetModelMetricsResponseV1) {
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
pub fn runs(d: &str) -> Vec<Vec<(f64, f64)>> {
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
