//! [`SeriesStats`], one series' values folded step by step: what the streaming CSV export
//! (`export.rs`) collects while it reads and what a [`Summary`](super::Summary) reports, in a
//! module of its own so that both import it and neither imports the other.

/// What a series' values were over the steps.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SeriesStats {
    /// Steps in the response (every series has a value or `null` in each).
    pub steps: usize,
    /// Steps in which the series had data.
    pub with_data: usize,
    /// The smallest value, if any step had data.
    pub min: Option<f64>,
    /// The largest value, if any step had data.
    pub max: Option<f64>,
    /// The sum of the values with data.
    pub sum: f64,
    /// The value in the first step (`None` for no data).
    pub first: Option<f64>,
    /// The value in the last step (`None` for no data).
    pub last: Option<f64>,
}

impl SeriesStats {
    /// Folds in the value of step `step` (steps come in order).
    pub(super) fn add(&mut self, step: usize, value: Option<f64>) {
        self.steps += 1;
        if step == 0 {
            self.first = value;
        }
        self.last = value;
        if let Some(value) = value {
            self.with_data += 1;
            self.sum += value;
            self.min = Some(self.min.map_or(value, |min| min.min(value)));
            self.max = Some(self.max.map_or(value, |max| max.max(value)));
        }
    }

    /// The mean of the values with data.
    pub fn mean(&self) -> Option<f64> {
        (self.with_data > 0).then(|| self.sum / self.with_data as f64)
    }
}
