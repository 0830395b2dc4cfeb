//! Monte Carlo tree search for 2-4 colours.
//!
//! Each node keeps the summed reward of the colour that made its move, so selection at a
//! node maximises the reward of the colour to move there (max^n-style UCT). Rewards rank
//! the colours at the end of a playout (ties shared) with a small bonus for the score
//! margin; in the two-player four-colour game a colour is rewarded with its player's.
//!
//! Children start with a prior: as if visited `prior_visits` times with a mean from the
//! greedy evaluation (at the root: tops taken, columns covered, stone size and the room
//! left to the other colours; below it the same without the room, which needs no copy of
//! the position, until in a two-player game the node has been visited `full_prior_after`
//! times; on a scenario whose settings say so, Coricancha, the columns covered everywhere).
//! Playouts answer the last move half the time (a placement that covers one
//! of its columns) and otherwise prefer bigger stones. RAVE is available (`rave`) but off
//! by default. Several threads search separate trees from different seeds and their root
//! statistics are added (root parallelism); with one thread a seed gives the same search
//! every time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rumis_core::{Colour, Game, Move, Position, Rng, Site};

use crate::endgame::{stones_in_play, Solver};
use crate::eval::{self, Weights};
use crate::player::Player;
use crate::priors::{self, PriorModel, SiteShape};
use crate::reward::rewards;
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
    /// ([`eval::RoomEstimate`]: one generation per other colour a node, not one per colour
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
    /// many outlets ([`eval::outlets`]) gives way to the most visited one that leaves this
    /// many, if that one has at least half its visits (0: the most visited, always).
    pub outlet_guard: u8,
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
        match self {
            PriorSource::Hand => None,
            PriorSource::Learned(m) => Some(m.clone()),
            PriorSource::Scenario => {
                let name = &site.board().name;
                let settings = scenario::settings(name);
                let players = site.players();
                settings.learned_priors_on(site).then(|| {
                    // A scenario said to have its own model has one (a test reads both
                    // files), so the general model here is a fallback never taken.
                    let own = settings.own_model_with(players).then(|| priors::scenario_model(name));
                    Arc::new(own.flatten().unwrap_or_else(|| priors::general_model(players)).clone())
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

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Move,
    /// The mover's expected reward after the best move (0 lose .. 1 win).
    pub value: f32,
    /// Simulations run.
    pub simulations: u64,
    /// Root moves with visits and mean reward, most visited first.
    pub moves: Vec<(Move, u32, f32)>,
    /// Each colour's mean reward over the search (by colour index): a win estimate for
    /// every colour from this position.
    pub estimates: [f32; 4],
}

/// A tree's root children as (move, visits, summed reward), its simulations, and the summed
/// reward of each colour over them.
type TreeStats = (Vec<(Move, u32, f32)>, u64, [f32; 4]);

#[derive(Clone, Copy)]
struct Node {
    mv: Move,
    /// Colour index of the colour that made `mv`.
    mover: u8,
    expanded: bool,
    /// Its children's priors come from the full greedy evaluation.
    full_priors: bool,
    /// Its children stand in the order of their priors, best first, as `expand` made them
    /// (false once `full_priors` re-evaluated them in place): the selection may then stop
    /// at the first child not yet visited ([`TreeSearch::best_child`]).
    in_prior_order: bool,
    visits: u32,
    reward: f32,
    /// All-moves-as-first: simulations through the parent in which the parent's mover
    /// played this move at some later point, and their summed reward.
    amaf_visits: u32,
    amaf_reward: f32,
    /// The prior mean reward (see `MctsConfig::prior_visits`).
    prior: f32,
    /// `(reward + pv · prior) / (visits + pv)` with `pv` = `MctsConfig::prior_visits`:
    /// the selection's value without its exploration term, kept up to date wherever the
    /// three change ([`Node::refresh`]) so that the selection, which looks at every visited
    /// child of every node on its way, does one division a child instead of two.
    mean: f32,
    first_child: u32,
    children: u32,
}

impl Node {
    /// A node not yet visited for `mv`, made by the colour of index `mover`.
    fn new(mv: Move, mover: u8) -> Node {
        Node {
            mv,
            mover,
            expanded: false,
            full_priors: false,
            in_prior_order: false,
            visits: 0,
            reward: 0.0,
            amaf_visits: 0,
            amaf_reward: 0.0,
            prior: 0.0,
            mean: 0.0,
            first_child: 0,
            children: 0,
        }
    }

    /// Recomputes `mean` after `reward`, `visits` or `prior` changed; `pv` is
    /// `MctsConfig::prior_visits`. The same operations as the selection's uncached value
    /// ([`TreeSearch::best_child_scan`]), so the same `f32`.
    #[inline(always)]
    fn refresh(&mut self, pv: f32) {
        self.mean = (self.reward + pv * self.prior) / (self.visits as f32 + pv);
    }
}

pub struct Mcts {
    pub config: MctsConfig,
    games_seen: u64,
    /// The trees of the last search (one per thread) and the game's moves up to its root.
    kept: Option<Kept>,
    /// Which other colours have played as greedy players so far (the model of the others).
    watch: Watch,
}

/// What the search has seen of the other colours' moves in the game it plays: per colour,
/// how many moves and how many of them a greedy player would have chosen (the greedy
/// evaluation's best, ties included). The model of the others (`others_prior_weight`,
/// `room_estimate`) stands for a greedy player; a colour that plays otherwise, a search
/// such as level 8, is better left to the search's own max^n view of it: with the model at
/// every other colour, level 9's stand-in lost to level 8 head to head on Tambo 3 players
/// (docs/strength.md, "Whom to model").
#[derive(Debug, Default)]
struct Watch {
    /// The moves looked at, and the hash of the position after them: a game that does not
    /// go on from there (another game, moves taken back) starts the count afresh.
    upto: usize,
    after: u64,
    seen: [u32; 4],
    greedy: [u32; 4],
}

impl Watch {
    /// Looks at the moves of `game` since the last call, those of colours other than `own`.
    fn update(&mut self, game: &Game, own: Colour) {
        let (site, positions, moves) = (game.site(), game.positions(), game.moves());
        if self.upto > moves.len() || positions[self.upto].hash() != self.after {
            *self = Watch::default();
        }
        let mut values = Vec::new();
        let mut legal = Vec::new();
        for (pos, &played) in positions[self.upto..moves.len()].iter().zip(&moves[self.upto..]) {
            let Some(mover) = pos.to_move(site) else { continue };
            if mover == own {
                continue;
            }
            pos.legal_moves(site, &mut legal);
            values.clear();
            values.extend(legal.iter().map(|&m| eval::evaluate(site, pos, m)));
            let best = values.iter().copied().fold(f32::MIN, f32::max);
            let chosen = legal.iter().position(|&m| m == played).map_or(f32::MIN, |i| values[i]);
            self.seen[mover.index()] += 1;
            // The greedy player's own tie margin: any of the best is its choice.
            self.greedy[mover.index()] += u32::from(chosen >= best - 1e-6);
        }
        self.upto = moves.len();
        self.after = positions[self.upto].hash();
    }

    /// The colours to model as greedy players: those whose moves were a greedy player's at
    /// least nine times in ten, counting one such move before any was seen (so every colour
    /// is modelled until it shows otherwise, and one miss among the first few is enough).
    fn modelled(&self) -> [bool; 4] {
        std::array::from_fn(|k| (self.greedy[k] + 1) * 10 >= (self.seen[k] + 1) * 9)
    }
}

struct Kept {
    moves: Vec<Move>,
    root_hash: u64,
    trees: Vec<Vec<Node>>,
    /// The `MctsConfig::prior_visits` of the nodes' `mean`s.
    prior_visits: f32,
}

impl Mcts {
    pub fn new(config: MctsConfig) -> Mcts {
        Mcts {
            config,
            games_seen: 0,
            kept: None,
            watch: Watch::default(),
        }
    }

    /// The kept trees re-rooted at the game's position, if it follows from the last search's
    /// root by moves the trees know; else fresh trees.
    fn trees_for(&mut self, game: &Game, threads: usize) -> (Vec<Vec<Node>>, u64) {
        let fresh = || {
            (0..threads)
                .map(|_| vec![Node::new(Move::default(), 0)])
                .collect::<Vec<_>>()
        };
        let Some(kept) = self.kept.take() else {
            return (fresh(), 0);
        };
        let moves = game.moves();
        let follows = self.config.reuse
            && kept.trees.len() == threads
            && moves.len() >= kept.moves.len()
            && moves[..kept.moves.len()] == kept.moves[..]
            && game.positions().get(kept.moves.len()).map(|p| p.hash()) == Some(kept.root_hash)
            && kept.prior_visits == self.config.prior_visits
            // A colour that left the game since: the kept nodes' positions still have it in.
            && game.retirements().iter().all(|r| r.after <= kept.moves.len());
        if !follows {
            return (fresh(), 0);
        }
        let since = &moves[kept.moves.len()..];
        let mut reused = 0u64;
        let trees = kept
            .trees
            .into_iter()
            .map(|tree| match descend(&tree, since) {
                Some(i) => {
                    let sub = subtree(&tree, i);
                    reused += sub[0].visits as u64;
                    sub
                }
                None => vec![Node::new(Move::default(), 0)],
            })
            .collect();
        (trees, reused)
    }

    /// Searches the position of a game; `None` when the game is over.
    pub fn search(&mut self, game: &Game) -> Option<SearchResult> {
        let site = game.site();
        let root = game.position().clone();
        let mover = root.to_move(site)?;
        self.games_seen += 1;
        // The time limit covers the endgame solver's attempt too.
        let deadline = self.config.time.map(|t| Instant::now() + t);
        if self.config.endgame_stones > 0 && stones_in_play(site, &root) <= self.config.endgame_stones {
            if let Some(s) = Solver::new(site, self.config.endgame_nodes).solve(&root) {
                let value = s.value[mover.index()];
                return Some(SearchResult {
                    best: s.best,
                    value,
                    simulations: 0,
                    moves: vec![(s.best, 0, value)],
                    estimates: s.value,
                });
            }
        }
        let threads = self.config.threads.max(1);
        let budget = match self.config.two_player_simulations {
            Some(s) if site.players() == 2 => Some(s),
            _ => self.config.simulations,
        };
        let per_thread = budget.map(|s| s.div_ceil(threads as u64));
        let seed = self.config.seed ^ root.hash() ^ self.games_seen.wrapping_mul(0x9e37_79b9);
        let (trees, _reused) = self.trees_for(game, threads);
        let modelled = if self.config.models_others(site) {
            self.watch.update(game, mover);
            self.watch.modelled()
        } else {
            [false; 4]
        };
        let cfg = &self.config;
        let results: Vec<(TreeStats, Vec<Node>)> = if threads == 1 {
            let tree = trees
                .into_iter()
                .next()
                .unwrap_or_else(|| vec![Node::new(Move::default(), 0)]);
            vec![run_tree(site, &root, cfg, seed, per_thread, deadline, tree, modelled)]
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = trees
                    .into_iter()
                    .enumerate()
                    .map(|(i, tree)| {
                        let root = &root;
                        s.spawn(move || {
                            run_tree(
                                site,
                                root,
                                cfg,
                                seed.wrapping_add(i as u64 * 0x5851_f42d),
                                per_thread,
                                deadline,
                                tree,
                                modelled,
                            )
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("search thread")).collect()
            })
        };
        // Add up the root statistics of the trees.
        let mut merged: Vec<(Move, u32, f32)> = Vec::new();
        let mut simulations = 0;
        let mut totals = [0.0f32; 4];
        let mut kept_trees = Vec::with_capacity(threads);
        for ((stats, sims, sums), tree) in results {
            kept_trees.push(tree);
            simulations += sims;
            for k in 0..4 {
                totals[k] += sums[k];
            }
            for (m, v, r) in stats {
                match merged.iter_mut().find(|e| e.0 == m) {
                    Some(e) => {
                        e.1 += v;
                        e.2 += r;
                    }
                    None => merged.push((m, v, r)),
                }
            }
        }
        let mut moves: Vec<(Move, u32, f32)> = merged
            .into_iter()
            .map(|(m, v, r)| (m, v, if v > 0 { r / v as f32 } else { 0.0 }))
            .collect();
        moves.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)).then(a.0.cmp(&b.0)));
        let chosen = guarded_choice(site, &root, mover, &moves, self.config.outlet_guard);
        moves[..=chosen].rotate_right(1);
        let &(best, _, value) = moves.first()?;
        let estimates = totals.map(|t| t / simulations.max(1) as f32);
        if self.config.reuse {
            self.kept = Some(Kept {
                moves: game.moves().to_vec(),
                root_hash: root.hash(),
                trees: kept_trees,
                prior_visits: self.config.prior_visits,
            });
        }
        Some(SearchResult {
            best,
            value,
            simulations,
            moves,
            estimates,
        })
    }
}

/// Which of `moves` (most visited first) the search plays: the first, unless it leaves
/// `mover` fewer than `guard` outlets while it holds [`GUARD_STONES`] stones or more; then
/// the most visited that leaves `guard`, among those with at least half the first's visits
/// (the first when none does). Walled in after its first stones, a colour is out with most
/// of its stones in hand and ranks last, which the playouts' random others rarely show:
/// level 8 went out with six stones or more in 16.5 % of 200 Coricancha games against
/// three level 5s, and came last in every one of them (docs/strength.md, "Walled in").
fn guarded_choice(site: &Site, root: &Position, mover: Colour, moves: &[(Move, u32, f32)], guard: u8) -> usize {
    let Some(&(first, visits, _)) = moves.first() else {
        return 0;
    };
    if guard == 0 || root.stones_in_hand(mover) < GUARD_STONES {
        return 0;
    }
    let outlets_after = |m: Move| {
        let mut pos = root.clone();
        pos.play_unchecked(site, m);
        eval::outlets(site, &pos, mover)
    };
    let guard = usize::from(guard);
    if outlets_after(first) >= guard {
        return 0;
    }
    moves
        .iter()
        .take_while(|&&(_, v, _)| v * 2 >= visits)
        .position(|&(m, _, _)| outlets_after(m) >= guard)
        .unwrap_or(0)
}

impl Player for Mcts {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        self.search(game).map(|r| r.best)
    }
    fn name(&self) -> String {
        self.config.label.clone()
    }
}

