//! The search's settings: [`MctsConfig`] (its default, the level 9 settings), the stop flag,
//! and where the priors come from.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rumis_core::Site;

use crate::priors::{self, PriorModel};
use crate::scenario;

#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Stop after this many simulations (over all threads).
    pub simulations: Option<u64>,
    /// In two-player games (two sides: also the two-player four-colour game), stop after
    /// this many instead (`None`: `simulations`); levels 4 and 5 are spaced so.
    pub two_player_simulations: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
    pub threads: usize,
    pub seed: u64,
    /// UCT exploration constant (rewards are in 0..1).
    pub exploration: f32,
    /// A node's children are created once it has been visited this often.
    pub expand_after: u32,
    /// RAVE equivalence constant: how many visits the all-moves-as-first statistics are
    /// worth (0: no RAVE, the default: measured on Chullpa 2 players it gained nothing —
    /// rave:3000 vs mcts:3000 scored 0.505 over 100 games — and 30 000 simulations with it
    /// no longer beat 10 000).
    pub rave: f32,
    /// Move priors: each child starts as if it had been visited this often with a mean
    /// reward from the greedy evaluation (0: no priors; every child is tried once, biggest
    /// stones first, before any twice).
    pub prior_visits: f32,
    /// The prior mean of a child is exp((value - best value) / this): the best child's is
    /// 1, a child this many points of evaluation worse e^-1.
    pub prior_temperature: f32,
    /// At the nodes where another side moves, the priors count this many times
    /// `prior_visits` (1: the same as at the searching side's). The priors are the search's
    /// model of how the others play; a larger weight trusts it longer than the others'
    /// max^n choices by noisy playout values.
    pub others_prior_weight: f32,
    /// Nodes this close to the root (1: the root alone) get their priors from the greedy
    /// evaluation; deeper ones from the cheaper one of the columns covered.
    pub full_prior_depth: usize,
    /// In two-player games, deeper nodes get their children's priors from the greedy
    /// evaluation once they have been visited this often (0: never): the costly evaluation
    /// is spent where the search goes back often. Measured at 1 000 simulations against
    /// columns-covered priors: +121 Elo on Chullpa, +44 on Tambo, but -23 to -66 on
    /// Coricancha 4 players (where taking room from one colour gives it to the others),
    /// so not with more than two players.
    pub full_prior_after: u32,
    /// Whether the priors count the room a placement leaves the other colours (the greedy
    /// evaluation's room term, at the depths above): `None` as the scenario's settings say
    /// (`scenarios.toml`; off on Coricancha), `Some` on every board. Without it the priors
    /// come from the columns covered at every node.
    pub room_in_priors: Option<bool>,
    /// Where the nodes the greedy evaluation does not reach (below `full_prior_depth`) get
    /// the room a placement leaves the other sides into their priors by an estimate
    /// ([`crate::eval::RoomEstimate`]: one generation per other colour a node, not one per colour
    /// and child) rather than leaving it out.
    pub room_estimate: RoomEstimateAt,
    /// Where the room is estimated, the children get the greedy evaluation itself (the
    /// room counted) best estimate first, until the best count reaches the next estimate
    /// (no child left can beat it: the estimate never counts less) or this many are counted;
    /// the others get the estimate moved by the mean difference the counts made, never
    /// above the best count (0: the estimate alone).
    pub room_counted_best: usize,
    /// The model of the others above (`others_prior_weight`, `room_estimate`,
    /// `room_counted_best`) holds in games of this many colours or more (the two-player
    /// four-colour game has four); with fewer, the search models every side as itself
    /// (0: in every game).
    pub others_model_from: usize,
    /// Where the move priors come from: the greedy evaluation (hand-made) or a learned
    /// model ([`crate::priors`]); by default as the scenario's settings say.
    pub priors: PriorSource,
    /// With learned priors, a child's prior mean is exp((score - best score) / this): at 1,
    /// its probability under the model relative to the likeliest child's.
    pub learned_temperature: f32,
    /// With learned priors, use them only at the nodes where the searching side moves;
    /// the other colours' nodes keep the hand-made priors (the search's model of how they
    /// play).
    pub learned_own_only: bool,
    /// With `learned_own_only`: the learned priors also at the nodes of the other colours
    /// the search does not model as greedy players (`models_others` and the watch; with two
    /// players, the opponent). Those colours search, and the learned priors were learned from
    /// searches' moves.
    pub learned_for_searchers: bool,
    /// Playouts prefer the biggest stones three times in four (else uniformly random, on the
    /// core's fast playout loop).
    pub big_stones_first: bool,
    /// Playouts answer the last move half the time: a placement covering one of its columns.
    pub answer_last_move: bool,
    /// With learned priors, the playouts' first this many plies (0: none) draw
    /// `playout_candidates` placements by the policy above and play the one the learned
    /// model's quick weights score best: playouts informed by the priors' features.
    pub informed_plies: usize,
    /// How many placements an informed playout ply draws to choose from.
    pub playout_candidates: usize,
    /// Solve the rest of the game exactly when at most this many stones are left to the
    /// colours still in play (0: never)...
    pub endgame_stones: usize,
    /// ...within this many positions; beyond, search as usual.
    pub endgame_nodes: u64,
    /// Keep the part of the trees below the moves played since the last search and go on
    /// from there (tree reuse between moves).
    pub reuse: bool,
    /// The choice keeps the mover out of walls: while it holds at least
    /// [`GUARD_STONES`] stones, a most visited placement that leaves it fewer than this
    /// many outlets ([`crate::eval::outlets`]) gives way to the most visited one that leaves this
    /// many, if that one has at least half its visits (0: the most visited, always).
    pub outlet_guard: u8,
    /// Where the core generates two games at once (`rumis_core::generates_together`: the
    /// AVX-512 path on boards of at most 32 columns), simulations run in pairs: the second
    /// selects under a virtual loss on the first's path, and their playouts go in lockstep,
    /// their generations made together. Elsewhere (AVX2, scalar, WebAssembly, larger
    /// boards) one at a time whatever this says. A paired search is deterministic for its
    /// seed too, but not the same search as one at a time.
    pub paired_playouts: bool,
    pub label: String,
    /// A search stops after the simulation under way once this is raised, and answers
    /// with what it has: a server cuts a search short to give its thread to
    /// someone waiting.
    pub stop: Stop,
}

