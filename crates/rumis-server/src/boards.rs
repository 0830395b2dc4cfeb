//! Board files for the board editor (rules §3): a board file checked by the core, and a
//! built-in board's file to start from. Nothing here reads a board itself: the verdict,
//! its messages and their lines are `Board::from_toml`'s, the same as for `--board-file`.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use rumis_core::Board;
use serde::Deserialize;

use crate::error::{printable, ApiError};
use crate::wire;
use crate::App;

pub use rumis_wire::boards::{DEFAULT_FILE, INLINE_FILE, MAX_BOARD_TEXT};

/// A request body that carries a board file may be this large whatever the server's body
/// limit: the file's 16 KB, escaped in JSON, with the request's other fields.
pub const BOARD_BODY_LIMIT: usize = 3 * MAX_BOARD_TEXT;

/// Whether a path's body may carry a board file (game creation, the board check).
pub fn takes_board_file(path: &str) -> bool {
    path == "/api/v1/games" || path == "/api/v1/boards/check"
}

/// `POST /api/v1/boards/check` and `GET /api/v1/boards/{name}/toml`.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route(
            "/api/v1/boards/check",
            post(check).layer(axum::extract::DefaultBodyLimit::max(BOARD_BODY_LIMIT)),
        )
        .route("/api/v1/boards/{name}/toml", get(builtin_toml))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    /// The board file's text.
    toml: String,
    /// The file's name, for the messages (`my.toml:5: ...`).
    file: Option<String>,
}

async fn check(body: Result<Bytes, BytesRejection>) -> Result<Json<wire::BoardChecked>, ApiError> {
    let req: CheckRequest = crate::routes::games::parse_body(body)?;
    let file = req
        .file
        .as_deref()
        .map(printable)
        .filter(|f| !f.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_FILE.to_string());
    check_board(&file, &req.toml).map(|board| Json(wire::BoardChecked { board }))
}

/// The core's verdict on a board file: the board as JSON, or its error with the line.
pub fn check_board(file: &str, text: &str) -> Result<wire::CheckedBoard, ApiError> {
    read_board(file, text).map(|board| rumis_wire::boards::checked_board(&board))
}

/// A board file's text no longer than [`MAX_BOARD_TEXT`], else `413 body_too_large`.
pub fn check_size(text: &str) -> Result<(), ApiError> {
    if text.len() > MAX_BOARD_TEXT {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "body_too_large",
            format!(
                "the board file is {} bytes; at most {MAX_BOARD_TEXT} are taken",
                text.len()
            ),
        ));
    }
    Ok(())
}

/// A board file read by the core: `413 body_too_large` over [`MAX_BOARD_TEXT`], `422
/// bad_board` with the core's message and line when refused.
pub fn read_board(file: &str, text: &str) -> Result<Board, ApiError> {
    check_size(text)?;
    Board::from_toml(file, text).map_err(ApiError::from)
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
