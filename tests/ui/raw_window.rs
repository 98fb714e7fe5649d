//! A window is a checked `Window`, never a raw `(start, end)` pair.

use baseten_api::Client;

async fn fetch(client: &Client) -> Result<(), baseten_api::Error> {
    let _ = client
        .environment_metrics("abcd1234", "production")
        .series((1_783_191_332_703_i64, 1_783_192_532_703_i64))
        .send()
        .await?;
    Ok(())
}

fn main() {}
