//! Players for Rumis: a uniformly random player, a greedy one, Monte Carlo tree search, and
//! the levels 1-9 built from them. Every player asks the core for legal moves; none knows a
//! rule of its own.

pub mod analysis;
pub mod arena;
pub mod endgame;
pub mod eval;
mod math;
pub mod mcts;
mod player;
pub mod priors;
pub mod puzzles;
pub mod review;
pub mod reward;
pub mod scenario;
pub mod train;

use std::fmt;
use std::time::Duration;

use rumis_core::{Game, Move, Rng};

pub use mcts::{Mcts, MctsConfig, PriorSource, RoomEstimateAt, SearchResult, Stop};
pub use player::Player;

/// Plays a uniformly random legal move.
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> Self {
        RandomPlayer { rng: Rng::new(seed) }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        let moves = game.legal_moves();
        (!moves.is_empty()).then(|| moves[self.rng.below(moves.len())])
    }
    fn name(&self) -> String {
        "random".into()
    }
}

/// Plays the move with the best immediate evaluation ([`eval::evaluate`]); with a
/// temperature above zero it picks by a softmax over the evaluations instead, and with
/// `blunder` > 0 it plays a uniformly random move that often — a beginner's mistakes.
pub struct GreedyPlayer {
    rng: Rng,
    temperature: f32,
    blunder: f32,
    label: String,
    weights: eval::Weights,
}

impl GreedyPlayer {
    pub fn new(seed: u64) -> Self {
        GreedyPlayer {
            rng: Rng::new(seed),
            temperature: 0.0,
            blunder: 0.0,
            label: "greedy".into(),
            weights: eval::Weights::default(),
        }
    }

    /// The same player valuing the features by other weights.
    pub fn with_weights(mut self, weights: eval::Weights) -> Self {
        self.weights = weights;
        self
    }

    pub fn noisy(seed: u64, temperature: f32, blunder: f32, label: &str) -> Self {
        GreedyPlayer {
            rng: Rng::new(seed),
            temperature,
            blunder,
            label: label.into(),
            weights: eval::Weights::default(),
        }
    }
}

impl Player for GreedyPlayer {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        if self.blunder > 0.0 && (self.rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 <= self.blunder {
            return Some(moves[self.rng.below(moves.len())]);
        }
        let values: Vec<f32> = moves
            .iter()
            .map(|&m| eval::evaluate_with(&self.weights, game.site(), game.position(), m))
            .collect();
        if self.temperature <= 0.0 {
            // Ties broken at random so that greedy games differ.
            let best = values.iter().copied().fold(f32::MIN, f32::max);
            let top: Vec<usize> = (0..moves.len()).filter(|&i| values[i] >= best - 1e-6).collect();
            return Some(moves[top[self.rng.below(top.len())]]);
        }
        let best = values.iter().copied().fold(f32::MIN, f32::max);
        let weights: Vec<f64> = values
            .iter()
            .map(|v| crate::math::exp64(((v - best) / self.temperature) as f64))
            .collect();
        let total: f64 = weights.iter().sum();
        let mut x = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (i, w) in weights.iter().enumerate() {
            x -= w;
            if x <= 0.0 {
                return Some(moves[i]);
            }
        }
        moves.last().copied()
    }
    fn name(&self) -> String {
        self.label.clone()
    }
}

/// A player described on the command line: `random`, `greedy`, `level:N` or a tree search
/// (`mcts:SIMS`, or any configuration: matches measure the search with one part changed).
// A spec is made once per player of a match from its command line, never kept in numbers:
// the search variant's size costs nothing, and a box would only add noise at every use.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    Random,
    Greedy,
    /// Level 1-9.
    Level(u8),
    /// Tree search with this configuration; its label names the player (`mcts:SIMS`). The
    /// threads and the seed are given when the player is built.
    Search(MctsConfig),
}

