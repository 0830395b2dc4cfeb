//! The engine's answers, natively (the same code as in the browser).

use super::*;
use serde_json::{json, Value};

fn call(v: Value) -> Value {
    serde_json::from_str(&handle(&v.to_string())).unwrap()
}

fn new(board: &str, players: usize) -> String {
    let a = call(json!({ "cmd": "new", "board": board, "players": players }));
    a["record"].as_str().unwrap().to_string()
}

#[test]
fn a_new_game_is_the_cores() {
    let a = call(json!({ "cmd": "new", "board": "chullpa", "players": 4 }));
    let s = &a["state"];
    assert_eq!(s["legal_moves"].as_array().unwrap().len(), 687);
    assert_eq!(s["to_move"], "R");
    assert_eq!(s["site"]["colours"], json!(["R", "Y", "G", "B"]));
    assert_eq!(s["colours"][0]["stones_left"].as_array().unwrap().len(), 11);
    let record = a["record"].as_str().unwrap();
    assert!(record.contains("[Board \"Chullpa\"]"), "{record}");
    assert_eq!(s["site"]["stuck_rule"], "out", "the rulebooks' rule unless asked");
}

/// The house rule asked for is the game's, says so in its state (the page's title reads it)
/// and stays in its record (a reload replays the record).
#[test]
fn a_new_game_under_the_pass_rule() {
    let a = call(json!({ "cmd": "new", "board": "chullpa", "players": 2, "stuck_rule": "pass" }));
    assert_eq!(a["state"]["site"]["stuck_rule"], "pass");
    let record = a["record"].as_str().unwrap();
    assert!(record.contains("[StuckRule \"pass\"]"), "{record}");
}

#[test]
fn bad_setups_get_the_cores_words() {
    let a = call(json!({ "cmd": "new", "board": "atlantis", "players": 2 }));
    assert_eq!(a["error"], "bad_setup");
    assert!(a["reason"].as_str().unwrap().contains("unknown board 'atlantis'"));
    let a = call(json!({ "cmd": "new", "board": "chullpa", "players": 5 }));
    assert_eq!(a["reason"], "a game has 2 to 4 players, not 5");
    let a = call(json!({ "cmd": "new", "board": "chullpa", "players": 4, "variant": "ruinas" }));
    assert_eq!(a["error"], "bad_setup");
    assert_eq!(call(json!({ "cmd": "dance" }))["error"], "unknown_command");
    assert_eq!(call(json!("no object"))["error"], "bad_request");
    assert_eq!(handle("{"), handle("{"));
    assert!(handle("{").contains("bad_request"));
}

/// A malformed request is refused as `bad_request` (an unknown command as
/// `unknown_command`), naming the command and what is wrong, and nothing panics.
#[test]
fn malformed_requests_are_refused_with_a_clear_reason() {
    let refused = |v: Value| -> (String, String) {
        let a = call(v);
        assert_eq!(a.as_object().map(|o| o.len()), Some(2), "only error and reason: {a}");
        (
            a["error"].as_str().unwrap().into(),
            a["reason"].as_str().unwrap().into(),
        )
    };
    let record = new("chullpa", 2);
    let cases = [
        (json!({ "cmd": "dance" }), "unknown_command", "unknown command 'dance'"),
        (
            json!({ "cmd": 5 }),
            "bad_request",
            "not a request: invalid type: integer `5`, expected a string",
        ),
        (json!({}), "bad_request", "not a request: missing field `cmd`"),
        (
            json!(true),
            "bad_request",
            "not a request: invalid type: boolean `true`, expected struct Request",
        ),
        (
            json!({ "cmd": "new", "board": "chullpa" }),
            "bad_request",
            "new: missing field `players`",
        ),
        (
            json!({ "cmd": "new", "board": "chullpa", "players": "two" }),
            "bad_request",
            "new: invalid type: string \"two\", expected usize",
        ),
        (
            json!({ "cmd": "new", "board": "chullpa", "players": 2, "foo": 1 }),
            "bad_request",
            "new: unknown field `foo`",
        ),
        (
            json!({ "cmd": "state" }),
            "bad_request",
            "state: missing field `record`",
        ),
        (
            json!({ "cmd": "state", "record": record, "at": -1 }),
            "bad_request",
            "state: invalid value: integer `-1`, expected usize",
        ),
        (
            json!({ "cmd": "undo", "record": record, "seats": [{ "level": 3 }] }),
            "bad_request",
            "undo: missing field `kind`",
        ),
        (
            json!({ "cmd": "ai", "record": record, "level": 300 }),
            "bad_request",
            "ai: invalid value: integer `300`, expected u8",
        ),
        (
            json!({ "cmd": "ai", "record": record }),
            "bad_request",
            "ai needs a level (1 to 9)",
        ),
        (
            json!({ "cmd": "play", "record": record }),
            "bad_request",
            "play needs a placement",
        ),
        (
            json!({ "cmd": "legal", "record": record, "level": 3 }),
            "bad_request",
            "legal: unknown field `level`",
        ),
        (
            json!({ "cmd": "puzzle", "moves": "A4" }),
            "bad_request",
            "puzzle: invalid type: string \"A4\", expected a sequence",
        ),
        (
            json!({ "cmd": "check_board", "toml": 7 }),
            "bad_request",
            "check_board: invalid type: integer `7`, expected a string",
        ),
    ];
    for (request, code, reason) in cases {
        let (error, said) = refused(request.clone());
        assert_eq!(error, code, "{request}: {said}");
        assert!(said.starts_with(reason), "{request}: {said}");
    }
    for text in ["{", "", "null", "{\"cmd\": \"new\", \"players\": 2", "\u{0}"] {
        let a: Value = serde_json::from_str(&handle(text)).unwrap();
        assert_eq!(a["error"], "bad_request", "{text:?}: {a}");
    }
    // The commands without fields take none and ignore any.
    assert!(call(json!({ "cmd": "engine", "extra": true }))["code_path"].is_string());
}

