//! Seats that stop playing: a resignation (the seat's colours are out, rules §5, through
//! the core's `Game::retire`), a player leaving (the AI takes the seat over), and a clock
//! running out (the game's rule: out, or the AI takes over). Like a move, each is one
//! transaction that takes the game's lock, replays it and writes what changed, then its
//! events; the clock passes on in the same transaction.
//!
//! **Timeouts fire once.** The timeout task ([`Games::fire_timeouts`]) looks for games whose
//! `due` time passed (an indexed column, written with the clock in every transaction that
//! changes a turn), then claims each in a write: PostgreSQL with `FOR UPDATE SKIP LOCKED`
//! (another instance holding it is skipped), SQLite under its single writer lock. The claim
//! checks `due` again, and the timeout's own write moves `due` on, so a second instance, or
//! this one again, finds nothing to do; after a restart the next poll finds what fell due
//! while the server was down.

use std::sync::Arc;
use std::time::Duration;

use rumis_core::Colour;
use sqlx::AnyConnection;

use super::Games;
use crate::clock::OnTimeout;
use crate::error::GameError;
use crate::events::{self, Event};
use crate::game::{authorise, event, hash_token, replay, Loaded};
use crate::queue::Job;
use crate::store::{GameStatus, SeatKind, Store};
use rumis_wire::{self as wire, GameEvent};

/// The AI level that takes over a seat whose player leaves, when none is asked for.
pub const DEFAULT_LEAVE_LEVEL: u8 = 3;

/// Due clocks handled at once by one timeout task (a PostgreSQL write holds one of the
/// pool's 16 connections).
const TIMEOUTS_AT_ONCE: usize = 8;

/// The turn changed (or a seat stopped playing): the clock passes to the human seat to
/// move, if any, charging the seat whose time ran; its new state is written and announced.
pub(super) async fn pass_clock(
    conn: &mut AnyConnection,
    loaded: &mut Loaded,
    moved: bool,
    now: i64,
) -> Result<Vec<Event>, GameError> {
    let Some(mut clock) = loaded.clock.clone() else {
        return Ok(Vec::new());
    };
    let next = if loaded.game.is_over() {
        None
    } else {
        loaded.clock_seat()
    };
    clock.pass(moved, next, now);
    Store::write_clock_in(conn, &loaded.id, &clock).await?;
    let info = clock.info(now);
    loaded.clock = Some(clock);
    Ok(vec![event(
        &loaded.id,
        None,
        GameEvent::Clock {
            game: loaded.id.clone(),
            clock: info,
        },
    )])
}

/// Colours leave the game (by the core) and are stored at this point; their `out` events,
/// and `game_over` when no colour is left to play.
async fn retire(
    conn: &mut AnyConnection,
    loaded: &mut Loaded,
    colours: &[Colour],
    reason: &str,
    now: i64,
) -> Result<Vec<Event>, GameError> {
    let id = loaded.id.clone();
    let after = loaded.game.moves().len() as i64;
    let mut events = Vec::new();
    for &c in colours {
        // The first colour's leaving may end the game at once (rules §5.1: one player is
        // left); the seat's other colour then has nothing to leave.
        if loaded.game.is_over() {
            break;
        }
        loaded
            .game
            .retire(c, Some(reason))
            .map_err(|e| GameError::internal(format!("game {id}: {c} cannot leave: {e}")))?;
        Store::insert_retirement_in(conn, &id, after, c, reason, now).await?;
        events.push(event(
            &id,
            None,
            GameEvent::Out {
                game: id.clone(),
                colour: c.to_string(),
                after_move: after,
            },
        ));
    }
    if loaded.game.is_over() {
        events.push(event(&id, None, wire::game::game_over(&id, after, loaded.outcome())));
    }
    Ok(events)
}

