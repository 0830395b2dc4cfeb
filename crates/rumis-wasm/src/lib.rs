//! The core and the AI for a browser without a server: one entry point, [`handle`], that
//! takes a JSON request and answers JSON, so the same code runs in WebAssembly (through
//! the plain `extern "C"` functions of `ffi`) and natively (its tests).
//!
//! The engine keeps no game between calls: a game travels as its **record** (rules §7:
//! board, players, variant, colours, stuck rule, ruins, moves), which the core reads and
//! replays on every call. So the browser's storage holds exactly what is exported, a page
//! reload or a restarted worker loses nothing, and every rule is the core's.
//!
//! Requests are `{"cmd": NAME, ...}`, one of [`protocol::Request`]; answers are the
//! command's object, or `{"error": CODE, "reason": TEXT}` (a failed command changes
//! nothing — there is nothing to change). The web app's TypeScript for both is written from
//! [`protocol`]'s types.

mod failure;
#[cfg(target_arch = "wasm32")]
mod ffi;
pub mod protocol;
mod puzzle;
mod training;
mod view;

use rumis_ai::{level_config, Mcts, MctsConfig, SearchResult};
use rumis_core::{record, Board, BoardSource, Game, GameSetup, Rng, Ruins, SetupError, Stone, Variant};
use rumis_wire as wire;
use rumis_wire::boards::{self, DEFAULT_FILE, INLINE_FILE, MAX_BOARD_TEXT};
use serde::Deserialize;

pub use failure::Failure;
pub use protocol::{Request, Seat};

use failure::fail;

/// Level 9 searches for this long a move, as natively (`rumis_ai::level_config(9)`), by
/// the page's clock: `wasm32-unknown-unknown` has none in its std (`Instant::now` panics
/// there), so the search runs in slices of [`SLICE`] simulations on one kept tree and
/// looks at the clock between slices.
pub const LEVEL9_MILLIS: f64 = 4_500.0;
/// Simulations per slice of a timed search.
pub const SLICE: u64 = 250;

/// Milliseconds from some fixed start: the page's `performance.now()` in the browser.
#[cfg(target_arch = "wasm32")]
fn now_ms() -> f64 {
    #[link(wasm_import_module = "env")]
    extern "C" {
        fn rumis_now_ms() -> f64;
    }
    // SAFETY: a function of the page (module.ts) with no arguments and no effects.
    unsafe { rumis_now_ms() }
}

#[cfg(not(target_arch = "wasm32"))]
fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

/// A board file the core refused: `bad_board` with the core's message, and its file, line
/// and message apart (as the server's `422 bad_board`).
fn bad_board(e: rumis_core::BoardError) -> Failure {
    let mut f = fail("bad_board", e.to_string());
    f.detail.file = Some(e.file);
    f.detail.line = Some(e.line);
    f.detail.message = Some(e.message);
    f
}

/// Answers one request (a [`Request`] as JSON) with the command's answer as JSON, or with
/// the error body `{"error": CODE, "reason": TEXT, ...}` of a refusal.
pub fn handle(request: &str) -> String {
    dispatch(request).unwrap_or_else(|f| {
        let body = wire::ErrorBody {
            error: f.code.into(),
            reason: f.reason,
            detail: *f.detail,
        };
        serde_json::to_string(&body).unwrap_or_default()
    })
}

/// The command's name alone, read first: an unknown command is refused as such, and a
/// malformed one is named in its refusal.
#[derive(Deserialize)]
#[serde(expecting = "struct Request")]
struct Named {
    cmd: String,
}

