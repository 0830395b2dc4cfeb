//! The HTTP routes (`/api/v1/...`) and the WebSocket of a game's events.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use rumis_core::{record, Board, Stone, Variant};
use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::error::{printable, ApiError};
use crate::service::{self, Actor, NewSeat};
use crate::store::SeatKind;
use crate::{ai, search, view, wire, App};

type Shared = State<Arc<App>>;

pub fn router(app: Arc<App>) -> Router {
    let limit = app.config.body_limit;
    Router::new()
        .route("/api/v1", get(index))
        .route("/api/v1/boards", get(boards))
        .merge(crate::boards::routes())
        .merge(crate::routes::lobby::routes())
        .merge(crate::routes::ops::routes())
        .route("/api/v1/stones", get(stones))
        .route(
            "/api/v1/games",
            post(create_game)
                .layer(DefaultBodyLimit::max(limit.max(crate::boards::BOARD_BODY_LIMIT)))
                .get(list_games),
        )
        .route("/api/v1/games/{id}", get(get_game).delete(delete_game))
        .route("/api/v1/games/{id}/moves", post(submit_move))
        .route("/api/v1/games/{id}/undo", post(undo))
        .route("/api/v1/games/{id}/resign", post(resign))
        .route("/api/v1/games/{id}/leave", post(leave))
        .route("/api/v1/games/{id}/placements", get(get_placements))
        .route("/api/v1/games/{id}/hint", post(hint))
        .route("/api/v1/games/{id}/analysis", get(analysis))
        .route("/api/v1/lessons", get(crate::lessons::handler))
        .route("/api/v1/puzzles/cube", post(puzzle_cube))
        .route("/api/v1/puzzles/{name}", get(puzzle_solution))
        .route("/api/v1/games/{id}/record", get(get_record))
        .route("/api/v1/games/{id}/events", get(crate::ws::events))
        // Every route above notes its template for the metrics (metrics.rs).
        .route_layer(middleware::from_fn(crate::metrics::mark_route))
        .fallback(web)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(limit))
        .layer(middleware::from_fn_with_state(app.clone(), rate_limit))
        .with_state(app)
}

async fn rate_limit(
    State(app): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    req: Request,
    next: Next,
) -> Response {
    // Behind `--trusted-proxy`, the client that proxy speaks for (see edge.rs).
    let client = req
        .extensions()
        .get::<crate::edge::ClientIp>()
        .map_or(peer.ip(), |c| c.0);
    match app.limiter.check(client) {
        Ok(()) => next.run(req).await,
        Err(wait) => {
            let secs = wait.ceil().max(1.0) as u64;
            let mut r = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                "too many requests from this address; slow down",
            )
            .retry_after(secs)
            .into_response();
            r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
            r
        }
    }
}

/// Everything that is not an API route: the web app's files (GET and HEAD, webapp.rs); under
/// `/api/` and for other methods, the JSON 404.
async fn web(State(app): Shared, req: Request) -> Response {
    let path = req.uri().path();
    let api = path == "/api" || path.starts_with("/api/");
    let read = req.method() == axum::http::Method::GET || req.method() == axum::http::Method::HEAD;
    if api || !read {
        return not_found().await.into_response();
    }
    use crate::webapp::Answer;
    match crate::webapp::serve(app.config.web_dir.as_deref(), app.config.embedded_web, req).await {
        Answer::Page(r) => r,
        Answer::Outside => not_found().await.into_response(),
        Answer::Failed(e) => ApiError::internal(format!("cannot read the web app: {e}")).into_response(),
    }
}

async fn index() -> Json<wire::Index> {
    Json(wire::Index {
        name: "rumis".into(),
        api: 1,
        endpoints: [
            "GET /api/v1/boards",
            "POST /api/v1/boards/check",
            "GET /api/v1/boards/{name}/toml",
            "GET /api/v1/stones",
            "POST /api/v1/games",
            "GET /api/v1/games?status=open|finished&limit=N",
            "GET /api/v1/games/{id}?at=N",
            "DELETE /api/v1/games/{id}",
            "POST /api/v1/games/{id}/moves",
            "POST /api/v1/games/{id}/undo",
            "POST /api/v1/games/{id}/resign",
            "POST /api/v1/games/{id}/leave",
            "GET /api/v1/games/{id}/placements?at=N",
            "POST /api/v1/games/{id}/hint",
            "GET /api/v1/games/{id}/analysis",
            "POST /api/v1/puzzles/cube",
            "GET /api/v1/puzzles/{name}",
            "GET /api/v1/games/{id}/record",
            "GET /api/v1/games/{id}/events (WebSocket)",
            "POST /api/v1/players",
            "GET /api/v1/players/me",
            "GET /api/v1/players/{id}",
            "GET /api/v1/lobby",
            "GET /api/v1/lobby/events (WebSocket)",
            "POST /api/v1/lobby/seeks",
            "POST /api/v1/lobby/quick",
            "GET /api/v1/games/{id}/table",
            "POST /api/v1/games/{id}/join",
            "POST /api/v1/games/{id}/abort",
            "POST /api/v1/games/{id}/rematch",
            "GET /api/v1/ratings",
        ]
        .map(String::from)
        .to_vec(),
    })
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such endpoint; see /api/v1")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this endpoint does not take that method",
    )
}

