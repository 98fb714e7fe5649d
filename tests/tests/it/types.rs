//! Types as exact as the document: which Rust type each schema becomes (decimals, timestamps,
//! dates, untagged unions, integer enums, and what stays `serde_json::Value` with its note), and
//! how the generated types decode real-looking values, exactly, with errors naming their path.

use baseten_api::metrics;
use baseten_api::models::{DedicatedUsageV1, UsageSummaryV1};
use baseten_api::primitives::Decimal;
use baseten_codegen::Input;
use baseten_codegen::ir::{Api, TypeDef, TypeRef};
use baseten_tests::snapshots::types::models as fixture;

const DECIMAL_PATTERN: &str = r"'^(?!^[-+.]*$)[+-]?0*\d*\.?\d*$'";

/// Builds the IR of a document whose component `Row` has one required property `p` of `schema`
/// (YAML flow syntax) beside a component `Secret` (an object), and returns `p`'s type, every
/// other type defined for it (one per line), and the notes about `p`.
fn lowered(schema: &str) -> String {
    let spec = format!(
        "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths: {{}}\ncomponents:\n  schemas:\n    \
         Secret: {{type: object, properties: {{name: {{type: string}}}}}}\n    \
         Row: {{type: object, required: [p], properties: {{p: {schema}}}}}\n"
    );
    let input = Input {
        spec_path: "types.yaml",
        spec_text: &spec,
        config_text: None,
    };
    let (api, notes) =
        baseten_codegen::build_ir(&input).unwrap_or_else(|error| panic!("{error}\nfor:\n{spec}"));
    let mut lines = vec![format!("p: {}", field_type(&api))];
    for (name, def) in &api.types {
        if name != "Row" && name != "Secret" {
            lines.push(describe(def));
        }
    }
    for note in notes.iter().filter(|n| n.pointer.contains("/properties/p")) {
        lines.push(format!("note: {}", note.message));
    }
    lines.join("\n")
}

fn field_type(api: &Api) -> String {
    match api.types.get("Row") {
        Some(TypeDef::Struct(def)) => def
            .fields
            .first()
            .map(|f| {
                let ty = render(&f.ty);
                if f.nullable {
                    format!("Option<{ty}>")
                } else {
                    ty
                }
            })
            .unwrap_or_default(),
        other => format!("Row is {other:?}"),
    }
}

fn render(ty: &TypeRef) -> String {
    match ty {
        TypeRef::String => "String".into(),
        TypeRef::Integer => "i64".into(),
        TypeRef::Unsigned => "u64".into(),
        TypeRef::Number => "f64".into(),
        TypeRef::Boolean => "bool".into(),
        TypeRef::Decimal => "Decimal".into(),
        TypeRef::Timestamp => "Timestamp".into(),
        TypeRef::Date => "Date".into(),
        TypeRef::Json => "Value".into(),
        TypeRef::Bytes => "Binary".into(),
        TypeRef::Named(name) => name.clone(),
        TypeRef::Vec(inner) => format!("Vec<{}>", render(inner)),
        TypeRef::Map(inner) => format!("Map<{}>", render(inner)),
        TypeRef::Option(inner) => format!("Option<{}>", render(inner)),
        TypeRef::Indirect(inner) => format!("Indirect<{}>", render(inner)),
    }
}

