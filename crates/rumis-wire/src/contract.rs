//! The contract written from the wire types: `web/src/wire.ts`, the web app's types for
//! every answer and event. `tests/contract.rs` fails when the checked-in file differs from
//! what this writes, and writes it with `UPDATE_CONTRACT=1`.

use std::path::PathBuf;

use ts_rs::{Config, TS};

use crate::*;

/// Where the TypeScript types go, from the workspace's root.
pub const TYPESCRIPT_FILE: &str = "web/src/wire.ts";

/// The wire types carry colours as `String`s; the app narrows them to the letters the core
/// writes: a player's colour, and a cube's letter (`X`, a ruin).
const LETTERS: &str = "/** A player's colour: red, yellow, green or blue. */\n\
                       export type Colour = \"R\" | \"Y\" | \"G\" | \"B\";\n\n\
                       /** A cube's letter: its colour, or `X` for a ruin. */\n\
                       export type Letter = Colour | \"X\";\n";

/// Appends `T`'s declaration, with its documentation.
fn declare<T: TS + ?Sized + 'static>(cfg: &Config, out: &mut String) {
    out.push('\n');
    if let Some(docs) = T::docs() {
        out.push_str(&docs);
    }
    out.push_str("export ");
    out.push_str(&T::decl(cfg));
    out.push('\n');
}

/// `web/src/wire.ts`: every answer and event type, in one module (they name each other,
/// so none imports).
pub fn typescript() -> String {
    // The API's integers are JSON numbers well within a double's 53 bits (ids are strings,
    // times milliseconds since 1970).
    let cfg = Config::new().with_large_int("number");
    let mut out = String::from(
        "// Written by `UPDATE_CONTRACT=1 cargo test -p rumis-wire --test contract` from the\n\
         // types of crates/rumis-wire: change them, not this file.\n\n",
    );
    out.push_str(LETTERS);
    macro_rules! declare_all {
        ($($t:ty),* $(,)?) => { $(declare::<$t>(&cfg, &mut out);)* };
    }
    declare_all!(
        // Games: creating, moving, undoing, reading.
        Created,
        CreatedSeat,
        MoveAck,
        UndoAck,
        Deleted,
        ResignAck,
        LeaveAck,
        State,
        SiteInfo,
        SeatInfo,
        ColourInfo,
        MoveInfo,
        LastMove,
        PositionInfo,
        ColumnInfo,
        LeftInfo,
        FromPosition,
        ClockInfo,
        SeatClock,
        Placements,
        Placement,
        GameList,
        Summary,
        Hint,
        Analysis,
        MoveLoss,
        ReviewProgress,
        GameReview,
        ReviewedMove,
        ReviewSummary,
        ReviewThresholds,
        // The game's puzzles (training).
        TrainingPuzzle,
        TrainingRating,
        TrainingPlacement,
        TrainingChange,
        TrainingResult,
        // A game's socket.
        Snapshot,
        GameEvent,
        Score,
        // Boards, stones, the solitaire.
        Boards,
        BoardInfo,
        PerCount<()>,
        Layout,
        LayoutCell,
        EvidenceInfo,
        ConstraintInfo,
        BoardChecked,
        CheckedBoard,
        FootprintCell,
        FrameInfo,
        Stones,
        StoneInfo,
        PuzzleState,
        Placed,
        PuzzleSolution,
        Step,
        // Players, the lobby, ratings.
        NewPlayer,
        Rating,
        PlayerRef,
        PlayerPage,
        PlayerGame,
        RatingDelta,
        Lobby,
        Table,
        TableSeat,
        Seated,
        Presence,
        DeclineAck,
        AbortAck,
        Leaderboard,
        LeaderboardEntry,
        // Errors and the index.
        ErrorBody,
        ErrorDetail,
        Index,
    );
    out
}

