//! What the page-streams extension renders: each stream's two methods in `client.rs`, its
//! listing lines and its probe.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::PageStream;
use crate::ir::ResponseKind;
use crate::reserved::CLIENT_TYPE;
use crate::surface::extension::Placeholder;
use crate::surface::listing::{Line, compact, output};
use crate::tokens::doc_text::code_span;
use crate::tokens::gate::gate_items;
use crate::tokens::{ident, type_tokens};

/// One stream's methods in `client.rs`, under its operation's gate.
pub(super) fn client_items(stream: &PageStream<'_>) -> TokenStream {
    gate_items(&stream.gate.attribute(), methods(stream))
}

fn methods(stream: &PageStream<'_>) -> TokenStream {
    let operation = stream.operation;
    let paged = &stream.pagination;
    let call = ident(&operation.name);
    let pages = ident(&stream.pages);
    let items = ident(&stream.items);
    let client = ident(&stream.client_local);
    let cursor = ident(&stream.cursor_local);
    let ResponseKind::Json(response) = &operation.response else {
        return TokenStream::new();
    };
    let response = type_tokens(response);
    let item = type_tokens(&paged.item);
    let query_type = ident(operation.query_type.as_deref().unwrap_or_default());
    let cursor_param = ident(&paged.cursor_param);
    let items_field = ident(&paged.items_field);
    let (cursor_field, has_more_field) = (ident(&paged.cursor_field), ident(&paged.has_more_field));
    let info = match &paged.info_field {
        Some(field) => {
            let field = ident(field);
            quote!(page.#field)
        }
        None => quote!(page),
    };
    let ids: Vec<_> = operation
        .path_params
        .iter()
        .map(|p| ident(&p.rust_name))
        .collect();
    let pages_doc = format!(
        " Every page of [`Client::{}`] ({}), each fetched when the stream is read: the \
         first without a cursor, then each with the cursor the last returned, until the server \
         says there is no more. A cursor the server repeats ends the stream with an error \
         instead of looping. `query`'s own cursor is ignored.",
        operation.name,
        code_span(&format!("{} {}", operation.method, operation.path))
    );
    let items_doc = format!(
        " Every item of every page of [`Client::{}`], in order (see [`Client::{}`]).",
        operation.name, stream.pages
    );
    quote! {
        impl Client {
            #[doc = #pages_doc]
            pub fn #pages(
                &self,
                #(#ids: impl ::core::convert::Into<::std::string::String>,)*
                query: &super::operations::#query_type,
            ) -> rt::pages::PageStream<#response>
            {
                let #client = self.clone();
                let query = query.clone();
                #(let #ids: ::std::string::String = #ids.into();)*
                rt::pages::pages(
                    move |#cursor| {
                        let #client = #client.clone();
                        let mut query = query.clone();
                        query.#cursor_param = #cursor;
                        #(let #ids = #ids.clone();)*
                        async move { #client.#call(#(&#ids,)* &query).await }
                    },
                    |page: &#response| rt::pages::PageInfo {
                        cursor: #info.#cursor_field.clone(),
                        has_more: #info.#has_more_field,
                    },
                )
            }

            #[doc = #items_doc]
            pub fn #items(
                &self,
                #(#ids: impl ::core::convert::Into<::std::string::String>,)*
                query: &super::operations::#query_type,
            ) -> rt::pages::PageStream<#item>
            {
                rt::pages::items(self.#pages(#(#ids,)* query), |page: #response| page.#items_field)
            }
        }
    }
}

/// A stream's two lines of the listing: the ids as strings and the query, the page stream of
/// the response, and of its items.
pub(super) fn listing(stream: &PageStream<'_>) -> [Line; 2] {
    let operation = stream.operation;
    let endpoint = format!("[{} {}]", operation.method, operation.path);
    let mut arguments = vec!["&self".to_owned()];
    arguments.extend(
        operation
            .path_params
            .iter()
            .map(|p| format!("{}: impl Into<String>", p.rust_name)),
    );
    if let Some(query) = &operation.query_type {
        arguments.push(format!("query: &{query}"));
    }
    let arguments = arguments.join(", ");
    [
        (&stream.pages, output(operation)),
        (&stream.items, compact(type_tokens(&stream.pagination.item))),
    ]
    .map(|(name, item)| {
        Line::gated(
            "fn",
            format!("{CLIENT_TYPE}::{name}"),
            &stream.gate,
            format!("({arguments}) -> rt::pages::PageStream<{item}> {endpoint}"),
        )
    })
}

/// The probe of `method` when it is one of `stream`'s: the old ids and query, items of the
/// old types.
pub(super) fn probe(
    stream: &PageStream<'_>,
    method: &str,
    krate: &Ident,
    placeholder: Placeholder,
) -> Option<TokenStream> {
    let op = stream.operation;
    let query = ident(op.query_type.as_deref()?);
    let ids: Vec<TokenStream> = op
        .path_params
        .iter()
        .map(|_| placeholder(&quote!(::std::string::String)))
        .collect();
    let query = placeholder(&quote!(&::#krate::operations::#query));
    let ResponseKind::Json(response) = &op.response else {
        return None;
    };
    let (read, call) = if method == stream.pages {
        (type_tokens(response), ident(&stream.pages))
    } else if method == stream.items {
        (type_tokens(&stream.pagination.item), ident(&stream.items))
    } else {
        return None;
    };
    Some(quote! {
        support::items_of::<#read>(client.#call(#(#ids,)* #query));
    })
}
