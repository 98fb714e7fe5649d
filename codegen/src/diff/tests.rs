//! Tests of the change report: both engines, gates, renames and the report's text.

use super::*;
use crate::NameLock;

#[test]
fn a_gate_that_gains_a_feature_is_additive_and_one_that_loses_one_breaks() {
    let old = "# header\nstruct models::A feature=x Default\nstruct models::B feature=x|y\n\
               fn Client::c feature=x (&self) -> () [GET /c]\nstruct models::D Default\n\
               struct models::E feature=x\n";
    let new = "# header\nstruct models::A feature=x|y Default\nstruct models::B feature=y\n\
               fn Client::c feature=z (&self) -> () [GET /c]\nstruct models::D feature=x Default\n\
               struct models::E\n";
    let report = snapshot_changes(old, new);
    let lines: Vec<(Impact, &str)> = report
        .changes
        .iter()
        .map(|c| (c.impact, c.description.as_str()))
        .collect();
    assert_eq!(
        lines,
        [
            (
                Impact::Breaking,
                "fn Client::c: compiled with feature z (was feature x)"
            ),
            (
                Impact::Breaking,
                "struct models::B: compiled with feature y (was feature x or y)"
            ),
            (
                Impact::Breaking,
                "struct models::D: compiled with feature x (was every build)"
            ),
            (
                Impact::Additive,
                "struct models::A: also compiled with feature y"
            ),
            (Impact::Additive, "struct models::E: now in every build"),
        ]
    );
    // A gate and a signature changing together is an ordinary signature change.
    assert_eq!(gate_change("feature=x A", "feature=y B"), None);
    assert_eq!(gate_change("feature=x A", "feature=x A"), None);
}

fn api(config: &str) -> Api {
    let document = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /v1/things:\n    get:\n      \
                    responses:\n        '200': {description: ok, content: {application/json: \
                    {schema: {$ref: '#/components/schemas/Thing'}}}}\ncomponents:\n  schemas:\n    \
                    Thing: {type: object, properties: {a: {type: string}}}\n";
    crate::build_ir(&crate::Input {
        spec_path: "t.yaml",
        spec_text: document,
        config_text: Some(config),
    })
    .unwrap_or_else(|error| panic!("{error}"))
    .0
}

#[test]
fn an_operation_moved_to_another_area_breaks_its_method_and_its_types() {
    let old = api("");
    let new = api("areas: {stuff: ['GET /v1/things']}");
    let report = api_changes(&old, &new);
    let breaking: Vec<(&str, &str)> = report
        .changes
        .iter()
        .filter(|c| c.impact == Impact::Breaking)
        .map(|c| (c.item.as_str(), c.description.as_str()))
        .collect();
    assert_eq!(
        breaking,
        [
            (
                "Client::get_things",
                "operation get_things: compiled with feature stuff (was feature things)"
            ),
            (
                "models::Thing",
                "type Thing: compiled with feature stuff (was feature things)"
            ),
        ]
    );
    assert!(!api_changes(&old, &old).is_breaking());
}

