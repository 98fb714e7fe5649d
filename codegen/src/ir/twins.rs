//! Request and response twins: a type both request bodies and responses use, whose fields
//! differ by direction (a required `readOnly` or `writeOnly` property, or an optional nullable
//! one, which a request must be able to send as an explicit `null`), becomes two types. The
//! responses keep its name and the request bodies use `<Name>Request`, named through the lock;
//! so does every shared type that holds one. Each side is then shaped alone (see `access`): a
//! request cannot omit what the server requires, a response never fails on what it may omit,
//! and the request side's optional nullable fields become `Patch<T>` (absent, `null`, value).

use std::collections::{BTreeMap, BTreeSet};

use super::access::OneSided;
use super::{BodyKind, Operation, ResponseKind, TypeDef, TypeRef, reachable};
use crate::lock::Names;

/// Splits every type used on both sides whose fields differ by direction (and every shared type
/// holding one) into its response self and a request twin; points request bodies, and the
/// types only they reach, at the twins. Returns the twins' names by original name.
pub(super) fn split_by_direction(
    types: &mut BTreeMap<String, TypeDef>,
    operations: &mut [Operation],
    one_sided: &mut Vec<OneSided>,
    names: &mut Names,
) -> BTreeMap<String, String> {
    let requests = reachable(types, request_roots(operations));
    let responses = reachable(
        types,
        operations.iter().filter_map(|op| match &op.response {
            ResponseKind::Json(ty) => Some(ty),
            _ => None,
        }),
    );
    let shared: BTreeSet<&String> = requests.intersection(&responses).collect();
    let one_sided_types: BTreeSet<&str> = one_sided.iter().map(|p| p.type_name.as_str()).collect();
    let differs = |name: &str| match types.get(name) {
        Some(TypeDef::Struct(def)) => {
            one_sided_types.contains(name)
                || def
                    .fields
                    .iter()
                    .any(|field| field.nullable && !field.required)
        }
        _ => false,
    };
    // The shared types from which one that differs is reached (itself included): each needs a
    // twin, so that the request side never reaches a response type.
    // Walked back from those once, rather than forward from each shared type (quadratic on
    // a chain of them).
    let differing = shared.iter().copied().filter(|name| differs(name));
    let twinned: BTreeSet<String> = reaching(types, differing)
        .into_iter()
        .filter(|name| shared.contains(name))
        .collect();
    if twinned.is_empty() {
        return BTreeMap::new();
    }
    let renamed: BTreeMap<String, String> = twinned
        .iter()
        .map(|name| {
            let twin = names.claim_type(&format!("{name}#request"), &format!("{name}Request"));
            (name.clone(), twin)
        })
        .collect();
    // The request side: the twins, and every type only requests reach, point at twins.
    let request_only: Vec<String> = requests
        .iter()
        .filter(|name| !responses.contains(*name))
        .cloned()
        .collect();
    for name in request_only {
        if let Some(def) = types.get_mut(&name) {
            rename_in_def(def, &renamed);
        }
    }
    for (original, twin) in &renamed {
        let Some(mut def) = types.get(original).cloned() else {
            continue;
        };
        rename_in_def(&mut def, &renamed);
        set_name(&mut def, twin);
        types.insert(twin.clone(), def);
        names.copy_variants(original, twin);
    }
    for operation in operations.iter_mut() {
        for body in operation.body.iter_mut().chain(&mut operation.other_bodies) {
            match &mut body.kind {
                BodyKind::Json(ty) | BodyKind::Form { ty, .. } | BodyKind::Multipart { ty, .. } => {
                    rename(ty, &renamed);
                }
                BodyKind::Text | BodyKind::Bytes => {}
            }
        }
    }
    let twins: Vec<OneSided> = one_sided
        .iter()
        .filter_map(|property| {
            let twin = renamed.get(&property.type_name)?;
            Some(OneSided {
                type_name: twin.clone(),
                ..property.clone()
            })
        })
        .collect();
    one_sided.extend(twins);
    renamed
}

/// The types request bodies hold.
fn request_roots(operations: &[Operation]) -> impl Iterator<Item = &TypeRef> {
    operations
        .iter()
        .flat_map(Operation::bodies)
        .filter_map(|body| body.kind.value_type())
}

/// Points every use of a renamed type inside `def` at its new name.
fn rename_in_def(def: &mut TypeDef, renamed: &BTreeMap<String, String>) {
    match def {
        TypeDef::Struct(def) => {
            for field in &mut def.fields {
                rename(&mut field.ty, renamed);
            }
        }
        TypeDef::Alias(def) => rename(&mut def.ty, renamed),
        TypeDef::Union(def) => {
            for variant in &mut def.variants {
                rename(&mut variant.ty, renamed);
            }
        }
        TypeDef::Untagged(def) => {
            for variant in &mut def.variants {
                rename(&mut variant.ty, renamed);
            }
        }
        TypeDef::Enum(_) | TypeDef::IntEnum(_) | TypeDef::ValueEnum(_) => {}
    }
}

/// Points a type use at the renamed type, through `Vec`, map and `Option`.
fn rename(ty: &mut TypeRef, renamed: &BTreeMap<String, String>) {
    match ty {
        TypeRef::Named(name) => {
            if let Some(new) = renamed.get(name) {
                *name = new.clone();
            }
        }
        TypeRef::Vec(inner)
        | TypeRef::Map(inner)
        | TypeRef::Option(inner)
        | TypeRef::Indirect(inner) => {
            rename(inner, renamed);
        }
        _ => {}
    }
}

fn set_name(def: &mut TypeDef, name: &str) {
    let slot = match def {
        TypeDef::Struct(def) => &mut def.name,
        TypeDef::Alias(def) => &mut def.name,
        TypeDef::Union(def) => &mut def.name,
        TypeDef::Untagged(def) => &mut def.name,
        TypeDef::Enum(def) => &mut def.name,
        TypeDef::IntEnum(def) => &mut def.name,
        TypeDef::ValueEnum(def) => &mut def.name,
    };
    name.clone_into(slot);
}

/// Every type from which one of `targets` is reachable (see [`reachable`]), the targets
/// included: one walk back along the fields, variants, aliases and containers.
fn reaching<'n>(
    types: &'n BTreeMap<String, TypeDef>,
    targets: impl IntoIterator<Item = &'n String>,
) -> BTreeSet<String> {
    fn named<'t>(ty: &'t TypeRef, out: &mut Vec<&'t str>) {
        match ty {
            TypeRef::Named(name) => out.push(name),
            TypeRef::Vec(inner)
            | TypeRef::Map(inner)
            | TypeRef::Option(inner)
            | TypeRef::Indirect(inner) => named(inner, out),
            _ => {}
        }
    }
    let mut holders: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (name, def) in types {
        let mut held = Vec::new();
        for ty in def.held_types() {
            named(ty, &mut held);
        }
        for target in held {
            holders.entry(target).or_default().push(name);
        }
    }
    let mut pending: Vec<&str> = targets.into_iter().map(String::as_str).collect();
    let mut reached: BTreeSet<&str> = BTreeSet::new();
    while let Some(name) = pending.pop() {
        if reached.insert(name) {
            pending.extend(holders.get(name).into_iter().flatten().copied());
        }
    }
    reached.into_iter().map(str::to_owned).collect()
}
