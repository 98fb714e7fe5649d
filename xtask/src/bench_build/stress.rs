//! The stress documents of `bench-build --only stress`: deterministic, valid OpenAPI 3.1
//! documents of at most a byte budget (5 MB in the bench), each pushing one shape to its limit
//! — the shapes a document can take that make generated code grow faster than the document.

use baseten_codegen::MAX_ENUM_VALUES;
use serde_json::{Map, Value, json};

/// The budget of the bench's documents, bytes: the "5 MB or less".
pub const FULL_BUDGET: usize = 5_000_000;

/// One shape of document: a name (its file stem), what it pushes, and how to build it with
/// `count` units of that shape (the synthesizer picks the largest count within the budget).
pub struct Shape {
    pub name: &'static str,
    pub pushes: &'static str,
    build: fn(usize) -> Value,
}

/// Every shape, in the order the bench runs them.
pub const SHAPES: [Shape; 13] = [
    Shape {
        name: "operations",
        pushes: "thousands of small operations over 20 tags, half with inline responses",
        build: operations,
    },
    Shape {
        name: "wide-unions",
        pushes: "4 `oneOf` unions of thousands of inline members, every 8th a nested `anyOf`",
        build: wide_unions,
    },
    Shape {
        name: "union-chain",
        pushes: "each union a member of the next (`oneOf: [$ref previous, object]`)",
        build: union_chain,
    },
    Shape {
        name: "huge-enums",
        pushes: "string enums of as many values as the generator makes an enum of, and query parameters repeating one",
        build: huge_enums,
    },
    Shape {
        name: "enum-collisions",
        pushes: "enum values that all spell the same Rust name (`a-`, `a.`, `a/-`, …)",
        build: enum_collisions,
    },
    Shape {
        name: "deep-nesting",
        pushes: "inline objects nested as deep as the loader allows, under long property names",
        build: deep_nesting,
    },
    Shape {
        name: "many-areas",
        pushes: "thousands of tags (areas), 64 shared schemas each used by a different half of them",
        build: many_areas,
    },
    Shape {
        name: "hub-areas",
        pushes: "as many tags (areas) as schemas, every area reaching every schema through a hub",
        build: hub_areas,
    },
    Shape {
        name: "allof-chain",
        pushes: "each schema `allOf: [$ref previous, one more property]`",
        build: allof_chain,
    },
    Shape {
        name: "recursive",
        pushes: "one strongly connected component of thousands of schemas referring to each other",
        build: recursive,
    },
    Shape {
        name: "twin-chain",
        pushes: "each schema holding the next, with an optional nullable field, sent and answered: a chain of request/response twins",
        build: twin_chain,
    },
    Shape {
        name: "many-parameters",
        pushes: "operations with 300 parameters each, some by `$ref`, some path-level",
        build: many_parameters,
    },
    Shape {
        name: "long-names",
        pushes: "schema and property names of hundreds of characters, 3 KB descriptions, nested",
        build: long_names,
    },
];

/// A stress document: the shape's largest count whose document fits in `budget` bytes, as
/// compact JSON, with that count. `None` when not even one unit fits.
pub fn document(shape: &Shape, budget: usize) -> Option<(String, usize)> {
    let render = |count: usize| serde_json::to_string(&(shape.build)(count)).unwrap_or_default();
    let fits = |count: usize| {
        let text = render(count);
        (text.len() <= budget).then_some(text)
    };
    let mut best = (fits(1)?, 1);
    // Doubling, then bisection between the last count that fits and the first that does not.
    let mut high = 2;
    while let Some(text) = fits(high) {
        best = (text, high);
        high *= 2;
    }
    let mut low = best.1;
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        match fits(middle) {
            Some(text) => {
                best = (text, middle);
                low = middle;
            }
            None => high = middle,
        }
    }
    Some(best)
}

