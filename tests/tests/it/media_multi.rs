//! Media types by the table of `codegen/src/ir/media.rs` (the `media_multi` fixture) against a
//! local server: what each method sends (`Content-Type`, body bytes) and asks for (`Accept`),
//! how each response is read (text by its charset, bytes, `multipart/*` unsplit, never JSON),
//! a body offered in several media types sent in each by a method of its own, and the notes,
//! listing lines and change report that say so.

use baseten_tests::snapshots::media_multi::Client;
use baseten_tests::snapshots::media_multi::models::{
    FileLink, GetFilesEventsBy, GetFilesEventsById, GetFilesEventsByName, GetFilesEventsFlag,
    Message, PostFilesMultipartBody,
};
use baseten_tests::snapshots::media_multi::operations::GetFilesEventsQuery;
use baseten_tests::tests_dir;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

const KEY: &str = "media-multi-key-Qz81";

fn fixture() -> String {
    std::fs::read_to_string(tests_dir().join("fixtures/specs/media_multi.yaml"))
        .unwrap_or_else(|error| panic!("media_multi.yaml: {error}"))
}

fn client(server: &MockServer) -> Client {
    Client::builder()
        .api_key(KEY)
        .base_url(server.uri())
        .build()
        .unwrap_or_else(|error| panic!("{error}"))
}

/// A server answering every request with `body` as `content_type`.
async fn answering(content_type: &str, body: impl Into<Vec<u8>>) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_raw(body.into(), content_type))
        .mount(&server)
        .await;
    server
}

async fn only_request(server: &MockServer) -> Request {
    let mut requests = server.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 1);
    requests.remove(0)
}

fn header(request: &Request, name: &str) -> Option<String> {
    request
        .headers
        .get(name)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
}

/// What one request carried: its `Content-Type`, body and `Accept`.
async fn sent(server: &MockServer) -> (Option<String>, Vec<u8>, Option<String>) {
    let request = only_request(server).await;
    (
        header(&request, "content-type"),
        request.body.clone(),
        header(&request, "accept"),
    )
}

/// The JSON and form bodies of one operation: each method sends its own media type, the same
/// value, and asks for both JSON media types of the answer (not its `text/plain`, which is not
/// the type it returns).
#[tokio::test]
async fn json_and_form_bodies_are_each_sent_as_themselves() {
    let accept = Some("application/json, application/vnd.api+json".to_owned());
    let message = Message::new("hi there").urgent(true);
    let answer = r#"{"text":"stored"}"#;

    let server = answering("application/vnd.api+json", answer).await;
    let got = client(&server).post_files_messages(Some(&message)).await;
    assert_eq!(got.ok().map(|m| m.text), Some("stored".to_owned()));
    assert_eq!(
        sent(&server).await,
        (
            Some("application/json".to_owned()),
            br#"{"text":"hi there","urgent":true}"#.to_vec(),
            accept.clone()
        )
    );

    let server = answering("application/json", answer).await;
    let got = client(&server)
        .post_files_messages_form(Some(&message))
        .await;
    assert_eq!(got.ok().map(|m| m.text), Some("stored".to_owned()));
    assert_eq!(
        sent(&server).await,
        (
            Some("application/x-www-form-urlencoded".to_owned()),
            b"text=hi%20there&urgent=true".to_vec(),
            accept.clone()
        )
    );

    // Optional in every media type: `None` sends no body and no content type.
    let server = answering("application/json", answer).await;
    let got = client(&server).post_files_messages_form(None).await;
    assert!(got.is_ok(), "{got:?}");
    assert_eq!(sent(&server).await, (None, Vec::new(), accept));
}

