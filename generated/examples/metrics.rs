//! The metrics library in a few lines: a response, saved or fetched, checked, read by name and
//! labels, and written as the CSV contract. The `baseten-metrics` CLI (`generated/cli`) is the
//! full tool.
//!
//! ```text
//! cargo run -p baseten-api --example metrics -- FILE                # a saved response
//! cargo run -p baseten-api --example metrics -- MODEL ENVIRONMENT   # the last hour, live
//! ```

use std::error::Error;

use baseten_api::metrics::{self, Lookup, MetricsView};
use baseten_api::models::GetModelMetricsResponseV1;
use baseten_api::{Client, requests::Window};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [file] => {
            let bytes = std::fs::read(file)?;
            let response: GetModelMetricsResponseV1 = metrics::decode(&bytes)?;
            // The checks a fetched response gets, for a saved one.
            print(metrics::validate_response(&response)?)
        }
        [model, environment] => {
            // BASETEN_API_KEY (and BASETEN_BASE_URL, if set) from the environment.
            let client = Client::from_env()?;
            let request = client.environment_metrics(model, environment);
            let result = request.series(Window::last_hour()).send().await?;
            print(result.view())
        }
        _ => Err("usage: metrics FILE | metrics MODEL ENVIRONMENT".into()),
    }
}

fn print(view: MetricsView<'_, GetModelMetricsResponseV1>) -> Result<(), Box<dyn Error>> {
    for metric in view.metrics() {
        let unit = metric.unit().symbol().unwrap_or("?");
        eprintln!(
            "{} [{unit}]: {} series",
            metric.name,
            metric.label_sets.len()
        );
    }
    if let Lookup::Found(series) = view.quantile("baseten_end_to_end_response_time_seconds", 0.99) {
        for point in series.points() {
            let value = point
                .value
                .map_or("no data".to_owned(), |v| format!("{v} s"));
            eprintln!("p99 [{}, {}): {value}", point.start_ms, point.end_ms);
        }
    }
    view.write_csv(std::io::stdout().lock())?;
    Ok(())
}
