//! Types as exact as the document (issue 39, item 5): an `allOf` member that only annotates is
//! an annotation, a `$ref`'s sibling keywords keep the referenced type, strings are told apart
//! by their `format` where the formats are disjoint, and an `enum` of objects is an enum of
//! exactly those values; what stays `serde_json::Value` says why. The model (`check`, shared
//! with `types`), then the compiled `exact` and `exact30` fixtures decoding and on the wire.

use baseten_tests::snapshots::exact::Client as ExactClient;
use baseten_tests::snapshots::exact::models as exact;
use baseten_tests::snapshots::exact30::Client as Exact30Client;
use baseten_tests::snapshots::exact30::models as exact30;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::types::check;

#[test]
fn members_that_only_annotate_leave_the_referenced_type() {
    let secret = "{$ref: '#/components/schemas/Secret'}";
    for schema in [
        format!("{{allOf: [{secret}, {{description: d}}]}}"),
        format!(
            "{{allOf: [{secret}, {{title: T, examples: [{{name: a}}], deprecated: true}}, {{}}]}}"
        ),
        format!("{{allOf: [{{description: d, readOnly: true}}, {secret}]}}"),
        format!("{{allOf: [{secret}]}}"),
    ] {
        check(&schema, "p: Secret");
    }
    check(
        &format!("{{allOf: [{secret}, {{nullable: true, description: d}}]}}"),
        "p: Option<Secret>",
    );
    check(
        &format!("{{allOf: [{secret}], nullable: true}}"),
        "p: Option<Secret>",
    );
    // A member with structure is merged, as before; one with a constraint alone is as before
    // too (not an object to merge).
    check(
        &format!("{{allOf: [{secret}, {{description: d, properties: {{id: {{type: string}}}}}}]}}"),
        "p: RowP\nstruct RowP",
    );
    check(
        &format!("{{allOf: [{secret}, {{description: d, required: [name]}}]}}"),
        "p: Value\nnote: `allOf` with a non-object member is lowered to serde_json::Value",
    );
}

#[test]
fn a_refs_siblings_keep_the_referenced_type() {
    let secret = "$ref: '#/components/schemas/Secret'";
    for schema in [
        format!("{{{secret}, description: d}}"),
        format!("{{{secret}, required: [name], minProperties: 1}}"),
        format!("{{{secret}, type: object, required: [name], description: d}}"),
        format!("{{{secret}, maxLength: 3, pattern: x, minimum: 1}}"),
    ] {
        check(&schema, "p: Secret");
    }
    check(
        &format!("{{{secret}, type: [object, 'null'], required: [name]}}"),
        "p: Option<Secret>",
    );
}

#[test]
fn strings_of_disjoint_formats_are_told_apart_by_them() {
    let expected = "p: RowP\nuntagged RowP { Timestamp(Timestamp), Date(Date) }";
    check(
        "{oneOf: [{type: string, format: date}, {type: string, format: date-time}]}",
        expected,
    );
    check(
        "{anyOf: [{type: string, format: date-time}, {type: string, format: date}]}",
        expected,
    );
    check(
        "{oneOf: [{type: integer}, {type: string, format: date}, {type: string, format: date-time}]}",
        "p: RowP\nuntagged RowP { Integer(i64), Timestamp(Timestamp), Date(Date) }",
    );
    // A null the members admit is the union's, so it tells no member apart (`ir::nullable`).
    check(
        "{oneOf: [{type: [string, 'null'], format: date-time}, {type: [string, 'null'], format: date}]}",
        &expected.replacen("p: RowP", "p: Option<RowP>", 1),
    );
}

