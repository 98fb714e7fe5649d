//! Any document gets its own crate (issue 39): named after its API (the `acme` fixture's
//! `FakeAcmePayments` and `ACME_PAYMENTS_API_KEY`, from its `info.title`), its operations after
//! their `operationId`s (kept by the names lock when the ids come or go), checked in the emitted
//! text, in the compiled snapshot against a local server, and as a crate of its own built with and
//! without `mock`.

use baseten_codegen::{CrateSettings, Input, NameLock, Output};
use baseten_tests::snapshots::acme::mock::FakeAcmePayments;
use baseten_tests::snapshots::acme::models::Payment;
use baseten_tests::snapshots::acme::{Client, client};
use baseten_tests::{tests_dir, workspace_root};
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

fn acme() -> String {
    std::fs::read_to_string(tests_dir().join("fixtures/specs/acme.yaml")).unwrap()
}

fn crate_of(spec: &str, config: &str) -> Output {
    let runtime = workspace_root().join("codegen/runtime");
    let runtime = runtime.to_string_lossy().replace('\\', "/");
    let settings = CrateSettings {
        name: "acme-payments",
        runtime_path: &runtime,
        spec_name: "acme.yaml",
        own_workspace: true,
    };
    let input = Input {
        spec_path: "acme.yaml",
        spec_text: spec,
        config_text: Some(config),
    };
    baseten_codegen::generate_crate(&input, &settings).unwrap_or_else(|error| panic!("{error}"))
}

/// The `Client` methods a generation gives, by `"METHOD /path"`.
fn operation_names(spec: &str, config: &str, lock: &NameLock) -> Vec<(String, String)> {
    let mut config = baseten_codegen::Config::parse(config).unwrap();
    config.names_lock = lock.clone();
    let input = Input {
        spec_path: "acme.yaml",
        spec_text: spec,
        config_text: None,
    };
    let output =
        baseten_codegen::generate_with(&input, &config).unwrap_or_else(|error| panic!("{error}"));
    output.names.operations.into_iter().collect()
}

/// Every emitted file, its docs and examples included (`crate_name` turns the examples on),
/// speaks of the document's API: nothing names Baseten but the runtime crate's package name,
/// which is the generator's, not the API's.
#[test]
fn another_vendors_crate_never_speaks_of_baseten() {
    let output = crate_of(&acme(), "crate_name: acme_payments\n");
    let runtime_names = [
        baseten_codegen::RUNTIME_PACKAGE.to_owned(),
        baseten_codegen::RUNTIME_PACKAGE.replace('-', "_"),
    ];
    let mut mentions = Vec::new();
    for (path, text) in &output.files {
        let mut text = text.to_ascii_lowercase();
        for name in &runtime_names {
            text = text.replace(name.as_str(), "");
        }
        for (number, line) in text.lines().enumerate() {
            if line.contains("baseten") {
                mentions.push(format!("{path}:{}: {line}", number + 1));
            }
        }
    }
    assert!(mentions.is_empty(), "{}", mentions.join("\n"));
    let client = &output.files["src/gen/client.rs"];
    for expected in [
        "pub const API_KEY_ENV: &str = \"ACME_PAYMENTS_API_KEY\";",
        "pub const BASE_URL_ENV: &str = \"ACME_PAYMENTS_BASE_URL\";",
        "the key from `ACME_PAYMENTS_API_KEY`",
        "acme_payments::mock::FakeAcmePayments::start()",
    ] {
        assert!(client.contains(expected), "{expected}:\n{client}");
    }
    let mock = &output.files["src/gen/mock.rs"];
    assert!(mock.contains("pub struct FakeAcmePayments"), "{mock}");
    let listing = &output.files["src/gen/api.txt"];
    assert!(
        listing.contains("struct mock::FakeAcmePayments feature=mock"),
        "{listing}"
    );
}

/// The config names the API over its title, and its variables over the name.
#[test]
fn the_config_names_the_api_over_the_title() {
    let output = crate_of(&acme(), "api_name: Ledger\nenv_prefix: LEDGER_V2\n");
    assert!(output.files["src/gen/mock.rs"].contains("pub struct FakeLedger "));
    let client = &output.files["src/gen/client.rs"];
    assert!(client.contains("\"LEDGER_V2_API_KEY\""), "{client}");
    assert!(client.contains("\"LEDGER_V2_BASE_URL\""), "{client}");
    for (config, pointer) in [
        ("api_name: ledger\n", "#/api_name"),
        ("api_name: \"Led ger\"\n", "#/api_name"),
        ("env_prefix: ledger\n", "#/env_prefix"),
        ("env_prefix: LEDGER_\n", "#/env_prefix"),
    ] {
        match baseten_codegen::Config::parse(config) {
            Err(baseten_codegen::Error::Config { pointer: at, .. }) => {
                assert_eq!(at, pointer, "{config}")
            }
            other => panic!("{config}: {other:?}"),
        }
    }
}