/// Every command the protocol declares is one `handle` answers (a typo in a name would be
/// `unknown_command` here, or a refusal of the enum).
#[test]
fn every_declared_command_is_answered() {
    for &cmd in Request::COMMANDS {
        let a = call(json!({ "cmd": cmd }));
        assert_ne!(a["error"], "unknown_command", "{cmd}: {a}");
        // (Its fields missing: refused as malformed, naming the command, or by the command.)
        if a["error"] == "bad_request" {
            assert!(a["reason"].as_str().unwrap().starts_with(cmd), "{cmd}: {a}");
        }
    }
}

#[test]
fn a_placement_is_played_or_refused_with_the_cores_error() {
    let record = new("chullpa", 4);
    let a = call(json!({ "cmd": "play", "record": record, "placement": "L4@a1,a2,a3,b1" }));
    assert_eq!(a["number"], 1);
    assert_eq!(a["colour"], "R");
    assert_eq!(a["to_move"], "Y");
    let after = a["record"].as_str().unwrap();
    assert!(after.contains("1. L4@a1,a2,a3,b1"), "{after}");
    // Yellow's first stone must touch red (rules); the core's sentence comes back.
    let b = call(json!({ "cmd": "play", "record": after, "placement": "L4@f6,f5,f4,e6" }));
    assert_eq!(b["error"], "illegal_move", "{b}");
    let native = {
        let mut g = load(after).unwrap();
        g.play_text("L4@f6,f5,f4,e6").unwrap_err().to_string()
    };
    assert_eq!(b["reason"], native);
    let c = call(json!({ "cmd": "play", "record": after, "placement": "nonsense" }));
    assert_eq!(c["error"], "illegal_move");
}

#[test]
fn state_at_shows_history_and_the_last_move() {
    let mut record = new("chullpa", 2);
    for _ in 0..3 {
        let legal = call(json!({ "cmd": "legal", "record": record }));
        let first = legal["legal"][0].as_str().unwrap().to_string();
        record = call(json!({ "cmd": "play", "record": record, "placement": first }))["record"]
            .as_str()
            .unwrap()
            .to_string();
    }
    let s = call(json!({ "cmd": "state", "record": record, "at": 2, "id": "x1" }));
    assert_eq!(s["moves_played"], 3);
    assert_eq!(s["at"], 2);
    assert_eq!(s["move_number"], 3);
    assert_eq!(s["last_move"]["number"], 2);
    assert_eq!(s["moves"].as_array().unwrap().len(), 2);
    assert_eq!(s["id"], "x1");
    let cubes: usize = s["last_move"]["cubes"].as_array().unwrap().len();
    assert!((2..=4).contains(&cubes));
}

