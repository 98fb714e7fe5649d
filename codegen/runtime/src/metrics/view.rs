//! Borrowing views of a validated response: steps, metrics, series, lookups and points.

use std::collections::BTreeMap;
use std::fmt;

use crate::metrics::index_mapped::{
    IndexMappedDescriptor, IndexMappedResponse, IndexMappedValueSet,
};

use super::label_value::label_matches;
use super::unit::Unit;

/// A response that passed [`validate`](super::validate), and the entry point of every view.
///
/// It only borrows the response; the views it hands out borrow it too and copy no values. It is
/// `Copy`, so pass it by value. A fetched result gives one with `.view()`; a saved response with
/// [`validate`](super::validate):
///
/// ```
/// use baseten_api::metrics::{self, Step, TimeSeries};
/// use baseten_api::models::GetModelMetricsResponseV1;
///
/// let json = br#"{"start_epoch_millis": 0, "end_epoch_millis": 120000, "mode": "SERIES",
///   "step_seconds": 60,
///   "metric_descriptors": [{"name": "baseten_replicas_active", "unit_hint": "COUNT",
///     "kind": "GAUGE", "label_sets": [{}]}],
///   "metric_values": [{"start_epoch_millis": 0, "values": [[1]]},
///                     {"start_epoch_millis": 60000, "values": [[3]]}]}"#;
/// let response: GetModelMetricsResponseV1 = metrics::decode(json)?;
/// let view = metrics::validate(&response)?;
/// let steps: Vec<Step<'_>> = view.steps().collect();
/// assert_eq!((steps[1].start_ms, steps[1].end_ms), (60_000, 120_000));
/// let all: Vec<TimeSeries<'_, _>> = view.all_series().collect();
/// assert_eq!(all[0].name, "baseten_replicas_active");
/// assert!(view.to_csv().ends_with("60000,120000,baseten_replicas_active,,3\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct MetricsView<'a, R> {
    response: &'a R,
}

// Manual impls: deriving would require `R: Clone`/`R: Debug`, but only a reference is held.
impl<R> Clone for MetricsView<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for MetricsView<'_, R> {}

impl<R: IndexMappedResponse> fmt::Debug for MetricsView<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MetricsView")
            .field("mode", &self.mode())
            .field("window_start_ms", &self.window_start_ms())
            .field("window_end_ms", &self.window_end_ms())
            .field("steps", &self.step_count())
            .field("series", &self.series_count())
            .finish()
    }
}

impl<'a, R: IndexMappedResponse> MetricsView<'a, R> {
    /// Only [`validate`](super::validate) may build one, after its checks pass, or code holding
    /// a response that passed them and cannot have changed since (the typestate results in
    /// `crate::requests`, which own theirs).
    pub(crate) fn new(response: &'a R) -> Self {
        Self { response }
    }

