//! Every operation of `schema/` against a local fake (`baseten_api::mock::FakeBaseten`): the
//! exact method, path, query, JSON body and `Authorization` it sends, and the typed answer it
//! decodes. The fake answers with authored JSON in Baseten's shapes.

use baseten_api::models::{
    GetModelMetricsResponseV1, UpdateAutoscalingSettingsV1, UpdateEnvironmentRequestV1,
};
use baseten_api::operations::{GetAuditLogsQuery, GetModelDeploymentsQuery, GetModelsQuery};
use baseten_api::{Client, mock::FakeBaseten};
use serde_json::{Value, json};
use wiremock::matchers::any;
use wiremock::{Mock, ResponseTemplate};

fn model() -> Value {
    json!({"id": "m1", "created_at": "2026-07-01T12:00:00Z", "name": "llama", "deployments_count": 2,
           "production_deployment_id": "d1", "development_deployment_id": null,
           "instance_type_name": "1xH100", "team_name": "ml"})
}

fn autoscaling() -> Value {
    json!({"min_replica": 1, "max_replica": 4, "autoscaling_window": 60, "scale_down_delay": null,
           "concurrency_target": 2, "target_utilization_percentage": 70})
}

fn deployment() -> Value {
    json!({"id": "d1", "created_at": "2026-07-01T12:00:00Z", "name": "v3", "model_id": "m1",
           "is_production": true, "is_development": false, "status": "ACTIVE",
           "active_replica_count": 3, "autoscaling_settings": autoscaling(),
           "instance_type_name": null, "environment": "production",
           "request_backpressure_settings": {}})
}

fn environment() -> Value {
    json!({"name": "production", "created_at": "2026-07-01T12:00:00Z", "model_id": "m1",
           "current_deployment": null, "autoscaling_settings": autoscaling(),
           "promotion_settings": {},
           "instance_type": {"id": "i1", "name": "1xH100", "memory_limit_mib": 1024,
                             "millicpu_limit": 8000, "gpu_count": 1, "gpu_type": "H100",
                             "gpu_memory_limit_mib": 81920},
           "request_backpressure_settings": {}})
}

/// What one call sent.
#[derive(Debug, PartialEq)]
struct Sent {
    method: String,
    path: String,
    query: String,
    body: Option<Value>,
}

/// Answers the next request with `answer`, runs `call`, and returns what was sent.
async fn check<F, Fut, T>(answer: Value, call: F) -> (T, Sent)
where
    F: FnOnce(Client) -> Fut,
    Fut: std::future::Future<Output = Result<T, baseten_api::Error>>,
{
    let fake = FakeBaseten::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_json(answer))
        .mount(fake.server().wiremock())
        .await;
    let value = call(fake.client().unwrap()).await.unwrap();
    let received = fake.server().received().await;
    assert_eq!(received.len(), 1);
    let request = &received[0];
    assert_eq!(
        request
            .headers
            .get("authorization")
            .and_then(|v| v.to_str().ok()),
        Some("Bearer fake-baseten-key")
    );
    let body = (!request.body.is_empty()).then(|| serde_json::from_slice(&request.body).unwrap());
    if body.is_some() {
        assert_eq!(
            request
                .headers
                .get("content-type")
                .and_then(|v| v.to_str().ok()),
            Some("application/json")
        );
    }
    let sent = Sent {
        method: request.method.to_string(),
        path: request.url.path().to_owned(),
        query: request.url.query().unwrap_or_default().to_owned(),
        body,
    };
    (value, sent)
}

fn sent(method: &str, path: &str, query: &str, body: Option<Value>) -> Sent {
    Sent {
        method: method.to_owned(),
        path: path.to_owned(),
        query: query.to_owned(),
        body,
    }
}

#[tokio::test]
async fn models_deployments_and_environments() {
    let (models, request) = check(json!({"models": [model()]}), |c| async move {
        c.get_models(&GetModelsQuery::default().name("llama")).await
    })
    .await;
    assert_eq!(request, sent("GET", "/v1/models", "name=llama", None));
    assert_eq!(
        models.models[0].production_deployment_id.as_deref(),
        Some("d1")
    );

    let (got, request) = check(model(), |c| async move { c.get_model("m/1").await }).await;
    assert_eq!(request, sent("GET", "/v1/models/m%2F1", "", None));
    assert_eq!(got.deployments_count, 2);

    let (got, request) = check(json!({"deployments": [deployment()]}), |c| async move {
        c.get_model_deployments("m1", &GetModelDeploymentsQuery::default())
            .await
    })
    .await;
    assert_eq!(request, sent("GET", "/v1/models/m1/deployments", "", None));
    assert_eq!(got.deployments[0].active_replica_count, 3);

    let (got, request) = check(deployment(), |c| async move {
        c.get_model_deployment("m1", "d1").await
    })
    .await;
    assert_eq!(
        request,
        sent("GET", "/v1/models/m1/deployments/d1", "", None)
    );
    assert_eq!(got.environment.as_deref(), Some("production"));

    let (got, request) = check(json!({"environments": [environment()]}), |c| async move {
        c.get_model_environments("m1").await
    })
    .await;
    assert_eq!(request, sent("GET", "/v1/models/m1/environments", "", None));
    assert_eq!(got.environments[0].autoscaling_settings.max_replica, 4);

    let (got, request) = check(environment(), |c| async move {
        c.get_model_environment("m1", "production").await
    })
    .await;
    assert_eq!(
        request,
        sent("GET", "/v1/models/m1/environments/production", "", None)
    );
    assert_eq!(got.instance_type.gpu_count, 1);
}

