//! Emits `index_mapped.rs`: the runtime's alignment traits for every response type of the
//! index-mapped shape (see `crate::index_mapped`).

use proc_macro2::TokenStream;
use quote::quote;

use crate::index_mapped::IndexMapped;
use crate::tokens::ident;

pub(super) fn emit(shapes: &[IndexMapped], runtime: &TokenStream) -> TokenStream {
    let impls = shapes.iter().map(emit_impls);
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
fn wire_str(field: &Option<(String, bool)>) -> TokenStream {
    match field {
        Some((name, false)) => {
            let name = ident(name);
            quote!(Some(self.#name.as_str()))
        }
        Some((name, true)) => {
            let name = ident(name);
            quote!(self.#name.as_ref().map(|value| value.as_str()))
        }
        None => quote!(None),
    }
}

fn emit_impls(shape: &IndexMapped) -> TokenStream {
    let response = ident(&shape.response);
    let descriptor = ident(&shape.descriptor);
    let value_set = ident(&shape.value_set);
    let descriptors = ident(&shape.descriptors_field);
    let value_sets = ident(&shape.value_sets_field);
    let mode = wire_str(&shape.mode);
    let unit_hint = wire_str(&shape.unit_hint);
    let kind = wire_str(&shape.kind);
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
