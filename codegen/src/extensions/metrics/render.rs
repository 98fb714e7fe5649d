//! What the metrics extension renders: `index_mapped.rs` (the runtime's alignment traits for
//! every index-mapped response), each entry point's items in `client.rs` and its fake
//! expectation, its listing lines and its probe. Every runtime trait it implements is named from
//! `crate::runtime_traits`.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::MetricsEntry;
use super::index_mapped::{IndexMapped, RUNTIME_MODES, RUNTIME_UNITS, WireField};
use crate::ir::TypeRef;
use crate::reserved::CLIENT_TYPE;
use crate::runtime_traits::{
    INDEX_MAPPED_DESCRIPTOR, INDEX_MAPPED_RESPONSE, INDEX_MAPPED_VALUE_SET, METRICS_OPERATION,
};
use crate::surface::extension::Placeholder;
use crate::surface::features::FeatureGate;
use crate::surface::listing::Line;
use crate::tokens::doc_text::code_span;
use crate::tokens::gate::gate_items;
use crate::tokens::{ident, type_tokens};

/// The file of alignment traits, beside the emitted modules.
pub(super) const FILE: &str = "index_mapped.rs";

/// How the crate root declares [`FILE`] (a blank line after it, as between the root's items).
pub(super) const DECLARATION: &str = "// Only trait impls: nothing to name from outside.
#[path = \"index_mapped.rs\"]
mod index_mapped_impls;

";

