//! Emits `mock.rs` (feature `mock`): `FakeBaseten`, a local fake server with one typed
//! `on_<operation>` expectation per operation (and `on_<entry>` for each typestate metrics
//! request), answering with the operation's own response type.

use proc_macro2::TokenStream;
use quote::quote;

use super::client::metrics_entries;
use super::{ident, type_tokens};
use crate::index_mapped::IndexMapped;
use crate::ir::{Api, Operation, ResponseKind};

/// The whole of `mock.rs`.
pub(super) fn emit(api: &Api, shapes: &[IndexMapped], runtime: &TokenStream) -> TokenStream {
    let models = (!api.types.is_empty()).then(|| {
        quote!(
            use super::models::*;
        )
    });
    let expectations = api.operations.iter().map(emit_expectation);
    let aliases = metrics_entries(api, shapes).into_iter().map(|entry| {
        let alias = ident(&format!("on_{}", entry.method));
        let target = ident(&format!("on_{}", entry.operation.name));
        let response = ident(&entry.response);
        let ids: Vec<_> = entry
            .operation
            .path_params
            .iter()
            .map(|p| ident(&p.rust_name))
            .collect();
        let doc = format!(
            " The requests [`Client::{}`](super::Client::{}) sends: [`on_{}`](Self::on_{}).",
            entry.method, entry.method, entry.operation.name, entry.operation.name
        );
        quote! {
            #[doc = #doc]
            pub fn #alias(&self, #(#ids: &str),*) -> rt::mock::Expectation<'_, #response> {
                self.#target(#(#ids),*)
            }
        }
    });
    quote! {
        //! A fake of this API for tests (feature `mock`): start one, point a [`Client`](super::Client)
        //! at it, and say what each operation answers.
        use #runtime as rt;
        #models

        /// A fake server on 127.0.0.1 with one typed expectation per operation; it stops when
        /// dropped. Requests nothing expects get `404`.
        #[derive(Debug)]
        pub struct FakeBaseten {
            server: rt::mock::FakeServer,
        }

        impl FakeBaseten {
            /// Starts one.
            pub async fn start() -> Self {
                Self { server: rt::mock::FakeServer::start().await }
            }

            /// A client for this fake: its base URL, a fake key, and retries with millisecond
            /// backoffs (a server-requested wait is still honoured).
            ///
            /// # Errors
            ///
            /// Only if the HTTP stack cannot be initialised.
            pub fn client(&self) -> ::core::result::Result<super::Client, rt::Error> {
                super::Client::builder()
                    .api_key(rt::mock::FAKE_API_KEY)
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

            #(#expectations)*

            #(#aliases)*
        }
    }
}

fn emit_expectation(operation: &Operation) -> TokenStream {
    let name = ident(&format!("on_{}", operation.name));
    let response = match &operation.response {
        ResponseKind::Json(ty) => type_tokens(ty),
        // Text and bytes answers are sent with `respond_raw`; nothing to type.
        ResponseKind::Empty | ResponseKind::Text(_) | ResponseKind::Bytes(_) => quote!(()),
    };
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
    let template = operation.path.as_str();
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
