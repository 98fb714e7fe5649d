//! Real-world documents, each class as a compact fixture in `tests/fixtures/documents/`: what
//! one bad place used to refuse is mended there with a note (strict mode still refuses), and
//! the rest generates; the slow tier compiles every fixture with zero warnings (in the hostile
//! batch, [`FIXTURES`]).

use baseten_codegen::{Error, Input, Output};
use baseten_tests::tests_dir;

/// Every fixture of this module (under `tests/fixtures/`), compiled by the hostile batch; those
/// under `specs/` are compiled snapshots too, which the wire checks here drive.
pub(crate) const FIXTURES: &[&str] = &[
    "documents/spoiled",
    "documents/refs",
    "specs/inheritance",
    "specs/tagged",
    "specs/keyed",
    "specs/uploads",
    "specs/twins",
];

/// The text of `tests/fixtures/<name>.yaml`.
pub(crate) fn fixture(name: &str) -> String {
    let path = tests_dir().join(format!("fixtures/{name}.yaml"));
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn generate(spec: &str, config: &str) -> Result<Output, Error> {
    let input = Input {
        spec_path: "documents.yaml",
        spec_text: spec,
        config_text: Some(config),
    };
    baseten_codegen::generate(&input)
}

/// The notes a fixture gives, as `pointer: message` lines.
fn notes(name: &str) -> Vec<String> {
    let output = generate(&fixture(&format!("documents/{name}")), "")
        .unwrap_or_else(|error| panic!("{name}: {error}"));
    output.notes.iter().map(ToString::to_string).collect()
}

#[test]
fn one_bad_field_spoils_only_itself() {
    let notes = notes("spoiled");
    let deep = "#/components/schemas/Deep/properties/tree/properties/a/properties/b/properties/c/properties/d/properties/e/properties/f/properties/g/properties/h/properties/i/properties/j/properties/k/properties/l/properties/m";
    let expected = [
        "#/info/title: `title` 1.5 is read as the text \"1.5\"".to_owned(),
        "#/info/version: `info` has no `version`; \"0.0.0\" is used".to_owned(),
        "#/info/license: `info.license` is left out: /license: missing field `name`".to_owned(),
        "#/info/contact: `info.contact` is left out: /contact: invalid type: integer `3`, expected struct Contact".to_owned(),
        "#/servers/1: server 1 is left out: missing field `url`".to_owned(),
        "#/tags: `tags` is left out: must be a list, found an object".to_owned(),
        "#/security/0: security requirement 0 is left out: invalid type: sequence, expected a map".to_owned(),
        "#/externalDocs: `externalDocs` is left out: missing field `url`".to_owned(),
        "#/paths/~1v1~1deep/summary: `summary` is left out: /summary: invalid type: sequence, expected a string".to_owned(),
        "#/paths/~1v1~1deep/get/tags: `tags` is left out: /tags: invalid type: string \"not-a-list\", expected a sequence".to_owned(),
        "#/paths/~1v1~1deep/get/deprecated: `deprecated` is left out: /deprecated: invalid type: string \"yes\", expected a boolean".to_owned(),
        format!("{deep}: the schema (read as any JSON value) is left out: {deep}/properties is nested more than 32 levels deep"),
        "#/components/schemas/Loop: the schema (read as any JSON value) is left out: `$ref` cycle with no schema in it: #/components/schemas/Loop2 -> #/components/schemas/Loop -> #/components/schemas/Loop2".to_owned(),
    ];
    for line in &expected {
        assert!(notes.contains(line), "missing {line}\nin {notes:#?}");
    }
}

#[test]
fn strict_mode_refuses_the_first_spoiled_place() {
    match generate(&fixture("documents/spoiled"), "strict: true") {
        Err(Error::LeftOut { pointer, .. }) => assert_eq!(pointer, "#/info/version"),
        other => panic!("{:?}", other.map(|output| output.notes)),
    }
}

#[test]
fn the_rest_of_a_spoiled_document_is_typed() {
    let output =
        generate(&fixture("documents/spoiled"), "").unwrap_or_else(|error| panic!("{error}"));
    let models = &output.files["models.rs"];
    assert!(
        models.contains("pub struct DeepTreeAbCdEfGhIjKl {"),
        "{models}"
    );
    assert!(
        models.contains("pub m: Option<::serde_json::Value>,"),
        "{models}"
    );
    assert!(output.files["operations.rs"].contains("pub async fn get_deep"));
}

#[test]
fn percent_encoded_and_escaped_refs_resolve_everywhere() {
    let output = generate(&fixture("documents/refs"), "").unwrap_or_else(|error| panic!("{error}"));
    let notes: Vec<String> = output.notes.iter().map(ToString::to_string).collect();
    assert_eq!(notes, Vec::<String>::new());
    let models = &output.files["models.rs"];
    for field in [
        "pub id: ModelId,",
        "pub owner: CD,",
        "pub pet: PetKind,",
        "pub limits: Option<AB>,",
        "pub share: Option<Box<T100>>,",
    ] {
        assert!(models.contains(field), "{field} in\n{models}");
    }
    // The discriminator's mapping names `Cat Pet` through `%20`: a tagged variant, not the
    // fallback.
    assert!(models.contains("Cat(CatPet)"), "{models}");
    let operations = &output.files["operations.rs"];
    assert!(
        operations.contains("pub async fn update_model"),
        "{operations}"
    );
}

/// A response typed as the base of a two-level hierarchy decodes as the subtype its tag names,
/// with the fields of every level, and a subtype two levels down with no mapping entry is
/// tagged by its key.
#[tokio::test]
async fn inherited_fields_decode_at_every_level() {
    use baseten_tests::snapshots::inheritance::Client;
    use baseten_tests::snapshots::inheritance::models::Animal;
    use wiremock::matchers::path;
    use wiremock::{Mock, MockServer, ResponseTemplate};

    let server = MockServer::start().await;
    let respond = |at: &str, body: serde_json::Value| {
        Mock::given(path(at.to_owned()))
            .respond_with(ResponseTemplate::new(200).set_body_json(body))
    };
    respond(
        "/v1/animals/p",
        serde_json::json!({"kind": "puppy", "name": "Rex", "legs": 4, "barks": true, "age_weeks": 9}),
    )
    .mount(&server)
    .await;
    respond(
        "/v1/animals/k",
        serde_json::json!({"kind": "Kitten", "name": "Tom", "legs": 4, "indoor": "mostly", "weeks": 3}),
    )
    .mount(&server)
    .await;
    let client = Client::builder()
        .api_key("inheritance-key")
        .base_url(server.uri())
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    match client.get_animal("p").await {
        Ok(Animal::Puppy(puppy)) => {
            assert_eq!(
                (
                    puppy.name.as_str(),
                    puppy.legs,
                    puppy.barks,
                    puppy.age_weeks
                ),
                ("Rex", 4, Some(true), 9)
            );
        }
        other => panic!("{other:?}"),
    }
    match client.get_animal("k").await {
        Ok(Animal::Kitten(kitten)) => {
            assert_eq!(kitten.indoor.as_deref(), Some("mostly"));
            assert_eq!((kitten.legs, kitten.weeks), (4, Some(3)));
        }
        other => panic!("{other:?}"),
    }
}

/// `allOf` chains thousands deep, and trees, flatten into structs with every inherited field,
/// with no note about non-object members. Every level is a composition; one in 500 adds a field
/// (a field at every level makes the output itself quadratic, and the document's budget of
/// merged fields, 10,000 plus one per declared property, lowers the levels past it to values).
#[test]
fn deep_inheritance_chains_and_trees_are_structs() {
    const LEVELS: usize = 2_000;
    const EVERY: usize = 500;
    let mut spec = String::from(
        "openapi: 3.1.0\ninfo: {title: chain, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    L0: {type: object, required: [f0], properties: {f0: {type: string}}}\n",
    );
    for level in 1..LEVELS {
        let own = if level % EVERY == 0 {
            format!("{{type: object, properties: {{f{level}: {{type: integer}}}}}}")
        } else {
            "{type: object, description: nothing new}".to_owned()
        };
        spec.push_str(&format!(
            "    L{level}: {{allOf: [{{$ref: '#/components/schemas/L{}'}}, {own}]}}\n",
            level - 1
        ));
    }
    // A tree: `Both` inherits from two chains at once, one of them through an inline wrapper.
    spec.push_str(&format!(
        "    Both: {{allOf: [{{$ref: '#/components/schemas/L3'}}, {{allOf: [{{$ref: '#/components/schemas/L{}'}}]}}, {{properties: {{own: {{type: boolean}}}}}}]}}\n",
        LEVELS - 1
    ));
    let input = Input {
        spec_path: "chain.yaml",
        spec_text: &spec,
        config_text: None,
    };
    let (api, notes) = baseten_codegen::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(notes, Vec::new());
    let fields = |name: &str| match api.types.get(name) {
        Some(baseten_codegen::ir::TypeDef::Struct(def)) => def.fields.len(),
        other => panic!("{name} is {other:?}"),
    };
    for level in [1, 2, 99, 100, 101, 1_000, LEVELS - 1] {
        assert_eq!(fields(&format!("L{level}")), 1 + level / EVERY, "L{level}");
    }
    assert_eq!(fields("Both"), 1 + (LEVELS - 1) / EVERY + 1);
}

/// A member that really is not an object is said once, at its place; a composition that
/// contains itself is said once too, and neither refuses the document.
#[test]
fn a_composition_that_cannot_be_a_struct_is_noted_once() {
    let spec = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    \
                S: {allOf: [{type: object, properties: {a: {type: string}}}, {type: string}]}\n    \
                A: {allOf: [{$ref: '#/components/schemas/B'}, {properties: {a: {type: string}}}]}\n    \
                B: {allOf: [{$ref: '#/components/schemas/A'}, {properties: {b: {type: string}}}]}\n";
    let input = Input {
        spec_path: "t.yaml",
        spec_text: spec,
        config_text: None,
    };
    let (_, notes) = baseten_codegen::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
    let notes: Vec<String> = notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        [
            "#/components/schemas/S/allOf/1: `allOf` with a non-object member is lowered to serde_json::Value",
            "#/components/schemas/A/allOf/0: an `allOf` that contains itself is lowered to serde_json::Value",
            "#/components/schemas/B/allOf/0: an `allOf` that contains itself is lowered to serde_json::Value",
        ]
    );
}

