//! Typed error answers (issue 41): the fake answers an error with a typed body
//! (`Expectation::respond_error`), and the client's `Error::error_model` decodes the body of an
//! `Error::Api` back into that type.

use baseten_api::Error;
use baseten_api::client::RetryPolicy;
use baseten_api::mock::{ErrorReply, FakeBaseten};
use serde::{Deserialize, Serialize};

/// An error model as a document declares one for `422`: its fields, typed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ValidationError {
    detail: Vec<FieldError>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct FieldError {
    loc: Vec<String>,
    msg: String,
}

#[tokio::test]
async fn the_fake_answers_typed_errors_and_the_client_reads_them_back() {
    let fake = FakeBaseten::start().await;
    let gone = ErrorReply::new("NOT_FOUND", "no such model");
    fake.on_get_model("gone").respond_error(404, &gone).await;
    let invalid = ValidationError {
        detail: vec![FieldError {
            loc: vec!["body".into(), "min_replica".into()],
            msg: "must be at least 0".into(),
        }],
    };
    fake.on_get_model("bad").respond_error(422, &invalid).await;
    let busy = ErrorReply::new("RATE_LIMITED", "slow down");
    fake.on_get_model("busy").respond_error(429, &busy).await;
    let client = fake
        .client()
        .unwrap_or_else(|error| panic!("{error}"))
        .with_retry_policy(RetryPolicy::none());

    let error = client.get_model("gone").await.expect_err("a 404");
    assert!(error.is_not_found(), "{error:?}");
    assert_eq!(error.code(), Some("NOT_FOUND"));
    assert_eq!(error.error_model::<ErrorReply>(), Some(gone));
    // A body that is not the type asked for is no model of it.
    assert_eq!(error.error_model::<ValidationError>(), None);

    let error = client.get_model("bad").await.expect_err("a 422");
    assert_eq!(error.status(), Some(422));
    assert_eq!(error.error_model::<ValidationError>(), Some(invalid));
    assert_eq!(error.error_model::<ErrorReply>(), None);

    let error = client.get_model("busy").await.expect_err("a 429");
    assert!(matches!(error, Error::RateLimited { .. }), "{error:?}");
    assert_eq!(error.error_model::<ErrorReply>(), Some(busy));

    // No response, no model.
    assert_eq!(
        Error::Timeout { attempts: 1 }.error_model::<ErrorReply>(),
        None
    );
}
