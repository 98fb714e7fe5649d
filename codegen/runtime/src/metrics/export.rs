//! CSV export straight from JSON bytes, holding the values compactly rather than as the
//! response type holds them, so that memory stays near the size of the input.

use std::fmt;
use std::io;

use serde_core::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess,
    Visitor,
};

use super::contract::{ResponseError, check_mode_counts};
use super::csv_export::CsvRows;
use super::series_stats::SeriesStats;
use super::validate::{AlignmentError, check_value_sets, validate_response};
use crate::decode::strict::{Divert, Key, Strict};
use crate::decode::{DecodeError, decode};
use crate::metrics::index_mapped::{IndexMappedDescriptor, IndexMappedResponse};
use crate::server_text::ServerText;

/// Why [`export_csv`] wrote no CSV, or not all of it.
#[derive(Debug)]
pub enum ExportError {
    /// The bytes are not a response: as [`decode`] reports it.
    Decode(DecodeError),
    /// The response fails the checks of [`validate_response`].
    Invalid(ResponseError),
    /// Writing failed.
    Write(io::Error),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Decode(source) => write!(f, "invalid response: {source}"),
            Self::Invalid(source) => write!(f, "{source}"),
            Self::Write(source) => write!(f, "writing the CSV: {source}"),
        }
    }
}

impl std::error::Error for ExportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Decode(source) => Some(source),
            Self::Invalid(source) => Some(source),
            Self::Write(source) => Some(source),
        }
    }
}

/// Decodes `json` as an `R`, checks it as [`validate_response`] does and writes its CSV (the
/// contract of [`MetricsView::write_csv`](super::MetricsView::write_csv)) to `out`.
///
/// The output, the errors and what is accepted are those of
/// `decode::<R>` → `validate_response` → `write_csv`; what differs is the cost. The value sets
/// (under the document's `metric_values` key) are read one by one into a flat list of values,
/// 8 bytes each, instead of a `Vec` per descriptor and step, so the response held in memory is
/// about as large as the JSON, and decoding allocates little. Nothing is written before the whole
/// response has been decoded and checked.
///
/// A document the compact reader does not take (any invalid one, or value sets written as JSON
/// arrays rather than objects) is decoded again by [`decode`], which reports the error with its
/// JSON path, or, for a valid one, is exported from the decoded `R`.
pub fn export_csv<R, W>(json: &[u8], out: W) -> Result<(), ExportError>
where
    R: IndexMappedResponse + DeserializeOwned,
    W: io::Write,
{
    let mut sets = FlatSets::default();
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    let compact = R::deserialize(Strict {
        de: &mut deserializer,
        divert: Some(&mut sets),
    })
    .and_then(|response| deserializer.end().map(|()| response));
    match compact {
        Ok(response) if sets.diverted => {
            sets.check(&response).map_err(ExportError::Invalid)?;
            sets.write_csv(&response, out).map_err(ExportError::Write)
        }
        // Value sets under another key were decoded into the response itself.
        Ok(response) => write_typed(&response, out),
        Err(_) => {
            drop(sets);
            let response: R = decode(json).map_err(ExportError::Decode)?;
            write_typed(&response, out)
        }
    }
}

fn write_typed<R: IndexMappedResponse, W: io::Write>(
    response: &R,
    out: W,
) -> Result<(), ExportError> {
    validate_response(response)
        .map_err(ExportError::Invalid)?
        .write_csv(out)
        .map_err(ExportError::Write)
}

/// Every value set of a response, flattened: value set `i`'s lists are
/// `list_lengths[list_ends[i - 1]..list_ends[i]]` and its values, in response order,
/// `values[value_ends[i - 1]..value_ends[i]]`. A missing value is NaN, which JSON cannot carry.
///
/// Summarizing ([`FlatSets::summarizing`]), the values are not kept: each is folded into the
/// statistics of its position within the value set (which, once the layout is checked, is its
/// series), so memory no longer grows with the values.
#[derive(Debug, Default)]
pub(super) struct FlatSets {
    pub(super) diverted: bool,
    pub(super) starts: Vec<i64>,
    list_ends: Vec<usize>,
    list_lengths: Vec<u32>,
    value_ends: Vec<usize>,
    values: Vec<f64>,
    /// `Some` when summarizing: one entry per position within a value set.
    pub(super) stats: Option<Vec<SeriesStats>>,
    /// The position of the next value within the current value set.
    position: usize,
}

