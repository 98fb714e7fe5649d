//! Decoding a response from JSON bytes, with errors that name the JSON path of the bad value.

use std::fmt;

use serde_core::de::DeserializeOwned;
use serde_path_to_error::Segment;

use crate::server_text::ServerText;

use strict::Strict;

pub(crate) mod strict;

/// Decodes a response from JSON bytes.
///
/// Unlike `serde_json::from_slice`, a failure says *where*: [`DecodeError::path`] is the JSON
/// path of the offending value (e.g. `metric_values[3].values[1][0]`), and when that value sits
/// inside a value set's `values`, [`DecodeError::location`] gives its indices. A value that is
/// neither a number nor `null` (a string, a bare `NaN`, a number too large for an `f64`) is
/// caught here, before validation. Trailing non-whitespace after the document is an error too.
///
/// Two rules are stricter than serde_json's: a key repeated within one JSON object is an error
/// (a label map would otherwise keep the last value silently, turning `{"status": "2xx",
/// "status": "5xx"}` into a 5xx series), reported at the repeated key's path, e.g.
/// `metric_descriptors[0].label_sets[1].status` (a repeated field of the response types
/// themselves is serde's `duplicate field` error; keys inside an unknown field's value, which
/// is skipped unread, are not checked); and an integer field accepts `-0` (serde_json reads it
/// as the float `-0.0`), and `-0.0` with it, as 0.
///
/// ```
/// use baseten_api::metrics::{self, ValueLocation};
/// use baseten_api::models::GetModelMetricsResponseV1;
///
/// let json = br#"{"start_epoch_millis": 0, "end_epoch_millis": 1, "mode": "SUMMARY",
///   "metric_descriptors": [{"name": "m", "unit_hint": "COUNT", "kind": "GAUGE", "label_sets": [{}]}],
///   "metric_values": [{"start_epoch_millis": 0, "values": [["x"]]}]}"#;
/// let error = metrics::decode::<GetModelMetricsResponseV1>(json).unwrap_err();
/// assert_eq!(error.path(), "metric_values[0].values[0][0]");
/// assert_eq!(error.location(), Some(ValueLocation { value_set: 0, descriptor: 0, label_set: 0 }));
/// assert!(error.to_string().starts_with(
///     r#"metric_values[0].values[0][0]: invalid type: string "x", expected f64 at line 3"#
/// ));
/// ```
pub fn decode<R: DeserializeOwned>(json: &[u8]) -> Result<R, DecodeError> {
    // Tracking the path slows decoding by a third or more, and only a failure needs it: decode
    // plainly first, and on failure decode again with the path tracked, to report the error.
    // Both read the same bytes into the same type, so they succeed or fail alike.
    match decode_plainly(json) {
        Ok(response) => Ok(response),
        Err(_) => decode_tracking_path(json),
    }
}

/// [`decode`] without the path, as `serde_json::from_slice` with the [`Strict`] rules.
fn decode_plainly<R: DeserializeOwned>(json: &[u8]) -> Result<R, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    let response = R::deserialize(Strict::new(&mut deserializer))?;
    deserializer.end()?;
    Ok(response)
}

/// [`decode`] with the JSON path tracked, for its error.
fn decode_tracking_path<R: DeserializeOwned>(json: &[u8]) -> Result<R, DecodeError> {
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    let response =
        serde_path_to_error::deserialize(Strict::new(&mut deserializer)).map_err(|error| {
            let location = value_location(error.path());
            // A path of only unknown segments (`?`, e.g. for a truncated document) says nothing
            // more than "somewhere in the document"; serde_path_to_error drops it the same way.
            let path = if error.path().iter().all(|s| matches!(s, Segment::Unknown)) {
                ROOT_PATH.to_owned()
            } else {
                error.path().to_string()
            };
            DecodeError::new(path, location, &error.into_inner())
        })?;
    // `deserialize` stops after the first complete value; `end` rejects anything but whitespace
    // after it, as `serde_json::from_slice` would.
    deserializer
        .end()
        .map_err(|source| DecodeError::new(ROOT_PATH.to_owned(), None, &source))?;
    Ok(response)
}

/// How `serde_path_to_error` writes the path of the document itself.
const ROOT_PATH: &str = ".";

/// Where a value sits among the value sets: `metric_values[value_set].values[descriptor][label_set]`.
///
/// All indices are 0-based, as in the JSON arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ValueLocation {
    /// Index into `metric_values`.
    pub value_set: usize,
    /// Index into that value set's `values`, i.e. into `metric_descriptors`.
    pub descriptor: usize,
    /// Index into that descriptor's `label_sets`.
    pub label_set: usize,
}

/// A response that could not be decoded: invalid JSON, a missing field, a value of the wrong type.
///
/// Displays as `<path>: <serde_json message>`, or just the message when the problem is with the
/// document as a whole (path `.`). serde_json's message ends with `at line L column C`.
///
/// The path's keys and serde's message (which quotes offending values) are the document's text,
/// so both are [`ServerText`]; for the same reason serde_json's error is not kept as a
/// `source()`, whose `Display` would repeat them unscrubbed.
#[derive(Debug, Clone)]
pub struct DecodeError {
    path: ServerText,
    location: Option<ValueLocation>,
    message: ServerText,
    category: serde_json::error::Category,
    line: usize,
    column: usize,
}

