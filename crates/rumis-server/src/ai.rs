//! AI seats: workers take games from the AI queue (`queue.rs`), search on threads of their
//! own at a lower priority (`search_thread.rs`; never on the async runtime), then submit
//! the move through the game service like a client's move.

use std::sync::Arc;
use std::time::Duration;

use rumis_ai::{level_config, Mcts, MctsConfig, Player, Stop};
use rumis_core::Game;

use crate::error::GameError;
use crate::queue::{AiQueue, Job};
use crate::service::{Actor, Games};
use crate::time::{SearchTime, Time};

/// A seed for an AI move: the same game and move number give the same choice.
pub(crate) fn seed(game: &str, number: i64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in game.bytes().chain(number.to_le_bytes()) {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// The pause before an AI turn whose search failed is searched again: 1 s after the first
/// failure, doubling with each one in a row, at most a minute. A search fails when no thread
/// can be started for it (the process is at its limit, which passes) or when it panicked
/// (a fault of the core's, which a later try may not meet: the game may have changed).
fn retry_pause(failures: u32) -> Duration {
    Duration::from_secs(1 << failures.min(6)).min(Duration::from_secs(60))
}

/// `RUMIS_FAULT=search_fails_once`: the first AI search of the process panics (for
/// tests/server/crash.rs: a failed search strands no game).
fn fault_search_fails_once() -> bool {
    static FAULT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    static USED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    *FAULT.get_or_init(|| std::env::var("RUMIS_FAULT").is_ok_and(|f| f == "search_fails_once"))
        && !USED.swap(true, std::sync::atomic::Ordering::Relaxed)
}

/// A level's search time on the server's time, within the move cap (time.rs).
fn search_time(time: &Time, level: u8, cap: Duration) -> SearchTime {
    SearchTime::new(time, level_config(level).time, Some(cap))
}

/// The player of a level, searching for `time` (at most the move cap), or until `stop` is
/// raised (the scheduler takes the thread back: `queue.rs`; or the level's time passed on a
/// manual time: [`SearchTime::run`]).
fn player(level: u8, seed: u64, time: &SearchTime, stop: Stop) -> Box<dyn Player> {
    if level <= 3 {
        return rumis_ai::level(level, seed, 1);
    }
    Box::new(Mcts::new(MctsConfig {
        threads: 1,
        seed,
        time: time.search(),
        stop,
        ..level_config(level)
    }))
}

/// Starts the workers of `workers` threads on the queue: three times as many tasks as
/// threads. The queue lets `workers` search at once on its slots and as many more for calm
/// addresses (`queue.rs`), and a worker gives its thread back when its search ends
/// ([`AiQueue::searched`]) and then writes the move, while another takes the thread.
pub fn start(
    games: Arc<Games>,
    queue: Arc<AiQueue>,
    workers: usize,
    cap: Duration,
) -> Vec<tokio::task::JoinHandle<()>> {
    (0..3 * workers)
        .map(|_| {
            let games = games.clone();
            let queue = queue.clone();
            tokio::spawn(async move {
                loop {
                    let job = queue.next().await;
                    games.holding_ai_turn(&job.game, play(&games, &queue, &job, cap)).await;
                    queue.done(&job);
                }
            })
        })
        .collect()
}

/// Plays one AI move in a game, if an AI seat is to move.
async fn play(games: &Arc<Games>, queue: &Arc<AiQueue>, job: &Job, cap: Duration) {
    let id = &job.game;
    let loaded = match games.load(id).await {
        Ok(l) => l,
        Err(GameError::UnknownGame(_)) => return,
        Err(e) => {
            tracing::warn!(game = %id, "AI cannot load the game: {e}");
            // Busy: look again later rather than strand the game.
            if matches!(e, GameError::Busy(_)) {
                tokio::time::sleep(Duration::from_secs(1)).await;
                games.requeue(job);
            }
            return;
        }
    };
    let Some(seat) = Games::ai_turn(&loaded) else { return };
    let number = loaded.move_number();
    let Some(colour) = loaded.game.to_move() else { return };
    games
        .announce(vec![games.thinking(id, colour, number, seat.level)])
        .await;
    let game: Game = loaded.game;
    let level = seat.level.clamp(1, 9);
    let s = seed(id, number);
    let stop = job.stop.clone();
    let time = search_time(games.time(), level, cap);
    let search = {
        let (time, stop) = (time.clone(), stop.clone());
        let fail = fault_search_fails_once();
        crate::search_thread::spawn(job.nicer, move || {
            if fail {
                panic!("RUMIS_FAULT=search_fails_once");
            }
            let mut player = player(level, s, &time, stop);
            player.choose(&game).map(|m| game.notation(m))
        })
    };
    let chosen = time.run(stop, search).await;
    queue.searched(job);
    let text = match chosen {
        Ok(Some(t)) => t,
        Ok(None) => return,
        Err(e) => {
            // The game is not left waiting for a move nobody will search: the turn goes back
            // to the queue after a pause, which keeps a search that fails at once from
            // taking a thread over and over. The pause is waited out apart, so that this
            // worker and the turn's lease are free meanwhile.
            let pause = retry_pause(job.failures);
            tracing::error!(game = %id, "AI search failed: {e}; searching again in {pause:?}");
            let (games, again) = (
                games.clone(),
                Job {
                    failures: job.failures + 1,
                    ..job.clone()
                },
            );
            tokio::spawn(async move {
                tokio::time::sleep(pause).await;
                games.requeue(&again);
            });
            return;
        }
    };
    match games.submit(id, Actor::Ai(seat.seat), text, number).await {
        // The service queues the game again when another AI seat is to move.
        Ok(_) => {}
        // The game moved on meanwhile (an undo): look again.
        Err(GameError::StaleMoveNumber { .. } | GameError::NotYourTurn { .. }) => games.requeue(job),
        Err(GameError::Busy(_)) => {
            tokio::time::sleep(Duration::from_secs(1)).await;
            games.requeue(job);
        }
        Err(e) => tracing::warn!(game = %id, "AI move {number} refused: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rumis_core::{Board, Site, Variant};

    /// A failed search is tried again after 1, 2, 4 … s, never over a minute however many
    /// failed in a row.
    #[test]
    fn the_pause_after_failed_searches_doubles_to_a_minute() {
        let pauses: Vec<u64> = [0, 1, 2, 3, 4, 5, 6, 7, 40, u32::MAX]
            .into_iter()
            .map(|n| retry_pause(n).as_secs())
            .collect();
        assert_eq!(pauses, [1, 2, 4, 8, 16, 32, 60, 60, 60, 60]);
    }

    /// Level 9 searches 4.5 s a move; the server's cap cuts it short (a liveness bound, not
    /// a speed figure: 3 s is far above the 0.3 s cap and far below 4.5 s).
    #[test]
    fn the_move_cap_cuts_a_level_9_search() {
        let board = Board::builtin("chullpa").unwrap().clone();
        let game = Game::new(Arc::new(Site::new(board, 2, Variant::Standard, None).unwrap()));
        let started = std::time::Instant::now();
        let time = search_time(&Time::real(), 9, Duration::from_millis(300));
        let m = player(9, 1, &time, Stop::default()).choose(&game);
        assert!(m.is_some());
        assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    }
}