/// Unions told apart by a property's values decode by that property alone, into the member it
/// names, and are written back as they came.
#[tokio::test]
async fn inferred_tags_decode_and_encode_exactly() {
    use baseten_tests::snapshots::tagged::Client;
    use baseten_tests::snapshots::tagged::models::{
        Cadence, SchedulesSchedulesItem as Item, SchedulesShape,
    };
    use wiremock::matchers::method;
    use wiremock::{Mock, MockServer, ResponseTemplate};

    let body = serde_json::json!({
        "schedules": [
            {"cadence": "HOURLY", "start_minute": 5},
            {"cadence": "ONE_TIME", "start_at": "2026-01-01T00:00:00Z"},
            {"cadence": "DAILY", "start_minute": 0},
            {"cadence": "WEEKLY", "day": 3},
        ],
        "shape": {"radius": 2.5},
    });
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_json(&body))
        .mount(&server)
        .await;
    Mock::given(method("PUT"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let client = Client::builder()
        .api_key("tagged-key")
        .base_url(server.uri())
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let got = client
        .get_schedules()
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    match got.schedules.as_slice() {
        [
            Item::Hourly(hourly),
            Item::OneTime(once),
            Item::Daily(daily),
            Item::Unknown(unknown),
        ] => {
            assert_eq!(
                (hourly.cadence.clone(), hourly.start_minute),
                (Cadence::Hourly, 5)
            );
            assert_eq!(once.start_at, "2026-01-01T00:00:00Z");
            assert_eq!(daily.cadence, Cadence::Daily);
            assert_eq!(*unknown, body["schedules"][3]);
        }
        other => panic!("{other:?}"),
    }
    // A member whose tag property is optional and absent is the fallback, kept whole.
    assert!(matches!(&got.shape, Some(SchedulesShape::Unknown(value)) if *value == body["shape"]));
    client
        .put_schedules(&got)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let requests = server.received_requests().await.unwrap_or_default();
    let sent: serde_json::Value = serde_json::from_slice(&requests[1].body).unwrap_or_default();
    assert_eq!(sent, body);
}

/// The newest published document: no union, composition or schema of it is left as
/// `serde_json::Value` (free-form objects, which the document says hold anything, stay maps).
#[test]
fn the_newest_baseten_document_has_no_structural_value() {
    let Some(specs) = baseten_tests::shared_dir("specs") else {
        return;
    };
    let newest = baseten_tests::files_with_extension(&specs, "json")
        .into_iter()
        .filter(|path| {
            path.file_name()
                .is_some_and(|name| name.to_string_lossy().starts_with("baseten-management-"))
        })
        .max()
        .unwrap_or_else(|| panic!("no document in {}", specs.display()));
    let text = std::fs::read_to_string(&newest).unwrap_or_else(|error| panic!("{error}"));
    let output = generate(&text, "").unwrap_or_else(|error| panic!("{error}"));
    let structural: Vec<String> = output
        .notes
        .iter()
        .filter(|note| {
            note.message.contains("serde_json::Value") || note.message.contains("any JSON value")
        })
        .filter(|note| {
            !note
                .message
                .starts_with("a free-form object (no declared properties)")
        })
        .map(ToString::to_string)
        .collect();
    assert_eq!(structural, Vec::<String>::new(), "{}", newest.display());
    let models = &output.files["models.rs"];
    assert!(models.contains("pub schedules: Vec<EnvironmentAutoscalingSchedulesV1SchedulesItem>,"));
    assert!(models.contains("OneTime(OneTimeAutoscalingScheduleV1),"));
}

/// One part of a multipart body: its headers (lower-case names) and its bytes.
#[derive(Debug, PartialEq)]
struct Part {
    headers: Vec<(String, String)>,
    content: Vec<u8>,
}

/// Splits a `multipart/form-data` body by the boundary its `Content-Type` names (each part's
/// content is the bytes between its headers and the next delimiter, CRLF excluded).
fn multipart_parts(content_type: &str, body: &[u8]) -> Vec<Part> {
    let boundary = content_type
        .split("boundary=")
        .nth(1)
        .unwrap_or_else(|| panic!("no boundary in {content_type}"));
    let delimiter = format!("\r\n--{boundary}").into_bytes();
    // The body starts with the delimiter minus its CRLF.
    let mut rest = body
        .strip_prefix(&delimiter[2..])
        .unwrap_or_else(|| panic!("body does not start with the boundary"));
    let mut parts = Vec::new();
    while let Some(after) = rest.strip_prefix(b"\r\n") {
        let end = after
            .windows(delimiter.len())
            .position(|window| window == delimiter.as_slice())
            .unwrap_or_else(|| panic!("an unterminated part"));
        let part = &after[..end];
        let split = part
            .windows(4)
            .position(|window| window == b"\r\n\r\n")
            .unwrap_or_else(|| panic!("a part without headers"));
        let headers = String::from_utf8_lossy(&part[..split])
            .split("\r\n")
            .filter_map(|line| line.split_once(": "))
            .map(|(name, value)| (name.to_ascii_lowercase(), value.to_owned()))
            .collect();
        parts.push(Part {
            headers,
            content: part[split + 4..].to_vec(),
        });
        rest = &after[end + delimiter.len()..];
    }
    assert_eq!(rest, b"--\r\n", "the body ends with the closing delimiter");
    parts
}

/// `(Content-Disposition, Content-Type)` of a part.
fn heads(part: &Part) -> (&str, &str) {
    let header = |name: &str| {
        part.headers
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str())
    };
    (header("content-disposition"), header("content-type"))
}

