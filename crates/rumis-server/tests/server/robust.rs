//! The server against clients that go away, resend, flood the AI or meet a locked database
//! (issue 16). Each test here failed on the server before the game service.

use crate::common;

on_both_databases!(
    a_reset_after_sending_a_move_strands_no_game,
    a_resent_move_gets_its_acknowledgement,
    ai_only_games_do_not_starve_a_human,
    the_ai_only_caps_hold_under_concurrent_creates,
    a_creator_deletes_a_game_nobody_joined,
    idle_games_are_abandoned
);

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::*;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

/// Sends a move over a raw socket and resets the connection `delay` after the last byte,
/// without reading the answer.
async fn send_and_reset(addr: SocketAddr, id: &str, token: &str, placement: &str, expected: i64, delay: Duration) {
    let body = json!({ "placement": placement, "expected_move_number": expected }).to_string();
    let request = format!(
        "POST /api/v1/games/{id}/moves HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Authorization: Bearer {token}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    if !delay.is_zero() {
        // The reset's delay after the move is what is tested: a real one, racing the
        // server's read and write.
        tokio::time::sleep(delay).await;
    }
    // SO_LINGER 0: the close sends a reset, as a client that crashes or loses its network.
    stream.set_zero_linger().unwrap();
    drop(stream);
}

/// The next event of a type within `limit`, or `None`.
async fn event_within(ws: &mut Ws, kind: &str, limit: Duration) -> Option<Value> {
    tokio::time::timeout(limit, next_of(ws, kind)).await.ok()
}

