//! One test per rule of rules §4-6, each on a small hand-made position. Every placement a
//! test calls legal is also checked against the oracle (tests/common), and every one it
//! calls illegal must be missing from the oracle's list.

use crate::common;

use std::sync::Arc;

use common::{board, fits_structure, oracle_moves, site, Voxels};
use rumis_core::{Board, Colour, Cube, Game, Illegal, MoveError, Site, Stone, Variant};

fn game(b: &Board, players: usize, variant: Variant) -> Game {
    Game::new(site(b, players, variant))
}

/// Plays a legal placement (written canonically) and checks the oracle lists it.
#[track_caller]
fn ok(g: &mut Game, text: &str) {
    let colour = g.to_move().expect("the game is not over");
    let oracle = oracle_moves(g.site(), g.position(), colour);
    assert!(oracle.contains(&text.to_string()), "the oracle does not list {text}");
    if let Err(e) = g.play_text(text) {
        panic!("{text} refused: {e}");
    }
}

/// A placement refused for breaking a rule: returns the reason; the position is unchanged
/// and the oracle does not list it either.
#[track_caller]
fn illegal(g: &mut Game, text: &str) -> Illegal {
    let before = g.position().clone();
    if let Some(colour) = g.to_move() {
        let oracle = oracle_moves(g.site(), g.position(), colour);
        assert!(!oracle.contains(&text.to_string()), "the oracle lists {text}");
    }
    let e = g.play_text(text).expect_err(text);
    assert_eq!(g.position(), &before);
    match e {
        MoveError::Illegal(i) => i,
        other => panic!("{text}: expected an Illegal error, got {other:?}"),
    }
}

/// A placement that is not one on this site at all (off the footprint, too tall for every
/// limit): returns the message.
#[track_caller]
fn not_a_placement(g: &mut Game, text: &str) -> String {
    let before = g.position().clone();
    let e = g.play_text(text).expect_err(text);
    assert_eq!(g.position(), &before);
    match e {
        MoveError::Syntax(s) => s,
        other => panic!("{text}: expected a Syntax error, got {other:?}"),
    }
}

fn column(site: &Site, name: &str) -> usize {
    site.column_of(name).unwrap()
}

// --- §4.4 Support, no gaps -------------------------------------------------------------

#[test]
fn support_refuses_empty_space_under_a_cube() {
    let mut g = game(&Board::open_box(4, 4, 4).unwrap(), 2, Variant::Standard);
    ok(&mut g, "D2@b1x2"); // R: b1 is 2 high
    ok(&mut g, "D2@a1,a2"); // Y: a1 is 1 high
                            // R: a flat I3 on b1 (2), c1 (0), d1 (0) would float over c1 and d1.
    assert_eq!(
        illegal(&mut g, "I3@b1,c1,d1"),
        Illegal::Gap {
            column: "c1".into(),
            height: 0,
            needed: 2
        }
    );
    // R: a flat I3 on a1 (1), b1 (2), c1 (0) would have to pass through b1.
    assert_eq!(
        illegal(&mut g, "I3@a1,b1,c1"),
        Illegal::Gap {
            column: "b1".into(),
            height: 2,
            needed: 1
        }
    );
    // A stone may step down the structure: c1 gets levels 1-3, b1 level 3 on top of red.
    ok(&mut g, "L4@b1,c1x3");
    let s = g.site();
    assert_eq!(g.position().height(column(s, "b1")), 3);
    assert_eq!(g.position().height(column(s, "c1")), 3);
    assert_eq!(g.position().cube(column(s, "c1"), 1), Some(Cube::Stone(Colour::Red)));
}

