//! The event WebSockets' bounds and caps (a game's events, `routes/game_events.rs`; the
//! lobby's, `lobby_feed.rs`), kept cheap and bounded: small read and write buffers, a ping
//! every so often and the socket dropped when no answer comes, and a client too slow to
//! take its events dropped rather than buffered for. The caps (429 beyond) keep strangers from locking the players out:
//! - a **watcher** (a socket without a seat's token) counts against its address's cap, its
//!   game's cap and the server's cap on all watchers, which is kept below the connection
//!   cap, so that watchers cannot take every place;
//! - a **seated player** (a socket that shows a token holding a seat of the game) meets
//!   none of those: only a cap on the sockets of one seat;
//! - **lobby** sockets (`lobby_feed.rs`) have their own caps, per address and in total,
//!   that no game socket counts against.
//!
//! A token comes as `Authorization: Bearer <token>` or, from a browser (which cannot set
//! headers on a WebSocket), as the subprotocol `rumis.token.<token>` beside `rumis` (which
//! the server then selects) — never in the URL. A token that holds no seat makes a watcher.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::WebSocketUpgrade;
use axum::http::StatusCode;

use crate::error::ApiError;

/// The limits of the sockets (`rumis serve` options, and fixed caps).
#[derive(Clone, Debug)]
pub struct WsLimits {
    /// Open watcher sockets (game sockets without a seat) from one client address.
    pub per_address: usize,
    /// Open watcher sockets on one game.
    pub per_game: usize,
    /// Open watcher sockets in all; lowered at start to [`WATCHERS_SHARE`] of the
    /// connection cap.
    pub watchers: usize,
    /// Open sockets of one seat (a seat's token or its player's key) on its game.
    pub per_seat: usize,
    /// Open lobby sockets from one client address.
    pub lobby_per_address: usize,
    /// Open lobby sockets in all; lowered at start to [`LOBBY_SHARE`] of the connection cap.
    pub lobby: usize,
    /// How often the server pings a socket.
    pub ping_every: Duration,
    /// How long a ping waits for its pong (or any message) before the socket is dropped.
    pub pong_timeout: Duration,
    /// How long one event may take to go out before the client is dropped as too slow.
    pub send_timeout: Duration,
}

impl Default for WsLimits {
    fn default() -> WsLimits {
        WsLimits {
            per_address: 64,
            per_game: 1024,
            watchers: 8192,
            per_seat: 8,
            lobby_per_address: 32,
            lobby: 4096,
            ping_every: Duration::from_secs(30),
            pong_timeout: Duration::from_secs(15),
            send_timeout: Duration::from_secs(10),
        }
    }
}

/// The shares of the connection cap that watchers and lobby sockets may hold at most (in
/// eighths): the rest, at least an eighth, stays for seated players and plain requests.
pub const WATCHERS_SHARE: (usize, usize) = (5, 8);
pub const LOBBY_SHARE: (usize, usize) = (2, 8);

impl WsLimits {
    /// The caps in all lowered to their shares of `connections` (the connection cap in
    /// force).
    pub fn within(mut self, connections: usize) -> WsLimits {
        let share = |(n, d): (usize, usize)| (connections * n / d).max(1);
        self.watchers = self.watchers.min(share(WATCHERS_SHARE));
        self.lobby = self.lobby.min(share(LOBBY_SHARE));
        self
    }
}

/// Buffers of one socket: events are small (a move is ~300 bytes; a snapshot a few KB).
const READ_BUFFER: usize = 4 * 1024;
const WRITE_BUFFER: usize = 8 * 1024;
/// What may wait to be written before the socket is dropped (a snapshot fits, and the
/// lobby's list).
const MAX_WRITE_BUFFER: usize = 256 * 1024;
/// A client has nothing to say but pongs and close frames.
pub(crate) const MAX_MESSAGE: usize = 4096;

/// Whether a socket's read failed on a message or frame over [`MAX_MESSAGE`].
pub(crate) fn too_big(e: axum::Error) -> bool {
    e.into_inner()
        .downcast_ref::<tungstenite::Error>()
        .is_some_and(|e| matches!(e, tungstenite::Error::Capacity(_)))
}

/// A socket's upgrade with the buffers and limits above (game and lobby sockets alike).
pub(crate) fn bounded(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(MAX_WRITE_BUFFER)
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
}

/// The subprotocol a browser offers beside its token's, selected by the server.
pub const PROTOCOL: &str = "rumis";
/// The prefix of the subprotocol that carries a token.
pub const TOKEN_PROTOCOL: &str = "rumis.token.";

/// What a socket is, for the caps.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// A game's socket without a seat.
    Watcher(String),
    /// A game's socket with the token of a seat (its number).
    Seated(String, usize),
    Lobby,
}

/// The open sockets, by kind.
#[derive(Default)]
struct Open {
    watchers_by_address: HashMap<IpAddr, usize>,
    watchers_by_game: HashMap<String, usize>,
    watchers: usize,
    by_seat: HashMap<(String, usize), usize>,
    lobby_by_address: HashMap<IpAddr, usize>,
    lobby: usize,
}

