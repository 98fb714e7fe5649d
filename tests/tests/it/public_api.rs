//! The public-API listings. The runtime's (`codegen/runtime/api.txt`) is the listing of its
//! sources as they are now, so a rename or a signature change is a reviewed diff, and it sees
//! an item added, hidden, renamed or made private. The generated crate has one listing, the
//! generator's (`generated/src/gen/api.txt`, with gates and endpoints); read with the same
//! reader, the crate's sources (its hand-written root included) make nothing nameable that
//! listing leaves out.

use std::path::Path;

use baseten_codegen::public_api::list_public_api;
use baseten_tests::workspace_root;

/// The listing of the crate in `dir`, with `edit` applied to its files as they are read.
fn listing(dir: &Path, edit: &dyn Fn(&str, String) -> String) -> String {
    list_public_api("src/lib.rs", &mut |path| {
        std::fs::read_to_string(dir.join(path))
            .ok()
            .map(|text| edit(path, text))
    })
    .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
}

fn lines(listing: &str) -> Vec<&str> {
    listing
        .lines()
        .filter(|line| !line.starts_with('#'))
        .collect()
}

fn check_current(dir: &str) {
    let root = workspace_root().join(dir);
    let committed = std::fs::read_to_string(root.join("api.txt")).unwrap_or_default();
    let fresh = listing(&root, &|_, text| text);
    if committed.replace("\r\n", "\n") != fresh {
        let diff = similar::TextDiff::from_lines(committed.as_str(), fresh.as_str());
        panic!(
            "{dir}/api.txt is stale (run cargo xtask regen and review the diff):\n{}",
            diff.unified_diff().context_radius(1)
        );
    }
}

#[test]
fn the_runtime_listing_is_current() {
    check_current("codegen/runtime");
}

/// A line of either listing as `(kind, path)`, in the generator listing's spelling: the
/// `Client` at the crate's root (`client::Client::get_x` is `Client::get_x`), generic
/// parameters left out of paths (`mock::Builder<T>::build` is `mock::Builder::build`).
fn item_key(line: &str) -> Option<(String, String)> {
    let mut parts = line.splitn(3, ' ');
    let (kind, path) = (parts.next()?, parts.next()?);
    let mut path = path.to_owned();
    for (from, to) in [
        ("client::Client", "Client"),
        ("client::ClientBuilder", "ClientBuilder"),
    ] {
        if path == from || path.starts_with(&format!("{from}::")) {
            path = format!("{to}{}", &path[from.len()..]);
        }
    }
    while let Some(open) = path.find('<') {
        let close = path[open..]
            .find('>')
            .map_or(path.len(), |at| open + at + 1);
        path.replace_range(open..close, "");
    }
    Some((kind.to_owned(), path))
}

/// The generated crate's sources, as on disk, each with `edit` applied, against its one listing:
/// the lines the sources' listing has that the generator's does not cover. A trait impl is
/// covered by a line of its type naming the trait, a serde impl by the type's own line (whose
/// `serde:` part says when it needs `mock`).
fn uncovered_in_generated(edit: &dyn Fn(&str, String) -> String) -> Vec<String> {
    let dir = workspace_root().join("generated");
    let read = listing(&dir, edit);
    let generated = std::fs::read_to_string(dir.join("src/gen/api.txt")).unwrap();
    let listed: Vec<((String, String), &str)> = generated
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| Some((item_key(line)?, line)))
        .collect();
    let keys: std::collections::BTreeSet<&(String, String)> =
        listed.iter().map(|(key, _)| key).collect();
    lines(&read)
        .into_iter()
        .filter(|line| {
            let Some((kind, path)) = item_key(line) else {
                return true;
            };
            if kind == "impl" {
                let trait_path = line.splitn(3, ' ').nth(2).unwrap_or_default();
                let trait_path = trait_path.split(" for ").next().unwrap_or_default();
                let trait_name = trait_path
                    .rsplit("::")
                    .next()
                    .unwrap_or_default()
                    .split('<')
                    .next()
                    .unwrap_or_default();
                return !listed.iter().any(|((_, other), text)| {
                    *other == path
                        && (text.contains(trait_name)
                            || ["Serialize", "Deserialize"].contains(&trait_name))
                });
            }
            !keys.contains(&(kind, path))
        })
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_generated_crate_listing_names_everything_its_sources_make_nameable() {
    let uncovered = uncovered_in_generated(&|_, text| text);
    assert!(
        uncovered.is_empty(),
        "nameable in generated/ but not in generated/src/gen/api.txt:\n{}",
        uncovered.join("\n")
    );
    // And it sees what the hand-written root or an emitted module would add.
    let uncovered = uncovered_in_generated(&|path, text| match path {
        "src/lib.rs" => format!("{text}\npub fn added_by_hand() {{}}\n"),
        "src/gen/client.rs" => text.replacen(
            "pub type ClientBuilder",
            "pub const ADDED: u8 = 1;\npub type ClientBuilder",
            1,
        ),
        _ => text,
    });
    assert_eq!(
        uncovered,
        [
            "const client::ADDED u8 #[cfg(feature = \"client\")]",
            "fn added_by_hand ()"
        ]
    );
}

/// The generated crate has one API listing, the generator's: regen lists no other for it.
#[test]
fn the_generated_crate_has_one_listing() {
    let root = workspace_root().join("generated");
    let mut found = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.file_name().is_some_and(|name| name == "api.txt") {
                found.push(
                    path.strip_prefix(&root)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                );
            }
        }
    }
    assert_eq!(found, ["src/gen/api.txt"]);
}

