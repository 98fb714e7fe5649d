//! Builders for realistic metrics responses: descriptors, label sets and value sets assembled
//! so that the result always satisfies the index-mapped contract — `build` decodes and
//! validates it before handing it out, into whichever response type a generated crate has.

use std::collections::BTreeMap;

use serde_core::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::metrics;
use crate::metrics::index_mapped::IndexMappedResponse;

/// Why a built response was refused; a builder bug or inputs that cannot line up.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The JSON does not decode into the target type.
    #[error("built response does not decode: {0}")]
    Decode(#[from] metrics::DecodeError),
    /// The response breaks the index-mapped contract (e.g. a series with too few values).
    #[error("built response is misaligned: {0}")]
    Misaligned(#[from] metrics::AlignmentError),
}

/// One series: its labels and one value per step.
type SeriesSpec = (BTreeMap<String, String>, Vec<Option<f64>>);

/// One metric and its series' values, step by step.
#[derive(Debug, Clone)]
struct MetricSpec {
    name: String,
    unit_hint: String,
    kind: String,
    /// Per label set: its labels and one value per step.
    series: Vec<SeriesSpec>,
}

/// A metrics response under construction. Start with [`current`](Self::current),
/// [`summary`](Self::summary) or [`series`](Self::series).
#[derive(Debug, Clone)]
pub struct MetricsResponseBuilder {
    mode: &'static str,
    window: (i64, i64),
    step_seconds: Option<i64>,
    step_starts: Vec<i64>,
    metrics: Vec<MetricSpec>,
}

impl MetricsResponseBuilder {
    /// A `CURRENT` snapshot taken at `at_ms`: one value set.
    pub fn current(at_ms: i64) -> Self {
        Self::new("CURRENT", (at_ms, at_ms), None, vec![at_ms])
    }

    /// A `SUMMARY` over `[start_ms, end_ms)`: one value set.
    pub fn summary(start_ms: i64, end_ms: i64) -> Self {
        Self::new("SUMMARY", (start_ms, end_ms), None, vec![start_ms])
    }

    /// A `SERIES` of `steps` regular steps of `step_seconds` from `start_ms`.
    pub fn series(start_ms: i64, step_seconds: i64, steps: usize) -> Self {
        let step_ms = step_seconds.saturating_mul(1000);
        let starts = (0..steps)
            .map(|i| start_ms.saturating_add(step_ms.saturating_mul(i as i64)))
            .collect();
        let end = start_ms.saturating_add(step_ms.saturating_mul(steps as i64));
        Self::new("SERIES", (start_ms, end), Some(step_seconds), starts)
    }

    /// A `SERIES` whose steps start at `starts` (irregular, as at a promotion split), ending
    /// at `end_ms`.
    pub fn series_at(starts: Vec<i64>, end_ms: i64, step_seconds: i64) -> Self {
        let start = starts.first().copied().unwrap_or(end_ms);
        Self::new("SERIES", (start, end_ms), Some(step_seconds), starts)
    }

    fn new(mode: &'static str, window: (i64, i64), step: Option<i64>, starts: Vec<i64>) -> Self {
        Self {
            mode,
            window,
            step_seconds: step,
            step_starts: starts,
            metrics: Vec::new(),
        }
    }

    fn steps(&self) -> usize {
        self.step_starts.len()
    }

    /// Values for every step: `values` repeated or cut to the step count; `None` is no data.
    fn fit(&self, values: &[Option<f64>]) -> Vec<Option<f64>> {
        (0..self.steps())
            .map(|i| values.get(i).or(values.last()).copied().flatten())
            .collect()
    }

    /// An unlabelled gauge (e.g. `baseten_replicas_active`, unit `COUNT`).
    pub fn gauge(mut self, name: &str, unit_hint: &str, values: &[Option<f64>]) -> Self {
        let values = self.fit(values);
        self.metrics.push(MetricSpec {
            name: name.to_owned(),
            unit_hint: unit_hint.to_owned(),
            kind: "GAUGE".to_owned(),
            series: vec![(BTreeMap::new(), values)],
        });
        self
    }

    /// A counter split by status class (`status=2xx`, …), e.g.
    /// `baseten_inference_requests_total`.
    pub fn counter_by_status(mut self, name: &str, by_status: &[(&str, &[Option<f64>])]) -> Self {
        let series = by_status
            .iter()
            .map(|(status, values)| {
                let labels = BTreeMap::from([("status".to_owned(), (*status).to_owned())]);
                (labels, self.fit(values))
            })
            .collect();
        self.metrics.push(MetricSpec {
            name: name.to_owned(),
            unit_hint: "COUNT".to_owned(),
            kind: "COUNTER".to_owned(),
            series,
        });
        self
    }

    /// A histogram's quantiles (`quantile=0.99`, …) and its average (`stat=avg`), e.g.
    /// `baseten_end_to_end_response_time_seconds` in `SECONDS`.
    pub fn histogram(
        mut self,
        name: &str,
        unit_hint: &str,
        quantiles: &[(&str, &[Option<f64>])],
        avg: &[Option<f64>],
    ) -> Self {
        let mut series: Vec<_> = quantiles
            .iter()
            .map(|(quantile, values)| {
                let labels = BTreeMap::from([("quantile".to_owned(), (*quantile).to_owned())]);
                (labels, self.fit(values))
            })
            .collect();
        series.push((
            BTreeMap::from([("stat".to_owned(), "avg".to_owned())]),
            self.fit(avg),
        ));
        self.metrics.push(MetricSpec {
            name: name.to_owned(),
            unit_hint: unit_hint.to_owned(),
            kind: "HISTOGRAM".to_owned(),
            series,
        });
        self
    }

    /// The response as JSON, in Baseten's shape.
    pub fn to_json(&self) -> Value {
        let descriptors: Vec<Value> = self
            .metrics
            .iter()
            .map(|metric| {
                json!({
                    "name": metric.name,
                    "unit_hint": metric.unit_hint,
                    "kind": metric.kind,
                    "label_sets": metric.series.iter().map(|(labels, _)| labels).collect::<Vec<_>>(),
                })
            })
            .collect();
        let value_sets: Vec<Value> = self
            .step_starts
            .iter()
            .enumerate()
            .map(|(step, start)| {
                let values: Vec<Vec<Option<f64>>> = self
                    .metrics
                    .iter()
                    .map(|metric| {
                        metric
                            .series
                            .iter()
                            .map(|(_, values)| values.get(step).copied().flatten())
                            .collect()
                    })
                    .collect();
                json!({"start_epoch_millis": start, "values": values})
            })
            .collect();
        json!({
            "start_epoch_millis": self.window.0,
            "end_epoch_millis": self.window.1,
            "mode": self.mode,
            "step_seconds": self.step_seconds,
            "metric_descriptors": descriptors,
            "metric_values": value_sets,
        })
    }

    /// The response as `R`, decoded and validated: what a fake server should send.
    ///
    /// # Errors
    ///
    /// [`BuildError`] if `R` is not the metrics response shape or the steps are out of order.
    pub fn build<R: DeserializeOwned + IndexMappedResponse>(&self) -> Result<R, BuildError> {
        let bytes = serde_json::to_vec(&self.to_json()).unwrap_or_default();
        let response: R = metrics::decode(&bytes)?;
        metrics::validate(&response)?;
        Ok(response)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::GetModelMetricsResponseV1;

    #[test]
    fn built_responses_are_aligned_in_every_mode() {
        let series = MetricsResponseBuilder::series(1_000, 30, 3)
            .gauge(
                "baseten_replicas_active",
                "COUNT",
                &[Some(1.0), Some(2.0), None],
            )
            .counter_by_status(
                "baseten_inference_requests_total",
                &[("2xx", &[Some(5.0)]), ("5xx", &[None])],
            )
            .histogram(
                "baseten_end_to_end_response_time_seconds",
                "SECONDS",
                &[("0.99", &[Some(2.5)]), ("0.5", &[Some(1.0)])],
                &[Some(1.2)],
            );
        let response: GetModelMetricsResponseV1 = match series.build() {
            Ok(response) => response,
            Err(error) => panic!("{error}"),
        };
        assert_eq!(response.metric_values.len(), 3);
        assert_eq!(response.metric_values[1].start_epoch_millis, 31_000);
        assert_eq!(response.end_epoch_millis, 91_000);
        assert_eq!(response.metric_values[2].values[0], vec![None]);
        assert_eq!(response.metric_values[2].values[1], vec![Some(5.0), None]);
        assert_eq!(
            response.metric_values[0].values[2],
            vec![Some(2.5), Some(1.0), Some(1.2)]
        );
        assert_eq!(response.metric_descriptors[2].label_sets[2]["stat"], "avg");
        let csv = metrics::validate(&response)
            .map(|view| view.to_csv())
            .unwrap_or_default();
        assert!(
            csv.contains("31000,61000,baseten_replicas_active,,2\n"),
            "{csv}"
        );

        for builder in [
            MetricsResponseBuilder::current(5),
            MetricsResponseBuilder::summary(0, 10),
        ] {
            let one: Result<GetModelMetricsResponseV1, _> =
                builder.gauge("g", "COUNT", &[Some(1.0)]).build();
            assert!(one.is_ok_and(|r| r.metric_values.len() == 1 && r.step_seconds.is_none()));
        }
        let split: Result<GetModelMetricsResponseV1, _> =
            MetricsResponseBuilder::series_at(vec![0, 20_000, 30_000], 60_000, 30)
                .gauge("g", "COUNT", &[Some(1.0)])
                .build();
        assert!(split.is_ok());
        let unordered: Result<GetModelMetricsResponseV1, _> =
            MetricsResponseBuilder::series_at(vec![30_000, 0], 60_000, 30).build();
        assert!(
            matches!(unordered, Err(BuildError::Misaligned(_))),
            "{unordered:?}"
        );
    }
}