#[test]
fn a_run_must_start_at_the_column_height() {
    let mut g = game(&Board::open_box(4, 4, 4).unwrap(), 2, Variant::Standard);
    ok(&mut g, "D2@a1x2"); // R: a1 is 2 high
    ok(&mut g, "D2@b1,c1"); // Y: b1, c1 are 1 high
                            // R: two cubes in a1 and one in b1: in neither orientation (the lone cube at the foot of
                            // the pair, or at its top) do the runs start at a1 = 2 and b1 = 1.
    assert!(matches!(illegal(&mut g, "V3@a1x2,b1"), Illegal::Gap { .. }));
    // Two cubes in b1 (levels 2-3) and one on a1 (level 3): the runs start at the heights.
    ok(&mut g, "V3@a1,b1x2");
    let s = g.site();
    assert_eq!(g.position().height(column(s, "a1")), 3);
    assert_eq!(g.position().height(column(s, "b1")), 3);
}

// --- §4.2 Footprint and frames ---------------------------------------------------------

#[test]
fn footprint_refuses_cells_off_the_board_and_dots() {
    // Rank 2 has a '.' at c2.
    let b = board("##.#\n####", [3, 3, 3], "");
    let mut g = game(&b, 2, Variant::Standard);
    let m = not_a_placement(&mut g, "D2@c1,c2");
    assert!(m.contains("c2 is outside the footprint"), "{m}");
    let m = not_a_placement(&mut g, "D2@d1,e1");
    assert!(m.contains("'e1' is not a cell"), "{m}");
    let m = not_a_placement(&mut g, "D2@d2,d3");
    assert!(m.contains("'d3' is not a cell"), "{m}");
    assert!(!oracle_moves(g.site(), g.position(), Colour::Red)
        .iter()
        .any(|m| m.contains("c2")));
    ok(&mut g, "D2@c1,d1");
    ok(&mut g, "D2@d2x2");
}

#[test]
fn the_two_player_frame_shrinks_the_footprint() {
    // Pisac: with 2 players only files a-d are buildable.
    let pisac = common::builtin("pisac");
    let mut two = game(pisac, 2, Variant::Standard);
    let m = not_a_placement(&mut two, "D2@e1,e2");
    assert!(m.contains("e1 is outside the footprint"), "{m}");
    ok(&mut two, "D2@d1,d2");
    for players in [3, 4] {
        let mut g = game(pisac, players, Variant::Standard);
        ok(&mut g, "D2@e1,e2");
    }
    // Coricancha: files a-e for 2 players; all ten for 3 and 4 (the rules name a frame for
    // 2 players only, and a reported 3-player game showed 62 squares from above).
    let cori = common::builtin("coricancha");
    for (players, ok_file, bad_file) in [(2, 'e', Some('f')), (3, 'j', None), (4, 'j', None)] {
        let mut g = game(cori, players, Variant::Standard);
        if let Some(f) = bad_file {
            not_a_placement(&mut g, &format!("D2@{f}1,{f}2"));
        }
        ok(&mut g, &format!("D2@{ok_file}1,{ok_file}2"));
    }
}

// --- §4.3 Height ----------------------------------------------------------------------

#[test]
fn printed_heights_limit_their_cells() {
    // a2 printed 1, b2 none, a1 printed 2, b1 printed 3; Hmax 4.
    let b = board("1#\n23", [4, 4, 4], "");
    let mut g = game(&b, 2, Variant::Standard);
    let m = not_a_placement(&mut g, "D2@a2x2");
    assert!(m.contains("taller than the height limit"), "{m}");
    ok(&mut g, "D2@a1,b1"); // R, level 1
    ok(&mut g, "D2@a2,b2"); // Y, level 1 (a2's limit is 1)
                            // R: a1 would reach level 3, over its printed 2.
    assert_eq!(illegal(&mut g, "V3@a1x2,b1"), Illegal::TooHigh { level: 3 });
    // b1 may go to 3, a1 to 2.
    ok(&mut g, "V3@a1,b1x2");
    assert_eq!(g.position().height(column(g.site(), "b1")), 3);
}

#[test]
fn hmax_depends_on_the_number_of_players() {
    let b = board("###\n###", [2, 3, 4], "");
    let mut two = game(&b, 2, Variant::Standard);
    let m = not_a_placement(&mut two, "I3@a1x3");
    assert!(m.contains("height limit"), "{m}");
    let mut three = game(&b, 3, Variant::Standard);
    ok(&mut three, "I3@a1x3");
    let mut four = game(&b, 4, Variant::Standard);
    ok(&mut four, "I4@a1x4");
    // Stacking: with 2 players nothing may reach level 3.
    ok(&mut two, "D2@a1,b1");
    ok(&mut two, "D2@a2,b2");
    ok(&mut two, "O4@a1,a2,b1,b2"); // R at level 2
    assert_eq!(illegal(&mut two, "V3@a1,a2,b1"), Illegal::TooHigh { level: 3 });
}

