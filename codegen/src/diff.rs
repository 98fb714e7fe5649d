//! The API change report: what a new document changes in the generated Rust API, each change
//! marked breaking or additive for code that uses the generated types and methods, and naming
//! the item it concerns.
//!
//! Works on the IR, so it speaks of Rust names, and judges each item as the generated code
//! exposes it (what [`crate::probe`] exercises): a struct by its fields' stored types (`Box`,
//! `Option` and `Patch` as emitted), its `new` arguments, setters, clearers and `Default`; an
//! enum or union by its variant names, payloads, fallback and tag property; a method by its
//! argument and output types. A breaking change that code written against the old crate still
//! compiles through (the same names and types, another meaning on the wire) is marked so: no
//! compiler can show it. A type that disappears while a structurally identical one appears
//! (references to other renamed types included) is reported as a rename.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::ir::{
    AliasDef, Api, BodyKind, EnumDef, Field, IntEnumDef, Operation, Param, ResponseKind,
    SkippedOperation, StructDef, TypeDef, TypeRef, UnionDef, UntaggedDef,
};
use crate::probe::{fake_item, method_item, query_item, type_item};
use crate::surface::builders::{self, FieldSurface, Storage};
use crate::surface::features::{FeatureGate, Features};
use crate::surface::listing;
use crate::surface::write_only::{Gate, SerdeImpls, directions, write_only_types};
use crate::tokens::type_tokens;

mod renames;

use self::renames::{detect_renames, kind, rename, render};

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

/// Collects changes, one item at a time.
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

    /// Breaking first, then by description (the set's order).
    fn into_report(self) -> ChangeReport {
        ChangeReport {
            changes: self.changes.into_iter().collect(),
        }
    }
}

/// What the emitters decide for one side from the whole API.
struct Side {
    write_only: BTreeSet<String>,
    serde: BTreeMap<String, SerdeImpls>,
    features: Features,
}

impl Side {
    fn of(api: &Api) -> Side {
        let serialized = crate::extensions::serialized_types(api, crate::extensions::EXTENSIONS);
        Side {
            write_only: write_only_types(api),
            serde: directions(api, &serialized).all_serde_impls(api),
            features: Features::of(api),
        }
    }

    fn serde_impls(&self, name: &str) -> SerdeImpls {
        self.serde.get(name).copied().unwrap_or(SerdeImpls::BOTH)
    }
}

/// Old names → new names, for rendering the old side in the new side's names; empty for the
/// new side.
type Renames = BTreeMap<String, String>;

/// Compares two API snapshots (`api.txt`, see [`crate::API_SNAPSHOT`]) line by line: every item
/// kind the surface lists, whatever changed it, the document or the generator.
///
/// An item that goes, or whose signature changes, is breaking; one whose signature changes
/// only in its quoted wire text or its `[METHOD /path]` is breaking with old code still
/// compiling (the meaning changed); a new item is additive (the generated types are
/// `#[non_exhaustive]`, so a new field or variant breaks no one; a new required field shows as
/// the changed signature of `new`).
pub fn snapshot_changes(old: &str, new: &str) -> ChangeReport {
    let (old, new) = (listing::parse(old), listing::parse(new));
    let mut changes = Changes {
        changes: BTreeSet::new(),
    };
    let item_of = |key: &str| key.split_once(' ').map_or(key, |(_, path)| path).to_owned();
    for (key, old_signature) in &old {
        let item = item_of(key);
        match new.get(key) {
            None => changes.breaks(&item, format!("removed: {key} {old_signature}")),
            Some(new_signature) if new_signature == old_signature => {}
            Some(new_signature) if let Some(gates) = gate_change(old_signature, new_signature) => {
                match gates {
                    GateChange::Widened(how) => changes.adds(&item, format!("{key}: {how}")),
                    GateChange::Narrowed(old, new) => {
                        changes.breaks(&item, format!("{key}: compiled with {new} (was {old})"))
                    }
                }
            }
            Some(new_signature) if same_request(old_signature, new_signature) => changes.adds(
                &item,
                format!(
                    "{key}: placeholders renamed, same request: `{old_signature}` is now \
                     `{new_signature}`"
                ),
            ),
            Some(new_signature) => {
                let description = format!("{key}: `{old_signature}` is now `{new_signature}`");
                if without_meaning(old_signature) == without_meaning(new_signature) {
                    changes.breaks_silently(&item, description);
                } else {
                    changes.breaks(&item, description);
                }
            }
        }
    }
    for (key, new_signature) in &new {
        if !old.contains_key(key) {
            changes.adds(&item_of(key), format!("added: {key} {new_signature}"));
        }
    }
    changes.into_report()
}

/// How an item's feature gate (the listing's `feature=a|b` before its signature) changed.
#[derive(Debug, PartialEq, Eq)]
enum GateChange {
    /// Every build that had it still has it: which builds now have it too.
    Widened(String),
    /// A build that had it may not: the old and new gates as the listing writes them.
    Narrowed(String, String),
}

