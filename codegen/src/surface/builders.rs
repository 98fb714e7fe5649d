//! The names of every emitted struct's constructor, setters and clearers and of every query
//! struct's setters, part of the [surface](super): the emitters, the probe and the change report
//! all read them from there.
//!
//! Users build a generated struct with `new(required…)` and one chained setter per optional
//! field, never a struct literal (the structs are `#[non_exhaustive]`), so that a document
//! adding an optional field does not break code written against the old one.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::{Field, StructDef, TypeRef};
use crate::lock::Names;
use crate::reserved::{COMMON_METHOD_NAMES, is_reserved_method};
use crate::runtime_traits::TraitNames;
use crate::tokens::type_tokens;

/// The setter names of a query struct, by parameter (the fields of `Default` + setters): each
/// parameter's Rust name, or `set_<name>` when that would shadow a method every type has
/// (`GetFooQuery::default()` must stay `Default`'s).
pub(crate) fn query_setters(params: &[crate::ir::Param]) -> Vec<String> {
    let mut names = Names::query_setters();
    params
        .iter()
        .map(|param| {
            let wanted = if COMMON_METHOD_NAMES.contains(&param.rust_name.as_str()) {
                prefixed("set", &param.rust_name)
            } else {
                param.rust_name.clone()
            };
            names.claim(&wanted, "_")
        })
        .collect()
}

/// One struct as the crate exposes it, resolved once from the IR: every field with how it is
/// stored and the names of its setter and clearer. The models emitter, the listing, the probe
/// and the examples read this; none decides storage or names again.
#[derive(Debug, Clone)]
pub(crate) struct StructSurface<'a> {
    pub(crate) def: &'a StructDef,
    /// Same order as `def.fields`.
    pub(crate) fields: Vec<FieldSurface<'a>>,
}

/// One field of a [`StructSurface`].
#[derive(Debug, Clone)]
pub(crate) struct FieldSurface<'a> {
    pub(crate) field: &'a Field,
    pub(crate) storage: Storage,
    /// The setter, for optional fields; required ones are `new`'s arguments instead.
    pub(crate) setter: Option<String>,
    /// The clearer (sets `Patch::Clear`), for `Patch` fields. The name is claimed for every
    /// optional nullable field whether or not the struct is write-only, so a type's method names
    /// never depend on where the document uses it; only a `Patch` field has the method.
    pub(crate) clearer: Option<String>,
}

impl StructSurface<'_> {
    /// Every field optional: `new()` takes nothing, and the struct derives `Default`.
    pub(crate) fn has_default(&self) -> bool {
        self.fields.iter().all(|field| !field.field.required)
    }

    /// `new`'s arguments, in field order: each required field's name and the type it is taken
    /// as.
    pub(crate) fn constructor_arguments(&self) -> impl Iterator<Item = (&str, TokenStream)> {
        self.fields.iter().filter_map(|field| {
            field
                .constructor_argument()
                .map(|ty| (field.field.rust_name.as_str(), ty))
        })
    }
}

