//! Scores, places and the outcome of a game (rules §5).

use super::*;

impl Position {
    /// Score of a colour: columns whose top cube is of that colour, minus one per stone
    /// never placed.
    pub fn score(&self, site: &Site, colour: Colour) -> i32 {
        let k = colour.index();
        let tops = site
            .footprint()
            .filter(|&c| {
                let h = self.heights[c];
                h > 0 && self.cubes[k][c] >> (h - 1) & 1 == 1
            })
            .count() as i32;
        tops - self.left[k].count_ones() as i32
    }

    /// Every colour's [`score`](Position::score), by colour index, in one pass over the
    /// columns and without allocating: the end of every playout of the search is scored
    /// (a colour not in the game gets a meaningless figure).
    pub fn colour_scores(&self, site: &Site) -> [i32; 4] {
        let mut tops = [0i32; 4];
        // Columns off the footprint stay at height 0.
        for c in 0..site.columns.min(MAX_COLUMNS) {
            let h = self.heights[c];
            if h > 0 {
                let top = 1u16 << ((h - 1) & 15);
                for (k, t) in tops.iter_mut().enumerate() {
                    *t += i32::from(self.cubes[k][c] & top != 0);
                }
            }
        }
        for (t, left) in tops.iter_mut().zip(self.left) {
            *t -= left.count_ones() as i32;
        }
        tops
    }

    /// The scores in order of play.
    pub fn scores(&self, site: &Site) -> Vec<(Colour, i32)> {
        let all = self.colour_scores(site);
        site.order.iter().map(|&c| (c, all[c.index()])).collect()
    }

    /// The result: in the two-player four-colour game a player's score is its better
    /// colour's; the players are ranked by score, equal scores sharing a place, below them
    /// every player that forfeited (rules §5.1), sharing the last place; the winners are
    /// the first place's players that did not forfeit.
    pub fn outcome(&self, site: &Site) -> Outcome {
        self.outcome_with(site, &[])
    }

    /// The result as [`Position::outcome`], with the players in `also_forfeited` (0-based)
    /// counted as forfeited too: an online game's seat whose player walked away and whose
    /// colours the AI plays on (the server's rule, rules §5.1).
    pub fn outcome_with(&self, site: &Site, also_forfeited: &[usize]) -> Outcome {
        let scores = self.scores(site);
        let (players, forfeited): (Vec<i32>, Vec<usize>) = match site.variant {
            Variant::TwoPlayerFourColors => {
                let colours_of = |p: usize| scores.iter().filter(move |(c, _)| site.player_of(*c) == Some(p));
                (
                    (0..2).map(|p| colours_of(p).map(|s| s.1).max().unwrap_or(0)).collect(),
                    // A player forfeits by a colour of theirs leaving (both leave together
                    // when the player resigns or runs out of time).
                    (0..2)
                        .filter(|&p| colours_of(p).any(|(c, _)| self.has_forfeited(*c)))
                        .collect(),
                )
            }
            _ => (
                scores.iter().map(|s| s.1).collect(),
                (0..scores.len()).filter(|&i| self.has_forfeited(scores[i].0)).collect(),
            ),
        };
        let mut forfeited: Vec<usize> = forfeited
            .into_iter()
            .chain(also_forfeited.iter().copied().filter(|&p| p < players.len()))
            .collect();
        forfeited.sort_unstable();
        forfeited.dedup();
        let places = places(&players, &forfeited);
        let winners = (0..players.len())
            .filter(|&p| places[p] == 1 && !forfeited.contains(&p))
            .collect();
        Outcome {
            scores,
            players,
            winners,
            forfeited,
            places,
        }
    }
}

/// Each player's place (1 = first) from the players' scores, equal scores sharing a place
/// (dense: 1, 1, 2); the players in `forfeited` come after all the others, sharing the last
/// place (rules §5.1).
pub fn places(scores: &[i32], forfeited: &[usize]) -> Vec<usize> {
    let mut distinct: Vec<i32> = (0..scores.len())
        .filter(|i| !forfeited.contains(i))
        .map(|i| scores[i])
        .collect();
    distinct.sort_unstable_by(|a, b| b.cmp(a));
    distinct.dedup();
    let last = distinct.len() + 1;
    (0..scores.len())
        .map(|i| {
            if forfeited.contains(&i) {
                last
            } else {
                distinct.iter().position(|&s| s == scores[i]).map_or(last, |p| p + 1)
            }
        })
        .collect()
}

/// Scores and winners of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    /// Each colour's score, in order of play.
    pub scores: Vec<(Colour, i32)>,
    /// Each player's score (a colour's own, or the better of two colours).
    pub players: Vec<i32>,
    /// The winning players (0-based), more than one for a shared win; none when every
    /// player forfeited.
    pub winners: Vec<usize>,
    /// The players (0-based) that forfeited (rules §5.1), in order.
    pub forfeited: Vec<usize>,
    /// Each player's place, 1 = first: by score, equal scores sharing a place, the players
    /// that forfeited after all the others ([`places`]).
    pub places: Vec<usize>,
}