    /// The response itself.
    pub fn response(&self) -> &'a R {
        self.response
    }

    /// The mode's wire string (`CURRENT`, `SUMMARY`, `SERIES`, or one this crate does not know).
    pub fn mode(&self) -> Option<&'a str> {
        self.response.mode_str()
    }

    /// Start of the returned window, epoch milliseconds.
    pub fn window_start_ms(&self) -> i64 {
        self.response.window_start_millis()
    }

    /// End of the returned window, epoch milliseconds; also the end of the last step.
    pub fn window_end_ms(&self) -> i64 {
        self.response.window_end_millis()
    }

    /// The server's nominal step length, in seconds (`SERIES` mode only).
    ///
    /// Informational: step boundaries come from the value sets' starts (see [`Step`]), because
    /// steps are irregular where the window is split, e.g. at a promotion.
    pub fn step_seconds(&self) -> Option<i64> {
        self.response.step_seconds()
    }

    /// Number of steps (value sets).
    pub fn step_count(&self) -> usize {
        self.response.value_sets().len()
    }

    /// Step `index`, or `None` past the end.
    pub fn step(&self, index: usize) -> Option<Step<'a>> {
        let value_sets = self.response.value_sets();
        let set = value_sets.get(index)?;
        Some(Step {
            index,
            start_ms: set.start_epoch_millis(),
            end_ms: step_end(value_sets, index, self.window_end_ms()),
            values: set.values(),
        })
    }

    /// The steps, in time order.
    pub fn steps(&self) -> impl ExactSizeIterator<Item = Step<'a>> + use<'a, R> {
        let value_sets = self.response.value_sets();
        let window_end_ms = self.window_end_ms();
        value_sets.iter().enumerate().map(move |(index, set)| Step {
            index,
            start_ms: set.start_epoch_millis(),
            end_ms: step_end(value_sets, index, window_end_ms),
            values: set.values(),
        })
    }

    /// Number of metrics (descriptors).
    pub fn metric_count(&self) -> usize {
        self.response.descriptors().len()
    }

    /// The metrics, in descriptor order.
    pub fn metrics(&self) -> impl ExactSizeIterator<Item = Metric<'a, R>> + use<'a, R> {
        let view = *self;
        self.response
            .descriptors()
            .iter()
            .enumerate()
            .map(move |(index, descriptor)| Metric::new(view, index, descriptor))
    }

    /// Number of series: the label sets of all descriptors together.
    pub fn series_count(&self) -> usize {
        self.response
            .descriptors()
            .iter()
            .map(|descriptor| descriptor.label_sets().len())
            .sum()
    }

    /// Every series, in response order: descriptor by descriptor, then label set by label set.
    pub fn all_series(&self) -> impl Iterator<Item = TimeSeries<'a, R>> + use<'a, R> {
        self.metrics().flat_map(|metric| metric.series())
    }

    /// The metric named `name`.
    ///
    /// [`Lookup::NotFound`] when no descriptor has that name; [`Lookup::Ambiguous`] (every match,
    /// in descriptor order) when several do.
    pub fn metric(&self, name: &str) -> Lookup<Metric<'a, R>> {
        Lookup::from_matches(
            self.metrics()
                .filter(|metric| metric.name == name)
                .collect(),
        )
    }

    /// All series of the metric named `name`, in label-set order.
    ///
    /// `Found` with an empty list when the metric exists but has no label sets;
    /// [`Lookup::NotFound`] when no descriptor has that name; [`Lookup::Ambiguous`] (one list per
    /// descriptor, in descriptor order) when several descriptors share it.
    pub fn series_named(&self, name: &str) -> Lookup<Vec<TimeSeries<'a, R>>> {
        self.metric(name).map(|metric| metric.series().collect())
    }

    /// The one series named `name` whose label set equals `labels` exactly.
    ///
    /// `labels` is compared as a sorted map: order does not matter, every key must be present
    /// with the same value and no other key may be (`&[]` finds the unlabelled series `{}`). A
    /// key given twice keeps its last value. A `quantile` value is compared as a number, as
    /// [`quantile`](Self::quantile) does (`"0.95"` finds `"0.950"`); every other value as text. [`Lookup::Ambiguous`] (every match, in response
    /// order) when the response repeats that name and label set.
    pub fn series(&self, name: &str, labels: &[(&str, &str)]) -> Lookup<TimeSeries<'a, R>> {
        let wanted: BTreeMap<&str, &str> = labels.iter().copied().collect();
        Lookup::from_matches(
            self.all_series()
                .filter(|series| series.name == name && series.has_exactly(&wanted))
                .collect(),
        )
    }
}

/// End of step `index`: the next value set's start, or the window end for the last one.
fn step_end<V: IndexMappedValueSet>(value_sets: &[V], index: usize, window_end_ms: i64) -> i64 {
    index
        .checked_add(1)
        .and_then(|next| value_sets.get(next))
        .map_or(window_end_ms, IndexMappedValueSet::start_epoch_millis)
}

/// One step: a value set and the time span it covers, `[start_ms, end_ms)`.
///
/// `end_ms` is the next step's start, or the window end for the last step (which may equal
/// `start_ms`: an empty step). After validation `end_ms >= start_ms` always holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step<'a> {
    /// Position among the value sets (0-based).
    pub index: usize,
    /// Start, epoch milliseconds (inclusive).
    pub start_ms: i64,
    /// End, epoch milliseconds (exclusive).
    pub end_ms: i64,
    /// `values[descriptor][label_set]`, borrowed from the response; `None` is no data.
    pub values: &'a [Vec<Option<f64>>],
}

impl<'a> Step<'a> {
    /// Length of the step in milliseconds (0 for an empty last step).
    pub fn duration_ms(&self) -> u64 {
        // abs_diff cannot overflow, even for spans wider than i64::MAX.
        self.end_ms.abs_diff(self.start_ms)
    }

    /// The value of `descriptor`'s label set `label_set` in this step; `None` for no data or an
    /// index out of range.
    pub fn value(&self, descriptor: usize, label_set: usize) -> Option<f64> {
        self.values
            .get(descriptor)
            .and_then(|list| list.get(label_set))
            .copied()
            .flatten()
    }

