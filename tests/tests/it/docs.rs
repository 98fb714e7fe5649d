//! The rendered documentation as a reader sees it: no link of ours left as literal brackets.
//! rustdoc renders a link it cannot resolve on the page it lands on (an item of a crate not
//! documented, a runtime item a generated crate does not show) as `[text]`, without a warning.

use std::collections::BTreeSet;
use std::path::Path;

use baseten_tests::workspace_root;

/// Every `[<code>x</code>]` of a path in the HTML under `dir`, with the file it is in.
fn literal_brackets(dir: &Path, found: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            literal_brackets(&path, found);
            continue;
        }
        if path.extension().is_none_or(|ext| ext != "html") {
            continue;
        }
        let html = std::fs::read_to_string(&path).unwrap();
        let mut rest = html.as_str();
        while let Some(at) = rest.find('[') {
            rest = &rest[at + 1..];
            let Some(end) = rest.find(']') else { break };
            // Only a code span in brackets: `values[3]` inside a code span is index notation.
            let Some(text) = rest[..end]
                .strip_prefix("<code>")
                .and_then(|code| code.strip_suffix("</code>"))
            else {
                continue;
            };
            let path_like = !text.is_empty()
                && text.len() < 120
                && text
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ':'));
            if path_like {
                found.push((text.to_owned(), path.display().to_string()));
            }
        }
    }
}

/// The doc comments of the `.rs` files under `dir`, appended to `docs`.
fn doc_lines(dir: &Path, docs: &mut String) {
    for entry in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            doc_lines(&path, docs);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for line in text.lines().map(str::trim_start) {
                if line.starts_with("///") || line.starts_with("//!") || line.contains("#[doc") {
                    docs.push_str(line);
                    docs.push('\n');
                }
            }
        }
    }
}

/// The doc comments of our sources (the runtime, the generated crate, the generator's emitters
/// and the crate root), joined.
fn our_docs() -> String {
    let mut docs = String::new();
    for dir in ["codegen/runtime/src", "generated/src", "codegen/src"] {
        doc_lines(&workspace_root().join(dir), &mut docs);
    }
    docs
}

/// Held while a test builds and reads `target/doc`, so two tests never read a half-written one.
static DOCS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// `cargo doc` of the workspace, `.ci/run`'s docs command exactly (the workspace's features
/// hold the fake's `mock`), so that its docs section finds this build done; the docs stay as
/// built while the guard is held.
fn document_workspace() -> std::sync::MutexGuard<'static, ()> {
    let guard = DOCS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let status = baseten_tests::cargo_sharing_target()
        .env("RUSTDOCFLAGS", "-D warnings")
        .args(["doc", "--workspace", "--no-deps"])
        .status()
        .unwrap();
    assert!(status.success(), "cargo doc failed");
    guard
}

/// The builds of `baseten-api` users make, each documented alone (no other workspace member
/// turning `mock` on): the defaults, a decode-only area, the client with one area, the fake.
const USER_BUILDS: &[&[&str]] = &[
    &[],
    &["--no-default-features", "--features", "metrics"],
    &["--no-default-features", "--features", "client,billing"],
    &["--features", "mock"],
];

