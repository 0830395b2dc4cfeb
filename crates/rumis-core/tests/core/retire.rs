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
    // Red leaves too: Green is the only player left, and the game ends at once (rules §5.1).
    g.retire(Colour::Red, None).unwrap();
    assert!(g.is_over());
    assert_eq!(g.retire(Colour::Green, None), Err(RetireError::GameOver));
    assert_eq!(g.retire(Colour::Red, None), Err(RetireError::GameOver));
}

#[test]
fn a_colour_that_left_keeps_its_tops_less_its_stones_left() {
    let mut g = game("chullpa", 3, Variant::Standard);
    play_first(&mut g); // Red places a stone of 4 cubes on the board
    let red_tops = g.position().score(g.site(), Colour::Red) + 10;
    assert!(red_tops > 0);
    g.retire(Colour::Red, Some("resigned")).unwrap();
    assert!(!g.is_over(), "two players are left: they play on");
    // Yellow and Green play on to the end.
    let mut rng = Rng::new(7);
    g.play_random(&mut rng);
    assert!(g.is_over());
    let o = g.outcome();
    let red = o.scores.iter().find(|s| s.0 == Colour::Red).unwrap().1;
    // Red's stone may have been covered since: at most its tops then, less 10 stones.
    assert!(red <= red_tops - 10, "{red}");
    assert!(red >= -10);
    assert_eq!(g.position().stones_placed(Colour::Red), 1);
    // Every move after the retirement was Yellow's or Green's.
    for i in 1..g.moves().len() {
        assert_ne!(g.mover(i), Some(Colour::Red));
    }
    // Red forfeited: last, whatever the scores (rules §5.1).
    assert_eq!(o.forfeited, vec![0]);
    assert_eq!(o.places[0], *o.places.iter().max().unwrap());
    assert!(o.places[0] >= 2);
    assert!(!o.winners.contains(&0));
}

/// Rules §5.1: in a two-player game a resignation ends the game at once, and the other
/// player wins even with the lower score; the colour to move or not, the same.
#[test]
fn a_two_player_resignation_ends_the_game_at_once() {
    for (resigner, winner) in [(Colour::Red, 1), (Colour::Yellow, 0)] {
        let mut g = game("chullpa", 2, Variant::Standard);
        // Red leads: a stone on the board against Yellow's nothing.
        play_first(&mut g);
        assert_eq!(g.to_move(), Some(Colour::Yellow));
        g.retire(resigner, Some("resigned")).unwrap();
        assert!(g.is_over());
        assert_eq!(g.to_move(), None);
        assert!(g.legal_moves().is_empty());
        let o = g.outcome();
        assert_eq!(o.winners, vec![winner], "{o:?}");
        assert_eq!(o.forfeited, vec![1 - winner]);
        let mut places = vec![0, 0];
        places[winner] = 1;
        places[1 - winner] = 2;
        assert_eq!(o.places, places);
        assert_eq!(g.position().hash(), g.position().hash_from_scratch());
        // The record reads back to the same result, and nothing can follow it.
        let text = record::write(&g);
        let back = read_game(&text).unwrap();
        assert_eq!(back.outcome(), o);
        let more = format!("{}\n2. L4@e1,e2,e3,f1\n", text.trim_end());
        assert!(read_game(&more).is_err(), "{more}");
    }
    // Yellow ahead on the board, Yellow runs out of time: Red wins with the lower score.
    let mut g = game("chullpa", 2, Variant::Standard);
    let small = g
        .legal_moves()
        .into_iter()
        .find(|&m| g.notation(m).starts_with("D2"))
        .unwrap();
    g.play(small).unwrap();
    let big = g
        .legal_moves()
        .into_iter()
        .find(|&m| g.notation(m).starts_with("L4"))
        .unwrap();
    g.play(big).unwrap();
    let score = |g: &Game, c| g.position().score(g.site(), c);
    assert!(score(&g, Colour::Yellow) > score(&g, Colour::Red));
    g.retire(Colour::Yellow, Some("time")).unwrap();
    assert_eq!(g.outcome().winners, vec![0]);
}

/// Rules §5.1 with three players: one forfeit leaves two to play on; a second ends it,
/// and the one left wins whatever the scores.
#[test]
fn three_players_play_on_after_one_forfeit_and_stop_after_two() {
    let mut g = game("pisac", 3, Variant::Standard);
    for _ in 0..3 {
        play_first(&mut g);
    }
    g.retire(Colour::Yellow, Some("resigned")).unwrap();
    assert!(!g.is_over());
    assert_eq!(g.to_move(), Some(Colour::Red));
    play_first(&mut g);
    assert_eq!(g.to_move(), Some(Colour::Green), "Yellow is skipped");
    g.retire(Colour::Green, Some("time")).unwrap();
    assert!(g.is_over());
    let o = g.outcome();
    assert_eq!(o.winners, vec![0]);
    assert_eq!(o.forfeited, vec![1, 2]);
    assert_eq!(o.places, vec![1, 2, 2]);
}