// --- §4.5 Contact -----------------------------------------------------------------------

#[test]
fn the_first_stone_of_the_game_goes_anywhere() {
    let b = Board::open_box(4, 4, 3).unwrap();
    for text in ["D2@d3,d4", "I3@c3x3", "V3@a1x2,b1", "Y4@d3x2,d4,c3"] {
        let mut g = game(&b, 3, Variant::Standard);
        let canonical = {
            let m = rumis_core::notation::parse_move(g.site(), g.position(), text).unwrap();
            g.notation(m)
        };
        ok(&mut g, &canonical);
    }
}

#[test]
fn the_first_stone_of_a_later_colour_must_touch_and_rest_on_the_board() {
    let b = Board::open_box(4, 4, 3).unwrap();
    let mut g = game(&b, 3, Variant::Standard);
    ok(&mut g, "O4@a1,a2,b1,b2"); // R
                                  // Y: touching red but on top of it (floating above the board).
    assert_eq!(illegal(&mut g, "O4@a1,a2,b1,b2"), Illegal::FirstStoneNotOnBoard);
    // Y: on the board but touching nothing.
    assert_eq!(illegal(&mut g, "D2@d3,d4"), Illegal::FirstStoneNotTouching);
    // Y: only diagonal to red (c3 meets b2 at an edge, not a face).
    assert_eq!(illegal(&mut g, "D2@c3,c4"), Illegal::FirstStoneNotTouching);
    // Y: both: c1 on the board (levels 1-2), b1 on top of red.
    ok(&mut g, "V3@b1,c1x2");
    // G: its first stone too; touching yellow only is enough.
    assert_eq!(illegal(&mut g, "D2@d3,d4"), Illegal::FirstStoneNotTouching);
    ok(&mut g, "D2@d1,d2");
    // R: later stones must touch red: d3 touches green only.
    assert_eq!(
        illegal(&mut g, "D2@d3,d4"),
        Illegal::NoOwnContact { colour: Colour::Red }
    );
    // c3 and d3 touch green (d2) only; b2 is diagonal to c3.
    assert_eq!(
        illegal(&mut g, "D2@c3,d3"),
        Illegal::NoOwnContact { colour: Colour::Red }
    );
    // A later stone need not rest on the board: on top of red is fine.
    ok(&mut g, "D2@a1,a2");
    // Y: touching yellow from the side (c2 is beside c1) while also touching green and red.
    ok(&mut g, "D2@c2,c3");
    // G: a stone that only touches yellow and red is refused; d3 touches green at d2.
    assert_eq!(
        illegal(&mut g, "V3@a3,a4,b3"),
        Illegal::NoOwnContact { colour: Colour::Green }
    );
    ok(&mut g, "V3@c4,d3,d4");
    // A placed stone cannot be placed again.
    assert_eq!(
        illegal(&mut g, "D2@a3,a4"),
        Illegal::StoneUsed {
            colour: Some(Colour::Red),
            stone: Stone::D2
        }
    );
}

// --- §5 Turns, out, the end, the score --------------------------------------------------