/// The playout policy, on the core's move bitsets without listing the moves: per generator
/// chunk, the slots of stones of 2, 3 and 4 cubes ("bigger stones first") and, per column,
/// the slots of the placements that cover it ("answer the last move").
struct PlayoutPolicy {
    sizes: [Vec<u64>; 3],
    /// Column `c`'s words are `covers[c * chunks..(c + 1) * chunks]`.
    covers: Vec<u64>,
    chunks: usize,
    big_first: bool,
    answer: bool,
    /// The words of the placements covering the last move's columns, then (`scratch`) of
    /// those in the set.
    covered: Vec<u64>,
    scratch: Vec<u64>,
    /// The words of the biggest stones `pick_in` draws from, per word set (see
    /// [`PlyDraws`]).
    masked: [Vec<u64>; 2],
}

/// What the draws of one ply from one set share ([`PlayoutPolicy::pick_again`]): the
/// count of the placements answering the last move once they are in `scratch`, and per
/// word set drawn from (0: those answers, 1: the whole set) the count of its biggest
/// stones' placements once `pick_in` has put them in `masked`. Informed playouts draw four
/// times a ply; each draw after the first then skips the masking and counting, and takes
/// the same random numbers (the same games).
#[derive(Default)]
struct PlyDraws {
    answers: Option<usize>,
    biggest: [Option<usize>; 2],
}

/// The word sets of [`PlyDraws::biggest`].
const ANSWERS: usize = 0;
const WHOLE_SET: usize = 1;

impl PlayoutPolicy {
    fn new(site: &Site, big_first: bool, answer: bool) -> PlayoutPolicy {
        let tables = site.gen_tables();
        let chunks = tables.chunk_count();
        let mut sizes = [vec![0u64; chunks], vec![0u64; chunks], vec![0u64; chunks]];
        let mut covers = vec![0u64; chunks * site.footprint().max().map_or(0, |c| c + 1)];
        for slot in 0..chunks * 64 {
            if let Some(m) = tables.slot_template(slot) {
                let t = site.template(m);
                sizes[t.stone.size() - 2][slot / 64] |= 1 << (slot % 64);
                for &c in &t.columns[..t.len as usize] {
                    covers[c as usize * chunks + slot / 64] |= 1 << (slot % 64);
                }
            }
        }
        PlayoutPolicy {
            sizes,
            covers,
            chunks,
            big_first,
            answer,
            covered: vec![0; chunks],
            scratch: vec![0; chunks],
            masked: [vec![0; chunks], vec![0; chunks]],
        }
    }

    /// Half the time (when answering) a placement that covers a column of the last move, if
    /// there is one; else three times in four (when bigger stones go first) a uniformly
    /// random placement of the biggest stones that have one; else a uniformly random
    /// placement (`n` > 0 placements in `set`).
    fn pick(&mut self, site: &Site, set: &rumis_core::MoveSet, n: usize, last: Option<Move>, rng: &mut Rng) -> Move {
        self.pick_again(site, set, n, last, rng, &mut PlyDraws::default())
    }

    /// [`Self::pick`], drawn again from the same set after the last move `last`:
    /// `answers` keeps whether the placements answering it are in `scratch` already (and
    /// whether there are any), so that several draws a ply find them once.
    fn pick_again(
        &mut self,
        site: &Site,
        set: &rumis_core::MoveSet,
        n: usize,
        last: Option<Move>,
        rng: &mut Rng,
        draws: &mut PlyDraws,
    ) -> Move {
        if let Some(last) = last.filter(|_| self.answer && rng.below(2) == 0) {
            let answers = match draws.answers {
                Some(count) => count,
                None => {
                    // The placements covering a column of the last move: the columns' words
                    // ORed (a column at a time, which the compiler does several words at
                    // once), then those of the set, counted.
                    let t = site.template(last);
                    let chunks = self.chunks;
                    self.covered.fill(0);
                    for &c in &t.columns[..t.len as usize] {
                        let c = c as usize * chunks;
                        for (out, cover) in self.covered.iter_mut().zip(&self.covers[c..c + chunks]) {
                            *out |= cover;
                        }
                    }
                    let count = site
                        .gen_tables()
                        .mask_words(set.words(), &self.covered, &mut self.scratch);
                    *draws.answers.insert(count)
                }
            };
            if answers > 0 {
                let scratch = std::mem::take(&mut self.scratch);
                let m = self.pick_in(site, &scratch, answers, ANSWERS, draws, rng);
                self.scratch = scratch;
                return m;
            }
        }
        self.pick_rest(site, set, n, draws, rng)
    }

    /// The draw when not answering: bigger stones first or uniform.
    fn pick_rest(
        &mut self,
        site: &Site,
        set: &rumis_core::MoveSet,
        n: usize,
        draws: &mut PlyDraws,
        rng: &mut Rng,
    ) -> Move {
        if self.big_first {
            return self.pick_in(site, set.words(), n, WHOLE_SET, draws, rng);
        }
        set.pick(site.gen_tables(), n, rng)
            .expect("the colour to move has a placement")
    }

