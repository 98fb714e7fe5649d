//! The send path's operation level (after smithy-rs's `try_op`): one call from its span to its
//! result. The request is prepared once; then each attempt waits for a permit from the client's
//! shared traffic state (the endpoint's pause after a 429, its send rate, a slot under
//! `max_in_flight`), runs at the attempt level (`attempt.rs`) in its own span, and is judged:
//! a 2xx ends the call; a failure (`failure.rs`) goes to the call's retry accounting
//! (`retry_loop.rs`), which says to stop, to wait out the endpoint's pause, or to wait and retry.

use std::time::Instant;

use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use tracing::Instrument as _;
use tracing::field::Empty;

use super::RuntimeClient;
use super::failure::Failure;
use super::prepare::Prepared;
use super::retry_loop::{Next, RetryLoop};
use crate::error::Error;
use crate::server_text::RegisteredSecret;
use crate::support::Request;
use crate::telemetry::{self, AttemptContext};
use crate::throttle::Admission;

/// A 2xx response, read whole.
pub(crate) struct Success {
    pub(crate) status: StatusCode,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Vec<u8>,
}

/// The last attempt of a call, whose 2xx answer is still to be decoded: what its span, the
/// duration instrument and the interceptors are told once decoding, the attempt's last phase,
/// has run.
pub(super) struct OpenAttempt {
    span: tracing::Span,
    started: Instant,
    method: reqwest::Method,
    status: Option<u16>,
    context: AttemptContext,
}

impl RuntimeClient {
    /// Like [`execute_bytes`](Self::execute_bytes), keeping the 2xx response's status and
    /// headers: what [`RawRequest::send_raw`](crate::RawRequest::send_raw) returns.
    pub(crate) async fn execute_response(
        &self,
        request: Request,
        accept: &'static str,
    ) -> Result<Success, Error> {
        self.execute_decoded(request, accept, Ok).await
    }

    /// One call from its span to its result: the attempts, then `decode` of the 2xx response as
    /// the last attempt's last phase (after smithy-rs's `try_attempt`, whose deserialization is
    /// inside the attempt), so that the request's and the attempt's spans, the duration
    /// instrument and the interceptors see a body that does not decode as the failure it is.
    pub(crate) async fn execute_decoded<T>(
        &self,
        request: Request,
        accept: &'static str,
        decode: impl FnOnce(Success) -> Result<T, Error>,
    ) -> Result<T, Error> {
        // Credentials sent as parameters are scrubbed from every text this request writes,
        // decoding's included.
        let _secrets: Vec<RegisteredSecret> = request
            .params
            .secrets()
            .iter()
            .map(|secret| RegisteredSecret::new(secret))
            .collect();
        let span = self.request_span(&request);
        let work = async {
            let started = Instant::now();
            let result = match self.try_op(request, accept, &span).await {
                Ok((success, attempt)) => {
                    let decoded = attempt.span.in_scope(|| decode(success));
                    self.close_attempt(attempt, decoded.as_ref().err());
                    decoded
                }
                Err(error) => Err(error),
            };
            close_request(&span, started, result.as_ref().err());
            result
        };
        work.instrument(span.clone()).await
    }

    /// The request's span, `baseten_api.request`.
    fn request_span(&self, request: &Request) -> tracing::Span {
        let settings = &*self.inner;
        // The span's name is fixed; `otel.name` is what an OpenTelemetry exporter shows
        // (`GET /v1/models/{model_id}`), from the document's path template.
        tracing::debug_span!(
            "baseten_api.request",
            otel.name = %format_args!("{} {}", request.method, request.path_template),
            otel.kind = "client",
            operation = request.operation,
            method = %request.method,
            path_template = request.path_template,
            http.request.method = %request.method,
            server.address = %settings.server_address,
            server.port = settings.server_port,
            url.template = request.path_template,
            http.response.status_code = Empty,
            http.request.resend_count = Empty,
            error.type = Empty,
            attempt = Empty,
            status = Empty,
            elapsed_ms = Empty,
        )
    }

    /// An attempt is over, with `error` or without: its `error.type`, its duration in the
    /// instrument (with the status, if an answer came, and the error type), and the
    /// interceptors told.
    fn close_attempt(&self, attempt: OpenAttempt, error: Option<&Error>) {
        let error_type = error.map(telemetry::error_type);
        if let Some(error_type) = &error_type {
            attempt.span.record("error.type", error_type.as_str());
        }
        telemetry::instruments::request_duration(
            attempt.method.as_str(),
            attempt.context.path_template,
            &self.inner.server_address,
            attempt.status,
            error_type.as_deref(),
            attempt.started.elapsed().as_secs_f64(),
        );
        let outcome = error.map_or(Ok(()), Err);
        for interceptor in self.inner.interceptors.iter() {
            interceptor.after_attempt(outcome, &attempt.context);
        }
    }

