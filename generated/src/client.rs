//! The API client: connection pool, base URL and credentials, and the one
//! function every generated operation sends its request through.

use std::fmt;

use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderValue};

use crate::error::{Error, excerpt};
use crate::runtime::Request;

/// Sent with every request so Baseten can tell this client's traffic apart.
const USER_AGENT: &str = concat!("baseten-api-rust/", env!("CARGO_PKG_VERSION"));

/// The message for a key that cannot be sent as a header; it deliberately
/// says nothing about the key itself.
const INVALID_KEY: &str = "API key is not a valid HTTP header value";

/// A ready-made `Authorization` header value. Kept private and redacted so
/// the key cannot leak through `Debug` output or reqwest's own logging
/// (the value is marked sensitive).
#[derive(Clone)]
struct ApiKey(HeaderValue);

impl ApiKey {
    fn new(key: &str) -> Result<Self, Error> {
        if key.is_empty() {
            return Err(Error::InvalidRequest("API key is empty".to_owned()));
        }
        // Baseten accepts both `Bearer <key>` and `Api-Key <key>`.
        let mut value = HeaderValue::try_from(format!("Bearer {key}"))
            .map_err(|_| Error::InvalidRequest(INVALID_KEY.to_owned()))?;
        value.set_sensitive(true);
        Ok(Self(value))
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// A client for Baseten's management API.
///
/// Cheap to clone: clones share one connection pool, so create one client
/// and reuse it. The generated operations (see [`crate::operations`]) send
/// their requests through it.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    /// Without a trailing slash; request paths start with one.
    base_url: String,
    api_key: Option<ApiKey>,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client for [`DEFAULT_BASE_URL`](crate::DEFAULT_BASE_URL) that
    /// authenticates with `api_key`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] if the key is empty or cannot be sent as an
    /// HTTP header value; [`Error::Transport`] if the HTTP stack cannot be
    /// initialised.
    pub fn new(api_key: impl Into<String>) -> Result<Self, Error> {
        Self::builder().api_key(api_key).build()
    }

    /// A builder for a client with a different base URL or no API key.
    #[must_use]
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// The base URL requests go to, without a trailing slash.
    #[must_use]
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Sends one request and decodes a 2xx JSON response into `T`.
    ///
    /// Called by the generated operations, which build `request`; not meant
    /// to be called directly.
    ///
    /// An empty 2xx body decodes as JSON `null`, so `T = ()` (or an
    /// `Option`) works for `204 No Content`.
    ///
    /// # Errors
    ///
    /// [`Error::Api`] for any non-2xx status, [`Error::Decode`] for a 2xx
    /// body that is not the expected JSON, [`Error::Transport`] if the
    /// exchange fails, [`Error::InvalidRequest`] if the request's path is
    /// unusable.
    #[doc(hidden)]
    pub async fn execute<T: serde::de::DeserializeOwned>(
        &self,
        request: Request,
    ) -> Result<T, Error> {
        let url = self.url_for(&request)?;
        let mut builder = self
            .http
            .request(request.method, url)
            .header(ACCEPT, HeaderValue::from_static("application/json"));
        if let Some(key) = &self.api_key {
            builder = builder.header(AUTHORIZATION, key.0.clone());
        }
        if let Some(body) = request.body {
            builder = builder
                .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
                .body(body);
        }

        let response = builder.send().await.map_err(Error::Transport)?;
        let status = response.status();
        let bytes = response.bytes().await.map_err(Error::Transport)?;

        if !status.is_success() {
            return Err(Error::Api {
                status: status.as_u16(),
                body: String::from_utf8_lossy(&bytes).into_owned(),
            });
        }
        decode(&bytes)
    }

    /// `{base_url}{path}?{query}`. The path arrives percent-encoded; query
    /// pairs are form-encoded here, repeating keys as given.
    fn url_for(&self, request: &Request) -> Result<reqwest::Url, Error> {
        if !request.path.starts_with('/') {
            return Err(Error::InvalidRequest(format!(
                "{}: request path does not start with '/'",
                request.operation
            )));
        }
        let mut url = reqwest::Url::parse(&format!("{}{}", self.base_url, request.path)).map_err(
            |source| {
                Error::InvalidRequest(format!(
                    "{}: cannot build the request URL: {source}",
                    request.operation
                ))
            },
        )?;
        if !request.query.is_empty() {
            url.query_pairs_mut()
                .extend_pairs(request.query.iter().map(|(k, v)| (*k, v.as_str())));
        }
        Ok(url)
    }
}

/// Decodes a 2xx body; an empty (or all-whitespace) body counts as `null`.
fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    let json: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"null"
    } else {
        bytes
    };
    serde_json::from_slice(json).map_err(|source| Error::Decode {
        source,
        body_excerpt: excerpt(&String::from_utf8_lossy(bytes)),
    })
}

/// Configures a [`Client`]; start with [`Client::builder`].
#[derive(Clone, Default)]
pub struct ClientBuilder {
    api_key: Option<String>,
    base_url: Option<String>,
}

