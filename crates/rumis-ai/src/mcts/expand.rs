//! Expansion and the children's priors: the greedy evaluation, the columns covered, the
//! estimated room or a learned model ([`TreeSearch::expand`]), and the full priors of a
//! node visited often ([`TreeSearch::full_priors`]).

use rumis_core::Position;

use super::config::RoomEstimateAt;
use super::tree::{Node, TreeSearch};
use crate::eval;
use crate::priors::{self, PriorModel};

impl TreeSearch<'_> {
    /// Expansion: gives `node` a child for every legal placement of `mover`, each with its
    /// prior, best prior first.
    pub(super) fn expand(&mut self, node: usize, pos: &Position, mover: rumis_core::Colour) {
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
                self.count_best_first(pos);
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
            child.prior = crate::math::exp((v - top) / temperature).min(last);
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

    /// Counted best first, after the estimated priors: the estimated value is never below
    /// the counted one (the estimate never gives the others more room), so once the best
    /// count reaches the next estimate no child left can beat it, and the greedy
    /// evaluation's choice is the best prior. At most `room_counted_best` are counted; the
    /// rest move by the mean of the counted ones' shift.
    #[inline]
    fn count_best_first(&mut self, pos: &Position) {
        let site = self.site;
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
    }

    /// Re-evaluates the priors of `node`'s children by the greedy evaluation: it has been
    /// visited often enough to pay for the room counts.
    pub(super) fn full_priors(&mut self, node: usize, pos: &Position) {
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
            c.prior = crate::math::exp((c.prior - top) / temperature);
            c.refresh(self.cfg.prior_visits);
        }
    }
}
