//! Tests of the change report: a diff of two listings, its gates, serde impls and kinds of
//! signature change, what the IR adds (renames, operations left out), and its text.

use std::collections::BTreeMap;

use super::signature::{Noticed, blank_endpoint, noticed, split_arguments};
use super::*;
use crate::NameLock;

/// A side read from its listing alone.
fn listed(listing: &str) -> Side<'_> {
    Side {
        listing,
        ir: Err("none in this test"),
    }
}

fn seen(report: &ChangeReport) -> Vec<(Impact, &str, bool, bool)> {
    report
        .changes
        .iter()
        .map(|c| {
            (
                c.impact,
                c.description.as_str(),
                c.compiles,
                c.only_with_fewer_features,
            )
        })
        .collect()
}

#[test]
fn a_gate_that_gains_a_feature_is_additive_and_one_that_loses_one_breaks_fewer_builds() {
    let old = "# header\nstruct models::A feature=x Default\nstruct models::B feature=x|y\n\
               fn Client::c feature=x (&self) -> () [GET /c]\nstruct models::D Default\n\
               struct models::E feature=x\n";
    let new = "# header\nstruct models::A feature=x|y Default\nstruct models::B feature=y\n\
               fn Client::c feature=z (&self) -> () [GET /c]\nstruct models::D feature=x Default\n\
               struct models::E\n";
    let report = changes(listed(old), listed(new));
    assert_eq!(
        seen(&report),
        [
            (
                Impact::Breaking,
                "fn Client::c: compiled with feature z (was feature x)",
                false,
                true
            ),
            (
                Impact::Breaking,
                "struct models::B: compiled with feature y (was feature x or y)",
                false,
                true
            ),
            (
                Impact::Breaking,
                "struct models::D: compiled with feature x (was every build)",
                false,
                true
            ),
            (
                Impact::Additive,
                "struct models::A: also compiled with feature y",
                true,
                false
            ),
            (
                Impact::Additive,
                "struct models::E: now in every build",
                true,
                false
            ),
        ]
    );
    // The gate and the signature changing together are two changes.
    let both = changes(
        listed("struct models::A feature=x Default\n"),
        listed("struct models::A feature=y\n"),
    );
    assert_eq!(
        seen(&both),
        [
            (
                Impact::Breaking,
                "struct models::A: `Default` is now ``",
                false,
                false
            ),
            (
                Impact::Breaking,
                "struct models::A: compiled with feature y (was feature x)",
                false,
                true
            ),
        ]
    );
}

#[test]
fn a_serde_impl_that_needs_mock_breaks_fewer_builds_and_one_that_no_longer_does_adds() {
    let old = "struct models::A Default; serde: Deserialize (Serialize with mock)\n\
               enum models::B feature=x tagged by \"k\"\nstruct models::C serde: with mock\n";
    let new = "struct models::A Default\n\
               enum models::B feature=x tagged by \"k\"; serde: Serialize (Deserialize with mock)\n\
               struct models::C serde: Serialize (Deserialize with mock)\n";
    assert_eq!(
        seen(&changes(listed(old), listed(new))),
        [
            (
                Impact::Breaking,
                "enum models::B: implements Deserialize only with the mock feature",
                false,
                true
            ),
            (
                Impact::Additive,
                "struct models::A: implements Serialize in every build",
                true,
                false
            ),
            (
                Impact::Additive,
                "struct models::C: implements Serialize in every build",
                true,
                false
            ),
        ]
    );
}

/// What the probe must see fail: breaks the compiler reports, less those only a build without
/// some feature sees.
#[test]
fn the_items_failing_to_compile_leave_out_silent_breaks_and_additions() {
    let old = "fn Client::gone (&self) -> ()\nfn Client::gated feature=x (&self) -> ()\n\
               fn Client::moved (&self) -> () [GET /a]\nfn Client::kept (&self) -> ()\n";
    let new = "fn Client::gated feature=y (&self) -> ()\nfn Client::moved (&self) -> () [GET /b]\n\
               fn Client::kept (&self) -> ()\nfn Client::came (&self) -> ()\n";
    let report = changes(listed(old), listed(new));
    assert_eq!(report.changes.len(), 4, "{report}");
    assert_eq!(
        report.items_failing_to_compile(),
        BTreeSet::from(["Client::gated", "Client::gone"])
    );
    assert_eq!(
        report.items_failing_to_compile_with_every_feature(),
        BTreeSet::from(["Client::gone"])
    );
    assert!(report.is_breaking());
    let additions = changes(listed("fn Client::kept (&self) -> ()\n"), listed(new));
    assert!(!additions.is_breaking(), "{additions}");
    assert!(
        additions
            .items_failing_to_compile_with_every_feature()
            .is_empty()
    );
}

