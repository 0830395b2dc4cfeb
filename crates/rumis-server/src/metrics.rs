//! `GET /metrics`: what an operator watches, in the text format Prometheus scrapes
//! (OpenMetrics; docs/hosting.md says what each means and what to watch). Each server has
//! its own registry (several run in one test process).
//!
//! Requests are counted by the route's template (`/api/v1/games/{id}`), never the path as
//! sent: a label per game id would grow without end. A request that matched no route (the
//! web app's files, a 404, a refusal before routing) counts as `other`. The gauges (open
//! sockets, the AI queue, searches, the pool, clocks) are read from their owners when
//! scraped, so nothing else has to keep them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;
use tracing::Instrument;

use crate::queue::AiQueue;
use crate::ws::Sockets;
use crate::App;

type RequestLabels = [(&'static str, String); 3];
type Label = [(&'static str, &'static str); 1];
type RouteLabel = [(&'static str, String); 1];
/// Latency by route: histograms made with [`latency_histogram`]'s buckets.
type Latency = Family<RouteLabel, Histogram, fn() -> Histogram>;

/// The request's id header (given by a proxy, or made here), on every answer.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Latency,
    moves: Counter,
    /// The service's count when last scraped (the counter follows it).
    moves_seen: Mutex<u64>,
    sockets: Family<Label, Gauge>,
    ai: Family<Label, Gauge>,
    searches: Gauge,
    pool: Family<Label, Gauge>,
    clocks: Gauge,
    draining: Gauge,
    queue: Arc<AiQueue>,
}

fn latency_histogram() -> Histogram {
    // 1 ms to ~33 s, doubling.
    Histogram::new(exponential_buckets(0.001, 2.0, 16))
}

impl Metrics {
    pub fn new(queue: Arc<AiQueue>) -> Metrics {
        let mut registry = Registry::with_prefix("rumis");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by route template, method and status",
            requests.clone(),
        );
        let latency = Latency::new_with_constructor(latency_histogram);
        registry.register(
            "http_request_duration_seconds",
            "Time to answer a request (to its head; a WebSocket's life is not counted), by route template",
            latency.clone(),
        );
        let moves = Counter::default();
        registry.register(
            "moves_committed",
            "Moves committed by this instance (players' and AI's)",
            moves.clone(),
        );
        let sockets = Family::<Label, Gauge>::default();
        registry.register(
            "websockets_open",
            "WebSockets open now, by kind (game, lobby)",
            sockets.clone(),
        );
        let ai = Family::<Label, Gauge>::default();
        registry.register(
            "ai_queue_games",
            "Games whose AI seat is to move, by state (waiting for a worker, running)",
            ai.clone(),
        );
        registry.register(
            "ai_queue_wait_seconds",
            "Time an AI move, hint or analysis waited in the AI queue for a thread, by kind (move, hint, analysis)",
            queue.waits(),
        );
        let searches = Gauge::default();
        registry.register(
            "searches_running",
            "Hints and analyses being searched now",
            searches.clone(),
        );
        let pool = Family::<Label, Gauge>::default();
        registry.register(
            "db_connections",
            "The database pool's connections, by state (idle, busy)",
            pool.clone(),
        );
        let clocks = Gauge::default();
        registry.register(
            "clocks_pending",
            "Unfinished games whose clock runs (the timeout task's work ahead)",
            clocks.clone(),
        );
        let draining = Gauge::default();
        registry.register(
            "draining",
            "1 while the server is stopping (readyz answers 503)",
            draining.clone(),
        );
        Metrics {
            registry,
            requests,
            latency,
            moves,
            moves_seen: Mutex::new(0),
            sockets,
            ai,
            searches,
            pool,
            clocks,
            draining,
            queue,
        }
    }

    fn observe(&self, route: &str, method: &str, status: StatusCode, took: Duration) {
        self.requests
            .get_or_create(&[
                ("route", route.to_string()),
                ("method", method.to_string()),
                ("status", status.as_u16().to_string()),
            ])
            .inc();
        self.latency
            .get_or_create(&[("route", route.to_string())])
            .observe(took.as_secs_f64());
    }

    /// The gauges read now, and the whole registry as text.
    async fn render(&self, app: &App, sockets: &Sockets) -> String {
        let (game, lobby) = sockets.open_counts();
        self.sockets.get_or_create(&[("kind", "game")]).set(game as i64);
        self.sockets.get_or_create(&[("kind", "lobby")]).set(lobby as i64);
        let (waiting, running) = self.queue.lengths();
        self.ai.get_or_create(&[("state", "waiting")]).set(waiting as i64);
        self.ai.get_or_create(&[("state", "running")]).set(running as i64);
        self.searches.set(app.searches.running() as i64);
        let store = app.games.store();
        let (open, idle) = store.pool_use();
        self.pool.get_or_create(&[("state", "idle")]).set(idle as i64);
        self.pool
            .get_or_create(&[("state", "busy")])
            .set(i64::from(open).saturating_sub(idle as i64));
        match store.clocks_pending().await {
            Ok(n) => {
                self.clocks.set(n);
            }
            Err(e) => tracing::warn!("metrics: cannot count the clocks: {e}"),
        }
        self.draining.set(i64::from(app.draining.load(Ordering::Relaxed)));
        let mut text = String::new();
        {
            // One scrape at a time moves the counter, so that none adds twice.
            let mut seen = self.moves_seen.lock().unwrap_or_else(|e| e.into_inner());
            let now = app.games.moves_committed();
            self.moves.inc_by(now.saturating_sub(*seen));
            *seen = now.max(*seen);
            if let Err(e) = prometheus_client::encoding::text::encode(&mut text, &self.registry) {
                tracing::error!("metrics: cannot encode: {e}");
            }
        }
        text
    }
}

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
    let text = app.metrics.render(app, sockets).await;
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
