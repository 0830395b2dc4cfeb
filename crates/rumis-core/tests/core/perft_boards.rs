//! Perft figures for every built-in scenario at 2, 3 and 4 players, the two-player
//! four-colour game and Ruinas (ruins written out as a Setup, so the figures do not hang on
//! how random ruins are drawn). Depths 1 and 2 were computed by the engine and by the oracle
//! (tests/common, an independent generator), which agreed on every one; depth 3 by the
//! engine's bulk-counting perft and by the original template-scan engine of the first
//! commit, which agreed too. The figures are pinned here as literals.

use crate::common;

use std::sync::Arc;

use common::oracle_perft;
use rumis_core::Variant::{self, *};
use rumis_core::{perft, Board, Game, Site};

struct Case {
    board: &'static str,
    players: usize,
    variant: Variant,
    /// Ruinas: the ruin placements, in order.
    ruins: Option<&'static str>,
    /// perft(1), perft(2), perft(3) from the start.
    perft: [u64; 3],
}

#[rustfmt::skip]
const CASES: &[Case] = &[
    Case { board: "chullpa", players: 2, variant: Standard, ruins: None, perft: [687, 165_662, 27_229_902] },
    Case { board: "chullpa", players: 3, variant: Standard, ruins: None, perft: [687, 165_662, 39_583_340] },
    Case { board: "chullpa", players: 4, variant: Standard, ruins: None, perft: [687, 165_662, 39_583_340] },
    Case { board: "chullpa", players: 2, variant: TwoPlayerFourColors, ruins: None, perft: [687, 165_662, 39_583_340] },
    Case { board: "chullpa", players: 2, variant: Ruinas, ruins: Some("V3@d4x2,e4 A4@d2x2,d3,e3 I4@c4x4 O4@a2x2,b2x2 L4@a3x3,a4 B4@b3,b4x2,c3 T4@b1,c1,c2,d1 I3@b3x3 Y4@c2,c3x2,d3 S4@d3x2,e3x2 D2@a3x2"), perft: [26, 347, 15_846] },
    Case { board: "chullpa", players: 3, variant: Ruinas, ruins: Some("V3@d4x2,e4 A4@d2x2,d3,e3 I4@c4x4 O4@a2x2,b2x2 L4@a3x3,a4 B4@b3,b4x2,c3 T4@b1,c1,c2,d1 I3@b3x3 Y4@c2,c3x2,d3 S4@d3x2,e3x2 D2@a3x2"), perft: [26, 347, 6_618] },
    Case { board: "pirka", players: 2, variant: Standard, ruins: None, perft: [1_357, 407_335, 81_430_102] },
    Case { board: "pirka", players: 3, variant: Standard, ruins: None, perft: [1_529, 512_143, 212_513_756] },
    Case { board: "pirka", players: 4, variant: Standard, ruins: None, perft: [1_569, 530_059, 223_492_170] },
    Case { board: "pirka", players: 2, variant: TwoPlayerFourColors, ruins: None, perft: [1_569, 530_059, 223_492_170] },
    Case { board: "pirka", players: 2, variant: Ruinas, ruins: Some("V3@a1x2,a2 A4@c5x2,c6,d6 I4@b4,b5,b6,b7 O4@b3x2,c3x2 L4@b1x3,b2 B4@d2,e1x2,e2 T4@c4,d4,d5,e4 I3@e3x3 Y4@a7,a8x2,b8 S4@e4x2,f4x2 D2@d3x2"), perft: [214, 37_840, 2_250_951] },
    Case { board: "pirka", players: 3, variant: Ruinas, ruins: Some("V3@a1x2,a2 A4@c5x2,c6,d6 I4@a7x4 O4@e2x2,f2x2 L4@b3,b4,b5x2 B4@b2,c1x2,c2 T4@d3,e3,e4,f3 I3@e4x3 Y4@b6,b7x2,c7 S4@a2,a3x2,a4 D2@e3x2"), perft: [236, 48_084, 8_387_489] },
    Case { board: "tambo", players: 2, variant: Standard, ruins: None, perft: [1_020, 141_548, 11_631_216] },
    Case { board: "tambo", players: 3, variant: Standard, ruins: None, perft: [1_180, 194_196, 35_169_692] },
    Case { board: "tambo", players: 4, variant: Standard, ruins: None, perft: [1_220, 204_892, 38_074_688] },
    Case { board: "tambo", players: 2, variant: TwoPlayerFourColors, ruins: None, perft: [1_220, 204_892, 38_074_688] },
    Case { board: "tambo", players: 2, variant: Ruinas, ruins: Some("V3@f6x2,g6 A4@g4x2,g5,h5 I4@b2,b3,b4,b5 O4@f2x2,g2x2 L4@d1x3,d2 B4@g3,h2x2,h3 T4@d5,e5,e6,f5 I3@a2x3 Y4@a5,a6x2,b6 S4@d2x2,e2x2 D2@g3x2"), perft: [187, 29_933, 1_118_541] },
    Case { board: "tambo", players: 3, variant: Ruinas, ruins: Some("V3@f6x2,g6 A4@g4x2,g5,h5 I4@f5x4 O4@b2x2,c2x2 L4@a1x3,a2 B4@d5,d6x2,e5 T4@e1,f1,f2,g1 I3@b4x3 Y4@a4,a5x2,b5 S4@a5x2,b5x2 D2@a3x2"), perft: [251, 53_501, 9_643_994] },
    Case { board: "pisac", players: 2, variant: Standard, ruins: None, perft: [790, 204_976, 36_270_391] },
    Case { board: "pisac", players: 3, variant: Standard, ruins: None, perft: [1_058, 329_670, 117_815_107] },
    Case { board: "pisac", players: 4, variant: Standard, ruins: None, perft: [1_058, 329_670, 117_815_107] },
    Case { board: "pisac", players: 2, variant: TwoPlayerFourColors, ruins: None, perft: [1_058, 329_670, 117_815_107] },
    Case { board: "pisac", players: 2, variant: Ruinas, ruins: Some("V3@c5x2,d5 A4@a4x2,a5,b5 I4@e3x4 O4@a2x2,b2x2 L4@d2,d3,d4x2 B4@b4,c3x2,c4 T4@b1,c1,c2,d1 I3@a3x3 Y4@c1,c2x2,d2 S4@d1x2,e1x2 D2@b3x2"), perft: [48, 1_451, 34_658] },
    Case { board: "pisac", players: 3, variant: Ruinas, ruins: Some("V3@c5x2,d5 A4@a4x2,a5,b5 I4@e3x4 O4@a2x2,b2x2 L4@d2,d3,d4x2 B4@b4,c3x2,c4 T4@b1,c1,c2,d1 I3@b3x3 Y4@c1,c2x2,d2 S4@d1x2,e1x2 D2@c3x2"), perft: [53, 1_929, 50_310] },
    Case { board: "coricancha", players: 2, variant: Standard, ruins: None, perft: [1_238, 391_752, 84_052_825] },
    Case { board: "coricancha", players: 3, variant: Standard, ruins: None, perft: [2_853, 1_220_572, 716_021_724] },
    Case { board: "coricancha", players: 4, variant: Standard, ruins: None, perft: [2_853, 1_220_572, 716_021_724] },
    Case { board: "coricancha", players: 2, variant: TwoPlayerFourColors, ruins: None, perft: [2_853, 1_220_572, 716_021_724] },
    Case { board: "coricancha", players: 2, variant: Ruinas, ruins: Some("V3@c5x2,d5 A4@b7x2,b8,c8 I4@d4x4 O4@f7,f8,g7,g8 L4@c2x2,c3,c4 B4@e6,e7x2,f6 T4@e1,f1,f2,g1 I3@d3x3 Y4@d1,d2x2,e2 S4@f4,f5,g3,g4 D2@b3x2"), perft: [692, 449_590, 58_266_729] },
    Case { board: "coricancha", players: 3, variant: Ruinas, ruins: Some("V3@e4x2,f4 A4@i6x2,i7,j7 I4@d5,d6,d7,d8 O4@a7,a8,b7,b8 L4@f5,g5x3 B4@i4,i5x2,j4 T4@h1,i1,i2,j1 I3@d5,d6,d7 Y4@f1,f2x2,g2 S4@e8,f7,f8,g7 D2@h7,h8"), perft: [651, 398_122, 226_121_202] },
    Case { board: "cucho", players: 2, variant: Standard, ruins: None, perft: [1_357, 409_294, 82_973_522] },
    Case { board: "cucho", players: 3, variant: Standard, ruins: None, perft: [1_529, 514_210, 216_483_318] },
    Case { board: "cucho", players: 4, variant: Standard, ruins: None, perft: [1_865, 646_230, 284_353_592] },
    Case { board: "cucho", players: 2, variant: TwoPlayerFourColors, ruins: None, perft: [1_865, 646_230, 284_353_592] },
    Case { board: "cucho", players: 2, variant: Ruinas, ruins: Some("V3@e8x2,f8 A4@d6x2,d7,e7 I4@b5,b6,b7,b8 O4@c5x2,d5x2 L4@a3x3,a4 B4@b4,c3x2,c4 T4@a4,b4,b5,c4 I3@g5x3 Y4@e5,e6x2,f6 S4@c7x2,d7x2 D2@e5x2"), perft: [227, 44_134, 1_573_660] },
    Case { board: "cucho", players: 3, variant: Ruinas, ruins: Some("V3@f8x2,g8 A4@d6x2,d7,e7 I4@b7x4 O4@b4x2,c4x2 L4@d3,d4,d5x2 B4@a6,a7x2,b6 T4@a2,b2,b3,c2 I3@a6x3 Y4@e5,e6x2,f6 S4@e6x2,f6x2 D2@a5x2"), perft: [395, 136_897, 41_515_486] },];