/// Yellow has no placement on its turn and is out; two plies later red's stone makes a
/// yellow placement possible, but yellow stays out (found by a random search on this box,
/// then checked by hand).
#[test]
fn a_colour_that_cannot_move_is_out_for_good() {
    let mut g = game(&Board::open_box(4, 3, 2).unwrap(), 2, Variant::Standard);
    for text in ["T4@b1,b2x2,b3", "V3@c2x2,d2", "O4@c3x2,d3x2", "D2@d1x2"] {
        ok(&mut g, text);
    }
    assert_eq!(g.to_move(), Some(Colour::Red));
    ok(&mut g, "D2@a3x2");
    // Yellow's turn: nothing fits that touches yellow, so red moves again.
    assert!(g.position().is_out(Colour::Yellow));
    assert_eq!(g.to_move(), Some(Colour::Red));
    assert!(oracle_moves(g.site(), g.position(), Colour::Yellow).is_empty());
    ok(&mut g, "V3@a1,a2x2");
    // Now an L4 on a1, b1 (level 2) and c1 (levels 1-2) would touch yellow at c1 ...
    let later = oracle_moves(g.site(), g.position(), Colour::Yellow);
    assert!(later.contains(&"L4@a1,b1,c1x2".to_string()), "{later:?}");
    // ... but yellow is out: red is to move (or the game ends), never yellow.
    assert!(g.position().is_out(Colour::Yellow));
    while !g.is_over() {
        assert_eq!(g.to_move(), Some(Colour::Red));
        let m = g.legal_moves()[0];
        g.play(m).unwrap();
    }
    assert!(g.outcome().scores.iter().any(|&(c, _)| c == Colour::Yellow));
}

#[test]
fn a_finished_game_takes_no_more_stones() {
    let mut g = game(&Board::open_box(4, 1, 2).unwrap(), 2, Variant::Standard);
    ok(&mut g, "D2@a1,b1");
    ok(&mut g, "D2@c1,d1");
    ok(&mut g, "I3@a1,b1,c1");
    assert!(g.is_over());
    assert_eq!(g.to_move(), None);
    assert!(g.legal_moves().is_empty());
    assert_eq!(illegal(&mut g, "V3@d1x2,c1"), Illegal::GameOver);
}

#[test]
fn score_is_columns_on_top_minus_unplaced_stones() {
    // A strip a1-d1, 2 high. Red covers yellow's c1.
    let mut g = game(&Board::open_box(4, 1, 2).unwrap(), 2, Variant::Standard);
    ok(&mut g, "D2@a1,b1");
    ok(&mut g, "D2@c1,d1");
    ok(&mut g, "I3@a1,b1,c1");
    // Yellow can only reach d1 at level 2: one cell, no stone fits. Both are out.
    assert!(g.is_over());
    let o = g.outcome();
    // Red: tops a1, b1, c1 = 3, minus 9 stones left. Yellow: d1 = 1, minus 10.
    assert_eq!(o.scores, vec![(Colour::Red, -6), (Colour::Yellow, -9)]);
    assert_eq!(o.players, vec![-6, -9]);
    assert_eq!(o.winners, vec![0]);
}

#[test]
fn equal_top_scores_share_the_win() {
    let mut g = game(&Board::open_box(4, 1, 1).unwrap(), 2, Variant::Standard);
    ok(&mut g, "D2@a1,b1");
    ok(&mut g, "D2@c1,d1");
    assert!(g.is_over());
    let o = g.outcome();
    assert_eq!(o.scores, vec![(Colour::Red, -8), (Colour::Yellow, -8)]);
    assert_eq!(o.winners, vec![0, 1]);
    // Three players, two share: green never places.
    let mut g = game(&Board::open_box(4, 1, 1).unwrap(), 3, Variant::Standard);
    ok(&mut g, "D2@a1,b1");
    ok(&mut g, "D2@c1,d1");
    assert!(g.is_over());
    let o = g.outcome();
    assert_eq!(
        o.scores,
        vec![(Colour::Red, -8), (Colour::Yellow, -8), (Colour::Green, -11)]
    );
    assert_eq!(o.winners, vec![0, 1]);
}

// --- §6 Variants ----------------------------------------------------------------------

