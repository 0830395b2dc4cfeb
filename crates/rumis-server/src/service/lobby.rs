//! The lobby service: players, seeks (games with free seats), joining a seat, quick play,
//! abort, rematch and ratings. It decides inside the transactions storage opens, like the
//! game service it extends (`impl Games`), and publishes what it committed: the game's
//! events on the game's channel and `lobby_changed` on the lobby's ([`LOBBY`]).
//!
//! **A player's key is its seats' token.** A seat bound to a player holds the hash of the
//! player's key as its token hash, so the key moves for every seat of its player through
//! the one check moves already have (`game::authorise`), and no second secret is made. A
//! human seat with an empty token hash is not taken: free, or offered to the player bound
//! to it (a rematch). A game waits (status `waiting`) until every seat is taken; then it
//! starts (`open`) and its first AI seat, if any, is queued.
//!
//! What runs later — the quick-play AI filling free seats after the creator's wait, and
//! the counting of a finished rated game's ratings — is derived from committed rows
//! (`lobby_games.fill_at`, `rating_state`), so that it survives restarts and runs once
//! with several instances: [`Games::lobby_tick`] claims each piece of work in a
//! transaction that changes the row it was found by.

use std::sync::Arc;
use std::time::Duration;

use rumis_core::{Board, Variant};

use super::{now_ms, Games};
use crate::error::GameError;
use crate::events::{self, Event};
use crate::game::{authorise, event, hash_token, random_hex, replay, start_game, Loaded};
use crate::ratings;
use crate::store::{
    LobbyRow, NewGame, PlayerGame, PlayerRow, Progress, RatingChange, SeatKind, SeatPlayer, Setup, Store,
};
use crate::wire::{self, GameEvent};

/// The lobby's channel in the events hub (not a game id: those are 16 hex digits).
pub const LOBBY: &str = "lobby";

/// Longest display name, in characters.
pub const NAME_MAX: usize = 24;

/// Quick play: the longest wait before the AI fills the free seats.
pub const FILL_WAIT_MAX: u64 = 3600;

/// Who a new lobby game's seat is for.
#[derive(Clone, Debug, PartialEq)]
pub enum Slot {
    /// The player making the game (taken at once).
    Me,
    /// Free for anyone.
    Open,
    /// Kept for a player until they accept (a rematch).
    Offered(String),
    Ai(u8),
}

/// A seek as asked for: the game's setup and who sits where.
#[derive(Clone, Debug)]
pub struct Seek {
    pub setup: Setup,
    pub slots: Vec<Slot>,
    pub rated: bool,
    /// The clock asked for (checked); it starts when the last seat is taken.
    pub clock: Option<crate::clock::Rule>,
}

/// Quick play as asked for: `None` is "any".
#[derive(Clone, Debug)]
pub struct Quick {
    pub board: Option<String>,
    pub players: Option<usize>,
    pub rated: bool,
    /// The AI level that fills the seats still free after `wait`.
    pub level: u8,
    pub wait: Duration,
}

/// The seats that forfeited a finished game: a colour of theirs left it (resigned, or ran
/// out of time under the "out" rule — the core's retirements). They rank last when its
/// ratings are counted (issue #17: "timeout and resign count as last place"). A seat the
/// AI took over on a timeout is not a retirement and ranks by its score.
pub(crate) fn forfeited_seats(loaded: &Loaded) -> Vec<usize> {
    let mut seats: Vec<usize> = loaded
        .game
        .retirements()
        .iter()
        .filter_map(|r| loaded.seat_of(r.colour).map(|s| s.seat))
        .collect();
    seats.sort_unstable();
    seats.dedup();
    seats
}

/// Refuses a move in a game that is not being played: still waiting for players, or
/// aborted (the game service asks this before a move and an undo).
pub(crate) fn playable(loaded: &Loaded) -> Result<(), GameError> {
    match loaded.status.as_str() {
        "waiting" => Err(GameError::WaitingForPlayers {
            free: loaded
                .seats
                .iter()
                .filter(|s| s.kind == SeatKind::Human && s.token_hash.is_empty())
                .count(),
        }),
        "aborted" => Err(GameError::Aborted),
        _ => Ok(()),
    }
}

