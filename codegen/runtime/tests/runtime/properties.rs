//! Property tests of the metrics alignment layer (`baseten_api::metrics`), with proptest.
//!
//! - Any well-formed response validates; its long table rebuilds the response exactly (every
//!   `f64` to the bit), its CSV export parses back to the same numbers and labels, and its JSON
//!   decodes back to itself.
//! - Any mutation that breaks one shape rule is reported as that rule's [`AlignmentError`].
//! - No input makes decode, validate or the CSV export panic: arbitrary bytes, arbitrary JSON
//!   trees, and valid documents with a subtree replaced or removed or a few bytes changed; and
//!   on every one of them [`metrics::export_csv`] gives exactly the typed path's CSV or error.
//! - The CSV's value writer is `f64`'s `Display`, byte for byte, on random bit patterns and on
//!   short decimals.
//!
//! Cases per property: `PROPTEST_CASES` (`.ci/run` sets 10000), else 256; 10,000 take about 20 s
//! in a debug build. A failing case is shrunk and its seed saved in a `proptest-regressions/`
//! file beside this one, which is replayed first on later runs.

use std::collections::BTreeMap;

use baseten_api::metrics::{self, AlignmentError, CSV_HEADER};
use baseten_api::models::{
    GetModelMetricsResponseV1, ModelMetricDescriptorV1, ModelMetricKindV1, ModelMetricModeV1,
    ModelMetricUnitHintV1, ModelMetricValueSetV1,
};
use baseten_api::runtime::ServerText;
use proptest::collection::{btree_map, btree_set, vec};
use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::string::string_regex;
use proptest::test_runner::RngAlgorithm;
use serde_json::{Number, Value};

/// Cases per property when `PROPTEST_CASES` is not set.
const DEFAULT_CASES: u32 = 256;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(DEFAULT_CASES);
    ProptestConfig {
        // ChaCha, the default, dominates the run time of a debug build; these tests need
        // variety, not cryptographic randomness.
        rng_algorithm: RngAlgorithm::XorShift,
        ..ProptestConfig::with_cases(cases)
    }
}

/// Cases per property in the slow tier's full-strength run.
const FULL_STRENGTH_CASES: &str = "10000";

/// The property tests of this module again, in a child run of the binary itself at
/// [`FULL_STRENGTH_CASES`]; the normal tier runs each at its quick default.
#[test]
#[ignore = "slow: reruns every property test at 10,000 cases"]
fn every_property_at_full_strength() {
    let binary = std::env::current_exe().expect("the test binary");
    let output = std::process::Command::new(binary)
        .env("PROPTEST_CASES", FULL_STRENGTH_CASES)
        .arg("properties::")
        .output()
        .expect("running the test binary");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let ran = stdout
        .lines()
        .find_map(|line| line.strip_prefix("test result: ok. "))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|count| count.parse::<usize>().ok());
    assert!(
        output.status.success() && ran.is_some_and(|count| count >= 2),
        "the full-strength run of the properties failed or ran nothing:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    eprintln!("{stdout}");
}

// ---------------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------------

/// Most value sets a generated response has; sizes stay small so 10,000 cases run in seconds.
const MAX_VALUE_SETS: usize = 6;

/// Short text, sometimes with the characters CSV must quote (`,` `"` CR LF), `=` and `;` (which
/// the labels column does not escape), non-ASCII, or nothing at all.
fn text() -> BoxedStrategy<String> {
    // Regexes compiled once: a `&str` strategy would parse its regex for every value.
    let regex = |pattern: &str| string_regex(pattern).expect("valid regex");
    prop_oneof![
        4 => regex("[a-z_]{1,10}"),
        2 => regex("[ -~]{0,6}"),
        1 => regex("(?s).{0,5}"),
        1 => select(vec!["", "a,b", "say \"hi\"", "x\ny", "cr\r", "k=v;w", "é✓"]).prop_map(str::to_owned),
    ]
    .boxed()
}

/// A label map: a few keys, sorted as `BTreeMap` keeps them.
fn label_set() -> impl Strategy<Value = BTreeMap<String, String>> {
    btree_map(text(), text(), 0..3)
}

