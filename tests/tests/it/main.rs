//! The workspace's one integration-test binary: a module per feature, each with a `check` driver.

mod bad_input;
mod client;
mod conformance;
mod consumers;
mod example_live;
mod golden;
mod http_hostile;
mod lowering;
mod media;
mod properties;
mod resilience;
mod smoke;
mod snapshots;
mod ui;
mod xtask;