fn start(case: &Case) -> Game {
    let board: Board = Board::builtin(case.board).unwrap().clone();
    let site = Arc::new(Site::new(board, case.players, case.variant, None).unwrap());
    match case.ruins {
        Some(setup) => {
            let ruins: Vec<&str> = setup.split_whitespace().collect();
            let g = Game::with_ruin_texts(site, &ruins).unwrap();
            assert_eq!(g.ruins().len(), ruins.len());
            g
        }
        None => Game::new(site),
    }
}

fn label(case: &Case) -> String {
    format!("{} {}p {}", case.board, case.players, case.variant)
}

#[test]
fn every_board_and_variant_is_pinned() {
    // 6 boards x (3 standard + 2p4c + 2 Ruinas).
    assert_eq!(CASES.len(), 36);
    for b in Board::builtins() {
        assert_eq!(CASES.iter().filter(|c| b.is_called(c.board)).count(), 6, "{}", b.name);
    }
}

#[test]
fn perft_depth_one_and_two() {
    for case in CASES {
        let g = start(case);
        let (site, pos) = (g.site(), g.position());
        assert_eq!(perft(site, pos, 1), case.perft[0], "{} perft(1)", label(case));
        assert_eq!(perft(site, pos, 2), case.perft[1], "{} perft(2)", label(case));
        // perft(1) is the number of legal moves.
        assert_eq!(g.legal_moves().len() as u64, case.perft[0], "{}", label(case));
    }
}

