//! Ranges longer than one call allows (feature `jiff`): a `[start, end)` range cut into
//! consecutive spans no longer than an endpoint takes, each ending as the endpoint reads an end
//! (the first instant after it, or the last one in it), and the calls for them made in order.

use std::future::Future;

use jiff::{SignedDuration, Timestamp};

use crate::Error;
use crate::error::InvalidArgument;

/// How an endpoint reads the end of the range a call gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeEnd {
    /// The end is the first instant after the range: a call for `[start, end)` ends at `end`,
    /// and the next call starts there (Model APIs usage's `end_time`, "exclusive").
    Exclusive,
    /// The end is the last instant in the range, read at `resolution`: a call ends one
    /// `resolution` before the next call starts, so no instant is in two calls. The instants
    /// are those of the grid `start + k × resolution`; the range's last one is the last
    /// before its end.
    Inclusive {
        /// The finest step the endpoint tells apart.
        resolution: SignedDuration,
    },
}

/// The longest range one call takes and how it reads the range's end: what [`spans`] cuts
/// by. A `jiff::SignedDuration` alone is an [`RangeEnd::Exclusive`] limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpanLimit {
    /// The longest range one call covers (for an inclusive end, from its start to one
    /// resolution past its end).
    pub max: SignedDuration,
    /// How the endpoint reads a call's end.
    pub end: RangeEnd,
}

impl From<SignedDuration> for SpanLimit {
    fn from(max: SignedDuration) -> SpanLimit {
        SpanLimit {
            max,
            end: RangeEnd::Exclusive,
        }
    }
}

/// Billing's limit (`GET /v1/billing/usage_summary`): at most 31 days per call, its
/// `end_date` taken as the last moment of the range, to the second.
///
/// That reading is our assumption: the document does not say whether `end_date` is in the
/// range. Every dated version of it (2026-06-18 to 2026-08-22) says only "Start date (ISO 8601,
/// UTC). Earliest queryable: 2026-01-01." of `start_date`, "End date in ISO 8601 format (UTC).
/// Date range cannot exceed 31 days." of `end_date`, and "Returns billing usage data within
/// the specified date range." of the operation; only Model APIs usage's `end_time` is called
/// "exclusive" (a bare duration, [`RangeEnd::Exclusive`]). Taken as the last moment,
/// consecutive calls never count an instant twice however the server reads it (at worst, if it
/// reads `end_date` as exclusive, each boundary's last second is in no call); taken as the
/// first instant after, a server that reads it as inclusive would count each boundary second
/// in two calls. Either way a call spans at most 31 days. Its
/// `format: date-time` is RFC 3339's, whose fraction of a second is optional: whole seconds
/// are what every reader of it keeps.
pub const BILLING_MAX_SPAN: SpanLimit = SpanLimit {
    max: SignedDuration::from_hours(31 * 24),
    end: RangeEnd::Inclusive {
        resolution: SignedDuration::from_secs(1),
    },
};

/// Why a range cannot be cut into spans; an [`Error::InvalidArgument`] through `?`
/// ([`SpanError::of`] reads it back).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SpanError {
    /// The start is not strictly before the end.
    NotBeforeEnd {
        /// The start given.
        start: Timestamp,
        /// The end given.
        end: Timestamp,
    },
    /// The longest span asked for is zero or negative: no span could make progress.
    EmptySpan {
        /// The longest span given.
        max: SignedDuration,
    },
    /// An inclusive end's resolution is not positive, or longer than the longest span (which
    /// then holds no instant).
    Resolution {
        /// The resolution given.
        resolution: SignedDuration,
        /// The longest span given.
        max: SignedDuration,
    },
}

impl std::fmt::Display for SpanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotBeforeEnd { start, end } => {
                write!(f, "range start {start} is not before its end {end}")
            }
            Self::EmptySpan { max } => write!(f, "a span must be longer than zero, not {max}"),
            Self::Resolution { resolution, max } => write!(
                f,
                "a resolution must be longer than zero and at most the span {max}, not {resolution}"
            ),
        }
    }
}

impl std::error::Error for SpanError {}

