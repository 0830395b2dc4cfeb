//! A game's review as the API and the browser's engine answer it: every move beside the
//! best placement a search found (with the cubes of both, for the board's ghost), the
//! mover's estimates after each, the mark, and per colour a summary; with the feature
//! `review`, the answer built from `rumis_ai::review` (the one place both the server and
//! the engine build it).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::Placement;

/// A move reviewed.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct ReviewedMove {
    /// 1-based.
    pub number: usize,
    #[cfg_attr(feature = "contract", ts(type = "Colour"))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Colour))]
    pub colour: String,
    pub played: Placement,
    /// The best placement the search found at the position before the move (the move
    /// played when the search chose it).
    pub best: Placement,
    /// The mover's win estimate (0..1) after the move played and after the best.
    #[cfg_attr(feature = "contract", schema(minimum = 0, maximum = 1))]
    pub played_value: f64,
    #[cfg_attr(feature = "contract", schema(minimum = 0, maximum = 1))]
    pub best_value: f64,
    /// `best_value - played_value`, at least 0.
    #[cfg_attr(feature = "contract", schema(minimum = 0, maximum = 1))]
    pub loss: f64,
    /// `inaccuracy`, `mistake` or `blunder`; none when the loss is below the thresholds.
    #[cfg_attr(feature = "contract", ts(type = "\"inaccuracy\" | \"mistake\" | \"blunder\" | null"))]
    #[cfg_attr(feature = "contract", schema(value_type = Option<crate::contract::ReviewMark>))]
    pub mark: Option<String>,
}

/// What a colour's moves cost it over the game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct ReviewSummary {
    #[cfg_attr(feature = "contract", ts(type = "Colour"))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Colour))]
    pub colour: String,
    pub moves: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// The mean loss of its moves (0..1).
    pub average_loss: f64,
    /// 0..100.
    pub accuracy: f64,
}

/// The losses (0..1) from which a move is marked.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct ReviewThresholds {
    pub inaccuracy: f64,
    pub mistake: f64,
    pub blunder: f64,
}

/// A finished review: the engine's `review` answer, and the `review` of the server's.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct GameReview {
    #[cfg_attr(feature = "contract", ts(type = "Array<Colour>"))]
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::Colour>))]
    pub colours: Vec<String>,
    pub moves_played: usize,
    /// Simulations per position searched.
    pub simulations: u64,
    /// Per position, from the start to after the last move, each colour's win estimate
    /// (the graph).
    pub estimates: Vec<BTreeMap<String, f64>>,
    pub moves: Vec<ReviewedMove>,
    /// By the order of play.
    pub summaries: Vec<ReviewSummary>,
    pub thresholds: ReviewThresholds,
}

/// `200` (done) or `202` (under way) to `POST` and `GET /games/{id}/review`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct ReviewProgress {
    pub game: String,
    /// `queued` (waiting for the AI's threads), `running` or `done`.
    #[cfg_attr(feature = "contract", ts(type = "\"queued\" | \"running\" | \"done\""))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::ReviewStatus))]
    pub status: String,
    /// Searches done and searches known to be needed so far (the count grows by one for
    /// each move whose best was not the move played).
    pub done: usize,
    pub total: usize,
    pub simulations: u64,
    /// Once `done`.
    pub review: Option<GameReview>,
}

#[cfg(feature = "review")]
mod build {
    use rumis_ai::review::{Review, Thresholds};
    use rumis_ai::MctsConfig;
    use rumis_core::Game;

    use super::*;
    use crate::boards::placement_on;

    /// Four decimals are plenty for a win estimate.
    fn round(v: f32) -> f64 {
        (v as f64 * 10_000.0).round() / 10_000.0
    }

    /// The search of every position of a review (`rumis_ai::review::search_config`).
    pub fn config(simulations: u64) -> MctsConfig {
        rumis_ai::review::search_config(simulations)
    }

    /// The answer for `game`'s review `r`, made with `simulations` per position.
    pub fn answer(game: &Game, r: &Review, simulations: u64, t: &Thresholds) -> GameReview {
        let order = game.site().order();
        let moves = r
            .moves
            .iter()
            .map(|m| {
                let before = game.after(m.index);
                ReviewedMove {
                    number: m.index + 1,
                    colour: m.colour.to_string(),
                    played: placement_on(before.site(), before.position(), m.played),
                    best: placement_on(before.site(), before.position(), m.best),
                    played_value: round(m.played_value),
                    best_value: round(m.best_value),
                    loss: round(m.loss),
                    mark: m.mark.map(|k| k.name().to_string()),
                }
            })
            .collect();
        GameReview {
            colours: order.iter().map(|c| c.to_string()).collect(),
            moves_played: game.moves().len(),
            simulations,
            estimates: r
                .estimates
                .iter()
                .map(|e| order.iter().map(|c| (c.to_string(), round(e[c.index()]))).collect())
                .collect(),
            moves,
            summaries: r
                .colours
                .iter()
                .map(|c| ReviewSummary {
                    colour: c.colour.to_string(),
                    moves: c.moves,
                    inaccuracies: c.inaccuracies,
                    mistakes: c.mistakes,
                    blunders: c.blunders,
                    average_loss: round(c.average_loss),
                    accuracy: (c.accuracy as f64 * 10.0).round() / 10.0,
                })
                .collect(),
            thresholds: ReviewThresholds {
                inaccuracy: round(t.inaccuracy),
                mistake: round(t.mistake),
                blunder: round(t.blunder),
            },
        }
    }
}

#[cfg(feature = "review")]
pub use build::{answer, config};
