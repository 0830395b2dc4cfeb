//! The search's entry: [`Mcts::search`] (the endgame solver, the trees on their threads,
//! their root statistics added, the guarded choice) and the trees kept from one move to the
//! next.

use std::time::Instant;

use rumis_core::{Colour, Game, Move, Position, Site};

use super::config::{MctsConfig, GUARD_STONES};
use super::tree::{run_tree, Node, TreeStats};
use super::watch::Watch;
use crate::endgame::{stones_in_play, Solver};
use crate::eval;
use crate::player::Player;

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

pub struct Mcts {
    pub config: MctsConfig,
    pub(super) games_seen: u64,
    /// The trees of the last search (one per thread) and the game's moves up to its root.
    pub(super) kept: Option<Kept>,
    /// Which other colours have played as greedy players so far (the model of the others).
    pub(super) watch: Watch,
}

pub(super) struct Kept {
    pub(super) moves: Vec<Move>,
    pub(super) root_hash: u64,
    pub(super) trees: Vec<Vec<Node>>,
    /// The `MctsConfig::prior_visits` of the nodes' `mean`s.
    pub(super) prior_visits: f32,
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
    pub(super) fn trees_for(&mut self, game: &Game, threads: usize) -> (Vec<Vec<Node>>, u64) {
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
        let budget = self.config.plan(site).0.simulations;
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
        let Roots {
            mut moves,
            simulations,
            totals,
            trees: kept_trees,
        } = merge_roots(results);
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

/// The trees' root statistics added up ([`merge_roots`]).
struct Roots {
    /// Each root move with its visits and mean reward, most visited first (then the better
    /// mean, then the move, so that the order is the same on every run).
    moves: Vec<(Move, u32, f32)>,
    simulations: u64,
    /// Each colour's estimates, summed over the simulations.
    totals: [f32; 4],
    /// The trees, to keep for the next move.
    trees: Vec<Vec<Node>>,
}

/// Adds up the root statistics of the trees the threads grew.
fn merge_roots(results: Vec<(TreeStats, Vec<Node>)>) -> Roots {
    let mut merged: Vec<(Move, u32, f32)> = Vec::new();
    let mut simulations = 0;
    let mut totals = [0.0f32; 4];
    let mut kept_trees = Vec::with_capacity(results.len());
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
    Roots {
        moves,
        simulations,
        totals,
        trees: kept_trees,
    }
}

/// Which of `moves` (most visited first) the search plays: the first, unless it leaves
/// `mover` fewer than `guard` outlets while it holds [`GUARD_STONES`] stones or more; then
/// the most visited that leaves `guard`, among those with at least half the first's visits
/// (the first when none does). Walled in after its first stones, a colour is out with most
/// of its stones in hand and ranks last, which the playouts' random others rarely show:
/// level 8 went out with six stones or more in 16.5 % of 200 Coricancha games against
/// three level 5s, and came last in every one of them (docs/strength.md, "Walled in").
pub(super) fn guarded_choice(
    site: &Site,
    root: &Position,
    mover: Colour,
    moves: &[(Move, u32, f32)],
    guard: u8,
) -> usize {
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

/// The node reached from the root by `moves`, if the tree holds them all.
pub(super) fn descend(tree: &[Node], moves: &[Move]) -> Option<usize> {
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
pub(super) fn subtree(tree: &[Node], root: usize) -> Vec<Node> {
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
