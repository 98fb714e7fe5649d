//! CSV export of the long table, whose format is a stable contract (see [`Validated::write_csv`]).

use std::collections::BTreeMap;
use std::io;

use crate::index_mapped::IndexMappedResponse;

use super::view::Validated;

/// The header row of the CSV export.
pub const CSV_HEADER: [&str; 5] = ["step_start_ms", "step_end_ms", "metric", "labels", "value"];

/// Writes a value as the CSV export does: Rust's `Display` for `f64`.
///
/// That is the shortest string of significant digits that parses back to the same `f64`,
/// written in plain positional notation, never with an exponent:
///
/// | value | written |
/// |---|---|
/// | `2.0` | `2` |
/// | `0.1` | `0.1` |
/// | `-0.0` | `-0` (the sign is kept) |
/// | `1e21` | `1000000000000000000000` |
/// | `1e-300` | `0.`, 299 zeros, `1` (302 characters) |
/// | `f64::MAX` | `17976931348623157` followed by 292 zeros (309 digits) |
///
/// Validated responses hold only finite values; for completeness, NaN is written `NaN` and the
/// infinities `inf` and `-inf`.
pub fn format_value(value: f64) -> String {
    value.to_string()
}

/// Writes a label set as the CSV export does: `key=value` pairs in key order, joined by `;`.
///
/// `{}` becomes the empty string. Nothing inside keys or values is escaped, so a key or value
/// containing `=` or `;` makes the text ambiguous to split; it is meant for reading and grouping,
/// while [`Series::labels`](super::Series::labels) has the exact map.
pub fn format_labels(labels: &BTreeMap<String, String>) -> String {
    let pairs: Vec<String> = labels
        .iter()
        .map(|(key, value)| format!("{key}={value}"))
        .collect();
    pairs.join(";")
}

impl<R: IndexMappedResponse> Validated<'_, R> {
    /// Writes the long table ([`long_rows`](Self::long_rows)) as CSV.
    ///
    /// The format is a stable contract:
    ///
    /// - The first line is the header `step_start_ms,step_end_ms,metric,labels,value`.
    /// - Then one row per step and series, in response order: value set by value set, then
    ///   descriptor by descriptor, then label set by label set. Descriptors without label sets
    ///   give no rows; a response without value sets or descriptors gives the header alone.
    /// - `step_start_ms`, `step_end_ms`: the step's span `[start, end)` in epoch milliseconds, as
    ///   integers; the end is the next step's start, or the window end for the last step.
    /// - `metric`: the metric name as sent.
    /// - `labels`: [`format_labels`], e.g. `quantile=0.99` or `status=5xx;zone=b`; empty for `{}`.
    /// - `value`: [`format_value`], e.g. `0.5`, `2`, `-0`; empty when the series had no data.
    /// - Fields are quoted only when they contain a comma, a double quote, CR or LF, as in
    ///   RFC 4180 (a double quote inside is doubled). Lines end with LF (`\n`), including the
    ///   last; text is UTF-8.
    ///
    /// The writer is buffered and flushed before returning.
    pub fn write_csv<W: io::Write>(&self, out: W) -> io::Result<()> {
        // Every setting is spelled out, rather than left to the csv crate's defaults, because
        // the output is a contract that must not change with the crate.
        let mut writer = csv::WriterBuilder::new()
            .delimiter(b',')
            .quote(b'"')
            .double_quote(true)
            .quote_style(csv::QuoteStyle::Necessary)
            .terminator(csv::Terminator::Any(b'\n'))
            .has_headers(false)
            .from_writer(out);
        writer.write_record(CSV_HEADER)?;
        for row in self.long_rows() {
            writer.write_record([
                row.step.start_ms.to_string(),
                row.step.end_ms.to_string(),
                row.series.name.to_owned(),
                format_labels(row.series.labels),
                row.value.map(format_value).unwrap_or_default(),
            ])?;
        }
        writer.flush()
    }

    /// The CSV of [`write_csv`](Self::write_csv) as a string.
    pub fn to_csv(&self) -> String {
        let mut bytes = Vec::new();
        // Writing into a Vec cannot fail, and every field is a Rust string, so the bytes are
        // UTF-8; neither fallback below is expected to be taken.
        if self.write_csv(&mut bytes).is_err() {
            return String::new();
        }
        String::from_utf8(bytes)
            .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{decode, validate};
    use crate::models::GetModelMetricsResponseV1;

    #[test]
    fn values_round_trip_in_positional_notation() {
        assert_eq!(format_value(-0.0), "-0");
        assert_eq!(format_value(0.0), "0");
        assert_eq!(format_value(2.0), "2");
        assert_eq!(format_value(1.9733999999999998), "1.9733999999999998");
        let tiny = format_value(1e-300);
        assert_eq!(tiny.len(), 302);
        assert!(tiny.starts_with("0.000") && tiny.ends_with("0001"));
        let huge = format_value(f64::MAX);
        assert_eq!(huge.len(), 309);
        assert!(huge.starts_with("17976931348623157000"));
        for value in [
            -0.0,
            1e-300,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            0.1,
            1e21,
            -123.456,
        ] {
            let back: f64 = format_value(value).parse().unwrap();
            assert_eq!(back.to_bits(), value.to_bits(), "{value:e}");
        }
    }

    #[test]
    fn labels_are_sorted_by_key_and_joined() {
        assert_eq!(format_labels(&BTreeMap::new()), "");
        let labels = BTreeMap::from([
            ("zone".to_owned(), "b".to_owned()),
            ("status".to_owned(), "5xx".to_owned()),
        ]);
        assert_eq!(format_labels(&labels), "status=5xx;zone=b");
    }

    #[test]
    fn csv_quotes_only_where_needed() {
        let json = r#"{
          "start_epoch_millis": 0, "end_epoch_millis": 2000, "mode": "CURRENT",
          "metric_descriptors": [
            {"name": "m,1", "unit_hint": "COUNT", "kind": "GAUGE",
             "label_sets": [{"b": "say \"hi\"", "a": "x\ny"}, {}]},
            {"name": "empty", "unit_hint": "COUNT", "kind": "GAUGE", "label_sets": []}
          ],
          "metric_values": [{"start_epoch_millis": 1000, "values": [[-0.0, null], []]}]
        }"#;
        let r: GetModelMetricsResponseV1 = decode(json.as_bytes()).unwrap();
        let view = validate(&r).unwrap();
        assert_eq!(
            view.to_csv(),
            "step_start_ms,step_end_ms,metric,labels,value\n\
             1000,2000,\"m,1\",\"a=x\ny;b=say \"\"hi\"\"\",-0\n\
             1000,2000,\"m,1\",,\n"
        );
    }
}