/// A checked display name: 1 to [`NAME_MAX`] characters, no control characters, spaces
/// trimmed.
pub fn check_name(name: &str) -> Result<String, GameError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(GameError::BadName("a name needs at least one character".into()));
    }
    if name.chars().count() > NAME_MAX {
        return Err(GameError::BadName(format!("a name has at most {NAME_MAX} characters")));
    }
    if name.chars().any(char::is_control) {
        return Err(GameError::BadName("a name has no control characters".into()));
    }
    Ok(name.to_string())
}

fn rating_of(p: &PlayerRow) -> wire::Rating {
    wire::Rating {
        rating: ratings::shown(p.rating),
        mu: p.rating,
        sigma: p.uncertainty,
        games: p.rated_games,
        provisional: p.rated_games < ratings::PROVISIONAL_GAMES,
    }
}

fn player_ref(p: &PlayerRow) -> wire::PlayerRef {
    wire::PlayerRef {
        id: p.id.clone(),
        name: p.name.clone(),
        rating: ratings::shown(p.rating),
        provisional: p.rated_games < ratings::PROVISIONAL_GAMES,
    }
}

fn table_seat(s: &SeatPlayer) -> wire::TableSeat {
    let state = match (s.kind, s.taken, &s.player) {
        (SeatKind::Ai, _, _) => "ai",
        (_, true, _) => "taken",
        (_, false, Some(_)) => "offered",
        (_, false, None) => "free",
    };
    wire::TableSeat {
        seat: s.seat,
        colours: s.colours.split_whitespace().map(String::from).collect(),
        kind: s.kind.name().into(),
        level: (s.kind == SeatKind::Ai).then_some(s.level),
        state: state.into(),
        player: s.player.as_ref().map(player_ref),
    }
}

fn free_count(seats: &[SeatPlayer]) -> usize {
    seats.iter().filter(|s| s.kind == SeatKind::Human && !s.taken).count()
}

fn table(g: &PlayerGame, seats: &[SeatPlayer]) -> wire::Table {
    let lobby = g.lobby.clone().unwrap_or_default();
    let live = g.status == "waiting" || g.status == "open";
    wire::Table {
        game: g.id.clone(),
        status: g.status.clone(),
        board: g.board.clone(),
        players: g.players,
        variant: g.variant.clone(),
        lobby: g.lobby.is_some(),
        rated: lobby.rated,
        quick: lobby.quick,
        clock: None,
        fill_at: (lobby.fill_at > 0).then_some(lobby.fill_at),
        fill_level: (lobby.fill_at > 0).then_some(lobby.fill_level),
        seats: seats.iter().map(table_seat).collect(),
        free_seats: free_count(seats),
        moves_played: g.move_count,
        can_abort: live && g.move_count < 2 && seats.iter().any(|s| s.kind == SeatKind::Human),
        rematch: (!lobby.rematch.is_empty()).then(|| lobby.rematch.clone()),
        rematch_of: (!lobby.rematch_of.is_empty()).then(|| lobby.rematch_of.clone()),
        created: g.created,
        updated: g.updated,
        state_url: format!("/api/v1/games/{}", g.id),
    }
}

fn lobby_changed() -> Event {
    Event::new(LOBBY, None, GameEvent::LobbyChanged)
}

/// What a write made: its answer, the events to publish, and whether an AI seat is to
/// move now (with whether a human plays).
type Written<T> = (T, Vec<Event>, Option<bool>);

impl Games {
    /// PostgreSQL: the events go out with the commit (see the game service).
    async fn publish_in(&self, conn: &mut sqlx::AnyConnection, events: &[Event]) -> Result<(), GameError> {
        if self.store.is_postgres() {
            let payloads: Vec<String> = events.iter().map(Event::to_payload).collect();
            Store::notify_in(conn, events::CHANNEL, &payloads).await?;
        }
        Ok(())
    }

    /// A new player: the key is in this answer and nowhere else, ever; only its hash is
    /// stored.
    pub async fn new_player(&self, name: &str) -> Result<wire::NewPlayer, GameError> {
        let name = check_name(name)?;
        let key = random_hex(16)?;
        let row = PlayerRow {
            id: random_hex(8)?,
            name,
            rating: ratings::START.0,
            uncertainty: ratings::START.1,
            rated_games: 0,
            created: now_ms(),
        };
        let hash = hash_token(&key);
        let (row, hash) = (&row, &hash);
        self.retrying(|_| async move { self.store.insert_player(row, hash).await })
            .await?;
        Ok(wire::NewPlayer {
            id: row.id.clone(),
            name: row.name.clone(),
            key,
            rating: rating_of(row),
            player_url: format!("/api/v1/players/{}", row.id),
        })
    }

