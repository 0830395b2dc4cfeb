//! Rematches: the same setup with each seat's occupant moved one seat on, offered to the
//! same players.

use std::sync::Arc;

use super::{lobby_changed, Seek, Slot};
use crate::error::GameError;
use crate::game::{event, hash_token};
use crate::service::{now_ms, Games};
use crate::store::{LobbyRow, SeatKind, Store};
use crate::wire::{self, GameEvent};

impl Games {
    /// A rematch of a lobby game that ended: the first player to ask makes it (same setup,
    /// each seat's occupant moved one seat on, the AI seats too), sitting down at once; the
    /// other players' seats are offered to them, and asking again accepts (takes that
    /// seat). It starts when every player has accepted.
    pub async fn rematch(
        self: &Arc<Self>,
        id: &str,
        key: Option<String>,
        creator: &str,
    ) -> Result<wire::Seated, GameError> {
        let keyref = key.as_deref();
        let (this, idr) = (self, id);
        let made = self
            .retrying(|left| async move {
                let mut w = this.store.begin_write(left).await?;
                if !Store::lock_game(&mut w.tx, idr, now_ms()).await? {
                    return Err(GameError::UnknownGame(idr.into()));
                }
                let me = Games::player_in(&mut w.tx, keyref).await?;
                let lobby = Store::lobby_row_in(&mut w.tx, idr)
                    .await?
                    .ok_or_else(|| GameError::NoRematch("only games from the lobby have rematches".into()))?;
                let stored = Store::read_in(&mut w.tx, idr)
                    .await?
                    .ok_or_else(|| GameError::UnknownGame(idr.into()))?;
                if stored.status == "waiting" || stored.status == "open" {
                    return Err(GameError::NoRematch("the game is not over".into()));
                }
                let seats = Store::seat_players_in(&mut w.tx, idr).await?;
                if !seats
                    .iter()
                    .any(|s| s.taken && s.player.as_ref().is_some_and(|p| p.id == me.id))
                {
                    return Err(GameError::NoRematch(
                        "only the game's players may ask for its rematch".into(),
                    ));
                }
                if !lobby.rematch.is_empty() {
                    // Offered already: asking again accepts it (below, in its own write).
                    return Ok(Err(lobby.rematch));
                }
                let n = seats.len();
                let mut slots = vec![Slot::Open; n];
                for s in &seats {
                    slots[(s.seat + 1) % n] = match (&s.kind, &s.player) {
                        (SeatKind::Ai, _) => Slot::Ai(s.level.clamp(1, 9)),
                        (_, Some(p)) if p.id == me.id => Slot::Me,
                        (_, Some(p)) if s.taken => Slot::Offered(p.id.clone()),
                        _ => Slot::Open,
                    };
                }
                let clock = Store::read_clock_in(&mut w.tx, idr).await?.map(|c| c.rule);
                let seek = Seek {
                    setup: stored.setup.clone(),
                    slots,
                    rated: lobby.rated,
                    clock,
                };
                let row = LobbyRow {
                    rated: lobby.rated,
                    rematch_of: idr.to_string(),
                    rating_state: if lobby.rated { "pending" } else { "none" }.into(),
                    created_by: me.id.clone(),
                    created: now_ms(),
                    ..Default::default()
                };
                let hash = hash_token(keyref.unwrap_or_default());
                let (new, seat, ai) = this
                    .insert_lobby_game(&mut w.tx, &me, &hash, &seek, row, creator)
                    .await?;
                Store::set_rematch_in(&mut w.tx, idr, &new).await?;
                let events = vec![
                    event(
                        idr,
                        None,
                        GameEvent::RematchOffered {
                            game: idr.into(),
                            rematch: new.clone(),
                            by: me.id.clone(),
                        },
                    ),
                    lobby_changed(),
                ];
                this.publish_in(&mut w.tx, &events).await?;
                w.tx.commit().await?;
                Ok(Ok((this.seated(&new, &seek, seat, ai.is_some()), events, ai)))
            })
            .await?;
        match made {
            Ok((seated, events, ai)) => {
                self.committed_for(&seated.game, events, ai);
                Ok(seated)
            }
            Err(rematch) => self.join(&rematch, key, None).await,
        }
    }
}
