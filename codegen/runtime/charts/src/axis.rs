//! Chart axes a person reads at a glance: value ticks at 1-2-5 steps in a unit scaled to the
//! data (ms or s, KiB…GiB, %, k/M), and time ticks at round UTC times in one format.
//!
//! Pure arithmetic, no drawing: [`ValueAxis`] and [`TimeAxis`] say where the ticks are and what
//! they read; `chart.rs` places them. Every number they hand out is finite, whatever the input.

use baseten_runtime::metrics::Unit;

/// How many value ticks an axis aims for; the 1-2-5 step gives between about 4 and 11.
const TARGET_VALUE_TICKS: f64 = 5.0;
/// More ticks than this means the step is too fine for the magnitude (or the range absurd).
const MAX_VALUE_TICKS: i64 = 12;
/// Fixed-point labels stop here; beyond it (and below [`MIN_FIXED_STEP`]) they use an exponent.
const MAX_FIXED: f64 = 1e9;
const MIN_FIXED_STEP: f64 = 1e-6;

/// How values of one unit are shown: multiplied by `factor`, followed by `suffix`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Scale {
    /// Raw value (in the unit hint's unit) × `factor` = the number shown.
    pub(crate) factor: f64,
    /// What follows a number: `ms`, `GiB`, `%`, `k`, `k/s`, or nothing.
    pub(crate) suffix: &'static str,
    /// Whether a space separates the number from the suffix (`250 ms`, but `40%` and `1.5k`).
    pub(crate) spaced: bool,
    /// The unit as a chart's title names it: `ms`, `GiB`, `%`, `count`, `/s`; empty if unknown.
    pub(crate) title: &'static str,
}

impl Scale {
    const fn new(factor: f64, suffix: &'static str, spaced: bool, title: &'static str) -> Self {
        Self {
            factor,
            suffix,
            spaced,
            title,
        }
    }

    /// The scale for values of `unit` whose largest magnitude is `max_abs` (raw): the one under
    /// which that magnitude reads as a number from 1 to below 1000 (1024 for bytes) where the
    /// unit has such a prefix.
    pub(crate) fn for_values(unit: Unit, max_abs: f64) -> Self {
        match unit {
            Unit::Seconds => {
                if max_abs == 0.0 || max_abs >= 1.0 {
                    Self::new(1.0, "s", true, "s")
                } else if max_abs >= 1e-3 {
                    Self::new(1e3, "ms", true, "ms")
                } else {
                    Self::new(1e6, "µs", true, "µs")
                }
            }
            Unit::Bytes | Unit::Mebibytes => {
                const PREFIXED: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
                let bytes_per_raw = if unit == Unit::Mebibytes {
                    1_048_576.0
                } else {
                    1.0
                };
                let bytes = max_abs * bytes_per_raw;
                let power = (1..PREFIXED.len())
                    .rev()
                    .find(|&power| bytes >= 1024f64.powi(power as i32))
                    .unwrap_or(0);
                let name = PREFIXED[power];
                Self::new(bytes_per_raw / 1024f64.powi(power as i32), name, true, name)
            }
            Unit::Ratio => Self::new(100.0, "%", false, "%"),
            Unit::Count | Unit::PerSecond | Unit::Unknown => {
                const PREFIXED: [[&str; 2]; 5] = [
                    ["", "/s"],
                    ["k", "k/s"],
                    ["M", "M/s"],
                    ["G", "G/s"],
                    ["T", "T/s"],
                ];
                let power = (1..PREFIXED.len())
                    .rev()
                    .find(|&power| max_abs >= 1000f64.powi(power as i32))
                    .unwrap_or(0);
                let [plain, per_second] = PREFIXED[power];
                let factor = 1.0 / 1000f64.powi(power as i32);
                match unit {
                    Unit::PerSecond => Self::new(factor, per_second, false, "/s"),
                    Unit::Count => Self::new(factor, plain, false, "count"),
                    _ => Self::new(factor, plain, false, ""),
                }
            }
        }
    }

