//! Which way each type crosses the wire, decided once from the IR's one reachability walk:
//! which serde impls a type gets, and which types only request bodies use (their optional
//! nullable fields become the runtime's tri-state `Patch<T>`: absent, `null`, value, which a
//! PATCH needs and a response reader would only find in the way).
//!
//! `Deserialize` costs most of a model's compile time, so a type gets it only when a response
//! reaches it, and `Serialize` only when a request (body or parameter) reaches it. The fake
//! (the generated crate's `mock` feature) answers with response types and is handed request
//! values, so it turns the other direction on for every type. A type an extension says users
//! write back as JSON ([`SurfaceExtension::serialized_types`]) and what it reaches keep
//! `Serialize`, and so does what a decoded best-fit union's members hold (its decoding encodes
//! each member's reading). A type reached by neither (a config root) gets both.
//!
//! [`SurfaceExtension::serialized_types`]: super::extension::SurfaceExtension::serialized_types

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::{Api, ResponseKind, TypeDef, TypeRef, reachable};

/// When a type has one serde impl.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Gate {
    /// In every build of the crate.
    Always,
    /// Only with the generated crate's `mock` feature.
    Mock,
}

/// A type's serde impls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SerdeImpls {
    pub(crate) serialize: Gate,
    pub(crate) deserialize: Gate,
}

impl SerdeImpls {
    /// Both impls in every build.
    pub(crate) const BOTH: SerdeImpls = SerdeImpls {
        serialize: Gate::Always,
        deserialize: Gate::Always,
    };

    /// As the API snapshot lists it: nothing for both impls (what every type had before the
    /// directions were told apart, so those lines stay as they were), else the one impl and the
    /// other `with mock`.
    pub(crate) fn describe(self) -> Option<&'static str> {
        match (self.serialize, self.deserialize) {
            (Gate::Always, Gate::Always) => None,
            (Gate::Always, Gate::Mock) => Some("serde: Serialize (Deserialize with mock)"),
            (Gate::Mock, Gate::Always) => Some("serde: Deserialize (Serialize with mock)"),
            (Gate::Mock, Gate::Mock) => Some("serde: with mock"),
        }
    }

    /// `signature` with [`SerdeImpls::describe`] after it, `; ` between.
    pub(crate) fn append_to(self, signature: &str) -> String {
        match (signature, self.describe()) {
            (_, None) => signature.to_owned(),
            ("", Some(serde)) => serde.to_owned(),
            (_, Some(serde)) => format!("{signature}; {serde}"),
        }
    }
}

/// The named types each direction reaches.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Directions {
    /// Reached from a request body or parameter, or from a type an extension keeps `Serialize`.
    pub(crate) encoded: BTreeSet<String>,
    /// Reached from a JSON response.
    pub(crate) decoded: BTreeSet<String>,
}

impl Directions {
    /// The serde impls of the type `name`.
    pub(crate) fn serde_impls(&self, name: &str) -> SerdeImpls {
        let gate = |needed: bool| if needed { Gate::Always } else { Gate::Mock };
        match (self.encoded.contains(name), self.decoded.contains(name)) {
            (false, false) => SerdeImpls::BOTH,
            (encoded, decoded) => SerdeImpls {
                serialize: gate(encoded),
                deserialize: gate(decoded),
            },
        }
    }

    /// Every type's serde impls, by name.
    pub(crate) fn all_serde_impls(&self, api: &Api) -> BTreeMap<String, SerdeImpls> {
        api.types
            .keys()
            .map(|name| (name.clone(), self.serde_impls(name)))
            .collect()
    }
}

