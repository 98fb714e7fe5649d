//! The key scrubber behind [`ServerText::new`](super::ServerText::new): the registry of live
//! keys ([`RegisteredSecret`]) and one automaton over every form of every key (feature `scrub`,
//! which `client` enables; see the [module docs](super)).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use aho_corasick::{AhoCorasick, AhoCorasickKind, Input, MatchKind};
use base64::Engine as _;
use base64::engine::GeneralPurpose;
use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};

use super::{REDACTED, ServerText};

/// `text` as a [`ServerText`], scrubbed of every key registered now.
pub(super) fn scrubbed(text: String) -> ServerText {
    match live_scrubber().and_then(|scrubber| scrubber.scrub(&text)) {
        Some(scrubbed) => ServerText(scrubbed),
        None => ServerText(text),
    }
}

/// A key registered for scrubbing until this value is dropped (see the [module docs](super)).
///
/// Every [`Client`](crate::RuntimeClient) holds one for its key; register one yourself for a key the
/// process holds without a client.
pub struct RegisteredSecret {
    id: u64,
}

/// The registered keys, each with the id of the registration that holds it, and the scrubber
/// built for them (dropped when a key comes or goes, built again on first use).
struct Registry {
    keys: Vec<(u64, Arc<str>)>,
    scrubber: Option<Arc<Scrubber>>,
}

static LIVE_KEYS: RwLock<Registry> = RwLock::new(Registry {
    keys: Vec::new(),
    scrubber: None,
});
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

impl RegisteredSecret {
    /// Registers `secret`: every [`ServerText`] built until this is dropped is scrubbed of it.
    /// An empty secret is not registered (it would match everywhere).
    #[must_use = "the secret is only scrubbed while the registration lives"]
    pub fn new(secret: &str) -> Self {
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        if !secret.is_empty() {
            let mut registry = LIVE_KEYS.write().unwrap_or_else(PoisonError::into_inner);
            registry.keys.push((id, Arc::from(secret)));
            registry.scrubber = None;
        }
        Self { id }
    }
}

impl Drop for RegisteredSecret {
    fn drop(&mut self) {
        let mut registry = LIVE_KEYS.write().unwrap_or_else(PoisonError::into_inner);
        let before = registry.keys.len();
        registry.keys.retain(|(id, _)| *id != self.id);
        if registry.keys.len() != before {
            registry.scrubber = None;
        }
    }
}

impl fmt::Debug for RegisteredSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RegisteredSecret(<redacted>)")
    }
}

/// The scrubber for the keys registered now: the cached one, or one built (and cached) for
/// them; `None` when no key is registered.
fn live_scrubber() -> Option<Arc<Scrubber>> {
    {
        let registry = LIVE_KEYS.read().unwrap_or_else(PoisonError::into_inner);
        if registry.keys.is_empty() {
            return None;
        }
        if let Some(scrubber) = &registry.scrubber {
            return Some(Arc::clone(scrubber));
        }
    }
    let mut registry = LIVE_KEYS.write().unwrap_or_else(PoisonError::into_inner);
    if registry.scrubber.is_none() {
        let keys: Vec<&str> = registry.keys.iter().map(|(_, key)| &**key).collect();
        registry.scrubber = Scrubber::new(&keys).map(Arc::new);
    }
    registry.scrubber.clone()
}

/// How many characters of a key make a run that is scrubbed wherever it appears: any 12 in a
/// row, so a prefix, a suffix or the middle of a key cannot pass either.
pub const RUN_CHARS: usize = 12;

/// How many layers of encoding are taken off the text: `%252541` is `A` percent-encoded three
/// times, and JSON-escaped-then-percent-encoded is two.
const LAYERS: usize = 3;

/// The base64 characters a run of [`RUN_CHARS`] bytes is sure to give whole, whatever its
/// alignment: 12 bytes are 96 bits, of which a text starting them 1 or 2 bytes into a group
/// shows 15 characters made of nothing else.
const BASE64_RUN: usize = 15;

/// Encoded forms shorter than this are not searched for: a short key's two-character base64
/// middle would match everywhere. (The raw key is always searched for.)
const SHORTEST_ENCODED: usize = 8;

/// One automaton over every form of every live key, run over the text and each layer of it
/// decoded (see [`ServerText::new`]); every match, in any layer, is mapped back to the bytes of
/// the text it came from, and those are replaced.
#[derive(Debug)]
struct Scrubber {
    automaton: AhoCorasick,
    /// The texts the patterns are pieces of (a key, its hex, its base64 at one alignment, …).
    streams: Vec<Vec<u8>>,
    /// For each pattern (by id), where it ends in each stream it is a piece of (the first place
    /// in each): a match goes on as long as the text goes on as that stream does.
    continuations: Vec<Vec<(usize, usize)>>,
}

/// The most patterns searched with a DFA: its table is about 9 KB a pattern and takes about
/// 0.15 ms a pattern to build, and it searches 3 to 4 times as fast as the NFA it is built from.
const DFA_MOST_PATTERNS: usize = 2_000;

/// How the automaton is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Build {
    /// For searching fast: built once per set of live keys, and run over every text.
    Fast,
    /// For building fast: the property test builds one per case.
    #[cfg(test)]
    Quick,
}

impl Scrubber {
    /// The scrubber for `keys`; `None` when there is nothing to search for.
    fn new(keys: &[&str]) -> Option<Self> {
        Self::build(keys, Build::Fast)
    }

