//! Tests of the graph rules under `hold_edges` and the builder, each against a brute-force
//! reading of its definition over every small graph: strongly connected components (and
//! their sources-first order), alias-only cycles, and `$ref` chains resolved to their schema.

use std::collections::{BTreeMap, HashMap};

use indexmap::IndexMap;
use openapiv3::{ReferenceOr, Schema};

use super::{alias_cycles, resolve_aliases, strongly_connected_components};
use crate::ir::{AliasDef, StructDef, TypeDef, TypeRef};

/// `reach[i][j]`: a path of one edge or more leads from `i` to `j`.
fn reachability(edges: &[Vec<usize>]) -> Vec<Vec<bool>> {
    let n = edges.len();
    let mut reach = vec![vec![false; n]; n];
    for (from, targets) in edges.iter().enumerate() {
        for &to in targets {
            reach[from][to] = true;
        }
    }
    for via in 0..n {
        for from in 0..n {
            for to in 0..n {
                if reach[from][via] && reach[via][to] {
                    reach[from][to] = true;
                }
            }
        }
    }
    reach
}

/// Every directed graph on `n` nodes (self-loops included when `loops`), by adjacency bits.
fn every_graph(n: usize, loops: bool) -> impl Iterator<Item = Vec<Vec<usize>>> {
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|from| (0..n).map(move |to| (from, to)))
        .filter(|(from, to)| loops || from != to)
        .collect();
    (0u32..1 << pairs.len()).map(move |bits| {
        let mut edges = vec![Vec::new(); n];
        for (bit, &(from, to)) in pairs.iter().enumerate() {
            if bits & (1 << bit) != 0 {
                edges[from].push(to);
            }
        }
        edges
    })
}

fn check_components(edges: &[Vec<usize>]) {
    let component = strongly_connected_components(edges);
    let reach = reachability(edges);
    assert_eq!(component.len(), edges.len(), "{edges:?}");
    for a in 0..edges.len() {
        for b in 0..edges.len() {
            let together = a == b || (reach[a][b] && reach[b][a]);
            assert_eq!(
                component[a] == component[b],
                together,
                "{a} and {b} in {edges:?}: {component:?}"
            );
        }
    }
    // `hold_edges` settles from the last component: an edge never leads to an earlier one.
    for (from, targets) in edges.iter().enumerate() {
        for &to in targets {
            assert!(
                component[from] <= component[to],
                "{from} -> {to} in {edges:?}: {component:?}"
            );
        }
    }
}

#[test]
fn components_are_the_mutually_reachable_sets_numbered_sources_first() {
    for edges in every_graph(3, true) {
        check_components(&edges);
    }
    for edges in every_graph(4, false) {
        check_components(&edges);
    }
}

#[test]
fn a_long_chain_and_a_long_ring_are_components_without_recursion() {
    let n = 100_000;
    let chain: Vec<Vec<usize>> = (0..n)
        .map(|i| if i + 1 < n { vec![i + 1] } else { Vec::new() })
        .collect();
    let component = strongly_connected_components(&chain);
    assert!(component.windows(2).all(|w| w[0] < w[1]));
    let ring: Vec<Vec<usize>> = (0..n).map(|i| vec![(i + 1) % n]).collect();
    let component = strongly_connected_components(&ring);
    assert!(component.iter().all(|&c| c == component[0]));
}

/// What an alias of `target` looks like under wrapper number `wrapper`.
fn wrapped_in(wrapper: usize, target: TypeRef) -> TypeRef {
    match wrapper {
        0 => target,
        1 => TypeRef::Vec(Box::new(target)),
        2 => TypeRef::Map(Box::new(target)),
        _ => TypeRef::Option(Box::new(target)),
    }
}

