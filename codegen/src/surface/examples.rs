//! The rustdoc examples of the crate's own types (`Client`, `ClientBuilder`, the fake), part
//! of the [surface](super): whether there are any (only when the config names the generated
//! crate, since a doctest must name it) and which operation and response value they use. The
//! emitters render them and decide nothing.
//!
//! Every name an example holds is one the surface already gave (an operation's method, its
//! expectation, a type's Rust name, a parameter's Rust name), never text from the document, so an
//! example can only name items the crate defines.

use std::collections::BTreeMap;

use crate::ir::{Api, Location, Operation, ResponseKind, TypeDef, TypeRef};

use super::OperationSurface;
use super::builders::{Storage, StructSurface};

/// How deep a response value may nest structs: enough for a listing's wrapper around its items,
/// and a bound on a document whose types contain themselves.
const MAX_VALUE_DEPTH: usize = 3;

/// The examples the emitters render, when the config names the crate.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Examples<'a> {
    /// The generated crate's name as a path segment (`baseten_api`), checked by the config.
    pub(crate) crate_name: String,
    /// The fake's type (named after the API), as the examples start it.
    pub(crate) fake_type: String,
    /// The operation the `Client` and fake examples call; `None` when the document has
    /// none an example can call without inventing values, and then those examples are left out.
    pub(crate) call: Option<ExampleCall<'a>>,
    /// One call per operation an example can make (a JSON answer, and arguments each of a type
    /// with a value of its own), in the surface's order: the running example of each operation
    /// and of its expectation.
    pub(crate) calls: Vec<ExampleCall<'a>>,
}

/// One operation an example calls against the fake, and the value the fake answers with.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ExampleCall<'a> {
    pub(crate) operation: &'a Operation,
    /// The fake's expectation for it (`on_<operation>`).
    pub(crate) expectation: String,
    /// The path arguments, in order, each a placeholder string of the example's own (`"id1"`).
    pub(crate) path_values: Vec<String>,
    /// The required query arguments, in order, each the value of its type.
    pub(crate) required_query: Vec<ExampleValue>,
    /// The body argument: its value, and whether the method takes it as an `Option`.
    pub(crate) body: Option<(ExampleValue, bool)>,
    /// Whether the method takes the operation's query struct (then passed as its default).
    pub(crate) takes_query: bool,
    /// What the fake answers: a value of the operation's response type.
    pub(crate) response: ExampleValue,
}

/// A value an example writes without the document's help: the empty or zero value of its type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ExampleValue {
    /// `String::new()`
    EmptyString,
    /// `Vec::new()`
    EmptyVec,
    /// `false`
    False,
    /// `0`
    Zero,
    /// `0.0`
    ZeroFloat,
    /// `None`: a required nullable field.
    None,
    /// An empty map.
    EmptyMap,
    /// A fixed timestamp of the example's own.
    Timestamp,
    /// A fixed date of the example's own.
    Date,
    /// `Decimal::ZERO`
    DecimalZero,
    /// `models::<type_name>::<variant>`: an enum's first variant, by its Rust name.
    Variant { type_name: String, variant: String },
    /// `models::<type_name>::new(<arguments>)`: a struct from its constructor, one argument per
    /// required field.
    Struct {
        type_name: String,
        arguments: Vec<ExampleValue>,
    },
}

/// The examples for `api`, when `crate_name` is set: the first GET operation that takes no body
/// and no required query, header or cookie parameter, whose path parameters are all strings, and
/// whose JSON response can be written as an [`ExampleValue`].
pub(crate) fn examples<'a>(
    api: &'a Api,
    operations: &[OperationSurface<'a>],
    structs: &BTreeMap<String, StructSurface<'_>>,
    crate_name: Option<&str>,
) -> Option<Examples<'a>> {
    let crate_name = crate_name?.to_owned();
    let calls = operations
        .iter()
        .filter_map(|surface| any_call(api, structs, surface))
        .collect();
    let call = operations.iter().find_map(|surface| {
        let operation = surface.operation;
        let plain = operation.method == "GET"
            && operation.body.is_none()
            && operation.required_query.is_empty()
            && operation.path_params.iter().all(|param| {
                param.location == Location::Path && param.ty == TypeRef::String && !param.any_scalar
            });
        if !plain {
            return None;
        }
        let ResponseKind::Json(ty) = &operation.response else {
            return None;
        };
        let response = value_of(api, structs, ty, MAX_VALUE_DEPTH)?;
        Some(ExampleCall {
            operation,
            expectation: surface.expectation.clone(),
            path_values: (1..=operation.path_params.len())
                .map(|i| format!("id{i}"))
                .collect(),
            required_query: Vec::new(),
            body: None,
            takes_query: operation.query_type.is_some(),
            response,
        })
    });
    Some(Examples {
        crate_name,
        fake_type: api.identity.fake_type.clone(),
        call,
        calls,
    })
}

