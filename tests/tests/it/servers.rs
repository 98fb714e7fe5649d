//! Servers end to end (issue 39 item 4; OpenAPI 3.1 §4.8.5 Server Object, §4.8.6 Server Variable
//! Object, §4.8.8/§4.8.10 path and operation `servers`), on the `servers` fixture's compiled
//! crate against local servers on 127.0.0.1:
//!
//! | case | the document | expected |
//! |---|---|---|
//! | variable with `enum` | `Production`'s `{region}` | an enum, each value exact on the wire |
//! | variable without `enum` | `SelfHosted`'s `{host}`, `{port}`, `{base}` | a string, checked and encoded for its place |
//! | default | every variable unset | the URL of `client::servers` |
//! | relative URL, no base | `/api/v2` | `build` says to set `origin` |
//! | relative URL, a base | `/api/v2` and `origin` | under the origin |
//! | per-path | `/uploads` servers | `create_upload` under `/uploads`, credentials kept (same origin) |
//! | per-operation over per-path | `put /uploads` servers | `replace_upload` under `/own-uploads` |
//! | other origin | `get_report` sent to a second server | no key, no default header, unless `send_credentials_to` |
//! | a whole base URL | `base_url` | every operation there |

use baseten_tests::snapshots::servers::client::servers::{
    Production, ProductionRegion, SelfHosted, SelfHostedScheme, Server3,
};
use baseten_tests::snapshots::servers::{Client, client::servers};
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

const KEY: &str = "servers-key-Hq4v";

/// A local server answering every request with a JSON string.
async fn answering() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_raw("\"done\"", "application/json"))
        .mount(&server)
        .await;
    server
}

/// Each request `server` received: its path, and its `Authorization` and `x-team` headers.
async fn received(server: &MockServer) -> Vec<(String, Option<String>, Option<String>)> {
    let header = |request: &wiremock::Request, name: &str| {
        request
            .headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned)
    };
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|request| {
            (
                request.url.path().to_owned(),
                header(request, "authorization"),
                header(request, "x-team"),
            )
        })
        .collect()
}

fn port_of(server: &MockServer) -> String {
    server.address().port().to_string()
}

/// An enum variable's values are the document's, exactly; unset variables keep their defaults,
/// which are the constants of `client::servers`.
#[test]
fn enum_variables_and_defaults() {
    assert_eq!(ProductionRegion::Eu.as_str(), "eu");
    assert_eq!(ProductionRegion::Us.as_str(), "us");
    assert_eq!(ProductionRegion::ApSouth.as_str(), "ap-south");
    assert_eq!(Production::new().url().unwrap(), servers::PRODUCTION);
    assert_eq!(Production::default(), Production::new());
    assert_eq!(SelfHosted::new().url().unwrap(), servers::SELF_HOSTED);
    assert_eq!(Server3::new().url().unwrap(), servers::SERVER_3);
    assert_eq!(
        Production::new()
            .region(ProductionRegion::ApSouth)
            .version("3")
            .url()
            .unwrap(),
        "https://ap-south.api.things.test/v3"
    );
    let client = Client::builder()
        .server(Production::new().region(ProductionRegion::Eu))
        .build()
        .unwrap();
    assert_eq!(client.base_url(), "https://eu.api.things.test/v2");
    let client = Client::builder()
        .server(servers::PRODUCTION)
        .build()
        .unwrap();
    assert_eq!(client.base_url(), servers::PRODUCTION);
}

/// A string variable is checked for its place: a host value that would leave the host, a port
/// that is no number, a path value that navigates are refused by `build`, naming the variable.
#[test]
fn string_variables_are_checked_for_their_place() {
    let refused = [
        SelfHosted::new().host("evil.test/"),
        SelfHosted::new().host("user@evil.test"),
        SelfHosted::new().host("evil.test?"),
        SelfHosted::new().host("evil.test#"),
        SelfHosted::new().host("evil.test:1"),
        SelfHosted::new().host(""),
        SelfHosted::new().port("80/x"),
        SelfHosted::new().port("99999"),
        SelfHosted::new().base(".."),
        SelfHosted::new().base(""),
    ];
    for server in refused {
        let error = Client::builder().server(server.clone()).build().err();
        let message = error.map(|error| error.to_string()).unwrap_or_default();
        assert!(
            message.starts_with("invalid request: server variable `"),
            "{server:?}: {message}"
        );
    }
}

