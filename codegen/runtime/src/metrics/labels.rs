//! Helpers that read meaning into labels: histogram quantiles and averages, HTTP status codes and classes.

use std::fmt;

use crate::metrics::index_mapped::IndexMappedResponse;

use super::label_value::{QUANTILE_LABEL, quantile_number};
use super::view::{Metric, TimeSeries};

/// Label key and value of a histogram's average series, `{"stat": "avg"}`.
const STAT_LABEL: &str = "stat";
const AVERAGE_STAT: &str = "avg";
/// Label key of a by-status series, e.g. `{"status": "5xx"}` or `{"status": "503"}`.
const STATUS_LABEL: &str = "status";

/// A metric's series sorted into histogram parts.
///
/// Built from labels alone, whatever the metric's kind says, so an unknown kind still works.
pub struct Histogram<'a, R> {
    /// Series with a `quantile` label that parses as a finite number, in increasing quantile
    /// order (numeric, so `0.5` < `0.95` < `0.99` < `1`); equal quantiles keep response order.
    pub quantiles: Vec<QuantileSeries<'a, R>>,
    /// The first series labelled `stat: avg` (without a numeric quantile).
    pub average: Option<TimeSeries<'a, R>>,
    /// Everything else, in response order: further averages, unparsable quantiles, other labels.
    pub other: Vec<TimeSeries<'a, R>>,
}

/// A quantile series and its quantile, parsed from the `quantile` label.
pub struct QuantileSeries<'a, R> {
    /// The quantile, e.g. `0.99`.
    pub quantile: f64,
    /// The series.
    pub series: TimeSeries<'a, R>,
}

impl<R> fmt::Debug for Histogram<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Histogram")
            .field("quantiles", &self.quantiles)
            .field("average", &self.average)
            .field("other", &self.other)
            .finish()
    }
}

impl<R> fmt::Debug for QuantileSeries<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("QuantileSeries")
            .field("quantile", &self.quantile)
            .field("series", &self.series)
            .finish()
    }
}

impl<'a, R: IndexMappedResponse> TimeSeries<'a, R> {
    /// The `quantile` label as a number, when it parses as a finite `f64`.
    pub fn quantile(&self) -> Option<f64> {
        self.label(QUANTILE_LABEL).and_then(quantile_number)
    }

    /// Whether the series is labelled `stat: avg`.
    pub fn is_average(&self) -> bool {
        self.label(STAT_LABEL) == Some(AVERAGE_STAT)
    }

    /// The `status` label, when it is a status code (`503`) or class (`5xx`).
    pub fn status(&self) -> Option<StatusMatch> {
        self.label(STATUS_LABEL).and_then(StatusMatch::parse)
    }
}

impl<'a, R: IndexMappedResponse> Metric<'a, R> {
    /// The metric's series sorted into quantiles, average and the rest.
    pub fn histogram(&self) -> Histogram<'a, R> {
        let mut histogram = Histogram {
            quantiles: Vec::new(),
            average: None,
            other: Vec::new(),
        };
        for series in self.series() {
            if let Some(quantile) = series.quantile() {
                histogram
                    .quantiles
                    .push(QuantileSeries { quantile, series });
            } else if series.is_average() && histogram.average.is_none() {
                histogram.average = Some(series);
            } else {
                histogram.other.push(series);
            }
        }
        // sort_by is stable, so equal quantiles keep response order.
        histogram
            .quantiles
            .sort_by(|a, b| a.quantile.total_cmp(&b.quantile));
        histogram
    }

    /// The series whose `status` label falls within `query`, in response order: for
    /// `Class(5)`, both `5xx` and `503`; for `Code(503)`, only `503` (a `5xx` series also
    /// counts other codes, so it is not a match).
    pub fn series_with_status(&self, query: StatusMatch) -> Vec<TimeSeries<'a, R>> {
        self.series()
            .filter(|series| series.status().is_some_and(|status| query.covers(status)))
            .collect()
    }
}

/// An HTTP status as a `status` label carries it: an exact code or a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StatusMatch {
    /// An exact code, `100` to `999` (written as three digits, e.g. `200`).
    Code(u16),
    /// A class, `1` to `9` (written as a digit and `xx`, e.g. `5xx`; `5XX` is accepted).
    Class(u8),
}

impl StatusMatch {
    /// Parses `503` as `Code(503)` and `5xx` as `Class(5)`; anything else is `None`.
    pub fn parse(text: &str) -> Option<Self> {
        let [first, second, third] = *text.as_bytes() else {
            return None;
        };
        let class = match first {
            b'1'..=b'9' => first - b'0',
            _ => return None,
        };
        match (second, third) {
            (b'0'..=b'9', b'0'..=b'9') => Some(Self::Code(
                u16::from(class) * 100 + u16::from(second - b'0') * 10 + u16::from(third - b'0'),
            )),
            (b'x' | b'X', b'x' | b'X') => Some(Self::Class(class)),
            _ => None,
        }
    }

