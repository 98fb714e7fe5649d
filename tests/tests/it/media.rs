//! Real-world documents beyond JSON: what the generator emits for text, bytes and form bodies
//! (the `media` fixture) against a local server, what it leaves out with a note, what strict
//! mode refuses, and Baseten's newest document with an added binary-upload operation.

use baseten_tests::snapshots::media::Client;
use baseten_tests::snapshots::media::models::{
    CustomerForm, CustomerFormAddress, CustomerFormAddressGeo, CustomerFormItemsItem,
    GetItemsFilter, Login, LoginDevice, SortMode,
};
use baseten_tests::snapshots::media::operations::GetItemsQuery;
use baseten_tests::{shared_dir, tests_dir};
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

fn fixture() -> String {
    std::fs::read_to_string(tests_dir().join("fixtures/specs/media.yaml"))
        .unwrap_or_else(|error| panic!("media.yaml: {error}"))
}

/// The notes (pointer: message) a document and config give, or the error's text.
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

fn check(spec: &str, config: &str, expected: Result<Vec<&str>, &str>) {
    let expected = expected
        .map(|notes| notes.into_iter().map(str::to_owned).collect())
        .map_err(str::to_owned);
    assert_eq!(generate(spec, config), expected, "config: {config}");
}

#[test]
fn what_cannot_be_represented_is_left_out_with_a_note() {
    check(
        &fixture(),
        "",
        Ok(vec![
            "#/paths/~1v1~1raw_parts/post/requestBody/content/multipart~1form-data/schema: operation post_raw_parts (POST /v1/raw_parts) is left out: a multipart/form-data body whose schema is not an object",
        ]),
    );
}

#[test]
fn strict_mode_refuses_with_the_first_pointer() {
    check(
        &fixture(),
        "strict: true",
        Err(
            "#/paths/~1v1~1raw_parts/post/requestBody/content/multipart~1form-data/schema: operation post_raw_parts (POST /v1/raw_parts) would be left out (a multipart/form-data body whose schema is not an object); strict mode leaves nothing out",
        ),
    );
    // A `deepObject` parameter that is not an object is sent as a scalar (`filter=v`).
    let scalar = fixture().replace(
        "          style: deepObject\n          schema:\n            type: object\n            properties:\n              tag:\n                type: string\n",
        "          style: deepObject\n          schema:\n            type: string\n",
    );
    assert_ne!(scalar, fixture());
    check(&scalar, "select: [GET /v1/items]", Ok(vec![]));
    // Selection comes first: what is not selected is never converted, so strict mode passes.
    check(
        &fixture(),
        "strict: true\nselect: [PUT /v1/blobs/*, POST /v1/notes, POST /v1/login]",
        Ok(vec![]),
    );
    check(
        &fixture(),
        "strict: true\nselect: [POST /v1/raw_parts]",
        Err(
            "#/paths/~1v1~1raw_parts/post/requestBody/content/multipart~1form-data/schema: operation post_raw_parts (POST /v1/raw_parts) would be left out (a multipart/form-data body whose schema is not an object); strict mode leaves nothing out",
        ),
    );
}

#[test]
fn an_optional_unsupported_body_goes_alone() {
    let spec = fixture().replace(
        "      operationId: post_raw_parts\n      description: A multipart body that is not an object has no parts, so it is left out.\n      requestBody:\n        required: true",
        "      operationId: post_raw_parts\n      description: A multipart body that is not an object has no parts, so it is left out.\n      requestBody:\n        required: false",
    );
    let output = baseten_codegen::generate(&baseten_codegen::Input {
        spec_path: "spec",
        spec_text: &spec,
        config_text: Some("select: [POST /v1/raw_parts]"),
    })
    .unwrap_or_else(|error| panic!("{error}"));
    let notes: Vec<String> = output.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        [
            "#/paths/~1v1~1raw_parts/post/requestBody/content/multipart~1form-data/schema: the optional request body is left out: a multipart/form-data body whose schema is not an object"
        ]
    );
    let operations = &output.files["operations.rs"];
    assert!(
        operations.contains("pub async fn post_raw_parts(&self) -> Result<(), rt::Error>"),
        "{operations}"
    );
}

fn client(server: &MockServer) -> Client {
    Client::builder()
        .api_key("media-test-key-Jx4")
        .base_url(server.uri())
        .build()
        .unwrap_or_else(|error| panic!("{error}"))
}

