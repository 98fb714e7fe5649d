//! The generated client against a local wiremock server: the exact request it sends, how it
//! decodes Baseten's responses, and the errors it reports.

use baseten_api::models::{
    GetModelMetricsResponseV1, ModelMetricKindV1 as Kind, ModelMetricModeV1 as Mode,
    ModelMetricUnitHintV1 as Unit, ModelMetricValueSetV1,
};
use baseten_api::operations::{GetModelDeploymentMetricsQuery, GetModelEnvironmentMetricsQuery};
use baseten_api::{Client, Error, client::RetryPolicy};
use serde_json::error::Category;
use serde_json::{Value, json};
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Shaped like a real key, so a leak into any message is easy to spot.
const API_KEY: &str = "abcdefgh.SuperSecretTestKey0123456789";

/// Both operations take the same query fields; cases are written once with this type and
/// converted for the deployment call (see [`call`]).
type Query = GetModelEnvironmentMetricsQuery;

fn q() -> Query {
    Query::default()
}

#[derive(Clone, Copy, Debug)]
enum Op<'a> {
    Environment { model: &'a str, env: &'a str },
    Deployment { model: &'a str, deployment: &'a str },
}

impl<'a> Op<'a> {
    /// Both operations, with `model` as the model id and `other` as the environment name or
    /// deployment id.
    fn both(model: &'a str, other: &'a str) -> [Self; 2] {
        [
            Op::Environment { model, env: other },
            Op::Deployment {
                model,
                deployment: other,
            },
        ]
    }

    /// The name of the second path parameter, as error messages call it.
    fn other_parameter(self) -> &'static str {
        match self {
            Op::Environment { .. } => "env_name",
            Op::Deployment { .. } => "deployment_id",
        }
    }

    /// The path the server should see, given the already-encoded segments.
    fn expected_path(self, model: &str, other: &str) -> String {
        match self {
            Op::Environment { .. } => format!("/v1/models/{model}/environments/{other}/metrics"),
            Op::Deployment { .. } => format!("/v1/models/{model}/deployments/{other}/metrics"),
        }
    }
}

/// The operation the decoding and error tests use, where the path does not matter.
const PLAIN: Op<'static> = Op::Environment {
    model: "m1",
    env: "production",
};

async fn call(
    client: &Client,
    op: Op<'_>,
    query: &Query,
) -> Result<GetModelMetricsResponseV1, Error> {
    match op {
        Op::Environment { model, env } => {
            client
                .get_model_environment_metrics(model, env, query)
                .await
        }
        Op::Deployment { model, deployment } => {
            // Field by field (the query types are `non_exhaustive`, so no struct literal); a
            // field added to only one of the two types shows in their `Debug`, and fails here
            // rather than being silently dropped.
            let mut copy = GetModelDeploymentMetricsQuery::default();
            copy.mode = query.mode.clone();
            copy.start_epoch_millis = query.start_epoch_millis;
            copy.end_epoch_millis = query.end_epoch_millis;
            copy.metrics = query.metrics.clone();
            assert_eq!(
                format!("{copy:?}").replacen("Deployment", "Environment", 1),
                format!("{query:?}"),
                "the two metrics query types have different fields"
            );
            let query = copy;
            client
                .get_model_deployment_metrics(model, deployment, &query)
                .await
        }
    }
}

/// One call against a fresh local server that answers every request with `response`. Returns
/// the client's result and every request the server received (none, if the client refused).
async fn exchange(
    op: Op<'_>,
    query: &Query,
    response: ResponseTemplate,
) -> (
    Result<GetModelMetricsResponseV1, Error>,
    Vec<wiremock::Request>,
) {
    let server = MockServer::start().await;
    // `any()`: a wrong path must reach the recorder and fail an assertion, not vanish as a 404.
    Mock::given(any())
        .respond_with(response)
        .mount(&server)
        .await;
    // One attempt: these tests pin what a single exchange sends and reports; retries have
    // their own tests in `resilience.rs`.
    let client = Client::builder()
        .api_key(API_KEY)
        .base_url(server.uri())
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap_or_else(|error| panic!("client: {error}"));
    let result = call(&client, op, query).await;
    let received = server
        .received_requests()
        .await
        .expect("wiremock records requests unless told not to");
    (result, received)
}

