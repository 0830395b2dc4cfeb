//! Seeks and seats: a lobby game is opened with its creator seated, players take its free
//! seats, and it starts when the last is taken.

use std::sync::Arc;

use super::asked::SeekAsked;
use super::pages::free_count;
use super::{lobby_changed, Seek, Slot, Written};
use crate::error::GameError;
use crate::game::{event, hash_token, random_hex, replay, start_game};
use crate::queue::Job;
use crate::service::Games;
use crate::store::{GameStatus, LobbyRow, NewGame, PlayerRow, Progress, SeatKind, SeatPlayer, Setup, Store};
use rumis_wire::{self as wire, GameEvent};

/// Seeks (lobby games waiting for players) one player may have open at once.
pub const SEEKS_PER_PLAYER: i64 = 3;

impl Games {
    /// Inserts a lobby game (inside a write); when no seat is left to take it starts at
    /// once. Returns the id, the seat of `me` and whether it started.
    pub(super) async fn insert_lobby_game(
        &self,
        conn: &mut sqlx::AnyConnection,
        me: &PlayerRow,
        key_hash: &str,
        seek: &Seek,
        lobby: LobbyRow,
        creator: &str,
    ) -> Result<(String, usize, Option<Job>), GameError> {
        let game = start_game(&seek.setup)?;
        let site = game.site().clone();
        let id = random_hex(8)?;
        let mine = seek
            .slots
            .iter()
            .position(|s| *s == Slot::Me)
            .ok_or_else(|| GameError::BadSetup("one seat must be yours (\"me\")".into()))?;
        let waiting = seek.slots.iter().any(|s| matches!(s, Slot::Open | Slot::Offered(_)));
        let new = NewGame {
            id: &id,
            setup: &Setup {
                board: site.board().name.clone(),
                colours: site.order().to_vec(),
                hot_seat: false,
                ..seek.setup.clone()
            },
            seats: seek
                .slots
                .iter()
                .enumerate()
                .map(|(i, s)| match s {
                    Slot::Ai(level) => (site.colours_of(i), SeatKind::Ai, *level, String::new()),
                    Slot::Me => (site.colours_of(i), SeatKind::Human, 0, key_hash.to_string()),
                    _ => (site.colours_of(i), SeatKind::Human, 0, String::new()),
                })
                .collect(),
            progress: Progress {
                status: GameStatus::Waiting,
                to_move: game.to_move(),
                move_count: 0,
                ai_to_move: false,
            },
            creator,
            now: self.now_ms(),
        };
        Store::insert_game(conn, &new).await?;
        Store::set_board_and_rule(conn, &id, new.setup).await?;
        if let Some(rule) = seek.clock {
            // Nobody's time runs while the game waits for players: `start_in` starts it.
            let clock = crate::clock::Clock::start(rule, seek.slots.len(), None, new.now);
            Store::write_clock_in(conn, &id, &clock).await?;
        }
        for (i, s) in seek.slots.iter().enumerate() {
            match s {
                Slot::Me => Store::bind_seat_in(conn, &id, i, Some(&me.id), key_hash).await?,
                Slot::Offered(p) => Store::bind_seat_in(conn, &id, i, Some(p), "").await?,
                _ => {}
            }
        }
        Store::insert_lobby_in(
            conn,
            &LobbyRow {
                game: id.clone(),
                ..lobby
            },
        )
        .await?;
        let ai = if waiting { None } else { self.start_in(conn, &id).await? };
        Ok((id, mine, ai))
    }

    /// Every seat is taken: the game starts. Returns whether an AI seat is to move (with
    /// whether a human plays), for the AI queue.
    pub(super) async fn start_in(&self, conn: &mut sqlx::AnyConnection, id: &str) -> Result<Option<Job>, GameError> {
        let stored = Store::read_in(conn, id)
            .await?
            .ok_or_else(|| GameError::UnknownGame(id.into()))?;
        let mut loaded = replay(stored)?;
        let progress = loaded.progress();
        Store::set_progress(conn, id, &progress).await?;
        Store::clear_fill_in(conn, id).await?;
        // Every seat is taken: the clock (if the seek asked for one) starts for the human
        // seat to move. The state carries it; the seated event tells clients to look.
        loaded.status = progress.status;
        crate::service::leaving::pass_clock(conn, &mut loaded, false, self.now_ms()).await?;
        Ok(progress
            .ai_to_move
            .then(|| Job::new(id, loaded.has_human(), &loaded.creator)))
    }

    /// Opens a seek: a lobby game with the creator seated and seats free for others. Runs
    /// in a task of its own, like every write.
    pub async fn seek(
        self: &Arc<Self>,
        key: Option<String>,
        asked: SeekAsked,
        creator: &str,
    ) -> Result<wire::Seated, GameError> {
        let creator = creator.to_string();
        self.detached("seek", move |this| async move {
            this.write_seek(key, asked, &creator).await
        })
        .await
    }

    async fn write_seek(
        &self,
        key: Option<String>,
        asked: SeekAsked,
        creator: &str,
    ) -> Result<wire::Seated, GameError> {
        let seek = asked.check()?;
        let key = key.as_deref();
        let (seek, creator) = (&seek, creator);
        let (seated, events, ai) = self
            .retrying(|left| async move {
                let mut w = self.store.begin_write(left).await?;
                let me = self.player_in(&mut w.tx, key).await?;
                // Seeks bury each other: a player keeps a few open at once.
                if Store::seeks_waiting_by_in(&mut w.tx, &me.id).await? >= SEEKS_PER_PLAYER {
                    return Err(GameError::TooManySeeks(SEEKS_PER_PLAYER));
                }
                let lobby = LobbyRow {
                    rated: seek.rated,
                    rating_state: if seek.rated { "pending" } else { "none" }.into(),
                    created_by: me.id.clone(),
                    created: self.now_ms(),
                    ..Default::default()
                };
                let hash = hash_token(key.unwrap_or_default());
                let (id, seat, ai) = self
                    .insert_lobby_game(&mut w.tx, &me, &hash, seek, lobby, creator)
                    .await?;
                let events = vec![lobby_changed()];
                self.publish_in(&mut w.tx, &events).await?;
                w.tx.commit().await?;
                Ok((self.seated(&id, seek, seat, ai.is_some()), events, ai))
            })
            .await?;
        self.committed(events, ai);
        Ok(seated)
    }

