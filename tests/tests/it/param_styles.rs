//! The cases of issues 29 and 31 on the wire, through the `wire` fixture's `/v1/search`,
//! `/v1/blobs/{blob}` and `/v1/feed?from={from}` against a local server: delimiters inside
//! items escaped and the style's own literal, header names the transport owns never sent, a
//! `Cookie` header parameter merged, an `apiKey` query credential absent from errors, and every
//! parameter the document declares sendable (no schema, nullable items, nested `deepObject`, a
//! scalar-or-array union, a `$ref`'d array, an empty path schema, a path key's `?from={from}`).

use baseten_tests::snapshots::styles::models::Colour;
use baseten_tests::snapshots::wire::Client;
use baseten_tests::snapshots::wire::models::{
    GetSearchFilter, GetSearchFilterOwner, GetSearchOneOrMany, PageForm,
};
use baseten_tests::snapshots::wire::operations::GetSearchQuery;
use baseten_tests::tests_dir;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

fn client(base_url: &str) -> Client {
    Client::builder()
        .api_key("styles-test-key-Qz8")
        .base_url(base_url)
        .build()
        .unwrap_or_else(|error| panic!("{error}"))
}

async fn answering_204() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    server
}

async fn only_request(server: &MockServer) -> Request {
    let mut requests = server.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 1, "requests received");
    requests.remove(0)
}

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

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| (*item).to_owned()).collect()
}

/// Issue 29: `["a,b","c"]` with `explode: false` went out as `tags=a%2Cb%2Cc` (three items to a
/// server), `pipeDelimited` and header arrays likewise.
#[tokio::test]
async fn delimiters_inside_items_are_escaped_and_the_styles_are_literal() {
    let server = answering_204().await;
    let sent = client(&server.uri())
        .get_search(
            &strings(&["a,b", "c"]),
            &strings(&["x|y", "z"]),
            &strings(&["h,1", "h 2"]),
            "k",
            &GetSearchQuery::default(),
        )
        .await;
    assert!(sent.is_ok(), "{sent:?}");
    let request = only_request(&server).await;
    assert_eq!(
        path_and_query(&request),
        "/v1/search?tags=a%2Cb,c&lanes=x%7Cy|z&api_key=k"
    );
    assert_eq!(headers(&request, "x-list"), ["h%2C1,h%202"]);
}

/// Issue 38 item 4: `allowReserved: true` on a query parameter and a form field (`/v1/pages`)
/// sends reserved characters and `%XX` triples as they are (a cursor the server handed out
/// encoded goes back as it was, not double-encoded); the parameter and field beside them,
/// without it, are encoded as before.
#[tokio::test]
async fn allow_reserved_values_go_out_as_the_server_wrote_them() {
    let server = answering_204().await;
    let sent = client(&server.uri())
        .post_pages(
            "c2Vj%3D%3D/p?x=1",
            "c2Vj%3D%3D/p",
            &PageForm::new("https://x.test/a?b=%41 c", "a/b c"),
        )
        .await;
    assert!(sent.is_ok(), "{sent:?}");
    let request = only_request(&server).await;
    assert_eq!(
        path_and_query(&request),
        "/v1/pages?cursor=c2Vj%3D%3D/p?x=1&plain=c2Vj%253D%253D%2Fp"
    );
    let body = String::from_utf8_lossy(&request.body).into_owned();
    let mut pairs: Vec<&str> = body.split('&').collect();
    pairs.sort_unstable();
    assert_eq!(
        pairs,
        ["note=a%2Fb%20c", "redirect=https://x.test/a?b=%41%20c"]
    );
}

/// Issue 31: every parameter `/v1/search` declares is sent, each by its style.
#[tokio::test]
async fn every_declared_parameter_is_sendable() {
    let server = answering_204().await;
    let query = GetSearchQuery::default()
        .q("free text")
        .labels([Some("a".to_owned()), None, Some("b".to_owned())])
        .filter(
            GetSearchFilter::new()
                .owner(GetSearchFilterOwner::new().id("u 1"))
                .state("open"),
        )
        .one_or_many(GetSearchOneOrMany::Array(strings(&["p", "q,r"])))
        .names(strings(&["n1", "n2"]));
    let sent = client(&server.uri())
        .get_search(&[], &[], &[], "k", &query)
        .await;
    assert!(sent.is_ok(), "{sent:?}");
    let request = only_request(&server).await;
    // Required arrays sent empty are each style's empty form (issue 29: they sent nothing).
    assert_eq!(
        path_and_query(&request),
        "/v1/search?tags=&lanes=&api_key=k&q=free%20text&labels=a&labels=b\
         &filter[owner][id]=u%201&filter[state]=open&one_or_many=p,q%2Cr&names=n1&names=n2"
    );
    assert_eq!(headers(&request, "x-list"), [""]);

    let server = answering_204().await;
    let query = GetSearchQuery::default().one_or_many(GetSearchOneOrMany::String("s,t".into()));
    let sent = client(&server.uri())
        .get_search(
            &strings(&["t"]),
            &strings(&["l"]),
            &strings(&["x"]),
            "k",
            &query,
        )
        .await;
    assert!(sent.is_ok(), "{sent:?}");
    assert_eq!(
        path_and_query(&only_request(&server).await),
        "/v1/search?tags=t&lanes=l&api_key=k&one_or_many=s%2Ct"
    );

    // An empty path schema is a string; `?from={from}` is a required query parameter.
    let server = answering_204().await;
    let sent = client(&server.uri()).get_blob("b/1 ").await;
    assert!(sent.is_ok(), "{sent:?}");
    assert_eq!(
        path_and_query(&only_request(&server).await),
        "/v1/blobs/b%2F1%20"
    );
    let server = answering_204().await;
    let sent = client(&server.uri())
        .get_feed_from_from("2026-01-01 x&y")
        .await;
    assert!(sent.is_ok(), "{sent:?}");
    assert_eq!(
        path_and_query(&only_request(&server).await),
        "/v1/feed?from=2026-01-01%20x%26y"
    );
}

