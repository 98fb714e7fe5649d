//! The generated crate's one API listing (`api.txt`): the surface as one line per public item
//! with its feature gate and signature, for reviewers (one small diff per API change) and for
//! the change report (`crate::diff`), which diffs two of them whatever caused the change, the
//! document or the generator. Besides the document's items it lists what every generated
//! crate has (its modules, the runtime items it re-exports, the client's and the fake's own
//! types); a test reads the crate's sources and checks nothing nameable is missing.
//!
//! A line is `KIND PATH SIGNATURE`: the item's kind (`struct`, `fn`, `field`, …), its path in
//! the crate (no spaces; a line is keyed by the two), and its signature as the emitted code
//! spells it. Types and arguments are rendered from the very tokens the emitters write
//! ([`crate::tokens`]), so the listing cannot drift from the code.

use std::collections::BTreeMap;

use proc_macro2::{TokenStream, TokenTree};

use super::features::FeatureGate;
use super::signature::Signature;
use super::write_only::{Gate, SerdeImpls};
use super::{CLIENT_METHODS, CLIENT_TYPE, FAKE_METHODS, Surface, builders, reexports};
use crate::ir::{Body, BodyKind, Operation, ResponseKind, TypeDef, TypeRef};
use crate::tokens::type_tokens;

/// The file name of the snapshot, beside the emitted modules.
pub(crate) const FILE: &str = "api.txt";

/// What every generated crate has whatever the document, as `(kind, path, signature)`: the
/// modules and re-exports of `gen/mod.rs` ([`crate::modules_file`]) and the fake's own types.
/// The runtime's items are listed where this crate re-exports them, once; the runtime's own
/// listing (`codegen/runtime/api.txt`) has their signatures.
const FIXED: &[(&str, &str, &str)] = &[
    ("mod", "client", "feature=client"),
    ("mod", "error", ""),
    ("mod", "mock", "feature=mock"),
    ("mod", "models", ""),
    ("mod", "operations", "feature=client"),
    ("mod", "primitives", ""),
    ("reexport", "Client", "feature=client"),
    ("struct", "Client", "feature=client"),
    (
        "type",
        "ClientBuilder",
        "feature=client <C = Client> = rt::ClientBuilder<C>",
    ),
    ("struct", "mock::FakeBaseten", "feature=mock"),
    ("struct", "mock::Builder<T>", "feature=mock"),
    (
        "fn",
        "mock::Builder<T>::build",
        "feature=mock (self) -> Result<T, rt::Error>",
    ),
];

/// The signatures of every generated `Client`'s own methods ([`CLIENT_METHODS`]), as
/// `emit/client.rs` declares them (a test reads them back from the emitted code).
const CLIENT_METHOD_SIGNATURES: &[(&str, &str)] = &[
    (
        "new",
        "(api_key: impl Into<String>) -> Result<Self, rt::Error>",
    ),
    ("from_env", "() -> Result<Self, rt::Error>"),
    ("builder", "() -> ClientBuilder"),
    ("runtime", "(&self) -> &rt::RuntimeClient"),
    ("base_url", "(&self) -> &str"),
    ("with_timeout", "(&self, timeout: Duration) -> Self"),
    (
        "with_retry_policy",
        "(&self, policy: rt::RetryPolicy) -> Self",
    ),
    (
        "request",
        "(&self, method: rt::reqwest::Method, path: impl Into<Cow<'static, str>>) -> rt::RawRequest",
    ),
];

/// The signatures of every generated fake's own methods ([`FAKE_METHODS`]).
const FAKE_METHOD_SIGNATURES: &[(&str, &str)] = &[
    ("start", "() -> Self"),
    ("client", "(&self) -> Result<Client, rt::Error>"),
    ("uri", "(&self) -> String"),
    ("server", "(&self) -> &rt::mock::FakeServer"),
    (
        "on_request",
        "<T> (&self, method: rt::reqwest::Method, path: &str) -> rt::mock::Expectation<'_, T>",
    ),
];

