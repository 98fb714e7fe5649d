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
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory as _};

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
    /// `text`, scrubbed of every registered API key in every form a server might echo it in:
    /// raw; percent-encoded byte by byte in upper- or lower-case hex, once or twice (`%2541`),
    /// or as `%uXXXX`; JSON- or Rust-escaped (`\u0041`, `\u{41}`, `\x41`, `\/`), also doubly
    /// escaped (`\\u0041`); as HTML character references (`&#65;`, `&#x41;`, `&amp;`); `+`
    /// for a space; and any mix of these from one character to the next.
    pub fn new(text: impl Into<String>) -> Self {
        let text = text.into();
        let keys = live_keys();
        Self(
            keys.iter()
                .fold(text, |text, key| scrub_key(text, key.as_bytes())),
        )
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

/// A key registered for scrubbing until this value is dropped (see the [module docs](self)).
///
/// Every [`Client`](crate::RuntimeClient) holds one for its key; register one yourself for a key the
/// process holds without a client.
pub struct RegisteredSecret {
    id: u64,
}

/// The registered keys, each with the id of the registration that holds it.
static LIVE_KEYS: RwLock<Vec<(u64, Arc<str>)>> = RwLock::new(Vec::new());
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

impl RegisteredSecret {
    /// Registers `secret`: every [`ServerText`] built until this is dropped is scrubbed of it.
    /// An empty secret is not registered (it would match everywhere).
    #[must_use = "the secret is only scrubbed while the registration lives"]
    pub fn new(secret: &str) -> Self {
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        if !secret.is_empty() {
            LIVE_KEYS
                .write()
                .unwrap_or_else(PoisonError::into_inner)
                .push((id, Arc::from(secret)));
        }
        Self { id }
    }
}

impl Drop for RegisteredSecret {
    fn drop(&mut self) {
        LIVE_KEYS
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|(id, _)| *id != self.id);
    }
}

impl fmt::Debug for RegisteredSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RegisteredSecret(<redacted>)")
    }
}

/// The keys registered now, copied out so the lock is not held while scrubbing.
fn live_keys() -> Vec<Arc<str>> {
    let keys = LIVE_KEYS.read().unwrap_or_else(PoisonError::into_inner);
    let mut distinct: Vec<Arc<str>> = Vec::with_capacity(keys.len());
    for (_, key) in keys.iter() {
        if !distinct.iter().any(|known| known == key) {
            distinct.push(Arc::clone(key));
        }
    }
    distinct
}

/// `text` with every match of `key` (in any of the forms [`ServerText::new`] lists) replaced by
/// [`REDACTED`]. Each start is tried once, and a try follows at most a handful of positions per
/// key byte, so the work is at worst proportional to `text` times `key`, with no backtracking.
fn scrub_key(text: String, key: &[u8]) -> String {
    let Some(&first) = key.first() else {
        return text;
    };
    // Every encoding starts with one of these; a key holding none can only be matched in an
    // encoded form where the raw walk stops at one, which makes most tries one comparison.
    let plain_key = !key.iter().any(|b| ENCODING_STARTS.contains(b));
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        let may_start = byte == first || ENCODING_STARTS.contains(&byte);
        let end = if !may_start || !text.is_char_boundary(at) {
            None
        } else if plain_key {
            let raw = bytes[at..]
                .iter()
                .zip(key)
                .take_while(|(text, key)| text == key)
                .count();
            if raw == key.len() {
                Some(at + raw)
            } else if bytes
                .get(at + raw)
                .is_some_and(|b| ENCODING_STARTS.contains(b))
            {
                match_at(bytes, at, key)
            } else {
                None
            }
        } else {
            match_at(bytes, at, key)
        }
        .filter(|&end| text.is_char_boundary(end));
        match end {
            Some(end) => {
                let out = out.get_or_insert_with(|| String::with_capacity(text.len()));
                out.push_str(&text[copied..at]);
                out.push_str(REDACTED);
                copied = end;
                at = end;
            }
            None => at += 1,
        }
    }
    match out {
        Some(mut out) => {
            out.push_str(&text[copied..]);
            out
        }
        None => text,
    }
}

/// The bytes an encoded form starts with: `%` (percent, `%u`), `\\` (JSON, Rust), `&` (HTML),
/// `+` (a space in a form body).
const ENCODING_STARTS: [u8; 4] = [b'%', b'\\', b'&', b'+'];

