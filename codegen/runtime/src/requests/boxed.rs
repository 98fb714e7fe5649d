//! [`BoxedOperation`]: any metrics endpoint answering one response type, as one type, so that
//! an environment's and a deployment's requests can be chosen at run time, stored together and
//! sent by the same code.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::{MetricsOperation, MetricsQuery, MetricsRequest, Sealed};
use crate::Error;
use crate::metrics::index_mapped::IndexMappedResponse;

/// The sending half of a boxed operation: the original operation, cloned for each send.
type SendFn<R> = dyn Fn(MetricsQuery, Sealed) -> Pin<Box<dyn Future<Output = Result<R, Error>> + Send>>
    + Send
    + Sync;

/// Any [`MetricsOperation`] whose response is `R`, behind one type: what
/// [`MetricsRequest::boxed`] makes. A `MetricsRequest<BoxedOperation<R>>` is the same type for
/// every endpoint, so a `match` can pick one and the code after it is written once.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use baseten_api::metric_names::REPLICAS_ACTIVE;
/// use baseten_api::models::GetModelMetricsResponseV1;
/// use baseten_api::requests::{BoxedOperation, MetricsRequest};
///
/// # use baseten_api::mock::{FakeBaseten, MetricsResponseBuilder};
/// # let fake = FakeBaseten::start().await;
/// # let two = MetricsResponseBuilder::current(0).gauge(REPLICAS_ACTIVE, "COUNT", &[Some(2.0)]);
/// # fake.on_deployment_metrics("m1", "d1").respond(&two.build()?).await;
/// let client = fake.client()?;
/// let deployment: Option<&str> = Some("d1"); // from a flag, say
/// let request: MetricsRequest<BoxedOperation<GetModelMetricsResponseV1>> = match deployment {
///     Some(deployment) => client.deployment_metrics("m1", deployment).boxed(),
///     None => client.environment_metrics("m1", "production").boxed(),
/// };
/// let now = request.metric(REPLICAS_ACTIVE).current().send().await?;
/// assert_eq!(now.reading(REPLICAS_ACTIVE, &[]).unique()?.and_then(|r| r.value), Some(2.0));
/// # Ok(()) }
/// ```
pub struct BoxedOperation<R> {
    send: Arc<SendFn<R>>,
    /// The original operation's `Debug`, taken when it was boxed.
    shown: Arc<str>,
}

impl<R> Clone for BoxedOperation<R> {
    fn clone(&self) -> Self {
        Self {
            send: Arc::clone(&self.send),
            shown: Arc::clone(&self.shown),
        }
    }
}

impl<R> fmt::Debug for BoxedOperation<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("BoxedOperation")
            .field(&format_args!("{}", self.shown))
            .finish()
    }
}

impl<R> MetricsOperation for BoxedOperation<R>
where
    R: IndexMappedResponse + fmt::Debug + Clone + Send + Sync + 'static,
{
    type Response = R;

    fn send(
        self,
        query: MetricsQuery,
        sealed: Sealed,
    ) -> impl Future<Output = Result<R, Error>> + Send + 'static {
        (self.send)(query, sealed)
    }
}

impl<O: MetricsOperation + Clone, M> MetricsRequest<O, M> {
    /// This request over a [`BoxedOperation`]: the same type whichever endpoint it is for, with
    /// its mode, window and metric names kept.
    pub fn boxed(self) -> MetricsRequest<BoxedOperation<O::Response>, M> {
        let shown: Arc<str> = Arc::from(format!("{:?}", self.operation));
        let operation = self.operation;
        let send = move |query: MetricsQuery, sealed: Sealed| {
            let sent: Pin<Box<dyn Future<Output = Result<O::Response, Error>> + Send>> =
                Box::pin(operation.clone().send(query, sealed));
            sent
        };
        MetricsRequest {
            operation: BoxedOperation {
                send: Arc::new(send),
                shown,
            },
            window: self.window,
            metrics: self.metrics,
            mode: self.mode,
        }
    }
}