async fn echo_server(content_type: &str) -> MockServer {
    let server = MockServer::start().await;
    let content_type = content_type.to_owned();
    Mock::given(any())
        .respond_with(move |request: &Request| {
            ResponseTemplate::new(200).set_body_raw(request.body.clone(), &content_type)
        })
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

#[tokio::test]
async fn bytes_round_trip_with_their_media_type() {
    let server = echo_server("application/octet-stream").await;
    let sent: Vec<u8> = (0..=255).collect();
    let got = client(&server)
        .put_blob(42, bytes::Bytes::from(sent.clone()))
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(got, sent);
    let request = only_request(&server).await;
    assert_eq!(request.url.path(), "/v1/blobs/42");
    assert_eq!(request.body, sent);
    assert_eq!(
        header(&request, "content-type").as_deref(),
        Some("application/octet-stream")
    );
    assert_eq!(
        header(&request, "accept").as_deref(),
        Some("application/octet-stream")
    );

    // A string id through the same `Display` argument, encoded as one segment.
    let server = echo_server("application/octet-stream").await;
    let got = client(&server).put_blob("a/b", vec![1, 2]).await;
    assert_eq!(got.ok(), Some(vec![1, 2]));
    assert_eq!(only_request(&server).await.url.path(), "/v1/blobs/a%2Fb");
}

#[tokio::test]
async fn text_is_sent_and_read_as_text() {
    let server = echo_server("text/plain; charset=utf-8").await;
    let got = client(&server).post_notes(Some("héllo\nworld")).await;
    assert_eq!(got.ok().as_deref(), Some("héllo\nworld"));
    let request = only_request(&server).await;
    assert_eq!(request.body, "héllo\nworld".as_bytes());
    assert_eq!(
        header(&request, "content-type").as_deref(),
        Some("text/plain")
    );
    assert_eq!(
        header(&request, "accept").as_deref(),
        Some("text/plain; charset=utf-8")
    );

    // No body: nothing sent, no content type.
    let server = echo_server("text/plain").await;
    let got = client(&server).post_notes(None).await;
    assert_eq!(got.ok().as_deref(), Some(""));
    let request = only_request(&server).await;
    assert!(request.body.is_empty());
    assert_eq!(header(&request, "content-type"), None);
}

#[tokio::test]
async fn forms_are_encoded_and_json_with_parameters_decodes() {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_raw(r#"{"token":"t1"}"#, "application/json; charset=utf-8"),
        )
        .mount(&server)
        .await;
    // An object in a form is its JSON text.
    let login = Login::new("a b&c")
        .remember(true)
        .device(LoginDevice::new().set_name("pi 5"));
    let session = client(&server)
        .post_login(&login)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(session.token.as_deref(), Some("t1"));
    let request = only_request(&server).await;
    assert_eq!(
        String::from_utf8_lossy(&request.body),
        "user=a%20b%26c&remember=true&device=%7B%22name%22%3A%22pi%205%22%7D"
    );
    assert_eq!(
        header(&request, "content-type").as_deref(),
        Some("application/x-www-form-urlencoded")
    );
}

/// Stripe's forms: each property the `encoding` styles is sent as the query parameter of its
/// name would be; `deepObject` nests objects (`address[geo][lat]`), a map, an array of scalars
/// (`expand[]`) and indexes an array of objects (`items[0][price]`, where `items[][price]`
/// could not say where one item ends); `form` unexploded joins a list with commas; `form`
/// without `explode` is exploded (its default).
#[tokio::test]
async fn styled_form_properties_are_sent_by_their_encoding() {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let form = CustomerForm::new("Ada L")
        .address(
            CustomerFormAddress::new()
                .line1("1 Main St")
                .geo(CustomerFormAddressGeo::new().lat(51.5)),
        )
        .metadata(
            [("order id".to_owned(), "67&35".to_owned())]
                .into_iter()
                .collect::<std::collections::BTreeMap<_, _>>(),
        )
        .expand(vec![
            "customer".to_owned(),
            "invoice.subscription".to_owned(),
        ])
        .items(vec![
            CustomerFormItemsItem::new().price("p_1").quantity(2),
            CustomerFormItemsItem::new().price("p_2"),
        ])
        .tags(vec!["a".to_owned(), "b,c".to_owned()])
        .aliases(vec!["x".to_owned(), "y".to_owned()]);
    let sent = client(&server).post_customers(&form).await;
    assert!(sent.is_ok(), "{sent:?}");
    let request = only_request(&server).await;
    assert_eq!(
        header(&request, "content-type").as_deref(),
        Some("application/x-www-form-urlencoded")
    );
    let body = String::from_utf8_lossy(&request.body).into_owned();
    let mut pairs: Vec<&str> = body.split('&').collect();
    pairs.sort_unstable();
    assert_eq!(
        pairs,
        [
            "address[geo][lat]=51.5",
            "address[line1]=1%20Main%20St",
            "aliases=x",
            "aliases=y",
            "expand[]=customer",
            "expand[]=invoice.subscription",
            "items[0][price]=p_1",
            "items[0][quantity]=2",
            "items[1][price]=p_2",
            "metadata[order%20id]=67%2635",
            "name=Ada%20L",
            "tags=a,b%2Cc",
        ]
    );
}

#[tokio::test]
async fn enum_and_exploded_object_query_parameters() {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(200).set_body_raw(r#"["x","y"]"#, "application/problem+json"),
        )
        .mount(&server)
        .await;
    let query = GetItemsQuery::default()
        .limit(5)
        .after("k 1")
        .cursor(7)
        .filter(GetItemsFilter::new().tag("red"));
    let items = client(&server)
        .get_items(&SortMode::NameDescending, &query)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(items, ["x", "y"]);
    let request = only_request(&server).await;
    assert_eq!(
        request.url.query(),
        Some("sort_by=name_descending&limit=5&after=k%201&cursor=7&filter[tag]=red")
    );
    assert_eq!(
        SortMode::KNOWN,
        &[SortMode::NameAscending, SortMode::NameDescending]
    );
}

fn newest() -> Option<String> {
    let dir = shared_dir("specs")?;
    Some(
        std::fs::read_to_string(dir.join("baseten-management-2026-08-22.json"))
            .unwrap_or_else(|error| panic!("{error}")),
    )
}

/// Baseten's newest document, plus one operation with a binary upload body, built in memory
/// (the shared document is not copied into the repository).
fn newest_with_upload(media_type: &str) -> Option<String> {
    let text = newest()?;
    let mut document: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|error| panic!("{error}"));
    let upload = serde_json::json!({
        "post": {
            "operationId": "upload_model_weights",
            "parameters": [
                {"name": "model_id", "in": "path", "required": true, "schema": {"type": "string"}}
            ],
            "requestBody": {
                "required": true,
                "content": {media_type: {"schema": {"type": "string", "format": "binary"}}}
            },
            "responses": {"204": {"description": "Stored."}}
        }
    });
    document["paths"]["/v1/models/{model_id}/weights"] = upload;
    Some(document.to_string())
}

