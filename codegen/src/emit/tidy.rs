//! The last pass over each formatted file, for the reader: what prettyplease does not do.
//!
//! - A blank line between items (and between the members of an `impl`).
//! - Doc prose wrapped at [`WIDTH`] columns (code blocks stay as they are).
//! - No empty `///` line opening or closing a doc comment.
//! - `use std::collections::BTreeMap;` once, where maps are used, instead of full paths.
//! - The runtime's macro invocations (open enums, struct `Deserialize`) with one variant or
//!   field per line (prettyplease fills lines).
//! - A feature gate too long for one line filled to [`WIDTH`] columns: prettyplease gives each
//!   `feature = "…"` a line of its own, and a large document's gates list up to 8 areas on
//!   thousands of items (a tenth of a 1,263-operation crate's lines).
//!
//! Only whitespace between lines changes, and lines are only added or removed whole, so the
//! code means what it meant. Emitted code holds no multi-line string literal for this to touch.

use std::borrow::Cow;

/// Doc comment lines are wrapped to this many columns, indentation and `/// ` included.
const WIDTH: usize = 100;

/// The file's text, tidied.
pub(super) fn tidy(text: &str) -> String {
    join(vec![tidy_piece(text)])
}

/// A piece of a file tidied on its own, to be [`join`]ed in order with the file's other pieces.
pub(super) struct Tidied {
    /// The piece's lines, each ending in `\n`.
    text: String,
    /// Whether a line outside a comment names `BTreeMap<` (see [`with_map_import`]).
    uses_map: bool,
}

/// Every pass but the map import, on one piece of a file: a formatting thread's share of
/// [`tidy`]. Each pass looks no further than the item a line belongs to, and a piece holds whole
/// items, so tidying the pieces and [`join`]ing them gives what tidying the whole file gives (a
/// test checks).
pub(super) fn tidy_piece(text: &str) -> Tidied {
    let lines: Vec<&str> = text.lines().collect();
    let lines = without_empty_doc_edges(&lines);
    let wrapped = with_docs_wrapped(&lines);
    let lines: Vec<&str> = wrapped.iter().map(|line| &**line).collect();
    let lines = with_enum_lists_one_per_line(&lines);
    let lines: Vec<&str> = lines.iter().map(|line| &**line).collect();
    let lines = with_gates_packed(&lines);
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut previous: Option<&str> = None;
    let mut uses_map = false;
    for line in &lines {
        if let Some(previous) = previous
            && needs_blank_line(previous, line)
        {
            out.push('\n');
        }
        out.push_str(line);
        out.push('\n');
        uses_map |= names_map(line);
        previous = Some(line);
    }
    Tidied {
        text: out,
        uses_map,
    }
}

/// The pieces of one file in order, with the blank line [`needs_blank_line`] asks for where one
/// piece ends and the next starts, and the map import when any piece uses a map.
pub(super) fn join(pieces: Vec<Tidied>) -> String {
    // Room for the pieces, a blank line between each two and the import: one allocation.
    let length = pieces
        .iter()
        .map(|piece| piece.text.len() + 1)
        .sum::<usize>();
    let mut out = String::with_capacity(length + 40);
    let mut uses_map = false;
    for piece in pieces {
        let last = out.lines().next_back();
        if let (Some(previous), Some(first)) = (last, piece.text.lines().next())
            && needs_blank_line(previous, first)
        {
            out.push('\n');
        }
        out.push_str(&piece.text);
        uses_map |= piece.uses_map;
    }
    if uses_map {
        with_map_import(&mut out);
    }
    out
}

