//! Parameters where real-world documents put them (the `wire` fixture) against a local server:
//! the exact URL (placeholders beside literals, the same placeholder twice, `label` and
//! `matrix`, delimited arrays, a `deepObject` array, a path key's fragment and query string),
//! the header and cookie parameters sent, a value that is not a header value refused, and the
//! fake matching headers and cookies. Also: every operation of every fixture has exactly its
//! template's placeholders as path arguments.

use baseten_tests::snapshots::wire::Client;
use baseten_tests::snapshots::wire::mock::FakeBaseten;
use baseten_tests::snapshots::wire::models::{
    GetTenantCallsTheme, PostOauth2TokenBody, PostOauth2TokenRefreshBody, PostTenantCallsStartBody,
};
use baseten_tests::snapshots::wire::operations::{GetResponsesBetaTrueQuery, GetTenantCallsQuery};
use baseten_tests::{files_with_extension, tests_dir};
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

fn client(server: &MockServer) -> Client {
    Client::builder()
        .api_key("wire-test-key-Qz8")
        .base_url(server.uri())
        .build()
        .unwrap_or_else(|error| panic!("{error}"))
}

/// A server answering every request with `status` and `body` as JSON.
async fn answering(status: u16, body: &str) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(status).set_body_raw(body, "application/json"))
        .mount(&server)
        .await;
    server
}

async fn only_request(server: &MockServer) -> Request {
    let mut requests = server.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 1, "requests received");
    requests.remove(0)
}

/// The path and query exactly as sent (still percent-encoded).
fn path_and_query(request: &Request) -> String {
    match request.url.query() {
        Some(query) => format!("{}?{query}", request.url.path()),
        None => request.url.path().to_owned(),
    }
}

fn headers(request: &Request, name: &str) -> Vec<String> {
    request
        .headers
        .get_all(name)
        .iter()
        .map(|value| value.to_str().unwrap_or("<not text>").to_owned())
        .collect()
}

#[tokio::test]
async fn placeholders_beside_literals_are_substituted_and_encoded() {
    let server = answering(200, r#"{"sid": "CA1"}"#).await;
    let call = client(&server)
        .get_2010_04_01_account_call("AC 1/2", "CA.1")
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(call.sid, "CA1");
    assert_eq!(
        path_and_query(&only_request(&server).await),
        "/2010-04-01/Accounts/AC%201%2F2/Calls/CA.1.json"
    );

    let server = server_text("hello").await;
    let got = client(&server).get_file("re port", "tar.gz").await;
    assert_eq!(got.ok().as_deref(), Some("hello"));
    assert_eq!(
        path_and_query(&only_request(&server).await),
        "/files/re%20port.tar.gz"
    );

    // An empty value would drop the segment's parameter: refused, nothing sent.
    let server = server_text("hello").await;
    let error = client(&server).get_file("", "txt").await.err();
    assert!(
        matches!(&error, Some(baseten_api::Error::InvalidRequest(message)) if message.contains("`name`")),
        "{error:?}"
    );
    assert!(
        server
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty()
    );
}

async fn server_text(body: &str) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_raw(body, "text/plain"))
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn path_styles_and_a_placeholder_written_twice() {
    let server = answering(204, "").await;
    let sent = client(&server).post_mirror_copy(7).await;
    assert!(sent.is_ok(), "{sent:?}");
    assert_eq!(
        path_and_query(&only_request(&server).await),
        "/mirror/7/copy/7"
    );

    let server = answering(204, "").await;
    let sent = client(&server).get_point_report("a.b", 12).await;
    assert!(sent.is_ok(), "{sent:?}");
    assert_eq!(
        path_and_query(&only_request(&server).await),
        // `.` is `label`'s delimiter: a dot inside the value is escaped.
        "/points/.a%2Eb/reports/;report=12"
    );
}

