//! The WebSocket of a game's events (`GET /api/v1/games/{id}/events`): a snapshot of the
//! game, then its events as they come. Its buffers, pings and caps are `ws.rs`'s: a token
//! (`Authorization: Bearer <token>`, or from a browser the subprotocol
//! `rumis.token.<token>`) that holds a seat of the game makes a seated player's socket, any
//! other a watcher's.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use axum::Extension;
use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;

use crate::error::ApiError;
use crate::extract::{Bearer, Client, GameId};
use crate::game::authorise;
use crate::service::Loaded;
use crate::wire::{GameEvent, Snapshot};
use crate::ws::{bounded, too_big, Kind, Sockets, WsLimits, CLOSE_RESTART, MAX_MESSAGE, PROTOCOL, TOKEN_PROTOCOL};
use crate::{events, view, App};

/// The token a socket's request shows: its bearer, or its `rumis.token.` subprotocol.
fn offered_token(bearer: Option<String>, ws: &WebSocketUpgrade) -> Option<String> {
    bearer.or_else(|| {
        ws.requested_protocols()
            .filter_map(|v| v.to_str().ok())
            .find_map(|p| p.trim().strip_prefix(TOKEN_PROTOCOL).map(String::from))
    })
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/games/{id}/events",
    summary = "WebSocket of the game's events (see docs/server-api.md); a seat's token (bearer, or the subprotocol rumis.token.TOKEN beside rumis) is let in past the watchers' caps",
    description = "Its messages are the schema `Event`: a `Snapshot` first, then `GameEvent`s.",
    params(super::described::GamePath),
    responses(
        (status = 101, description = "Switching to the WebSocket protocol"),
        (status = 400, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 429, response = crate::wire::ErrorBody),
    )))]
pub(crate) async fn events(
    State(app): State<Arc<App>>,
    Extension(sockets): Extension<Arc<Sockets>>,
    Client(ip): Client,
    GameId(id): GameId,
    Bearer(bearer): Bearer,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = ws.map_err(|e| {
        ApiError::bad_request(
            "not_websocket",
            format!("this endpoint is a WebSocket: {}", e.body_text()),
        )
    })?;
    let token = offered_token(bearer, &ws);
    // A watcher is admitted, or refused, before anything is read; a token is checked
    // against the game's seats first.
    let early = match token {
        None => Some(sockets.admit(ip, Kind::Watcher(id.clone()))?),
        Some(_) => None,
    };
    // Subscribe before reading the snapshot, so that no event falls between them.
    let rx = app.events.subscribe(&id);
    let loaded = app.games.load(&id).await?;
    let place = match early {
        Some(place) => place,
        None => match authorise(&loaded, token.as_deref()) {
            Ok(seats) => sockets.admit(ip, Kind::Seated(id.clone(), seats[0]))?,
            Err(_) => sockets.admit(ip, Kind::Watcher(id.clone()))?,
        },
    };
    let count = loaded.game.moves().len() as i64;
    let snapshot = snapshot_of(&loaded, app.games.now_ms());
    drop(loaded);
    let limits = sockets.limits.clone();
    let closed = sockets.closed();
    Ok(bounded(ws.protocols([PROTOCOL])).on_upgrade(move |socket| async move {
        session(app, socket, id, rx, snapshot, count, limits, closed).await;
        drop(place);
    }))
}

/// Sends `v` as a text message within `within`; `false`: the client is gone or too slow.
async fn send_within<T: Serialize>(socket: &mut WebSocket, v: &T, within: Duration) -> bool {
    let Ok(text) = serde_json::to_string(v) else {
        return false;
    };
    matches!(
        tokio::time::timeout(within, socket.send(Message::Text(text.into()))).await,
        Ok(Ok(()))
    )
}

/// Closes the socket with a code and the reason the client is told (a client too slow to
/// take it within `within` is dropped all the same).
async fn close_with(socket: &mut WebSocket, code: u16, reason: String, within: Duration) {
    let close = axum::extract::ws::CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = tokio::time::timeout(within, socket.send(Message::Close(Some(close)))).await;
}

/// Sends a snapshot, then every event of the game, until the client goes, stops
/// answering pings or cannot keep up, or the server stops (`closed`).
#[allow(clippy::too_many_arguments)] // one call, from `events`, which has them all
async fn session(
    app: Arc<App>,
    mut socket: WebSocket,
    id: String,
    mut rx: events::Receiver,
    snapshot: Snapshot,
    mut count: i64,
    limits: WsLimits,
    closed: impl std::future::Future<Output = ()>,
) {
    tokio::pin!(closed);
    let send_timeout = limits.send_timeout;
    macro_rules! send {
        ($v:expr) => {
            send_within(&mut socket, $v, send_timeout).await
        };
    }
    // Pings and their pongs on the server's time (time.rs); the first ping's time is set
    // before the snapshot goes, so that a client that has it can count from there.
    let time = app.games.time().clone();
    let mut ping_at = time.now() + limits.ping_every;
    if !send!(&snapshot) {
        return;
    }
    drop(snapshot);
    // When the last ping unanswered was sent.
    let mut waiting: Option<tokio::time::Instant> = None;
    loop {
        let pong_deadline = waiting.map(|t| t + limits.pong_timeout);
        tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Err(e)) => {
                    // A message over the size allowed: the client hears why, as the
                    // protocol says (1009), rather than a dropped connection.
                    if too_big(e) {
                        let reason = format!("a message is at most {MAX_MESSAGE} bytes");
                        close_with(&mut socket, 1009, reason, send_timeout).await;
                    }
                    return;
                }
                Some(Ok(Message::Close(_))) | None => return,
                // Anything from the client shows it is there; pings are answered by the library.
                Some(Ok(_)) => waiting = None,
            },
            () = time.sleep_until(ping_at) => {
                // Its pong is waited for from before it goes (a client that has it may
                // move the time on at once).
                let sent_at = time.now();
                let sent = tokio::time::timeout(send_timeout, socket.send(Message::Ping(Default::default()))).await;
                if !matches!(sent, Ok(Ok(()))) {
                    return;
                }
                ping_at = time.now() + limits.ping_every;
                waiting.get_or_insert(sent_at);
            }
            () = time.sleep_until_some(pong_deadline) => return, // no pong: gone
            _ = &mut closed => {
                let reason = "the server is restarting; connect again".to_string();
                close_with(&mut socket, CLOSE_RESTART, reason, send_timeout).await;
                return;
            }
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

fn snapshot_of(loaded: &Loaded, now: i64) -> Snapshot {
    Snapshot::Snapshot {
        state: Box::new(view::state(loaded, None, now)),
    }
}

async fn fresh_snapshot(app: &App, id: &str, count: &mut i64) -> Option<Snapshot> {
    let loaded = app.games.load(id).await.ok()?;
    *count = loaded.game.moves().len() as i64;
    Some(snapshot_of(&loaded, app.games.now_ms()))
}