#[test]
fn two_players_four_colours_best_single_colour_wins() {
    let b = Board::open_box(3, 2, 2).unwrap();
    let mut g = game(&b, 2, Variant::TwoPlayerFourColors);
    assert_eq!(g.site().colours_of(0), vec![Colour::Red, Colour::Green]);
    assert_eq!(g.site().colours_of(1), vec![Colour::Yellow, Colour::Blue]);
    assert_eq!(g.to_move(), Some(Colour::Red));
    ok(&mut g, "S4@a2,b1,b2,c1");
    assert_eq!(g.to_move(), Some(Colour::Yellow));
    ok(&mut g, "L4@a2,b2,c2x2");
    assert_eq!(g.to_move(), Some(Colour::Green));
    ok(&mut g, "V3@a1x2,b1");
    // Blue has no placement, nor has anyone else.
    assert!(g.is_over());
    let o = g.outcome();
    // Tops: a1 G, b1 G, c1 R, a2 Y, b2 Y, c2 Y.
    assert_eq!(
        o.scores,
        vec![
            (Colour::Red, -9),
            (Colour::Yellow, -7),
            (Colour::Green, -8),
            (Colour::Blue, -11)
        ]
    );
    // Player 1 (R, G): best -8 (sum -17); player 2 (Y, B): best -7 (sum -18). The best
    // single colour decides, so player 2 wins although player 1 has the larger sum.
    assert_eq!(o.players, vec![-8, -7]);
    assert_eq!(o.winners, vec![1]);
}

#[test]
fn two_players_four_colours_use_the_four_player_limits() {
    let b = board("####\n####", [2, 3, 4], "frames = { 2 = \"a1:b2\" }");
    let mut standard = game(&b, 2, Variant::Standard);
    not_a_placement(&mut standard, "I4@a1x4");
    not_a_placement(&mut standard, "D2@c1,d1");
    let mut g = game(&b, 2, Variant::TwoPlayerFourColors);
    ok(&mut g, "I4@a1x4");
    ok(&mut g, "D2@b1,c1");
}

fn ruinas(b: &Board, players: usize, ruins: &[&str]) -> Game {
    Game::with_ruin_texts(site(b, players, Variant::Ruinas), ruins).unwrap()
}

#[test]
fn ruins_score_for_nobody() {
    let chullpa = common::builtin("chullpa");
    let mut g = ruinas(chullpa, 2, &["I4@a1,b1,c1,d1"]);
    assert_eq!(g.site().ruin_colour(), Some(Colour::Green));
    assert_eq!(g.position().cube_count(), 4);
    assert_eq!(g.position().cube(0, 1), Some(Cube::Ruin));
    assert_eq!(g.outcome().scores, vec![(Colour::Red, -11), (Colour::Yellow, -11)]);
    ok(&mut g, "D2@a2,b2");
    ok(&mut g, "D2@e1,e2");
    assert_eq!(g.outcome().scores, vec![(Colour::Red, -8), (Colour::Yellow, -8)]);
    // The ruin's four tops are nobody's.
    let tops: i32 = g.outcome().scores.iter().map(|s| s.1 + 10).sum();
    assert_eq!(tops, 4);
}

#[test]
fn in_ruinas_every_first_stone_touches_the_structure_and_rests_on_the_board() {
    let chullpa = common::builtin("chullpa");
    let mut g = ruinas(chullpa, 2, &["I4@a1,b1,c1,d1"]);
    // Red moves first, yet is not the first stone on the board.
    assert_eq!(illegal(&mut g, "D2@d3,e3"), Illegal::FirstStoneNotTouching);
    assert_eq!(illegal(&mut g, "D2@a1,b1"), Illegal::FirstStoneNotOnBoard);
    ok(&mut g, "D2@a2,b2");
    // Yellow may touch the ruins only.
    assert_eq!(illegal(&mut g, "D2@e3,e4"), Illegal::FirstStoneNotTouching);
    ok(&mut g, "D2@e1,e2");
    // Touching ruins is not touching one's own colour.
    assert_eq!(
        illegal(&mut g, "I3@c1,d1,e1"),
        Illegal::NoOwnContact { colour: Colour::Red }
    );
}

