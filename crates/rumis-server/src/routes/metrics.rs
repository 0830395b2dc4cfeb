//! `GET /metrics` (on the public address, or on its own) and what runs around every
//! request: its id, its count and time by route (`crate::metrics` keeps the figures).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use tracing::Instrument;

use crate::ws::Sockets;
use crate::App;

/// The request's id header (given by a proxy, or made here), on every answer.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// `GET /metrics` on the public address: the scrape, unless it has an address of its own
/// (`Config::metrics_addr`), when the public address answers as for any unknown path.
#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/metrics",
    summary = "Counters and gauges in the OpenMetrics text format (docs/hosting.md lists them)",
    responses(
        (status = 200, description = "The metrics", body = String, content_type = "application/openmetrics-text"),
        (status = 404, description = "The metrics have an address of their own (`--metrics-addr`)", body = crate::wire::ErrorBody),
    )))]
pub(crate) async fn handler(State(app): State<Arc<App>>, Extension(sockets): Extension<Arc<Sockets>>) -> Response {
    if app.config.metrics_addr.is_some() {
        return crate::ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such endpoint; see /api/v1")
            .into_response();
    }
    scrape(&app, &sockets).await
}

/// `GET /metrics` on its own address: only this route there (no API, no web app).
pub(crate) fn own_router(app: Arc<App>, sockets: Arc<Sockets>) -> axum::Router {
    axum::Router::new().route(
        "/metrics",
        axum::routing::get(move || async move { scrape(&app, &sockets).await }),
    )
}

async fn scrape(app: &App, sockets: &Sockets) -> Response {
    let text = app
        .metrics
        .render(
            sockets,
            app.searches.running(),
            app.games.store(),
            app.draining.load(Ordering::Relaxed),
            app.games.moves_committed(),
        )
        .await;
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/openmetrics-text; version=1.0.0; charset=utf-8"),
        )],
        text,
    )
        .into_response()
}

/// The route a request matched, noted by [`mark_route`] for [`observe`] (which runs
/// before routing and so cannot see it itself).
#[derive(Clone, Default)]
pub(crate) struct RouteSlot(Arc<OnceLock<String>>);

/// Runs on matched routes only (a `route_layer`): notes the route's template.
pub(crate) async fn mark_route(req: Request, next: Next) -> Response {
    if let (Some(path), Some(slot)) = (
        req.extensions().get::<MatchedPath>(),
        req.extensions().get::<RouteSlot>(),
    ) {
        let _ = slot.0.set(path.as_str().to_string());
    }
    next.run(req).await
}

/// A request id from a proxy's `X-Request-Id` if it is a short plain token, else a new one.
fn request_id(req: &Request) -> HeaderValue {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    static PREFIX: OnceLock<u32> = OnceLock::new();
    if let Some(v) = req.headers().get(&REQUEST_ID) {
        let ok = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.');
        if (1..=64).contains(&v.len()) && v.as_bytes().iter().all(ok) {
            return v.clone();
        }
    }
    let prefix = *PREFIX.get_or_init(|| {
        let mut b = [0u8; 4];
        let _ = getrandom::fill(&mut b);
        u32::from_le_bytes(b)
    });
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    HeaderValue::from_str(&format!("{prefix:08x}{n:08x}")).unwrap_or(HeaderValue::from_static("0"))
}

/// Around every request: its id (in the logs of its work, and in `X-Request-Id` on the
/// answer), its count and time by route, and one access-log line when answered.
pub(crate) async fn observe(State(app): State<Arc<App>>, mut req: Request, next: Next) -> Response {
    let start = Instant::now();
    let id = request_id(&req);
    let slot = RouteSlot::default();
    req.extensions_mut().insert(slot.clone());
    let method = req.method().clone();
    let span = tracing::info_span!("request", id = id.to_str().unwrap_or(""));
    let mut response = next.run(req).instrument(span.clone()).await;
    let took = start.elapsed();
    let route = slot.0.get().map_or("other", String::as_str);
    let status = response.status();
    app.metrics.observe(route, method.as_str(), status, took);
    // At debug, under a target of its own: an access log is asked for
    // (`RUST_LOG=info,rumis_server::access=debug`), not written under load by default.
    span.in_scope(|| {
        tracing::debug!(
            target: "rumis_server::access",
            method = method.as_str(),
            route,
            status = status.as_u16(),
            ms = took.as_secs_f64() * 1000.0,
            "answered"
        )
    });
    response.headers_mut().insert(REQUEST_ID, id);
    response
}
