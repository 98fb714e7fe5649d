//! `bench-build`: what depending on the generated crate costs, as paired figures printed in one
//! run with the load average — a decode-only consumer's clean build against a serde-only program
//! doing the same, a client consumer's clean build and rebuild after an edit, the full-document
//! crate's `cargo check` after a touch, generation time, and `cargo check` time and peak memory
//! of a large document's crate. Std-only on purpose: the
//! xtask stays cheap to build. Scratch workspaces live under `target/bench-build/`.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::regen;

mod progenitor;
pub mod stress;

/// The sections `--only` can name, in the order they run.
pub const SECTIONS: [&str; 7] = [
    "decode", "consumer", "full", "generate", "large", "table", "stress",
];

pub struct Options {
    /// Paired runs of every timed step; medians are reported.
    pub runs: usize,
    pub sections: Vec<String>,
    /// The large document (`large`); the section is skipped without it.
    pub large: Option<PathBuf>,
    /// Baseten's published documents; the newest `baseten-management-*.json` is the full one.
    pub specs: PathBuf,
    /// A saved metrics response the decode programs read.
    pub response: PathBuf,
    /// Another checkout (e.g. a worktree of `main`) whose decode-only consumer is built in the
    /// same runs, for before/after figures paired under the same load.
    pub before: Option<PathBuf>,
    /// The size of the synthetic response of the `table` section, MiB.
    pub table_mib: usize,
    /// progenitor's CLI (`cargo-progenitor`), installed by the user: `generate` and `full`
    /// then print its figures beside ours.
    pub progenitor: Option<PathBuf>,
    /// The OpenAPI 3.0 document progenitor reads, when the newest one as our lowering writes it
    /// needs trimming first.
    pub progenitor_input: Option<PathBuf>,
    /// The stress shapes to run (`stress`); empty: all of them.
    pub stress_shapes: Vec<String>,
    /// The stress documents' byte budget.
    pub stress_budget: usize,
    /// `stress` generates and counts lines but runs no `cargo check`.
    pub stress_generate_only: bool,
}

/// What one measured command cost.
#[derive(Clone, Copy, Debug)]
struct Cost {
    wall: Duration,
    /// User + system time of the command and its children (the sum of unit times).
    cpu: Duration,
    /// Peak resident memory of the largest process in the tree (a rustc, for a build).
    max_rss_kib: u64,
    /// Crates compiled ("Compiling"/"Checking" lines).
    units: usize,
}

pub fn run(root: &Path, options: &Options) -> Result<()> {
    for section in &options.sections {
        if !SECTIONS.contains(&section.as_str()) {
            bail!(
                "unknown section {section:?}; sections: {}",
                SECTIONS.join(", ")
            );
        }
    }
    if options.runs == 0 {
        bail!("--runs must be at least 1");
    }
    let scratch = root.join("target/bench-build");
    fs::create_dir_all(&scratch).with_context(|| format!("creating {}", scratch.display()))?;
    println!(
        "bench-build: {} run(s) per figure, medians; {}",
        options.runs,
        load()
    );
    let wanted = |name: &str| options.sections.iter().any(|s| s == name);
    if wanted("decode") {
        decode(root, &scratch, options)?;
    }
    if wanted("consumer") {
        consumer(root, &scratch, options)?;
    }
    if wanted("full") || wanted("generate") {
        let newest = newest_document(&options.specs)?;
        if wanted("full") {
            full(root, &scratch, &newest, options)?;
        }
        if wanted("generate") {
            generate(root, &scratch, &newest, options)?;
        }
    }
    if wanted("large") {
        match &options.large {
            Some(large) => large_document(root, &scratch, large, options)?,
            None => println!("\n## large: skipped (no --large PATH)"),
        }
    }
    if wanted("table") {
        table(root, &scratch, options)?;
    }
    if wanted("stress") {
        stress_documents(root, &scratch, options)?;
    }
    println!("\nend: {}", load());
    Ok(())
}

/// The decode-only consumer (`default-features = false`: decode, validate, print the CSV of a
/// saved response) against a program on serde + serde_json alone that does the same through
/// `serde_json::Value`, and, with `--before DIR`, the same consumer on another checkout's crate.
/// Each program has a workspace of its own (two checkouts' `baseten-api` cannot share a lock);
/// every run builds each clean, in a fresh target dir, one after the other, rotating which goes
/// first. All programs run and must print the same number of rows.
fn decode(root: &Path, scratch: &Path, options: &Options) -> Result<()> {
    println!("\n## decode: decode-only consumer vs serde-only baseline, clean `cargo build`");
    let response = fs::canonicalize(&options.response)
        .with_context(|| format!("reading {}", options.response.display()))?;
    let mut programs = vec![
        Program::consumer("decode-only", root)?,
        Program::serde_only(root)?,
    ];
    if let Some(before) = &options.before {
        programs.push(Program::consumer("decode-before", before)?);
    }
    let mut costs: Vec<Vec<Cost>> = programs.iter().map(|_| Vec::new()).collect();
    for run in 0..options.runs {
        for offset in 0..programs.len() {
            let index = (run + offset) % programs.len();
            let program = &programs[index];
            let workspace = scratch.join(format!("decode-{}", program.name));
            program.write(&workspace)?;
            let target = workspace.join("target");
            remove_dir(&target)?;
            let mut command = cargo();
            command
                .current_dir(&workspace)
                .args(["build", "--offline", "--target-dir"])
                .arg(&target);
            let cost = measure(command)?;
            println!(
                "  run {}: {:<13} {}",
                run + 1,
                program.name,
                describe(&cost)
            );
            costs[index].push(cost);
        }
    }
    let mut lines = Vec::new();
    for program in &programs {
        let binary = scratch
            .join(format!("decode-{}", program.name))
            .join("target/debug")
            .join(program.name);
        let output = Command::new(&binary)
            .arg(&response)
            .stderr(Stdio::inherit())
            .output()
            .with_context(|| format!("running {}", binary.display()))?;
        if !output.status.success() {
            bail!("{} failed on {}", program.name, response.display());
        }
        lines.push(output.stdout.iter().filter(|&&b| b == b'\n').count());
    }
    if lines.iter().any(|&n| n != lines[0] || n < 2) {
        bail!("the programs disagree on the CSV: {lines:?} lines");
    }
    println!(
        "  all print {} CSV lines of {}",
        lines[0],
        response.display()
    );
    paired("decode-only / serde-only", &costs[0], &costs[1]);
    if let Some(before) = costs.get(2) {
        paired("decode-before / serde-only", before, &costs[1]);
        paired("decode-only / decode-before", &costs[0], before);
    }
    Ok(())
}

