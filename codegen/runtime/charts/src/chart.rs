//! SVG line charts of a validated response: a panel per metric, a line per series (label set)
//! broken where a value is missing, nice ticks in a scaled unit, round time ticks, a light
//! grid and a legend.
//!
//! Everything a server wrote (metric names, label keys and values) is scrubbed of registered
//! keys and shown escaped through [`ServerText`], then XML-escaped: text from a server is never
//! markup. Every coordinate is finite and inside the view box, whatever the values.

use std::fmt::Write as _;

use baseten_runtime::metrics::{IndexMappedResponse, Metric, MetricsView, format_labels};
use baseten_runtime::server_text::ServerText;

use crate::axis::{TimeAxis, ValueAxis, format_utc, tick_label_chars};

/// Width of every chart, in SVG user units (pixels at 100%).
const WIDTH: f64 = 900.0;
const FONT_SIZE: f64 = 11.0;
const TITLE_FONT_SIZE: f64 = 13.0;
/// A conservative average advance of a sans-serif glyph, in ems (DejaVu Sans digits: 0.636).
const GLYPH_EM: f64 = 0.64;
const PLOT_TOP: f64 = 34.0;
const PLOT_HEIGHT: f64 = 200.0;
/// Room right of the plot: half the widest time label, so the last one is never cut.
const RIGHT_MARGIN: f64 = 48.0;
/// The least room left of the plot, for half the first time label.
const MIN_LEFT_MARGIN: f64 = 48.0;
const TICK_GAP: f64 = 6.0;
/// Time labels keep at least this much space between them.
const TIME_LABEL_GAP: f64 = 28.0;
const LEGEND_ROW: f64 = 16.0;
const LEGEND_SWATCH: f64 = 18.0;
/// The longest legend entry and title, in characters; longer text is cut and ends with `…`.
const MAX_LEGEND_CHARS: usize = 50;
const MAX_TITLE_CHARS: usize = 100;
const GRID: &str = "#e6e6e6";
const AXIS: &str = "#999";
const TEXT: &str = "#333";
/// Line colours (Tableau 10), reused in turn, each round with another dash pattern.
const PALETTE: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];
const DASHES: [&str; 4] = ["", "6 3", "2 2", "8 3 2 3"];

/// SVG line charts of a validated metrics response, for [`MetricsView`] (every metric) and
/// [`Metric`] (one): bring the trait into scope and call `to_svg_chart`.
pub trait SvgChart {
    /// This as an SVG document; see the implementations for what is drawn.
    fn to_svg_chart(&self) -> String;
}

impl<R: IndexMappedResponse> SvgChart for MetricsView<'_, R> {
    /// The response as an SVG document of line charts: one panel per metric that has series,
    /// stacked, sharing one time axis.
    ///
    /// Each panel has the metric's name and display unit as its title; a value axis with ticks
    /// at a 1-2-5 step, in a unit scaled to the data (`ms` or `s`, `KiB`…`GiB` from bytes or
    /// mebibytes, `%` from a ratio, `k`/`M` for counts and rates) and labelled in one format; a
    /// time axis with ticks at round UTC times (whole seconds, minutes, 5 minutes, hours, days)
    /// labelled in one format, and the window's ends below it; a light grid; and a legend naming
    /// every series by its labels. Each series is a `<path class="series">` with its labels in
    /// `data-labels`, a point per step at the step's start, broken where a value is null; a
    /// point with no neighbour is also drawn as a `<circle>`, so that it shows. Margins follow
    /// the widest tick label, so no label is clipped.
    ///
    /// ```
    /// use baseten_api::metrics;
    /// use baseten_api::models::GetModelMetricsResponseV1;
    /// use baseten_charts::SvgChart;
    ///
    /// let json = br#"{"start_epoch_millis": 0, "end_epoch_millis": 90000, "mode": "SERIES",
    ///   "step_seconds": 30,
    ///   "metric_descriptors": [{"name": "latency", "unit_hint": "SECONDS", "kind": "HISTOGRAM",
    ///     "label_sets": [{"quantile": "0.99"}]}],
    ///   "metric_values": [{"start_epoch_millis": 0, "values": [[0.25]]},
    ///                     {"start_epoch_millis": 30000, "values": [[null]]},
    ///                     {"start_epoch_millis": 60000, "values": [[0.31]]}]}"#;
    /// let response: GetModelMetricsResponseV1 = metrics::decode(json)?;
    /// let svg = metrics::validate(&response)?.to_svg_chart();
    /// assert!(svg.starts_with("<svg "));
    /// assert!(svg.contains(">latency (ms)<") && svg.contains(">300 ms<"));
    /// assert!(svg.contains(">00:01:00<") && svg.contains(">quantile=0.99<"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn to_svg_chart(&self) -> String {
        let metrics: Vec<Metric<'_, R>> = self
            .metrics()
            .filter(|metric| !metric.label_sets.is_empty())
            .collect();
        render(*self, &metrics)
    }
}

