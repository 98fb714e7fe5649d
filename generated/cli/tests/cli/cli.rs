//! The `baseten-metrics` CLI, run in process: `show` on saved responses in every format (the
//! SVG parsed as XML), the same checks for saved and fetched responses, `fetch` and `watch`
//! against a local wiremock server, and failures that are one line without the key.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::svg::{assert_one_path_per_label_set, drawn_series, runs};
use crate::{CliOutput, cli_context, run_cli, tests_dir};
use baseten_api::metrics::{self, format_labels};
use baseten_api::models::GetModelMetricsResponseV1;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// The recorded SERIES fixture's own window, so the request is one the server could answer.
const START: &str = "1787667015264";
const END: &str = "1787667165264";

/// Shaped like a real key, so a leak into any message is easy to spot.
const SECRET_KEY: &str = "abcdefgh.SuperSecretExampleKey0123456789";

fn fixture(name: &str) -> PathBuf {
    tests_dir()
        .join("fixtures/metrics")
        .join(format!("{name}.json"))
}

fn response_fixture(name: &str) -> PathBuf {
    tests_dir()
        .join("fixtures/responses")
        .join(format!("{name}.json"))
}

fn show(path: &Path, format: &str) -> CliOutput {
    run_cli(
        &["show", &path.to_string_lossy(), "--format", format],
        &cli_context(),
    )
}

/// Writes `json` to a file in a fresh temporary directory; the directory lives as long as the
/// returned guard.
fn saved(json: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap_or_else(|error| panic!("temporary directory: {error}"));
    let path = dir.path().join("response.json");
    std::fs::write(&path, json)
        .unwrap_or_else(|error| panic!("writing {}: {error}", path.display()));
    (dir, path)
}

fn decoded(path: &Path) -> GetModelMetricsResponseV1 {
    let bytes = std::fs::read(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    metrics::decode(&bytes).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Asserts a failure: exit code, nothing on stdout, exactly `message` on one stderr line.
fn assert_fails(output: &CliOutput, code: u8, message: &str) {
    assert_eq!(
        output.code,
        ExitCode::from(code),
        "stderr: {}",
        output.stderr
    );
    assert_eq!(output.stdout, "");
    assert_eq!(output.stderr, format!("error: {message}\n"));
}

// ---------------------------------------------------------------------------------------------
// show: formats
// ---------------------------------------------------------------------------------------------

#[test]
fn table_of_a_summary_lists_each_series_with_its_unit() {
    let input = response_fixture("summary");
    let output = show(&input, "table");
    assert!(output.success(), "{}", output.stderr);
    let lines: Vec<&str> = output.stdout.lines().collect();
    let r = decoded(&input);
    let view = metrics::validate(&r).unwrap();
    assert_eq!(lines.len(), 3 + view.series_count(), "{}", output.stdout);
    assert!(
        lines[0].starts_with("SUMMARY from ") && lines[0].contains(" to "),
        "{}",
        lines[0]
    );
    assert!(lines[1].starts_with("metric"));
    assert!(lines[2].chars().all(|c| c == '-'));
    for (line, series) in lines[3..].iter().zip(view.all_series()) {
        let cells: Vec<&str> = line
            .split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        assert_eq!(cells.first(), Some(&series.name), "{line}");
        let unit = series.unit().symbol().unwrap_or("");
        assert!(cells.contains(&unit), "{line}");
    }
}

#[test]
fn table_of_a_series_summarises_each_series() {
    let output = show(&fixture("histogram-partial-nulls"), "table");
    assert!(output.success(), "{}", output.stderr);
    let lines: Vec<&str> = output.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "SERIES from 2026-08-25T14:10:00Z to 2026-08-25T14:12:00Z, 4 steps of 30s"
    );
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        [
            "metric", "labels", "unit", "points", "min", "mean", "max", "last"
        ]
    );
    // p99: 2.4, null, 3.05, null.
    let p99: Vec<&str> = lines[3].split_whitespace().collect();
    assert_eq!(
        p99,
        [
            "baseten_end_to_end_response_time_seconds",
            "quantile=0.99",
            "s",
            "2/4",
            "2.4",
            "2.725",
            "3.05",
            "-"
        ]
    );
}

#[test]
fn wide_csv_has_a_column_per_series_and_a_row_per_step() {
    let output = show(&fixture("histogram-partial-nulls"), "wide-csv");
    assert!(output.success(), "{}", output.stderr);
    assert_eq!(
        output.stdout,
        "step_start_ms,step_end_ms,\
         baseten_end_to_end_response_time_seconds{quantile=0.99},\
         baseten_end_to_end_response_time_seconds{quantile=0.5},\
         baseten_end_to_end_response_time_seconds{stat=avg},\
         baseten_end_to_end_response_time_seconds{quantile=0.95},\
         baseten_end_to_end_response_time_seconds{quantile=0.9},\
         baseten_replicas_active\n\
         1787667000000,1787667030000,2.4,0.8,1.1,2.1,1.7,1\n\
         1787667030000,1787667060000,,0.75,0.9,,1.5,1\n\
         1787667060000,1787667090000,3.05,,,2.2,,1\n\
         1787667090000,1787667120000,,,,,,\n"
    );
}

#[test]
fn json_is_the_response_itself() {
    for name in ["histogram-partial-nulls", "number-extremes", "csv-quoting"] {
        let output = show(&fixture(name), "json");
        assert!(output.success(), "{name}: {}", output.stderr);
        let back: GetModelMetricsResponseV1 = metrics::decode(output.stdout.as_bytes()).unwrap();
        assert_eq!(back, decoded(&fixture(name)), "{name}");
    }
}

