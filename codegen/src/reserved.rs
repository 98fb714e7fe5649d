//! The names every generated crate reserves, below every stage that claims names: the IR
//! (types, variants, arguments) and the surface (methods, support types) both start from
//! these lists, so no stage imports another's reservations. Each list says what the emitted
//! code or the runtime already uses the names for; the tests check the lists against the
//! emitters' output and the runtime's source.

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
/// The fake server's type, in `mock.rs`.
pub(crate) const FAKE_TYPE: &str = "FakeBaseten";
/// The builder of [`CLIENT_TYPE`], an alias of the runtime's `ClientBuilder` in `client.rs`,
/// re-exported at the crate root.
pub(crate) const BUILDER_TYPE: &str = "ClientBuilder";
/// Type names the crate always defines or refers to beside the models: no schema may take them
/// (the IR reserves them for type names, the surface for support types).
pub(crate) const FIXED_TYPE_NAMES: &[&str] = &[
    CLIENT_TYPE,
    BUILDER_TYPE,
    FAKE_TYPE,
    // `client.rs` re-exports these from the runtime (`CLIENT_REEXPORTS`)...
    "AttemptContext",
    "AuthScheme",
    "InterceptedResponse",
    "Interceptor",
    "Method",
    "PageStream",
    "RawRequest",
    "RawResponse",
    "RetryPolicy",
    "RuntimeClient",
    // ... and `mock.rs` these (`FAKE_REEXPORTS`), beside the models' glob import, and defines
    // `Builder`.
    "BuildError",
    "Builder",
    "Expectation",
    "FakeServer",
    "MetricsResponseBuilder",
    "Reply",
];

/// The runtime items `client.rs` re-exports (paths under the runtime's root): the client's
/// settings, its page stream and the HTTP crate, one path each in the crate.
pub(crate) const CLIENT_REEXPORTS: &[&str] = &[
    "API_KEY_ENV",
    "AttemptContext",
    "AuthScheme",
    "BASE_URL_ENV",
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
    "pages::PageStream",
    "reqwest",
    "reqwest::Method",
];

