//! Properties that hold at every position of random games: undo restores, the incremental
//! hash equals the one from scratch, records and notation round-trip.

use crate::common;

use std::collections::HashMap;
use std::sync::Arc;

use common::{board, configurations, new_game, Config};
use proptest::prelude::*;
use rumis_core::notation::parse_move;
use rumis_core::record::{self, Record};
use rumis_core::{Board, Game, Position, Rng, Site, Variant};

fn random_game(site: &Arc<Site>, ruin_seed: Option<u64>, seed: u64, max_moves: usize) -> Game {
    let mut game = new_game(site, ruin_seed);
    let mut rng = Rng::new(seed);
    while !game.is_over() && game.moves().len() < max_moves {
        let legal = game.legal_moves();
        let m = legal[rng.below(legal.len())];
        game.play(m).unwrap();
    }
    game
}

/// At every position: the hash is the one from scratch; playing any legal move then undoing
/// it gives back an equal position with the same hash; the child differs from the parent.
fn check_play_undo(label: &str, site: &Arc<Site>, ruin_seed: Option<u64>, seed: u64) {
    let mut game = new_game(site, ruin_seed);
    let mut rng = Rng::new(seed);
    let mut seen: HashMap<u64, usize> = HashMap::new();
    loop {
        let pos = game.position().clone();
        let ply = game.moves().len();
        assert_eq!(
            pos.hash(),
            pos.hash_from_scratch(),
            "{label} seed {seed} ply {ply}: hash drifted"
        );
        // Different positions along a game (each has one more stone) have different hashes.
        if let Some(other) = seen.insert(pos.hash(), ply) {
            panic!("{label} seed {seed}: plies {other} and {ply} have the same hash");
        }
        if game.is_over() {
            break;
        }
        let legal = game.legal_moves();
        // Every move for the first positions, a sample later on (keeps the run short).
        let step = if legal.len() > 40 { legal.len() / 40 } else { 1 };
        for &m in legal.iter().step_by(step) {
            game.play(m).unwrap();
            let child = game.position();
            assert_eq!(child.hash(), child.hash_from_scratch(), "{label}: child hash drifted");
            assert_ne!(child, &pos, "{label}: a move did not change the position");
            assert_ne!(child.hash(), pos.hash(), "{label}: a move did not change the hash");
            // The same move on a bare copy of the position gives the same child.
            let mut copy = pos.clone();
            copy.play(site, m).unwrap();
            assert_eq!(&copy, child, "{label}: Position::play and Game::play differ");
            assert_eq!(game.undo(), Some(m));
            assert_eq!(game.position(), &pos, "{label}: undo did not restore the position");
            assert_eq!(game.position().hash(), pos.hash());
        }
        let m = legal[rng.below(legal.len())];
        game.play(m).unwrap();
    }
}

#[test]
fn play_undo_and_hash_on_every_configuration() {
    for (label, site, ruin_seed) in configurations() {
        check_play_undo(label, site, *ruin_seed, 11);
    }
}

/// The same position reached by two move orders is equal and has the same hash: swap two
/// moves of the same colour two plies apart whenever the swapped game is legal.
/// The one-pass scores of every colour (`Position::colour_scores`, what the search scores
/// each playout by) equal each colour's own `score`, at every position of random games on
/// every configuration.
#[test]
fn colour_scores_equal_each_score_on_every_configuration() {
    for (label, site, ruin_seed) in configurations() {
        for seed in [3u64, 4] {
            let mut game = new_game(site, *ruin_seed);
            let mut rng = Rng::new(seed);
            loop {
                let pos = game.position();
                let all = pos.colour_scores(site);
                for &c in site.order() {
                    assert_eq!(
                        all[c.index()],
                        pos.score(site, c),
                        "{label} seed {seed} ply {}",
                        game.moves().len()
                    );
                }
                if game.is_over() {
                    break;
                }
                let legal = game.legal_moves();
                game.play(legal[rng.below(legal.len())]).unwrap();
            }
        }
    }
}

