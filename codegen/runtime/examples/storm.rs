//! The fleet benchmark: 200 concurrent `CURRENT` polls a tick through one client, against a
//! local fake enforcing 100 requests/s per endpoint that answers the excess with 429 and a
//! `retry_after` of 1 s or 5 s. Prints, per scenario, requests sent per offered poll, each
//! tick's duration, TCP connections opened, 429s received and polls that failed.
//!
//! `cargo run -p baseten-runtime --features mock --example storm` (a debug build is fine: the
//! figures are counts and seconds of waiting, not CPU time).

use std::time::{Duration, Instant};

use baseten_runtime::mock::throttled::{RetryAfter, Rules, ThrottledServer};
use baseten_runtime::param_style::Params;
use baseten_runtime::{ClientBuilder, Error, Method, Request, RuntimeClient};

/// Polls offered per tick, all at once.
const POLLS: usize = 200;
/// Ticks per scenario.
const TICKS: usize = 3;
/// Time from one tick's start to the next.
const PERIOD: Duration = Duration::from_secs(10);
/// What the fake admits per endpoint and second.
const LIMIT_PER_SECOND: u32 = 100;

fn current_poll() -> Request {
    let mut params = Params::new();
    params.fixed_query("mode", "CURRENT");
    Request {
        operation: "get_model_environment_metrics",
        method: Method::GET,
        path_template: "/v1/models/{model_id}/environments/{env_name}/metrics",
        path: "/v1/models/m1/environments/production/metrics".to_owned(),
        params,
        body: None,
        security: Default::default(),
    }
}

struct Scenario {
    name: &'static str,
    retry_after: Duration,
    configure: fn(ClientBuilder) -> ClientBuilder,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let scenarios = [
        Scenario {
            name: "default client, Retry-After 1 s",
            retry_after: Duration::from_secs(1),
            configure: |builder| builder,
        },
        Scenario {
            name: "default client, Retry-After 5 s",
            retry_after: Duration::from_secs(5),
            configure: |builder| builder,
        },
        Scenario {
            name: "limiter on (90 requests/s per endpoint), Retry-After 5 s",
            retry_after: Duration::from_secs(5),
            configure: |builder| builder.endpoint_rate_limit(90.0),
        },
        Scenario {
            name: "limiter on (90 requests/s per endpoint) and max_in_flight(8), Retry-After 5 s",
            retry_after: Duration::from_secs(5),
            configure: |builder| builder.endpoint_rate_limit(90.0).max_in_flight(8),
        },
    ];
    for scenario in scenarios {
        run(&scenario).await?;
    }
    fleet().await
}

/// The issue's fleet: 200 pollers of `CURRENT` every 500 ms for 8 s through one default
/// client, against 50 requests/s per endpoint (429s asking to wait until the second is over).
async fn fleet() -> Result<(), Box<dyn std::error::Error>> {
    let rules = Rules::new(50, RetryAfter::UntilWindowEnd, r#"{"ok":true}"#);
    let fake = ThrottledServer::start(rules).await?;
    let client = ClientBuilder::<RuntimeClient>::new(fake.uri())
        .api_key("bench-key")
        .build()?;
    let until = Instant::now() + Duration::from_secs(8);
    let mut pollers = tokio::task::JoinSet::new();
    for _ in 0..200 {
        let client = client.clone();
        pollers.spawn(async move {
            let mut ticks = tokio::time::interval(Duration::from_millis(500));
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            let (mut ok, mut rate_limited, mut other) = (0u64, 0u64, 0u64);
            while Instant::now() < until {
                ticks.tick().await;
                match client.execute::<serde_json::Value>(current_poll()).await {
                    Ok(_) => ok += 1,
                    Err(Error::RateLimited { .. }) => rate_limited += 1,
                    Err(_) => other += 1,
                }
            }
            (ok, rate_limited, other)
        });
    }
    let (mut ok, mut rate_limited, mut other) = (0, 0, 0);
    while let Some(joined) = pollers.join_next().await {
        let (a, b, c) = joined?;
        ok += a;
        rate_limited += b;
        other += c;
    }
    let stats = fake.stats();
    println!("200 pollers every 500 ms for 8 s, server allowing 50 requests/s");
    println!(
        "  requests per successful poll {:.2} ({} sent, {ok} polls succeeded)",
        stats.requests as f64 / ok.max(1) as f64,
        stats.requests
    );
    println!(
        "  polls failed             {} ({rate_limited} rate limited)",
        rate_limited + other
    );
    println!("  429s received            {}", stats.throttled);
    println!("  TCP connections opened   {}", stats.connections);
    Ok(())
}

async fn run(scenario: &Scenario) -> Result<(), Box<dyn std::error::Error>> {
    let rules = Rules::new(
        LIMIT_PER_SECOND,
        RetryAfter::Fixed(scenario.retry_after),
        r#"{"ok":true}"#,
    );
    let fake = ThrottledServer::start(rules).await?;
    let builder = ClientBuilder::<RuntimeClient>::new(fake.uri()).api_key("bench-key");
    let client = (scenario.configure)(builder).build()?;
    let mut ticks = Vec::new();
    let mut failed = 0usize;
    let mut rate_limited = 0usize;
    for _ in 0..TICKS {
        let started = Instant::now();
        let mut polls = tokio::task::JoinSet::new();
        for _ in 0..POLLS {
            let client = client.clone();
            polls.spawn(async move {
                client
                    .execute::<serde_json::Value>(current_poll())
                    .await
                    .map(drop)
            });
        }
        while let Some(joined) = polls.join_next().await {
            match joined? {
                Ok(()) => {}
                Err(Error::RateLimited { .. }) => {
                    failed += 1;
                    rate_limited += 1;
                }
                Err(_) => failed += 1,
            }
        }
        let took = started.elapsed();
        ticks.push(took);
        tokio::time::sleep(PERIOD.saturating_sub(took)).await;
    }
    let stats = fake.stats();
    let offered = POLLS * TICKS;
    let ticks: Vec<String> = ticks
        .iter()
        .map(|tick| format!("{:.2}s", tick.as_secs_f64()))
        .collect();
    println!("{}", scenario.name);
    println!(
        "  requests per offered poll {:.2} ({} sent for {offered} polls)",
        stats.requests as f64 / offered as f64,
        stats.requests
    );
    println!("  tick durations           {}", ticks.join(" "));
    println!("  TCP connections opened   {}", stats.connections);
    println!("  429s received            {}", stats.throttled);
    println!("  polls failed             {failed} ({rate_limited} rate limited)");
    println!("  sent before the server's time {}", stats.early);
    Ok(())
}