/// Every edit at once to the runtime's sources (one listing, to stay fast), and the lines each
/// must add and remove against the committed listing.
#[test]
fn the_listing_follows_every_kind_of_change() {
    let root = workspace_root().join("codegen/runtime");
    let committed = std::fs::read_to_string(root.join("api.txt")).unwrap_or_default();
    type Edit = (&'static str, &'static str, &'static str);
    let cases: [(&str, Edit, &[&str], &[&str]); 5] = [
        (
            "a function added at the root",
            (
                "src/lib.rs",
                "pub use patch::Patch;",
                "pub use patch::Patch;\npub fn added(n: u8) -> bool { n > 0 }",
            ),
            &["fn added (n: u8) -> bool"],
            &[],
        ),
        (
            "a type hidden",
            (
                "src/requests.rs",
                "pub struct Window {",
                "#[doc(hidden)]\npub struct Window {",
            ),
            &[],
            &[
                "struct requests::Window",
                "fn requests::Window::last (span: Duration) -> Result<Self, WindowError>",
            ],
        ),
        (
            "a method renamed",
            (
                "src/decimal.rs",
                "pub fn checked_add(",
                "pub fn checked_plus(",
            ),
            &[
                "fn Decimal::checked_plus (self, other: Decimal) -> Option<Decimal> #[cfg(feature = \"decimal\")]",
            ],
            &[
                "fn Decimal::checked_add (self, other: Decimal) -> Option<Decimal> #[cfg(feature = \"decimal\")]",
            ],
        ),
        (
            "a module made private",
            ("src/lib.rs", "pub mod server_text;", "mod server_text;"),
            &[],
            &[
                "mod server_text",
                "fn server_text::escape_unprintable (text: &str) -> Cow<'_, str>",
            ],
        ),
        (
            "a field's type changed",
            (
                "src/metrics/view.rs",
                "pub start_ms: i64,",
                "pub start_ms: u64,",
            ),
            &["field metrics::Step::start_ms u64"],
            &["field metrics::Step::start_ms i64"],
        ),
    ];
    let changed = listing(&root, &|path, mut text| {
        for (what, (file, from, to), _, _) in &cases {
            if path == *file {
                assert!(text.contains(from), "{what}: {file} has no `{from}`");
                text = text.replacen(from, to, 1);
            }
        }
        text
    });
    let (before, after) = (lines(&committed), lines(&changed));
    let gained: Vec<&str> = after
        .iter()
        .copied()
        .filter(|l| !before.contains(l))
        .collect();
    let lost: Vec<&str> = before
        .iter()
        .copied()
        .filter(|l| !after.contains(l))
        .collect();
    for (what, _, added, removed) in cases {
        for line in added {
            assert!(
                gained.contains(line),
                "{what}: no `{line}` added; added {gained:#?}"
            );
        }
        for line in removed {
            assert!(
                lost.contains(line),
                "{what}: `{line}` not removed; removed {lost:#?}"
            );
        }
    }
}

/// The generated crate's listing shows what it re-exports from the runtime item by item, each
/// with its signature, under the paths users write: nothing under `rt::`, `runtime::` or
/// `baseten_runtime::`, and every runtime item of a re-exported module or type listed again
/// at its path in the crate.
#[test]
fn the_generated_listing_shows_reexported_items_by_the_paths_users_write() {
    let root = workspace_root();
    let generated = std::fs::read_to_string(root.join("generated/src/gen/api.txt")).unwrap();
    let runtime = std::fs::read_to_string(root.join("codegen/runtime/api.txt")).unwrap();
    let listed: std::collections::BTreeMap<(String, String), String> = lines(&generated)
        .into_iter()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ' ');
            let (kind, path) = (parts.next()?, parts.next()?);
            Some((
                (kind.to_owned(), path.to_owned()),
                parts.next().unwrap_or_default().to_owned(),
            ))
        })
        .collect();
    let unwritable: Vec<&String> = listed
        .values()
        .filter(|signature| {
            ["rt::", "runtime::", "baseten_runtime"].iter().any(|word| {
                signature.match_indices(word).any(|(at, _)| {
                    !signature[..at]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
            })
        })
        .collect();
    assert!(unwritable.is_empty(), "{unwritable:#?}");
    // The items the three programs used, each with its signature.
    for (kind, path) in [
        ("fn", "Error::is_not_found"),
        ("fn", "Error::code"),
        ("struct", "mock::Expectation"),
        ("fn", "mock::Expectation::respond"),
        ("enum", "mock::Reply"),
        ("fn", "requests::Window::last"),
        ("enum", "metrics::Lookup"),
        ("fn", "primitives::Decimal::checked_add"),
        ("fn", "ClientBuilder::max_in_flight"),
        ("fn", "ClientBuilder::endpoint_rate_limit"),
        ("fn", "spans::for_each_span"),
    ] {
        let signature = listed
            .get(&(kind.to_owned(), path.to_owned()))
            .unwrap_or_else(|| panic!("{kind} {path} is not listed"));
        assert!(
            signature.contains('(') || kind != "fn",
            "{kind} {path}: {signature}"
        );
    }
    // Every item of the runtime's re-exported modules, at the same path in the crate.
    let mut checked = 0;
    for line in lines(&runtime) {
        let mut parts = line.splitn(3, ' ');
        let (Some(kind), Some(path)) = (parts.next(), parts.next()) else {
            continue;
        };
        if ["requests::", "metrics::", "metric_names::", "spans::"]
            .iter()
            .any(|module| path.starts_with(module))
        {
            assert!(
                listed.contains_key(&(kind.to_owned(), path.to_owned())),
                "{kind} {path} is not listed"
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}
