//! The engine's protocol: what the web app's worker sends ([`Request`], one variant per
//! command, tagged by its `cmd`) and what each command answers (its answer type, named
//! beside the variant in [`commands!`]). A refusal is the server's error body,
//! [`rumis_wire::ErrorBody`]: `{"error": CODE, "reason": TEXT}`, with a refused board
//! file's `file`, `line` and `message`.
//!
//! The web app's side, `web/src/engine/protocol.ts`, is written from these types (the
//! module `contract`, with the feature `contract`; `tests/protocol.rs` fails when the
//! checked-in file differs). Many answers are the server's own shapes (`rumis_wire`), so a
//! page reads one shape from either.

use rumis_wire as wire;
use serde::{Deserialize, Serialize};

#[cfg(feature = "contract")]
pub mod contract;

/// Declares [`Request`] and, for the contract, each command's answer type. One line per
/// command: `"cmd" => Variant(RequestFields) -> Answer` (a command without fields has no
/// parenthesis).
macro_rules! commands {
    ($($(#[$doc:meta])* $cmd:literal => $variant:ident $(($fields:ty))? -> $answer:ty,)*) => {
        /// A request to the engine: `{"cmd": NAME, ...the command's fields}`.
        #[derive(Clone, Debug, Deserialize, PartialEq)]
        #[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(rename = "EngineRequest"))]
        #[serde(tag = "cmd")]
        pub enum Request {
            $($(#[$doc])* #[serde(rename = $cmd)] $variant $(($fields))?,)*
        }

        impl Request {
            /// Every command's name, in the order declared.
            pub const COMMANDS: &'static [&'static str] = &[$($cmd),*];
        }

        /// Each command's name with its answer's TypeScript type (the contract's
        /// `EngineAnswers`).
        #[cfg(feature = "contract")]
        pub fn answer_types(cfg: &ts_rs::Config) -> Vec<(&'static str, String)> {
            vec![$(($cmd, <$answer as ts_rs::TS>::name(cfg))),*]
        }

        /// Each command's answer type, for the contract's imports and declarations.
        #[cfg(feature = "contract")]
        pub fn visit_answers(v: &mut impl ts_rs::TypeVisitor) {
            $(v.visit::<$answer>();)*
        }
    };
}

commands! {
    /// A new game: its record and its state.
    "new" => New(NewRequest) -> NewAnswer,
    /// A record checked by the core and written back.
    "read_record" => ReadRecord(ReadRecordRequest) -> ReadRecordAnswer,
    /// The state the app draws (the server's `GET /games/{id}`).
    "state" => State(StateRequest) -> wire::State,
    /// The legal placements of the colour to move, with their cubes.
    "placements" => Placements(RecordRequest) -> wire::Placements,
    /// The legal placements as text, sorted (what the differential test compares).
    "legal" => Legal(RecordRequest) -> LegalAnswer,
    /// A placement played: the record after it, and what it did.
    "play" => Play(PlayRequest) -> PlayAnswer,
    /// Back to before the last move of a person (the last move when no seats are given).
    "undo" => Undo(UndoRequest) -> UndoAnswer,
    /// The level's choice (not played).
    "ai" => Ai(AiRequest) -> AiAnswer,
    /// A placement for the colour to move, searched at a level of 4 to 9.
    "hint" => Hint(HintRequest) -> wire::Hint,
    /// Every position searched: each colour's estimate and what each move cost its mover.
    "analysis" => Analysis(AnalysisRequest) -> wire::Analysis,
    /// A finished game's review: every move beside the best placement found, marks, a
    /// summary per colour (the server's `GET /games/{id}/review`'s `review`, the same for
    /// the same record and budget). With `searches`, at most that many searches a call:
    /// the caller asks again for the same record until the answer holds the review.
    "review" => Review(ReviewRequest) -> ReviewAnswer,
    /// Random games to the end (a speed figure).
    "playouts" => Playouts(PlayoutsRequest) -> PlayoutsAnswer,
    /// The core's perft (rules §8), depth 1 to 3 (a speed figure, and a check of the
    /// generator).
    "perft" => Perft(PerftRequest) -> PerftAnswer,
    /// The generator's code path in this build.
    "engine" => Engine -> EngineAnswer,
    /// The box after the stones (the server's `POST /puzzles/cube`).
    "puzzle" => Puzzle(PuzzleRequest) -> wire::PuzzleState,
    /// A solution to watch, `cube3` or `tower5` (`GET /puzzles/{name}`).
    "puzzle_solution" => PuzzleSolution(PuzzleSolutionRequest) -> wire::PuzzleSolution,
    /// The "How to play" examples (`GET /lessons`).
    "lessons" => Lessons -> rumis_lessons::Lessons,
    /// The built-in boards (`GET /boards`).
    "boards" => Boards -> wire::Boards,
    /// The stones (`GET /stones`).
    "stones" => Stones -> wire::Stones,
    /// A board file read by the core (`POST /boards/check`); refused: `bad_board` with
    /// `file`, `line` and `message`.
    "check_board" => CheckBoard(CheckBoardRequest) -> wire::BoardChecked,
    /// A scenario's own board file.
    "board_toml" => BoardToml(BoardTomlRequest) -> BoardTomlAnswer,
    /// The daily puzzle of a day, or the next puzzle for a rating, among the puzzles given
    /// (the server's choice: `rumis_ai::puzzles::pick`).
    "training_pick" => TrainingPick(TrainingPickRequest) -> TrainingPickAnswer,
    /// A puzzle to solve (the server's `GET /training/{id}`).
    "training_puzzle" => TrainingPuzzle(TrainingPuzzleRequest) -> wire::TrainingPuzzle,
    /// An answer to a puzzle judged, and the ratings after it (the server's `POST
    /// /training/{id}/attempt`).
    "training_attempt" => TrainingAttempt(TrainingAttemptRequest) -> wire::TrainingResult,
}

/// `training_pick`: the daily puzzle of `day` when it is given, else the next one for a
/// player of `rating` who tried `tried`, as `filter` says.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(optional_fields))]
#[serde(deny_unknown_fields)]
pub struct TrainingPickRequest {
    pub candidates: Vec<rumis_ai::puzzles::pick::Candidate>,
    /// Days since 1970-01-01 (UTC).
    #[serde(default)]
    pub day: Option<i64>,
    #[serde(default)]
    pub rating: Option<f64>,
    #[serde(default)]
    pub tried: Option<Vec<String>>,
    #[serde(default)]
    pub filter: Option<rumis_ai::puzzles::pick::Filter>,
    /// Which of the nearest puzzles (any number; the page's random one).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// The puzzle chosen (none when the filter admits none), and a daily puzzle's date.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct TrainingPickAnswer {
    pub id: Option<String>,
    pub date: Option<String>,
}

/// `training_puzzle`: a shipped puzzle (one of `training.json`'s files: its scenario and
/// player count, and the puzzle), with what the page knows of its player.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(optional_fields))]
#[serde(deny_unknown_fields)]
pub struct TrainingPuzzleRequest {
    pub board: String,
    pub players: usize,
    pub puzzle: rumis_ai::puzzles::Puzzle,
    /// The daily puzzle's date, when it is that.
    #[serde(default)]
    pub daily: Option<String>,
    /// The player's puzzle rating kept in this browser.
    #[serde(default)]
    pub you: Option<wire::TrainingRating>,
    #[serde(default)]
    pub tried: Option<bool>,
}

/// `training_attempt`: an answer to a shipped puzzle; rated when the player's rating is
/// given and they had not tried the puzzle.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(optional_fields))]
#[serde(deny_unknown_fields)]
pub struct TrainingAttemptRequest {
    pub board: String,
    pub players: usize,
    pub puzzle: rumis_ai::puzzles::Puzzle,
    pub placement: String,
    #[serde(default)]
    pub you: Option<wire::TrainingRating>,
    #[serde(default)]
    pub tried: Option<bool>,
}

/// Who sits at a player's place: `"human"` or `"ai"` with a level.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct Seat {
    #[cfg_attr(feature = "contract", ts(type = "\"human\" | \"ai\""))]
    pub kind: String,
    #[serde(default)]
    #[cfg_attr(feature = "contract", ts(optional = nullable))]
    pub level: Option<u8>,
}

/// `new`: a game on a built-in scenario (`board`) or on a board file (`board_file`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(optional_fields))]
#[serde(deny_unknown_fields)]
pub struct NewRequest {
    /// A built-in scenario by name, or else
    #[serde(default)]
    pub board: Option<String>,
    /// a board file's text (rules §3), as the server's `board_file`.
    #[serde(default)]
    pub board_file: Option<String>,
    pub players: usize,
    #[serde(default)]
    pub variant: Option<String>,
    /// The order of play as letters, e.g. "YR"; the first colours of R, Y, G, B if absent.
    #[serde(default)]
    pub colours: Option<String>,
    /// `out` (the rulebooks', when absent) or `pass` (rules §6's house rule).
    #[serde(default)]
    pub stuck_rule: Option<String>,
    /// Ruinas: the seed of the random ruins (rules §6), unless `ruins` are given.
    #[serde(default)]
    pub ruins_seed: Option<u64>,
    /// Ruinas: the ruins as placements, in order.
    #[serde(default)]
    pub ruins: Option<Vec<String>>,
}

/// `read_record`: a record's text (rules §7).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct ReadRecordRequest {
    pub text: String,
}

/// `state`: a game, in the frame the app knows it in.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(optional_fields))]
#[serde(deny_unknown_fields)]
pub struct StateRequest {
    pub record: String,
    /// Only the first `at` moves (all when absent).
    #[serde(default)]
    pub at: Option<usize>,
    /// Who sits at each player's place (index = player); people when absent.
    #[serde(default)]
    pub seats: Option<Vec<Seat>>,
    #[serde(default)]
    pub hot_seat: Option<bool>,
    /// The game's id in this browser, which the state carries.
    #[serde(default)]
    pub id: Option<String>,
}

/// `placements`, `legal`: a game.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct RecordRequest {
    pub record: String,
}