#[test]
fn ruinas_uses_the_limits_for_one_more_player() {
    let chullpa = common::builtin("chullpa"); // Hmax 4 / 6 / 8
    let mut g = ruinas(chullpa, 2, &["I4@a1,b1,c1,d1"]);
    assert_eq!(g.site().limit_players(), 3);
    assert!(g.site().footprint().all(|c| g.site().limits()[c] == 6));
    ok(&mut g, "I4@a2x4"); // R, levels 1-4
    ok(&mut g, "D2@e1x2"); // Y
    assert_eq!(illegal(&mut g, "I3@a2x3"), Illegal::TooHigh { level: 7 });
    ok(&mut g, "D2@a2x2"); // R, levels 5-6: over the 2-player Hmax 4
    let g3 = ruinas(chullpa, 3, &["I4@a1,b1,c1,d1"]);
    assert_eq!(g3.site().limit_players(), 4);
    assert!(g3.site().footprint().all(|c| g3.site().limits()[c] == 8));
    // Pisac's 2-player frame does not apply to a 2-player Ruinas game.
    let mut p = ruinas(common::builtin("pisac"), 2, &["D2@d1,e1"]);
    ok(&mut p, "D2@e2,e3");
}

#[test]
fn ruins_obey_rules_one_to_four_but_need_no_contact() {
    let chullpa = common::builtin("chullpa");
    let site = site(chullpa, 2, Variant::Ruinas);
    // Far apart: no contact needed.
    let g = Game::with_ruin_texts(site.clone(), &["D2@a1,a2", "I3@e2,e3,e4"]).unwrap();
    assert_eq!(g.ruins().len(), 2);
    assert_eq!(g.position().ruins_left().len(), 9);
    // A gap under a ruin is refused.
    let e = Game::with_ruin_texts(site.clone(), &["D2@a1x2", "I3@a1,b1,c1"])
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("ruin 2 'I3@a1,b1,c1'"), "{e}");
    // A ruin stone only once.
    let e = Game::with_ruin_texts(site.clone(), &["D2@a1x2", "D2@e1,e2"])
        .unwrap_err()
        .to_string();
    assert!(e.contains("ruin 2") && e.contains("D2"), "{e}");
    // Too high for the 3-player limit (6).
    let e = Game::with_ruin_texts(site, &["I4@a1x4", "I3@a1x3"])
        .unwrap_err()
        .to_string();
    assert!(e.contains("ruin 2"), "{e}");
}

#[test]
fn a_ruin_that_does_not_fit_is_left_out() {
    // A 2 x 2 box one level high holds 4 flat cubes: whichever of D2, V3, O4 comes first
    // in the random order fits, then nothing else does (2, 1 or 0 cells left, and D2 is the
    // only 2-cube stone). The other ten are left out.
    let b = Board::open_box(2, 2, 1).unwrap();
    let site: Arc<Site> = site(&b, 2, Variant::Ruinas);
    let mut shapes = std::collections::BTreeSet::new();
    for seed in 0..24 {
        let g = Game::with_random_ruins(site.clone(), seed);
        let pos = g.start();
        let placed: Vec<Stone> = g.ruins().iter().map(|&m| site.template(m).stone).collect();
        let left = pos.ruins_left();
        assert_eq!(placed.len() + left.len(), 11, "seed {seed}");
        assert_eq!(placed.len(), 1, "seed {seed}: {placed:?}");
        assert!([Stone::D2, Stone::V3, Stone::O4].contains(&placed[0]));
        assert_eq!(pos.cube_count(), placed.iter().map(|s| s.size()).sum::<usize>());
        // No stone left out fits the final ruins (rules 1-4).
        let vox = Voxels::from_position(&site, pos);
        for s in left {
            for o in s.orientations() {
                for x in 0..2 {
                    for y in 0..2 {
                        let cubes: Vec<_> = o
                            .iter()
                            .map(|&(dx, dy, dz)| (x + dx as i32, y + dy as i32, dz as i32))
                            .collect();
                        assert!(!fits_structure(&site, &vox, &cubes), "seed {seed}: {s:?} fits");
                    }
                }
            }
        }
        // The same ruins, replayed, give the same start.
        let again = Game::with_ruins(site.clone(), g.ruins()).unwrap();
        assert_eq!(again.start(), pos);
        shapes.insert(placed);
    }
    assert_eq!(shapes.len(), 3, "the seeds should give each of the three: {shapes:?}");
}
