//! A generated enum is `#[non_exhaustive]`: a match outside the crate needs a `_` arm, so a
//! value a newer document adds breaks no user's code.

use baseten_api::models::ModelMetricModeV1;

fn describe(mode: &ModelMetricModeV1) -> &'static str {
    match mode {
        ModelMetricModeV1::Current => "current",
        ModelMetricModeV1::Summary => "summary",
        ModelMetricModeV1::Series => "series",
        ModelMetricModeV1::Unknown(_) => "unknown",
    }
}

fn main() {
    let _ = describe(&ModelMetricModeV1::Series);
}
