//! Structurally identical types emitted once. Large documents repeat inline schemas: a
//! `fields[apps]` query enum per operation, a relationship's `{type, id}` per resource, a
//! component's enum copied into a parameter. Every type whose definition, and everything it
//! reaches, is the same as another's but for its name (and its own doc) becomes an alias
//! (`pub type Name = Canonical;`) of one of them: each name stays, as the names lock gave it,
//! and the compiler checks one definition instead of many.
//!
//! Only inline types become aliases: a component keeps its definition (its name is the
//! document's), and is the one the others name when it has inline twins. Twins must also be
//! reached the same way (by requests, request bodies and responses), so that the shared type
//! gets the same serde impls and `Patch` fields each of them would have had.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{AliasDef, Operation, ResponseKind, TypeDef, TypeRef, reachable};

/// Turns every inline type identical to another (see the module doc) into an alias of the
/// class's canonical type: the one the lock's `shared` names for a member, if it is one
/// (so a newcomer twin changes nothing), else its component if it has one (the first by
/// name), else its first member by name. Returns each alias made with the types its own definition held (which
/// nothing may reach any more, yet keep the features that compiled them: see
/// [`Api::shared`](super::Api::shared)).
pub(super) fn share_identical(
    types: &mut BTreeMap<String, TypeDef>,
    operations: &[Operation],
    components: &BTreeSet<&str>,
    locked: &BTreeMap<String, String>,
) -> Shared {
    let sides = Sides::of(types, operations);
    let candidates: Vec<&String> = types
        .iter()
        .filter(|(_, def)| !matches!(def, TypeDef::Alias(_)))
        .map(|(name, _)| name)
        .collect();
    // Each candidate's shape without the names it refers to (those are refined below), and
    // the names it refers to, in order.
    let shallow: BTreeMap<&str, (String, Vec<String>)> = candidates
        .iter()
        .map(|name| {
            let def = &types[*name];
            let (shape, refs) = shallow_shape(def);
            // An enum has every impl whichever way it is reached; the others' impls and
            // storage depend on it.
            let side = match def {
                TypeDef::Enum(_) | TypeDef::IntEnum(_) | TypeDef::ValueEnum(_) => String::new(),
                _ => sides.of_type(name),
            };
            (name.as_str(), (format!("{side}{shape}"), refs))
        })
        .collect();
    let initial = numbered(
        shallow
            .iter()
            .map(|(name, (shape, _))| (*name, shape.clone())),
    );
    let class = refine(&shallow, &initial, components);
    let mut members: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for (name, id) in shallow.keys().zip(&class) {
        members.entry(*id).or_default().push(name);
    }
    let mut aliases = BTreeMap::new();
    // A class of one makes no alias: its canonical type is itself.
    for names in members.values() {
        // Sorted by name already (the map's order); what the lock kept, else a component.
        let kept = names
            .iter()
            .filter_map(|name| locked.get(*name))
            .find(|canonical| names.contains(&canonical.as_str()));
        let canonical = match kept {
            Some(kept) => kept.as_str(),
            None => names
                .iter()
                .find(|name| components.contains(*name))
                .unwrap_or(&names[0]),
        };
        for name in names {
            if *name != canonical && !components.contains(name) {
                aliases.insert((*name).to_owned(), canonical.to_owned());
            }
        }
    }
    let held = aliases
        .keys()
        .map(|name| {
            let refs = shallow.get(name.as_str()).map(|(_, refs)| refs.clone());
            (name.clone(), refs.unwrap_or_default())
        })
        .collect();
    let shared = Shared {
        held,
        canonical: aliases.clone(),
    };
    for (name, canonical) in &aliases {
        let doc = types.get(name).and_then(own_doc);
        types.insert(
            name.clone(),
            TypeDef::Alias(AliasDef {
                name: name.clone(),
                doc,
                ty: TypeRef::Named(canonical.clone()),
            }),
        );
    }
    shared
}

