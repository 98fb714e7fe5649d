//! `baseten-metrics`: fetch, show and watch Baseten model metrics as a table, the CSV contract,
//! a wide CSV, JSON or SVG line charts.
//!
//! The binary is a thin shell over [`run`], which takes its arguments, environment
//! ([`Context`]) and output streams as parameters, so tests drive it in process. See the
//! package's README for the commands.

mod render;
mod terminal;
mod time;

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use baseten_api::error::RegisteredSecret;
use baseten_api::error::ServerText;
use baseten_api::metrics::IndexMappedResponse;
use baseten_api::metrics::{self, MetricsView};
use baseten_api::models::GetModelMetricsResponseV1;
use baseten_api::requests::{BoxedOperation, MetricsOperation, MetricsRequest, Watch, Window};
use baseten_api::{Client, Error, client::RetryPolicy};
use baseten_charts::SvgChart;
use clap::{Args, Parser, Subcommand, ValueEnum};
use jiff::Timestamp;

pub use render::MAX_CELL;
pub use terminal::shown;
pub use time::{format_time, parse_since, parse_time};

/// What the process knows besides its arguments: the API key and base URL from the
/// environment (`BASETEN_API_KEY`, `BASETEN_BASE_URL`) and the time now, for `--since`.
#[derive(Clone)]
pub struct Context {
    /// The API key, if set.
    pub api_key: Option<String>,
    /// The base URL, if set; `--base-url` overrides it.
    pub base_url: Option<String>,
    /// The time `--since` counts back from.
    pub now: Timestamp,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The key is a secret: never printed.
        f.debug_struct("Context")
            .field("api_key", &self.api_key.as_ref().map(|_| "…"))
            .field("base_url", &self.base_url)
            .field("now", &self.now)
            .finish()
    }
}

impl Context {
    /// The real environment and clock.
    pub fn from_process() -> Self {
        let var = |name: &str| std::env::var(name).ok().filter(|value| !value.is_empty());
        Self {
            api_key: var(baseten_api::client::API_KEY_ENV),
            base_url: var(baseten_api::client::BASE_URL_ENV),
            now: Timestamp::now(),
        }
    }
}

#[derive(Debug, Parser)]
#[command(
    name = "baseten-metrics",
    version,
    about = "Fetch, show and watch Baseten model metrics."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Fetch metrics from the API and print them.
    Fetch {
        #[command(flatten)]
        target: Target,
        /// How values are aggregated.
        #[arg(long, value_enum, default_value_t = Mode::Current)]
        mode: Mode,
        #[command(flatten)]
        window: WindowArgs,
        #[command(flatten)]
        output: Output,
    },
    /// Print a saved response (a file, or `-` for standard input).
    Show {
        /// The saved response: a JSON file, or `-` for standard input.
        file: PathBuf,
        #[command(flatten)]
        output: Output,
    },
    /// Poll CURRENT metrics and redraw them, waiting as long as the server asks when rate
    /// limited.
    Watch {
        #[command(flatten)]
        target: Target,
        /// Seconds between polls.
        #[arg(long, default_value_t = 10.0)]
        interval: f64,
        /// Stop after this many polls (by default, never).
        #[arg(long)]
        count: Option<u64>,
        #[command(flatten)]
        output: Output,
    },
}

/// Which model's metrics, and where.
#[derive(Debug, Args)]
struct Target {
    /// The model id.
    #[arg(long)]
    model: String,
    /// An environment of the model, e.g. `production`.
    #[arg(
        long,
        conflicts_with = "deployment",
        required_unless_present = "deployment"
    )]
    environment: Option<String>,
    /// A deployment of the model.
    #[arg(long)]
    deployment: Option<String>,
    /// Metric names to ask for (repeatable); none asks for the server's default set.
    #[arg(long = "metric", value_name = "NAME")]
    metrics: Vec<String>,
    /// The API's base URL (default: BASETEN_BASE_URL, else the public API).
    #[arg(long)]
    base_url: Option<String>,
}

/// The window of a SUMMARY or SERIES request.
#[derive(Debug, Args)]
struct WindowArgs {
    /// Start this long before now, e.g. `1h`, `30m`, `2d`.
    #[arg(long, conflicts_with = "start", value_name = "DURATION")]
    since: Option<String>,
    /// Start: RFC 3339 (`2026-07-04T19:00:00Z`) or epoch milliseconds.
    #[arg(long, value_name = "TIME")]
    start: Option<String>,
    /// End: RFC 3339 or epoch milliseconds (default: left to the server, i.e. now).
    #[arg(long, value_name = "TIME")]
    end: Option<String>,
}

