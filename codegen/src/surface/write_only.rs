//! Which types only request bodies use: their optional nullable fields become the runtime's
//! tri-state `Patch<T>` (absent, `null`, value), which a PATCH needs and a response reader
//! would only find in the way.

use std::collections::BTreeSet;

use crate::ir::{Api, ResponseKind, TypeDef, TypeRef};

/// The types reachable from some request body and from no response.
pub(crate) fn write_only_types(api: &Api) -> BTreeSet<String> {
    let bodies = reachable(
        api,
        api.operations
            .iter()
            .filter_map(|op| op.body.as_ref().and_then(|b| b.kind.value_type())),
    );
    let responses = reachable(
        api,
        api.operations.iter().filter_map(|op| match &op.response {
            ResponseKind::Json(ty) => Some(ty),
            _ => None,
        }),
    );
    bodies.difference(&responses).cloned().collect()
}

/// Every named type `roots` reach, through fields, variants, aliases and containers.
fn reachable<'a>(api: &Api, roots: impl Iterator<Item = &'a TypeRef>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut pending: Vec<&TypeRef> = roots.collect();
    while let Some(ty) = pending.pop() {
        match ty {
            TypeRef::Named(name) => {
                if !seen.insert(name.clone()) {
                    continue;
                }
                match api.types.get(name) {
                    Some(TypeDef::Struct(def)) => pending.extend(def.fields.iter().map(|f| &f.ty)),
                    Some(TypeDef::Union(def)) => pending.extend(def.variants.iter().map(|v| &v.ty)),
                    Some(TypeDef::Alias(def)) => pending.push(&def.ty),
                    Some(TypeDef::Untagged(def)) => {
                        pending.extend(def.variants.iter().map(|v| &v.ty))
                    }
                    Some(TypeDef::Enum(_) | TypeDef::IntEnum(_)) | None => {}
                }
            }
            TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Option(inner) => {
                pending.push(inner)
            }
            TypeRef::String
            | TypeRef::Integer
            | TypeRef::Unsigned
            | TypeRef::Number
            | TypeRef::Boolean
            | TypeRef::Decimal
            | TypeRef::Timestamp
            | TypeRef::Date
            | TypeRef::Json => {}
        }
    }
    seen
}
