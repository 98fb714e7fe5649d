//! Names by identity: regenerating from a newer document with the last generation's names lock
//! keeps every Rust name, and a newcomer whose name collides takes the suffix. Each check runs
//! the pair without the lock too, so it shows what the lock prevents.

use std::collections::BTreeMap;

use baseten_codegen::ir::{Api, TypeDef};
use baseten_codegen::{Config, Input, NameLock};
use serde_json::{Value, json};

fn build(document: &Value, lock: NameLock) -> Api {
    let text = document.to_string();
    let input = Input {
        spec_path: "spec.json",
        spec_text: &text,
        config_text: None,
    };
    let config = Config {
        names_lock: lock,
        ..Config::default()
    };
    baseten_codegen::build_ir_with(&input, &config)
        .expect("generates")
        .0
}

/// The names a user's code sees: types by component key, variants by wire value, methods by
/// operation.
fn visible_names(api: &Api) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for (key, name) in &api.component_names {
        names.insert(format!("schema {key}"), name.clone());
    }
    for def in api.types.values() {
        if let TypeDef::Enum(def) | TypeDef::ValueEnum(def) = def {
            for variant in &def.variants {
                names.insert(
                    format!("{}::{:?}", def.name, variant.wire),
                    variant.rust_name.clone(),
                );
            }
            names.insert(format!("{} fallback", def.name), def.fallback.clone());
        }
    }
    for operation in &api.operations {
        names.insert(
            format!("{} {}", operation.method, operation.path),
            operation.name.clone(),
        );
    }
    names
}

/// Generates `old`, then `new` with and without `old`'s lock; `expected` lists the names of
/// `old`'s items that `new` gives them without the lock (each must differ from the old
/// name); with the lock, every old name must come back.
fn check(old: Value, new: Value, expected_shifts_without_lock: &[&str]) {
    let old_api = build(&old, NameLock::default());
    let old_names = visible_names(&old_api);
    let locked = visible_names(&build(&new, old_api.names.clone()));
    let unlocked = visible_names(&build(&new, NameLock::default()));
    for (item, name) in &old_names {
        assert_eq!(
            locked.get(item),
            Some(name),
            "with the lock, {item} must keep its name"
        );
    }
    let shifted: Vec<String> = old_names
        .iter()
        .filter(|(item, name)| unlocked.get(*item) != Some(*name))
        .map(|(item, _)| item.clone())
        .collect();
    assert_eq!(
        shifted, expected_shifts_without_lock,
        "what shifts without the lock"
    );
    // The lock of a generation that used a lock regenerates the same names and lock.
    let relocked = build(&new, old_api.names.clone());
    let again = build(&new, relocked.names.clone());
    assert_eq!(visible_names(&again), visible_names(&relocked));
    assert_eq!(again.names, relocked.names);
}

fn document(schemas: Value, paths: Value) -> Value {
    json!({
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": paths,
        "components": {"schemas": schemas}
    })
}

/// A `GET` of `path` answering with the component `response`, with its path parameters.
fn get(path: &str, response: &str) -> (String, Value) {
    let parameters: Vec<Value> = path
        .split('/')
        .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
        .map(|name| json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}}))
        .collect();
    let operation = json!({"get": {"parameters": parameters, "responses": {"200": {
        "description": "ok",
        "content": {"application/json": {
            "schema": {"$ref": format!("#/components/schemas/{response}")}}}}}}});
    (path.to_owned(), operation)
}

fn paths(operations: &[(String, Value)]) -> Value {
    Value::Object(operations.iter().cloned().collect())
}

#[test]
fn an_inserted_enum_value_with_the_same_rust_name_takes_the_suffix() {
    let status = |values: Value| {
        document(
            json!({"Status": {"type": "string", "enum": values}}),
            paths(&[get("/v1/status", "Status")]),
        )
    };
    check(
        status(json!(["ACTIVE", "stopped"])),
        // `active` comes first now and wants `Active` too.
        status(json!(["active", "ACTIVE", "stopped"])),
        &["Status::\"ACTIVE\""],
    );
}

