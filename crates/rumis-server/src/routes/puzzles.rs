//! The cube solitaire and the puzzles' solutions, computed by `rumis_wire::puzzle` (the
//! same code as the in-browser engine's).

use std::sync::Arc;

use axum::extract::Path;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use crate::error::ApiError;
use crate::extract::JsonBody;
use crate::{wire, App};

/// `POST /api/v1/puzzles/cube` and `GET /api/v1/puzzles/{name}`.
pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/v1/puzzles/cube", post(puzzle_cube))
        .route("/api/v1/puzzles/{name}", get(puzzle_solution))
}

#[derive(Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
struct CubeRequest {
    /// The box: `AxBxC`, at most 8 on a side.
    #[cfg_attr(feature = "openapi", schema(example = "3x3x3"))]
    size: String,
    /// The placements, in order.
    #[serde(default)]
    moves: Vec<String>,
}

/// The cube solitaire: the box after the client's stones, each checked by the core.
#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/puzzles/cube",
    summary = "The cube solitaire: the box after the client's stones, each checked by the core (rules 1-4, stones of one colour once each)",
    request_body = CubeRequest,
    responses(
        (status = 200, description = "The box", body = crate::wire::PuzzleState),
        (status = 400, response = crate::wire::ErrorBody), (status = 413, response = crate::wire::ErrorBody), (status = 422, response = crate::wire::ErrorBody),
    )))]
async fn puzzle_cube(JsonBody(req): JsonBody<CubeRequest>) -> Result<Json<wire::PuzzleState>, ApiError> {
    let answer = tokio::task::spawn_blocking(move || rumis_wire::puzzle::cube(&req.size, &req.moves))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))??;
    Ok(Json(answer))
}

/// A solution to watch, stone by stone: `cube3` or `tower5`.
#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/puzzles/{name}",
    summary = "A solution to watch stone by stone",
    params(("name" = super::described::PuzzleName, Path)),
    responses(
        (status = 200, description = "The solution", body = crate::wire::PuzzleSolution),
        (status = 404, response = crate::wire::ErrorBody),
    )))]
async fn puzzle_solution(Path(name): Path<String>) -> Result<Json<wire::PuzzleSolution>, ApiError> {
    let answer = tokio::task::spawn_blocking(move || rumis_wire::puzzle::solution(&name))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))??;
    Ok(Json(answer))
}
