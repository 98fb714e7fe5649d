use std::path::Path;

use heck::ToUpperCamelCase;

use super::index_mapped::WireField;
use super::*;
use crate::extensions::EXTENSIONS;
use crate::surface::write_only::Gate;

/// One metrics endpoint as Baseten has it at `PATH`, with `PARAMS` for its query parameters
/// and `MODEL_ID` for its first path parameter's type.
const OPERATION: &str = "  PATH:
    get:
      parameters:
        - {name: model_id, in: path, required: true, schema: {type: MODEL_ID}}
        - {name: env_name, in: path, required: true, schema: {type: string}}
PARAMS
      responses:
        '200':
          description: ok
          content: {application/json: {schema: {$ref: '#/components/schemas/Usage'}}}
";

/// An index-mapped response.
const COMPONENTS: &str = "components:
  schemas:
    Usage:
      type: object
      required: [start_epoch_millis, end_epoch_millis, descriptors, value_sets]
      properties:
        start_epoch_millis: {type: integer}
        end_epoch_millis: {type: integer}
        descriptors: {type: array, items: {$ref: '#/components/schemas/Descriptor'}}
        value_sets: {type: array, items: {$ref: '#/components/schemas/ValueSet'}}
    Descriptor:
      type: object
      required: [name, label_sets]
      properties:
        name: {type: string}
        label_sets: {type: array, items: {type: object, additionalProperties: {type: string}}}
    ValueSet:
      type: object
      required: [start_epoch_millis, values]
      properties:
        start_epoch_millis: {type: integer}
        values: {type: array, items: {type: array, items: {type: [number, 'null']}}}
";

const ENVIRONMENT_METRICS: &str = "/v1/models/{model_id}/environments/{env_name}/metrics";

/// A document of one metrics operation per path.
fn document_at(paths: &[&str], params: &[&str], model_id: &str) -> String {
    let operations: String = paths
        .iter()
        .map(|path| {
            OPERATION
                .replace("PATH", path)
                .replace("PARAMS", &params.join("\n"))
                .replace("MODEL_ID", model_id)
        })
        .collect();
    format!(
        "openapi: 3.1.0\ninfo: {{title: Baseten, version: '1'}}\npaths:\n{operations}{COMPONENTS}"
    )
}

fn document(params: &[&str], model_id: &str) -> String {
    document_at(&[ENVIRONMENT_METRICS], params, model_id)
}

/// The four query parameters of the metrics shape.
const PARAMS: [&str; 4] = [
    "        - {name: mode, in: query, schema: {type: string}}",
    "        - {name: start_epoch_millis, in: query, schema: {type: integer}}",
    "        - {name: end_epoch_millis, in: query, schema: {type: integer}}",
    "        - {name: metrics, in: query, schema: {type: array, items: {type: string}}}",
];

fn api_of(document: &str) -> Api {
    crate::build_ir(&crate::Input {
        spec_path: "t.yaml",
        spec_text: document,
        config_text: None,
    })
    .unwrap_or_else(|error| panic!("{error}\n{document}"))
    .0
}

/// The entry points the surface gets for `document`.
fn entry_points(document: &str) -> Vec<String> {
    let api = api_of(document);
    let surface = crate::surface::build(&api, None, crate::extensions::EXTENSIONS)
        .unwrap_or_else(|error| panic!("{error}"));
    surface
        .contributions
        .iter()
        .flat_map(|contribution| contribution.methods())
        .map(|method| method.name.to_owned())
        .collect()
}

#[test]
fn an_operation_of_the_metrics_shape_gets_an_entry_point() {
    assert_eq!(
        entry_points(&document(&PARAMS, "string")),
        ["environment_metrics"]
    );
}