/// Long `///` prose lines wrapped (see [`super::wrap_prose`]); lines inside a fenced block,
/// which the doc emitter has made `text`, are never touched.
fn with_docs_wrapped<'a>(lines: &[&'a str]) -> Vec<Cow<'a, str>> {
    let mut out = Vec::with_capacity(lines.len());
    let mut fence: Option<(char, usize)> = None;
    for line in lines {
        let Some(text) = line.trim_start().strip_prefix("///") else {
            fence = None;
            out.push(Cow::Borrowed(*line));
            continue;
        };
        let prose = text.trim_start();
        match fence {
            Some(open) => {
                if super::closes_fence(open, prose) {
                    fence = None;
                }
                out.push(Cow::Borrowed(*line));
            }
            None => {
                if let Some(run) = super::fence_run(prose) {
                    fence = Some(run);
                    out.push(Cow::Borrowed(*line));
                    continue;
                }
                if line.chars().count() <= WIDTH || prose.is_empty() {
                    out.push(Cow::Borrowed(*line));
                    continue;
                }
                let prefix = format!("{}/// ", " ".repeat(indent(line)));
                let width = WIDTH.saturating_sub(prefix.len()).max(40);
                for part in super::wrap_prose(prose, width) {
                    out.push(Cow::Owned(format!("{prefix}{part}")));
                }
            }
        }
    }
    out
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Whether `line` ends an item (or an item member) when it stands at its item's indentation.
fn ends_item(line: &str) -> bool {
    let trimmed = line.trim();
    matches!(trimmed, "}" | "};" | ");")
        || (trimmed.starts_with("rt::") && trimmed.ends_with(");"))
        || (trimmed.ends_with(';')
            && ["pub ", "type ", "const ", "use ", "mod ", "static "]
                .iter()
                .any(|start| trimmed.starts_with(start)))
}

/// Whether `line` starts an item: its docs, attributes or the item itself.
fn starts_item(line: &str) -> bool {
    let trimmed = line.trim_start();
    [
        "///",
        "#[",
        "pub ",
        "pub(",
        "fn ",
        "async fn ",
        "impl",
        "const ",
        "type ",
        "struct ",
        "enum ",
        "mod ",
        "use ",
        "rt::",
        "trait ",
        "static ",
    ]
    .iter()
    .any(|start| trimmed.starts_with(start))
}

fn is_use(line: &str) -> bool {
    let trimmed = line.trim_start();
    trimmed.starts_with("use ") || trimmed.starts_with("pub use ")
}

fn needs_blank_line(previous: &str, line: &str) -> bool {
    if previous.trim().is_empty() || line.trim().is_empty() {
        return false;
    }
    // Module docs, then the rest.
    if previous.starts_with("//!") {
        return !line.starts_with("//!");
    }
    if indent(previous) != indent(line) || !starts_item(line) || !ends_item(previous) {
        return false;
    }
    !(is_use(previous) && is_use(line))
}

fn is_doc(line: &str) -> bool {
    line.trim_start().starts_with("///")
}

fn is_empty_doc(line: &str) -> bool {
    line.trim() == "///"
}

/// Drops empty `///` lines that open or close a doc comment (they render as nothing but make
/// the comment look broken).
fn without_empty_doc_edges<'a>(lines: &[&'a str]) -> Vec<&'a str> {
    let mut kept: Vec<&'a str> = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        if is_empty_doc(line) {
            let opens = kept.last().is_none_or(|previous| !is_doc(previous));
            // Closing: no later doc line with text before the comment ends.
            let closes = !lines[i + 1..]
                .iter()
                .take_while(|next| is_doc(next))
                .any(|next| !is_empty_doc(next));
            if opens || closes {
                continue;
            }
        }
        kept.push(line);
    }
    kept
}

/// Fills each gate prettyplease broke into one line per feature,
///
/// ```text
/// #[cfg(
///     any(
///         feature = "a",
///         feature = "b"
///     )
/// )]
/// ```
///
/// to [`WIDTH`] columns: `#[cfg(any(feature = "a", feature = "b"))]`, continued 4 columns in.
/// Only that shape is rewritten, token for token.
fn with_gates_packed<'a>(lines: &[&'a str]) -> Vec<Cow<'a, str>> {
    let mut out = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        match packed_gate(&lines[i..]) {
            Some((packed, taken)) => {
                out.extend(packed.into_iter().map(Cow::Owned));
                i += taken;
            }
            None => {
                out.push(Cow::Borrowed(lines[i]));
                i += 1;
            }
        }
    }
    out
}

