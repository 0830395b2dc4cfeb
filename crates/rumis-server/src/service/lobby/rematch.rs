//! Rematches: the same setup with each seat's occupant moved one seat on, offered to the
//! same players, who accept (take their seat) or decline (the rematch is called off).

use std::sync::Arc;

use super::{lobby_changed, Seek, Slot};
use crate::error::GameError;
use crate::game::{event, hash_token, replay};
use crate::service::Games;
use crate::store::{CalledOff, GameStatus, LobbyRow, SeatKind, Store};
use rumis_wire::{self as wire, GameEvent};

impl Games {
    /// A rematch of a lobby game that ended: the first player to ask makes it (same setup,
    /// each seat's occupant moved one seat on, the AI seats too), sitting down at once; the
    /// other players' seats are offered to them, and asking again accepts (takes that
    /// seat). It starts when every player has accepted. Runs in a task of its own, like
    /// every write.
    pub async fn rematch(
        self: &Arc<Self>,
        id: &str,
        key: Option<String>,
        creator: &str,
    ) -> Result<wire::Seated, GameError> {
        let (id, creator) = (id.to_string(), creator.to_string());
        self.detached("rematch", move |this| async move {
            this.write_rematch(&id, key, &creator).await
        })
        .await
    }

    async fn write_rematch(
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
                if !Store::lock_game(&mut w.tx, idr, self.now_ms()).await? {
                    return Err(GameError::UnknownGame(idr.into()));
                }
                let me = this.player_in(&mut w.tx, keyref).await?;
                let lobby = Store::lobby_row_in(&mut w.tx, idr)
                    .await?
                    .ok_or_else(|| GameError::NoRematch("only games from the lobby have rematches".into()))?;
                let stored = Store::read_in(&mut w.tx, idr)
                    .await?
                    .ok_or_else(|| GameError::UnknownGame(idr.into()))?;
                if stored.status.is_live() {
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
                    // The asker sits down even where the AI took their seat over (they left
                    // and came back); another player whose seat the AI took over is not
                    // asked back: the AI keeps the seat, as it kept it in the game.
                    slots[(s.seat + 1) % n] = match (&s.kind, &s.player) {
                        (_, Some(p)) if s.taken && p.id == me.id => Slot::Me,
                        (SeatKind::Ai, _) => Slot::Ai(s.level.clamp(1, 9)),
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
                    created: self.now_ms(),
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
                self.committed(events, ai);
                Ok(seated)
            }
            Err(rematch) => self.join(&rematch, key, None).await,
        }
    }

    /// A player offered a seat in the rematch of game `id` declines it: the rematch is
    /// called off (aborted: no result, never rated) and the finished game offers none any
    /// more, so that anyone may ask for another. Only a player whose seat in it is offered
    /// and not yet taken may; one who accepted aborts it instead.
    pub async fn decline_rematch(
        self: &Arc<Self>,
        id: &str,
        key: Option<String>,
    ) -> Result<wire::DeclineAck, GameError> {
        let id = id.to_string();
        self.detached("decline", move |this| async move {
            let _old = this.lock_game(&id).await;
            // The rematch's id, read first so that its lock is taken in this process too
            // (its events stay in order); the write checks it again.
            let rematch = this.store.lobby_row(&id).await?.map(|l| l.rematch).unwrap_or_default();
            let _new = if rematch.is_empty() {
                None
            } else {
                Some(this.lock_game(&rematch).await)
            };
            let (ack, events) = this
                .retrying(|left| {
                    let (this, id, key) = (&this, &id, key.as_deref());
                    async move { this.try_decline(id, key, left).await }
                })
                .await?;
            this.committed(events, None);
            Ok(ack)
        })
        .await
    }

    async fn try_decline(
        &self,
        id: &str,
        key: Option<&str>,
        left: std::time::Duration,
    ) -> Result<(wire::DeclineAck, Vec<crate::events::Event>), GameError> {
        let mut w = self.store.begin_write(left).await?;
        let now = self.now_ms();
        if !Store::lock_game(&mut w.tx, id, now).await? {
            return Err(GameError::UnknownGame(id.into()));
        }
        let me = self.player_in(&mut w.tx, key).await?;
        let lobby = Store::lobby_row_in(&mut w.tx, id)
            .await?
            .ok_or_else(|| GameError::NoRematch("only games from the lobby have rematches".into()))?;
        if lobby.rematch.is_empty() {
            return Err(GameError::NoRematch("no rematch is offered after this game".into()));
        }
        let re = lobby.rematch.clone();
        if !Store::lock_game(&mut w.tx, &re, now).await? {
            return Err(GameError::NoRematch("no rematch is offered after this game".into()));
        }
        let stored = Store::read_in(&mut w.tx, &re)
            .await?
            .ok_or_else(|| GameError::NoRematch("no rematch is offered after this game".into()))?;
        if stored.status != GameStatus::Waiting {
            return Err(GameError::NoRematch(format!(
                "the rematch is no longer waiting for its players (it is {})",
                stored.status
            )));
        }
        let seats = Store::seat_players_in(&mut w.tx, &re).await?;
        let mine = seats
            .iter()
            .find(|s| s.player.as_ref().is_some_and(|p| p.id == me.id))
            .ok_or_else(|| GameError::NoRematch("the rematch offers you no seat".into()))?;
        if mine.taken {
            return Err(GameError::NoRematch(
                "you took your seat in the rematch; abort it to call it off".into(),
            ));
        }
        let loaded = replay(stored)?;
        super::ending::call_off_in(&mut w.tx, &loaded, CalledOff::RematchDeclined).await?;
        Store::set_rematch_in(&mut w.tx, id, "").await?;
        let declined = GameEvent::RematchDeclined {
            game: id.into(),
            rematch: re.clone(),
            by: me.id.clone(),
        };
        let events = vec![
            event(id, None, declined.clone()),
            event(&re, None, declined),
            event(&re, None, GameEvent::Aborted { game: re.clone() }),
            lobby_changed(),
        ];
        self.publish_in(&mut w.tx, &events).await?;
        w.tx.commit().await?;
        Ok((
            wire::DeclineAck {
                game: id.into(),
                rematch: re,
                status: GameStatus::Aborted.to_string(),
            },
            events,
        ))
    }
}
