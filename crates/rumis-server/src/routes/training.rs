//! The game's puzzles ("training": `/api/v1/puzzles` is the cube solitaire's): the daily
//! puzzle, the next one for a player, a puzzle by id, and an attempt at one
//! (service/training.rs). A player's key (`Authorization: Bearer`) is optional: with it the
//! answers carry the player's puzzle rating and a first attempt is rated.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use super::Shared;
use crate::error::ApiError;
use crate::extract::{Bearer, Client, JsonBody, Params};
use crate::{wire, App};

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/v1/training/daily", get(daily))
        .route("/api/v1/training/next", get(next))
        .route("/api/v1/training/{id}", get(puzzle))
        .route("/api/v1/training/{id}/attempt", post(attempt))
}

/// A puzzle's id in a path: the scenario, the player count and the position's hash.
#[cfg(feature = "openapi")]
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)]
pub(super) struct TrainingPath {
    /// E.g. `chullpa-2-86f54e4b33d9`.
    id: String,
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/training/daily",
    summary = "The daily puzzle: the same for everyone on a UTC day",
    security(("playerKey" = []), ()),
    responses(
        (status = 200, description = "The puzzle (with the player's puzzle rating when a key was sent)", body = crate::wire::TrainingPuzzle),
        (status = 403, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn daily(State(app): Shared, Bearer(key): Bearer) -> Result<Json<wire::TrainingPuzzle>, ApiError> {
    Ok(Json(app.training.daily(key.as_deref()).await?))
}

/// What the next puzzle must be.
#[derive(Deserialize, Default)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
struct NextQuery {
    /// A scenario's name (any case): `chullpa`, `coricancha`, `cucho`, `pirka`, `pisac`, `tambo`.
    scenario: Option<String>,
    /// 2, 3 or 4.
    players: Option<usize>,
    /// A theme: `block-out`, `height-limit`, `last-stone`, `stay-in`, `keep-the-win`, `best-score`.
    theme: Option<String>,
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/training/next",
    summary = "A puzzle near the player's puzzle rating that they have not tried (a new player's rating without a key)",
    params(NextQuery),
    security(("playerKey" = []), ()),
    responses(
        (status = 200, description = "The puzzle", body = crate::wire::TrainingPuzzle),
        (status = 400, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn next(
    State(app): Shared,
    Bearer(key): Bearer,
    Params(q): Params<NextQuery>,
) -> Result<Json<wire::TrainingPuzzle>, ApiError> {
    let filter = crate::service::training_filter(q.scenario.as_deref(), q.players, q.theme.as_deref())?;
    Ok(Json(app.training.next(key.as_deref(), &filter).await?))
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/training/{id}",
    summary = "A puzzle by its id",
    params(TrainingPath),
    security(("playerKey" = []), ()),
    responses(
        (status = 200, description = "The puzzle", body = crate::wire::TrainingPuzzle),
        (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn puzzle(
    State(app): Shared,
    Bearer(key): Bearer,
    Path(id): Path<String>,
) -> Result<Json<wire::TrainingPuzzle>, ApiError> {
    Ok(Json(app.training.get(&id, key.as_deref()).await?))
}

/// An answer to a puzzle.
#[derive(Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
struct AttemptRequest {
    /// A placement of the colour to move, in the notation (rules §7).
    #[cfg_attr(feature = "openapi", schema(example = "D2@e2x2"))]
    placement: String,
}

#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/training/{id}/attempt",
    summary = "An answer to a puzzle: solved or not, and when not why the placement is worse than the best; a player's first attempt at the puzzle is rated",
    params(TrainingPath),
    request_body = AttemptRequest,
    security(("playerKey" = []), ()),
    responses(
        (status = 200, description = "The result", body = crate::wire::TrainingResult),
        (status = 400, response = crate::wire::ErrorBody), (status = 403, response = crate::wire::ErrorBody), (status = 404, response = crate::wire::ErrorBody), (status = 413, response = crate::wire::ErrorBody), (status = 422, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
async fn attempt(
    State(app): Shared,
    Client(client): Client,
    Bearer(key): Bearer,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<AttemptRequest>,
) -> Result<Json<wire::TrainingResult>, ApiError> {
    // The asker's address is its share of the AI's threads, as for a hint.
    Ok(Json(
        app.training
            .attempt(&id, key.as_deref(), &req.placement, &client.to_string())
            .await?,
    ))
}