#[derive(Debug, Args)]
struct Output {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Mode {
    Current,
    Summary,
    Series,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A table for people.
    Table,
    /// The long CSV contract: a row per step and series.
    Csv,
    /// A row per step, a column per series.
    WideCsv,
    /// The response as JSON.
    Json,
    /// Line charts, a panel per metric.
    Svg,
}

/// A failure: its one-line message and exit code.
#[derive(Debug)]
struct Failure {
    message: String,
    code: u8,
}

impl Failure {
    /// Something went wrong while doing what was asked: exit 1.
    fn failed(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            code: 1,
        }
    }

    /// What was asked cannot be done (bad arguments, a request the API would refuse): exit 2.
    fn refused(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            code: 2,
        }
    }
}

/// Runs the command line `args` (the first item is the program name) and returns the exit
/// code: 0 on success, 1 when fetching, reading, checking or writing failed, 2 for bad
/// arguments and requests the API would refuse (nothing is sent then). A failure is one line
/// on `stderr`, `error: …`, never containing the API key. `--help` and `--version` print to
/// `stdout` and succeed.
pub fn run<I, T>(
    args: I,
    context: &Context,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            let text = error.render().to_string();
            return if error.use_stderr() {
                // clap's first line is `error: …`; the usage after it would make it several.
                let first = text.lines().next().unwrap_or("error: invalid arguments");
                let _ = writeln!(stderr, "{} (see --help)", shown(first));
                ExitCode::from(2)
            } else {
                let _ = stdout.write_all(text.as_bytes());
                ExitCode::SUCCESS
            };
        }
    };
    // The key is scrubbed from everything shown while the CLI runs, saved responses included.
    let _scrubbed = context.api_key.as_deref().map(RegisteredSecret::new);
    match execute(cli, context, stdout, stderr) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            let _ = writeln!(stderr, "error: {}", shown(&failure.message));
            ExitCode::from(failure.code)
        }
    }
}

fn execute(
    cli: Cli,
    context: &Context,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Failure> {
    match cli.command {
        Command::Show { file, output } => show(&file, output.format, stdout),
        Command::Fetch {
            target,
            mode,
            window,
            output,
        } => {
            let window = window_for(mode, &window, context.now)?;
            let client = client(&target, context, RetryPolicy::default())?;
            block_on(fetch(&client, &target, mode, window, output.format, stdout))
        }
        Command::Watch {
            target,
            interval: seconds,
            count,
            output,
        } => {
            let interval = Duration::try_from_secs_f64(seconds).map_err(|_| {
                Failure::refused(format!("--interval {seconds}: not a number of seconds"))
            })?;
            if interval < MIN_INTERVAL {
                return Err(Failure::refused(format!(
                    "--interval {seconds}: polls are at least {}s apart",
                    MIN_INTERVAL.as_secs()
                )));
            }
            // Each poll is one request: a 429 pauses the endpoint in the client, and the next
            // poll waits there until the server's time has passed — unless the server asks for
            // longer than the client waits, which fails that poll alone.
            let policy = RetryPolicy::none();
            let client = client(&target, context, policy)?;
            let out = Out {
                interval,
                count,
                format: output.format,
                longest_wait: policy.max_retry_after(),
            };
            block_on(watch(&client, &target, &out, stdout, stderr))
        }
    }
}

/// Reads, decodes, checks (as a fetched response is checked) and prints a saved response.
fn show(file: &PathBuf, format: Format, stdout: &mut dyn Write) -> Result<(), Failure> {
    let name = if file.as_os_str() == "-" {
        "<stdin>".to_owned()
    } else {
        file.display().to_string()
    };
    let bytes = if file.as_os_str() == "-" {
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut io::stdin().lock(), &mut bytes)
            .map_err(|error| Failure::failed(format!("reading {name}: {error}")))?;
        bytes
    } else {
        std::fs::read(file).map_err(|error| Failure::failed(format!("reading {name}: {error}")))?
    };
    if format == Format::Csv {
        // The compact path: memory near the input's size, the same output and errors.
        return metrics::export_csv::<GetModelMetricsResponseV1, _>(&bytes, stdout).map_err(
            |error| match error {
                metrics::ExportError::Write(error) => Failure::failed(format!("writing: {error}")),
                other => Failure::failed(format!("{name}: {other}")),
            },
        );
    }
    if format == Format::Table {
        // The same table, folded from the JSON as it is read: no value is held.
        // Its errors read as the typed path's: `invalid response: …` or the check that failed.
        let summary = metrics::summarize::<GetModelMetricsResponseV1>(&bytes)
            .map_err(|error| Failure::failed(format!("{name}: {error}")))?;
        drop(bytes);
        return write(stdout, render::summary_table(&summary).as_bytes());
    }
    let response: GetModelMetricsResponseV1 = metrics::decode(&bytes)
        .map_err(|error| Failure::failed(format!("{name}: invalid response: {error}")))?;
    let view = metrics::validate_response(&response)
        .map_err(|error| Failure::failed(format!("{name}: {error}")))?;
    render(view, format, stdout)
}

