//! The API's answers, each a struct or an enum that serializes to what goes over
//! the wire (the crate's front, lib.rs, hands every one of them on); the socket's events are
//! in `events.rs`.

use serde::{Deserialize, Serialize};

/// `201` to `POST /games/{id}/moves` (and `200` with the same body to the same move sent
/// again).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct MoveAck {
    pub number: i64,
    #[cfg_attr(feature = "contract", ts(type = "Colour"))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Colour))]
    pub colour: String,
    pub placement: String,
    pub move_number: i64,
    #[cfg_attr(feature = "contract", ts(type = "Colour | null"))]
    #[cfg_attr(feature = "contract", schema(value_type = Option<crate::contract::Colour>))]
    pub to_move: Option<String>,
    #[cfg_attr(feature = "contract", ts(type = "Array<Colour>"))]
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::Colour>))]
    pub out: Vec<String>,
    /// Under the pass rule (rules §6): the colours that could not place after this move
    /// and passed (they stay in).
    #[cfg_attr(feature = "contract", ts(type = "Array<Colour>"))]
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::Colour>))]
    pub passed: Vec<String>,
    pub over: bool,
}

/// `200` to `POST /games/{id}/undo`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct UndoAck {
    pub removed: Vec<i64>,
    pub move_number: i64,
    #[cfg_attr(feature = "contract", ts(type = "Colour | null"))]
    #[cfg_attr(feature = "contract", schema(value_type = Option<crate::contract::Colour>))]
    pub to_move: Option<String>,
}

/// `200` to `DELETE /games/{id}`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Deleted {
    pub id: String,
    pub deleted: bool,
}

/// A seat in `201` to `POST /games`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct CreatedSeat {
    pub seat: usize,
    #[cfg_attr(feature = "contract", ts(type = "Array<Colour>"))]
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::Colour>))]
    pub colours: Vec<String>,
    #[cfg_attr(feature = "contract", ts(type = "\"human\" | \"ai\""))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::SeatKind))]
    pub kind: String,
    pub level: Option<u8>,
    pub token: Option<String>,
}

/// `201` to `POST /games`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Created {
    pub id: String,
    pub hot_seat: bool,
    pub seats: Vec<CreatedSeat>,
    pub ruins: Vec<String>,
    pub state_url: String,
    pub events_url: String,
    pub record_url: String,
}

/// A seat's time left in a clock.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct SeatClock {
    pub seat: usize,
    pub remaining_ms: i64,
}

/// A game's clock in its state and in `clock` events: the rule, the server's time `now`
/// and each seat's time left at `now` (the running seat's goes on running from then).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct ClockInfo {
    #[cfg_attr(feature = "contract", ts(type = "\"realtime\" | \"correspondence\""))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::ClockKind))]
    pub kind: String,
    pub initial_ms: i64,
    pub increment_ms: i64,
    pub per_move_ms: i64,
    #[cfg_attr(feature = "contract", ts(type = "\"out\" | \"ai\""))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::OnTimeout))]
    pub on_timeout: String,
    pub ai_level: Option<u8>,
    pub now: i64,
    pub running_seat: Option<usize>,
    pub seats: Vec<SeatClock>,
}

/// Where a game made from a position began (`POST /api/v1/games` with `moves`): the moves
/// it was given at its creation (its first moves, played before it began) and the server
/// game they are the start of, if one. Such a game is never rated.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct FromPosition {
    pub moves: usize,
    /// The server game whose first `moves` moves these are (checked at creation).
    pub game: Option<String>,
}

/// A colour that left the game (resigned, or ran out of time), in a state.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct LeftInfo {
    #[cfg_attr(feature = "contract", ts(type = "Colour"))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Colour))]
    pub colour: String,
    pub after_move: usize,
    pub reason: Option<String>,
}

/// `200` to `POST /games/{id}/resign`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct ResignAck {
    pub seat: usize,
    /// The colours this resignation put out (empty when they were out already).
    #[cfg_attr(feature = "contract", ts(type = "Array<Colour>"))]
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::Colour>))]
    pub retired: Vec<String>,
    #[cfg_attr(feature = "contract", ts(type = "Colour | null"))]
    #[cfg_attr(feature = "contract", schema(value_type = Option<crate::contract::Colour>))]
    pub to_move: Option<String>,
    pub over: bool,
}

/// `200` to `POST /games/{id}/leave`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct LeaveAck {
    pub seat: usize,
    #[cfg_attr(feature = "contract", ts(type = "\"human\" | \"ai\""))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::SeatKind))]
    pub kind: String,
    pub level: u8,
    /// `false`: the AI played the seat already; nothing changed.
    pub changed: bool,
}

