//! The compile probe: Rust emitted from one generated crate's IR that uses every item of that
//! crate the way a user would, to be type-checked (`cargo check`) against another crate.
//!
//! Compiled against the crate it was emitted from, a probe compiles with no warnings. Compiled
//! against a crate generated from a newer document, each error it gets is a place where code
//! written against the old crate stops compiling; since every item is probed by a function of
//! its own (named after it, see [`Probe::item_at_line`]), each error names the item, and the
//! change report ([`crate::diff`]) can be checked against what the compiler says.
//!
//! What a probe does, per item:
//! - a struct: reads every field as the exact type the old crate stores (`Option`, `Box`,
//!   `Indirect` and `Patch` included), builds one with `new` from typed placeholders, calls
//!   every setter and clearer, and `Default::default()` when it had `Default`;
//! - an open enum: matches every variant and the fallback, with the wildcard that
//!   `#[non_exhaustive]` asks of other crates;
//! - a tagged union: the same, checking each payload's type, and asserts (at compile time) the
//!   tag property;
//! - an untagged union: matches every variant, checking each payload's type;
//! - an integer enum: as a string enum, its fallback keeping an `i64`;
//! - an alias: binds a value of it to its target type;
//! - an operation: calls the `Client` method with typed placeholders in an `async fn` that is
//!   never run, and binds its awaited output to the old output type;
//! - a query struct: reads every field, builds one from `Default` and every setter.
//!
//! Placeholders come from `support::any::<T>()` with the type spelled out, so a changed
//! argument type fails to compile rather than being inferred.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::{AliasDef, IntEnumDef, TypeRef, UnionDef, UntaggedDef};
use crate::ir::{Api, EnumDef, Operation, TypeDef};
use crate::surface::builders::{self, Storage, StructSurface};
use crate::surface::queries::QueryArgument;
use crate::surface::{OperationSurface, Surface};
use crate::tokens::{ident, type_tokens};
use crate::{Error, emit};

/// The change report's name for a type: `models::Foo`.
pub fn type_item(name: &str) -> String {
    format!("models::{name}")
}

/// The change report's name for an operation's method: `Client::get_models`.
pub fn method_item(name: &str) -> String {
    format!("Client::{name}")
}

/// The change report's name for a query struct: `operations::GetModelsQuery`.
pub fn query_item(name: &str) -> String {
    format!("operations::{name}")
}

/// The change report's name for one of the fake's expectations: `mock::FakeBaseten::on_x`
/// (`fake_type` is the crate's fake, named after its API).
pub fn fake_item(fake_type: &str, name: &str) -> String {
    format!("mock::{fake_type}::{name}")
}

/// One probe crate's `src/lib.rs`, and which function probes which item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// The formatted source.
    pub source: String,
    /// `(function name, item)` for every probe function, in source order.
    pub functions: Vec<(String, String)>,
}

impl Probe {
    /// The item whose probe function holds 1-based `line` of [`Probe::source`]: a function's
    /// lines run from its `pub fn` / `pub async fn` line to the line before the next one's.
    /// `None` before the first probe function (imports and helpers).
    pub fn item_at_line(&self, line: usize) -> Option<&str> {
        let mut current = None;
        for (number, text) in self.source.lines().enumerate() {
            if number + 1 > line {
                break;
            }
            let Some(rest) = text
                .strip_prefix("pub fn ")
                .or_else(|| text.strip_prefix("pub async fn "))
            else {
                continue;
            };
            let name = rest.split(['(', '<']).next().unwrap_or_default();
            current = self
                .functions
                .iter()
                .find(|(function, _)| function == name)
                .map(|(_, item)| item.as_str());
        }
        current
    }
}

/// Emits the probe of `api` as the whole `src/lib.rs` of a crate that depends on the crate to
/// check as `crate_name` (a package name: `-` is read as `_`) and on `serde_json`.
pub fn emit_probe(api: &Api, crate_name: &str) -> Result<Probe, Error> {
    emit_probe_with(api, crate_name, crate::extensions::EXTENSIONS)
}