/// What a reference stands for when two types are compared: a component by its name (never an
/// alias), an inline type by its class's first component if the class has one (it becomes an
/// alias of it) else by its class, and a name the candidates lack (an alias) by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Identity {
    Component(usize),
    Class(usize),
    Other(usize),
}

/// A type's reference: to a candidate (by index), or to another name (interned).
#[derive(Debug, Clone, Copy)]
enum Target {
    Candidate(usize),
    Other(usize),
}

/// The partition of the candidates as it is refined: each one's class, each class's members,
/// and each class's components (the first by name is the one its inline members name).
struct Partition {
    class: Vec<usize>,
    members: Vec<Vec<usize>>,
    /// Where each candidate is in its class's `members`.
    position: Vec<usize>,
    components: Vec<BTreeSet<usize>>,
    is_component: Vec<bool>,
}

impl Partition {
    fn identity(&self, target: Target) -> Identity {
        match target {
            Target::Other(other) => Identity::Other(other),
            Target::Candidate(t) if self.is_component[t] => Identity::Component(t),
            Target::Candidate(t) => {
                let class = self.class[t];
                match self.components[class].first() {
                    Some(&first) => Identity::Component(first),
                    None => Identity::Class(class),
                }
            }
        }
    }

    fn key(&self, refs: &[Target]) -> Vec<Identity> {
        refs.iter().map(|&target| self.identity(target)).collect()
    }

    /// Moves `moved` out of its class into a new one; returns the new class.
    fn split_off(&mut self, moved: &[usize]) -> usize {
        let new = self.members.len();
        self.members.push(Vec::with_capacity(moved.len()));
        self.components.push(BTreeSet::new());
        for &x in moved {
            let old = self.class[x];
            let at = self.position[x];
            self.members[old].swap_remove(at);
            if let Some(&shifted) = self.members[old].get(at) {
                self.position[shifted] = at;
            }
            self.components[old].remove(&x);
            self.class[x] = new;
            self.position[x] = self.members[new].len();
            self.members[new].push(x);
            if self.is_component[x] {
                self.components[new].insert(x);
            }
        }
        new
    }
}

