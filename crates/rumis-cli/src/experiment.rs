//! The tree search with one part changed, as a player of `match` and `selfplay`: how
//! docs/strength.md measures what each part of the search brings. These switches are the
//! command line's, not the AI's: to the AI each is just a search configuration.

use std::sync::Arc;
use std::time::Duration;

use rumis_ai::priors::PriorModel;
use rumis_ai::{MctsConfig, PlayerSpec, PriorSource, RoomEstimateAt};

/// A part of the search, changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    /// `uniform:SIMS`: playouts without bigger stones first (they still answer the last
    /// move).
    Uniform,
    /// `plain:SIMS`: uniformly random playouts, neither bigger stones first nor an answer
    /// to the last move (the core's fastest playouts).
    Plain,
    /// `rave:SIMS`: with RAVE (all-moves-as-first).
    Rave,
    /// `fresh:SIMS`: a fresh tree every move (no tree reuse).
    Fresh,
    /// `noprior:SIMS`: no move priors (children tried in order of stone size, each once).
    NoPriors,
    /// `deep:SIMS`: priors from the greedy evaluation at every node, not only the root.
    Deep,
    /// `noanswer:SIMS`: playouts that do not answer the last move.
    NoAnswer,
    /// `quickprior:SIMS`: below the root, priors from the columns covered alone however
    /// often a node is visited (the search before `full_prior_after`).
    QuickPriors,
    /// `roomprior:SIMS`: the room term in the priors on every board, whatever the
    /// scenario's settings say (the levels' search before `scenarios.toml`).
    RoomPriors,
    /// `learned:SIMS`: priors from the learned model compiled in (`priors.toml`) on every
    /// board; `learned@FILE:SIMS` from a weights file.
    Learned,
    /// `hand:SIMS`: the hand-made priors on every board, whatever the scenario's settings
    /// say (the levels' search before the learned priors).
    Hand,
    /// `ownlearned:SIMS`: the learned priors at the searching side's nodes only, the
    /// hand-made ones at the others' (the search's model of how the others play).
    OwnLearned,
    /// `others:SIMS`: the priors at the other sides' nodes count 100 times as many visits
    /// (the search trusts its model of how the others play longer).
    Others,
    /// `greedyothers:SIMS`: `deep:` and `others:` together: the greedy evaluation's priors
    /// at every node, trusted 100 times as long at the other sides' nodes.
    GreedyOthers,
    /// `nearothers:SIMS`: `others:` with the greedy evaluation's priors (the room
    /// counted) at the root and the three plies below it, a round of four colours.
    NearOthers,
    /// `estothers:SIMS`: `others:` with the room the others are left estimated in the
    /// priors of every node (`RoomEstimateAt::Everywhere`), the greedy evaluation's choice
    /// at the quick priors' price.
    EstOthers,
    /// `estonly:SIMS`: the same at the other sides' nodes only (`RoomEstimateAt::Others`).
    EstOnly,
    /// `estbest:SIMS`: `estothers:` with the best four children by the estimate given the
    /// greedy evaluation itself.
    EstBest,
    /// `model:SIMS`: level 9's search, with its model of the others as greedy players
    /// with three or four players and, where it has learned priors, informed playouts
    /// (`MctsConfig::level_nine`): level 9's stand-in.
    Model,
    /// `learnedmodel:SIMS`: level 9's search (`model:`) with the learned priors at the
    /// searching side's nodes, the others still modelled as greedy players at theirs.
    LearnedModel,
    /// `learnedwatch:SIMS`: level 9's search with the general learned model (`priors.toml`)
    /// on every board, at its own nodes and those of the colours it does not model as
    /// greedy players (`learnedwatch@FILE:SIMS`: a weights file's).
    LearnedWatch,
    /// `handmodel:SIMS`: level 9's search with the hand-made priors on every board (level 9
    /// before the scenarios' learned priors).
    HandModel,
    /// `learnedroom:SIMS`: `learnedwatch:` with the room counted (the learned model's full
    /// weights at the root) whatever the scenario's settings say.
    LearnedRoom,
    /// `informed:SIMS`: `learnedwatch:` with informed playouts: each ply draws 4
    /// placements by the playout policy and plays the one the learned model scores best.
    Informed,
    /// `informednear:SIMS`: the same for the playouts' first 8 plies only.
    InformedNear,
    /// `walls:SIMS`: the choice without its guard against walls (`outlet_guard` 0): the most
    /// visited placement, however few cells it leaves the mover to touch.
    Walls,
    /// `paired:SIMS`: simulations in pairs, their playouts in lockstep, where the core
    /// generates two games at once (`MctsConfig::paired_playouts`); against `mcts:SIMS`,
    /// one at a time.
    Paired,
    /// `pairedmodel:SIMS`: level 9's search (`model:`, one at a time) with simulations in
    /// pairs.
    PairedModel,
}

