//! The runtime items every generated crate re-exports, under the paths its users write: the
//! listing shows each with its signature (read from the runtime's own listing, which
//! `crate::public_api` reads from its sources with `syn`), and every signature names them by
//! those paths, never `rt::` (the emitted code's alias of the runtime, which users cannot write).

use std::collections::HashMap;
use std::sync::LazyLock;

use super::features::FeatureGate;
use super::listing::{self, Line};
use crate::reserved::{BUILDER_TYPE, CLIENT_REEXPORTS, FAKE_REEXPORTS};

/// The runtime's public-API listing (`codegen/runtime/api.txt`, written by `cargo xtask regen`
/// from the runtime's sources and checked current by a test).
pub(crate) const RUNTIME_LISTING: &str = include_str!("../../runtime/api.txt");

/// What `gen/mod.rs` re-exports beside `client.rs` and `mock.rs` ([`crate::modules_file`]), as
/// `(path in the crate, path in the runtime, the feature it needs)`.
const ROOT_REEXPORTS: &[(&str, &str, Option<&str>)] = &[
    ("Error", "Error", None),
    ("metric_names", "metric_names", None),
    ("metrics", "metrics", None),
    ("requests", "requests", None),
    ("spans", "spans", Some("jiff")),
    ("primitives::Binary", "Binary", None),
    ("primitives::Patch", "Patch", None),
    ("primitives::Decimal", "Decimal", Some("decimal")),
    ("primitives::DecimalError", "DecimalError", Some("decimal")),
    ("primitives::jiff", "jiff", Some("jiff")),
    ("error::InvalidArgument", "InvalidArgument", None),
    ("error::InvalidResponse", "InvalidResponse", None),
    (
        "error::RegisteredSecret",
        "server_text::RegisteredSecret",
        Some("scrub"),
    ),
    ("error::ServerText", "server_text::ServerText", None),
    ("error::is_unprintable", "server_text::is_unprintable", None),
];

/// One runtime item at its path in the crate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reexport {
    /// Where users name it (`client::RetryPolicy`).
    pub(crate) path: String,
    /// Where the runtime has it (`RetryPolicy`).
    pub(crate) runtime: String,
    /// The crate's feature it needs (`client`), if any.
    pub(crate) feature: Option<&'static str>,
}

impl Reexport {
    /// The gate of its line in the listing.
    pub(crate) fn gate(&self) -> Option<FeatureGate> {
        self.feature.map(listing::feature)
    }
}

/// Every re-export of a generated crate, root's first, then `client`'s and `mock`'s.
pub(crate) fn reexports() -> Vec<Reexport> {
    REEXPORTS.clone()
}

/// [`reexports`], made once: [`user_path`] reads them for every `rt::` path of every listed
/// signature.
static REEXPORTS: LazyLock<Vec<Reexport>> = LazyLock::new(make_reexports);

/// The runtime listing's types by name, each with the one module that holds it (`None` where
/// more than one line names a type so), read once: [`user_path`] looks up every `rt::` name the
/// re-exports do not cover (`rt::Indirect` on each field that holds one), and reading the whole
/// listing each time made generation quadratic in practice (a document of 2,300 cyclic schemas
/// took 3.5 times as long).
static TYPE_MODULES: LazyLock<HashMap<&'static str, Option<&'static str>>> =
    LazyLock::new(|| type_modules(RUNTIME_LISTING));

/// [`TYPE_MODULES`] of a listing given as text.
fn type_modules(listing: &str) -> HashMap<&str, Option<&str>> {
    let mut modules: HashMap<&str, Option<&str>> = HashMap::new();
    for (kind, path, _, _) in listing.lines().filter_map(runtime_line) {
        let is_type = ["struct", "enum", "trait", "type", "union"].contains(&kind);
        if let Some((module, name)) = path.rsplit_once("::")
            && is_type
        {
            modules
                .entry(name)
                .and_modify(|module| *module = None)
                .or_insert(Some(module));
        }
    }
    modules
}

