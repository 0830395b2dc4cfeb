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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
struct NewPlayerRequest {
    /// The player's display name.
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 24))]
    name: String,
}

#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/players",
    summary = "A new player (a display name); the answer holds the player's key, once",
    request_body = NewPlayerRequest,
    responses(
        (status = 201, description = "The player with its key (kept by the client; only its hash is stored)", body = crate::wire::NewPlayer),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 429, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
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

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/players/me",
    summary = "The page of the key's player (to bring a key to another device)",
    security(("playerKey" = [])),
    responses(
        (status = 200, description = "The player's page", body = crate::wire::PlayerPage),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn me(State(app): Shared, Bearer(key): Bearer) -> Result<Json<Value>, ApiError> {
    let p = app.games.player_for_key(key.as_deref()).await?;
    Ok(Json(json!(app.games.player_page(&p.id).await?)))
}

/// The presence ping: the key's player is here (their waiting games do not expire).
#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/players/me/presence",
    summary = "The presence ping: the key's player is here, so their waiting lobby games do not expire",
    security(("playerKey" = [])),
    responses(
        (status = 200, description = "Seen now", body = crate::wire::Presence),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn presence(State(app): Shared, Bearer(key): Bearer) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!(app.games.presence(key.as_deref()).await?)))
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/players/{id}",
    summary = "A player's page - rating, games waiting or in play, games finished, records",
    params(("id" = String, Path, description = "The player's id")),
    responses(
        (status = 200, description = "The player's page", body = crate::wire::PlayerPage),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn player(State(app): Shared, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    if !is_id(&id) {
        return Err(GameError::UnknownPlayer(id).into());
    }
    Ok(Json(json!(app.games.player_page(&id).await?)))
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/lobby",
    summary = "Seeks waiting for players and lobby games in play, newest first",
    responses(
        (status = 200, description = "The lobby", body = crate::wire::Lobby),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn lobby(State(app): Shared) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!(app.games.lobby(app.config.list_limit).await?)))
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/games/{id}/table",
    summary = "Who sits where, rated or not, abort and rematch",
    params(super::described::GamePath),
    responses(
        (status = 200, description = "The table", body = crate::wire::Table),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn table(State(app): Shared, GameId(id): GameId) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!(app.games.table(&id).await?)))
}

#[derive(Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
struct LeaderboardParams {
    /// Players listed (100 by default), clamped to 1..500.
    limit: Option<i64>,
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/ratings",
    summary = "The leaderboard - rated players and the AI levels on one scale",
    params(LeaderboardParams),
    responses(
        (status = 200, description = "The leaderboard", body = crate::wire::Leaderboard),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn leaderboard(State(app): Shared, Params(params): Params<LeaderboardParams>) -> Result<Json<Value>, ApiError> {
    let limit = params.limit.unwrap_or(100).clamp(1, 500);
    Ok(Json(json!(app.games.leaderboard(limit).await?)))
}

#[derive(Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
struct SeekSeat {
    #[cfg_attr(feature = "openapi", schema(value_type = super::described::SeekSeatKind))]
    kind: String,
    /// An AI seat's level.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 9))]
    level: Option<u8>,
}

#[derive(Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
struct SeekRequest {
    #[cfg_attr(feature = "openapi", schema(min_length = 1))]
    board: String,
    #[cfg_attr(feature = "openapi", schema(minimum = 2, maximum = 4))]
    players: usize,
    /// `standard` (the default) or `two-player-four-colors`.
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    colours: Option<Vec<String>>,
    #[serde(default)]
    rated: bool,
    /// One per player: exactly one `me`, at least one `open`.
    seats: Vec<SeekSeat>,
    /// A clock as at game creation (`POST /games`); it starts when the last seat is taken.
    #[serde(default)]
    clock: Option<ClockRequest>,
}

#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/lobby/seeks",
    summary = "Open a seek - a lobby game with your seat and open seats",
    description = "The body is checked before the key: a refused body is answered 400 with or without a key, a good one 401 missing_key without it.",
    security(("playerKey" = []), ()),
    request_body = SeekRequest,
    responses(
        (status = 201, description = "Your seat in the new game", body = crate::wire::Seated),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 429, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
struct QuickRequest {
    /// A scenario's name, or "any" (the default).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(min_length = 1))]
    board: Option<String>,
    /// 2, 3, 4 or "any" (the default).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Value))]
    players: Option<Value>,
    #[serde(default)]
    rated: bool,
    /// The AI's level for the seats it fills (3 by default).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 9))]
    ai_level: Option<u8>,
    /// How long to wait for people before the AI fills the seats (60 by default).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(maximum = 3600))]
    wait_seconds: Option<u64>,
}

#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/lobby/quick",
    summary = "Quick play - a seat in the oldest waiting quick game that fits, else a new one",
    description = "The body is checked before the key: a refused body is answered 400 with or without a key, a good one 401 missing_key without it.",
    security(("playerKey" = []), ()),
    request_body(content = Option<QuickRequest>),
    responses(
        (status = 201, description = "Your seat", body = crate::wire::Seated),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 429, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    #[serde(default)]
    seat: Option<usize>,
}

#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/games/{id}/join",
    summary = "Take a seat of a waiting lobby game (the one asked for, one kept for you, or the first free)",
    params(super::described::GamePath),
    security(("playerKey" = [])),
    request_body(content = Option<JoinRequest>),
    responses(
        (status = 201, description = "Your seat", body = crate::wire::Seated),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
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
#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/games/{id}/abort",
    summary = "Abort a game before its second move (a seated player's key or seat token)",
    params(super::described::GamePath),
    security(("playerKey" = []), ("seatToken" = [])),
    responses(
        (status = 200, description = "Aborted: no result, no rating", body = crate::wire::AbortAck),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn abort(State(app): Shared, GameId(id): GameId, Bearer(key): Bearer) -> Result<Response, ApiError> {
    let token = key.ok_or(GameError::MissingToken)?;
    Ok(Json(app.games.abort(&id, Some(token)).await?).into_response())
}

#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/games/{id}/rematch",
    summary = "Offer (first asker) or accept (the others) the rematch of a finished lobby game",
    params(super::described::GamePath),
    security(("playerKey" = [])),
    responses(
        (status = 201, description = "Your seat in the rematch", body = crate::wire::Seated),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
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
#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/games/{id}/rematch/decline",
    summary = "Decline the rematch offered after a finished lobby game (a player offered a seat in it); it is called off",
    params(super::described::GamePath),
    security(("playerKey" = [])),
    responses(
        (status = 200, description = "The rematch is aborted", body = crate::wire::DeclineAck),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn decline_rematch(State(app): Shared, GameId(id): GameId, Bearer(key): Bearer) -> Result<Response, ApiError> {
    Ok(Json(app.games.decline_rematch(&id, key).await?).into_response())
}

/// The lobby's WebSocket: `{type: "lobby", version, seeks, playing}` at once and after
/// changes (`lobby_feed.rs`: one render shared by every subscriber, changes close together
/// sent as one).
#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/lobby/events",
    summary = "The lobby as a WebSocket - {type: lobby, version, seeks, playing} at once and after changes (coalesced)",
    responses(
        (status = 101, description = "Switching to the WebSocket protocol"),
        (status = 400, response = crate::wire::ErrorBody), (status = 429, response = crate::wire::ErrorBody),
    )))]
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
