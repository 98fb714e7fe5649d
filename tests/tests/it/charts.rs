//! The library's SVG charts and wide CSV, checked by their properties on recorded and synthetic
//! responses: nice ticks inside the axis, tick labels in one format, round time ticks, finite
//! coordinates inside the view box, a legend entry per series, gaps at nulls, escaped text.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use baseten_api::metrics::{self, format_labels};
use baseten_api::models::GetModelMetricsResponseV1;
use baseten_charts::SvgChart;
use baseten_tests::{shared_dir, workspace_root};
use roxmltree::{Document, Node};
use serde_json::{Value, json};

/// A path's points, a run per `M`.
type Runs = Vec<Vec<(f64, f64)>>;

/// One metric of [`series_json`]: name, unit hint, label sets, and the value at (step, label
/// set).
type MetricSpec<'a> = (
    &'a str,
    &'a str,
    Vec<Value>,
    &'a dyn Fn(usize, usize) -> Option<f64>,
);

/// What a chart says about one panel, read back from its SVG.
#[derive(Debug)]
struct PanelFacts {
    metric: String,
    title: String,
    /// Each y tick: its label and its grid line's y.
    y_ticks: Vec<(String, f64)>,
    /// Each x tick: its label and x.
    x_ticks: Vec<(String, f64)>,
    legend: Vec<String>,
    /// Per series: its `data-labels` and its path's runs of points.
    series: Vec<(String, Runs)>,
}

fn number(text: &str) -> f64 {
    text.parse()
        .unwrap_or_else(|_| panic!("{text:?} is not a number"))
}

fn attribute(node: Node<'_, '_>, name: &str) -> f64 {
    number(node.attribute(name).unwrap_or_default())
}

/// The children of `parent` of class `class`.
fn of_class<'a, 'input>(parent: Node<'a, 'input>, class: &str) -> Vec<Node<'a, 'input>> {
    parent
        .children()
        .filter(|node| node.attribute("class") == Some(class))
        .collect()
}

