//! Per-operation security on the wire (issue 39 item 3; OpenAPI 3.1 §4.8.10 and §4.8.30): the
//! `auth_per_operation` fixture's crate against a local server, the whole table of scheme type ×
//! location × an operation's own `security` (`[]` included) × alternatives × several schemes at
//! once, for clients holding no credential, the key alone, one scheme's, and every scheme's.
//! What each request carried is read back from the server; a requirement the client cannot meet
//! sends nothing and fails naming the operation and its schemes.

use baseten_api::error::InvalidArgument;
use baseten_api::runtime::MissingCredentials;
use baseten_tests::snapshots::auth_per_operation::Client;
use baseten_tests::snapshots::auth_per_operation::client::Credentials as _;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Every operation of the fixture, by its `operationId`.
const OPERATIONS: &[&str] = &[
    "byDefault",
    "publicInfo",
    "withBasic",
    "withToken",
    "withHeader",
    "withQuery",
    "withCookie",
    "withEither",
    "withBoth",
    "optionally",
    "withOauth",
    "withOidc",
];

/// Calls the operation `name`.
async fn call(client: &Client, name: &str) -> Result<String, baseten_api::Error> {
    match name {
        "byDefault" => client.by_default().await,
        "publicInfo" => client.public_info().await,
        "withBasic" => client.with_basic().await,
        "withToken" => client.with_token().await,
        "withHeader" => client.with_header().await,
        "withQuery" => client.with_query("x y").await,
        "withCookie" => client.with_cookie("dark").await,
        "withEither" => client.with_either().await,
        "withBoth" => client.with_both().await,
        "optionally" => client.optionally().await,
        "withOauth" => client.with_oauth().await,
        "withOidc" => client.with_oidc().await,
        other => panic!("no operation {other}"),
    }
}

/// The clients of the table, by what they hold.
fn client(holding: &str, base_url: &str) -> Client {
    let builder = Client::builder().base_url(base_url);
    let builder = match holding {
        "nothing" => builder,
        "key" => builder.api_key("K-bearer"),
        "header" => builder.header_key("H-key"),
        "query" => builder.query_key("Q key&"),
        "cookie+header" => builder.cookie_key("C-key").header_key("H-key"),
        "everything" => builder
            .bearer("K-bearer")
            .basic_auth("user", "P-basic")
            .token("T-token")
            .header_key("H-key")
            .query_key("Q key&")
            .cookie_key("C-key")
            .oauth("O-token")
            .oidc("D-token"),
        other => panic!("no client {other}"),
    };
    builder
        .build()
        .unwrap_or_else(|error| panic!("{holding}: {error}"))
}

/// What a request carried: `Authorization`, `X-Api-Key`, `Cookie` and the query, `-` for none.
fn carried(request: &wiremock::Request) -> String {
    let header = |name: &str| {
        let values: Vec<&str> = request
            .headers
            .get_all(name)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .collect();
        if values.is_empty() {
            "-".to_owned()
        } else {
            values.join(" | ")
        }
    };
    format!(
        "{} ; {} ; {} ; {}",
        header("authorization"),
        header("x-api-key"),
        header("cookie"),
        request.url.query().unwrap_or("-")
    )
}