#[test]
fn strings_no_parsed_format_tells_apart_stay_values_saying_why() {
    let value = "p: Value\nnote: a union of several schemas is lowered to serde_json::Value: ";
    for (schema, reason) in [
        (
            "{oneOf: [{type: string, format: uuid}, {type: string, format: uri}]}",
            "members 0 and 1 are both JSON strings, told apart only by formats this crate reads as any string (member 0 (uuid), member 1 (uri))",
        ),
        (
            "{oneOf: [{type: string, format: date}, {type: string, format: email}]}",
            "members 0 and 1 are both JSON strings, told apart only by formats this crate reads as any string (member 1 (email))",
        ),
        (
            "{oneOf: [{type: string, format: date}, {type: string, format: date}]}",
            "members 0 and 1 are both JSON strings of one format, which only their contents tell apart",
        ),
        (
            "{oneOf: [{type: string, format: date-time}, {type: string}]}",
            "members 0 and 1 are both JSON strings, which only their contents tell apart",
        ),
    ] {
        check(schema, &format!("{value}{reason}"));
    }
}

#[test]
fn an_enum_of_objects_is_exactly_those_values() {
    let expected = "p: RowP\nvalue enum RowP { A1 = {\"a\":1}, A2 = {\"a\":2}, Unknown(Value) }";
    for schema in [
        "{enum: [{a: 1}, {a: 2}]}",
        "{type: object, enum: [{a: 1}, {a: 2}]}",
        "{enum: [{a: 1}, {a: 2}, {a: 1.0}]}",
        "{oneOf: [{const: {a: 1}}, {const: {a: 2}, description: two}]}",
        "{anyOf: [{const: {a: 1}, title: one}, {enum: [{a: 2}]}]}",
    ] {
        check(schema, expected);
    }
    check(
        "{enum: [{a: 1}, null, {a: 2}]}",
        &expected.replacen("p: RowP", "p: Option<RowP>", 1),
    );
    check(
        "{oneOf: [{const: {a: 1}}, {const: {a: 2}}, {type: 'null'}]}",
        &expected.replacen("p: RowP", "p: Option<RowP>", 1),
    );
    check(
        "{enum: [[1, 2], 3, x]}",
        "p: RowP\nvalue enum RowP { V12 = [1,2], V3 = 3, X = \"x\", Unknown(Value) }",
    );
}

fn decode<T: serde::de::DeserializeOwned>(json: &str) -> T {
    serde_json::from_str(json).unwrap_or_else(|error| panic!("{json}: {error}"))
}

