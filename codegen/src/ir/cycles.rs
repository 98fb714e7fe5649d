//! Cycles: `$ref` alias chains resolved once, alias-only cycles refused, and the edges of
//! cycles and long chains held through the runtime's `Indirect`.

use std::collections::{BTreeMap, HashMap, HashSet};

use openapiv3::{ReferenceOr, Schema};

use super::{AliasDef, SCHEMAS, TypeDef, TypeRef, local_key};
use crate::error::Pointer;

/// How deep, in rustc's drop-check walk, a type's own fields may lead before an edge holds
/// an [`TypeRef::Indirect`]: 64 of the compiler's default recursion limit of 128, the rest
/// left for the `Option`s a drop site adds and for inline nesting (at most `load::MAX_DEPTH`).
pub(crate) const MAX_DROP_DEPTH: usize = 64;

/// Puts the runtime's `Indirect` (a pointer rustc's drop check stops at) on the edges of the
/// type graph that would make a crate fail to compile or check quadratically: every edge
/// between two types of one strongly connected component (a cycle: `Box` there made each
/// drop walk the whole component, and a component of 56 failed with E0320), and, down an
/// acyclic chain, the edge at which the walk would pass [`MAX_DROP_DEPTH`] wrappers (a chain
/// of 130 optional fields failed so). Decided by structure alone: the components, then the
/// depths from the sinks up, so adding an unrelated type never moves an `Indirect`. It also
/// breaks every inline cycle (each lies in a component), which a `Box` used to.
///
/// Depth counts the generic wrappers rustc walks through (`Option`, `Vec`, maps, the `Option`
/// of an optional or nullable field) and one per named type (its layout and constraints nest a
/// query each). An alias's own edges never hold one: `type A = Indirect<B>` would rename the
/// type users see; the edges into it do.
pub(super) fn indirect_edges(types: &mut BTreeMap<String, TypeDef>) {
    fn named<'t>(ty: &'t TypeRef, out: &mut Vec<&'t str>) {
        match ty {
            TypeRef::Named(name) => out.push(name),
            TypeRef::Vec(inner)
            | TypeRef::Map(inner)
            | TypeRef::Option(inner)
            | TypeRef::Indirect(inner) => named(inner, out),
            _ => {}
        }
    }
    let names: Vec<String> = types.keys().cloned().collect();
    let index: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let edges: Vec<Vec<usize>> = names
        .iter()
        .map(|name| {
            let mut targets = Vec::new();
            if let Some(def) = types.get(name) {
                for ty in def.held_types() {
                    named(ty, &mut targets);
                }
            }
            targets
                .into_iter()
                .filter_map(|t| index.get(t).copied())
                .collect()
        })
        .collect();
    let component = strongly_connected_components(&edges);
    // Kosaraju numbers components sources first: from the last, each type's targets outside
    // its own component have their depth already.
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(component[i]));
    let mut depth: Vec<Option<usize>> = vec![None; names.len()];
    let context = Depths {
        index: &index,
        component: &component,
    };
    // Per component, sinks first: its structs and unions, then its aliases (which may name them).
    for group in order.chunk_by(|a, b| component[*a] == component[*b]) {
        for &i in group {
            let Some(def) = types.get_mut(&names[i]) else {
                continue;
            };
            let deepest = match def {
                TypeDef::Alias(_) => continue,
                TypeDef::Struct(def) => def
                    .fields
                    .iter_mut()
                    .map(|f| {
                        let wrappers = usize::from(!f.required) + usize::from(f.nullable);
                        let deepest = context.cut(&mut f.ty, wrappers, i, &depth);
                        f.indirect = unwrap_top(&mut f.ty);
                        deepest
                    })
                    .max(),
                TypeDef::Union(def) => def
                    .variants
                    .iter_mut()
                    .map(|v| {
                        let deepest = context.cut(&mut v.ty, 0, i, &depth);
                        v.indirect = unwrap_top(&mut v.ty);
                        deepest
                    })
                    .max(),
                TypeDef::Untagged(def) => def
                    .variants
                    .iter_mut()
                    .map(|v| {
                        let deepest = context.cut(&mut v.ty, 0, i, &depth);
                        v.indirect = unwrap_top(&mut v.ty);
                        deepest
                    })
                    .max(),
                TypeDef::Enum(_) | TypeDef::IntEnum(_) => None,
            };
            depth[i] = Some(deepest.unwrap_or(0));
        }
        let mut aliases: Vec<usize> = group
            .iter()
            .copied()
            .filter(|&i| matches!(types.get(&names[i]), Some(TypeDef::Alias(_))))
            .collect();
        // An alias naming another alias of its component waits for it (alias-only cycles are
        // `serde_json::Value` by now, so each round settles at least one).
        while !aliases.is_empty() {
            let before = aliases.len();
            aliases.retain(|&i| {
                let Some(TypeDef::Alias(alias)) = types.get(&names[i]) else {
                    return false;
                };
                match context.measure(&alias.ty, 0, &depth) {
                    Some(d) => {
                        depth[i] = Some(d);
                        false
                    }
                    None => true,
                }
            });
            if aliases.len() == before {
                // Unreachable after `alias_cycles`; counted as deep as allowed, never a hang.
                for &i in &aliases {
                    depth[i] = Some(MAX_DROP_DEPTH);
                }
                break;
            }
        }
    }
}

