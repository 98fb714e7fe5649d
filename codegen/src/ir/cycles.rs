//! Cycles: `$ref` alias chains resolved once, alias-only cycles refused, and fields boxed where a
//! type contains itself.

use std::collections::{BTreeMap, HashMap, HashSet};

use openapiv3::{ReferenceOr, Schema};

use super::{AliasDef, SCHEMAS, TypeDef, TypeRef, local_key};
use crate::error::Pointer;

/// Boxes every field whose type leads back to its own struct with no `Vec` or map in between
/// (an infinitely sized type otherwise). Decided by structure alone, through the strongly
/// connected components of the "contains inline" graph, so adding an unrelated type never
/// changes which fields are boxed.
pub(super) fn box_recursive_fields(types: &mut BTreeMap<String, TypeDef>) {
    fn direct_target(ty: &TypeRef) -> Option<&str> {
        match ty {
            TypeRef::Named(name) => Some(name),
            TypeRef::Option(inner) => direct_target(inner),
            _ => None,
        }
    }
    let names: Vec<&String> = types.keys().collect();
    let index: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let edges: Vec<Vec<usize>> = names
        .iter()
        .map(|name| {
            let targets: Vec<&str> = match types.get(*name) {
                Some(TypeDef::Struct(s)) => s
                    .fields
                    .iter()
                    .filter_map(|f| direct_target(&f.ty))
                    .collect(),
                Some(TypeDef::Alias(a)) => direct_target(&a.ty).into_iter().collect(),
                // A variant holds its payload inline.
                Some(TypeDef::Union(u)) => u
                    .variants
                    .iter()
                    .filter_map(|v| direct_target(&v.ty))
                    .collect(),
                Some(TypeDef::Untagged(u)) => u
                    .variants
                    .iter()
                    .filter_map(|v| direct_target(&v.ty))
                    .collect(),
                _ => Vec::new(),
            };
            targets
                .into_iter()
                .filter_map(|t| index.get(t).copied())
                .collect()
        })
        .collect();
    let component = strongly_connected_components(&edges);
    let on_cycle = |from: usize, ty: &TypeRef| {
        direct_target(ty)
            .and_then(|t| index.get(t).copied())
            .is_some_and(|t| component.get(t) == component.get(from))
    };
    // Struct fields and union variants alike: either holds its value inline.
    let mut boxed: Vec<(String, usize)> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let members: Vec<&TypeRef> = match types.get(*name) {
            Some(TypeDef::Struct(def)) => def.fields.iter().map(|f| &f.ty).collect(),
            Some(TypeDef::Union(def)) => def.variants.iter().map(|v| &v.ty).collect(),
            Some(TypeDef::Untagged(def)) => def.variants.iter().map(|v| &v.ty).collect(),
            _ => continue,
        };
        for (m, ty) in members.into_iter().enumerate() {
            if on_cycle(i, ty) {
                boxed.push(((*name).clone(), m));
            }
        }
    }
    for (name, m) in boxed {
        match types.get_mut(&name) {
            Some(TypeDef::Struct(def)) => {
                if let Some(field) = def.fields.get_mut(m) {
                    field.boxed = true;
                }
            }
            Some(TypeDef::Union(def)) => {
                if let Some(variant) = def.variants.get_mut(m) {
                    variant.boxed = true;
                }
            }
            Some(TypeDef::Untagged(def)) => {
                if let Some(variant) = def.variants.get_mut(m) {
                    variant.boxed = true;
                }
            }
            _ => {}
        }
    }
}

/// Component id per node (Kosaraju, iterative, so a long chain cannot overflow the stack).
pub(super) fn strongly_connected_components(edges: &[Vec<usize>]) -> Vec<usize> {
    let n = edges.len();
    let mut order = Vec::with_capacity(n);
    let mut visited = vec![false; n];
    for start in 0..n {
        if visited[start] {
            continue;
        }
        visited[start] = true;
        let mut stack = vec![(start, 0usize)];
        while let Some((node, next)) = stack.pop() {
            if let Some(&target) = edges[node].get(next) {
                stack.push((node, next + 1));
                if !visited[target] {
                    visited[target] = true;
                    stack.push((target, 0));
                }
            } else {
                order.push(node);
            }
        }
    }
    let mut reverse = vec![Vec::new(); n];
    for (from, targets) in edges.iter().enumerate() {
        for &to in targets {
            reverse[to].push(from);
        }
    }
    let mut component = vec![usize::MAX; n];
    let mut count = 0;
    for &root in order.iter().rev() {
        if component[root] != usize::MAX {
            continue;
        }
        component[root] = count;
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            for &from in &reverse[node] {
                if component[from] == usize::MAX {
                    component[from] = count;
                    stack.push(from);
                }
            }
        }
        count += 1;
    }
    component
}

