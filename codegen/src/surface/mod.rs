//! The surface: one model of everything the generated crate exposes and every name it uses,
//! built once from the IR, between it and the emitters (typify's `type_entry` → `output`,
//! progenitor's `OperationMethod`).
//!
//! It holds every public item — types (from the IR), each struct's constructor, setters and
//! clearers, each query struct and its setters, the `Client`'s own methods, one method per
//! operation, the fake's `on_*` expectations, and what each surface extension
//! ([`crate::extensions`]: the metrics requests, the page streams) contributed for the shapes it
//! recognised — and the local names of each emitted body that takes document names (its scope).
//! The analyses behind them (which types are write-only, what each extension recognises) run
//! here, once.
//!
//! Every name is claimed through [`Names`] (`crate::lock`), the one owner of the names lock,
//! continuing from the lock the IR settled; its reserved names come from `crate::reserved`
//! (what the crate always has) and from the names claimed before. A collision gives the later
//! claimant a numbered name (`_2`); a name that cannot be given at all (an operation named by
//! the config like one of `Client`'s own methods) is an error naming its place. Emitters, the
//! names lock, the API snapshot, the change report and the
//! compile probe read this and decide nothing.

pub(crate) mod builders;
pub(crate) mod errors;
pub(crate) mod examples;
pub(crate) mod extension;
pub(crate) mod features;
pub(crate) mod listing;
#[cfg(test)]
mod listing_proof;
pub(crate) mod queries;
pub(crate) mod reexports;
pub(crate) mod signature;
pub(crate) mod write_only;

use std::collections::{BTreeMap, BTreeSet};

use self::builders::StructSurface;
use self::extension::{Context, Contribution, SurfaceExtension, serialized_types};
use self::write_only::{Gate, SerdeImpls};
use crate::error::Pointer;
use crate::ir::{Api, Body, Operation, ResponseKind, StructDef, TypeDef, TypeRef};
use crate::lock::Names;
pub(crate) use crate::reserved::{
    CLIENT_METHODS, CLIENT_REEXPORTS, CLIENT_TYPE, FAKE_METHODS, FAKE_REEXPORTS,
};
use crate::runtime_traits::TraitNames;
use crate::{Error, NameLock};

/// What the generated crate exposes, and the names of everything in it.
#[derive(Debug)]
pub(crate) struct Surface<'a> {
    /// The IR the surface was built from.
    pub(crate) api: &'a Api,
    /// Types only request bodies use (their optional nullable fields are `Patch`es).
    pub(crate) write_only: BTreeSet<String>,
    /// Every type's serde impls, by name: each direction only where the wire needs it.
    pub(crate) serde: BTreeMap<String, SerdeImpls>,
    /// The crate's Cargo features (API areas) and the gate of every item.
    pub(crate) features: features::Features,
    /// Every struct resolved (its fields' storage, setters and clearers), by type name.
    pub(crate) structs: BTreeMap<String, StructSurface<'a>>,
    /// The runtime traits the extensions implement on models, whose methods no setter takes.
    pub(crate) model_traits: Vec<TraitNames>,
    /// One per operation, in the IR's order.
    pub(crate) operations: Vec<OperationSurface<'a>>,
    /// What each extension added, in the order of the extensions the surface was built with.
    pub(crate) contributions: Vec<Box<dyn Contribution + 'a>>,
    /// The methods sending a request body in another media type than its operation's method
    /// (`post_files_multipart`), in operation order.
    pub(crate) body_methods: Vec<BodyMethod<'a>>,
    /// The names lock for the next generation: what the IR settled, with the surface's own
    /// scopes (`client_methods`, `fake_methods`, `support_types`).
    pub(crate) names: NameLock,
    /// The rustdoc examples of the crate's own types; `None` when the config does not name the
    /// crate (a doctest must).
    pub(crate) examples: Option<examples::Examples<'a>>,
}