/// `rt::Path` for a runtime item's path under the runtime's root.
fn runtime_path(path: &str) -> TokenStream {
    let segments = path.split("::").map(ident);
    quote!(rt::#(#segments)::*)
}

/// The whole of `index_mapped.rs`: each shape's impls are compiled with its response type
/// (which reaches the other two).
pub(super) fn file(shapes: &[(IndexMapped, FeatureGate)], runtime: &TokenStream) -> TokenStream {
    let impls = shapes
        .iter()
        .map(|(shape, gate)| gate_items(&gate.attribute(), emit_impls(shape)));
    let imports = (!shapes.is_empty()).then(|| {
        quote! {
            use super::models::*;
            use #runtime as rt;
        }
    });
    quote! {
        //! Alignment traits for the response types the generator recognised as index-mapped.
        #imports
        #(#impls)*
    }
}

/// `Some(&str)` for a field holding a wire string (a `String` or an open enum).
fn wire_str(field: Option<&WireField>) -> TokenStream {
    match field {
        Some(WireField {
            field,
            optional: false,
            ..
        }) => {
            let name = ident(field);
            quote!(Some(self.#name.as_str()))
        }
        Some(WireField { field, .. }) => {
            let name = ident(field);
            quote!(self.#name.as_ref().map(|value| value.as_str()))
        }
        None => quote!(None),
    }
}

/// A `match` from a wire-string field onto the runtime's own values (`runtime` pairs each wire
/// value with the runtime's variant under `target`): over the open enum's variants when the
/// field is one, so the compiler checks every name, over the strings otherwise. A value the
/// runtime does not know, or an absent field, is `fallback`; `wrap` wraps a known one.
fn runtime_match(
    field: Option<&WireField>,
    runtime: &[(&str, &str)],
    target: &TokenStream,
    wrap: impl Fn(TokenStream) -> TokenStream,
    fallback: &TokenStream,
) -> TokenStream {
    let Some(field) = field else {
        return fallback.clone();
    };
    let name = ident(&field.field);
    let known = |wire: &str| {
        runtime
            .iter()
            .find(|(runtime_wire, _)| *runtime_wire == wire)
            .map(|(_, variant)| {
                let variant = ident(variant);
                wrap(quote!(#target::#variant))
            })
    };
    let arms: Vec<TokenStream> = match &field.open_enum {
        Some((enum_name, values)) => {
            let enum_name = ident(enum_name);
            values
                .iter()
                .filter_map(|(wire, variant)| {
                    let value = known(wire)?;
                    let variant = ident(variant);
                    Some(if field.optional {
                        quote!(Some(#enum_name::#variant) => #value,)
                    } else {
                        quote!(#enum_name::#variant => #value,)
                    })
                })
                .collect()
        }
        None => runtime
            .iter()
            .filter_map(|(wire, _)| {
                let value = known(wire)?;
                Some(if field.optional {
                    quote!(Some(#wire) => #value,)
                } else {
                    quote!(#wire => #value,)
                })
            })
            .collect(),
    };
    let scrutinee = match (&field.open_enum, field.optional) {
        (Some(_), false) => quote!(&self.#name),
        (Some(_), true) => quote!(self.#name.as_ref()),
        (None, false) => quote!(self.#name.as_str()),
        (None, true) => quote!(self.#name.as_deref()),
    };
    quote! {
        match #scrutinee {
            #(#arms)*
            _ => #fallback,
        }
    }
}

fn emit_impls(shape: &IndexMapped) -> TokenStream {
    let response_trait = runtime_path(INDEX_MAPPED_RESPONSE.path);
    let [descriptor_type, value_set_type] = INDEX_MAPPED_RESPONSE.types.map(ident);
    let [
        window_start_millis,
        window_end_millis,
        mode_str,
        mode_fn,
        step_seconds_fn,
        descriptors_fn,
        value_sets_fn,
    ] = INDEX_MAPPED_RESPONSE.methods.map(ident);
    let descriptor_trait = runtime_path(INDEX_MAPPED_DESCRIPTOR.path);
    let [name_fn, unit_hint_str, unit_fn, kind_str, label_sets_fn] =
        INDEX_MAPPED_DESCRIPTOR.methods.map(ident);
    let value_set_trait = runtime_path(INDEX_MAPPED_VALUE_SET.path);
    let [start_epoch_millis_fn, values_fn] = INDEX_MAPPED_VALUE_SET.methods.map(ident);
    let response = ident(&shape.response);
    let descriptor = ident(&shape.descriptor);
    let value_set = ident(&shape.value_set);
    let descriptors = ident(&shape.descriptors_field);
    let value_sets = ident(&shape.value_sets_field);
    let mode = wire_str(shape.mode.as_ref());
    let unit_hint = wire_str(shape.unit_hint.as_ref());
    let kind = wire_str(shape.kind.as_ref());
    let mode_value = runtime_match(
        shape.mode.as_ref(),
        RUNTIME_MODES,
        &quote!(rt::MetricsMode),
        |value| quote!(Some(#value)),
        &quote!(None),
    );
    let unit = runtime_match(
        shape.unit_hint.as_ref(),
        RUNTIME_UNITS,
        &quote!(rt::metrics::Unit),
        |value| value,
        &quote!(rt::metrics::Unit::Unknown),
    );
    let step_seconds = match &shape.step_seconds {
        Some((name, false)) => {
            let name = ident(name);
            quote!(Some(self.#name))
        }
        Some((name, true)) => {
            let name = ident(name);
            quote!(self.#name)
        }
        None => quote!(None),
    };
    quote! {
        impl #response_trait for #response {
            type #descriptor_type = #descriptor;
            type #value_set_type = #value_set;
            fn #window_start_millis(&self) -> i64 {
                self.start_epoch_millis
            }
            fn #window_end_millis(&self) -> i64 {
                self.end_epoch_millis
            }
            fn #mode_str(&self) -> Option<&str> {
                #mode
            }
            fn #mode_fn(&self) -> Option<rt::MetricsMode> {
                #mode_value
            }
            fn #step_seconds_fn(&self) -> Option<i64> {
                #step_seconds
            }
            fn #descriptors_fn(&self) -> &[#descriptor] {
                &self.#descriptors
            }
            fn #value_sets_fn(&self) -> &[#value_set] {
                &self.#value_sets
            }
        }

        impl #descriptor_trait for #descriptor {
            fn #name_fn(&self) -> &str {
                &self.name
            }
            fn #unit_hint_str(&self) -> Option<&str> {
                #unit_hint
            }
            fn #unit_fn(&self) -> rt::metrics::Unit {
                #unit
            }
            fn #kind_str(&self) -> Option<&str> {
                #kind
            }
            fn #label_sets_fn(&self) -> &[::std::collections::BTreeMap<String, String>] {
                &self.label_sets
            }
        }

        impl #value_set_trait for #value_set {
            fn #start_epoch_millis_fn(&self) -> i64 {
                self.start_epoch_millis
            }
            fn #values_fn(&self) -> &[Vec<Option<f64>>] {
                &self.values
            }
        }
    }
}

/// `GET /path` as a code span.
fn endpoint(entry: &MetricsEntry<'_>) -> String {
    code_span(&format!(
        "{} {}",
        entry.operation.method, entry.operation.path
    ))
}

fn path_ids(entry: &MetricsEntry<'_>) -> Vec<Ident> {
    entry
        .operation
        .path_params
        .iter()
        .map(|param| ident(&param.rust_name))
        .collect()
}

/// One entry point's items in `client.rs`, under its operation's gate: the result aliases, the
/// `Client` method and the support struct implementing the runtime's `MetricsOperation`.
pub(super) fn client_items(entry: &MetricsEntry<'_>) -> TokenStream {
    gate_items(&entry.gate.attribute(), entry_items(entry))
}

fn entry_items(entry: &MetricsEntry<'_>) -> TokenStream {
    let operation = entry.operation;
    let method = ident(&entry.method);
    let operation_type = ident(&entry.operation_type);
    let call = ident(&operation.name);
    let response = type_tokens(&TypeRef::Named(entry.response.clone()));
    let query_type = ident(operation.query_type.as_deref().unwrap_or_default());
    let client = ident(&entry.client_field);
    let ids = path_ids(entry);
    let mode = ident(&entry.query.mode);
    let start = ident(&entry.query.start);
    let end = ident(&entry.query.end);
    let names = ident(&entry.query.metrics);
    let endpoint = endpoint(entry);
    let method_doc = format!(
        " A metrics request for {endpoint} ([`Client::{}`]) whose mode is part of its type; \
         choose one next with `.current()`, `.summary(window)` or `.series(window)`.",
        operation.name
    );
    let type_doc = format!(
        " {endpoint} as the runtime's metrics operation: the client and the ids of one \
         [`Client::{}`] request.",
        entry.method
    );
    let aliases = [
        (&entry.results.current, "current()", "CurrentMetrics"),
        (&entry.results.summary, "summary(window)", "SummaryMetrics"),
        (&entry.results.series, "series(window)", "SeriesMetrics"),
    ]
    .map(|(alias, call, result)| {
        let doc = format!(
            " What [`Client::{}`]`(..).{call}.send()` returns for {endpoint}: the checked \
             response, `{result}<{}>`.",
            entry.method, entry.response
        );
        let alias = ident(alias);
        let result = ident(result);
        quote! {
            #[doc = #doc]
            pub type #alias = rt::#result<super::models::#response>;
        }
    });
    let operation_trait = runtime_path(METRICS_OPERATION.path);
    let [response_type] = METRICS_OPERATION.types.map(ident);
    let [send] = METRICS_OPERATION.methods.map(ident);
    quote! {
        #(#aliases)*

        impl Client {
            #[doc = #method_doc]
            pub fn #method(&self, #(#ids: impl ::core::convert::Into<::std::string::String>),*)
                -> rt::MetricsRequest<#operation_type>
            {
                rt::MetricsRequest::new(#operation_type {
                    #client: self.clone(),
                    #(#ids: #ids.into(),)*
                })
            }
        }

        #[doc = #type_doc]
        #[derive(Debug, Clone)]
        pub struct #operation_type {
            #client: Client,
            #(#ids: ::std::string::String,)*
        }

        impl #operation_trait for #operation_type {
            type #response_type = super::models::#response;

            fn #send(self, query: rt::MetricsQuery, _: rt::requests::Sealed)
                -> impl ::core::future::Future<
                    Output = ::core::result::Result<Self::#response_type, rt::Error>,
                > + ::core::marker::Send + 'static
            {
                async move {
                    let mut options = super::operations::#query_type::default();
                    options.#mode = ::core::option::Option::Some(query.mode.as_str().into());
                    options.#start = query.window.and_then(|window| window.start_ms());
                    options.#end = query.window.and_then(|window| window.end_ms());
                    options.#names = query.metrics;
                    self.#client.#call(#(&self.#ids,)* &options).await
                }
            }
        }
    }
}

