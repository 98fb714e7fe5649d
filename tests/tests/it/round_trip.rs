//! The round-trip property over every emitted type: for each type of each fixture document's
//! compiled snapshot and of `baseten-api`, arbitrary values a server following the document
//! could send (derived from the generator's model, `values`) decode, encode to JSON text that
//! decodes to an equal value and encodes to the same text, build through the test builders'
//! fields to that value, and a union's (or enum's) value decodes as the member it was made from,
//! never the fallback or another member. A best-fit union's value (`ir::best_fit`) may decode as
//! an earlier member instead, but only when it encodes back to the same JSON: that JSON is valid
//! for both members, and the union's rule takes the first member that reads it exactly. Each crate reaches its types through its generated
//! `mock::round_trips()` (one `RoundTrip` per type), so the property names no type.
//!
//! Fast tier: every fixture document and `baseten-api`, a bounded number of cases per type. The
//! slow tier runs the same over every crate Baseten's published documents generate, inside
//! `conformance`'s one workspace of them (`every_published_document_compiles_as_a_standalone_crate`).

mod values;

use std::collections::{BTreeMap, BTreeSet};

use baseten_api::runtime::mock::round_trip::RoundTrip;
use baseten_codegen::ir::Api;
use baseten_tests::{files_with_extension, tests_dir, workspace_root};
use proptest::prelude::any;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

pub use values::Values;

/// Cases per type in the fast tier (`PROPTEST_CASES` raises it).
const FAST_CASES: u32 = 24;

/// A compiled snapshot's `mock::round_trips`.
type RoundTrips = fn() -> Vec<RoundTrip>;

/// Every compiled snapshot's round trips, by fixture name.
macro_rules! snapshots {
    ($($name:ident),* $(,)?) => {
        &[$((stringify!($name), baseten_tests::snapshots::$name::mock::round_trips as RoundTrips)),*]
    };
}

const SNAPSHOTS: &[(&str, RoundTrips)] = snapshots!(
    acme,
    auth,
    auth_per_operation,
    best_fit,
    best_fit30,
    const_tags,
    consumers,
    exact,
    exact30,
    index_mapped,
    inheritance,
    int_tags,
    int_tags30,
    keyed,
    kinds,
    kinds30,
    media,
    media_multi,
    names,
    nullable,
    nullable30,
    operations,
    placeholders,
    recursion,
    salvage,
    servers,
    shared,
    styles,
    tagged,
    twins,
    types,
    uploads,
    wire,
);

/// Whether `debug` (a decoded value's `Debug` text) is the variant `variant`.
pub fn is_variant(debug: &str, variant: &str) -> bool {
    baseten_api::runtime::mock::round_trip::is_variant(debug, variant)
}

/// Whether `debug` (the decoded value's `Debug` text) is a member `case` may decode as instead
/// of its own: the best-fit rule of [`RoundTrip::may_decode_as_another`], with the case's
/// earlier members.
fn decodes_as_another_exact(
    round_trip: &RoundTrip,
    case: &values::Case,
    debug: &str,
    own: Option<&RoundTrip>,
) -> bool {
    round_trip.may_decode_as_another(&case.value, debug, &case.earlier, own)
}