/// Each condition of the shape, broken alone, leaves the operation a plain one.
#[test]
fn an_operation_off_the_metrics_shape_gets_none() {
    let with = |index: usize, line: &str| {
        let mut params = PARAMS.to_vec();
        params[index] = line;
        document(&params, "string")
    };
    let off_shape = [
        // A path parameter that is not a string.
        document(&PARAMS, "integer"),
        // A fifth query parameter.
        document(
            &[
                PARAMS[0],
                PARAMS[1],
                PARAMS[2],
                PARAMS[3],
                "        - {name: step, in: query, schema: {type: integer}}",
            ],
            "string",
        ),
        // Three of the four.
        document(&PARAMS[..3], "string"),
        // A required one.
        with(
            0,
            "        - {name: mode, in: query, required: true, schema: {type: string}}",
        ),
        // Each of the four under another name or of another type.
        with(
            0,
            "        - {name: mood, in: query, schema: {type: string}}",
        ),
        with(
            0,
            "        - {name: mode, in: query, schema: {type: integer}}",
        ),
        with(
            1,
            "        - {name: start_epoch_millis, in: query, schema: {type: string}}",
        ),
        with(
            2,
            "        - {name: end_epoch_millis, in: query, schema: {type: boolean}}",
        ),
        with(
            3,
            "        - {name: metrics, in: query, schema: {type: string}}",
        ),
        // A body.
        document(&PARAMS, "string").replace(
            "      responses:",
            "      requestBody: {content: {application/json: {schema: {type: string}}}}\n      \
             responses:",
        ),
        // A response that is not index-mapped.
        document(&PARAMS, "string").replace("{type: [number, 'null']}", "{type: string}"),
    ];
    for document in off_shape {
        assert_eq!(entry_points(&document), Vec::<String>::new(), "{document}");
    }
}

#[test]
fn an_entry_point_is_named_after_its_resource() {
    let cases = [
        (
            "/v1/models/{model_id}/environments/{env_name}/metrics",
            Some("environment_metrics"),
        ),
        (
            "/v1/models/{model_id}/deployments/{deployment_id}/metrics",
            Some("deployment_metrics"),
        ),
        ("/v1/widgets/{id}/usage-stats", Some("widget_usage_stats")),
        ("/v1/metrics", None),
        ("/v1/models/{id}", None),
        ("/{id}/metrics", None),
        ("/v1/{a}/{b}/metrics", None),
        ("", None),
    ];
    for (path, name) in cases {
        assert_eq!(entry_name(path).as_deref(), name, "{path}");
    }
}

/// Two entry points wanting one name: the later takes the next name it wants (its operation's
/// own with `_request`), as does one whose path names no resource; its support type, aliases
/// and expectation follow the name it got.
#[test]
fn entry_points_claim_their_names_through_the_one_owner() {
    let second = "/v2/models/{model_id}/environments/{env_name}/metrics";
    let unnamed = "/v1/metrics/{model_id}/{env_name}";
    let api = api_of(&document_at(
        &[ENVIRONMENT_METRICS, second, unnamed],
        &PARAMS,
        "string",
    ));
    let surface = crate::surface::build(&api, None, crate::extensions::EXTENSIONS)
        .unwrap_or_else(|error| panic!("{error}"));
    let names = &surface.names;
    let key = |detail: &str, path: &str| format!("metrics {detail}GET {path}");
    let fallback = |path: &str| {
        api.operations
            .iter()
            .find(|operation| operation.path == path)
            .map(|operation| format!("{}_request", operation.name))
            .unwrap_or_default()
    };
    for (path, method) in [
        (ENVIRONMENT_METRICS, "environment_metrics".to_owned()),
        (second, fallback(second)),
        (unnamed, fallback(unnamed)),
    ] {
        let camel = method.to_upper_camel_case();
        let given = |scope: &std::collections::BTreeMap<String, String>, detail: &str| {
            scope.get(&key(detail, path)).cloned().unwrap_or_default()
        };
        assert_eq!(given(&names.client_methods, ""), method);
        assert_eq!(given(&names.fake_methods, ""), format!("on_{method}"));
        assert_eq!(given(&names.support_types, ""), format!("{camel}Operation"));
        for mode in ["Current", "Summary", "Series"] {
            let detail = format!("{} ", mode.to_lowercase());
            assert_eq!(
                given(&names.support_types, &detail),
                format!("{camel}{mode}")
            );
        }
    }
    assert_eq!(fallback(second), "get_v2_model_environment_metrics_request");
    assert_eq!(names.client_methods.len(), 3);
    assert_eq!(names.support_types.len(), 12);
}

/// The extension keeps `Serialize` on an index-mapped response no request reaches; without it
/// the response would serialize only for the fake.
#[test]
fn index_mapped_responses_keep_serialize() {
    let api = api_of(&document(&PARAMS, "string"));
    assert_eq!(
        Metrics.serialized_types(&api),
        [TypeRef::Named("Usage".to_owned())]
    );
    let with = crate::surface::build(&api, None, crate::extensions::EXTENSIONS)
        .unwrap_or_else(|error| panic!("{error}"));
    let without = crate::surface::build(&api, None, &[]).unwrap_or_else(|error| panic!("{error}"));
    for name in ["Usage", "Descriptor", "ValueSet"] {
        assert_eq!(with.serde_impls(name).serialize, Gate::Always, "{name}");
        assert_eq!(without.serde_impls(name).serialize, Gate::Mock, "{name}");
    }
}