fn committed_config() -> String {
    std::fs::read_to_string(baseten_tests::workspace_root().join("schema/codegen.yaml"))
        .unwrap_or_else(|error| panic!("{error}"))
}

#[test]
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared: Baseten's published documents and recorded responses"
)]
fn newest_baseten_document_with_a_binary_upload_regenerates() {
    let Some(with_upload) = newest_with_upload("application/octet-stream") else {
        return;
    };
    let config = committed_config();
    assert!(config.contains("\nstrict: true\n"), "{config}");
    // Unselected: never converted; the crate is the committed one, byte for byte.
    let files = |spec: &str, config: &str| {
        baseten_codegen::generate(&baseten_codegen::Input {
            spec_path: "schema/baseten-management.yaml",
            spec_text: spec,
            config_text: Some(config),
        })
        .map(|output| output.files)
        .unwrap_or_else(|error| panic!("{error}"))
    };
    let Some(newest) = newest() else { return };
    assert!(files(&with_upload, &config) == files(&newest, &config));

    // Selected: generated as bytes, strict and all.
    // Into the `select:` list, wherever it stands (the config goes on after it).
    let selected = config.replace(
        "select:\n",
        "select:\n  - POST /v1/models/{model_id}/weights\n",
    );
    assert_ne!(selected, config);
    assert!(selected.contains("\nstrict: true\n"), "{selected}");
    let operations = &files(&with_upload, &selected)["operations.rs"];
    assert!(
        operations.contains(".body(Ok(rt::Body::bytes(\"application/octet-stream\", body)))"),
        "{operations}"
    );
}

