//! Alignment of index-mapped metrics responses: decode, validate, then read through borrowing views.
//!
//! An index-mapped response ([`IndexMappedResponse`]) describes each metric once and lists each
//! step's numbers by position: `values[d][l]` is the value of descriptor `d`'s label set `l`.
//! Reading it by position is easy to get subtly wrong, so this module does it once, for every
//! response type of that shape:
//!
//! 1. [`decode`] parses JSON bytes; a malformed value is reported with its JSON path (and, for a
//!    value inside `metric_values[..].values[..][..]`, the value set, descriptor and label set).
//!    Keys repeated within one object are refused, and integers accept `-0`.
//! 2. [`validate`] checks that every value set lines up with the descriptors, that steps are in
//!    time order and inside the window, that a summary has one value set and that every value is
//!    finite. Only then is a view ([`MetricsView`]) handed out, so the views never meet a
//!    misaligned response. [`validate_response`] adds the checks of the response's own mode
//!    that a fetched response gets (one value set for `CURRENT` and `SUMMARY`, a positive
//!    `step_seconds` for `SERIES`): use it for saved responses.
//! 3. The views borrow the response and copy no values: [`MetricsView::steps`],
//!    [`MetricsView::all_series`], lookups by name and labels ([`MetricsView::series_named`],
//!    [`MetricsView::series`]), per-series [`Point`]s, [`Histogram`] and status
//!    ([`StatusMatch`]) helpers, unit conversion ([`Unit`]), a [`WideTable`], a long table
//!    ([`MetricsView::long_rows`]) and its CSV export ([`MetricsView::write_csv`], whose format is a
//!    stable contract documented there), the wide CSV ([`MetricsView::write_wide_csv`], a column
//!    per series). SVG charts of a view are the `baseten-charts` crate's, kept out of this one.
//! 4. [`export_csv`] goes from JSON bytes straight to that CSV, with the same output and errors,
//!    holding the values in a flat list (8 bytes each) rather than a `Vec` per descriptor and
//!    step, so memory stays near the input's size; [`summarize`] gives every series' statistics
//!    (points with data, min, mean, max, first, last) holding no values at all.
//!
//! # Time
//!
//! Step `i` spans `[start_i, start_(i+1))`; the last step spans `[start_last, window_end)` and may
//! be empty. Step boundaries come from the value sets' own starts, never from
//! `start + i * step_seconds`: a series split at a promotion has irregular steps, and a step may
//! begin slightly before the window start because steps are aligned to whole seconds.
//!
//! # Quantiles
//!
//! A `HISTOGRAM` metric's series are one per quantile, labelled `{"quantile": "0.5"}`, and an
//! average, `{"stat": "avg"}`. Baseten serves the quantiles **0.5, 0.9, 0.95 and 0.99** (every
//! recorded response; the document's description names `0.5` … `0.99` and the average), which
//! [`Metric::p50`], [`Metric::p90`], [`Metric::p95`] and [`Metric::p99`] read. A quantile is read
//! by number, one rule everywhere: [`MetricsView::quantile`]`(name, 0.95)`, [`Metric::quantile`],
//! and a label lookup ([`MetricsView::series`], a typed result's `reading`) given
//! `("quantile", "0.95")` all find a series labelled `"0.95"` or `"0.950"`. Two series with the
//! same quantile are [`Lookup::Ambiguous`]; [`Lookup::unique`] makes that an [`AmbiguousLookup`]
//! error.
//!
//! # Example
//!
//! ```
//! use baseten_api::metrics::{self, Lookup};
//! use baseten_api::models::GetModelMetricsResponseV1;
//!
//! let json = br#"{
//!   "start_epoch_millis": 1000, "end_epoch_millis": 61000, "mode": "SERIES", "step_seconds": 30,
//!   "metric_descriptors": [
//!     {"name": "baseten_end_to_end_response_time_seconds", "unit_hint": "SECONDS",
//!      "kind": "HISTOGRAM", "label_sets": [{"quantile": "0.99"}, {"quantile": "0.5"}, {"stat": "avg"}]}
//!   ],
//!   "metric_values": [
//!     {"start_epoch_millis": 1000, "values": [[2.5, 1.0, 1.25]]},
//!     {"start_epoch_millis": 31000, "values": [[null, null, null]]}
//!   ]
//! }"#;
//! let response: GetModelMetricsResponseV1 = metrics::decode(json)?;
//! let view = metrics::validate(&response)?;
//!
//! let Lookup::Found(p99) = view.quantile("baseten_end_to_end_response_time_seconds", 0.99)
//! else {
//!     panic!("one p99 series");
//! };
//! let points: Vec<_> = p99.points().map(|p| (p.start_ms, p.end_ms, p.value)).collect();
//! assert_eq!(points, [(1000, 31000, Some(2.5)), (31000, 61000, None)]);
//!
//! let csv = view.to_csv();
//! assert!(csv.starts_with("step_start_ms,step_end_ms,metric,labels,value\n"));
//! assert!(csv.contains("\n1000,31000,baseten_end_to_end_response_time_seconds,quantile=0.99,2.5\n"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!

mod aggregate;
pub(crate) mod contract;
mod csv_export;
mod export;
// Its traits are re-exported below; the module path is what the generated code implements.
#[doc(hidden)]
pub mod index_mapped;
mod label_value;
mod labels;
mod number;
mod series_stats;
mod summary;
mod table;
mod unit;
mod validate;
mod view;

pub use self::index_mapped::{IndexMappedDescriptor, IndexMappedResponse, IndexMappedValueSet};
pub use crate::decode::{DecodeError, ValueLocation, decode};
pub use aggregate::{Ratio, StepValues};
pub use csv_export::{CSV_HEADER, format_labels, format_value};
pub use export::{ExportError, export_csv};
pub use labels::{Histogram, QuantileSeries, StatusMatch};
pub use series_stats::SeriesStats;
pub use summary::{SeriesSummary, Summary, summarize};
pub use table::{LongRow, WideTable};
pub use unit::Unit;
pub use validate::{AlignmentError, SUMMARY_MODE, validate, validate_response};
pub use view::{AmbiguousLookup, Lookup, Metric, MetricsView, Point, Step, TimeSeries};

/// The old name of [`MetricsView`].
#[doc(hidden)]
#[deprecated(note = "renamed `MetricsView`")]
pub type Validated<'a, R> = MetricsView<'a, R>;

/// The old name of [`TimeSeries`], which shared its name with the `SERIES` mode.
#[doc(hidden)]
#[deprecated(note = "renamed `TimeSeries`; the `SERIES` mode is `requests::mode::SeriesMode`")]
pub type Series<'a, R> = TimeSeries<'a, R>;