#[test]
fn csv_is_the_contract() {
    let output = show(&fixture("csv-quoting"), "csv");
    assert!(output.success(), "{}", output.stderr);
    let expected =
        std::fs::read_to_string(tests_dir().join("fixtures/metrics/expected/csv-quoting.csv"))
            .unwrap();
    assert_eq!(output.stdout, expected);
}

// ---------------------------------------------------------------------------------------------
// show: SVG
// ---------------------------------------------------------------------------------------------

#[test]
fn svg_lines_break_at_nulls() {
    let input = fixture("histogram-partial-nulls");
    let output = show(&input, "svg");
    assert!(output.success(), "{}", output.stderr);
    assert_one_path_per_label_set(&output.stdout, &decoded(&input));
    let drawn = drawn_series(&output.stdout);
    let run_lengths = |metric: usize, series: usize| -> Vec<usize> {
        runs(&drawn[metric].1[series].1)
            .iter()
            .map(Vec::len)
            .collect()
    };
    // p99: 2.4, null, 3.05, null → two lone points; p50: 0.8, 0.75, null, null → one line of 2;
    // replicas: 1, 1, 1, null → one line of 3.
    assert_eq!(run_lengths(0, 0), [1, 1]);
    assert_eq!(run_lengths(0, 1), [2]);
    assert_eq!(run_lengths(1, 0), [3]);
    // A lone point is also drawn as a circle, so it shows.
    let document = roxmltree::Document::parse(&output.stdout).unwrap();
    let circles = document
        .descendants()
        .filter(|node| node.has_tag_name("circle"))
        .count();
    // p99 twice, stat=avg (1.1, 0.9 is a line: none), p95 (2.1, null, 2.2: twice), p90 (1.7, 1.5: none)
    assert_eq!(circles, 4);
}

#[test]
fn svg_places_irregular_steps_at_their_real_times() {
    let input = fixture("environment-series-promotion");
    let output = show(&input, "svg");
    assert!(output.success(), "{}", output.stderr);
    let response = decoded(&input);
    let drawn = drawn_series(&output.stdout);
    let points = runs(&drawn[0].1[0].1).concat();
    let starts: Vec<i64> = response
        .metric_values
        .iter()
        .map(|set| set.start_epoch_millis)
        .collect();
    assert_eq!(points.len(), starts.len());
    // x is affine in the step start: equal time differences give equal x differences.
    let last = points.len() - 1;
    let scale = (points[last].0 - points[0].0) / (starts[last] - starts[0]) as f64;
    assert!(scale > 0.0);
    for (point, start) in points.iter().zip(&starts) {
        let expected = points[0].0 + (start - starts[0]) as f64 * scale;
        assert!((point.0 - expected).abs() < 0.02, "{point:?} vs {expected}");
    }
    // The y axis carries the unit of the hint.
    assert!(
        output
            .stdout
            .contains(">baseten_inference_requests_total (count)<")
    );
}

#[test]
fn svg_of_a_single_value_set_marks_every_point() {
    let input = response_fixture("summary");
    let output = show(&input, "svg");
    assert!(output.success(), "{}", output.stderr);
    let response = decoded(&input);
    assert_one_path_per_label_set(&output.stdout, &response);
    let document = roxmltree::Document::parse(&output.stdout).unwrap();
    let circles = document
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .count();
    let with_values = response.metric_values[0]
        .values
        .iter()
        .flatten()
        .filter(|value| value.is_some())
        .count();
    assert_eq!(circles, with_values);
}

// ---------------------------------------------------------------------------------------------
// show: issue 11
// ---------------------------------------------------------------------------------------------

/// A response whose one metric name and one label are `width` characters long.
fn wide_response(width: usize) -> String {
    let name = "n".repeat(width);
    let label = "v".repeat(width);
    format!(
        r#"{{"start_epoch_millis":0,"end_epoch_millis":60000,"mode":"SERIES","step_seconds":30,
        "metric_descriptors":[{{"name":"{name}","unit_hint":"COUNT","kind":"GAUGE",
          "label_sets":[{{"k":"{label}"}},{{"{label}":"x"}}]}}],
        "metric_values":[{{"start_epoch_millis":0,"values":[[1,2]]}},
                         {{"start_epoch_millis":30000,"values":[[null,3]]}}]}}"#
    )
}

#[test]
fn no_format_panics_on_names_and_labels_wider_than_65535_characters() {
    let (_dir, path) = saved(&wide_response(70_000));
    for format in ["table", "csv", "wide-csv", "json", "svg"] {
        let output = show(&path, format);
        assert!(output.success(), "{format}: {}", output.stderr);
        assert!(!output.stdout.is_empty(), "{format}");
    }
    let table = show(&path, "table").stdout;
    for line in table.lines().skip(1) {
        assert!(
            line.chars().count() <= 8 * (baseten_metrics::MAX_CELL + 2),
            "{}",
            line.len()
        );
    }
    assert!(table.contains('…'));
    let csv = show(&path, "csv").stdout;
    assert!(
        csv.contains(&"n".repeat(70_000)),
        "the CSV keeps the whole name"
    );
}

#[test]
fn a_label_key_repeated_in_one_label_set_is_refused_naming_its_path() {
    let json = r#"{"start_epoch_millis":0,"end_epoch_millis":60000,"mode":"SUMMARY",
      "metric_descriptors":[{"name":"requests","unit_hint":"COUNT","kind":"COUNTER",
        "label_sets":[{"status":"2xx","status":"5xx"}]}],
      "metric_values":[{"start_epoch_millis":0,"values":[[7]]}]}"#;
    let (_dir, path) = saved(json);
    for format in ["csv", "table"] {
        let output = show(&path, format);
        assert_eq!(output.code, ExitCode::from(1), "{format}");
        assert!(
            output.stderr.starts_with(&format!(
                "error: {}: invalid response: metric_descriptors[0].label_sets[0].status: duplicate key \"status\" in one object at line 3",
                path.display()
            )),
            "{format}: {}",
            output.stderr
        );
        assert_eq!(output.stdout, "");
    }
}

