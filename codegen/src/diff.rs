//! The API change report: what a new generated crate changes for code written against the
//! old one, each change marked breaking or additive and naming the item it concerns.
//!
//! One engine: a diff of the two crates' API listings (`api.txt`, rendered by the surface from
//! the very tokens the emitters write, see `surface::listing`), whatever changed them, the
//! document or the generator. A line that goes, or whose signature changes, is breaking; one
//! that comes is additive (the generated types are `#[non_exhaustive]`; a new required field
//! shows as `new`'s changed signature). A signature is read in parts (`diff/signature.rs`): a gate
//! that loses a feature, or a serde impl that now needs `mock`, breaks only builds without it;
//! a change old code still compiles through (another endpoint, quoted wire text, arguments of
//! the same types in another order) is marked so, as no compiler can show it; a change only of
//! names a call does not spell (a renamed path placeholder) is no break at all.
//!
//! The IR is read only for what a line cannot tell: a type that disappears while a
//! structurally identical one appears is one rename (`diff/renames.rs`), and an operation the new
//! document still has but the generator left out says why. A side whose IR could not be built
//! is a note in the report, never a silent gap.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::Error;
use crate::ir::{Api, SkippedOperation};
use crate::surface::listing::{self, Listed, ListedSignature};
use crate::surface::write_only::Gate;

mod renames;
mod signature;

use self::renames::detect_renames;
use self::signature::{Enables, GateChange, Noticed, gate_change, noticed};

/// Whether a change can break code written against the old generated API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Impact {
    /// Existing code may stop compiling or behave differently.
    Breaking,
    /// Existing code keeps working.
    Additive,
}

/// One change.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Change {
    /// Breaking or additive.
    pub impact: Impact,
    /// What changed, in one line.
    pub description: String,
    /// The item it concerns, as a path in the generated crate: `models::Foo`,
    /// `Client::get_models`, `operations::GetModelsQuery` (see [`crate::probe`], whose
    /// functions are named after these).
    pub item: String,
    /// Whether code written against the old API still compiles against the new one: always
    /// for an additive change; for a breaking one only when the names and types stay and what
    /// they mean on the wire changes (a method sending another request, an enum variant
    /// standing for another string).
    pub compiles: bool,
    /// Whether old code breaks only in a build without some feature: `mock` (an impl that now
    /// needs it) or an API area (an item no longer compiled with it). The compile probe, which
    /// builds with the fake and every area, cannot see such a break.
    pub only_with_fewer_features: bool,
}

/// Every change between two generated APIs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeReport {
    /// Changes, breaking first, then by description.
    pub changes: Vec<Change>,
    /// What the report could not look at, in a line each (an IR that could not be built, so
    /// renames and left-out operations read as removals and additions).
    pub notes: Vec<String>,
}

impl ChangeReport {
    /// Whether any change is breaking.
    pub fn is_breaking(&self) -> bool {
        self.changes.iter().any(|c| c.impact == Impact::Breaking)
    }

    /// The items with a breaking change that code written against the old API cannot compile
    /// through.
    pub fn items_failing_to_compile(&self) -> BTreeSet<&str> {
        self.changes
            .iter()
            .filter(|c| c.impact == Impact::Breaking && !c.compiles)
            .map(|c| c.item.as_str())
            .collect()
    }

    /// The report with the package renamed from `old` to `new` (`regen --name` over a crate
    /// it wrote under another name) as a breaking change: every dependent names the package in
    /// its manifest and the library (`-` as `_`) in its `use` lines. No change when the names
    /// are equal.
    pub fn with_package_rename(mut self, old: &str, new: &str) -> ChangeReport {
        if old != new {
            self.changes.push(Change {
                impact: Impact::Breaking,
                description: format!(
                    "package renamed from `{old}` to `{new}`: dependents' manifests and their \
                     `use {}::` paths must follow",
                    old.replace('-', "_")
                ),
                item: PACKAGE_ITEM.to_owned(),
                compiles: false,
                only_with_fewer_features: false,
            });
            self.changes.sort();
        }
        self
    }

