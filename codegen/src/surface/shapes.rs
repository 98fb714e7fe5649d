//! The operation shapes the crate gives more than a method: metrics operations (a typestate
//! request over an index-mapped response) and cursor-paginated ones (`_pages` / `_items`
//! streams), each recognised once by structure, never by name.
//!
//! An operation has the metrics shape when its response type is index-mapped (see
//! [`crate::index_mapped`]), its path parameters are strings, and its only query parameters are
//! optional ones named `mode`, `start_epoch_millis`, `end_epoch_millis` and `metrics`.
//!
//! An operation is cursor-paginated when its query takes a `cursor` string, it has no body, no
//! required query parameter and only string path parameters, and its response has exactly one
//! list of items and a cursor / has-more pair (on itself or on one struct field, e.g.
//! `pagination`).

use crate::index_mapped::IndexMapped;
use crate::ir::{Api, Field, Operation, Param, ResponseKind, StructDef, TypeDef, TypeRef};

/// The query fields a metrics operation's request fills, by their Rust names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MetricsQueryFields {
    pub(crate) mode: String,
    pub(crate) start: String,
    pub(crate) end: String,
    pub(crate) metrics: String,
}

/// A query parameter's wire name and the test its type must pass.
type ExpectedParam = (&'static str, fn(&TypeRef) -> bool);

/// The response type and query fields of `operation` when it has the metrics shape.
pub(crate) fn metrics_shape(
    operation: &Operation,
    shapes: &[IndexMapped],
) -> Option<(String, MetricsQueryFields)> {
    let ResponseKind::Json(TypeRef::Named(response)) = &operation.response else {
        return None;
    };
    if !shapes.iter().any(|shape| shape.response == *response) {
        return None;
    }
    let expected: [ExpectedParam; 4] = [
        ("mode", |ty| {
            matches!(ty, TypeRef::Named(_) | TypeRef::String)
        }),
        ("start_epoch_millis", |ty| *ty == TypeRef::Integer),
        ("end_epoch_millis", |ty| *ty == TypeRef::Integer),
        ("metrics", |ty| {
            *ty == TypeRef::Vec(Box::new(TypeRef::String))
        }),
    ];
    let fits = operation.required_query.is_empty()
        && operation.body.is_none()
        && operation.query_type.is_some()
        && all_strings(&operation.path_params)
        && operation.optional_query.len() == expected.len();
    if !fits {
        return None;
    }
    let field = |(wire, fits): &ExpectedParam| {
        operation
            .optional_query
            .iter()
            .find(|param| param.wire_name == *wire && fits(&param.ty))
            .map(|param| param.rust_name.clone())
    };
    let [mode, start, end, metrics] = &expected;
    Some((
        response.clone(),
        MetricsQueryFields {
            mode: field(mode)?,
            start: field(start)?,
            end: field(end)?,
            metrics: field(metrics)?,
        },
    ))
}

fn all_strings(params: &[Param]) -> bool {
    params.iter().all(|p| p.ty == TypeRef::String)
}

/// `environment_metrics` for `/v1/models/{model_id}/environments/{env_name}/metrics`: the static
/// segment before the last parameter, singular, then the last static segment.
pub(crate) fn entry_name(path: &str) -> Option<String> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let last = segments.last()?;
    if last.starts_with('{') {
        return None;
    }
    let parameter_at = segments.iter().rposition(|s| s.starts_with('{'))?;
    let resource = segments.get(parameter_at.checked_sub(1)?)?;
    if resource.starts_with('{') {
        return None;
    }
    let resource = crate::names::operation_name("x", &format!("/{resource}/{{id}}"));
    let resource = resource.strip_prefix("x_")?;
    let name = format!("{resource}_{}", crate::names::snake_ident(last));
    crate::names::is_valid_snake_ident(&name).then_some(name)
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