impl FlatSets {
    /// Sets that fold values into per-position statistics instead of keeping them.
    pub(super) fn summarizing() -> Self {
        FlatSets {
            stats: Some(Vec::new()),
            ..FlatSets::default()
        }
    }

    fn span(ends: &[usize], index: usize) -> std::ops::Range<usize> {
        let start = index
            .checked_sub(1)
            .and_then(|previous| ends.get(previous))
            .copied()
            .unwrap_or(0);
        start..ends.get(index).copied().unwrap_or(start)
    }

    fn lists(&self, index: usize) -> &[u32] {
        self.list_lengths
            .get(Self::span(&self.list_ends, index))
            .unwrap_or_default()
    }

    fn values(&self, index: usize) -> &[f64] {
        self.values
            .get(Self::span(&self.value_ends, index))
            .unwrap_or_default()
    }

    /// The checks of [`validate_response`], on the flat layout.
    pub(super) fn check<R: IndexMappedResponse>(&self, response: &R) -> Result<(), ResponseError> {
        let count = self.starts.len();
        if let Some(mode) = response.mode() {
            check_mode_counts(mode, count, response.step_seconds())?;
        }
        let descriptors = response.descriptors();
        check_value_sets(
            response,
            count,
            |index| self.starts.get(index).copied().unwrap_or(0),
            |value_set| {
                let lists = self.lists(value_set);
                if lists.len() != descriptors.len() {
                    return Err(AlignmentError::DescriptorCountMismatch {
                        value_set,
                        expected: descriptors.len(),
                        actual: lists.len(),
                    });
                }
                // Values are finite: JSON carries no NaN or infinity, and NaN here is "no data".
                for (descriptor, (metric, &length)) in descriptors.iter().zip(lists).enumerate() {
                    let expected = metric.label_sets().len();
                    if length as usize != expected {
                        return Err(AlignmentError::LabelSetCountMismatch {
                            value_set,
                            descriptor,
                            name: ServerText::new(metric.name()),
                            expected,
                            actual: length as usize,
                        });
                    }
                }
                Ok(())
            },
        )
        .map_err(ResponseError::Misaligned)
    }

    fn write_csv<R: IndexMappedResponse, W: io::Write>(
        &self,
        response: &R,
        out: W,
    ) -> io::Result<()> {
        let series = response.descriptors().iter().flat_map(|descriptor| {
            let name = descriptor.name();
            descriptor
                .label_sets()
                .iter()
                .map(move |labels| (name, labels))
        });
        let mut rows = CsvRows::new(out, series)?;
        for (index, &start_ms) in self.starts.iter().enumerate() {
            let end_ms = self
                .starts
                .get(index + 1)
                .copied()
                .unwrap_or_else(|| response.window_end_millis());
            rows.flat_step(start_ms, end_ms, self.values(index))?;
        }
        rows.finish()
    }
}

impl<'de> Divert<'de> for FlatSets {
    fn divert<D: Deserializer<'de>>(&mut self, deserializer: D) -> Result<(), D::Error> {
        self.diverted = true;
        deserializer.deserialize_seq(SetsVisitor(self))
    }
}

/// Reads `metric_values`: a list of value sets.
struct SetsVisitor<'a>(&'a mut FlatSets);

/// Reads one value set, `{"start_epoch_millis": …, "values": [[…], …]}`.
struct SetSeed<'a>(&'a mut FlatSets);

/// Reads one value set's `values`: a list of value lists.
struct ListsSeed<'a>(&'a mut FlatSets);

/// Reads one value list: numbers and nulls.
struct ListSeed<'a>(&'a mut FlatSets);

const SET_FIELDS: &[&str] = &["start_epoch_millis", "values"];

impl<'de> Visitor<'de> for SetsVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of value sets")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(SetSeed(&mut *self.0))?.is_some() {}
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for SetSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_struct("value set", SET_FIELDS, self)
    }
}