    /// This step's values in response order (descriptor, then label set): one per series, in the
    /// order of [`MetricsView::all_series`] and of the [`WideTable`](super::WideTable) columns.
    pub fn cells(&self) -> impl Iterator<Item = Option<f64>> + use<'a> {
        self.values.iter().flat_map(|list| list.iter().copied())
    }
}

/// Result of a lookup by name, or by name and labels.
///
/// A response may repeat a metric name, or a name and label set, so a lookup has three
/// outcomes and ambiguity is one of them: [`unique`](Self::unique) makes it an error to handle
/// (`?` turns it into [`Error::InvalidArgument`](crate::Error::InvalidArgument), the caller's
/// error, not the server's), and a `match`
/// gets every match.
///
/// ```
/// use baseten_api::metrics::{self, Lookup};
/// use baseten_api::models::GetModelMetricsResponseV1;
///
/// let json = br#"{"start_epoch_millis": 0, "end_epoch_millis": 1000, "mode": "CURRENT",
///   "metric_descriptors": [
///     {"name": "replicas", "unit_hint": "COUNT", "kind": "GAUGE", "label_sets": [{}]},
///     {"name": "replicas", "unit_hint": "COUNT", "kind": "GAUGE", "label_sets": [{}]}],
///   "metric_values": [{"start_epoch_millis": 0, "values": [[2], [3]]}]}"#;
/// let response: GetModelMetricsResponseV1 = metrics::decode(json)?;
/// let view = metrics::validate(&response)?;
/// let error = view.series("replicas", &[]).unique().unwrap_err();
/// assert_eq!(error.matches, 2);
/// assert!(view.series("absent", &[]).unique()?.is_none());
/// match view.series("replicas", &[]) {
///     Lookup::Found(one) => println!("{:?}", one.value_at(0)),
///     Lookup::NotFound => println!("no replicas"),
///     Lookup::Ambiguous(all) => assert_eq!(all.len(), 2),
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Lookup<T> {
    /// Exactly one match.
    Found(T),
    /// No match.
    NotFound,
    /// More than one match, all of them, in response order.
    Ambiguous(Vec<T>),
}

impl<T> Lookup<T> {
    pub(crate) fn from_matches(mut matches: Vec<T>) -> Self {
        match matches.len() {
            0 => Self::NotFound,
            1 => matches.pop().map_or(Self::NotFound, Self::Found),
            _ => Self::Ambiguous(matches),
        }
    }

    /// The one match, `None` for none, and an error when there are several: ambiguity is never
    /// read as "not there".
    pub fn unique(self) -> Result<Option<T>, AmbiguousLookup> {
        match self {
            Self::Found(found) => Ok(Some(found)),
            Self::NotFound => Ok(None),
            Self::Ambiguous(matches) => Err(AmbiguousLookup {
                matches: matches.len(),
            }),
        }
    }

    /// The match, if there is exactly one: `None` both when there is none and when there are
    /// several.
    #[deprecated(
        note = "reads an ambiguous lookup as None; use `unique()`, which makes it an error, or match on the Lookup"
    )]
    pub fn found(self) -> Option<T> {
        match self {
            Self::Found(found) => Some(found),
            Self::NotFound | Self::Ambiguous(_) => None,
        }
    }

    /// Every match, in response order: none, one, or all of an ambiguous lookup.
    pub fn into_matches(self) -> Vec<T> {
        match self {
            Self::Found(found) => vec![found],
            Self::NotFound => Vec::new(),
            Self::Ambiguous(matches) => matches,
        }
    }

    /// Whether there is exactly one match.
    pub fn is_found(&self) -> bool {
        matches!(self, Self::Found(_))
    }

    /// Applies `f` to every match.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> Lookup<U> {
        match self {
            Self::Found(found) => Lookup::Found(f(found)),
            Self::NotFound => Lookup::NotFound,
            Self::Ambiguous(matches) => Lookup::Ambiguous(matches.into_iter().map(f).collect()),
        }
    }
}

/// A lookup that expected at most one match found several: the response repeats a metric name
/// (or a name and label set). From [`Lookup::unique`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AmbiguousLookup {
    /// How many matches there were (at least 2).
    pub matches: usize,
}

impl std::fmt::Display for AmbiguousLookup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the response has {} matches where at most one was expected (a repeated metric name or label set)",
            self.matches
        )
    }
}

