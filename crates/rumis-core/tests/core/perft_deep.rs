//! Deep perft figures, ignored by default (run with `cargo test --release -- --ignored`;
//! `rumis bench` runs perft(4) too).

use rumis_core::{perft, perft_with, Board, CodePath, Position, Site, Variant};

fn chullpa() -> Site {
    Site::new(Board::builtin("chullpa").unwrap().clone(), 4, Variant::Standard, None).unwrap()
}

#[test]
#[ignore = "about 5 s on the AVX-512 path, 10 s on AVX2, minutes on the scalar path"]
fn chullpa_four_players_depth_four() {
    let s = chullpa();
    assert_eq!(perft(&s, &Position::new(&s), 4), 7_938_153_532);
}

#[test]
#[ignore = "a few seconds: perft(3) once per code path"]
fn chullpa_depth_three_on_every_path() {
    let s = chullpa();
    for path in CodePath::available() {
        assert_eq!(perft_with(&s, &Position::new(&s), 3, path), Ok(39_583_340), "{path}");
    }
}