#[test]
fn changes_tell_breaking_silent_and_additive_apart() {
    let old = "# header\nfn Client::a (&self) -> () [GET /a]\nfn Client::b (&self) -> ()\n\
               variant models::M::S \"S\"\nfn models::X::new (id: impl Into<String>) -> Self\n\
               field models::X::kind String \"type\"\nconst models::U::TAG_PROPERTY &str = \"k\"\n\
               const client::DEFAULT_BASE_URL feature=client &str = \"https://a\"\n\
               fn Client::p (&self, body: &P) -> () [PUT /p; body: json]\n";
    let new = "fn Client::a (&self) -> () [GET /other]\nvariant models::M::S \"s\"\n\
               fn models::X::new (id: impl Into<String>, at: impl Into<i64>) -> Self\n\
               field models::X::kind String \"kind\"\nconst models::U::TAG_PROPERTY &str = \"t\"\n\
               const client::DEFAULT_BASE_URL feature=client &str = \"https://b\"\n\
               fn Client::p (&self, body: &P) -> () [PUT /p; body: form]\n\
               fn Client::c (&self) -> ()\n";
    let report = changes(listed(old), listed(new));
    let items: Vec<(Impact, &str, bool)> = report
        .changes
        .iter()
        .map(|c| (c.impact, c.item.as_str(), c.compiles))
        .collect();
    assert_eq!(
        items,
        [
            (Impact::Breaking, "client::DEFAULT_BASE_URL", true),
            (Impact::Breaking, "models::U", false),
            (Impact::Breaking, "models::X", true),
            (Impact::Breaking, "Client::a", true),
            (Impact::Breaking, "Client::p", true),
            (Impact::Breaking, "models::X", false),
            (Impact::Breaking, "Client::b", false),
            (Impact::Breaking, "models::M", true),
            (Impact::Additive, "Client::c", true),
        ]
    );
    assert!(changes(listed(old), listed(old)).changes.is_empty());
}

#[test]
fn renamed_arguments_are_the_same_call_and_moved_ones_another() {
    let report = |old: &str, new: &str| {
        let text = |signature: &str| format!("fn Client::f {signature}\n");
        changes(listed(&text(old)), listed(&text(new)))
    };
    let kind = |report: &ChangeReport| {
        report
            .changes
            .iter()
            .map(|c| (c.impact, c.compiles))
            .collect::<Vec<_>>()
    };
    let old = "feature=x (&self, id: &str, n: i64) -> () [GET /a/{id}/{n}]";
    // Placeholders renamed with their arguments: the same request.
    let renamed = report(
        old,
        "feature=x (&self, model_id: &str, n: i64) -> () [GET /a/{model_id}/{n}]",
    );
    assert_eq!(kind(&renamed), [(Impact::Additive, true)]);
    assert!(!renamed.is_breaking());
    // A reorder of names of the same types compiles and means something else.
    assert_eq!(
        kind(&report(
            "(&self, a: &str, b: &str) -> () [GET /x/{a}/{b}]",
            "(&self, b: &str, a: &str) -> () [GET /x/{b}/{a}]"
        )),
        [(Impact::Breaking, true)]
    );
    // `a` moved from the first position to the second, though `c` is new.
    assert_eq!(
        kind(&report(
            "(&self, a: &str, b: &str) -> () [GET /x/{a}/{b}]",
            "(&self, c: &str, a: &str) -> () [GET /x/{c}/{a}]"
        )),
        [(Impact::Breaking, true)]
    );
    // Another endpoint compiles; another type, output or arity does not.
    assert_eq!(
        kind(&report(
            old,
            "feature=x (&self, id: &str, n: i64) -> () [GET /b/{id}/{n}]"
        )),
        [(Impact::Breaking, true)]
    );
    for other in [
        "feature=x (&self, id: String, n: i64) -> () [GET /a/{id}/{n}]",
        "feature=x (&self, id: &str, n: i64) -> u8 [GET /a/{id}/{n}]",
        "feature=x (&self, id: &str) -> () [GET /a/{id}/{n}]",
    ] {
        assert_eq!(
            kind(&report(old, other)),
            [(Impact::Breaking, false)],
            "{other}"
        );
    }
}

#[test]
fn arguments_split_at_top_level_commas_only() {
    let (arguments, rest) = split_arguments(
        "feature=x (&self, m: BTreeMap<String, Vec<(u8, u8)>>, n: [u8; 2], f: impl Fn(u8, u8)) \
         -> Result<(), E> [GET /a]",
    );
    assert_eq!(
        arguments,
        [
            "&self",
            "m: BTreeMap<String, Vec<(u8, u8)>>",
            "n: [u8; 2]",
            "f: impl Fn(u8, u8)"
        ]
    );
    assert_eq!(rest, "feature=x () -> Result<(), E> [GET /a]");
    assert_eq!(
        split_arguments("(every generated client)").0,
        ["every generated client"]
    );
    assert_eq!(split_arguments("()").0, Vec::<String>::new());
    assert_eq!(split_arguments("Default").1, "Default");
    assert_eq!(split_arguments("(unclosed, x").1, "(unclosed, x");
}

