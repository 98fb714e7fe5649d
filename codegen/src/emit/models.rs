//! Emits `models.rs`: one struct, open enum or alias per IR type.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{code_span, doc_attrs};
use crate::ir::{
    AliasDef, EnumDef, Held, IntEnumDef, JsonKind, TagKind, TypeDef, TypeRef, UnionDef,
    UntaggedDef, UntaggedVariant,
};
use crate::surface::Surface;
use crate::surface::builders::{self, FieldSurface, Storage, StructSurface};
use crate::surface::write_only::{Gate, SerdeImpls};
use crate::tokens::{ident, type_tokens};

/// The top of `models.rs`: module docs and imports. The serde traits are named by path, since
/// which of them a build derives depends on its features.
pub(super) fn header(runtime: &TokenStream) -> TokenStream {
    quote! {
        //! Types of the API's request and response bodies.
        use #runtime as rt;
    }
}

/// The serde derives of a type: the impls every build has inside the `derive` list, the ones
/// only the fake needs behind `cfg_attr(feature = "mock")` (rendering the surface's decision).
struct SerdeDerives {
    always: TokenStream,
    mock: TokenStream,
}

/// `derived`: the serde impls derived, each with its gate (a struct's `Deserialize` is not
/// derived but `struct_deserialize!`).
fn serde_derives<const N: usize>(derived: [(Gate, TokenStream); N]) -> SerdeDerives {
    let mut always = Vec::new();
    let mut mock = Vec::new();
    for (gate, path) in derived {
        match gate {
            Gate::Always => always.push(path),
            Gate::Mock => mock.push(path),
        }
    }
    SerdeDerives {
        always: quote!(#(#always,)*),
        mock: if mock.is_empty() {
            TokenStream::new()
        } else {
            quote!(#[cfg_attr(feature = "mock", derive(#(#mock),*))])
        },
    }
}

/// `#[cfg(feature = "mock")]` on a hand-written impl the fake alone needs.
fn gate_attribute(gate: Gate) -> TokenStream {
    match gate {
        Gate::Always => TokenStream::new(),
        Gate::Mock => quote!(#[cfg(feature = "mock")]),
    }
}

/// A run of type definitions; `models.rs` is the header, then every run in order.
/// Write-only structs (used by request bodies alone) get `Patch<T>` for their optional
/// nullable fields; a struct gets `Default` when every field is optional.
pub(super) fn emit_types(defs: &[&TypeDef], surface: &Surface<'_>) -> TokenStream {
    let items = defs.iter().map(|def| {
        let gate = surface.features.type_gate(def.name()).attribute();
        super::gate::gate_items(&gate, emit_type(def, surface))
    });
    quote!(#(#items)*)
}

/// One type's items, ungated.
fn emit_type(def: &TypeDef, surface: &Surface<'_>) -> TokenStream {
    match def {
        TypeDef::Struct(def) => {
            // The surface resolves every struct; never a struct left out for want of it.
            let computed;
            let resolved = match surface.structs.get(&def.name) {
                Some(resolved) => resolved,
                None => {
                    computed = builders::resolve_struct(
                        def,
                        surface.write_only.contains(&def.name),
                        &surface.model_traits,
                    );
                    &computed
                }
            };
            emit_struct(resolved, surface.serde_impls(&def.name))
        }
        TypeDef::Enum(def) => emit_enum(def),
        TypeDef::Alias(def) => emit_alias(def),
        TypeDef::Union(def) => emit_union(def, surface.serde_impls(&def.name)),
        TypeDef::Untagged(def) => emit_untagged(def, surface.serde_impls(&def.name)),
        TypeDef::IntEnum(def) => emit_int_enum(def),
        TypeDef::ValueEnum(def) => emit_value_enum(def),
    }
}

fn emit_struct(resolved: &StructSurface<'_>, impls: SerdeImpls) -> TokenStream {
    let def = resolved.def;
    let name = ident(&def.name);
    let doc = doc_attrs(def.doc.as_deref());
    let fields = resolved
        .fields
        .iter()
        .map(|field| emit_field(field, impls.serialize));
    // With every field optional, `new()` takes nothing and `default()` is the same value.
    let default = resolved.has_default().then(|| quote!(Default,));
    let methods = emit_struct_methods(resolved);
    // `Serialize` is derived; `Deserialize` is the runtime's `struct_deserialize!`, which reads
    // an object alone and type-checks in a fraction of the derive's time.
    let SerdeDerives { always, mock } =
        serde_derives([(impls.serialize, quote!(serde::Serialize))]);
    let deserialize_gate = gate_attribute(impls.deserialize);
    let presences = resolved.fields.iter().map(|resolved| {
        let field_name = ident(&resolved.field.rust_name);
        let wire = &resolved.field.wire_name;
        let presence = match resolved.storage {
            Storage::Required => quote!(required),
            Storage::RequiredNullable | Storage::Optional | Storage::Patch => quote!(optional),
        };
        quote!(#field_name = #presence(#wire))
    });
    // `non_exhaustive`: other crates build one with `new` and the setters, so a field the
    // document adds later breaks none of their code.
    quote! {
        #doc
        #[derive(Debug, Clone, PartialEq, #default #always)]
        #mock
        #[non_exhaustive]
        pub struct #name {
            #(#fields)*
        }

        #deserialize_gate
        rt::struct_deserialize!(#name, [#(#presences),*]);

        #methods
    }
}

/// `new` (one argument per required field, in field order), a setter per optional field and
/// a clearer per `Patch` field, as the surface resolved them.
fn emit_struct_methods(resolved: &StructSurface<'_>) -> TokenStream {
    let constructor = ident(crate::reserved::CONSTRUCTOR);
    let mut arguments = Vec::new();
    let mut initialisers = Vec::new();
    let mut setters = Vec::new();
    for resolved_field in &resolved.fields {
        let field = resolved_field.field;
        let field_name = ident(&field.rust_name);
        let wire = code_span(&field.wire_name);
        let storage = resolved_field.storage;
        // A number or boolean is taken as itself (an integer literal then just works); the
        // rest as anything that converts.
        let itself = resolved_field.takes_itself();
        let converted = if itself {
            quote!(#field_name)
        } else {
            quote!(#field_name.into())
        };
        if let Some(argument) = resolved_field.constructor_argument() {
            arguments.push(quote!(#field_name: #argument));
        }
        match storage {
            Storage::Required => {
                initialisers.push(match (field.held, itself) {
                    (Held::Inline, true) => quote!(#field_name),
                    (held, _) => {
                        let stored = held.store(converted);
                        quote!(#field_name: #stored)
                    }
                });
            }
            Storage::RequiredNullable => {
                initialisers.push(match field.held.constructor() {
                    Some(constructor) => quote!(#field_name: #field_name.into().map(#constructor)),
                    None => quote!(#field_name: #field_name.into()),
                });
            }
            Storage::Optional | Storage::Patch => {
                let (unset, set) = if storage == Storage::Patch {
                    (quote!(rt::Patch::Unchanged), quote!(rt::Patch::Set))
                } else {
                    (quote!(None), quote!(Some))
                };
                initialisers.push(quote!(#field_name: #unset));
                let value = field.held.store(if itself {
                    quote!(value)
                } else {
                    quote!(value.into())
                });
                let argument = resolved_field.setter_argument();
                if let Some(setter) = &resolved_field.setter {
                    let setter = ident(setter);
                    let doc = format!(" Sets {}.", wire);
                    setters.push(quote! {
                        #[doc = #doc]
                        #[must_use]
                        pub fn #setter(mut self, value: #argument) -> Self {
                            self.#field_name = #set(#value);
                            self
                        }
                    });
                }
                if let Some(clearer) = &resolved_field.clearer {
                    let clearer = ident(clearer);
                    let doc = format!(" Clears {}: sends it as `null`.", wire);
                    setters.push(quote! {
                        #[doc = #doc]
                        #[must_use]
                        pub fn #clearer(mut self) -> Self {
                            self.#field_name = rt::Patch::Clear;
                            self
                        }
                    });
                }
            }
        }
    }
    let name = ident(&resolved.def.name);
    let new_doc = if arguments.is_empty() {
        " A value with every field unset.".to_owned()
    } else {
        " A value with these required fields and every optional one unset.".to_owned()
    };
    // Past clippy's default limit of seven arguments; the generated crate allows
    // `clippy::all` on its modules, but other crates may include the code with fewer allows.
    let many = (arguments.len() > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    quote! {
        impl #name {
            #[doc = #new_doc]
            #many
            pub fn #constructor(#(#arguments),*) -> Self {
                Self {
                    #(#initialisers,)*
                }
            }

            #(#setters)*
        }
    }
}

/// A field, with the serde attributes its `Serialize` derive reads (behind `mock` when only
/// the fake serializes the type).
fn emit_field(resolved: &FieldSurface<'_>, serialize: Gate) -> TokenStream {
    let field = resolved.field;
    let name = ident(&field.rust_name);
    let doc = doc_attrs(field.doc.as_deref());
    let mut serde = Vec::new();
    if field.wire_name != field.rust_name {
        let wire = &field.wire_name;
        serde.push(quote!(rename = #wire));
    }
    // Required but nullable: absence decodes as `None` too (a real capture omitted
    // `step_seconds`), and `None` is sent as `null`, as the document requires. Optional and
    // nullable in a write-only struct: absent, `null` and a value say three different things to
    // a PATCH.
    match resolved.storage {
        Storage::Required | Storage::RequiredNullable => {}
        Storage::Patch => serde.push(quote!(skip_serializing_if = "rt::Patch::is_unchanged")),
        Storage::Optional => serde.push(quote!(skip_serializing_if = "Option::is_none")),
    }
    let ty = resolved.stored_type();
    let attribute = match (serde.is_empty(), serialize) {
        (true, _) => TokenStream::new(),
        (false, Gate::Always) => quote!(#[serde(#(#serde),*)]),
        (false, Gate::Mock) => quote!(#[cfg_attr(feature = "mock", serde(#(#serde),*))]),
    };
    quote! {
        #doc
        #attribute
        pub #name: #ty,
    }
}

/// Values past which an enum takes the runtime macro's large form (see
/// `codegen/runtime/src/open_enum.rs`), in chunks of this many: a `match` of `n` string
/// literals costs rustc about `n²` to check, so a small enum keeps its readable `match` and
/// derives, and a large one is checked in time linear in its values.
const ENUM_CHUNK: usize = 128;

fn emit_enum(def: &EnumDef) -> TokenStream {
    let name = ident(&def.name);
    let doc = doc_attrs(def.doc.as_deref());
    let fallback = ident(&def.fallback);
    let variant_names: Vec<_> = def.variants.iter().map(|v| ident(&v.rust_name)).collect();
    let wires: Vec<&str> = def.variants.iter().map(|v| v.wire.as_str()).collect();
    let variant_docs = wires.iter().map(|wire| format!(" {}", code_span(wire)));
    let large = def.variants.len() > ENUM_CHUNK;
    // The large form's `Debug` and `Clone` come from the runtime: derived, each is a `match` of
    // every variant.
    let derives = if large {
        quote!(#[derive(PartialEq, Eq, Hash, PartialOrd, Ord)])
    } else {
        quote!(#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)])
    };
    let impls = if large {
        let chunks = variant_names
            .chunks(ENUM_CHUNK)
            .zip(wires.chunks(ENUM_CHUNK))
            .enumerate()
            .map(|(chunk, (names, wires))| {
                let indices = (chunk * ENUM_CHUNK..)
                    .take(names.len())
                    .map(Literal::usize_unsuffixed);
                let chunk = Literal::usize_unsuffixed(chunk);
                quote!(#chunk => [#(#indices => #names = #wires),*])
            });
        let size = Literal::usize_unsuffixed(ENUM_CHUNK);
        quote!(rt::open_enum_impls!(#name, #fallback, chunks of #size [#(#chunks),*]);)
    } else {
        quote!(rt::open_enum_impls!(#name, #fallback, [#(#variant_names = #wires),*]);)
    };
    // The definition is emitted (what users read); the impls every open enum shares (`KNOWN`,
    // `as_str`, `From`, `FromStr`, `Display`, serde by wire string) come from the runtime.
    quote! {
        #doc
        ///
        /// Open: a value this crate does not know decodes as the fallback variant, keeping its
        /// string, and encodes back to that string.
        #derives
        #[non_exhaustive]
        pub enum #name {
            #(#[doc = #variant_docs] #variant_names,)*
            /// A value not in the document this code was generated from.
            #fallback(String),
        }

        #impls
    }
}

/// An open enum of JSON values: a unit variant per listed value (its JSON text in its doc) and a
/// fallback holding any other value; its impls come from the runtime (`value_enum_impls!`).
fn emit_value_enum(def: &EnumDef) -> TokenStream {
    let name = ident(&def.name);
    let doc = doc_attrs(def.doc.as_deref());
    let fallback = ident(&def.fallback);
    let variant_names: Vec<_> = def.variants.iter().map(|v| ident(&v.rust_name)).collect();
    let wires: Vec<&str> = def.variants.iter().map(|v| v.wire.as_str()).collect();
    let variant_docs = wires.iter().map(|wire| format!(" {}", code_span(wire)));
    let indices = (0..def.variants.len()).map(Literal::usize_unsuffixed);
    let separator = def.doc.is_some().then(|| quote!(#[doc = ""]));
    quote! {
        #doc
        #separator
        /// Exactly the JSON values the document lists, compared as JSON (numbers by value,
        /// objects by their members in any order). Open: any other value decodes as the
        /// fallback variant, keeping it, and encodes back to it.
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub enum #name {
            #(#[doc = #variant_docs] #variant_names,)*
            /// A value not in the document this code was generated from.
            #fallback(::serde_json::Value),
        }

        rt::value_enum_impls!(#name, #fallback, [#(#indices => #variant_names = #wires),*]);
    }
}

fn emit_alias(def: &AliasDef) -> TokenStream {
    let name = ident(&def.name);
    let doc = doc_attrs(def.doc.as_deref());
    let ty = type_tokens(&def.ty);
    quote! {
        #doc
        pub type #name = #ty;
    }
}

/// A tag as a literal of its kind: `"eq"`, `2i64`, `true`.
fn tag_literal(kind: TagKind, tag: &str) -> TokenStream {
    match kind.wire_value(tag) {
        Some(serde_json::Value::Number(number)) if number.is_i64() => {
            let literal = Literal::i64_suffixed(number.as_i64().unwrap_or_default());
            quote!(#literal)
        }
        Some(serde_json::Value::Bool(value)) => quote!(#value),
        _ => quote!(#tag),
    }
}

/// The Rust type `tag()` gives a union's tag as, and how a payload's field holding it gives
/// that (a string or open enum by `as_str()`, an open integer enum by `value()`).
fn tag_reading(kind: TagKind) -> (TokenStream, TokenStream) {
    match kind {
        TagKind::String => (quote!(&str), quote!(as_str)),
        TagKind::Integer => (quote!(i64), quote!(value)),
        TagKind::Boolean => (quote!(bool), quote!(clone)),
    }
}

fn emit_union(def: &UnionDef, impls: SerdeImpls) -> TokenStream {
    let serialize_gate = gate_attribute(impls.serialize);
    let deserialize_gate = gate_attribute(impls.deserialize);
    let name = ident(&def.name);
    let doc = doc_attrs(def.doc.as_deref());
    let fallback = ident(&def.fallback);
    let tag_property = &def.tag_property;
    let variant_names: Vec<_> = def.variants.iter().map(|v| ident(&v.rust_name)).collect();
    let kind = def.tag_kind;
    let (tag_type, read_field) = tag_reading(kind);
    let tags: Vec<TokenStream> = def
        .variants
        .iter()
        .map(|v| tag_literal(kind, &v.tag))
        .collect();
    // Every tag a variant decodes from; the value's own tag, read from its payload's field
    // where the variant has several.
    let decoded_tags = def.variants.iter().map(|v| {
        let also = v.also.iter().map(|tag| tag_literal(kind, tag));
        let tag = tag_literal(kind, &v.tag);
        quote!(#tag #(| #also)*)
    });
    // Named, not inferred from the arms: a union may have none (every member left out).
    let read_tag = quote!(value.tag::<#tag_type>(Self::TAG_PROPERTY));
    let decode_arms = def.variants.iter().zip(decoded_tags).map(|(v, tags)| {
        let variant_name = ident(&v.rust_name);
        if v.unfit_kept {
            quote!(Some(#tags) => Ok(value.decode_or_keep().map_or_else(Self::#fallback, Self::#variant_name)),)
        } else {
            quote!(Some(#tags) => value.decode().map(Self::#variant_name),)
        }
    });
    let tag_arms = def.variants.iter().map(|v| {
        let variant_name = ident(&v.rust_name);
        match &v.tag_field {
            Some(field) => {
                let field = ident(field);
                quote!(Self::#variant_name(payload) => Some(payload.#field.#read_field()),)
            }
            None => {
                let tag = tag_literal(kind, &v.tag);
                quote!(Self::#variant_name(_) => Some(#tag),)
            }
        }
    });
    let payloads = def.variants.iter().map(|v| v.held.wrap(type_tokens(&v.ty)));
    let variant_docs = def.variants.iter().map(|v| {
        let mut spans: Vec<String> = std::iter::once(&v.tag)
            .chain(&v.also)
            .map(|tag| code_span(tag))
            .collect();
        let last = spans.pop().unwrap_or_default();
        let listed = if spans.is_empty() {
            last
        } else {
            format!("{} or {last}", spans.join(", "))
        };
        format!(" {} is {listed}.", code_span(tag_property))
    });
    let fallback_doc = format!(
        " A {} not in the document this code was generated from; keeps the whole value.",
        code_span(tag_property)
    );
    quote! {
        #doc
        ///
        /// Tagged by a property of the value itself; a tag this crate does not know decodes as the
        /// fallback variant with the value kept whole.
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub enum #name {
            #(#[doc = #variant_docs] #variant_names(#payloads),)*
            #[doc = #fallback_doc]
            #fallback(::serde_json::Value),
        }

        impl #name {
            /// The property that carries the tag.
            pub const TAG_PROPERTY: &'static str = #tag_property;

            /// The tag of this value.
            pub fn tag(&self) -> Option<#tag_type> {
                match self {
                    #(#tag_arms)*
                    Self::#fallback(value) => rt::tagged::tag_of(value, Self::TAG_PROPERTY),
                }
            }
        }

        #serialize_gate
        impl serde::Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self {
                    #(Self::#variant_names(payload) => rt::tagged::serialize(serializer, Self::TAG_PROPERTY, #tags, payload),)*
                    Self::#fallback(value) => serde::Serialize::serialize(value, serializer),
                }
            }
        }

        #deserialize_gate
        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let value = <rt::tagged::TaggedValue as serde::Deserialize>::deserialize(deserializer)?;
                match #read_tag {
                    #(#decode_arms)*
                    _ => Ok(Self::#fallback(value.into_value())),
                }
            }
        }
    }
}

/// An untagged union: serde tries the variants in order, and as each takes a JSON kind of its
/// own (an integer before a number), the first that fits is the member the value is.
fn emit_untagged(def: &UntaggedDef, impls: SerdeImpls) -> TokenStream {
    if def.variants.iter().any(|variant| variant.keys.is_some()) {
        return emit_keyed(def, impls);
    }
    if def.best_fit {
        return emit_best_fit(def, impls);
    }
    let name = ident(&def.name);
    let SerdeDerives { always, mock } = serde_derives([
        (impls.serialize, quote!(serde::Serialize)),
        (impls.deserialize, quote!(serde::Deserialize)),
    ]);
    let doc = doc_attrs(def.doc.as_deref());
    // Several strings are told apart by their formats (`ir::formats`).
    let by_format = def
        .variants
        .iter()
        .filter(|variant| variant.kind == JsonKind::String)
        .count()
        > 1;
    let variants = def.variants.iter().map(|variant| {
        let variant_name = ident(&variant.rust_name);
        let ty = variant.held.wrap(type_tokens(&variant.ty));
        let kind = kind_doc(variant, by_format);
        quote!(#[doc = #kind] #variant_name(#ty),)
    });
    let separator = def.doc.is_some().then(|| quote!(#[doc = ""]));
    let told_apart = if by_format {
        quote! {
            /// One of several kinds of JSON value, told apart by the kind and strings by their
            /// format: the variant is the member the value is.
        }
    } else {
        quote! {
            /// One of several kinds of JSON value, told apart by the kind: the variant is the member
            /// the value is.
        }
    };
    quote! {
        #doc
        #separator
        #told_apart
        #[derive(Debug, Clone, PartialEq, #always)]
        #mock
        #[serde(untagged)]
        #[non_exhaustive]
        pub enum #name {
            #(#variants)*
        }
    }
}

/// A variant's doc: the JSON it takes (strings by their format when `by_format`).
fn kind_doc(variant: &UntaggedVariant, by_format: bool) -> &'static str {
    match (variant.kind, &variant.ty) {
        (JsonKind::String, TypeRef::Timestamp) if by_format => {
            " A JSON string holding an RFC 3339 date-time."
        }
        (JsonKind::String, TypeRef::Date) if by_format => {
            " A JSON string holding an RFC 3339 full-date."
        }
        (JsonKind::Boolean, _) => " A JSON boolean.",
        (JsonKind::Integer, _) => " A JSON number without a fraction.",
        (JsonKind::Number, _) => " A JSON number.",
        (JsonKind::String, _) => " A JSON string.",
        (JsonKind::Array, _) => " A JSON array.",
        (JsonKind::Object, _) => " A JSON object.",
    }
}

/// A union no rule tells apart (`ir::best_fit`): read whole, the runtime decodes it as the
/// member that fits it best; written as the payload itself.
fn emit_best_fit(def: &UntaggedDef, impls: SerdeImpls) -> TokenStream {
    let serialize_gate = gate_attribute(impls.serialize);
    let deserialize_gate = gate_attribute(impls.deserialize);
    let name = ident(&def.name);
    let union = def.name.as_str();
    let by_format = def
        .variants
        .iter()
        .filter(|variant| variant.kind == JsonKind::String)
        .count()
        > 1;
    let variant_names: Vec<_> = def.variants.iter().map(|v| ident(&v.rust_name)).collect();
    let variant_docs: Vec<String> = def
        .variants
        .iter()
        .map(|v| kind_doc(v, by_format).to_owned())
        .collect();
    let declaration = payload_enum(
        def,
        &[
            " One of several JSON values that no tag, property, kind or format tells apart, read",
            " by best fit (after pydantic's \"smart\" unions): the value decodes as the first",
            " member, in the document's order, whose decoded value encodes back to the same JSON",
            " (an entry holding `null` counting as no entry); else as the member whose encoding",
            " keeps the most of it, the first of equals; a value no member decodes is refused.",
            " Written as the member's own JSON.",
        ],
        &variant_docs,
        &serialize_gate,
    );
    quote! {
        #declaration

        #deserialize_gate
        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                rt::best_fit::deserialize(
                    deserializer,
                    #union,
                    &[#(|json| rt::best_fit::fit(json, Self::#variant_names)),*],
                )
            }
        }
    }
}

/// A union's enum of its members' payloads, after its documentation and `what` it is, and its
/// `Serialize` (each member written as its own JSON): shared by the unions read whole (best
/// fit, keyed), whose `Deserialize` differs.
fn payload_enum(
    def: &UntaggedDef,
    what: &[&str],
    variant_docs: &[String],
    serialize_gate: &TokenStream,
) -> TokenStream {
    let name = ident(&def.name);
    let doc = doc_attrs(def.doc.as_deref());
    let separator = def.doc.is_some().then(|| quote!(#[doc = ""]));
    let variant_names: Vec<_> = def.variants.iter().map(|v| ident(&v.rust_name)).collect();
    let payloads = def.variants.iter().map(|v| v.held.wrap(type_tokens(&v.ty)));
    quote! {
        #doc
        #separator
        #(#[doc = #what])*
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub enum #name {
            #(#[doc = #variant_docs] #variant_names(#payloads),)*
        }

        #serialize_gate
        impl serde::Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self {
                    #(Self::#variant_names(payload) => serde::Serialize::serialize(payload, serializer),)*
                }
            }
        }
    }
}

/// A union of objects picked by the properties a value holds (`ir::keyed`): read whole, the
/// runtime names the member (or refuses the value), which alone decodes it; written as the
/// payload itself.
fn emit_keyed(def: &UntaggedDef, impls: SerdeImpls) -> TokenStream {
    let serialize_gate = gate_attribute(impls.serialize);
    let deserialize_gate = gate_attribute(impls.deserialize);
    let name = ident(&def.name);
    let variant_names: Vec<_> = def.variants.iter().map(|v| ident(&v.rust_name)).collect();
    let no_keys = Vec::new();
    let keys: Vec<&Vec<String>> = def
        .variants
        .iter()
        .map(|v| v.keys.as_ref().unwrap_or(&no_keys))
        .collect();
    let variant_docs: Vec<String> = keys
        .iter()
        .map(|keys| {
            if keys.is_empty() {
                " An object holding no other member's own property.".to_owned()
            } else {
                let spans: Vec<String> = keys.iter().map(|key| code_span(key)).collect();
                format!(" An object holding {}.", spans.join(" or "))
            }
        })
        .collect();
    let key_lists = keys.iter().map(|keys| {
        let keys = keys.iter().map(String::as_str);
        quote!(&[#(#keys),*])
    });
    let indices = (0..def.variants.len()).map(proc_macro2::Literal::usize_unsuffixed);
    let declaration = payload_enum(
        def,
        &[
            " One of several objects, told apart by the properties only one of them holds: the",
            " variant is the member the value is; a value holding two members' or none is refused.",
        ],
        &variant_docs,
        &serialize_gate,
    );
    quote! {
        #declaration

        #deserialize_gate
        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let value = <rt::tagged::TaggedValue as serde::Deserialize>::deserialize(deserializer)?;
                match value.member_by_keys(&[#(#key_lists),*]).map_err(serde::de::Error::custom)? {
                    #(#indices => value.decode().map(Self::#variant_names),)*
                    _ => Err(serde::de::Error::custom("no such member")),
                }
            }
        }
    }
}

/// An open integer enum; its impls come from the runtime, as a string enum's do.
fn emit_int_enum(def: &IntEnumDef) -> TokenStream {
    let name = ident(&def.name);
    let doc = doc_attrs(def.doc.as_deref());
    let fallback = ident(&def.fallback);
    let variant_names: Vec<_> = def.variants.iter().map(|v| ident(&v.rust_name)).collect();
    let values: Vec<TokenStream> = def
        .variants
        .iter()
        .map(|v| {
            let magnitude = proc_macro2::Literal::u64_unsuffixed(v.value.unsigned_abs());
            if v.value < 0 {
                quote!(-#magnitude)
            } else {
                quote!(#magnitude)
            }
        })
        .collect();
    let variant_docs = def.variants.iter().map(|v| format!(" `{}`", v.value));
    let separator = def.doc.is_some().then(|| quote!(#[doc = ""]));
    quote! {
        #doc
        #separator
        /// Open: an integer this crate does not know decodes as the fallback variant, keeping its
        /// value, and encodes back to it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum #name {
            #(#[doc = #variant_docs] #variant_names,)*
            /// A value not in the document this code was generated from.
            #fallback(i64),
        }

        rt::open_int_enum_impls!(#name, #fallback, [#(#variant_names = #values),*]);
    }
}