/// Every variable set on the wire: the scheme from its enum, the host and port as given, the
/// path value percent-encoded as one segment (its `/` and space escaped).
#[tokio::test]
async fn a_server_with_its_variables_set_on_the_wire() {
    let server = answering().await;
    let client = Client::builder()
        .api_key(KEY)
        .server(
            SelfHosted::new()
                .scheme(SelfHostedScheme::Http)
                .host("127.0.0.1")
                .port(port_of(&server))
                .base("a/b c"),
        )
        .build()
        .unwrap();
    assert_eq!(client.get_thing("t1").await.unwrap(), "done");
    let paths: Vec<String> = received(&server).await.into_iter().map(|r| r.0).collect();
    assert_eq!(paths, ["/a%2Fb%20c/things/t1"]);
}

/// A relative server needs the origin it is relative to: without one `build` says so; with one
/// every operation goes under it, the per-path and per-operation servers too (their own
/// paths), with the key (the same origin).
#[tokio::test]
async fn relative_servers_per_path_and_per_operation() {
    let refused = Client::builder()
        .server(servers::WHEREVER_IT_IS_DEPLOYED)
        .api_key(KEY)
        .build()
        .err()
        .map(|error| error.to_string())
        .unwrap_or_default();
    assert!(refused.contains("is relative: set the origin"), "{refused}");

    let server = answering().await;
    let client = Client::builder()
        .api_key(KEY)
        .origin(server.uri())
        .build()
        .unwrap();
    client.get_thing("t").await.unwrap();
    client.create_upload().await.unwrap();
    client.replace_upload().await.unwrap();
    let bearer = Some(format!("Bearer {KEY}"));
    assert_eq!(
        received(&server).await,
        [
            ("/api/v2/things/t".to_owned(), bearer.clone(), None),
            ("/uploads/uploads".to_owned(), bearer.clone(), None),
            ("/own-uploads/uploads".to_owned(), bearer, None),
        ]
    );
}

/// An operation sent to another origin never gets the key unless the user names that origin:
/// with a key to send it is refused before anything is sent; without one it goes without the
/// default headers; named, it gets both. The base URL's own operations keep both.
#[tokio::test]
async fn another_origin_gets_credentials_only_when_named() {
    let api = answering().await;
    let reports = answering().await;
    let builder = || {
        Client::builder()
            .default_header("x-team", "blue")
            .base_url(api.uri())
            .operation_server("get_report", reports.uri())
    };
    let refused = builder()
        .api_key(KEY)
        .build()
        .unwrap()
        .get_report("r0")
        .await
        .err()
        .map(|error| error.to_string())
        .unwrap_or_default();
    assert!(
        refused.contains("get_report: its server is of another origin"),
        "{refused}"
    );
    let keyless = builder().build().unwrap();
    keyless.get_report("r1").await.unwrap();
    let client = builder().api_key(KEY).build().unwrap();
    client.get_thing("t").await.unwrap();
    let trusting = builder()
        .api_key(KEY)
        .send_credentials_to(reports.uri())
        .build()
        .unwrap();
    trusting.get_report("r2").await.unwrap();

    let bearer = Some(format!("Bearer {KEY}"));
    let team = Some("blue".to_owned());
    assert_eq!(
        received(&reports).await,
        [
            ("/reports/r1".to_owned(), None, None),
            ("/reports/r2".to_owned(), bearer.clone(), team.clone()),
        ]
    );
    assert_eq!(
        received(&api).await,
        [("/things/t".to_owned(), bearer, team)]
    );
}

/// A whole base URL (a test server, a proxy) takes every operation, those with servers of their
/// own too; an override of one that has none is refused, naming those that have.
#[tokio::test]
async fn a_whole_base_url_takes_every_operation() {
    let server = answering().await;
    let client = Client::builder()
        .api_key(KEY)
        .base_url(server.uri())
        .build()
        .unwrap();
    client.get_report("r").await.unwrap();
    client.create_upload().await.unwrap();
    let paths: Vec<String> = received(&server).await.into_iter().map(|r| r.0).collect();
    assert_eq!(paths, ["/reports/r", "/uploads"]);

    let refused = Client::builder()
        .base_url(server.uri())
        .operation_server("get_thing", server.uri())
        .build()
        .err()
        .map(|error| error.to_string())
        .unwrap_or_default();
    assert_eq!(
        refused,
        "invalid request: operation_server: `get_thing` is not an operation with servers of its \
         own (those are: create_upload, get_report, replace_upload)"
    );
}

/// The fake's client reaches every operation, those with servers of their own too.
#[tokio::test]
async fn the_fake_answers_operations_with_servers_of_their_own() {
    use baseten_tests::snapshots::servers::mock::FakeDeployedThings;

    let fake = FakeDeployedThings::start().await;
    fake.on_get_report("r")
        .respond(&"from the fake".to_owned())
        .await;
    let client = fake.client().unwrap();
    assert_eq!(client.get_report("r").await.unwrap(), "from the fake");
}