/// `play`: a placement in notation for the colour to move.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    pub record: String,
    /// Required (refused without: `bad_request`, "play needs a placement").
    #[serde(default)]
    #[cfg_attr(feature = "contract", ts(type = "string"))]
    pub placement: Option<String>,
}

/// `undo`: a game and who sits where.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(optional_fields))]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    pub record: String,
    /// Who sits at each player's place; without, the last move is taken back.
    #[serde(default)]
    pub seats: Option<Vec<Seat>>,
}

/// `ai`: a game and a level.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct AiRequest {
    pub record: String,
    /// 1 to 9. Required (refused without: `bad_request`, "ai needs a level (1 to 9)").
    #[serde(default)]
    #[cfg_attr(feature = "contract", ts(type = "number"))]
    pub level: Option<u8>,
    /// The seed of the engine's choices (1 when absent).
    #[serde(default)]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub seed: Option<u64>,
}

/// `hint`: a game, the level of the search (4 to 9; 6 when absent) and its seed (1).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(optional_fields))]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    pub record: String,
    #[serde(default)]
    pub level: Option<u8>,
    #[serde(default)]
    pub seed: Option<u64>,
}

/// `analysis`: a game, and the simulations per position (200 when absent).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(optional_fields))]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    pub record: String,
    #[serde(default)]
    pub count: Option<u32>,
}