/// A known wire string of an open enum, or an unknown one.
/// Mostly a value the generated enum knows (its `KNOWN` list), sometimes any other string.
fn wire_string<E>(known: &'static [E]) -> impl Strategy<Value = String>
where
    E: Clone + std::fmt::Debug + std::fmt::Display + 'static,
{
    prop_oneof![4 => select(known).prop_map(|value| value.to_string()), 1 => text()]
}

fn descriptor() -> impl Strategy<Value = ModelMetricDescriptorV1> {
    (
        text(),
        wire_string(ModelMetricUnitHintV1::KNOWN),
        wire_string(ModelMetricKindV1::KNOWN),
        vec(label_set(), 0..4),
    )
        .prop_map(|(name, unit_hint, kind, label_sets)| {
            ModelMetricDescriptorV1::new(name, unit_hint, kind, label_sets)
        })
}

/// Any finite `f64`, with the awkward ones well represented: both zeros, subnormals, the
/// extremes, integers and short decimals.
fn finite() -> BoxedStrategy<f64> {
    use proptest::num::f64 as float;
    prop_oneof![
        4 => float::POSITIVE | float::NEGATIVE | float::NORMAL | float::SUBNORMAL | float::ZERO,
        2 => select(vec![
            0.0,
            -0.0,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            f64::EPSILON,
            5e-324,
            -5e-324,
            1e21,
            1e-7,
            1.9733999999999998,
        ]),
        2 => any::<i32>().prop_map(f64::from),
        2 => (any::<i32>(), 0..6_i32).prop_map(|(mantissa, scale)| f64::from(mantissa) / 10_f64.powi(scale)),
    ]
    .boxed()
}

fn value() -> BoxedStrategy<Option<f64>> {
    prop_oneof![1 => Just(None), 4 => finite().prop_map(Some)].boxed()
}

/// The window and the value sets' starts: strictly increasing, the first possibly before the
/// window start, the last no later than the window end (possibly equal: an empty last step).
/// Either realistic epoch milliseconds with irregular steps, or anywhere in `i64`. The
/// boundaries (starts 1 ms apart, a last step ending where it starts) come up often.
fn timeline(sets: std::ops::Range<usize>) -> impl Strategy<Value = (i64, i64, Vec<i64>)> {
    let realistic = (
        0..2_000_000_000_000_i64,
        0..1_000_i64,
        vec(prop_oneof![1 => Just(1), 6 => 1..120_000_i64], sets.clone()),
        prop_oneof![1 => Just(0), 3 => 0..120_000_i64],
    )
        .prop_map(|(window_start, early, steps, tail)| {
            let mut start = window_start - early;
            let starts: Vec<i64> = steps
                .iter()
                .map(|step| {
                    let this = start;
                    start += step;
                    this
                })
                .collect();
            let end = starts.last().map_or(window_start, |last| last + tail);
            (window_start, end, starts)
        });
    let anywhere = (
        any::<i64>(),
        btree_set(any::<i64>(), sets),
        prop_oneof![Just(0), any::<u32>()],
        any::<i64>(),
    )
        .prop_map(|(window_start, starts, tail, lone_end)| {
            let starts: Vec<i64> = starts.into_iter().collect();
            let end = starts
                .last()
                .map_or(lone_end, |last| last.saturating_add(i64::from(tail)));
            (window_start, end, starts)
        });
    prop_oneof![3 => realistic, 1 => anywhere]
}

fn mode() -> impl Strategy<Value = ModelMetricModeV1> {
    wire_string(ModelMetricModeV1::KNOWN).prop_map(ModelMetricModeV1::from)
}

/// A response that passes validation, with at least `min_sets` value sets.
fn well_formed(min_sets: usize) -> impl Strategy<Value = GetModelMetricsResponseV1> {
    (
        vec(descriptor(), 0..5),
        timeline(min_sets..MAX_VALUE_SETS + 1),
        mode(),
        any::<Option<i64>>(),
    )
        .prop_flat_map(|(descriptors, (start, end, starts), mode, step_seconds)| {
            // One value list per descriptor, one value per label set.
            let shape: Vec<_> = descriptors
                .iter()
                .map(|descriptor| vec(value(), descriptor.label_sets.len()))
                .collect();
            let sets: Vec<_> = starts
                .into_iter()
                .map(|set_start| (Just(set_start), shape.clone()))
                .collect();
            // A summary has exactly one value set; otherwise call it a series.
            let mode = if mode == ModelMetricModeV1::Summary && sets.len() != 1 {
                ModelMetricModeV1::Series
            } else {
                mode
            };
            (Just((descriptors, start, end, mode, step_seconds)), sets)
        })
        .prop_map(
            |((metric_descriptors, start, end, mode, step_seconds), sets)| {
                GetModelMetricsResponseV1::new(
                    start,
                    end,
                    mode,
                    step_seconds,
                    metric_descriptors,
                    sets.into_iter()
                        .map(|(start_epoch_millis, values)| {
                            ModelMetricValueSetV1::new(start_epoch_millis, values)
                        })
                        .collect::<Vec<_>>(),
                )
            },
        )
}

// ---------------------------------------------------------------------------------------------
// a. Well-formed responses round-trip through the long table and the CSV
// ---------------------------------------------------------------------------------------------

/// A descriptor's name, unit hint, kind and label sets.
type DescriptorParts = (String, String, String, Vec<BTreeMap<String, String>>);

/// Everything in a response, with values as bit patterns so that `-0.0` differs from `0.0`.
#[derive(Debug, PartialEq)]
struct Exact {
    window: (i64, i64),
    mode: String,
    step_seconds: Option<i64>,
    descriptors: Vec<DescriptorParts>,
    value_sets: Vec<(i64, Vec<Vec<Option<u64>>>)>,
}

fn exact(r: &GetModelMetricsResponseV1) -> Exact {
    Exact {
        window: (r.start_epoch_millis, r.end_epoch_millis),
        mode: r.mode.as_str().to_owned(),
        step_seconds: r.step_seconds,
        descriptors: r
            .metric_descriptors
            .iter()
            .map(|d| {
                (
                    d.name.clone(),
                    d.unit_hint.as_str().to_owned(),
                    d.kind.as_str().to_owned(),
                    d.label_sets.clone(),
                )
            })
            .collect(),
        value_sets: r
            .metric_values
            .iter()
            .map(|set| {
                let values = set
                    .values
                    .iter()
                    .map(|list| list.iter().map(|v| v.map(f64::to_bits)).collect())
                    .collect();
                (set.start_epoch_millis, values)
            })
            .collect(),
    }
}

/// Rebuilds the response from the view: metadata and descriptors from the metrics, and every
/// value from the long table, whose rows must come in response order and cover each cell once.
fn rebuild(r: &GetModelMetricsResponseV1) -> Result<GetModelMetricsResponseV1, TestCaseError> {
    let view = metrics::validate(r).map_err(|e| TestCaseError::fail(format!("invalid: {e}")))?;
    let metric_descriptors: Vec<ModelMetricDescriptorV1> = view
        .metrics()
        .map(|metric| {
            ModelMetricDescriptorV1::new(
                metric.name,
                metric.unit_hint.unwrap_or_default(),
                metric.kind.unwrap_or_default(),
                metric
                    .series()
                    .map(|s| s.labels.clone())
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    // Every cell starts empty; `Some(None)` will be "no data", `Some(Some(v))` a value.
    let mut cells: Vec<Vec<Vec<Option<Option<f64>>>>> = view
        .steps()
        .map(|_| {
            metric_descriptors
                .iter()
                .map(|d| vec![None; d.label_sets.len()])
                .collect()
        })
        .collect();
    let mut starts: Vec<Option<i64>> = vec![None; view.step_count()];
    let mut previous: Option<(usize, usize, usize)> = None;
    let total = view.step_count() * view.series_count();
    let mut rows = 0;
    let mut long_rows = view.long_rows();
    loop {
        // The size hint must bound what is left.
        let remaining = total.saturating_sub(rows);
        let (low, high) = long_rows.size_hint();
        prop_assert!(low <= remaining && high.is_none_or(|high| remaining <= high));
        let Some(row) = long_rows.next() else { break };
        rows += 1;
        let key = (
            row.step.index,
            row.series.descriptor_index,
            row.series.label_index,
        );
        prop_assert!(previous < Some(key), "rows out of order at {key:?}");
        previous = Some(key);
        let descriptor = &metric_descriptors[key.1];
        prop_assert_eq!(row.series.name, descriptor.name.as_str());
        prop_assert_eq!(row.series.labels, &descriptor.label_sets[key.2]);
        let end = r
            .metric_values
            .get(key.0 + 1)
            .map_or(r.end_epoch_millis, |next| next.start_epoch_millis);
        prop_assert_eq!(row.step.end_ms, end);
        starts[key.0] = Some(row.step.start_ms);
        cells[key.0][key.1][key.2] = Some(row.value);
    }
    prop_assert_eq!(rows, total);
    let metric_values: Vec<ModelMetricValueSetV1> = view
        .steps()
        .zip(cells)
        .zip(starts)
        .map(|((step, cells), start)| {
            let values: Vec<Vec<Option<f64>>> = cells
                .into_iter()
                .map(|list| list.into_iter().map(Option::flatten).collect())
                .collect();
            // A step with no series has no rows; its start is metadata.
            ModelMetricValueSetV1::new(start.unwrap_or(step.start_ms), values)
        })
        .collect();
    Ok(GetModelMetricsResponseV1::new(
        view.window_start_ms(),
        view.window_end_ms(),
        view.mode().unwrap_or_default(),
        view.step_seconds(),
        metric_descriptors,
        metric_values,
    ))
}

/// The labels column as the contract states it: `k=v` pairs in key order, joined by `;`.
fn labels_column(labels: &BTreeMap<String, String>) -> String {
    let mut pairs: Vec<(&String, &String)> = labels.iter().collect();
    pairs.sort();
    let pairs: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
    pairs.join(";")
}

/// Parses the CSV export and checks each record against the response itself.
fn check_csv(r: &GetModelMetricsResponseV1) -> Result<(), TestCaseError> {
    let view = metrics::validate(r).map_err(|e| TestCaseError::fail(format!("invalid: {e}")))?;
    let csv = view.to_csv();
    prop_assert!(csv.ends_with('\n'));
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv.as_bytes());
    let mut records = reader.records();
    let header = records
        .next()
        .ok_or_else(|| TestCaseError::fail("no header"))?
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(header.iter().collect::<Vec<_>>(), CSV_HEADER);
    for (index, set) in r.metric_values.iter().enumerate() {
        let end = r
            .metric_values
            .get(index + 1)
            .map_or(r.end_epoch_millis, |next| next.start_epoch_millis);
        for (descriptor, list) in r.metric_descriptors.iter().zip(&set.values) {
            for (labels, value) in descriptor.label_sets.iter().zip(list) {
                let record = records
                    .next()
                    .ok_or_else(|| TestCaseError::fail("too few records"))?
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(record.len(), 5);
                prop_assert_eq!(record[0].parse::<i64>().ok(), Some(set.start_epoch_millis));
                prop_assert_eq!(record[1].parse::<i64>().ok(), Some(end));
                prop_assert_eq!(&record[2], descriptor.name.as_str());
                let labels = labels_column(labels);
                prop_assert_eq!(&record[3], labels.as_str());
                match value {
                    None => prop_assert_eq!(&record[4], ""),
                    Some(value) => {
                        prop_assert!(!record[4].contains(['e', 'E']), "exponent: {}", &record[4]);
                        let parsed = record[4].parse::<f64>().map(f64::to_bits).ok();
                        prop_assert_eq!(parsed, Some(value.to_bits()), "{}", &record[4]);
                    }
                }
            }
        }
    }
    prop_assert!(records.next().is_none(), "too many records");
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn well_formed_responses_round_trip(r in well_formed(0)) {
        let rebuilt = rebuild(&r)?;
        prop_assert_eq!(exact(&rebuilt), exact(&r));
        check_csv(&r)?;
        // And through JSON: serde_json writes the shortest round-tripping digits, and decode
        // (with `float_roundtrip`) reads them back to the same bits.
        let json = serde_json::to_vec(&r).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let decoded: GetModelMetricsResponseV1 = metrics::decode(&json)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(exact(&decoded), exact(&r));
        export_matches_typed(&json)?;
    }
}

// ---------------------------------------------------------------------------------------------
// a'. The CSV's numbers are `Display`'s
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn values_are_written_as_display_writes_them(bits in any::<u64>()) {
        let value = f64::from_bits(bits);
        prop_assert_eq!(metrics::format_value(value), value.to_string());
    }

    #[test]
    fn short_decimals_are_written_as_display_writes_them(
        digits in 0u64..10_000_000_000,
        scale in -30i32..30,
        negative in any::<bool>(),
    ) {
        let magnitude = digits as f64 * 10f64.powi(scale);
        let value = if negative { -magnitude } else { magnitude };
        prop_assert_eq!(metrics::format_value(value), value.to_string());
        // The same value parsed from its decimal text, as a response carries it.
        let text = format!("{}e{scale}", digits);
        let parsed: f64 = text.parse().map_err(|_| TestCaseError::fail(text.clone()))?;
        prop_assert_eq!(metrics::format_value(parsed), parsed.to_string());
    }
}

// ---------------------------------------------------------------------------------------------
// b. Each broken shape rule is reported as its error
// ---------------------------------------------------------------------------------------------

/// One way to break a well-formed response (of at least two value sets).
#[derive(Debug, Clone)]
enum Mutation {
    /// Remove one descriptor's value list from a value set.
    DropOuter { set: Index, descriptor: Index },
    /// Add a value list to a value set.
    AddOuter { set: Index, list: Vec<Option<f64>> },
    /// Remove one value from a descriptor's list.
    DropInner {
        set: Index,
        descriptor: Index,
        label_set: Index,
    },
    /// Add a value to a descriptor's list.
    AddInner {
        set: Index,
        descriptor: Index,
        value: Option<f64>,
    },
    /// Move a value set's start to at or before the previous one's.
    NotIncreasing { set: Index, back_by: u32 },
    /// Move the window end before the last value set's start (by 1 ms for `None`).
    AfterWindowEnd { before_by: Option<Index> },
    /// Make one value NaN or infinite.
    NonFinite {
        set: Index,
        series: Index,
        value: f64,
    },
    /// Make a summary of no value sets, or of all of them (two or more).
    Summary { empty: bool },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<Index>(), any::<Index>())
            .prop_map(|(set, descriptor)| Mutation::DropOuter { set, descriptor }),
        (any::<Index>(), vec(value(), 0..3))
            .prop_map(|(set, list)| Mutation::AddOuter { set, list }),
        (any::<Index>(), any::<Index>(), any::<Index>()).prop_map(
            |(set, descriptor, label_set)| {
                Mutation::DropInner {
                    set,
                    descriptor,
                    label_set,
                }
            }
        ),
        (any::<Index>(), any::<Index>(), value()).prop_map(|(set, descriptor, value)| {
            Mutation::AddInner {
                set,
                descriptor,
                value,
            }
        }),
        (any::<Index>(), prop_oneof![Just(0), Just(1), any::<u32>()])
            .prop_map(|(set, back_by)| Mutation::NotIncreasing { set, back_by }),
        proptest::option::of(any::<Index>())
            .prop_map(|before_by| Mutation::AfterWindowEnd { before_by }),
        (
            any::<Index>(),
            any::<Index>(),
            select(vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY])
        )
            .prop_map(|(set, series, value)| Mutation::NonFinite { set, series, value }),
        any::<bool>().prop_map(|empty| Mutation::Summary { empty }),
    ]
}

