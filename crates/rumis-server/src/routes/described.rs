//! What the OpenAPI document describes and no handler builds: a path's parameter, the few
//! words a field may hold, the lobby socket's message. The routes' `#[utoipa::path]`
//! annotations name them, and so does the document (`openapi.rs`), which names the routes'
//! handlers in turn: they live here, below both.

use serde::Serialize;

use crate::wire;

/// A game's id in a path.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
// Only described: the handlers take the id through `extract::GameId`.
#[allow(dead_code)]
pub(super) struct GamePath {
    /// The game's id: 16 hex digits.
    #[param(pattern = "^[0-9a-f]{16}$")]
    id: String,
}

/// The puzzles with a solution to watch.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
// Only described (a field's `value_type`), never built.
#[allow(dead_code)]
pub(super) enum PuzzleName {
    Cube3,
    Tower5,
}

/// The games `GET /api/v1/games` lists.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
// Only described (a field's `value_type`), never built.
#[allow(dead_code)]
pub(super) enum ListStatus {
    Open,
    Finished,
    Abandoned,
}

/// A seat of a seek: yours, open to others, or the AI's.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
// Only described (a field's `value_type`), never built.
#[allow(dead_code)]
pub(super) enum SeekSeatKind {
    Me,
    Open,
    Ai,
}

/// The message of `GET /api/v1/lobby/events` (WebSocket), as `lobby::lobby_message` writes
/// it: the lobby, with its type and the render's number.
#[derive(Serialize, utoipa::ToSchema)]
// Only described: the feed writes the message as JSON.
#[allow(dead_code)]
pub(super) struct LobbyMessage {
    r#type: LobbyWord,
    /// The render's number, counting up from 1 in this server process.
    version: u64,
    #[serde(flatten)]
    lobby: wire::Lobby,
}

/// The lobby socket's `type`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
// Only described (a field's `value_type`), never built.
#[allow(dead_code)]
pub(super) enum LobbyWord {
    Lobby,
}

/// What `/healthz` and `/readyz` say.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
// Only described (a field's `value_type`), never built.
#[allow(dead_code)]
pub(super) enum HealthStatus {
    Alive,
    Ready,
    NotReady,
}