    fn build(keys: &[&str], build: Build) -> Option<Self> {
        let mut forms = Forms::default();
        for key in keys.iter().filter(|key| !key.is_empty()) {
            key_patterns(key, &mut forms);
        }
        if forms.patterns.is_empty() {
            return None;
        }
        let mut patterns = Vec::with_capacity(forms.patterns.len());
        let mut continuations = Vec::with_capacity(forms.patterns.len());
        for (pattern, ends) in forms.patterns {
            patterns.push(pattern);
            continuations.push(ends.into_iter().collect());
        }
        // Leftmost-longest: where forms start at the same place the longest wins, so of two
        // keys one the prefix of the other, the longer goes whole.
        let kind = if build == Build::Fast && patterns.len() <= DFA_MOST_PATTERNS {
            AhoCorasickKind::DFA
        } else {
            AhoCorasickKind::ContiguousNFA
        };
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .kind(Some(kind))
            .build(&patterns)
            .ok()?;
        Some(Self {
            automaton,
            streams: forms.streams,
            continuations,
        })
    }

    /// `text` with every match replaced by [`REDACTED`]; `None` when nothing matched.
    fn scrub(&self, text: &str) -> Option<String> {
        let mut found = Spans::default();
        // Byte for byte the text, so its matches need no mapping.
        let plain: Cow<'_, [u8]> = if text.contains('+') {
            let mut bytes = text.as_bytes().to_vec();
            plus_as_space(&mut bytes);
            Cow::Owned(bytes)
        } else {
            Cow::Borrowed(text.as_bytes())
        };
        self.search(&plain, |start, end| found.add(start, end));
        let mut layers: Vec<Layer> = Vec::new();
        for _ in 0..LAYERS {
            let below = layers.last().map_or(&plain[..], |layer| &layer.text[..]);
            let Some(layer) = Layer::decode(below) else {
                break;
            };
            layers.push(layer);
            found.next_search();
            let top = &layers[layers.len() - 1];
            self.search(&top.text, |start, end| {
                let (start, end) = layers
                    .iter()
                    .rev()
                    .fold((start, end), |(start, end), layer| {
                        layer.source_span(start, end)
                    });
                found.add(start, end);
            });
        }
        found.replace_in(text)
    }

    /// Calls `found(start, end)` for each match in `haystack`, in order, each carried on for
    /// as long as the text goes on as a stream the match is a piece of: a key's first 17
    /// characters are one match, not a run of 12 and 5 characters left over.
    fn search(&self, haystack: &[u8], mut found: impl FnMut(usize, usize)) {
        let mut at = 0;
        while at < haystack.len() {
            let input = Input::new(haystack).range(at..);
            let Some(hit) = self.automaton.find(input) else {
                break;
            };
            let end = hit.end() + self.continuation(haystack, hit.pattern().as_usize(), hit.end());
            found(hit.start(), end);
            at = end.max(hit.start() + 1);
        }
    }

    /// How far the text after `end` goes on as a stream that `pattern` is a piece of.
    fn continuation(&self, haystack: &[u8], pattern: usize, end: usize) -> usize {
        let rest = &haystack[end..];
        self.continuations[pattern]
            .iter()
            .map(|&(stream, after)| {
                let stream = &self.streams[stream][after..];
                stream.iter().zip(rest).take_while(|(a, b)| a == b).count()
            })
            .max()
            .unwrap_or(0)
    }
}

/// The patterns of the live keys, each with the streams it is a piece of.
#[derive(Default)]
struct Forms {
    streams: Vec<Vec<u8>>,
    /// Each pattern, and for each stream it is a piece of, where it first ends there.
    patterns: BTreeMap<Vec<u8>, BTreeMap<usize, usize>>,
}

impl Forms {
    /// Adds `stream` (with `+` read as a space) and its pieces from each of `starts`, `len`
    /// bytes long (to its end, where it is shorter), and itself whole.
    fn add(&mut self, stream: Vec<u8>, starts: impl Iterator<Item = (usize, usize)>) {
        let mut stream = stream;
        plus_as_space(&mut stream);
        let id = self.streams.len();
        for (start, end) in starts.chain([(0, stream.len())]) {
            let first_end = self
                .patterns
                .entry(stream[start..end].to_vec())
                .or_default()
                .entry(id)
                .or_insert(end);
            *first_end = (*first_end).min(end);
        }
        self.streams.push(stream);
    }
}