/// The gate `lines` open with, filled, and how many lines it took; `None` when they do not
/// open with a gate in prettyplease's broken shape.
fn packed_gate(lines: &[&str]) -> Option<(Vec<String>, usize)> {
    let first = lines.first()?;
    let indent = &first[..indent(first)];
    if first.get(indent.len()..)? != "#[cfg(" {
        return None;
    }
    let operator = lines
        .get(1)?
        .strip_prefix(indent)?
        .strip_prefix("    ")?
        .strip_suffix('(')?;
    if !matches!(operator, "any" | "all") {
        return None;
    }
    let mut features = Vec::new();
    let mut at = 2;
    loop {
        let line = lines
            .get(at)?
            .strip_prefix(indent)?
            .strip_prefix("        ")?;
        at += 1;
        let (feature, last) = match line.strip_suffix(',') {
            Some(feature) => (feature, false),
            None => (line, true),
        };
        let name = feature.strip_prefix("feature = \"")?.strip_suffix('"')?;
        if name.contains(['"', '\\']) {
            return None;
        }
        features.push(feature);
        if last {
            break;
        }
    }
    let closes = ["    )", ")]"]
        .iter()
        .enumerate()
        .all(|(k, close)| lines.get(at + k).and_then(|l| l.strip_prefix(indent)) == Some(*close));
    if !closes {
        return None;
    }
    let mut packed = Vec::new();
    let mut line = format!("{indent}#[cfg({operator}(");
    let mut line_is_empty = true;
    for (k, feature) in features.iter().enumerate() {
        let end = if k + 1 == features.len() { "))]" } else { "," };
        if !line_is_empty && line.len() + 1 + feature.len() + end.len() > WIDTH {
            packed.push(std::mem::replace(&mut line, format!("{indent}    ")));
            line_is_empty = true;
        }
        if !line_is_empty {
            line.push(' ');
        }
        line.push_str(feature);
        line.push_str(end);
        line_is_empty = false;
    }
    packed.push(line);
    Some((packed, at + 2))
}

/// Rewrites each `rt::…_impls!(Name, Fallback, [A = "a", B = "b"]);` and
/// `rt::struct_deserialize!(Name, [a = required("a")]);` invocation (however prettyplease broke
/// its lines) with one variant or field per line. An invocation that does not parse that way is
/// left as it is.
fn with_enum_lists_one_per_line<'a>(lines: &[&'a str]) -> Vec<Cow<'a, str>> {
    let mut out = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let opens = line.starts_with("rt::") && line.contains("!(");
        if opens && let Some(end) = lines[i..].iter().position(|l| l.trim_end().ends_with(");")) {
            let joined = lines[i..=i + end].join(" ");
            if let Some(rewritten) = one_per_line(&joined) {
                out.extend(rewritten.into_iter().map(Cow::Owned));
                i += end + 1;
                continue;
            }
        }
        out.push(Cow::Borrowed(line));
        i += 1;
    }
    out
}

fn one_per_line(invocation: &str) -> Option<Vec<String>> {
    let call = invocation.trim().strip_suffix(';')?;
    let mac: syn::Macro = syn::parse_str(call).ok()?;
    let path = quote::ToTokens::to_token_stream(&mac.path)
        .to_string()
        .replace(' ', "");
    let tokens: Vec<proc_macro2::TokenTree> = mac.tokens.into_iter().collect();
    // `Name , Fallback , [ … ]` or `Name , [ … ]`
    let (head, list) = match &tokens[..] {
        [head @ .., proc_macro2::TokenTree::Group(list)] => (head, list),
        _ => return None,
    };
    if let [name, comma1, fallback, comma2, chunks, of, size] = head
        && is_punct(comma1, ',')
        && is_punct(comma2, ',')
        && chunks.to_string() == "chunks"
        && of.to_string() == "of"
    {
        return chunks_per_line(&path, [name, fallback], size, list);
    }
    let names: Vec<String> = match head {
        [name, comma] if is_punct(comma, ',') => vec![name.to_string()],
        [name, comma1, fallback, comma2] if is_punct(comma1, ',') && is_punct(comma2, ',') => {
            vec![name.to_string(), fallback.to_string()]
        }
        _ => return None,
    };
    let mut entries = Vec::new();
    let inner: Vec<proc_macro2::TokenTree> = list.stream().into_iter().collect();
    // Split at the commas outside a type's `<…>` (a map type holds one).
    let mut depth = 0_usize;
    let split = inner.split(|t| {
        match t {
            proc_macro2::TokenTree::Punct(p) if p.as_char() == '<' => depth += 1,
            proc_macro2::TokenTree::Punct(p) if p.as_char() == '>' => {
                depth = depth.saturating_sub(1);
            }
            proc_macro2::TokenTree::Punct(p) if p.as_char() == ',' => return depth == 0,
            _ => {}
        }
        false
    });
    for entry in split {
        match entry {
            [] => {}
            [variant, equals, value] if is_punct(equals, '=') => {
                entries.push(format!("        {variant} = {value},"));
            }
            // A negative integer is two tokens.
            [variant, equals, minus, value] if is_punct(equals, '=') && is_punct(minus, '-') => {
                entries.push(format!("        {variant} = -{value},"));
            }
            // A test builder's setter: `field: into Type = "wire"` (or `value`), the type
            // written as rustfmt would, without spaces inside it.
            [setter, colon, how, ty @ .., equals, wire]
                if is_punct(colon, ':') && is_punct(equals, '=') && !ty.is_empty() =>
            {
                let ty: Vec<String> = ty.iter().map(ToString::to_string).collect();
                entries.push(format!(
                    "        {setter}: {how} {} = {wire},",
                    compact_type(&ty.join(" "))
                ));
            }
            // A struct's field: `field = presence("wire")`.
            [field, equals, presence, proc_macro2::TokenTree::Group(wire)]
                if is_punct(equals, '=') =>
            {
                entries.push(format!("        {field} = {presence}{wire},"));
            }
            _ => return None,
        }
    }
    let mut out = vec![format!("{path}!(")];
    out.extend(names.iter().map(|name| format!("    {name},")));
    if entries.is_empty() {
        out.push("    []".to_owned());
    } else {
        out.push("    [".to_owned());
        out.extend(entries);
        out.push("    ]".to_owned());
    }
    out.push(");".to_owned());
    Some(out)
}

