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
}
