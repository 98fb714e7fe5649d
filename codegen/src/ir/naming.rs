//! Names: inline types, enum and union variants and methods, each through the names lock, so
//! that regenerating keeps every name given before.

use super::Builder;
use crate::error::Pointer;
use crate::names;
use crate::reserved::FALLBACK_VARIANT;

impl<'a> Builder<'a> {
    /// A name for the inline schema (or operation part) at `identity`.
    pub(super) fn inline_name(&mut self, hint: &str, identity: &Pointer) -> String {
        self.names
            .claim_type(identity.as_str(), &names::camel_ident(hint, "T"))
    }
}

/// The variant that keeps values the document does not list (see [`FALLBACK_VARIANT`]), free
/// in every namespace from [`variant_namespace`].
pub(super) fn fallback_variant() -> String {
    FALLBACK_VARIANT.to_owned()
}
