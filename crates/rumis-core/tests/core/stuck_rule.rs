//! The house rule "a stuck colour passes" (rules §5-6) against the rulebooks' "out": a
//! position built by hand where a colour is stuck and later has a place again, the perft
//! figures of both rules where they differ (engine, every code path, and the oracle), and
//! records of such games.

use crate::common;

use std::sync::Arc;

use common::{oracle_perft, strip_board};
use rumis_core::record::{self, Record};
use rumis_core::{perft, perft_with, Board, CodePath, Colour, Game, Rng, Site, StuckRule, Variant};

fn strip(rule: StuckRule) -> Arc<Site> {
    Arc::new(
        Site::new(strip_board(), 2, Variant::Standard, None)
            .unwrap()
            .with_stuck_rule(rule),
    )
}

/// Red stands a domino on d1, yellow one on c1 beside it. Red's stones left have three or
/// four cubes, and the only cells touching red that a stone could take are d1's level 3
/// and c1's level 3 (the limit is 3): two cells, so red is stuck. Yellow then lays V3 on
/// a1 and b1 (b1 two high): now b1, c1 and d1 are 2 high, and I3 across them at level 3
/// rests on red's d1 — a place for red again.
fn stuck_then_open(rule: StuckRule) -> Game {
    let mut g = Game::new(strip(rule));
    g.play_text("D2@d1x2").unwrap();
    g.play_text("D2@c1x2").unwrap();
    g
}

/// Every colour that moves anywhere in the game tree below `g`, `depth` placements deep.
fn movers(g: &mut Game, depth: u32, seen: &mut Vec<Colour>) {
    let Some(c) = g.to_move() else { return };
    if !seen.contains(&c) {
        seen.push(c);
    }
    if depth == 0 {
        return;
    }
    for m in g.legal_moves() {
        g.play(m).unwrap();
        movers(g, depth - 1, seen);
        g.undo();
    }
}

#[test]
fn under_out_a_stuck_colour_never_moves_again() {
    let mut g = stuck_then_open(StuckRule::Out);
    assert!(g.position().is_out(Colour::Red));
    assert_eq!(g.to_move(), Some(Colour::Yellow));
    g.play_text("V3@a1,b1x2").unwrap();
    // The place is open (red would have it if it were its turn), but red is out for good.
    assert_eq!(g.to_move(), Some(Colour::Yellow));
    assert!(g.legal_notations().contains(&"I3@b1,c1,d1".to_string()));
    let mut seen = Vec::new();
    movers(&mut g, 4, &mut seen);
    assert_eq!(seen, [Colour::Yellow], "only yellow moves to the end of every line");
}

#[test]
fn under_pass_a_stuck_colour_passes_and_comes_back() {
    let mut g = stuck_then_open(StuckRule::Pass);
    // Red passes: not out, not to move, no placement.
    assert!(!g.position().is_out(Colour::Red));
    assert_eq!(g.position().count_moves_for(g.site(), Colour::Red), 0);
    assert_eq!(g.to_move(), Some(Colour::Yellow));
    g.play_text("V3@a1,b1x2").unwrap();
    assert_eq!(g.to_move(), Some(Colour::Red));
    assert_eq!(g.legal_notations(), ["I3@b1,c1,d1"]);
    g.play_text("I3@b1,c1,d1").unwrap();
    // The strip is full to the limit but a1 (1 high, yellow): nobody can place, the game
    // is over and every colour is out.
    assert!(g.is_over());
    assert!(g.position().is_out(Colour::Red) && g.position().is_out(Colour::Yellow));
    assert_eq!(g.outcome().scores, [(Colour::Red, 3 - 9), (Colour::Yellow, 1 - 9)]);
}

