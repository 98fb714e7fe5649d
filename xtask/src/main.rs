//! Project automation. `cargo xtask regen` writes the emitted files of `baseten-api` from
//! `schema/`; `cargo xtask regen --check` writes nothing and fails when they have drifted.

mod regen;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask regen [--check] [--root DIR]

  regen          generate generated/src/gen/ from schema/
  regen --check  write nothing; fail with a diff when generated/src/gen/ is stale
  --root DIR     a workspace other than this one (tests use a scratch copy)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    let root = match args.iter().position(|arg| *arg == "--root") {
        Some(at) if at + 1 < args.len() => {
            let root = std::path::PathBuf::from(args[at + 1]);
            args.drain(at..at + 2);
            root
        }
        Some(_) => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
        None => regen::workspace_root(),
    };
    let result = match args.as_slice() {
        ["regen"] => regen::run(&root, regen::Mode::Overwrite),
        ["regen", "--check"] => regen::run(&root, regen::Mode::Check),
        ["help" | "--help" | "-h"] => {
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