/// A title with nothing usable names the API neutrally, and a schema never takes the fake's name.
#[test]
fn a_title_without_words_gives_a_neutral_name_and_the_fake_keeps_it() {
    let spec = acme()
        .replace("title: Acme Payments API (v2)", "title: \"}; ⚠ API\"")
        .replace(
            "    Payment:\n",
            "    FakeApi: {type: object, properties: {x: {type: string}}}\n    Payment:\n",
        );
    let output = crate_of(&spec, "");
    assert!(output.files["src/gen/mock.rs"].contains("pub struct FakeApi "));
    let models = &output.files["src/gen/models.rs"];
    assert!(!models.contains("pub struct FakeApi "), "{models}");
    assert!(models.contains("pub struct FakeApi2 "), "{models}");
    assert!(output.files["src/gen/client.rs"].contains("\"API_API_KEY\""));
}

/// `operationId`s name the operations (snake_case, told apart, never a name every client has);
/// an operation without one is named by method + path.
#[test]
fn operation_ids_name_the_operations() {
    let names = operation_names(&acme(), "", &NameLock::default());
    let expected: Vec<(String, String)> = [
        ("DELETE /payments/{payment_id}", "delete_payment"),
        ("GET /payments", "list_payments"),
        ("GET /payments/{payment_id}", "get_payment"),
        ("GET /refunds", "get_refunds"),
        ("POST /payments", "create_payment"),
        (
            "POST /payments/{payment_id}/refunds",
            "create_payment_by_payment_id",
        ),
    ]
    .map(|(key, name)| (key.to_owned(), name.to_owned()))
    .into();
    assert_eq!(names, expected);
    // The config still names any operation (an override is the config's, not the lock's).
    let config = "operation_names: {GET /payments: payments}\n";
    let output = crate_of(&acme(), config);
    let operations = &output.files["src/gen/operations.rs"];
    assert!(
        operations.contains("pub async fn payments("),
        "{operations}"
    );
    assert!(
        !operations.contains("pub async fn list_payments("),
        "{operations}"
    );
    // `operation_id_names: false` names every one by method + path.
    let names = operation_names(&acme(), "operation_id_names: false\n", &NameLock::default());
    assert!(names.contains(&("GET /payments".to_owned(), "get_payments".to_owned())));
    assert!(names.contains(&("POST /payments".to_owned(), "post_payments".to_owned())));
}

/// A document that gains `operationId`s keeps the names its lock holds, and one that loses them
/// too; an operation new to the lock takes its id's name.
#[test]
fn gaining_or_losing_operation_ids_keeps_the_locked_names() {
    let with_ids = acme();
    let without_ids: String = with_ids
        .lines()
        .filter(|line| !line.trim_start().starts_with("operationId:"))
        .map(|line| format!("{line}\n"))
        .collect();
    let generate = |spec: &str, lock: &NameLock| {
        let input = Input {
            spec_path: "acme.yaml",
            spec_text: spec,
            config_text: None,
        };
        let config = baseten_codegen::Config {
            names_lock: lock.clone(),
            ..baseten_codegen::Config::default()
        };
        baseten_codegen::generate_with(&input, &config).unwrap_or_else(|error| panic!("{error}"))
    };
    let before = generate(&without_ids, &NameLock::default());
    let by_path = before.names.operations.clone();
    assert_eq!(by_path["POST /payments"], "post_payments");
    let gained = generate(&with_ids, &before.names);
    assert_eq!(gained.names.operations, by_path);
    let first = generate(&with_ids, &NameLock::default());
    let lost = generate(&without_ids, &first.names);
    assert_eq!(lost.names.operations, first.names.operations);
    assert_eq!(lost.names.operations["POST /payments"], "create_payment");
    // A newcomer with an id takes it, beside locked names.
    let mut partial = first.names.clone();
    partial.operations.remove("GET /payments");
    let newcomer = generate(&with_ids, &partial);
    assert_eq!(newcomer.names.operations["GET /payments"], "list_payments");
}