/// The large form of `rt::open_enum_impls!(Name, Fallback, chunks of N [0 => [0 => A = "a",
/// …], …])`: one chunk and one variant per line.
fn chunks_per_line(
    path: &str,
    names: [&proc_macro2::TokenTree; 2],
    size: &proc_macro2::TokenTree,
    list: &proc_macro2::Group,
) -> Option<Vec<String>> {
    let mut out = vec![format!("{path}!(")];
    out.extend(names.iter().map(|name| format!("    {name},")));
    out.push(format!("    chunks of {size} ["));
    let chunks: Vec<proc_macro2::TokenTree> = list.stream().into_iter().collect();
    for chunk in chunks.split(|t| is_punct(t, ',')) {
        match chunk {
            [] => {}
            [
                number,
                equals,
                greater,
                proc_macro2::TokenTree::Group(variants),
            ] if is_punct(equals, '=') && is_punct(greater, '>') => {
                out.push(format!("        {number} => ["));
                let variants: Vec<proc_macro2::TokenTree> = variants.stream().into_iter().collect();
                for variant in variants.split(|t| is_punct(t, ',')) {
                    match variant {
                        [] => {}
                        [index, equals, greater, variant, equals2, wire]
                            if is_punct(equals, '=')
                                && is_punct(greater, '>')
                                && is_punct(equals2, '=') =>
                        {
                            out.push(format!("            {index} => {variant} = {wire},"));
                        }
                        _ => return None,
                    }
                }
                out.push("        ],".to_owned());
            }
            _ => return None,
        }
    }
    out.push("    ]".to_owned());
    out.push(");".to_owned());
    Some(out)
}

/// Whether `tree` is the punctuation `c` (what comparing its text with `c` would say, without
/// the text).
fn is_punct(tree: &proc_macro2::TokenTree, c: char) -> bool {
    matches!(tree, proc_macro2::TokenTree::Punct(p) if p.as_char() == c)
}

/// A type's tokens as `quote` spaces them (`Vec < BTreeMap < String , :: x :: Y > >`) as Rust
/// writes it (`Vec<BTreeMap<String, ::x::Y>>`): only whitespace goes.
fn compact_type(spaced: &str) -> String {
    let mut out = String::with_capacity(spaced.len());
    // `::` arrives as two `:` tokens.
    let spaced = spaced.replace(": :", "::");
    let tokens: Vec<&str> = spaced.split_whitespace().collect();
    for (i, token) in tokens.iter().enumerate() {
        let previous = i.checked_sub(1).map(|p| tokens[p]);
        let glued = previous.is_none()
            || matches!(*token, "<" | ">" | ",")
            || (*token == "::" && previous != Some(","))
            || matches!(previous, Some("<" | "::"));
        if !glued {
            out.push(' ');
        }
        out.push_str(token);
    }
    out
}