/// A signature's gate (`None`: every build has the item) and the rest.
fn split_gate(signature: &str) -> (Option<BTreeSet<&str>>, &str) {
    match signature.strip_prefix("feature=") {
        Some(rest) => {
            let (gate, rest) = rest.split_once(' ').unwrap_or((rest, ""));
            (Some(gate.split('|').collect()), rest)
        }
        None => (None, signature),
    }
}

/// The gate change between two signatures that differ in their gate alone.
fn gate_change(old: &str, new: &str) -> Option<GateChange> {
    let (old_gate, old_rest) = split_gate(old);
    let (new_gate, new_rest) = split_gate(new);
    if old_rest != new_rest {
        return None;
    }
    feature_set_change(old_gate.as_ref(), new_gate.as_ref())
}

/// How a gate changed, from the features any one of which compiled the item (`None`: every
/// build has it); `None` when it did not.
fn feature_set_change(
    old: Option<&BTreeSet<&str>>,
    new: Option<&BTreeSet<&str>>,
) -> Option<GateChange> {
    let describe = |gate: Option<&BTreeSet<&str>>| match gate {
        None => "every build".to_owned(),
        Some(features) => format!(
            "feature {}",
            features.iter().copied().collect::<Vec<_>>().join(" or ")
        ),
    };
    match (old, new) {
        _ if old == new => None,
        (Some(_), None) => Some(GateChange::Widened("now in every build".to_owned())),
        (Some(old_features), Some(new_features)) if old_features.is_subset(new_features) => {
            let added: Vec<&str> = new_features.difference(old_features).copied().collect();
            Some(GateChange::Widened(format!(
                "also compiled with feature {}",
                added.join(" or ")
            )))
        }
        _ => Some(GateChange::Narrowed(describe(old), describe(new))),
    }
}

/// An item's feature gate, old and new, as a change: breaking when a feature that compiled it
/// no longer does.
fn compare_gates(
    item: &str,
    what: &str,
    old: &FeatureGate,
    new: &FeatureGate,
    changes: &mut Changes,
) {
    let (old, new): (BTreeSet<&str>, BTreeSet<&str>) = (
        old.features().into_iter().collect(),
        new.features().into_iter().collect(),
    );
    match feature_set_change(Some(&old), Some(&new)) {
        Some(GateChange::Widened(how)) => changes.adds(item, format!("{what}: {how}")),
        Some(GateChange::Narrowed(old, new)) => changes
            .breaks_with_fewer_features(item, format!("{what}: compiled with {new} (was {old})")),
        None => {}
    }
}

/// Whether two signatures differ only in what renaming a path placeholder changes: the
/// placeholders' names in the endpoint (`[GET /v1/models/{id}]` → `{model_id}`) and argument
/// names that took the new names in place. Calls stay the same (arguments are positional) and
/// so does the request; an argument name that moved to another position (a reorder) does not
/// count.
fn same_request(old: &str, new: &str) -> bool {
    let (old_arguments, old_rest) = split_arguments(old);
    let (new_arguments, new_rest) = split_arguments(new);
    if blank_endpoint(&old_rest) != blank_endpoint(&new_rest)
        || old_arguments.len() != new_arguments.len()
    {
        return false;
    }
    let name_of = |argument: &str| argument.split_once(": ").map(|(name, _)| name.to_owned());
    let old_names: Vec<Option<String>> = old_arguments.iter().map(|a| name_of(a)).collect();
    let new_names: Vec<Option<String>> = new_arguments.iter().map(|a| name_of(a)).collect();
    old_arguments
        .iter()
        .zip(&new_arguments)
        .enumerate()
        .all(|(i, (before, after))| {
            let type_of = |argument: &str| {
                argument
                    .split_once(": ")
                    .map_or(argument.to_owned(), |(_, ty)| ty.to_owned())
            };
            type_of(before) == type_of(after)
                && (old_names[i] == new_names[i]
                    || (!new_names.contains(&old_names[i]) && !old_names.contains(&new_names[i])))
        })
}

/// A signature's first parenthesised list split at its top-level commas, and the signature
/// with the list's contents taken out.
fn split_arguments(signature: &str) -> (Vec<String>, String) {
    let Some(open) = signature.find('(') else {
        return (Vec::new(), signature.to_owned());
    };
    let mut depth = 0usize;
    let mut arguments = Vec::new();
    let mut current = String::new();
    for (at, c) in signature[open + 1..].char_indices() {
        match c {
            '(' | '<' | '[' => depth += 1,
            ')' if depth == 0 => {
                if !current.trim().is_empty() {
                    arguments.push(current.trim().to_owned());
                }
                let rest = format!(
                    "{}(){}",
                    &signature[..open],
                    &signature[open + 1 + at + 1..]
                );
                return (arguments, rest);
            }
            ')' | '>' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                arguments.push(current.trim().to_owned());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    (Vec::new(), signature.to_owned())
}

/// A signature with the placeholders of its endpoint (` [METHOD /path]`) written `{}`.
fn blank_endpoint(signature: &str) -> String {
    match signature.rfind(" [") {
        Some(at) if signature.ends_with(']') => format!(
            "{} [{}",
            &signature[..at],
            crate::names::template_shape(&signature[at + 2..])
        ),
        _ => signature.to_owned(),
    }
}

/// A signature without what only changes meaning, not code: quoted text and the endpoint.
fn without_meaning(signature: &str) -> String {
    let mut out = String::with_capacity(signature.len());
    let mut quoted = false;
    let mut escaped = false;
    for c in signature.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            _ if quoted => {}
            c => out.push(c),
        }
    }
    match out.rfind(" [") {
        Some(at) if out.ends_with(']') => out[..at].to_owned(),
        _ => out,
    }
}

