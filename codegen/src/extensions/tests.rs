//! A second extension, written here alone, runs beside the metrics one through the same seam:
//! the surface claims its names, every emitter, the listing and the probe carry what it adds,
//! and no generic file names it.

use std::collections::BTreeSet;

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::*;
use crate::ir::{Api, Operation, TypeRef};
use crate::surface::extension::{
    AddedExpectation, AddedFile, AddedMethod, Context, Contribution, Placeholder,
};
use crate::surface::features::FeatureGate;
use crate::surface::listing::Line;
use crate::tokens::ident;

/// Every parameterless `GET` gets `Client::<operation>_endpoint`, which says what it calls, a
/// fake expectation under that name, and `toy.rs`, a list of them.
#[derive(Debug)]
struct Endpoints;

#[derive(Debug)]
struct Added<'a> {
    entries: Vec<(&'a Operation, String, String, FeatureGate)>,
}

impl SurfaceExtension for Endpoints {
    fn name(&self) -> &'static str {
        "endpoint"
    }

    fn serialized_types(&self, _: &Api) -> Vec<TypeRef> {
        vec![TypeRef::Named("Thing".to_owned())]
    }

    fn contribute<'a>(&self, context: &mut Context<'a, '_>) -> Box<dyn Contribution + 'a> {
        let mut entries = Vec::new();
        for operation in &context.api.operations {
            if operation.method != "GET" || !operation.path_params.is_empty() {
                continue;
            }
            let key = context.key(&[], operation);
            let method = context
                .names
                .client_methods()
                .claim(&key, &format!("{}_endpoint", operation.name));
            let expectation = context
                .names
                .fake_methods()
                .claim(&key, &format!("on_{method}"));
            let gate = context.features.type_gate("Thing");
            entries.push((operation, method, expectation, gate));
        }
        Box::new(Added { entries })
    }
}