/// JSON metadata, or the file itself as `multipart/form-data` (a schema of its own).
#[tokio::test]
async fn a_json_body_and_a_multipart_upload_of_one_operation() {
    let answer = r#"{"id":"f1","bytes":3}"#;
    let server = answering("application/json", answer).await;
    let stored = client(&server)
        .post_files(&FileLink::new("https://files.example/a"))
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(stored.id.as_deref(), Some("f1"));
    assert_eq!(
        sent(&server).await,
        (
            Some("application/json".to_owned()),
            br#"{"url":"https://files.example/a"}"#.to_vec(),
            Some("application/json".to_owned())
        )
    );

    let server = answering("application/json", answer).await;
    let upload = PostFilesMultipartBody::new(vec![0_u8, 0xff, b'\n']).purpose("weights");
    let stored = client(&server)
        .post_files_multipart(&upload)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(stored.bytes, Some(3));
    let (content_type, body, accept) = sent(&server).await;
    assert_eq!(accept.as_deref(), Some("application/json"));
    let content_type = content_type.unwrap_or_default();
    let boundary = content_type
        .strip_prefix("multipart/form-data; boundary=")
        .unwrap_or_else(|| panic!("{content_type}"));
    let mut expected = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"file\"\r\n\
         Content-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    expected.extend([0, 0xff, b'\n']);
    expected.extend(
        format!(
            "\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\
             Content-Type: text/plain; charset=utf-8\r\n\r\nweights\r\n--{boundary}--\r\n"
        )
        .into_bytes(),
    );
    assert_eq!(body, expected, "{}", String::from_utf8_lossy(&body));
}

