//! The public-API snapshots (`codegen/runtime/api.txt`, `generated/api.txt`): each is the
//! listing of its crate's sources as they are now, so a rename or a signature change is a
//! reviewed diff; and the listing sees an item added, hidden, renamed or made private.

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

#[test]
fn the_generated_crate_listing_is_current() {
    check_current("generated");
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
