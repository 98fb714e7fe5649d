//! Rust names from wire names: stable, readable, collision-free.
//!
//! Method names come from method + path because Baseten publishes no `operationId`s: the HTTP
//! method is the verb and the path's words are the noun (`GET /v1/models/{model_id}` →
//! `get_model`, `GET /v1/models` → `get_models`). They depend on nothing but the operation's own
//! method and path, so they do not change when other operations come and go.

use std::collections::{BTreeMap, BTreeSet};

mod ascii_case;

pub(crate) use ascii_case::{to_snake_case, to_upper_camel_case};

/// Strict, reserved and edition-dependent keywords: none can be a plain identifier.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "union", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// A snake_case identifier (field, parameter, method) for a wire name.
///
/// See [`rust_ident`]; keywords get a trailing `_` (`type` → `type_`, also `self`, which cannot
/// be a raw identifier); a leading digit gets a leading `_` (`2fa` → `_2fa`).
pub(crate) fn snake_ident(wire: &str) -> String {
    let mut name = to_snake_case(&ascii_words(wire));
    if name.is_empty() {
        name = "value".to_owned();
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    rust_ident(name)
}

/// An UpperCamelCase name for a type or variant; a leading digit gets `prefix` (`2xx` → `V2xx`).
pub(crate) fn camel_ident(wire: &str, prefix: &str) -> String {
    let mut name = to_upper_camel_case(&ascii_words(wire));
    if name.is_empty() {
        name = "Empty".to_owned();
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert_str(0, prefix);
    }
    rust_ident(name)
}

/// Every character outside ASCII (but spaces) as a word of its own spelling its code point
/// (`a²` → `a u00b2`), so that any document name gives an ASCII identifier: no character that
/// Rust refuses in identifiers (`½`, `²`), no lint on confusable or uncommon code points, and
/// no two spellings of one name that Rust's NFC normalisation would merge.
fn ascii_words(wire: &str) -> String {
    let wire = plural_acronyms(wire);
    let mut out = String::with_capacity(wire.len());
    for c in wire.chars() {
        if c.is_ascii() {
            out.push(c);
        } else if c.is_whitespace() {
            out.push(' ');
        } else {
            out.push_str(&format!(" u{:04x} ", u32::from(c)));
        }
    }
    out
}

/// A plural acronym as one word: `ModelAPIsResponse` → `ModelApisResponse`, `IDs` → `Ids`.
/// (Word splitting would otherwise cut `APIs` into `AP` + `Is`.) An acronym is a run of two or
/// more capitals; its plural `s` is followed by a capital, a digit, a separator or the end.
fn plural_acronyms(wire: &str) -> String {
    let bytes = wire.as_bytes();
    let mut out = String::with_capacity(wire.len());
    let mut i = 0;
    while i < bytes.len() {
        let run = bytes[i..]
            .iter()
            .take_while(|b| b.is_ascii_uppercase())
            .count();
        let plural = run >= 2
            && bytes.get(i + run) == Some(&b's')
            && bytes
                .get(i + run + 1)
                .is_none_or(|next| !next.is_ascii_lowercase());
        if plural {
            out.push(char::from(bytes[i]));
            out.push_str(&wire[i + 1..i + run].to_ascii_lowercase());
            out.push('s');
            i += run + 1;
        } else if run > 0 {
            out.push_str(&wire[i..i + run]);
            i += run;
        } else {
            // One character (of any width) at a time outside capitals.
            let c = wire[i..].chars().next().unwrap_or_default();
            out.push(c);
            i += c.len_utf8().max(1);
        }
    }
    out
}

/// The one gate every emitted name passes: a valid, non-keyword Rust identifier from any text.
/// Characters outside `[A-Za-z0-9_]` become `_`, a leading digit gets a `_`, a keyword gets a
/// trailing `_`, and nothing at all becomes `_value`.
pub(crate) fn rust_ident(name: impl Into<String>) -> String {
    let mut name: String = name
        .into()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if name.is_empty() || name == "_" {
        name = "_value".to_owned();
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    if KEYWORDS.contains(&name.as_str()) {
        name.push('_');
    }
    name
}

/// Whether [`rust_ident`] gives `name` back as it is (most names the emitters pass: the IR's
/// names are identifiers already), so the emitters can skip its copy.
pub(crate) fn is_rust_ident(name: &str) -> bool {
    !name.is_empty()
        && name != "_"
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && !KEYWORDS.contains(&name)
}

/// Whether `name` can be used as written for a method or field.
pub(crate) fn is_valid_snake_ident(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && !KEYWORDS.contains(&name)
}

/// Hands out names unique within one namespace, suffixing `2`, `3`, … on collision.
#[derive(Debug, Default)]
pub(crate) struct Namespace {
    taken: BTreeSet<String>,
    /// The next suffix to try per wanted name, so that many names wanting the same one cost
    /// one step each, not one per earlier taker.
    next_suffix: BTreeMap<String, usize>,
}

impl Namespace {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    pub(crate) fn with_reserved<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        Namespace {
            taken: names.into_iter().map(str::to_owned).collect(),
            next_suffix: BTreeMap::new(),
        }
    }

    pub(crate) fn claim(&mut self, wanted: &str, separator: &str) -> String {
        let mut name = wanted.to_owned();
        let mut n = self.next_suffix.get(wanted).copied().unwrap_or(2);
        // `Self_` then `Self2`, `type_` then `type_2`: not `Self_2` or `type__2`, which rustc
        // warns are not UpperCamelCase or snake_case.
        let base = match wanted.trim_end_matches('_') {
            "" => wanted,
            trimmed => trimmed,
        };
        while self.taken.contains(&name) {
            name = format!("{base}{separator}{n}");
            n += 1;
        }
        self.next_suffix.insert(wanted.to_owned(), n);
        self.taken.insert(name.clone());
        name
    }

    /// Takes `name` as it is, so that nothing claimed later gets it.
    pub(crate) fn reserve(&mut self, name: &str) {
        self.taken.insert(name.to_owned());
    }

    pub(crate) fn contains(&self, name: &str) -> bool {
        self.taken.contains(name)
    }
}

/// The method name derived from an operation's method and path.
///
/// `v1` is dropped (every current path has it); any other version segment is kept, so that a
/// future `/v2/...` operation never takes the name of its `/v1/...` sibling. A static segment
/// followed by a parameter is singularised: it names one item.
pub(crate) fn operation_name(method: &str, path: &str) -> String {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let mut words = vec![method.to_ascii_lowercase()];
    for (i, segment) in segments.iter().enumerate() {
        if segment.starts_with('{') || (*segment == "v1" && i == 0) {
            continue;
        }
        let followed_by_parameter = segments
            .get(i + 1)
            .is_some_and(|next| next.starts_with('{'));
        let word = to_snake_case(&ascii_words(segment));
        if word.is_empty() {
            continue;
        }
        words.push(if followed_by_parameter {
            singular(&word)
        } else {
            word
        });
    }
    rust_ident(words.join("_"))
}

/// The placeholders of a path template in order, wherever they stand in a segment
/// (`/Accounts/{Sid}.json`, `/files/{name}.{ext}`): its path parameters, and what tells
/// colliding method names apart.
pub(crate) fn path_parameters(path: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            break;
        };
        found.push(after[..close].to_owned());
        rest = &after[close + 1..];
    }
    found
}

