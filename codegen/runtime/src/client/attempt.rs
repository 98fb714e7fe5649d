//! The send path's attempt level: one HTTP exchange, from the request going out to the response
//! read whole, in named phases (after smithy-rs's `try_attempt`):
//!
//! 1. **modify before transmit** — each hop's request is handed to every
//!    [`Interceptor::before_send`](crate::Interceptor::before_send), in the order added; an error
//!    ends the attempt and nothing is sent.
//! 2. **transmit** — the request goes out; a redirect within the origin is followed (back to 1),
//!    one to another origin refused (see [`redirect`]).
//! 3. **read after transmit** — the headers that matter, then the body, chunk by chunk against
//!    the client's cap.
//! 4. **note throttle** — a 429 naming its wait pauses the endpoint for every request now,
//!    before anything else runs.
//! 5. **modify before deserialization** — the response is handed to every
//!    [`Interceptor::after_response`](crate::Interceptor::after_response), which may change its
//!    body before the client judges it.
//!
//! Judging the answer (success, failure, retry) is the operation level's (`orchestrator.rs`).

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, RETRY_AFTER};

use super::RuntimeClient;
use super::prepare::RequestHeaders;
use crate::error::{Error, ErrorBody, parse_retry_after};
use crate::redirect;
use crate::support::Request;
use crate::telemetry::{self, AttemptContext, InterceptedResponse};
use crate::throttle::Outcome;

/// Why one attempt got no answer.
pub(super) enum SendError {
    Transport(reqwest::Error),
    /// The body is longer than the client's cap.
    TooLarge,
    /// An interceptor or the redirect rules refused to let the request go on.
    Refused(Error),
}

impl From<reqwest::Error> for SendError {
    /// The error with its URL shown without secrets, before anything can show it.
    fn from(source: reqwest::Error) -> Self {
        Self::Transport(telemetry::without_secrets(source))
    }
}

/// One response, read whole.
pub(super) struct Answer {
    pub(super) status: StatusCode,
    pub(super) headers: HeaderMap,
    /// The `Retry-After` header, if usable.
    pub(super) retry_after: Option<Duration>,
    /// The request id header's value, if the server sent one.
    pub(super) request_id: Option<String>,
    pub(super) body: Vec<u8>,
    /// A 429 whose wait the shared traffic state has already been told.
    pub(super) throttle_noted: bool,
}

impl RuntimeClient {
    /// One attempt: the status, the headers that matter and the whole body, through the phases
    /// this file's header lists. `sent_at` is when the attempt was let go, for the endpoint's
    /// traffic state.
    pub(super) async fn try_attempt(
        &self,
        request: &Request,
        headers: &RequestHeaders,
        url: reqwest::Url,
        context: &AttemptContext,
        sent_at: tokio::time::Instant,
    ) -> Result<Answer, SendError> {
        let response = self.transmit(request, headers, url, context).await?;
        let mut answer = self.read_after_transmit(response).await?;
        answer.throttle_noted = self.note_throttle(request.path_template, &answer, sent_at);
        self.modify_before_deserialization(&mut answer, context);
        Ok(answer)
    }

    /// Phases 1 and 2: each hop's request through the interceptors and out, following
    /// redirects within the origin; the final hop's response, its body unread.
    async fn transmit(
        &self,
        request: &Request,
        headers: &RequestHeaders,
        url: reqwest::Url,
        context: &AttemptContext,
    ) -> Result<reqwest::Response, SendError> {
        let mut hop = redirect::Hop::first(url, request.method.clone());
        let mut hops = 0;
        loop {
            let mut outgoing = self.outgoing(request, headers, &hop)?;
            self.modify_before_transmit(&mut outgoing, context)
                .map_err(SendError::Refused)?;
            let response = self.inner.http.execute(outgoing).await?;
            // A reqwest client brought with `http_client` may follow redirects itself: what it
            // reached elsewhere is not read, and is reported as the redirect it was.
            if !redirect::same_origin(response.url(), &hop.url) {
                let error = redirect::refused(response.status(), response.url());
                return Err(SendError::Refused(error));
            }
            match redirect::next_hop(response.status(), response.headers(), &hop, hops) {
                None => return Ok(response),
                Some(Err(refused)) => return Err(SendError::Refused(refused)),
                Some(Ok(next)) => {
                    hop = next;
                    hops += 1;
                }
            }
        }
    }