/// Runs the property over every type of one crate: its model `api` and its `round_trips`.
/// Returns how many types it covered; panics listing every type that failed, with its value.
pub fn check_crate(label: &str, api: &Api, round_trips: &[RoundTrip], cases: u32) -> usize {
    let listed: BTreeSet<&str> = round_trips.iter().map(RoundTrip::name).collect();
    let modelled: BTreeSet<&str> = api.types.keys().map(String::as_str).collect();
    assert_eq!(
        listed, modelled,
        "{label}: round_trips() lists other types than the model has"
    );
    let by_name: BTreeMap<&str, &RoundTrip> = round_trips
        .iter()
        .map(|round_trip| (round_trip.name(), round_trip))
        .collect();
    let mut failures = Vec::new();
    for round_trip in round_trips {
        let name = round_trip.name();
        let mut runner = TestRunner::new(Config {
            cases: std::env::var("PROPTEST_CASES")
                .ok()
                .and_then(|cases| cases.parse().ok())
                .unwrap_or(cases),
            failure_persistence: None,
            ..Config::default()
        });
        let result = runner.run(&any::<u64>(), |seed| {
            let case = Values::new(api, seed).case(name);
            let debug = round_trip.check(&case.value).map_err(|error| {
                TestCaseError::fail(format!("{error}\n    from {}", case.value))
            })?;
            if let Some(variant) = &case.variant
                && !is_variant(&debug, variant)
                && !decodes_as_another_exact(
                    round_trip,
                    &case,
                    &debug,
                    case.member_type
                        .as_deref()
                        .and_then(|name| by_name.get(name).copied()),
                )
            {
                return Err(TestCaseError::fail(format!(
                    "{} decodes as {debug}, not as {variant}",
                    case.value
                )));
            }
            Ok(())
        });
        if let Err(error) = result {
            failures.push(format!("{label}::{name}: {error}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} types do not round-trip:\n{}",
        failures.len(),
        round_trips.len(),
        failures.join("\n")
    );
    round_trips.len()
}

fn fixture_model(name: &str) -> Api {
    let spec_path = format!("tests/fixtures/specs/{name}.yaml");
    let spec_text = std::fs::read_to_string(
        tests_dir()
            .join("fixtures/specs")
            .join(format!("{name}.yaml")),
    )
    .unwrap_or_else(|error| panic!("{spec_path}: {error}"));
    let input = baseten_codegen::Input {
        spec_path: &spec_path,
        spec_text: &spec_text,
        // The config `snapshots` generates each fixture with.
        config_text: Some(crate::snapshots::config_of(name)),
    };
    baseten_codegen::build_ir(&input)
        .unwrap_or_else(|error| panic!("{spec_path}: {error}"))
        .0
}

#[test]
fn every_type_of_every_fixture_document_round_trips() {
    let mut covered = 0;
    for (name, round_trips) in SNAPSHOTS {
        covered += check_crate(name, &fixture_model(name), &round_trips(), FAST_CASES);
    }
    eprintln!(
        "round trips: {covered} types of {} fixture documents",
        SNAPSHOTS.len()
    );
    // Every fixture is compiled as a snapshot, so every one is here.
    let fixtures: BTreeSet<String> =
        files_with_extension(&tests_dir().join("fixtures/specs"), "yaml")
            .iter()
            .filter_map(|path| path.file_stem())
            .map(|stem| stem.to_string_lossy().into_owned())
            .collect();
    let checked: BTreeSet<String> = SNAPSHOTS
        .iter()
        .map(|(name, _)| (*name).to_owned())
        .collect();
    assert_eq!(checked, fixtures, "a fixture document the property skips");
}

#[test]
fn every_type_of_the_in_repo_crate_round_trips() {
    let root = workspace_root();
    let read = |path: &str| {
        std::fs::read_to_string(root.join(path)).unwrap_or_else(|error| panic!("{path}: {error}"))
    };
    let spec_text = read("schema/baseten-management.yaml");
    let config_text = read("schema/codegen.yaml");
    let mut config = baseten_codegen::Config::parse(&config_text).unwrap();
    config.names_lock =
        baseten_codegen::NameLock::parse(&read("generated/src/gen/names.lock.yaml")).unwrap();
    let input = baseten_codegen::Input {
        spec_path: "schema/baseten-management.yaml",
        spec_text: &spec_text,
        config_text: Some(&config_text),
    };
    let (api, _) = baseten_codegen::build_ir_with(&input, &config).unwrap();
    let covered = check_crate(
        "baseten_api",
        &api,
        &baseten_api::mock::round_trips(),
        FAST_CASES,
    );
    eprintln!("round trips: {covered} types of baseten-api");
}

/// The property itself can fail: a type that refuses its values, a table missing a type.
#[test]
fn the_property_fails_on_a_refused_value_and_a_missing_type() {
    use baseten_tests::snapshots::const_tags::models::{Cat, CatKind, Dog};
    assert!(is_variant("Cat(Cat { lives: 1 })", "Cat"));
    assert!(is_variant("Unknown", "Unknown"));
    assert!(!is_variant("Catalog(X)", "Cat"));
    assert!(!is_variant("Unknown(Object {})", "Cat"));
    let mut api = fixture_model("const_tags");
    api.types
        .retain(|name, _| name == "Cat" || name == "CatKind");
    let kind = RoundTrip::of::<CatKind>("CatKind");
    assert_eq!(
        check_crate("cats", &api, &[RoundTrip::of::<Cat>("Cat"), kind], 8),
        2
    );
    // A `Cat`'s values read as a `Dog` (no `breed`): every one is refused.
    let refused = std::panic::catch_unwind(|| {
        check_crate("cats", &api, &[RoundTrip::of::<Dog>("Cat"), kind], 8)
    });
    assert!(refused.is_err(), "a type refusing its values passed");
    let missing = std::panic::catch_unwind(|| check_crate("cats", &api, &[kind], 8));
    assert!(missing.is_err(), "a table missing a type passed");
}

/// A best-fit union's value decodes as another member only where the union's rule allows it:
/// that member reads the value exactly (an entry holding `null` being no entry), and comes
/// earlier, or the value's own member does not read it exactly.
#[test]
fn a_best_fit_value_may_decode_as_another_member_only_when_that_one_reads_it_exactly() {
    use baseten_tests::snapshots::best_fit::models::{
        FieldValue, FieldValueObject, FieldValueObject2, GroupingConfig, WindowConfig,
    };
    use serde_json::json;
    let owned = |names: &[&str]| names.iter().map(|name| (*name).to_owned()).collect();
    // `{}` is a value of every member: made as the last, it reads as the first.
    let config = RoundTrip::of::<GroupingConfig>("GroupingConfig");
    let window = RoundTrip::of::<WindowConfig>("WindowConfig");
    let case = values::Case {
        value: json!({}),
        variant: Some("WindowConfig".into()),
        earlier: owned(&["TimeConfig", "ContentConfig"]),
        member_type: Some("WindowConfig".into()),
    };
    let debug = config.check(&case.value).unwrap();
    assert!(is_variant(&debug, "TimeConfig"), "{debug}");
    assert!(decodes_as_another_exact(
        &config,
        &case,
        &debug,
        Some(&window)
    ));
    let not_earlier = values::Case {
        earlier: owned(&["ContentConfig"]),
        ..case.clone()
    };
    // Not earlier, and the value's own member reads it exactly: refused.
    assert!(!decodes_as_another_exact(
        &config,
        &not_earlier,
        &debug,
        Some(&window)
    ));
    // An entry holding `null` is no entry: `{"timeout": null}` is read exactly as `{}`.
    let with_null = values::Case {
        value: json!({"timeout": null}),
        ..case.clone()
    };
    let debug = config.check(&with_null.value).unwrap();
    assert!(is_variant(&debug, "TimeConfig"), "{debug}");
    assert!(decodes_as_another_exact(
        &config,
        &with_null,
        &debug,
        Some(&window)
    ));
    // Neither number member reads `2` beside an unknown key exactly; both keep as much, so the
    // first (the number) wins, whose encoding `2.0` is other JSON: refused.
    let field = RoundTrip::of::<FieldValue>("FieldValue");
    let number = RoundTrip::of::<FieldValueObject2>("FieldValueObject2");
    let case = values::Case {
        value: json!({"value": 2, "other": 1}),
        variant: Some("Object3".into()),
        earlier: owned(&["Object", "Object2"]),
        member_type: Some("FieldValueObject3".into()),
    };
    let debug = field.check(&case.value).unwrap();
    assert!(is_variant(&debug, "Object2"), "{debug}");
    assert!(!decodes_as_another_exact(&field, &case, &debug, None));
    // Made for the number member, `{"value": 2}` is read exactly by the later integer member
    // only: the number member writes `2.0`, so the integer member's reading is the rule's.
    let made_as_number = values::Case {
        value: json!({"value": 2}),
        variant: Some("Object2".into()),
        earlier: owned(&["Object"]),
        member_type: Some("FieldValueObject2".into()),
    };
    let debug = field.check(&made_as_number.value).unwrap();
    assert!(is_variant(&debug, "Object3"), "{debug}");
    assert!(decodes_as_another_exact(
        &field,
        &made_as_number,
        &debug,
        Some(&number)
    ));
    // Without the member's round trip nothing says it reads the value inexactly: refused.
    assert!(!decodes_as_another_exact(
        &field,
        &made_as_number,
        &debug,
        None
    ));
    // A member that reads it exactly keeps it: `true` made for the boolean member is no
    // other member's.
    let boolean = RoundTrip::of::<FieldValueObject>("FieldValueObject");
    let made_as_boolean = values::Case {
        value: json!({"value": true}),
        variant: Some("Object".into()),
        earlier: Vec::new(),
        member_type: Some("FieldValueObject".into()),
    };
    assert!(boolean.reads_exactly(&made_as_boolean.value));
    let debug = field.check(&made_as_boolean.value).unwrap();
    assert!(is_variant(&debug, "Object"), "{debug}");
}

/// A variant that several tags decode as (a member whose tag property admits several values,
/// directly, through a `$ref`, inline or inherited) reports and writes back the tag each value
/// was sent with, never its primary one.
#[test]
fn a_variant_of_several_tags_keeps_the_tag_it_was_sent_with() {
    use baseten_tests::snapshots::const_tags::models::{Bird, Filter, Shift};
    let cases: [(&str, &str); 9] = [
        (r#"{"kind":"eq","key":"k"}"#, "Comparison"),
        (r#"{"kind":"ne","key":"k"}"#, "Comparison"),
        (r#"{"kind":"gt","key":"k"}"#, "Comparison"),
        (r#"{"kind":"within","low":1}"#, "Span"),
        (r#"{"kind":"outside"}"#, "Span"),
        (r#"{"kind":"not","of":"x"}"#, "Not"),
        (r#"{"kind":"and","terms":[]}"#, "FilterAnd"),
        (r#"{"kind":"or","terms":["a"]}"#, "FilterAnd"),
        (r#"{"kind":"lt","of":"x"}"#, "Unknown"),
    ];
    for (text, variant) in cases {
        let sent: serde_json::Value = serde_json::from_str(text).unwrap();
        let filter: Filter = serde_json::from_value(sent.clone()).unwrap();
        assert!(
            is_variant(&format!("{filter:?}"), variant),
            "{text} decodes as {filter:?}, not as {variant}"
        );
        assert_eq!(filter.tag(), sent["kind"].as_str(), "{text}");
        assert_eq!(serde_json::to_value(&filter).unwrap(), sent, "{text}");
    }
    for (text, variant) in [
        (r#"{"kind":"hawk","talons":3}"#, "Raptor"),
        (r#"{"kind":"eagle","talons":4}"#, "Raptor"),
        (r#"{"kind":"parrot","words":2}"#, "Parrot"),
        // The heir's tags, unfit for it: a base value, kept whole.
        (r#"{"kind":"hawk"}"#, "Unknown"),
    ] {
        let sent: serde_json::Value = serde_json::from_str(text).unwrap();
        let bird: Bird = serde_json::from_value(sent.clone()).unwrap();
        assert!(
            is_variant(&format!("{bird:?}"), variant),
            "{text} decodes as {bird:?}, not as {variant}"
        );
        assert_eq!(bird.tag(), sent["kind"].as_str(), "{text}");
        assert_eq!(serde_json::to_value(&bird).unwrap(), sent, "{text}");
    }
    // PagerDuty's restrictions: the heir inherits both of its base's tags.
    for (text, variant) in [
        (r#"{"kind":"day_shift","hours":8,"weekday":1}"#, "WeekShift"),
        (
            r#"{"kind":"week_shift","hours":8,"weekday":2}"#,
            "WeekShift",
        ),
        (r#"{"kind":"day_shift","hours":8}"#, "Unknown"),
    ] {
        let sent: serde_json::Value = serde_json::from_str(text).unwrap();
        let shift: Shift = serde_json::from_value(sent.clone()).unwrap();
        assert!(
            is_variant(&format!("{shift:?}"), variant),
            "{text} decodes as {shift:?}, not as {variant}"
        );
        assert_eq!(shift.tag(), sent["kind"].as_str(), "{text}");
        assert_eq!(serde_json::to_value(&shift).unwrap(), sent, "{text}");
    }
}

/// The unions whose members pin an integer or boolean tag are tagged unions of that kind, and
/// the property's values reach every variant and the fallback of each (on a generator that types
/// them `serde_json::Value`, there is no variant to reach).
#[test]
fn integer_and_boolean_tags_are_unions_the_property_covers() {
    use baseten_codegen::ir::{TagKind, TypeDef};
    let expected: [(&str, &[(&str, TagKind)]); 2] = [
        (
            "int_tags",
            &[
                ("Widget", TagKind::Integer),
                ("Control", TagKind::Integer),
                ("Gauge", TagKind::Integer),
                ("Mapped", TagKind::Integer),
                ("CustomerOrDeleted", TagKind::Boolean),
            ],
        ),
        (
            "int_tags30",
            &[("Shape", TagKind::Integer), ("Outline", TagKind::Integer)],
        ),
    ];
    for (fixture, unions) in expected {
        let api = fixture_model(fixture);
        for (name, kind) in unions {
            let Some(TypeDef::Union(def)) = api.types.get(*name) else {
                panic!(
                    "{fixture}: {name} is no tagged union: {:?}",
                    api.types.get(*name)
                );
            };
            assert_eq!(def.tag_kind, *kind, "{fixture}: {name}");
            let mut reached = BTreeSet::new();
            for seed in 0..400 {
                if let Some(variant) = Values::new(&api, seed).case(name).variant {
                    reached.insert(variant);
                }
            }
            let every: BTreeSet<String> = def
                .variants
                .iter()
                .map(|variant| variant.rust_name.clone())
                .chain([def.fallback.clone()])
                .collect();
            assert_eq!(reached, every, "{fixture}: {name}");
        }
    }
}

/// Cases per type in the slow tier, over the crates Baseten's documents generate.
pub const SLOW_CASES: u32 = 64;

/// The test a crate generated from a published document runs over its own types: the cases
/// `round_trip_cases.json` beside its manifest holds ([`write_cases`]), each through the crate's
/// `mock::round_trips()`.
const CRATE_TEST: &str = r#"//! The round-trip property over every type of this crate, on values the generator's model made
//! (written by the workspace's `round_trip` tests).

#[test]
fn every_type_round_trips() {
    let cases: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(include_str!("../round_trip_cases.json")).unwrap();
    let table = CRATE::mock::round_trips();
    let names: Vec<&str> = table.iter().map(|round_trip| round_trip.name()).collect();
    let mut cased: Vec<&str> = cases.keys().map(String::as_str).collect();
    cased.sort_unstable();
    let mut listed = names.clone();
    listed.sort_unstable();
    assert_eq!(listed, cased, "the model's types and the crate's round_trips() differ");
    let mut failures = Vec::new();
    // One line per failing type (its first failing case), named by package for a corpus run.
    let package = env!("CARGO_PKG_NAME");
    for round_trip in &table {
        for case in cases[round_trip.name()].as_array().unwrap() {
            let (value, variant) = (&case[0], case[1].as_str());
            use CRATE::runtime::mock::round_trip::is_variant as is;
            // Another member of a best-fit union, by the union's rule (the runtime's
            // `may_decode_as_another`); the value's own member is named in case[3].
            let earlier = |debug: &str| {
                let earlier: Vec<&str> = case[2]
                    .as_array()
                    .map(|earlier| earlier.iter().filter_map(|e| e.as_str()).collect())
                    .unwrap_or_default();
                let own = case[3]
                    .as_str()
                    .and_then(|own| table.iter().find(|round_trip| round_trip.name() == own));
                round_trip.may_decode_as_another(value, debug, &earlier, own)
            };
            let failure = match round_trip.check(value) {
                Err(error) => Some(format!("{}: {error}\n    from {value}", round_trip.name())),
                Ok(debug) => variant
                    .filter(|variant| !is(&debug, variant) && !earlier(&debug))
                    .map(|variant| format!("{}: {value} decodes as {debug}, not as {variant}", round_trip.name())),
            };
            if let Some(failure) = failure {
                failures.push(format!("round-trip failure in {package}: {failure}"));
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    println!("round trips: {} types", table.len());
}
"#;

/// Writes `cases` arbitrary values of every type of `api` into the crate at `dir` (package
/// `package`), with the test that checks them: `cargo test --features mock --test round_trip`
/// there runs the property. Returns how many types it covers.
pub fn write_cases(dir: &std::path::Path, package: &str, api: &Api, cases: u32) -> usize {
    let mut runner = TestRunner::new(Config::default());
    let mut all = serde_json::Map::new();
    for name in api.types.keys() {
        let values: Vec<serde_json::Value> = (0..cases)
            .map(|_| {
                let seed = proptest::prelude::RngCore::next_u64(runner.rng());
                let case = Values::new(api, seed).case(name);
                serde_json::json!([case.value, case.variant, case.earlier, case.member_type])
            })
            .collect();
        all.insert(name.clone(), serde_json::Value::Array(values));
    }
    std::fs::write(
        dir.join("round_trip_cases.json"),
        serde_json::to_string(&all).unwrap(),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::write(
        dir.join("tests/round_trip.rs"),
        CRATE_TEST.replace("CRATE", &package.replace('-', "_")),
    )
    .unwrap();
    api.types.len()
}