/// What the probe and the change report see of an entry point, and the probe's statements.
#[test]
fn an_entry_point_is_probed_and_reported() {
    let api = api_of(&document(&PARAMS, "string"));
    let surface = crate::surface::build(&api, None, crate::extensions::EXTENSIONS)
        .unwrap_or_else(|error| panic!("{error}"));
    // Metrics is the first extension.
    let Some(contribution) = surface.contributions.first() else {
        panic!("no extension: {:?}", surface.contributions);
    };
    let operation = &api.operations[0];
    assert_eq!(
        contribution.methods(),
        [AddedMethod {
            name: "environment_metrics",
            operation,
            what: "metrics entry point",
            preferred: true,
            shape: "2 ids, MetricsRequest<EnvironmentMetricsOperation> of Usage".to_owned(),
        }]
    );
    assert_eq!(
        contribution.expectations(),
        [AddedExpectation {
            name: "on_environment_metrics",
            operation,
            answer: TypeRef::Named("Usage".to_owned()),
        }]
    );
    let krate = crate::tokens::ident("krate");
    let placeholder: Placeholder = |ty| quote::quote!(any::<#ty>());
    let probe = contribution
        .probe("environment_metrics", &krate, placeholder)
        .to_string();
    assert_eq!(
        probe,
        quote::quote! {
            fn answers<O: rt::MetricsOperation<Response = Usage>>(_: &rt::MetricsRequest<O>) {}
            let request: rt::MetricsRequest<::krate::client::EnvironmentMetricsOperation> =
                client.environment_metrics(
                    any::<::std::string::String>(),
                    any::<::std::string::String>()
                );
            answers(&request);
        }
        .to_string()
    );
    assert!(contribution.probe("other", &krate, placeholder).is_empty());
    let runtime = quote::quote!(rt);
    assert!(contribution.file("other.rs", &runtime).is_empty());
    assert!(!contribution.file("index_mapped.rs", &runtime).is_empty());
    let files: Vec<&str> = contribution.files().iter().map(|file| file.name).collect();
    assert_eq!(files, ["index_mapped.rs"]);
    assert!(
        contribution.files()[0]
            .declaration
            .contains("#[path = \"index_mapped.rs\"]")
    );
    let probe = crate::probe::emit_probe(&api, "krate").unwrap_or_else(|error| panic!("{error}"));
    for function in [
        (
            "probe_Client_environment_metrics",
            "Client::environment_metrics",
        ),
        (
            "probe_mock_on_environment_metrics",
            "mock::FakeBaseten::on_environment_metrics",
        ),
    ] {
        let function = (function.0.to_owned(), function.1.to_owned());
        assert!(probe.functions.contains(&function), "{function:?}");
    }
    assert!(probe.source.contains("let request: rt::MetricsRequest<"));
}

fn workspace() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Everything the extension renders for the in-repo crate (its entry points, aliases, support
/// structs, fake expectations, alignment traits, listing lines and names) is what
/// `generated/src/gen` holds: the extension is `cargo xtask regen --check`'s, byte for byte.
#[test]
fn the_in_repo_crate_is_what_the_extension_renders() {
    let root = workspace();
    let spec = "schema/baseten-management.yaml";
    let spec_text = read(&root.join(spec));
    let config_text = read(&root.join("schema/codegen.yaml"));
    let gen_dir = root.join("generated/src/gen");
    let mut config = crate::Config::parse(&config_text).unwrap_or_else(|error| panic!("{error}"));
    config.names_lock = crate::NameLock::parse(&read(&gen_dir.join(crate::lock::LOCK_FILE)))
        .unwrap_or_else(|error| panic!("{error}"));
    let output = crate::generate_with(
        &crate::Input {
            spec_path: spec,
            spec_text: &spec_text,
            config_text: Some(&config_text),
        },
        &config,
    )
    .unwrap_or_else(|error| panic!("{error}"));
    for file in ["client.rs", "mock.rs", "index_mapped.rs"] {
        assert!(
            output.files[file] == read(&gen_dir.join(file)),
            "{file} differs from generated/src/gen"
        );
    }
    assert!(output.api_snapshot == read(&gen_dir.join(crate::API_SNAPSHOT)));
    assert!(output.names.to_text() == read(&gen_dir.join(crate::lock::LOCK_FILE)));
}

/// A response of the shape under names never seen before, without mode or step, with a
/// nullable string unit hint: the fixture's snapshot, byte for byte.
#[test]
fn the_index_mapped_fixture_is_what_the_extension_renders() {
    let root = workspace();
    let spec = "tests/fixtures/specs/index_mapped.yaml";
    let output = crate::generate(&crate::Input {
        spec_path: spec,
        spec_text: &read(&root.join(spec)),
        config_text: Some("runtime_path: baseten_api::runtime\n"),
    })
    .unwrap_or_else(|error| panic!("{error}"));
    let snapshot = root.join("tests/src/snapshots/index_mapped/index_mapped.rs");
    assert!(output.files["index_mapped.rs"] == read(&snapshot));
    // The crate root declares the file the extension added.
    assert!(
        output
            .extension_modules
            .contains("#[path = \"index_mapped.rs\"]\nmod index_mapped_impls;"),
        "{}",
        output.extension_modules
    );
    assert!(
        output
            .api_snapshot
            .contains("\nimpl models::WidgetUsage feature=widgets metrics::IndexMappedResponse\n")
    );
    assert!(!output.api_snapshot.contains("models::NearMiss metrics::"));
    assert_eq!(EXTENSIONS.len(), 2);
}

/// A response of the shape with every optional part: an optional open-enum mode, a required
/// step, a required string unit hint and a nullable string kind.
const RICH: &str = "openapi: 3.1.0
info: {title: Baseten, version: '1'}
paths:
  /v1/usage:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Usage'}}}}
components:
  schemas:
    Usage:
      type: object
      required: [start_epoch_millis, end_epoch_millis, step_seconds, descriptors, value_sets]
      properties:
        start_epoch_millis: {type: integer}
        end_epoch_millis: {type: integer}
        mode: {$ref: '#/components/schemas/Mode'}
        step_seconds: {type: integer}
        descriptors: {type: array, items: {$ref: '#/components/schemas/Descriptor'}}
        value_sets: {type: array, items: {$ref: '#/components/schemas/ValueSet'}}
    Mode: {type: string, enum: [CURRENT, SERIES, HOURLY]}
    Descriptor:
      type: object
      required: [name, label_sets, unit_hint]
      properties:
        name: {type: string}
        unit_hint: {type: string}
        kind: {type: [string, 'null']}
        label_sets: {type: array, items: {type: object, additionalProperties: {type: string}}}
    ValueSet:
      type: object
      required: [start_epoch_millis, values]
      properties:
        start_epoch_millis: {type: integer}
        values: {type: array, items: {type: array, items: {type: [number, 'null']}}}
";

fn recognised(document: &str) -> Vec<IndexMapped> {
    index_mapped::recognise(&api_of(document).types)
}

fn wire(field: &str, optional: bool, open_enum: Option<(&str, &[(&str, &str)])>) -> WireField {
    WireField {
        field: field.to_owned(),
        optional,
        open_enum: open_enum.map(|(name, values)| {
            let values = values
                .iter()
                .map(|(wire, variant)| ((*wire).to_owned(), (*variant).to_owned()))
                .collect();
            (name.to_owned(), values)
        }),
    }
}

#[test]
fn every_part_of_an_index_mapped_response_is_found() {
    let modes: &[(&str, &str)] = &[
        ("CURRENT", "Current"),
        ("SERIES", "Series"),
        ("HOURLY", "Hourly"),
    ];
    let expected = IndexMapped {
        response: "Usage".to_owned(),
        descriptors_field: "descriptors".to_owned(),
        value_sets_field: "value_sets".to_owned(),
        mode: Some(wire("mode", true, Some(("Mode", modes)))),
        step_seconds: Some(("step_seconds".to_owned(), false)),
        descriptor: "Descriptor".to_owned(),
        unit_hint: Some(wire("unit_hint", false, None)),
        kind: Some(wire("kind", true, None)),
        value_set: "ValueSet".to_owned(),
    };
    assert_eq!(recognised(RICH), [expected]);
    let with = |from: &str, to: &str| {
        assert!(RICH.contains(from), "{from}");
        recognised(&RICH.replacen(from, to, 1))
    };
    let required = "required: [start_epoch_millis, end_epoch_millis, step_seconds, \
                    descriptors, value_sets]";
    // Parts that are optional for the shape.
    let optional_step = with(
        required,
        "required: [start_epoch_millis, end_epoch_millis, descriptors, value_sets]",
    );
    assert_eq!(
        optional_step[0].step_seconds,
        Some(("step_seconds".to_owned(), true))
    );
    let text_step = with(
        "step_seconds: {type: integer}",
        "step_seconds: {type: string}",
    );
    assert_eq!(text_step[0].step_seconds, None);
    let text_mode = with(
        "mode: {$ref: '#/components/schemas/Mode'}",
        "mode: {type: string}",
    );
    assert_eq!(text_mode[0].mode, Some(wire("mode", true, None)));
    for mode in [
        "mode: {type: integer}",
        "mode: {$ref: '#/components/schemas/ValueSet'}",
    ] {
        let found = with("mode: {$ref: '#/components/schemas/Mode'}", mode);
        assert_eq!(found[0].mode, None, "{mode}");
    }
    // Parts the shape cannot do without.
    for (from, to) in [
        (
            required,
            "required: [start_epoch_millis, end_epoch_millis, step_seconds, value_sets]",
        ),
        (
            "        start_epoch_millis: {type: integer}\n        end",
            "        start_epoch_millis: {type: [integer, 'null']}\n        end",
        ),
        (
            "end_epoch_millis: {type: integer}",
            "end_epoch_millis: {type: string}",
        ),
        ("name: {type: string}", "name: {type: integer}"),
        (
            "additionalProperties: {type: string}",
            "additionalProperties: {type: integer}",
        ),
        (
            "required: [name, label_sets, unit_hint]",
            "required: [name, unit_hint]",
        ),
        ("items: {type: [number, 'null']}", "items: {type: number}"),
        (
            "required: [start_epoch_millis, values]",
            "required: [values]",
        ),
        (
            "descriptors: {type: array, items: {$ref: '#/components/schemas/Descriptor'}}",
            "descriptors: {type: array, items: {$ref: '#/components/schemas/ValueSet'}}",
        ),
    ] {
        assert_eq!(with(from, to), [], "{to}");
    }
}

/// The combinations the in-repo crate and the fixture leave out: an optional open enum and a
/// required string, matched onto the runtime's values; a required step.
#[test]
fn optional_enums_and_required_strings_are_matched() {
    let output = crate::generate(&crate::Input {
        spec_path: "t.yaml",
        spec_text: RICH,
        config_text: None,
    })
    .unwrap_or_else(|error| panic!("{error}"));
    let file = &output.files["index_mapped.rs"];
    for line in [
        "Some(Mode::Current) => Some(rt::MetricsMode::Current),",
        "Some(Mode::Series) => Some(rt::MetricsMode::Series),",
        "match self.mode.as_ref() {",
        "self.mode.as_ref().map(|value| value.as_str())",
        "Some(self.step_seconds)",
        "match self.unit_hint.as_str() {",
        "\"PER_SECOND\" => rt::metrics::Unit::PerSecond,",
        "\"RATIO\" => rt::metrics::Unit::Ratio,",
        "Some(self.unit_hint.as_str())",
        "self.kind.as_ref().map(|value| value.as_str())",
    ] {
        assert!(file.contains(line), "{line}\n{file}");
    }
    // `HOURLY` is no mode the runtime knows: the fallback takes it.
    assert!(!file.contains("Hourly"), "{file}");
}

/// The change report sees an entry point and its expectation through the contribution: gone
/// when the operation leaves the shape, back (added) when it returns.
#[test]
fn the_change_report_sees_an_entry_point_come_and_go() {
    let on_shape = api_of(&document(&PARAMS, "string"));
    let off_shape = api_of(&document(&PARAMS[..3], "string"));
    let report =
        crate::diff::api_changes(&on_shape, &off_shape).unwrap_or_else(|error| panic!("{error}"));
    for (item, removed) in [
        (
            "Client::environment_metrics",
            "removed: fn Client::environment_metrics ",
        ),
        (
            "mock::FakeBaseten::on_environment_metrics",
            "removed: fn mock::FakeBaseten::on_environment_metrics ",
        ),
    ] {
        assert!(
            report.changes.iter().any(|change| change.item == item
                && change.description.starts_with(removed)
                && change
                    .description
                    .ends_with("[GET /v1/models/{model_id}/environments/{env_name}/metrics]")),
            "{report}"
        );
    }
    let report =
        crate::diff::api_changes(&off_shape, &on_shape).unwrap_or_else(|error| panic!("{error}"));
    assert!(
        report
            .changes
            .iter()
            .any(|change| change.item == "Client::environment_metrics"
                && change
                    .description
                    .starts_with("added: fn Client::environment_metrics ")),
        "{report}"
    );
}