impl Contribution for Added<'_> {
    fn client_doc(&self) -> Option<&'static str> {
        Some("what each parameterless `GET` calls")
    }

    fn client_items(&self) -> TokenStream {
        self.entries
            .iter()
            .map(|(operation, method, _, _)| {
                let method = ident(method);
                let endpoint = format!("{} {}", operation.method, operation.path);
                quote! {
                    impl Client {
                        pub fn #method(&self) -> &'static str {
                            #endpoint
                        }
                    }
                }
            })
            .collect()
    }

    fn fake_methods(&self) -> TokenStream {
        self.entries
            .iter()
            .map(|(_, _, expectation, _)| {
                let expectation = ident(expectation);
                quote! {
                    pub fn #expectation(&self) -> &rt::mock::FakeServer {
                        &self.server
                    }
                }
            })
            .collect()
    }

    fn files(&self) -> Vec<AddedFile> {
        vec![AddedFile {
            name: "toy.rs",
            declaration: "pub mod toy;\n\n",
        }]
    }

    fn file(&self, _: &str, _: &TokenStream) -> TokenStream {
        let endpoints = self.entries.iter().map(|(operation, ..)| &operation.path);
        quote! {
            //! What each parameterless `GET` calls.
            pub const ENDPOINTS: &[&str] = &[#(#endpoints),*];
        }
    }

    fn listing(&self) -> Vec<Line> {
        self.entries
            .iter()
            .map(|(_, method, _, gate)| {
                Line::gated(
                    "fn",
                    format!("Client::{method}"),
                    gate,
                    "(&self) -> &'static str".to_owned(),
                )
            })
            .collect()
    }

    fn methods(&self) -> Vec<AddedMethod<'_>> {
        self.entries
            .iter()
            .map(|(operation, method, _, _)| AddedMethod {
                name: method,
                operation,
                what: "endpoint",
                preferred: true,
                shape: "&'static str".to_owned(),
            })
            .collect()
    }

    fn expectations(&self) -> Vec<AddedExpectation<'_>> {
        self.entries
            .iter()
            .map(|(operation, _, expectation, _)| AddedExpectation {
                name: expectation,
                operation,
                answer: TypeRef::Named("Thing".to_owned()),
            })
            .collect()
    }

    fn probe(&self, method: &str, _: &Ident, placeholder: Placeholder) -> TokenStream {
        let method = ident(method);
        let text = placeholder(&quote!(&'static str));
        quote!(let _: &'static str = client.#method(); let _ = #text;)
    }
}

/// `Thing` is reached only as a response; `/v1/things/{id}` has a path parameter, so it gets
/// nothing; the operation `get_things_endpoint` is named before the toy claims, so the toy's
/// method for `get_things` takes the numbered name.
const DOCUMENT: &str = "openapi: 3.1.0
info: {title: Baseten, version: '1'}
paths:
  /v1/things:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
  /v1/things/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
  /v1/things_endpoint:
    get:
      responses: {'204': {description: ok}}
components:
  schemas:
    Thing: {type: object, properties: {a: {type: string}}}
";

fn api() -> Api {
    crate::build_ir(&crate::Input {
        spec_path: "t.yaml",
        spec_text: DOCUMENT,
        config_text: None,
    })
    .unwrap_or_else(|error| panic!("{error}"))
    .0
}

/// The inherent methods of `type_name` in `file`, wherever its `impl` blocks are.
fn methods_of(file: &str, type_name: &str) -> BTreeSet<String> {
    let parsed = syn::parse_file(file).unwrap_or_else(|error| panic!("{error}\n{file}"));
    parsed
        .items
        .into_iter()
        .filter_map(|item| match item {
            syn::Item::Impl(block) if block.trait_.is_none() => Some(block),
            _ => None,
        })
        .filter(|block| matches!(block.self_ty.as_ref(), syn::Type::Path(ty) if ty.path.is_ident(type_name)))
        .flat_map(|block| block.items)
        .filter_map(|item| match item {
            syn::ImplItem::Fn(function) => Some(function.sig.ident.to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_second_extension_reaches_every_reader_through_the_seam() {
    let api = api();
    let extensions: [&dyn SurfaceExtension; 2] = [&metrics::Metrics, &Endpoints];
    let surface =
        crate::surface::build(&api, None, &extensions).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(surface.contributions.len(), 2);

    // Names: claimed through the one owner, keyed under the extension's name, after the
    // operations' (`get_things_endpoint` is an operation's).
    assert_eq!(
        surface.names.client_methods.get("endpoint GET /v1/things"),
        Some(&"get_things_endpoint_2".to_owned())
    );
    assert_eq!(
        surface.names.fake_methods.get("endpoint GET /v1/things"),
        Some(&"on_get_things_endpoint_2".to_owned())
    );
    assert!(
        !surface
            .names
            .client_methods
            .keys()
            .any(|key| key.contains("/v1/things/{id}"))
    );

    // Serde: `Thing` is serialized in every build, not only for the fake.
    assert_eq!(
        surface.serde_impls("Thing").serialize,
        crate::surface::write_only::Gate::Always
    );

    // The emitters: a method on `Client`, an expectation on the fake, the module doc, a file.
    let config = crate::Config::default();
    let (files, ()) = crate::emit::emit_files(&surface, &config, "t.yaml", || ())
        .unwrap_or_else(|error| panic!("{error}"));
    let client = methods_of(&files["client.rs"], "Client");
    assert!(client.contains("get_things_endpoint_2"), "{client:?}");
    assert!(
        client.contains("get_things_endpoint_endpoint"),
        "{client:?}"
    );
    assert!(
        files["client.rs"].contains(
            "//! [`operations`](super::operations)), a typestate request per metrics operation, \
             and\n//! what each parameterless `GET` calls.\n"
        ),
        "{}",
        files["client.rs"]
    );
    let fake = methods_of(&files["mock.rs"], "FakeBaseten");
    assert!(fake.contains("on_get_things_endpoint_2"), "{fake:?}");
    assert_eq!(
        files.get("toy.rs").map(|file| file.contains(
            "pub const ENDPOINTS: &[&str] = &[\"/v1/things\", \"/v1/things_endpoint\"];"
        )),
        Some(true),
        "{files:#?}"
    );
    // Metrics recognised no index-mapped response here: no file of its own.
    assert!(!files.contains_key("index_mapped.rs"));

    // The listing.
    let listed: Vec<String> = surface
        .listing()
        .into_iter()
        .filter(|line| line.path.starts_with("Client::") && line.signature.contains("&'static str"))
        .map(|line| format!("{} {} {}", line.kind, line.path, line.text()))
        .collect();
    assert_eq!(
        listed,
        [
            "fn Client::get_things_endpoint_2 feature=things (&self) -> &'static str",
            "fn Client::get_things_endpoint_endpoint feature=things (&self) -> &'static str",
        ]
    );
}

/// Without the toy, none of it: the same document through the list the surface runs.
#[test]
fn the_surface_runs_only_the_listed_extensions() {
    let api = api();
    let surface = crate::surface::build(&api, None, crate::extensions::EXTENSIONS)
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(surface.contributions.len(), EXTENSIONS.len());
    assert!(
        !surface
            .names
            .client_methods
            .keys()
            .any(|key| key.starts_with("endpoint "))
    );
    assert_eq!(
        surface.serde_impls("Thing").serialize,
        crate::surface::write_only::Gate::Mock
    );
}

/// The probe sees the toy's methods and expectations with the generic code unchanged.
#[test]
fn a_second_extension_is_probed() {
    let api = api();
    let extensions: [&dyn SurfaceExtension; 2] = [&metrics::Metrics, &Endpoints];
    let probe = crate::probe::emit_probe_with(&api, "krate", &extensions)
        .unwrap_or_else(|error| panic!("{error}"));
    for (function, item) in [
        (
            "probe_Client_get_things_endpoint_2",
            "Client::get_things_endpoint_2",
        ),
        (
            "probe_mock_on_get_things_endpoint_2",
            "mock::FakeBaseten::on_get_things_endpoint_2",
        ),
    ] {
        assert!(
            probe
                .functions
                .contains(&(function.to_owned(), item.to_owned())),
            "{:?}",
            probe.functions
        );
    }
    assert!(
        probe
            .source
            .contains("let _: &'static str = client.get_things_endpoint_2();"),
        "{}",
        probe.source
    );
}

/// What each extension reserves reaches the IR: no schema takes one of its type names, and a
/// setter avoids its traits' methods only while it is run.
#[test]
fn each_extension_reserves_its_own_names() {
    assert_eq!(
        super::reserved_type_names(&[&streams::Streams]),
        ["PageStream"]
    );
    assert_eq!(
        super::reserved_type_names(&[&metrics::Metrics]),
        ["BuildError", "MetricsResponseBuilder"]
    );
    assert!(super::reserved_type_names(&[&Endpoints]).is_empty());
    let document = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  \
        schemas:\n    PageStream: {type: object, properties: {step_seconds: {type: integer}}}\n    \
        MetricsResponseBuilder: {type: string}\n";
    let (api, _) = crate::build_ir(&crate::Input {
        spec_path: "t.yaml",
        spec_text: document,
        config_text: None,
    })
    .unwrap_or_else(|error| panic!("{error}"));
    let names: Vec<&str> = api.types.keys().map(String::as_str).collect();
    assert_eq!(names, ["MetricsResponseBuilder2", "PageStream2"]);
    let setter = |extensions: &[&dyn SurfaceExtension]| {
        let surface =
            crate::surface::build(&api, None, extensions).unwrap_or_else(|error| panic!("{error}"));
        surface.structs["PageStream2"].fields[0].setter.clone()
    };
    assert_eq!(setter(EXTENSIONS).as_deref(), Some("set_step_seconds"));
    assert_eq!(setter(&[&Endpoints]).as_deref(), Some("step_seconds"));
}

/// The client's module doc says what the extensions add, the last after "and"; with none, it
/// ends at the operations.
#[test]
fn the_client_doc_lists_what_the_extensions_add() {
    let api = api();
    let doc = |extensions: &[&dyn SurfaceExtension]| {
        let surface =
            crate::surface::build(&api, None, extensions).unwrap_or_else(|error| panic!("{error}"));
        let (files, ()) =
            crate::emit::emit_files(&surface, &crate::Config::default(), "t.yaml", || ())
                .unwrap_or_else(|error| panic!("{error}"));
        files["client.rs"].clone()
    };
    let bare = doc(&[]);
    assert!(
        bare.contains("//! [`operations`](super::operations)).\n//!\n"),
        "{bare}"
    );
    let one = doc(&[&streams::Streams]);
    assert!(
        one.contains(
            "//! [`operations`](super::operations)), and\n//! streams over every paginated \
             operation.\n"
        ),
        "{one}"
    );
}
