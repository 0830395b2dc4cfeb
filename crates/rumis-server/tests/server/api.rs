//! The server over real HTTP and WebSocket on 127.0.0.1, on a temporary SQLite file.

use crate::common;

// Each test runs on SQLite, and on PostgreSQL when RUMIS_TEST_POSTGRES_URL is set.
on_both_databases!(
    full_game_two_token_holders_and_an_ai,
    bad_input_is_refused_and_nothing_changes,
    simultaneous_submissions_exactly_one_accepted,
    hot_seat_undo,
    pending_ai_turn_resumes_after_restart,
    rate_limit_per_client,
    variants,
    events_reach_subscribers_of_another_instance
);

use std::collections::HashSet;

use common::*;
use rumis_core::record;
use rumis_test_client as client;
use serde_json::{json, Value};

/// Two token holders and a level-2 AI play Chullpa to the end; a spectator sees every move
/// live, in order; the final scores are the core's.
// long: one game played to its end, the spectator's events checked against it after.
async fn full_game_two_token_holders_and_an_ai(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let created = create(
        addr,
        json!({ "board": "chullpa", "players": 3,
                "seats": [{ "kind": "human" }, { "kind": "human" }, { "kind": "ai", "level": 2 }] }),
    )
    .await;
    let id = s(&created["id"]);
    let tokens = tokens(&created);
    assert!(tokens[0].is_some() && tokens[1].is_some() && tokens[2].is_none());
    assert_ne!(tokens[0], tokens[1]);
    let token_len = tokens[0].as_ref().unwrap().len();
    assert_eq!(token_len, 32, "128 bits as hex");

    let mut spectator = subscribe(addr, &id).await;
    let first = next_event(&mut spectator).await;
    assert_eq!(first["type"], "snapshot");
    assert_eq!(first["state"]["moves_played"], 0);
    let mut player_ws = subscribe(addr, &id).await;
    next_of(&mut player_ws, "snapshot").await;

    let mut k = 0usize;
    let final_state = loop {
        let st = state(addr, &id).await;
        if st["over"] == true {
            break st;
        }
        let seat = st["seat_to_move"].as_u64().unwrap() as usize;
        let n = st["move_number"].as_i64().unwrap();
        match &tokens[seat] {
            Some(t) => {
                let legal = st["legal_moves"].as_array().unwrap();
                assert!(!legal.is_empty());
                let m = s(&legal[(k * 7) % legal.len()]);
                k += 1;
                let r = play(addr, &id, Some(t), &m, n).await;
                assert_eq!(r.status, 201, "{}", r.text());
                assert_eq!(r.json()["number"], n);
                assert_eq!(r.json()["placement"], m.as_str());
            }
            None => loop {
                // The AI's move arrives as an event.
                let e = next_event(&mut player_ws).await;
                if e["type"] == "move" && e["number"].as_i64().unwrap() >= n {
                    break;
                }
            },
        }
    };

    // The final scores are the core's, from the downloaded record.
    let r = get(addr, &format!("/api/v1/games/{id}/record")).await;
    assert_eq!(r.status, 200);
    let game = record::read_game(&r.text()).expect("the record replays");
    assert!(game.is_over());
    let outcome = game.outcome();
    let scores: Vec<(String, i64)> = final_state["colours"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (s(&c["colour"]), c["score"].as_i64().unwrap()))
        .collect();
    let core: Vec<(String, i64)> = outcome.scores.iter().map(|(c, v)| (c.to_string(), *v as i64)).collect();
    assert_eq!(scores, core);
    assert_eq!(final_state["winners"], json!(outcome.winners));
    let moves: Vec<String> = final_state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| s(&m["placement"]))
        .collect();
    let replayed: Vec<String> = game.moves().iter().map(|&m| game.notation(m)).collect();
    assert_eq!(moves, replayed);
    assert!(final_state["legal_moves"].as_array().unwrap().is_empty());

    // The spectator saw every move, in order, each colour go out, and the end.
    let mut seen = Vec::new();
    let mut out = HashSet::new();
    let mut thinking = 0;
    let over = loop {
        let e = next_event(&mut spectator).await;
        match e["type"].as_str().unwrap() {
            "move" => {
                assert_eq!(e["number"].as_u64().unwrap() as usize, seen.len() + 1, "moves in order");
                seen.push(s(&e["placement"]));
            }
            "out" => assert!(out.insert(s(&e["colour"])), "a colour goes out once"),
            "ai_thinking" => thinking += 1,
            "game_over" => break e,
            other => panic!("unexpected event {other}"),
        }
    };
    assert_eq!(seen, moves);
    assert_eq!(out.len(), 3);
    assert!(thinking > 0);
    let event_scores: Vec<(String, i64)> = over["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (s(&c["colour"]), c["score"].as_i64().unwrap()))
        .collect();
    assert_eq!(event_scores, core);

    // Any earlier position can be replayed; the game is listed as finished.
    let at2 = get(addr, &format!("/api/v1/games/{id}?at=2")).await.json();
    assert_eq!(at2["moves"].as_array().unwrap().len(), 2);
    assert!(at2["position"]["cube_count"].as_u64().unwrap() > 0);
    let listed = get(addr, "/api/v1/games?status=finished").await.json();
    assert!(listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == id.as_str()));
    server.stop().await;
}

