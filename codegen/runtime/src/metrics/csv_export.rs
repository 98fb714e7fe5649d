//! CSV export of the long table, whose format is a stable contract (see [`MetricsView::write_csv`]).

use std::collections::BTreeMap;
use std::io;

use crate::metrics::index_mapped::IndexMappedResponse;

use super::number::write_value;
use super::view::{Metric, MetricsView, TimeSeries};

/// Bytes gathered before they are handed to the writer: large enough that the writer is called
/// rarely, small enough to stay in cache.
const CHUNK: usize = 1 << 16;

/// The CSV export's row loop, shared by every view that has steps of values.
///
/// Everything that is the same for many rows is formatted once: each series' `,metric,labels,`
/// middle (quoted where needed) when the writer is made, each step's `start,end` once per step.
/// A row is then two copies, a value written by [`write_value`] and a newline, into one reused
/// buffer.
pub(crate) struct CsvRows<W> {
    out: W,
    buffer: Vec<u8>,
    /// `,metric,labels,` of every series, in response order.
    middles: Vec<Box<[u8]>>,
    /// `start,end` of the current step.
    bounds: Vec<u8>,
}

impl<W: io::Write> CsvRows<W> {
    /// Writes the header and prepares the series' middles.
    pub(crate) fn new<'s>(
        out: W,
        series: impl Iterator<Item = (&'s str, &'s BTreeMap<String, String>)>,
    ) -> io::Result<Self> {
        let middles = series
            .map(|(name, labels)| {
                let mut middle = vec![b','];
                push_field(&mut middle, name.as_bytes());
                middle.push(b',');
                push_field(&mut middle, format_labels(labels).as_bytes());
                middle.push(b',');
                middle.into_boxed_slice()
            })
            .collect();
        let mut buffer = Vec::with_capacity(CHUNK + 1024);
        buffer.extend_from_slice(CSV_HEADER.join(",").as_bytes());
        buffer.push(b'\n');
        Ok(Self {
            out,
            buffer,
            middles,
            bounds: Vec::with_capacity(40),
        })
    }

    /// Writes one step's rows; `lists` holds one value list per descriptor, one value per label
    /// set, as validation guarantees.
    pub(crate) fn step(
        &mut self,
        start_ms: i64,
        end_ms: i64,
        lists: &[Vec<Option<f64>>],
    ) -> io::Result<()> {
        self.set_bounds(start_ms, end_ms);
        let mut middles = self.middles.iter();
        for list in lists {
            for (value, middle) in list.iter().zip(middles.by_ref()) {
                push_row(&mut self.buffer, &self.bounds, middle, *value);
            }
        }
        self.flush_full()
    }

    /// Writes one step's rows from its values flattened: one per series, in response order,
    /// NaN for no data.
    pub(crate) fn flat_step(
        &mut self,
        start_ms: i64,
        end_ms: i64,
        values: &[f64],
    ) -> io::Result<()> {
        self.set_bounds(start_ms, end_ms);
        for (&value, middle) in values.iter().zip(&self.middles) {
            let value = (!value.is_nan()).then_some(value);
            push_row(&mut self.buffer, &self.bounds, middle, value);
        }
        self.flush_full()
    }

    /// Writes what is left and flushes the writer.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        self.out.write_all(&self.buffer)?;
        self.out.flush()
    }

    fn set_bounds(&mut self, start_ms: i64, end_ms: i64) {
        let mut integer = itoa::Buffer::new();
        self.bounds.clear();
        self.bounds
            .extend_from_slice(integer.format(start_ms).as_bytes());
        self.bounds.push(b',');
        self.bounds
            .extend_from_slice(integer.format(end_ms).as_bytes());
    }

    /// Hands the buffer to the writer once it holds a chunk.
    fn flush_full(&mut self) -> io::Result<()> {
        if self.buffer.len() >= CHUNK {
            self.out.write_all(&self.buffer)?;
            self.buffer.clear();
        }
        Ok(())
    }
}

