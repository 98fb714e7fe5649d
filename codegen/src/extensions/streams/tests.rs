//! The page-streams extension: which operations it recognises, the names it claims, and what it
//! adds to the crate (methods, listing lines, probe).

use crate::extensions::EXTENSIONS;
use crate::ir::Api;

use super::pagination::pagination;

/// A document with one `GET` whose response and parameters are `response`'s and `parameters`'.
fn api(parameters: &str, schemas: &str) -> Api {
    let document = format!(
        "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths:\n  /v1/things/{{id}}:\n    \
         get:\n      parameters:\n      - {{name: id, in: path, required: true, schema: {{type: \
         string}}}}\n{parameters}      responses: {{'200': {{description: ok, content: \
         {{application/json: {{schema: {{$ref: '#/components/schemas/Page'}}}}}}}}}}\n\
         components:\n  schemas:\n{schemas}"
    );
    crate::build_ir(&crate::Input {
        spec_path: "t.yaml",
        spec_text: &document,
        config_text: None,
    })
    .map(|(api, _)| api)
    .unwrap_or_else(|error| panic!("{error}\n{document}"))
}

const CURSOR: &str = "      - {name: cursor, in: query, schema: {type: string}}\n";

/// A page holding its cursor pair itself, or in a `pagination` field.
const FLAT: &str = "    Page:\n      type: object\n      required: [items, has_more]\n      \
     properties:\n        items: {type: array, items: {type: string}}\n        cursor: {type: \
     string}\n        has_more: {type: boolean}\n";
const NESTED: &str = "    Page:\n      type: object\n      required: [data, pagination]\n      \
     properties:\n        data: {type: array, items: {type: integer}}\n        pagination: \
     {$ref: '#/components/schemas/Info'}\n    Info:\n      type: object\n      required: \
     [has_more]\n      properties:\n        cursor: {type: [string, 'null']}\n        has_more: \
     {type: boolean}\n";

#[test]
fn a_cursor_page_is_recognised_with_its_fields() {
    let flat = api(CURSOR, FLAT);
    let found = pagination(&flat, &flat.operations[0]).unwrap_or_else(|| panic!("not paginated"));
    assert_eq!(found.cursor_param, "cursor");
    assert_eq!(found.items_field, "items");
    assert_eq!(found.item, crate::ir::TypeRef::String);
    assert_eq!(found.info_field, None);
    assert_eq!(
        (found.cursor_field.as_str(), found.has_more_field.as_str()),
        ("cursor", "has_more")
    );
    let nested = api(CURSOR, NESTED);
    let found =
        pagination(&nested, &nested.operations[0]).unwrap_or_else(|| panic!("not paginated"));
    assert_eq!(found.items_field, "data");
    assert_eq!(found.item, crate::ir::TypeRef::Integer);
    assert_eq!(found.info_field.as_deref(), Some("pagination"));
}

/// Each condition of the shape, broken alone, leaves the operation unpaginated.
#[test]
fn anything_short_of_the_shape_is_not_paginated() {
    let cases = [
        // No cursor parameter, or one of another type, or a required one.
        ("", FLAT.to_owned()),
        (
            "      - {name: cursor, in: query, schema: {type: integer}}\n",
            FLAT.to_owned(),
        ),
        (
            "      - {name: cursor, in: query, required: true, schema: {type: string}}\n",
            FLAT.to_owned(),
        ),
        // Another required query parameter.
        (
            "      - {name: cursor, in: query, schema: {type: string}}\n      - {name: q, in: \
             query, required: true, schema: {type: string}}\n",
            FLAT.to_owned(),
        ),
        // has_more optional, nullable or not a boolean; cursor required and not nullable.
        (CURSOR, FLAT.replace("[items, has_more]", "[items]")),
        (
            CURSOR,
            FLAT.replace(
                "has_more: {type: boolean}",
                "has_more: {type: [boolean, 'null']}",
            ),
        ),
        (
            CURSOR,
            FLAT.replace("has_more: {type: boolean}", "has_more: {type: string}"),
        ),
        (
            CURSOR,
            FLAT.replace("[items, has_more]", "[items, has_more, cursor]"),
        ),
        (
            CURSOR,
            FLAT.replace("cursor: {type: string}", "cursor: {type: integer}"),
        ),
        // No list, an optional list, or two lists.
        (CURSOR, FLAT.replace("[items, has_more]", "[has_more]")),
        (
            CURSOR,
            FLAT.replace(
                "        cursor:",
                "        more: {type: array, items: {type: string}}\n        cursor:",
            )
            .replace("[items, has_more]", "[items, more, has_more]"),
        ),
        // The pair in an optional field.
        (CURSOR, NESTED.replace("[data, pagination]", "[data]")),
        // No pair at all.
        (
            CURSOR,
            NESTED.replace("has_more: {type: boolean}", "more: {type: boolean}"),
        ),
    ];
    for (parameters, schemas) in cases {
        let api = api(parameters, &schemas);
        let operation = &api.operations[0];
        assert_eq!(pagination(&api, operation), None, "{parameters}{schemas}");
    }
    // A body, or a response that is not a named JSON type.
    let mut with_body = api(CURSOR, FLAT);
    let body = api(CURSOR, FLAT);
    with_body.operations[0].body = crate::build_ir(&crate::Input {
        spec_path: "t.yaml",
        spec_text: "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /x:\n    post:\n      \
             requestBody: {content: {application/json: {schema: {type: string}}}}\n      \
             responses: {'204': {description: ok}}\n",
        config_text: None,
    })
    .ok()
    .and_then(|(api, _)| api.operations[0].body.clone());
    assert!(with_body.operations[0].body.is_some());
    assert_eq!(pagination(&with_body, &with_body.operations[0]), None);
    let mut numbered = api(CURSOR, FLAT);
    numbered.operations[0].path_params[0].ty = crate::ir::TypeRef::Integer;
    assert_eq!(pagination(&numbered, &numbered.operations[0]), None);
    let mut empty = body;
    empty.operations[0].response = crate::ir::ResponseKind::Empty;
    assert_eq!(pagination(&empty, &empty.operations[0]), None);
}

