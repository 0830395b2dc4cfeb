//! Counting a finished rated game: the places of its result as the game page states it
//! (`Loaded::outcome`: the core ranks by score, forfeits last — a seat that resigned, ran
//! out of time, or walked away and left its colours to the AI: rules §5.1), the arithmetic
//! in `ratings.rs`.
//!
//! A seat the AI took over ranks last (issue #17: "timeout and resign count as last
//! place"; Board Game Arena ranks such a "zombie" seat last too): the player walked away,
//! and the AI's play in the seat afterwards is not theirs — else leaving a lost game would
//! cost nothing, and a seat handed to a strong AI could even gain rating for its absent
//! player.

use std::sync::Arc;

use crate::error::GameError;
use crate::game::{event, replay, Loaded};
use crate::ratings;
use crate::service::Games;
use crate::store::{RatingChange, SeatKind, SeatPlayer, Store};
use rumis_wire::GameEvent;

impl Games {
    /// Finished rated games not counted yet: each claimed (pending → done) and counted in
    /// one write. Returns how many.
    pub(super) async fn rate_due(self: &Arc<Self>) -> Result<usize, GameError> {
        let mut rated = 0;
        for id in self.store.ratings_due(100).await? {
            let idr = &id;
            let r = self
                .retrying(|left| async move {
                    let mut w = self.store.begin_write(left).await?;
                    // The claim: only one instance moves it from pending to done.
                    if !Store::set_rating_state_in(&mut w.tx, idr, "pending", "done").await? {
                        return Ok(None);
                    }
                    let Some(stored) = Store::read_in(&mut w.tx, idr).await? else {
                        return Ok(None);
                    };
                    let loaded = replay(stored)?;
                    let seats = Store::seat_players_in(&mut w.tx, idr).await?;
                    if let Some(void) = self.rate_in(&mut w.tx, &loaded, &seats).await? {
                        // Finished, but not counted: the page says why (`void_*`).
                        Store::set_rating_state_in(&mut w.tx, idr, "done", void.state()).await?;
                    }
                    let events = vec![event(idr, None, GameEvent::Rated { game: idr.clone() })];
                    self.publish_in(&mut w.tx, &events).await?;
                    w.tx.commit().await?;
                    Ok(Some(events))
                })
                .await?;
            if let Some(events) = r {
                self.committed(events, None);
                rated += 1;
            }
        }
        Ok(rated)
    }

    /// Counts a finished game's ratings: the places of its result (`Loaded::outcome`; a
    /// two-player four-colour game's places are its players'), forfeits last; AI seats take
    /// part at their level's fixed rating. A seat the AI took over is its player's: rated (last) at the player's
    /// rating, not the AI's.
    ///
    /// A game that was not really played between its players is not counted ([`Void`]):
    /// answers which rule left it out, having written nothing.
    async fn rate_in(
        &self,
        conn: &mut sqlx::AnyConnection,
        loaded: &Loaded,
        seats: &[SeatPlayer],
    ) -> Result<Option<Void>, GameError> {
        let outcome = loaded.outcome();
        if !outcome.forfeited.is_empty() && seats_short_of_moves(loaded, seats) {
            return Ok(Some(Void::TooFewMoves));
        }
        let now = self.now_ms();
        let people: Vec<&str> = seats
            .iter()
            .filter(|s| s.taken)
            .filter_map(|s| s.player.as_ref().map(|p| p.id.as_str()))
            .collect();
        for (i, a) in people.iter().enumerate() {
            for b in &people[i + 1..] {
                let together = Store::rated_together_in(conn, a, b, now - DAY_MS).await?;
                if together >= RATED_PER_PAIR_PER_DAY {
                    return Ok(Some(Void::SamePairToday));
                }
            }
        }
        if outcome.places.len() != seats.len() {
            return Err(GameError::internal(format!(
                "game {}: {} player scores for {} seats",
                loaded.id,
                outcome.places.len(),
                seats.len()
            )));
        }
        let places = outcome.places;
        let before: Vec<(f64, f64)> = seats
            .iter()
            .map(|s| match (s.taken, &s.kind, &s.player) {
                (true, _, Some(p)) => (p.rating, p.uncertainty),
                (false, SeatKind::Ai, _) => ratings::ai_rating(s.level),
                // A guest plays as a new player, and keeps nothing.
                _ => ratings::START,
            })
            .collect();
        let counted = ratings::update(&before, &places);
        // Damped against brand-new keys (`ratings::damping`): a seat's change is scaled by
        // how established its human opponents are, so that keys made to lose do not lift
        // anyone far.
        let games_of = |s: &SeatPlayer| match (&s.kind, &s.player) {
            (SeatKind::Ai, None) => None,
            (_, Some(p)) => Some(p.rated_games),
            (_, None) => Some(0),
        };
        let after: Vec<(f64, f64)> = (0..seats.len())
            .map(|i| {
                let opponents: Vec<Option<i64>> = (0..seats.len())
                    .filter(|&j| j != i)
                    .map(|j| games_of(&seats[j]))
                    .collect();
                let d = ratings::damping(&opponents);
                (before[i].0 + (counted[i].0 - before[i].0) * d, counted[i].1)
            })
            .collect();
        for (i, s) in seats.iter().enumerate() {
            // A player's seat, whoever played it at the end (the AI, after a take-over).
            let Some(p) = s.player.as_ref().filter(|_| s.taken) else {
                continue;
            };
            Store::set_player_rating_in(conn, &p.id, after[i].0, after[i].1).await?;
            Store::insert_rating_change_in(
                conn,
                &RatingChange {
                    game: loaded.id.clone(),
                    seat: s.seat,
                    player: p.id.clone(),
                    place: places[i] as i64,
                    before: before[i],
                    after: after[i],
                    created: now,
                },
            )
            .await?;
        }
        Ok(None)
    }
}

/// Own moves a human seat must have made for a game that ended in a forfeit to be rated:
/// fewer, and the game was not played (a key joining to resign at once, a seat left before
/// it began).
pub const RATED_MIN_MOVES: usize = 2;

/// Rated games the same two players may have counted in a day; more are played unrated.
pub const RATED_PER_PAIR_PER_DAY: i64 = 3;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// Why a finished rated game was not counted (stored as its `rating_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Void {
    /// It ended in a forfeit before every player had made [`RATED_MIN_MOVES`] moves.
    TooFewMoves,
    /// Two of its players had counted [`RATED_PER_PAIR_PER_DAY`] games together that day.
    SamePairToday,
}

impl Void {
    pub(crate) fn state(self) -> &'static str {
        match self {
            Void::TooFewMoves => "void_moves",
            Void::SamePairToday => "void_pair",
        }
    }
}

/// Whether a human seat (or one its player left to the AI) made fewer than
/// [`RATED_MIN_MOVES`] moves of its own.
fn seats_short_of_moves(loaded: &Loaded, seats: &[SeatPlayer]) -> bool {
    let game = &loaded.game;
    seats.iter().filter(|s| s.taken).any(|s| {
        let own = (0..game.moves().len())
            .filter(|&i| {
                game.mover(i)
                    .and_then(|c| loaded.seat_of(c))
                    .is_some_and(|x| x.seat == s.seat)
            })
            .count();
        own < RATED_MIN_MOVES
    })
}