/// Non-UTF-8 bytes sent as files arrive byte for byte: a file part with its name and the media
/// type the `encoding` gives (else the 3.1 `contentMediaType`, for a file or a list's items;
/// a file's own media type wins over both), a list of files as a part per item, an optional multipart body,
/// a `oneOf` multipart body, an octet-stream body; octet-stream responses are bytes too.
#[tokio::test]
async fn uploads_send_bytes_byte_for_byte() {
    use baseten_api::primitives::Binary;
    use baseten_tests::snapshots::uploads::Client;
    use baseten_tests::snapshots::uploads::models::{
        PostAvatarsBody, PostImportsBody, PostImportsBodyCsv, PostImportsBodyCsvKind, Upload,
    };
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};

    let pdf: Vec<u8> = (0..=255u8)
        .chain([0xff, 0xfe, 0x00, b'\r', b'\n', b'-', b'-'])
        .collect();
    let page_one: Vec<u8> = vec![0x89, b'P', b'N', b'G', 0x00, 0x80];
    let page_two: Vec<u8> = vec![0xc3, 0x28];
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/files"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(serde_json::json!({"id": "f1", "preview": "ok"})),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/blobs/b1"))
        .respond_with(
            ResponseTemplate::new(200).set_body_raw(pdf.clone(), "application/octet-stream"),
        )
        .mount(&server)
        .await;
    Mock::given(wiremock::matchers::any())
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let client = Client::builder()
        .api_key("uploads-key")
        .base_url(server.uri())
        .build()
        .unwrap_or_else(|error| panic!("{error}"));

    let upload = Upload::new("scan", Binary::new(pdf.clone()).with_file_name("scan.pdf"))
        .pages(vec![
            Binary::new(page_one.clone()),
            Binary::new(page_two.clone()).with_content_type("image/jpeg"),
        ])
        .thumbnail(Binary::new(page_one.clone()))
        .scans(vec![
            Binary::new(pdf.clone()),
            Binary::new(page_two.clone()).with_content_type("application/x-own"),
        ]);
    let stored = client
        .post_files(&upload)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        stored.preview.as_ref().map(Binary::bytes),
        Some(b"ok".as_slice())
    );
    client
        .post_avatars(Some(&PostAvatarsBody::new().image(vec![0xffu8, 0xd8])))
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    client
        .post_avatars(None)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let csv = PostImportsBody::Csv(PostImportsBodyCsv::new(
        PostImportsBodyCsvKind::Csv,
        vec![0xefu8, 0xbb, 0xbf, b'a', 0xff],
    ));
    client
        .post_imports(&csv)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    client
        .put_blob("b2", Binary::new(page_two.clone()))
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let blob = client
        .get_blob("b1")
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(blob, pdf);

    let requests = server.received_requests().await.unwrap_or_default();
    let content_type = |i: usize| {
        requests[i]
            .headers
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let files = multipart_parts(&content_type(0), &requests[0].body);
    let summary: Vec<(&str, &str)> = files.iter().map(heads).collect();
    assert_eq!(
        summary,
        [
            ("form-data; name=\"purpose\"", "text/plain; charset=utf-8"),
            (
                "form-data; name=\"file\"; filename=\"scan.pdf\"",
                "application/pdf"
            ),
            (
                "form-data; name=\"pages\"; filename=\"pages\"",
                "application/octet-stream"
            ),
            (
                "form-data; name=\"pages\"; filename=\"pages\"",
                "image/jpeg"
            ),
            (
                "form-data; name=\"thumbnail\"; filename=\"thumbnail\"",
                "image/png"
            ),
            (
                "form-data; name=\"scans\"; filename=\"scans\"",
                "application/pdf"
            ),
            (
                "form-data; name=\"scans\"; filename=\"scans\"",
                "application/x-own"
            ),
        ]
    );
    let contents: Vec<&[u8]> = files.iter().map(|part| part.content.as_slice()).collect();
    assert_eq!(
        contents,
        [
            b"scan".as_slice(),
            &pdf,
            &page_one,
            &page_two,
            &page_one,
            &pdf,
            &page_two
        ]
    );

    let avatar = multipart_parts(&content_type(1), &requests[1].body);
    assert_eq!(avatar.len(), 1);
    assert_eq!(
        heads(&avatar[0]),
        ("form-data; name=\"image\"; filename=\"image\"", "image/png")
    );
    assert_eq!(avatar[0].content, [0xff, 0xd8]);
    // No body at all when the optional one is not given.
    assert!(requests[2].body.is_empty());
    let import = multipart_parts(&content_type(3), &requests[3].body);
    assert_eq!(import.len(), 2);
    assert_eq!(import[0].content, b"csv");
    assert_eq!(import[1].content, [0xef, 0xbb, 0xbf, b'a', 0xff]);
    assert_eq!(content_type(4), "application/octet-stream");
    assert_eq!(requests[4].body, page_two);
}

