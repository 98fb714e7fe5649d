//! The metrics extension: Baseten's index-mapped metrics responses and the typestate requests
//! over them, recognised by structure, never by name.
//!
//! - Every response type of the index-mapped shape ([`index_mapped`]) gets the runtime's
//!   alignment traits, in `index_mapped.rs`, and keeps `Serialize` (the metrics layer's users
//!   write responses back as JSON: the CLI's `--format json`).
//! - Every operation of the metrics shape (below) gets an entry point on `Client` (named after
//!   the resource its last path parameter identifies: `environment_metrics`) returning the
//!   runtime's `MetricsRequest` over a support struct implementing `MetricsOperation`, one type
//!   alias per mode naming its checked result, and a fake expectation named after the entry
//!   point that forwards to the operation's.
//!
//! An operation has the metrics shape when its response type is index-mapped, its path
//! parameters are strings, and its only query parameters are optional ones named `mode`,
//! `start_epoch_millis`, `end_epoch_millis` and `metrics`.

pub(crate) mod index_mapped;
mod render;

use proc_macro2::{Ident, TokenStream};

use self::index_mapped::IndexMapped;
use crate::ir::{Api, Operation, Param, ResponseKind, TypeRef};
use crate::lock::Names;
use crate::reserved::Reservations;
use crate::runtime_traits::INDEX_MAPPED_TRAITS;
use crate::surface::extension::{
    AddedExpectation, AddedFile, AddedMethod, Context, Contribution, Placeholder, SurfaceExtension,
};
use crate::surface::features::{FeatureGate, Features};
use crate::surface::listing::Line;

/// The extension, as [`super::EXTENSIONS`] lists it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Metrics;

impl SurfaceExtension for Metrics {
    fn name(&self) -> &'static str {
        "metrics"
    }

    /// The fake's metrics builders (re-exported in `mock.rs` of every crate), and the alignment
    /// traits' methods on every struct, so a setter's name never depends on whether some
    /// response is index-mapped.
    fn reserved(&self) -> Reservations {
        Reservations {
            type_names: &["BuildError", "MetricsResponseBuilder"],
            model_traits: &INDEX_MAPPED_TRAITS,
        }
    }

    fn serialized_types(&self, api: &Api) -> Vec<TypeRef> {
        index_mapped::recognise(&api.types)
            .into_iter()
            .map(|shape| TypeRef::Named(shape.response))
            .collect()
    }

    fn contribute<'a>(&self, context: &mut Context<'a, '_>) -> Box<dyn Contribution + 'a> {
        let shapes = index_mapped::recognise(&context.api.types);
        let entries = context
            .api
            .operations
            .iter()
            .filter_map(|operation| entry(operation, &shapes, context))
            .collect();
        let shapes = shapes
            .into_iter()
            .map(|shape| {
                let gate = context.features.type_gate(&shape.response);
                (shape, gate)
            })
            .collect();
        Box::new(MetricsContribution { shapes, entries })
    }
}

/// What the extension adds to one crate.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MetricsContribution<'a> {
    /// The index-mapped responses, each with its type's gate.
    shapes: Vec<(IndexMapped, FeatureGate)>,
    /// The typestate metrics requests, in operation order.
    entries: Vec<MetricsEntry<'a>>,
}

/// One operation of the metrics shape and the names its typestate request gets.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MetricsEntry<'a> {
    pub(crate) operation: &'a Operation,
    /// The `Client` method that starts the request.
    pub(crate) method: String,
    /// The struct that implements the runtime's `MetricsOperation`.
    pub(crate) operation_type: String,
    /// The response type's Rust name.
    pub(crate) response: String,
    /// The query fields the request fills.
    pub(crate) query: MetricsQueryFields,
    /// The fake's expectation for it (`on_<method>`).
    pub(crate) expectation: String,
    /// The fake's type, named after the API.
    pub(crate) fake_type: String,
    /// The operation's own expectation, which it forwards to.
    pub(crate) forwards_to: String,
    /// Scope: the support struct's field holding the client (beside one per path parameter).
    pub(crate) client_field: String,
    /// Short names of the request's checked results, one per mode.
    pub(crate) results: ModeResults,
    /// The features its items are compiled with.
    pub(crate) gate: FeatureGate,
}

/// The type aliases naming a metrics request's checked result in each mode, e.g.
/// `EnvironmentMetricsSeries` for `SeriesMetrics<GetModelMetricsResponseV1>`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ModeResults {
    pub(crate) current: String,
    pub(crate) summary: String,
    pub(crate) series: String,
}

