//! The solitaire (rules §6) and the "How to play" lessons for the app without a server, in
//! the shape of the server's answers (`POST /puzzles/cube`, `GET /puzzles/{name}`, `GET
//! /lessons`: docs/server-api.md), so the same pages draw them. The rules are the core's
//! and the solver's (`rumis_solve::puzzle::CubePuzzle`), the lessons' list the
//! `rumis-lessons` crate's; this module only writes their answers as JSON, as the server's
//! `puzzle.rs` does.

use rumis_core::{record, Board, Cube, Move, Position, Record, Site};
use rumis_solve::puzzle::CubePuzzle;
use rumis_solve::{BoxSize, Goal, Solver};
use serde_json::{json, Value};

use crate::{fail, Failure};

/// The 5 x 5 x 5 in turn, as committed (`rumis solve tower5` reproduces it).
const TOWER5_RECORD: &str = include_str!("../../../examples/tower5.txt");
const TOWER5_BOARD: &str = include_str!("../../../examples/tower5.toml");

/// Boxes the puzzle takes, as on the server: small enough that every answer is immediate.
const MAX_SIDE: usize = 8;

fn cubes(cubes: &[(u8, u8, u8)]) -> Value {
    json!(cubes.iter().map(|&(x, y, z)| [x, y, z]).collect::<Vec<_>>())
}

fn placement_on(site: &Site, pos: &Position, m: Move) -> Value {
    let t = site.template(m);
    json!({
        "placement": site.notation(m),
        "stone": t.stone.code(),
        "orientation": t.orientation as usize,
        "cubes": cubes(&site.cubes(pos, m)),
    })
}

/// The state of a box after `moves`, or why a stone is refused (`illegal_move`, naming
/// the stone's number).
pub fn cube(size: &str, moves: &[String]) -> Result<Value, Failure> {
    let size = BoxSize::parse(size).map_err(|e| fail("bad_size", e))?;
    if size.x > MAX_SIDE || size.y > MAX_SIDE || size.z > MAX_SIDE {
        return Err(fail(
            "bad_size",
            format!("a puzzle box is at most {MAX_SIDE} on a side"),
        ));
    }
    if moves.len() > 44 {
        return Err(fail("bad_request", "a box takes at most 44 stones"));
    }
    let mut puzzle = CubePuzzle::new(size).map_err(|e| fail("bad_size", e))?;
    let mut placed = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let before = puzzle.position().clone();
        let m = puzzle
            .play(text)
            .map_err(|e| fail("illegal_move", format!("stone {}: {e}", i + 1)))?;
        let site = puzzle.site();
        placed.push(json!({
            "placement": site.notation(m),
            "stone": site.template(m).stone.code(),
            "cubes": cubes(&site.cubes(&before, m)),
        }));
    }
    let site = puzzle.site();
    let mut legal: Vec<(String, Value)> = puzzle
        .legal()
        .into_iter()
        .map(|m| (site.notation(m), placement_on(site, puzzle.position(), m)))
        .collect();
    legal.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(json!({
        "size": [size.x, size.y, size.z],
        "volume": puzzle.volume(),
        "filled": puzzle.filled(),
        "solved": puzzle.is_solved(),
        "stuck": puzzle.is_stuck(),
        "stones_left": puzzle.stones_left().iter().map(|s| s.code().to_string()).collect::<Vec<_>>(),
        "placed": placed,
        "placements": legal.into_iter().map(|(_, v)| v).collect::<Vec<_>>(),
    }))
}

/// A solution to watch: `cube3` (a filling of the 3 x 3 x 3 with one colour, built from
/// below, found by the solver on one thread) or `tower5` (the 5 x 5 x 5 in turn).
pub fn solution(name: &str) -> Result<Value, Failure> {
    let found = match name {
        "cube3" => cube3(),
        "tower5" => tower5(),
        _ => return Err(fail("not_found", "no such puzzle; there are cube3 and tower5")),
    };
    found.map_err(|e| fail("internal", e))
}

fn cube3() -> Result<Value, String> {
    let size = BoxSize { x: 3, y: 3, z: 3 };
    // One thread: WebAssembly here has none to spawn.
    let report = Solver::new(size, 1)?.solve(Goal::First, 1, &|_, _| {});
    let filling = report.fillings.first().ok_or("the 3x3x3 has no filling")?;
    let order = CubePuzzle::build_order(size, filling).ok_or("the first filling cannot be built from below")?;
    let mut puzzle = CubePuzzle::new(size)?;
    let mut steps = Vec::new();
    for text in &order {
        let before = puzzle.position().clone();
        let m = puzzle.play(text)?;
        steps.push(json!({ "colour": "R", "placement": text, "cubes": cubes(&puzzle.site().cubes(&before, m)) }));
    }
    Ok(json!({ "name": "cube3", "size": [3, 3, 3], "record": null, "steps": steps }))
}

fn tower5() -> Result<Value, String> {
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
        steps.push(json!({
            "colour": colour.to_string(),
            "placement": site.notation(m),
            "cubes": cubes(&site.cubes(before, m)),
        }));
    }
    let full = site.footprint().all(|c| game.position().height(c) == 5)
        && site
            .footprint()
            .all(|c| (1..=5).all(|z| !matches!(game.position().cube(c, z), None | Some(Cube::Ruin))));
    if !full {
        return Err("the committed tower5 record does not fill the box".into());
    }
    Ok(json!({ "name": "tower5", "size": [5, 5, 5], "record": record::write(&game), "steps": steps }))
}

/// The lessons of "How to play" (the server's `GET /lessons`).
pub fn lessons() -> Result<Value, Failure> {
    let l = rumis_lessons::lessons().map_err(|e| fail("internal", e))?;
    serde_json::to_value(l).map_err(|e| fail("internal", e.to_string()))
}
