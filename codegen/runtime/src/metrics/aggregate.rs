//! Everyday questions without loops: sums over label sets (by label, by HTTP status class),
//! ratios per step and over the window (`5xx` / all), and quantile series by number (p50, p99).

use crate::metrics::index_mapped::IndexMappedResponse;

use super::labels::StatusMatch;
use super::view::{Lookup, Metric, MetricsView, Point, TimeSeries};

/// A value per step, made by combining series, e.g. a sum: each point's `value` is `None` when
/// none of the combined series had data in that step.
#[derive(Debug, Clone, PartialEq)]
pub struct StepValues {
    /// One point per step of the response, in time order.
    pub points: Vec<Point>,
}

impl StepValues {
    /// The values, one per step.
    pub fn values(&self) -> impl ExactSizeIterator<Item = Option<f64>> + '_ {
        self.points.iter().map(|point| point.value)
    }

    /// The sum over the window of the steps with data; `None` when no step has any (or the sum
    /// overflows `f64`).
    pub fn total(&self) -> Option<f64> {
        sum(self.values())
    }

    /// `self / whole` per step and over the window, e.g. `5xx` requests over all of them.
    ///
    /// A step's ratio is `None` where `whole` has no data or is 0; where `whole` has data but
    /// `self` has none, the part counts as 0 (nothing of that kind happened). The window's ratio
    /// is the ratio of the [`total`](Self::total)s over the steps where `whole` is positive.
    /// Ratios that are not finite numbers are `None`. Both must come from the same response.
    pub fn ratio_to(&self, whole: &StepValues) -> Ratio {
        let points = self
            .points
            .iter()
            .zip(&whole.points)
            .map(|(part, whole)| Point {
                value: ratio(part.value, whole.value),
                ..*whole
            })
            .collect();
        let counted = || {
            self.points
                .iter()
                .zip(&whole.points)
                .filter(|(_, whole)| whole.value.is_some_and(|value| value > 0.0))
        };
        let part = sum(counted().map(|(part, _)| Some(part.value.unwrap_or(0.0))));
        let whole = sum(counted().map(|(_, whole)| whole.value));
        Ratio {
            steps: StepValues { points },
            window: ratio(part, whole),
        }
    }
}

/// A ratio per step and over the whole window; see [`StepValues::ratio_to`].
#[derive(Debug, Clone, PartialEq)]
pub struct Ratio {
    /// The ratio in each step.
    pub steps: StepValues,
    /// The ratio over the window: of the part's total to the whole's.
    pub window: Option<f64>,
}

fn ratio(part: Option<f64>, whole: Option<f64>) -> Option<f64> {
    let whole = whole.filter(|whole| *whole != 0.0)?;
    Some(part.unwrap_or(0.0) / whole).filter(|ratio| ratio.is_finite())
}

/// The sum of the values with data; `None` when there are none, or the sum is not finite.
fn sum(values: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    values
        .flatten()
        .fold(None, |total: Option<f64>, value| {
            Some(total.unwrap_or(0.0) + value)
        })
        .filter(|total| total.is_finite())
}