/// The query fields a metrics operation's request fills, by their Rust names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MetricsQueryFields {
    pub(crate) mode: String,
    pub(crate) start: String,
    pub(crate) end: String,
    pub(crate) metrics: String,
}

/// `operation`'s entry point with its names claimed, when it has the metrics shape.
fn entry<'a>(
    operation: &'a Operation,
    shapes: &[IndexMapped],
    context: &mut Context<'a, '_>,
) -> Option<MetricsEntry<'a>> {
    let (response, query) = metrics_shape(operation, shapes)?;
    // The operation's own expectation, claimed with its method before any extension ran.
    let forwards_to = context
        .operations
        .iter()
        .find(|surface| std::ptr::eq(surface.operation, operation))?
        .expectation
        .clone();
    let identity = context.key(&[], operation);
    let mode_key = |mode: &str| context.key(&[&mode.to_lowercase()], operation);
    let mode_keys = ["Current", "Summary", "Series"].map(|mode| (mode, mode_key(mode)));
    let names = &mut *context.names;
    // Named after the resource its last path parameter identifies; the operation's own name
    // with `_request` when the path gives none.
    let natural = entry_name(&operation.path);
    let fallback = format!("{}_request", operation.name);
    let wanted: Vec<&str> = natural
        .iter()
        .chain([&fallback])
        .map(String::as_str)
        .collect();
    let method = names.client_methods().claim_first(&identity, &wanted);
    let camel = crate::names::to_upper_camel_case(&method);
    let operation_type = names
        .support_types()
        .claim(&identity, &format!("{camel}Operation"));
    let expectation = names
        .fake_methods()
        .claim(&identity, &format!("on_{method}"));
    let arguments = operation.path_params.iter().map(|p| p.rust_name.as_str());
    let client_field = Names::body_scope(arguments).claim("client", "client");
    let [current, summary, series] =
        mode_keys.map(|(mode, key)| names.support_types().claim(&key, &format!("{camel}{mode}")));
    let results = ModeResults {
        current,
        summary,
        series,
    };
    Some(MetricsEntry {
        operation,
        method,
        operation_type,
        response,
        query,
        expectation,
        forwards_to,
        client_field,
        results,
        gate: Features::operation_gate(operation),
        fake_type: context.api.identity.fake_type.clone(),
    })
}

/// A query parameter's wire name and the test its type must pass.
type ExpectedParam = (&'static str, fn(&TypeRef) -> bool);

/// The response type and query fields of `operation` when it has the metrics shape.
fn metrics_shape(
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
fn entry_name(path: &str) -> Option<String> {
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

impl Contribution for MetricsContribution<'_> {
    fn client_doc(&self) -> Option<&'static str> {
        Some("a typestate request per metrics operation")
    }

    fn client_items(&self) -> TokenStream {
        self.entries.iter().map(render::client_items).collect()
    }

    fn fake_methods(&self) -> TokenStream {
        self.entries.iter().map(render::fake_method).collect()
    }

    fn files(&self) -> Vec<AddedFile> {
        if self.shapes.is_empty() {
            return Vec::new();
        }
        vec![AddedFile {
            name: render::FILE,
            declaration: render::DECLARATION,
        }]
    }

    fn file(&self, file: &str, runtime: &TokenStream) -> TokenStream {
        if file == render::FILE {
            render::file(&self.shapes, runtime)
        } else {
            TokenStream::new()
        }
    }

    fn listing(&self) -> Vec<Line> {
        let impls = self
            .shapes
            .iter()
            .flat_map(|(shape, _)| render::impl_lines(shape));
        impls
            .chain(self.entries.iter().flat_map(render::listing))
            .collect()
    }

    fn methods(&self) -> Vec<AddedMethod<'_>> {
        self.entries
            .iter()
            .map(|entry| AddedMethod {
                name: &entry.method,
                operation: entry.operation,
                what: "metrics entry point",
                preferred: true,
                shape: format!(
                    "{} ids, MetricsRequest<{}> of {}",
                    entry.operation.path_params.len(),
                    entry.operation_type,
                    entry.response
                ),
            })
            .collect()
    }

    fn expectations(&self) -> Vec<AddedExpectation<'_>> {
        self.entries
            .iter()
            .map(|entry| AddedExpectation {
                name: &entry.expectation,
                operation: entry.operation,
                answer: TypeRef::Named(entry.response.clone()),
            })
            .collect()
    }

    fn probe(&self, method: &str, krate: &Ident, placeholder: Placeholder) -> TokenStream {
        self.entries
            .iter()
            .filter(|entry| entry.method == method)
            .map(|entry| render::probe(entry, krate, placeholder))
            .collect()
    }
}

#[cfg(test)]
mod tests;