/// The fake's expectation for an entry point: the operation's own, under the entry point's
/// name.
pub(super) fn fake_method(entry: &MetricsEntry<'_>) -> TokenStream {
    let alias = ident(&entry.expectation);
    let target = ident(&entry.forwards_to);
    let response = ident(&entry.response);
    let ids = path_ids(entry);
    let doc = format!(
        " The requests [`Client::{}`](super::Client::{}) sends: [`{target}`](Self::{target}).",
        entry.method, entry.method
    );
    let method = quote! {
        #[doc = #doc]
        pub fn #alias(&self, #(#ids: &str),*) -> rt::mock::Expectation<'_, #response> {
            self.#target(#(#ids),*)
        }
    };
    gate_items(&entry.gate.attribute(), method)
}

/// The listing's lines for the alignment traits of a response, its descriptor and its value
/// set (the listing adds each type's gate).
pub(super) fn impl_lines(shape: &IndexMapped) -> [Line; 3] {
    [
        (&shape.response, INDEX_MAPPED_RESPONSE.path),
        (&shape.descriptor, INDEX_MAPPED_DESCRIPTOR.path),
        (&shape.value_set, INDEX_MAPPED_VALUE_SET.path),
    ]
    .map(|(name, path)| Line::new("impl", format!("models::{name}"), format!("rt::{path}")))
}

