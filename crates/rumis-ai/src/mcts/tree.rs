//! One tree's search ([`TreeSearch`], run by [`run_tree`]): its nodes, a simulation's
//! selection, playout and back-up, and the root statistics. Expansion is in `expand.rs`,
//! the playout policy in `playout.rs`.

use std::sync::Arc;
use std::time::Instant;

use rumis_core::{Colour, Move, Position, Rng, Site};

use super::config::{MctsConfig, RoomEstimateAt};
#[cfg(test)]
use super::oracle;
use super::playout::{PlayoutPolicy, PlyDraws};
use crate::eval::{self, Weights};
use crate::priors::{self, PriorModel, SiteShape};
use crate::reward::rewards;

/// A tree's root children as (move, visits, summed reward), its simulations, and the summed
/// reward of each colour over them.
pub(super) type TreeStats = (Vec<(Move, u32, f32)>, u64, [f32; 4]);

#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) mv: Move,
    /// Colour index of the colour that made `mv`.
    pub(super) mover: u8,
    pub(super) expanded: bool,
    /// Its children's priors come from the full greedy evaluation.
    pub(super) full_priors: bool,
    /// Its children stand in the order of their priors, best first, as `expand` made them
    /// (false once `full_priors` re-evaluated them in place): the selection may then stop
    /// at the first child not yet visited ([`TreeSearch::best_child`]).
    pub(super) in_prior_order: bool,
    pub(super) visits: u32,
    pub(super) reward: f32,
    /// All-moves-as-first: simulations through the parent in which the parent's mover
    /// played this move at some later point, and their summed reward.
    pub(super) amaf_visits: u32,
    pub(super) amaf_reward: f32,
    /// The prior mean reward (see `MctsConfig::prior_visits`).
    pub(super) prior: f32,
    /// `(reward + pv · prior) / (visits + pv)` with `pv` = `MctsConfig::prior_visits`:
    /// the selection's value without its exploration term, kept up to date wherever the
    /// three change ([`Node::refresh`]) so that the selection, which looks at every visited
    /// child of every node on its way, does one division a child instead of two.
    pub(super) mean: f32,
    pub(super) first_child: u32,
    pub(super) children: u32,
}

impl Node {
    /// A node not yet visited for `mv`, made by the colour of index `mover`.
    pub(super) fn new(mv: Move, mover: u8) -> Node {
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
    pub(super) fn refresh(&mut self, pv: f32) {
        self.mean = (self.reward + pv * self.prior) / (self.visits as f32 + pv);
    }
}

/// One tree: returns the root children's (move, visits, summed reward), the simulations
/// run and each colour's summed reward, with the tree (to keep for the next move).
#[allow(clippy::too_many_arguments)]
pub(super) fn run_tree(
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
        // In pairs while two simulations are left of the budget (so a budget is spent
        // exactly, and the count stays even for the deadline's look every 32).
        if tree.pair.is_some() && budget.is_none_or(|b| b.saturating_sub(tree.sims) >= 2) {
            tree.simulate_pair(root);
        } else {
            tree.simulate(root);
        }
    }
    tree.into_stats()
}

/// The second simulation of a pair (`MctsConfig::paired_playouts`), and the two games the
/// pair plays out in lockstep: its path, moves and tree plies while the first one's are in
/// the tree's own fields ([`TreeSearch::swap_lane`]), and both games' positions and sets
/// (side by side, as `rumis_core::play_generate_many` takes them).
pub(super) struct Pair {
    pos: [Position; 2],
    sets: [rumis_core::MoveSet; 2],
    path: Vec<u32>,
    played: Vec<(u8, Move)>,
    tree_plies: usize,
}

