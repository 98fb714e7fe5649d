//! The shape the page-streams extension recognises: cursor-paginated operations (`_pages` /
//! `_items` streams), recognised once by structure, never by name.
//!
//! An operation is cursor-paginated when its query takes a `cursor` string, it has no body, no
//! required query parameter and only string path parameters, and its response has exactly one
//! list of items and a cursor / has-more pair (on itself or on one struct field, e.g.
//! `pagination`).

use crate::ir::{Api, Field, Operation, Param, ResponseKind, StructDef, TypeDef, TypeRef};

fn all_strings(params: &[Param]) -> bool {
    params.iter().all(|p| p.ty == TypeRef::String)
}

/// Where a cursor-paginated operation keeps its cursor, items and has-more flag.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pagination {
    /// The query struct's cursor field.
    pub(crate) cursor_param: String,
    /// The response's list field and its item type.
    pub(crate) items_field: String,
    pub(crate) item: TypeRef,
    /// The field holding the cursor / has-more pair, `None` when the response holds them.
    pub(crate) info_field: Option<String>,
    pub(crate) cursor_field: String,
    pub(crate) has_more_field: String,
}

/// The pagination of `operation`, when it is cursor-paginated.
pub(crate) fn pagination(api: &Api, operation: &Operation) -> Option<Pagination> {
    let find = |name: &str| match api.types.get(name) {
        Some(TypeDef::Struct(def)) => Some(def),
        _ => None,
    };
    let info = |def: &StructDef| {
        let cursor = def.fields.iter().find(|f| {
            f.wire_name == "cursor" && f.ty == TypeRef::String && (f.nullable || !f.required)
        })?;
        let has_more = def.fields.iter().find(|f| {
            f.wire_name == "has_more" && f.ty == TypeRef::Boolean && f.required && !f.nullable
        })?;
        Some((cursor.rust_name.clone(), has_more.rust_name.clone()))
    };
    let plain = |f: &&Field| f.required && !f.nullable;
    let ResponseKind::Json(TypeRef::Named(response)) = &operation.response else {
        return None;
    };
    let cursor_param = operation
        .optional_query
        .iter()
        .find(|p| p.wire_name == "cursor" && p.ty == TypeRef::String)?;
    if operation.body.is_some()
        || !operation.required_query.is_empty()
        || !all_strings(&operation.path_params)
    {
        return None;
    }
    let def = find(response)?;
    let (info_field, (cursor_field, has_more_field)) = match info(def) {
        Some(pair) => (None, pair),
        None => def
            .fields
            .iter()
            .filter(plain)
            .find_map(|field| match &field.ty {
                TypeRef::Named(name) => Some((Some(field.rust_name.clone()), info(find(name)?)?)),
                _ => None,
            })?,
    };
    let mut lists = def.fields.iter().filter(plain).filter_map(|f| match &f.ty {
        TypeRef::Vec(item) => Some((f.rust_name.clone(), (**item).clone())),
        _ => None,
    });
    let (items_field, item) = lists.next()?;
    if lists.next().is_some() {
        return None;
    }
    Some(Pagination {
        cursor_param: cursor_param.rust_name.clone(),
        items_field,
        item,
        info_field,
        cursor_field,
        has_more_field,
    })
}