impl<'de> Visitor<'de> for SetSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value set object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let sets = self.0;
        sets.position = 0;
        let mut start = None;
        let mut values = false;
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match key.as_str() {
                "start_epoch_millis" if start.is_none() => start = Some(map.next_value::<i64>()?),
                "values" if !values => {
                    map.next_value_seed(ListsSeed(&mut *sets))?;
                    values = true;
                }
                "start_epoch_millis" | "values" => {
                    return Err(de::Error::custom("duplicate field"));
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let (Some(start), true) = (start, values) else {
            return Err(de::Error::custom("missing field"));
        };
        sets.starts.push(start);
        sets.list_ends.push(sets.list_lengths.len());
        sets.value_ends.push(sets.values.len());
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for ListsSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ListsSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of value lists")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(ListSeed(&mut *self.0))?.is_some() {}
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for ListSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ListSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of numbers and nulls")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let sets = self.0;
        let set_index = sets.starts.len();
        let mut length = 0usize;
        while let Some(value) = seq.next_element::<Option<f64>>()? {
            match &mut sets.stats {
                Some(stats) => {
                    if stats.len() <= sets.position {
                        stats.resize(sets.position + 1, SeriesStats::default());
                    }
                    stats[sets.position].add(set_index, value);
                }
                None => sets.values.push(value.unwrap_or(f64::NAN)),
            }
            sets.position += 1;
            length += 1;
        }
        let length = u32::try_from(length).map_err(|_| de::Error::custom("value list too long"))?;
        sets.list_lengths.push(length);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::validate_response;
    use crate::models::GetModelMetricsResponseV1;

    /// Each variant's `source()` is the error it wraps.
    #[test]
    fn source_is_the_wrapped_error() {
        use std::error::Error as _;
        let source = |error: &ExportError| error.source().map(ToString::to_string);
        let decode_error = decode::<GetModelMetricsResponseV1>(b"{").unwrap_err();
        let message = decode_error.to_string();
        assert_eq!(source(&ExportError::Decode(decode_error)), Some(message));
        let invalid = ResponseError::StepSeconds { step_seconds: None };
        assert_eq!(
            source(&ExportError::Invalid(invalid.clone())),
            Some(invalid.to_string())
        );
        let write = || io::Error::other("disk full");
        assert_eq!(
            source(&ExportError::Write(write())),
            Some(write().to_string())
        );
        assert_eq!(
            ExportError::Write(write()).to_string(),
            "writing the CSV: disk full"
        );
        assert_eq!(
            ExportError::Invalid(invalid.clone()).to_string(),
            invalid.to_string()
        );
    }

    /// What the typed path gives: its CSV, or its error's message.
    fn typed(json: &str) -> Result<String, String> {
        let response: GetModelMetricsResponseV1 =
            decode(json.as_bytes()).map_err(|e| format!("invalid response: {e}"))?;
        let view = validate_response(&response).map_err(|e| e.to_string())?;
        Ok(view.to_csv())
    }

    fn exported(json: &str) -> Result<String, String> {
        let mut out = Vec::new();
        export_csv::<GetModelMetricsResponseV1, _>(json.as_bytes(), &mut out)
            .map_err(|e| e.to_string())?;
        Ok(String::from_utf8(out).unwrap())
    }

    fn response(sets: &str) -> String {
        format!(
            r#"{{"start_epoch_millis":0,"end_epoch_millis":90000,"mode":"SERIES","step_seconds":30,
            "metric_descriptors":[
              {{"name":"a","unit_hint":"COUNT","kind":"GAUGE","label_sets":[{{}}]}},
              {{"name":"none","unit_hint":"COUNT","kind":"GAUGE","label_sets":[]}},
              {{"name":"b,c","unit_hint":"COUNT","kind":"GAUGE","label_sets":[{{"k":"1"}},{{"k":"\""}}]}}],
            "metric_values":{sets}}}"#
        )
    }

    #[test]
    fn valid_responses_export_as_the_typed_path_does() {
        for json in [
            response(
                r#"[{"start_epoch_millis":0,"values":[[1],[],[2.5,null]]},
                {"values":[[-0.0],[],[1e21,5e-324]],"start_epoch_millis":30000,"extra":{"x":[1]}}]"#,
            ),
            // An unknown field is skipped unread, by both paths.
            response(r#"[{"start_epoch_millis":-0,"values":[[1],[],[2,3]],"x":{"a":1,"a":2}}]"#),
            response("[]"),
            // Value sets as arrays, which the compact reader leaves to the typed decode.
            response(r#"[[0,[[1],[],[2,3]]]]"#),
            // Another key first: the divert is only for the document's own `metric_values`.
            response(r#"[{"start_epoch_millis":0,"values":[[1],[],[2,3]]}]"#).replacen(
                "\"name\":\"a\"",
                "\"name\":\"a\",\"metric_values\":1",
                1,
            ),
        ] {
            let exported = exported(&json);
            assert!(exported.is_ok(), "{exported:?}");
            assert_eq!(exported, typed(&json), "{json}");
        }
        let csv = exported(&response(
            r#"[{"start_epoch_millis":0,"values":[[1],[],[2.5,null]]}]"#,
        ))
        .unwrap();
        assert_eq!(
            csv,
            "step_start_ms,step_end_ms,metric,labels,value\n\
             0,90000,a,,1\n0,90000,\"b,c\",k=1,2.5\n0,90000,\"b,c\",\"k=\"\"\",\n"
        );
    }

    #[test]
    fn invalid_responses_fail_as_the_typed_path_does() {
        for sets in [
            r#"[{"start_epoch_millis":0,"values":[[1],[],[2]]}]"#,
            r#"[{"start_epoch_millis":0,"values":[[1],[2,3]]}]"#,
            r#"[{"start_epoch_millis":0,"values":[[1],[],[2,3]]},{"start_epoch_millis":0,"values":[[1],[],[2,3]]}]"#,
            r#"[{"start_epoch_millis":90001,"values":[[1],[],[2,3]]}]"#,
            r#"[{"start_epoch_millis":0,"values":[[1],[],[2,"x"]]}]"#,
            r#"[{"start_epoch_millis":0}]"#,
            r#"[{"values":[[1],[],[2,3]]}]"#,
            r#"[{"start_epoch_millis":0,"start_epoch_millis":1,"values":[[1],[],[2,3]]}]"#,
            r#"[{"start_epoch_millis":0.5,"values":[[1],[],[2,3]]}]"#,
            r#"[[0]]"#,
            r#"{}"#,
            r#"null"#,
        ] {
            let json = response(sets);
            let exported = exported(&json);
            assert!(exported.is_err(), "{sets}: {exported:?}");
            assert_eq!(exported, typed(&json), "{sets}");
        }
        // The checks of the mode, as for a fetched response.
        let json = response(r#"[{"start_epoch_millis":0,"values":[[1],[],[2,3]]}]"#);
        for (from, to) in [
            (r#""step_seconds":30"#, r#""step_seconds":null"#),
            (r#""step_seconds":30"#, r#""step_seconds":0"#),
            (r#""mode":"SERIES""#, r#""mode":"SUMMARY""#),
        ] {
            let json = json.replace(from, to);
            let json = if to.contains("SUMMARY") {
                json.replace(
                    "}]}",
                    "},{\"start_epoch_millis\":1,\"values\":[[1],[],[2,3]]}]}",
                )
            } else {
                json
            };
            let exported = exported(&json);
            assert!(exported.is_err(), "{to}: {exported:?}");
            assert_eq!(exported, typed(&json), "{to}");
        }
        assert_eq!(
            exported(&json.replace(r#""step_seconds":30"#, r#""step_seconds":-0"#))
                .err()
                .as_deref(),
            Some("SERIES response has step_seconds Some(0), expected a positive number")
        );
        assert_eq!(
            exported(&format!("{json} x"))
                .err()
                .as_deref()
                .map(|e| e.starts_with("invalid response: trailing characters")),
            Some(true)
        );
    }

    #[test]
    fn nothing_is_written_for_an_invalid_response() {
        let json = response(
            r#"[{"start_epoch_millis":0,"values":[[1],[],[2,3]]},{"start_epoch_millis":0,"values":[[1],[],[2,3]]}]"#,
        );
        let mut out = Vec::new();
        let error = export_csv::<GetModelMetricsResponseV1, _>(json.as_bytes(), &mut out);
        assert!(matches!(
            error,
            Err(ExportError::Invalid(ResponseError::Misaligned(
                AlignmentError::StartNotIncreasing { value_set: 1, .. }
            )))
        ));
        assert!(out.is_empty());
    }

    #[test]
    fn flat_spans_read_each_value_set() {
        let sets = FlatSets {
            diverted: true,
            starts: vec![0, 1],
            list_ends: vec![2, 3],
            list_lengths: vec![1, 2, 1],
            value_ends: vec![3, 4],
            values: vec![1.0, 2.0, 3.0, 4.0],
            ..FlatSets::default()
        };
        assert_eq!(sets.lists(0), [1, 2]);
        assert_eq!(sets.lists(1), [1]);
        assert_eq!(sets.values(0), [1.0, 2.0, 3.0]);
        assert_eq!(sets.values(1), [4.0]);
        assert!(sets.values(2).is_empty());
    }
}
