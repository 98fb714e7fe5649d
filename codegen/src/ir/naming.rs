//! Names: inline types, enum and union variants and methods, each through the names lock, so
//! that regenerating keeps every name given before.

use super::*;
pub(crate) use crate::reserved::FALLBACK_VARIANT;

impl<'a> Builder<'a> {
    /// A name for the inline schema (or operation part) at `identity`.
    pub(super) fn inline_name(&mut self, hint: &str, identity: &Pointer) -> String {
        self.type_names
            .claim(identity.as_str(), &names::camel_ident(hint, "T"), "")
    }
}

/// A namespace for an enum's or union's variants, honouring the names `locked` gave before,
/// with [`FALLBACK_VARIANT`] taken.
pub(super) fn variant_namespace(locked: Option<&BTreeMap<String, String>>) -> LockedNamespace {
    LockedNamespace::new(locked, [FALLBACK_VARIANT])
}

/// The Rust name of a listed value or tag: its locked name, else its UpperCamelCase spelling,
/// and `UnknownValue` (not `Unknown2`) for one spelled like the fallback.
pub(super) fn claim_variant(variant_names: &mut LockedNamespace, wire: &str) -> String {
    let wanted = names::camel_ident(wire, "V");
    let wanted = if wanted == FALLBACK_VARIANT {
        format!("{FALLBACK_VARIANT}Value")
    } else {
        wanted
    };
    variant_names.claim(wire, &wanted, "")
}

/// The variant that keeps values the document does not list (see [`FALLBACK_VARIANT`]), free
/// in every namespace from [`variant_namespace`].
pub(super) fn fallback_variant() -> String {
    FALLBACK_VARIANT.to_owned()
}

/// Method names: config overrides first, then names derived from method + path; colliding
/// derived names add their path parameters (`_by_x`), then a number, in document order.
pub(super) fn operation_names(
    found: &[Found<'_>],
    config: &Config,
) -> Result<(Vec<String>, BTreeMap<String, String>), Error> {
    let keys: Vec<String> = found
        .iter()
        .map(|(path, method, ..)| format!("{} {path}", method.to_ascii_uppercase()))
        .collect();
    for key in config.operation_names.keys() {
        if !keys.contains(key) {
            return Err(Error::Config {
                pointer: Pointer::root()
                    .join("operation_names")
                    .join(key)
                    .to_string(),
                reason: format!("no operation {key} in the document"),
            });
        }
    }
    let mut taken = Namespace::new();
    for name in config.operation_names.values() {
        if taken.contains(name) {
            return Err(Error::Config {
                pointer: "#/operation_names".into(),
                reason: format!("two operations are named {name:?}"),
            });
        }
        taken.claim(name, "");
    }
    // Locked names stay with their operations (and retired ones stay retired), unless the
    // config names the operation, or gives the name to another, explicitly.
    let mut locked: BTreeMap<&str, &str> = BTreeMap::new();
    for (key, name) in &config.names_lock.operations {
        if !config.operation_names.contains_key(key) && !taken.contains(name) {
            taken.reserve(name);
            locked.insert(key, name);
        }
    }
    // Entry points and streams keep the names they were given: an operation that would take
    // one takes the longer name, as beside a locked operation.
    for name in config.names_lock.client_methods.values() {
        if !taken.contains(name) {
            taken.reserve(name);
        }
    }
    let derived: Vec<String> = found
        .iter()
        .map(|(path, method, ..)| names::operation_name(method, path))
        .collect();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (key, name) in keys.iter().zip(&derived) {
        if !config.operation_names.contains_key(key) && !locked.contains_key(key.as_str()) {
            *counts.entry(name.as_str()).or_default() += 1;
        }
    }
    let mut result = Vec::with_capacity(found.len());
    let mut given = BTreeMap::new();
    for ((key, name), (path, ..)) in keys.iter().zip(&derived).zip(found) {
        if let Some(chosen) = config.operation_names.get(key) {
            result.push(chosen.clone());
            continue;
        }
        if let Some(locked) = locked.get(key.as_str()) {
            given.insert(key.clone(), (*locked).to_owned());
            result.push((*locked).to_owned());
            continue;
        }
        // A newcomer whose name a locked operation holds takes the longer name, never the
        // holder.
        let collides =
            counts.get(name.as_str()).is_some_and(|count| *count > 1) || taken.contains(name);
        let wanted = match names::path_parameters(path) {
            parameters if collides && !parameters.is_empty() => {
                format!(
                    "{name}_by_{}",
                    parameters
                        .iter()
                        .map(|p| names::snake_ident(p).trim_matches('_').to_owned())
                        .collect::<Vec<_>>()
                        .join("_and_")
                )
            }
            _ => name.clone(),
        };
        let claimed = taken.claim(&wanted, "_");
        given.insert(key.clone(), claimed.clone());
        result.push(claimed);
    }
    // Retired: operations gone from the document keep their names out of reach.
    for (key, name) in &config.names_lock.operations {
        if !given.values().any(|given| given == name)
            && !config.operation_names.values().any(|n| n == name)
        {
            given.entry(key.clone()).or_insert_with(|| name.clone());
        }
    }
    Ok((result, given))
}