    /// The raw values as sent, without a prefix: what is left when scaling overflows.
    fn raw(unit: Unit) -> Self {
        let symbol = match unit {
            Unit::Count | Unit::Unknown => "",
            other => other.symbol().unwrap_or(""),
        };
        let title = match unit {
            Unit::Count => "count",
            other => other.symbol().unwrap_or(""),
        };
        Self::new(1.0, symbol, !matches!(unit, Unit::PerSecond), title)
    }

    /// `number` followed by the suffix; zero without a prefix (`0`, `0/s`, not `0k`).
    fn label(&self, value: f64, number: &str) -> String {
        if value == 0.0 && !self.spaced && self.factor < 1.0 {
            let unit = if self.suffix.ends_with("/s") {
                "/s"
            } else {
                ""
            };
            return format!("0{unit}");
        }
        match (self.suffix.is_empty(), self.spaced) {
            (true, _) => number.to_owned(),
            (false, true) => format!("{number} {}", self.suffix),
            (false, false) => format!("{number}{}", self.suffix),
        }
    }
}

/// A value axis: its range and ticks in the scale's numbers, and each tick's label.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ValueAxis {
    /// Bottom and top of the axis (scaled numbers); `low < high`, both finite.
    pub(crate) low: f64,
    pub(crate) high: f64,
    /// The ticks, increasing, each within `low..=high`, with their labels.
    pub(crate) ticks: Vec<(f64, String)>,
    pub(crate) scale: Scale,
}

impl ValueAxis {
    /// The axis for `values` (raw, in `unit`): ticks at a 1-2-5 step covering every value, in a
    /// scale that suits their magnitude, all labelled alike (the same decimals, or all with an
    /// exponent). Non-finite values are ignored; no values give the axis 0 to 1. Values that
    /// are all at least 0 get an axis from 0 when that costs less than half of it.
    pub(crate) fn new(unit: Unit, values: impl Iterator<Item = f64>) -> Self {
        let (low, high) = values
            .filter(|value| value.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(low, high), value| {
                (low.min(value), high.max(value))
            });
        let (low, high) = if low <= high { (low, high) } else { (0.0, 0.0) };
        let mut scale = Scale::for_values(unit, low.abs().max(high.abs()));
        if !(low * scale.factor).is_finite() || !(high * scale.factor).is_finite() {
            scale = Scale::raw(unit);
        }
        let (low, high) = widened(low * scale.factor, high * scale.factor);
        nice_axis(low, high, scale).unwrap_or_else(|| plain_axis(low, high, scale))
    }

    /// Where raw value `raw` sits from the bottom (0) to the top (1) of the axis: finite and in
    /// `0..=1` for any input.
    pub(crate) fn fraction(&self, raw: f64) -> f64 {
        fraction(raw * self.scale.factor, self.low, self.high)
    }
}

/// `low..=high` (`low <= high`) with a height: from 0 for non-negative data that starts below
/// half its top (or is flat: 0 to 1 for all zeros); up to 0 for flat negative data.
fn widened(low: f64, high: f64) -> (f64, f64) {
    if low >= 0.0 && (low == high || low < high / 2.0) {
        return (0.0, if high > 0.0 { high } else { 1.0 });
    }
    if low == high {
        return (low, 0.0);
    }
    (low, high)
}