#[test]
fn undo_takes_back_to_the_last_human_move() {
    let mut record = new("chullpa", 2);
    for _ in 0..3 {
        let ai = call(json!({ "cmd": "ai", "record": record, "level": 1, "seed": 3 }));
        let p = ai["placement"].as_str().unwrap();
        record = call(json!({ "cmd": "play", "record": record, "placement": p }))["record"]
            .as_str()
            .unwrap()
            .to_string();
    }
    // Seat 0 (red) is a person, seat 1 (yellow) the AI: moves 1 and 3 are red's.
    let seats = json!([{ "kind": "human" }, { "kind": "ai", "level": 5 }]);
    let a = call(json!({ "cmd": "undo", "record": record, "seats": seats }));
    assert_eq!(a["removed"], json!([3]));
    let after = a["record"].as_str().unwrap().to_string();
    let b = call(json!({ "cmd": "undo", "record": after, "seats": seats }));
    assert_eq!(b["removed"], json!([1, 2]));
    let empty = b["record"].as_str().unwrap();
    let c = call(json!({ "cmd": "undo", "record": empty, "seats": seats }));
    assert_eq!(c["error"], "nothing_to_undo");
}

#[test]
fn the_ai_and_the_hint_choose_legal_placements() {
    let record = new("coricancha", 4);
    let legal = call(json!({ "cmd": "legal", "record": record }))["legal"].clone();
    for level in [1, 3, 4] {
        let a = call(json!({ "cmd": "ai", "record": record, "level": level, "seed": 7 }));
        assert!(
            legal.as_array().unwrap().contains(&a["placement"]),
            "level {level}: {a}"
        );
    }
    let h = call(json!({ "cmd": "hint", "record": record, "level": 4 }));
    assert!(legal.as_array().unwrap().contains(&h["placement"]), "{h}");
    assert_eq!(h["simulations"], 100);
    assert_eq!(
        call(json!({ "cmd": "ai", "record": record, "level": 10 }))["error"],
        "bad_level"
    );
    assert_eq!(
        call(json!({ "cmd": "hint", "record": record, "level": 3 }))["error"],
        "bad_level"
    );
}

#[test]
fn level_nine_searches_for_its_time_in_slices() {
    // No clock in wasm32-unknown-unknown's std: level 9 must not ask for one, and keeps
    // its 4.5 s by the page's clock, a slice of simulations at a time.
    let (c, millis) = browser_config(9, 1);
    assert_eq!(c.time, None);
    assert_eq!(c.simulations, Some(SLICE));
    assert!(c.reuse);
    assert_eq!(millis, Some(LEVEL9_MILLIS));
    let (c8, none) = browser_config(8, 1);
    assert_eq!((c8.simulations, c8.time, none), (Some(10_000), None, None));
    let record = new("chullpa", 2);
    let start = now_ms();
    let a = call(json!({ "cmd": "ai", "record": record, "level": 9 }));
    let took = now_ms() - start;
    // Liveness bounds, not speed: it stopped after its time and ran more than one slice.
    assert!((LEVEL9_MILLIS..LEVEL9_MILLIS + 30_000.0).contains(&took), "{took} ms");
    assert!(a["simulations"].as_u64().unwrap() > SLICE, "{a}");
}

#[test]
fn records_are_read_checked_and_written_back() {
    let a = call(
        json!({ "cmd": "read_record", "text": "[Board \"Pisac\"]\n[Players \"3\"]\n\n1. L4@a1,a2,a3,b1 2. L4@a1,a2,a3,b1\n" }),
    );
    assert!(a.get("error").is_some(), "a stone on a place taken is refused: {a}");
    let record = new("pisac", 3);
    let a = call(json!({ "cmd": "read_record", "text": record }));
    assert_eq!(a["board"], "Pisac");
    assert_eq!(a["players"], 3);
    assert_eq!(a["record"], record);
    assert_eq!(
        call(json!({ "cmd": "read_record", "text": "garbage" }))["error"],
        "bad_record"
    );
}

#[test]
fn ruinas_keeps_its_ruins_in_the_record() {
    let a = call(json!({ "cmd": "new", "board": "tambo", "players": 2, "variant": "ruinas", "ruins_seed": 4 }));
    let record = a["record"].as_str().unwrap();
    assert!(record.contains("[Setup \""), "{record}");
    let s = call(json!({ "cmd": "state", "record": record }));
    assert!(!s["site"]["ruins"].as_array().unwrap().is_empty());
    assert!(s["position"]["cube_count"].as_u64().unwrap() > 0);
}