    /// [`Self::items_failing_to_compile`] for code built with `mock` and every API area on, as
    /// the compile probe is: without the breaks only a build with fewer features sees.
    pub fn items_failing_to_compile_with_every_feature(&self) -> BTreeSet<&str> {
        self.changes
            .iter()
            .filter(|c| c.impact == Impact::Breaking && !c.compiles && !c.only_with_fewer_features)
            .map(|c| c.item.as_str())
            .collect()
    }
}

impl fmt::Display for ChangeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for note in &self.notes {
            writeln!(f, "note: {note}")?;
        }
        if self.changes.is_empty() {
            return writeln!(f, "no changes to the generated API");
        }
        let breaking = self
            .changes
            .iter()
            .filter(|c| c.impact == Impact::Breaking)
            .count();
        writeln!(
            f,
            "{} changes to the generated API ({breaking} breaking, {} additive)",
            self.changes.len(),
            self.changes.len() - breaking
        )?;
        for change in &self.changes {
            let marker = match change.impact {
                Impact::Breaking => "breaking",
                Impact::Additive => "additive",
            };
            let compiles = if change.impact == Impact::Breaking && change.compiles {
                " (still compiles: the meaning changed)"
            } else {
                ""
            };
            writeln!(
                f,
                "  {marker}  {}{compiles}  [{}]",
                change.description, change.item
            )?;
        }
        Ok(())
    }
}

/// The item a package rename concerns: the crate itself, as its dependents' manifests name it.
pub const PACKAGE_ITEM: &str = "package";

/// Collects changes, one item at a time.
#[derive(Default)]
struct Changes {
    changes: BTreeSet<Change>,
}

impl Changes {
    fn push(&mut self, impact: Impact, item: &str, compiles: bool, description: String) {
        self.changes.insert(Change {
            impact,
            description,
            item: item.to_owned(),
            compiles: compiles || impact == Impact::Additive,
            only_with_fewer_features: false,
        });
    }

    /// A breaking change only code built without some feature sees (`mock`, an API area).
    fn breaks_with_fewer_features(&mut self, item: &str, description: String) {
        self.changes.insert(Change {
            impact: Impact::Breaking,
            description,
            item: item.to_owned(),
            compiles: false,
            only_with_fewer_features: true,
        });
    }

    /// A breaking change the compiler reports.
    fn breaks(&mut self, item: &str, description: String) {
        self.push(Impact::Breaking, item, false, description);
    }

    /// A breaking change old code still compiles through.
    fn breaks_silently(&mut self, item: &str, description: String) {
        self.push(Impact::Breaking, item, true, description);
    }

    fn adds(&mut self, item: &str, description: String) {
        self.push(Impact::Additive, item, true, description);
    }
}

/// One side of a comparison.
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    /// The crate's API listing as rendered (`api.txt`, [`crate::API_SNAPSHOT`]).
    pub listing: &'a str,
    /// The IR it was generated from, for what a line cannot tell; `Err` says why there is
    /// none (the report then says so in a note).
    pub ir: Result<&'a Api, &'a str>,
}

/// The API listing of the crate generated from `api`, headed as generated from `spec_path`.
pub fn listing_of(api: &Api, spec_path: &str) -> Result<String, Error> {
    let surface = crate::surface::build(api, None, crate::extensions::EXTENSIONS)?;
    Ok(listing::render(&surface.listing(), spec_path))
}

/// The report between the crates generated from two IRs: each listing rendered, then
/// [`changes`]. An IR the surface refuses is an error, not a report with a gap.
pub fn api_changes(old: &Api, new: &Api) -> Result<ChangeReport, Error> {
    // Each side's surface once: its listing, and the new side's features.
    let old_listing = listing_of(old, "old")?;
    let new_surface = crate::surface::build(new, None, crate::extensions::EXTENSIONS)?;
    let new_listing = listing::render(&new_surface.listing(), "new");
    Ok(changes_with(
        Side {
            listing: &old_listing,
            ir: Ok(old),
        },
        Side {
            listing: &new_listing,
            ir: Ok(new),
        },
        new_surface.features.enabled_by(),
    ))
}