/// A path template with every placeholder written `{}` (`/v1/models/{model_id}` →
/// `/v1/models/{}`): the endpoint it names, whatever its placeholders are called. An unclosed
/// `{` is kept as it is.
pub(crate) fn template_shape(path: &str) -> String {
    let mut shape = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        shape.push_str(&rest[..open]);
        shape.push_str("{}");
        rest = &rest[open + close + 1..];
    }
    shape.push_str(rest);
    shape
}

fn singular(word: &str) -> String {
    if let Some(stem) = word.strip_suffix("ies") {
        format!("{stem}y")
    } else if word.ends_with("sses")
        || word.ends_with("ches")
        || word.ends_with("shes")
        || word.ends_with("xes")
    {
        word[..word.len() - 2].to_owned()
    } else if word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("us")
        && !word.ends_with("is")
    {
        word[..word.len() - 1].to_owned()
    } else {
        word.to_owned()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn is_rust_ident_is_exactly_what_rust_ident_keeps() {
        for name in [
            "", "_", "__", "a", "A1", "_a", "1a", "a-b", "a b", "é", "type", "Self", "self_",
            "get_v1", "Über", "a\u{0}", "value",
        ] {
            assert_eq!(
                super::is_rust_ident(name),
                super::rust_ident(name) == name,
                "{name:?}"
            );
        }
    }

    use super::*;

    #[test]
    fn operation_names_read_like_the_path() {
        let cases = [
            (
                "GET",
                "/v1/models/{model_id}/environments/{env_name}/metrics",
                "get_model_environment_metrics",
            ),
            (
                "GET",
                "/v1/models/{model_id}/deployments/{deployment_id}/metrics",
                "get_model_deployment_metrics",
            ),
            ("GET", "/v1/models", "get_models"),
            ("GET", "/v1/models/{model_id}", "get_model"),
            ("DELETE", "/v1/secrets/{secret_name}", "delete_secret"),
            (
                "POST",
                "/v1/models/{model_id}/deployments/{deployment_id}/promote",
                "post_model_deployment_promote",
            ),
            ("GET", "/v2/api-keys/{key}", "get_v2_api_key"),
            ("PATCH", "/v1/policies/{id}", "patch_policy"),
        ];
        for (method, path, expected) in cases {
            assert_eq!(operation_name(method, path), expected, "{method} {path}");
        }
    }

    #[test]
    fn template_shapes_blank_every_placeholder() {
        for (path, shape) in [
            ("/v1/models/{model_id}", "/v1/models/{}"),
            (
                "/v1/models/{id}/deployments/{d}/x",
                "/v1/models/{}/deployments/{}/x",
            ),
            ("/files/{name}.{ext}", "/files/{}.{}"),
            ("/{a}{bc}", "/{}{}"),
            ("/a/{open", "/a/{open"),
            ("/plain", "/plain"),
        ] {
            assert_eq!(template_shape(path), shape, "{path}");
        }
    }

    #[test]
    fn identifiers_avoid_keywords_and_digits() {
        assert_eq!(snake_ident("type"), "type_");
        assert_eq!(snake_ident("self"), "self_");
        assert_eq!(snake_ident("2fa"), "_2fa");
        assert_eq!(snake_ident("weight-kg"), "weight_kg");
        assert_eq!(snake_ident("--"), "value");
        assert_eq!(camel_ident("PER_SECOND", "V"), "PerSecond");
        assert_eq!(camel_ident("2xx", "V"), "V2xx");
        assert_eq!(camel_ident("self", "T"), "Self_");
        assert_eq!(camel_ident("", "V"), "Empty");
    }

    #[test]
    fn suffixed_names_stay_in_case() {
        for (wire, camel, snake) in [
            (
                "ModelAPIsResponseV1",
                "ModelApisResponseV1",
                "model_apis_response_v1",
            ),
            ("listIDs", "ListIds", "list_ids"),
            ("URLs_2", "Urls2", "urls_2"),
            ("APIKey", "ApiKey", "api_key"),
        ] {
            assert_eq!(camel_ident(wire, "T"), camel, "{wire}");
            assert_eq!(snake_ident(wire), snake, "{wire}");
        }
        let mut types = Namespace::new();
        assert_eq!(types.claim("Self_", ""), "Self_");
        assert_eq!(types.claim("Self_", ""), "Self2");
        let mut fields = Namespace::new();
        assert_eq!(fields.claim("type_", "_"), "type_");
        assert_eq!(fields.claim("type_", "_"), "type_2");
    }
}
