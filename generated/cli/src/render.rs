//! The text formats of a validated response the library does not write itself: a table for
//! people and terminal-safe JSON.

use std::io::{self, Write};

use std::collections::BTreeMap;

use baseten_api::error::is_unprintable;
use baseten_api::metrics::{
    IndexMappedResponse, MetricsView, SeriesStats, Summary, Unit, format_labels,
};

use crate::terminal::shown;
use crate::time::{format_duration, format_time};

/// The longest cell a table shows, in characters; longer text is cut and ends with `…`, so no
/// name or label can make a table unreadable (or overflow any width arithmetic).
pub const MAX_CELL: usize = 60;

/// A table for people: a title line, then one row per series. A `SERIES` response shows each
/// series' points, minimum, mean, maximum and last value; the others show the one value.
pub fn table<R: IndexMappedResponse>(view: MetricsView<'_, R>) -> String {
    let series = view
        .all_series()
        .zip(view.series_stats())
        .map(|(series, stats)| (series.name, series.labels, series.unit(), stats));
    let window = TableWindow {
        mode: view.mode(),
        start_ms: view.window_start_ms(),
        end_ms: view.window_end_ms(),
        steps: view.step_count(),
        step_seconds: view.step_seconds(),
    };
    table_of(&window, series)
}

/// [`table`] of a response summarized straight from its JSON (`metrics::summarize`): the same
/// text, without the response's values ever held in memory.
pub fn summary_table<R: IndexMappedResponse>(summary: &Summary<R>) -> String {
    let series = summary
        .series()
        .map(|series| (series.name, series.labels, series.unit, series.stats));
    let window = TableWindow {
        mode: summary.mode(),
        start_ms: summary.window_start_ms(),
        end_ms: summary.window_end_ms(),
        steps: summary.step_count(),
        step_seconds: summary.step_seconds(),
    };
    table_of(&window, series)
}

/// What the table's title says.
struct TableWindow<'a> {
    mode: Option<&'a str>,
    start_ms: i64,
    end_ms: i64,
    steps: usize,
    step_seconds: Option<i64>,
}

fn table_of<'a>(
    window: &TableWindow<'_>,
    series: impl Iterator<Item = (&'a str, &'a BTreeMap<String, String>, Unit, SeriesStats)>,
) -> String {
    // The mode is the server's text: a mode this crate does not know is shown as sent, escaped.
    let mut title = format!(
        "{} from {} to {}",
        cell_text(window.mode.unwrap_or("metrics")),
        format_time(window.start_ms),
        format_time(window.end_ms),
    );
    let stepped = window.mode == Some("SERIES");
    if stepped {
        title.push_str(&format!(", {} steps", window.steps));
        if let Some(seconds) = window.step_seconds {
            title.push_str(&format!(
                " of {}",
                format_duration(seconds.unsigned_abs().saturating_mul(1000))
            ));
        }
    }
    let header: &[&str] = if stepped {
        &[
            "metric", "labels", "unit", "points", "min", "mean", "max", "last",
        ]
    } else {
        &["metric", "labels", "unit", "value"]
    };
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|h| (*h).to_owned()).collect()];
    for (name, labels, unit, stats) in series {
        let mut row = vec![
            name.to_owned(),
            format_labels(labels),
            unit.symbol().unwrap_or("").to_owned(),
        ];
        if stepped {
            row.extend(series_summary(&stats));
        } else {
            row.push(human(stats.first));
        }
        rows.push(row);
    }
    let mut text = title;
    text.push('\n');
    text.push_str(&layout(&rows));
    text
}

/// Points with data, minimum, mean, maximum and last value of a series.
fn series_summary(stats: &SeriesStats) -> [String; 5] {
    [
        format!("{}/{}", stats.with_data, stats.steps),
        human(stats.min),
        human(stats.mean()),
        human(stats.max),
        human(stats.last),
    ]
}

/// A value for people: up to 6 decimals, trailing zeros dropped; an exponent for very large or
/// very small magnitudes; `-` for no data.
pub fn human(value: Option<f64>) -> String {
    let Some(value) = value else {
        return "-".to_owned();
    };
    let magnitude = value.abs();
    if magnitude != 0.0 && !(1e-6..1e15).contains(&magnitude) {
        return format!("{value:e}");
    }
    let text = format!("{value:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        return "0".to_owned();
    }
    text.to_owned()
}