#[test]
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared: Baseten's published documents and recorded responses"
)]
fn newest_baseten_document_with_a_multipart_upload_fails_strict_with_the_pointer() {
    let Some(with_upload) = newest_with_upload("multipart/form-data") else {
        return;
    };
    let config = committed_config();
    // The committed selection does not reach it: strict or not, nothing to refuse or leave
    // out (the other notes are the lowering's, the same with and without the upload).
    let left_out = |spec: &str| {
        generate(spec, &config).map(|notes| {
            notes
                .into_iter()
                .filter(|note| note.contains("left out"))
                .count()
        })
    };
    assert_eq!(left_out(&with_upload), Ok(0));
    assert_eq!(
        generate(&with_upload, &config),
        generate(&newest().unwrap_or_default(), &config)
    );
    // Selected, strict: refused, naming the pointer.
    let selected = config.replace(
        "select:\n",
        "select:\n  - POST /v1/models/{model_id}/weights\n",
    );
    check(
        &with_upload,
        &selected,
        Err(
            "#/paths/~1v1~1models~1{model_id}~1weights/post/requestBody/content/multipart~1form-data/schema: operation upload_model_weights (POST /v1/models/{model_id}/weights) would be left out (a multipart/form-data body whose schema is not an object); strict mode leaves nothing out",
        ),
    );
    // Not strict: left out with that note (besides the lowering's), the rest generated.
    let notes = generate(
        &with_upload,
        &selected.replace("strict: true", "strict: false"),
    );
    let left_out: Vec<String> = notes
        .unwrap_or_default()
        .into_iter()
        .filter(|note| note.contains("left out"))
        .collect();
    assert_eq!(
        left_out,
        [
            "#/paths/~1v1~1models~1{model_id}~1weights/post/requestBody/content/multipart~1form-data/schema: operation upload_model_weights (POST /v1/models/{model_id}/weights) is left out: a multipart/form-data body whose schema is not an object"
        ]
    );
}

#[test]
fn change_report_lists_a_left_out_operation_like_a_removed_one() {
    let ir = |spec: &str| {
        baseten_codegen::build_ir(&baseten_codegen::Input {
            spec_path: "spec",
            spec_text: spec,
            config_text: None,
        })
        .map(|(api, _)| api)
        .unwrap_or_else(|error| panic!("{error}"))
    };
    let multipart = fixture();
    let binary = multipart.replace(
        "          multipart/form-data:\n            schema:\n              type: string\n",
        "          application/octet-stream:\n            schema:\n              type: string\n",
    );
    assert_ne!(binary, multipart);
    let report = baseten_codegen::diff::api_changes(&ir(&binary), &ir(&multipart))
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        report.to_string(),
        "2 changes to the generated API (2 breaking, 0 additive)\n  breaking  operation post_raw_parts left out (POST /v1/raw_parts): a multipart/form-data body whose schema is not an object at #/paths/~1v1~1raw_parts/post/requestBody/content/multipart~1form-data/schema  [Client::post_raw_parts]\n  breaking  removed: fn mock::FakeMediaFixture::on_post_raw_parts feature=raw-parts (&self) -> mock::Expectation<'_, ()> [POST /v1/raw_parts]  [mock::FakeMediaFixture::on_post_raw_parts]\n"
    );
    let back = baseten_codegen::diff::api_changes(&ir(&multipart), &ir(&binary))
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        back.to_string(),
        "2 changes to the generated API (0 breaking, 2 additive)\n  additive  added: fn Client::post_raw_parts feature=raw-parts (&self, body: impl Into<Vec<u8>>) -> Result<(), Error> [POST /v1/raw_parts; body: bytes]  [Client::post_raw_parts]\n  additive  added: fn mock::FakeMediaFixture::on_post_raw_parts feature=raw-parts (&self) -> mock::Expectation<'_, ()> [POST /v1/raw_parts]  [mock::FakeMediaFixture::on_post_raw_parts]\n"
    );
}