/// The envelope every document shares: `paths` and `components` as given.
fn envelope(title: &str, paths: Map<String, Value>, components: Map<String, Value>) -> Value {
    json!({
        "openapi": "3.1.0",
        "info": {"title": format!("stress {title}"), "version": "1"},
        "servers": [{"url": "https://stress.example/"}],
        "paths": paths,
        "components": components,
    })
}

fn schemas(schemas: Map<String, Value>) -> Map<String, Value> {
    let mut components = Map::new();
    components.insert("schemas".to_owned(), Value::Object(schemas));
    components
}

/// A `GET` answering 200 with `schema`, tagged.
fn get(operation_id: &str, tag: &str, schema: Value) -> Value {
    json!({"get": {
        "operationId": operation_id,
        "tags": [tag],
        "responses": {"200": {
            "description": "ok",
            "content": {"application/json": {"schema": schema}},
        }},
    }})
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

fn operations(count: usize) -> Value {
    let mut paths = Map::new();
    for i in 0..count {
        let response = if i % 2 == 0 {
            reference("Item")
        } else {
            json!({"type": "object", "required": ["id"], "properties": {
                "id": {"type": "string"},
                format!("count_{}", i % 7): {"type": "integer"},
            }})
        };
        let mut operation = get(&format!("getItem{i}"), &format!("tag{}", i % 20), response);
        operation["get"]["parameters"] = json!([
            {"name": "item_id", "in": "path", "required": true, "schema": {"type": "string"}},
            {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1}},
        ]);
        paths.insert(format!("/v1/items{i}/{{item_id}}"), operation);
    }
    let item = json!({"type": "object", "required": ["id"], "properties": {
        "id": {"type": "string"}, "name": {"type": "string"}, "size": {"type": "integer"},
    }});
    envelope(
        "operations",
        paths,
        schemas(Map::from_iter([("Item".to_owned(), item)])),
    )
}

/// A small object whose property names are its own (so no two members are alike).
fn member(prefix: &str, i: usize) -> Value {
    json!({"type": "object", "required": [format!("{prefix}_kind_{i}")], "properties": {
        format!("{prefix}_kind_{i}"): {"type": "string"},
        format!("{prefix}_value_{i}"): {"type": "integer"},
    }})
}

fn wide_unions(count: usize) -> Value {
    const UNIONS: usize = 4;
    let mut components = Map::new();
    let mut paths = Map::new();
    for union in 0..UNIONS {
        let members: Vec<Value> = (union..count)
            .step_by(UNIONS)
            .map(|i| {
                if i % 8 == 7 {
                    json!({"anyOf": [member("a", i), member("b", i), {"type": "string"}]})
                } else {
                    member("m", i)
                }
            })
            .collect();
        let name = format!("Union{union}");
        if members.is_empty() {
            components.insert(name.clone(), json!({"type": "string"}));
        } else {
            components.insert(name.clone(), json!({"oneOf": members}));
        }
        paths.insert(
            format!("/v1/unions/{union}"),
            get(&format!("getUnion{union}"), "unions", reference(&name)),
        );
    }
    envelope("wide-unions", paths, schemas(components))
}

fn union_chain(count: usize) -> Value {
    let mut components = Map::new();
    components.insert("Link0".to_owned(), member("link", 0));
    for i in 1..=count {
        let members = vec![reference(&format!("Link{}", i - 1)), member("link", i)];
        let keyword = if i % 2 == 0 { "oneOf" } else { "anyOf" };
        components.insert(format!("Link{i}"), json!({ keyword: members }));
    }
    let paths = Map::from_iter([(
        "/v1/links".to_owned(),
        get("getLink", "links", reference(&format!("Link{count}"))),
    )]);
    envelope("union-chain", paths, schemas(components))
}

