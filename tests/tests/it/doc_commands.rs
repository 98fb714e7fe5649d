//! Every shell command the docs show, checked (issue 44). The commands are read from every
//! `*.md` of the repository (```` ```sh ````, `bash`, `shell` and `console` blocks, and inline
//! `` `cargo …` `` spans), each classified by [`RULES`]: cheap ones run (what they write goes to
//! a scratch directory), costly ones at least build the package, manifest and target they name,
//! a synopsis has every flag it shows in the program's `--help`. A command no rule covers fails
//! the test, so a new command in the docs is either covered or marked here with a reason.

use std::path::{Path, PathBuf};

use baseten_tests::workspace_root;

/// How one kind of command is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Check {
    /// Run as written from the workspace root; its placeholders get values
    /// ([`PLACEHOLDERS`]) and what it writes (`--out DIR`, `> FILE`) goes to a scratch directory.
    Run,
    /// Run with `--root` a scratch copy of `schema/` and the emitted files: as written it
    /// rewrites this checkout's own.
    RunOnScratchCopy,
    /// Too costly to run (the reason): `cargo check --locked` of the package, manifest and
    /// target it names, with its environment.
    Build(&'static str),
    /// Not runnable here (the reason): its program is built and every `--flag` the command
    /// shows is in that program's `--help`.
    Usage(&'static str),
    /// Not checked, for the reason given.
    Skip(&'static str),
}

/// The classification, first match wins. A pattern is the command's words, its leading
/// `NAME=value` assignments left out and the installed CLI `baseten-metrics` read as
/// `cargo run -p baseten-metrics --`; `*` stands for any one word, a final `**` for any rest. A
/// synopsis (a word in `[…]`, or `…`) is checked by [`Check::Usage`] whatever its rule.
const RULES: &[(&str, Check)] = &[
    (
        "cargo test **",
        Check::Skip(
            "part of the run this test belongs to: `.ci/run` runs `cargo test --workspace -- \
             --include-ignored`, and every `cargo test` the docs show selects from it",
        ),
    ),
    (
        "cargo install cargo-progenitor **",
        Check::Skip("installs a third-party tool from crates.io, outside this repository"),
    ),
    (
        "cargo check",
        Check::Skip("names the check a test or bench runs in a scratch workspace of its own"),
    ),
    (
        "cargo check --workspace",
        Check::Skip("names the check `cargo xtask corpus` runs in the workspace it generates"),
    ),
    (
        "cargo xtask diff",
        Check::Skip("names the subcommand; its full forms are run"),
    ),
    (
        "cargo fmt --check",
        Check::Skip("names the check `.ci/run` runs on the whole workspace"),
    ),
    (
        "cargo doc -p baseten-api **",
        Check::Skip(
            "the slow docs test documents baseten-api in every build users make, with -D warnings",
        ),
    ),
    ("cargo xtask regen", Check::RunOnScratchCopy),
    ("cargo xtask regen --check", Check::RunOnScratchCopy),
    ("cargo xtask regen --spec * --out * **", Check::Run),
    ("cargo xtask diff * * **", Check::Run),
    (
        "cargo xtask corpus **",
        Check::Usage("generates and compiles every document of a directory: minutes"),
    ),
    (
        "cargo xtask bench-build **",
        Check::Usage("a benchmark: minutes of clean builds"),
    ),
    ("cargo build -p baseten-api", Check::Run),
    (
        "cargo build -j1 --timings",
        Check::Skip(
            "names how the build profile quoted beside it was taken: a clean build on one core, \
             minutes, of features the test run does not build",
        ),
    ),
    ("cargo bench **", Check::Build("a benchmark")),
    (
        "cargo run --release --manifest-path codegen/benches/progenitor/Cargo.toml **",
        Check::Build("builds progenitor in release and times both generators on a whole document"),
    ),
    (
        "cargo run --release -p baseten-codegen --example timing **",
        Check::Build("times 30 generations of a whole document in release"),
    ),
    (
        "cargo run -p baseten-runtime --features mock --example storm",
        Check::Build("a benchmark of 10-second ticks against a throttling fake"),
    ),
    ("cargo run -p baseten-metrics -- show **", Check::Run),
    (
        "cargo run -p baseten-metrics -- fetch **",
        Check::Usage("calls Baseten's API with a real key"),
    ),
    (
        "cargo run -p baseten-metrics -- watch **",
        Check::Usage("polls Baseten's API until interrupted"),
    ),
    (
        "cargo update -p idna_adapter --precise **",
        Check::Skip("a choice for the reader's application's own Cargo.lock, not this workspace's"),
    ),
    (
        "export BASETEN_API_KEY=...",
        Check::Skip("sets the key the commands after it read; the test passes its own"),
    ),
];

/// Values for the placeholders a command to run may hold: a path under the workspace root, or
/// (`scratch:`) under the scratch directory, or the text itself.
const PLACEHOLDERS: &[(&str, &str)] = &[
    (
        "OLD.json",
        "../shared/specs/baseten-management-2026-07-08.json",
    ),
    (
        "NEW.json",
        "../shared/specs/baseten-management-2026-08-22.json",
    ),
    ("DOC.json", "tests/fixtures/probe/type-rename/new.yaml"),
    ("DIR", "scratch:out"),
    ("NAME", "docs-crate"),
    (
        "saved-response.json",
        "tests/fixtures/responses/series.json",
    ),
    ("...", "docs-test-key"),
];

/// The fenced-block languages whose lines are shell commands.
const SHELL_BLOCKS: &[&str] = &["sh", "bash", "shell", "console"];

/// One command as a document shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct DocCommand {
    /// `README.md:42`.
    place: String,
    /// Leading `NAME=value` assignments.
    env: Vec<(String, String)>,
    /// The words after them (`baseten-metrics` read as `cargo run -p baseten-metrics --`), a
    /// `> FILE` redirection left out.
    words: Vec<String>,
    /// The file standard output is redirected to.
    stdout: Option<String>,
}

impl DocCommand {
    fn shown(&self) -> String {
        let env = self
            .env
            .iter()
            .map(|(name, value)| format!("{name}={value}"));
        let mut text: Vec<String> = env.chain(self.words.iter().cloned()).collect();
        if let Some(file) = &self.stdout {
            text.push(format!("> {file}"));
        }
        text.join(" ")
    }
}

/// Every `*.md` under `dir`, skipping build output, installed packages and hidden directories.
fn markdown_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("listing {}: {error}", dir.display()))
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" && name != "node_modules" {
                markdown_files(&path, found);
            }
        } else if name.ends_with(".md") {
            found.push(path);
        }
    }
}

