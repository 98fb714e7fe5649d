//! The generated crate's one API listing (`api.txt`): the surface as one line per public item
//! with its feature gate and signature, for reviewers (one small diff per API change) and for
//! the change report (`crate::diff`), which diffs two of them whatever caused the change, the
//! document or the generator. Besides the document's items it lists what every generated
//! crate has (its modules, the runtime items it re-exports, the client's and the fake's own
//! types); a test reads the crate's sources and checks nothing nameable is missing.
//!
//! A line is `KIND PATH [GATE] SIGNATURE`: the item's kind (`struct`, `fn`, `field`, …), its path
//! in the crate (no spaces; a line is keyed by the two), the features that compile it
//! (`feature=a|b`, none for an item every build has) and its signature as the emitted code
//! spells it. The model is structured ([`Line`], [`Listed`]); this module alone writes and
//! reads its text ([`render`] and [`parse`], the gate by [`gate_text`] and [`parse_gate`]). Types and arguments are rendered from the very tokens the emitters write
//! ([`crate::tokens`]), so the listing cannot drift from the code.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use proc_macro2::{TokenStream, TokenTree};

use super::features::{DECIMAL, FeatureGate, JIFF, Needs};
use super::signature::Signature;
use super::write_only::{Gate, SerdeImpls};
use super::{CLIENT_METHODS, CLIENT_TYPE, FAKE_METHODS, Surface, builders, reexports};
use crate::ir::{Body, BodyKind, Operation, ResponseKind, StructDef, TagKind, TypeDef, TypeRef};
use crate::tokens::type_tokens;

/// The file name of the snapshot, beside the emitted modules.
pub(crate) const FILE: &str = "api.txt";