impl<R: IndexMappedResponse> SvgChart for Metric<'_, R> {
    /// This metric alone as an SVG chart: the panel a [`MetricsView`]'s chart draws for it, as
    /// its own document (a panel saying so when the metric has no series).
    fn to_svg_chart(&self) -> String {
        let metrics: Vec<Metric<'_, R>> = if self.label_sets.is_empty() {
            Vec::new()
        } else {
            vec![*self]
        };
        render(self.view(), &metrics)
    }
}

/// One metric's panel, laid out: its value axis and legend.
struct Panel<'v, 'a, R> {
    metric: &'v Metric<'a, R>,
    axis: ValueAxis,
    legend: Vec<String>,
    legend_columns: usize,
}

impl<R> Panel<'_, '_, R> {
    fn legend_rows(&self) -> usize {
        self.legend.len().div_ceil(self.legend_columns.max(1))
    }

    fn height(&self) -> f64 {
        PLOT_TOP + PLOT_HEIGHT + 40.0 + LEGEND_ROW * self.legend_rows() as f64 + 8.0
    }
}

fn render<R: IndexMappedResponse>(view: MetricsView<'_, R>, metrics: &[Metric<'_, R>]) -> String {
    let mut panels: Vec<Panel<'_, '_, R>> = metrics
        .iter()
        .map(|metric| Panel {
            metric,
            axis: ValueAxis::new(
                metric.unit(),
                metric
                    .series()
                    .flat_map(|series| series.points().filter_map(|point| point.value)),
            ),
            legend: metric
                .series()
                .map(|series| {
                    let labels = format_labels(series.labels);
                    let shown = if labels.is_empty() {
                        "(no labels)".to_owned()
                    } else {
                        shown(labels)
                    };
                    truncate_middle(&shown, MAX_LEGEND_CHARS)
                })
                .collect(),
            legend_columns: 1,
        })
        .collect();
    // One left margin for all panels, so that their time axes line up.
    let widest_tick = panels
        .iter()
        .flat_map(|panel| panel.axis.ticks.iter())
        .map(|(_, label)| text_width(label, FONT_SIZE))
        .fold(0.0, f64::max);
    let left = (widest_tick + 2.0 * TICK_GAP).max(MIN_LEFT_MARGIN).ceil();
    let plot_width = WIDTH - left - RIGHT_MARGIN;
    for panel in &mut panels {
        let widest = panel
            .legend
            .iter()
            .map(|entry| LEGEND_SWATCH + 6.0 + text_width(entry, FONT_SIZE) + 18.0)
            .fold(0.0, f64::max);
        panel.legend_columns = ((plot_width / widest).floor() as usize).clamp(1, 8);
    }
    let time = time_axis(view, plot_width);
    let height = if panels.is_empty() {
        PLOT_TOP + 20.0
    } else {
        panels.iter().map(Panel::height).sum()
    };
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="{FONT_SIZE}">"#
    );
    let _ = writeln!(
        svg,
        r##"<rect class="background" x="0" y="0" width="{WIDTH}" height="{height}" fill="#fff"/>"##
    );
    if panels.is_empty() {
        let _ = writeln!(
            svg,
            r#"<text x="{left}" y="{PLOT_TOP}" fill="{TEXT}">no metrics</text>"#
        );
    }
    let mut top = 0.0;
    for panel in &panels {
        draw_panel(&mut svg, panel, &time, top, left, plot_width);
        top += panel.height();
    }
    svg.push_str("</svg>\n");
    svg
}