/// A flag to cut a search short from another thread (see [`MctsConfig::stop`]); clones
/// share the flag. Two configurations are equal in it when both are raised or neither is:
/// a flag is the search's handle, not one of its settings, so two configurations of the
/// same settings (a level's, a parsed player's) are equal with flags of their own.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// Asks the searches holding this flag to stop.
    pub fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl PartialEq for Stop {
    fn eq(&self, other: &Stop) -> bool {
        self.is_raised() == other.is_raised()
    }
}

/// Stones in hand from which [`MctsConfig::outlet_guard`] holds: with fewer, being out costs
/// little and the endgame solver sees the end.
pub const GUARD_STONES: usize = 5;

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            simulations: Some(1_000),
            two_player_simulations: None,
            time: None,
            threads: 1,
            seed: 1,
            exploration: 0.6,
            expand_after: 2,
            rave: 0.0,
            prior_visits: 10.0,
            prior_temperature: 2.0,
            others_prior_weight: 1.0,
            full_prior_depth: 1,
            full_prior_after: 16,
            room_in_priors: None,
            room_estimate: RoomEstimateAt::Nowhere,
            room_counted_best: 0,
            others_model_from: 0,
            priors: PriorSource::Scenario,
            learned_temperature: 1.0,
            learned_own_only: false,
            learned_for_searchers: false,
            big_stones_first: true,
            answer_last_move: true,
            informed_plies: 0,
            playout_candidates: 4,
            endgame_stones: 6,
            endgame_nodes: 200_000,
            reuse: true,
            outlet_guard: 6,
            paired_playouts: false,
            label: "mcts".into(),
            stop: Stop::default(),
        }
    }
}

impl MctsConfig {
    /// Level 9's model of the other players with three or four colours: every node's
    /// priors count the room a placement leaves the others, estimated, and counted for the
    /// best by the estimate until no other can beat the best count (the greedy evaluation's
    /// choice at a fraction of its price: at most 64 counted), and
    /// at the others' nodes they weigh 1 000 times as much (10 000 visits), so the search
    /// expects the others to play as the greedy evaluation says rather than its own max^n
    /// choice by noisy playouts. Measured (docs/strength.md, "A model of the others"): alone
    /// against greedy players the search that had sunk towards chance with more
    /// simulations on Coricancha with 4 players and Tambo with 3 wins most games, and head
    /// to head at equal time it held its own on Coricancha 4 and lost 70 Elo on Tambo 3.
    /// Two-player games of two colours keep modelling the opponent as the search itself; the
    /// two-player four-colour game counts as four colours (the opponent's two are watched
    /// and modelled one by one): counted by players, level 9's stand-in scored 0.550
    /// against greedy on Pisac there (docs/strength.md, "The two-player four-colour
    /// game"). Levels 4-8 search
    /// without it: their budgets are fixed, and the counting made level 8's first move on
    /// Coricancha 2.5 times as long. The model stands only for the colours that have played
    /// as greedy players so far in the game (`Watch`): modelling a searching opponent so
    /// cost level 9's stand-in its step over level 8 on Tambo 3 players.
    pub fn with_others_modelled(self) -> MctsConfig {
        MctsConfig {
            learned_own_only: true,
            learned_for_searchers: true,
            others_prior_weight: 1000.0,
            room_estimate: RoomEstimateAt::Everywhere,
            room_counted_best: 64,
            others_model_from: 3,
            ..self
        }
    }

