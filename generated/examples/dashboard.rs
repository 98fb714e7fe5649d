//! A dashboard in library calls only: for each environment of a model, the last hour of every
//! default metric as a wide CSV and an SVG chart per metric, written to a directory, and a line
//! per environment with its request count, 5xx share and worst p99.
//!
//! ```text
//! cargo run -p baseten-api --example dashboard -- MODEL OUT_DIR ENVIRONMENT...
//! ```
//!
//! Its test (`cargo test -p baseten-api --features mock --example dashboard`, and CI) runs it
//! against the fake with 20 environments.

use std::error::Error;
use std::path::{Path, PathBuf};

use baseten_api::Client;
use baseten_api::client::EnvironmentMetricsSeries;
use baseten_api::metric_names::{self, END_TO_END_RESPONSE_TIME_SECONDS, INFERENCE_REQUESTS_TOTAL};
use baseten_api::metrics::StatusMatch;
use baseten_api::requests::Window;
use baseten_charts::SvgChart;
use tokio::task::JoinSet;

/// One metric of one environment, as the dashboard shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub environment: String,
    pub metric: String,
    /// A row per step, a column per series.
    pub wide_csv: String,
    pub svg: String,
}

/// One environment's headline numbers over the window.
#[derive(Debug, Clone, PartialEq)]
pub struct Headline {
    pub environment: String,
    pub requests: Option<f64>,
    /// 5xx requests over all requests with a status.
    pub error_ratio: Option<f64>,
    /// The highest p99 latency of any step, in seconds.
    pub worst_p99_s: Option<f64>,
}

/// Fetches `window` of every default metric for each of `environments` (all at once: each
/// request owns a clone of the client) and renders a panel per metric, in the order given.
pub async fn dashboard(
    client: &Client,
    model: &str,
    environments: &[String],
    window: Window,
) -> Result<(Vec<Panel>, Vec<Headline>), Box<dyn Error + Send + Sync>> {
    let mut requests = JoinSet::new();
    for (index, environment) in environments.iter().enumerate() {
        let request = client
            .environment_metrics(model, environment)
            .series(window);
        let send = request.metrics(metric_names::DEFAULT_SET).send();
        requests.spawn(async move { (index, send.await) });
    }
    let mut answers = Vec::new();
    while let Some(joined) = requests.join_next().await {
        let (index, answer) = joined?;
        answers.push((index, answer?));
    }
    answers.sort_by_key(|(index, _)| *index);
    let mut panels = Vec::new();
    let mut headlines = Vec::new();
    for (index, series) in &answers {
        let environment = &environments[*index];
        panels.extend(panels_of(environment, series));
        let view = series.view();
        // A repeated metric name is the server's mistake: an error, never a silent blank.
        let requests = view.metric(INFERENCE_REQUESTS_TOTAL).unique()?;
        let latency = view.metric(END_TO_END_RESPONSE_TIME_SECONDS).unique()?;
        let p99 = match latency {
            Some(latency) => latency.p99().unique()?,
            None => None,
        };
        headlines.push(Headline {
            environment: environment.clone(),
            requests: requests.and_then(|requests| requests.sum().total()),
            error_ratio: requests
                .and_then(|requests| requests.status_ratio(StatusMatch::Class(5)).window),
            worst_p99_s: p99.and_then(|p99| {
                p99.points()
                    .filter_map(|point| point.value)
                    .reduce(f64::max)
            }),
        });
    }
    Ok((panels, headlines))
}

/// A panel per metric of one environment's answer.
fn panels_of(environment: &str, series: &EnvironmentMetricsSeries) -> Vec<Panel> {
    series
        .view()
        .metrics()
        .map(|metric| Panel {
            environment: environment.to_owned(),
            metric: metric.name.to_owned(),
            wide_csv: metric.to_wide_csv(),
            svg: metric.to_svg_chart(),
        })
        .collect()
}

/// Writes each panel as `ENVIRONMENT/METRIC.csv` and `.svg` under `dir`, returning the paths.
/// The names are the server's and the caller's text, so only letters, digits, `-` and `_` of
/// them reach a path.
pub fn write_panels(dir: &Path, panels: &[Panel]) -> std::io::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for panel in panels {
        let folder = dir.join(file_name(&panel.environment));
        std::fs::create_dir_all(&folder)?;
        for (extension, text) in [("csv", &panel.wide_csv), ("svg", &panel.svg)] {
            let path = folder.join(format!("{}.{extension}", file_name(&panel.metric)));
            std::fs::write(&path, text)?;
            written.push(path);
        }
    }
    Ok(written)
}

