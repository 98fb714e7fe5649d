//! Emits `mock.rs` (feature `mock`): the fake (`Fake<Api>`, named after the API), a local fake server with the surface's
//! expectations: one typed `on_<operation>` per operation, answering with the operation's own
//! response type, and those the extensions contributed.

use std::collections::BTreeMap;

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use crate::ir::StructDef;
use crate::surface::builders;
use crate::surface::features::FeatureGate;
use crate::surface::{FAKE_REEXPORTS, OperationSurface, Surface};
use crate::tokens::{ident, type_tokens};

/// The whole of `mock.rs`.
pub(super) fn emit(surface: &Surface<'_>, runtime: &TokenStream) -> TokenStream {
    let models = (!surface.api.types.is_empty()).then(|| {
        quote!(
            use super::models::*;
        )
    });
    let fake = ident(&surface.api.identity.fake_type);
    let expectations = surface
        .operations
        .iter()
        .map(|op| super::gate::gate_items(&op.gate.attribute(), emit_expectation(op)));
    let contributed = surface
        .contributions
        .iter()
        .map(|contribution| contribution.fake_methods());
    let reexports = FAKE_REEXPORTS.iter().map(|path| {
        let segments = path.split("::").map(ident);
        quote!(#(#segments)::*)
    });
    let example = example(surface);
    let builders = emit_builders(surface);
    let round_trips = emit_round_trips(surface);
    // Every other scheme's credential too, when operations need different ones: a fake
    // accepts any, and every operation's requirement is then met.
    let auth = &surface.api.auth;
    let credentials_doc = auth.per_operation.then(|| {
        quote! {
            ///
            /// It holds a fake credential for every other security scheme too, so every operation
            /// is sent.
        }
    });
    let credentials = auth
        .schemes
        .iter()
        .filter(|scheme| auth.per_operation && auth.key_scheme.as_ref() != Some(&scheme.key))
        .map(|scheme| {
            let key = scheme.key.as_str();
            let place = super::client::place_tokens(&scheme.place);
            quote!(.credential(#key, #place, rt::mock::FAKE_API_KEY))
        });
    quote! {
        //! A fake of this API for tests (feature `mock`): start one, point a [`Client`](super::Client)
        //! at it, and say what each operation answers.
        use #runtime as rt;
        #models

        #(pub use rt::mock::#reexports;)*

        /// A fake server on 127.0.0.1 with one typed expectation per operation; it stops when
        /// dropped. Requests nothing expects get `404`.
        ///
        /// Each operation's `Client` method shows its call answered by this fake.
        #example
        #[derive(Debug)]
        pub struct #fake {
            server: rt::mock::FakeServer,
        }

        impl #fake {
            /// Starts one.
            pub async fn start() -> Self {
                Self { server: rt::mock::FakeServer::start().await }
            }

            /// A client for this fake: its base URL, a fake key, and retries with millisecond
            /// backoffs (a server-requested wait is still honoured).
            #credentials_doc
            ///
            /// # Errors
            ///
            /// Only if the HTTP stack cannot be initialised.
            pub fn client(&self) -> ::core::result::Result<super::Client, rt::Error> {
                super::Client::builder()
                    .api_key(rt::mock::FAKE_API_KEY)
                    #(#credentials)*
                    .base_url(self.server.uri())
                    .retry_policy(rt::mock::fast_retries())
                    .build()
            }

            /// The base URL, for a client built by hand.
            pub fn uri(&self) -> ::std::string::String {
                self.server.uri()
            }

            /// The server underneath: every request received, and wiremock itself.
            pub fn server(&self) -> &rt::mock::FakeServer {
                &self.server
            }

            /// Requests of `method` to `path` (as sent: percent-encoded, without the query),
            /// for those made with [`Client::request`](super::Client::request); the answer is any
            /// `T` that serializes.
            pub fn on_request<T>(
                &self,
                method: rt::reqwest::Method,
                path: &str,
            ) -> rt::mock::Expectation<'_, T> {
                self.server.on_method(&method, path)
            }

            #(#expectations)*

            #(#contributed)*
        }

        #builders

        #round_trips
    }
}

