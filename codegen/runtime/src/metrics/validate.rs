//! Validation: the checks a response must pass before any view of it is handed out.

use crate::metrics::index_mapped::{
    IndexMappedDescriptor, IndexMappedResponse, IndexMappedValueSet as _,
};

use super::contract::{MetricsMode, ResponseError, check_mode_counts};
use super::view::MetricsView;
use crate::server_text::ServerText;

/// The mode string of a summary response, which must hold exactly one value set.
pub const SUMMARY_MODE: &str = "SUMMARY";

/// Why a decoded response cannot be read by position.
///
/// Each variant names where the problem is; all indices are 0-based, as in the JSON arrays
/// (`metric_values[value_set].values[descriptor][label_set]`). Messages are one line: metric
/// names are quoted and escaped.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AlignmentError {
    /// A value set's outer `values` list does not have one entry per descriptor.
    DescriptorCountMismatch {
        /// Index of the value set.
        value_set: usize,
        /// Number of descriptors.
        expected: usize,
        /// Length of the value set's `values`.
        actual: usize,
    },
    /// A descriptor's entry in a value set does not have one value per label set.
    LabelSetCountMismatch {
        /// Index of the value set.
        value_set: usize,
        /// Index of the descriptor.
        descriptor: usize,
        /// The descriptor's metric name.
        name: ServerText,
        /// Number of the descriptor's label sets.
        expected: usize,
        /// Length of the descriptor's entry in the value set.
        actual: usize,
    },
    /// A value set does not start strictly after the one before it.
    StartNotIncreasing {
        /// Index of the value set.
        value_set: usize,
        /// Its start, epoch milliseconds.
        start_ms: i64,
        /// The previous value set's start, epoch milliseconds.
        previous_start_ms: i64,
    },
    /// A value set starts after the window end, so its step would end before it begins.
    StepAfterWindowEnd {
        /// Index of the value set.
        value_set: usize,
        /// Its start, epoch milliseconds.
        start_ms: i64,
        /// The window end, epoch milliseconds.
        window_end_ms: i64,
    },
    /// A `SUMMARY` response does not hold exactly one value set.
    SummaryValueSetCount {
        /// Number of value sets.
        count: usize,
    },
    /// A value is NaN or infinite. JSON cannot carry these, so this only happens for responses
    /// built or decoded by other means.
    NonFiniteValue {
        /// Index of the value set.
        value_set: usize,
        /// Index of the descriptor.
        descriptor: usize,
        /// The descriptor's metric name.
        name: ServerText,
        /// Index of the label set.
        label_set: usize,
        /// The value.
        value: f64,
    },
}

impl std::fmt::Display for AlignmentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::DescriptorCountMismatch {
                value_set,
                expected,
                actual,
            } => write!(
                f,
                "value set {value_set}: has {actual} value lists, expected {expected} (one per descriptor)"
            ),
            Self::LabelSetCountMismatch {
                value_set,
                descriptor,
                name,
                expected,
                actual,
            } => write!(
                f,
                "value set {value_set}, descriptor {descriptor} {name:?}: has {actual} values, expected {expected} (one per label set)"
            ),
            Self::StartNotIncreasing {
                value_set,
                start_ms,
                previous_start_ms,
            } => write!(
                f,
                "value set {value_set}: starts at {start_ms} ms, not after the previous value set's start at {previous_start_ms} ms"
            ),
            Self::StepAfterWindowEnd {
                value_set,
                start_ms,
                window_end_ms,
            } => write!(
                f,
                "value set {value_set}: starts at {start_ms} ms, after the window end at {window_end_ms} ms"
            ),
            Self::SummaryValueSetCount { count } => {
                write!(
                    f,
                    "SUMMARY response has {count} value sets, expected exactly 1"
                )
            }
            Self::NonFiniteValue {
                value_set,
                descriptor,
                name,
                label_set,
                value,
            } => write!(
                f,
                "value set {value_set}, descriptor {descriptor} {name:?}, label set {label_set}: value {value} is not finite"
            ),
        }
    }
}

impl std::error::Error for AlignmentError {}

/// Checks that `response` can be read by position, and returns a view of it.
///
/// Checks, reporting the first failure in response order (value set by value set, and within
/// one, descriptor by descriptor): a `SUMMARY` response holds one value set; each value set
/// starts strictly after the previous one and no later than the window end; its `values` has
/// one list per descriptor, each with one value per label set; every value is finite.
///
/// Not errors: a step starting before the window start (steps are aligned to whole seconds), a
/// last step starting exactly at the window end (an empty step), unknown modes, unit hints and
/// kinds, descriptors with no label sets, and responses with no descriptors or no value sets.
pub fn validate<R: IndexMappedResponse>(
    response: &R,
) -> Result<MetricsView<'_, R>, AlignmentError> {
    let value_sets = response.value_sets();
    check_value_sets(
        response,
        value_sets.len(),
        |index| {
            value_sets
                .get(index)
                .map_or(0, |set| set.start_epoch_millis())
        },
        |index| {
            let values = value_sets.get(index).map_or(&[][..], |set| set.values());
            check_values(index, response.descriptors(), values)
        },
    )?;
    Ok(MetricsView::new(response))
}

