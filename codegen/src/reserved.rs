//! The names every generated crate reserves, below every stage that claims names: the IR
//! (types, variants, arguments) and the surface (methods, support types) both start from
//! these lists, so no stage imports another's reservations. Each list says what the emitted
//! code or the runtime already uses the names for; the tests check the lists against the
//! emitters' output and the runtime's source.

use crate::runtime_traits::{MODEL_TRAITS, TraitNames};

/// What an extension reserves in every crate, whether or not it recognises its shape there (so
/// that no name depends on another item's shape): the extension says so
/// (`SurfaceExtension::reserved`), the crate root hands it to the IR and the surface.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Reservations {
    /// Type names its items use beside the models (runtime re-exports): no schema takes them.
    pub(crate) type_names: &'static [&'static str],
    /// Runtime traits it implements on models: no setter or clearer takes their methods.
    pub(crate) model_traits: &'static [TraitNames],
}

/// Names the emitted code refers to without a path (the std prelude, serde's derives and traits,
/// and the setters' generic `I`; the crate's own types are [`FIXED_TYPE_NAMES`]), so a document type must not take them;
/// locals of the emitted methods (`pairs`, `request`, `value`), so an argument must not either.
pub(crate) const RESERVED_TYPE_NAMES: &[&str] = &[
    "AsMut",
    "AsRef",
    "AsyncFn",
    "AsyncFnMut",
    "AsyncFnOnce",
    "BTreeMap",
    "Box",
    "Clone",
    "Copy",
    "D",
    "Debug",
    "Default",
    "Deserialize",
    "Deserializer",
    "DoubleEndedIterator",
    "Drop",
    "Eq",
    "Err",
    "ExactSizeIterator",
    "Extend",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "FromIterator",
    "Future",
    "Hash",
    "I",
    "Into",
    "IntoFuture",
    "IntoIterator",
    "Iterator",
    "None",
    "Ok",
    "Option",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "Result",
    "S",
    "Send",
    "Serialize",
    "Serializer",
    "Sized",
    "Some",
    "String",
    "Sync",
    "ToOwned",
    "ToString",
    "TryFrom",
    "TryInto",
    "Unpin",
    "Vec",
];

/// Locals and arguments of the emitted methods, which a document parameter must not take.
pub(crate) const RESERVED_ARGUMENT_NAMES: &[&str] = &[
    "body", "cookies", "headers", "pairs", "query", "request", "self_", "value", "values",
];

/// The name of the variant that keeps values the document does not list: always this one, so
/// that a document listing a value spelled `Unknown` renames nothing users match on.
pub(crate) const FALLBACK_VARIANT: &str = "Unknown";

/// The crate's client type, in `client.rs`, re-exported at the crate root.
pub(crate) const CLIENT_TYPE: &str = "Client";
/// The builder of [`CLIENT_TYPE`], an alias of the runtime's `ClientBuilder` in `client.rs`,
/// re-exported at the crate root.
pub(crate) const BUILDER_TYPE: &str = "ClientBuilder";
/// Type names the crate always defines or refers to beside the models: no schema may take them
/// (the IR reserves them for type names, the surface for support types).
pub(crate) const FIXED_TYPE_NAMES: &[&str] = &[
    CLIENT_TYPE,
    BUILDER_TYPE,
    // `client.rs` re-exports these from the runtime (`CLIENT_REEXPORTS`)...
    "AttemptContext",
    "AuthScheme",
    "InterceptedResponse",
    "Interceptor",
    "Method",
    "RawRequest",
    "RawResponse",
    "RetryPolicy",
    "RuntimeClient",
    "ServerUrl",
    // ... and `mock.rs` these (`FAKE_REEXPORTS`), beside the models' glob import, and defines
    // `Builder`.
    "Builder",
    "ErrorReply",
    "Expectation",
    "FakeServer",
    "Reply",
];

/// The crate `client.rs` re-exports from the runtime (one of [`CLIENT_REEXPORTS`]).
pub(crate) const REEXPORTED_CRATE: &str = "reqwest";

/// The runtime items `client.rs` re-exports (paths under the runtime's root): the client's
/// settings, its page stream and the HTTP crate, one path each in the crate.
pub(crate) const CLIENT_REEXPORTS: &[&str] = &[
    "AttemptContext",
    "AuthScheme",
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_MAX_RESPONSE_BYTES",
    "DEFAULT_REQUEST_ID_HEADER",
    "DEFAULT_TIMEOUT",
    "InterceptedResponse",
    "Interceptor",
    "RawRequest",
    "RawResponse",
    "RetryPolicy",
    "RuntimeClient",
    "ServerUrl",
    "pages::PageStream",
    "reqwest",
    "reqwest::Method",
];