/// Ticks at multiples of the 1-2-5 step nearest a fifth of the range, and the axis from the
/// last tick at or below `low` to the first at or above `high`; `None` when the range is too
/// wide, too narrow or too far from 0 for such ticks to be distinct finite numbers.
fn nice_axis(low: f64, high: f64, scale: Scale) -> Option<ValueAxis> {
    let span = high - low;
    if !(span.is_finite() && span > 0.0) {
        return None;
    }
    let rough = span / TARGET_VALUE_TICKS;
    let exponent = rough.log10().floor();
    let magnitude = 10f64.powf(exponent);
    if !(magnitude.is_finite() && magnitude > 0.0) {
        return None;
    }
    // The 1-2-5 mantissa nearest the rough step's (Heckbert's "nice numbers").
    let mantissa = match rough / magnitude {
        m if m < 1.5 => 1.0,
        m if m < 3.0 => 2.0,
        m if m < 7.0 => 5.0,
        _ => 10.0,
    };
    let step = mantissa * magnitude;
    let first = (low / step).floor();
    let last = (high / step).ceil();
    // Tick indices must be exact integers and few.
    if !(first.abs() < 2f64.powi(52) && last.abs() < 2f64.powi(52)) {
        return None;
    }
    let (first, last) = (first as i64, last as i64);
    if last - first > MAX_VALUE_TICKS || last <= first {
        return None;
    }
    // `+ 0.0` turns -0 into 0, so no tick reads `-0`.
    let values: Vec<f64> = (first..=last).map(|i| i as f64 * step + 0.0).collect();
    if values.iter().any(|value| !value.is_finite()) || values.windows(2).any(|w| w[0] >= w[1]) {
        return None;
    }
    // A step of 5 × 10^e has as many decimals as 10^e: -e when e < 0.
    let step_exponent = if mantissa == 10.0 {
        exponent + 1.0
    } else {
        exponent
    };
    let largest = values.iter().fold(0f64, |largest, v| largest.max(v.abs()));
    let format: Box<dyn Fn(f64) -> String> = if largest < MAX_FIXED && step >= MIN_FIXED_STEP {
        let decimals = (-step_exponent).max(0.0) as usize;
        Box::new(move |value| format!("{value:.decimals$}"))
    } else {
        let digits = (largest.log10().floor() - step_exponent).clamp(0.0, 6.0) as usize;
        Box::new(move |value| format!("{value:.digits$e}"))
    };
    Some(ValueAxis {
        low: values[0],
        high: values[values.len() - 1],
        ticks: values
            .iter()
            .map(|&value| (value, scale.label(value, &format(value))))
            .collect(),
        scale,
    })
}

/// The axis for a range no 1-2-5 step fits (near the ends of `f64`): exactly `low..high`, ticked
/// at both ends with three significant digits.
fn plain_axis(low: f64, high: f64, scale: Scale) -> ValueAxis {
    let ticks = if low < high {
        vec![low, high]
    } else {
        vec![low]
    };
    ValueAxis {
        low,
        high,
        ticks: ticks
            .into_iter()
            .map(|value| (value, scale.label(value, &format!("{value:.2e}"))))
            .collect(),
        scale,
    }
}

/// Where `value` sits from `low` (0) to `high` (1): always finite and within 0..=1, so that no
/// coordinate is `NaN` or infinite — not for a range spanning 0 to a subnormal (whose halves
/// round to nothing), nor one across the whole f64 range (whose span overflows), nor an empty
/// one (where it is the middle).
pub(crate) fn fraction(value: f64, low: f64, high: f64) -> f64 {
    let span = high - low;
    let fraction = if span.is_finite() {
        (value - low) / span
    } else {
        // Halved, so that the difference does not overflow.
        (value / 2.0 - low / 2.0) / (high / 2.0 - low / 2.0)
    };
    if fraction.is_finite() {
        fraction.clamp(0.0, 1.0)
    } else {
        0.5
    }
}

const SECOND: u64 = 1000;
const MINUTE: u64 = 60 * SECOND;
const HOUR: u64 = 60 * MINUTE;
const DAY: u64 = 24 * HOUR;
/// Round steps of a time axis, shortest first; past a week, 1-2-5 multiples of 10 days.
const TIME_STEPS: [u64; 30] = [
    1,
    2,
    5,
    10,
    20,
    50,
    100,
    200,
    500,
    SECOND,
    2 * SECOND,
    5 * SECOND,
    10 * SECOND,
    15 * SECOND,
    30 * SECOND,
    MINUTE,
    2 * MINUTE,
    5 * MINUTE,
    10 * MINUTE,
    15 * MINUTE,
    30 * MINUTE,
    HOUR,
    2 * HOUR,
    3 * HOUR,
    6 * HOUR,
    12 * HOUR,
    DAY,
    2 * DAY,
    7 * DAY,
    14 * DAY,
];