/// The shared time axis: from the first step's start (steps may start a little before the
/// window, being aligned to whole seconds) or the window's start to the window's end, with as
/// many round ticks as fit `plot_width` without their labels touching.
fn time_axis<R: IndexMappedResponse>(view: MetricsView<'_, R>, plot_width: f64) -> TimeAxis {
    let first = view.steps().next().map(|step| step.start_ms);
    let start = first.map_or(view.window_start_ms(), |first| {
        first.min(view.window_start_ms())
    });
    let end = view.window_end_ms().max(start);
    // The step, hence the label format, is not known before the axis is: try the narrowest
    // format's count, and take fewer ticks if the chosen step's labels are wider.
    let fits = |chars: usize| {
        let label = chars as f64 * FONT_SIZE * GLYPH_EM;
        (plot_width / (label + TIME_LABEL_GAP)).floor().max(2.0) as usize
    };
    let axis = TimeAxis::new(start, end, fits(tick_label_chars(60_000, false)));
    let fitting = fits(tick_label_chars(axis.step_ms, axis.dated));
    if axis.ticks.len() > fitting {
        TimeAxis::new(start, end, fitting)
    } else {
        axis
    }
}

fn draw_panel<R: IndexMappedResponse>(
    svg: &mut String,
    panel: &Panel<'_, '_, R>,
    time: &TimeAxis,
    top: f64,
    left: f64,
    plot_width: f64,
) {
    let metric = panel.metric;
    let axis = &panel.axis;
    let plot_top = top + PLOT_TOP;
    let plot_bottom = plot_top + PLOT_HEIGHT;
    let right = left + plot_width;
    let x_of = |ms: i64| left + time.fraction(ms) * plot_width;
    let y_of = |fraction: f64| plot_bottom - fraction * PLOT_HEIGHT;
    let _ = writeln!(
        svg,
        r#"<g class="metric" data-metric="{}">"#,
        escape(metric.name)
    );
    let title = if axis.scale.title.is_empty() {
        metric.name.to_owned()
    } else {
        format!("{} ({})", metric.name, axis.scale.title)
    };
    // Shown (escaped) before it is cut, so that the cut counts the escapes.
    let title = truncate(&shown(title), MAX_TITLE_CHARS);
    let _ = writeln!(
        svg,
        r#"<text class="title" x="{left}" y="{:.2}" font-size="{TITLE_FONT_SIZE}" font-weight="bold" fill="{TEXT}">{}</text>"#,
        top + 20.0,
        escape(&title)
    );
    // Grid first, so that lines and labels are drawn over it.
    for (value, label) in &axis.ticks {
        let y = y_of(crate::axis::fraction(*value, axis.low, axis.high));
        let _ = writeln!(
            svg,
            r#"<line class="grid" x1="{left}" y1="{y:.2}" x2="{right}" y2="{y:.2}" stroke="{GRID}"/>"#
        );
        let _ = writeln!(
            svg,
            r#"<text class="y-tick" x="{}" y="{:.2}" text-anchor="end" fill="{TEXT}">{}</text>"#,
            left - TICK_GAP,
            y + FONT_SIZE * 0.35,
            escape(label)
        );
    }
    for (ms, label) in &time.ticks {
        let x = x_of(*ms);
        let _ = writeln!(
            svg,
            r#"<line class="grid" x1="{x:.2}" y1="{plot_top}" x2="{x:.2}" y2="{plot_bottom}" stroke="{GRID}"/>"#
        );
        let _ = writeln!(
            svg,
            r#"<text class="x-tick" x="{x:.2}" y="{}" text-anchor="middle" fill="{TEXT}">{}</text>"#,
            plot_bottom + 15.0,
            escape(label)
        );
    }
    let _ = writeln!(
        svg,
        r#"<text class="x-range" x="{left}" y="{}" font-size="10" fill="{AXIS}">{} to {}</text>"#,
        plot_bottom + 30.0,
        format_utc(time.start_ms),
        format_utc(time.end_ms)
    );
    for (x1, y1) in [(left, plot_top), (right, plot_bottom)] {
        let _ = writeln!(
            svg,
            r#"<line class="axis" x1="{x1}" y1="{y1}" x2="{left}" y2="{plot_bottom}" stroke="{AXIS}"/>"#
        );
    }
    if metric
        .series()
        .all(|series| series.points().all(|point| point.value.is_none()))
    {
        let _ = writeln!(
            svg,
            r#"<text class="no-data" x="{:.2}" y="{:.2}" text-anchor="middle" fill="{AXIS}">no data</text>"#,
            left + plot_width / 2.0,
            plot_top + PLOT_HEIGHT / 2.0
        );
    }
    let legend_top = plot_bottom + 40.0;
    let column_width = plot_width / panel.legend_columns.max(1) as f64;
    for (index, (series, entry)) in metric.series().zip(&panel.legend).enumerate() {
        let colour = PALETTE[index % PALETTE.len()];
        let dash = DASHES[(index / PALETTE.len()) % DASHES.len()];
        let dash = if dash.is_empty() {
            String::new()
        } else {
            format!(r#" stroke-dasharray="{dash}""#)
        };
        let points: Vec<Option<(f64, f64)>> = series
            .points()
            .map(|point| {
                point
                    .value
                    .map(|value| (x_of(point.start_ms), y_of(axis.fraction(value))))
            })
            .collect();
        // One step (a SUMMARY, a CURRENT reading) holds for its whole span: a level line
        // across it, marked in its middle; more steps are a line through their starts.
        let (data, dots) = match (series.points().next(), points.as_slice()) {
            (Some(step), [Some((x, y))]) => {
                let end = x_of(step.end_ms);
                (
                    format!("M{x:.2},{y:.2} L{end:.2},{y:.2}"),
                    vec![((x + end) / 2.0, *y)],
                )
            }
            _ => (path_data(&points), lone_points(&points)),
        };
        let _ = writeln!(
            svg,
            r#"<path class="series" data-labels="{}" fill="none" stroke="{colour}" stroke-width="1.5"{dash} d="{data}"/>"#,
            escape(&format_labels(series.labels)),
        );
        for (x, y) in dots {
            let _ = writeln!(
                svg,
                r#"<circle class="point" cx="{x:.2}" cy="{y:.2}" r="2.5" fill="{colour}"/>"#
            );
        }
        let column = index % panel.legend_columns.max(1);
        let row = index / panel.legend_columns.max(1);
        let x = left + column as f64 * column_width;
        let y = legend_top + row as f64 * LEGEND_ROW;
        let _ = writeln!(
            svg,
            r#"<line class="swatch" x1="{x:.2}" y1="{y:.2}" x2="{:.2}" y2="{y:.2}" stroke="{colour}" stroke-width="2"{dash}/>"#,
            x + LEGEND_SWATCH
        );
        let _ = writeln!(
            svg,
            r#"<text class="legend" x="{:.2}" y="{:.2}" fill="{TEXT}">{}</text>"#,
            x + LEGEND_SWATCH + 6.0,
            y + FONT_SIZE * 0.35,
            escape(entry)
        );
    }
    svg.push_str("</g>\n");
}

/// How wide `text` is drawn at `font_size`, a little generously: wide (East Asian) characters
/// count twice.
fn text_width(text: &str, font_size: f64) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|c| if is_wide(c) { 2.0 * GLYPH_EM } else { GLYPH_EM })
        .sum();
    ems * font_size
}

