//! The `baseten-metrics` binary: hands the process's arguments, environment and streams to
//! [`baseten_metrics::run`].

use std::process::ExitCode;

fn main() -> ExitCode {
    let context = baseten_metrics::Context::from_process();
    baseten_metrics::run(
        std::env::args_os(),
        &context,
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    )
}
