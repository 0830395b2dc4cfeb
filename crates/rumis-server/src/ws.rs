//! The WebSocket of a game's events (`GET /api/v1/games/{id}/events`), kept cheap and
//! bounded: at most so many sockets per client address and per game (429 beyond), small
//! read and write buffers, a ping every so often and the socket dropped when no answer
//! comes, and a client too slow to take its events dropped rather than buffered for.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Extension;
use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;

use crate::edge::ClientIp;
use crate::error::ApiError;
use crate::wire::{GameEvent, Snapshot};
use crate::{events, view, App};

/// The limits of the sockets (`rumis serve` options).
#[derive(Clone, Debug)]
pub struct WsLimits {
    /// Open sockets from one client address.
    pub per_address: usize,
    /// Open sockets on one game.
    pub per_game: usize,
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
            ping_every: Duration::from_secs(30),
            pong_timeout: Duration::from_secs(15),
            send_timeout: Duration::from_secs(10),
        }
    }
}

/// Buffers of one socket: events are small (a move is ~300 bytes; a snapshot a few KB).
const READ_BUFFER: usize = 4 * 1024;
const WRITE_BUFFER: usize = 8 * 1024;
/// What may wait to be written before the socket is dropped (a snapshot fits).
const MAX_WRITE_BUFFER: usize = 256 * 1024;
/// A client has nothing to say but pongs and close frames.
const MAX_MESSAGE: usize = 4096;

/// The open sockets, by address and by game.
pub struct Sockets {
    pub limits: WsLimits,
    open: Mutex<(HashMap<IpAddr, usize>, HashMap<String, usize>)>,
}

impl Sockets {
    pub fn new(limits: WsLimits) -> Arc<Sockets> {
        Arc::new(Sockets {
            limits,
            open: Mutex::new(Default::default()),
        })
    }

    pub(crate) fn admit(self: &Arc<Sockets>, ip: IpAddr, game: &str) -> Result<Place, ApiError> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let mine = open.0.get(&ip).copied().unwrap_or(0);
        let on_game = open.1.get(game).copied().unwrap_or(0);
        let refuse =
            |what: String| ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too_many_sockets", what).retry_after(30);
        if mine >= self.limits.per_address {
            return Err(refuse(format!(
                "this address has {mine} event sockets open, the most allowed"
            )));
        }
        if on_game >= self.limits.per_game {
            return Err(refuse(format!(
                "this game has {on_game} event sockets open, the most allowed"
            )));
        }
        *open.0.entry(ip).or_insert(0) += 1;
        *open.1.entry(game.to_string()).or_insert(0) += 1;
        Ok(Place {
            sockets: self.clone(),
            ip,
            game: game.to_string(),
        })
    }
}

/// A socket's place under the caps, given back when it ends.
pub(crate) struct Place {
    sockets: Arc<Sockets>,
    ip: IpAddr,
    game: String,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut open = self.sockets.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.0.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.0.remove(&self.ip);
            }
        }
        if let Some(n) = open.1.get_mut(&self.game) {
            *n -= 1;
            if *n == 0 {
                open.1.remove(&self.game);
            }
        }
        // Shrink the maps after a flood, so that their memory is given back too.
        if open.0.capacity() > 64 && open.0.len() < open.0.capacity() / 4 {
            open.0.shrink_to_fit();
        }
        if open.1.capacity() > 64 && open.1.len() < open.1.capacity() / 4 {
            open.1.shrink_to_fit();
        }
    }
}

pub(crate) async fn events(
    State(app): State<Arc<App>>,
    Extension(sockets): Extension<Arc<Sockets>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    client: Option<Extension<ClientIp>>,
    Path(id): Path<String>,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    crate::api::check_id(&id)?;
    let ws = ws.map_err(|e| {
        ApiError::bad_request(
            "not_websocket",
            format!("this endpoint is a WebSocket: {}", e.body_text()),
        )
    })?;
    let ip = client.map_or(peer.ip(), |Extension(c)| c.0);
    let place = sockets.admit(ip, &id)?;
    // Subscribe before reading the snapshot, so that no event falls between them.
    let rx = app.events.subscribe(&id);
    let loaded = app.games.load(&id).await?;
    let count = loaded.game.moves().len() as i64;
    let snapshot = snapshot_of(&loaded);
    drop(loaded);
    let limits = sockets.limits.clone();
    Ok(ws
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(MAX_WRITE_BUFFER)
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| async move {
            session(app, socket, id, rx, snapshot, count, limits).await;
            drop(place);
        }))
}

/// Sends a snapshot, then every event of the game, until the client goes, stops
/// answering pings or cannot keep up.
async fn session(
    app: Arc<App>,
    mut socket: WebSocket,
    id: String,
    mut rx: events::Receiver,
    snapshot: Snapshot,
    mut count: i64,
    limits: WsLimits,
) {
    let send_timeout = limits.send_timeout;
    async fn send_within<T: Serialize>(socket: &mut WebSocket, v: &T, within: Duration) -> bool {
        let Ok(text) = serde_json::to_string(v) else {
            return false;
        };
        matches!(
            tokio::time::timeout(within, socket.send(Message::Text(text.into()))).await,
            Ok(Ok(()))
        )
    }
    macro_rules! send {
        ($v:expr) => {
            send_within(&mut socket, $v, send_timeout).await
        };
    }
    if !send!(&snapshot) {
        return;
    }
    drop(snapshot);
    let mut ping = tokio::time::interval(limits.ping_every);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ping.tick().await;
    // When the last ping unanswered was sent.
    let mut waiting: Option<tokio::time::Instant> = None;
    loop {
        let pong_deadline = waiting.map(|t| t + limits.pong_timeout);
        tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                // Anything from the client shows it is there; pings are answered by the library.
                Some(Ok(_)) => waiting = None,
            },
            _ = ping.tick() => {
                let sent = tokio::time::timeout(send_timeout, socket.send(Message::Ping(Default::default()))).await;
                if !matches!(sent, Ok(Ok(()))) {
                    return;
                }
                waiting.get_or_insert_with(tokio::time::Instant::now);
            }
            _ = sleep_until_some(pong_deadline) => return, // no pong: gone
            event = rx.recv() => match event {
                Ok(e) if e.game == events::ALL || e.body.is_none() => {
                    // Events may have been lost (a listener reconnected): a fresh snapshot.
                    let Some(v) = fresh_snapshot(&app, &id, &mut count).await else { return };
                    if !send!(&v) {
                        return;
                    }
                }
                Ok(e) => {
                    let Some(body) = &e.body else { continue };
                    if e.game != id || e.after_move.is_some_and(|n| n <= count) {
                        continue;
                    }
                    // `count` is what the last snapshot held; moves taken back are no
                    // longer in it.
                    if let GameEvent::Undo { move_number, .. } = body {
                        count = count.min(move_number - 1);
                    }
                    if !send!(body) {
                        return;
                    }
                }
                Err(RecvError::Lagged(_)) => {
                    // Too slow to keep up: a fresh snapshot instead of the missed events.
                    let Some(v) = fresh_snapshot(&app, &id, &mut count).await else { return };
                    if !send!(&v) {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            },
        }
    }
}

async fn sleep_until_some(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

fn snapshot_of(loaded: &crate::service::Loaded) -> Snapshot {
    Snapshot::Snapshot {
        state: Box::new(view::state(loaded, None)),
    }
}

async fn fresh_snapshot(app: &App, id: &str, count: &mut i64) -> Option<Snapshot> {
    let loaded = app.games.load(id).await.ok()?;
    *count = loaded.game.moves().len() as i64;
    Some(snapshot_of(&loaded))
}
