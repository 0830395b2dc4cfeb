//! The API's answers and events as typed structs: what goes over the wire is what these
//! serialize to. `tests/openapi.rs` checks every field against `docs/server-openapi.yaml`.

use serde::Serialize;

mod lobby;
pub use lobby::*;

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
    /// Under the pass rule (rules §6): the colours that could not place after this move
    /// and passed (they stay in).
    pub passed: Vec<String>,
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
        /// The colours that passed after this move (the pass rule, rules §6).
        passed: Vec<String>,
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
    /// A player (or, `player` null, a guest) sat down; `started`: that was the last free seat.
    Seated {
        game: String,
        seat: usize,
        player: Option<String>,
        name: Option<String>,
        started: bool,
    },
    /// Quick play: the free seats went to the AI after the wait.
    Filled { game: String, seats: Vec<usize>, level: u8 },
    /// Aborted before the second move: no result, no rating.
    Aborted { game: String },
    /// A rematch is offered: the new game, seats rotated.
    RematchOffered { game: String, rematch: String, by: String },
    /// The ratings of this rated game were counted.
    Rated { game: String },
    /// The clocks after a change (a move, a timeout, a resignation): each seat's time left
    /// at the server's `now`, and whose time runs.
    Clock { game: String, clock: ClockInfo },
    /// A seat resigned: its colours are out (rules §5); the game goes on for the others.
    Resigned {
        game: String,
        seat: usize,
        colours: Vec<String>,
        after_move: i64,
    },
    /// A seat's time ran out: `rule` "out" (its colours are out) or "ai" (the AI plays it
    /// from now on, at `level`).
    Timeout {
        game: String,
        seat: usize,
        colours: Vec<String>,
        rule: String,
        level: Option<u8>,
        after_move: i64,
    },
    /// Who plays a seat changed: its player left (`reason` "left") or ran out of time
    /// ("time"), and the AI took it over.
    SeatChanged {
        game: String,
        seat: usize,
        kind: String,
        level: Option<u8>,
        reason: String,
    },
}

/// A seat's time left in a clock.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SeatClock {
    pub seat: usize,
    pub remaining_ms: i64,
}

/// A game's clock in its state and in `clock` events: the rule, the server's time `now`
/// and each seat's time left at `now` (the running seat's goes on running from then).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ClockInfo {
    pub kind: String,
    pub initial_ms: i64,
    pub increment_ms: i64,
    pub per_move_ms: i64,
    pub on_timeout: String,
    pub ai_level: Option<u8>,
    pub now: i64,
    pub running_seat: Option<usize>,
    pub seats: Vec<SeatClock>,
}

/// A colour that left the game (resigned, or ran out of time), in a state.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LeftInfo {
    pub colour: String,
    pub after_move: usize,
    pub reason: Option<String>,
}

/// `200` to `POST /games/{id}/resign`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ResignAck {
    pub seat: usize,
    /// The colours this resignation put out (empty when they were out already).
    pub retired: Vec<String>,
    pub to_move: Option<String>,
    pub over: bool,
}

/// `200` to `POST /games/{id}/leave`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LeaveAck {
    pub seat: usize,
    pub kind: String,
    pub level: u8,
    /// `false`: the AI played the seat already; nothing changed.
    pub changed: bool,
}

/// `[x, y, z]`: file index, rank index, 0-based level.
pub type Cube = [u8; 3];

/// A placement with the cubes it would occupy (`/placements`, hints).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Placement {
    pub placement: String,
    pub stone: String,
    pub orientation: usize,
    pub cubes: Vec<Cube>,
}

/// `200` to `GET /games/{id}/placements`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Placements {
    pub move_number: usize,
    pub colour: Option<String>,
    pub placements: Vec<Placement>,
}

/// A game in `GET /games`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    pub id: String,
    pub board: String,
    pub players: i64,
    pub variant: String,
    pub status: String,
    pub to_move: Option<String>,
    pub moves_played: i64,
    pub move_number: i64,
    pub created: i64,
    pub updated: i64,
    /// On a board of the players' own (its name is `board`).
    pub custom: bool,
}

/// `200` to `GET /games`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GameList {
    pub status: String,
    pub games: Vec<Summary>,
}

/// The setup part of a state.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SiteInfo {
    pub board: String,
    pub files: usize,
    pub ranks: usize,
    pub players: usize,
    pub variant: String,
    pub colours: Vec<String>,
    pub ruin_colour: Option<String>,
    pub ruins: Vec<String>,
    pub hmax: u8,
    /// `out` or `pass`: what happens to a colour that cannot place (rules §6).
    pub stuck_rule: String,
    /// Whether the board is one of the players' own, not a scenario.
    pub custom: bool,
    /// A board of one's own: its file, as the game was created with it.
    pub board_file: Option<String>,
}

/// A seat in a state (no token).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SeatInfo {
    pub seat: usize,
    pub colours: Vec<String>,
    pub kind: String,
    pub level: Option<u8>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ColourInfo {
    pub colour: String,
    pub name: String,
    pub seat: Option<usize>,
    pub out: bool,
    pub score: Option<i32>,
    pub stones_left: Vec<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MoveInfo {
    pub number: i64,
    pub colour: String,
    pub placement: String,
    pub created: i64,
    /// The colours that passed after this move (the pass rule, rules §6).
    pub passed: Vec<String>,
}

/// The move just before `at`, with the cubes it took.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LastMove {
    pub number: usize,
    pub colour: String,
    pub placement: String,
    pub cubes: Vec<Cube>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ColumnInfo {
    pub cell: String,
    pub x: usize,
    pub y: usize,
    pub limit: u8,
    pub height: u8,
    pub top: Option<String>,
    pub cubes: Vec<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PositionInfo {
    pub cube_count: usize,
    pub columns: Vec<ColumnInfo>,
}

/// `200` to `GET /games/{id}`, and the snapshot of the events.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct State {
    pub id: String,
    pub status: String,
    pub created: i64,
    pub updated: i64,
    pub hot_seat: bool,
    pub site: SiteInfo,
    pub seats: Vec<SeatInfo>,
    pub moves_played: usize,
    pub at: usize,
    pub move_number: usize,
    pub to_move: Option<String>,
    pub seat_to_move: Option<usize>,
    pub over: bool,
    pub colours: Vec<ColourInfo>,
    pub players: Vec<i32>,
    pub winners: Option<Vec<usize>>,
    pub moves: Vec<MoveInfo>,
    pub last_move: Option<LastMove>,
    pub legal_moves: Vec<String>,
    pub position: PositionInfo,
    /// The game's clock, if it has one.
    pub clock: Option<ClockInfo>,
    /// The colours that left the game (resigned, or ran out of time), in order.
    pub left: Vec<LeftInfo>,
}
