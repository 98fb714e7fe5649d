//! Emits `index_mapped.rs`: the runtime's alignment traits for every response type of the
//! index-mapped shape (see `crate::index_mapped`).

use proc_macro2::TokenStream;
use quote::quote;

use crate::index_mapped::{IndexMapped, RUNTIME_MODES, RUNTIME_UNITS, WireField};
use crate::surface::features::Features;
use crate::tokens::ident;

/// Each shape's impls are compiled with its response type (which reaches the other two).
pub(super) fn emit(
    shapes: &[IndexMapped],
    features: &Features,
    runtime: &TokenStream,
) -> TokenStream {
    let impls = shapes.iter().map(|shape| {
        let gate = features.type_gate(&shape.response).attribute();
        super::gate::gate_items(&gate, emit_impls(shape))
    });
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
        impl rt::IndexMappedResponse for #response {
            type Descriptor = #descriptor;
            type ValueSet = #value_set;
            fn window_start_millis(&self) -> i64 {
                self.start_epoch_millis
            }
            fn window_end_millis(&self) -> i64 {
                self.end_epoch_millis
            }
            fn mode_str(&self) -> Option<&str> {
                #mode
            }
            fn mode(&self) -> Option<rt::MetricsMode> {
                #mode_value
            }
            fn step_seconds(&self) -> Option<i64> {
                #step_seconds
            }
            fn descriptors(&self) -> &[#descriptor] {
                &self.#descriptors
            }
            fn value_sets(&self) -> &[#value_set] {
                &self.#value_sets
            }
        }

        impl rt::IndexMappedDescriptor for #descriptor {
            fn name(&self) -> &str {
                &self.name
            }
            fn unit_hint_str(&self) -> Option<&str> {
                #unit_hint
            }
            fn unit(&self) -> rt::metrics::Unit {
                #unit
            }
            fn kind_str(&self) -> Option<&str> {
                #kind
            }
            fn label_sets(&self) -> &[::std::collections::BTreeMap<String, String>] {
                &self.label_sets
            }
        }

        impl rt::IndexMappedValueSet for #value_set {
            fn start_epoch_millis(&self) -> i64 {
                self.start_epoch_millis
            }
            fn values(&self) -> &[Vec<Option<f64>>] {
                &self.values
            }
        }
    }
}