fn fixture_text(name: &str) -> String {
    let path = crate::tests_dir()
        .join("fixtures/responses")
        .join(format!("{name}.json"));
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn json_response(status: u16, body: &str) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_raw(body.to_owned(), "application/json")
}

/// Sends `op` with `query` and asserts the one request the server saw: method, raw
/// (percent-encoded) path, raw query string (`None` means no `?` at all) and headers.
async fn check_request(op: Op<'_>, query: &Query, path: &str, raw_query: Option<&str>) {
    let (result, received) =
        exchange(op, query, json_response(200, &fixture_text("current"))).await;
    let context = format!("{op:?} {query:?}");
    if let Err(error) = &result {
        panic!("{context}: {error}");
    }
    let [request] = received.as_slice() else {
        panic!("{context}: expected one request, got {}", received.len());
    };
    assert_eq!(request.method.as_str(), "GET", "{context}");
    assert_eq!(request.url.path(), path, "{context}");
    assert_eq!(request.url.query(), raw_query, "{context}");
    let header = |name: &str| {
        request
            .headers
            .get(name)
            .and_then(|value| value.to_str().ok())
    };
    assert_eq!(
        header("authorization"),
        Some(format!("Bearer {API_KEY}").as_str()),
        "{context}"
    );
    assert_eq!(header("accept"), Some("application/json"), "{context}");
}

/// Runs a query case through both operations with plain path values.
async fn check_query(query: Query, raw_query: Option<&str>) {
    for op in Op::both("m1", "d1") {
        check_request(op, &query, &op.expected_path("m1", "d1"), raw_query).await;
    }
}

/// `raw` as every path parameter of both operations must arrive as the one segment `encoded`.
async fn check_segment(raw: &str, encoded: &str) {
    for op in Op::both(raw, raw) {
        check_request(op, &q(), &op.expected_path(encoded, encoded), None).await;
    }
}

/// `raw` in any path parameter is refused before anything is sent, naming the parameter.
async fn check_refused(raw: &str) {
    for (model, other) in [(raw, "x1"), ("m1", raw)] {
        for op in Op::both(model, other) {
            let parameter = if model == raw {
                "model_id"
            } else {
                op.other_parameter()
            };
            let (result, received) = exchange(op, &q(), json_response(200, "{}")).await;
            match &result {
                Err(error @ Error::InvalidRequest(message)) => {
                    let named = message.contains(&format!("`{parameter}`"));
                    assert!(named, "{op:?}: {message}");
                    assert_loggable(error);
                }
                other => panic!("{op:?}: expected InvalidRequest, got {other:?}"),
            }
            assert!(
                received.is_empty(),
                "{op:?}: the server saw {:?}",
                received[0].url
            );
        }
    }
}

/// Error messages end up in logs: each must be one line and never carry the key.
fn assert_loggable(error: &Error) {
    let shown = error.to_string();
    assert!(!shown.contains(['\n', '\r']), "not one line: {shown:?}");
    for text in [shown, format!("{error:?}")] {
        assert!(
            !text.contains(API_KEY) && !text.contains("SuperSecret"),
            "key leaked: {text}"
        );
    }
}