    /// A placement of the bitset `words` of `count` > 0 placements: three times in four
    /// (when bigger stones go first) among the biggest stones, else among all.
    /// `source` names `words` for `draws` (`ANSWERS` or `WHOLE_SET`).
    fn pick_in(
        &mut self,
        site: &Site,
        words: &[u64],
        count: usize,
        source: usize,
        draws: &mut PlyDraws,
        rng: &mut Rng,
    ) -> Move {
        let tables = site.gen_tables();
        if self.big_first && rng.below(4) != 0 {
            let masked = &mut self.masked[source];
            let biggest = *draws.biggest[source].get_or_insert_with(|| {
                // The biggest stones that have a placement here.
                self.sizes
                    .iter()
                    .rev()
                    .map(|mask| tables.mask_words(words, mask, masked))
                    .find(|&count| count > 0)
                    .unwrap_or(0)
            });
            if biggest > 0 {
                if let Some(m) = tables.nth_in_words(masked, rng.below(biggest)) {
                    return m;
                }
            }
        }
        // The draw `pick_in_words` makes, with the count known.
        tables
            .nth_in_words(words, rng.below(count))
            .expect("a non-empty set of placements")
    }
}

/// Plays one game to the end from `pos` with the search's playout policy.
pub fn playout(site: &Site, pos: &mut Position, rng: &mut Rng) {
    let mut policy = PlayoutPolicy::new(site, true, true);
    let mut set = rumis_core::MoveSet::new();
    let mut last = None;
    while pos.to_move(site).is_some() {
        let n = pos.legal_set(site, &mut set);
        let m = policy.pick(site, &set, n, last, rng);
        pos.play_unchecked(site, m);
        last = Some(m);
    }
}

/// One tree: returns the root children's (move, visits, summed reward), the simulations
/// run and each colour's summed reward, with the tree (to keep for the next move).
#[allow(clippy::too_many_arguments)]
fn run_tree(
    site: &Site,
    root: &Position,
    cfg: &MctsConfig,
    seed: u64,
    budget: Option<u64>,
    deadline: Option<Instant>,
    nodes: Vec<Node>,
    modelled: [bool; 4],
) -> (TreeStats, Vec<Node>) {
    let mut tree = TreeSearch::new(site, cfg, seed, nodes);
    tree.own = root.to_move(site);
    tree.modelled = modelled;
    while !tree.out_of_budget(budget, deadline) {
        tree.simulate(root);
    }
    tree.into_stats()
}

/// One tree's search, and the buffers its simulations reuse. A simulation descends from
/// the root by the children's values, expanding the nodes it passes that have been visited
/// often enough ([`TreeSearch::select_and_expand`]), plays the game out by the playout
/// policy ([`TreeSearch::playout`]) and adds the rewards to every node on its path
/// ([`TreeSearch::back_up`]).
struct TreeSearch<'a> {
    site: &'a Site,
    cfg: &'a MctsConfig,
    nodes: Vec<Node>,
    rng: Rng,
    sims: u64,
    /// The simulation's moves in order, as (colour index, move): the tree's, then the
    /// playout's.
    played: Vec<(u8, Move)>,
    /// How many of `played` were made in the tree.
    tree_plies: usize,
    /// The nodes from the root to where the simulation left the tree.
    path: Vec<u32>,
    /// Per colour, the moves it played from the ply being credited on (RAVE).
    seen: Vec<Vec<u64>>,
    /// Each colour's summed reward over the simulations.
    sums: [f32; 4],
    policy: PlayoutPolicy,
    code_path: rumis_core::CodePath,
    set: rumis_core::MoveSet,
    moves: Vec<Move>,
    priors: Vec<(f32, Move)>,
    weights: Weights,
    room: eval::RoomEstimate,
    /// Where the room is estimated and how much the others' priors weigh: the settings', or
    /// nowhere and 1 in games with fewer colours than `others_model_from`.
    room_estimate: RoomEstimateAt,
    others_prior_weight: f32,
    /// Nodes this close to the root get their children's priors from the greedy evaluation
    /// (0: none, when the room is left out of the priors).
    full_prior_depth: usize,
    /// Deeper nodes get them once visited `full_prior_after` times (two-player games).
    late_full_priors: bool,
    /// The learned model and what its features need of the site, when the priors are learned.
    learned: Option<(Arc<PriorModel>, SiteShape)>,
    /// The learned model's quick weights' score, for the priors below the root and the
    /// informed playouts (`informed_plies`).
    scorer: Option<priors::QuickScorer>,
    /// What the scorer reads of the position it scores on ([`priors::QuickScorer::look`]).
    score_view: priors::ScoreView,
    /// The searching colour (with `learned_own_only`, its side's nodes alone get the
    /// learned priors).
    own: Option<rumis_core::Colour>,
    /// The other colours the model of the others stands for (`Watch`): at the others'
    /// nodes the room estimate and `others_prior_weight` apply to these alone.
    modelled: [bool; 4],
}

impl TreeSearch<'_> {
    /// Whether a node where `mover` moves gets the learned priors.
    fn learned_for(&self, mover: rumis_core::Colour) -> bool {
        if self.learned.is_none() {
            return false;
        }
        if !self.cfg.learned_own_only || self.own_side(mover) {
            return true;
        }
        // A colour the search models as a greedy player keeps the hand-made priors (they
        // are the greedy evaluation); any other colour searches, as the players of the
        // records the learned priors come from did.
        self.cfg.learned_for_searchers && !(self.cfg.models_others(self.site) && self.modelled[mover.index()])
    }

    /// Whether `mover` plays for the searching side (its colour, or the same player's other
    /// colour in the two-player four-colour game).
    fn own_side(&self, mover: Colour) -> bool {
        let Some(own) = self.own else { return false };
        let site = self.site;
        own == mover || (site.player_of(own).is_some() && site.player_of(own) == site.player_of(mover))
    }
}

impl<'a> TreeSearch<'a> {
    /// One simulation: select and expand, play out, back up. A function of its own, never
    /// inlined into the search's loop: WebAssembly engines (V8) start a function on quick
    /// baseline code and switch to optimised code only at a later call, so with the loop
    /// and the simulation in one function a search ran its whole first move on the
    /// baseline code.
    #[inline(never)]
    fn simulate(&mut self, root: &Position) {
        self.sims += 1;
        let mut pos = root.clone();
        self.select_and_expand(&mut pos);
        self.playout(&mut pos);
        self.back_up(&rewards(self.site, &pos));
    }