/// `type A = Vec<A>` does not compile; such an alias is read as any JSON value instead (the
/// builder notes it), the rest of the document emitted. An alias is
/// on such a cycle when its strongly connected component in the alias → alias graph has more
/// than one member or an edge to itself: linear, however long the aliases chain.
pub(super) fn alias_cycles(
    types: &BTreeMap<String, TypeDef>,
    component_names: &BTreeMap<String, String>,
) -> Vec<(String, String)> {
    fn named_in<'t>(ty: &'t TypeRef, out: &mut Vec<&'t str>) {
        match ty {
            TypeRef::Named(name) => out.push(name),
            TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Option(inner) => {
                named_in(inner, out)
            }
            _ => {}
        }
    }
    let aliases: Vec<(&String, &AliasDef)> = types
        .iter()
        .filter_map(|(name, def)| match def {
            TypeDef::Alias(alias) => Some((name, alias)),
            _ => None,
        })
        .collect();
    let index: HashMap<&str, usize> = aliases
        .iter()
        .enumerate()
        .map(|(i, (name, _))| (name.as_str(), i))
        .collect();
    let edges: Vec<Vec<usize>> = aliases
        .iter()
        .map(|(_, alias)| {
            let mut targets = Vec::new();
            named_in(&alias.ty, &mut targets);
            targets
                .into_iter()
                .filter_map(|t| index.get(t).copied())
                .collect()
        })
        .collect();
    let component = strongly_connected_components(&edges);
    let mut sizes: HashMap<usize, usize> = HashMap::new();
    for c in &component {
        *sizes.entry(*c).or_default() += 1;
    }
    let mut cyclic_aliases = Vec::new();
    for (i, (name, _)) in aliases.iter().enumerate() {
        let own = component.get(i);
        let cyclic = own.is_some_and(|c| sizes.get(c).is_some_and(|size| *size > 1))
            || edges.get(i).is_some_and(|targets| targets.contains(&i));
        if cyclic {
            let key = component_names
                .iter()
                .find(|(_, rust_name)| rust_name == name)
                .map_or(name.as_str(), |(key, _)| key.as_str());
            let pointer = Pointer::from_ref("#/components/schemas").join(key);
            cyclic_aliases.push(((*name).clone(), pointer.to_string()));
        }
    }
    cyclic_aliases
}

/// For every component key whose `$ref`-only chain ends in a schema, that schema's key. Each
/// key is walked once: a walk stops at a key already resolved or already known to fail.
pub(super) fn resolve_aliases<'a>(
    schemas: &'a indexmap::IndexMap<String, ReferenceOr<Schema>>,
) -> HashMap<&'a str, &'a str> {
    let mut resolved: HashMap<&'a str, &'a str> = HashMap::new();
    let mut failed: HashSet<&'a str> = HashSet::new();
    for start in schemas.keys() {
        let mut walked: Vec<&'a str> = Vec::new();
        let mut on_walk: HashSet<&'a str> = HashSet::new();
        let mut current: &'a str = start;
        let target = loop {
            if let Some(target) = resolved.get(current) {
                break Some(*target);
            }
            if failed.contains(current) || !on_walk.insert(current) {
                break None;
            }
            walked.push(current);
            let next = match schemas.get_key_value(current) {
                Some((key, ReferenceOr::Item(_))) => break Some(key.as_str()),
                Some((_, ReferenceOr::Reference { reference })) => {
                    local_key(reference, SCHEMAS, &Pointer::root())
                        .ok()
                        .and_then(|key| schemas.get_key_value(key.as_str()))
                }
                None => None,
            };
            match next {
                Some((key, _)) => current = key.as_str(),
                None => break None,
            }
        };
        match target {
            Some(target) => resolved.extend(walked.into_iter().map(|key| (key, target))),
            None => failed.extend(walked),
        }
    }
    resolved
}
