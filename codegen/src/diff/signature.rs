//! A listing line's signature read in parts for the change report: its feature gate
//! (`feature=a|b` first), its serde impls (`; serde: …` last), its argument list, its endpoint
//! (`[METHOD /path]` last) and its quoted wire text, so two signatures can be told apart by what
//! old code notices: nothing, a changed meaning, or a compile error.

use std::collections::BTreeSet;

use crate::surface::write_only::{Gate, SerdeImpls};

/// A signature taken apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Parts<'s> {
    /// The features any one of which compiles the item; `None`: every build has it.
    pub(super) gate: Option<BTreeSet<&'s str>>,
    /// Its serde impls (both, in every build, when the line says nothing).
    pub(super) serde: SerdeImpls,
    /// The rest: what the item is.
    pub(super) core: &'s str,
}

impl<'s> Parts<'s> {
    pub(super) fn of(signature: &'s str) -> Parts<'s> {
        let (gate, rest) = match signature.strip_prefix("feature=") {
            Some(rest) => {
                let (gate, rest) = rest.split_once(' ').unwrap_or((rest, ""));
                (Some(gate.split('|').collect()), rest)
            }
            None => (None, signature),
        };
        let (core, serde) = split_serde(rest);
        Parts { gate, serde, core }
    }
}

/// The serde impls a signature's `; serde: …` suffix (or the whole of it) describes, and the
/// signature without it ([`SerdeImpls::describe`] wrote it).
fn split_serde(signature: &str) -> (&str, SerdeImpls) {
    let described = [
        (Gate::Always, Gate::Mock),
        (Gate::Mock, Gate::Always),
        (Gate::Mock, Gate::Mock),
    ]
    .map(|(serialize, deserialize)| SerdeImpls {
        serialize,
        deserialize,
    });
    for impls in described {
        let Some(text) = impls.describe() else {
            continue;
        };
        if let Some(rest) = signature.strip_suffix(text) {
            if rest.is_empty() {
                return ("", impls);
            }
            if let Some(rest) = rest.strip_suffix("; ") {
                return (rest, impls);
            }
        }
    }
    (signature, SerdeImpls::BOTH)
}

/// How an item's feature gate changed.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum GateChange {
    /// Every build that had it still has it: which builds now have it too.
    Widened(String),
    /// A build that had it may not: the old and new gates, described.
    Narrowed(String, String),
}

/// How a gate changed, from the features any one of which compiled the item (`None`: every
/// build has it); `None` when it did not.
pub(super) fn gate_change(
    old: Option<&BTreeSet<&str>>,
    new: Option<&BTreeSet<&str>>,
) -> Option<GateChange> {
    let describe = |gate: Option<&BTreeSet<&str>>| match gate {
        None => "every build".to_owned(),
        Some(features) => format!(
            "feature {}",
            features.iter().copied().collect::<Vec<_>>().join(" or ")
        ),
    };
    match (old, new) {
        _ if old == new => None,
        (Some(_), None) => Some(GateChange::Widened("now in every build".to_owned())),
        (Some(old_features), Some(new_features)) if old_features.is_subset(new_features) => {
            let added: Vec<&str> = new_features.difference(old_features).copied().collect();
            Some(GateChange::Widened(format!(
                "also compiled with feature {}",
                added.join(" or ")
            )))
        }
        _ => Some(GateChange::Narrowed(describe(old), describe(new))),
    }
}

/// What old code notices of a change to an item's core signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Noticed {
    /// Nothing: only names a call does not spell changed (arguments are positional), or the
    /// placeholders of its endpoint (the same request).
    Nothing,
    /// It compiles, and means something else: the endpoint, quoted wire text, or the order of
    /// arguments of the same types.
    Meaning,
    /// It may not compile.
    Compiler,
}

/// How two different core signatures differ for old code.
pub(super) fn noticed(old: &str, new: &str) -> Noticed {
    let (old_arguments, old_rest) = split_arguments(old);
    let (new_arguments, new_rest) = split_arguments(new);
    let type_of = |argument: &String| {
        argument
            .split_once(": ")
            .map_or(argument.clone(), |(_, ty)| ty.to_owned())
    };
    let old_types: Vec<String> = old_arguments.iter().map(type_of).collect();
    let new_types: Vec<String> = new_arguments.iter().map(type_of).collect();
    if old_types != new_types || without_meaning(&old_rest) != without_meaning(&new_rest) {
        return Noticed::Compiler;
    }
    let name_of = |argument: &String| argument.split_once(": ").map(|(name, _)| name.to_owned());
    let old_names: Vec<Option<String>> = old_arguments.iter().map(name_of).collect();
    let new_names: Vec<Option<String>> = new_arguments.iter().map(name_of).collect();
    // A name at another position means each argument now stands for another thing.
    let moved = old_names.iter().zip(&new_names).any(|(before, after)| {
        before != after && (new_names.contains(before) || old_names.contains(after))
    });
    // The rest differs only in quoted text or the endpoint here: the same when the endpoint's
    // placeholders are all that changed.
    if moved || blank_endpoint(&old_rest) != blank_endpoint(&new_rest) {
        Noticed::Meaning
    } else {
        Noticed::Nothing
    }
}

/// A signature's first parenthesised list split at its top-level commas, and the signature
/// with the list's contents taken out.
pub(super) fn split_arguments(signature: &str) -> (Vec<String>, String) {
    let Some(open) = signature.find('(') else {
        return (Vec::new(), signature.to_owned());
    };
    let mut depth = 0usize;
    let mut arguments = Vec::new();
    let mut current = String::new();
    for (at, c) in signature[open + 1..].char_indices() {
        match c {
            '(' | '<' | '[' => depth += 1,
            ')' if depth == 0 => {
                if !current.trim().is_empty() {
                    arguments.push(current.trim().to_owned());
                }
                let rest = format!(
                    "{}(){}",
                    &signature[..open],
                    &signature[open + 1 + at + 1..]
                );
                return (arguments, rest);
            }
            ')' | '>' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                arguments.push(current.trim().to_owned());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    (Vec::new(), signature.to_owned())
}

/// A signature with the placeholders of its endpoint (` [METHOD /path]`) written `{}`.
pub(super) fn blank_endpoint(signature: &str) -> String {
    match signature.rfind(" [") {
        Some(at) if signature.ends_with(']') => format!(
            "{} [{}",
            &signature[..at],
            crate::names::template_shape(&signature[at + 2..])
        ),
        _ => signature.to_owned(),
    }
}

/// A signature without its quoted text, spaces collapsed.
fn unquoted_only(signature: &str) -> String {
    let mut out = String::with_capacity(signature.len());
    let mut quoted = false;
    let mut escaped = false;
    for c in signature.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            _ if quoted => {}
            c => out.push(c),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A signature without what only changes meaning, not code: quoted text and the endpoint.
pub(super) fn without_meaning(signature: &str) -> String {
    let out = unquoted_only(signature);
    match out.rfind(" [") {
        Some(at) if out.ends_with(']') => out[..at].to_owned(),
        _ => out,
    }
}
