//! The core and the AI for a browser without a server: one entry point, [`handle`], that
//! takes a JSON request and answers JSON, so the same code runs in WebAssembly (through
//! the plain `extern "C"` functions of `ffi`) and natively (its tests).
//!
//! The engine keeps no game between calls: a game travels as its **record** (rules §7:
//! board, players, variant, colours, stuck rule, ruins, moves), which the core reads and
//! replays on every call. So the browser's storage holds exactly what is exported, a page
//! reload or a restarted worker loses nothing, and every rule is the core's.
//!
//! Requests are `{"cmd": NAME, ...}`; answers are the command's object, or
//! `{"error": CODE, "reason": TEXT}` (a failed command changes nothing — there is nothing
//! to change). The commands are listed in [`handle`].

#[cfg(target_arch = "wasm32")]
mod ffi;
mod puzzle;
mod view;

use rumis_ai::{level_config, Mcts, MctsConfig, SearchResult};
use rumis_core::{record, Board, BoardSource, Game, GameSetup, Rng, Ruins, SetupError, Stone, Variant};
use rumis_wire as wire;
use rumis_wire::boards::{self, DEFAULT_FILE, INLINE_FILE, MAX_BOARD_TEXT};
use serde::Deserialize;
use serde_json::{json, Value};

pub use view::Seat;

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

/// A failed command: a stable code for programs and a sentence for people, and fields for
/// a program as the server's error body has them (a refused board file's `file`, `line`
/// and `message`).
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub code: &'static str,
    pub reason: String,
    pub detail: serde_json::Map<String, Value>,
}

fn fail(code: &'static str, reason: impl Into<String>) -> Failure {
    Failure {
        code,
        reason: reason.into(),
        detail: serde_json::Map::new(),
    }
}

/// A board file the core refused: `bad_board` with the core's message, and its file, line
/// and message apart (as the server's `422 bad_board`).
fn bad_board(e: rumis_core::BoardError) -> Failure {
    let mut f = fail("bad_board", e.to_string());
    f.detail.insert("file".into(), json!(e.file));
    f.detail.insert("line".into(), json!(e.line));
    f.detail.insert("message".into(), json!(e.message));
    f
}

#[derive(Deserialize)]
struct Request {
    cmd: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    #[allow(dead_code)]
    cmd: String,
    /// A built-in scenario by name, or else
    #[serde(default)]
    board: Option<String>,
    /// a board file's text (rules §3), as the server's `board_file`.
    #[serde(default)]
    board_file: Option<String>,
    players: usize,
    #[serde(default)]
    variant: Option<String>,
    /// The order of play as letters, e.g. "YR"; the first colours of R, Y, G, B if absent.
    #[serde(default)]
    colours: Option<String>,
    #[serde(default)]
    stuck_rule: Option<String>,
    /// Ruinas: the seed of the random ruins (rules §6), unless `ruins` are given.
    #[serde(default)]
    ruins_seed: Option<u64>,
    /// Ruinas: the ruins as placements, in order.
    #[serde(default)]
    ruins: Option<Vec<String>>,
}

/// `puzzle` {size, moves} and `puzzle_solution` {name}.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Puzzle {
    #[allow(dead_code)]
    cmd: String,
    #[serde(default)]
    size: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OnGame {
    #[allow(dead_code)]
    cmd: String,
    record: String,
    /// Only the first `at` moves (state).
    #[serde(default)]
    at: Option<usize>,
    /// play: the placement in notation.
    #[serde(default)]
    placement: Option<String>,
    /// ai, hint: the level (1-9; a hint searches at 4-9).
    #[serde(default)]
    level: Option<u8>,
    /// ai, hint, playouts: the seed of the engine's choices.
    #[serde(default)]
    seed: Option<u64>,
    /// state, undo: who sits at each player's place (index = player).
    #[serde(default)]
    seats: Option<Vec<Seat>>,
    #[serde(default)]
    hot_seat: Option<bool>,
    #[serde(default)]
    id: Option<String>,
    /// playouts: how many random games from this position.
    #[serde(default)]
    count: Option<u32>,
    /// perft: how many placements deep (at most 3: the browser has no time limit to cut a
    /// deep count short).
    #[serde(default)]
    depth: Option<u32>,
}

