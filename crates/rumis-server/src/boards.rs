//! Board files (rules §3) as the server takes them: their sizes and body limits, and a
//! board file read and checked by the core. Nothing here reads a board itself: the
//! verdict, its messages and their lines are `Board::from_toml`'s, the same as for
//! `--board-file`. The routes of the board editor are `routes/boards.rs`.

use axum::http::StatusCode;
use rumis_core::Board;

use crate::error::ApiError;
use rumis_wire as wire;

pub use rumis_wire::boards::{DEFAULT_FILE, INLINE_FILE, MAX_BOARD_TEXT};

/// A request body that carries a board file may be this large whatever the server's body
/// limit: the file's 16 KB, escaped in JSON, with the request's other fields.
pub const BOARD_BODY_LIMIT: usize = 3 * MAX_BOARD_TEXT;

/// Whether a path's body may carry a board file (game creation, the board check).
pub fn takes_board_file(path: &str) -> bool {
    path == "/api/v1/games" || path == "/api/v1/boards/check"
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