/// CJK, Hangul, full-width forms and emoji: the blocks drawn about twice as wide.
fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x1F300..=0x1FAFF
        | 0x20000..=0x3FFFD)
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

/// The points with no drawn neighbour, which a line alone would not show.
fn lone_points(points: &[Option<(f64, f64)>]) -> Vec<(f64, f64)> {
    points
        .iter()
        .enumerate()
        .filter_map(|(at, point)| {
            let before = at.checked_sub(1).and_then(|before| points.get(before));
            let after = points.get(at + 1);
            let alone = before.is_none_or(Option::is_none) && after.is_none_or(Option::is_none);
            point.filter(|_| alone)
        })
        .collect()
}

/// At most `max` characters, the middle replaced by `…` when cut: label sets differ anywhere,
/// so both ends are kept.
fn truncate_middle(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.to_owned();
    }
    let kept = max.saturating_sub(1);
    let head = kept.div_ceil(2);
    let tail = kept - head;
    let mut cut: String = text.chars().take(head).collect();
    cut.push('…');
    cut.extend(text.chars().skip(count - tail));
    cut
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

/// Server text as it may be shown: scrubbed of registered keys, control and format characters
/// written as `\u{..}` escapes (`ServerText`'s `Display`, not its unescaped `as_str`).
fn shown(text: String) -> String {
    ServerText::new(text).to_string()
}