/// Compares two APIs.
pub fn api_changes(old: &Api, new: &Api) -> ChangeReport {
    let renames = detect_renames(old, new);
    let none = Renames::new();
    let old_side = Side::of(old);
    let new_side = Side::of(new);
    let mut changes = Changes {
        changes: BTreeSet::new(),
    };

    if old.base_url != new.base_url {
        // Every request goes elsewhere, and no signature says so.
        changes.breaks_silently(
            "DEFAULT_BASE_URL",
            format!(
                "the default base URL is {:?} (was {:?})",
                new.base_url.as_deref().unwrap_or_default(),
                old.base_url.as_deref().unwrap_or_default()
            ),
        );
    }

    // Types.
    for (name, old_def) in &old.types {
        let item = type_item(name);
        match (new.types.get(name), renames.get(name)) {
            (_, Some(renamed)) => changes.breaks(
                &item,
                format!("type {name} renamed to {renamed} (identical structure)"),
            ),
            (None, None) => changes.breaks(&item, format!("type {name} removed")),
            (Some(new_def), None) => {
                let pair = Pair {
                    old: &old_side,
                    new: &new_side,
                    renames: &renames,
                    none: &none,
                };
                pair.compare_types(&item, name, old_def, new_def, &mut changes);
            }
        }
    }
    let renamed_to: BTreeSet<&String> = renames.values().collect();
    for name in new.types.keys() {
        if !old.types.contains_key(name) && !renamed_to.contains(name) {
            changes.adds(&type_item(name), format!("type {name} added"));
        }
    }

    // Operations.
    let old_ops: BTreeMap<&str, &Operation> = old
        .operations
        .iter()
        .map(|o| (o.name.as_str(), o))
        .collect();
    let new_ops: BTreeMap<&str, &Operation> = new
        .operations
        .iter()
        .map(|o| (o.name.as_str(), o))
        .collect();
    let new_skipped: BTreeMap<&str, &SkippedOperation> =
        new.skipped.iter().map(|o| (o.name.as_str(), o)).collect();
    for (name, old_op) in &old_ops {
        let item = method_item(name);
        let Some(new_op) = new_ops.get(name) else {
            // Left out because the new document has something the generator cannot represent:
            // as breaking as a removal, but the reader should know it is still in the document.
            if let Some(skipped) = new_skipped.get(name) {
                changes.breaks(
                    &item,
                    format!(
                        "operation {name} left out ({} {}): {} at {}",
                        skipped.method, skipped.path, skipped.reason, skipped.pointer
                    ),
                );
                continue;
            }
            changes.breaks(
                &item,
                format!(
                    "operation {name} removed ({} {})",
                    old_op.method, old_op.path
                ),
            );
            continue;
        };
        compare_operations(&item, name, old_op, new_op, &renames, &mut changes);
    }
    for (name, new_op) in &new_ops {
        if !old_ops.contains_key(name) {
            changes.adds(
                &method_item(name),
                format!("operation {name} added ({} {})", new_op.method, new_op.path),
            );
        }
    }

    // Features: an item a build had that it may no longer have breaks that build.
    let (old_features, new_features) = (&old_side.features, &new_side.features);
    for name in old
        .types
        .keys()
        .filter(|name| new.types.contains_key(*name))
    {
        compare_gates(
            &type_item(name),
            &format!("type {name}"),
            &old_features.type_gate(name),
            &new_features.type_gate(name),
            &mut changes,
        );
    }
    for (name, old_op) in &old_ops {
        if let Some(new_op) = new_ops.get(name) {
            compare_gates(
                &method_item(name),
                &format!("operation {name}"),
                &Features::operation_gate(old_op),
                &Features::operation_gate(new_op),
                &mut changes,
            );
        }
    }

    // Query structs: each belongs to one operation, but is an item of its own.
    let queries = |api: &'_ Api| -> BTreeMap<String, Vec<Param>> {
        api.operations
            .iter()
            .filter_map(|op| Some((op.query_type.clone()?, op.optional_query.clone())))
            .collect()
    };
    let (old_queries, new_queries) = (queries(old), queries(new));
    for (name, old_params) in &old_queries {
        let item = query_item(name);
        match new_queries.get(name) {
            None => changes.breaks(&item, format!("query struct {name} removed")),
            Some(new_params) => {
                compare_query(&item, name, old_params, new_params, &renames, &mut changes)
            }
        }
    }
    for name in new_queries.keys() {
        if !old_queries.contains_key(name) {
            changes.adds(&query_item(name), format!("query struct {name} added"));
        }
    }

    // What the surface adds beside the IR's items: entry points, streams, the fake.
    if let (Ok(old_surface), Ok(new_surface)) = (
        crate::surface::build(old, None),
        crate::surface::build(new, None),
    ) {
        compare_extras(&extras(&old_surface), &extras(&new_surface), &mut changes);
    }

    changes.into_report()
}