/// The streams' methods, listing lines and probe, with the names lock's keys.
#[test]
fn a_paginated_operation_gets_two_streams() {
    let nested = api(CURSOR, NESTED);
    let surface =
        crate::surface::build(&nested, None, EXTENSIONS).unwrap_or_else(|e| panic!("{e}"));
    let methods: Vec<&str> = surface
        .contributions
        .iter()
        .flat_map(|contribution| contribution.methods())
        .map(|method| method.name)
        .collect();
    let operation = &nested.operations[0].name;
    assert_eq!(
        methods,
        [format!("{operation}_pages"), format!("{operation}_items")]
    );
    assert_eq!(
        surface
            .names
            .client_methods
            .get("pages GET /v1/things/{id}"),
        Some(&format!("{operation}_pages"))
    );
    assert_eq!(
        surface
            .names
            .client_methods
            .get("items GET /v1/things/{id}"),
        Some(&format!("{operation}_items"))
    );
    let listed: Vec<String> = surface
        .listing()
        .into_iter()
        .filter(|line| line.path.starts_with("Client::") && line.signature.contains("PageStream<"))
        .map(|line| format!("{} {} {}", line.kind, line.path, line.text()))
        .collect();
    let query = nested.operations[0].query_type.clone().unwrap_or_default();
    assert_eq!(
        listed,
        [
            format!(
                "fn Client::{operation}_items feature=things (&self, id: impl Into<String>, query: \
                 &{query}) -> client::PageStream<i64> [GET /v1/things/{{id}}]"
            ),
            format!(
                "fn Client::{operation}_pages feature=things (&self, id: impl Into<String>, query: \
                 &{query}) -> client::PageStream<Page> [GET /v1/things/{{id}}]"
            ),
        ]
    );
    // The probe reads each stream's items as the old types; no other method is the streams'.
    let krate = crate::tokens::ident("krate");
    let any = |ty: &proc_macro2::TokenStream| quote::quote!(any::<#ty>());
    let streams = &surface.contributions[1];
    let probe = |method: &str| streams.probe(method, &krate, any).to_string();
    assert!(
        probe(&format!("{operation}_pages")).contains("items_of :: < Page >"),
        "{}",
        probe(&format!("{operation}_pages"))
    );
    assert!(probe(&format!("{operation}_items")).contains("items_of :: < i64 >"));
    assert_eq!(probe("another"), "");
    // Both methods in `client.rs`, under the operation's gate; neither is named in the
    // operation's own docs as the way to call it (a stream makes many calls).
    let items = streams.client_items().to_string();
    assert!(items.contains(&format!("fn {operation}_pages")), "{items}");
    assert!(items.contains(&format!("fn {operation}_items")), "{items}");
    assert!(items.contains("feature = \"things\""), "{items}");
    assert!(surface.methods_calling(&nested.operations[0]).is_empty());
    // The client imports the models its streams name; without a stream, nothing is added.
    assert!(streams.client_imports().to_string().contains("models"));
    let plain = api("", FLAT);
    let surface = crate::surface::build(&plain, None, EXTENSIONS).unwrap_or_else(|e| panic!("{e}"));
    let streams = &surface.contributions[1];
    assert!(streams.client_imports().is_empty());
    assert!(streams.methods().is_empty());
    assert!(streams.client_items().is_empty());
    // Nor is a file added, or declared at the crate root.
    let output = crate::generate(&crate::Input {
        spec_path: "t.yaml",
        spec_text: "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n",
        config_text: None,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(output.extension_modules.is_empty());
    assert!(!output.files.contains_key("index_mapped.rs"));
}