/// `review`: a game, and the simulations per position (10 000, level 8's budget and the
/// server's, when absent; at most 100 000).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(optional_fields))]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    pub record: String,
    #[serde(default)]
    pub simulations: Option<u64>,
    /// At most this many searches in this call (the whole review when absent). The review
    /// under way is kept between calls while they ask for the same record and budget, so
    /// that a page can show its progress; another record starts afresh.
    #[serde(default)]
    pub searches: Option<u32>,
}

/// `playouts`: how many random games from the game's position (100 when absent, at most
/// a million), and their seed (1).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(optional_fields))]
#[serde(deny_unknown_fields)]
pub struct PlayoutsRequest {
    pub record: String,
    #[serde(default)]
    pub count: Option<u32>,
    #[serde(default)]
    pub seed: Option<u64>,
}

/// `perft`: how many placements deep (1 when absent, at most 3: the browser has no time
/// limit to cut a deep count short).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(optional_fields))]
#[serde(deny_unknown_fields)]
pub struct PerftRequest {
    pub record: String,
    #[serde(default)]
    pub depth: Option<u32>,
}

/// `puzzle`: the box's size (`3x3x3` when absent) and the stones placed in it, in order.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct PuzzleRequest {
    #[serde(default)]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub size: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
}

/// `puzzle_solution`: `cube3` or `tower5`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct PuzzleSolutionRequest {
    #[serde(default)]
    #[cfg_attr(feature = "contract", ts(type = "string"))]
    pub name: Option<String>,
}

