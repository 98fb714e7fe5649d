//! The surface's names for documents whose names collide with what the generated crate defines
//! itself (`tests/fixtures/surface/`, one document per collision class): each gets a stable,
//! readable name the names lock records, and each crate compiles with zero warnings.

use std::collections::BTreeMap;
use std::path::Path;

use baseten_codegen::{Input, NameLock};
use baseten_tests::{tests_dir, workspace_root};

/// One fixture generated: its lock (the surface's names) and its files.
struct Generated {
    name: String,
    lock: NameLock,
    files: BTreeMap<String, String>,
}

fn generate(name: &str) -> Generated {
    let path = tests_dir()
        .join("fixtures/surface")
        .join(format!("{name}.yaml"));
    let text = std::fs::read_to_string(&path).unwrap();
    let output = baseten_codegen::generate(&Input {
        spec_path: name,
        spec_text: &text,
        config_text: None,
    })
    .unwrap_or_else(|error| panic!("{name}: {error}"));
    Generated {
        name: name.to_owned(),
        lock: output.names,
        files: output.files,
    }
}

fn names(entries: &BTreeMap<String, String>) -> Vec<(&str, &str)> {
    entries
        .iter()
        .map(|(identity, name)| (identity.as_str(), name.as_str()))
        .collect()
}

/// What each fixture's surface is expected to name, in the lock's words.
fn check(name: &str, expected: impl Fn(&Generated)) {
    expected(&generate(name));
}

#[test]
fn entry_points_avoid_the_clients_own_methods() {
    check("client-methods", |generated| {
        assert_eq!(
            names(&generated.lock.client_methods),
            [
                (
                    "metrics GET /v1/bases/{base_id}/url",
                    "get_base_url_request"
                ),
                (
                    "metrics GET /v1/froms/{from_id}/env",
                    "get_from_env_request"
                ),
                (
                    "metrics GET /v1/withs/{with_id}/timeout",
                    "get_with_timeout_request"
                ),
            ]
        );
        assert_eq!(
            generated
                .lock
                .support_types
                .get("metrics GET /v1/bases/{base_id}/url"),
            Some(&"GetBaseUrlRequestOperation".to_owned())
        );
        assert_eq!(
            generated
                .lock
                .fake_methods
                .get("metrics GET /v1/froms/{from_id}/env"),
            Some(&"on_get_from_env_request".to_owned())
        );
    });
}

#[test]
fn bodies_name_their_locals_apart_from_path_parameters() {
    check("metrics-client-param", |generated| {
        let client = &generated.files["client.rs"];
        assert!(client.contains("    client_2: Client,"), "{client}");
        assert!(
            client.contains("    client: ::std::string::String,"),
            "{client}"
        );
        assert!(
            client.contains(".get_client_environment_metrics(&self.client, &self.env_name, "),
            "{client}"
        );
    });
    check("paged-client-cursor", |generated| {
        let client = &generated.files["client.rs"];
        assert!(client.contains("let client_2 = self.clone();"), "{client}");
        assert!(client.contains("move |cursor_2| {"), "{client}");
        assert!(client.contains("query.cursor = cursor_2;"), "{client}");
        assert_eq!(
            names(&generated.lock.client_methods),
            [
                (
                    "items GET /v1/clients/{client}/cursors/{cursor}/events",
                    "get_client_cursor_events_items"
                ),
                (
                    "pages GET /v1/clients/{client}/cursors/{cursor}/events",
                    "get_client_cursor_events_pages"
                ),
            ]
        );
    });
}