/// What every generated crate has whatever the document, as `(kind, path, feature, signature)`:
/// the modules and re-exports of `gen/mod.rs` ([`crate::modules_file`]) and the fake's own
/// types. The runtime's items are listed where this crate re-exports them, once; the runtime's
/// own listing (`codegen/runtime/api.txt`) has their signatures.
const FIXED: &[(&str, &str, Option<&str>, &str)] = &[
    ("mod", "client", Some("client"), ""),
    ("mod", "error", None, ""),
    ("mod", "mock", Some("mock"), ""),
    ("mod", "models", None, ""),
    ("mod", "operations", Some("client"), ""),
    ("mod", "primitives", None, ""),
    ("reexport", "Client", Some("client"), ""),
    ("struct", "Client", Some("client"), ""),
    (
        "type",
        "ClientBuilder",
        Some("client"),
        "<C = Client> = rt::ClientBuilder<C>",
    ),
    ("struct", "mock::FakeBaseten", Some("mock"), ""),
    ("struct", "mock::Builder<T>", Some("mock"), ""),
    (
        "fn",
        "mock::Builder<T>::build",
        Some("mock"),
        "(self) -> Result<T, rt::Error>",
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
fn sends(operation: &Operation, body: Option<&Body>) -> String {
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
    /// The features that compile it; `None`: every build has it.
    pub(crate) gate: Option<FeatureGate>,
    /// What the item is, without its gate.
    pub(crate) signature: String,
}

impl Line {
    /// An item every build has (or whose gate the listing adds: a type's own items).
    pub(crate) fn new(kind: &'static str, path: String, signature: String) -> Line {
        Line {
            kind,
            path,
            gate: None,
            signature,
        }
    }

    /// Its gate and signature as the listing writes them.
    pub(crate) fn text(&self) -> String {
        signature_text(self.gate.as_ref(), &self.signature)
    }

    /// An item `gate` compiles; a gate of no features is every build.
    pub(crate) fn gated(
        kind: &'static str,
        path: String,
        gate: &FeatureGate,
        signature: String,
    ) -> Line {
        Line {
            kind,
            path,
            gate: (!gate.features().is_empty()).then(|| gate.clone()),
            signature,
        }
    }
}

/// One feature's gate (`client`, `mock`, an area).
pub(crate) fn feature(name: &str) -> FeatureGate {
    FeatureGate::Areas(BTreeSet::from([name.to_owned()]))
}

/// A gate as the listing writes it: `feature=a|b` (any one), `feature=jiff&decimal` (all), or
/// nothing for a gate of no features (every build). [`parse_gate`] reads it back.
pub(crate) fn gate_text(gate: &FeatureGate) -> String {
    let features = gate.features();
    match gate {
        _ if features.is_empty() => String::new(),
        FeatureGate::Areas(_) => format!("feature={}", features.join("|")),
        FeatureGate::WidelyShared(_) => format!("feature={}", features.join("&")),
    }
}

/// The gate [`gate_text`] wrote, without `feature=`: `a|b` (any one of the features, an
/// area's, `client`'s or `mock`'s), `jiff&decimal` (all the value types). A gate of one feature
/// reads as any one of one; `full` alone as the gate of what no area reaches.
pub(crate) fn parse_gate(text: &str) -> FeatureGate {
    let all: Vec<&str> = text.split('&').collect();
    let needs = Needs {
        jiff: all.contains(&JIFF),
        decimal: all.contains(&DECIMAL),
    };
    if all.len() > 1 && all.len() == usize::from(needs.jiff) + usize::from(needs.decimal) {
        FeatureGate::WidelyShared(needs)
    } else if text == super::features::FULL {
        FeatureGate::Areas(BTreeSet::new())
    } else {
        FeatureGate::Areas(text.split('|').map(str::to_owned).collect())
    }
}

/// A line's signature as the listing writes it: its gate, a space, the rest (either may be
/// empty, and then so is the space).
fn signature_text(gate: Option<&FeatureGate>, signature: &str) -> String {
    let gate = gate.map(gate_text).unwrap_or_default();
    match (gate.is_empty(), signature.is_empty()) {
        (true, _) => signature.to_owned(),
        (false, true) => gate,
        (false, false) => format!("{gate} {signature}"),
    }
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
/// the enums of its variables' values, each line behind `gate`.
fn server_builder_lines(server: &crate::ir::servers::Server, gate: &FeatureGate) -> Vec<Line> {
    let Some(builder) = server.builder.as_deref() else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    let mut push = |kind: &'static str, path: String, signature: String| {
        lines.push(Line::gated(kind, path, gate, signature));
    };
    let path = format!("client::servers::{builder}");
    push("struct", path.clone(), String::new());
    push("fn", format!("{path}::new"), "() -> Self".to_owned());
    push(
        "fn",
        format!("{path}::url"),
        "(&self) -> Result<String, Error>".to_owned(),
    );
    // Derived traits are not listed (as for models); the hand-written impls are.
    for signature in [
        format!("Default for {builder}"),
        format!("From<{builder}> for ServerUrl"),
    ] {
        push("impl", path.clone(), signature);
    }
    for variable in &server.variables {
        let taken = match &variable.choices {
            Some(choices) => choices.name.clone(),
            None => "impl Into<String>".to_owned(),
        };
        push(
            "fn",
            format!("{path}::{}", variable.setter),
            format!("(self, value: {taken}) -> Self"),
        );
        let Some(choices) = &variable.choices else {
            continue;
        };
        let enum_path = format!("client::servers::{}", choices.name);
        push("enum", enum_path.clone(), String::new());
        for (variant, _) in &choices.values {
            push("variant", format!("{enum_path}::{variant}"), String::new());
        }
        push(
            "fn",
            format!("{enum_path}::as_str"),
            "(self) -> &str".to_owned(),
        );
    }
    lines
}

fn method(receiver: &str, arguments: &[String], output: &str) -> String {
    let mut all = vec![receiver.to_owned()];
    all.extend(arguments.iter().cloned());
    format!("({}) -> {output}", all.join(", "))
}

impl Surface<'_> {
    /// Every public item, sorted by path.
    pub(crate) fn listing(&self) -> Vec<Line> {
        let mut lines = self.fixed_lines();
        for def in self.api.types.values() {
            self.list_type(def, &mut |kind, path, signature| {
                lines.push(Line::new(kind, path, signature));
            });
        }
        // What the extensions added, as each lists it.
        lines.extend(self.contributions.iter().flat_map(|added| added.listing()));
        lines.extend(self.operation_lines());
        lines.extend(self.test_builder_lines());
        // A type's own line carries its gate; its fields, variants and methods go with it.
        for line in &mut lines {
            if let Some(name) = line.path.strip_prefix("models::")
                && self.api.types.contains_key(name)
            {
                let gate = self.features.type_gate(name);
                *line = Line::gated(
                    line.kind,
                    std::mem::take(&mut line.path),
                    &gate,
                    std::mem::take(&mut line.signature),
                );
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

    /// What every crate has whatever its operations: the modules, the runtime's re-exports,
    /// the servers and variables, the client's and the fake's own methods.
    fn fixed_lines(&self) -> Vec<Line> {
        let fake_type = self.api.identity.fake_type.as_str();
        let client = feature("client");
        let mock = feature("mock");
        let mut lines = Vec::new();
        for (kind, path, gate, signature) in FIXED {
            let path = path.replace("FakeBaseten", fake_type);
            lines.push(Line {
                kind,
                path,
                gate: gate.map(feature),
                signature: (*signature).to_owned(),
            });
        }
        // The runtime's items where the crate re-exports them, each with its signature.
        for reexport in reexports::reexports() {
            lines.push(Line {
                kind: "reexport",
                gate: reexport.gate(),
                path: reexport.path,
                signature: String::new(),
            });
        }
        lines.extend(reexports::lines());
        if !self.api.servers.is_empty() {
            lines.push(Line::gated(
                "mod",
                "client::servers".to_owned(),
                &client,
                String::new(),
            ));
        }
        // Each server's builder, the document's and operations' own.
        let routed = self
            .api
            .operation_servers
            .iter()
            .filter_map(|routed| routed.server.as_ref());
        for server in self.api.servers.iter().chain(routed) {
            lines.extend(server_builder_lines(server, &client));
        }
        // The setters of each security scheme, when the operations differ in what they need.
        if self.api.auth.per_operation {
            lines.extend(self.credentials_lines(&client));
        }
        let identity = &self.api.identity;
        let constants = self
            .api
            .servers
            .iter()
            .map(|server| (format!("servers::{}", server.name), server.url.as_str()))
            .chain([
                ("API_KEY_ENV".to_owned(), identity.api_key_env.as_str()),
                ("BASE_URL_ENV".to_owned(), identity.base_url_env.as_str()),
                (
                    "DEFAULT_BASE_URL".to_owned(),
                    self.api.base_url.as_deref().unwrap_or_default(),
                ),
            ]);
        for (name, value) in constants {
            lines.push(Line::gated(
                "const",
                format!("client::{name}"),
                &client,
                format!("&str = {value:?}"),
            ));
        }
        let own_methods = [
            (
                CLIENT_TYPE,
                CLIENT_METHODS,
                CLIENT_METHOD_SIGNATURES,
                &client,
            ),
            (
                &*format!("mock::{fake_type}"),
                FAKE_METHODS,
                FAKE_METHOD_SIGNATURES,
                &mock,
            ),
        ];
        for (owner, names, signatures, gate) in own_methods {
            for name in names {
                let signature = signatures
                    .iter()
                    .find(|(method, _)| method == name)
                    .map_or("", |(_, signature)| signature);
                lines.push(Line::gated(
                    "fn",
                    format!("{owner}::{name}"),
                    gate,
                    (*signature).to_owned(),
                ));
            }
        }
        lines
    }

    /// The `Credentials` trait: a setter per security scheme, implemented for the builder.
    fn credentials_lines(&self, client: &FeatureGate) -> Vec<Line> {
        let mut lines = vec![Line::gated(
            "trait",
            "client::Credentials".to_owned(),
            client,
            ": Sized".to_owned(),
        )];
        for scheme in &self.api.auth.schemes {
            let arguments = if scheme.place == crate::ir::security::ClientAuth::Basic {
                "self, user: impl Into<String>, password: impl Into<String>"
            } else {
                "self, value: impl Into<String>"
            };
            lines.push(Line::gated(
                "fn",
                format!("client::Credentials::{}", scheme.setter),
                client,
                format!("({arguments}) -> Self"),
            ));
        }
        lines.push(Line::gated(
            "impl",
            "client::Credentials".to_owned(),
            client,
            "Credentials for ClientBuilder".to_owned(),
        ));
        lines.push(Line::gated(
            "reexport",
            "client::MissingCredentials".to_owned(),
            client,
            String::new(),
        ));
        lines
    }

    /// Each operation's method, fake expectation and query struct, under its area's gate (a
    /// query struct's fields and setters go with the struct).
    fn operation_lines(&self) -> Vec<Line> {
        let fake_type = self.api.identity.fake_type.as_str();
        let mut lines = Vec::new();
        for op in &self.operations {
            let operation = op.operation;
            let endpoint = format!("[{} {}]", operation.method, operation.path);
            let signature = op.signature();
            let output = format!("Result<{}, rt::Error>", compact(signature.output.clone()));
            let call = method("&self", &arguments(&signature), &output);
            let answer = match &operation.response {
                ResponseKind::Json(response) => ty(response),
                _ => "()".to_owned(),
            };
            let expectation = method(
                "&self",
                &path_strings(operation, "&str"),
                &format!("rt::mock::Expectation<'_, {answer}>"),
            );
            lines.push(Line::gated(
                "fn",
                format!("{CLIENT_TYPE}::{}", operation.name),
                &op.gate,
                format!("{call} {}", sends(operation, operation.body.as_ref())),
            ));
            lines.push(Line::gated(
                "fn",
                format!("mock::{fake_type}::{}", op.expectation),
                &op.gate,
                format!("{expectation} {endpoint}"),
            ));
            let Some(query) = &op.query else {
                continue;
            };
            let name = &query.name;
            lines.push(Line::gated(
                "struct",
                format!("operations::{name}"),
                &op.gate,
                "Default".to_owned(),
            ));
            for field in &query.fields {
                let param = field.param;
                lines.push(Line::new(
                    "field",
                    format!("operations::{name}::{}", param.rust_name),
                    with_wire_name(
                        compact(field.stored_type()),
                        &param.rust_name,
                        &param.wire_name,
                    ),
                ));
                lines.push(Line::new(
                    "fn",
                    format!("operations::{name}::{}", field.setter),
                    format!(
                        "(self, {}: {}) -> Self",
                        field.argument_name(),
                        compact(field.argument())
                    ),
                ));
            }
        }
        for body_method in &self.body_methods {
            let signature = body_method.signature();
            let output = format!("Result<{}, rt::Error>", compact(signature.output.clone()));
            let call = method("&self", &arguments(&signature), &output);
            lines.push(Line::gated(
                "fn",
                format!("{CLIENT_TYPE}::{}", body_method.name),
                &body_method.gate,
                format!(
                    "{call} {}",
                    sends(body_method.operation, Some(body_method.body))
                ),
            ));
        }
        lines
    }

    /// The fake's test builders: `Model::builder()` and a setter per field (feature `mock`,
    /// written after the signature as the builders' own section of the listing says).
    fn test_builder_lines(&self) -> Vec<Line> {
        let mut lines = Vec::new();
        for def in self.test_builders() {
            let name = &def.name;
            lines.push(Line::new(
                "fn",
                format!("models::{name}::builder"),
                format!("() -> mock::Builder<{name}> (mock)"),
            ));
            for field in &def.fields {
                let value = if builders::takes_itself(&field.ty) {
                    ty(&field.ty)
                } else {
                    format!("impl Into<{}>", ty(&field.ty))
                };
                lines.push(Line::new(
                    "fn",
                    format!(
                        "mock::Builder<{name}>::{}",
                        Self::test_builder_setter(&field.rust_name)
                    ),
                    format!("(self, value: {value}) -> Self"),
                ));
            }
        }
        lines
    }

    /// A struct's lines: itself, each field, setter and clearer, and its constructor.
    fn list_struct(&self, def: &StructDef, push: &mut impl FnMut(&'static str, String, String)) {
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
                computed = builders::resolve_struct(
                    def,
                    self.write_only.contains(&def.name),
                    &self.model_traits,
                );
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

    fn list_type(&self, def: &TypeDef, push: &mut impl FnMut(&'static str, String, String)) {
        match def {
            TypeDef::Struct(def) => self.list_struct(def, push),
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
            TypeDef::ValueEnum(def) => {
                let path = format!("models::{}", def.name);
                push("enum", path.clone(), "open JSON value".to_owned());
                for variant in &def.variants {
                    push(
                        "variant",
                        format!("{path}::{}", variant.rust_name),
                        variant.wire.clone(),
                    );
                }
                push(
                    "variant",
                    format!("{path}::{}", def.fallback),
                    "(::serde_json::Value)".to_owned(),
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
                    format!("(&self) -> Option<{}>", def.tag_kind.rust_type()),
                );
                for variant in &def.variants {
                    let mut payload = ty(&variant.ty);
                    if let Some(wrapper) = variant.held.name() {
                        payload = format!("{wrapper}<{payload}>");
                    }
                    push(
                        "variant",
                        format!("{path}::{}", variant.rust_name),
                        format!(
                            "({payload}) {}",
                            std::iter::once(&variant.tag)
                                .chain(&variant.also)
                                .map(|tag| match def.tag_kind {
                                    TagKind::String => format!("{tag:?}"),
                                    TagKind::Integer | TagKind::Boolean => tag.clone(),
                                })
                                .collect::<Vec<_>>()
                                .join(" | ")
                        ),
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
                // How a value picks its variant: the first whose JSON kind (or required keys)
                // it has, or the member that fits it best (`ir::best_fit`). A switch between the
                // two decodes the same JSON differently, so the change report must see it.
                let decoding = if def.best_fit { "best fit" } else { "untagged" };
                let signature = self.serde_impls(&def.name).append_to(decoding);
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

/// The snapshot's text: a header, then one line per item. [`parse`] reads it back.
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
        let signature = line.text();
        if !signature.is_empty() {
            text.push(' ');
            text.push_str(&signature);
        }
        text.push('\n');
    }
    text
}

/// A listed item read back from a snapshot: its gate and its signature, as [`Line`] has them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Listed {
    /// The features that compile the item; `None`: every build has it.
    pub(crate) gate: Option<FeatureGate>,
    /// What the item is, without its gate.
    pub(crate) signature: String,
}

impl Listed {
    /// A line's signature (without its kind and path) as [`render`] wrote it.
    fn read(text: &str) -> Listed {
        match text.strip_prefix("feature=") {
            Some(rest) => {
                let (gate, signature) = rest.split_once(' ').unwrap_or((rest, ""));
                Listed {
                    gate: Some(parse_gate(gate)),
                    signature: signature.to_owned(),
                }
            }
            None => Listed {
                gate: None,
                signature: text.to_owned(),
            },
        }
    }
}

impl fmt::Display for Listed {
    /// As the snapshot writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&signature_text(self.gate.as_ref(), &self.signature))
    }
}

/// A listed signature in parts: the item's [`FeatureGate`], its serde impls (`serde: …` last,
/// [`SerdeImpls::describe`]) and the rest, what the item is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ListedSignature<'s> {
    /// The features that compile the item; `None`: every build has it.
    pub(crate) gate: Option<&'s FeatureGate>,
    /// Its serde impls (both, in every build, when the line says nothing).
    pub(crate) serde: SerdeImpls,
    /// The rest: what the item is.
    pub(crate) core: &'s str,
}

impl<'s> ListedSignature<'s> {
    /// `listed` in parts.
    pub(crate) fn of(listed: &'s Listed) -> ListedSignature<'s> {
        let (core, serde) = split_serde(&listed.signature);
        ListedSignature {
            gate: listed.gate.as_ref(),
            serde,
            core,
        }
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

/// A snapshot's items, `KIND PATH` → gate and signature; comment lines and blank lines are
/// skipped. [`render`] wrote it.
pub(crate) fn parse(text: &str) -> BTreeMap<String, Listed> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let mut parts = line.splitn(3, ' ');
            let kind = parts.next().unwrap_or_default();
            let path = parts.next().unwrap_or_default();
            let signature = parts.next().unwrap_or_default();
            (format!("{kind} {path}"), Listed::read(signature))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;

    /// `parse_gate` reads what `gate_text` writes: one feature (a value type's too) is any one
    /// of one, `&` joins the value types a shared type needs, `|` any one of several areas, and
    /// `full` alone the gate of what no area reaches.
    #[test]
    fn a_gate_of_one_feature_reads_as_any_one_of_one() {
        for name in [JIFF, DECIMAL, "client", "models"] {
            assert_eq!(parse_gate(name), feature(name), "{name}");
        }
        let both = FeatureGate::WidelyShared(Needs {
            jiff: true,
            decimal: true,
        });
        assert_eq!(parse_gate(&format!("{JIFF}&{DECIMAL}")), both);
        assert_eq!(
            parse_gate(gate_text(&both).trim_start_matches("feature=")),
            both
        );
        let areas = FeatureGate::Areas(["a", "b"].into_iter().map(str::to_owned).collect());
        assert_eq!(parse_gate("a|b"), areas);
        assert_eq!(
            parse_gate(super::super::features::FULL),
            FeatureGate::Areas(BTreeSet::new())
        );
    }

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
                        bare(&signature.signature).contains(&declared),
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
                listed.get(key).map(ToString::to_string).as_deref(),
                Some(signature),
                "{}",
                output.api_snapshot
            );
        }
    }

    #[test]
    fn a_union_variant_is_listed_with_every_tag_it_takes() {
        let document = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /v1/filters:\n    \
            get:\n      responses: {'200': {description: ok, content: {application/json: {schema: \
            {$ref: '#/components/schemas/Filter'}}}}}\ncomponents:\n  schemas:\n    Filter:\n      \
            oneOf: [{$ref: '#/components/schemas/Cmp'}, {$ref: '#/components/schemas/Neg'}]\n      \
            discriminator: {propertyName: op}\n    Cmp:\n      type: object\n      \
            required: [op]\n      properties: {op: {type: string, enum: [eq, ne]}}\n    \
            Neg:\n      type: object\n      required: [op]\n      properties: {op: {const: not}}\n";
        let output = crate::generate(&crate::Input {
            spec_path: "t.yaml",
            spec_text: document,
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{error}"));
        let listed = parse(&output.api_snapshot);
        for (key, signature) in [
            ("variant models::Filter::Cmp", "(Cmp) \"eq\" | \"ne\""),
            ("variant models::Filter::Not", "(Neg) \"not\""),
        ] {
            assert_eq!(
                listed.get(key).map(|listed| listed.signature.as_str()),
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
        let client = feature("client");
        let lines = [
            Line::gated(
                "fn",
                "Client::get_x".to_owned(),
                &client,
                "(&self) -> Result<X, rt::Error> [GET /x]".to_owned(),
            ),
            Line::new("struct", "models::X".to_owned(), String::new()),
            Line::gated("mod", "client".to_owned(), &client, String::new()),
            Line::new("enum", "models::Y".to_owned(), "open".to_owned()),
        ];
        let text = render(&lines, "spec.yaml");
        assert!(text.starts_with("# @generated by cargo xtask regen from spec.yaml."));
        assert!(text.contains("\nfn Client::get_x feature=client (&self) -> Result<X"));
        assert!(text.contains("\nmod client feature=client\n"));
        assert!(text.contains("\nstruct models::X\n"));
        let listed = |gate: Option<&FeatureGate>, signature: &str| Listed {
            gate: gate.cloned(),
            signature: signature.to_owned(),
        };
        let parsed = parse(&text);
        assert_eq!(
            parsed,
            BTreeMap::from([
                (
                    "fn Client::get_x".to_owned(),
                    listed(Some(&client), "(&self) -> Result<X, rt::Error> [GET /x]")
                ),
                ("struct models::X".to_owned(), listed(None, "")),
                ("mod client".to_owned(), listed(Some(&client), "")),
                ("enum models::Y".to_owned(), listed(None, "open")),
            ])
        );
        // Each line reads back as it was rendered.
        for line in &lines {
            let read = &parsed[&format!("{} {}", line.kind, line.path)];
            assert_eq!(read.to_string(), line.text());
        }
    }
}