/// A time axis over `[start_ms, end_ms]`: ticks at multiples of a round step counted from the
/// Unix epoch (so at whole minutes, 5 minutes, hours, UTC midnights), all in one format.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TimeAxis {
    pub(crate) start_ms: i64,
    pub(crate) end_ms: i64,
    /// The step between ticks, in milliseconds.
    pub(crate) step_ms: u64,
    /// Whether the labels name the day as well (times of day across midnight).
    pub(crate) dated: bool,
    /// The ticks in time order with their labels, each within `start_ms..=end_ms`.
    pub(crate) ticks: Vec<(i64, String)>,
}

impl TimeAxis {
    /// The axis from `start_ms` to `end_ms` (swapped if given the other way round) with the
    /// shortest round step that puts at most `max_ticks` ticks on it (at least 2 are allowed).
    pub(crate) fn new(start_ms: i64, end_ms: i64, max_ticks: usize) -> Self {
        let (start_ms, end_ms) = (start_ms.min(end_ms), start_ms.max(end_ms));
        let span = end_ms.abs_diff(start_ms);
        let max_ticks = max_ticks.max(2) as u64;
        let longer = (1..).map_while(|power: u32| {
            let tens = 10u64.checked_pow(power)?;
            [1u64, 2, 5]
                .into_iter()
                .map(|mantissa| mantissa.checked_mul(tens)?.checked_mul(DAY))
                .collect::<Option<Vec<u64>>>()
        });
        let step_ms = TIME_STEPS
            .into_iter()
            .chain(longer.flatten())
            .find(|&step| span / step < max_ticks)
            .unwrap_or(u64::MAX);
        // Times of day repeat across midnight: then every tick names its day too.
        let dated =
            step_ms < DAY && start_ms.div_euclid(DAY as i64) != end_ms.div_euclid(DAY as i64);
        let step = i128::from(step_ms);
        let first = i128::from(start_ms).div_euclid(step) * step;
        let first = if first < i128::from(start_ms) {
            first + step
        } else {
            first
        };
        let ticks = (0..=max_ticks)
            .map_while(|index| {
                let at = first + i128::from(index) * step;
                let at = i64::try_from(at).ok().filter(|at| *at <= end_ms)?;
                Some((at, format_tick(at, step_ms, dated)))
            })
            .collect();
        Self {
            start_ms,
            end_ms,
            step_ms,
            dated,
            ticks,
        }
    }

    /// Where `ms` sits from the start (0) to the end (1): finite and in `0..=1`.
    pub(crate) fn fraction(&self, ms: i64) -> f64 {
        let span = self.end_ms.abs_diff(self.start_ms);
        if span == 0 {
            return 0.5;
        }
        let offset = (i128::from(ms) - i128::from(self.start_ms)).max(0) as f64;
        (offset / span as f64).clamp(0.0, 1.0)
    }
}

/// The widest label a tick of `step_ms` can have, in characters (`dated`: with its day).
pub(crate) fn tick_label_chars(step_ms: u64, dated: bool) -> usize {
    format_tick(0, step_ms, dated).chars().count()
}

/// A tick's label, by step: `HH:MM:SS.mmm` under a second, `HH:MM:SS` under a minute, `HH:MM`
/// under a day, the date `YYYY-MM-DD` from a day; `dated` puts `MM-DD ` before a time of day.
fn format_tick(ms: i64, step_ms: u64, dated: bool) -> String {
    let at = UtcTime::from_epoch_ms(ms);
    if dated && step_ms < DAY {
        return format!(
            "{:02}-{:02} {}",
            at.month,
            at.day,
            format_tick(ms, step_ms, false)
        );
    }
    if step_ms < SECOND {
        format!(
            "{:02}:{:02}:{:02}.{:03}",
            at.hour, at.minute, at.second, at.millisecond
        )
    } else if step_ms < MINUTE {
        format!("{:02}:{:02}:{:02}", at.hour, at.minute, at.second)
    } else if step_ms < DAY {
        format!("{:02}:{:02}", at.hour, at.minute)
    } else {
        at.date()
    }
}