/// What the table expects a request to carry (`carried`'s form), or the schemes of the error.
fn expected(operation: &str, holding: &str) -> Result<&'static str, &'static str> {
    const BEARER: &str = "Bearer K-bearer ; - ; - ; -";
    const HEADER: &str = "- ; H-key ; - ; -";
    const QUERY: &str = "- ; - ; - ; api_key=Q%20key%26";
    const NONE: &str = "- ; - ; - ; -";
    let everything = holding == "everything";
    let header = matches!(holding, "header" | "cookie+header") || everything;
    let query = holding == "query" || everything;
    let cookie = holding == "cookie+header" || everything;
    match operation {
        "byDefault" if holding == "key" || everything => Ok(BEARER),
        "byDefault" => Err("(`bearer`)"),
        "publicInfo" => Ok(NONE),
        "withBasic" if everything => Ok("Basic dXNlcjpQLWJhc2lj ; - ; - ; -"),
        "withBasic" => Err("(`basicAuth`)"),
        "withToken" if everything => Ok("Token T-token ; - ; - ; -"),
        "withToken" => Err("(`token`)"),
        "withHeader" if header => Ok(HEADER),
        "withHeader" => Err("(`headerKey`)"),
        "withQuery" if query => Ok("- ; - ; - ; q=x%20y&api_key=Q%20key%26"),
        "withQuery" => Err("(`queryKey`)"),
        "withCookie" if cookie => Ok("- ; - ; theme=dark; session=C-key ; -"),
        "withCookie" => Err("(`cookieKey`)"),
        // Alternatives: the first met, in the document's order.
        "withEither" if header => Ok(HEADER),
        "withEither" if query => Ok(QUERY),
        "withEither" => Err("(`headerKey` or `queryKey`)"),
        // Both at once, or nothing.
        "withBoth" if header && cookie => Ok("- ; H-key ; session=C-key ; -"),
        "withBoth" => Err("(`headerKey` and `cookieKey`)"),
        // `{}` among the alternatives: met with nothing when the header is not held.
        "optionally" if header => Ok(HEADER),
        "optionally" => Ok(NONE),
        "withOauth" if everything => Ok("Bearer O-token ; - ; - ; -"),
        "withOauth" => Err("(`oauth`)"),
        "withOidc" if everything => Ok("Bearer D-token ; - ; - ; -"),
        "withOidc" => Err("(`oidc`)"),
        other => panic!("no row for {other}"),
    }
}

#[tokio::test]
async fn each_operation_carries_what_its_requirements_pick() {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_raw("\"ok\"", "application/json"))
        .mount(&server)
        .await;
    let mut sent = 0;
    for holding in [
        "nothing",
        "key",
        "header",
        "query",
        "cookie+header",
        "everything",
    ] {
        let client = client(holding, &server.uri());
        for operation in OPERATIONS {
            let got = call(&client, operation).await;
            let requests = server.received_requests().await.unwrap_or_default();
            match expected(operation, holding) {
                Ok(carries) => {
                    assert_eq!(got.ok().as_deref(), Some("ok"), "{operation} / {holding}");
                    sent += 1;
                    assert_eq!(requests.len(), sent, "{operation} / {holding}");
                    let last = &requests[sent - 1];
                    assert_eq!(carried(last), carries, "{operation} / {holding}");
                }
                Err(schemes) => {
                    // Nothing went out.
                    assert_eq!(requests.len(), sent, "{operation} / {holding}");
                    let error = got.expect_err("no credentials");
                    let baseten_api::Error::InvalidArgument(argument) = &error else {
                        panic!("{operation} / {holding}: {error:?}");
                    };
                    let missing = InvalidArgument::downcast_ref::<MissingCredentials>(argument)
                        .unwrap_or_else(|| panic!("{operation} / {holding}: {error:?}"));
                    let snake = missing.operation;
                    assert!(
                        error.to_string().contains(&format!(
                            "{snake}: the client holds no credentials for the security schemes \
                             it needs {schemes}"
                        )),
                        "{operation} / {holding}: {error}"
                    );
                }
            }
        }
    }
    // Every row of the table was either sent or refused, and some of each.
    assert!(sent > OPERATIONS.len(), "{sent}");
}

