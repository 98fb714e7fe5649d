//! Which types only request bodies use: their optional nullable fields become the runtime's
//! tri-state `Patch<T>` (absent, `null`, value), which a PATCH needs and a response reader
//! would only find in the way.

use std::collections::BTreeSet;

use crate::ir::{Api, ResponseKind, reachable};

/// The types reachable from some request body and from no response.
pub(crate) fn write_only_types(api: &Api) -> BTreeSet<String> {
    let bodies = reachable(
        &api.types,
        api.operations
            .iter()
            .filter_map(|op| op.body.as_ref().and_then(|b| b.kind.value_type())),
    );
    let responses = reachable(
        &api.types,
        api.operations.iter().filter_map(|op| match &op.response {
            ResponseKind::Json(ty) => Some(ty),
            _ => None,
        }),
    );
    bodies.difference(&responses).cloned().collect()
}
