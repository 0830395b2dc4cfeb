//! The HTTP routes of players, the lobby, abort, rematch and ratings, and the lobby's
//! WebSocket. Handlers extract and answer; the lobby service (`service/lobby.rs`) decides.
//! A player's key comes in `Authorization: Bearer <key>` only, never in a URL or a body,
//! and no answer but the one to `POST /players` holds it.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::games::ClockRequest;
use super::Shared;
use crate::error::{ApiError, GameError};
use crate::extract::{is_id, Bearer, Client, GameId, JsonBody, OptionalBody, Params};
use crate::service::{QuickAsked, SeatAsked, SeekAsked};
use crate::ws::{Kind, Sockets};
use crate::App;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/v1/players", post(new_player))
        .route("/api/v1/players/me", get(me))
        .route("/api/v1/players/me/presence", post(presence))
        .route("/api/v1/players/{id}", get(player))
        .route("/api/v1/lobby", get(lobby))
        .route("/api/v1/lobby/events", get(lobby_events))
        .route("/api/v1/lobby/seeks", post(seek))
        .route("/api/v1/lobby/quick", post(quick))
        .route("/api/v1/games/{id}/table", get(table))
        .route("/api/v1/games/{id}/join", post(join))
        .route("/api/v1/games/{id}/abort", post(abort))
        .route("/api/v1/games/{id}/rematch", post(rematch))
        .route("/api/v1/games/{id}/rematch/decline", post(decline_rematch))
        .route("/api/v1/ratings", get(leaderboard))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPlayerRequest {
    name: String,
}

async fn new_player(
    State(app): Shared,
    Client(ip): Client,
    // Read after the key limit: a refused request is refused whatever its body.
    body: Result<JsonBody<NewPlayerRequest>, ApiError>,
) -> Result<Response, ApiError> {
    if let Err(wait) = app.key_limiter.check(ip) {
        let secs = wait.ceil().max(1.0) as u64;
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_keys",
            format!(
                "this address made {} player keys within the hour; keep the key you have (your player page shows it)",
                app.config.keys_per_hour
            ),
        )
        .retry_after(secs));
    }
    let JsonBody(req) = body?;
    let created = app.games.new_player(&req.name).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

async fn me(State(app): Shared, Bearer(key): Bearer) -> Result<Json<Value>, ApiError> {
    let p = app.games.player_for_key(key.as_deref()).await?;
    Ok(Json(json!(app.games.player_page(&p.id).await?)))
}

/// The presence ping: the key's player is here (their waiting games do not expire).
async fn presence(State(app): Shared, Bearer(key): Bearer) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!(app.games.presence(key.as_deref()).await?)))
}

async fn player(State(app): Shared, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    if !is_id(&id) {
        return Err(GameError::UnknownPlayer(id).into());
    }
    Ok(Json(json!(app.games.player_page(&id).await?)))
}

async fn lobby(State(app): Shared) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!(app.games.lobby(app.config.list_limit).await?)))
}