impl Change {
    const ALL: [Change; 28] = [
        Change::Uniform,
        Change::Plain,
        Change::Rave,
        Change::Fresh,
        Change::NoPriors,
        Change::Deep,
        Change::NoAnswer,
        Change::QuickPriors,
        Change::RoomPriors,
        Change::Learned,
        Change::Hand,
        Change::OwnLearned,
        Change::Others,
        Change::GreedyOthers,
        Change::NearOthers,
        Change::EstOthers,
        Change::EstOnly,
        Change::EstBest,
        Change::Model,
        Change::LearnedModel,
        Change::LearnedWatch,
        Change::HandModel,
        Change::LearnedRoom,
        Change::Informed,
        Change::InformedNear,
        Change::Walls,
        Change::Paired,
        Change::PairedModel,
    ];

    fn prefix(self) -> &'static str {
        match self {
            Change::Uniform => "uniform",
            Change::Plain => "plain",
            Change::Rave => "rave",
            Change::Fresh => "fresh",
            Change::NoPriors => "noprior",
            Change::Deep => "deep",
            Change::NoAnswer => "noanswer",
            Change::QuickPriors => "quickprior",
            Change::RoomPriors => "roomprior",
            Change::Learned => "learned",
            Change::Hand => "hand",
            Change::OwnLearned => "ownlearned",
            Change::Others => "others",
            Change::GreedyOthers => "greedyothers",
            Change::NearOthers => "nearothers",
            Change::EstOthers => "estothers",
            Change::EstOnly => "estonly",
            Change::EstBest => "estbest",
            Change::Model => "model",
            Change::LearnedModel => "learnedmodel",
            Change::LearnedWatch => "learnedwatch",
            Change::HandModel => "handmodel",
            Change::LearnedRoom => "learnedroom",
            Change::Informed => "informed",
            Change::InformedNear => "informednear",
            Change::Walls => "walls",
            Change::Paired => "paired",
            Change::PairedModel => "pairedmodel",
        }
    }

    /// The search `base` with this part changed.
    // long: a table, one arm a change (rustfmt lays each struct over three to five lines).
    fn apply(self, base: MctsConfig) -> MctsConfig {
        match self {
            Change::Uniform => MctsConfig {
                big_stones_first: false,
                ..base
            },
            Change::Plain => MctsConfig {
                big_stones_first: false,
                answer_last_move: false,
                ..base
            },
            Change::Rave => MctsConfig { rave: 300.0, ..base },
            Change::Paired => MctsConfig {
                paired_playouts: true,
                ..base
            },
            Change::PairedModel => Change::Paired.apply(base.level_nine()),
            Change::Fresh => MctsConfig { reuse: false, ..base },
            Change::Walls => MctsConfig {
                outlet_guard: 0,
                ..base
            },
            Change::Deep => MctsConfig {
                full_prior_depth: usize::MAX,
                room_in_priors: Some(true),
                ..base
            },
            Change::NoAnswer => MctsConfig {
                answer_last_move: false,
                ..base
            },
            Change::NoPriors => MctsConfig {
                prior_visits: 0.0,
                ..base
            },
            Change::QuickPriors => MctsConfig {
                full_prior_after: 0,
                ..base
            },
            Change::RoomPriors => MctsConfig {
                room_in_priors: Some(true),
                ..base
            },
            Change::Learned => MctsConfig {
                priors: PriorSource::Learned(Arc::new(PriorModel::builtin().clone())),
                ..base
            },
            Change::Hand => MctsConfig {
                priors: PriorSource::Hand,
                ..base
            },
            Change::OwnLearned => MctsConfig {
                priors: PriorSource::Learned(Arc::new(PriorModel::builtin().clone())),
                learned_own_only: true,
                ..base
            },
            Change::Others => MctsConfig {
                others_prior_weight: 100.0,
                ..base
            },
            Change::GreedyOthers => MctsConfig {
                others_prior_weight: 100.0,
                full_prior_depth: usize::MAX,
                room_in_priors: Some(true),
                ..base
            },
            Change::NearOthers => MctsConfig {
                others_prior_weight: 100.0,
                full_prior_depth: 4,
                room_in_priors: Some(true),
                ..base
            },
            Change::EstOthers => MctsConfig {
                others_prior_weight: 100.0,
                room_estimate: RoomEstimateAt::Everywhere,
                ..base
            },
            Change::EstOnly => MctsConfig {
                others_prior_weight: 100.0,
                room_estimate: RoomEstimateAt::Others,
                ..base
            },
            Change::EstBest => MctsConfig {
                room_counted_best: 4,
                ..Change::EstOthers.apply(base)
            },
            Change::Model => base.level_nine(),
            Change::LearnedModel => MctsConfig {
                learned_for_searchers: false,
                ..Change::OwnLearned.apply(base.with_others_modelled())
            },
            Change::LearnedWatch => Change::OwnLearned.apply(base.with_others_modelled()),
            Change::HandModel => Change::Hand.apply(base.with_others_modelled()),
            Change::LearnedRoom => MctsConfig {
                room_in_priors: Some(true),
                ..Change::LearnedWatch.apply(base)
            },
            Change::Informed => MctsConfig {
                informed_plies: usize::MAX,
                playout_candidates: 4,
                ..Change::LearnedWatch.apply(base)
            },
            Change::InformedNear => MctsConfig {
                informed_plies: 8,
                playout_candidates: 4,
                ..Change::LearnedWatch.apply(base)
            },
        }
    }
}