/// Reads the request once into a [`Request`] and answers it.
fn dispatch(text: &str) -> Result<String, Failure> {
    let Named { cmd } = serde_json::from_str(text).map_err(|e| fail("bad_request", format!("not a request: {e}")))?;
    if !Request::COMMANDS.contains(&cmd.as_str()) {
        return Err(fail("unknown_command", format!("unknown command '{cmd}'")));
    }
    let request: Request = serde_json::from_str(text).map_err(|e| fail("bad_request", format!("{cmd}: {e}")))?;
    match request {
        Request::New(r) => answer(new(&r)),
        Request::ReadRecord(r) => answer(read_record(&r.text)),
        Request::State(r) => answer(state(r)),
        Request::Placements(r) => answer(load(&r.record).map(|g| view::placements(&g))),
        Request::Legal(r) => answer(legal(&r.record)),
        Request::Play(r) => answer(play(r)),
        Request::Undo(r) => answer(undo(&r)),
        Request::Ai(r) => answer(ai(&r)),
        Request::Hint(r) => answer(hint(&load(&r.record)?, r.level.unwrap_or(6), r.seed.unwrap_or(1))),
        Request::Analysis(r) => answer(analysis(
            &load(&r.record)?,
            r.count.map_or(ANALYSIS_SIMULATIONS, u64::from),
        )),
        Request::Review(r) => answer(review(&r)),
        Request::Playouts(r) => answer(playouts(&r)),
        Request::Perft(r) => answer(perft(&r)),
        Request::Engine => answer(Ok(protocol::EngineAnswer {
            code_path: rumis_core::CodePath::active().name().into(),
            relaxed_simd: cfg!(target_feature = "relaxed-simd"),
        })),
        Request::Puzzle(r) => answer(puzzle::cube(r.size.as_deref().unwrap_or("3x3x3"), &r.moves)),
        Request::PuzzleSolution(r) => answer(puzzle::solution(r.name.as_deref().unwrap_or(""))),
        Request::Lessons => answer(puzzle::lessons()),
        Request::Boards => answer(Ok(wire::Boards {
            boards: Board::builtins().iter().map(boards::board_info).collect(),
        })),
        Request::Stones => answer(Ok(wire::Stones {
            stones: Stone::ALL.iter().map(|&s| boards::stone_info(s)).collect(),
        })),
        Request::CheckBoard(r) => answer(check_board(&r)),
        Request::BoardToml(r) => answer(board_toml(&r.name)),
        Request::TrainingPick(r) => answer(training::pick(&r)),
        Request::TrainingPuzzle(r) => answer(training::puzzle(&r)),
        Request::TrainingAttempt(r) => answer(training::attempt(&r)),
    }
}

/// A command's answer as JSON.
fn answer<T: serde::Serialize>(answer: Result<T, Failure>) -> Result<String, Failure> {
    serde_json::to_string(&answer?).map_err(|e| fail("internal", e.to_string()))
}

fn new(r: &protocol::NewRequest) -> Result<protocol::NewAnswer, Failure> {
    let game = new_game(r)?;
    Ok(protocol::NewAnswer {
        record: record::write(&game),
        state: view::state(&game, &view::Context::default()),
    })
}

fn read_record(text: &str) -> Result<protocol::ReadRecordAnswer, Failure> {
    let game = load(text)?;
    let (board, players, variant) = view::setup_of(&game);
    Ok(protocol::ReadRecordAnswer {
        record: record::write(&game),
        board,
        players,
        variant: variant.into(),
        moves: game.moves().len(),
        over: game.is_over(),
    })
}

fn state(r: protocol::StateRequest) -> Result<wire::State, Failure> {
    let game = load(&r.record)?;
    let ctx = view::Context {
        id: r.id.unwrap_or_default(),
        seats: r.seats.unwrap_or_default(),
        hot_seat: r.hot_seat.unwrap_or(false),
    };
    Ok(view::state_at(&game, r.at, &ctx))
}

fn legal(record: &str) -> Result<protocol::LegalAnswer, Failure> {
    let mut legal = load(record)?.legal_notations();
    legal.sort();
    Ok(protocol::LegalAnswer { legal })
}

fn ai(r: &protocol::AiRequest) -> Result<protocol::AiAnswer, Failure> {
    let game = load(&r.record)?;
    let level = r
        .level
        .ok_or_else(|| fail("bad_request", "ai needs a level (1 to 9)"))?;
    ai_move(&game, level, r.seed.unwrap_or(1))
}

