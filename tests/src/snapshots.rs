//! Compiles every generator snapshot in `tests/src/snapshots/`: an expected file that stops
//! compiling fails the build, not just a text comparison.
//!
//! Each snapshot sits in its own module with a `Client` of its own, because the emitted
//! operations add methods to `super::Client`; the newtype derefs to the real runtime client.

macro_rules! snapshot {
    ($name:ident) => {
        #[allow(dead_code, unused_imports, missing_docs, clippy::all, clippy::pedantic)]
        pub mod $name {
            /// This snapshot's client: the emitted methods are added to it.
            #[derive(Debug, Clone)]
            pub struct Client(pub baseten_api::Client);

            impl std::ops::Deref for Client {
                type Target = baseten_api::Client;
                fn deref(&self) -> &baseten_api::Client {
                    &self.0
                }
            }

            pub mod index_mapped;
            pub mod models;
            pub mod operations;
        }
    };
}

// One line per fixture in tests/fixtures/specs; a test checks that none is missing.
snapshot!(index_mapped);
snapshot!(names);
snapshot!(nullable);
snapshot!(operations);
snapshot!(recursion);
