//! Emits `operations.rs`: query structs, and one async `Client` method per operation.

use proc_macro2::TokenStream;
use quote::quote;

use super::{code_span, doc_attrs};
use crate::ir::{Api, BodyKind, Location, Operation, Param, ResponseKind, TypeRef};
use crate::surface::OperationSurface;
use crate::tokens::{ident, type_tokens};

/// The top of `operations.rs`: module docs and imports.
pub(super) fn header(api: &Api, runtime: &TokenStream) -> TokenStream {
    let models = (!api.types.is_empty()).then(|| {
        quote!(
            use super::models::*;
        )
    });
    quote! {
        //! One async method on [`Client`] per operation, and the query parameters they take.
        use super::Client;
        #models
        use #runtime as rt;
    }
}

/// A run of operations: their query structs, then one `impl Client` block with their methods.
/// `operations.rs` is the header, then every run in order.
pub(super) fn emit_operations(operations: &[OperationSurface<'_>]) -> TokenStream {
    let query_types = operations
        .iter()
        .map(|op| super::gate::gate_items(&op.gate.attribute(), emit_query_type(op)));
    let methods = operations
        .iter()
        .map(|op| super::gate::gate_items(&op.gate.attribute(), emit_method(op)));
    quote! {
        #(#query_types)*

        impl Client {
            #(#methods)*
        }
    }
}

fn emit_query_type(surface: &OperationSurface<'_>) -> TokenStream {
    let operation = surface.operation;
    let Some(type_name) = &operation.query_type else {
        return TokenStream::new();
    };
    let name = ident(type_name);
    let doc = format!(
        " Optional query parameters of [`Client::{}`]; unset ones are not sent.",
        operation.name
    );
    let fields = operation.optional_query.iter().map(|param| {
        let field = ident(&param.rust_name);
        let doc = doc_attrs(param.doc.as_deref());
        let ty = match &param.ty {
            vec @ TypeRef::Vec(_) => type_tokens(vec),
            scalar => {
                let scalar = type_tokens(scalar);
                quote!(Option<#scalar>)
            }
        };
        quote!(#doc pub #field: #ty,)
    });
    let setters = operation
        .optional_query
        .iter()
        .zip(&surface.query_setters)
        .map(|(param, setter)| {
            let field = ident(&param.rust_name);
            let setter = ident(setter);
            let doc = format!(" Sets {}.", code_span(&param.wire_name));
            match &param.ty {
                TypeRef::Vec(element) => {
                    let element = type_tokens(element);
                    quote! {
                        #[doc = #doc]
                        #[must_use]
                        pub fn #setter<I>(mut self, values: I) -> Self
                        where
                            I: IntoIterator,
                            I::Item: Into<#element>,
                        {
                            self.#field = values.into_iter().map(Into::into).collect();
                            self
                        }
                    }
                }
                _ if param.any_scalar => quote! {
                    #[doc = #doc]
                    #[must_use]
                    pub fn #setter(mut self, value: impl ::std::fmt::Display) -> Self {
                        self.#field = Some(value.to_string());
                        self
                    }
                },
                // A number or boolean as itself, so that an integer literal just works.
                scalar if crate::surface::builders::takes_itself(scalar) => {
                    let scalar = type_tokens(scalar);
                    quote! {
                        #[doc = #doc]
                        #[must_use]
                        pub fn #setter(mut self, value: #scalar) -> Self {
                            self.#field = Some(value);
                            self
                        }
                    }
                }
                scalar => {
                    let scalar = type_tokens(scalar);
                    quote! {
                        #[doc = #doc]
                        #[must_use]
                        pub fn #setter(mut self, value: impl Into<#scalar>) -> Self {
                            self.#field = Some(value.into());
                            self
                        }
                    }
                }
            }
        });
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, Default, PartialEq)]
        #[non_exhaustive]
        pub struct #name {
            #(#fields)*
        }

        impl #name {
            #(#setters)*
        }
    }
}