impl PlayerSpec {
    /// Reads `random`, `greedy`, `level:N` (or `N`) and `mcts:SIMS`.
    pub fn parse(s: &str) -> Result<PlayerSpec, String> {
        let t = s.trim().to_ascii_lowercase();
        let level = |n: &str| -> Result<PlayerSpec, String> {
            match n.parse::<u8>() {
                Ok(l) if (1..=9).contains(&l) => Ok(PlayerSpec::Level(l)),
                _ => Err(format!("'{s}': a level is 1 to 9")),
            }
        };
        match t.as_str() {
            "random" => Ok(PlayerSpec::Random),
            "greedy" => Ok(PlayerSpec::Greedy),
            _ if t.starts_with("mcts:") => match t[5..].parse::<u64>() {
                Ok(n) if n > 0 => Ok(PlayerSpec::Search(MctsConfig::with_simulations(n))),
                _ => Err(format!("'{s}': mcts:SIMS needs a positive number of simulations")),
            },
            _ if t.starts_with("level:") => level(&t[6..]),
            _ if t.starts_with("level") => level(&t[5..]),
            _ if t.chars().all(|c| c.is_ascii_digit()) && !t.is_empty() => level(&t),
            _ => Err(format!(
                "unknown player '{s}'; use random, greedy, level:1..9 or mcts:SIMS"
            )),
        }
    }

    /// Makes the player. `threads` applies to searching players.
    pub fn build(&self, seed: u64, threads: usize) -> Box<dyn Player> {
        match self {
            PlayerSpec::Random => Box::new(RandomPlayer::new(seed)),
            PlayerSpec::Greedy => Box::new(GreedyPlayer::new(seed)),
            PlayerSpec::Search(config) => Box::new(Mcts::new(MctsConfig {
                threads,
                seed,
                ..config.clone()
            })),
            PlayerSpec::Level(l) => level(*l, seed, threads),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => write!(f, "random"),
            PlayerSpec::Greedy => write!(f, "greedy"),
            PlayerSpec::Level(l) => write!(f, "level:{l}"),
            PlayerSpec::Search(config) => write!(f, "{}", config.label),
        }
    }
}

/// The search of levels 4-9 (lower levels do not search; they get level 4's): the budget
/// and the settings that differ by level. Levels 4-8 search a fixed number of simulations,
/// so their strength does not depend on the machine; level 9 searches 4.5 s a move on the
/// threads it is given. Levels 4 and 5 search 200 and 400 simulations in two-player games
/// and 100 and 500 with more colours: docs/strength.md measures each step, and those are
/// the budgets that space them most evenly (the full priors where the search goes back
/// often make a two-player search strong fast, and a three- or four-player search needs
/// more simulations to gain). With three or four colours (the two-player four-colour game
/// too) level 9 models the others as greedy players ([`MctsConfig::with_others_modelled`]),
/// and where `scenarios.toml` says so
/// (Coricancha with 3 and 4 players) takes its priors from a learned model at the nodes of its
/// own colour and of the colours that search, and plays out informed by it
/// ([`MctsConfig::level_nine`]). The caller sets the threads and the seed.
pub fn level_config(level: u8) -> MctsConfig {
    let (simulations, two_player_simulations, time) = match level {
        0..=4 => (Some(100), Some(200), None),
        5 => (Some(500), Some(400), None),
        6 => (Some(1_000), None, None),
        7 => (Some(3_000), None, None),
        8 => (Some(10_000), None, None),
        _ => (None, None, Some(Duration::from_millis(4_500))),
    };
    MctsConfig {
        simulations,
        two_player_simulations,
        time,
        label: format!("level:{}", level.clamp(4, 9)),
        ..if level >= 9 {
            MctsConfig::default().level_nine()
        } else {
            MctsConfig::default()
        }
    }
}

/// Levels 1-9, spaced by self-play on four scenarios (docs/strength.md):
///
/// - 1: a beginner — a uniformly random move 60% of the time, otherwise a softmax
///   (temperature 2) over the greedy evaluations;
/// - 2: a noisy greedy player (temperature 0.7, a random move 15% of the time);
/// - 3: greedy, the best immediate evaluation;
/// - 4-8: Monte Carlo tree search with 100 (two players: 200), 500 (400), 1 000, 3 000 and
///   10 000 simulations a move;
/// - 9: the same search for 4.5 s a move (on `threads` threads).
pub fn level(l: u8, seed: u64, threads: usize) -> Box<dyn Player> {
    match l {
        0..=3 => {
            let (temperature, random) = GREEDY_LEVELS[l.max(1) as usize - 1];
            let label = ["level:1", "level:2", "level:3"][l.max(1) as usize - 1];
            Box::new(GreedyPlayer::noisy(seed, temperature, random, label))
        }
        _ => Box::new(Mcts::new(MctsConfig {
            threads,
            seed,
            ..level_config(l)
        })),
    }
}

/// Levels 1-3: the greedy player's softmax temperature over the greedy evaluations (0: the
/// best always) and how often it plays a uniformly random placement instead.
const GREEDY_LEVELS: [(f32, f32); 3] = [(2.0, 0.6), (0.7, 0.15), (0.0, 0.0)];