/// The time `ms` as `YYYY-MM-DD HH:MM:SS UTC`, for a caption naming an axis' ends.
pub(crate) fn format_utc(ms: i64) -> String {
    let at = UtcTime::from_epoch_ms(ms);
    format!(
        "{} {:02}:{:02}:{:02} UTC",
        at.date(),
        at.hour,
        at.minute,
        at.second
    )
}

/// A UTC civil time, for any `i64` of epoch milliseconds (years far beyond 9999 included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct UtcTime {
    year: i64,
    month: i64,
    day: i64,
    hour: i64,
    minute: i64,
    second: i64,
    millisecond: i64,
}

impl UtcTime {
    /// Howard Hinnant's `civil_from_days`: exact for the proleptic Gregorian calendar.
    fn from_epoch_ms(ms: i64) -> Self {
        let day_ms = DAY as i64;
        let days = ms.div_euclid(day_ms);
        let of_day = ms.rem_euclid(day_ms);
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let of_era = z.rem_euclid(146_097);
        let year_of_era = (of_era - of_era / 1460 + of_era / 36_524 - of_era / 146_096) / 365;
        let day_of_year = of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let shifted_month = (5 * day_of_year + 2) / 153;
        let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
        let month = if shifted_month < 10 {
            shifted_month + 3
        } else {
            shifted_month - 9
        };
        let year = year_of_era + era * 400 + i64::from(month <= 2);
        Self {
            year,
            month,
            day,
            hour: of_day / HOUR as i64,
            minute: of_day / MINUTE as i64 % 60,
            second: of_day / SECOND as i64 % 60,
            millisecond: of_day % SECOND as i64,
        }
    }

