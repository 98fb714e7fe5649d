//! The metric names Baseten documents, as constants, so a typo is a compile error rather than
//! a request the server refuses.

/// Replicas serving right now (`GAUGE`, `COUNT`).
pub const REPLICAS_ACTIVE: &str = "baseten_replicas_active";

/// Inference requests in the step, by status class (`COUNTER`, `COUNT`, labels `status`).
pub const INFERENCE_REQUESTS_TOTAL: &str = "baseten_inference_requests_total";

/// End-to-end response time (`HISTOGRAM`, `SECONDS`, labels `quantile` or `stat=avg`).
pub const END_TO_END_RESPONSE_TIME_SECONDS: &str = "baseten_end_to_end_response_time_seconds";

/// What the server returns when a request names no metrics.
pub const DEFAULT_SET: [&str; 3] = [
    REPLICAS_ACTIVE,
    INFERENCE_REQUESTS_TOTAL,
    END_TO_END_RESPONSE_TIME_SECONDS,
];
