//! What building a [`ServerText`] costs: scrubbing a registered key out of a response body, for
//! bodies with no echo, with many echoes in mixed encodings, and built of near-misses (every
//! byte starting a try that fails late), up to the client's 64 MiB cap.
//!
//! Run with `cargo bench -p baseten-runtime --no-default-features --bench server_text` (divan);
//! `SERVER_TEXT_BENCH_MIB=64` sets the body size (default 8).

use std::hint::black_box;
use std::sync::LazyLock;

use baseten_runtime::ServerText;
use baseten_runtime::server_text::RegisteredSecret;

const KEY: &str = "abcd1234.SuperSecretBenchKey0123456789";

fn mib() -> usize {
    std::env::var("SERVER_TEXT_BENCH_MIB")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(8)
}

/// `unit` repeated to the bench size.
fn body(unit: &str) -> String {
    unit.repeat(mib() * 1024 * 1024 / unit.len())
}

/// A metrics-like JSON body with no echo of the key.
static PLAIN: LazyLock<String> =
    LazyLock::new(|| body(r#"{"name":"baseten_replicas_active","values":[[1.5,null,2.25]]},"#));

/// The key echoed every 200 bytes, raw, percent-encoded and JSON-escaped in turn.
static ECHOED: LazyLock<String> = LazyLock::new(|| {
    let lower: String = KEY.bytes().map(|b| format!("%{b:02x}")).collect();
    let json: String = KEY
        .chars()
        .map(|c| format!("\\u{:04x}", u32::from(c)))
        .collect();
    let filler = "x".repeat(150);
    body(&format!("{filler}{KEY}{filler}{lower}{filler}{json}"))
});

/// The key less its last byte, over and over: each copy a try that fails at its end.
static NEAR_MISSES: LazyLock<String> = LazyLock::new(|| body(&KEY[..KEY.len() - 1]));

fn main() {
    let _registered = RegisteredSecret::new(KEY);
    for (name, text) in [
        ("plain", &*PLAIN),
        ("echoed", &*ECHOED),
        ("near_misses", &*NEAR_MISSES),
    ] {
        // One figure per body, printed, besides divan's table.
        let started = std::time::Instant::now();
        let scrubbed = ServerText::new(text.clone());
        let elapsed = started.elapsed();
        println!(
            "{name}: {} MiB in {elapsed:?} ({:.0} MiB/s), {} redactions",
            text.len() >> 20,
            text.len() as f64 / 1048576.0 / elapsed.as_secs_f64(),
            scrubbed.matches("<redacted>").count()
        );
    }
    divan::main();
}

#[divan::bench(args = ["plain", "echoed", "near_misses"], sample_count = 5)]
fn scrub(bencher: divan::Bencher, body: &str) {
    let _registered = RegisteredSecret::new(KEY);
    let text: &String = match body {
        "plain" => &PLAIN,
        "echoed" => &ECHOED,
        _ => &NEAR_MISSES,
    };
    bencher
        .with_inputs(|| text.clone())
        .bench_values(|text| black_box(ServerText::new(text)));
}