fn huge_enums(count: usize) -> Value {
    // At least 3 enums; as many more as keep each within the generator's limit (past it an
    // enum is a string, which would stress nothing).
    let enums = count.div_ceil(MAX_ENUM_VALUES).max(3);
    let mut components = Map::new();
    let mut paths = Map::new();
    for e in 0..enums {
        let values: Vec<Value> = (e..count)
            .step_by(enums)
            .map(|i| Value::String(format!("VALUE_{i}_{}", ["x", "y-z", "w.v"][i % 3])))
            .collect();
        let values = if values.is_empty() {
            vec![Value::String("only".to_owned())]
        } else {
            values
        };
        let name = format!("Code{e}");
        // Query parameters repeating the first 200 values inline, as documents copy enums.
        let inline: Vec<Value> = values.iter().take(200).cloned().collect();
        let mut operation = get(&format!("getCodes{e}"), "codes", reference(&name));
        operation["get"]["parameters"] = json!([
            {"name": "code", "in": "query", "schema": {"type": "string", "enum": inline}},
            {"name": "other_code", "in": "query", "schema": {"type": "string", "enum": inline}},
        ]);
        paths.insert(format!("/v1/codes/{e}"), operation);
        components.insert(name, json!({"type": "string", "enum": values}));
    }
    envelope("huge-enums", paths, schemas(components))
}

/// The `n`-th string of `a` followed by punctuation only: all of them spell the Rust name `A`.
fn colliding_value(mut n: usize) -> String {
    const PUNCTUATION: [char; 6] = ['-', '.', '/', '+', '@', '~'];
    let mut text = String::from("a");
    loop {
        text.push(PUNCTUATION[n % PUNCTUATION.len()]);
        n /= PUNCTUATION.len();
        if n == 0 {
            return text;
        }
        n -= 1;
    }
}

/// Enums of colliding values, each as large as the generator makes an enum.
fn enum_collisions(count: usize) -> Value {
    let values: Vec<Value> = std::iter::once(Value::String("a".to_owned()))
        .chain((0..count).map(|n| Value::String(colliding_value(n))))
        .collect();
    let mut components = Map::new();
    let mut paths = Map::new();
    for (k, chunk) in values.chunks(MAX_ENUM_VALUES).enumerate() {
        let name = format!("Colliding{k}");
        paths.insert(
            format!("/v1/colliding/{k}"),
            get(&format!("getColliding{k}"), "colliding", reference(&name)),
        );
        components.insert(name, json!({"type": "string", "enum": chunk}));
    }
    envelope("enum-collisions", paths, schemas(components))
}

/// Levels of inline objects under `components/schemas/X`: the loader refuses more than
/// `MAX_DEPTH` (32) levels of JSON, and each level is `properties/<name>`.
const NESTING_LEVELS: usize = 13;

fn nested(tree: usize, level: usize, name_length: usize) -> Value {
    let mut properties = Map::new();
    properties.insert(format!("scalar_{level}"), json!({"type": "string"}));
    if level < NESTING_LEVELS {
        let long = format!("level_{level}_of_tree_{tree}_").repeat(name_length);
        properties.insert(long, nested(tree, level + 1, name_length));
    }
    json!({"type": "object", "properties": properties})
}

fn deep_nesting(count: usize) -> Value {
    let mut components = Map::new();
    let mut paths = Map::new();
    for tree in 0..count {
        let name = format!("Tree{tree}");
        components.insert(name.clone(), nested(tree, 0, 4));
        paths.insert(
            format!("/v1/trees/{tree}"),
            get(&format!("getTree{tree}"), "trees", reference(&name)),
        );
    }
    envelope("deep-nesting", paths, schemas(components))
}