/// Shell words: split at unquoted whitespace, quotes removed.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(open), c) if c == open => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// `line` without a `#` comment (a `#` starting a word, outside quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut previous = ' ';
    for (at, c) in line.char_indices() {
        match (quote, c) {
            (Some(open), c) if c == open => quote = None,
            (None, '\'' | '"') => quote = Some(c),
            (None, '#') if previous.is_whitespace() => return &line[..at],
            _ => {}
        }
        previous = c;
    }
    line
}

/// A command from its text: assignments, words, redirection; `None` for a blank line. In a
/// shell block (`installed_cli`) the CLI's name is its installed binary's.
fn parse_command(place: String, text: &str, installed_cli: bool) -> Option<DocCommand> {
    let mut words = shell_words(text).into_iter().peekable();
    let mut env = Vec::new();
    while let Some((name, value)) = words.peek().and_then(|word| assignment(word)) {
        env.push((name, value));
        words.next();
    }
    let mut rest = Vec::new();
    let mut stdout = None;
    while let Some(word) = words.next() {
        match word.strip_prefix('>') {
            Some("") => stdout = words.next(),
            Some(file) => stdout = Some(file.to_owned()),
            None => rest.push(word),
        }
    }
    if installed_cli
        && rest
            .first()
            .is_some_and(|program| program == "baseten-metrics")
    {
        let cargo_run = ["cargo", "run", "-p", "baseten-metrics", "--"];
        rest.splice(0..1, cargo_run.map(str::to_owned));
    }
    (!rest.is_empty() || !env.is_empty()).then_some(DocCommand {
        place,
        env,
        words: rest,
        stdout,
    })
}

/// `NAME=value` with an upper-case shell variable name.
fn assignment(word: &str) -> Option<(String, String)> {
    let (name, value) = word.split_once('=')?;
    let is_name = name.starts_with(|c: char| c.is_ascii_uppercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    is_name.then(|| (name.to_owned(), value.to_owned()))
}

/// The commands of one document, in order: each line of a shell block (continuations joined,
/// comments dropped; in a `console` block only the `$ ` lines), then each inline code span
/// that is a `cargo` command.
fn commands_in(name: &str, text: &str) -> Vec<DocCommand> {
    let mut commands = Vec::new();
    // The text outside fences, line for line (a fence's lines blank), for the inline spans.
    let mut prose = String::new();
    let mut fence: Option<(String, bool)> = None;
    let mut pending: Option<(usize, String)> = None;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            fence = match fence {
                Some(_) => None,
                None => {
                    let language = info.split([',', ' ']).next().unwrap_or_default();
                    Some((language.to_owned(), SHELL_BLOCKS.contains(&language)))
                }
            };
            prose.push('\n');
            continue;
        }
        let Some((language, shell)) = &fence else {
            prose.push_str(line);
            prose.push('\n');
            continue;
        };
        prose.push('\n');
        if !shell {
            continue;
        }
        let line = match (language.as_str(), &pending) {
            ("console", None) => match trimmed.strip_prefix("$ ") {
                Some(command) => command,
                None => continue,
            },
            _ => trimmed,
        };
        let line = strip_comment(line).trim_end();
        let (start, mut joined) = pending.take().unwrap_or((number, String::new()));
        match line.strip_suffix('\\') {
            Some(continued) => {
                joined.push_str(continued);
                joined.push(' ');
                pending = Some((start, joined));
            }
            None => {
                joined.push_str(line);
                commands.extend(parse_command(format!("{name}:{start}"), &joined, true));
            }
        }
    }
    for (line, span) in inline_spans(&prose) {
        let Some(command) = parse_command(format!("{name}:{line}"), &span, false) else {
            continue;
        };
        if command.words.first().is_some_and(|word| word == "cargo") && command.words.len() > 1 {
            commands.push(command);
        }
    }
    commands
}