fn emit_method(surface: &OperationSurface<'_>) -> TokenStream {
    let operation = surface.operation;
    let name = ident(&operation.name);
    let mut doc_text = operation.doc.clone().unwrap_or_default();
    if !doc_text.is_empty() {
        doc_text.push_str("\n\n");
    }
    doc_text.push_str(&format!("`{} {}`", operation.method, operation.path));
    let doc = doc_attrs(Some(&doc_text));

    let signature = surface.signature();
    let arguments = signature.declared();
    let output = &signature.output;

    let (format_string, encodings) = path_format(operation);
    let path = if encodings.is_empty() {
        quote!(#format_string.to_owned())
    } else {
        quote!(format!(#format_string))
    };

    let params = emit_params(operation);
    let body = match &operation.body {
        Some(body) => {
            let media_type = &body.media_type;
            let encode = match &body.kind {
                BodyKind::Json(_) => quote!(rt::Body::json(#media_type, body)?),
                BodyKind::Form { styles, .. } if styles.is_empty() => {
                    quote!(rt::Body::form(#media_type, body)?)
                }
                BodyKind::Form { styles, .. } => {
                    let styles = styles.iter().map(|styled| {
                        let (wire, explode) = (&styled.wire_name, styled.explode);
                        let style = ident(styled.style.runtime_name());
                        quote!((#wire, rt::param_style::Style::#style, #explode))
                    });
                    quote!(rt::Body::form_styled(#media_type, body, &[#(#styles),*])?)
                }
                BodyKind::Multipart {
                    files,
                    content_types,
                    ..
                } => {
                    let (names, types): (Vec<&String>, Vec<&String>) =
                        content_types.iter().map(|(name, ty)| (name, ty)).unzip();
                    quote!(rt::Body::multipart(#media_type, body, &[#(#files),*], &[#((#names, #types)),*])?)
                }
                BodyKind::Text => quote!(rt::Body::text(#media_type, body)),
                BodyKind::Bytes => quote!(rt::Body::bytes(#media_type, body)),
            };
            if body.required {
                quote!(Some(#encode))
            } else {
                quote!(match body {
                    Some(body) => Some(#encode),
                    None => None,
                })
            }
        }
        None => quote!(None),
    };
    let operation_name = &operation.name;
    let method = ident(&operation.method);
    let template = &operation.path;
    let request = quote! {
        rt::Request {
            operation: #operation_name,
            method: rt::Method::#method,
            path_template: #template,
            path: #path,
            params,
            body: #body,
        }
    };
    let call = match &operation.response {
        ResponseKind::Json(_) => quote!(self.runtime().execute(request).await),
        ResponseKind::Text(media_type) => {
            quote!(self.runtime().execute_text(request, #media_type).await)
        }
        ResponseKind::Bytes(media_type) => {
            quote!(self.runtime().execute_bytes(request, #media_type).await)
        }
        ResponseKind::Empty => quote!(
            self.runtime()
                .execute::<::serde::de::IgnoredAny>(request)
                .await
                .map(|_| ())
        ),
    };
    quote! {
        #doc
        pub async fn #name(&self, #(#arguments),*) -> Result<#output, rt::Error> {
            #(#encodings)*
            #params
            let request = #request;
            #call
        }
    }
}

/// The path template as a `format!` string naming the encoded parameters, and the `let`s that
/// encode each one as exactly one segment.
fn path_format(operation: &Operation) -> (String, Vec<TokenStream>) {
    let mut format_string = String::new();
    let mut encodings = Vec::new();
    let mut encoded = std::collections::BTreeSet::new();
    let mut rest = operation.path.as_str();
    while let Some(open) = rest.find('{') {
        format_string.push_str(&escape_braces(&rest[..open]));
        let after = &rest[open + 1..];
        let close = after.find('}').unwrap_or(after.len());
        let placeholder = &after[..close];
        if let Some(param) = operation
            .path_params
            .iter()
            .find(|p| p.wire_name == placeholder)
        {
            // The style's prefix (`.`, `;id=`) is part of the encoder's expansion.
            format_string.push_str(&format!("{{{}}}", param.rust_name));
            let arg = ident(&param.rust_name);
            let wire = &param.wire_name;
            // A placeholder written twice is encoded once.
            if encoded.insert(wire.as_str()) {
                let style = style_tokens(param);
                let explode = param.explode;
                let value = value_tokens(param, quote!(#arg));
                encodings.push(quote! {
                    let #arg = rt::param_style::path_param(#wire, #style, #explode, #value)?;
                });
            }
        }
        rest = after.get(close + 1..).unwrap_or_default();
    }
    format_string.push_str(&escape_braces(rest));
    (format_string, encodings)
}

fn escape_braces(text: &str) -> String {
    text.replace('{', "{{").replace('}', "}}")
}

/// The `let params` that encodes the query, header and cookie parameters, each by one call of
/// the runtime's encoder with its location, style and `explode`: the path key's own query
/// pairs first, then the required parameters (always sent: an empty array as its style says),
/// then the set optional ones.
fn emit_params(operation: &Operation) -> TokenStream {
    let fixed = operation
        .fixed_query
        .iter()
        .map(|(key, value)| quote!(params.fixed_query(#key, #value);));
    let required = operation.required_query.iter().map(|param| {
        let field = ident(&param.rust_name);
        add_param(param, value_tokens(param, quote!(#field)))
    });
    let optional = operation.optional_query.iter().map(|param| {
        let field = ident(&param.rust_name);
        match &param.ty {
            // An empty list is an unset option.
            TypeRef::Vec(_) => {
                let add = add_param(param, quote!(&query.#field));
                quote! {
                    if !query.#field.is_empty() {
                        #add
                    }
                }
            }
            _ => {
                let add = add_param(param, quote!(value));
                quote! {
                    if let Some(value) = &query.#field {
                        #add
                    }
                }
            }
        }
    });
    let statements: Vec<TokenStream> = fixed.chain(required).chain(optional).collect();
    if statements.is_empty() {
        quote!(let params = rt::param_style::Params::new();)
    } else {
        quote! {
            let mut params = rt::param_style::Params::new();
            #(#statements)*
        }
    }
}

/// `params.add(…)?;` (`add_secret` for a credential) for one parameter and a reference to
/// its value.
fn add_param(param: &Param, value: TokenStream) -> TokenStream {
    let wire = &param.wire_name;
    let location = ident(match param.location {
        Location::Path => "Path",
        Location::Query => "Query",
        Location::Header => "Header",
        Location::Cookie => "Cookie",
    });
    let style = style_tokens(param);
    let explode = param.explode;
    let add = ident(if param.secret { "add_secret" } else { "add" });
    quote! {
        params.#add(rt::param_style::ParamLocation::#location, #wire, #style, #explode, #value)?;
    }
}

fn style_tokens(param: &Param) -> TokenStream {
    let style = ident(param.style.runtime_name());
    quote!(rt::param_style::Style::#style)
}

/// A reference to an argument's value for the encoder: an `impl Display` argument (a union of
/// scalars) as its text.
fn value_tokens(param: &Param, value: TokenStream) -> TokenStream {
    if param.any_scalar {
        quote!(&#value.to_string())
    } else {
        quote!(&#value)
    }
}
