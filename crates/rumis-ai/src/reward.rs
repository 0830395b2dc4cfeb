//! What a finished game is worth to each colour: the one measure the tree search, the
//! endgame solver and the analysis all maximise or report.

use rumis_core::{Position, Site};

/// The score a player that forfeited counts with: below every score a game can give.
const FORFEITED: i32 = i32::MIN / 4;

/// The reward of each colour (by colour index) at the end of a game.
pub fn rewards(site: &Site, pos: &Position) -> [f32; 4] {
    // The sides are the players: one colour each, or two in the two-player four-colour
    // game, where a player's score is its better colour's (as the core's outcome says),
    // gathered without allocating: this runs at the end of every simulation.
    let colours = pos.colour_scores(site);
    let mut by_player = [i32::MIN; 4];
    for &c in site.order() {
        if let Some(p) = site.player_of(c) {
            by_player[p] = by_player[p].max(colours[c.index()]);
        }
    }
    // A player that forfeited (rules §5.1) ranks below every other, whatever its score:
    // it scores below any real score (a quarter of i32's range, so no difference wraps).
    for &c in site.order() {
        if pos.has_forfeited(c) {
            if let Some(p) = site.player_of(c) {
                by_player[p] = FORFEITED;
            }
        }
    }
    let players = &by_player[..site.players().min(4)];
    let rivals = (players.len().max(2) - 1) as f32;
    let reward_of = |p: usize| -> f32 {
        let s = players[p];
        let (mut below, mut tied) = (0.0, 0.0);
        let mut best_other = i32::MIN;
        for (q, &t) in players.iter().enumerate() {
            if q == p {
                continue;
            }
            best_other = best_other.max(t);
            if t < s {
                below += 1.0;
            } else if t == s {
                tied += 0.5;
            }
        }
        let rank = (below + tied) / rivals;
        let margin = crate::math::tanh((s - best_other) as f32 / 8.0);
        0.9 * rank + 0.05 * (margin + 1.0)
    };
    let mut out = [0.0; 4];
    for &c in site.order() {
        if let Some(p) = site.player_of(c) {
            out[c.index()] = reward_of(p);
        }
    }
    out
}

/// Where a reward of [`rewards`] stands, read back: the player's place (1-based; `shared`
/// when it ties with another player, as far as the reward tells) and its score margin over
/// the best other player (negative: behind the leader). What a puzzle's explanation says of
/// a placement the endgame solver valued (`puzzles::judge`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    pub place: usize,
    pub shared: bool,
    pub margin: i32,
}