/// The coarsest partition finer than `initial` in which two types of a class refer, position by
/// position, to what will be the same Rust type ([`Identity`]), by class number per candidate
/// (in `shallow`'s order). Rounds as if every type were re-keyed against the previous round's
/// partition, but only the types referring to one whose identity changed are: each round costs
/// what changed, not the whole document (a chain of twins splits one class per round).
fn refine(
    shallow: &BTreeMap<&str, (String, Vec<String>)>,
    initial: &BTreeMap<&str, usize>,
    components: &BTreeSet<&str>,
) -> Vec<usize> {
    let index: BTreeMap<&str, usize> = shallow
        .keys()
        .enumerate()
        .map(|(i, name)| (*name, i))
        .collect();
    let mut others: BTreeMap<&str, usize> = BTreeMap::new();
    let refs: Vec<Vec<Target>> = shallow
        .values()
        .map(|(_, refs)| {
            refs.iter()
                .map(|target| match index.get(target.as_str()) {
                    Some(&t) => Target::Candidate(t),
                    None => {
                        let next = others.len();
                        Target::Other(*others.entry(target.as_str()).or_insert(next))
                    }
                })
                .collect()
        })
        .collect();
    let count = refs.len();
    let mut referrers: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (x, targets) in refs.iter().enumerate() {
        for target in targets {
            if let Target::Candidate(t) = target {
                referrers[*t].push(x);
            }
        }
    }
    let class: Vec<usize> = shallow.keys().map(|name| initial[name]).collect();
    let classes = class.iter().max().map_or(0, |last| last + 1);
    let is_component: Vec<bool> = shallow
        .keys()
        .map(|name| components.contains(name))
        .collect();
    let mut partition = Partition {
        members: vec![Vec::new(); classes],
        position: vec![0; count],
        components: vec![BTreeSet::new(); classes],
        class,
        is_component,
    };
    for x in 0..count {
        let c = partition.class[x];
        partition.position[x] = partition.members[c].len();
        partition.members[c].push(x);
        if partition.is_component[x] {
            partition.components[c].insert(x);
        }
    }
    // The first round keys every type; later ones the referrers of what changed.
    let mut dirty: Vec<usize> = (0..count).collect();
    let mut marked = vec![false; count];
    loop {
        let mut by_class: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &x in &dirty {
            marked[x] = true;
            by_class.entry(partition.class[x]).or_default().push(x);
        }
        // Every split of this round, against the partition as the round found it.
        let mut splits: Vec<(usize, Vec<Vec<usize>>)> = Vec::new();
        for (&c, keyed) in &by_class {
            let members = &partition.members[c];
            if members.len() < 2 {
                continue;
            }
            // The members not re-keyed share one key: the previous round put them together
            // and nothing they refer to changed.
            let unchanged = members
                .iter()
                .find(|&&x| !marked[x])
                .map(|&x| partition.key(&refs[x]));
            let mut group_of: HashMap<Vec<Identity>, usize> = HashMap::new();
            let mut groups: Vec<Vec<usize>> = Vec::new();
            for &x in keyed {
                let next = groups.len();
                let at = *group_of.entry(partition.key(&refs[x])).or_insert(next);
                match groups.get_mut(at) {
                    Some(group) => group.push(x),
                    None => groups.push(vec![x]),
                }
            }
            // The group that keeps the class: the unchanged members' (if any re-keyed member
            // joins them), else, all being re-keyed, the largest.
            let stays = match unchanged {
                Some(unchanged) => group_of.get(&unchanged).copied(),
                None => (0..groups.len()).max_by_key(|&i| (groups[i].len(), std::cmp::Reverse(i))),
            };
            let moved: Vec<Vec<usize>> = groups
                .into_iter()
                .enumerate()
                .filter(|(i, _)| Some(*i) != stays)
                .map(|(_, group)| group)
                .collect();
            if !moved.is_empty() {
                splits.push((c, moved));
            }
        }
        for &x in &dirty {
            marked[x] = false;
        }
        if splits.is_empty() {
            break;
        }
        // The inline types whose identity changed: those moved, and those left in a class whose
        // first component moved.
        let mut changed: Vec<usize> = Vec::new();
        for (c, moved) in splits {
            let first = partition.components[c].first().copied();
            for group in moved {
                let new = partition.split_off(&group);
                changed.extend(partition.members[new].iter().copied());
            }
            if partition.components[c].first().copied() != first {
                changed.extend(partition.members[c].iter().copied());
            }
        }
        dirty.clear();
        for t in changed {
            if partition.is_component[t] {
                continue;
            }
            for &x in &referrers[t] {
                if !marked[x] {
                    marked[x] = true;
                    dirty.push(x);
                }
            }
        }
        for &x in &dirty {
            marked[x] = false;
        }
    }
    partition.class
}

/// What `share_identical` made.
pub(super) struct Shared {
    /// Each alias with the types its own definition held.
    pub(super) held: BTreeMap<String, Vec<String>>,
    /// Each alias with the type it names, for the lock.
    pub(super) canonical: BTreeMap<String, String>,
}

/// Numbers the distinct keys in order: equal keys, equal numbers.
fn numbered<'n>(keys: impl Iterator<Item = (&'n str, String)>) -> BTreeMap<&'n str, usize> {
    let keys: Vec<(&str, String)> = keys.collect();
    let distinct: BTreeSet<&String> = keys.iter().map(|(_, key)| key).collect();
    let number: BTreeMap<&String, usize> = distinct
        .into_iter()
        .enumerate()
        .map(|(index, key)| (key, index))
        .collect();
    keys.iter()
        .map(|(name, key)| (*name, number[key]))
        .collect()
}

/// How the operations reach each type: from requests (parameters and bodies), from request
/// bodies, from responses. Types reached the same ways get the same serde impls and storage.
struct Sides {
    requests: BTreeSet<String>,
    bodies: BTreeSet<String>,
    responses: BTreeSet<String>,
}

