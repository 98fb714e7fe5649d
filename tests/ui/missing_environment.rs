//! Environment metrics need both the model and the environment.

use baseten_api::Client;

async fn fetch(client: &Client) -> Result<(), baseten_api::Error> {
    let _ = client
        .environment_metrics("abcd1234")
        .current()
        .send()
        .await?;
    Ok(())
}

fn main() {}