/// One tree's search, and the buffers its simulations reuse. A simulation descends from
/// the root by the children's values, expanding the nodes it passes that have been visited
/// often enough ([`TreeSearch::select_and_expand`]), plays the game out by the playout
/// policy ([`TreeSearch::playout`]) and adds the rewards to every node on its path
/// ([`TreeSearch::back_up`]).
pub(super) struct TreeSearch<'a> {
    pub(super) site: &'a Site,
    pub(super) cfg: &'a MctsConfig,
    pub(super) nodes: Vec<Node>,
    pub(super) rng: Rng,
    pub(super) sims: u64,
    /// The simulation's moves in order, as (colour index, move): the tree's, then the
    /// playout's.
    pub(super) played: Vec<(u8, Move)>,
    /// How many of `played` were made in the tree.
    pub(super) tree_plies: usize,
    /// The nodes from the root to where the simulation left the tree.
    pub(super) path: Vec<u32>,
    /// Per colour, the moves it played from the ply being credited on (RAVE).
    pub(super) seen: Vec<Vec<u64>>,
    /// Each colour's summed reward over the simulations.
    pub(super) sums: [f32; 4],
    pub(super) policy: PlayoutPolicy,
    pub(super) code_path: rumis_core::CodePath,
    pub(super) set: rumis_core::MoveSet,
    pub(super) moves: Vec<Move>,
    pub(super) priors: Vec<(f32, Move)>,
    pub(super) weights: Weights,
    pub(super) room: eval::RoomEstimate,
    /// Where the room is estimated and how much the others' priors weigh: the settings', or
    /// nowhere and 1 in games with fewer colours than `others_model_from`.
    pub(super) room_estimate: RoomEstimateAt,
    pub(super) others_prior_weight: f32,
    /// Nodes this close to the root get their children's priors from the greedy evaluation
    /// (0: none, when the room is left out of the priors).
    pub(super) full_prior_depth: usize,
    /// Playout plies informed by the learned model (0 without one).
    pub(super) informed_plies: usize,
    /// Deeper nodes get them once visited `full_prior_after` times (two-player games).
    pub(super) late_full_priors: bool,
    /// The learned model and what its features need of the site, when the priors are learned.
    pub(super) learned: Option<(Arc<PriorModel>, SiteShape)>,
    /// The learned model's quick weights' score, for the priors below the root and the
    /// informed playouts (`informed_plies`).
    pub(super) scorer: Option<priors::QuickScorer>,
    /// What the scorer reads of the position it scores on ([`priors::QuickScorer::look`]).
    pub(super) score_view: priors::ScoreView,
    /// The searching colour (with `learned_own_only`, its side's nodes alone get the
    /// learned priors).
    pub(super) own: Option<rumis_core::Colour>,
    /// The other colours the model of the others stands for (`Watch`): at the others'
    /// nodes the room estimate and `others_prior_weight` apply to these alone.
    pub(super) modelled: [bool; 4],
    /// Where simulations run in pairs: the second one's lane (`None`: one at a time).
    pub(super) pair: Option<Box<Pair>>,
}

