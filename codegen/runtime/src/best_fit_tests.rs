//! The best-fit rule, whole: exact beats order, most kept beats order, ties by order, no member
//! decoding is an error naming the union, and a value whose nested unions would take work
//! exponential in its depth is refused within its budget.

use super::{DECODING, QUOTED_ERROR, decode, deserialize, fit, kept, nodes, same_json, shortened};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Value, json};

/// The members of PagerDuty's field value: a number, an integer, all optional.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Number {
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<f64>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Integer {
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<i64>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Wide {
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unit: Option<String>,
}

#[derive(Debug, PartialEq)]
enum Field {
    Number(Number),
    Integer(Integer),
    Wide(Wide),
}

fn field(json: Value) -> Result<Field, String> {
    decode(
        &json,
        "Field",
        &[
            |json| fit(json, Field::Number),
            |json| fit(json, Field::Integer),
            |json| fit(json, Field::Wide),
        ],
    )
}

#[test]
fn the_first_exact_member_wins_over_an_earlier_inexact_one() {
    // `3` as a number comes back `3.0`: the integer member is exact.
    assert_eq!(
        field(json!({"value": 3})),
        Ok(Field::Integer(Integer { value: Some(3) }))
    );
    assert_eq!(
        field(json!({"value": 3.5})),
        Ok(Field::Number(Number { value: Some(3.5) }))
    );
    // Exact for every member: the first.
    assert_eq!(field(json!({})), Ok(Field::Number(Number { value: None })));
    assert_eq!(
        field(json!({"value": 3, "unit": "s"})),
        Ok(Field::Wide(Wide {
            value: Some(3),
            unit: Some("s".into())
        }))
    );
}

#[test]
fn with_no_exact_member_the_one_keeping_most_wins_ties_by_order() {
    // `Wide` keeps `unit` too, though it comes last.
    assert_eq!(
        field(json!({"value": 2, "unit": "s", "other": 1})),
        Ok(Field::Wide(Wide {
            value: Some(2),
            unit: Some("s".into())
        }))
    );
    // Each keeps the object and `value` (a number by its value): the first.
    assert_eq!(
        field(json!({"value": 2, "other": 1})),
        Ok(Field::Number(Number { value: Some(2.0) }))
    );
    // Only the number member decodes a fraction beside an unknown key.
    assert_eq!(
        field(json!({"value": 2.5, "other": 1})),
        Ok(Field::Number(Number { value: Some(2.5) }))
    );
}

#[test]
fn no_member_decoding_is_an_error_naming_the_union_and_each_member() {
    let error = field(json!({"value": "x"})).unwrap_err();
    assert!(
        error.starts_with("no member of `Field` decodes the value (member 0: invalid type: string \"x\", expected f64; member 1: "),
        "{error}"
    );
    assert!(error.contains("; member 2: "), "{error}");
    assert!(field(json!("x")).is_err());
    // Through serde: the deserializer's own error.
    let through: Result<Field, serde_json::Error> =
        deserialize(json!(true), "Field", &[|json| fit(json, Field::Number)]);
    assert!(
        through
            .unwrap_err()
            .to_string()
            .starts_with("no member of `Field` decodes the value (member 0: invalid type: boolean"),
    );
    let read: Result<Field, serde_json::Error> = deserialize(
        json!({"value": 1}),
        "Field",
        &[|json| fit(json, Field::Integer)],
    );
    assert_eq!(read.unwrap(), Field::Integer(Integer { value: Some(1) }));
}

#[test]
fn arrays_are_told_apart_by_their_items() {
    #[derive(Debug, PartialEq)]
    enum Input {
        Strings(Vec<String>),
        Integers(Vec<i64>),
        Nested(Vec<Vec<i64>>),
    }
    let input = |json: Value| {
        decode(
            &json,
            "Input",
            &[
                |json| fit(json, Input::Strings),
                |json| fit(json, Input::Integers),
                |json| fit(json, Input::Nested),
            ],
        )
    };
    assert_eq!(input(json!(["a"])), Ok(Input::Strings(vec!["a".into()])));
    assert_eq!(input(json!([1, 2])), Ok(Input::Integers(vec![1, 2])));
    assert_eq!(
        input(json!([[1], []])),
        Ok(Input::Nested(vec![vec![1], vec![]]))
    );
    assert_eq!(input(json!([])), Ok(Input::Strings(vec![])));
    assert!(input(json!([1, "a"])).is_err());
}

#[test]
fn what_an_encoding_keeps_is_counted_through_every_level() {
    let input = json!({"a": [1, 2.0, "x"], "b": {"c": true}, "d": null});
    assert_eq!(nodes(&input), 8);
    assert_eq!(kept(&input, &input), 8);
    // Numbers by value; an item or entry missing or changed keeps nothing of itself, except
    // an entry holding `null`, which no entry is (`same_json`).
    assert_eq!(kept(&input, &json!({"a": [1.0, 2], "b": {}})), 6);
    assert_eq!(kept(&input, &json!({"a": {"0": 1}, "b": {"c": false}})), 3);
    assert_eq!(
        kept(&input, &json!({"a": {"0": 1}, "b": {"c": false}, "d": 0})),
        2
    );
    assert_eq!(kept(&input, &json!([])), 0);
    assert_eq!(kept(&json!("x"), &json!("y")), 0);
    assert_eq!(kept(&json!(1), &json!("1")), 0);
    assert_eq!(kept(&json!(1), &json!(1)), 1);
    assert_eq!(kept(&json!(u64::MAX), &json!(u64::MAX)), 1);
    assert_eq!(kept(&json!(1.5), &json!(1.25)), 0);
}

#[test]
fn a_long_member_error_is_shortened() {
    let long = "e".repeat(QUOTED_ERROR + 5);
    assert_eq!(shortened(&long), format!("{}…", "e".repeat(QUOTED_ERROR)));
    let exact = "é".repeat(QUOTED_ERROR);
    assert_eq!(shortened(&exact), exact);
}

/// A tree whose two members each hold another tree: decoding a value neither member reads
/// exactly tries both at every level, twice the work per level.
#[derive(Debug, PartialEq)]
enum Tree {
    Left(Box<Left>),
    Right(Box<Right>),
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Left {
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<Tree>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Right {
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<Tree>,
    #[serde(skip_serializing_if = "Option::is_none")]
    right: Option<bool>,
}

impl Serialize for Tree {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Tree::Left(payload) => payload.serialize(serializer),
            Tree::Right(payload) => payload.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        super::deserialize(
            deserializer,
            "Tree",
            &[|json| fit(json, Tree::Left), |json| fit(json, Tree::Right)],
        )
    }
}

/// `depth` levels of `next`, the innermost holding a property no member has.
fn nested(depth: usize) -> Value {
    (0..depth).fold(json!({"unknown": 1}), |inner, _| json!({"next": inner}))
}

#[test]
fn nested_unions_decode_within_a_budget_in_proportion_to_the_value() {
    // Shallow: decoded, the first member at every level (ties by order).
    let tree: Tree = serde_json::from_value(nested(3)).unwrap();
    let mut depth = 0;
    let mut at = &tree;
    while let Tree::Left(left) = at {
        depth += 1;
        match &left.next {
            Some(next) => at = next,
            None => break,
        }
    }
    assert_eq!(depth, 4);
    // Exact at every level: one member tried per level, however deep.
    let exact = (0..100).fold(json!({"right": true}), |inner, _| json!({"next": inner}));
    assert!(serde_json::from_value::<Tree>(exact).is_ok());
    // 2^24 attempts without a budget: refused, naming the union.
    let error = serde_json::from_value::<Tree>(nested(24)).unwrap_err();
    assert!(
        error.to_string().contains(
            "`Tree`: the value's members take more work to tell apart than its size allows"
        ),
        "{error}"
    );
    // The next decoding on the thread has a budget of its own.
    assert!(serde_json::from_value::<Tree>(nested(3)).is_ok());
    DECODING.with(|state| assert_eq!(state.get().0, 0));
}

/// `same_json` is JSON equality where an object entry holding `null` is no entry, on either
/// side and at every level; nothing else is forgiven.
#[test]
fn an_entry_holding_null_is_the_same_as_no_entry_and_nothing_else_is() {
    let same = [
        (json!({"a": 1, "b": null}), json!({"a": 1})),
        (json!({"a": 1}), json!({"a": 1, "b": null})),
        (
            json!({"x": {"b": null, "c": [1]}}),
            json!({"x": {"c": [1]}}),
        ),
        (json!([{"b": null}]), json!([{}])),
        (json!({}), json!({"a": null, "b": null})),
        (json!(null), json!(null)),
    ];
    for (input, output) in same {
        assert!(same_json(&input, &output), "{input} and {output}");
        assert!(same_json(&output, &input), "{output} and {input}");
    }
    let other = [
        (json!({"a": 1}), json!({"a": 2})),
        (json!({"a": 1}), json!({})),
        (json!({"a": 1, "b": 2}), json!({"a": 1})),
        (json!({"a": null}), json!({"a": 0})),
        (json!([null]), json!([])),
        (json!([1, 2]), json!([1])),
        (json!([1, 2]), json!([2, 1])),
        (json!(3), json!(3.0)),
        (json!("3"), json!(3)),
        (json!(null), json!({})),
        (json!({"x": {"b": 1}}), json!({"x": {}})),
    ];
    for (input, output) in other {
        assert!(!same_json(&input, &output), "{input} and {output}");
        assert!(!same_json(&output, &input), "{output} and {input}");
    }
}

/// A catch-all that keeps every entry (an open union's `Unknown`, a map) no longer reads a
/// value with a `null` entry better than an earlier struct that reads `null` as `None`.
#[test]
fn a_member_leaving_out_a_null_entry_reads_the_value_exactly() {
    #[derive(Debug, PartialEq)]
    enum Open {
        Integer(Integer),
        Anything(serde_json::Map<String, Value>),
    }
    let open = |json: Value| {
        decode(
            &json,
            "Open",
            &[
                |json| fit(json, Open::Integer),
                |json| fit(json, Open::Anything),
            ],
        )
    };
    assert_eq!(
        open(json!({"value": 3, "unit": null})),
        Ok(Open::Integer(Integer { value: Some(3) }))
    );
    assert_eq!(
        open(json!({"value": null})),
        Ok(Open::Integer(Integer { value: None }))
    );
    // An entry the struct does not know still goes to the catch-all, which keeps it.
    let unknown = json!({"value": 3, "unit": "s"});
    assert_eq!(
        open(unknown.clone()),
        Ok(Open::Anything(
            unknown.as_object().cloned().unwrap_or_default()
        ))
    );
}
