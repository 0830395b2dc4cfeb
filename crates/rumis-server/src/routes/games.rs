//! A game's routes: creation and the list, its state and placements, moves, undo,
//! resignation and leaving, deletion, its record, hints and the analysis.

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use rumis_core::{record, Variant};
use serde::Deserialize;

use super::Shared;
use crate::error::{printable, ApiError};
use crate::extract::{Bearer, Client, GameId, JsonBody, OptionalBody, Params};
use crate::service::{self, Actor, AskedPosition, NewSeat};
use crate::store::SeatKind;
use crate::{ai, search, view, wire, App};

/// The routes under `/api/v1/games` but the lobby's (`lobby.rs`) and the events' socket
/// (`game_events.rs`); a body that carries a board file may be larger than `limit`.
pub(super) fn routes(limit: usize) -> Router<Arc<App>> {
    Router::new()
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
        .route("/api/v1/games/{id}/record", get(get_record))
}

#[derive(Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
struct SeatRequest {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::wire::contract::SeatKind))]
    kind: String,
    /// An AI seat's level (none for a human seat).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 9))]
    level: Option<u8>,
}

/// Give `board` (a scenario) or `board_file` (a board of one's own; `board` may then repeat
/// its name). With `moves`, the game starts from the position they reach (a game from a
/// position: never rated).
#[derive(Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = CreateGame))]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    /// A scenario by name; or, with `board_file`, nothing or that board's own name.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(min_length = 1, example = "chullpa"))]
    board: Option<String>,
    /// A board of one's own: the text of its file (rules §3), read by the core: 422
    /// `bad_board` with its line when refused, 413 over 16 KB.
    #[serde(default)]
    board_file: Option<String>,
    /// `out` (the rulebooks, the default) or `pass` (the house rule of rules §6).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::wire::contract::StuckRule>))]
    stuck_rule: Option<String>,
    #[cfg_attr(feature = "openapi", schema(minimum = 2, maximum = 4))]
    players: usize,
    /// `standard` (the default), `two-player-four-colors` (also `two-player-four-colours`,
    /// `2p4c`) or `ruinas`.
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<crate::wire::contract::Colour>>))]
    colours: Option<Vec<String>>,
    /// A Ruinas game's seed for its ruins (only for `ruinas`).
    #[serde(default)]
    ruins_seed: Option<u64>,
    /// A Ruinas game's ruins as placements, in the order they are placed (only for
    /// `ruinas`; instead of `ruins_seed`), each checked by the core.
    #[serde(default)]
    ruins: Option<Vec<String>>,
    /// A game from a position: the moves so far, written as a record's (rules §7:
    /// placements in order, a colour leaving as `Y:out`; move numbers and comments
    /// optional). The core plays each; the first it refuses is `422 illegal_move` with its
    /// `move_number`, and no game is made. Moves that end the game are `422 game_over`.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(example = "1. D2@b2x2 2. V3@a1,a2,b2"))]
    moves: Option<String>,
    /// With `moves`: the server game whose first moves they are; the server checks that
    /// they are (same setup, same moves) and the new game's state names it. `403
    /// fair_play` while people play that game against each other.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(pattern = "^[0-9a-f]{16}$"))]
    from_game: Option<String>,
    #[serde(default)]
    hot_seat: bool,
    #[serde(default)]
    seats: Option<Vec<SeatRequest>>,
    #[serde(default)]
    clock: Option<ClockRequest>,
}

/// A clock asked for at creation (checked by the service: `clock::Rule::from_asked`). Not
/// for hot-seat or AI-only games. Real-time: `minutes` per game (0.1 to 180) plus
/// `increment_seconds` added after each move (0 to 60). Correspondence: `days` per move (1
/// to 14). `on_timeout`: `out` (the seat's colours are out) or `ai` (the AI plays the seat
/// from then on, at `ai_level` 1-9). Refused with 400 `bad_clock` otherwise.
#[derive(Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub(crate) struct ClockRequest {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::wire::contract::ClockKind))]
    kind: String,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(minimum = 0.1, maximum = 180))]
    minutes: Option<f64>,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 60))]
    increment_seconds: Option<f64>,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 14))]
    days: Option<i64>,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::wire::contract::OnTimeout>))]
    on_timeout: Option<String>,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 9))]
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