/// Per step, the sum of `series`' values.
fn sum_of<R: IndexMappedResponse>(
    view: MetricsView<'_, R>,
    series: &[TimeSeries<'_, R>],
) -> StepValues {
    StepValues {
        points: view
            .steps()
            .map(|step| Point {
                start_ms: step.start_ms,
                end_ms: step.end_ms,
                value: sum(series
                    .iter()
                    .map(|series| step.value(series.descriptor_index, series.label_index))),
            })
            .collect(),
    }
}

impl<'a, R: IndexMappedResponse> Metric<'a, R> {
    /// Per step, the sum over all of the metric's series.
    pub fn sum(&self) -> StepValues {
        sum_of(self.view(), &self.series().collect::<Vec<_>>())
    }

    /// Per step, the sum over the series whose labels include every pair of `labels` (a
    /// subset match: other labels may be present; `&[]` sums every series), e.g. all series
    /// of one region whatever their status.
    pub fn sum_where(&self, labels: &[(&str, &str)]) -> StepValues {
        let matching: Vec<TimeSeries<'a, R>> = self
            .series()
            .filter(|series| {
                labels
                    .iter()
                    .all(|(key, value)| series.label(key) == Some(*value))
            })
            .collect();
        sum_of(self.view(), &matching)
    }

    /// Per step, the sum over the series whose `status` label falls within `query`, each
    /// request counted once: for a class (`Class(5)`) the `5xx` series when the response has
    /// one (it already counts every 5xx code), else the sum of its codes (`500`, `503`, …); for
    /// a code, that code's series.
    pub fn sum_by_status(&self, query: StatusMatch) -> StepValues {
        sum_of(self.view(), &self.status_series(query))
    }

    /// Per step and over the window, the share of requests whose status falls within `part`
    /// among all requests with a status, each counted once (see
    /// [`sum_by_status`](Self::sum_by_status)); e.g. the `5xx` error rate.
    ///
    /// ```
    /// use baseten_api::metrics::{self, StatusMatch};
    /// use baseten_api::models::GetModelMetricsResponseV1;
    ///
    /// let json = br#"{"start_epoch_millis": 0, "end_epoch_millis": 60000, "mode": "SERIES",
    ///   "step_seconds": 30,
    ///   "metric_descriptors": [{"name": "requests", "unit_hint": "COUNT", "kind": "COUNTER",
    ///     "label_sets": [{"status": "200"}, {"status": "500"}, {"status": "503"}]}],
    ///   "metric_values": [{"start_epoch_millis": 0, "values": [[90, 6, 4]]},
    ///                     {"start_epoch_millis": 30000, "values": [[100, null, null]]}]}"#;
    /// let response: GetModelMetricsResponseV1 = metrics::decode(json)?;
    /// let view = metrics::validate(&response)?;
    /// let requests = view.metric("requests").unique()?.expect("a requests metric");
    /// let errors = requests.status_ratio(StatusMatch::Class(5));
    /// assert_eq!(errors.steps.values().collect::<Vec<_>>(), [Some(0.1), Some(0.0)]);
    /// assert_eq!(errors.window, Some(0.05));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn status_ratio(&self, part: StatusMatch) -> Ratio {
        let all: Vec<TimeSeries<'a, R>> = (1..=9)
            .flat_map(|class| self.status_series(StatusMatch::Class(class)))
            .collect();
        let whole = sum_of(self.view(), &all);
        self.sum_by_status(part).ratio_to(&whole)
    }

    /// The series [`sum_by_status`](Self::sum_by_status) adds up.
    fn status_series(&self, query: StatusMatch) -> Vec<TimeSeries<'a, R>> {
        let covered = self.series_with_status(query);
        let classes: Vec<TimeSeries<'a, R>> = covered
            .iter()
            .copied()
            .filter(|series| matches!(series.status(), Some(StatusMatch::Class(_))))
            .collect();
        if classes.is_empty() { covered } else { classes }
    }

    /// The series whose `quantile` label is the number `quantile` (`0.99` finds `"0.99"` and
    /// `"0.990"`); [`Lookup::Ambiguous`] when several are.
    pub fn quantile(&self, quantile: f64) -> Lookup<TimeSeries<'a, R>> {
        Lookup::from_matches(
            self.series()
                .filter(|series| series.quantile() == Some(quantile))
                .collect(),
        )
    }

    /// The median series, `quantile=0.5`.
    pub fn p50(&self) -> Lookup<TimeSeries<'a, R>> {
        self.quantile(0.5)
    }

    /// The `quantile=0.9` series.
    pub fn p90(&self) -> Lookup<TimeSeries<'a, R>> {
        self.quantile(0.9)
    }

    /// The `quantile=0.95` series.
    pub fn p95(&self) -> Lookup<TimeSeries<'a, R>> {
        self.quantile(0.95)
    }

    /// The `quantile=0.99` series.
    pub fn p99(&self) -> Lookup<TimeSeries<'a, R>> {
        self.quantile(0.99)
    }

    /// The average series, `stat=avg`; [`Lookup::Ambiguous`] when several are.
    pub fn average(&self) -> Lookup<TimeSeries<'a, R>> {
        Lookup::from_matches(self.series().filter(TimeSeries::is_average).collect())
    }
}