/// One `Client` method or fake expectation the surface adds: what it is, the endpoint it
/// reaches, and what old code relies on (its arguments and types).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Extra {
    what: &'static str,
    endpoint: String,
    shape: String,
}

/// The surface's entry points, streams and fake expectations, by item.
fn extras(surface: &crate::surface::Surface<'_>) -> BTreeMap<String, Extra> {
    let endpoint = |op: &Operation| format!("{} {}", op.method, op.path);
    let ids = |op: &Operation| op.path_params.len();
    let mut extras = BTreeMap::new();
    for added in surface.contributions.iter().flat_map(|c| c.methods()) {
        extras.insert(
            method_item(added.name),
            Extra {
                what: added.what,
                endpoint: endpoint(added.operation),
                shape: added.shape,
            },
        );
    }
    for stream in &surface.streams {
        let op = stream.operation;
        let query = op.query_type.as_deref().unwrap_or_default();
        for (name, item) in [
            (&stream.pages, listing::output(op)),
            (&stream.items, render(&stream.pagination.item)),
        ] {
            extras.insert(
                method_item(name),
                Extra {
                    what: "stream",
                    endpoint: endpoint(op),
                    shape: format!("{} ids and {query}, items {item}", ids(op)),
                },
            );
        }
    }
    for op in &surface.operations {
        extras.insert(
            fake_item(&op.expectation),
            Extra {
                what: "fake expectation",
                endpoint: endpoint(op.operation),
                shape: format!(
                    "{} ids, answers {}",
                    ids(op.operation),
                    answer(op.operation)
                ),
            },
        );
    }
    for added in surface.contributions.iter().flat_map(|c| c.expectations()) {
        let shape = format!(
            "{} ids, answers {}",
            ids(added.operation),
            render(&added.answer)
        );
        extras.insert(
            fake_item(added.name),
            Extra {
                what: "fake expectation",
                endpoint: endpoint(added.operation),
                shape,
            },
        );
    }
    extras
}

/// What the fake's expectation for `operation` answers with.
fn answer(operation: &Operation) -> String {
    match &operation.response {
        ResponseKind::Json(ty) => render(ty),
        _ => "()".to_owned(),
    }
}

fn compare_extras(
    old: &BTreeMap<String, Extra>,
    new: &BTreeMap<String, Extra>,
    changes: &mut Changes,
) {
    for (item, before) in old {
        let what = before.what;
        match new.get(item) {
            None => changes.breaks(item, format!("{what} {item} removed ({})", before.endpoint)),
            Some(after) if after.shape != before.shape => changes.breaks(
                item,
                format!("{what} {item} takes {} (was {})", after.shape, before.shape),
            ),
            // A renamed placeholder reaches the same endpoint.
            Some(after)
                if crate::names::template_shape(&after.endpoint)
                    != crate::names::template_shape(&before.endpoint) =>
            {
                changes.breaks_silently(
                    item,
                    format!(
                        "{what} {item} now reaches {} (was {})",
                        after.endpoint, before.endpoint
                    ),
                )
            }
            Some(_) => {}
        }
    }
    for (item, after) in new {
        if !old.contains_key(item) {
            changes.adds(
                item,
                format!("{} {item} added ({})", after.what, after.endpoint),
            );
        }
    }
}

/// The two sides of one comparison.
struct Pair<'a> {
    old: &'a Side,
    new: &'a Side,
    renames: &'a Renames,
    none: &'a Renames,
}

