//! Prints a model-metrics response, saved or fetched live, as a readable table or as the CSV
//! contract.
//!
//! ```text
//! cargo run -p baseten-api --example metrics -- --input FILE [--format table|csv]
//! cargo run -p baseten-api --example metrics -- --model ID (--environment NAME | --deployment ID)
//!     [--mode current|summary|series] [--start MS] [--end MS] [--metric NAME]...
//!     [--base-url URL] [--api-key KEY] [--format table|csv]
//! ```
//!
//! With `--input`, `FILE` is a saved response of either metrics operation (both return
//! `GetModelMetricsResponseV1`); `-` reads standard input. Without it, the response is fetched
//! from the API through the typestate requests of [`baseten_api::requests`]: the model's
//! environment or deployment, in `--mode` (default `current`), over the window from `--start`
//! to `--end` (epoch milliseconds; a side left out is filled in by the server), for each
//! `--metric` (repeatable; none means the server's default set). The base URL and API key come
//! from `--base-url` and `--api-key`, else from `BASETEN_BASE_URL` and `BASETEN_API_KEY`.
//!
//! What the API would refuse is refused before anything is sent: a window with
//! `--mode current`, a start not before the end, a window longer than 7 days, and giving both
//! or neither of `--environment` and `--deployment`.
//!
//! The response is decoded, checked and rendered: `table` (the default) is a wide table with
//! units for people, `csv` is the long table of [`Validated::write_csv`]. Any failure prints one
//! line to standard error, never containing the API key, and exits non-zero (2 for bad flags
//! and refused requests, 1 otherwise).

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use baseten_api::index_mapped::IndexMappedResponse;
use baseten_api::metrics::{self, Validated, format_value};
use baseten_api::models::GetModelMetricsResponseV1;
use baseten_api::{Client, Window};

const USAGE: &str = "\
usage: metrics --input FILE|- [--format table|csv]
       metrics --model ID (--environment NAME | --deployment ID)
               [--mode current|summary|series] [--start MS] [--end MS] [--metric NAME]...
               [--base-url URL] [--api-key KEY] [--format table|csv]";

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
    let options = match parse_args(args)? {
        Command::Help => return write_stdout(|out| writeln!(out, "{USAGE}")),
        Command::Render(options) => options,
    };
    match options.source {
        Source::Saved(input) => {
            let bytes = read_input(&input)?;
            let response: GetModelMetricsResponseV1 = metrics::decode(&bytes)
                .map_err(|error| Failure::new(format!("{input}: invalid response: {error}")))?;
            let view = metrics::validate(&response)
                .map_err(|error| Failure::new(format!("{input}: misaligned response: {error}")))?;
            render(view, &options.format)
        }
        Source::Live(live) => {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|error| Failure::new(format!("starting the async runtime: {error}")))?;
            runtime.block_on(fetch_and_render(&live, &options.format))
        }
    }
}

/// Fetches the response `live` asks for and renders it.
async fn fetch_and_render(live: &Live, format: &Format) -> Result<(), Failure> {
    let client = live.client()?;
    match &live.target {
        Target::Environment(name) => {
            let request = client.environment_metrics(&live.model, name);
            send_and_render(request.metrics(&live.metrics), live, format).await
        }
        Target::Deployment(id) => {
            let request = client.deployment_metrics(&live.model, id);
            send_and_render(request.metrics(&live.metrics), live, format).await
        }
    }
}

/// Sends `request` in the mode `live` asks for and renders the result.
async fn send_and_render<O: baseten_api::runtime::MetricsOperation>(
    request: baseten_api::MetricsRequest<O>,
    live: &Live,
    format: &Format,
) -> Result<(), Failure> {
    let failed = |error: baseten_api::Error| Failure::new(format!("fetching metrics: {error}"));
    match live.mode {
        LiveMode::Current => {
            let result = request.current().send().await.map_err(failed)?;
            render(result.view(), format)
        }
        LiveMode::Summary(window) => {
            let result = request.summary(window).send().await.map_err(failed)?;
            render(result.view(), format)
        }
        LiveMode::Series(window) => {
            let result = request.series(window).send().await.map_err(failed)?;
            render(result.view(), format)
        }
    }
}

