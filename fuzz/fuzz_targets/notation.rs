//! A placement in the notation (RULES §7) read on one of a few positions (every built-in
//! board, 2 to 4 players, the variants, a few moves in): never a panic; a placement taken
//! is written back in notation that reads as itself; a refused one changes nothing.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use rumis_core::{Board, Game, Site, Variant};

/// The positions, made once (listing legal moves is far slower than reading one).
fn positions() -> &'static [Game] {
    static POSITIONS: OnceLock<Vec<Game>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let mut out = Vec::new();
        for board in Board::builtins() {
            for players in 2..=4 {
                for variant in [Variant::Standard, Variant::TwoPlayerFourColors, Variant::Ruinas] {
                    let Ok(site) = Site::new(board.clone(), players, variant, None) else { continue };
                    let site = Arc::new(site);
                    let mut game = if variant == Variant::Ruinas {
                        Game::with_random_ruins(site, players as u64)
                    } else {
                        Game::new(site)
                    };
                    out.push(game.clone());
                    for k in 0..8usize {
                        let legal = game.legal_notations();
                        if legal.is_empty() {
                            break;
                        }
                        let pick = legal[(k * 7919) % legal.len()].clone();
                        game.play_text(&pick).expect("a legal move plays");
                        if k == 2 || k == 7 {
                            out.push(game.clone());
                        }
                    }
                }
            }
        }
        out
    })
}

fuzz_target!(|data: &[u8]| {
    let [which, rest @ ..] = data else { return };
    let all = positions();
    let mut game = all[*which as usize % all.len()].clone();
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let before = game.moves().len();
    if let Ok(m) = game.play_text(text) {
        assert_eq!(game.moves().len(), before + 1);
        let written = game.notation(m);
        game.undo().expect("the move just played is undone");
        let again = game.play_text(&written).expect("the canonical notation reads back");
        assert_eq!(again, m, "{text:?} -> {written:?}");
    } else {
        assert_eq!(game.moves().len(), before, "a refused placement changes nothing");
    }
});