#[tokio::test]
async fn headers_cookies_and_delimited_arrays_are_sent_as_the_document_says() {
    let server = answering(200, "[]").await;
    let query = GetTenantCallsQuery::default()
        .x_sample_rate(5)
        .x_tags(["a", "b c"])
        .theme(GetTenantCallsTheme::Dark)
        .ids([1, 2, 3])
        .states(["queued", "done"])
        .expand(["data.owner", "data.line"]);
    let calls = client(&server)
        .get_tenant_calls(
            "t1",
            "eu-west",
            "s=1; evil",
            &["x".to_owned(), "y z".to_owned()],
            &query,
        )
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert!(calls.is_empty());
    let request = only_request(&server).await;
    assert_eq!(
        path_and_query(&request),
        "/v1/tenants/t1/calls?words=x%20y+z&ids=1,2,3&states=queued|done\
         &expand[]=data.owner&expand[]=data.line"
    );
    assert_eq!(headers(&request, "x-tenant-region"), ["eu-west"]);
    assert_eq!(headers(&request, "x-sample-rate"), ["5"]);
    assert_eq!(headers(&request, "x-tags"), ["a,b%20c"]);
    // One Cookie header; a value cannot end its cookie or start another.
    assert_eq!(
        headers(&request, "cookie"),
        ["session=s%3D1%3B%20evil; theme=dark"]
    );
    // The ignored `Authorization` parameter never replaces the client's key.
    assert_eq!(
        headers(&request, "authorization"),
        ["Bearer wire-test-key-Qz8"]
    );

    // Unset optional ones send nothing; the required array sent empty is `words=` (issue 29:
    // it sent nothing, as if absent).
    let server = answering(200, "[]").await;
    let sent = client(&server)
        .get_tenant_calls("t1", "us", "s", &[], &GetTenantCallsQuery::default())
        .await;
    assert!(sent.is_ok(), "{sent:?}");
    let request = only_request(&server).await;
    assert_eq!(path_and_query(&request), "/v1/tenants/t1/calls?words=");
    assert_eq!(headers(&request, "x-tenant-region"), ["us"]);
    assert!(headers(&request, "x-sample-rate").is_empty());
    assert!(headers(&request, "x-tags").is_empty());
    assert_eq!(headers(&request, "cookie"), ["session=s"]);
}

#[tokio::test]
async fn a_header_value_that_is_not_one_is_an_error_not_a_panic() {
    let server = answering(200, "[]").await;
    for bad in ["eu\r\nX-Injected: 1", "eu\u{0}", "é"] {
        let error = client(&server)
            .get_tenant_calls("t1", bad, "s", &[], &GetTenantCallsQuery::default())
            .await
            .err();
        match &error {
            Some(baseten_api::Error::InvalidRequest(message)) => {
                assert!(message.contains("`X-Tenant-Region`"), "{message}");
                assert!(!message.contains(bad), "the value is not echoed: {message}");
            }
            other => panic!("{bad:?}: {other:?}"),
        }
    }
    assert!(
        server
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty()
    );
}

#[tokio::test]
async fn path_keys_with_a_fragment_or_a_query_string() {
    let server = answering(204, "").await;
    let sent = client(&server)
        .post_oauth2_token_refresh(&PostOauth2TokenRefreshBody::new("r1"))
        .await;
    assert!(sent.is_ok(), "{sent:?}");
    let request = only_request(&server).await;
    assert_eq!(path_and_query(&request), "/oauth2/token");
    assert_eq!(request.body, b"refresh_token=r1");

    let server = answering(204, "").await;
    let sent = client(&server)
        .post_oauth2_token(&PostOauth2TokenBody::new("client_credentials"))
        .await;
    assert!(sent.is_ok(), "{sent:?}");
    assert_eq!(
        only_request(&server).await.body,
        b"grant_type=client_credentials"
    );

    let server = answering(204, "").await;
    let sent = client(&server)
        .get_responses_beta_true(&GetResponsesBetaTrueQuery::default().limit(3))
        .await;
    assert!(sent.is_ok(), "{sent:?}");
    assert_eq!(
        path_and_query(&only_request(&server).await),
        "/v1/responses?beta=true&limit=3"
    );
}