/// The end of the longest encoding of all of `key` that starts at `start`, if there is one.
///
/// `reached[j]` holds the text positions right after some encoding of `key[..j]`; each key byte
/// (or, for the whole-character forms, each key character) extends them by its forms.
fn match_at(text: &[u8], start: usize, key: &[u8]) -> Option<usize> {
    let mut first = Vec::new();
    forms(text, key, 0, start, |consumed, end| {
        first.push((consumed, end))
    });
    if first.is_empty() {
        return None;
    }
    let mut reached: Vec<Vec<usize>> = vec![Vec::new(); key.len() + 1];
    let mut furthest = 0;
    let add = |reached: &mut Vec<Vec<usize>>,
               furthest: &mut usize,
               steps: &[(usize, usize)],
               from: usize| {
        for &(consumed, end) in steps {
            let index = from + consumed;
            if !reached[index].contains(&end) {
                reached[index].push(end);
            }
            *furthest = (*furthest).max(index);
        }
    };
    add(&mut reached, &mut furthest, &first, 0);
    let mut found = Vec::new();
    for index in 1..key.len() {
        if index > furthest {
            return None;
        }
        for position in std::mem::take(&mut reached[index]) {
            found.clear();
            forms(text, key, index, position, |consumed, end| {
                found.push((consumed, end));
            });
            add(&mut reached, &mut furthest, &found, index);
        }
    }
    reached[key.len()].iter().copied().max()
}

/// Calls `emit(consumed, end)` for every form of the key byte at `index` (or, for the
/// whole-character forms, of the key character starting there, `consumed` bytes long) that
/// starts at `text[at]` and ends before `text[end]`.
fn forms(text: &[u8], key: &[u8], index: usize, at: usize, mut emit: impl FnMut(usize, usize)) {
    let Some(&byte) = text.get(at) else { return };
    let wanted = key[index];
    if byte == wanted {
        emit(1, at + 1);
    }
    if byte == b'+' && wanted == b' ' {
        emit(1, at + 1);
    }
    // The key character starting here, for the forms that encode a whole character.
    let character = key_char(key, index);
    match byte {
        b'%' => {
            // `%41`, `%2541`, `%252541`: one byte, percent-encoded up to three times.
            let mut hex_at = at + 1;
            for _ in 0..3 {
                if hex_byte(text, hex_at) == Some(wanted) {
                    emit(1, hex_at + 2);
                }
                if text.get(hex_at..hex_at + 2) == Some(b"25") {
                    hex_at += 2;
                } else {
                    break;
                }
            }
            // `%u0041`, JavaScript's old `escape()`.
            if let Some((c, len)) = character
                && matches!(text.get(at + 1), Some(b'u' | b'U'))
                && hex_value(text, at + 2, 4, 4).map(|(v, _)| v) == Some(u32::from(c))
            {
                emit(len, at + 6);
            }
        }
        b'\\' => {
            let Some((c, len)) = character else { return };
            let run = text[at..]
                .iter()
                .take(8)
                .take_while(|&&b| b == b'\\')
                .count();
            if c == '\\' {
                // `\\` in JSON, `\\\\` escaped twice.
                for pair in [2, 4] {
                    if run >= pair {
                        emit(len, at + pair);
                    }
                }
            }
            if let Some(end) = backslash_escape(text, at + run, run, c) {
                emit(len, end);
            }
        }
        b'&' => {
            let Some((c, len)) = character else { return };
            if let Some(end) = html_reference(text, at + 1, c) {
                emit(len, end);
            }
        }
        _ => {}
    }
}

/// The key character starting at byte `index`, and its length, when a character starts there.
fn key_char(key: &[u8], index: usize) -> Option<(char, usize)> {
    let rest = key.get(index..)?;
    let lead = *rest.first()?;
    if (0x80..0xC0).contains(&lead) {
        return None;
    }
    let len = match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    };
    let c = std::str::from_utf8(rest.get(..len)?).ok()?.chars().next()?;
    Some((c, len))
}

/// After a run of `run` backslashes ending before `text[at]`: the end of an escape of `c`, if
/// one is there. `\uXXXX` (with a surrogate pair, each half after the same run, for characters
/// beyond the BMP), `\u{X..}`, `\xXX`, and the one-letter escapes of JSON and Rust.
fn backslash_escape(text: &[u8], at: usize, run: usize, c: char) -> Option<usize> {
    let code = u32::from(c);
    match *text.get(at)? {
        b'u' | b'U' if text.get(at + 1) == Some(&b'{') => {
            let (value, end) = hex_value(text, at + 2, 1, 6)?;
            (value == code && text.get(end) == Some(&b'}')).then_some(end + 1)
        }
        b'u' | b'U' => {
            let (value, end) = hex_value(text, at + 1, 4, 4)?;
            if value == code {
                return Some(end);
            }
            // A UTF-16 surrogate pair: the low half after the same run of backslashes.
            let supplementary = code.checked_sub(0x1_0000)?;
            if value != 0xD800 + (supplementary >> 10) {
                return None;
            }
            let low_at = end + run;
            let escaped = text.get(end..low_at)?.iter().all(|&b| b == b'\\');
            if !escaped || !matches!(text.get(low_at), Some(b'u' | b'U')) {
                return None;
            }
            let (low, end) = hex_value(text, low_at + 1, 4, 4)?;
            (low == 0xDC00 + (supplementary & 0x3FF)).then_some(end)
        }
        b'x' | b'X' => {
            let (value, end) = hex_value(text, at + 1, 2, 2)?;
            (value == code).then_some(end)
        }
        letter => {
            let escaped = match letter {
                b'"' => '"',
                b'\'' => '\'',
                b'/' => '/',
                b'n' => '\n',
                b'r' => '\r',
                b't' => '\t',
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                b'0' => '\0',
                _ => return None,
            };
            (escaped == c).then_some(at + 1)
        }
    }
}