    /// Phase 1: every interceptor sees the request just before it goes out, in the order added;
    /// the first error ends the attempt.
    fn modify_before_transmit(
        &self,
        outgoing: &mut reqwest::Request,
        context: &AttemptContext,
    ) -> Result<(), Error> {
        for interceptor in self.inner.interceptors.iter() {
            interceptor.before_send(outgoing, context)?;
        }
        Ok(())
    }

    /// Phase 3: the headers that matter, then the body, refused as soon as it passes the cap.
    async fn read_after_transmit(
        &self,
        mut response: reqwest::Response,
    ) -> Result<Answer, SendError> {
        let settings = &*self.inner;
        let status = response.status();
        let header = |name: &HeaderName| {
            response
                .headers()
                .get(name)
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned)
        };
        let retry_after = header(&RETRY_AFTER)
            .as_deref()
            .and_then(|text| parse_retry_after(text, std::time::SystemTime::now()));
        let request_id = header(&settings.request_id_header);
        let response_headers = response.headers().clone();
        let limit = settings.max_response_bytes;
        if response
            .content_length()
            .is_some_and(|length| length > limit)
        {
            return Err(SendError::TooLarge);
        }
        // Read chunk by chunk against the cap: a body without a (truthful) length must not be
        // taken whole into memory first.
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await? {
            if body.len() as u64 + chunk.len() as u64 > limit {
                return Err(SendError::TooLarge);
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Answer {
            status,
            headers: response_headers,
            retry_after,
            request_id,
            body,
            throttle_noted: false,
        })
    }

    /// Phase 4: a 429 naming its wait pauses the endpoint now, before any interceptor runs:
    /// every moment it is not noted, other requests may go out against it. Whether it was.
    pub(super) fn note_throttle(
        &self,
        template: &'static str,
        answer: &Answer,
        sent_at: tokio::time::Instant,
    ) -> bool {
        let settings = &*self.inner;
        answer.status == StatusCode::TOO_MANY_REQUESTS && {
            let wait = ErrorBody::parse(&answer.body)
                .retry_after
                .or(answer.retry_after);
            if let Some(wait) = wait {
                let throttled = Outcome::Throttled {
                    wait,
                    sent: sent_at,
                    longest: settings.retry.max_retry_after(),
                };
                settings.traffic.record(template, throttled);
            }
            wait.is_some()
        }
    }

    /// Phase 5: every interceptor sees the response, read whole, and may change its body.
    fn modify_before_deserialization(&self, answer: &mut Answer, context: &AttemptContext) {
        for interceptor in self.inner.interceptors.iter() {
            let seen = InterceptedResponse {
                status: answer.status,
                headers: &answer.headers,
                body: &mut answer.body,
            };
            interceptor.after_response(seen, context);
        }
    }

    /// The request of one hop of an attempt, built from the caller's: the hop's URL and
    /// method, and the body with its headers only while the redirects so far kept it.
    fn outgoing(
        &self,
        request: &Request,
        headers: &RequestHeaders,
        hop: &redirect::Hop,
    ) -> Result<reqwest::Request, reqwest::Error> {
        let settings = &*self.inner;
        // Default headers may be credentials of their own (`x-api-key`): not to an operation's
        // server of another origin unless the user named it.
        let mut sent = if headers.trusted_origin {
            settings.default_headers.clone()
        } else {
            HeaderMap::new()
        };
        // The operation's own header parameters replace a default header of the same name, and
        // the credentials either.
        sent.extend(headers.parameters.clone());
        sent.extend(headers.credentials.clone());
        hop.drop_body_headers(&mut sent);
        let mut builder = settings
            .http
            .request(hop.method.clone(), hop.url.clone())
            // Per request rather than on the reqwest client, so that it holds for a client
            // brought with `ClientBuilder::http_client` too.
            .timeout(settings.timeout)
            .headers(sent)
            .header(ACCEPT, headers.accept.clone());
        if let (Some(body), Some(content_type), true) =
            (&request.body, &headers.content_type, hop.keep_body)
        {
            builder = builder
                .header(CONTENT_TYPE, content_type.clone())
                .body(body.bytes.clone());
        }
        builder.build()
    }
}
