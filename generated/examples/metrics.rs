//! Prints a saved model-metrics response as a readable table, or as the CSV contract.
//!
//! ```text
//! cargo run -p baseten-api --example metrics -- --input FILE [--format table|csv]
//! ```
//!
//! `FILE` is a saved response of either metrics operation (both return
//! `GetModelMetricsResponseV1`); `-` reads standard input. The response is decoded, validated
//! and rendered: `table` (the default) is a wide table with units for people, `csv` is the long
//! table of [`Validated::write_csv`]. Any failure prints one line to standard error and exits
//! non-zero (2 for bad flags, 1 otherwise).
//!
//! The steps are kept apart (parse arguments → read bytes → decode → validate → render) so that
//! live fetching can replace "read bytes" with a request built from more flags.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use baseten_api::index_mapped::IndexMappedResponse;
use baseten_api::metrics::{self, Validated, format_value};
use baseten_api::models::GetModelMetricsResponseV1;

const USAGE: &str = "usage: metrics --input FILE|- [--format table|csv]";

fn main() -> ExitCode {
    match run(std::env::args().skip(1)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            // If even stderr is gone there is nobody left to tell.
            let _ = writeln!(io::stderr(), "error: {}", one_line(&failure.message));
            ExitCode::from(failure.exit_code)
        }
    }
}

fn run(args: impl IntoIterator<Item = String>) -> Result<(), Failure> {
    let options = match parse_args(args).map_err(Failure::usage)? {
        Command::Help => return write_stdout(|out| writeln!(out, "{USAGE}")),
        Command::Render(options) => options,
    };
    let bytes = read_input(&options.input)?;
    let response: GetModelMetricsResponseV1 = metrics::decode(&bytes)
        .map_err(|error| Failure::new(format!("{}: invalid response: {error}", options.input)))?;
    let view = metrics::validate(&response).map_err(|error| {
        Failure::new(format!("{}: misaligned response: {error}", options.input))
    })?;
    match options.format {
        Format::Table => write_stdout(|out| out.write_all(render_table(view).as_bytes())),
        Format::Csv => write_stdout(|out| view.write_csv(out)),
    }
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
enum Command {
    Help,
    Render(Options),
}

#[derive(Debug, PartialEq)]
struct Options {
    input: Input,
    format: Format,
}

/// Where the response comes from.
#[derive(Debug, PartialEq)]
enum Input {
    Stdin,
    File(PathBuf),
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Stdin => f.write_str("<stdin>"),
            Self::File(path) => write!(f, "{}", path.display()),
        }
    }
}

#[derive(Debug, PartialEq)]
enum Format {
    Table,
    Csv,
}

/// Parses `--flag value` and `--flag=value` pairs; each flag at most once.
///
/// Hand-written rather than a dependency: a handful of flags, and new ones (for fetching live)
/// are one match arm each.
fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut input = None;
    let mut format = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "-h" || arg == "--help" {
            return Ok(Command::Help);
        }
        let (flag, inline_value) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => {
                (flag.to_owned(), Some(value.to_owned()))
            }
            _ => (arg, None),
        };
        let mut value = || {
            inline_value
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--input" => {
                let value = value()?;
                let parsed = if value == "-" {
                    Input::Stdin
                } else {
                    Input::File(PathBuf::from(value))
                };
                set_once(&mut input, parsed, &flag)?;
            }
            "--format" => {
                let parsed = match value()?.as_str() {
                    "table" => Format::Table,
                    "csv" => Format::Csv,
                    other => return Err(format!("--format must be table or csv, not {other:?}")),
                };
                set_once(&mut format, parsed, &flag)?;
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Command::Render(Options {
        input: input.ok_or("--input is required")?,
        format: format.unwrap_or(Format::Table),
    }))
}

fn set_once<T>(slot: &mut Option<T>, value: T, flag: &str) -> Result<(), String> {
    if slot.replace(value).is_some() {
        return Err(format!("{flag} given more than once"));
    }
    Ok(())
}

fn read_input(input: &Input) -> Result<Vec<u8>, Failure> {
    let read = match input {
        Input::Stdin => {
            let mut bytes = Vec::new();
            io::stdin().lock().read_to_end(&mut bytes).map(|_| bytes)
        }
        Input::File(path) => std::fs::read(path),
    };
    read.map_err(|error| Failure::new(format!("{input}: cannot read: {error}")))
}

/// Writes to stdout through `write`, then flushes; a closed pipe is a failure, not a panic.
fn write_stdout(
    write: impl FnOnce(&mut io::StdoutLock<'static>) -> io::Result<()>,
) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(|error| Failure::new(format!("writing output: {error}")))
}