#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/games",
    summary = "Create a game",
    request_body = CreateRequest,
    responses(
        (status = 201, description = "The game, with one token per human seat", body = crate::wire::Created),
        (status = 400, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 413, response = crate::wire::ErrorBody), (status = 422, response = crate::wire::ErrorBody), (status = 429, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn create_game(
    State(app): Shared,
    // The creator is the client (behind `--trusted-proxy`, the one the proxy speaks for),
    // as for the rate limit: else every user of a proxy would share one AI-only cap.
    Client(creator): Client,
    JsonBody(req): JsonBody<CreateRequest>,
) -> Result<Response, ApiError> {
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
        ruins: req.ruins.as_deref(),
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
    let position = match (req.moves, req.from_game) {
        (None, None) => None,
        (None, Some(_)) => {
            return Err(ApiError::bad_request(
                "bad_setup",
                "from_game goes with moves: the moves of that game up to the position",
            ))
        }
        (Some(moves), from_game) => Some(AskedPosition { moves, from_game }),
    };
    let created = app
        .games
        .create_timed(setup, seats, &creator.to_string(), clock, position)
        .await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

#[derive(Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
struct ListParams {
    /// `open` (the default), `finished` or `abandoned`.
    #[cfg_attr(feature = "openapi", param(value_type = Option<super::described::ListStatus>))]
    status: Option<String>,
    /// Clamped to 1 ... the server's list limit (50 by default).
    limit: Option<i64>,
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/games",
    summary = "Open, finished or abandoned games, most recently updated first",
    params(ListParams),
    responses(
        (status = 200, description = "The games", body = crate::wire::GameList),
        (status = 400, response = crate::wire::ErrorBody),
    )))]
async fn list_games(State(app): Shared, Params(params): Params<ListParams>) -> Result<Json<wire::GameList>, ApiError> {
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
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
struct StateParams {
    /// After the first `at` moves; clamped to the moves played.
    at: Option<usize>,
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/games/{id}",
    summary = "A game's state (after its first `at` moves if given)",
    params(super::described::GamePath, StateParams),
    responses(
        (status = 200, description = "The state", body = crate::wire::State),
        (status = 400, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody),
    )))]
async fn get_game(
    State(app): Shared,
    Params(params): Params<StateParams>,
    GameId(id): GameId,
) -> Result<Json<wire::State>, ApiError> {
    let loaded = app.games.load(&id).await?;
    let now = app.games.now_ms();
    let state = tokio::task::spawn_blocking(move || view::state(&loaded, params.at, now))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?;
    Ok(Json(state))
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/games/{id}/placements",
    summary = "Every legal placement of the colour to move (after the first `at` moves if given), with its cubes",
    params(super::described::GamePath, StateParams),
    responses(
        (status = 200, description = "The placements, sorted by text", body = crate::wire::Placements),
        (status = 400, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody),
    )))]
async fn get_placements(
    State(app): Shared,
    Params(params): Params<StateParams>,
    GameId(id): GameId,
) -> Result<Json<wire::Placements>, ApiError> {
    let loaded = app.games.load(&id).await?;
    let list = tokio::task::spawn_blocking(move || view::placements(&loaded, params.at))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?;
    Ok(Json(list))
}

#[derive(Deserialize, Default)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
struct HintRequest {
    /// The search's level, 6 by default.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(minimum = 4, maximum = 9))]
    level: Option<i64>,
}