#[test]
fn quoted_text_is_meaning_and_an_escaped_quote_stays_inside_it() {
    // `\"` inside quotes does not end them: only the quoted text differs.
    assert_eq!(noticed(r#""q\" y" z"#, r#""q\" w" z"#), Noticed::Meaning);
    // Outside quotes a backslash is text like any other.
    assert_eq!(noticed(r"x \y", r"x \z"), Noticed::Compiler);
    // Only a trailing `[…]` is an endpoint; an array type elsewhere is code.
    assert_eq!(
        noticed("() -> [u8; 2] a", "() -> [u8; 3] a"),
        Noticed::Compiler
    );
    assert_eq!(
        noticed("() -> u8 [GET /a]", "() -> u8 [GET /b]"),
        Noticed::Meaning
    );
}

#[test]
fn only_the_trailing_endpoint_is_blanked() {
    assert_eq!(
        blank_endpoint("(&self, id: &str) -> () [GET /a/{id}/b/{n}]"),
        "(&self, id: &str) -> () [GET /a/{}/b/{}]"
    );
    let no_endpoint = "(&self, a: [u8; {x}]) -> ()";
    assert_eq!(blank_endpoint(no_endpoint), no_endpoint);
}

#[test]
fn listing_paths_belong_to_the_items_the_probe_names() {
    for (path, item) in [
        ("models::Foo", "models::Foo"),
        ("models::Foo::bar", "models::Foo"),
        ("models::Foo::set_bar", "models::Foo"),
        ("operations::GetQuery::limit", "operations::GetQuery"),
        ("Client::get_x", "Client::get_x"),
        ("client::XOperation", "client::XOperation"),
        ("mock::FakeBaseten::on_get_x", "mock::FakeBaseten::on_get_x"),
        ("mock::FakeBaseten", "mock::FakeBaseten"),
        ("mock::Builder<Foo>::bar", "mock::Builder<Foo>"),
        ("mock::Builder<T>", "mock::Builder<T>"),
        ("primitives::Binary", "primitives::Binary"),
        ("Error", "Error"),
    ] {
        assert_eq!(item_of(path), item, "{path}");
    }
}

#[test]
fn renames_apply_to_whole_words_only() {
    let renames = BTreeMap::from([("A".to_owned(), "B".to_owned())]);
    assert_eq!(
        apply_renames("Vec<A>, AB, A_, models::A", &renames),
        "Vec<B>, AB, A_, models::B"
    );
}

#[test]
fn a_removed_or_added_item_is_one_change_shown_by_its_own_line() {
    let old = "struct models::Gone Default\nfield models::Gone::a String\n\
               fn models::Gone::new () -> Self\nimpl models::Kept rt::X\nstruct models::Kept\n";
    let new = "impl models::Kept rt::X\nstruct models::Kept\nfield models::Came::a String\n\
               enum models::Came open\n";
    let report = changes(listed(old), listed(new));
    assert_eq!(
        seen(&report),
        [
            (
                Impact::Breaking,
                "removed: struct models::Gone Default",
                false,
                false
            ),
            (
                Impact::Additive,
                "added: enum models::Came open",
                true,
                false
            ),
        ]
    );
    let bare = listing::parse("struct models::B\n");
    assert_eq!(head("models::B", &bare), "struct models::B");
    let gated = listing::parse("struct models::B feature=a|b\n");
    assert_eq!(head("models::B", &gated), "struct models::B feature=a|b");
    let only_impl = listing::parse("impl models::I rt::X\n");
    assert_eq!(head("models::I", &only_impl), "models::I (1 lines)");
    let setters = listing::parse(
        "fn mock::Builder<A>::a (self) -> Self\nfn mock::Builder<A>::b (self) -> Self\n",
    );
    assert_eq!(
        head("mock::Builder<A>", &setters),
        "mock::Builder<A> (2 lines)"
    );
}

#[test]
fn a_side_without_an_ir_is_a_note_of_the_report() {
    let report = changes(listed("struct models::A\n"), listed("struct models::A\n"));
    assert_eq!(report.notes.len(), 2, "{report}");
    let text = report.to_string();
    assert!(
        text.starts_with("note: no IR for the old side (none in this test)"),
        "{text}"
    );
    assert!(
        text.ends_with("no changes to the generated API\n"),
        "{text}"
    );
}

fn api(document: &str, config: &str) -> Api {
    crate::build_ir(&crate::Input {
        spec_path: "t.yaml",
        spec_text: document,
        config_text: Some(config),
    })
    .unwrap_or_else(|error| panic!("{error}"))
    .0
}

const THINGS: &str = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /v1/things:\n    \
                      get:\n      responses:\n        '200': {description: ok, content: \
                      {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}\n\
                      components:\n  schemas:\n    Thing: {type: object, properties: {a: {type: \
                      string}}}\n";

#[test]
fn an_operation_moved_to_another_area_breaks_its_items_in_fewer_builds() {
    let old = api(THINGS, "");
    let new = api(THINGS, "areas: {stuff: ['GET /v1/things']}");
    let report = api_changes(&old, &new).unwrap_or_else(|error| panic!("{error}"));
    let breaking: Vec<(&str, &str)> = report
        .changes
        .iter()
        .filter(|c| c.impact == Impact::Breaking)
        .map(|c| (c.item.as_str(), c.description.as_str()))
        .collect();
    assert_eq!(
        breaking,
        [
            (
                "Client::get_things",
                "fn Client::get_things: compiled with feature stuff (was feature things)"
            ),
            (
                "mock::FakeT::on_get_things",
                "fn mock::FakeT::on_get_things: compiled with feature stuff (was feature \
                 things)"
            ),
            (
                "models::Thing",
                "struct models::Thing: compiled with feature stuff (was feature things)"
            ),
        ]
    );
    assert!(
        report
            .changes
            .iter()
            .all(|c| c.impact == Impact::Additive || c.only_with_fewer_features)
    );
    assert!(report.notes.is_empty());
    let same = api_changes(&old, &old).unwrap_or_else(|error| panic!("{error}"));
    assert!(same.changes.is_empty(), "{same}");
}

#[test]
fn a_type_renamed_is_one_change_with_the_ir_and_two_without() {
    let renamed = THINGS
        .replace("schemas/Thing'", "schemas/Item'")
        .replace("    Thing:", "    Item:");
    let (old, new) = (api(THINGS, ""), api(&renamed, ""));
    let report = api_changes(&old, &new).unwrap_or_else(|error| panic!("{error}"));
    let lines: Vec<(&str, &str)> = report
        .changes
        .iter()
        .filter(|c| c.impact == Impact::Breaking && !c.item.starts_with("mock::"))
        .map(|c| (c.item.as_str(), c.description.as_str()))
        .collect();
    assert_eq!(
        lines,
        [
            (
                "Client::get_things",
                "fn Client::get_things: names renamed types: `(&self) -> Result<Thing, \
                 Error> [GET /v1/things]` is now `(&self) -> Result<Item, Error> [GET \
                 /v1/things]`"
            ),
            (
                "models::Thing",
                "models::Thing renamed to models::Item (identical structure)"
            ),
        ],
        "{report}"
    );
    assert!(
        !report.changes.iter().any(|c| c.item == "models::Item"),
        "{report}"
    );
    // Without the IR, the same listings read as one type removed and another added.
    let (old_listing, new_listing) = (
        listing_of(&old, "old").unwrap_or_else(|error| panic!("{error}")),
        listing_of(&new, "new").unwrap_or_else(|error| panic!("{error}")),
    );
    let bare = changes(listed(&old_listing), listed(&new_listing));
    let items: Vec<(Impact, &str)> = bare
        .changes
        .iter()
        .filter(|c| c.item.starts_with("models::"))
        .map(|c| (c.impact, c.item.as_str()))
        .collect();
    assert_eq!(
        items,
        [
            (Impact::Breaking, "models::Thing"),
            (Impact::Additive, "models::Item")
        ]
    );
}

/// A renamed type's test builder goes when the new type has none (a request body's type gets
/// none): that is a removal, not a rename to something that does not exist.
#[test]
fn a_rename_reaches_only_items_the_new_crate_has() {
    let request_only = THINGS
        .replace(
            "    get:\n      responses:\n        '200': {description: ok, content: \
         {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}\n",
            "    post:\n      requestBody: {required: true, content: {application/json: {schema: \
         {$ref: '#/components/schemas/Item'}}}}\n      responses: {'204': {description: ok}}\n",
        )
        .replace("    Thing:", "    Item:");
    assert_ne!(request_only, THINGS);
    let (old, new) = (api(THINGS, ""), api(&request_only, ""));
    let report = api_changes(&old, &new).unwrap_or_else(|error| panic!("{error}"));
    let about = |item: &str| -> Vec<&str> {
        report
            .changes
            .iter()
            .filter(|c| c.item == item)
            .map(|c| c.description.as_str())
            .collect()
    };
    assert_eq!(
        about("models::Thing"),
        ["models::Thing renamed to models::Item (identical structure)"],
        "{report}"
    );
    let builder = about("mock::Builder<Thing>");
    assert_eq!(builder.len(), 1, "{report}");
    assert!(
        builder[0].starts_with("removed: mock::Builder<Thing>"),
        "{report}"
    );
}

#[test]
fn an_operation_left_out_says_why() {
    let with_body = |media: &str| {
        THINGS.replace(
            "  /v1/things:\n    get:\n",
            &format!(
                "  /v1/things:\n    post:\n      requestBody: {{required: true, content: {{{media}: {{schema: \
                 {{type: string}}}}}}}}\n      responses: {{'204': {{description: ok}}}}\n    \
                 get:\n"
            ),
        )
    };
    let (old, new) = (
        api(&with_body("application/octet-stream"), ""),
        api(&with_body("multipart/form-data"), ""),
    );
    assert!(!new.skipped.is_empty(), "the multipart body is left out");
    let report = api_changes(&old, &new).unwrap_or_else(|error| panic!("{error}"));
    let left_out: Vec<&str> = report
        .changes
        .iter()
        .filter(|c| c.item == "Client::post_things")
        .map(|c| c.description.as_str())
        .collect();
    assert_eq!(left_out.len(), 1, "{report}");
    assert!(
        left_out[0].starts_with("operation post_things left out (POST /v1/things): "),
        "{report}"
    );
    assert!(left_out[0].contains(" at #/paths/"), "{report}");
}

/// Renaming only a path placeholder (`/v1/models/{id}` → `{model_id}`) keeps every name the
/// lock gave (the lock's keys follow the document's spelling) and the report does not call it
/// breaking: the request on the wire is the same.
#[test]
fn a_renamed_placeholder_keeps_the_names_and_breaks_nothing() {
    let document = |placeholder: &str| {
        format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths:\n  \
             /v1/models/{{{placeholder}}}:\n    get:\n      parameters:\n      - {{name: \
             {placeholder}, in: path, required: true, schema: {{type: string}}}}\n      - {{name: \
             verbose, in: query, schema: {{type: boolean}}}}\n      responses: {{'200': \
             {{description: ok, content: {{application/json: {{schema: {{type: object, \
             properties: {{a: {{type: string}}}}}}}}}}}}}}\n  /v1/models/{{{placeholder}}}/x:\n    \
             get:\n      responses: {{'200': {{description: ok}}}}\n  /v1/models/{{a}}/{{b}}:\n    \
             get:\n      responses: {{'200': {{description: ok}}}}\n"
        )
    };
    let generate = |text: &str, lock: NameLock| {
        let config = crate::Config {
            names_lock: lock,
            ..crate::Config::default()
        };
        let input = crate::Input {
            spec_path: "t.yaml",
            spec_text: text,
            config_text: None,
        };
        let output = crate::generate_with(&input, &config).unwrap_or_else(|e| panic!("{e}"));
        let (api, _) = crate::build_ir_with(&input, &config).unwrap_or_else(|e| panic!("{e}"));
        (output, api)
    };
    let (old, old_api) = generate(&document("id"), NameLock::default());
    let (new, new_api) = generate(&document("model_id"), old.names.clone());
    let method_names =
        |api: &Api| -> Vec<String> { api.operations.iter().map(|op| op.name.clone()).collect() };
    // `/v1/models/{a}/{b}` makes both `get_model` collide, so each took its placeholders:
    // the name keeps `_by_id` though the document now says `{model_id}`.
    assert_eq!(method_names(&old_api), method_names(&new_api));
    assert!(
        method_names(&new_api).contains(&"get_model_by_id".to_owned()),
        "{:?}",
        method_names(&new_api)
    );
    // The same names under the document's new spelling; nothing kept under the old one.
    let respell = |key: &String| key.replace("{id}", "{model_id}");
    let rekeyed = |map: &BTreeMap<String, String>| -> BTreeMap<String, String> {
        map.iter().map(|(k, v)| (respell(k), v.clone())).collect()
    };
    assert_eq!(new.names.operations, rekeyed(&old.names.operations));
    assert_eq!(new.names.types, rekeyed(&old.names.types));
    assert_eq!(new.names.fake_methods, rekeyed(&old.names.fake_methods));
    assert_eq!(new.names.areas, rekeyed(&old.names.areas));
    assert!(
        new.names
            .operations
            .keys()
            .any(|k| k.contains("{model_id}"))
    );
    let side = |listing, api| Side {
        listing,
        ir: Ok(api),
    };
    let report = changes(
        side(&old.api_snapshot, &old_api),
        side(&new.api_snapshot, &new_api),
    );
    assert!(!report.is_breaking(), "{report}");
    assert!(
        !report.changes.is_empty(),
        "the endpoints' spelling changed"
    );
    assert_eq!(
        Ok(report),
        api_changes(&old_api, &new_api),
        "the listings generate renders are the ones the report renders"
    );
    // A real change of endpoint still breaks.
    let moved = document("id").replace("/v1/models/{id}:", "/v1/model/{id}:");
    let (moved, moved_api) = generate(&moved, old.names.clone());
    let report = changes(
        side(&old.api_snapshot, &old_api),
        side(&moved.api_snapshot, &moved_api),
    );
    assert!(report.is_breaking(), "{report}");
}

#[test]
fn the_report_reads_as_text() {
    let report = changes(
        listed("fn Client::a (&self) -> () [GET /a]\nfn Client::b (&self) -> ()\n"),
        listed("fn Client::a (&self) -> () [GET /b]\nfn Client::c (&self) -> ()\n"),
    );
    let text = report.to_string();
    let body: Vec<&str> = text.lines().filter(|l| !l.starts_with("note:")).collect();
    assert_eq!(
        body,
        [
            "3 changes to the generated API (2 breaking, 1 additive)",
            "  breaking  fn Client::a: `(&self) -> () [GET /a]` is now `(&self) -> () [GET /b]` \
             (still compiles: the meaning changed)  [Client::a]",
            "  breaking  removed: fn Client::b (&self) -> ()  [Client::b]",
            "  additive  added: fn Client::c (&self) -> ()  [Client::c]",
        ]
    );
    assert_eq!(
        report.items_failing_to_compile(),
        BTreeSet::from(["Client::b"])
    );
}

/// Shared types (`ir::shared`): a twin that stops being identical becomes a type of its own
/// (breaking: it was the same type as its twin), and the one it named loses that twin's
/// features; a newcomer twin changes neither the type named nor any gate, by the lock.
#[test]
fn a_twin_that_differs_breaks_and_a_newcomer_twin_is_only_added() {
    let document = |first: &str, second: &str, newcomer: bool| {
        let operation = |path: &str, id: &str, values: &str| {
            format!(
                "  {path}:\n    get:\n      operationId: {id}\n      parameters:\n        - {{name: \
                 fields, in: query, schema: {{type: array, items: {{type: string, enum: \
                 {values}}}}}}}\n      responses:\n        '204': {{description: ok}}\n"
            )
        };
        let mut text = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n".to_owned();
        if newcomer {
            text.push_str(&operation("/0", "get0", first));
        }
        text.push_str(&operation("/a", "getA", first));
        text.push_str(&operation("/b", "getB", second));
        text
    };
    let build = |text: &str, lock: NameLock| {
        let config = crate::Config {
            names_lock: lock,
            ..crate::Config::default()
        };
        let input = crate::Input {
            spec_path: "t.yaml",
            spec_text: text,
            config_text: None,
        };
        crate::build_ir_with(&input, &config)
            .unwrap_or_else(|e| panic!("{e}"))
            .0
    };
    let old = build(
        &document("[name, sku]", "[name, sku]", false),
        NameLock::default(),
    );
    let lines = |new: &Api| -> Vec<(Impact, String)> {
        api_changes(&old, new)
            .unwrap_or_else(|error| panic!("{error}"))
            .changes
            .iter()
            .map(|c| (c.impact, c.description.clone()))
            .collect()
    };
    let split = build(
        &document("[name, sku]", "[name, sku, id]", false),
        old.names.clone(),
    );
    let breaking: Vec<(Impact, String)> = lines(&split)
        .into_iter()
        .filter(|(impact, _)| *impact == Impact::Breaking)
        .collect();
    assert_eq!(
        breaking,
        [
            (
                Impact::Breaking,
                "enum models::GetAFieldsItem: compiled with feature a (was feature a or b)"
                    .to_owned()
            ),
            (
                Impact::Breaking,
                "removed: type models::GetBFieldsItem feature=b = GetAFieldsItem".to_owned()
            ),
        ]
    );
    let newcomer = build(
        &document("[name, sku]", "[name, sku]", true),
        old.names.clone(),
    );
    let report = api_changes(&old, &newcomer).unwrap_or_else(|error| panic!("{error}"));
    assert!(!report.is_breaking(), "{:?}", lines(&newcomer));
    assert!(
        lines(&newcomer)
            .iter()
            .any(|(impact, description)| *impact == Impact::Additive
                && description.starts_with("added: ")
                && description.contains("models::Get0FieldsItem")),
        "{:?}",
        lines(&newcomer)
    );
}

/// `areas` areas each reaching `Hub`, which holds a date (`needs: jiff`) or a plain string.
fn hub_document(areas: usize, dated: bool) -> String {
    let at = if dated {
        "{type: string, format: date-time}"
    } else {
        "{type: string}"
    };
    let mut text = String::from("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n");
    for area in 0..areas {
        text.push_str(&format!(
            "  /a{area}:\n    get:\n      tags: [a{area}]\n      responses:\n        '200': \
             {{description: ok, content: {{application/json: {{schema: {{$ref: \
             '#/components/schemas/Hub'}}}}}}}}\n"
        ));
    }
    text.push_str(&format!(
        "components:\n  schemas:\n    Hub: {{type: object, properties: {{at: {at}}}}}\n"
    ));
    text
}

fn hub_gate_changes(report: &ChangeReport) -> Vec<(Impact, &str, bool)> {
    report
        .changes
        .iter()
        .filter(|c| c.item == "models::Hub")
        .map(|c| (c.impact, c.description.as_str(), c.only_with_fewer_features))
        .collect()
}

#[test]
fn a_type_turning_widely_shared_is_in_every_build_it_was_in() {
    let limit = crate::surface::features::MAX_GATE_AREAS;
    let listed_areas = (0..limit)
        .map(|area| format!("a{area}"))
        .collect::<Vec<_>>()
        .join(" or ");
    let config = "";
    let few = api(&hub_document(limit, true), config);
    let many = api(&hub_document(limit + 1, true), config);
    // Every area reaching `Hub` turns `jiff` on: a build that had it still has it.
    let report = api_changes(&few, &many).unwrap_or_else(|error| panic!("{error}"));
    let widened = format!(
        "struct models::Hub: compiled with feature jiff (was feature {listed_areas}), which \
         every build that had it turns on"
    );
    assert_eq!(
        hub_gate_changes(&report),
        [(Impact::Additive, widened.as_str(), false)]
    );
    // Back: a build with `jiff` alone had it and has it no more.
    let report = api_changes(&many, &few).unwrap_or_else(|error| panic!("{error}"));
    let narrowed =
        format!("struct models::Hub: compiled with feature {listed_areas} (was feature jiff)");
    assert_eq!(
        hub_gate_changes(&report),
        [(Impact::Breaking, narrowed.as_str(), true)]
    );
    // A shared type that needs no value type is in every build.
    let few = api(&hub_document(limit, false), config);
    let many = api(&hub_document(limit + 1, false), config);
    let report = api_changes(&few, &many).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        hub_gate_changes(&report),
        [(
            Impact::Additive,
            "struct models::Hub: now in every build",
            false
        )]
    );
}

#[test]
fn a_gate_is_widened_only_when_every_build_that_had_it_keeps_it() {
    use super::signature::{Enables, GateChange, gate_change};
    use crate::surface::features::{FeatureGate, Needs};
    let enables: Enables = [
        ("a", &["jiff"][..]),
        ("b", &["jiff", "decimal"][..]),
        ("c", &[][..]),
        ("full", &["a", "b", "c"][..]),
    ]
    .into_iter()
    .map(|(feature, on)| {
        (
            feature.to_owned(),
            on.iter().map(|on| (*on).to_owned()).collect(),
        )
    })
    .collect();
    let any =
        |features: &[&str]| FeatureGate::Areas(features.iter().map(|f| (*f).to_owned()).collect());
    let all = |features: &[&str]| {
        FeatureGate::WidelyShared(Needs {
            jiff: features.contains(&"jiff"),
            decimal: features.contains(&"decimal"),
        })
    };
    let widened = |old: FeatureGate, new: FeatureGate| {
        matches!(
            gate_change(Some(&old), Some(&new), &enables),
            Some(GateChange::Widened(_))
        )
    };
    assert!(widened(any(&["a", "b"]), all(&["jiff"])));
    assert!(!widened(any(&["a", "c"]), all(&["jiff"])));
    assert!(widened(any(&["b"]), all(&["jiff", "decimal"])));
    assert!(!widened(any(&["a", "b"]), all(&["jiff", "decimal"])));
    // What `full` turns on, it turns on through the areas too.
    assert!(widened(any(&["full"]), all(&["jiff", "decimal"])));
    assert!(widened(all(&["jiff", "decimal"]), any(&["decimal", "x"])));
    assert!(!widened(all(&["jiff", "decimal"]), any(&["a"])));
    assert!(!widened(all(&["jiff"]), all(&["jiff", "decimal"])));
    assert_eq!(
        gate_change(None, Some(&all(&["jiff", "decimal"])), &enables),
        Some(GateChange::Narrowed(
            "every build".to_owned(),
            "features decimal and jiff".to_owned()
        ))
    );
    assert_eq!(
        gate_change(None, Some(&all(&["jiff"])), &enables),
        Some(GateChange::Narrowed(
            "every build".to_owned(),
            "feature jiff".to_owned()
        ))
    );
    assert_eq!(
        gate_change(Some(&any(&["a"])), Some(&any(&["a"])), &enables),
        None
    );
}

#[test]
fn an_all_of_gate_is_read_from_its_listing() {
    use crate::surface::features::{FeatureGate, Needs};
    use crate::surface::listing::{Line, ListedSignature, render};
    let listed = listing::parse("struct models::A feature=jiff&decimal Default; serde: x\n");
    let parts = ListedSignature::of(&listed["struct models::A"]);
    assert_eq!(
        parts.gate,
        Some(&FeatureGate::WidelyShared(Needs {
            jiff: true,
            decimal: true
        }))
    );
    assert_eq!(parts.core, "Default; serde: x");
    let listed = listing::parse("struct models::A feature=a|b Default\n");
    let parts = ListedSignature::of(&listed["struct models::A"]);
    assert_eq!(
        parts.gate,
        Some(&FeatureGate::Areas(
            ["a", "b"].into_iter().map(str::to_owned).collect()
        ))
    );
    // What the surface renders, the listing reads back: gate and signature apart.
    for (gate, signature) in [
        (
            FeatureGate::Areas(["x", "y"].into_iter().map(str::to_owned).collect()),
            "Default",
        ),
        (
            FeatureGate::Areas(["x"].into_iter().map(str::to_owned).collect()),
            "",
        ),
        (FeatureGate::Areas(Default::default()), "= u8"),
        (
            FeatureGate::WidelyShared(Needs {
                jiff: true,
                decimal: true,
            }),
            "Default",
        ),
    ] {
        let line = Line::gated(
            "struct",
            "models::A".to_owned(),
            &gate,
            signature.to_owned(),
        );
        let listed = listing::parse(&render(&[line], "spec.yaml"));
        let read = &listed["struct models::A"];
        assert_eq!(read.gate.as_ref(), Some(&gate));
        assert_eq!(read.signature, signature);
    }
    // All of one feature is any one of one: the same builds.
    let one = FeatureGate::WidelyShared(Needs {
        jiff: false,
        decimal: true,
    });
    let line = Line::gated("struct", "models::A".to_owned(), &one, String::new());
    let listed = listing::parse(&render(&[line], "spec.yaml"));
    let read = listed["struct models::A"].gate.clone();
    assert_eq!(
        read.as_ref().map(FeatureGate::features),
        Some(vec!["decimal"])
    );
    // A gate of no features is every build: no gate written, none read.
    let always = FeatureGate::WidelyShared(Needs::default());
    let line = Line::gated(
        "struct",
        "models::A".to_owned(),
        &always,
        "Default".to_owned(),
    );
    assert_eq!(
        render(&[line], "s"),
        render(
            &[Line::new(
                "struct",
                "models::A".to_owned(),
                "Default".to_owned()
            )],
            "s"
        )
    );
    let listed = listing::parse("struct models::A Default\n");
    assert_eq!(listed["struct models::A"].gate, None);
}

/// A package renamed by `--name` is breaking, sorted among the report's other breaking
/// changes, and shown as such; the same name twice adds nothing.
#[test]
fn a_package_rename_is_breaking() {
    let old = "struct models::A\nstruct models::B\n";
    let new = "struct models::A\nstruct models::C\n";
    let report = changes(listed(old), listed(new)).with_package_rename("pay-ments", "billing");
    assert_eq!(
        seen(&report),
        [
            (
                Impact::Breaking,
                "package renamed from `pay-ments` to `billing`: dependents' manifests and their \
                 `use pay_ments::` paths must follow",
                false,
                false
            ),
            (Impact::Breaking, "removed: struct models::B", false, false),
            (Impact::Additive, "added: struct models::C", true, false),
        ]
    );
    assert_eq!(report.changes[0].item, PACKAGE_ITEM);
    assert!(report.is_breaking());
    assert!(report.items_failing_to_compile().contains(PACKAGE_ITEM));
    let text = report.to_string();
    assert!(
        text.contains("3 changes to the generated API (2 breaking, 1 additive)"),
        "{text}"
    );
    assert!(
        text.contains("  breaking  package renamed from `pay-ments` to `billing`"),
        "{text}"
    );
    // Nothing else changed: the rename alone is breaking.
    let alone = changes(listed(old), listed(old)).with_package_rename("a", "b");
    assert!(alone.is_breaking());
    assert_eq!(alone.changes.len(), 1);
    let unchanged = changes(listed(old), listed(old)).with_package_rename("a", "a");
    assert!(unchanged.changes.is_empty(), "{unchanged:?}");
    assert!(
        unchanged
            .to_string()
            .ends_with("\nno changes to the generated API\n")
    );
}

/// A runtime constant the crate re-exported that becomes the crate's own `&str` const at the
/// same path and gate still compiles wherever it was named: additive. Anything else is not.
#[test]
fn a_reexported_runtime_constant_made_the_crates_own_is_additive() {
    let header = "# header\n";
    let old = format!("{header}reexport client::API_KEY_ENV feature=client rt::API_KEY_ENV\n");
    let own = format!("{header}const client::API_KEY_ENV feature=client &str = \"ACME_API_KEY\"\n");
    let report = changes(listed(&old), listed(&own));
    assert_eq!(
        seen(&report),
        [(
            Impact::Additive,
            "const client::API_KEY_ENV feature=client &str = \"ACME_API_KEY\": now defined by \
             the crate (was the runtime's `feature=client rt::API_KEY_ENV`, re-exported); the \
             same path and type",
            true,
            false
        )]
    );
    for new in [
        // Another gate, another type, a re-export of the crate's own, or another path.
        format!("{header}const client::API_KEY_ENV feature=mock &str = \"ACME_API_KEY\"\n"),
        format!("{header}const client::API_KEY_ENV feature=client u8 = 1\n"),
        format!("{header}fn client::API_KEY_ENV feature=client &str = \"x\"\n"),
    ] {
        let report = changes(listed(&old), listed(&new));
        assert!(
            report.changes.iter().any(|c| c.impact == Impact::Breaking),
            "{new}: {:?}",
            seen(&report)
        );
    }
    // Every build had it and has it: the same gate, none.
    let ungated = changes(
        listed(&format!("{header}reexport X rt::X\n")),
        listed(&format!("{header}const X &str = \"x\"\n")),
    );
    assert!(!ungated.is_breaking(), "{:?}", seen(&ungated));
    let crate_own = format!("{header}reexport client::API_KEY_ENV feature=client client::X\n");
    let report = changes(listed(&crate_own), listed(&own));
    assert!(
        report.changes.iter().any(|c| c.impact == Impact::Breaking),
        "{:?}",
        seen(&report)
    );
}

/// A ring of 8 schemas joined by optional fields holds `Box`es; adding an optional nullable
/// field back into the ring (its walk past the small cycle's limit) keeps every existing
/// `Box` through the names lock, so the report finds nothing broken; without the lock every
/// one would turn into `rt::Indirect`.
#[test]
fn a_field_added_to_a_ring_keeps_its_boxes_and_breaks_nothing() {
    let document = |extra: &str| {
        let mut schemas = String::new();
        for i in 0..8 {
            let more = if i == 0 { extra } else { "" };
            schemas.push_str(&format!(
                "    N{i}: {{type: object, properties: {{next: {{$ref: '#/components/schemas/N{}'}}{more}}}}}\n",
                (i + 1) % 8
            ));
        }
        format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths:\n  /n:\n    get:\n      \
             responses: {{'200': {{description: ok, content: {{application/json: {{schema: \
             {{$ref: '#/components/schemas/N0'}}}}}}}}}}\ncomponents:\n  schemas:\n{schemas}"
        )
    };
    let generate = |text: &str, lock: NameLock| {
        let config = crate::Config {
            names_lock: lock,
            ..crate::Config::default()
        };
        let input = crate::Input {
            spec_path: "t.yaml",
            spec_text: text,
            config_text: None,
        };
        let output = crate::generate_with(&input, &config).unwrap_or_else(|e| panic!("{e}"));
        let (api, _) = crate::build_ir_with(&input, &config).unwrap_or_else(|e| panic!("{e}"));
        (output, api)
    };
    let next_held = |api: &Api| -> Vec<crate::ir::Held> {
        (0..8)
            .map(|i| match api.types.get(&format!("N{i}")) {
                Some(crate::ir::TypeDef::Struct(def)) => def.fields[0].held,
                other => panic!("N{i}: {other:?}"),
            })
            .collect()
    };
    let back = ", back: {anyOf: [{$ref: '#/components/schemas/N3'}, {type: 'null'}]}";
    let (old, old_api) = generate(&document(""), NameLock::default());
    assert_eq!(next_held(&old_api), [crate::ir::Held::Boxed; 8]);
    assert!(old.names.held.contains_key("N0"), "{:?}", old.names.held);
    let side = |listing, api| Side {
        listing,
        ir: Ok(api),
    };
    let (new, new_api) = generate(&document(back), old.names.clone());
    assert_eq!(next_held(&new_api), [crate::ir::Held::Boxed; 8]);
    let report = changes(
        side(&old.api_snapshot, &old_api),
        side(&new.api_snapshot, &new_api),
    );
    assert!(!report.is_breaking(), "{report}");
    // Held afresh, the same document breaks every `next`.
    let (fresh, fresh_api) = generate(&document(back), NameLock::default());
    assert_eq!(next_held(&fresh_api), [crate::ir::Held::Indirect; 8]);
    let report = changes(
        side(&old.api_snapshot, &old_api),
        side(&fresh.api_snapshot, &fresh_api),
    );
    assert!(report.is_breaking(), "{report}");
}