/// Every refusal is a 4xx JSON error with a reason, and the game does not change.
async fn bad_input_is_refused_and_nothing_changes(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let created = create(addr, json!({ "board": "chullpa", "players": 2 })).await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    let (red, yellow) = (t[0].clone().unwrap(), t[1].clone().unwrap());
    let start = state(addr, &id).await;
    let first_moves: Vec<String> = start["legal_moves"].as_array().unwrap().iter().map(s).collect();
    let r = play(addr, &id, Some(&red), "L4@a1,a2,a3,b1", 1).await;
    assert_eq!(r.status, 201);
    let before = state(addr, &id).await;
    let legal: Vec<String> = before["legal_moves"].as_array().unwrap().iter().map(s).collect();
    let good = legal[0].clone();
    // A placement that reads well but breaks a rule now: yellow's first stone must touch.
    let illegal = first_moves.iter().find(|m| !legal.contains(m)).unwrap().clone();
    let path = format!("/api/v1/games/{id}/moves");

    let cases: Vec<(u16, &str, client::Response)> = vec![
        (401, "missing_token", play(addr, &id, None, &good, 2).await),
        (403, "wrong_token", play(addr, &id, Some("00000000000000000000000000000000"), &good, 2).await),
        (409, "not_your_turn", play(addr, &id, Some(&red), &good, 2).await),
        (409, "stale_move_number", play(addr, &id, Some(&yellow), &good, 1).await),
        (409, "stale_move_number", play(addr, &id, Some(&yellow), &good, 3).await),
        (400, "malformed_move", play(addr, &id, Some(&yellow), "L4@z9", 2).await),
        (400, "malformed_move", play(addr, &id, Some(&yellow), "hello", 2).await),
        (422, "illegal_move", play(addr, &id, Some(&yellow), &illegal, 2).await),
        (404, "unknown_game", play(addr, "0123456789abcdef", Some(&yellow), &good, 2).await),
        (404, "not_found", play(addr, "../../etc", Some(&yellow), &good, 2).await),
        (404, "unknown_game", play(addr, "ZZZ", Some(&yellow), &good, 2).await),
        (400, "bad_json", client::request(addr, "POST", &path, Some(&yellow), None).await.unwrap()),
        (
            400,
            "bad_json",
            client::raw(
                addr,
                format!("POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{{\"pl:").as_bytes(),
            )
            .await
            .unwrap(),
        ),
        (
            400,
            "bad_json",
            post(addr, &path, Some(&yellow), &json!({ "placement": good, "expected_move_number": "two" })).await,
        ),
        (
            400,
            "bad_json",
            post(addr, &path, Some(&yellow), &json!({ "placement": good, "expected_move_number": 2, "x": 1 })).await,
        ),
        // The same fields as an array: serde alone would read it.
        (400, "bad_json", post(addr, &path, Some(&yellow), &json!([good, 2])).await),
        (
            413,
            "body_too_large",
            post(addr, &path, Some(&yellow), &json!({ "placement": "x".repeat(20_000), "expected_move_number": 2 })).await,
        ),
        (404, "unknown_game", get(addr, "/api/v1/games/0123456789abcdef").await),
        (404, "not_found", get(addr, "/api/v2/games").await),
        (400, "bad_query", get(addr, "/api/v1/games?status=everything").await),
        (400, "not_websocket", get(addr, &format!("/api/v1/games/{id}/events")).await),
        (400, "unknown_board", post(addr, "/api/v1/games", None, &json!({ "board": "atlantis", "players": 2 })).await),
        (400, "bad_setup", post(addr, "/api/v1/games", None, &json!({ "board": "chullpa", "players": 5 })).await),
        (
            400,
            "bad_setup",
            post(
                addr,
                "/api/v1/games",
                None,
                &json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "ai", "level": 12 }, { "kind": "human" }] }),
            )
            .await,
        ),
        (403, "undo_not_allowed", post(addr, &format!("/api/v1/games/{id}/undo"), Some(&red), &json!({ "expected_move_number": 2 })).await),
    ];
    for (status, error, r) in &cases {
        assert_eq!(r.status, *status, "{error}: {}", r.text());
        let body = r.json();
        assert_eq!(body["error"], *error, "{}", r.text());
        assert!(body["reason"].as_str().is_some_and(|s| !s.is_empty()), "{}", r.text());
    }
    let stale = &cases[3].2.json();
    assert_eq!(stale["move_number"], 2);

    // Not a byte of HTTP: refused by the server, which keeps serving.
    let garbage = client::raw(addr, b"\x16\x03\x01garbage\r\n\r\n").await;
    assert!(garbage.map(|r| r.status >= 400).unwrap_or(true));

    let after = state(addr, &id).await;
    assert_eq!(before, after, "refused requests change nothing");
    let r = play(addr, &id, Some(&yellow), &good, 2).await;
    assert_eq!(r.status, 201, "{}", r.text());
    server.stop().await;
}