/// A hint for the colour to move: anyone who may read the game may ask, except while people
/// play it against each other (fair play: `Loaded::may_search`).
#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/games/{id}/hint",
    summary = "The best placement for the colour to move, from a tree search at a level (no token needed)",
    params(super::described::GamePath),
    request_body(content = Option<HintRequest>),
    responses(
        (status = 200, description = "The hint", body = crate::wire::Hint),
        (status = 400, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 429, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn hint(
    State(app): Shared,
    Client(client): Client,
    GameId(id): GameId,
    OptionalBody(req): OptionalBody<HintRequest>,
) -> Result<Json<wire::Hint>, ApiError> {
    let level = search::hint_level(req.level)?;
    let loaded = app.games.load(&id).await?;
    loaded.may_search()?;
    if loaded.hint_assists() {
        app.games.hint_asked(&id).await?;
    }
    let seed = ai::seed(&id, loaded.move_number());
    // The asker's address is its share of the AI's threads (as the creator's for a game).
    let address = client.to_string();
    Ok(Json(
        search::hint(&app.searches, &address, loaded.game, level, seed).await?,
    ))
}

/// Every colour's win estimate at every position of the game, and the moves that lost most.
#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/games/{id}/analysis",
    summary = "Every colour's win estimate at every position, and each move's loss (200 simulations per position, cached)",
    params(super::described::GamePath),
    responses(
        (status = 200, description = "The analysis", body = crate::wire::Analysis),
        (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 429, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn analysis(
    State(app): Shared,
    Client(client): Client,
    GameId(id): GameId,
) -> Result<Json<wire::Analysis>, ApiError> {
    let loaded = app.games.load(&id).await?;
    loaded.may_search()?;
    let address = client.to_string();
    let answer = search::analysis(&app.searches, &address, &id, loaded.game).await?;
    Ok(Json((*answer).clone()))
}

#[derive(Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    /// The placement's text, at most 200 characters.
    #[cfg_attr(feature = "openapi", schema(example = "L4@a1,a2,a3,b1"))]
    placement: String,
    /// The number of the move this one is to be (the state's `move_number`).
    #[cfg_attr(feature = "openapi", schema(minimum = -9007199254740991_i64, maximum = 9007199254740991_i64))]
    expected_move_number: i64,
    /// The seat's token, when not in `Authorization`.
    #[serde(default)]
    token: Option<String>,
}

#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/games/{id}/moves",
    summary = "Play a move for the seat the token holds",
    params(super::described::GamePath),
    security(("seatToken" = []), ()),
    request_body = MoveRequest,
    responses(
        (status = 201, description = "Committed", body = crate::wire::MoveAck),
        (status = 200, description = "This move had been accepted before (sent again); its first acknowledgement, nothing changed", body = crate::wire::MoveAck),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 413, response = crate::wire::ErrorBody), (status = 422, response = crate::wire::ErrorBody), (status = 429, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn submit_move(
    State(app): Shared,
    GameId(id): GameId,
    Bearer(bearer): Bearer,
    JsonBody(req): JsonBody<MoveRequest>,
) -> Result<Response, ApiError> {
    if req.placement.len() > 200 {
        return Err(ApiError::bad_request(
            "malformed_move",
            "a placement is at most 200 characters",
        ));
    }
    let token = bearer.or(req.token);
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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
struct UndoRequest {
    #[cfg_attr(feature = "openapi", schema(minimum = -9007199254740991_i64, maximum = 9007199254740991_i64))]
    expected_move_number: i64,
    #[serde(default)]
    token: Option<String>,
}

#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/games/{id}/undo",
    summary = "Hot-seat only - take back the last human move (and the AI moves after it)",
    params(super::described::GamePath),
    security(("seatToken" = []), ()),
    request_body = UndoRequest,
    responses(
        (status = 200, description = "Committed", body = crate::wire::UndoAck),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn undo(
    State(app): Shared,
    GameId(id): GameId,
    Bearer(bearer): Bearer,
    JsonBody(req): JsonBody<UndoRequest>,
) -> Result<Response, ApiError> {
    let token = bearer.or(req.token);
    let undone = app.games.undo(&id, token, req.expected_move_number).await?;
    Ok(Json(undone).into_response())
}

#[derive(Deserialize, Default)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
struct ResignRequest {
    #[serde(default)]
    token: Option<String>,
    /// Needed only when the token holds several seats (hot-seat) and none of them is to move.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(maximum = 3))]
    seat: Option<usize>,
}

/// A seat resigns: its colours are out; the game goes on for the others.
#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/games/{id}/resign",
    summary = "A seat resigns - its colours are out from now on (rules 5); the others play on. Sent again, nothing changes.",
    params(super::described::GamePath),
    security(("seatToken" = []), ()),
    request_body(content = Option<ResignRequest>),
    responses(
        (status = 200, description = "Committed (or nothing to do)", body = crate::wire::ResignAck),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn resign(
    State(app): Shared,
    GameId(id): GameId,
    Bearer(bearer): Bearer,
    OptionalBody(req): OptionalBody<ResignRequest>,
) -> Result<Response, ApiError> {
    let token = bearer.or(req.token);
    Ok(Json(app.games.resign(&id, token, req.seat).await?).into_response())
}

#[derive(Deserialize, Default)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
struct LeaveRequest {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(maximum = 3))]
    seat: Option<usize>,
    /// The AI's level; by default the clock's timeout level, else 3.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 9))]
    level: Option<u8>,
}

/// A player leaves: the AI plays the seat from now on.
#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/games/{id}/leave",
    summary = "A player leaves - the AI plays the seat from now on. Sent again, nothing changes.",
    params(super::described::GamePath),
    security(("seatToken" = []), ()),
    request_body(content = Option<LeaveRequest>),
    responses(
        (status = 200, description = "Committed (or nothing to do)", body = crate::wire::LeaveAck),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn leave(
    State(app): Shared,
    GameId(id): GameId,
    Bearer(bearer): Bearer,
    OptionalBody(req): OptionalBody<LeaveRequest>,
) -> Result<Response, ApiError> {
    let token = bearer.or(req.token);
    Ok(Json(app.games.leave(&id, token, req.seat, req.level).await?).into_response())
}

#[derive(Deserialize, Default)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
struct DeleteRequest {
    #[serde(default)]
    token: Option<String>,
}

/// Deletes a game its creator made and nobody else joined.
#[cfg_attr(feature = "openapi", utoipa::path(delete, path = "/api/v1/games/{id}",
    summary = "Delete a game nobody else has joined (the creator's token - the first human seat's)",
    description = "The token goes in the Authorization header or as \"token\" in the body.",
    params(super::described::GamePath),
    security(("seatToken" = []), ()),
    request_body(content = Option<DeleteRequest>),
    responses(
        (status = 200, description = "Deleted", body = crate::wire::Deleted),
        (status = 400, response = crate::wire::ErrorBody), (status = 401, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn delete_game(
    State(app): Shared,
    GameId(id): GameId,
    Bearer(bearer): Bearer,
    OptionalBody(req): OptionalBody<DeleteRequest>,
) -> Result<Response, ApiError> {
    let token = bearer.or(req.token);
    Ok(Json(app.games.delete(&id, token).await?).into_response())
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/games/{id}/record",
    summary = "The game as a record (rules §7)",
    params(super::described::GamePath),
    responses(
        (status = 200, description = "The record", body = String, content_type = "text/plain"),
        (status = 404, response = crate::wire::ErrorBody),
    )))]
async fn get_record(State(app): Shared, GameId(id): GameId) -> Result<Response, ApiError> {
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
