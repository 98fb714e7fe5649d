//! The holding ceilings the names lock keeps (`ir::cycles`: a locked small cycle keeps its
//! `Box`es while its walk stays within 48, an edge the lock held in place stays so within 80),
//! compiled: documents just at and just past each, generated with a lock that holds their
//! edges, build with zero warnings, and past each ceiling the edges switch as the rule says.

use baseten_codegen::lock::Holding;
use baseten_codegen::{Config, Input, NameLock, Output};

use crate::hostile::check_batch;

const CONFIG: &str = "runtime_path: baseten_api::runtime\n";

/// A document whose one operation answers `root`, over the `schemas` lines given.
fn document(root: &str, schemas: &str) -> String {
    format!(
        "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths:\n  /root:\n    get:\n      \
         operationId: getRoot\n      responses: {{'200': {{description: ok, content: \
         {{application/json: {{schema: {{$ref: '#/components/schemas/{root}'}}}}}}}}}}\n\
         components:\n  schemas:\n{schemas}"
    )
}

fn generate(spec: &str, lock: &NameLock) -> Output {
    let input = Input {
        spec_path: "ceilings.yaml",
        spec_text: spec,
        config_text: None,
    };
    let mut config = Config::parse(CONFIG).unwrap();
    config.names_lock = lock.clone();
    baseten_codegen::generate_with(&input, &config).unwrap_or_else(|error| panic!("{error}"))
}

/// A ring of `size` schemas, each with an optional field `next` of the next one: 3 levels of
/// the walk each (`Option`, `Box`, the type); `nullable` makes the first one's field nullable
/// too, one level more.
fn ring(size: usize, nullable: bool) -> String {
    let mut schemas = String::new();
    for i in 0..size {
        let next = format!("{{$ref: '#/components/schemas/Ring{}'}}", (i + 1) % size);
        let next = match nullable && i == 0 {
            true => format!("{{anyOf: [{next}, {{type: 'null'}}]}}"),
            false => next,
        };
        schemas.push_str(&format!(
            "    Ring{i}: {{type: object, properties: {{label: {{type: string}}, next: {next}}}}}\n"
        ));
    }
    document("Ring0", &schemas)
}

/// A lock that holds every `next` of a ring of `size` with a `Box`: a ring the lock kept small.
fn boxed_ring_lock(size: usize) -> NameLock {
    let mut lock = NameLock::default();
    for i in 0..size {
        lock.held
            .entry(format!("Ring{i}"))
            .or_default()
            .insert("next".to_owned(), Holding::Box);
    }
    lock
}

/// A chain of 64 schemas, each with a required field `next` of the next one (one level each)
/// and an optional `label` (one level, the `Option`), so the first edge's walk is 64: the most
/// a fresh pass holds in place. The last one holds, when `below` is not zero, a required field
/// `tail` of a chain of `below` more, each one level deeper.
fn chain(below: usize) -> String {
    let link = |i: usize| format!("{{$ref: '#/components/schemas/Link{i:03}'}}");
    let tail = |i: usize| format!("{{$ref: '#/components/schemas/Tail{i:03}'}}");
    let mut schemas = String::new();
    for i in 0..64 {
        let field = match (i < 63, below) {
            (true, _) => Some(("next", link(i + 1))),
            (false, 0) => None,
            (false, _) => Some(("tail", tail(0))),
        };
        schemas.push_str(&object(&format!("Link{i:03}"), field));
    }
    for i in 0..below {
        let field = (i + 1 < below).then(|| ("next", tail(i + 1)));
        schemas.push_str(&object(&format!("Tail{i:03}"), field));
    }
    document("Link000", &schemas)
}

/// A schema line: an object with a string `label` and, if given, one required field.
fn object(name: &str, field: Option<(&str, String)>) -> String {
    match field {
        Some((key, schema)) => format!(
            "    {name}: {{type: object, required: [{key}], properties: {{label: {{type: string}}, \
             {key}: {schema}}}}}\n"
        ),
        None => format!("    {name}: {{type: object, properties: {{label: {{type: string}}}}}}\n"),
    }
}

/// The emitted declaration of `field` in the struct `owner` of `models.rs`.
fn field_type(output: &Output, owner: &str, field: &str) -> String {
    let models = &output.files["models.rs"];
    let start = models
        .find(&format!("pub struct {owner} {{"))
        .unwrap_or_else(|| panic!("no struct {owner}"));
    let body = &models[start..];
    let body = &body[..body.find("\n}").unwrap_or(body.len())];
    let line = body
        .lines()
        .find(|line| line.trim_start().starts_with(&format!("pub {field}:")))
        .unwrap_or_else(|| panic!("no field {field} in {owner}:\n{body}"));
    line.trim().to_owned()
}

/// A ring the lock holds with `Box`es keeps them at a walk of 48 (16 optional fields) and is
/// held afresh, every edge an `Indirect`, at 49 (one of them nullable too); the chain the lock
/// holds in place keeps its first edge in place at a walk of 80 (16 more below its end) and
/// cuts it at 81 (17). All four crates compile with zero warnings.
#[test]
#[ignore = "slow: compiles rings of 16 and a chain of 64 at and past the lock's ceilings"]
fn documents_at_and_past_the_locked_ceilings_compile() {
    let at_cycle = generate(&ring(16, false), &boxed_ring_lock(16));
    let past_cycle = generate(&ring(16, true), &boxed_ring_lock(16));
    for owner in ["Ring0", "Ring7", "Ring15"] {
        let at = field_type(&at_cycle, owner, "next");
        assert!(at.contains("Option<Box<Ring"), "at 48, {owner}: {at}");
        let past = field_type(&past_cycle, owner, "next");
        assert!(past.contains("Indirect<Ring"), "at 49, {owner}: {past}");
    }
    let fresh = generate(&chain(0), &NameLock::default());
    assert!(
        fresh.names.held.get("Link000").and_then(|h| h.get("next")) == Some(&Holding::Inline),
        "the fresh chain's first edge is not in the lock in place: {:?}",
        fresh.names.held.get("Link000")
    );
    let at_drop = generate(&chain(16), &fresh.names);
    let past_drop = generate(&chain(17), &fresh.names);
    let at = field_type(&at_drop, "Link000", "next");
    assert_eq!(at, "pub next: Link001,", "at 80");
    let past = field_type(&past_drop, "Link000", "next");
    assert!(past.contains("Indirect<Link001>"), "at 81: {past}");
    check_batch(&[at_cycle, past_cycle, at_drop, past_drop]);
}