#[tokio::test]
async fn query_parameters() {
    // The whole query string is compared, so order and encoding are pinned, not just presence.
    let cases = [
        (q(), None),
        // An empty list sends nothing, not a bare `metrics=`; and no `?` either.
        (q().metrics(Vec::<String>::new()), None),
        (q().mode(Mode::Series), Some("mode=SERIES")),
        (q().mode("SERIES"), Some("mode=SERIES")),
        (q().mode(Mode::Current), Some("mode=CURRENT")),
        // Open enum: a mode the schema does not list yet still goes out as written.
        (q().mode("FUTURE_MODE"), Some("mode=FUTURE_MODE")),
        (
            q().start_epoch_millis(1_i64).end_epoch_millis(2_i64),
            Some("start_epoch_millis=1&end_epoch_millis=2"),
        ),
        (q().end_epoch_millis(-5_i64), Some("end_epoch_millis=-5")),
        (q().metrics(["a", "b"]), Some("metrics=a&metrics=b")),
        (
            q().metrics(["b", "a", "b"]),
            Some("metrics=b&metrics=a&metrics=b"),
        ),
        // Values are form-encoded: `&` and `=` cannot start another pair.
        (
            q().metrics(["a b", "c&d=e"]),
            Some("metrics=a%20b&metrics=c%26d%3De"),
        ),
        // Parameters go out in schema order, whatever order the builder was called in.
        (
            q().metrics(["a"]).end_epoch_millis(9_i64).mode("SUMMARY"),
            Some("mode=SUMMARY&end_epoch_millis=9&metrics=a"),
        ),
        (
            q().mode(Mode::Summary)
                .start_epoch_millis(1_787_663_327_906_i64)
                .end_epoch_millis(1_787_666_927_906_i64)
                .metrics([
                    "baseten_replicas_active",
                    "baseten_inference_requests_total",
                ]),
            Some(
                "mode=SUMMARY&start_epoch_millis=1787663327906&end_epoch_millis=1787666927906\
                 &metrics=baseten_replicas_active&metrics=baseten_inference_requests_total",
            ),
        ),
    ];
    for (query, raw_query) in cases {
        check_query(query, raw_query).await;
    }
}

#[tokio::test]
async fn path_values_stay_one_segment() {
    check_segment("m1", "m1").await;
    check_segment("env/name", "env%2Fname").await;
    check_segment("../../v1/secrets", "..%2F..%2Fv1%2Fsecrets").await;
    check_segment("a?b#c", "a%3Fb%23c").await;
    // Already-encoded dots must not be decoded into a `..` segment by anyone on the way.
    check_segment("%2e%2e", "%252e%252e").await;
    check_segment("prod-é", "prod-%C3%A9").await;
    check_segment("my env", "my%20env").await;
    // URL parsers treat `\` as `/` in http URLs and drop raw tabs.
    check_segment("a\\b", "a%5Cb").await;
    check_segment("a\tb", "a%09b").await;
    check_segment("a+b;c=d", "a%2Bb%3Bc%3Dd").await;
    // Only a whole `.` or `..` navigates; other dot runs are ordinary names.
    check_segment("...", "...").await;
}

#[tokio::test]
async fn navigation_and_empty_path_values_are_refused() {
    check_refused("..").await;
    check_refused(".").await;
    check_refused("").await;
}

/// Serves `fixtures/responses/<name>.json` and decodes it through the client; also returns
/// the fixture as JSON to compare re-serialisation against.
async fn fetch_fixture(name: &str) -> (GetModelMetricsResponseV1, Value) {
    let text = fixture_text(name);
    let (result, received) = exchange(PLAIN, &q(), json_response(200, &text)).await;
    assert_eq!(received.len(), 1, "{name}");
    let response = result.unwrap_or_else(|error| panic!("{name}: {error}"));
    let fixture = serde_json::from_str(&text).unwrap_or_else(|error| panic!("{name}: {error}"));
    (response, fixture)
}

/// Each descriptor's name, unit hint and kind, compared as enums so that, say,
/// `Unknown("COUNT")` cannot pass for `Count`.
fn descriptors(response: &GetModelMetricsResponseV1) -> Vec<(&str, Unit, Kind)> {
    let descriptors = &response.metric_descriptors;
    descriptors
        .iter()
        .map(|d| (d.name.as_str(), d.unit_hint.clone(), d.kind.clone()))
        .collect()
}