/// The seat a request is for: the one asked for (which the token must hold), else the only
/// seat it holds, else (hot-seat) the held seat to move.
fn which_seat(loaded: &Loaded, held: &[usize], asked: Option<usize>) -> Result<usize, GameError> {
    if let Some(s) = asked {
        return if held.contains(&s) {
            Ok(s)
        } else {
            Err(GameError::BadSeat(format!("this token does not hold seat {s}")))
        };
    }
    if let [one] = held {
        return Ok(*one);
    }
    match loaded.seat_to_move() {
        Some(s) if held.contains(&s.seat) => Ok(s.seat),
        _ => Err(GameError::BadSeat(format!(
            "this token holds seats {held:?}: say which with \"seat\""
        ))),
    }
}

/// The seats whose token this is, whoever plays them now (a seat the AI took over still
/// answers its old token, so that leaving again is answered, not refused).
fn held_any(loaded: &Loaded, token: Option<&str>) -> Result<Vec<usize>, GameError> {
    let token = token.ok_or(GameError::MissingToken)?;
    let hash = hash_token(token);
    let held: Vec<usize> = loaded
        .seats
        .iter()
        .filter(|s| !s.token_hash.is_empty() && s.token_hash == hash)
        .map(|s| s.seat)
        .collect();
    if held.is_empty() {
        return Err(GameError::WrongToken);
    }
    Ok(held)
}

/// What a write in this module commits: its answer, its events, and the AI move to queue
/// if an AI seat is to move now.
type Written<T> = (T, Vec<Event>, Option<Job>);

/// The AI move to queue after a write, if an AI seat is to move (the game's creator's
/// share of the AI's threads; a person waits for it while a human seat still plays).
fn ai_job(loaded: &Loaded, ai_to_move: bool) -> Option<Job> {
    ai_to_move.then(|| Job::new(&loaded.id, humans_playing(loaded) > 0, &loaded.creator))
}

/// Human seats with a colour still in the game.
fn humans_playing(loaded: &Loaded) -> usize {
    let position = loaded.game.position();
    loaded
        .seats
        .iter()
        .filter(|s| s.kind == SeatKind::Human && s.colours.iter().any(|&c| !position.is_out(c)))
        .count()
}

impl Games {
    /// A seat resigns: its colours not yet out leave the game now (the others play on).
    /// Sent again, it changes nothing and says so (`retired` empty).
    pub async fn resign(
        self: &Arc<Self>,
        id: &str,
        token: Option<String>,
        seat: Option<usize>,
    ) -> Result<wire::ResignAck, GameError> {
        let id = id.to_string();
        self.detached("resignation", move |this| async move {
            let _order = this.lock_game(&id).await;
            let (ack, events, ai) = this
                .retrying(|left| this.try_resign(&id, token.as_deref(), seat, left))
                .await?;
            this.committed(events, ai);
            Ok(ack)
        })
        .await
    }