/// A colour with no stone left is out under the house rule too (it can never place).
#[test]
fn under_pass_a_colour_without_stones_is_out() {
    let board = Board::open_box(5, 5, 4).unwrap();
    let site = Arc::new(
        Site::new(board, 2, Variant::Standard, None)
            .unwrap()
            .with_stuck_rule(StuckRule::Pass),
    );
    let mut checked = 0;
    for seed in 0..20 {
        let mut g = Game::new(site.clone());
        g.play_random(&mut Rng::new(seed));
        // Like any colour, it is looked at when the turn comes round to its seat: right
        // after its predecessor in order of play has placed, it is out.
        let n = site.order().len();
        for i in 0..g.moves().len() {
            let seat = site.order().iter().position(|&c| Some(c) == g.mover(i)).unwrap();
            let c = site.order()[(seat + 1) % n];
            let (before, after) = (&g.positions()[i], &g.positions()[i + 1]);
            assert!(after.to_move(&site) != Some(c) || !after.stones_left(c).is_empty());
            if before.stones_left(c).is_empty() {
                assert!(
                    after.is_out(c),
                    "seed {seed} ply {i}: {c:?} has no stone but is not out"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no colour placed all its stones");
}

/// Perft from the stuck position: the pass is not a node (rules §8, as an out colour is
/// skipped). perft(1) is yellow's 7 placements under both rules (by hand: I3@b1x3,
/// V3@a1,b1x2, V3@a1x2,b1, O4@a1x2,b1x2, L4@a1,b1x3, L4@a1x3,b1, L4@b1x3,c1: the stones
/// that lie in the strip's plane and touch c1's yellow). From perft(2) on they differ:
/// after V3@a1,b1x2 or O4@a1x2,b1x2 (b1 two high) red's one placement I3@b1,c1,d1 is the
/// only reply under the house rule, where under "out" yellow plays on. The figures were
/// computed by the engine and, with its own passing of the turn, by the oracle
/// (tests/common), which agree; pinned as literals.
#[test]
fn perft_where_the_rules_differ() {
    for (rule, figures) in [(StuckRule::Out, [7, 11, 11]), (StuckRule::Pass, [7, 8, 8])] {
        let mut g = stuck_then_open(rule);
        let engine: Vec<u64> = (1..=3).map(|d| perft(g.site(), g.position(), d)).collect();
        assert_eq!(engine, figures, "{rule}");
        for (d, &want) in (1..=3).zip(&figures) {
            for path in CodePath::available() {
                assert_eq!(
                    perft_with(g.site(), g.position(), d, path),
                    Ok(want),
                    "{rule} {path} perft({d})"
                );
            }
            assert_eq!(oracle_perft(&mut g, d), want, "{rule} oracle perft({d})");
        }
    }
}

/// The same on built-in scenarios: positions from random games under the house rule, two
/// placements before a colour that had passed places again (found by playing random
/// games; the figures by the engine, and where quick by the oracle, which agree).
#[test]
fn perft_where_the_rules_differ_on_scenarios() {
    for (board, players, moves, out, pass) in SCENARIO_CASES {
        for (rule, figures) in [(StuckRule::Out, out), (StuckRule::Pass, pass)] {
            let site = Site::new(
                Board::builtin(board).unwrap().clone(),
                *players,
                Variant::Standard,
                None,
            )
            .unwrap()
            .with_stuck_rule(rule);
            let mut g = Game::new(Arc::new(site));
            for m in moves.split_whitespace() {
                g.play_text(m).unwrap();
            }
            for (d, &want) in (1..=3).zip(figures.iter()) {
                assert_eq!(perft(g.site(), g.position(), d), want, "{board} {rule} perft({d})");
            }
            // The oracle where it is quick: to the depth where the rules part.
            let depth = if figures[1] < 1_000 { 3 } else { 2 };
            assert_eq!(
                oracle_perft(&mut g, depth),
                figures[depth as usize - 1],
                "{board} {rule} oracle perft({depth})"
            );
        }
    }
}

type ScenarioCase = (&'static str, usize, &'static str, [u64; 3], [u64; 3]);

const SCENARIO_CASES: &[ScenarioCase] = &[
    ("cucho", 4, "B4@b4,b5,c5x2 D2@b2,b3 B4@a5,a6,b6x2 D2@c3x2 S4@a5,b5x2,c5 S4@a2x2,b2x2 Y4@c6,c7x2,d7 T4@a3x3,b3 D2@b5,c5 O4@b1x2,c1x2 T4@d7,d8x3 V3@c2,d2,d3 L4@c4,d4x3 B4@b3,c3,c4x2 L4@c7,c8x3 S4@a4x2,b4x2 T4@a5,a6x3 V3@c2x2,d2 S4@e8,f7,f8,g7 I3@b4,c4,d4 Y4@d5,d6x2,e6 I3@h5,h6,h7 A4@a7x2,a8,b8 O4@f7x2,f8x2", [46, 3_273, 78_225], [46, 3_273, 62_098]),
    ("tambo", 3, "L4@b1,b2,b3,c1 S4@a3x2,b3x2 I3@b4,b5,b6 V3@b1,b2x2 L4@a1x3,a2 Y4@c5,c6x2,d6 T4@d1,e1,e2,f1 V3@a2x2,a3 A4@d5,e5,e6x2 Y4@f2,g1,g2x2 D2@a4x2 D2@f5,f6 D2@h2,h3 A4@a4,b4x2,b5 T4@c6,d6x2,e6 O4@g4x2,h4x2 O4@a5x2,a6x2 V3@d5x2,e5 A4@g5,h5,h6x2 B4@a5,b5,b6x2 L4@f5,g5,h5x2 S4@g3x2,h3x2", [4, 85, 336], [4, 85, 310]),
    ("pirka", 3, "D2@d1,d2 V3@e2,e3,f2 V3@c2x2,d2 V3@d3,d4,e4 A4@e2,e3,f2x2 I3@b1,b2,b3 L4@b5x2,c5,d5 O4@d4x2,e4x2 S4@a1x2,b1x2 I3@f4x3 B4@b4,c4x2,c5 L4@a2x3,a3 A4@c7x2,d6,d7 S4@b3,b4x2,b5 D2@d2,e2 S4@c3x2,d3x2 T4@a3,a4x3 A4@b2x2,c2,c3 Y4@a6,a7x2,b7 L4@e1x3,f1 T4@c1x3,d1 O4@d5x2,d6x2 D2@f1x2 T4@a5x3,a6 I3@c6x3", [2, 7, 7], [2, 7, 8]),
];

#[test]
fn a_pass_record_carries_its_rule_and_replays() {
    let mut g = stuck_then_open(StuckRule::Pass);
    g.play_text("V3@a1,b1x2").unwrap();
    g.play_text("I3@b1,c1,d1").unwrap();
    let text = record::write(&g);
    assert!(text.contains("[StuckRule \"pass\"]\n"), "{text}");
    // The tags the reader knows stay out of the free tags.
    let back = Record::parse(&text)
        .unwrap()
        .to_game(|_| Ok::<_, String>(strip_board()))
        .unwrap();
    assert_eq!(back.site().stuck_rule(), StuckRule::Pass);
    assert_eq!(back.moves(), g.moves());
    assert_eq!(back.positions(), g.positions());
    assert!(back.tags.is_empty(), "{:?}", back.tags);
    assert_eq!(record::write(&back), text);

    // Without the tag the rulebooks' rule applies: the same moves are another game
    // (yellow, not red, plays the I3), and its Result does not match.
    let without = text.replace("[StuckRule \"pass\"]\n", "");
    let e = Record::parse(&without)
        .unwrap()
        .to_game(|_| Ok::<_, String>(strip_board()))
        .unwrap_err();
    assert!(e.message.contains("Result"), "{e}");

    // An unknown rule is an error on its line, naming the rules there are.
    let bad = text.replace("\"pass\"", "\"skip\"");
    let e = Record::parse(&bad)
        .unwrap()
        .to_game(|_| Ok::<_, String>(strip_board()))
        .unwrap_err();
    // (The strip is a board of one's own: its BoardFile tag comes before the rule's.)
    let line = bad.lines().position(|l| l.starts_with("[StuckRule")).unwrap() + 1;
    assert_eq!(e.line, line, "{e}");
    assert!(e.message.contains("skip") && e.message.contains("out, pass"), "{e}");
}

/// Under the rulebooks' rule the record has no StuckRule tag (records read as before), and
/// `out` written as a tag reads as the default.
#[test]
fn an_out_record_has_no_tag() {
    let g = stuck_then_open(StuckRule::Out);
    let text = record::write(&g);
    assert!(!text.contains("StuckRule"), "{text}");
    let tagged = text.replace("[Variant", "[StuckRule \"out\"]\n[Variant");
    let back = Record::parse(&tagged)
        .unwrap()
        .to_game(|_| Ok::<_, String>(strip_board()))
        .unwrap();
    assert_eq!(back.site().stuck_rule(), StuckRule::Out);
    assert_eq!(back.positions(), g.positions());
}

#[test]
fn rule_names() {
    for r in StuckRule::ALL {
        assert_eq!(StuckRule::from_name(r.name()), Some(r));
        assert_eq!(StuckRule::from_name(&format!(" {} ", r.name().to_uppercase())), Some(r));
    }
    assert_eq!(StuckRule::from_name("passes"), None);
    assert_eq!(StuckRule::default(), StuckRule::Out);
    let site = Site::new(strip_board(), 2, Variant::Standard, None).unwrap();
    assert_eq!(site.stuck_rule(), StuckRule::Out);
}
