//! Unions whose members pin an integer (or boolean) tag (issue 39: Discord's components, Stripe's
//! `deleted`), compiled from the `int_tags` and `int_tags30` fixtures: a payload a server sends
//! decodes as the member its tag names, an unknown tag is kept whole, `2.0` is the tag `2`, and a
//! value sent back writes its tag as the number (boolean) it is.

use baseten_tests::snapshots::int_tags::Client as IntTagsClient;
use baseten_tests::snapshots::int_tags::models::{
    Button, ButtonType, Control, CustomerOrDeleted, Gauge, Mapped, Panel, Widget,
};
use baseten_tests::snapshots::int_tags30::Client as IntTags30Client;
use baseten_tests::snapshots::int_tags30::models::{Outline, Shape};
use serde_json::{Value, json};
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::round_trip::is_variant;

async fn answering(body: &Value) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_json(body))
        .mount(&server)
        .await;
    server
}

/// Each value decodes as `variant`, reports `tag` and encodes back to itself.
fn check_each<T>(cases: &[(Value, &str, Option<Value>)], tag: impl Fn(&T) -> Option<Value>)
where
    T: serde::Serialize + serde::de::DeserializeOwned + std::fmt::Debug,
{
    for (sent, variant, expected_tag) in cases {
        let decoded: T =
            serde_json::from_value(sent.clone()).unwrap_or_else(|e| panic!("{sent}: {e}"));
        let debug = format!("{decoded:?}");
        assert!(
            is_variant(&debug, variant),
            "{sent} decodes as {debug}, not as {variant}"
        );
        assert_eq!(&tag(&decoded), expected_tag, "{sent}");
        assert_eq!(
            serde_json::to_value(&decoded).ok().as_ref(),
            Some(sent),
            "{sent}"
        );
    }
}

#[test]
fn each_integer_tag_decodes_as_its_member_and_an_unknown_one_is_kept() {
    let widget = |sent: Value, variant, tag: Option<i64>| (sent, variant, tag.map(Value::from));
    check_each::<Widget>(
        &[
            widget(json!({"type": 2, "label": "ok"}), "Button", Some(2)),
            widget(json!({"type": 3, "options": []}), "Select", Some(3)),
            // Written `4.0` in the document (its field writes it so): the tag 4.
            widget(json!({"type": 4.0}), "Input", Some(4)),
            widget(json!({"type": 5, "max": 9}), "Slider", Some(5)),
            widget(json!({"type": 6, "max": 9}), "Slider2", Some(6)),
            widget(json!({"type": 77, "label": "new"}), "Unknown", Some(77)),
            widget(json!({"type": -2}), "Unknown", Some(-2)),
            // Another kind where the tag is: no integer tag.
            widget(json!({"type": "2", "label": "ok"}), "Unknown", None),
            widget(json!({"label": "ok"}), "Unknown", None),
        ],
        |widget: &Widget| widget.tag().map(Value::from),
    );
    let control = |sent: Value, variant, tag: i64| (sent, variant, Some(Value::from(tag)));
    check_each::<Control>(
        &[
            control(json!({"type": 2, "label": "ok"}), "Button", 2),
            control(json!({"type": 9, "on": true}), "ControlV9", 9),
            control(json!({"type": 10, "on": true}), "Unknown", 10),
        ],
        |control: &Control| control.tag().map(Value::from),
    );
    // The member admitting two values keeps the one it was sent with; `Dial`'s 2 is `Button`'s.
    check_each::<Gauge>(
        &[
            control(json!({"type": 2, "label": "ok"}), "Button", 2),
            control(json!({"type": 5, "max": 1}), "Slider", 5),
            control(json!({"type": 6, "max": 1}), "Slider", 6),
        ],
        |gauge: &Gauge| gauge.tag().map(Value::from),
    );
    // Mapped by the integers' text (`03` is 3).
    check_each::<Mapped>(
        &[
            control(json!({"type": 2, "label": "ok"}), "Button", 2),
            control(json!({"type": 3, "options": ["a"]}), "Select", 3),
        ],
        |mapped: &Mapped| mapped.tag().map(Value::from),
    );
    let shape = |sent: Value, variant, tag: i64| (sent, variant, Some(Value::from(tag)));
    check_each::<Shape>(
        &[
            shape(json!({"shape": 1, "radius": 1.5}), "Circle", 1),
            shape(json!({"shape": 2, "side": 2.5}), "Square", 2),
            shape(json!({"shape": -1}), "Blank", -1),
            shape(json!({"shape": 0}), "Unknown", 0),
        ],
        |shape: &Shape| shape.tag().map(Value::from),
    );
    check_each::<Outline>(
        &[
            shape(json!({"shape": 1, "radius": 1.5}), "Circle", 1),
            shape(json!({"shape": 2, "side": 2.5}), "Square", 2),
            shape(json!({"shape": 3}), "Unknown", 3),
        ],
        |outline: &Outline| outline.tag().map(Value::from),
    );
}