/// The window `mode` sends: none for CURRENT (refusing one), the one given, else the last hour.
fn window_for(mode: Mode, args: &WindowArgs, now: Timestamp) -> Result<Option<Window>, Failure> {
    let given = args.since.is_some() || args.start.is_some() || args.end.is_some();
    if mode == Mode::Current {
        return if given {
            Err(Failure::refused(
                "--mode current takes no window (--since, --start, --end)",
            ))
        } else {
            Ok(None)
        };
    }
    let start = match (&args.since, &args.start) {
        (Some(since), _) => Some(parse_since(since, now).map_err(Failure::refused)?),
        (None, Some(start)) => {
            Some(parse_time(start).map_err(|e| Failure::refused(format!("--start: {e}")))?)
        }
        (None, None) => None,
    };
    let end = match &args.end {
        Some(end) => Some(parse_time(end).map_err(|e| Failure::refused(format!("--end: {e}")))?),
        None => None,
    };
    let refused = |error: baseten_api::requests::WindowError| Failure::refused(error.to_string());
    let window = match (start, end) {
        (Some(start), Some(end)) => Window::new(start, end).map_err(refused)?,
        (Some(start), None) => {
            // The server ends an open window now: check it as ending now by this clock, so
            // that `--since 30d` or a start in 1970 is refused here rather than sent.
            Window::new(start, now.as_millisecond()).map_err(refused)?;
            Window::since(start)
        }
        // The server starts it an hour before the end: always a window it takes.
        (None, Some(end)) => Window::until(end),
        (None, None) => Window::last_hour(),
    };
    Ok(Some(window))
}

/// The client: `--base-url`, else the context's base URL, else the public API; the context's
/// API key.
fn client(target: &Target, context: &Context, retry: RetryPolicy) -> Result<Client, Failure> {
    let mut builder = Client::builder().retry_policy(retry);
    if let Some(key) = &context.api_key {
        builder = builder.api_key(key);
    }
    if let Some(url) = target.base_url.as_ref().or(context.base_url.as_ref()) {
        builder = builder.base_url(url);
    }
    // The client's errors never repeat the key.
    builder
        .build()
        .map_err(|error| Failure::refused(error.to_string()))
}

fn block_on<F: Future<Output = Result<(), Failure>>>(future: F) -> Result<(), Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| Failure::failed(format!("starting the async runtime: {error}")))?
        .block_on(future)
}

async fn fetch(
    client: &Client,
    target: &Target,
    mode: Mode,
    window: Option<Window>,
    format: Format,
    stdout: &mut dyn Write,
) -> Result<(), Failure> {
    send(
        metrics_request(client, target)?,
        mode,
        window,
        format,
        stdout,
    )
    .await
}

/// The request for the target's endpoint, an environment's or a deployment's, as one type: the
/// one place the two differ.
fn metrics_request(
    client: &Client,
    target: &Target,
) -> Result<MetricsRequest<BoxedOperation<GetModelMetricsResponseV1>>, Failure> {
    let request = match (&target.environment, &target.deployment) {
        (Some(environment), _) => client
            .environment_metrics(&target.model, environment)
            .boxed(),
        (None, Some(deployment)) => client.deployment_metrics(&target.model, deployment).boxed(),
        (None, None) => return Err(Failure::refused("give --environment or --deployment")),
    };
    Ok(request.metrics(&target.metrics))
}

/// Sends `request` in `mode` and prints the checked result.
async fn send<O>(
    request: MetricsRequest<O>,
    mode: Mode,
    window: Option<Window>,
    format: Format,
    stdout: &mut dyn Write,
) -> Result<(), Failure>
where
    O: MetricsOperation<Response = GetModelMetricsResponseV1>,
{
    let failed = |error: Error| Failure::failed(format!("fetching metrics: {error}"));
    let window = window.unwrap_or_else(Window::last_hour);
    match mode {
        Mode::Current => {
            let result = request.current().send().await.map_err(failed)?;
            render(result.view(), format, stdout)
        }
        Mode::Summary => {
            let result = request.summary(window).send().await.map_err(failed)?;
            render(result.view(), format, stdout)
        }
        Mode::Series => {
            let result = request.series(window).send().await.map_err(failed)?;
            render(result.view(), format, stdout)
        }
    }
}

/// The shortest `watch --interval`: an interval of 0 would poll in a tight loop.
pub const MIN_INTERVAL: Duration = Duration::from_secs(1);

