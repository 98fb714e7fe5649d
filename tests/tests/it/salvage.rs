//! One bad place leaves out one thing (the `salvage` fixture): the exact notes for each bad
//! place, strict mode refusing with the first, the rest of the document generated and driven
//! against a local server; and the lowering rules behind it, each on a small document.

use baseten_tests::snapshots::salvage::Client;
use baseten_tests::snapshots::salvage::models::{Incident, Priority, PutIncidentAckBody};
use baseten_tests::snapshots::salvage::operations::GetIncidentQuery;
use baseten_tests::tests_dir;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

fn fixture() -> String {
    std::fs::read_to_string(tests_dir().join("fixtures/specs/salvage.yaml"))
        .unwrap_or_else(|error| panic!("salvage.yaml: {error}"))
}

/// The notes a document gives (pointer: message), or the error's text.
fn notes(spec: &str, config: &str) -> Result<Vec<String>, String> {
    let input = baseten_codegen::Input {
        spec_path: "spec",
        spec_text: spec,
        config_text: Some(config),
    };
    baseten_codegen::generate(&input)
        .map(|output| output.notes.iter().map(ToString::to_string).collect())
        .map_err(|error| error.to_string())
}

/// Each place once: a schema left out is not also said to be read as `serde_json::Value`.
#[test]
fn each_bad_place_is_left_out_alone_with_a_note() {
    assert_eq!(
        notes(&fixture(), ""),
        Ok(vec![
            "#/webhooks/incident.created: webhook `incident.created` is not generated (a request the server sends, not one the client makes)".to_owned(),
            "#/paths/~1v1~1broken~1{id: path item /v1/broken/{id is left out: path template \"/v1/broken/{id\" has a `{` with no `}`".to_owned(),
            "#/components/schemas/Incident/properties/runbook: the schema (read as any JSON value) is left out: `$ref` \"#/components/schemas/Runbook\" does not resolve to anything in the document".to_owned(),
            "#/components/schemas/Incident/properties/playbook: the schema (read as any JSON value) is left out: external reference \"playbooks.yaml#/components/schemas/Playbook\" (only references into the document are followed)".to_owned(),
            "#/paths/~1v1~1notes/post: operation POST /v1/notes is left out: /requestBody: invalid type: string \"#/components/requestBodies/Note\", expected struct MediaType".to_owned(),
            "#/paths/~1v1~1incidents/get/parameters/0: operation list_incidents (GET /v1/incidents) is left out: `$ref` \"#/components/parameters/Missing\" does not resolve to anything of its kind in the document".to_owned(),
            "#/paths/~1v1~1incidents~1{incident_id}~1ack/put/responses/200: the response body is left out: `$ref` \"#/components/requestBodies/Ack\" does not resolve to a response in the document".to_owned(),
        ])
    );
}

#[test]
fn strict_mode_still_refuses_with_the_first_place() {
    assert_eq!(
        notes(&fixture(), "strict: true"),
        Err("#/paths/~1v1~1broken~1{id: path item /v1/broken/{id would be left out (path template \"/v1/broken/{id\" has a `{` with no `}`); strict mode leaves nothing out".to_owned())
    );
    // A selection is refused for what it reaches (a schema with a dangling `$ref`), not for
    // the malformed path item or the left-out operations it does not.
    for selector in ["GET /v1/incidents/*", "POST /v1/incidents"] {
        let refused = notes(&fixture(), &format!("strict: true\nselect: [{selector}]"));
        assert!(
            refused.as_ref().is_err_and(|error| error.starts_with(
                "#/components/schemas/Incident/properties/runbook: the schema (read as any JSON value) would be left out"
            )),
            "{selector}: {refused:?}"
        );
    }
}