/// A type both directions use, with required `readOnly`/`writeOnly` and optional nullable
/// fields, is two: the request twin requires what the server requires (and can send an
/// explicit `null`), the response type requires what the server always sends and never fails
/// on what it omits; a shared type holding one, and a request-only one, use the twin.
#[tokio::test]
async fn request_and_response_twins_keep_each_side_exact() {
    use baseten_tests::snapshots::twins::Client;
    use baseten_tests::snapshots::twins::models::{Invite, TeamRequest, UserRequest};
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};

    let server = MockServer::start().await;
    // The response omits the writeOnly password, as servers do.
    Mock::given(method("POST"))
        .and(path("/v1/users"))
        .respond_with(
            ResponseTemplate::new(201)
                .set_body_json(serde_json::json!({"id": "u1", "name": "Ada", "nickname": null})),
        )
        .mount(&server)
        .await;
    Mock::given(method("PUT"))
        .and(path("/v1/teams"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "name": "core",
            "members": [{"id": "u1", "name": "Ada"}],
        })))
        .mount(&server)
        .await;
    Mock::given(wiremock::matchers::any())
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let client = Client::builder()
        .api_key("twins-key")
        .base_url(server.uri())
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    // `new` takes the writeOnly password (required to send), not the readOnly id.
    let user = UserRequest::new("Ada", "s3cret").clear_nickname();
    let created = client
        .post_users(&user)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        (created.id.as_str(), created.password.as_deref()),
        ("u1", None)
    );
    let team = TeamRequest::new("core", vec![UserRequest::new("Ada", "pw")]);
    let got = client
        .put_teams(&team)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(got.members[0].id, "u1");
    client
        .post_invites(&Invite::new(UserRequest::new("Bo", "pw2")))
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let requests = server.received_requests().await.unwrap_or_default();
    let sent = |i: usize| serde_json::from_slice::<serde_json::Value>(&requests[i].body).ok();
    assert_eq!(
        sent(0),
        Some(serde_json::json!({"name": "Ada", "password": "s3cret", "nickname": null}))
    );
    assert_eq!(
        sent(1),
        Some(serde_json::json!({"name": "core", "members": [{"name": "Ada", "password": "pw"}]}))
    );
    assert_eq!(
        sent(2),
        Some(serde_json::json!({"user": {"name": "Bo", "password": "pw2"}}))
    );
}