async fn table(State(app): Shared, GameId(id): GameId) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!(app.games.table(&id).await?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LeaderboardParams {
    limit: Option<i64>,
}

async fn leaderboard(State(app): Shared, Params(params): Params<LeaderboardParams>) -> Result<Json<Value>, ApiError> {
    let limit = params.limit.unwrap_or(100).clamp(1, 500);
    Ok(Json(json!(app.games.leaderboard(limit).await?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeekSeat {
    kind: String,
    level: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeekRequest {
    board: String,
    players: usize,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    colours: Option<Vec<String>>,
    #[serde(default)]
    rated: bool,
    seats: Vec<SeekSeat>,
    /// A clock as at game creation (`POST /games`); it starts when the last seat is taken.
    #[serde(default)]
    clock: Option<ClockRequest>,
}

async fn seek(
    State(app): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Bearer(key): Bearer,
    JsonBody(req): JsonBody<SeekRequest>,
) -> Result<Response, ApiError> {
    let asked = SeekAsked {
        board: req.board,
        players: req.players,
        variant: req.variant,
        colours: req.colours,
        rated: req.rated,
        seats: req
            .seats
            .into_iter()
            .map(|s| SeatAsked {
                kind: s.kind,
                level: s.level,
            })
            .collect(),
        clock: req.clock.map(ClockRequest::asked),
    };
    let seated = app.games.seek(key, asked, &peer.ip().to_string()).await?;
    Ok((StatusCode::CREATED, Json(seated)).into_response())
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct QuickRequest {
    /// A scenario's name, or "any".
    #[serde(default)]
    board: Option<String>,
    /// 2, 3, 4 or "any".
    #[serde(default)]
    players: Option<Value>,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    ai_level: Option<u8>,
    #[serde(default)]
    wait_seconds: Option<u64>,
}

async fn quick(
    State(app): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Bearer(key): Bearer,
    OptionalBody(req): OptionalBody<QuickRequest>,
) -> Result<Response, ApiError> {
    let asked = QuickAsked {
        board: req.board,
        players: req.players,
        rated: req.rated,
        ai_level: req.ai_level,
        wait_seconds: req.wait_seconds,
    };
    let seated = app.games.quick_play(key, asked, &peer.ip().to_string()).await?;
    Ok((StatusCode::CREATED, Json(seated)).into_response())
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    #[serde(default)]
    seat: Option<usize>,
}

async fn join(
    State(app): Shared,
    Path(id): Path<String>,
    Bearer(key): Bearer,
    // Read after the id is checked: an unknown seek is told before a bad body.
    body: Result<OptionalBody<JoinRequest>, ApiError>,
) -> Result<Response, ApiError> {
    if !is_id(&id) {
        return Err(GameError::UnknownSeek(id).into());
    }
    let OptionalBody(req) = body?;
    let seated = app.games.join(&id, key, req.seat).await?;
    Ok((StatusCode::CREATED, Json(seated)).into_response())
}

/// Abort takes a player's key or a guest's seat token, both as the bearer.
async fn abort(State(app): Shared, GameId(id): GameId, Bearer(key): Bearer) -> Result<Response, ApiError> {
    let token = key.ok_or(GameError::MissingToken)?;
    Ok(Json(app.games.abort(&id, Some(token)).await?).into_response())
}

async fn rematch(
    State(app): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    GameId(id): GameId,
    Bearer(key): Bearer,
) -> Result<Response, ApiError> {
    let seated = app.games.rematch(&id, key, &peer.ip().to_string()).await?;
    Ok((StatusCode::CREATED, Json(seated)).into_response())
}

/// Declines the rematch offered after game `id` (by the player's key).
async fn decline_rematch(State(app): Shared, GameId(id): GameId, Bearer(key): Bearer) -> Result<Response, ApiError> {
    Ok(Json(app.games.decline_rematch(&id, key).await?).into_response())
}

/// The lobby's WebSocket: `{type: "lobby", version, seeks, playing}` at once and after
/// changes (`lobby_feed.rs`: one render shared by every subscriber, changes close together
/// sent as one).
async fn lobby_events(
    State(app): Shared,
    Extension(sockets): Extension<Arc<Sockets>>,
    Client(ip): Client,
    mut req: axum::extract::Request,
) -> Result<Response, ApiError> {
    let accept = crate::lobby_feed::accept_key(req.headers())
        .map_err(|e| ApiError::bad_request("not_websocket", format!("this endpoint is a WebSocket: {e}")))?;
    let place = sockets.admit(ip, Kind::Lobby)?;
    let upgrade = hyper::upgrade::on(&mut req);
    let feed = app.lobby_feed.subscribe();
    let limits = sockets.limits.clone();
    let closed = sockets.closed();
    let time = app.games.time().clone();
    tokio::spawn(async move {
        if let Ok(upgraded) = upgrade.await {
            crate::lobby_feed::session(hyper_util::rt::TokioIo::new(upgraded), feed, limits, time, closed).await;
        }
        drop(place);
    });
    Ok(crate::lobby_feed::switching(&accept))
}

/// The lobby as its socket's message (the feed's render): `{type: "lobby", version, …}`.
pub(crate) async fn lobby_message(app: &App, version: u64) -> Option<String> {
    let lobby = app.games.lobby(app.config.list_limit).await.ok()?;
    let mut v = json!(lobby);
    v["type"] = json!("lobby");
    v["version"] = json!(version);
    Some(v.to_string())
}