/// perft(3) of every case on `board`. One test per board (below), not one for all: the
/// cases take 17 s together (about 3.5 G leaves in the unoptimised-dependency test build),
/// and as six tests they share the cores instead of one test keeping one core busy to the
/// end of the run (issue #19).
fn perft_depth_three_on(board: &str) {
    let mut cases = 0;
    for case in CASES.iter().filter(|c| c.board == board) {
        let g = start(case);
        assert_eq!(
            perft(g.site(), g.position(), 3),
            case.perft[2],
            "{} perft(3)",
            label(case)
        );
        cases += 1;
    }
    assert_eq!(cases, 6, "{board}: its six cases");
}

/// The boards of the per-board perft(3) tests: every built-in one (checked below).
const PERFT_THREE_BOARDS: [&str; 6] = ["chullpa", "pirka", "tambo", "pisac", "coricancha", "cucho"];

#[test]
fn perft_depth_three_covers_every_board() {
    let builtins: Vec<&str> = Board::builtins().iter().map(|b| b.name.as_str()).collect();
    assert_eq!(builtins.len(), PERFT_THREE_BOARDS.len());
    for name in PERFT_THREE_BOARDS {
        assert!(Board::builtin(name).is_some(), "{name}");
    }
    for b in Board::builtins() {
        assert!(PERFT_THREE_BOARDS.iter().any(|n| b.is_called(n)), "{}", b.name);
    }
}

