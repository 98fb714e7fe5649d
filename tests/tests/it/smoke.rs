//! Every published Baseten document in `../shared/specs` generates Rust that parses.

use baseten_tests::{files_with_extension, shared_dir};

#[test]
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared: Baseten's published documents and recorded responses"
)]
fn every_published_document_generates_parsable_rust() {
    let Some(dir) = shared_dir("specs") else {
        return;
    };
    let specs = files_with_extension(&dir, "json");
    assert!(!specs.is_empty(), "no documents in {}", dir.display());
    for spec in specs {
        let text = std::fs::read_to_string(&spec).unwrap();
        let name = spec.file_name().unwrap().to_string_lossy().into_owned();
        let input = baseten_codegen::Input {
            spec_path: &name,
            spec_text: &text,
            config_text: None,
        };
        let output =
            baseten_codegen::generate(&input).unwrap_or_else(|error| panic!("{name}: {error}"));
        for (file, contents) in &output.files {
            // generate() already parses before formatting; parse the formatted text again too.
            syn::parse_file(contents).unwrap_or_else(|error| panic!("{name} {file}: {error}"));
        }
        let lines: usize = output.files.values().map(|c| c.lines().count()).sum();
        eprintln!("{name}: {lines} lines, {} notes", output.notes.len());
    }
}
