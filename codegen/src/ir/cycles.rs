//! Cycles: `$ref` alias chains resolved once, alias-only cycles refused, and how the edges of
//! cycles and long chains are held (`Box` in a small cycle, the runtime's `Indirect` past it).

use std::collections::{BTreeMap, HashMap, HashSet};

use openapiv3::{ReferenceOr, Schema};

use std::cell::RefCell;

use super::{AliasDef, Held, SCHEMAS, TypeDef, TypeRef, local_key};
use crate::error::Pointer;
use crate::lock::Holding;

/// How deep, in rustc's drop-check walk, a type's own fields may lead before an edge holds
/// an [`TypeRef::Indirect`]: 64 of the compiler's default recursion limit of 128, the rest
/// left for the `Option`s a drop site adds and for inline nesting (at most `load::MAX_DEPTH`).
pub(crate) const MAX_DROP_DEPTH: usize = 64;

/// The deepest a walk inside a cycle may go for the cycle to keep `Box` and plain `Vec<T>`
/// ([`hold_edges`]): a walk visits each type of the component at most once, so it goes no
/// deeper than the sum over the types of their deepest edge back into the component (the
/// wrappers on it, a `Box`, the type). 24 is 8 types joined by optional boxed fields
/// (`Option`, `Box`, the type: 3 each) or 12 by `Vec`s (2 each), and leaves 40 of
/// [`MAX_DROP_DEPTH`] for what the component reaches outside itself.
pub(crate) const SMALL_CYCLE_DEPTH: usize = 24;

/// The deepest walk inside a cycle whose holdings the names lock keeps (see [`hold_edges`]):
/// twice [`SMALL_CYCLE_DEPTH`], still within [`MAX_DROP_DEPTH`] (what the cycle reaches
/// outside itself is cut against that as ever). A cycle grown past it is held afresh.
pub(crate) const LOCKED_CYCLE_DEPTH: usize = 2 * SMALL_CYCLE_DEPTH;

/// The deepest walk through an edge the names lock keeps in place (see [`hold_edges`]):
/// [`MAX_DROP_DEPTH`] and half of the inline nesting's share of the recursion limit (`load`'s
/// `MAX_DEPTH` of 32), so a locked edge stays in place when a document grows a little below
/// it; past that it holds an `Indirect` after all.
pub(crate) const LOCKED_DROP_DEPTH: usize = MAX_DROP_DEPTH + 16;

/// An edge held in place is kept in the lock when its walk is deeper than this: the ones a
/// document's growth below could push past [`MAX_DROP_DEPTH`].
const RECORDED_DEPTH: usize = MAX_DROP_DEPTH / 2;

/// How each type's fields and variants (by wire name, tag or variant name) held their edges,
/// for the names lock: those on cycles, those holding an `Indirect`, those walking deeper
/// than [`RECORDED_DEPTH`].
pub(crate) type Holdings = BTreeMap<String, BTreeMap<String, Holding>>;

/// Decides how each field and variant holds its value ([`Held`]), so that every type has a
/// finite size and rustc's drop check neither fails nor checks quadratically. Decided by
/// structure alone (the strongly connected components of the type graph, then the depths from
/// the sinks up), so adding an unrelated type never moves a `Box` or an `Indirect`:
/// - a small cycle (its walk within [`SMALL_CYCLE_DEPTH`]) is held as users of `Box` expect:
///   a `Box` on each field or variant that leads back to its own type with no `Vec` or map in
///   between (an infinitely sized type otherwise), everything else inline (`Vec<Tree>`);
/// - in a larger one, every edge between two of its types holds the runtime's `Indirect`, a
///   pointer the drop check stops at (with `Box` each drop walked the whole component, and a
///   component of 56 failed with E0320);
/// - down an acyclic chain, the edge at which the walk would pass [`MAX_DROP_DEPTH`] holds an
///   `Indirect` (a chain of 130 optional fields failed so). A small cycle counts there as one
///   node as deep as its worst walk, an upper bound.
///
/// Depth counts the generic wrappers rustc walks through (`Option`, `Vec`, maps, `Box`, the
/// `Option` of an optional or nullable field) and one per named type (its layout and
/// constraints nest a query each). An alias's own edges never hold one: `type A = Indirect<B>`
/// would rename the type users see; the edges into it do.
///
/// A holding changes a field's type, so the names lock keeps them (`locked`; the returned
/// [`Holdings`] are the next lock's): an edge the lock holds keeps its holding while the
/// limits allow, and an edge it does not hold (a new one) takes the `Indirect` a limit needs.
/// A cycle the lock held with `Box`es keeps them while its walk, its new edges through an
/// `Indirect`, stays within [`LOCKED_CYCLE_DEPTH`]; an edge it held in place stays so while
/// its walk is within [`LOCKED_DROP_DEPTH`]; one it held through an `Indirect` keeps it.
pub(super) fn hold_edges(types: &mut BTreeMap<String, TypeDef>, locked: &Holdings) -> Holdings {
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
    let graph = |inline_only: bool| -> Vec<Vec<usize>> {
        names
            .iter()
            .map(|name| {
                let mut targets = Vec::new();
                for ty in types.get(name).map(TypeDef::held_types).unwrap_or_default() {
                    match inline_only {
                        true => targets.extend(direct_target(ty)),
                        false => named(ty, &mut targets),
                    }
                }
                targets
                    .into_iter()
                    .filter_map(|t| index.get(t).copied())
                    .collect()
            })
            .collect()
    };
    let edges = graph(false);
    let component = strongly_connected_components(&edges);
    // Where a small cycle holds a `Box`: the components of the "contains inline" graph.
    let inline_component = strongly_connected_components(&graph(true));
    // Kosaraju numbers components sources first: from the last, each type's targets outside
    // its own component have their depth already.
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(component[i]));
    let mut depth: Vec<Option<usize>> = vec![None; names.len()];
    let context = Depths {
        names: &names,
        index: &index,
        component: &component,
        inline_component: &inline_component,
        locked,
        record: RefCell::new(Holdings::new()),
    };
    for group in order.chunk_by(|a, b| component[*a] == component[*b]) {
        let cyclic = group.len() > 1 || group.iter().any(|&i| edges[i].contains(&i));
        match cyclic.then(|| context.cycle_mode(types, group)).flatten() {
            Some((mode, walk)) => context.settle_small_cycle(types, group, mode, walk, &mut depth),
            None => context.settle(types, group, cyclic, &mut depth),
        }
    }
    context.record.into_inner()
}

