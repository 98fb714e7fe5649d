//! Tabular views: a wide table (a row per step, a column per series) and a long table (a row per step and series).

use std::fmt;

use crate::metrics::index_mapped::IndexMappedResponse;

use super::view::{MetricsView, Step, TimeSeries};

/// One row per step, one column per series.
///
/// The columns are every series in response order (descriptor, then label set); a row is a
/// [`Step`], whose [`cells`](Step::cells) yields one value per column in the same order.
pub struct WideTable<'a, R> {
    /// The columns, in response order.
    pub columns: Vec<TimeSeries<'a, R>>,
    view: MetricsView<'a, R>,
}

impl<R> fmt::Debug for WideTable<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WideTable")
            .field("columns", &self.columns)
            .finish_non_exhaustive()
    }
}

impl<'a, R: IndexMappedResponse> WideTable<'a, R> {
    /// The rows: one step each, in time order.
    pub fn rows(&self) -> impl ExactSizeIterator<Item = Step<'a>> + use<'a, R> {
        self.view.steps()
    }
}

/// One row of the long table: a series' value in one step.
pub struct LongRow<'a, R> {
    /// The step.
    pub step: Step<'a>,
    /// The series.
    pub series: TimeSeries<'a, R>,
    /// The value, or `None` when the series had no data in the step.
    pub value: Option<f64>,
}

impl<R> Clone for LongRow<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for LongRow<'_, R> {}

impl<R> fmt::Debug for LongRow<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LongRow")
            .field(
                "step",
                &(self.step.index, self.step.start_ms, self.step.end_ms),
            )
            .field("series", &self.series)
            .field("value", &self.value)
            .finish()
    }
}

impl<'a, R: IndexMappedResponse> MetricsView<'a, R> {
    /// The wide table: a column per series, a row per step.
    pub fn wide_table(&self) -> WideTable<'a, R> {
        WideTable {
            columns: self.all_series().collect(),
            view: *self,
        }
    }

    /// The long table: one row per step and series, in response order — value set by value set,
    /// then descriptor by descriptor, then label set by label set. A descriptor without label
    /// sets contributes no rows.
    pub fn long_rows(&self) -> impl Iterator<Item = LongRow<'a, R>> + use<'a, R> {
        LongRows {
            view: *self,
            series: self.all_series().collect(),
            step: None,
            next_step: 0,
            next_series: 0,
        }
    }
}

/// The iterator behind [`MetricsView::long_rows`]: steps in order, and in each every series.
///
/// Hand-written rather than nested `flat_map`s, which rebuilt every metric and series for each
/// step and ran slower: here the series are listed once, and a row is a step, a copied
/// [`TimeSeries`] and one indexed value.
struct LongRows<'a, R> {
    view: MetricsView<'a, R>,
    /// Every series, in response order.
    series: Vec<TimeSeries<'a, R>>,
    /// The step whose rows are being produced.
    step: Option<Step<'a>>,
    /// Index of the step after it.
    next_step: usize,
    /// Index into `series` of the next row's series.
    next_series: usize,
}

impl<'a, R: IndexMappedResponse> Iterator for LongRows<'a, R> {
    type Item = LongRow<'a, R>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let (Some(step), Some(&series)) = (self.step, self.series.get(self.next_series)) {
                self.next_series += 1;
                return Some(LongRow {
                    step,
                    series,
                    value: step.value(series.descriptor_index, series.label_index),
                });
            }
            if self.series.is_empty() {
                return None;
            }
            self.step = Some(self.view.step(self.next_step)?);
            self.next_step += 1;
            self.next_series = 0;
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let in_step = match self.step {
            Some(_) => self.series.len() - self.next_series,
            None => 0,
        };
        let later = self
            .view
            .step_count()
            .saturating_sub(self.next_step)
            .checked_mul(self.series.len());
        let remaining = later.and_then(|later| later.checked_add(in_step));
        (remaining.unwrap_or(usize::MAX), remaining)
    }
}

#[cfg(test)]
mod tests {
    use crate::metrics::{decode, validate};
    use crate::models::GetModelMetricsResponseV1;

    const RESPONSE: &str = r#"{
      "start_epoch_millis": 0, "end_epoch_millis": 90000, "mode": "SERIES", "step_seconds": 30,
      "metric_descriptors": [
        {"name": "a", "unit_hint": "COUNT", "kind": "GAUGE", "label_sets": [{}]},
        {"name": "none", "unit_hint": "COUNT", "kind": "GAUGE", "label_sets": []},
        {"name": "b", "unit_hint": "COUNT", "kind": "GAUGE", "label_sets": [{"k": "1"}, {"k": "2"}]}
      ],
      "metric_values": [
        {"start_epoch_millis": 0, "values": [[1], [], [2, 3]]},
        {"start_epoch_millis": 30000, "values": [[4], [], [null, 6]]}
      ]
    }"#;

    #[test]
    fn wide_rows_line_up_with_columns() {
        let r: GetModelMetricsResponseV1 = decode(RESPONSE.as_bytes()).unwrap();
        let view = validate(&r).unwrap();
        let table = view.wide_table();
        let columns: Vec<_> = table
            .columns
            .iter()
            .map(|s| (s.name, s.label_index))
            .collect();
        assert_eq!(columns, [("a", 0), ("b", 0), ("b", 1)]);
        let rows: Vec<Vec<_>> = table.rows().map(|step| step.cells().collect()).collect();
        assert_eq!(
            rows,
            [
                vec![Some(1.0), Some(2.0), Some(3.0)],
                vec![Some(4.0), None, Some(6.0)]
            ]
        );
    }

    #[test]
    fn long_rows_follow_value_set_then_descriptor_then_label_set() {
        let r: GetModelMetricsResponseV1 = decode(RESPONSE.as_bytes()).unwrap();
        let view = validate(&r).unwrap();
        let rows: Vec<_> = view
            .long_rows()
            .map(|row| {
                (
                    row.step.index,
                    row.series.name,
                    row.series.label_index,
                    row.value,
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                (0, "a", 0, Some(1.0)),
                (0, "b", 0, Some(2.0)),
                (0, "b", 1, Some(3.0)),
                (1, "a", 0, Some(4.0)),
                (1, "b", 0, None),
                (1, "b", 1, Some(6.0)),
            ]
        );
    }
}
