//! Decoding is the last phase of an attempt (issue 41, after smithy-rs's `try_attempt`): a 2xx
//! whose body is not what the operation expects is a failed attempt in the request's and the
//! attempt's spans (`error.type = "decode"`), in the duration instrument, and to interceptors.

use std::sync::{Arc, Mutex, PoisonError};

use baseten_api::runtime::{AttemptContext, Interceptor};
use baseten_api::{Client, Error, client::RetryPolicy};
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::fleet::MetricsLog;
use crate::http_hostile::traces;

/// Every attempt's outcome as an interceptor sees it: `ok`, or the error's `Debug` variant name.
#[derive(Clone, Default)]
struct Outcomes(Arc<Mutex<Vec<String>>>);

impl Interceptor for Outcomes {
    fn after_attempt(&self, outcome: Result<(), &Error>, context: &AttemptContext) {
        let seen = match outcome {
            Ok(()) => "ok".to_owned(),
            Err(error) => format!("{error:?}")
                .split([' ', '{', '('])
                .next()
                .unwrap_or_default()
                .to_owned(),
        };
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(format!(
                "{} #{}: {seen}",
                context.operation, context.attempt
            ));
    }
}

/// One `get_model` against a server answering `status` with `body`; what the call returned,
/// the traces, the instrument's lines and the interceptor's outcomes.
fn call(status: u16, body: &'static str) -> (Result<(), Error>, String, Vec<String>, Vec<String>) {
    let log = MetricsLog::default();
    let outcomes = Outcomes::default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|error| panic!("runtime: {error}"));
    let (result, traced) = metrics::with_local_recorder(&log, || {
        runtime.block_on(async {
            let server = MockServer::start().await;
            Mock::given(any())
                .respond_with(ResponseTemplate::new(status).set_body_raw(body, "application/json"))
                .mount(&server)
                .await;
            let client: Client = Client::builder()
                .base_url(server.uri())
                .retry_policy(RetryPolicy::none())
                .interceptor(outcomes.clone())
                .build()
                .unwrap_or_else(|error| panic!("client: {error}"));
            traces::start();
            let result = client.get_model("m1").await.map(|_| ());
            (result, traces::take())
        })
    });
    let seen = outcomes
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    (result, traced, log.lines(), seen)
}

const DURATION: &str = "http.client.request.duration{http.request.method=GET,url.template=/v1/models/{model_id},server.address=127.0.0.1,http.response.status_code=200";

#[test]
fn a_2xx_that_does_not_decode_is_a_failed_attempt_everywhere() {
    let (result, traced, lines, outcomes) = call(200, r#"{"id": 5}"#);
    assert!(matches!(result, Err(Error::Decode { .. })), "{result:?}");
    // Once on the attempt's span, once on the request's.
    assert_eq!(
        traced.matches("record error.type=decode ").count(),
        2,
        "{traced}"
    );
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(
        lines[0].starts_with(&format!("{DURATION},error.type=decode}} = ")),
        "{lines:#?}"
    );
    assert_eq!(outcomes, ["get_model #1: Decode"]);
}

#[test]
fn a_2xx_that_decodes_is_a_success_everywhere() {
    let body = r#"{"id": "m1", "name": "m", "created_at": "2024-01-01T00:00:00Z",
        "deployments_count": 1, "production_deployment_id": null,
        "development_deployment_id": null, "instance_type_name": "T4", "team_name": "t"}"#;
    let (result, traced, lines, outcomes) = call(200, body);
    if let Err(error) = &result {
        panic!("the fixture no longer decodes as a ModelV1: {error}");
    }
    assert!(!traced.contains("error.type="), "{traced}");
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(
        lines[0].starts_with(&format!("{DURATION}}} = ")),
        "{lines:#?}"
    );
    assert_eq!(outcomes, ["get_model #1: ok"]);
}

#[test]
fn a_non_2xx_is_a_failed_attempt_with_its_status() {
    let (result, traced, lines, outcomes) = call(404, r#"{"code": "NOT_FOUND"}"#);
    assert!(
        result.as_ref().is_err_and(Error::is_not_found),
        "{result:?}"
    );
    assert_eq!(
        traced.matches("record error.type=404 ").count(),
        2,
        "{traced}"
    );
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(
        lines[0].contains("http.response.status_code=404,error.type=404} = "),
        "{lines:#?}"
    );
    assert_eq!(outcomes, ["get_model #1: Api"]);
}
