//! Which failed requests the client sends again, the whole table: every method × every kind of
//! failure × the caller's opt-in, against a server on 127.0.0.1 (the table on `RetryPolicy`).
//! What the server said decides first (a 429, a 503 naming its wait, a connection never made:
//! not processed, resent for every method); the method decides the rest (RFC 9110 §9.2.2).

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use baseten_api::client::{AttemptContext, Interceptor, RetryPolicy};
use baseten_api::runtime::{Method, Request};
use baseten_api::{Client, Error};
use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _, BufReader};
use tokio::net::{TcpListener, TcpSocket};

/// How every attempt of a row fails.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// This status, with this `Retry-After` header if any.
    Status(u16, Option<&'static str>),
    /// A 503 naming its wait in the body's `retry_after` rather than a header.
    ServiceUnavailableBodyWait,
    /// Nobody listens: the connection is refused, nothing is written.
    Refused,
    /// The server reads the request and hangs up without an answer.
    DroppedAfterRequest,
    /// The server reads the request and never answers: the client's timeout ends the attempt.
    Silent,
}

/// Who resends a failure of this kind: every method (the request was not processed), only an
/// idempotent method or an opted-in caller (it may have been), or nobody.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Resent {
    Always,
    IfIdempotentOrOptedIn,
    Never,
}

const TABLE: [(Kind, Resent); 17] = [
    (Kind::Status(429, Some("0")), Resent::Always),
    (Kind::Status(429, None), Resent::Always),
    (Kind::Status(503, Some("0")), Resent::Always),
    (Kind::ServiceUnavailableBodyWait, Resent::Always),
    (Kind::Refused, Resent::Always),
    (Kind::Status(503, None), Resent::IfIdempotentOrOptedIn),
    (Kind::Status(500, None), Resent::IfIdempotentOrOptedIn),
    (Kind::Status(502, None), Resent::IfIdempotentOrOptedIn),
    (Kind::Status(504, None), Resent::IfIdempotentOrOptedIn),
    (Kind::Status(408, None), Resent::IfIdempotentOrOptedIn),
    // A `Retry-After` on another status than 429 and 503 does not say "not processed".
    (Kind::Status(500, Some("0")), Resent::IfIdempotentOrOptedIn),
    (Kind::DroppedAfterRequest, Resent::IfIdempotentOrOptedIn),
    (Kind::Silent, Resent::IfIdempotentOrOptedIn),
    (Kind::Status(501, None), Resent::Never),
    (Kind::Status(400, None), Resent::Never),
    (Kind::Status(404, None), Resent::Never),
    (Kind::Status(409, Some("0")), Resent::Never),
];

/// RFC 9110 §9.2.2: the idempotent methods, and the two that are not, as the client sends them.
const METHODS: [(&str, bool); 8] = [
    ("GET", true),
    ("HEAD", true),
    ("PUT", true),
    ("DELETE", true),
    ("OPTIONS", true),
    ("TRACE", true),
    ("POST", false),
    ("PATCH", false),
];

const ATTEMPTS: u32 = 3;

/// Counts the attempts that were let go, whether or not a server saw them.
#[derive(Default, Clone)]
struct Sent(Arc<AtomicU32>);

impl Interceptor for Sent {
    fn before_send(&self, _: &mut reqwest::Request, _: &AttemptContext) -> Result<(), Error> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

/// A server failing every request as `kind` says: its base URL, and what holds its port. It
/// stops with the runtime.
async fn failing_server(kind: Kind) -> (String, Option<TcpSocket>) {
    if kind == Kind::Refused {
        // Bound but not listening: connecting is refused, and no other server (of this table or
        // another test) can take the port while the row runs.
        let socket = TcpSocket::new_v4().unwrap_or_else(|error| panic!("{error}"));
        let bound = socket.bind(([127, 0, 0, 1], 0).into());
        bound.unwrap_or_else(|error| panic!("{error}"));
        let address = socket
            .local_addr()
            .unwrap_or_else(|error| panic!("{error}"));
        return (format!("http://{address}"), Some(socket));
    }
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let address = listener
        .local_addr()
        .unwrap_or_else(|error| panic!("{error}"));
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(answer(stream, kind));
        }
    });
    (format!("http://{address}"), None)
}

