//! AI seats: the server plays them on blocking worker threads (never on the async runtime),
//! then submits the move through the same transaction as a client's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rumis_ai::PlayerSpec;
use tokio::sync::Semaphore;

use crate::db::{Actor, SeatKind};
use crate::{events, App};

pub struct Runner {
    /// Games with a driver task running; `true` when asked to look again once it ends.
    active: Mutex<HashMap<String, bool>>,
    /// Limits how many AI moves are computed at once.
    workers: Option<Arc<Semaphore>>,
}

impl Runner {
    pub fn new(workers: usize) -> Runner {
        Runner {
            active: Mutex::new(HashMap::new()),
            workers: (workers > 0).then(|| Arc::new(Semaphore::new(workers))),
        }
    }
}

/// Makes sure an AI seat to move in this game gets played: starts a driver task for the
/// game, or tells the running one to look again.
pub fn kick(app: &Arc<App>, game: &str) {
    if app.ai.workers.is_none() {
        return;
    }
    {
        let mut active = app.ai.active.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(again) = active.get_mut(game) {
            *again = true;
            return;
        }
        active.insert(game.to_string(), false);
    }
    let app = app.clone();
    let game = game.to_string();
    tokio::spawn(async move {
        loop {
            drive(&app, &game).await;
            let mut active = app.ai.active.lock().unwrap_or_else(|e| e.into_inner());
            match active.get_mut(&game) {
                Some(again) if *again => *again = false,
                _ => {
                    active.remove(&game);
                    return;
                }
            }
        }
    });
}

/// A seed for an AI move: the same game and move number give the same choice.
pub(crate) fn seed(game: &str, number: i64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in game.bytes().chain(number.to_le_bytes()) {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// Plays AI moves while an AI seat is to move.
async fn drive(app: &Arc<App>, id: &str) {
    let Some(workers) = app.ai.workers.clone() else { return };
    loop {
        let loaded = match app.store.load(id).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("rumis server: AI for game {id}: cannot load it: {}", e.reason);
                return;
            }
        };
        let Some(seat) = loaded.seat_to_move().filter(|s| s.kind == SeatKind::Ai).cloned() else {
            return;
        };
        let Ok(_permit) = workers.acquire().await else { return };
        let number = loaded.move_number();
        let colour = loaded.game.to_move().map(|c| c.letter()).unwrap_or('?');
        app.announce(vec![events::ai_thinking(id, colour, number, seat.level)])
            .await;
        let game = loaded.game;
        let level = seat.level.clamp(1, 9);
        let s = seed(id, number);
        let chosen = tokio::task::spawn_blocking(move || {
            let mut player = PlayerSpec::Level(level).build(s, 1);
            player.choose(&game).map(|m| game.notation(m))
        })
        .await;
        let text = match chosen {
            Ok(Some(t)) => t,
            Ok(None) => return,
            Err(e) => {
                eprintln!("rumis server: AI for game {id}: the search failed: {e}");
                return;
            }
        };
        let order = app.lock_game(id).await;
        let submitted = app.store.submit(id, &Actor::Ai(seat.seat), &text, number).await;
        if let Ok(accepted) = &submitted {
            app.committed(events::for_move(accepted));
        }
        drop(order);
        match submitted {
            Ok(_) => {}
            // The game moved on meanwhile (an undo): look again.
            Err(e) if e.status.as_u16() == 409 => continue,
            Err(e) => {
                eprintln!("rumis server: AI for game {id}: move {number} refused: {}", e.reason);
                return;
            }
        }
    }
}
