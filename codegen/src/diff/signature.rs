//! A listing line's signature read in parts for the change report: its feature gate
//! (`feature=a|b` or `feature=jiff&decimal` first), its serde impls (`; serde: …` last), its argument list, its endpoint
//! (`[METHOD /path]` last) and its quoted wire text, so two signatures can be told apart by what
//! old code notices: nothing, a changed meaning, or a compile error.

use std::collections::{BTreeMap, BTreeSet};

use crate::surface::features::FeatureGate;

/// What each feature of the new crate turns on besides itself (its `[features]` table).
pub(super) type Enables = BTreeMap<String, BTreeSet<String>>;

/// The features a build that turns on `features` has: them and everything they turn on.
fn build_with<'e>(
    features: impl IntoIterator<Item = &'e str>,
    enables: &'e Enables,
) -> BTreeSet<&'e str> {
    let mut build = BTreeSet::new();
    let mut pending: Vec<&str> = features.into_iter().collect();
    while let Some(feature) = pending.pop() {
        if build.insert(feature) {
            pending.extend(
                enables
                    .get(feature)
                    .into_iter()
                    .flatten()
                    .map(String::as_str),
            );
        }
    }
    build
}

/// How an item's feature gate changed.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum GateChange {
    /// Every build that had it still has it: which builds now have it too.
    Widened(String),
    /// A build that had it may not: the old and new gates, described.
    Narrowed(String, String),
}

/// How a gate changed (`None`: every build has the item); `None` when it did not. A build
/// that had the item keeps it when the new gate admits it with what its features turn on in
/// the new crate (`enables`): areas gating a type become, past the limit of a gate, the value
/// types each of them enables.
pub(super) fn gate_change(
    old: Option<&FeatureGate>,
    new: Option<&FeatureGate>,
    enables: &Enables,
) -> Option<GateChange> {
    let describe = |gate: Option<&FeatureGate>| match gate {
        None => "every build".to_owned(),
        Some(gate) => gate.describe(),
    };
    match (old, new) {
        _ if old == new => None,
        (Some(_), None) => Some(GateChange::Widened("now in every build".to_owned())),
        (Some(FeatureGate::Areas(_)), Some(FeatureGate::Areas(_)))
            if old.is_some_and(|old| {
                let new_features = new.map(FeatureGate::features).unwrap_or_default();
                old.features()
                    .iter()
                    .all(|feature| new_features.contains(feature))
            }) =>
        {
            let old_features = old.map(FeatureGate::features).unwrap_or_default();
            let added: Vec<&str> = new
                .map(FeatureGate::features)
                .unwrap_or_default()
                .into_iter()
                .filter(|feature| !old_features.contains(feature))
                .collect();
            Some(GateChange::Widened(format!(
                "also compiled with feature {}",
                added.join(" or ")
            )))
        }
        (Some(old_gate), Some(new_gate))
            if old_gate
                .smallest_builds()
                .into_iter()
                .all(|build| new_gate.admits(&build_with(build, enables))) =>
        {
            Some(GateChange::Widened(format!(
                "compiled with {} (was {}), which every build that had it turns on",
                new_gate.describe(),
                old_gate.describe()
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
