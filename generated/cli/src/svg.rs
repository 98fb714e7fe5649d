//! SVG line charts of a validated response: a panel per metric, a line per label set, gaps
//! where a value is missing, points at their steps' real start times.

use std::fmt::Write as _;

use baseten_api::metrics::IndexMappedResponse;
use baseten_api::metrics::{Metric, MetricsView, format_labels};

use crate::render::human;
use crate::terminal::shown;
use crate::time::format_time;

const WIDTH: f64 = 900.0;
const PANEL_HEIGHT: f64 = 260.0;
const PLOT_LEFT: f64 = 90.0;
const PLOT_RIGHT: f64 = 620.0;
const PLOT_TOP: f64 = 40.0;
const PLOT_HEIGHT: f64 = 180.0;
/// Line colours, reused in turn.
const PALETTE: [&str; 8] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

/// The chart: one panel per metric that has series, stacked; each series a `<path
/// class="series">` (one per label set, even one without data), its segments broken where a
/// value is null; a point with no neighbour also gets a `<circle>`. The y axis is labelled
/// with the unit from the metric's unit hint.
pub fn chart<R: IndexMappedResponse>(view: MetricsView<'_, R>) -> String {
    let metrics: Vec<Metric<'_, R>> = view
        .metrics()
        .filter(|metric| !metric.label_sets.is_empty())
        .collect();
    let height = PANEL_HEIGHT * metrics.len().max(1) as f64;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="11">"#
    );
    let starts: Vec<i64> = view.steps().map(|step| step.start_ms).collect();
    // Steps may start a little before the window (they are aligned to whole seconds).
    let x_min = starts.first().map_or(view.window_start_ms(), |&first| {
        first.min(view.window_start_ms())
    });
    let x_max = view.window_end_ms().max(x_min.saturating_add(1));
    // At least 1, even when the window starts at `i64::MAX` and `x_max` cannot pass it.
    let x_span = x_max.saturating_sub(x_min).max(1);
    let x_of = |ms: i64| {
        let fraction = (ms.saturating_sub(x_min)) as f64 / x_span as f64;
        PLOT_LEFT + fraction.clamp(0.0, 1.0) * (PLOT_RIGHT - PLOT_LEFT)
    };
    if metrics.is_empty() {
        let _ = writeln!(
            svg,
            r#"<text x="{PLOT_LEFT}" y="{PLOT_TOP}">no metrics</text>"#
        );
    }
    for (panel, metric) in metrics.iter().enumerate() {
        let top = panel as f64 * PANEL_HEIGHT;
        let unit = metric.unit().symbol().unwrap_or("");
        let values = metric
            .series()
            .flat_map(|series| series.points().filter_map(|point| point.value));
        let (low, high) = y_range(values);
        let y_of =
            |value: f64| top + PLOT_TOP + PLOT_HEIGHT - fraction(value, low, high) * PLOT_HEIGHT;
        let _ = writeln!(
            svg,
            r#"<g class="metric" data-metric="{}">"#,
            escape(metric.name)
        );
        let title = if unit.is_empty() {
            metric.name.to_owned()
        } else {
            format!("{} ({unit})", metric.name)
        };
        let _ = writeln!(
            svg,
            r#"<text x="{PLOT_LEFT}" y="{}" font-size="13" font-weight="bold">{}</text>"#,
            top + 20.0,
            escape(&title)
        );
        let _ = writeln!(
            svg,
            r##"<rect x="{PLOT_LEFT}" y="{}" width="{}" height="{PLOT_HEIGHT}" fill="none" stroke="#999"/>"##,
            top + PLOT_TOP,
            PLOT_RIGHT - PLOT_LEFT
        );
        for (value, y) in [
            (high, top + PLOT_TOP + 4.0),
            (low, top + PLOT_TOP + PLOT_HEIGHT),
        ] {
            let _ = writeln!(
                svg,
                r#"<text class="y-tick" x="{}" y="{y:.2}" text-anchor="end">{} {}</text>"#,
                PLOT_LEFT - 6.0,
                escape(&human(Some(value))),
                escape(unit)
            );
        }
        let axis_y = top + PLOT_TOP + PLOT_HEIGHT + 14.0;
        for (ms, anchor, x) in [(x_min, "start", PLOT_LEFT), (x_max, "end", PLOT_RIGHT)] {
            let _ = writeln!(
                svg,
                r#"<text class="x-tick" x="{x}" y="{axis_y}" text-anchor="{anchor}">{}</text>"#,
                escape(&format_time(ms))
            );
        }
        for (index, series) in metric.series().enumerate() {
            let colour = PALETTE[index % PALETTE.len()];
            let points: Vec<Option<(f64, f64)>> = series
                .points()
                .map(|point| point.value.map(|v| (x_of(point.start_ms), y_of(v))))
                .collect();
            let labels = format_labels(series.labels);
            let _ = writeln!(
                svg,
                r#"<path class="series" data-labels="{}" fill="none" stroke="{colour}" stroke-width="1.5" d="{}"/>"#,
                escape(&labels),
                path_data(&points)
            );
            for (at, point) in points.iter().enumerate() {
                let alone = at
                    .checked_sub(1)
                    .and_then(|before| points.get(before))
                    .is_none_or(Option::is_none)
                    && points.get(at + 1).is_none_or(Option::is_none);
                if let (Some((x, y)), true) = (point, alone) {
                    let _ = writeln!(
                        svg,
                        r#"<circle class="point" cx="{x:.2}" cy="{y:.2}" r="2.5" fill="{colour}"/>"#
                    );
                }
            }
            let legend = if labels.is_empty() {
                "(no labels)"
            } else {
                &labels
            };
            let _ = writeln!(
                svg,
                r#"<text class="legend" x="{}" y="{:.2}" fill="{colour}">{}</text>"#,
                PLOT_RIGHT + 12.0,
                top + PLOT_TOP + 10.0 + 14.0 * index as f64,
                escape(&truncate(legend, 40))
            );
        }
        svg.push_str("</g>\n");
    }
    svg.push_str("</svg>\n");
    svg
}