fn describe(def: &TypeDef) -> String {
    match def {
        TypeDef::Untagged(u) => format!(
            "untagged {} {{ {} }}",
            u.name,
            u.variants
                .iter()
                .map(|v| format!("{}({})", v.rust_name, render(&v.ty)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        TypeDef::IntEnum(e) => format!(
            "int enum {} {{ {} }}",
            e.name,
            e.variants
                .iter()
                .map(|v| format!("{} = {}", v.rust_name, v.value))
                .chain([format!("{}(i64)", e.fallback)])
                .collect::<Vec<_>>()
                .join(", ")
        ),
        TypeDef::Enum(e) => format!("enum {}", e.name),
        TypeDef::ValueEnum(e) => format!(
            "value enum {} {{ {} }}",
            e.name,
            e.variants
                .iter()
                .map(|v| format!("{} = {}", v.rust_name, v.wire))
                .chain([format!("{}(Value)", e.fallback)])
                .collect::<Vec<_>>()
                .join(", ")
        ),
        TypeDef::Struct(s) => format!("struct {}", s.name),
        TypeDef::Alias(a) => format!("type {} = {}", a.name, render(&a.ty)),
        TypeDef::Union(u) => format!("union {}", u.name),
    }
}

pub(crate) fn check(schema: &str, expected: &str) {
    let actual = lowered(schema);
    assert_eq!(actual, expected, "\nfor {schema}");
}

#[test]
fn a_number_or_a_decimal_string_is_a_decimal() {
    let money =
        format!("{{anyOf: [{{type: number}}, {{type: string, pattern: {DECIMAL_PATTERN}}}]}}");
    check(&money, "p: Decimal");
    // Either order, either keyword, nullable in 3.1's way.
    check(
        &format!(
            "{{oneOf: [{{type: string, pattern: {DECIMAL_PATTERN}}}, {{type: number}}, {{type: 'null'}}]}}"
        ),
        "p: Option<Decimal>",
    );
    check(
        r"{anyOf: [{type: number}, {type: string, pattern: '^-?[0-9]+(\.[0-9]{1,2})?$'}]}",
        "p: Decimal",
    );
    check(
        "{anyOf: [{type: number}, {type: string, format: decimal}]}",
        "p: Decimal",
    );
    // By structure, never by name: a string that admits letters is not a decimal.
    check(
        r"{anyOf: [{type: number}, {type: string, pattern: '^\w+$'}]}",
        "p: RowP\nuntagged RowP { Number(f64), String(String) }",
    );
    check(
        "{anyOf: [{type: number}, {type: string}]}",
        "p: RowP\nuntagged RowP { Number(f64), String(String) }",
    );
    // An integer and a decimal string: not money as the document writes it.
    check(
        &format!("{{anyOf: [{{type: integer}}, {{type: string, pattern: {DECIMAL_PATTERN}}}]}}"),
        "p: RowP\nuntagged RowP { Integer(i64), String(String) }",
    );
}

#[test]
fn date_time_and_date_strings_are_jiff_types() {
    check("{type: string, format: date-time}", "p: Timestamp");
    check("{type: string, format: date}", "p: Date");
    check(
        "{type: [string, 'null'], format: date-time}",
        "p: Option<Timestamp>",
    );
    check(
        "{anyOf: [{type: string, format: date}, {type: 'null'}]}",
        "p: Option<Date>",
    );
    // Other formats stay strings.
    check("{type: string, format: uuid}", "p: String");
    check(
        "{type: array, items: {type: string, format: date-time}}",
        "p: Vec<Timestamp>",
    );
}

#[test]
fn unions_told_apart_by_json_kind_are_untagged_enums() {
    // An integer is tried before a number, whatever the document's order.
    check(
        "{oneOf: [{type: number}, {type: integer}]}",
        "p: RowP\nuntagged RowP { Integer(i64), Number(f64) }",
    );
    // A `$ref` member is named by its type.
    check(
        "{anyOf: [{type: string}, {$ref: '#/components/schemas/Secret'}]}",
        "p: RowP\nuntagged RowP { String(String), Secret(Secret) }",
    );
    check(
        "{anyOf: [{type: array, items: {type: integer}}, {type: boolean}, {type: 'null'}]}",
        "p: Option<RowP>\nuntagged RowP { Boolean(bool), Array(Vec<i64>) }",
    );
    // Inline members are named from the union's own name and their kind.
    check(
        "{anyOf: [{type: string, enum: [auto]}, {type: object, properties: {n: {type: integer}}}]}",
        "p: RowP\nuntagged RowP { String(RowPString), Object(RowPObject) }\nstruct RowPObject\nenum RowPString",
    );
    check(
        "{anyOf: [{type: string, format: date-time}, {type: integer}]}",
        "p: RowP\nuntagged RowP { Integer(i64), String(Timestamp) }",
    );
}

#[test]
fn unions_only_contents_tell_apart_are_best_fit_or_values_with_a_note() {
    // Objects: a union of the members, read by best fit (`ir::best_fit`).
    check(
        "{anyOf: [{$ref: '#/components/schemas/Secret'}, {type: object, properties: {x: {type: string}}}]}",
        "p: RowP\nuntagged RowP { Secret(Secret), Object(RowPObject) }\nstruct RowPObject",
    );
    check(
        "{oneOf: [{type: string}, {type: string, format: date}]}",
        "p: Value\nnote: a union of several schemas is lowered to serde_json::Value: members 0 and 1 are both JSON strings, which only their contents tell apart",
    );
    check(
        "{anyOf: [{type: string}, {not: {type: string}}]}",
        "p: Value\nnote: a union of several schemas is lowered to serde_json::Value: member 1 is not of one JSON kind",
    );
    check(
        "{anyOf: [{type: string}, {$ref: '#/components/schemas/Missing'}]}",
        "p: Value\nnote: the schema (read as any JSON value) is left out: `$ref` \"#/components/schemas/Missing\" does not resolve to anything in the document\nnote: a union of several schemas is lowered to serde_json::Value: member 1 is not of one JSON kind",
    );
}

#[test]
fn integer_enums_are_open_enums() {
    check(
        "{type: integer, enum: [200, 404, -1, 200]}",
        "p: RowP\nint enum RowP { V200 = 200, V404 = 404, VMinus1 = -1, Unknown(i64) }",
    );
    check("{type: integer}", "p: i64");
}

/// `allOf` + `discriminator` inheritance: where the base `Pet` is expected, a value decodes as
/// the subtype its tag names, with the subtype's own fields (as the base struct, `bark` and
/// `lives` were lost). `Dog` is mapped; `Cat` is tagged by its key (it only names `Pet` in
/// `allOf`); an unknown tag keeps the value whole.
#[test]
fn discriminator_inheritance_decodes_the_subtype() {
    let usage = |pet: &str| {
        format!(
            r#"{{"total": null, "items": [], "created": "2026-07-01T00:00:00Z", "pet": {pet}}}"#
        )
    };
    let pet = |json: &str| decode::<fixture::Usage>(&usage(json)).map(|u| u.pet);
    match pet(r#"{"pet_type": "dog", "name": "rex", "bark": true}"#) {
        Ok(Some(fixture::Pet::Dog(dog))) => {
            assert_eq!((dog.name.as_str(), dog.bark), ("rex", Some(true)));
        }
        other => panic!("{other:?}"),
    }
    match pet(r#"{"pet_type": "Cat", "name": "tom", "lives": 9}"#) {
        Ok(Some(fixture::Pet::Cat(cat))) => assert_eq!((cat.name.as_str(), cat.lives), ("tom", 9)),
        other => panic!("{other:?}"),
    }
    match pet(r#"{"pet_type": "bird", "name": "tweety"}"#) {
        Ok(Some(fixture::Pet::Unknown(value))) => assert_eq!(value["name"], "tweety"),
        other => panic!("{other:?}"),
    }
    // A subtype's own required field is required.
    assert!(pet(r#"{"pet_type": "Cat", "name": "tom"}"#).is_err_and(|e| e.contains("lives")));
    // Written back with its tag.
    let dog = fixture::Pet::Dog(fixture::Dog::new("dog", "rex").bark(false));
    assert_eq!(
        serde_json::to_value(&dog).ok(),
        Some(serde_json::json!({"pet_type": "dog", "name": "rex", "bark": false}))
    );
}

/// Unsigned formats are `u64`: an `i64` refused every value above `i64::MAX`.
#[test]
fn unsigned_formats_are_u64() {
    for format in ["uint64", "uint32", "uint16", "uint8", "uint"] {
        check(&format!("{{type: integer, format: {format}}}"), "p: u64");
    }
    check("{type: integer, format: int64}", "p: i64");
    check("{type: integer, format: int32}", "p: i64");
    check("{type: integer, format: unsigned}", "p: i64");
    let usage = |bytes: &str| {
        format!(
            r#"{{"total": null, "items": [], "created": "2026-07-01T00:00:00Z", "bytes": {bytes}}}"#
        )
    };
    let bytes = |text: &str| decode::<fixture::Usage>(&usage(text)).map(|u| u.bytes);
    assert_eq!(bytes("18446744073709551615"), Ok(Some(u64::MAX)));
    assert_eq!(bytes("0"), Ok(Some(0)));
    assert!(bytes("-1").is_err_and(|error| error.contains("bytes")));
}

/// Decodes `json` through the crate's decode (the client's path too), as `T`.
fn decode<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, String> {
    metrics::decode::<T>(json.as_bytes()).map_err(|error| error.to_string())
}

fn dec(text: &str) -> Decimal {
    text.parse()
        .unwrap_or_else(|error| panic!("{text:?}: {error}"))
}

#[test]
fn money_decodes_and_sums_exactly() {
    let item = |subtotal: &str| {
        format!(
            r#"{{"billable_resource": {{"id": "d", "kind": "MODEL_DEPLOYMENT", "is_deleted": false}},
                "subtotal": {subtotal}, "compute_cost": {subtotal}, "surcharge_cost": 0,
                "minutes": 1, "inference_requests": 0}}"#
        )
    };
    let json = format!(
        r#"{{"dedicated_usage": {{"subtotal": "0.30", "credits_used": 0.1, "total": "0.20",
             "minutes": 2, "breakdown": [{}, {}]}}}}"#,
        item(r#""0.1""#),
        item("0.2")
    );
    let usage: UsageSummaryV1 = decode(&json).unwrap_or_else(|error| panic!("{error}"));
    let Some(dedicated) = usage.dedicated_usage else {
        panic!("no dedicated usage")
    };
    let items: Option<Decimal> = dedicated
        .breakdown
        .iter()
        .flatten()
        .map(|item| item.subtotal)
        .sum();
    // "0.1" (a string) + 0.2 (a number) is 0.3, exactly; through f64 it would not be.
    assert_eq!(items, Some(dec("0.3")));
    assert_ne!(0.1_f64 + 0.2_f64, 0.3_f64);
    assert_eq!(items, Some(dedicated.subtotal));
    assert_eq!(
        dedicated.subtotal.checked_sub(dedicated.credits_used),
        Some(dedicated.total)
    );
    // The scale as sent, and an exact string back on the wire.
    assert_eq!(dedicated.subtotal.to_string(), "0.30");
    let again = serde_json::to_value(&dedicated).unwrap_or_default();
    assert_eq!(again["total"], serde_json::json!("0.20"));
    assert_eq!(again["credits_used"], serde_json::json!("0.1"));
    let round: Result<DedicatedUsageV1, _> = serde_json::from_value(again);
    assert_eq!(round.ok().map(|d| d.total), Some(dec("0.20")));
}

