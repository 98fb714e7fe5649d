//! Benchmarks of metrics alignment on a large `SERIES` response: what reading a response by
//! position through [`baseten_api::metrics`] costs over decoding it, and against walking a
//! `serde_json::Value` by hand.
//!
//! Run with `cargo bench -p baseten-api --bench alignment` (divan; add a filter such as
//! `decode` to run some). The response is built in memory once: 5,000 steps × 40 metrics × 1 to 7
//! label sets (155 series, about 4 per metric), about 5% of values null; 775,000 rows, 7.3 MB of
//! JSON. `ALIGNMENT_BENCH_STEPS=500` sets another number of steps.
//!
//! - `decode/*`: JSON bytes to `GetModelMetricsResponseV1`, by `serde_json::from_slice` and by
//!   [`metrics::decode`] (which reports a failure's JSON path).
//! - `decode_and_align/*`: decode, [`metrics::validate`], then every
//!   [`long_rows`](metrics::MetricsView::long_rows) row: what a user of the alignment layer pays.
//! - `value_walk`: parse to `serde_json::Value`, then index descriptors and values by hand, with
//!   the same checks, producing the same rows.
//! - `parts/*`, on a response decoded beforehand: `validate`, `long_rows` (rows of a validated
//!   view), and `typed_loop`, a hand-written nested loop over the typed response's fields, the
//!   least any reader of the rows pays.
//!
//! `ALIGNMENT_BENCH_PAIRED=1` runs, instead of divan, the three pipelines (typed decode; decode,
//! validate and rows; `Value` walk) interleaved round by round and prints their ratios: on a
//! shared machine whose speed drifts, that compares like with like where benches run one after
//! another cannot. It then does the same for the CSV export: a careful `Value` walk writing the
//! contract (labels text once per series, one reused csv byte record), the typed path
//! (`decode`, `validate_response`, `write_csv`) and [`metrics::export_csv`], checking that all
//! three write the same bytes.
//!
//! For whole-process figures (`hyperfine`, `/usr/bin/time -v`): `ALIGNMENT_BENCH_DUMP=FILE`
//! writes the response's JSON to `FILE`; `ALIGNMENT_BENCH_EXPORT=value-walk|typed|compact` with
//! `ALIGNMENT_BENCH_INPUT=FILE` writes that file's CSV to standard output one of the three ways.
//!
//! Every variant folds each row (step start and end, metric name, label count, value) into the
//! same [`Tally`], so they do the same work per row. Each returns what it decoded, so that divan
//! drops it outside the timed section in every variant alike (freeing a decoded response costs
//! about as much as aligning it).

use std::hint::black_box;
use std::sync::LazyLock;

use baseten_api::metrics;
use baseten_api::models::{
    GetModelMetricsResponseV1, ModelMetricDescriptorV1, ModelMetricValueSetV1,
};
use divan::Bencher;
use divan::counter::{BytesCount, ItemsCount};
use serde_json::Value;

fn main() {
    if let Some(path) = std::env::var_os("ALIGNMENT_BENCH_DUMP") {
        std::fs::write(&path, &*JSON).expect("writing the response");
        return;
    }
    if let Some(exporter) = std::env::var_os("ALIGNMENT_BENCH_EXPORT") {
        export_process(&exporter.to_string_lossy());
        return;
    }
    eprintln!(
        "response: {:.1} MB of JSON, {} steps x {METRICS} metrics ({SERIES} series), {} rows",
        JSON.len() as f64 / 1e6,
        *STEPS,
        rows()
    );
    if std::env::var_os("ALIGNMENT_BENCH_PAIRED").is_some() {
        paired(60);
        paired_csv(20);
    } else {
        divan::main();
    }
}

/// One whole-process CSV export, for `hyperfine` and `/usr/bin/time -v`: reads the file named
/// by `ALIGNMENT_BENCH_INPUT` and writes its CSV to standard output with `exporter`
/// (`value-walk`, `typed` or `compact`).
fn export_process(exporter: &str) {
    let path = std::env::var_os("ALIGNMENT_BENCH_INPUT").expect("ALIGNMENT_BENCH_INPUT is set");
    let json = std::fs::read(path).expect("reading the response");
    let stdout = std::io::stdout().lock();
    match exporter {
        "value-walk" => value_walk_csv(&json, stdout),
        "typed" => typed_csv(&json, stdout),
        "compact" => compact_csv(&json, stdout),
        other => panic!("unknown exporter {other:?}"),
    }
}