#[test]
fn a_boolean_tag_decodes_as_its_member() {
    let customer = |sent: Value, variant, tag: Option<bool>| (sent, variant, tag.map(Value::from));
    check_each::<CustomerOrDeleted>(
        &[
            customer(
                json!({"deleted": false, "name": "n"}),
                "Customer",
                Some(false),
            ),
            customer(
                json!({"deleted": true, "id": "c1"}),
                "DeletedCustomer",
                Some(true),
            ),
            customer(json!({"deleted": "yes", "id": "c1"}), "Unknown", None),
        ],
        |customer: &CustomerOrDeleted| customer.tag().map(Value::from),
    );
}

#[test]
fn an_integral_float_is_the_integer_tag() {
    // `Input` pins `4.0`, whose field reads either form.
    let widget: Result<Widget, _> = serde_json::from_value(json!({"type": 4.0}));
    assert!(matches!(&widget, Ok(Widget::Input(_))), "{widget:?}");
    assert_eq!(widget.ok().and_then(|widget| widget.tag()), Some(4));
    // The tag picks `Select`, whose integer field then refuses the float: the member's error,
    // not a silent fallback.
    let widget: Result<Widget, _> = serde_json::from_value(json!({"type": 3.0, "options": []}));
    let error = widget
        .map(|widget| format!("{widget:?}"))
        .unwrap_err()
        .to_string();
    assert!(error.contains("floating point"), "{error}");
}

#[test]
fn a_variant_writes_its_integer_tag() {
    let written = serde_json::to_value(Widget::Button(Button::new(ButtonType::V2, "go")));
    assert_eq!(written.ok(), Some(json!({"type": 2, "label": "go"})));
    // The payload's own value is kept, as for string tags.
    let written = serde_json::to_value(Gauge::Button(Button::new(7, "go")));
    assert_eq!(written.ok(), Some(json!({"type": 7, "label": "go"})));
}

#[tokio::test]
async fn a_response_decodes_each_union_as_its_member() {
    let body = json!({
        "widgets": [{"type": 2, "label": "a"}, {"type": 3, "options": ["x"]}, {"type": 99}],
        "controls": [{"type": 9, "on": false}],
        "customers": [{"deleted": true, "id": "c"}],
    });
    let server = answering(&body).await;
    let client = IntTagsClient::builder()
        .api_key("int-tags-test-key-Q7")
        .base_url(server.uri())
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let panel: Panel = client
        .get_widgets()
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let kinds: Vec<Option<i64>> = panel.widgets.iter().map(Widget::tag).collect();
    assert_eq!(kinds, [Some(2), Some(3), Some(99)]);
    assert!(matches!(&panel.widgets[0], Widget::Button(button) if button.label == "a"));
    assert!(matches!(&panel.widgets[1], Widget::Select(select) if select.options == ["x"]));
    assert!(matches!(&panel.widgets[2], Widget::Unknown(value) if value == &json!({"type": 99})));
    assert!(matches!(
        panel.controls.as_deref(),
        Some([Control::ControlV9(control)]) if !control.on
    ));
    assert!(matches!(
        panel.customers.as_deref(),
        Some([CustomerOrDeleted::DeletedCustomer(customer)]) if customer.id == "c"
    ));
    let client = IntTags30Client::builder()
        .api_key("int-tags-test-key-Q7")
        .base_url(
            answering(&json!({"shapes": [{"shape": -1}, {"shape": 2, "side": 1.0}]}))
                .await
                .uri(),
        )
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let drawing = client
        .get_items()
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert!(
        matches!(drawing.shapes.as_slice(), [Shape::Blank(_), Shape::Square(square)] if square.side == 1.0)
    );
}