#[test]
fn a_new_path_that_derives_an_existing_method_name_takes_the_longer_name() {
    let schemas = json!({"Model": {"type": "object", "properties": {"id": {"type": "string"}}}});
    let old_paths = [get("/v1/models/{model_id}", "Model")];
    let old = document(schemas.clone(), paths(&old_paths));
    // `GET /v1/model/{id}` also derives `get_model`.
    let new_paths = [old_paths[0].clone(), get("/v1/model/{id}", "Model")];
    let new = document(schemas, paths(&new_paths));
    check(old, new, &["GET /v1/models/{model_id}"]);
    let old_api = build(&document(json!({}), json!({})), NameLock::default());
    assert!(old_api.names.operations.is_empty());
}

#[test]
fn a_new_schema_whose_key_makes_the_same_type_name_takes_the_suffix() {
    let new_paths = paths(&[get("/v1/a", "model_info"), get("/v1/b", "ModelInfo")]);
    let object = json!({"type": "object", "properties": {"id": {"type": "string"}}});
    let old = document(
        json!({"model_info": object, "ModelInfo": object}),
        paths(&[get("/v1/a", "model_info")]),
    );
    // Key order puts the newcomer first, so without a lock it takes `ModelInfo`.
    let new = document(
        json!({"ModelInfo": object, "model_info": object}),
        new_paths,
    );
    check(old, new, &["schema ModelInfo", "schema model_info"]);
}

#[test]
fn a_name_whose_item_left_the_document_is_not_given_to_another() {
    let old = document(
        json!({"Model": {"type": "object", "properties": {"id": {"type": "string"}}}}),
        paths(&[get("/v1/models/{model_id}", "Model")]),
    );
    let old_api = build(&old, NameLock::default());
    // The old operation is gone; a new one derives its name.
    let new = document(
        json!({"Model": {"type": "object", "properties": {"id": {"type": "string"}}}}),
        paths(&[get("/v1/model/{id}", "Model")]),
    );
    let locked = build(&new, old_api.names.clone());
    assert_eq!(locked.operations[0].name, "get_model_by_id");
    assert_eq!(
        build(&new, NameLock::default()).operations[0].name,
        "get_model"
    );
    // It stays retired in the new lock.
    assert_eq!(
        locked.names.operations.get("GET /v1/models/{model_id}"),
        Some(&"get_model".to_owned())
    );
}

#[test]
fn a_lock_that_names_something_twice_or_badly_is_an_error_naming_the_entry() {
    for (text, expected) in [
        (
            "variants: {Status: {a: Active, b: Active}}",
            "names lock: #/variants/Status/b: \"Active\" is given twice",
        ),
        (
            "types: {\"#/components/schemas/A\": \"fn\"}",
            "names lock: #/types/#~1components~1schemas~1A: \"fn\" is not a name the generator gives",
        ),
        (
            "operations: [1]",
            "names lock: #/operations: invalid type: sequence, expected a map",
        ),
        (
            "areas: {GET /v1/x: mock}",
            "names lock: #/areas/GET ~1v1~1x: \"mock\": every generated crate has a feature \"mock\" of its own",
        ),
    ] {
        let error = NameLock::parse(text).expect_err(text);
        assert_eq!(error.to_string(), expected);
    }
}

/// A document that gains tags keeps every existing operation in the area its lock records; a new
/// operation takes its area from its tag.
#[test]
fn an_operation_keeps_its_locked_area_when_the_document_gains_tags() {
    let operation =
        |tags: &[&str]| json!({"tags": tags, "responses": {"204": {"description": "none"}}});
    let document = |paths: Value| json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": paths});
    let untagged = document(json!({"/v1/models": {"get": operation(&[])}}));
    let old = build(&untagged, NameLock::default());
    assert_eq!(old.operations[0].area, "models");
    let tagged = document(json!({
        "/v1/models": {"get": operation(&["Inventory"])},
        "/v1/teams": {"get": operation(&["Inventory"])},
    }));
    let new = build(&tagged, old.names.clone());
    let areas: Vec<(&str, &str)> = new
        .operations
        .iter()
        .map(|op| (op.path.as_str(), op.area.as_str()))
        .collect();
    assert_eq!(
        areas,
        [("/v1/models", "models"), ("/v1/teams", "inventory")]
    );
    assert_eq!(
        build(&tagged, NameLock::default()).operations[0].area,
        "inventory"
    );
}