/// Each value set as `1|10|11001`: a digit per series, `0` where the server sent null.
fn presence(set: &ModelMetricValueSetV1) -> String {
    let series = set.values.iter().map(|values| {
        values
            .iter()
            .map(|value| if value.is_some() { '1' } else { '0' })
            .collect::<String>()
    });
    series.collect::<Vec<_>>().join("|")
}

/// Re-serialising must give back the fixture exactly, after `adjust` (fields the client drops
/// or fills in); this also round-trips every number.
fn check_reserialised(
    response: &GetModelMetricsResponseV1,
    mut fixture: Value,
    adjust: impl FnOnce(&mut Value),
) {
    adjust(&mut fixture);
    let again = serde_json::to_value(response).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(again, fixture);
}

#[tokio::test]
async fn decodes_current() {
    let (response, fixture) = fetch_fixture("current").await;
    assert_eq!(response.mode, Mode::Current);
    assert_eq!(response.start_epoch_millis, 1_787_666_832_418);
    assert_eq!(response.end_epoch_millis, 1_787_666_832_418);
    assert_eq!(response.step_seconds, None);
    assert_eq!(
        descriptors(&response),
        [
            ("baseten_replicas_active", Unit::Count, Kind::Gauge),
            (
                "baseten_inference_requests_total",
                Unit::Count,
                Kind::Counter
            ),
            (
                "baseten_end_to_end_response_time_seconds",
                Unit::Seconds,
                Kind::Histogram
            ),
        ]
    );
    let statuses = &response.metric_descriptors[1].label_sets;
    assert_eq!(statuses.len(), 2);
    assert_eq!(statuses[1].get("status").map(String::as_str), Some("5xx"));
    assert!(response.metric_descriptors[0].label_sets[0].is_empty());
    let [set] = response.metric_values.as_slice() else {
        panic!("{:?}", response.metric_values)
    };
    assert_eq!(set.start_epoch_millis, 1_787_666_832_418);
    assert_eq!(set.values[0], [Some(2.0)]);
    assert_eq!(set.values[1], [Some(1843.0), Some(12.0)]);
    assert_eq!(set.values[2][0], Some(0.4125));
    assert_eq!(presence(set), "1|11|11111");
    check_reserialised(&response, fixture, |_| {});
}

#[tokio::test]
async fn decodes_summary_without_step_seconds() {
    let (response, fixture) = fetch_fixture("summary").await;
    assert_eq!(response.mode, Mode::Summary);
    assert_eq!(
        response.end_epoch_millis - response.start_epoch_millis,
        3_600_000
    );
    // The fixture leaves `step_seconds` out entirely.
    assert!(fixture.get("step_seconds").is_none());
    assert_eq!(response.step_seconds, None);
    let [set] = response.metric_values.as_slice() else {
        panic!("{:?}", response.metric_values)
    };
    assert_eq!(set.values[1], [Some(311.0), Some(0.0)]);
    assert_eq!(set.values[2][0], Some(0.388));
    // The 0.95 and 0.99 quantiles had no data.
    assert_eq!(presence(set), "1|11|11001");
    let again = serde_json::to_value(&response).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(again.get("step_seconds"), Some(&Value::Null));
    check_reserialised(&response, fixture, |fixture| {
        fixture["step_seconds"] = Value::Null;
    });
}

#[tokio::test]
async fn decodes_series_with_nulls_in_place() {
    let (response, fixture) = fetch_fixture("series").await;
    assert_eq!(response.mode, Mode::Series);
    assert_eq!(response.step_seconds, Some(30));
    assert_eq!(response.metric_descriptors[2].unit_hint, Unit::Mebibytes);
    assert_eq!(response.metric_descriptors[3].unit_hint, Unit::Ratio);
    let starts: Vec<i64> = response
        .metric_values
        .iter()
        .map(|set| set.start_epoch_millis)
        .collect();
    assert_eq!(
        starts,
        [
            1_787_667_015_000,
            1_787_667_045_000,
            1_787_667_075_000,
            1_787_667_105_000,
            1_787_667_135_000,
            1_787_667_165_000
        ]
    );
    let presence: Vec<String> = response.metric_values.iter().map(presence).collect();
    assert_eq!(
        presence,
        [
            "1|11|1|1|00000",
            "1|11|1|1|11111",
            "1|11|1|1|11111",
            "1|11|1|1|11111",
            "1|11|1|1|11111",
            "1|11|0|0|00000"
        ]
    );
    assert_eq!(response.metric_values[2].values[1], [Some(37.0), Some(1.0)]);
    assert_eq!(response.metric_values[2].values[2], [Some(63519.0)]);
    assert_eq!(
        response.metric_values[5].values[4],
        [None, None, None, None, None]
    );
    check_reserialised(&response, fixture, |_| {});
}