/// A `204` listed before the `200`: the 200's body is read (it was dropped: the method returned
/// `()`), the `202` with the same body too, and the empty `204` body is `None`.
#[tokio::test]
async fn every_2xx_response_is_read() {
    for (status, body, expected) in [
        (200, r#"{"token":"t1"}"#, Some("t1")),
        (202, r#"{"token":"t2"}"#, Some("t2")),
        (204, "", None),
    ] {
        let server = MockServer::start().await;
        Mock::given(any())
            .respond_with(ResponseTemplate::new(status).set_body_raw(body, "application/json"))
            .mount(&server)
            .await;
        let job = client(&server)
            .get_job("j1")
            .await
            .unwrap_or_else(|error| panic!("{status}: {error}"));
        assert_eq!(
            job.map(|session| session.token),
            expected.map(|token| Some(token.to_owned())),
            "{status}"
        );
        assert_eq!(only_request(&server).await.url.path(), "/v1/jobs/j1");
    }
}

/// 2xx bodies one type cannot hold: different schemas are a `serde_json::Value` with a note,
/// different encodings are left out with a note (an error under `--strict`).
#[test]
fn differing_2xx_bodies_are_a_value_or_left_out() {
    let spec = |second: &str| {
        format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths:\n  /x:\n    get:\n      operationId: get_x\n      responses:\n        '200': {{description: a, content: {{application/json: {{schema: {{type: string}}}}}}}}\n        '201': {{description: b, content: {{{second}}}}}\n"
        )
    };
    check(
        &spec("application/json: {schema: {type: integer}}"),
        "",
        Ok(vec![
            "#/paths/~1x/get/responses/201/content: 2xx responses with bodies of different schemas (as at #/paths/~1x/get/responses/200/content) are decoded as serde_json::Value",
        ]),
    );
    check(
        &spec("text/plain: {schema: {type: string}}"),
        "",
        Ok(vec![
            "#/paths/~1x/get/responses/201/content: the response body is left out: 2xx responses with bodies of different encodings (as application/json at #/paths/~1x/get/responses/200/content)",
        ]),
    );
    check(
        &spec("text/plain: {schema: {type: string}}"),
        "strict: true",
        Err(
            "#/paths/~1x/get/responses/201/content: the response body would be left out (2xx responses with bodies of different encodings (as application/json at #/paths/~1x/get/responses/200/content)); strict mode leaves nothing out",
        ),
    );
}

/// Serialisation styles the emitted code cannot send as the rules say are left out with a
/// note, never sent in another style: an `explode: false` array went out as `ids=1&ids=2`
/// (it is `ids=1,2`), a `matrix` path parameter as `simple`.
#[test]
fn styles_sent_as_the_document_says() {
    let spec = |parameter: &str, path: &str| {
        format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths:\n  {path}:\n    get:\n      operationId: get_x\n      parameters: [{parameter}]\n      responses: {{'204': {{description: ok}}}}\n"
        )
    };
    // Arrays `explode: false`, exploded (the default for `form`), delimited, and scalar
    // `explode: false` are all sent (the `wire` fixture shows how); `matrix` and `label`
    // path parameters too.
    for parameter in [
        "{name: ids, in: query, explode: false, schema: {type: array, items: {type: integer}}}",
        "{name: ids, in: query, schema: {type: array, items: {type: integer}}}",
        "{name: ids, in: query, style: pipeDelimited, schema: {type: array, items: {type: integer}}}",
        "{name: id, in: query, explode: false, schema: {type: integer}}",
    ] {
        check(&spec(parameter, "/x"), "", Ok(vec![]));
    }
    for style in ["matrix", "label"] {
        check(
            &spec(
                &format!(
                    "{{name: id, in: path, required: true, style: {style}, schema: {{type: string}}}}"
                ),
                "/x/{id}",
            ),
            "",
            Ok(vec![]),
        );
    }
    // A delimited style on a scalar has nothing to delimit: the scalar is sent (`id=5`).
    check(
        &spec(
            "{name: id, in: query, style: spaceDelimited, schema: {type: integer}}",
            "/x",
        ),
        "",
        Ok(vec![]),
    );
    // An object inside an array has no encoding outside `deepObject`: left out, by pointer.
    check(
        &spec(
            "{name: ids, in: query, schema: {type: array, items: {type: object, properties: {a: {type: string}}}}}",
            "/x",
        ),
        "",
        Ok(vec![
            "#/paths/~1x/get/parameters/0/schema: parameter `ids` is left out: a query parameter whose value has no `Form` encoding (an object or array inside an array or object, which only `deepObject` writes; any JSON value; a tagged union)",
        ]),
    );
}

