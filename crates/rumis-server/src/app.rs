//! The server's state that every request handler is given ([`App`]), built by the crate
//! root when the server starts.

use std::sync::Arc;

use crate::config::Config;
use crate::{events, lobby_feed, metrics, ratelimit, search, service};

/// Everything a request handler needs.
pub(crate) struct App {
    pub games: Arc<service::Games>,
    pub events: Arc<events::Hub>,
    pub limiter: ratelimit::Limiter,
    /// New player keys, per address (`Config::keys_per_hour`).
    pub key_limiter: ratelimit::Limiter,
    /// Hints and analyses.
    pub searches: search::Searches,
    /// Finished games' reviews.
    pub reviews: Arc<service::Reviews>,
    /// The game's puzzles.
    pub training: Arc<service::Training>,
    /// The lobby rendered once per change for its sockets.
    pub lobby_feed: Arc<lobby_feed::LobbyFeed>,
    pub config: Config,
    pub metrics: metrics::Metrics,
    /// The server is stopping: `/readyz` says so, so that a load balancer sends no more.
    pub draining: std::sync::atomic::AtomicBool,
}
