//! `bench-build`'s `generate` section, progenitor as a library: our generator and
//! `progenitor_impl::Generator` timed in this one process, alternating, medians of N. The xtask
//! writes this file into a scratch Cargo project under `target/bench-build/` (outside the
//! workspace, so progenitor never enters the xtask's dependency tree) and runs it:
//! `progenitor-library SPEC LOWERED RUNS`.
//!
//! - ours: `baseten_codegen::generate` on the document's text, in memory, to the emitted files'
//!   text (parsing, lowering, IR, surface, emission, formatting, the API listing).
//! - theirs: the same document as our lowering writes it for progenitor (3.0, operation ids,
//!   trimmed of what it refuses), from its JSON text in memory through `openapiv3`,
//!   `Generator::generate_tokens`, `syn::parse2` and `prettyplease::unparse` to text.
//!
//! No file is read or written inside a timed part. After the paired runs, the parts of
//! `cargo progenitor` (the binary) that the library figure leaves out are timed one by one, to
//! say what a binary figure includes.

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let (Some(spec_path), Some(lowered_path), Some(runs)) = (args.next(), args.next(), args.next())
    else {
        bail!("usage: progenitor-library SPEC LOWERED RUNS");
    };
    let runs: usize = runs.parse().context("RUNS: not a count")?;
    let spec =
        std::fs::read_to_string(&spec_path).with_context(|| format!("reading {spec_path}"))?;
    let lowered = std::fs::read_to_string(&lowered_path)
        .with_context(|| format!("reading {lowered_path}"))?;

    // One untimed run of each: both must succeed, and their sizes say what was produced.
    let ours_lines = lines(ours(&spec_path, &spec)?.iter().map(String::as_str));
    let (theirs_text, theirs_tokens) = theirs(&lowered)?;
    println!(
        "  in one process: ours {ours_lines} lines (the emitted files), progenitor {} lines (one file)",
        lines([theirs_text.as_str()].into_iter())
    );

    let mut samples: [Vec<Sample>; 2] = [Vec::new(), Vec::new()];
    for run in 0..runs.max(1) {
        // Rotating who goes first: neither always runs on the other's warm caches.
        for offset in 0..2 {
            let entrant = (run + offset) % 2;
            let sample = if entrant == 0 {
                Sample::of(|| ours(&spec_path, &spec).map(drop))?
            } else {
                Sample::of(|| theirs(&lowered).map(drop))?
            };
            println!(
                "  run {}: {:<10} wall {:.3} s, cpu {:.3} s",
                run + 1,
                ["ours", "progenitor"][entrant],
                sample.wall.as_secs_f64(),
                sample.cpu.as_secs_f64()
            );
            samples[entrant].push(sample);
        }
    }
    let [ours_samples, theirs_samples] = samples;
    let ours_wall = median(ours_samples.iter().map(|s| s.wall));
    let ours_cpu = median(ours_samples.iter().map(|s| s.cpu));
    let theirs_wall = median(theirs_samples.iter().map(|s| s.wall));
    let theirs_cpu = median(theirs_samples.iter().map(|s| s.cpu));
    println!(
        "  library, medians of {}: ours wall {:.3} s cpu {:.3} s; progenitor wall {:.3} s cpu {:.3} s",
        ours_samples.len(),
        ours_wall.as_secs_f64(),
        ours_cpu.as_secs_f64(),
        theirs_wall.as_secs_f64(),
        theirs_cpu.as_secs_f64()
    );
    println!(
        "  generation as a library, ours / progenitor: wall {:.2}×, cpu {:.2}×",
        ours_wall.as_secs_f64() / theirs_wall.as_secs_f64(),
        ours_cpu.as_secs_f64() / theirs_cpu.as_secs_f64()
    );
    binary_parts(&lowered_path, &theirs_tokens, runs)
}

/// Our generator from the document's text to the emitted files' text and the API listing.
fn ours(spec_path: &str, spec: &str) -> Result<Vec<String>> {
    let input = baseten_codegen::Input {
        spec_path,
        spec_text: spec,
        config_text: None,
    };
    let output = baseten_codegen::generate(&input).context("our generator")?;
    let mut texts: Vec<String> = output.files.into_values().collect();
    texts.push(output.api_snapshot);
    Ok(texts)
}

