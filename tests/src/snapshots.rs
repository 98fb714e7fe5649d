//! Compiles every generator snapshot in `tests/src/snapshots/`: an expected file that stops
//! compiling fails the build, not just a text comparison.
//!
//! Each snapshot sits in its own module, like the crate root of a generated crate: its emitted
//! `client.rs` defines the `Client` the emitted operations add methods to, and the files the
//! generator's extensions added for it are declared after its name (`index_mapped` where the
//! metrics extension recognised an index-mapped response).

macro_rules! snapshot {
    ($name:ident $(, $added:ident)*) => {
        #[allow(dead_code, unused_imports, missing_docs, clippy::all, clippy::pedantic)]
        pub mod $name {
            pub use client::Client;

            pub mod client;
            pub mod mock;
            pub mod models;
            pub mod operations;
            $(pub mod $added;)*
        }
    };
}

// One line per fixture in tests/fixtures/specs; a test checks that none is missing.
snapshot!(acme);
snapshot!(auth);
snapshot!(auth_per_operation);
snapshot!(best_fit);
snapshot!(best_fit30);
snapshot!(const_tags);
snapshot!(consumers);
snapshot!(exact);
snapshot!(exact30);
snapshot!(index_mapped, index_mapped);
snapshot!(int_tags);
snapshot!(int_tags30);
snapshot!(keyed);
snapshot!(kinds);
snapshot!(kinds30);
snapshot!(inheritance);
snapshot!(media);
snapshot!(media_multi);
snapshot!(names);
snapshot!(nullable);
snapshot!(nullable30);
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
