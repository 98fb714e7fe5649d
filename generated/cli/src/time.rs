//! Reading times and durations from the command line, through jiff: `--since 1h`,
//! `--start 2026-07-04T19:00:00Z` or epoch milliseconds.

use jiff::tz::TimeZone;
use jiff::{Span, Timestamp};

/// Reads a point in time: an RFC 3339 timestamp with an offset (`2026-07-04T19:00:00Z`,
/// `2026-07-04T21:00:00+02:00`) or epoch milliseconds (`1787667015264`, `-5`).
pub fn parse_time(text: &str) -> Result<i64, String> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return text
            .parse::<i64>()
            .map_err(|_| format!("{text:?} is out of range for epoch milliseconds"));
    }
    text.parse::<Timestamp>()
        .map(|timestamp| timestamp.as_millisecond())
        .map_err(|error| {
            format!("{text:?} is neither an RFC 3339 time nor epoch milliseconds: {error}")
        })
}

/// The time `ago` (a duration such as `1h`, `90m`, `2d`, `1 week` or ISO 8601 `PT1H`) before
/// `now`, in epoch milliseconds.
pub fn parse_since(ago: &str, now: Timestamp) -> Result<i64, String> {
    let span: Span = ago
        .parse()
        .map_err(|error| format!("{ago:?} is not a duration such as 1h or 30m: {error}"))?;
    if span.is_negative() || span.is_zero() {
        return Err(format!("--since {ago:?}: the duration must be positive"));
    }
    // Through a zoned time, so that days and weeks count as 24 hours and 7 days in UTC.
    now.to_zoned(TimeZone::UTC)
        .checked_sub(span)
        .map(|start| start.timestamp().as_millisecond())
        .map_err(|error| format!("--since {ago:?}: {error}"))
}

/// Epoch milliseconds as RFC 3339 UTC, e.g. `2026-07-04T19:00:00Z`; the number itself when
/// outside jiff's range.
pub fn format_time(epoch_ms: i64) -> String {
    Timestamp::from_millisecond(epoch_ms)
        .map_or_else(|_| format!("{epoch_ms} ms"), |t| t.to_string())
}

/// A length of time for people: `90s` → `1m30s`, `1500` ms → `1.5s`.
pub fn format_duration(ms: u64) -> String {
    if ms < 1000 {
        return format!("{ms}ms");
    }
    if ms < 60_000 {
        let seconds = ms as f64 / 1000.0;
        return format!("{seconds}s");
    }
    let total_seconds = ms / 1000;
    let (hours, minutes, seconds) = (
        total_seconds / 3600,
        total_seconds / 60 % 60,
        total_seconds % 60,
    );
    let mut text = String::new();
    if hours > 0 {
        text.push_str(&format!("{hours}h"));
    }
    if minutes > 0 {
        text.push_str(&format!("{minutes}m"));
    }
    if seconds > 0 {
        text.push_str(&format!("{seconds}s"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_parse_as_rfc3339_or_epoch_milliseconds() {
        assert_eq!(parse_time("1787667015264"), Ok(1_787_667_015_264));
        assert_eq!(parse_time("-5"), Ok(-5));
        assert_eq!(parse_time("0"), Ok(0));
        assert_eq!(parse_time("2026-07-04T19:00:00Z"), Ok(1_783_191_600_000));
        assert_eq!(
            parse_time("2026-07-04T21:00:00+02:00"),
            Ok(1_783_191_600_000)
        );
        assert_eq!(parse_time("1970-01-01T00:00:00.25Z"), Ok(250));
        for bad in ["", "-", "1h", "2026-07-04", "99999999999999999999", "12ab"] {
            assert!(parse_time(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn since_counts_back_from_now() {
        let now: Timestamp = "2026-07-04T19:00:00Z".parse().unwrap();
        let ms = now.as_millisecond();
        assert_eq!(parse_since("1h", now), Ok(ms - 3_600_000));
        assert_eq!(parse_since("90m", now), Ok(ms - 5_400_000));
        assert_eq!(parse_since("2d", now), Ok(ms - 2 * 86_400_000));
        assert_eq!(parse_since("PT30S", now), Ok(ms - 30_000));
        for bad in ["", "soon", "0s", "-1h"] {
            assert!(parse_since(bad, now).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn times_and_durations_read_well() {
        assert_eq!(format_time(1_783_191_600_000), "2026-07-04T19:00:00Z");
        assert_eq!(format_time(250), "1970-01-01T00:00:00.25Z");
        assert_eq!(format_time(i64::MAX), format!("{} ms", i64::MAX));
        assert_eq!(format_duration(999), "999ms");
        assert_eq!(format_duration(1500), "1.5s");
        assert_eq!(format_duration(90_000), "1m30s");
        assert_eq!(format_duration(3_600_000), "1h");
        assert_eq!(format_duration(3_661_000), "1h1m1s");
    }
}
