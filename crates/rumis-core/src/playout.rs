//! Random playouts: uniformly random legal placements to the end of the game, on the fast
//! generator. Deterministic for a given [`Rng`] state, site and code path (the pick is a
//! uniform index into the legal set in the generator's slot order).

use crate::movegen::{CodePath, CodePathUnavailable, MoveSet};
use crate::position::Position;
use crate::rng::Rng;
use crate::site::Site;

/// Plays uniformly random placements from `pos` to the end; returns the final position.
pub fn random_playout(site: &Site, pos: &Position, rng: &mut Rng) -> Position {
    playout_on(site, pos, rng, CodePath::active())
}

/// [`random_playout`] on a chosen code path; refused when this process cannot run it.
/// Every path gives the same game for the same generator state.
pub fn random_playout_with(
    site: &Site,
    pos: &Position,
    rng: &mut Rng,
    path: CodePath,
) -> Result<Position, CodePathUnavailable> {
    let path = path.check()?;
    Ok(playout_on(site, pos, rng, path))
}

/// Plays the game in `pos` out at random in place, on a chosen code path, with a caller's
/// scratch set (the cheapest form, for loops of playouts); refused (and nothing played)
/// when this process cannot run the path. Gives the same game as [`random_playout_with`].
pub fn random_playout_in_place(
    site: &Site,
    pos: &mut Position,
    rng: &mut Rng,
    path: CodePath,
    set: &mut MoveSet,
) -> Result<(), CodePathUnavailable> {
    let path = path.check()?;
    play_out(site, pos, rng, path, set);
    Ok(())
}

/// The scores (in order of play) at the end of a random playout.
pub fn playout_scores(site: &Site, pos: &Position, rng: &mut Rng) -> Vec<i32> {
    let end = random_playout(site, pos, rng);
    site.order.iter().map(|&c| end.score(site, c)).collect()
}

fn playout_on(site: &Site, pos: &Position, rng: &mut Rng, path: CodePath) -> Position {
    let mut p = pos.clone();
    play_out(site, &mut p, rng, path, &mut MoveSet::new());
    p
}

/// The playout loop (`path` available), compiled for each path's instruction set (so that
/// popcounts are single instructions and the generator can be inlined).
#[inline(never)]
fn play_out(site: &Site, p: &mut Position, rng: &mut Rng, path: CodePath, set: &mut MoveSet) {
    match path {
        // SAFETY: the caller checked that this CPU has the path's features.
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx512 => unsafe { play_out_avx512(site, p, rng, set) },
        // SAFETY: as above.
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx2 => unsafe { play_out_avx2(site, p, rng, set) },
        _ => play_out_generic(site, p, rng, path, set),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt,bmi2")]
fn play_out_avx512(site: &Site, p: &mut Position, rng: &mut Rng, set: &mut MoveSet) {
    play_out_generic(site, p, rng, CodePath::Avx512, set)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn play_out_avx2(site: &Site, p: &mut Position, rng: &mut Rng, set: &mut MoveSet) {
    play_out_generic(site, p, rng, CodePath::Avx2, set)
}

#[inline(always)]
fn play_out_generic(site: &Site, p: &mut Position, rng: &mut Rng, path: CodePath, set: &mut MoveSet) {
    let mut n = p.legal_set_on(site, path, set);
    // A colour to move always has a placement, so the game is over exactly when n is 0.
    // The pick gives a slot and the placement reads the slot's record (`Placing`): the
    // same placement as by its template id, one dependent load sooner.
    while let Some(slot) = set.pick_slot_on(site.gen_tables(), n, rng, path) {
        n = p.play_generate_slot::<false>(site, slot, path, set);
    }
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
                Ok(a.clone())
            );
        }
    }
}
