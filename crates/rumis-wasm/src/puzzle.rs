//! The solitaire (rules §6) and the "How to play" lessons for the app without a server, in
//! the server's shapes (`POST /puzzles/cube`, `GET /puzzles/{name}`, `GET /lessons`:
//! docs/server-api.md): the answers are `rumis_wire::puzzle`'s, the server's own, and the
//! lessons' list the `rumis-lessons` crate's. This module only maps their refusals to the
//! engine's error answer.

use rumis_wire::puzzle::{self, PuzzleError};
use rumis_wire::{PuzzleSolution, PuzzleState};

use crate::failure::{fail, Failure};

fn refused(e: PuzzleError) -> Failure {
    let code = match e {
        PuzzleError::BadSize(_) => "bad_size",
        PuzzleError::TooManyStones => "bad_request",
        PuzzleError::IllegalStone { .. } => "illegal_move",
        PuzzleError::NotFound(_) => "not_found",
        PuzzleError::Internal(_) => "internal",
    };
    fail(code, e.to_string())
}

/// The state of a box after `moves`, or why a stone is refused (`illegal_move`, naming
/// the stone's number).
pub fn cube(size: &str, moves: &[String]) -> Result<PuzzleState, Failure> {
    puzzle::cube(size, moves).map_err(refused)
}

/// A solution to watch: `cube3` or `tower5`.
pub fn solution(name: &str) -> Result<PuzzleSolution, Failure> {
    puzzle::solution(name).map_err(refused)
}

/// The lessons of "How to play" (the server's `GET /lessons`).
pub fn lessons() -> Result<rumis_lessons::Lessons, Failure> {
    rumis_lessons::lessons().map_err(|e| fail("internal", e))
}
