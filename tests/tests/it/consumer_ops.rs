//! What consumers lean on, through the compiled `consumers` snapshot (a generated crate in
//! miniature) and its emitted fake: cursor pagination as streams (three pages, a looping
//! cursor), a PATCH that sends absent / null / value as asked, and the fake's expectations
//! (typed bodies, status errors, 429 with a wait, replies in turn).

use std::time::Duration;

use baseten_api::Error;
use baseten_api::runtime::mock::Reply;
use baseten_tests::snapshots::consumers::mock::FakeBaseten;
use baseten_tests::snapshots::consumers::models::{
    Event, EventPage, Pagination, Settings, UpdateSettings,
};
use baseten_tests::snapshots::consumers::operations::GetEventsQuery;
use futures_util::TryStreamExt as _;

fn page(ids: &[&str], cursor: Option<&str>) -> EventPage {
    let mut pagination = Pagination::new(cursor.is_some());
    // A field is still assignable from outside; an `Option` in hand needs no `if`.
    pagination.cursor = cursor.map(str::to_owned);
    EventPage::new(
        ids.iter().map(|id| Event::new(*id)).collect::<Vec<_>>(),
        pagination,
    )
}

fn queries(requests: &[wiremock::Request]) -> Vec<String> {
    requests
        .iter()
        .map(|r| r.url.query().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn three_pages_are_collected_in_order() {
    let fake = FakeBaseten::start().await;
    fake.on_get_events()
        .query("cursor", "c2")
        .respond(&page(&["e"], None))
        .await;
    fake.on_get_events()
        .query("cursor", "c1")
        .respond(&page(&["c", "d"], Some("c2")))
        .await;
    // Without a cursor: the lowest priority catch-all for the first page.
    fake.on_get_events()
        .respond_in_turn(vec![Reply::Ok(page(&["a", "b"], Some("c1")))])
        .await;
    let client = fake.client().unwrap();
    let query = GetEventsQuery::default().limit(2_i64);
    let ids: Vec<String> = client
        .get_events_items(&query)
        .map_ok(|event| event.id)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(ids, ["a", "b", "c", "d", "e"]);
    assert_eq!(
        queries(&fake.server().received().await),
        ["limit=2", "cursor=c1&limit=2", "cursor=c2&limit=2"]
    );
    let pages: Vec<EventPage> = client.get_events_pages(&query).try_collect().await.unwrap();
    assert_eq!(pages.len(), 3);
    assert!(!pages[2].pagination.has_more);
}

#[tokio::test]
async fn a_looping_cursor_ends_in_an_error() {
    let fake = FakeBaseten::start().await;
    fake.on_get_events()
        .respond(&page(&["a"], Some("again")))
        .await;
    let client = fake.client().unwrap();
    let result: Result<Vec<Event>, Error> = client
        .get_events_items(&GetEventsQuery::default())
        .try_collect()
        .await;
    match result {
        Err(Error::PaginationStalled { cursor }) => {
            assert_eq!(cursor.as_deref(), Some("again"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        fake.server().received().await.len(),
        2,
        "stopped at the repeat"
    );
}

/// Absent, null and a value, each sent exactly as asked.
#[tokio::test]
async fn a_patch_sends_absent_null_and_value_as_asked() {
    let fake = FakeBaseten::start().await;
    let answer = Settings::new(2);
    let cases = [
        (
            UpdateSettings::new().min_replica(2).clear_max_replica(),
            serde_json::json!({"min_replica": 2, "max_replica": null}),
        ),
        (UpdateSettings::default(), serde_json::json!({})),
        (
            UpdateSettings::new().label("blue").clear_min_replica(),
            serde_json::json!({"min_replica": null, "label": "blue"}),
        ),
    ];
    for (body, wire) in &cases {
        fake.on_patch_thing_settings("t/1")
            .json_body(wire)
            .times(1)
            .respond(&answer)
            .await;
        let client = fake.client().unwrap();
        let got = client.patch_thing_settings("t/1", body).await.unwrap();
        assert_eq!(got, answer);
    }
    let received = fake.server().received().await;
    assert_eq!(received.len(), 3);
    for (request, (_, wire)) in received.iter().zip(&cases) {
        assert_eq!(request.method.as_str(), "PATCH");
        assert_eq!(request.url.path(), "/v1/things/t%2F1/settings");
        let sent: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
        assert_eq!(&sent, wire);
        assert_eq!(
            request
                .headers
                .get("authorization")
                .and_then(|v| v.to_str().ok()),
            Some("Bearer fake-baseten-key")
        );
        assert_eq!(
            request
                .headers
                .get("content-type")
                .and_then(|v| v.to_str().ok()),
            Some("application/json")
        );
    }
}

#[tokio::test]
async fn the_fake_answers_errors_rate_limits_and_sequences() {
    let fake = FakeBaseten::start().await;
    let client = fake.client().unwrap();
    fake.on_patch_thing_settings("gone")
        .respond_status(
            404,
            serde_json::json!({"code": "NOT_FOUND", "message": "no such thing"}),
        )
        .await;
    let error = client
        .patch_thing_settings("gone", &UpdateSettings::default())
        .await
        .unwrap_err();
    assert_eq!(error.to_string(), "HTTP 404 NOT_FOUND: no such thing");

    fake.on_patch_thing_settings("busy")
        .rate_limited(Duration::from_secs(90))
        .await;
    let error = client
        .patch_thing_settings("busy", &UpdateSettings::default())
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::RateLimited { retry_after: Some(wait), .. } if wait == Duration::from_secs(90)),
        "{error:?}"
    );

    // A GET is retried: a 429 with a short wait, a 503, then the page.
    fake.on_get_events()
        .respond_in_turn(vec![
            Reply::RateLimited(Duration::from_millis(20)),
            Reply::Status(503, serde_json::json!({"message": "warming up"})),
            Reply::Ok(page(&["x"], None)),
        ])
        .await;
    let got = client.get_events(&GetEventsQuery::default()).await.unwrap();
    assert_eq!(got, page(&["x"], None));
}