/// The y range of `values`, widened so that a flat line or no data still has a height.
fn y_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (low, high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(low, high), v| {
        (low.min(v), high.max(v))
    });
    if !low.is_finite() || !high.is_finite() {
        return (0.0, 1.0);
    }
    if high > low {
        return (low, high);
    }
    let pad = (low.abs() * 0.1).max(1.0);
    ((low - pad).max(-f64::MAX), (high + pad).min(f64::MAX))
}

/// Where `value` sits from `low` (0) to `high` (1): always finite and within 0..=1, so that no
/// coordinate is `NaN` or infinite — not for a range spanning 0 to a subnormal (whose halves
/// round to nothing), nor one across the whole f64 range (whose span overflows), nor an empty
/// one (where it is the middle).
fn fraction(value: f64, low: f64, high: f64) -> f64 {
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

/// `M x,y L x,y …`, starting a new `M` after every gap.
fn path_data(points: &[Option<(f64, f64)>]) -> String {
    let mut data = String::new();
    let mut drawing = false;
    for point in points {
        match point {
            Some((x, y)) => {
                if !data.is_empty() {
                    data.push(' ');
                }
                let command = if drawing { 'L' } else { 'M' };
                let _ = write!(data, "{command}{x:.2},{y:.2}");
                drawing = true;
            }
            None => drawing = false,
        }
    }
    data
}

/// At most `max` characters, the last one `…` when cut.
fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// Text safe inside an XML element or a double-quoted attribute, and on a terminal: first shown
/// through the one terminal sanitiser ([`shown`]), which leaves no control or format
/// character, then XML-escaped.
fn escape(text: &str) -> String {
    let text = shown(text);
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            '\t' | '\n' | '\r' => escaped.push_str(&format!("&#{};", c as u32)),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                escaped.push('\u{FFFD}')
            }
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_break_at_gaps() {
        let points = [Some((1.0, 2.0)), Some((3.0, 4.0)), None, Some((5.0, 6.0))];
        assert_eq!(path_data(&points), "M1.00,2.00 L3.00,4.00 M5.00,6.00");
        assert_eq!(path_data(&[None, None]), "");
    }

    #[test]
    fn ranges_always_have_height() {
        assert_eq!(y_range([1.0, 3.0].into_iter()), (1.0, 3.0));
        assert_eq!(y_range(std::iter::empty()), (0.0, 1.0));
        assert_eq!(y_range([5.0].into_iter()), (4.0, 6.0));
        assert_eq!(y_range([100.0, 100.0].into_iter()), (90.0, 110.0));
        assert_eq!(
            y_range([f64::MAX, -f64::MAX].into_iter()),
            (-f64::MAX, f64::MAX)
        );
        let (low, high) = y_range([-f64::MAX].into_iter());
        assert!(low == -f64::MAX && high > low && high.is_finite());
    }

    #[test]
    fn fractions_are_finite_for_any_range() {
        let tiny = f64::from_bits(1); // the smallest subnormal
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
        assert_eq!(fraction(1.0, f64::NAN, 3.0), 0.5);
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape(r#"a<b>&"c'"#), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(escape("x\ny\u{1}\u{202e}"), "x\\ny\\u{1}\\u{202e}");
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
    }
}