    async fn try_resign(
        &self,
        id: &str,
        token: Option<&str>,
        seat: Option<usize>,
        left: Duration,
    ) -> Result<Written<wire::ResignAck>, GameError> {
        let mut w = self.store.begin_write(left).await?;
        let now = self.now_ms();
        if !Store::lock_game(&mut w.tx, id, now).await? {
            return Err(GameError::UnknownGame(id.into()));
        }
        let stored = Store::read_in(&mut w.tx, id)
            .await?
            .ok_or_else(|| GameError::UnknownGame(id.into()))?;
        let mut loaded = replay(stored)?;
        let held = authorise(&loaded, token)?;
        let seat = which_seat(&loaded, &held, seat)?;
        let colours: Vec<Colour> = loaded.seats[seat]
            .colours
            .iter()
            .copied()
            .filter(|&c| !loaded.game.position().is_out(c))
            .collect();
        let ack = |loaded: &Loaded, retired: &[Colour]| wire::ResignAck {
            seat,
            retired: retired.iter().map(|c| c.to_string()).collect(),
            to_move: loaded.game.to_move().map(|c| c.to_string()),
            over: loaded.game.is_over(),
        };
        // Out already (resigned before, or no placement left): nothing to do; rolled back.
        if colours.is_empty() {
            return Ok((ack(&loaded, &[]), Vec::new(), None));
        }
        if loaded.status == GameStatus::Abandoned {
            return Err(GameError::Abandoned);
        }
        let after_move = loaded.game.moves().len() as i64;
        let mut events = vec![event(
            id,
            None,
            GameEvent::Resigned {
                game: id.into(),
                seat,
                colours: colours.iter().map(|c| c.to_string()).collect(),
                after_move,
            },
        )];
        events.extend(retire(&mut w.tx, &mut loaded, &colours, "resigned", now).await?);
        let over_cap = self.count_humans(&mut w.tx, &loaded).await?;
        let progress = loaded.progress();
        Store::set_progress(&mut w.tx, id, &progress).await?;
        events.extend(pass_clock(&mut w.tx, &mut loaded, false, now).await?);
        self.notify_in(&mut w.tx, &events).await?;
        w.tx.commit().await?;
        if over_cap {
            self.queue.over_cap(id);
        }
        Ok((ack(&loaded, &colours), events, ai_job(&loaded, progress.ai_to_move)))
    }

    /// A player leaves: the AI plays the seat from now on, at `level` (by default the
    /// clock's level for a timeout, else [`DEFAULT_LEAVE_LEVEL`]). Sent again, it changes
    /// nothing (`changed: false`).
    pub async fn leave(
        self: &Arc<Self>,
        id: &str,
        token: Option<String>,
        seat: Option<usize>,
        level: Option<u8>,
    ) -> Result<wire::LeaveAck, GameError> {
        if let Some(l) = level {
            if !(1..=9).contains(&l) {
                return Err(GameError::BadSeat(format!("the AI's level is 1 to 9, not {l}")));
            }
        }
        let id = id.to_string();
        self.detached("leaving", move |this| async move {
            let _order = this.lock_game(&id).await;
            let (ack, events, ai) = this
                .retrying(|left| this.try_leave(&id, token.as_deref(), seat, level, left))
                .await?;
            this.committed(events, ai);
            Ok(ack)
        })
        .await
    }

    async fn try_leave(
        &self,
        id: &str,
        token: Option<&str>,
        seat: Option<usize>,
        level: Option<u8>,
        left: Duration,
    ) -> Result<Written<wire::LeaveAck>, GameError> {
        let mut w = self.store.begin_write(left).await?;
        let now = self.now_ms();
        if !Store::lock_game(&mut w.tx, id, now).await? {
            return Err(GameError::UnknownGame(id.into()));
        }
        let stored = Store::read_in(&mut w.tx, id)
            .await?
            .ok_or_else(|| GameError::UnknownGame(id.into()))?;
        let mut loaded = replay(stored)?;
        let held = held_any(&loaded, token)?;
        let seat = which_seat(&loaded, &held, seat)?;
        if loaded.seats[seat].kind == SeatKind::Ai {
            let s = &loaded.seats[seat];
            let ack = wire::LeaveAck {
                seat,
                kind: s.kind.name().into(),
                level: s.level,
                changed: false,
            };
            return Ok((ack, Vec::new(), None));
        }
        if loaded.status == GameStatus::Abandoned {
            return Err(GameError::Abandoned);
        }
        if loaded.game.is_over() {
            return Err(GameError::GameOver);
        }
        let level = level.unwrap_or(match loaded.clock.as_ref().map(|c| c.rule.on_timeout) {
            Some(OnTimeout::Ai(l)) => l,
            _ => DEFAULT_LEAVE_LEVEL,
        });
        let mut events = take_over(&mut w.tx, &mut loaded, seat, level, "left").await?;
        let over_cap = self.count_humans(&mut w.tx, &loaded).await?;
        let progress = loaded.progress();
        Store::set_progress(&mut w.tx, id, &progress).await?;
        events.extend(pass_clock(&mut w.tx, &mut loaded, false, now).await?);
        self.notify_in(&mut w.tx, &events).await?;
        w.tx.commit().await?;
        if over_cap {
            self.queue.over_cap(id);
        }
        let ai = ai_job(&loaded, progress.ai_to_move);
        let ack = wire::LeaveAck {
            seat,
            kind: SeatKind::Ai.name().into(),
            level,
            changed: true,
        };
        Ok((ack, events, ai))
    }