/// The search's budget from `SIMS` or `MSms` (a time a move, for matches at equal time).
fn budget(spec: &str, prefix: &str, text: &str) -> Result<MctsConfig, String> {
    if let Some(ms) = text.strip_suffix("ms") {
        return match ms.parse::<u64>() {
            Ok(n) if n > 0 => Ok(MctsConfig {
                simulations: None,
                time: Some(Duration::from_millis(n)),
                label: format!("{prefix}:{n}ms"),
                ..MctsConfig::default()
            }),
            _ => Err(format!(
                "'{spec}': {prefix}:MSms needs a positive number of milliseconds"
            )),
        };
    }
    match text.parse::<u64>() {
        Ok(n) if n > 0 => Ok(MctsConfig {
            label: format!("{prefix}:{n}"),
            ..MctsConfig::with_simulations(n)
        }),
        _ => Err(format!(
            "'{spec}': {prefix}:SIMS needs a positive number of simulations"
        )),
    }
}

/// A player of a match or self-play: what [`PlayerSpec::parse`] reads, or `PART:SIMS` for
/// the search of `mcts:SIMS` with one part changed (`uniform`, `rave`, `fresh`,
/// `noprior`, `deep`, `noanswer`, `quickprior`, `roomprior`, `learned`, `hand`, ...; and
/// `PART@FILE` for a part with learned priors, `learned@FILE`, `learnedwatch@FILE`, ..., with
/// a weights file of one's own); `mcts:MSms` and `PART:MSms` search that
/// many milliseconds a move instead.
pub fn player(s: &str) -> Result<PlayerSpec, String> {
    let trimmed = s.trim();
    if let Some((head, sims)) = trimmed.rsplit_once(':') {
        if let Some((part, path)) = head.split_once('@') {
            let part = part.to_ascii_lowercase();
            let Some(change) = Change::ALL.into_iter().find(|c| c.prefix() == part) else {
                return Err(format!("{s}: no search part named {part:?}"));
            };
            let sims = sims.to_ascii_lowercase();
            let changed = change.apply(budget(s, head, &sims)?);
            if !matches!(changed.priors, PriorSource::Learned(_)) {
                return Err(format!("{s}: {part}: uses no learned priors, so takes no weights file"));
            }
            let model = PriorModel::load(std::path::Path::new(path))?;
            return Ok(PlayerSpec::Search(MctsConfig {
                priors: PriorSource::Learned(Arc::new(model)),
                ..changed
            }));
        }
    }
    let t = trimmed.to_ascii_lowercase();
    if let Some((prefix, sims)) = t.split_once(':') {
        if let Some(change) = Change::ALL.into_iter().find(|c| c.prefix() == prefix) {
            return Ok(PlayerSpec::Search(change.apply(budget(s, prefix, sims)?)));
        }
        if prefix == "mcts" && sims.ends_with("ms") {
            return Ok(PlayerSpec::Search(budget(s, prefix, sims)?));
        }
    }
    PlayerSpec::parse(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rumis_core::{Board, Game, Site, Variant};
    use std::sync::Arc;

    #[test]
    fn parts_parse_and_print_back() {
        assert_eq!(
            player("noprior:30"),
            Ok(PlayerSpec::Search(MctsConfig {
                simulations: Some(30),
                prior_visits: 0.0,
                label: "noprior:30".into(),
                ..MctsConfig::with_simulations(30)
            }))
        );
        for spec in [
            "random",
            "greedy",
            "level:4",
            "mcts:9",
            "uniform:8",
            "plain:9",
            "rave:7",
            "fresh:6",
            "noprior:5",
            "deep:4",
            "noanswer:3",
            "quickprior:2",
            "roomprior:1",
            "learned:3",
            "hand:4",
            "ownlearned:5",
            "others:6",
            "greedyothers:7",
            "nearothers:8",
            "estothers:9",
            "estonly:10",
            "estbest:11",
            "model:12",
            "learnedmodel:13",
            "learnedwatch:14",
            "handmodel:15",
            "learnedroom:16",
            "informed:17",
            "informednear:18",
            "walls:19",
            "learned:250ms",
            "mcts:40ms",
        ] {
            let p = player(spec).unwrap();
            assert_eq!(p.to_string(), spec);
            assert_eq!(p.build(1, 1).name(), spec);
        }
        assert!(player("noprior:0").is_err());
        assert!(player("rave:x").is_err());
        assert!(player("grandmaster").is_err());
        assert!(player("learned:0ms").is_err());
        match player("mcts:40ms").unwrap() {
            PlayerSpec::Search(c) => assert_eq!((c.simulations, c.time), (None, Some(Duration::from_millis(40)))),
            other => panic!("{other:?}"),
        }
    }

    /// `learned@FILE:SIMS` reads the weights file, and refuses a missing or corrupt one
    /// with what is wrong.
    #[test]
    fn a_weights_file_is_read_or_refused() {
        let dir = std::env::temp_dir().join(format!("rumis-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.toml");
        std::fs::write(&good, "[full]\nsize = 2.5\n[quick]\nsize = 1.5\n").unwrap();
        match player(&format!("learned@{}:30", good.display())).unwrap() {
            PlayerSpec::Search(c) => {
                let PriorSource::Learned(m) = c.priors else {
                    panic!("{:?}", c.priors)
                };
                assert_eq!((m.full[6], m.quick[6]), (2.5, 1.5));
                assert_eq!(c.simulations, Some(30));
            }
            other => panic!("{other:?}"),
        }
        let bad = dir.join("bad.toml");
        std::fs::write(&bad, "[full]\nsize = 2.5\n").unwrap();
        let e = player(&format!("learned@{}:30", bad.display())).unwrap_err();
        assert!(e.contains("bad.toml") && e.contains("no [quick] table"), "{e}");
        // Any part with learned priors takes a file; one without refuses it.
        match player(&format!("learnedwatch@{}:30", good.display())).unwrap() {
            PlayerSpec::Search(c) => {
                let PriorSource::Learned(m) = &c.priors else {
                    panic!("{:?}", c.priors)
                };
                assert_eq!(
                    (m.full[6], c.learned_for_searchers, c.learned_own_only),
                    (2.5, true, true)
                );
                assert!(c.label.contains("good.toml"), "{}", c.label);
            }
            other => panic!("{other:?}"),
        }
        let e = player(&format!("model@{}:30", good.display())).unwrap_err();
        assert!(e.contains("no learned priors"), "{e}");
        let e = player(&format!("nosuch@{}:30", good.display())).unwrap_err();
        assert!(e.contains("no search part"), "{e}");
        let e = player(&format!("learned@{}:30", dir.join("none.toml").display())).unwrap_err();
        assert!(e.contains("cannot read"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Each changed search changes what it says, and only that.
    #[test]
    fn each_part_changes_its_setting() {
        let base = MctsConfig::with_simulations(10);
        let changed = |name: &str| match player(&format!("{name}:10")).unwrap() {
            PlayerSpec::Search(c) => MctsConfig {
                label: base.label.clone(),
                ..c
            },
            other => panic!("{name}: {other:?}"),
        };
        let mut all = vec![base.clone()];
        for change in Change::ALL {
            let c = changed(change.prefix());
            assert_ne!(c, base, "{}", change.prefix());
            assert_eq!(c, change.apply(base.clone()));
            assert!(!all.contains(&c), "{} is another part's change", change.prefix());
            all.push(c);
        }
    }

    /// The changed searches, like every player, only ever play legal moves (Game::play
    /// checks each) and play until the game is over (rumis-ai's `players_only_play_legal_moves`
    /// for the others: the same setups and seeds, by the same index).
    #[test]
    fn changed_searches_only_play_legal_moves() {
        let specs = [
            "rave:60",
            "uniform:60",
            "plain:60",
            "noprior:60",
            "deep:60",
            "noanswer:60",
            "quickprior:60",
            "fresh:60",
            "learned:60",
            "ownlearned:60",
            "others:60",
            "greedyothers:60",
            "nearothers:60",
            "estothers:60",
            "estonly:60",
            "estbest:60",
            "model:60",
            "learnedmodel:60",
            "learnedwatch:60",
            "handmodel:60",
        ];
        let setups = [
            ("chullpa", 2, Variant::Standard),
            ("pisac", 3, Variant::Standard),
            ("cucho", 2, Variant::TwoPlayerFourColors),
            ("tambo", 2, Variant::Ruinas),
        ];
        for (k, spec) in specs.iter().enumerate() {
            let i = k + 6;
            let (board, players, variant) = setups[i % setups.len()];
            let site = Arc::new(Site::new(Board::builtin(board).unwrap().clone(), players, variant, None).unwrap());
            let mut g = match variant {
                Variant::Ruinas => Game::with_random_ruins(site, 5),
                _ => Game::new(site),
            };
            let mut p = player(spec).unwrap().build(i as u64, 1);
            while let Some(m) = p.choose(&g) {
                assert!(g.legal_moves().contains(&m));
                g.play(m).unwrap();
            }
            assert!(g.is_over(), "{spec} stopped before the end");
        }
    }
}
