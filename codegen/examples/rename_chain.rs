//! Times the change report on a document whose structs form one chain (`S0 { next: S1 }`, …),
//! every one renamed in the new document (`R0 { next: R1 }`, …), against generating the new
//! document: `cargo run --release -p baseten-codegen --example rename_chain -- [LINKS ...]`.
//! Prints the wall times per chain length; a figure, not a test.

use std::fmt::Write;
use std::time::Instant;

fn chain_document(links: usize, prefix: &str) -> String {
    let mut text = String::from(
        "{\"openapi\": \"3.1.0\", \"info\": {\"title\": \"t\", \"version\": \"1\"}, \"paths\": {}, \
         \"components\": {\"schemas\": {",
    );
    for i in 0..links {
        let _ = write!(
            text,
            "\"{prefix}{i}\": {{\"type\": \"object\", \"required\": [\"value\"], \"properties\": \
             {{\"value\": {{\"type\": \"string\"}}, \"next\": {{\"$ref\": \
             \"#/components/schemas/{prefix}{}\"}}}}}}, ",
            i + 1
        );
    }
    let _ = write!(
        text,
        "\"{prefix}{links}\": {{\"type\": \"object\", \"properties\": {{\"value\": {{\"type\": \
         \"string\"}}}}}}}}}}}}"
    );
    text
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut lengths: Vec<usize> = std::env::args()
        .skip(1)
        .map(|arg| arg.parse())
        .collect::<Result<_, _>>()?;
    if lengths.is_empty() {
        lengths = vec![100, 200, 400, 600];
    }
    for links in lengths {
        let (old, new) = (chain_document(links, "S"), chain_document(links, "R"));
        let input = |text: &'static str| baseten_codegen::Input {
            spec_path: "chain.json",
            spec_text: text,
            config_text: None,
        };
        let (old, new): (&'static str, &'static str) = (old.leak(), new.leak());
        let started = Instant::now();
        baseten_codegen::generate(&input(new))?;
        let generation = started.elapsed();
        let (old_api, _) = baseten_codegen::build_ir(&input(old))?;
        let (new_api, _) = baseten_codegen::build_ir(&input(new))?;
        let started = Instant::now();
        let report = baseten_codegen::diff::api_changes(&old_api, &new_api)?;
        let reporting = started.elapsed();
        let renames = report
            .changes
            .iter()
            .filter(|c| c.description.contains("renamed"))
            .count();
        println!(
            "{links} structs renamed: report {:.1} ms ({renames} renames), generation {:.1} ms",
            reporting.as_secs_f64() * 1e3,
            generation.as_secs_f64() * 1e3
        );
    }
    Ok(())
}
