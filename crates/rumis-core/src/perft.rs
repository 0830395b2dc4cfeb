//! Perft (rules §8): the number of leaves of the game tree `depth` placements deep. A
//! colour that is out is skipped; a finished game is one leaf. Under the house rule
//! [`crate::StuckRule::Pass`] a colour that passes is skipped the same way, not counted as
//! a step: a pass is not a choice (a stuck colour must pass, and only then), it is not
//! written in records, and counting it would make perft(d) depend on how many colours
//! were stuck on the way rather than on the placements. So the two rules give the same
//! figures until a colour is stuck and later has a placement again.
//!
//! Every node generates its legal-move set once (a bitset, [`MoveSet`]); the last ply is
//! counted in bulk with popcounts.

use crate::movegen::{CodePath, CodePathUnavailable, MoveSet};
use crate::position::Position;
use crate::site::Site;
use crate::template::Move;

/// Perft on the active code path: the leaves of the game tree `depth` placements deep.
pub fn perft(site: &Site, pos: &Position, depth: u32) -> u64 {
    perft_on(site, pos, depth, CodePath::active())
}

/// [`perft`] on a chosen code path; refused when this process cannot run it.
pub fn perft_with(site: &Site, pos: &Position, depth: u32, path: CodePath) -> Result<u64, CodePathUnavailable> {
    let path = path.check()?;
    Ok(perft_on(site, pos, depth, path))
}

fn perft_on(site: &Site, pos: &Position, depth: u32, path: CodePath) -> u64 {
    if depth == 0 || pos.is_over() {
        return 1;
    }
    let mut set = MoveSet::new();
    let n = pos.legal_set_on(site, path, &mut set);
    below(site, pos, &set, n, depth, path)
}

/// Leaves under `pos` (not over), whose legal set `set` of `n` placements is known; compiled
/// for each path's instruction set.
fn below(site: &Site, pos: &Position, set: &MoveSet, n: usize, depth: u32, path: CodePath) -> u64 {
    match path {
        // SAFETY: `path` is available (checked by `perft_with`, or `CodePath::active`).
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx512 => unsafe { below_avx512(site, pos, set, n, depth) },
        // SAFETY: as above.
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx2 => unsafe { below_avx2(site, pos, set, n, depth) },
        _ => below_generic(site, pos, set, n, depth, path),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt,bmi2")]
fn below_avx512(site: &Site, pos: &Position, set: &MoveSet, n: usize, depth: u32) -> u64 {
    below_generic(site, pos, set, n, depth, CodePath::Avx512)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn below_avx2(site: &Site, pos: &Position, set: &MoveSet, n: usize, depth: u32) -> u64 {
    below_generic(site, pos, set, n, depth, CodePath::Avx2)
}

#[inline(always)]
fn below_generic(site: &Site, pos: &Position, set: &MoveSet, n: usize, depth: u32, path: CodePath) -> u64 {
    if depth == 1 {
        return n as u64;
    }
    if depth == 2 {
        // The last ply: count each child's placements without listing them. One child
        // is reused, copied column by column (`copy_from_same_site`), not cloned whole,
        // and only what counting reads (not the cubes, nor the hash in `play_count`).
        let mut child = pos.clone();
        return set
            .slots()
            .map(|slot| {
                child.copy_from_same_site::<false>(pos, site);
                let n = child.play_count(site, slot, path);
                if child.is_over() {
                    1
                } else {
                    n as u64
                }
            })
            .sum();
    }
    let mut child_set = MoveSet::new();
    let mut total = 0;
    let mut child = pos.clone();
    for slot in set.slots() {
        child.copy_from_same_site::<true>(pos, site);
        let cn = child.play_generate_slot::<false>(site, slot, path, &mut child_set);
        total += if child.is_over() {
            1
        } else {
            below(site, &child, &child_set, cn, depth - 1, path)
        };
    }
    total
}

/// Perft split by first move (`depth` >= 1), in template order.
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