/// Renaming only a path placeholder (`/v1/models/{id}` → `{model_id}`) keeps every name the
/// lock gave (the lock's keys follow the document's spelling) and neither report calls it
/// breaking: the request on the wire is the same.
#[test]
fn a_renamed_placeholder_keeps_the_names_and_breaks_nothing() {
    let document = |placeholder: &str| {
        format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths:\n  \
             /v1/models/{{{placeholder}}}:\n    get:\n      parameters:\n      - {{name: \
             {placeholder}, in: path, required: true, schema: {{type: string}}}}\n      - {{name: \
             verbose, in: query, schema: {{type: boolean}}}}\n      responses: {{'200': \
             {{description: ok, content: {{application/json: {{schema: {{type: object, \
             properties: {{a: {{type: string}}}}}}}}}}}}}}\n  /v1/models/{{{placeholder}}}/x:\n    \
             get:\n      responses: {{'200': {{description: ok}}}}\n  /v1/models/{{a}}/{{b}}:\n    \
             get:\n      responses: {{'200': {{description: ok}}}}\n"
        )
    };
    let generate = |text: &str, lock: NameLock| {
        let config = crate::Config {
            names_lock: lock,
            ..crate::Config::default()
        };
        let input = crate::Input {
            spec_path: "t.yaml",
            spec_text: text,
            config_text: None,
        };
        let output = crate::generate_with(&input, &config).unwrap_or_else(|e| panic!("{e}"));
        let (api, _) = crate::build_ir_with(&input, &config).unwrap_or_else(|e| panic!("{e}"));
        (output, api)
    };
    let (old, old_api) = generate(&document("id"), NameLock::default());
    let (new, new_api) = generate(&document("model_id"), old.names.clone());
    let method_names =
        |api: &Api| -> Vec<String> { api.operations.iter().map(|op| op.name.clone()).collect() };
    // `/v1/models/{a}/{b}` makes both `get_model` collide, so each took its placeholders:
    // the name keeps `_by_id` though the document now says `{model_id}`.
    assert_eq!(method_names(&old_api), method_names(&new_api));
    assert!(
        method_names(&new_api).contains(&"get_model_by_id".to_owned()),
        "{:?}",
        method_names(&new_api)
    );
    // The same names under the document's new spelling; nothing kept under the old one.
    let respell = |key: &String| key.replace("{id}", "{model_id}");
    let rekeyed = |map: &BTreeMap<String, String>| -> BTreeMap<String, String> {
        map.iter().map(|(k, v)| (respell(k), v.clone())).collect()
    };
    assert_eq!(new.names.operations, rekeyed(&old.names.operations));
    assert_eq!(new.names.types, rekeyed(&old.names.types));
    assert_eq!(new.names.fake_methods, rekeyed(&old.names.fake_methods));
    assert_eq!(new.names.areas, rekeyed(&old.names.areas));
    assert!(
        new.names
            .operations
            .keys()
            .any(|k| k.contains("{model_id}"))
    );
    for report in [
        snapshot_changes(&old.api_snapshot, &new.api_snapshot),
        api_changes(&old_api, &new_api),
    ] {
        assert!(!report.is_breaking(), "{report}");
    }
    // A real change of endpoint still breaks.
    let moved = document("id").replace("/v1/models/{id}:", "/v1/model/{id}:");
    let (moved, _) = generate(&moved, old.names.clone());
    assert!(snapshot_changes(&old.api_snapshot, &moved.api_snapshot).is_breaking());
}

#[test]
fn only_renamed_arguments_and_placeholders_are_the_same_request() {
    let old = "feature=x (&self, id: &str, n: i64) -> () [GET /a/{id}/{n}]";
    assert!(same_request(
        old,
        "feature=x (&self, model_id: &str, n: i64) -> () [GET /a/{model_id}/{n}]"
    ));
    // A reorder of names is not.
    assert!(!same_request(
        "(&self, a: &str, b: &str) -> () [GET /x/{a}/{b}]",
        "(&self, b: &str, a: &str) -> () [GET /x/{b}/{a}]"
    ));
    // Nor another type, endpoint or output.
    assert!(!same_request(
        old,
        "feature=x (&self, id: String, n: i64) -> () [GET /a/{id}/{n}]"
    ));
    assert!(!same_request(
        old,
        "feature=x (&self, id: &str, n: i64) -> () [GET /b/{id}/{n}]"
    ));
    assert!(!same_request(
        old,
        "feature=x (&self, id: &str, n: i64) -> u8 [GET /a/{id}/{n}]"
    ));
    assert!(!same_request(
        old,
        "feature=y (&self, id: &str, n: i64) -> () [GET /a/{id}/{n}]"
    ));
    assert!(!same_request(
        old,
        "feature=x (&self, id: &str) -> () [GET /a/{id}/{n}]"
    ));
}

#[test]
fn a_name_that_moved_is_not_a_renamed_placeholder() {
    // `a` moved from the first position to the second: a reorder, though `c` is new.
    assert!(!same_request(
        "(&self, a: &str, b: &str) -> () [GET /x/{a}/{b}]",
        "(&self, c: &str, a: &str) -> () [GET /x/{c}/{a}]"
    ));
}

#[test]
fn arguments_split_at_top_level_commas_only() {
    let (arguments, rest) = split_arguments(
        "feature=x (&self, m: BTreeMap<String, Vec<(u8, u8)>>, n: [u8; 2], f: impl Fn(u8, u8)) \
         -> Result<(), E> [GET /a]",
    );
    assert_eq!(
        arguments,
        [
            "&self",
            "m: BTreeMap<String, Vec<(u8, u8)>>",
            "n: [u8; 2]",
            "f: impl Fn(u8, u8)"
        ]
    );
    assert_eq!(rest, "feature=x () -> Result<(), E> [GET /a]");
    assert_eq!(
        split_arguments("(every generated client)").0,
        ["every generated client"]
    );
    assert_eq!(split_arguments("()").0, Vec::<String>::new());
    assert_eq!(split_arguments("Default").1, "Default");
}