impl Pair<'_> {
    fn compare_types(
        &self,
        item: &str,
        name: &str,
        old: &TypeDef,
        new: &TypeDef,
        changes: &mut Changes,
    ) {
        if !matches!(
            (old, new),
            (TypeDef::Enum(_), _)
                | (_, TypeDef::Enum(_))
                | (TypeDef::IntEnum(_), _)
                | (_, TypeDef::IntEnum(_))
                | (TypeDef::Alias(_), _)
                | (_, TypeDef::Alias(_))
        ) {
            let before = self.old.serde_impls(name);
            let after = self.new.serde_impls(name);
            for (trait_name, was, now) in [
                ("Serialize", before.serialize, after.serialize),
                ("Deserialize", before.deserialize, after.deserialize),
            ] {
                match (was, now) {
                    (Gate::Always, Gate::Mock) => changes.breaks_with_fewer_features(
                        item,
                        format!("type {name} implements {trait_name} only with the mock feature"),
                    ),
                    (Gate::Mock, Gate::Always) => {
                        changes.adds(item, format!("type {name} implements {trait_name}"))
                    }
                    _ => {}
                }
            }
        }
        match (old, new) {
            (TypeDef::Struct(old), TypeDef::Struct(new)) => {
                self.compare_structs(item, name, old, new, changes);
            }
            (TypeDef::Enum(old), TypeDef::Enum(new)) => {
                compare_enums(item, name, &old.into(), &new.into(), changes)
            }
            (TypeDef::Union(old), TypeDef::Union(new)) => {
                compare_unions(item, name, old, new, self.renames, changes);
            }
            (TypeDef::Alias(old), TypeDef::Alias(new)) => {
                compare_aliases(item, name, old, new, self.renames, changes);
            }
            (TypeDef::IntEnum(old), TypeDef::IntEnum(new)) => {
                compare_enums(item, name, &old.into(), &new.into(), changes)
            }
            (TypeDef::Untagged(old), TypeDef::Untagged(new)) => {
                compare_untagged(item, name, old, new, self.renames, changes);
            }
            _ => changes.breaks(
                item,
                format!("type {name} changed kind ({} to {})", kind(old), kind(new)),
            ),
        }
    }

    fn compare_structs(
        &self,
        item: &str,
        name: &str,
        old: &StructDef,
        new: &StructDef,
        changes: &mut Changes,
    ) {
        let old_write_only = self.old.write_only.contains(name);
        let new_write_only = self.new.write_only.contains(name);
        // Each side resolved as its crate has it: storage and method names decided there.
        let old_struct = builders::resolve_struct(old, old_write_only);
        let new_struct = builders::resolve_struct(new, new_write_only);
        let stored = |field: &FieldSurface<'_>, renames: &Renames| {
            stored_type(field.field, field.storage, renames)
        };
        let mut matched: BTreeSet<&str> = BTreeSet::new();
        for (i, field) in old.fields.iter().enumerate() {
            let by_name = new
                .fields
                .iter()
                .position(|f| f.rust_name == field.rust_name);
            let Some(j) = by_name else {
                match new.fields.iter().find(|f| f.wire_name == field.wire_name) {
                    Some(renamed) => {
                        matched.insert(&renamed.rust_name);
                        changes.breaks(
                            item,
                            format!(
                                "field {name}.{} renamed to {name}.{}",
                                field.rust_name, renamed.rust_name
                            ),
                        );
                    }
                    None => {
                        changes.breaks(item, format!("field {name}.{} removed", field.rust_name))
                    }
                }
                continue;
            };
            let new_field = &new.fields[j];
            matched.insert(&new_field.rust_name);
            let (old_resolved, new_resolved) = (&old_struct.fields[i], &new_struct.fields[j]);
            let old_ty = stored(old_resolved, self.renames);
            let new_ty = stored(new_resolved, self.none);
            if old_ty != new_ty {
                changes.breaks(
                    item,
                    format!(
                        "field {name}.{} changed from {} to {new_ty}",
                        field.rust_name,
                        stored(old_resolved, self.none)
                    ),
                );
            } else if stored(old_resolved, self.none) != new_ty {
                changes.breaks(
                    item,
                    format!(
                        "field {name}.{} has renamed type {new_ty} (was {})",
                        field.rust_name,
                        stored(old_resolved, self.none)
                    ),
                );
            }
            if field.wire_name != new_field.wire_name {
                changes.breaks_silently(
                    item,
                    format!(
                        "field {name}.{} now holds property {:?} (was {:?})",
                        field.rust_name, new_field.wire_name, field.wire_name
                    ),
                );
            }
            // A setter or clearer that moved to another name (the new name of a field that
            // is still optional; one that became required is `new`'s business).
            if let (Some(before), Some(after)) = (&old_resolved.setter, &new_resolved.setter)
                && before != after
            {
                changes.breaks(
                    item,
                    format!("setter {name}::{before} renamed to {name}::{after}"),
                );
            }
            if let Some(before) = &old_resolved.clearer {
                match &new_resolved.clearer {
                    None => changes.breaks(item, format!("clearer {name}::{before} removed")),
                    Some(after) if after != before => changes.breaks(
                        item,
                        format!("clearer {name}::{before} renamed to {name}::{after}"),
                    ),
                    Some(_) => {}
                }
            }
        }
        for field in &new.fields {
            if old.fields.iter().all(|f| f.rust_name != field.rust_name)
                && !matched.contains(field.rust_name.as_str())
            {
                let role = if field.required {
                    "required: an argument of new"
                } else {
                    "optional"
                };
                changes.adds(
                    item,
                    format!("field {name}.{} added ({role})", field.rust_name),
                );
            }
        }
        let old_new = constructor(old, self.renames);
        let new_new = constructor(new, self.none);
        let types = |arguments: &[(String, String)]| -> Vec<String> {
            arguments.iter().map(|(_, ty)| ty.clone()).collect()
        };
        let names = |arguments: &[(String, String)]| -> Vec<String> {
            arguments.iter().map(|(name, _)| name.clone()).collect()
        };
        let shown = |arguments: &[(String, String)]| {
            arguments
                .iter()
                .map(|(name, ty)| format!("{name}: {ty}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if types(&old_new) != types(&new_new) {
            changes.breaks(
                item,
                format!(
                    "{name}::new arguments changed from ({}) to ({})",
                    shown(&constructor(old, self.none)),
                    shown(&new_new)
                ),
            );
        } else if names(&old_new) != names(&new_new) {
            let (mut before, mut after) = (names(&old_new), names(&new_new));
            before.sort();
            after.sort();
            if before == after {
                changes.breaks_silently(
                    item,
                    format!(
                        "{name}::new arguments reordered from ({}) to ({})",
                        shown(&old_new),
                        shown(&new_new)
                    ),
                );
            }
        }
        let has_default = |def: &StructDef| def.fields.iter().all(|f| !f.required);
        if has_default(old) && !has_default(new) {
            changes.breaks(item, format!("{name} no longer implements Default"));
        }
    }
}