impl std::error::Error for AmbiguousLookup {}

impl From<AmbiguousLookup> for crate::Error {
    /// A lookup that asked for one match where the response holds several is the caller's
    /// question, not the server's answer, gone wrong (the response is valid: it may repeat a
    /// label set): an [`InvalidArgument`](crate::InvalidArgument) whose
    /// [`downcast_ref`](crate::InvalidArgument::downcast_ref) gives the [`AmbiguousLookup`].
    fn from(error: AmbiguousLookup) -> Self {
        Self::InvalidArgument(crate::InvalidArgument::new(error))
    }
}

/// One metric (descriptor) and its series.
pub struct Metric<'a, R> {
    /// Position among the descriptors, i.e. in every value set's `values` (0-based).
    pub index: usize,
    /// Canonical metric name.
    pub name: &'a str,
    /// The unit hint's wire string, as sent.
    pub unit_hint: Option<&'a str>,
    /// The kind's wire string, as sent (`GAUGE`, `COUNTER`, `HISTOGRAM`, or unknown).
    pub kind: Option<&'a str>,
    /// The label set of each series, in value order.
    pub label_sets: &'a [BTreeMap<String, String>],
    unit: Unit,
    view: MetricsView<'a, R>,
}

impl<R> Clone for Metric<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Metric<'_, R> {}

impl<R> fmt::Debug for Metric<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Metric")
            .field("index", &self.index)
            .field("name", &self.name)
            .field("unit_hint", &self.unit_hint)
            .field("kind", &self.kind)
            .field("label_sets", &self.label_sets)
            .finish_non_exhaustive()
    }
}

impl<'a, R: IndexMappedResponse> Metric<'a, R> {
    fn new(view: MetricsView<'a, R>, index: usize, descriptor: &'a R::Descriptor) -> Self {
        Self {
            index,
            name: descriptor.name(),
            unit_hint: descriptor.unit_hint_str(),
            kind: descriptor.kind_str(),
            label_sets: descriptor.label_sets(),
            unit: descriptor.unit(),
            view,
        }
    }

    /// The unit the raw values are in, from the unit hint.
    pub fn unit(&self) -> Unit {
        self.unit
    }

    /// The whole response's view this metric belongs to (its window and steps, e.g. for a chart
    /// of this metric alone).
    pub fn view(&self) -> MetricsView<'a, R> {
        self.view
    }

    /// The metric's series, in label-set order.
    pub fn series(&self) -> impl ExactSizeIterator<Item = TimeSeries<'a, R>> + use<'a, R> {
        let metric = *self;
        self.label_sets
            .iter()
            .enumerate()
            .map(move |(label_index, labels)| TimeSeries {
                descriptor_index: metric.index,
                label_index,
                name: metric.name,
                labels,
                unit_hint: metric.unit_hint,
                kind: metric.kind,
                unit: metric.unit,
                view: metric.view,
            })
    }
}

/// One series: a metric's label set, and through [`TimeSeries::points`] its value in every step.
pub struct TimeSeries<'a, R> {
    /// Index of the metric among the descriptors (0-based).
    pub descriptor_index: usize,
    /// Index of this series among the metric's label sets (0-based).
    pub label_index: usize,
    /// Canonical metric name.
    pub name: &'a str,
    /// The labels identifying this series; a sorted map, so two series with the same pairs
    /// compare equal whatever order the server listed the keys in.
    pub labels: &'a BTreeMap<String, String>,
    /// The metric's unit hint, as sent.
    pub unit_hint: Option<&'a str>,
    /// The metric's kind, as sent.
    pub kind: Option<&'a str>,
    unit: Unit,
    view: MetricsView<'a, R>,
}

impl<R> Clone for TimeSeries<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for TimeSeries<'_, R> {}

impl<R> fmt::Debug for TimeSeries<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TimeSeries")
            .field("descriptor_index", &self.descriptor_index)
            .field("label_index", &self.label_index)
            .field("name", &self.name)
            .field("labels", &self.labels)
            .field("unit_hint", &self.unit_hint)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

/// A series' value over one step: `[start_ms, end_ms)` and the value, `None` for no data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Step start, epoch milliseconds (inclusive).
    pub start_ms: i64,
    /// Step end, epoch milliseconds (exclusive).
    pub end_ms: i64,
    /// The value, or `None` when the series had no data in the step.
    pub value: Option<f64>,
}

