//! The API's answers and events as typed structs: what goes over the wire is what these
//! serialize to. `tests/openapi.rs` checks every field against `docs/server-openapi.yaml`.

use serde::Serialize;

/// `201` to `POST /games/{id}/moves` (and `200` with the same body to the same move sent
/// again).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MoveAck {
    pub number: i64,
    pub colour: String,
    pub placement: String,
    pub move_number: i64,
    pub to_move: Option<String>,
    pub out: Vec<String>,
    pub over: bool,
}

/// `200` to `POST /games/{id}/undo`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct UndoAck {
    pub removed: Vec<i64>,
    pub move_number: i64,
    pub to_move: Option<String>,
}

/// `200` to `DELETE /games/{id}`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Deleted {
    pub id: String,
    pub deleted: bool,
}

/// A seat in `201` to `POST /games`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CreatedSeat {
    pub seat: usize,
    pub colours: Vec<String>,
    pub kind: String,
    pub level: Option<u8>,
    pub token: Option<String>,
}

/// `201` to `POST /games`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Created {
    pub id: String,
    pub hot_seat: bool,
    pub seats: Vec<CreatedSeat>,
    pub ruins: Vec<String>,
    pub state_url: String,
    pub events_url: String,
    pub record_url: String,
}

/// A colour's score in `game_over`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Score {
    pub colour: String,
    pub score: i32,
}

/// The events of a game's WebSocket (besides `snapshot`), by `type`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GameEvent {
    Move {
        game: String,
        number: i64,
        colour: String,
        placement: String,
        by: String,
        move_number: i64,
        to_move: Option<String>,
    },
    Out {
        game: String,
        colour: String,
        after_move: i64,
    },
    GameOver {
        game: String,
        after_move: i64,
        scores: Vec<Score>,
        winners: Vec<usize>,
    },
    Undo {
        game: String,
        removed: Vec<i64>,
        move_number: i64,
        to_move: Option<String>,
    },
    AiThinking {
        game: String,
        colour: String,
        move_number: i64,
        level: u8,
    },
    /// The game was deleted by its creator.
    Deleted { game: String },
    /// Nobody moved for too long: the game ended without a result.
    Abandoned { game: String },
}
