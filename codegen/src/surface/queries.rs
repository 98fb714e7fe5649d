//! Each operation's query struct resolved once, part of the [surface](super): every field's
//! storage, its setter's name, what the setter takes and how it fills the field. The emitter
//! (`emit/operations.rs`), the listing and the compile probe read this and decide nothing (the
//! listing once said `impl Into<i64>` where the setter takes an `i64`).

use proc_macro2::TokenStream;
use quote::quote;

use super::builders::{query_setters, takes_itself};
use crate::ir::{Operation, Param, TypeRef};
use crate::tokens::type_tokens;

/// The optional query parameters of one operation, as the struct `Client`'s method takes them
/// (`Default` + one setter per field; unset fields are not sent).
#[derive(Debug, Clone)]
pub(crate) struct QueryStruct<'a> {
    /// The struct's name (`GetModelsQuery`).
    pub(crate) name: String,
    /// In the parameters' order.
    pub(crate) fields: Vec<QueryField<'a>>,
}

/// One field of a [`QueryStruct`] and its setter.
#[derive(Debug, Clone)]
pub(crate) struct QueryField<'a> {
    pub(crate) param: &'a Param,
    /// The setter's name: the field's, or `set_<name>` where that would shadow a common method.
    pub(crate) setter: String,
    pub(crate) takes: QueryArgument,
}

/// What a query setter takes, which decides how it fills its field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum QueryArgument {
    /// An array: any iterable of values convertible to the element (`values: I` where
    /// `I: IntoIterator, I::Item: Into<T>`), collected.
    Each,
    /// A union of scalars: anything `Display`, kept as its text.
    Shown,
    /// A number or boolean as itself, so an integer literal just works.
    Itself,
    /// Anything `Into` the field's type.
    Into,
}

impl<'a> QueryStruct<'a> {
    /// The query struct of `operation`, if it has optional query parameters.
    pub(crate) fn of(operation: &'a Operation) -> Option<Self> {
        let name = operation.query_type.clone()?;
        let setters = query_setters(&operation.optional_query);
        let fields = operation
            .optional_query
            .iter()
            .zip(setters)
            .map(|(param, setter)| QueryField {
                param,
                setter,
                takes: match &param.ty {
                    TypeRef::Vec(_) => QueryArgument::Each,
                    _ if param.any_scalar => QueryArgument::Shown,
                    scalar if takes_itself(scalar) => QueryArgument::Itself,
                    _ => QueryArgument::Into,
                },
            })
            .collect();
        Some(QueryStruct { name, fields })
    }

    /// The struct's rustdoc.
    pub(crate) fn doc(&self, method: &str) -> String {
        format!(" Optional query parameters of [`Client::{method}`]; unset ones are not sent.")
    }
}