fn render<R: IndexMappedResponse>(view: Validated<'_, R>, format: &Format) -> Result<(), Failure> {
    match format {
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
    source: Source,
    format: Format,
}

/// Where the response comes from.
#[derive(Debug, PartialEq)]
enum Source {
    Saved(Input),
    Live(Live),
}

/// A saved response.
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

/// A request to send, already checked.
#[derive(Debug, PartialEq)]
struct Live {
    base_url: Option<String>,
    api_key: Option<ApiKey>,
    model: String,
    target: Target,
    mode: LiveMode,
    metrics: Vec<String>,
}

impl Live {
    /// The client: flags first, then `BASETEN_BASE_URL` / `BASETEN_API_KEY`.
    fn client(&self) -> Result<Client, Failure> {
        let mut builder = Client::builder();
        builder = match &self.base_url {
            Some(url) => builder.base_url(url),
            None => builder.base_url_from_env(),
        };
        builder = match &self.api_key {
            Some(ApiKey(key)) => builder.api_key(key),
            None => builder.api_key_from_env(),
        };
        // The client's errors never repeat the key.
        builder
            .build()
            .map_err(|error| Failure::refused(error.to_string()))
    }
}

/// The API key, kept out of `Debug` output.
#[derive(PartialEq)]
struct ApiKey(String);

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

#[derive(Debug, PartialEq)]
enum Target {
    Environment(String),
    Deployment(String),
}

#[derive(Debug, PartialEq)]
enum LiveMode {
    Current,
    Summary(Window),
    Series(Window),
}

/// Parses `--flag value` and `--flag=value` pairs; each flag at most once, except `--metric`.
///
/// Hand-written rather than a dependency: a handful of flags, one match arm each. Everything
/// the API would refuse about the request is refused here, before a client exists.
fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Command, Failure> {
    let mut input = None;
    let mut format = None;
    let mut base_url = None;
    let mut api_key = None;
    let mut model = None;
    let mut environment = None;
    let mut deployment = None;
    let mut mode = None;
    let mut start = None;
    let mut end = None;
    let mut metrics = Vec::new();
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
                .ok_or_else(|| Failure::usage(format!("{flag} needs a value")))
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
                    other => {
                        return Err(Failure::usage(format!(
                            "--format must be table or csv, not {other:?}"
                        )));
                    }
                };
                set_once(&mut format, parsed, &flag)?;
            }
            "--mode" => {
                let parsed = match value()?.as_str() {
                    "current" => Mode::Current,
                    "summary" => Mode::Summary,
                    "series" => Mode::Series,
                    other => {
                        return Err(Failure::usage(format!(
                            "--mode must be current, summary or series, not {other:?}"
                        )));
                    }
                };
                set_once(&mut mode, parsed, &flag)?;
            }
            "--start" => set_once(&mut start, millis(&flag, &value()?)?, &flag)?,
            "--end" => set_once(&mut end, millis(&flag, &value()?)?, &flag)?,
            "--base-url" => set_once(&mut base_url, value()?, &flag)?,
            // Never echoed: the value only ever goes to the client.
            "--api-key" => set_once(&mut api_key, ApiKey(value()?), &flag)?,
            "--model" => set_once(&mut model, value()?, &flag)?,
            "--environment" => set_once(&mut environment, value()?, &flag)?,
            "--deployment" => set_once(&mut deployment, value()?, &flag)?,
            "--metric" => metrics.push(value()?),
            other => return Err(Failure::usage(format!("unknown argument {other:?}"))),
        }
    }
    let format = format.unwrap_or(Format::Table);
    let live_flags_given = base_url.is_some()
        || api_key.is_some()
        || model.is_some()
        || environment.is_some()
        || deployment.is_some()
        || mode.is_some()
        || start.is_some()
        || end.is_some()
        || !metrics.is_empty();
    if let Some(input) = input {
        if live_flags_given {
            return Err(Failure::usage(
                "--input reads a saved response; it takes no request flags".to_owned(),
            ));
        }
        return Ok(Command::Render(Options {
            source: Source::Saved(input),
            format,
        }));
    }
    let model = model.ok_or_else(|| {
        Failure::usage("--input FILE, or --model to fetch live, is required".to_owned())
    })?;
    let target = match (environment, deployment) {
        (Some(name), None) => Target::Environment(name),
        (None, Some(id)) => Target::Deployment(id),
        (Some(_), Some(_)) => {
            return Err(Failure::usage(
                "give one of --environment and --deployment, not both".to_owned(),
            ));
        }
        (None, None) => {
            return Err(Failure::usage(
                "--environment NAME or --deployment ID is required".to_owned(),
            ));
        }
    };
    let mode = match mode.unwrap_or(Mode::Current) {
        Mode::Current if start.is_some() || end.is_some() => {
            return Err(Failure::refused(
                "--mode current is a snapshot taken now: it takes no --start or --end".to_owned(),
            ));
        }
        Mode::Current => LiveMode::Current,
        Mode::Summary => LiveMode::Summary(window(start, end)?),
        Mode::Series => LiveMode::Series(window(start, end)?),
    };
    Ok(Command::Render(Options {
        source: Source::Live(Live {
            base_url,
            api_key,
            model,
            target,
            mode,
            metrics,
        }),
        format,
    }))
}

/// The `--mode` flag, before its window is checked.
enum Mode {
    Current,
    Summary,
    Series,
}

/// The window from `--start` and `--end`; a side left out is the server's to fill in.
fn window(start: Option<i64>, end: Option<i64>) -> Result<Window, Failure> {
    match (start, end) {
        (Some(start), Some(end)) => {
            Window::new(start, end).map_err(|error| Failure::refused(error.to_string()))
        }
        (Some(start), None) => Ok(Window::since(start)),
        (None, Some(end)) => Ok(Window::until(end)),
        (None, None) => Ok(Window::last_hour()),
    }
}

/// An epoch-milliseconds flag value.
fn millis(flag: &str, value: &str) -> Result<i64, Failure> {
    value.parse().map_err(|_| {
        Failure::usage(format!(
            "{flag} must be milliseconds since the Unix epoch, not {value:?}"
        ))
    })
}