/// `[x, y, z]`: file index, rank index, 0-based level.
pub type Cube = [u8; 3];

/// A placement with the cubes it would occupy (`/placements`, hints).
// Deserialize too: a game's review is stored as its answer (rumis-server's reviews).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Placement {
    pub placement: String,
    pub stone: String,
    pub orientation: usize,
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::words::Cube>))]
    pub cubes: Vec<Cube>,
}

/// `200` to `GET /games/{id}/placements`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Placements {
    pub move_number: usize,
    #[cfg_attr(feature = "contract", ts(type = "Colour | null"))]
    #[cfg_attr(feature = "contract", schema(value_type = Option<crate::contract::Colour>))]
    pub colour: Option<String>,
    pub placements: Vec<Placement>,
}

/// A game in `GET /games`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Summary {
    pub id: String,
    pub board: String,
    pub players: i64,
    pub variant: String,
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::GameStatus))]
    pub status: String,
    #[cfg_attr(feature = "contract", ts(type = "Colour | null"))]
    #[cfg_attr(feature = "contract", schema(value_type = Option<crate::contract::Colour>))]
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
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct GameList {
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::GameStatus))]
    pub status: String,
    pub games: Vec<Summary>,
}

/// The setup part of a state.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct SiteInfo {
    pub board: String,
    pub files: usize,
    pub ranks: usize,
    pub players: usize,
    pub variant: String,
    #[cfg_attr(feature = "contract", ts(type = "Array<Colour>"))]
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::Colour>))]
    pub colours: Vec<String>,
    #[cfg_attr(feature = "contract", ts(type = "Colour | null"))]
    #[cfg_attr(feature = "contract", schema(value_type = Option<crate::contract::Colour>))]
    pub ruin_colour: Option<String>,
    pub ruins: Vec<String>,
    pub hmax: u8,
    /// `out` or `pass`: what happens to a colour that cannot place (rules §6).
    #[cfg_attr(feature = "contract", ts(type = "\"out\" | \"pass\""))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::StuckRule))]
    pub stuck_rule: String,
    /// Whether the board is one of the players' own, not a scenario.
    pub custom: bool,
    /// A board of one's own: its file, as the game was created with it.
    pub board_file: Option<String>,
}

/// A seat in a state (no token).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct SeatInfo {
    pub seat: usize,
    #[cfg_attr(feature = "contract", ts(type = "Array<Colour>"))]
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::Colour>))]
    pub colours: Vec<String>,
    #[cfg_attr(feature = "contract", ts(type = "\"human\" | \"ai\""))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::SeatKind))]
    pub kind: String,
    pub level: Option<u8>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct ColourInfo {
    #[cfg_attr(feature = "contract", ts(type = "Colour"))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Colour))]
    pub colour: String,
    pub name: String,
    pub seat: Option<usize>,
    pub out: bool,
    pub score: Option<i32>,
    pub stones_left: Vec<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct MoveInfo {
    pub number: i64,
    #[cfg_attr(feature = "contract", ts(type = "Colour"))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Colour))]
    pub colour: String,
    pub placement: String,
    pub created: i64,
    /// The colours that passed after this move (the pass rule, rules §6).
    #[cfg_attr(feature = "contract", ts(type = "Array<Colour>"))]
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::Colour>))]
    pub passed: Vec<String>,
}

/// The move just before `at`, with the cubes it took.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct LastMove {
    pub number: usize,
    #[cfg_attr(feature = "contract", ts(type = "Colour"))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Colour))]
    pub colour: String,
    pub placement: String,
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::words::Cube>))]
    pub cubes: Vec<Cube>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct ColumnInfo {
    pub cell: String,
    pub x: usize,
    pub y: usize,
    pub limit: u8,
    pub height: u8,
    #[cfg_attr(feature = "contract", ts(type = "Letter | null"))]
    #[cfg_attr(feature = "contract", schema(value_type = Option<crate::contract::Letter>))]
    pub top: Option<String>,
    #[cfg_attr(feature = "contract", ts(type = "Array<Letter>"))]
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::Letter>))]
    pub cubes: Vec<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct PositionInfo {
    pub cube_count: usize,
    pub columns: Vec<ColumnInfo>,
}

/// The first message of a game's WebSocket, and the one after events may have been missed:
/// `{ "type": "snapshot", "state": ... }`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Snapshot {
    Snapshot { state: Box<State> },
}