/// Many simultaneous submissions for one turn, through two server instances on one
/// database: exactly one is accepted each turn (the database decides, not a lock in one
/// process).
async fn simultaneous_submissions_exactly_one_accepted(db: String) {
    let a = start(config(&db)).await;
    let b = start(config(&db)).await;
    let created = create(a.addr, json!({ "board": "tambo", "players": 2 })).await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    for round in 1..=6i64 {
        let st = state(b.addr, &id).await;
        assert_eq!(st["move_number"], round);
        let seat = st["seat_to_move"].as_u64().unwrap() as usize;
        let token = t[seat].clone().unwrap();
        let legal: Vec<String> = st["legal_moves"].as_array().unwrap().iter().map(s).collect();
        let mut tasks = Vec::new();
        for i in 0..16 {
            let addr = if i % 2 == 0 { a.addr } else { b.addr };
            let (id, token, m) = (id.clone(), token.clone(), legal[(i * 5) % legal.len()].clone());
            tasks.push(tokio::spawn(async move {
                (m.clone(), play(addr, &id, Some(&token), &m, round).await)
            }));
        }
        let mut accepted = Vec::new();
        let mut repeated = Vec::new();
        for task in tasks {
            let (m, r) = task.await.unwrap();
            match r.status {
                201 => accepted.push(m),
                // The accepted move sent again: its acknowledgement again.
                200 => repeated.push(m),
                409 => {
                    let e = r.json()["error"].clone();
                    assert!(e == "stale_move_number" || e == "not_your_turn", "{}", r.text());
                }
                other => panic!("unexpected {other}: {}", r.text()),
            }
        }
        assert_eq!(accepted.len(), 1, "round {round}: {accepted:?}");
        assert!(
            repeated.iter().all(|m| *m == accepted[0]),
            "round {round}: {repeated:?}"
        );
        let st = state(a.addr, &id).await;
        assert_eq!(st["moves_played"], round);
        assert_eq!(st["moves"][(round - 1) as usize]["placement"], accepted[0].as_str());
    }
    a.stop().await;
    b.stop().await;
}