/// The compiled snapshot: its own variables and fake, its operations by their ids on the wire.
#[tokio::test]
async fn the_crate_calls_its_operations_by_their_ids() {
    assert_eq!(client::API_KEY_ENV, "ACME_PAYMENTS_API_KEY");
    assert_eq!(client::BASE_URL_ENV, "ACME_PAYMENTS_BASE_URL");
    assert_eq!(client::DEFAULT_BASE_URL, "https://api.acme.test/v2");
    let fake = FakeAcmePayments::start().await;
    let paid = Payment::new("pay_1", 2500);
    fake.on_get_payment("pay_1").respond(&paid).await;
    let client = fake.client().unwrap();
    assert_eq!(client.get_payment("pay_1").await.unwrap(), paid);

    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(201)
                .set_body_raw(r#"{"id": "pay_2", "amount": 10}"#, "application/json"),
        )
        .mount(&server)
        .await;
    let client = Client::builder()
        .api_key("acme-test-key")
        .base_url(server.uri())
        .build()
        .unwrap();
    let created = client.create_payment(&paid).await.unwrap();
    assert_eq!(created.id, "pay_2");
    let requests = server.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].method.as_str(), "POST");
    assert_eq!(requests[0].url.path(), "/payments");
}

/// Each of these fixtures' crates on its own, checked with no feature, the client alone and the
/// fake: no error and no warning in any.
#[test]
#[ignore = "slow: checks seven fixtures' crates with three feature sets each"]
fn the_crates_compile_with_and_without_the_fake() {
    for fixture in [
        "acme",
        "auth",
        "auth_per_operation",
        "placeholders",
        "servers",
        "media",
        "media_multi",
    ] {
        let spec =
            std::fs::read_to_string(tests_dir().join(format!("fixtures/specs/{fixture}.yaml")))
                .unwrap();
        let output = crate_of(&spec, "crate_name: acme_payments\n");
        let root = tempfile::tempdir().unwrap();
        for (relative, contents) in &output.files {
            let path = root.path().join(relative);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, contents).unwrap();
        }
        std::fs::copy(
            workspace_root().join("Cargo.lock"),
            root.path().join("Cargo.lock"),
        )
        .unwrap();
        for features in ["", "client,full", "full,mock"] {
            let output = baseten_tests::cargo_sharing_target()
                .current_dir(root.path())
                .args([
                    "check",
                    "--quiet",
                    "--message-format=short",
                    "--no-default-features",
                ])
                .args(["--features", features])
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                output.status.success() && !stderr.contains("warning"),
                "{fixture} --features {features:?}:\n{stderr}"
            );
        }
    }
}

/// Placeholders no parameter declares (the `placeholders` fixture) are string arguments in
/// template order, named as declared ones are (after a query parameter of the same name), each
/// with a note; on the wire each is written as a `simple` string: one percent-encoded segment.
#[tokio::test]
async fn undeclared_placeholders_are_string_arguments_sent_in_their_place() {
    use baseten_tests::snapshots::placeholders::Client as Files;

    let spec =
        std::fs::read_to_string(tests_dir().join("fixtures/specs/placeholders.yaml")).unwrap();
    let output = baseten_codegen::generate(&Input {
        spec_path: "placeholders.yaml",
        spec_text: &spec,
        config_text: None,
    })
    .unwrap_or_else(|error| panic!("{error}"));
    let notes: Vec<String> = output.notes.iter().map(ToString::to_string).collect();
    let note = |at: &str, placeholder: &str, argument: &str| {
        format!(
            "{at}: path placeholder {{{placeholder}}} has no `in: path` parameter: taken as the \
             string argument `{argument}`"
        )
    };
    let files = "#/paths/~1files~1{bucket}~1{name}.{ext}/get";
    let members = "#/paths/~1orgs~1{org}~1members~1{member-id}/get";
    assert_eq!(
        notes,
        [
            note(files, "bucket", "bucket"),
            note(files, "ext", "ext"),
            note(members, "org", "org_2"),
            note(members, "member-id", "member_id"),
            note("#/paths/~1same~1{id}~1again~1{id}/delete", "id", "id"),
        ]
    );

    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_raw("\"text\"", "application/json"))
        .mount(&server)
        .await;
    let client = Files::builder().base_url(server.uri()).build().unwrap();
    let text = client.get_file("my bucket/1", 7, "tar.gz").await.unwrap();
    assert_eq!(text, "text");
    client.get_member("acme", "u 1", "q").await.unwrap();
    client.delete_same_again("x?y").await.unwrap();
    let sent: Vec<String> = server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|request| match request.url.query() {
            Some(query) => format!("{} {}?{query}", request.method, request.url.path()),
            None => format!("{} {}", request.method, request.url.path()),
        })
        .collect();
    assert_eq!(
        sent,
        [
            "GET /files/my%20bucket%2F1/7.tar.gz",
            "GET /orgs/acme/members/u%201?org=q",
            "DELETE /same/x%3Fy/again/x%3Fy",
        ]
    );
}

