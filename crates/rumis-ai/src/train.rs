//! Learning the weights of the move priors ([`crate::priors`]) from game records: maximum
//! likelihood of the moves played, each a softmax over the legal placements of its
//! position, by gradient descent (Adam) with a little L2 regularisation.
//!
//! The features are standardised (mean 0, deviation 1 over the placements seen) while
//! learning, so that one step size suits them all, and the weights are turned back to the
//! raw features at the end.

use rumis_core::{Game, Move, Rng};

use crate::eval;
use crate::priors::{self, Features, PriorModel, SiteShape, FEATURES, ROOM_FEATURES};
use crate::scenario;

/// One position of a record: the features of the move played and of (a sample of) the
/// other legal placements.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The move played first, then the others kept.
    pub moves: Vec<Features>,
    /// How many legal placements each of the others stands for (1 when all were kept).
    pub weight: f32,
}

/// The positions of a game, each with the move played and at most `max_others` other
/// placements drawn at random (all of them when there are fewer), for the colours
/// `learn_from` marks (by colour index). Positions with one legal placement teach nothing
/// and are left out.
pub fn samples(game: &Game, learn_from: [bool; 4], max_others: usize, rng: &mut Rng) -> Vec<Sample> {
    let site = game.site();
    let shape = SiteShape::new(site);
    let mut out = Vec::new();
    let mut legal: Vec<Move> = Vec::new();
    for (i, &played) in game.moves().iter().enumerate() {
        let (Some(pos), Some(me)) = (game.positions().get(i), game.mover(i)) else {
            continue;
        };
        if !learn_from[me.index()] {
            continue;
        }
        pos.legal_moves(site, &mut legal);
        if legal.len() < 2 || !legal.contains(&played) {
            continue;
        }
        let mut others: Vec<Move> = legal.iter().copied().filter(|&m| m != played).collect();
        let weight = if others.len() > max_others {
            rng.shuffle(&mut others);
            let w = others.len() as f32 / max_others as f32;
            others.truncate(max_others);
            w
        } else {
            1.0
        };
        let mut moves = Vec::with_capacity(others.len() + 1);
        moves.push(priors::features(site, &shape, pos, played, me, true));
        moves.extend(others.iter().map(|&m| priors::features(site, &shape, pos, m, me, true)));
        out.push(Sample { moves, weight });
    }
    out
}

/// How to learn.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub iterations: usize,
    pub step: f32,
    /// L2 penalty on the standardised weights, per position.
    pub l2: f32,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            iterations: 300,
            step: 0.05,
            l2: 1e-3,
        }
    }
}

/// The mean negative log-likelihood of the samples under `w` (raw features), and its
/// gradient. Features outside `active` are ignored.
fn loss_and_gradient(samples: &[Sample], w: &Features) -> (f64, [f64; FEATURES]) {
    let mut loss = 0.0f64;
    let mut grad = [0.0f64; FEATURES];
    let mut scores = Vec::new();
    for s in samples {
        scores.clear();
        scores.extend(s.moves.iter().map(|f| PriorModel::score(w, f) as f64));
        let top = scores.iter().copied().fold(f64::MIN, f64::max);
        // Partition sum: the played move once, each other for `weight` placements.
        let mut z = 0.0f64;
        let mut expected = [0.0f64; FEATURES];
        for (j, (f, &sc)) in s.moves.iter().zip(&scores).enumerate() {
            let e = (sc - top).exp() * if j == 0 { 1.0 } else { s.weight as f64 };
            z += e;
            for k in 0..FEATURES {
                expected[k] += e * f[k] as f64;
            }
        }
        loss += z.ln() - (scores[0] - top);
        for k in 0..FEATURES {
            grad[k] += expected[k] / z - s.moves[0][k] as f64;
        }
    }
    let n = samples.len().max(1) as f64;
    (loss / n, grad.map(|g| g / n))
}

