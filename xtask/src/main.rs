//! Project automation. `cargo xtask regen` writes the emitted files of `baseten-api` from
//! `schema/`; `cargo xtask regen --check` writes nothing and fails when they have drifted.

mod regen;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask regen [--check]

  regen          generate generated/src/gen/ from schema/
  regen --check  write nothing; fail with a diff when generated/src/gen/ is stale";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["regen"] => regen::run(regen::Mode::Overwrite),
        ["regen", "--check"] => regen::run(regen::Mode::Check),
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
