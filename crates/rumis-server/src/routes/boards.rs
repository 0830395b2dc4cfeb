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

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/boards",
    summary = "The built-in scenarios",
    responses((status = 200, description = "The boards", body = crate::wire::Boards))))]
async fn boards() -> Json<wire::Boards> {
    let boards = Board::builtins().iter().map(rumis_wire::boards::board_info).collect();
    Json(wire::Boards { boards })
}

/// The eleven stones in the core's order: each orientation's cells and where a quarter
/// turn about x, y or z takes it.
#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/stones",
    summary = "The eleven stones, their orientations and the quarter turns between them",
    responses((status = 200, description = "The stones in the core's order", body = crate::wire::Stones))))]
async fn stones() -> Json<wire::Stones> {
    Json(wire::Stones {
        stones: Stone::ALL.iter().map(|&s| rumis_wire::boards::stone_info(s)).collect(),
    })
}

#[derive(Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    /// The board file's text (the format of `boards/*.toml`); 413 `body_too_large` over
    /// 16384 bytes.
    toml: String,
    /// The file's name, for the messages (`my.toml:5: ...`); `board.toml` by default.
    file: Option<String>,
}

#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/boards/check",
    summary = "A board file checked by the core (for the board editor); nothing is stored",
    request_body = CheckRequest,
    responses(
        (status = 200, description = "The board as the core reads it", body = crate::wire::BoardChecked),
        (status = 400, response = crate::wire::ErrorBody), (status = 413, response = crate::wire::ErrorBody),
        (status = 422, description = "bad_board: the core's message, with the file and line (as rumis boards --board-file prints it)", body = crate::wire::ErrorBody),
    )))]
async fn check(JsonBody(req): JsonBody<CheckRequest>) -> Result<Json<wire::BoardChecked>, ApiError> {
    let file = req
        .file
        .as_deref()
        .map(printable)
        .filter(|f| !f.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_FILE.to_string());
    check_board(&file, &req.toml).map(|board| Json(wire::BoardChecked { board }))
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/boards/{name}/toml",
    summary = "A built-in board's file, by name or alias, to edit as one's own",
    params(("name" = String, Path, description = "A scenario's name or alias", example = "coricancha")),
    responses(
        (status = 200, description = "The board file", body = String, content_type = "text/plain"),
        (status = 404, response = crate::wire::ErrorBody),
    )))]
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
