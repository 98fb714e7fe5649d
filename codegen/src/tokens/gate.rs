//! Puts one attribute (a type's or an operation's feature gate) on every item of a run of
//! emitted items: a type is a struct and its impls, and each of them must be compiled with the
//! same features.

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// `attribute` before every item of `items`. An item ends at a top-level `;` or at a top-level
/// brace group (and the `;` right after one): the shapes the emitters write (structs, enums,
/// impls, type aliases, macro invocations). Document text never reaches here as tokens other
/// than literals, so it cannot move a boundary.
pub(crate) fn gate_items(attribute: &TokenStream, items: TokenStream) -> TokenStream {
    if attribute.is_empty() {
        return items;
    }
    let trees: Vec<TokenTree> = items.into_iter().collect();
    let mut out = TokenStream::new();
    let mut index = 0;
    while index < trees.len() {
        // The item's doc comment first, as a reader expects it; then the gate.
        while is_doc_attribute(&trees[index..]) {
            out.extend(trees[index..index + 2].iter().cloned());
            index += 2;
        }
        out.extend(attribute.clone());
        while let Some(tree) = trees.get(index) {
            index += 1;
            out.extend([tree.clone()]);
            match tree {
                TokenTree::Punct(p) if p.as_char() == ';' => break,
                TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                    // `const _: T = { .. };`: the `;` belongs to the item the brace ended.
                    if let Some(TokenTree::Punct(p)) = trees.get(index)
                        && p.as_char() == ';'
                    {
                        out.extend([trees[index].clone()]);
                        index += 1;
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    out
}

/// Whether `trees` starts with `#[doc = ..]`.
fn is_doc_attribute(trees: &[TokenTree]) -> bool {
    match trees {
        [TokenTree::Punct(hash), TokenTree::Group(group), ..] => {
            hash.as_char() == '#'
                && group.delimiter() == Delimiter::Bracket
                && matches!(group.stream().into_iter().next(), Some(TokenTree::Ident(i)) if i == "doc")
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;

    #[test]
    fn every_item_gets_the_attribute_once() {
        let attribute = quote!(#[cfg(feature = "a")]);
        let items = quote! {
            #[doc = "x { ; }"]
            #[derive(Debug)]
            pub struct A { pub b: [u8; 2] }
            impl A { fn c(&self) -> u8 { 1 } }
            pub struct D(pub u8);
            pub type E = Vec<A>;
            const _: () = { };
            rt::open_enum! { F { G = "g" } }
        };
        let gated = gate_items(&attribute, items).to_string();
        let expected = quote! {
            #[doc = "x { ; }"]
            #[cfg(feature = "a")]
            #[derive(Debug)]
            pub struct A { pub b: [u8; 2] }
            #[cfg(feature = "a")]
            impl A { fn c(&self) -> u8 { 1 } }
            #[cfg(feature = "a")]
            pub struct D(pub u8);
            #[cfg(feature = "a")]
            pub type E = Vec<A>;
            #[cfg(feature = "a")]
            const _: () = { };
            #[cfg(feature = "a")]
            rt::open_enum! { F { G = "g" } }
        };
        assert_eq!(gated, expected.to_string());
        assert!(syn::parse_str::<syn::File>(&gated).is_ok());
    }

    #[test]
    fn no_attribute_changes_nothing() {
        let items = quote!(
            pub struct A;
        );
        assert_eq!(
            gate_items(&TokenStream::new(), items.clone()).to_string(),
            items.to_string()
        );
        assert!(gate_items(&quote!(#[cfg(x)]), TokenStream::new()).is_empty());
    }
}