/// `200` to `GET /games/{id}`, and the snapshot of the events.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
// The app has states of its own (the editor's, the store's): this one is the game's.
#[cfg_attr(feature = "contract", ts(rename = "GameState"))]
pub struct State {
    pub id: String,
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::GameStatus))]
    pub status: String,
    pub created: i64,
    pub updated: i64,
    pub hot_seat: bool,
    pub site: SiteInfo,
    pub seats: Vec<SeatInfo>,
    pub moves_played: usize,
    pub at: usize,
    pub move_number: usize,
    #[cfg_attr(feature = "contract", ts(type = "Colour | null"))]
    #[cfg_attr(feature = "contract", schema(value_type = Option<crate::contract::Colour>))]
    pub to_move: Option<String>,
    pub seat_to_move: Option<usize>,
    pub over: bool,
    pub colours: Vec<ColourInfo>,
    pub players: Vec<i32>,
    pub winners: Option<Vec<usize>>,
    /// Once the game is over, each player's place (1 = first): by score, the players that
    /// forfeited last (rules §5.1).
    pub places: Option<Vec<usize>>,
    /// The players (seats) that forfeited so far: resigned, or ran out of time under the
    /// "out" rule (rules §5.1).
    pub forfeited: Vec<usize>,
    pub moves: Vec<MoveInfo>,
    pub last_move: Option<LastMove>,
    pub legal_moves: Vec<String>,
    pub position: PositionInfo,
    /// The game's clock, if it has one.
    pub clock: Option<ClockInfo>,
    /// The colours that left the game (resigned, or ran out of time), in order.
    pub left: Vec<LeftInfo>,
    /// A game made from a position: where it began (`null` for a game from the start).
    pub from_position: Option<FromPosition>,
}

/// Every 4xx and 5xx answer: a stable code, a sentence, and for some codes a detail.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema, utoipa::ToResponse))]
#[cfg_attr(feature = "contract", response(description = "A refusal; nothing changed"))]
pub struct ErrorBody {
    /// A stable code (the server's document lists them).
    pub error: String,
    /// What went wrong, in a sentence (English).
    pub reason: String,
    #[serde(flatten)]
    pub detail: ErrorDetail,
}

/// The details some errors carry (absent fields are not sent).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct ErrorDetail {
    /// `429` and `503`: when to try again (also in `Retry-After`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub retry_after_seconds: Option<u64>,
    /// `stale_move_number`: the next move's number; `illegal_move` of a game made from a
    /// position (`moves`): the move refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub move_number: Option<i64>,
    /// `not_your_turn`: whose turn it is (`null`: nobody's).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional, type = "Colour | null"))]
    #[cfg_attr(feature = "contract", schema(value_type = Option<crate::contract::Colour>))]
    pub to_move: Option<Option<String>>,
    /// `bad_move` of a puzzle: which of the moves sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub index: Option<usize>,
    /// `bad_board`: where in the file, and what.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub message: Option<String>,
    /// `waiting_for_players`: how many seats are still free.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub free_seats: Option<usize>,
}

/// `200` to `GET /api/v1`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Index {
    pub name: String,
    pub api: u32,
    pub endpoints: Vec<String>,
}

/// A value for each player count, keyed `"2"`, `"3"`, `"4"`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct PerCount<T> {
    #[serde(rename = "2")]
    pub two: T,
    #[serde(rename = "3")]
    pub three: T,
    #[serde(rename = "4")]
    pub four: T,
}

impl<T> PerCount<T> {
    pub fn by(f: impl Fn(usize) -> T) -> PerCount<T> {
        PerCount {
            two: f(2),
            three: f(3),
            four: f(4),
        }
    }
}

/// A buildable cell of a board for a player count (frames applied).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct LayoutCell {
    pub cell: String,
    pub x: usize,
    pub y: usize,
    pub printed: Option<u8>,
    pub limit: u8,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Layout {
    pub hmax: u8,
    pub cells: Vec<LayoutCell>,
}

/// A scenario in `GET /boards`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct BoardInfo {
    pub name: String,
    pub aliases: Vec<String>,
    pub files: usize,
    pub ranks: usize,
    pub hmax: PerCount<u8>,
    pub columns: PerCount<usize>,
    #[cfg_attr(feature = "contract", ts(type = "\"printed-rules\" | \"reconstruction\""))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Provenance))]
    pub provenance: String,
    pub source: String,
    pub layouts: PerCount<Layout>,
    /// Sourced facts about the board (its file's `[[evidence]]`).
    pub evidence: Vec<EvidenceInfo>,
}