    /// After a seat stopped playing (the AI took it over, or its colours are out): the
    /// games row counts the human seats still playing. A game still played without one is
    /// an AI-only game from now on, counted against its creator's caps on open AI-only
    /// games like one created so, whichever way its people stopped (`leave`, a clock's
    /// timeout, a resignation); `true` when it is over them, and so played only when the
    /// AI's threads have nothing else to do (`queue.rs`, [`crate::queue::Lane`]). The game
    /// goes on either way: the players who left may watch it end, and no game is lost for
    /// the count.
    async fn count_humans(&self, conn: &mut AnyConnection, loaded: &Loaded) -> Result<bool, GameError> {
        let humans = humans_playing(loaded);
        if humans > 0 || loaded.game.is_over() {
            Store::set_humans_in(conn, &loaded.id, humans).await?;
            return Ok(false);
        }
        // Counted after the lock that orders AI-only counts, as a creation counts.
        Store::order_ai_only_creations(conn).await?;
        Store::set_humans_in(conn, &loaded.id, 0).await?;
        Ok(self.ai_only_over_caps(conn, &loaded.creator).await?.is_some())
    }

    /// PostgreSQL: the events go out with the commit.
    async fn notify_in(&self, conn: &mut AnyConnection, events: &[Event]) -> Result<(), GameError> {
        if self.store.is_postgres() {
            let payloads: Vec<String> = events.iter().map(Event::to_payload).collect();
            Store::notify_in(conn, events::CHANNEL, &payloads).await?;
        }
        Ok(())
    }

    /// Applies the timeouts that fell due: each game claimed and changed in its own write
    /// (see the module's comment); returns how many fired here.
    pub async fn fire_timeouts(self: &Arc<Self>) -> Result<usize, GameError> {
        let ids = self.store.due_games(self.now_ms(), 100).await?;
        // Several at once, so that clocks falling due together wait for one another's
        // writes only as far as the database makes them (on SQLite they share a commit,
        // store/group.rs): one after another, a burst of timeouts behind a slow commit
        // fired up to 2 s late under load (docs/server-load.md). Each game is still
        // claimed and changed in its own write, under its own lock.
        let gate = Arc::new(tokio::sync::Semaphore::new(TIMEOUTS_AT_ONCE));
        let mut tasks = tokio::task::JoinSet::new();
        for id in ids {
            let (this, gate) = (self.clone(), gate.clone());
            tasks.spawn(async move {
                let _turn = gate.acquire_owned().await;
                let _order = this.lock_game(&id).await;
                match this.retrying(|left| this.try_timeout(&id, left)).await {
                    Ok(Some((events, ai))) => {
                        this.committed(events, ai);
                        true
                    }
                    Ok(None) => false,
                    Err(e) => {
                        tracing::error!(game = %id, "timeout: {e}");
                        false
                    }
                }
            });
        }
        let mut fired = 0;
        while let Some(done) = tasks.join_next().await {
            fired += usize::from(done.unwrap_or(false));
        }
        Ok(fired)
    }

