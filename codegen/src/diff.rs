//! The API change report: what a new document changes in the generated Rust API, each change
//! marked breaking or additive for code that uses the generated types and methods.
//!
//! Works on the IR, so it speaks of Rust names. A type that disappears while a structurally
//! identical one appears (references to other renamed types included) is reported as a rename.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::ir::{
    Api, BodyKind, Field, Operation, ResponseKind, SkippedOperation, TypeDef, TypeRef,
};

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
            writeln!(f, "  {marker}  {}", change.description)?;
        }
        Ok(())
    }
}

/// Compares two APIs.
pub fn api_changes(old: &Api, new: &Api) -> ChangeReport {
    let mut changes = BTreeSet::new();
    let renames = detect_renames(old, new);
    let mut push = |impact, description: String| {
        changes.insert(Change {
            impact,
            description,
        });
    };

    // Types.
    let request_types = request_types(new);
    for (name, old_def) in &old.types {
        match (new.types.get(name), renames.get(name)) {
            (_, Some(renamed)) => push(
                Impact::Breaking,
                format!("type {name} renamed to {renamed} (identical structure)"),
            ),
            (None, None) => push(Impact::Breaking, format!("type {name} removed")),
            (Some(new_def), None) => compare_types(
                name,
                old_def,
                new_def,
                &renames,
                request_types.contains(name),
                &mut push,
            ),
        }
    }
    let renamed_to: BTreeSet<&String> = renames.values().collect();
    for name in new.types.keys() {
        if !old.types.contains_key(name) && !renamed_to.contains(name) {
            push(Impact::Additive, format!("type {name} added"));
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
        let Some(new_op) = new_ops.get(name) else {
            // Left out because the new document has something the generator cannot represent:
            // as breaking as a removal, but the reader should know it is still in the document.
            if let Some(skipped) = new_skipped.get(name) {
                push(
                    Impact::Breaking,
                    format!(
                        "operation {name} left out ({} {}): {} at {}",
                        skipped.method, skipped.path, skipped.reason, skipped.pointer
                    ),
                );
                continue;
            }
            push(
                Impact::Breaking,
                format!(
                    "operation {name} removed ({} {})",
                    old_op.method, old_op.path
                ),
            );
            continue;
        };
        compare_operations(name, old_op, new_op, &renames, &mut push);
    }
    for (name, new_op) in &new_ops {
        if !old_ops.contains_key(name) {
            push(
                Impact::Additive,
                format!("operation {name} added ({} {})", new_op.method, new_op.path),
            );
        }
    }
    let mut changes: Vec<Change> = changes.into_iter().collect();
    changes.sort();
    ChangeReport { changes }
}

type Push<'p> = dyn FnMut(Impact, String) + 'p;

fn compare_types(
    name: &str,
    old: &TypeDef,
    new: &TypeDef,
    renames: &BTreeMap<String, String>,
    is_request: bool,
    push: &mut Push<'_>,
) {
    match (old, new) {
        (TypeDef::Struct(old), TypeDef::Struct(new)) => {
            for field in &old.fields {
                match new.fields.iter().find(|f| f.wire_name == field.wire_name) {
                    None => push(
                        Impact::Breaking,
                        format!("field {name}.{} removed", field.rust_name),
                    ),
                    Some(new_field) => {
                        let (old_ty, new_ty) = (
                            field_type(field, renames),
                            field_type(new_field, &BTreeMap::new()),
                        );
                        if old_ty != new_ty || field.rust_name != new_field.rust_name {
                            push(
                                Impact::Breaking,
                                format!(
                                    "field {name}.{} changed from {} to {}",
                                    field.rust_name, old_ty, new_ty
                                ),
                            );
                        }
                    }
                }
            }
            for field in &new.fields {
                if !old.fields.iter().any(|f| f.wire_name == field.wire_name) {
                    // A new required field of a request body must be supplied; a new response
                    // field is only more data.
                    let (impact, role) = match (is_request, field.required && !field.nullable) {
                        (true, true) => (Impact::Breaking, "required, in a request type"),
                        (true, false) => (Impact::Additive, "optional, in a request type"),
                        (false, _) => (Impact::Additive, "response type"),
                    };
                    push(
                        impact,
                        format!("field {name}.{} added ({role})", field.rust_name),
                    );
                }
            }
        }
        (TypeDef::Enum(old), TypeDef::Enum(new)) => {
            for variant in &old.variants {
                if !new.variants.iter().any(|v| v.wire == variant.wire) {
                    push(
                        Impact::Breaking,
                        format!(
                            "enum value {name}::{} ({:?}) removed",
                            variant.rust_name, variant.wire
                        ),
                    );
                }
            }
            for variant in &new.variants {
                if !old.variants.iter().any(|v| v.wire == variant.wire) {
                    // Open enums: old code sees the new value as the fallback variant.
                    push(
                        Impact::Additive,
                        format!(
                            "enum value {name}::{} ({:?}) added",
                            variant.rust_name, variant.wire
                        ),
                    );
                }
            }
        }
        (TypeDef::Union(old), TypeDef::Union(new)) => {
            for variant in &old.variants {
                if !new.variants.iter().any(|v| v.tag == variant.tag) {
                    push(
                        Impact::Breaking,
                        format!("union variant {name}::{} removed", variant.rust_name),
                    );
                }
            }
            for variant in &new.variants {
                if !old.variants.iter().any(|v| v.tag == variant.tag) {
                    push(
                        Impact::Additive,
                        format!("union variant {name}::{} added", variant.rust_name),
                    );
                }
            }
        }
        (TypeDef::IntEnum(old), TypeDef::IntEnum(new)) => {
            for variant in &old.variants {
                if !new.variants.iter().any(|v| v.value == variant.value) {
                    push(
                        Impact::Breaking,
                        format!(
                            "enum value {name}::{} ({}) removed",
                            variant.rust_name, variant.value
                        ),
                    );
                }
            }
            for variant in &new.variants {
                if !old.variants.iter().any(|v| v.value == variant.value) {
                    push(
                        Impact::Additive,
                        format!(
                            "enum value {name}::{} ({}) added",
                            variant.rust_name, variant.value
                        ),
                    );
                }
            }
        }
        (TypeDef::Untagged(old), TypeDef::Untagged(new)) => {
            // A variant is its JSON kind: the same kind with another payload is a change.
            for variant in &old.variants {
                match new.variants.iter().find(|v| v.kind == variant.kind) {
                    None => push(
                        Impact::Breaking,
                        format!("union variant {name}::{} removed", variant.rust_name),
                    ),
                    Some(new_variant)
                        if new_variant.rust_name != variant.rust_name
                            || render(&rename(&variant.ty, renames)) != render(&new_variant.ty) =>
                    {
                        push(
                            Impact::Breaking,
                            format!(
                                "union variant {name}::{}({}) changed to {}({})",
                                variant.rust_name,
                                render(&variant.ty),
                                new_variant.rust_name,
                                render(&new_variant.ty)
                            ),
                        );
                    }
                    Some(_) => {}
                }
            }
            for variant in &new.variants {
                if !old.variants.iter().any(|v| v.kind == variant.kind) {
                    // Old code matching the enum has no arm for it: `#[non_exhaustive]` makes
                    // it add one, so this breaks nothing.
                    push(
                        Impact::Additive,
                        format!("union variant {name}::{} added", variant.rust_name),
                    );
                }
            }
        }
        (TypeDef::Alias(old), TypeDef::Alias(new)) => {
            if render(&rename(&old.ty, renames)) != render(&new.ty) {
                push(
                    Impact::Breaking,
                    format!(
                        "type {name} changed from {} to {}",
                        render(&old.ty),
                        render(&new.ty)
                    ),
                );
            }
        }
        _ => push(
            Impact::Breaking,
            format!("type {name} changed kind ({} to {})", kind(old), kind(new)),
        ),
    }
}

fn compare_operations(
    name: &str,
    old: &Operation,
    new: &Operation,
    renames: &BTreeMap<String, String>,
    push: &mut Push<'_>,
) {
    let arguments = |op: &Operation, map: &BTreeMap<String, String>| {
        let mut parts: Vec<String> = op
            .path_params
            .iter()
            .chain(&op.required_query)
            .map(|p| {
                let ty = if p.any_scalar {
                    "impl Display".to_owned()
                } else {
                    render(&rename(&p.ty, map))
                };
                format!("{}: {ty}", p.rust_name)
            })
            .collect();
        if let Some(body) = &op.body {
            let value = match &body.kind {
                BodyKind::Json(ty) => format!("JSON {}", render(&rename(ty, map))),
                BodyKind::Form(ty) => format!("form {}", render(&rename(ty, map))),
                BodyKind::Text => "text".to_owned(),
                BodyKind::Bytes => "bytes".to_owned(),
            };
            parts.push(format!(
                "body: {}{value}",
                if body.required { "" } else { "optional " },
            ));
        }
        parts
    };
    let response = |op: &Operation, map: &BTreeMap<String, String>| match &op.response {
        ResponseKind::Json(ty) => render(&rename(ty, map)),
        ResponseKind::Text(_) => "String".to_owned(),
        ResponseKind::Bytes(_) => "Vec<u8>".to_owned(),
        ResponseKind::Empty => "()".to_owned(),
    };
    let empty = BTreeMap::new();
    if arguments(old, renames) != arguments(new, &empty) {
        push(
            Impact::Breaking,
            format!(
                "operation {name} arguments changed from ({}) to ({})",
                arguments(old, &empty).join(", "),
                arguments(new, &empty).join(", ")
            ),
        );
    } else if arguments(old, &empty) != arguments(new, &empty) {
        push(
            Impact::Breaking,
            format!("operation {name} arguments use renamed types"),
        );
    }
    if response(old, renames) != response(new, &empty) {
        push(
            Impact::Breaking,
            format!(
                "operation {name} returns {} instead of {}",
                response(new, &empty),
                response(old, &empty)
            ),
        );
    } else if response(old, &empty) != response(new, &empty) {
        push(
            Impact::Breaking,
            format!(
                "operation {name} returns renamed type {} (was {})",
                response(new, &empty),
                response(old, &empty)
            ),
        );
    }
    for param in &old.optional_query {
        match new
            .optional_query
            .iter()
            .find(|p| p.wire_name == param.wire_name)
        {
            None => push(
                Impact::Breaking,
                format!(
                    "operation {name} query parameter {} removed",
                    param.wire_name
                ),
            ),
            Some(new_param) if render(&rename(&param.ty, renames)) != render(&new_param.ty) => {
                push(
                    Impact::Breaking,
                    format!(
                        "operation {name} query parameter {} changed from {} to {}",
                        param.wire_name,
                        render(&param.ty),
                        render(&new_param.ty)
                    ),
                );
            }
            Some(_) => {}
        }
    }
    for param in &new.optional_query {
        if !old
            .optional_query
            .iter()
            .any(|p| p.wire_name == param.wire_name)
        {
            push(
                Impact::Additive,
                format!(
                    "operation {name} optional query parameter {} added",
                    param.wire_name
                ),
            );
        }
    }
}

/// Types reachable from request bodies: new required fields there break callers.
fn request_types(api: &Api) -> BTreeSet<String> {
    let mut pending: Vec<&TypeRef> = api
        .operations
        .iter()
        .filter_map(|o| o.body.as_ref().and_then(|b| b.kind.value_type()))
        .collect();
    let mut seen = BTreeSet::new();
    while let Some(ty) = pending.pop() {
        match ty {
            TypeRef::Named(name) if seen.insert(name.clone()) => match api.types.get(name) {
                Some(TypeDef::Struct(def)) => pending.extend(def.fields.iter().map(|f| &f.ty)),
                Some(TypeDef::Alias(def)) => pending.push(&def.ty),
                Some(TypeDef::Union(def)) => pending.extend(def.variants.iter().map(|v| &v.ty)),
                Some(TypeDef::Untagged(def)) => pending.extend(def.variants.iter().map(|v| &v.ty)),
                _ => {}
            },
            TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Option(inner) => {
                pending.push(inner)
            }
            _ => {}
        }
    }
    seen
}

/// Old names → new names of types that vanished while an identical one appeared.
fn detect_renames(old: &Api, new: &Api) -> BTreeMap<String, String> {
    let removed: Vec<&String> = old
        .types
        .keys()
        .filter(|n| !new.types.contains_key(*n))
        .collect();
    let added: Vec<&String> = new
        .types
        .keys()
        .filter(|n| !old.types.contains_key(*n))
        .collect();
    let mut renames: BTreeMap<String, String> = BTreeMap::new();
    // Leaves match first; each round lets types that refer to them match too.
    loop {
        let mut found = false;
        for old_name in &removed {
            if renames.contains_key(*old_name) {
                continue;
            }
            let taken: BTreeSet<&String> = renames.values().collect();
            let candidates: Vec<&&String> = added
                .iter()
                .filter(|new_name| !taken.contains(**new_name))
                .filter(|new_name| {
                    same_structure(&old.types[*old_name], &new.types[**new_name], &renames)
                })
                .collect();
            if let [only] = candidates.as_slice() {
                renames.insert((*old_name).clone(), (**only).clone());
                found = true;
            }
        }
        if !found {
            return renames;
        }
    }
}

fn same_structure(old: &TypeDef, new: &TypeDef, renames: &BTreeMap<String, String>) -> bool {
    match (old, new) {
        (TypeDef::Struct(a), TypeDef::Struct(b)) => {
            a.fields.len() == b.fields.len()
                && a.fields.iter().zip(&b.fields).all(|(x, y)| {
                    x.wire_name == y.wire_name
                        && field_type(x, renames) == field_type(y, &BTreeMap::new())
                })
        }
        (TypeDef::Enum(a), TypeDef::Enum(b)) => a
            .variants
            .iter()
            .map(|v| &v.wire)
            .eq(b.variants.iter().map(|v| &v.wire)),
        (TypeDef::Union(a), TypeDef::Union(b)) => {
            a.tag_property == b.tag_property
                && a.variants.len() == b.variants.len()
                && a.variants
                    .iter()
                    .zip(&b.variants)
                    .all(|(x, y)| x.tag == y.tag && rename(&x.ty, renames) == y.ty)
        }
        (TypeDef::Alias(a), TypeDef::Alias(b)) => rename(&a.ty, renames) == b.ty,
        (TypeDef::IntEnum(a), TypeDef::IntEnum(b)) => a
            .variants
            .iter()
            .map(|v| v.value)
            .eq(b.variants.iter().map(|v| v.value)),
        (TypeDef::Untagged(a), TypeDef::Untagged(b)) => {
            a.variants.len() == b.variants.len()
                && a.variants.iter().zip(&b.variants).all(|(x, y)| {
                    x.kind == y.kind && x.rust_name == y.rust_name && rename(&x.ty, renames) == y.ty
                })
        }
        _ => false,
    }
}

fn field_type(field: &Field, renames: &BTreeMap<String, String>) -> String {
    let ty = render(&rename(&field.ty, renames));
    if field.required && !field.nullable {
        ty
    } else {
        format!("Option<{ty}>")
    }
}

fn rename(ty: &TypeRef, renames: &BTreeMap<String, String>) -> TypeRef {
    match ty {
        TypeRef::Named(name) => {
            TypeRef::Named(renames.get(name).cloned().unwrap_or_else(|| name.clone()))
        }
        TypeRef::Vec(inner) => TypeRef::Vec(Box::new(rename(inner, renames))),
        TypeRef::Map(inner) => TypeRef::Map(Box::new(rename(inner, renames))),
        TypeRef::Option(inner) => TypeRef::Option(Box::new(rename(inner, renames))),
        other => other.clone(),
    }
}

/// A type as the generated Rust spells it.
fn render(ty: &TypeRef) -> String {
    match ty {
        TypeRef::String => "String".into(),
        TypeRef::Integer => "i64".into(),
        TypeRef::Number => "f64".into(),
        TypeRef::Boolean => "bool".into(),
        TypeRef::Decimal => "Decimal".into(),
        TypeRef::Timestamp => "Timestamp".into(),
        TypeRef::Date => "Date".into(),
        TypeRef::Json => "serde_json::Value".into(),
        TypeRef::Named(name) => name.clone(),
        TypeRef::Vec(inner) => format!("Vec<{}>", render(inner)),
        TypeRef::Map(inner) => format!("BTreeMap<String, {}>", render(inner)),
        TypeRef::Option(inner) => format!("Option<{}>", render(inner)),
    }
}

fn kind(def: &TypeDef) -> &'static str {
    match def {
        TypeDef::Struct(_) => "struct",
        TypeDef::Enum(_) => "enum",
        TypeDef::Alias(_) => "alias",
        TypeDef::Union(_) => "union",
        TypeDef::Untagged(_) => "untagged union",
        TypeDef::IntEnum(_) => "integer enum",
    }
}