fn names_map(line: &str) -> bool {
    !line.trim_start().starts_with("//") && line.contains("BTreeMap<")
}

/// Maps are written `BTreeMap<…>`; a file using one imports it once, after its other `use`s
/// (after the header comments and module docs when it has none).
fn with_map_import(text: &mut String) {
    const IMPORT: &str = "use std::collections::BTreeMap;\n";
    // Each line with the byte offset it starts at; `text` is whole lines, each ending in `\n`.
    let mut lines = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        lines.push((start, line.trim_end_matches('\n')));
        start += line.len();
    }
    let at = match lines.iter().rposition(|(_, line)| line.starts_with("use ")) {
        Some(last_use) => last_use + 1,
        None => lines
            .iter()
            .position(|(_, line)| !line.starts_with("//") && !line.trim().is_empty())
            .unwrap_or(lines.len()),
    };
    match lines.get(at) {
        Some(&(offset, line)) => {
            let gap = !line.starts_with("use ") && !line.trim().is_empty();
            let import = if gap {
                format!("{IMPORT}\n")
            } else {
                IMPORT.to_owned()
            };
            text.insert_str(offset, &import);
        }
        None => text.push_str(IMPORT),
    }
}

#[cfg(test)]
mod tests {
    use super::{compact_type, tidy};

    fn check(input: &str, expected: &str) {
        assert_eq!(tidy(input), expected, "\n{}", tidy(input));
    }

    #[test]
    fn items_get_a_blank_line_between_them_but_uses_and_statements_do_not() {
        check(
            "//! Docs.\nuse a::B;\nuse c::D;\n/// A.\npub struct A {\n    pub x: i64,\n}\nimpl A {\n    pub fn f(&self) {\n        if true {\n            g();\n        }\n        h();\n    }\n    pub fn g() {}\n}\npub type T = A;\npub type U = A;\n",
            "//! Docs.\n\nuse a::B;\nuse c::D;\n\n/// A.\npub struct A {\n    pub x: i64,\n}\n\nimpl A {\n    pub fn f(&self) {\n        if true {\n            g();\n        }\n        h();\n    }\n\n    pub fn g() {}\n}\n\npub type T = A;\n\npub type U = A;\n",
        );
    }

    #[test]
    fn long_doc_prose_wraps_but_code_blocks_and_block_openers_do_not() {
        let long = "word ".repeat(30);
        let long = long.trim_end();
        let input = format!(
            "    /// {long} - not a list\n    /// ```text\n    /// {long}\n    /// ```\n    pub x: i64,\n"
        );
        let output = tidy(&input);
        let lines: Vec<&str> = output.lines().collect();
        assert!(
            lines
                .iter()
                .all(|line| line.starts_with("    ///") || line.contains("pub x"))
        );
        // Prose wrapped within 100 columns, the code line kept whole.
        assert!(lines[0].len() <= 100 && lines[1].len() > 60, "{output}");
        assert!(
            lines.contains(&format!("    /// {long}").as_str()),
            "{output}"
        );
        // No continuation starts with `-` (a list item there).
        assert!(
            lines.iter().all(|line| !line.starts_with("    /// -")),
            "{output}"
        );
    }

    #[test]
    fn prose_after_a_closed_fence_wraps_again_and_short_lines_are_kept_as_written() {
        let long = "word ".repeat(30);
        let long = long.trim_end();
        let input =
            format!("/// ```text\n/// {long}\n/// ```\n/// {long}\n///   short\npub x: i64,\n");
        let output = tidy(&input);
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(
            lines[..3],
            input.lines().take(3).collect::<Vec<_>>()[..],
            "{output}"
        );
        assert!(
            lines[3].len() <= 100 && lines[4].starts_with("/// word"),
            "{output}"
        );
        assert!(lines.contains(&"///   short"), "{output}");
    }

    #[test]
    fn statements_and_lines_at_other_depths_get_no_blank_line() {
        for text in [
            "    fn f() {\n        rt::f(a)?;\n        rt::g();\n    }\n",
            "    }\npub fn g() {}\n",
            "/// A.\n///\n/// B.\npub enum E {}\n",
        ] {
            check(text, text);
        }
    }