/// What level `l` does in games on `site`, in words: for levels 4-9 the search's
/// [`mcts::Plan`] there (`rumis levels` prints it).
pub fn describe_level(l: u8, site: &rumis_core::Site) -> String {
    match l {
        0..=3 => {
            let (temperature, random) = GREEDY_LEVELS[l.max(1) as usize - 1];
            let choice = if temperature == 0.0 {
                "the placement of the best greedy evaluation".to_string()
            } else {
                format!("a softmax (temperature {temperature}) over the greedy evaluations")
            };
            if random > 0.0 {
                format!(
                    "no search: a uniformly random placement {:.0} % of the time, else {choice}",
                    random * 100.0
                )
            } else {
                format!("no search: {choice}")
            }
        }
        _ => level_config(l).plan(site).0.to_string(),
    }
}

/// A new game on a built-in board for the tests (Ruinas: with ruins from seed 5).
#[cfg(test)]
pub(crate) fn test_game(board: &str, players: usize, variant: rumis_core::Variant) -> Game {
    use rumis_core::{Board, Site, Variant};
    let site = Site::new(Board::builtin(board).unwrap().clone(), players, variant, None).unwrap();
    match variant {
        Variant::Ruinas => Game::with_random_ruins(std::sync::Arc::new(site), 5),
        _ => Game::new(std::sync::Arc::new(site)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(PlayerSpec::parse("Random"), Ok(PlayerSpec::Random));
        assert_eq!(PlayerSpec::parse("level:7"), Ok(PlayerSpec::Level(7)));
        assert_eq!(PlayerSpec::parse("5"), Ok(PlayerSpec::Level(5)));
        // `mcts:SIMS` is the search of levels 4-8 (level 8's with another budget).
        assert_eq!(
            PlayerSpec::parse("mcts:500"),
            Ok(PlayerSpec::Search(MctsConfig {
                simulations: Some(500),
                label: "mcts:500".into(),
                ..level_config(8)
            }))
        );
        for spec in ["random", "greedy", "level:4", "mcts:9"] {
            assert_eq!(PlayerSpec::parse(spec).unwrap().to_string(), spec);
        }
        assert!(PlayerSpec::parse("level:10").is_err());
        assert!(PlayerSpec::parse("mcts:0").is_err());
        assert!(PlayerSpec::parse("grandmaster").is_err());
        // The search with a part changed is the command line's (rumis-cli's experiment.rs).
        assert!(PlayerSpec::parse("noprior:30").is_err());
    }

    #[test]
    fn level_budgets_grow() {
        // Levels 4-8: fixed budgets, growing (the table docs/strength.md measures).
        let sims: Vec<u64> = (4..=8).map(|l| level_config(l).simulations.unwrap()).collect();
        assert_eq!(sims, [100, 500, 1_000, 3_000, 10_000]);
        let two: Vec<u64> = (4..=8)
            .map(|l| {
                let c = level_config(l);
                c.two_player_simulations.or(c.simulations).unwrap()
            })
            .collect();
        assert_eq!(two, [200, 400, 1_000, 3_000, 10_000]);
        assert!((4..=8).all(|l| level_config(l).time.is_none()));
        // Level 9: time-limited, no simulation cap.
        assert_eq!(level_config(9).simulations, None);
        assert_eq!(level_config(9).time, Some(Duration::from_millis(4_500)));
        // Level 9 alone models the others as greedy players (with 3 and 4 colours).
        assert_eq!(
            level_config(9),
            MctsConfig {
                label: "level:9".into(),
                ..MctsConfig {
                    time: Some(Duration::from_millis(4_500)),
                    simulations: None,
                    ..MctsConfig::default()
                }
                .level_nine()
            }
        );
        assert!(level_config(9).informed_plies > 0);
        assert!((4..=8).all(|l| level_config(l).informed_plies == 0));
        assert!((4..=8).all(|l| level_config(l).others_model_from == 0 && level_config(l).others_prior_weight == 1.0));
        assert!((4..=9).all(|l| level_config(l).full_prior_after == MctsConfig::default().full_prior_after));
        assert_eq!(level_config(9).two_player_simulations, None);
        // Level 9 models the others by colour: with three or four colours, the two-player
        // four-colour game included (its stand-in scored 0.550 against greedy on Pisac
        // while that game counted as two), and not in the two-player game of two colours.
        for (board, players, variant, models) in [
            ("pisac", 2, rumis_core::Variant::TwoPlayerFourColors, true),
            ("pisac", 2, rumis_core::Variant::Standard, false),
            ("pisac", 3, rumis_core::Variant::Standard, true),
            ("tambo", 4, rumis_core::Variant::Standard, true),
        ] {
            let g = test_game(board, players, variant);
            assert_eq!(
                level_config(9).models_others(g.site()),
                models,
                "{board} {players} {variant:?}"
            );
            assert!((4..=8).all(|l| !level_config(l).models_others(g.site())));
        }
        // Below level 4 (which does not search) a search is level 4's.
        assert_eq!(level_config(2).label, "level:4");
    }
}

#[cfg(test)]
mod player_tests {
    use super::*;
    use rumis_core::{Board, Site, StuckRule, Variant};
    use std::sync::Arc;

    use crate::test_game as game;

    /// Every player, on every variant, only ever plays legal moves (Game::play checks each)
    /// and plays until the game is over.
    #[test]
    fn players_only_play_legal_moves() {
        let specs = [
            "random", "greedy", "level:1", "level:2", "level:3",
            "mcts:60",
            // The searches with a part changed follow in rumis-cli's experiment.rs.
        ];
        let setups = [
            ("chullpa", 2, Variant::Standard),
            ("pisac", 3, Variant::Standard),
            ("cucho", 2, Variant::TwoPlayerFourColors),
            ("tambo", 2, Variant::Ruinas),
        ];
        for (i, spec) in specs.iter().enumerate() {
            let (board, players, variant) = setups[i % setups.len()];
            let mut g = game(board, players, variant);
            let mut p = PlayerSpec::parse(spec).unwrap().build(i as u64, 1);
            while let Some(m) = p.choose(&g) {
                assert!(g.legal_moves().contains(&m));
                g.play(m).unwrap();
            }
            assert!(g.is_over(), "{spec} stopped before the end");
        }
    }

    /// Under the house rule (a stuck colour passes) every level plays games to the end on
    /// a board where colours are often stuck and back (Cucho, 4 players), and on a strip
    /// where a colour is stuck from the third move.
    #[test]
    fn every_level_plays_under_the_pass_rule() {
        let strip = "name = \"Strip\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 3, 3 = 3, 4 = 3 }\ngrid = \"\"\"\n####\n\"\"\"\n";
        for level in 1..=8u8 {
            let sites = [
                Site::new(
                    Board::from_toml("strip.toml", strip).unwrap(),
                    2,
                    Variant::Standard,
                    None,
                )
                .unwrap(),
                Site::new(Board::builtin("cucho").unwrap().clone(), 4, Variant::Standard, None).unwrap(),
            ];
            // Levels 5-8 search for long on Cucho: the strip is enough for them.
            let take = if level <= 4 { 2 } else { 1 };
            for site in sites.into_iter().take(take) {
                let site = Arc::new(site.with_stuck_rule(StuckRule::Pass));
                let mut g = Game::new(site.clone());
                let mut p = PlayerSpec::Level(level).build(level as u64, 1);
                while let Some(m) = p.choose(&g) {
                    assert!(g.legal_moves().contains(&m), "level {level}");
                    g.play(m).unwrap();
                }
                assert!(g.is_over(), "level {level} stopped before the end");
                for &c in site.order() {
                    assert_eq!(
                        g.position().count_moves_for(&site, c),
                        0,
                        "level {level}: {c:?} could still place"
                    );
                }
            }
        }
    }

    /// On a 4 x 1 strip (limit 3) red stood a domino on d1 and yellow one on c1: red is stuck
    /// (tests/core/stuck_rule.rs in the core). Yellow's V3@a1,b1x2 or O4@a1x2,b1x2 would raise
    /// b1 to 2 and give red I3@b1,c1,d1 on top of everything: under the house rule red
    /// comes back with it and wins (and yellow must take care not to be forced to open it
    /// later); under "out" red never plays again and yellow wins whatever it does. The
    /// exact solver and the searches must see the difference.
    #[test]
    fn searches_see_a_stuck_colour_come_back() {
        let strip = "name = \"Strip\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 3, 3 = 3, 4 = 3 }\ngrid = \"\"\"\n####\n\"\"\"\n";
        let opening = ["V3@a1,b1x2", "O4@a1x2,b1x2"];
        for rule in StuckRule::ALL {
            let site = Site::new(
                Board::from_toml("strip.toml", strip).unwrap(),
                2,
                Variant::Standard,
                None,
            )
            .unwrap()
            .with_stuck_rule(rule);
            let mut g = Game::new(Arc::new(site));
            g.play_text("D2@d1x2").unwrap();
            g.play_text("D2@c1x2").unwrap();
            let (site, pos) = (g.site(), g.position());
            // Yellow's placements that win, solved exactly.
            let yellow = rumis_core::Colour::Yellow.index();
            let red = rumis_core::Colour::Red.index();
            let winning: Vec<String> = g
                .legal_moves()
                .into_iter()
                .filter(|&m| {
                    let mut after = pos.clone();
                    after.play_unchecked(site, m);
                    let v = if after.is_over() {
                        reward::rewards(site, &after)
                    } else {
                        endgame::Solver::new(site, 1_000_000)
                            .solve(&after)
                            .expect("a tiny tree")
                            .value
                    };
                    v[yellow] > v[red]
                })
                .map(|m| site.notation(m))
                .collect();
            match rule {
                // Red never plays again: yellow wins whatever it does.
                StuckRule::Out => assert_eq!(winning.len(), 7, "{winning:?}"),
                // Opening a place for red loses; some placements still win.
                StuckRule::Pass => {
                    assert!(!winning.is_empty());
                    assert!(winning.iter().all(|m| !opening.contains(&m.as_str())), "{winning:?}");
                    let best = endgame::Solver::new(site, 1_000_000).solve(pos).unwrap().best;
                    assert!(winning.contains(&site.notation(best)));
                    for level in 4..=6 {
                        let m = PlayerSpec::Level(level).build(3, 1).choose(&g).unwrap();
                        assert!(
                            winning.contains(&site.notation(m)),
                            "level {level} plays {}, not one of the winning {winning:?}",
                            site.notation(m)
                        );
                    }
                }
            }
        }
    }

    /// Red can take the last free column and win outright, or play elsewhere and lose.
    #[test]
    fn mcts_finds_the_winning_move() {
        // A 1-column-deep corridor: red's D2 lying across the last two free columns, on
        // top of yellow, wins; other moves let yellow finish on top.
        let text = "name = \"Strip\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 2, 3 = 2, 4 = 2 }\ngrid = \"\"\"\n####\n\"\"\"\n";
        let board = Board::from_toml("strip.toml", text).unwrap();
        let site = Arc::new(Site::new(board, 2, Variant::Standard, None).unwrap());
        let mut g = Game::new(site);
        // Whatever happens, the search must choose the move with the best outcome as found
        // by exhaustive search of this tiny game.
        g.play_text("D2@a1,b1").unwrap();
        g.play_text("D2@c1,d1").unwrap();
        let mut best = (f32::MIN, Vec::new());
        for m in g.legal_moves() {
            let mut h = g.clone();
            h.play(m).unwrap();
            let v = exhaustive(&mut h, rumis_core::Colour::Red);
            if v > best.0 {
                best = (v, vec![m]);
            } else if v == best.0 {
                best.1.push(m);
            }
        }
        assert!(
            best.1.len() < g.legal_moves().len(),
            "the position must have a wrong move to avoid"
        );
        let mut p = Mcts::new(MctsConfig {
            simulations: Some(3000),
            seed: 2,
            ..MctsConfig::default()
        });
        let chosen = p.choose(&g).unwrap();
        assert!(
            best.1.contains(&chosen),
            "chose {} but the best are {:?}",
            g.notation(chosen),
            best.1.iter().map(|&m| g.notation(m)).collect::<Vec<_>>()
        );
    }

    /// Red's best reachable final reward with both sides playing their best (max^n).
    fn exhaustive(g: &mut Game, me: rumis_core::Colour) -> f32 {
        let Some(to_move) = g.to_move() else {
            return reward::rewards(g.site(), g.position())[me.index()];
        };
        let mut best_for_mover = f32::MIN;
        let mut value_for_me = 0.0;
        for m in g.legal_moves() {
            g.play(m).unwrap();
            let r = final_rewards(g);
            g.undo();
            if r[to_move.index()] > best_for_mover {
                best_for_mover = r[to_move.index()];
                value_for_me = r[me.index()];
            }
        }
        value_for_me
    }

    fn final_rewards(g: &mut Game) -> [f32; 4] {
        let Some(to_move) = g.to_move() else {
            return reward::rewards(g.site(), g.position());
        };
        let mut best = [f32::MIN; 4];
        for m in g.legal_moves() {
            g.play(m).unwrap();
            let r = final_rewards(g);
            g.undo();
            if r[to_move.index()] > best[to_move.index()] {
                best = r;
            }
        }
        best
    }
}