/// After `&`: the end of an HTML character reference to `c` (`&#65;`, `&#x41;`, `&amp;`), if
/// one starts at `text[at]`.
fn html_reference(text: &[u8], at: usize, c: char) -> Option<usize> {
    let code = u32::from(c);
    if text.get(at) == Some(&b'#') {
        let (value, end) = if matches!(text.get(at + 1), Some(b'x' | b'X')) {
            hex_value(text, at + 2, 1, 8)?
        } else {
            decimal_value(text, at + 1, 10)?
        };
        return (value == code && text.get(end) == Some(&b';')).then_some(end + 1);
    }
    let name: &[u8] = match c {
        '&' => b"amp;",
        '<' => b"lt;",
        '>' => b"gt;",
        '"' => b"quot;",
        '\'' => b"apos;",
        _ => return None,
    };
    let candidate = text.get(at..at + name.len())?;
    candidate
        .eq_ignore_ascii_case(name)
        .then_some(at + name.len())
}

/// Two hex digits at `text[at]`, as a byte.
fn hex_byte(text: &[u8], at: usize) -> Option<u8> {
    let (value, _) = hex_value(text, at, 2, 2)?;
    u8::try_from(value).ok()
}

/// `min..=max` hex digits (either case) at `text[at]`, as many as there are up to `max`: their
/// value and the end.
fn hex_value(text: &[u8], at: usize, min: usize, max: usize) -> Option<(u32, usize)> {
    let mut value: u32 = 0;
    let mut end = at;
    while end - at < max {
        let Some(digit) = text.get(end).and_then(|&b| char::from(b).to_digit(16)) else {
            break;
        };
        value = value * 16 + digit;
        end += 1;
    }
    (end - at >= min).then_some((value, end))
}