    #[test]
    fn enum_lists_are_rewritten_only_in_the_runtimes_shape() {
        check(
            "rt::x_impls!(E, Unknown, [A = \"a\",]);\n",
            "rt::x_impls!(\n    E,\n    Unknown,\n    [\n        A = \"a\",\n    ]\n);\n",
        );
        for text in [
            "foo::x_impls!(E, Unknown, [A = \"a\"]);\n",
            "rt::x_impls!(E; Unknown, [A = \"a\"]);\n",
            "rt::x_impls!(E, Unknown, [A: \"a\"]);\n",
            "rt::x_impls!(E, Unknown, [A = + 1]);\n",
            "rt::x_impls!(E, Unknown, [A: - 1]);\n",
        ] {
            check(text, text);
        }
    }

    #[test]
    fn empty_doc_lines_at_either_end_of_a_comment_go() {
        check(
            "///\n/// Open.\n///\n/// More.\n///\npub enum E {}\n",
            "/// Open.\n///\n/// More.\npub enum E {}\n",
        );
    }

    #[test]
    fn broken_gates_are_filled_to_the_width_token_for_token() {
        let broken = |indent: &str, operator: &str, features: &[String]| {
            let mut text = format!("{indent}#[cfg(\n{indent}    {operator}(\n");
            for (k, feature) in features.iter().enumerate() {
                let comma = if k + 1 == features.len() { "" } else { "," };
                text.push_str(&format!("{indent}        feature = \"{feature}\"{comma}\n"));
            }
            text.push_str(&format!(
                "{indent}    )\n{indent})]\n{indent}pub struct A;\n"
            ));
            text
        };
        let short: Vec<String> = ["a", "b", "c"].map(str::to_owned).to_vec();
        check(
            &broken("", "any", &short),
            "#[cfg(any(feature = \"a\", feature = \"b\", feature = \"c\"))]\npub struct A;\n",
        );
        for indent in ["", "    "] {
            for count in 1..12 {
                let long: Vec<String> = (0..count)
                    .map(|k| format!("area{k}{}", "x".repeat(k * 7 % 40)))
                    .collect();
                let input = broken(indent, "all", &long);
                let output = tidy(&input);
                let tokens = |text: &str| {
                    text.parse::<proc_macro2::TokenStream>()
                        .map(|tokens| tokens.to_string())
                        .unwrap_or_else(|error| panic!("{error}"))
                };
                assert_eq!(tokens(&output), tokens(&input), "{output}");
                let lines: Vec<&str> = output.lines().collect();
                assert!(
                    lines[0].starts_with(&format!("{indent}#[cfg(all(feature")),
                    "{output}"
                );
                assert!(lines.iter().all(|line| line.len() <= 100), "{output}");
                assert!(
                    lines[1..lines.len() - 1]
                        .iter()
                        .all(|line| line.starts_with(&format!("{indent}    feature")))
                );
                // Filled: no line's first feature would have fit on the line before.
                for pair in lines[..lines.len() - 1].windows(2) {
                    let next = pair[1].trim_start().split(", ").next().unwrap_or_default();
                    assert!(pair[0].len() + 1 + next.len() > 100, "{output}");
                }
                assert!(lines.len() < long.len() + 5, "{output}");
            }
        }
        // A gate of exactly the width stays on one line.
        let exact = ["a".repeat(30), "b".repeat(31)];
        let output = tidy(&broken("", "any", &exact));
        assert_eq!(output.lines().next().map(str::len), Some(100), "{output}");
        assert_eq!(output.lines().count(), 2, "{output}");
        // Another shape stays as prettyplease wrote it.
        for input in [
            broken("", "not", &short),
            "#[cfg(\n    any(\n        feature = \"a\",\n        test\n    )\n)]\npub struct A;\n"
                .to_owned(),
            "#[cfg(\n    any(\n        feature = \"a\"\n    )\n)] // x\npub struct A;\n".to_owned(),
        ] {
            check(&input, &input);
        }
    }

