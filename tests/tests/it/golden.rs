//! Golden tests of the metrics alignment layer (`baseten_api::metrics`).
//!
//! Each valid input (the captures in `../shared/recorded`, the authored `tests/fixtures/metrics/*.json`)
//! is decoded and validated, and its CSV export and a short summary of the view are compared
//! with `tests/fixtures/metrics/expected/<name>.csv` and `<name>.summary.txt` (`recorded-<name>`
//! for captures). Each `tests/fixtures/metrics/malformed/*.json` must fail with the one line in
//! `expected/malformed-<name>.txt`. Every input also goes through [`metrics::export_csv`], which
//! must give the typed path's CSV or error exactly, and through the `baseten-metrics` CLI's
//! `show --format csv`, in process.
//!
//! `UPDATE_GOLDEN=1 cargo test -p baseten-tests --test it golden` rewrites the expected files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use baseten_api::metrics::IndexMappedResponse;
use baseten_api::metrics::{
    self, Lookup, MetricsView, StatusMatch, Step, TimeSeries, format_value,
};
use baseten_api::models::GetModelMetricsResponseV1;
use baseten_tests::{files_with_extension, shared_dir, tests_dir};

const UPDATE_ENV: &str = "UPDATE_GOLDEN";

fn fixtures_dir() -> PathBuf {
    tests_dir().join("fixtures/metrics")
}

fn expected_path(file: &str) -> PathBuf {
    fixtures_dir().join("expected").join(file)
}

/// A capture in `../shared/recorded/<name>.json`; skipped where `../shared` is absent.
fn check_recorded(name: &str) {
    let Some(dir) = shared_dir("recorded") else {
        return;
    };
    check_valid(
        &dir.join(format!("{name}.json")),
        &format!("recorded-{name}"),
    );
}

/// An authored `tests/fixtures/metrics/<name>.json`.
fn check(name: &str) {
    check_valid(&fixtures_dir().join(format!("{name}.json")), name);
}

/// A `tests/fixtures/metrics/malformed/<name>.json` that must fail to decode or validate.
fn check_malformed(name: &str) {
    let input = fixtures_dir()
        .join("malformed")
        .join(format!("{name}.json"));
    let bytes = read(&input);
    let error = match load_error(&bytes) {
        Some(error) => error,
        None => panic!("{} decoded and validated", input.display()),
    };
    assert!(
        !error.contains('\n'),
        "{name}: error is not one line: {error:?}"
    );
    compare(
        &expected_path(&format!("malformed-{name}.txt")),
        &format!("{error}\n"),
    );
}

fn check_valid(input: &Path, expected_name: &str) {
    let bytes = read(input);
    let response: GetModelMetricsResponseV1 =
        metrics::decode(&bytes).unwrap_or_else(|error| panic!("{}: {error}", input.display()));
    let view =
        metrics::validate(&response).unwrap_or_else(|error| panic!("{}: {error}", input.display()));
    compare(
        &expected_path(&format!("{expected_name}.csv")),
        &view.to_csv(),
    );
    compare(
        &expected_path(&format!("{expected_name}.summary.txt")),
        &summary(view),
    );
}

/// The decode or validation error for `bytes`, or `None` if they make a valid response.
fn load_error(bytes: &[u8]) -> Option<String> {
    match metrics::decode::<GetModelMetricsResponseV1>(bytes) {
        Err(error) => Some(error.to_string()),
        Ok(response) => metrics::validate(&response)
            .err()
            .map(|error| error.to_string()),
    }
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Compares `actual` with the file at `path`, or rewrites the file under `UPDATE_GOLDEN`.
fn compare(path: &Path, actual: &str) {
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return;
    }
    if std::env::var_os(UPDATE_ENV).is_some() {
        std::fs::write(path, actual).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        return;
    }
    let diff = similar::TextDiff::from_lines(expected.as_str(), actual);
    panic!(
        "{} differs:\n{}\nrun `{UPDATE_ENV}=1 cargo test -p baseten-tests --test it golden` and review",
        path.display(),
        diff.unified_diff().header("expected", "actual")
    );
}

