//! Times the generator on 1,000 documents of schemas nested to the loader's depth limit under
//! every wrapper kind, valid and invalid, and prints the slowest: `cargo run --release -p
//! baseten-codegen --example depth_sweep [-- DOCUMENTS [SEED]]`. A figure for the closing note
//! and the README, not a test (`tests/tests/it/nesting.rs` checks what each document gives).

use std::time::{Duration, Instant};

/// `(keyword path, JSON text around `{}`)`: one level of each schema-holding keyword.
const WRAPPERS: &[(&str, &str, &str)] = &[
    ("/items", r#"{"type": "array", "items": "#, "}"),
    ("/not", r#"{"not": "#, "}"),
    (
        "/additionalProperties",
        r#"{"type": "object", "additionalProperties": "#,
        "}",
    ),
    (
        "/properties/p",
        r#"{"type": "object", "properties": {"p": "#,
        "}}",
    ),
    ("/anyOf/1", r#"{"anyOf": [{"type": "string"}, "#, "]}"),
    ("/oneOf/1", r#"{"oneOf": [{"type": "integer"}, "#, "]}"),
    ("/allOf/1", r#"{"allOf": [{"type": "object"}, "#, "]}"),
];

/// Innermost schemas: the first two are valid, the rest each have one fault.
const LEAVES: &[&str] = &[
    r#"{"type": "string", "enum": ["a", "b"]}"#,
    r##"{"$ref": "#/components/schemas/B"}"##,
    r#"{"type": 5}"#,
    r#"{"type": "string", "minLength": "x"}"#,
    r#"{"type": "object", "required": "p"}"#,
    r#"{"type": "object", "additionalProperties": "x"}"#,
];

/// Levels of JSON nesting left for wrappers: schema `A` stands at depth 3 and the leaf object
/// must stand above the loader's limit.
const LEVELS: usize = baseten_codegen::load::MAX_DEPTH - 1 - 3;

/// xorshift64: reproducible documents with no dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A document: wrappers picked at random until the depth limit, around a random leaf; with its
/// schema pointer as a description.
fn document(rng: &mut Rng) -> (String, String) {
    let mut picks = Vec::new();
    let mut levels = 0;
    loop {
        let pick = rng.below(WRAPPERS.len());
        let more = WRAPPERS[pick].0.matches('/').count();
        if levels + more > LEVELS {
            break;
        }
        levels += more;
        picks.push(pick);
        // Stop early sometimes, so every depth is seen, not only the deepest.
        if rng.below(LEVELS) == 0 {
            break;
        }
    }
    let leaf = LEAVES[rng.below(LEAVES.len())];
    let mut schema = leaf.to_owned();
    for &i in picks.iter().rev() {
        let (_, open, close) = WRAPPERS[i];
        schema = format!("{open}{schema}{close}");
    }
    let pointer: String = picks.iter().map(|&i| WRAPPERS[i].0).collect();
    let text = format!(
        r#"{{"openapi": "3.1.0", "info": {{"title": "t", "version": "1"}}, "paths": {{}}, "components": {{"schemas": {{"A": {schema}, "B": {{"type": "integer"}}}}}}}}"#
    );
    (text, format!("#/components/schemas/A{pointer} = {leaf}"))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().map_or(Ok(1_000), |n| n.parse())?;
    let seed: u64 = args.next().map_or(Ok(0x5eed_de97), |n| n.parse())?;
    let mut rng = Rng(seed.max(1));
    let mut times = Vec::with_capacity(count);
    let (mut generated, mut refused) = (0, 0);
    let mut slowest: (Duration, String, String) = (Duration::ZERO, String::new(), String::new());
    let mut largest = 0;
    for _ in 0..count {
        let (text, described) = document(&mut rng);
        largest = largest.max(text.len());
        let input = baseten_codegen::Input {
            spec_path: "depth_sweep.json",
            spec_text: &text,
            config_text: None,
        };
        let start = Instant::now();
        let outcome = baseten_codegen::generate(&input);
        let elapsed = start.elapsed();
        let result = match outcome {
            Ok(_) => {
                generated += 1;
                "generated".to_owned()
            }
            Err(error) => {
                refused += 1;
                error.to_string()
            }
        };
        if elapsed > slowest.0 {
            slowest = (elapsed, described, result);
        }
        times.push(elapsed);
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{count} documents (up to {largest} bytes, schemas nested up to {LEVELS} levels): \
         {generated} generated, {refused} refused"
    );
    println!(
        "median {:.2} ms, p99 {:.2} ms, slowest {:.2} ms",
        ms(times[times.len() / 2]),
        ms(times[times.len() * 99 / 100]),
        ms(slowest.0)
    );
    println!("slowest document: {}\n  -> {}", slowest.1, slowest.2);
    Ok(())
}
