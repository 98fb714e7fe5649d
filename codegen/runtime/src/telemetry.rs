//! What the client tells a platform team: OpenTelemetry HTTP-client attribute values for its
//! spans (the URL with secrets redacted, the `error.type` of a failure), the optional
//! `metrics`-facade instruments (feature `metrics`), and the [`Interceptor`] hook.

use reqwest::StatusCode;
use reqwest::header::HeaderMap;

use crate::error::Error;
use crate::server_text::ServerText;

/// What OpenTelemetry writes in place of a redacted value.
const REDACTED: &str = "REDACTED";

/// Query names whose values are credentials (OpenTelemetry's list for `url.full` and
/// `url.query`: `sig`, `AWSAccessKeyId`, `X-Amz-Credential`, …), matched without regard to case
/// or to `-`, `_` and `.`.
const SECRET_QUERY_NAMES: [&str; 2] = ["sig", "awsaccesskeyid"];

/// Parts of a query name that make its value a credential (`api-key`, `x-api-key`, `apikey`,
/// `auth`, `access_token`, `client_secret`, `X-Amz-Signature`, `password`, …), matched the
/// same way. The names are a first line only: every live key is scrubbed from the URL whatever
/// its name (see [`redacted_url`]).
const SECRET_NAME_PARTS: [&str; 8] = [
    "key",
    "token",
    "secret",
    "auth",
    "passw",
    "credential",
    "signature",
    "session",
];

/// Whether a query value named `name` is a credential.
fn is_secret_name(name: &str) -> bool {
    let name: String = name
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | '.'))
        .flat_map(char::to_lowercase)
        .collect();
    SECRET_QUERY_NAMES.contains(&name.as_str())
        || SECRET_NAME_PARTS.iter().any(|part| name.contains(part))
}

/// `url` as any output shows it (`url.full`, an error naming a URL): its query values under
/// secret-looking names replaced with `REDACTED`, then scrubbed of every live key in any form
/// ([`ServerText::new`]), whatever name carries it. (A base URL never carries user info: the
/// builder refuses one.)
pub(crate) fn redacted_url(url: &reqwest::Url) -> String {
    ServerText::new(redacted_names(url)).into_string()
}

/// A transport error whose URL (which reqwest shows in `Display` and `Debug`) is
/// [`redacted_url`]'s, or none when that does not parse back.
pub(crate) fn without_secrets(mut error: reqwest::Error) -> reqwest::Error {
    let Some(url) = error.url_mut() else {
        return error;
    };
    match reqwest::Url::parse(&redacted_url(url)) {
        Ok(shown) => {
            *url = shown;
            error
        }
        Err(_) => error.without_url(),
    }
}

fn redacted_names(url: &reqwest::Url) -> String {
    if url.query().is_none() {
        return url.to_string();
    }
    let mut shown = url.clone();
    let pairs: Vec<(String, String)> = url
        .query_pairs()
        .map(|(key, value)| (key.into_owned(), value.into_owned()))
        .collect();
    {
        let mut serializer = shown.query_pairs_mut();
        serializer.clear();
        for (key, value) in &pairs {
            let shown = if is_secret_name(key) { REDACTED } else { value };
            serializer.append_pair(key, shown);
        }
    }
    shown.to_string()
}

/// OpenTelemetry's `error.type`: the status code for an HTTP error, else a short class name.
pub(crate) fn error_type(error: &Error) -> String {
    match error {
        Error::RateLimited { .. } => "429".to_owned(),
        Error::Api { status, .. } | Error::RedirectRefused { status, .. } => status.to_string(),
        Error::Timeout { .. } => "timeout".to_owned(),
        Error::Transport(_) => "transport".to_owned(),
        Error::Decode { .. } => "decode".to_owned(),
        Error::ResponseTooLarge { .. } => "response_too_large".to_owned(),
        Error::InvalidRequest(_) => "invalid_request".to_owned(),
        Error::InvalidResponse(_) => "invalid_response".to_owned(),
        Error::InvalidArgument(_) => "invalid_argument".to_owned(),
        Error::PaginationStalled { .. } => "pagination_stalled".to_owned(),
    }
}

/// A duration in whole milliseconds, as spans and events record it.
pub(crate) fn millis(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Where an attempt stands, for an [`Interceptor`].
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct AttemptContext {
    /// The operation's name.
    pub operation: &'static str,
    /// The operation's path template as the document writes it (`url.template`).
    pub path_template: &'static str,
    /// 1 for the first attempt, 2 for the first retry, …
    pub attempt: u32,
    /// How long the client held this attempt back for its endpoint: the pause after a 429 and
    /// the endpoint's send rate (configured, or adaptive after a 429), as the limiter set the
    /// waits. Zero when it went out at once. Waiting behind other requests or for a
    /// `max_in_flight` slot is not counted.
    pub held: std::time::Duration,
}

/// A response as an [`Interceptor`] sees it: status and headers, and the whole body, which it
/// may change before the client decodes it.
#[derive(Debug)]
#[non_exhaustive]
pub struct InterceptedResponse<'a> {
    /// The status.
    pub status: StatusCode,
    /// The headers.
    pub headers: &'a HeaderMap,
    /// The body as read (within the client's size cap).
    pub body: &'a mut Vec<u8>,
}