/// A short, human-readable account of the view: mode, window, steps, series with units, and
/// what the histogram, status and lookup helpers make of it.
fn summary<R: IndexMappedResponse>(view: MetricsView<'_, R>) -> String {
    let mut text = String::new();
    let mut line = |s: String| {
        text.push_str(&s);
        text.push('\n');
    };
    line(format!("mode: {}", view.mode().unwrap_or("-")));
    let window_ms = i128::from(view.window_end_ms()) - i128::from(view.window_start_ms());
    line(format!(
        "window: [{}, {}) {window_ms} ms",
        view.window_start_ms(),
        view.window_end_ms()
    ));
    line(format!(
        "step_seconds: {}",
        view.step_seconds()
            .map_or_else(|| "-".to_owned(), |s| s.to_string())
    ));
    line(format!("steps: {}", view.step_count()));
    line(format!("first step: {}", step_span(view.steps().next())));
    line(format!("last step: {}", step_span(view.steps().last())));
    line(format!("series: {}", view.series_count()));
    for series in view.all_series() {
        line(format!("  {}", series_line(series, view.step_count())));
    }
    for metric in view.metrics() {
        let histogram = metric.histogram();
        if !histogram.quantiles.is_empty() {
            let quantiles: Vec<String> = histogram
                .quantiles
                .iter()
                .map(|q| format!("{}", q.quantile))
                .collect();
            line(format!(
                "histogram {}: quantiles {}; average {}; other {}",
                metric.name,
                quantiles.join(", "),
                histogram
                    .average
                    .map_or_else(|| "none".to_owned(), |s| labels(s.labels)),
                histogram.other.len()
            ));
        }
        let classes: BTreeSet<u8> = metric
            .series()
            .filter_map(|s| s.status())
            .map(StatusMatch::class)
            .collect();
        if !classes.is_empty() {
            let covered: Vec<String> = classes
                .into_iter()
                .map(|class| {
                    let statuses: Vec<String> = metric
                        .series_with_status(StatusMatch::Class(class))
                        .iter()
                        .filter_map(|s| s.status().map(|status| status.to_string()))
                        .collect();
                    format!(
                        "{} covers {}",
                        StatusMatch::Class(class),
                        statuses.join(", ")
                    )
                })
                .collect();
            line(format!("status {}: {}", metric.name, covered.join("; ")));
        }
    }
    let names: BTreeSet<&str> = view.metrics().map(|metric| metric.name).collect();
    for name in names {
        if let Lookup::Ambiguous(matches) = view.series_named(name) {
            line(format!(
                "ambiguous name {name}: {} descriptors",
                matches.len()
            ));
        }
    }
    text
}

fn step_span(step: Option<Step<'_>>) -> String {
    step.map_or_else(
        || "none".to_owned(),
        |step| {
            format!(
                "#{} [{}, {}) {} ms",
                step.index,
                step.start_ms,
                step.end_ms,
                step.duration_ms()
            )
        },
    )
}

/// `#d.l name {labels}: KIND, UNIT [symbol], data in n/N steps, last value (and in base unit)`.
fn series_line<R: IndexMappedResponse>(series: TimeSeries<'_, R>, steps: usize) -> String {
    let unit = series.unit();
    let symbol = unit.symbol().unwrap_or("unknown unit, not converted");
    let with_data = series.points().filter(|p| p.value.is_some()).count();
    let last = series.points().filter_map(|p| p.value).last();
    let last_text = match last {
        None => "no data".to_owned(),
        Some(raw) if unit.base() != unit => format!(
            "last {} {symbol} = {} {}",
            format_value(raw),
            format_value(unit.to_base(raw)),
            unit.base().symbol().unwrap_or("?")
        ),
        Some(raw) => format!("last {}", format_value(raw)),
    };
    format!(
        "#{}.{} {} {}: {}, {} [{symbol}], data in {with_data}/{steps} steps, {last_text}",
        series.descriptor_index,
        series.label_index,
        series.name.escape_debug(),
        labels(series.labels),
        series.kind.unwrap_or("-"),
        series.unit_hint.unwrap_or("-"),
    )
}

/// `{key="value", ...}`, escaped so that every label fits on one line.
fn labels(labels: &BTreeMap<String, String>) -> String {
    let pairs: Vec<String> = labels
        .iter()
        .map(|(key, value)| format!("{}={value:?}", key.escape_debug()))
        .collect();
    format!("{{{}}}", pairs.join(", "))
}

#[test]
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared: Baseten's published documents and recorded responses"
)]
fn recorded_deployment_series_20m_requests() {
    check_recorded("deployment-series-20m-requests");
}

#[test]
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared: Baseten's published documents and recorded responses"
)]
fn recorded_deployment_summary_15m_ingest_lag() {
    check_recorded("deployment-summary-15m-ingest-lag");
}

#[test]
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared: Baseten's published documents and recorded responses"
)]
fn recorded_deployment_summary_15m_traffic() {
    check_recorded("deployment-summary-15m-traffic");
}

#[test]
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared: Baseten's published documents and recorded responses"
)]
fn recorded_deployment_summary_6h_rest() {
    check_recorded("deployment-summary-6h-rest");
}

#[test]
fn authored() {
    check("csv-quoting");
    check("current-no-step-seconds");
    check("duplicate-metric-names");
    check("empty-descriptors");
    check("empty-label-sets");
    check("environment-series-promotion");
    check("gpu-memory-cpu-ratio");
    check("histogram-partial-nulls");
    check("no-value-sets");
    check("number-extremes");
    check("status-codes-and-classes");
    check("unknown-unit-kind-fields");
    check("unsorted-label-keys");
    check("zero-length-last-step");
}

#[test]
fn malformed() {
    check_malformed("bare-nan");
    check_malformed("descriptor-count-mismatch");
    check_malformed("label-set-count-mismatch");
    check_malformed("missing-field");
    check_malformed("non-finite-value");
    check_malformed("start-not-increasing");
    check_malformed("step-after-window-end");
    check_malformed("string-value");
    check_malformed("summary-no-value-sets");
    check_malformed("summary-two-value-sets");
    check_malformed("truncated");
    check_malformed("values-not-a-list");
}