/// `cargo doc` of `baseten-api` alone in every build users make, with `-D warnings` (a link to
/// an item another feature compiles dangles there), under the docs' guard.
fn document_user_builds() {
    let _guard = DOCS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for features in USER_BUILDS {
        let output = baseten_tests::cargo_sharing_target()
            .env("RUSTDOCFLAGS", "-D warnings")
            .args(["doc", "-p", "baseten-api", "--no-deps"])
            .args(*features)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "cargo doc -p baseten-api {features:?} failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// `cargo doc` of `baseten-api` alone in every build users make, then of the workspace (the
/// generated crate with the fake, and the runtime), then every literal ``[`x`]`` a doc comment
/// of ours writes: a link of ours that did not resolve. (Those in trait docs inlined from other
/// crates are theirs.)
#[test]
#[ignore = "slow: documents baseten-api in each build users make, and the runtime"]
fn no_link_of_ours_renders_as_literal_brackets() {
    document_user_builds();
    let target = workspace_root().join("target");
    let _built = document_workspace();
    let docs = our_docs();
    let mut found = Vec::new();
    for krate in ["baseten_api", "baseten_runtime"] {
        literal_brackets(&target.join("doc").join(krate), &mut found);
    }
    assert!(
        !found.is_empty() || docs.is_empty(),
        "the scan found no bracket at all"
    );
    let ours: BTreeSet<String> = found
        .into_iter()
        .filter(|(text, _)| docs.contains(&format!("[`{text}`]")))
        .map(|(text, file)| format!("[{text}] in {file}"))
        .collect();
    assert!(
        ours.is_empty(),
        "links rendered as literal brackets:\n{}",
        ours.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// The visible text of every HTML page under `dir` (tags dropped, entities decoded that matter
/// here), by file.
fn page_texts(dir: &Path, found: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            page_texts(&path, found);
            continue;
        }
        if path.extension().is_none_or(|ext| ext != "html") {
            continue;
        }
        let html = std::fs::read_to_string(&path).unwrap();
        let mut text = String::with_capacity(html.len());
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' if in_tag => in_tag = false,
                _ if !in_tag => text.push(c),
                _ => {}
            }
        }
        let text = text
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&");
        found.push((path.display().to_string(), text));
    }
}

/// `baseten-api`'s rendered docs name only paths its users can write: no `baseten_runtime::`
/// (a crate they do not depend on) and no `rt::` (the emitted code's alias of it); and
/// `ClientBuilder`'s page names every setting of the runtime's builder.
#[test]
#[ignore = "slow: documents baseten-api and the runtime"]
fn the_docs_name_only_paths_users_can_write() {
    let _built = document_workspace();
    let mut pages = Vec::new();
    page_texts(&workspace_root().join("target/doc/baseten_api"), &mut pages);
    assert!(pages.len() > 50, "{} pages", pages.len());
    let mut wrong = Vec::new();
    for (file, text) in &pages {
        for forbidden in ["baseten_runtime::", "rt::"] {
            let mut rest = text.as_str();
            while let Some(at) = rest.find(forbidden) {
                // `rt::` as a path of its own, not the end of a longer name (`Start::`).
                let before = rest[..at].chars().next_back();
                if before.is_none_or(|c| !(c.is_alphanumeric() || c == '_')) {
                    let end = (at + 60).min(rest.len());
                    let end = (at..=end)
                        .rev()
                        .find(|i| rest.is_char_boundary(*i))
                        .unwrap_or(at);
                    wrong.push(format!("{file}: {}", &rest[at..end]));
                }
                rest = &rest[at + forbidden.len()..];
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "paths users cannot write:\n{}",
        wrong.join("\n")
    );
    // Every setter of the runtime's builder, by its listing, on `ClientBuilder`'s page.
    let runtime =
        std::fs::read_to_string(workspace_root().join("codegen/runtime/api.txt")).unwrap();
    let builder = pages
        .iter()
        .find(|(file, _)| file.ends_with("baseten_api/client/type.ClientBuilder.html"))
        .map(|(_, text)| text.as_str())
        .unwrap_or_default();
    let setters: Vec<&str> = runtime
        .lines()
        .filter_map(|line| line.strip_prefix("fn ClientBuilder::"))
        .filter_map(|rest| rest.split(' ').next())
        .filter(|name| *name != "new")
        .collect();
    assert!(setters.len() > 10, "{setters:?}");
    let missing: Vec<&&str> = setters
        .iter()
        .filter(|name| !builder.contains(&format!("{name}(")))
        .collect();
    assert!(missing.is_empty(), "ClientBuilder's page lacks {missing:?}");
}