/// Learns the weights of the features in `active` (the others stay 0) by maximum
/// likelihood of the moves played.
pub fn train(samples: &[Sample], active: &[bool; FEATURES], cfg: &TrainConfig) -> Features {
    // Standardise over every placement kept.
    let (mut mean, mut sq, mut count) = ([0.0f64; FEATURES], [0.0f64; FEATURES], 0.0f64);
    for s in samples {
        for f in &s.moves {
            for k in 0..FEATURES {
                mean[k] += f[k] as f64;
                sq[k] += (f[k] as f64).powi(2);
            }
            count += 1.0;
        }
    }
    let count = count.max(1.0);
    let mut scale = [0.0f64; FEATURES];
    for k in 0..FEATURES {
        mean[k] /= count;
        let var = sq[k] / count - mean[k] * mean[k];
        scale[k] = if active[k] && var > 1e-12 {
            1.0 / var.sqrt()
        } else {
            0.0
        };
    }
    let standardised: Vec<Sample> = samples
        .iter()
        .map(|s| Sample {
            moves: s
                .moves
                .iter()
                .map(|f| std::array::from_fn(|k| ((f[k] as f64 - mean[k]) * scale[k]) as f32))
                .collect(),
            weight: s.weight,
        })
        .collect();
    // Adam on the standardised weights.
    let mut w = [0.0f64; FEATURES];
    let (mut m1, mut m2) = ([0.0f64; FEATURES], [0.0f64; FEATURES]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    for t in 1..=cfg.iterations {
        let wf: Features = w.map(|x| x as f32);
        let (_, mut g) = loss_and_gradient(&standardised, &wf);
        for k in 0..FEATURES {
            g[k] += cfg.l2 as f64 * w[k];
            m1[k] = b1 * m1[k] + (1.0 - b1) * g[k];
            m2[k] = b2 * m2[k] + (1.0 - b2) * g[k] * g[k];
            let (h1, h2) = (m1[k] / (1.0 - b1.powi(t as i32)), m2[k] / (1.0 - b2.powi(t as i32)));
            if scale[k] > 0.0 {
                w[k] -= cfg.step as f64 * h1 / (h2.sqrt() + eps);
            }
        }
    }
    // Back to raw features: w·((f - mean) * scale) = (w * scale)·f + a constant, and a
    // constant does not change a softmax.
    std::array::from_fn(|k| (w[k] * scale[k]) as f32)
}

/// Learns a model: `full` over every feature, `quick` without the room features.
pub fn train_model(samples: &[Sample], cfg: &TrainConfig) -> PriorModel {
    let all = [true; FEATURES];
    let mut quick = all;
    for k in ROOM_FEATURES {
        quick[k] = false;
    }
    PriorModel {
        full: train(samples, &all, cfg),
        quick: train(samples, &quick, cfg),
    }
}

/// How well a policy predicts the moves played: the share it ranks first (ties shared)
/// and the mean log-likelihood, over every legal placement of every position.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Prediction {
    pub positions: usize,
    pub top1: f64,
    pub log_likelihood: f64,
    /// The same for a uniformly random choice, for scale.
    pub uniform_log_likelihood: f64,
}

impl Prediction {
    /// Adds a position: the policy's logits of every legal placement, the played one first.
    pub fn add(&mut self, logits: &[f32]) {
        if logits.len() < 2 {
            return;
        }
        let top = logits.iter().copied().fold(f32::MIN, f32::max) as f64;
        let z: f64 = logits.iter().map(|&l| (l as f64 - top).exp()).sum();
        self.log_likelihood += logits[0] as f64 - top - z.ln();
        self.uniform_log_likelihood -= (logits.len() as f64).ln();
        if logits[0] as f64 >= top {
            let ties = logits.iter().filter(|&&l| l as f64 >= top).count();
            self.top1 += 1.0 / ties as f64;
        }
        self.positions += 1;
    }

    /// Means over the positions added.
    pub fn means(&self) -> (f64, f64, f64) {
        let n = self.positions.max(1) as f64;
        (self.top1 / n, self.log_likelihood / n, self.uniform_log_likelihood / n)
    }
}

/// The policies compared on a set of games.
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    /// The learned model's full and quick weights.
    pub learned_full: Prediction,
    pub learned_quick: Prediction,
    /// Today's hand-made priors as the search uses them: exp(value / temperature) of the
    /// greedy evaluation (with the room term unless the scenario's settings leave it out)
    /// and of the columns-covered evaluation.
    pub hand_full: Prediction,
    pub hand_quick: Prediction,
}

