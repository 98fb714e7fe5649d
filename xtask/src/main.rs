//! Project automation. `cargo xtask regen` writes the emitted files of `baseten-api` from
//! `schema/`; `cargo xtask regen --check` writes nothing and fails when they have drifted;
//! `cargo xtask corpus DIR` generates and compiles every document in a directory (see
//! `codegen/CORPUS.md`); `cargo xtask bench-build` prints what depending on the crate costs.

mod bench_build;
mod corpus;
mod regen;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};

/// Generation is allocation-bound (tokens, syn trees, strings): mimalloc takes 10-25% off
/// glibc's CPU time on large documents, which keeps every 5 MB document under 10 s.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "\
usage: cargo xtask regen [--check] [--strict] [--root DIR]
       cargo xtask regen --spec PATH --out DIR [--name NAME] [--config PATH] [--own-workspace] [--check] [--strict]
       cargo xtask diff OLD NEW [--config PATH] [--strict]
       cargo xtask corpus DIR [--out DIR] [--strict] [--generate-only] [--values-detail] [--round-trip]
       cargo xtask bench-build [--runs N] [--only SECTION,..] [--large PATH] [--specs DIR] [--response PATH] [--before DIR] [--table-mib N]
                         [--progenitor BIN [--progenitor-input FILE]]
                         [--stress-shapes NAME,..] [--stress-budget BYTES] [--stress-generate-only]

  regen            generate generated/src/gen/ from schema/
  regen --check    write nothing; fail with a diff when the output is stale
  --root DIR       a workspace other than the one this is run in (tests use a scratch copy)
  --spec PATH      generate a crate from any OpenAPI document into --out DIR, all operations
                   unless --config selects some; it depends on this workspace's runtime by a
                   relative path
  --name NAME      the generated crate's package name (default: the name of the crate --out
                   already holds, else generated-<file stem>); a new name is reported as
                   breaking
  --own-workspace  give the generated crate a [workspace] table of its own (for a crate
                   outside any workspace); without it, it can be an enclosing workspace's member
  --strict         what the generator cannot represent is an error, not a note (as
                   `strict: true` in the config)
  diff OLD NEW     the changes NEW makes to the generated API, each breaking or additive;
                   with --config, to the crate that config selects (an operation it names
                   that NEW lacks is a removal, an error only with --strict)
  corpus DIR       generate every document in DIR as a crate (members of one workspace, in
                   --out DIR or a temporary directory), `cargo check` them once, print a table
  --generate-only  corpus without the `cargo check` (the compiled and warnings columns say -)
  --values-detail  corpus: also list every place typed serde_json::Value although the document
                   declares a structure there (pointer, reason class, reason)
  --round-trip     corpus: then the round-trip property over every type of every crate
                   (baseten-tests' slow `corpus_round_trip` test, bounded cases per type)
  bench-build      paired build figures with the load average (medians of --runs, default 3):
                   decode: a decode-only consumer vs a serde-only program, clean builds;
                   consumer: three client calls on tokio (default features), clean build
                   and rebuild after an edit of main.rs, vs the serde-only program;
                   full: the newest ../shared/specs document's crate, check after a touch;
                   generate: its generation by the release xtask, then ours and progenitor-impl
                   (crates.io) as libraries in one process, paired; large: --large PATH's crate,
                   check after a touch and peak rustc memory. --before DIR: another checkout
                   (a worktree of main) whose decode-only consumer and CLI join the same runs.
                   table: `baseten-metrics show` peak memory (table, csv) on a synthetic
                   --table-mib MiB response (default 100)
                   stress: synthetic valid documents of at most --stress-budget bytes
                   (default 5,000,000), one shape each pushed to its limit (--stress-shapes
                   picks some): size, generation by the release xtask, lines, `cargo check`
                   after a touch (not with --stress-generate-only); --before DIR's generator
                   joins the same runs
                   Scratch: target/bench-build/
  --progenitor BIN generate and full also time progenitor (your `cargo install cargo-progenitor`)
                   and its crate, on the document as our lowering writes it (3.0, with
                   operation ids) or on --progenitor-input FILE (a copy trimmed of what
                   progenitor refuses)";

fn main() -> ExitCode {
    match run(pico_args::Arguments::from_env()) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(mut args: pico_args::Arguments) -> Result<ExitCode> {
    if args.contains(["-h", "--help"]) {
        println!("{USAGE}");
        return Ok(ExitCode::SUCCESS);
    }
    if std::env::args_os()
        .nth(1)
        .is_some_and(|first| first == "bench-build")
    {
        // `bench-build` first: its flags are its own.
        let _ = args.subcommand();
        return bench_build_command(args);
    }
    let generate_only = args.contains("--generate-only");
    let values_detail = args.contains("--values-detail");
    let round_trip = args.contains("--round-trip");
    let parsed = (|| -> Result<_, pico_args::Error> {
        let mode = if args.contains("--check") {
            regen::Mode::Check
        } else {
            regen::Mode::Overwrite
        };
        let own_workspace = args.contains("--own-workspace");
        let strict = args.contains("--strict");
        let root: Option<PathBuf> = args.opt_value_from_os_str("--root", to_path)?;
        let spec: Option<PathBuf> = args.opt_value_from_os_str("--spec", to_path)?;
        let out: Option<PathBuf> = args.opt_value_from_os_str("--out", to_path)?;
        let config: Option<PathBuf> = args.opt_value_from_os_str("--config", to_path)?;
        let name: Option<String> = args.opt_value_from_str("--name")?;
        Ok((mode, own_workspace, strict, root, spec, out, config, name))
    })();
    let Ok((mode, own_workspace, strict, root, spec, out, config, name)) = parsed else {
        eprintln!("{USAGE}");
        return Ok(ExitCode::from(2));
    };
    let free: Vec<String> = args
        .finish()
        .into_iter()
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect();
    let free: Vec<&str> = free.iter().map(String::as_str).collect();
    match (free.as_slice(), spec, out) {
        (["regen"], None, None) if name.is_none() && config.is_none() && !own_workspace => {
            let root = match root {
                Some(root) => root,
                None => regen::workspace_root()?,
            };
            regen::run(&root, mode, strict)?;
        }
        (["regen"], Some(spec), Some(out)) if root.is_none() => {
            let runtime = regen::workspace_root()?.join(regen::RUNTIME_DIR);
            let target = regen::Standalone {
                spec: &spec,
                out: &out,
                config: config.as_deref(),
                name: name.as_deref(),
                own_workspace,
                strict,
                runtime: &runtime,
                report: true,
            };
            regen::run_standalone(&target, mode)?;
        }
        (["corpus", dir], None, out)
            if root.is_none()
                && name.is_none()
                && config.is_none()
                && mode == regen::Mode::Overwrite =>
        {
            let runtime = regen::workspace_root()?.join(regen::RUNTIME_DIR);
            let options = corpus::Options {
                strict,
                check: !generate_only,
                values_detail,
                round_trip,
            };
            return corpus::run(std::path::Path::new(dir), out.as_deref(), &runtime, options);
        }
        (["diff", old, new], None, None)
            if root.is_none()
                && name.is_none()
                && !own_workspace
                && mode == regen::Mode::Overwrite =>
        {
            let (old, new) = (std::path::Path::new(old), std::path::Path::new(new));
            regen::diff(old, new, config.as_deref(), strict)?;
        }
        (["regen"], Some(_), None) | (["regen"], None, Some(_)) => {
            bail!("--spec and --out go together\n\n{USAGE}")
        }
        _ => {
            eprintln!("{USAGE}");
            return Ok(ExitCode::from(2));
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn bench_build_command(mut args: pico_args::Arguments) -> Result<ExitCode> {
    let root = regen::workspace_root()?;
    let shared = root.join("../shared");
    let parsed = (|| -> Result<_, pico_args::Error> {
        let runs: usize = args.opt_value_from_str("--runs")?.unwrap_or(3);
        let only: Option<String> = args.opt_value_from_str("--only")?;
        let large: Option<PathBuf> = args.opt_value_from_os_str("--large", to_path)?;
        let specs: Option<PathBuf> = args.opt_value_from_os_str("--specs", to_path)?;
        let response: Option<PathBuf> = args.opt_value_from_os_str("--response", to_path)?;
        let before: Option<PathBuf> = args.opt_value_from_os_str("--before", to_path)?;
        let table_mib: usize = args.opt_value_from_str("--table-mib")?.unwrap_or(100);
        let progenitor = args.opt_value_from_os_str("--progenitor", to_path)?;
        let progenitor_input = args.opt_value_from_os_str("--progenitor-input", to_path)?;
        let progenitor_paths = (progenitor, progenitor_input);
        let stress_shapes: Option<String> = args.opt_value_from_str("--stress-shapes")?;
        let stress_budget: Option<usize> = args.opt_value_from_str("--stress-budget")?;
        let stress = (
            stress_shapes,
            stress_budget,
            args.contains("--stress-generate-only"),
        );
        Ok((
            runs,
            only,
            large,
            specs,
            response,
            before,
            table_mib,
            progenitor_paths,
            stress,
        ))
    })();
    let Ok((runs, only, large, specs, response, before, table_mib, progenitor_paths, stress)) =
        parsed
    else {
        eprintln!("{USAGE}");
        return Ok(ExitCode::from(2));
    };
    if !args.finish().is_empty() {
        eprintln!("{USAGE}");
        return Ok(ExitCode::from(2));
    }
    let sections = match only {
        Some(only) => only.split(',').map(str::to_owned).collect(),
        None => bench_build::SECTIONS.map(str::to_owned).to_vec(),
    };
    let options = bench_build::Options {
        runs,
        sections,
        large,
        specs: specs.unwrap_or_else(|| shared.join("specs")),
        response: response
            .unwrap_or_else(|| shared.join("recorded/deployment-series-20m-requests.json")),
        before,
        table_mib,
        progenitor: progenitor_paths.0,
        progenitor_input: progenitor_paths.1,
        stress_shapes: stress
            .0
            .map(|shapes| shapes.split(',').map(str::to_owned).collect())
            .unwrap_or_default(),
        stress_budget: stress.1.unwrap_or(bench_build::stress::FULL_BUDGET),
        stress_generate_only: stress.2,
    };
    bench_build::run(&root, &options)?;
    Ok(ExitCode::SUCCESS)
}

fn to_path(value: &std::ffi::OsStr) -> Result<PathBuf, std::convert::Infallible> {
    Ok(PathBuf::from(value))
}
