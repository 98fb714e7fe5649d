//! Emits `client.rs`: the crate's own `Client` over the runtime's, its default base URL, and a
//! typestate metrics request for every operation of the metrics shape.
//!
//! An operation has the metrics shape when its response type is index-mapped (see
//! [`crate::index_mapped`]), its path parameters are strings, and its only query parameters are
//! optional ones named `mode`, `start_epoch_millis`, `end_epoch_millis` and `metrics`. Its entry
//! point is named after the resource its last path parameter identifies
//! (`/v1/models/{model_id}/environments/{env_name}/metrics` → `environment_metrics`), and returns
//! the runtime's `MetricsRequest` over the operation's own response type.

use heck::ToUpperCamelCase;
use proc_macro2::TokenStream;
use quote::quote;

use super::{ident, type_tokens};
use crate::index_mapped::IndexMapped;
use crate::ir::{Api, Field, Operation, ResponseKind, StructDef, TypeDef, TypeRef};

/// One operation of the metrics shape and the names its typestate request gets.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MetricsEntry<'a> {
    pub(crate) operation: &'a Operation,
    /// The `Client` method that starts the request.
    pub(crate) method: String,
    /// The struct that implements the runtime's `MetricsOperation`.
    pub(crate) operation_type: String,
    /// The response type's Rust name.
    pub(crate) response: String,
}

/// The metrics-shaped operations, each with names that collide with no operation method (an
/// operation whose natural entry name is taken gets `<operation>_request`).
pub(crate) fn metrics_entries<'a>(api: &'a Api, shapes: &[IndexMapped]) -> Vec<MetricsEntry<'a>> {
    let mut taken: std::collections::BTreeSet<String> =
        api.operations.iter().map(|op| op.name.clone()).collect();
    let mut entries = Vec::new();
    for operation in &api.operations {
        let ResponseKind::Json(TypeRef::Named(response)) = &operation.response else {
            continue;
        };
        if !shapes.iter().any(|shape| shape.response == *response) || !is_metrics_query(operation) {
            continue;
        }
        let natural = entry_name(&operation.path);
        let method = match natural {
            Some(name) if !taken.contains(&name) => name,
            _ => format!("{}_request", operation.name),
        };
        if taken.contains(&method) {
            continue;
        }
        taken.insert(method.clone());
        entries.push(MetricsEntry {
            operation,
            operation_type: format!("{}Operation", method.to_upper_camel_case()),
            method,
            response: response.clone(),
        });
    }
    entries
}

/// A query parameter's wire name and the test its type must pass.
type ExpectedParam = (&'static str, fn(&TypeRef) -> bool);

fn is_metrics_query(operation: &Operation) -> bool {
    let expected: [ExpectedParam; 4] = [
        ("mode", |ty| {
            matches!(ty, TypeRef::Named(_) | TypeRef::String)
        }),
        ("start_epoch_millis", |ty| *ty == TypeRef::Integer),
        ("end_epoch_millis", |ty| *ty == TypeRef::Integer),
        ("metrics", |ty| {
            *ty == TypeRef::Vec(Box::new(TypeRef::String))
        }),
    ];
    operation.required_query.is_empty()
        && operation.body.is_none()
        && operation.query_type.is_some()
        && operation
            .path_params
            .iter()
            .all(|p| p.ty == TypeRef::String)
        && operation.optional_query.len() == expected.len()
        && expected.iter().all(|(wire, fits)| {
            operation
                .optional_query
                .iter()
                .any(|param| param.wire_name == *wire && fits(&param.ty))
        })
}

/// `environment_metrics` for `/v1/models/{model_id}/environments/{env_name}/metrics`: the static
/// segment before the last parameter, singular, then the last static segment.
fn entry_name(path: &str) -> Option<String> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let last = segments.last()?;
    if last.starts_with('{') {
        return None;
    }
    let parameter_at = segments.iter().rposition(|s| s.starts_with('{'))?;
    let resource = segments.get(parameter_at.checked_sub(1)?)?;
    if resource.starts_with('{') {
        return None;
    }
    let resource = crate::names::operation_name("x", &format!("/{resource}/{{id}}"));
    let resource = resource.strip_prefix("x_")?;
    let name = format!("{resource}_{}", crate::names::snake_ident(last));
    crate::names::is_valid_snake_ident(&name).then_some(name)
}

/// One cursor-paginated operation: its query takes a `cursor`; its response has one list of
/// items and a cursor / has-more pair (on itself or on one struct field, e.g. `pagination`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Paginated<'a> {
    pub(crate) operation: &'a Operation,
    /// The query struct's cursor field.
    pub(crate) cursor_param: String,
    /// The response's list field and its item type.
    pub(crate) items_field: String,
    pub(crate) item: TypeRef,
    /// The field holding the cursor / has-more pair, `None` when the response holds them.
    pub(crate) info_field: Option<String>,
    pub(crate) cursor_field: String,
    pub(crate) has_more_field: String,
}

