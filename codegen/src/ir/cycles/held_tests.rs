//! Tests of the holdings the names lock keeps (`hold_edges`' `locked` and what it records):
//! additive changes to a document move no existing `Box` or `Indirect`, within the limits.

use std::collections::BTreeMap;

use super::{
    Holdings, LOCKED_CYCLE_DEPTH, LOCKED_DROP_DEPTH, MAX_DROP_DEPTH, RECORDED_DEPTH, hold_edges,
};
use crate::ir::{Field, Held, StructDef, TypeDef, TypeRef};
use crate::lock::Holding;

fn named(name: &str) -> TypeRef {
    TypeRef::Named(name.to_owned())
}

/// A field: `(wire name, type, required, nullable)`.
type Spec<'a> = (&'a str, TypeRef, bool, bool);

fn object(name: &str, fields: Vec<Spec<'_>>) -> (String, TypeDef) {
    let fields = fields
        .into_iter()
        .map(|(wire, ty, required, nullable)| Field {
            wire_name: wire.to_owned(),
            rust_name: wire.to_owned(),
            doc: None,
            ty,
            required,
            nullable,
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

/// The types settled under `locked`, and what they record for the next lock.
fn settle(types: &[(String, TypeDef)], locked: &Holdings) -> (BTreeMap<String, TypeDef>, Holdings) {
    let mut types: BTreeMap<String, TypeDef> = types.iter().cloned().collect();
    let record = hold_edges(&mut types, locked);
    (types, record)
}

/// Each field's holding, by type and wire name: `Indirect` wherever one was written.
fn holdings(types: &BTreeMap<String, TypeDef>) -> BTreeMap<(String, String), Held> {
    let mut out = BTreeMap::new();
    for (name, def) in types {
        if let TypeDef::Struct(def) = def {
            for field in &def.fields {
                let held = match format!("{:?}", field.ty).contains("Indirect") {
                    true => Held::Indirect,
                    false => field.held,
                };
                out.insert((name.clone(), field.wire_name.clone()), held);
            }
        }
    }
    out
}

/// A ring of `size` types, each with an optional field of the next; `extra` adds fields.
fn ring(size: usize, extra: &[(usize, Spec<'_>)]) -> Vec<(String, TypeDef)> {
    let node = |i: usize| format!("N{}", i % size);
    (0..size)
        .map(|i| {
            let mut fields = vec![("next", named(&node(i + 1)), false, false)];
            fields.extend(
                extra
                    .iter()
                    .filter(|(at, _)| *at == i)
                    .map(|(_, spec)| spec.clone()),
            );
            object(&node(i), fields)
        })
        .collect()
}

/// The holdings of `after` for the fields `before` has.
fn existing(
    before: &BTreeMap<(String, String), Held>,
    after: &BTreeMap<(String, String), Held>,
) -> BTreeMap<(String, String), Held> {
    after
        .iter()
        .filter(|(key, _)| before.contains_key(*key))
        .map(|(key, held)| (key.clone(), *held))
        .collect()
}

#[test]
fn a_field_added_to_a_ring_of_8_moves_no_box() {
    let (first, lock) = settle(&ring(8, &[]), &Holdings::new());
    let before = holdings(&first);
    assert!(
        before.values().all(|held| *held == Held::Boxed),
        "{before:?}"
    );
    // The ring is in the lock, field by field.
    assert_eq!(lock.len(), 8);
    assert_eq!(
        lock.get("N0").and_then(|h| h.get("next")),
        Some(&Holding::Box)
    );
    // One optional nullable field back into the ring: its walk is 25, past 24.
    let back = (0, ("back", named("N3"), false, true));
    let grown = ring(8, &[back]);
    let (fresh, _) = settle(&grown, &Holdings::new());
    assert!(
        holdings(&fresh)
            .values()
            .all(|held| *held == Held::Indirect),
        "held afresh every edge flips"
    );
    let (kept, next_lock) = settle(&grown, &lock);
    let after = holdings(&kept);
    assert_eq!(existing(&before, &after), before);
    // The new edge takes the `Indirect` the limit needs, and the next lock keeps it.
    assert_eq!(
        after.get(&("N0".into(), "back".into())),
        Some(&Held::Indirect)
    );
    assert_eq!(
        next_lock.get("N0").and_then(|h| h.get("back")),
        Some(&Holding::Indirect)
    );
    // Generating again from that lock changes nothing.
    let (again, again_lock) = settle(&grown, &next_lock);
    assert_eq!(again, kept);
    assert_eq!(again_lock, next_lock);
}

#[test]
fn a_new_edge_that_fits_a_locked_ring_is_boxed_as_ever() {
    let (_, lock) = settle(&ring(4, &[]), &Holdings::new());
    // 4 × 3 = 12, and 13 with the nullable field: still small.
    let back = (0, ("back", named("N2"), false, true));
    let (kept, _) = settle(&ring(4, &[back]), &lock);
    assert!(holdings(&kept).values().all(|held| *held == Held::Boxed));
}

#[test]
fn a_locked_ring_grown_past_its_limit_is_held_afresh() {
    // 16 types of 3 levels each walk 48: the most a locked ring keeps.
    assert_eq!(16 * 3, LOCKED_CYCLE_DEPTH);
    let mut lock = Holdings::new();
    for i in 0..17 {
        lock.entry(format!("N{i}"))
            .or_default()
            .insert("next".into(), Holding::Box);
    }
    let (kept, _) = settle(&ring(16, &[]), &lock);
    assert!(holdings(&kept).values().all(|held| *held == Held::Boxed));
    let (afresh, record) = settle(&ring(17, &[]), &lock);
    assert!(
        holdings(&afresh)
            .values()
            .all(|held| *held == Held::Indirect)
    );
    assert_eq!(
        record.get("N0").and_then(|h| h.get("next")),
        Some(&Holding::Indirect)
    );
}

#[test]
fn a_locked_indirect_stays_where_a_fresh_pass_would_hold_in_place() {
    let types = vec![
        object("A", vec![("b", named("B"), true, false)]),
        object("B", vec![("id", TypeRef::String, true, false)]),
    ];
    let (fresh, record) = settle(&types, &Holdings::new());
    assert_eq!(
        holdings(&fresh).get(&("A".into(), "b".into())),
        Some(&Held::Inline)
    );
    // A shallow edge held in place is not worth a line in the lock.
    assert!(record.is_empty(), "{record:?}");
    let lock = Holdings::from([(
        "A".to_owned(),
        BTreeMap::from([("b".to_owned(), Holding::Indirect)]),
    )]);
    let (kept, record) = settle(&types, &lock);
    assert_eq!(
        holdings(&kept).get(&("A".into(), "b".into())),
        Some(&Held::Indirect)
    );
    assert_eq!(record, lock);
}

/// `length` types, each with a required field of the next; the last with `leaf` fields.
fn chain(length: usize, leaf: Vec<Spec<'static>>) -> Vec<(String, TypeDef)> {
    let link = |i: usize| format!("L{i:03}");
    (0..length)
        .map(|i| match i + 1 < length {
            true => object(&link(i), vec![("next", named(&link(i + 1)), true, false)]),
            false => object(&link(i), leaf.clone()),
        })
        .collect()
}

#[test]
fn a_field_added_at_the_end_of_a_chain_moves_no_cut() {
    // Each required link is one level: the first edge of 65 types walks 64, the limit.
    let (first, lock) = settle(&chain(65, vec![]), &Holdings::new());
    let before = holdings(&first);
    assert!(
        before.values().all(|held| *held == Held::Inline),
        "{before:?}"
    );
    // The deep edges are in the lock, the shallow ones are not.
    let recorded: Vec<&String> = lock.keys().collect();
    assert_eq!(
        recorded.len(),
        MAX_DROP_DEPTH - RECORDED_DEPTH,
        "{recorded:?}"
    );
    assert!(lock.contains_key("L000") && !lock.contains_key("L040"));
    // One optional field at the end: the first edge would walk 65.
    let grown = chain(65, vec![("note", TypeRef::String, false, false)]);
    let (fresh, _) = settle(&grown, &Holdings::new());
    assert_eq!(
        holdings(&fresh).get(&("L000".into(), "next".into())),
        Some(&Held::Indirect),
        "held afresh the first link is cut"
    );
    let (kept, _) = settle(&grown, &lock);
    assert_eq!(existing(&before, &holdings(&kept)), before);
}

#[test]
fn a_locked_edge_in_place_is_cut_past_its_own_limit() {
    let (_, lock) = settle(&chain(65, vec![]), &Holdings::new());
    // 16 more levels below the leaf keep it in place; 17 cut it.
    for (below, held) in [
        (LOCKED_DROP_DEPTH - 64, Held::Inline),
        (LOCKED_DROP_DEPTH - 63, Held::Indirect),
    ] {
        let tail: Vec<(String, TypeDef)> = (0..below)
            .map(|i| {
                let fields = match i + 1 < below {
                    true => vec![("next", named(&format!("T{:03}", i + 1)), true, false)],
                    false => vec![],
                };
                object(&format!("T{i:03}"), fields)
            })
            .collect();
        let mut grown = chain(65, vec![("tail", named("T000"), true, false)]);
        grown.extend(tail);
        let (kept, _) = settle(&grown, &lock);
        assert_eq!(
            holdings(&kept).get(&("L000".into(), "next".into())),
            Some(&held),
            "{below} below"
        );
    }
}

#[test]
fn a_new_edge_through_a_vec_of_a_locked_ring_past_its_limit_holds_an_indirect_inside() {
    // A locked ring of 16 walks LOCKED_CYCLE_DEPTH: a new edge back into it is an `Indirect`,
    // under the `Vec` it sits in, and off the walk; the ring is as deep as that edge: 48 and
    // its `Option`, `Vec` and type, 51. An edge into it under `nesting` `Vec`s walks
    // nesting + 1 + 51: in place up to the limit, cut past it.
    let mut lock = Holdings::new();
    for i in 0..16 {
        lock.entry(format!("N{i}"))
            .or_default()
            .insert("next".into(), Holding::Box);
    }
    let fits = MAX_DROP_DEPTH - 1 - (LOCKED_CYCLE_DEPTH + 3);
    for (nesting, cut) in [(fits, Held::Inline), (fits + 1, Held::Indirect)] {
        let items = (
            0,
            ("items", TypeRef::Vec(Box::new(named("N5"))), false, false),
        );
        let mut types = ring(16, &[items]);
        let into = (0..nesting).fold(named("N0"), |ty, _| TypeRef::Vec(Box::new(ty)));
        types.push(object("Out", vec![("into", into, true, false)]));
        let (kept, record) = settle(&types, &lock);
        let held = holdings(&kept);
        assert_eq!(
            held.get(&("N0".into(), "items".into())),
            Some(&Held::Indirect),
            "{held:?}"
        );
        assert_eq!(
            held.values().filter(|held| **held == Held::Boxed).count(),
            16
        );
        assert_eq!(
            record.get("N0").and_then(|h| h.get("items")),
            Some(&Holding::Indirect)
        );
        assert_eq!(
            held.get(&("Out".into(), "into".into())),
            Some(&cut),
            "{nesting}"
        );
    }
}

#[test]
fn an_edge_cut_inside_its_vec_is_recorded_as_indirect() {
    // The chain's first type walks one less than the limit: through a `Vec` and the type,
    // the edge into it passes the limit and is cut inside the `Vec`; one type shorter, not.
    for (length, cut) in [(MAX_DROP_DEPTH, true), (MAX_DROP_DEPTH - 1, false)] {
        let mut types = chain(length, vec![]);
        types.push(object(
            "Top",
            vec![("all", TypeRef::Vec(Box::new(named("L000"))), true, false)],
        ));
        let (settled, record) = settle(&types, &Holdings::new());
        let Some(TypeDef::Struct(top)) = settled.get("Top") else {
            panic!("{settled:?}")
        };
        let expected = match cut {
            true => TypeRef::Vec(Box::new(TypeRef::Indirect(Box::new(named("L000"))))),
            false => TypeRef::Vec(Box::new(named("L000"))),
        };
        assert_eq!(top.fields[0].ty, expected, "{length}");
        assert_eq!(top.fields[0].held, Held::Inline, "{length}");
        let recorded = match cut {
            true => Holding::Indirect,
            false => Holding::Inline,
        };
        assert_eq!(
            record.get("Top").and_then(|h| h.get("all")),
            Some(&recorded),
            "{length}"
        );
    }
}

#[test]
fn a_large_ring_records_its_own_edges_and_not_a_shallow_one_out() {
    let leaf = (0, ("leaf", named("Leaf"), true, false));
    let mut types = ring(9, &[leaf]);
    types.push(object("Leaf", vec![("id", TypeRef::String, true, false)]));
    let (settled, record) = settle(&types, &Holdings::new());
    let held = holdings(&settled);
    assert_eq!(held.get(&("N0".into(), "leaf".into())), Some(&Held::Inline));
    assert_eq!(
        record.get("N0"),
        Some(&BTreeMap::from([("next".to_owned(), Holding::Indirect)])),
        "{record:?}"
    );
}