/// The inline code spans of markdown prose, each with the line it starts on and its text with
/// line ends as spaces (CommonMark: a span closes at the next run of as many backticks, within
/// its paragraph).
fn inline_spans(prose: &str) -> Vec<(usize, String)> {
    let mut spans = Vec::new();
    let bytes = prose.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'`' {
            at += 1;
            continue;
        }
        let run = bytes[at..].iter().take_while(|&&b| b == b'`').count();
        let start = at + run;
        let mut close = None;
        let mut scan = start;
        while scan < bytes.len() {
            if bytes[scan] == b'`' {
                let length = bytes[scan..].iter().take_while(|&&b| b == b'`').count();
                if length == run {
                    close = Some(scan);
                    break;
                }
                scan += length;
            } else {
                scan += 1;
            }
        }
        let paragraph_end = prose[start..].find("\n\n").map(|end| start + end);
        match close {
            Some(end) if paragraph_end.is_none_or(|limit| end < limit) => {
                let line = prose[..at].matches('\n').count() + 1;
                let text = prose[start..end].split_whitespace().collect::<Vec<_>>();
                spans.push((line, text.join(" ")));
                at = end + run;
            }
            _ => at = start,
        }
    }
    spans
}

/// Whether `words` match `pattern` (see [`RULES`]).
fn matches(pattern: &str, words: &[String]) -> bool {
    let pattern: Vec<&str> = pattern.split(' ').collect();
    match pattern.split_last() {
        Some((&"**", fixed)) => {
            words.len() >= fixed.len() && fixed.iter().zip(words).all(|(p, w)| *p == "*" || p == w)
        }
        _ => {
            words.len() == pattern.len()
                && pattern.iter().zip(words).all(|(p, w)| *p == "*" || p == w)
        }
    }
}

/// A synopsis rather than a command: a word in brackets, or an ellipsis.
fn is_synopsis(command: &DocCommand) -> bool {
    command
        .words
        .iter()
        .any(|word| word.starts_with('[') || word.contains('…'))
}

/// How a command is checked; `None` when no rule covers it.
fn classify(command: &DocCommand) -> Option<Check> {
    let rule = RULES
        .iter()
        .find(|(pattern, _)| matches(pattern, &command.words))
        .map(|(_, check)| *check);
    // A synopsis of a program that has a `--help` (the xtask, a `cargo run … --` binary).
    let has_help = command.words.get(1).is_some_and(|word| word == "xtask")
        || command.words.iter().any(|word| word == "--");
    match rule {
        Some(Check::Skip(reason)) => Some(Check::Skip(reason)),
        _ if is_synopsis(command) && has_help => Some(Check::Usage("a synopsis")),
        rule => rule,
    }
}

/// Every command of every document of the repository, by document.
fn doc_commands() -> Vec<DocCommand> {
    let root = workspace_root();
    let mut files = Vec::new();
    markdown_files(&root, &mut files);
    let mut commands = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        commands.extend(commands_in(&name, &text));
    }
    commands
}

/// Every command the docs show is covered by a rule (the fast half; the slow test runs them).
#[test]
fn every_command_the_docs_show_is_classified() {
    let commands = doc_commands();
    assert!(
        commands.iter().any(|c| c.place.starts_with("README.md:")),
        "the README's commands are found: {commands:?}"
    );
    let unclassified: Vec<String> = commands
        .iter()
        .filter(|command| classify(command).is_none())
        .map(|command| format!("{}: {}", command.place, command.shown()))
        .collect();
    assert!(
        unclassified.is_empty(),
        "commands in the docs no rule of tests/tests/it/doc_commands.rs covers (add one: run, \
         build, usage or skip with a reason):\n{}",
        unclassified.join("\n")
    );
}

mod checks;
mod extraction;
