//! A request must choose CURRENT, SUMMARY or SERIES before it can be sent.

use baseten_api::Client;

async fn fetch(client: &Client) {
    let _ = client
        .environment_metrics("abcd1234", "production")
        .metric("baseten_replicas_active")
        .send()
        .await;
}

fn main() {}
