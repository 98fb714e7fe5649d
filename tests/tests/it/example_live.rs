//! The `metrics` example fetching live from a local wiremock server: the request it sends, the
//! CSV it prints, and the requests it refuses without sending anything.

use std::process::Output;

use baseten_api::metrics::CSV_HEADER;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// The recorded SERIES fixture's own window, so the request is one the server could answer.
const START: &str = "1787667015264";
const END: &str = "1787667165264";

/// Shaped like a real key, so a leak into any message is easy to spot.
const SECRET_KEY: &str = "abcdefgh.SuperSecretExampleKey0123456789";

/// A server answering every request with the fixture `tests/fixtures/responses/<name>.json`.
async fn server_answering(name: &str) -> MockServer {
    let path = baseten_tests::tests_dir()
        .join("fixtures/responses")
        .join(format!("{name}.json"));
    let body =
        std::fs::read(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
    let server = MockServer::builder().start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_raw(body, "application/json"))
        .mount(&server)
        .await;
    server
}

/// Runs the example with `args` in a blocking thread, so the server keeps answering on this
/// test's runtime meanwhile.
async fn run_example(args: Vec<String>) -> Output {
    tokio::task::spawn_blocking(move || {
        baseten_tests::metrics_example_command()
            .args(&args)
            // Only the flags may configure the client.
            .env_remove("BASETEN_BASE_URL")
            .env_remove("BASETEN_API_KEY")
            .output()
    })
    .await
    .unwrap_or_else(|error| panic!("joining the example's thread: {error}"))
    .unwrap_or_else(|error| panic!("running the metrics example: {error}"))
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|arg| (*arg).to_owned()).collect()
}

async fn received(server: &MockServer) -> Vec<wiremock::Request> {
    server
        .received_requests()
        .await
        .unwrap_or_else(|| panic!("request recording is on by default"))
}

#[tokio::test(flavor = "multi_thread")]
async fn series_of_an_environment_as_csv() {
    let server = server_answering("series").await;
    let output = run_example(args(&[
        "--base-url",
        &server.uri(),
        "--api-key",
        "k",
        "--model",
        "m",
        "--environment",
        "production",
        "--mode",
        "series",
        "--start",
        START,
        "--end",
        END,
        "--metric",
        "x",
        "--format",
        "csv",
    ]))
    .await;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "stderr: {stderr}");
    let header = CSV_HEADER.join(",");
    assert_eq!(
        stdout.lines().next(),
        Some(header.as_str()),
        "stdout: {stdout}"
    );
    assert!(
        stdout.contains(",baseten_end_to_end_response_time_seconds,quantile=0.99,"),
        "stdout: {stdout}"
    );

    let requests = received(&server).await;
    let [request] = requests.as_slice() else {
        panic!("expected one request, got {requests:?}");
    };
    assert_eq!(request.method.as_str(), "GET");
    assert_eq!(
        request.url.path(),
        "/v1/models/m/environments/production/metrics"
    );
    assert_eq!(
        request.url.query(),
        Some(
            format!("mode=SERIES&start_epoch_millis={START}&end_epoch_millis={END}&metrics=x")
                .as_str()
        )
    );
    assert_eq!(
        request
            .headers
            .get("authorization")
            .and_then(|value| value.to_str().ok()),
        Some("Bearer k")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn summary_of_a_deployment_since_a_start_as_table() {
    let server = server_answering("summary").await;
    let output = run_example(args(&[
        "--base-url",
        &server.uri(),
        "--api-key",
        "k",
        "--model",
        "m",
        "--deployment",
        "d1",
        "--mode",
        "summary",
        "--start",
        START,
        "--metric",
        "a",
        "--metric",
        "b",
        "--metric",
        "a",
    ]))
    .await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "stderr: {stderr}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("SUMMARY from "), "stdout: {stdout}");

    let requests = received(&server).await;
    let [request] = requests.as_slice() else {
        panic!("expected one request, got {requests:?}");
    };
    assert_eq!(request.url.path(), "/v1/models/m/deployments/d1/metrics");
    // The end is left to the server; a metric asked for twice is sent once.
    assert_eq!(
        request.url.query(),
        Some(format!("mode=SUMMARY&start_epoch_millis={START}&metrics=a&metrics=b").as_str())
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn refused_requests_are_never_sent() {
    let server = server_answering("current").await;
    let uri = server.uri();
    let week_and_a_millisecond = "604800001";
    let cases: [&[&str]; 4] = [
        &[
            "--environment",
            "production",
            "--mode",
            "current",
            "--start",
            "1",
        ],
        &[
            "--environment",
            "production",
            "--mode",
            "series",
            "--start",
            "0",
            "--end",
            week_and_a_millisecond,
        ],
        &[
            "--environment",
            "production",
            "--mode",
            "summary",
            "--start",
            END,
            "--end",
            START,
        ],
        &["--environment", "production", "--deployment", "d1"],
    ];
    for case in cases {
        let mut full = args(&["--base-url", &uri, "--api-key", SECRET_KEY, "--model", "m"]);
        full.extend(args(case));
        let output = run_example(full).await;
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{case:?}: stderr: {stderr}");
        assert!(output.stdout.is_empty(), "{case:?}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert!(
            lines.len() == 1 && lines.iter().all(|line| line.starts_with("error: ")),
            "{case:?}: stderr: {stderr}"
        );
        assert!(!stderr.contains(SECRET_KEY), "{case:?}: stderr: {stderr}");
    }
    assert_eq!(received(&server).await.len(), 0);
}

/// A server error is reported on one line, without the key, and the example exits 1.
#[tokio::test(flavor = "multi_thread")]
async fn api_errors_are_one_line_without_the_key() {
    let server = MockServer::builder().start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(404).set_body_raw(
            r#"{"code": "NOT_FOUND", "message": "no model m"}"#,
            "application/json",
        ))
        .mount(&server)
        .await;
    let output = run_example(args(&[
        "--base-url",
        &server.uri(),
        "--api-key",
        SECRET_KEY,
        "--model",
        "m",
        "--environment",
        "production",
    ]))
    .await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "stderr: {stderr}");
    assert_eq!(
        stderr,
        "error: fetching metrics: HTTP 404 NOT_FOUND: no model m\n"
    );
    assert_eq!(received(&server).await.len(), 1);
}