/// The endpoint an operation's lines end with: `[METHOD /path]`, and how it sends its body
/// when it has one (`; body: form`), which changes the request whatever the types say.
fn endpoint(operation: &Operation, body: Option<&Body>) -> String {
    let body = body.map(|body| match &body.kind {
        BodyKind::Json(_) => "json",
        BodyKind::Form { .. } => "form",
        BodyKind::Multipart { .. } => "multipart",
        BodyKind::Text => "text",
        BodyKind::Bytes => "bytes",
    });
    match body {
        Some(body) => format!("[{} {}; body: {body}]", operation.method, operation.path),
        None => format!("[{} {}]", operation.method, operation.path),
    }
}

/// A field's signature: its stored type, and the property it holds when that is spelled
/// otherwise (what `#[serde(rename)]` says), so a renamed property shows.
fn with_wire_name(ty: String, rust_name: &str, wire_name: &str) -> String {
    if rust_name == wire_name {
        ty
    } else {
        format!("{ty} {wire_name:?}")
    }
}

/// One public item.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Line {
    pub(crate) kind: &'static str,
    pub(crate) path: String,
    pub(crate) signature: String,
}

/// Tokens as compact text: a space only between two words and after a comma, so
/// `& [String]`-style spacing never shows.
pub(crate) fn compact(tokens: TokenStream) -> String {
    let mut out = String::new();
    let mut last_word = false;
    let mut last_text = String::new();
    let push_word = |out: &mut String, word: String, last_word: &mut bool| {
        if *last_word {
            out.push(' ');
        }
        out.push_str(&word);
        *last_word = true;
        word
    };
    for tree in tokens {
        match tree {
            TokenTree::Ident(ident) => {
                last_text = push_word(&mut out, ident.to_string(), &mut last_word);
            }
            TokenTree::Literal(literal) => {
                last_text = push_word(&mut out, literal.to_string(), &mut last_word);
            }
            TokenTree::Punct(punct) => {
                // `impl ::std::fmt::Display`: a keyword keeps its space before a path.
                if last_word && ["impl", "dyn", "mut", "as"].contains(&last_text.as_str()) {
                    out.push(' ');
                }
                let after_colon = out.ends_with(':');
                out.push(punct.as_char());
                // `, ` and a bound's `: ` (`Item: Into<T>`), but not a path's `::`.
                let lone_colon = punct.as_char() == ':'
                    && punct.spacing() == proc_macro2::Spacing::Alone
                    && !after_colon;
                if punct.as_char() == ',' || lone_colon {
                    out.push(' ');
                }
                // `impl Into<T>`, `-> T`: a word after `>` or `=` reads better spaced.
                last_word = matches!(punct.as_char(), '>' | '=')
                    && punct.spacing() == proc_macro2::Spacing::Alone;
            }
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    proc_macro2::Delimiter::Parenthesis => ("(", ")"),
                    proc_macro2::Delimiter::Bracket => ("[", "]"),
                    proc_macro2::Delimiter::Brace => ("{", "}"),
                    proc_macro2::Delimiter::None => ("", ""),
                };
                out.push_str(open);
                out.push_str(&compact(group.stream()));
                out.push_str(close);
                last_word = false;
            }
        }
    }
    out.replace(", >", ">").trim_end_matches(", ").to_owned()
}

fn ty(ty: &TypeRef) -> String {
    compact(type_tokens(ty))
}

/// What an operation's method returns (in its `Result`), as the surface's signature says.
pub(crate) fn output(operation: &Operation) -> String {
    compact(super::signature::of(operation).output)
}

/// A signature's arguments as the listing writes them (`name: type`).
fn arguments(signature: &Signature) -> Vec<String> {
    signature
        .arguments
        .iter()
        .map(|argument| format!("{}: {}", argument.name, compact(argument.ty.clone())))
        .collect()
}

fn path_strings(operation: &Operation, taken_as: &str) -> Vec<String> {
    operation
        .path_params
        .iter()
        .map(|p| format!("{}: {taken_as}", p.rust_name))
        .collect()
}