    /// Level 9's search: the others modelled ([`MctsConfig::with_others_modelled`]) and,
    /// where the scenario gives it learned priors, playouts informed by them at every ply
    /// (`informed_plies`): on Coricancha with 4 players, at equal time against the same
    /// search with the policy's playouts, +35 Elo (docs/strength.md, "Informed playouts").
    /// Without learned priors the playouts are the policy's.
    pub fn level_nine(self) -> MctsConfig {
        MctsConfig {
            informed_plies: usize::MAX,
            playout_candidates: 4,
            ..self.with_others_modelled()
        }
    }

    /// Whether a search by these settings models the others in a game on `site` (and so
    /// watches which of them play as greedy players).
    pub fn models_others(&self, site: &Site) -> bool {
        site.order().len() >= self.others_model_from
            && (self.others_prior_weight != 1.0 || self.room_estimate != RoomEstimateAt::Nowhere)
    }
}

/// Which nodes' priors count the estimated room ([`MctsConfig::room_estimate`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RoomEstimateAt {
    /// None: below the greedy evaluation's depth, the columns covered alone.
    #[default]
    Nowhere,
    /// The nodes where another side moves: the search's model of how the others play.
    Others,
    /// Every node.
    Everywhere,
}

/// Where a search's move priors come from.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum PriorSource {
    /// As the scenario's settings say (`scenarios.toml`, `learned_priors`): on the boards
    /// and player counts they name, the scenario's own learned model where they say so
    /// (`own_model`), else the general one for the player count
    /// ([`priors::general_model`]); the hand-made priors elsewhere.
    #[default]
    Scenario,
    /// The greedy evaluation (hand-made), on every board.
    Hand,
    /// A learned model on every board: its full weights where the greedy evaluation would
    /// be used (the root and, in two-player games, nodes visited often), its quick weights
    /// elsewhere, and everywhere where the scenario's settings leave the room out.
    Learned(Arc<PriorModel>),
}

impl PriorSource {
    /// The learned model a search on this board uses, if any.
    pub fn model(&self, site: &Site) -> Option<Arc<PriorModel>> {
        self.resolve(site).map(|(_, m)| m)
    }

    /// The learned model a search on this board uses, if any, and where it comes from.
    pub fn resolve(&self, site: &Site) -> Option<(ModelSource, Arc<PriorModel>)> {
        match self {
            PriorSource::Hand => None,
            PriorSource::Learned(m) => Some((ModelSource::Given, m.clone())),
            PriorSource::Scenario => {
                let name = &site.board().name;
                let settings = scenario::settings(name);
                let players = site.players();
                settings.learned_priors_on(site).then(|| {
                    // A scenario said to have its own model has one (a test reads both
                    // files), so the general model here is a fallback never taken.
                    match settings
                        .own_model_with(players)
                        .then(|| priors::scenario_model(name))
                        .flatten()
                    {
                        Some(own) => (ModelSource::Scenario(name.to_ascii_lowercase()), Arc::new(own.clone())),
                        None => (
                            general_model_source(players),
                            Arc::new(priors::general_model(players).clone()),
                        ),
                    }
                })
            }
        }
    }
}

impl MctsConfig {
    /// The search of the levels with a fixed number of simulations (`mcts:SIMS`).
    pub fn with_simulations(simulations: u64) -> MctsConfig {
        MctsConfig {
            simulations: Some(simulations),
            label: format!("mcts:{simulations}"),
            ..MctsConfig::default()
        }
    }
}

/// Where [`priors::general_model`] takes its model for this many players from.
fn general_model_source(players: usize) -> ModelSource {
    if std::ptr::eq(priors::general_model(players), PriorModel::builtin()) {
        ModelSource::Builtin
    } else {
        ModelSource::PlayerCount(players)
    }
}

/// Where a search's learned move priors come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelSource {
    /// The scenario's own model (`scenario-priors.toml`), by the board's name.
    Scenario(String),
    /// The general model learned from games of this many players (`player-count-priors.toml`).
    PlayerCount(usize),
    /// The model learned from games of every count (`priors.toml`).
    Builtin,
    /// One given to the search (`PriorSource::Learned`: an experiment's).
    Given,
}

impl fmt::Display for ModelSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelSource::Scenario(name) => write!(f, "{name}'s own model (scenario-priors.toml)"),
            ModelSource::PlayerCount(n) => write!(f, "the {n}-player model (player-count-priors.toml)"),
            ModelSource::Builtin => write!(f, "the general model (priors.toml)"),
            ModelSource::Given => write!(f, "a model given to the search"),
        }
    }
}
