//! How a server runs: its [`Config`], from `rumis serve`'s options and file, or a test's.

use std::net::SocketAddr;
use std::time::Duration;

use crate::time::Time;
use crate::{edge, service, webapp, ws};

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
    /// Player keys one client address may make per hour (all of them at once, then one
    /// every `3600 / n` seconds): keys are free, and a burst of them from one address is
    /// how puppets to farm a rating are made.
    pub keys_per_hour: f64,
    /// How many AI searches — AI seats' moves, hints and analyses, in one line with shares
    /// per address (`queue.rs`) — may be computed at once (0: AI seats wait, e.g. for
    /// maintenance, and hints and analyses get 2).
    pub ai_workers: usize,
    /// How much lower the AI searches' CPU priority is (a nice value added, 0 to 19).
    pub search_nice: i32,
    /// Largest number of games listed by `GET /api/v1/games`.
    pub list_limit: i64,
    /// The built web app (`web/dist`), served at `/`, before the one built in.
    pub web_dir: Option<std::path::PathBuf>,
    /// The web app built into the binary (`embed-web`), served at `/` when `web_dir` is
    /// `None`; without either, `/` says how to build it (webapp.rs).
    pub embedded_web: Option<webapp::Embedded>,
    /// Open games without a human seat, per creating address and in all.
    pub ai_only_per_creator: i64,
    pub ai_only_total: i64,
    /// The longest an AI searches for one move (level 9 searches 4.5 s).
    pub ai_move_cap: Duration,
    /// Unfinished games without a move for this long are marked abandoned (`None`: never).
    pub game_ttl: Option<Duration>,
    /// The lease an instance holds on an AI turn it computes, renewed every `ai_heartbeat`
    /// (which must be shorter): when it expires, or when an AI turn waited this long with
    /// no lease, another instance of the same database takes the turn over
    /// (service/ai_turns.rs).
    pub ai_lease: Duration,
    pub ai_heartbeat: Duration,
    /// How many games with an AI seat to move a start resumes at once (the rest when the
    /// server is restarted again; each is a row read, not a game replayed).
    pub resume_limit: i64,
    /// Timeouts, connection caps and the trusted proxy (see [`edge`]).
    pub limits: edge::Limits,
    /// Caps and pings of the event WebSockets (see [`ws`]).
    pub ws: ws::WsLimits,
    /// How often the timeout task looks for clocks that ran out (a timeout fires at most
    /// this late, plus its write).
    pub clock_poll: Duration,
    /// How often the lobby's due work is looked for: quick play's AI fill, ratings
    /// (`None`: never, e.g. for a read-only instance).
    pub lobby_tick: Option<Duration>,
    /// A waiting lobby game (seek, quick play, rematch) expires when its creator has not
    /// been seen for this long (no request with their key, no presence ping).
    pub seek_idle: Duration,
    /// `rumis serve` on SIGTERM: how long `/readyz` answers 503 while everything else is
    /// still served, so that a load balancer stops sending here before the stop (a second
    /// signal cuts it short).
    pub drain_delay: Duration,
    /// Where `/metrics` is served instead of `addr` (then only there, and the public
    /// address answers 404 for it); `None`: on `addr` with everything else.
    pub metrics_addr: Option<SocketAddr>,
    /// The time the game clocks, the lobby, the AI turns' leases, idle games and the
    /// WebSockets' pings run on (time.rs): the real clock, or for tests one they move.
    pub time: Time,
    /// Simulations per position of a finished game's review (service/review.rs; level 8's
    /// budget by default).
    pub review_simulations: u64,
}

impl Config {
    pub fn new(addr: SocketAddr, database_url: impl Into<String>) -> Config {
        Config {
            addr,
            database_url: database_url.into(),
            body_limit: 16 * 1024,
            rate_burst: 120.0,
            rate_per_second: 40.0,
            keys_per_hour: 20.0,
            ai_workers: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
            search_nice: crate::search_thread::NICER,
            list_limit: 50,
            web_dir: None,
            embedded_web: webapp::Embedded::built_in(),
            ai_only_per_creator: 2,
            ai_only_total: 8,
            ai_move_cap: Duration::from_secs(5),
            game_ttl: Some(Duration::from_secs(30 * 24 * 3600)),
            resume_limit: 10_000,
            ai_lease: Duration::from_secs(15),
            ai_heartbeat: Duration::from_secs(5),
            limits: edge::Limits::default(),
            ws: ws::WsLimits::default(),
            clock_poll: Duration::from_millis(200),
            lobby_tick: Some(Duration::from_millis(500)),
            seek_idle: service::SEEK_IDLE,
            drain_delay: Duration::from_secs(5),
            metrics_addr: None,
            time: Time::real(),
            review_simulations: service::DEFAULT_SIMULATIONS,
        }
    }
}