/// `round_trips()`: every type of the crate with its round trip (`rt::mock::round_trip`), for
/// the generator's own tests to reach each type without naming it; hidden from the docs. One
/// `rt::round_trips!` list per feature gate, not a gated line per type: the list is as long as
/// the crate's types, and a line per type made a long chain's generation 18% slower.
fn emit_round_trips(surface: &Surface<'_>) -> TokenStream {
    let mut by_gate: BTreeMap<FeatureGate, Vec<Ident>> = BTreeMap::new();
    for def in surface.api.types.values() {
        let name = def.name();
        by_gate
            .entry(surface.features.type_gate(name))
            .or_default()
            .push(ident(name));
    }
    let lists = by_gate.iter().map(|(gate, types)| {
        let gate = gate.attribute();
        quote! {
            #gate
            rt::round_trips!(all, [#(#types),*]);
        }
    });
    quote! {
        /// Every type of this crate with its round trip, for the generator's own tests.
        #[doc(hidden)]
        pub fn round_trips() -> ::std::vec::Vec<rt::mock::round_trip::RoundTrip> {
            #[allow(unused_mut)]
            let mut all = ::std::vec::Vec::new();
            #(#lists)*
            all
        }
    }
}

/// `Builder<T>` and, for each struct a response reaches, `T::builder()` and one setter per field
/// on `Builder<T>` (one line each, through the runtime's `mock_setters!`): test values without
/// JSON, whose required fields `build` checks. Request bodies have `new` and their setters.
fn emit_builders(surface: &Surface<'_>) -> TokenStream {
    let structs: Vec<&StructDef> = surface.test_builders().collect();
    if structs.is_empty() {
        return TokenStream::new();
    }
    let impls = structs.iter().map(|def| {
        let name = ident(&def.name);
        let setters = def.fields.iter().map(|field| {
            let setter = ident(&Surface::test_builder_setter(&field.rust_name));
            let ty = type_tokens(&field.ty);
            let how = if builders::takes_itself(&field.ty) {
                quote!(value)
            } else {
                quote!(into)
            };
            let wire = &field.wire_name;
            quote!(#setter: #how #ty = #wire)
        });
        let gate = surface.features.type_gate(&def.name).attribute();
        super::gate::gate_items(
            &gate,
            quote! {
                rt::mock_setters!(#name, [#(#setters),*]);
            },
        )
    });
    quote! {
        /// A model being built for a test (`Model::builder()`): one setter per field, named as the
        /// field, then [`build`](Self::build), which checks it as a response would be checked.
        #[derive(Debug, Clone)]
        #[must_use]
        pub struct Builder<T>(rt::mock::Fields<T>);

        impl<T: serde::de::DeserializeOwned> Builder<T> {
            /// The value.
            ///
            /// # Errors
            ///
            /// [`Error::InvalidArgument`](rt::Error::InvalidArgument) naming a required field
            /// left out.
            pub fn build(self) -> ::core::result::Result<T, rt::Error> {
                self.0.build()
            }
        }

        #(#impls)*
    }
}

/// The rustdoc example of the fake, when the surface has one: start it, expect one call, point a
/// client at it, make the call. `mock.rs` only exists with the `mock` feature, so it always runs.
fn example(surface: &Surface<'_>) -> TokenStream {
    let Some(examples) = &surface.examples else {
        return TokenStream::new();
    };
    let Some(call) = &examples.call else {
        return TokenStream::new();
    };
    let krate = examples.crate_name.as_str();
    let fake_type = &surface.api.identity.fake_type;
    let (paths, arguments) = super::example_arguments(call, krate);
    let response = super::example_value(&call.response, krate);
    super::example_doc(
        "Example",
        &format!(
            "# #[tokio::main(flavor = \"current_thread\")]
# async fn main() -> Result<(), Box<dyn std::error::Error>> {{
use {krate}::mock::{fake_type};

let fake = {fake_type}::start().await;
let expected = {response};
fake.{expectation}({paths}).respond(&expected).await;

let client = fake.client()?; // a `Client` with the fake's base URL and a fake key
let answer = client.{method}({arguments}).await?;
assert_eq!(answer, expected);
# Ok(()) }}",
            expectation = call.expectation,
            method = call.operation.name,
        ),
    )
}

fn emit_expectation(surface: &OperationSurface<'_>) -> TokenStream {
    let operation = surface.operation;
    let name = ident(&surface.expectation);
    // Text and bytes answers are sent with `respond_raw`; nothing to type.
    let response = Surface::response_type(operation).map_or_else(|| quote!(()), type_tokens);
    let ids: Vec<_> = operation
        .path_params
        .iter()
        .map(|p| ident(&p.rust_name))
        .collect();
    let wires: Vec<&str> = operation
        .path_params
        .iter()
        .map(|p| p.wire_name.as_str())
        .collect();
    let method = operation.method.as_str();
    // A `label` or `matrix` parameter's prefix is part of the path the fake expects.
    let mut template = operation.path.clone();
    for param in operation
        .path_params
        .iter()
        .filter(|p| !p.path_prefix().is_empty())
    {
        let placeholder = format!("{{{}}}", param.wire_name);
        template = template.replace(
            &placeholder,
            &format!("{}{placeholder}", param.path_prefix()),
        );
    }
    let template = template.as_str();
    let doc = format!(
        " Requests of {} ([`Client::{}`](super::Client::{})) with these path parameters.",
        super::code_span(&format!("{} {}", operation.method, operation.path)),
        operation.name,
        operation.name
    );
    quote! {
        #[doc = #doc]
        pub fn #name(&self, #(#ids: &str),*) -> rt::mock::Expectation<'_, #response> {
            let path = rt::mock::fill_path(#template, &[#((#wires, #ids)),*]);
            self.server.on(#method, path)
        }
    }
}
