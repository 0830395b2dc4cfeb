//! The tree search with one part changed, as a player of `match` and `selfplay`: how
//! docs/strength.md measures what each part of the search brings. These switches are the
//! command line's, not the AI's: to the AI each is just a search configuration.

use rumis_ai::{MctsConfig, PlayerSpec};

/// A part of the search, changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    /// `uniform:SIMS`: uniformly random playouts.
    Uniform,
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
}

impl Change {
    const ALL: [Change; 8] = [
        Change::Uniform,
        Change::Rave,
        Change::Fresh,
        Change::NoPriors,
        Change::Deep,
        Change::NoAnswer,
        Change::QuickPriors,
        Change::RoomPriors,
    ];

    fn prefix(self) -> &'static str {
        match self {
            Change::Uniform => "uniform",
            Change::Rave => "rave",
            Change::Fresh => "fresh",
            Change::NoPriors => "noprior",
            Change::Deep => "deep",
            Change::NoAnswer => "noanswer",
            Change::QuickPriors => "quickprior",
            Change::RoomPriors => "roomprior",
        }
    }

    /// The search `base` with this part changed.
    fn apply(self, base: MctsConfig) -> MctsConfig {
        match self {
            Change::Uniform => MctsConfig {
                big_stones_first: false,
                ..base
            },
            Change::Rave => MctsConfig { rave: 300.0, ..base },
            Change::Fresh => MctsConfig { reuse: false, ..base },
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
        }
    }
}

/// A player of a match or self-play: what [`PlayerSpec::parse`] reads, or `PART:SIMS` for
/// the search of `mcts:SIMS` with one part changed (`uniform`, `rave`, `fresh`,
/// `noprior`, `deep`, `noanswer`, `quickprior`, `roomprior`).
pub fn player(s: &str) -> Result<PlayerSpec, String> {
    let t = s.trim().to_ascii_lowercase();
    if let Some((prefix, sims)) = t.split_once(':') {
        if let Some(change) = Change::ALL.into_iter().find(|c| c.prefix() == prefix) {
            return match sims.parse::<u64>() {
                Ok(n) if n > 0 => Ok(PlayerSpec::Search(change.apply(MctsConfig {
                    label: format!("{prefix}:{n}"),
                    ..MctsConfig::with_simulations(n)
                }))),
                _ => Err(format!("'{s}': {prefix}:SIMS needs a positive number of simulations")),
            };
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
                ..MctsConfig::default()
            }))
        );
        for spec in [
            "random",
            "greedy",
            "level:4",
            "mcts:9",
            "uniform:8",
            "rave:7",
            "fresh:6",
            "noprior:5",
            "deep:4",
            "noanswer:3",
            "quickprior:2",
            "roomprior:1",
        ] {
            let p = player(spec).unwrap();
            assert_eq!(p.to_string(), spec);
            assert_eq!(p.build(1, 1).name(), spec);
        }
        assert!(player("noprior:0").is_err());
        assert!(player("rave:x").is_err());
        assert!(player("grandmaster").is_err());
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
            "noprior:60",
            "deep:60",
            "noanswer:60",
            "quickprior:60",
            "fresh:60",
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