#[tokio::test]
async fn autoscaling_patches_send_absent_null_and_value() {
    let body = UpdateAutoscalingSettingsV1::new()
        .min_replica(0)
        .clear_scale_down_delay();
    let (got, request) = check(
        json!({"status": "ACCEPTED", "message": "ok"}),
        |c| async move {
            c.patch_model_deployment_autoscaling_settings("m1", "d1", &body)
                .await
        },
    )
    .await;
    assert_eq!(
        request,
        sent(
            "PATCH",
            "/v1/models/m1/deployments/d1/autoscaling_settings",
            "",
            Some(json!({"min_replica": 0, "scale_down_delay": null}))
        )
    );
    assert_eq!(got.message, "ok");

    let body = UpdateEnvironmentRequestV1::new()
        .autoscaling_settings(UpdateAutoscalingSettingsV1::new().max_replica(8))
        .clear_promotion_settings();
    let answer = json!({"environment": environment(), "status": "QUEUED", "message": "queued"});
    let (got, request) = check(answer, |c| async move {
        c.patch_model_environment("m1", "production", &body).await
    })
    .await;
    assert_eq!(
        request,
        sent(
            "PATCH",
            "/v1/models/m1/environments/production",
            "",
            Some(json!({"autoscaling_settings": {"max_replica": 8}, "promotion_settings": null}))
        )
    );
    assert_eq!(got.environment.name, "production");
}

#[tokio::test]
async fn billing_audit_logs_and_metrics() {
    let usage = json!({"dedicated_usage": {"subtotal": "12.50", "credits_used": 0, "total": "12.50",
                                           "minutes": 42, "breakdown": []}});
    let (got, request) = check(usage, |c| async move {
        c.get_billing_usage_summary(
            timestamp("2026-07-01T00:00:00Z"),
            timestamp("2026-07-08T02:00:00+02:00"),
        )
        .await
    })
    .await;
    assert_eq!(
        request,
        sent(
            "GET",
            "/v1/billing/usage_summary",
            "start_date=2026-07-01T00%3A00%3A00Z&end_date=2026-07-08T00%3A00%3A00Z",
            None
        )
    );
    assert_eq!(got.dedicated_usage.map(|u| u.minutes), Some(42));

    let page = json!({"items": [], "pagination": {"has_more": false, "cursor": null}});
    let (pages, request) = check(page, |c| async move {
        c.get_audit_logs_pages(
            &GetAuditLogsQuery::default()
                .limit(50_i64)
                .user_ids(["u1", "u2"]),
        )
        .try_collect::<Vec<_>>()
        .await
    })
    .await;
    assert_eq!(
        request,
        sent(
            "GET",
            "/v1/audit_logs",
            "limit=50&user_ids=u1&user_ids=u2",
            None
        )
    );
    assert_eq!(pages.len(), 1);

    let series = baseten_api::mock::MetricsResponseBuilder::series(1_000, 30, 2).gauge(
        "baseten_replicas_active",
        "COUNT",
        &[Some(1.0), Some(2.0)],
    );
    let window = baseten_api::requests::Window::new(1_000, 61_000).unwrap();
    let (got, request) = check(series.to_json(), |c| async move {
        c.deployment_metrics("m1", "d1")
            .series(window)
            .metric("baseten_replicas_active")
            .send()
            .await
    })
    .await;
    assert_eq!(
        request,
        sent(
            "GET",
            "/v1/models/m1/deployments/d1/metrics",
            "mode=SERIES&start_epoch_millis=1000&end_epoch_millis=61000&metrics=baseten_replicas_active",
            None
        )
    );
    let response: &GetModelMetricsResponseV1 = got.response();
    assert_eq!(response.metric_values.len(), 2);
}

/// A timestamp from RFC 3339 text (the test's own constants).
fn timestamp(text: &str) -> baseten_api::primitives::jiff::Timestamp {
    text.parse()
        .unwrap_or_else(|error| panic!("{text:?} is not a timestamp: {error}"))
}