/// Answers one request. Commands:
///
/// - `new` {board or board_file, players, variant?, colours?, stuck_rule?, ruins_seed?, ruins?} →
///   {record, state}
/// - `read_record` {text} → {record, board, players, variant, moves}: a record checked and
///   written back by the core
/// - `state` {record, at?, seats?, hot_seat?, id?} → the state the app draws (the shape of
///   the server's `GET /games/{id}`)
/// - `placements` {record} → {move_number, colour, placements: [{placement, stone,
///   orientation, cubes}]}
/// - `legal` {record} → {legal: [placement…]} sorted (what the differential test compares)
/// - `play` {record, placement} → {record, number, colour, placement, to_move, out, over}
/// - `undo` {record, seats?} → {record, removed}: back to before the last move of a human
///   seat (every move when no seats are given)
/// - `ai` {record, level, seed?} → {placement, simulations}: the level's choice (not played)
/// - `hint` {record, level?, seed?} → {placement, stone, orientation, cubes, colour,
///   estimate, simulations, level}
/// - `analysis` {record, count?} → {colours, estimates, moves, worst, …}: every position
///   searched with `count` simulations (200)
/// - `playouts` {record, count, seed?} → {games, plies}: random games to the end (a speed
///   figure)
/// - `perft` {record, depth} → {depth, leaves}: the core's perft (rules §8), depth 1-3 (a
///   speed figure, and a check of the generator)
/// - `engine` → {code_path, relaxed_simd}: the generator's code path in this build
///   (`simd128` in a module compiled with WebAssembly SIMD, else `scalar`; natively the
///   CPU's widest), and whether the module uses relaxed SIMD (`i8x16.relaxed_swizzle`)
/// - `puzzle` {size, moves} → the box after the stones (the server's `POST /puzzles/cube`)
/// - `puzzle_solution` {name} → `cube3` or `tower5` to watch (`GET /puzzles/{name}`)
/// - `lessons` → the "How to play" examples (`GET /lessons`)
/// - `boards` → {boards: [...]}, `stones` → {stones: [...]} (`GET /boards`, `GET /stones`)
/// - `check_board` {toml, file?} → {board}: the board file read by the core, as the
///   server's `POST /boards/check` answers (refused: `bad_board` with `file`, `line`,
///   `message`)
/// - `board_toml` {name} → {toml}: a scenario's own board file
pub fn handle(request: &str) -> String {
    let answer = match dispatch(request) {
        Ok(v) => v,
        Err(f) => {
            let mut body = f.detail;
            body.insert("error".into(), json!(f.code));
            body.insert("reason".into(), json!(f.reason));
            Value::Object(body)
        }
    };
    answer.to_string()
}

