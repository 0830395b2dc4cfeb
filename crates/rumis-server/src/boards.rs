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
use serde_json::{json, Value};

use crate::error::{printable, ApiError};
use crate::App;

/// The longest board file taken, whatever the server's body limit: a board has at most
/// 128 cells, so a longer file is almost all evidence text.
pub const MAX_BOARD_TEXT: usize = 16 * 1024;

/// The file name used in messages when the client names none.
const DEFAULT_FILE: &str = "board.toml";

/// `POST /api/v1/boards/check` and `GET /api/v1/boards/{name}/toml`.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/v1/boards/check", post(check))
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

async fn check(body: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let req: CheckRequest = crate::api::parse_body(body)?;
    let file = req
        .file
        .as_deref()
        .map(printable)
        .filter(|f| !f.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_FILE.to_string());
    check_board(&file, &req.toml).map(|board| Json(json!({ "board": board })))
}

/// The core's verdict on a board file: the board as JSON, or its error with the line.
pub fn check_board(file: &str, text: &str) -> Result<Value, ApiError> {
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
    let board = Board::from_toml(file, text).map_err(|e| {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "bad_board", e.to_string()).with(json!({
            "file": e.file,
            "line": e.line,
            "message": e.message,
        }))
    })?;
    Ok(board_json(&board))
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
pub fn board_json(b: &Board) -> Value {
    let footprint: Vec<Value> = (0..b.ranks)
        .flat_map(|y| (0..b.files).map(move |x| (x, y)))
        .filter_map(|(x, y)| {
            b.cell(x, y)
                .map(|p| json!({ "cell": cell_name(x, y), "x": x, "y": y, "printed": (p > 0).then_some(p) }))
        })
        .collect();
    let per_count = |f: &dyn Fn(usize) -> Value| json!({ "2": f(2), "3": f(3), "4": f(4) });
    json!({
        "name": b.name,
        "aliases": b.aliases,
        "provenance": b.provenance.as_str(),
        "source": b.source,
        "files": b.files,
        "ranks": b.ranks,
        "footprint": footprint,
        "hmax": per_count(&|p| json!(b.hmax(p))),
        "frames": per_count(&|p| b.frame(p).map_or(Value::Null, |f| frame_json(&f))),
        "columns": per_count(&|p| json!(b.column_count(p))),
        "volume": per_count(&|p| json!(b.volume(p))),
        "layouts": per_count(&|p| layout(b, p)),
        "evidence": b.evidence.iter().map(|e| json!({
            "fact": e.fact,
            "source": e.source,
            "constraints": e.constraints.iter().map(constraint_json).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

fn frame_json(f: &Frame) -> Value {
    json!({ "text": f.to_string(), "files": [f.files.0, f.files.1], "ranks": [f.ranks.0, f.ranks.1] })
}

/// The buildable cells for `players`, frames applied (the same shape as `GET /boards`).
fn layout(b: &Board, players: usize) -> Value {
    let cells: Vec<Value> = b
        .layout(players)
        .into_iter()
        .map(|(x, y, printed, limit)| {
            json!({ "cell": cell_name(x, y), "x": x, "y": y, "printed": printed, "limit": limit })
        })
        .collect();
    json!({ "hmax": b.hmax(players), "cells": cells })
}

/// A constraint as its file writes it (`kind`, and `players` with `value`, or the frame
/// counts), with the core's words for it.
fn constraint_json(c: &Constraint) -> Value {
    let text = c.to_string();
    match c {
        Constraint::MinCells { players, cells } => {
            json!({ "kind": "min_cells", "players": players, "value": cells, "text": text })
        }
        Constraint::Hmax { players, height } => {
            json!({ "kind": "hmax", "players": players, "value": height, "text": text })
        }
        Constraint::ReachesLevel { players, level } => {
            json!({ "kind": "reaches_level", "players": players, "value": level, "text": text })
        }
        Constraint::FramesFor(counts) => json!({ "kind": "frames_for", "counts": counts, "text": text }),
    }
}