fn make_reexports() -> Vec<Reexport> {
    let last = |path: &str| path.rsplit("::").next().unwrap_or(path).to_owned();
    let root = ROOT_REEXPORTS
        .iter()
        .map(|(path, runtime, feature)| Reexport {
            path: (*path).to_owned(),
            runtime: (*runtime).to_owned(),
            feature: *feature,
        });
    let client = CLIENT_REEXPORTS.iter().map(|runtime| Reexport {
        path: format!("client::{}", last(runtime)),
        runtime: (*runtime).to_owned(),
        feature: Some("client"),
    });
    let fake = FAKE_REEXPORTS.iter().map(|runtime| Reexport {
        path: format!("mock::{}", last(runtime)),
        runtime: format!("mock::{runtime}"),
        feature: Some("mock"),
    });
    // The `ClientBuilder` alias (`client.rs`) stands for the runtime's builder.
    let builder = std::iter::once(Reexport {
        path: BUILDER_TYPE.to_owned(),
        runtime: BUILDER_TYPE.to_owned(),
        feature: Some("client"),
    });
    root.chain(client).chain(fake).chain(builder).collect()
}

/// A runtime line's parts: kind, path, signature without its `#[cfg]`s, and the cfgs.
fn runtime_line(line: &str) -> Option<(&str, &str, &str, Vec<&str>)> {
    let mut parts = line.splitn(3, ' ');
    let (kind, path) = (parts.next()?, parts.next()?);
    let mut signature = parts.next().unwrap_or_default();
    let mut cfgs = Vec::new();
    while let Some(at) = signature.rfind("#[cfg(") {
        cfgs.push(signature[at..].trim());
        signature = signature[..at].trim_end();
    }
    Some((kind, path, signature, cfgs))
}

/// The path of `runtime_path` (a runtime item, without `rt::`) in the crate: through the
/// re-export of it or of a module holding it, or, for an item the runtime's root re-exports
/// from a module the crate re-exports (`MetricsRequest`), through that module.
pub(crate) fn user_path(runtime_path: &str) -> Option<String> {
    let mut best: Option<(usize, String)> = None;
    for reexport in REEXPORTS.iter() {
        let rest = if runtime_path == reexport.runtime {
            Some("")
        } else {
            runtime_path
                .strip_prefix(reexport.runtime.as_str())
                .filter(|rest| rest.starts_with("::"))
        };
        if let Some(rest) = rest
            && best
                .as_ref()
                .is_none_or(|(length, _)| reexport.runtime.len() > *length)
        {
            best = Some((reexport.runtime.len(), format!("{}{rest}", reexport.path)));
        }
    }
    if let Some((_, path)) = best {
        return Some(path);
    }
    // A root alias: the one item of that name in a re-exported module.
    if runtime_path.contains("::") {
        return None;
    }
    let module = (*TYPE_MODULES.get(runtime_path)?)?;
    user_path(&format!("{module}::{runtime_path}"))
}

/// `text` as users read it: `rt::` paths as the crate's own (`rt::Error` is `Error`,
/// `rt::jiff::Timestamp` is `primitives::jiff::Timestamp`), std and core paths by their last
/// segment (`::core::result::Result` is `Result`). An `rt::` path the crate does not re-export
/// stays as it is, for a test to find.
pub(crate) fn spell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let at_boundary = !out
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':');
        let path_end = |s: &str| {
            s.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(s.len())
        };
        if at_boundary && let Some(after) = rest.strip_prefix("rt::") {
            let end = path_end(after);
            let path = after[..end].trim_end_matches(':');
            match user_path(path) {
                Some(user) => out.push_str(&user),
                None => {
                    out.push_str("rt::");
                    out.push_str(path);
                }
            }
            rest = &after[path.len()..];
            continue;
        }
        if at_boundary
            && let Some(after) = rest
                .strip_prefix("::std::")
                .or_else(|| rest.strip_prefix("::core::"))
        {
            let end = path_end(after);
            let path = after[..end].trim_end_matches(':');
            out.push_str(path.rsplit("::").next().unwrap_or(path));
            rest = &after[path.len()..];
            continue;
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        rest = chars.as_str();
    }
    out
}

/// Every runtime item under a re-export, at its path in the crate, with its signature and gate
/// (the re-export's, or the runtime item's own `cfg` when the re-export has none).
pub(crate) fn lines() -> Vec<Line> {
    lines_of(RUNTIME_LISTING)
}