#[test]
fn support_structs_and_the_fake_avoid_the_models_names() {
    check("support-struct", |generated| {
        assert_eq!(
            generated
                .lock
                .types
                .get("#/components/schemas/EnvironmentMetricsOperation"),
            Some(&"EnvironmentMetricsOperation".to_owned())
        );
        assert_eq!(
            names(&generated.lock.support_types),
            [
                (
                    "metrics GET /v1/models/{model_id}/environments/{env_name}/metrics",
                    "EnvironmentMetricsOperation2"
                ),
                (
                    "metrics current GET /v1/models/{model_id}/environments/{env_name}/metrics",
                    "EnvironmentMetricsCurrent"
                ),
                (
                    "metrics series GET /v1/models/{model_id}/environments/{env_name}/metrics",
                    "EnvironmentMetricsSeries"
                ),
                (
                    "metrics summary GET /v1/models/{model_id}/environments/{env_name}/metrics",
                    "EnvironmentMetricsSummary"
                ),
            ]
        );
    });
    check("fake-baseten", |generated| {
        assert_eq!(
            generated.lock.types.get("#/components/schemas/FakeBaseten"),
            Some(&"FakeBaseten2".to_owned())
        );
        let mock = &generated.files["mock.rs"];
        assert!(
            mock.contains("rt::mock::Expectation<'_, FakeBaseten2>"),
            "{mock}"
        );
        // Runtime items the client and the fake re-export are taken too.
        for taken in ["RetryPolicy", "Expectation"] {
            assert_eq!(
                generated
                    .lock
                    .types
                    .get(&format!("#/components/schemas/{taken}")),
                Some(&format!("{taken}2"))
            );
        }
        assert!(
            mock.contains("rt::mock::Expectation<'_, Expectation2>"),
            "{mock}"
        );
    });
}

#[test]
fn a_stream_named_like_an_operation_takes_the_next_name() {
    let text =
        std::fs::read_to_string(tests_dir().join("fixtures/surface/paged-client-cursor.yaml"))
            .unwrap();
    // An operation whose method is named like the stream the paginated one would get.
    let config = "operation_names:\n  GET /v1/clients/{client}/cursors/{cursor}/events: events\n";
    let input = |config_text| Input {
        spec_path: "paged",
        spec_text: &text,
        config_text: Some(config_text),
    };
    let lock = baseten_codegen::generate(&input(config)).unwrap().names;
    assert_eq!(
        names(&lock.client_methods)
            .iter()
            .map(|(_, n)| *n)
            .collect::<Vec<_>>(),
        ["events_items", "events_pages"]
    );
    let config = "operation_names:\n  GET /v1/clients/{client}/cursors/{cursor}/events: base_url\n";
    let error = baseten_codegen::generate(&input(config)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "#/paths/~1v1~1clients~1{client}~1cursors~1{cursor}~1events/get: the operation's method \
         name `base_url` is one every generated `Client` already has"
    );
}