#[tokio::test]
async fn a_form_array_is_its_key_once_per_item() {
    let server = answering(204, "").await;
    let body = PostTenantCallsStartBody::new("+1 555")
        .events(vec!["initiated".to_owned(), "answered".to_owned()])
        .timeout(30);
    let sent = client(&server).post_tenant_calls_start("t1", &body).await;
    assert!(sent.is_ok(), "{sent:?}");
    let request = only_request(&server).await;
    assert_eq!(path_and_query(&request), "/v1/tenants/t1/calls/start");
    // Field order follows serde_json's map (document order with `preserve_order`); the items
    // of the array keep theirs.
    let body = String::from_utf8_lossy(&request.body).into_owned();
    let mut pairs: Vec<&str> = body.split('&').collect();
    assert_eq!(
        pairs
            .iter()
            .filter(|pair| pair.starts_with("events="))
            .collect::<Vec<_>>(),
        [&"events=initiated", &"events=answered"]
    );
    pairs.sort_unstable();
    assert_eq!(
        pairs,
        [
            "events=answered",
            "events=initiated",
            "timeout=30",
            "to=%2B1%20555"
        ]
    );
    // Unset, the array and the option send nothing.
    let server = answering(204, "").await;
    let body = PostTenantCallsStartBody::new("x");
    let sent = client(&server).post_tenant_calls_start("t1", &body).await;
    assert!(sent.is_ok(), "{sent:?}");
    assert_eq!(only_request(&server).await.body, b"to=x");
}

#[tokio::test]
async fn the_fake_matches_headers_cookies_and_path_styles() {
    let fake = FakeBaseten::start().await;
    fake.on_get_tenant_calls("t1")
        .header("x-tenant-region", "eu")
        .cookie("session", "s=1")
        .respond(&Vec::new())
        .await;
    fake.on_get_point_report("p", "4").respond(&()).await;
    let client = fake.client().unwrap_or_else(|error| panic!("{error}"));
    let empty = GetTenantCallsQuery::default();
    let matched = client
        .get_tenant_calls("t1", "eu", "s=1", &[], &empty)
        .await;
    assert!(matched.is_ok(), "{matched:?}");
    // Another header value or cookie matches nothing: the fake answers 404.
    for (region, session) in [("us", "s=1"), ("eu", "s=2")] {
        let unmatched = client
            .get_tenant_calls("t1", region, session, &[], &empty)
            .await;
        assert_eq!(
            unmatched.err().and_then(|e| e.status()),
            Some(404),
            "{region} {session}"
        );
    }
    let styled = client.get_point_report("p", 4).await;
    assert!(styled.is_ok(), "{styled:?}");
}

/// The check behind "never a wrong URL", over every fixture: each emitted operation's path
/// arguments are its template's placeholders, in order, each once, and the emitted method
/// substitutes every one of them.
#[test]
fn every_placeholder_is_an_argument_and_every_path_argument_a_placeholder() {
    for fixture in files_with_extension(&tests_dir().join("fixtures/specs"), "yaml") {
        let text = std::fs::read_to_string(&fixture).unwrap_or_default();
        let input = baseten_codegen::Input {
            spec_path: "spec",
            spec_text: &text,
            config_text: None,
        };
        let (api, _) = baseten_codegen::build_ir(&input)
            .unwrap_or_else(|error| panic!("{}: {error}", fixture.display()));
        for operation in &api.operations {
            let mut placeholders = Vec::new();
            for piece in operation.path.split('{').skip(1) {
                let name = piece.split('}').next().unwrap_or_default().to_owned();
                if !placeholders.contains(&name) {
                    placeholders.push(name);
                }
            }
            let arguments: Vec<&str> = operation
                .path_params
                .iter()
                .map(|param| param.wire_name.as_str())
                .collect();
            assert_eq!(
                placeholders,
                arguments,
                "{} {}",
                fixture.display(),
                operation.name
            );
            assert!(!operation.path.contains(['?', '#']), "{}", operation.path);
        }
        let output = baseten_codegen::generate(&input)
            .unwrap_or_else(|error| panic!("{}: {error}", fixture.display()));
        let emitted = &output.files["operations.rs"];
        for operation in &api.operations {
            for param in &operation.path_params {
                let encoded = format!("\n            .path(\"{}\", rt::", param.wire_name);
                assert!(
                    emitted.contains(&encoded),
                    "{}: {}",
                    operation.name,
                    param.wire_name
                );
            }
        }
    }
}