#[test]
fn transpositions_have_equal_positions_and_hashes() {
    let mut checked = 0;
    for (label, site, ruin_seed) in configurations() {
        if site.order().len() != 2 {
            continue;
        }
        for seed in 0..3 {
            let game = random_game(site, *ruin_seed, seed, 12);
            let texts: Vec<String> = game.moves().iter().map(|&m| site.notation(m)).collect();
            for i in 0..texts.len().saturating_sub(2) {
                if game.mover(i) != game.mover(i + 2) || game.mover(i) == game.mover(i + 1) {
                    continue;
                }
                let mut swapped = texts[..i + 3].to_vec();
                swapped.swap(i, i + 2);
                let mut other = new_game(site, *ruin_seed);
                if swapped.iter().all(|t| other.play_text(t).is_ok()) {
                    let original = &game.positions()[i + 3];
                    assert_eq!(
                        other.position(),
                        original,
                        "{label} seed {seed}: {swapped:?} vs {texts:?}"
                    );
                    assert_eq!(other.position().hash(), original.hash());
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 20, "only {checked} transpositions found");
}

fn custom_board_lookup(name: &str) -> Result<Board, String> {
    if name == "Test" {
        Ok(common::custom_board())
    } else if name == "Strip" {
        Ok(common::strip_board())
    } else if name == "Box 5x5x4" {
        Ok(Board::open_box(5, 5, 4).unwrap())
    } else {
        record::builtin_board(name).map_err(|e| e.to_string())
    }
}

/// Writes a game, reads it back and compares.
fn check_record_round_trip(label: &str, game: &Game) {
    let text = record::write(game);
    let back = Record::parse(&text)
        .and_then(|r| r.to_game(custom_board_lookup))
        .unwrap_or_else(|e| panic!("{label}: the written record does not read back: {e}\n{text}"));
    assert_eq!(back.site().board(), game.site().board(), "{label}");
    assert_eq!(back.site().players(), game.site().players(), "{label}");
    assert_eq!(back.site().variant(), game.site().variant(), "{label}");
    assert_eq!(back.site().order(), game.site().order(), "{label}");
    assert_eq!(back.site().stuck_rule(), game.site().stuck_rule(), "{label}");
    let notes = |g: &Game, ms: &[rumis_core::Move]| ms.iter().map(|&m| g.notation(m)).collect::<Vec<_>>();
    assert_eq!(
        notes(&back, back.ruins()),
        notes(game, game.ruins()),
        "{label}: ruins\n{text}"
    );
    assert_eq!(
        notes(&back, back.moves()),
        notes(game, game.moves()),
        "{label}: moves\n{text}"
    );
    assert_eq!(back.start(), game.start(), "{label}: start position\n{text}");
    assert_eq!(back.position(), game.position(), "{label}: final position\n{text}");
    assert_eq!(back.is_over(), game.is_over());
    assert_eq!(back.tags, game.tags, "{label}: free tags");
    if game.is_over() {
        assert!(
            text.contains("[Result \""),
            "{label}: a finished game is written with its result"
        );
    } else {
        assert!(!text.contains("[Result"), "{label}: an unfinished game has no result");
    }
    if game.site().variant() == Variant::Ruinas {
        assert!(text.contains("[Setup \""), "{label}: Ruinas needs its Setup tag");
    }
    // Through the built-in reader too, where the board is built in.
    if Board::builtin(&game.site().board().name).is_some() {
        let again = record::read_game(&text).unwrap();
        assert_eq!(again.position(), game.position(), "{label}");
    }
}

#[test]
fn records_round_trip_on_every_configuration() {
    for (label, site, ruin_seed) in configurations() {
        for (seed, max) in [(1u64, usize::MAX), (2, 7)] {
            let mut game = random_game(site, ruin_seed.map(|r| r + seed), seed, max);
            if seed == 1 {
                game.tags.push(("Event".into(), "Test cup, round 2".into()));
                game.tags.push(("R".into(), "Ana".into()));
            }
            check_record_round_trip(label, &game);
        }
    }
}

/// A non-default order of play survives a record, in the standard game and Ruinas.
#[test]
fn records_keep_the_order_of_play() {
    use rumis_core::Colour::*;
    for (variant, players, order) in [
        (Variant::Standard, 3, vec![Blue, Red, Green]),
        (Variant::Ruinas, 2, vec![Green, Yellow]),
        (Variant::TwoPlayerFourColors, 2, vec![Blue, Green, Yellow, Red]),
    ] {
        let site = Arc::new(Site::new(common::builtin("pirka").clone(), players, variant, Some(order)).unwrap());
        let game = random_game(&site, Some(5), 5, usize::MAX);
        check_record_round_trip(&format!("pirka {variant}"), &game);
    }
}

/// The writer keeps a free tag whose value holds a double quote readable (as an apostrophe).
#[test]
fn records_with_a_quote_in_a_free_tag_read_back() {
    let site = common::site(common::builtin("chullpa"), 2, Variant::Standard);
    let mut game = random_game(&site, None, 9, 6);
    game.tags.push(("Event".into(), "The \"big\" one".into()));
    let back = record::read_game(&record::write(&game)).unwrap();
    assert_eq!(back.tags, vec![("Event".to_string(), "The 'big' one".to_string())]);
    assert_eq!(back.position(), game.position());
}

/// Checks that every legal move's notation parses back to the move, also in other cases
/// and column orders.
fn check_notation(label: &str, site: &Site, pos: &Position, rng: &mut Rng) -> usize {
    let mut legal = Vec::new();
    pos.legal_moves(site, &mut legal);
    for &m in &legal {
        let text = site.notation(m);
        assert_eq!(parse_move(site, pos, &text), Ok(m), "{label}: {text}");
        assert_eq!(
            parse_move(site, pos, &text.to_lowercase()),
            Ok(m),
            "{label}: {text} lower"
        );
        assert_eq!(
            parse_move(site, pos, &text.to_uppercase()),
            Ok(m),
            "{label}: {text} upper"
        );
        let (code, cells) = text.split_once('@').unwrap();
        let mut parts: Vec<&str> = cells.split(',').collect();
        rng.shuffle(&mut parts);
        parts.reverse();
        let shuffled = format!("{code}@{}", parts.join(","));
        assert_eq!(parse_move(site, pos, &shuffled), Ok(m), "{label}: {shuffled}");
        let spaced = format!(" {} @ {} ", code.to_lowercase(), parts.join(" , "));
        assert_eq!(parse_move(site, pos, &spaced), Ok(m), "{label}: '{spaced}'");
    }
    legal.len()
}

fn check_notation_game(label: &str, site: &Arc<Site>, ruin_seed: Option<u64>, seed: u64) -> usize {
    let mut game = new_game(site, ruin_seed);
    let mut rng = Rng::new(seed);
    let mut n = 0;
    loop {
        n += check_notation(label, site, game.position(), &mut rng);
        if game.is_over() {
            return n;
        }
        let legal = game.legal_moves();
        game.play(legal[rng.below(legal.len())]).unwrap();
    }
}

#[test]
fn notation_round_trips_on_every_configuration() {
    let mut n = 0;
    for (label, site, ruin_seed) in configurations() {
        n += check_notation_game(label, site, *ruin_seed, 3);
    }
    assert!(n > 10_000, "only {n} moves checked");
}

/// A board 24 files wide has a file named `x`, the letter that also starts a cube count.
#[test]
fn notation_round_trips_on_a_board_with_files_x_y_z() {
    let row = "#".repeat(26);
    let b = board(&[row.as_str(); 4].join("\n"), [2, 3, 3], "");
    let site = Arc::new(Site::new(b, 2, Variant::Standard, None).unwrap());
    let mut game = Game::new(site.clone());
    game.play_text("D2@x1x2").unwrap();
    game.play_text("D2@y1X2").unwrap();
    game.play_text("I4@w1,w2,w3,w4").unwrap();
    game.play_text("V3@Z1X2,z2").unwrap();
    assert_eq!(game.position().height(23), 2, "x1 is column 23");
    assert_eq!(game.position().height(24), 2, "y1 is column 24");
    assert_eq!(game.position().height(25), 2, "z1 is column 25");
    assert_eq!(game.position().height(22), 1, "w1 is column 22");
    let mut rng = Rng::new(1);
    for _ in 0..6 {
        if game.is_over() {
            break;
        }
        check_notation("26 files", &site, game.position(), &mut rng);
        let legal = game.legal_moves();
        game.play(legal[rng.below(legal.len())]).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random configurations and seeds: hash, record and notation properties together.
    #[test]
    fn random_games_keep_every_property(which in 0usize..1000, seed in any::<u64>()) {
        let configs: &[Config] = configurations();
        let (label, site, ruin_seed) = &configs[which % configs.len()];
        let ruins = ruin_seed.map(|_| seed.rotate_left(17));
        let game = random_game(site, ruins, seed, usize::MAX);
        for (i, p) in game.positions().iter().enumerate() {
            prop_assert_eq!(p.hash(), p.hash_from_scratch(), "{} ply {}", label, i);
        }
        check_record_round_trip(label, &game);
        let mut rng = Rng::new(seed);
        let ply = rng.below(game.positions().len());
        check_notation(label, site, &game.positions()[ply], &mut rng);
    }
}