/// A server's builder in `client::servers` (its constructor, setters, URL and conversions) and
/// the enums of its variables' values.
fn list_server_builder(
    server: &crate::ir::servers::Server,
    push: &mut impl FnMut(&'static str, String, String),
) {
    let Some(builder) = server.builder.as_deref() else {
        return;
    };
    let path = format!("client::servers::{builder}");
    push("struct", path.clone(), "feature=client".to_owned());
    push(
        "fn",
        format!("{path}::new"),
        "feature=client () -> Self".to_owned(),
    );
    push(
        "fn",
        format!("{path}::url"),
        "feature=client (&self) -> Result<String, Error>".to_owned(),
    );
    // Derived traits are not listed (as for models); the hand-written impls are.
    for signature in [
        format!("Default for {builder}"),
        format!("From<{builder}> for ServerUrl"),
    ] {
        push("impl", path.clone(), format!("feature=client {signature}"));
    }
    for variable in &server.variables {
        let taken = match &variable.choices {
            Some(choices) => choices.name.clone(),
            None => "impl Into<String>".to_owned(),
        };
        push(
            "fn",
            format!("{path}::{}", variable.setter),
            format!("feature=client (self, value: {taken}) -> Self"),
        );
        let Some(choices) = &variable.choices else {
            continue;
        };
        let enum_path = format!("client::servers::{}", choices.name);
        push("enum", enum_path.clone(), "feature=client".to_owned());
        for (variant, _) in &choices.values {
            push(
                "variant",
                format!("{enum_path}::{variant}"),
                "feature=client".to_owned(),
            );
        }
        push(
            "fn",
            format!("{enum_path}::as_str"),
            "feature=client (self) -> &str".to_owned(),
        );
    }
}

fn method(receiver: &str, arguments: &[String], output: &str) -> String {
    let mut all = vec![receiver.to_owned()];
    all.extend(arguments.iter().cloned());
    format!("({}) -> {output}", all.join(", "))
}

impl Surface<'_> {
    /// Every public item, sorted by path.
    pub(crate) fn listing(&self) -> Vec<Line> {
        let fake_type = self.api.identity.fake_type.as_str();
        let mut lines = Vec::new();
        let mut push = |kind: &'static str, path: String, signature: String| {
            lines.push(Line {
                kind,
                path,
                signature,
            })
        };
        for def in self.api.types.values() {
            self.list_type(def, &mut push);
        }
        // What the extensions added, as each lists it.
        for line in self.contributions.iter().flat_map(|added| added.listing()) {
            push(line.kind, line.path, line.signature);
        }
        for (kind, path, signature) in FIXED {
            let path = path.replace("FakeBaseten", fake_type);
            push(kind, path, (*signature).to_owned());
        }
        // The runtime's items where the crate re-exports them, each with its signature.
        for reexport in reexports::reexports() {
            push("reexport", reexport.path, reexport.gate.to_owned());
        }
        for line in reexports::lines() {
            push(line.kind, line.path, line.signature);
        }
        if !self.api.servers.is_empty() {
            push(
                "mod",
                "client::servers".to_owned(),
                "feature=client".to_owned(),
            );
        }
        for server in &self.api.servers {
            push(
                "const",
                format!("client::servers::{}", server.name),
                format!("feature=client &str = {:?}", server.url),
            );
        }
        let routed = self
            .api
            .operation_servers
            .iter()
            .filter_map(|routed| routed.server.as_ref());
        for server in self.api.servers.iter().chain(routed) {
            list_server_builder(server, &mut push);
        }
        // The setters of each security scheme, when the operations differ in what they need.
        if self.api.auth.per_operation {
            push(
                "trait",
                "client::Credentials".to_owned(),
                "feature=client : Sized".to_owned(),
            );
            for scheme in &self.api.auth.schemes {
                let arguments = if scheme.place == crate::ir::security::ClientAuth::Basic {
                    "self, user: impl Into<String>, password: impl Into<String>"
                } else {
                    "self, value: impl Into<String>"
                };
                push(
                    "fn",
                    format!("client::Credentials::{}", scheme.setter),
                    format!("feature=client ({arguments}) -> Self"),
                );
            }
            push(
                "impl",
                "client::Credentials".to_owned(),
                "feature=client Credentials for ClientBuilder".to_owned(),
            );
            push(
                "reexport",
                "client::MissingCredentials".to_owned(),
                "feature=client".to_owned(),
            );
        }
        let identity = &self.api.identity;
        for (name, value) in [
            ("API_KEY_ENV", &identity.api_key_env),
            ("BASE_URL_ENV", &identity.base_url_env),
        ] {
            push(
                "const",
                format!("client::{name}"),
                format!("feature=client &str = {value:?}"),
            );
        }
        push(
            "const",
            "client::DEFAULT_BASE_URL".to_owned(),
            format!(
                "feature=client &str = {:?}",
                self.api.base_url.as_deref().unwrap_or_default()
            ),
        );
        for name in CLIENT_METHODS {
            let signature = CLIENT_METHOD_SIGNATURES
                .iter()
                .find(|(method, _)| method == name)
                .map_or("", |(_, signature)| signature);
            push(
                "fn",
                format!("{CLIENT_TYPE}::{name}"),
                format!("feature=client {signature}"),
            );
        }
        for name in FAKE_METHODS {
            let signature = FAKE_METHOD_SIGNATURES
                .iter()
                .find(|(method, _)| method == name)
                .map_or("", |(_, signature)| signature);
            push(
                "fn",
                format!("mock::{fake_type}::{name}"),
                format!("feature=mock {signature}"),
            );
        }
        for op in &self.operations {
            let operation = op.operation;
            let sends = endpoint(operation, operation.body.as_ref());
            let endpoint = format!("[{} {}]", operation.method, operation.path);
            let gate = op.gate.listing();
            let signature = op.signature();
            push(
                "fn",
                format!("{CLIENT_TYPE}::{}", operation.name),
                format!(
                    "{gate} {} {sends}",
                    method(
                        "&self",
                        &arguments(&signature),
                        &format!("Result<{}, rt::Error>", compact(signature.output.clone())),
                    )
                ),
            );
            let answer = match &operation.response {
                ResponseKind::Json(response) => ty(response),
                _ => "()".to_owned(),
            };
            push(
                "fn",
                format!("mock::{fake_type}::{}", op.expectation),
                format!(
                    "{gate} {} {endpoint}",
                    method(
                        "&self",
                        &path_strings(operation, "&str"),
                        &format!("rt::mock::Expectation<'_, {answer}>"),
                    )
                ),
            );
            if let Some(query) = &op.query {
                let name = &query.name;
                push(
                    "struct",
                    format!("operations::{name}"),
                    format!("{gate} Default"),
                );
                for field in &query.fields {
                    let param = field.param;
                    push(
                        "field",
                        format!("operations::{name}::{}", param.rust_name),
                        with_wire_name(
                            compact(field.stored_type()),
                            &param.rust_name,
                            &param.wire_name,
                        ),
                    );
                    push(
                        "fn",
                        format!("operations::{name}::{}", field.setter),
                        format!(
                            "(self, {}: {}) -> Self",
                            field.argument_name(),
                            compact(field.argument())
                        ),
                    );
                }
            }
        }
        for stream in &self.streams {
            let operation = stream.operation;
            let endpoint = format!("[{} {}]", operation.method, operation.path);
            let gate = stream.gate.listing();
            let mut arguments = path_strings(operation, "impl Into<String>");
            if let Some(query) = &operation.query_type {
                arguments.push(format!("query: &{query}"));
            }
            for (name, item) in [
                (&stream.pages, output(operation)),
                (&stream.items, ty(&stream.pagination.item)),
            ] {
                push(
                    "fn",
                    format!("{CLIENT_TYPE}::{name}"),
                    format!(
                        "{gate} {} {endpoint}",
                        method(
                            "&self",
                            &arguments,
                            &format!("rt::pages::PageStream<{item}>"),
                        )
                    ),
                );
            }
        }
        for body_method in &self.body_methods {
            let signature = body_method.signature();
            push(
                "fn",
                format!("{CLIENT_TYPE}::{}", body_method.name),
                format!(
                    "{} {} {}",
                    body_method.gate.listing(),
                    method(
                        "&self",
                        &arguments(&signature),
                        &format!("Result<{}, rt::Error>", compact(signature.output.clone())),
                    ),
                    endpoint(body_method.operation, Some(body_method.body))
                ),
            );
        }
        for def in self.test_builders() {
            let name = &def.name;
            push(
                "fn",
                format!("models::{name}::builder"),
                format!("() -> mock::Builder<{name}> (mock)"),
            );
            for field in &def.fields {
                let value = if builders::takes_itself(&field.ty) {
                    ty(&field.ty)
                } else {
                    format!("impl Into<{}>", ty(&field.ty))
                };
                push(
                    "fn",
                    format!(
                        "mock::Builder<{name}>::{}",
                        Self::test_builder_setter(&field.rust_name)
                    ),
                    format!("(self, value: {value}) -> Self"),
                );
            }
        }
        // A type's own line carries its gate; its fields, variants and methods go with it.
        for line in &mut lines {
            if let Some(name) = line.path.strip_prefix("models::")
                && self.api.types.contains_key(name)
            {
                let gate = self.features.type_gate(name).listing();
                line.signature = match (gate.is_empty(), line.signature.is_empty()) {
                    (true, _) => std::mem::take(&mut line.signature),
                    (false, true) => gate,
                    (false, false) => format!("{gate} {}", line.signature),
                };
            }
        }
        // Every signature as users write it: no `rt::`, std paths short.
        for line in &mut lines {
            line.signature = reexports::spell(&line.signature);
        }
        // By path: a type's fields, methods and variants follow it.
        lines.sort_by(|a, b| (&a.path, a.kind).cmp(&(&b.path, b.kind)));
        lines
    }

    fn list_type(&self, def: &TypeDef, push: &mut impl FnMut(&'static str, String, String)) {
        match def {
            TypeDef::Struct(def) => {
                let path = format!("models::{}", def.name);
                let default = def.fields.iter().all(|f| !f.required);
                push(
                    "struct",
                    path.clone(),
                    self.serde_impls(&def.name)
                        .append_to(if default { "Default" } else { "" }),
                );
                let computed;
                let resolved = match self.structs.get(&def.name) {
                    Some(resolved) => resolved,
                    None => {
                        computed =
                            builders::resolve_struct(def, self.write_only.contains(&def.name));
                        &computed
                    }
                };
                for field in &resolved.fields {
                    push(
                        "field",
                        format!("{path}::{}", field.field.rust_name),
                        with_wire_name(
                            compact(field.stored_type()),
                            &field.field.rust_name,
                            &field.field.wire_name,
                        ),
                    );
                    if let Some(setter) = &field.setter {
                        push(
                            "fn",
                            format!("{path}::{setter}"),
                            format!(
                                "(self, value: {}) -> Self",
                                compact(field.setter_argument())
                            ),
                        );
                    }
                    if let Some(clearer) = &field.clearer {
                        push(
                            "fn",
                            format!("{path}::{clearer}"),
                            "(self) -> Self".to_owned(),
                        );
                    }
                }
                let arguments: Vec<String> = resolved
                    .constructor_arguments()
                    .map(|(name, ty)| format!("{name}: {}", compact(ty)))
                    .collect();
                push(
                    "fn",
                    format!("{path}::{}", crate::reserved::CONSTRUCTOR),
                    format!("({}) -> Self", arguments.join(", ")),
                );
            }
            TypeDef::Enum(def) => {
                let path = format!("models::{}", def.name);
                push("enum", path.clone(), "open".to_owned());
                for variant in &def.variants {
                    push(
                        "variant",
                        format!("{path}::{}", variant.rust_name),
                        format!("{:?}", variant.wire),
                    );
                }
                push(
                    "variant",
                    format!("{path}::{}", def.fallback),
                    "(String)".to_owned(),
                );
            }
            TypeDef::IntEnum(def) => {
                let path = format!("models::{}", def.name);
                push("enum", path.clone(), "open integer".to_owned());
                for variant in &def.variants {
                    push(
                        "variant",
                        format!("{path}::{}", variant.rust_name),
                        variant.value.to_string(),
                    );
                }
                push(
                    "variant",
                    format!("{path}::{}", def.fallback),
                    "(i64)".to_owned(),
                );
            }
            TypeDef::Union(def) => {
                let path = format!("models::{}", def.name);
                push(
                    "enum",
                    path.clone(),
                    self.serde_impls(&def.name)
                        .append_to(&format!("tagged by {:?}", def.tag_property)),
                );
                push(
                    "const",
                    format!("{path}::TAG_PROPERTY"),
                    format!("&str = {:?}", def.tag_property),
                );
                push(
                    "fn",
                    format!("{path}::tag"),
                    "(&self) -> Option<&str>".to_owned(),
                );
                for variant in &def.variants {
                    let mut payload = ty(&variant.ty);
                    if let Some(wrapper) = variant.held.name() {
                        payload = format!("{wrapper}<{payload}>");
                    }
                    push(
                        "variant",
                        format!("{path}::{}", variant.rust_name),
                        format!("({payload}) {:?}", variant.tag),
                    );
                }
                push(
                    "variant",
                    format!("{path}::{}", def.fallback),
                    "(::serde_json::Value)".to_owned(),
                );
            }
            TypeDef::Untagged(def) => {
                let path = format!("models::{}", def.name);
                let signature = self.serde_impls(&def.name).append_to("untagged");
                push("enum", path.clone(), signature);
                for variant in &def.variants {
                    let mut payload = ty(&variant.ty);
                    if let Some(wrapper) = variant.held.name() {
                        payload = format!("{wrapper}<{payload}>");
                    }
                    push(
                        "variant",
                        format!("{path}::{}", variant.rust_name),
                        format!("({payload})"),
                    );
                }
            }
            TypeDef::Alias(def) => {
                push(
                    "type",
                    format!("models::{}", def.name),
                    format!("= {}", ty(&def.ty)),
                );
            }
        }
    }
}

