//! `GET /metrics`: what an operator watches, in the text format Prometheus scrapes
//! (OpenMetrics; docs/hosting.md says what each means and what to watch). Each server has
//! its own registry (several run in one test process).
//!
//! Requests are counted by the route's template (`/api/v1/games/{id}`), never the path as
//! sent: a label per game id would grow without end. A request that matched no route (the
//! web app's files, a 404, a refusal before routing) counts as `other`. The gauges (open
//! sockets, the AI queue, searches, the pool, clocks) are read from their owners when
//! scraped, so nothing else has to keep them.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::StatusCode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

use crate::queue::AiQueue;
use crate::store::Store;
use crate::ws::Sockets;

type RequestLabels = [(&'static str, String); 3];
type Label = [(&'static str, &'static str); 1];
type RouteLabel = [(&'static str, String); 1];
/// Latency by route: histograms made with [`latency_histogram`]'s buckets.
type Latency = Family<RouteLabel, Histogram, fn() -> Histogram>;

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

    pub(crate) fn observe(&self, route: &str, method: &str, status: StatusCode, took: Duration) {
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

    /// The gauges read now, and the whole registry as text: the sockets, the searches
    /// running, the store's pool and clocks, whether the server is draining and the moves
    /// committed so far are read by the caller from their owners.
    pub(crate) async fn render(
        &self,
        sockets: &Sockets,
        searches: usize,
        store: &Store,
        draining: bool,
        moves_committed: u64,
    ) -> String {
        let (game, lobby) = sockets.open_counts();
        self.sockets.get_or_create(&[("kind", "game")]).set(game as i64);
        self.sockets.get_or_create(&[("kind", "lobby")]).set(lobby as i64);
        let (waiting, running) = self.queue.lengths();
        self.ai.get_or_create(&[("state", "waiting")]).set(waiting as i64);
        self.ai.get_or_create(&[("state", "running")]).set(running as i64);
        self.searches.set(searches as i64);
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
        self.draining.set(i64::from(draining));
        let mut text = String::new();
        {
            // One scrape at a time moves the counter, so that none adds twice.
            let mut seen = self.moves_seen.lock().unwrap_or_else(|e| e.into_inner());
            let now = moves_committed;
            self.moves.inc_by(now.saturating_sub(*seen));
            *seen = now.max(*seen);
            if let Err(e) = prometheus_client::encoding::text::encode(&mut text, &self.registry) {
                tracing::error!("metrics: cannot encode: {e}");
            }
        }
        text
    }
}
