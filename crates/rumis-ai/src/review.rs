//! A review of a game: for every move, the best placement a search found beside the one
//! played, what the difference cost the mover, a mark where it cost enough (inaccuracy,
//! mistake, blunder), and per colour a summary (marks, average loss, accuracy).
//!
//! How a move is valued: the mover's win estimate from a search of the position after it.
//! The move played and the best move found at the position before it are valued alike, each
//! by a search of the position it leads to with the same budget and no tree kept from an
//! earlier search, so that neither is favoured; the loss is the difference, never below 0
//! (a played move valued above the search's best is the search's noise, not a gain). Near
//! the end the search's endgame solver values positions exactly. The thresholds and the
//! noise they stand above are in docs/strength.md, "Reviews".

use rumis_core::{Colour, Game, Move};

use crate::mcts::{Mcts, MctsConfig};
use crate::reward::rewards;

/// The loss of win estimate (0..1) from which a move is marked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    pub inaccuracy: f32,
    pub mistake: f32,
    pub blunder: f32,
}

/// Measured against the noise of the estimate at level 8's budget (docs/strength.md,
/// "Reviews"): a move the search itself would play is marked an inaccuracy in fewer than
/// one review in twenty.
pub const THRESHOLDS: Thresholds = Thresholds {
    inaccuracy: 0.06,
    mistake: 0.12,
    blunder: 0.24,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

impl Thresholds {
    pub fn mark(&self, loss: f32) -> Option<Mark> {
        if loss >= self.blunder {
            Some(Mark::Blunder)
        } else if loss >= self.mistake {
            Some(Mark::Mistake)
        } else if loss >= self.inaccuracy {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

/// One move of the game, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewedMove {
    /// 0-based: move `index + 1` of the game.
    pub index: usize,
    pub colour: Colour,
    pub played: Move,
    /// The best placement the search found at the position before the move.
    pub best: Move,
    /// The mover's win estimate after the move played and after the best move.
    pub played_value: f32,
    pub best_value: f32,
    /// `best_value - played_value`, at least 0.
    pub loss: f32,
    pub mark: Option<Mark>,
}

/// What a colour's moves cost it over the game.
#[derive(Clone, Debug, PartialEq)]
pub struct ColourSummary {
    pub colour: Colour,
    pub moves: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// The mean loss of its moves (0..1).
    pub average_loss: f32,
    /// 0..100: the mean of its moves' accuracies, each 100 for no loss and falling
    /// exponentially with the loss in percentage points (the curve lichess uses for its
    /// accuracy: about 65 at a 10-point loss, 39 at 20).
    pub accuracy: f32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// Per position, from the start to after the last move: each colour's win estimate
    /// (the graph), as `analysis::analyse` gives.
    pub estimates: Vec<[f32; 4]>,
    pub moves: Vec<ReviewedMove>,
    /// By the order of play.
    pub colours: Vec<ColourSummary>,
}

/// A move's accuracy (0..100) from its loss of win estimate (0..1).
pub fn move_accuracy(loss: f32) -> f32 {
    (103.1668 * crate::math::exp(-0.04354 * loss.max(0.0) * 100.0) - 3.1669).clamp(0.0, 100.0)
}

/// The search of every position of a review as the server and the browser make it:
/// `simulations` each, on one thread, from seed 1, so that a review is the same wherever
/// it is computed.
pub fn search_config(simulations: u64) -> MctsConfig {
    MctsConfig {
        simulations: Some(simulations),
        two_player_simulations: None,
        time: None,
        threads: 1,
        seed: 1,
        label: "review".into(),
        ..MctsConfig::default()
    }
}

/// Reviews every move of `game` with searches by `config` (its trees never kept between
/// searches); `progress(done, total)` is called after each search. An error only if a move
/// has no mover. The same as [`Reviewer`]'s steps run to the end.
pub fn review(
    game: &Game,
    config: &MctsConfig,
    thresholds: &Thresholds,
    mut progress: impl FnMut(usize, usize),
) -> Result<Review, String> {
    let mut reviewer = Reviewer::new(game, config, thresholds)?;
    while reviewer.step()? {
        let (done, total) = reviewer.progress();
        progress(done, total);
    }
    let (done, total) = reviewer.progress();
    progress(done, total);
    Ok(reviewer.finish())
}

/// A review one search at a time, so that a caller can give each search its own thread
/// and turn (the server's AI queue) and report progress between them. Every position is
/// searched once (the one after a move is the one before the next), then the position
/// after the best move wherever the best was not played, in the order of the moves.
pub struct Reviewer {
    game: Game,
    mcts: Mcts,
    thresholds: Thresholds,
    estimates: Vec<[f32; 4]>,
    bests: Vec<Option<Move>>,
    moves: Vec<ReviewedMove>,
    searched: usize,
    total: usize,
}

impl Reviewer {
    /// A review of `game` not started. An error only if a move has no mover.
    pub fn new(game: &Game, config: &MctsConfig, thresholds: &Thresholds) -> Result<Reviewer, String> {
        let n = game.moves().len();
        if (0..n).any(|i| game.mover(i).is_none()) {
            return Err("a move without a mover".into());
        }
        Ok(Reviewer {
            game: game.clone(),
            mcts: Mcts::new(MctsConfig {
                reuse: false,
                ..config.clone()
            }),
            thresholds: *thresholds,
            estimates: Vec::with_capacity(n + 1),
            bests: Vec::with_capacity(n + 1),
            moves: Vec::with_capacity(n),
            searched: 0,
            total: n + 1,
        })
    }

    /// Searches done, and searches known to be needed (the count grows by one for each
    /// move whose best was not the move played, as the second pass finds them).
    pub fn progress(&self) -> (usize, usize) {
        (self.searched, self.total)
    }

    /// Does the next search (or the bookkeeping of moves that need none); `false` once the
    /// review is complete.
    pub fn step(&mut self) -> Result<bool, String> {
        let n = self.game.moves().len();
        let site = self.game.site_arc().clone();
        if self.estimates.len() <= n {
            let then = self.game.after(self.estimates.len());
            self.searched += 1;
            match self.mcts.search(&then) {
                Some(r) => {
                    self.estimates.push(r.estimates);
                    self.bests.push(Some(r.best));
                }
                None => {
                    self.estimates.push(rewards(&site, then.position()));
                    self.bests.push(None);
                }
            }
            return Ok(true);
        }
        // The second pass: moves up to the next one whose best was not played.
        while self.moves.len() < n {
            let i = self.moves.len();
            let played = self.game.moves()[i];
            let colour = self.game.mover(i).ok_or("a move without a mover")?;
            let c = colour.index();
            let played_value = self.estimates[i + 1][c];
            let best = self.bests[i].unwrap_or(played);
            let mut searched = false;
            let best_value = if best == played {
                played_value
            } else {
                self.total += 1;
                self.searched += 1;
                searched = true;
                let mut after = self.game.after(i);
                after
                    .play(best)
                    .map_err(|e| format!("move {}: the search's best: {e}", i + 1))?;
                match self.mcts.search(&after) {
                    Some(r) => r.estimates[c],
                    None => rewards(&site, after.position())[c],
                }
            };
            let loss = (best_value - played_value).max(0.0);
            self.moves.push(ReviewedMove {
                index: i,
                colour,
                played,
                best,
                played_value,
                best_value,
                loss,
                mark: self.thresholds.mark(loss),
            });
            if searched {
                return Ok(self.moves.len() < n);
            }
        }
        Ok(false)
    }

    /// The review, once [`Reviewer::step`] said it is complete (before, the moves not yet
    /// reviewed are missing).
    pub fn finish(self) -> Review {
        let colours = self
            .game
            .site()
            .order()
            .iter()
            .map(|&colour| summary(colour, &self.moves))
            .collect();
        Review {
            estimates: self.estimates,
            moves: self.moves,
            colours,
        }
    }
}

/// A marked move searched again with a larger budget: the mover's value after the move
/// played and after the review's best, each from a fresh search of the position it leads
/// to (as the review values them), so that the mark can be checked against a stronger
/// search (docs/strength.md, "Reviews": the marks checked at 10 times the budget).
#[derive(Clone, Debug, PartialEq)]
pub struct MarkCheck {
    pub index: usize,
    pub mark: Mark,
    pub loss: f32,
    pub played_value: f32,
    pub best_value: f32,
}

impl MarkCheck {
    /// Whether the stronger search agrees that the best shown is better than the move
    /// played (strictly: equal values, as when the solver finds both end alike, disagree).
    pub fn agrees(&self) -> bool {
        self.best_value > self.played_value
    }
}

/// Every marked move of `review` (a review of `game`) valued again by searches of
/// `config` (no tree kept between them), one per move played and one per best shown.
pub fn check_marks(game: &Game, review: &Review, config: &MctsConfig) -> Result<Vec<MarkCheck>, String> {
    let mut mcts = Mcts::new(MctsConfig {
        reuse: false,
        ..config.clone()
    });
    let site = game.site_arc().clone();
    let mut value_after = |i: usize, m: Move, c: usize| -> Result<f32, String> {
        let mut after = game.after(i);
        after.play(m).map_err(|e| format!("move {}: {e}", i + 1))?;
        Ok(match mcts.search(&after) {
            Some(r) => r.estimates[c],
            None => rewards(&site, after.position())[c],
        })
    };
    let mut out = Vec::new();
    for m in &review.moves {
        let Some(mark) = m.mark else { continue };
        let c = m.colour.index();
        let played_value = value_after(m.index, m.played, c)?;
        let best_value = value_after(m.index, m.best, c)?;
        out.push(MarkCheck {
            index: m.index,
            mark,
            loss: m.loss,
            played_value,
            best_value,
        });
    }
    Ok(out)
}

fn summary(colour: Colour, moves: &[ReviewedMove]) -> ColourSummary {
    let mine: Vec<&ReviewedMove> = moves.iter().filter(|m| m.colour == colour).collect();
    let count = |mark| mine.iter().filter(|m| m.mark == Some(mark)).count();
    let n = mine.len().max(1) as f32;
    ColourSummary {
        colour,
        moves: mine.len(),
        inaccuracies: count(Mark::Inaccuracy),
        mistakes: count(Mark::Mistake),
        blunders: count(Mark::Blunder),
        average_loss: mine.iter().map(|m| m.loss).sum::<f32>() / n,
        accuracy: if mine.is_empty() {
            100.0
        } else {
            mine.iter().map(|m| move_accuracy(m.loss)).sum::<f32>() / n
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rumis_core::{Board, Rng, Site, Variant};
    use std::sync::Arc;

    #[test]
    fn marks_by_the_thresholds() {
        let t = THRESHOLDS;
        assert_eq!(t.mark(0.0), None);
        assert_eq!(t.mark(t.inaccuracy - 0.001), None);
        assert_eq!(t.mark(t.inaccuracy), Some(Mark::Inaccuracy));
        assert_eq!(t.mark(t.mistake), Some(Mark::Mistake));
        assert_eq!(t.mark(t.blunder + 0.3), Some(Mark::Blunder));
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!((60.0..70.0).contains(&move_accuracy(0.10)));
        assert!(move_accuracy(0.5) < 15.0 && move_accuracy(1.0) >= 0.0);
    }

    /// A random game reviewed: every move valued as the search of the position after it
    /// says; the search's own choice costs nothing; a random game's moves cost more than
    /// nothing in all.
    #[test]
    fn a_random_game_reviewed() {
        let board = Board::builtin("chullpa").unwrap().clone();
        let site = Arc::new(Site::new(board, 2, Variant::Standard, None).unwrap());
        let mut game = Game::new(site.clone());
        game.play_random(&mut Rng::new(4));
        let config = MctsConfig {
            simulations: Some(200),
            ..MctsConfig::default()
        };
        let mut calls = Vec::new();
        let r = review(&game, &config, &THRESHOLDS, |done, total| calls.push((done, total))).unwrap();
        let n = game.moves().len();
        assert_eq!((r.estimates.len(), r.moves.len()), (n + 1, n));
        let extra = r.moves.iter().filter(|m| m.best != m.played).count();
        assert_eq!(
            calls.last(),
            Some(&(n + 1 + extra, n + 1 + extra)),
            "progress to the end"
        );
        for m in &r.moves {
            assert_eq!(m.played_value, r.estimates[m.index + 1][m.colour.index()]);
            assert!(m.loss >= 0.0 && m.loss == (m.best_value - m.played_value).max(0.0));
            assert_eq!(m.mark, THRESHOLDS.mark(m.loss));
            if m.best == m.played {
                assert_eq!(m.loss, 0.0);
            }
        }
        assert!(r.moves.iter().map(|m| m.loss).sum::<f32>() > 0.0);
        assert_eq!(r.colours.len(), 2);
        for s in &r.colours {
            let mine: Vec<_> = r.moves.iter().filter(|m| m.colour == s.colour).collect();
            assert_eq!(s.moves, mine.len());
            let marked = mine.iter().filter(|m| m.mark.is_some()).count();
            assert_eq!(s.inaccuracies + s.mistakes + s.blunders, marked);
            assert!((0.0..=100.0).contains(&s.accuracy));
        }
        // The same configuration gives the same review.
        assert_eq!(review(&game, &config, &THRESHOLDS, |_, _| {}).unwrap(), r);
    }
}
