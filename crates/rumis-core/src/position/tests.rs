use std::sync::Arc;

use super::*;
use crate::{Board, Game, Rng, Variant};

/// The loops that skip the hash's updates (playouts, perft: `play_generate::<false>`)
/// mark it stale, and `hash` then computes it afresh: along random games on every code
/// path, a position played so equals the same game played with `play` (whose hash is
/// kept up, not stale), hashes the same, and keeps hashing right when played on with
/// `play`. A position made by `play` is never stale, so the tests that compare `hash`
/// with `hash_from_scratch` check the kept-up hash.
#[test]
fn a_stale_hash_is_computed_afresh() {
    let site = Site::new(Board::builtin("pisac").unwrap().clone(), 4, Variant::Standard, None).unwrap();
    for path in CodePath::available() {
        let mut rng = Rng::new(7);
        let mut kept = Position::new(&site);
        let mut skipped = kept.clone();
        let mut set = MoveSet::new();
        let mut n = skipped.legal_set_on(&site, path, &mut set);
        let mut plies = 0;
        while let Some(m) = set.pick_on(site.gen_tables(), n, &mut rng, path) {
            kept.play(&site, m).unwrap();
            assert!(!kept.hash_stale);
            assert_eq!(kept.hash, kept.hash_from_scratch());
            n = skipped.play_generate_unhashed_with(&site, m, path, &mut set).unwrap();
            assert!(skipped.hash_stale);
            assert_eq!(skipped, kept, "{path} ply {plies}");
            assert_eq!(skipped.hash(), kept.hash(), "{path} ply {plies}");
            plies += 1;
            if plies == 12 {
                // Played on with `play`, a stale position still hashes right.
                let mut moves = Vec::new();
                skipped.legal_moves(&site, &mut moves);
                let mut on = skipped.clone();
                let mut on_kept = kept.clone();
                on.play(&site, moves[0]).unwrap();
                on_kept.play(&site, moves[0]).unwrap();
                assert_eq!(on.hash(), on_kept.hash());
            }
        }
        assert!(kept.is_over() && plies > 20, "{path}: {plies} plies");
    }
}

/// A placement by its generator slot (the playouts' and perft's `Placing` records)
/// is the placement by its template: along random games on every built-in board and
/// player count, with ruins, and on a 128-column box, on every code path, the position
/// played by slot equals the one played by `play`, and the set it generates is the
/// colour to move's. Perft's counts ask the same of the last ply (`play_count`).
#[test]
fn a_placement_by_slot_is_the_placement_by_template() {
    let mut games: Vec<Game> = Vec::new();
    for board in Board::builtins() {
        for players in 2..=4 {
            let s = Site::new(board.clone(), players, Variant::Standard, None).unwrap();
            games.push(Game::new(Arc::new(s)));
        }
        let s = Site::new(board.clone(), 3, Variant::Ruinas, None).unwrap();
        games.push(Game::with_random_ruins(Arc::new(s), 7));
    }
    let s = Site::new(Board::open_box(16, 8, 4).unwrap(), 4, Variant::Standard, None).unwrap();
    games.push(Game::new(Arc::new(s)));
    let mut plies = 0;
    for path in CodePath::available() {
        let mut rng = Rng::new(21);
        for game in &games {
            let site = game.site();
            let tables = site.gen_tables();
            let mut by_slot = game.position().clone();
            let mut by_move = by_slot.clone();
            let (mut set, mut check) = (MoveSet::new(), MoveSet::new());
            let mut n = by_slot.legal_set_on(site, path, &mut set);
            while let Some(slot) = set.pick_slot_on(tables, n, &mut rng, path) {
                let m = tables.slot_template(slot).expect("a legal placement's slot");
                let mut counted = by_slot.clone();
                let count = counted.play_count(site, slot, path);
                n = by_slot.play_generate_slot::<false>(site, slot, path, &mut set);
                by_move.play(site, m).unwrap();
                assert!(by_slot == by_move, "{} on {path}", site.board.name);
                assert_eq!(n, by_move.legal_set_on(site, path, &mut check));
                assert_eq!(set.words(), check.words());
                assert_eq!(count, n);
                plies += 1;
            }
            assert!(by_move.is_over());
        }
    }
    assert!(plies > 500, "{plies}");
}

/// `copy_from_same_site` copies only the board's columns: at every position of random
/// games (on every built-in board and player count, with ruins, and on a 128-column
/// box) a scratch position that held another position of the game becomes equal to it,
/// and the entries past the board's columns are zero.
#[test]
fn a_copy_of_the_columns_is_the_whole_position() {
    let mut games: Vec<Game> = Vec::new();
    for board in Board::builtins() {
        for players in 2..=4 {
            let s = Site::new(board.clone(), players, Variant::Standard, None).unwrap();
            games.push(Game::new(Arc::new(s)));
        }
        let s = Site::new(board.clone(), 3, Variant::Ruinas, None).unwrap();
        games.push(Game::with_random_ruins(Arc::new(s), 7));
    }
    let s = Site::new(Board::open_box(16, 8, 4).unwrap(), 4, Variant::Standard, None).unwrap();
    games.push(Game::new(Arc::new(s)));
    let mut rng = Rng::new(20);
    let mut positions = 0;
    for game in &games {
        let site = game.site();
        for _ in 0..2 {
            let mut pos = game.position().clone();
            let mut scratch = pos.clone();
            let mut moves = Vec::new();
            while !pos.is_over() {
                pos.legal_moves(site, &mut moves);
                let previous = pos.clone();
                pos.play_unchecked(site, moves[rng.below(moves.len())]);
                scratch.copy_from_same_site::<true>(&pos, site);
                assert!(scratch == pos, "{}: the copy differs", site.board.name);
                let tail = site.columns..MAX_COLUMNS;
                assert!(pos.heights[tail.clone()].iter().all(|&h| h == 0));
                assert!((0..5).all(|k| pos.cubes[k][tail.clone()].iter().all(|&c| c == 0)));
                assert!((0..5).all(|k| pos.touch[k][tail.clone()].iter().all(|&c| c == 0)));
                scratch = previous;
                positions += 1;
            }
        }
    }
    assert!(positions > 500, "{positions}");
}
