//! A colour leaving the game (resign, time): `Position::retire` / `Game::retire`. Turn
//! order skips it, it keeps its score with the penalty for stones not placed, undo and perft
//! stay consistent, and records carry it as `Y:out {reason}` and replay it.

use std::sync::Arc;

use rumis_core::record::{self, read_game};
use rumis_core::{perft, Board, Colour, Game, RetireError, Rng, Site, Variant};

fn game(board: &str, players: usize, variant: Variant) -> Game {
    let board = Board::builtin(board).unwrap().clone();
    Game::new(Arc::new(Site::new(board, players, variant, None).unwrap()))
}

fn play_first(g: &mut Game) {
    let m = g.legal_moves()[0];
    g.play(m).unwrap();
}

#[test]
fn turn_order_skips_a_colour_that_left() {
    let mut g = game("chullpa", 4, Variant::Standard);
    assert_eq!(g.to_move(), Some(Colour::Red));
    play_first(&mut g);
    assert_eq!(g.to_move(), Some(Colour::Yellow));
    // Green leaves while Yellow is to move: Yellow still moves, then Blue.
    g.retire(Colour::Green, Some("resigned")).unwrap();
    assert_eq!(g.to_move(), Some(Colour::Yellow));
    assert!(g.position().is_out(Colour::Green));
    play_first(&mut g);
    assert_eq!(g.to_move(), Some(Colour::Blue));
    // The colour to move leaves: the turn passes on as after a placement.
    g.retire(Colour::Blue, Some("time")).unwrap();
    assert_eq!(g.to_move(), Some(Colour::Red));
    play_first(&mut g);
    assert_eq!(g.to_move(), Some(Colour::Yellow));
    assert_eq!(g.position().hash(), g.position().hash_from_scratch());
}

#[test]
fn refusals_say_why_and_change_nothing() {
    let mut g = game("chullpa", 3, Variant::Standard);
    let before = g.position().clone();
    let blue_absent = g.site().order().iter().all(|&c| c != Colour::Blue);
    assert!(blue_absent);
    assert_eq!(g.retire(Colour::Blue, None), Err(RetireError::NotInGame(Colour::Blue)));
    assert_eq!(g.position(), &before);
    g.retire(Colour::Yellow, None).unwrap();
    let after = g.position().clone();
    let again = g.retire(Colour::Yellow, None).unwrap_err();
    assert_eq!(again, RetireError::AlreadyOut(Colour::Yellow));
    assert_eq!(again.to_string(), "yellow is out already");
    assert_eq!(g.position(), &after);
    assert_eq!(g.retirements().len(), 1);
    g.retire(Colour::Red, None).unwrap();
    g.retire(Colour::Green, None).unwrap();
    assert!(g.is_over());
    assert_eq!(g.retire(Colour::Red, None), Err(RetireError::GameOver));
}

#[test]
fn a_colour_that_left_keeps_its_tops_less_its_stones_left() {
    let mut g = game("chullpa", 2, Variant::Standard);
    play_first(&mut g); // Red places a stone of 4 cubes on the board
    let red_tops = g.position().score(g.site(), Colour::Red) + 10;
    assert!(red_tops > 0);
    g.retire(Colour::Red, Some("resigned")).unwrap();
    // Yellow plays on alone to the end.
    let mut rng = Rng::new(7);
    g.play_random(&mut rng);
    assert!(g.is_over());
    let o = g.outcome();
    let red = o.scores.iter().find(|s| s.0 == Colour::Red).unwrap().1;
    // Red's stone may have been covered since: at most its tops then, less 10 stones.
    assert!(red <= red_tops - 10, "{red}");
    assert!(red >= -10);
    assert_eq!(g.position().stones_placed(Colour::Red), 1);
    // Every move after the retirement was Yellow's.
    for i in 1..g.moves().len() {
        assert_eq!(g.mover(i), Some(Colour::Yellow));
    }
}

#[test]
fn the_two_player_four_colour_game_retires_one_colour_at_a_time() {
    let mut g = game("chullpa", 2, Variant::TwoPlayerFourColors);
    let order = g.site().order().to_vec();
    // A player resigning is both its colours leaving.
    let p0: Vec<Colour> = order
        .iter()
        .copied()
        .filter(|&c| g.site().player_of(c) == Some(0))
        .collect();
    assert_eq!(p0.len(), 2);
    for &c in &p0 {
        g.retire(c, Some("resigned")).unwrap();
    }
    let to_move = g.to_move().unwrap();
    assert_eq!(g.site().player_of(to_move), Some(1));
}

#[test]
fn undo_takes_back_a_retirement_after_the_move_and_keeps_one_before() {
    let mut g = game("chullpa", 4, Variant::Standard);
    play_first(&mut g);
    g.retire(Colour::Blue, None).unwrap(); // after move 1
    let after_first = g.position().clone();
    play_first(&mut g);
    g.retire(Colour::Green, None).unwrap(); // after move 2
    assert!(g.position().is_out(Colour::Green));
    g.undo().unwrap();
    assert_eq!(g.position(), &after_first);
    assert_eq!(g.retirements().len(), 1);
    assert_eq!(g.retirements()[0].colour, Colour::Blue);
    // The mover of a move is the colour to move in the position before it, leavings included.
    play_first(&mut g);
    assert_eq!(g.mover(1), Some(Colour::Yellow));
    assert_eq!(g.mover(2), Some(Colour::Green));
}