/// The call of any operation whose path parameters are strings, whose other arguments and JSON
/// answer each have a value ([`value_of`] with every scalar, enum and map), with no header or
/// cookie parameter to invent.
fn any_call<'a>(
    api: &'a Api,
    structs: &BTreeMap<String, StructSurface<'_>>,
    surface: &OperationSurface<'a>,
) -> Option<ExampleCall<'a>> {
    let operation = surface.operation;
    let strings = operation.path_params.iter().all(|param| {
        param.location == Location::Path && param.ty == TypeRef::String && !param.any_scalar
    });
    let scalar_query = operation
        .required_query
        .iter()
        .all(|param| param.location == Location::Query && !param.any_scalar);
    if !strings || !scalar_query {
        return None;
    }
    let ResponseKind::Json(ty) = &operation.response else {
        return None;
    };
    let response = value_of(api, structs, ty, MAX_VALUE_DEPTH)?;
    let required_query = operation
        .required_query
        .iter()
        .map(|param| value_of(api, structs, &param.ty, MAX_VALUE_DEPTH))
        .collect::<Option<Vec<_>>>()?;
    let body = match &operation.body {
        None => None,
        Some(body) => match &body.kind {
            crate::ir::BodyKind::Json(ty) => {
                Some((value_of(api, structs, ty, MAX_VALUE_DEPTH)?, !body.required))
            }
            _ => return None,
        },
    };
    Some(ExampleCall {
        operation,
        expectation: surface.expectation.clone(),
        path_values: (1..=operation.path_params.len())
            .map(|i| format!("id{i}"))
            .collect(),
        required_query,
        body,
        takes_query: operation.query_type.is_some(),
        response,
    })
}