/// Clears the terminal and moves to its top left, before each redraw of a table.
const CLEAR_SCREEN: &str = "\x1b[H\x1b[2J";

/// Polls CURRENT until `count` requests have been sent (or forever), `interval` apart on the
/// library's poller ([`MetricsRequest::watch`]: ticks never overlap, missed ones are skipped),
/// printing each answer; a table is redrawn in place. Each refusal is reported on `stderr`
/// with when the next poll really goes out: the client holds it until a wait it sits out has
/// passed, and a wait longer than it sits out fails that poll alone.
async fn watch(
    client: &Client,
    target: &Target,
    out: &Out,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Failure> {
    let request = metrics_request(client, target)?.current();
    out.show_each(request.watch(out.interval), stdout, stderr)
        .await
}

/// How `watch` polls and prints.
struct Out {
    interval: Duration,
    /// How many requests to send; `None`: forever.
    count: Option<u64>,
    format: Format,
    /// The longest `Retry-After` the client sits out (its policy's `max_retry_after`).
    longest_wait: Duration,
}

impl Out {
    async fn show_each<O>(
        &self,
        watch: Watch<O, baseten_api::requests::mode::CurrentMode>,
        stdout: &mut dyn Write,
        stderr: &mut dyn Write,
    ) -> Result<(), Failure>
    where
        O: MetricsOperation + Clone,
        O::Response: serde::Serialize,
    {
        // The first poll at once: one user, nobody to spread out from.
        let mut watch = watch.jitter(Duration::ZERO);
        // Requests sent, not ticks: a tick the client held back sent nothing.
        let mut sent: u64 = 0;
        while self.count.is_none_or(|count| sent < count) {
            let Some(answer) = watch.next().await else {
                break;
            };
            match answer {
                Ok(result) => {
                    sent += 1;
                    if self.format == Format::Table {
                        write(stdout, CLEAR_SCREEN.as_bytes())?;
                    }
                    render(result.view(), self.format, stdout)?;
                    stdout
                        .flush()
                        .map_err(|error| Failure::failed(format!("writing: {error}")))?;
                }
                Err(Error::RateLimited {
                    retry_after,
                    attempts,
                    ..
                }) => {
                    sent += u64::from(attempts);
                    let _ = writeln!(stderr, "{}", self.refusal(retry_after));
                }
                Err(error) => return Err(Failure::failed(format!("fetching metrics: {error}"))),
            }
        }
        Ok(())
    }
}

impl Out {
    /// The line reporting a 429 that asked for `retry_after`: when the next poll goes out,
    /// never sooner than the next tick. A wait the client sits out holds the next poll; a
    /// longer one is named, and the next poll goes out on its tick.
    fn refusal(&self, retry_after: Option<Duration>) -> String {
        let shown = |wait: Duration| {
            time::format_duration(u64::try_from(wait.as_millis()).unwrap_or(u64::MAX))
        };
        match retry_after {
            Some(wait) if wait > self.longest_wait => format!(
                "rate limited; the server asked to wait {}, longer than this client waits ({}); \
                 next poll in {}",
                shown(wait),
                shown(self.longest_wait),
                shown(self.interval)
            ),
            wait => format!(
                "rate limited; next poll in {}",
                shown(wait.unwrap_or(self.interval).max(self.interval))
            ),
        }
    }
}

fn write(stdout: &mut dyn Write, bytes: &[u8]) -> Result<(), Failure> {
    stdout
        .write_all(bytes)
        .map_err(|error| Failure::failed(format!("writing: {error}")))
}

/// Prints a checked response in `format`.
fn render<R>(
    view: MetricsView<'_, R>,
    format: Format,
    stdout: &mut dyn Write,
) -> Result<(), Failure>
where
    R: IndexMappedResponse + serde::Serialize,
{
    // The data formats carry text as sent, so they are scrubbed of the key whole, before
    // writing (the text formats are shown cell by cell).
    let mut data = Vec::new();
    let written = match format {
        Format::Table => stdout.write_all(render::table(view).as_bytes()),
        Format::Csv => view.write_csv(&mut data),
        Format::WideCsv => view.write_wide_csv(&mut data),
        Format::Json => render::write_json(view.response(), &mut data),
        // The chart shows every server text through `ServerText`, escaped.
        Format::Svg => stdout.write_all(view.to_svg_chart().as_bytes()),
    };
    written
        .and_then(|()| match String::from_utf8(data) {
            Ok(text) => stdout.write_all(ServerText::new(text).as_bytes()),
            Err(error) => stdout.write_all(error.as_bytes()),
        })
        .map_err(|error| Failure::failed(format!("writing: {error}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