/// What one operation exposes beside its types.
#[derive(Debug, Clone)]
pub(crate) struct OperationSurface<'a> {
    pub(crate) operation: &'a Operation,
    /// Its query struct (the optional query parameters), resolved.
    pub(crate) query: Option<queries::QueryStruct<'a>>,
    /// The fake's expectation (`on_<operation>`).
    pub(crate) expectation: String,
    /// The features its method, query struct and expectation are compiled with.
    pub(crate) gate: features::FeatureGate,
    /// When the client sends its request again (its method's `# Errors` section says so).
    pub(crate) resend: errors::Resend,
    /// The server of its own it is sent to (its path's or its own `servers`), if any.
    pub(crate) server: Option<&'a crate::ir::servers::OperationServer>,
}

/// A method sending an operation's request body in another media type than the operation's
/// own method does: one per media type the document offers beyond the preferred one, so that
/// each is sendable with its own exact argument type, and the operation's method stays as it
/// was when the document offered one.
#[derive(Debug, Clone)]
pub(crate) struct BodyMethod<'a> {
    pub(crate) operation: &'a Operation,
    /// The body it sends (one of `operation.other_bodies`).
    pub(crate) body: &'a Body,
    /// Its name on `Client` (the operation's, then the body's `suffix`).
    pub(crate) name: String,
    /// The features it is compiled with: its operation's.
    pub(crate) gate: features::FeatureGate,
}

impl BodyMethod<'_> {
    /// Its arguments and output: the operation's, with this body.
    pub(crate) fn signature(&self) -> signature::Signature {
        signature::of_body(self.operation, Some(self.body))
    }
}

/// The names lock's identity of an operation (`GET /v1/models`).
pub(crate) fn operation_identity(operation: &Operation) -> String {
    format!("{} {}", operation.method, operation.path)
}

fn operation_pointer(operation: &Operation) -> String {
    Pointer::root()
        .join("paths")
        .join(&operation.path)
        .join(operation.method.to_ascii_lowercase())
        .to_string()
}

/// Builds the surface of `api` with what `extensions` add, keeping the names its lock
/// (`api.names`) recorded; with examples naming `crate_name` when it is given.
pub(crate) fn build<'a>(
    api: &'a Api,
    crate_name: Option<&str>,
    extensions: &[&dyn SurfaceExtension],
) -> Result<Surface<'a>, Error> {
    let write_only = write_only::write_only_types(api);
    let serialized = serialized_types(api, extensions);
    let serde = write_only::directions(api, &serialized).all_serde_impls(api);
    let features = features::Features::of(api);
    let model_traits: Vec<TraitNames> = extensions
        .iter()
        .flat_map(|extension| extension.reserved().model_traits)
        .copied()
        .collect();
    let structs = api
        .types
        .values()
        .filter_map(|def| match def {
            TypeDef::Struct(def) => Some((
                def.name.clone(),
                builders::resolve_struct(def, write_only.contains(&def.name), &model_traits),
            )),
            _ => None,
        })
        .collect();

    // Every name through the one owner, continuing from what the IR settled. Support structs
    // live beside `Client` in `client.rs`, which sees every model type and query struct.
    let mut names = Names::continue_from(
        &api.names,
        api.types.keys().map(String::as_str).chain(
            api.operations
                .iter()
                .filter_map(|op| op.query_type.as_deref()),
        ),
    );
    names.take_fixed_type(&api.identity.fake_type);
    for extension in extensions {
        for name in extension.reserved().type_names {
            names.take_fixed_type(name);
        }
    }
    // `Client`'s methods: its own and the traits' (an inherent `clone` would shadow `Clone`'s
    // in every emitted body) are reserved; one per operation (named in the IR), then the
    // extensions'.
    for operation in &api.operations {
        if !names.take_client_method(&operation.name) {
            return Err(Error::Invalid {
                pointer: operation_pointer(operation),
                reason: format!(
                    "the operation's method name `{}` is one every generated `{CLIENT_TYPE}` \
                     already has",
                    operation.name
                ),
            });
        }
    }
    // The fake's methods: its own, then one expectation per operation, then the extensions'.
    let operations: Vec<OperationSurface<'a>> = api
        .operations
        .iter()
        .map(|operation| OperationSurface {
            operation,
            query: queries::QueryStruct::of(operation),
            expectation: names.fake_methods().claim(
                &operation_identity(operation),
                &format!("on_{}", operation.name),
            ),
            gate: features::Features::operation_gate(operation),
            resend: errors::Resend::of(&operation.method),
            server: api
                .operation_servers
                .iter()
                .find(|server| server.operation == operation.name),
        })
        .collect();
    // Each extension's items, in list order (the names lock's order).
    let contributions = extensions
        .iter()
        .map(|extension| {
            extension.contribute(&mut Context {
                extension: extension.name(),
                api,
                features: &features,
                operations: &operations,
                names: &mut names,
            })
        })
        .collect();

    // After the extensions' (the streams among them), so that no name given before moves.
    let mut body_methods = Vec::new();
    for operation in &api.operations {
        for body in &operation.other_bodies {
            let name = names.client_methods().claim(
                &format!("body {} {}", operation_identity(operation), body.media_type),
                &format!("{}_{}", operation.name, body.suffix),
            );
            body_methods.push(BodyMethod {
                operation,
                body,
                name,
                gate: features::Features::operation_gate(operation),
            });
        }
    }

    let names = names.into_lock();
    let has_test_builder = |name: &str| test_builder_for(&write_only, &serde, name);
    let examples = examples::examples(api, &operations, &structs, &has_test_builder, crate_name);
    Ok(Surface {
        api,
        write_only,
        serde,
        features,
        structs,
        model_traits,
        operations,
        contributions,
        body_methods,
        names,
        examples,
    })
}

