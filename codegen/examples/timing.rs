//! Times the whole generator in-process on one document: `cargo run --release -p
//! baseten-codegen --example timing -- PATH [RUNS]`. Prints min and median wall time and the
//! lines emitted; a figure for the README, not a test.

use std::time::{Duration, Instant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: timing PATH [RUNS]")?;
    let runs: usize = args.next().map_or(Ok(20), |n| n.parse())?;
    let text = std::fs::read_to_string(&path)?;
    let input = baseten_codegen::Input {
        spec_path: &path,
        spec_text: &text,
        config_text: None,
    };
    let mut times: Vec<Duration> = Vec::with_capacity(runs);
    let mut lines = 0;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let output = baseten_codegen::generate(&input)?;
        times.push(start.elapsed());
        lines = output.files.values().map(|file| file.lines().count()).sum();
    }
    times.sort();
    println!(
        "{path}: {lines} lines emitted; generate() min {:.1} ms, median {:.1} ms over {} runs",
        times[0].as_secs_f64() * 1e3,
        times[times.len() / 2].as_secs_f64() * 1e3,
        times.len()
    );
    Ok(())
}