impl<'a, R: IndexMappedResponse> TimeSeries<'a, R> {
    /// The unit the raw values are in, from the unit hint.
    pub fn unit(&self) -> Unit {
        self.unit
    }

    /// The value of label `key`, if the series has it.
    pub fn label(&self, key: &str) -> Option<&'a str> {
        self.labels.get(key).map(String::as_str)
    }

    /// The series' value in step `step`; `None` for no data or a step out of range.
    pub fn value_at(&self, step: usize) -> Option<f64> {
        self.view
            .step(step)
            .and_then(|step| step.value(self.descriptor_index, self.label_index))
    }

    /// The series' raw values, one point per step, in time order.
    pub fn points(&self) -> impl ExactSizeIterator<Item = Point> + use<'a, R> {
        let series = *self;
        self.view.steps().map(move |step| Point {
            start_ms: step.start_ms,
            end_ms: step.end_ms,
            value: step.value(series.descriptor_index, series.label_index),
        })
    }

    /// Like [`points`](Self::points), converted with [`Unit::to_base`] into
    /// [`unit().base()`](Unit::base) (mebibytes become bytes; everything else is unchanged).
    pub fn points_in_base_unit(&self) -> impl ExactSizeIterator<Item = Point> + use<'a, R> {
        let unit = self.unit();
        self.points().map(move |point| Point {
            value: point.value.map(|value| unit.to_base(value)),
            ..point
        })
    }

    /// Whether the labels are exactly `wanted`, each value matched by [`label_matches`] (a
    /// `quantile` by number).
    fn has_exactly(&self, wanted: &BTreeMap<&str, &str>) -> bool {
        self.labels.len() == wanted.len()
            && self.labels.iter().all(|(key, value)| {
                wanted
                    .get(key.as_str())
                    .is_some_and(|wanted| label_matches(key, value, wanted))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{decode, validate};
    use crate::models::GetModelMetricsResponseV1;

    /// Three steps of irregular length (a promotion split the second), a duplicated metric name
    /// and a metric without label sets.
    const RESPONSE: &str = r#"{
      "start_epoch_millis": 1000, "end_epoch_millis": 100000, "mode": "SERIES", "step_seconds": 60,
      "metric_descriptors": [
        {"name": "requests", "unit_hint": "COUNT", "kind": "COUNTER",
         "label_sets": [{"status": "2xx"}, {"status": "5xx", "zone": "b"}]},
        {"name": "memory", "unit_hint": "MEBIBYTES", "kind": "GAUGE", "label_sets": [{}]},
        {"name": "dup", "unit_hint": "COUNT", "kind": "GAUGE", "label_sets": [{}]},
        {"name": "dup", "unit_hint": "COUNT", "kind": "GAUGE", "label_sets": [{}]},
        {"name": "nothing", "unit_hint": "COUNT", "kind": "GAUGE", "label_sets": []}
      ],
      "metric_values": [
        {"start_epoch_millis": 0, "values": [[1, 2], [1.5], [1], [2], []]},
        {"start_epoch_millis": 60000, "values": [[3, null], [null], [3], [4], []]},
        {"start_epoch_millis": 75000, "values": [[5, 6], [2], [5], [6], []]}
      ]
    }"#;

    fn response() -> GetModelMetricsResponseV1 {
        decode(RESPONSE.as_bytes()).unwrap()
    }

    #[test]
    fn steps_span_to_the_next_start_and_the_last_to_the_window_end() {
        let r = response();
        let view = validate(&r).unwrap();
        let spans: Vec<_> = view
            .steps()
            .map(|s| (s.index, s.start_ms, s.end_ms))
            .collect();
        assert_eq!(
            spans,
            [(0, 0, 60000), (1, 60000, 75000), (2, 75000, 100000)]
        );
        assert_eq!(view.steps().len(), 3);
        assert_eq!(view.step(2).map(|s| s.duration_ms()), Some(25000));
        assert_eq!(view.step(3), None);
        let cells: Vec<_> = view.step(1).unwrap().cells().collect();
        assert_eq!(cells, [Some(3.0), None, None, Some(3.0), Some(4.0)]);
        assert_eq!(cells.len(), view.series_count());
    }

    #[test]
    fn series_iterate_in_response_order() {
        let r = response();
        let view = validate(&r).unwrap();
        let ids: Vec<_> = view
            .all_series()
            .map(|s| (s.descriptor_index, s.label_index, s.name))
            .collect();
        assert_eq!(
            ids,
            [
                (0, 0, "requests"),
                (0, 1, "requests"),
                (1, 0, "memory"),
                (2, 0, "dup"),
                (3, 0, "dup")
            ]
        );
    }

    #[test]
    fn lookups_distinguish_not_found_from_ambiguous() {
        let r = response();
        let view = validate(&r).unwrap();
        assert!(matches!(view.series_named("absent"), Lookup::NotFound));
        assert!(matches!(view.series_named("dup"), Lookup::Ambiguous(ref all) if all.len() == 2));
        assert!(matches!(view.series_named("nothing"), Lookup::Found(ref all) if all.is_empty()));
        assert_eq!(
            view.series_named("requests")
                .unique()
                .map(|all| all.map(|all| all.len())),
            Ok(Some(2))
        );
        assert_eq!(
            view.series("dup", &[]).unique().map(|s| s.is_some()),
            Err(AmbiguousLookup { matches: 2 })
        );
        assert!(matches!(view.series("dup", &[]), Lookup::Ambiguous(ref all) if all.len() == 2));
        assert!(view.metric("memory").is_found());
    }

    #[test]
    fn labels_match_as_an_exact_sorted_map() {
        let r = response();
        let view = validate(&r).unwrap();
        let found = view
            .series("requests", &[("zone", "b"), ("status", "5xx")])
            .unique()
            .unwrap();
        assert_eq!(found.map(|s| s.label_index), Some(1));
        // A subset or superset of the labels is not a match.
        assert!(matches!(
            view.series("requests", &[("status", "5xx")]),
            Lookup::NotFound
        ));
        assert!(matches!(
            view.series("requests", &[("status", "2xx"), ("zone", "b")]),
            Lookup::NotFound
        ));
        assert!(matches!(
            view.series("memory", &[("a", "b")]),
            Lookup::NotFound
        ));
        assert!(view.series("memory", &[]).is_found());
    }

    #[test]
    fn points_carry_step_spans_and_nulls() {
        let r = response();
        let view = validate(&r).unwrap();
        let memory = view.series("memory", &[]).unique().unwrap().unwrap();
        let raw: Vec<_> = memory
            .points()
            .map(|p| (p.start_ms, p.end_ms, p.value))
            .collect();
        assert_eq!(
            raw,
            [
                (0, 60000, Some(1.5)),
                (60000, 75000, None),
                (75000, 100000, Some(2.0))
            ]
        );
        let bytes: Vec<_> = memory.points_in_base_unit().map(|p| p.value).collect();
        assert_eq!(
            bytes,
            [Some(1.5 * 1_048_576.0), None, Some(2.0 * 1_048_576.0)]
        );
        assert_eq!(memory.value_at(2), Some(2.0));
        assert_eq!(memory.value_at(9), None);
    }

    #[test]
    fn lookup_map_keeps_its_shape() {
        assert_eq!(Lookup::Found(1).map(|x| x + 1), Lookup::Found(2));
        assert_eq!(Lookup::<i32>::NotFound.map(|x| x + 1), Lookup::NotFound);
        assert_eq!(
            Lookup::Ambiguous(vec![1, 2]).map(|x| x * 10),
            Lookup::Ambiguous(vec![10, 20])
        );
        #[allow(deprecated)]
        let lossy = Lookup::Ambiguous(vec![1, 2]).found();
        assert_eq!(lossy, None);
        #[allow(deprecated)]
        let found = Lookup::Found(3).found();
        assert_eq!(found, Some(3));
        assert_eq!(Lookup::Found(3).unique(), Ok(Some(3)));
        assert_eq!(Lookup::<i32>::NotFound.unique(), Ok(None));
        assert_eq!(
            Lookup::Ambiguous(vec![1, 2, 3]).unique(),
            Err(AmbiguousLookup { matches: 3 })
        );
        assert_eq!(Lookup::Ambiguous(vec![1, 2]).into_matches(), [1, 2]);
        assert_eq!(Lookup::Found(1).into_matches(), [1]);
        assert!(Lookup::<i32>::NotFound.into_matches().is_empty());
        let error = crate::Error::from(AmbiguousLookup { matches: 2 });
        let crate::Error::InvalidArgument(invalid) = &error else {
            panic!("{error:?}");
        };
        assert_eq!(
            invalid.downcast_ref::<AmbiguousLookup>(),
            Some(&AmbiguousLookup { matches: 2 })
        );
        assert!(error.to_string().contains("2 matches"), "{error}");
    }
}