    /// The class: `5` for both `503` and `5xx`.
    pub fn class(self) -> u8 {
        match self {
            // Codes are at most 999, so the class fits in a u8.
            Self::Code(code) => u8::try_from(code / 100).unwrap_or(u8::MAX),
            Self::Class(class) => class,
        }
    }

    /// Whether every request with status `other` also has status `self`: a class covers its
    /// codes and itself, a code covers only itself. So `5xx` covers `503`, but `503` does not
    /// cover `5xx`.
    pub fn covers(self, other: StatusMatch) -> bool {
        match (self, other) {
            (Self::Code(a), Self::Code(b)) => a == b,
            (Self::Code(_), Self::Class(_)) => false,
            (Self::Class(class), other) => class == other.class(),
        }
    }
}

impl fmt::Display for StatusMatch {
    /// Writes the label form: `503` or `5xx`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Code(code) => write!(f, "{code}"),
            Self::Class(class) => write!(f, "{class}xx"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{decode, validate};
    use crate::models::GetModelMetricsResponseV1;

    #[test]
    fn status_labels_parse() {
        assert_eq!(StatusMatch::parse("200"), Some(StatusMatch::Code(200)));
        assert_eq!(StatusMatch::parse("503"), Some(StatusMatch::Code(503)));
        assert_eq!(StatusMatch::parse("5xx"), Some(StatusMatch::Class(5)));
        assert_eq!(StatusMatch::parse("2XX"), Some(StatusMatch::Class(2)));
        for bad in [
            "",
            "20",
            "2000",
            "0xx",
            "099",
            "5x",
            "5xy",
            "x00",
            " 200",
            "２００",
            "5x0",
        ] {
            assert_eq!(StatusMatch::parse(bad), None, "{bad:?}");
        }
        assert_eq!(StatusMatch::Code(503).to_string(), "503");
        assert_eq!(StatusMatch::Class(5).to_string(), "5xx");
    }

    #[test]
    fn a_class_covers_its_codes_but_not_the_reverse() {
        use StatusMatch::{Class, Code};
        assert!(Class(5).covers(Code(503)));
        assert!(Class(5).covers(Class(5)));
        assert!(!Class(5).covers(Code(200)));
        assert!(!Class(4).covers(Class(5)));
        assert!(Code(503).covers(Code(503)));
        assert!(!Code(503).covers(Code(502)));
        assert!(!Code(503).covers(Class(5)));
        assert_eq!(Code(999).class(), 9);
    }

    const RESPONSE: &str = r#"{
      "start_epoch_millis": 0, "end_epoch_millis": 60000, "mode": "SUMMARY",
      "metric_descriptors": [
        {"name": "latency", "unit_hint": "SECONDS", "kind": "HISTOGRAM", "label_sets": [
          {"stat": "avg"}, {"quantile": "0.99"}, {"quantile": "0.5"}, {"quantile": "1"},
          {"quantile": "0.95"}, {"quantile": "NaN"}, {"quantile": "p99"}, {"stat": "avg"}]},
        {"name": "requests", "unit_hint": "COUNT", "kind": "COUNTER", "label_sets": [
          {"status": "2xx"}, {"status": "503"}, {"status": "5xx"}, {"status": "500"}, {"status": "other"}]}
      ],
      "metric_values": [{"start_epoch_millis": 0, "values": [
        [1, 2, 3, 4, 5, 6, 7, 8], [10, 20, 30, 40, 50]]}]
    }"#;

    #[test]
    fn histogram_orders_quantiles_numerically_and_keeps_the_average_apart() {
        let r: GetModelMetricsResponseV1 = decode(RESPONSE.as_bytes()).unwrap();
        let view = validate(&r).unwrap();
        let histogram = view
            .metric("latency")
            .unique()
            .unwrap()
            .unwrap()
            .histogram();
        let quantiles: Vec<_> = histogram.quantiles.iter().map(|q| q.quantile).collect();
        assert_eq!(quantiles, [0.5, 0.95, 0.99, 1.0]);
        let p99 = histogram.quantiles.get(2).unwrap();
        assert_eq!(p99.series.value_at(0), Some(2.0));
        assert_eq!(histogram.average.map(|s| s.label_index), Some(0));
        let other: Vec<_> = histogram.other.iter().map(|s| s.label_index).collect();
        assert_eq!(other, [5, 6, 7]);
    }

    #[test]
    fn series_with_status_matches_codes_within_a_class() {
        let r: GetModelMetricsResponseV1 = decode(RESPONSE.as_bytes()).unwrap();
        let view = validate(&r).unwrap();
        let requests = view.metric("requests").unique().unwrap().unwrap();
        let values = |query| -> Vec<_> {
            requests
                .series_with_status(query)
                .iter()
                .map(|s| s.value_at(0))
                .collect()
        };
        assert_eq!(
            values(StatusMatch::Class(5)),
            [Some(20.0), Some(30.0), Some(40.0)]
        );
        assert_eq!(values(StatusMatch::Code(503)), [Some(20.0)]);
        assert_eq!(values(StatusMatch::Class(2)), [Some(10.0)]);
        assert!(values(StatusMatch::Class(4)).is_empty());
    }
}