/// Each fixture as a crate, and beside the fake fixture a consumer answering with the model
/// the lock names: all in one workspace, checked with every feature by one `cargo check`.
#[test]
#[ignore = "slow: compiles 5 collision fixtures"]
fn every_collision_fixture_compiles_without_warnings() {
    let fixtures = [
        "client-methods",
        "metrics-client-param",
        "paged-client-cursor",
        "support-struct",
        "fake-baseten",
    ];
    let root = tempfile::tempdir().unwrap();
    let write = |relative: &str, contents: &str| {
        let path = root.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    };
    let runtime = workspace_root().join("codegen/runtime");
    let runtime = runtime.to_string_lossy().replace('\\', "/");
    let mut members = Vec::new();
    for name in fixtures {
        let path = tests_dir()
            .join("fixtures/surface")
            .join(format!("{name}.yaml"));
        let text = std::fs::read_to_string(&path).unwrap();
        let settings = baseten_codegen::CrateSettings {
            name,
            runtime_path: &runtime,
            spec_name: name,
            own_workspace: false,
        };
        let output = baseten_codegen::generate_crate(
            &Input {
                spec_path: name,
                spec_text: &text,
                config_text: None,
            },
            &settings,
        )
        .unwrap_or_else(|error| panic!("{name}: {error}"));
        for (relative, contents) in &output.files {
            write(&format!("{name}/{relative}"), contents);
        }
        members.push(name.to_owned());
    }
    let fake = generate("fake-baseten");
    let model = &fake.lock.types["#/components/schemas/FakeBaseten"];
    write(
        "fake-consumer/Cargo.toml",
        "[package]\nname = \"fake-consumer\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\
         publish = false\n\n[dependencies]\nfake-baseten = { path = \"../fake-baseten\", \
         features = [\"mock\"] }\n",
    );
    write(
        "fake-consumer/src/lib.rs",
        &format!(
            "//! Answers the fake's expectation with the model it is typed by.\n\
             pub async fn answer(fake: &fake_baseten::mock::FakeBaseten) {{\n    \
             fake.on_get_fake().respond(&fake_baseten::models::{model}::new(\"id\")).await;\n}}\n"
        ),
    );
    members.push("fake-consumer".to_owned());
    let quoted: Vec<String> = members.iter().map(|m| format!("{m:?}")).collect();
    write(
        "Cargo.toml",
        &format!(
            "[workspace]\nresolver = \"3\"\nmembers = [{}]\n",
            quoted.join(", ")
        ),
    );
    std::fs::copy(
        workspace_root().join("Cargo.lock"),
        root.path().join("Cargo.lock"),
    )
    .unwrap();
    let output = baseten_tests::cargo_sharing_target()
        .current_dir(root.path())
        .args([
            "check",
            "--workspace",
            "--all-features",
            "--keep-going",
            "--quiet",
            "--message-format=short",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let messages: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains("error") || line.contains("warning"))
        .collect();
    assert!(
        output.status.success() && messages.is_empty(),
        "{}: the collision fixtures do not compile cleanly:\n{stderr}",
        Path::new(root.path()).display()
    );
    assert_eq!(fake.name, "fake-baseten");
}

#[test]
fn the_lock_records_only_what_a_selection_emits() {
    let text =
        std::fs::read_to_string(tests_dir().join("fixtures/surface/support-struct.yaml")).unwrap();
    let config = "select: ['GET /v1/models/{model_id}/environments/{env_name}/metrics']\n";
    let output = baseten_codegen::generate(&Input {
        spec_path: "support-struct",
        spec_text: &text,
        config_text: Some(config),
    })
    .unwrap();
    let types: Vec<&str> = output.names.types.keys().map(String::as_str).collect();
    assert_eq!(
        types,
        [
            "#/components/schemas/Descriptor",
            "#/components/schemas/Usage",
            "#/components/schemas/ValueSet",
            "#/paths/~1v1~1models~1{model_id}~1environments~1{env_name}~1metrics/get/parameters",
        ]
    );
    assert_eq!(
        names(&output.names.client_methods),
        [(
            "metrics GET /v1/models/{model_id}/environments/{env_name}/metrics",
            "environment_metrics"
        )]
    );
    assert_eq!(
        names(&output.names.operations),
        [(
            "GET /v1/models/{model_id}/environments/{env_name}/metrics",
            "get_model_environment_metrics"
        )]
    );
    // Unselected, the schema named like the support struct no longer pushes it aside.
    assert_eq!(
        output.names.support_types.values().collect::<Vec<_>>(),
        [
            "EnvironmentMetricsOperation",
            "EnvironmentMetricsCurrent",
            "EnvironmentMetricsSeries",
            "EnvironmentMetricsSummary"
        ]
    );
}

#[test]
fn a_newcomer_never_takes_a_locked_entry_point() {
    let old =
        std::fs::read_to_string(tests_dir().join("fixtures/surface/metrics-client-param.yaml"))
            .unwrap();
    // A second metrics operation naming the same resource (`environment_metrics`) whose method
    // sorts first: without the lock it takes the name, and old code calls another endpoint.
    let second = old.replace(
        "paths:\n  /v1/clients/{client}/environments/{env_name}/metrics:",
        "paths:\n  /v1/aclients/{aclient}/clients/{client}/environments/{env_name}/metrics:\n    get:\n      parameters:\n        - {name: aclient, in: path, required: true, schema: {type: string}}\n        - {name: client, in: path, required: true, schema: {type: string}}\n        - {name: env_name, in: path, required: true, schema: {type: string}}\n        - {name: mode, in: query, schema: {type: string}}\n        - {name: start_epoch_millis, in: query, schema: {type: integer}}\n        - {name: end_epoch_millis, in: query, schema: {type: integer}}\n        - {name: metrics, in: query, schema: {type: array, items: {type: string}}}\n      responses:\n        \"200\": {description: ok, content: {application/json: {schema: {$ref: \"#/components/schemas/Usage\"}}}}\n  /v1/clients/{client}/environments/{env_name}/metrics:",
    );
    assert_ne!(second, old);
    let generate = |text: &str, lock: NameLock| {
        let config = baseten_codegen::Config {
            names_lock: lock,
            ..Default::default()
        };
        let input = Input {
            spec_path: "metrics",
            spec_text: text,
            config_text: None,
        };
        baseten_codegen::generate_with(&input, &config)
            .unwrap_or_else(|error| panic!("{error}"))
            .names
    };
    let first = generate(&old, NameLock::default());
    let unlocked = generate(&second, NameLock::default());
    let locked = generate(&second, first.clone());
    let original = "metrics GET /v1/clients/{client}/environments/{env_name}/metrics";
    let newcomer =
        "metrics GET /v1/aclients/{aclient}/clients/{client}/environments/{env_name}/metrics";
    assert_eq!(first.client_methods[original], "environment_metrics");
    // Without the lock the operation that sorts first takes the name.
    assert_eq!(unlocked.client_methods[newcomer], "environment_metrics");
    assert_eq!(locked.client_methods[original], "environment_metrics");
    assert_eq!(
        locked.client_methods[newcomer],
        "get_aclient_client_environment_metrics_request"
    );
}

/// A schema named like a metrics result alias (`EnvironmentMetricsSeries`) keeps its name; the
/// alias takes the next free one, and the crate still names each once.
#[test]
fn result_aliases_avoid_the_models_names() {
    let text =
        std::fs::read_to_string(tests_dir().join("fixtures/surface/support-struct.yaml")).unwrap();
    let text = text.replace("EnvironmentMetricsOperation", "EnvironmentMetricsSeries");
    let output = baseten_codegen::generate(&Input {
        spec_path: "support-struct-alias",
        spec_text: &text,
        config_text: None,
    })
    .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        output
            .names
            .types
            .get("#/components/schemas/EnvironmentMetricsSeries"),
        Some(&"EnvironmentMetricsSeries".to_owned())
    );
    let aliases: Vec<&str> = output
        .names
        .support_types
        .values()
        .map(String::as_str)
        .collect();
    assert_eq!(
        aliases,
        [
            "EnvironmentMetricsOperation",
            "EnvironmentMetricsCurrent",
            "EnvironmentMetricsSeries2",
            "EnvironmentMetricsSummary"
        ]
    );
    let client = &output.files["client.rs"];
    assert!(
        client.contains("pub type EnvironmentMetricsSeries2 = rt::SeriesMetrics<"),
        "{client}"
    );
    assert_eq!(
        client.matches("pub type EnvironmentMetricsSeries ").count(),
        0
    );
}