impl DecodeError {
    fn new(path: String, location: Option<ValueLocation>, source: &serde_json::Error) -> Self {
        Self {
            path: ServerText::new(path),
            location,
            message: ServerText::new(source.to_string()),
            category: source.classify(),
            line: source.line(),
            column: source.column(),
        }
    }

    /// The JSON path of the value that failed, e.g. `metric_values[3].values[1][0]`; `.` for the
    /// document itself. A segment that is not known (inside an object, before its key was read)
    /// is written `?`.
    pub fn path(&self) -> &ServerText {
        &self.path
    }

    /// What serde_json objected to, ending with `at line L column C`.
    pub fn message(&self) -> &ServerText {
        &self.message
    }

    /// What kind of failure serde_json saw: syntax, end of input, or data of the wrong shape.
    pub fn category(&self) -> serde_json::error::Category {
        self.category
    }

    /// The value set, descriptor and label set of the value that failed, when the path is inside
    /// `metric_values[..].values[..][..]`.
    pub fn location(&self) -> Option<ValueLocation> {
        self.location
    }

    /// 1-based line of the error in the input (0 when serde_json does not know it).
    pub fn line(&self) -> usize {
        self.line
    }

    /// 1-based column of the error in the input (0 when serde_json does not know it).
    pub fn column(&self) -> usize {
        self.column
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path == ROOT_PATH {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for DecodeError {}

/// Reads the indices out of a path of exactly the form `metric_values[i].values[j][k]`.
///
/// Works on the path's segments rather than its text, so a map key that happens to contain
/// brackets cannot be mistaken for an index.
fn value_location(path: &serde_path_to_error::Path) -> Option<ValueLocation> {
    let segments: Vec<&Segment> = path.iter().collect();
    match segments.as_slice() {
        [
            Segment::Map { key: value_sets },
            Segment::Seq { index: value_set },
            Segment::Map { key: values },
            Segment::Seq { index: descriptor },
            Segment::Seq { index: label_set },
        ] if value_sets == "metric_values" && values == "values" => Some(ValueLocation {
            value_set: *value_set,
            descriptor: *descriptor,
            label_set: *label_set,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::GetModelMetricsResponseV1;

    fn decode_error(json: &str) -> DecodeError {
        match decode::<GetModelMetricsResponseV1>(json.as_bytes()) {
            Ok(response) => panic!("decoded {response:?}"),
            Err(error) => error,
        }
    }

    fn response_with_values(values: &str) -> String {
        format!(
            r#"{{"start_epoch_millis":0,"end_epoch_millis":60000,"mode":"SERIES","step_seconds":30,
            "metric_descriptors":[
              {{"name":"a","unit_hint":"COUNT","kind":"GAUGE","label_sets":[{{}}]}},
              {{"name":"b","unit_hint":"COUNT","kind":"GAUGE","label_sets":[{{}},{{"k":"v"}}]}}],
            "metric_values":[
              {{"start_epoch_millis":0,"values":[[1],[2,3]]}},
              {{"start_epoch_millis":30000,"values":{values}}}]}}"#
        )
    }

    #[test]
    fn a_string_value_names_its_path_and_indices() {
        let error = decode_error(&response_with_values(r#"[[1],[2,"x"]]"#));
        assert_eq!(error.path(), "metric_values[1].values[1][1]");
        assert_eq!(
            error.location(),
            Some(ValueLocation {
                value_set: 1,
                descriptor: 1,
                label_set: 1
            })
        );
        assert!(
            error.to_string().starts_with(
                r#"metric_values[1].values[1][1]: invalid type: string "x", expected f64 at line 7"#
            ),
            "{error}"
        );
    }

    #[test]
    fn a_bare_nan_is_a_decode_error_at_its_value() {
        let error = decode_error(&response_with_values("[[NaN],[2,3]]"));
        assert_eq!(error.path(), "metric_values[1].values[0][0]");
        assert!(error.to_string().contains("expected value"), "{error}");
    }

    #[test]
    fn a_number_beyond_f64_is_a_decode_error_at_its_value() {
        let error = decode_error(&response_with_values("[[1e999],[2,3]]"));
        assert_eq!(error.path(), "metric_values[1].values[0][0]");
        assert!(error.to_string().contains("number out of range"), "{error}");
    }

    #[test]
    fn a_non_list_where_values_belong_has_a_path_but_no_value_location() {
        let error = decode_error(&response_with_values("[1,[2,3]]"));
        assert_eq!(error.path(), "metric_values[1].values[0]");
        assert_eq!(error.location(), None);
    }

    #[test]
    fn document_level_errors_have_no_path_prefix() {
        let error = decode_error("{");
        assert_eq!(error.path(), ".");
        assert_eq!(error.location(), None);
        assert!(
            error.to_string().starts_with("EOF while parsing"),
            "{error}"
        );
        let error = decode_error(&format!("{} trailing", response_with_values("[[1],[2,3]]")));
        assert!(
            error.to_string().starts_with("trailing characters"),
            "{error}"
        );
        assert!(error.line() > 0 && error.column() > 0);
    }

    /// Values recorded from the live API that serde_json misrounds by one ulp unless its
    /// `float_roundtrip` feature is on.
    #[test]
    fn values_decode_to_the_nearest_f64() {
        for text in [
            "1.9733999999999998",
            "112.30799999999999",
            "2.1359399999999997",
        ] {
            let json = response_with_values(&format!("[[{text}],[2,3]]"));
            let response: GetModelMetricsResponseV1 = decode(json.as_bytes()).unwrap();
            let value = response.metric_values[1].values[0][0].unwrap();
            assert_eq!(
                value.to_bits(),
                text.parse::<f64>().unwrap().to_bits(),
                "{text}"
            );
        }
    }

    #[test]
    fn a_missing_field_is_reported() {
        let error = decode_error(r#"{"start_epoch_millis":0}"#);
        assert!(
            error
                .to_string()
                .contains("missing field `end_epoch_millis`"),
            "{error}"
        );
    }

    #[test]
    fn a_key_repeated_in_a_label_set_is_an_error_at_that_label_set() {
        let json = r#"{"start_epoch_millis":0,"end_epoch_millis":1,"mode":"SUMMARY",
            "metric_descriptors":[{"name":"r","unit_hint":"COUNT","kind":"COUNTER",
              "label_sets":[{"status":"4xx"},{"status":"2xx","status":"5xx"}]}],
            "metric_values":[{"start_epoch_millis":0,"values":[[1,2]]}]}"#;
        let error = decode_error(json);
        assert_eq!(error.path(), "metric_descriptors[0].label_sets[1].status");
        assert_eq!(error.location(), None);
        assert!(
            error.to_string().starts_with(
                r#"metric_descriptors[0].label_sets[1].status: duplicate key "status" in one object at line 3"#
            ),
            "{error}"
        );
    }

    #[test]
    fn a_key_repeated_with_escapes_is_still_the_same_key() {
        let json = response_with_values("[[1],[2,3]]")
            .replace(r#"{"k":"v"}"#, r#"{"k":"v","\u006b":"w"}"#);
        let error = decode_error(&json);
        assert_eq!(error.path(), "metric_descriptors[1].label_sets[1].k");
        assert!(
            error.to_string().contains(r#"duplicate key "k""#),
            "{error}"
        );
    }

    #[test]
    fn a_repeated_top_level_field_is_an_error() {
        let json = response_with_values("[[1],[2,3]]").replacen(
            r#""mode":"SERIES""#,
            r#""mode":"SERIES","mode":"SUMMARY""#,
            1,
        );
        let error = decode_error(&json);
        // serde's own check for struct fields comes first.
        assert_eq!(error.path(), ".");
        assert!(
            error.to_string().starts_with("duplicate field `mode`"),
            "{error}"
        );
    }

    #[test]
    fn distinct_keys_in_every_order_decode() {
        let json = response_with_values("[[1],[2,3]]")
            .replace(r#"{"k":"v"}"#, r#"{"b":"1","a":"2","c":"3"}"#);
        let response: GetModelMetricsResponseV1 = decode(json.as_bytes()).unwrap();
        let labels = &response.metric_descriptors[1].label_sets[1];
        let pairs: Vec<_> = labels
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(pairs, [("a", "2"), ("b", "1"), ("c", "3")]);
    }

    #[test]
    fn integers_accept_minus_zero() {
        let json = response_with_values("[[1],[2,3]]")
            .replacen(r#""start_epoch_millis":0"#, r#""start_epoch_millis":-0"#, 2)
            .replacen(r#""step_seconds":30"#, r#""step_seconds":-0"#, 1);
        let response: GetModelMetricsResponseV1 = decode(json.as_bytes()).unwrap();
        assert_eq!(response.start_epoch_millis, 0);
        assert_eq!(response.metric_values[0].start_epoch_millis, 0);
        assert_eq!(response.step_seconds, Some(0));
        // Only zero: other floats are still no integers, and a value keeps its sign.
        let error = decode_error(&json.replacen(
            r#""end_epoch_millis":60000"#,
            r#""end_epoch_millis":-1.0"#,
            1,
        ));
        assert_eq!(error.path(), "end_epoch_millis");
        assert!(
            error
                .to_string()
                .contains("invalid type: floating point `-1.0`, expected i64"),
            "{error}"
        );
        let error = decode_error(&json.replacen(
            r#""end_epoch_millis":60000"#,
            r#""end_epoch_millis":0.0"#,
            1,
        ));
        assert!(
            error
                .to_string()
                .contains("invalid type: floating point `0.0`, expected i64"),
            "{error}"
        );
        let response: GetModelMetricsResponseV1 =
            decode(response_with_values("[[-0],[2,3]]").as_bytes()).unwrap();
        let value = response.metric_values[1].values[0][0].unwrap();
        assert!(value == 0.0 && value.is_sign_negative());
    }
}