/// Three aliases `A0`..`A2` (the first two components, keyed `key-0`, `key-1`; `A2` inline)
/// and a struct `S`: each alias names `targets[i]` (an alias, `S` at 3, a string at 4) under
/// wrapper `wrappers[i]`.
fn aliases(targets: [usize; 3], wrappers: [usize; 3]) -> BTreeMap<String, TypeDef> {
    let mut types = BTreeMap::new();
    for (i, (&target, &wrapper)) in targets.iter().zip(&wrappers).enumerate() {
        let target = match target {
            0..=2 => TypeRef::Named(format!("A{target}")),
            3 => TypeRef::Named("S".to_owned()),
            _ => TypeRef::String,
        };
        let alias = AliasDef {
            name: format!("A{i}"),
            doc: None,
            ty: wrapped_in(wrapper, target),
        };
        types.insert(format!("A{i}"), TypeDef::Alias(alias));
    }
    let def = StructDef {
        name: "S".to_owned(),
        doc: None,
        fields: Vec::new(),
    };
    types.insert("S".to_owned(), TypeDef::Struct(def));
    types
}

#[test]
fn an_alias_is_refused_exactly_when_it_names_itself_through_aliases() {
    let component_names: BTreeMap<String, String> = [("key-0", "A0"), ("key-1", "A1")]
        .into_iter()
        .map(|(key, name)| (key.to_owned(), name.to_owned()))
        .collect();
    let choices = |n: usize| (0..n.pow(3)).map(move |x| [x % n, x / n % n, x / n / n]);
    for targets in choices(5) {
        for wrappers in choices(4) {
            let types = aliases(targets, wrappers);
            let edges: Vec<Vec<usize>> = targets
                .iter()
                .map(|&t| if t < 3 { vec![t] } else { Vec::new() })
                .collect();
            let reach = reachability(&edges);
            let expected: Vec<(String, String)> = (0..3)
                .filter(|&i| reach[i][i])
                .map(|i| {
                    let key = match i {
                        2 => "A2".to_owned(),
                        _ => format!("key-{i}"),
                    };
                    (format!("A{i}"), format!("#/components/schemas/{key}"))
                })
                .collect();
            assert_eq!(
                alias_cycles(&types, &component_names),
                expected,
                "{targets:?} under {wrappers:?}"
            );
        }
    }
}

/// Keys `K0`..`K2` in `order`: each a schema (`None`) or a `$ref` (to a key, a missing key
/// at 3, a response at 4).
fn schemas(refs: [Option<usize>; 3], order: [usize; 3]) -> IndexMap<String, ReferenceOr<Schema>> {
    let mut out = IndexMap::new();
    for &i in &order {
        let entry = match refs[i] {
            None => serde_json::json!({"type": "string"}),
            Some(4) => serde_json::json!({"$ref": "#/components/responses/K0"}),
            Some(3) => serde_json::json!({"$ref": "#/components/schemas/Missing"}),
            Some(t) => serde_json::json!({"$ref": format!("#/components/schemas/K{t}")}),
        };
        let entry: ReferenceOr<Schema> = match serde_json::from_value(entry) {
            Ok(entry) => entry,
            Err(e) => panic!("{e}"),
        };
        out.insert(format!("K{i}"), entry);
    }
    out
}

#[test]
fn each_ref_chain_resolves_to_the_schema_it_ends_in_whatever_the_order() {
    let orders = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let choice = |x: usize| match x {
        5 => None,
        t => Some(t),
    };
    for x in 0..216 {
        let refs = [choice(x % 6), choice(x / 6 % 6), choice(x / 36)];
        // By definition: follow at most three `$ref`s to a schema.
        let mut expected: HashMap<String, String> = HashMap::new();
        for start in 0..3 {
            let mut at = start;
            for _ in 0..3 {
                match refs[at] {
                    None => {
                        expected.insert(format!("K{start}"), format!("K{at}"));
                        break;
                    }
                    Some(t) if t < 3 => at = t,
                    Some(_) => break,
                }
            }
        }
        for order in orders {
            let doc = schemas(refs, order);
            let resolved: HashMap<String, String> = resolve_aliases(&doc)
                .into_iter()
                .map(|(key, target)| (key.to_owned(), target.to_owned()))
                .collect();
            assert_eq!(resolved, expected, "{refs:?} in order {order:?}");
        }
    }
}
