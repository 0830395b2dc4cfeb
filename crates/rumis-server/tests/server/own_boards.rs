//! Games on a board of one's own (given inline as its file) and under the pass rule (rules
//! §6): a bad board is refused with the core's reason and creates nothing; the board is
//! stored with the game, rebuilt after a restart, carried by states and records; the AI,
//! hints and placements play on it; a colour that passes is named.

use crate::common;

on_both_databases!(
    a_bad_inline_board_is_refused_and_creates_nothing,
    an_own_board_survives_a_restart_and_its_record_replays,
    a_pass_rule_game_names_the_passes_and_the_ai_plays_it_to_the_end,
    a_bad_setup_gets_the_cores_words_and_creates_nothing
);

use std::sync::Arc;

use common::*;
use rumis_core::{record, Board, Game, GameSetup, Rng, Site, StuckRule, Variant};
use serde_json::{json, Value};

/// 4 x 3 with a hole, a printed height and a red frame for 2 players.
const OWN: &str = "name = \"Hof\"\nprovenance = \"reconstruction\"\nsource = \"A test board.\"\n\
                   hmax = { 2 = 3, 3 = 3, 4 = 4 }\nframes = { 2 = \"a1:c3\" }\ngrid = \"\"\"\n##.#\n#2##\n####\n\"\"\"\n";