/// A form is `key=value` pairs: an object value (or an array of them) is its JSON text, as
/// OpenAPI's default `contentType` for an object (`application/json`) says, so a form body
/// holding one is sent, and so is one whose `encoding` asks for `deepObject`. Left out with a
/// note only where no text exists: bytes, or an object whose `encoding` asks for another style
/// (which only flat values have).
#[test]
fn form_bodies_send_nested_values_as_json_text() {
    let spec = |properties: &str, encoding: &str| {
        format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths:\n  /x:\n    post:\n      operationId: post_x\n      requestBody:\n        content:\n          application/x-www-form-urlencoded:\n            schema: {{type: object, {properties}}}\n{encoding}      responses: {{'204': {{description: ok}}}}\n"
        )
    };
    let note = |what: &str| {
        format!(
            "#/paths/~1x/post/requestBody/content/application~1x-www-form-urlencoded/schema: the optional request body is left out: a form-encoded body whose {what} is bytes, or is neither a string, number, boolean, enum nor array of those and its `encoding` asks for a `style` other than `deepObject` (which only flat values have)"
        )
    };
    for sent in [
        "properties: {owner: {type: object, properties: {id: {type: string}}}}",
        "properties: {owners: {type: array, items: {type: object, properties: {id: {type: string}}}}}",
        "additionalProperties: {type: object, properties: {id: {type: string}}}",
        "additionalProperties: {type: array, items: {type: string}}",
    ] {
        check(&spec(sent, ""), "", Ok(vec![]));
    }
    // Any JSON value (Twilio's `Attributes`): sent as its text, noted only as what it is.
    check(
        &spec(
            "properties: {attributes: {description: any JSON value}}",
            "",
        ),
        "",
        Ok(vec![
            "#/paths/~1x/post/requestBody/content/application~1x-www-form-urlencoded/schema/properties/attributes: a schema without a type (any JSON value) is serde_json::Value",
        ]),
    );
    // `deepObject` sends any value (the `media` fixture's `post_customers` sends nested ones).
    check(
        &spec(
            "properties: {owner: {type: object, properties: {id: {type: string}}}}",
            "            encoding: {owner: {style: deepObject}}\n",
        ),
        "",
        Ok(vec![]),
    );
    let owner = note("property `owner`");
    for style in ["form", "pipeDelimited"] {
        check(
            &spec(
                "properties: {owner: {type: object, properties: {id: {type: string}}}}",
                &format!("            encoding: {{owner: {{style: {style}}}}}\n"),
            ),
            "",
            Ok(vec![owner.as_str()]),
        );
    }
    check(
        &spec(
            "properties: {owner: {type: object, properties: {id: {type: string}}}}",
            "            encoding: {owner: {explode: true}}\n",
        ),
        "",
        Ok(vec![owner.as_str()]),
    );
    // A flat value with a style is sent as before.
    check(
        &spec(
            "properties: {tags: {type: array, items: {type: string}}}",
            "            encoding: {tags: {style: form, explode: true}}\n",
        ),
        "",
        Ok(vec![]),
    );
    let file = note("property `file`");
    check(
        &spec("properties: {file: {type: string, format: binary}}", ""),
        "",
        Ok(vec![file.as_str()]),
    );
    // Flat values of every scalar kind, and arrays of them, are sent (the `media` fixture's
    // `post_login` sends one).
    check(
        &spec(
            "properties: {a: {type: string}, b: {type: integer}, c: {type: boolean}, d: {type: string, enum: [x, y]}, e: {type: string, format: date-time}, f: {type: array, items: {type: integer}}}",
            "",
        ),
        "",
        Ok(vec![]),
    );
    assert!(
        generate(
            &spec("properties: {file: {type: string, format: binary}}", ""),
            "strict: true"
        )
        .is_err_and(|error| error.contains("strict mode leaves nothing out"))
    );
}

/// A `multipart/form-data` body split at its boundary, parsed here independently of the
/// runtime: each part's header lines (in order) and its content.
fn parts(request: &Request) -> Vec<(Vec<String>, Vec<u8>)> {
    let content_type = header(request, "content-type").unwrap_or_default();
    let boundary = content_type
        .strip_prefix("multipart/form-data; boundary=")
        .unwrap_or_else(|| panic!("content type {content_type:?}"));
    assert!(
        boundary.len() >= 16
            && boundary
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-'),
        "{boundary:?}"
    );
    let body = &request.body;
    let delimiter = format!("--{boundary}");
    let positions: Vec<usize> = (0..body.len())
        .filter(|&at| body[at..].starts_with(delimiter.as_bytes()))
        .collect();
    assert_eq!(
        positions.first(),
        Some(&0),
        "the body starts with the delimiter"
    );
    let end = positions.last().copied().unwrap_or_default();
    assert_eq!(
        &body[end + delimiter.len()..],
        b"--\r\n",
        "the closing delimiter ends it"
    );
    positions
        .windows(2)
        .map(|pair| {
            let part = &body[pair[0] + delimiter.len()..pair[1]];
            let part = part
                .strip_prefix(b"\r\n")
                .and_then(|part| part.strip_suffix(b"\r\n"))
                .unwrap_or_else(|| panic!("part {part:?} is not framed by CRLF"));
            let split = (0..part.len())
                .find(|&at| part[at..].starts_with(b"\r\n\r\n"))
                .unwrap_or_else(|| panic!("part {part:?} has no blank line"));
            let headers = String::from_utf8_lossy(&part[..split])
                .split("\r\n")
                .map(str::to_owned)
                .collect();
            (headers, part[split + 4..].to_vec())
        })
        .collect()
}

