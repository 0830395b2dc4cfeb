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
use crate::service::{self, Actor, NewSeat};
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
#[serde(deny_unknown_fields)]
struct StateParams {
    at: Option<usize>,
}

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
#[serde(deny_unknown_fields)]
struct HintRequest {
    #[serde(default)]
    level: Option<i64>,
}

/// A hint for the colour to move: anyone who may read the game may ask, except while people
/// play it against each other (fair play: `Loaded::may_search`).
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
#[serde(deny_unknown_fields)]
struct MoveRequest {
    placement: String,
    expected_move_number: i64,
    #[serde(default)]
    token: Option<String>,
}

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
#[serde(deny_unknown_fields)]
struct UndoRequest {
    expected_move_number: i64,
    #[serde(default)]
    token: Option<String>,
}

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
#[serde(deny_unknown_fields)]
struct ResignRequest {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    seat: Option<usize>,
}

/// A seat resigns: its colours are out; the game goes on for the others.
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
    GameId(id): GameId,
    Bearer(bearer): Bearer,
    OptionalBody(req): OptionalBody<LeaveRequest>,
) -> Result<Response, ApiError> {
    let token = bearer.or(req.token);
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
    GameId(id): GameId,
    Bearer(bearer): Bearer,
    OptionalBody(req): OptionalBody<DeleteRequest>,
) -> Result<Response, ApiError> {
    let token = bearer.or(req.token);
    Ok(Json(app.games.delete(&id, token).await?).into_response())
}

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