/// How a small cycle holds the edges back into itself: as `Box` would (fresh), or as the lock
/// held them, its new edges as `Box` would or through an `Indirect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Fresh,
    Locked { new_indirect: bool },
}

/// A field's or variant's key in the lock, the wrappers around it and its type (an alias's
/// own type has no key: it never holds anything).
fn slot_views(def: &TypeDef) -> Vec<(Option<&str>, usize, &TypeRef)> {
    match def {
        TypeDef::Struct(def) => def
            .fields
            .iter()
            .map(|f| {
                let wrappers = usize::from(!f.required) + usize::from(f.nullable);
                (Some(f.wire_name.as_str()), wrappers, &f.ty)
            })
            .collect(),
        TypeDef::Union(def) => def
            .variants
            .iter()
            .map(|v| (Some(v.tag.as_str()), 0, &v.ty))
            .collect(),
        TypeDef::Untagged(def) => def
            .variants
            .iter()
            .map(|v| (Some(v.rust_name.as_str()), 0, &v.ty))
            .collect(),
        TypeDef::Alias(def) => vec![(None, 0, &def.ty)],
        TypeDef::Enum(_) | TypeDef::IntEnum(_) | TypeDef::ValueEnum(_) => Vec::new(),
    }
}

fn holding_of(held: Held) -> Holding {
    match held {
        Held::Inline => Holding::Inline,
        Held::Boxed => Holding::Box,
        Held::Indirect => Holding::Indirect,
    }
}

fn held_of(holding: Holding) -> Held {
    match holding {
        Holding::Inline => Held::Inline,
        Holding::Box => Held::Boxed,
        Holding::Indirect => Held::Indirect,
    }
}

/// The named type a value holds in place (through `Option` only), as a `Box` breaks it.
fn direct_target(ty: &TypeRef) -> Option<&str> {
    match ty {
        TypeRef::Named(name) => Some(name),
        TypeRef::Option(inner) => direct_target(inner),
        _ => None,
    }
}

/// The generic wrappers down to the named type `ty` holds, and that type.
fn wrapped(ty: &TypeRef) -> (usize, Option<&str>) {
    match ty {
        TypeRef::Named(name) => (0, Some(name)),
        TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Option(inner) => {
            let (wrappers, target) = wrapped(inner);
            (wrappers + 1, target)
        }
        // `Indirect` is what this pass writes: it never meets one.
        _ => (0, None),
    }
}

/// A field or variant: its type, the wrappers around it (the `Option` of an optional or
/// nullable field), how it is held.
struct Slot<'d> {
    key: String,
    ty: &'d mut TypeRef,
    wrappers: usize,
    held: &'d mut Held,
}

/// The fields or variants of a struct or union; none for an alias or enum.
fn slots(def: &mut TypeDef) -> Vec<Slot<'_>> {
    match def {
        TypeDef::Struct(def) => def
            .fields
            .iter_mut()
            .map(|f| Slot {
                key: f.wire_name.clone(),
                ty: &mut f.ty,
                wrappers: usize::from(!f.required) + usize::from(f.nullable),
                held: &mut f.held,
            })
            .collect(),
        TypeDef::Union(def) => def
            .variants
            .iter_mut()
            .map(|v| Slot {
                key: v.tag.clone(),
                ty: &mut v.ty,
                wrappers: 0,
                held: &mut v.held,
            })
            .collect(),
        TypeDef::Untagged(def) => def
            .variants
            .iter_mut()
            .map(|v| Slot {
                key: v.rust_name.clone(),
                ty: &mut v.ty,
                wrappers: 0,
                held: &mut v.held,
            })
            .collect(),
        TypeDef::Alias(_) | TypeDef::Enum(_) | TypeDef::IntEnum(_) | TypeDef::ValueEnum(_) => {
            Vec::new()
        }
    }
}

/// A field or variant that is itself the `Indirect` edge says so by its [`Held`], so that its
/// constructor and setter take the value itself (`impl Into<T>`, as for a `Box`); an
/// `Indirect` inside a `Vec`, a map or an `Option` stays in the type.
fn unwrap_top(ty: &mut TypeRef) -> Held {
    match std::mem::replace(ty, TypeRef::Json) {
        TypeRef::Indirect(inner) => {
            *ty = *inner;
            Held::Indirect
        }
        other => {
            *ty = other;
            Held::Inline
        }
    }
}