/// Issue 29: a `Cookie` header parameter's value was replaced by the cookie parameters.
#[tokio::test]
async fn a_cookie_header_parameter_is_merged_with_the_cookie_parameters() {
    let server = answering_204().await;
    let query = GetSearchQuery::default().cookie("sid=abc").lang("en");
    let sent = client(&server.uri())
        .get_search(&[], &[], &[], "k", &query)
        .await;
    assert!(sent.is_ok(), "{sent:?}");
    assert_eq!(
        headers(&only_request(&server).await, "cookie"),
        ["sid=abc; lang=en"]
    );
}

/// Issue 29: header parameters named like transport headers reached the wire (`Host` with
/// the key attached, `Transfer-Encoding` on a plain body). They are left out with a note each,
/// by the one rule that also ignores `Accept`, `Content-Type` and `Authorization`.
#[test]
fn transport_header_parameters_are_ignored_with_a_note() {
    let spec_text = std::fs::read_to_string(tests_dir().join("fixtures/specs/wire.yaml"))
        .unwrap_or_else(|error| panic!("{error}"));
    let input = baseten_codegen::Input {
        spec_path: "wire.yaml",
        spec_text: &spec_text,
        config_text: None,
    };
    let output = baseten_codegen::generate(&input).unwrap_or_else(|error| panic!("{error}"));
    let notes: Vec<String> = output.notes.iter().map(ToString::to_string).collect();
    for (index, name) in [
        (4, "Host"),
        (5, "Transfer-Encoding"),
        (6, "Connection"),
        (7, "content-length"),
        (8, "Expect"),
        (9, "TE"),
        (10, "Upgrade"),
        (11, "Keep-Alive"),
        (12, "Proxy-Authorization"),
    ] {
        let expected = format!(
            "#/paths/~1v1~1search/get/parameters/{index}: header parameter `{name}` is ignored: \
             a transport or framing header, which the HTTP client sets"
        );
        assert!(notes.contains(&expected), "{expected}\n{notes:#?}");
    }
    let operations = &output.files["operations.rs"];
    for name in [
        "Host",
        "Transfer-Encoding",
        "Connection",
        "content-length",
        "Expect",
    ] {
        assert!(
            !operations.contains(&format!("\"{name}\"")),
            "{name} is sent by the emitted code"
        );
    }
    // The `Cookie` header parameter is not ignored: it is merged (the test above).
    assert!(operations.contains("\"Cookie\""));
}

/// Issue 29: a key sent as a query value (an `apiKey` `in: query` scheme's parameter) was
/// printed whole by `Error::Transport`'s `Display` and `Debug`.
#[tokio::test]
async fn an_api_key_query_parameter_is_in_no_error() {
    const KEY: &str = "qk-3f9a7c2e5b8d1f4a6c0e";
    // A port nothing listens on: the connection is refused, a transport error.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
    let port = listener
        .local_addr()
        .unwrap_or_else(|e| panic!("{e}"))
        .port();
    drop(listener);
    let client = Client::builder()
        .api_key("styles-test-key-Qz8")
        .base_url(format!("http://127.0.0.1:{port}"))
        .retry_policy(baseten_api::client::RetryPolicy::default().with_max_attempts(1))
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let failed = client
        .get_search(&[], &[], &[], KEY, &GetSearchQuery::default())
        .await;
    let Err(error) = failed else {
        panic!("a refused connection succeeded");
    };
    let mut shown = vec![error.to_string(), format!("{error:?}")];
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        shown.push(cause.to_string());
        shown.push(format!("{cause:?}"));
        source = cause.source();
    }
    for text in shown {
        assert!(!text.contains(KEY), "{text}");
        assert!(!text.contains("qk-3f9a7c2e"), "{text}");
    }
}

/// Path objects by OpenAPI's table (`styles` fixture; Prism cannot read these, see `prism`):
/// `simple` `R,100,G,200`, `label` `.R,100,G,200`, `matrix` `;color=R,100,G,200`, each item
/// escaped so that the pairs stay pairs.
#[tokio::test]
async fn path_objects_are_sent_by_the_style_table() {
    let colour = Colour::new().r("dark,red").g("1.5;=");
    let styles = baseten_tests::snapshots::styles::Client::builder().api_key("styles-test-key-Qz8");
    for (expected, which) in [
        ("/objects/simple/r,dark%2Cred,g,1.5%3B%3D", 0),
        ("/objects/label/.r,dark%2Cred,g,1%2E5%3B%3D", 1),
        ("/objects/matrix/;map=r,dark%2Cred,g,1.5%3B%3D", 2),
    ] {
        let server = answering_204().await;
        let client = styles
            .clone()
            .base_url(server.uri())
            .build()
            .unwrap_or_else(|error| panic!("{error}"));
        let sent = match which {
            0 => client.get_objects_simple(&colour).await,
            1 => client.get_objects_label(&colour).await,
            _ => client.get_objects_matrix(&colour).await,
        };
        assert!(sent.is_ok(), "{sent:?}");
        assert_eq!(path_and_query(&only_request(&server).await), expected);
    }
}