impl<'a, R: IndexMappedResponse> MetricsView<'a, R> {
    /// The series of the metric named `name` whose `quantile` label is the number `quantile`,
    /// across every descriptor of that name: [`Lookup::Ambiguous`] when more than one matches.
    ///
    /// ```
    /// use baseten_api::metrics;
    /// use baseten_api::models::GetModelMetricsResponseV1;
    ///
    /// let json = br#"{"start_epoch_millis": 0, "end_epoch_millis": 60000, "mode": "SUMMARY",
    ///   "metric_descriptors": [{"name": "latency", "unit_hint": "SECONDS", "kind": "HISTOGRAM",
    ///     "label_sets": [{"quantile": "0.5"}, {"quantile": "0.99"}, {"stat": "avg"}]}],
    ///   "metric_values": [{"start_epoch_millis": 0, "values": [[0.2, 1.5, 0.3]]}]}"#;
    /// let response: GetModelMetricsResponseV1 = metrics::decode(json)?;
    /// let view = metrics::validate(&response)?;
    /// let p99 = view.quantile("latency", 0.99).unique()?.and_then(|p99| p99.value_at(0));
    /// assert_eq!(p99, Some(1.5));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn quantile(&self, name: &str, quantile: f64) -> Lookup<TimeSeries<'a, R>> {
        Lookup::from_matches(
            self.metrics()
                .filter(|metric| metric.name == name)
                .flat_map(|metric| metric.quantile(quantile).into_matches())
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{AmbiguousLookup, decode, validate};
    use crate::models::GetModelMetricsResponseV1;

    const RESPONSE: &str = r#"{
      "start_epoch_millis": 0, "end_epoch_millis": 120000, "mode": "SERIES", "step_seconds": 30,
      "metric_descriptors": [
        {"name": "requests", "unit_hint": "COUNT", "kind": "COUNTER", "label_sets": [
          {"status": "200", "zone": "a"}, {"status": "200", "zone": "b"}, {"status": "500", "zone": "a"},
          {"status": "503", "zone": "a"}, {"status": "4xx", "zone": "a"}, {"status": "404", "zone": "a"},
          {"zone": "a"}]},
        {"name": "classes", "unit_hint": "COUNT", "kind": "COUNTER", "label_sets": [
          {"status": "5xx"}, {"status": "503"}, {"status": "2xx"}]},
        {"name": "latency", "unit_hint": "SECONDS", "kind": "HISTOGRAM", "label_sets": [
          {"quantile": "0.5"}, {"quantile": "0.90"}, {"quantile": "0.95"}, {"quantile": "0.99"},
          {"stat": "avg"}, {"quantile": "0.99"}]},
        {"name": "latency", "unit_hint": "SECONDS", "kind": "HISTOGRAM", "label_sets": [
          {"quantile": "0.5"}]}
      ],
      "metric_values": [
        {"start_epoch_millis": 0, "values": [[10, 20, 3, 1, 5, 4, 100], [8, 3, 92], [1, 2, 3, 4, 5, 6], [7]]},
        {"start_epoch_millis": 30000, "values": [[10, null, null, null, null, null, null], [null, null, 50], [1, 2, 3, 4, 5, 6], [7]]},
        {"start_epoch_millis": 60000, "values": [[null, null, null, null, null, null, null], [null, null, null], [1, 2, 3, 4, 5, 6], [7]]},
        {"start_epoch_millis": 90000, "values": [[0, 0, 0, 0, 0, 0, 0], [0, 0, 0], [1, 2, 3, 4, 5, 6], [7]]}
      ]
    }"#;

    fn response() -> GetModelMetricsResponseV1 {
        decode(RESPONSE.as_bytes()).unwrap()
    }

