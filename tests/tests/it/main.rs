//! The workspace's one integration-test binary: a module per feature, each with a `check` driver.

mod bad_input;
mod cli;
mod client;
mod conformance;
mod consumer_ops;
mod consumers;
mod fleet;
mod golden;
mod hostile;
mod http_hostile;
mod layers;
mod lowering;
mod media;
mod names_lock;
mod nesting;
mod operations_live;
mod probe;
mod properties;
mod resilience;
mod semver;
mod smoke;
mod snapshots;
mod surface;
mod types;
mod ui;
mod xtask;