/// Reads one request (its head and a `content-length` body) and fails it.
async fn answer(stream: tokio::net::TcpStream, kind: Kind) {
    let mut reader = BufReader::new(stream);
    let mut length = 0usize;
    for _ in 0..100 {
        let mut line = String::new();
        if reader.read_line(&mut line).await.unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length.min(1 << 16)];
    let _ = reader.read_exact(&mut body).await;
    let mut stream = reader.into_inner();
    let (status, retry_after, body) = match kind {
        Kind::Status(status, retry_after) => (status, retry_after, ""),
        Kind::ServiceUnavailableBodyWait => (503, None, r#"{"retry_after": 0}"#),
        Kind::DroppedAfterRequest | Kind::Refused => return,
        Kind::Silent => {
            tokio::time::sleep(Duration::from_secs(20)).await;
            return;
        }
    };
    let header = retry_after.map_or(String::new(), |wait| format!("retry-after: {wait}\r\n"));
    let response = format!(
        "HTTP/1.1 {status} Failed\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\n{header}\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
}

/// How many attempts one row's call made.
async fn attempts(kind: Kind, method: &'static str, opted_in: bool) -> u32 {
    let (base, _port) = failing_server(kind).await;
    let sent = Sent::default();
    let policy = RetryPolicy::default()
        .with_max_attempts(ATTEMPTS)
        .with_initial_backoff(Duration::from_millis(1))
        .with_max_backoff(Duration::from_millis(5))
        .with_non_idempotent_retries(opted_in);
    let client: Client = Client::builder()
        .base_url(&base)
        .retry_policy(policy)
        // Short only where the server is silent (a timeout is what that row is about); ample
        // elsewhere, so a loaded machine's slow answer is not mistaken for a timeout.
        .timeout(Duration::from_millis(if kind == Kind::Silent {
            200
        } else {
            10_000
        }))
        .interceptor(sent.clone())
        .build()
        .unwrap_or_else(|error| panic!("client: {error}"));
    let method = Method::from_bytes(method.as_bytes()).unwrap_or_else(|error| panic!("{error}"));
    let body = matches!(method, Method::POST | Method::PATCH | Method::PUT).then(|| {
        baseten_api::runtime::Body {
            content_type: "application/json".into(),
            bytes: br#"{"replicas":2}"#.to_vec(),
        }
    });
    let request = Request {
        operation: "retry_table",
        method,
        path_template: "/v1/things/{id}",
        path: "/v1/things/t1".to_owned(),
        params: baseten_api::runtime::param_style::Params::new(),
        body,
        security: Default::default(),
    };
    let result = client.runtime().execute::<serde_json::Value>(request).await;
    assert!(result.is_err(), "{kind:?}: {result:?}");
    sent.0.load(Ordering::SeqCst)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_method_and_failure_is_resent_by_what_the_server_said() {
    let mut rows = tokio::task::JoinSet::new();
    for (kind, resent) in TABLE {
        for (method, idempotent) in METHODS {
            for opted_in in [false, true] {
                rows.spawn(async move {
                    let expected = match resent {
                        Resent::Always => ATTEMPTS,
                        Resent::IfIdempotentOrOptedIn if idempotent || opted_in => ATTEMPTS,
                        Resent::IfIdempotentOrOptedIn | Resent::Never => 1,
                    };
                    let seen = attempts(kind, method, opted_in).await;
                    (kind, method, opted_in, expected, seen)
                });
            }
        }
    }
    let mut wrong = Vec::new();
    let mut rows_run = 0;
    while let Some(row) = rows.join_next().await {
        let (kind, method, opted_in, expected, seen) =
            row.unwrap_or_else(|error| panic!("{error}"));
        rows_run += 1;
        if seen != expected {
            wrong.push(format!(
                "{method} {kind:?} opted_in={opted_in}: {seen} attempts, expected {expected}"
            ));
        }
    }
    assert_eq!(rows_run, TABLE.len() * METHODS.len() * 2);
    assert!(wrong.is_empty(), "{wrong:#?}");
}
