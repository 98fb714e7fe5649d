//! Emits `operations.rs`: query structs, and one async `Client` method per operation.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use super::{code_span, doc_attrs};
use crate::ir::{Api, Body, BodyKind, Location, Operation, Param, ParamStyle, ResponseKind};
use crate::surface::examples::{ExampleCall, Examples};
use crate::surface::queries::QueryArgument;
use crate::surface::signature::Signature;
use crate::surface::{BodyMethod, OperationSurface, Surface};
use crate::tokens::ident;

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
pub(super) fn emit_operations(
    operations: &[OperationSurface<'_>],
    surface: &Surface<'_>,
) -> TokenStream {
    let examples = surface.examples.as_ref();
    let query_types = operations
        .iter()
        .map(|op| super::gate::gate_items(&op.gate.attribute(), emit_query_type(op)));
    let methods = operations.iter().map(|op| {
        let call = examples.and_then(|examples| {
            let call = examples
                .calls
                .iter()
                .find(|call| std::ptr::eq(call.operation, op.operation))?;
            Some((call, examples))
        });
        let typed = surface.methods_calling(op.operation);
        // The same operation with its body in each other media type, right after it.
        let others: Vec<&BodyMethod<'_>> = surface
            .body_methods
            .iter()
            .filter(|other| std::ptr::eq(other.operation, op.operation))
            .collect();
        let method = emit_method(op, call, &typed, &others);
        let others = others.iter().map(|other| emit_body_method(op, other));
        let methods = quote!(#method #(#others)*);
        super::gate::gate_items(&op.gate.attribute(), methods)
    });
    quote! {
        #(#query_types)*

        impl Client {
            #(#methods)*
        }
    }
}

fn emit_query_type(surface: &OperationSurface<'_>) -> TokenStream {
    let Some(query) = &surface.query else {
        return TokenStream::new();
    };
    let name = ident(&query.name);
    let doc = query.doc(&surface.operation.name);
    let fields = query.fields.iter().map(|field| {
        let name = ident(&field.param.rust_name);
        let doc = doc_attrs(field.param.doc.as_deref());
        let ty = field.stored_type();
        quote!(#doc pub #name: #ty,)
    });
    let setters = query.fields.iter().map(|field| {
        let name = ident(&field.param.rust_name);
        let setter = ident(&field.setter);
        let doc = format!(" Sets {}.", code_span(&field.param.wire_name));
        let argument = field.argument();
        match (field.takes, field.element()) {
            (QueryArgument::Each, Some(element)) => quote! {
                #[doc = #doc]
                #[must_use]
                pub fn #setter<I>(mut self, values: I) -> Self
                where
                    I: IntoIterator,
                    I::Item: Into<#element>,
                {
                    self.#name = values.into_iter().map(Into::into).collect();
                    self
                }
            },
            (QueryArgument::Shown, _) => quote! {
                #[doc = #doc]
                #[must_use]
                pub fn #setter(mut self, value: #argument) -> Self {
                    self.#name = Some(value.to_string());
                    self
                }
            },
            (QueryArgument::Itself, _) => quote! {
                #[doc = #doc]
                #[must_use]
                pub fn #setter(mut self, value: #argument) -> Self {
                    self.#name = Some(value);
                    self
                }
            },
            _ => quote! {
                #[doc = #doc]
                #[must_use]
                pub fn #setter(mut self, value: #argument) -> Self {
                    self.#name = Some(value.into());
                    self
                }
            },
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

fn emit_method(
    surface: &OperationSurface<'_>,
    call: Option<(&ExampleCall<'_>, &Examples<'_>)>,
    typed: &[&str],
    others: &[&BodyMethod<'_>],
) -> TokenStream {
    let operation = surface.operation;
    let mut doc_text = operation.doc.clone().unwrap_or_default();
    if !doc_text.is_empty() {
        doc_text.push_str("\n\n");
    }
    doc_text.push_str(&format!("`{} {}`", operation.method, operation.path));
    let mut media = Vec::new();
    if let Some(body) = operation.body.as_ref().filter(|_| !others.is_empty()) {
        let mut lines = vec![format!(
            "Sends the request body as {}; the document offers it in other media types too:",
            code_span(&body.media_type)
        )];
        for other in others {
            let name = &other.name;
            lines.push(format!(
                "- as {}: [`Client::{name}`](Client::{name})",
                code_span(&other.body.media_type)
            ));
        }
        media.push(lines.join("\n"));
    }
    let sections = super::method_docs::sections(surface, call, typed, &media);
    emit_sending(
        surface,
        &operation.name,
        operation.body.as_ref(),
        &surface.signature(),
        &doc_text,
        sections,
    )
}

/// The method sending `other`'s operation with its body in another media type.
fn emit_body_method(surface: &OperationSurface<'_>, other: &BodyMethod<'_>) -> TokenStream {
    let operation = surface.operation;
    let doc_text = format!("`{} {}`", operation.method, operation.path);
    let name = &operation.name;
    let media = format!(
        "[`Client::{name}`](Client::{name}) with the request body sent as {}.",
        code_span(&other.body.media_type),
    );
    let sections = super::method_docs::sections(surface, None, &[], &[media]);
    emit_sending(
        surface,
        &other.name,
        Some(other.body),
        &other.signature(),
        &doc_text,
        sections,
    )
}

/// A method named `name` sending the operation with `body`.
fn emit_sending(
    surface: &OperationSurface<'_>,
    name: &str,
    body: Option<&Body>,
    signature: &Signature,
    doc_text: &str,
    sections: TokenStream,
) -> TokenStream {
    let operation = surface.operation;
    let name = ident(name);
    let doc = doc_attrs(Some(doc_text));
    let arguments = signature.declared();
    let output = &signature.output;

    let path = path_calls(operation);
    let params = param_calls(operation);
    let body = body.map(|body| {
        let media_type = &body.media_type;
        let encode = match &body.kind {
            BodyKind::Json(_) => quote!(rt::Body::json(#media_type, body)),
            BodyKind::Form { styles, .. } if styles.is_empty() => {
                quote!(rt::Body::form(#media_type, body))
            }
            BodyKind::Form { styles, .. } => {
                let styles = styles.iter().map(|styled| {
                    let wire = &styled.wire_name;
                    let encoding =
                        encoding_of(styled.style, styled.explode, styled.allow_reserved);
                    quote!((#wire, #encoding))
                });
                quote!(rt::Body::form_styled(#media_type, body, &[#(#styles),*]))
            }
            BodyKind::Multipart {
                files,
                content_types,
                ..
            } => {
                let (names, types): (Vec<&String>, Vec<&String>) =
                    content_types.iter().map(|(name, ty)| (name, ty)).unzip();
                quote!(rt::Body::multipart(#media_type, body, &[#(#files),*], &[#((#names, #types)),*]))
            }
            BodyKind::Text => quote!(Ok(rt::Body::text(#media_type, body))),
            BodyKind::Bytes => quote!(Ok(rt::Body::bytes(#media_type, body))),
        };
        if body.required {
            quote!(.body(#encode))
        } else {
            quote!(.body_opt(body.map(|body| #encode)))
        }
    });
    let operation_name = &operation.name;
    let method = ident(&operation.method);
    let template = &operation.path;
    // The methods the runtime has a constructor for, in fewer columns.
    let start = match operation.method.as_str() {
        "GET" | "POST" | "PUT" | "PATCH" | "DELETE" => {
            let constructor = ident(&operation.method.to_ascii_lowercase());
            quote!(rt::Request::#constructor(#operation_name, #template))
        }
        _ => quote!(rt::Request::builder(#operation_name, rt::Method::#method, #template)),
    };
    // The requirements the IR gave it (`ir::security`): alternatives of schemes sent together.
    let security = operation.security.as_ref().map(|alternatives| {
        let alternatives = alternatives.iter().map(|schemes| quote!(&[#(#schemes),*]));
        quote!(.security(&[#(#alternatives),*]))
    });
    let accept = &operation.accept;
    let call = match &operation.response {
        ResponseKind::Json(_) => match operation.custom_accept() {
            None => quote!(self.runtime().execute(request).await),
            Some(accept) => quote!(self.runtime().execute_json(request, #accept).await),
        },
        ResponseKind::Text(_) => {
            quote!(self.runtime().execute_text(request, #accept).await)
        }
        ResponseKind::Bytes(_) => {
            quote!(self.runtime().execute_bytes(request, #accept).await)
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
        #sections
        pub async fn #name(&self, #(#arguments),*) -> Result<#output, rt::Error> {
            let request = #start
                #security
                #(#path)*
                #(#params)*
                #body
                .finish()?;
            #call
        }
    }
}

/// One `.path(…)` call per placeholder of the path template that names a path parameter, in
/// the template's order; a placeholder written twice is encoded once (the runtime fills every
/// occurrence).
fn path_calls(operation: &Operation) -> Vec<TokenStream> {
    let mut calls = Vec::new();
    let mut encoded = std::collections::BTreeSet::new();
    let mut rest = operation.path.as_str();
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let close = after.find('}').unwrap_or(after.len());
        let placeholder = &after[..close];
        if let Some(param) = operation
            .path_params
            .iter()
            .find(|p| p.wire_name == placeholder)
            && encoded.insert(placeholder)
        {
            let wire = &param.wire_name;
            let encoding = encoding_tokens(param);
            let value = value_tokens(param, ident(&param.rust_name).into_token_stream());
            calls.push(quote!(.path(#wire, #encoding, #value)));
        }
        rest = after.get(close + 1..).unwrap_or_default();
    }
    calls
}

/// The calls that encode the query, header and cookie parameters, each by one call of the
/// runtime's builder with its location, style and `explode`: the path key's own query pairs
/// first, then the required parameters (always sent: an empty array as its style says), then
/// the optional ones (sent when set).
fn param_calls(operation: &Operation) -> Vec<TokenStream> {
    let fixed = operation
        .fixed_query
        .iter()
        .map(|(key, value)| quote!(.fixed_query(#key, #value)));
    let required = operation.required_query.iter().map(|param| {
        let field = ident(&param.rust_name);
        add_param(param, false, value_tokens(param, quote!(#field)))
    });
    let optional = operation.optional_query.iter().map(|param| {
        let field = ident(&param.rust_name);
        // The field holds the argument's text already when it is a union of scalars.
        add_param(param, true, quote!(&query.#field))
    });
    fixed.chain(required).chain(optional).collect()
}

/// `.query(…)` (`.header`, `.cookie`; `_opt` for an optional one; `.secret` for a credential)
/// for one parameter and a reference to its value.
fn add_param(param: &Param, optional: bool, value: TokenStream) -> TokenStream {
    let wire = &param.wire_name;
    let encoding = encoding_tokens(param);
    let suffix = if optional { "_opt" } else { "" };
    if param.secret {
        let location = ident(match param.location {
            Location::Path => "Path",
            Location::Query => "Query",
            Location::Header => "Header",
            Location::Cookie => "Cookie",
        });
        let method = ident(&format!("secret{suffix}"));
        return quote! {
            .#method(rt::param_style::ParamLocation::#location, #wire, #encoding, #value)
        };
    }
    let location = match param.location {
        // The IR keeps path parameters apart (`path_params`): none reaches here.
        Location::Path | Location::Query => "query",
        Location::Header => "header",
        Location::Cookie => "cookie",
    };
    let method = ident(&format!("{location}{suffix}"));
    quote!(.#method(#wire, #encoding, #value))
}

/// The runtime's name of a parameter's style and `explode` together (`rt::FORM_EXPLODED`),
/// and its `allowReserved` (`rt::FORM_EXPLODED.allowing_reserved()`).
fn encoding_tokens(param: &Param) -> TokenStream {
    encoding_of(param.style, param.explode, param.allow_reserved)
}

/// [`encoding_tokens`] of a style, `explode` and `allowReserved`.
fn encoding_of(style: ParamStyle, explode: bool, allow_reserved: bool) -> TokenStream {
    let style = match style {
        ParamStyle::Simple => "SIMPLE",
        ParamStyle::Label => "LABEL",
        ParamStyle::Matrix => "MATRIX",
        ParamStyle::Form => "FORM",
        ParamStyle::SpaceDelimited => "SPACE_DELIMITED",
        ParamStyle::PipeDelimited => "PIPE_DELIMITED",
        ParamStyle::DeepObject => "DEEP_OBJECT",
    };
    let name = if explode {
        format!("{style}_EXPLODED")
    } else {
        style.to_owned()
    };
    let name = ident(&name);
    if allow_reserved {
        quote!(rt::#name.allowing_reserved())
    } else {
        quote!(rt::#name)
    }
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

#[cfg(test)]
mod tests {
    /// A `HEAD` operation (no runtime constructor of its own) with an optional header
    /// credential and a required cookie, and a `GET` (one), as `operations.rs` writes them.
    const DOCUMENT: &str = r#"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /things/{id}:
    head:
      operationId: probe_thing
      security:
        - HeaderKey: []
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: X-Key, in: header, required: false, schema: {type: string}}
        - {name: jar, in: cookie, required: true, schema: {type: string}}
      responses:
        "204": {description: There.}
    get:
      operationId: get_thing
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        "204": {description: There.}
components:
  securitySchemes:
    HeaderKey: {type: apiKey, in: header, name: X-Key}
"#;

    fn operations() -> String {
        let output = crate::generate(&crate::Input {
            spec_path: "t.yaml",
            spec_text: DOCUMENT,
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{error}"));
        output.files["operations.rs"].clone()
    }

    #[test]
    fn other_methods_name_theirs_and_credentials_keep_their_location() {
        // Compared without whitespace and trailing commas: prettyplease spreads a long call.
        let squeeze = |text: &str| {
            text.split_whitespace()
                .collect::<String>()
                .replace(",)", ")")
        };
        let operations = squeeze(&operations());
        let expected = [
            "rt::Request::builder(\"probe_thing\", rt::Method::HEAD, \"/things/{id}\")",
            // The header key: the client's, or else the argument; `get_thing` needs none.
            ".security(&[&[\"HeaderKey\"], &[]]).path(\"id\", rt::SIMPLE, &id)",
            "rt::Request::get(\"get_thing\", \"/things/{id}\").security(&[&[]]).path(\"id\", rt::SIMPLE, &id)",
            ".cookie(\"jar\", rt::FORM_EXPLODED, &jar)",
            ".secret_opt(rt::param_style::ParamLocation::Header, \"X-Key\", rt::SIMPLE, &query.x_key)",
        ];
        for text in expected {
            assert!(operations.contains(&squeeze(text)), "{text}\n{operations}");
        }
    }
}