/// Text in two text media types, and bytes beside JSON.
#[tokio::test]
async fn text_and_bytes_bodies_are_each_sent_as_themselves() {
    for (markdown, media_type) in [(false, "text/plain"), (true, "text/x-markdown")] {
        let server = answering("text/html; charset=utf-8", "<h1>é</h1>").await;
        let client = client(&server);
        let got = if markdown {
            client.post_files_render_text_x_markdown("# é").await
        } else {
            client.post_files_render("# é").await
        };
        assert_eq!(got.ok().as_deref(), Some("<h1>é</h1>"));
        assert_eq!(
            sent(&server).await,
            (
                Some(media_type.to_owned()),
                "# é".as_bytes().to_vec(),
                Some("text/html".to_owned())
            )
        );
    }

    let server = answering("application/json", "").await;
    let got = client(&server)
        .post_files_blobs_bytes(vec![1, 2, 255])
        .await;
    assert!(got.is_ok(), "{got:?}");
    assert_eq!(
        sent(&server).await,
        (
            Some("application/octet-stream".to_owned()),
            vec![1, 2, 255],
            Some("application/json".to_owned())
        )
    );
    let server = answering("application/json", "").await;
    let got = client(&server)
        .post_files_blobs(&FileLink::new("u").purpose("p"))
        .await;
    assert!(got.is_ok(), "{got:?}");
    let (content_type, body, _) = sent(&server).await;
    assert_eq!(content_type.as_deref(), Some("application/json"));
    assert_eq!(body, br#"{"url":"u","purpose":"p"}"#);
}

/// Responses by the table: any string that is not binary is text, decoded by the response's
/// charset; binary (or no schema) is bytes; `multipart/mixed` is its bytes, never JSON; each
/// asks for every media type it reads.
#[tokio::test]
async fn responses_are_read_by_media_type_and_schema() {
    // `application/csv` and `text/csv`, both strings: text, in ISO-8859-1 as the answer says.
    let server = answering("text/csv; charset=ISO-8859-1", b"a,caf\xe9\r\n".to_vec()).await;
    let got = client(&server).get_files_report("r 1").await;
    assert_eq!(got.ok().as_deref(), Some("a,café\r\n"));
    let request = only_request(&server).await;
    assert_eq!(request.url.path(), "/v1/files/reports/r%201");
    assert_eq!(
        header(&request, "accept").as_deref(),
        Some("application/csv, text/csv")
    );

    // Newline-delimited JSON as a string: the text, not a JSON value. Its query: a `oneOf` of
    // flat objects, exploded (the member's properties), and the string enum `[true]`.
    let ndjson = "{\"a\":1}\n{\"a\":2}\n";
    for (by, query, sent_query) in [
        (
            GetFilesEventsBy::Name(GetFilesEventsByName::new("a b")),
            GetFilesEventsQuery::default().flag(GetFilesEventsFlag::True),
            "name=a%20b&flag=true",
        ),
        (
            GetFilesEventsBy::Id(GetFilesEventsById::new(7)),
            GetFilesEventsQuery::default(),
            "id=7",
        ),
    ] {
        let server = answering("application/x-ndjson", ndjson).await;
        let got = client(&server).get_files_events(&by, &query).await;
        assert_eq!(got.ok().as_deref(), Some(ndjson));
        let request = only_request(&server).await;
        assert_eq!(request.url.query(), Some(sent_query));
        assert_eq!(
            header(&request, "accept").as_deref(),
            Some("application/x-ndjson")
        );
    }

    // An image (no schema, and `contentMediaType`): the bytes as they came.
    let image: Vec<u8> = (0..=255).collect();
    let server = answering("image/jpeg", image.clone()).await;
    assert_eq!(client(&server).get_files_avatar().await.ok(), Some(image));
    assert_eq!(
        sent(&server).await.2.as_deref(),
        Some("image/png, image/jpeg")
    );

    // `contentEncoding: base64` on a `text/plain` body: the encoded bytes as they came.
    let server = answering("text/plain", "aGk=").await;
    assert_eq!(
        client(&server).get_files_signature().await.ok(),
        Some(b"aGk=".to_vec())
    );

    // `multipart/mixed`: the whole body, unsplit, whatever the schema says of its parts.
    let multipart = "--b\r\nContent-Type: application/json\r\n\r\n{\"text\":\"x\"}\r\n--b--\r\n";
    let server = answering("multipart/mixed; boundary=b", multipart).await;
    assert_eq!(
        client(&server).get_files_batch().await.ok(),
        Some(multipart.as_bytes().to_vec())
    );
    assert_eq!(sent(&server).await.2.as_deref(), Some("multipart/mixed"));
}

/// A text response that is not text in its charset, or names a charset no decoder knows, is a
/// typed error (never replaced characters, never a panic), and shows no echoed key.
#[tokio::test]
async fn text_that_is_not_text_in_its_charset_is_a_typed_error() {
    use baseten_api::runtime::text::{UndecodableReason, UndecodableText};
    let cases: Vec<(String, Vec<u8>, UndecodableReason)> = vec![
        (
            "text/csv".to_owned(),
            b"ab\xffcd".to_vec(),
            UndecodableReason::Malformed {
                valid_up_to: Some(2),
            },
        ),
        (
            "application/csv; charset=utf-8".to_owned(),
            b"\xc3".to_vec(),
            UndecodableReason::Malformed {
                valid_up_to: Some(0),
            },
        ),
        (
            "text/csv; charset=shift_jis".to_owned(),
            b"\x82".to_vec(),
            UndecodableReason::Malformed { valid_up_to: None },
        ),
        (
            format!("text/csv; charset={KEY}"),
            b"x".to_vec(),
            UndecodableReason::UnknownCharset,
        ),
    ];
    for (content_type, body, reason) in cases {
        let server = answering(&content_type, body).await;
        let error = client(&server)
            .get_files_report("r")
            .await
            .err()
            .unwrap_or_else(|| panic!("{content_type}: decoded"));
        let text = error.to_string();
        let baseten_api::Error::InvalidResponse(invalid) = &error else {
            panic!("{content_type}: {error:?}");
        };
        let undecodable = invalid
            .downcast_ref::<UndecodableText>()
            .unwrap_or_else(|| panic!("{content_type}: {error:?}"));
        assert_eq!(undecodable.reason, reason, "{content_type}");
        assert!(
            !text.contains(KEY) && !format!("{error:?}").contains(KEY),
            "{text}"
        );
        assert!(
            text.starts_with("invalid response: the text response"),
            "{text}"
        );
    }
}

/// The notes (pointer: message) the fixture gives, or the error's text.
fn generate(spec: &str, config: &str) -> Result<Vec<String>, String> {
    let input = baseten_codegen::Input {
        spec_path: "spec",
        spec_text: spec,
        config_text: Some(config),
    };
    baseten_codegen::generate(&input)
        .map(|output| output.notes.iter().map(ToString::to_string).collect())
        .map_err(|error| error.to_string())
}

#[test]
fn what_is_not_read_or_sent_as_declared_has_a_note() {
    assert_eq!(
        generate(&fixture(), ""),
        Ok(vec![
            "#/paths/~1v1~1files~1events/get/parameters/1/schema/enum: values true of a string `enum` are no strings; read as their text".to_owned(),
            "#/paths/~1v1~1files/post/requestBody/content/multipart~1mixed: the request body as multipart/mixed is left out: a media type the generator cannot send (it is sent in the others)".to_owned(),
            "#/paths/~1v1~1files~1batch/get/responses/200/content/multipart~1mixed: the multipart/mixed response is returned as its bytes, unsplit: the client does not read the parts of a multipart body".to_owned(),
        ])
    );
    // Strict mode refuses what is left out; the bytes of a multipart response are no loss.
    assert_eq!(
        generate(&fixture(), "strict: true"),
        Err("#/paths/~1v1~1files/post/requestBody/content/multipart~1mixed: the request body as multipart/mixed would be left out (a media type the generator cannot send (it is sent in the others)); strict mode leaves nothing out".to_owned())
    );
    assert_eq!(
        generate(
            &fixture(),
            "strict: true\nselect: [GET /v1/files/batch, GET /v1/files/events]"
        )
        .map(|n| n.len()),
        Ok(2)
    );
}

fn api(spec: &str) -> baseten_codegen::ir::Api {
    let input = baseten_codegen::Input {
        spec_path: "spec",
        spec_text: spec,
        config_text: Some("operation_id_names: false"),
    };
    baseten_codegen::build_ir(&input)
        .unwrap_or_else(|error| panic!("{error}"))
        .0
}

/// The listing has a line per method, each naming its body's encoding; a document that offers
/// a body in one more media type gains a method, additively, and changes no other.
#[test]
fn each_media_type_is_listed_and_reported_as_added() {
    let spec = fixture();
    let listing = baseten_codegen::diff::listing_of(&api(&spec), "spec")
        .unwrap_or_else(|error| panic!("{error}"));
    let lines: Vec<&str> = listing
        .lines()
        .filter(|line| line.starts_with("fn Client::post_files"))
        .collect();
    assert_eq!(
        lines,
        [
            "fn Client::post_files feature=files (&self, body: &FileLink) -> Result<StoredFile, Error> [POST /v1/files; body: json]",
            "fn Client::post_files_blobs feature=files (&self, body: &FileLink) -> Result<(), Error> [POST /v1/files/blobs; body: json]",
            "fn Client::post_files_blobs_bytes feature=files (&self, body: impl Into<Vec<u8>>) -> Result<(), Error> [POST /v1/files/blobs; body: bytes]",
            "fn Client::post_files_messages feature=files (&self, body: Option<&Message>) -> Result<Message, Error> [POST /v1/files/messages; body: json]",
            "fn Client::post_files_messages_form feature=files (&self, body: Option<&Message>) -> Result<Message, Error> [POST /v1/files/messages; body: form]",
            "fn Client::post_files_multipart feature=files (&self, body: &PostFilesMultipartBody) -> Result<StoredFile, Error> [POST /v1/files; body: multipart]",
            "fn Client::post_files_render feature=files (&self, body: &str) -> Result<String, Error> [POST /v1/files/render; body: text]",
            "fn Client::post_files_render_text_x_markdown feature=files (&self, body: &str) -> Result<String, Error> [POST /v1/files/render; body: text]",
        ]
    );

    let json_only = spec.replace(
        "          text/x-markdown:\n            schema: {type: string}\n",
        "",
    );
    assert_ne!(json_only, spec);
    let report = baseten_codegen::diff::api_changes(&api(&json_only), &api(&spec))
        .unwrap_or_else(|error| panic!("{error}"));
    assert!(!report.is_breaking(), "{report}");
    let report = report.to_string();
    assert!(
        report.starts_with("1 changes to the generated API (0 breaking, 1 additive)\n")
            && report.contains("Client::post_files_render_text_x_markdown"),
        "{report}"
    );
}