/// The CSV by the typed path: decode, validate, `write_csv`.
fn typed_csv(json: &[u8], out: impl std::io::Write) {
    let response: GetModelMetricsResponseV1 = metrics::decode(json).expect("decodes");
    let view = metrics::validate_response(&response).expect("validates");
    view.write_csv(out).expect("writes");
}

/// The CSV by [`metrics::export_csv`], which holds the values compactly.
fn compact_csv(json: &[u8], out: impl std::io::Write) {
    metrics::export_csv::<GetModelMetricsResponseV1, _>(json, out).expect("exports");
}

/// The same CSV from a `serde_json::Value`, written with care: the labels text once per series,
/// one reused record, the csv crate's byte-record writer, values by `Display`.
fn value_walk_csv(json: &[u8], out: impl std::io::Write) {
    use std::fmt::Write as _;
    let root: Value = serde_json::from_slice(json).expect("valid JSON");
    let end_ms = root["end_epoch_millis"].as_i64().expect("window end");
    let series: Vec<Vec<(&str, String)>> = root["metric_descriptors"]
        .as_array()
        .expect("descriptor list")
        .iter()
        .map(|descriptor| {
            let name = descriptor["name"].as_str().expect("metric name");
            descriptor["label_sets"]
                .as_array()
                .expect("label sets")
                .iter()
                .map(|labels| {
                    let mut pairs: Vec<(&String, &Value)> =
                        labels.as_object().expect("label map").iter().collect();
                    pairs.sort_by(|a, b| a.0.cmp(b.0));
                    let text: Vec<String> = pairs
                        .iter()
                        .map(|(k, v)| format!("{k}={}", v.as_str().expect("label value")))
                        .collect();
                    (name, text.join(";"))
                })
                .collect()
        })
        .collect();
    let sets = root["metric_values"].as_array().expect("value sets");
    let starts: Vec<i64> = sets
        .iter()
        .map(|set| set["start_epoch_millis"].as_i64().expect("step start"))
        .collect();
    assert!(starts.windows(2).all(|pair| pair[0] < pair[1]));
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(out);
    writer
        .write_record(metrics::CSV_HEADER)
        .expect("writes the header");
    let mut record = csv::ByteRecord::new();
    let mut value_text = String::new();
    for (index, set) in sets.iter().enumerate() {
        let start = starts[index].to_string();
        let end = starts.get(index + 1).copied().unwrap_or(end_ms).to_string();
        let values = set["values"].as_array().expect("values");
        assert_eq!(values.len(), series.len());
        for (labelled, list) in series.iter().zip(values) {
            let list = list.as_array().expect("value list");
            assert_eq!(list.len(), labelled.len());
            for ((name, labels), value) in labelled.iter().zip(list) {
                value_text.clear();
                if !value.is_null() {
                    let _ = write!(value_text, "{}", value.as_f64().expect("a number"));
                }
                record.clear();
                record.push_field(start.as_bytes());
                record.push_field(end.as_bytes());
                record.push_field(name.as_bytes());
                record.push_field(labels.as_bytes());
                record.push_field(value_text.as_bytes());
                writer.write_byte_record(&record).expect("writes a row");
            }
        }
    }
    writer.flush().expect("flushes");
}

/// A CSV exporter writing into memory.
type Exporter = fn(&[u8], &mut Vec<u8>);

