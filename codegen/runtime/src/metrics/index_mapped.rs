//! The shape every index-mapped metrics response shares, as traits.
//!
//! The generator recognises the shape by structure (a descriptor list whose items carry
//! `label_sets`, a value-set list whose items carry `start_epoch_millis` and
//! `values: [[number | null]]`, and a window) and emits these impls for every such response
//! type (in `gen/index_mapped.rs`), so alignment ([`crate::metrics`]) is written once for all.

use std::collections::BTreeMap;

use crate::metrics::Unit;
use crate::metrics::contract::MetricsMode;

/// A response that lists metric descriptors once and aligns every value set to them by index.
pub trait IndexMappedResponse {
    /// The descriptor type.
    type Descriptor: IndexMappedDescriptor;
    /// The value-set type.
    type ValueSet: IndexMappedValueSet;
    /// Start of the returned window, epoch milliseconds.
    fn window_start_millis(&self) -> i64;
    /// End of the returned window, epoch milliseconds.
    fn window_end_millis(&self) -> i64;
    /// The aggregation mode's wire string (`CURRENT`, `SUMMARY`, `SERIES`, …), if the type has one.
    fn mode_str(&self) -> Option<&str>;
    /// The aggregation mode, when the type has one and it is one the runtime knows. The
    /// generator writes this as a `match` over the document's own mode values.
    fn mode(&self) -> Option<MetricsMode>;
    /// Seconds per step, when the server says.
    fn step_seconds(&self) -> Option<i64>;
    /// The descriptors; position `i` is index `i` of every value set's `values`.
    fn descriptors(&self) -> &[Self::Descriptor];
    /// The value sets, in time order.
    fn value_sets(&self) -> &[Self::ValueSet];
}

/// One metric: its name, unit and kind hints, and the label sets of its series, in order.
pub trait IndexMappedDescriptor {
    /// Canonical metric name.
    fn name(&self) -> &str;
    /// The unit hint's wire string, if the type has one.
    fn unit_hint_str(&self) -> Option<&str>;
    /// The unit the raw values are in ([`Unit::Unknown`] for a hint the runtime does not know,
    /// or none). The generator writes this as a `match` over the document's own unit values.
    fn unit(&self) -> Unit;
    /// The kind's wire string, if the type has one.
    fn kind_str(&self) -> Option<&str>;
    /// One label map per series, in the order of the values.
    fn label_sets(&self) -> &[BTreeMap<String, String>];
}

/// The values of one step.
pub trait IndexMappedValueSet {
    /// Start of the step, epoch milliseconds.
    fn start_epoch_millis(&self) -> i64;
    /// `values[descriptor][label set]`; `None` is no data.
    fn values(&self) -> &[Vec<Option<f64>>];
}