/// The empty value of `ty`, if it has one an example can write: structs only when each required
/// field has one (and is neither boxed, indirect nor nullable, whose constructor arguments differ).
fn value_of(
    api: &Api,
    structs: &BTreeMap<String, StructSurface<'_>>,
    ty: &TypeRef,
    depth: usize,
) -> Option<ExampleValue> {
    match ty {
        TypeRef::String => Some(ExampleValue::EmptyString),
        TypeRef::Vec(_) => Some(ExampleValue::EmptyVec),
        TypeRef::Boolean => Some(ExampleValue::False),
        TypeRef::Integer | TypeRef::Unsigned => Some(ExampleValue::Zero),
        TypeRef::Number => Some(ExampleValue::ZeroFloat),
        TypeRef::Map(_) => Some(ExampleValue::EmptyMap),
        TypeRef::Timestamp => Some(ExampleValue::Timestamp),
        TypeRef::Date => Some(ExampleValue::Date),
        TypeRef::Decimal => Some(ExampleValue::DecimalZero),
        TypeRef::Named(name) => {
            let depth = depth.checked_sub(1)?;
            let variant = |type_name: &str, variant: &str| ExampleValue::Variant {
                type_name: type_name.to_owned(),
                variant: variant.to_owned(),
            };
            let def = match api.types.get(name)? {
                TypeDef::Struct(def) => def,
                TypeDef::Enum(def) => {
                    return Some(variant(&def.name, &def.variants.first()?.rust_name));
                }
                TypeDef::IntEnum(def) => {
                    return Some(variant(&def.name, &def.variants.first()?.rust_name));
                }
                _ => return None,
            };
            // Only a type the surface gave a constructor.
            let resolved = structs.get(name)?;
            let mut arguments = Vec::new();
            for field in &resolved.fields {
                match field.storage {
                    // A boxed or indirect field's argument is the value itself (`impl Into<T>`).
                    Storage::Required => {
                        arguments.push(value_of(api, structs, &field.field.ty, depth)?);
                    }
                    Storage::RequiredNullable => arguments.push(ExampleValue::None),
                    Storage::Optional | Storage::Patch => {}
                }
            }
            Some(ExampleValue::Struct {
                type_name: def.name.clone(),
                arguments,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    /// A document with a plain listing (the examples' call: a path string, a default query and
    /// a struct answer holding a `Vec` and a nested struct) behind a POST the examples must skip.
    const DOCUMENT: &str = "openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /v1/a_things:
    post:
      requestBody: {content: {application/json: {schema: {type: object}}}}
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Things'}}}}}
  /v1/teams/{team_id}/things:
    get:
      parameters:
        - {name: team_id, in: path, required: true, schema: {type: string}}
        - {name: name, in: query, schema: {type: string}}
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Things'}}}}}
components:
  schemas:
    Things:
      type: object
      required: [things, page]
      properties:
        things: {type: array, items: {type: string}}
        page: {$ref: '#/components/schemas/Page'}
        note: {type: string}
    Page:
      type: object
      required: [has_more]
      properties:
        has_more: {type: boolean}
";

    fn files(document: &str, config: Option<&str>) -> std::collections::BTreeMap<String, String> {
        crate::generate(&crate::Input {
            spec_path: "test.yaml",
            spec_text: document,
            config_text: config,
        })
        .unwrap_or_else(|error| panic!("{error}"))
        .files
    }

    /// The code of every example in an emitted file, one string per fenced block.
    fn examples_in(file: &str) -> Vec<String> {
        let mut blocks = Vec::new();
        let mut current: Option<String> = None;
        for line in file.lines() {
            let Some(doc) = line.trim_start().strip_prefix("///") else {
                continue;
            };
            let doc = doc.strip_prefix(' ').unwrap_or(doc);
            if doc.starts_with("```") {
                match current.take() {
                    Some(block) => blocks.push(block),
                    None => current = Some(String::new()),
                }
            } else if let Some(block) = &mut current {
                block.push_str(doc);
                block.push('\n');
            }
        }
        blocks
    }

    /// The identifiers that follow each `marker` in `code`.
    fn names_after<'c>(code: &'c str, marker: &str) -> Vec<&'c str> {
        code.match_indices(marker)
            .map(|(at, _)| {
                let rest = &code[at + marker.len()..];
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                &rest[..end]
            })
            .collect()
    }

    #[test]
    fn examples_appear_only_with_a_crate_name_and_name_what_the_crate_has() {
        let without = files(DOCUMENT, None);
        for file in ["client.rs", "mock.rs"] {
            assert_eq!(examples_in(&without[file]), Vec::<String>::new(), "{file}");
        }

        let with = files(DOCUMENT, Some("crate_name: my_api\n"));
        let client = examples_in(&with["client.rs"]);
        let fake = examples_in(&with["mock.rs"]);
        // `ClientBuilder`, `Client`, one per operation and `Client::request` in `client.rs`;
        // `FakeBaseten` and one per expectation in `mock.rs`.
        assert_eq!((client.len(), fake.len()), (5, 3), "{client:?} {fake:?}");
        // Each operation runs on both pages, the POST with its (optional) body.
        for page in [&client[2..4], &fake[1..3]] {
            assert!(
                page[0].contains("fake.client()?.get_team_things(\"id1\", &Default::default())")
            );
            assert!(
                page[1].contains("fake.on_post_a_things().respond(&expected)"),
                "{}",
                page[1]
            );
            assert!(page[1].contains(".post_a_things(Some(&std::collections::BTreeMap::new()))"));
        }
        let fetching: Vec<&String> = [&client[1], &fake[0]]
            .into_iter()
            .chain(&client[2..4])
            .chain(&fake[1..3])
            .collect();
        for code in &fetching {
            // The GET, not the POST before it; with its path argument and the default query.
            assert!(
                code.contains(".get_team_things(\"id1\", &Default::default()).await?")
                    || code.contains(".post_a_things("),
                "{code}"
            );
            assert!(code.contains("tokio::main"), "{code}");
            assert!(code.contains("my_api::"), "{code}");
            for expectation in names_after(code, "fake.") {
                if expectation.starts_with("on_") {
                    assert!(
                        with["mock.rs"].contains(&format!("pub fn {expectation}(")),
                        "{expectation}"
                    );
                }
            }
            for method in names_after(code, "client.") {
                assert!(
                    with["operations.rs"].contains(&format!("pub async fn {method}(")),
                    "{method}"
                );
            }
            let models = names_after(code, "my_api::models::");
            assert!(!models.is_empty(), "{code}");
            for model in models {
                assert!(
                    with["models.rs"].contains(&format!("pub struct {model} ")),
                    "{model}"
                );
            }
        }
        // The `Client` example needs the fake, so it compiles to nothing without `mock`.
        assert!(
            client[1].contains("#[cfg(feature = \"mock\")]"),
            "{}",
            client[1]
        );
        assert!(client[0].contains(".retry_policy("), "{}", client[0]);
    }

    #[test]
    fn an_operation_with_a_required_argument_runs_only_among_the_operations() {
        // Its only GET needs a required query argument: the `Client` example (the first plain
        // call) has none, the examples of each operation give it the empty string.
        let document = "openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /v1/things:
    get:
      parameters:
        - {name: q, in: query, required: true, schema: {type: string}}
      responses: {'200': {description: ok, content: {application/json: {schema: {type: string}}}}}
";
        let with = files(document, Some("crate_name: my_api\n"));
        // The builder's, `Client::request`'s, and the operation's own, with its required
        // argument as the empty string of its type.
        let client = examples_in(&with["client.rs"]);
        assert_eq!(client.len(), 3, "{client:?}");
        let fake = examples_in(&with["mock.rs"]);
        assert_eq!(fake.len(), 1, "{fake:?}");
        assert!(fake[0].contains(".get_things(\"\").await?"), "{}", fake[0]);
    }

    #[test]
    fn a_crate_name_must_be_an_identifier() {
        for name in ["my-api", "fn", "'x'", "a::b"] {
            let config = format!("crate_name: {name:?}\n");
            assert!(crate::Config::parse(&config).is_err(), "{name}");
        }
        assert!(crate::Config::parse("crate_name: my_api\n").is_ok());
    }
}
