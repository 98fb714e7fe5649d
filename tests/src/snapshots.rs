//! Compiles every generator snapshot in `tests/src/snapshots/`: an expected file that stops
//! compiling fails the build, not just a text comparison.
//!
//! Each snapshot sits in its own module, like the crate root of a generated crate: its emitted
//! `client.rs` defines the `Client` the emitted operations add methods to.

macro_rules! snapshot {
    ($name:ident) => {
        #[allow(dead_code, unused_imports, missing_docs, clippy::all, clippy::pedantic)]
        pub mod $name {
            pub use client::Client;

            pub mod client;
            pub mod index_mapped;
            pub mod mock;
            pub mod models;
            pub mod operations;
        }
    };
}

// One line per fixture in tests/fixtures/specs; a test checks that none is missing.
snapshot!(acme);
snapshot!(auth);
snapshot!(auth_per_operation);
snapshot!(const_tags);
snapshot!(consumers);
snapshot!(index_mapped);
snapshot!(keyed);
snapshot!(inheritance);
snapshot!(media);
snapshot!(media_multi);
snapshot!(names);
snapshot!(nullable);
snapshot!(operations);
snapshot!(placeholders);
snapshot!(recursion);
snapshot!(salvage);
snapshot!(servers);
snapshot!(shared);
snapshot!(styles);
snapshot!(tagged);
snapshot!(twins);
snapshot!(types);
snapshot!(uploads);
snapshot!(wire);
