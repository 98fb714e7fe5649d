//! SUMMARY and CURRENT results hold one value set: they have no steps.

use baseten_api::{Client, requests::Window};

async fn fetch(client: &Client) -> Result<(), baseten_api::Error> {
    let window = Window::new(1_783_191_332_703, 1_783_192_532_703)?;
    let summary = client
        .environment_metrics("abcd1234", "production")
        .summary(window)
        .send()
        .await?;
    let _steps = summary.steps();

    let current = client
        .deployment_metrics("abcd1234", "q4w8e2r")
        .current()
        .send()
        .await?;
    let _ = current.steps();
    Ok(())
}

fn main() {}