#[test]
fn only_the_trailing_endpoint_is_blanked() {
    assert_eq!(
        blank_endpoint("(&self, id: &str) -> () [GET /a/{id}/b/{n}]"),
        "(&self, id: &str) -> () [GET /a/{}/b/{}]"
    );
    let no_endpoint = "(&self, a: [u8; {x}]) -> ()";
    assert_eq!(blank_endpoint(no_endpoint), no_endpoint);
}

#[test]
fn an_extra_reaching_a_renamed_placeholder_is_unchanged_and_another_endpoint_breaks() {
    let extras = |endpoint: &str| {
        BTreeMap::from([(
            "mock::FakeBaseten::on_x".to_owned(),
            Extra {
                what: "fake expectation",
                endpoint: endpoint.to_owned(),
                shape: "(&str)".to_owned(),
            },
        )])
    };
    let compare = |old: &str, new: &str| {
        let mut changes = Changes {
            changes: BTreeSet::new(),
        };
        compare_extras(&extras(old), &extras(new), &mut changes);
        changes.into_report()
    };
    let mut reshaped = extras("GET /a/{id}");
    for extra in reshaped.values_mut() {
        extra.shape = "(&str, &str)".to_owned();
    }
    let mut changes = Changes {
        changes: BTreeSet::new(),
    };
    compare_extras(&extras("GET /a/{id}"), &reshaped, &mut changes);
    let reshaped = changes.into_report();
    assert!(reshaped.is_breaking(), "{reshaped}");
    assert!(
        reshaped.changes.iter().all(|change| !change.compiles),
        "{reshaped}"
    );
    assert!(
        compare("GET /a/{id}", "GET /a/{model_id}")
            .changes
            .is_empty()
    );
    let moved = compare("GET /a/{id}", "GET /b/{id}");
    assert!(moved.is_breaking(), "{moved}");
    assert!(
        moved.changes.iter().all(|change| change.compiles),
        "{moved}"
    );
}

/// Shared types (`ir::shared`): a twin that stops being identical becomes a type of its own
/// (breaking: it was the same type as its twin), and the one it named loses that twin's
/// features; a newcomer twin changes neither the type named nor any gate, by the lock.
#[test]
fn a_twin_that_differs_breaks_and_a_newcomer_twin_is_only_added() {
    let document = |first: &str, second: &str, newcomer: bool| {
        let operation = |path: &str, id: &str, values: &str| {
            format!(
                "  {path}:\n    get:\n      operationId: {id}\n      parameters:\n        - {{name: \
                 fields, in: query, schema: {{type: array, items: {{type: string, enum: \
                 {values}}}}}}}\n      responses:\n        '204': {{description: ok}}\n"
            )
        };
        let mut text = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n".to_owned();
        if newcomer {
            text.push_str(&operation("/0", "get0", first));
        }
        text.push_str(&operation("/a", "getA", first));
        text.push_str(&operation("/b", "getB", second));
        text
    };
    let build = |text: &str, lock: NameLock| {
        let config = crate::Config {
            names_lock: lock,
            ..crate::Config::default()
        };
        let input = crate::Input {
            spec_path: "t.yaml",
            spec_text: text,
            config_text: None,
        };
        crate::build_ir_with(&input, &config)
            .unwrap_or_else(|e| panic!("{e}"))
            .0
    };
    let old = build(
        &document("[name, sku]", "[name, sku]", false),
        NameLock::default(),
    );
    let lines = |new: &Api| -> Vec<(Impact, String)> {
        api_changes(&old, new)
            .changes
            .iter()
            .map(|c| (c.impact, c.description.clone()))
            .collect()
    };
    let split = build(
        &document("[name, sku]", "[name, sku, id]", false),
        old.names.clone(),
    );
    assert_eq!(
        lines(&split),
        [
            (
                Impact::Breaking,
                "type GetAFieldsItem: compiled with feature a (was feature a or b)".to_owned()
            ),
            (
                Impact::Breaking,
                "type GetBFieldsItem changed kind (alias to enum)".to_owned()
            ),
        ]
    );
    let newcomer = build(
        &document("[name, sku]", "[name, sku]", true),
        old.names.clone(),
    );
    let report = api_changes(&old, &newcomer);
    assert!(!report.is_breaking(), "{:?}", lines(&newcomer));
    assert!(
        lines(&newcomer).contains(&(Impact::Additive, "type Get0FieldsItem added".to_owned())),
        "{:?}",
        lines(&newcomer)
    );
}