#[inline]
fn push_row(buffer: &mut Vec<u8>, bounds: &[u8], middle: &[u8], value: Option<f64>) {
    buffer.extend_from_slice(bounds);
    buffer.extend_from_slice(middle);
    if let Some(value) = value {
        write_value(buffer, value);
    }
    buffer.push(b'\n');
}

/// Appends a field, quoted as the contract says: only when it holds a comma, a double quote,
/// CR or LF, with each double quote inside doubled (the csv crate's `QuoteStyle::Necessary`).
pub(crate) fn push_field(out: &mut Vec<u8>, field: &[u8]) {
    if !field
        .iter()
        .any(|b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
    {
        out.extend_from_slice(field);
        return;
    }
    out.push(b'"');
    for &byte in field {
        if byte == b'"' {
            out.push(b'"');
        }
        out.push(byte);
    }
    out.push(b'"');
}

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
/// MetricsView responses hold only finite values; for completeness, NaN is written `NaN` and the
/// infinities `inf` and `-inf`.
pub fn format_value(value: f64) -> String {
    let mut out = Vec::with_capacity(24);
    write_value(&mut out, value);
    // `write_value` writes ASCII only.
    String::from_utf8(out).unwrap_or_else(|_| value.to_string())
}

/// Writes a label set as the CSV export does: `key=value` pairs in key order, joined by `;`.
///
/// `{}` becomes the empty string. Nothing inside keys or values is escaped, so a key or value
/// containing `=` or `;` makes the text ambiguous to split; it is meant for reading and grouping,
/// while [`TimeSeries::labels`](super::TimeSeries::labels) has the exact map.
pub fn format_labels(labels: &BTreeMap<String, String>) -> String {
    let pairs: Vec<String> = labels
        .iter()
        .map(|(key, value)| format!("{key}={value}"))
        .collect();
    pairs.join(";")
}

impl<R: IndexMappedResponse> MetricsView<'_, R> {
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
    /// Output is gathered in 64 KiB chunks, so the writer need not be buffered; it is flushed
    /// before returning.
    pub fn write_csv<W: io::Write>(&self, out: W) -> io::Result<()> {
        let mut rows = CsvRows::new(out, self.all_series().map(|s| (s.name, s.labels)))?;
        for step in self.steps() {
            rows.step(step.start_ms, step.end_ms, step.values)?;
        }
        rows.finish()
    }

    /// The CSV of [`write_csv`](Self::write_csv) as a string.
    pub fn to_csv(&self) -> String {
        into_string(|bytes| self.write_csv(bytes))
    }

    /// Writes the wide table ([`wide_table`](Self::wide_table)) as CSV: a row per step, a column
    /// per series.
    ///
    /// - The header is `step_start_ms,step_end_ms`, then one column per series in response order
    ///   (descriptor, then label set), named `metric{labels}` with the labels as in
    ///   [`format_labels`] (`latency{quantile=0.99}`), or just `metric` for the unlabelled series.
    ///   Two series with the same name and labels give two columns of the same name.
    /// - Then one row per step: its span as in [`write_csv`](Self::write_csv), then each series'
    ///   value ([`format_value`]), empty where it had no data.
    /// - Quoting, line ends and encoding as in [`write_csv`](Self::write_csv).
    ///
    /// ```
    /// use baseten_api::metrics;
    /// use baseten_api::models::GetModelMetricsResponseV1;
    ///
    /// let json = br#"{"start_epoch_millis": 0, "end_epoch_millis": 60000, "mode": "SERIES",
    ///   "step_seconds": 30,
    ///   "metric_descriptors": [{"name": "requests", "unit_hint": "COUNT", "kind": "COUNTER",
    ///     "label_sets": [{"status": "2xx"}, {"status": "5xx"}]}],
    ///   "metric_values": [{"start_epoch_millis": 0, "values": [[40, 2]]},
    ///                     {"start_epoch_millis": 30000, "values": [[38, null]]}]}"#;
    /// let response: GetModelMetricsResponseV1 = metrics::decode(json)?;
    /// let csv = metrics::validate(&response)?.to_wide_csv();
    /// assert_eq!(csv, "step_start_ms,step_end_ms,requests{status=2xx},requests{status=5xx}\n\
    ///                  0,30000,40,2\n30000,60000,38,\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_wide_csv<W: io::Write>(&self, out: W) -> io::Result<()> {
        write_wide(out, *self, &self.all_series().collect::<Vec<_>>())
    }

    /// The CSV of [`write_wide_csv`](Self::write_wide_csv) as a string.
    pub fn to_wide_csv(&self) -> String {
        into_string(|bytes| self.write_wide_csv(bytes))
    }
}