/// Every credential the client holds stays out of its `Debug`, its builder's and its errors,
/// though the server echoes each back.
#[tokio::test]
async fn no_credential_is_shown() {
    let server = MockServer::start().await;
    let echoed = "K-bearer P-basic T-token H-key Q%20key%26 C-key O-token D-token";
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(401)
                .set_body_raw(format!("{{\"message\": \"{echoed}\"}}"), "application/json"),
        )
        .mount(&server)
        .await;
    let client = client("everything", &server.uri());
    let mut shown = vec![format!("{client:?}")];
    for operation in OPERATIONS {
        let error = call(&client, operation).await.expect_err("a 401");
        shown.push(format!("{error} {error:?}"));
    }
    for text in shown {
        for secret in [
            "K-bearer",
            "P-basic",
            "T-token",
            "H-key",
            "Q key&",
            "Q%20key%26",
            "C-key",
            "O-token",
            "D-token",
        ] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
    }
}

/// The outside oracle (Stoplight Prism, which checks each request's credentials against the
/// document's `securitySchemes` and answers 401 when its requirements are not met): every
/// operation sent by a client holding every credential passes, `security: []` and an empty
/// alternative pass with none, and the same requests sent with no credential are refused, so
/// Prism does check them. `withToken` is not asked: Prism 5.14 has no handler for an `http`
/// scheme other than basic, bearer and digest (`findSecurityHandler` in prism-http).
#[tokio::test]
#[ignore = "slow: runs Stoplight Prism (node) over the auth_per_operation fixture"]
async fn prism_accepts_the_credentials_each_operation_picks() {
    let document = baseten_tests::tests_dir().join("fixtures/specs/auth_per_operation.yaml");
    let Some(prism) = crate::prism::Prism::start(&document, false) else {
        return;
    };
    let once = baseten_api::client::RetryPolicy::none();
    let everything = client("everything", &prism.base_url).with_retry_policy(once);
    let nothing = client("nothing", &prism.base_url).with_retry_policy(once);
    let mut refused_bare = 0;
    for operation in OPERATIONS.iter().filter(|name| **name != "withToken") {
        let got = call(&everything, operation).await;
        assert!(got.is_ok(), "{operation} with every credential: {got:?}");
        let bare = call(&nothing, operation).await;
        match *operation {
            "publicInfo" | "optionally" => {
                assert!(bare.is_ok(), "{operation} with none: {bare:?}");
            }
            _ => {
                // Refused by the client before sending; sent anyway through `request`, Prism
                // refuses it.
                assert!(bare.is_err(), "{operation} with none: {bare:?}");
                let path = format!(
                    "/vault/{}",
                    match *operation {
                        "byDefault" => "default",
                        "withBasic" => "basic",
                        "withHeader" => "header",
                        "withQuery" => "query?q=x",
                        "withCookie" => "cookie",
                        "withEither" => "either",
                        "withBoth" => "both",
                        "withOauth" => "oauth",
                        "withOidc" => "oidc",
                        other => panic!("no path for {other}"),
                    }
                );
                let (path, query) = path.split_once('?').unwrap_or((&path, ""));
                let mut raw = nothing.request(reqwest::Method::GET, path.to_owned());
                if let Some((key, value)) = query.split_once('=') {
                    raw = raw.query(key, value);
                }
                if *operation == "withCookie" {
                    raw = raw.header("cookie", "theme=dark");
                }
                let sent = raw.send_raw().await;
                let status = sent.as_ref().err().and_then(baseten_api::Error::status);
                assert_eq!(status, Some(401), "{operation} sent bare: {sent:?}");
                refused_bare += 1;
            }
        }
    }
    assert_eq!(refused_bare, 9);
}

/// The fake's own client holds a credential for every scheme, so every operation reaches it.
#[tokio::test]
async fn the_fakes_client_reaches_every_operation() {
    use baseten_tests::snapshots::auth_per_operation::mock::FakeLocks;

    let fake = FakeLocks::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_raw("\"ok\"", "application/json"))
        .mount(fake.server().wiremock())
        .await;
    let client = fake.client().unwrap_or_else(|error| panic!("{error}"));
    for operation in OPERATIONS {
        let got = call(&client, operation).await;
        assert_eq!(got.ok().as_deref(), Some("ok"), "{operation}");
    }
}
