//! The one sanitiser between server text and the terminal: every string the CLI prints that a
//! server or a saved response wrote (table titles and cells, labels, chart text, `error:`
//! lines, `watch` redraws) passes through [`shown`].

use baseten_api::error::ServerText;

/// `text` made safe to print: scrubbed of the API key (the client's, and the one the CLI was
/// given, which [`run`](crate::run) registers with the scrubber for the whole run), then with
/// control characters (and with them every CSI and OSC escape sequence, whose ESC or C1
/// introducer is escaped), Unicode format characters (bidi overrides and isolates such as
/// U+202E and U+2066–U+2069, zero-width characters such as U+200B) and line separators written
/// as escapes, `\u{1b}`, `\u{202e}` (`\n`, `\r`, `\t` as such). The runtime's [`ServerText`]
/// shows text by the same rule, so an error message and a table cell show a character alike.
pub fn shown(text: &str) -> String {
    ServerText::new(text).to_string()
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
        assert_eq!(shown("plain — ünïcode 日本 🦀"), "plain — ünïcode 日本 🦀");
        let key = "terminal-test-key-7Yx";
        let registered = baseten_api::error::RegisteredSecret::new(key);
        assert_eq!(shown(&format!("[{key}\u{1b}]")), "[<redacted>\\u{1b}]");
        drop(registered);
    }
}