fn s(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

async fn open_games(addr: std::net::SocketAddr) -> usize {
    let r = get(addr, "/api/v1/games?status=open").await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()["games"].as_array().unwrap().len()
}

async fn a_bad_inline_board_is_refused_and_creates_nothing(db: String) {
    let server = start(config(&db)).await;
    let seats = json!([{ "kind": "human" }, { "kind": "ai", "level": 1 }]);
    // Ragged rows: the core's message, file name and line.
    let ragged = OWN.replace("#2##", "#2#");
    let core = Board::from_toml("board_file", &ragged).unwrap_err();
    let r = post(
        server.addr,
        "/api/v1/games",
        None,
        &json!({ "board_file": ragged, "players": 2, "seats": seats }),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let e = r.json();
    assert_eq!(e["error"], "bad_board");
    assert_eq!(e["reason"], core.to_string());
    assert_eq!(
        (e["line"].as_u64(), s(&e["message"])),
        (Some(core.line as u64), core.message.clone())
    );
    // Not TOML at all.
    let r = post(
        server.addr,
        "/api/v1/games",
        None,
        &json!({ "board_file": "grid = [", "players": 2, "seats": seats }),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(
        r.json()["reason"],
        Board::from_toml("board_file", "grid = [").unwrap_err().to_string()
    );
    // Over 16 KB (a long comment): refused before the core reads it.
    let long = format!("{OWN}# {}\n", "x".repeat(16 * 1024));
    let r = post(
        server.addr,
        "/api/v1/games",
        None,
        &json!({ "board_file": long, "players": 2, "seats": seats }),
    )
    .await;
    assert_eq!(r.status, 413, "{}", r.text());
    assert_eq!(r.json()["error"], "body_too_large");
    assert!(s(&r.json()["reason"]).contains("at most 16384"), "{}", r.text());
    // A name that is not the file's board, an unknown rule, no board at all.
    for (body, words) in [
        (
            json!({ "board": "chullpa", "board_file": OWN, "players": 2 }),
            "describes 'Hof'",
        ),
        (
            json!({ "board": "chullpa", "stuck_rule": "skip", "players": 2 }),
            "unknown stuck_rule 'skip'",
        ),
        (json!({ "players": 2 }), "say which board"),
    ] {
        let r = post(server.addr, "/api/v1/games", None, &body).await;
        assert_eq!(r.status, 400, "{}", r.text());
        assert!(s(&r.json()["reason"]).contains(words), "{}", r.text());
    }
    assert_eq!(open_games(server.addr).await, 0, "a refused board creates no game");
    // The same file, whole, is taken.
    let created = create(server.addr, json!({ "board_file": OWN, "players": 2, "seats": seats })).await;
    assert_eq!(open_games(server.addr).await, 1);
    let st = state(server.addr, &s(&created["id"])).await;
    assert_eq!(st["site"]["board"], "Hof");
    assert_eq!(st["site"]["custom"], true);
    assert_eq!(st["site"]["board_file"], OWN);
    assert_eq!(st["site"]["stuck_rule"], "out");
    // The listing says it is a board of one's own; a scenario's game says not.
    create(server.addr, json!({ "board": "chullpa", "players": 2, "seats": seats })).await;
    let list = get(server.addr, "/api/v1/games?status=open").await.json();
    let custom: Vec<(String, bool)> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (s(&g["board"]), g["custom"].as_bool().unwrap()))
        .collect();
    assert_eq!(custom.len(), 2);
    assert!(
        custom.contains(&("Hof".into(), true)) && custom.contains(&("Chullpa".into(), false)),
        "{custom:?}"
    );
    server.stop().await;
}

async fn an_own_board_survives_a_restart_and_its_record_replays(db: String) {
    let mut c = config(&db);
    c.ai_workers = 0; // this server leaves the AI's turn pending
    let first = start(c).await;
    let created = create(
        first.addr,
        json!({ "board_file": OWN, "players": 2, "seats": [{ "kind": "human" }, { "kind": "ai", "level": 1 }] }),
    )
    .await;
    let id = s(&created["id"]);
    let token = tokens(&created)[0].clone().unwrap();
    let st = state(first.addr, &id).await;
    // The frame for 2 players (a1:c3) leaves the d file out; b2 is printed 2.
    let cells: Vec<String> = st["position"]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| s(&c["cell"]))
        .collect();
    assert_eq!(cells, ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3"]);
    let b2 = st["position"]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["cell"] == "b2")
        .unwrap()
        .clone();
    assert_eq!(b2["limit"], 2);
    let first_move = s(&st["legal_moves"][0]);
    assert_eq!(play(first.addr, &id, Some(&token), &first_move, 1).await.status, 201);
    first.stop().await;

    // A new server on the same database rebuilds the board from the stored file.
    let second = start(config(&db)).await;
    let before = state(second.addr, &id).await;
    let hint = post(
        second.addr,
        &format!("/api/v1/games/{id}/hint"),
        None,
        &json!({ "level": 4 }),
    )
    .await;
    assert_eq!(hint.status, 200, "{}", hint.text());
    // A hint on the board as the core rebuilt it (unless the AI moved meanwhile).
    let after = state(second.addr, &id).await;
    if after["moves_played"] == before["moves_played"] {
        let legal = before["legal_moves"].as_array().unwrap();
        assert!(legal.contains(&hint.json()["placement"]), "{}", hint.text());
    }
    let mut ws = subscribe(second.addr, &id).await;
    let mut st = next_of(&mut ws, "snapshot").await["state"].clone();
    loop {
        if st["over"] == true {
            break;
        }
        if st["to_move"] == "R" {
            let placements = get(second.addr, &format!("/api/v1/games/{id}/placements")).await.json();
            let mine = s(&placements["placements"][0]["placement"]);
            assert_eq!(mine, s(&st["legal_moves"][0]), "placements and legal moves agree");
            let r = play(
                second.addr,
                &id,
                Some(&token),
                &mine,
                st["move_number"].as_i64().unwrap(),
            )
            .await;
            assert_eq!(r.status, 201, "{}", r.text());
        } else {
            next_of(&mut ws, "move").await;
        }
        st = state(second.addr, &id).await;
    }
    assert!(st["moves_played"].as_i64().unwrap() >= 3);
    let r = get(second.addr, &format!("/api/v1/games/{id}/record")).await;
    assert_eq!(r.status, 200);
    let text = r.text();
    assert!(
        text.contains("[Board \"Hof\"]") && text.contains("[BoardFile \""),
        "{text}"
    );
    // The record alone replays in the core, to the scores the server shows.
    let game = record::read_game(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(game.site().board(), &Board::from_toml("x", OWN).unwrap());
    let scores: Vec<Value> = game.outcome().scores.iter().map(|(_, sc)| json!(sc)).collect();
    let shown: Vec<Value> = st["colours"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["score"].clone())
        .collect();
    assert_eq!(scores, shown);
    let analysis = get(second.addr, &format!("/api/v1/games/{id}/analysis")).await;
    assert_eq!(analysis.status, 200, "{}", analysis.text());
    second.stop().await;
}

/// A seeded random game on Chullpa for 4 under the pass rule in which a colour passes and
/// places again later; the move after which it passed (0-based) and that colour.
fn a_game_with_a_comeback() -> (Vec<String>, usize, char) {
    let board = Board::builtin("chullpa").unwrap().clone();
    let site = Arc::new(
        Site::new(board, 4, Variant::Standard, None)
            .unwrap()
            .with_stuck_rule(StuckRule::Pass),
    );
    for seed in 0..2000 {
        let mut game = Game::new(site.clone());
        game.play_random(&mut Rng::new(seed));
        let order = &site.order();
        for i in 0..game.moves().len().saturating_sub(1) {
            let (a, b) = (game.mover(i).unwrap(), game.mover(i + 1).unwrap());
            let from = order.iter().position(|&c| c == a).unwrap();
            let skipped = order[(from + 1) % 4];
            if skipped != b && (i + 1..game.moves().len()).any(|j| game.mover(j) == Some(skipped)) {
                let moves = game.moves().iter().map(|&m| game.notation(m)).collect();
                return (moves, i, skipped.to_string().chars().next().unwrap());
            }
        }
    }
    panic!("no comeback in 2000 random games");
}

async fn a_pass_rule_game_names_the_passes_and_the_ai_plays_it_to_the_end(db: String) {
    let server = start(config(&db)).await;
    // Hot seat: the moves of a game where a colour passes and comes back.
    let (moves, at, colour) = a_game_with_a_comeback();
    let created = create(
        server.addr,
        json!({ "board": "chullpa", "players": 4, "stuck_rule": "pass", "hot_seat": true }),
    )
    .await;
    let id = s(&created["id"]);
    let token = tokens(&created)[0].clone().unwrap();
    for (i, m) in moves.iter().enumerate() {
        let r = play(server.addr, &id, Some(&token), m, i as i64 + 1).await;
        assert_eq!(r.status, 201, "move {}: {}", i + 1, r.text());
        let passed = r.json()["passed"].clone();
        if i == at {
            assert!(
                passed.as_array().unwrap().contains(&json!(colour.to_string())),
                "{passed}"
            );
            assert_eq!(r.json()["out"], json!([]), "a colour that passes is not out");
        }
    }
    let st = state(server.addr, &id).await;
    assert_eq!(st["over"], true);
    assert_eq!(st["site"]["stuck_rule"], "pass");
    assert!(st["moves"][at]["passed"]
        .as_array()
        .unwrap()
        .contains(&json!(colour.to_string())));
    let text = get(server.addr, &format!("/api/v1/games/{id}/record")).await.text();
    assert!(text.contains("[StuckRule \"pass\"]"), "{text}");
    assert_eq!(record::read_game(&text).unwrap().moves().len(), moves.len());

    // The AI plays a pass-rule game to its end, on a board of one's own.
    let created = create(
        server.addr,
        json!({ "board_file": OWN, "players": 3, "stuck_rule": "pass",
                "seats": [{ "kind": "ai", "level": 1 }, { "kind": "ai", "level": 1 }, { "kind": "ai", "level": 1 }] }),
    )
    .await;
    let id = s(&created["id"]);
    let mut ws = subscribe(server.addr, &id).await;
    let snap = next_of(&mut ws, "snapshot").await;
    if snap["state"]["over"] != true {
        next_of(&mut ws, "game_over").await;
    }
    let st = state(server.addr, &id).await;
    assert_eq!(
        (st["over"].clone(), st["site"]["stuck_rule"].clone()),
        (json!(true), json!("pass"))
    );
    let text = get(server.addr, &format!("/api/v1/games/{id}/record")).await.text();
    let game = record::read_game(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(game.site().stuck_rule(), StuckRule::Pass);
    assert_eq!(game.moves().len() as i64, st["moves_played"].as_i64().unwrap());
    server.stop().await;
}

/// The server checks a setup by the core (`GameSetup`): a refused one gets the core's
/// sentence (the words of a command line's or an engine's refusal), or for the request's
/// own fields the field's name, and a client's words made printable.
async fn a_bad_setup_gets_the_cores_words_and_creates_nothing(db: String) {
    let server = start(config(&db)).await;
    let core = |settings: &[(&str, &str)]| {
        GameSetup::from_settings(settings.iter().copied())
            .and_then(|s| s.start())
            .unwrap_err()
            .to_string()
    };
    for (body, reason) in [
        (
            json!({ "board": "chullpa", "players": 5 }),
            core(&[("board", "chullpa"), ("players", "5")]),
        ),
        (
            json!({ "board": "chullpa", "players": 2, "colours": ["R", "R"] }),
            core(&[("board", "chullpa"), ("players", "2"), ("colors", "R R")]),
        ),
        (
            json!({ "board": "chullpa", "players": 3, "colours": ["R", "Y"] }),
            core(&[("board", "chullpa"), ("players", "3"), ("colors", "R Y")]),
        ),
        (
            json!({ "board": "pirka", "players": 4, "variant": "ruinas" }),
            core(&[("board", "pirka"), ("players", "4"), ("variant", "ruinas")]),
        ),
        (
            json!({ "board": "pirka", "players": 3, "variant": "two-player-four-colors" }),
            core(&[
                ("board", "pirka"),
                ("players", "3"),
                ("variant", "two-player-four-colors"),
            ]),
        ),
        (
            json!({ "board": "chullpa", "players": 2, "colours": ["R", "Y\u{7}es"] }),
            "'Yes' is not a colour (R, Y, G, B)".to_string(),
        ),
        (
            json!({ "board": "chullpa", "players": 2, "ruins_seed": 3 }),
            "ruins and ruins_seed belong only to a ruinas game".to_string(),
        ),
        (
            json!({ "board": "chullpa", "players": 2, "ruins": ["D2@a1,a2"] }),
            "ruins and ruins_seed belong only to a ruinas game".to_string(),
        ),
        (
            json!({ "board": "tambo", "players": 2, "variant": "ruinas", "ruins": ["D2@a1,a2"], "ruins_seed": 3 }),
            "give ruins (their placements) or ruins_seed, not both".to_string(),
        ),
        (
            json!({ "board": "chullpa", "players": 2, "variant": "chess" }),
            "unknown variant 'chess' (standard, two-player-four-colors, ruinas)".to_string(),
        ),
    ] {
        let r = post(server.addr, "/api/v1/games", None, &body).await;
        assert_eq!(r.status, 400, "{body}: {}", r.text());
        assert_eq!(r.json()["error"], "bad_setup", "{}", r.text());
        assert_eq!(s(&r.json()["reason"]), reason, "{body}");
    }
    // A seek in the lobby is checked the same way.
    let r = post(
        server.addr,
        "/api/v1/lobby/seeks",
        None,
        &json!({ "board": "chullpa", "players": 2, "colours": ["B", "B"], "seats": [{ "kind": "me" }, { "kind": "open" }] }),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(
        s(&r.json()["reason"]),
        core(&[("board", "chullpa"), ("players", "2"), ("colors", "B B")])
    );
    assert_eq!(open_games(server.addr).await, 0, "a refused setup creates no game");
    server.stop().await;
}
