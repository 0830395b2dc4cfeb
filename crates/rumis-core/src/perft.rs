//! Perft (RULES §8): the number of leaves of the game tree `depth` placements deep. A
//! colour that is out is skipped; a finished game is one leaf.

use crate::position::Position;
use crate::site::{Move, Site};

pub fn perft(site: &Site, pos: &Position, depth: u32) -> u64 {
    if depth == 0 || pos.is_over() {
        return 1;
    }
    if depth == 1 {
        // Bulk count: every legal move is one leaf.
        return pos.count_moves(site);
    }
    let mut moves = Vec::new();
    pos.legal_moves(site, &mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(site, m);
            perft(site, &child, depth - 1)
        })
        .sum()
}

/// Perft split by first move (`depth` >= 1).
pub fn perft_divide(site: &Site, pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Vec::new();
    pos.legal_moves(site, &mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(site, m);
            (m, perft(site, &child, depth.saturating_sub(1)))
        })
        .collect()
}
