//! A fake API that enforces a request rate per endpoint, as Baseten does (100 requests per second
//! per API key, counted per endpoint), answering the excess with `429` and Baseten's body
//! `{"error": ..., "retry_after": ...}`; it counts what a fleet of pollers cares about:
//! requests, 429s, TCP connections, requests that came before the announced time, and the most
//! requests it held at once. For load tests and the `storm` benchmark; HTTP/1.1 on 127.0.0.1.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt as _, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

/// The longest request head the fake reads; a longer one closes the connection.
const MAX_HEAD_BYTES: u64 = 16 * 1024;

/// What the fake tells a refused request to wait.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RetryAfter {
    /// The same wait every time (`retry_after` in the body, `Retry-After` rounded up).
    Fixed(Duration),
    /// Until the current one-second window ends, when the count starts again.
    UntilWindowEnd,
}

/// How the fake behaves.
#[derive(Debug, Clone)]
pub struct Rules {
    /// Requests allowed per endpoint (request path, query aside) in each one-second window.
    pub limit_per_second: u32,
    /// The wait a 429 announces.
    pub retry_after: RetryAfter,
    /// The body of every admitted request's `200`.
    pub ok_body: String,
    /// How long the fake takes over an admitted request before answering.
    pub latency: Duration,
    /// How long it takes over the first admitted request instead, if set.
    pub first_latency: Option<Duration>,
    /// A request arriving this soon after a 429 was sent was already on its way; it does not
    /// count as [`Stats::early`].
    pub grace: Duration,
}

impl Rules {
    /// `limit_per_second` per endpoint, 429s waiting `retry_after`, admitted requests answered
    /// with `ok_body` at once; 50 ms grace for requests already in flight.
    #[must_use]
    pub fn new(limit_per_second: u32, retry_after: RetryAfter, ok_body: impl Into<String>) -> Self {
        Self {
            limit_per_second,
            retry_after,
            ok_body: ok_body.into(),
            latency: Duration::ZERO,
            first_latency: None,
            grace: Duration::from_millis(50),
        }
    }

    /// Admitted requests take `latency` to answer.
    #[must_use]
    pub fn with_latency(mut self, latency: Duration) -> Self {
        self.latency = latency;
        self
    }

    /// The first admitted request takes `latency` to answer (the others as
    /// [`with_latency`](Self::with_latency) says): one slow answer among fast ones.
    #[must_use]
    pub fn with_first_latency(mut self, latency: Duration) -> Self {
        self.first_latency = Some(latency);
        self
    }
}

/// What the fake has seen so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Requests received.
    pub requests: u64,
    /// Requests admitted (answered `200`, or being answered).
    pub admitted: u64,
    /// Requests answered `429`.
    pub throttled: u64,
    /// TCP connections accepted.
    pub connections: u64,
    /// Requests that arrived after a 429 for their endpoint had been sent (and its grace had
    /// passed) but before the wait it announced was over.
    pub early: u64,
    /// The most admitted requests the fake was answering at one time.
    pub max_concurrent: u64,
}

#[derive(Default)]
struct Counters {
    requests: AtomicU64,
    admitted: AtomicU64,
    throttled: AtomicU64,
    connections: AtomicU64,
    early: AtomicU64,
    concurrent: AtomicU64,
    max_concurrent: AtomicU64,
}

/// Per endpoint: the window being counted and the latest 429's announcement.
#[derive(Default)]
struct Endpoint {
    window: u64,
    count: u32,
    /// When the latest 429 was sent, and until when it asked the client to wait.
    announced: Option<(Instant, Instant)>,
}

struct Shared {
    rules: Rules,
    started: Instant,
    counters: Counters,
    endpoints: Mutex<HashMap<String, Endpoint>>,
}

/// A running fake; it stops accepting when dropped.
pub struct ThrottledServer {
    base_url: String,
    shared: Arc<Shared>,
    accept: tokio::task::JoinHandle<()>,
}

impl std::fmt::Debug for ThrottledServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ThrottledServer")
            .field("base_url", &self.base_url)
            .field("rules", &self.shared.rules)
            .finish_non_exhaustive()
    }
}