/// `check_board`: a board file's text, and its name for the messages (`board.toml`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct CheckBoardRequest {
    pub toml: String,
    #[serde(default)]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub file: Option<String>,
}

/// `board_toml`: a scenario's name.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct BoardTomlRequest {
    pub name: String,
}

/// `new`'s answer.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct NewAnswer {
    pub record: String,
    pub state: wire::State,
}

/// `read_record`'s answer: the record as the core writes it, and what it is a game of.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct ReadRecordAnswer {
    pub record: String,
    pub board: String,
    pub players: usize,
    pub variant: String,
    /// How many moves it has.
    pub moves: usize,
    pub over: bool,
}

/// `legal`'s answer.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct LegalAnswer {
    pub legal: Vec<String>,
}

/// `play`'s answer: the record after the move, the move, and who is to move.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct PlayAnswer {
    pub record: String,
    /// The move's number (1 for the first).
    pub number: usize,
    #[cfg_attr(feature = "contract", ts(type = "Colour"))]
    pub colour: String,
    /// The placement, as the core writes it.
    pub placement: String,
    #[cfg_attr(feature = "contract", ts(type = "Colour | null"))]
    pub to_move: Option<String>,
    /// The colours this move put out, in the order of play.
    #[cfg_attr(feature = "contract", ts(type = "Array<Colour>"))]
    pub out: Vec<String>,
    pub over: bool,
}

/// `undo`'s answer: the record after, and the numbers of the moves taken back.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct UndoAnswer {
    pub record: String,
    pub removed: Vec<usize>,
}

/// `ai`'s answer: the placement chosen and the simulations searched (0 at levels 1 to 3).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct AiAnswer {
    pub placement: String,
    pub simulations: u64,
}

/// `playouts`' answer: the games played and their plies in all.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct PlayoutsAnswer {
    pub games: u32,
    pub plies: u64,
}

/// `review`'s answer: the searches done and known to be needed so far, and the review
/// once complete.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct ReviewAnswer {
    pub done: usize,
    pub total: usize,
    pub review: Option<wire::GameReview>,
}

/// `perft`'s answer.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct PerftAnswer {
    pub depth: u32,
    pub leaves: u64,
}

/// `engine`'s answer: the generator's code path (`simd128` in a module compiled with
/// WebAssembly SIMD, else `scalar`; natively the CPU's widest), and whether the module
/// uses relaxed SIMD (`i8x16.relaxed_swizzle`).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct EngineAnswer {
    pub code_path: String,
    pub relaxed_simd: bool,
}

/// `board_toml`'s answer: the scenario's board file.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct BoardTomlAnswer {
    pub toml: String,
}