    fn date(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(axis: &ValueAxis) -> Vec<&str> {
        axis.ticks.iter().map(|(_, label)| label.as_str()).collect()
    }

    #[test]
    fn seconds_below_one_read_as_milliseconds() {
        let axis = ValueAxis::new(Unit::Seconds, [0.12, 0.31].into_iter());
        assert_eq!(axis.scale.title, "ms");
        assert_eq!(
            labels(&axis),
            [
                "0 ms", "50 ms", "100 ms", "150 ms", "200 ms", "250 ms", "300 ms", "350 ms"
            ]
        );
        let axis = ValueAxis::new(Unit::Seconds, [0.3, 2.5].into_iter());
        assert_eq!(
            labels(&axis),
            ["0.0 s", "0.5 s", "1.0 s", "1.5 s", "2.0 s", "2.5 s"]
        );
        let axis = ValueAxis::new(Unit::Seconds, [2e-4].into_iter());
        assert_eq!(axis.scale.suffix, "µs");
        // A raw value sits where its scaled number does: 0.175 s is 175 of 0..350 ms.
        let axis = ValueAxis::new(Unit::Seconds, [0.12, 0.31].into_iter());
        assert_eq!(axis.fraction(0.175), 0.5);
        assert_eq!(axis.fraction(0.35), 1.0);
    }

    #[test]
    fn bytes_take_binary_prefixes_and_mebibytes_convert_first() {
        let gib = 1024.0 * 1024.0 * 1024.0;
        let axis = ValueAxis::new(Unit::Bytes, [1.5 * gib, 3.2 * gib].into_iter());
        assert_eq!(axis.scale.title, "GiB");
        assert_eq!(
            labels(&axis),
            [
                "0.0 GiB", "0.5 GiB", "1.0 GiB", "1.5 GiB", "2.0 GiB", "2.5 GiB", "3.0 GiB",
                "3.5 GiB"
            ]
        );
        // 20,000 MiB is 19.5 GiB.
        let axis = ValueAxis::new(Unit::Mebibytes, [12_000.0, 20_000.0].into_iter());
        assert_eq!(axis.scale.suffix, "GiB");
        assert_eq!(axis.high, 20.0);
        assert_eq!(Scale::for_values(Unit::Bytes, 1023.0).suffix, "B");
        assert_eq!(Scale::for_values(Unit::Bytes, 1024.0).suffix, "KiB");
        assert_eq!(Scale::for_values(Unit::Mebibytes, 0.5).suffix, "KiB");
    }

    #[test]
    fn ratios_read_as_percent_and_counts_take_k_and_m() {
        let axis = ValueAxis::new(Unit::Ratio, [0.2, 0.9].into_iter());
        assert_eq!(labels(&axis), ["0%", "20%", "40%", "60%", "80%", "100%"]);
        let axis = ValueAxis::new(Unit::Count, [1200.0, 4800.0].into_iter());
        assert_eq!(labels(&axis), ["0", "1k", "2k", "3k", "4k", "5k"]);
        assert_eq!(axis.scale.title, "count");
        let axis = ValueAxis::new(Unit::PerSecond, [2.5e6].into_iter());
        assert_eq!(labels(&axis)[..2], ["0/s", "0.5M/s"]);
        assert_eq!(Scale::for_values(Unit::Unknown, 999.0).suffix, "");
        assert_eq!(Scale::for_values(Unit::Count, 1e15).suffix, "T");
    }

    #[test]
    fn the_step_is_the_nearest_1_2_5_to_a_fifth_of_the_range() {
        let step = |high: f64| {
            let axis = ValueAxis::new(Unit::Unknown, [0.0, high].into_iter());
            axis.ticks[1].0 - axis.ticks[0].0
        };
        // A fifth of the range: 1.49 → 1, 1.5 → 2, 2.99 → 2, 3 → 5, 6.99 → 5, 7 → 10.
        assert_eq!(step(7.45), 1.0);
        assert_eq!(step(7.5), 2.0);
        assert_eq!(step(14.95), 2.0);
        assert_eq!(step(15.0), 5.0);
        assert_eq!(step(34.95), 5.0);
        assert_eq!(step(35.0), 10.0);
    }

    #[test]
    fn flat_empty_and_negative_data_still_have_height() {
        let flat = ValueAxis::new(Unit::Count, [1.0, 1.0].into_iter());
        assert_eq!(labels(&flat), ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]);
        let empty = ValueAxis::new(Unit::Count, std::iter::empty());
        assert_eq!((empty.low, empty.high), (0.0, 1.0));
        let negative = ValueAxis::new(Unit::Unknown, [-3.0, -3.0].into_iter());
        assert_eq!((negative.low, negative.high), (-3.0, 0.0));
        let mixed = ValueAxis::new(Unit::Unknown, [-3.0, 7.0].into_iter());
        assert_eq!(labels(&mixed), ["-4", "-2", "0", "2", "4", "6", "8"]);
        // Far from 0 the axis does not start there.
        let high = ValueAxis::new(Unit::Unknown, [100.0, 101.0].into_iter());
        assert_eq!(
            labels(&high),
            ["100.0", "100.2", "100.4", "100.6", "100.8", "101.0"]
        );
        let zero = ValueAxis::new(Unit::Unknown, [0.0].into_iter());
        assert_eq!((zero.low, zero.high), (0.0, 1.0));
        let flat_away = ValueAxis::new(Unit::Unknown, [-50.0, -50.0, f64::NAN].into_iter());
        assert_eq!((flat_away.low, flat_away.high), (-50.0, 0.0));
        assert_eq!(widened(-5.0, -5.0), (-5.0, 0.0));
        assert_eq!(widened(0.0, 0.0), (0.0, 1.0));
        assert_eq!(widened(4.0, 4.0), (0.0, 4.0));
        assert_eq!(widened(-0.0, -0.0), (0.0, 1.0));
        assert_eq!(widened(5.0, 9.0), (5.0, 9.0));
        assert_eq!(widened(2.0, 4.0), (2.0, 4.0));
        assert_eq!(widened(1.9, 4.0), (0.0, 4.0));
        assert_eq!(widened(-9.0, -5.0), (-9.0, -5.0));
    }