/// Times the CSV export three ways (`Value` walk, typed, compact) in turn, `rounds` times, and
/// prints the median ratios to the `Value` walk.
fn paired_csv(rounds: usize) {
    use std::time::Instant;
    let json = &*JSON;
    let mut out = Vec::with_capacity(64 << 20);
    let mut times: [Vec<f64>; 3] = Default::default();
    let mut outputs: [usize; 3] = [0; 3];
    for _ in 0..rounds {
        let exporters: [Exporter; 3] = [
            |json, out| value_walk_csv(json, out),
            |json, out| typed_csv(json, out),
            |json, out| compact_csv(json, out),
        ];
        for (slot, export) in exporters.into_iter().enumerate() {
            out.clear();
            let start = Instant::now();
            export(black_box(json), &mut out);
            times[slot].push(start.elapsed().as_secs_f64() * 1e3);
            outputs[slot] = out.len();
        }
    }
    assert!(outputs.iter().all(|&len| len == outputs[0]), "{outputs:?}");
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let ratio = |slot: usize, times: &[Vec<f64>; 3]| {
        let mut ratios: Vec<f64> = (0..rounds).map(|i| times[slot][i] / times[0][i]).collect();
        median(&mut ratios)
    };
    let (typed, compact) = (ratio(1, &times), ratio(2, &times));
    for (name, times) in ["Value walk CSV", "typed CSV", "compact CSV (export_csv)"]
        .iter()
        .zip(&mut times)
    {
        let fastest = times.iter().copied().fold(f64::INFINITY, f64::min);
        let median = median(times);
        eprintln!("{name:>26}: fastest {fastest:7.2} ms, median {median:7.2} ms");
    }
    eprintln!(
        "CSV of {:.1} MB: typed takes {typed:.2}x and compact {compact:.2}x the Value walk's time (medians of {rounds} rounds)",
        outputs[0] as f64 / 1e6
    );
}

/// Times typed decode, decode + validate + rows, and the `Value` walk in turn, `rounds` times,
/// and prints each one's fastest and median time and the median of the per-round ratios.
fn paired(rounds: usize) {
    use std::time::Instant;
    let json = &*JSON;
    let mut times: [Vec<f64>; 3] = Default::default();
    for _ in 0..rounds {
        let start = Instant::now();
        let response: GetModelMetricsResponseV1 =
            serde_json::from_slice(black_box(json)).expect("decodes");
        times[0].push(start.elapsed().as_secs_f64() * 1e3);
        drop(black_box(response));

        let start = Instant::now();
        let response: GetModelMetricsResponseV1 =
            metrics::decode(black_box(json)).expect("decodes");
        black_box(align(&response));
        times[1].push(start.elapsed().as_secs_f64() * 1e3);
        drop(black_box(response));

        let start = Instant::now();
        let (root, tally) = value_walk(black_box(json));
        black_box(tally);
        times[2].push(start.elapsed().as_secs_f64() * 1e3);
        drop(black_box(root));
    }
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let mut overhead: Vec<f64> = (0..rounds).map(|i| times[1][i] / times[0][i]).collect();
    let mut walk: Vec<f64> = (0..rounds).map(|i| times[2][i] / times[1][i]).collect();
    let (overhead, walk) = (median(&mut overhead), median(&mut walk));
    for (name, times) in ["typed decode", "decode + validate + rows", "Value walk"]
        .iter()
        .zip(&mut times)
    {
        let fastest = times.iter().copied().fold(f64::INFINITY, f64::min);
        let median = median(times);
        eprintln!("{name:>26}: fastest {fastest:7.2} ms, median {median:7.2} ms");
    }
    eprintln!(
        "alignment adds {:.1}% to typed decode; the Value walk takes {walk:.2}x as long (medians of {rounds} rounds)",
        (overhead - 1.0) * 100.0
    );
}

/// Number of steps: `ALIGNMENT_BENCH_STEPS`, else 5,000.
static STEPS: LazyLock<usize> = LazyLock::new(|| {
    std::env::var("ALIGNMENT_BENCH_STEPS")
        .ok()
        .and_then(|steps| steps.parse().ok())
        .unwrap_or(5_000)
});
const METRICS: usize = 40;
/// Label sets of metric `m`: 1 to 7.
const fn label_sets_of(m: usize) -> usize {
    1 + m % 7
}
/// Series in all: label sets summed over the metrics.
const SERIES: usize = {
    let mut total = 0;
    let mut m = 0;
    while m < METRICS {
        total += label_sets_of(m);
        m += 1;
    }
    total
};
const STEP_MS: i64 = 60_000;
const START_MS: i64 = 1_700_000_000_000;

fn rows() -> usize {
    *STEPS * SERIES
}

/// The response's JSON, built once.
static JSON: LazyLock<Vec<u8>> =
    LazyLock::new(|| serde_json::to_vec(&build_response()).expect("a response serializes"));

/// The same response, decoded once, for the benches that start from a decoded response.
static DECODED: LazyLock<GetModelMetricsResponseV1> =
    LazyLock::new(|| serde_json::from_slice(&JSON).expect("the response decodes"));

