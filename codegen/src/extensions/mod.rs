//! Surface extensions: the domain shapes a crate gets more than the generic items for, in the
//! shape of smithy-rs's `AwsCodegenDecorator.kt` (its `DECORATORS` list, each decorator applied
//! only where it recognises what it is for, as `onlyApplyTo` does by service).
//!
//! Each extension recognises its shape in the IR by structure, claims the names of what it adds
//! through the surface's one `Names`, and hands back a `Contribution`: `Client` methods and
//! their support types, fake expectations, files beside the emitted modules, lines of the API
//! listing, and how the compile probe and the change report see what it added. The surface
//! stage runs [`EXTENSIONS`] once, in order; the emitters, the listing, the probe and the change
//! report render what was contributed and name no extension.
//!
//! The seam itself (the traits, with an empty default for every hook) is the surface's
//! (`crate::surface::extension`). Adding one: a module here with a type implementing
//! [`SurfaceExtension`], and one line in [`EXTENSIONS`]. A runtime trait it implements is spelled in `crate::runtime_traits`, where a
//! test checks it against the runtime.

pub(crate) mod metrics;
pub(crate) mod streams;

pub(crate) use crate::surface::extension::SurfaceExtension;

/// Every extension the surface runs, in the order they claim names (a later one gets the
/// numbered name on a collision). The crate root hands it to the surface.
pub(crate) const EXTENSIONS: &[&dyn SurfaceExtension] = &[&metrics::Metrics, &streams::Streams];

/// The type names every extension of `extensions` reserves, for the IR (which names no
/// extension): no schema takes one.
pub(crate) fn reserved_type_names(extensions: &[&dyn SurfaceExtension]) -> Vec<&'static str> {
    extensions
        .iter()
        .flat_map(|extension| extension.reserved().type_names)
        .copied()
        .collect()
}

#[cfg(test)]
mod tests;
