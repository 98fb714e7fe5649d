//! The seam through which domain shapes add to a crate (in the manner of smithy-rs's decorators):
//! [`SurfaceExtension`] recognises a shape and claims its names while the surface is built, and
//! the [`Contribution`] it hands back says what it adds. Every hook of a contribution has an empty
//! default, so an extension implements only what it adds. The list of extensions is the crate
//! root's (`crate::extensions::EXTENSIONS`), passed in: the surface names none of them.

use std::fmt;

use proc_macro2::{Ident, TokenStream};

use super::OperationSurface;
use super::features::Features;
use super::listing::Line;
use crate::ir::{Api, Operation, TypeRef};
use crate::lock::Names;
use crate::reserved::Reservations;

/// One domain shape: what recognises it and what it adds.
pub(crate) trait SurfaceExtension: Sync {
    /// What its entries in the names lock start with (`metrics GET /path`), so that two
    /// extensions' claims for one operation never meet.
    fn name(&self) -> &'static str;

    /// What it reserves in every crate, recognised or not: type names its items use, runtime
    /// traits it implements on models.
    fn reserved(&self) -> Reservations {
        Reservations::default()
    }

    /// Types the crate's users write back as JSON whatever the document does with them: they
    /// keep `Serialize` even when no request reaches them.
    fn serialized_types(&self, api: &Api) -> Vec<TypeRef> {
        let _ = api;
        Vec::new()
    }

    /// Recognises its shape in `context.api` and claims the names of what it adds.
    fn contribute<'a>(&self, context: &mut Context<'a, '_>) -> Box<dyn Contribution + 'a>;
}

/// What an extension sees while the surface is built.
pub(crate) struct Context<'a, 'b> {
    /// The extension's [name](SurfaceExtension::name).
    pub(crate) extension: &'static str,
    pub(crate) api: &'a Api,
    /// Every type's and operation's feature gate.
    pub(crate) features: &'b Features,
    /// The operations' own surface: each one's method, query setters and expectation, named.
    pub(crate) operations: &'b [OperationSurface<'a>],
    /// The one owner of every name, continuing from what the operations claimed.
    pub(crate) names: &'b mut Names,
}

impl Context<'_, '_> {
    /// The names lock's key for one of the extension's items for `operation`: its name, then
    /// `detail` (which item, when it adds several of a scope), then the operation's identity
    /// (`metrics GET /path`, `metrics current GET /path`).
    pub(crate) fn key(&self, detail: &[&str], operation: &Operation) -> String {
        let mut key = self.extension.to_owned();
        for part in detail {
            key.push(' ');
            key.push_str(part);
        }
        key.push(' ');
        key.push_str(&super::operation_identity(operation));
        key
    }
}

/// A `Client` method an extension adds, as the probe and the change report see it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AddedMethod<'s> {
    pub(crate) name: &'s str,
    /// The operation it calls.
    pub(crate) operation: &'s Operation,
    /// What kind of method it is, for the change report (`metrics entry point`).
    pub(crate) what: &'static str,
    /// What code using it relies on (its arguments and types), compared by the change report.
    pub(crate) shape: String,
    /// Whether the operation's own method's docs name it as the way to call it (a typed
    /// request for the same call); a stream over many calls is not.
    pub(crate) preferred: bool,
}

/// A fake expectation an extension adds: requests of `operation`, answered with `answer`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AddedExpectation<'s> {
    pub(crate) name: &'s str,
    pub(crate) operation: &'s Operation,
    pub(crate) answer: TypeRef,
}

/// A file an extension adds beside the emitted modules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AddedFile {
    /// Its name (`index_mapped.rs`).
    pub(crate) name: &'static str,
    /// The lines of the crate root (`gen/mod.rs`) that declare it as a module.
    pub(crate) declaration: &'static str,
}

/// Renders a typed placeholder of a type (the probe's `support::any::<T>()`).
pub(crate) type Placeholder = fn(&TokenStream) -> TokenStream;

/// What one extension adds to one crate, with its names settled. Tokens are rendered on each
/// call (they cannot cross the formatting threads); every item carries its own feature gate.
pub(crate) trait Contribution: fmt::Debug + Send + Sync {
    /// Its words in `client.rs`'s module doc (`a typestate request per metrics operation`),
    /// said whether or not it recognised anything: the doc describes what any crate has.
    fn client_doc(&self) -> Option<&'static str> {
        None
    }

    /// `use` items at the top of `client.rs` that its items need.
    fn client_imports(&self) -> TokenStream {
        TokenStream::new()
    }

    /// Items of `client.rs` after `Client`'s own: methods in `impl Client` blocks, support
    /// types.
    fn client_items(&self) -> TokenStream {
        TokenStream::new()
    }

    /// Methods of the fake's `impl`, after the operations' expectations.
    fn fake_methods(&self) -> TokenStream {
        TokenStream::new()
    }

    /// The files it adds beside the emitted modules for this crate (none when it recognised
    /// nothing), each with the crate root's lines declaring it.
    fn files(&self) -> Vec<AddedFile> {
        Vec::new()
    }

    /// The contents of `file`, one of [`files`](Self::files); `runtime` is the runtime's path.
    fn file(&self, file: &str, runtime: &TokenStream) -> TokenStream {
        let _ = (file, runtime);
        TokenStream::new()
    }

    /// Its lines of the API listing (a `models::` line gets its type's gate from the listing).
    fn listing(&self) -> Vec<Line> {
        Vec::new()
    }

    /// The `Client` methods it adds.
    fn methods(&self) -> Vec<AddedMethod<'_>> {
        Vec::new()
    }

    /// The fake expectations it adds.
    fn expectations(&self) -> Vec<AddedExpectation<'_>> {
        Vec::new()
    }

    /// The statements of the probe of its `Client` method `method`, which has
    /// `client: &::krate::Client` in scope and the crate's runtime as `rt`; placeholders come
    /// from `placeholder`.
    fn probe(&self, method: &str, krate: &Ident, placeholder: Placeholder) -> TokenStream {
        let _ = (method, krate, placeholder);
        TokenStream::new()
    }
}

/// The types every extension keeps `Serialize` for `api`.
pub(crate) fn serialized_types(api: &Api, extensions: &[&dyn SurfaceExtension]) -> Vec<TypeRef> {
    extensions
        .iter()
        .flat_map(|extension| extension.serialized_types(api))
        .collect()
}
