//! The read-only answers: a player's page, the lobby's lists, a game's table and the
//! leaderboard.

use crate::error::GameError;
use crate::ratings;
use crate::service::Games;
use crate::store::{GameStatus, PlayerGame, PlayerRow, SeatKind, SeatPlayer};
use rumis_wire as wire;

pub(super) fn rating_of(p: &PlayerRow) -> wire::Rating {
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

pub(super) fn free_count(seats: &[SeatPlayer]) -> usize {
    seats.iter().filter(|s| s.kind == SeatKind::Human && !s.taken).count()
}

fn table(g: &PlayerGame, seats: &[SeatPlayer], now: i64) -> wire::Table {
    let lobby = g.lobby.clone().unwrap_or_default();
    let live = g.status.is_live();
    wire::Table {
        game: g.id.clone(),
        status: g.status.to_string(),
        board: g.board.clone(),
        players: g.players,
        variant: g.variant.clone(),
        lobby: g.lobby.is_some(),
        rated: lobby.rated,
        assisted: lobby.assisted,
        quick: lobby.quick,
        clock: g.clock.as_ref().map(|c| c.info(now)),
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
        // The lobby's lists hold live games only; `Games::table` reads why a game was called off.
        called_off: None,
    }
}

impl Games {
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
                status: g.status.to_string(),
                rated: g.lobby.as_ref().is_some_and(|l| l.rated),
                assisted: g.lobby.as_ref().is_some_and(|l| l.assisted),
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
                not_counted: g.lobby.as_ref().and_then(|l| match l.rating_state.as_str() {
                    "void_moves" => Some("too_few_moves".into()),
                    "void_pair" => Some("same_pair_today".into()),
                    _ => None,
                }),
            };
            if g.status.is_live() {
                page.open.push(item);
            } else {
                page.finished.push(item);
            }
        }
        Ok(page)
    }

    /// The lobby: seeks waiting for players, and lobby games in play to watch.
    pub async fn lobby(&self, limit: i64) -> Result<wire::Lobby, GameError> {
        let seeks = self.store.lobby_games(GameStatus::Waiting, limit).await?;
        let playing = self.store.lobby_games(GameStatus::Open, limit).await?;
        let now = self.now_ms();
        Ok(wire::Lobby {
            seeks: seeks.iter().map(|(g, s)| table(g, s, now)).collect(),
            playing: playing.iter().map(|(g, s)| table(g, s, now)).collect(),
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
            status: stored.status,
            move_count: stored.moves.len() as i64,
            created: stored.created,
            updated: stored.updated,
            lobby,
            clock: stored.clock.clone(),
        };
        Ok(wire::Table {
            called_off: stored.called_off.map(|c| c.as_str().into()),
            ..table(&g, &seats, self.now_ms())
        })
    }

    /// The leaderboard: rated players who met enough distinct opponents
    /// ([`ratings::LEADERBOARD_MIN_OPPONENTS`]) and the AI levels, best first.
    pub async fn leaderboard(&self, limit: i64) -> Result<wire::Leaderboard, GameError> {
        let players = self
            .store
            .leaderboard(limit, ratings::LEADERBOARD_MIN_OPPONENTS)
            .await?;
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
        Ok(wire::Leaderboard {
            entries,
            min_opponents: ratings::LEADERBOARD_MIN_OPPONENTS,
        })
    }
}