fn many_areas(count: usize) -> Value {
    const SHARED: usize = 64;
    let mut components = Map::new();
    for s in 0..SHARED {
        components.insert(format!("Shared{s}"), member("shared", s));
    }
    let mut paths = Map::new();
    for tag in 0..count {
        // Shared schema `s` is used by the tags whose index has bit `s % 12` set, rotated by
        // `s / 12`: each schema by about half the tags, no two by the same half.
        let properties: Map<String, Value> = (0..SHARED)
            .filter(|s| ((tag + s / 12) >> (s % 12)) & 1 == 1)
            .map(|s| (format!("shared_{s}"), reference(&format!("Shared{s}"))))
            .collect();
        paths.insert(
            format!("/v1/area{tag}"),
            get(
                &format!("getArea{tag}"),
                &format!("area{tag}"),
                json!({"type": "object", "properties": properties}),
            ),
        );
    }
    envelope("many-areas", paths, schemas(components))
}

/// `count` areas of one operation each, all answering a `Hub` that holds `count` small
/// schemas: the document grows with `count`, each schema's feature gate lists every area.
fn hub_areas(count: usize) -> Value {
    let mut components = Map::new();
    let hub: Map<String, Value> = (0..count)
        .map(|s| (format!("leaf_{s}"), reference(&format!("Leaf{s}"))))
        .collect();
    components.insert(
        "Hub".to_owned(),
        json!({"type": "object", "properties": hub}),
    );
    for s in 0..count {
        components.insert(format!("Leaf{s}"), member("leaf", s));
    }
    let mut paths = Map::new();
    for tag in 0..count {
        paths.insert(
            format!("/v1/hub{tag}"),
            get(
                &format!("getHub{tag}"),
                &format!("hub{tag}"),
                reference("Hub"),
            ),
        );
    }
    envelope("hub-areas", paths, schemas(components))
}

fn allof_chain(count: usize) -> Value {
    let mut components = Map::new();
    components.insert("Level0".to_owned(), member("level", 0));
    for i in 1..=count {
        components.insert(
            format!("Level{i}"),
            json!({"allOf": [reference(&format!("Level{}", i - 1)), {
                "type": "object",
                "properties": {format!("field_{i}"): {"type": "string"}},
            }]}),
        );
    }
    let mut paths = Map::new();
    for i in (0..=count).step_by(count.div_ceil(8).max(1)) {
        paths.insert(
            format!("/v1/levels/{i}"),
            get(
                &format!("getLevel{i}"),
                "levels",
                reference(&format!("Level{i}")),
            ),
        );
    }
    envelope("allof-chain", paths, schemas(components))
}

fn recursive(count: usize) -> Value {
    let mut components = Map::new();
    for i in 0..count {
        let node = |j: usize| reference(&format!("Node{}", j % count));
        components.insert(
            format!("Node{i}"),
            json!({"type": "object", "required": ["next"], "properties": {
                format!("label_{i}"): {"type": "string"},
                "next": node(i + 1),
                "skip": node(i * 7 + 3),
                "optional": {"anyOf": [node(i * 5 + 1), {"type": "null"}]},
                "children": {"type": "array", "items": node(i * 13 + 5)},
                "index": {"type": "object", "additionalProperties": node(i * 3 + 2)},
            }}),
        );
    }
    let paths = Map::from_iter([(
        "/v1/nodes".to_owned(),
        get("getNode", "nodes", reference("Node0")),
    )]);
    envelope("recursive", paths, schemas(components))
}

/// `Link0 → Link1 → …`, each with an optional nullable `note` (so the request side has its
/// twin) and alike but for the last, which holds no next: one `POST` sends and answers `Link0`.
fn twin_chain(count: usize) -> Value {
    let mut components = Map::new();
    for i in 0..count {
        let mut link = json!({"type": "object", "required": ["id"], "properties": {
            "id": {"type": "string"},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        }});
        if i + 1 < count {
            link["properties"]["next"] = reference(&format!("Link{}", i + 1));
        }
        components.insert(format!("Link{i}"), link);
    }
    let body =
        json!({"required": true, "content": {"application/json": {"schema": reference("Link0")}}});
    let mut operation = get("putLink", "links", reference("Link0"));
    operation["post"] = operation["get"].take();
    if let Some(operation) = operation.as_object_mut() {
        operation.remove("get");
    }
    operation["post"]["requestBody"] = body;
    let paths = Map::from_iter([("/v1/links".to_owned(), operation)]);
    envelope("twin-chain", paths, schemas(components))
}