    fn metric<'a>(
        view: &MetricsView<'a, GetModelMetricsResponseV1>,
        name: &str,
    ) -> Metric<'a, GetModelMetricsResponseV1> {
        view.metric(name).unique().unwrap().unwrap()
    }

    fn values(steps: &StepValues) -> Vec<Option<f64>> {
        steps.values().collect()
    }

    #[test]
    fn sums_add_what_has_data_and_keep_the_steps() {
        let r = response();
        let view = validate(&r).unwrap();
        let requests = metric(&view, "requests");
        let all = requests.sum();
        assert_eq!(values(&all), [Some(143.0), Some(10.0), None, Some(0.0)]);
        let spans: Vec<_> = all.points.iter().map(|p| (p.start_ms, p.end_ms)).collect();
        assert_eq!(
            spans,
            [(0, 30000), (30000, 60000), (60000, 90000), (90000, 120000)]
        );
        assert_eq!(all.total(), Some(153.0));
        let zone_b = requests.sum_where(&[("zone", "b")]);
        assert_eq!(values(&zone_b), [Some(20.0), None, None, Some(0.0)]);
        let ok_in_a = requests.sum_where(&[("status", "200"), ("zone", "a")]);
        assert_eq!(values(&ok_in_a), [Some(10.0), Some(10.0), None, Some(0.0)]);
        assert_eq!(values(&requests.sum_where(&[])), values(&all));
        let none = requests.sum_where(&[("zone", "c")]);
        assert_eq!(values(&none), [None, None, None, None]);
        assert_eq!(none.total(), None);
    }

    #[test]
    fn status_sums_count_each_request_once() {
        let r = response();
        let view = validate(&r).unwrap();
        let requests = metric(&view, "requests");
        // Codes only: 500 + 503.
        assert_eq!(
            values(&requests.sum_by_status(StatusMatch::Class(5)))[0],
            Some(4.0)
        );
        // A class series and a code in it: the class alone (4xx, not 4xx + 404).
        assert_eq!(
            values(&requests.sum_by_status(StatusMatch::Class(4)))[0],
            Some(5.0)
        );
        assert_eq!(
            values(&requests.sum_by_status(StatusMatch::Code(404)))[0],
            Some(4.0)
        );
        let classes = metric(&view, "classes");
        assert_eq!(
            values(&classes.sum_by_status(StatusMatch::Class(5)))[0],
            Some(8.0)
        );
        assert_eq!(
            values(&classes.sum_by_status(StatusMatch::Code(503)))[0],
            Some(3.0)
        );
    }

    #[test]
    fn ratios_per_step_and_over_the_window() {
        let r = response();
        let view = validate(&r).unwrap();
        let requests = metric(&view, "requests");
        // All with a status: 200a + 200b + (500 + 503) + 4xx = 10 + 20 + 4 + 5 = 39; the
        // unlabelled 100 has no status.
        let errors = requests.status_ratio(StatusMatch::Class(5));
        assert_eq!(
            values(&errors.steps),
            [Some(4.0 / 39.0), Some(0.0), None, None]
        );
        assert_eq!(errors.window, Some(4.0 / 49.0));
        let classes = metric(&view, "classes");
        let errors = classes.status_ratio(StatusMatch::Class(5));
        assert_eq!(values(&errors.steps), [Some(0.08), Some(0.0), None, None]);
        assert_eq!(errors.window, Some(8.0 / 150.0));
        let spans: Vec<_> = errors.steps.points.iter().map(|p| p.start_ms).collect();
        assert_eq!(spans, [0, 30000, 60000, 90000]);
        // Nothing to divide by.
        let part = StepValues {
            points: vec![point(Some(1.0))],
        };
        let zero = StepValues {
            points: vec![point(Some(0.0))],
        };
        assert_eq!(part.ratio_to(&zero).window, None);
        // A step whose whole is 0 is left out of the window's ratio, part and all.
        let parts = StepValues {
            points: vec![point(Some(1.0)), point(Some(1.0))],
        };
        let wholes = StepValues {
            points: vec![point(Some(0.0)), point(Some(4.0))],
        };
        assert_eq!(parts.ratio_to(&wholes).window, Some(0.25));
        assert_eq!(values(&part.ratio_to(&zero).steps), [None]);
        let huge = StepValues {
            points: vec![point(Some(f64::MAX)), point(Some(f64::MAX))],
        };
        assert_eq!(huge.total(), None);
        let tiny = StepValues {
            points: vec![point(Some(f64::MIN_POSITIVE))],
        };
        assert_eq!(values(&huge.ratio_to(&tiny).steps), [None]);
        assert_eq!(ratio(Some(1.0), Some(4.0)), Some(0.25));
        assert_eq!(ratio(None, Some(4.0)), Some(0.0));
        assert_eq!(ratio(Some(1.0), None), None);
    }

    fn point(value: Option<f64>) -> Point {
        Point {
            start_ms: 0,
            end_ms: 1,
            value,
        }
    }

    #[test]
    fn quantiles_are_found_by_number_and_ambiguity_is_kept() {
        let r = response();
        let view = validate(&r).unwrap();
        let latency = view.metric("latency");
        assert!(matches!(latency, Lookup::Ambiguous(ref all) if all.len() == 2));
        let first = latency.into_matches()[0];
        assert_eq!(
            first.p50().unique().unwrap().map(|s| s.label_index),
            Some(0)
        );
        assert_eq!(
            first.p90().unique().unwrap().map(|s| s.label_index),
            Some(1)
        );
        assert_eq!(
            first.p95().unique().unwrap().map(|s| s.label_index),
            Some(2)
        );
        assert!(matches!(first.p99(), Lookup::Ambiguous(ref all) if all.len() == 2));
        assert_eq!(
            first.average().unique().unwrap().map(|s| s.label_index),
            Some(4)
        );
        assert!(matches!(first.quantile(0.75), Lookup::NotFound));
        // Across descriptors of one name: two medians.
        assert!(
            matches!(view.quantile("latency", 0.5), Lookup::Ambiguous(ref all) if all.len() == 2)
        );
        let p95 = view.quantile("latency", 0.95).unique().unwrap();
        assert_eq!(p95.and_then(|s| s.value_at(0)), Some(3.0));
        assert!(matches!(view.quantile("absent", 0.5), Lookup::NotFound));
        let requests = metric(&view, "requests");
        assert!(matches!(requests.average(), Lookup::NotFound));
    }

    /// One rule: a lookup by label set reads `quantile` by number, as `quantile` does.
    #[test]
    fn a_label_lookup_reads_a_quantile_by_number_as_quantile_does() {
        let r = response();
        let view = validate(&r).unwrap();
        for (text, number, index) in [
            ("0.9", 0.9, 1),
            ("0.90", 0.9, 1),
            ("0.900", 0.9, 1),
            ("0.95", 0.95, 2),
            ("0.950", 0.95, 2),
            ("9.5e-1", 0.95, 2),
        ] {
            let by_label = view.series("latency", &[("quantile", text)]);
            let by_number = view.quantile("latency", number);
            assert_eq!(
                by_label.unique().unwrap().map(|s| s.label_index),
                Some(index),
                "{text}"
            );
            assert_eq!(
                by_number.unique().unwrap().map(|s| s.label_index),
                Some(index),
                "{number}"
            );
        }
        // The response repeats p99: ambiguous however it is written.
        for text in ["0.99", "0.990"] {
            let found = view.series("latency", &[("quantile", text)]);
            assert!(
                matches!(found, Lookup::Ambiguous(ref all) if all.len() == 2),
                "{text}"
            );
        }
        // What is not a number is compared as text; other labels are never numbers.
        assert!(matches!(
            view.series("latency", &[("quantile", "p99")]),
            Lookup::NotFound
        ));
        assert!(matches!(
            view.series("classes", &[("status", "5XX")]),
            Lookup::NotFound
        ));
        // An ambiguous lookup is the caller's error, not an invalid response.
        let ambiguous = view.quantile("latency", 0.5).unique();
        let Err(ambiguous) = ambiguous else {
            panic!("{ambiguous:?}")
        };
        let error = crate::Error::from(ambiguous);
        let crate::Error::InvalidArgument(argument) = &error else {
            panic!("{error:?}")
        };
        assert_eq!(
            argument.downcast_ref::<AmbiguousLookup>(),
            Some(&AmbiguousLookup { matches: 2 })
        );
    }
}