impl Sides {
    fn of(types: &BTreeMap<String, TypeDef>, operations: &[Operation]) -> Sides {
        let bodies: Vec<&TypeRef> = operations
            .iter()
            .flat_map(Operation::bodies)
            .filter_map(|body| body.kind.value_type())
            .collect();
        let parameters = operations.iter().flat_map(|op| {
            op.path_params
                .iter()
                .chain(&op.required_query)
                .chain(&op.optional_query)
                .map(|param| &param.ty)
        });
        let responses = operations.iter().filter_map(|op| match &op.response {
            ResponseKind::Json(ty) => Some(ty),
            _ => None,
        });
        Sides {
            requests: reachable(types, parameters.chain(bodies.iter().copied())),
            bodies: reachable(types, bodies.iter().copied()),
            responses: reachable(types, responses),
        }
    }

    /// A short tag of the ways `name` is reached.
    fn of_type(&self, name: &str) -> String {
        let flag = |set: &BTreeSet<String>| if set.contains(name) { '1' } else { '0' };
        format!(
            "{}{}{}:",
            flag(&self.requests),
            flag(&self.bodies),
            flag(&self.responses)
        )
    }
}

/// The type's own doc (not its fields' or variants').
fn own_doc(def: &TypeDef) -> Option<String> {
    match def {
        TypeDef::Struct(def) => def.doc.clone(),
        TypeDef::Enum(def) => def.doc.clone(),
        TypeDef::Alias(def) => def.doc.clone(),
        TypeDef::Union(def) => def.doc.clone(),
        TypeDef::Untagged(def) => def.doc.clone(),
        TypeDef::IntEnum(def) => def.doc.clone(),
        TypeDef::ValueEnum(def) => def.doc.clone(),
    }
}

/// The definition as text without its name, its own doc and the names of the types it refers
/// to; and those names, in the order they appear.
fn shallow_shape(def: &TypeDef) -> (String, Vec<String>) {
    let mut def = def.clone();
    let mut refs = Vec::new();
    match &mut def {
        TypeDef::Struct(def) => {
            def.name.clear();
            def.doc = None;
            for field in &mut def.fields {
                erase_names(&mut field.ty, &mut refs);
            }
        }
        TypeDef::Enum(def) => {
            def.name.clear();
            def.doc = None;
        }
        TypeDef::IntEnum(def) => {
            def.name.clear();
            def.doc = None;
        }
        TypeDef::ValueEnum(def) => {
            def.name.clear();
            def.doc = None;
        }
        TypeDef::Alias(def) => {
            def.name.clear();
            def.doc = None;
            erase_names(&mut def.ty, &mut refs);
        }
        TypeDef::Union(def) => {
            def.name.clear();
            def.doc = None;
            for variant in &mut def.variants {
                erase_names(&mut variant.ty, &mut refs);
            }
        }
        TypeDef::Untagged(def) => {
            def.name.clear();
            def.doc = None;
            for variant in &mut def.variants {
                erase_names(&mut variant.ty, &mut refs);
            }
        }
    }
    (format!("{def:?}"), refs)
}