fn add<K: std::hash::Hash + Eq>(map: &mut HashMap<K, usize>, key: K) {
    *map.entry(key).or_insert(0) += 1;
}

/// Takes one off `key`'s count, forgets a count that falls to 0, and shrinks the map after
/// a flood, so that its memory is given back too.
fn take<K: std::hash::Hash + Eq>(map: &mut HashMap<K, usize>, key: &K) {
    if let Some(n) = map.get_mut(key) {
        *n -= 1;
        if *n == 0 {
            map.remove(key);
        }
    }
    if map.capacity() > 64 && map.len() < map.capacity() / 4 {
        map.shrink_to_fit();
    }
}

/// The close code of the sockets a stopping server closes (RFC 6455's registry: 1012,
/// "service restart"): the web app reconnects soon, to whichever instance answers then.
pub const CLOSE_RESTART: u16 = 1012;

/// The open sockets, by address, game and seat.
pub struct Sockets {
    pub limits: WsLimits,
    open: Mutex<Open>,
    /// Turns true when the server stops: every socket closes with [`CLOSE_RESTART`].
    closing: tokio::sync::watch::Sender<bool>,
}

impl Sockets {
    pub fn new(limits: WsLimits) -> Arc<Sockets> {
        Arc::new(Sockets {
            limits,
            open: Mutex::new(Open::default()),
            closing: tokio::sync::watch::channel(false).0,
        })
    }

    /// Closes every socket, now and as each new one opens (the server is stopping).
    pub fn close_all(&self) {
        self.closing.send_replace(true);
    }

    /// Resolves once [`Sockets::close_all`] was called.
    pub(crate) fn closed(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut rx = self.closing.subscribe();
        async move {
            let _ = rx.wait_for(|c| *c).await;
        }
    }

    /// Sockets open now: (game sockets, lobby sockets).
    pub fn open_counts(&self) -> (usize, usize) {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        (open.watchers + open.by_seat.values().sum::<usize>(), open.lobby)
    }

    /// A place for a socket of this kind from `ip`, or 429 over a cap.
    pub(crate) fn admit(self: &Arc<Sockets>, ip: IpAddr, kind: Kind) -> Result<Place, ApiError> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let l = &self.limits;
        let refuse =
            |what: String| Err(ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too_many_sockets", what).retry_after(30));
        match &kind {
            Kind::Watcher(game) => {
                let mine = open.watchers_by_address.get(&ip).copied().unwrap_or(0);
                let on_game = open.watchers_by_game.get(game).copied().unwrap_or(0);
                if mine >= l.per_address {
                    return refuse(format!(
                        "this address has {mine} event sockets open without a seat, the most allowed"
                    ));
                }
                if on_game >= l.per_game {
                    return refuse(format!(
                        "this game has {on_game} event sockets open without a seat, the most allowed"
                    ));
                }
                if open.watchers >= l.watchers {
                    return refuse("the server has as many event sockets without a seat open as it allows".into());
                }
                add(&mut open.watchers_by_address, ip);
                add(&mut open.watchers_by_game, game.clone());
                open.watchers += 1;
            }
            Kind::Seated(game, seat) => {
                let key = (game.clone(), *seat);
                let n = open.by_seat.get(&key).copied().unwrap_or(0);
                if n >= l.per_seat {
                    return refuse(format!("this seat has {n} event sockets open, the most allowed"));
                }
                add(&mut open.by_seat, key);
            }
            Kind::Lobby => {
                let mine = open.lobby_by_address.get(&ip).copied().unwrap_or(0);
                if mine >= l.lobby_per_address {
                    return refuse(format!("this address has {mine} lobby sockets open, the most allowed"));
                }
                if open.lobby >= l.lobby {
                    return refuse("the server has as many lobby sockets open as it allows".into());
                }
                add(&mut open.lobby_by_address, ip);
                open.lobby += 1;
            }
        }
        Ok(Place {
            sockets: self.clone(),
            ip,
            kind,
        })
    }
}

/// A socket's place under the caps, given back when it ends.
pub(crate) struct Place {
    sockets: Arc<Sockets>,
    ip: IpAddr,
    kind: Kind,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut open = self.sockets.open.lock().unwrap_or_else(|e| e.into_inner());
        let open = &mut *open;
        match &self.kind {
            Kind::Watcher(game) => {
                take(&mut open.watchers_by_address, &self.ip);
                take(&mut open.watchers_by_game, game);
                open.watchers -= 1;
            }
            Kind::Seated(game, seat) => take(&mut open.by_seat, &(game.clone(), *seat)),
            Kind::Lobby => {
                take(&mut open.lobby_by_address, &self.ip);
                open.lobby -= 1;
            }
        }
    }
}

pub(crate) async fn sleep_until_some(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}
