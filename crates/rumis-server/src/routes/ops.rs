//! Operating a server: `GET /healthz` (the process answers), `GET /readyz` (it can serve:
//! the database answers, its migrations are applied, and it is not draining before a
//! stop) and `GET /metrics` (Prometheus; see `metrics.rs`). Outside `/api/v1`: they are
//! for the machines around the server (a load balancer, a monitor), not for players.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use crate::App;

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(super::metrics::handler))
}

/// The answer of `/healthz` and `/readyz`.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
struct Health {
    /// `alive`, `ready` or `not_ready`.
    #[cfg_attr(feature = "openapi", schema(value_type = super::described::HealthStatus))]
    status: &'static str,
    /// Why not ready (draining, the database, migrations).
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/healthz",
    summary = "The process answers (liveness); nothing else is checked",
    responses((status = 200, description = "Alive", body = Health))))]
async fn healthz() -> Json<Health> {
    Json(Health {
        status: "alive",
        reason: None,
    })
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/readyz",
    summary = "The instance can serve (readiness)",
    description = "200 when the database answers and every migration of this build is applied and the server is not draining; 503 with the reason otherwise (from the moment a stop begins, see docs/hosting.md).",
    responses(
        (status = 200, description = "Ready", body = Health),
        (status = 503, description = "Not ready, and why", body = Health),
    )))]
async fn readyz(State(app): State<Arc<App>>) -> Response {
    let reason = if app.draining.load(Ordering::Relaxed) {
        Some("draining: the server is stopping".to_string())
    } else {
        app.games.store().not_ready().await
    };
    match reason {
        None => Json(Health {
            status: "ready",
            reason: None,
        })
        .into_response(),
        Some(reason) => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(Health {
                status: "not_ready",
                reason: Some(reason),
            }),
        )
            .into_response(),
    }
}
