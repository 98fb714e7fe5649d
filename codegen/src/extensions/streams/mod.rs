//! The page-streams extension: every cursor-paginated operation (recognised by structure,
//! never by name: [`pagination`]) gets two `Client` methods, `<operation>_pages` and
//! `<operation>_items`, streams of the runtime's `PageStream` that fetch each page when read.
//!
//! Its names are locked as `pages METHOD /path` and `items METHOD /path` (the keys they had
//! before streams were an extension, so no lock written earlier renames them).

pub(crate) mod pagination;
mod render;

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use self::pagination::Pagination;
use crate::ir::Operation;
use crate::lock::Names;
use crate::reserved::Reservations;
use crate::surface::extension::{
    AddedMethod, Context, Contribution, Placeholder, SurfaceExtension,
};
use crate::surface::features::{FeatureGate, Features};
use crate::surface::listing::Line;
use crate::surface::operation_identity;

/// The extension, as [`super::EXTENSIONS`] lists it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Streams;

impl SurfaceExtension for Streams {
    fn name(&self) -> &'static str {
        "pages"
    }

    /// The runtime's stream, re-exported in `client.rs` of every crate.
    fn reserved(&self) -> Reservations {
        Reservations {
            type_names: &["PageStream"],
            model_traits: &[],
        }
    }

    fn contribute<'a>(&self, context: &mut Context<'a, '_>) -> Box<dyn Contribution + 'a> {
        let api = context.api;
        let streams = api
            .operations
            .iter()
            .filter_map(|operation| {
                let pagination = pagination::pagination(api, operation)?;
                // The extension's own key (`pages METHOD /path`) for the pages; the items keep
                // the key they had before streams were an extension.
                let pages_key = context.key(&[], operation);
                Some(PageStream::claim(
                    operation,
                    pagination,
                    &pages_key,
                    context.names,
                ))
            })
            .collect();
        Box::new(StreamsContribution { streams })
    }
}

/// One cursor-paginated operation's streams.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PageStream<'a> {
    pub(crate) operation: &'a Operation,
    pub(crate) pagination: Pagination,
    /// The stream of pages and the stream of items.
    pub(crate) pages: String,
    pub(crate) items: String,
    /// Scope: the `_pages` body's locals for the client clone and the closure's cursor (beside
    /// one per path parameter).
    pub(crate) client_local: String,
    pub(crate) cursor_local: String,
    /// The features its methods are compiled with.
    pub(crate) gate: FeatureGate,
}

impl<'a> PageStream<'a> {
    /// `operation`'s streams, their names claimed (the pages under `pages_key`).
    fn claim(
        operation: &'a Operation,
        pagination: Pagination,
        pages_key: &str,
        names: &mut Names,
    ) -> Self {
        let identity = operation_identity(operation);
        let pages = names
            .client_methods()
            .claim(pages_key, &format!("{}_pages", operation.name));
        let items = names.client_methods().claim(
            &format!("items {identity}"),
            &format!("{}_items", operation.name),
        );
        let path_arguments = operation.path_params.iter().map(|p| p.rust_name.as_str());
        let mut scope = Names::body_scope(path_arguments.chain(["query"]));
        PageStream {
            operation,
            pagination,
            pages,
            items,
            client_local: scope.claim("client", "client"),
            cursor_local: scope.claim("cursor", "cursor"),
            gate: Features::operation_gate(operation),
        }
    }
}

/// What the extension adds to one crate: the streams, in operation order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StreamsContribution<'a> {
    streams: Vec<PageStream<'a>>,
}

impl Contribution for StreamsContribution<'_> {
    fn client_doc(&self) -> Option<&'static str> {
        Some("streams over every paginated operation")
    }

    fn client_imports(&self) -> TokenStream {
        if self.streams.is_empty() {
            TokenStream::new()
        } else {
            // The streams name the models their pages and items are.
            quote!(
                use super::models::*;
            )
        }
    }

    fn client_items(&self) -> TokenStream {
        self.streams.iter().map(render::client_items).collect()
    }

    fn listing(&self) -> Vec<Line> {
        self.streams.iter().flat_map(render::listing).collect()
    }

    fn methods(&self) -> Vec<AddedMethod<'_>> {
        self.streams
            .iter()
            .flat_map(|stream| {
                let shape = format!(
                    "{} ids, a page stream of {}",
                    stream.operation.path_params.len(),
                    stream.operation.name
                );
                [&stream.pages, &stream.items].map(|name| AddedMethod {
                    name,
                    operation: stream.operation,
                    what: "page stream",
                    preferred: false,
                    shape: shape.clone(),
                })
            })
            .collect()
    }

    fn probe(&self, method: &str, krate: &Ident, placeholder: Placeholder) -> TokenStream {
        self.streams
            .iter()
            .filter_map(|stream| render::probe(stream, method, krate, placeholder))
            .collect()
    }
}

#[cfg(test)]
mod tests;