#[tokio::test]
async fn decodes_unknown_enum_values_and_ignores_unknown_fields() {
    let (response, fixture) = fetch_fixture("unknown-unit-hint").await;
    assert_eq!(response.metric_descriptors.len(), 4);
    let new = &response.metric_descriptors[3];
    assert_eq!(new.name, "baseten_output_tokens_per_second");
    assert_eq!(new.unit_hint, Unit::Unknown("TOKENS_PER_SECOND".to_owned()));
    assert!(new.unit_hint.is_unknown());
    assert_eq!(new.unit_hint.as_str(), "TOKENS_PER_SECOND");
    assert_eq!(new.kind, Kind::Unknown("SUMMARY_QUANTILES".to_owned()));
    assert!(new.kind.is_unknown());
    assert_eq!(new.kind.to_string(), "SUMMARY_QUANTILES");
    // Known values beside it still decode as their own variants.
    let known = &response.metric_descriptors[1];
    assert_eq!(
        (known.unit_hint.clone(), known.kind.clone()),
        (Unit::Count, Kind::Counter)
    );
    assert!(!known.unit_hint.is_unknown() && !known.kind.is_unknown());
    assert_eq!(
        response.metric_values[0].values[3],
        [Some(87.25), Some(142.6)]
    );

    let again = serde_json::to_value(&response).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        again["metric_descriptors"][3]["unit_hint"],
        json!("TOKENS_PER_SECOND")
    );
    assert_eq!(
        again["metric_descriptors"][3]["kind"],
        json!("SUMMARY_QUANTILES")
    );
    // Unknown fields are ignored on the way in, so they are gone on the way out.
    check_reserialised(&response, fixture, |fixture| {
        let removed = fixture
            .as_object_mut()
            .and_then(|object| object.remove("request_id"));
        assert!(
            removed.is_some(),
            "fixture lost its unknown top-level field"
        );
        let descriptor = fixture["metric_descriptors"][1].as_object_mut();
        let removed = descriptor.and_then(|object| object.remove("display_name"));
        assert!(
            removed.is_some(),
            "fixture lost its unknown descriptor field"
        );
    });
}

/// A non-2xx answer other than 429 is `Error::Api` with the body kept byte for byte, and a
/// one-line message.
async fn check_api_error(status: u16, mime: &str, body: &str, message: &str) {
    let response = ResponseTemplate::new(status).set_body_raw(body.to_owned(), mime);
    let (result, received) = exchange(PLAIN, &q(), response).await;
    assert_eq!(received.len(), 1);
    let error = result.expect_err("a non-2xx status must be an error");
    assert_loggable(&error);
    assert_eq!(error.to_string(), message);
    assert_eq!(error.status(), Some(status));
    match error {
        Error::Api {
            status: got_status,
            body: got_body,
            ..
        } => {
            assert_eq!(got_status, status);
            assert_eq!(got_body, body);
        }
        other => panic!("expected Api, got {other:?}"),
    }
}

