//! `readOnly` and `writeOnly`: a required property marked so is required on one side only. A
//! struct is one type for both sides, so a field is required only where every use of its type
//! requires it: a required `writeOnly` property is optional in a type any response reaches, a
//! required `readOnly` one in a type any request body reaches.

use std::collections::BTreeMap;

use super::prune::reachable;
use super::{Operation, ResponseKind, TypeDef};
use crate::Note;

/// Which side of an exchange a property belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    /// `readOnly`: sent by the server only.
    Responses,
    /// `writeOnly`: sent by the client only.
    Requests,
}

/// A required property marked `readOnly` or `writeOnly`.
#[derive(Debug, Clone)]
pub(super) struct OneSided {
    pub(super) type_name: String,
    pub(super) wire_name: String,
    pub(super) side: Side,
    /// Where the property stands, for the note when the type is used on both sides.
    pub(super) pointer: String,
}

/// Makes each one-sided required field optional where a use of its type is on the other side.
pub(super) fn shape_one_sided(
    types: &mut BTreeMap<String, TypeDef>,
    operations: &[Operation],
    one_sided: &[OneSided],
    notes: &mut Vec<Note>,
) {
    if one_sided.is_empty() {
        return;
    }
    let requests = reachable(
        types,
        operations
            .iter()
            .flat_map(Operation::bodies)
            .filter_map(|b| b.kind.value_type()),
    );
    let responses = reachable(
        types,
        operations.iter().filter_map(|op| match &op.response {
            ResponseKind::Json(ty) => Some(ty),
            _ => None,
        }),
    );
    for property in one_sided {
        let (this_side, other_side) = match property.side {
            Side::Responses => (&responses, &requests),
            Side::Requests => (&requests, &responses),
        };
        if !other_side.contains(&property.type_name) {
            continue;
        }
        let Some(TypeDef::Struct(def)) = types.get_mut(&property.type_name) else {
            continue;
        };
        let Some(field) = def
            .fields
            .iter_mut()
            .find(|field| field.wire_name == property.wire_name)
        else {
            continue;
        };
        field.required = false;
        if this_side.contains(&property.type_name) {
            let (marked, own, other) = match property.side {
                Side::Responses => ("readOnly", "responses", "request bodies"),
                Side::Requests => ("writeOnly", "request bodies", "responses"),
            };
            notes.push(Note {
                pointer: property.pointer.clone(),
                message: format!(
                    "a required `{marked}` property is optional: its type is used in {other} \
                     as well as {own}"
                ),
            });
        }
    }
}
