//! The cube solitaire as a puzzle a person plays (rules §6): fill a box with the stones of
//! one colour, each at most once, building it as the stones are built in the game — from
//! above, never leaving a hole underneath, inside the box (rules 1–4). Contact does not
//! matter: it is one builder's structure. These are exactly the rules the core applies to
//! Ruinas ruins, so the core checks every placement.

use std::sync::Arc;

use rumis_core::notation::{read, resolve};
use rumis_core::{Board, BoardSource, GameSetup, Move, Position, Site, Stone, Variant};

use crate::{BoxSize, Filling};

/// A box being filled.
#[derive(Clone)]
pub struct CubePuzzle {
    size: BoxSize,
    site: Arc<Site>,
    pos: Position,
    moves: Vec<Move>,
}

impl CubePuzzle {
    /// An empty box: `size.x` files, `size.y` ranks, `size.z` levels.
    pub fn new(size: BoxSize) -> Result<CubePuzzle, String> {
        if size.z > rumis_core::MAX_LEVEL as usize {
            return Err(format!(
                "a box is at most {} levels high, not {}",
                rumis_core::MAX_LEVEL,
                size.z
            ));
        }
        let board = Board::open_box(size.x, size.y, size.z as u8).map_err(|e| e.to_string())?;
        // Ruinas for two players: its ruins are one colour's eleven stones under rules 1-4.
        let site = GameSetup {
            variant: Variant::Ruinas,
            ..GameSetup::new(BoardSource::Board(board), 2)
        }
        .site()
        .map_err(|e| e.to_string())?;
        let pos = Position::new(&site);
        Ok(CubePuzzle {
            size,
            site: Arc::new(site),
            pos,
            moves: Vec::new(),
        })
    }

    /// The box, then `moves` placed in order; the first that does not fit is refused with
    /// its number (1-based) and the reason.
    pub fn with_moves<S: AsRef<str>>(size: BoxSize, moves: &[S]) -> Result<CubePuzzle, String> {
        let mut p = CubePuzzle::new(size)?;
        for (i, m) in moves.iter().enumerate() {
            p.play(m.as_ref()).map_err(|e| format!("stone {}: {e}", i + 1))?;
        }
        Ok(p)
    }

    pub fn size(&self) -> BoxSize {
        self.size
    }

    pub fn site(&self) -> &Site {
        &self.site
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Places a stone given in notation (`L4@a1,a2,a3,b1`), if the rules allow it.
    pub fn play(&mut self, text: &str) -> Result<Move, String> {
        let w = read(&self.site, text).map_err(|e| format!("'{text}': {e}"))?;
        let m = resolve(&self.site, &self.pos, &w).map_err(|e| format!("'{text}': {e}"))?;
        self.pos
            .place_ruin(&self.site, m)
            .map_err(|e| format!("'{text}': {e}"))?;
        self.moves.push(m);
        Ok(m)
    }

    /// Takes the last stone back.
    pub fn undo(&mut self) -> Option<Move> {
        let last = self.moves.pop()?;
        let moves = std::mem::take(&mut self.moves);
        self.pos = Position::new(&self.site);
        for m in moves {
            self.pos.place_ruin(&self.site, m).expect("a replay of accepted stones");
            self.moves.push(m);
        }
        Some(last)
    }

    /// Every placement that fits now.
    pub fn legal(&self) -> Vec<Move> {
        let mut v = self.pos.ruin_moves(&self.site);
        v.sort_unstable();
        v
    }

    pub fn stones_left(&self) -> Vec<Stone> {
        self.pos.ruins_left()
    }

    pub fn filled(&self) -> usize {
        self.pos.cube_count()
    }

    pub fn volume(&self) -> usize {
        self.size.volume()
    }

    pub fn is_solved(&self) -> bool {
        self.filled() == self.volume()
    }

    /// Whether no stone left fits, with the box not full.
    pub fn is_stuck(&self) -> bool {
        !self.is_solved() && self.legal().is_empty()
    }

    /// A filling found by the solver (one colour), as placements in an order that builds
    /// it from below; `None` when no order does (a stone that would have to slide in under
    /// another).
    pub fn build_order(size: BoxSize, filling: &Filling) -> Option<Vec<String>> {
        let mut puzzle = CubePuzzle::new(size).ok()?;
        let mut left: Vec<Vec<(u8, u8, u8)>> = filling
            .iter()
            .map(|p| {
                let mut cubes = Vec::new();
                let mut m = p.cells;
                while m != 0 {
                    let (x, y, z) = size.coords(m.trailing_zeros() as usize);
                    cubes.push((x as u8, y as u8, z as u8));
                    m &= m - 1;
                }
                cubes.sort_unstable();
                cubes
            })
            .collect();
        let stones: Vec<Stone> = filling.iter().map(|p| p.piece.stone).collect();
        let mut stones_left = stones.clone();
        let mut order = Vec::new();
        while !left.is_empty() {
            let legal = puzzle.legal();
            let found = left.iter().enumerate().find_map(|(i, cubes)| {
                legal
                    .iter()
                    .find(|&&m| {
                        puzzle.site.template(m).stone == stones_left[i] && puzzle.site.cubes(&puzzle.pos, m) == *cubes
                    })
                    .map(|&m| (i, m))
            })?;
            let (i, m) = found;
            let text = puzzle.site.notation(m);
            puzzle.play(&text).ok()?;
            order.push(text);
            left.remove(i);
            stones_left.remove(i);
        }
        Some(order)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Goal, Solver};

    fn three() -> BoxSize {
        BoxSize { x: 3, y: 3, z: 3 }
    }

    #[test]
    fn a_found_filling_builds_from_below_and_solves_the_puzzle() {
        let solver = Solver::new(three(), 1).unwrap();
        let report = solver.solve(Goal::First, 1, &|_, _| {});
        let filling = &report.fillings[0];
        let order = CubePuzzle::build_order(three(), filling).expect("buildable from below");
        assert_eq!(order.len(), filling.len());
        let p = CubePuzzle::with_moves(three(), &order).unwrap();
        assert!(p.is_solved());
        assert_eq!(p.filled(), 27);
        assert!(p.legal().is_empty());
        assert!(!p.is_stuck());
    }

    #[test]
    fn the_rules_are_checked() {
        let mut p = CubePuzzle::new(three()).unwrap();
        assert!(p.play("L4@a1,a2,a3,b1").is_ok());
        // No hole underneath: lying across b1 (height 1) and b2, b3 (height 0).
        assert!(p.play("I3@b1,b2,b3").is_err());
        // A stone is used once.
        let e = p.play("L4@c1,c2,c3,b3").unwrap_err();
        assert!(e.contains("L4"), "{e}");
        // Outside the box.
        assert!(p.play("I4@a1,b1,c1,d1").is_err());
        // Too high: the box has 3 levels.
        assert!(p.play("I4@c3x4").is_err());
        // Garbage.
        assert!(p.play("hello").is_err());
        assert_eq!(p.moves().len(), 1);
        assert_eq!(p.filled(), 4);
        // Contact with the first stone is not needed.
        assert!(p.play("D2@c1x2").is_ok());
        assert_eq!(p.undo().map(|m| p.site().notation(m)), Some("D2@c1x2".to_string()));
        assert_eq!(p.filled(), 4);
        assert_eq!(p.stones_left().len(), 10);
    }

    #[test]
    fn with_moves_names_the_bad_stone() {
        let e = CubePuzzle::with_moves(three(), &["L4@a1,a2,a3,b1", "L4@c1,c2,c3,b3"])
            .err()
            .unwrap();
        assert!(e.starts_with("stone 2:"), "{e}");
    }
}