/// The item a listing path belongs to, as the report names it (and [`crate::probe`] names
/// its functions): a type's fields, variants and methods are the type's (`models::Foo`), a
/// query struct's its own (`operations::FooQuery`), a `Client` method or an expectation of the
/// fake is one item; a test builder is `mock::Builder<Foo>`.
fn item_of(path: &str) -> &str {
    let segments = |count: usize| {
        path.match_indices("::")
            .nth(count - 1)
            .map_or(path, |(at, _)| &path[..at])
    };
    if path.starts_with("mock::Builder<") {
        return path.find(">::").map_or(path, |at| &path[..at + 1]);
    }
    match path.split("::").next() {
        Some("models" | "operations" | "client" | "Client") => segments(2),
        _ => path,
    }
}

/// `text` with each whole word `renames` has a key for replaced by its value.
fn apply_renames(text: &str, renames: &BTreeMap<String, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(renames.get(word.as_str()).unwrap_or(word));
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The lines of one listing by item: `KIND PATH` → gate and signature.
type Items<'s> = BTreeMap<&'s str, BTreeMap<String, Listed>>;

fn by_item(lines: &BTreeMap<String, Listed>) -> Items<'_> {
    let mut items: Items<'_> = BTreeMap::new();
    for (key, signature) in lines {
        let path = key.split_once(' ').map_or(key.as_str(), |(_, path)| path);
        items
            .entry(item_of(path))
            .or_default()
            .insert(key.clone(), signature.clone());
    }
    items
}

/// An item's own line (its path is the item's), else how many lines it has: how a removed or
/// added item is shown.
fn head(item: &str, lines: &BTreeMap<String, Listed>) -> String {
    let own = lines
        .iter()
        .find(|(key, _)| key.ends_with(&format!(" {item}")) && !key.starts_with("impl "))
        .map(|(key, listed)| (key, listed.to_string()));
    match own {
        Some((key, signature)) if signature.is_empty() => key.clone(),
        Some((key, signature)) => format!("{key} {signature}"),
        None => format!("{item} ({} lines)", lines.len()),
    }
}

/// Compares two listings, line by line and item by item (see the module's documentation).
pub fn changes(old: Side<'_>, new: Side<'_>) -> ChangeReport {
    // Without the new IR a gate reads as written: no feature turns on another.
    let enables: Enables = match new.ir {
        Ok(api) => crate::surface::features::Features::of(api).enabled_by(),
        Err(_) => Enables::new(),
    };
    changes_with(old, new, enables)
}

/// [`changes`] with what each feature of the new crate turns on already known.
fn changes_with(old: Side<'_>, new: Side<'_>, enables: Enables) -> ChangeReport {
    let (old_lines, new_lines) = (listing::parse(old.listing), listing::parse(new.listing));
    let (old_items, new_items) = (by_item(&old_lines), by_item(&new_lines));
    let mut notes = Vec::new();
    for (which, side) in [("old", &old), ("new", &new)] {
        if let Err(reason) = side.ir {
            notes.push(format!(
                "no IR for the {which} side ({reason}): a renamed type reads as one removed and \
                 one added, an operation left out as one removed"
            ));
        }
    }
    let renames = match (old.ir, new.ir) {
        (Ok(old), Ok(new)) => detect_renames(old, new),
        _ => BTreeMap::new(),
    };
    let left_out: BTreeMap<String, &SkippedOperation> = match new.ir {
        Ok(api) => api
            .skipped
            .iter()
            .map(|skipped| (format!("Client::{}", skipped.name), skipped))
            .collect(),
        Err(_) => BTreeMap::new(),
    };
    let mut changes = Changes::default();
    let mut renamed_to = BTreeSet::new();
    for (item, lines) in &old_items {
        let Some(new_lines) = new_items.get(item) else {
            let renamed = apply_renames(item, &renames);
            if renamed != *item && new_items.contains_key(renamed.as_str()) {
                changes.breaks(
                    item,
                    format!("{item} renamed to {renamed} (identical structure)"),
                );
                renamed_to.insert(renamed);
            } else if let Some(skipped) = left_out.get(*item) {
                changes.breaks(
                    item,
                    format!(
                        "operation {} left out ({} {}): {} at {}",
                        skipped.name, skipped.method, skipped.path, skipped.reason, skipped.pointer
                    ),
                );
            } else {
                changes.breaks(item, format!("removed: {}", head(item, lines)));
            }
            continue;
        };
        let mut now_own = BTreeSet::new();
        for (key, old_signature) in lines {
            match new_lines.get(key) {
                None if let Some(own) = reexport_now_own(key, old_signature, new_lines) => {
                    changes.adds(
                        item,
                        format!(
                            "{own} {}: now defined by the crate (was the runtime's `{}`, \
                             re-exported); the same path and type",
                            new_lines[&own], old_signature
                        ),
                    );
                    now_own.insert(own);
                }
                None => changes.breaks(item, format!("removed: {key} {old_signature}")),
                Some(new_signature) => compare_line(
                    item,
                    key,
                    [old_signature, new_signature],
                    &renames,
                    &enables,
                    &mut changes,
                ),
            }
        }
        for (key, new_signature) in new_lines {
            if !lines.contains_key(key) && !now_own.contains(key) {
                changes.adds(item, format!("added: {key} {new_signature}"));
            }
        }
    }
    for (item, lines) in &new_items {
        if !old_items.contains_key(item) && !renamed_to.contains(*item) {
            changes.adds(item, format!("added: {}", head(item, lines)));
        }
    }
    ChangeReport {
        changes: changes.changes.into_iter().collect(),
        notes,
    }
}