fn runs(d: &str) -> Runs {
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    for command in d.split_whitespace() {
        let (kind, point) = command.split_at(1);
        let (x, y) = point.split_once(',').unwrap_or_else(|| panic!("{command}"));
        let point = (number(x), number(y));
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

/// Parses `svg`, checks what holds for every chart (well-formed XML, every coordinate finite
/// and inside the view box, no element but the chart's own), and reads each panel's facts.
fn check(svg: &str) -> Vec<PanelFacts> {
    let document = Document::parse(svg).unwrap_or_else(|error| panic!("{error}\n{svg}"));
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let view_box: Vec<f64> = root
        .attribute("viewBox")
        .unwrap_or_default()
        .split(' ')
        .map(number)
        .collect();
    let [0.0, 0.0, width, height] = view_box[..] else {
        panic!("viewBox {view_box:?}");
    };
    let inside_x = |x: f64| x.is_finite() && (0.0..=width).contains(&x);
    let inside_y = |y: f64| y.is_finite() && (0.0..=height).contains(&y);
    for node in document.descendants().filter(Node::is_element) {
        let name = node.tag_name().name();
        assert!(
            ["svg", "rect", "g", "text", "line", "path", "circle"].contains(&name),
            "unexpected element <{name}>"
        );
        for attr in node.attributes() {
            match attr.name() {
                "x" | "cx" | "x1" | "x2" | "width" => {
                    assert!(
                        inside_x(number(attr.value())),
                        "{}={}",
                        attr.name(),
                        attr.value()
                    )
                }
                "y" | "cy" | "y1" | "y2" | "height" => {
                    assert!(
                        inside_y(number(attr.value())),
                        "{}={}",
                        attr.name(),
                        attr.value()
                    )
                }
                "d" => {
                    for (x, y) in runs(attr.value()).concat() {
                        assert!(inside_x(x) && inside_y(y), "({x}, {y}) in {}", attr.value());
                    }
                }
                _ => {}
            }
        }
    }
    root.children()
        .filter(|node| node.attribute("class") == Some("metric"))
        .map(|group| {
            let text = |node: &Node<'_, '_>| node.text().unwrap_or_default().to_owned();
            let grid: Vec<Node<'_, '_>> = of_class(group, "grid");
            let horizontal: Vec<f64> = grid
                .iter()
                .filter(|line| line.attribute("y1") == line.attribute("y2"))
                .map(|line| attribute(*line, "y1"))
                .collect();
            let y_labels: Vec<String> = of_class(group, "y-tick").iter().map(text).collect();
            assert_eq!(y_labels.len(), horizontal.len(), "a grid line per y tick");
            PanelFacts {
                metric: group
                    .attribute("data-metric")
                    .unwrap_or_default()
                    .to_owned(),
                title: of_class(group, "title")
                    .first()
                    .map(text)
                    .unwrap_or_default(),
                y_ticks: y_labels.into_iter().zip(horizontal).collect(),
                x_ticks: of_class(group, "x-tick")
                    .iter()
                    .map(|node| (text(node), attribute(*node, "x")))
                    .collect(),
                legend: of_class(group, "legend").iter().map(text).collect(),
                series: of_class(group, "series")
                    .iter()
                    .map(|path| {
                        (
                            path.attribute("data-labels").unwrap_or_default().to_owned(),
                            runs(path.attribute("d").unwrap_or_default()),
                        )
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The number of a y tick label and its unit, e.g. `("250", " ms")`, `("1.5", "k/s")`.
fn split_label(label: &str) -> (&str, &str) {
    let end = label
        .char_indices()
        .find(|&(at, c)| !(c.is_ascii_digit() || c == '.' || c == '-' || (c == 'e' && at > 0)))
        .map_or(label.len(), |(at, _)| at);
    label.split_at(end)
}

/// The y ticks of a panel are nice numbers in one format, evenly spaced, and every point lies
/// between the lowest and the highest.
fn assert_nice_value_axis(panel: &PanelFacts) {
    let ticks = &panel.y_ticks;
    assert!(ticks.len() >= 2, "{}: {ticks:?}", panel.metric);
    let numbers: Vec<(&str, &str)> = ticks.iter().map(|(label, _)| split_label(label)).collect();
    let values: Vec<f64> = numbers.iter().map(|(n, _)| number(n)).collect();
    // One format: the same decimals everywhere (or an exponent everywhere), the same unit but
    // for a bare 0.
    let decimals = |n: &str| n.split_once('.').map_or(0, |(_, fraction)| fraction.len());
    let plain: Vec<&(&str, &str)> = numbers.iter().filter(|(n, _)| *n != "0").collect();
    for (n, unit) in &plain {
        assert_eq!(decimals(n), decimals(plain[0].0), "{ticks:?}");
        assert_eq!(unit, &plain[0].1, "{ticks:?}");
        assert_eq!(n.contains('e'), plain[0].0.contains('e'), "{ticks:?}");
    }
    // A 1-2-5 step, the same between every pair, and the lines evenly spaced going up.
    let step = values[1] - values[0];
    let mantissa = step / 10f64.powf(step.log10().floor());
    assert!(
        [1.0, 2.0, 5.0].iter().any(|m| (mantissa - m).abs() < 1e-6),
        "step {step} of {ticks:?}"
    );
    let gap = ticks[0].1 - ticks[1].1;
    assert!(gap > 0.0, "{ticks:?}");
    for (pair, lines) in values.windows(2).zip(ticks.windows(2)) {
        assert!(
            ((pair[1] - pair[0]) - step).abs() <= step * 1e-6,
            "{ticks:?}"
        );
        assert!(((lines[0].1 - lines[1].1) - gap).abs() < 0.02, "{ticks:?}");
    }
    let (bottom, top) = (ticks[0].1, ticks[ticks.len() - 1].1);
    for (_, runs) in &panel.series {
        for (_, y) in runs.concat() {
            assert!(
                (top..=bottom).contains(&y),
                "{}: y {y} outside the ticks",
                panel.metric
            );
        }
    }
}

/// The time ticks are in one format, evenly spaced, at round times.
fn assert_round_time_axis(panel: &PanelFacts) {
    let ticks = &panel.x_ticks;
    assert!(!ticks.is_empty(), "{}", panel.metric);
    let shape = |label: &str| -> String {
        label
            .chars()
            .map(|c| if c.is_ascii_digit() { '9' } else { c })
            .collect()
    };
    for (label, _) in ticks {
        assert_eq!(shape(label), shape(&ticks[0].0), "{ticks:?}");
        let known = ["99:99", "99:99:99", "99:99:99.999", "9999-99-99"];
        // Across midnight a time of day is preceded by its day, `MM-DD `.
        let time = shape(label).strip_prefix("99-99 ").map(str::to_owned);
        assert!(
            known.contains(&shape(label).as_str())
                || time.is_some_and(|time| known[..3].contains(&time.as_str())),
            "{label}"
        );
    }
    for pair in ticks.windows(2).collect::<Vec<_>>().windows(2) {
        let (a, b) = (pair[0][1].1 - pair[0][0].1, pair[1][1].1 - pair[1][0].1);
        assert!((a - b).abs() < 0.02, "{ticks:?}");
    }
    // Minutes ticks fall on a whole number of minutes that divides the hour.
    let time_of_day = shape(&ticks[0].0).trim_start_matches("99-99 ").to_owned();
    if time_of_day == "99:99" && ticks.len() >= 2 {
        let minutes = |label: &str| -> i64 {
            let label = label.rsplit(' ').next().unwrap_or_default();
            let (h, m) = label.split_once(':').unwrap_or_default();
            h.parse::<i64>().unwrap_or(0) * 60 + m.parse::<i64>().unwrap_or(0)
        };
        let step = (minutes(&ticks[1].0) - minutes(&ticks[0].0)).rem_euclid(24 * 60);
        assert!(
            [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720].contains(&step),
            "{ticks:?}"
        );
        assert_eq!(minutes(&ticks[0].0) % step, 0, "{ticks:?}");
    }
}

/// The legend names each series by its labels, in order.
fn assert_legend_names_each_series(panel: &PanelFacts) {
    let expected: Vec<String> = panel
        .series
        .iter()
        .map(|(labels, _)| {
            if labels.is_empty() {
                "(no labels)".to_owned()
            } else {
                labels.clone()
            }
        })
        .collect();
    assert_eq!(panel.legend, expected, "{}", panel.metric);
}

fn decode(json: &[u8]) -> GetModelMetricsResponseV1 {
    metrics::decode(json).unwrap_or_else(|error| panic!("{error}"))
}

fn chart(response: &GetModelMetricsResponseV1) -> Vec<PanelFacts> {
    let view = metrics::validate(response).unwrap_or_else(|error| panic!("{error}"));
    let panels = check(&view.to_svg_chart());
    let with_series = view.metrics().filter(|m| !m.label_sets.is_empty()).count();
    assert_eq!(panels.len(), with_series);
    for (panel, metric) in panels
        .iter()
        .zip(view.metrics().filter(|m| !m.label_sets.is_empty()))
    {
        assert_eq!(panel.metric, metric.name);
        let labels: Vec<String> = metric.series().map(|s| format_labels(s.labels)).collect();
        let drawn: Vec<String> = panel.series.iter().map(|(l, _)| l.clone()).collect();
        assert_eq!(drawn, labels);
        // A metric alone charts as the same panel.
        let alone = check(&metric.to_svg_chart());
        assert_eq!(alone.len(), 1);
        assert_eq!(alone[0].legend, panel.legend);
    }
    panels
}

/// A SERIES response: one metric per entry of `metrics`, (name, unit, label sets, values per
/// step and label set), `steps` steps of `step_s` from `start_ms`.
fn series_json(start_ms: i64, step_s: i64, steps: usize, metrics: &[MetricSpec<'_>]) -> Vec<u8> {
    let descriptors: Vec<Value> = metrics
        .iter()
        .map(|(name, unit, labels, _)| {
            json!({"name": name, "unit_hint": unit, "kind": "GAUGE", "label_sets": labels})
        })
        .collect();
    let values: Vec<Value> = (0..steps)
        .map(|step| {
            let lists: Vec<Vec<Option<f64>>> = metrics
                .iter()
                .map(|(_, _, labels, value)| (0..labels.len()).map(|l| value(step, l)).collect())
                .collect();
            json!({"start_epoch_millis": start_ms + step as i64 * step_s * 1000, "values": lists})
        })
        .collect();
    serde_json::to_vec(&json!({
        "start_epoch_millis": start_ms,
        "end_epoch_millis": start_ms + steps as i64 * step_s * 1000,
        "mode": "SERIES", "step_seconds": step_s,
        "metric_descriptors": descriptors, "metric_values": values,
    }))
    .unwrap_or_default()
}

/// 2026-07-04T19:00:00Z, plus a little, so that no tick falls on the window's start.
const T0: i64 = 1_783_191_600_000 + 12_345;

#[test]
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared: Baseten's published documents and recorded responses"
)]
fn recorded_responses_chart_with_nice_axes_and_a_legend() {
    let Some(dir) = shared_dir("recorded") else {
        return;
    };
    for name in [
        "deployment-series-20m-requests",
        "deployment-summary-15m-ingest-lag",
        "deployment-summary-15m-traffic",
        "deployment-summary-6h-rest",
    ] {
        let bytes = std::fs::read(dir.join(format!("{name}.json"))).unwrap_or_default();
        let panels = chart(&decode(&bytes));
        assert!(!panels.is_empty(), "{name}");
        for panel in &panels {
            assert_nice_value_axis(panel);
            assert_round_time_axis(panel);
            assert_legend_names_each_series(panel);
        }
    }
}

#[test]
fn units_are_scaled_and_named_in_the_title() {
    let gib = 1024.0 * 1024.0 * 1024.0;
    let json = series_json(
        T0,
        60,
        30,
        &[
            (
                "latency",
                "SECONDS",
                vec![json!({"quantile": "0.99"})],
                &|s, _| Some(0.05 + s as f64 * 0.01),
            ),
            ("memory", "BYTES", vec![json!({})], &|s, _| {
                Some(gib * (1.0 + s as f64 / 10.0))
            }),
            ("gpu_memory", "MEBIBYTES", vec![json!({})], &|s, _| {
                Some(512.0 + s as f64)
            }),
            ("cpu", "RATIO", vec![json!({})], &|s, _| {
                Some(s as f64 / 40.0)
            }),
            ("requests", "COUNT", vec![json!({})], &|s, _| {
                Some(1000.0 * s as f64)
            }),
            ("rate", "PER_SECOND", vec![json!({})], &|s, _| {
                Some(2e6 + s as f64)
            }),
        ],
    );
    let panels = chart(&decode(&json));
    let units: Vec<(&str, &str)> = panels
        .iter()
        .map(|panel| {
            let unit = split_label(&panel.y_ticks[1].0).1;
            (panel.title.as_str(), unit)
        })
        .collect();
    assert_eq!(
        units,
        [
            ("latency (ms)", " ms"),
            ("memory (GiB)", " GiB"),
            ("gpu_memory (MiB)", " MiB"),
            ("cpu (%)", "%"),
            ("requests (count)", "k"),
            ("rate (/s)", "M/s")
        ]
    );
    for panel in &panels {
        assert_nice_value_axis(panel);
        assert_round_time_axis(panel);
        assert_legend_names_each_series(panel);
    }
    // 30 minutes: ticks every 5 minutes.
    let times: Vec<&str> = panels[0].x_ticks.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(
        times,
        ["19:05", "19:10", "19:15", "19:20", "19:25", "19:30"]
    );
}

#[test]
fn times_of_day_across_midnight_name_their_day() {
    // 22:00 to 04:00 UTC at 5 minutes.
    let start = 1_783_202_400_000 + 12_345;
    let json = series_json(
        start,
        300,
        72,
        &[("m", "COUNT", vec![json!({})], &|s, _| Some(s as f64))],
    );
    let panels = chart(&decode(&json));
    assert_round_time_axis(&panels[0]);
    let labels: Vec<&str> = panels[0].x_ticks.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(labels[0], "07-04 23:00");
    assert!(labels.contains(&"07-05 00:00"), "{labels:?}");
}

#[test]
fn many_series_over_a_long_window_with_nulls() {
    let labels: Vec<Value> = (0..20)
        .map(|i| json!({"environment": format!("env-{i:02}"), "region": "us-east-1"}))
        .collect();
    // A week at 15 minutes; every 7th value of a series is missing.
    let json = series_json(
        T0,
        900,
        7 * 24 * 4,
        &[("baseten_replicas_active", "COUNT", labels, &|s, l| {
            ((s + l) % 7 != 0).then(|| (l as f64) + (s as f64 / 50.0).sin())
        })],
    );
    let response = decode(&json);
    let panels = chart(&response);
    let panel = &panels[0];
    assert_nice_value_axis(panel);
    assert_round_time_axis(panel);
    assert_legend_names_each_series(panel);
    assert_eq!(panel.legend.len(), 20);
    assert_eq!(panel.x_ticks[0].0, "2026-07-05");
    // Each null breaks the line: runs = stretches of consecutive values.
    let view = metrics::validate(&response).unwrap_or_else(|error| panic!("{error}"));
    for ((_, runs), series) in panel.series.iter().zip(view.all_series()) {
        let values: Vec<bool> = series.points().map(|p| p.value.is_some()).collect();
        let stretches = values
            .iter()
            .enumerate()
            .filter(|&(at, &some)| some && (at == 0 || !values[at - 1]))
            .count();
        assert_eq!(runs.len(), stretches);
        assert_eq!(runs.concat().len(), values.iter().filter(|v| **v).count());
    }
}

#[test]
fn a_null_breaks_the_line_and_a_lone_point_is_a_dot() {
    let values = [
        Some(1.0),
        Some(2.0),
        None,
        Some(3.0),
        None,
        None,
        Some(1.5),
        Some(2.5),
    ];
    let json = series_json(
        T0,
        30,
        values.len(),
        &[("m", "COUNT", vec![json!({})], &|s, _| values[s])],
    );
    let response = decode(&json);
    let view = metrics::validate(&response).unwrap_or_else(|error| panic!("{error}"));
    let svg = view.to_svg_chart();
    let panels = check(&svg);
    let lengths: Vec<usize> = panels[0].series[0].1.iter().map(Vec::len).collect();
    assert_eq!(lengths, [2, 1, 2]);
    assert_eq!(svg.matches("<circle").count(), 1);
}

#[test]
fn edge_values_give_finite_charts() {
    let tiny = f64::from_bits(1);
    let cases: [&[Option<f64>]; 8] = [
        &[Some(f64::MAX), Some(-f64::MAX)],
        &[Some(-f64::MAX), Some(f64::MIN_POSITIVE), Some(f64::MAX)],
        &[Some(0.0), Some(tiny)],
        &[None, None, None],
        &[Some(3.0)],
        &[Some(7.0), Some(7.0), Some(7.0)],
        &[Some(1e16), Some(1e16 + 2.0)],
        &[Some(-5.0), None, Some(-5.0)],
    ];
    for values in cases {
        for unit in [
            "COUNT",
            "SECONDS",
            "MEBIBYTES",
            "RATIO",
            "PER_SECOND",
            "NEW_UNIT",
        ] {
            let json = series_json(
                T0,
                30,
                values.len(),
                &[("m", unit, vec![json!({})], &|s, _| values[s])],
            );
            let panels = chart(&decode(&json));
            assert!(!panels[0].y_ticks.is_empty(), "{values:?} {unit}");
        }
    }
    // No data says so.
    let json = series_json(T0, 30, 3, &[("m", "COUNT", vec![json!({})], &|_, _| None)]);
    let response = decode(&json);
    let view = metrics::validate(&response).unwrap_or_else(|error| panic!("{error}"));
    assert!(view.to_svg_chart().contains(">no data<"));
    // A window at the end of time.
    let json = series_json(
        i64::MAX - 90_000,
        30,
        3,
        &[("m", "COUNT", vec![json!({})], &|s, _| Some(s as f64))],
    );
    let panels = chart(&decode(&json));
    assert_nice_value_axis(&panels[0]);
}

#[test]
fn text_from_the_server_is_escaped_never_markup() {
    let hostile = "</text><script>alert(1)</script>&amp;\u{1b}[31m\u{202e}";
    let json = series_json(
        T0,
        30,
        2,
        &[(
            hostile,
            "COUNT",
            vec![json!({ hostile: hostile })],
            &|s, _| Some(s as f64),
        )],
    );
    let response = decode(&json);
    let view = metrics::validate(&response).unwrap_or_else(|error| panic!("{error}"));
    let svg = view.to_svg_chart();
    // `check` refuses any element but the chart's own, so no <script> got through.
    let panels = check(&svg);
    assert!(!svg.contains('\u{1b}') && !svg.contains('\u{202e}'));
    assert!(
        panels[0]
            .title
            .starts_with("</text><script>alert(1)</script>&amp;\\u{1b}[31m\\u{202e}")
    );
    assert_eq!(panels[0].legend.len(), 1);
    assert!(panels[0].legend[0].contains("<script>"));
}

#[test]
fn a_metrics_wide_csv_is_its_columns_of_the_whole() {
    let json = series_json(
        T0,
        30,
        3,
        &[
            (
                "a",
                "COUNT",
                vec![json!({"k": "1"}), json!({"k": "2"})],
                &|s, l| (s != l).then_some((s * 10 + l) as f64),
            ),
            ("b", "SECONDS", vec![json!({})], &|s, _| {
                Some(s as f64 / 4.0)
            }),
        ],
    );
    let response = decode(&json);
    let view = metrics::validate(&response).unwrap_or_else(|error| panic!("{error}"));
    let whole = view.to_wide_csv();
    let table = |csv: &str| -> Vec<Vec<String>> {
        csv.lines()
            .map(|line| line.split(',').map(str::to_owned).collect())
            .collect()
    };
    let columns = |rows: &[Vec<String>], keep: &[usize]| -> Vec<Vec<String>> {
        rows.iter()
            .map(|row| keep.iter().map(|&i| row[i].clone()).collect())
            .collect()
    };
    let whole = table(&whole);
    assert_eq!(
        whole[0],
        ["step_start_ms", "step_end_ms", "a{k=1}", "a{k=2}", "b"]
    );
    assert_eq!(whole.len(), 4);
    let by_name: BTreeMap<&str, Vec<usize>> =
        BTreeMap::from([("a", vec![0, 1, 2, 3]), ("b", vec![0, 1, 4])]);
    for metric in view.metrics() {
        let part = table(&metric.to_wide_csv());
        assert_eq!(
            part,
            columns(&whole, &by_name[metric.name]),
            "{}",
            metric.name
        );
    }
    assert_eq!(whole[1][2], "", "a null is an empty cell");
    assert_eq!(whole[2][4], "0.25");
}

/// The Rust sources under `dir` that write an SVG document (`<svg`).
fn svg_writers(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            svg_writers(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs")
            && std::fs::read_to_string(&path).unwrap().contains("<svg")
        {
            found.push(path);
        }
    }
}

/// The charts are `baseten-charts`', a crate above the runtime: no source of the runtime (which
/// every consumer compiles, the decode-only one included) writes an SVG document, and the
/// runtime's manifest does not name the charts crate; the one writer found is the charts'.
#[test]
fn the_runtime_draws_no_charts() {
    let root = workspace_root();
    let mut in_runtime = Vec::new();
    svg_writers(&root.join("codegen/runtime/src"), &mut in_runtime);
    assert_eq!(in_runtime, Vec::<PathBuf>::new());
    let manifest = std::fs::read_to_string(root.join("codegen/runtime/Cargo.toml")).unwrap();
    assert!(!manifest.contains("baseten-charts"));
    let mut in_charts = Vec::new();
    svg_writers(&root.join("codegen/runtime/charts/src"), &mut in_charts);
    assert_eq!(
        in_charts,
        [root.join("codegen/runtime/charts/src/chart.rs")]
    );
}