impl From<SpanError> for Error {
    fn from(error: SpanError) -> Self {
        Error::InvalidArgument(InvalidArgument::new(error))
    }
}

impl SpanError {
    /// The range's reason inside an [`Error::InvalidArgument`], if that is what `error` is.
    #[must_use]
    pub fn of(error: &Error) -> Option<&Self> {
        match error {
            Error::InvalidArgument(invalid) => invalid.downcast_ref(),
            _ => None,
        }
    }
}

/// `[start, end)` as consecutive calls' `(span_start, span_end)`, each covering at most
/// `limit.max`, the last one shorter if need be; together they cover the range once, with no
/// gap and no overlap, as the endpoint reads an end ([`RangeEnd`]):
/// - [`RangeEnd::Exclusive`] (a bare `jiff::SignedDuration`): each span's end is the next one's
///   start, and the last ends at `end`;
/// - [`RangeEnd::Inclusive`]: each span ends one resolution before the next one starts, and
///   the last at the range's last instant (on the grid `start + k × resolution`); a span
///   covers at most `max` counting its last instant's resolution.
///
/// ```
/// use baseten_api::primitives::jiff::{SignedDuration, Timestamp};
/// use baseten_api::spans::{spans, BILLING_MAX_SPAN};
///
/// let start: Timestamp = "2026-01-01T00:00:00Z".parse()?;
/// let end: Timestamp = "2026-03-01T00:00:00Z".parse()?; // 59 days
/// // Billing's end_date is taken as the last moment of the range, to the second.
/// let cut: Vec<(Timestamp, Timestamp)> = spans(start, end, BILLING_MAX_SPAN)?.collect();
/// assert_eq!(cut.len(), 2);
/// assert_eq!(cut[0], (start, "2026-01-31T23:59:59Z".parse()?));
/// assert_eq!(cut[1], ("2026-02-01T00:00:00Z".parse()?, "2026-02-28T23:59:59Z".parse()?));
/// // An endpoint whose end is exclusive: a bare duration.
/// let day = SignedDuration::from_hours(24);
/// let days: Vec<_> = spans(start, "2026-01-03T00:00:00Z".parse()?, day)?.collect();
/// assert_eq!(days[0].1, days[1].0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`SpanError::NotBeforeEnd`] unless `start < end`; [`SpanError::EmptySpan`] unless
/// `max` is positive; [`SpanError::Resolution`] unless an inclusive end's resolution is
/// positive and at most `max`.
pub fn spans(
    start: Timestamp,
    end: Timestamp,
    limit: impl Into<SpanLimit>,
) -> Result<impl Iterator<Item = (Timestamp, Timestamp)> + Clone, SpanError> {
    let SpanLimit { max, end: reading } = limit.into();
    if start >= end {
        return Err(SpanError::NotBeforeEnd { start, end });
    }
    if !max.is_positive() {
        return Err(SpanError::EmptySpan { max });
    }
    // Nanoseconds (jiff's resolution), as i128: no instant or sum of them overflows it.
    let (first, max) = (start.as_nanosecond(), max.as_nanos());
    // The grid of instants, and how far before the next span's start a span's end is written:
    // an exclusive end is the next start itself, on the nanosecond grid.
    let (resolution, back) = match reading {
        RangeEnd::Exclusive => (1, 0),
        RangeEnd::Inclusive { resolution } => {
            let nanos = resolution.as_nanos();
            if nanos <= 0 || nanos > max {
                return Err(SpanError::Resolution {
                    resolution,
                    max: SignedDuration::from_nanos_i128(max),
                });
            }
            (nanos, nanos)
        }
    };
    // The longest span on the grid, and the grid instant past the range's last one.
    let step = max - max % resolution;
    let length = end.as_nanosecond() - first;
    let past_last = first + (length + resolution - 1) / resolution * resolution;
    let instant = |nanos: i128| Timestamp::from_nanosecond(nanos).ok();
    let mut next = Some(first);
    Ok(std::iter::from_fn(move || {
        let span_start = next?;
        let span_past = (span_start + step).min(past_last);
        next = (span_past < past_last).then_some(span_past);
        // Both within [start, end): instants jiff holds.
        Some((instant(span_start)?, instant(span_past - back)?))
    }))
}