/// `200` to `GET /boards`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Boards {
    pub boards: Vec<BoardInfo>,
}

/// A stone in `GET /stones`: each orientation's cells, and where a quarter turn about x, y
/// or z takes it.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct StoneInfo {
    pub code: String,
    pub size: usize,
    pub orientations: Vec<Vec<[i8; 3]>>,
    pub turns: Vec<[usize; 3]>,
}

/// `200` to `GET /stones`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Stones {
    pub stones: Vec<StoneInfo>,
}

/// A footprint cell in a checked board (its printed height, if any).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct FootprintCell {
    pub cell: String,
    pub x: usize,
    pub y: usize,
    pub printed: Option<u8>,
}

/// A red frame: its text and its file and rank ranges.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct FrameInfo {
    pub text: String,
    pub files: [u8; 2],
    pub ranks: [u8; 2],
}

/// A constraint as a board file writes it, with the core's words for it.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ConstraintInfo {
    MinCells { players: usize, value: usize, text: String },
    Hmax { players: usize, value: u8, text: String },
    ReachesLevel { players: usize, value: u8, text: String },
    FramesFor { counts: Vec<usize>, text: String },
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct EvidenceInfo {
    pub fact: String,
    pub source: String,
    pub constraints: Vec<ConstraintInfo>,
}

/// A board as the editor needs it: every field of its file, and what the core derives from
/// it for each player count.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct CheckedBoard {
    pub name: String,
    pub aliases: Vec<String>,
    #[cfg_attr(feature = "contract", ts(type = "\"printed-rules\" | \"reconstruction\""))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Provenance))]
    pub provenance: String,
    pub source: String,
    pub files: usize,
    pub ranks: usize,
    pub footprint: Vec<FootprintCell>,
    pub hmax: PerCount<u8>,
    pub frames: PerCount<Option<FrameInfo>>,
    pub columns: PerCount<usize>,
    pub volume: PerCount<usize>,
    pub layouts: PerCount<Layout>,
    pub evidence: Vec<EvidenceInfo>,
}

/// `200` to `POST /boards/check`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct BoardChecked {
    pub board: CheckedBoard,
}

/// `200` to `POST /games/{id}/hint`: a placement for the colour to move, with the search's
/// figures.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Hint {
    #[serde(flatten)]
    pub placement: Placement,
    #[cfg_attr(feature = "contract", ts(type = "Colour"))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Colour))]
    pub colour: String,
    /// The mover's mean reward over the whole search: 0 (last, by far) to 1 (first, by far).
    #[cfg_attr(feature = "contract", schema(minimum = 0, maximum = 1))]
    pub estimate: f64,
    pub simulations: u64,
    pub level: u8,
}

/// A move of an analysis and what it lost for its colour.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct MoveLoss {
    pub number: usize,
    #[cfg_attr(feature = "contract", ts(type = "Colour"))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Colour))]
    pub colour: String,
    pub placement: String,
    pub loss: f64,
}

/// `200` to `GET /games/{id}/analysis`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Analysis {
    #[cfg_attr(feature = "contract", ts(type = "Array<Colour>"))]
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::Colour>))]
    pub colours: Vec<String>,
    pub moves_played: usize,
    pub simulations: u64,
    /// Per position, each colour's win estimate.
    pub estimates: Vec<std::collections::BTreeMap<String, f64>>,
    pub moves: Vec<MoveLoss>,
    pub worst: Vec<usize>,
}

/// A stone in a puzzle box.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Placed {
    pub placement: String,
    pub stone: String,
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::words::Cube>))]
    pub cubes: Vec<Cube>,
}

/// `200` to `POST /puzzles/cube`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct PuzzleState {
    pub size: [usize; 3],
    pub volume: usize,
    pub filled: usize,
    pub solved: bool,
    pub stuck: bool,
    pub stones_left: Vec<String>,
    pub placed: Vec<Placed>,
    pub placements: Vec<Placement>,
}

/// A stone of a solution, with its colour.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Step {
    #[cfg_attr(feature = "contract", ts(type = "Colour"))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Colour))]
    pub colour: String,
    pub placement: String,
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::words::Cube>))]
    pub cubes: Vec<Cube>,
}

/// `200` to `GET /puzzles/{name}`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct PuzzleSolution {
    pub name: String,
    pub size: [usize; 3],
    pub record: Option<String>,
    pub steps: Vec<Step>,
}