fn dispatch(request: &str) -> Result<Value, Failure> {
    let req: Request = serde_json::from_str(request).map_err(|e| fail("bad_request", format!("not a request: {e}")))?;
    let parse = |what: &str| -> Result<OnGame, Failure> {
        serde_json::from_str(request).map_err(|e| fail("bad_request", format!("{what}: {e}")))
    };
    match req.cmd.as_str() {
        "new" => {
            let r: NewGame = serde_json::from_str(request).map_err(|e| fail("bad_request", format!("new: {e}")))?;
            let game = new_game(&r)?;
            let text = record::write(&game);
            Ok(json!({ "record": text, "state": view::state(&game, &view::Context::default()) }))
        }
        "read_record" => {
            #[derive(Deserialize)]
            struct ReadRecord {
                text: String,
            }
            let r: ReadRecord =
                serde_json::from_str(request).map_err(|e| fail("bad_request", format!("read_record: {e}")))?;
            let game = load(&r.text)?;
            let (board, players, variant) = view::setup_of(&game);
            Ok(json!({
                "record": record::write(&game),
                "board": board,
                "players": players,
                "variant": variant,
                "moves": game.moves().len(),
                "over": game.is_over(),
            }))
        }
        "state" => {
            let r = parse("state")?;
            let game = load(&r.record)?;
            let ctx = view::Context {
                id: r.id.unwrap_or_default(),
                seats: r.seats.unwrap_or_default(),
                hot_seat: r.hot_seat.unwrap_or(false),
            };
            Ok(view::state_at(&game, r.at, &ctx))
        }
        "placements" => {
            let game = load(&parse("placements")?.record)?;
            Ok(view::placements(&game))
        }
        "legal" => {
            let game = load(&parse("legal")?.record)?;
            let mut legal = game.legal_notations();
            legal.sort();
            Ok(json!({ "legal": legal }))
        }
        "play" => {
            let r = parse("play")?;
            let mut game = load(&r.record)?;
            let text = r
                .placement
                .ok_or_else(|| fail("bad_request", "play needs a placement"))?;
            play(&mut game, &text)
        }
        "undo" => {
            let r = parse("undo")?;
            let mut game = load(&r.record)?;
            let removed = undo(&mut game, r.seats.as_deref())?;
            Ok(json!({ "record": record::write(&game), "removed": removed }))
        }
        "ai" => {
            let r = parse("ai")?;
            let game = load(&r.record)?;
            let level = r
                .level
                .ok_or_else(|| fail("bad_request", "ai needs a level (1 to 9)"))?;
            ai_move(&game, level, r.seed.unwrap_or(1))
        }
        "hint" => {
            let r = parse("hint")?;
            let game = load(&r.record)?;
            hint(&game, r.level.unwrap_or(6), r.seed.unwrap_or(1))
        }
        "analysis" => {
            let r = parse("analysis")?;
            let game = load(&r.record)?;
            analysis(&game, r.count.map_or(ANALYSIS_SIMULATIONS, u64::from))
        }
        "playouts" => {
            let r = parse("playouts")?;
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
            Ok(json!({ "games": count, "plies": plies }))
        }
        "perft" => {
            let r = parse("perft")?;
            let game = load(&r.record)?;
            let depth = r.depth.unwrap_or(1);
            if !(1..=3).contains(&depth) {
                return Err(fail("bad_request", format!("perft: depth {depth} is not 1, 2 or 3")));
            }
            let leaves = rumis_core::perft(game.site(), game.position(), depth);
            Ok(json!({ "depth": depth, "leaves": leaves }))
        }
        "puzzle" | "puzzle_solution" => {
            let r: Puzzle =
                serde_json::from_str(request).map_err(|e| fail("bad_request", format!("{}: {e}", req.cmd)))?;
            if req.cmd == "puzzle" {
                puzzle::cube(r.size.as_deref().unwrap_or("3x3x3"), &r.moves)
            } else {
                puzzle::solution(r.name.as_deref().unwrap_or(""))
            }
        }
        "lessons" => puzzle::lessons(),
        "engine" => Ok(json!({
            "code_path": rumis_core::CodePath::active().name(),
            "relaxed_simd": cfg!(target_feature = "relaxed-simd"),
        })),
        "boards" => to_value(wire::Boards {
            boards: Board::builtins().iter().map(boards::board_info).collect(),
        }),
        "stones" => to_value(wire::Stones {
            stones: Stone::ALL.iter().map(|&s| boards::stone_info(s)).collect(),
        }),
        "check_board" => {
            #[derive(Deserialize)]
            #[serde(deny_unknown_fields)]
            struct CheckBoard {
                #[allow(dead_code)]
                cmd: String,
                toml: String,
                #[serde(default)]
                file: Option<String>,
            }
            let r: CheckBoard =
                serde_json::from_str(request).map_err(|e| fail("bad_request", format!("check_board: {e}")))?;
            board_text_size(&r.toml)?;
            let file = r.file.as_deref().unwrap_or(DEFAULT_FILE);
            let board = Board::from_toml(file, &r.toml).map_err(bad_board)?;
            to_value(wire::BoardChecked {
                board: boards::checked_board(&board),
            })
        }
        "board_toml" => {
            #[derive(Deserialize)]
            #[serde(deny_unknown_fields)]
            struct BoardToml {
                #[allow(dead_code)]
                cmd: String,
                name: String,
            }
            let r: BoardToml =
                serde_json::from_str(request).map_err(|e| fail("bad_request", format!("board_toml: {e}")))?;
            match Board::builtin_file(&r.name) {
                Some(text) => Ok(json!({ "toml": text })),
                None => Err(fail("not_found", format!("no scenario '{}'", r.name.escape_debug()))),
            }
        }
        other => Err(fail("unknown_command", format!("unknown command '{other}'"))),
    }
}