#[test]
fn bad_values_are_decode_errors_naming_their_path() {
    let usage = |total: &str| {
        format!(
            r#"{{"dedicated_usage": {{"subtotal": 1, "credits_used": 0, "total": {total}, "minutes": 0}}}}"#
        )
    };
    let error = decode::<UsageSummaryV1>(&usage(r#""12,50""#))
        .err()
        .unwrap_or_default();
    assert!(
        error.starts_with(r#"dedicated_usage.total: invalid decimal "12,50""#),
        "{error}"
    );
    let error = decode::<UsageSummaryV1>(&usage("true"))
        .err()
        .unwrap_or_default();
    assert!(
        error.starts_with(r#"dedicated_usage.total: invalid decimal "true""#),
        "{error}"
    );
    assert!(decode::<UsageSummaryV1>(&usage("12.5")).is_ok());

    let item = |created: &str, day: &str| {
        format!(
            r#"{{"total": 1, "items": [{{"subtotal": 1, "day": {day}}}], "created": {created}}}"#
        )
    };
    let ok = decode::<fixture::Usage>(&item(r#""2026-07-01T02:00:00+02:00""#, r#""2026-07-01""#));
    let ok = ok.unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(ok.created.to_string(), "2026-07-01T00:00:00Z");
    assert_eq!(
        ok.items.first().map(|i| i.day.to_string()).as_deref(),
        Some("2026-07-01")
    );
    // RFC 3339 needs an offset; a date is not a timestamp, nor is a timestamp a date.
    for created in [r#""2026-07-01T00:00:00""#, r#""2026-07-01""#, "17"] {
        let error = decode::<fixture::Usage>(&item(created, r#""2026-07-01""#))
            .err()
            .unwrap_or_default();
        assert!(error.starts_with("created: "), "{created}: {error}");
    }
    let error = decode::<fixture::Usage>(&item(r#""2026-07-01T00:00:00Z""#, r#""2026-13-01""#))
        .err()
        .unwrap_or_default();
    assert!(error.starts_with("items[0].day: "), "{error}");
}

#[test]
fn untagged_unions_and_integer_enums_decode_by_kind() {
    let usage = |extra: &str| {
        format!(r#"{{"total": null, "items": [], "created": "2026-07-01T00:00:00Z"{extra}}}"#)
    };
    let decoded = |extra: &str| decode::<fixture::Usage>(&usage(extra));
    let limit = |extra: &str| decoded(extra).ok().and_then(|u| u.limit);
    assert_eq!(
        limit(r#", "limit": 3"#),
        Some(fixture::UsageLimit::Integer(3))
    );
    assert_eq!(
        limit(r#", "limit": 2.5"#),
        Some(fixture::UsageLimit::Number(2.5))
    );
    let env = decoded(r#", "env": {"A": "x", "B": {"name": "s"}}"#)
        .ok()
        .and_then(|u| u.env)
        .unwrap_or_default();
    assert_eq!(
        env.get("A"),
        Some(&fixture::UsageEnvValue::String("x".into()))
    );
    assert!(matches!(env.get("B"), Some(fixture::UsageEnvValue::Secret(s)) if s.name == "s"));
    let tree = decoded(r#", "tree": {"child": {"child": "leaf"}}"#)
        .ok()
        .and_then(|u| u.tree);
    let leaf = match tree {
        Some(fixture::Tree::Object(outer)) => match outer.child.as_deref() {
            Some(fixture::Tree::Object(inner)) => inner.child.clone(),
            _ => None,
        },
        _ => None,
    };
    assert_eq!(leaf.as_deref(), Some(&fixture::Tree::String("leaf".into())));
    // A value of no member's kind is an error at its path.
    let error = decoded(r#", "limit": "3""#).err().unwrap_or_default();
    assert!(error.starts_with("limit: "), "{error}");
    // Serialised as the member itself, no wrapper.
    let json = serde_json::to_string(&fixture::UsageLimit::Integer(3)).unwrap_or_default();
    assert_eq!(json, "3");

    let code = |extra: &str| decoded(extra).ok().and_then(|u| u.code);
    assert_eq!(code(r#", "code": 404"#), Some(fixture::Code::V404));
    assert_eq!(code(r#", "code": -1"#), Some(fixture::Code::VMinus1));
    assert_eq!(code(r#", "code": 418"#), Some(fixture::Code::Unknown(418)));
    assert_eq!(fixture::Code::Unknown(418).value(), 418);
    let error = decoded(r#", "code": "404""#).err().unwrap_or_default();
    assert!(error.starts_with("code: "), "{error}");
}

#[test]
fn decimals_decode_through_every_deserializer_the_crate_uses() {
    // From a `serde_json::Value` (a discriminated union's payload is decoded from one) and
    // through serde_path_to_error directly.
    let from_value: Result<Decimal, _> = serde_json::from_value(serde_json::json!("0.10"));
    assert_eq!(
        from_value.ok().map(|d| d.to_string()).as_deref(),
        Some("0.10")
    );
    let mut de = serde_json::Deserializer::from_str(r#"{"a": [1, "x"]}"#);
    let tracked: Result<std::collections::BTreeMap<String, Vec<Decimal>>, _> =
        serde_path_to_error::deserialize(&mut de);
    let error = tracked
        .err()
        .map(|e| e.path().to_string())
        .unwrap_or_default();
    assert_eq!(error, "a[1]");
    // More digits than an f64 holds survive a JSON number, not only a string.
    let long: Result<Decimal, _> = serde_json::from_str("1234567890.123456789012");
    assert_eq!(
        long.ok().map(|d| d.to_string()).as_deref(),
        Some("1234567890.123456789012")
    );
}

/// A selection that reaches the base reaches its subtypes, so the union's variants are defined.
#[test]
fn a_selection_reaching_a_base_reaches_its_subtypes() {
    let spec = std::fs::read_to_string(baseten_tests::tests_dir().join("fixtures/specs/types.yaml"))
        .unwrap_or_else(|error| panic!("{error}"))
        .replace(
            "paths:\n",
            "paths:\n  /v1/pets:\n    get:\n      responses:\n        \"200\": {description: A pet., content: {application/json: {schema: {$ref: \"#/components/schemas/Pet\"}}}}\n",
        );
    let input = Input {
        spec_path: "types.yaml",
        spec_text: &spec,
        config_text: Some("select: [GET /v1/pets]"),
    };
    let (api, _) = baseten_codegen::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
    let names: Vec<&str> = api.types.keys().map(String::as_str).collect();
    assert_eq!(names, ["Cat", "Dog", "Pet"]);
}

/// `readOnly`/`writeOnly`: a required property is required only on its own side. `Account` is
/// sent and read back, so it has a request twin: the response `Account` requires its `id`
/// (readOnly) and not the `password` (writeOnly, which a response has not: it failed to
/// decode), `AccountRequest` the other way round; in a type one side only uses, the property
/// of the other side is optional with no note, and its own stays required.
#[test]
fn read_only_and_write_only_are_required_on_their_side_only() {
    let account = decode::<fixture::Account>(r#"{"id": "a1", "name": "n"}"#)
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!((account.id.as_str(), account.password), ("a1", None));
    assert!(decode::<fixture::Account>(r#"{"name": "n"}"#).is_err());
    let sent = serde_json::to_value(fixture::AccountRequest::new("n", "s3cret")).ok();
    assert_eq!(
        sent,
        Some(serde_json::json!({"name": "n", "password": "s3cret"}))
    );

    let spec = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /token:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Token'}}}}\n  /creds:\n    put:\n      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Creds'}}}}\n      responses: {'204': {description: ok}}\ncomponents:\n  schemas:\n    Token:\n      type: object\n      required: [value, secret]\n      properties: {value: {type: string, readOnly: true}, secret: {type: string, writeOnly: true}}\n    Creds:\n      type: object\n      required: [id, key]\n      properties: {id: {type: string, readOnly: true}, key: {type: string, writeOnly: true}}\n";
    let input = Input {
        spec_path: "access.yaml",
        spec_text: spec,
        config_text: None,
    };
    let (api, notes) = baseten_codegen::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
    let required = |name: &str| match api.types.get(name) {
        Some(TypeDef::Struct(def)) => def
            .fields
            .iter()
            .map(|f| format!("{}={}", f.wire_name, f.required))
            .collect::<Vec<_>>()
            .join(" "),
        other => format!("{other:?}"),
    };
    assert_eq!(required("Token"), "value=true secret=false");
    assert_eq!(required("Creds"), "id=false key=true");
    assert!(notes.is_empty(), "{notes:?}");
    // `Account`, used both ways, is two types, each exact: nothing is loosened, so no note.
    let (api, notes) = baseten_codegen::build_ir(&Input {
        spec_path: "types.yaml",
        spec_text: &std::fs::read_to_string(
            baseten_tests::tests_dir().join("fixtures/specs/types.yaml"),
        )
        .unwrap_or_default(),
        config_text: None,
    })
    .unwrap_or_else(|error| panic!("{error}"));
    let required = |name: &str| match api.types.get(name) {
        Some(TypeDef::Struct(def)) => def
            .fields
            .iter()
            .map(|f| format!("{}={}", f.wire_name, f.required))
            .collect::<Vec<_>>()
            .join(" "),
        other => format!("{other:?}"),
    };
    assert_eq!(required("Account"), "id=true name=true password=false");
    assert_eq!(
        required("AccountRequest"),
        "id=false name=true password=true"
    );
    let account: Vec<String> = notes
        .iter()
        .filter(|n| n.pointer.starts_with("#/components/schemas/Account"))
        .map(ToString::to_string)
        .collect();
    assert_eq!(account, Vec::<String>::new());
}

/// Numbers go into constructors and setters as themselves, so an integer literal just works:
/// `bytes` is a `u64`, for which `impl Into<u64>` made `1` an `i32` and refused it. (Reverting
/// the generator stops this file compiling.)
#[test]
fn numeric_arguments_take_integer_literals() {
    let created = baseten_api::primitives::jiff::Timestamp::UNIX_EPOCH;
    let usage = fixture::Usage::new(None, Vec::new(), created).bytes(1);
    assert_eq!(usage.bytes, Some(1_u64));
    let cat = fixture::Cat::new("cat", "tom", 9);
    assert_eq!(cat.lives, 9);
    let query = baseten_api::operations::GetAuditLogsQuery::default().limit(5);
    assert_eq!(query.limit, Some(5));
}

/// Test values without JSON (feature `mock`): every model a response reaches has
/// `Model::builder()`, a setter per field and `build()`, which checks the value as a response
/// would be checked, naming a required field left out.
#[test]
fn response_models_build_field_by_field_with_required_fields_checked() {
    use baseten_api::models::{AutoscalingSettingsV1, DedicatedUsageV1};
    let settings = AutoscalingSettingsV1::builder()
        .min_replica(1)
        .max_replica(4)
        .autoscaling_window(60)
        .concurrency_target(2)
        .build()
        .unwrap();
    assert_eq!((settings.min_replica, settings.max_replica), (1, 4));
    // A required nullable field left out is `None`, as when a server omits it.
    assert_eq!(settings.scale_down_delay, None);
    let missing = AutoscalingSettingsV1::builder().min_replica(1).build();
    let error = missing.unwrap_err();
    assert!(
        matches!(error, baseten_api::Error::InvalidArgument(_)),
        "{error}"
    );
    assert!(
        error.to_string().contains("missing field `max_replica`"),
        "{error}"
    );
    // A later setter replaces an earlier one; a decimal keeps its exact text.
    let usage = DedicatedUsageV1::builder()
        .subtotal("0.10".parse::<Decimal>().unwrap())
        .credits_used(Decimal::ZERO)
        .total(Decimal::ZERO)
        .minutes(7)
        .minutes(42)
        .build()
        .unwrap();
    assert_eq!(
        (usage.minutes, usage.subtotal.to_string()),
        (42, "0.10".to_owned())
    );
    assert_eq!(usage.breakdown, None);
}