/// Which types requests and responses reach; `serialized` (and what it reaches) is encoded
/// whatever reaches it.
pub(crate) fn directions(api: &Api, serialized: &[TypeRef]) -> Directions {
    let requests = api.operations.iter().flat_map(|op| {
        op.path_params
            .iter()
            .chain(&op.required_query)
            .chain(&op.optional_query)
            .map(|param| &param.ty)
            .chain(op.bodies().filter_map(|b| b.kind.value_type()))
    });
    let mut encoded = reachable(&api.types, requests.chain(serialized));
    let mut decoded = reachable(&api.types, api.operations.iter().filter_map(response_type));
    // A best-fit union decodes by encoding each member's reading back (`ir::best_fit`): what
    // its members hold is encoded wherever the union is decoded.
    let best_fit_members: Vec<TypeRef> = api
        .types
        .values()
        .filter_map(|def| match def {
            TypeDef::Untagged(def) if def.best_fit && decoded.contains(&def.name) => {
                Some(def.variants.iter().map(|variant| variant.ty.clone()))
            }
            _ => None,
        })
        .flatten()
        .collect();
    encoded.extend(reachable(&api.types, &best_fit_members));
    // A type no operation reaches (a component kept without a selection) gets both impls, and
    // so must every type it holds: its derives need theirs.
    let orphans: Vec<TypeRef> = api
        .types
        .keys()
        .filter(|name| !encoded.contains(*name) && !decoded.contains(*name))
        .map(|name| TypeRef::Named(name.clone()))
        .collect();
    let held = reachable(&api.types, &orphans);
    encoded.extend(held.iter().cloned());
    decoded.extend(held);
    Directions { encoded, decoded }
}

fn response_type(op: &crate::ir::Operation) -> Option<&TypeRef> {
    match &op.response {
        ResponseKind::Json(ty) => Some(ty),
        _ => None,
    }
}