/// The crate root's docs say where requests go and how to pick a server, set its variables and
/// send an operation elsewhere, from the document; a document without servers says nothing.
#[test]
fn the_crate_root_says_how_to_pick_a_server() {
    let spec =
        std::fs::read_to_string(baseten_tests::tests_dir().join("fixtures/specs/servers.yaml"))
            .unwrap();
    let settings = baseten_codegen::CrateSettings {
        name: "things",
        runtime_path: "../runtime",
        spec_name: "servers.yaml",
        own_workspace: true,
    };
    let crate_of = |spec: &str| {
        let input = baseten_codegen::Input {
            spec_path: "servers.yaml",
            spec_text: spec,
            config_text: None,
        };
        baseten_codegen::generate_crate(&input, &settings).unwrap_or_else(|error| panic!("{error}"))
    };
    let lib = crate_of(&spec).files["src/lib.rs"].clone();
    for expected in [
        "//! # Servers",
        "//! Requests go to `/api/v2` (`client::DEFAULT_BASE_URL`), relative: give the origin",
        "`Client::builder().server(client::servers::Production::new().region(client::servers::ProductionRegion::Eu).version(\"2\"))`",
        "`create_upload`, `get_report`, `replace_upload` go to servers of their own",
    ] {
        assert!(lib.contains(expected), "{expected}\n{lib}");
    }
    let without = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n";
    let lib = crate_of(without).files["src/lib.rs"].clone();
    assert!(!lib.contains("Servers"), "{lib}");
}

/// A default outside its variable's `enum` (OpenAPI 3.1 §4.8.6: it MUST be one of them) is
/// noted and stays the default; names from the document pass the names machinery (a value that
/// is no identifier, a variable named like a keyword, repeated values once).
#[test]
fn a_default_outside_its_enum_is_noted() {
    let spec = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\nservers:\n  - url: 'https://{type}.x.test'\n    \
                variables:\n      type: {enum: [a-b, '2', a-b], default: zz}\npaths: {}\n";
    let output = baseten_codegen::generate(&baseten_codegen::Input {
        spec_path: "t.yaml",
        spec_text: spec,
        config_text: None,
    })
    .unwrap_or_else(|error| panic!("{error}"));
    let notes: Vec<String> = output.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        [
            "#/servers/0/variables/type/default: the default \"zz\" is not one of the variable's \
          `enum` values: it stays the default, the setter takes the listed values"
        ]
    );
    let client = &output.files["client.rs"];
    for expected in [
        "pub const SERVER_1: &str = \"https://zz.x.test\";",
        "pub fn type_(self, value: Server1Type) -> Self",
        "Self::AB => \"a-b\",",
        "Self::V2 => \"2\",",
    ] {
        assert!(client.contains(expected), "{expected}\n{client}");
    }
    assert_eq!(client.matches("=> \"a-b\"").count(), 1, "{client}");
}

/// An operation's own server with variables has a builder too, for `operation_server`: its
/// defaults are the operation's server, a value set is checked and encoded for its place.
#[tokio::test]
async fn an_operation_server_with_variables_has_a_builder() {
    use baseten_tests::snapshots::servers::client::servers::GetReportServer;

    assert_eq!(
        GetReportServer::new().url().unwrap(),
        "https://reports.things.test/2024"
    );
    assert_eq!(
        GetReportServer::new().edition("2025/b").url().unwrap(),
        "https://reports.things.test/2025%2Fb"
    );
    let refused = Client::builder()
        .base_url("http://127.0.0.1:9")
        .operation_server("get_report", GetReportServer::new().edition(".."))
        .build()
        .err()
        .map(|error| error.to_string())
        .unwrap_or_default();
    assert!(refused.contains("server variable `edition`"), "{refused}");
    // Set, it is where the operation goes: under a whole base URL too.
    let server = answering().await;
    let client = Client::builder()
        .base_url(server.uri())
        .operation_server("get_report", server.uri())
        .build()
        .unwrap();
    client.get_report("r").await.unwrap();
    assert_eq!(received(&server).await[0].0, "/reports/r");
}

/// Names the emitted code uses itself are not taken (a server described `Default` has the
/// builder `Default2`, a variable `url` the setter `url_2`), and an enum's value is checked
/// for its place like any other: `y z` cannot be a host label.
#[test]
fn names_of_its_own_and_enum_values_checked() {
    use baseten_tests::snapshots::servers::client::servers::{Default2, Default2Type};

    assert_eq!(Default2::new().url().unwrap(), servers::DEFAULT);
    assert_eq!(
        Default2::new()
            .url_2("b")
            .type_(Default2Type::X)
            .url()
            .unwrap(),
        "https://b.x.things.test"
    );
    let refused = Default2::new().type_(Default2Type::YZ).url().unwrap_err();
    assert!(
        refused.to_string().contains("server variable `type`"),
        "{refused}"
    );
}
