//! The solitaire (rules §6) for the web app: a box being filled by a person, checked by the
//! core at every stone (stateless: the client sends its stones), and solutions to watch.

use std::sync::OnceLock;

use crate::error::ApiError;
use crate::view::{cubes_of as cubes, placement_on};
use crate::wire::{self, ErrorDetail};
use rumis_core::{record, Board, Colour, Cube, Position, Record, Site};
use rumis_solve::puzzle::CubePuzzle;
use rumis_solve::{BoxSize, Goal, Solver};

/// The 5 x 5 x 5 in turn, as committed (`rumis solve tower5` reproduces it).
const TOWER5_RECORD: &str = include_str!("../../../examples/tower5.txt");
const TOWER5_BOARD: &str = include_str!("../../../examples/tower5.toml");

/// Boxes the puzzle takes: small enough that every answer is immediate.
const MAX_SIDE: usize = 8;

fn size_of(s: BoxSize) -> [usize; 3] {
    [s.x, s.y, s.z]
}

/// The state of a box after `moves` (each a placement in notation), or why a stone is refused.
pub fn cube(size: &str, moves: &[String]) -> Result<wire::PuzzleState, ApiError> {
    let size = BoxSize::parse(size).map_err(|e| ApiError::bad_request("bad_size", e))?;
    if size.x > MAX_SIDE || size.y > MAX_SIDE || size.z > MAX_SIDE {
        return Err(ApiError::bad_request(
            "bad_size",
            format!("a puzzle box is at most {MAX_SIDE} on a side"),
        ));
    }
    if moves.len() > 44 {
        return Err(ApiError::bad_request("bad_json", "a box takes at most 44 stones"));
    }
    let mut puzzle = CubePuzzle::new(size).map_err(|e| ApiError::bad_request("bad_size", e))?;
    let mut placed = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let before = puzzle.position().clone();
        let m = puzzle.play(text).map_err(|e| {
            ApiError::new(
                axum::http::StatusCode::UNPROCESSABLE_ENTITY,
                "illegal_move",
                format!("stone {}: {e}", i + 1),
            )
            .with(ErrorDetail {
                index: Some(i),
                ..ErrorDetail::default()
            })
        })?;
        let site = puzzle.site();
        placed.push(wire::Placed {
            placement: site.notation(m),
            stone: site.template(m).stone.code().into(),
            cubes: cubes(&site.cubes(&before, m)),
        });
    }
    let site = puzzle.site();
    let mut legal: Vec<(String, wire::Placement)> = puzzle
        .legal()
        .into_iter()
        .map(|m| (site.notation(m), placement_on(site, puzzle.position(), m)))
        .collect();
    legal.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(wire::PuzzleState {
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
pub fn solution(name: &str) -> Result<wire::PuzzleSolution, ApiError> {
    static CUBE3: OnceLock<Result<wire::PuzzleSolution, String>> = OnceLock::new();
    static TOWER5: OnceLock<Result<wire::PuzzleSolution, String>> = OnceLock::new();
    let cell = match name {
        "cube3" => CUBE3.get_or_init(cube3),
        "tower5" => TOWER5.get_or_init(tower5),
        _ => {
            return Err(ApiError::new(
                axum::http::StatusCode::NOT_FOUND,
                "not_found",
                format!(
                    "no puzzle '{}'; there are cube3 and tower5",
                    crate::error::printable(name)
                ),
            ))
        }
    };
    cell.clone().map_err(ApiError::internal)
}

fn cube3() -> Result<wire::PuzzleSolution, String> {
    let size = BoxSize { x: 3, y: 3, z: 3 };
    let report = Solver::new(size, 1)?.solve(Goal::First, 1, &|_, _| {});
    let filling = report.fillings.first().ok_or("the 3x3x3 has no filling")?;
    let order = CubePuzzle::build_order(size, filling).ok_or("the first filling cannot be built from below")?;
    let mut puzzle = CubePuzzle::new(size)?;
    let mut steps = Vec::new();
    for text in &order {
        let before = puzzle.position().clone();
        let m = puzzle.play(text)?;
        steps.push(wire::Step {
            colour: "R".into(),
            placement: text.clone(),
            cubes: cubes(&puzzle.site().cubes(&before, m)),
        });
    }
    Ok(wire::PuzzleSolution {
        name: "cube3".into(),
        size: size_of(size),
        record: None,
        steps,
    })
}

fn tower5() -> Result<wire::PuzzleSolution, String> {
    let board = Board::from_toml("examples/tower5.toml", TOWER5_BOARD).map_err(|e| e.to_string())?;
    let rec = Record::parse(TOWER5_RECORD).map_err(|e| e.to_string())?;
    let game = rec
        .to_game(|_| Ok::<_, String>(board.clone()))
        .map_err(|e| e.to_string())?;
    let site: &Site = game.site();
    let mut steps = Vec::new();
    for (i, &m) in game.moves().iter().enumerate() {
        let before: &Position = &game.positions()[i];
        let colour: Colour = game.mover(i).ok_or("a move without a mover")?;
        steps.push(wire::Step {
            colour: colour.to_string(),
            placement: site.notation(m),
            cubes: cubes(&site.cubes(before, m)),
        });
    }
    let full = site.footprint().all(|c| game.position().height(c) == 5)
        && site
            .footprint()
            .all(|c| (1..=5).all(|z| !matches!(game.position().cube(c, z), None | Some(Cube::Ruin))));
    if !full {
        return Err("the committed tower5 record does not fill the box".into());
    }
    Ok(wire::PuzzleSolution {
        name: "tower5".into(),
        size: [5, 5, 5],
        record: Some(record::write(&game)),
        steps,
    })
}
