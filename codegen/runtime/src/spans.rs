//! Ranges longer than one call allows (feature `jiff`): a `[start, end)` range cut into
//! consecutive spans no longer than an endpoint takes, and the calls for them made in order.

use std::future::Future;

use jiff::{SignedDuration, Timestamp};

use crate::Error;
use crate::error::InvalidArgument;

/// The longest range one billing call takes (`GET /v1/billing/usage_summary`): 31 days.
pub const BILLING_MAX_SPAN: SignedDuration = SignedDuration::from_hours(31 * 24);

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
}

impl std::fmt::Display for SpanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotBeforeEnd { start, end } => {
                write!(f, "range start {start} is not before its end {end}")
            }
            Self::EmptySpan { max } => write!(f, "a span must be longer than zero, not {max}"),
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

/// `[start, end)` as consecutive spans `(span_start, span_end)` of at most `max` each, the last
/// one shorter if need be: each span's end is the next one's start, so together they cover the
/// range once, with no gap and no overlap.
///
/// ```
/// use baseten_api::primitives::jiff::{SignedDuration, Timestamp};
/// use baseten_api::spans::{spans, BILLING_MAX_SPAN};
///
/// let start: Timestamp = "2026-01-01T00:00:00Z".parse()?;
/// let end: Timestamp = "2026-03-01T00:00:00Z".parse()?; // 59 days
/// let cut: Vec<(Timestamp, Timestamp)> = spans(start, end, BILLING_MAX_SPAN)?.collect();
/// assert_eq!(cut.len(), 2);
/// assert_eq!(cut[0].1, cut[1].0);
/// assert_eq!(cut[0].1.duration_since(start), SignedDuration::from_hours(31 * 24));
/// assert_eq!(cut[1].1, end);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`SpanError::NotBeforeEnd`] unless `start < end`; [`SpanError::EmptySpan`] unless
/// `max` is positive.
pub fn spans(
    start: Timestamp,
    end: Timestamp,
    max: SignedDuration,
) -> Result<impl Iterator<Item = (Timestamp, Timestamp)> + Clone, SpanError> {
    if start >= end {
        return Err(SpanError::NotBeforeEnd { start, end });
    }
    if !max.is_positive() {
        return Err(SpanError::EmptySpan { max });
    }
    let mut next = Some(start);
    Ok(std::iter::from_fn(move || {
        let span_start = next?;
        // Past the largest timestamp jiff holds, the range ends first anyway.
        let span_end = span_start
            .checked_add(max)
            .map_or(end, |span_end| span_end.min(end));
        next = (span_end < end).then_some(span_end);
        Some((span_start, span_end))
    }))
}

/// Calls `call` once per span of `[start, end)` (see [`spans`]), in order, one at a time, and
/// returns the answers in that order: for an endpoint that takes at most `max` per call, such as
/// billing's [`BILLING_MAX_SPAN`]. Each call goes through the client as any other (retries,
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
/// milliseconds): `for_each_span(start, end, SignedDuration::from_hours(24), |start, end|
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
    max: SignedDuration,
    mut call: F,
) -> Result<Vec<T>, Error>
where
    F: FnMut(Timestamp, Timestamp) -> Fut,
    Fut: Future<Output = Result<T, Error>>,
{
    let mut answers = Vec::new();
    for (span_start, span_end) in spans(start, end, max)? {
        answers.push(call(span_start, span_end).await?);
    }
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // 365 days at billing's 31: twelve spans, none longer.
        let year = spans(at(start), at("2027-01-01T00:00:00Z"), BILLING_MAX_SPAN)
            .map(Iterator::collect::<Vec<_>>)
            .unwrap_or_default();
        assert_eq!(year.len(), 12);
        assert!(
            year.iter()
                .all(|(a, b)| b.duration_since(*a) <= BILLING_MAX_SPAN)
        );
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
        }
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
}