/// [`emit_probe`] over a surface with the given extensions.
pub(crate) fn emit_probe_with(
    api: &Api,
    crate_name: &str,
    extensions: &[&dyn crate::extensions::SurfaceExtension],
) -> Result<Probe, Error> {
    let krate_name = crate_name.replace('-', "_");
    if crate::names::rust_ident(krate_name.as_str()) != krate_name {
        return Err(Error::Invalid {
            pointer: String::new(),
            reason: format!("{crate_name:?} is not a crate name a probe can depend on"),
        });
    }
    let surface = crate::surface::build(api, None, extensions)?;
    let write_only = &surface.write_only;
    let mut functions = Vec::new();
    for (name, def) in &api.types {
        functions.push((probe_name("models", name), type_item(name), def));
    }
    let function_names: Vec<(String, String)> = functions
        .iter()
        .map(|(function, item, _)| (function.clone(), item.clone()))
        .chain(api.operations.iter().flat_map(|op| {
            let method = (probe_name("Client", &op.name), method_item(&op.name));
            let query = op
                .query_type
                .as_ref()
                .map(|q| (probe_name("operations", q), query_item(q)));
            std::iter::once(method).chain(query)
        }))
        .chain(
            extra_methods(&surface)
                .iter()
                .map(|name| (probe_name("Client", name), method_item(name))),
        )
        .chain(fake_methods(&surface).map(|(name, _)| {
            (
                probe_name("mock", name),
                fake_item(&api.identity.fake_type, name),
            )
        }))
        .collect();
    let source = emit::format_file("probe.rs", || {
        let krate = ident(&krate_name);
        let header = header(api, &krate);
        let types = functions.iter().map(|(function, _, def)| {
            let function = ident(function);
            match def {
                TypeDef::Struct(def) => match surface.structs.get(&def.name) {
                    Some(resolved) => probe_struct(&function, resolved),
                    None => probe_struct(
                        &function,
                        &builders::resolve_struct(
                            def,
                            write_only.contains(&def.name),
                            &surface.model_traits,
                        ),
                    ),
                },
                TypeDef::Enum(def) => probe_enum(&function, def, &quote!(String)),
                TypeDef::ValueEnum(def) => probe_enum(&function, def, &quote!(::serde_json::Value)),
                TypeDef::Union(def) => probe_union(&function, def),
                TypeDef::Alias(def) => probe_alias(&function, def),
                TypeDef::Untagged(def) => probe_untagged(&function, def),
                TypeDef::IntEnum(def) => probe_int_enum(&function, def),
            }
        });
        let operations = surface.operations.iter().map(|op| {
            let method = probe_operation(op.operation, &krate);
            let query = probe_query(op, &krate);
            quote!(#method #query)
        });
        let contributed = surface.contributions.iter().flat_map(|contribution| {
            let krate = &krate;
            contribution.methods().into_iter().map(move |method| {
                let function = ident(&probe_name("Client", method.name));
                let body = contribution.probe(method.name, krate, any);
                quote! {
                    pub fn #function(client: &::#krate::Client) {
                        #body
                    }
                }
            })
        });
        let body_methods = surface
            .body_methods
            .iter()
            .map(|method| probe_call(&method.name, &method.signature(), &krate));
        let fake_type = ident(&api.identity.fake_type);
        let fake =
            fake_methods(&surface).map(|(name, op)| probe_fake(name, op, &krate, &fake_type));
        quote! {
            #header
            #(#types)*
            #(#operations)*
            #(#contributed)*
            #(#body_methods)*
            #(#fake)*
        }
    })?;
    Ok(Probe {
        source,
        functions: function_names,
    })
}

/// The `Client` methods the surface adds to the operations': the extensions' (entry points,
/// streams) and the methods sending a body in another media type.
fn extra_methods(surface: &Surface<'_>) -> Vec<String> {
    surface
        .contributions
        .iter()
        .flat_map(|contribution| contribution.methods())
        .map(|method| method.name.to_owned())
        .chain(
            surface
                .body_methods
                .iter()
                .map(|method| method.name.clone()),
        )
        .collect()
}

/// The fake's expectations, each with the operation it expects and the type it answers with
/// (`None`: raw answers only).
fn fake_methods<'s>(
    surface: &'s Surface<'_>,
) -> impl Iterator<Item = (&'s str, (&'s Operation, Option<TypeRef>))> {
    surface
        .operations
        .iter()
        .map(|op| {
            let answer = Surface::response_type(op.operation).cloned();
            (op.expectation.as_str(), (op.operation, answer))
        })
        .chain(
            surface
                .contributions
                .iter()
                .flat_map(|contribution| contribution.expectations())
                .map(|added| (added.name, (added.operation, Some(added.answer)))),
        )
}