    /// The attempt loop: returns the first 2xx response and its attempt, still open for
    /// decoding, or the error that ended the attempts.
    ///
    /// Every attempt first waits its turn in the client's shared traffic state; a 429 pauses
    /// the endpoint for every request instead of this one sleeping alone, and a retry after a
    /// server error or timeout is paid for from the shared retry budget.
    ///
    /// `span` is the request's span, passed in rather than taken from
    /// `Span::current()` so that recording works under any subscriber.
    async fn try_op(
        &self,
        request: Request,
        accept: &'static str,
        span: &tracing::Span,
    ) -> Result<(Success, OpenAttempt), Error> {
        let settings = &*self.inner;
        // An operation with servers of its own goes there, with credentials only where trusted.
        let (base_url, trusted_origin) = settings
            .routes
            .get(request.operation)
            .map_or((settings.base_url.as_str(), true), |route| {
                (route.base_url.as_str(), route.credentials)
            });
        let prepared = Prepared::new(
            &request,
            accept,
            (base_url, trusted_origin),
            &settings.retry,
            &settings.credentials,
        )?;
        let template = request.path_template;
        let traffic = &settings.traffic;
        let max_wait = settings.retry.max_retry_after();
        let mut retries = RetryLoop::new(
            settings.retry,
            prepared.resend_after_processing,
            settings.retry.backoff(),
        );
        loop {
            let admission = match traffic
                .admit(template, retries.next_is_retry(), max_wait)
                .await
            {
                Ok(admission) => admission,
                Err(held) => return Err(retries.held_back(held)),
            };
            let attempt = retries.begin_attempt();
            span.record("attempt", attempt);
            if attempt > 1 {
                span.record("http.request.resend_count", attempt - 1);
            }
            let sent_at = tokio::time::Instant::now();
            let outcome = self
                .judged_attempt(&request, &prepared, attempt, admission, span, sent_at)
                .await;
            let failure = match outcome {
                Ok(success) => {
                    retries.succeeded(traffic, template, sent_at);
                    return Ok(success);
                }
                Err(failure) => failure,
            };
            match retries.after_failure(failure, traffic, template, sent_at) {
                Next::Stop(error) => return Err(error),
                Next::AfterPause => {}
                Next::After(wait) => tokio::time::sleep(wait).await,
            }
        }
    }

    /// Attempt number `attempt` in its span `baseten_api.attempt`, judged: the exchange at the
    /// attempt level, the permit given back as soon as it ends, the status recorded on the
    /// spans; a non-2xx answer or a failed exchange mapped to its [`Failure`] and the attempt
    /// closed with it, a 2xx returned with its attempt still open for decoding.
    async fn judged_attempt(
        &self,
        request: &Request,
        prepared: &Prepared,
        attempt: u32,
        admission: Admission,
        span: &tracing::Span,
        sent_at: tokio::time::Instant,
    ) -> Result<(Success, OpenAttempt), Failure> {
        let settings = &*self.inner;
        let template = request.path_template;
        let attempt_span = tracing::debug_span!(
            "baseten_api.attempt",
            otel.name = %format_args!("{} {}", request.method, template),
            otel.kind = "client",
            http.request.method = %request.method,
            server.address = %settings.server_address,
            server.port = settings.server_port,
            url.template = template,
            url.full = Empty,
            http.request.resend_count = attempt.checked_sub(1).filter(|n| *n > 0),
            http.response.status_code = Empty,
            error.type = Empty,
        );
        if !attempt_span.is_disabled() {
            let shown = prepared.shown_url(request);
            attempt_span.record("url.full", tracing::field::display(shown));
        }
        let context = AttemptContext {
            operation: request.operation,
            path_template: template,
            attempt,
            held: admission.held,
        };
        let started = Instant::now();
        let sent = self
            .try_attempt(
                request,
                &prepared.headers,
                prepared.url.clone(),
                &context,
                sent_at,
            )
            .instrument(attempt_span.clone())
            .await;
        drop(admission.slot);
        let status = sent.as_ref().ok().map(|answer| answer.status.as_u16());
        if let Some(status) = status {
            span.record("status", status);
            span.record("http.response.status_code", status);
            attempt_span.record("http.response.status_code", status);
        }
        let open = OpenAttempt {
            span: attempt_span,
            started,
            method: request.method.clone(),
            status,
            context,
        };
        let failure = match sent {
            Ok(answer) if answer.status.is_success() => {
                let success = Success {
                    status: answer.status,
                    headers: answer.headers,
                    body: answer.body,
                };
                return Ok((success, open));
            }
            Ok(answer) => Failure::from_response(answer, attempt),
            Err(error) => Failure::from_send_error(
                error,
                attempt,
                // reqwest's message names the URL; a credential sent in the query is in it.
                prepared.url_has_secrets(request),
                settings.max_response_bytes,
            ),
        };
        self.close_attempt(open, Some(&failure.error));
        Err(failure)
    }
}

/// The call is over: its time, and its `error.type` and a debug event if it failed.
fn close_request(span: &tracing::Span, started: Instant, error: Option<&Error>) {
    span.record("elapsed_ms", telemetry::millis(started.elapsed()));
    if let Some(error) = error {
        span.record("error.type", telemetry::error_type(error));
        tracing::debug!(error = %error, "request failed");
    }
}
