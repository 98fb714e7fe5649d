//! CURRENT is a snapshot taken now: it takes no window.

use baseten_api::{Client, requests::Window};

async fn fetch(client: &Client) -> Result<(), baseten_api::Error> {
    let window = Window::new(1_783_191_332_703, 1_783_192_532_703)?;
    let _ = client
        .environment_metrics("abcd1234", "production")
        .current(window)
        .send()
        .await?;
    Ok(())
}

fn main() {}
