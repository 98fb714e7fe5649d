//! Per-series statistics of a response (points with data, min, mean, max, first and last value),
//! read straight from JSON bytes without holding the values: what a summary table needs, in
//! memory that does not grow with the number of steps.

use serde_core::de::DeserializeOwned;

use super::export::{ExportError, FlatSets};
use super::series_stats::SeriesStats;
use super::unit::Unit;
use super::validate::validate_response;
use super::view::MetricsView;
use crate::decode::decode;
use crate::decode::strict::Strict;
use crate::metrics::index_mapped::{IndexMappedDescriptor, IndexMappedResponse};

/// One series of a [`Summary`]: what identifies it and its statistics.
#[derive(Debug, Clone, Copy)]
pub struct SeriesSummary<'a> {
    /// Canonical metric name.
    pub name: &'a str,
    /// The labels identifying the series.
    pub labels: &'a std::collections::BTreeMap<String, String>,
    /// The metric's unit hint, as sent.
    pub unit_hint: Option<&'a str>,
    /// The unit the raw values are in, from the unit hint.
    pub unit: Unit,
    /// The series' values over the steps.
    pub stats: SeriesStats,
}

/// A checked response's window and mode, and every series' statistics; see [`summarize`].
#[derive(Debug)]
pub struct Summary<R> {
    /// The response; from [`summarize`], with its value sets left out (they were folded into
    /// the statistics as they were read).
    response: R,
    step_count: usize,
    /// One per series, in response order.
    stats: Vec<SeriesStats>,
}

impl<'a, R: IndexMappedResponse> MetricsView<'a, R> {
    /// Every series' statistics, in [`all_series`](MetricsView::all_series) order: what
    /// [`summarize`] gives for the same response.
    pub fn series_stats(&self) -> Vec<SeriesStats> {
        let mut stats = vec![SeriesStats::default(); self.series_count()];
        for step in self.steps() {
            for (position, value) in step.cells().enumerate() {
                if let Some(stats) = stats.get_mut(position) {
                    stats.add(step.index, value);
                }
            }
        }
        stats
    }
}

impl<R: IndexMappedResponse> Summary<R> {
    /// The mode's wire string, as [`MetricsView::mode`].
    pub fn mode(&self) -> Option<&str> {
        self.response.mode_str()
    }

    /// Start of the returned window, epoch milliseconds.
    pub fn window_start_ms(&self) -> i64 {
        self.response.window_start_millis()
    }

    /// End of the returned window, epoch milliseconds.
    pub fn window_end_ms(&self) -> i64 {
        self.response.window_end_millis()
    }

    /// The server's nominal step length, in seconds (`SERIES` mode only).
    pub fn step_seconds(&self) -> Option<i64> {
        self.response.step_seconds()
    }

    /// Number of steps (value sets).
    pub fn step_count(&self) -> usize {
        self.step_count
    }

    /// Every series with its statistics, in response order (descriptor by descriptor, then
    /// label set by label set), as [`MetricsView::all_series`].
    pub fn series(&self) -> impl Iterator<Item = SeriesSummary<'_>> {
        let mut stats = self.stats.iter();
        self.response
            .descriptors()
            .iter()
            .flat_map(move |descriptor| {
                let unit_hint = descriptor.unit_hint_str();
                let unit = descriptor.unit();
                let name = descriptor.name();
                descriptor
                    .label_sets()
                    .iter()
                    .map(|labels| SeriesSummary {
                        name,
                        labels,
                        unit_hint,
                        unit,
                        stats: SeriesStats::default(),
                    })
                    .collect::<Vec<_>>()
            })
            .map(move |mut series| {
                series.stats = stats.next().copied().unwrap_or_default();
                series
            })
    }
}

/// Decodes `json` as an `R`, checks it as [`validate_response`] does and gives every series'
/// statistics: what `decode::<R>` → `validate_response` → [`MetricsView::series_stats`] gives, with the same
/// errors, but without holding the values (about 5 in-memory bytes per JSON byte for the typed
/// response): each is folded into its series' statistics as it is read, so memory is the
/// descriptors and a few bytes per step.
///
/// A document the compact reader does not take is decoded again by [`decode`], which reports
/// the error with its JSON path, or, for a valid one, is summarized from the decoded `R`.
pub fn summarize<R>(json: &[u8]) -> Result<Summary<R>, ExportError>
where
    R: IndexMappedResponse + DeserializeOwned,
{
    let mut sets = FlatSets::summarizing();
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    let compact = R::deserialize(Strict {
        de: &mut deserializer,
        divert: Some(&mut sets),
    })
    .and_then(|response| deserializer.end().map(|()| response));
    match compact {
        Ok(response) if sets.diverted => {
            sets.check(&response).map_err(ExportError::Invalid)?;
            let series = response
                .descriptors()
                .iter()
                .map(|descriptor| descriptor.label_sets().len())
                .sum();
            let mut stats = sets.stats.take().unwrap_or_default();
            // No value at all (no steps) leaves no positions: every series is empty.
            stats.resize(series, SeriesStats::default());
            Ok(Summary {
                response,
                step_count: sets.starts.len(),
                stats,
            })
        }
        Ok(response) => summarize_typed(response),
        Err(_) => {
            drop(sets);
            let response: R = decode(json).map_err(ExportError::Decode)?;
            summarize_typed(response)
        }
    }
}

