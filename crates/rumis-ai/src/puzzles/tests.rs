use super::*;
use crate::test_game as game;
use rumis_core::Rng;

/// Positions near the end of random games on Chullpa, two players, that the solver
/// decides: (the game up to there, every placement's value for the mover).
fn solved_positions(seeds: std::ops::Range<u64>) -> Vec<(Game, Vec<(Move, f32)>)> {
    let mut out = Vec::new();
    for seed in seeds {
        let mut g = game("chullpa", 2, Variant::Standard);
        g.play_random(&mut Rng::new(seed));
        for i in (g.moves().len().saturating_sub(6)..g.moves().len()).rev() {
            let then = g.after(i);
            let mover = then.to_move().unwrap().index();
            if let Some(each) = Solver::new(then.site(), EXACT_NODES).solve_each(then.position()) {
                let values = each.iter().map(|&(m, v)| (m, v[mover])).collect();
                out.push((then, values));
            }
        }
    }
    out
}

/// A puzzle cut from a game verifies; the same puzzle with its best placement replaced
/// by another legal one is refused, as is one whose stored values were changed.
#[test]
fn a_cut_puzzle_verifies_and_a_tampered_one_does_not() {
    let cutting = Cutting {
        exact_per_game: 2,
        searched_per_game: 0,
        simulations: 0,
    };
    let mut checked = 0;
    for seed in 0..20 {
        let mut g = game("chullpa", 2, Variant::Standard);
        g.play_random(&mut Rng::new(seed));
        for p in cut(&g, &cutting, "test") {
            let site = g.site_arc();
            assert_eq!(verify(site, &p), Ok(()), "{p:?}");
            let (then, best) = p.position(site).unwrap();
            let other = then.legal_moves().into_iter().find(|&m| m != best).unwrap();
            let tampered = Puzzle {
                best: then.notation(other),
                ..p.clone()
            };
            let e = verify(site, &tampered).unwrap_err();
            assert!(e.contains("the best placement is"), "{e}");
            let Proof::Exact {
                value, second, nodes, ..
            } = p.proof
            else {
                panic!("exact only")
            };
            let inflated = Puzzle {
                proof: Proof::Exact {
                    value: value + 0.1,
                    second,
                    margin: value + 0.1 - second,
                    nodes,
                },
                ..p.clone()
            };
            assert!(verify(site, &inflated).unwrap_err().contains("stored values"));
            checked += 1;
        }
    }
    assert!(checked >= 5, "only {checked} puzzles cut");
}

/// A position where two placements are equally good is no puzzle: the cut skips it and
/// verification refuses a puzzle made of it, whichever of the two it names.
#[test]
fn a_second_equally_good_placement_is_refused() {
    let mut refused = 0;
    for (then, values) in solved_positions(0..30) {
        if values.len() < MIN_CHOICES {
            continue;
        }
        let top = values.iter().map(|v| v.1).fold(f32::MIN, f32::max);
        let tied: Vec<Move> = values.iter().filter(|v| v.1 == top).map(|v| v.0).collect();
        if tied.len() < 2 {
            continue;
        }
        assert_eq!(prove_exact(&then), Ok(None), "no proof with a tie");
        for &best in &tied[..2] {
            let p = puzzle(
                &then,
                best,
                Proof::Exact {
                    value: top,
                    second: top - EXACT_MARGIN,
                    margin: EXACT_MARGIN,
                    nodes: 1,
                },
                "test",
            );
            let e = verify(then.site_arc(), &p).unwrap_err();
            assert!(e.contains("no placement leads"), "{e}");
            refused += 1;
        }
    }
    assert!(refused >= 4, "only {refused} ties found");
}

/// The files' format: a set written and read is itself, with the field names the web app
/// reads.
#[test]
fn a_puzzle_set_reads_back() {
    let mut g = game("chullpa", 2, Variant::Standard);
    g.play_random(&mut Rng::new(3));
    let then = g.after(g.moves().len() - 1);
    let best = then.legal_moves()[0];
    let set = PuzzleSet {
        board: "Chullpa".into(),
        players: 2,
        variant: "standard".into(),
        puzzles: vec![puzzle(
            &then,
            best,
            Proof::Searched {
                simulations: 10,
                seeds: [1, 2],
                value: [0.5, 0.5],
                second: [0.3, 0.3],
                margin: [0.2, 0.2],
            },
            "test",
        )],
    };
    let text = set.to_json();
    assert!(
        text.contains("\"kind\": \"searched\"") && text.contains("\"to_move\""),
        "{text}"
    );
    assert_eq!(PuzzleSet::from_json(&text), Ok(set));
}

/// The shipped puzzles of Chullpa with two players (the repository's `puzzles/`).
fn shipped() -> PuzzleSet {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../puzzles/chullpa-2.json")).unwrap();
    PuzzleSet::from_json(&text).unwrap()
}

/// The best placement solves a puzzle (written any way the notation allows); another is
/// valued below it by the solver, with the places and margins read from its values, and
/// said in words; bad text and illegal placements are refused as such.
#[test]
fn answers_are_judged_by_the_solver() {
    use judge::{explain, judge, AttemptError};
    let set = shipped();
    let site = set.site().unwrap();
    let mut wrong = 0;
    for p in set.puzzles.iter().filter(|p| p.proof.kind() == "exact").take(12) {
        let j = judge(&site, p, &p.best).unwrap();
        assert!(j.solved, "{}", p.id);
        assert_eq!(j.played, j.best);
        assert!(
            explain(&j).starts_with(&format!("{} is the best placement", p.best)),
            "{}",
            explain(&j)
        );
        let (game, best) = p.position(&site).unwrap();
        let other = game.legal_moves().into_iter().find(|&m| m != best).unwrap();
        let text = game.notation(other);
        let j = judge(&site, p, &text).unwrap();
        assert!(!j.solved);
        assert!(j.played.value < j.best.value, "{}: {j:?}", p.id);
        let (ps, bs) = (j.played.standing.unwrap(), j.best.standing.unwrap());
        assert!(
            (ps.place, -ps.margin) >= (bs.place, -bs.margin),
            "{}: {ps:?} {bs:?}",
            p.id
        );
        assert!(
            explain(&j).starts_with(&format!("{text} is worse than {}", p.best)),
            "{}",
            explain(&j)
        );
        // The best's standing agrees with the proof's stored value.
        let Proof::Exact { value, .. } = p.proof else {
            unreachable!()
        };
        assert!(close(j.best.value, value), "{} {value}", j.best.value);
        wrong += 1;
    }
    assert!(wrong > 0);
    let p = &set.puzzles[0];
    assert!(matches!(judge(&site, p, "nonsense"), Err(AttemptError::Malformed(_))));
    assert!(
        matches!(judge(&site, p, "L4@a1,a2,a3,b1"), Err(AttemptError::Illegal(_))),
        "{:?}",
        judge(&site, p, "L4@a1,a2,a3,b1")
    );
}

/// A searched puzzle's wrong answer is valued by searches, with no standing.
#[test]
fn a_searched_puzzle_is_judged_by_a_search() {
    let set = shipped();
    let site = set.site().unwrap();
    let p = set
        .puzzles
        .iter()
        .find(|p| p.proof.kind() == "searched")
        .expect("a searched puzzle ships");
    let (game, best) = p.position(&site).unwrap();
    let other = game.legal_moves().into_iter().find(|&m| m != best).unwrap();
    let j = judge::judge(&site, p, &game.notation(other)).unwrap();
    assert!(!j.solved && j.played.standing.is_none());
    assert!(judge::explain(&j).contains("win estimate"), "{}", judge::explain(&j));
}