fn set_once<T>(slot: &mut Option<T>, value: T, flag: &str) -> Result<(), Failure> {
    if slot.replace(value).is_some() {
        return Err(Failure::usage(format!("{flag} given more than once")));
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

    /// A bad command line.
    fn usage(message: String) -> Self {
        Self {
            message: format!("{message} (see --help)"),
            exit_code: 2,
        }
    }

    /// A request the API would refuse (or a client that cannot be built): nothing is sent.
    fn refused(message: String) -> Self {
        Self {
            message,
            exit_code: 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parsed command, or the failure's exit code and message.
    fn parse(args: &[&str]) -> Result<Command, (u8, String)> {
        parse_args(args.iter().map(|arg| (*arg).to_owned()))
            .map_err(|failure| (failure.exit_code, failure.message))
    }

    fn live(args: &[&str]) -> Live {
        match parse(args) {
            Ok(Command::Render(Options {
                source: Source::Live(live),
                ..
            })) => live,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn flags_parse() {
        assert_eq!(
            parse(&["--input", "a.json"]),
            Ok(Command::Render(Options {
                source: Source::Saved(Input::File("a.json".into())),
                format: Format::Table
            }))
        );
        assert_eq!(
            parse(&["--format=csv", "--input=-"]),
            Ok(Command::Render(Options {
                source: Source::Saved(Input::Stdin),
                format: Format::Csv
            }))
        );
        assert_eq!(parse(&["--help"]), Ok(Command::Help));
        for bad in [
            &[][..],
            &["--input"],
            &["--input", "a", "--input", "b"],
            &["--input", "a", "--format", "xml"],
            &["--input", "a", "extra"],
            &["--verbose"],
            &["--input", "a", "--model", "m"],
            &["--model", "m", "--environment", "e", "--mode", "daily"],
            &["--model", "m", "--environment", "e", "--start", "soon"],
        ] {
            let failure = parse(bad);
            assert!(matches!(failure, Err((2, _))), "{bad:?}: {failure:?}");
        }
    }

    #[test]
    fn live_flags_parse() {
        let parsed = live(&[
            "--model=m",
            "--environment",
            "production",
            "--mode",
            "series",
            "--start",
            "1000",
            "--end=2000",
            "--metric",
            "a",
            "--metric",
            "b",
            "--base-url",
            "http://127.0.0.1:1",
            "--api-key",
            "secret-key-1",
        ]);
        assert_eq!(
            parsed,
            Live {
                base_url: Some("http://127.0.0.1:1".to_owned()),
                api_key: Some(ApiKey("secret-key-1".to_owned())),
                model: "m".to_owned(),
                target: Target::Environment("production".to_owned()),
                mode: LiveMode::Series(Window::new(1000, 2000).unwrap_or_default()),
                metrics: vec!["a".to_owned(), "b".to_owned()],
            }
        );
        assert!(!format!("{parsed:?}").contains("secret-key-1"));
        let parsed = live(&["--model", "m", "--deployment", "d"]);
        assert_eq!(
            (parsed.target, parsed.mode),
            (Target::Deployment("d".to_owned()), LiveMode::Current)
        );
        let open_end = live(&[
            "--model",
            "m",
            "--deployment",
            "d",
            "--mode=summary",
            "--start=5",
        ]);
        assert_eq!(open_end.mode, LiveMode::Summary(Window::since(5)));
        let open = live(&["--model", "m", "--deployment", "d", "--mode=series"]);
        assert_eq!(open.mode, LiveMode::Series(Window::last_hour()));
    }

    #[test]
    fn requests_the_api_would_refuse_are_refused() {
        for (args, wanted) in [
            (
                &["--mode", "current", "--start", "1"][..],
                "--mode current is a snapshot taken now: it takes no --start or --end",
            ),
            (&["--end", "1"][..], "takes no --start or --end"),
            (
                &["--mode", "series", "--start", "5", "--end", "5"],
                "window start 5 ms is not before its end 5 ms",
            ),
            (
                &["--mode", "summary", "--start", "0", "--end", "604800001"],
                "more than the 7 days",
            ),
        ] {
            let mut full = vec!["--model", "m", "--environment", "e", "--api-key", "secret"];
            full.extend_from_slice(args);
            match parse(&full) {
                Err((2, message)) => {
                    assert!(message.contains(wanted), "{args:?}: {message}");
                    assert!(!message.contains("secret"), "{message}");
                }
                other => panic!("{args:?}: {other:?}"),
            }
        }
        // Exactly 7 days is allowed.
        let week = ["--mode", "series", "--start", "0", "--end", "604800000"];
        let mut full = vec!["--model", "m", "--deployment", "d"];
        full.extend_from_slice(&week);
        assert!(parse(&full).is_ok());
        for targets in [&["--environment", "e", "--deployment", "d"][..], &[]] {
            let mut full = vec!["--model", "m"];
            full.extend_from_slice(targets);
            assert!(matches!(parse(&full), Err((2, _))), "{targets:?}");
        }
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