/// Unions of objects told apart by the required properties only one member holds: each member
/// decodes by those alone, a value holding two members' or none is refused, and what was read
/// is written back as it came; a string enum beside a free string is an open enum. Unions no
/// property tells apart are read by best fit (the first member reading the value exactly).
#[tokio::test]
async fn keyed_unions_decode_by_the_properties_only_one_member_holds() {
    use baseten_tests::snapshots::keyed::Client;
    use baseten_tests::snapshots::keyed::models::{
        Target, TargetsAmbiguous, TargetsModel, TargetsOpen, TargetsWindow,
    };
    use serde_json::json;
    use wiremock::matchers::method;
    use wiremock::{Mock, MockServer, ResponseTemplate};

    let body = json!({
        "targets": [
            {"name": "a", "region": "us"},
            {"id": 7, "region": "eu"},
            {"labels": {"team": "ml"}, "region": "ap"},
            {"name": "b"},
        ],
        "window": {"from": "x"},
        "model": "gpt-4o-mini",
        "ambiguous": {"a": "1"},
        "open": {"y": "2"},
    });
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_json(&body))
        .mount(&server)
        .await;
    Mock::given(method("PUT"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let client = Client::builder()
        .api_key("keyed-key")
        .base_url(server.uri())
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let got = client
        .get_targets()
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    match got.targets.as_slice() {
        [
            Target::ByName(name),
            Target::ById(id),
            Target::ByLabels(labels),
            Target::ByName(bare),
        ] => {
            assert_eq!(
                (name.name.as_str(), name.region.as_deref()),
                ("a", Some("us"))
            );
            assert_eq!((id.id, id.region.as_str()), (7, "eu"));
            assert_eq!(labels.labels.get("team").map(String::as_str), Some("ml"));
            assert_eq!((bare.name.as_str(), bare.region.as_deref()), ("b", None));
        }
        other => panic!("{other:?}"),
    }
    // The member that requires nothing of its own is what a value without `until` is.
    assert!(matches!(&got.window, Some(TargetsWindow::Object(window)) if window.from == "x"));
    let until: TargetsWindow = serde_json::from_value(json!({"from": "x", "until": "y"}))
        .unwrap_or_else(|error| panic!("{error}"));
    assert!(matches!(until, TargetsWindow::Until(window) if window.until == "y"));
    // A listed name is its variant; any other string is kept.
    assert_eq!(got.model, Some(TargetsModel::Gpt4oMini));
    let other: TargetsModel =
        serde_json::from_value(json!("o9")).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(other, TargetsModel::Unknown("o9".to_owned()));
    // No property tells these apart: best fit, the first member reading the value exactly.
    assert!(matches!(&got.ambiguous, Some(TargetsAmbiguous::Object(object)) if object.a == "1"));
    assert!(matches!(&got.open, Some(TargetsOpen::Object2(object)) if object.y == "2"));
    let both: TargetsAmbiguous = serde_json::from_value(json!({"a": "1", "b": "2"}))
        .unwrap_or_else(|error| panic!("{error}"));
    assert!(matches!(both, TargetsAmbiguous::Object(_)));
    let second: TargetsAmbiguous =
        serde_json::from_value(json!({"b": "2"})).unwrap_or_else(|error| panic!("{error}"));
    assert!(matches!(second, TargetsAmbiguous::Object2(_)));
    let refused = serde_json::from_value::<TargetsAmbiguous>(json!({"c": 1}))
        .map_err(|error| error.to_string());
    assert!(
        matches!(&refused, Err(message) if message.starts_with("no member of `TargetsAmbiguous` decodes the value (member 0: missing field `a`; member 1: missing field `b`")),
        "{refused:?}"
    );
    client
        .put_targets(&got)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let requests = server.received_requests().await.unwrap_or_default();
    let sent: serde_json::Value = serde_json::from_slice(&requests[1].body).unwrap_or_default();
    assert_eq!(sent, body);

    // Refused: two members' properties, none of any member's, not an object, and a value its
    // properties pick that lacks what that member requires.
    for (value, error) in [
        (
            json!({"name": "a", "id": 1, "region": "r"}),
            "holds both `name` and `id`, which belong to different members",
        ),
        (
            json!({"region": "r"}),
            "holds none of `name`, `id`, `labels`, so no member fits it",
        ),
        (json!("a"), "expected a JSON object, found a string"),
        (json!({"id": 1}), "missing field `region`"),
    ] {
        let refused = serde_json::from_value::<Target>(value.clone())
            .map(|target| format!("{target:?}"))
            .map_err(|refusal| refusal.to_string());
        assert!(
            matches!(&refused, Err(message) if message.contains(error)),
            "{value}: {refused:?}"
        );
    }
    // The same through the client: a response holding a mismatched member is an error.
    let mismatched = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"targets": [{"region": "r"}]})),
        )
        .mount(&mismatched)
        .await;
    let client = Client::builder()
        .api_key("keyed-key")
        .base_url(mismatched.uri())
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let refused = client
        .get_targets()
        .await
        .map_err(|error| error.to_string());
    assert!(
        matches!(&refused, Err(message) if message.contains("no member fits it")),
        "{refused:?}"
    );

    // Every union of the document is typed; what a member's struct cannot keep is noted.
    let output = generate(&fixture("specs/keyed"), "").unwrap_or_else(|error| panic!("{error}"));
    let notes: Vec<String> = output.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        [
            "#/components/schemas/Targets/properties/open/oneOf/1/additionalProperties: extra properties beside the declared ones are not kept"
        ]
    );
}