/// One program of the decode comparison: its package name, manifest and source.
struct Program {
    name: &'static str,
    manifest: String,
    main: &'static str,
    /// The lock to start from (the checkout's own: the same dependency versions, offline).
    lock: PathBuf,
}

impl Program {
    fn consumer(name: &'static str, checkout: &Path) -> Result<Program> {
        let api = fs::canonicalize(checkout.join("generated"))
            .with_context(|| format!("{} has no generated/", checkout.display()))?;
        // The metrics area alone, where the checkout's crate has areas (an older one has not).
        let manifest = fs::read_to_string(api.join("Cargo.toml"))
            .with_context(|| format!("reading {}", api.join("Cargo.toml").display()))?;
        let features = if manifest.lines().any(|line| line.starts_with("metrics = ")) {
            ", features = [\"metrics\"]"
        } else {
            ""
        };
        Ok(Program {
            name,
            manifest: format!(
                "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
                 [dependencies]\nbaseten-api = {{ path = {api:?}, default-features = false{features} }}\n\n\
                 [workspace]\n"
            ),
            main: DECODE_ONLY,
            lock: checkout.join("Cargo.lock"),
        })
    }

    fn serde_only(root: &Path) -> Result<Program> {
        Ok(Program {
            name: "serde-only",
            manifest:
                "[package]\nname = \"serde-only\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
                 [dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\n\
                 serde_json = \"1\"\n\n[workspace]\n"
                    .to_owned(),
            main: SERDE_ONLY,
            lock: root.join("Cargo.lock"),
        })
    }

    fn write(&self, workspace: &Path) -> Result<()> {
        write(&workspace.join("Cargo.toml"), &self.manifest)?;
        write(&workspace.join("src/main.rs"), self.main)?;
        fs::copy(&self.lock, workspace.join("Cargo.lock"))
            .with_context(|| format!("copying {}", self.lock.display()))?;
        Ok(())
    }
}

/// A client consumer on the default features (`Client::from_env`, list the models, get an
/// environment, its metrics now, on tokio) built clean in a fresh target dir and rebuilt after an
/// edit of its `main.rs`, paired with the serde-only program's clean build (its own workspace,
/// so its clean builds match `decode`'s). Each run rotates which clean build goes first; the
/// consumer then runs its three calls against a local std server, so a consumer that no longer
/// builds against the crate's API, or no longer works, fails the section.
fn consumer(root: &Path, scratch: &Path, options: &Options) -> Result<()> {
    println!(
        "\n## consumer: three operations on tokio vs serde-only baseline, clean `cargo build`, \
         and the consumer's rebuild after an edit of main.rs; {}",
        load()
    );
    let api = fs::canonicalize(root.join("generated"))
        .with_context(|| format!("{} has no generated/", root.display()))?;
    let programs = [
        Program {
            name: "client-consumer",
            manifest: format!(
                "[package]\nname = \"client-consumer\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
                 [dependencies]\nbaseten-api = {{ path = {api:?} }}\n\
                 tokio = {{ version = \"1\", features = [\"macros\", \"rt-multi-thread\"] }}\n\n\
                 [workspace]\n"
            ),
            main: CLIENT_CONSUMER,
            lock: root.join("Cargo.lock"),
        },
        Program::serde_only(root)?,
    ];
    let workspaces: Vec<PathBuf> = programs
        .iter()
        .map(|program| scratch.join(format!("consumer-{}", program.name)))
        .collect();
    let build = |workspace: &Path| -> Result<Cost> {
        let mut command = cargo();
        command
            .current_dir(workspace)
            .args(["build", "--offline", "--target-dir"])
            .arg(workspace.join("target"));
        measure(command)
    };
    let (mut clean, mut rebuilt): (Vec<Vec<Cost>>, Vec<Cost>) = (vec![Vec::new(); 2], Vec::new());
    for run in 0..options.runs {
        for offset in 0..programs.len() {
            let index = (run + offset) % programs.len();
            let (program, workspace) = (&programs[index], &workspaces[index]);
            program.write(workspace)?;
            remove_dir(&workspace.join("target"))?;
            let cost = build(workspace)?;
            println!(
                "  run {}: {:<15} clean   {}",
                run + 1,
                program.name,
                describe(&cost)
            );
            clean[index].push(cost);
            if index == 0 {
                // A real edit (a changed string), not a touch: rustc recompiles the crate.
                let edited =
                    CLIENT_CONSUMER.replace("{} models", &format!("{{}} models ({})", run + 1));
                write(&workspace.join("src/main.rs"), &edited)?;
                let cost = build(workspace)?;
                println!(
                    "  run {}: {:<15} rebuild {}",
                    run + 1,
                    program.name,
                    describe(&cost)
                );
                rebuilt.push(cost);
            }
        }
    }
    let binary = workspaces[0].join("target/debug/client-consumer");
    let requests = run_against_local_server(&binary)?;
    println!(
        "  the consumer's three calls answered by a local server: {}",
        requests.join(", ")
    );
    paired("client-consumer / serde-only, clean", &clean[0], &clean[1]);
    single("client-consumer rebuild after an edit", &rebuilt);
    println!("  {}", load());
    Ok(())
}

/// Runs the client consumer against a std HTTP/1.1 server on 127.0.0.1 answering its three
/// calls (one connection each) and gives the request lines the server saw.
fn run_against_local_server(binary: &Path) -> Result<Vec<String>> {
    use std::io::{BufRead as _, BufReader, Write as _};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").context("binding 127.0.0.1")?;
    let base_url = format!("http://{}", listener.local_addr()?);
    let (seen, received) = std::sync::mpsc::channel();
    // Not joined: if the consumer stops early, the thread waits in `accept` until the process ends.
    std::thread::spawn(move || {
        for stream in listener.incoming().take(3) {
            let Ok(stream) = stream else { return };
            let mut reader = BufReader::new(stream);
            let mut request_line = String::new();
            if reader.read_line(&mut request_line).is_err() {
                return;
            }
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let path = request_line.split(' ').nth(1).unwrap_or_default();
            let body = if path.starts_with("/v1/models?") || path == "/v1/models" {
                CONSUMER_MODELS
            } else if path.contains("/metrics") {
                CONSUMER_METRICS
            } else {
                CONSUMER_ENVIRONMENT
            };
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
                 connection: close\r\n\r\n{body}",
                body.len()
            );
            // Recorded before answering, so it is there once the consumer has its answer.
            let _ = seen.send(request_line.trim().to_owned());
            let _ = reader.get_mut().write_all(response.as_bytes());
        }
    });
    let output = Command::new(binary)
        .env("BASETEN_API_KEY", "bench-build-key")
        .env("BASETEN_BASE_URL", &base_url)
        .output()
        .with_context(|| format!("running {}", binary.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() || !stdout.lines().any(|line| line == "3 series") {
        bail!(
            "{} failed against {base_url}:\n{stdout}{}",
            binary.display(),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(received.try_iter().collect())
}

/// The client consumer: three calls of the crate's `Client`, what a dashboard or poller does.
const CLIENT_CONSUMER: &str = r#"//! List the models, get one's production environment and read its metrics now, on tokio.
use baseten_api::operations::GetModelsQuery;

#[tokio::main]
async fn main() -> Result<(), baseten_api::Error> {
    let client = baseten_api::Client::from_env()?;
    let models = client.get_models(&GetModelsQuery::default()).await?;
    println!("{} models", models.models.len());
    let Some(model) = models.models.first() else {
        return Ok(());
    };
    let environment = client.get_model_environment(&model.id, "production").await?;
    println!("environment {}", environment.name);
    let now = client.environment_metrics(&model.id, "production").current().send().await?;
    println!("{} series", now.readings().count());
    Ok(())
}
"#;

/// The local server's answers to the client consumer (the shapes of `operations_live`'s).
const CONSUMER_MODELS: &str = r#"{"models":[{"id":"m1","created_at":"2026-07-01T12:00:00Z","name":"llama","deployments_count":1,"production_deployment_id":"d1","development_deployment_id":null,"instance_type_name":"1xH100","team_name":"ml"}]}"#;
const CONSUMER_ENVIRONMENT: &str = r#"{"name":"production","created_at":"2026-07-01T12:00:00Z","model_id":"m1","current_deployment":null,"autoscaling_settings":{"min_replica":1,"max_replica":4,"autoscaling_window":60,"scale_down_delay":null,"concurrency_target":2,"target_utilization_percentage":70},"promotion_settings":{},"instance_type":{"id":"i1","name":"1xH100","memory_limit_mib":1024,"millicpu_limit":8000,"gpu_count":1,"gpu_type":"H100","gpu_memory_limit_mib":81920},"request_backpressure_settings":{}}"#;
const CONSUMER_METRICS: &str = r#"{"start_epoch_millis":1787666832418,"end_epoch_millis":1787666832418,"mode":"CURRENT","step_seconds":null,"metric_descriptors":[{"name":"baseten_replicas_active","unit_hint":"COUNT","kind":"GAUGE","label_sets":[{}]},{"name":"baseten_inference_requests_total","unit_hint":"COUNT","kind":"COUNTER","label_sets":[{"status":"2xx"},{"status":"5xx"}]}],"metric_values":[{"start_epoch_millis":1787666832418,"values":[[2.0],[1843.0,12.0]]}]}"#;

/// The newest document's crate, own workspace: one warm `cargo check`, then `cargo check` after
/// touching the crate's root, `runs` times; with `--progenitor BIN`, the same for progenitor's
/// crate of the same document, in the same runs, rotating which goes first.
fn full(root: &Path, scratch: &Path, newest: &Path, options: &Options) -> Result<()> {
    println!(
        "\n## full: the full-document crate ({}), `cargo check` after a touch",
        newest.display()
    );
    let out = scratch.join("full");
    generate_into(root, newest, &out, "bench-full")?;
    println!("  {} lines emitted", rust_lines(&out.join("src"))?);
    let theirs = match progenitor::Progenitor::new(options, scratch, newest)? {
        Some(progenitor) => {
            let dir = scratch.join("progenitor-full");
            progenitor.generate_crate(&dir)?;
            Some(dir)
        }
        None => None,
    };
    let check = |label: &str, dir: &Path, offline: bool| -> Result<Cost> {
        let mut command = cargo();
        command.current_dir(dir).arg("check");
        if offline {
            command.arg("--offline");
        }
        let cost = measure(command)?;
        println!("  {label}: {}", describe(&cost));
        Ok(cost)
    };
    check("warm-up (dependencies)", &out, true)?;
    if let Some(theirs) = &theirs {
        println!(
            "  progenitor's crate: {} lines",
            rust_lines(&theirs.join("src"))?
        );
        // Its dependencies are its own (progenitor-client, reqwest 0.13…): they may need fetching.
        check("progenitor warm-up (dependencies)", theirs, false)?;
    }
    let mut crates = vec![("ours", out.as_path(), true)];
    crates.extend(theirs.as_deref().map(|dir| ("progenitor", dir, false)));
    let mut touched: Vec<Vec<Cost>> = crates.iter().map(|_| Vec::new()).collect();
    for run in 0..options.runs {
        for offset in 0..crates.len() {
            let index = (run + offset) % crates.len();
            let (label, dir, offline) = crates[index];
            touch(&dir.join("src/lib.rs"))?;
            let cost = check(
                &format!("run {}: {label} after a touch", run + 1),
                dir,
                offline,
            )?;
            touched[index].push(cost);
        }
    }
    single("check after a touch", &touched[0]);
    if let Some(progenitor) = touched.get(1) {
        single("progenitor's crate, check after a touch", progenitor);
        paired(
            "check after a touch, ours / progenitor's",
            &touched[0],
            progenitor,
        );
    }
    Ok(())
}

/// Generation of the newest document by the release xtask binary (what a user runs), `runs`
/// times; the binary is built once first. With `--progenitor BIN`, progenitor generating from
/// the same document (lowered to 3.0 by our lowering, with operation ids, or
/// `--progenitor-input`) in the same runs, rotating which goes first. Then both generators as
/// libraries in one process ([`progenitor::library`]), with or without the binary.
fn generate(root: &Path, scratch: &Path, newest: &Path, options: &Options) -> Result<()> {
    println!(
        "\n## generate: `xtask regen --spec {}` (release binary)",
        newest.display()
    );
    let mut build = cargo();
    build
        .current_dir(root)
        .args(["build", "--release", "--quiet", "-p", "xtask"]);
    let built = measure(build)?;
    println!("  release xtask built in {:.1} s", built.wall.as_secs_f64());
    let binary = root.join("target/release/xtask");
    let out = scratch.join("generate");
    let ours = || {
        let mut command = Command::new(&binary);
        command
            .current_dir(root)
            .arg("regen")
            .arg("--spec")
            .arg(newest)
            .arg("--out")
            .arg(&out)
            .args(["--name", "bench-generate", "--own-workspace"]);
        command
    };
    let progenitor = progenitor::Progenitor::new(options, scratch, newest)?;
    let theirs = scratch.join("progenitor-generate");
    let entrants = if progenitor.is_some() { 2 } else { 1 };
    let mut costs: [Vec<Cost>; 2] = [Vec::new(), Vec::new()];
    for run in 0..options.runs {
        for offset in 0..entrants {
            let index = (run + offset) % entrants;
            let (label, cost) = match (&progenitor, index) {
                (Some(progenitor), 1) => {
                    remove_dir(&theirs)?;
                    ("progenitor", measure(progenitor.generate(&theirs))?)
                }
                _ => {
                    remove_dir(&out)?;
                    ("ours", measure(ours())?)
                }
            };
            println!("  run {}: {label:<10} {}", run + 1, describe(&cost));
            costs[index].push(cost);
        }
    }
    single("generation", &costs[0]);
    if progenitor.is_some() {
        // What the binary's figure holds beside generation is timed part by part below.
        single("progenitor's generation (its binary)", &costs[1]);
        paired(
            "generation, ours / progenitor's binary",
            &costs[0],
            &costs[1],
        );
    }
    progenitor::library(root, scratch, newest, options.runs)
}

/// The stress documents (see [`stress`]), written under `target/bench-build/stress/`: per
/// document its size, generation time by the release xtask, lines emitted, and `cargo check`
/// after a touch (wall, CPU, peak rustc memory) of its crate. With `--before DIR`, the other
/// checkout's release xtask generates the same document into a crate of its own, built in the
/// same runs, rotating which goes first. One target dir serves every crate; a warm-up check
/// first builds the dependencies. A generation or check that fails, or takes more than 15
/// minutes, is printed as such and the section goes on.
fn stress_documents(root: &Path, scratch: &Path, options: &Options) -> Result<()> {
    println!(
        "\n## stress: documents of at most {} bytes, each one shape pushed to its limit; {}",
        options.stress_budget,
        load()
    );
    for name in &options.stress_shapes {
        if !stress::SHAPES.iter().any(|shape| shape.name == name) {
            let names: Vec<&str> = stress::SHAPES.iter().map(|shape| shape.name).collect();
            bail!(
                "unknown stress shape {name:?}; shapes: {}",
                names.join(", ")
            );
        }
    }
    let dir = scratch.join("stress");
    let target = dir.join("target");
    let mut checkouts = vec![("ours", root.to_path_buf())];
    checkouts.extend(
        options
            .before
            .iter()
            .map(|before| ("before", before.clone())),
    );
    let mut binaries = Vec::new();
    for (label, checkout) in &checkouts {
        let mut build = cargo();
        build
            .current_dir(checkout)
            .args(["build", "--release", "--quiet", "-p", "xtask"]);
        measure(build)?;
        binaries.push(checkout.join("target/release/xtask"));
        println!("  {label}: release xtask of {}", checkout.display());
    }
    for shape in &stress::SHAPES {
        if !options.stress_shapes.is_empty()
            && !options.stress_shapes.iter().any(|s| s == shape.name)
        {
            continue;
        }
        let Some((text, count)) = stress::document(shape, options.stress_budget) else {
            println!("\n### {}: no unit fits in the budget", shape.name);
            continue;
        };
        let spec = dir.join(format!("{}.json", shape.name));
        write(&spec, &text)?;
        println!(
            "\n### {} ({}): {} bytes, {count} units; {}",
            shape.name,
            shape.pushes,
            text.len(),
            load()
        );
        growth(shape, options.stress_budget, &dir, &binaries[0], root)?;
        let crates: Vec<PathBuf> = checkouts
            .iter()
            .map(|(label, _)| dir.join(format!("{}-{label}", shape.name)))
            .collect();
        let mut generated: Vec<Vec<Cost>> = vec![Vec::new(); checkouts.len()];
        let mut checked: Vec<Vec<Cost>> = vec![Vec::new(); checkouts.len()];
        let mut failed = vec![false; checkouts.len()];
        for run in 0..options.runs {
            for offset in 0..checkouts.len() {
                let index = (run + offset) % checkouts.len();
                if failed[index] {
                    continue;
                }
                let (label, checkout) = &checkouts[index];
                let out = &crates[index];
                remove_dir(&out.join("src"))?;
                let mut command = bounded(binaries[index].as_os_str());
                command
                    .current_dir(checkout)
                    .arg("regen")
                    .arg("--spec")
                    .arg(&spec)
                    .arg("--out")
                    .arg(out)
                    .args(["--name", &format!("stress-{}-{label}", shape.name)])
                    .arg("--own-workspace");
                let cost = match measure(command) {
                    Ok(cost) => cost,
                    Err(error) => {
                        println!(
                            "  run {}: {label} generation failed: {}",
                            run + 1,
                            first_lines(&error)
                        );
                        failed[index] = true;
                        continue;
                    }
                };
                println!(
                    "  run {}: {label:<6} generate {}  {} lines",
                    run + 1,
                    describe(&cost),
                    rust_lines(&out.join("src"))?
                );
                generated[index].push(cost);
                if options.stress_generate_only {
                    continue;
                }
                let lock = out.join("Cargo.lock");
                if !lock.is_file() {
                    fs::copy(checkout.join("Cargo.lock"), &lock).context("copying Cargo.lock")?;
                }
                let check = || {
                    let mut command =
                        bounded(&std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
                    for (name, _) in std::env::vars_os() {
                        let text = name.to_string_lossy();
                        if text.starts_with("CARGO_PKG_")
                            || text.starts_with("CARGO_MANIFEST_")
                            || matches!(
                                text.as_ref(),
                                "CARGO_CRATE_NAME"
                                    | "CARGO_PRIMARY_PACKAGE"
                                    | "CARGO_TARGET_DIR"
                                    | "RUSTFLAGS"
                            )
                        {
                            command.env_remove(&name);
                        }
                    }
                    command
                        .current_dir(out)
                        .args(["check", "--offline", "--target-dir"])
                        .arg(&target);
                    measure(command)
                };
                if run == 0 {
                    // The dependencies (and the crate once), not counted.
                    if let Err(error) = check() {
                        println!("  run 1: {label} check failed: {}", first_lines(&error));
                        failed[index] = true;
                        continue;
                    }
                }
                touch(&out.join("src/lib.rs"))?;
                match check() {
                    Ok(cost) => {
                        println!("  run {}: {label:<6} check    {}", run + 1, describe(&cost));
                        checked[index].push(cost);
                    }
                    Err(error) => {
                        println!(
                            "  run {}: {label} check failed: {}",
                            run + 1,
                            first_lines(&error)
                        );
                        failed[index] = true;
                    }
                }
            }
        }
        for ((label, _), (generated, checked)) in
            checkouts.iter().zip(generated.iter().zip(&checked))
        {
            if !generated.is_empty() {
                single(&format!("{} {label} generation", shape.name), generated);
            }
            if !checked.is_empty() {
                single(
                    &format!("{} {label} check after a touch", shape.name),
                    checked,
                );
            }
        }
        if checkouts.len() == 2 {
            if !generated[0].is_empty() && !generated[1].is_empty() {
                paired(
                    &format!("{} generation, ours / before", shape.name),
                    &generated[0],
                    &generated[1],
                );
            }
            if !checked[0].is_empty() && !checked[1].is_empty() {
                paired(
                    &format!("{} check, ours / before", shape.name),
                    &checked[0],
                    &checked[1],
                );
            }
        }
    }
    Ok(())
}

/// How the shape's output grows: the lines our generator emits for the document of a quarter
/// of the budget and for the full one, and the exponent `log(lines ratio) / log(size ratio)`
/// (1: linear in the document; 2: quadratic).
fn growth(
    shape: &stress::Shape,
    budget: usize,
    dir: &Path,
    binary: &Path,
    root: &Path,
) -> Result<()> {
    let mut sizes_and_lines = Vec::new();
    for (suffix, budget) in [("quarter", budget / 4), ("full", budget)] {
        let Some((text, _)) = stress::document(shape, budget) else {
            return Ok(());
        };
        let spec = dir.join(format!("{}-{suffix}.json", shape.name));
        write(&spec, &text)?;
        let out = dir.join(format!("{}-growth-{suffix}", shape.name));
        remove_dir(&out)?;
        let mut command = bounded(binary.as_os_str());
        command
            .current_dir(root)
            .arg("regen")
            .arg("--spec")
            .arg(&spec)
            .arg("--out")
            .arg(&out)
            .args(["--name", "stress-growth", "--own-workspace"]);
        if let Err(error) = measure(command) {
            println!(
                "  growth: the {suffix} document failed: {}",
                first_lines(&error)
            );
            return Ok(());
        }
        sizes_and_lines.push((text.len() as f64, rust_lines(&out.join("src"))? as f64));
        remove_dir(&out)?;
    }
    if let [(small_size, small_lines), (size, lines)] = sizes_and_lines.as_slice() {
        println!(
            "  growth: {small_lines} lines at {small_size} bytes, {lines} at {size}: exponent {:.2}",
            (lines / small_lines).ln() / (size / small_size).ln()
        );
    }
    Ok(())
}

/// `program` under `timeout 900` when the machine has it: a stress step that hangs is reported
/// as failed instead of stopping the bench.
fn bounded(program: &std::ffi::OsStr) -> Command {
    let timeout = Path::new("/usr/bin/timeout");
    if timeout.is_file() {
        let mut command = Command::new(timeout);
        command.arg("900").arg(program);
        command
    } else {
        Command::new(program)
    }
}

/// The first lines of an error's report, for a one-line note in the bench's output.
fn first_lines(error: &anyhow::Error) -> String {
    let text = format!("{error:#}");
    let lines: Vec<&str> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .collect();
    let tail = lines.len().saturating_sub(3);
    lines[tail..].join(" | ")
}

/// A large document's crate: `cargo check` after a touch, with the peak memory of its rustc.
fn large_document(root: &Path, scratch: &Path, large: &Path, options: &Options) -> Result<()> {
    println!(
        "\n## large: {} — `cargo check` after a touch, peak rustc memory",
        large.display()
    );
    let out = scratch.join("large");
    generate_into(root, large, &out, "bench-large")?;
    println!("  {} lines emitted", rust_lines(&out.join("src"))?);
    let check = |label: &str| -> Result<Cost> {
        let mut command = cargo();
        command.current_dir(&out).args(["check", "--offline"]);
        let cost = measure(command)?;
        println!("  {label}: {}", describe(&cost));
        Ok(cost)
    };
    check("first check (with dependencies)")?;
    let mut touched = Vec::new();
    for run in 0..options.runs {
        touch(&out.join("src/lib.rs"))?;
        touched.push(check(&format!("run {}: after a touch", run + 1))?);
    }
    single("large check after a touch", &touched);
    Ok(())
}

/// Peak memory of `baseten-metrics show FILE` as a table and as CSV, on a synthetic `SERIES`
/// response of about `--table-mib` MiB (100 by default), for this checkout's CLI and, with
/// `--before DIR`, that checkout's (built with `DIR/target`); each run alternates the two.
fn table(root: &Path, scratch: &Path, options: &Options) -> Result<()> {
    println!(
        "\n## table: `baseten-metrics show` peak memory on a {} MiB response",
        options.table_mib
    );
    let dir = scratch.join("table");
    fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let response = dir.join("response.json");
    let size = write_synthetic_response(&response, options.table_mib << 20)?;
    println!("  {} bytes in {}", size, response.display());
    let mut clis = vec![("ours", cli_binary(root, &root.join("target"))?)];
    if let Some(before) = &options.before {
        clis.push(("before", cli_binary(before, &before.join("target"))?));
    }
    for format in ["table", "csv"] {
        let mut peaks: Vec<Vec<Cost>> = clis.iter().map(|_| Vec::new()).collect();
        for run in 0..options.runs {
            for offset in 0..clis.len() {
                let index = (run + offset) % clis.len();
                let (label, binary) = &clis[index];
                let mut command = Command::new(binary);
                command
                    .arg("show")
                    .arg(&response)
                    .args(["--format", format]);
                let cost = measure(command)?;
                println!(
                    "  run {}: {label:<6} --format {format:<5} {}  = {:.2}x the input",
                    run + 1,
                    describe(&cost),
                    (cost.max_rss_kib as f64 * 1024.0) / size as f64
                );
                peaks[index].push(cost);
            }
        }
        for ((label, _), costs) in clis.iter().zip(&peaks) {
            let (wall, _, rss) = medians(costs);
            println!(
                "  => {label} --format {format}: median peak {rss:.1} MiB = {:.2}x the input, wall {wall:.2} s",
                rss * 1024.0 * 1024.0 / size as f64
            );
        }
    }
    Ok(())
}

/// Builds the CLI of `checkout` (dev profile: the data structures, so the memory, are those of
/// a release build) and gives its path.
fn cli_binary(checkout: &Path, target: &Path) -> Result<PathBuf> {
    let mut command = cargo();
    command
        .current_dir(checkout)
        .args([
            "build",
            "--offline",
            "--quiet",
            "-p",
            "baseten-metrics",
            "--target-dir",
        ])
        .arg(target);
    measure(command)?;
    Ok(target.join("debug/baseten-metrics"))
}

/// A valid `SERIES` response of at least `bytes` bytes: 20 metrics of 5 label sets, one step a
/// second, values that are a mix of integers, fractions and nulls. Returns its size.
fn write_synthetic_response(path: &Path, bytes: usize) -> Result<usize> {
    use std::io::Write as _;
    const METRICS: usize = 20;
    const LABEL_SETS: usize = 5;
    let mut descriptors = Vec::new();
    for metric in 0..METRICS {
        let labels: Vec<String> = (0..LABEL_SETS)
            .map(|set| format!("{{\"replica\":\"r{set}\",\"status\":\"{}\"}}", 200 + set))
            .collect();
        descriptors.push(format!(
            "{{\"name\":\"baseten_synthetic_{metric}\",\"unit_hint\":\"COUNT\",\"kind\":\"GAUGE\",\"label_sets\":[{}]}}",
            labels.join(",")
        ));
    }
    let mut step = String::new();
    let mut body: Vec<u8> = Vec::with_capacity(bytes + (1 << 20));
    let mut steps = 0usize;
    while body.len() < bytes {
        step.clear();
        let _ = write!(
            step,
            "{{\"start_epoch_millis\":{},\"values\":[",
            steps * 1000
        );
        for metric in 0..METRICS {
            step.push_str(if metric == 0 { "[" } else { ",[" });
            for set in 0..LABEL_SETS {
                if set > 0 {
                    step.push(',');
                }
                let seed = steps * 31 + metric * 7 + set;
                match seed % 5 {
                    0 => step.push_str("null"),
                    1 => {
                        let _ = write!(step, "{}", seed % 1000);
                    }
                    _ => {
                        let _ = write!(step, "{}.{:06}", seed % 1000, (seed * 7919) % 1_000_000);
                    }
                }
            }
            step.push(']');
        }
        step.push_str("]}");
        if steps > 0 {
            body.push(b',');
        }
        body.extend_from_slice(step.as_bytes());
        steps += 1;
    }
    let mut file = std::io::BufWriter::new(
        fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
    );
    write!(
        file,
        "{{\"start_epoch_millis\":0,\"end_epoch_millis\":{},\"mode\":\"SERIES\",\"step_seconds\":1,\"metric_descriptors\":[{}],\"metric_values\":[",
        steps * 1000,
        descriptors.join(",")
    )?;
    file.write_all(&body)?;
    file.write_all(b"]}")?;
    file.flush()?;
    Ok(fs::metadata(path)?.len() as usize)
}

/// `regen --spec DOC --out DIR --own-workspace` by this process (the codegen library), with the
/// workspace's lock copied in so nothing resolves anew.
fn generate_into(root: &Path, spec: &Path, out: &Path, name: &str) -> Result<()> {
    let started = Instant::now();
    let runtime = root.join(regen::RUNTIME_DIR);
    let target = regen::Standalone {
        spec,
        out,
        config: None,
        name: Some(name),
        own_workspace: true,
        strict: false,
        runtime: &runtime,
        report: false,
    };
    regen::run_standalone(&target, regen::Mode::Overwrite)?;
    let lock = out.join("Cargo.lock");
    if !lock.is_file() {
        fs::copy(root.join("Cargo.lock"), &lock).context("copying Cargo.lock")?;
    }
    println!(
        "  generated into {} in {:.2} s (this binary's profile)",
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The decode-only consumer: the crate's own decode, validation and CSV export.
const DECODE_ONLY: &str = r#"//! Decode, validate and print the CSV of a saved metrics response, on baseten-api alone.
use baseten_api::metrics;
use baseten_api::models::GetModelMetricsResponseV1;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: decode-only RESPONSE.json")?;
    let bytes = std::fs::read(path)?;
    let response: GetModelMetricsResponseV1 = metrics::decode(&bytes)?;
    let view = metrics::validate(&response)?;
    view.write_csv(std::io::stdout().lock())?;
    Ok(())
}
"#;

/// The baseline: the same program as a careful user would write it on serde + serde_json, the
/// envelope derived and the values walked as `serde_json::Value`.
const SERDE_ONLY: &str = r#"//! Decode, validate and print the CSV of a saved metrics response, on serde + serde_json alone.
use std::io::Write;

use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
struct Response {
    mode: String,
    step_seconds: Option<u64>,
    metric_descriptors: Vec<Descriptor>,
    metric_values: Vec<Step>,
}

#[derive(Deserialize)]
struct Descriptor {
    name: String,
    label_sets: Vec<serde_json::Map<String, Value>>,
}

#[derive(Deserialize)]
struct Step {
    start_epoch_millis: u64,
    values: Vec<Vec<Value>>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: serde-only RESPONSE.json")?;
    let bytes = std::fs::read(path)?;
    let response: Response = serde_json::from_slice(&bytes)?;
    let step_ms = response.step_seconds.unwrap_or(0) * 1000;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    writeln!(out, "step_start_ms,step_end_ms,metric,labels,value")?;
    for step in &response.metric_values {
        if step.values.len() != response.metric_descriptors.len() {
            return Err(format!("{} mode: a step's value lists do not match the descriptors", response.mode).into());
        }
        for (descriptor, values) in response.metric_descriptors.iter().zip(&step.values) {
            if values.len() != descriptor.label_sets.len() {
                return Err(format!("{}: values do not match the label sets", descriptor.name).into());
            }
            for (labels, value) in descriptor.label_sets.iter().zip(values) {
                let labels: Vec<String> = labels
                    .iter()
                    .map(|(key, value)| format!("{key}={}", value.as_str().unwrap_or_default()))
                    .collect();
                let value = value.as_f64().map(|v| v.to_string()).unwrap_or_default();
                let end = step.start_epoch_millis + step_ms;
                writeln!(out, "{},{end},{},\"{}\",{value}", step.start_epoch_millis, descriptor.name, labels.join(";"))?;
            }
        }
    }
    out.flush()?;
    Ok(())
}
"#;

/// The cargo running this xtask, with this run's package variables removed (a nested cargo would
/// see a changed environment and rebuild).
fn cargo() -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    for (name, _) in std::env::vars_os() {
        let text = name.to_string_lossy();
        if text.starts_with("CARGO_PKG_")
            || text.starts_with("CARGO_MANIFEST_")
            || text == "CARGO_CRATE_NAME"
            || text == "CARGO_PRIMARY_PACKAGE"
            || text == "CARGO_TARGET_DIR"
            || text == "RUSTFLAGS"
        {
            command.env_remove(&name);
        }
    }
    command.env("CARGO_TERM_COLOR", "never");
    command
}

/// Runs `command` under GNU time (`/usr/bin/time -f`) when the machine has it, for its CPU time
/// and peak memory; wall time always. Fails when the command does.
fn measure(command: Command) -> Result<Cost> {
    let gnu_time = Path::new("/usr/bin/time");
    let report = std::env::temp_dir().join(format!("bench-build-{}.time", std::process::id()));
    let mut run = if gnu_time.is_file() {
        let mut wrapped = Command::new(gnu_time);
        wrapped
            .arg("-o")
            .arg(&report)
            .args(["-f", "%U %S %M"])
            .arg(command.get_program())
            .args(command.get_args());
        if let Some(dir) = command.get_current_dir() {
            wrapped.current_dir(dir);
        }
        for (name, value) in command.get_envs() {
            match value {
                Some(value) => wrapped.env(name, value),
                None => wrapped.env_remove(name),
            };
        }
        wrapped
    } else {
        command
    };
    let shown = format!("{run:?}");
    let started = Instant::now();
    let output = run
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .with_context(|| format!("running {shown}"))?;
    let wall = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        bail!("{shown} failed:\n{stderr}");
    }
    let units = stderr
        .lines()
        .filter(|line| {
            let line = line.trim_start();
            line.starts_with("Compiling ") || line.starts_with("Checking ")
        })
        .count();
    let (mut cpu, mut max_rss_kib) = (Duration::ZERO, 0);
    if let Ok(text) = fs::read_to_string(&report) {
        // The last line: GNU time may put a "Command exited…" line first.
        let fields: Vec<&str> = text
            .lines()
            .last()
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        if let [user, system, rss] = fields.as_slice() {
            let seconds = |text: &str| text.parse::<f64>().unwrap_or(0.0);
            cpu = Duration::from_secs_f64(seconds(user) + seconds(system));
            max_rss_kib = rss.parse().unwrap_or(0);
        }
        let _ = fs::remove_file(&report);
    }
    Ok(Cost {
        wall,
        cpu,
        max_rss_kib,
        units,
    })
}

fn describe(cost: &Cost) -> String {
    format!(
        "wall {:6.2} s  cpu {:6.2} s  peak {:7.1} MiB  {} units",
        cost.wall.as_secs_f64(),
        cost.cpu.as_secs_f64(),
        cost.max_rss_kib as f64 / 1024.0,
        cost.units
    )
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len().is_multiple_of(2) && middle > 0 {
        (values[middle - 1] + values[middle]) / 2.0
    } else {
        values.get(middle).copied().unwrap_or(0.0)
    }
}

fn medians(costs: &[Cost]) -> (f64, f64, f64) {
    (
        median(costs.iter().map(|c| c.wall.as_secs_f64()).collect()),
        median(costs.iter().map(|c| c.cpu.as_secs_f64()).collect()),
        median(
            costs
                .iter()
                .map(|c| c.max_rss_kib as f64 / 1024.0)
                .collect(),
        ),
    )
}

/// One figure's medians.
fn single(label: &str, costs: &[Cost]) {
    let (wall, cpu, rss) = medians(costs);
    println!("  => {label}: median wall {wall:.2} s, cpu {cpu:.2} s, peak {rss:.1} MiB");
}

/// Two paired figures' medians and their ratios.
fn paired(label: &str, ours: &[Cost], baseline: &[Cost]) {
    let (ours_wall, ours_cpu, ours_rss) = medians(ours);
    let (base_wall, base_cpu, base_rss) = medians(baseline);
    let mut line = String::new();
    let _ = write!(
        line,
        "  => {label}: wall {ours_wall:.2} s / {base_wall:.2} s = {:.2}x; \
         cpu {ours_cpu:.2} s / {base_cpu:.2} s = {:.2}x; peak {ours_rss:.0} / {base_rss:.0} MiB; \
         units {} / {}",
        ours_wall / base_wall.max(f64::MIN_POSITIVE),
        ours_cpu / base_cpu.max(f64::MIN_POSITIVE),
        ours.first().map_or(0, |c| c.units),
        baseline.first().map_or(0, |c| c.units),
    );
    println!("{line}");
}

/// The 1, 5 and 15 minute load averages, as `/proc/loadavg` gives them.
fn load() -> String {
    match fs::read_to_string("/proc/loadavg") {
        Ok(text) => {
            let fields: Vec<&str> = text.split_whitespace().take(3).collect();
            format!("load average {}", fields.join(" "))
        }
        Err(_) => "load average unknown".to_owned(),
    }
}

/// The lexicographically last `baseten-management-*.json` (their names carry the date).
fn newest_document(specs: &Path) -> Result<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(specs)
        .with_context(|| format!("listing {}", specs.display()))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| {
                    name.starts_with("baseten-management-") && name.ends_with(".json")
                })
        })
        .collect();
    found.sort();
    found
        .pop()
        .with_context(|| format!("no baseten-management-*.json in {}", specs.display()))
}

fn rust_lines(dir: &Path) -> Result<usize> {
    let mut lines = 0;
    for entry in fs::read_dir(dir).with_context(|| format!("listing {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            lines += rust_lines(&path)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            lines += fs::read_to_string(&path)?.lines().count();
        }
    }
    Ok(lines)
}

fn touch(path: &Path) -> Result<()> {
    let file = fs::File::options()
        .append(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    file.set_modified(std::time::SystemTime::now())
        .with_context(|| format!("touching {}", path.display()))
}

fn write(path: &Path, contents: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    }
    fs::write(path, contents).with_context(|| format!("writing {}", path.display()))
}

fn remove_dir(path: &Path) -> Result<()> {
    match fs::remove_dir_all(path) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
            Err(error).with_context(|| format!("removing {}", path.display()))
        }
        _ => Ok(()),
    }
}
