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
use crate::service::{now_ms, Games};
use crate::store::{RatingChange, SeatKind, SeatPlayer, Store};
use crate::wire::GameEvent;

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
                    self.rate_in(&mut w.tx, &loaded, &seats).await?;
                    let events = vec![event(idr, None, GameEvent::Rated { game: idr.clone() })];
                    self.publish_in(&mut w.tx, &events).await?;
                    w.tx.commit().await?;
                    Ok(Some(events))
                })
                .await?;
            if let Some(events) = r {
                self.committed_for(&id, events, None);
                rated += 1;
            }
        }
        Ok(rated)
    }

    /// Counts a finished game's ratings: the places of its result (`Loaded::outcome`; a
    /// two-player four-colour game's places are its players'), forfeits last; AI seats take
    /// part at their level's fixed rating. A seat the AI took over is its player's: rated (last) at the player's
    /// rating, not the AI's.
    async fn rate_in(
        &self,
        conn: &mut sqlx::AnyConnection,
        loaded: &Loaded,
        seats: &[SeatPlayer],
    ) -> Result<(), GameError> {
        let outcome = loaded.outcome();
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
        let after = ratings::update(&before, &places);
        let now = now_ms();
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
        Ok(())
    }
}
