//! The solitaire (rules §6) as the app reads it: a box being filled by a person, checked
//! by the core and the solver at every stone (stateless: the client sends its stones), and
//! solutions to watch (`POST /puzzles/cube`, `GET /puzzles/{name}`: docs/server-api.md).
//! The server maps a [`PuzzleError`] to its HTTP status, the engine in the browser to its
//! error answer.

use std::fmt;
use std::sync::OnceLock;

use rumis_core::{record, Board, Cube, Position, Record, Site};
use rumis_solve::puzzle::CubePuzzle;
use rumis_solve::{BoxSize, Goal, Solver};

use crate::boards::{cubes_of, placement_on};
use crate::{Placed, Placement, PuzzleSolution, PuzzleState, Step};

/// The 5 x 5 x 5 in turn, as committed (`rumis solve tower5` reproduces it).
const TOWER5_RECORD: &str = include_str!("../../../examples/tower5.txt");
const TOWER5_BOARD: &str = include_str!("../../../examples/tower5.toml");

/// Boxes the puzzle takes: small enough that every answer is immediate.
pub const MAX_SIDE: usize = 8;

/// The most stones a box takes (the eleven stones of each of the four colours).
pub const MAX_STONES: usize = 44;

/// Why a puzzle request is refused.
#[derive(Clone, Debug, PartialEq)]
pub enum PuzzleError {
    /// Not a box size, or a box too large.
    BadSize(String),
    /// More stones than a box takes.
    TooManyStones,
    /// The stone at `index` (from 0) is refused by the rules.
    IllegalStone { index: usize, reason: String },
    /// No puzzle of that name.
    NotFound(String),
    /// A committed solution failed to rebuild (a fault of the program, not the request).
    Internal(String),
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleError::BadSize(why) | PuzzleError::Internal(why) => f.write_str(why),
            PuzzleError::TooManyStones => write!(f, "a box takes at most {MAX_STONES} stones"),
            PuzzleError::IllegalStone { index, reason } => write!(f, "stone {}: {reason}", index + 1),
            PuzzleError::NotFound(name) => write!(f, "no puzzle '{name}'; there are cube3 and tower5"),
        }
    }
}

impl std::error::Error for PuzzleError {}

fn size_of(s: BoxSize) -> [usize; 3] {
    [s.x, s.y, s.z]
}

/// The state of a box after `moves` (each a placement in notation), or why a stone is
/// refused.
pub fn cube(size: &str, moves: &[String]) -> Result<PuzzleState, PuzzleError> {
    let size = BoxSize::parse(size).map_err(PuzzleError::BadSize)?;
    if size.x > MAX_SIDE || size.y > MAX_SIDE || size.z > MAX_SIDE {
        return Err(PuzzleError::BadSize(format!(
            "a puzzle box is at most {MAX_SIDE} on a side"
        )));
    }
    if moves.len() > MAX_STONES {
        return Err(PuzzleError::TooManyStones);
    }
    let mut puzzle = CubePuzzle::new(size).map_err(PuzzleError::BadSize)?;
    let mut placed = Vec::new();
    for (index, text) in moves.iter().enumerate() {
        let before = puzzle.position().clone();
        let m = puzzle.play(text).map_err(|e| PuzzleError::IllegalStone {
            index,
            reason: e.to_string(),
        })?;
        let site = puzzle.site();
        placed.push(Placed {
            placement: site.notation(m),
            stone: site.template(m).stone.code().into(),
            cubes: cubes_of(&site.cubes(&before, m)),
        });
    }
    let site = puzzle.site();
    let mut legal: Vec<(String, Placement)> = puzzle
        .legal()
        .into_iter()
        .map(|m| (site.notation(m), placement_on(site, puzzle.position(), m)))
        .collect();
    legal.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(PuzzleState {
        size: size_of(size),
        volume: puzzle.volume(),
        filled: puzzle.filled(),
        solved: puzzle.is_solved(),
        stuck: puzzle.is_stuck(),
        stones_left: puzzle.stones_left().iter().map(|s| s.code().to_string()).collect(),
        placed,
        placements: legal.into_iter().map(|(_, v)| v).collect(),
    })
}

/// A solution to watch: `cube3` (a filling of the 3 x 3 x 3 with one colour, built from
/// below) or `tower5` (the 5 x 5 x 5 in turn). Computed once.
pub fn solution(name: &str) -> Result<PuzzleSolution, PuzzleError> {
    static CUBE3: OnceLock<Result<PuzzleSolution, String>> = OnceLock::new();
    static TOWER5: OnceLock<Result<PuzzleSolution, String>> = OnceLock::new();
    let cell = match name {
        "cube3" => CUBE3.get_or_init(cube3),
        "tower5" => TOWER5.get_or_init(tower5),
        _ => return Err(PuzzleError::NotFound(name.into())),
    };
    cell.clone().map_err(PuzzleError::Internal)
}

fn cube3() -> Result<PuzzleSolution, String> {
    let size = BoxSize { x: 3, y: 3, z: 3 };
    // One thread: the same answer everywhere, and WebAssembly in a page has none to spawn.
    let report = Solver::new(size, 1)?.solve(Goal::First, 1, &|_, _| {});
    let filling = report.fillings.first().ok_or("the 3x3x3 has no filling")?;
    let order = CubePuzzle::build_order(size, filling).ok_or("the first filling cannot be built from below")?;
    let mut puzzle = CubePuzzle::new(size)?;
    let mut steps = Vec::new();
    for text in &order {
        let before = puzzle.position().clone();
        let m = puzzle.play(text)?;
        steps.push(Step {
            colour: "R".into(),
            placement: text.clone(),
            cubes: cubes_of(&puzzle.site().cubes(&before, m)),
        });
    }
    Ok(PuzzleSolution {
        name: "cube3".into(),
        size: size_of(size),
        record: None,
        steps,
    })
}

fn tower5() -> Result<PuzzleSolution, String> {
    let board = Board::from_toml("examples/tower5.toml", TOWER5_BOARD).map_err(|e| e.to_string())?;
    let rec = Record::parse(TOWER5_RECORD).map_err(|e| e.to_string())?;
    let game = rec
        .to_game(|_| Ok::<_, String>(board.clone()))
        .map_err(|e| e.to_string())?;
    let site: &Site = game.site();
    let mut steps = Vec::new();
    for (i, &m) in game.moves().iter().enumerate() {
        let before: &Position = &game.positions()[i];
        let colour = game.mover(i).ok_or("a move without a mover")?;
        steps.push(Step {
            colour: colour.to_string(),
            placement: site.notation(m),
            cubes: cubes_of(&site.cubes(before, m)),
        });
    }
    let full = site.footprint().all(|c| game.position().height(c) == 5)
        && site
            .footprint()
            .all(|c| (1..=5).all(|z| !matches!(game.position().cube(c, z), None | Some(Cube::Ruin))));
    if !full {
        return Err("the committed tower5 record does not fill the box".into());
    }
    Ok(PuzzleSolution {
        name: "tower5".into(),
        size: [5, 5, 5],
        record: Some(record::write(&game)),
        steps,
    })
}