fn playouts(r: &protocol::PlayoutsRequest) -> Result<protocol::PlayoutsAnswer, Failure> {
    let game = load(&r.record)?;
    let count = r.count.unwrap_or(100).min(1_000_000);
    let mut rng = Rng::new(r.seed.unwrap_or(1));
    let mut plies = 0u64;
    // The core's playout, as the search runs it (the generator in place, no history).
    let start = game.position().plies();
    for _ in 0..count {
        let end = rumis_core::random_playout(game.site(), game.position(), &mut rng);
        plies += (end.plies() - start) as u64;
    }
    Ok(protocol::PlayoutsAnswer { games: count, plies })
}

fn perft(r: &protocol::PerftRequest) -> Result<protocol::PerftAnswer, Failure> {
    let game = load(&r.record)?;
    let depth = r.depth.unwrap_or(1);
    if !(1..=3).contains(&depth) {
        return Err(fail("bad_request", format!("perft: depth {depth} is not 1, 2 or 3")));
    }
    let leaves = rumis_core::perft(game.site(), game.position(), depth);
    Ok(protocol::PerftAnswer { depth, leaves })
}

fn check_board(r: &protocol::CheckBoardRequest) -> Result<wire::BoardChecked, Failure> {
    board_text_size(&r.toml)?;
    let file = r.file.as_deref().unwrap_or(DEFAULT_FILE);
    let board = Board::from_toml(file, &r.toml).map_err(bad_board)?;
    Ok(wire::BoardChecked {
        board: boards::checked_board(&board),
    })
}

fn board_toml(name: &str) -> Result<protocol::BoardTomlAnswer, Failure> {
    match Board::builtin_file(name) {
        Some(text) => Ok(protocol::BoardTomlAnswer { toml: text.into() }),
        None => Err(fail("not_found", format!("no scenario '{}'", name.escape_debug()))),
    }
}

/// A board file's text no longer than the server takes ([`MAX_BOARD_TEXT`]).
fn board_text_size(text: &str) -> Result<(), Failure> {
    if text.len() > MAX_BOARD_TEXT {
        return Err(fail(
            "body_too_large",
            format!(
                "the board file is {} bytes; at most {MAX_BOARD_TEXT} are taken",
                text.len()
            ),
        ));
    }
    Ok(())
}

/// The game a record describes, replayed by the core on the built-in boards.
pub fn load(text: &str) -> Result<Game, Failure> {
    record::read_game(text).map_err(|e| fail("bad_record", e.to_string()))
}

fn new_game(r: &protocol::NewRequest) -> Result<Game, Failure> {
    // The core reads and checks the setup: its words are every front end's.
    let bad = |e: SetupError| fail("bad_setup", e.to_string());
    let board = match (&r.board_file, &r.board) {
        (Some(text), _) => {
            board_text_size(text)?;
            BoardSource::File {
                name: INLINE_FILE.into(),
                text: text.clone(),
            }
        }
        (None, Some(name)) => BoardSource::Builtin(name.clone()),
        (None, None) => {
            return Err(fail(
                "bad_setup",
                "say which board: board (a scenario's name) or board_file (a board file's text)",
            ))
        }
    };
    let mut setup = GameSetup::new(board, r.players);
    setup
        .set_given([
            ("variant", r.variant.as_deref()),
            ("colors", r.colours.as_deref()),
            ("stuck_rule", r.stuck_rule.as_deref()),
        ])
        .map_err(bad)?;
    let ruinas = setup.variant == Variant::Ruinas;
    setup.ruins = match (&r.ruins, r.ruins_seed) {
        // (An empty list of ruins is no ruins, in any game.)
        (Some(list), _) if ruinas || !list.is_empty() => Some(Ruins::Placements(list.clone())),
        (_, Some(seed)) => Some(Ruins::Seed(seed)),
        // Ruinas without a seed: the page's default, seed 1.
        _ if ruinas => Some(Ruins::Seed(1)),
        _ => None,
    };
    setup.start().map_err(bad)
}