/// Every form of `key` the automaton looks for, in the text and in each decoded layer: the key,
/// every run of [`RUN_CHARS`] characters of it, its hex in both cases (and every run of it
/// standing for [`RUN_CHARS`] bytes), and its base64, standard and URL-safe, in each of the
/// three byte alignments (the characters that depend on the key's bytes alone, so the bytes
/// around it do not matter), with every run standing for [`RUN_CHARS`] bytes, and the same of
/// `Bearer KEY` and `Api-Key KEY`, the header values that carry it; and its UTF-16 (both byte
/// orders) as a lossy decode leaves it, with every run of it.
fn key_patterns(key: &str, forms: &mut Forms) {
    forms.add(key.as_bytes().to_vec(), char_runs(key));
    // A key holding what reads as an escape (`\r`, `&amp;`, `%41`) is changed by the decoding
    // of a layer even where nothing encoded it: the decoded layers are searched for the key and
    // each run of it as decoded likewise.
    let whole = (0, key.len());
    for (start, end) in char_runs(key).chain([whole]) {
        let mut decoded = key.as_bytes()[start..end].to_vec();
        for _ in 0..LAYERS {
            plus_as_space(&mut decoded);
            let Some(layer) = Layer::decode(&decoded) else {
                break;
            };
            decoded = layer.text;
            forms.add(decoded.clone(), std::iter::empty());
        }
    }
    // UTF-16, little- and big-endian, as a lossy UTF-8 decode of the server's bytes leaves it
    // (an ASCII key's bytes with a NUL after, or before, each): one stream, its pieces standing
    // for each run of the key. NULs written as escapes (`\u0000`, `%00`, `&#0;`) are decoded by
    // the layers, which are searched for the same forms.
    for big_endian in [false, true] {
        let wide = utf16_as_decoded(key, big_endian);
        if wide.len() < SHORTEST_ENCODED {
            continue;
        }
        let at = |end: usize| {
            utf16_as_decoded(&key[..end], big_endian)
                .len()
                .min(wide.len())
        };
        let runs: Vec<(usize, usize)> = char_runs(key)
            .map(|(start, end)| (at(start), at(end)))
            .filter(|(start, end)| start < end)
            .collect();
        forms.add(wide, runs.into_iter());
    }
    let mut encoded = |form: String, run: usize, step: usize| {
        if form.len() < SHORTEST_ENCODED {
            return;
        }
        let last = form.len().checked_sub(run);
        let starts = last
            .into_iter()
            .flat_map(move |last| (0..=last).step_by(step).map(move |at| (at, at + run)));
        forms.add(form.into_bytes(), starts);
    };
    let hex: String = key.bytes().map(|b| format!("{b:02x}")).collect();
    encoded(hex.to_ascii_uppercase(), 2 * RUN_CHARS, 2);
    encoded(hex, 2 * RUN_CHARS, 2);
    for alphabet in [&STANDARD_NO_PAD, &URL_SAFE_NO_PAD] {
        for offset in 0..3 {
            encoded(
                base64_middle(alphabet, key.as_bytes(), offset),
                BASE64_RUN,
                1,
            );
            for scheme in ["Bearer ", "Api-Key "] {
                let header = format!("{scheme}{key}");
                let middle = base64_middle(alphabet, header.as_bytes(), offset);
                encoded(middle, usize::MAX, 1);
            }
        }
    }
}

/// `text` in UTF-16 (`big_endian` or little), as `String::from_utf8_lossy` reads those bytes:
/// what a server writing UTF-16 shows in text read as UTF-8.
fn utf16_as_decoded(text: &str, big_endian: bool) -> Vec<u8> {
    let bytes: Vec<u8> = text
        .encode_utf16()
        .flat_map(|unit| {
            if big_endian {
                unit.to_be_bytes()
            } else {
                unit.to_le_bytes()
            }
        })
        .collect();
    String::from_utf8_lossy(&bytes).into_owned().into_bytes()
}

/// The byte ranges of every run of [`RUN_CHARS`] characters of `key`.
fn char_runs(key: &str) -> impl Iterator<Item = (usize, usize)> {
    let boundaries: Vec<usize> = key
        .char_indices()
        .map(|(at, _)| at)
        .chain([key.len()])
        .collect();
    let runs: Vec<(usize, usize)> = boundaries
        .windows(RUN_CHARS + 1)
        .map(|run| (run[0], run[RUN_CHARS]))
        .collect();
    runs.into_iter()
}

/// The base64 characters of `bytes` written `offset` bytes into a 3-byte group: those made of
/// `bytes` alone, whatever comes before and after.
fn base64_middle(alphabet: &GeneralPurpose, bytes: &[u8], offset: usize) -> String {
    let mut shifted = vec![0; offset];
    shifted.extend_from_slice(bytes);
    let encoded = alphabet.encode(&shifted);
    // Character i holds bits 6i..6i+6: the first whole one of `bytes` starts at bit 8*offset,
    // the last ends by bit 8*(offset + len).
    let first = (8 * offset).div_ceil(6);
    let end = 8 * shifted.len() / 6;
    encoded.get(first..end).unwrap_or_default().to_owned()
}

/// The byte ranges of the text to replace: each search's matches, merged as they come (a
/// search reports them by where they end), then all of them at once.
#[derive(Default)]
struct Spans {
    merged: Vec<(usize, usize)>,
    /// Where the current search's ranges start in `merged`.
    search_start: usize,
}

impl Spans {
    /// Adds `start..end`, which ends no sooner than the current search's earlier ranges,
    /// merging it with those it overlaps.
    fn add(&mut self, start: usize, end: usize) {
        let mut start = start;
        while self.merged.len() > self.search_start {
            let (last_start, last_end) = self.merged[self.merged.len() - 1];
            if last_end < start {
                break;
            }
            start = start.min(last_start);
            self.merged.pop();
        }
        self.merged.push((start, end));
    }

    /// Starts another search, whose ranges are merged among themselves.
    fn next_search(&mut self) {
        self.search_start = self.merged.len();
    }

    /// `text` with each range (widened to whole characters; ranges that overlap or touch as
    /// one) replaced by [`REDACTED`]; `None` when there is none.
    fn replace_in(mut self, text: &str) -> Option<String> {
        if self.merged.is_empty() {
            return None;
        }
        self.merged.sort_unstable();
        let mut out = String::with_capacity(text.len());
        // The end of the last range replaced.
        let mut copied: Option<usize> = None;
        for (start, end) in self.merged {
            let mut start = start.min(text.len());
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            let mut end = end.min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            match copied {
                Some(last_end) if start <= last_end => {
                    copied = Some(last_end.max(end));
                }
                _ => {
                    out.push_str(&text[copied.unwrap_or(0)..start]);
                    out.push_str(REDACTED);
                    copied = Some(end);
                }
            }
        }
        out.push_str(&text[copied.unwrap_or(0)..]);
        Some(out)
    }
}

