//! The generator's typed errors and notes; each names its place in the document.

use std::fmt;

/// Why a document or config could not be turned into Rust.
///
/// Places are JSON pointers into the document as written (`#/paths/~1v1~1models/get`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input holds nothing but whitespace.
    #[error("the document is empty")]
    Empty,
    /// The text is neither valid JSON nor valid YAML.
    #[error("{format} syntax error at line {line}, column {column}: {message}")]
    Syntax {
        /// `JSON` or `YAML`.
        format: &'static str,
        /// 1-based line, 0 when unknown.
        line: usize,
        /// 1-based column, 0 when unknown.
        column: usize,
        /// The parser's explanation.
        message: String,
    },
    /// The document is well-formed text but not a document this generator accepts.
    #[error("{pointer}: {reason}")]
    Invalid {
        /// Where in the document.
        pointer: String,
        /// What is wrong there.
        reason: String,
    },
    /// A path template that is not a path with well-formed `{placeholders}`.
    #[error("{pointer}: path template {template:?} {reason}")]
    PathTemplate {
        /// The first operation under the template (the path item when it has none).
        pointer: String,
        /// The template as written.
        template: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An object with the same key twice.
    #[error("{pointer}: duplicate key {key:?} ({format} line {line}, column {column})")]
    DuplicateKey {
        /// `JSON` or `YAML`.
        format: &'static str,
        /// The second occurrence.
        pointer: String,
        /// The key.
        key: String,
        /// 1-based line of the second occurrence.
        line: usize,
        /// 1-based column just past it.
        column: usize,
    },
    /// A `$ref` names nothing in the document.
    #[error("{pointer}: `$ref` {reference:?} does not resolve to anything in the document")]
    DanglingRef {
        /// Where the `$ref` stands.
        pointer: String,
        /// The reference as written.
        reference: String,
    },
    /// References that only refer to each other and never to a schema.
    #[error("{pointer}: `$ref` cycle with no schema in it: {}", chain.join(" -> "))]
    RefCycle {
        /// Where the cycle was entered.
        pointer: String,
        /// The references in the order they were followed, the first repeated at the end.
        chain: Vec<String>,
    },
    /// A construct the emitted Rust cannot represent.
    #[error("{pointer}: cannot be represented in the generated Rust: {reason}")]
    Unsupported {
        /// Where the construct stands.
        pointer: String,
        /// What it is and why it cannot be represented.
        reason: String,
    },
    /// Strict mode (`strict: true` in the config, `--strict`): something the generator would
    /// otherwise leave out with a note.
    #[error("{pointer}: {what} would be left out ({reason}); strict mode leaves nothing out")]
    LeftOut {
        /// Where the construct that cannot be represented stands.
        pointer: String,
        /// What would be left out: an operation, a parameter, a request or response body.
        what: String,
        /// Why.
        reason: String,
    },
    /// The names lock (`names.lock.yaml`) cannot be used.
    #[error("names lock: {pointer}: {reason}")]
    NamesLock {
        /// Where in the lock.
        pointer: String,
        /// What is wrong.
        reason: String,
    },
    /// The generator config is malformed.
    #[error("generator config: {pointer}: {reason}")]
    Config {
        /// Where in the config.
        pointer: String,
        /// What is wrong there.
        reason: String,
    },
    /// The emitters produced tokens that are not Rust: a bug in this crate, reported not panicked.
    #[error("internal error: emitted {file} does not parse as Rust: {message}")]
    EmittedInvalid {
        /// The output file.
        file: String,
        /// The parser's explanation.
        message: String,
    },
}

/// Something lowered with a loss or left out, reported rather than dropped silently.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Note {
    /// Where in the document.
    pub pointer: String,
    /// What happened there.
    pub message: String,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pointer, self.message)
    }
}

/// What marks a note saying something was left out (every stage writes them this way).
const LEFT_OUT: &str = " is left out: ";

impl Note {
    /// Whether the note says something was left out.
    fn leaves_out(&self) -> bool {
        self.message.contains(LEFT_OUT)
    }

    /// One account per place: a note said again at its pointer (a schema reached twice, as a
    /// component then inline) is dropped, and where something is left out, what an earlier
    /// stage said of how it was typed (lowered to `serde_json::Value`, say) no longer applies
    /// and is dropped too. Order is kept otherwise.
    pub(crate) fn dedupe(notes: &mut Vec<Note>) {
        let left_out: std::collections::HashSet<String> = notes
            .iter()
            .filter(|note| note.leaves_out())
            .map(|note| note.pointer.clone())
            .collect();
        let mut seen = std::collections::HashSet::new();
        notes.retain(|note| {
            (note.leaves_out() || !left_out.contains(&note.pointer)) && seen.insert(note.clone())
        });
    }
}

/// Builds JSON pointers (RFC 6901, with a leading `#`) one segment at a time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pointer(String);

impl Pointer {
    pub(crate) fn root() -> Self {
        Pointer("#".to_owned())
    }

    /// The pointer a local `$ref` such as `#/components/schemas/X` names.
    pub(crate) fn from_ref(reference: &str) -> Self {
        Pointer(reference.to_owned())
    }

    pub(crate) fn join(&self, segment: impl fmt::Display) -> Self {
        // One allocation: pointers are built at every step of every walk, not only on errors.
        use fmt::Write;
        struct Escaping<'a>(&'a mut String);
        impl Write for Escaping<'_> {
            fn write_str(&mut self, text: &str) -> fmt::Result {
                for c in text.chars() {
                    match c {
                        '~' => self.0.push_str("~0"),
                        '/' => self.0.push_str("~1"),
                        c => self.0.push(c),
                    }
                }
                Ok(())
            }
        }
        let mut pointer = String::with_capacity(self.0.len() + 24);
        pointer.push_str(&self.0);
        pointer.push('/');
        let _ = write!(Escaping(&mut pointer), "{segment}");
        Pointer(pointer)
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }

    /// The pointer under `#` through each of `segments`, as a string (for the errors that
    /// carry one).
    pub(crate) fn to(segments: &[&str]) -> String {
        segments
            .iter()
            .fold(Pointer::root(), |pointer, segment| pointer.join(segment))
            .0
    }

    /// A segment as written in a pointer (`~` → `~0`, `/` → `~1`), back as the key it names.
    pub(crate) fn unescape(segment: &str) -> String {
        // Most segments escape nothing; `replace` would search each one twice.
        if !segment.contains('~') {
            return segment.to_owned();
        }
        segment.replace("~1", "/").replace("~0", "~")
    }
}

impl fmt::Display for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&Pointer> for String {
    fn from(pointer: &Pointer) -> String {
        pointer.0.clone()
    }
}

#[cfg(test)]
mod note_tests {
    use super::Note;

    fn note(pointer: &str, message: &str) -> Note {
        Note {
            pointer: pointer.to_owned(),
            message: message.to_owned(),
        }
    }

    #[test]
    fn each_place_is_accounted_for_once() {
        let lowered =
            "a schema whose keywords do not fit its `type` is lowered to serde_json::Value";
        let left_out = "parameter `q` is left out: no encoding";
        let mut notes = vec![
            note("#/a", lowered),
            note("#/b", lowered),
            note("#/a", left_out),
            note("#/b", lowered),
            note("#/c", "one"),
            note("#/c", "two"),
            note("#/a", left_out),
            note("#/d", "is left out"),
        ];
        Note::dedupe(&mut notes);
        assert_eq!(
            notes,
            [
                note("#/b", lowered),
                note("#/a", left_out),
                note("#/c", "one"),
                note("#/c", "two"),
                note("#/d", "is left out"),
            ]
        );
    }
}