impl Drop for ThrottledServer {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

impl ThrottledServer {
    /// Starts the fake on 127.0.0.1 at a free port, inside the current tokio runtime.
    ///
    /// # Errors
    ///
    /// The I/O error if no port can be bound.
    pub async fn start(rules: Rules) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let base_url = format!("http://{}", listener.local_addr()?);
        let shared = Arc::new(Shared {
            rules,
            started: Instant::now(),
            counters: Counters::default(),
            endpoints: Mutex::new(HashMap::new()),
        });
        let serving = Arc::clone(&shared);
        let accept = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                serving.counters.connections.fetch_add(1, Ordering::Relaxed);
                tokio::spawn(serve_connection(stream, Arc::clone(&serving)));
            }
        });
        Ok(Self {
            base_url,
            shared,
            accept,
        })
    }

    /// `http://127.0.0.1:PORT`, for `ClientBuilder::base_url`.
    #[must_use]
    pub fn uri(&self) -> &str {
        &self.base_url
    }

    /// What the fake has seen so far.
    #[must_use]
    pub fn stats(&self) -> Stats {
        let c = &self.shared.counters;
        let load = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        Stats {
            requests: load(&c.requests),
            admitted: load(&c.admitted),
            throttled: load(&c.throttled),
            connections: load(&c.connections),
            early: load(&c.early),
            max_concurrent: load(&c.max_concurrent),
        }
    }
}

/// Answers requests on one keep-alive connection until the client closes it.
async fn serve_connection(stream: TcpStream, shared: Arc<Shared>) {
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    loop {
        let Some(path) = read_head(&mut reader).await else {
            return;
        };
        let response = answer(&shared, &path).await;
        if write.write_all(response.as_bytes()).await.is_err() {
            return;
        }
    }
}

/// The path of the next request (query aside), once its whole head is read; `None` at the end
/// of the connection or for a head that is too long or not HTTP. Requests have no body here.
async fn read_head<R: AsyncRead + Unpin>(reader: &mut BufReader<R>) -> Option<String> {
    let mut limited = (&mut *reader).take(MAX_HEAD_BYTES);
    let mut request_line = String::new();
    if limited.read_line(&mut request_line).await.ok()? == 0 {
        return None;
    }
    loop {
        let mut line = String::new();
        if limited.read_line(&mut line).await.ok()? == 0 {
            return None;
        }
        if line == "\r\n" || line == "\n" {
            break;
        }
    }
    let target = request_line.split(' ').nth(1)?;
    Some(target.split('?').next().unwrap_or(target).to_owned())
}

/// Counts the request against its endpoint's window and writes the whole response.
async fn answer(shared: &Shared, path: &str) -> String {
    let counters = &shared.counters;
    counters.requests.fetch_add(1, Ordering::Relaxed);
    let now = Instant::now();
    let since_start = now.duration_since(shared.started);
    let window = since_start.as_secs();
    let refused_wait = {
        let mut endpoints = shared
            .endpoints
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let endpoint = endpoints.entry(path.to_owned()).or_default();
        if let Some((sent, until)) = endpoint.announced
            && now < until
            && now > sent + shared.rules.grace
        {
            counters.early.fetch_add(1, Ordering::Relaxed);
        }
        if endpoint.window != window {
            endpoint.window = window;
            endpoint.count = 0;
        }
        if endpoint.count < shared.rules.limit_per_second {
            endpoint.count += 1;
            None
        } else {
            let wait = match shared.rules.retry_after {
                RetryAfter::Fixed(wait) => wait,
                RetryAfter::UntilWindowEnd => {
                    Duration::from_secs(window + 1).saturating_sub(since_start)
                }
            };
            endpoint.announced = Some((now, now + wait));
            Some(wait)
        }
    };
    if let Some(wait) = refused_wait {
        counters.throttled.fetch_add(1, Ordering::Relaxed);
        let body = format!(
            "{{\"error\":\"Too many requests\",\"retry_after\":{}}}",
            wait.as_secs_f64()
        );
        let header_secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        return format!(
            "HTTP/1.1 429 Too Many Requests\r\nretry-after: {header_secs}\r\n\
             content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
    }
    let concurrent = counters.concurrent.fetch_add(1, Ordering::Relaxed) + 1;
    counters
        .max_concurrent
        .fetch_max(concurrent, Ordering::Relaxed);
    let first = counters.admitted.fetch_add(1, Ordering::Relaxed) == 0;
    let latency = match shared.rules.first_latency {
        Some(latency) if first => latency,
        _ => shared.rules.latency,
    };
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
    }
    counters.concurrent.fetch_sub(1, Ordering::Relaxed);
    format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{}",
        shared.rules.ok_body.len(),
        shared.rules.ok_body
    )
}