#[test]
fn minus_zero_is_an_integer() {
    let json = r#"{"start_epoch_millis":-0,"end_epoch_millis":60000,"mode":"SUMMARY",
      "metric_descriptors":[{"name":"m","unit_hint":"COUNT","kind":"GAUGE","label_sets":[{}]}],
      "metric_values":[{"start_epoch_millis":-0,"values":[[-0]]}]}"#;
    let (_dir, path) = saved(json);
    let output = show(&path, "csv");
    assert!(output.success(), "{}", output.stderr);
    assert_eq!(
        output.stdout,
        "step_start_ms,step_end_ms,metric,labels,value\n0,60000,m,,-0\n"
    );
}

/// Responses a fetch refuses, with the message it refuses them with.
fn refused_responses() -> Vec<(String, &'static str)> {
    let series = std::fs::read_to_string(response_fixture("series")).unwrap();
    let current = std::fs::read_to_string(response_fixture("current")).unwrap();
    let mut two_sets: serde_json::Value = serde_json::from_str(&current).unwrap();
    let sets = two_sets["metric_values"].as_array_mut().unwrap();
    let mut later = sets[0].clone();
    later["start_epoch_millis"] =
        serde_json::json!(later["start_epoch_millis"].as_i64().unwrap() + 1);
    sets.push(later);
    let with_step = |step: serde_json::Value| {
        let mut value: serde_json::Value = serde_json::from_str(&series).unwrap();
        value["step_seconds"] = step;
        value.to_string()
    };
    vec![
        (
            two_sets.to_string(),
            "CURRENT response has 2 value sets, expected exactly 1",
        ),
        (
            with_step(serde_json::Value::Null),
            "SERIES response has step_seconds None, expected a positive number",
        ),
        (
            with_step(serde_json::json!(0)),
            "SERIES response has step_seconds Some(0), expected a positive number",
        ),
        (
            with_step(serde_json::json!(-30)),
            "SERIES response has step_seconds Some(-30), expected a positive number",
        ),
    ]
}