/// The API listing shows each test builder the fake emits (`Model::builder()` and its setters,
/// which rustdoc sees only through `rt::mock_setters!`), and nothing the fake does not emit.
#[test]
fn the_listing_shows_every_test_builder_and_its_setters() {
    let gen_dir = workspace_root().join("generated/src/gen");
    let mock = std::fs::read_to_string(gen_dir.join("mock.rs")).unwrap();
    let listing = std::fs::read_to_string(gen_dir.join("api.txt")).unwrap();
    let mut emitted: Vec<(String, Vec<String>)> = Vec::new();
    for call in mock.split("rt::mock_setters!(").skip(1) {
        let call = &call[..call.find(");").unwrap()];
        let (model, fields) = call.split_once(',').unwrap();
        let setters = fields
            .lines()
            .filter_map(|line| line.trim().split_once(':').map(|(s, _)| s.to_owned()))
            .collect();
        emitted.push((model.trim().to_owned(), setters));
    }
    assert!(!emitted.is_empty(), "no test builder in mock.rs");
    let listed_builders = listing
        .lines()
        .filter(|line| line.starts_with("fn models::") && line.contains("::builder ()"))
        .count();
    assert_eq!(listed_builders, emitted.len(), "builders listed / emitted");
    for (model, setters) in &emitted {
        assert!(
            listing.contains(&format!(
                "fn models::{model}::builder () -> mock::Builder<{model}>"
            )),
            "{model}::builder is not listed"
        );
        for setter in setters {
            assert!(
                listing.contains(&format!(
                    "fn mock::Builder<{model}>::{setter} (self, value: "
                )),
                "{model}'s setter {setter} is not listed"
            );
        }
    }
}