/// The snapshot's text: a header, then one line per item.
pub(crate) fn render(lines: &[Line], spec_path: &str) -> String {
    let mut text = format!(
        "# @generated by cargo xtask regen from {spec_path}. Do not edit: the crate's public \
         API, one item per line (KIND PATH SIGNATURE).\n"
    );
    // The test builders' setters (one per field of every response struct) last, in a section
    // of their own, so they do not drown the rest.
    let is_test_setter = |line: &&Line| {
        line.path.starts_with("mock::Builder<") && !line.path.starts_with("mock::Builder<T>")
    };
    let (setters, rest): (Vec<&Line>, Vec<&Line>) = lines.iter().partition(is_test_setter);
    for (index, line) in rest.iter().chain(&setters).enumerate() {
        if index == rest.len() && !setters.is_empty() {
            text.push_str(
                "# The test builders' setters (feature mock): `Model::builder()`, one setter per \
                 field of every response struct.\n",
            );
        }
        text.push_str(line.kind);
        text.push(' ');
        text.push_str(&line.path);
        if !line.signature.is_empty() {
            text.push(' ');
            text.push_str(&line.signature);
        }
        text.push('\n');
    }
    text
}

/// A listed signature read back into the model it was rendered from: the item's
/// [`FeatureGate`] (`feature=…` first, [`FeatureGate::listing`]), its serde impls (`serde: …`
/// last, [`SerdeImpls::describe`]) and the rest, what the item is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ListedSignature<'s> {
    /// The features that compile the item; `None`: every build has it.
    pub(crate) gate: Option<FeatureGate>,
    /// Its serde impls (both, in every build, when the line says nothing).
    pub(crate) serde: SerdeImpls,
    /// The rest: what the item is.
    pub(crate) core: &'s str,
}

