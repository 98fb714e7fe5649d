//! The metrics layer's times as `jiff::Timestamp` (feature `jiff`), beside the epoch milliseconds
//! the API sends: a [`Window`] from two timestamps and its sides back, and each step's and
//! point's bounds.

use jiff::Timestamp;

use super::{Window, WindowError};
use crate::metrics::{Point, Step};

/// `ms` milliseconds since the epoch as a timestamp; `None` beyond jiff's range (years -9999 to
/// 9999), which no real time reaches but a server may still send.
fn timestamp(ms: i64) -> Option<Timestamp> {
    Timestamp::from_millisecond(ms).ok()
}

impl Window {
    /// `[start, end)` from two timestamps, at millisecond precision (below it truncated toward
    /// the past): the same window as [`Window::new`] with their
    /// `as_millisecond()`s, and as [`Window::between`].
    ///
    /// # Errors
    ///
    /// As [`Window::new`].
    pub fn from_timestamps(start: Timestamp, end: Timestamp) -> Result<Self, WindowError> {
        Self::new(start.as_millisecond(), end.as_millisecond())
    }

    /// From `start` until now: [`Window::since`] of a timestamp.
    #[must_use]
    pub fn since_timestamp(start: Timestamp) -> Self {
        Self::since(start.as_millisecond())
    }

    /// The hour before `end`: [`Window::until`] of a timestamp.
    #[must_use]
    pub fn until_timestamp(end: Timestamp) -> Self {
        Self::until(end.as_millisecond())
    }

    /// The start sent with the request as a timestamp, if any ([`start_ms`](Self::start_ms)).
    #[must_use]
    pub fn start(&self) -> Option<Timestamp> {
        self.start_ms().and_then(timestamp)
    }

    /// The end sent with the request as a timestamp, if any ([`end_ms`](Self::end_ms)).
    #[must_use]
    pub fn end(&self) -> Option<Timestamp> {
        self.end_ms().and_then(timestamp)
    }
}

impl Point {
    /// The step's start as a timestamp ([`start_ms`](Self::start_ms); `None` only beyond
    /// jiff's range).
    #[must_use]
    pub fn start(&self) -> Option<Timestamp> {
        timestamp(self.start_ms)
    }

    /// The step's end as a timestamp ([`end_ms`](Self::end_ms); `None` only beyond jiff's
    /// range).
    #[must_use]
    pub fn end(&self) -> Option<Timestamp> {
        timestamp(self.end_ms)
    }
}

impl Step<'_> {
    /// The step's start as a timestamp ([`start_ms`](Self::start_ms); `None` only beyond
    /// jiff's range).
    #[must_use]
    pub fn start(&self) -> Option<Timestamp> {
        timestamp(self.start_ms)
    }

    /// The step's end as a timestamp ([`end_ms`](Self::end_ms); `None` only beyond jiff's
    /// range).
    #[must_use]
    pub fn end(&self) -> Option<Timestamp> {
        timestamp(self.end_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Timestamp {
        text.parse()
            .unwrap_or_else(|error| panic!("{text}: {error}"))
    }

    #[test]
    fn windows_from_and_to_timestamps() {
        let (start, end) = (at("2026-07-01T12:00:00.123Z"), at("2026-07-01T13:00:00Z"));
        let window = Window::from_timestamps(start, end).unwrap_or_default();
        assert_eq!(
            (window.start_ms(), window.end_ms()),
            (Some(start.as_millisecond()), Some(end.as_millisecond()))
        );
        assert_eq!((window.start(), window.end()), (Some(start), Some(end)));
        assert_eq!(Window::between(start, end), Ok(window));
        assert_eq!(
            Window::from_timestamps(end, start),
            Window::new(end.as_millisecond(), start.as_millisecond())
        );
        assert!(Window::from_timestamps(start, at("2026-07-09T12:00:00Z")).is_err());
        assert_eq!(Window::since_timestamp(start).start(), Some(start));
        assert_eq!(Window::since_timestamp(start).end(), None);
        assert_eq!(Window::until_timestamp(end).end(), Some(end));
        assert_eq!(Window::until_timestamp(end).start(), None);
        // Below a millisecond is truncated, as the API counts.
        let fine = at("2026-07-01T12:00:00.123999Z");
        assert_eq!(Window::since_timestamp(fine).start(), Some(start));
    }

    #[test]
    fn points_and_steps_as_timestamps() {
        let point = Point {
            start_ms: 1_000,
            end_ms: 61_000,
            value: None,
        };
        assert_eq!(point.start(), Some(at("1970-01-01T00:00:01Z")));
        assert_eq!(point.end(), Some(at("1970-01-01T00:01:01Z")));
        let beyond = Point {
            start_ms: i64::MIN,
            end_ms: i64::MAX,
            value: None,
        };
        assert_eq!((beyond.start(), beyond.end()), (None, None));
        let step = Step {
            index: 0,
            start_ms: 0,
            end_ms: -1_000,
            values: &[],
        };
        assert_eq!(step.start(), Some(Timestamp::UNIX_EPOCH));
        assert_eq!(step.end(), Some(at("1969-12-31T23:59:59Z")));
    }
}
