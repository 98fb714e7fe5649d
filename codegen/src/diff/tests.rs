//! Tests of the change report: both engines, gates, renames and the report's text.

use super::*;

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