/// Calls `call` once per span of `[start, end)` (see [`spans`]), in order, one at a time, and
/// returns the answers in that order: for an endpoint that takes at most `limit` per call, such
/// as billing's [`BILLING_MAX_SPAN`] (whose calls end one second before the next one starts). Each call goes through the client as any other (retries,
/// the shared throttle), and the first error ends it.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use baseten_api::primitives::jiff::Timestamp;
/// use baseten_api::spans::{for_each_span, BILLING_MAX_SPAN};
/// use baseten_api::{Client, Error};
///
/// /// Dedicated-serving minutes over any range, one billing call per 31 days.
/// async fn dedicated_minutes(client: &Client, start: Timestamp, end: Timestamp) -> Result<i64, Error> {
///     let summaries = for_each_span(start, end, BILLING_MAX_SPAN, |start, end| {
///         client.get_billing_usage_summary(start, end)
///     })
///     .await?;
///     Ok(summaries.iter().filter_map(|usage| usage.dedicated_usage.as_ref()).map(|d| d.minutes).sum())
/// }
///
/// // A fake Baseten (feature `mock`) answering each month's call with its minutes.
/// use baseten_api::models::{DedicatedUsageV1, UsageSummaryV1};
/// use baseten_api::primitives::Decimal;
/// let fake = baseten_api::mock::FakeBaseten::start().await;
/// for (start, minutes) in [("2026-01-01T00:00:00Z", 10), ("2026-02-01T00:00:00Z", 5)] {
///     let usage = UsageSummaryV1::new().dedicated_usage(
///         DedicatedUsageV1::new(Decimal::ZERO, Decimal::ZERO, Decimal::ZERO, minutes));
///     fake.on_get_billing_usage_summary().query("start_date", start).respond(&usage).await;
/// }
/// let (start, end) = ("2026-01-01T00:00:00Z".parse()?, "2026-03-01T00:00:00Z".parse()?);
/// assert_eq!(dedicated_minutes(&fake.client()?, start, end).await?, 15);
/// # Ok(()) }
/// ```
///
/// The same pattern reads the audit log over a long range in pieces (its query takes epoch
/// milliseconds; the document calls them "the start of the window" and "the end of the window"
/// and does not say whether the end is in it, so a bare duration takes it as exclusive):
/// `for_each_span(start, end, SignedDuration::from_hours(24), |start, end|
/// client.get_audit_logs(&GetAuditLogsQuery::default().start_epoch_millis(start.as_millisecond())
/// .end_epoch_millis(end.as_millisecond())))`.
///
/// # Errors
///
/// A [`SpanError`] (as [`Error::InvalidArgument`]) for a range [`spans`] refuses, before any
/// call; else the first error a call returns.
pub async fn for_each_span<T, F, Fut>(
    start: Timestamp,
    end: Timestamp,
    limit: impl Into<SpanLimit>,
    mut call: F,
) -> Result<Vec<T>, Error>
where
    F: FnMut(Timestamp, Timestamp) -> Fut,
    Fut: Future<Output = Result<T, Error>>,
{
    let mut answers = Vec::new();
    for (span_start, span_end) in spans(start, end, limit)? {
        answers.push(call(span_start, span_end).await?);
    }
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::{Just, Strategy, any, prop_oneof};

    fn at(text: &str) -> Timestamp {
        text.parse()
            .unwrap_or_else(|error| panic!("{text}: {error}"))
    }

    fn cut(start: &str, end: &str, hours: i64) -> Vec<(Timestamp, Timestamp)> {
        spans(at(start), at(end), SignedDuration::from_hours(hours))
            .map(Iterator::collect)
            .unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn billing_calls_end_a_second_before_the_next_starts() {
        let (start, end) = ("2026-01-01T00:00:00Z", "2026-03-01T00:00:00Z");
        let cut = spans(at(start), at(end), BILLING_MAX_SPAN)
            .map(Iterator::collect::<Vec<_>>)
            .unwrap_or_default();
        assert_eq!(
            cut,
            [
                (at(start), at("2026-01-31T23:59:59Z")),
                (at("2026-02-01T00:00:00Z"), at("2026-02-28T23:59:59Z")),
            ]
        );
        // Exactly 31 days is one call; a second more is a second call of that second alone.
        let one = spans(at(start), at("2026-02-01T00:00:00Z"), BILLING_MAX_SPAN)
            .map(Iterator::collect::<Vec<_>>)
            .unwrap_or_default();
        assert_eq!(one, [(at(start), at("2026-01-31T23:59:59Z"))]);
        let two = spans(at(start), at("2026-02-01T00:00:01Z"), BILLING_MAX_SPAN)
            .map(Iterator::collect::<Vec<_>>)
            .unwrap_or_default();
        assert_eq!(two.len(), 2);
        assert_eq!(
            two[1],
            (at("2026-02-01T00:00:00Z"), at("2026-02-01T00:00:00Z"))
        );
        // Part of a second past the grid: its instant is the next grid one, in the last call.
        let part = spans(at(start), at("2026-01-01T00:00:01.5Z"), BILLING_MAX_SPAN)
            .map(Iterator::collect::<Vec<_>>)
            .unwrap_or_default();
        assert_eq!(part, [(at(start), at("2026-01-01T00:00:01Z"))]);
        // A span's end is within `max` counting its last second.
        let limit = SpanLimit {
            max: SignedDuration::from_secs(10) + SignedDuration::from_millis(500),
            end: RangeEnd::Inclusive {
                resolution: SignedDuration::from_secs(1),
            },
        };
        let tens = spans(at(start), at("2026-01-01T00:00:25Z"), limit)
            .map(Iterator::collect::<Vec<_>>)
            .unwrap_or_default();
        assert_eq!(
            tens,
            [
                (at(start), at("2026-01-01T00:00:09Z")),
                (at("2026-01-01T00:00:10Z"), at("2026-01-01T00:00:19Z")),
                (at("2026-01-01T00:00:20Z"), at("2026-01-01T00:00:24Z")),
            ]
        );
    }

    #[test]
    fn errors_say_what_was_given() {
        let not_before = SpanError::NotBeforeEnd {
            start: at("2026-01-02T00:00:00Z"),
            end: at("2026-01-01T00:00:00Z"),
        };
        assert_eq!(
            not_before.to_string(),
            "range start 2026-01-02T00:00:00Z is not before its end 2026-01-01T00:00:00Z"
        );
        let empty = SpanError::EmptySpan {
            max: SignedDuration::from_hours(-1),
        };
        assert_eq!(
            empty.to_string(),
            format!(
                "a span must be longer than zero, not {}",
                SignedDuration::from_hours(-1)
            )
        );
        let resolution = SpanError::Resolution {
            resolution: SignedDuration::from_hours(2),
            max: SignedDuration::from_hours(1),
        };
        assert_eq!(
            resolution.to_string(),
            format!(
                "a resolution must be longer than zero and at most the span {}, not {}",
                SignedDuration::from_hours(1),
                SignedDuration::from_hours(2)
            )
        );
    }

    #[test]
    fn spans_cover_the_range_once_each_at_most_max() {
        let (start, end) = ("2026-01-01T00:00:00Z", "2026-01-03T12:00:00Z");
        assert_eq!(
            cut(start, end, 24),
            [
                (at(start), at("2026-01-02T00:00:00Z")),
                (at("2026-01-02T00:00:00Z"), at("2026-01-03T00:00:00Z")),
                (at("2026-01-03T00:00:00Z"), at(end)),
            ]
        );
        // Exactly one span's length, and shorter than one: one call.
        assert_eq!(cut(start, "2026-01-02T00:00:00Z", 24).len(), 1);
        assert_eq!(cut(start, "2026-01-01T00:00:01Z", 24).len(), 1);
        // One nanosecond past: two.
        let past = cut(start, "2026-01-02T00:00:00.000000001Z", 24);
        assert_eq!(past.len(), 2);
        assert_eq!(
            past[1].1.duration_since(past[1].0),
            SignedDuration::from_nanos(1)
        );
        // 365 days at 31: twelve spans, none longer.
        let month = BILLING_MAX_SPAN.max;
        let year = spans(at(start), at("2027-01-01T00:00:00Z"), month)
            .map(Iterator::collect::<Vec<_>>)
            .unwrap_or_default();
        assert_eq!(year.len(), 12);
        assert!(year.iter().all(|(a, b)| b.duration_since(*a) <= month));
        assert!(year.windows(2).all(|pair| pair[0].1 == pair[1].0));
        assert_eq!(
            (year[0].0, year[11].1),
            (at(start), at("2027-01-01T00:00:00Z"))
        );
    }

    #[test]
    fn near_the_end_of_time_the_range_ends_first() {
        let end = Timestamp::MAX;
        let start = end
            .checked_sub(SignedDuration::from_hours(24))
            .unwrap_or(Timestamp::MIN);
        let century = SignedDuration::from_hours(24 * 365 * 100);
        let last: Vec<_> = spans(start, end, century)
            .map(Iterator::collect)
            .unwrap_or_default();
        assert_eq!(last, [(start, end)]);
    }

    #[test]
    fn unusable_ranges_are_refused() {
        let (a, b) = (at("2026-01-02T00:00:00Z"), at("2026-01-01T00:00:00Z"));
        let day = SignedDuration::from_hours(24);
        assert_eq!(
            spans(a, b, day).err(),
            Some(SpanError::NotBeforeEnd { start: a, end: b })
        );
        assert_eq!(
            spans(a, a, day).err(),
            Some(SpanError::NotBeforeEnd { start: a, end: a })
        );
        for max in [SignedDuration::ZERO, -day] {
            assert_eq!(spans(b, a, max).err(), Some(SpanError::EmptySpan { max }));
            let inclusive = SpanLimit {
                max,
                end: RangeEnd::Inclusive { resolution: day },
            };
            assert_eq!(
                spans(b, a, inclusive).err(),
                Some(SpanError::EmptySpan { max })
            );
        }
        // A resolution that is not positive, or longer than a span; as long is one instant.
        let nanosecond = SignedDuration::from_nanos(1);
        for resolution in [SignedDuration::ZERO, -day, day + nanosecond] {
            let limit = SpanLimit {
                max: day,
                end: RangeEnd::Inclusive { resolution },
            };
            assert_eq!(
                spans(b, a, limit).err(),
                Some(SpanError::Resolution {
                    resolution,
                    max: day
                })
            );
        }
        let one_a_day = SpanLimit {
            max: day,
            end: RangeEnd::Inclusive { resolution: day },
        };
        let three: Vec<_> = spans(b, b + day * 3, one_a_day)
            .map(Iterator::collect)
            .unwrap_or_default();
        assert_eq!(
            three,
            [(b, b), (b + day, b + day), (b + day * 2, b + day * 2)]
        );
        let error: Error = SpanError::EmptySpan { max: day }.into();
        assert_eq!(
            SpanError::of(&error),
            Some(&SpanError::EmptySpan { max: day })
        );
        assert_eq!(SpanError::of(&Error::Timeout { attempts: 1 }), None);
    }

    #[test]
    fn for_each_span_calls_in_order_and_stops_at_the_first_error() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap_or_else(|error| panic!("{error}"));
        let (start, end) = (at("2026-01-01T00:00:00Z"), at("2026-01-04T00:00:00Z"));
        let day = SignedDuration::from_hours(24);
        let answers = runtime.block_on(for_each_span(start, end, day, |a, b| async move {
            Ok::<_, Error>((a, b))
        }));
        assert_eq!(
            answers.ok(),
            spans(start, end, day).ok().map(Iterator::collect)
        );
        let mut calls = 0;
        let failed = runtime.block_on(for_each_span(start, end, day, |_, _| {
            calls += 1;
            let answer = if calls == 2 {
                Err(Error::Timeout { attempts: 1 })
            } else {
                Ok(calls)
            };
            async move { answer }
        }));
        assert!(matches!(failed, Err(Error::Timeout { .. })));
        assert_eq!(calls, 2);
        let mut called = false;
        let refused = runtime.block_on(for_each_span(end, start, day, |_, _| {
            called = true;
            async { Ok(()) }
        }));
        assert!(SpanError::of(&refused.err().unwrap_or(Error::Timeout { attempts: 0 })).is_some());
        assert!(!called);
    }

    /// One range, one limit and instants to look up: the range's spans partition it.
    fn partition_case() -> impl Strategy<Value = (Timestamp, i128, SpanLimit, Vec<i128>)> {
        let resolution = prop_oneof![
            Just(1i128),
            Just(1_000),
            Just(1_000_000),
            Just(1_000_000_000),
            1i128..2_000_000_000_000,
        ];
        let exclusive = any::<bool>();
        (
            resolution,
            exclusive,
            1i128..200,
            any::<u64>(),
            1i128..=60,
            -62_000_000_000i64..250_000_000_000,
        )
            .prop_flat_map(|(resolution, exclusive, steps, extra, spans, start)| {
                let max = steps * resolution + i128::from(extra) % resolution;
                let limit = SpanLimit {
                    max: SignedDuration::from_nanos_i128(max),
                    end: match exclusive {
                        true => RangeEnd::Exclusive,
                        false => RangeEnd::Inclusive {
                            resolution: SignedDuration::from_nanos_i128(resolution),
                        },
                    },
                };
                let start = Timestamp::from_second(start).unwrap_or(Timestamp::UNIX_EPOCH);
                let length = 1..=spans * max;
                (
                    Just(start),
                    length.clone(),
                    Just(limit),
                    proptest::collection::vec(0..spans * max, 32),
                )
            })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// Every instant of `[start, end)` is in exactly one call's span, as the endpoint reads
        /// a span's end (at its resolution for an inclusive end); none is in two, whatever the
        /// resolution; spans follow each other and none is longer than `max`.
        #[test]
        fn consecutive_spans_partition_the_range(case in partition_case()) {
            let (start, length, limit, probes) = case;
            let end = Timestamp::from_nanosecond(start.as_nanosecond() + length)
                .unwrap_or(Timestamp::MAX);
            let cut: Vec<(Timestamp, Timestamp)> =
                spans(start, end, limit).map(Iterator::collect).unwrap_or_default();
            let (resolution, back) = match limit.end {
                RangeEnd::Exclusive => (1, 0),
                RangeEnd::Inclusive { resolution } => (resolution.as_nanos(), resolution.as_nanos()),
            };
            let nanos = |t: Timestamp| t.as_nanosecond();
            proptest::prop_assert_eq!(cut.first().map(|span| span.0), Some(start));
            for (span_start, span_end) in &cut {
                proptest::prop_assert!(span_start <= span_end || back == 0);
                proptest::prop_assert!(nanos(*span_end) - nanos(*span_start) + back <= limit.max.as_nanos());
                proptest::prop_assert_eq!((nanos(*span_start) - nanos(start)) % resolution, 0);
            }
            for pair in cut.windows(2) {
                proptest::prop_assert_eq!(nanos(pair[1].0), nanos(pair[0].1) + back);
            }
            let last = cut.last().map_or(0, |span| nanos(span.1));
            match limit.end {
                RangeEnd::Exclusive => proptest::prop_assert_eq!(last, nanos(end)),
                RangeEnd::Inclusive { .. } => {
                    proptest::prop_assert!(last < nanos(end) && last + resolution >= nanos(end));
                }
            }
            for probe in probes.into_iter().filter(|probe| *probe < length) {
                let instant = nanos(start) + probe;
                // What the endpoint reads: the grid instant at or before it.
                let read = instant - probe % resolution;
                let holding = cut.iter().filter(|(a, b)| match limit.end {
                    RangeEnd::Exclusive => nanos(*a) <= instant && instant < nanos(*b),
                    RangeEnd::Inclusive { .. } => nanos(*a) <= read && read <= nanos(*b),
                }).count();
                proptest::prop_assert_eq!(holding, 1, "{} in {:?}", instant, cut);
                // Taken as it is, an instant is never in two spans.
                let exact = cut.iter().filter(|(a, b)| nanos(*a) <= instant && instant <= nanos(*b)).count();
                proptest::prop_assert!(exact <= 1 || back == 0);
            }
        }
    }
}
