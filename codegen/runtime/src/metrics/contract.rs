//! What makes a metrics response the answer to its request, by mode: the modes, the reasons a
//! response is not an answer, and the value-set count each mode allows. Below both the requests
//! and the alignment checks, which each use it.

use std::fmt;

use crate::metrics::AlignmentError;
use crate::server_text::ServerText;

/// The three aggregation modes, as the runtime names them (a generated crate has its own open
/// enum for the wire values; this one is what errors and [`MetricsQuery`](crate::requests::MetricsQuery) carry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MetricsMode {
    /// `CURRENT`: one snapshot taken now.
    Current,
    /// `SUMMARY`: one value set covering the window.
    Summary,
    /// `SERIES`: value sets at a regular step.
    Series,
}

impl MetricsMode {
    /// The wire value: `CURRENT`, `SUMMARY` or `SERIES`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Current => "CURRENT",
            Self::Summary => "SUMMARY",
            Self::Series => "SERIES",
        }
    }
}

impl fmt::Display for MetricsMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a response cannot be the answer to the request that was sent; the payload of
/// [`Error::InvalidResponse`](crate::Error::InvalidResponse).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ResponseError {
    /// The response says it was aggregated in another mode than the one asked for.
    ModeMismatch {
        /// The mode sent.
        requested: MetricsMode,
        /// The mode the response names, as it names it.
        returned: ServerText,
    },
    /// A `CURRENT` or `SUMMARY` response does not hold exactly one value set.
    ValueSetCount {
        /// The mode (`CURRENT` or `SUMMARY`).
        mode: MetricsMode,
        /// How many value sets it holds.
        count: usize,
    },
    /// A `SERIES` response has no positive `step_seconds`.
    StepSeconds {
        /// What the response has instead.
        step_seconds: Option<i64>,
    },
    /// The values do not line up with the descriptors, or the steps are out of order (see
    /// [`metrics::validate`](crate::metrics::validate)).
    Misaligned(AlignmentError),
}

impl fmt::Display for ResponseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ModeMismatch {
                requested,
                returned,
            } => write!(
                f,
                "asked for {requested} metrics, the response is {returned}"
            ),
            Self::ValueSetCount { mode, count } => {
                write!(
                    f,
                    "{mode} response has {count} value sets, expected exactly 1"
                )
            }
            Self::StepSeconds { step_seconds } => write!(
                f,
                "SERIES response has step_seconds {step_seconds:?}, expected a positive number"
            ),
            Self::Misaligned(source) => write!(f, "misaligned response: {source}"),
        }
    }
}

impl std::error::Error for ResponseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Misaligned(source) => Some(source),
            _ => None,
        }
    }
}

/// The checks of a response's value-set count and step that its mode asks for, fetched or
/// saved: a `CURRENT` or `SUMMARY` response holds one value set, a `SERIES` one has a positive
/// `step_seconds`.
///
/// [`CheckedMetrics::check`] runs it on a fetched response (after comparing the modes), and
/// [`metrics::validate_response`](crate::metrics::validate_response) on a saved one, in the mode it names; both then run
/// [`metrics::validate`](crate::metrics::validate).
pub(crate) fn check_mode_counts(
    mode: MetricsMode,
    value_sets: usize,
    step_seconds: Option<i64>,
) -> Result<(), ResponseError> {
    match mode {
        MetricsMode::Series => match step_seconds {
            Some(seconds) if seconds > 0 => Ok(()),
            step_seconds => Err(ResponseError::StepSeconds { step_seconds }),
        },
        mode if value_sets != 1 => Err(ResponseError::ValueSetCount {
            mode,
            count: value_sets,
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `source()` of a misaligned response is the alignment error; the others have none.
    #[test]
    fn source_is_the_alignment_error() {
        use std::error::Error as _;
        let alignment = AlignmentError::SummaryValueSetCount { count: 2 };
        let misaligned = ResponseError::Misaligned(alignment.clone());
        assert_eq!(
            misaligned.source().map(ToString::to_string),
            Some(alignment.to_string())
        );
        let count = ResponseError::ValueSetCount {
            mode: MetricsMode::Current,
            count: 2,
        };
        assert!(count.source().is_none());
    }

    /// The variant path of `error`; exhaustive, so a variant added to either enum stops this
    /// compiling until the test below builds it too.
    fn variant(error: &ResponseError) -> &'static str {
        match error {
            ResponseError::ModeMismatch { .. } => "ModeMismatch",
            ResponseError::ValueSetCount { .. } => "ValueSetCount",
            ResponseError::StepSeconds { .. } => "StepSeconds",
            ResponseError::Misaligned(alignment) => match alignment {
                AlignmentError::DescriptorCountMismatch { .. } => "DescriptorCountMismatch",
                AlignmentError::LabelSetCountMismatch { .. } => "LabelSetCountMismatch",
                AlignmentError::StartNotIncreasing { .. } => "StartNotIncreasing",
                AlignmentError::StepAfterWindowEnd { .. } => "StepAfterWindowEnd",
                AlignmentError::SummaryValueSetCount { .. } => "SummaryValueSetCount",
                AlignmentError::NonFiniteValue { .. } => "NonFiniteValue",
            },
        }
    }

    /// Every variant, those quoting server text holding a registered key in several forms,
    /// shows none of them in `Display` or `Debug`, inside `Error` too.
    #[test]
    fn no_variant_shows_a_registered_key() {
        let key = "contract-test-key-Wq2.Zz";
        let _registered = crate::server_text::RegisteredSecret::new(key);
        let lower: String = key.bytes().map(|b| format!("%{b:02x}")).collect();
        let json: String = key
            .chars()
            .map(|c| format!("\\u{:04x}", u32::from(c)))
            .collect();
        let text = || ServerText::new(format!("{key} {lower} {key:?} {json}"));
        let misaligned = ResponseError::Misaligned;
        let errors = [
            ResponseError::ModeMismatch {
                requested: MetricsMode::Current,
                returned: text(),
            },
            ResponseError::ValueSetCount {
                mode: MetricsMode::Summary,
                count: 2,
            },
            ResponseError::StepSeconds { step_seconds: None },
            misaligned(AlignmentError::DescriptorCountMismatch {
                value_set: 0,
                expected: 1,
                actual: 0,
            }),
            misaligned(AlignmentError::LabelSetCountMismatch {
                value_set: 0,
                descriptor: 0,
                name: text(),
                expected: 1,
                actual: 0,
            }),
            misaligned(AlignmentError::StartNotIncreasing {
                value_set: 1,
                start_ms: 0,
                previous_start_ms: 0,
            }),
            misaligned(AlignmentError::StepAfterWindowEnd {
                value_set: 0,
                start_ms: 2,
                window_end_ms: 1,
            }),
            misaligned(AlignmentError::SummaryValueSetCount { count: 2 }),
            misaligned(AlignmentError::NonFiniteValue {
                value_set: 0,
                descriptor: 0,
                name: text(),
                label_set: 0,
                value: f64::NAN,
            }),
        ];
        let mut names: Vec<&str> = errors.iter().map(variant).collect();
        names.dedup();
        assert_eq!(names.len(), errors.len(), "{names:?}");
        for error in errors {
            let name = variant(&error);
            let error = crate::Error::from(error);
            let shown = format!("{error} {error:?}");
            for form in [key, &lower, &json] {
                assert!(!shown.contains(form), "{name}: {form} in {shown}");
            }
        }
    }
}
