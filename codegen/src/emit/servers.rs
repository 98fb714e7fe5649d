//! Emits `client::servers`, rendered from the IR's servers (`ir::servers`): a constant per
//! declared server, and for a server with variables its builder (one typed setter per
//! variable) and an enum per variable that lists its values; and the `Client::builder()` call
//! that tells the runtime which operations go to servers of their own.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::Api;
use crate::ir::servers::{Server, Variable};
use crate::tokens::doc_text::code_span;
use crate::tokens::ident;

/// The `servers` module, when the document declares any server.
pub(super) fn module(api: &Api) -> Option<TokenStream> {
    if api.servers.is_empty() {
        return None;
    }
    let constants = api.servers.iter().map(|server| {
        let name = ident(&server.name);
        let url = server.url.as_str();
        let description = server.description.as_deref().map(|text| {
            let lines = super::doc_attrs(Some(text));
            quote!(#lines #[doc = ""])
        });
        // Text from the document: through the one doc sanitiser, as every description.
        let shown = super::doc_attrs(Some(&format!("`{url}`")));
        let builder = server.builder.as_deref().map(|builder| {
            let line = format!(" With its variables set: [`{builder}`].");
            quote!(#[doc = ""] #[doc = #line])
        });
        quote! {
            #description
            #shown
            #builder
            pub const #name: &str = #url;
        }
    });
    let declared = api
        .servers
        .iter()
        .map(|server| (server, format!("[`{}`]", server.name)));
    // An operation's own server with variables: its builder beside the document's.
    let operations = api.operation_servers.iter().filter_map(|routed| {
        let server = routed.server.as_ref()?;
        Some((
            server,
            format!("The server of `Client::{}`", routed.operation),
        ))
    });
    let builders: Vec<TokenStream> = declared
        .chain(operations)
        .filter_map(|(server, subject)| builder(server, &subject))
        .collect();
    // Only builders name the runtime: no unused import without them.
    let runtime = (!builders.is_empty()).then(|| {
        quote!(
            use super::rt;
        )
    });
    let doc = module_doc(api);
    Some(quote! {
        #(#[doc = #doc])*
        pub mod servers {
            #runtime

            #(#constants)*
            #(#builders)*
        }
    })
}

/// The module's docs: how to pick a server and set its variables, with the document's first
/// server with variables as the example.
fn module_doc(api: &Api) -> Vec<String> {
    let mut lines = vec![
        " Every server the document declares, by name, its variables at their defaults.".to_owned(),
        String::new(),
        " Send every operation to one of them with \
         [`ClientBuilder::server`](rt::ClientBuilder::server) (a constant, or a server's \
         builder with its variables set); a relative one is resolved against \
         [`origin`](rt::ClientBuilder::origin). A whole \
         [`base_url`](rt::ClientBuilder::base_url) (a test server, a proxy) wins over it."
            .to_owned(),
    ];
    if let Some(call) = server_builder_call(api) {
        let example = code_span(&call);
        lines.push(String::new());
        lines.push(format!(
            " A server with variables has a builder with a setter per variable, each at its \
             default until set: {example}. A \
             variable that lists its values takes the enum of them; any other takes a string, \
             checked for its place in the URL when the client is built (a host refuses `/`, \
             `@`, `?`, `#`; a path value is percent-encoded)."
        ));
    }
    if !api.operation_servers.is_empty() {
        lines.push(String::new());
        lines.push(
            " Operations the document sends to servers of their own go there, not to the \
             client's base URL (each method says where): \
             [`operation_server`](rt::ClientBuilder::operation_server) sends one elsewhere, \
             and the client's credentials go to another origin only when named with \
             [`send_credentials_to`](rt::ClientBuilder::send_credentials_to)."
                .to_owned(),
        );
    }
    lines
}

/// A value for `variable` in the module's example: its enum's first variant, else its default.
fn example_value(variable: &Variable) -> String {
    match &variable.choices {
        Some(choices) => match choices.values.first() {
            Some((variant, _)) => format!("servers::{}::{variant}", choices.name),
            None => format!("{:?}", variable.default),
        },
        None => format!("{:?}", variable.default),
    }
}

/// A server's builder and its variables' enums, when it has variables; `subject` names the
/// server in its docs.
fn builder(server: &Server, subject: &str) -> Option<TokenStream> {
    let builder = ident(server.builder.as_deref()?);
    let template = server.template.as_str();
    let defaults = server.variables.iter().map(|variable| {
        let (name, default) = (&variable.wire_name, &variable.default);
        quote!((#name, #default))
    });
    let doc = format!(
        " {subject} with its variables set: each at its default until its setter is called. \
         Give it to [`ClientBuilder::server`](rt::ClientBuilder::server) or \
         [`operation_server`](rt::ClientBuilder::operation_server)."
    );
    let template_doc = format!(" The document's URL: {}.", code_span(template));
    let setters = server.variables.iter().map(setter);
    let enums = server.variables.iter().filter_map(choices_enum);
    Some(quote! {
        #[doc = #doc]
        #[doc = ""]
        #[doc = #template_doc]
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct #builder {
            url: rt::ServerUrl,
        }

        impl #builder {
            /// Every variable at its default.
            #[must_use]
            pub const fn new() -> Self {
                Self {
                    url: rt::ServerUrl::template(#template, &[#(#defaults),*]),
                }
            }

            #(#setters)*

            /// The URL, every variable set checked and percent-encoded for its place.
            ///
            /// # Errors
            ///
            /// [`Error::InvalidRequest`](rt::Error::InvalidRequest) naming a variable whose
            /// value its place in the URL cannot hold.
            pub fn url(&self) -> ::core::result::Result<String, rt::Error> {
                self.url.url()
            }
        }

        impl Default for #builder {
            fn default() -> Self {
                Self::new()
            }
        }

        impl From<#builder> for rt::ServerUrl {
            fn from(server: #builder) -> Self {
                server.url
            }
        }

        #(#enums)*
    })
}

/// One variable's setter: its enum when it lists values, else any string.
fn setter(variable: &Variable) -> TokenStream {
    let setter = ident(&variable.setter);
    let wire = variable.wire_name.as_str();
    let mut doc = format!(
        " Sets {} (default {}).",
        code_span(&format!("{{{}}}", variable.wire_name)),
        code_span(&variable.default)
    );
    if let Some(text) = &variable.description {
        doc.push(' ');
        doc.push_str(&crate::tokens::doc_text::inline_prose(text));
    }
    match &variable.choices {
        Some(choices) => {
            let choice = ident(&choices.name);
            quote! {
                #[doc = #doc]
                #[must_use]
                pub fn #setter(self, value: #choice) -> Self {
                    Self { url: self.url.set(#wire, value.as_str()) }
                }
            }
        }
        None => quote! {
            #[doc = #doc]
            #[doc = ""]
            /// Checked and percent-encoded for its place in the URL when the URL is made.
            #[must_use]
            pub fn #setter(self, value: impl Into<String>) -> Self {
                Self { url: self.url.set(#wire, value) }
            }
        },
    }
}

/// The enum of a variable's listed values, each variant sent as the document writes it.
fn choices_enum(variable: &Variable) -> Option<TokenStream> {
    let choices = variable.choices.as_ref()?;
    let name = ident(&choices.name);
    let doc = format!(
        " The values of the server variable {}.",
        code_span(&format!("{{{}}}", variable.wire_name))
    );
    let variants = choices.values.iter().map(|(variant, value)| {
        let variant = ident(variant);
        let shown = format!(" {}", code_span(value));
        quote!(#[doc = #shown] #variant)
    });
    let arms = choices.values.iter().map(|(variant, value)| {
        let variant = ident(variant);
        quote!(Self::#variant => #value)
    });
    Some(quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum #name {
            #(#variants),*
        }

        impl #name {
            /// The value as the document writes it.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self {
                    #(#arms),*
                }
            }
        }
    })
}