impl QueryField<'_> {
    /// The field's type: an array as itself (empty is unset), anything else in an `Option`.
    pub(crate) fn stored_type(&self) -> TokenStream {
        let ty = type_tokens(&self.param.ty);
        match self.takes {
            QueryArgument::Each => ty,
            QueryArgument::Shown | QueryArgument::Itself | QueryArgument::Into => {
                quote!(Option<#ty>)
            }
        }
    }

    /// The setter argument's name.
    pub(crate) fn argument_name(&self) -> &'static str {
        match self.takes {
            QueryArgument::Each => "values",
            QueryArgument::Shown | QueryArgument::Itself | QueryArgument::Into => "value",
        }
    }

    /// The type the setter takes, as an argument position would write it (an array's generic
    /// `I` written as the `impl` type it stands for).
    pub(crate) fn argument(&self) -> TokenStream {
        match (self.takes, &self.param.ty) {
            (QueryArgument::Each, TypeRef::Vec(element)) => {
                let element = type_tokens(element);
                quote!(impl IntoIterator<Item: Into<#element>>)
            }
            (QueryArgument::Shown, _) => quote!(impl ::std::fmt::Display),
            (QueryArgument::Itself, scalar) => type_tokens(scalar),
            (_, other) => {
                let ty = type_tokens(other);
                quote!(impl Into<#ty>)
            }
        }
    }

    /// The setter's type when it takes an array: the element the values convert into.
    pub(crate) fn element(&self) -> Option<TokenStream> {
        match &self.param.ty {
            TypeRef::Vec(element) if self.takes == QueryArgument::Each => {
                Some(type_tokens(element))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::listing::compact;

    fn operation(document_params: &str) -> crate::Output {
        let document = format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths:\n  /v1/things:\n    get:\n      \
             parameters:\n{document_params}      responses: {{'200': {{description: ok}}}}\n"
        );
        crate::generate(&crate::Input {
            spec_path: "t.yaml",
            spec_text: &document,
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{error}"))
    }

    /// Each kind of parameter resolves to its own storage and argument, and the listing says
    /// exactly that.
    #[test]
    fn each_parameter_kind_has_its_storage_and_argument() {
        let output = operation(
            "      - {name: limit, in: query, schema: {type: integer}}\n      \
             - {name: on, in: query, schema: {type: boolean}}\n      \
             - {name: name, in: query, schema: {type: string}}\n      \
             - {name: tags, in: query, schema: {type: array, items: {type: string}}}\n      \
             - {name: either, in: query, schema: {anyOf: [{type: string}, {type: integer}]}}\n",
        );
        let listed = crate::surface::listing::parse(&output.api_snapshot);
        for (key, signature) in [
            (
                "fn operations::GetThingsQuery::limit",
                "(self, value: i64) -> Self",
            ),
            (
                "fn operations::GetThingsQuery::on",
                "(self, value: bool) -> Self",
            ),
            (
                "fn operations::GetThingsQuery::name",
                "(self, value: impl Into<String>) -> Self",
            ),
            (
                "fn operations::GetThingsQuery::tags",
                "(self, values: impl IntoIterator<Item: Into<String>>) -> Self",
            ),
            ("field operations::GetThingsQuery::tags", "Vec<String>"),
            ("field operations::GetThingsQuery::limit", "Option<i64>"),
        ] {
            assert_eq!(
                listed.get(key).map(ToString::to_string).as_deref(),
                Some(signature),
                "{key}\n{}",
                output.api_snapshot
            );
        }
        // The struct's doc names the method it is for.
        assert!(
            output.files["operations.rs"].contains(
                "/// Optional query parameters of [`Client::get_things`]; unset ones are not sent."
            ),
            "{}",
            output.files["operations.rs"]
        );
        let either = listed
            .get("fn operations::GetThingsQuery::either")
            .map(ToString::to_string);
        assert_eq!(
            either.as_deref(),
            Some("(self, value: impl Display) -> Self"),
            "{}",
            output.api_snapshot
        );
    }

    #[test]
    fn an_array_names_its_element_and_others_none() {
        let param = |ty: TypeRef, any_scalar: bool| Param {
            location: crate::ir::Location::Query,
            wire_name: "p".to_owned(),
            rust_name: "p".to_owned(),
            doc: None,
            ty,
            any_scalar,
            style: crate::ir::ParamStyle::Form,
            explode: true,
            allow_reserved: false,
            secret: false,
        };
        let tags = param(TypeRef::Vec(Box::new(TypeRef::String)), false);
        let field = QueryField {
            param: &tags,
            setter: "tags".to_owned(),
            takes: QueryArgument::Each,
        };
        assert_eq!(field.element().map(compact).as_deref(), Some("String"));
        assert_eq!(field.argument_name(), "values");
        // Only a setter that takes each value names an element.
        let taken_whole = QueryField {
            takes: QueryArgument::Into,
            ..field.clone()
        };
        assert_eq!(taken_whole.element().map(compact), None);
        let count = param(TypeRef::Integer, false);
        let field = QueryField {
            param: &count,
            setter: "count".to_owned(),
            takes: QueryArgument::Itself,
        };
        assert_eq!(field.element().map(compact), None);
        assert_eq!(field.argument_name(), "value");
        assert_eq!(compact(field.stored_type()), "Option<i64>");
    }
}