    fn new(site: &'a Site, cfg: &'a MctsConfig, seed: u64, nodes: Vec<Node>) -> TreeSearch<'a> {
        // The scenarios' learned priors were measured for level 9's search, which keeps the
        // greedy evaluation for the colours it models as greedy players (scenarios.toml).
        let learned = match cfg.priors {
            PriorSource::Scenario if !cfg.learned_for_searchers => None,
            ref p => p.model(site),
        };
        let learned = learned.map(|m| (m, SiteShape::new(site)));
        let scorer = learned
            .as_ref()
            .map(|(m, shape)| priors::QuickScorer::new(site, shape, &m.quick));
        // Without the room (Coricancha) a learned model uses its quick weights everywhere,
        // as the hand-made priors use the columns covered: with the room features the
        // learned priors lost to greedy there too (docs/strength.md).
        let room = cfg
            .room_in_priors
            .unwrap_or_else(|| scenario::settings(&site.board().name).room_in_priors);
        let model = site.order().len() >= cfg.others_model_from;
        TreeSearch {
            site,
            cfg,
            nodes,
            rng: Rng::new(seed),
            sims: 0,
            played: Vec::new(),
            tree_plies: 0,
            path: Vec::new(),
            seen: vec![vec![0u64; site.templates().len().div_ceil(64)]; 4],
            sums: [0.0; 4],
            policy: PlayoutPolicy::new(site, cfg.big_stones_first, cfg.answer_last_move),
            code_path: rumis_core::CodePath::active(),
            set: rumis_core::MoveSet::new(),
            moves: Vec::new(),
            priors: Vec::new(),
            weights: Weights::default(),
            room: eval::RoomEstimate::default(),
            room_estimate: if model {
                cfg.room_estimate
            } else {
                RoomEstimateAt::Nowhere
            },
            others_prior_weight: if model { cfg.others_prior_weight } else { 1.0 },
            full_prior_depth: if room { cfg.full_prior_depth } else { 0 },
            late_full_priors: room && cfg.full_prior_after > 0 && cfg.prior_visits > 0.0 && site.players() == 2,
            learned,
            scorer,
            score_view: priors::ScoreView::default(),
            own: None,
            modelled: [true; 4],
        }
    }

    /// Whether to stop before the next simulation: the budget is spent, the deadline has
    /// passed (looked at every 32 simulations, after the first: reading the clock costs),
    /// the stop flag is raised (after the first simulation: one atomic load, so that a
    /// search gives its thread back within one simulation), or with neither budget nor
    /// deadline given after 1 000.
    fn out_of_budget(&self, budget: Option<u64>, deadline: Option<Instant>) -> bool {
        let sims = self.sims;
        budget.is_some_and(|b| sims >= b)
            || (sims.is_multiple_of(32) && deadline.is_some_and(|d| Instant::now() >= d) && sims > 0)
            || (sims > 0 && self.cfg.stop.is_raised())
            || (budget.is_none() && deadline.is_none() && sims >= 1_000)
    }

    /// Selection: from the root, moves to the child of the best value until the game ends,
    /// a node is not to be expanded yet, or a child is new; expands the nodes on the way
    /// that are due. `pos` follows the moves.
    fn select_and_expand(&mut self, pos: &mut Position) {
        self.path.clear();
        self.path.push(0);
        self.played.clear();
        let mut node = 0usize;
        while !pos.is_over() {
            if !self.nodes[node].expanded {
                if node != 0 && self.nodes[node].visits < self.cfg.expand_after {
                    break;
                }
                let Some(mover) = pos.to_move(self.site) else { break };
                self.expand(node, pos, mover);
            }
            if self.late_full_priors
                && !self.nodes[node].full_priors
                && self.nodes[node].visits >= self.cfg.full_prior_after
            {
                self.full_priors(node, pos);
            }
            node = self.best_child(node) as usize;
            let child = self.nodes[node];
            self.played.push((child.mover, child.mv));
            pos.play_unchecked(self.site, child.mv);
            self.path.push(node as u32);
            if child.visits == 0 {
                break;
            }
        }
        self.tree_plies = self.played.len();
    }

    /// Expansion: gives `node` a child for every legal placement of `mover`, each with its
    /// prior, best prior first.
    fn expand(&mut self, node: usize, pos: &Position, mover: rumis_core::Colour) {
        let site = self.site;
        pos.legal_moves(site, &mut self.moves);
        self.priors.clear();
        let mut temperature = self.cfg.prior_temperature;
        let use_learned = self.learned_for(mover);
        if let (Some((model, shape)), true) = (
            self.learned.as_ref().filter(|_| use_learned),
            self.cfg.prior_visits > 0.0,
        ) {
            temperature = self.cfg.learned_temperature;
            let full = self.path.len() <= self.full_prior_depth;
            self.nodes[node].full_priors = full;
            if let (false, Some(scorer)) = (full, self.scorer.as_ref()) {
                // The quick weights' score without the features listed (the same value).
                let view = &mut self.score_view;
                scorer.look(site, pos, mover, view);
                self.priors
                    .extend(self.moves.iter().map(|&m| (scorer.score(site, view, m), m)));
            } else {
                let w = if full { &model.full } else { &model.quick };
                self.priors.extend(self.moves.iter().map(|&m| {
                    let f = priors::features(site, shape, pos, m, mover, full);
                    (PriorModel::score(w, &f), m)
                }));
            }
        } else if self.cfg.prior_visits > 0.0 {
            // The greedy evaluation at the root; below it the cheaper one from the
            // columns covered (it needs no copy of the position).
            if self.path.len() <= self.full_prior_depth {
                self.nodes[node].full_priors = true;
                self.priors
                    .extend(self.moves.iter().map(|&m| (eval::evaluate(site, pos, m), m)));
            } else if match self.room_estimate {
                RoomEstimateAt::Nowhere => false,
                RoomEstimateAt::Others => !self.own_side(mover) && self.modelled[mover.index()],
                RoomEstimateAt::Everywhere => self.own_side(mover) || self.modelled[mover.index()],
            } {
                self.room.prepare(site, pos, mover);
                let (weights, room) = (&self.weights, &self.room);
                self.priors.extend(
                    self.moves
                        .iter()
                        .map(|&m| (eval::estimated(weights, site, pos, m, mover, room), m)),
                );
                // Counted best first: the estimated value is never below the counted one
                // (the estimate never gives the others more room), so once the best count
                // reaches the next estimate no child left can beat it, and the greedy
                // evaluation's choice is the best prior.
                let most = self.cfg.room_counted_best;
                if most > 0 {
                    self.priors.sort_by(|a, b| b.0.total_cmp(&a.0));
                    let (mut best, mut shift, mut counted) = (f32::MIN, 0.0, 0);
                    for p in self.priors.iter_mut() {
                        if counted == most || p.0 <= best {
                            break;
                        }
                        let value = eval::evaluate(site, pos, p.1);
                        shift += value - p.0;
                        p.0 = value;
                        best = best.max(value);
                        counted += 1;
                    }
                    // Never above the best count: were the cap reached before the bound, an
                    // uncounted child moved up by the mean could pass the greedy choice.
                    let shift = shift / counted as f32;
                    for p in &mut self.priors[counted..] {
                        p.0 = (p.0 + shift).min(best - 1e-3);
                    }
                }
            } else {
                let weights = &self.weights;
                self.priors.extend(
                    self.moves
                        .iter()
                        .map(|&m| (eval::quick(weights, site, pos, m, mover), m)),
                );
            }
        } else {
            // Bigger stones first.
            self.priors
                .extend(self.moves.iter().map(|&m| (site.template(m).stone.size() as f32, m)));
        }
        // Shuffle before the stable sort so that equal priors are tried in random order.
        self.rng.shuffle(&mut self.priors);
        self.priors.sort_by(|a, b| b.0.total_cmp(&a.0));
        let top = self.priors.first().map_or(0.0, |p| p.0);
        let first = self.nodes.len() as u32;
        let mut last = f32::INFINITY;
        for &(v, m) in self.priors.iter() {
            let mut child = Node::new(m, mover.index() as u8);
            // Never above the one before (as `exp` of falling arguments is in any sound
            // library): the selection relies on the order ([`TreeSearch::best_child`]).
            child.prior = ((v - top) / temperature).exp().min(last);
            child.refresh(self.cfg.prior_visits);
            last = child.prior;
            self.nodes.push(child);
        }
        let n = &mut self.nodes[node];
        n.expanded = true;
        n.in_prior_order = true;
        n.first_child = first;
        n.children = self.priors.len() as u32;
    }

    /// Re-evaluates the priors of `node`'s children by the greedy evaluation: it has been
    /// visited often enough to pay for the room counts.
    fn full_priors(&mut self, node: usize, pos: &Position) {
        let mover = pos.to_move(self.site).filter(|&m| self.learned_for(m));
        let n = &mut self.nodes[node];
        n.full_priors = true;
        n.in_prior_order = false;
        let (first, count) = (n.first_child as usize, n.children as usize);
        let children = &mut self.nodes[first..first + count];
        let mut top = f32::MIN;
        let mut temperature = self.cfg.prior_temperature;
        match (self.learned.as_ref(), mover) {
            (Some((model, shape)), Some(mover)) => {
                temperature = self.cfg.learned_temperature;
                for c in children.iter_mut() {
                    let f = priors::features(self.site, shape, pos, c.mv, mover, true);
                    c.prior = PriorModel::score(&model.full, &f);
                    top = top.max(c.prior);
                }
            }
            _ => {
                for c in children.iter_mut() {
                    c.prior = eval::evaluate(self.site, pos, c.mv);
                    top = top.max(c.prior);
                }
            }
        }
        for c in children.iter_mut() {
            c.prior = ((c.prior - top) / temperature).exp();
            c.refresh(self.cfg.prior_visits);
        }
    }

    /// The child of `node` with the best value for the colour that moves there (the first
    /// of equals); without priors and RAVE, the first child not yet visited.
    ///
    /// With priors, children in prior order are looked at only up to the first not yet
    /// visited, which is the same choice as looking at them all: the value of a child never
    /// visited grows with its prior alone (every operation on it is monotonic), so no later
    /// unvisited child beats it, and visited children are always a leading run of the
    /// list, since an unvisited child is only ever chosen when it is the first of them. At
    /// nodes with hundreds of children and few visits this is most of the selection's time.
    fn best_child(&self, node: usize) -> u32 {
        let best = self.best_child_scan(node, self.nodes[node].in_prior_order);
        #[cfg(test)]
        if oracle::on() {
            assert_eq!(
                best,
                self.best_child_scan(node, false),
                "the selection stopped too early"
            );
        }
        best
    }

    /// [`Self::best_child`], looking at every child unless `stop_at_new`.
    fn best_child_scan(&self, node: usize, stop_at_new: bool) -> u32 {
        let cfg = self.cfg;
        let n = self.nodes[node];
        let ln = ((n.visits.max(1)) as f32).ln();
        let mut best = n.first_child;
        let mut best_value = f32::MIN;
        if cfg.prior_visits > 0.0 && cfg.rave <= 0.0 {
            // The prior counts as `prior_visits` visits with its mean. The values of eight
            // children at a time first (two divisions and a root each: the compiler does
            // them four or eight at once, the same operations, so the same values), then
            // the first of the best.
            let first = n.first_child as usize;
            let children = &self.nodes[first..first + n.children as usize];
            let others = self.others_prior_weight != 1.0
                && children.first().is_some_and(|c| {
                    let mover = Colour::ALL[c.mover as usize & 3];
                    !self.own_side(mover) && self.modelled[mover.index()]
                });
            let pv = if others {
                cfg.prior_visits * self.others_prior_weight
            } else {
                cfg.prior_visits
            };
            let exploration = cfg.exploration;
            let mut values = [0.0f32; 8];
            for (k, chunk) in children.chunks(8).enumerate() {
                if others {
                    for (v, c) in values.iter_mut().zip(chunk) {
                        let n = c.visits as f32;
                        *v = (c.reward + pv * c.prior) / (n + pv) + exploration * (ln / (n + 1.0)).sqrt();
                    }
                } else {
                    for (v, c) in values.iter_mut().zip(chunk) {
                        #[cfg(test)]
                        assert_eq!(
                            c.mean.to_bits(),
                            ((c.reward + pv * c.prior) / (c.visits as f32 + pv)).to_bits(),
                            "a child's kept mean is out of date"
                        );
                        *v = c.mean + exploration * (ln / (c.visits as f32 + 1.0)).sqrt();
                    }
                }
                for (j, (c, &v)) in chunk.iter().zip(&values).enumerate() {
                    if v > best_value {
                        best_value = v;
                        best = (first + 8 * k + j) as u32;
                    }
                    if stop_at_new && c.visits == 0 {
                        return best;
                    }
                }
            }
            return best;
        }
        for i in n.first_child..n.first_child + n.children {
            let c = &self.nodes[i as usize];
            let v = if cfg.rave <= 0.0 {
                if c.visits == 0 {
                    // Try every move once (in prior order) before any twice.
                    return i;
                }
                c.reward / c.visits as f32 + cfg.exploration * (ln / c.visits as f32).sqrt()
            } else if c.amaf_visits == 0 {
                // Nothing known yet: an optimistic first-play value, so that moves with
                // good all-moves-as-first statistics can go first.
                if c.visits == 0 {
                    1.0
                } else {
                    c.reward / c.visits as f32 + cfg.exploration * (ln / c.visits as f32).sqrt()
                }
            } else {
                // Gelly and Silver's blend: the all-moves-as-first mean counts for
                // less as the move's own visits grow.
                let n = c.visits as f32;
                let beta = (cfg.rave / (3.0 * n + cfg.rave)).sqrt();
                let amaf = c.amaf_reward / c.amaf_visits as f32;
                let q = if c.visits > 0 { c.reward / n } else { amaf };
                (1.0 - beta) * q + beta * amaf + cfg.exploration * (ln / (n + 1.0)).sqrt()
            };
            if v > best_value {
                best_value = v;
                best = i;
            }
        }
        best
    }

    /// Playout: plays the game to its end from where the simulation left the tree.
    fn playout(&mut self, pos: &mut Position) {
        let (site, cfg) = (self.site, self.cfg);
        if cfg.rave <= 0.0 && !cfg.big_stones_first && !cfg.answer_last_move {
            // Uniform playouts on the core's fastest path: nothing to record.
            rumis_core::random_playout_in_place(site, pos, &mut self.rng, self.code_path, &mut self.set)
                .expect("the active code path is available");
        }
        if pos.to_move(site).is_none() {
            return;
        }
        // One generation a ply: each placement leaves the next colour's placements in the
        // set (`play_generate_with`), where `legal_set` then `play_unchecked` generated
        // twice (the placements, then whether the next colour can place) and placed on the
        // scalar path. The same games. Nothing reads the hash of a playout's positions.
        let path = self.code_path;
        let mut n = pos
            .legal_set_with(site, path, &mut self.set)
            .expect("the active code path is available");
        let mut informed = if self.scorer.is_some() { cfg.informed_plies } else { 0 };
        while let Some(colour) = pos.to_move(site) {
            let last = self.played.last().map(|p| p.1);
            let mut draws = PlyDraws::default();
            let mut m = self
                .policy
                .pick_again(site, &self.set, n, last, &mut self.rng, &mut draws);
            if informed > 0 {
                informed -= 1;
                if let Some(scorer) = self.scorer.as_ref() {
                    let view = &mut self.score_view;
                    scorer.look(site, pos, colour, view);
                    let score = |m| scorer.score(site, view, m);
                    let mut best = score(m);
                    for _ in 1..cfg.playout_candidates {
                        let c = self
                            .policy
                            .pick_again(site, &self.set, n, last, &mut self.rng, &mut draws);
                        let v = score(c);
                        if v > best {
                            (best, m) = (v, c);
                        }
                    }
                }
            }
            self.played.push((colour.index() as u8, m));
            n = pos
                .play_generate_unhashed_with(site, m, path, &mut self.set)
                .expect("the active code path is available");
        }
    }

    /// Back-up: adds each colour's reward `r` at the end of the simulation to the nodes on
    /// its path (each node keeps its mover's) and, with RAVE, to the all-moves-as-first
    /// statistics of their children.
    fn back_up(&mut self, r: &[f32; 4]) {
        if self.cfg.rave > 0.0 {
            self.credit_all_moves_as_first(r);
        }
        for (sum, reward) in self.sums.iter_mut().zip(r) {
            *sum += reward;
        }
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            if i != 0 {
                n.reward += r[n.mover as usize];
                n.refresh(self.cfg.prior_visits);
            }
        }
    }

    /// Walks the plies backwards; at each tree node, credits its children whose move its
    /// mover played then or later.
    fn credit_all_moves_as_first(&mut self, r: &[f32; 4]) {
        let (played, path, seen) = (&self.played, &self.path, &mut self.seen);
        for ply in (0..played.len()).rev() {
            let (c, m) = played[ply];
            seen[c as usize][m.index() / 64] |= 1 << (m.index() % 64);
            if ply < self.tree_plies || (ply == self.tree_plies && ply < path.len()) {
                let n = self.nodes[path[ply] as usize];
                if n.expanded {
                    for i in n.first_child..n.first_child + n.children {
                        let ch = &mut self.nodes[i as usize];
                        let set = &seen[ch.mover as usize];
                        if set[ch.mv.index() / 64] >> (ch.mv.index() % 64) & 1 == 1 {
                            ch.amaf_visits += 1;
                            ch.amaf_reward += r[ch.mover as usize];
                        }
                    }
                }
            }
        }
        for &(c, m) in played {
            seen[c as usize][m.index() / 64] = 0;
        }
    }

    /// The root children's (move, visits, summed reward), the simulations run and each
    /// colour's summed reward, with the tree.
    fn into_stats(self) -> (TreeStats, Vec<Node>) {
        let root = self.nodes[0];
        let stats = (root.first_child..root.first_child + root.children)
            .map(|i| {
                let c = &self.nodes[i as usize];
                (c.mv, c.visits, c.reward)
            })
            .collect();
        ((stats, self.sims, self.sums), self.nodes)
    }
}

