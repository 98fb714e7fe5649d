//! Units from a descriptor's unit hint, and conversion of raw values into base units.

/// The unit a metric's raw values are in, read from its advisory unit hint.
///
/// Values are reported as scraped, so the raw value is always what the hint says (GPU memory is
/// in mebibytes, for instance). [`to_base`](Unit::to_base) converts into the base unit; the raw
/// values stay available through [`TimeSeries::points`](super::TimeSeries::points).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// `PER_SECOND`: a rate per second.
    PerSecond,
    /// `SECONDS`: a duration in seconds.
    Seconds,
    /// `BYTES`: a size in bytes.
    Bytes,
    /// `MEBIBYTES`: a size in mebibytes (MiB, 1,048,576 bytes).
    Mebibytes,
    /// `COUNT`: a dimensionless tally.
    Count,
    /// `RATIO`: a dimensionless ratio; usually in `[0, 1]` but it may exceed 1 (CPU usage in
    /// cores), so it is never clamped.
    Ratio,
    /// A hint this crate does not know, or none: values are left as they are.
    Unknown,
}

/// Bytes in a mebibyte.
const BYTES_PER_MEBIBYTE: f64 = 1_048_576.0;

impl Unit {
    /// The unit [`to_base`](Unit::to_base) converts into: bytes for mebibytes, itself otherwise.
    pub fn base(self) -> Self {
        match self {
            Self::Mebibytes => Self::Bytes,
            other => other,
        }
    }

    /// Converts a raw value into [`base`](Unit::base) units.
    ///
    /// Mebibytes are multiplied by 1,048,576; every other unit, [`Unit::Unknown`] included, is
    /// returned unchanged (never clamped, so a ratio above 1 stays above 1). A mebibyte value
    /// above `f64::MAX / 1_048_576` overflows to infinity.
    pub fn to_base(self, raw: f64) -> f64 {
        match self {
            Self::Mebibytes => raw * BYTES_PER_MEBIBYTE,
            _ => raw,
        }
    }

    /// A short symbol for display: `/s`, `s`, `B`, `MiB`, `count`, `ratio`; `None` when unknown.
    pub fn symbol(self) -> Option<&'static str> {
        match self {
            Self::PerSecond => Some("/s"),
            Self::Seconds => Some("s"),
            Self::Bytes => Some("B"),
            Self::Mebibytes => Some("MiB"),
            Self::Count => Some("count"),
            Self::Ratio => Some("ratio"),
            Self::Unknown => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_mebibytes_convert() {
        assert_eq!(Unit::Mebibytes.to_base(1.5), 1_572_864.0);
        assert_eq!(Unit::Mebibytes.base(), Unit::Bytes);
        assert_eq!(Unit::Ratio.to_base(3.75), 3.75);
        assert_eq!(Unit::Ratio.base(), Unit::Ratio);
        assert_eq!(Unit::Unknown.to_base(-2.0), -2.0);
        assert_eq!(Unit::Seconds.to_base(0.25), 0.25);
        assert_eq!(Unit::Mebibytes.to_base(f64::MAX), f64::INFINITY);
    }
}