fn build_response() -> GetModelMetricsResponseV1 {
    let kinds = ["GAUGE", "COUNTER", "HISTOGRAM"];
    let units = ["SECONDS", "COUNT", "BYTES", "RATIO", "PER_SECOND"];
    let metric_descriptors: Vec<ModelMetricDescriptorV1> = (0..METRICS)
        .map(|m| {
            let label_sets: Vec<std::collections::BTreeMap<String, String>> = (0..label_sets_of(m))
                .map(|l| {
                    let mut labels = std::collections::BTreeMap::new();
                    if l + 1 < label_sets_of(m) {
                        labels.insert("quantile".to_owned(), format!("0.{}", 5 + l));
                    } else if l > 0 {
                        labels.insert("stat".to_owned(), "avg".to_owned());
                    }
                    if m % 2 == 0 && !labels.is_empty() {
                        labels.insert("zone".to_owned(), format!("z{}", m % 3));
                    }
                    labels
                })
                .collect();
            ModelMetricDescriptorV1::new(
                format!("baseten_bench_metric_{m}_total"),
                units[m % units.len()],
                kinds[m % kinds.len()],
                label_sets,
            )
        })
        .collect();
    // A fixed xorshift sequence: the same numbers on every run.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let steps = *STEPS;
    let metric_values: Vec<ModelMetricValueSetV1> = (0..steps)
        .map(|step| {
            let values: Vec<Vec<Option<f64>>> = (0..METRICS)
                .map(|m| {
                    (0..label_sets_of(m))
                        .map(|_| {
                            let x = next();
                            // About 1 in 20 is null; the rest have 1 to 6 decimals.
                            (x % 20 != 0).then(|| {
                                let digits = (x >> 8) % 10_000_000;
                                let scale = 10_f64.powi(1 + ((x >> 40) % 6) as i32);
                                digits as f64 / scale
                            })
                        })
                        .collect()
                })
                .collect();
            ModelMetricValueSetV1::new(START_MS + step as i64 * STEP_MS, values)
        })
        .collect();
    GetModelMetricsResponseV1::new(
        START_MS,
        START_MS + steps as i64 * STEP_MS,
        "SERIES",
        STEP_MS / 1000,
        metric_descriptors,
        metric_values,
    )
}

/// What every variant folds its rows into, so that none of them can skip work.
#[derive(Debug, Default, PartialEq)]
struct Tally {
    rows: usize,
    nulls: usize,
    sum: f64,
    spans: i64,
    name_bytes: usize,
    labels: usize,
}

impl Tally {
    #[inline]
    fn row(&mut self, start_ms: i64, end_ms: i64, name: &str, labels: usize, value: Option<f64>) {
        self.rows += 1;
        self.spans = self.spans.wrapping_add(end_ms.wrapping_sub(start_ms));
        self.name_bytes += name.len();
        self.labels += labels;
        match value {
            Some(value) => self.sum += value,
            None => self.nulls += 1,
        }
    }
}

/// Folds every row of a validated view.
fn fold_rows(view: metrics::MetricsView<'_, GetModelMetricsResponseV1>) -> Tally {
    let mut tally = Tally::default();
    for row in view.long_rows() {
        tally.row(
            row.step.start_ms,
            row.step.end_ms,
            row.series.name,
            row.series.labels.len(),
            row.value,
        );
    }
    tally
}

/// Validates, then folds every row.
fn align(response: &GetModelMetricsResponseV1) -> Tally {
    fold_rows(metrics::validate(response).expect("the response validates"))
}

/// Parses `json` to a `serde_json::Value` and walks it (see [`walk`]).
fn value_walk(json: &[u8]) -> (Value, Tally) {
    let root: Value = serde_json::from_slice(json).expect("valid JSON");
    let tally = walk(&root);
    (root, tally)
}