/// A field or variant that is itself the `Indirect` edge says so by its flag, so that its
/// constructor and setter take the value itself (`impl Into<T>`, as for a `Box` before); an
/// `Indirect` inside a `Vec`, a map or an `Option` stays in the type. True when unwrapped.
fn unwrap_top(ty: &mut TypeRef) -> bool {
    match std::mem::replace(ty, TypeRef::Json) {
        TypeRef::Indirect(inner) => {
            *ty = *inner;
            true
        }
        other => {
            *ty = other;
            false
        }
    }
}

/// What [`indirect_edges`] measures depths against.
struct Depths<'a> {
    index: &'a HashMap<&'a str, usize>,
    component: &'a [usize],
}

impl Depths<'_> {
    /// The depth a walk from a field of type `ty` under `wrappers` generic wrappers reaches,
    /// after wrapping in `Indirect` each named type of `owner`'s component and each one past
    /// [`MAX_DROP_DEPTH`].
    fn cut(
        &self,
        ty: &mut TypeRef,
        wrappers: usize,
        owner: usize,
        depth: &[Option<usize>],
    ) -> usize {
        match ty {
            TypeRef::Named(name) => {
                let Some(&target) = self.index.get(name.as_str()) else {
                    return wrappers;
                };
                // A type of the owner's own component always; another when the walk would pass
                // the limit through it.
                if self.component.get(target) != self.component.get(owner)
                    && let Some(d) = depth.get(target).copied().flatten()
                    && wrappers + 1 + d <= MAX_DROP_DEPTH
                {
                    return wrappers + 1 + d;
                }
                *ty = TypeRef::Indirect(Box::new(std::mem::replace(ty, TypeRef::Json)));
                wrappers + 1
            }
            TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Option(inner) => {
                self.cut(inner, wrappers + 1, owner, depth)
            }
            TypeRef::Indirect(_) => wrappers + 1,
            _ => wrappers,
        }
    }

    /// The depth a walk through `ty` reaches, `None` while a named type in it has none yet.
    fn measure(&self, ty: &TypeRef, wrappers: usize, depth: &[Option<usize>]) -> Option<usize> {
        match ty {
            TypeRef::Named(name) => match self.index.get(name.as_str()) {
                Some(&target) => Some(wrappers + 1 + (*depth.get(target)?)?),
                None => Some(wrappers),
            },
            TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Option(inner) => {
                self.measure(inner, wrappers + 1, depth)
            }
            TypeRef::Indirect(_) => Some(wrappers + 1),
            _ => Some(wrappers),
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::{MAX_DROP_DEPTH, indirect_edges};
    use crate::ir::{AliasDef, Field, StructDef, TypeDef, TypeRef};

    fn named(name: &str) -> TypeRef {
        TypeRef::Named(name.to_owned())
    }

    fn indirect(name: &str) -> TypeRef {
        TypeRef::Indirect(Box::new(named(name)))
    }

    /// A struct of one field per `(type, required)`.
    fn object(name: &str, fields: Vec<(TypeRef, bool)>) -> (String, TypeDef) {
        let fields = fields
            .into_iter()
            .enumerate()
            .map(|(i, (ty, required))| Field {
                wire_name: format!("f{i}"),
                rust_name: format!("f{i}"),
                doc: None,
                ty,
                required,
                nullable: false,
                indirect: false,
            })
            .collect();
        let def = StructDef {
            name: name.to_owned(),
            doc: None,
            fields,
        };
        (name.to_owned(), TypeDef::Struct(def))
    }

    fn fields(types: &BTreeMap<String, TypeDef>, name: &str) -> Vec<TypeRef> {
        match types.get(name) {
            // A field that is itself the edge carries the flag: shown as the type it stands for.
            Some(TypeDef::Struct(def)) => def
                .fields
                .iter()
                .map(|f| match f.indirect {
                    true => TypeRef::Indirect(Box::new(f.ty.clone())),
                    false => f.ty.clone(),
                })
                .collect(),
            other => panic!("{name}: {other:?}"),
        }
    }

    #[test]
    fn every_edge_inside_a_cycle_is_indirect_and_none_into_it() {
        let mut types: BTreeMap<String, TypeDef> = [
            object("A", vec![(named("B"), true), (TypeRef::String, true)]),
            object("B", vec![(TypeRef::Vec(Box::new(named("A"))), false)]),
            object("C", vec![(named("A"), false), (named("C"), false)]),
        ]
        .into_iter()
        .collect();
        indirect_edges(&mut types);
        assert_eq!(fields(&types, "A"), [indirect("B"), TypeRef::String]);
        assert_eq!(fields(&types, "B"), [TypeRef::Vec(Box::new(indirect("A")))]);
        // C reaches the cycle but is not on it; its edge to itself is a cycle of one.
        assert_eq!(fields(&types, "C"), [named("A"), indirect("C")]);
    }

    #[test]
    fn an_alias_on_a_cycle_keeps_its_target_and_the_edge_into_it_is_cut() {
        let mut types: BTreeMap<String, TypeDef> = [
            object("A", vec![(named("L"), true)]),
            (
                "L".to_owned(),
                TypeDef::Alias(AliasDef {
                    name: "L".to_owned(),
                    doc: None,
                    ty: TypeRef::Vec(Box::new(named("A"))),
                }),
            ),
        ]
        .into_iter()
        .collect();
        indirect_edges(&mut types);
        assert_eq!(fields(&types, "A"), [indirect("L")]);
        match types.get("L") {
            Some(TypeDef::Alias(alias)) => {
                assert_eq!(alias.ty, TypeRef::Vec(Box::new(named("A"))));
            }
            other => panic!("{other:?}"),
        }
    }

    /// The deepest walk from `name`: what the drop check would go through before stopping at
    /// an `Indirect`, counted as `indirect_edges` counts it.
    fn walk(types: &BTreeMap<String, TypeDef>, name: &str) -> usize {
        fn of(types: &BTreeMap<String, TypeDef>, ty: &TypeRef, wrappers: usize) -> usize {
            match ty {
                TypeRef::Named(name) => wrappers + 1 + walk(types, name),
                TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Option(inner) => {
                    of(types, inner, wrappers + 1)
                }
                TypeRef::Indirect(_) => wrappers + 1,
                _ => wrappers,
            }
        }
        match types.get(name) {
            Some(TypeDef::Struct(def)) => def
                .fields
                .iter()
                .map(|f| match f.indirect {
                    true => usize::from(!f.required) + 1,
                    false => of(types, &f.ty, usize::from(!f.required)),
                })
                .max()
                .unwrap_or(0),
            _ => 0,
        }
    }

    fn chain(length: usize, unrelated: bool) -> BTreeMap<String, TypeDef> {
        let mut types: BTreeMap<String, TypeDef> = (0..length)
            .map(|i| {
                let next = (i + 1 < length).then(|| (named(&format!("N{:04}", i + 1)), false));
                object(&format!("N{i:04}"), next.into_iter().collect())
            })
            .collect();
        if unrelated {
            types.extend([object("Z", vec![(named("Z"), false)])]);
        }
        indirect_edges(&mut types);
        types
    }

    #[test]
    fn a_long_chain_is_cut_where_the_walk_would_pass_the_limit_and_a_short_one_never() {
        let short = chain(20, false);
        assert!((0..20).all(|i| {
            !fields(&short, &format!("N{i:04}"))
                .iter()
                .any(|ty| matches!(ty, TypeRef::Indirect(_)))
        }));
        let long = chain(300, false);
        let cut = (0..300)
            .filter(|i| {
                fields(&long, &format!("N{i:04}"))
                    .iter()
                    .any(|ty| matches!(ty, TypeRef::Indirect(_)))
            })
            .count();
        // Each optional edge is two levels deep (the `Option`, the type): one cut per 32.
        assert!((300 / 32..=300 / 31).contains(&cut), "{cut} cuts");
        for i in 0..300 {
            let deepest = walk(&long, &format!("N{i:04}"));
            assert!(deepest <= MAX_DROP_DEPTH, "N{i:04}: {deepest}");
        }
        // An unrelated type moves no cut.
        let with_other = chain(300, true);
        for i in 0..300 {
            let name = format!("N{i:04}");
            assert_eq!(fields(&long, &name), fields(&with_other, &name));
        }
    }
}
