//! The workspace's one integration-test binary: a module per feature, each with a `check` driver.

mod smoke;
mod snapshots;