/// A move whose connection is reset right after sending, 30 times, with and without an AI
/// seat: every move that committed reaches the game's subscriber as a `move` event, and the
/// AI seat answers it. (Before: the event and the AI's turn ran in the request's future and
/// were dropped with it.)
async fn a_reset_after_sending_a_move_strands_no_game(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let (mut committed, mut stranded) = (0, Vec::new());
    for round in 0..30u64 {
        let ai = round % 2 == 1;
        let seats = if ai {
            json!([{ "kind": "human" }, { "kind": "ai", "level": 1 }])
        } else {
            json!([{ "kind": "human" }, { "kind": "human" }])
        };
        let created = create(addr, json!({ "board": "chullpa", "players": 2, "seats": seats })).await;
        let id = s(&created["id"]);
        let token = tokens(&created)[0].clone().unwrap();
        let mut ws = subscribe(addr, &id).await;
        next_of(&mut ws, "snapshot").await;
        send_and_reset(addr, &id, &token, "L4@a1,a2,a3,b1", 1, Duration::from_millis(round % 4)).await;
        // Did the move commit? (A request reset before the server read it does not.)
        let deadline = Instant::now() + Duration::from_secs(3);
        let mut played = 0;
        while Instant::now() < deadline {
            played = state(addr, &id).await["moves_played"].as_i64().unwrap();
            if played > 0 {
                break;
            }
            // A pause between looks. The 3 s are real: whether a reset move committed at all
            // is the database's work, which no time of the server's moves.
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        if played == 0 {
            continue;
        }
        committed += 1;
        let limit = Duration::from_secs(10);
        match event_within(&mut ws, "move", limit).await {
            Some(e) if e["number"] == 1 => {}
            other => {
                stranded.push(format!("round {round}: no move event ({other:?})"));
                continue;
            }
        }
        if ai {
            match event_within(&mut ws, "move", limit).await {
                Some(e) if e["number"] == 2 && e["by"] == "ai" => {}
                other => stranded.push(format!("round {round}: no AI answer ({other:?})")),
            }
        }
    }
    eprintln!("reset moves: {committed} of 30 committed, {} stranded", stranded.len());
    assert!(
        stranded.is_empty(),
        "{} of {committed} committed moves stranded: {stranded:#?}",
        stranded.len()
    );
    assert!(
        committed >= 5,
        "only {committed} of 30 reset moves committed: the test tests nothing"
    );
    server.stop().await;
}

/// A move sent again after it was accepted gets its first acknowledgement (200, the same
/// body), changing nothing; another placement, or another seat, for that number is stale.
async fn a_resent_move_gets_its_acknowledgement(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let created = create(addr, json!({ "board": "chullpa", "players": 2 })).await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    let (red, yellow) = (t[0].clone().unwrap(), t[1].clone().unwrap());
    let first = play(addr, &id, Some(&red), "L4@a1,a2,a3,b1", 1).await;
    assert_eq!(first.status, 201, "{}", first.text());
    for _ in 0..3 {
        let again = play(addr, &id, Some(&red), "L4@a1,a2,a3,b1", 1).await;
        assert_eq!(again.status, 200, "{}", again.text());
        assert_eq!(again.json(), first.json());
    }
    let st = state(addr, &id).await;
    assert_eq!(st["moves_played"], 1);
    let other = s(&st["legal_moves"][0]);
    // Yellow's move 2, then Yellow resends it after Red... no: Red resends move 1 after move 2.
    let second = play(addr, &id, Some(&yellow), &other, 2).await;
    assert_eq!(second.status, 201, "{}", second.text());
    let late = play(addr, &id, Some(&red), "L4@a1,a2,a3,b1", 1).await;
    assert_eq!(late.status, 200, "{}", late.text());
    assert_eq!(late.json(), first.json());
    // Not the same move: stale as before.
    let wrong = play(addr, &id, Some(&red), "I1@c3", 1).await;
    assert_eq!(wrong.status, 409, "{}", wrong.text());
    assert_eq!(wrong.json()["error"], "stale_move_number");
    assert_eq!(wrong.json()["move_number"], 3);
    // Another seat's token cannot claim Red's move.
    let other_seat = play(addr, &id, Some(&yellow), "L4@a1,a2,a3,b1", 1).await;
    assert_eq!(other_seat.status, 409, "{}", other_seat.text());
    assert_eq!(state(addr, &id).await["moves_played"], 2);
    server.stop().await;
}

/// Twenty AI-only level-9 games do not keep a human's level-1 opponent from answering
/// before any of their searches ends: human games go first and AI-only games never take
/// every worker. With the default limits an address cannot open that many AI-only games at
/// all.
///
/// Level 9's 4.5 s are counted on the test's manual time (time.rs, `SearchTime`) and the
/// move cap, on the real clock, is put beyond every wait here: no search of the flood can
/// end before the test moves the time on, however slow or loaded the machine. So a reply
/// that waited for a worker would never come; the reply comes while the flood holds its
/// thread and none of its games has a move.
async fn ai_only_games_do_not_starve_a_human(db: String) {
    let mut c = config(&db);
    c.ai_only_per_creator = 20;
    c.ai_only_total = 20;
    c.ai_move_cap = 3 * WAIT;
    let server = start(c).await;
    let addr = server.addr;
    let created = create(
        addr,
        json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "human" }, { "kind": "ai", "level": 1 }] }),
    )
    .await;
    let id = s(&created["id"]);
    let token = tokens(&created)[0].clone().unwrap();
    let mut ws = subscribe(addr, &id).await;
    next_of(&mut ws, "snapshot").await;
    let ai9 = json!({ "board": "chullpa", "players": 2,
                      "seats": [{ "kind": "ai", "level": 9 }, { "kind": "ai", "level": 9 }] });
    futures_util::future::join_all((0..20).map(|_| create(addr, ai9.clone()))).await;
    let refused = post(addr, "/api/v1/games", None, &ai9).await;
    assert_eq!(refused.status, 429, "{}", refused.text());
    assert_eq!(refused.json()["error"], "too_many_ai_games");
    assert!(refused.header("retry-after").is_some());
    // The flood takes every thread AI-only games may have (one of the two workers'), and
    // the rest of it waits.
    let flood_holds_its_thread = || async move {
        let q = ai_queue(addr).await;
        if q == (1, 19) {
            Ok(())
        } else {
            Err(format!("(running, waiting) {q:?}"))
        }
    };
    eventually("the flood holds its thread", flood_holds_its_thread).await;
    let sent = Instant::now();
    assert_eq!(play(addr, &id, Some(&token), "L4@a1,a2,a3,b1", 1).await.status, 201);
    let reply = event_within(&mut ws, "move", WAIT).await;
    let reply = match reply {
        Some(e) if e["number"] == 1 => event_within(&mut ws, "move", WAIT).await,
        other => other,
    };
    let waited = sent.elapsed();
    let reply = reply.unwrap_or_else(|| panic!("no AI reply within {WAIT:?} during the flood"));
    assert_eq!(reply["number"], 2);
    // (The reply's worker may still be finishing its job.)
    eventually("the flood's searches go on", flood_holds_its_thread).await;
    let open = get(addr, "/api/v1/games?status=open&limit=100").await.json();
    let flood_moves: Vec<i64> = open["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["id"] != id.as_str())
        .map(|g| g["moves_played"].as_i64().unwrap())
        .collect();
    assert_eq!(flood_moves, [0; 20], "no search of the flood ended before the reply");
    eprintln!("the level-1 reply during a level-9 flood came {waited:?} after the move");
    server.stop().await;

    // The defaults: two AI-only games per address.
    let server = start(config(&db)).await;
    let r = post(server.addr, "/api/v1/games", None, &ai9).await;
    assert_eq!(r.status, 429, "the 20 games above are still open: {}", r.text());
    server.stop().await;
}

