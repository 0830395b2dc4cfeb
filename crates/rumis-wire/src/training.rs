//! The game's puzzles as the API (`/api/v1/training/...`) and the browser's engine give
//! them: a puzzle to solve (its position drawn as a game's state, its placements for the
//! placer, not its answer), and an attempt's result (solved, or why the placement is worse
//! than the best, with the ratings' changes). Called "training" in routes and code, since
//! `puzzle` is the cube solitaire's ([`crate::puzzle`]); the app calls them puzzles. With
//! the feature `training`, the answers built from `rumis_ai::puzzles` (the one place both
//! the server and the engine build them).

use serde::{Deserialize, Serialize};

use crate::{Placement, Placements, State};

/// A puzzle to solve: `200` to `GET /training/daily`, `/training/next` and `/training/{id}`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct TrainingPuzzle {
    pub id: String,
    /// The scenario's name (`Chullpa`) and the player count.
    pub board: String,
    pub players: usize,
    /// The colour to move: the one whose placement is the answer.
    #[cfg_attr(feature = "contract", ts(type = "Colour"))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::Colour))]
    pub to_move: String,
    /// The puzzle's rating now (Glicko-2), rounded.
    pub rating: i64,
    /// `exact` (proved by the endgame solver) or `searched` (by two searches).
    #[cfg_attr(feature = "contract", ts(type = "\"exact\" | \"searched\""))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::ProofKind))]
    pub kind: String,
    /// The daily puzzle's day (`YYYY-MM-DD`, UTC), when this is the daily puzzle.
    pub daily: Option<String>,
    /// The position, as a game's state (its moves so far included).
    pub state: State,
    /// Every placement the colour to move may make: one of them is the answer.
    pub placements: Placements,
    /// The asking player's puzzle rating (a player's key sent; the engine: the one kept in
    /// this browser).
    pub you: Option<TrainingRating>,
    /// Whether the asking player has tried this puzzle before (then an attempt is not
    /// rated).
    pub tried: bool,
}

/// A puzzle rating (Glicko-2) and its attempts counted.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct TrainingRating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated attempts (a player's first attempt at each puzzle).
    pub attempts: i64,
}

/// A placement of an attempt's result and what it is worth to the colour to move.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct TrainingPlacement {
    pub placement: Placement,
    /// The mover's reward after it (0..1): under perfect play (`exact`), or a search's
    /// estimate (`searched`).
    #[cfg_attr(feature = "contract", schema(minimum = 0, maximum = 1))]
    pub value: f64,
    /// `exact`: the mover's place at the end under perfect play (1 = first), whether it is
    /// shared, and the score margin over the best other player (negative: behind).
    pub place: Option<usize>,
    pub shared: Option<bool>,
    pub margin: Option<i32>,
}

/// A rating before and after an attempt (the same when it was not rated).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct TrainingChange {
    pub before: f64,
    pub after: f64,
}

/// `200` to `POST /training/{id}/attempt`: the engine's `training_attempt` answer too.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct TrainingResult {
    pub puzzle: String,
    /// The placement given is the puzzle's best.
    pub solved: bool,
    pub played: TrainingPlacement,
    pub best: TrainingPlacement,
    /// `exact` or `searched`: how the values were found.
    #[cfg_attr(feature = "contract", ts(type = "\"exact\" | \"searched\""))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::ProofKind))]
    pub kind: String,
    /// The result in words (English); the app words it from the fields above.
    pub reason: String,
    /// The puzzle's themes (kebab case: `block-out`, `height-limit`, `last-stone`,
    /// `stay-in`, `keep-the-win`, `best-score`).
    pub themes: Vec<String>,
    /// Whether this attempt counted for the ratings: a player's first at this puzzle.
    pub rated: bool,
    /// The player's puzzle rating after it (none without a player's key), and its change.
    pub you: Option<TrainingRating>,
    pub change: Option<TrainingChange>,
    /// The puzzle's rating, before and after.
    pub puzzle_rating: TrainingChange,
}

#[cfg(feature = "training")]
mod build {
    use std::sync::Arc;

    use rumis_ai::puzzles::judge::{explain, Judgement, Valued};
    use rumis_ai::puzzles::rating::Rating;
    use rumis_ai::puzzles::{Proof, Puzzle};
    use rumis_core::{Game, Site};

    use super::*;
    use crate::boards::placement_on;
    use crate::game::{placements, state, Frame};

    /// Four decimals are plenty for a value.
    fn round(v: f32) -> f64 {
        (v as f64 * 10_000.0).round() / 10_000.0
    }

    /// The rating's answer: `attempts` counted.
    pub fn rating(r: Rating, attempts: i64) -> TrainingRating {
        TrainingRating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            attempts,
        }
    }

    /// A puzzle to solve at `game` (the puzzle's position), now rated `rating`.
    pub fn puzzle(
        p: &Puzzle,
        game: &Game,
        rating: f64,
        daily: Option<String>,
        you: Option<TrainingRating>,
        tried: bool,
    ) -> TrainingPuzzle {
        let site = game.site();
        TrainingPuzzle {
            id: p.id.clone(),
            board: site.board().name.clone(),
            players: site.players(),
            to_move: p.to_move.clone(),
            rating: rating.round() as i64,
            kind: p.proof.kind().to_string(),
            daily,
            state: state(
                game,
                None,
                Frame {
                    id: p.id.clone(),
                    status: "open".into(),
                    ..Frame::default()
                },
            ),
            placements: placements(game),
            you,
            tried,
        }
    }

    fn valued(site: &Arc<Site>, game: &Game, v: &Valued) -> TrainingPlacement {
        TrainingPlacement {
            placement: placement_on(site, game.position(), v.placement),
            value: round(v.value),
            place: v.standing.map(|s| s.place),
            shared: v.standing.map(|s| s.shared),
            margin: v.standing.map(|s| s.margin),
        }
    }

    /// The ratings an attempt leaves: (the player's after, the puzzle's after). Rated: the
    /// Glicko-2 update of both (`rumis_ai::puzzles::rating::attempt`); else unchanged.
    pub fn rate(player: Rating, puzzle: Rating, solved: bool, rated: bool) -> (Rating, Rating) {
        if rated {
            rumis_ai::puzzles::rating::attempt(player, puzzle, solved)
        } else {
            (player, puzzle)
        }
    }

    /// An attempt's answer. `player`: the player's rating before and after with its
    /// attempts counted after (none without a player); `puzzle`: the puzzle's before and
    /// after.
    pub fn result(
        p: &Puzzle,
        j: &Judgement,
        rated: bool,
        player: Option<(Rating, Rating, i64)>,
        puzzle: (Rating, Rating),
    ) -> TrainingResult {
        let site = j.game.site_arc();
        TrainingResult {
            puzzle: p.id.clone(),
            solved: j.solved,
            played: valued(site, &j.game, &j.played),
            best: valued(site, &j.game, &j.best),
            kind: match p.proof {
                Proof::Exact { .. } => "exact",
                Proof::Searched { .. } => "searched",
            }
            .to_string(),
            reason: explain(j),
            themes: p.themes.iter().map(|t| t.key().to_string()).collect(),
            rated,
            you: player.map(|(_, after, n)| rating(after, n)),
            change: player.map(|(before, after, _)| TrainingChange {
                before: before.rating,
                after: after.rating,
            }),
            puzzle_rating: TrainingChange {
                before: puzzle.0.rating,
                after: puzzle.1.rating,
            },
        }
    }
}

#[cfg(feature = "training")]
pub use build::{puzzle, rate, rating, result};
