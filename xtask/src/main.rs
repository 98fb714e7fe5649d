//! Project automation. `cargo xtask regen` writes the emitted files of `baseten-api` from
//! `schema/`; `cargo xtask regen --check` writes nothing and fails when they have drifted.

mod regen;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask regen [--check] [--root DIR]
       cargo xtask regen --spec PATH --out DIR [--config PATH] [--check]
       cargo xtask diff OLD NEW

  regen          generate generated/src/gen/ from schema/
  regen --check  write nothing; fail with a diff when the output is stale
  --root DIR     a workspace other than this one (tests use a scratch copy)
  --spec PATH    generate a standalone crate from any OpenAPI document into --out DIR,
                 all operations unless --config selects some
  diff OLD NEW   the changes NEW makes to the generated API, each breaking or additive";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut take = |flag: &str| -> Result<Option<std::path::PathBuf>, ()> {
        match args.iter().position(|arg| *arg == flag) {
            Some(at) if at + 1 < args.len() => {
                let value = std::path::PathBuf::from(args[at + 1]);
                args.drain(at..at + 2);
                Ok(Some(value))
            }
            Some(_) => Err(()),
            None => Ok(None),
        }
    };
    let (Ok(root), Ok(spec), Ok(out), Ok(config)) = (
        take("--root"),
        take("--spec"),
        take("--out"),
        take("--config"),
    ) else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let root = root.unwrap_or_else(regen::workspace_root);
    let mode = if args.contains(&"--check") {
        regen::Mode::Check
    } else {
        regen::Mode::Overwrite
    };
    args.retain(|arg| *arg != "--check");
    let result = match (args.as_slice(), spec, out) {
        (["regen"], None, None) => regen::run(&root, mode),
        (["diff", old, new], None, None) => {
            regen::diff(std::path::Path::new(old), std::path::Path::new(new))
        }
        (["regen"], Some(spec), Some(out)) => {
            regen::run_standalone(&spec, &out, config.as_deref(), mode)
        }
        (["help" | "--help" | "-h"], None, None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
