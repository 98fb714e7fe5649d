//! A hand-written index-mapped response type for the runtime's own unit tests, shaped like the
//! one the generator emits for Baseten's metrics endpoints (the runtime cannot see generated code).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::metrics::index_mapped::{
    IndexMappedDescriptor, IndexMappedResponse, IndexMappedValueSet,
};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GetModelMetricsResponseV1 {
    pub start_epoch_millis: i64,
    pub end_epoch_millis: i64,
    pub mode: String,
    #[serde(default)]
    pub step_seconds: Option<i64>,
    pub metric_descriptors: Vec<ModelMetricDescriptorV1>,
    pub metric_values: Vec<ModelMetricValueSetV1>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelMetricDescriptorV1 {
    pub name: String,
    pub unit_hint: String,
    pub kind: String,
    pub label_sets: Vec<BTreeMap<String, String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelMetricValueSetV1 {
    pub start_epoch_millis: i64,
    pub values: Vec<Vec<Option<f64>>>,
}

impl IndexMappedResponse for GetModelMetricsResponseV1 {
    type Descriptor = ModelMetricDescriptorV1;
    type ValueSet = ModelMetricValueSetV1;
    fn window_start_millis(&self) -> i64 {
        self.start_epoch_millis
    }
    fn window_end_millis(&self) -> i64 {
        self.end_epoch_millis
    }
    fn mode_str(&self) -> Option<&str> {
        Some(&self.mode)
    }
    // What the generator emits for a document whose mode is a plain string.
    fn mode(&self) -> Option<crate::MetricsMode> {
        match self.mode.as_str() {
            "CURRENT" => Some(crate::MetricsMode::Current),
            "SUMMARY" => Some(crate::MetricsMode::Summary),
            "SERIES" => Some(crate::MetricsMode::Series),
            _ => None,
        }
    }
    fn step_seconds(&self) -> Option<i64> {
        self.step_seconds
    }
    fn descriptors(&self) -> &[ModelMetricDescriptorV1] {
        &self.metric_descriptors
    }
    fn value_sets(&self) -> &[ModelMetricValueSetV1] {
        &self.metric_values
    }
}

impl IndexMappedDescriptor for ModelMetricDescriptorV1 {
    fn name(&self) -> &str {
        &self.name
    }
    fn unit_hint_str(&self) -> Option<&str> {
        Some(&self.unit_hint)
    }
    fn unit(&self) -> crate::metrics::Unit {
        use crate::metrics::Unit;
        match self.unit_hint.as_str() {
            "PER_SECOND" => Unit::PerSecond,
            "SECONDS" => Unit::Seconds,
            "BYTES" => Unit::Bytes,
            "MEBIBYTES" => Unit::Mebibytes,
            "COUNT" => Unit::Count,
            "RATIO" => Unit::Ratio,
            _ => Unit::Unknown,
        }
    }
    fn kind_str(&self) -> Option<&str> {
        Some(&self.kind)
    }
    fn label_sets(&self) -> &[BTreeMap<String, String>] {
        &self.label_sets
    }
}

impl IndexMappedValueSet for ModelMetricValueSetV1 {
    fn start_epoch_millis(&self) -> i64 {
        self.start_epoch_millis
    }
    fn values(&self) -> &[Vec<Option<f64>>] {
        &self.values
    }
}