/// A hook into every attempt, installed with
/// [`ClientBuilder::interceptor`](crate::ClientBuilder::interceptor): to see or change each
/// request just before it is sent (a header, a signature), each response once it is read, and
/// each attempt's outcome once decoding (its last phase) has run, without forking the runtime.
/// Every method defaults to doing nothing.
///
/// The request carries the `Authorization` header (marked sensitive); an interceptor that logs
/// requests must leave it out.
pub trait Interceptor: Send + Sync + 'static {
    /// Called before each attempt goes out, after waiting for its turn.
    ///
    /// # Errors
    ///
    /// An error ends the call with it; nothing is sent.
    fn before_send(
        &self,
        request: &mut reqwest::Request,
        context: &AttemptContext,
    ) -> Result<(), Error> {
        let _ = (request, context);
        Ok(())
    }

    /// Called with each attempt's response, read whole, before the client judges it.
    fn after_response(&self, response: InterceptedResponse<'_>, context: &AttemptContext) {
        let _ = (response, context);
    }

    /// Called once each attempt is over, its last phase included: `Ok(())` for a 2xx whose
    /// body decoded, else the attempt's error — a non-2xx status, a transport failure or
    /// timeout, or a 2xx body that is not what the operation expects ([`Error::Decode`]). An
    /// attempt that is retried is reported too, with the error that ended it.
    fn after_attempt(&self, outcome: Result<(), &Error>, context: &AttemptContext) {
        let _ = (outcome, context);
    }
}

/// The instruments of feature `metrics`, on the `metrics` facade: recorded when the feature is
/// on and an exporter is installed; otherwise these do nothing.
pub(crate) mod instruments {
    /// OpenTelemetry's `http.client.request.duration` for one attempt, in seconds.
    #[cfg_attr(not(feature = "metrics"), allow(unused_variables))]
    pub(crate) fn request_duration(
        method: &str,
        template: &'static str,
        server: &str,
        status: Option<u16>,
        error_type: Option<&str>,
        seconds: f64,
    ) {
        #[cfg(feature = "metrics")]
        {
            let mut labels = vec![
                ("http.request.method", method.to_owned()),
                ("url.template", template.to_owned()),
                ("server.address", server.to_owned()),
            ];
            if let Some(status) = status {
                labels.push(("http.response.status_code", status.to_string()));
            }
            if let Some(error_type) = error_type {
                labels.push(("error.type", error_type.to_owned()));
            }
            metrics::histogram!("http.client.request.duration", &labels).record(seconds);
        }
    }

    /// `baseten.client.retries`: one retry of `template`, for `reason` (`throttled`,
    /// `server_error`, `timeout`, `transport`).
    #[cfg_attr(not(feature = "metrics"), allow(unused_variables))]
    pub(crate) fn retry(template: &'static str, reason: &'static str) {
        #[cfg(feature = "metrics")]
        metrics::counter!(
            "baseten.client.retries",
            "url.template" => template,
            "reason" => reason
        )
        .increment(1);
    }

    /// `baseten.client.retry_budget_exhausted`: a retry the budget could not pay for.
    #[cfg_attr(not(feature = "metrics"), allow(unused_variables))]
    pub(crate) fn budget_exhausted(template: &'static str) {
        #[cfg(feature = "metrics")]
        metrics::counter!("baseten.client.retry_budget_exhausted", "url.template" => template)
            .increment(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_secrets_are_redacted_and_the_rest_kept() {
        let url = reqwest::Url::parse(
            "https://api.test/v1/m?metrics=a+b&api_key=hunter2&Token=t0p&sig=s1&mode=CURRENT",
        )
        .unwrap_or_else(|error| panic!("{error}"));
        let shown = redacted_url(&url);
        for secret in ["hunter2", "t0p", "s1"] {
            assert!(!shown.contains(secret), "{shown}");
        }
        assert_eq!(
            shown,
            "https://api.test/v1/m?metrics=a+b&api_key=REDACTED&Token=REDACTED&sig=REDACTED&mode=CURRENT"
        );
        let plain = reqwest::Url::parse("https://api.test/v1/m").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(redacted_url(&plain), "https://api.test/v1/m");
    }

    #[test]
    fn credential_names_of_every_spelling_are_redacted() {
        for name in [
            "api-key",
            "x-api-key",
            "X_API_KEY",
            "apiKey",
            "auth",
            "Authorization",
            "access_token",
            "client_secret",
            "X-Amz-Security-Token",
            "X-Goog-Signature",
            "AWSAccessKeyId",
            "sig",
            "password",
            "session_id",
        ] {
            let url = reqwest::Url::parse(&format!("https://api.test/v1?{name}=hunter2&page=2"))
                .unwrap_or_else(|error| panic!("{error}"));
            let shown = redacted_url(&url);
            assert!(
                !shown.contains("hunter2") && shown.contains("page=2"),
                "{shown}"
            );
        }
        for name in ["page", "limit", "mode", "signal"] {
            assert!(!is_secret_name(name), "{name}");
        }
    }

    #[test]
    fn live_keys_are_scrubbed_from_urls_whatever_their_name() {
        let key = "telemetry-live-key-0123456789";
        let _registered = crate::server_text::RegisteredSecret::new(key);
        let url = reqwest::Url::parse(&format!("https://api.test/v1/{key}?q={key}&page=2"))
            .unwrap_or_else(|error| panic!("{error}"));
        let shown = redacted_url(&url);
        assert!(!shown.contains("live-key-0123"), "{shown}");
        assert!(shown.contains("page=2"), "{shown}");
    }

    #[test]
    fn error_types_are_status_codes_or_classes() {
        let limited = Error::RateLimited {
            retry_after: None,
            attempts: 1,
            body: crate::ServerText::default(),
        };
        assert_eq!(error_type(&limited), "429");
        assert_eq!(error_type(&Error::Timeout { attempts: 2 }), "timeout");
        assert_eq!(
            error_type(&Error::InvalidRequest(String::new())),
            "invalid_request"
        );
        assert_eq!(
            error_type(&Error::ResponseTooLarge { limit_bytes: 1 }),
            "response_too_large"
        );
    }
}
