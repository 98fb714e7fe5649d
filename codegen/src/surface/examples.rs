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
    /// The same answer built the way a test builds it (`Type::builder()`, feature `mock`), for
    /// the operation's own example; `None` when a struct it holds has no test builder.
    pub(crate) answer: Option<ExampleValue>,
    /// A field of [`answer`](Self::answer) the example reads back: its Rust name and its value.
    pub(crate) holds: Option<(String, ExampleValue)>,
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
    /// `models::<type_name>::builder().<setter>(<value>)….build()?`: a struct as a test builds
    /// it (feature `mock`), one setter per required field.
    Built {
        type_name: String,
        setters: Vec<(String, ExampleValue)>,
    },
    /// A string of the example's own: the Rust name of the field it is set on (an identifier
    /// the generator made, never document text).
    Text(String),
    /// `1`
    One,
    /// `1.5`
    OneAndAHalf,
    /// `true`
    True,
}

/// The examples for `api`, when `crate_name` is set: the first GET operation that takes no body
/// and no required query, header or cookie parameter, whose path parameters are all strings, and
/// whose JSON response can be written as an [`ExampleValue`].
pub(crate) fn examples<'a>(
    api: &'a Api,
    operations: &[OperationSurface<'a>],
    structs: &BTreeMap<String, StructSurface<'_>>,
    has_test_builder: &dyn Fn(&str) -> bool,
    crate_name: Option<&str>,
) -> Option<Examples<'a>> {
    let crate_name = crate_name?.to_owned();
    let built = Built {
        api,
        structs,
        has_test_builder,
    };
    let calls = operations
        .iter()
        .filter_map(|surface| any_call(api, structs, &built, surface))
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
            path_values: path_values(operation),
            required_query: Vec::new(),
            body: None,
            takes_query: operation.query_type.is_some(),
            response,
            answer: None,
            holds: None,
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
    built: &Built<'_>,
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
    let answer = built.value_of(ty, "value", MAX_VALUE_DEPTH);
    let holds = answer.as_ref().and_then(held_field);
    Some(ExampleCall {
        operation,
        expectation: surface.expectation.clone(),
        path_values: path_values(operation),
        required_query,
        body,
        takes_query: operation.query_type.is_some(),
        response,
        answer,
        holds,
    })
}

/// The path arguments of an example: each parameter's own Rust name as its value
/// (`get_model("model_id")`), which reads as what goes there.
fn path_values(operation: &Operation) -> Vec<String> {
    operation
        .path_params
        .iter()
        .map(|param| plain_name(&param.rust_name))
        .collect()
}

/// A Rust name without the marks that keep it apart from keywords (`r#type`, `type_`).
fn plain_name(rust_name: &str) -> String {
    let name = rust_name.strip_prefix("r#").unwrap_or(rust_name);
    let name = name.trim_end_matches('_');
    if name.is_empty() { "value" } else { name }.to_owned()
}

/// The first field of a built answer whose value reads back as a literal (a string, a number, a
/// boolean): what an example asserts the answer holds.
fn held_field(answer: &ExampleValue) -> Option<(String, ExampleValue)> {
    let ExampleValue::Built { setters, .. } = answer else {
        return None;
    };
    setters.iter().find_map(|(field, value)| {
        matches!(
            value,
            ExampleValue::Text(_)
                | ExampleValue::One
                | ExampleValue::OneAndAHalf
                | ExampleValue::True
        )
        .then(|| (field.clone(), value.clone()))
    })
}

/// Test values as a test builds them: structs through their test builders (feature `mock`),
/// with a value of the example's own for each required field.
struct Built<'a> {
    api: &'a Api,
    structs: &'a BTreeMap<String, StructSurface<'a>>,
    has_test_builder: &'a dyn Fn(&str) -> bool,
}