/// One layer of encoding taken off the layer below (or the text): the decoded bytes, and where
/// each decoded escape came from.
struct Layer {
    text: Vec<u8>,
    /// The escapes decoded, in order; runs of alike escapes side by side are one entry, so a
    /// body of escapes costs little more than itself.
    escapes: Vec<Escapes>,
}

/// `count` escapes side by side, each `source_len` bytes below and `decoded_len` bytes here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Escapes {
    decoded: usize,
    source: usize,
    count: usize,
    decoded_len: usize,
    source_len: usize,
}

/// The bytes an escape can start with.
fn starts_escape(byte: u8) -> bool {
    matches!(byte, b'%' | b'\\' | b'&')
}

/// Where the first byte that may start an escape is.
fn next_escape(bytes: &[u8]) -> Option<usize> {
    memchr::memchr3(b'%', b'\\', b'&', bytes)
}

/// `+` is a space in a form body, and a base64 digit elsewhere: every text and every form is
/// searched with `+` read as a space, so both readings match at once, whatever else is
/// decoded next to them (base64 JSON-escaped as `\/`, a key's spaces as `+`).
const PLUS_AS: u8 = b' ';

/// `bytes` with `+` read as a space (see [`PLUS_AS`]).
fn plus_as_space(bytes: &mut [u8]) {
    for byte in bytes.iter_mut().filter(|byte| **byte == b'+') {
        *byte = PLUS_AS;
    }
}

impl Layer {
    /// `below` with every escape decoded once; `None` when it holds none.
    fn decode(below: &[u8]) -> Option<Self> {
        let mut at = next_escape(below)?;
        let mut text = Vec::with_capacity(below.len());
        text.extend_from_slice(&below[..at]);
        let mut escapes: Vec<Escapes> = Vec::new();
        let mut decoded_any = false;
        while at < below.len() {
            let byte = below[at];
            if !starts_escape(byte) {
                let run = next_escape(&below[at..]).unwrap_or(below.len() - at);
                text.extend_from_slice(&below[at..at + run]);
                at += run;
                continue;
            }
            let Some((mut decoded, source_len)) = escape_at(below, at) else {
                text.push(byte);
                at += 1;
                continue;
            };
            decoded_any = true;
            let bytes = decoded.as_bytes();
            let here = Escapes {
                decoded: text.len(),
                source: at,
                count: 1,
                decoded_len: bytes.len(),
                source_len,
            };
            match escapes.last_mut() {
                Some(last)
                    if last.decoded_len == here.decoded_len
                        && last.source_len == here.source_len
                        && last.decoded + last.count * last.decoded_len == here.decoded
                        && last.source + last.count * last.source_len == here.source =>
                {
                    last.count += 1;
                }
                _ => escapes.push(here),
            }
            let written = text.len();
            text.extend_from_slice(bytes);
            plus_as_space(&mut text[written..]);
            at += source_len;
        }
        decoded_any.then_some(Self { text, escapes })
    }

    /// The bytes below that `start..end` of this layer came from.
    fn source_span(&self, start: usize, end: usize) -> (usize, usize) {
        let (first, _) = self.byte_source(start);
        let (_, last) = self.byte_source(end.saturating_sub(1).max(start));
        (first, last)
    }

    /// The bytes below that byte `at` of this layer came from.
    fn byte_source(&self, at: usize) -> (usize, usize) {
        let index = self.escapes.partition_point(|run| run.decoded <= at);
        let Some(run) = index.checked_sub(1).map(|i| self.escapes[i]) else {
            return (at, at + 1);
        };
        let decoded_end = run.decoded + run.count * run.decoded_len;
        if at < decoded_end {
            let source = run.source + (at - run.decoded) / run.decoded_len * run.source_len;
            (source, source + run.source_len)
        } else {
            let source = run.source + run.count * run.source_len + (at - decoded_end);
            (source, source + 1)
        }
    }
}

/// A decoded escape: the character (or byte, for `%XX` and `\xXX`) it stands for.
enum Decoded {
    Char(char, [u8; 4]),
    Byte([u8; 1]),
}

impl Decoded {
    fn char(c: char) -> Self {
        Self::Char(c, [0; 4])
    }

    fn as_bytes(&mut self) -> &[u8] {
        match self {
            Self::Char(c, buffer) => c.encode_utf8(buffer).as_bytes(),
            Self::Byte(byte) => byte,
        }
    }
}

/// The escape starting at `text[at]`, if one does, and its length: `%XX` (either case),
/// `%uXXXX`; `\uXXXX` (with surrogate pairs), `\u{X..}`, `\xXX` and the one-letter escapes
/// of JSON and Rust; `&#N;`, `&#xN;` and the named references of XML.
fn escape_at(text: &[u8], at: usize) -> Option<(Decoded, usize)> {
    match text[at] {
        b'%' => {
            if let Some(byte) = hex_value(text, at + 1, 2, 2) {
                return Some((Decoded::Byte([u8::try_from(byte.0).ok()?]), 3));
            }
            if !matches!(text.get(at + 1), Some(b'u' | b'U')) {
                return None;
            }
            utf16_escape(text, at + 2, b"%u").map(|(c, end)| (Decoded::char(c), end - at))
        }
        b'\\' => {
            let (decoded, end) = backslash_escape(text, at + 1)?;
            Some((decoded, end - at))
        }
        b'&' => html_reference(text, at + 1).map(|(c, end)| (Decoded::char(c), end - at)),
        _ => None,
    }
}