#[tokio::test]
async fn what_is_left_generates_and_calls_correctly() {
    let server = MockServer::start().await;
    let incident = serde_json::json!({
        "id": "i/1",
        "seq": -9_223_372_036_854_775_807_i64,
        "counter": u64::MAX,
        "priority": "high",
        "owner": "ops",
        "runbook": {"steps": [1, 2]},
    });
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_json(&incident))
        .mount(&server)
        .await;
    let client = Client::builder()
        .api_key("salvage-key-7Tq")
        .base_url(server.uri())
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    // `{type: string, uniqueItems: true}` is a string; the `$ref` into a parameter's schema
    // is that schema (an integer).
    let got = client
        .get_incident("i/1", &GetIncidentQuery::default().limit(5))
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    // The float `uint64` maximum is a `u64`; `oneOf: [Priority]` is a `Priority`; the YAML
    // literal beyond 64 bits left the integer an `i64`.
    assert_eq!(got.counter, Some(u64::MAX));
    assert_eq!(got.priority, Some(Priority::High));
    assert_eq!(got.owner.as_deref(), Some("ops"));
    assert_eq!(got.seq, -9_223_372_036_854_775_807);
    assert_eq!(got.runbook, Some(serde_json::json!({"steps": [1, 2]})));
    let requests = server.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].url.path(), "/v1/incidents/i%2F1");
    assert_eq!(requests[0].url.query(), Some("limit=5"));

    // The operation with no `responses` (3.1 allows it) sends its body.
    let body = Incident::new("i2", 3)
        .counter(u64::MAX)
        .priority(Priority::Low);
    let sent = client.post_incidents(&body).await;
    assert!(sent.is_ok(), "{sent:?}");
    let requests = server.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[1].url.path(), "/v1/incidents");
    let sent: serde_json::Value = serde_json::from_slice(&requests[1].body).unwrap_or_default();
    assert_eq!(
        sent,
        serde_json::json!({"id": "i2", "seq": 3, "counter": u64::MAX, "priority": "low"})
    );

    // A success response whose `$ref` names a request body: the operation is sent, the body
    // it gets (here an incident, not what the `$ref` named) is not read.
    let sent = client
        .put_incident_ack("i3", &PutIncidentAckBody::new().by("oncall"))
        .await;
    assert_eq!(sent.ok(), Some(()));
    let requests = server.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 3);
    assert_eq!(requests[2].method.as_str(), "PUT");
    assert_eq!(requests[2].url.path(), "/v1/incidents/i3/ack");
    let sent: serde_json::Value = serde_json::from_slice(&requests[2].body).unwrap_or_default();
    assert_eq!(sent, serde_json::json!({"by": "oncall"}));
}

/// The Rust type one property of a one-schema document gets, as its field is emitted, and the
/// emitted models.
fn field_type(property: &str) -> (String, String) {
    let spec = format!(
        "openapi: 3.0.3\ninfo: {{title: t, version: '1'}}\npaths: {{}}\ncomponents:\n  schemas:\n    T:\n      type: object\n      required: [p]\n      properties:\n        p: {property}\n"
    );
    let input = baseten_codegen::Input {
        spec_path: "spec",
        spec_text: &spec,
        config_text: None,
    };
    let output =
        baseten_codegen::generate(&input).unwrap_or_else(|error| panic!("{spec}: {error}"));
    let models = &output.files["models.rs"];
    let line = models
        .lines()
        .find(|line| line.trim_start().starts_with("pub p: "))
        .unwrap_or_else(|| panic!("{models}"));
    let ty = line
        .trim()
        .trim_start_matches("pub p: ")
        .trim_end_matches(',')
        .to_owned();
    (ty, models.clone())
}