/// Makes sure some descriptor has a label set (adding a descriptor or a label set, with values
/// in every value set, if none does); returns the indices of those that do.
fn with_series(r: &mut GetModelMetricsResponseV1) -> Vec<usize> {
    if r.metric_descriptors.is_empty() {
        r.metric_descriptors.push(ModelMetricDescriptorV1::new(
            "added",
            "COUNT",
            "GAUGE",
            Vec::new(),
        ));
        r.metric_values
            .iter_mut()
            .for_each(|set| set.values.push(Vec::new()));
    }
    if r.metric_descriptors.iter().all(|d| d.label_sets.is_empty()) {
        r.metric_descriptors[0].label_sets.push(BTreeMap::new());
        r.metric_values
            .iter_mut()
            .for_each(|set| set.values[0].push(Some(1.0)));
    }
    let eligible: Vec<usize> = (0..r.metric_descriptors.len())
        .filter(|&d| !r.metric_descriptors[d].label_sets.is_empty())
        .collect();
    debug_assert!(metrics::validate(r).is_ok());
    eligible
}

/// Applies the mutation and returns the error `validate` must report.
fn break_response(r: &mut GetModelMetricsResponseV1, mutation: &Mutation) -> AlignmentError {
    let sets = r.metric_values.len();
    let descriptor_count = r.metric_descriptors.len();
    match *mutation {
        Mutation::DropOuter { set, descriptor } => {
            let eligible = with_series(r);
            let (k, d) = (set.index(sets), *descriptor.get(&eligible));
            r.metric_values[k].values.remove(d);
            AlignmentError::DescriptorCountMismatch {
                value_set: k,
                expected: r.metric_descriptors.len(),
                actual: r.metric_descriptors.len() - 1,
            }
        }
        Mutation::AddOuter { set, ref list } => {
            let k = set.index(sets);
            r.metric_values[k].values.push(list.clone());
            AlignmentError::DescriptorCountMismatch {
                value_set: k,
                expected: descriptor_count,
                actual: descriptor_count + 1,
            }
        }
        Mutation::DropInner {
            set,
            descriptor,
            label_set,
        } => {
            let eligible = with_series(r);
            let (k, d) = (set.index(sets), *descriptor.get(&eligible));
            let expected = r.metric_descriptors[d].label_sets.len();
            r.metric_values[k].values[d].remove(label_set.index(expected));
            AlignmentError::LabelSetCountMismatch {
                value_set: k,
                descriptor: d,
                name: ServerText::new(r.metric_descriptors[d].name.clone()),
                expected,
                actual: expected - 1,
            }
        }
        Mutation::AddInner {
            set,
            descriptor,
            value,
        } => {
            with_series(r);
            let k = set.index(sets);
            let d = descriptor.index(r.metric_descriptors.len());
            let expected = r.metric_descriptors[d].label_sets.len();
            r.metric_values[k].values[d].push(value);
            AlignmentError::LabelSetCountMismatch {
                value_set: k,
                descriptor: d,
                name: ServerText::new(r.metric_descriptors[d].name.clone()),
                expected,
                actual: expected + 1,
            }
        }
        Mutation::NotIncreasing { set, back_by } => {
            // Any set but the first.
            let k = 1 + set.index(sets - 1);
            let previous_start_ms = r.metric_values[k - 1].start_epoch_millis;
            let start_ms = previous_start_ms.saturating_sub(i64::from(back_by));
            r.metric_values[k].start_epoch_millis = start_ms;
            AlignmentError::StartNotIncreasing {
                value_set: k,
                start_ms,
                previous_start_ms,
            }
        }
        Mutation::AfterWindowEnd { before_by } => {
            // Between the last two starts, so only the last set is past the end.
            let start_ms = r.metric_values[sets - 1].start_epoch_millis;
            let previous = r.metric_values[sets - 2].start_epoch_millis;
            let gap = start_ms.abs_diff(previous);
            let back =
                1 + before_by.map_or(0, |by| by.index(usize::try_from(gap).unwrap_or(usize::MAX)));
            let window_end_ms = start_ms - i64::try_from(back).unwrap_or(i64::MAX);
            r.end_epoch_millis = window_end_ms;
            AlignmentError::StepAfterWindowEnd {
                value_set: sets - 1,
                start_ms,
                window_end_ms,
            }
        }
        Mutation::NonFinite { set, series, value } => {
            with_series(r);
            let k = set.index(sets);
            let cells: Vec<(usize, usize)> = r
                .metric_descriptors
                .iter()
                .enumerate()
                .flat_map(|(d, descriptor)| (0..descriptor.label_sets.len()).map(move |l| (d, l)))
                .collect();
            let (d, l) = *series.get(&cells);
            r.metric_values[k].values[d][l] = Some(value);
            AlignmentError::NonFiniteValue {
                value_set: k,
                descriptor: d,
                name: ServerText::new(r.metric_descriptors[d].name.clone()),
                label_set: l,
                value,
            }
        }
        Mutation::Summary { empty } => {
            r.mode = ModelMetricModeV1::Summary;
            if empty {
                r.metric_values.clear();
            }
            AlignmentError::SummaryValueSetCount {
                count: r.metric_values.len(),
            }
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn each_broken_rule_is_its_error(mut r in well_formed(2), mutation in mutation()) {
        let expected = break_response(&mut r, &mutation);
        let actual = match metrics::validate(&r) {
            Ok(_) => return Err(TestCaseError::fail("validated")),
            Err(error) => error,
        };
        // NaN is not equal to itself: compare a non-finite value by its bits, the rest by `==`.
        let (mut actual_cmp, mut expected_cmp) = (actual.clone(), expected);
        if let (
            AlignmentError::NonFiniteValue { value: a, .. },
            AlignmentError::NonFiniteValue { value: e, .. },
        ) = (&mut actual_cmp, &mut expected_cmp)
        {
            prop_assert_eq!(a.to_bits(), e.to_bits());
            (*a, *e) = (0.0, 0.0);
        }
        prop_assert_eq!(actual_cmp, expected_cmp);
        let message = actual.to_string();
        prop_assert!(!message.contains('\n'), "{}", message);
    }
}

// ---------------------------------------------------------------------------------------------
// c. No input panics
// ---------------------------------------------------------------------------------------------

/// The typed path: decode, the checks of a fetched response, the CSV; or the first error, as
/// `export_csv` words it.
fn typed_outcome(bytes: &[u8]) -> Result<String, String> {
    let response: GetModelMetricsResponseV1 =
        metrics::decode(bytes).map_err(|error| format!("invalid response: {error}"))?;
    let view = metrics::validate_response(&response).map_err(|error| error.to_string())?;
    Ok(view.to_csv())
}

/// [`metrics::export_csv`] must give exactly what the typed path gives, and write nothing when
/// it fails.
fn export_matches_typed(bytes: &[u8]) -> Result<(), TestCaseError> {
    let mut csv = Vec::new();
    let exported = metrics::export_csv::<GetModelMetricsResponseV1, _>(bytes, &mut csv)
        .map(|()| String::from_utf8_lossy(&csv).into_owned())
        .map_err(|error| error.to_string());
    if exported.is_err() {
        prop_assert!(csv.is_empty());
    }
    prop_assert_eq!(exported, typed_outcome(bytes));
    Ok(())
}

/// Decodes, validates and exports; on success the CSV must have a row per step and series.
fn exercise(bytes: &[u8]) -> Result<(), TestCaseError> {
    export_matches_typed(bytes)?;
    let response = match metrics::decode::<GetModelMetricsResponseV1>(bytes) {
        Ok(response) => response,
        Err(error) => {
            let message = error.to_string();
            prop_assert!(!error.path().is_empty(), "{}", message);
            let _ = (error.location(), error.line(), error.column());
            return Ok(());
        }
    };
    let view = match metrics::validate(&response) {
        Ok(view) => view,
        Err(error) => {
            let message = error.to_string();
            prop_assert!(!message.contains('\n'), "{}", message);
            return Ok(());
        }
    };
    let csv = view.to_csv();
    prop_assert!(csv.starts_with("step_start_ms,step_end_ms,metric,labels,value\n"));
    let records = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(csv.as_bytes())
        .records()
        .count();
    prop_assert_eq!(records, view.step_count() * view.series_count());
    prop_assert_eq!(view.long_rows().count(), records);
    let _ = format!("{view:?} {:?}", view.wide_table());
    Ok(())
}

/// The response's field names, so that random objects sometimes look like parts of one.
const FIELD_NAMES: &[&str] = &[
    "start_epoch_millis",
    "end_epoch_millis",
    "mode",
    "step_seconds",
    "metric_descriptors",
    "metric_values",
    "name",
    "unit_hint",
    "kind",
    "label_sets",
    "values",
];

fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        finite().prop_map(|v| Number::from_f64(v).map_or(Value::Null, Value::Number)),
        prop_oneof![
            select(vec!["SERIES", "SUMMARY", "CURRENT", "COUNT", "GAUGE"]).prop_map(str::to_owned),
            text(),
        ]
        .prop_map(Value::String),
    ]
}