fn play(r: protocol::PlayRequest) -> Result<protocol::PlayAnswer, Failure> {
    let mut game = load(&r.record)?;
    let text = r
        .placement
        .ok_or_else(|| fail("bad_request", "play needs a placement"))?;
    let before = game.position().clone();
    let colour = game
        .to_move()
        .ok_or_else(|| fail("game_over", "the game is over: no more placements"))?;
    let m = game.play_text(&text).map_err(|e| fail("illegal_move", e.to_string()))?;
    let out: Vec<String> = view::colours_in_order(&game)
        .into_iter()
        .filter(|&c| game.position().is_out(c) && !before.is_out(c))
        .map(|c| c.to_string())
        .collect();
    Ok(protocol::PlayAnswer {
        record: record::write(&game),
        number: game.moves().len(),
        colour: colour.to_string(),
        placement: game.notation(m),
        to_move: game.to_move().map(|c| c.to_string()),
        out,
        over: game.is_over(),
    })
}

/// Takes back the moves since (and including) the last move of a human seat, as the
/// server's hot-seat undo does; without seats, the last move.
fn undo(r: &protocol::UndoRequest) -> Result<protocol::UndoAnswer, Failure> {
    let mut game = load(&r.record)?;
    let seats = r.seats.as_deref();
    let n = game.moves().len();
    let human = |i: usize| -> bool {
        let Some(seats) = seats else { return true };
        let site = game.site();
        game.mover(i)
            .and_then(|c| site.player_of(c))
            .and_then(|p| seats.get(p))
            .is_none_or(|s| s.kind != "ai")
    };
    let first = (0..n)
        .rev()
        .find(|&i| human(i))
        .ok_or_else(|| fail("nothing_to_undo", "there is no move of a person to take back"))?;
    while game.moves().len() > first {
        game.undo();
    }
    Ok(protocol::UndoAnswer {
        record: record::write(&game),
        removed: (first + 1..=n).collect(),
    })
}

/// The search of `level` as the browser runs it: one thread; a timed level (9) in slices
/// of simulations, its time kept by [`search`].
fn browser_config(level: u8, seed: u64) -> (MctsConfig, Option<f64>) {
    let mut config = MctsConfig {
        threads: 1,
        seed,
        ..level_config(level)
    };
    let millis = config.time.take().map(|t| t.as_secs_f64() * 1000.0);
    if millis.is_some() {
        config.simulations = Some(SLICE);
        config.two_player_simulations = None;
        config.reuse = true;
    }
    (config, millis)
}

/// Searches the game at `level`: a fixed number of simulations (levels 4-8), or slices of
/// them on one tree (kept between slices by the search's reuse) until the time is up.
fn search(game: &Game, level: u8, seed: u64) -> Option<SearchResult> {
    let (config, millis) = browser_config(level, seed);
    let mut mcts = Mcts::new(config);
    let Some(millis) = millis else {
        return mcts.search(game);
    };
    let start = now_ms();
    let mut total = 0;
    loop {
        let mut r = mcts.search(game)?;
        total += r.simulations;
        // (An endgame solved exactly runs no simulation: nothing more to search.)
        if r.simulations == 0 || now_ms() - start >= millis {
            r.simulations = total;
            return Some(r);
        }
    }
}

fn ai_move(game: &Game, level: u8, seed: u64) -> Result<protocol::AiAnswer, Failure> {
    if !(1..=9).contains(&level) {
        return Err(fail("bad_level", format!("a level is 1 to 9, not {level}")));
    }
    if game.is_over() {
        return Err(fail("game_over", "the game is over: no more placements"));
    }
    if level <= 3 {
        // Levels 1-3 do not search: the core's level player chooses.
        let mut player = rumis_ai::level(level, seed, 1);
        let m = player
            .choose(game)
            .ok_or_else(|| fail("game_over", "the game is over: no more placements"))?;
        return Ok(protocol::AiAnswer {
            placement: game.notation(m),
            simulations: 0,
        });
    }
    let r = search(game, level, seed).ok_or_else(|| fail("game_over", "the game is over: no more placements"))?;
    Ok(protocol::AiAnswer {
        placement: game.notation(r.best),
        simulations: r.simulations,
    })
}