async fn boards() -> Json<wire::Boards> {
    let boards = Board::builtins().iter().map(rumis_wire::boards::board_info).collect();
    Json(wire::Boards { boards })
}

/// The eleven stones in the core's order: each orientation's cells and where a quarter
/// turn about x, y or z takes it.
async fn stones() -> Json<wire::Stones> {
    Json(wire::Stones {
        stones: Stone::ALL.iter().map(|&s| rumis_wire::boards::stone_info(s)).collect(),
    })
}

/// A JSON body: 413 when too large, 400 when not the expected JSON (every handler that
/// takes a body reads it here).
pub(crate) fn parse_body<T: DeserializeOwned>(
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<T, ApiError> {
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "body_too_large",
                "the request body is too large",
            )
        } else {
            ApiError::bad_request("bad_body", format!("cannot read the request body: {}", e.body_text()))
        }
    })?;
    // serde reads a struct from an array too ([placement, number]); only objects are asked for.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::bad_request(
            "bad_json",
            "the body must be a JSON object ({...})",
        ));
    }
    serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request("bad_json", format!("the body is not the JSON expected: {e}")))
}

/// Game ids are 16 hex digits; anything else is unknown without asking the database.
pub(crate) fn check_id(id: &str) -> Result<(), ApiError> {
    if id.len() == 16 && id.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()) {
        Ok(())
    } else {
        Err(ApiError::not_found(id))
    }
}

fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim().to_string())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatRequest {
    kind: String,
    level: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    /// A scenario by name; or, with `board_file`, nothing or that board's own name.
    #[serde(default)]
    board: Option<String>,
    /// A board of one's own: the text of its file (rules §3), at most 16 KB.
    #[serde(default)]
    board_file: Option<String>,
    /// `out` (the rulebooks, the default) or `pass` (the house rule of rules §6).
    #[serde(default)]
    stuck_rule: Option<String>,
    players: usize,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    colours: Option<Vec<String>>,
    #[serde(default)]
    ruins_seed: Option<u64>,
    #[serde(default)]
    hot_seat: bool,
    #[serde(default)]
    seats: Option<Vec<SeatRequest>>,
    #[serde(default)]
    clock: Option<ClockRequest>,
}

/// A clock asked for at creation (checked by the service: `clock::Rule::from_asked`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClockRequest {
    kind: String,
    #[serde(default)]
    minutes: Option<f64>,
    #[serde(default)]
    increment_seconds: Option<f64>,
    #[serde(default)]
    days: Option<i64>,
    #[serde(default)]
    on_timeout: Option<String>,
    #[serde(default)]
    ai_level: Option<i64>,
}

impl ClockRequest {
    /// The clock asked for, checked (`clock::Rule::from_asked`): used by game creation.
    pub(crate) fn rule(self) -> Result<crate::clock::Rule, crate::error::GameError> {
        crate::clock::Rule::from_asked(&self.asked())
    }

    /// The clock as asked for, unchecked (the lobby's service checks it).
    pub(crate) fn asked(self) -> crate::clock::Asked {
        crate::clock::Asked {
            kind: self.kind,
            minutes: self.minutes,
            increment_seconds: self.increment_seconds,
            days: self.days,
            on_timeout: self.on_timeout,
            ai_level: self.ai_level,
        }
    }
}