#[tokio::test]
async fn multipart_bodies_send_each_part_and_the_same_bytes_on_retry() {
    use baseten_tests::snapshots::media::models::{Attachment, AttachmentMeta};
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(503))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let client = Client::builder()
        .api_key("media-test-key-Jx4")
        .base_url(server.uri())
        .retry_policy(
            baseten_api::client::RetryPolicy::default()
                .with_max_attempts(2)
                .with_initial_backoff(std::time::Duration::from_millis(5))
                .with_max_backoff(std::time::Duration::from_millis(5)),
        )
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let attachment = Attachment::new("PNG\0\r\n--not-a-boundary", "Tïtle")
        .count(3)
        .tags(vec!["a".to_owned(), "b\"".to_owned()])
        .meta(AttachmentMeta::new().kind("k"))
        .we_ird_name("odd");
    client
        .put_attachment("a b", &attachment)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let requests = server.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 2, "the 503 is retried once");
    let (first, retry) = (&requests[0], &requests[1]);
    assert_eq!(first.url.path(), "/v1/attachments/a%20b");
    // The retry re-sends the very same body, boundary and all; a part per set field, in the
    // struct's order.
    assert_eq!(retry.body, first.body);
    assert_eq!(header(retry, "content-type"), header(first, "content-type"));
    let text = |headers: &[&str]| headers.iter().map(|h| (*h).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        parts(first),
        vec![
            (
                text(&[
                    "Content-Disposition: form-data; name=\"file\"; filename=\"file\"",
                    "Content-Type: application/octet-stream"
                ]),
                b"PNG\0\r\n--not-a-boundary".to_vec()
            ),
            (
                text(&[
                    "Content-Disposition: form-data; name=\"title\"",
                    "Content-Type: text/plain; charset=utf-8"
                ]),
                "Tïtle".as_bytes().to_vec()
            ),
            (
                text(&[
                    "Content-Disposition: form-data; name=\"count\"",
                    "Content-Type: text/plain"
                ]),
                b"3".to_vec()
            ),
            (
                text(&[
                    "Content-Disposition: form-data; name=\"tags\"",
                    "Content-Type: application/json"
                ]),
                br#"["a","b\""]"#.to_vec()
            ),
            (
                text(&[
                    "Content-Disposition: form-data; name=\"meta\"",
                    "Content-Type: application/json"
                ]),
                br#"{"kind":"k"}"#.to_vec()
            ),
            // A quote and CR/LF in the property name are escaped, never a header of their own.
            (
                text(&[
                    "Content-Disposition: form-data; name=\"we%22ird%0D%0Aname\"",
                    "Content-Type: text/plain; charset=utf-8"
                ]),
                b"odd".to_vec()
            ),
        ]
    );
}

#[tokio::test]
async fn the_fake_matches_a_multipart_body_by_its_fields() {
    use baseten_tests::snapshots::media::mock::FakeBaseten;
    use baseten_tests::snapshots::media::models::Attachment;
    let fake = FakeBaseten::start().await;
    fake.on_put_attachment("x")
        .multipart_field("title", "right")
        .multipart_field("file", "bytes")
        .times(1)
        .respond(&())
        .await;
    let client = fake.client().unwrap_or_else(|error| panic!("{error}"));
    let wrong = client
        .put_attachment("x", &Attachment::new("bytes", "wrong"))
        .await;
    assert!(wrong.is_err(), "{wrong:?}");
    let right = client
        .put_attachment("x", &Attachment::new("bytes", "right"))
        .await;
    assert!(right.is_ok(), "{right:?}");
}
