//! Pruning: only the types some kept operation (or root) reaches are emitted.

use std::collections::{BTreeMap, BTreeSet};

use super::{Operation, TypeDef, TypeRef};

/// Removes every type that neither an operation (through parameters, bodies and responses) nor
/// one of `roots` reaches.
pub(super) fn prune_unreachable(
    types: &mut BTreeMap<String, TypeDef>,
    operations: &[Operation],
    roots: &[String],
) {
    let roots: Vec<TypeRef> = roots.iter().cloned().map(TypeRef::Named).collect();
    let mut pending: Vec<&TypeRef> = roots.iter().collect();
    for operation in operations {
        pending.extend(operation.type_roots());
    }
    let reached = reachable(types, pending);
    types.retain(|name, _| reached.contains(name));
}

/// Every named type `roots` reach, through fields, variants, aliases and containers.
pub(crate) fn reachable<'t>(
    types: &BTreeMap<String, TypeDef>,
    roots: impl IntoIterator<Item = &'t TypeRef>,
) -> BTreeSet<String> {
    let mut pending: Vec<&TypeRef> = roots.into_iter().collect();
    let mut reached: BTreeSet<String> = BTreeSet::new();
    while let Some(ty) = pending.pop() {
        match ty {
            TypeRef::Named(name) => {
                if !reached.insert(name.clone()) {
                    continue;
                }
                if let Some(def) = types.get(name) {
                    pending.extend(def.held_types());
                }
            }
            TypeRef::Vec(inner)
            | TypeRef::Map(inner)
            | TypeRef::Option(inner)
            | TypeRef::Indirect(inner) => pending.push(inner),
            TypeRef::String
            | TypeRef::Integer
            | TypeRef::Unsigned
            | TypeRef::Number
            | TypeRef::Boolean
            | TypeRef::Decimal
            | TypeRef::Timestamp
            | TypeRef::Date
            | TypeRef::Json
            | TypeRef::Bytes => {}
        }
    }
    reached
}