/// The runtime's test helpers `mock.rs` re-exports (paths under the runtime's `mock`).
pub(crate) const FAKE_REEXPORTS: &[&str] = &[
    "metrics::BuildError",
    "metrics::MetricsResponseBuilder",
    "ErrorReply",
    "Expectation",
    "FakeServer",
    "Reply",
];

/// The inherent methods every generated `Client` has (see `emit/client.rs`), which no operation,
/// entry point or stream may take.
pub(crate) const CLIENT_METHODS: &[&str] = &[
    "new",
    "from_env",
    "builder",
    "runtime",
    "base_url",
    "with_timeout",
    "with_retry_policy",
    "request",
];

/// The inherent methods every generated fake (`Fake<Api>`) has (see `emit/mock.rs`).
pub(crate) const FAKE_METHODS: &[&str] = &["start", "client", "uri", "server", "on_request"];

/// The constructor's name, reserved before any setter is named.
pub(crate) const CONSTRUCTOR: &str = "new";

/// The method names a model struct has of its own, reserved before any setter is named: the
/// constructor and the test builder every struct a response reaches has with `mock` (see
/// `emit/mock.rs`).
pub(crate) const OWN_METHOD_NAMES: &[&str] = &[CONSTRUCTOR, "builder"];

/// Names an inherent method must not take. In method-call syntax an inherent method is found
/// before a trait method with a `&self` receiver, so a setter named like one of these would
/// shadow it for users (`response.step_seconds()` would call the setter and fail to compile):
/// the struct's [own methods](OWN_METHOD_NAMES), the methods of every runtime trait models
/// implement ([`MODEL_TRAITS`], reserved on every struct, not only on the ones that implement
/// them today, so that a setter's name never depends on another type's shape), and those of the
/// derived traits and the blanket std traits every type has ([`COMMON_METHOD_NAMES`]). `default`
/// and `deserialize` are associated functions, which an inherent one would shadow in
/// `Type::default()` paths.
/// `extension_traits` are the runtime traits extensions implement on models
/// ([`Reservations::model_traits`]).
pub(crate) fn reserved_method_names(
    extension_traits: &[TraitNames],
) -> impl Iterator<Item = &'static str> {
    OWN_METHOD_NAMES
        .iter()
        .chain(
            MODEL_TRAITS
                .iter()
                .chain(extension_traits)
                .flat_map(|names| names.methods),
        )
        .chain(COMMON_METHOD_NAMES)
        .copied()
}

/// Whether `name` is one of the [reserved method names](reserved_method_names).
pub(crate) fn is_reserved_method(name: &str, extension_traits: &[TraitNames]) -> bool {
    reserved_method_names(extension_traits).any(|reserved| reserved == name)
}

/// The methods every emitted type has through its derives (Debug, Clone, PartialEq, Default,
/// Serialize, Deserialize) and the blanket std traits (Into, TryInto, From, TryFrom, ToOwned,
/// Borrow, BorrowMut, Any): all a query struct's setters must avoid.
pub(crate) const COMMON_METHOD_NAMES: &[&str] = &[
    "fmt",
    "clone",
    "clone_from",
    "eq",
    "ne",
    "default",
    "serialize",
    "deserialize",
    "into",
    "try_into",
    "from",
    "try_from",
    "to_owned",
    "clone_into",
    "borrow",
    "borrow_mut",
    "type_id",
];

/// The features every generated crate has besides its areas; no area may take one.
/// The manifest's dependencies are listed too: Cargo refuses a feature named like one.
pub(crate) const FIXED_FEATURES: &[&str] = &[
    "default",
    "client",
    "mock",
    "full",
    "jiff",
    "decimal",
    "serde",
    "serde_json",
    "baseten-runtime",
];

