//! How commands are read from markdown and matched to rules: blocks, continuations, comments,
//! console prompts, inline spans across line ends, assignments, redirections, patterns.

use super::{Check, DocCommand, classify, commands_in, inline_spans, matches, parse_command};

fn words(text: &str) -> Vec<String> {
    text.split(' ').map(str::to_owned).collect()
}

#[test]
fn shell_blocks_give_one_command_per_logical_line() {
    let doc = "# Title\n\n```sh\ncargo xtask regen   # a comment\n\ncargo run -p x -- a \\\n    --flag 'two words' > out.csv\n```\n\n```console\n$ cargo build\nCompiling x\n```\n\n```rust\ncargo not_a_command\n```\n\n```bash\nFOO=1 BAR= baseten-metrics show f.json\n```\n";
    let commands = commands_in("doc.md", doc);
    let shown: Vec<(String, String)> = commands
        .iter()
        .map(|c| (c.place.clone(), c.shown()))
        .collect();
    assert_eq!(
        shown,
        [
            ("doc.md:4".to_owned(), "cargo xtask regen".to_owned()),
            (
                "doc.md:6".to_owned(),
                "cargo run -p x -- a --flag two words > out.csv".to_owned()
            ),
            ("doc.md:11".to_owned(), "cargo build".to_owned()),
            (
                "doc.md:20".to_owned(),
                "FOO=1 BAR= cargo run -p baseten-metrics -- show f.json".to_owned()
            ),
        ]
    );
    assert_eq!(commands[1].words[7], "two words");
    assert_eq!(commands[1].stdout.as_deref(), Some("out.csv"));
}

#[test]
fn inline_cargo_spans_are_commands_even_across_a_line_end() {
    let doc = "Run `cargo xtask bench-build --only full\n--progenitor BIN` or `UPDATE=1 cargo test -p a`;\nnot `cargo` alone, nor `serde`, nor ``[`cargo x`]``.\n\nAn unclosed `cargo check\n\nends at its paragraph`.\n";
    let commands = commands_in("doc.md", doc);
    let shown: Vec<(String, String)> = commands
        .iter()
        .map(|c| (c.place.clone(), c.shown()))
        .collect();
    assert_eq!(
        shown,
        [
            (
                "doc.md:1".to_owned(),
                "cargo xtask bench-build --only full --progenitor BIN".to_owned()
            ),
            ("doc.md:2".to_owned(), "UPDATE=1 cargo test -p a".to_owned()),
        ]
    );
    assert_eq!(
        inline_spans("a `b` c ``d`e`` `f\n\ng h `i\nj`"),
        [
            (1, "b".to_owned()),
            (1, "d`e".to_owned()),
            (3, "i j".to_owned())
        ]
    );
}

#[test]
fn assignments_only_lead_and_redirections_are_taken_out() {
    let command = parse_command("d:1".to_owned(), "A_1=x B=y cargo run C=z >file", true).unwrap();
    assert_eq!(
        command.env,
        [("A_1".into(), "x".into()), ("B".into(), "y".into())]
    );
    assert_eq!(command.words, words("cargo run C=z"));
    assert_eq!(command.stdout.as_deref(), Some("file"));
    // A lower-case name is not a variable this test sets.
    let command = parse_command("d:1".to_owned(), "a=b cargo", true).unwrap();
    assert!(command.env.is_empty());
    assert_eq!(parse_command("d:1".to_owned(), "   ", true), None);
    // The installed CLI, in a shell block only.
    let cli = |installed| parse_command("d:1".to_owned(), "baseten-metrics show", installed);
    assert_eq!(
        cli(true).unwrap().words,
        words("cargo run -p baseten-metrics -- show")
    );
    assert_eq!(cli(false).unwrap().words, words("baseten-metrics show"));
}

#[test]
fn patterns_match_whole_commands_or_a_rest() {
    assert!(matches("cargo xtask regen", &words("cargo xtask regen")));
    assert!(!matches(
        "cargo xtask regen",
        &words("cargo xtask regen --check")
    ));
    assert!(!matches(
        "cargo xtask regen --check",
        &words("cargo xtask regen")
    ));
    assert!(matches("cargo * regen", &words("cargo xtask regen")));
    assert!(matches("cargo test **", &words("cargo test")));
    assert!(matches("cargo test **", &words("cargo test -p a -- b")));
    assert!(!matches("cargo test **", &words("cargo")));
    assert!(!matches("cargo test **", &words("cargo bench")));
}

#[test]
fn a_synopsis_is_a_usage_check_and_an_unknown_command_has_no_rule() {
    let command = |text: &str| DocCommand {
        place: "d:1".to_owned(),
        env: Vec::new(),
        words: words(text),
        stdout: None,
    };
    assert_eq!(
        classify(&command("cargo xtask regen --spec … --out …")),
        Some(Check::Usage("a synopsis"))
    );
    assert_eq!(
        classify(&command("cargo xtask regen --spec a --out b")),
        Some(Check::Run)
    );
    assert_eq!(
        classify(&command("cargo xtask regen")),
        Some(Check::RunOnScratchCopy)
    );
    assert!(matches!(
        classify(&command("cargo test [--flag]")),
        Some(Check::Skip(_))
    ));
    assert_eq!(classify(&command("cargo xtask release")), None);
    assert_eq!(classify(&command("rm -rf target")), None);
}
