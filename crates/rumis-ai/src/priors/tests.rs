use super::*;
use rumis_core::{Board, Game, Variant};
use std::sync::Arc;

/// A 4 x 2 board, height limit 2.
fn strip() -> Arc<Site> {
    let text = "name = \"Two ranks\"\nprovenance = \"reconstruction\"\n\
                hmax = { 2 = 2, 3 = 2, 4 = 2 }\ngrid = \"\"\"\n####\n####\n\"\"\"\n";
    let board = Board::from_toml("ranks.toml", text).unwrap();
    Arc::new(Site::new(board, 2, Variant::Standard, None).unwrap())
}

/// The playouts' quick scorer against the features it stands for (the slow oracle):
/// every legal placement of the positions of random games, on boards of 2, 3 and 4
/// players, the two-player four-colour game (two colours a side) and Ruinas (ruins are
/// no side's cubes), with weights that give every quick feature a different weight.
#[test]
fn the_quick_scorer_scores_as_the_features_say() {
    let mut weights = [0.0f32; FEATURES];
    for (i, w) in weights.iter_mut().enumerate().take(ROOM_FEATURES.start) {
        *w = 0.37 * (i as f32 + 1.0) * if i % 3 == 0 { -1.0 } else { 1.0 };
    }
    let games = [
        ("chullpa", 4, Variant::Standard),
        ("coricancha", 2, Variant::TwoPlayerFourColors),
        ("pisac", 3, Variant::Standard),
        ("tambo", 2, Variant::Ruinas),
        ("cucho", 2, Variant::Standard),
    ];
    let mut rng = rumis_core::Rng::new(7);
    let mut checked = 0;
    for (name, players, variant) in games {
        let site = Site::new(Board::builtin(name).unwrap().clone(), players, variant, None).unwrap();
        let shape = SiteShape::new(&site);
        let scorer = QuickScorer::new(&site, &shape, &weights);
        for _ in 0..3 {
            let mut pos = Position::new(&site);
            while !pos.ruins_left().is_empty() {
                let ruins = pos.ruin_moves(&site);
                pos.place_ruin(&site, ruins[rng.below(ruins.len())]).unwrap();
            }
            let mut moves = Vec::new();
            let mut view = ScoreView::default();
            while let Some(me) = pos.to_move(&site) {
                pos.legal_moves(&site, &mut moves);
                scorer.look(&site, &pos, me, &mut view);
                for &m in &moves {
                    let slow = PriorModel::score(&weights, &features(&site, &shape, &pos, m, me, false));
                    let fast = scorer.score(&site, &view, m);
                    assert!(
                        (slow - fast).abs() <= 1e-3 * (1.0 + slow.abs()),
                        "{name} {m:?}: {slow} against {fast}"
                    );
                    checked += 1;
                }
                pos.play(&site, moves[rng.below(moves.len())]).unwrap();
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// Features on a hand-built position, counted by hand.
#[test]
fn features_of_a_placement_on_a_hand_built_position() {
    let site = strip();
    let shape = SiteShape::new(&site);
    let mut g = Game::new(site.clone());
    // Red lies a domino on a1, b1; yellow one on c1, d1.
    g.play_text("D2@a1,b1").unwrap();
    g.play_text("D2@c1,d1").unwrap();
    // Red: an I3 lying on b1, c1, d1 at level 2 (their limit): it keeps b1, takes c1
    // and d1 from yellow, and secures all three.
    let m = g
        .legal_moves()
        .into_iter()
        .find(|&m| g.notation(m) == "I3@b1,c1,d1")
        .unwrap_or_else(|| panic!("{:?}", g.legal_notations()));
    let f = features(&site, &shape, g.position(), m, Colour::Red, true);
    let named = |n: &str| f[NAMES.iter().position(|x| *x == n).unwrap()];
    assert_eq!(named("gained"), 2.0);
    assert_eq!(named("covered"), 2.0);
    assert_eq!(named("kept"), 1.0);
    assert_eq!(named("secured"), 3.0);
    assert_eq!(named("secured_taken"), 2.0);
    assert_eq!(named("left_one_below_limit"), 0.0);
    assert_eq!(named("size"), 3.0);
    // Red holds 10 of its 11 stones.
    assert!((named("size_early") - 3.0 * 10.0 / 11.0).abs() < 1e-6);
    assert_eq!(named("columns"), 3.0);
    assert_eq!(named("level"), 0.5);
    assert_eq!(named("top_height"), 1.0);
    // Every column of a 4 x 2 board is on its edge.
    assert_eq!(named("edge"), 1.0);
    assert_eq!(named("first_size"), 0.0);
    // Below the stone: b1 (red), c1 and d1 (yellow).
    assert_eq!(named("own_contact"), 1.0);
    assert_eq!(named("other_contact"), 2.0);
    // Open cells at the stone's level: a1 (over red's first cube), b2, c2, d2; nothing
    // above (the limit).
    assert!((named("open_faces") - 0.4).abs() < 1e-6);
    let counts = g.position().count_moves_after(&site, m);
    assert_eq!(named("own_room"), crate::math::ln(1.0 + counts[0] as f32));
    assert_eq!(named("other_room"), crate::math::ln(1.0 + counts[1] as f32));
    assert_eq!(named("others_stuck"), (counts[1] == 0) as u8 as f32);
    // Without room: the room features are zero and the rest the same.
    let q = features(&site, &shape, g.position(), m, Colour::Red, false);
    assert_eq!(&q[..ROOM_FEATURES.start], &f[..ROOM_FEATURES.start]);
    assert!(q[ROOM_FEATURES].iter().all(|&x| x == 0.0));
}

/// A colour's first stone: the first-stone features equal size and edge.
#[test]
fn first_stone_features() {
    let site = strip();
    let shape = SiteShape::new(&site);
    let g = Game::new(site.clone());
    for m in g.legal_moves() {
        let f = features(&site, &shape, g.position(), m, Colour::Red, false);
        assert_eq!(f[13], f[6]);
        assert_eq!(f[14], f[11]);
        assert_eq!(f[1], 0.0);
        assert_eq!(f[15] + f[16], 0.0, "{}", g.notation(m));
    }
}

/// The per-scenario models compiled in parse, name built-in boards only, and are found
/// by the board's name in any case; a broken table is refused with its name.
#[test]
fn the_scenario_models_parse_and_name_built_in_boards() {
    let models = parse_scenario_models(SCENARIO_MODELS).unwrap();
    assert!(!models.is_empty());
    for (name, model) in &models {
        let board = Board::builtin(name).unwrap_or_else(|| panic!("no board '{name}'"));
        assert_eq!(&board.name.to_ascii_lowercase(), name);
        assert!(model.quick.iter().any(|&w| w != 0.0), "{name}");
        assert_eq!(scenario_model(&board.name.to_ascii_uppercase()), Some(model));
        assert_ne!(model, PriorModel::builtin());
    }
    assert_eq!(scenario_model("my own board"), None);
    let e = parse_scenario_models("[pisac.full]\ngained = 1\n").unwrap_err();
    assert!(e.contains("[pisac]") && e.contains("no [quick]"), "{e}");
    let e = parse_scenario_models("pisac = 3\n").unwrap_err();
    assert!(e.contains("'pisac' is not a table"), "{e}");
}

/// The player counts' models compiled in parse and are what `general_model` gives for
/// their count; a count without one gets the model of every count; a table that names
/// no player count is refused.
#[test]
fn the_player_count_models_parse_and_stand_in_for_their_count() {
    let models = parse_player_count_models(PLAYER_COUNT_MODELS).unwrap();
    assert!(models.contains_key(&3));
    for players in 2..=4 {
        match models.get(&players) {
            Some(model) => {
                assert!(model.quick.iter().any(|&w| w != 0.0), "{players}");
                assert_ne!(model, PriorModel::builtin());
                assert_eq!(general_model(players), model);
            }
            None => assert_eq!(general_model(players), PriorModel::builtin()),
        }
    }
    assert_eq!(general_model(7), PriorModel::builtin());
    for bad in [
        "[three.full]\ngained = 1\n[three.quick]\n",
        "[players-5.full]\n[players-5.quick]\n",
    ] {
        let e = parse_player_count_models(bad).unwrap_err();
        assert!(e.contains("is not a player count"), "{e}");
    }
    let e = parse_player_count_models("[players-3.full]\ngained = 1\n").unwrap_err();
    assert!(
        e.contains("player-count-priors.toml [players-3]") && e.contains("no [quick]"),
        "{e}"
    );
}

#[test]
fn the_builtin_weights_parse_and_bad_files_are_refused() {
    let builtin = PriorModel::from_toml(BUILTIN).unwrap();
    assert!(builtin.full.iter().any(|&w| w != 0.0));
    // What the model writes, it reads back.
    let again = PriorModel::from_toml(&builtin.to_string()).unwrap();
    for (a, b) in again.full.iter().zip(&builtin.full) {
        assert!((a - b).abs() < 1e-4);
    }
    for (bad, why) in [
        ("[full]\ngained = 1\n", "no [quick]"),
        ("[full]\ngained = 1\n[quick]\nsize = \"big\"\n", "not a number"),
        ("[full]\ngaind = 1\n[quick]\n", "unknown feature 'gaind'"),
        ("[full]\n[quick]\nown_room = 1\n", "cannot count the room"),
        ("[full]\ngained = nan\n[quick]\n", "not a usable weight"),
        ("[full]\n[quick]\n[extra]\n", "unknown table"),
        ("gained = ", "not a weights file"),
    ] {
        let e = PriorModel::from_toml(bad).unwrap_err();
        assert!(e.contains(why), "{bad:?}: {e}");
    }
    let e = PriorModel::load(std::path::Path::new("/nonexistent/weights.toml")).unwrap_err();
    assert!(e.contains("cannot read /nonexistent/weights.toml"), "{e}");
}
