//! The `baseten-metrics` CLI on Baseten's recorded responses (`../shared/recorded`): the one CLI
//! check that reads Baseten's published material, so it stays with the tests that do (the
//! CLI's own tests are `generated/cli/tests/cli/`).

use std::path::Path;

use baseten_api::metrics;
use baseten_api::models::GetModelMetricsResponseV1;
use baseten_tests::{CliOutput, cli_context, run_cli, shared_dir};

// The CLI's own tests read its charts back the same way.
#[path = "../../../generated/cli/tests/cli/svg.rs"]
mod svg;
use svg::{assert_one_path_per_label_set, drawn_series, runs};

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