impl fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("base_url", &self.base_url)
            .finish()
    }
}

impl ClientBuilder {
    /// The API key to send as `Authorization: Bearer <key>`. Without one,
    /// requests go out unauthenticated.
    #[must_use]
    pub fn api_key(mut self, api_key: impl Into<String>) -> Self {
        self.api_key = Some(api_key.into());
        self
    }

    /// Where to send requests instead of
    /// [`DEFAULT_BASE_URL`](crate::DEFAULT_BASE_URL), e.g. a test server.
    /// An absolute `http` or `https` URL, optionally with a path prefix;
    /// trailing slashes are ignored.
    #[must_use]
    pub fn base_url(mut self, base_url: impl Into<String>) -> Self {
        self.base_url = Some(base_url.into());
        self
    }

    /// Builds the client.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] if the API key is empty or not a valid HTTP
    /// header value, or the base URL is not an absolute `http(s)` URL
    /// without query or fragment; [`Error::Transport`] if the HTTP stack
    /// cannot be initialised.
    pub fn build(self) -> Result<Client, Error> {
        let api_key = self.api_key.as_deref().map(ApiKey::new).transpose()?;
        let base_url = normalise_base_url(
            self.base_url
                .as_deref()
                .unwrap_or(crate::operations::DEFAULT_BASE_URL),
        )?;
        let http = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .build()
            .map_err(Error::Transport)?;
        Ok(Client {
            http,
            base_url,
            api_key,
        })
    }
}