fn to_value<T: serde::Serialize>(answer: T) -> Result<Value, Failure> {
    serde_json::to_value(answer).map_err(|e| fail("internal", e.to_string()))
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

fn new_game(r: &NewGame) -> Result<Game, Failure> {
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

fn play(game: &mut Game, text: &str) -> Result<Value, Failure> {
    let before = game.position().clone();
    let colour = game
        .to_move()
        .ok_or_else(|| fail("game_over", "the game is over: no more placements"))?;
    let m = game.play_text(text).map_err(|e| fail("illegal_move", e.to_string()))?;
    let out: Vec<String> = view::colours_in_order(game)
        .into_iter()
        .filter(|&c| game.position().is_out(c) && !before.is_out(c))
        .map(|c| c.to_string())
        .collect();
    Ok(json!({
        "record": record::write(game),
        "number": game.moves().len(),
        "colour": colour.to_string(),
        "placement": game.notation(m),
        "to_move": game.to_move().map(|c| c.to_string()),
        "out": out,
        "over": game.is_over(),
    }))
}

/// Takes back the moves since (and including) the last move of a human seat, as the
/// server's hot-seat undo does; without seats, the last move.
fn undo(game: &mut Game, seats: Option<&[Seat]>) -> Result<Vec<usize>, Failure> {
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
    Ok((first + 1..=n).collect())
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

fn ai_move(game: &Game, level: u8, seed: u64) -> Result<Value, Failure> {
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
        return Ok(json!({ "placement": game.notation(m), "simulations": 0 }));
    }
    let r = search(game, level, seed).ok_or_else(|| fail("game_over", "the game is over: no more placements"))?;
    Ok(json!({ "placement": game.notation(r.best), "simulations": r.simulations }))
}

fn hint(game: &Game, level: u8, seed: u64) -> Result<Value, Failure> {
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
    let mut body = view::placement(game, r.best);
    if let Value::Object(map) = &mut body {
        map.insert("colour".into(), json!(colour.to_string()));
        map.insert(
            "estimate".into(),
            json!((r.estimates[colour.index()] * 1000.0).round() / 1000.0),
        );
        map.insert("simulations".into(), json!(r.simulations));
        map.insert("level".into(), json!(level));
    }
    Ok(body)
}

/// Simulations per position of an analysis (the server's budget).
pub const ANALYSIS_SIMULATIONS: u64 = 200;

fn round(x: f32) -> f64 {
    (x as f64 * 1000.0).round() / 1000.0
}

/// Every colour's win estimate at every position and what each move cost its mover, in
/// the shape of the server's `GET /games/{id}/analysis`.
fn analysis(game: &Game, simulations: u64) -> Result<Value, Failure> {
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
    let estimates: Vec<Value> = a
        .estimates
        .iter()
        .map(|e| {
            Value::Object(
                order
                    .iter()
                    .map(|c| (c.to_string(), json!(round(e[c.index()]))))
                    .collect(),
            )
        })
        .collect();
    let moves: Vec<Value> = a
        .losses
        .iter()
        .map(|l| json!({ "number": l.index + 1, "colour": l.colour.to_string(), "placement": game.notation(l.mv), "loss": round(l.loss) }))
        .collect();
    Ok(json!({
        "colours": order.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "moves_played": game.moves().len(),
        "simulations": simulations,
        "estimates": estimates,
        "moves": moves,
        "worst": a.worst(5).iter().map(|l| l.index + 1).collect::<Vec<_>>(),
    }))
}

#[cfg(test)]
mod tests;