/// Every paginated operation whose `_pages` / `_items` names are free.
pub(crate) fn paginated(api: &Api) -> Vec<Paginated<'_>> {
    let taken: std::collections::BTreeSet<&str> =
        api.operations.iter().map(|op| op.name.as_str()).collect();
    let find = |name: &str| match api.types.get(name) {
        Some(TypeDef::Struct(def)) => Some(def),
        _ => None,
    };
    let info = |def: &StructDef| {
        let cursor = def.fields.iter().find(|f| {
            f.wire_name == "cursor" && f.ty == TypeRef::String && (f.nullable || !f.required)
        })?;
        let has_more = def.fields.iter().find(|f| {
            f.wire_name == "has_more" && f.ty == TypeRef::Boolean && f.required && !f.nullable
        })?;
        Some((cursor.rust_name.clone(), has_more.rust_name.clone()))
    };
    let plain = |f: &&Field| f.required && !f.nullable;
    api.operations
        .iter()
        .filter_map(|operation| {
            let ResponseKind::Json(TypeRef::Named(response)) = &operation.response else {
                return None;
            };
            let cursor_param = operation
                .optional_query
                .iter()
                .find(|p| p.wire_name == "cursor" && p.ty == TypeRef::String)?;
            let free = ["pages", "items"]
                .iter()
                .all(|suffix| !taken.contains(format!("{}_{suffix}", operation.name).as_str()));
            if !free
                || operation.body.is_some()
                || !operation.required_query.is_empty()
                || operation
                    .path_params
                    .iter()
                    .any(|p| p.ty != TypeRef::String)
            {
                return None;
            }
            let def = find(response)?;
            let (info_field, (cursor_field, has_more_field)) = match info(def) {
                Some(pair) => (None, pair),
                None => def
                    .fields
                    .iter()
                    .filter(plain)
                    .find_map(|field| match &field.ty {
                        TypeRef::Named(name) => {
                            Some((Some(field.rust_name.clone()), info(find(name)?)?))
                        }
                        _ => None,
                    })?,
            };
            let mut lists = def.fields.iter().filter(plain).filter_map(|f| match &f.ty {
                TypeRef::Vec(item) => Some((f.rust_name.clone(), (**item).clone())),
                _ => None,
            });
            let (items_field, item) = lists.next()?;
            if lists.next().is_some() {
                return None;
            }
            Some(Paginated {
                operation,
                cursor_param: cursor_param.rust_name.clone(),
                items_field,
                item,
                info_field,
                cursor_field,
                has_more_field,
            })
        })
        .collect()
}

/// The whole of `client.rs`.
pub(super) fn emit(api: &Api, shapes: &[IndexMapped], runtime: &TokenStream) -> TokenStream {
    let base_url = api.base_url.as_deref().unwrap_or_default();
    let entries = metrics_entries(api, shapes);
    let metrics = entries.iter().map(emit_metrics_entry);
    let paginated = paginated(api);
    let models = (!paginated.is_empty()).then(|| {
        quote!(
            use super::models::*;
        )
    });
    let streams = paginated.iter().map(emit_paginated);
    quote! {
        //! The crate's [`Client`]: the runtime's HTTP client, with one method per operation (see
        //! [`operations`](super::operations)), a typestate request per metrics operation, and
        //! streams over every paginated operation.
        use #runtime as rt;
        #models

        /// The first server URL in the document.
        pub const DEFAULT_BASE_URL: &str = #base_url;

        /// A client for this API: one method per operation.
        ///
        /// Cheap to clone, `Send` and `Sync`: clones share one connection pool, so build one and
        /// pass it around. Requests it builds own a clone, so they can be spawned.
        #[derive(Debug, Clone)]
        pub struct Client {
            runtime: rt::Client,
        }

        impl Client {
            /// A client for [`DEFAULT_BASE_URL`] that authenticates with `api_key`
            /// (`Authorization: Bearer <key>`), with the default timeouts and retries.
            ///
            /// # Errors
            ///
            /// [`rt::Error::InvalidRequest`] if the key is empty or not a valid header value.
            pub fn new(api_key: impl Into<String>) -> ::core::result::Result<Self, rt::Error> {
                Self::builder().api_key(api_key).build()
            }

            /// A client configured from the environment: the key from `BASETEN_API_KEY`, the
            /// base URL from `BASETEN_BASE_URL` if set, else [`DEFAULT_BASE_URL`].
            ///
            /// # Errors
            ///
            /// [`rt::Error::InvalidRequest`] if the key is unset, empty or not a valid header
            /// value, or the base URL is unusable.
            pub fn from_env() -> ::core::result::Result<Self, rt::Error> {
                Self::builder().api_key_from_env().base_url_from_env().build()
            }

            /// A builder for every other setting: base URL, timeouts, retries, headers, a
            /// reqwest client of your own.
            #[must_use]
            pub fn builder() -> rt::ClientBuilder<Self> {
                rt::ClientBuilder::new(DEFAULT_BASE_URL)
            }

            /// The runtime client underneath: settings, and `execute` for requests of your own.
            #[must_use]
            pub fn runtime(&self) -> &rt::Client {
                &self.runtime
            }

            /// The base URL requests go to, without a trailing slash.
            #[must_use]
            pub fn base_url(&self) -> &str {
                self.runtime.base_url()
            }

            /// A copy (sharing the connection pool) whose attempts may each take `timeout`.
            #[must_use]
            pub fn with_timeout(&self, timeout: ::std::time::Duration) -> Self {
                Self::from(self.runtime.with_timeout(timeout))
            }

            /// A copy (sharing the connection pool) that retries as `policy` says.
            #[must_use]
            pub fn with_retry_policy(&self, policy: rt::RetryPolicy) -> Self {
                Self::from(self.runtime.with_retry_policy(policy))
            }
        }

        impl ::core::convert::From<rt::Client> for Client {
            fn from(runtime: rt::Client) -> Self {
                Self { runtime }
            }
        }

        #(#metrics)*

        #(#streams)*
    }
}