/// The node reached from the root by `moves`, if the tree holds them all.
fn descend(tree: &[Node], moves: &[Move]) -> Option<usize> {
    let mut node = 0usize;
    for &m in moves {
        let n = tree.get(node)?;
        if !n.expanded {
            return None;
        }
        node = (n.first_child..n.first_child + n.children).find(|&i| tree[i as usize].mv == m)? as usize;
    }
    Some(node)
}

/// The subtree under `root` as a tree of its own (root at index 0), children still
/// contiguous and in the same order.
fn subtree(tree: &[Node], root: usize) -> Vec<Node> {
    let mut out = vec![tree[root]];
    // Breadth first: each copied node's children are appended together.
    let mut i = 0;
    while i < out.len() {
        let n = out[i];
        if n.expanded {
            let first = out.len() as u32;
            out.extend_from_slice(&tree[n.first_child as usize..(n.first_child + n.children) as usize]);
            out[i].first_child = first;
        }
        i += 1;
    }
    out
}

/// The tests' check of the selection: while on (in this thread), every selection is also
/// made by looking at every child, and the two must agree.
#[cfg(test)]
mod oracle {
    use std::cell::Cell;

    thread_local! {
        static ON: Cell<bool> = const { Cell::new(false) };
    }

    pub(super) fn on() -> bool {
        ON.with(Cell::get)
    }