    #[test]
    fn extreme_ranges_fall_back_to_finite_end_ticks() {
        for values in [
            vec![f64::MAX, -f64::MAX],
            vec![f64::MAX],
            vec![-f64::MAX],
            vec![1e16, 1e16 + 2.0],
            vec![0.0, f64::from_bits(1)],
            vec![-f64::MAX, f64::MIN_POSITIVE, f64::MAX],
        ] {
            for unit in [Unit::Mebibytes, Unit::Ratio, Unit::Count, Unit::Seconds] {
                let axis = ValueAxis::new(unit, values.iter().copied());
                assert!(axis.low.is_finite() && axis.high.is_finite(), "{values:?}");
                assert!(axis.low <= axis.high, "{values:?}");
                assert!(!axis.ticks.is_empty(), "{values:?}");
                for (tick, _) in &axis.ticks {
                    assert!((axis.low..=axis.high).contains(tick), "{values:?}");
                }
                for value in &values {
                    let at = axis.fraction(*value);
                    assert!((0.0..=1.0).contains(&at), "{values:?}");
                }
            }
        }
        let huge = ValueAxis::new(Unit::Unknown, [f64::MAX, -f64::MAX].into_iter());
        assert_eq!(
            labels(&huge),
            ["-2e296T", "-1e296T", "0", "1e296T", "2e296T"]
        );
        // Where no step fits, the ends are the ticks.
        let whole = ValueAxis::new(Unit::Ratio, [f64::MAX, -f64::MAX].into_iter());
        assert_eq!(labels(&whole), ["-1.80e308 ratio", "1.80e308 ratio"]);
        // Scaling that would overflow keeps the raw unit.
        let huge_ratio = ValueAxis::new(Unit::Ratio, [f64::MAX].into_iter());
        assert_eq!(huge_ratio.scale.suffix, "ratio");
        let huge_mib = ValueAxis::new(Unit::Mebibytes, [f64::MAX].into_iter());
        assert_eq!(huge_mib.scale.suffix, "PiB");
    }

    #[test]
    fn large_magnitudes_are_written_with_an_exponent() {
        let axis = ValueAxis::new(Unit::Unknown, [2e22, 6e22].into_iter());
        assert_eq!(axis.scale.suffix, "T");
        assert_eq!(
            labels(&axis),
            ["0", "1e10T", "2e10T", "3e10T", "4e10T", "5e10T", "6e10T"]
        );
        let tiny = ValueAxis::new(Unit::Unknown, [1e-9, 3e-9].into_iter());
        assert_eq!(labels(&tiny)[1], "5.0e-10");
    }

    #[test]
    fn fractions_are_finite_for_any_range() {
        let tiny = f64::from_bits(1);
        assert_eq!(fraction(tiny, 0.0, tiny), 1.0);
        assert_eq!(fraction(0.0, 0.0, tiny), 0.0);
        assert_eq!(fraction(2.0, 1.0, 3.0), 0.5);
        assert_eq!(fraction(f64::MAX, -f64::MAX, f64::MAX), 1.0);
        assert_eq!(fraction(-f64::MAX, -f64::MAX, f64::MAX), 0.0);
        assert_eq!(fraction(0.0, -f64::MAX, f64::MAX), 0.5);
        assert_eq!(fraction(5.0, 5.0, 5.0), 0.5);
        assert_eq!(fraction(7.0, 1.0, 3.0), 1.0);
        assert_eq!(fraction(-7.0, 1.0, 3.0), 0.0);
        assert_eq!(fraction(f64::NAN, 1.0, 3.0), 0.5);
    }

    /// 2026-07-04T19:00:00Z.
    const T0: i64 = 1_783_191_600_000;