/// The runtime's test helpers `mock.rs` re-exports (paths under the runtime's `mock`).
pub(crate) const FAKE_REEXPORTS: &[&str] = &[
    "metrics::BuildError",
    "metrics::MetricsResponseBuilder",
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

/// The inherent methods every generated `FakeBaseten` has (see `emit/mock.rs`).
pub(crate) const FAKE_METHODS: &[&str] = &["start", "client", "uri", "server", "on_request"];

/// The constructor's name, reserved before any setter is named.
pub(crate) const CONSTRUCTOR: &str = "new";

/// Names an inherent method must not take. In method-call syntax an inherent method is found
/// before a trait method with a `&self` receiver, so a setter named like one of these would
/// shadow it for users (`response.step_seconds()` would call the setter and fail to compile):
/// the methods of the runtime's index-mapped traits (reserved on every struct, not only on the
/// ones recognised today, so that a setter's name never depends on another type's shape), of the
/// derived traits, and of the blanket std traits every type has. `default` and `deserialize`
/// are associated functions, which an inherent one would shadow in `Type::default()` paths.
pub(crate) const RESERVED_METHOD_NAMES: &[&str] = &[
    CONSTRUCTOR,
    // The test builder every struct a response reaches has with `mock` (see `emit/mock.rs`).
    "builder",
    // rt::IndexMappedResponse
    "window_start_millis",
    "window_end_millis",
    "mode_str",
    "mode",
    "step_seconds",
    "descriptors",
    "value_sets",
    // rt::IndexMappedDescriptor
    "name",
    "unit_hint_str",
    "unit",
    "kind_str",
    "label_sets",
    // rt::IndexMappedValueSet
    "start_epoch_millis",
    "values",
    // rt::__private::FromFields (every struct's `Deserialize` goes through it)
    "from_fields",
    // Debug, Clone, PartialEq, Default, Serialize, Deserialize, and the blanket std traits
    // (see COMMON_METHOD_NAMES, which must stay the tail of this list)
    "fmt",
    "clone",
    "clone_from",
    "eq",
    "ne",
    "default",
    "serialize",
    "deserialize",
    // Blanket std traits: Into, TryInto, From, TryFrom, ToOwned, Borrow, BorrowMut, Any
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

/// The methods every emitted type has through its derives and the blanket std traits: the tail
/// of [`RESERVED_METHOD_NAMES`], all a query struct's setters must avoid.
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

    use super::{COMMON_METHOD_NAMES, RESERVED_METHOD_NAMES};

    #[test]
    fn common_methods_are_the_tail_of_the_reserved_ones() {
        assert!(RESERVED_METHOD_NAMES.ends_with(COMMON_METHOD_NAMES));
    }

    fn parse(path: &Path) -> syn::File {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        syn::parse_file(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
    }

    /// The traits a file declares (at its top level), with their methods and associated
    /// functions.
    fn traits_in(file: &syn::File) -> Vec<(String, Vec<String>)> {
        file.items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Trait(declared) => Some((
                    declared.ident.to_string(),
                    declared
                        .items
                        .iter()
                        .filter_map(|item| match item {
                            syn::TraitItem::Fn(function) => Some(function.sig.ident.to_string()),
                            _ => None,
                        })
                        .collect(),
                )),
                _ => None,
            })
            .collect()
    }

    /// The last segment of each trait the file implements (`impl rt::IndexMappedResponse for
    /// …` gives `IndexMappedResponse`).
    fn implemented_traits(file: &syn::File) -> BTreeSet<String> {
        file.items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Impl(block) => block.trait_.as_ref(),
                _ => None,
            })
            .filter_map(|(_, path, _)| path.segments.last())
            .map(|segment| segment.ident.to_string())
            .collect()
    }

    /// The runtime traits the emitted code implements on model structs (the index-mapped ones in
    /// `gen/index_mapped.rs`, and `FromFields` behind every struct's `Deserialize`) are read from
    /// the runtime's source: every method they have is a name no setter or clearer may take, or
    /// it would shadow the trait's method for users. Renaming or adding a method in the runtime
    /// fails this until the reserved list follows.
    #[test]
    fn reserved_method_names_cover_the_runtime_traits_models_implement() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let runtime = root.join("runtime/src");
        let mut traits = traits_in(&parse(&runtime.join("index_mapped.rs")));
        let index_mapped: BTreeSet<String> = traits.iter().map(|(name, _)| name.clone()).collect();
        assert!(
            index_mapped.len() >= 3,
            "the runtime's index-mapped traits are gone: {index_mapped:?}"
        );
        traits.extend(
            traits_in(&parse(&runtime.join("struct_de.rs")))
                .into_iter()
                .filter(|(name, _)| name == "FromFields"),
        );
        assert!(traits.iter().any(|(name, _)| name == "FromFields"));
        // What the in-repo crate's index-mapped module implements is all from that module.
        let emitted =
            implemented_traits(&parse(&root.join("../generated/src/gen/index_mapped.rs")));
        assert!(!emitted.is_empty());
        assert!(
            emitted.is_subset(&index_mapped),
            "gen/index_mapped.rs implements traits outside the runtime's index_mapped.rs: \
             {emitted:?}"
        );
        let reserved: BTreeSet<&str> = RESERVED_METHOD_NAMES.iter().copied().collect();
        let missing: Vec<String> = traits
            .iter()
            .flat_map(|(name, methods)| methods.iter().map(move |m| format!("{name}::{m}")))
            .filter(|path| {
                let method = path.rsplit("::").next().unwrap_or_default();
                !reserved.contains(method)
            })
            .collect();
        assert!(
            missing.is_empty(),
            "runtime trait methods a setter could shadow: {missing:?}"
        );
    }
}