    pub(super) fn set(on: bool) {
        ON.with(|c| c.set(on));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_game as game;
    use rumis_core::Variant;

    /// The choice gives way to a placement that leaves room when the most visited one walls
    /// the mover in, if it has half the visits; late in the game, or with the guard off, the
    /// most visited stands.
    #[test]
    fn the_choice_keeps_out_of_walls() {
        let mut g = game("coricancha", 4, Variant::Standard);
        for m in ["I4@g8,h8,i8,j8", "L4@i5,j5,j6,j7", "O4@i3,i4,j3,j4"] {
            g.play_text(m).unwrap();
        }
        let (site, pos) = (g.site(), g.position());
        let blue = g.to_move().unwrap();
        let parse = |t: &str| rumis_core::notation::parse_move(site, pos, t).unwrap();
        let (corner, standing) = (parse("O4@i1,i2,j1,j2"), parse("A4@h1,i1,i2x2"));
        let moves = |second: u32| vec![(corner, 100, 0.62), (standing, second, 0.64)];
        assert_eq!(guarded_choice(site, pos, blue, &moves(60), 6), 1);
        assert_eq!(guarded_choice(site, pos, blue, &moves(50), 6), 1);
        assert_eq!(guarded_choice(site, pos, blue, &moves(49), 6), 0, "too few visits");
        assert_eq!(guarded_choice(site, pos, blue, &moves(60), 0), 0, "the guard off");
        assert_eq!(guarded_choice(site, pos, blue, &moves(60), 7), 0, "none leaves seven");
        let reversed = vec![(standing, 100, 0.64), (corner, 90, 0.62)];
        assert_eq!(guarded_choice(site, pos, blue, &reversed, 6), 0);
    }

    /// The selection that stops at the first unvisited child chooses as the one looking at
    /// every child: checked at every selection of searches along random games (the kept
    /// trees reused from move to move) on boards of two, three and four players, with the
    /// hand-made priors (two-player games re-evaluate priors in place at nodes visited
    /// often: those look at every child) and the learned ones.
    #[test]
    fn the_selection_stops_early_yet_chooses_the_same() {
        oracle::set(true);
        for (board, players, learned) in [
            ("chullpa", 2, false),
            ("tambo", 2, true),
            ("pisac", 3, false),
            ("coricancha", 4, false),
            ("chullpa", 4, true),
        ] {
            let mut p = Mcts::new(MctsConfig {
                simulations: Some(300),
                endgame_stones: 0,
                priors: if learned {
                    PriorSource::Learned(Arc::new(PriorModel::builtin().clone()))
                } else {
                    PriorSource::Scenario
                },
                seed: 7,
                ..MctsConfig::default()
            });
            let mut g = game(board, players, Variant::Standard);
            while let Some(m) = p.choose(&g) {
                g.play(m).unwrap();
            }
            assert!(p.games_seen > 10, "{board} {players}");
        }
        oracle::set(false);
    }

    /// A raised stop flag ends a search after its first simulation, whatever its budget; a
    /// search that shares no flag with it runs its budget.
    #[test]
    fn a_raised_stop_flag_cuts_the_search_short() {
        let g = game("chullpa", 2, Variant::Standard);
        let stop = Stop::default();
        stop.raise();
        let config = MctsConfig {
            simulations: Some(100_000),
            endgame_stones: 0,
            reuse: false,
            stop: stop.clone(),
            ..MctsConfig::default()
        };
        let r = Mcts::new(config.clone()).search(&g).unwrap();
        assert_eq!(r.simulations, 1);
        let r = Mcts::new(MctsConfig {
            simulations: Some(100),
            stop: Stop::default(),
            ..config
        })
        .search(&g)
        .unwrap();
        assert_eq!(r.simulations, 100);
    }

    /// `others_prior_weight` weighs the priors at the other sides' nodes alone: of two
    /// children, one with the better prior and a poor mean, the other the reverse, the
    /// selection takes the better mean at the searching side's node and, with a large
    /// weight, the better prior at another side's.
    #[test]
    fn the_others_priors_weigh_at_their_nodes_only() {
        let g = game("pisac", 3, Variant::Standard);
        let site = g.site();
        let own = g.position().to_move(site).unwrap();
        let other = *site.order().iter().find(|&&c| c != own).unwrap();
        let moves = g.legal_moves();
        let pick = |weight: f32, mover: Colour| {
            let cfg = MctsConfig {
                others_prior_weight: weight,
                ..MctsConfig::default()
            };
            let mut root = Node::new(moves[0], 0);
            root.visits = 200;
            root.expanded = true;
            root.first_child = 1;
            root.children = 2;
            let child = |m: Move, prior: f32, reward: f32| {
                let mut c = Node {
                    prior,
                    reward,
                    visits: 100,
                    ..Node::new(m, mover.index() as u8)
                };
                c.refresh(cfg.prior_visits);
                c
            };
            let nodes = vec![root, child(moves[1], 1.0, 10.0), child(moves[2], 0.2, 90.0)];
            let mut tree = TreeSearch::new(site, &cfg, 1, nodes);
            tree.own = Some(own);
            tree.best_child(0)
        };
        // Prior 1.0, mean 0.1 (child 1) against prior 0.2, mean 0.9 (child 2), 10 prior
        // visits: (10 + 10) / 110 against (90 + 2) / 110 as it stands.
        assert_eq!(pick(1.0, own), 2);
        assert_eq!(pick(1.0, other), 2);
        assert_eq!(pick(100.0, own), 2);
        // 1 000 prior visits at the other's node: (10 + 1000) / 1100 against (90 + 200) / 1100.
        assert_eq!(pick(100.0, other), 1);
    }

    /// ...and only in games of at least `others_model_from` colours.
    #[test]
    fn the_others_model_holds_from_its_player_count() {
        let g = game("pisac", 3, Variant::Standard);
        let site = g.site();
        let own = g.position().to_move(site).unwrap();
        for (from, weight) in [(0, 100.0), (3, 100.0), (4, 1.0)] {
            let cfg = MctsConfig {
                others_prior_weight: 100.0,
                room_estimate: RoomEstimateAt::Others,
                others_model_from: from,
                ..MctsConfig::default()
            };
            let mut tree = TreeSearch::new(site, &cfg, 1, vec![Node::new(g.legal_moves()[0], 0)]);
            tree.own = Some(own);
            let at = if weight == 1.0 {
                RoomEstimateAt::Nowhere
            } else {
                RoomEstimateAt::Others
            };
            assert_eq!(
                (tree.others_prior_weight, tree.room_estimate),
                (weight, at),
                "from {from}"
            );
        }
    }

    /// Where the settings say, a node's children get their priors from the estimated room,
    /// counted best estimate first until the best count reaches the next estimate (or the
    /// cap), the rest moved by the counts' mean difference; elsewhere from the columns
    /// covered. Counted so, the best prior is the greedy evaluation's best, found with a
    /// few counts.
    #[test]
    fn the_room_is_estimated_where_the_settings_say() {
        for (board, players, seed) in [("coricancha", 4, 8), ("chullpa", 3, 9), ("tambo", 3, 10)] {
            let mut g = game(board, players, Variant::Standard);
            let mut rng = Rng::new(seed);
            for _ in 0..6 {
                let moves = g.legal_moves();
                g.play(moves[rng.below(moves.len())]).unwrap();
            }
            let site = g.site().clone();
            let pos = g.position().clone();
            let mover = pos.to_move(&site).unwrap();
            let other = *site.order().iter().find(|&&c| c != mover).unwrap();
            let moves = g.legal_moves();
            let w = Weights::default();
            let mut room = eval::RoomEstimate::default();
            room.prepare(&site, &pos, mover);
            let estimated: Vec<f32> = moves
                .iter()
                .map(|&m| eval::estimated(&w, &site, &pos, m, mover, &room))
                .collect();
            let greedy: Vec<f32> = moves.iter().map(|&m| eval::evaluate(&site, &pos, m)).collect();
            let quick: Vec<f32> = moves.iter().map(|&m| eval::quick(&w, &site, &pos, m, mover)).collect();
            for (i, (&e, &c)) in estimated.iter().zip(&greedy).enumerate() {
                assert!(
                    e >= c - 1e-4,
                    "{board}: {} estimated {e} below {c}",
                    g.notation(moves[i])
                );
            }
            for most in [64, 2] {
                // The oracle: best estimate first (ties in the order of the moves).
                let mut order: Vec<usize> = (0..moves.len()).collect();
                order.sort_by(|&a, &b| estimated[b].total_cmp(&estimated[a]));
                let (mut best, mut counted) = (f32::MIN, 0);
                for &i in &order {
                    if counted == most || estimated[i] <= best {
                        break;
                    }
                    best = best.max(greedy[i]);
                    counted += 1;
                }
                let shift = order[..counted].iter().map(|&i| greedy[i] - estimated[i]).sum::<f32>() / counted as f32;
                let mut with_counts: Vec<f32> = estimated.iter().map(|e| (e + shift).min(best - 1e-3)).collect();
                for &i in &order[..counted] {
                    with_counts[i] = greedy[i];
                }
                if most == 64 {
                    assert!(counted < 64, "{board}: {counted} counted");
                    let top = greedy.iter().copied().fold(f32::MIN, f32::max);
                    assert_eq!(best, top, "{board}: the counts did not reach the greedy choice");
                }
                // (Where the search models the mover: `modelled`, which the watch of the
                // game sets; the searching side's own nodes follow the settings alone.)
                for (at, own, modelled, want) in [
                    (RoomEstimateAt::Others, other, true, &with_counts),
                    (RoomEstimateAt::Others, other, false, &quick),
                    (RoomEstimateAt::Others, mover, true, &quick),
                    (RoomEstimateAt::Everywhere, mover, true, &with_counts),
                    (RoomEstimateAt::Everywhere, mover, false, &with_counts),
                    (RoomEstimateAt::Everywhere, other, false, &quick),
                    (RoomEstimateAt::Nowhere, other, true, &quick),
                ] {
                    let cfg = MctsConfig {
                        room_estimate: at,
                        room_counted_best: most,
                        room_in_priors: Some(false),
                        ..MctsConfig::default()
                    };
                    let mut tree = TreeSearch::new(&site, &cfg, 1, vec![Node::new(moves[0], 0)]);
                    tree.own = Some(own);
                    tree.modelled[mover.index()] = modelled;
                    tree.path = vec![0, 0];
                    tree.expand(0, &pos, mover);
                    let top = want.iter().copied().fold(f32::MIN, f32::max);
                    let children = &tree.nodes[1..];
                    assert_eq!(children.len(), moves.len());
                    for c in children {
                        let i = moves.iter().position(|&m| m == c.mv).unwrap();
                        let prior = ((want[i] - top) / cfg.prior_temperature).exp();
                        assert!(
                            (c.prior - prior).abs() < 1e-4,
                            "{board} {at:?} {modelled} {most}: {} {} against {prior}",
                            g.notation(c.mv),
                            c.prior
                        );
                    }
                }
            }
        }
    }

    /// The watch of the game: a colour is modelled as a greedy player while nine in ten of
    /// its moves (one counted before any) were the greedy evaluation's choice; the
    /// searching colour's own moves are not looked at; another game starts afresh.
    #[test]
    fn the_others_are_modelled_while_they_play_greedily() {
        let mut g = game("tambo", 3, Variant::Standard);
        let site = g.site_arc().clone();
        let order = site.order().to_vec();
        let (own, greedy, other) = (order[0], order[1], order[2]);
        let mut watch = Watch::default();
        assert_eq!(watch.modelled(), [true; 4], "before any move");
        // `other` plays the greedy evaluation's worst placement once, then greedily.
        let mut missed = false;
        for ply in 0..12 {
            let Some(mover) = g.to_move() else { break };
            let moves = g.legal_moves();
            let values: Vec<f32> = moves.iter().map(|&m| eval::evaluate(&site, g.position(), m)).collect();
            let by = |better: bool| {
                let i = (0..moves.len())
                    .reduce(|a, b| if (values[b] > values[a]) == better { b } else { a })
                    .unwrap();
                moves[i]
            };
            let worst_differs = values.iter().copied().fold(f32::MAX, f32::min)
                < values.iter().copied().fold(f32::MIN, f32::max) - 1e-3;
            let m = if mover == own {
                // The searching colour's moves do not count, even far from greedy ones.
                by(false)
            } else if mover == other && !missed && worst_differs {
                missed = true;
                by(false)
            } else {
                by(true)
            };
            g.play(m).unwrap();
            if ply % 4 == 3 {
                // Looked at a few moves at a time, as a search does between its moves.
                watch.update(&g, own);
            }
        }
        watch.update(&g, own);
        assert!(missed, "the test's colour never had a worse placement");
        let k = |c: Colour| c.index();
        assert_eq!(watch.seen[k(own)], 0);
        assert_eq!(watch.greedy[k(greedy)], watch.seen[k(greedy)]);
        assert_eq!(watch.greedy[k(other)] + 1, watch.seen[k(other)]);
        let modelled = watch.modelled();
        assert!(modelled[k(greedy)] && !modelled[k(other)], "{watch:?}");
        // Another game: the count starts afresh.
        let fresh = game("tambo", 3, Variant::Standard);
        watch.update(&fresh, own);
        assert_eq!((watch.seen, watch.modelled()), ([0; 4], [true; 4]));
    }

    /// A learned model is used: weights that want the biggest stone, or the smallest, make
    /// the search's most visited first move one of those; where the scenario's settings
    /// name no player count (today every board, a user's too) the search keeps the
    /// hand-made priors.
    #[test]
    fn learned_priors_steer_the_search() {
        let g = game("chullpa", 2, Variant::Standard);
        for (weight, want) in [(40.0, 4), (-40.0, 2)] {
            let mut w = [0.0; priors::FEATURES];
            w[6] = weight;
            let model = Arc::new(PriorModel { full: w, quick: w });
            let mut p = Mcts::new(MctsConfig {
                simulations: Some(60),
                priors: PriorSource::Learned(model),
                seed: 3,
                ..MctsConfig::default()
            });
            let r = p.search(&g).unwrap();
            assert_eq!(g.site().template(r.best).stone.size(), want, "{}", g.notation(r.best));
        }
        // Where the scenario leaves the room out (Coricancha) the quick weights rule at the
        // root too: full weights that want big stones, quick ones that want dominoes.
        let coricancha = game("coricancha", 4, Variant::Standard);
        let (mut full, mut quick) = ([0.0; priors::FEATURES], [0.0; priors::FEATURES]);
        full[6] = 40.0;
        quick[6] = -40.0;
        let model = Arc::new(PriorModel { full, quick });
        for (g, want) in [(&coricancha, 2), (&g, 4)] {
            let mut p = Mcts::new(MctsConfig {
                simulations: Some(60),
                priors: PriorSource::Learned(model.clone()),
                seed: 3,
                ..MctsConfig::default()
            });
            let r = p.search(g).unwrap();
            assert_eq!(g.site().template(r.best).stone.size(), want, "{}", g.notation(r.best));
        }
        // The scenarios' learned priors: Coricancha with 3 and 4 players has its own model,
        // which level 9's search takes and levels 4-8 do not; with 2 players the general
        // 2-player model, as on Chullpa with 2; in the two-player four-colour game on
        // Chullpa alone.
        assert_eq!(
            PriorSource::Scenario.model(coricancha.site()).as_deref(),
            priors::scenario_model("Coricancha")
        );
        assert!(priors::scenario_model("Coricancha").is_some());
        assert_ne!(priors::general_model(2), PriorModel::builtin());
        assert_eq!(
            PriorSource::Scenario.model(g.site()).as_deref(),
            Some(priors::general_model(2))
        );
        for level in 4..=9 {
            let cfg = crate::level_config(level);
            let tree = TreeSearch::new(coricancha.site(), &cfg, 1, Vec::new());
            let learned = tree.learned.as_ref().map(|(m, _)| &**m);
            let want = (level == 9).then(|| priors::scenario_model("coricancha").unwrap());
            assert_eq!(learned, want, "level {level}");
        }
        let coricancha3 = game("coricancha", 3, Variant::Standard);
        assert_eq!(
            PriorSource::Scenario.model(coricancha3.site()).as_deref(),
            priors::scenario_model("Coricancha")
        );
        let coricancha2 = game("coricancha", 2, Variant::Standard);
        assert_eq!(
            PriorSource::Scenario.model(coricancha2.site()).as_deref(),
            Some(priors::general_model(2))
        );
        assert!(PriorSource::Scenario
            .model(game("coricancha", 2, Variant::TwoPlayerFourColors).site())
            .is_none());
        // The other built-in boards: the general model of the player count with 3 and 4
        // players, for level 9 alone; with 2 on Chullpa alone.
        let chullpa4 = game("chullpa", 4, Variant::Standard);
        assert_eq!(
            PriorSource::Scenario.model(chullpa4.site()).as_deref(),
            Some(priors::general_model(4))
        );
        for level in 4..=9 {
            let cfg = crate::level_config(level);
            let tree = TreeSearch::new(chullpa4.site(), &cfg, 1, Vec::new());
            let learned = tree.learned.as_ref().map(|(m, _)| &**m);
            assert_eq!(learned, (level == 9).then(|| priors::general_model(4)), "level {level}");
        }
        assert_eq!(
            PriorSource::Scenario
                .model(game("chullpa", 3, Variant::Standard).site())
                .as_deref(),
            Some(priors::general_model(3))
        );
        assert_eq!(
            PriorSource::Scenario
                .model(game("chullpa", 2, Variant::TwoPlayerFourColors).site())
                .as_deref(),
            Some(priors::general_model(2))
        );
        assert!(PriorSource::Scenario
            .model(game("pirka", 2, Variant::Standard).site())
            .is_none());
        // A user's board: the general model of the player count with 3 and 4 players, for
        // level 9 alone (with 3 the one learned from 3-player games); none with 2.
        let text = "name = \"My own\"\nprovenance = \"reconstruction\"\n\
                    hmax = { 2 = 3, 3 = 3, 4 = 3 }\ngrid = \"\"\"\n######\n######\n######\n######\n\"\"\"\n";
        let own = rumis_core::Board::from_toml("own.toml", text).unwrap();
        assert_ne!(priors::general_model(3), PriorModel::builtin());
        for (players, want) in [
            (4, Some(priors::general_model(4))),
            (3, Some(priors::general_model(3))),
            (2, None),
        ] {
            let site = Site::new(own.clone(), players, Variant::Standard, None).unwrap();
            assert_eq!(PriorSource::Scenario.model(&site).as_deref(), want, "{players} players");
            for level in 4..=9 {
                let cfg = crate::level_config(level);
                let tree = TreeSearch::new(&site, &cfg, 1, Vec::new());
                let learned = tree.learned.as_ref().map(|(m, _)| &**m);
                assert_eq!(learned, want.filter(|_| level == 9), "level {level}, {players} players");
            }
        }
        assert!(PriorSource::Hand.model(coricancha.site()).is_none());
        let model = Arc::new(PriorModel::builtin().clone());
        assert_eq!(
            PriorSource::Learned(model).model(g.site()).as_deref(),
            Some(PriorModel::builtin())
        );
    }

    /// Where the learned priors stand: everywhere, or (`learned_own_only`) at the searching
    /// side's nodes, and with `learned_for_searchers` also at the nodes of the colours the
    /// search does not model as greedy players (with two colours: none; the two-player
    /// four-colour game models colours as the game of four does).
    #[test]
    fn the_learned_priors_stand_where_the_settings_say() {
        let model = Arc::new(PriorModel::builtin().clone());
        for (players, variant) in [
            (2, Variant::Standard),
            (3, Variant::Standard),
            (2, Variant::TwoPlayerFourColors),
        ] {
            let g = game("tambo", players, variant);
            let site = g.site_arc().clone();
            let order = site.order().to_vec();
            let colours = order.len();
            let (own, greedy, searcher) = (order[0], order[1], *order.last().unwrap());
            let base = MctsConfig {
                priors: PriorSource::Learned(model.clone()),
                ..MctsConfig::default()
            }
            .with_others_modelled();
            for (own_only, searchers, want) in [
                (false, false, [true, true, true]),
                (true, false, [true, false, false]),
                (true, true, [true, colours < 3, true]),
            ] {
                let cfg = MctsConfig {
                    learned_own_only: own_only,
                    learned_for_searchers: searchers,
                    ..base.clone()
                };
                assert_eq!(cfg.models_others(&site), colours >= 3, "{players} players, {variant:?}");
                let mut tree = TreeSearch::new(&site, &cfg, 1, Vec::new());
                tree.own = Some(own);
                tree.modelled = [true; 4];
                tree.modelled[searcher.index()] = false;
                let got = [own, greedy, searcher].map(|c| tree.learned_for(c));
                assert_eq!(got, want, "{players} players, {variant:?}, {own_only} {searchers}");
            }
        }
    }

    /// Two-player games (two sides, also with four colours) search the two-player budget
    /// when there is one; games of three or four players the other.
    #[test]
    fn two_player_games_have_their_own_budget() {
        for (board, players, variant, want) in [
            ("chullpa", 2, Variant::Standard, 120),
            ("chullpa", 2, Variant::TwoPlayerFourColors, 120),
            ("pisac", 3, Variant::Standard, 70),
            ("coricancha", 4, Variant::Standard, 70),
        ] {
            let g = game(board, players, variant);
            for threads in [1, 2] {
                let mut p = Mcts::new(MctsConfig {
                    simulations: Some(70),
                    two_player_simulations: Some(120),
                    threads,
                    ..MctsConfig::default()
                });
                assert_eq!(p.search(&g).unwrap().simulations, want, "{board} {players} {variant}");
            }
        }
    }

    /// Positions along a random game of each setup, with the game so far.
    fn positions_along(board: &str, players: usize, seed: u64) -> Vec<Game> {
        let mut g = game(board, players, Variant::Standard);
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        while !g.is_over() {
            out.push(g.clone());
            let moves = g.legal_moves();
            g.play(moves[rng.below(moves.len())]).unwrap();
        }
        out
    }

    /// With priors, a search of one simulation visits the child with the best prior, which
    /// at the root is the greedy evaluation's best move (on Coricancha, whose settings
    /// leave the room out of the priors, the best by the columns covered).
    #[test]
    fn one_simulation_plays_the_greedy_move() {
        for (board, players) in [("chullpa", 2), ("coricancha", 4), ("tambo", 2)] {
            for g in positions_along(board, players, 3).iter().step_by(3) {
                let mut p = Mcts::new(MctsConfig {
                    simulations: Some(1),
                    endgame_stones: 0,
                    ..MctsConfig::default()
                });
                let chosen = p.choose(g).unwrap();
                let me = g.position().to_move(g.site()).unwrap();
                let value = |m| match board {
                    "coricancha" => eval::quick(&eval::Weights::default(), g.site(), g.position(), m, me),
                    _ => eval::evaluate(g.site(), g.position(), m),
                };
                let best = g.legal_moves().into_iter().map(value).fold(f32::MIN, f32::max);
                assert_eq!(value(chosen), best, "{board}: {}", g.notation(chosen));
            }
        }
    }

    /// Children's priors come from the greedy evaluation at the root and, in a two-player
    /// game, at every node visited more than `full_prior_after` times; elsewhere, and on
    /// Coricancha everywhere (its scenario settings), from the columns covered.
    #[test]
    fn full_priors_where_the_search_goes_back_often() {
        for (board, players) in [
            ("tambo", 2),
            ("chullpa", 2),
            ("pisac", 3),
            ("coricancha", 4),
            ("coricancha", 2),
        ] {
            let room = board != "coricancha";
            let games = positions_along(board, players, 5);
            let (mut full, mut quick) = (0, 0);
            for g in [&games[0], &games[games.len() / 3], &games[games.len() / 2]] {
                let cfg = MctsConfig {
                    simulations: Some(2_000),
                    endgame_stones: 0,
                    ..MctsConfig::default()
                };
                let after = cfg.full_prior_after;
                let mut p = Mcts::new(cfg);
                p.search(g).unwrap();
                let tree = &p.kept.as_ref().unwrap().trees[0];
                let site = g.site();
                // Every expanded node with its position.
                let mut stack = vec![(0usize, g.position().clone())];
                while let Some((i, pos)) = stack.pop() {
                    let n = tree[i];
                    if !n.expanded || n.children == 0 {
                        continue;
                    }
                    let me = pos.to_move(site).unwrap();
                    let children = &tree[n.first_child as usize..(n.first_child + n.children) as usize];
                    let is_full = room && (i == 0 || (players == 2 && n.visits > after));
                    let value = |m| {
                        if is_full {
                            eval::evaluate(site, &pos, m)
                        } else {
                            eval::quick(&eval::Weights::default(), site, &pos, m, me)
                        }
                    };
                    let top = children.iter().map(|c| value(c.mv)).fold(f32::MIN, f32::max);
                    for c in children {
                        let want = ((value(c.mv) - top) / 2.0).exp();
                        assert!(
                            (c.prior - want).abs() < 1e-4,
                            "{board}: node {i} visits {} full {is_full}: prior {} want {want}",
                            n.visits,
                            c.prior
                        );
                    }
                    if i != 0 {
                        *(if is_full { &mut full } else { &mut quick }) += 1;
                    }
                    for (k, c) in children.iter().enumerate() {
                        let mut next = pos.clone();
                        next.play_unchecked(site, c.mv);
                        stack.push((n.first_child as usize + k, next));
                    }
                }
            }
            // Both kinds occur below the root in two-player games, only quick ones beyond
            // and on Coricancha.
            assert!(quick > 0, "{board}");
            assert_eq!(full > 0, players == 2 && room, "{board}: {full} nodes with full priors");
        }
    }

    /// Informed playouts play, of the placements the policy draws, the one the learned
    /// model scores best: with a model that only likes stones lying over many columns, the
    /// playouts' stones cover more columns than the policy's alone; without learned priors
    /// the setting changes nothing.
    #[test]
    fn informed_playouts_follow_the_learned_model() {
        let games = positions_along("coricancha", 4, 6);
        let site = games[0].site().clone();
        let mut weights = [0.0f32; priors::FEATURES];
        weights[8] = 50.0; // columns
        let model = Arc::new(PriorModel {
            full: weights,
            quick: weights,
        });
        let mean_columns = |priors: PriorSource, informed_plies: usize| {
            let cfg = MctsConfig {
                priors,
                informed_plies,
                playout_candidates: 4,
                ..MctsConfig::default()
            };
            let mut tree = TreeSearch::new(&site, &cfg, 5, Vec::new());
            let (mut sum, mut n) = (0usize, 0usize);
            for g in games.iter().step_by(4) {
                for _ in 0..20 {
                    let mut pos = g.position().clone();
                    tree.played.clear();
                    tree.playout(&mut pos);
                    assert!(pos.is_over());
                    sum += tree
                        .played
                        .iter()
                        .map(|&(_, m)| site.template(m).len as usize)
                        .sum::<usize>();
                    n += tree.played.len();
                }
            }
            assert!(n > 0);
            sum as f64 / n as f64
        };
        let learned = || PriorSource::Learned(model.clone());
        let (policy, informed) = (mean_columns(learned(), 0), mean_columns(learned(), usize::MAX));
        assert!(
            informed > policy + 0.15,
            "informed {informed:.2}, the policy's {policy:.2}"
        );
        assert_eq!(
            mean_columns(PriorSource::Hand, usize::MAX),
            mean_columns(PriorSource::Hand, 0)
        );
    }

    /// Answering playouts cover a column of the last move at least half the time when they
    /// can; the plain policy much less often; both pick only legal placements.
    #[test]
    fn playouts_answer_the_last_move() {
        for (board, players) in [("chullpa", 2), ("coricancha", 4)] {
            let games = positions_along(board, players, 8);
            let site = games[0].site().clone();
            let mut set = rumis_core::MoveSet::new();
            let mut rng = Rng::new(4);
            let (mut answering, mut plain, mut picks) = (0, 0, 0);
            for g in games.iter().skip(2) {
                let last = *g.moves().last().unwrap();
                let t = site.template(last);
                let covers = |m: Move| {
                    let u = site.template(m);
                    u.columns[..u.len as usize]
                        .iter()
                        .any(|c| t.columns[..t.len as usize].contains(c))
                };
                let n = g.position().legal_set(&site, &mut set);
                if !g.legal_moves().into_iter().any(covers) {
                    continue;
                }
                for (answer, count) in [(true, &mut answering), (false, &mut plain)] {
                    let mut policy = PlayoutPolicy::new(&site, true, answer);
                    for _ in 0..200 {
                        let m = policy.pick(&site, &set, n, Some(last), &mut rng);
                        assert!(set.contains(site.gen_tables(), m));
                        *count += covers(m) as u32;
                    }
                }
                picks += 200;
            }
            assert!(picks > 0);
            let (a, p) = (answering as f64 / picks as f64, plain as f64 / picks as f64);
            assert!(a >= 0.5 && a > p + 0.2, "{board}: answering {a:.2}, plain {p:.2}");
        }
    }

    #[test]
    fn same_seed_one_thread_same_game() {
        let play = || {
            let mut g = game("chullpa", 2, Variant::Standard);
            let mut p = Mcts::new(MctsConfig {
                simulations: Some(200),
                seed: 11,
                ..MctsConfig::default()
            });
            while let Some(m) = p.choose(&g) {
                g.play(m).unwrap();
            }
            g.moves().to_vec()
        };
        assert_eq!(play(), play());
    }

    #[test]
    fn the_tree_is_kept_below_the_moves_played() {
        let mut g = game("chullpa", 2, Variant::Standard);
        let mut p = Mcts::new(MctsConfig {
            simulations: Some(2_000),
            seed: 5,
            ..MctsConfig::default()
        });
        let r = p.search(&g).unwrap();
        g.play(r.best).unwrap();
        // The reply the tree explored most below the best move.
        let old = p.kept.as_ref().unwrap().trees[0].clone();
        let best = descend(&old, &[r.best]).unwrap();
        let n = old[best];
        assert!(n.expanded);
        let reply = (n.first_child..n.first_child + n.children)
            .max_by_key(|&i| old[i as usize].visits)
            .map(|i| old[i as usize])
            .unwrap();
        g.play(reply.mv).unwrap();
        let (trees, reused) = p.trees_for(&g, 1);
        assert_eq!(reused, reply.visits as u64);
        assert!(reused > 0);
        // The re-rooted tree is whole: every child range lies inside it, and the visits of
        // the root's children add up to at most the root's.
        let t = &trees[0];
        for node in t {
            if node.expanded {
                assert!((node.first_child + node.children) as usize <= t.len());
                assert!(node.first_child > 0);
            }
        }
        if t[0].expanded {
            let sum: u32 = (t[0].first_child..t[0].first_child + t[0].children)
                .map(|i| t[i as usize].visits)
                .sum();
            assert!(sum <= t[0].visits);
        }
        // A search from there starts with what the tree knew, and its best move is legal.
        let r2 = p.search(&g).unwrap();
        assert!(g.legal_moves().contains(&r2.best));
        // Another game: nothing is kept for it.
        let other = game("chullpa", 2, Variant::Standard);
        let mut q = Mcts::new(MctsConfig {
            simulations: Some(300),
            ..MctsConfig::default()
        });
        q.search(&g).unwrap();
        let (_, reused) = q.trees_for(&other, 1);
        assert_eq!(reused, 0);
    }
}
