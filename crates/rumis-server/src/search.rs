//! Searches a client asks for: a hint for the colour to move, and the analysis of a game.
//! Both run `rumis_ai` on threads of their own (`search_thread.rs`) once the AI's
//! scheduler (`queue.rs`) gives them a thread, in one line with the AI seats' moves and with shares by the asking address;
//! a hint may be cut short there for a calm address. Analyses are kept in memory.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::StatusCode;
use rumis_ai::{level_config, Mcts, MctsConfig, Stop};
use rumis_core::Game;

use crate::error::ApiError;
use crate::queue::AiQueue;
use crate::time::{SearchTime, Time};
use crate::view;
use rumis_wire as wire;

/// How long a request waits for a thread before `503 busy`.
const WAIT: Duration = Duration::from_secs(30);
/// The longest a hint searches, on the real clock: beyond any level's own time (level 9:
/// 4.5 s), so only a hint on a manual time that nobody moves on meets it (time.rs).
const HINT_CAP: Duration = Duration::from_secs(60);
/// Simulations per position of an analysis.
pub const ANALYSIS_SIMULATIONS: u64 = 200;
/// Analyses kept in memory (all are dropped when there would be more).
const CACHED: usize = 256;

/// An analysis kept: the moves analysed (an undo followed by another move has the same
/// count) and the answer.
type Kept = (Vec<String>, Arc<wire::Analysis>);

pub struct Searches {
    /// The AI's scheduler, whose threads the searches share.
    queue: Arc<AiQueue>,
    /// The server's time, which a level's own search time is counted on (time.rs).
    time: Time,
    /// By (game id, moves played).
    analyses: Mutex<HashMap<(String, usize), Kept>>,
}

impl Searches {
    pub fn new(queue: Arc<AiQueue>, time: Time) -> Searches {
        Searches {
            queue,
            time,
            analyses: Mutex::new(HashMap::new()),
        }
    }

    /// Hints and analyses running now (for `/metrics`).
    pub fn running(&self) -> usize {
        self.queue.searches_running()
    }

    /// Runs `work` on a search thread (`search_thread.rs`) once the scheduler gives
    /// `address` one, for `time` ([`SearchTime::run`]); `cuttable`: the scheduler may raise
    /// the stop flag given to `work`.
    async fn run<T: Send + 'static>(
        &self,
        address: &str,
        cuttable: bool,
        time: &SearchTime,
        work: impl FnOnce(Stop) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let slot = tokio::time::timeout(WAIT, self.queue.admit(address, cuttable))
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "busy",
                    "the server is busy with other searches; try again later",
                )
            })?
            .ok_or_else(|| ApiError::internal("the AI's scheduler is gone"))?;
        let stop = slot.stop();
        let search = crate::search_thread::spawn(slot.nicer(), move || {
            let out = work(slot.stop());
            drop(slot);
            out
        });
        time.run(stop, search)
            .await
            .map_err(|e| ApiError::internal(format!("the search failed: {e}")))
    }
}

/// Four decimals are plenty for a win estimate.
fn round(v: f32) -> f64 {
    (v as f64 * 10_000.0).round() / 10_000.0
}

/// The level a hint asks for: 4 to 9 (the tree-search levels of `rumis_ai`), 5 if none.
pub fn hint_level(asked: Option<i64>) -> Result<u8, ApiError> {
    let level = asked.unwrap_or(6);
    u8::try_from(level)
        .ok()
        .filter(|l| (4..=9).contains(l))
        .ok_or_else(|| ApiError::bad_request("bad_level", format!("a hint searches at level 4 to 9, not {level}")))
}

/// The best placement for the colour to move, found by a fresh search at `level`'s budget
/// (see [`hint_level`]) on one thread, from `seed`, for a client at `address`.
pub async fn hint(
    searches: &Searches,
    address: &str,
    game: Game,
    level: u8,
    seed: u64,
) -> Result<wire::Hint, ApiError> {
    let Some(colour) = game.to_move() else {
        return Err(ApiError::conflict(
            "game_over",
            "the game is over: there is nothing to hint",
        ));
    };
    let config = level_config(level);
    let time = SearchTime::new(&searches.time, config.time, Some(HINT_CAP));
    let search_time = time.search();
    searches
        .run(address, true, &time, move |stop| {
            let mut mcts = Mcts::new(MctsConfig {
                threads: 1,
                seed,
                label: format!("hint:{level}"),
                stop,
                time: search_time,
                ..config
            });
            let r = mcts
                .search(&game)
                .ok_or_else(|| ApiError::conflict("game_over", "the game is over: there is nothing to hint"))?;
            Ok(wire::Hint {
                placement: view::placement(&game, r.best),
                colour: colour.to_string(),
                // The mover's mean reward over the whole search: steadier than the best
                // move's own mean, which rests on few visits at low levels.
                estimate: round(r.estimates[colour.index()]),
                simulations: r.simulations,
                level,
            })
        })
        .await?
}

/// The analysis of a game's moves (cached by game and moves), for a client at `address`.
/// Never cut short: it is kept for everyone who asks next.
pub async fn analysis(
    searches: &Searches,
    address: &str,
    id: &str,
    game: Game,
) -> Result<Arc<wire::Analysis>, ApiError> {
    let moves: Vec<String> = game.moves().iter().map(|&m| game.notation(m)).collect();
    let key = (id.to_string(), moves.len());
    {
        let cache = searches.analyses.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((analysed, answer)) = cache.get(&key) {
            if *analysed == moves {
                return Ok(answer.clone());
            }
        }
    }
    // Counted in simulations: no time of its own.
    let time = SearchTime::new(&searches.time, None, None);
    let answer = searches
        .run(address, false, &time, move |_| {
            let mut mcts = Mcts::new(MctsConfig {
                simulations: Some(ANALYSIS_SIMULATIONS),
                time: None,
                threads: 1,
                seed: 1,
                label: "analysis".into(),
                ..MctsConfig::default()
            });
            let a = rumis_ai::analysis::analyse(&game, &mut mcts).map_err(ApiError::internal)?;
            let order = &game.site().order();
            let estimates = a
                .estimates
                .iter()
                .map(|e| order.iter().map(|c| (c.to_string(), round(e[c.index()]))).collect())
                .collect();
            let moves = a
                .losses
                .iter()
                .map(|l| wire::MoveLoss {
                    number: l.index + 1,
                    colour: l.colour.to_string(),
                    placement: game.notation(l.mv),
                    loss: round(l.loss),
                })
                .collect();
            Ok::<wire::Analysis, ApiError>(wire::Analysis {
                colours: order.iter().map(|c| c.to_string()).collect(),
                moves_played: game.moves().len(),
                simulations: ANALYSIS_SIMULATIONS,
                estimates,
                moves,
                worst: a.worst(5).iter().map(|l| l.index + 1).collect(),
            })
        })
        .await??;
    let answer = Arc::new(answer);
    let mut cache = searches.analyses.lock().unwrap_or_else(|e| e.into_inner());
    if cache.len() >= CACHED {
        cache.clear();
    }
    cache.insert(key, (moves, answer.clone()));
    Ok(answer)
}