#[test]
fn saved_responses_get_the_checks_fetched_ones_get() {
    for (json, message) in refused_responses() {
        let (_dir, path) = saved(&json);
        for format in ["csv", "table", "svg"] {
            assert_fails(
                &show(&path, format),
                1,
                &format!("{}: {message}", path.display()),
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn fetched_responses_are_refused_with_the_same_messages() {
    for (json, message) in refused_responses() {
        let mode = if message.starts_with("CURRENT") {
            "current"
        } else {
            "series"
        };
        let server = server_answering_body(json.into_bytes()).await;
        let mut args = vec![
            "fetch",
            "--model",
            "m",
            "--environment",
            "e",
            "--mode",
            mode,
        ];
        if mode == "series" {
            args.extend(["--start", START, "--end", END]);
        }
        let output = run_live(&server, &args, cli_context()).await;
        assert_fails(
            &output,
            1,
            &format!("fetching metrics: invalid response: {message}"),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// fetch and watch against a local server
// ---------------------------------------------------------------------------------------------

async fn server_answering_body(body: Vec<u8>) -> MockServer {
    let server = MockServer::builder().start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_raw(body, "application/json"))
        .mount(&server)
        .await;
    server
}

/// A server answering every request with `tests/fixtures/responses/<name>.json`.
async fn server_answering(name: &str) -> MockServer {
    let path = response_fixture(name);
    let body = std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    server_answering_body(body).await
}

/// Runs the CLI with `--base-url` set to `server`, on a blocking thread so that the server
/// keeps answering on this test's runtime.
async fn run_live(
    server: &MockServer,
    args: &[&str],
    context: baseten_metrics::Context,
) -> CliOutput {
    let mut full: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
    full.extend(["--base-url".to_owned(), server.uri()]);
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = full.iter().map(String::as_str).collect();
        run_cli(&args, &context)
    })
    .await
    .unwrap_or_else(|error| panic!("joining the CLI's thread: {error}"))
}

async fn received(server: &MockServer) -> Vec<wiremock::Request> {
    server
        .received_requests()
        .await
        .unwrap_or_else(|| panic!("request recording is on by default"))
}

#[tokio::test(flavor = "multi_thread")]
async fn series_of_an_environment_as_csv() {
    let server = server_answering("series").await;
    let output = run_live(
        &server,
        &[
            "fetch",
            "--model",
            "m",
            "--environment",
            "production",
            "--mode",
            "series",
            "--start",
            START,
            "--end",
            END,
            "--metric",
            "x",
            "--format",
            "csv",
        ],
        cli_context(),
    )
    .await;
    assert!(output.success(), "stderr: {}", output.stderr);
    let expected = metrics::validate(&decoded(&response_fixture("series")))
        .unwrap()
        .to_csv();
    assert_eq!(output.stdout, expected);

    let requests = received(&server).await;
    let [request] = requests.as_slice() else {
        panic!("expected one request, got {requests:?}");
    };
    assert_eq!(request.method.as_str(), "GET");
    assert_eq!(
        request.url.path(),
        "/v1/models/m/environments/production/metrics"
    );
    assert_eq!(
        request.url.query(),
        Some(
            format!("mode=SERIES&start_epoch_millis={START}&end_epoch_millis={END}&metrics=x")
                .as_str()
        )
    );
    assert_eq!(
        request
            .headers
            .get("authorization")
            .and_then(|value| value.to_str().ok()),
        Some("Bearer cli-test-key-Vq7Zr2")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn summary_of_a_deployment_since_an_hour_ago_as_table() {
    let server = server_answering("summary").await;
    let output = run_live(
        &server,
        &[
            "fetch",
            "--model",
            "m",
            "--deployment",
            "d1",
            "--mode",
            "summary",
            "--since",
            "1h",
            "--metric",
            "a",
            "--metric",
            "b",
            "--metric",
            "a",
        ],
        cli_context(),
    )
    .await;
    assert!(output.success(), "stderr: {}", output.stderr);
    assert!(
        output.stdout.starts_with("SUMMARY from "),
        "stdout: {}",
        output.stdout
    );

    let requests = received(&server).await;
    let [request] = requests.as_slice() else {
        panic!("expected one request, got {requests:?}");
    };
    assert_eq!(request.url.path(), "/v1/models/m/deployments/d1/metrics");
    // An hour before the context's now (2026-07-04T19:00:00Z); the end is left to the server;
    // a metric asked for twice is sent once.
    assert_eq!(
        request.url.query(),
        Some("mode=SUMMARY&start_epoch_millis=1783188000000&metrics=a&metrics=b")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn times_are_read_as_rfc3339() {
    let server = server_answering("series").await;
    let output = run_live(
        &server,
        &[
            "fetch",
            "--model",
            "m",
            "--environment",
            "e",
            "--mode",
            "series",
            "--start",
            "2026-07-04T18:00:00Z",
            "--end",
            "2026-07-04T19:00:00+00:00",
            "--format",
            "json",
        ],
        cli_context(),
    )
    .await;
    assert!(output.success(), "stderr: {}", output.stderr);
    let requests = received(&server).await;
    assert_eq!(
        requests.first().and_then(|request| request.url.query()),
        Some("mode=SERIES&start_epoch_millis=1783188000000&end_epoch_millis=1783191600000")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn refused_requests_are_never_sent() {
    let server = server_answering("current").await;
    let week_and_a_millisecond = "604800001";
    // `cli_context`'s clock says 2026-07-04T19:00:00Z (1783191600000).
    let refused_since = |start: &str, span: &str| {
        format!(
            "window from {start} ms to 1783191600000 ms spans {span} ms, more than the 7 days \
             (604800000 ms) the API allows"
        )
    };
    let thirty_days = refused_since("1780599600000", "2592000000");
    let since_1970 = refused_since("0", "1783191600000");
    let since_min = refused_since("-9223372036854775808", "9223373820046375808");
    let cases: [(&[&str], &str); 10] = [
        (
            &[
                "--environment",
                "production",
                "--mode",
                "current",
                "--start",
                "1",
            ],
            "--mode current takes no window (--since, --start, --end)",
        ),
        (
            &[
                "--environment",
                "production",
                "--mode",
                "series",
                "--start",
                "0",
                "--end",
                week_and_a_millisecond,
            ],
            "",
        ),
        (
            &[
                "--environment",
                "production",
                "--mode",
                "summary",
                "--start",
                END,
                "--end",
                START,
            ],
            "",
        ),
        (&["--environment", "production", "--deployment", "d1"], ""),
        (
            &[
                "--environment",
                "production",
                "--mode",
                "series",
                "--since",
                "soon",
            ],
            "",
        ),
        (
            &[
                "--environment",
                "production",
                "--mode",
                "series",
                "--start",
                "yesterday",
            ],
            "",
        ),
        // An open end is now: a start more than 7 days back, or not before now, is refused.
        (
            &["--environment", "p", "--mode", "series", "--since", "30d"],
            &thirty_days,
        ),
        (
            &["--environment", "p", "--mode", "summary", "--start", "0"],
            &since_1970,
        ),
        (
            &[
                "--environment",
                "p",
                "--mode",
                "summary",
                "--start=-9223372036854775808",
            ],
            &since_min,
        ),
        (
            &[
                "--environment",
                "p",
                "--mode",
                "series",
                "--start",
                "2026-07-04T20:00:00Z",
            ],
            "window start 1783195200000 ms is not before its end 1783191600000 ms",
        ),
    ];
    let context = baseten_metrics::Context {
        api_key: Some(SECRET_KEY.to_owned()),
        ..cli_context()
    };
    for (case, message) in cases {
        let mut args = vec!["fetch", "--model", "m"];
        args.extend(case);
        let output = run_live(&server, &args, context.clone()).await;
        assert_eq!(
            output.code,
            ExitCode::from(2),
            "{case:?}: stderr: {}",
            output.stderr
        );
        assert!(output.stdout.is_empty(), "{case:?}");
        let lines: Vec<&str> = output.stderr.lines().collect();
        assert!(
            lines.len() == 1 && lines[0].starts_with("error: "),
            "{case:?}: stderr: {}",
            output.stderr
        );
        if !message.is_empty() {
            assert_eq!(lines[0], format!("error: {message}"));
        }
        assert!(!output.stderr.contains(SECRET_KEY), "{case:?}");
    }
    assert_eq!(received(&server).await.len(), 0);
}

/// A server error is reported on one line, without the key, and the CLI exits 1.
#[tokio::test(flavor = "multi_thread")]
async fn api_errors_are_one_line_without_the_key() {
    let server = MockServer::builder().start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(404).set_body_raw(
            r#"{"code": "NOT_FOUND", "message": "no model m"}"#,
            "application/json",
        ))
        .mount(&server)
        .await;
    let context = baseten_metrics::Context {
        api_key: Some(SECRET_KEY.to_owned()),
        ..cli_context()
    };
    let output = run_live(
        &server,
        &["fetch", "--model", "m", "--environment", "production"],
        context,
    )
    .await;
    assert_fails(
        &output,
        1,
        "fetching metrics: HTTP 404 NOT_FOUND: no model m",
    );
    assert_eq!(received(&server).await.len(), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn watch_polls_current_redraws_and_waits_out_rate_limits() {
    let server = MockServer::builder().start().await;
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("retry-after", "0")
                .set_body_raw(r#"{"code": "RATE_LIMITED"}"#, "application/json"),
        )
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    let body = std::fs::read(response_fixture("current")).unwrap();
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_raw(body, "application/json"))
        .with_priority(2)
        .mount(&server)
        .await;
    let output = run_live(
        &server,
        &[
            "watch",
            "--model",
            "m",
            "--environment",
            "e",
            "--interval",
            "1",
            "--count",
            "3",
        ],
        cli_context(),
    )
    .await;
    assert!(output.success(), "stderr: {}", output.stderr);
    // The server asked for no wait; the next poll is still an interval later.
    assert_eq!(output.stderr, "rate limited; next poll in 1s\n");
    // Two answers, each a redraw from the top of the screen.
    let frames: Vec<&str> = output.stdout.split("\x1b[H\x1b[2J").collect();
    assert_eq!(frames.len(), 3, "{:?}", output.stdout);
    assert_eq!(frames[0], "");
    assert_eq!(frames[1], frames[2]);
    assert!(frames[1].starts_with("CURRENT from "), "{}", frames[1]);
    let requests = received(&server).await;
    assert_eq!(requests.len(), 3);
    assert!(
        requests
            .iter()
            .all(|r| r.url.query() == Some("mode=CURRENT"))
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn watch_as_csv_prints_each_answer_whole() {
    let server = server_answering("current").await;
    let output = run_live(
        &server,
        &[
            "watch",
            "--model",
            "m",
            "--deployment",
            "d",
            "--interval",
            "1",
            "--count",
            "2",
            "--format",
            "csv",
        ],
        cli_context(),
    )
    .await;
    assert!(output.success(), "stderr: {}", output.stderr);
    let one = metrics::validate(&decoded(&response_fixture("current")))
        .unwrap()
        .to_csv();
    assert_eq!(output.stdout, format!("{one}{one}"));
    assert_eq!(received(&server).await.len(), 2);
}

// ---------------------------------------------------------------------------------------------
// arguments
// ---------------------------------------------------------------------------------------------

#[test]
fn help_goes_to_stdout_and_bad_arguments_fail_on_one_line() {
    let help = run_cli(&["--help"], &cli_context());
    assert!(help.success());
    for command in ["fetch", "show", "watch"] {
        assert!(help.stdout.contains(command), "{}", help.stdout);
    }
    let bad = run_cli(&["show", "x.json", "--format", "xml"], &cli_context());
    assert_eq!(bad.code, ExitCode::from(2));
    assert_eq!(bad.stderr.lines().count(), 1, "{}", bad.stderr);
    assert!(
        bad.stderr.starts_with("error: invalid value 'xml'"),
        "{}",
        bad.stderr
    );
    let missing = run_cli(&["show", "/nonexistent/response.json"], &cli_context());
    assert_eq!(missing.code, ExitCode::from(1));
    assert!(
        missing
            .stderr
            .starts_with("error: reading /nonexistent/response.json: "),
        "{}",
        missing.stderr
    );
}

#[test]
fn labels_in_every_format_keep_their_sorted_form() {
    // The label maps as the CLI prints them equal the library's `format_labels`.
    let input = fixture("unsorted-label-keys");
    let response = decoded(&input);
    let labels: Vec<String> = response
        .metric_descriptors
        .iter()
        .flat_map(|d| d.label_sets.iter().map(format_labels))
        .collect();
    let svg = show(&input, "svg").stdout;
    let drawn: Vec<String> = drawn_series(&svg)
        .into_iter()
        .flat_map(|(_, paths)| paths.into_iter().map(|(labels, _)| labels))
        .collect();
    assert_eq!(drawn, labels);
}

/// The client decodes through `metrics::decode`, so a fetched response gets its strict rules
/// too: a repeated label key is refused at its path, and `-0` is an integer.
#[tokio::test(flavor = "multi_thread")]
async fn fetched_responses_get_the_strict_decode() {
    let repeated = r#"{"start_epoch_millis":0,"end_epoch_millis":60000,"mode":"CURRENT",
      "metric_descriptors":[{"name":"requests","unit_hint":"COUNT","kind":"COUNTER",
        "label_sets":[{"status":"2xx","status":"5xx"}]}],
      "metric_values":[{"start_epoch_millis":-0,"values":[[7]]}]}"#;
    // A key that cannot occur in the message: the client scrubs the key from every error.
    let context = baseten_metrics::Context {
        api_key: Some(SECRET_KEY.to_owned()),
        ..cli_context()
    };
    let server = server_answering_body(repeated.as_bytes().to_vec()).await;
    let output = run_live(
        &server,
        &["fetch", "--model", "m", "--environment", "e"],
        context,
    )
    .await;
    assert_eq!(output.code, ExitCode::from(1), "{}", output.stderr);
    assert!(
        output.stderr.contains(
            r#"metric_descriptors[0].label_sets[0].status: duplicate key "status" in one object"#
        ),
        "{}",
        output.stderr
    );
    let minus_zero = repeated.replace(r#","status":"5xx""#, "");
    let server = server_answering_body(minus_zero.into_bytes()).await;
    let output = run_live(
        &server,
        &[
            "fetch",
            "--model",
            "m",
            "--environment",
            "e",
            "--format",
            "csv",
        ],
        cli_context(),
    )
    .await;
    assert!(output.success(), "{}", output.stderr);
    assert_eq!(
        output.stdout,
        "step_start_ms,step_end_ms,metric,labels,value\n0,60000,requests,status=2xx,7\n"
    );
}

// ---------------------------------------------------------------------------------------------
// issue 18: watch's minimum interval, finite charts, hostile text, the key
// ---------------------------------------------------------------------------------------------

/// `--interval 0` would poll in a tight loop: intervals under the minimum are refused before
/// anything is sent.
#[tokio::test(flavor = "multi_thread")]
async fn watch_refuses_an_interval_under_the_minimum() {
    let server = server_answering("current").await;
    for interval in ["0", "0.5", "0.999", "-1", "NaN", "inf"] {
        let output = run_live(
            &server,
            &[
                "watch",
                "--model",
                "m",
                "--environment",
                "e",
                "--count",
                "3",
                &format!("--interval={interval}"),
            ],
            cli_context(),
        )
        .await;
        assert_eq!(
            output.code,
            ExitCode::from(2),
            "{interval}: {}",
            output.stderr
        );
        assert!(output.stdout.is_empty(), "{interval}");
        assert!(
            output.stderr.starts_with("error: --interval ") && output.stderr.lines().count() == 1,
            "{interval}: {}",
            output.stderr
        );
    }
    assert_eq!(received(&server).await.len(), 0);
    assert_eq!(
        baseten_metrics::MIN_INTERVAL,
        std::time::Duration::from_secs(1)
    );
}

/// A SERIES response of one metric whose values are `values`, one step each, 30 s apart.
fn series_of(values: &[f64], start_ms: i64) -> String {
    let sets: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(step, value)| {
            let start = start_ms.saturating_add(30_000 * step as i64);
            format!(r#"{{"start_epoch_millis": {start}, "values": [[{value:e}]]}}"#)
        })
        .collect();
    let end = start_ms.saturating_add(30_000 * values.len() as i64);
    format!(
        r#"{{"start_epoch_millis": {start_ms}, "end_epoch_millis": {end}, "mode": "SERIES",
          "step_seconds": 30, "metric_descriptors": [{{"name": "m", "unit_hint": "COUNT",
          "kind": "GAUGE", "label_sets": [{{}}]}}], "metric_values": [{}]}}"#,
        sets.join(", ")
    )
}

/// Every coordinate of a chart is a finite number, whatever the values: a range from 0 to the
/// smallest subnormal (whose halves round to 0), all values equal, the whole f64 range, and a
/// window at the end of time.
#[test]
fn charts_never_draw_non_finite_coordinates() {
    let tiny = f64::from_bits(1);
    let cases: [(&[f64], i64); 7] = [
        (&[0.0, tiny], 0),
        (&[tiny, 0.0, tiny], 0),
        (&[tiny, tiny], 0),
        (&[3.0, 3.0, 3.0], 0),
        (&[f64::MAX, -f64::MAX], 0),
        (&[-f64::MAX, f64::MIN_POSITIVE, f64::MAX], 0),
        (&[1.0, 2.0], i64::MAX - 60_000),
    ];
    for (values, start) in cases {
        let (_dir, path) = saved(&series_of(values, start));
        let output = show(&path, "svg");
        assert!(output.success(), "{values:?}: {}", output.stderr);
        let document = roxmltree::Document::parse(&output.stdout)
            .unwrap_or_else(|error| panic!("{error}\n{}", output.stdout));
        let mut numbers = 0;
        for node in document.descendants().filter(|n| n.is_element()) {
            for attribute in node.attributes() {
                let numeric = [
                    "x", "y", "cx", "cy", "width", "height", "x1", "y1", "x2", "y2",
                ]
                .contains(&attribute.name());
                let texts: Vec<&str> = if attribute.name() == "d" {
                    attribute
                        .value()
                        .split([' ', ',', 'M', 'L'])
                        .filter(|t| !t.is_empty())
                        .collect()
                } else if numeric {
                    vec![attribute.value()]
                } else {
                    continue;
                };
                for text in texts {
                    let number: f64 = text.parse().unwrap_or(f64::NAN);
                    assert!(
                        number.is_finite(),
                        "{values:?}: {}={text}",
                        attribute.name()
                    );
                    numbers += 1;
                }
            }
        }
        assert!(numbers > 10, "{values:?}: {}", output.stdout);
        let path = document
            .descendants()
            .find(|n| n.has_tag_name("path"))
            .and_then(|n| n.attribute("d"))
            .unwrap_or_default();
        assert_eq!(path.matches(['M', 'L']).count(), values.len(), "{path}");
    }
}

/// Characters that drive a terminal or hide text: ESC (CSI and OSC sequences), BEL, the C1
/// CSI, backspace, carriage return, a right-to-left override, a left-to-right isolate and its
/// pop, a zero-width space, a byte-order mark, a line separator.
/// The format characters come first, so that even a cell cut at 60 characters holds each kind.
const HOSTILE: &str =
    "x\u{202e}\u{2066}\u{2069}\u{200b}\u{feff}\u{2028}\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}1m\u{8}\ry";

/// The hostile characters, which no line the CLI prints may hold.
const HOSTILE_CHARS: [char; 13] = [
    '\u{1b}', '\u{7}', '\u{9b}', '\u{8}', '\r', '\u{202e}', '\u{2066}', '\u{2069}', '\u{200b}',
    '\u{feff}', '\u{2028}', '\u{0}', '\u{85}',
];

/// `text` (stdout or stderr) holds none of the hostile characters, apart from the screen clear
/// `watch` itself writes before each redraw, and shows `HOSTILE` escaped at least once.
fn assert_sanitised(what: &str, text: &str) {
    let own = text.replace("\x1b[H\x1b[2J", "");
    for c in HOSTILE_CHARS {
        assert!(!own.contains(c), "{what}: {c:?} printed raw: {own:?}");
    }
    assert!(
        own.contains(r"\u{202e}\u{2066}\u{2069}\u{200b}") && own.contains(r"\u{1b}"),
        "{what}: not shown escaped: {own:?}"
    );
}

/// `HOSTILE` as a JSON string's contents.
fn hostile_json() -> String {
    let quoted = serde_json::to_string(HOSTILE).unwrap_or_default();
    quoted.trim_matches('"').to_owned()
}

/// A CURRENT response whose mode, metric name, label key and label value are `mode`, `name`,
/// `key` and `value` (JSON string contents), with `values` as its one value list.
fn current_with(mode: &str, name: &str, key: &str, value: &str, values: &str) -> String {
    format!(
        r#"{{"start_epoch_millis": 0, "end_epoch_millis": 60000, "mode": "{mode}",
          "metric_descriptors": [{{"name": "{name}", "unit_hint": "COUNT", "kind": "GAUGE",
            "label_sets": [{{"{key}": "{value}"}}]}}],
          "metric_values": [{{"start_epoch_millis": 0, "values": [{values}]}}]}}"#
    )
}

/// Hostile text reaches every print path — the table's title (an unknown mode), its cells (a
/// metric name, a label key and value), the chart's text, `error:` lines (a misaligned metric, a
/// decode error at a hostile key, a server's error message, a mode the request did not ask
/// for), and `watch`'s redraws — and is shown escaped on each.
#[tokio::test(flavor = "multi_thread")]
async fn hostile_text_is_shown_escaped_on_every_print_path() {
    let h = hostile_json();
    // show: title, cells, chart.
    let (_dir, path) = saved(&current_with(&h, "m", "k", "v", "[1]"));
    let table = show(&path, "table");
    assert!(table.success(), "{}", table.stderr);
    let title = table.stdout.lines().next().unwrap_or_default();
    assert!(
        title.starts_with(r"x\u{202e}") && title.contains(" from "),
        "{title}"
    );
    assert_sanitised("title", &table.stdout);
    let (_dir, path) = saved(&current_with("CURRENT", &h, &h, &h, "[1]"));
    for format in ["table", "svg"] {
        let output = show(&path, format);
        assert!(output.success(), "{format}: {}", output.stderr);
        assert_sanitised(format, &output.stdout);
    }
    // JSON: the same response, with every such character as a `\uXXXX` escape.
    let json = show(&path, "json");
    assert!(json.success(), "{}", json.stderr);
    for c in HOSTILE_CHARS {
        assert!(!json.stdout.contains(c), "json: {c:?} printed raw");
    }
    assert!(
        json.stdout
            .contains(r"\u202e\u2066\u2069\u200b\ufeff\u2028\u001b"),
        "{}",
        json.stdout
    );
    assert_eq!(
        decoded(&path),
        metrics::decode(json.stdout.as_bytes()).unwrap()
    );
    // show: error lines.
    let misaligned = current_with("CURRENT", &h, "k", "v", "[]");
    let repeated_key = format!(
        r#"{{"start_epoch_millis": 0, "end_epoch_millis": 1, "mode": "CURRENT",
          "metric_descriptors": [{{"name": "m", "unit_hint": "COUNT", "kind": "GAUGE",
            "label_sets": [{{"{h}": "a", "{h}": "b"}}]}}], "metric_values": []}}"#
    );
    for json in [misaligned.clone(), repeated_key] {
        let (_dir, path) = saved(&json);
        for format in ["table", "csv"] {
            let output = show(&path, format);
            assert_eq!(
                output.code,
                ExitCode::from(1),
                "{format}: {}",
                output.stderr
            );
            assert_eq!(output.stderr.lines().count(), 1, "{:?}", output.stderr);
            assert_sanitised("show error", &output.stderr);
        }
    }
    // fetch: a server's error message, a mode not asked for, a misaligned metric.
    let error_body = format!(r#"{{"code": "{h}", "message": "{h}"}}"#);
    let cases = [
        (403, error_body),
        (200, current_with(&h, "m", "k", "v", "[1]")),
        (200, misaligned),
    ];
    for (status, body) in cases {
        let server = MockServer::builder().start().await;
        Mock::given(any())
            .respond_with(ResponseTemplate::new(status).set_body_raw(body, "application/json"))
            .mount(&server)
            .await;
        let output = run_live(
            &server,
            &["fetch", "--model", "m", "--environment", "e"],
            cli_context(),
        )
        .await;
        assert_eq!(
            output.code,
            ExitCode::from(1),
            "{status}: {}",
            output.stderr
        );
        assert_eq!(output.stderr.lines().count(), 1, "{:?}", output.stderr);
        assert_sanitised("fetch error", &output.stderr);
    }
    // watch: each redraw.
    let server =
        server_answering_body(current_with("CURRENT", &h, &h, &h, "[1]").into_bytes()).await;
    let output = run_live(
        &server,
        &[
            "watch",
            "--model",
            "m",
            "--environment",
            "e",
            "--count",
            "1",
        ],
        cli_context(),
    )
    .await;
    assert!(output.success(), "{}", output.stderr);
    assert!(
        output.stdout.starts_with("\x1b[H\x1b[2J"),
        "{:?}",
        output.stdout
    );
    assert_sanitised("watch", &output.stdout);
}

/// A key no test knows in advance, shaped like a real one.
fn random_key() -> String {
    use std::hash::{BuildHasher, Hasher};
    let state = std::collections::hash_map::RandomState::new();
    let mut key = String::from("ck");
    for part in 0..3u32 {
        let mut hasher = state.build_hasher();
        hasher.write_u32(part);
        key.push_str(&format!("{:016x}", hasher.finish()));
    }
    key.push_str(".Yy");
    key
}

/// `output` (both streams) holds `key` neither raw, nor percent-encoded in either case, nor
/// JSON-escaped, nor its random middle alone.
fn assert_no_key(what: &str, key: &str, output: &CliOutput) {
    let lower: String = key.bytes().map(|b| format!("%{b:02x}")).collect();
    let upper: String = key.bytes().map(|b| format!("%{b:02X}")).collect();
    let json: String = key
        .chars()
        .map(|c| format!("\\u{:04x}", u32::from(c)))
        .collect();
    for text in [&output.stdout, &output.stderr] {
        for form in [key, &lower, &upper, &json, &key[2..34]] {
            assert!(
                !text.contains(form),
                "{what}: the key leaked as {form}: {text}"
            );
        }
    }
}

/// `text` with `between` before (`zero_first`) or after each character: how UTF-16 text of an
/// ASCII key reads as UTF-8 (`\0`), as JSON writes it (`\u0000`), as a terminal shows it.
fn interleaved(text: &str, between: &str, zero_first: bool) -> String {
    text.chars()
        .map(|c| {
            if zero_first {
                format!("{between}{c}")
            } else {
                format!("{c}{between}")
            }
        })
        .collect()
}

/// Issue 38 item 5: a server that echoes the key in UTF-16 (either byte order), written in its
/// JSON as `\u0000`-interleaved text (which decodes to NUL-interleaved strings), gets it into no
/// output of the CLI: not `fetch`'s json, wide-csv, svg, csv or table, nor an `error:` line.
#[tokio::test(flavor = "multi_thread")]
async fn no_output_holds_a_key_echoed_in_utf16() {
    let key = random_key();
    let context = baseten_metrics::Context {
        api_key: Some(key.clone()),
        ..cli_context()
    };
    let little = interleaved(&key, "\\u0000", false);
    let big = interleaved(&key, "\\u0000", true);
    let answers = [
        (200, current_with("CURRENT", &little, &big, &little, "[1]")),
        (
            403,
            format!(r#"{{"code": "{little}", "message": "{big}", "detail": "{little}"}}"#),
        ),
    ];
    let middle = &key[2..34];
    let leaked: Vec<String> = ["\0", "\\u0000", "\\u{0}"]
        .iter()
        .flat_map(|between| {
            [false, true].map(|zero_first| interleaved(middle, between, zero_first))
        })
        .collect();
    for (status, body) in answers {
        let server = MockServer::builder().start().await;
        Mock::given(any())
            .respond_with(ResponseTemplate::new(status).set_body_raw(body, "application/json"))
            .mount(&server)
            .await;
        for format in ["json", "wide-csv", "svg", "csv", "table"] {
            let args = [
                "fetch",
                "--model",
                "m",
                "--environment",
                "e",
                "--format",
                format,
            ];
            let output = run_live(&server, &args, context.clone()).await;
            for text in [&output.stdout, &output.stderr] {
                for form in &leaked {
                    assert!(
                        !text.contains(form.as_str()),
                        "{status} {format}: the key leaked as {form:?}: {text}"
                    );
                }
            }
            if status == 200 {
                assert!(output.success(), "{format}: {}", output.stderr);
            }
        }
    }
}

/// A server that echoes the key it was sent — as a metric name and label of a good response,
/// as the mode, in a misaligned response, in error bodies (percent-encoded in lower case, JSON
/// escaped) and headers — gets it into no output of the CLI: no format of `fetch`, no
/// `watch` redraw, no `error:` line; nor does `show` print it from a saved response.
#[tokio::test(flavor = "multi_thread")]
async fn no_output_of_the_cli_holds_an_echoed_key() {
    let key = random_key();
    let lower: String = key.bytes().map(|b| format!("%{b:02x}")).collect();
    let json: String = key
        .chars()
        .map(|c| format!("\\u{:04x}", u32::from(c)))
        .collect();
    let context = baseten_metrics::Context {
        api_key: Some(key.clone()),
        ..cli_context()
    };
    let good = current_with("CURRENT", &key, &lower, &json, "[1]");
    let answers = [
        (200, good.clone()),
        (200, current_with(&key, "m", "k", "v", "[1]")),
        (200, current_with(&json, "m", "k", "v", "[1]")),
        (200, current_with("CURRENT", &key, "k", "v", "[]")),
        (
            403,
            format!(r#"{{"code": "{key}", "message": "{lower} {json}", "detail": "{key}"}}"#),
        ),
        (
            429,
            format!(r#"{{"message": "{key}", "retry_after": 99999}}"#),
        ),
        (500, format!("<html>Authorization: Bearer {key}</html>")),
    ];
    for (status, body) in answers {
        let server = MockServer::builder().start().await;
        Mock::given(any())
            .respond_with(
                ResponseTemplate::new(status)
                    .insert_header("x-request-id", key.as_str())
                    .set_body_raw(body, "application/json"),
            )
            .mount(&server)
            .await;
        for format in ["table", "csv", "wide-csv", "json", "svg"] {
            let args = [
                "fetch",
                "--model",
                "m",
                "--environment",
                "e",
                "--format",
                format,
            ];
            let output = run_live(&server, &args, context.clone()).await;
            assert_no_key(&format!("fetch {status} {format}"), &key, &output);
            let args = [
                "watch",
                "--model",
                "m",
                "--deployment",
                "d",
                "--count",
                "1",
                "--format",
                format,
            ];
            let output = run_live(&server, &args, context.clone()).await;
            assert_no_key(&format!("watch {status} {format}"), &key, &output);
        }
    }
    // The good answer showed what it could with the key scrubbed.
    let server = server_answering_body(good.clone().into_bytes()).await;
    let args = ["fetch", "--model", "m", "--environment", "e"];
    let output = run_live(&server, &args, context.clone()).await;
    assert!(output.success(), "{}", output.stderr);
    assert!(output.stdout.contains("<redacted>"), "{}", output.stdout);
    // A saved response holding the key, shown while the CLI holds it.
    let (_dir, path) = saved(&good);
    for format in ["table", "wide-csv", "json", "svg"] {
        let args = ["show", &path.to_string_lossy(), "--format", format];
        let output = run_cli(&args, &context);
        assert!(output.success(), "{format}: {}", output.stderr);
        assert_no_key(&format!("show {format}"), &key, &output);
    }
}