#[test]
fn boards_stones_and_playouts() {
    let b = call(json!({ "cmd": "boards" }));
    assert_eq!(b["boards"].as_array().unwrap().len(), 6);
    let s = call(json!({ "cmd": "stones" }));
    assert_eq!(s["stones"].as_array().unwrap().len(), 11);
    let p = call(json!({ "cmd": "playouts", "record": new("chullpa", 2), "count": 5 }));
    assert_eq!(p["games"], 5);
    assert!(p["plies"].as_u64().unwrap() >= 10);
}

#[test]
fn an_analysis_has_an_estimate_per_position() {
    let mut record = new("chullpa", 2);
    for _ in 0..4 {
        let p = call(json!({ "cmd": "ai", "record": record, "level": 3 }))["placement"].clone();
        record = call(json!({ "cmd": "play", "record": record, "placement": p }))["record"]
            .as_str()
            .unwrap()
            .to_string();
    }
    let a = call(json!({ "cmd": "analysis", "record": record, "count": 20 }));
    assert_eq!(a["estimates"].as_array().unwrap().len(), 5, "{a}");
    assert_eq!(a["moves"].as_array().unwrap().len(), 4);
    assert_eq!(a["colours"], json!(["R", "Y"]));
}

/// The engine's review is the one `rumis_ai::review` gives, in the server's shape.
#[test]
fn a_review_is_rumis_ais() {
    let mut record = new("chullpa", 2);
    for _ in 0..4 {
        let p = call(json!({ "cmd": "ai", "record": record, "level": 1 }))["placement"].clone();
        record = call(json!({ "cmd": "play", "record": record, "placement": p }))["record"]
            .as_str()
            .unwrap()
            .to_string();
    }
    let r = call(json!({ "cmd": "review", "record": record, "simulations": 50 }));
    let game = rumis_core::record::read_game(&record).unwrap();
    let t = rumis_ai::review::THRESHOLDS;
    let want = rumis_ai::review::review(&game, &rumis_wire::review::config(50), &t, |_, _| {}).unwrap();
    let want = serde_json::to_value(rumis_wire::review::answer(&game, &want, 50, &t)).unwrap();
    assert_eq!(r["review"], want);
    assert_eq!(r["done"], r["total"]);
    assert_eq!(r["review"]["moves"].as_array().unwrap().len(), 4);
    // A search a call: the progress grows by one each time, and the review at the end is
    // the same. A call for another record between them starts that one afresh; the first
    // then starts again too, and still ends in the same review.
    let step = |record: &str| call(json!({ "cmd": "review", "record": record, "simulations": 50, "searches": 1 }));
    let first = step(&record);
    assert_eq!(
        (first["done"].as_u64(), first["review"].is_null()),
        (Some(1), true),
        "{first}"
    );
    let other = new("chullpa", 2);
    assert_eq!(step(&other)["done"], 1);
    let mut calls = 0;
    let stepped = loop {
        let a = step(&record);
        calls += 1;
        assert!(calls <= 20, "a review of 4 moves in at most 9 searches: {a}");
        if !a["review"].is_null() {
            break a;
        }
        assert_eq!(a["done"].as_u64(), Some(calls), "{a}");
        assert!(a["total"].as_u64() >= a["done"].as_u64(), "{a}");
    };
    assert_eq!(stepped["review"], want);
    assert!(calls >= 4, "{calls} calls");
    assert_eq!(
        call(json!({ "cmd": "review", "record": "nonsense" }))["error"],
        "bad_record"
    );
}

#[test]
fn perft_is_the_cores_and_bounded() {
    // rules §8's figure (README, `rumis perft --depth 2 --board chullpa --players 4`).
    let p = call(json!({ "cmd": "perft", "record": new("chullpa", 4), "depth": 2 }));
    assert_eq!(p["leaves"], 165_662);
    let deep = call(json!({ "cmd": "perft", "record": new("chullpa", 4), "depth": 4 }));
    assert_eq!(deep["error"], "bad_request");
    let path = call(json!({ "cmd": "engine" }));
    let name = path["code_path"].as_str().unwrap();
    assert!(
        rumis_core::CodePath::from_name(name).is_some_and(|p| p.is_available()),
        "{name}"
    );
}

