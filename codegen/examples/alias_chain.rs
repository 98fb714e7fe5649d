//! Times generation of a document whose schemas are one long chain of aliases (`A0 → A1 → … →
//! An`, the last an object), written as `$ref`-only schemas and as single-`$ref` `allOf`
//! wrappers: `cargo run --release -p baseten-codegen --example alias_chain -- [LINKS ...]`.
//! Prints the wall time per chain length and form; a figure, not a test.

use std::fmt::Write;
use std::time::Instant;

fn chain_document(links: usize, wrapped: bool) -> String {
    let mut text = String::from(
        "{\"openapi\": \"3.1.0\", \"info\": {\"title\": \"t\", \"version\": \"1\"}, \"paths\": {}, \
         \"components\": {\"schemas\": {",
    );
    for i in 0..links {
        let reference = format!("{{\"$ref\": \"#/components/schemas/A{}\"}}", i + 1);
        let _ = if wrapped {
            write!(text, "\"A{i}\": {{\"allOf\": [{reference}]}}, ")
        } else {
            write!(text, "\"A{i}\": {reference}, ")
        };
    }
    let _ = write!(
        text,
        "\"A{links}\": {{\"type\": \"object\", \"properties\": {{\"x\": {{\"type\": \"string\"}}}}}}}}}}}}"
    );
    text
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut lengths: Vec<usize> = std::env::args()
        .skip(1)
        .map(|n| n.parse())
        .collect::<Result<_, _>>()?;
    if lengths.is_empty() {
        lengths = vec![1_000, 2_000, 3_000, 10_000];
    }
    for (links, wrapped) in lengths
        .into_iter()
        .flat_map(|links| [(links, false), (links, true)])
    {
        let text = chain_document(links, wrapped);
        let input = baseten_codegen::Input {
            spec_path: "alias_chain.json",
            spec_text: &text,
            config_text: None,
        };
        let start = Instant::now();
        let output = baseten_codegen::generate(&input)?;
        let elapsed = start.elapsed();
        let lines: usize = output.files.values().map(|file| file.lines().count()).sum();
        let form = if wrapped {
            "allOf-wrapped"
        } else {
            "$ref-only"
        };
        println!(
            "{links} {form} links: generate() {:.3} s, {lines} lines emitted",
            elapsed.as_secs_f64()
        );
    }
    Ok(())
}