impl TreeSearch<'_> {
    /// Whether a node where `mover` moves gets the learned priors.
    pub(super) fn learned_for(&self, mover: rumis_core::Colour) -> bool {
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
    pub(super) fn own_side(&self, mover: Colour) -> bool {
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
    pub(super) fn simulate(&mut self, root: &Position) {
        self.sims += 1;
        let mut pos = root.clone();
        self.select_and_expand(&mut pos);
        self.playout(&mut pos);
        self.back_up(&rewards(self.site, &pos));
    }

    pub(super) fn new(site: &'a Site, cfg: &'a MctsConfig, seed: u64, nodes: Vec<Node>) -> TreeSearch<'a> {
        let code_path = rumis_core::CodePath::active();
        // Pairs where the core generates two games at once, for the policy's playouts (the
        // uniform ones take the core's own loop).
        let paired = cfg.paired_playouts
            && rumis_core::generates_together(site, code_path)
            && (cfg.rave > 0.0 || cfg.big_stones_first || cfg.answer_last_move);
        let pair = paired.then(|| {
            Box::new(Pair {
                pos: [Position::new(site), Position::new(site)],
                sets: [rumis_core::MoveSet::new(), rumis_core::MoveSet::new()],
                path: Vec::new(),
                played: Vec::new(),
                tree_plies: 0,
            })
        });
        let (plan, learned) = cfg.plan(site);
        let learned = learned.map(|m| (m, SiteShape::new(site)));
        let scorer = learned
            .as_ref()
            .map(|(m, shape)| priors::QuickScorer::new(site, shape, &m.quick));
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
            code_path,
            set: rumis_core::MoveSet::new(),
            moves: Vec::new(),
            priors: Vec::new(),
            weights: Weights::default(),
            room: eval::RoomEstimate::default(),
            room_estimate: plan.room_estimate,
            others_prior_weight: plan.others_prior_weight,
            full_prior_depth: plan.full_prior_depth,
            late_full_priors: plan.late_full_priors,
            informed_plies: plan.informed_plies,
            learned,
            scorer,
            score_view: priors::ScoreView::default(),
            own: None,
            modelled: [true; 4],
            pair,
        }
    }

    /// Two simulations at once: the first selects and expands; its path takes a virtual
    /// loss (a visit with no reward for every mover on it) while the second selects, so
    /// that the second tends to another leaf; both play out in lockstep
    /// ([`TreeSearch::playout_pair`]) and back up, the first then the second. Only with
    /// `pair` (where the core generates two games at once).
    #[inline(never)]
    pub(super) fn simulate_pair(&mut self, root: &Position) {
        let Some(mut pair) = self.pair.take() else {
            return self.simulate(root);
        };
        self.sims += 2;
        pair.pos[0].clone_from(root);
        pair.pos[1].clone_from(root);
        self.select_and_expand(&mut pair.pos[0]);
        self.virtual_loss(true);
        self.swap_lane(&mut pair);
        self.select_and_expand(&mut pair.pos[1]);
        self.swap_lane(&mut pair);
        self.virtual_loss(false);
        self.playout_pair(&mut pair);
        self.back_up(&rewards(self.site, &pair.pos[0]));
        self.swap_lane(&mut pair);
        self.back_up(&rewards(self.site, &pair.pos[1]));
        self.swap_lane(&mut pair);
        self.pair = Some(pair);
    }

    /// Swaps the simulation in the tree's own fields (path, moves, tree plies) with the
    /// pair's second.
    fn swap_lane(&mut self, pair: &mut Pair) {
        std::mem::swap(&mut self.path, &mut pair.path);
        std::mem::swap(&mut self.played, &mut pair.played);
        std::mem::swap(&mut self.tree_plies, &mut pair.tree_plies);
    }

    /// Adds (or takes back) a visit without reward on every node of `path`, keeping the
    /// means ([`Node::refresh`]: taken back, each is the same `f32` as before).
    fn virtual_loss(&mut self, add: bool) {
        let pv = self.cfg.prior_visits;
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            if add {
                n.visits += 1;
            } else {
                n.visits -= 1;
            }
            if i != 0 {
                n.refresh(pv);
            }
        }
    }

    /// Whether to stop before the next simulation: the budget is spent, the deadline has
    /// passed (looked at every 32 simulations, after the first: reading the clock costs),
    /// the stop flag is raised (after the first simulation: one atomic load, so that a
    /// search gives its thread back within one simulation), or with neither budget nor
    /// deadline given after 1 000.
    pub(super) fn out_of_budget(&self, budget: Option<u64>, deadline: Option<Instant>) -> bool {
        let sims = self.sims;
        budget.is_some_and(|b| sims >= b)
            || (sims.is_multiple_of(32) && deadline.is_some_and(|d| Instant::now() >= d) && sims > 0)
            || (sims > 0 && self.cfg.stop.is_raised())
            || (budget.is_none() && deadline.is_none() && sims >= 1_000)
    }

    /// Selection: from the root, moves to the child of the best value until the game ends,
    /// a node is not to be expanded yet, or a child is new; expands the nodes on the way
    /// that are due. `pos` follows the moves.
    pub(super) fn select_and_expand(&mut self, pos: &mut Position) {
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

    /// The child of `node` with the best value for the colour that moves there (the first
    /// of equals); without priors and RAVE, the first child not yet visited.
    ///
    /// With priors, children in prior order are looked at only up to the first not yet
    /// visited, which is the same choice as looking at them all: the value of a child never
    /// visited grows with its prior alone (every operation on it is monotonic), so no later
    /// unvisited child beats it, and visited children are always a leading run of the
    /// list, since an unvisited child is only ever chosen when it is the first of them. At
    /// nodes with hundreds of children and few visits this is most of the selection's time.
    pub(super) fn best_child(&self, node: usize) -> u32 {
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
    pub(super) fn best_child_scan(&self, node: usize, stop_at_new: bool) -> u32 {
        let cfg = self.cfg;
        let n = self.nodes[node];
        let ln = crate::math::ln((n.visits.max(1)) as f32);
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

    /// Back-up: adds each colour's reward `r` at the end of the simulation to the nodes on
    /// its path (each node keeps its mover's) and, with RAVE, to the all-moves-as-first
    /// statistics of their children.
    pub(super) fn back_up(&mut self, r: &[f32; 4]) {
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
    pub(super) fn credit_all_moves_as_first(&mut self, r: &[f32; 4]) {
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
    pub(super) fn into_stats(self) -> (TreeStats, Vec<Node>) {
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

impl TreeSearch<'_> {
    /// Playout: plays the game to its end from where the simulation left the tree.
    pub(super) fn playout(&mut self, pos: &mut Position) {
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
        let mut informed = self.informed_plies;
        while let Some(colour) = pos.to_move(site) {
            let last = self.played.last().map(|p| p.1);
            let mut drawer = Drawer {
                site,
                policy: &mut self.policy,
                rng: &mut self.rng,
                scorer: self.scorer.as_ref(),
                view: &mut self.score_view,
                candidates: cfg.playout_candidates,
            };
            let m = drawer.draw(pos, colour, &self.set, n, last, &mut informed);
            self.played.push((colour.index() as u8, m));
            n = pos
                .play_generate_unhashed_with(site, m, path, &mut self.set)
                .expect("the active code path is available");
        }
    }

    /// The playouts of a pair ([`TreeSearch::simulate_pair`]) in lockstep: each ply the
    /// policy's draw in each game still going, then one step of both
    /// (`rumis_core::play_generate_many`: their next sets generated together, so one game's
    /// chain from ply to ply runs beside the other's). Once one game is over the other
    /// goes on alone (the one-game step). Each game draws as [`TreeSearch::playout`] does,
    /// from the one generator, the two games' draws taking turns.
    fn playout_pair(&mut self, pair: &mut Pair) {
        let (site, path) = (self.site, self.code_path);
        let mut n = [0usize; 2];
        for ((n, pos), set) in n.iter_mut().zip(&pair.pos).zip(&mut pair.sets) {
            if pos.to_move(site).is_some() {
                *n = pos
                    .legal_set_with(site, path, set)
                    .expect("the active code path is available");
            }
        }
        let mut informed = [self.informed_plies; 2];
        loop {
            let mut moves = [None; 2];
            for g in 0..2 {
                let Some(colour) = pair.pos[g].to_move(site) else {
                    continue;
                };
                let played = if g == 0 { &mut self.played } else { &mut pair.played };
                let last = played.last().map(|p| p.1);
                let mut drawer = Drawer {
                    site,
                    policy: &mut self.policy,
                    rng: &mut self.rng,
                    scorer: self.scorer.as_ref(),
                    view: &mut self.score_view,
                    candidates: self.cfg.playout_candidates,
                };
                let m = drawer.draw(&pair.pos[g], colour, &pair.sets[g], n[g], last, &mut informed[g]);
                played.push((colour.index() as u8, m));
                moves[g] = Some(m);
            }
            if moves == [None; 2] {
                break;
            }
            n = rumis_core::play_generate_many(site, &mut pair.pos, moves, path, &mut pair.sets)
                .expect("the active code path is available");
        }
    }
}

/// A playout ply's draw: the policy's pick and, on informed plies, the best by the learned
/// model's quick score of `candidates` picks.
struct Drawer<'s> {
    site: &'s Site,
    policy: &'s mut PlayoutPolicy,
    rng: &'s mut Rng,
    scorer: Option<&'s priors::QuickScorer>,
    view: &'s mut priors::ScoreView,
    candidates: usize,
}

impl Drawer<'_> {
    /// The placement `colour` plays in `pos` (`n` > 0 placements in `set`) after the move
    /// `last`; an informed ply while `informed` > 0 (and counts it off).
    #[inline(always)]
    fn draw(
        &mut self,
        pos: &Position,
        colour: Colour,
        set: &rumis_core::MoveSet,
        n: usize,
        last: Option<Move>,
        informed: &mut usize,
    ) -> Move {
        let site = self.site;
        let mut draws = PlyDraws::default();
        let mut m = self.policy.pick_again(site, set, n, last, self.rng, &mut draws);
        if *informed > 0 {
            *informed -= 1;
            if let Some(scorer) = self.scorer {
                let view = &mut *self.view;
                scorer.look(site, pos, colour, view);
                let score = |m| scorer.score(site, view, m);
                let mut best = score(m);
                for _ in 1..self.candidates {
                    let c = self.policy.pick_again(site, set, n, last, self.rng, &mut draws);
                    let v = score(c);
                    if v > best {
                        (best, m) = (v, c);
                    }
                }
            }
        }
        m
    }
}
