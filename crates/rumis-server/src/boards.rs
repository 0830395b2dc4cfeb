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
use rumis_core::{cell_name, Frame};
use rumis_core::{Board, Constraint};
use serde::Deserialize;

use crate::error::{printable, ApiError};
use crate::wire::{self, PerCount};
use crate::App;

/// The longest board file taken, whatever the server's body limit: a board has at most
/// 128 cells, so a longer file is almost all evidence text.
pub const MAX_BOARD_TEXT: usize = 16 * 1024;

/// The file name used in messages when the client names none.
const DEFAULT_FILE: &str = "board.toml";

/// The name a game's own board file goes by in messages (`board_file:3: ...`).
pub const INLINE_FILE: &str = "board_file";

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
    let req: CheckRequest = crate::api::parse_body(body)?;
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
    read_board(file, text).map(|board| board_json(&board))
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

/// A board as the editor needs it: every field of its file, and what the core derives
/// from it for each player count.
pub fn board_json(b: &Board) -> wire::CheckedBoard {
    let footprint = (0..b.ranks)
        .flat_map(|y| (0..b.files).map(move |x| (x, y)))
        .filter_map(|(x, y)| {
            b.cell(x, y).map(|p| wire::FootprintCell {
                cell: cell_name(x, y),
                x,
                y,
                printed: (p > 0).then_some(p),
            })
        })
        .collect();
    wire::CheckedBoard {
        name: b.name.clone(),
        aliases: b.aliases.clone(),
        provenance: b.provenance.as_str().into(),
        source: b.source.clone(),
        files: b.files,
        ranks: b.ranks,
        footprint,
        hmax: PerCount::by(|p| b.hmax(p)),
        frames: PerCount::by(|p| b.frame(p).map(|f| frame_info(&f))),
        columns: PerCount::by(|p| b.column_count(p)),
        volume: PerCount::by(|p| b.volume(p)),
        layouts: PerCount::by(|p| crate::api::layout(b, p)),
        evidence: evidence_info(b),
    }
}

/// A board's sourced facts: each fact, its source and its checkable constraints.
pub fn evidence_info(b: &Board) -> Vec<wire::EvidenceInfo> {
    b.evidence
        .iter()
        .map(|e| wire::EvidenceInfo {
            fact: e.fact.clone(),
            source: e.source.clone(),
            constraints: e.constraints.iter().map(constraint_info).collect(),
        })
        .collect()
}

fn frame_info(f: &Frame) -> wire::FrameInfo {
    wire::FrameInfo {
        text: f.to_string(),
        files: [f.files.0, f.files.1],
        ranks: [f.ranks.0, f.ranks.1],
    }
}

/// A constraint as its file writes it (`kind`, and `players` with `value`, or the frame
/// counts), with the core's words for it.
fn constraint_info(c: &Constraint) -> wire::ConstraintInfo {
    let text = c.to_string();
    match *c {
        Constraint::MinCells { players, cells } => wire::ConstraintInfo::MinCells {
            players,
            value: cells,
            text,
        },
        Constraint::Hmax { players, height } => wire::ConstraintInfo::Hmax {
            players,
            value: height,
            text,
        },
        Constraint::ReachesLevel { players, level } => wire::ConstraintInfo::ReachesLevel {
            players,
            value: level,
            text,
        },
        Constraint::FramesFor(ref counts) => wire::ConstraintInfo::FramesFor {
            counts: counts.clone(),
            text,
        },
    }
}