/// Up to `max` decimal digits at `text[at]` (at least one): their value and the end.
fn decimal_value(text: &[u8], at: usize, max: usize) -> Option<(u32, usize)> {
    let mut value: u64 = 0;
    let mut end = at;
    while end - at < max {
        let Some(digit) = text.get(end).and_then(|&b| char::from(b).to_digit(10)) else {
            break;
        };
        value = value * 10 + u64::from(digit);
        end += 1;
    }
    if end == at {
        return None;
    }
    Some((u32::try_from(value).ok()?, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "abcd1234.Zz-_~/Key";

    fn scrubbed(text: &str) -> String {
        scrub_key(text.to_owned(), KEY.as_bytes())
    }

    /// Every byte of `text` as `%XX`, in upper or lower case.
    fn percent_all(text: &str, lower: bool) -> String {
        text.bytes()
            .map(|b| {
                if lower {
                    format!("%{b:02x}")
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect()
    }

    #[test]
    fn every_encoding_of_the_key_is_scrubbed() {
        let json_escaped: String = KEY
            .chars()
            .map(|c| format!("\\u{:04x}", u32::from(c)))
            .collect();
        let json_upper: String = KEY
            .chars()
            .map(|c| format!("\\u{:04X}", u32::from(c)))
            .collect();
        let rust_escaped: String = KEY
            .chars()
            .map(|c| format!("\\u{{{:x}}}", u32::from(c)))
            .collect();
        let double_json: String = KEY
            .chars()
            .map(|c| format!("\\\\u{:04x}", u32::from(c)))
            .collect();
        let html_decimal: String = KEY
            .chars()
            .map(|c| format!("&#{};", u32::from(c)))
            .collect();
        let html_hex: String = KEY
            .chars()
            .map(|c| format!("&#x{:X};", u32::from(c)))
            .collect();
        let double_percent: String = KEY.bytes().map(|b| format!("%25{b:02x}")).collect();
        let js_escape: String = KEY
            .chars()
            .map(|c| format!("%u{:04X}", u32::from(c)))
            .collect();
        let hex_escape: String = KEY
            .chars()
            .map(|c| format!("\\x{:02x}", u32::from(c)))
            .collect();
        let forms = [
            KEY.to_owned(),
            percent_all(KEY, false),
            percent_all(KEY, true),
            KEY.replace('/', "%2f").replace('~', "%7E"),
            KEY.replace('/', "\\/"),
            json_escaped,
            json_upper,
            rust_escaped,
            double_json,
            html_decimal,
            html_hex,
            double_percent,
            js_escape,
            hex_escape,
            // One form per character, mixed.
            "a%62\\u0063&#100;1%323\\x34.Zz-_~\\/Key".to_owned(),
        ];
        for form in forms {
            let text = format!("Authorization: Bearer {form}, again {form}.");
            assert_eq!(
                scrubbed(&text),
                "Authorization: Bearer <redacted>, again <redacted>.",
                "{form}"
            );
        }
    }

    #[test]
    fn near_misses_are_kept() {
        for text in [
            "abcd1234.Zz-_~/Ke",
            "abcd1234.Zz-_~/Kex",
            "bcd1234.Zz-_~/Key",
            "%61%6",
            "abcd1234%2Zz-_~/Key",
            "&#97bcd1234.Zz-_~/Key",
            "",
            "%",
            "\\",
            "&",
            "\\u{61",
        ] {
            assert_eq!(scrubbed(text), text);
        }
    }

    #[test]
    fn characters_beyond_ascii_and_the_bmp() {
        let key = "k€y😀";
        let scrub = |text: &str| scrub_key(text.to_owned(), key.as_bytes());
        assert_eq!(scrub("[k€y😀]"), "[<redacted>]");
        assert_eq!(scrub("[k\\u20ACy\\ud83d\\ude00]"), "[<redacted>]");
        assert_eq!(scrub("[k\\\\u20acy\\\\ud83d\\\\ude00]"), "[<redacted>]");
        assert_eq!(scrub("[k%E2%82%ACy%F0%9F%98%80]"), "[<redacted>]");
        assert_eq!(scrub("[k&#8364;y&#x1F600;]"), "[<redacted>]");
        assert_eq!(scrub("[k\\u{20ac}y\\u{1f600}]"), "[<redacted>]");
        // A high surrogate alone, or with the wrong low half, is not the character.
        assert_eq!(scrub("k€y\\ud83d"), "k€y\\ud83d");
        assert_eq!(scrub("k€y\\ud83d\\ude01"), "k€y\\ud83d\\ude01");
        assert_eq!(scrub("k€y\\ud83d\\\\ude00"), "k€y\\ud83d\\\\ude00");
    }

    #[test]
    fn special_characters_of_the_encodings_themselves() {
        let key = "a%b\\c&d e\"f";
        let scrub = |text: &str| scrub_key(text.to_owned(), key.as_bytes());
        assert_eq!(scrub(key), REDACTED);
        assert_eq!(scrub("a%25b%5Cc%26d+e%22f"), REDACTED);
        assert_eq!(scrub("a%b\\\\c&amp;d e\\\"f"), REDACTED);
        assert_eq!(scrub("a%b\\\\\\\\c&AMP;d e&quot;f"), REDACTED);
        assert_eq!(scrub("a&#37;b&#92;c&#38;d&#32;e&#x22;f"), REDACTED);
    }

    #[test]
    fn registered_keys_are_scrubbed_while_they_live() {
        let secret = "registered-key-Qw8";
        let text = format!("x {secret} y");
        let registration = RegisteredSecret::new(secret);
        let kept = ServerText::new(text.clone());
        assert_eq!(kept, "x <redacted> y");
        assert!(!format!("{kept}{kept:?}").contains(secret));
        drop(registration);
        assert_eq!(ServerText::new(text.clone()), text);
        assert!(format!("{:?}", RegisteredSecret::new("")).contains("<redacted>"));
        assert_eq!(ServerText::new(text.clone()), text);
    }

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

    #[test]
    fn long_runs_of_near_matches_are_kept() {
        // Thousands of near-matches of a long key, each failing on its last byte.
        let key = "k".repeat(64);
        let text = format!("{}x", "k".repeat(63)).repeat(300);
        assert!(scrub_key(text.clone(), key.as_bytes()) == text);
        let percent = format!("{}x", "%6b".repeat(63)).repeat(100);
        assert!(scrub_key(percent.clone(), key.as_bytes()) == percent);
        let whole = format!("{}{key}", "%6b".repeat(63));
        assert!(scrub_key(whole, key.as_bytes()) == format!("{REDACTED}{}", "k".repeat(63)));
    }
}
