//! Proves the listing against the code: every listed signature of an item the emitted files
//! declare (models' and query structs' fields and methods, `Client`'s and the fake's methods,
//! the test builders' setters, constants, aliases, variants' payloads) is compared with that
//! item as `syn` reads it from those files, on the in-repo crate and on every fixture document.
//! The runtime's re-exported items are proved by the runtime's own listing, read from its
//! sources.

use std::collections::BTreeMap;

use quote::{ToTokens, quote};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;

use super::listing::{compact, parse};
use super::reexports::spell;

/// The emitted files, each with the prefix of the paths of its items in the listing.
const FILES: &[(&str, &str)] = &[
    ("models.rs", "models::"),
    ("operations.rs", "operations::"),
    ("client.rs", "client::"),
    ("mock.rs", "mock::"),
];

/// Text compared without spaces, `mut` receivers and arguments as plain ones.
fn bare(text: &str) -> String {
    text.replace("mut self", "self")
        .replace("mut ", "")
        .replace(' ', "")
}

/// A function's signature as the listing writes it: generic parameters with bounds as the
/// `impl` types they stand for (`I` where `I: IntoIterator, I::Item: Into<T>` is
/// `impl IntoIterator<Item: Into<T>>`), others kept in front.
fn declared_fn(sig: &syn::Signature) -> String {
    let mut bounds: BTreeMap<String, (String, Vec<String>)> = BTreeMap::new();
    let mut plain = Vec::new();
    for param in &sig.generics.params {
        if let syn::GenericParam::Type(param) = param {
            let name = param.ident.to_string();
            if param.bounds.is_empty() {
                plain.push(name.clone());
            }
            let bound = &param.bounds;
            bounds.insert(name, (compact(quote!(#bound)), Vec::new()));
        }
    }
    if let Some(clause) = &sig.generics.where_clause {
        for predicate in &clause.predicates {
            let syn::WherePredicate::Type(predicate) = predicate else {
                continue;
            };
            let bounded = &predicate.bounded_ty;
            let bound = &predicate.bounds;
            let bounded = compact(quote!(#bounded));
            let bound = compact(quote!(#bound));
            match bounded.split_once("::") {
                Some((param, assoc)) => {
                    if let Some((_, assocs)) = bounds.get_mut(param) {
                        assocs.push(format!("{assoc}: {bound}"));
                    }
                }
                None => {
                    if let Some((own, _)) = bounds.get_mut(&bounded) {
                        *own = bound;
                        plain.retain(|name| *name != bounded);
                    }
                }
            }
        }
    }
    let inputs = &sig.inputs;
    let output = &sig.output;
    let mut arguments = Vec::new();
    for input in inputs {
        let mut text = compact(input.to_token_stream());
        for (name, (own, assocs)) in &bounds {
            if plain.contains(name) || own.is_empty() {
                continue;
            }
            let assoc = if assocs.is_empty() {
                String::new()
            } else {
                format!("<{}>", assocs.join(", "))
            };
            if let Some(colon) = text.find(": ")
                && text[colon + 2..] == *name
            {
                text = format!("{}: impl {own}{assoc}", &text[..colon]);
            }
        }
        arguments.push(text);
    }
    let generics = if plain.is_empty() {
        String::new()
    } else {
        format!("<{}> ", plain.join(", "))
    };
    let output = compact(quote!(#output));
    let output = if output.is_empty() {
        String::new()
    } else {
        format!(" {output}")
    };
    format!("{generics}({}){output}", arguments.join(", "))
}

/// `rt::mock_setters!(Model, [name: into T = "wire", name: value T = "wire", ...])`.
struct Setters {
    model: syn::Ident,
    setters: Vec<(syn::Ident, syn::Ident, syn::Type)>,
}

impl Parse for Setters {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let model = input.parse()?;
        input.parse::<syn::Token![,]>()?;
        let content;
        syn::bracketed!(content in input);
        let entries = Punctuated::<(syn::Ident, syn::Ident, syn::Type), syn::Token![,]>::parse_terminated_with(
            &content,
            |entry| {
                let name = entry.parse()?;
                entry.parse::<syn::Token![:]>()?;
                let how = entry.parse()?;
                let ty = entry.parse()?;
                entry.parse::<syn::Token![=]>()?;
                entry.parse::<syn::LitStr>()?;
                Ok((name, how, ty))
            },
        )?;
        Ok(Setters {
            model,
            setters: entries.into_iter().collect(),
        })
    }
}

/// Every item the emitted files declare, `KIND PATH` → its signature as the listing spells it.
fn declared(files: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for (file, prefix) in FILES {
        let Some(text) = files.get(*file) else {
            continue;
        };
        let Ok(parsed) = syn::parse_file(text) else {
            panic!("{file} does not parse");
        };
        // Inline modules (`client::servers`) are read with their path as the prefix.
        let mut modules = vec![(parsed.items, (*prefix).to_owned())];
        while let Some((items, prefix)) = modules.pop() {
            for item in items {
                match item {
                    syn::Item::Mod(module) if matches!(module.vis, syn::Visibility::Public(_)) => {
                        if let Some((_, items)) = module.content {
                            modules.push((items, format!("{prefix}{}::", module.ident)));
                        }
                    }
                    syn::Item::Impl(block) if block.trait_.is_none() => {
                        let self_type = &block.self_ty;
                        let name = compact(quote!(#self_type));
                        // `Client` is at the crate's root, its type and methods.
                        let owner = if name == "Client" {
                            name
                        } else {
                            format!("{prefix}{name}")
                        };
                        for item in &block.items {
                            match item {
                                syn::ImplItem::Fn(function) => {
                                    found.insert(
                                        format!("fn {owner}::{}", function.sig.ident),
                                        declared_fn(&function.sig),
                                    );
                                }
                                syn::ImplItem::Const(constant) => {
                                    let (ty, value) = (&constant.ty, &constant.expr);
                                    found.insert(
                                        format!("const {owner}::{}", constant.ident),
                                        compact(quote!(#ty = #value)),
                                    );
                                }
                                _ => {}
                            }
                        }
                    }
                    syn::Item::Trait(def) => {
                        let owner = format!("{prefix}{}", def.ident);
                        found.insert(format!("trait {owner}"), String::new());
                        for item in &def.items {
                            if let syn::TraitItem::Fn(function) = item {
                                found.insert(
                                    format!("fn {owner}::{}", function.sig.ident),
                                    declared_fn(&function.sig),
                                );
                            }
                        }
                    }
                    syn::Item::Struct(def) => {
                        let owner = format!("{prefix}{}", def.ident);
                        found.insert(format!("struct {owner}"), String::new());
                        for field in &def.fields {
                            if let (Some(name), syn::Visibility::Public(_)) =
                                (&field.ident, &field.vis)
                            {
                                let ty = &field.ty;
                                found
                                    .insert(format!("field {owner}::{name}"), compact(quote!(#ty)));
                            }
                        }
                    }
                    syn::Item::Enum(def) => {
                        let owner = format!("{prefix}{}", def.ident);
                        found.insert(format!("enum {owner}"), String::new());
                        for variant in &def.variants {
                            let payload = match &variant.fields {
                                syn::Fields::Unnamed(fields) => compact(quote!(#fields)),
                                _ => String::new(),
                            };
                            found.insert(format!("variant {owner}::{}", variant.ident), payload);
                        }
                    }
                    syn::Item::Const(constant) => {
                        let (ty, value) = (&constant.ty, &constant.expr);
                        found.insert(
                            format!("const {prefix}{}", constant.ident),
                            compact(quote!(#ty = #value)),
                        );
                    }
                    syn::Item::Type(alias) => {
                        let (generics, ty) = (&alias.generics, &alias.ty);
                        let generics = compact(quote!(#generics));
                        let generics = if generics.is_empty() {
                            String::new()
                        } else {
                            format!("{generics} ")
                        };
                        // The `ClientBuilder` alias is re-exported at the root, where it is listed.
                        let path = if alias.ident == crate::reserved::BUILDER_TYPE {
                            alias.ident.to_string()
                        } else {
                            format!("{prefix}{}", alias.ident)
                        };
                        found.insert(
                            format!("type {path}"),
                            format!("{generics}= {}", compact(quote!(#ty))),
                        );
                    }
                    syn::Item::Macro(call)
                        if call
                            .mac
                            .path
                            .segments
                            .last()
                            .is_some_and(|segment| segment.ident == "mock_setters") =>
                    {
                        let Ok(setters) = call.mac.parse_body::<Setters>() else {
                            panic!("{file}: a mock_setters! call does not parse");
                        };
                        let model = &setters.model;
                        found.insert(
                            format!("fn models::{model}::builder"),
                            format!("() -> mock::Builder<{model}>"),
                        );
                        for (name, how, ty) in &setters.setters {
                            let ty = compact(quote!(#ty));
                            let value = if how == "into" {
                                format!("impl Into<{ty}>")
                            } else {
                                ty
                            };
                            found.insert(
                                format!("fn mock::Builder<{model}>::{name}"),
                                format!("(self, value: {value}) -> Self"),
                            );
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    found
}

/// The listing's lines the code does not bear out, each with what the code declares.
pub(crate) fn unproved(listing: &str, files: &BTreeMap<String, String>) -> Vec<String> {
    let declared = declared(files);
    let listed = parse(listing);
    // What the crate re-exports is the runtime's, proved by the runtime's own listing.
    let reexports = super::reexports::reexports();
    let reexported: Vec<&str> = reexports
        .iter()
        .map(|reexport| reexport.path.as_str())
        .collect();
    let mut wrong = Vec::new();
    for (key, listed) in &listed {
        let Some((kind, path)) = key.split_once(' ') else {
            continue;
        };
        if ["mod", "reexport", "impl"].contains(&kind)
            || reexported
                .iter()
                .any(|outer| path == *outer || path.starts_with(&format!("{outer}::")))
        {
            continue;
        }
        // A method's endpoint and a field's property name come after what the code declares.
        let core = listed.signature.as_str();
        let Some(code) = declared.get(key) else {
            // Lines with no item of their own in the emitted files: the `Builder<T>` the fake's
            // module defines generically, extension lines of the runtime's traits.
            if kind == "struct" || kind == "enum" || path.starts_with("mock::Builder<T>") {
                continue;
            }
            wrong.push(format!("{key}: listed, not declared"));
            continue;
        };
        // `super::` is the emitted modules' way to the crate's own items, which the listing
        // names from the root; a constant's `&'static str` is its `&str`.
        let code = bare(
            &spell(code)
                .replace("super::models::", "")
                .replace("super::operations::", "")
                .replace("super::", "")
                .replace("&'static str", "&str"),
        );
        let matches = match kind {
            "fn" | "const" | "type" | "variant" => bare(core).starts_with(&code),
            "field" => {
                let stored = core.split(" \"").next().unwrap_or(core);
                bare(stored) == code
            }
            _ => true,
        };
        if !matches {
            wrong.push(format!("{key}: listed `{core}`, declared `{code}`"));
        }
    }
    wrong
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn workspace() -> &'static Path {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap_or_else(|| Path::new(".."))
    }

    fn generated_crate() -> (String, BTreeMap<String, String>) {
        let dir = workspace().join("generated/src/gen");
        let read = |name: &str| {
            std::fs::read_to_string(dir.join(name))
                .unwrap_or_else(|error| panic!("{name}: {error}"))
        };
        let files = FILES
            .iter()
            .map(|(file, _)| ((*file).to_owned(), read(file)))
            .collect();
        (read("api.txt"), files)
    }

    /// The committed crate's listing, every line of it, is what its emitted code declares.
    #[test]
    fn the_in_repo_listing_is_what_the_code_declares() {
        let (listing, files) = generated_crate();
        let wrong = unproved(&listing, &files);
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        // And it read the kinds it is about, not nothing.
        let declared = declared(&files);
        for key in [
            "fn Client::get_models",
            "fn Client::new",
            "fn mock::FakeBaseten::on_get_models",
            "fn operations::GetModelEnvironmentMetricsQuery::start_epoch_millis",
            "field operations::GetModelsQuery::name",
            "const client::DEFAULT_BASE_URL",
            "type ClientBuilder",
        ] {
            assert!(declared.contains_key(key), "{key} not read");
        }
        assert!(
            declared
                .keys()
                .any(|key| key.starts_with("fn mock::Builder<"))
        );
        assert!(declared.keys().any(|key| key.starts_with("field models::")));
    }

    /// Every fixture document's crate: its listing is what its code declares.
    #[test]
    fn every_fixture_listing_is_what_its_code_declares() {
        let specs = workspace().join("tests/fixtures/specs");
        let mut checked = 0;
        let mut entries: Vec<_> = std::fs::read_dir(&specs)
            .unwrap_or_else(|error| panic!("{}: {error}", specs.display()))
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .collect();
        entries.sort();
        for path in entries {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let Ok(output) = crate::generate(&crate::Input {
                spec_path: "fixture.yaml",
                spec_text: &text,
                config_text: None,
            }) else {
                continue;
            };
            let wrong = unproved(&output.api_snapshot, &output.files);
            assert!(
                wrong.is_empty(),
                "{}:\n{}",
                path.display(),
                wrong.join("\n")
            );
            checked += 1;
        }
        assert!(checked >= 10, "{checked} fixtures");
    }

    /// A wrong line of a model, a query struct, a client method, the fake, a field or a
    /// constant is caught.
    #[test]
    fn a_wrong_line_is_caught() {
        let (listing, files) = generated_crate();
        for (from, to) in [
            (
                "fn models::UpdateAutoscalingSettingsV1::concurrency_target (self, value: i64)",
                "fn models::UpdateAutoscalingSettingsV1::concurrency_target (self, value: impl Into<i64>)",
            ),
            (
                "fn operations::GetModelEnvironmentMetricsQuery::start_epoch_millis (self, value: i64)",
                "fn operations::GetModelEnvironmentMetricsQuery::start_epoch_millis (self, value: impl Into<i64>)",
            ),
            (
                "fn Client::get_model feature=models (&self, model_id: &str)",
                "fn Client::get_model feature=models (&self, model_id: impl Into<String>)",
            ),
            (
                "fn Client::new feature=client (api_key: impl Into<String>) -> Result<Self, Error>",
                "fn Client::new feature=client (api_key: &str) -> Result<Self, Error>",
            ),
            (
                "fn mock::FakeBaseten::on_get_model feature=models (&self, model_id: &str)",
                "fn mock::FakeBaseten::on_get_model feature=models (&self, model_id: String)",
            ),
            (
                "field operations::GetModelsQuery::name Option<String>",
                "field operations::GetModelsQuery::name String",
            ),
            (
                "const client::DEFAULT_BASE_URL feature=client &str = \"https://api.baseten.co\"",
                "const client::DEFAULT_BASE_URL feature=client &str = \"https://example.com\"",
            ),
            (
                "fn mock::Builder<ModelV1>::id (self, value: impl Into<String>)",
                "fn mock::Builder<ModelV1>::id (self, value: String)",
            ),
        ] {
            assert!(listing.contains(from), "the listing has no `{from}`");
            let changed = listing.replacen(from, to, 1);
            let wrong = unproved(&changed, &files);
            assert_eq!(wrong.len(), 1, "{to}: {wrong:#?}");
        }
        // A listed item the code lacks.
        let added = format!("{listing}fn Client::made_up (&self) -> ()\n");
        assert_eq!(
            unproved(&added, &files),
            ["fn Client::made_up: listed, not declared"]
        );
    }

    #[test]
    fn generic_parameters_read_as_impl_types() {
        let sig: syn::Signature = syn::parse_quote! {
            fn tags<I>(mut self, values: I) -> Self where I: IntoIterator, I::Item: Into<String>
        };
        assert_eq!(
            bare(&declared_fn(&sig)),
            bare("(self, values: impl IntoIterator<Item: Into<String>>) -> Self")
        );
        let sig: syn::Signature = syn::parse_quote! {
            fn on<T>(&self, path: &str) -> Expectation<'_, T>
        };
        assert_eq!(
            declared_fn(&sig),
            "<T> (&self, path: &str) -> Expectation<'_, T>"
        );
        let sig: syn::Signature = syn::parse_quote! { fn take<F: Fn()>(f: F) };
        assert_eq!(declared_fn(&sig), "(f: impl Fn())");
    }
}
