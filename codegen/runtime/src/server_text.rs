//! The one boundary for text from a server or a saved response: [`ServerText`] scrubs every live
//! API key out of it when it is built, and shows it with control and format characters escaped.
//!
//! # How the key reaches the scrubber
//!
//! A [`Client`](crate::RuntimeClient) registers its key here for as long as it (or a clone) lives, and
//! [`ServerText::new`] scrubs every key registered at that moment. So text that reaches an error
//! far from the client — a metrics response checked against its mode after the generated
//! operation returned it, a validation error naming a metric — is scrubbed without being handed
//! the key, and no constructor exists that skips the scrub. Text decoded from a saved response
//! with no client alive has nothing to scrub, but is still escaped when shown. A program holding
//! a key by other means (a CLI reading `BASETEN_API_KEY` to show a saved file) can register it
//! with [`RegisteredSecret`].

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::ops::Deref;

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory as _};

// The scrubber, with the registry of live keys, compiles with the features that can hold a key
// (`scrub`, which `client` enables): a build without it has no way to register a key, so it has
// nothing to scrub and skips aho-corasick and base64 (a third of a decode-only build's extra
// compile time over serde alone).
#[cfg(feature = "scrub")]
mod scrub;
#[cfg(feature = "scrub")]
pub use scrub::{RUN_CHARS, RegisteredSecret};

/// What a scrubbed key is replaced with.
pub const REDACTED: &str = "<redacted>";

/// Text that came from a server or a saved response, scrubbed of every API key registered when
/// it was built (see the [module docs](self)).
///
/// [`as_str`](Self::as_str) (and `Deref`) give the scrubbed text as it came otherwise, for a
/// program to read; `Display` escapes control characters, escape sequences and Unicode format
/// characters (bidi overrides, zero-width characters) as `\u{..}`, so that an error or a log
/// line cannot drive a terminal. `Debug` is `str`'s, quoted and escaped.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ServerText(String);

impl ServerText {
    /// `text`, scrubbed of every registered API key in every form a server might echo it in,
    /// all keys at once (one automaton over every form of every key, built when the set of keys
    /// changes), in time proportional to the text:
    ///
    /// - the key, and any run of 12 (the module's `RUN_CHARS`) or more of its characters;
    /// - its hex, in either case, and its base64, standard or URL-safe, at any of the three byte
    ///   alignments (also of `Bearer KEY` and `Api-Key KEY`), and runs of those standing for
    ///   12 or more bytes;
    /// - any of these under up to three layers of encoding, each of which may mix, from one
    ///   character to the next: percent-encoding in either case (`%41`, `%2541`), `%uXXXX`,
    ///   `+` for a space, JSON and Rust escapes (`\u0041`, `\u{41}`, `\x41`, `\/`, `\\`),
    ///   and HTML character references (`&#65;`, `&#x41;`, `&amp;`).
    ///
    /// Every match, in the text or a decoded layer of it, is mapped back to the bytes of `text`
    /// it came from; those bytes are replaced by `<redacted>` (the module's `REDACTED`).
    pub fn new(text: impl Into<String>) -> Self {
        #[cfg(feature = "scrub")]
        {
            scrub::scrubbed(text.into())
        }
        #[cfg(not(feature = "scrub"))]
        {
            Self(text.into())
        }
    }

    /// Bytes from a server as text (invalid UTF-8 becomes U+FFFD), scrubbed as by
    /// [`new`](Self::new).
    pub fn from_utf8_lossy(bytes: &[u8]) -> Self {
        Self::new(String::from_utf8_lossy(bytes).into_owned())
    }

    /// The scrubbed text, unescaped.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The scrubbed text, unescaped.
    #[must_use]
    pub fn into_string(self) -> String {
        self.0
    }
}

impl Deref for ServerText {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for ServerText {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ServerText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&escape_unprintable(&self.0))
    }
}

impl fmt::Debug for ServerText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0.as_str(), f)
    }
}

impl PartialEq<str> for ServerText {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for ServerText {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for ServerText {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

/// Whether `c` must not reach a terminal as it is: a control character (C0, DEL, C1 — which
/// covers ESC and the one-byte CSI/OSC introducers), a Unicode format character (general
/// category Cf: bidi embeddings, overrides and isolates, zero-width spaces and joiners, the BOM,
/// tag characters, ...), or a line or paragraph separator (which break a line like `\n`).
#[must_use]
pub fn is_unprintable(c: char) -> bool {
    c.is_control()
        || matches!(
            c.general_category(),
            GeneralCategory::Format
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
        )
}

/// `text` with every [unprintable](is_unprintable) character written as an escape: `\n`, `\r`
/// and `\t` as such, anything else as `\u{1b}`. Escaping ESC is what defuses a CSI or OSC
/// sequence: its remaining characters are plain text. Borrowed when there is nothing to escape.
#[must_use]
pub fn escape_unprintable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unprintable) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_unprintable(c) => {
                // Writing to a String cannot fail.
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_reads_back_as_a_string() {
        let text = ServerText::new("as sent");
        assert_eq!(text.as_ref(), "as sent");
        assert_eq!(&*text, "as sent");
        assert!(text == "as sent" && text != "other");
        assert!(text == *"as sent" && text != *"other");
        let (same, other) = (String::from("as sent"), String::from("other"));
        assert!(text == same && text != other);
        assert_eq!(text.clone().into_string(), "as sent");
        assert_eq!(
            ServerText::from_utf8_lossy(b"a\xffb").as_str(),
            "a\u{fffd}b"
        );
    }

    #[test]
    fn display_escapes_what_could_drive_a_terminal() {
        let hostile =
            "a\u{1b}]0;title\u{7}b\u{1b}[2Jc\u{9b}d\u{202e}e\u{2066}f\u{200b}g\u{2028}h\n\t\r";
        let text = ServerText::new(hostile);
        assert_eq!(
            text.to_string(),
            "a\\u{1b}]0;title\\u{7}b\\u{1b}[2Jc\\u{9b}d\\u{202e}e\\u{2066}f\\u{200b}g\\u{2028}h\\n\\t\\r"
        );
        assert_eq!(text.as_str(), hostile);
        assert!(!format!("{text:?}").contains('\u{1b}'));
        assert!(!format!("{text:?}").contains('\u{202e}'));
        assert!(matches!(
            escape_unprintable("plain ünïcode 日本"),
            Cow::Borrowed(_)
        ));
        assert_eq!(format!("[{:>5}]", ServerText::new("ab")), "[   ab]");
        for c in [
            '\u{0}',
            '\u{7f}',
            '\u{85}',
            '\u{feff}',
            '\u{e0001}',
            '\u{2029}',
            '\u{61c}',
        ] {
            assert!(is_unprintable(c), "{c:?}");
        }
        for c in ['a', ' ', 'é', '\u{3000}', '\u{301}', '😀'] {
            assert!(!is_unprintable(c), "{c:?}");
        }
    }
}