impl<'s> ListedSignature<'s> {
    /// `signature` (a line without its kind and path) in parts.
    pub(crate) fn of(signature: &'s str) -> ListedSignature<'s> {
        let (gate, rest) = match signature.strip_prefix("feature=") {
            Some(rest) => {
                let (gate, rest) = rest.split_once(' ').unwrap_or((rest, ""));
                (Some(FeatureGate::parse_listing(gate)), rest)
            }
            None => (None, signature),
        };
        let (core, serde) = split_serde(rest);
        ListedSignature { gate, serde, core }
    }
}

/// The serde impls a signature's `; serde: …` suffix (or the whole of it) describes, and the
/// signature without it ([`SerdeImpls::describe`] wrote it).
fn split_serde(signature: &str) -> (&str, SerdeImpls) {
    let described = [
        (Gate::Always, Gate::Mock),
        (Gate::Mock, Gate::Always),
        (Gate::Mock, Gate::Mock),
    ]
    .map(|(serialize, deserialize)| SerdeImpls {
        serialize,
        deserialize,
    });
    for impls in described {
        let Some(text) = impls.describe() else {
            continue;
        };
        if let Some(rest) = signature.strip_suffix(text) {
            if rest.is_empty() {
                return ("", impls);
            }
            if let Some(rest) = rest.strip_suffix("; ") {
                return (rest, impls);
            }
        }
    }
    (signature, SerdeImpls::BOTH)
}

/// A snapshot's items, `KIND PATH` → signature; comment lines and blank lines are skipped.
pub(crate) fn parse(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let mut parts = line.splitn(3, ' ');
            let kind = parts.next().unwrap_or_default();
            let path = parts.next().unwrap_or_default();
            let signature = parts.next().unwrap_or_default();
            (format!("{kind} {path}"), signature.to_owned())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;

    /// Every inherent method of every struct in the emitted `models.rs`, and every `Client`
    /// method in `operations.rs`, is listed with the arguments the code declares: the listing
    /// reads the surface's resolved fields and signatures, not a rendering of its own (it once
    /// listed `impl Into<i64>` where `new` takes an `i64`).
    #[test]
    fn methods_are_listed_as_the_code_declares_them() {
        let document = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /v1/things:\n    \
            patch:\n      requestBody: {required: true, content: {application/json: {schema: \
            {$ref: '#/components/schemas/Patch'}}}}\n      responses: {'200': {description: ok, \
            content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}}\n  \
            /v1/things/{id}/{n}:\n    get:\n      parameters:\n      - {name: id, in: path, \
            required: true, schema: {type: string}}\n      - {name: n, in: path, required: \
            true, schema: {type: integer}}\n      - {name: tag, in: query, required: true, \
            schema: {type: string}}\n      - {name: limit, in: query, schema: {type: \
            integer}}\n      requestBody: {content: {application/octet-stream: {schema: \
            {type: string, format: binary}}}}\n      responses: {'200': {description: ok, \
            content: {text/plain: {schema: {type: string}}}}}\n\
            components:\n  schemas:\n    Thing:\n      type: object\n      required: [count, \
            on, name, maybe]\n      properties:\n        count: {type: integer}\n        on: \
            {type: boolean}\n        name: {type: string}\n        maybe: {type: [number, \
            'null']}\n        ratio: {type: number}\n        label: {type: string}\n    \
            Patch:\n      type: object\n      properties:\n        size: {type: [integer, \
            'null']}\n        note: {type: [string, 'null']}\n";
        let output = crate::generate(&crate::Input {
            spec_path: "t.yaml",
            spec_text: document,
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{error}"));
        let listed = parse(&output.api_snapshot);
        let mut checked = 0;
        for (file, prefix) in [("models.rs", "models::"), ("operations.rs", "")] {
            let Ok(parsed) = syn::parse_file(&output.files[file]) else {
                panic!("{file} does not parse");
            };
            for item in parsed.items {
                let syn::Item::Impl(block) = item else {
                    continue;
                };
                let syn::Type::Path(self_type) = block.self_ty.as_ref() else {
                    continue;
                };
                // Models' own impls; in `operations.rs`, `Client`'s (query setters are listed
                // by what they take, not their generic parameter).
                if block.trait_.is_some()
                    || (prefix.is_empty() && !self_type.path.is_ident("Client"))
                {
                    continue;
                }
                let type_name = quote!(#self_type).to_string();
                for item in block.items {
                    let syn::ImplItem::Fn(function) = item else {
                        continue;
                    };
                    let name = &function.sig.ident;
                    let inputs = &function.sig.inputs;
                    let output = &function.sig.output;
                    // Compared without spaces: the listing spaces `name: type` as prose.
                    let bare = |text: &str| text.replace("mut self", "self").replace(' ', "");
                    let declared = bare(&reexports::spell(&format!(
                        "({}){}",
                        compact(quote!(#inputs)),
                        compact(quote!(#output))
                    )));
                    let key = format!("fn {prefix}{type_name}::{name}");
                    let Some(signature) = listed.get(&key) else {
                        panic!("{key} is not listed");
                    };
                    assert!(
                        bare(signature).contains(&declared),
                        "{key}: listed {signature:?}, declared {declared}"
                    );
                    checked += 1;
                }
            }
        }
        // `new`, setters and clearers of both structs, and both operations.
        assert!(checked >= 10, "{checked}");
    }

    /// A field or query parameter whose property is spelled otherwise than its Rust name shows
    /// the property (what `#[serde(rename)]` says), so a renamed property is a listed change.
    #[test]
    fn a_renamed_property_is_listed_with_its_field() {
        let document = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /v1/things:\n    \
            get:\n      parameters:\n      - {name: page-size, in: query, schema: {type: \
            integer}}\n      - {name: cursor, in: query, schema: {type: string}}\n      \
            responses: {'200': {description: ok, content: {application/json: {schema: {$ref: \
            '#/components/schemas/Thing'}}}}}\ncomponents:\n  schemas:\n    Thing:\n      \
            type: object\n      properties:\n        instanceType: {type: string}\n        \
            name: {type: string}\n";
        let output = crate::generate(&crate::Input {
            spec_path: "t.yaml",
            spec_text: document,
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{error}"));
        let listed = parse(&output.api_snapshot);
        for (key, signature) in [
            (
                "field models::Thing::instance_type",
                "Option<String> \"instanceType\"",
            ),
            ("field models::Thing::name", "Option<String>"),
            (
                "field operations::GetThingsQuery::page_size",
                "Option<i64> \"page-size\"",
            ),
            ("field operations::GetThingsQuery::cursor", "Option<String>"),
        ] {
            assert_eq!(
                listed.get(key).map(String::as_str),
                Some(signature),
                "{}",
                output.api_snapshot
            );
        }
    }

    #[test]
    fn tokens_read_as_written() {
        assert_eq!(compact(quote!(&[String])), "&[String]");
        assert_eq!(
            compact(quote!(impl ::std::fmt::Display)),
            "impl ::std::fmt::Display"
        );
        assert_eq!(
            compact(quote!(BTreeMap<String, Vec<Option<f64>>>)),
            "BTreeMap<String, Vec<Option<f64>>>"
        );
        assert_eq!(compact(quote!(rt::jiff::Timestamp)), "rt::jiff::Timestamp");
        assert_eq!(compact(quote!((a, b,))), "(a, b)");
        assert_eq!(compact(quote!(Vec<Alias>)), "Vec<Alias>");
        assert_eq!(
            compact(quote!(impl IntoIterator<Item: Into<::std::string::String>>)),
            "impl IntoIterator<Item: Into<::std::string::String>>"
        );
    }

    #[test]
    fn a_rendered_listing_parses_back_by_kind_and_path() {
        let lines = [
            Line {
                kind: "fn",
                path: "Client::get_x".to_owned(),
                signature: "(&self) -> Result<X, rt::Error> [GET /x]".to_owned(),
            },
            Line {
                kind: "struct",
                path: "models::X".to_owned(),
                signature: String::new(),
            },
        ];
        let text = render(&lines, "spec.yaml");
        assert!(text.starts_with("# @generated by cargo xtask regen from spec.yaml."));
        let parsed = parse(&text);
        assert_eq!(
            parsed,
            BTreeMap::from([
                (
                    "fn Client::get_x".to_owned(),
                    "(&self) -> Result<X, rt::Error> [GET /x]".to_owned()
                ),
                ("struct models::X".to_owned(), String::new()),
            ])
        );
    }
}