/// Reads a reward of a game of `players` players back into its [`Standing`]: the inverse
/// of [`rewards`]' `0.9 rank + 0.05 (tanh(margin / 8) + 1)`. The rank is `k / (2 rivals)`
/// for a whole `k` (a rival below counts 2, one tied 1); its steps, `0.45 / rivals`, are
/// wider than the margin's part (below 0.1), so rounding finds `k`. Where the rivals' ties
/// cannot be told apart from the sum (two rivals tied with the player, or one beaten), the
/// fewest ties are read. The margin is exact up to about 30 points (f32's resolution of
/// `tanh` near ±1) and approximate beyond.
pub fn read(value: f32, players: usize) -> Standing {
    let rivals = players.max(2) - 1;
    let step = 0.45 / rivals as f64;
    let v = value as f64;
    let k = ((v - 0.05) / step).round().clamp(0.0, 2.0 * rivals as f64);
    let t = ((v - k * step) / 0.05 - 1.0).clamp(-1.0 + 1e-7, 1.0 - 1e-7);
    let margin = (8.0 * t.atanh()).round() as i32;
    let k = k as usize;
    let (place, shared) = match margin {
        m if m > 0 => (1, false),
        0 => (1, true),
        _ => (1 + rivals - k / 2 - k % 2, k % 2 == 1),
    };
    Standing { place, shared, margin }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_game as game;
    use rumis_core::{Rng, Variant};

    /// The rewards rank the players of the core's outcome (the allocation-free gathering
    /// of players' scores agrees with it), on every variant.
    #[test]
    fn rewards_follow_the_outcome() {
        for (board, players, variant) in [
            ("chullpa", 4, Variant::Standard),
            ("pisac", 3, Variant::Standard),
            ("pirka", 2, Variant::TwoPlayerFourColors),
            ("tambo", 2, Variant::Standard),
        ] {
            for seed in 0..10 {
                let mut g = game(board, players, variant);
                g.play_random(&mut Rng::new(seed));
                let o = g.outcome();
                let r = rewards(g.site(), g.position());
                for &a in g.site().order() {
                    for &b in g.site().order() {
                        let (pa, pb) = (g.site().player_of(a).unwrap(), g.site().player_of(b).unwrap());
                        match o.players[pa].cmp(&o.players[pb]) {
                            std::cmp::Ordering::Greater => assert!(r[a.index()] > r[b.index()]),
                            std::cmp::Ordering::Less => assert!(r[a.index()] < r[b.index()]),
                            std::cmp::Ordering::Equal => assert_eq!(r[a.index()], r[b.index()]),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn rewards_rank_and_share_ties() {
        let mut g = game("chullpa", 4, Variant::Standard);
        let mut rng = Rng::new(3);
        g.play_random(&mut rng);
        let r = rewards(g.site(), g.position());
        let scores = g.position().scores(g.site());
        for &(a, sa) in &scores {
            for &(b, sb) in &scores {
                if sa > sb {
                    assert!(r[a.index()] > r[b.index()]);
                }
                if sa == sb {
                    assert_eq!(r[a.index()], r[b.index()]);
                }
            }
        }
        assert!(r.iter().all(|&x| (0.0..=1.0).contains(&x)));
    }

    #[test]
    fn two_player_four_colour_rewards_are_the_players() {
        for seed in 0..20 {
            let mut g = game("pirka", 2, Variant::TwoPlayerFourColors);
            g.play_random(&mut Rng::new(seed));
            let r = rewards(g.site(), g.position());
            let o = g.outcome();
            // Partners share a reward; the winner's is higher; all within 0..1.
            assert_eq!(r[0], r[2]);
            assert_eq!(r[1], r[3]);
            assert!(r.iter().all(|&x| (0.0..=1.0).contains(&x)), "{r:?}");
            match o.players[0].cmp(&o.players[1]) {
                std::cmp::Ordering::Greater => assert!(r[0] > r[1]),
                std::cmp::Ordering::Less => assert!(r[0] < r[1]),
                std::cmp::Ordering::Equal => assert_eq!(r[0], r[1]),
            }
        }
    }

    /// A reward read back gives the game's places and margins (two, three and four players).
    #[test]
    fn a_reward_reads_back_as_its_place_and_margin() {
        for players in 2..=4 {
            for seed in 0..40 {
                let mut g = game("chullpa", players, Variant::Standard);
                g.play_random(&mut Rng::new(seed));
                let r = rewards(g.site(), g.position());
                let scores = g.position().colour_scores(g.site());
                for &c in g.site().order() {
                    let s = scores[c.index()];
                    let others: Vec<i32> = g
                        .site()
                        .order()
                        .iter()
                        .filter(|&&o| o != c)
                        .map(|o| scores[o.index()])
                        .collect();
                    let best_other = *others.iter().max().unwrap();
                    let above = others.iter().filter(|&&o| o > s).count();
                    let tied = others.iter().filter(|&&o| o == s).count();
                    let read = read(r[c.index()], players);
                    if g.position().has_forfeited(c) || tied > 1 {
                        continue;
                    }
                    assert_eq!(read.margin, s - best_other, "{players} players, seed {seed}, {c}");
                    assert_eq!(
                        (read.place, read.shared),
                        (1 + above, tied == 1),
                        "{players} players, seed {seed}"
                    );
                }
            }
        }
    }
}