/// [`lines`] of a runtime listing given as text (for tests: `cfg`s the runtime has none of).
fn lines_of(listing: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    for reexport in reexports() {
        for (kind, path, signature, cfgs) in listing.lines().filter_map(runtime_line) {
            if kind.starts_with('#') {
                continue;
            }
            let rest = if path == reexport.runtime {
                // The alias has its own line (`type ClientBuilder`), its methods the runtime's.
                if reexport.path == BUILDER_TYPE && kind != "impl" {
                    continue;
                }
                ""
            } else {
                match path.strip_prefix(reexport.runtime.as_str()) {
                    Some(rest) if rest.starts_with("::") => rest,
                    _ => continue,
                }
            };
            let features: Vec<&str> = cfgs
                .iter()
                .filter_map(|cfg| cfg.strip_prefix("#[cfg(feature = \"")?.strip_suffix("\")]"))
                .collect();
            let gate = match (reexport.gate(), features.as_slice()) {
                (Some(gate), _) => Some(gate),
                (None, [feature]) if cfgs.len() == 1 => Some(listing::feature(feature)),
                (None, _) => None,
            };
            let mut signature = signature.to_owned();
            if cfgs.len() != features.len() || (features.len() > 1) {
                signature = format!("{signature} {}", cfgs.join(" "));
            }
            lines.push(Line {
                kind: kind_name(kind),
                path: format!("{}{rest}", reexport.path),
                gate,
                signature,
            });
        }
    }
    lines
}