    #[test]
    fn enum_lists_get_one_variant_per_line() {
        check(
            "rt::open_enum_impls!(\n    E, Unknown, [A = \"a\", B =\n    \"b, c\"]\n);\n",
            "rt::open_enum_impls!(\n    E,\n    Unknown,\n    [\n        A = \"a\",\n        B = \"b, c\",\n    ]\n);\n",
        );
        check(
            "rt::open_int_enum_impls!(C, Unknown, [V2 = 2, VMinus1 = - 1]);\npub type T = C;\n",
            "rt::open_int_enum_impls!(\n    C,\n    Unknown,\n    [\n        V2 = 2,\n        VMinus1 = -1,\n    ]\n);\n\npub type T = C;\n",
        );
        // Not the expected shape: left alone.
        check("rt::other_impls!(E);\n", "rt::other_impls!(E);\n");
        check(
            "rt::other_impls!(E, F, G, [A = \"a\"]);\n",
            "rt::other_impls!(E, F, G, [A = \"a\"]);\n",
        );
        check(
            "rt::other_impls!(E; [A = \"a\"]);\n",
            "rt::other_impls!(E; [A = \"a\"]);\n",
        );
        check(
            "rt::other_impls!(E, F; [A = \"a\"]);\n",
            "rt::other_impls!(E, F; [A = \"a\"]);\n",
        );
        check("rt::other_impls!(E, F);\n", "rt::other_impls!(E, F);\n");
        check(
            "rt::other_impls!(E, [a + required(\"a\")]);\n",
            "rt::other_impls!(E, [a + required(\"a\")]);\n",
        );
    }

    #[test]
    fn chunked_enum_lists_get_one_chunk_and_one_variant_per_line() {
        check(
            "rt::open_enum_impls!(\n    E, Unknown, chunks of 2[0 => [0 => A = \"a\", 1 =>\n    B = \"b, c\"], 1 => [2 => C = \"c\"]]\n);\n",
            "rt::open_enum_impls!(\n    E,\n    Unknown,\n    chunks of 2 [\n        0 => [\n            0 => A = \"a\",\n            1 => B = \"b, c\",\n        ],\n        1 => [\n            2 => C = \"c\",\n        ],\n    ]\n);\n",
        );
        let text = "rt::open_enum_impls!(E, Unknown, chunks of 2 [0 => [A = \"a\"]]);\n";
        check(text, text);
    }

    #[test]
    fn struct_field_lists_get_one_field_per_line() {
        check(
            "rt::struct_deserialize!(\n    S, [a = required(\"a\"), type_ = optional(\"ty, pe\")]\n);\n",
            "rt::struct_deserialize!(\n    S,\n    [\n        a = required(\"a\"),\n        type_ = optional(\"ty, pe\"),\n    ]\n);\n",
        );
        check(
            "rt::struct_deserialize!(S, []);\n",
            "rt::struct_deserialize!(\n    S,\n    []\n);\n",
        );
    }

    #[test]
    fn builder_setter_lists_get_one_setter_per_line_with_compact_types() {
        check(
            "rt::mock_setters!(\n    S, [a: into Vec < BTreeMap < String, :: serde_json :: Value > > = \"a\", n: value\n    u64 = \"n\"]\n);\n",
            "use std::collections::BTreeMap;\n\nrt::mock_setters!(\n    S,\n    [\n        a: into Vec<BTreeMap<String, ::serde_json::Value>> = \"a\",\n        n: value u64 = \"n\",\n    ]\n);\n",
        );
        assert_eq!(
            compact_type("rt :: jiff :: Timestamp"),
            "rt::jiff::Timestamp"
        );
        assert_eq!(compact_type("Option < Box < X > >"), "Option<Box<X>>");
    }

    #[test]
    fn a_file_using_maps_imports_btreemap_once() {
        check(
            "//! Docs.\nuse serde::Serialize;\npub type M = BTreeMap<String, i64>;\n",
            "//! Docs.\n\nuse serde::Serialize;\nuse std::collections::BTreeMap;\n\npub type M = BTreeMap<String, i64>;\n",
        );
        check(
            "//! Docs.\n\npub type M = BTreeMap<String, i64>;\n",
            "//! Docs.\n\nuse std::collections::BTreeMap;\n\npub type M = BTreeMap<String, i64>;\n",
        );
        check(
            "/// Not a use of BTreeMap<String, i64>.\npub type M = i64;\n",
            "/// Not a use of BTreeMap<String, i64>.\npub type M = i64;\n",
        );
    }
}