/// Wraps the named type `ty` holds (under its `Vec`s, maps and `Option`s) in an `Indirect`.
fn wrap_named(ty: &mut TypeRef) {
    match ty {
        TypeRef::Named(_) => {
            *ty = TypeRef::Indirect(Box::new(std::mem::replace(ty, TypeRef::Json)));
        }
        TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Option(inner) => wrap_named(inner),
        _ => {}
    }
}

/// Whether `ty` holds an `Indirect` under its wrappers.
fn holds_indirect(ty: &TypeRef) -> bool {
    match ty {
        TypeRef::Indirect(_) => true,
        TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Option(inner) => holds_indirect(inner),
        _ => false,
    }
}

/// What [`hold_edges`] measures depths against, the lock it follows and what it records.
struct Depths<'a> {
    names: &'a [String],
    index: &'a HashMap<&'a str, usize>,
    component: &'a [usize],
    /// Components of the "contains inline" graph (through `Option` only).
    inline_component: &'a [usize],
    locked: &'a Holdings,
    record: RefCell<Holdings>,
}

impl Depths<'_> {
    /// Whether `target` is a type of `owner`'s component.
    fn inside(&self, target: Option<&str>, owner: usize) -> bool {
        target
            .and_then(|t| self.index.get(t))
            .is_some_and(|&t| self.component.get(t) == self.component.get(owner))
    }

    /// Whether a field or variant of `owner` of type `ty` holds a `Box` in a small cycle: when
    /// it leads back to `owner` with no `Vec` or map in between (an infinitely sized type
    /// otherwise).
    fn boxes(&self, owner: usize, ty: &TypeRef) -> bool {
        direct_target(ty)
            .and_then(|t| self.index.get(t))
            .is_some_and(|&t| self.inline_component.get(t) == self.inline_component.get(owner))
    }

    /// How the lock held a field or variant of `owner`.
    fn locked(&self, owner: usize, key: &str) -> Option<Held> {
        let holding = self.locked.get(&self.names[owner])?.get(key)?;
        Some(held_of(*holding))
    }

    /// Keeps a field's or variant's holding for the next lock.
    fn keep(&self, owner: usize, key: &str, held: Held) {
        self.record
            .borrow_mut()
            .entry(self.names[owner].clone())
            .or_default()
            .insert(key.to_owned(), holding_of(held));
    }

    /// How a field or variant of `owner` holds its edge back into its small cycle.
    fn inside_holding(&self, owner: usize, key: &str, ty: &TypeRef, mode: Mode) -> Held {
        let fresh = match self.boxes(owner, ty) {
            true => Held::Boxed,
            false => Held::Inline,
        };
        match (mode, self.locked(owner, key)) {
            (Mode::Fresh, _) => fresh,
            (Mode::Locked { .. }, Some(Held::Indirect)) => Held::Indirect,
            // A `Box` or in place as before: a field keeps its type, so whether its value
            // would contain itself does not change (a cycle only grows).
            (Mode::Locked { .. }, Some(Held::Boxed | Held::Inline)) => fresh,
            (Mode::Locked { new_indirect }, None) => match new_indirect {
                true => Held::Indirect,
                false => fresh,
            },
        }
    }

    /// How a cycle is held, when as a small one: with `Box` where its walk stays within
    /// [`SMALL_CYCLE_DEPTH`], or as the lock held it (a cycle it held with a `Box` or in
    /// place), its new edges as `Box` would or, past that, through an `Indirect`, within
    /// [`LOCKED_CYCLE_DEPTH`]; and that walk. `None`: every edge inside it holds an
    /// `Indirect`.
    fn cycle_mode(
        &self,
        types: &BTreeMap<String, TypeDef>,
        group: &[usize],
    ) -> Option<(Mode, usize)> {
        let held_small = group.iter().any(|&i| {
            types.get(&self.names[i]).is_some_and(|def| {
                slot_views(def).into_iter().any(|(key, _, ty)| {
                    key.is_some_and(|key| {
                        self.inside(wrapped(ty).1, i)
                            && matches!(self.locked(i, key), Some(Held::Boxed | Held::Inline))
                    })
                })
            })
        });
        if held_small {
            for (new_indirect, limit) in [(false, SMALL_CYCLE_DEPTH), (true, LOCKED_CYCLE_DEPTH)] {
                let mode = Mode::Locked { new_indirect };
                if let Some(walk) = self.small_cycle(types, group, mode, limit) {
                    return Some((mode, walk));
                }
            }
        }
        let walk = self.small_cycle(types, group, Mode::Fresh, SMALL_CYCLE_DEPTH)?;
        Some((Mode::Fresh, walk))
    }

    /// The bound of a walk through the cycle, its edges held by `mode` (the sum over its types
    /// of their deepest edge back into it that is not an `Indirect`); `None` past `limit`.
    fn small_cycle(
        &self,
        types: &BTreeMap<String, TypeDef>,
        group: &[usize],
        mode: Mode,
        limit: usize,
    ) -> Option<usize> {
        let mut walk = 0;
        for &i in group {
            let Some(def) = types.get(&self.names[i]) else {
                continue;
            };
            let deepest = slot_views(def)
                .into_iter()
                .filter_map(|(key, outer, ty)| {
                    let (inner, target) = wrapped(ty);
                    // An alias never holds a `Box` itself.
                    let held = match key {
                        Some(key) => self.inside_holding(i, key, ty, mode),
                        None => Held::Inline,
                    };
                    let boxed = usize::from(held == Held::Boxed);
                    (self.inside(target, i) && held != Held::Indirect)
                        .then_some(outer + inner + boxed + 1)
                })
                .max()
                .unwrap_or(0);
            walk += deepest;
            if walk > limit {
                return None;
            }
        }
        Some(walk)
    }

    /// Holds a small cycle's fields as `mode` says ([`Self::inside_holding`]) and cuts its
    /// edges out where a walk through the whole cycle (`walk` deep) and on would pass
    /// [`MAX_DROP_DEPTH`]; every type of it is then as deep as the deepest such walk.
    fn settle_small_cycle(
        &self,
        types: &mut BTreeMap<String, TypeDef>,
        group: &[usize],
        mode: Mode,
        walk: usize,
        depth: &mut [Option<usize>],
    ) {
        let mut deepest = walk;
        for &i in group {
            let Some(def) = types.get_mut(&self.names[i]) else {
                continue;
            };
            if let TypeDef::Alias(alias) = def {
                if !self.inside(wrapped(&alias.ty).1, i) {
                    deepest = deepest.max(
                        self.measure(&alias.ty, walk, depth)
                            .unwrap_or(MAX_DROP_DEPTH),
                    );
                }
                continue;
            }
            for slot in slots(def) {
                let (inner, target) = wrapped(slot.ty);
                if self.inside(target, i) {
                    let held = self.inside_holding(i, &slot.key, slot.ty, mode);
                    self.keep(i, &slot.key, held);
                    if held == Held::Indirect {
                        // Not on the walk: the drop check stops at it.
                        deepest = deepest.max(walk + slot.wrappers + inner + 1);
                        wrap_named(slot.ty);
                        *slot.held = unwrap_top(slot.ty);
                    } else {
                        // Counted in `walk`; main's `Box` where the value would contain itself.
                        *slot.held = held;
                    }
                    continue;
                }
                let locked = self.locked(i, &slot.key);
                let reached = self.cut(slot.ty, walk + slot.wrappers, i, depth, locked);
                deepest = deepest.max(reached);
                *slot.held = unwrap_top(slot.ty);
                self.keep_if_recorded(i, &slot.key, *slot.held, slot.ty, reached);
            }
        }
        for &i in group {
            depth[i] = Some(deepest);
        }
    }

    /// Keeps an edge out of a cycle or off any for the next lock when it holds an
    /// `Indirect` or walks deeper than [`RECORDED_DEPTH`].
    fn keep_if_recorded(&self, owner: usize, key: &str, held: Held, ty: &TypeRef, reached: usize) {
        if held == Held::Indirect || holds_indirect(ty) {
            self.keep(owner, key, Held::Indirect);
        } else if wrapped(ty).1.is_some() && reached > RECORDED_DEPTH {
            self.keep(owner, key, Held::Inline);
        }
    }

    /// Settles a type off any cycle or a large cycle's types: every edge inside the
    /// component and each one past [`MAX_DROP_DEPTH`] (or [`LOCKED_DROP_DEPTH`] for one the
    /// lock held in place) holds an `Indirect`. Its structs and unions first, then its
    /// aliases (which may name them).
    fn settle(
        &self,
        types: &mut BTreeMap<String, TypeDef>,
        group: &[usize],
        cyclic: bool,
        depth: &mut [Option<usize>],
    ) {
        for &i in group {
            let Some(def) = types.get_mut(&self.names[i]) else {
                continue;
            };
            if matches!(def, TypeDef::Alias(_)) {
                continue;
            }
            let deepest = slots(def)
                .into_iter()
                .map(|slot| {
                    let locked = self.locked(i, &slot.key);
                    let inside = cyclic && self.inside(wrapped(slot.ty).1, i);
                    let deepest = self.cut(slot.ty, slot.wrappers, i, depth, locked);
                    *slot.held = unwrap_top(slot.ty);
                    match inside {
                        true => self.keep(i, &slot.key, Held::Indirect),
                        false => self.keep_if_recorded(i, &slot.key, *slot.held, slot.ty, deepest),
                    }
                    deepest
                })
                .max();
            depth[i] = Some(deepest.unwrap_or(0));
        }
        let mut aliases: Vec<usize> = group
            .iter()
            .copied()
            .filter(|&i| matches!(types.get(&self.names[i]), Some(TypeDef::Alias(_))))
            .collect();
        // An alias naming another alias of its component waits for it (alias-only cycles are
        // `serde_json::Value` by now, so each round settles at least one).
        while !aliases.is_empty() {
            let before = aliases.len();
            aliases.retain(|&i| {
                let Some(TypeDef::Alias(alias)) = types.get(&self.names[i]) else {
                    return false;
                };
                match self.measure(&alias.ty, 0, depth) {
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

    /// The depth a walk from a field of type `ty` under `wrappers` generic wrappers reaches,
    /// after wrapping in `Indirect` each named type of `owner`'s component and each one past
    /// [`MAX_DROP_DEPTH`] ([`LOCKED_DROP_DEPTH`] where the lock held it in place; always
    /// where the lock held it through an `Indirect`).
    fn cut(
        &self,
        ty: &mut TypeRef,
        wrappers: usize,
        owner: usize,
        depth: &[Option<usize>],
        locked: Option<Held>,
    ) -> usize {
        match ty {
            TypeRef::Named(name) => {
                let Some(&target) = self.index.get(name.as_str()) else {
                    return wrappers;
                };
                let limit = match locked {
                    Some(Held::Inline) => LOCKED_DROP_DEPTH,
                    _ => MAX_DROP_DEPTH,
                };
                // A type of the owner's own component always; another when the walk would pass
                // the limit through it.
                if self.component.get(target) != self.component.get(owner)
                    && locked != Some(Held::Indirect)
                    && let Some(d) = depth.get(target).copied().flatten()
                    && wrappers + 1 + d <= limit
                {
                    return wrappers + 1 + d;
                }
                wrap_named(ty);
                wrappers + 1
            }
            TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Option(inner) => {
                self.cut(inner, wrappers + 1, owner, depth, locked)
            }
            // `Indirect` is what this pass writes: a slot is cut once, before it holds one.
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
            // Aliases are measured, never cut: none holds an `Indirect`.
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
mod graph_tests;
#[cfg(test)]
mod held_tests;

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::{Holdings, MAX_DROP_DEPTH, hold_edges};
    use crate::ir::{AliasDef, Field, Held, StructDef, TypeDef, TypeRef};

    fn named(name: &str) -> TypeRef {
        TypeRef::Named(name.to_owned())
    }

    fn indirect(name: &str) -> TypeRef {
        TypeRef::Indirect(Box::new(named(name)))
    }

    fn vec(ty: TypeRef) -> TypeRef {
        TypeRef::Vec(Box::new(ty))
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
                held: Held::Inline,
            })
            .collect();
        let def = StructDef {
            name: name.to_owned(),
            doc: None,
            fields,
        };
        (name.to_owned(), TypeDef::Struct(def))
    }

    fn settled(types: impl IntoIterator<Item = (String, TypeDef)>) -> BTreeMap<String, TypeDef> {
        let mut types: BTreeMap<String, TypeDef> = types.into_iter().collect();
        hold_edges(&mut types, &Holdings::new());
        types
    }

    /// Each field's holding and type.
    fn fields(types: &BTreeMap<String, TypeDef>, name: &str) -> Vec<(Held, TypeRef)> {
        match types.get(name) {
            Some(TypeDef::Struct(def)) => {
                def.fields.iter().map(|f| (f.held, f.ty.clone())).collect()
            }
            other => panic!("{name}: {other:?}"),
        }
    }

    fn holds_indirect(types: &BTreeMap<String, TypeDef>, name: &str) -> bool {
        fields(types, name)
            .iter()
            .any(|(held, ty)| *held == Held::Indirect || format!("{ty:?}").contains("Indirect"))
    }

    #[test]
    fn a_small_cycle_keeps_box_where_it_contains_itself_and_plain_vecs() {
        let types = settled([
            object("A", vec![(named("B"), true), (TypeRef::String, true)]),
            object("B", vec![(named("C"), false)]),
            object("C", vec![(vec(named("A")), true), (named("A"), false)]),
            object("D", vec![(named("A"), false)]),
            object("Tree", vec![(vec(named("Tree")), true)]),
            object("Linked", vec![(named("Linked"), false)]),
        ]);
        assert_eq!(
            fields(&types, "A"),
            [(Held::Boxed, named("B")), (Held::Inline, TypeRef::String)]
        );
        assert_eq!(fields(&types, "B"), [(Held::Boxed, named("C"))]);
        assert_eq!(
            fields(&types, "C"),
            [(Held::Inline, vec(named("A"))), (Held::Boxed, named("A"))]
        );
        // D reaches the cycle but is not on it.
        assert_eq!(fields(&types, "D"), [(Held::Inline, named("A"))]);
        assert_eq!(fields(&types, "Tree"), [(Held::Inline, vec(named("Tree")))]);
        assert_eq!(fields(&types, "Linked"), [(Held::Boxed, named("Linked"))]);
    }

    #[test]
    fn every_edge_inside_a_large_cycle_is_indirect_and_none_into_it() {
        let node = |i: usize| format!("N{:02}", i % 20);
        let types = settled(
            (0..20)
                .map(|i| {
                    object(
                        &node(i),
                        vec![
                            (named(&node(i + 1)), false),
                            (vec(named(&node(i + 7))), true),
                        ],
                    )
                })
                .chain([object("Out", vec![(named("N00"), true)])]),
        );
        for i in 0..20 {
            assert_eq!(
                fields(&types, &node(i)),
                [
                    (Held::Indirect, named(&node(i + 1))),
                    (Held::Inline, vec(indirect(&node(i + 7))))
                ]
            );
        }
        assert_eq!(fields(&types, "Out"), [(Held::Inline, named("N00"))]);
    }

    #[test]
    fn a_cycle_of_8_optional_fields_keeps_box_and_one_of_9_is_indirect() {
        for (size, held) in [(8, Held::Boxed), (9, Held::Indirect)] {
            let node = |i: usize| format!("N{}", i % size);
            let types =
                settled((0..size).map(|i| object(&node(i), vec![(named(&node(i + 1)), false)])));
            for i in 0..size {
                assert_eq!(
                    fields(&types, &node(i)),
                    [(held, named(&node(i + 1)))],
                    "{size}"
                );
            }
        }
    }

    /// A large cycle is no node: its inside edges hold an `Indirect`, where the walk stops, so
    /// each of its types is as deep as its own edges lead. A chain of 50 required fields into
    /// the type with no edge out is never cut; into the one reaching 40 types deep, it is.
    #[test]
    fn each_type_of_a_large_cycle_is_as_deep_as_its_own_edges() {
        let ring = |i: usize| format!("C{}", i % 9);
        let link = |prefix: char, i: usize| format!("{prefix}{i:04}");
        let chain = |prefix: char, length: usize, into: Option<String>| {
            (0..length).map(move |i| {
                let next = match i + 1 < length {
                    true => Some(link(prefix, i + 1)),
                    false => into.clone(),
                };
                object(
                    &link(prefix, i),
                    next.map(|next| (named(&next), true)).into_iter().collect(),
                )
            })
        };
        for (entry, cut) in [(ring(0), false), (ring(8), true)] {
            let types = settled(
                (0..9)
                    .map(|i| {
                        let mut fields = vec![(named(&ring(i + 1)), false)];
                        if i == 8 {
                            fields.push((named(&link('D', 0)), true));
                        }
                        object(&ring(i), fields)
                    })
                    .chain(chain('D', 40, None))
                    .chain(chain('E', 50, Some(entry.clone()))),
            );
            assert_eq!(
                fields(&types, &ring(0)),
                [(Held::Indirect, named(&ring(1)))]
            );
            let cuts = (0..50)
                .filter(|&i| holds_indirect(&types, &link('E', i)))
                .count();
            assert_eq!(cuts > 0, cut, "into {entry}: {cuts} cuts");
        }
    }

    /// Only the edges back into a small cycle count in its walk: a ring of 8 optional fields
    /// (24, the limit) keeps its `Box`es when one of its types also holds a deeper edge out.
    #[test]
    fn an_edge_out_of_a_small_cycle_is_not_counted_in_its_walk() {
        let node = |i: usize| format!("N{}", i % 8);
        let types = settled(
            (0..8)
                .map(|i| {
                    let mut fields = vec![(named(&node(i + 1)), false)];
                    if i == 0 {
                        fields.push((vec(vec(vec(named("Out")))), false));
                    }
                    object(&node(i), fields)
                })
                .chain([object("Out", vec![(TypeRef::String, true)])]),
        );
        for i in 0..8 {
            assert_eq!(
                fields(&types, &node(i))[0],
                (Held::Boxed, named(&node(i + 1)))
            );
        }
    }

    #[test]
    fn an_alias_on_a_small_cycle_keeps_its_target_and_the_edge_into_it_is_plain() {
        let types = settled([
            object("A", vec![(named("L"), true)]),
            (
                "L".to_owned(),
                TypeDef::Alias(AliasDef {
                    name: "L".to_owned(),
                    doc: None,
                    ty: vec(named("A")),
                }),
            ),
        ]);
        // A `Vec` breaks the containment: main's representation has no `Box` there.
        assert_eq!(fields(&types, "A"), [(Held::Inline, named("L"))]);
        match types.get("L") {
            Some(TypeDef::Alias(alias)) => assert_eq!(alias.ty, vec(named("A"))),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_edge_into_a_small_cycle_through_an_alias_counts_its_walk_only() {
        // The cycle walks 3 (A's field: 1; L's `Vec` and A: 2), so an edge into it under
        // `nesting` `Vec`s walks nesting + 1 + 3: in place up to the limit, cut past it.
        let fits = MAX_DROP_DEPTH - 1 - 3;
        for (nesting, cut) in [(fits, false), (fits + 1, true)] {
            let into = (0..nesting).fold(named("A"), |ty, _| vec(ty));
            let types = settled([
                object("A", vec![(named("L"), true)]),
                (
                    "L".to_owned(),
                    TypeDef::Alias(AliasDef {
                        name: "L".to_owned(),
                        doc: None,
                        ty: vec(named("A")),
                    }),
                ),
                object("Out", vec![(into, true)]),
            ]);
            assert_eq!(holds_indirect(&types, "Out"), cut, "{nesting}");
        }
    }

    #[test]
    fn an_alias_of_a_large_cycle_naming_another_waits_for_its_depth() {
        let alias = |name: &str, target: &str| {
            let def = AliasDef {
                name: name.to_owned(),
                doc: None,
                ty: named(target),
            };
            (name.to_owned(), TypeDef::Alias(def))
        };
        // A ring of 9 optional fields is large: each type walks 2 (its `Option` and the
        // `Indirect`'s type), B 3, and A, settled after B though named first, 4.
        let fits = MAX_DROP_DEPTH - 1 - 4;
        for (nesting, cut) in [(fits, false), (fits + 1, true)] {
            let mut types: Vec<(String, TypeDef)> = (0..9)
                .map(|i| {
                    let mut fields = vec![(named(&format!("N{}", (i + 1) % 9)), false)];
                    if i == 4 {
                        fields.push((named("A"), true));
                    }
                    object(&format!("N{i}"), fields)
                })
                .collect();
            types.push(alias("A", "B"));
            types.push(alias("B", "N0"));
            let into = (0..nesting).fold(named("A"), |ty, _| vec(ty));
            types.push(object("Out", vec![(into, true)]));
            let types = settled(types);
            assert_eq!(holds_indirect(&types, "Out"), cut, "{nesting}");
        }
    }

    /// The deepest walk from `name`: what the drop check would go through before stopping at
    /// an `Indirect` or at a type already on the walk, counted as `hold_edges` counts it.
    fn walk(types: &BTreeMap<String, TypeDef>, name: &str, on_walk: &mut Vec<String>) -> usize {
        fn of(
            types: &BTreeMap<String, TypeDef>,
            ty: &TypeRef,
            wrappers: usize,
            on_walk: &mut Vec<String>,
        ) -> usize {
            match ty {
                TypeRef::Named(name) => wrappers + 1 + walk(types, name, on_walk),
                TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Option(inner) => {
                    of(types, inner, wrappers + 1, on_walk)
                }
                TypeRef::Indirect(_) => wrappers + 1,
                _ => wrappers,
            }
        }
        if on_walk.iter().any(|n| n == name) {
            return 0;
        }
        on_walk.push(name.to_owned());
        let deepest = match types.get(name) {
            Some(TypeDef::Struct(def)) => def
                .fields
                .iter()
                .map(|f| {
                    let wrappers = usize::from(!f.required);
                    match f.held {
                        Held::Indirect => wrappers + 1,
                        Held::Boxed => of(types, &f.ty, wrappers + 1, on_walk),
                        Held::Inline => of(types, &f.ty, wrappers, on_walk),
                    }
                })
                .max()
                .unwrap_or(0),
            Some(TypeDef::Alias(alias)) => of(types, &alias.ty, 0, on_walk),
            _ => 0,
        };
        on_walk.pop();
        deepest
    }

    /// `length` types, each with an optional field of the next; the last, when `cycle` is
    /// given, reaches a cycle of that many types joined by optional fields.
    fn chain(length: usize, cycle: usize, unrelated: bool) -> BTreeMap<String, TypeDef> {
        let link = |i: usize| format!("N{i:04}");
        let ring = |i: usize| format!("C{}", i % cycle.max(1));
        settled(
            (0..length)
                .map(|i| {
                    let next = match (i + 1 < length, cycle > 0) {
                        (true, _) => Some(named(&link(i + 1))),
                        (false, true) => Some(named(&ring(0))),
                        (false, false) => None,
                    };
                    object(&link(i), next.map(|ty| (ty, false)).into_iter().collect())
                })
                .chain((0..cycle).map(|i| object(&ring(i), vec![(named(&ring(i + 1)), false)])))
                .chain(unrelated.then(|| object("Z", vec![(named("Z"), false)]))),
        )
    }

    fn cuts(types: &BTreeMap<String, TypeDef>, length: usize) -> usize {
        (0..length)
            .filter(|i| holds_indirect(types, &format!("N{i:04}")))
            .count()
    }

    #[test]
    fn a_long_chain_is_cut_where_the_walk_would_pass_the_limit_and_a_short_one_never() {
        let short = chain(20, 0, false);
        assert_eq!(cuts(&short, 20), 0);
        let long = chain(300, 0, false);
        let cut = cuts(&long, 300);
        // Each optional edge is two levels deep (the `Option`, the type): one cut per 32.
        assert!((300 / 32..=300 / 31).contains(&cut), "{cut} cuts");
        for i in 0..300 {
            let deepest = walk(&long, &format!("N{i:04}"), &mut Vec::new());
            assert!(deepest <= MAX_DROP_DEPTH, "N{i:04}: {deepest}");
        }
        // An unrelated type moves no cut.
        let with_other = chain(300, 0, true);
        for i in 0..300 {
            let name = format!("N{i:04}");
            assert_eq!(fields(&long, &name), fields(&with_other, &name));
        }
    }

    #[test]
    fn a_chain_into_a_small_cycle_counts_the_cycle_as_its_deepest_walk() {
        for length in [10, 27, 28, 300] {
            let types = chain(length, 3, false);
            for i in 0..3 {
                let name = format!("C{i}");
                assert_eq!(
                    fields(&types, &name),
                    [(Held::Boxed, named(&format!("C{}", (i + 1) % 3)))]
                );
            }
            for name in (0..length)
                .map(|i| format!("N{i:04}"))
                .chain(["C0".to_owned()])
            {
                let deepest = walk(&types, &name, &mut Vec::new());
                assert!(deepest <= MAX_DROP_DEPTH, "{length}: {name}: {deepest}");
            }
            // The cycle walks 9 deep (3 × `Option`, `Box`, the type) and each link adds 2: 27
            // links reach 63, 28 would reach 65 and need a cut (counting the cycle as one type
            // would not cut them).
            assert_eq!(cuts(&types, length) == 0, length <= 27, "{length} links");
        }
    }

    #[test]
    fn a_chain_of_arrays_counts_each_vec_as_a_level() {
        let link = |i: usize| format!("N{i:04}");
        let length = 40;
        let types = settled((0..length).map(|i| {
            let next = (i + 1 < length).then(|| (vec(named(&link(i + 1))), true));
            object(&link(i), next.into_iter().collect())
        }));
        // Each edge is two levels (the `Vec`, the type): 40 links pass 64 once.
        assert_eq!(cuts(&types, length), 1);
        for i in 0..length {
            let deepest = walk(&types, &link(i), &mut Vec::new());
            assert!(deepest <= MAX_DROP_DEPTH, "{}: {deepest}", link(i));
        }
    }

    #[test]
    fn nullable_fields_that_contain_each_other_are_boxed() {
        let option = |name: &str| TypeRef::Option(Box::new(named(name)));
        let types = settled([
            object("A", vec![(option("B"), true)]),
            object("B", vec![(option("A"), true)]),
        ]);
        assert_eq!(fields(&types, "A"), [(Held::Boxed, option("B"))]);
        assert_eq!(fields(&types, "B"), [(Held::Boxed, option("A"))]);
    }

    #[test]
    fn an_edge_out_of_a_small_cycle_is_cut_when_the_walk_through_it_would_pass_the_limit() {
        let link = |i: usize| format!("N{i:04}");
        let length = 30;
        let types = settled(
            (0..length)
                .map(|i| {
                    let next = (i + 1 < length).then(|| (named(&link(i + 1)), false));
                    object(&link(i), next.into_iter().collect())
                })
                .chain([
                    object("C0", vec![(named("C1"), false), (named(&link(0)), false)]),
                    object("C1", vec![(named("C2"), false)]),
                    object("C2", vec![(named("C0"), false)]),
                ]),
        );
        assert_eq!(
            fields(&types, "C0"),
            [
                (Held::Boxed, named("C1")),
                (Held::Indirect, named(&link(0)))
            ]
        );
        for name in ["C0", "C1", "C2"] {
            let deepest = walk(&types, name, &mut Vec::new());
            assert!(deepest <= MAX_DROP_DEPTH, "{name}: {deepest}");
        }
    }

    #[test]
    fn a_cycle_of_12_arrays_keeps_plain_vecs_and_one_of_13_is_indirect() {
        for (size, small) in [(12, true), (13, false)] {
            let node = |i: usize| format!("N{:02}", i % size);
            let types = settled(
                (0..size).map(|i| object(&node(i), vec![(vec(named(&node(i + 1))), true)])),
            );
            let expected = match small {
                true => vec(named(&node(1))),
                false => vec(indirect(&node(1))),
            };
            assert_eq!(
                fields(&types, &node(0)),
                [(Held::Inline, expected)],
                "{size}"
            );
        }
    }

    #[test]
    fn a_chain_of_required_fields_is_cut_once_per_64_types() {
        let link = |i: usize| format!("N{i:04}");
        let length = 200;
        let types = settled((0..length).map(|i| {
            let next = (i + 1 < length).then(|| (named(&link(i + 1)), true));
            object(&link(i), next.into_iter().collect())
        }));
        // Each required edge is one level (the type): a cut every 64 links.
        assert_eq!(cuts(&types, length), (length - 1) / MAX_DROP_DEPTH);
        for i in 0..length {
            let deepest = walk(&types, &link(i), &mut Vec::new());
            assert!(deepest <= MAX_DROP_DEPTH, "{}: {deepest}", link(i));
        }
    }

    #[test]
    fn a_chain_through_aliases_counts_them_and_is_cut_in_time() {
        let link = |i: usize| format!("N{i:04}");
        let alias = |i: usize| format!("L{i:04}");
        let length = 60;
        let types = settled((0..length).flat_map(|i| {
            let next = (i + 1 < length).then(|| (named(&alias(i)), true));
            [
                object(&link(i), next.into_iter().collect()),
                (
                    alias(i),
                    TypeDef::Alias(AliasDef {
                        name: alias(i),
                        doc: None,
                        ty: vec(named(&link(i + 1))),
                    }),
                ),
            ]
        }));
        // Each link is three levels (the alias, its `Vec`, the type): a cut about every 21.
        let cut = cuts(&types, length);
        assert!((2..=3).contains(&cut), "{cut} cuts");
        for i in 0..length {
            let deepest = walk(&types, &link(i), &mut Vec::new());
            assert!(deepest <= MAX_DROP_DEPTH, "{}: {deepest}", link(i));
        }
    }

    #[test]
    fn an_edge_out_of_a_small_cycle_is_cut_exactly_when_the_walk_would_pass_the_limit() {
        let link = |i: usize| format!("N{i:04}");
        for length in 20..34 {
            let types = settled(
                (0..length)
                    .map(|i| {
                        let next = (i + 1 < length).then(|| (named(&link(i + 1)), false));
                        object(&link(i), next.into_iter().collect())
                    })
                    .chain([
                        object("C0", vec![(named("C1"), false), (named(&link(0)), false)]),
                        object("C1", vec![(named("C2"), false)]),
                        object("C2", vec![(named("C0"), false)]),
                    ]),
            );
            // The cycle walks 9 (3 × `Option`, `Box`, the type), the edge out 2, the chain 2
            // per link after its first.
            let through = 9 + 2 + 2 * (length - 1);
            let held = fields(&types, "C0")[1].0;
            assert_eq!(
                held == Held::Indirect,
                through > MAX_DROP_DEPTH,
                "{length} links"
            );
        }
    }
}
