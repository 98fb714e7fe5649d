//! The generator's stages and the runtime's layers, checked from their sources: no top-level
//! module of `codegen/src` or `codegen/runtime/src` reaches another that reaches it back (outside
//! test code), and no stage of the pipeline names a stage after it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use baseten_tests::workspace_root;

/// The generator's pipeline, in order (see `ARCHITECTURE.md`): a stage may name the stages
/// before it, never one after it. Modules not listed (names, lock, tokens, error, …) are shared
/// helpers; the cycle check covers them.
const CODEGEN_STAGES: &[&str] = &[
    "load",
    "lower",
    "select",
    "ir",
    "surface",
    "extensions",
    "emit",
];

/// `crate::<module>` references of each top-level module of the crate at `src`, outside test code.
type Graph = BTreeMap<String, BTreeSet<String>>;

fn top_level_module(relative: &Path) -> Option<String> {
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main")).then(|| name.to_owned())
}

/// Whether a source file holds test code only: a `tests` module or a `*_tests.rs` file.
fn is_test_file(relative: &Path) -> bool {
    relative
        .components()
        .any(|part| part.as_os_str() == "tests")
        || relative
            .file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name == "tests.rs" || name.ends_with("_tests.rs"))
}

/// The text before the file's `#[cfg(test)] mod …`.
fn without_tests(text: &str) -> &str {
    let mut at = 0;
    while let Some(found) = text[at..].find("#[cfg(test)]") {
        let start = at + found;
        let after = text[start + "#[cfg(test)]".len()..].trim_start();
        if after.starts_with("mod ") || after.starts_with("pub(crate) mod ") {
            return &text[..start];
        }
        at = start + 1;
    }
    text
}

/// The modules `crate::<module>` paths of `text` name, outside comments (a doc link is not a
/// dependency of the code).
fn references(text: &str, into: &mut BTreeSet<String>) {
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or_default();
        references_in_code(code, into);
    }
}

fn references_in_code(text: &str, into: &mut BTreeSet<String>) {
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        let after = &rest[at + "crate::".len()..];
        let before = rest[..at].chars().next_back();
        // `baseten_crate::x` or `$crate::` are not this crate's paths.
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                into.insert(name);
            }
        }
        rest = after;
    }
}

fn graph(src: &Path) -> Graph {
    fn walk(src: &Path, dir: &Path, graph: &mut Graph) {
        for entry in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                walk(src, &path, graph);
                continue;
            }
            let relative = path.strip_prefix(src).unwrap();
            if path.extension().is_none_or(|ext| ext != "rs") || is_test_file(relative) {
                continue;
            }
            let Some(module) = top_level_module(relative) else {
                continue;
            };
            let text = std::fs::read_to_string(&path).unwrap();
            let mut named = BTreeSet::new();
            references(without_tests(&text), &mut named);
            named.remove(&module);
            graph.entry(module).or_default().extend(named);
        }
    }
    let mut graph = Graph::new();
    walk(src, src, &mut graph);
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for named in graph.values_mut() {
        named.retain(|name| modules.contains(name));
    }
    graph
}

/// Every pair of modules that reach each other, as `a <-> b`.
fn circles(graph: &Graph) -> Vec<String> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_owned()];
        while let Some(module) = stack.pop() {
            for next in graph.get(&module).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|module| (module, reach(module))).collect();
    let mut found = Vec::new();
    for (a, from_a) in &reaches {
        for b in from_a {
            if a.as_str() < b.as_str() && reaches.get(b).is_some_and(|from_b| from_b.contains(*a)) {
                found.push(format!("{a} <-> {b}"));
            }
        }
    }
    found
}

/// `(stage, later stage)` for each stage that names one after it.
fn backward_stages(graph: &Graph, stages: &[&str]) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (index, stage) in stages.iter().enumerate() {
        for later in &stages[index + 1..] {
            if graph
                .get(*stage)
                .is_some_and(|named| named.contains(*later))
            {
                found.push(((*stage).to_owned(), (*later).to_owned()));
            }
        }
    }
    found
}

#[test]
fn no_module_of_the_generator_or_the_runtime_reaches_back() {
    for src in ["codegen/src", "codegen/runtime/src"] {
        let graph = graph(&workspace_root().join(src));
        assert!(graph.len() > 10, "{src}: found only {:?}", graph.keys());
        assert_eq!(circles(&graph), Vec::<String>::new(), "{src}");
    }
}

#[test]
fn no_stage_of_the_generator_names_a_later_one() {
    let graph = graph(&workspace_root().join("codegen/src"));
    for stage in CODEGEN_STAGES {
        assert!(graph.contains_key(*stage), "no module {stage}");
    }
    assert_eq!(backward_stages(&graph, CODEGEN_STAGES), Vec::new());
}

/// The checks find what they look for: a circle through a third module, a stage naming a later
/// one, and references in test code or another crate's paths ignored.
#[test]
fn the_checks_find_circles_and_backward_stages() {
    let mut graph = Graph::new();
    let mut text = BTreeSet::new();
    references(
        "use crate::b::X; fn f() { crate::c::g(); other_crate::d(); $crate::e }\n\
         /// [`crate::f`]\n// crate::g",
        &mut text,
    );
    assert_eq!(text, BTreeSet::from(["b".to_owned(), "c".to_owned()]));
    assert_eq!(
        without_tests("use crate::b;\n#[cfg(test)]\nmod tests { use crate::z; }"),
        "use crate::b;\n"
    );
    graph.insert("a".into(), text);
    graph.insert("b".into(), BTreeSet::from(["c".to_owned()]));
    graph.insert("c".into(), BTreeSet::from(["a".to_owned()]));
    graph.insert("d".into(), BTreeSet::from(["a".to_owned()]));
    assert_eq!(circles(&graph), ["a <-> b", "a <-> c", "b <-> c"]);
    // Each stage naming one after it; `c` naming `a`, before it, is allowed.
    let pairs = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    };
    assert_eq!(
        backward_stages(&graph, &["d", "a", "b", "c"]),
        pairs(&[("d", "a"), ("a", "b"), ("a", "c"), ("b", "c")])
    );
    assert!(is_test_file(Path::new("client/tests.rs")));
    assert!(is_test_file(Path::new("redirect_tests.rs")));
    assert!(is_test_file(Path::new(
        "server_text/scrub/tests/property.rs"
    )));
    assert!(!is_test_file(Path::new("client/attempt.rs")));
    assert_eq!(
        top_level_module(Path::new("ir/cycles.rs")),
        Some("ir".into())
    );
    assert_eq!(
        top_level_module(Path::new("lower.rs")),
        Some("lower".into())
    );
    assert_eq!(top_level_module(Path::new("lib.rs")), None);
}
