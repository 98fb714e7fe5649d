//! Document text as rustdoc: `#[doc]` attributes and code spans made from text a document
//! gives, with control and format characters removed, Markdown that would turn into links or
//! code escaped, and long prose wrapped. Shared by the emitters and the extensions.

use std::borrow::Cow;

use proc_macro2::TokenStream;
use quote::quote;

/// `#[doc]` attributes for document text; see [`doc_lines`].
pub(crate) fn doc_attrs(text: Option<&str>) -> TokenStream {
    let Some(text) = text else {
        return TokenStream::new();
    };
    let lines = doc_lines(text);
    quote!(#(#[doc = #lines])*)
}

/// Document text as rustdoc lines that can only ever be read as text.
///
/// - Control characters go (a bare CR ends a line instead; a bare CR in a doc comment does not
///   compile), and so do bidi controls (`text_direction_codepoint_in_comment` denies them).
/// - Every fenced block, whatever its fence (```` ``` ````, `~~~`, longer runs) and info string
///   (`rust`, `should_panic`, none), opens as `text` with the same fence, so rustdoc closes it
///   exactly where this reading does; an unclosed one is closed at the end.
/// - Outside fences, lines lose their indentation and runs of spaces (no indented code block,
///   not even inside a list item or quote), and fence runs are escaped (no fence inside a list
///   item or quote); see [`escape_prose`] for the rest.
pub(crate) fn doc_lines(text: &str) -> Vec<String> {
    let text = without_controls(text);
    let mut fence: Option<(char, usize)> = None;
    let mut lines: Vec<String> = text
        .trim()
        .lines()
        .map(|line| {
            let line = line.trim();
            let rendered = match fence {
                Some(open) => {
                    if closes_fence(open, line) {
                        fence = None;
                    }
                    line.to_owned()
                }
                None => match fence_run(line) {
                    Some((c, length)) => {
                        fence = Some((c, length));
                        format!("{}text", c.to_string().repeat(length))
                    }
                    None => escape_prose(&single_spaced(line)),
                },
            };
            if rendered.is_empty() {
                String::new()
            } else {
                let mut spaced = String::with_capacity(rendered.len() + 1);
                spaced.push(' ');
                spaced.push_str(&rendered);
                spaced
            }
        })
        .collect();
    if let Some((c, length)) = fence {
        lines.push(format!(" {}", c.to_string().repeat(length)));
    }
    lines
}

/// Document text as a run of prose inside a line of ours (a list item): control characters
/// gone, its lines and runs of spaces joined by one space, Markdown escaped as in
/// [`escape_prose`].
pub(crate) fn inline_prose(text: &str) -> String {
    let text = without_controls(text);
    escape_prose(&text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// A trimmed line's words joined by single spaces: borrowed when they already are.
fn single_spaced(line: &str) -> Cow<'_, str> {
    let mut previous_space = false;
    let single = line.chars().all(|c| {
        let ok = !c.is_whitespace() || (c == ' ' && !previous_space);
        previous_space = c == ' ';
        ok
    });
    if single {
        Cow::Borrowed(line)
    } else {
        Cow::Owned(line.split_whitespace().collect::<Vec<_>>().join(" "))
    }
}

/// A prose line wrapped at spaces to `width`. Headings and table rows stay whole (neither can
/// continue on another line), and no line after the first starts with a character that would
/// open a block there (a heading, quote, list, table, fence or setext underline), so the wrapped
/// text reads exactly as the line did.
pub(crate) fn wrap_prose(line: &str, width: usize) -> Vec<String> {
    if line.chars().count() <= width || line.starts_with('#') || line.starts_with('|') {
        return vec![line.to_owned()];
    }
    // What CommonMark reads at the start of a line: an ATX heading (`#`…), a quote, a list
    // marker (`-`, `+`, `*`, `1.`, `1)`), a thematic break or setext underline (`---`, `===`),
    // a table row, a fence.
    let opens_block = |word: &str| {
        let all = |c: char| !word.is_empty() && word.chars().all(|w| w == c);
        let digits = word.trim_start_matches(|c: char| c.is_ascii_digit());
        all('#')
            || all('-')
            || all('=')
            || all('*')
            || all('_')
            || word == "+"
            || word.starts_with('>')
            || word.starts_with('|')
            || word.starts_with("```")
            || word.starts_with("~~~")
            || (digits.len() < word.len() && matches!(digits, "." | ")"))
    };
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in line.split(' ') {
        let fits = current.chars().count() + 1 + word.chars().count() <= width;
        if !current.is_empty() && !fits && !opens_block(word) {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    lines.push(current);
    lines
}

/// Whether a (trimmed) line closes the fence `open` opened: a run of its character at least as
/// long.
pub(crate) fn closes_fence((c, length): (char, usize), line: &str) -> bool {
    line.len() >= length && line.chars().all(|l| l == c)
}

/// The fence a line opens with: three or more backticks or tildes (the line is trimmed, so
/// this is every line CommonMark could read as an opening fence, and a few more).
pub(crate) fn fence_run(line: &str) -> Option<(char, usize)> {
    let c = line.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let length = line.chars().take_while(|l| *l == c).count();
    (length >= 3).then_some((c, length))
}

/// Text with bare CRs as line breaks and no other control, bidi or line-separator characters;
/// borrowed when there is nothing to change (most documentation).
fn without_controls(text: &str) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| c != '\n' && replaced_control(c).is_some())
    {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.replace("\r\n", "\n")
            .chars()
            .filter_map(|c| match replaced_control(c) {
                Some(replacement) => replacement,
                None => Some(c),
            })
            .collect(),
    )
}

/// What [`without_controls`] writes for `c`: `None` when it keeps `c`, `Some(None)` when it
/// drops it, `Some(Some(other))` when it writes `other` instead.
fn replaced_control(c: char) -> Option<Option<char>> {
    match c {
        '\r' | '\n' => Some(Some('\n')),
        '\t' => Some(Some(' ')),
        c if c.is_control() => Some(None),
        '\u{061c}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}'
        | '\u{2028}'
        | '\u{2029}' => Some(None),
        _ => None,
    }
}

/// `text` as one inline code span, whatever backticks or control characters it holds.
pub(crate) fn code_span(text: &str) -> String {
    let text: String = without_controls(text)
        .chars()
        .map(|c| if c == '\n' { ' ' } else { c })
        .collect();
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    if longest == 0 {
        format!("{fence}{text}{fence}")
    } else {
        // A space each side keeps a backtick at either end from joining the fence.
        format!("{fence} {text} {fence}")
    }
}

/// Outside code spans, `<` and `>` are escaped (rustdoc would read `<deployment_id>` as an HTML
/// tag), so are `[` and `]` (`values[i]` would be a broken intra-doc link), so are backticks
/// that close no code span and runs of three or more tildes (a fence in a list item), and bare
/// URLs are wrapped in `<…>` (rustdoc warns on bare URLs).
fn escape_prose(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if c == '`' {
            let run = rest.len() - rest.trim_start_matches('`').len();
            let after = &rest[run..];
            match closing_run(after, run) {
                // A code span, copied as written: nothing in it is markup.
                Some(end) => {
                    let span = run + end + run;
                    out.push_str(&rest[..span]);
                    rest = &rest[span..];
                }
                None => {
                    out.push_str(&"\\`".repeat(run));
                    rest = after;
                }
            }
            continue;
        }
        if rest.starts_with("~~~") {
            let run = rest.len() - rest.trim_start_matches('~').len();
            out.push_str(&"\\~".repeat(run));
            rest = &rest[run..];
            continue;
        }
        if rest.starts_with("https://") || rest.starts_with("http://") {
            // The URL runs to the next space; trailing punctuation stays outside the brackets.
            let end = rest.find(' ').unwrap_or(rest.len());
            let url = rest[..end].trim_end_matches(['.', ',', ';', ')', '\'', '"']);
            out.push('<');
            out.push_str(&escape_url(url));
            out.push('>');
            rest = &rest[url.len()..];
            continue;
        }
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Where in `text` a run of exactly `length` backticks starts, if any (a code span's end).
fn closing_run(text: &str, length: usize) -> Option<usize> {
    let mut offset = 0;
    let mut rest = text;
    while let Some(start) = rest.find('`') {
        let after = &rest[start..];
        let run = after.len() - after.trim_start_matches('`').len();
        if run == length {
            return Some(offset + start);
        }
        offset += start + run;
        rest = &after[run..];
    }
    None
}

/// An autolink ends at `<`, `>` or a space; those are percent-encoded so the link stays whole.
fn escape_url(url: &str) -> String {
    url.replace('<', "%3C").replace('>', "%3E")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_prose_is_one_escaped_line() {
        assert_eq!(
            inline_prose("  Not\n\n found\t[x](y) `z`\u{202e} "),
            escape_prose("Not found [x](y) `z`")
        );
        assert!(!inline_prose("a\nb\r\nc").contains('\n'));
        assert_eq!(inline_prose("plain words"), "plain words");
    }

    #[test]
    fn doc_text_loses_controls_and_extra_spaces_and_is_copied_only_then() {
        assert_eq!(
            doc_lines("a\r\nb\rc\td\u{202e}e\u{7}f  g\u{a0}h"),
            [" a", " b", " c def g h"]
        );
        assert_eq!(without_controls("a\r\nb\rc"), "a\nb\nc");
        assert_eq!(without_controls("x\u{2028}y\u{61c}z\u{2067}"), "xyz");
        // Nothing to change: the text itself, not a copy.
        assert!(matches!(
            without_controls("plain\nlines"),
            Cow::Borrowed("plain\nlines")
        ));
        for changed in ["a\tb", "a\rb", "a\u{0}b", "a\u{200f}b"] {
            assert!(
                matches!(without_controls(changed), Cow::Owned(_)),
                "{changed:?}"
            );
        }
        assert!(matches!(single_spaced("one two"), Cow::Borrowed("one two")));
        assert!(matches!(single_spaced(""), Cow::Borrowed("")));
        for (spaced, single) in [("a  b", "a b"), ("a\u{a0}b", "a b"), ("a \u{3000}b", "a b")] {
            assert_eq!(single_spaced(spaced), single);
            assert!(matches!(single_spaced(spaced), Cow::Owned(_)), "{spaced:?}");
        }
        assert_eq!(replaced_control('\r'), Some(Some('\n')));
        assert_eq!(replaced_control('\n'), Some(Some('\n')));
        assert_eq!(replaced_control('\t'), Some(Some(' ')));
        assert_eq!(replaced_control('\u{7f}'), Some(None));
        assert_eq!(replaced_control('\u{2029}'), Some(None));
        assert_eq!(replaced_control('x'), None);
        assert_eq!(replaced_control('\u{a0}'), None);
    }
}
