//! A generated struct is `#[non_exhaustive]`: no struct literal outside the crate, so a field a
//! newer document adds breaks no user's code; `new` and the setters build one instead.

use baseten_api::models::ModelMetricValueSetV1;

fn main() {
    let _ = ModelMetricValueSetV1::new(0, Vec::new());
    let _ = ModelMetricValueSetV1 {
        start_epoch_millis: 0,
        values: Vec::new(),
    };
}