/// An entry point's lines of the listing: its method, support struct, result aliases and fake
/// expectation.
pub(super) fn listing(entry: &MetricsEntry<'_>) -> Vec<Line> {
    let operation = entry.operation;
    let endpoint = format!("[{} {}]", operation.method, operation.path);
    let gate = &entry.gate;
    let [response_type] = METRICS_OPERATION.types;
    let method = |taken_as: &str, output: String| {
        let arguments: String = operation
            .path_params
            .iter()
            .map(|param| format!(", {}: {taken_as}", param.rust_name))
            .collect();
        format!("(&self{arguments}) -> {output} {endpoint}")
    };
    let line = |kind: &'static str, path: String, signature: String| {
        Line::gated(kind, path, gate, signature)
    };
    let mut lines = vec![
        line(
            "fn",
            format!("{CLIENT_TYPE}::{}", entry.method),
            method(
                "impl Into<String>",
                // The response its results hold, which the operation type's name does not say
                // (the change report reads it here).
                format!(
                    "rt::MetricsRequest<{}> ({response_type} = {})",
                    entry.operation_type, entry.response
                ),
            ),
        ),
        line(
            "struct",
            format!("client::{}", entry.operation_type),
            format!(
                "rt::{}<{response_type} = {}>",
                METRICS_OPERATION.path, entry.response
            ),
        ),
    ];
    for (alias, result) in [
        (&entry.results.current, "CurrentMetrics"),
        (&entry.results.summary, "SummaryMetrics"),
        (&entry.results.series, "SeriesMetrics"),
    ] {
        lines.push(line(
            "type",
            format!("client::{alias}"),
            format!("= rt::{result}<{}>", entry.response),
        ));
    }
    lines.push(line(
        "fn",
        format!("mock::{}::{}", entry.fake_type, entry.expectation),
        method(
            "&str",
            format!("rt::mock::Expectation<'_, {}>", entry.response),
        ),
    ));
    lines
}

/// An entry point's probe: started with string ids, it is the runtime's request over the old
/// support struct, whose response is the old response type.
pub(super) fn probe(
    entry: &MetricsEntry<'_>,
    krate: &Ident,
    placeholder: Placeholder,
) -> TokenStream {
    let method = ident(&entry.method);
    let operation_type = ident(&entry.operation_type);
    let response = ident(&entry.response);
    let operation_trait = runtime_path(METRICS_OPERATION.path);
    let [response_type] = METRICS_OPERATION.types.map(ident);
    let ids = entry
        .operation
        .path_params
        .iter()
        .map(|_| placeholder(&quote!(::std::string::String)));
    quote! {
        fn answers<O: #operation_trait<#response_type = #response>>(_: &rt::MetricsRequest<O>) {}
        let request: rt::MetricsRequest<::#krate::client::#operation_type> =
            client.#method(#(#ids),*);
        answers(&request);
    }
}
