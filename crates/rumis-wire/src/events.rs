//! The events of a game's WebSocket, each a variant of [`GameEvent`] that serializes to
//! `{ "type": ..., ... }` (the snapshot that opens the socket is `answers.rs`'s
//! [`crate::Snapshot`]).

use serde::{Deserialize, Serialize};

use crate::ClockInfo;

/// A colour's score in `game_over`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Score {
    #[cfg_attr(feature = "contract", ts(type = "Colour"))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Colour))]
    pub colour: String,
    pub score: i32,
}

/// The events of a game's WebSocket (besides `snapshot`), by `type`. (Read back from
/// PostgreSQL's notifications too.)
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GameEvent {
    Move {
        game: String,
        number: i64,
        #[cfg_attr(feature = "contract", ts(type = "Colour"))]
        #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Colour))]
        colour: String,
        placement: String,
        #[cfg_attr(feature = "contract", ts(type = "\"human\" | \"ai\""))]
        #[cfg_attr(feature = "contract", schema(value_type = crate::contract::SeatKind))]
        by: String,
        move_number: i64,
        #[cfg_attr(feature = "contract", ts(type = "Colour | null"))]
        #[cfg_attr(feature = "contract", schema(value_type = Option<crate::contract::Colour>))]
        to_move: Option<String>,
        /// The colours that passed after this move (the pass rule, rules §6).
        #[cfg_attr(feature = "contract", ts(type = "Array<Colour>"))]
        #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::Colour>))]
        passed: Vec<String>,
    },
    Out {
        game: String,
        #[cfg_attr(feature = "contract", ts(type = "Colour"))]
        #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Colour))]
        colour: String,
        after_move: i64,
    },
    GameOver {
        game: String,
        after_move: i64,
        scores: Vec<Score>,
        winners: Vec<usize>,
        /// Each player's place, 1 = first, the players that forfeited last (rules §5.1).
        #[serde(default)]
        places: Vec<usize>,
        /// The players (seats) that forfeited: resigned, or ran out of time (rules §5.1).
        #[serde(default)]
        forfeited: Vec<usize>,
    },
    Undo {
        game: String,
        removed: Vec<i64>,
        move_number: i64,
        #[cfg_attr(feature = "contract", ts(type = "Colour | null"))]
        #[cfg_attr(feature = "contract", schema(value_type = Option<crate::contract::Colour>))]
        to_move: Option<String>,
    },
    AiThinking {
        game: String,
        #[cfg_attr(feature = "contract", ts(type = "Colour"))]
        #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Colour))]
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
    /// A player offered a seat in the rematch declined it: the rematch is aborted.
    RematchDeclined { game: String, rematch: String, by: String },
    /// A waiting lobby game expired: its creator was not seen for `idle_ms` (it is aborted).
    Expired { game: String, idle_ms: i64 },
    /// The ratings of this rated game were counted.
    Rated { game: String },
    /// The lobby's socket: its list changed (read it again).
    LobbyChanged,
    /// The clocks after a change (a move, a timeout, a resignation): each seat's time left
    /// at the server's `now`, and whose time runs.
    Clock { game: String, clock: ClockInfo },
    /// A seat resigned: it has forfeited (rules §5.1), its colours are out; the game goes
    /// on for the others, or ends at once (`game_over`) when one player is left.
    Resigned {
        game: String,
        seat: usize,
        #[cfg_attr(feature = "contract", ts(type = "Array<Colour>"))]
        #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::Colour>))]
        colours: Vec<String>,
        after_move: i64,
    },
    /// A seat's time ran out: `rule` "out" (its colours are out) or "ai" (the AI plays it
    /// from now on, at `level`).
    Timeout {
        game: String,
        seat: usize,
        #[cfg_attr(feature = "contract", ts(type = "Array<Colour>"))]
        #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::Colour>))]
        colours: Vec<String>,
        #[cfg_attr(feature = "contract", ts(type = "\"out\" | \"ai\""))]
        #[cfg_attr(feature = "contract", schema(value_type = crate::contract::OnTimeout))]
        rule: String,
        level: Option<u8>,
        after_move: i64,
    },
    /// Who plays a seat changed: its player left (`reason` "left") or ran out of time
    /// ("time"), and the AI took it over.
    SeatChanged {
        game: String,
        seat: usize,
        #[cfg_attr(feature = "contract", ts(type = "\"human\" | \"ai\""))]
        #[cfg_attr(feature = "contract", schema(value_type = crate::contract::SeatKind))]
        kind: String,
        level: Option<u8>,
        reason: String,
    },
}
