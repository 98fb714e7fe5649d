//! Running the docs' commands, each as its rule says: run (in a scratch directory where it
//! writes), built, or its flags found in its program's `--help`.

use std::path::{Path, PathBuf};
use std::process::Output;

use baseten_tests::{cargo_command, shared_dir, workspace_root};

use super::{Check, DocCommand, PLACEHOLDERS, classify, doc_commands};

/// The cargo flags that say what a command builds, each with whether it takes a value.
const SELECTION: &[(&str, bool)] = &[
    ("-p", true),
    ("--package", true),
    ("--manifest-path", true),
    ("--features", true),
    ("--example", true),
    ("--bench", true),
    ("--bin", true),
    ("--workspace", false),
    ("--no-default-features", false),
    ("--all-features", false),
];

/// Runs `command`; panics with what it printed unless it succeeded.
fn succeed(mut command: std::process::Command, place: &str) -> Output {
    let shown = format!("{command:?}");
    let output = command
        .output()
        .unwrap_or_else(|error| panic!("{place}: {shown}: {error}"));
    assert!(
        output.status.success(),
        "{place}: {shown} failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    );
    output
}

/// A word that stands for something the reader supplies (`DIR`, `OLD.json`, `BIN`): upper-case
/// before its extension.
fn is_placeholder(word: &str) -> bool {
    let stem = word.split('.').next().unwrap_or_default();
    stem.len() >= 2
        && stem
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// A word's value for a run; `Ok(None)`: the run needs `../shared`, absent here.
fn value(word: &str, scratch: &Path) -> Result<Option<String>, String> {
    let word = PLACEHOLDERS
        .iter()
        .find(|(placeholder, _)| *placeholder == word)
        .map_or(word, |(_, value)| value);
    if let Some(path) = word.strip_prefix("scratch:") {
        return Ok(Some(scratch.join(path).display().to_string()));
    }
    if word.starts_with("../shared/") {
        return Ok(shared_dir("").map(|_| workspace_root().join(word).display().to_string()));
    }
    if is_placeholder(word) {
        return Err(format!("placeholder {word} has no value in PLACEHOLDERS"));
    }
    Ok(Some(word.to_owned()))
}

/// `cargo` with the command's own environment (its values substituted), from the workspace root.
fn cargo_with_env(command: &DocCommand, scratch: &Path) -> Option<std::process::Command> {
    let mut cargo = cargo_command();
    for (name, raw) in &command.env {
        let resolved =
            value(raw, scratch).unwrap_or_else(|error| panic!("{}: {error}", command.place))?;
        cargo.env(name, resolved);
    }
    Some(cargo)
}

/// Runs the command from the workspace root: placeholders get values, `--out` and `>` point
/// into `scratch`, `extra` goes after its words. `false` when it needs `../shared`, absent.
fn run(command: &DocCommand, scratch: &Path, extra: &[String]) -> bool {
    assert_eq!(
        command.words.first().map(String::as_str),
        Some("cargo"),
        "{}: only cargo commands run",
        command.place
    );
    let Some(mut cargo) = cargo_with_env(command, scratch) else {
        return false;
    };
    let mut previous = "";
    for word in &command.words[1..] {
        let resolved = if previous == "--out" {
            let name = Path::new(word).file_name().unwrap_or_default();
            Some(scratch.join(name).display().to_string())
        } else {
            value(word, scratch).unwrap_or_else(|error| panic!("{}: {error}", command.place))
        };
        let Some(resolved) = resolved else {
            return false;
        };
        cargo.arg(resolved);
        previous = word;
    }
    cargo.args(extra);
    let output = succeed(cargo, &command.place);
    if let Some(file) = &command.stdout {
        assert!(
            !output.stdout.is_empty(),
            "{}: printed nothing",
            command.place
        );
        std::fs::write(scratch.join(file), &output.stdout).unwrap();
    }
    true
}

/// A scratch copy of `schema/` and the emitted files, for `regen --root`.
fn scratch_checkout(scratch: &Path) -> PathBuf {
    let checkout = scratch.join("checkout");
    for tree in ["schema", "generated/src/gen"] {
        let to = checkout.join(tree);
        std::fs::create_dir_all(&to).unwrap();
        for entry in std::fs::read_dir(workspace_root().join(tree)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
            }
        }
    }
    checkout
}

/// `cargo check --locked` of what the command builds, with its environment.
fn build(command: &DocCommand, scratch: &Path) {
    let Some(mut cargo) = cargo_with_env(command, scratch) else {
        return;
    };
    cargo.args(["check", "--locked"]);
    if command.words.get(1).is_some_and(|word| word == "xtask") {
        cargo.args(["--package", "xtask"]);
    } else {
        let mut words = command.words[1..].iter().take_while(|word| *word != "--");
        while let Some(word) = words.next() {
            if let Some((_, takes_value)) = SELECTION.iter().find(|(flag, _)| flag == word) {
                cargo.arg(word);
                if *takes_value {
                    cargo.args(words.next());
                }
            }
        }
    }
    succeed(cargo, &command.place);
}

/// Whether `flag` is in `help` as a whole flag (not the start of a longer one).
fn names_flag(help: &str, flag: &str) -> bool {
    help.match_indices(flag).any(|(at, _)| {
        help[at + flag.len()..]
            .chars()
            .next()
            .is_none_or(|next| !(next.is_ascii_alphanumeric() || next == '-'))
    })
}

/// Builds the command's program, asks it for its subcommand's `--help`, and finds there every
/// `--flag` the command shows.
fn usage(command: &DocCommand) {
    let words = &command.words;
    let program_end = match words.iter().position(|word| word == "--") {
        Some(separator) => separator + 1,
        None if words.get(1).is_some_and(|word| word == "xtask") => 2,
        None => panic!("{}: no program to ask for --help", command.place),
    };
    let subcommand = words
        .get(program_end)
        .unwrap_or_else(|| panic!("{}: no subcommand", command.place));
    let mut cargo = cargo_command();
    cargo
        .args(&words[1..program_end])
        .args([subcommand.as_str(), "--help"]);
    let output = succeed(cargo, &command.place);
    let help = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let flags = words[program_end + 1..]
        .iter()
        .map(|word| word.trim_matches(|c| c == '[' || c == ']' || c == ','))
        .map(|word| word.split('=').next().unwrap_or_default())
        .filter(|word| word.starts_with("--") && word.len() > 2);
    for flag in flags {
        assert!(
            names_flag(&help, flag),
            "{}: {flag} is not in `{subcommand} --help`:\n{help}",
            command.place
        );
    }
}

/// Every command the docs show, checked as its rule says; the list printed (`--nocapture`).
#[test]
#[ignore = "slow: runs the docs' commands (the xtask, the CLI) and checks the benches, progenitor's included"]
fn every_command_the_docs_show_runs_or_builds() {
    let scratch = tempfile::tempdir().unwrap();
    let commands = doc_commands();
    for (index, command) in commands.iter().enumerate() {
        let check = classify(command).unwrap_or_else(|| {
            panic!(
                "{}: no rule covers `{}` (see every_command_the_docs_show_is_classified)",
                command.place,
                command.shown()
            )
        });
        println!("{}: {} -> {check:?}", command.place, command.shown());
        // Each command its own directory: two commands writing `--out DIR` do not meet.
        let own = scratch.path().join(index.to_string());
        std::fs::create_dir_all(&own).unwrap();
        match check {
            Check::Run => {
                if !run(command, &own, &[]) {
                    println!("  not run: it reads ../shared, absent here");
                }
            }
            Check::RunOnScratchCopy => {
                let checkout = scratch_checkout(&own);
                let root = ["--root".to_owned(), checkout.display().to_string()];
                assert!(run(command, &own, &root));
            }
            Check::Build(_) => build(command, &own),
            Check::Usage(_) => usage(command),
            Check::Skip(_) => {}
        }
    }
}

#[test]
fn placeholders_are_upper_case_before_their_extension() {
    for word in ["DIR", "OLD.json", "BIN", "WS", "A_1"] {
        assert!(is_placeholder(word), "{word}");
    }
    for word in [
        "A",
        "dir",
        "Old.json",
        "--out",
        "schema/codegen.yaml",
        "...",
        "…",
    ] {
        assert!(!is_placeholder(word), "{word}");
    }
}

#[test]
fn a_flag_is_found_whole() {
    assert!(names_flag("  --progenitor BIN", "--progenitor"));
    assert!(names_flag("[--out DIR]", "--out"));
    assert!(names_flag("--out", "--out"));
    assert!(!names_flag("--progenitor-input FILE", "--progenitor"));
    assert!(!names_flag("--outdir", "--out"));
}