#[tokio::test]
async fn non_2xx_is_api_error_with_raw_body() {
    check_api_error(
        404,
        "application/json",
        "{\n  \"error\": \"Model not found\",\n  \"model_id\": \"m1\"\n}\n",
        // The JSON body's `error` text is the message; the whole body is still kept.
        "HTTP 404: Model not found",
    )
    .await;
    check_api_error(
        500,
        "text/html",
        "<!DOCTYPE html>\r\n<html>\r\n  <body><h1>500 Internal Server Error</h1></body>\r\n</html>\r\n",
        "HTTP 500: <!DOCTYPE html> <html> <body><h1>500 Internal Server Error</h1></body> </html>",
    )
    .await;
    check_api_error(400, "text/plain", "", "HTTP 400: (empty body)").await;

    // 429 has its own variant (once retries, if any, are used up).
    let response = ResponseTemplate::new(429).set_body_raw("", "text/plain");
    let (result, received) = exchange(PLAIN, &q(), response).await;
    assert_eq!(received.len(), 1);
    let error = result.expect_err("429 must be an error");
    assert_loggable(&error);
    assert_eq!(error.to_string(), "rate limited (HTTP 429) after 1 attempt");
    assert_eq!(error.status(), Some(429));
    assert!(
        matches!(
            &error,
            Error::RateLimited {
                retry_after: None,
                attempts: 1,
                body,
            } if body.is_empty()
        ),
        "{error:?}"
    );
}

/// A 2xx body that is not the expected JSON is `Error::Decode`, quoting a one-line excerpt.
async fn check_decode_error(body: &str, category: Category, body_excerpt: &str) {
    let (result, received) = exchange(PLAIN, &q(), json_response(200, body)).await;
    assert_eq!(received.len(), 1);
    let error = result.expect_err("undecodable body must be an error");
    assert_loggable(&error);
    assert_eq!(error.status(), None);
    let shown = error.to_string();
    assert!(
        shown.starts_with("response body is not the expected JSON: "),
        "{shown}"
    );
    assert!(
        shown.ends_with(&format!(" (body: {body_excerpt})")),
        "{shown}"
    );
    match error {
        Error::Decode {
            category: got_category,
            message,
            body_excerpt: got,
            ..
        } => {
            assert_eq!(got_category, category, "{body:?}: {message}");
            assert_eq!(got, body_excerpt);
        }
        other => panic!("expected Decode, got {other:?}"),
    }
}

#[tokio::test]
async fn undecodable_2xx_is_decode_error() {
    check_decode_error(
        "<html>\n<p>maintenance</p>\n</html>",
        Category::Syntax,
        "<html> <p>maintenance</p> </html>",
    )
    .await;
    check_decode_error(
        "{\"start_epoch_millis\": 1,",
        Category::Eof,
        "{\"start_epoch_millis\": 1,",
    )
    .await;
    check_decode_error("{}", Category::Data, "{}").await;
    // An empty 2xx body decodes as `null`, which is not a response object.
    check_decode_error("", Category::Data, "(empty body)").await;
    check_decode_error(
        "{\"start_epoch_millis\": \"soon\"}",
        Category::Data,
        "{\"start_epoch_millis\": \"soon\"}",
    )
    .await;
}

#[tokio::test]
async fn transport_failure_is_loggable() {
    // A port that was just free: connecting to it is refused.
    let port = {
        let listener =
            std::net::TcpListener::bind("127.0.0.1:0").unwrap_or_else(|error| panic!("{error}"));
        listener
            .local_addr()
            .unwrap_or_else(|error| panic!("{error}"))
            .port()
    };
    // Connection failures are retried; a tiny backoff keeps this quick.
    let retry = RetryPolicy::default().with_initial_backoff(std::time::Duration::from_millis(1));
    let client = Client::builder()
        .api_key(API_KEY)
        .base_url(format!("http://127.0.0.1:{port}"))
        .retry_policy(retry)
        .build()
        .unwrap_or_else(|error| panic!("client: {error}"));
    let error = call(&client, PLAIN, &q().metrics(["a"]))
        .await
        .expect_err("nothing listens there");
    assert!(matches!(error, Error::Transport(_)), "{error:?}");
    assert_eq!(error.status(), None);
    assert_loggable(&error);
}