#[test]
fn a_union_of_formats_decodes_each_as_itself() {
    let date: exact::When = decode(r#""2024-06-14""#);
    assert!(
        matches!(&date, exact::When::Date(d) if d.to_string() == "2024-06-14"),
        "{date:?}"
    );
    let timestamp: exact::When = decode(r#""2024-06-14T17:30:00Z""#);
    assert!(
        matches!(&timestamp, exact::When::Timestamp(t) if t.to_string() == "2024-06-14T17:30:00Z"),
        "{timestamp:?}"
    );
    for (value, text) in [
        (date, "\"2024-06-14\""),
        (timestamp, "\"2024-06-14T17:30:00Z\""),
    ] {
        assert_eq!(serde_json::to_string(&value).ok().as_deref(), Some(text));
    }
    // (A civil date-time, `2024-06-14T17:30`, is neither; jiff's date parser reads its date,
    // as it does for any `format: date` field: the union adds no leniency of its own.)
    for refused in [r#""soon""#, r#""2024-06-14 noon""#, "1"] {
        assert!(
            serde_json::from_str::<exact::When>(refused).is_err(),
            "{refused}"
        );
    }
}

#[test]
fn an_enum_of_objects_decodes_listed_values_as_json_compares_them() {
    for (json, expected) in [
        (r#"{"x": 0, "y": 0}"#, exact::Corner::X0Y0),
        (r#"{"y": 0, "x": 1}"#, exact::Corner::X1Y0),
        (r#"{"x": 1.0, "y": 1e0}"#, exact::Corner::X1Y1),
    ] {
        assert_eq!(decode::<exact::Corner>(json), expected, "{json}");
    }
    assert_eq!(
        serde_json::to_value(exact::Corner::X1Y0).ok(),
        Some(serde_json::json!({"x": 1, "y": 0}))
    );
    let other: exact::Corner = decode(r#"{"x": 2, "y": 0}"#);
    assert!(other.is_unknown());
    assert_eq!(
        serde_json::to_string(&other).ok().as_deref(),
        Some(r#"{"x":2,"y":0}"#)
    );
    assert_eq!(exact::Corner::KNOWN.len(), 3);
    let unit: exact::Unit = decode(r#"{"scale": 3, "name": "mill"}"#);
    assert!(!unit.is_unknown(), "{unit:?}");
    assert_eq!(
        unit.to_value(),
        serde_json::json!({"name": "mill", "scale": 3})
    );
}

#[test]
fn annotated_and_constrained_references_decode_as_their_types() {
    let payment: exact::Payment = decode(
        r#"{"id": "p1", "amount": {"amount": 250, "currency": "usd"}, "status": "settled",
            "fee": {"amount": 30, "currency": "usd"}, "refund": {"amount": 5, "currency": "usd"},
            "reversal": null, "label": "rent", "attempts": 2, "total": {"amount": 280, "currency": "usd"}}"#,
    );
    let money = |amount: i64| exact::Money::new(amount, "usd");
    assert_eq!(payment.amount, money(250));
    assert_eq!(payment.fee, Some(money(30)));
    assert_eq!(payment.refund, Some(money(5)));
    assert_eq!(payment.total, Some(money(280)));
    assert_eq!(payment.reversal, None);
    assert_eq!(payment.status, exact::Status::Settled);
    assert_eq!(payment.label.as_deref(), Some("rent"));
    assert_eq!(payment.attempts, Some(2));

    let invoice: exact30::Invoice = decode(
        r#"{"id": "in_1", "total": {"amount": 100, "currency": "eur"}, "discount": null,
            "paid": {"amount": 40, "currency": "eur"}, "currency": "eur",
            "lines": [{"amount": 60, "currency": "eur"}]}"#,
    );
    assert_eq!(invoice.discount, None);
    assert_eq!(invoice.paid.map(|paid| paid.amount), Some(40));
    assert_eq!(invoice.currency, exact30::Currency::Eur);
    assert_eq!(invoice.lines.map(|lines| lines.len()), Some(1));
}

async fn answering(body: &str) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_raw(body, "application/json"))
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn a_body_given_by_a_ref_with_siblings_is_sent_as_its_type() {
    let server = answering(
        r#"{"id": "p1", "amount": {"amount": 250, "currency": "usd"}, "status": "pending"}"#,
    )
    .await;
    let client = ExactClient::builder()
        .api_key("exact-test-key-Jw3")
        .base_url(server.uri())
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let body = exact::PaymentRequest::new()
        .amount(exact::Money::new(250, "usd"))
        .note("rent");
    let payment = client
        .post_payments(&body)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(payment.status, exact::Status::Pending);
    let requests = server.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 1);
    let sent: serde_json::Value = serde_json::from_slice(&requests[0].body).unwrap_or_default();
    assert_eq!(
        sent,
        serde_json::json!({"amount": {"amount": 250, "currency": "usd"}, "note": "rent"})
    );
}

/// On main this operation was left out: its path parameter, a `$ref` with `maxLength` beside,
/// was read as any JSON value, which has no path encoding.
#[tokio::test]
async fn a_path_parameter_given_by_a_ref_with_a_constraint_is_sent() {
    let server = answering(
        r#"{"id": "in 1", "total": {"amount": 1, "currency": "usd"}, "discount": null,
            "paid": null, "currency": "usd"}"#,
    )
    .await;
    let client = Exact30Client::builder()
        .api_key("exact-test-key-Jw3")
        .base_url(server.uri())
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let invoice = client
        .get_invoice(&"in 1".to_owned())
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(invoice.id, "in 1");
    let requests = server.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].url.path(), "/v1/invoices/in%201");
}