/// `text` as one path component: other characters become `_`, and an empty name `_`.
fn file_name(text: &str) -> String {
    let name: String = text
        .chars()
        .take(100)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() {
        "_".to_owned()
    } else {
        name
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error + Send + Sync>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [model, out_dir, environments @ ..] = args.as_slice() else {
        return Err("usage: dashboard MODEL OUT_DIR ENVIRONMENT...".into());
    };
    // BASETEN_API_KEY (and BASETEN_BASE_URL, if set) from the environment.
    let client = Client::from_env()?;
    let (panels, headlines) = dashboard(&client, model, environments, Window::last_hour()).await?;
    let written = write_panels(Path::new(out_dir), &panels)?;
    println!("{} files under {out_dir}", written.len());
    for headline in headlines {
        // The environment names are the user's own; numbers cannot drive a terminal.
        println!(
            "{}: {:?} requests, {:?} 5xx, worst p99 {:?} s",
            headline.environment, headline.requests, headline.error_ratio, headline.worst_p99_s
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use baseten_api::metric_names::REPLICAS_ACTIVE;
    use baseten_api::mock::FakeBaseten;
    use baseten_api::mock::MetricsResponseBuilder;

    /// 2026-07-04T19:00:00Z.
    const START_MS: i64 = 1_783_191_600_000;

    /// Environment `index`'s last hour at 1-minute steps: its own level of traffic, some 5xx,
    /// a gap in its replicas.
    fn response(index: usize) -> MetricsResponseBuilder {
        let scale = 1.0 + index as f64;
        let steps = 60;
        let ok: Vec<Option<f64>> = (0..steps)
            .map(|step| Some(scale * (50.0 + step as f64)))
            .collect();
        let errors: Vec<Option<f64>> = (0..steps)
            .map(|step| Some(if step % 10 == 0 { scale } else { 0.0 }))
            .collect();
        let replicas: Vec<Option<f64>> =
            (0..steps).map(|step| (step != 30).then_some(2.0)).collect();
        let p99: Vec<Option<f64>> = (0..steps)
            .map(|step| Some(0.2 + 0.01 * step as f64))
            .collect();
        MetricsResponseBuilder::series(START_MS, 60, steps)
            .gauge(REPLICAS_ACTIVE, "COUNT", &replicas)
            .counter_by_status(INFERENCE_REQUESTS_TOTAL, &[("2xx", &ok), ("5xx", &errors)])
            .histogram(
                END_TO_END_RESPONSE_TIME_SECONDS,
                "SECONDS",
                &[("0.99", &p99)],
                &[Some(0.1)],
            )
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn twenty_environments_give_a_wide_csv_and_a_chart_per_metric()
    -> Result<(), Box<dyn Error + Send + Sync>> {
        let fake = FakeBaseten::start().await;
        let environments: Vec<String> = (0..20).map(|index| format!("env-{index:02}")).collect();
        for (index, environment) in environments.iter().enumerate() {
            let answer = response(index).build()?;
            fake.on_environment_metrics("m1", environment)
                .query("mode", "SERIES")
                .respond(&answer)
                .await;
        }
        let window = Window::new(START_MS, START_MS + 3_600_000)?;
        let (panels, headlines) = dashboard(&fake.client()?, "m1", &environments, window).await?;

        assert_eq!(panels.len(), 20 * 3);
        for (panel, expected) in panels.iter().zip(environments.iter().flat_map(|e| [e; 3])) {
            assert_eq!(&panel.environment, expected);
            assert_eq!(panel.wide_csv.lines().count(), 1 + 60, "{}", panel.metric);
            assert!(panel.svg.starts_with("<svg ") && panel.svg.ends_with("</svg>\n"));
            assert_eq!(
                panel.svg.matches(r#"class="legend""#).count(),
                panel
                    .wide_csv
                    .lines()
                    .next()
                    .map_or(0, |h| h.split(',').count() - 2)
            );
        }
        let replicas = &panels[0];
        assert_eq!(replicas.metric, REPLICAS_ACTIVE);
        assert!(replicas.wide_csv.starts_with(
            "step_start_ms,step_end_ms,baseten_replicas_active\n1783191600000,1783191660000,2\n"
        ));
        // The gap at step 30 breaks the line in two.
        assert_eq!(
            replicas.svg.matches(" M").count() + 1,
            2,
            "{}",
            replicas.svg
        );
        let requests = &panels[1];
        assert!(requests.wide_csv.starts_with("step_start_ms,step_end_ms,baseten_inference_requests_total{status=2xx},baseten_inference_requests_total{status=5xx}\n"));
        assert!(
            requests
                .svg
                .contains(">baseten_inference_requests_total (count)<")
        );
        assert!(
            panels[2]
                .svg
                .contains(">baseten_end_to_end_response_time_seconds (ms)<")
        );
        assert!(panels[2].svg.contains(">800 ms<"), "{}", panels[2].svg);
        assert!(panels[2].svg.contains(">19:00<") && panels[2].svg.contains(">19:50<"));

        assert_eq!(headlines.len(), 20);
        let ok_total: f64 = (0..60).map(|step| 50.0 + step as f64).sum();
        for (index, headline) in headlines.iter().enumerate() {
            let scale = 1.0 + index as f64;
            assert_eq!(headline.environment, environments[index]);
            let requests = headline.requests.unwrap_or_default();
            assert!(
                (requests - scale * (ok_total + 6.0)).abs() < 1e-6,
                "{headline:?}"
            );
            let ratio = headline.error_ratio.unwrap_or_default();
            assert!(
                (ratio - 6.0 / (ok_total + 6.0)).abs() < 1e-12,
                "{headline:?}"
            );
            assert_eq!(headline.worst_p99_s, Some(0.2 + 0.01 * 59.0));
        }

        let dir = std::env::temp_dir().join(format!("baseten-dashboard-{}", std::process::id()));
        let written = write_panels(&dir, &panels)?;
        assert_eq!(written.len(), 120);
        assert_eq!(std::fs::read_to_string(&written[1])?, panels[0].svg);
        std::fs::remove_dir_all(&dir)?;
        Ok(())
    }

    #[test]
    fn server_names_never_leave_the_folder() {
        assert_eq!(file_name("../../etc/passwd"), "______etc_passwd");
        assert_eq!(file_name(""), "_");
        assert_eq!(
            file_name("baseten_replicas_active"),
            "baseten_replicas_active"
        );
        assert_eq!(file_name(&"x".repeat(300)).len(), 100);
    }
}
