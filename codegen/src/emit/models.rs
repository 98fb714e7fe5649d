//! Emits `models.rs`: one struct, open enum or alias per IR type.

use proc_macro2::TokenStream;
use quote::quote;

use super::{doc_attrs, ident, type_tokens};
use crate::ir::{AliasDef, Api, EnumDef, Field, StructDef, TypeDef};

pub(super) fn emit(api: &Api) -> TokenStream {
    let items = api.types.values().map(|def| match def {
        TypeDef::Struct(def) => emit_struct(def),
        TypeDef::Enum(def) => emit_enum(def),
        TypeDef::Alias(def) => emit_alias(def),
    });
    let imports = if api
        .types
        .values()
        .any(|def| matches!(def, TypeDef::Struct(_) | TypeDef::Enum(_)))
    {
        quote!(
            use serde::{Deserialize, Serialize};
        )
    } else {
        TokenStream::new()
    };
    quote! {
        //! Types of the API's request and response bodies.
        #imports
        #(#items)*
    }
}

fn emit_struct(def: &StructDef) -> TokenStream {
    let name = ident(&def.name);
    let doc = doc_attrs(def.doc.as_deref());
    let fields = def.fields.iter().map(emit_field);
    quote! {
        #doc
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        pub struct #name {
            #(#fields)*
        }
    }
}

fn emit_field(field: &Field) -> TokenStream {
    let name = ident(&field.rust_name);
    let doc = doc_attrs(field.doc.as_deref());
    let mut ty = type_tokens(&field.ty);
    if field.boxed {
        ty = quote!(Box<#ty>);
    }
    let rename = (field.wire_name != field.rust_name).then(|| {
        let wire = &field.wire_name;
        quote!(#[serde(rename = #wire)])
    });
    let (attribute, ty) = match (field.required, field.nullable) {
        (true, false) => (TokenStream::new(), ty),
        // Required but nullable: absence decodes as `None` too (a real capture omitted
        // `step_seconds`), and `None` is sent as `null`, as the document requires.
        (true, true) => (quote!(#[serde(default)]), quote!(Option<#ty>)),
        (false, _) => (
            quote!(#[serde(default, skip_serializing_if = "Option::is_none")]),
            quote!(Option<#ty>),
        ),
    };
    quote! {
        #doc
        #rename
        #attribute
        pub #name: #ty,
    }
}

fn emit_enum(def: &EnumDef) -> TokenStream {
    let name = ident(&def.name);
    let doc = doc_attrs(def.doc.as_deref());
    let fallback = ident(&def.fallback);
    let variant_names: Vec<_> = def.variants.iter().map(|v| ident(&v.rust_name)).collect();
    let wires: Vec<&str> = def.variants.iter().map(|v| v.wire.as_str()).collect();
    let variant_docs = wires.iter().map(|wire| format!(" `{wire}`"));
    quote! {
        #doc
        ///
        /// Open: a value this crate does not know decodes as the fallback variant, keeping its
        /// string, and encodes back to that string.
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum #name {
            #(#[doc = #variant_docs] #variant_names,)*
            /// A value not in the document this code was generated from.
            #fallback(String),
        }

        impl #name {
            /// Every value the document lists, in its order.
            pub const KNOWN: &'static [Self] = &[#(Self::#variant_names),*];

            /// The value as sent on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    #(Self::#variant_names => #wires,)*
                    Self::#fallback(value) => value,
                }
            }

            /// Whether this is a value the document does not list.
            pub fn is_unknown(&self) -> bool {
                matches!(self, Self::#fallback(_))
            }
        }

        impl From<&str> for #name {
            fn from(value: &str) -> Self {
                match value {
                    #(#wires => Self::#variant_names,)*
                    other => Self::#fallback(other.to_owned()),
                }
            }
        }

        impl From<String> for #name {
            fn from(value: String) -> Self {
                match value.as_str() {
                    #(#wires => Self::#variant_names,)*
                    _ => Self::#fallback(value),
                }
            }
        }

        impl std::str::FromStr for #name {
            type Err = std::convert::Infallible;
            fn from_str(value: &str) -> Result<Self, Self::Err> {
                Ok(Self::from(value))
            }
        }

        impl std::fmt::Display for #name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                String::deserialize(deserializer).map(Self::from)
            }
        }
    }
}

fn emit_alias(def: &AliasDef) -> TokenStream {
    let name = ident(&def.name);
    let doc = doc_attrs(def.doc.as_deref());
    let ty = type_tokens(&def.ty);
    quote! {
        #doc
        pub type #name = #ty;
    }
}