fn emit_paginated(paged: &Paginated<'_>) -> TokenStream {
    let operation = paged.operation;
    let call = ident(&operation.name);
    let pages = ident(&format!("{}_pages", operation.name));
    let items = ident(&format!("{}_items", operation.name));
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
        super::code_span(&format!("{} {}", operation.method, operation.path))
    );
    let items_doc = format!(
        " Every item of every page of [`Client::{}`], in order (see [`Client::{}_pages`]).",
        operation.name, operation.name
    );
    quote! {
        impl Client {
            #[doc = #pages_doc]
            pub fn #pages(
                &self,
                #(#ids: impl ::core::convert::Into<::std::string::String>,)*
                query: &super::operations::#query_type,
            ) -> impl rt::pages::Stream<Item = ::core::result::Result<#response, rt::Error>>
                   + ::core::marker::Send + 'static
            {
                let client = self.clone();
                let query = query.clone();
                #(let #ids: ::std::string::String = #ids.into();)*
                rt::pages::pages(
                    move |cursor| {
                        let client = client.clone();
                        let mut query = query.clone();
                        query.#cursor_param = cursor;
                        #(let #ids = #ids.clone();)*
                        async move { client.#call(#(&#ids,)* &query).await }
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
            ) -> impl rt::pages::Stream<Item = ::core::result::Result<#item, rt::Error>>
                   + ::core::marker::Send + 'static
            {
                rt::pages::items(self.#pages(#(#ids,)* query), |page: #response| page.#items_field)
            }
        }
    }
}

fn emit_metrics_entry(entry: &MetricsEntry<'_>) -> TokenStream {
    let operation = entry.operation;
    let method = ident(&entry.method);
    let operation_type = ident(&entry.operation_type);
    let call = ident(&operation.name);
    let response = type_tokens(&TypeRef::Named(entry.response.clone()));
    let query_type = ident(operation.query_type.as_deref().unwrap_or_default());
    let ids: Vec<_> = operation
        .path_params
        .iter()
        .map(|param| ident(&param.rust_name))
        .collect();
    let field = |wire: &str| {
        operation
            .optional_query
            .iter()
            .find(|param| param.wire_name == wire)
            .map(|param| ident(&param.rust_name))
    };
    let (Some(mode), Some(start), Some(end), Some(names)) = (
        field("mode"),
        field("start_epoch_millis"),
        field("end_epoch_millis"),
        field("metrics"),
    ) else {
        return TokenStream::new();
    };
    let method_doc = format!(
        " A metrics request for {} ([`Client::{}`]) whose mode is part of its type; choose \
         one next with `.current()`, `.summary(window)` or `.series(window)`.",
        super::code_span(&format!("{} {}", operation.method, operation.path)),
        operation.name
    );
    let type_doc = format!(
        " {} as the runtime's metrics operation: the client and the ids of one \
         [`Client::{}`] request.",
        super::code_span(&format!("{} {}", operation.method, operation.path)),
        entry.method
    );
    quote! {
        impl Client {
            #[doc = #method_doc]
            pub fn #method(&self, #(#ids: impl ::core::convert::Into<::std::string::String>),*)
                -> rt::MetricsRequest<#operation_type>
            {
                rt::MetricsRequest::new(#operation_type {
                    client: self.clone(),
                    #(#ids: #ids.into(),)*
                })
            }
        }

        #[doc = #type_doc]
        #[derive(Debug, Clone)]
        pub struct #operation_type {
            client: Client,
            #(#ids: ::std::string::String,)*
        }

        impl rt::MetricsOperation for #operation_type {
            type Response = super::models::#response;

            fn send(self, query: rt::MetricsQuery)
                -> impl ::core::future::Future<
                    Output = ::core::result::Result<Self::Response, rt::Error>,
                > + ::core::marker::Send + 'static
            {
                async move {
                    let mut options = super::operations::#query_type::default();
                    options.#mode = ::core::option::Option::Some(query.mode.as_str().into());
                    options.#start = query.window.and_then(|window| window.start_ms());
                    options.#end = query.window.and_then(|window| window.end_ms());
                    options.#names = query.metrics;
                    self.client.#call(#(&self.#ids,)* &options).await
                }
            }
        }
    }
}
