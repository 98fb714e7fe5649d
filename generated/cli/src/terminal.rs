//! The one sanitiser between server text and the terminal: every string the CLI prints that a
//! server or a saved response wrote (table titles and cells, labels, chart text, `error:`
//! lines, `watch` redraws) passes through [`shown`].

use std::borrow::Cow;

/// `text` made safe to print: control characters (and with them every CSI and OSC escape
/// sequence, whose ESC or C1 introducer is escaped), Unicode format characters (bidi
/// overrides and isolates such as U+202E and U+2066–U+2069, zero-width characters such as
/// U+200B) and line separators are written as escapes, `\u{1b}`, `\u{202e}` (`\n`, `\r`, `\t`
/// as such). The runtime's [`ServerText`](baseten_api::runtime::ServerText) escapes with the
/// same rule, so an error message and a table cell show one character alike.
pub fn shown(text: &str) -> Cow<'_, str> {
    baseten_api::runtime::server_text::escape_unprintable(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_bidi_and_invisible_characters_are_shown_escaped() {
        let hostile =
            "a\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31m\u{202e}\u{2066}\u{200b}\u{feff}\r\n\tz";
        assert_eq!(
            shown(hostile),
            "a\\u{1b}]0;owned\\u{7}\\u{1b}[2J\\u{9b}31m\\u{202e}\\u{2066}\\u{200b}\\u{feff}\\r\\n\\tz"
        );
        assert!(matches!(shown("plain — ünïcode 日本 🦀"), Cow::Borrowed(_)));
    }
}