fn many_parameters(count: usize) -> Value {
    const PER_OPERATION: usize = 300;
    let mut shared = Map::new();
    for p in 0..20 {
        shared.insert(
            format!("Shared{p}"),
            json!({"name": format!("shared_{p}"), "in": "query", "schema": {"type": "integer"}}),
        );
    }
    let mut paths = Map::new();
    for op in 0..count {
        let mut parameters: Vec<Value> = (0..20)
            .map(|p| json!({"$ref": format!("#/components/parameters/Shared{p}")}))
            .collect();
        parameters.extend((0..PER_OPERATION - 20).map(|p| {
            let schema = match p % 5 {
                0 => json!({"type": "integer", "format": "int64"}),
                1 => json!({"type": "array", "items": {"type": "string"}}),
                2 => json!({"type": "string", "enum": ["asc", "desc", format!("by_{p}")]}),
                3 => json!({"type": "boolean"}),
                _ => json!({"type": "string"}),
            };
            let place = if p % 17 == 0 { "header" } else { "query" };
            json!({"name": format!("param_{p}_{op}"), "in": place, "schema": schema})
        }));
        let mut item = get(&format!("search{op}"), &format!("search{}", op % 4), {
            json!({"type": "array", "items": {"type": "string"}})
        });
        item["get"]["parameters"] = Value::Array(parameters);
        item["parameters"] = json!([
            {"name": "scope", "in": "path", "required": true, "schema": {"type": "string"}},
        ]);
        paths.insert(format!("/v1/search{op}/{{scope}}"), item);
    }
    let mut components = Map::new();
    components.insert("parameters".to_owned(), Value::Object(shared));
    envelope("many-parameters", paths, components)
}

