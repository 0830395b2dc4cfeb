//! Game events for WebSocket subscribers: one broadcast channel per game with subscribers,
//! so that a game's events wake only that game's subscribers.
//!
//! On SQLite (one instance) a committed change's events are handed to the hub by the game
//! service's write task. On PostgreSQL they are sent with `pg_notify` inside the
//! transaction that commits the change, so they are delivered at commit, in commit order,
//! to every instance listening, this one included; a listener task feeds them into the hub.
//!
//! This module carries events with their game; what an event says is the game service's
//! (`service.rs`) and its wire shapes (`wire.rs`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use rumis_wire::GameEvent;

/// The PostgreSQL channel of game events.
pub const CHANNEL: &str = "rumis_events";

/// The game id of an event for every subscriber: resynchronise (events may have been lost).
pub const ALL: &str = "*";

/// Events a slow subscriber may fall behind before it gets a fresh snapshot instead.
const BACKLOG: usize = 256;

/// An event with its game; also the payload of a PostgreSQL notification (as JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub game: String,
    /// The move this event belongs to, if any (for skipping what a snapshot already holds).
    pub after_move: Option<i64>,
    /// What subscribers are sent; `None` for a `resync` (of every game: subscribers get a
    /// fresh snapshot instead).
    pub body: Option<GameEvent>,
}

impl Event {
    pub fn new(game: &str, after_move: Option<i64>, body: GameEvent) -> Event {
        Event {
            game: game.to_string(),
            after_move,
            body: Some(body),
        }
    }

    /// The event as a notification payload.
    pub fn to_payload(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_payload(text: &str) -> Option<Event> {
        serde_json::from_str(text).ok()
    }
}

pub fn resync() -> Event {
    Event {
        game: ALL.into(),
        after_move: None,
        body: None,
    }
}

pub type Receiver = broadcast::Receiver<Arc<Event>>;

/// The channels by game.
pub struct Hub {
    channels: Mutex<HashMap<String, broadcast::Sender<Arc<Event>>>>,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub::new()
    }
}

impl Hub {
    pub fn new() -> Hub {
        Hub {
            channels: Mutex::new(HashMap::new()),
        }
    }

    /// The events of one game from now on (and every `resync`).
    pub fn subscribe(&self, game: &str) -> Receiver {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = channels.get(game) {
            return tx.subscribe();
        }
        // Games whose subscribers all left are forgotten now and then, not at every event.
        if channels.len() >= 64 && channels.len().is_power_of_two() {
            channels.retain(|_, tx| tx.receiver_count() > 0);
        }
        let (tx, rx) = broadcast::channel(BACKLOG);
        channels.insert(game.to_string(), tx);
        rx
    }

    /// Hands events to their game's subscribers; `resync` to every game's.
    pub fn send(&self, events: Vec<Event>) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        for e in events {
            let e = Arc::new(e);
            if e.game == ALL {
                for tx in channels.values() {
                    let _ = tx.send(e.clone());
                }
                continue;
            }
            let gone = match channels.get(&e.game) {
                // No subscriber is not an error.
                Some(tx) => tx.send(e.clone()).is_err(),
                None => false,
            };
            if gone {
                channels.remove(&e.game);
            }
        }
    }

    /// Games with a channel (for tests of forgetting).
    #[cfg(test)]
    fn channel_count(&self) -> usize {
        self.channels.lock().unwrap().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gone(game: &str) -> Event {
        Event::new(game, None, GameEvent::Deleted { game: game.into() })
    }

    /// A payload reads back as the event it was made from.
    #[test]
    fn payloads_read_back() {
        let e = Event::new(
            "a",
            Some(3),
            GameEvent::Undo {
                game: "a".into(),
                removed: vec![3],
                move_number: 3,
                to_move: None,
            },
        );
        assert_eq!(Event::from_payload(&e.to_payload()), Some(e));
        assert_eq!(Event::from_payload(&resync().to_payload()), Some(resync()));
        assert_eq!(Event::from_payload("{\"game\": 1}"), None);
    }

    /// A game's subscriber is not woken by another game's events, and gets its own.
    #[test]
    fn subscribers_get_only_their_games_events() {
        let hub = Hub::new();
        let mut a = hub.subscribe("a");
        let mut b = hub.subscribe("b");
        hub.send(vec![gone("b")]);
        assert!(matches!(a.try_recv(), Err(broadcast::error::TryRecvError::Empty)));
        assert_eq!(b.try_recv().unwrap().game, "b");
        hub.send(vec![resync()]);
        assert_eq!(a.try_recv().unwrap().game, ALL);
        assert_eq!(b.try_recv().unwrap().game, ALL);
    }

    /// A game whose subscribers left has its channel dropped at its next event.
    #[test]
    fn channels_without_subscribers_are_dropped() {
        let hub = Hub::new();
        let a = hub.subscribe("a");
        assert_eq!(hub.channel_count(), 1);
        drop(a);
        hub.send(vec![gone("a")]);
        assert_eq!(hub.channel_count(), 0);
    }
}