    async fn try_timeout(&self, id: &str, left: Duration) -> Result<Option<(Vec<Event>, Option<Job>)>, GameError> {
        let mut w = self.store.begin_write(left).await?;
        let now = self.now_ms();
        let postgres = self.store.is_postgres();
        // PostgreSQL: claim the row first (skipped when another instance holds it);
        // SQLite: take the writer's lock first, so that the check reads the latest commit.
        if postgres && !Store::claim_due_in(&mut w.tx, id, now, true).await? {
            return Ok(None);
        }
        if !Store::lock_game(&mut w.tx, id, now).await? {
            return Ok(None);
        }
        if !postgres && !Store::claim_due_in(&mut w.tx, id, now, false).await? {
            return Ok(None);
        }
        let stored = Store::read_in(&mut w.tx, id)
            .await?
            .ok_or_else(|| GameError::UnknownGame(id.into()))?;
        let mut loaded = replay(stored)?;
        let Some(clock) = loaded.clock.clone() else {
            return Ok(None);
        };
        let mut events = Vec::new();
        let mut over_cap = false;
        match clock.running {
            // The clock runs for the seat to move (as every write keeps it): its time is up.
            Some(seat) if loaded.clock_seat() == Some(seat) && clock.expired(now) => {
                let after_move = loaded.game.moves().len() as i64;
                let colours: Vec<Colour> = loaded.seats[seat]
                    .colours
                    .iter()
                    .copied()
                    .filter(|&c| !loaded.game.position().is_out(c))
                    .collect();
                let level = match clock.rule.on_timeout {
                    OnTimeout::Ai(l) => Some(l),
                    OnTimeout::Out => None,
                };
                events.push(event(
                    id,
                    None,
                    GameEvent::Timeout {
                        game: id.into(),
                        seat,
                        colours: colours.iter().map(|c| c.to_string()).collect(),
                        rule: clock.rule.on_timeout.name().into(),
                        level,
                        after_move,
                    },
                ));
                match clock.rule.on_timeout {
                    OnTimeout::Out => events.extend(retire(&mut w.tx, &mut loaded, &colours, "time", now).await?),
                    OnTimeout::Ai(l) => events.extend(take_over(&mut w.tx, &mut loaded, seat, l, "time").await?),
                }
                over_cap = self.count_humans(&mut w.tx, &loaded).await?;
            }
            Some(_) if !clock.expired(now) => return Ok(None),
            // Not the seat to move (should not be): the clock is put right, nothing else.
            _ => {}
        }
        let progress = loaded.progress();
        Store::set_progress(&mut w.tx, id, &progress).await?;
        events.extend(pass_clock(&mut w.tx, &mut loaded, false, now).await?);
        self.notify_in(&mut w.tx, &events).await?;
        w.tx.commit().await?;
        if over_cap {
            self.queue.over_cap(id);
        }
        Ok(Some((events, ai_job(&loaded, progress.ai_to_move))))
    }

    /// The timeout task: looks for due clocks every `every` until the server stops.
    pub fn start_timeouts(self: &Arc<Self>, every: Duration) -> tokio::task::JoinHandle<()> {
        let games = self.clone();
        tokio::spawn(async move {
            let mut ticker = games.time.ticker(every);
            loop {
                if let Err(e) = games.fire_timeouts().await {
                    tracing::error!("cannot look for timeouts: {e}");
                }
                ticker.tick().await;
            }
        })
    }
}

/// The AI takes a seat over at `level`; its `seat_changed` event.
async fn take_over(
    conn: &mut AnyConnection,
    loaded: &mut Loaded,
    seat: usize,
    level: u8,
    reason: &str,
) -> Result<Vec<Event>, GameError> {
    Store::set_seat_kind_in(conn, &loaded.id, seat, SeatKind::Ai, level).await?;
    let s = &mut loaded.seats[seat];
    s.kind = SeatKind::Ai;
    s.level = level;
    Ok(vec![event(
        &loaded.id,
        None,
        GameEvent::SeatChanged {
            game: loaded.id.clone(),
            seat,
            kind: SeatKind::Ai.name().into(),
            level: Some(level),
            reason: reason.into(),
        },
    )])
}
