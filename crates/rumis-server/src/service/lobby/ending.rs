//! Games called off before they are played out: aborted by a seated player before the
//! second move, expired while waiting for players when their creator is gone, or (in
//! `rematch.rs`) a rematch one of its players declined. Each ends without a result, is never
//! rated, and gets no quick-play AI fill ([`call_off_in`]).

use std::sync::Arc;

use super::lobby_changed;
use crate::error::GameError;
use crate::game::{authorise, event, replay, Loaded};
use crate::service::Games;
use crate::store::{CalledOff, GameStatus, Progress, Store};
use rumis_wire::{self as wire, GameEvent};

/// Calls a game off inside a write: status `aborted`, why kept, no rating, no AI fill.
pub(super) async fn call_off_in(
    conn: &mut sqlx::AnyConnection,
    loaded: &Loaded,
    why: CalledOff,
) -> Result<(), GameError> {
    Store::set_progress(
        conn,
        &loaded.id,
        &Progress {
            status: GameStatus::Aborted,
            to_move: loaded.game.to_move(),
            move_count: loaded.game.moves().len() as i64,
            ai_to_move: false,
        },
    )
    .await?;
    Store::set_called_off(conn, &loaded.id, why).await?;
    Store::set_rating_state_in(conn, &loaded.id, "pending", "none").await?;
    Store::clear_fill_in(conn, &loaded.id).await?;
    Ok(())
}

impl Games {
    /// Aborts a game before its second move: it ends without a result and is not rated.
    /// Any seated player (by key or seat token) may.
    pub async fn abort(self: &Arc<Self>, id: &str, token: Option<String>) -> Result<wire::AbortAck, GameError> {
        let id = id.to_string();
        self.detached("abort", move |this| async move {
            let _order = this.lock_game(&id).await;
            let (ack, events, _) = this
                .retrying(|left| {
                    let (this, id, token) = (&this, &id, token.as_deref());
                    async move {
                        let mut w = this.store.begin_write(left).await?;
                        if !Store::lock_game(&mut w.tx, id, this.now_ms()).await? {
                            return Err(GameError::UnknownGame(id.into()));
                        }
                        let stored = Store::read_in(&mut w.tx, id)
                            .await?
                            .ok_or_else(|| GameError::UnknownGame(id.into()))?;
                        let loaded = replay(stored)?;
                        authorise(&loaded, token)?;
                        match loaded.status {
                            GameStatus::Waiting | GameStatus::Open => {}
                            GameStatus::Aborted => return Err(GameError::Aborted),
                            GameStatus::Abandoned => return Err(GameError::Abandoned),
                            GameStatus::Finished => return Err(GameError::GameOver),
                        }
                        let played = loaded.game.moves().len();
                        if played >= 2 {
                            return Err(GameError::NotAbortable(format!(
                                "{played} moves have been played; a game can be aborted only before its second move"
                            )));
                        }
                        call_off_in(&mut w.tx, &loaded, CalledOff::Aborted).await?;
                        let events = vec![
                            event(id, None, GameEvent::Aborted { game: id.clone() }),
                            lobby_changed(),
                        ];
                        this.publish_in(&mut w.tx, &events).await?;
                        w.tx.commit().await?;
                        Ok((
                            wire::AbortAck {
                                game: id.clone(),
                                status: GameStatus::Aborted.to_string(),
                            },
                            events,
                            None::<bool>,
                        ))
                    }
                })
                .await?;
            this.committed(events, None);
            Ok(ack)
        })
        .await
    }

    /// Waiting lobby games whose creator has not been seen for `seek_idle` expire: they are
    /// aborted (no result, never rated) with an `expired` event. Each is claimed in a write
    /// that takes the game's lock and reads its status and its creator's last sighting
    /// again, so that it expires once with any number of instances, and not at all when
    /// the creator came back or the last seat was taken meanwhile. Returns how many expired
    /// here.
    pub(super) async fn expire_due(self: &Arc<Self>) -> Result<usize, GameError> {
        let cutoff = self.now_ms() - self.limits.seek_idle.as_millis() as i64;
        let mut expired = 0;
        for id in self.store.stale_seeks(cutoff, 100).await? {
            let _order = self.lock_game(&id).await;
            let idr = &id;
            let r = self
                .retrying(|left| async move {
                    let mut w = self.store.begin_write(left).await?;
                    let now = self.now_ms();
                    if !Store::lock_game(&mut w.tx, idr, now).await? {
                        return Ok(None);
                    }
                    let Some(lobby) = Store::lobby_row_in(&mut w.tx, idr).await? else {
                        return Ok(None);
                    };
                    let Some(stored) = Store::read_in(&mut w.tx, idr).await? else {
                        return Ok(None);
                    };
                    let seen = Store::player_seen_in(&mut w.tx, &lobby.created_by).await?;
                    let cutoff = now - self.limits.seek_idle.as_millis() as i64;
                    if stored.status != GameStatus::Waiting || seen.is_none_or(|s| s >= cutoff) {
                        return Ok(None);
                    }
                    let loaded = replay(stored)?;
                    call_off_in(&mut w.tx, &loaded, CalledOff::Expired).await?;
                    let events = vec![
                        event(
                            idr,
                            None,
                            GameEvent::Expired {
                                game: idr.clone(),
                                idle_ms: self.limits.seek_idle.as_millis() as i64,
                            },
                        ),
                        lobby_changed(),
                    ];
                    self.publish_in(&mut w.tx, &events).await?;
                    w.tx.commit().await?;
                    Ok(Some(events))
                })
                .await?;
            if let Some(events) = r {
                self.committed(events, None);
                expired += 1;
            }
        }
        Ok(expired)
    }
}
