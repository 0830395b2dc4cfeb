//! Random playouts: uniformly random legal placements to the end of the game, on the fast
//! generator. Deterministic for a given [`Rng`] state, site and code path (the pick is a
//! uniform index into the legal set in the generator's slot order).

use crate::movegen::{CodePath, MoveSet};
use crate::position::Position;
use crate::rng::Rng;
use crate::site::Site;

/// Plays uniformly random placements from `pos` to the end; returns the final position.
pub fn random_playout(site: &Site, pos: &Position, rng: &mut Rng) -> Position {
    playout_on(site, pos, rng, CodePath::active())
}

/// [`random_playout`] on a chosen code path; `None` when this CPU cannot run it. Every
/// path gives the same game for the same generator state.
pub fn random_playout_with(site: &Site, pos: &Position, rng: &mut Rng, path: CodePath) -> Option<Position> {
    path.is_available().then(|| playout_on(site, pos, rng, path))
}

/// The scores (in order of play) at the end of a random playout.
pub fn playout_scores(site: &Site, pos: &Position, rng: &mut Rng) -> Vec<i32> {
    let end = random_playout(site, pos, rng);
    site.order.iter().map(|&c| end.score(site, c)).collect()
}

fn playout_on(site: &Site, pos: &Position, rng: &mut Rng, path: CodePath) -> Position {
    let tables = site.gen_tables();
    let mut p = pos.clone();
    let mut set = MoveSet::new();
    let mut n = p.legal_set_with(site, path, &mut set).unwrap_or(0);
    // A colour to move always has a placement, so the game is over exactly when n is 0.
    while let Some(m) = set.pick(tables, n, rng) {
        n = p.play_generate(site, m, path, &mut set);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::site::Variant;

    #[test]
    fn playouts_end_and_repeat() {
        let site = Site::new(Board::builtin("chullpa").unwrap().clone(), 4, Variant::Standard, None).unwrap();
        let start = Position::new(&site);
        let a = random_playout(&site, &start, &mut Rng::new(5));
        let b = random_playout(&site, &start, &mut Rng::new(5));
        assert!(a.is_over());
        assert_eq!(a, b);
        for path in CodePath::available() {
            assert_eq!(
                random_playout_with(&site, &start, &mut Rng::new(5), path),
                Some(a.clone())
            );
        }
    }
}