/// Checks the base URL and drops trailing slashes, so that appending a path
/// (which starts with `/`) never produces `//`.
fn normalise_base_url(base_url: &str) -> Result<String, Error> {
    // The message does not echo the URL: it could carry credentials in its
    // userinfo part.
    let invalid = || {
        Error::InvalidRequest(
            "base URL must be an absolute http(s) URL without query or fragment".to_owned(),
        )
    };
    let trimmed = base_url.trim_end_matches('/');
    let parsed = reqwest::Url::parse(trimmed).map_err(|_| invalid())?;
    let usable = matches!(parsed.scheme(), "http" | "https")
        && parsed.has_host()
        && parsed.query().is_none()
        && parsed.fragment().is_none();
    if usable {
        Ok(trimmed.to_owned())
    } else {
        Err(invalid())
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpListener;
    use std::thread::JoinHandle;

    use super::*;
    use crate::runtime::Method;

    const SECRET: &str = "abcdefgh.SuperSecretKey1234567890";

    fn client_for(base_url: &str) -> Client {
        match Client::builder().api_key(SECRET).base_url(base_url).build() {
            Ok(client) => client,
            Err(err) => panic!("client: {err}"),
        }
    }

    #[test]
    fn client_is_clone_send_sync() {
        fn assert_bounds<T: Clone + Send + Sync + 'static>() {}
        assert_bounds::<Client>();
    }

    #[test]
    fn debug_never_shows_the_key() {
        let client = client_for("https://api.baseten.co/");
        assert_eq!(client.base_url(), "https://api.baseten.co");
        for shown in [
            format!("{client:?}"),
            format!("{client:#?}"),
            format!("{:?}", client.api_key),
            format!("{:?}", Client::builder().api_key(SECRET)),
        ] {
            assert!(!shown.contains(SECRET), "{shown}");
            assert!(!shown.contains("SuperSecret"), "{shown}");
        }
        assert_eq!(format!("{:?}", client.api_key), "Some(ApiKey(<redacted>))");
    }

    #[test]
    fn invalid_key_is_refused_without_echo() {
        for key in [
            format!("{SECRET}\n"),
            format!("{SECRET}\r\nX-Evil: 1"),
            format!("{SECRET}\0"),
        ] {
            match Client::new(key.as_str()) {
                Err(err @ Error::InvalidRequest(_)) => {
                    let shown = format!("{err} {err:?}");
                    assert!(!shown.contains("SuperSecret"), "{shown}");
                    assert!(shown.contains(INVALID_KEY), "{shown}");
                }
                other => panic!("{other:?}"),
            }
        }
        assert!(matches!(Client::new(""), Err(Error::InvalidRequest(_))));
    }

    #[test]
    fn default_and_custom_base_urls() {
        let default = Client::new(SECRET).map(|c| c.base_url().to_owned()).ok();
        assert_eq!(default.as_deref(), Some(crate::DEFAULT_BASE_URL));
        assert_eq!(
            client_for("http://127.0.0.1:9/prefix//").base_url(),
            "http://127.0.0.1:9/prefix"
        );
        for bad in [
            "",
            "api.baseten.co",
            "ftp://x.test",
            "https://x.test/?a=b",
            "https://x.test/#f",
            "mailto:someone@x.test",
        ] {
            let built = Client::builder().base_url(bad).build();
            assert!(matches!(built, Err(Error::InvalidRequest(_))), "{bad}");
        }
    }

    #[test]
    fn decode_treats_empty_as_null_and_bounds_excerpt() {
        assert!(matches!(decode::<()>(b""), Ok(())));
        assert!(matches!(decode::<Option<u8>>(b" \n"), Ok(None)));
        assert!(matches!(decode::<u8>(b"7"), Ok(7)));
        let long = format!("<html>{}</html>", "é".repeat(5000));
        match decode::<u8>(long.as_bytes()) {
            Err(Error::Decode { body_excerpt, .. }) => {
                assert!(body_excerpt.starts_with("<html>é"));
                assert!(body_excerpt.chars().count() <= 201);
            }
            other => panic!("{other:?}"),
        }
    }

    /// A one-shot HTTP/1.1 server on a std thread: answers the first request
    /// with `response` and hands back the raw request text.
    fn serve_once(response: &'static str) -> (String, JoinHandle<String>) {
        let listener = match TcpListener::bind("127.0.0.1:0") {
            Ok(listener) => listener,
            Err(err) => panic!("bind: {err}"),
        };
        let base = match listener.local_addr() {
            Ok(addr) => format!("http://{addr}"),
            Err(err) => panic!("addr: {err}"),
        };
        let handle = std::thread::spawn(move || {
            let Ok((stream, _)) = listener.accept() else {
                return String::new();
            };
            let mut reader = BufReader::new(stream);
            let mut head = String::new();
            let mut content_length = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(len) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    content_length = len.trim().parse().unwrap_or(0);
                }
                head.push_str(&line);
            }
            let mut body = vec![0; content_length];
            let _ = reader.read_exact(&mut body);
            let _ = reader.get_mut().write_all(response.as_bytes());
            head.push_str("\r\n");
            head.push_str(&String::from_utf8_lossy(&body));
            head
        });
        (base, handle)
    }

    fn request(method: Method, path: &str, body: Option<Vec<u8>>) -> Request {
        Request {
            operation: "test_op",
            method,
            path_template: "/v1/things/{id}",
            path: path.to_owned(),
            query: vec![("metrics", "a b".to_owned()), ("metrics", "c&d".to_owned())],
            body,
        }
    }

    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(rt) => rt.block_on(future),
            Err(err) => panic!("runtime: {err}"),
        }
    }

    #[test]
    fn execute_sends_headers_query_and_body() {
        let (base, server) = serve_once(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\
             connection: close\r\n\r\n{\"ok\":true}",
        );
        let client = client_for(&format!("{base}/"));
        let body = Some(br#"{"x":1}"#.to_vec());
        let got: Result<serde_json::Value, Error> =
            block_on(client.execute(request(Method::POST, "/v1/things/a%2Fb", body)));
        assert_eq!(got.ok(), Some(serde_json::json!({"ok": true})));

        let seen = server.join().unwrap_or_default();
        let lower = seen.to_ascii_lowercase();
        assert!(
            seen.starts_with("POST /v1/things/a%2Fb?metrics=a+b&metrics=c%26d HTTP/1.1\r\n"),
            "{seen}"
        );
        assert!(lower.contains(&format!(
            "authorization: bearer {}",
            SECRET.to_ascii_lowercase()
        )));
        assert!(lower.contains("accept: application/json\r\n"), "{seen}");
        assert!(
            lower.contains("content-type: application/json\r\n"),
            "{seen}"
        );
        assert!(
            lower.contains(&format!("user-agent: {USER_AGENT}\r\n")),
            "{seen}"
        );
        assert!(seen.ends_with("\r\n\r\n{\"x\":1}"), "{seen}");
    }

    #[test]
    fn execute_maps_non_2xx_to_api_error() {
        let (base, server) = serve_once(
            "HTTP/1.1 404 Not Found\r\ncontent-length: 21\r\nconnection: close\r\n\r\n\
             {\"error\":\"not\nfound\"}",
        );
        let client = client_for(&base);
        let got: Result<serde_json::Value, Error> =
            block_on(client.execute(request(Method::GET, "/v1/things/x", None)));
        match got {
            Err(err @ Error::Api { .. }) => {
                assert_eq!(err.status(), Some(404));
                assert_eq!(err.to_string(), "HTTP 404: {\"error\":\"not found\"}");
                if let Error::Api { body, .. } = err {
                    assert_eq!(body, "{\"error\":\"not\nfound\"}");
                }
            }
            other => panic!("{other:?}"),
        }
        let seen = server.join().unwrap_or_default();
        assert!(
            !seen.to_ascii_lowercase().contains("content-type"),
            "{seen}"
        );
    }

    #[test]
    fn execute_decodes_204_as_unit() {
        let (base, server) = serve_once("HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n");
        let client = client_for(&base);
        let got: Result<(), Error> =
            block_on(client.execute(request(Method::DELETE, "/v1/things/x", None)));
        assert!(got.is_ok(), "{got:?}");
        let _ = server.join();
    }

    #[test]
    fn execute_refuses_relative_path() {
        let client = client_for("http://127.0.0.1:9");
        let got: Result<(), Error> =
            block_on(client.execute(request(Method::GET, "v1/things", None)));
        assert!(matches!(got, Err(Error::InvalidRequest(_))), "{got:?}");
    }
}