    pub(super) fn seated(&self, id: &str, seek: &Seek, seat: usize, started: bool) -> wire::Seated {
        let colours = start_game(&seek.setup)
            .map(|g| g.site().colours_of(seat).iter().map(|c| c.to_string()).collect())
            .unwrap_or_default();
        wire::Seated {
            game: id.into(),
            seat,
            colours,
            status: if started { GameStatus::Open } else { GameStatus::Waiting }.to_string(),
            started,
            state_url: format!("/api/v1/games/{id}"),
            events_url: format!("/api/v1/games/{id}/events"),
        }
    }

    /// Takes a seat of a waiting lobby game for the key's player: the seat asked for, else
    /// one offered to this player, else the first free one. Of two players racing for the
    /// last seat exactly one sits: the game's lock is taken before the seats are read.
    pub async fn join(
        self: &Arc<Self>,
        id: &str,
        key: Option<String>,
        seat: Option<usize>,
    ) -> Result<wire::Seated, GameError> {
        let id = id.to_string();
        self.detached("join", move |this| async move {
            let _order = this.lock_game(&id).await;
            let (seated, events, ai) = this
                .retrying(|left| {
                    let (this, id, key) = (&this, &id, key.as_deref());
                    async move {
                        let mut w = this.store.begin_write(left).await?;
                        let me = this.player_in(&mut w.tx, key).await?;
                        let hash = hash_token(key.unwrap_or_default());
                        let r = this.join_in(&mut w.tx, id, &me, &hash, seat).await?;
                        this.publish_in(&mut w.tx, &r.1).await?;
                        w.tx.commit().await?;
                        Ok(r)
                    }
                })
                .await?;
            this.committed(events, ai);
            Ok(seated)
        })
        .await
    }

    pub(super) async fn join_in(
        &self,
        conn: &mut sqlx::AnyConnection,
        id: &str,
        me: &PlayerRow,
        key_hash: &str,
        asked: Option<usize>,
    ) -> Result<Written<wire::Seated>, GameError> {
        if !Store::lock_game(conn, id, self.now_ms()).await? {
            return Err(GameError::UnknownSeek(id.into()));
        }
        if Store::lobby_row_in(conn, id).await?.is_none() {
            return Err(GameError::UnknownSeek(id.into()));
        }
        let stored = Store::read_in(conn, id)
            .await?
            .ok_or_else(|| GameError::UnknownSeek(id.into()))?;
        match stored.status {
            GameStatus::Waiting => {}
            GameStatus::Open => return Err(GameError::GameFull),
            GameStatus::Aborted => return Err(GameError::Aborted),
            GameStatus::Abandoned => return Err(GameError::Abandoned),
            GameStatus::Finished => return Err(GameError::GameOver),
        }
        let seats = Store::seat_players_in(conn, id).await?;
        let mine = |s: &SeatPlayer| s.player.as_ref().is_some_and(|p| p.id == me.id);
        if seats.iter().any(|s| s.taken && mine(s)) {
            return Err(GameError::AlreadySeated);
        }
        let open = |s: &SeatPlayer| s.kind == SeatKind::Human && !s.taken && (s.player.is_none() || mine(s));
        let chosen = match asked {
            Some(n) => {
                let s = seats
                    .iter()
                    .find(|s| s.seat == n)
                    .ok_or_else(|| GameError::SeatTaken(format!("this game has no seat {n}")))?;
                if !open(s) {
                    return Err(GameError::SeatTaken(match (&s.kind, s.taken, &s.player) {
                        (SeatKind::Ai, _, _) => format!("seat {n} is the AI's"),
                        (_, true, _) => format!("seat {n} is taken"),
                        _ => format!("seat {n} is kept for another player (a rematch)"),
                    }));
                }
                s.seat
            }
            None => seats
                .iter()
                .find(|s| open(s) && mine(s))
                .or_else(|| seats.iter().find(|s| open(s)))
                .map(|s| s.seat)
                .ok_or(GameError::GameFull)?,
        };
        Store::bind_seat_in(conn, id, chosen, Some(&me.id), key_hash).await?;
        let started = free_count(&seats) == 1;
        let ai = if started { self.start_in(conn, id).await? } else { None };
        let events = vec![
            event(
                id,
                None,
                GameEvent::Seated {
                    game: id.into(),
                    seat: chosen,
                    player: Some(me.id.clone()),
                    name: Some(me.name.clone()),
                    started,
                },
            ),
            lobby_changed(),
        ];
        let colours = seats
            .iter()
            .find(|s| s.seat == chosen)
            .map(|s| s.colours.split_whitespace().map(String::from).collect())
            .unwrap_or_default();
        Ok((
            wire::Seated {
                game: id.into(),
                seat: chosen,
                colours,
                status: if started { GameStatus::Open } else { GameStatus::Waiting }.to_string(),
                started,
                state_url: format!("/api/v1/games/{id}"),
                events_url: format!("/api/v1/games/{id}/events"),
            },
            events,
            ai,
        ))
    }
}