/// Whether the struct `name` gets a test builder: a response decodes into it (see
/// [`Surface::test_builders`]).
fn test_builder_for(
    write_only: &BTreeSet<String>,
    serde: &BTreeMap<String, SerdeImpls>,
    name: &str,
) -> bool {
    !write_only.contains(name)
        && serde
            .get(name)
            .copied()
            .unwrap_or(SerdeImpls::BOTH)
            .deserialize
            == Gate::Always
}

impl OperationSurface<'_> {
    /// Its `Client` method's arguments and output (tokens, which no thread may share, so
    /// rendered from the one function on each use rather than stored).
    pub(crate) fn signature(&self) -> signature::Signature {
        signature::of(self.operation)
    }
}

impl Surface<'_> {
    /// The serde impls of the type `name` (both for a name the surface does not know).
    pub(crate) fn serde_impls(&self, name: &str) -> SerdeImpls {
        self.serde.get(name).copied().unwrap_or(SerdeImpls::BOTH)
    }

    /// The structs that get a test builder behind `mock` (`T::builder()`, a setter per field on
    /// `mock::Builder<T>`): every struct a response decodes into, for tests to build without
    /// JSON. Request-only structs have `new` and their setters instead.
    pub(crate) fn test_builders(&self) -> impl Iterator<Item = &StructDef> {
        self.api.types.values().filter_map(|def| match def {
            TypeDef::Struct(def) if test_builder_for(&self.write_only, &self.serde, &def.name) => {
                Some(def)
            }
            _ => None,
        })
    }

    /// A field's setter on `mock::Builder<T>`: its own name, but for the one `Builder` itself
    /// takes.
    pub(crate) fn test_builder_setter(field: &str) -> String {
        if field == "build" {
            "set_build".to_owned()
        } else {
            field.to_owned()
        }
    }

    /// The `Client` methods extensions added as the way to call `operation`
    /// (`environment_metrics` over the environment's metrics operation, not a page stream), in
    /// the order of the extensions the surface was built with.
    pub(crate) fn methods_calling(&self, operation: &Operation) -> Vec<&str> {
        self.contributions
            .iter()
            .flat_map(|contribution| contribution.methods())
            .filter(|method| method.preferred && std::ptr::eq(method.operation, operation))
            .map(|method| method.name)
            .collect()
    }

    /// The type an operation's method returns, and the fake answers with.
    pub(crate) fn response_type(operation: &Operation) -> Option<&TypeRef> {
        match &operation.response {
            ResponseKind::Json(ty) => Some(ty),
            ResponseKind::Empty | ResponseKind::Text(_) | ResponseKind::Bytes(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock::Scope;

    /// The inherent methods of `type_name` in an emitted file.
    fn methods_of(file: &str, type_name: &str) -> BTreeSet<String> {
        let Ok(parsed) = syn::parse_file(file) else {
            panic!("emitted file does not parse:\n{file}");
        };
        let mut methods = BTreeSet::new();
        for item in parsed.items {
            let syn::Item::Impl(block) = item else {
                continue;
            };
            let syn::Type::Path(self_type) = block.self_ty.as_ref() else {
                continue;
            };
            if block.trait_.is_some() || !self_type.path.is_ident(type_name) {
                continue;
            }
            for item in block.items {
                if let syn::ImplItem::Fn(function) = item {
                    methods.insert(function.sig.ident.to_string());
                }
            }
        }
        methods
    }

    fn generated(document: &str) -> crate::Output {
        crate::generate(&crate::Input {
            spec_path: "test.yaml",
            spec_text: document,
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn the_fixed_method_lists_are_what_the_emitters_write() {
        let output = generated(
            "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /v1/things:\n    get:\n      \
             responses: {'200': {description: ok}}\n",
        );
        let client: BTreeSet<String> = CLIENT_METHODS.iter().map(|m| (*m).to_owned()).collect();
        let mut emitted = methods_of(&output.files["client.rs"], CLIENT_TYPE);
        assert_eq!(emitted, client);
        emitted = methods_of(&output.files["mock.rs"], "FakeT");
        let mut fake: BTreeSet<String> = FAKE_METHODS.iter().map(|m| (*m).to_owned()).collect();
        fake.insert("on_get_things".to_owned());
        assert_eq!(emitted, fake);
        assert_eq!(
            output.names.fake_methods,
            BTreeMap::from([("GET /v1/things".to_owned(), "on_get_things".to_owned())])
        );
    }

    #[test]
    fn the_first_free_name_is_taken_and_locked_names_come_back() {
        let mut names = Scope::snake(None, ["base_url"]);
        assert_eq!(
            names.claim_first("a", &["base_url", "a_request"]),
            "a_request"
        );
        assert_eq!(
            names.claim_first("b", &["b_natural", "b_request"]),
            "b_natural"
        );
        assert_eq!(names.claim_first("c", &["a_request"]), "a_request_2");
        assert_eq!(names.claim("d", "base_url"), "base_url_2");
        let locked = BTreeMap::from([("e".to_owned(), "e_request".to_owned())]);
        let mut names = Scope::snake(Some(&locked), []);
        assert_eq!(
            names.claim_first("e", &["e_natural", "e_request"]),
            "e_request"
        );
        assert_eq!(names.claim_first("f", &["e_request"]), "e_request_2");
        let mut types = Scope::camel(None, ["Usage"]);
        assert_eq!(types.claim("g", "Usage"), "Usage2");
    }

    #[test]
    fn an_operation_keeps_its_name_over_a_locked_stream() {
        let locked = BTreeMap::from([("pages GET /x".to_owned(), "get_x_pages".to_owned())]);
        let mut client = Scope::snake(Some(&locked), CLIENT_METHODS.iter().copied());
        assert!(client.take("get_x_pages"));
        assert!(!client.take("get_x_pages"));
        assert!(!client.take("base_url"));
        assert_eq!(client.claim("pages GET /x", "get_x_pages"), "get_x_pages_2");
    }
}
