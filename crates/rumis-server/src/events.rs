//! Game events for WebSocket subscribers: one broadcast channel; each subscriber keeps the
//! events of its game. (Over PostgreSQL, LISTEN/NOTIFY would feed this hub too.)

use std::sync::Arc;

use serde_json::{json, Value};
use tokio::sync::broadcast;

use crate::db::{Accepted, Undone};

#[derive(Clone, Debug)]
pub struct Event {
    pub game: String,
    /// The move this event belongs to, if any (for skipping what a snapshot already holds).
    pub after_move: Option<i64>,
    pub body: Value,
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

    fn send(&self, game: &str, after_move: Option<i64>, body: Value) {
        // No subscriber is not an error.
        let _ = self.tx.send(Arc::new(Event {
            game: game.to_string(),
            after_move,
            body,
        }));
    }

    /// A committed move: `move`, then `out` for each colour it put out, then `game_over`.
    pub fn moved(&self, a: &Accepted) {
        self.send(
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
        );
        for c in &a.newly_out {
            self.send(
                &a.game,
                Some(a.number),
                json!({ "type": "out", "game": a.game, "colour": c.to_string(), "after_move": a.number }),
            );
        }
        if a.over {
            let scores: Vec<Value> = a
                .scores
                .iter()
                .map(|(c, s)| json!({ "colour": c.to_string(), "score": s }))
                .collect();
            self.send(
                &a.game,
                Some(a.number),
                json!({ "type": "game_over", "game": a.game, "after_move": a.number, "scores": scores, "winners": a.winners }),
            );
        }
    }

    pub fn undone(&self, u: &Undone) {
        self.send(
            &u.game,
            None,
            json!({
                "type": "undo",
                "game": u.game,
                "removed": u.removed,
                "move_number": u.move_number,
                "to_move": u.to_move.map(|c| c.to_string()),
            }),
        );
    }

    pub fn ai_thinking(&self, game: &str, colour: char, move_number: i64, level: u8) {
        self.send(
            game,
            None,
            json!({ "type": "ai_thinking", "game": game, "colour": colour.to_string(), "move_number": move_number, "level": level }),
        );
    }
}