fn long_names(count: usize) -> Value {
    let description = "A description that goes on. ".repeat(100);
    let mut components = Map::new();
    let mut paths = Map::new();
    for i in 0..count {
        let name = format!("VeryLongSchemaName{i}").repeat(20);
        let mut properties = Map::new();
        for p in 0..8 {
            properties.insert(
                format!("a_rather_long_property_name_number_{p}_").repeat(8),
                json!({"type": "string", "description": description}),
            );
        }
        properties.insert(
            format!("nested_long_property_{i}_").repeat(10),
            nested(i, NESTING_LEVELS - 4, 6),
        );
        components.insert(
            name.clone(),
            json!({"type": "object", "description": description, "properties": properties}),
        );
        paths.insert(
            format!("/v1/long/{i}"),
            get(&format!("getLong{i}"), "long", reference(&name)),
        );
    }
    envelope("long-names", paths, schemas(components))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `$ref` in `value`, as its pointer text.
    fn references<'a>(value: &'a Value, found: &mut Vec<&'a str>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(target)) = map.get("$ref") {
                    found.push(target);
                }
                map.values().for_each(|child| references(child, found));
            }
            Value::Array(items) => items.iter().for_each(|child| references(child, found)),
            _ => {}
        }
    }

    /// The checks of validity a held-out reader would apply first: a 3.x envelope, every
    /// reference resolving, unique operation ids, every path template's parameter declared as a
    /// required path parameter, every operation answering.
    fn assert_valid(name: &str, document: &Value) {
        assert!(
            document["openapi"]
                .as_str()
                .is_some_and(|v| v.starts_with("3.")),
            "{name}: openapi"
        );
        assert!(document["info"]["title"].is_string(), "{name}: info.title");
        assert!(
            document["info"]["version"].is_string(),
            "{name}: info.version"
        );
        let mut found = Vec::new();
        references(document, &mut found);
        for target in found {
            let pointer = target.strip_prefix('#').unwrap_or("not local");
            assert!(
                document.pointer(pointer).is_some(),
                "{name}: {target} resolves"
            );
        }
        let mut ids = std::collections::BTreeSet::new();
        let paths = document["paths"].as_object().expect("paths");
        for (path, item) in paths {
            let declared = |parameters: &Value| -> Vec<String> {
                parameters
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|p| p["in"] == "path" && p["required"] == true)
                    .filter_map(|p| p["name"].as_str().map(str::to_owned))
                    .collect()
            };
            let templated: Vec<&str> = path
                .split('{')
                .skip(1)
                .filter_map(|rest| rest.split('}').next())
                .collect();
            for (method, operation) in item.as_object().expect("path item") {
                if method == "parameters" {
                    continue;
                }
                let id = operation["operationId"].as_str().expect("operationId");
                assert!(ids.insert(id.to_owned()), "{name}: {id} is unique");
                let mut names = declared(&item["parameters"]);
                names.extend(declared(&operation["parameters"]));
                for parameter in &templated {
                    assert!(
                        names.iter().any(|n| n == parameter),
                        "{name}: {path} declares {parameter}"
                    );
                }
                assert!(
                    operation["responses"]
                        .as_object()
                        .is_some_and(|r| !r.is_empty()),
                    "{name}: {id} answers"
                );
            }
        }
    }

    #[test]
    fn small_documents_are_valid_within_budget_and_the_generator_accepts_them() {
        for shape in &SHAPES {
            // Room for a few units of the shape, and no more: the fast tier stays fast.
            let one = serde_json::to_string(&(shape.build)(1)).unwrap().len();
            let budget = (3 * one).max(12_000);
            let started = std::time::Instant::now();
            let (text, count) = document(shape, budget).expect(shape.name);
            assert!(text.len() <= budget, "{}: {} bytes", shape.name, text.len());
            // The largest count that fits: one more unit would not.
            let bigger = serde_json::to_string(&(shape.build)(count + 1)).unwrap();
            assert!(
                bigger.len() > budget,
                "{}: {count} is not the largest",
                shape.name
            );
            assert!(count >= 2, "{}: {count} units", shape.name);
            let value: Value = serde_json::from_str(&text).expect(shape.name);
            assert_valid(shape.name, &value);
            let input = baseten_codegen::Input {
                spec_path: shape.name,
                spec_text: &text,
                config_text: None,
            };
            let output = baseten_codegen::generate(&input)
                .unwrap_or_else(|error| panic!("{}: {error}", shape.name));
            assert!(
                output.files.keys().any(|file| file.ends_with("models.rs")),
                "{}: {:?}",
                shape.name,
                output.files.keys()
            );
            eprintln!("{}: {count} units, {:?}", shape.name, started.elapsed());
        }
    }

    #[test]
    fn documents_grow_with_their_count() {
        for shape in &SHAPES {
            let sizes: Vec<usize> = [1, 2, 8]
                .iter()
                .map(|&count| serde_json::to_string(&(shape.build)(count)).unwrap().len())
                .collect();
            assert!(
                sizes[0] < sizes[1] && sizes[1] < sizes[2],
                "{}: {sizes:?}",
                shape.name
            );
        }
    }

    #[test]
    fn a_budget_too_small_for_one_unit_gives_nothing() {
        assert!(document(&SHAPES[0], 10).is_none());
    }

    #[test]
    fn colliding_values_are_distinct_and_all_punctuation_after_a() {
        let values: Vec<String> = (0..500).map(colliding_value).collect();
        let distinct: std::collections::BTreeSet<&String> = values.iter().collect();
        assert_eq!(distinct.len(), values.len());
        assert!(values.iter().all(|v| v.starts_with('a') && v.len() >= 2));
        assert!(
            values
                .iter()
                .all(|v| !v[1..].chars().any(char::is_alphanumeric))
        );
    }
}