/// Hot-seat: one token holds every seat and may take moves back.
async fn hot_seat_undo(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let created = create(addr, json!({ "board": "pirka", "players": 3, "hot_seat": true })).await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    assert!(t.iter().all(|x| x == &t[0]), "one token for every seat");
    let token = t[0].clone().unwrap();
    let mut ws = subscribe(addr, &id).await;
    next_of(&mut ws, "snapshot").await;
    for n in 1..=3 {
        let st = state(addr, &id).await;
        let m = s(&st["legal_moves"][0]);
        assert_eq!(play(addr, &id, Some(&token), &m, n).await.status, 201);
    }
    let before = state(addr, &id).await;
    let undo = format!("/api/v1/games/{id}/undo");
    let r = post(
        addr,
        &undo,
        Some("ffffffffffffffffffffffffffffffff"),
        &json!({ "expected_move_number": 4 }),
    )
    .await;
    assert_eq!(r.status, 403);
    let r = post(addr, &undo, Some(&token), &json!({ "expected_move_number": 3 })).await;
    assert_eq!(r.status, 409);
    assert_eq!(state(addr, &id).await, before);
    let r = post(addr, &undo, Some(&token), &json!({ "expected_move_number": 4 })).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["removed"], json!([3]));
    let e = next_of(&mut ws, "undo").await;
    assert_eq!(e["move_number"], 3);
    let st = state(addr, &id).await;
    assert_eq!(st["moves_played"], 2);
    assert_eq!(st["moves"], json!(before["moves"].as_array().unwrap()[..2]));
    // The move can be played again, differently.
    let m = s(st["legal_moves"].as_array().unwrap().last().unwrap());
    assert_eq!(play(addr, &id, Some(&token), &m, 3).await.status, 201);
    server.stop().await;
}

/// An AI turn left pending when a server stops is played by the next server on the database.
async fn pending_ai_turn_resumes_after_restart(db: String) {
    let mut c = config(&db);
    c.ai_workers = 0; // this server leaves AI turns pending
    let first = start(c).await;
    let created = create(
        first.addr,
        json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "human" }, { "kind": "ai", "level": 1 }] }),
    )
    .await;
    let id = s(&created["id"]);
    let token = tokens(&created)[0].clone().unwrap();
    assert_eq!(
        play(first.addr, &id, Some(&token), "L4@a1,a2,a3,b1", 1).await.status,
        201
    );
    let st = state(first.addr, &id).await;
    assert_eq!(st["to_move"], "Y");
    assert_eq!(st["move_number"], 2);
    first.stop().await;

    let second = start(config(&db)).await;
    let mut ws = subscribe(second.addr, &id).await;
    let snap = next_of(&mut ws, "snapshot").await;
    if snap["state"]["moves_played"] == 1 {
        let e = next_of(&mut ws, "move").await;
        assert_eq!(e["number"], 2);
        assert_eq!(e["by"], "ai");
    }
    let st = state(second.addr, &id).await;
    assert_eq!(st["moves_played"], 2);
    assert_eq!(st["to_move"], "R");
    second.stop().await;
}

