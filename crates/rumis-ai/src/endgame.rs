//! The endgame solver: when few stones remain, search the game tree to the end exactly.
//!
//! Every colour maximises its own final reward ([`crate::reward::rewards`]: its rank among
//! the colours, ties shared, with a small bonus for the score margin) — max^n, which for two
//! sides is minimax. Positions are remembered by their Zobrist hash, so transpositions
//! (the same stones placed in another order) are solved once. A node budget bounds the
//! work; the solver gives up rather than guess.

use std::collections::HashMap;

use rumis_core::{Move, Position, Site};

use crate::reward::rewards;

/// An exact result: the best move for the colour to move and every colour's reward under
/// perfect play.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    pub best: Move,
    pub value: [f32; 4],
    /// Positions searched.
    pub nodes: u64,
}

pub struct Solver<'a> {
    site: &'a Site,
    table: HashMap<u64, [f32; 4]>,
    nodes: u64,
    budget: u64,
}

impl<'a> Solver<'a> {
    pub fn new(site: &'a Site, budget: u64) -> Self {
        Solver {
            site,
            table: HashMap::new(),
            nodes: 0,
            budget,
        }
    }

    /// Solves the position, or `None` when the game is over or the budget runs out.
    pub fn solve(&mut self, pos: &Position) -> Option<Solved> {
        let mover = pos.to_move(self.site)?.index();
        let mut best: Option<(Move, [f32; 4])> = None;
        for (m, v) in self.solve_each(pos)? {
            if best.as_ref().is_none_or(|b| v[mover] > b.1[mover]) {
                best = Some((m, v));
            }
        }
        best.map(|(best, value)| Solved {
            best,
            value,
            nodes: self.nodes,
        })
    }

    /// Every legal placement of the colour to move with every colour's reward under
    /// perfect play after it, in the order of the legal moves; `None` when the game is
    /// over or the budget runs out. A puzzle's proof: the best is the one placement above
    /// all others.
    pub fn solve_each(&mut self, pos: &Position) -> Option<Vec<(Move, [f32; 4])>> {
        pos.to_move(self.site)?;
        let mut moves = Vec::new();
        pos.legal_moves(self.site, &mut moves);
        moves
            .into_iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play_unchecked(self.site, m);
                self.value(&child).map(|v| (m, v))
            })
            .collect()
    }

    /// Positions searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn value(&mut self, pos: &Position) -> Option<[f32; 4]> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let Some(mover) = pos.to_move(self.site) else {
            return Some(rewards(self.site, pos));
        };
        if let Some(v) = self.table.get(&pos.hash()) {
            return Some(*v);
        }
        let mut moves = Vec::new();
        pos.legal_moves(self.site, &mut moves);
        let mut best = [f32::MIN; 4];
        for m in moves {
            let mut child = pos.clone();
            child.play_unchecked(self.site, m);
            let v = self.value(&child)?;
            if v[mover.index()] > best[mover.index()] {
                best = v;
            }
        }
        self.table.insert(pos.hash(), best);
        Some(best)
    }
}

/// Stones left to the colours still in the game: a cheap measure of how deep the rest is.
pub fn stones_in_play(site: &Site, pos: &Position) -> usize {
    site.order()
        .iter()
        .filter(|&&c| !pos.is_out(c))
        .map(|&c| pos.stones_left(c).len())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rumis_core::{Board, Game, Rng, Variant};
    use std::sync::Arc;

    /// Plain recursion with no table: the reference the solver must agree with.
    fn brute(site: &Site, pos: &Position) -> [f32; 4] {
        let Some(mover) = pos.to_move(site) else {
            return rewards(site, pos);
        };
        let mut moves = Vec::new();
        pos.legal_moves(site, &mut moves);
        let mut best = [f32::MIN; 4];
        for m in moves {
            let mut child = pos.clone();
            child.play_unchecked(site, m);
            let v = brute(site, &child);
            if v[mover.index()] > best[mover.index()] {
                best = v;
            }
        }
        best
    }

    /// The last placements of random games on a small box: the solver's move is one of
    /// the moves that brute force finds best, and its values are exact.
    #[test]
    fn agrees_with_brute_force_near_the_end() {
        let board = Board::open_box(3, 3, 2).unwrap();
        let mut checked = 0;
        for players in [2, 3] {
            let site = Arc::new(Site::new(board.clone(), players, Variant::Standard, None).unwrap());
            for seed in 0..16 {
                let mut g = Game::new(site.clone());
                let mut rng = Rng::new(seed);
                g.play_random(&mut rng);
                // Back up a few moves and solve from there.
                let back = g.moves().len().min(3);
                let pos = g.positions()[g.moves().len() - back].clone();
                let Some(solved) = Solver::new(&site, 1_000_000).solve(&pos) else {
                    continue;
                };
                let mover = pos.to_move(&site).unwrap().index();
                let mut child = pos.clone();
                child.play_unchecked(&site, solved.best);
                let exact = brute(&site, &pos);
                assert_eq!(
                    brute(&site, &child)[mover],
                    exact[mover],
                    "seed {seed}: the solver's move is best"
                );
                assert_eq!(solved.value[mover], exact[mover]);
                checked += 1;
            }
        }
        assert!(checked >= 20, "only {checked} positions checked");
    }

    /// A hand-reasoned position on a 4 x 1 strip of height 2: red (a1, b1) and yellow
    /// (c1, d1) each placed a domino; red's only placements are I3@a1,b1,c1, I3@b1,c1,d1 and
    /// I4@a1,b1,c1,d1, and each ends the game (no room is left for a stone of two cubes).
    /// All three win for red, but only the last two cover both yellow tops (R -5 vs Y -10,
    /// against R -6 vs Y -9): with the margin bonus the solver must take one of those.
    #[test]
    fn takes_the_cover_with_the_best_margin() {
        let text = "name = \"Strip\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 2, 3 = 2, 4 = 2 }\ngrid = \"\"\"\n####\n\"\"\"\n";
        let site = Arc::new(
            Site::new(
                Board::from_toml("strip.toml", text).unwrap(),
                2,
                Variant::Standard,
                None,
            )
            .unwrap(),
        );
        let mut g = Game::new(site.clone());
        g.play_text("D2@a1,b1").unwrap();
        g.play_text("D2@c1,d1").unwrap();
        assert_eq!(g.legal_notations(), ["I3@a1,b1,c1", "I3@b1,c1,d1", "I4@a1,b1,c1,d1"]);
        let solved = Solver::new(&site, 1_000).solve(g.position()).expect("a tiny tree");
        let best = site.notation(solved.best);
        assert!(best == "I3@b1,c1,d1" || best == "I4@a1,b1,c1,d1", "chose {best}");
        assert!(solved.value[0] > solved.value[1], "red wins");
    }
}
