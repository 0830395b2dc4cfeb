//! A board file (TOML): never a panic; a board read is usable for 2 to 4 players.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rumis_core::{Board, Game, Site, Variant};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(board) = Board::from_toml("fuzz.toml", text) else { return };
    for players in 2..=4 {
        let _ = board.layout(players);
        let _ = board.volume(players);
        let _ = board.column_count(players);
        if let Ok(site) = Site::new(board.clone(), players, Variant::Standard, None) {
            let game = Game::new(std::sync::Arc::new(site));
            let _ = game.legal_notations();
        }
    }
});
