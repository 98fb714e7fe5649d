//! Renames in the change report: a type gone while a structurally identical one appears
//! (references to other renamed types included) is one rename, not a removal and an addition;
//! and the rendering of types that both sides of a comparison share.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::ir::{Api, Field, TypeDef, TypeRef};

/// Old names → new names of types that vanished while an identical one appeared.
pub(super) fn detect_renames(old: &Api, new: &Api) -> BTreeMap<String, String> {
    let removed: Vec<&String> = old
        .types
        .keys()
        .filter(|n| !new.types.contains_key(*n))
        .collect();
    let none = BTreeMap::new();
    // Added types by structure: a removed type matches one whose structure, its references
    // read through the renames found so far, is the same. Hashing the structure makes each
    // attempt one lookup instead of a scan of every added type.
    let mut added_by_structure: HashMap<String, Vec<&String>> = HashMap::new();
    for (name, def) in &new.types {
        if !old.types.contains_key(name) {
            added_by_structure
                .entry(structure(def, &none))
                .or_default()
                .push(name);
        }
    }
    // The removed types that refer to each removed type: a rename found lets them match.
    let removed_set: BTreeSet<&str> = removed.iter().map(|n| n.as_str()).collect();
    let mut referrers: HashMap<&str, Vec<&String>> = HashMap::new();
    for name in &removed {
        let mut named = BTreeSet::new();
        references(&old.types[*name], &mut named);
        for target in named {
            if let Some(target) = removed_set.get(target.as_str()) {
                referrers.entry(target).or_default().push(name);
            }
        }
    }
    let mut renames: BTreeMap<String, String> = BTreeMap::new();
    let mut taken: BTreeSet<&String> = BTreeSet::new();
    // Removed types that found several candidates, by structure: one of those taken may leave
    // them one.
    let mut waiting: HashMap<String, Vec<&String>> = HashMap::new();
    // Leaves match first; each rename lets the types that refer to it try again.
    let mut pending: BTreeSet<&String> = removed.iter().copied().collect();
    while let Some(old_name) = pending.pop_first() {
        if renames.contains_key(old_name) {
            continue;
        }
        let key = structure(&old.types[old_name], &renames);
        let Some(bucket) = added_by_structure.get(&key) else {
            continue;
        };
        let candidates: Vec<&&String> = bucket.iter().filter(|n| !taken.contains(**n)).collect();
        match candidates.as_slice() {
            [only] => {
                let only: &String = only;
                renames.insert(old_name.clone(), only.clone());
                taken.insert(only);
                pending.extend(referrers.get(old_name.as_str()).into_iter().flatten());
                pending.extend(waiting.remove(&key).into_iter().flatten());
            }
            [] => {}
            _ => waiting.entry(key).or_default().push(old_name),
        }
    }
    renames
}

/// Every type name `def` refers to.
pub(super) fn references(def: &TypeDef, out: &mut BTreeSet<String>) {
    fn walk(ty: &TypeRef, out: &mut BTreeSet<String>) {
        match ty {
            TypeRef::Named(name) => {
                out.insert(name.clone());
            }
            TypeRef::Vec(inner)
            | TypeRef::Map(inner)
            | TypeRef::Option(inner)
            | TypeRef::Indirect(inner) => walk(inner, out),
            _ => {}
        }
    }
    match def {
        TypeDef::Struct(def) => def.fields.iter().for_each(|f| walk(&f.ty, out)),
        TypeDef::Union(def) => def.variants.iter().for_each(|v| walk(&v.ty, out)),
        TypeDef::Untagged(def) => def.variants.iter().for_each(|v| walk(&v.ty, out)),
        TypeDef::Alias(def) => walk(&def.ty, out),
        TypeDef::Enum(_) | TypeDef::IntEnum(_) | TypeDef::ValueEnum(_) => {}
    }
}

/// What two types must share to be one renamed: the same text for both exactly when the old
/// one (its references read through `renames`) and the new one have the same kind, wire names,
/// tags and field types.
pub(super) fn structure(def: &TypeDef, renames: &BTreeMap<String, String>) -> String {
    let mut key = String::from(kind(def));
    let mut part = |text: &str| {
        key.push('\u{0}');
        key.push_str(text);
    };
    match def {
        TypeDef::Struct(def) => {
            for field in &def.fields {
                part(&field.wire_name);
                part(&field_type(field, renames));
            }
        }
        TypeDef::Enum(def) | TypeDef::ValueEnum(def) => {
            def.variants.iter().for_each(|v| part(&v.wire));
        }
        TypeDef::Union(def) => {
            part(&def.tag_property);
            for variant in &def.variants {
                part(&variant.tag);
                part(&format!("{:?}", rename(&variant.ty, renames)));
            }
        }
        TypeDef::Alias(def) => part(&format!("{:?}", rename(&def.ty, renames))),
        TypeDef::IntEnum(def) => def.variants.iter().for_each(|v| part(&v.value.to_string())),
        TypeDef::Untagged(def) => {
            for variant in &def.variants {
                part(variant.kind.name());
                part(&variant.rust_name);
                part(variant.held.name().unwrap_or_default());
                part(&format!("{:?}", rename(&variant.ty, renames)));
            }
        }
    }
    key
}

pub(super) fn field_type(field: &Field, renames: &BTreeMap<String, String>) -> String {
    let ty = render(&rename(&field.ty, renames));
    if field.required && !field.nullable {
        ty
    } else {
        format!("Option<{ty}>")
    }
}

pub(super) fn rename(ty: &TypeRef, renames: &BTreeMap<String, String>) -> TypeRef {
    match ty {
        TypeRef::Named(name) => {
            TypeRef::Named(renames.get(name).cloned().unwrap_or_else(|| name.clone()))
        }
        TypeRef::Vec(inner) => TypeRef::Vec(Box::new(rename(inner, renames))),
        TypeRef::Map(inner) => TypeRef::Map(Box::new(rename(inner, renames))),
        TypeRef::Option(inner) => TypeRef::Option(Box::new(rename(inner, renames))),
        TypeRef::Indirect(inner) => TypeRef::Indirect(Box::new(rename(inner, renames))),
        other => other.clone(),
    }
}

/// A type as the generated Rust spells it.
pub(super) fn render(ty: &TypeRef) -> String {
    match ty {
        TypeRef::String => "String".into(),
        TypeRef::Integer => "i64".into(),
        TypeRef::Unsigned => "u64".into(),
        TypeRef::Number => "f64".into(),
        TypeRef::Boolean => "bool".into(),
        TypeRef::Decimal => "Decimal".into(),
        TypeRef::Timestamp => "Timestamp".into(),
        TypeRef::Date => "Date".into(),
        TypeRef::Json => "serde_json::Value".into(),
        TypeRef::Bytes => "Binary".into(),
        TypeRef::Named(name) => name.clone(),
        TypeRef::Vec(inner) => format!("Vec<{}>", render(inner)),
        TypeRef::Map(inner) => format!("BTreeMap<String, {}>", render(inner)),
        TypeRef::Option(inner) => format!("Option<{}>", render(inner)),
        TypeRef::Indirect(inner) => format!("Indirect<{}>", render(inner)),
    }
}

pub(super) fn kind(def: &TypeDef) -> &'static str {
    match def {
        TypeDef::Struct(_) => "struct",
        TypeDef::Enum(_) => "enum",
        TypeDef::Alias(_) => "alias",
        TypeDef::Union(_) => "union",
        TypeDef::Untagged(_) => "untagged union",
        TypeDef::IntEnum(_) => "integer enum",
        TypeDef::ValueEnum(_) => "enum of JSON values",
    }
}
