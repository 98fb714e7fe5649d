//! The CLI is written as a user of `baseten-api` would: it names only documented paths.

use std::path::Path;

use crate::workspace_root;

/// Every `.rs` file under `dir`, relative to it, with `/` separators.
fn sources(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if path.is_dir() {
            sources(&path, &format!("{prefix}{name}/"), out);
        } else if name.ends_with(".rs") {
            out.push(format!("{prefix}{name}"));
        }
    }
}

/// The CLI is written as a user of `baseten-api` would: only documented paths, so never the
/// hidden `baseten_api::runtime` (nor `__private`). Its sources are read, `use` lines and paths
/// in code alike.
#[test]
fn the_cli_names_only_documented_paths() {
    let src = workspace_root().join("generated/cli/src");
    let mut files = Vec::new();
    sources(&src, "", &mut files);
    assert!(files.iter().any(|file| file == "lib.rs"), "{files:?}");
    let mut violations = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(src.join(file)).unwrap();
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            // `use baseten_api::{runtime::X}` as well as `baseten_api::runtime::X`.
            let hidden = ["baseten_api::runtime", "runtime::", "__private"]
                .iter()
                .any(|path| code.contains(path) && !code.contains("tokio::runtime::"));
            if hidden {
                violations.push(format!("{file}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}