    /// The player a key belongs to.
    pub async fn player_for_key(&self, key: Option<&str>) -> Result<PlayerRow, GameError> {
        let key = key.ok_or(GameError::MissingKey)?;
        self.store
            .player_by_key_hash(&hash_token(key))
            .await?
            .ok_or(GameError::WrongKey)
    }

    async fn player_in(conn: &mut sqlx::AnyConnection, key: Option<&str>) -> Result<PlayerRow, GameError> {
        let key = key.ok_or(GameError::MissingKey)?;
        Store::player_by_key_hash_in(conn, &hash_token(key))
            .await?
            .ok_or(GameError::WrongKey)
    }

    /// A player's page: rating and games.
    pub async fn player_page(&self, id: &str) -> Result<wire::PlayerPage, GameError> {
        let p = self
            .store
            .player(id)
            .await?
            .ok_or_else(|| GameError::UnknownPlayer(id.into()))?;
        let games = self.store.player_games(id, 100).await?;
        let changes = self.store.rating_changes(id, 200).await?;
        let mut page = wire::PlayerPage {
            id: p.id.clone(),
            name: p.name.clone(),
            rating: rating_of(&p),
            created: p.created,
            open: Vec::new(),
            finished: Vec::new(),
        };
        for (g, seats) in &games {
            let change = changes.iter().find(|c| c.game == g.id);
            let item = wire::PlayerGame {
                game: g.id.clone(),
                board: g.board.clone(),
                players: g.players,
                variant: g.variant.clone(),
                status: g.status.clone(),
                rated: g.lobby.as_ref().is_some_and(|l| l.rated),
                seat: seats
                    .iter()
                    .find(|s| s.player.as_ref().is_some_and(|q| q.id == p.id))
                    .map(|s| s.seat),
                seats: seats.iter().map(table_seat).collect(),
                moves_played: g.move_count,
                updated: g.updated,
                record_url: format!("/api/v1/games/{}/record", g.id),
                rating_change: change.map(|c| wire::RatingDelta {
                    place: c.place,
                    before: ratings::shown(c.before.0),
                    after: ratings::shown(c.after.0),
                }),
            };
            if g.status == "waiting" || g.status == "open" {
                page.open.push(item);
            } else {
                page.finished.push(item);
            }
        }
        Ok(page)
    }

    /// The lobby: seeks waiting for players, and lobby games in play to watch.
    pub async fn lobby(&self, limit: i64) -> Result<wire::Lobby, GameError> {
        let seeks = self.store.lobby_games("waiting", limit).await?;
        let playing = self.store.lobby_games("open", limit).await?;
        Ok(wire::Lobby {
            seeks: seeks.iter().map(|(g, s)| table(g, s)).collect(),
            playing: playing.iter().map(|(g, s)| table(g, s)).collect(),
        })
    }

    /// Who sits where in a game (any game, from the lobby or not).
    pub async fn table(&self, id: &str) -> Result<wire::Table, GameError> {
        let stored = self
            .store
            .read(id)
            .await?
            .ok_or_else(|| GameError::UnknownGame(id.into()))?;
        let seats = self.store.seat_players(id).await?;
        let lobby = self.store.lobby_row(id).await?;
        let g = PlayerGame {
            id: stored.id.clone(),
            board: stored.setup.board.clone(),
            players: stored.setup.players as i64,
            variant: stored.setup.variant.name().into(),
            status: stored.status.clone(),
            move_count: stored.moves.len() as i64,
            created: stored.created,
            updated: stored.updated,
            lobby,
        };
        Ok(table(&g, &seats))
    }

