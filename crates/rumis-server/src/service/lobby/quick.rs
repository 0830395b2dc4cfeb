//! Quick play: a seat in a waiting quick game that fits, else a new one whose free seats
//! the AI takes after the creator's wait (`lobby_games.fill_at`, claimed under the game's
//! lock so that it fills once).

use rumis_core::{Board, Variant};
use std::sync::Arc;

use super::asked::QuickAsked;
use super::{lobby_changed, Seek, Slot};
use crate::clock::{Kind, OnTimeout, Rule};
use crate::error::GameError;
use crate::game::{event, hash_token};
use crate::service::Games;
use crate::store::{GameStatus, LobbyRow, SeatKind, Store};
use rumis_wire::{self as wire, GameEvent};

/// The clock of a quick-play game: 10 minutes a seat and 5 seconds a move; a seat out of
/// time forfeits.
pub const QUICK_CLOCK: Rule = Rule {
    kind: Kind::RealTime,
    initial_ms: 10 * 60 * 1000,
    increment_ms: 5 * 1000,
    per_move_ms: 0,
    on_timeout: OnTimeout::Out,
};

/// Quick play seats a player only in a game whose creator was seen this recently (the web
/// app pings presence every minute while a page is open).
pub const QUICK_CREATOR_SEEN_MS: i64 = 2 * 60 * 1000;

impl Games {
    /// Quick play: a seat in the oldest waiting quick-play game that fits (scenario, player
    /// count, rated or not), else a new one with this player seated and the rest free until
    /// the wait is over. One lobby lock orders quick play, so that two players asking at
    /// once meet rather than each open a game. Runs in a task of its own, like every write.
    pub async fn quick_play(
        self: &Arc<Self>,
        key: Option<String>,
        asked: QuickAsked,
        creator: &str,
    ) -> Result<wire::Seated, GameError> {
        let creator = creator.to_string();
        self.detached("quick play", move |this| async move {
            this.write_quick_play(key, asked, &creator).await
        })
        .await
    }

    async fn write_quick_play(
        &self,
        key: Option<String>,
        asked: QuickAsked,
        creator: &str,
    ) -> Result<wire::Seated, GameError> {
        let quick = asked.check()?;
        let key = key.as_deref();
        let (quick, creator) = (&quick, creator);
        let (seated, events, ai) = self
            .retrying(|left| async move {
                let mut w = self.store.begin_write(left).await?;
                Store::lock_lobby_in(&mut w.tx).await?;
                let me = self.player_in(&mut w.tx, key).await?;
                let hash = hash_token(key.unwrap_or_default());
                let wanted_board = quick.board.as_deref().and_then(Board::builtin).map(|b| b.name.clone());
                let present = self.now_ms() - QUICK_CREATOR_SEEN_MS;
                for g in Store::quick_waiting_in(&mut w.tx, present, 50).await? {
                    let fits = wanted_board.as_ref().is_none_or(|b| *b == g.board)
                        && quick.players.is_none_or(|p| p as i64 == g.players)
                        && g.lobby.as_ref().is_some_and(|l| l.rated == quick.rated)
                        && g.variant == Variant::Standard.name();
                    if !fits {
                        continue;
                    }
                    let seats = Store::seat_players_in(&mut w.tx, &g.id).await?;
                    if seats.iter().any(|s| s.player.as_ref().is_some_and(|p| p.id == me.id)) {
                        continue;
                    }
                    let r = self.join_in(&mut w.tx, &g.id, &me, &hash, None).await?;
                    self.publish_in(&mut w.tx, &r.1).await?;
                    w.tx.commit().await?;
                    return Ok(r);
                }
                // Nobody waits: a new quick game ("any" scenario: one at random).
                let board = match &wanted_board {
                    Some(b) => b.clone(),
                    None => {
                        let all = Board::builtins();
                        let pick = getrandom::u64().map_err(|e| GameError::internal(format!("no randomness: {e}")))?;
                        all[(pick % all.len() as u64) as usize].name.clone()
                    }
                };
                let players = quick.players.unwrap_or(2);
                let setup = crate::game::new_setup(&crate::game::AskedSetup {
                    board: Some(&board),
                    players,
                    ..Default::default()
                })?;
                let seek = Seek {
                    setup,
                    slots: std::iter::once(Slot::Me)
                        .chain(std::iter::repeat_n(Slot::Open, players - 1))
                        .collect(),
                    rated: quick.rated,
                    // Strangers meet here: a seat whose player never moves is timed out
                    // like anyone's, and forfeits (rules §5.1), so that nobody is stuck.
                    clock: Some(QUICK_CLOCK),
                };
                let lobby = LobbyRow {
                    rated: quick.rated,
                    quick: true,
                    fill_at: self.now_ms() + quick.wait.as_millis() as i64,
                    fill_level: quick.level,
                    rating_state: if quick.rated { "pending" } else { "none" }.into(),
                    created_by: me.id.clone(),
                    created: self.now_ms(),
                    ..Default::default()
                };
                let (id, seat, ai) = self
                    .insert_lobby_game(&mut w.tx, &me, &hash, &seek, lobby, creator)
                    .await?;
                let events = vec![lobby_changed()];
                self.publish_in(&mut w.tx, &events).await?;
                w.tx.commit().await?;
                Ok((self.seated(&id, &seek, seat, ai.is_some()), events, ai))
            })
            .await?;
        self.committed(events, ai);
        Ok(seated)
    }

    /// Quick-play games whose wait is over: the AI takes their free seats and they start.
    /// Returns how many.
    pub(super) async fn fill_due(self: &Arc<Self>) -> Result<usize, GameError> {
        let mut filled = 0;
        for id in self.store.due_fills(self.now_ms(), 100).await? {
            let _order = self.lock_game(&id).await;
            let idr = &id;
            let r = self
                .retrying(|left| async move {
                    let mut w = self.store.begin_write(left).await?;
                    if !Store::lock_game(&mut w.tx, idr, self.now_ms()).await? {
                        return Ok(None);
                    }
                    let Some(lobby) = Store::lobby_row_in(&mut w.tx, idr).await? else {
                        return Ok(None);
                    };
                    let status = Store::read_in(&mut w.tx, idr).await?.map(|s| s.status);
                    // Claimed by another instance, or started meanwhile.
                    if lobby.fill_at == 0 || lobby.fill_at > self.now_ms() || status != Some(GameStatus::Waiting) {
                        return Ok(None);
                    }
                    let seats = Store::seat_players_in(&mut w.tx, idr).await?;
                    let free: Vec<usize> = seats
                        .iter()
                        .filter(|s| s.kind == SeatKind::Human && !s.taken)
                        .map(|s| s.seat)
                        .collect();
                    let level = lobby.fill_level.clamp(1, 9);
                    for &s in &free {
                        Store::seat_to_ai_in(&mut w.tx, idr, s, level).await?;
                    }
                    let ai = self.start_in(&mut w.tx, idr).await?;
                    let events = vec![
                        event(
                            idr,
                            None,
                            GameEvent::Filled {
                                game: idr.clone(),
                                seats: free,
                                level,
                            },
                        ),
                        lobby_changed(),
                    ];
                    self.publish_in(&mut w.tx, &events).await?;
                    w.tx.commit().await?;
                    Ok(Some((events, ai)))
                })
                .await?;
            if let Some((events, ai)) = r {
                self.committed(events, ai);
                filled += 1;
            }
        }
        Ok(filled)
    }
}
