//! The client's per-request cost: 10,000 `GET /v1/models/{model_id}` against a keep-alive server
//! on 127.0.0.1, through the generated `Client::get_model` and through bare reqwest +
//! `serde_json::from_slice` into the same `ModelV1`, interleaved in rounds (ours, then bare,
//! then bare, then ours, …) so that a shared machine's drift falls on both alike. Prints each
//! side's median and p90 per request, the ratio of the medians, and the load average.
//!
//! `cargo bench -p baseten-api --bench request_cost` (`REQUEST_COST_GETS=2000` for fewer).
//! Issue 41's target: our median at most 1.15× bare reqwest's.

use std::time::{Duration, Instant};

use baseten_api::Client;
use baseten_api::models::ModelV1;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};

const BODY: &str = r#"{"id": "m1", "name": "llama", "created_at": "2026-01-01T00:00:00Z", "deployments_count": 3, "production_deployment_id": "d1", "development_deployment_id": null, "instance_type_name": "H100", "team_name": "inference"}"#;

/// Requests per round and side.
const ROUND: usize = 250;

/// Answers every request on a connection with `BODY`, keeping the connection open.
async fn serve(mut stream: TcpStream) {
    let response = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{BODY}",
        BODY.len()
    );
    let mut buffer = Vec::with_capacity(4096);
    let mut chunk = [0u8; 4096];
    loop {
        // GETs without bodies: a request ends at its empty line.
        while let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            buffer.drain(..end + 4);
            if stream.write_all(response.as_bytes()).await.is_err() {
                return;
            }
        }
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => buffer.extend_from_slice(&chunk[..n]),
        }
    }
}

fn median_and_p90(samples: &mut [Duration]) -> (Duration, Duration) {
    samples.sort_unstable();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.9))
}

fn micros(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e6
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".to_owned())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gets: usize = std::env::var("REQUEST_COST_GETS")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(10_000);
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let _ = stream.set_nodelay(true);
            tokio::spawn(serve(stream));
        }
    });
    let ours = Client::builder()
        .base_url(&base)
        .api_key("bench.key-0123456789")
        .build()?;
    let bare = reqwest::Client::builder().build()?;
    let url = format!("{base}/v1/models/m1");
    let bare_get = |bare: reqwest::Client, url: String| async move {
        let response = bare
            .get(&url)
            .header("authorization", "Api-Key bench.key-0123456789")
            .header("accept", "application/json")
            .send()
            .await?
            .error_for_status()?;
        let bytes = response.bytes().await?;
        Ok::<ModelV1, Box<dyn std::error::Error>>(serde_json::from_slice(&bytes)?)
    };
    // Warm both pools and both code paths.
    for _ in 0..200 {
        ours.get_model("m1").await?;
        bare_get(bare.clone(), url.clone()).await?;
    }
    let load_before = load_average();
    let mut ours_samples = Vec::with_capacity(gets);
    let mut bare_samples = Vec::with_capacity(gets);
    let mut round_ratios = Vec::new();
    let rounds = gets.div_ceil(ROUND);
    for round in 0..rounds {
        let mut ours_round = Vec::with_capacity(ROUND);
        let mut bare_round = Vec::with_capacity(ROUND);
        for side in [round % 2, 1 - round % 2] {
            for _ in 0..ROUND {
                let started = Instant::now();
                if side == 0 {
                    let model = ours.get_model("m1").await?;
                    ours_round.push(started.elapsed());
                    std::hint::black_box(model);
                } else {
                    let model = bare_get(bare.clone(), url.clone()).await?;
                    bare_round.push(started.elapsed());
                    std::hint::black_box(model);
                }
            }
        }
        ours_samples.extend_from_slice(&ours_round);
        bare_samples.extend_from_slice(&bare_round);
        let (ours_median, _) = median_and_p90(&mut ours_round);
        let (bare_median, _) = median_and_p90(&mut bare_round);
        round_ratios.push(ours_median.as_secs_f64() / bare_median.as_secs_f64());
    }
    let (ours_median, ours_p90) = median_and_p90(&mut ours_samples);
    let (bare_median, bare_p90) = median_and_p90(&mut bare_samples);
    round_ratios.sort_by(f64::total_cmp);
    let ratio = ours_median.as_secs_f64() / bare_median.as_secs_f64();
    println!(
        "{} GETs each, {rounds} interleaved rounds of {ROUND}; load average {load_before} (before), {} (after)",
        ours_samples.len(),
        load_average()
    );
    println!(
        "baseten-api Client::get_model : median {:7.1} µs  p90 {:7.1} µs",
        micros(ours_median),
        micros(ours_p90)
    );
    println!(
        "bare reqwest + serde_json     : median {:7.1} µs  p90 {:7.1} µs",
        micros(bare_median),
        micros(bare_p90)
    );
    println!(
        "ratio of medians {ratio:.3}× (per-round ratios: min {:.3}, median {:.3}, max {:.3}); target ≤ 1.15×",
        round_ratios[0],
        round_ratios[round_ratios.len() / 2],
        round_ratios[round_ratios.len() - 1]
    );
    Ok(())
}