/// The `const` line that replaced a re-exported runtime constant at the same path, under the
/// same gate (`reexport client::API_KEY_ENV` → `const client::API_KEY_ENV`): code naming the path
/// still compiles. Only a `&str` const counts, the type every re-exported runtime string had.
fn reexport_now_own(
    key: &str,
    old: &Listed,
    new_lines: &BTreeMap<String, Listed>,
) -> Option<String> {
    let path = key.strip_prefix("reexport ")?;
    let own = format!("const {path}");
    let new = new_lines.get(&own)?;
    let runtime_const = old.signature.starts_with("rt::");
    (old.gate == new.gate && runtime_const && new.signature.starts_with("&str = ")).then_some(own)
}

/// One line both listings have, by its signature's parts.
fn compare_line(
    item: &str,
    key: &str,
    [old, new]: [&Listed; 2],
    renames: &BTreeMap<String, String>,
    enables: &Enables,
    changes: &mut Changes,
) {
    if old == new {
        return;
    }
    let (before, after) = (ListedSignature::of(old), ListedSignature::of(new));
    if before.core != after.core {
        let shown = format!("{key}: `{}` is now `{}`", before.core, after.core);
        // A type's associated const (a union's `TAG_PROPERTY`) is a value code can match at
        // compile time: another value is another API.
        let associated_const = key.starts_with("const models::");
        match noticed(before.core, after.core) {
            _ if associated_const => changes.breaks(item, shown),
            Noticed::Nothing => changes.adds(
                item,
                format!("{shown} (names only: the same call and request)"),
            ),
            Noticed::Meaning => changes.breaks_silently(item, shown),
            Noticed::Compiler if apply_renames(before.core, renames) == after.core => changes
                .breaks(
                    item,
                    format!(
                        "{key}: names renamed types: `{}` is now `{}`",
                        before.core, after.core
                    ),
                ),
            Noticed::Compiler => changes.breaks(item, shown),
        }
    }
    match gate_change(before.gate, after.gate, enables) {
        Some(GateChange::Widened(how)) => changes.adds(item, format!("{key}: {how}")),
        Some(GateChange::Narrowed(was, now)) => changes
            .breaks_with_fewer_features(item, format!("{key}: compiled with {now} (was {was})")),
        None => {}
    }
    for (trait_name, was, now) in [
        ("Serialize", before.serde.serialize, after.serde.serialize),
        (
            "Deserialize",
            before.serde.deserialize,
            after.serde.deserialize,
        ),
    ] {
        match (was, now) {
            (Gate::Always, Gate::Mock) => changes.breaks_with_fewer_features(
                item,
                format!("{key}: implements {trait_name} only with the mock feature"),
            ),
            (Gate::Mock, Gate::Always) => changes.adds(
                item,
                format!("{key}: implements {trait_name} in every build"),
            ),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