/// A field's type as the struct stores it, as the generated Rust spells it.
fn stored_type(field: &Field, storage: Storage, renames: &Renames) -> String {
    let mut ty = render(&rename(&field.ty, renames));
    if field.boxed {
        ty = format!("Box<{ty}>");
    }
    match storage {
        Storage::Required => ty,
        Storage::RequiredNullable | Storage::Optional => format!("Option<{ty}>"),
        Storage::Patch => format!("Patch<{ty}>"),
    }
}

/// `new`'s arguments: a name and the type its `impl Into<…>` names, per required field.
fn constructor(def: &StructDef, renames: &Renames) -> Vec<(String, String)> {
    def.fields
        .iter()
        .filter(|f| f.required)
        .map(|field| {
            let ty = render(&rename(&field.ty, renames));
            let ty = if field.nullable {
                format!("Option<{ty}>")
            } else {
                ty
            };
            (field.rust_name.clone(), ty)
        })
        .collect()
}

/// An open enum's variants as `(Rust name, wire value)`, and its fallback variant.
struct OpenEnum {
    variants: Vec<(String, String)>,
    fallback: String,
}

impl From<&EnumDef> for OpenEnum {
    fn from(def: &EnumDef) -> Self {
        OpenEnum {
            variants: def
                .variants
                .iter()
                .map(|v| (v.rust_name.clone(), format!("{:?}", v.wire)))
                .collect(),
            fallback: def.fallback.clone(),
        }
    }
}

impl From<&IntEnumDef> for OpenEnum {
    fn from(def: &IntEnumDef) -> Self {
        OpenEnum {
            variants: def
                .variants
                .iter()
                .map(|v| (v.rust_name.clone(), v.value.to_string()))
                .collect(),
            fallback: def.fallback.clone(),
        }
    }
}

fn compare_enums(item: &str, name: &str, old: &OpenEnum, new: &OpenEnum, changes: &mut Changes) {
    if old.fallback != new.fallback {
        changes.breaks(
            item,
            format!(
                "enum {name} fallback variant renamed from {} to {}",
                old.fallback, new.fallback
            ),
        );
    }
    // By Rust name first: that is what old code says. A name that stays but stands for
    // another string compiles; a name that goes does not, whatever its string became.
    for variant in &old.variants {
        if let Some(same) = new.variants.iter().find(|v| v.0 == variant.0) {
            if same.1 != variant.1 {
                changes.breaks_silently(
                    item,
                    format!(
                        "enum value {name}::{} now stands for {} (was {})",
                        variant.0, same.1, variant.1
                    ),
                );
            }
            continue;
        }
        match new.variants.iter().find(|v| v.1 == variant.1) {
            Some(renamed) => changes.breaks(
                item,
                format!(
                    "enum value {name}::{} ({}) renamed to {name}::{}",
                    variant.0, variant.1, renamed.0
                ),
            ),
            None => changes.breaks(
                item,
                format!("enum value {name}::{} ({}) removed", variant.0, variant.1),
            ),
        }
    }
    for variant in &new.variants {
        let known = old
            .variants
            .iter()
            .any(|v| v.1 == variant.1 || v.0 == variant.0);
        if !known {
            // Open enums: old code sees the new value as the fallback variant.
            changes.adds(
                item,
                format!("enum value {name}::{} ({}) added", variant.0, variant.1),
            );
        }
    }
}

fn compare_unions(
    item: &str,
    name: &str,
    old: &UnionDef,
    new: &UnionDef,
    renames: &Renames,
    changes: &mut Changes,
) {
    if old.tag_property != new.tag_property {
        changes.breaks(
            item,
            format!(
                "union {name} is tagged by property {:?} (was {:?})",
                new.tag_property, old.tag_property
            ),
        );
    }
    if old.fallback != new.fallback {
        changes.breaks(
            item,
            format!(
                "union {name} fallback variant renamed from {} to {}",
                old.fallback, new.fallback
            ),
        );
    }
    let payload = |variant: &crate::ir::UnionVariant, renames: &Renames| {
        payload_type(&variant.ty, variant.boxed, renames)
    };
    let none = Renames::new();
    for variant in &old.variants {
        // By Rust name first, as for enums.
        let same = match new
            .variants
            .iter()
            .find(|v| v.rust_name == variant.rust_name)
        {
            Some(same) => {
                if same.tag != variant.tag {
                    changes.breaks_silently(
                        item,
                        format!(
                            "union variant {name}::{} now stands for tag {:?} (was {:?})",
                            variant.rust_name, same.tag, variant.tag
                        ),
                    );
                }
                same
            }
            None => {
                match new.variants.iter().find(|v| v.tag == variant.tag) {
                    Some(renamed) => changes.breaks(
                        item,
                        format!(
                            "union variant {name}::{} ({:?}) renamed to {name}::{}",
                            variant.rust_name, variant.tag, renamed.rust_name
                        ),
                    ),
                    None => changes.breaks(
                        item,
                        format!("union variant {name}::{} removed", variant.rust_name),
                    ),
                }
                continue;
            }
        };
        compare_payloads(
            item,
            &format!("{name}::{}", variant.rust_name),
            [payload(variant, renames), payload(variant, &none)],
            payload(same, &none),
            changes,
        );
    }
    for variant in &new.variants {
        let known = old
            .variants
            .iter()
            .any(|v| v.tag == variant.tag || v.rust_name == variant.rust_name);
        if !known {
            changes.adds(
                item,
                format!("union variant {name}::{} added", variant.rust_name),
            );
        }
    }
}