    fn time_labels(axis: &TimeAxis) -> Vec<&str> {
        axis.ticks.iter().map(|(_, label)| label.as_str()).collect()
    }

    #[test]
    fn time_ticks_fall_on_round_times() {
        // 20 minutes from 18:55:32.703: every 5 minutes.
        let axis = TimeAxis::new(T0 - 267_297, T0 + 932_703, 6);
        assert_eq!(axis.step_ms, 5 * MINUTE);
        assert_eq!(time_labels(&axis), ["19:00", "19:05", "19:10", "19:15"]);
        assert!(
            axis.ticks
                .iter()
                .all(|(at, _)| at % (5 * MINUTE as i64) == 0)
        );
        let hour = TimeAxis::new(T0, T0 + 3_600_000, 8);
        assert_eq!(hour.step_ms, 10 * MINUTE);
        assert_eq!(hour.ticks.len(), 7);
        let day = TimeAxis::new(T0, T0 + 7 * DAY as i64, 8);
        assert_eq!(day.step_ms, DAY);
        assert_eq!(time_labels(&day)[0], "2026-07-05");
        let seconds = TimeAxis::new(T0, T0 + 40_000, 5);
        assert_eq!(time_labels(&seconds)[1], "19:00:10");
        let millis = TimeAxis::new(T0, T0 + 3, 8);
        assert_eq!(
            time_labels(&millis),
            [
                "19:00:00.000",
                "19:00:00.001",
                "19:00:00.002",
                "19:00:00.003"
            ]
        );
        assert_eq!(tick_label_chars(MINUTE, false), 5);
        assert_eq!(tick_label_chars(MINUTE, true), 11);
        assert_eq!(tick_label_chars(DAY, true), 10);
        assert!(!hour.dated && !day.dated);
        // Across midnight, every time of day names its day.
        let midnight = TimeAxis::new(T0 + 4 * HOUR as i64, T0 + 7 * HOUR as i64, 8);
        assert!(midnight.dated);
        assert_eq!(
            time_labels(&midnight),
            [
                "07-04 23:00",
                "07-04 23:30",
                "07-05 00:00",
                "07-05 00:30",
                "07-05 01:00",
                "07-05 01:30",
                "07-05 02:00"
            ]
        );
    }

    #[test]
    fn time_axes_cope_with_any_range() {
        let all = TimeAxis::new(i64::MIN, i64::MAX, 6);
        assert!(!all.ticks.is_empty() && all.ticks.len() <= 7);
        let end = TimeAxis::new(i64::MAX - 60_000, i64::MAX, 6);
        assert!(end.ticks.iter().all(|(at, _)| *at >= i64::MAX - 60_000));
        let point = TimeAxis::new(T0, T0, 6);
        assert_eq!(point.fraction(T0), 0.5);
        let swapped = TimeAxis::new(T0 + 10, T0, 6);
        assert_eq!((swapped.start_ms, swapped.end_ms), (T0, T0 + 10));
        assert_eq!(swapped.fraction(T0 + 5), 0.5);
        assert_eq!(swapped.fraction(T0 - 5), 0.0);
        assert_eq!(swapped.fraction(T0 + 50), 1.0);
    }

    #[test]
    fn civil_times_are_exact() {
        assert_eq!(format_utc(T0), "2026-07-04 19:00:00 UTC");
        assert_eq!(format_utc(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(format_utc(-1), "1969-12-31 23:59:59 UTC");
        assert_eq!(format_utc(951_782_400_000), "2000-02-29 00:00:00 UTC");
        assert_eq!(format_utc(4_107_542_400_000), "2100-03-01 00:00:00 UTC");
        assert_eq!(format_tick(T0 + 1_234, 1, false), "19:00:01.234");
        assert_eq!(format_tick(T0 + 1_234, SECOND, true), "07-04 19:00:01");
        // The ends of i64 still give a date.
        assert!(format_utc(i64::MAX).ends_with("UTC"));
        assert!(format_utc(i64::MIN).starts_with('-'));
    }
}