impl Built<'_> {
    /// The value of `ty` set on a field named `label`; `None` when a struct it holds has no
    /// test builder, or the value nests deeper than `depth` structs.
    fn value_of(&self, ty: &TypeRef, label: &str, depth: usize) -> Option<ExampleValue> {
        match ty {
            TypeRef::String => Some(ExampleValue::Text(plain_name(label))),
            TypeRef::Boolean => Some(ExampleValue::True),
            TypeRef::Integer | TypeRef::Unsigned => Some(ExampleValue::One),
            TypeRef::Number => Some(ExampleValue::OneAndAHalf),
            TypeRef::Named(name) => {
                let def = match self.api.types.get(name)? {
                    TypeDef::Struct(def) => def,
                    _ => return value_of(self.api, self.structs, ty, depth),
                };
                let depth = depth.checked_sub(1)?;
                if !(self.has_test_builder)(&def.name) {
                    return None;
                }
                let resolved = self.structs.get(name)?;
                let mut setters = Vec::new();
                for field in &resolved.fields {
                    // A required nullable field left out reads as `None`; optional ones too.
                    if field.storage == Storage::Required {
                        let rust_name = &field.field.rust_name;
                        let value = self.value_of(&field.field.ty, rust_name, depth)?;
                        setters.push((rust_name.clone(), value));
                    }
                }
                Some(ExampleValue::Built {
                    type_name: def.name.clone(),
                    setters,
                })
            }
            _ => value_of(self.api, self.structs, ty, depth),
        }
    }
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
                TypeDef::Enum(def) | TypeDef::ValueEnum(def) => {
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
        for file in ["client.rs", "mock.rs", "operations.rs"] {
            assert_eq!(examples_in(&without[file]), Vec::<String>::new(), "{file}");
        }

        let with = files(DOCUMENT, Some("crate_name: my_api\n"));
        let client = examples_in(&with["client.rs"]);
        let fake = examples_in(&with["mock.rs"]);
        let methods = examples_in(&with["operations.rs"]);
        // `ClientBuilder`, `Client` and `Client::request` in `client.rs`; `FakeBaseten` in
        // `mock.rs`; each operation's own on its method, in the document's order.
        assert_eq!(
            (client.len(), fake.len(), methods.len()),
            (3, 1, 2),
            "{client:?} {fake:?} {methods:?}"
        );
        // The POST with its (optional) body; its answer built as a test builds it.
        let (post, get) = if methods[0].contains("post_a_things") {
            (&methods[0], &methods[1])
        } else {
            (&methods[1], &methods[0])
        };
        assert!(
            post.contains("fake.on_post_a_things().respond(&expected)"),
            "{post}"
        );
        assert!(post.contains(".post_a_things(Some(&std::collections::BTreeMap::new()))"));
        // The GET with its path argument named for what goes there, and the default query.
        assert!(
            get.contains("client.get_team_things(\"team_id\", &Default::default())"),
            "{get}"
        );
        for answer in &methods {
            assert!(
                answer.contains(
                    "my_api::models::Things::builder()\n    .things(Vec::new())\n    \
                     .page(my_api::models::Page::builder().has_more(true).build()?)\n    \
                     .build()?;"
                ),
                "{answer}"
            );
            // No model from a positional constructor.
            assert!(
                !answer
                    .lines()
                    .any(|line| line.contains("my_api::models::") && line.contains("::new(")),
                "{answer}"
            );
        }
        let fetching: Vec<&String> = [&client[1], &fake[0]].into_iter().chain(&methods).collect();
        for code in &fetching {
            assert!(
                code.contains(".get_team_things(\"") || code.contains(".post_a_things("),
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
        // The examples a page without `mock` shows need the fake: they compile to nothing there.
        for code in [&client[1], &methods[0], &methods[1]] {
            assert!(code.contains("#[cfg(feature = \"mock\")]"), "{code}");
        }
        assert!(client[0].contains(".retry_policy("), "{}", client[0]);
    }

    #[test]
    fn an_answer_reads_back_its_first_literal_field() {
        let document = "openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /v1/things/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}}
  /v1/flags:
    get:
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Flag'}}}}}
  /v1/counts:
    get:
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Count'}}}}}
  /v1/ratios:
    get:
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Ratio'}}}}}
components:
  schemas:
    Thing:
      type: object
      required: [tags, type, label]
      properties:
        tags: {type: array, items: {type: string}}
        type: {type: string}
        label: {type: [string, 'null']}
        note: {type: string}
    Flag: {type: object, required: [on], properties: {on: {type: boolean}}}
    Count: {type: object, required: [n], properties: {n: {type: integer}}}
    Ratio: {type: object, required: [r], properties: {r: {type: number}}}
";
        let with = files(document, Some("crate_name: my_api\n"));
        let methods = examples_in(&with["operations.rs"]);
        assert_eq!(methods.len(), 4, "{methods:?}");
        let code = methods.join("\n");
        // A keyword field's setter and value use its Rust name without the mark; a required
        // nullable field and an optional one are left out.
        assert!(
            code.contains(".tags(Vec::new())\n    .type_(\"type\")\n    .build()?;"),
            "{code}"
        );
        assert!(
            code.contains("assert_eq!(response.type_, \"type\");"),
            "{code}"
        );
        assert!(code.contains("assert!(response.on);"), "{code}");
        assert!(code.contains("assert_eq!(response.n, 1);"), "{code}");
        assert!(code.contains("assert_eq!(response.r, 1.5);"), "{code}");
        assert!(code.contains(".get_thing(\"id\").await?"), "{code}");
    }

    #[test]
    fn an_operation_with_a_required_argument_has_its_own_example_only() {
        // Its only GET needs a required query argument: the `Client` and fake examples (the
        // first plain call) have none; the method's own gives it the empty string.
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
        // The builder's and `Client::request`'s; the fake's own page has none.
        let client = examples_in(&with["client.rs"]);
        assert_eq!(client.len(), 2, "{client:?}");
        assert_eq!(examples_in(&with["mock.rs"]), Vec::<String>::new());
        let methods = examples_in(&with["operations.rs"]);
        assert_eq!(methods.len(), 1, "{methods:?}");
        assert!(
            methods[0].contains(".get_things(\"\").await?"),
            "{}",
            methods[0]
        );
        // A string answer is a `String`, as the fake's expectation takes it.
        assert!(
            methods[0].contains("let expected = \"value\".to_owned();"),
            "{}",
            methods[0]
        );
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