/// Why `name` cannot be an area's feature, if it cannot.
pub(crate) fn check_feature_name(name: &str) -> Result<(), String> {
    let mut chars = name.chars();
    let valid_first = chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if !valid_first
        || !chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
    {
        return Err(
            "an area's feature name is lower-case ASCII letters, digits, `-` and `_`, starting \
             with a letter or digit"
                .to_owned(),
        );
    }
    if FIXED_FEATURES.contains(&name) {
        return Err(format!(
            "every generated crate has a feature {name:?} of its own"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use super::{COMMON_METHOD_NAMES, OWN_METHOD_NAMES, is_reserved_method};
    use crate::runtime_traits::{INDEX_MAPPED_TRAITS, MODEL_TRAITS, SUPPORT_TRAITS, TraitNames};

    fn parse(path: &Path) -> syn::File {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        syn::parse_file(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
    }

    /// A trait as a file declares it (at its top level): its associated types and its methods
    /// and associated functions.
    #[derive(Debug, PartialEq, Eq)]
    struct Declared {
        types: BTreeSet<String>,
        methods: BTreeSet<String>,
    }

    fn declared_trait(file: &syn::File, name: &str) -> Option<Declared> {
        file.items.iter().find_map(|item| match item {
            syn::Item::Trait(declared) if declared.ident == name => Some(Declared {
                types: declared
                    .items
                    .iter()
                    .filter_map(|item| match item {
                        syn::TraitItem::Type(ty) => Some(ty.ident.to_string()),
                        _ => None,
                    })
                    .collect(),
                methods: declared
                    .items
                    .iter()
                    .filter_map(|item| match item {
                        syn::TraitItem::Fn(function) => Some(function.sig.ident.to_string()),
                        _ => None,
                    })
                    .collect(),
            }),
            _ => None,
        })
    }

    /// The names a file makes public at its top level: `pub mod`, `pub trait` and the leaves of
    /// `pub use` (a rename's new name).
    fn public_names(file: &syn::File) -> BTreeSet<String> {
        fn leaves(tree: &syn::UseTree, out: &mut BTreeSet<String>) {
            match tree {
                syn::UseTree::Path(path) => leaves(&path.tree, out),
                syn::UseTree::Name(name) => {
                    out.insert(name.ident.to_string());
                }
                syn::UseTree::Rename(rename) => {
                    out.insert(rename.rename.to_string());
                }
                syn::UseTree::Group(group) => {
                    for tree in &group.items {
                        leaves(tree, out);
                    }
                }
                syn::UseTree::Glob(_) => {}
            }
        }
        let public = |vis: &syn::Visibility| matches!(vis, syn::Visibility::Public(_));
        let mut names = BTreeSet::new();
        for item in &file.items {
            match item {
                syn::Item::Use(declared) if public(&declared.vis) => {
                    leaves(&declared.tree, &mut names);
                }
                syn::Item::Mod(declared) if public(&declared.vis) => {
                    names.insert(declared.ident.to_string());
                }
                syn::Item::Trait(declared) if public(&declared.vis) => {
                    names.insert(declared.ident.to_string());
                }
                _ => {}
            }
        }
        names
    }

    /// How the table's entry for one trait differs from the runtime: its source (`file`, which
    /// should declare it) and the runtime's root (`root`, where the emitted code's `rt::` path
    /// starts). Empty when they agree.
    fn mismatches(entry: &TraitNames, file: &syn::File, root: &syn::File) -> Vec<String> {
        let name = entry.path.rsplit("::").next().unwrap_or_default();
        let mut found = Vec::new();
        let first = entry.path.split("::").next().unwrap_or_default();
        if !public_names(root).contains(first) {
            found.push(format!(
                "rt::{}: the runtime's root has no public `{first}`",
                entry.path
            ));
        }
        let Some(declared) = declared_trait(file, name) else {
            found.push(format!("{} declares no trait {name}", entry.source));
            return found;
        };
        let listed = Declared {
            types: entry.types.iter().map(|t| (*t).to_owned()).collect(),
            methods: entry.methods.iter().map(|m| (*m).to_owned()).collect(),
        };
        for (what, listed, declared) in [
            ("type", &listed.types, &declared.types),
            ("method", &listed.methods, &declared.methods),
        ] {
            for gone in listed.difference(declared) {
                found.push(format!("{name}: no {what} `{gone}` in the runtime"));
            }
            for new in declared.difference(listed) {
                found.push(format!(
                    "{name}: the runtime's {what} `{new}` is not listed"
                ));
            }
        }
        found
    }

    fn runtime_source() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime/src")
    }

    /// Every runtime trait the emitted code names (`crate::runtime_traits`) is read from the
    /// runtime's source: the same associated types and methods, reachable where the emitted
    /// code's `rt::` path says. Renaming, adding or removing a method in the runtime fails this
    /// until the table follows, and the table is where the renderers and the reserved names
    /// take the names from.
    #[test]
    fn the_runtime_traits_table_is_the_runtimes() {
        let runtime = runtime_source();
        let root = parse(&runtime.join("lib.rs"));
        let mut problems = Vec::new();
        for entry in MODEL_TRAITS
            .iter()
            .chain(&INDEX_MAPPED_TRAITS)
            .chain(&SUPPORT_TRAITS)
        {
            let file = parse(&runtime.join(entry.source));
            problems.extend(mismatches(entry, &file, &root));
        }
        assert!(
            problems.is_empty(),
            "runtime_traits.rs and the runtime disagree: {problems:#?}"
        );
    }

    /// The check above finds each kind of drift: a renamed method, an added one, a renamed
    /// associated type, a trait that is gone, a path the root does not export.
    #[test]
    fn a_drifted_runtime_trait_is_found() {
        let entry = TraitNames {
            path: "Shape",
            source: "shape.rs",
            types: &["Item"],
            methods: &["width", "height"],
        };
        let root = syn::parse_quote!(
            pub use shape::Shape;
        );
        let file = |source: &str| syn::parse_file(source).unwrap_or_else(|e| panic!("{e}"));
        let same = file("pub trait Shape { type Item; fn width(&self); fn height(&self); }");
        assert!(mismatches(&entry, &same, &root).is_empty());
        let renamed = file("pub trait Shape { type Item; fn width(&self); fn tall(&self); }");
        assert_eq!(
            mismatches(&entry, &renamed, &root),
            [
                "Shape: no method `height` in the runtime",
                "Shape: the runtime's method `tall` is not listed"
            ]
        );
        let added = file(
            "pub trait Shape { type Item; fn width(&self); fn height(&self); fn depth(&self); }",
        );
        assert_eq!(
            mismatches(&entry, &added, &root),
            ["Shape: the runtime's method `depth` is not listed"]
        );
        let retyped = file("pub trait Shape { type Element; fn width(&self); fn height(&self); }");
        assert_eq!(
            mismatches(&entry, &retyped, &root),
            [
                "Shape: no type `Item` in the runtime",
                "Shape: the runtime's type `Element` is not listed"
            ]
        );
        let gone = file("pub trait Form { type Item; fn width(&self); fn height(&self); }");
        assert_eq!(
            mismatches(&entry, &gone, &root),
            ["shape.rs declares no trait Shape"]
        );
        let hidden: syn::File = syn::parse_quote!(
            pub(crate) use shape::Shape;
            pub use shape::{Form as Outline};
            pub mod other {}
        );
        assert_eq!(
            mismatches(&entry, &same, &hidden),
            ["rt::Shape: the runtime's root has no public `Shape`"]
        );
        let renamed_export: syn::File = syn::parse_quote!(
            pub use shape::{Form as Shape};
        );
        assert!(mismatches(&entry, &same, &renamed_export).is_empty());
    }

    /// The traits the in-repo crate's emitted modules implement from the runtime (`impl rt::X
    /// for …`) are all in the table, so each impl's names come from it.
    #[test]
    fn the_emitted_crate_implements_only_listed_runtime_traits() {
        let generated = Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated/src/gen");
        let listed: BTreeSet<&str> = MODEL_TRAITS
            .iter()
            .chain(&INDEX_MAPPED_TRAITS)
            .chain(&SUPPORT_TRAITS)
            .map(|entry| entry.path)
            .collect();
        let mut implemented = BTreeSet::new();
        let entries = std::fs::read_dir(&generated).unwrap_or_else(|e| panic!("{e}"));
        for entry in entries {
            let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
            if path.extension().is_none_or(|ext| ext != "rs") {
                continue;
            }
            for item in parse(&path).items {
                let syn::Item::Impl(block) = item else {
                    continue;
                };
                let Some((_, trait_path, _)) = &block.trait_ else {
                    continue;
                };
                let segments: Vec<String> = trait_path
                    .segments
                    .iter()
                    .map(|segment| segment.ident.to_string())
                    .collect();
                if let Some(("rt", rest)) = segments.split_first().map(|(a, b)| (a.as_str(), b)) {
                    implemented.insert(rest.join("::"));
                }
            }
        }
        assert!(
            implemented.len() >= 4,
            "the emitted crate implements fewer runtime traits than it did: {implemented:?}"
        );
        let unlisted: Vec<&String> = implemented
            .iter()
            .filter(|path| !listed.contains(path.as_str()))
            .collect();
        assert!(
            unlisted.is_empty(),
            "runtime traits implemented but not in runtime_traits.rs: {unlisted:?}"
        );
    }

    /// Every method of a trait models implement is a name no setter may take, with the
    /// struct's own methods and those every type has.
    #[test]
    fn reserved_method_names_cover_the_traits_models_implement() {
        let model_methods = MODEL_TRAITS.iter().flat_map(|entry| entry.methods);
        for name in model_methods
            .chain(OWN_METHOD_NAMES)
            .chain(COMMON_METHOD_NAMES)
        {
            assert!(is_reserved_method(name, &[]), "{name}");
        }
        for name in ["send", "label", "window", "news"] {
            assert!(!is_reserved_method(name, &INDEX_MAPPED_TRAITS), "{name}");
        }
        // An extension's traits' methods are reserved when it is run, only then.
        for name in INDEX_MAPPED_TRAITS.iter().flat_map(|entry| entry.methods) {
            assert!(is_reserved_method(name, &INDEX_MAPPED_TRAITS), "{name}");
            assert!(!is_reserved_method(name, &[]), "{name}");
        }
    }
}