impl FieldSurface<'_> {
    /// The type the struct stores the field as (`Box` or `Indirect` inside the `Option` or `Patch`).
    pub(crate) fn stored_type(&self) -> TokenStream {
        let ty = self.field.held.wrap(type_tokens(&self.field.ty));
        match self.storage {
            Storage::Required => ty,
            Storage::RequiredNullable | Storage::Optional => quote!(Option<#ty>),
            Storage::Patch => quote!(rt::Patch<#ty>),
        }
    }

    /// Whether `new` or the setter takes the value as itself ([`takes_itself`]).
    pub(crate) fn takes_itself(&self) -> bool {
        takes_itself(&self.field.ty)
    }

    /// The type `new` takes a required field as; `None` for an optional one.
    pub(crate) fn constructor_argument(&self) -> Option<TokenStream> {
        let ty = type_tokens(&self.field.ty);
        match self.storage {
            Storage::Required if self.takes_itself() => Some(ty),
            Storage::Required => Some(quote!(impl Into<#ty>)),
            // `impl Into<Option<T>>` takes a literal as it is (only `T` converts), and `None`.
            Storage::RequiredNullable => Some(quote!(impl Into<Option<#ty>>)),
            Storage::Optional | Storage::Patch => None,
        }
    }

    /// The type the setter takes its value as.
    pub(crate) fn setter_argument(&self) -> TokenStream {
        let ty = type_tokens(&self.field.ty);
        if self.takes_itself() {
            ty
        } else {
            quote!(impl Into<#ty>)
        }
    }
}

/// `def` resolved: each field's storage (see [`storage`]) and method names (see
/// [`struct_methods`]; `extension_traits` are the runtime traits extensions implement on models),
/// decided here once.
pub(crate) fn resolve_struct<'d>(
    def: &'d StructDef,
    write_only: bool,
    extension_traits: &[TraitNames],
) -> StructSurface<'d> {
    let StructMethods { setters, clearers } = struct_methods(def, extension_traits);
    let fields = def
        .fields
        .iter()
        .zip(setters.into_iter().zip(clearers))
        .map(|(field, (setter, clearer))| {
            let storage = storage(field, write_only);
            FieldSurface {
                field,
                storage,
                setter,
                clearer: clearer.filter(|_| storage == Storage::Patch),
            }
        })
        .collect();
    StructSurface { def, fields }
}

/// The method names of one struct, by field index.
#[derive(Debug, Clone, PartialEq, Eq)]
struct StructMethods {
    /// Per field (same index as `StructDef::fields`): the setter's name, for optional fields;
    /// `None` for required ones, which `new` takes instead.
    setters: Vec<Option<String>>,
    /// Per field: the clearer's name, for optional nullable fields; `None` for the others.
    clearers: Vec<Option<String>>,
}

/// The constructor, setter and clearer names of `def`'s methods, collision-free whatever the
/// field names.
///
/// One namespace per struct: the [reserved method names](crate::reserved::reserved_method_names)
/// first (the constructor among them), then each optional field's setter in field order (the
/// field's Rust name, or `set_<field>` when that is reserved), then each optional nullable
/// field's clearer (`clear_<field>`); a name still taken gets the namespace's numeric suffix.
/// Required fields get no method: they are `new`'s arguments, in field order.
///
/// A name depends only on this struct's fields, so adding a field to a document renames no
/// other struct's methods (it renames one of this struct's only when the new field takes a
/// name an existing method derived, e.g. a field `clear_x` beside a nullable `x`).
fn struct_methods(def: &StructDef, extension_traits: &[TraitNames]) -> StructMethods {
    let mut names = Names::struct_methods(extension_traits);
    let setters = def
        .fields
        .iter()
        .map(|field| {
            (!field.required).then(|| {
                let wanted = if is_reserved_method(&field.rust_name, extension_traits) {
                    prefixed("set", &field.rust_name)
                } else {
                    field.rust_name.clone()
                };
                names.claim(&wanted, "_")
            })
        })
        .collect();
    let clearers = def
        .fields
        .iter()
        .map(|field| {
            has_clearer(field).then(|| names.claim(&prefixed("clear", &field.rust_name), "_"))
        })
        .collect();
    StructMethods { setters, clearers }
}

/// `prefix_name`, or `prefix_2fa` for `_2fa`: rustc's `non_snake_case` refuses a doubled `_`
/// inside a name.
fn prefixed(prefix: &str, name: &str) -> String {
    if name.starts_with('_') {
        format!("{prefix}{name}")
    } else {
        format!("{prefix}_{name}")
    }
}

/// Whether the field gets a clearer name: optional and nullable, i.e. a `Patch` in a
/// write-only struct.
fn has_clearer(field: &Field) -> bool {
    !field.required && field.nullable
}

/// Whether `new`, a setter or a query setter takes a value of `ty` as itself rather than as
/// `impl Into<ty>`: numbers and booleans, where `Into` buys nothing but costs the literal
/// (`impl Into<u64>` makes `1` an `i32`, which has no `Into<u64>`). A required nullable one
/// stays `impl Into<Option<T>>`: only `T` converts into `Option<T>`, so a literal is a `T`.
pub(crate) fn takes_itself(ty: &TypeRef) -> bool {
    matches!(
        ty,
        TypeRef::Integer | TypeRef::Unsigned | TypeRef::Number | TypeRef::Boolean
    )
}

/// How a field is stored, which decides how `new` or its setter fills it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Storage {
    /// Required and not nullable: `T` (`new` takes `impl Into<T>`, or a number or boolean
    /// itself: [`takes_itself`]).
    Required,
    /// Required and nullable: `Option<T>` (`new` takes `impl Into<Option<T>>`).
    RequiredNullable,
    /// Optional: `Option<T>`, starting as `None`; the setter sets `Some`.
    Optional,
    /// Optional and nullable in a write-only struct: `rt::Patch<T>`, starting as `Unchanged`;
    /// the setter sets `Set`, the clearer `Clear`.
    Patch,
}

/// How `field` is stored in a struct that is (or is not) write-only; `Box` aside, which
/// `Field::held` adds inside the `Option` or `Patch`.
fn storage(field: &Field, write_only: bool) -> Storage {
    match (field.required, field.nullable) {
        (true, false) => Storage::Required,
        (true, true) => Storage::RequiredNullable,
        (false, true) if write_only => Storage::Patch,
        (false, _) => Storage::Optional,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optional_nullable_fields_are_patches_only_in_write_only_structs() {
        let optional_nullable = field("x", false, true);
        assert_eq!(storage(&optional_nullable, true), Storage::Patch);
        assert_eq!(storage(&optional_nullable, false), Storage::Optional);
        assert_eq!(storage(&field("x", false, false), true), Storage::Optional);
        assert_eq!(
            storage(&field("x", true, true), true),
            Storage::RequiredNullable
        );
        assert_eq!(storage(&field("x", true, false), true), Storage::Required);
    }

    #[test]
    fn query_setters_never_shadow_default_or_clone() {
        let param = |name: &str| crate::ir::Param {
            location: crate::ir::Location::Query,
            wire_name: name.to_owned(),
            rust_name: name.to_owned(),
            doc: None,
            ty: TypeRef::String,
            any_scalar: false,
            style: crate::ir::ParamStyle::Form,
            explode: true,
            allow_reserved: false,
            secret: false,
        };
        let params = [
            param("default"),
            param("clone"),
            param("set_default"),
            param("name"),
        ];
        assert_eq!(
            query_setters(&params),
            ["set_default", "set_clone", "set_default_2", "name"]
        );
    }
    use crate::ir::{Held, TypeRef};

    fn field(name: &str, required: bool, nullable: bool) -> Field {
        Field {
            wire_name: name.to_owned(),
            rust_name: name.to_owned(),
            doc: None,
            ty: TypeRef::String,
            required,
            nullable,
            held: Held::Inline,
        }
    }

    #[test]
    fn methods_never_collide() {
        let def = StructDef {
            name: "T".to_owned(),
            doc: None,
            fields: vec![
                field("new", false, false),
                field("x", false, true),
                field("clear_x", false, false),
                field("id", true, false),
                field("step_seconds", false, false),
                field("set_step_seconds", false, false),
                field("_2fa", false, true),
            ],
        };
        // `step_seconds` is an index-mapped response's method, which the metrics extension
        // reserves; without it, the field's own name is free.
        let methods = struct_methods(&def, &crate::runtime_traits::INDEX_MAPPED_TRAITS);
        let setters: Vec<Option<&str>> = methods.setters.iter().map(Option::as_deref).collect();
        assert_eq!(
            setters,
            [
                Some("set_new"),
                Some("x"),
                Some("clear_x"),
                None,
                Some("set_step_seconds"),
                Some("set_step_seconds_2"),
                Some("_2fa"),
            ]
        );
        let clearers: Vec<Option<&str>> = methods.clearers.iter().map(Option::as_deref).collect();
        assert_eq!(
            clearers,
            [
                None,
                Some("clear_x_2"),
                None,
                None,
                None,
                None,
                Some("clear_2fa")
            ]
        );
    }

    #[test]
    fn an_extension_trait_method_is_free_without_the_extension() {
        let def = StructDef {
            name: "T".to_owned(),
            doc: None,
            fields: vec![field("step_seconds", false, false)],
        };
        let setters = |traits| struct_methods(&def, traits).setters;
        assert_eq!(setters(&[]), [Some("step_seconds".to_owned())]);
        assert_eq!(
            setters(&crate::runtime_traits::INDEX_MAPPED_TRAITS),
            [Some("set_step_seconds".to_owned())]
        );
    }
}
