//! Unions of several JSON kinds in which some kind is held by several members (the `kinds` and
//! `kinds30` fixtures): a payload of each member decodes as that member, through the variant
//! of its kind and the union of that kind's members, and encodes back to itself; a value no
//! member of its kind takes is refused; members no rule tells apart stay any JSON value.

use baseten_tests::snapshots::{kinds, kinds30};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// `payload` decoded as `T`, after checking it encodes back to the same JSON.
fn decoded<T: DeserializeOwned + Serialize + std::fmt::Debug>(payload: &Value) -> T {
    let value: T = serde_json::from_value(payload.clone())
        .unwrap_or_else(|error| panic!("{payload} does not decode: {error}"));
    let encoded = serde_json::to_value(&value).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(&encoded, payload, "{value:?} encodes to another value");
    value
}

/// `payload`'s decoded `Debug` text, which names the variant at each level.
fn decoded_debug<T: DeserializeOwned + Serialize + std::fmt::Debug>(payload: &Value) -> String {
    format!("{:?}", decoded::<T>(payload))
}

/// Whether `payload` is refused as `T`.
fn refused<T: DeserializeOwned>(payload: &Value) -> bool {
    serde_json::from_value::<T>(payload.clone()).is_err()
}

#[test]
fn each_member_of_a_shared_kind_decodes_as_itself() {
    use kinds::models::{
        Expandable, ExpandableObject, HolderShape, HolderShapeObject, HolderSource,
        HolderSourceObject, ToolChoice, ToolChoiceObject, ToolChoiceString,
    };
    let customer = json!({"id": "cus_1", "name": "Ada"});
    let deleted = json!({"id": "cus_2", "deleted": true});
    match decoded::<Expandable>(&json!("cus_1")) {
        Expandable::String(id) => assert_eq!(id, "cus_1"),
        other => panic!("{other:?}"),
    }
    match decoded::<Expandable>(&customer) {
        Expandable::Object(ExpandableObject::Customer(c)) => assert_eq!(c.name, "Ada"),
        other => panic!("{other:?}"),
    }
    match decoded::<Expandable>(&deleted) {
        Expandable::Object(ExpandableObject::DeletedCustomer(d)) => assert!(d.deleted),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        decoded::<ToolChoice>(&json!("auto")),
        ToolChoice::String(ToolChoiceString::Auto)
    ));
    match decoded::<ToolChoice>(&json!({"type": "allowed_tools", "mode": "auto"})) {
        ToolChoice::Object(ToolChoiceObject::AllowedTools(tools)) => assert_eq!(tools.mode, "auto"),
        other => panic!("{other:?}"),
    }
    match decoded::<ToolChoice>(&json!({"type": "function", "name": "f"})) {
        ToolChoice::Object(ToolChoiceObject::Function(tool)) => assert_eq!(tool.name, "f"),
        other => panic!("{other:?}"),
    }
    match decoded::<HolderShape>(&json!([1.5, 2.0])) {
        HolderShape::Array(items) => assert_eq!(items, [1.5, 2.0]),
        other => panic!("{other:?}"),
    }
    match decoded::<HolderShape>(&json!({"kind": "circle", "radius": 2.0})) {
        HolderShape::Object(HolderShapeObject::Circle(circle)) => assert_eq!(circle.radius, 2.0),
        other => panic!("{other:?}"),
    }
    match decoded::<HolderShape>(&json!({"kind": "square", "side": 3.0})) {
        HolderShape::Object(HolderShapeObject::Square(square)) => assert_eq!(square.side, 3.0),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        decoded::<HolderSource>(&json!(7)),
        HolderSource::Integer(7)
    ));
    match decoded::<HolderSource>(&json!({"url": "u"})) {
        HolderSource::Object(HolderSourceObject::Url(url)) => assert_eq!(url.url, "u"),
        other => panic!("{other:?}"),
    }
    match decoded::<HolderSource>(&json!({"file_id": "f"})) {
        HolderSource::Object(HolderSourceObject::FileId(file)) => assert_eq!(file.file_id, "f"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn values_no_member_takes_are_refused_and_unknown_tags_kept() {
    use kinds::models::{Expandable, HolderShape, HolderSource};
    // Two members' own properties, none of any member's, a kind no member has. (A tagged
    // union's fallback keeps any value, as a tagged union's does on its own.)
    assert!(refused::<Expandable>(
        &json!({"id": "c", "name": "a", "deleted": true})
    ));
    assert!(refused::<Expandable>(&json!({"id": "c"})));
    assert!(refused::<Expandable>(&json!(1)));
    assert!(refused::<HolderSource>(
        &json!({"url": "u", "file_id": "f"})
    ));
    assert!(refused::<HolderSource>(&json!("u")));
    // A tag the document does not list is the tagged union's fallback, the value kept whole.
    let hexagon = json!({"kind": "hexagon", "side": 1.0});
    assert_eq!(
        decoded_debug::<HolderShape>(&hexagon),
        format!("Object(Unknown({hexagon:?}))")
    );
}

#[test]
fn members_no_rule_tells_apart_are_read_by_best_fit() {
    use kinds::models::{HolderLists, HolderLoose};
    // Each value goes to the member that reads it back exactly, whatever the document's order.
    let holder = json!({
        "customer": "cus_1",
        "tool_choice": "none",
        "loose": {"b": "y"},
        "lists": [1, 2],
    });
    let read: kinds::models::Holder = decoded(&holder);
    assert!(
        matches!(read.loose, Some(HolderLoose::Object2(ref object)) if object.b.as_deref() == Some("y"))
    );
    assert_eq!(read.lists, Some(HolderLists::Array2(vec![1, 2])));
    assert_eq!(
        decoded_debug::<HolderLists>(&json!(["a"])),
        "Array([\"a\"])"
    );
    assert!(matches!(
        decoded::<HolderLoose>(&json!({"a": "x"})),
        HolderLoose::Object(_)
    ));
    assert!(refused::<HolderLists>(&json!({"a": 1})));
}

#[test]
fn openapi_30_members_and_nullability() {
    use kinds30::models::{
        Expandable, ExpandableObject, Holder, HolderShape, HolderShapeObject, HolderSource,
        HolderSourceObject,
    };
    // The union is nullable: a null customer is `None`.
    let holder: Holder = decoded(&json!({"customer": null}));
    assert_eq!(holder.customer, None);
    let holder: Holder = decoded(&json!({"customer": {"id": "c", "deleted": true}}));
    assert!(matches!(
        holder.customer,
        Some(Expandable::Object(ExpandableObject::DeletedCustomer(_)))
    ));
    // One object member may be null: the null is the union's (the field is `Option`), and no
    // variant holds one.
    // (An optional field's null reads as absent, and is written so: the crate's rule.)
    let holder: Holder = serde_json::from_value(json!({"customer": null, "shape": null}))
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(holder.shape, None);
    assert!(refused::<HolderShape>(&Value::Null));
    match decoded::<HolderShape>(&json!({"kind": "circle", "radius": 1.0})) {
        HolderShape::Object(HolderShapeObject::Circle(circle)) => {
            assert_eq!(circle.radius, 1.0);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        decoded::<HolderShape>(&json!({"kind": "square", "side": 2.0})),
        HolderShape::Object(HolderShapeObject::Square(_))
    ));
    assert!(matches!(
        decoded::<HolderSource>(&json!(true)),
        HolderSource::Boolean(true)
    ));
    assert!(matches!(
        decoded::<HolderSource>(&json!({"file_id": "f"})),
        HolderSource::Object(HolderSourceObject::FileId(_))
    ));
    assert!(refused::<HolderSource>(&Value::Null));
}
