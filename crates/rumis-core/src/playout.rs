//! Random playouts: uniformly random legal placements to the end of the game, on the fast
//! generator. Deterministic for a given [`Rng`] state, site and code path (the pick is a
//! uniform index into the legal set in the generator's slot order).

use crate::movegen::{self, CodePath, CodePathUnavailable, GenInput, MoveSet};
use crate::position::Position;
use crate::rng::Rng;
use crate::site::Site;
use crate::template::Move;

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

/// Plays each game of `games` out at random in place, game `i` with `rngs[i]`, on a
/// chosen code path; refused (and nothing played) when this process cannot run the path.
/// Each game is the one [`random_playout_in_place`] plays from the same position and
/// generator state, and each generator is left where that leaves it.
///
/// Where the path has a kernel for several games at once (the AVX-512 path on boards of at
/// most 32 columns, such as Chullpa) it keeps [`GAMES_IN_FLIGHT`] games in flight, each
/// ply of each generated together: one game's chain from ply to ply (the generation, the
/// pick, the placement) runs beside the other's. Elsewhere (the AVX2 and scalar paths,
/// larger boards, WebAssembly) it plays the games one by one.
///
/// # Panics
/// When `games` and `rngs` differ in length.
pub fn random_playouts_in_place(
    site: &Site,
    games: &mut [Position],
    rngs: &mut [Rng],
    path: CodePath,
) -> Result<(), CodePathUnavailable> {
    assert_eq!(games.len(), rngs.len(), "one generator per game");
    let path = path.check()?;
    if movegen::has_multi(site.gen_tables(), path) && games.len() >= GAMES_IN_FLIGHT {
        play_many(site, games, rngs, path);
    } else {
        let mut set = MoveSet::new();
        for (p, rng) in games.iter_mut().zip(rngs.iter_mut()) {
            play_out(site, p, rng, path, &mut set);
        }
    }
    Ok(())
}

/// How many games [`random_playouts_in_place`] keeps in flight where it interleaves them.
pub const GAMES_IN_FLIGHT: usize = 2;