/// The checks of [`validate`], for value sets held in any layout: `count` value sets, the start
/// of each by `start_of`, and the check of each one's values against the descriptors by
/// `check_set`. One implementation, so that every layout reports the same first error.
pub(crate) fn check_value_sets<R: IndexMappedResponse>(
    response: &R,
    count: usize,
    start_of: impl Fn(usize) -> i64,
    check_set: impl Fn(usize) -> Result<(), AlignmentError>,
) -> Result<(), AlignmentError> {
    if response.mode() == Some(MetricsMode::Summary) && count != 1 {
        return Err(AlignmentError::SummaryValueSetCount { count });
    }
    let window_end_ms = response.window_end_millis();
    let mut previous_start_ms: Option<i64> = None;
    for value_set in 0..count {
        let start_ms = start_of(value_set);
        if let Some(previous_start_ms) = previous_start_ms.filter(|&previous| start_ms <= previous)
        {
            return Err(AlignmentError::StartNotIncreasing {
                value_set,
                start_ms,
                previous_start_ms,
            });
        }
        previous_start_ms = Some(start_ms);
        if start_ms > window_end_ms {
            return Err(AlignmentError::StepAfterWindowEnd {
                value_set,
                start_ms,
                window_end_ms,
            });
        }
        check_set(value_set)?;
    }
    Ok(())
}

/// Checks a saved response as a fetched one is checked, in the mode it names.
///
/// A fetched response passes [`CheckedMetrics::check`](crate::requests::CheckedMetrics::check); this runs the
/// same checks on one read from a file: a `CURRENT` or `SUMMARY` response holds exactly one
/// value set, a `SERIES` response has a positive `step_seconds`, and then [`validate`]. A mode
/// this crate does not know (or a type without one) gets [`validate`] alone.
pub fn validate_response<R: IndexMappedResponse>(
    response: &R,
) -> Result<MetricsView<'_, R>, ResponseError> {
    match response.mode() {
        Some(mode) => {
            check_mode_counts(mode, response.value_sets().len(), response.step_seconds())?;
            validate(response).map_err(ResponseError::Misaligned)
        }
        None => validate(response).map_err(ResponseError::Misaligned),
    }
}