/// A variant's payload type as written (`Box<…>` when boxed), with `renames` applied.
fn payload_type(ty: &TypeRef, boxed: bool, renames: &Renames) -> String {
    let ty = render(&rename(ty, renames));
    if boxed { format!("Box<{ty}>") } else { ty }
}

/// One kept variant's payload: `[renamed, as_written]` is the old payload with the renames
/// applied and as the old code wrote it, `after` the new one. A different type breaks; the same
/// type under a renamed name breaks too (old code names the old type).
fn compare_payloads(
    item: &str,
    variant: &str,
    [renamed, as_written]: [String; 2],
    after: String,
    changes: &mut Changes,
) {
    if renamed != after {
        changes.breaks(
            item,
            format!("union variant {variant} payload changed from {as_written} to {after}"),
        );
    } else if as_written != after {
        changes.breaks(
            item,
            format!("union variant {variant} payload has renamed type {after} (was {as_written})"),
        );
    }
}

/// An untagged union, by variant name (what old code matches) and then by JSON kind.
fn compare_untagged(
    item: &str,
    name: &str,
    old: &UntaggedDef,
    new: &UntaggedDef,
    renames: &Renames,
    changes: &mut Changes,
) {
    let payload = |variant: &crate::ir::UntaggedVariant, renames: &Renames| {
        payload_type(&variant.ty, variant.boxed, renames)
    };
    let none = Renames::new();
    for variant in &old.variants {
        let Some(same) = new
            .variants
            .iter()
            .find(|v| v.rust_name == variant.rust_name)
        else {
            match new.variants.iter().find(|v| v.kind == variant.kind) {
                Some(other) => changes.breaks(
                    item,
                    format!(
                        "union variant {name}::{}({}) changed to {}({})",
                        variant.rust_name,
                        payload(variant, &none),
                        other.rust_name,
                        payload(other, &none)
                    ),
                ),
                None => changes.breaks(
                    item,
                    format!("union variant {name}::{} removed", variant.rust_name),
                ),
            }
            continue;
        };
        compare_payloads(
            item,
            &format!("{name}::{}", variant.rust_name),
            [payload(variant, renames), payload(variant, &none)],
            payload(same, &none),
            changes,
        );
    }
    for variant in &new.variants {
        let known = old
            .variants
            .iter()
            .any(|v| v.kind == variant.kind || v.rust_name == variant.rust_name);
        if !known {
            // `#[non_exhaustive]`: old matches have a wildcard arm for it.
            changes.adds(
                item,
                format!("union variant {name}::{} added", variant.rust_name),
            );
        }
    }
}

fn compare_aliases(
    item: &str,
    name: &str,
    old: &AliasDef,
    new: &AliasDef,
    renames: &Renames,
    changes: &mut Changes,
) {
    if render(&rename(&old.ty, renames)) != render(&new.ty) {
        changes.breaks(
            item,
            format!(
                "type {name} changed from {} to {}",
                render(&old.ty),
                render(&new.ty)
            ),
        );
    } else if render(&old.ty) != render(&new.ty) {
        changes.breaks(
            item,
            format!(
                "type {name} names renamed type {} (was {})",
                render(&new.ty),
                render(&old.ty)
            ),
        );
    }
}

/// A method's arguments as the generated Rust takes them: a name and a type per argument.
fn arguments(op: &Operation, renames: &Renames) -> Vec<(String, String)> {
    // The surface's signature, with the old side's types in the new side's names.
    let spell = |ty: &TypeRef| type_tokens(&rename(ty, renames));
    crate::surface::signature::operation_signature(op, &spell)
        .arguments
        .into_iter()
        .map(|argument| (argument.name, listing::compact(argument.ty)))
        .collect()
}

/// The path template with every placeholder written `{}`: the request it sends, whatever its
/// parameters are called.
fn request_shape(op: &Operation) -> String {
    format!("{} {}", op.method, crate::names::template_shape(&op.path))
}

