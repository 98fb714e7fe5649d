//! Tells the tests whether Baseten's material is beside the checkout (`../shared`): without it,
//! the tests that read it are listed as ignored, with that reason, rather than passing unrun.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(no_shared)");
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    if shared.is_dir() {
        // Watched only while present: a missing path would make cargo rerun this script, and so
        // rebuild the tests, on every build.
        println!("cargo::rerun-if-changed={}", shared.display());
    } else {
        println!("cargo::rerun-if-changed=build.rs");
        println!(
            "cargo::warning=../shared is absent: the tests that read Baseten's documents and recorded responses are ignored (after adding it, `touch tests/build.rs`)"
        );
        println!("cargo::rustc-cfg=no_shared");
    }
}