#[test]
fn keywords_that_do_not_apply_to_the_type_are_ignored() {
    let cases = [
        ("{type: string, uniqueItems: true}", "String"),
        (
            "{type: string, minimum: 3, items: {type: integer}}",
            "String",
        ),
        ("{type: integer, maxLength: 3}", "i64"),
        ("{type: boolean, properties: {a: {type: string}}}", "bool"),
        (
            "{type: array, items: {type: string}, maxLength: 2}",
            "Vec<String>",
        ),
        ("{type: integer, maximum: 1.8446744073709552e+19}", "u64"),
        (
            "{type: integer, minimum: 0, maximum: 18446744073709551615}",
            "u64",
        ),
        (
            "{type: integer, minimum: -1, maximum: 1.8446744073709552e+19}",
            "i64",
        ),
        ("{type: integer, maximum: 1.0e3}", "i64"),
        ("{type: integer, minimum: -9223372036854776000}", "i64"),
        ("{type: integer, minimum: 0.5}", "i64"),
        ("{oneOf: [{type: integer}]}", "i64"),
        (
            "{anyOf: [{type: string, format: date}]}",
            "rt::jiff::civil::Date",
        ),
        (
            "{oneOf: [{type: string}, {type: 'null'}]}",
            "Option<String>",
        ),
        // Titled constants beside a `type`, and one value of a shared enum: enums.
        (
            "{type: string, oneOf: [{const: a, title: A}, {const: b, title: B}]}",
            "Tp",
        ),
        (
            "{type: integer, oneOf: [{const: 1, title: ONE}, {const: 2}]}",
            "Tp",
        ),
        (
            "{type: integer, enum: [1], allOf: [{type: integer, enum: [1, 2]}]}",
            "Tp",
        ),
    ];
    for (property, expected) in cases {
        let (got, models) = field_type(property);
        // An inline enum is an enum, not an alias of `serde_json::Value`.
        assert!(
            expected != "Tp" || models.contains("pub enum Tp"),
            "{models}"
        );
        assert!(
            got.ends_with(expected) && !got.contains("Value"),
            "{property}: {got}"
        );
    }
}

#[test]
fn yaml_integers_beyond_64_bits_are_numbers() {
    for (text, expected) in [
        ("a: -9223372036854776000", -9.223_372_036_854_776e18),
        ("a: 18446744073709551616", 1.844_674_407_370_955_2e19),
        (
            "a: 340282366920938463463374607431768211455",
            3.402_823_669_209_385e38,
        ),
    ] {
        let value = baseten_codegen::load::parse_document(text)
            .unwrap_or_else(|error| panic!("{text}: {error}"));
        assert_eq!(value["a"].as_f64(), Some(expected), "{text}");
    }
    // Within 64 bits they stay exact integers.
    let value =
        baseten_codegen::load::parse_document("a: 18446744073709551615\nb: -9223372036854775808")
            .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(value["a"].as_u64(), Some(u64::MAX));
    assert_eq!(value["b"].as_i64(), Some(i64::MIN));
}

#[test]
fn refs_into_any_schema_pointer_are_followed() {
    let spec = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      parameters:
        - {name: n, in: query, required: true, schema: {type: integer}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/paths/~1a/get/parameters/0/schema"}
components:
  schemas:
    A:
      type: object
      properties:
        b: {type: object, properties: {c: {type: boolean}, self: {$ref: "#/components/schemas/A/properties/b"}}}
    D: {$ref: "#/components/schemas/A/properties/b/properties/c"}
"##;
    let (api, notes) = baseten_codegen::build_ir(&baseten_codegen::Input {
        spec_path: "spec",
        spec_text: spec,
        config_text: None,
    })
    .unwrap_or_else(|error| panic!("{error}"));
    assert!(
        notes.iter().all(|note| !note.message.contains("left out")),
        "{notes:?}"
    );
    let get = api.operations.first().unwrap_or_else(|| panic!("{api:?}"));
    assert_eq!(
        get.response,
        baseten_codegen::ir::ResponseKind::Json(baseten_codegen::ir::TypeRef::Named(
            "GetParameters0Schema".to_owned()
        ))
    );
    // The hoisted copy of a schema that refers to itself stays recursive, and a `$ref` chain
    // through a hoisted copy ends in its type.
    assert!(api.types.contains_key("AB"), "{:?}", api.types.keys());
    let d = api
        .component_names
        .get("D")
        .and_then(|name| api.types.get(name));
    assert!(
        matches!(d, Some(baseten_codegen::ir::TypeDef::Alias(alias)) if alias.ty == baseten_codegen::ir::TypeRef::Named("ABC".to_owned())),
        "{d:?}"
    );
}
