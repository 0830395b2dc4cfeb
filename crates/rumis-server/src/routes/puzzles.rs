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
#[serde(deny_unknown_fields)]
struct CubeRequest {
    size: String,
    #[serde(default)]
    moves: Vec<String>,
}

/// The cube solitaire: the box after the client's stones, each checked by the core.
async fn puzzle_cube(JsonBody(req): JsonBody<CubeRequest>) -> Result<Json<wire::PuzzleState>, ApiError> {
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
