//! A key rate-limited with an absurd wait (issue 29's case, as a monitor met it): `watch` keeps
//! polling, reports the refusal with the wait asked for, and counts the polls it sent.

use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::{cli_context, run_cli, tests_dir};

/// `watch --interval 1 --count 3` against the same server: three requests are sent, the
/// refusal is reported with the wait asked for, and the next poll is an interval away.
#[tokio::test(flavor = "multi_thread")]
async fn watch_keeps_polling_past_an_absurd_retry_after_and_counts_polls_sent() {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("retry-after", "1733200000")
                .set_body_raw(r#"{"code": "RATE_LIMITED"}"#, "application/json"),
        )
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    let current = std::fs::read(tests_dir().join("fixtures/responses/current.json"))
        .unwrap_or_else(|error| panic!("{error}"));
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_raw(current, "application/json"))
        .with_priority(2)
        .mount(&server)
        .await;
    let uri = server.uri();
    let output = tokio::task::spawn_blocking(move || {
        let args = [
            "watch",
            "--model",
            "m",
            "--environment",
            "e",
            "--interval",
            "1",
            "--count",
            "3",
            "--format",
            "csv",
            "--base-url",
            &uri,
        ];
        run_cli(&args, &cli_context())
    })
    .await
    .unwrap_or_else(|error| panic!("{error}"));
    assert!(output.success(), "stderr: {}", output.stderr);
    let requests = server.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 3, "stderr: {}", output.stderr);
    let lines: Vec<&str> = output.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", output.stderr);
    assert!(lines[0].contains("481444h26m40s"), "{}", lines[0]);
    assert!(lines[0].ends_with("next poll in 1s"), "{}", lines[0]);
}