/// progenitor from the lowered document's JSON text to formatted text; its tokens' text too
/// (what its binary hands to rustfmt).
fn theirs(lowered: &str) -> Result<(String, String)> {
    let spec: openapiv3::OpenAPI =
        serde_json::from_str(lowered).context("reading progenitor's input")?;
    let mut generator =
        progenitor_impl::Generator::new(&progenitor_impl::GenerationSettings::default());
    let tokens = generator
        .generate_tokens(&spec)
        .context("progenitor's generate_tokens")?;
    let tokens_text = tokens.to_string();
    let file = syn::parse2::<syn::File>(tokens).context("parsing progenitor's tokens")?;
    Ok((prettyplease::unparse(&file), tokens_text))
}

/// What `cargo progenitor` does beyond the library figure, each timed alone (medians): reading
/// the document with `serde_json::from_reader` on an unbuffered `File` (one read call per
/// byte), and formatting by a `rustfmt` child process fed the tokens' text (rustfmt-wrapper), in
/// place of prettyplease. Process start and writing two files are the rest.
fn binary_parts(lowered_path: &str, tokens_text: &str, runs: usize) -> Result<()> {
    let read = median(
        (0..runs.max(1))
            .map(|_| {
                Sample::of(|| {
                    let file = std::fs::File::open(lowered_path)?;
                    let _: openapiv3::OpenAPI = serde_json::from_reader(file)?;
                    Ok(())
                })
                .map(|sample| sample.wall)
            })
            .collect::<Result<Vec<_>>>()?,
    );
    let buffered = median(
        (0..runs.max(1))
            .map(|_| {
                Sample::of(|| {
                    let text = std::fs::read_to_string(lowered_path)?;
                    let _: openapiv3::OpenAPI = serde_json::from_str(&text)?;
                    Ok(())
                })
                .map(|sample| sample.wall)
            })
            .collect::<Result<Vec<_>>>()?,
    );
    println!(
        "  progenitor's binary reads its input unbuffered: {:.3} s (read whole and parsed: {:.3} s)",
        read.as_secs_f64(),
        buffered.as_secs_f64()
    );
    let rustfmt = std::env::var_os("RUSTFMT").unwrap_or_else(|| "rustfmt".into());
    let mut formatted = Vec::new();
    for _ in 0..runs.max(1) {
        let started = Instant::now();
        let mut child = match Command::new(&rustfmt)
            .args(["--edition", "2021"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
        {
            Ok(child) => child,
            Err(error) => {
                println!("  progenitor's binary formats with rustfmt: not timed ({error})");
                return Ok(());
            }
        };
        let mut stdin = child.stdin.take().context("rustfmt's stdin")?;
        // Written from another thread: rustfmt's output may fill the pipe before it has read all.
        let text = tokens_text.to_owned();
        let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
        let output = child.wait_with_output().context("running rustfmt")?;
        let _ = writer.join();
        if !output.status.success() {
            println!("  progenitor's binary formats with rustfmt: rustfmt failed, not timed");
            return Ok(());
        }
        formatted.push(started.elapsed());
    }
    println!(
        "  progenitor's binary formats with a rustfmt child: {:.3} s (prettyplease's share of the library figure replaced)",
        median(formatted).as_secs_f64()
    );
    Ok(())
}

/// One timed call: wall time and this process's CPU time (every thread's user + system).
#[derive(Clone, Copy)]
struct Sample {
    wall: Duration,
    cpu: Duration,
}

impl Sample {
    fn of(run: impl FnOnce() -> Result<()>) -> Result<Sample> {
        let cpu_before = process_cpu();
        let started = Instant::now();
        run()?;
        let wall = started.elapsed();
        Ok(Sample {
            wall,
            cpu: process_cpu().saturating_sub(cpu_before),
        })
    }
}

/// User + system time of this process so far, its finished threads included.
fn process_cpu() -> Duration {
    // SAFETY: getrusage writes the struct it is given and nothing else.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above; RUSAGE_SELF covers every thread of the process.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return Duration::ZERO;
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

fn median(samples: impl IntoIterator<Item = Duration>) -> Duration {
    let mut samples: Vec<Duration> = samples.into_iter().collect();
    samples.sort();
    samples.get(samples.len() / 2).copied().unwrap_or_default()
}

fn lines<'a>(texts: impl Iterator<Item = &'a str>) -> usize {
    texts.map(|text| text.lines().count()).sum()
}
