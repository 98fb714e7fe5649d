//! The one rule by which a label's value matches what a caller asked for, below every lookup
//! (by label set in `view.rs`, by quantile number in `labels.rs` and `aggregate.rs`).

/// Label key of a histogram's quantile series, e.g. `{"quantile": "0.99"}`.
pub(super) const QUANTILE_LABEL: &str = "quantile";

/// Whether a series' label `key: value` matches the `wanted` value: a `quantile` is a number,
/// so `"0.95"`, `"0.950"` and `"9.5e-1"` are the same quantile; every other label (and a
/// quantile that is not a finite number on either side) is compared as text.
pub(super) fn label_matches(key: &str, value: &str, wanted: &str) -> bool {
    if key == QUANTILE_LABEL
        && let (Some(value), Some(wanted)) = (quantile_number(value), quantile_number(wanted))
    {
        return value == wanted;
    }
    value == wanted
}

/// A `quantile` label's value as a number, when it is a finite one (`str::parse` also takes
/// `NaN` and `inf`, which are no quantiles).
pub(super) fn quantile_number(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|number| number.is_finite())
}

#[cfg(test)]
mod tests {
    use super::{label_matches, quantile_number};

    #[test]
    fn quantiles_match_by_number_and_other_labels_by_text() {
        for (value, wanted, matches) in [
            ("0.95", "0.95", true),
            ("0.950", "0.95", true),
            ("0.95", "0.950", true),
            ("9.5e-1", "0.95", true),
            (".5", "0.5", true),
            ("1", "1.0", true),
            ("0.95", "0.9", false),
            ("0.99", "0.999", false),
            // Not numbers: text, exactly.
            ("p95", "p95", true),
            ("p95", "0.95", false),
            ("NaN", "NaN", true),
            ("NaN", "nan", false),
            ("inf", "1e999", false),
        ] {
            assert_eq!(
                label_matches("quantile", value, wanted),
                matches,
                "{value:?} vs {wanted:?}"
            );
        }
        // Any other key is text, numbers or not.
        assert!(!label_matches("zone", "0.950", "0.95"));
        assert!(label_matches("zone", "0.95", "0.95"));
        assert!(!label_matches("status", "5xx", "5XX"));
        assert_eq!(quantile_number("0.25"), Some(0.25));
        assert_eq!(quantile_number("-inf"), None);
        assert_eq!(quantile_number("x"), None);
    }
}