/// Text safe inside an XML element or a double-quoted attribute: shown through [`ServerText`]
/// (the key scrubbed, no control or format character left: they become `\u{..}` escapes), then
/// XML-escaped.
fn escape(text: &str) -> String {
    let text = shown(text.to_owned());
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            // Not allowed in XML 1.0 at all; ServerText leaves them as they are.
            '\u{FFFE}' | '\u{FFFF}' => escaped.push('\u{FFFD}'),
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;
    use baseten_api::metrics::{decode, validate};
    use baseten_api::models::GetModelMetricsResponseV1;

    fn response(json: &str) -> GetModelMetricsResponseV1 {
        decode(json.as_bytes()).unwrap()
    }

    /// Every `attribute="number"` of `svg`'s elements of class `class`, in order.
    fn numbers(svg: &str, class: &str, attribute: &str) -> Vec<f64> {
        svg.lines()
            .filter(|line| line.contains(&format!(r#"class="{class}""#)))
            .filter_map(|line| {
                let (_, rest) = line.split_once(&format!(r#" {attribute}=""#))?;
                rest.split('"').next()?.parse().ok()
            })
            .collect()
    }

    /// The text of every element of class `class`, in order.
    fn texts(svg: &str, class: &str) -> Vec<String> {
        svg.lines()
            .filter(|line| line.contains(&format!(r#"class="{class}""#)))
            .filter_map(|line| {
                let (_, rest) = line.split_once('>')?;
                Some(rest.split("</").next()?.to_owned())
            })
            .collect()
    }

    const TWO_METRICS: &str = r#"{
      "start_epoch_millis": 1783191600000, "end_epoch_millis": 1783193400000, "mode": "SERIES",
      "step_seconds": 600,
      "metric_descriptors": [
        {"name": "latency", "unit_hint": "SECONDS", "kind": "HISTOGRAM",
         "label_sets": [{"quantile": "0.99"}, {"stat": "avg"}]},
        {"name": "none", "unit_hint": "COUNT", "kind": "GAUGE", "label_sets": []},
        {"name": "requests", "unit_hint": "COUNT", "kind": "COUNTER", "label_sets": [{}]}
      ],
      "metric_values": [
        {"start_epoch_millis": 1783191600000, "values": [[0.25, 0.1], [], [1200]]},
        {"start_epoch_millis": 1783192200000, "values": [[null, 0.2], [], [3400]]},
        {"start_epoch_millis": 1783192800000, "values": [[0.3, 0.15], [], [null]]}
      ]
    }"#;

    #[test]
    fn panels_stack_with_one_left_margin_and_one_time_axis() {
        let r = response(TWO_METRICS);
        let view = validate(&r).unwrap();
        let svg = view.to_svg_chart();
        assert_eq!(svg.matches(r#"<g class="metric""#).count(), 2);
        assert_eq!(texts(&svg, "title"), ["latency (ms)", "requests (count)"]);
        assert_eq!(
            texts(&svg, "legend"),
            ["quantile=0.99", "stat=avg", "(no labels)"]
        );
        assert_eq!(
            texts(&svg, "y-tick"),
            [
                "0 ms", "50 ms", "100 ms", "150 ms", "200 ms", "250 ms", "300 ms", "0", "0.5k",
                "1.0k", "1.5k", "2.0k", "2.5k", "3.0k", "3.5k"
            ]
        );
        // Every 5 minutes from 19:00 to 19:30, in both panels.
        let times = texts(&svg, "x-tick");
        assert_eq!(times.len(), 14);
        assert_eq!(
            times[..7],
            [
                "19:00", "19:05", "19:10", "19:15", "19:20", "19:25", "19:30"
            ]
        );
        // y labels end one gap left of the plot, which starts at the left margin.
        let left = numbers(&svg, "title", "x")[0];
        assert!(
            numbers(&svg, "y-tick", "x")
                .iter()
                .all(|x| *x == left - TICK_GAP)
        );
        assert!(left >= MIN_LEFT_MARGIN);
        let xs = numbers(&svg, "x-tick", "x");
        assert_eq!(xs[0], left);
        assert_eq!(xs[6], WIDTH - RIGHT_MARGIN);
        // The second panel starts where the first ends.
        let panel = PLOT_TOP + PLOT_HEIGHT + 40.0 + LEGEND_ROW + 8.0;
        assert_eq!(numbers(&svg, "title", "y"), [20.0, panel + 20.0]);
        let height = panel + PLOT_TOP + PLOT_HEIGHT + 40.0 + LEGEND_ROW + 8.0;
        assert!(svg.starts_with(&format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="900" height="{height}" viewBox="0 0 900 {height}""#
        )));
        // The p99's null makes two lone points: a dot each (the rest are lines).
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(!svg.contains("no data"));
    }

    #[test]
    fn wide_ticks_widen_the_left_margin() {
        let json = TWO_METRICS
            .replace("[1200]", "[123456.7]")
            .replace("[3400]", "[123456.9]");
        let r = response(&json);
        let svg = validate(&r).unwrap().to_svg_chart();
        let labels = texts(&svg, "y-tick");
        let widest = labels
            .iter()
            .map(|label| text_width(label, FONT_SIZE))
            .fold(0.0, f64::max);
        assert!(widest > MIN_LEFT_MARGIN, "{labels:?}");
        let left = numbers(&svg, "title", "x")[0];
        assert_eq!(left, (widest + 2.0 * TICK_GAP).ceil());
    }

    #[test]
    fn one_step_is_a_level_line_marked_in_its_middle() {
        let json = r#"{"start_epoch_millis": 0, "end_epoch_millis": 60000, "mode": "SUMMARY",
          "metric_descriptors": [{"name": "m", "unit_hint": "RATIO", "kind": "GAUGE",
            "label_sets": [{"a": "1"}, {"a": "2"}]}],
          "metric_values": [{"start_epoch_millis": 0, "values": [[0.5, null]]}]}"#;
        let r = response(json);
        let view = validate(&r).unwrap();
        let svg = view.metric("m").unique().unwrap().unwrap().to_svg_chart();
        let left = numbers(&svg, "title", "x")[0];
        let right = WIDTH - RIGHT_MARGIN;
        // 50% is the top of an axis from 0% to 50%.
        let y = PLOT_TOP;
        assert_eq!(
            texts(&svg, "y-tick").last().map(String::as_str),
            Some("50%")
        );
        assert!(
            svg.contains(&format!(r#"d="M{left:.2},{y:.2} L{right:.2},{y:.2}""#)),
            "{svg}"
        );
        assert_eq!(numbers(&svg, "point", "cx"), [(left + right) / 2.0]);
        assert_eq!(texts(&svg, "title"), ["m (%)"]);
        // The series without data still has its path and legend entry.
        assert!(svg.contains(
            r##"data-labels="a=2" fill="none" stroke="#f28e2b" stroke-width="1.5" d="""##
        ));
    }

    #[test]
    fn no_series_no_data_and_many_series_say_so() {
        let json = r#"{"start_epoch_millis": 0, "end_epoch_millis": 60000, "mode": "SERIES",
          "step_seconds": 30,
          "metric_descriptors": [{"name": "empty", "unit_hint": "COUNT", "kind": "GAUGE",
            "label_sets": []},
            {"name": "nulls", "unit_hint": "COUNT", "kind": "GAUGE", "label_sets": [{}]}],
          "metric_values": [{"start_epoch_millis": 0, "values": [[], [null]]},
                            {"start_epoch_millis": 30000, "values": [[], [null]]}]}"#;
        let r = response(json);
        let view = validate(&r).unwrap();
        let empty = view
            .metric("empty")
            .unique()
            .unwrap()
            .unwrap()
            .to_svg_chart();
        assert!(empty.contains(">no metrics<"));
        assert!(!empty.contains("<g "));
        let nulls = view
            .metric("nulls")
            .unique()
            .unwrap()
            .unwrap()
            .to_svg_chart();
        assert!(nulls.contains(">no data<"));
        assert!(!nulls.contains(">no metrics<"));
        // In the middle of the plot, whose frame starts at its top.
        let left = numbers(&nulls, "title", "x")[0];
        assert_eq!(
            numbers(&nulls, "no-data", "x"),
            [left + (WIDTH - left - RIGHT_MARGIN) / 2.0]
        );
        assert_eq!(
            numbers(&nulls, "no-data", "y"),
            [PLOT_TOP + PLOT_HEIGHT / 2.0]
        );
        assert!(nulls.contains(&format!(
            r#"<line class="axis" x1="{left}" y1="{PLOT_TOP}" x2="{left}" y2="{}""#,
            PLOT_TOP + PLOT_HEIGHT
        )));
        // The x axis runs to the plot's right edge.
        assert!(nulls.contains(&format!(
            r#"<line class="axis" x1="{}" y1="{}" x2="{left}""#,
            WIDTH - RIGHT_MARGIN,
            PLOT_TOP + PLOT_HEIGHT
        )));
        // Eleven series: the colours come round again, dashed.
        let labels: Vec<String> = (0..11).map(|i| format!(r#"{{"i": "{i:02}"}}"#)).collect();
        let values: Vec<&str> = (0..11).map(|_| "1").collect();
        let json = format!(
            r#"{{"start_epoch_millis": 0, "end_epoch_millis": 1000, "mode": "CURRENT",
              "metric_descriptors": [{{"name": "m", "unit_hint": "COUNT", "kind": "GAUGE",
                "label_sets": [{}]}}],
              "metric_values": [{{"start_epoch_millis": 0, "values": [[{}]]}}]}}"#,
            labels.join(","),
            values.join(",")
        );
        let r = response(&json);
        let svg = validate(&r).unwrap().to_svg_chart();
        assert_eq!(svg.matches(r#"stroke-dasharray="6 3""#).count(), 2);
        assert_eq!(
            svg.matches(&format!(r#"stroke="{}""#, PALETTE[0])).count(),
            4
        );
        // Short entries share rows: eleven in at most two.
        let rows: std::collections::BTreeSet<String> = numbers(&svg, "legend", "y")
            .iter()
            .map(|y| format!("{y:.2}"))
            .collect();
        assert!(rows.len() <= 2, "{rows:?}");
        // Long entries take columns as wide as the widest: 11 of 36 characters in 2 columns,
        // 6 rows, and the chart as tall as its rows.
        let long = json.replace(r#""i": ""#, r#""environment": "a-long-environment-nam"#);
        let r = response(&long);
        let svg = validate(&r).unwrap().to_svg_chart();
        let xs: std::collections::BTreeSet<String> = numbers(&svg, "legend", "x")
            .iter()
            .map(|x| format!("{x:.2}"))
            .collect();
        let ys: std::collections::BTreeSet<String> = numbers(&svg, "legend", "y")
            .iter()
            .map(|y| format!("{y:.2}"))
            .collect();
        assert_eq!((xs.len(), ys.len()), (2, 6), "{svg}");
        // Rows are one legend row apart, below the plot; columns half the plot apart.
        let left = numbers(&svg, "title", "x")[0];
        let plot_bottom = PLOT_TOP + PLOT_HEIGHT;
        let first_row = plot_bottom + 40.0 + FONT_SIZE * 0.35;
        let expected_ys: std::collections::BTreeSet<String> = (0..6)
            .map(|row| format!("{:.2}", first_row + row as f64 * LEGEND_ROW))
            .collect();
        assert_eq!(ys, expected_ys);
        let column = (WIDTH - left - RIGHT_MARGIN) / 2.0;
        let expected_xs: std::collections::BTreeSet<String> = [0.0, column]
            .iter()
            .map(|x| format!("{:.2}", left + x + LEGEND_SWATCH + 6.0))
            .collect();
        assert_eq!(xs, expected_xs);
        let height = PLOT_TOP + PLOT_HEIGHT + 40.0 + 6.0 * LEGEND_ROW + 8.0;
        assert!(svg.contains(&format!(r#"height="{height}""#)), "{svg}");
    }

    #[test]
    fn time_labels_that_do_not_fit_take_a_longer_step() {
        // Two days at 1-hour steps across midnight: dated labels are wider than times.
        let r = response(
            &TWO_METRICS
                .replace("1783193400000", "1783364400000")
                .replace(r#""step_seconds": 600"#, r#""step_seconds": 3600"#),
        );
        let view = validate(&r).unwrap();
        let plot_width = WIDTH - MIN_LEFT_MARGIN - RIGHT_MARGIN;
        let axis = time_axis(view, plot_width);
        assert!(axis.dated);
        let label = 11.0 * FONT_SIZE * GLYPH_EM + TIME_LABEL_GAP;
        assert!(
            axis.ticks.len() as f64 * label <= plot_width + label,
            "{:?}",
            axis.ticks
        );
        assert!(axis.ticks.len() >= 4, "{:?}", axis.ticks);
    }

    #[test]
    fn paths_break_at_gaps() {
        let points = [Some((1.0, 2.0)), Some((3.0, 4.0)), None, Some((5.0, 6.0))];
        assert_eq!(path_data(&points), "M1.00,2.00 L3.00,4.00 M5.00,6.00");
        assert_eq!(path_data(&[None, None]), "");
        assert_eq!(path_data(&[None, Some((1.0, 1.0))]), "M1.00,1.00");
    }

    #[test]
    fn points_without_neighbours_are_marked() {
        let points = [
            Some((1.0, 1.0)),
            None,
            Some((2.0, 2.0)),
            Some((3.0, 3.0)),
            None,
            Some((4.0, 4.0)),
        ];
        assert_eq!(lone_points(&points), [(1.0, 1.0), (4.0, 4.0)]);
        assert_eq!(lone_points(&[Some((5.0, 5.0))]), [(5.0, 5.0)]);
        assert!(lone_points(&[None]).is_empty());
    }

    #[test]
    fn text_is_escaped_and_cut() {
        assert_eq!(escape(r#"a<b>&"c'"#), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(escape("x\ny\u{1}\u{202e}"), "x\\ny\\u{1}\\u{202e}");
        assert_eq!(escape("\u{FFFE}\u{FFFF}é"), "\u{FFFD}\u{FFFD}é");
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abcd", 4), "abcd");
        assert_eq!(truncate_middle("abcdefgh", 5), "ab…gh");
        assert_eq!(truncate_middle("abcdefgh", 6), "abc…gh");
        assert_eq!(truncate_middle("abcdef", 6), "abcdef");
        assert_eq!(truncate_middle("日本語のテキスト", 3), "日…ト");
    }

    #[test]
    fn wide_characters_count_twice() {
        assert_eq!(text_width("ab", 10.0), 2.0 * GLYPH_EM * 10.0);
        assert_eq!(text_width("日本", 10.0), 4.0 * GLYPH_EM * 10.0);
        assert_eq!(text_width("🦀", 10.0), 2.0 * GLYPH_EM * 10.0);
        assert!(!is_wide('é') && is_wide('한') && is_wide('Ａ'));
    }
}
