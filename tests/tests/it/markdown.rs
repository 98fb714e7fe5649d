//! The Markdown a person reads: the README is for users and short, every relative link of every
//! document in the repository leads to a file that exists (and to a heading it has), and the
//! maintainers' material lives in the documents the README points to.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use baseten_tests::workspace_root;

/// The README's budget in lines: what a user reads before their first call.
const README_MAX_LINES: usize = 300;

/// Every `*.md` under `dir`, skipping build output, installed packages and hidden directories.
fn markdown_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !(name.starts_with('.') || name == "target" || name == "node_modules") {
                markdown_files(&path, found);
            }
        } else if name.ends_with(".md") {
            found.push(path);
        }
    }
}

/// The targets of inline links `[text](target)` outside code blocks and code spans.
fn link_targets(markdown: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut in_fence = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        // Code spans hold text like `a[i](x)` that is not a link.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            targets.push(rest[..end].trim().to_owned());
            rest = &rest[end..];
        }
    }
    targets
}

/// GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped,
/// spaces turned into `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a document's headings (outside code blocks).
fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut in_fence = false;
    let mut found = BTreeSet::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence && line.starts_with('#') {
            found.insert(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

/// The relative links of `markdown` (found in `file`) that lead nowhere, as `target` strings.
fn broken_links(file: &Path, markdown: &str) -> Vec<String> {
    let mut broken = Vec::new();
    for target in link_targets(markdown) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (path, fragment) = match target.split_once('#') {
            Some((path, fragment)) => (path, Some(fragment)),
            None => (target.as_str(), None),
        };
        let resolved = if path.is_empty() {
            file.to_path_buf()
        } else {
            file.parent().unwrap().join(path)
        };
        if !resolved.exists() {
            broken.push(target.clone());
            continue;
        }
        if let Some(fragment) = fragment {
            let text = if resolved.is_file() && resolved.extension().is_some_and(|e| e == "md") {
                std::fs::read_to_string(&resolved).unwrap()
            } else {
                String::new()
            };
            if !anchors(&text).contains(fragment) {
                broken.push(target.clone());
            }
        }
    }
    broken
}

#[test]
fn the_readme_is_a_users_page_within_its_budget() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines; a user's page has at most {README_MAX_LINES}: move \
         maintainers' material to ARCHITECTURE.md or CONTRIBUTING.md"
    );
    for command in ["cargo xtask regen", "cargo test --workspace"] {
        assert!(readme.contains(command), "README.md must show `{command}`");
    }
    let targets = link_targets(&readme);
    for document in ["ARCHITECTURE.md", "CONTRIBUTING.md"] {
        assert!(
            targets.iter().any(|target| target == document),
            "README.md must link to {document}"
        );
    }
}

#[test]
fn every_relative_link_of_every_document_leads_somewhere() {
    let mut files = Vec::new();
    markdown_files(&workspace_root(), &mut files);
    assert!(files.len() >= 4, "found only {files:?}");
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for target in broken_links(file, &text) {
            broken.push(format!("{}: {target}", file.display()));
        }
    }
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}

#[test]
fn a_broken_link_or_anchor_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("A.md");
    std::fs::write(dir.path().join("B.md"), "# Title\n\n## The change report\n").unwrap();
    let text = "[ok](B.md) [ok](B.md#the-change-report) [no](C.md) [no](B.md#missing) \
                [web](https://example.com/x) `[code](Z.md)`\n```\n[fenced](Y.md)\n```\n";
    assert_eq!(
        broken_links(&file, text),
        ["C.md".to_owned(), "B.md#missing".to_owned()]
    );
    assert_eq!(
        anchor(" Names, and *types*: kept_stable "),
        "names-and-types-kept_stable"
    );
}