/// The wide table: a header line about the window, then a column per series with its unit.
fn render_table<R: IndexMappedResponse>(view: Validated<'_, R>) -> String {
    let table = view.wide_table();
    let mut header = vec!["step start (UTC)".to_owned(), "length".to_owned()];
    header.extend(table.columns.iter().map(|series| {
        let unit = series.unit().symbol().or(series.unit_hint).unwrap_or("?");
        format!(
            "{}{} [{unit}]",
            one_line(series.name),
            label_text(series.labels)
        )
    }));
    let mut rows = vec![header];
    rows.extend(table.rows().map(|step| {
        let mut row = vec![utc(step.start_ms), duration(step.duration_ms())];
        row.extend(
            step.cells()
                .map(|cell| cell.map_or_else(|| "-".to_owned(), format_value)),
        );
        row
    }));

    let mut widths: Vec<usize> = Vec::new();
    for row in &rows {
        for (column, cell) in row.iter().enumerate() {
            let width = cell.chars().count();
            match widths.get_mut(column) {
                Some(max) => *max = (*max).max(width),
                None => widths.push(width),
            }
        }
    }

    let window = view.window_end_ms().abs_diff(view.window_start_ms());
    let mut text = format!(
        "{} from {} to {} ({}), {} step(s){}, {} series\n",
        view.mode().unwrap_or("unknown mode"),
        utc(view.window_start_ms()),
        utc(view.window_end_ms()),
        duration(window),
        view.step_count(),
        view.step_seconds()
            .map(|seconds| format!(" of nominally {seconds}s"))
            .unwrap_or_default(),
        view.series_count(),
    );
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(column, (cell, &width))| {
                // Times and names read left to right; numbers line up on the right.
                if column == 0 {
                    format!("{cell:<width$}")
                } else {
                    format!("{cell:>width$}")
                }
            })
            .collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    text
}

/// `{key="value", ...}` with quotes and control characters escaped; empty for `{}`.
fn label_text(labels: &BTreeMap<String, String>) -> String {
    if labels.is_empty() {
        return String::new();
    }
    let pairs: Vec<String> = labels
        .iter()
        .map(|(key, value)| format!("{}={value:?}", one_line(key)))
        .collect();
    format!("{{{}}}", pairs.join(", "))
}

/// Epoch milliseconds as `YYYY-MM-DD HH:MM:SS.mmm`, in UTC.
fn utc(epoch_ms: i64) -> String {
    let days = epoch_ms.div_euclid(86_400_000);
    let ms_of_day = epoch_ms.rem_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}.{:03}",
        ms_of_day / 3_600_000,
        ms_of_day / 60_000 % 60,
        ms_of_day / 1000 % 60,
        ms_of_day % 1000
    )
}

/// Proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
/// Any i64 day count from epoch milliseconds (|days| < 1.1e11) stays far from overflow.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// A length like `6h`, `20m`, `30s`, `1m 30.5s` or `0.703s`.
fn duration(ms: u64) -> String {
    let (hours, minutes) = (ms / 3_600_000, ms / 60_000 % 60);
    let (seconds, millis) = (ms / 1000 % 60, ms % 1000);
    let mut parts = Vec::new();
    if hours > 0 {
        parts.push(format!("{hours}h"));
    }
    if minutes > 0 {
        parts.push(format!("{minutes}m"));
    }
    if millis > 0 {
        let fraction = format!("{millis:03}");
        parts.push(format!("{seconds}.{}s", fraction.trim_end_matches('0')));
    } else if seconds > 0 || parts.is_empty() {
        parts.push(format!("{seconds}s"));
    }
    parts.join(" ")
}

/// Escapes line breaks and other control characters so a message stays on one line.
fn one_line(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

/// A message for stderr and the exit code that goes with it.
struct Failure {
    message: String,
    exit_code: u8,
}

impl Failure {
    fn new(message: String) -> Self {
        Self {
            message,
            exit_code: 1,
        }
    }

    fn usage(message: String) -> Self {
        Self {
            message: format!("{message} ({USAGE})"),
            exit_code: 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Command, String> {
        parse_args(args.iter().map(|arg| (*arg).to_owned()))
    }

    #[test]
    fn flags_parse() {
        assert_eq!(
            parse(&["--input", "a.json"]),
            Ok(Command::Render(Options {
                input: Input::File("a.json".into()),
                format: Format::Table
            }))
        );
        assert_eq!(
            parse(&["--format=csv", "--input=-"]),
            Ok(Command::Render(Options {
                input: Input::Stdin,
                format: Format::Csv
            }))
        );
        assert_eq!(parse(&["--help"]), Ok(Command::Help));
        assert!(parse(&[]).is_err());
        assert!(parse(&["--input"]).is_err());
        assert!(parse(&["--input", "a", "--input", "b"]).is_err());
        assert!(parse(&["--input", "a", "--format", "xml"]).is_err());
        assert!(parse(&["--input", "a", "extra"]).is_err());
        assert!(parse(&["--verbose"]).is_err());
    }

    #[test]
    fn times_and_lengths_read_well() {
        assert_eq!(utc(0), "1970-01-01 00:00:00.000");
        assert_eq!(utc(1_783_191_332_703), "2026-07-04 18:55:32.703");
        assert_eq!(utc(-1), "1969-12-31 23:59:59.999");
        assert_eq!(utc(951_782_400_000), "2000-02-29 00:00:00.000");
        let _ = (utc(i64::MIN), utc(i64::MAX));
        assert_eq!(duration(0), "0s");
        assert_eq!(duration(703), "0.703s");
        assert_eq!(duration(30_000), "30s");
        assert_eq!(duration(90_500), "1m 30.5s");
        assert_eq!(duration(1_200_000), "20m");
        assert_eq!(duration(21_600_000), "6h");
        assert_eq!(duration(3_600_000 + 1000), "1h 1s");
    }

    #[test]
    fn messages_stay_on_one_line() {
        assert_eq!(one_line("a\nb\tc\"d"), "a\\nb\\tc\"d");
    }
}