fn hint(game: &Game, level: u8, seed: u64) -> Result<wire::Hint, Failure> {
    if !(4..=9).contains(&level) {
        return Err(fail(
            "bad_level",
            format!("a hint searches at level 4 to 9, not {level}"),
        ));
    }
    let colour = game
        .to_move()
        .ok_or_else(|| fail("game_over", "the game is over: there is nothing to hint"))?;
    let r = search(game, level, seed).ok_or_else(|| fail("game_over", "the game is over: there is nothing to hint"))?;
    Ok(wire::Hint {
        placement: boards::placement_on(game.site(), game.position(), r.best),
        colour: colour.to_string(),
        // (Rounded as an f32, which the JSON writes as the f64 nearest it.)
        estimate: f64::from((r.estimates[colour.index()] * 1000.0).round() / 1000.0),
        simulations: r.simulations,
        level,
    })
}

/// Simulations per position of an analysis (the server's budget).
pub const ANALYSIS_SIMULATIONS: u64 = 200;

fn round(x: f32) -> f64 {
    (x as f64 * 1000.0).round() / 1000.0
}

/// Every colour's win estimate at every position and what each move cost its mover, in
/// the shape of the server's `GET /games/{id}/analysis`.
fn analysis(game: &Game, simulations: u64) -> Result<wire::Analysis, Failure> {
    let mut mcts = Mcts::new(MctsConfig {
        simulations: Some(simulations.clamp(1, 100_000)),
        time: None,
        threads: 1,
        seed: 1,
        label: "analysis".into(),
        ..MctsConfig::default()
    });
    let a = rumis_ai::analysis::analyse(game, &mut mcts).map_err(|e| fail("bad_record", e))?;
    let order = view::colours_in_order(game);
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
    Ok(wire::Analysis {
        colours: order.iter().map(|c| c.to_string()).collect(),
        moves_played: game.moves().len(),
        simulations,
        estimates,
        moves,
        worst: a.worst(5).iter().map(|l| l.index + 1).collect(),
    })
}

/// Simulations per position of a review by default (level 8's budget, the server's).
pub const REVIEW_SIMULATIONS: u64 = 10_000;

/// A game's review, as the server computes it (`rumis_wire::review`: the same search
/// configuration and answer), `r.searches` searches at a time.
fn review(r: &protocol::ReviewRequest) -> Result<protocol::ReviewAnswer, Failure> {
    let simulations = r.simulations.unwrap_or(REVIEW_SIMULATIONS).clamp(1, 100_000);
    let t = rumis_ai::review::THRESHOLDS;
    REVIEW.with(|kept| {
        let mut kept = kept.borrow_mut();
        let key = (r.record.clone(), simulations);
        let under_way = match kept.take() {
            Some(k) if k.key == key => k,
            _ => {
                let game = load(&r.record)?;
                let reviewer = rumis_ai::review::Reviewer::new(&game, &wire::review::config(simulations), &t)
                    .map_err(|e| fail("bad_record", e))?;
                UnderWay { key, game, reviewer }
            }
        };
        let UnderWay {
            key,
            game,
            mut reviewer,
        } = under_way;
        let mut left = r.searches.map_or(u64::MAX, |n| u64::from(n.max(1)));
        loop {
            // A step that does only bookkeeping counts no search.
            let before = reviewer.progress().0;
            if !reviewer.step().map_err(|e| fail("bad_record", e))? {
                let (done, total) = reviewer.progress();
                let review = wire::review::answer(&game, &reviewer.finish(), simulations, &t);
                return Ok(protocol::ReviewAnswer {
                    done,
                    total,
                    review: Some(review),
                });
            }
            if reviewer.progress().0 > before {
                left -= 1;
                if left == 0 {
                    break;
                }
            }
        }
        let (done, total) = reviewer.progress();
        *kept = Some(UnderWay { key, game, reviewer });
        Ok(protocol::ReviewAnswer {
            done,
            total,
            review: None,
        })
    })
}

/// A review between calls of `review`, for its record and budget.
struct UnderWay {
    key: (String, u64),
    game: Game,
    reviewer: rumis_ai::review::Reviewer,
}

thread_local! {
    /// The engine's one review under way (a page reviews one game at a time).
    static REVIEW: std::cell::RefCell<Option<UnderWay>> = const { std::cell::RefCell::new(None) };
}

#[cfg(test)]
mod tests;