async fn create_game(
    State(app): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    client: Option<axum::Extension<crate::edge::ClientIp>>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Response, ApiError> {
    // The creator is the client (behind `--trusted-proxy`, the one the proxy speaks for),
    // as for the rate limit: else every user of a proxy would share one AI-only cap.
    let creator = client.map_or(peer.ip(), |axum::Extension(c)| c.0);
    let req: CreateRequest = parse_body(body)?;
    if let Some(text) = &req.board_file {
        crate::boards::check_size(text)?;
    }
    // The service checks the setup by the core and places a Ruinas game's ruins.
    let setup = service::new_setup(&service::AskedSetup {
        board: req.board.as_deref(),
        board_file: req.board_file.as_deref(),
        players: req.players,
        variant: req.variant.as_deref(),
        colours: req.colours.as_deref(),
        ruins_seed: req.ruins_seed,
        stuck_rule: req.stuck_rule.as_deref(),
        hot_seat: req.hot_seat,
    })?;
    let player_count = if setup.variant == Variant::TwoPlayerFourColors {
        2
    } else {
        setup.players
    };
    let seats: Vec<NewSeat> = match req.seats {
        None => (0..player_count)
            .map(|_| NewSeat {
                kind: SeatKind::Human,
                level: 0,
            })
            .collect(),
        Some(list) => list
            .iter()
            .map(|s| match (s.kind.as_str(), s.level) {
                ("human", None) => Ok(NewSeat {
                    kind: SeatKind::Human,
                    level: 0,
                }),
                ("ai", Some(l)) if (1..=9).contains(&l) => Ok(NewSeat {
                    kind: SeatKind::Ai,
                    level: l,
                }),
                ("ai", _) => Err(ApiError::bad_request(
                    "bad_setup",
                    "an AI seat needs a level from 1 to 9",
                )),
                ("human", Some(_)) => Err(ApiError::bad_request("bad_setup", "a human seat has no level")),
                (k, _) => Err(ApiError::bad_request(
                    "bad_setup",
                    format!("a seat is \"human\" or \"ai\", not '{}'", printable(k)),
                )),
            })
            .collect::<Result<_, _>>()?,
    };
    let clock = req.clock.map(ClockRequest::rule).transpose()?;
    let created = app
        .games
        .create_timed(setup, seats, &creator.to_string(), clock)
        .await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListParams {
    status: Option<String>,
    limit: Option<i64>,
}

async fn list_games(
    State(app): Shared,
    params: Result<Query<ListParams>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<wire::GameList>, ApiError> {
    let Query(params) = params.map_err(|e| ApiError::bad_request("bad_query", e.body_text()))?;
    let status = params.status.as_deref().unwrap_or("open");
    if !["open", "finished", "abandoned"].contains(&status) {
        return Err(ApiError::bad_request(
            "bad_query",
            "status is \"open\", \"finished\" or \"abandoned\"",
        ));
    }
    let limit = params
        .limit
        .unwrap_or(app.config.list_limit)
        .clamp(1, app.config.list_limit);
    let games = app.games.list(status, limit).await?;
    Ok(Json(wire::GameList {
        status: status.into(),
        games: games.iter().map(view::summary).collect(),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StateParams {
    at: Option<usize>,
}

async fn get_game(
    State(app): Shared,
    Path(id): Path<String>,
    params: Result<Query<StateParams>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<wire::State>, ApiError> {
    let Query(params) = params.map_err(|e| ApiError::bad_request("bad_query", e.body_text()))?;
    check_id(&id)?;
    let loaded = app.games.load(&id).await?;
    let state = tokio::task::spawn_blocking(move || view::state(&loaded, params.at))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?;
    Ok(Json(state))
}

async fn get_placements(
    State(app): Shared,
    Path(id): Path<String>,
    params: Result<Query<StateParams>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<wire::Placements>, ApiError> {
    let Query(params) = params.map_err(|e| ApiError::bad_request("bad_query", e.body_text()))?;
    check_id(&id)?;
    let loaded = app.games.load(&id).await?;
    let list = tokio::task::spawn_blocking(move || view::placements(&loaded, params.at))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?;
    Ok(Json(list))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct HintRequest {
    #[serde(default)]
    level: Option<i64>,
}

/// A hint for the colour to move: anyone who may read the game may ask, except while people
/// play it against each other (fair play: `Loaded::may_search`).
async fn hint(
    State(app): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    client: Option<axum::Extension<crate::edge::ClientIp>>,
    Path(id): Path<String>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<wire::Hint>, ApiError> {
    check_id(&id)?;
    let req: HintRequest = optional_body(body)?;
    let level = search::hint_level(req.level)?;
    let loaded = app.games.load(&id).await?;
    loaded.may_search()?;
    if loaded.hint_assists() {
        app.games.hint_asked(&id).await?;
    }
    let seed = ai::seed(&id, loaded.move_number());
    // The asker's address is its share of the AI's threads (as the creator's for a game).
    let address = client.map_or(peer.ip(), |axum::Extension(c)| c.0).to_string();
    Ok(Json(
        search::hint(&app.searches, &address, loaded.game, level, seed).await?,
    ))
}

/// Every colour's win estimate at every position of the game, and the moves that lost most.
async fn analysis(
    State(app): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    client: Option<axum::Extension<crate::edge::ClientIp>>,
    Path(id): Path<String>,
) -> Result<Json<wire::Analysis>, ApiError> {
    check_id(&id)?;
    let loaded = app.games.load(&id).await?;
    loaded.may_search()?;
    let address = client.map_or(peer.ip(), |axum::Extension(c)| c.0).to_string();
    let answer = search::analysis(&app.searches, &address, &id, loaded.game).await?;
    Ok(Json((*answer).clone()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    placement: String,
    expected_move_number: i64,
    #[serde(default)]
    token: Option<String>,
}

async fn submit_move(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Response, ApiError> {
    check_id(&id)?;
    let req: MoveRequest = parse_body(body)?;
    if req.placement.len() > 200 {
        return Err(ApiError::bad_request(
            "malformed_move",
            "a placement is at most 200 characters",
        ));
    }
    let token = bearer(&headers).or(req.token);
    let accepted = app
        .games
        .submit(&id, Actor::Token(token), req.placement, req.expected_move_number)
        .await?;
    // A move sent again after it was accepted: its first acknowledgement, as 200.
    let status = if accepted.fresh {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(accepted.ack)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UndoRequest {
    expected_move_number: i64,
    #[serde(default)]
    token: Option<String>,
}

async fn undo(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Response, ApiError> {
    check_id(&id)?;
    let req: UndoRequest = parse_body(body)?;
    let token = bearer(&headers).or(req.token);
    let undone = app.games.undo(&id, token, req.expected_move_number).await?;
    Ok(Json(undone).into_response())
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ResignRequest {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    seat: Option<usize>,
}

/// A body that may be left out (`{}` then).
fn optional_body<T: DeserializeOwned + Default>(
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<T, ApiError> {
    let empty = body.as_ref().is_ok_and(|b| b.iter().all(u8::is_ascii_whitespace));
    if empty {
        Ok(T::default())
    } else {
        parse_body(body)
    }
}

/// A seat resigns: its colours are out; the game goes on for the others.
async fn resign(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Response, ApiError> {
    check_id(&id)?;
    let req: ResignRequest = optional_body(body)?;
    let token = bearer(&headers).or(req.token);
    Ok(Json(app.games.resign(&id, token, req.seat).await?).into_response())
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct LeaveRequest {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    seat: Option<usize>,
    #[serde(default)]
    level: Option<u8>,
}

/// A player leaves: the AI plays the seat from now on.
async fn leave(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Response, ApiError> {
    check_id(&id)?;
    let req: LeaveRequest = optional_body(body)?;
    let token = bearer(&headers).or(req.token);
    Ok(Json(app.games.leave(&id, token, req.seat, req.level).await?).into_response())
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct DeleteRequest {
    #[serde(default)]
    token: Option<String>,
}

/// Deletes a game its creator made and nobody else joined.
async fn delete_game(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Response, ApiError> {
    check_id(&id)?;
    let req: DeleteRequest = optional_body(body)?;
    let token = bearer(&headers).or(req.token);
    Ok(Json(app.games.delete(&id, token).await?).into_response())
}

async fn get_record(State(app): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    check_id(&id)?;
    let mut loaded = app.games.load(&id).await?;
    loaded
        .game
        .tags
        .push(("Event".into(), format!("rumis server game {id}")));
    let text = record::write(&loaded.game);
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"rumis-{id}.txt\""),
            ),
        ],
        text,
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CubeRequest {
    size: String,
    #[serde(default)]
    moves: Vec<String>,
}

/// The cube solitaire: the box after the client's stones, each checked by the core.
async fn puzzle_cube(
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<wire::PuzzleState>, ApiError> {
    let req: CubeRequest = parse_body(body)?;
    let answer = tokio::task::spawn_blocking(move || rumis_wire::puzzle::cube(&req.size, &req.moves))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))??;
    Ok(Json(answer))
}

/// A solution to watch, stone by stone: `cube3` or `tower5`.
async fn puzzle_solution(Path(name): Path<String>) -> Result<Json<wire::PuzzleSolution>, ApiError> {
    let answer = tokio::task::spawn_blocking(move || rumis_wire::puzzle::solution(&name))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))??;
    Ok(Json(answer))
}