/// The scheme the client uses for a document's `securitySchemes` and `security`, as
/// `Client::builder()` sets it, and the notes: the whole table of OpenAPI's scheme types.
#[test]
fn security_schemes_choose_where_the_key_goes() {
    let builder_of = |schemes: &str, security: &str| {
        let spec = format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\n{security}paths:\n  /x:\n    get:\n      \
             responses: {{'204': {{description: ok}}}}\ncomponents:\n  securitySchemes:\n{schemes}"
        );
        let output = baseten_codegen::generate(&Input {
            spec_path: "t.yaml",
            spec_text: &spec,
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{spec}: {error}"));
        let client = &output.files["client.rs"];
        let set = client
            .split(".env_names(API_KEY_ENV, BASE_URL_ENV)")
            .nth(1)
            .and_then(|rest| rest.split("\n    }").next())
            .unwrap_or_default()
            .split_whitespace()
            .collect::<String>();
        let notes: Vec<String> = output
            .notes
            .iter()
            .map(|note| note.message.clone())
            .collect();
        (set, notes)
    };
    let none: Vec<String> = Vec::new();
    let table = [
        ("    a: {type: http, scheme: bearer}\n", "", "", 0),
        ("    a: {type: http, scheme: Bearer}\n", "", "", 0),
        (
            "    a: {type: http, scheme: basic}\n",
            "",
            ".auth_scheme(rt::AuthScheme::Basic)",
            0,
        ),
        (
            "    a: {type: http, scheme: Token}\n",
            "",
            ".auth_scheme(rt::AuthScheme::Scheme(\"Token\"))",
            0,
        ),
        (
            "    a: {type: apiKey, in: header, name: X-Key}\n",
            "",
            ".auth_scheme(rt::AuthScheme::Header(\"X-Key\"))",
            0,
        ),
        (
            "    a: {type: apiKey, in: cookie, name: sid}\n",
            "",
            ".auth_scheme(rt::AuthScheme::Cookie(\"sid\"))",
            0,
        ),
        // A key in the query is the key only where the document's `security` asks for it.
        ("    a: {type: apiKey, in: query, name: key}\n", "", "", 0),
        (
            "    a: {type: apiKey, in: query, name: key}\n",
            "security:\n  - a: []\n",
            ".key_scheme(\"a\", rt::Place::Query(\"key\"))",
            0,
        ),
        (
            "    a: {type: apiKey, in: header, name: 'X Key'}\n",
            "",
            "",
            1,
        ),
        ("    a: {type: http, scheme: 'to ken'}\n", "", "", 1),
        (
            "    a: {type: openIdConnect, openIdConnectUrl: 'https://x.test'}\n",
            "",
            "",
            1,
        ),
        // `security` picks the key's scheme among several, in its order (a requirement of two
        // schemes at once is passed over); alternatives make the operations carry them.
        (
            "    a: {type: http, scheme: basic}\n    b: {type: apiKey, in: header, name: X-B}\n",
            "security:\n  - {a: [], b: []}\n  - b: []\n",
            ".key_scheme(\"b\", rt::Place::Auth(rt::AuthScheme::Header(\"X-B\")))",
            0,
        ),
        (
            "    a: {type: http, scheme: basic}\n    b: {type: apiKey, in: query, name: k}\n",
            "security:\n  - b: []\n  - a: []\n",
            ".key_scheme(\"b\", rt::Place::Query(\"k\"))",
            0,
        ),
        // One requirement naming one scheme: the key alone, as before.
        (
            "    a: {type: http, scheme: basic}\n    b: {type: apiKey, in: header, name: X-B}\n",
            "security:\n  - b: []\n",
            ".auth_scheme(rt::AuthScheme::Header(\"X-B\"))",
            0,
        ),
        // A requirement naming what `securitySchemes` does not declare is noted.
        (
            "    a: {type: http, scheme: basic}\n",
            "security:\n  - c: []\n",
            ".key_scheme(\"a\", rt::Place::Auth(rt::AuthScheme::Basic))",
            1,
        ),
    ];
    for (schemes, security, expected, notes) in table {
        let (set, noted) = builder_of(schemes, security);
        assert_eq!(
            set,
            expected.split_whitespace().collect::<String>(),
            "{schemes}{security}"
        );
        assert_eq!(noted.len(), notes, "{schemes}{security}: {noted:?}");
    }
    assert_eq!(builder_of("    {}\n", "").1, none);
}

/// The `auth` fixture's one operation takes the document's alternatives in order: the key (the
/// first alternative's scheme, a key in the query) goes in the URL, never in `Authorization`;
/// with only the `X-Api-Key` credential it goes there instead; a key echoed back is scrubbed.
#[tokio::test]
async fn the_documents_scheme_carries_the_key_on_the_wire() {
    use baseten_tests::snapshots::auth::Client as Vault;
    use baseten_tests::snapshots::auth::client::Credentials as _;

    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(401).set_body_raw(
            r#"{"message": "bad key vault-key-Zq9w7"}"#,
            "application/json",
        ))
        .mount(&server)
        .await;
    let client = Vault::builder()
        .api_key("vault-key-Zq9w7")
        .base_url(server.uri())
        .build()
        .unwrap();
    let error = client.list_secrets().await.expect_err("a 401");
    let shown = format!("{error} {error:?}");
    assert!(!shown.contains("vault-key-Zq9w7"), "{shown}");
    let client = Vault::builder()
        .header_key("vault-key-Zq9w7")
        .base_url(server.uri())
        .build()
        .unwrap();
    let _ = client.list_secrets().await.expect_err("a 401");
    let requests = server.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].url.query(), Some("api_key=vault-key-Zq9w7"));
    assert!(requests[0].headers.get("x-api-key").is_none());
    let header = |at: usize, name: &str| {
        requests[at]
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    assert_eq!(header(1, "x-api-key").as_deref(), Some("vault-key-Zq9w7"));
    assert_eq!(requests[1].url.query(), None);
    for at in 0..2 {
        assert_eq!(header(at, "authorization"), None);
    }
}

