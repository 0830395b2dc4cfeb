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
//! The parts: [`asked`] checks what a client asked for (a seek, quick play) and makes the
//! service's values of it; `players` issues keys and takes presence; `pages` answers the
//! read-only views (a player's page, the lobby, a table, the leaderboard); `seats` opens
//! seeks and seats players; `ending` calls games off (abort, expiry); `quick` is quick
//! play and its AI fill; `rematch` offers, accepts and declines rematches; `rating`
//! counts a finished rated game.
//!
//! What runs later — a waiting game expiring when its creator is gone, the quick-play AI
//! filling free seats after the creator's wait, and the counting of a finished rated game's
//! ratings — is derived from committed rows (`players.seen`, `lobby_games.fill_at`,
//! `rating_state`), so that it survives restarts and runs once with several instances:
//! [`Games::lobby_tick`] claims each piece of work in a transaction that takes the game's
//! lock, checks the row again and changes it.

use std::sync::Arc;
use std::time::Duration;

use super::Games;
use crate::error::GameError;
use crate::events::{self, Event};
use crate::game::Loaded;
use crate::queue::Job;
use crate::store::{GameStatus, SeatKind, Setup, Store};
use rumis_wire::GameEvent;

pub mod asked;
mod ending;
mod pages;
mod players;
mod quick;
mod rating;
mod rematch;
mod seats;

/// The lobby's channel in the events hub (not a game id: those are 16 hex digits).
pub const LOBBY: &str = "lobby";

/// Longest display name, in characters.
pub const NAME_MAX: usize = 24;

/// A waiting lobby game expires when its creator has not been seen for this long
/// ([`crate::Config::seek_idle`] by default): no request with their key and no presence
/// ping (the web app pings every minute while one of its pages is open, so five minutes
/// forgive a few lost pings and a throttled background tab).
pub const SEEK_IDLE: Duration = Duration::from_secs(5 * 60);

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

/// Refuses a move in a game that is not being played: still waiting for players, or
/// aborted (the game service asks this before a move and an undo).
pub(crate) fn playable(loaded: &Loaded) -> Result<(), GameError> {
    match loaded.status {
        GameStatus::Waiting => Err(GameError::WaitingForPlayers {
            free: loaded
                .seats
                .iter()
                .filter(|s| s.kind == SeatKind::Human && s.token_hash.is_empty())
                .count(),
        }),
        GameStatus::Aborted => Err(GameError::Aborted),
        GameStatus::Open | GameStatus::Finished | GameStatus::Abandoned => Ok(()),
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
    if name.chars().any(is_invisible) {
        return Err(GameError::BadName(
            "a name has no invisible or direction-changing characters (zero-width spaces, bidi overrides)".into(),
        ));
    }
    Ok(name.to_string())
}

/// A name as compared with the others, which it must differ from (issue #50: two players
/// could both be "Ana"): letters in lower case (Unicode's), runs of spaces as one. Names that
/// differ only so look the same to the other players. Letters of other scripts that look
/// alike (a Cyrillic а beside a Latin a) are not folded: each script's names stay free.
pub fn name_key(name: &str) -> String {
    name.split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Characters that show nothing or turn the text's direction: a name with one can pass for
/// another player's (issue #50: zero-width and right-to-left override characters were
/// accepted). Unicode's format characters that text in any language can do without.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
        | '\u{FFF0}'..='\u{FFFB}' | '\u{E0000}'..='\u{E007F}')
}

/// What one [`Games::lobby_tick`] did here: how many games expired, were filled, were
/// rated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tick {
    pub expired: usize,
    pub filled: usize,
    pub rated: usize,
}

fn lobby_changed() -> Event {
    Event::new(LOBBY, None, GameEvent::LobbyChanged)
}

/// What a write made: its answer, the events to publish, and the AI seat's turn to queue
/// if one is to move now (under the game creator's share, as every AI turn).
type Written<T> = (T, Vec<Event>, Option<Job>);

impl Games {
    /// PostgreSQL: the events go out with the commit (see the game service).
    async fn publish_in(&self, conn: &mut sqlx::AnyConnection, events: &[Event]) -> Result<(), GameError> {
        if self.store.is_postgres() {
            let payloads: Vec<String> = events.iter().map(Event::to_payload).collect();
            Store::notify_in(conn, events::CHANNEL, &payloads).await?;
        }
        Ok(())
    }

    /// The lobby's work due now: waiting games whose creator is gone expire, quick-play
    /// games whose wait is over get the AI in their free seats, and finished rated games
    /// have their ratings counted.
    pub async fn lobby_tick(self: &Arc<Self>) -> Result<Tick, GameError> {
        let expired = self.expire_due().await?;
        let filled = self.fill_due().await?;
        let rated = self.rate_due().await?;
        Ok(Tick { expired, filled, rated })
    }
}

#[cfg(test)]
mod tests {
    use super::name_key;

    #[test]
    fn names_that_look_the_same_fold_the_same() {
        assert_eq!(name_key("Ana"), name_key("aNA"));
        assert_eq!(name_key("Ana  María"), name_key("ana maría"));
        assert_eq!(name_key("ÉLAN"), name_key("élan"));
        assert_ne!(name_key("Ana"), name_key("Ana2"));
        assert_ne!(name_key("Ana María"), name_key("AnaMaría"));
        // Another script's look-alike stays another name.
        assert_ne!(name_key("Ana"), name_key("Аna"));
    }
}
