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

use std::collections::{BTreeMap, BTreeSet};

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
                TypeDef::Enum(_) | TypeDef::IntEnum(_) => String::new(),
                _ => sides.of_type(name),
            };
            (name.as_str(), (format!("{side}{shape}"), refs))
        })
        .collect();
    let mut class = numbered(
        shallow
            .iter()
            .map(|(name, (shape, _))| (*name, shape.clone())),
    );
    // Refine until no class splits: two types stay together only if the types they refer to,
    // position by position, will be the same Rust type (the coarsest such partition). A
    // component is never an alias, so a reference to one is to that name; a reference to an
    // inline type is to its class's component if the class has one, else to its class.
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
                    // An alias or a name the IR lacks: itself.
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
            break;
        }
    }
    let mut members: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for (name, id) in &class {
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
            .filter_map(|op| op.body.as_ref().and_then(|body| body.kind.value_type()))
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
}
