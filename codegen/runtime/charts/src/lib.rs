//! SVG line charts of Baseten metrics responses, kept out of `baseten-runtime` so that a program
//! that only decodes and reads metrics compiles none of them.
//!
//! [`SvgChart`] draws a validated response ([`MetricsView`](baseten_runtime::metrics::MetricsView))
//! or one of its metrics ([`Metric`](baseten_runtime::metrics::Metric)): a panel per metric, a
//! line per series broken at nulls, value ticks at 1-2-5 steps in a unit scaled to the data,
//! round UTC time ticks, a light grid and a legend. Text from the server is scrubbed and escaped
//! through the runtime's `ServerText`, then XML-escaped.
//!
//! ```
//! use baseten_api::metrics;
//! use baseten_api::models::GetModelMetricsResponseV1;
//! use baseten_charts::SvgChart;
//!
//! let json = br#"{"start_epoch_millis": 0, "end_epoch_millis": 60000, "mode": "SERIES",
//!   "step_seconds": 30,
//!   "metric_descriptors": [{"name": "requests", "unit_hint": "COUNT", "kind": "COUNTER",
//!     "label_sets": [{}]}],
//!   "metric_values": [{"start_epoch_millis": 0, "values": [[1200]]},
//!                     {"start_epoch_millis": 30000, "values": [[3400]]}]}"#;
//! let response: GetModelMetricsResponseV1 = metrics::decode(json)?;
//! let view = metrics::validate(&response)?;
//! assert!(view.to_svg_chart().contains(">requests (count)<"));
//! let requests = view.metrics().next().expect("one metric");
//! assert!(requests.to_svg_chart().contains(r#"<path class="series""#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod axis;
mod chart;

pub use chart::SvgChart;