/// A JSON tree of modest size, objects keyed mostly by the response's field names.
fn json() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(4, 48, 6, |inner| {
        let key = prop_oneof![3 => select(FIELD_NAMES).prop_map(str::to_owned), 1 => text()];
        prop_oneof![
            vec(inner.clone(), 0..6).prop_map(Value::Array),
            btree_map(key, inner, 0..7).prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// Number of nodes in a JSON tree.
fn node_count(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(node_count).sum(),
        Value::Object(map) => map.values().map(node_count).sum(),
        _ => 0,
    }
}

/// Replaces the `n`th node in pre-order by `with` (removes it, when `with` is `None` and it is
/// not the root). Returns whether it was found below `value`.
fn edit_node(value: &mut Value, n: &mut usize, with: Option<&Value>) -> bool {
    if *n == 0 {
        if let Some(with) = with {
            *value = with.clone();
        }
        return true;
    }
    *n -= 1;
    match value {
        Value::Array(items) => {
            for i in 0..items.len() {
                if *n == 0 && with.is_none() {
                    items.remove(i);
                    return true;
                }
                if edit_node(&mut items[i], n, with) {
                    return true;
                }
            }
            false
        }
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                if *n == 0 && with.is_none() {
                    map.remove(&key);
                    return true;
                }
                if let Some(child) = map.get_mut(&key)
                    && edit_node(child, n, with)
                {
                    return true;
                }
            }
            false
        }
        _ => false,
    }
}