/// After a backslash: the escape's value and end.
fn backslash_escape(text: &[u8], at: usize) -> Option<(Decoded, usize)> {
    let letter = *text.get(at)?;
    let c = match letter {
        b'u' | b'U' if text.get(at + 1) == Some(&b'{') => {
            let (value, end) = hex_value(text, at + 2, 1, 6)?;
            if text.get(end) != Some(&b'}') {
                return None;
            }
            return Some((Decoded::char(char::from_u32(value)?), end + 1));
        }
        b'u' | b'U' => {
            let (c, end) = utf16_escape(text, at + 1, b"\\u")?;
            return Some((Decoded::char(c), end));
        }
        b'x' | b'X' => {
            let (value, end) = hex_value(text, at + 1, 2, 2)?;
            return Some((Decoded::Byte([u8::try_from(value).ok()?]), end));
        }
        b'"' => '"',
        b'\'' => '\'',
        b'/' => '/',
        b'\\' => '\\',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'0' => '\0',
        _ => return None,
    };
    Some((Decoded::char(c), at + 1))
}

/// Four hex digits at `text[at]` as a UTF-16 code unit: the character and its end; a high
/// surrogate only with its low half right after, written with the same `introducer`.
fn utf16_escape(text: &[u8], at: usize, introducer: &[u8]) -> Option<(char, usize)> {
    let (high, end) = hex_value(text, at, 4, 4)?;
    if let Some(c) = char::from_u32(high) {
        return Some((c, end));
    }
    if !(0xD800..0xDC00).contains(&high) {
        return None;
    }
    let after = text.get(end..end + introducer.len())?;
    if !after.eq_ignore_ascii_case(introducer) {
        return None;
    }
    let (low, end) = hex_value(text, end + introducer.len(), 4, 4)?;
    if !(0xDC00..0xE000).contains(&low) {
        return None;
    }
    let c = char::from_u32(0x1_0000 + ((high - 0xD800) << 10) + (low - 0xDC00))?;
    Some((c, end))
}