/// Scores every position of a game by every policy, over all its legal placements.
pub fn compare(game: &Game, learn_from: [bool; 4], model: &PriorModel, temperature: f32, into: &mut Comparison) {
    let site = game.site();
    let shape = SiteShape::new(site);
    let room = scenario::settings(&site.board().name).room_in_priors;
    let weights = eval::Weights::default();
    let mut legal: Vec<Move> = Vec::new();
    let mut logits: [Vec<f32>; 4] = Default::default();
    for (i, &played) in game.moves().iter().enumerate() {
        let (Some(pos), Some(me)) = (game.positions().get(i), game.mover(i)) else {
            continue;
        };
        if !learn_from[me.index()] {
            continue;
        }
        pos.legal_moves(site, &mut legal);
        if legal.len() < 2 || !legal.contains(&played) {
            continue;
        }
        let others = legal.iter().copied().filter(|&m| m != played);
        for l in logits.iter_mut() {
            l.clear();
        }
        for m in std::iter::once(played).chain(others) {
            let f = priors::features(site, &shape, pos, m, me, true);
            logits[0].push(PriorModel::score(&model.full, &f));
            logits[1].push(PriorModel::score(&model.quick, &f));
            let hand = if room {
                eval::evaluate(site, pos, m)
            } else {
                eval::quick(&weights, site, pos, m, me)
            };
            logits[2].push(hand / temperature);
            logits[3].push(eval::quick(&weights, site, pos, m, me) / temperature);
        }
        into.learned_full.add(&logits[0]);
        into.learned_quick.add(&logits[1]);
        into.hand_full.add(&logits[2]);
        into.hand_quick.add(&logits[3]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On synthetic positions whose moves are drawn from a softmax with known weights, the
    /// learned weights come back close to them (and an unused feature stays near 0).
    #[test]
    fn training_recovers_known_weights() {
        let mut rng = Rng::new(11);
        let mut truth = [0.0f32; FEATURES];
        truth[0] = 1.5;
        truth[3] = -1.0;
        truth[6] = 0.7;
        let uniform = |rng: &mut Rng| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        let mut data = Vec::new();
        for _ in 0..3_000 {
            let n = 8 + rng.below(12);
            let mut moves: Vec<Features> = (0..n)
                .map(|_| std::array::from_fn(|_| uniform(&mut rng) * 2.0 - 1.0))
                .collect();
            let p: Vec<f64> = moves
                .iter()
                .map(|f| (PriorModel::score(&truth, f) as f64).exp())
                .collect();
            let total: f64 = p.iter().sum();
            let mut x = uniform(&mut rng) as f64 * total;
            let mut pick = n - 1;
            for (i, q) in p.iter().enumerate() {
                x -= q;
                if x <= 0.0 {
                    pick = i;
                    break;
                }
            }
            moves.swap(0, pick);
            data.push(Sample { moves, weight: 1.0 });
        }
        let cfg = TrainConfig {
            iterations: 400,
            step: 0.05,
            l2: 0.0,
        };
        let w = train(&data, &[true; FEATURES], &cfg);
        for k in 0..FEATURES {
            assert!(
                (w[k] - truth[k]).abs() < 0.2,
                "feature {k}: learned {} want {}",
                w[k],
                truth[k]
            );
        }
        // The learned weights predict better than none.
        let (learned, _) = loss_and_gradient(&data, &w);
        let (none, _) = loss_and_gradient(&data, &[0.0; FEATURES]);
        assert!(learned < none - 0.05, "{learned} vs {none}");
        // Features left out stay at 0.
        let mut active = [true; FEATURES];
        active[0] = false;
        let w = train(&data, &active, &cfg);
        assert_eq!(w[0], 0.0);
    }

    #[test]
    fn prediction_counts_ties_and_likelihood() {
        let mut p = Prediction::default();
        p.add(&[1.0, 1.0, 0.0]);
        p.add(&[0.0, 2.0]);
        let (top1, ll, uniform) = p.means();
        assert!((top1 - 0.25).abs() < 1e-9);
        let want = ((1.0f64 - (2.0 * 1f64.exp() + 1.0).ln()) + (-(1.0 + 2f64.exp()).ln())) / 2.0;
        assert!((ll - want).abs() < 1e-6, "{ll} {want}");
        assert!((uniform - (-(3f64.ln() + 2f64.ln()) / 2.0)).abs() < 1e-9);
    }
}
