//! A game record (RULES §7): never a panic; a record that replays is written back as a
//! record that replays to the same moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rumis_core::record::{self, Record};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = Record::parse_all(text);
    if let Ok(game) = record::read_game(text) {
        let written = record::write(&game);
        let again = record::read_game(&written).expect("a written record reads back");
        assert_eq!(again.moves(), game.moves(), "{written}");
    }
});