/// After `&`: an HTML character reference (`&#65;`, `&#x41;`, `&amp;`) and its end.
fn html_reference(text: &[u8], at: usize) -> Option<(char, usize)> {
    if text.get(at) == Some(&b'#') {
        let (value, end) = if matches!(text.get(at + 1), Some(b'x' | b'X')) {
            hex_value(text, at + 2, 1, 8)?
        } else {
            decimal_value(text, at + 1, 10)?
        };
        if text.get(end) != Some(&b';') {
            return None;
        }
        return Some((char::from_u32(value)?, end + 1));
    }
    let names: [(&[u8], char); 5] = [
        (b"amp;", '&'),
        (b"lt;", '<'),
        (b"gt;", '>'),
        (b"quot;", '"'),
        (b"apos;", '\''),
    ];
    names.into_iter().find_map(|(name, c)| {
        let candidate = text.get(at..at + name.len())?;
        candidate
            .eq_ignore_ascii_case(name)
            .then_some((c, at + name.len()))
    })
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
    use std::collections::BTreeSet;

    use super::*;
    use crate::server_text::ServerText;

    const KEY: &str = "abcd1234.Zz-_~/Key";

    /// `text` scrubbed of `keys`, without registering them (the registry is the process's).
    fn scrubbed_of(keys: &[&str], text: &str) -> String {
        scrubbed_by(Scrubber::new(keys), text)
    }

    /// As [`scrubbed_of`], with the automaton that is quicker to build.
    fn quickly_scrubbed_of(keys: &[&str], text: &str) -> String {
        scrubbed_by(Scrubber::build(keys, Build::Quick), text)
    }

    fn scrubbed_by(scrubber: Option<Scrubber>, text: &str) -> String {
        match scrubber {
            Some(scrubber) => scrubber.scrub(text).unwrap_or_else(|| text.to_owned()),
            None => text.to_owned(),
        }
    }

    #[test]
    fn the_automaton_is_a_dfa_unless_too_big() {
        let kind = |keys: &[&str], build| Scrubber::build(keys, build).map(|s| s.automaton.kind());
        assert_eq!(kind(&[KEY], Build::Fast), Some(AhoCorasickKind::DFA));
        assert_eq!(
            kind(&[KEY], Build::Quick),
            Some(AhoCorasickKind::ContiguousNFA)
        );
        let many: Vec<String> = (0..60).map(|n| format!("{n:03}-{KEY}{KEY}{n}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(
            kind(&many, Build::Fast),
            Some(AhoCorasickKind::ContiguousNFA)
        );
        // Whatever the automaton, the same text comes out.
        let text = format!("[{}] [{KEY}]", many[7]);
        assert_eq!(scrubbed_of(&many, &text), "[<redacted>] [<redacted>]");
        assert_eq!(
            quickly_scrubbed_of(&many, &text),
            "[<redacted>] [<redacted>]"
        );
    }

    fn scrubbed(text: &str) -> String {
        scrubbed_of(&[KEY], text)
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

    fn each_char(text: &str, form: impl Fn(char) -> String) -> String {
        text.chars().map(form).collect()
    }

    /// `bytes` in base64 (`alphabet`) after `before` other bytes, as a server would show it.
    fn base64_after(alphabet: &GeneralPurpose, before: &[u8], bytes: &[u8]) -> String {
        alphabet.encode([before, bytes].concat())
    }

    #[test]
    fn every_encoding_of_the_key_is_scrubbed() {
        let code = |c: char| u32::from(c);
        let json_then_percent: String =
            percent_all(&each_char(KEY, |c| format!("\\u{:04x}", code(c))), true);
        let forms = [
            KEY.to_owned(),
            percent_all(KEY, false),
            percent_all(KEY, true),
            KEY.replace('/', "%2f").replace('~', "%7E"),
            KEY.replace('/', "\\/"),
            KEY.replace("Key", "%4b%65%79"),
            each_char(KEY, |c| format!("\\u{:04x}", code(c))),
            each_char(KEY, |c| format!("\\u{:04X}", code(c))),
            each_char(KEY, |c| format!("\\u{{{:x}}}", code(c))),
            each_char(KEY, |c| format!("\\\\u{:04x}", code(c))),
            each_char(KEY, |c| format!("&#{};", code(c))),
            each_char(KEY, |c| format!("&#x{:X};", code(c))),
            each_char(KEY, |c| format!("%u{:04X}", code(c))),
            each_char(KEY, |c| format!("\\x{:02x}", code(c))),
            KEY.bytes().map(|b| format!("%25{b:02x}")).collect(),
            KEY.bytes().map(|b| format!("%2525{b:02X}")).collect(),
            json_then_percent,
            // One form per character, mixed.
            "a%62\\u0063&#100;1%323\\x34.Zz-_~\\/Key".to_owned(),
            // Hex, both cases.
            KEY.bytes().map(|b| format!("{b:02x}")).collect(),
            KEY.bytes().map(|b| format!("{b:02X}")).collect(),
            // A 20-character prefix, a 12-character middle.
            "abcd1234.Zz-_~/Ke".to_owned(),
            KEY[3..15].to_owned(),
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
    fn base64_of_the_key_and_of_its_header_at_every_alignment() {
        for alphabet in [
            &STANDARD_NO_PAD,
            &URL_SAFE_NO_PAD,
            &base64::engine::general_purpose::STANDARD,
        ] {
            for before in [&b""[..], b"x", b"xy", b"user:"] {
                for payload in [
                    KEY.to_owned(),
                    format!("Bearer {KEY}"),
                    format!("Api-Key {KEY}"),
                ] {
                    let form = base64_after(alphabet, before, payload.as_bytes());
                    let shown = scrubbed(&format!("[{form}]"));
                    assert!(shown.contains(REDACTED), "{form} -> {shown}");
                    // What is left of the form is at most the characters that mix in other bytes.
                    let left = shown.len() - REDACTED.len() - 2;
                    assert!(left <= 12, "{form} -> {shown}");
                }
            }
        }
    }

    #[test]
    fn near_misses_are_kept() {
        for text in [
            "abcd1234.Zz",
            "bcd1234.Zz-",
            "abcd1234.Zz+_~/Key",
            "%61%6",
            "abcd1234%2Zz-_~/Ke",
            "&#97bcd1234.Zz",
            "6162636431323334",
            "",
            "%",
            "\\",
            "&",
            "\\u{61",
            "&#;&#x;&amp",
            "%u12",
        ] {
            assert_eq!(scrubbed(text), text);
        }
    }

    #[test]
    fn a_key_that_is_a_prefix_of_another_leaves_nothing_of_either() {
        let short = "Prefix-Key-0123456789";
        let long = "Prefix-Key-0123456789EXTRA-tail-abcdefgh";
        for keys in [[short, long], [long, short]] {
            for text in [long, short] {
                let shown = scrubbed_of(&keys, &format!("echo: {text}!"));
                assert_eq!(shown, "echo: <redacted>!", "{keys:?}");
            }
        }
        // Short keys, under a run's length, too.
        assert_eq!(
            scrubbed_of(&["k1", "k1k2k3"], "[k1k2k3] [k1]"),
            "[<redacted>] [<redacted>]"
        );
        assert_eq!(scrubbed_of(&["k1k2k3", "k1"], "[k1k2k3]"), "[<redacted>]");
    }

    #[test]
    fn characters_beyond_ascii_and_the_bmp() {
        let key = "k€y😀";
        let scrub = |text: &str| scrubbed_of(&[key], text);
        assert_eq!(scrub("[k€y😀]"), "[<redacted>]");
        assert_eq!(scrub("[k\\u20ACy\\ud83d\\ude00]"), "[<redacted>]");
        assert_eq!(scrub("[k\\\\u20acy\\\\ud83d\\\\ude00]"), "[<redacted>]");
        assert_eq!(scrub("[k%E2%82%ACy%F0%9F%98%80]"), "[<redacted>]");
        assert_eq!(scrub("[k%u20ACy%uD83D%uDE00]"), "[<redacted>]");
        assert_eq!(scrub("[k&#8364;y&#x1F600;]"), "[<redacted>]");
        assert_eq!(scrub("[k\\u{20ac}y\\u{1f600}]"), "[<redacted>]");
        assert_eq!(
            scrub("[k\\xe2\\x82\\xacy\\xf0\\x9f\\x98\\x80]"),
            "[<redacted>]"
        );
        // A high surrogate alone, or with the wrong low half, is not the character.
        assert_eq!(scrub("k€y\\ud83d"), "k€y\\ud83d");
        assert_eq!(scrub("k€y\\ud83d\\ude01"), "k€y\\ud83d\\ude01");
        assert_eq!(scrub("k€y\\ud83dx"), "k€y\\ud83dx");
        assert_eq!(scrub("k€y%uD83D%u0041"), "k€y%uD83D%u0041");
        assert_eq!(scrub("k€y\\uDE00"), "k€y\\uDE00");
        // A match inside a multi-byte character replaces the whole character.
        let wide = "ключ-секрет-значение";
        assert_eq!(scrubbed_of(&[wide], &format!("«{wide}»")), "«<redacted>»");
    }

    #[test]
    fn special_characters_of_the_encodings_themselves() {
        let key = "a%b\\c&d e\"f";
        let scrub = |text: &str| scrubbed_of(&[key], text);
        assert_eq!(scrub(key), REDACTED);
        assert_eq!(scrub("a%25b%5Cc%26d+e%22f"), REDACTED);
        assert_eq!(scrub("a%b\\\\c&amp;d e\\\"f"), REDACTED);
        assert_eq!(scrub("a%b\\\\\\\\c&AMP;d e&quot;f"), REDACTED);
        assert_eq!(scrub("a&#37;b&#92;c&#38;d&#32;e&#x22;f"), REDACTED);
        assert_eq!(scrub("a%b\\c&d e&apos;f"), "a%b\\c&d e&apos;f");
        let quoted = "it's <k> & \"q\"\n\t\r\u{8}\u{c}\0/";
        let escaped = "it\\'s &lt;k&gt; &amp; \\\"q\\\"\\n\\t\\r\\b\\f\\0\\/";
        assert_eq!(scrubbed_of(&[quoted], escaped), REDACTED);
        assert_eq!(scrubbed_of(&["it's"], "it&apos;s"), REDACTED);
    }

    #[test]
    fn decoding_maps_each_byte_back_to_where_it_came_from() {
        let layer = Layer::decode(b"ab%41%42 c\\u20ACd").unwrap_or_else(|| panic!("decoded"));
        assert_eq!(layer.text, "abAB c€d".as_bytes());
        // Two `%XX` side by side are one entry.
        assert_eq!(layer.escapes.len(), 2);
        assert_eq!(layer.byte_source(0), (0, 1));
        assert_eq!(layer.byte_source(2), (2, 5));
        assert_eq!(layer.byte_source(3), (5, 8));
        assert_eq!(layer.byte_source(4), (8, 9));
        assert_eq!(layer.byte_source(5), (9, 10));
        for byte in 6..9 {
            assert_eq!(layer.byte_source(byte), (10, 16));
        }
        assert_eq!(layer.byte_source(9), (16, 17));
        assert_eq!(layer.source_span(2, 4), (2, 8));
        assert_eq!(layer.source_span(3, 3), (5, 8));
        assert!(Layer::decode(b"plain text, 100% sure & \\q").is_none());
    }

    #[test]
    fn escapes_decode_to_their_characters() {
        let decoded = |text: &str| {
            Layer::decode(text.as_bytes())
                .map(|layer| String::from_utf8_lossy(&layer.text).into_owned())
        };
        assert_eq!(decoded("%4a%4A%u004A%2B+").as_deref(), Some("JJJ +"));
        assert_eq!(
            decoded("\\u004a\\U004A\\u{4a}\\x4A\\X4a").as_deref(),
            Some("JJJJJ")
        );
        assert_eq!(
            decoded("&#74;&#x4a;&#X4A;&AMP;&lt;&gt;&quot;&apos;").as_deref(),
            Some("JJJ&<>\"'")
        );
        assert_eq!(decoded("&#0000000074;&#x0000004a;").as_deref(), Some("JJ"));
        // Too many digits, no `;`, not a character: left as they are.
        for kept in [
            "&#00000000074;",
            "&#x00000004a;",
            "&#74",
            "&#xD800;",
            "\\u{110000}",
            "\\u{4a",
            "&#99999999999;",
        ] {
            assert_eq!(
                decoded(&format!("{kept}%20")).as_deref(),
                Some(format!("{kept} ").as_str()),
                "{kept}"
            );
        }
        assert_eq!(
            decoded("\\\"\\'\\/\\\\\\n\\r\\t\\b\\f\\0").as_deref(),
            Some("\"'/\\\n\r\t\u{8}\u{c}\0")
        );
    }

    #[test]
    fn spans_merge_overlapping_and_touching_ranges() {
        let mut spans = Spans::default();
        spans.add(2, 4);
        spans.add(3, 6);
        spans.add(1, 7);
        spans.add(9, 10);
        spans.next_search();
        spans.add(0, 1);
        spans.add(10, 11);
        assert_eq!(spans.merged, [(1, 7), (9, 10), (0, 1), (10, 11)]);
        assert_eq!(
            spans.replace_in("0123456789abc").as_deref(),
            Some("<redacted>78<redacted>bc")
        );
        assert_eq!(Spans::default().replace_in("text"), None);
        let mut spans = Spans::default();
        spans.add(3, 5);
        assert_eq!(
            spans.replace_in("0123456789").as_deref(),
            Some("012<redacted>56789")
        );
        let mut spans = Spans::default();
        spans.add(8, 20);
        assert_eq!(
            spans.replace_in("0123456789").as_deref(),
            Some("01234567<redacted>")
        );
    }

    #[test]
    fn the_forms_searched_for() {
        let mut forms = Forms::default();
        key_patterns("0123456789abcdez", &mut forms);
        let has = |form: &str| forms.patterns.contains_key(form.as_bytes());
        assert!(has("0123456789abcdez") && has("0123456789ab") && has("456789abcdez"));
        assert!(!has("0123456789a") && !has("123456789abcd"));
        assert!(has("3031323334353637383961626364657a") && has("3031323334353637383961626364657A"));
        assert!(has("303132333435363738396162") && has("34353637383961626364657a"));
        assert!(has("34353637383961626364657A") && !has("3031323334353637383961626"));
        assert_eq!(base64_middle(&STANDARD_NO_PAD, b"abc", 0), "YWJj");
        assert_eq!(base64_middle(&STANDARD_NO_PAD, b"abcd", 0), "YWJjZ");
        assert_eq!(base64_middle(&STANDARD_NO_PAD, b"abcd", 1), "FiY2");
        assert!(has(&STANDARD_NO_PAD.encode("0123456789abcdez")[..21]));
        assert!(has(
            &URL_SAFE_NO_PAD.encode("0123456789abcdez")[..BASE64_RUN]
        ));
        assert!(has(&STANDARD_NO_PAD.encode("Bearer 0123456789abcdez")[..30]));
        // UTF-16 as a lossy decode leaves it, both byte orders: whole, and each run of 12.
        let wide = |text: &str, zero_first: bool| -> String {
            text.chars()
                .map(|c| {
                    if zero_first {
                        format!("\0{c}")
                    } else {
                        format!("{c}\0")
                    }
                })
                .collect()
        };
        for zero_first in [false, true] {
            assert!(has(&wide("0123456789abcdez", zero_first)));
            assert!(has(&wide("0123456789ab", zero_first)));
            assert!(has(&wide("456789abcdez", zero_first)));
            assert!(!has(&wide("0123456789a", zero_first)));
        }
        assert_eq!(utf16_as_decoded("a€", false), b"a\0\xef\xbf\xbd ");
        assert_eq!(utf16_as_decoded("a€", true), b"\0a \xef\xbf\xbd");
        // A short key: itself, and no form too short to mean anything.
        let mut short = Forms::default();
        key_patterns("k€", &mut short);
        assert!(short.patterns.contains_key("k€".as_bytes()));
        assert!(
            short
                .patterns
                .keys()
                .all(|form| form.len() >= SHORTEST_ENCODED || form == "k€".as_bytes())
        );
        // Each run knows where it ends in the key, to carry a match on from there.
        let run = &forms.patterns[&b"456789abcdez"[..]];
        assert_eq!(run.values().copied().collect::<Vec<_>>(), [16]);
        let run = &forms.patterns[&b"0123456789ab"[..]];
        assert_eq!(
            forms.streams[*run.keys().next().unwrap_or(&0)],
            b"0123456789abcdez"
        );
        assert!(Scrubber::new(&[""]).is_none());
    }

    /// The length rule of the encoded forms, both sides of it: of a short key's UTF-16 (both
    /// byte orders), hex (both cases) and base64 middles (both alphabets, each alignment), each
    /// form is searched for exactly when it is at least [`SHORTEST_ENCODED`] bytes long.
    #[test]
    fn an_encoded_form_is_searched_for_from_the_shortest_length_on() {
        let whole = "Zq9x7Wv";
        let mut lengths = BTreeSet::new();
        for end in 1..=whole.len() {
            let key = &whole[..end];
            let mut forms = Forms::default();
            key_patterns(key, &mut forms);
            let hex: String = key.bytes().map(|b| format!("{b:02x}")).collect();
            let mut encoded = vec![
                utf16_as_decoded(key, false),
                utf16_as_decoded(key, true),
                hex.to_ascii_uppercase().into_bytes(),
                hex.into_bytes(),
            ];
            for alphabet in [&STANDARD_NO_PAD, &URL_SAFE_NO_PAD] {
                for offset in 0..3 {
                    encoded.push(base64_middle(alphabet, key.as_bytes(), offset).into_bytes());
                }
            }
            for form in encoded
                .into_iter()
                .filter(|form| form.as_slice() != key.as_bytes())
            {
                lengths.insert(form.len());
                assert_eq!(
                    forms.patterns.contains_key(&form),
                    form.len() >= SHORTEST_ENCODED,
                    "{key:?}: {:?}",
                    String::from_utf8_lossy(&form)
                );
            }
        }
        // The forms met the rule on both sides of the length.
        assert!(lengths.iter().any(|&length| length < SHORTEST_ENCODED));
        assert!(lengths.contains(&SHORTEST_ENCODED));
    }

    #[test]
    fn registered_keys_are_scrubbed_while_they_live() {
        let secret = "registered-key-Qw8";
        let text = format!("x {secret} y");
        let registration = RegisteredSecret::new(secret);
        let kept = ServerText::new(text.clone());
        assert_eq!(kept, "x <redacted> y");
        assert!(!format!("{kept}{kept:?}").contains(secret));
        // A second key joins the first; dropping it leaves the first in force.
        let other = RegisteredSecret::new("another-secret-Zx");
        assert_eq!(ServerText::new("another-secret-Zx"), REDACTED);
        assert_eq!(ServerText::new(text.clone()), "x <redacted> y");
        drop(other);
        assert_eq!(ServerText::new("another-secret-Zx"), "another-secret-Zx");
        assert_eq!(ServerText::new(text.clone()), "x <redacted> y");
        drop(registration);
        assert_eq!(ServerText::new(text.clone()), text);
        assert!(format!("{:?}", RegisteredSecret::new("")).contains("<redacted>"));
        assert_eq!(ServerText::new(text.clone()), text);
    }

    #[test]
    fn long_runs_of_near_matches_are_kept() {
        // Thousands of near-matches of a long key, each one character short of a run.
        let key: String = ('!'..='~').filter(|c| c.is_ascii_alphanumeric()).collect();
        let near = &key[..RUN_CHARS - 1];
        let text = format!("{near}|").repeat(3000);
        assert!(scrubbed_of(&[&key], &text) == text);
        let percent = format!("{}|", percent_all(near, true)).repeat(1000);
        assert!(scrubbed_of(&[&key], &percent) == percent);
        let whole = format!("{}{key}", percent_all(near, false));
        assert!(scrubbed_of(&[&key], &whole) == format!("{}{REDACTED}", percent_all(near, false)));
        // A space as `+`.
        assert_eq!(
            scrubbed_of(&["a key with spaces in it"], "[a+key+with+spaces+in%20it]"),
            "[<redacted>]"
        );
    }

    /// The property: random keys, forms and text.
    mod property;
}
