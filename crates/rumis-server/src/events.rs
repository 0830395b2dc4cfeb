//! Game events for WebSocket subscribers: one broadcast channel per server; each subscriber
//! keeps the events of its game.
//!
//! On SQLite (one instance) a committed change's events go straight to the channel. On
//! PostgreSQL they are sent with `pg_notify` inside the transaction that commits the change,
//! so they are delivered at commit, in commit order, to every instance listening, this one
//! included; a listener task feeds them into the channel.

use std::sync::Arc;

use serde_json::{json, Value};
use tokio::sync::broadcast;

use crate::db::{Accepted, Undone};

/// The PostgreSQL channel of game events.
pub const CHANNEL: &str = "rumis_events";

/// The game id of an event for every subscriber: resynchronise (events may have been lost).
pub const ALL: &str = "*";

#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub game: String,
    /// The move this event belongs to, if any (for skipping what a snapshot already holds).
    pub after_move: Option<i64>,
    pub body: Value,
}

impl Event {
    fn new(game: &str, after_move: Option<i64>, body: Value) -> Event {
        Event {
            game: game.to_string(),
            after_move,
            body,
        }
    }

    /// The event as a notification payload.
    pub fn to_payload(&self) -> String {
        json!({ "game": self.game, "after_move": self.after_move, "body": self.body }).to_string()
    }

    pub fn from_payload(text: &str) -> Option<Event> {
        let v: Value = serde_json::from_str(text).ok()?;
        Some(Event {
            game: v.get("game")?.as_str()?.to_string(),
            after_move: v.get("after_move").and_then(Value::as_i64),
            body: v.get("body")?.clone(),
        })
    }
}

/// A committed move: `move`, then `out` for each colour it put out, then `game_over`.
pub fn for_move(a: &Accepted) -> Vec<Event> {
    let mut events = vec![Event::new(
        &a.game,
        Some(a.number),
        json!({
            "type": "move",
            "game": a.game,
            "number": a.number,
            "colour": a.colour.to_string(),
            "placement": a.placement,
            "by": a.by.name(),
            "move_number": a.number + 1,
            "to_move": a.to_move.map(|c| c.to_string()),
        }),
    )];
    for c in &a.newly_out {
        events.push(Event::new(
            &a.game,
            Some(a.number),
            json!({ "type": "out", "game": a.game, "colour": c.to_string(), "after_move": a.number }),
        ));
    }
    if a.over {
        let scores: Vec<Value> = a
            .scores
            .iter()
            .map(|(c, s)| json!({ "colour": c.to_string(), "score": s }))
            .collect();
        events.push(Event::new(
            &a.game,
            Some(a.number),
            json!({ "type": "game_over", "game": a.game, "after_move": a.number, "scores": scores, "winners": a.winners }),
        ));
    }
    events
}

pub fn for_undo(u: &Undone) -> Vec<Event> {
    vec![Event::new(
        &u.game,
        None,
        json!({
            "type": "undo",
            "game": u.game,
            "removed": u.removed,
            "move_number": u.move_number,
            "to_move": u.to_move.map(|c| c.to_string()),
        }),
    )]
}

pub fn ai_thinking(game: &str, colour: char, move_number: i64, level: u8) -> Event {
    Event::new(
        game,
        None,
        json!({ "type": "ai_thinking", "game": game, "colour": colour.to_string(), "move_number": move_number, "level": level }),
    )
}

pub fn resync() -> Event {
    Event::new(ALL, None, json!({ "type": "resync" }))
}

pub struct Hub {
    tx: broadcast::Sender<Arc<Event>>,
}

impl Hub {
    pub fn new() -> Hub {
        let (tx, _) = broadcast::channel(4096);
        Hub { tx }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Event>> {
        self.tx.subscribe()
    }

    pub fn send(&self, events: Vec<Event>) {
        for e in events {
            // No subscriber is not an error.
            let _ = self.tx.send(Arc::new(e));
        }
    }
}