/// A runtime listing's kind as the crate's listing spells it (the same words).
fn kind_name(kind: &str) -> &'static str {
    const KINDS: &[&str] = &[
        "const", "enum", "field", "fn", "impl", "mod", "reexport", "static", "struct", "trait",
        "type", "union", "variant", "macro",
    ];
    KINDS
        .iter()
        .find(|known| **known == kind)
        .copied()
        .unwrap_or("item")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_paths_read_as_the_crates() {
        for (runtime, user) in [
            ("rt::Error", "Error"),
            ("Result<X, rt::Error>", "Result<X, Error>"),
            ("rt::jiff::Timestamp", "primitives::jiff::Timestamp"),
            ("rt::Decimal", "primitives::Decimal"),
            ("rt::mock::Expectation<X>", "mock::Expectation<X>"),
            ("rt::mock::metrics::BuildError", "mock::BuildError"),
            ("rt::pages::PageStream<T>", "client::PageStream<T>"),
            ("rt::MetricsRequest<O>", "requests::MetricsRequest<O>"),
            ("rt::requests::Window", "requests::Window"),
            ("rt::reqwest::Method", "client::Method"),
            ("rt::ClientBuilder<Client>", "ClientBuilder<Client>"),
            ("::core::result::Result<Self, E>", "Result<Self, E>"),
            ("impl ::std::fmt::Display", "impl Display"),
            ("&::std::string::String", "&String"),
            ("rt::NotReexported", "rt::NotReexported"),
            ("art::x", "art::x"),
            ("a::rt::Error", "a::rt::Error"),
            ("x::std::fmt::Display", "x::std::fmt::Display"),
            ("(rt::Error)", "(Error)"),
            ("rt::", "rt::"),
            ("::serde_json::Value", "::serde_json::Value"),
            // `_` is part of a name on either side of the path.
            ("x_rt::Error", "x_rt::Error"),
            ("rt::server_text::is_unprintable", "error::is_unprintable"),
            ("x_::std::fmt::Display", "x_::std::fmt::Display"),
            ("::std::string::String_", "String_"),
        ] {
            assert_eq!(spell(runtime), user, "{runtime}");
        }
    }

    #[test]
    fn reexported_runtime_items_come_with_their_signatures() {
        let lines = lines();
        let find = |kind: &str, path: &str| {
            lines
                .iter()
                .find(|line| line.kind == kind && line.path == path)
                .map(Line::text)
        };
        assert_eq!(
            find("fn", "Error::is_not_found").as_deref(),
            Some("(&self) -> bool")
        );
        assert_eq!(
            find("fn", "ClientBuilder::max_in_flight")
                .as_deref()
                .map(|s| s.split(" (on").next()),
            Some(Some("feature=client (mut self, n: usize) -> Self"))
        );
        assert!(find("struct", "mock::Expectation").is_some());
        assert!(find("fn", "requests::Window::last").is_some());
        assert!(find("enum", "metrics::Lookup").is_some());
        assert!(find("fn", "primitives::Decimal::checked_add").is_some());
        // Without a gate of its own, a re-export's item keeps the runtime's `cfg` as its gate.
        assert_eq!(
            find("fn", "requests::Watch::jitter")
                .as_deref()
                .map(|s| s.split(" (").next()),
            Some(Some("feature=client"))
        );
        assert!(
            find("fn", "requests::Watch::jitter").is_some_and(|s| !s.contains("#[cfg")),
            "{:?}",
            find("fn", "requests::Watch::jitter")
        );
        assert_eq!(
            find("fn", "requests::Window::last").map(|s| s.starts_with("(")),
            Some(true)
        );
        // Nothing of the runtime's that the crate does not re-export.
        assert!(find("struct", "RuntimeClient").is_none());
        assert!(lines.iter().all(|line| line.kind != "item"));
        // The builder alias has its own line in the crate; the runtime's impls of it are listed.
        assert!(find("struct", "ClientBuilder").is_none());
        assert!(find("impl", "ClientBuilder").is_some());
        // An item is listed once: under the re-export of it or of the module holding it, never
        // under another whose name its own merely starts with (`Decimal`, `DecimalError`).
        let mut seen = std::collections::BTreeSet::new();
        for line in &lines {
            assert!(
                seen.insert((line.kind, &line.path, &line.signature)),
                "listed twice: {line:?}"
            );
        }
        assert!(find("struct", "primitives::DecimalError").is_some());
    }

    #[test]
    fn a_root_alias_is_found_in_the_one_module_that_holds_its_name() {
        let modules = type_modules(
            "struct requests::Window\n\
             fn requests::Width (&self)\n\
             enum a::Twice\n\
             trait b::Twice\n\
             struct Rooted\n\
             type c::Alias = u8\n\
             union d::U\n\
             trait e::T\n",
        );
        assert_eq!(modules.get("Window"), Some(&Some("requests")));
        // Not a type; named in two modules; at the root: no module to name it by.
        assert_eq!(modules.get("Width"), None);
        assert_eq!(modules.get("Twice"), Some(&None));
        assert_eq!(modules.get("Rooted"), None);
        for (name, module) in [("Alias", "c"), ("U", "d"), ("T", "e")] {
            assert_eq!(modules.get(name), Some(&Some(module)), "{name}");
        }
        assert_eq!(modules.len(), 5, "{modules:?}");
    }

    #[test]
    fn a_runtime_items_cfgs_become_its_gate_or_stay_in_its_signature() {
        let listing = "# a comment line\n\
            fn Error::one (&self) #[cfg(feature = \"alpha\")]\n\
            fn Error::two (&self) #[cfg(feature = \"alpha\")] #[cfg(feature = \"beta\")]\n\
            fn Error::other (&self) #[cfg(unix)]\n\
            fn Error::mixed (&self) #[cfg(unix)] #[cfg(feature = \"alpha\")]\n\
            fn Error::plain (&self)\n\
            fn ErrorKind::near (&self)\n";
        let lines = lines_of(listing);
        let signature = |path: &str| {
            lines
                .iter()
                .find(|line| line.path == path)
                .map(|line| line.signature.as_str())
        };
        let gate = |path: &str| {
            lines
                .iter()
                .find(|line| line.path == path)
                .and_then(|line| line.gate.as_ref())
                .map(listing::gate_text)
        };
        // One feature is the item's gate; anything else stays as written, with no gate.
        assert_eq!(signature("Error::one"), Some("(&self)"));
        assert_eq!(gate("Error::one").as_deref(), Some("feature=alpha"));
        for path in ["Error::two", "Error::other", "Error::mixed", "Error::plain"] {
            assert_eq!(gate(path), None, "{path}");
        }
        assert_eq!(
            signature("Error::two"),
            Some("(&self) #[cfg(feature = \"beta\")] #[cfg(feature = \"alpha\")]")
        );
        assert_eq!(signature("Error::other"), Some("(&self) #[cfg(unix)]"));
        assert_eq!(
            signature("Error::mixed"),
            Some("(&self) #[cfg(feature = \"alpha\")] #[cfg(unix)]")
        );
        assert_eq!(signature("Error::plain"), Some("(&self)"));
        // Under a re-export only at a path boundary; comment lines are no items.
        assert_eq!(signature("ErrorKind::near"), None);
        assert_eq!(lines.len(), 5, "{lines:?}");
    }
}