/// Checks one value set's `values` against the descriptors.
fn check_values<D: IndexMappedDescriptor>(
    value_set: usize,
    descriptors: &[D],
    values: &[Vec<Option<f64>>],
) -> Result<(), AlignmentError> {
    if values.len() != descriptors.len() {
        return Err(AlignmentError::DescriptorCountMismatch {
            value_set,
            expected: descriptors.len(),
            actual: values.len(),
        });
    }
    for (descriptor, (metric, list)) in descriptors.iter().zip(values).enumerate() {
        let expected = metric.label_sets().len();
        if list.len() != expected {
            return Err(AlignmentError::LabelSetCountMismatch {
                value_set,
                descriptor,
                name: ServerText::new(metric.name()),
                expected,
                actual: list.len(),
            });
        }
        let non_finite = list.iter().enumerate().find_map(|(label_set, value)| {
            value.filter(|v| !v.is_finite()).map(|v| (label_set, v))
        });
        if let Some((label_set, value)) = non_finite {
            return Err(AlignmentError::NonFiniteValue {
                value_set,
                descriptor,
                name: ServerText::new(metric.name()),
                label_set,
                value,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::models::{
        GetModelMetricsResponseV1, ModelMetricDescriptorV1, ModelMetricValueSetV1,
    };

    fn descriptor(name: &str, label_count: usize) -> ModelMetricDescriptorV1 {
        ModelMetricDescriptorV1 {
            name: name.to_owned(),
            unit_hint: "COUNT".into(),
            kind: "GAUGE".into(),
            label_sets: (0..label_count)
                .map(|i| BTreeMap::from([("i".to_owned(), i.to_string())]))
                .collect(),
        }
    }

    fn response(
        mode: &str,
        starts_and_values: &[(i64, Vec<Vec<Option<f64>>>)],
    ) -> GetModelMetricsResponseV1 {
        GetModelMetricsResponseV1 {
            start_epoch_millis: 0,
            end_epoch_millis: 90_000,
            mode: mode.into(),
            step_seconds: Some(30),
            metric_descriptors: vec![descriptor("a", 1), descriptor("b", 2)],
            metric_values: starts_and_values
                .iter()
                .map(|(start, values)| ModelMetricValueSetV1 {
                    start_epoch_millis: *start,
                    values: values.clone(),
                })
                .collect(),
        }
    }

    fn good() -> Vec<Vec<Option<f64>>> {
        vec![vec![Some(1.0)], vec![Some(2.0), None]]
    }

    fn error(response: &GetModelMetricsResponseV1) -> AlignmentError {
        match validate(response) {
            Ok(_) => panic!("validated {response:?}"),
            Err(error) => error,
        }
    }

    #[test]
    fn aligned_series_validates() {
        let r = response("SERIES", &[(0, good()), (30_000, good()), (90_000, good())]);
        let view = validate(&r).unwrap();
        assert_eq!(view.step_count(), 3);
    }

    #[test]
    fn outer_length_mismatch() {
        let r = response("SERIES", &[(0, good()), (30_000, vec![vec![Some(1.0)]])]);
        assert_eq!(
            error(&r),
            AlignmentError::DescriptorCountMismatch {
                value_set: 1,
                expected: 2,
                actual: 1
            }
        );
    }

    #[test]
    fn inner_length_mismatch() {
        let r = response("SERIES", &[(0, vec![vec![Some(1.0)], vec![Some(2.0)]])]);
        assert_eq!(
            error(&r).to_string(),
            r#"value set 0, descriptor 1 "b": has 1 values, expected 2 (one per label set)"#
        );
    }

    #[test]
    fn equal_or_decreasing_starts() {
        let r = response("SERIES", &[(0, good()), (0, good())]);
        assert!(matches!(
            error(&r),
            AlignmentError::StartNotIncreasing { value_set: 1, .. }
        ));
        let r = response("SERIES", &[(30_000, good()), (0, good())]);
        assert_eq!(
            error(&r).to_string(),
            "value set 1: starts at 0 ms, not after the previous value set's start at 30000 ms"
        );
    }

    #[test]
    fn summary_needs_exactly_one_value_set() {
        assert_eq!(
            error(&response("SUMMARY", &[])),
            AlignmentError::SummaryValueSetCount { count: 0 }
        );
        assert_eq!(
            error(&response("SUMMARY", &[(0, good()), (1, good())])),
            AlignmentError::SummaryValueSetCount { count: 2 }
        );
        assert!(validate(&response("SUMMARY", &[(0, good())])).is_ok());
    }

    #[test]
    fn non_finite_values() {
        for value in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let r = response(
                "SERIES",
                &[(0, vec![vec![Some(1.0)], vec![None, Some(value)]])],
            );
            let e = error(&r);
            assert!(
                matches!(
                    e,
                    AlignmentError::NonFiniteValue {
                        value_set: 0,
                        descriptor: 1,
                        label_set: 1,
                        ..
                    }
                ),
                "{e}"
            );
        }
        let r = response(
            "SERIES",
            &[(0, vec![vec![Some(f64::NAN)], vec![None, None]])],
        );
        assert_eq!(
            error(&r).to_string(),
            r#"value set 0, descriptor 0 "a", label set 0: value NaN is not finite"#
        );
    }

    #[test]
    fn step_after_window_end() {
        let r = response("SERIES", &[(0, good()), (90_001, good())]);
        assert_eq!(
            error(&r).to_string(),
            "value set 1: starts at 90001 ms, after the window end at 90000 ms"
        );
    }

    #[test]
    fn zero_length_last_step_and_step_before_window_start_are_fine() {
        let mut r = response("SERIES", &[(-500, good()), (90_000, good())]);
        let view = validate(&r).unwrap();
        let last = view.steps().last().unwrap();
        assert_eq!(
            (last.start_ms, last.end_ms, last.duration_ms()),
            (90_000, 90_000, 0)
        );
        r.metric_descriptors.clear();
        r.metric_values
            .iter_mut()
            .for_each(|set| set.values.clear());
        assert!(validate(&r).is_ok());
    }

    #[test]
    fn names_with_newlines_stay_on_one_line() {
        let mut r = response("SERIES", &[(0, vec![vec![Some(1.0)], vec![]])]);
        r.metric_descriptors[1].name = "b\nc".to_owned();
        let message = error(&r).to_string();
        assert!(!message.contains('\n'), "{message}");
        assert!(message.contains(r#""b\nc""#), "{message}");
    }

    #[test]
    fn saved_responses_get_the_checks_of_their_mode() {
        let two = [(0, good()), (30_000, good())];
        assert_eq!(
            validate_response(&response("CURRENT", &two)).err(),
            Some(ResponseError::ValueSetCount {
                mode: MetricsMode::Current,
                count: 2
            })
        );
        assert_eq!(
            validate_response(&response("SUMMARY", &[])).err(),
            Some(ResponseError::ValueSetCount {
                mode: MetricsMode::Summary,
                count: 0
            })
        );
        for step_seconds in [None, Some(0), Some(-30)] {
            let mut r = response("SERIES", &two);
            r.step_seconds = step_seconds;
            assert_eq!(
                validate_response(&r).err(),
                Some(ResponseError::StepSeconds { step_seconds })
            );
        }
        let mut r = response("SERIES", &two);
        r.step_seconds = Some(1);
        assert_eq!(validate_response(&r).map(|v| v.step_count()).ok(), Some(2));
        assert!(validate_response(&response("CURRENT", &[(0, good())])).is_ok());
        // An unknown mode gets the alignment checks alone, as `validate` does.
        assert!(validate_response(&response("HOURLY", &two)).is_ok());
        assert_eq!(
            validate_response(&response("HOURLY", &[(0, good()), (0, good())])).err(),
            Some(ResponseError::Misaligned(
                AlignmentError::StartNotIncreasing {
                    value_set: 1,
                    start_ms: 0,
                    previous_start_ms: 0
                }
            ))
        );
    }
}