/// Perft from a position where a colour left counts what playing on counts: the same
/// figure as walking the tree by hand with `Game::play` and `undo`.
#[test]
fn perft_after_a_retirement_matches_a_walk_of_the_game() {
    fn walk(g: &mut Game, depth: u32) -> u64 {
        if depth == 0 || g.is_over() {
            return 1;
        }
        let mut n = 0;
        for m in g.legal_moves() {
            g.play(m).unwrap();
            n += walk(g, depth - 1);
            g.undo();
        }
        n
    }
    let mut g = game("chullpa", 4, Variant::Standard);
    play_first(&mut g);
    g.retire(Colour::Green, None).unwrap();
    let pos = g.position().clone();
    let fast = perft(g.site(), &pos, 3);
    assert_eq!(fast, walk(&mut g, 3));
    // And it is not the figure with Green still in.
    let mut h = game("chullpa", 4, Variant::Standard);
    play_first(&mut h);
    assert_ne!(fast, perft(h.site(), h.position(), 3));
}

#[test]
fn records_carry_leavings_and_replay_them() {
    let mut rng = Rng::new(11);
    for round in 0..40 {
        let players = 2 + round % 3;
        let mut g = game(["chullpa", "pirka", "tambo"][round % 3], players, Variant::Standard);
        // Play at random; now and then a colour leaves, at any point (also not to move).
        while !g.is_over() {
            if rng.below(9) == 0 {
                let order = g.site().order().to_vec();
                let c = order[rng.below(order.len())];
                if !g.position().is_out(c) {
                    let reason = ["resigned", "time", "a long reason with spaces"][rng.below(3)];
                    g.retire(c, Some(reason)).unwrap();
                    continue;
                }
            }
            if g.is_over() {
                break;
            }
            let moves = g.legal_moves();
            g.play(moves[rng.below(moves.len())]).unwrap();
        }
        let text = record::write(&g);
        let back = read_game(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.retirements(), g.retirements(), "{text}");
        assert_eq!(back.moves(), g.moves());
        assert_eq!(back.position(), g.position());
        assert_eq!(back.outcome(), g.outcome());
        assert_eq!(record::write(&back), text);
    }
}

#[test]
fn a_record_shows_where_a_colour_left() {
    let mut g = game("chullpa", 2, Variant::Standard);
    play_first(&mut g);
    g.retire(Colour::Yellow, Some("time")).unwrap();
    let text = record::write(&g);
    assert!(text.contains("1. ") && text.contains(" Y:out {time}"), "{text}");
    // Red plays alone to the end; the record's Result is checked on reading.
    g.play_random(&mut Rng::new(3));
    let text = record::write(&g);
    assert!(text.contains("[Result"), "{text}");
    read_game(&text).unwrap();
    // A leaving written without a reason, in lower case, reads too.
    let head = "[Board \"Chullpa\"]\n[Players \"2\"]\n\n";
    let g = read_game(&format!("{head}1. L4@a1,a2,a3,b1 y:OUT\n")).unwrap();
    assert_eq!(g.retirements()[0].colour, Colour::Yellow);
    assert_eq!(g.retirements()[0].reason, None);
    assert_eq!(g.to_move(), Some(Colour::Red));
}

#[test]
fn bad_leavings_are_refused_with_the_move_and_the_reason() {
    let head = "[Board \"Chullpa\"]\n[Players \"2\"]\n\n";
    let cases: [(&str, &[&str]); 6] = [
        ("1. L4@a1,a2,a3,b1 Y:gone", &["neither a placement nor", "Y:out"]),
        ("1. L4@a1,a2,a3,b1 Q:out", &["'Q' is not a colour"]),
        ("1. L4@a1,a2,a3,b1 :out", &["is not a colour"]),
        ("1. L4@a1,a2,a3,b1 G:out", &["green does not play in this game"]),
        ("Y:out Y:out", &["yellow is out already"]),
        ("R:out Y:out R:out", &["after the end of the game"]),
    ];
    for (moves, words) in cases {
        let text = format!("{head}{moves}\n");
        let e = read_game(&text).map(|_| ()).unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        for w in words {
            assert!(e.message.contains(w), "'{}' does not say '{w}'", e.message);
        }
    }
    // The move number of an error counts placements, not leavings.
    let e = read_game(&format!("{head}R:out Y4@z9\n")).map(|_| ()).unwrap_err();
    assert_eq!(e.move_number, Some(1), "{e}");
}

/// Random tokens with a colon among the moves: never a panic, always a reason.
#[test]
fn random_leaving_tokens_never_panic() {
    let mut rng = Rng::new(5);
    let parts = [
        "R",
        "Y",
        "G",
        "B",
        "X",
        "",
        "out",
        "OUT",
        "in",
        ":",
        "{",
        "}",
        "é",
        "1.",
        " ",
        "L4@a1,a2,a3,b1",
    ];
    let head = "[Board \"Chullpa\"]\n[Players \"3\"]\n\n";
    for _ in 0..3000 {
        let n = 1 + rng.below(8);
        let body: String = (0..n).map(|_| parts[rng.below(parts.len())]).collect();
        if let Err(e) = read_game(&format!("{head}{body}\n")) {
            assert!(!e.message.is_empty());
        }
    }
}