#[test]
fn perft_depth_three_chullpa() {
    perft_depth_three_on(PERFT_THREE_BOARDS[0]);
}

#[test]
fn perft_depth_three_pirka() {
    perft_depth_three_on(PERFT_THREE_BOARDS[1]);
}

#[test]
fn perft_depth_three_tambo() {
    perft_depth_three_on(PERFT_THREE_BOARDS[2]);
}

#[test]
fn perft_depth_three_pisac() {
    perft_depth_three_on(PERFT_THREE_BOARDS[3]);
}

#[test]
fn perft_depth_three_coricancha() {
    perft_depth_three_on(PERFT_THREE_BOARDS[4]);
}

#[test]
fn perft_depth_three_cucho() {
    perft_depth_three_on(PERFT_THREE_BOARDS[5]);
}

/// The oracle's perft(1) everywhere, and its perft(2) where it is quick.
#[test]
fn oracle_agrees_with_the_pinned_figures() {
    for case in CASES {
        let mut g = start(case);
        assert_eq!(
            oracle_perft(&mut g, 1),
            case.perft[0],
            "{} oracle perft(1)",
            label(case)
        );
        if case.perft[1] < 40_000 {
            assert_eq!(
                oracle_perft(&mut g, 2),
                case.perft[1],
                "{} oracle perft(2)",
                label(case)
            );
        }
    }
}

/// The oracle's perft(2) everywhere: about a minute, so run on demand with `--ignored`.
#[test]
#[ignore = "slow (about a minute): the oracle's perft(2) on every case"]
fn oracle_agrees_at_depth_two_everywhere() {
    for case in CASES {
        let mut g = start(case);
        assert_eq!(
            oracle_perft(&mut g, 2),
            case.perft[1],
            "{} oracle perft(2)",
            label(case)
        );
    }
}

/// The open 5 x 5 box of rules §8 with 2 and 3 players, and the custom test board
/// (printed heights, holes, frames): perft(1..=3), with the oracle's perft(2) on one.
#[test]
fn other_boards() {
    let open = Board::open_box(5, 5, 4).unwrap();
    let custom = common::custom_board();
    let cases: [(&Board, usize, Variant, [u64; 3]); 5] = [
        (&open, 2, Standard, [919, 266_872, 54_900_552]),
        (&open, 3, Standard, [919, 266_872, 85_403_336]),
        (&custom, 2, Standard, [360, 38_717, 2_633_235]),
        (&custom, 4, Standard, [677, 114_521, 21_680_309]),
        (&custom, 2, TwoPlayerFourColors, [677, 114_521, 21_680_309]),
    ];
    for (board, players, variant, figures) in cases {
        let site = common::site(board, players, variant);
        let g = Game::new(site.clone());
        for depth in 1..=3 {
            let got = perft(&site, g.position(), depth);
            assert_eq!(
                got,
                figures[depth as usize - 1],
                "{} {players}p {variant} perft({depth})",
                board.name
            );
        }
    }
    let mut g = Game::new(common::site(&custom, 2, Standard));
    assert_eq!(oracle_perft(&mut g, 2), 38_717);
}

#[test]
#[ignore = "slow (a few seconds): the oracle's perft(2) on the other boards"]
fn oracle_agrees_on_the_other_boards() {
    let open = Board::open_box(5, 5, 4).unwrap();
    let custom = common::custom_board();
    for (board, players, variant, figure) in [
        (&open, 2, Standard, 266_872),
        (&open, 3, Standard, 266_872),
        (&custom, 4, Standard, 114_521),
        (&custom, 2, TwoPlayerFourColors, 114_521),
    ] {
        let mut g = Game::new(common::site(board, players, variant));
        assert_eq!(oracle_perft(&mut g, 2), figure, "{} {players}p {variant}", board.name);
    }
}