/// The workspace's root (this crate is `crates/rumis-wire`).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Compares `written` with the checked-in `file` (a path from the workspace's root), or
/// writes it with `UPDATE_CONTRACT=1`; a difference fails, naming the first line that
/// differs and the `command` that writes the file (for the contract tests, this crate's and
/// rumis-wasm's).
pub fn check(file: &str, written: &str, command: &str) {
    let path = root().join(file);
    if std::env::var_os("UPDATE_CONTRACT").is_some_and(|v| v == "1") {
        std::fs::write(&path, written).unwrap_or_else(|e| panic!("writing {file}: {e}"));
        return;
    }
    let held = std::fs::read_to_string(&path).unwrap_or_default();
    if held != written {
        // The first line that differs, as the file has it and as the types write it.
        let (line, (has, writes)) = held
            .lines()
            .map(Some)
            .chain(std::iter::repeat(None))
            .zip(written.lines().map(Some).chain(std::iter::repeat(None)))
            .take(held.lines().count().max(written.lines().count()))
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .unwrap_or((0, (None, None)));
        panic!(
            "{file} is not what the types write: at line {}\n  the file has:    {}\n  the types write: {}\n\
             Write it again and commit it:\n    {command}",
            line + 1,
            has.unwrap_or("(the end of the file)"),
            writes.unwrap_or("(the end of the file)"),
        );
    }
}

/// The narrower types of the OpenAPI schemas: where a wire type carries a `String` that
/// holds one of a few words, its field's schema is one of these (`schema(value_type = …)`),
/// as its TypeScript type is the union `ts(type = …)` names.
pub mod words {
    use serde::Serialize;
    use utoipa::ToSchema;

    /// `[x, y, z]`: file index (0 = a), rank index (0 = rank 1), 0-based level (0 = on the
    /// board).
    #[derive(Serialize, ToSchema)]
    pub struct Cube(pub [u8; 3]);

    /// A player's colour: red, yellow, green or blue.
    #[derive(Serialize, ToSchema)]
    pub enum Colour {
        R,
        Y,
        G,
        B,
    }

    /// A cube's letter: its colour, or `X` for a ruin.
    #[derive(Serialize, ToSchema)]
    pub enum Letter {
        R,
        Y,
        G,
        B,
        X,
    }

    /// A reviewed move's mark, by the loss of the mover's estimate against the best move
    /// found.
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum ReviewMark {
        Inaccuracy,
        Mistake,
        Blunder,
    }

    /// How a puzzle's best placement was proved: by the endgame solver, or by two searches.
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum ProofKind {
        Exact,
        Searched,
    }

    /// Where a review stands: waiting for the AI's threads, being searched, or done.
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum ReviewStatus {
        Queued,
        Running,
        Done,
    }

    /// Where a game stands: waiting for players (a lobby game), being played, played to its
    /// end, left without a move for too long, or called off before it was played.
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum GameStatus {
        Waiting,
        Open,
        Finished,
        Abandoned,
        Aborted,
    }

    /// Who plays a seat: a person or the AI.
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum SeatKind {
        Human,
        Ai,
    }

    /// What a seat's timeout does: its colours are out, or the AI plays it on.
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum OnTimeout {
        Out,
        Ai,
    }

    /// What happens to a colour that cannot place (rules §6).
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum StuckRule {
        Out,
        Pass,
    }

    /// A leaderboard entry: a rated player or an AI level.
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum EntryKind {
        Player,
        Ai,
    }

    /// Where a board comes from: the printed rules, or a reconstruction.
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "kebab-case")]
    pub enum Provenance {
        PrintedRules,
        Reconstruction,
    }

    /// A clock's kind: real-time (per game) or correspondence (per move).
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum ClockKind {
        Realtime,
        Correspondence,
    }

    /// A seat of a table: taken, free, kept for a player (a rematch's), or the AI's.
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum SeatState {
        Taken,
        Free,
        Offered,
        Ai,
    }

    /// Why a game was called off: aborted by a seated player, expired while its creator was
    /// gone, or a rematch one of its players declined.
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum CalledOff {
        Aborted,
        Expired,
        RematchDeclined,
    }

    /// Why a finished rated game was not counted.
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum NotCounted {
        TooFewMoves,
        SamePairToday,
    }
}
pub use words::*;
