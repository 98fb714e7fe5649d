//! The runtime's integration tests, one binary (every extra test binary is another link in CI):
//! the client against servers on 127.0.0.1 — requests and decoding (`client`), trouble and
//! retries (`resilience`), a fleet of pollers under rate limits (`fleet`), hostile servers
//! (`http_hostile`), issue 29's key-scrubbing and redirect cases (`trust`), issue 41's retry
//! table (`retry_table`), decoding as an attempt's last phase (`decode_phase`) and typed error
//! answers (`typed_errors`) — and the runtime's
//! two layers (`layers`), and property tests of the metrics alignment layer (`properties`).
//! The operations they call are the workspace's generated crate's
//! (`baseten-api`, a dev-dependency): the client as a user meets it.

use std::path::PathBuf;

mod client;
mod decode_phase;
mod fleet;
mod http_hostile;
mod layers;
mod properties;
mod resilience;
mod retry_table;
mod trust;
mod typed_errors;

/// The workspace's root directory.
fn workspace_root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The cross-crate tests' directory, whose `fixtures/responses/` holds the metrics responses
/// the runtime's, the CLI's and the consumers' tests serve alike.
fn tests_dir() -> PathBuf {
    workspace_root().join("tests")
}