/// Lays rows out in columns separated by two spaces, the first row underlined.
fn layout(rows: &[Vec<String>]) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|row| row.iter().map(|cell| cell_text(cell)).collect())
        .collect();
    let columns = cells.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|column| {
            cells
                .iter()
                .filter_map(|row| row.get(column))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut text = String::new();
    for (index, row) in cells.iter().enumerate() {
        let mut line = String::new();
        for (column, cell) in row.iter().enumerate() {
            if column > 0 {
                line.push_str("  ");
            }
            line.push_str(cell);
            let width = widths.get(column).copied().unwrap_or(0);
            let pad = width.saturating_sub(cell.chars().count());
            line.extend(std::iter::repeat_n(' ', pad));
        }
        text.push_str(line.trim_end());
        text.push('\n');
        if index == 0 {
            let total = widths.iter().sum::<usize>() + 2 * widths.len().saturating_sub(1);
            text.extend(std::iter::repeat_n('-', total));
            text.push('\n');
        }
    }
    text
}

/// A cell on one line and at most [`MAX_CELL`] characters: shown through the one terminal
/// sanitiser ([`shown`]), then cut (counting the escapes, so the cell is never wider).
fn cell_text(text: &str) -> String {
    let shown = shown(text);
    if shown.chars().count() <= MAX_CELL {
        return shown;
    }
    let mut cell: String = shown.chars().take(MAX_CELL - 1).collect();
    cell.push('…');
    cell
}

/// The response as pretty JSON, followed by a newline. Every character the sanitiser would
/// escape is written as a `\uXXXX` escape (serde_json escapes only C0 controls): the same JSON,
/// but nothing in it can drive a terminal.
pub fn write_json<R: serde::Serialize, W: Write>(response: &R, mut out: W) -> io::Result<()> {
    let formatter = TerminalSafeJson(serde_json::ser::PrettyFormatter::new());
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    response.serialize(&mut serializer)?;
    out.write_all(b"\n")
}

/// serde_json's pretty printer, escaping in strings what [`shown`] would escape.
struct TerminalSafeJson<'a>(serde_json::ser::PrettyFormatter<'a>);

impl serde_json::ser::Formatter for TerminalSafeJson<'_> {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut start = 0;
        for (at, c) in fragment.char_indices() {
            if is_unprintable(c) {
                writer.write_all(&fragment.as_bytes()[start..at])?;
                let mut units = [0; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(writer, "\\u{unit:04x}")?;
                }
                start = at + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }

    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_array(writer)
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object(writer)
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_value(writer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_well() {
        assert_eq!(human(None), "-");
        assert_eq!(human(Some(2.0)), "2");
        assert_eq!(human(Some(-0.0)), "0");
        assert_eq!(human(Some(0.123_456_789)), "0.123457");
        assert_eq!(human(Some(1e21)), "1e21");
        assert_eq!(human(Some(1e-7)), "1e-7");
    }

    #[test]
    fn cells_stay_short_and_on_one_line() {
        assert_eq!(cell_text("a\nb"), "a\\nb");
        let long = "x".repeat(70_000);
        let cell = cell_text(&long);
        assert_eq!(cell.chars().count(), MAX_CELL);
        assert!(cell.ends_with('…'));
        assert_eq!(cell_text(&"y".repeat(MAX_CELL)), "y".repeat(MAX_CELL));
        // Escapes count: a cell of control characters is cut like any other.
        let escaped = cell_text(&"\u{1b}".repeat(MAX_CELL));
        assert_eq!(escaped.chars().count(), MAX_CELL);
        assert!(escaped.starts_with("\\u{1b}\\u{1b}") && escaped.ends_with('…'));
        assert_eq!(cell_text("\u{202e}x"), "\\u{202e}x");
    }

    #[test]
    fn json_escapes_what_the_sanitiser_escapes_and_stays_the_same_json() {
        let text = "a\u{7f}\u{9b}\u{1b}\u{202e}\u{e0001}\u{2028}é😀";
        let mut out = Vec::new();
        write_json(&serde_json::json!({ text: [text] }), &mut out).unwrap_or_default();
        let written = String::from_utf8(out).unwrap_or_default();
        assert_eq!(
            written,
            "{\n  \"a\\u007f\\u009b\\u001b\\u202e\\udb40\\udc01\\u2028é😀\": [\n    \"a\\u007f\\u009b\\u001b\\u202e\\udb40\\udc01\\u2028é😀\"\n  ]\n}\n"
        );
        let back: serde_json::Value = serde_json::from_str(&written).unwrap_or_default();
        assert_eq!(back, serde_json::json!({ text: [text] }));
    }

    #[test]
    fn columns_line_up() {
        let rows = vec![
            vec!["a".to_owned(), "bb".to_owned()],
            vec!["ccc".to_owned(), "d".to_owned()],
        ];
        assert_eq!(layout(&rows), "a    bb\n-------\nccc  d\n");
    }
}