/// The multi-game loop (`path` available and [`movegen::has_multi`]).
#[inline(never)]
fn play_many(site: &Site, games: &mut [Position], rngs: &mut [Rng], path: CodePath) {
    match path {
        // SAFETY: the caller checked that this CPU has the path's features.
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx512 => unsafe { play_many_avx512(site, games, rngs) },
        _ => play_many_generic::<GAMES_IN_FLIGHT>(site, games, rngs, path),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt,bmi2")]
fn play_many_avx512(site: &Site, games: &mut [Position], rngs: &mut [Rng]) {
    play_many_generic::<GAMES_IN_FLIGHT>(site, games, rngs, CodePath::Avx512)
}

/// `K` lanes, each playing a game of `games` (at least `K` of them); a lane whose game
/// ends takes the next one, and once none is left the others finish one by one. A ply of
/// every lane: the pick and the placement of each, then one generation for all of them
/// (the first colour each passes the turn to; a colour passed over costs its lane one
/// generation more, on its own). Each game sees exactly the picks, placements and
/// generations of `play_out`, so the same game.
#[inline(always)]
fn play_many_generic<const K: usize>(site: &Site, games: &mut [Position], rngs: &mut [Rng], path: CodePath) {
    let tables = site.gen_tables();
    let mut sets: [MoveSet; K] = std::array::from_fn(|_| MoveSet::new());
    let mut cur = [0usize; K];
    let mut n = [0usize; K];
    let mut next = 0;
    for g in 0..K {
        cur[g] = next;
        n[g] = games[next].legal_set_on(site, path, &mut sets[g]);
        next += 1;
    }
    'plies: loop {
        // Every lane between plies: one whose game is over takes the next game.
        for g in 0..K {
            while n[g] == 0 {
                if next == games.len() {
                    break 'plies;
                }
                cur[g] = next;
                n[g] = games[next].legal_set_on(site, path, &mut sets[g]);
                next += 1;
            }
        }
        let mut from = [0usize; K];
        for g in 0..K {
            let slot = sets[g].pick_slot_on(tables, n[g], &mut rngs[cur[g]], path);
            // n[g] > 0, so there is a slot.
            let slot = slot.unwrap_or_default();
            from[g] = games[cur[g]].place_slot_unhashed(site, slot, path);
        }
        // A lane without an input ends its game without a generation.
        let mut inputs: [Option<GenInput>; K] = [None; K];
        for g in 0..K {
            inputs[g] = games[cur[g]].next_input(site, from[g]);
        }
        let given = movegen::generate_multi::<K>(tables, &inputs, path, &mut sets);
        for g in 0..K {
            let given = Some(given[g] as usize);
            n[g] = games[cur[g]].settle_generate_given(site, from[g], path, &mut sets[g], given);
        }
    }
    // No game is left to start: the lanes still playing finish one by one, as `play_out`.
    for g in 0..K {
        let (p, rng, set) = (&mut games[cur[g]], &mut rngs[cur[g]], &mut sets[g]);
        while let Some(slot) = set.pick_slot_on(tables, n[g], rng, path) {
            n[g] = p.play_generate_slot::<false>(site, slot, path, set);
        }
    }
}

/// Whether [`play_generate_many`] generates its games' next sets together on `path` for
/// this site: where this process can run the AVX-512 path and the board has at most 32
/// columns (Chullpa). Elsewhere it plays its games one by one, and a caller may as well
/// play one game at a time.
pub fn generates_together(site: &Site, path: CodePath) -> bool {
    path.is_available() && movegen::has_multi(site.gen_tables(), path)
}

/// One step of several games at once, for callers that choose their own placements (the
/// search's playout policy): plays `moves[g]`, which must be legal for the colour to move,
/// in `games[g]` for each game that has a move, without keeping the hash up to date, and
/// leaves in `sets[g]` the legal placements of the colour that moves next there (empty
/// when the game is over); returns their numbers. A game without a move is left as it is,
/// its set emptied and its count 0. Refused (and nothing played) when this process cannot
/// run `path`.
///
/// Each game gets the position, set and count [`Position::play_generate_unhashed_with`]
/// gives it (debug builds check every set against a fresh generation). Where
/// [`generates_together`] and two games or more have a move, their generations are made at
/// once (`x86::gen_avx512_fold_multi`: one game's chain from ply to ply runs beside the
/// other's); elsewhere one by one.
pub fn play_generate_many<const K: usize>(
    site: &Site,
    games: &mut [Position; K],
    moves: [Option<Move>; K],
    path: CodePath,
    sets: &mut [MoveSet; K],
) -> Result<[usize; K], CodePathUnavailable> {
    let path = path.check()?;
    #[cfg(debug_assertions)]
    for (g, m) in moves.iter().enumerate() {
        if let Some(m) = *m {
            debug_assert!(games[g].check(site, m).is_ok(), "game {g}: an illegal placement");
        }
    }
    let playing = moves.iter().filter(|m| m.is_some()).count();
    let counts = if playing >= 2 && movegen::has_multi(site.gen_tables(), path) {
        match path {
            // SAFETY: `path` was checked available on this CPU just above.
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx512 => unsafe { step_many_avx512(site, games, moves, sets) },
            _ => step_many_generic(site, games, moves, path, sets),
        }
    } else {
        std::array::from_fn(|g| match moves[g] {
            Some(m) => games[g].play_generate::<false>(site, m, path, &mut sets[g]),
            None => {
                sets[g].clear();
                0
            }
        })
    };
    #[cfg(debug_assertions)]
    for g in 0..K {
        if moves[g].is_some() {
            let mut fresh = MoveSet::new();
            let n = games[g].legal_set_on(site, path, &mut fresh);
            debug_assert_eq!(counts[g], n, "game {g}: the count of the next colour's placements");
            debug_assert!(n == 0 || fresh == sets[g], "game {g}: the next colour's placements");
            debug_assert_eq!(n == 0, games[g].is_over(), "game {g}: over exactly without placements");
        }
    }
    Ok(counts)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt,bmi2")]
fn step_many_avx512<const K: usize>(
    site: &Site,
    games: &mut [Position; K],
    moves: [Option<Move>; K],
    sets: &mut [MoveSet; K],
) -> [usize; K] {
    step_many_generic(site, games, moves, CodePath::Avx512, sets)
}

/// [`play_generate_many`]'s step where [`movegen::has_multi`] (`path` available): each
/// game's placement, then one generation for all, then each passes the turn on (a colour
/// passed over costs its game one generation more, on its own), as `play_many_generic`.
#[inline(always)]
fn step_many_generic<const K: usize>(
    site: &Site,
    games: &mut [Position; K],
    moves: [Option<Move>; K],
    path: CodePath,
    sets: &mut [MoveSet; K],
) -> [usize; K] {
    let mut from = [0usize; K];
    for g in 0..K {
        if let Some(m) = moves[g] {
            from[g] = games[g].place_unhashed(site, m, path);
        }
    }
    let given = {
        let inputs: [Option<GenInput>; K] = std::array::from_fn(|g| match moves[g] {
            Some(_) => games[g].next_input(site, from[g]),
            None => None,
        });
        movegen::generate_multi::<K>(site.gen_tables(), &inputs, path, sets)
    };
    std::array::from_fn(|g| match moves[g] {
        Some(_) => games[g].settle_generate_given(site, from[g], path, &mut sets[g], Some(given[g] as usize)),
        None => {
            sets[g].clear();
            0
        }
    })
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

    /// The step of several games plays and generates each game as the one-game step does
    /// (`play_generate_unhashed_with`): the positions, the sets and the counts after every
    /// step, on every available path, on boards it generates together (Chullpa) and ones
    /// it does not (Coricancha), under both rules for a stuck colour, with games that end
    /// at different plies (the one over then has no move) and with three games at once.
    #[test]
    fn a_step_of_several_games_is_each_games_step() {
        use crate::site::StuckRule;
        fn run<const K: usize>(site: &Site, path: CodePath, seed: u64) {
            let mut rng = Rng::new(seed);
            // Different starts, so the games end at different plies.
            let mut games: [Position; K] = std::array::from_fn(|_| Position::new(site));
            let mut moves = Vec::new();
            for (g, p) in games.iter_mut().enumerate() {
                for _ in 0..3 * g {
                    p.legal_moves(site, &mut moves);
                    if !moves.is_empty() {
                        p.play_unchecked(site, moves[rng.below(moves.len())]);
                    }
                }
            }
            let mut sets: [MoveSet; K] = std::array::from_fn(|_| MoveSet::new());
            let mut counts: [usize; K] =
                std::array::from_fn(|g| games[g].legal_set_with(site, path, &mut sets[g]).unwrap());
            let (mut alone, mut alone_sets) = (games.clone(), sets.clone());
            let mut steps = 0;
            while games.iter().any(|p| !p.is_over()) {
                let picks: [Option<Move>; K] =
                    std::array::from_fn(|g| sets[g].pick(site.gen_tables(), counts[g], &mut rng));
                let got = play_generate_many(site, &mut games, picks, path, &mut sets).unwrap();
                for g in 0..K {
                    let what = format!("{} {path}, {K} games, game {g}, step {steps}", site.board().name);
                    let want = match picks[g] {
                        Some(m) => alone[g]
                            .play_generate_unhashed_with(site, m, path, &mut alone_sets[g])
                            .unwrap(),
                        None => {
                            alone_sets[g].clear();
                            0
                        }
                    };
                    assert_eq!(got[g], want, "{what}");
                    assert_eq!(games[g], alone[g], "{what}");
                    assert_eq!(sets[g], alone_sets[g], "{what}");
                    assert_eq!(got[g], sets[g].len(), "{what}");
                }
                counts = got;
                steps += 1;
            }
            assert_eq!(
                games.iter().map(|p| p.hash()).collect::<Vec<_>>(),
                alone.iter().map(|p| p.hash()).collect::<Vec<_>>()
            );
        }
        for (board, players, variant) in [
            ("chullpa", 4, Variant::Standard),
            ("chullpa", 2, Variant::Standard),
            ("chullpa", 2, Variant::TwoPlayerFourColors),
            ("coricancha", 4, Variant::Standard),
        ] {
            let site = Site::new(Board::builtin(board).unwrap().clone(), players, variant, None).unwrap();
            for site in [site.clone().with_stuck_rule(StuckRule::Pass), site] {
                for path in CodePath::available() {
                    for seed in 1..4 {
                        run::<2>(&site, path, seed);
                    }
                    run::<3>(&site, path, 9);
                    run::<1>(&site, path, 10);
                }
            }
        }
    }

    /// The multi-game loop plays each game exactly as the one-game loop does from the same
    /// generator state (the final positions, scores and generator states), on every
    /// available path, on boards it interleaves (Chullpa) and ones it plays one by one,
    /// from the empty board and from positions in the middle of a game, under both rules
    /// for a stuck colour, with batches shorter and longer than the games in flight.
    #[test]
    fn many_playouts_are_the_games_one_by_one() {
        use crate::site::StuckRule;
        let mut cases = Vec::new();
        for (board, players, variant) in [
            ("chullpa", 4, Variant::Standard),
            ("chullpa", 3, Variant::Standard),
            ("chullpa", 2, Variant::Standard),
            ("chullpa", 2, Variant::TwoPlayerFourColors),
            ("coricancha", 4, Variant::Standard),
        ] {
            let site = Site::new(Board::builtin(board).unwrap().clone(), players, variant, None).unwrap();
            cases.push(site.clone().with_stuck_rule(StuckRule::Pass));
            cases.push(site);
        }
        for site in &cases {
            let mut seeds = Rng::new(77);
            // Starts: the empty board, and positions a few plies in (one of them over).
            let mut starts = vec![Position::new(site)];
            for plies in [1, 3, 9, 200] {
                let mut p = Position::new(site);
                let mut rng = Rng::new(seeds.next_u64());
                let mut moves = Vec::new();
                for _ in 0..plies {
                    p.legal_moves(site, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    p.play_unchecked(site, moves[rng.below(moves.len())]);
                }
                starts.push(p);
            }
            for path in CodePath::available() {
                for count in [0, 1, 2, 3, 5, 16] {
                    let games: Vec<Position> = (0..count).map(|i| starts[i % starts.len()].clone()).collect();
                    let rngs: Vec<Rng> = (0..count).map(|_| Rng::new(seeds.next_u64())).collect();
                    let (mut many, mut many_rngs) = (games.clone(), rngs.clone());
                    random_playouts_in_place(site, &mut many, &mut many_rngs, path).unwrap();
                    let mut set = MoveSet::new();
                    for (i, (mut p, mut rng)) in games.into_iter().zip(rngs).enumerate() {
                        random_playout_in_place(site, &mut p, &mut rng, path, &mut set).unwrap();
                        let what = format!("{} {path}, {count} games, game {i}", site.board().name);
                        assert!(many[i].is_over(), "{what}");
                        assert_eq!(many[i], p, "{what}");
                        assert_eq!(many[i].colour_scores(site), p.colour_scores(site), "{what}");
                        assert_eq!(many_rngs[i].next_u64(), rng.next_u64(), "{what}");
                    }
                }
            }
        }
    }
}