/// Enum parameters written as some generators write them are their enums, not any JSON value
/// (which no query encoding writes, so the parameter was left out): a `type` beside a `$ref`
/// (3.1), an empty `enum` beside an `allOf`, an `enum` with no `type`. And a place is accounted
/// for once: a parameter left out is not also said to be lowered to `serde_json::Value`.
#[test]
fn enum_parameters_as_generators_write_them_are_sendable_and_noted_once() {
    let spec = r##"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /v1/calls:
    get:
      operationId: list_calls
      parameters:
        - {name: state, in: query, schema: {type: string, $ref: "#/components/schemas/State"}}
        - {name: status, in: query, schema: {type: string, enum: [], allOf: [{$ref: "#/components/schemas/State"}]}}
        - {name: by, in: query, schema: {enum: [auto_pause, rules]}}
        - {name: page, in: query, schema: {enum: [1, 2]}}
        - {name: odd, in: query, schema: {not: {type: string}}}
      responses:
        "204": {description: done}
components:
  schemas:
    State: {type: string, enum: [completed, partial]}
"##;
    let output = generate(spec, "").unwrap_or_else(|error| panic!("{error}"));
    let notes: Vec<String> = output.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        [
            "#/paths/~1v1~1calls/get/parameters/4/schema: parameter `odd` is left out: a query parameter whose value has no `Form` encoding (an object or array inside an array or object, which only `deepObject` writes; any JSON value; a tagged union)"
        ]
    );
    let operations = &output.files["operations.rs"];
    for setter in [
        "pub fn state(mut self, value: impl Into<State>)",
        "pub fn status(mut self, value: impl Into<State>)",
        "pub fn by(mut self, value: impl Into<ListCallsBy>)",
        "pub fn page(mut self, value: impl Into<ListCallsPage>)",
    ] {
        assert!(operations.contains(setter), "{setter}:\n{operations}");
    }
}
