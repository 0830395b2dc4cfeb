//! The Rumis game server: a JSON API under `/api/v1` and a WebSocket per game, over a
//! database (SQLite by default; PostgreSQL with the same code through `sqlx`'s `Any`
//! driver). The rules are the core's: the server stores moves as placement text, replays
//! them with `rumis_core` to check each new one, and never decides a rule itself.
//!
//! Every accepted move is committed, in the same transaction as the check of its expected
//! move number, before it is acknowledged; `UNIQUE (game, number)` makes two submissions of
//! one turn unable to both succeed. AI seats are played on blocking worker threads.
//! The JSON shapes are in `docs/server-api.md`.
//!
//! The layers: `routes` (HTTP: extract (`extract`) and answer) → `service` (the game service: rules
//! through the core (`game`), transactions, events, AI work) → `store` (SQL). `error` maps the
//! service's errors to statuses; `events` is the hub of per-game channels; `queue` and `ai`
//! play the AI seats; `wire` holds the typed answers and events.

mod ai;
mod app;
mod boards;
mod clock;
mod config;
pub mod edge;
mod error;
mod events;
mod extract;
mod game;
mod guard;
mod lessons;
mod lobby_feed;
mod metrics;
mod queue;
mod ratelimit;
mod ratings;
mod routes;
mod search;
mod search_thread;
mod service;
mod store;
mod time;
mod view;
pub mod webapp;
mod webdir;
/// The API's answers and events as typed structs (their own crate: the in-browser engine
/// answers in the same shapes).
pub use rumis_wire as wire;
pub mod ws;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;

pub(crate) use app::App;
pub use config::Config;
pub use error::ApiError;
/// The OpenAPI document written from the routes (feature `openapi`: the tests).
#[cfg(feature = "openapi")]
pub use routes::openapi;
pub use store::drop_database;
pub use time::Time;

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    /// Where `/metrics` is served when it has an address of its own (`Config::metrics_addr`).
    pub metrics_addr: Option<SocketAddr>,
    shutdown: Option<tokio::sync::watch::Sender<bool>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    listener: Option<tokio::task::JoinHandle<()>>,
    /// The AI workers and the expiry of idle games: stopped with the server.
    background: Vec<tokio::task::JoinHandle<()>>,
    conns: Arc<edge::Conns>,
    sockets: Arc<ws::Sockets>,
    app: Arc<App>,
}

impl Server {
    /// Connections open now (WebSockets included).
    pub fn open_connections(&self) -> usize {
        self.conns.open(None)
    }

