//! Token primitives shared by the emitters and the compile probe: identifiers, type uses and
//! argument types, spelled exactly as the generated crate spells them.

pub(crate) mod doc_text;
pub(crate) mod gate;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::ir::{Held, Param, TypeRef};

/// The IR's names are identifiers already; passing them through the one gate again means no
/// name can make `Ident::new` panic, whatever built it.
pub(crate) fn ident(name: &str) -> Ident {
    if crate::names::is_rust_ident(name) {
        // The common case: no copy through the gate (every emitted name comes here).
        return Ident::new(name, Span::call_site());
    }
    Ident::new(&crate::names::rust_ident(name), Span::call_site())
}

/// The Rust spelling of a type use.
pub(crate) fn type_tokens(ty: &TypeRef) -> TokenStream {
    match ty {
        TypeRef::String => quote!(String),
        TypeRef::Integer => quote!(i64),
        TypeRef::Unsigned => quote!(u64),
        TypeRef::Number => quote!(f64),
        TypeRef::Boolean => quote!(bool),
        TypeRef::Decimal => quote!(rt::Decimal),
        TypeRef::Timestamp => quote!(rt::jiff::Timestamp),
        TypeRef::Date => quote!(rt::jiff::civil::Date),
        TypeRef::Json => quote!(::serde_json::Value),
        TypeRef::Bytes => quote!(rt::Binary),
        TypeRef::Named(name) => {
            let name = ident(name);
            quote!(#name)
        }
        TypeRef::Vec(inner) => {
            let inner = type_tokens(inner);
            quote!(Vec<#inner>)
        }
        TypeRef::Map(inner) => {
            let inner = type_tokens(inner);
            quote!(BTreeMap<String, #inner>)
        }
        TypeRef::Option(inner) => {
            let inner = type_tokens(inner);
            quote!(Option<#inner>)
        }
        TypeRef::Indirect(inner) => {
            let inner = type_tokens(inner);
            quote!(rt::Indirect<#inner>)
        }
    }
}

/// The tokens of how a field or variant holds its value.
impl Held {
    /// `ty` as stored: `Box<ty>`, `rt::Indirect<ty>` or itself.
    pub(crate) fn wrap(self, ty: TokenStream) -> TokenStream {
        match self {
            Held::Inline => ty,
            Held::Boxed => quote!(Box<#ty>),
            Held::Indirect => quote!(rt::Indirect<#ty>),
        }
    }

    /// The expression that stores `value`, which has the field's own type.
    pub(crate) fn store(self, value: TokenStream) -> TokenStream {
        match self {
            Held::Inline => value,
            Held::Boxed => quote!(Box::new(#value)),
            Held::Indirect => quote!(rt::Indirect::new(#value)),
        }
    }

    /// The constructor `Option::map` applies, `None` for a value stored as it is.
    pub(crate) fn constructor(self) -> Option<TokenStream> {
        match self {
            Held::Inline => None,
            Held::Boxed => Some(quote!(Box::new)),
            Held::Indirect => Some(quote!(rt::Indirect::new)),
        }
    }
}

/// The type a method takes a path or required query parameter as (the compile probe passes
/// exactly this).
pub(crate) fn argument_type(param: &Param) -> TokenStream {
    if param.any_scalar {
        return quote!(impl ::std::fmt::Display);
    }
    match &param.ty {
        TypeRef::String => quote!(&str),
        // Small `Copy` values: taken by value.
        TypeRef::Integer
        | TypeRef::Unsigned
        | TypeRef::Number
        | TypeRef::Boolean
        | TypeRef::Decimal
        | TypeRef::Timestamp
        | TypeRef::Date => type_tokens(&param.ty),
        TypeRef::Vec(element) => {
            let element = type_tokens(element);
            quote!(&[#element])
        }
        other => {
            let other = type_tokens(other);
            quote!(&#other)
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use crate::ir::Held;

    #[test]
    fn each_holding_spells_its_type_its_store_and_its_constructor() {
        let spelled = |held: Held| {
            (
                held.wrap(quote!(T)).to_string(),
                held.store(quote!(v)).to_string(),
                held.constructor().map(|tokens| tokens.to_string()),
            )
        };
        assert_eq!(spelled(Held::Inline), ("T".into(), "v".into(), None));
        assert_eq!(
            spelled(Held::Boxed),
            (
                "Box < T >".into(),
                "Box :: new (v)".into(),
                Some("Box :: new".into())
            )
        );
        assert_eq!(
            spelled(Held::Indirect),
            (
                "rt :: Indirect < T >".into(),
                "rt :: Indirect :: new (v)".into(),
                Some("rt :: Indirect :: new".into())
            )
        );
    }
}
