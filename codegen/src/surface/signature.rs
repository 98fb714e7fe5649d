//! Each operation's `Client` method signature, decided once: its arguments (name, the type it is
//! declared with, the concrete type a caller can pass for it) and what it returns. The
//! operations emitter declares it, the listing and the change report render it, the compile
//! probe calls it; none spells an argument type of its own.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use crate::ir::{Body, BodyKind, Operation, ResponseKind, TypeRef};
use crate::tokens::{argument_type, ident, type_tokens};

/// One argument of a method.
#[derive(Debug, Clone)]
pub(crate) struct Argument {
    /// Its Rust name (a path or query parameter's, `body`, `query`).
    pub(crate) name: String,
    /// The type the method declares.
    pub(crate) ty: TokenStream,
    /// A concrete type a caller's value may have: the declared one, but for `impl Trait`
    /// arguments (`impl Into<Vec<u8>>` takes a `Vec<u8>`; `impl Display` a value of a type only
    /// `Display` accepts, the probe's `support::Shown`) and the query struct, named through the
    /// crate's `operations` module.
    pub(crate) placeholder: TokenStream,
}

/// A method's arguments after `&self`, and the type its `Result` holds.
#[derive(Debug, Clone)]
pub(crate) struct Signature {
    pub(crate) arguments: Vec<Argument>,
    pub(crate) output: TokenStream,
}

impl Signature {
    /// The declared arguments, `name: type` each.
    pub(crate) fn declared(&self) -> impl Iterator<Item = TokenStream> + '_ {
        self.arguments.iter().map(|argument| {
            let name = ident(&argument.name);
            let ty = &argument.ty;
            quote!(#name: #ty)
        })
    }
}

/// The signature of `operation`'s method, with every type use spelled by `ty` (the emitters'
/// [`type_tokens`]; the change report's renders the old side in the new side's names).
pub(crate) fn operation_signature(
    operation: &Operation,
    ty: &dyn Fn(&TypeRef) -> TokenStream,
) -> Signature {
    body_signature(operation, operation.body.as_ref(), ty)
}

/// The signature of a method sending `operation` with `body` (the operation's own, or one of
/// its other media types').
pub(crate) fn body_signature(
    operation: &Operation,
    body: Option<&Body>,
    ty: &dyn Fn(&TypeRef) -> TokenStream,
) -> Signature {
    let mut arguments: Vec<Argument> = operation
        .path_params
        .iter()
        .chain(&operation.required_query)
        .map(|param| {
            let declared = match &param.ty {
                _ if param.any_scalar => argument_type(param),
                TypeRef::Vec(element) => {
                    let element = ty(element);
                    quote!(&[#element])
                }
                TypeRef::Named(_) | TypeRef::Map(_) | TypeRef::Option(_) | TypeRef::Json => {
                    let value = ty(&param.ty);
                    quote!(&#value)
                }
                _ => argument_type(param),
            };
            let placeholder = if param.any_scalar {
                quote!(support::Shown)
            } else {
                declared.clone()
            };
            Argument {
                name: param.rust_name.clone(),
                ty: declared,
                placeholder,
            }
        })
        .collect();
    if let Some(body) = body {
        // Optional text and bytes take concrete types, so that `None` needs no annotation.
        let (declared, placeholder) = match (&body.kind, body.required) {
            (
                BodyKind::Json(value)
                | BodyKind::Form { ty: value, .. }
                | BodyKind::Multipart { ty: value, .. },
                true,
            ) => {
                let value = ty(value);
                (quote!(&#value), quote!(&#value))
            }
            (
                BodyKind::Json(value)
                | BodyKind::Form { ty: value, .. }
                | BodyKind::Multipart { ty: value, .. },
                false,
            ) => {
                let value = ty(value);
                (quote!(Option<&#value>), quote!(Option<&#value>))
            }
            (BodyKind::Text, true) => (quote!(&str), quote!(&str)),
            (BodyKind::Text, false) => (quote!(Option<&str>), quote!(Option<&str>)),
            (BodyKind::Bytes, true) => (quote!(impl Into<Vec<u8>>), quote!(Vec<u8>)),
            (BodyKind::Bytes, false) => (quote!(Option<Vec<u8>>), quote!(Option<Vec<u8>>)),
        };
        arguments.push(Argument {
            name: "body".to_owned(),
            ty: declared,
            placeholder,
        });
    }
    if let Some(query) = &operation.query_type {
        let query: Ident = ident(query);
        arguments.push(Argument {
            name: "query".to_owned(),
            ty: quote!(&#query),
            placeholder: quote!(&operations::#query),
        });
    }
    let output = match &operation.response {
        ResponseKind::Json(response) => ty(response),
        ResponseKind::Text(_) => quote!(String),
        ResponseKind::Bytes(_) => quote!(Vec<u8>),
        ResponseKind::Empty => quote!(()),
    };
    Signature { arguments, output }
}

/// [`operation_signature`] as the crate spells it.
pub(crate) fn of(operation: &Operation) -> Signature {
    operation_signature(operation, &type_tokens)
}

/// [`body_signature`] as the crate spells it.
pub(crate) fn of_body(operation: &Operation, body: Option<&Body>) -> Signature {
    body_signature(operation, body, &type_tokens)
}
