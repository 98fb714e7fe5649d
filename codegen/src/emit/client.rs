//! Emits `client.rs`: the crate's own `Client` over the runtime's (its methods are the
//! surface's [`CLIENT_METHODS`](crate::surface::CLIENT_METHODS)), its default base URL, the
//! items each extension contributed.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::security::{Auth, ClientAuth};
use crate::reserved::REEXPORTED_CRATE;
use crate::surface::extension::Contribution;
use crate::surface::{CLIENT_REEXPORTS, Surface};
use crate::tokens::ident;

/// The whole of `client.rs`.
pub(super) fn emit(surface: &Surface<'_>, runtime: &TokenStream) -> TokenStream {
    let base_url = surface.api.base_url.as_deref().unwrap_or_default();
    let identity = &surface.api.identity;
    let api_key_env = identity.api_key_env.as_str();
    let base_url_env = identity.base_url_env.as_str();
    let auth = &surface.api.auth;
    let [new_doc, from_env_doc] = constructor_docs(surface);
    let auth_scheme = auth_scheme(auth);
    let credentials = credentials_trait(auth);
    let servers = super::servers::module(surface.api);
    let operation_servers = super::servers::builder_call(surface.api);
    let contributed = surface
        .contributions
        .iter()
        .map(|contribution| contribution.client_items());
    let doc = module_doc(&surface.contributions);
    let imports = surface
        .contributions
        .iter()
        .map(|contribution| contribution.client_imports());
    let (client_example, builder_example) = examples(surface);
    let request_example = request_example(surface);
    let reexports = reexports();
    let reexported_crate = ident(REEXPORTED_CRATE);
    let builder_doc = builder_doc(api_key_env, base_url_env, auth.per_operation);
    quote! {
        #(#![doc = #doc])*
        use #runtime as rt;
        #(#imports)*

        /// The first server URL in the document.
        pub const DEFAULT_BASE_URL: &str = #base_url;

        #servers

        /// The environment variable [`Client::from_env`] and
        /// [`api_key_from_env`](rt::ClientBuilder::api_key_from_env) read the API key from.
        pub const API_KEY_ENV: &str = #api_key_env;

        /// The environment variable [`Client::from_env`] and
        /// [`base_url_from_env`](rt::ClientBuilder::base_url_from_env) read a base URL from,
        /// when it is set.
        pub const BASE_URL_ENV: &str = #base_url_env;

        pub use rt::{#(#reexports),*};
        #[doc(hidden)]
        pub use rt::#reexported_crate;

        #(#[doc = #builder_doc])*
        #builder_example
        pub type ClientBuilder<C = Client> = rt::ClientBuilder<C>;

        /// A client for this API: one method per operation.
        ///
        /// Cheap to clone, `Send` and `Sync`: clones share one connection pool, so build one and
        /// pass it around. Requests it builds own a clone, so they can be spawned.
        ///
        /// Each operation's method shows its own call and the errors it can return.
        #client_example
        #[derive(Debug, Clone)]
        pub struct Client {
            runtime: rt::RuntimeClient,
        }

        impl Client {
            #[doc = #new_doc]
            ///
            /// # Errors
            ///
            /// [`Error::InvalidRequest`](rt::Error::InvalidRequest) if the key is empty or not
            /// a valid header value.
            pub fn new(api_key: impl Into<String>) -> ::core::result::Result<Self, rt::Error> {
                Self::builder().api_key(api_key).build()
            }

            #[doc = #from_env_doc]
            ///
            /// # Errors
            ///
            /// [`Error::InvalidRequest`](rt::Error::InvalidRequest) if the key is unset, empty
            /// or not a valid header value, or the base URL is unusable.
            pub fn from_env() -> ::core::result::Result<Self, rt::Error> {
                Self::builder().api_key_from_env().base_url_from_env().build()
            }

            /// A builder for every other setting: base URL, timeouts, retries, headers, a
            /// reqwest client of your own.
            #[must_use]
            pub fn builder() -> ClientBuilder {
                rt::ClientBuilder::new(DEFAULT_BASE_URL).env_names(API_KEY_ENV, BASE_URL_ENV)
                    #operation_servers #auth_scheme
            }

            /// The runtime client underneath: its settings, and the retry budget left.
            #[must_use]
            pub fn runtime(&self) -> &rt::RuntimeClient {
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

            /// A request to any path of the API, for an operation this crate does not generate:
            /// sent like every generated call (the key, retries, the throttle, traces, the
            /// response cap), answered as your own type or as the raw response. `path` starts
            /// with `/`; a literal may hold `{name}` placeholders for
            /// [`RawRequest::path_param`]. See [`RawRequest`].
            #request_example
            pub fn request(
                &self,
                method: rt::reqwest::Method,
                path: impl ::core::convert::Into<::std::borrow::Cow<'static, str>>,
            ) -> rt::RawRequest {
                rt::RawRequest::new(self.runtime.clone(), method, path)
            }
        }

        // What `ClientBuilder::build` makes a `Client` with; not for users.
        #[doc(hidden)]
        impl ::core::convert::From<rt::RuntimeClient> for Client {
            fn from(runtime: rt::RuntimeClient) -> Self {
                Self { runtime }
            }
        }

        #credentials

        #(#contributed)*
    }
}

/// The first lines of `Client::new`'s and `Client::from_env`'s docs: where the key goes, and
/// which variables they read.
fn constructor_docs(surface: &Surface<'_>) -> [String; 2] {
    let identity = &surface.api.identity;
    let (api_key_env, base_url_env) = (&identity.api_key_env, &identity.base_url_env);
    [
        format!(
            " A client for [`DEFAULT_BASE_URL`] that authenticates with `api_key` (`{}`), with \
             the default timeouts and retries.",
            surface.api.auth.client.shown()
        ),
        format!(
            " A client configured from the environment: the key from `{api_key_env}`, the base \
             URL from `{base_url_env}` if set, else [`DEFAULT_BASE_URL`]."
        ),
    ]
}

/// The builder call that sets the document's security scheme (none for the default, bearer):
/// the key's scheme by name when the document names one, else where the key goes.
fn auth_scheme(auth: &Auth) -> TokenStream {
    match (auth.names_key_scheme(), &auth.key_scheme) {
        (true, Some(key)) => {
            let place = place_tokens(&auth.client);
            quote!(.key_scheme(#key, #place))
        }
        _ => match &auth.client {
            ClientAuth::Bearer | ClientAuth::Query(_) => TokenStream::new(),
            other => {
                let scheme = auth_scheme_tokens(other);
                quote!(.auth_scheme(#scheme))
            }
        },
    }
}

/// The paths `client.rs` re-exports from the runtime, but the HTTP crate's.
fn reexports() -> impl Iterator<Item = TokenStream> {
    // A crate re-exported shows on the module's page as its `use` line, which would name
    // `rt::`: it is described in the module's docs instead.
    CLIENT_REEXPORTS
        .iter()
        .filter(|path| **path != REEXPORTED_CRATE)
        .map(|path| {
            let segments = path.split("::").map(ident);
            quote!(#(#segments)::*)
        })
}

/// `rt::AuthScheme`'s variant for a place in a header (`Query` has none: it is a `Place`).
fn auth_scheme_tokens(place: &ClientAuth) -> TokenStream {
    match place {
        ClientAuth::Bearer | ClientAuth::Query(_) => quote!(rt::AuthScheme::Bearer),
        ClientAuth::Basic => quote!(rt::AuthScheme::Basic),
        ClientAuth::Scheme(word) => quote!(rt::AuthScheme::Scheme(#word)),
        ClientAuth::Header(name) => quote!(rt::AuthScheme::Header(#name)),
        ClientAuth::Cookie(name) => quote!(rt::AuthScheme::Cookie(#name)),
    }
}

/// `rt::Place` of a credential.
pub(super) fn place_tokens(place: &ClientAuth) -> TokenStream {
    match place {
        ClientAuth::Query(name) => quote!(rt::Place::Query(#name)),
        other => {
            let scheme = auth_scheme_tokens(other);
            quote!(rt::Place::Auth(#scheme))
        }
    }
}

/// The `Credentials` trait, one setter per security scheme, when operations differ in what they
/// need (`Auth::per_operation`), and the error a request meeting none of its requirements
/// gives.
fn credentials_trait(auth: &Auth) -> TokenStream {
    if !auth.per_operation {
        return TokenStream::new();
    }
    let declarations = auth.schemes.iter().map(|scheme| {
        let setter = ident(&scheme.setter);
        let key = scheme.key.as_str();
        let mut doc = format!(
            " The credential of security scheme `{key}`: `{}`.",
            scheme.place.shown()
        );
        if auth.key_scheme.as_deref() == Some(key) {
            doc.push_str(" The API key: the same as `api_key`.");
        }
        let description = super::doc_attrs(scheme.description.as_deref());
        let lines = super::doc_attrs(Some(&doc));
        let place = place_tokens(&scheme.place);
        if scheme.place == ClientAuth::Basic {
            (
                quote! {
                    #lines
                    #[doc = ""]
                    #description
                    #[must_use]
                    fn #setter(self, user: impl ::core::convert::Into<::std::string::String>, password: impl ::core::convert::Into<::std::string::String>) -> Self;
                },
                quote! {
                    fn #setter(self, user: impl ::core::convert::Into<::std::string::String>, password: impl ::core::convert::Into<::std::string::String>) -> Self {
                        self.credential(#key, #place, ::std::format!("{}:{}", user.into(), password.into()))
                    }
                },
            )
        } else {
            (
                quote! {
                    #lines
                    #[doc = ""]
                    #description
                    #[must_use]
                    fn #setter(self, value: impl ::core::convert::Into<::std::string::String>) -> Self;
                },
                quote! {
                    fn #setter(self, value: impl ::core::convert::Into<::std::string::String>) -> Self {
                        self.credential(#key, #place, value)
                    }
                },
            )
        }
    });
    let (declared, implemented): (Vec<_>, Vec<_>) = declarations.unzip();
    quote! {
        /// A setter on [`ClientBuilder`] per security scheme of the document (bring the trait
        /// into scope: `use …::client::Credentials as _;`). Each operation sends the first of
        /// its security requirements the client holds every credential for; meeting none, it
        /// fails before sending with [`Error::InvalidArgument`](rt::Error::InvalidArgument)
        /// holding a [`MissingCredentials`] that names the operation and the schemes. Every
        /// credential is scrubbed from errors and never shown, like the API key.
        pub trait Credentials: Sized {
            #(#declared)*
        }

        impl Credentials for ClientBuilder {
            #(#implemented)*
        }

        pub use rt::MissingCredentials;
    }
}

/// The module doc's lines: `Client`'s methods, then what each extension says it adds (the
/// last on a line of its own, after "and").
fn module_doc(contributions: &[Box<dyn Contribution + '_>]) -> Vec<String> {
    let words: Vec<&str> = contributions
        .iter()
        .filter_map(|contribution| contribution.client_doc())
        .collect();
    let mut lines = vec![
        " The crate's [`Client`]: the runtime's HTTP client, with one method per operation (see"
            .to_owned(),
    ];
    match words.split_last() {
        Some((last, others)) => {
            let others: String = others.iter().map(|words| format!(", {words}")).collect();
            lines.push(format!(" [`operations`](super::operations)){others}, and"));
            lines.push(format!(" {last}."));
        }
        None => lines.push(" [`operations`](super::operations)).".to_owned()),
    }
    lines.extend([
        String::new(),
        " `reqwest` is the HTTP client crate at the version the client uses: build a".to_owned(),
        " `reqwest::Client` of your own (proxies, a custom CA, middleware) for".to_owned(),
        " `ClientBuilder::http_client` without adding it.".to_owned(),
    ]);
    lines
}

/// The rustdoc examples of `Client` (a call against the fake, so it runs) and of the
/// `ClientBuilder` alias (its settings), when the surface has them.
fn examples(surface: &Surface<'_>) -> (TokenStream, TokenStream) {
    let Some(examples) = &surface.examples else {
        return (TokenStream::new(), TokenStream::new());
    };
    let krate = examples.crate_name.as_str();
    let fake_type = examples.fake_type.as_str();
    // A relative default is resolved against the origin the API is deployed at.
    let (origin, expected) = if surface.api.base_url_is_relative() {
        (
            "\n    .origin(\"https://api.example.test\")".to_owned(),
            format!("format!(\"https://api.example.test{{}}\", {krate}::client::DEFAULT_BASE_URL)"),
        )
    } else {
        (String::new(), format!("{krate}::client::DEFAULT_BASE_URL"))
    };
    let builder = super::example_doc(
        "Example",
        &format!(
            "use std::time::Duration;
use {krate}::client::RetryPolicy;

let client = {krate}::Client::builder()
    .api_key(\"my-api-key\"){origin}
    .connect_timeout(Duration::from_secs(5))
    .timeout(Duration::from_secs(30))
    .retry_policy(RetryPolicy::default().with_max_attempts(3))
    .build()?;
assert_eq!(client.base_url(), {expected});
# Ok::<(), {krate}::Error>(())"
        ),
    );
    let Some(call) = &examples.call else {
        return (TokenStream::new(), builder);
    };
    let (paths, arguments) = super::example_arguments(call, krate);
    let response = super::example_value(&call.response, krate);
    // The fake only where the `mock` feature is on; without it the example compiles to nothing.
    let client = super::example_doc(
        "Example",
        &format!(
            "# #[cfg(feature = \"mock\")]
# #[tokio::main(flavor = \"current_thread\")]
# async fn main() -> Result<(), Box<dyn std::error::Error>> {{
# let fake = {krate}::mock::{fake_type}::start().await;
# let expected = {response};
# fake.{expectation}({paths}).respond(&expected).await;
use {krate}::Client;

let client = Client::builder()
    .api_key(\"my-api-key\")
    .base_url(fake.uri()) // a fake here; the real API by default
    .build()?;
let answer = client.{method}({arguments}).await?;
# assert_eq!(answer, expected);
# Ok(()) }}
# #[cfg(not(feature = \"mock\"))]
# fn main() {{}}",
            expectation = call.expectation,
            method = call.operation.name,
        ),
    );
    (client, builder)
}

/// The rustdoc example of `Client::request`: an endpoint the crate does not generate, answered by
/// the fake as JSON and as the raw response. It names no item of the document.
fn request_example(surface: &Surface<'_>) -> TokenStream {
    let Some(examples) = &surface.examples else {
        return TokenStream::new();
    };
    let krate = examples.crate_name.as_str();
    let fake_type = examples.fake_type.as_str();
    super::example_doc(
        "Example",
        &format!(
            "# #[cfg(feature = \"mock\")]
# #[tokio::main(flavor = \"current_thread\")]
# async fn main() -> Result<(), Box<dyn std::error::Error>> {{
use {krate}::client::Method;

# let fake = {krate}::mock::{fake_type}::start().await;
# let listed = serde_json::json!({{\"secrets\": [{{\"name\": \"hf_token\"}}]}});
# fake.on_request(Method::GET, \"/v1/secrets\").query(\"limit\", \"10\").respond(&listed).await;
# fake.on_request::<()>(Method::DELETE, \"/v1/secrets/hf%20token\").respond_raw(204, \"text/plain\", \"\").await;
# let client = fake.client()?;
// Decoded into a type of your own (here any JSON).
let secrets: serde_json::Value = client
    .request(Method::GET, \"/v1/secrets\")
    .query(\"limit\", 10)
    .send()
    .await?;
assert_eq!(secrets[\"secrets\"][0][\"name\"], \"hf_token\");

// Or as it came: status, headers and bytes. `{{name}}` is filled and percent-encoded.
let deleted = client
    .request(Method::DELETE, \"/v1/secrets/{{name}}\")
    .path_param(\"name\", \"hf token\")
    .send_raw()
    .await?;
assert_eq!(deleted.status(), 204);
# Ok(()) }}
# #[cfg(not(feature = \"mock\"))]
# fn main() {{}}"
        ),
    )
}

/// `ClientBuilder`'s docs: every setting with its default, naming the crate's own environment
/// variables.
fn builder_doc(api_key_env: &str, base_url_env: &str, per_scheme: bool) -> Vec<String> {
    let schemes = per_scheme.then(|| {
        " | one setter per security scheme ([`Credentials`]), for the operations that need it | \
         none: such an operation fails before sending |"
            .to_owned()
    });
    [
        " Configures a [`Client`]: made by [`Client::builder`], finished by `build()`. (`C` is"
            .to_owned(),
        " always `Client`; the parameter keeps `ClientBuilder<Client>`, written before this"
            .to_owned(),
        " alias, compiling.)".to_owned(),
        String::new(),
        " # Settings".to_owned(),
        String::new(),
        " | Setter | Default |".to_owned(),
        " |---|---|".to_owned(),
        format!(
            " | `api_key(impl Into<String>)`, or `api_key_from_env()` (`{api_key_env}`, \
             [`API_KEY_ENV`]) | none: requests go out unauthenticated |"
        ),
        " | `auth_scheme(`[`AuthScheme`]`)` | the document's security scheme |".to_owned(),
        format!(
            " | `base_url(impl Into<String>)`, or `base_url_from_env()` (`{base_url_env}`, \
             [`BASE_URL_ENV`]) | [`DEFAULT_BASE_URL`] |"
        ),
        " | `origin(impl Into<String>)`, what a relative server URL is resolved against | none: \
         a relative default needs one |"
            .to_owned(),
        " | `server(impl Into<`[`ServerUrl`]`>)`, one of `servers` (a constant, or a builder with \
         its variables set) | the first |"
            .to_owned(),
        " | `operation_server(operation, impl Into<`[`ServerUrl`]`>)`, where one operation with \
         `servers` of its own goes | its own server |"
            .to_owned(),
        " | `send_credentials_to(origin)`, another origin an operation's server may get the key \
         and default headers at | none: the base URL's origin only |"
            .to_owned(),
        " | `env_names(api_key, base_url)`, the variables the `*_from_env` setters read | \
         [`API_KEY_ENV`], [`BASE_URL_ENV`] |"
            .to_owned(),
        " | `connect_timeout(Duration)` | [`DEFAULT_CONNECT_TIMEOUT`] (10 s) |".to_owned(),
        " | `timeout(Duration)`, per attempt | [`DEFAULT_TIMEOUT`] (30 s) |".to_owned(),
        " | `retry_policy(`[`RetryPolicy`]`)` | `RetryPolicy::default()`; `RetryPolicy::none()` \
         sends once |"
            .to_owned(),
        " | `http_client(reqwest::Client)` (`client::reqwest`) | a reqwest client of the \
         runtime's making |"
            .to_owned(),
        " | `default_header(name, value)`, sent with every request | none |".to_owned(),
        " | `request_id_header(impl Into<String>)`, kept on `Error::Api` | \
         [`DEFAULT_REQUEST_ID_HEADER`] (`x-request-id`) |"
            .to_owned(),
        " | `max_response_bytes(u64)` | [`DEFAULT_MAX_RESPONSE_BYTES`] (64 MiB) |".to_owned(),
        " | `max_in_flight(usize)`, requests out at once | no cap |".to_owned(),
        " | `endpoint_rate_limit(f64)`, requests per second per endpoint | off |".to_owned(),
        " | `adaptive_rate(bool)`, the send rate cut after a `429` and recovered | on |".to_owned(),
        " | `interceptor(impl `[`Interceptor`]`)`, on every attempt | none |".to_owned(),
        String::new(),
        " `build()` gives the [`Client`], or [`Error::InvalidRequest`](rt::Error::InvalidRequest)"
            .to_owned(),
        " naming the setting it refuses.".to_owned(),
    ]
    .into_iter()
    .flat_map(|line| {
        // The schemes' setters follow the key's scheme.
        let follows = line.contains("`auth_scheme(");
        std::iter::once(line).chain(schemes.clone().filter(|_| follows))
    })
    .collect()
}