/// The same rows from a `serde_json::Value`, indexed by hand with the checks the alignment
/// layer makes (one value list per descriptor, one value per label set, increasing starts).
fn walk(root: &Value) -> Tally {
    let end_ms = root["end_epoch_millis"].as_i64().expect("window end");
    let descriptors = root["metric_descriptors"]
        .as_array()
        .expect("descriptor list");
    let described: Vec<(&str, Vec<usize>)> = descriptors
        .iter()
        .map(|descriptor| {
            let name = descriptor["name"].as_str().expect("metric name");
            let label_counts = descriptor["label_sets"]
                .as_array()
                .expect("label sets")
                .iter()
                .map(|labels| labels.as_object().expect("label map").len())
                .collect();
            (name, label_counts)
        })
        .collect();
    let sets = root["metric_values"].as_array().expect("value sets");
    let starts: Vec<i64> = sets
        .iter()
        .map(|set| set["start_epoch_millis"].as_i64().expect("step start"))
        .collect();
    assert!(starts.windows(2).all(|pair| pair[0] < pair[1]));
    let mut tally = Tally::default();
    for (index, set) in sets.iter().enumerate() {
        let step_end = starts.get(index + 1).copied().unwrap_or(end_ms);
        let values = set["values"].as_array().expect("values");
        assert_eq!(values.len(), described.len());
        for ((name, label_counts), list) in described.iter().zip(values) {
            let list = list.as_array().expect("value list");
            assert_eq!(list.len(), label_counts.len());
            for (labels, value) in label_counts.iter().zip(list) {
                let value = if value.is_null() {
                    None
                } else {
                    Some(value.as_f64().expect("a number"))
                };
                tally.row(starts[index], step_end, name, *labels, value);
            }
        }
    }
    tally
}

/// The rows read straight from the typed response's fields, without validation or views.
fn typed_loop(response: &GetModelMetricsResponseV1) -> Tally {
    let sets = &response.metric_values;
    let mut tally = Tally::default();
    for (index, set) in sets.iter().enumerate() {
        let end_ms = sets
            .get(index + 1)
            .map_or(response.end_epoch_millis, |next| next.start_epoch_millis);
        for (descriptor, list) in response.metric_descriptors.iter().zip(&set.values) {
            for (labels, value) in descriptor.label_sets.iter().zip(list) {
                tally.row(
                    set.start_epoch_millis,
                    end_ms,
                    &descriptor.name,
                    labels.len(),
                    *value,
                );
            }
        }
    }
    tally
}

#[divan::bench_group(sample_count = 30)]
mod decode {
    use super::*;

    #[divan::bench]
    fn serde_json_from_slice(bencher: Bencher) {
        bencher
            .counter(BytesCount::of_slice(&*JSON))
            .bench(|| serde_json::from_slice::<GetModelMetricsResponseV1>(black_box(&JSON)));
    }

    #[divan::bench]
    fn metrics_decode(bencher: Bencher) {
        bencher
            .counter(BytesCount::of_slice(&*JSON))
            .bench(|| metrics::decode::<GetModelMetricsResponseV1>(black_box(&JSON)));
    }
}

#[divan::bench_group(sample_count = 30)]
mod decode_and_align {
    use super::*;

    #[divan::bench]
    fn serde_json_from_slice(bencher: Bencher) {
        bencher.counter(ItemsCount::new(rows())).bench(|| {
            let response: GetModelMetricsResponseV1 =
                serde_json::from_slice(black_box(&JSON)).expect("decodes");
            let tally = align(&response);
            (response, tally)
        });
    }

    #[divan::bench]
    fn metrics_decode(bencher: Bencher) {
        bencher.counter(ItemsCount::new(rows())).bench(|| {
            let response: GetModelMetricsResponseV1 =
                metrics::decode(black_box(&JSON)).expect("decodes");
            let tally = align(&response);
            (response, tally)
        });
    }
}

#[divan::bench(sample_count = 30)]
fn value_walk_from_bytes(bencher: Bencher) {
    // Every reader must see the same rows.
    assert_eq!(value_walk(&JSON).1, align(&DECODED));
    assert_eq!(typed_loop(&DECODED), align(&DECODED));
    bencher
        .counter(ItemsCount::new(rows()))
        .bench(|| value_walk(black_box(&JSON)));
}

#[divan::bench_group(sample_count = 100)]
mod parts {
    use super::*;

    #[divan::bench]
    fn validate(bencher: Bencher) {
        let response = &*DECODED;
        bencher.bench(|| metrics::validate(black_box(response)).is_ok());
    }

    #[divan::bench]
    fn long_rows(bencher: Bencher) {
        let view = metrics::validate(&*DECODED).expect("the response validates");
        bencher
            .counter(ItemsCount::new(rows()))
            .bench(|| fold_rows(black_box(view)));
    }

    #[divan::bench]
    fn typed_loop(bencher: Bencher) {
        let response = &*DECODED;
        bencher
            .counter(ItemsCount::new(rows()))
            .bench(|| super::typed_loop(black_box(response)));
    }
}
