//! The Rumis game server: a JSON API under `/api/v1` and a WebSocket per game, over a
//! database (SQLite by default; PostgreSQL with the same code through `sqlx`'s `Any`
//! driver). The rules are the core's: the server stores moves as placement text, replays
//! them with `rumis_core` to check each new one, and never decides a rule itself.
//!
//! Every accepted move is committed, in the same transaction as the check of its expected
//! move number, before it is acknowledged; `UNIQUE (game, number)` makes two submissions of
//! one turn unable to both succeed. AI seats are played on blocking worker threads.
//! The JSON shapes are in `docs/server-api.md`.

mod ai;
mod api;
pub mod client;
mod db;
pub mod edge;
mod error;
mod events;
mod guard;
mod puzzle;
mod ratelimit;
mod search;
mod view;
mod webdir;
pub mod ws;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::net::TcpListener;

pub use db::drop_database;
pub use error::ApiError;

/// How a server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen; port 0 picks a free one.
    pub addr: SocketAddr,
    /// `sqlite://PATH` (created if missing) or `postgres://…`.
    pub database_url: String,
    /// Largest request body accepted, in bytes.
    pub body_limit: usize,
    /// Per client IP: the burst of requests allowed, and the requests per second refilled.
    pub rate_burst: f64,
    pub rate_per_second: f64,
    /// How many AI moves may be computed at once (0: AI seats wait, e.g. for maintenance).
    pub ai_workers: usize,
    /// Largest number of games listed by `GET /api/v1/games`.
    pub list_limit: i64,
    /// The built web app (`web/dist`), served at `/`; without one (or without its
    /// `index.html`) `/` says how to build it.
    pub web_dir: Option<std::path::PathBuf>,
    /// Timeouts, connection caps and the trusted proxy (see [`edge`]).
    pub limits: edge::Limits,
    /// Caps and pings of the event WebSockets (see [`ws`]).
    pub ws: ws::WsLimits,
}

impl Config {
    pub fn new(addr: SocketAddr, database_url: impl Into<String>) -> Config {
        Config {
            addr,
            database_url: database_url.into(),
            body_limit: 16 * 1024,
            rate_burst: 120.0,
            rate_per_second: 40.0,
            ai_workers: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
            list_limit: 50,
            web_dir: None,
            limits: edge::Limits::default(),
            ws: ws::WsLimits::default(),
        }
    }
}

/// Everything a request handler needs.
pub(crate) struct App {
    pub store: db::Store,
    pub events: events::Hub,
    pub ai: ai::Runner,
    pub limiter: ratelimit::Limiter,
    /// Hints and analyses.
    pub searches: search::Searches,
    pub config: Config,
    /// One lock per game being written in this process, held from the transaction to the
    /// publication of its events, so that subscribers get a game's events in order.
    locks: std::sync::Mutex<HashMap<String, Weak<tokio::sync::Mutex<()>>>>,
}

impl App {
    /// The events of a committed change. On PostgreSQL they went out with its transaction
    /// and come back through the listener, like every other instance's.
    pub(crate) fn committed(&self, events: Vec<events::Event>) {
        if !self.store.is_postgres() {
            self.events.send(events);
        }
    }

    /// Events that change nothing stored (an AI is thinking).
    pub(crate) async fn announce(&self, events: Vec<events::Event>) {
        if self.store.is_postgres() {
            if let Err(e) = self.store.notify(&events).await {
                eprintln!("rumis server: cannot notify: {}", e.reason);
            }
        } else {
            self.events.send(events);
        }
    }

    pub(crate) async fn lock_game(&self, id: &str) -> tokio::sync::OwnedMutexGuard<()> {
        let lock = {
            let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
            if locks.len() > 1024 {
                locks.retain(|_, w| w.strong_count() > 0);
            }
            match locks.get(id).and_then(Weak::upgrade) {
                Some(l) => l,
                None => {
                    let l = Arc::new(tokio::sync::Mutex::new(()));
                    locks.insert(id.to_string(), Arc::downgrade(&l));
                    l
                }
            }
        };
        lock.lock_owned().await
    }
}

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    shutdown: Option<tokio::sync::watch::Sender<bool>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    listener: Option<tokio::task::JoinHandle<()>>,
}

impl Server {
    /// The base URL, e.g. `http://127.0.0.1:8080`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops accepting connections and waits for the server task to end.
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(true);
        }
        if let Some(l) = self.listener.take() {
            l.abort();
        }
        let _ = tokio::time::timeout(Duration::from_secs(10), &mut self.task).await;
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
    let store = db::Store::open(&config.database_url).await?;
    let tcp = TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let addr = tcp.local_addr().map_err(|e| e.to_string())?;
    let app = Arc::new(App {
        store,
        events: events::Hub::new(),
        ai: ai::Runner::new(config.ai_workers),
        limiter: ratelimit::Limiter::new(config.rate_burst, config.rate_per_second),
        searches: search::Searches::new(),
        config,
        locks: Default::default(),
    });
    // PostgreSQL: listen before serving, so that no event is missed.
    let listener = if app.store.is_postgres() {
        let mut l = sqlx::postgres::PgListener::connect(app.store.url())
            .await
            .map_err(|e| format!("cannot listen for events: {e}"))?;
        l.listen(events::CHANNEL)
            .await
            .map_err(|e| format!("cannot listen for events: {e}"))?;
        Some(tokio::spawn(listen(app.clone(), l)))
    } else {
        None
    };
    // A pending AI turn resumes after a restart.
    let pending = app.store.open_games().await.map_err(|e| e.reason)?;
    for id in pending {
        ai::kick(&app, &id);
    }
    let router = api::router(app.clone())
        .layer(axum::middleware::from_fn_with_state(guard::Guard::new(), guard::check))
        .layer(axum::Extension(ws::Sockets::new(app.config.ws.clone())));
    let fds = edge::raise_fd_limit();
    let limits = app.config.limits.clone();
    let total = edge::cap_for_fds(limits.connections, fds);
    if total < limits.connections {
        eprintln!(
            "rumis server: at most {total} connections (the open-file limit is {})",
            fds.unwrap_or(0)
        );
    }
    let edge = Arc::new(edge::Edge {
        conns: edge::Conns::new(limits.connections_per_address, total),
        limits,
        body_limit: app.config.body_limit,
    });
    let (tx, rx) = tokio::sync::watch::channel(false);
    let task = tokio::spawn(edge::serve(tcp, router, edge, rx));
    Ok(Server {
        addr,
        shutdown: Some(tx),
        task,
        listener,
    })
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
                eprintln!("rumis server: event listener: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// `rumis serve`: runs a server until interrupted, printing the URL to open.
pub fn serve_blocking(config: Config) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async move {
        let db = db::redact(&config.database_url);
        let web = match &config.web_dir {
            Some(dir) => format!("web app {}", dir.display()),
            None => "web app not built".to_string(),
        };
        let server = start(config).await?;
        println!(
            "rumis server on {}/ (API {}/api/v1, database {db}, {web})",
            server.url(),
            server.url()
        );
        tokio::select! {
            r = server.wait() => r.map_err(|e| format!("server failed: {e}")),
            _ = tokio::signal::ctrl_c() => {
                eprintln!("rumis server: interrupted, stopping");
                Ok(())
            }
        }
    })
}