    /// The base URL, e.g. `http://127.0.0.1:8080`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// From now on `/readyz` answers 503 (a stop is coming); everything else goes on.
    pub fn drain(&self) {
        self.app.draining.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Stops: readiness goes, no connection is accepted any more, the WebSockets are
    /// closed with [`ws::CLOSE_RESTART`] (their clients reconnect, to another instance if
    /// there is one), the requests under way are finished (10 s at most), and the
    /// background work ends. An AI move being searched is dropped uncommitted: its game
    /// still says an AI seat is to move, which the next start (of any instance) resumes.
    pub async fn stop(mut self) {
        self.drain();
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(true);
        }
        self.sockets.close_all();
        if let Some(l) = self.listener.take() {
            l.abort();
        }
        for t in self.background.drain(..) {
            t.abort();
        }
        let _ = tokio::time::timeout(Duration::from_secs(10), &mut self.task).await;
        // The sockets' close frames go out (each within its send timeout).
        let deadline = tokio::time::Instant::now() + self.sockets.limits.send_timeout;
        while self.sockets.open_counts() != (0, 0) && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits until the server ends (it does not unless stopped or it fails).
    pub async fn wait(self) -> std::io::Result<()> {
        match self.task.await {
            Ok(r) => r,
            Err(e) => Err(std::io::Error::other(e.to_string())),
        }
    }
}

/// Opens the database (running its migrations), binds the address, resumes every pending
/// AI turn and starts serving. Must run inside a multi-threaded tokio runtime.
pub async fn start(config: Config) -> Result<Server, String> {
    let store = store::Store::open(&config.database_url).await?;
    let tcp = TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let addr = tcp.local_addr().map_err(|e| e.to_string())?;
    let metrics_tcp = match config.metrics_addr {
        Some(at) => Some(
            TcpListener::bind(at)
                .await
                .map_err(|e| format!("cannot listen on {at} for /metrics: {e}"))?,
        ),
        None => None,
    };
    let metrics_addr = match &metrics_tcp {
        Some(l) => Some(l.local_addr().map_err(|e| e.to_string())?),
        None => None,
    };
    let app = app(config, store)?;
    // PostgreSQL: listen before serving, so that no event is missed.
    let listener = if app.games.store().is_postgres() {
        let mut l = sqlx::postgres::PgListener::connect(app.games.store().url())
            .await
            .map_err(|e| format!("cannot listen for events: {e}"))?;
        l.listen(events::CHANNEL)
            .await
            .map_err(|e| format!("cannot listen for events: {e}"))?;
        Some(tokio::spawn(listen(app.clone(), l)))
    } else {
        None
    };
    let mut background = background(&app).await?;
    let router =
        routes::router(app.clone()).layer(axum::middleware::from_fn_with_state(guard::Guard::new(), guard::check));
    let fds = edge::raise_fd_limit();
    let limits = app.config.limits.clone();
    let total = edge::cap_for_fds(limits.connections, fds);
    if total < limits.connections {
        tracing::warn!(
            "at most {total} connections (the open-file limit is {})",
            fds.unwrap_or(0)
        );
    }
    // Watchers and lobby sockets hold at most their shares of the connections (ws.rs).
    let sockets = ws::Sockets::new(app.config.ws.clone().within(total));
    let router = router.layer(axum::Extension(sockets.clone()));
    if let Some(tcp) = metrics_tcp {
        // A scraper's own listener, for a private network: none of the public port's
        // limits or counts apply to it (the public port's are the ones to watch).
        let router = routes::metrics::own_router(app.clone(), sockets.clone());
        background.push(tokio::spawn(async move {
            if let Err(e) = axum::serve(tcp, router).await {
                tracing::error!("the /metrics listener failed: {e}");
            }
        }));
    }
    // Outermost: every answer is counted and carries its request's id (metrics.rs).
    let router = router.layer(axum::middleware::from_fn_with_state(
        app.clone(),
        routes::metrics::observe,
    ));
    let edge = Arc::new(edge::Edge {
        conns: edge::Conns::new(limits.connections_per_address, total),
        limits,
        body_limit: app.config.body_limit,
    });
    let (tx, rx) = tokio::sync::watch::channel(false);
    let conns = edge.conns.clone();
    let task = tokio::spawn(edge::serve(tcp, router, edge, rx));
    Ok(Server {
        conns,
        addr,
        metrics_addr,
        shutdown: Some(tx),
        task,
        listener,
        background,
        sockets,
        app,
    })
}

/// The server's state on an open store: the game service, its events and AI queue, the
/// limiters, the lobby feed and the metrics.
fn app(config: Config, store: store::Store) -> Result<Arc<App>, String> {
    let hub = Arc::new(events::Hub::new());
    let queue = queue::AiQueue::with_search_nice(config.ai_workers, config.search_nice);
    let limits = service::Limits {
        ai_only_per_creator: config.ai_only_per_creator,
        ai_only_total: config.ai_only_total,
        seek_idle: config.seek_idle,
        ai_leases: service::Leases::new(config.ai_lease, config.ai_heartbeat)?,
    };
    let games = Arc::new(service::Games::new(
        store,
        hub.clone(),
        queue.clone(),
        limits,
        config.time.clone(),
    ));
    let reviews = Arc::new(service::Reviews::new(
        games.clone(),
        config.review_simulations,
        config.ai_lease,
        config.ai_heartbeat,
    ));
    let training = Arc::new(service::Training::new(games.clone(), service::Catalogue::built_in()?));
    Ok(Arc::new(App {
        training,
        games,
        events: hub,
        limiter: ratelimit::Limiter::new(config.rate_burst, config.rate_per_second),
        key_limiter: ratelimit::Limiter::new(config.keys_per_hour, config.keys_per_hour / 3600.0),
        searches: search::Searches::new(queue.clone(), config.time.clone()),
        reviews,
        lobby_feed: Arc::new(lobby_feed::LobbyFeed::new()),
        config,
        draining: Default::default(),
        metrics: metrics::Metrics::new(queue),
    }))
}

/// Starts the server's own work: the lobby feed, the queue's second looks, the AI workers
/// (resuming pending AI turns), the takeover of expired AI leases, clocks, the lobby's tick
/// and the expiry of idle games.
async fn background(app: &Arc<App>) -> Result<Vec<tokio::task::JoinHandle<()>>, String> {
    let games = &app.games;
    let queue = games.queue();
    let mut background = Vec::new();
    {
        // The lobby's socket messages: rendered once per change (lobby_feed.rs).
        let changes = app.events.subscribe(service::LOBBY);
        let app = app.clone();
        background.push(tokio::spawn(async move {
            let feed = app.lobby_feed.clone();
            feed.run(changes, |version| {
                let app = app.clone();
                async move { routes::lobby::lobby_message(&app, version).await }
            })
            .await
        }));
    }
    {
        // A second look, now and then, for a search to cut for a calm address (queue.rs).
        let queue = queue.clone();
        background.push(tokio::spawn(async move {
            let mut every = tokio::time::interval(queue::RECHECK_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            loop {
                every.tick().await;
                queue.recheck();
            }
        }));
    }
    if app.config.ai_workers > 0 {
        background.extend(ai::start(
            games.clone(),
            queue,
            app.config.ai_workers,
            app.config.ai_move_cap,
        ));
        // A pending AI turn resumes after a restart.
        games.resume(app.config.resume_limit).await.map_err(|e| e.to_string())?;
        // And one held by an instance that died, after its lease expires.
        background.push(games.start_ai_takeover());
    }
    // Reviews asked for, and those an earlier life of the server left under way.
    background.push(app.reviews.start());
    // Clocks that ran out, also while the server was down, fire from the database.
    background.push(games.start_timeouts(app.config.clock_poll));
    if let Some(every) = app.config.lobby_tick {
        // Quick play's AI fill and the ratings of finished rated games (service/lobby.rs).
        let games = games.clone();
        background.push(tokio::spawn(async move {
            let mut ticker = games.time().ticker(every);
            loop {
                if let Err(e) = games.lobby_tick().await {
                    tracing::error!("lobby: {e}");
                }
                ticker.tick().await;
            }
        }));
    }
    if let Some(ttl) = app.config.game_ttl {
        let games = games.clone();
        background.push(tokio::spawn(async move {
            let every = (ttl / 4).clamp(Duration::from_millis(100), Duration::from_secs(600));
            let mut ticker = games.time().ticker(every);
            loop {
                if let Err(e) = games.expire(ttl).await {
                    tracing::error!("cannot expire idle games: {e}");
                }
                ticker.tick().await;
            }
        }));
    }
    Ok(background)
}

/// `rumis db`: the maintenance of a database by its URL, with or without a server running
/// on it (store/ops.rs); each call runs on a runtime of its own.
pub mod db {
    use std::future::Future;
    use std::path::Path;

    fn block<T>(work: impl Future<Output = Result<T, String>>) -> Result<T, String> {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the runtime: {e}"))?
            .block_on(work)
    }

    /// A consistent copy of the SQLite database at `url` in the new file `file`.
    pub fn backup(url: &str, file: &Path) -> Result<(), String> {
        block(crate::store::ops::backup(url, file))
    }

    /// A backup, checked, copied to the new SQLite database of `url`; the check's lines.
    pub fn restore(file: &Path, url: &str) -> Result<Vec<String>, String> {
        block(crate::store::ops::restore(file, url))
    }

    /// Integrity and migrations: the lines to print, or what is wrong.
    pub fn check(url: &str) -> Result<Vec<String>, String> {
        block(crate::store::ops::check(url))
    }
}

/// PostgreSQL: feeds every instance's notified events to this one's subscribers.
async fn listen(app: Arc<App>, mut listener: sqlx::postgres::PgListener) {
    loop {
        match listener.try_recv().await {
            Ok(Some(n)) => {
                if let Some(e) = events::Event::from_payload(n.payload()) {
                    app.events.send(vec![e]);
                }
            }
            // The connection was lost and made again: events may be missing.
            Ok(None) => app.events.send(vec![events::resync()]),
            Err(e) => {
                tracing::error!("event listener: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// The stop signals: SIGTERM (a service manager's stop: drain first) and SIGINT (Ctrl-C:
/// stop at once).
struct Signals {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
}

impl Signals {
    fn new() -> Result<Signals, String> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let e = |e: std::io::Error| format!("cannot listen for signals: {e}");
            Ok(Signals {
                term: signal(SignalKind::terminate()).map_err(e)?,
                int: signal(SignalKind::interrupt()).map_err(e)?,
            })
        }
        #[cfg(not(unix))]
        Ok(Signals {})
    }

    /// The next signal: whether it asks to drain first (SIGTERM).
    async fn next(&mut self) -> bool {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.term.recv() => true,
                _ = self.int.recv() => false,
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            false
        }
    }
}

/// `rumis serve`: runs a server until stopped, printing the URL to open. SIGTERM drains
/// for [`Config::drain_delay`] (`/readyz` 503, all else served; a second signal ends the
/// wait), then stops as [`Server::stop`] says; SIGINT stops at once. A stop ends with
/// `Ok`, so the process exits 0.
pub fn serve_blocking(config: Config) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let r = runtime.block_on(async move {
        let db = store::redact(&config.database_url);
        let web = webapp::describe(config.web_dir.as_deref(), config.embedded_web);
        let delay = config.drain_delay;
        let mut signals = Signals::new()?;
        let mut server = start(config).await?;
        println!(
            "rumis server on {}/ (API {}/api/v1, database {db}, {web})",
            server.url(),
            server.url()
        );
        if let Some(at) = server.metrics_addr {
            tracing::info!("/metrics on http://{at}/metrics (not on the public address)");
        }
        let drain = tokio::select! {
            r = &mut server.task => {
                return match r {
                    Ok(r) => r.map_err(|e| format!("server failed: {e}")),
                    Err(e) => Err(format!("server failed: {e}")),
                };
            }
            drain = signals.next() => drain,
        };
        if drain && !delay.is_zero() {
            server.drain();
            tracing::info!("SIGTERM: draining for {delay:?} (/readyz answers 503); a second signal stops at once");
            tokio::select! {
                _ = tokio::time::sleep(delay) => {}
                _ = signals.next() => {}
            }
        }
        tracing::info!("stopping: closing sockets, finishing the requests under way");
        server.stop().await;
        tracing::info!("stopped");
        Ok(())
    });
    // An AI search still running on a blocking thread is not waited for: its move was
    // never committed, and the next start resumes the turn.
    runtime.shutdown_timeout(Duration::from_secs(1));
    r
}
