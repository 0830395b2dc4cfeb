//! The game's puzzles without a server: the static app ships the puzzle files
//! (`training.json`, web/scripts/offline.mjs) and asks here which to give, to draw one, and
//! to judge an answer, with the player's puzzle rating kept in the browser. Every decision
//! is the server's own code (`rumis_ai::puzzles`, `rumis_wire::training`): the same choice,
//! judgement, words and Glicko-2 update.

use std::sync::Arc;

use rumis_ai::puzzles::judge::{judge, AttemptError};
use rumis_ai::puzzles::pick;
use rumis_ai::puzzles::rating::Rating;
use rumis_ai::puzzles::{Puzzle, PuzzleSet};
use rumis_core::Site;
use rumis_wire as wire;

use crate::protocol::{TrainingAttemptRequest, TrainingPickAnswer, TrainingPickRequest, TrainingPuzzleRequest};
use crate::{fail, Failure};

fn site(board: &str, players: usize) -> Result<Arc<Site>, Failure> {
    PuzzleSet {
        board: board.to_string(),
        players,
        variant: "standard".into(),
        puzzles: Vec::new(),
    }
    .site()
    .map_err(|e| fail("bad_setup", e))
}

fn rating_of(r: &wire::TrainingRating) -> Result<Rating, Failure> {
    let r = Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    };
    if r.is_valid() {
        Ok(r)
    } else {
        Err(fail("bad_request", "the rating's figures are not a rating"))
    }
}

fn start_of(p: &Puzzle) -> Rating {
    Rating {
        rating: p.rating,
        deviation: p.deviation,
        volatility: p.volatility,
    }
}

pub fn pick(r: &TrainingPickRequest) -> Result<TrainingPickAnswer, Failure> {
    Ok(match r.day {
        Some(day) => TrainingPickAnswer {
            id: pick::daily(day, &r.candidates).map(|c| c.id.clone()),
            date: Some(pick::date_of(day)),
        },
        None => TrainingPickAnswer {
            id: pick::next(
                &r.candidates,
                r.rating.unwrap_or(Rating::NEW.rating),
                r.tried.as_deref().unwrap_or(&[]),
                &r.filter.clone().unwrap_or_default(),
                r.seed.unwrap_or(0),
            )
            .map(|c| c.id.clone()),
            date: None,
        },
    })
}

pub fn puzzle(r: &TrainingPuzzleRequest) -> Result<wire::TrainingPuzzle, Failure> {
    let site = site(&r.board, r.players)?;
    let (game, _) = r.puzzle.position(&site).map_err(|e| fail("bad_request", e))?;
    Ok(wire::training::puzzle(
        &r.puzzle,
        &game,
        r.puzzle.rating,
        r.daily.clone(),
        r.you.clone(),
        r.tried.unwrap_or(false),
    ))
}

pub fn attempt(r: &TrainingAttemptRequest) -> Result<wire::TrainingResult, Failure> {
    let site = site(&r.board, r.players)?;
    let j = judge(&site, &r.puzzle, &r.placement).map_err(|e| match e {
        AttemptError::Malformed(s) => fail("malformed_move", s),
        AttemptError::Illegal(s) => fail("illegal_move", s),
        AttemptError::Puzzle(s) => fail("bad_request", s),
    })?;
    let puzzle = start_of(&r.puzzle);
    let Some(you) = &r.you else {
        return Ok(wire::training::result(&r.puzzle, &j, false, None, (puzzle, puzzle)));
    };
    let before = rating_of(you)?;
    let rated = !r.tried.unwrap_or(false);
    let (after, puzzle_after) = wire::training::rate(before, puzzle, j.solved, rated);
    let attempts = you.attempts + i64::from(rated);
    Ok(wire::training::result(
        &r.puzzle,
        &j,
        rated,
        Some((before, after, attempts)),
        (puzzle, puzzle_after),
    ))
}