fn summarize_typed<R: IndexMappedResponse>(response: R) -> Result<Summary<R>, ExportError> {
    let view = validate_response(&response).map_err(ExportError::Invalid)?;
    let (stats, step_count) = (view.series_stats(), view.step_count());
    Ok(Summary {
        response,
        step_count,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::GetModelMetricsResponseV1;

    /// The typed path's statistics (with the window and step count), or its error's message.
    fn typed(json: &str) -> Result<(Vec<SeriesStats>, usize, i64), String> {
        let response: GetModelMetricsResponseV1 =
            decode(json.as_bytes()).map_err(|e| format!("invalid response: {e}"))?;
        let view = validate_response(&response).map_err(|e| e.to_string())?;
        Ok((view.series_stats(), view.step_count(), view.window_end_ms()))
    }

    fn summarized(json: &str) -> Result<(Vec<SeriesStats>, usize, i64), String> {
        let summary =
            summarize::<GetModelMetricsResponseV1>(json.as_bytes()).map_err(|e| e.to_string())?;
        let stats = summary.series().map(|series| series.stats).collect();
        Ok((stats, summary.step_count(), summary.window_end_ms()))
    }

    fn response(sets: &str) -> String {
        format!(
            r#"{{"start_epoch_millis":0,"end_epoch_millis":90000,"mode":"SERIES","step_seconds":30,
            "metric_descriptors":[
              {{"name":"a","unit_hint":"MEBIBYTES","kind":"GAUGE","label_sets":[{{}}]}},
              {{"name":"none","unit_hint":"COUNT","kind":"GAUGE","label_sets":[]}},
              {{"name":"b","unit_hint":"COUNT","kind":"GAUGE","label_sets":[{{"k":"1"}},{{"k":"2"}}]}}],
            "metric_values":{sets}}}"#
        )
    }

    #[test]
    fn statistics_are_folded_per_series_as_the_values_are_read() {
        let json = response(
            r#"[{"start_epoch_millis":0,"values":[[1],[],[2.5,null]]},
                {"values":[[-3],[],[4,null]],"start_epoch_millis":30000},
                {"start_epoch_millis":60000,"values":[[null],[],[0.5,null]]}]"#,
        );
        let (stats, steps, end) = summarized(&json).unwrap();
        assert_eq!((steps, end), (3, 90000));
        assert_eq!(
            stats,
            [
                SeriesStats {
                    steps: 3,
                    with_data: 2,
                    min: Some(-3.0),
                    max: Some(1.0),
                    sum: -2.0,
                    first: Some(1.0),
                    last: None,
                },
                SeriesStats {
                    steps: 3,
                    with_data: 3,
                    min: Some(0.5),
                    max: Some(4.0),
                    sum: 7.0,
                    first: Some(2.5),
                    last: Some(0.5),
                },
                SeriesStats {
                    steps: 3,
                    ..SeriesStats::default()
                },
            ]
        );
        assert_eq!(stats[0].mean(), Some(-1.0));
        assert_eq!(stats[2].mean(), None);
        let summary = summarize::<GetModelMetricsResponseV1>(json.as_bytes()).unwrap();
        let series: Vec<_> = summary
            .series()
            .map(|s| (s.name, s.labels.get("k").cloned(), s.unit, s.unit_hint))
            .collect();
        assert_eq!(
            series,
            [
                ("a", None, Unit::Mebibytes, Some("MEBIBYTES")),
                ("b", Some("1".to_owned()), Unit::Count, Some("COUNT")),
                ("b", Some("2".to_owned()), Unit::Count, Some("COUNT")),
            ]
        );
        assert_eq!(
            (
                summary.mode(),
                summary.window_start_ms(),
                summary.step_seconds()
            ),
            (Some("SERIES"), 0, Some(30))
        );
        assert_eq!(typed(&json), summarized(&json));
    }

    #[test]
    fn every_response_summarizes_as_the_typed_path_does() {
        for json in [
            response("[]"),
            // Value sets as arrays, which the compact reader leaves to the typed decode.
            response(r#"[[0,[[1],[],[2,3]]]]"#),
            response(r#"[{"start_epoch_millis":0,"values":[[1],[],[2]]}]"#),
            response(r#"[{"start_epoch_millis":0,"values":[[1],[2,3]]}]"#),
            response(r#"[{"start_epoch_millis":90001,"values":[[1],[],[2,3]]}]"#),
            response(r#"[{"start_epoch_millis":0,"values":[[1],[],[2,"x"]]}]"#),
            response(r#"[{"start_epoch_millis":0}]"#),
            response("null"),
            "{}".to_owned(),
            "[".to_owned(),
        ] {
            assert_eq!(summarized(&json), typed(&json), "{json}");
        }
        let empty = summarized(&response("[]")).unwrap();
        assert_eq!(empty.0, vec![SeriesStats::default(); 3]);
    }
}