impl<R: IndexMappedResponse> Metric<'_, R> {
    /// Writes this metric's columns of the wide CSV ([`MetricsView::write_wide_csv`]): the same
    /// header and rows, with only this metric's series.
    pub fn write_wide_csv<W: io::Write>(&self, out: W) -> io::Result<()> {
        write_wide(out, self.view(), &self.series().collect::<Vec<_>>())
    }

    /// The CSV of [`write_wide_csv`](Self::write_wide_csv) as a string.
    pub fn to_wide_csv(&self) -> String {
        into_string(|bytes| self.write_wide_csv(bytes))
    }
}

/// The wide CSV of `columns`, a row per step of `view`.
fn write_wide<R: IndexMappedResponse, W: io::Write>(
    mut out: W,
    view: MetricsView<'_, R>,
    columns: &[TimeSeries<'_, R>],
) -> io::Result<()> {
    let mut buffer = Vec::with_capacity(CHUNK + 1024);
    buffer.extend_from_slice(b"step_start_ms,step_end_ms");
    for series in columns {
        let labels = format_labels(series.labels);
        let column = if labels.is_empty() {
            series.name.to_owned()
        } else {
            format!("{}{{{labels}}}", series.name)
        };
        buffer.push(b',');
        push_field(&mut buffer, column.as_bytes());
    }
    buffer.push(b'\n');
    let mut integer = itoa::Buffer::new();
    for step in view.steps() {
        buffer.extend_from_slice(integer.format(step.start_ms).as_bytes());
        buffer.push(b',');
        buffer.extend_from_slice(integer.format(step.end_ms).as_bytes());
        for series in columns {
            buffer.push(b',');
            if let Some(value) = step.value(series.descriptor_index, series.label_index) {
                write_value(&mut buffer, value);
            }
        }
        buffer.push(b'\n');
        if buffer.len() >= CHUNK {
            out.write_all(&buffer)?;
            buffer.clear();
        }
    }
    out.write_all(&buffer)?;
    out.flush()
}

/// What `write` writes into a `Vec`, as a string.
fn into_string(write: impl FnOnce(&mut Vec<u8>) -> io::Result<()>) -> String {
    let mut bytes = Vec::new();
    // Writing into a Vec cannot fail, and every field is a Rust string, so the bytes are
    // UTF-8; neither fallback below is expected to be taken.
    if write(&mut bytes).is_err() {
        return String::new();
    }
    String::from_utf8(bytes)
        .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
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
            view.to_wide_csv(),
            "step_start_ms,step_end_ms,\"m,1{a=x\ny;b=say \"\"hi\"\"}\",\"m,1\"\n1000,2000,-0,\n"
        );
        let empty = view.metric("empty").unique().unwrap().unwrap();
        assert_eq!(
            empty.to_wide_csv(),
            "step_start_ms,step_end_ms\n1000,2000\n"
        );
        assert_eq!(
            view.to_csv(),
            "step_start_ms,step_end_ms,metric,labels,value\n\
             1000,2000,\"m,1\",\"a=x\ny;b=say \"\"hi\"\"\",-0\n\
             1000,2000,\"m,1\",,\n"
        );
    }
}