/// One of the fake's expectations: string ids, an expectation answering with the old type.
fn probe_fake(
    name: &str,
    (operation, answer): (&Operation, Option<TypeRef>),
    krate: &proc_macro2::Ident,
    fake: &proc_macro2::Ident,
) -> TokenStream {
    let function = ident(&probe_name("mock", name));
    let method = ident(name);
    let answer = answer.as_ref().map_or_else(|| quote!(()), type_tokens);
    let ids = operation.path_params.iter().map(|_| any(&quote!(&str)));
    quote! {
        pub fn #function(fake: &::#krate::mock::#fake) {
            let _: rt::mock::Expectation<'_, #answer> = fake.#method(#(#ids),*);
        }
    }
}

/// `probe_models_Foo`: the prefix keeps the three item kinds apart (types are UpperCamelCase,
/// methods snake_case, so within one kind the names are the items' own, which are unique).
fn probe_name(kind: &str, name: &str) -> String {
    format!("probe_{kind}_{name}")
}

fn header(api: &Api, krate: &proc_macro2::Ident) -> TokenStream {
    let models = (!api.types.is_empty()).then(|| quote!(use ::#krate::models::*;));
    quote! {
        //! A compile probe: every item of a generated crate used as its users would.
        //! Type-checked only; nothing here is ever run.
        // Function names are the items' names. Matches end with the wildcard other crates need
        // for a `#[non_exhaustive]` enum, which is unreachable for one that is not.
        #![allow(non_snake_case, unreachable_patterns)]
        #models
        // The query structs, as the signatures' placeholders name them.
        #[allow(unused_imports)]
        use ::#krate::operations;
        // What the emitted types name through `rt::` (not every crate uses any of it).
        #[allow(unused_imports)]
        use ::#krate::runtime as rt;

        /// Typed placeholders.
        pub mod support {
            /// A value of any type, spelled out at each use (`any::<String>()`), so an argument
            /// of another type is a compile error rather than an inference.
            pub fn any<T>() -> T {
                unimplemented!()
            }

            /// Checks that `stream` yields `T`s (or the crate's errors).
            pub fn items_of<T>(
                stream: impl super::rt::pages::Stream<Item = ::core::result::Result<T, super::rt::Error>>,
            ) {
                let _ = stream;
            }

            /// What is passed where an argument takes anything `Display`: a type no concrete
            /// argument type accepts.
            pub struct Shown;

            impl ::std::fmt::Display for Shown {
                fn fmt(&self, _: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    Ok(())
                }
            }
        }
    }
}

fn any(ty: &TokenStream) -> TokenStream {
    quote!(support::any::<#ty>())
}

fn probe_struct(function: &proc_macro2::Ident, resolved: &StructSurface<'_>) -> TokenStream {
    let def = resolved.def;
    let name = ident(&def.name);
    let constructor = ident(crate::reserved::CONSTRUCTOR);
    let mut reads = Vec::new();
    let mut arguments = Vec::new();
    let mut calls = Vec::new();
    for resolved_field in &resolved.fields {
        let field_name = ident(&resolved_field.field.rust_name);
        let stored = resolved_field.stored_type();
        reads.push(quote!(let _: &#stored = &value.#field_name;));
        let value = type_tokens(&resolved_field.field.ty);
        match resolved_field.storage {
            Storage::Required => arguments.push(any(&value)),
            Storage::RequiredNullable => arguments.push(any(&quote!(Option<#value>))),
            Storage::Optional | Storage::Patch => {
                if let Some(setter) = &resolved_field.setter {
                    let setter = ident(setter);
                    let value = any(&value);
                    calls.push(quote!(.#setter(#value)));
                }
                if let Some(clearer) = &resolved_field.clearer {
                    let clearer = ident(clearer);
                    calls.push(quote!(.#clearer()));
                }
            }
        }
    }
    let default = def
        .fields
        .iter()
        .all(|f| !f.required)
        .then(|| quote!(let _: #name = ::std::default::Default::default();));
    let unused = def.fields.is_empty().then(|| quote!(let _ = value;));
    quote! {
        pub fn #function(value: &#name) {
            #unused
            #(#reads)*
            let _: #name = #name::#constructor(#(#arguments),*) #(#calls)*;
            #default
        }
    }
}

/// An open enum's probe; `fallback_payload` is what its fallback variant holds.
fn probe_enum(
    function: &proc_macro2::Ident,
    def: &EnumDef,
    fallback_payload: &TokenStream,
) -> TokenStream {
    let name = ident(&def.name);
    let fallback = ident(&def.fallback);
    let variants = def.variants.iter().map(|v| ident(&v.rust_name));
    quote! {
        pub fn #function(value: &#name) {
            match value {
                #(#name::#variants => {})*
                #name::#fallback(other) => {
                    let _: &#fallback_payload = other;
                }
                _ => {}
            }
        }
    }
}

fn probe_union(function: &proc_macro2::Ident, def: &UnionDef) -> TokenStream {
    let name = ident(&def.name);
    let fallback = ident(&def.fallback);
    let tag = syn::LitByteStr::new(def.tag_property.as_bytes(), proc_macro2::Span::call_site());
    let arms = def.variants.iter().map(|v| {
        let variant = ident(&v.rust_name);
        let ty = v.held.wrap(type_tokens(&v.ty));
        quote! {
            #name::#variant(payload) => {
                let _: &#ty = payload;
            }
        }
    });
    quote! {
        pub fn #function(value: &#name) {
            // Evaluated at compile time: a union decoded by another property fails here.
            const _: () = assert!(matches!(#name::TAG_PROPERTY.as_bytes(), #tag));
            match value {
                #(#arms)*
                #name::#fallback(other) => {
                    let _: &::serde_json::Value = other;
                }
                _ => {}
            }
        }
    }
}

fn probe_untagged(function: &proc_macro2::Ident, def: &UntaggedDef) -> TokenStream {
    let name = ident(&def.name);
    let arms = def.variants.iter().map(|v| {
        let variant = ident(&v.rust_name);
        let ty = v.held.wrap(type_tokens(&v.ty));
        quote! {
            #name::#variant(payload) => {
                let _: &#ty = payload;
            }
        }
    });
    quote! {
        pub fn #function(value: &#name) {
            match value {
                #(#arms)*
                _ => {}
            }
        }
    }
}

fn probe_int_enum(function: &proc_macro2::Ident, def: &IntEnumDef) -> TokenStream {
    let name = ident(&def.name);
    let fallback = ident(&def.fallback);
    let variants = def.variants.iter().map(|v| ident(&v.rust_name));
    quote! {
        pub fn #function(value: &#name) {
            match value {
                #(#name::#variants => {})*
                #name::#fallback(other) => {
                    let _: &i64 = other;
                }
                _ => {}
            }
        }
    }
}

fn probe_alias(function: &proc_macro2::Ident, def: &AliasDef) -> TokenStream {
    let name = ident(&def.name);
    let target = type_tokens(&def.ty);
    quote! {
        pub fn #function(value: #name) {
            let _: #target = value;
        }
    }
}

fn probe_operation(op: &Operation, krate: &proc_macro2::Ident) -> TokenStream {
    probe_call(&op.name, &crate::surface::signature::of(op), krate)
}

/// A call of the `Client` method `name` with `signature`.
fn probe_call(
    name: &str,
    signature: &crate::surface::signature::Signature,
    krate: &proc_macro2::Ident,
) -> TokenStream {
    let function = ident(&probe_name("Client", name));
    let method = ident(name);
    // The surface's signature, each argument a placeholder of the type a caller passes.
    let arguments = signature
        .arguments
        .iter()
        .map(|argument| any(&argument.placeholder));
    let output = &signature.output;
    quote! {
        pub async fn #function(client: &::#krate::Client) {
            let _: Result<#output, ::#krate::Error> = client.#method(#(#arguments),*).await;
        }
    }
}

fn probe_query(op: &OperationSurface<'_>, krate: &proc_macro2::Ident) -> TokenStream {
    let Some(query) = &op.query else {
        return TokenStream::new();
    };
    let function = ident(&probe_name("operations", &query.name));
    let name = ident(&query.name);
    let path = quote!(::#krate::operations::#name);
    let mut reads = Vec::new();
    let mut calls = Vec::new();
    for field in &query.fields {
        let name = ident(&field.param.rust_name);
        let setter = ident(&field.setter);
        let stored = field.stored_type();
        // A value of what the setter takes: the stored array, text for a union of scalars.
        let value = match field.takes {
            QueryArgument::Each => stored.clone(),
            QueryArgument::Shown => quote!(support::Shown),
            QueryArgument::Itself | QueryArgument::Into => type_tokens(&field.param.ty),
        };
        reads.push(quote!(let _: &#stored = &query.#name;));
        let value = any(&value);
        calls.push(quote!(.#setter(#value)));
    }
    quote! {
        pub fn #function(query: &#path) {
            #(#reads)*
            let _: #path = <#path as ::std::default::Default>::default() #(#calls)*;
        }
    }
}