/// The types reachable from some request body and from no response.
pub(crate) fn write_only_types(api: &Api) -> BTreeSet<String> {
    let bodies = reachable(
        &api.types,
        api.operations
            .iter()
            .flat_map(crate::ir::Operation::bodies)
            .filter_map(|b| b.kind.value_type()),
    );
    let responses = reachable(&api.types, api.operations.iter().filter_map(response_type));
    bodies.difference(&responses).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn directions_of(document: &str) -> (Directions, Api) {
        let (api, _) = crate::build_ir(&crate::Input {
            spec_path: "test.yaml",
            spec_text: document,
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{error}"));
        let serialized =
            super::super::extension::serialized_types(&api, crate::extensions::EXTENSIONS);
        (directions(&api, &serialized), api)
    }

    const DOCUMENT: &str = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  \
        /v1/things:\n    post:\n      requestBody:\n        content:\n          \
        application/json:\n            schema: {$ref: '#/components/schemas/NewThing'}\n      \
        responses:\n        '200':\n          description: ok\n          content:\n            \
        application/json:\n              schema: {$ref: '#/components/schemas/Thing'}\n\
        components:\n  schemas:\n    Shared:\n      type: object\n      properties: {a: {type: string}}\n    \
        NewThing:\n      type: object\n      properties: {s: {$ref: '#/components/schemas/Shared'}}\n    \
        Thing:\n      type: object\n      properties: {s: {$ref: '#/components/schemas/Shared'}}\n";

    #[test]
    fn each_type_gets_the_impls_its_direction_needs() {
        let (directions, api) = directions_of(DOCUMENT);
        let impls = directions.all_serde_impls(&api);
        let only_serialize = SerdeImpls {
            serialize: Gate::Always,
            deserialize: Gate::Mock,
        };
        let only_deserialize = SerdeImpls {
            serialize: Gate::Mock,
            deserialize: Gate::Always,
        };
        assert_eq!(impls.get("NewThing"), Some(&only_serialize));
        assert_eq!(impls.get("Thing"), Some(&only_deserialize));
        assert_eq!(impls.get("Shared"), Some(&SerdeImpls::BOTH));
        assert_eq!(
            write_only_types(&api),
            BTreeSet::from(["NewThing".to_owned()])
        );
    }

    #[test]
    fn a_component_no_operation_reaches_gives_both_impls_to_what_it_holds() {
        // `Orphan` is kept (no selection keeps every component) and holds `Thing`, which only
        // a response reaches: both need both impls, or `Orphan`'s `Serialize` cannot derive.
        let document = format!(
            "{DOCUMENT}    Orphan:\n      type: object\n      \
             properties: {{t: {{$ref: '#/components/schemas/Thing'}}}}\n"
        );
        let (directions, api) = directions_of(&document);
        let impls = directions.all_serde_impls(&api);
        assert_eq!(impls.get("Orphan"), Some(&SerdeImpls::BOTH));
        assert_eq!(impls.get("Thing"), Some(&SerdeImpls::BOTH));
        assert_eq!(
            impls.get("NewThing").map(|impls| impls.deserialize),
            Some(Gate::Mock)
        );
    }

    #[test]
    fn a_type_neither_direction_reaches_keeps_both() {
        let directions = Directions::default();
        assert_eq!(directions.serde_impls("Root"), SerdeImpls::BOTH);
    }

    #[test]
    fn a_decoded_best_fit_union_encodes_what_its_members_hold() {
        // `Pick`, only a response reaches it, is a best-fit union (neither member requires a
        // property of its own): its decoding encodes each member's reading, so `Shared`, which
        // `Thing` holds, and `Other` keep `Serialize` in every build; `NewThing` is unchanged.
        let document = DOCUMENT
            .replace(
                "schema: {$ref: '#/components/schemas/Thing'}",
                "schema: {$ref: '#/components/schemas/Pick'}",
            )
            .replace(
                "components:\n  schemas:\n",
                "components:\n  schemas:\n    Pick:\n      anyOf: [{$ref: '#/components/schemas/Thing'}, {$ref: '#/components/schemas/Other'}]\n    \
                 Other:\n      type: object\n      properties: {b: {type: integer}}\n",
            );
        let (directions, api) = directions_of(&document);
        assert!(
            matches!(api.types.get("Pick"), Some(crate::ir::TypeDef::Untagged(def)) if def.best_fit)
        );
        let impls = directions.all_serde_impls(&api);
        for held in ["Thing", "Other", "Shared"] {
            assert_eq!(impls.get(held), Some(&SerdeImpls::BOTH), "{held}");
        }
        // The union itself is only read.
        assert_eq!(
            impls.get("Pick"),
            Some(&SerdeImpls {
                serialize: Gate::Mock,
                deserialize: Gate::Always,
            })
        );
        // Told apart by kind instead: `Thing`, a response's only, is only read.
        let plain = document.replace(
            "anyOf: [{$ref: '#/components/schemas/Thing'}, {$ref: '#/components/schemas/Other'}]",
            "anyOf: [{$ref: '#/components/schemas/Thing'}, {type: string}]",
        );
        let (directions, _) = directions_of(&plain);
        assert!(!directions.encoded.contains("Thing"));
    }

    #[test]
    fn the_listing_names_the_impls_and_the_mock_gated_one() {
        let describe = |serialize, deserialize| {
            SerdeImpls {
                serialize,
                deserialize,
            }
            .describe()
        };
        assert_eq!(describe(Gate::Always, Gate::Always), None);
        assert_eq!(
            describe(Gate::Always, Gate::Mock),
            Some("serde: Serialize (Deserialize with mock)")
        );
        assert_eq!(
            describe(Gate::Mock, Gate::Always),
            Some("serde: Deserialize (Serialize with mock)")
        );
        assert_eq!(describe(Gate::Mock, Gate::Mock), Some("serde: with mock"));
        let only_deserialize = SerdeImpls {
            serialize: Gate::Mock,
            deserialize: Gate::Always,
        };
        assert_eq!(
            only_deserialize.append_to("Default"),
            "Default; serde: Deserialize (Serialize with mock)"
        );
        assert_eq!(
            only_deserialize.append_to(""),
            "serde: Deserialize (Serialize with mock)"
        );
        assert_eq!(SerdeImpls::BOTH.append_to("untagged"), "untagged");
    }
}