/// The places: by score, ties sharing a place (dense), forfeits after all the others.
#[test]
fn places_share_ties_and_put_forfeits_last() {
    use rumis_core::places;
    assert_eq!(places(&[7, 5, 7, 3], &[]), vec![1, 2, 1, 3]);
    assert_eq!(places(&[9, 5, 7], &[0]), vec![3, 2, 1]);
    assert_eq!(places(&[4, 4], &[]), vec![1, 1]);
    assert_eq!(places(&[9, 5, 7, 2], &[0, 2]), vec![3, 1, 3, 2]);
    // Two tie for first, the forfeit is the next place, not the third (scores 4, 10, 4
    // with the middle seat forfeited).
    assert_eq!(places(&[4, 10, 4], &[1]), vec![1, 2, 1]);
    assert_eq!(places(&[4, 10], &[0, 1]), vec![1, 1]);
}

/// A player counted as forfeited from outside the core (the server's seat the AI plays on
/// after its player walked away) ranks last as a resignation does.
#[test]
fn an_outcome_counts_players_forfeited_from_outside() {
    let mut g = game("chullpa", 3, Variant::Standard);
    g.play_random(&mut Rng::new(5));
    let plain = g.outcome();
    let best = plain.winners[0];
    let o = g.outcome_with(&[best, 7]);
    assert_eq!(o.forfeited, vec![best], "a player not in the game is ignored");
    assert_eq!(o.places[best], *o.places.iter().max().unwrap());
    assert!(o.places[best] > 1);
    assert!(!o.winners.contains(&best));
    assert!(!o.winners.is_empty());
    assert_eq!(o.scores, plain.scores, "the scores are still shown");
}

/// In the two-player four-colour game a player forfeits by a colour of theirs leaving:
/// the game ends at once, the other player the winner.
#[test]
fn the_two_player_four_colour_game_ends_when_a_player_leaves() {
    let mut g = game("chullpa", 2, Variant::TwoPlayerFourColors);
    let order = g.site().order().to_vec();
    let p0: Vec<Colour> = order
        .iter()
        .copied()
        .filter(|&c| g.site().player_of(c) == Some(0))
        .collect();
    assert_eq!(p0.len(), 2);
    play_first(&mut g);
    g.retire(p0[0], Some("resigned")).unwrap();
    assert!(g.is_over());
    assert_eq!(g.retire(p0[1], Some("resigned")), Err(RetireError::GameOver));
    let o = g.outcome();
    assert_eq!((o.winners, o.forfeited, o.places), (vec![1], vec![0], vec![2, 1]));
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
    // The game ended there (rules §5.1); the record's Result is checked on reading.
    assert!(text.contains("[Result"), "{text}");
    read_game(&text).unwrap();
    // A leaving written without a reason, in lower case, reads too.
    let head = "[Board \"Chullpa\"]\n[Players \"3\"]\n\n";
    let g = read_game(&format!("{head}1. L4@a1,a2,a3,b1 y:OUT\n")).unwrap();
    assert_eq!(g.retirements()[0].colour, Colour::Yellow);
    assert_eq!(g.retirements()[0].reason, None);
    assert_eq!(g.to_move(), Some(Colour::Green));
}

#[test]
fn bad_leavings_are_refused_with_the_move_and_the_reason() {
    let head = "[Board \"Chullpa\"]\n[Players \"2\"]\n\n";
    let cases: [(&str, &[&str]); 7] = [
        ("1. L4@a1,a2,a3,b1 Y:gone", &["neither a placement nor", "Y:out"]),
        ("1. L4@a1,a2,a3,b1 Q:out", &["'Q' is not a colour"]),
        ("1. L4@a1,a2,a3,b1 :out", &["is not a colour"]),
        ("1. L4@a1,a2,a3,b1 G:out", &["green does not play in this game"]),
        ("Y:out Y:out", &["after the end of the game"]),
        ("R:out Y:out R:out", &["after the end of the game"]),
        // A 2-player game ends with a resignation: no move after it (rules §5.1).
        (
            "1. L4@a1,a2,a3,b1 Y:out 2. L4@e1,e2,e3,f1",
            &["after the end of the game"],
        ),
    ];
    let three = "[Board \"Chullpa\"]\n[Players \"3\"]\n\n";
    let e = read_game(&format!("{three}Y:out Y:out\n")).map(|_| ()).unwrap_err();
    assert!(e.message.contains("yellow is out already"), "{e}");
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
