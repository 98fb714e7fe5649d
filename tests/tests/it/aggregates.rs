//! The validated view's aggregation helpers on recorded responses: quantiles by number, status
//! sums and ratios, and lookups whose ambiguity is an error to handle.

use baseten_api::metric_names::{END_TO_END_RESPONSE_TIME_SECONDS, INFERENCE_REQUESTS_TOTAL};
use baseten_api::metrics::{self, AmbiguousLookup, StatusMatch};
use baseten_api::models::GetModelMetricsResponseV1;
use baseten_tests::shared_dir;

fn recorded(name: &str) -> Option<GetModelMetricsResponseV1> {
    let dir = shared_dir("recorded")?;
    let bytes = std::fs::read(dir.join(format!("{name}.json"))).unwrap_or_default();
    Some(metrics::decode(&bytes).unwrap_or_else(|error| panic!("{name}: {error}")))
}

/// Reads the quantiles of a recorded summary by number, and checks them against the labels.
fn check_quantiles(name: &str) {
    let Some(response) = recorded(name) else {
        return;
    };
    let view = metrics::validate(&response).unwrap_or_else(|error| panic!("{error}"));
    let latency = view
        .metric(END_TO_END_RESPONSE_TIME_SECONDS)
        .unique()
        .unwrap_or_else(|error| panic!("{error}"))
        .unwrap_or_else(|| panic!("{name}: no latency"));
    let by_label = |quantile: &str| {
        view.series(END_TO_END_RESPONSE_TIME_SECONDS, &[("quantile", quantile)])
            .unique()
            .ok()
            .flatten()
            .and_then(|series| series.value_at(0))
    };
    let read = |lookup: metrics::Lookup<metrics::TimeSeries<'_, _>>| {
        lookup
            .unique()
            .ok()
            .flatten()
            .and_then(|series| series.value_at(0))
    };
    for lookup in [
        latency.p50(),
        latency.p90(),
        latency.p95(),
        latency.p99(),
        latency.average(),
    ] {
        assert!(lookup.is_found(), "{name}");
    }
    let p50 = read(latency.p50());
    let p90 = read(latency.p90());
    let p95 = read(latency.p95());
    let p99 = read(latency.p99());
    assert_eq!(p50, by_label("0.5"), "{name}");
    assert_eq!(p90, by_label("0.9"), "{name}");
    assert_eq!(p95, by_label("0.95"), "{name}");
    assert_eq!(p99, by_label("0.99"), "{name}");
    assert!(
        p50 <= p90 && p90 <= p95 && p95 <= p99,
        "{name}: {p50:?} {p90:?} {p95:?} {p99:?}"
    );
    assert_eq!(
        read(view.quantile(END_TO_END_RESPONSE_TIME_SECONDS, 0.99)),
        p99
    );
    let average = read(latency.average());
    assert_eq!(
        average,
        view.series(END_TO_END_RESPONSE_TIME_SECONDS, &[("stat", "avg")])
            .unique()
            .ok()
            .flatten()
            .and_then(|series| series.value_at(0))
    );
}

#[test]
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared: Baseten's published documents and recorded responses"
)]
fn quantiles_of_recorded_summaries_read_by_number() {
    check_quantiles("deployment-summary-15m-traffic");
    check_quantiles("deployment-summary-15m-ingest-lag");
    check_quantiles("deployment-summary-6h-rest");
}

#[test]
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared: Baseten's published documents and recorded responses"
)]
fn a_recorded_series_of_only_200s_has_no_errors() {
    let Some(response) = recorded("deployment-series-20m-requests") else {
        return;
    };
    let view = metrics::validate(&response).unwrap_or_else(|error| panic!("{error}"));
    let requests = view
        .metric(INFERENCE_REQUESTS_TOTAL)
        .unique()
        .unwrap_or_else(|error| panic!("{error}"))
        .unwrap_or_else(|| panic!("no requests"));
    let all = requests.sum();
    let ok = requests.sum_by_status(StatusMatch::Class(2));
    assert_eq!(all, ok);
    assert!(all.total().is_some_and(|total| total > 0.0));
    let errors = requests.status_ratio(StatusMatch::Class(5));
    assert_eq!(errors.window, Some(0.0));
    assert_eq!(errors.steps.points.len(), view.step_count());
    // Every step with requests has a ratio of 0; a step without any has none.
    for (ratio, total) in errors.steps.values().zip(all.values()) {
        let expected = total.filter(|total| *total > 0.0).map(|_| 0.0);
        assert_eq!(ratio, expected);
    }
    let successes = requests.status_ratio(StatusMatch::Class(2));
    assert_eq!(successes.window, Some(1.0));
}

#[test]
fn an_ambiguous_lookup_is_an_error_with_question_mark() {
    let json = br#"{"start_epoch_millis": 0, "end_epoch_millis": 1000, "mode": "CURRENT",
      "metric_descriptors": [
        {"name": "replicas", "unit_hint": "COUNT", "kind": "GAUGE", "label_sets": [{}]},
        {"name": "replicas", "unit_hint": "COUNT", "kind": "GAUGE", "label_sets": [{}]}],
      "metric_values": [{"start_epoch_millis": 0, "values": [[2], [3]]}]}"#;
    let response: GetModelMetricsResponseV1 =
        metrics::decode(json).unwrap_or_else(|error| panic!("{error}"));
    let view = metrics::validate(&response).unwrap_or_else(|error| panic!("{error}"));
    // What a consumer's function returning the crate's error writes.
    #[allow(
        clippy::result_large_err,
        reason = "the crate's own error, as a consumer returns it"
    )]
    fn replicas(
        view: metrics::MetricsView<'_, GetModelMetricsResponseV1>,
    ) -> Result<Option<f64>, baseten_api::Error> {
        Ok(view
            .series("replicas", &[])
            .unique()?
            .and_then(|s| s.value_at(0)))
    }
    let error = replicas(view).expect_err("two replicas series");
    let baseten_api::Error::InvalidArgument(invalid) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(
        invalid.downcast_ref::<AmbiguousLookup>(),
        Some(&AmbiguousLookup { matches: 2 })
    );
}