/// A small change to a well-formed response's bytes.
#[derive(Debug, Clone)]
enum ByteEdit {
    Flip(Index, u8),
    Insert(Index, u8),
    Remove(Index),
    Truncate(Index),
}

fn byte_edit() -> impl Strategy<Value = ByteEdit> {
    let byte = prop_oneof![select(b"{}[]\",:0123456789-.eE nul".to_vec()), any::<u8>()];
    prop_oneof![
        (any::<Index>(), byte.clone()).prop_map(|(at, b)| ByteEdit::Flip(at, b)),
        (any::<Index>(), byte).prop_map(|(at, b)| ByteEdit::Insert(at, b)),
        any::<Index>().prop_map(ByteEdit::Remove),
        any::<Index>().prop_map(ByteEdit::Truncate),
    ]
}

fn to_json(value: &impl serde::Serialize) -> Result<Vec<u8>, TestCaseError> {
    serde_json::to_vec(value).map_err(|e| TestCaseError::fail(e.to_string()))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_bytes_do_not_panic(bytes in vec(any::<u8>(), 0..256)) {
        exercise(&bytes)?;
    }

    #[test]
    fn arbitrary_json_does_not_panic(value in json()) {
        exercise(&to_json(&value)?)?;
    }

    #[test]
    fn a_response_with_a_subtree_replaced_or_removed_does_not_panic(
        r in well_formed(0),
        replacement in proptest::option::of(json()),
        at in any::<Index>(),
    ) {
        let mut value = serde_json::to_value(&r).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut n = at.index(node_count(&value));
        edit_node(&mut value, &mut n, replacement.as_ref());
        exercise(&to_json(&value)?)?;
    }

    #[test]
    fn a_response_with_bytes_changed_does_not_panic(
        r in well_formed(0),
        edits in vec(byte_edit(), 1..4),
    ) {
        let mut bytes = to_json(&r)?;
        for edit in &edits {
            match *edit {
                ByteEdit::Flip(at, b) if !bytes.is_empty() => {
                    let i = at.index(bytes.len());
                    bytes[i] = b;
                }
                ByteEdit::Insert(at, b) => bytes.insert(at.index(bytes.len() + 1), b),
                ByteEdit::Remove(at) if !bytes.is_empty() => {
                    bytes.remove(at.index(bytes.len()));
                }
                ByteEdit::Truncate(at) => bytes.truncate(at.index(bytes.len() + 1)),
                _ => {}
            }
        }
        exercise(&bytes)?;
    }
}