/// The AI queue's games now, as `/metrics` counts them: (running, waiting).
async fn ai_queue(addr: SocketAddr) -> (i64, i64) {
    let text = get(addr, "/metrics").await.text();
    let gauge = |state: &str| {
        let name = format!("rumis_ai_queue_games{{state=\"{state}\"}} ");
        text.lines()
            .find_map(|l| l.strip_prefix(name.as_str()))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {name} in /metrics: {text}"))
    };
    (gauge("running"), gauge("waiting"))
}

/// Creates an AI-only game as the client `client` (through the trusted proxy, loopback);
/// the answer's status.
async fn create_ai_only_as(addr: SocketAddr, client: &str) -> u16 {
    let body = json!({ "board": "chullpa", "players": 2,
                       "seats": [{ "kind": "ai", "level": 1 }, { "kind": "ai", "level": 1 }] })
    .to_string();
    let request = format!(
        "POST /api/v1/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         X-Forwarded-For: {client}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    // (A busy answer is sent again, as `post` does: see `common::patiently`.)
    let mut tries = 0;
    let r = loop {
        let r = client::raw(addr, request.as_bytes()).await.expect("answered");
        if r.status != 503 || tries == BUSY_RETRIES {
            break r;
        }
        tries += 1;
        eprintln!("503 busy (try {tries}), sending again: {}", r.text());
        tokio::time::sleep(Duration::from_millis(250 * tries as u64)).await;
    };
    assert!(matches!(r.status, 201 | 429), "{} {}", r.status, r.text());
    if r.status == 429 {
        assert_eq!(r.json()["error"], "too_many_ai_games", "{}", r.text());
    }
    r.status
}

/// The AI-only caps (2 per address, 8 in all) hold when many creations race: 40 at once
/// from one address open exactly 2; then 60 at once from 30 addresses open exactly 6 more
/// (8 in all), none of them a third for its address. (Before, the count was read before the
/// transaction that inserted the game, so racing creations all saw room: 40 at once from
/// one address opened more than 2.) No AI worker runs, so no game ends meanwhile.
async fn the_ai_only_caps_hold_under_concurrent_creates(db: String) {
    let mut c = config(&db);
    c.ai_workers = 0;
    c.limits.trusted_proxy = Some("127.0.0.1".parse().unwrap());
    let server = start(c).await;
    let addr = server.addr;
    let statuses = futures_util::future::join_all((0..40).map(|_| create_ai_only_as(addr, "10.0.0.1"))).await;
    let opened = statuses.iter().filter(|&&s| s == 201).count();
    assert_eq!(opened, 2, "from one address: {statuses:?}");

    let clients: Vec<String> = (0..60).map(|i| format!("10.0.1.{}", i % 30)).collect();
    let statuses = futures_util::future::join_all(clients.iter().map(|a| create_ai_only_as(addr, a))).await;
    let mut by_client = std::collections::HashMap::<&str, usize>::new();
    for (a, s) in clients.iter().zip(&statuses) {
        if *s == 201 {
            *by_client.entry(a).or_default() += 1;
        }
    }
    assert_eq!(by_client.values().sum::<usize>(), 6, "in all: {by_client:?}");
    assert!(by_client.values().all(|&n| n <= 2), "{by_client:?}");
    let open = get(addr, "/api/v1/games?status=open&limit=100").await.json();
    assert_eq!(open["games"].as_array().unwrap().len(), 8, "{open}");
    server.stop().await;
}

/// The creator (the holder of the first human seat's token) deletes a game nobody else has
/// moved in; once another player moved, or for another token, it stays.
async fn a_creator_deletes_a_game_nobody_joined(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let delete = |id: String, token: Option<String>| async move {
        client::request(addr, "DELETE", &format!("/api/v1/games/{id}"), token.as_deref(), None)
            .await
            .unwrap()
    };
    let created = create(addr, json!({ "board": "chullpa", "players": 2 })).await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    assert_eq!(delete(id.clone(), None).await.status, 401);
    let r = delete(id.clone(), t[1].clone()).await;
    assert_eq!(
        (r.status, r.json()["error"].clone()),
        (409, json!("not_deletable")),
        "{}",
        r.text()
    );
    assert_eq!(play(addr, &id, t[0].as_deref(), "L4@a1,a2,a3,b1", 1).await.status, 201);
    let mut ws = subscribe(addr, &id).await;
    next_of(&mut ws, "snapshot").await;
    let r = delete(id.clone(), t[0].clone()).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json(), json!({ "id": id, "deleted": true }));
    next_of(&mut ws, "deleted").await;
    assert_eq!(get(addr, &format!("/api/v1/games/{id}")).await.status, 404);
    assert_eq!(delete(id.clone(), t[0].clone()).await.status, 404);

    // Joined: Yellow moved.
    let created = create(addr, json!({ "board": "chullpa", "players": 2 })).await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    assert_eq!(play(addr, &id, t[0].as_deref(), "L4@a1,a2,a3,b1", 1).await.status, 201);
    let m = s(&state(addr, &id).await["legal_moves"][0]);
    assert_eq!(play(addr, &id, t[1].as_deref(), &m, 2).await.status, 201);
    let r = delete(id.clone(), t[0].clone()).await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert_eq!(state(addr, &id).await["moves_played"], 2);
    server.stop().await;
}