#[test]
fn the_puzzle_and_the_lessons_without_a_server() {
    let empty = call(json!({ "cmd": "puzzle", "size": "3x3x3", "moves": [] }));
    assert_eq!(empty["volume"], 27);
    assert_eq!(empty["filled"], 0);
    let first = empty["placements"][0]["placement"].as_str().unwrap().to_string();
    let one = call(json!({ "cmd": "puzzle", "size": "3x3x3", "moves": [first.clone()] }));
    assert_eq!(one["placed"].as_array().unwrap().len(), 1);
    assert!(one["filled"].as_u64().unwrap() >= 2);
    // The same stone twice is refused with the stone's number, and nothing is kept.
    let twice = call(json!({ "cmd": "puzzle", "size": "3x3x3", "moves": [first.clone(), first] }));
    assert_eq!(twice["error"], "illegal_move");
    assert!(twice["reason"].as_str().unwrap().starts_with("stone 2:"), "{twice}");
    assert_eq!(call(json!({ "cmd": "puzzle", "size": "9x9x9" }))["error"], "bad_size");
    // The 3 x 3 x 3 solution fills the box: 27 cubes.
    let cube3 = call(json!({ "cmd": "puzzle_solution", "name": "cube3" }));
    let cubes: usize = cube3["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["cubes"].as_array().unwrap().len())
        .sum();
    assert_eq!(cubes, 27);
    let tower = call(json!({ "cmd": "puzzle_solution", "name": "tower5" }));
    assert_eq!(tower["size"], json!([5, 5, 5]));
    assert_eq!(
        call(json!({ "cmd": "puzzle_solution", "name": "cube9" }))["error"],
        "not_found"
    );
    let lessons = call(json!({ "cmd": "lessons" }));
    assert_eq!(lessons["examples"][0]["id"], "first_stone");
    assert!(lessons["scores"].as_array().is_some_and(|s| !s.is_empty()));
}

/// The board editor without a server: a scenario's own file, checked by the core in the
/// server's shape; a refused file names its line; a game on the file is played and its
/// record carries the board.
#[test]
fn the_board_editor_without_a_server() {
    let text = call(json!({ "cmd": "board_toml", "name": "chullpa" }))["toml"]
        .as_str()
        .unwrap()
        .to_string();
    let checked = call(json!({ "cmd": "check_board", "toml": text }));
    let board = Board::from_toml("board.toml", &text).unwrap();
    assert_eq!(
        checked,
        serde_json::to_value(wire::BoardChecked {
            board: boards::checked_board(&board)
        })
        .unwrap()
    );
    assert_eq!(checked["board"]["columns"]["4"], 20);

    let broken = format!("{text}\nnot toml at all\n");
    let refused = call(json!({ "cmd": "check_board", "toml": broken, "file": "mine.toml" }));
    assert_eq!(refused["error"], "bad_board", "{refused}");
    assert_eq!(refused["file"], "mine.toml");
    assert!(refused["line"].as_u64().unwrap() >= 1, "{refused}");
    assert!(
        refused["reason"].as_str().unwrap().starts_with("mine.toml:"),
        "{refused}"
    );

    let huge = "#".repeat(MAX_BOARD_TEXT + 1);
    assert_eq!(
        call(json!({ "cmd": "check_board", "toml": huge }))["error"],
        "body_too_large"
    );
    assert_eq!(
        call(json!({ "cmd": "board_toml", "name": "atlantis" }))["error"],
        "not_found"
    );

    // A board of one's own (a built-in's file under its own name is the built-in).
    let own = text.replace(
        "name = \"Chullpa\"\naliases = [\"tower\", \"Turm\"]",
        "name = \"My tower\"\naliases = []",
    );
    assert_ne!(own, text);
    let a = call(json!({ "cmd": "new", "board_file": own, "players": 2 }));
    let record = a["record"].as_str().unwrap().to_string();
    assert!(record.contains("[BoardFile "), "{record}");
    let played = call(json!({ "cmd": "play", "record": record, "placement": a["state"]["legal_moves"][0] }));
    assert_eq!(played["number"], 1, "{played}");
    let bad = call(json!({ "cmd": "new", "board_file": "files = 0", "players": 2 }));
    assert_eq!(bad["error"], "bad_setup", "{bad}");
    assert!(bad["reason"].as_str().unwrap().contains("board_file"), "{bad}");
    let none = call(json!({ "cmd": "new", "players": 2 }));
    assert_eq!(none["error"], "bad_setup", "{none}");
}

/// A local game under the pass rule names who passed after each move, as the server's
/// state does (before, the engine's state had no `passed`, so the page could not say it).
#[test]
fn a_local_pass_rule_game_names_the_passes() {
    use rumis_core::{Site, StuckRule};
    use std::sync::Arc;
    let board = Board::builtin("chullpa").unwrap().clone();
    let site = Arc::new(
        Site::new(board, 4, Variant::Standard, None)
            .unwrap()
            .with_stuck_rule(StuckRule::Pass),
    );
    let order = site.order().to_vec();
    for seed in 0..2000 {
        let mut game = Game::new(site.clone());
        game.play_random(&mut Rng::new(seed));
        let skip = (0..game.moves().len().saturating_sub(1)).find_map(|i| {
            let (a, b) = (game.mover(i)?, game.mover(i + 1)?);
            let from = order.iter().position(|&c| c == a)?;
            let skipped = order[(from + 1) % 4];
            (skipped != b && !game.positions()[i + 1].is_out(skipped)).then_some((i, skipped))
        });
        let Some((at, colour)) = skip else { continue };
        let st = call(json!({ "cmd": "state", "record": record::write(&game) }));
        assert_eq!(st["site"]["stuck_rule"], "pass");
        let passed = &st["moves"][at]["passed"];
        assert!(
            passed.as_array().unwrap().contains(&json!(colour.to_string())),
            "{passed}"
        );
        assert_eq!(
            st["moves"][at]["passed"],
            json!(rumis_wire::game::passed_after(&game, at)
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>())
        );
        return;
    }
    panic!("no pass in 2000 random games");
}

/// The shipped puzzles of Chullpa with two players, as the static app's `training.json`
/// carries them.
fn shipped_puzzles() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../puzzles/chullpa-2.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The engine judges and rates a puzzle's answer as the server does (the same code): a
/// first solve is rated (Glicko-2's 1662 for two new ratings), an answer to a puzzle
/// tried before is not, a wrong one says why, an illegal one is refused.
#[test]
fn a_puzzle_is_judged_and_rated_as_the_server_does() {
    let set = shipped_puzzles();
    let p = &set["puzzles"][0];
    let new = json!({ "rating": 1500.0, "deviation": 350.0, "volatility": 0.06, "attempts": 0 });
    let ask = |placement: &Value, you: &Value, tried: bool| {
        call(
            json!({ "cmd": "training_attempt", "board": "Chullpa", "players": 2, "puzzle": p,
                     "placement": placement, "you": you, "tried": tried }),
        )
    };
    let a = ask(&p["best"], &new, false);
    assert_eq!(
        (a["solved"].clone(), a["rated"].clone()),
        (json!(true), json!(true)),
        "{a}"
    );
    assert_eq!(a["change"]["after"].as_f64().unwrap().round(), 1662.0, "{a}");
    assert_eq!(a["you"]["attempts"], 1);
    let again = ask(&p["best"], &a["you"], true);
    assert_eq!(again["rated"], false);
    assert_eq!(again["you"], a["you"]);
    let shown = call(json!({ "cmd": "training_puzzle", "board": "Chullpa", "players": 2, "puzzle": p }));
    let other = shown["placements"]["placements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["placement"].clone())
        .find(|q| q != &p["best"])
        .unwrap();
    let wrong = ask(&other, &new, false);
    assert_eq!(wrong["solved"], false);
    assert!(wrong["reason"].as_str().unwrap().contains("is worse than"), "{wrong}");
    assert!(wrong["change"]["after"].as_f64().unwrap() < 1500.0);
    let illegal = ask(&json!("L4@a1,a2,a3,b1"), &new, false);
    assert_eq!(illegal["error"], "illegal_move", "{illegal}");
    assert_eq!(
        shown["state"]["moves_played"],
        json!(p["moves"].as_array().unwrap().len())
    );
    assert_eq!(shown["to_move"], p["to_move"]);
}

/// The daily puzzle is the server's for the same day and puzzles.
#[test]
fn the_daily_puzzle_is_the_servers_choice() {
    let set = shipped_puzzles();
    let candidates: Vec<Value> = set["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| json!({ "id": p["id"], "board": "Chullpa", "players": 2, "rating": p["rating"], "themes": p["themes"] }))
        .collect();
    let a = call(json!({ "cmd": "training_pick", "candidates": candidates, "day": 20_000 }));
    let typed: Vec<rumis_ai::puzzles::pick::Candidate> = serde_json::from_value(json!(candidates)).unwrap();
    assert_eq!(
        a["id"],
        json!(rumis_ai::puzzles::pick::daily(20_000, &typed).unwrap().id)
    );
    assert_eq!(a["date"], "2024-10-04");
    let next =
        call(json!({ "cmd": "training_pick", "candidates": candidates, "rating": 1500.0, "filter": { "players": 3 } }));
    assert_eq!(next["id"], Value::Null, "{next}");
}