/// The crate root's paragraph on servers (`//!` lines, each ending in a newline), rendered from
/// the document's: where requests go by default, how to pick another server and set its
/// variables, which operations go to servers of their own. Empty without servers.
pub(crate) fn crate_doc(api: &Api) -> String {
    let Some(first) = api.servers.first() else {
        return String::new();
    };
    let mut paragraphs = vec!["# Servers".to_owned()];
    let relative = if api.base_url_is_relative() {
        ", relative: give the origin it is deployed at with `Client::builder().origin(..)`"
    } else {
        ""
    };
    paragraphs.push(format!(
        "Requests go to {} (`client::DEFAULT_BASE_URL`){relative}. Every server the document \
         declares is a constant of `client::servers`; `Client::builder().server(..)` picks one, \
         `base_url(..)` gives a whole URL of your own (a test server, a proxy).",
        code_span(&first.url)
    ));
    if let Some(call) = server_builder_call(api) {
        // The crate root names the module from outside `client`.
        paragraphs.push(format!(
            "A server with variables has a builder: {} sets each variable (an enum where the \
             document lists the values, else a string checked for its place in the URL).",
            code_span(&call.replace("servers::", "client::servers::"))
        ));
    }
    if !api.operation_servers.is_empty() {
        let operations: Vec<String> = api
            .operation_servers
            .iter()
            .map(|server| format!("`{}`", server.operation))
            .collect();
        paragraphs.push(format!(
            "{} go to servers of their own (the document's path or operation `servers`); \
             `Client::builder().operation_server(\"name\", url)` sends one elsewhere, and the \
             client's credentials go to another origin only when named with \
             `send_credentials_to(..)`.",
            operations.join(", ")
        ));
    }
    let mut text = String::new();
    for paragraph in paragraphs {
        text.push_str("//!\n");
        for line in crate::tokens::doc_text::wrap_prose(&paragraph, 96) {
            text.push_str(&format!("//! {line}\n"));
        }
    }
    text
}

/// `.operation_servers(&[..])` on `Client::builder()`: each operation with servers of its own
/// and its first server; nothing when there is none.
pub(super) fn builder_call(api: &Api) -> TokenStream {
    if api.operation_servers.is_empty() {
        return TokenStream::new();
    }
    let pairs = api.operation_servers.iter().map(|server| {
        let (operation, url) = (&server.operation, &server.url);
        quote!((#operation, #url))
    });
    quote!(.operation_servers(&[#(#pairs),*]))
}

/// The first server with variables, picked through its builder with each variable set to an
/// example value, as `client.rs` names it (`servers::…`); `None` when no server has variables.
fn server_builder_call(api: &Api) -> Option<String> {
    let (server, builder) = api
        .servers
        .iter()
        .find_map(|server| Some((server, server.builder.as_deref()?)))?;
    let setters: String = server
        .variables
        .iter()
        .map(|variable| format!(".{}({})", variable.setter, example_value(variable)))
        .collect();
    Some(format!(
        "Client::builder().server(servers::{builder}::new(){setters})"
    ))
}
