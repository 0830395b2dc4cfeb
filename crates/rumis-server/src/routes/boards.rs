//! The boards and stones: the built-in boards, the eleven stones, and for the board editor
//! (rules §3) a board file checked by the core and a built-in board's file to start from.
//! Nothing here reads a board itself: the verdict, its messages and their lines are
//! `Board::from_toml`'s (`boards.rs`), the same as for `--board-file`.

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Path};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use rumis_core::{Board, Stone};
use serde::Deserialize;

use crate::boards::{check_board, BOARD_BODY_LIMIT, DEFAULT_FILE};
use crate::error::{printable, ApiError};
use crate::extract::JsonBody;
use crate::{wire, App};

/// `GET /api/v1/boards`, `GET /api/v1/stones`, `POST /api/v1/boards/check` and
/// `GET /api/v1/boards/{name}/toml`.
pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/v1/boards", get(boards))
        .route(
            "/api/v1/boards/check",
            post(check).layer(DefaultBodyLimit::max(BOARD_BODY_LIMIT)),
        )
        .route("/api/v1/boards/{name}/toml", get(builtin_toml))
        .route("/api/v1/stones", get(stones))
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    /// The board file's text.
    toml: String,
    /// The file's name, for the messages (`my.toml:5: ...`).
    file: Option<String>,
}

async fn check(JsonBody(req): JsonBody<CheckRequest>) -> Result<Json<wire::BoardChecked>, ApiError> {
    let file = req
        .file
        .as_deref()
        .map(printable)
        .filter(|f| !f.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_FILE.to_string());
    check_board(&file, &req.toml).map(|board| Json(wire::BoardChecked { board }))
}

async fn builtin_toml(Path(name): Path<String>) -> Response {
    match Board::builtin_file(&name) {
        Some(text) => ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response(),
        None => ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown_board",
            format!(
                "unknown board '{}'; the boards are {}",
                printable(&name),
                Board::builtin_names()
            ),
        )
        .into_response(),
    }
}