fn compare_operations(
    item: &str,
    name: &str,
    old: &Operation,
    new: &Operation,
    renames: &Renames,
    changes: &mut Changes,
) {
    let none = Renames::new();
    if request_shape(old) != request_shape(new) {
        changes.breaks_silently(
            item,
            format!(
                "operation {name} now sends {} {} (was {} {})",
                new.method, new.path, old.method, old.path
            ),
        );
    }
    let shown = |arguments: &[(String, String)]| {
        arguments
            .iter()
            .map(|(name, ty)| format!("{name}: {ty}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let types = |arguments: &[(String, String)]| -> Vec<String> {
        arguments.iter().map(|(_, ty)| ty.clone()).collect()
    };
    let (before, after) = (arguments(old, renames), arguments(new, &none));
    if types(&before) != types(&after) {
        changes.breaks(
            item,
            format!(
                "operation {name} arguments changed from ({}) to ({})",
                shown(&arguments(old, &none)),
                shown(&after)
            ),
        );
    } else if types(&arguments(old, &none)) != types(&after) {
        changes.breaks(
            item,
            format!("operation {name} arguments use renamed types"),
        );
    } else if before != after {
        let mut old_names: Vec<&String> = before.iter().map(|(n, _)| n).collect();
        let mut new_names: Vec<&String> = after.iter().map(|(n, _)| n).collect();
        old_names.sort();
        new_names.sort();
        // Positional: a rename alone changes no call, a reorder changes what each one means.
        if old_names == new_names {
            changes.breaks_silently(
                item,
                format!(
                    "operation {name} arguments reordered from ({}) to ({})",
                    shown(&before),
                    shown(&after)
                ),
            );
        }
    }
    let encoding = |op: &Operation| match op.body.as_ref().map(|b| &b.kind) {
        Some(BodyKind::Json(_)) => "JSON",
        Some(BodyKind::Form { .. }) => "form",
        Some(BodyKind::Multipart { .. }) => "multipart",
        _ => "",
    };
    if types(&before) == types(&after) && encoding(old) != encoding(new) {
        changes.breaks_silently(
            item,
            format!(
                "operation {name} sends its body as {} (was {})",
                encoding(new),
                encoding(old)
            ),
        );
    }
    let response = |op: &Operation, map: &Renames| match &op.response {
        ResponseKind::Json(ty) => render(&rename(ty, map)),
        ResponseKind::Text(_) => "String".to_owned(),
        ResponseKind::Bytes(_) => "Vec<u8>".to_owned(),
        ResponseKind::Empty => "()".to_owned(),
    };
    if response(old, renames) != response(new, &none) {
        changes.breaks(
            item,
            format!(
                "operation {name} returns {} instead of {}",
                response(new, &none),
                response(old, &none)
            ),
        );
    } else if response(old, &none) != response(new, &none) {
        changes.breaks(
            item,
            format!(
                "operation {name} returns renamed type {} (was {})",
                response(new, &none),
                response(old, &none)
            ),
        );
    }
}

/// A query struct field's stored type and what its setter takes.
fn query_field(param: &Param, renames: &Renames) -> String {
    match &param.ty {
        TypeRef::Vec(_) => format!(
            "{} (setter: any iterable)",
            render(&rename(&param.ty, renames))
        ),
        _ if param.any_scalar => "Option<String> (setter: impl Display)".to_owned(),
        scalar => format!("Option<{}>", render(&rename(scalar, renames))),
    }
}

fn compare_query(
    item: &str,
    name: &str,
    old: &[Param],
    new: &[Param],
    renames: &Renames,
    changes: &mut Changes,
) {
    let none = Renames::new();
    let (old_setters, new_setters) = (builders::query_setters(old), builders::query_setters(new));
    for (param, before) in old.iter().zip(&old_setters) {
        let Some(index) = new.iter().position(|p| p.rust_name == param.rust_name) else {
            changes.breaks(
                item,
                format!("query parameter {name}.{} removed", param.rust_name),
            );
            continue;
        };
        let same = &new[index];
        if let Some(after) = new_setters.get(index).filter(|after| *after != before) {
            changes.breaks(
                item,
                format!("query setter {name}::{before} renamed to {name}::{after}"),
            );
        }
        let after = query_field(same, &none);
        if query_field(param, renames) != after {
            changes.breaks(
                item,
                format!(
                    "query parameter {name}.{} changed from {} to {after}",
                    param.rust_name,
                    query_field(param, &none)
                ),
            );
        } else if query_field(param, &none) != after {
            changes.breaks(
                item,
                format!(
                    "query parameter {name}.{} has renamed type {after} (was {})",
                    param.rust_name,
                    query_field(param, &none)
                ),
            );
        }
        if param.wire_name != same.wire_name {
            changes.breaks_silently(
                item,
                format!(
                    "query parameter {name}.{} is now sent as {:?} (was {:?})",
                    param.rust_name, same.wire_name, param.wire_name
                ),
            );
        }
    }
    for param in new {
        if old.iter().all(|p| p.rust_name != param.rust_name) {
            changes.adds(
                item,
                format!("query parameter {name}.{} added", param.rust_name),
            );
        }
    }
}

#[cfg(test)]
mod tests;