/// A client sending too fast gets 429 with a JSON error.
async fn rate_limit_per_client(db: String) {
    let mut c = config(&db);
    c.rate_burst = 5.0;
    c.rate_per_second = 0.0;
    let server = start(c).await;
    for _ in 0..5 {
        assert_eq!(get(server.addr, "/api/v1/boards").await.status, 200);
    }
    let r = get(server.addr, "/api/v1/boards").await;
    assert_eq!(r.status, 429);
    assert_eq!(r.json()["error"], "rate_limited");
    assert!(r.header("retry-after").is_some());
    server.stop().await;
}

/// Ruinas from a seed and the two-player four-colour game are set up by the core.
async fn variants(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let setup = json!({ "board": "tambo", "players": 2, "variant": "ruinas", "ruins_seed": 5 });
    let a = create(addr, setup.clone()).await;
    let b = create(addr, setup).await;
    assert!(!a["ruins"].as_array().unwrap().is_empty());
    assert_eq!(a["ruins"], b["ruins"]);
    let st = state(addr, &s(&a["id"])).await;
    assert_eq!(st["site"]["ruins"], a["ruins"]);
    assert!(st["position"]["cube_count"].as_u64().unwrap() > 0);
    let m = s(&st["legal_moves"][0]);
    let token = tokens(&a)[0].clone().unwrap();
    assert_eq!(play(addr, &s(&a["id"]), Some(&token), &m, 1).await.status, 201);
    let rec = get(addr, &format!("/api/v1/games/{}/record", s(&a["id"]))).await.text();
    assert!(rec.contains("[Setup \""));
    let g = record::read_game(&rec).unwrap();
    assert_eq!(g.moves().len(), 1);

    let four = create(addr, json!({ "board": "cucho", "players": 2, "variant": "2p4c" })).await;
    let seats = four["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    assert_eq!(seats[0]["colours"], json!(["R", "G"]));
    assert_eq!(seats[1]["colours"], json!(["Y", "B"]));
    server.stop().await;
}

/// Two instances on one database: on PostgreSQL a move made through one reaches a WebSocket
/// subscriber of the other (LISTEN/NOTIFY). SQLite is for one instance: there each instance
/// only tells its own subscribers, which this checks too.
async fn events_reach_subscribers_of_another_instance(db: String) {
    let postgres = db.starts_with("postgres");
    let a = start(config(&db)).await;
    let b = start(config(&db)).await;
    let created = create(a.addr, json!({ "board": "chullpa", "players": 2 })).await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    let mut on_a = subscribe(a.addr, &id).await;
    let mut on_b = subscribe(b.addr, &id).await;
    next_of(&mut on_a, "snapshot").await;
    next_of(&mut on_b, "snapshot").await;
    assert_eq!(
        play(a.addr, &id, t[0].as_deref(), "L4@a1,a2,a3,b1", 1).await.status,
        201
    );
    let st = state(b.addr, &id).await;
    let m = s(&st["legal_moves"][0]);
    assert_eq!(play(b.addr, &id, t[1].as_deref(), &m, 2).await.status, 201);
    let e = next_of(&mut on_a, "move").await;
    assert_eq!(
        (e["number"].clone(), e["placement"].clone()),
        (json!(1), json!("L4@a1,a2,a3,b1"))
    );
    let e = next_of(&mut on_b, "move").await;
    if postgres {
        assert_eq!(e["number"], 1, "the move made through the other instance");
        let e = next_of(&mut on_b, "move").await;
        assert_eq!(e["number"], 2);
        let e = next_of(&mut on_a, "move").await;
        assert_eq!((e["number"].clone(), e["placement"].clone()), (json!(2), json!(m)));
    } else {
        assert_eq!(e["number"], 2);
    }
    a.stop().await;
    b.stop().await;
}

/// Tokens are stored only as their SHA-256: not a byte of one is in the database files.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_are_stored_only_hashed() {
    let dir = TempDir::new("hashed");
    let server = start(config(&dir.db_url())).await;
    let created = create(server.addr, json!({ "board": "chullpa", "players": 3 })).await;
    let tokens: Vec<String> = tokens(&created).into_iter().map(Option::unwrap).collect();
    server.stop().await;
    // The files as they are once none vanishes while they are read: the stop's last close
    // of a connection checkpoints the write-ahead log into the database and deletes it,
    // which may still be under way (a file listed, then gone). A pause between looks at
    // that close, which no time of the server's moves.
    let mut looks = 0;
    let bytes = loop {
        match database_bytes(&dir.0) {
            Ok(bytes) => break bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && looks < 100 => {
                looks += 1;
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            Err(e) => panic!("reading the database's files: {e}"),
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    for t in &tokens {
        assert!(!text.contains(t.as_str()), "a token in plain text");
        let hash: String = sha2_hex(t);
        assert!(text.contains(&hash), "the token's hash is stored");
    }
}

/// Every file of `dir`, one after another.
fn database_bytes(dir: &std::path::Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        bytes.extend(std::fs::read(entry?.path())?);
    }
    Ok(bytes)
}

fn sha2_hex(s: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(s.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The web app's files at `/` with their content types, `index.html` for any other path
/// outside `/api/`, the JSON 404 inside it; no path leaves the directory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_app_is_served_and_stays_in_its_directory() {
    let dir = TempDir::new("web");
    let web = dir.0.join("dist");
    std::fs::create_dir_all(web.join("assets")).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html><title>rumis app</title>").unwrap();
    std::fs::write(web.join("assets/app.js"), "console.log('rumis');").unwrap();
    std::fs::write(web.join("assets/app.css"), "body { margin: 0 }").unwrap();
    std::fs::write(dir.0.join("secret.txt"), "SECRET-OUTSIDE").unwrap();
    let mut c = config(&dir.db_url());
    c.web_dir = Some(web.clone());
    let server = start(c).await;
    let addr = server.addr;

    let index = get(addr, "/").await;
    assert_eq!(index.status, 200);
    assert!(index.text().contains("rumis app"));
    assert!(index.header("content-type").unwrap().starts_with("text/html"));
    let js = get(addr, "/assets/app.js").await;
    assert_eq!((js.status, js.text().as_str()), (200, "console.log('rumis');"));
    assert!(
        js.header("content-type").unwrap().contains("javascript"),
        "{:?}",
        js.headers
    );
    let css = get(addr, "/assets/app.css").await;
    assert!(css.header("content-type").unwrap().starts_with("text/css"));
    // The app routes itself: any other path gets index.html.
    for path in ["/games/0123456789abcdef", "/index.html", "/new?board=chullpa"] {
        let r = get(addr, path).await;
        assert_eq!(r.status, 200, "{path}");
        assert!(r.text().contains("rumis app"), "{path}: {}", r.text());
    }
    // The API keeps its JSON.
    let r = get(addr, "/api/v1/nothing").await;
    assert_eq!((r.status, r.json()["error"].clone()), (404, json!("not_found")));
    let r = get(addr, "/api/v1").await;
    assert_eq!(r.json()["name"], "rumis");
    let r = post(addr, "/somewhere", None, &json!({})).await;
    assert_eq!((r.status, r.json()["error"].clone()), (404, json!("not_found")));

    // Nothing outside the directory, however the path is written.
    for path in [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/%2e%2e%2fsecret.txt",
        "/assets/../../secret.txt",
        "/assets/%2e%2e/%2e%2e/secret.txt",
        "/assets/..%5c..%5csecret.txt",
        "/%2fetc%2fpasswd",
        "//etc/passwd",
        "/../Cargo.toml",
        "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    ] {
        let r = client::raw(
            addr,
            format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .await
        .unwrap();
        let text = r.text();
        assert!(
            !text.contains("SECRET-OUTSIDE") && !text.contains("root:") && !text.contains("[package]"),
            "{path} escaped: {text}"
        );
        assert!(
            r.status == 200 && text.contains("rumis app") || r.status >= 400,
            "{path}: {} {text}",
            r.status
        );
    }
    server.stop().await;

    // Without a built app (neither a folder nor one built in, as in every test build), /
    // says what is missing and how to build it; the API is unchanged.
    let mut c = config(&dir.db_url());
    c.web_dir = None;
    c.embedded_web = None;
    let server = start(c).await;
    let r = get(server.addr, "/").await;
    assert_eq!(r.status, 200);
    assert!(r.header("content-type").unwrap().starts_with("text/html"));
    let text = r.text();
    assert!(text.contains("The web app is not built"), "{text}");
    assert!(text.contains("npm --prefix web ci &amp;&amp; npm --prefix web run build"));
    assert!(
        text.contains("--web-dir web/dist") && text.contains("scripts/release"),
        "{text}"
    );
    assert_eq!(get(server.addr, "/api/v1/boards").await.status, 200);
    server.stop().await;
}

/// Every board with its provenance and, per player count, the buildable cells with their
/// printed heights and limits: the ones the core's sites use.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boards_carry_provenance_and_layouts() {
    let dir = TempDir::new("boards");
    let server = start(config(&dir.db_url())).await;
    let r = get(server.addr, "/api/v1/boards").await;
    assert_eq!(r.status, 200);
    let boards = r.json()["boards"].as_array().unwrap().clone();
    assert_eq!(boards.len(), rumis_core::Board::builtins().len());
    for (b, json) in rumis_core::Board::builtins().iter().zip(&boards) {
        assert_eq!(json["name"], b.name.as_str());
        assert_eq!(json["provenance"], b.provenance.as_str());
        assert!(json["source"].as_str().is_some_and(|t| !t.is_empty()), "{}", b.name);
        for players in 2..=4usize {
            let key = players.to_string();
            let layout = &json["layouts"][&key];
            assert_eq!(layout["hmax"], json["hmax"][&key]);
            let site = rumis_core::Site::new(b.clone(), players, rumis_core::Variant::Standard, None).unwrap();
            let expected: Vec<Value> = site
                .footprint()
                .map(|c| {
                    let (x, y) = (c % b.files, c / b.files);
                    json!({
                        "cell": site.column_name(c),
                        "x": x,
                        "y": y,
                        "printed": b.cell(x, y).filter(|&p| p > 0),
                        "limit": site.limits()[c],
                    })
                })
                .collect();
            assert_eq!(layout["cells"], json!(expected), "{} {players}", b.name);
            assert_eq!(json["columns"][&key], expected.len());
        }
    }
    // Pisac: printed heights per row, and a frame for two players.
    let pisac = boards.iter().find(|b| b["name"] == "Pisac").unwrap();
    let two = pisac["layouts"]["2"]["cells"].as_array().unwrap();
    let four = pisac["layouts"]["4"]["cells"].as_array().unwrap();
    assert!(two.len() < four.len());
    assert!(four.iter().all(|c| c["printed"].as_u64().is_some()));
    let a1 = &four[0];
    assert_eq!(
        (a1["cell"].clone(), a1["printed"].clone(), a1["limit"].clone()),
        (json!("a1"), json!(8), json!(8))
    );
    let a1 = &two[0];
    assert_eq!((a1["printed"].clone(), a1["limit"].clone()), (json!(8), json!(4)));
    server.stop().await;
}

/// The cube solitaire: every stone checked by the core, the state after each, a refused
/// stone named by its number; the solutions to watch fill their boxes.
// long: the solitaire on one server: a watched solution, then the refusals, then the
// 5 × 5 × 5 filled stone by stone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzles() {
    let dir = TempDir::new("puzzles");
    let server = start(config(&dir.db_url())).await;
    let a = server.addr;

    let empty = post(a, "/api/v1/puzzles/cube", None, &json!({ "size": "3x3x3" })).await;
    assert_eq!(empty.status, 200, "{}", empty.text());
    let e = empty.json();
    assert_eq!(
        (e["volume"].clone(), e["filled"].clone(), e["solved"].clone()),
        (json!(27), json!(0), json!(false))
    );
    assert_eq!(e["stones_left"].as_array().unwrap().len(), 11);
    let offered: Vec<String> = e["placements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| s(&p["placement"]))
        .collect();
    assert!(offered.contains(&"L4@a1,a2,a3,b1".to_string()));
    assert!(offered.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");

    // A watched solution, replayed stone by stone through the puzzle endpoint, solves it.
    let sol = get(a, "/api/v1/puzzles/cube3").await.json();
    let steps: Vec<String> = sol["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|st| s(&st["placement"]))
        .collect();
    let mut filled = 0;
    for i in 0..steps.len() {
        let r = post(
            a,
            "/api/v1/puzzles/cube",
            None,
            &json!({ "size": "3x3x3", "moves": &steps[..=i] }),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text());
        let st = r.json();
        // What was offered before includes the stone placed next.
        let cubes = sol["steps"][i]["cubes"].as_array().unwrap().len();
        filled += cubes;
        assert_eq!(st["filled"], json!(filled));
        assert_eq!(st["placed"][i]["cubes"], sol["steps"][i]["cubes"]);
    }
    assert_eq!(filled, 27);
    let done = post(
        a,
        "/api/v1/puzzles/cube",
        None,
        &json!({ "size": "3x3x3", "moves": steps }),
    )
    .await
    .json();
    assert_eq!(
        (done["solved"].clone(), done["stuck"].clone()),
        (json!(true), json!(false))
    );
    assert_eq!(done["placements"], json!([]));

    // Refused: a stone used twice, a hole underneath, outside the box, garbage, bad sizes.
    for (moves, code, needle) in [
        (json!(["L4@a1,a2,a3,b1", "L4@c1,c2,c3,b3"]), 422, "stone 2"),
        (json!(["L4@a1,a2,a3,b1", "I3@b1,b2,b3"]), 422, "stone 2"),
        (json!(["I4@a1,b1,c1,d1"]), 422, "stone 1"),
        (json!(["hello"]), 422, "stone 1"),
    ] {
        let r = post(
            a,
            "/api/v1/puzzles/cube",
            None,
            &json!({ "size": "3x3x3", "moves": moves }),
        )
        .await;
        assert_eq!(r.status, code, "{}", r.text());
        assert_eq!(r.json()["error"], "illegal_move");
        assert!(s(&r.json()["reason"]).contains(needle), "{}", r.text());
    }
    for body in [
        json!({ "size": "3x3" }),
        json!({ "size": "9x9x9" }),
        json!({ "size": "0x3x3" }),
        json!({ "size": 3 }),
        json!({ "size": "3x3x3", "extra": 1 }),
    ] {
        let r = post(a, "/api/v1/puzzles/cube", None, &body).await;
        assert_eq!(r.status, 400, "{body}: {}", r.text());
    }

    // The 5 x 5 x 5 in turn: 125 cubes by the four colours in turn, with its record.
    let tower = get(a, "/api/v1/puzzles/tower5").await.json();
    let steps = tower["steps"].as_array().unwrap();
    let cubes: usize = steps.iter().map(|st| st["cubes"].as_array().unwrap().len()).sum();
    assert_eq!(cubes, 125);
    assert_eq!(steps.len(), 33);
    assert_eq!(s(&steps[0]["colour"]), "R");
    assert!(s(&tower["record"]).contains("[Board \"Tower5\"]"));
    assert_eq!(get(a, "/api/v1/puzzles/nonesuch").await.status, 404);
    server.stop().await;
}