/// Moves every type name out of `ty` into `refs`, leaving empty names behind.
fn erase_names(ty: &mut TypeRef, refs: &mut Vec<String>) {
    match ty {
        TypeRef::Named(name) => refs.push(std::mem::take(name)),
        TypeRef::Vec(inner)
        | TypeRef::Map(inner)
        | TypeRef::Option(inner)
        | TypeRef::Indirect(inner) => erase_names(inner, refs),
        TypeRef::String
        | TypeRef::Integer
        | TypeRef::Unsigned
        | TypeRef::Number
        | TypeRef::Boolean
        | TypeRef::Decimal
        | TypeRef::Timestamp
        | TypeRef::Date
        | TypeRef::Json
        | TypeRef::Bytes => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Api;

    fn api_of(document: &str) -> Api {
        crate::build_ir(&crate::Input {
            spec_path: "test.yaml",
            spec_text: document,
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{error}"))
        .0
    }

    /// What `name` names, if it is an alias.
    fn target<'a>(api: &'a Api, name: &str) -> Option<&'a str> {
        match api.types.get(name) {
            Some(TypeDef::Alias(AliasDef {
                ty: TypeRef::Named(target),
                ..
            })) => Some(target),
            _ => None,
        }
    }

    fn is_definition(api: &Api, name: &str) -> bool {
        api.types.contains_key(name) && target(api, name).is_none()
    }

    /// Two `GET` operations, each with an optional query enum and a response holding an inline
    /// object; the `components` text follows.
    fn document(first_enum: &str, second_enum: &str, components: &str) -> String {
        format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths:\n\
             \x20 /a:\n    get:\n      operationId: getA\n      parameters:\n\
             \x20       - {{name: fields, in: query, schema: {{type: array, items: {{type: string, enum: {first_enum}}}}}}}\n\
             \x20     responses:\n        '200':\n          description: ok\n          content:\n\
             \x20           application/json:\n              schema:\n                type: object\n\
             \x20               properties:\n                  rel: {{type: object, properties: {{kind: {{type: string, enum: [apps]}}, id: {{type: string}}}}}}\n\
             \x20 /b:\n    get:\n      operationId: getB\n      parameters:\n\
             \x20       - {{name: fields, in: query, schema: {{type: array, items: {{type: string, enum: {second_enum}}}}}}}\n\
             \x20     responses:\n        '200':\n          description: ok\n          content:\n\
             \x20           application/json:\n              schema:\n                type: object\n\
             \x20               properties:\n                  rel: {{type: object, properties: {{kind: {{type: string, enum: [apps]}}, id: {{type: string}}}}}}\n\
             {components}"
        )
    }

    fn enum_names(api: &Api) -> Vec<&str> {
        api.types
            .iter()
            .filter(|(_, def)| matches!(def, TypeDef::Enum(_)))
            .map(|(name, _)| name.as_str())
            .collect()
    }

    #[test]
    fn identical_inline_types_become_aliases_of_the_first_by_name() {
        let api = api_of(&document("[name, sku]", "[name, sku]", ""));
        let aliases: Vec<(&str, &str)> = api
            .types
            .keys()
            .filter_map(|name| Some((name.as_str(), target(&api, name)?)))
            .collect();
        // The query enums, the relationships' kind enums, the relationships and the
        // responses: each pair once.
        assert_eq!(aliases.len(), 4, "{aliases:?}");
        for (alias, canonical) in &aliases {
            assert!(canonical < alias, "{alias} -> {canonical}");
            assert!(is_definition(&api, canonical), "{canonical}");
        }
        // The names the lock gave stay, each a type a user can name.
        for name in ["GetAFieldsItem", "GetBFieldsItem"] {
            assert!(
                api.types.contains_key(name),
                "{name}: {:?}",
                api.types.keys()
            );
        }
        assert_eq!(target(&api, "GetBFieldsItem"), Some("GetAFieldsItem"));
    }

    #[test]
    fn the_lock_keeps_the_type_its_aliases_named_and_records_each_alias() {
        let twice = document("[name, sku]", "[name, sku]", "");
        let api = api_of(&twice);
        assert_eq!(
            api.names.shared.get("GetBFieldsItem").map(String::as_str),
            Some("GetAFieldsItem")
        );
        assert_eq!(api.names.shared.len(), 4, "{:?}", api.names.shared);
        // A newcomer twin sorting first: the lock keeps the old definition the one named.
        let three_times = twice.replace("\n  /b:", "\n  /0:\n    get:\n      operationId: get0\n      parameters:\n        - {name: fields, in: query, schema: {type: array, items: {type: string, enum: [name, sku]}}}\n      responses:\n        '204': {description: ok}\n  /b:");
        let config = crate::Config {
            names_lock: api.names.clone(),
            ..crate::Config::default()
        };
        let input = crate::Input {
            spec_path: "test.yaml",
            spec_text: &three_times,
            config_text: None,
        };
        let (locked, _) =
            crate::build_ir_with(&input, &config).unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(target(&locked, "Get0FieldsItem"), Some("GetAFieldsItem"));
        assert!(is_definition(&locked, "GetAFieldsItem"));
        // Without the lock, the first by name.
        let fresh = api_of(&three_times);
        assert_eq!(target(&fresh, "GetAFieldsItem"), Some("Get0FieldsItem"));
        // A lock naming a type that is no longer a twin is not followed.
        let mut stale = api.names.clone();
        stale
            .shared
            .insert("GetBFieldsItem".into(), "GetAResponse".into());
        let config = crate::Config {
            names_lock: stale,
            ..crate::Config::default()
        };
        let input = crate::Input {
            spec_text: &twice,
            ..input
        };
        let (relocked, _) =
            crate::build_ir_with(&input, &config).unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(target(&relocked, "GetBFieldsItem"), Some("GetAFieldsItem"));
    }

    #[test]
    fn types_that_differ_stay_apart_and_so_do_those_holding_them() {
        let api = api_of(&document("[name, sku]", "[name, id]", ""));
        assert_eq!(target(&api, "GetBFieldsItem"), None);
        assert!(enum_names(&api).contains(&"GetAFieldsItem"));
        assert!(enum_names(&api).contains(&"GetBFieldsItem"));
        // The responses still share their relationship, which is alike in both.
        let shared: Vec<&String> = api
            .types
            .keys()
            .filter(|name| target(&api, name).is_some())
            .collect();
        assert!(!shared.is_empty());
    }

    #[test]
    fn a_component_is_the_one_its_inline_twins_name_and_is_never_an_alias() {
        let components = "components:\n  schemas:\n    \
             Zfields: {type: string, enum: [name, sku]}\n    \
             Zother: {type: string, enum: [name, sku]}\n";
        let api = api_of(&document("[name, sku]", "[name, sku]", components));
        assert_eq!(target(&api, "GetAFieldsItem"), Some("Zfields"));
        assert_eq!(target(&api, "GetBFieldsItem"), Some("Zfields"));
        assert!(is_definition(&api, "Zfields"));
        assert!(is_definition(&api, "Zother"));
    }

    #[test]
    fn the_order_of_the_values_and_each_field_count() {
        let api = api_of(&document("[name, sku]", "[sku, name]", ""));
        assert_eq!(target(&api, "GetBFieldsItem"), None);
        let fields = |required: &str| {
            format!(
                "components:\n  schemas:\n    \
                 One: {{type: object, properties: {{a: {{type: string}}}}}}\n    \
                 Two: {{type: object, {required} properties: {{a: {{type: string}}}}}}\n    \
                 Holder: {{type: object, properties: {{one: {{type: object, properties: {{x: {{$ref: '#/components/schemas/One'}}}}}}, \
                 two: {{type: object, properties: {{x: {{$ref: '#/components/schemas/Two'}}}}}}}}}}\n"
            )
        };
        // Inline holders of two identical components stay apart: components are never merged,
        // so what holds them differs by the name it holds.
        let api = api_of(&document("[a]", "[b]", &fields("")));
        assert_eq!(target(&api, "HolderTwo"), None, "{:?}", api.types.keys());
        assert!(is_definition(&api, "HolderOne"));
        let api = api_of(&document("[a]", "[b]", &fields("required: [a],")));
        assert!(is_definition(&api, "HolderTwo"));
    }

    #[test]
    fn twins_reached_differently_stay_apart() {
        // The same inline object in a request body and in a response: the request side's
        // serde impls (and `Patch` fields) differ from the response side's.
        let document = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  \
            /a:\n    post:\n      operationId: postA\n      requestBody:\n        content:\n          \
            application/json:\n            schema: {type: object, properties: {n: {type: [string, 'null']}}}\n      \
            responses:\n        '200':\n          description: ok\n          content:\n            \
            application/json:\n              schema: {type: object, properties: {n: {type: [string, 'null']}}}\n";
        let api = api_of(document);
        let structs = api
            .types
            .values()
            .filter(|def| matches!(def, TypeDef::Struct(_)))
            .count();
        assert_eq!(structs, 2, "{:?}", api.types.keys());
    }

    #[test]
    fn a_request_body_twin_of_a_type_responses_also_return_stays_apart() {
        // `Thing` is sent and returned, so it always has both serde impls; the inline body
        // only sent has the same shape but decodes only for the fake: not the same type.
        let document = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  \
            /things:\n    put:\n      operationId: putThing\n      requestBody:\n        content:\n          \
            application/json:\n            schema: {$ref: '#/components/schemas/Thing'}\n      \
            responses:\n        '200':\n          description: ok\n          content:\n            \
            application/json:\n              schema: {$ref: '#/components/schemas/Thing'}\n  \
            /other:\n    post:\n      operationId: postOther\n      requestBody:\n        content:\n          \
            application/json:\n            schema: {type: object, properties: {n: {type: string}}}\n      \
            responses:\n        '204': {description: ok}\n\
            components:\n  schemas:\n    Thing: {type: object, properties: {n: {type: string}}}\n";
        let api = api_of(document);
        assert!(is_definition(&api, "PostOtherBody"), "{:?}", api.types);
        assert!(api.shared.is_empty(), "{:?}", api.shared);
    }

    #[test]
    fn recursive_twins_are_merged_and_the_alias_keeps_its_doc() {
        let document = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  \
            /a:\n    get:\n      operationId: getA\n      responses:\n        '200':\n          \
            description: ok\n          content:\n            application/json:\n              \
            schema:\n                type: object\n                properties:\n                  \
            first: {description: the first, type: object, properties: {name: {type: string}, \
            kids: {type: array, items: {$ref: '#/components/schemas/Node'}}}}\n                  \
            second: {description: the second, type: object, properties: {name: {type: string}, \
            kids: {type: array, items: {$ref: '#/components/schemas/Node'}}}}\n\
            components:\n  schemas:\n    Node:\n      type: object\n      properties:\n        \
            name: {type: string}\n        kids: {type: array, items: {$ref: '#/components/schemas/Node'}}\n";
        let api = api_of(document);
        let aliases: Vec<(&String, &TypeDef)> = api
            .types
            .iter()
            .filter(|(_, def)| matches!(def, TypeDef::Alias(_)))
            .collect();
        // Both inline objects are the component `Node` but for their names.
        assert_eq!(aliases.len(), 2, "{:?}", api.types.keys());
        for (name, def) in aliases {
            let TypeDef::Alias(alias) = def else {
                unreachable!()
            };
            assert_eq!(alias.ty, TypeRef::Named("Node".into()), "{name}");
            let doc = alias.doc.as_deref().unwrap_or_default();
            assert!(doc.starts_with("the "), "{name}: {doc:?}");
        }
    }

    /// The refinement as it was: every type re-keyed against the whole previous partition
    /// each round (quadratic on a chain), kept as the reference `refine` must equal.
    fn refine_by_rounds<'n>(
        shallow: &BTreeMap<&'n str, (String, Vec<String>)>,
        initial: &BTreeMap<&'n str, usize>,
        components: &BTreeSet<&str>,
    ) -> BTreeMap<&'n str, usize> {
        let mut class = initial.clone();
        loop {
            let mut first_component: BTreeMap<usize, &str> = BTreeMap::new();
            for (name, id) in &class {
                if components.contains(name) {
                    first_component.entry(*id).or_insert(name);
                }
            }
            let keyed = shallow.iter().map(|(name, (_, refs))| {
                let mut key = class[name].to_string();
                for target in refs {
                    key.push(',');
                    match class.get(target.as_str()) {
                        Some(_) if components.contains(target.as_str()) => {
                            key.push_str("c:");
                            key.push_str(target);
                        }
                        Some(id) => match first_component.get(id) {
                            Some(component) => {
                                key.push_str("c:");
                                key.push_str(component);
                            }
                            None => key.push_str(&id.to_string()),
                        },
                        None => {
                            key.push('=');
                            key.push_str(target);
                        }
                    }
                }
                (*name, key)
            });
            let refined = numbered(keyed);
            let count =
                |classes: &BTreeMap<&str, usize>| classes.values().collect::<BTreeSet<_>>().len();
            let done = count(&refined) == count(&class);
            class = refined;
            if done {
                return class;
            }
        }
    }

    /// A partition as the sets it makes, each by its members' indices.
    fn classes_of(ids: impl Iterator<Item = usize>) -> BTreeSet<Vec<usize>> {
        let mut members: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (i, id) in ids.enumerate() {
            members.entry(id).or_default().push(i);
        }
        members.into_values().collect()
    }

    /// Random graphs of a few shapes, references to types and to names that are not
    /// candidates, some types components: the new refinement makes the partition the rounds
    /// made, every time.
    #[test]
    fn refinement_equals_the_rounds_it_replaces() {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |bound: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % bound
        };
        for case in 0..3_000 {
            let count = 1 + next(14) as usize;
            let names: Vec<String> = (0..count).map(|i| format!("T{i:02}")).collect();
            let shapes = 1 + next(3);
            let mut shallow: BTreeMap<&str, (String, Vec<String>)> = BTreeMap::new();
            for name in &names {
                let refs = (0..next(4))
                    .map(|_| match next(8) {
                        0 => format!("Other{}", next(2)),
                        _ => names[next(count as u64) as usize].clone(),
                    })
                    .collect();
                shallow.insert(name, (format!("shape{}", next(shapes)), refs));
            }
            let components: BTreeSet<&str> = names
                .iter()
                .filter(|_| next(3) == 0)
                .map(String::as_str)
                .chain(["Other1"])
                .collect();
            let initial = numbered(
                shallow
                    .iter()
                    .map(|(name, (shape, _))| (*name, shape.clone())),
            );
            let expected = refine_by_rounds(&shallow, &initial, &components);
            let got = refine(&shallow, &initial, &components);
            assert_eq!(
                classes_of(got.into_iter()),
                classes_of(expected.values().copied()),
                "case {case}: {shallow:?}, components {components:?}"
            );
        }
    }

    /// A chain of alike links but for the last: every link its own class, as the rounds made.
    #[test]
    fn a_chain_of_alike_links_splits_from_its_end() {
        let names: Vec<String> = (0..200).map(|i| format!("L{i:03}")).collect();
        let shallow: BTreeMap<&str, (String, Vec<String>)> = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let refs = names.get(i + 1).cloned().into_iter().collect();
                (name.as_str(), ("link".to_owned(), refs))
            })
            .collect();
        let initial = numbered(shallow.keys().map(|name| (*name, "link".to_owned())));
        let none = BTreeSet::new();
        let got = refine(&shallow, &initial, &none);
        assert_eq!(classes_of(got.into_iter()).len(), 200);
        let expected = refine_by_rounds(&shallow, &initial, &none);
        assert_eq!(classes_of(expected.values().copied()).len(), 200);
        // A twin chain beside it, alike link by link: each class a pair.
        let twins: Vec<String> = (0..200).map(|i| format!("R{i:03}")).collect();
        let mut both = shallow.clone();
        for (i, name) in twins.iter().enumerate() {
            let refs = twins.get(i + 1).cloned().into_iter().collect();
            both.insert(name.as_str(), ("link".to_owned(), refs));
        }
        let initial = numbered(both.keys().map(|name| (*name, "link".to_owned())));
        let got = classes_of(refine(&both, &initial, &none).into_iter());
        assert_eq!(got.len(), 200);
        assert!(got.iter().all(|class| class.len() == 2));
    }
}