    /// The leaderboard: rated players and the AI levels, best first.
    pub async fn leaderboard(&self, limit: i64) -> Result<wire::Leaderboard, GameError> {
        let players = self.store.leaderboard(limit).await?;
        let mut entries: Vec<wire::LeaderboardEntry> = players
            .iter()
            .map(|p| wire::LeaderboardEntry {
                place: 0,
                kind: "player".into(),
                id: Some(p.id.clone()),
                name: Some(p.name.clone()),
                level: None,
                rating: ratings::shown(p.rating),
                provisional: p.rated_games < ratings::PROVISIONAL_GAMES,
                games: Some(p.rated_games),
            })
            .collect();
        entries.extend((1..=9u8).map(|level| wire::LeaderboardEntry {
            place: 0,
            kind: "ai".into(),
            id: None,
            name: None,
            level: Some(level),
            rating: ratings::shown(ratings::ai_rating(level).0),
            provisional: false,
            games: None,
        }));
        entries.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.level.cmp(&b.level)));
        for (i, e) in entries.iter_mut().enumerate() {
            e.place = i + 1;
        }
        Ok(wire::Leaderboard { entries })
    }

    /// Inserts a lobby game (inside a write); when no seat is left to take it starts at
    /// once. Returns the id, the seat of `me` and whether it started.
    async fn insert_lobby_game(
        &self,
        conn: &mut sqlx::AnyConnection,
        me: &PlayerRow,
        key_hash: &str,
        seek: &Seek,
        lobby: LobbyRow,
        creator: &str,
    ) -> Result<(String, usize, Option<bool>), GameError> {
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
                status: "waiting",
                to_move: game.to_move(),
                move_count: 0,
                ai_to_move: false,
            },
            creator,
            now: now_ms(),
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
    async fn start_in(&self, conn: &mut sqlx::AnyConnection, id: &str) -> Result<Option<bool>, GameError> {
        let stored = Store::read_in(conn, id)
            .await?
            .ok_or_else(|| GameError::UnknownGame(id.into()))?;
        let mut loaded = replay(stored)?;
        let progress = loaded.progress();
        Store::set_progress(conn, id, &progress).await?;
        Store::clear_fill_in(conn, id).await?;
        // Every seat is taken: the clock (if the seek asked for one) starts for the human
        // seat to move. The state carries it; the seated event tells clients to look.
        loaded.status = progress.status.to_string();
        super::leaving::pass_clock(conn, &mut loaded, false, now_ms()).await?;
        Ok(progress.ai_to_move.then(|| loaded.has_human()))
    }

    /// Opens a seek: a lobby game with the creator seated and seats free for others.
    pub async fn seek(
        self: &Arc<Self>,
        key: Option<String>,
        seek: Seek,
        creator: &str,
    ) -> Result<wire::Seated, GameError> {
        let mine = seek.slots.iter().filter(|s| **s == Slot::Me).count();
        if mine != 1 {
            return Err(GameError::BadSetup(format!(
                "exactly one seat is yours (\"me\"), not {mine}"
            )));
        }
        if !seek.slots.contains(&Slot::Open) {
            return Err(GameError::BadSetup(
                "a seek needs at least one free seat (\"open\")".into(),
            ));
        }
        let key = key.as_deref();
        let (seek, creator) = (&seek, creator);
        let (seated, events, ai) = self
            .retrying(|left| async move {
                let mut w = self.store.begin_write(left).await?;
                let me = Games::player_in(&mut w.tx, key).await?;
                let lobby = LobbyRow {
                    rated: seek.rated,
                    rating_state: if seek.rated { "pending" } else { "none" }.into(),
                    created_by: me.id.clone(),
                    created: now_ms(),
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
        self.committed_for(&seated.game, events, ai);
        Ok(seated)
    }

    fn seated(&self, id: &str, seek: &Seek, seat: usize, started: bool) -> wire::Seated {
        let colours = start_game(&seek.setup)
            .map(|g| g.site().colours_of(seat).iter().map(|c| c.to_string()).collect())
            .unwrap_or_default();
        wire::Seated {
            game: id.into(),
            seat,
            colours,
            status: if started { "open" } else { "waiting" }.into(),
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
        let this = self.clone();
        let id = id.to_string();
        tokio::spawn(async move {
            let _order = this.lock_game(&id).await;
            let (seated, events, ai) = this
                .retrying(|left| {
                    let (this, id, key) = (&this, &id, key.as_deref());
                    async move {
                        let mut w = this.store.begin_write(left).await?;
                        let me = Games::player_in(&mut w.tx, key).await?;
                        let hash = hash_token(key.unwrap_or_default());
                        let r = this.join_in(&mut w.tx, id, &me, &hash, seat).await?;
                        this.publish_in(&mut w.tx, &r.1).await?;
                        w.tx.commit().await?;
                        Ok(r)
                    }
                })
                .await?;
            this.committed_for(&id, events, ai);
            Ok(seated)
        })
        .await
        .map_err(|e| GameError::internal(format!("the join's task failed: {e}")))?
    }

    async fn join_in(
        &self,
        conn: &mut sqlx::AnyConnection,
        id: &str,
        me: &PlayerRow,
        key_hash: &str,
        asked: Option<usize>,
    ) -> Result<Written<wire::Seated>, GameError> {
        if !Store::lock_game(conn, id, now_ms()).await? {
            return Err(GameError::UnknownSeek(id.into()));
        }
        if Store::lobby_row_in(conn, id).await?.is_none() {
            return Err(GameError::UnknownSeek(id.into()));
        }
        let stored = Store::read_in(conn, id)
            .await?
            .ok_or_else(|| GameError::UnknownSeek(id.into()))?;
        match stored.status.as_str() {
            "waiting" => {}
            "open" => return Err(GameError::GameFull),
            "aborted" => return Err(GameError::Aborted),
            "abandoned" => return Err(GameError::Abandoned),
            _ => return Err(GameError::GameOver),
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
                status: if started { "open" } else { "waiting" }.into(),
                started,
                state_url: format!("/api/v1/games/{id}"),
                events_url: format!("/api/v1/games/{id}/events"),
            },
            events,
            ai,
        ))
    }

    /// Quick play: a seat in the oldest waiting quick-play game that fits (scenario, player
    /// count, rated or not), else a new one with this player seated and the rest free until
    /// the wait is over. One lobby lock orders quick play, so that two players asking at
    /// once meet rather than each open a game.
    pub async fn quick_play(
        self: &Arc<Self>,
        key: Option<String>,
        quick: Quick,
        creator: &str,
    ) -> Result<wire::Seated, GameError> {
        if !(1..=9).contains(&quick.level) {
            return Err(GameError::BadSetup("the AI level is 1 to 9".into()));
        }
        if quick.wait > Duration::from_secs(FILL_WAIT_MAX) {
            return Err(GameError::BadSetup(format!(
                "the wait for players is at most {FILL_WAIT_MAX} seconds"
            )));
        }
        if let Some(b) = &quick.board {
            if Board::builtin(b).is_none() {
                return Err(GameError::BadSetup(format!(
                    "unknown board '{}'; the boards are {}",
                    crate::error::printable(b),
                    Board::builtin_names()
                )));
            }
        }
        if quick.players.is_some_and(|p| !(2..=4).contains(&p)) {
            return Err(GameError::BadSetup("a game has 2 to 4 players".into()));
        }
        let key = key.as_deref();
        let (quick, creator) = (&quick, creator);
        let (seated, events, ai) = self
            .retrying(|left| async move {
                let mut w = self.store.begin_write(left).await?;
                Store::lock_lobby_in(&mut w.tx).await?;
                let me = Games::player_in(&mut w.tx, key).await?;
                let hash = hash_token(key.unwrap_or_default());
                let wanted_board = quick.board.as_deref().and_then(Board::builtin).map(|b| b.name.clone());
                for g in Store::quick_waiting_in(&mut w.tx, 50).await? {
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
                    clock: None,
                };
                let lobby = LobbyRow {
                    rated: quick.rated,
                    quick: true,
                    fill_at: now_ms() + quick.wait.as_millis() as i64,
                    fill_level: quick.level,
                    rating_state: if quick.rated { "pending" } else { "none" }.into(),
                    created_by: me.id.clone(),
                    created: now_ms(),
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
        self.committed_for(&seated.game, events, ai);
        Ok(seated)
    }

    /// Aborts a game before its second move: it ends without a result and is not rated.
    /// Any seated player (by key or seat token) may.
    pub async fn abort(self: &Arc<Self>, id: &str, token: Option<String>) -> Result<wire::AbortAck, GameError> {
        let this = self.clone();
        let id = id.to_string();
        tokio::spawn(async move {
            let _order = this.lock_game(&id).await;
            let (ack, events, _) = this
                .retrying(|left| {
                    let (this, id, token) = (&this, &id, token.as_deref());
                    async move {
                        let mut w = this.store.begin_write(left).await?;
                        if !Store::lock_game(&mut w.tx, id, now_ms()).await? {
                            return Err(GameError::UnknownGame(id.into()));
                        }
                        let stored = Store::read_in(&mut w.tx, id)
                            .await?
                            .ok_or_else(|| GameError::UnknownGame(id.into()))?;
                        let loaded = replay(stored)?;
                        authorise(&loaded, token)?;
                        match loaded.status.as_str() {
                            "waiting" | "open" => {}
                            "aborted" => return Err(GameError::Aborted),
                            "abandoned" => return Err(GameError::Abandoned),
                            _ => return Err(GameError::GameOver),
                        }
                        let played = loaded.game.moves().len();
                        if played >= 2 {
                            return Err(GameError::NotAbortable(format!(
                                "{played} moves have been played; a game can be aborted only before its second move"
                            )));
                        }
                        Store::set_progress(
                            &mut w.tx,
                            id,
                            &Progress {
                                status: "aborted",
                                to_move: loaded.game.to_move(),
                                move_count: played as i64,
                                ai_to_move: false,
                            },
                        )
                        .await?;
                        Store::set_rating_state_in(&mut w.tx, id, "pending", "none").await?;
                        Store::clear_fill_in(&mut w.tx, id).await?;
                        let events = vec![
                            event(id, None, GameEvent::Aborted { game: id.clone() }),
                            lobby_changed(),
                        ];
                        this.publish_in(&mut w.tx, &events).await?;
                        w.tx.commit().await?;
                        Ok((
                            wire::AbortAck {
                                game: id.clone(),
                                status: "aborted".into(),
                            },
                            events,
                            None::<bool>,
                        ))
                    }
                })
                .await?;
            this.committed_for(&id, events, None);
            Ok(ack)
        })
        .await
        .map_err(|e| GameError::internal(format!("the abort's task failed: {e}")))?
    }

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

    /// The lobby's work due now: quick-play games whose wait is over get the AI in their
    /// free seats, and finished rated games have their ratings counted. Returns how many
    /// of each.
    pub async fn lobby_tick(self: &Arc<Self>) -> Result<(usize, usize), GameError> {
        let mut filled = 0;
        for id in self.store.due_fills(now_ms(), 100).await? {
            let _order = self.lock_game(&id).await;
            let idr = &id;
            let r = self
                .retrying(|left| async move {
                    let mut w = self.store.begin_write(left).await?;
                    if !Store::lock_game(&mut w.tx, idr, now_ms()).await? {
                        return Ok(None);
                    }
                    let Some(lobby) = Store::lobby_row_in(&mut w.tx, idr).await? else {
                        return Ok(None);
                    };
                    let status = Store::read_in(&mut w.tx, idr).await?.map(|s| s.status);
                    // Claimed by another instance, or started meanwhile.
                    if lobby.fill_at == 0 || lobby.fill_at > now_ms() || status.as_deref() != Some("waiting") {
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
                self.committed_for(&id, events, ai);
                filled += 1;
            }
        }
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
        Ok((filled, rated))
    }

    /// Counts a finished game's ratings: places from the players' scores (the core's
    /// outcome; a two-player four-colour game's player scores are its players', not its
    /// colours'), forfeits last; AI seats take part at their level's fixed rating.
    async fn rate_in(
        &self,
        conn: &mut sqlx::AnyConnection,
        loaded: &Loaded,
        seats: &[SeatPlayer],
    ) -> Result<(), GameError> {
        let outcome = loaded.game.outcome();
        if outcome.players.len() != seats.len() {
            return Err(GameError::internal(format!(
                "game {}: {} player scores for {} seats",
                loaded.id,
                outcome.players.len(),
                seats.len()
            )));
        }
        let places = ratings::places(&outcome.players, &forfeited_seats(loaded));
        let before: Vec<(f64, f64)> = seats
            .iter()
            .map(|s| match (&s.kind, &s.player) {
                (SeatKind::Ai, _) => ratings::ai_rating(s.level),
                (_, Some(p)) => (p.rating, p.uncertainty),
                // A guest plays as a new player, and keeps nothing.
                _ => ratings::START,
            })
            .collect();
        let after = ratings::update(&before, &places);
        let now = now_ms();
        for (i, s) in seats.iter().enumerate() {
            let Some(p) = s.player.as_ref().filter(|_| s.kind == SeatKind::Human && s.taken) else {
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