/// Every server by name with its variables at their defaults (the `servers` fixture); a
/// relative default is resolved against the origin the user gives, and without one `build`
/// says what to set; the requests go under the resolved prefix.
#[tokio::test]
async fn servers_are_filled_named_and_a_relative_one_resolved() {
    use baseten_tests::snapshots::servers::{Client as Things, client as things};

    assert_eq!(things::DEFAULT_BASE_URL, "/api/v2");
    assert_eq!(things::servers::WHEREVER_IT_IS_DEPLOYED, "/api/v2");
    assert_eq!(things::servers::PRODUCTION, "https://us.api.things.test/v2");
    assert_eq!(things::servers::SERVER_3, "http://localhost:8080");

    let refused = Things::new("k").err().map(|error| error.to_string());
    assert_eq!(
        refused.as_deref(),
        Some(
            "invalid request: the document's server URL \"/api/v2\" is relative: set the origin \
             it is relative to with `origin(..)`, or a whole base URL with `base_url(..)`"
        )
    );
    let production = Things::builder()
        .base_url(things::servers::PRODUCTION)
        .build()
        .unwrap();
    assert_eq!(production.base_url(), "https://us.api.things.test/v2");

    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_raw("\"a thing\"", "application/json"))
        .mount(&server)
        .await;
    let client = Things::builder()
        .origin(format!("{}/", server.uri()))
        .build()
        .unwrap();
    assert_eq!(client.base_url(), format!("{}/api/v2", server.uri()));
    assert_eq!(client.get_thing("t 1").await.unwrap(), "a thing");
    // A whole base URL wins over the origin.
    let client = Things::builder()
        .origin("http://127.0.0.1:9")
        .base_url(server.uri())
        .build()
        .unwrap();
    client.get_thing("t2").await.unwrap();
    let paths: Vec<String> = server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|request| request.url.path().to_owned())
        .collect();
    assert_eq!(paths, ["/api/v2/things/t%201", "/things/t2"]);
}

/// A variable the server does not declare stays as written, with a note; a server's name comes
/// from its description, else its place, told apart when two agree.
#[test]
fn server_names_and_undeclared_variables() {
    let spec = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\nservers:\n  - url: 'https://{tenant}.x.test/'\n    \
                description: Main\n  - url: https://y.test\n    description: main!\n  - url: https://z.test\n\
                paths: {}\n";
    let output = baseten_codegen::generate(&Input {
        spec_path: "t.yaml",
        spec_text: spec,
        config_text: None,
    })
    .unwrap_or_else(|error| panic!("{error}"));
    let client = &output.files["client.rs"];
    for expected in [
        "pub const DEFAULT_BASE_URL: &str = \"https://{tenant}.x.test\";",
        "pub const MAIN: &str = \"https://{tenant}.x.test\";",
        "pub const MAIN_2: &str = \"https://y.test\";",
        "pub const SERVER_3: &str = \"https://z.test\";",
    ] {
        assert!(client.contains(expected), "{expected}\n{client}");
    }
    let notes: Vec<String> = output.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        ["#/servers/0/url: server variable {tenant} is not declared: kept as written"]
    );
}