/// A game without a move for the configured time is abandoned: its record stays, it is
/// listed as abandoned and takes no more moves.
async fn idle_games_are_abandoned(db: String) {
    let mut c = config(&db);
    c.game_ttl = Some(Duration::from_millis(1500));
    let time = c.time.clone();
    let server = start(c).await;
    let addr = server.addr;
    let created = create(addr, json!({ "board": "chullpa", "players": 2 })).await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    assert_eq!(play(addr, &id, t[0].as_deref(), "L4@a1,a2,a3,b1", 1).await.status, 201);
    time.advance(Duration::from_millis(1501));
    let st = state_when(addr, &id, "abandoned", |st| st["status"] == "abandoned").await;
    assert_eq!(st["moves_played"], 1);
    let listed = get(addr, "/api/v1/games?status=abandoned").await.json();
    assert!(listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == id.as_str()));
    let m = s(&st["legal_moves"][0]);
    let r = play(addr, &id, t[1].as_deref(), &m, 2).await;
    assert_eq!(
        (r.status, r.json()["error"].clone()),
        (409, json!("game_abandoned")),
        "{}",
        r.text()
    );
    server.stop().await;
}

/// A database locked by another connection answers a move with 503 and `Retry-After`
/// within 10 s, and reads go on meanwhile (WAL); once unlocked, the move is accepted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_database_answers_503_in_time() {
    use sqlx::Connection;
    let dir = TempDir::new("locked");
    let server = start(config(&dir.db_url())).await;
    let addr = server.addr;
    let created = create(addr, json!({ "board": "chullpa", "players": 2 })).await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    let mut locker = sqlx::SqliteConnection::connect(&dir.db_url()).await.unwrap();
    sqlx::query("BEGIN EXCLUSIVE").execute(&mut locker).await.unwrap();
    let sent = Instant::now();
    // Sent once (not as `play`, which sends a busy answer's request again).
    let body = json!({ "placement": "L4@a1,a2,a3,b1", "expected_move_number": 1 });
    let r = client::post(addr, &format!("/api/v1/games/{id}/moves"), t[0].as_deref(), &body)
        .await
        .expect("answered");
    let waited = sent.elapsed();
    assert_eq!(r.status, 503, "{}", r.text());
    assert_eq!(r.json()["error"], "busy");
    assert!(r.header("retry-after").is_some());
    assert!(waited < Duration::from_secs(10), "503 after {waited:?}");
    let read = Instant::now();
    assert_eq!(state(addr, &id).await["moves_played"], 0);
    assert!(
        read.elapsed() < Duration::from_secs(5),
        "a read waited {:?}",
        read.elapsed()
    );
    sqlx::query("ROLLBACK").execute(&mut locker).await.unwrap();
    assert_eq!(play(addr, &id, t[0].as_deref(), "L4@a1,a2,a3,b1", 1).await.status, 201);
    server.stop().await;
}