/// A fixture without a `check` line above would never be compared, and an expected file
/// without a fixture is stale.
#[test]
fn every_fixture_is_checked_and_every_expected_file_used() {
    let source = include_str!("golden.rs");
    let mut expected_files = BTreeSet::new();
    for fixture in files_with_extension(&fixtures_dir(), "json") {
        let name = stem(&fixture);
        assert!(
            source.contains(&format!("check(\"{name}\")")),
            "{name}.json has no check line"
        );
        expected_files.insert(format!("{name}.csv"));
        expected_files.insert(format!("{name}.summary.txt"));
    }
    for fixture in files_with_extension(&fixtures_dir().join("malformed"), "json") {
        let name = stem(&fixture);
        assert!(
            source.contains(&format!("check_malformed(\"{name}\")")),
            "malformed/{name}.json has no check_malformed line"
        );
        expected_files.insert(format!("malformed-{name}.txt"));
    }
    let expected_dir = fixtures_dir().join("expected");
    let stale: Vec<String> = std::fs::read_dir(&expected_dir)
        .unwrap_or_else(|error| panic!("{}: {error}", expected_dir.display()))
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|file| !file.starts_with("recorded-") && !expected_files.contains(file))
        .collect();
    assert!(
        stale.is_empty(),
        "expected files without a fixture: {stale:?}"
    );
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// What the typed path makes of `bytes`: decode, the checks of a fetched response, the CSV;
/// or the first error, as `export_csv` words it.
fn typed_outcome(bytes: &[u8]) -> Result<String, String> {
    let response: GetModelMetricsResponseV1 =
        metrics::decode(bytes).map_err(|error| format!("invalid response: {error}"))?;
    let view = metrics::validate_response(&response).map_err(|error| error.to_string())?;
    Ok(view.to_csv())
}

/// What the compact path makes of `bytes`.
fn compact_outcome(bytes: &[u8]) -> Result<String, String> {
    let mut csv = Vec::new();
    metrics::export_csv::<GetModelMetricsResponseV1, _>(bytes, &mut csv)
        .map_err(|error| error.to_string())?;
    Ok(String::from_utf8_lossy(&csv).into_owned())
}

/// Every input: the compact export and the CLI agree with the typed path exactly.
fn check_export_and_cli(input: &Path) {
    let bytes = read(input);
    let typed = typed_outcome(&bytes);
    assert_eq!(compact_outcome(&bytes), typed, "{}", input.display());
    let path = input.to_string_lossy();
    let output = baseten_tests::run_cli(
        &["show", path.as_ref(), "--format", "csv"],
        &baseten_tests::cli_context(),
    );
    match typed {
        Ok(csv) => {
            assert!(output.success(), "{}: {}", input.display(), output.stderr);
            assert_eq!(output.stdout, csv, "{}", input.display());
            assert_eq!(output.stderr, "");
        }
        Err(error) => {
            assert_eq!(output.code, std::process::ExitCode::from(1));
            assert_eq!(output.stdout, "");
            assert_eq!(output.stderr, format!("error: {path}: {error}\n"));
        }
    }
}

#[test]
fn compact_export_and_cli_match_the_typed_path_on_every_input() {
    let mut inputs = files_with_extension(&fixtures_dir(), "json");
    inputs.extend(files_with_extension(
        &fixtures_dir().join("malformed"),
        "json",
    ));
    if let Some(dir) = shared_dir("recorded") {
        inputs.extend(files_with_extension(&dir, "json"));
    }
    assert!(inputs.len() >= 26, "{inputs:?}");
    for input in &inputs {
        check_export_and_cli(input);
    }
}

/// The CLI on the recorded series matches its golden CSV; on a malformed input it fails with
/// one line on stderr, carrying the golden error.
#[test]
fn cli_matches_golden_output() {
    let context = baseten_tests::cli_context();
    if let Some(dir) = shared_dir("recorded") {
        let input = dir.join("deployment-series-20m-requests.json");
        let output = baseten_tests::run_cli(
            &["show", &input.to_string_lossy(), "--format", "csv"],
            &context,
        );
        assert!(output.success(), "stderr: {}", output.stderr);
        let expected =
            std::fs::read_to_string(expected_path("recorded-deployment-series-20m-requests.csv"))
                .unwrap();
        assert_eq!(output.stdout, expected);
    }

    let input = fixtures_dir().join("malformed/step-after-window-end.json");
    let output = baseten_tests::run_cli(&["show", &input.to_string_lossy()], &context);
    assert_eq!(output.code, std::process::ExitCode::from(1));
    assert!(output.stdout.is_empty());
    let lines: Vec<&str> = output.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "stderr: {}", output.stderr);
    let expected =
        std::fs::read_to_string(expected_path("malformed-step-after-window-end.txt")).unwrap();
    assert!(
        lines
            .first()
            .is_some_and(|line| line.starts_with("error: ") && line.ends_with(expected.trim_end())),
        "stderr: {}",
        output.stderr
    );
}
