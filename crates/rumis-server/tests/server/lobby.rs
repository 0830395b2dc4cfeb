//! Players, the lobby, abort, rematch and ratings over real HTTP on 127.0.0.1.

use crate::common;

on_both_databases!(
    race_for_the_last_seat_seats_exactly_one,
    a_rated_game_from_seek_to_rematch,
    quick_play_meets_and_fills_with_the_ai_after_a_restart,
    a_seek_with_a_clock_starts_it_when_the_last_seat_is_taken,
    a_seat_the_ai_took_over_ranks_last,
    a_seek_expires_when_its_creator_is_gone,
    a_rematch_can_be_declined
);

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::*;
use serde_json::{json, Value};

pub(crate) async fn table(addr: SocketAddr, id: &str) -> Value {
    let r = get(addr, &format!("/api/v1/games/{id}/table")).await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

/// A two-player Chullpa seek by `key` with seat 1 open.
pub(crate) async fn seek2(addr: SocketAddr, key: &str, rated: bool) -> String {
    let r = post(
        addr,
        "/api/v1/lobby/seeks",
        Some(key),
        &json!({ "board": "chullpa", "players": 2, "rated": rated,
                 "seats": [{ "kind": "me" }, { "kind": "open" }] }),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["status"], "waiting");
    s(&r.json()["game"])
}

/// Plays the game to its end; each seat's move is chosen from the legal moves by
/// `choose(seat, legal)`. Seats whose key is `None` are the AI's: waited for.
pub(crate) async fn play_out(
    addr: SocketAddr,
    id: &str,
    keys: &[Option<String>],
    choose: impl Fn(usize, &[Value]) -> usize,
) -> Value {
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < WAIT, "the game ends in time");
        let st = state(addr, id).await;
        if st["over"] == true {
            return st;
        }
        let seat = st["seat_to_move"].as_u64().unwrap() as usize;
        let n = st["move_number"].as_i64().unwrap();
        match &keys[seat] {
            Some(k) => {
                let legal = st["legal_moves"].as_array().unwrap().clone();
                let m = s(&legal[choose(seat, &legal)]);
                let r = play(addr, id, Some(k), &m, n).await;
                assert_eq!(r.status, 201, "{}", r.text());
            }
            // The AI's turn: until it has moved.
            None => {
                let n = st["moves_played"].clone();
                state_when(addr, id, "the AI moves", |now| now["moves_played"] != n).await;
            }
        }
    }
}

/// Waits until `check` holds for the JSON at `path`.
pub(crate) async fn wait_for(addr: SocketAddr, path: &str, key: Option<&str>, check: impl Fn(&Value) -> bool) -> Value {
    let check = &check;
    eventually(path, || async move {
        let v = client::request(addr, "GET", path, key, None)
            .await
            .expect("answered")
            .json();
        if check(&v) {
            Ok(v)
        } else {
            Err(v.to_string())
        }
    })
    .await
}

/// Two players send their join for the last free seat at the same moment, 8 times:
/// exactly one sits each time, the other is told the game is full, and the game starts
/// once.
async fn race_for_the_last_seat_seats_exactly_one(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let (_, host) = new_player(addr, "Host").await;
    let (b_id, b) = new_player(addr, "Bea").await;
    let (c_id, c) = new_player(addr, "Cal").await;
    for round in 0..8 {
        let id = seek2(addr, &host, false).await;
        let path = format!("/api/v1/games/{id}/join");
        let empty = json!({});
        let (rb, rc) = tokio::join!(post(addr, &path, Some(&b), &empty), post(addr, &path, Some(&c), &empty));
        let mut statuses = [rb.status, rc.status];
        statuses.sort();
        assert_eq!(statuses, [201, 409], "round {round}: {} / {}", rb.text(), rc.text());
        let loser = if rb.status == 409 { &rb } else { &rc };
        assert_eq!(loser.json()["error"], "game_full", "{}", loser.text());
        let winner = if rb.status == 201 { &b_id } else { &c_id };
        let t = table(addr, &id).await;
        assert_eq!(t["status"], "open");
        assert_eq!(t["free_seats"], 0);
        assert_eq!(t["seats"][1]["player"]["id"], winner.as_str(), "{t}");
        assert_eq!(t["seats"][1]["state"], "taken");
    }
    server.stop().await;
}

/// Two players meet through a rated seek, play to the end; the ratings move as the
/// ranking says (the winner up, the loser down, by the same amount at first); a rematch
/// rotates the seats and starts when both accept; aborting it before the second move
/// ends it without a rating. The player page lists both games.
// long: one pair of players' story in order (seek, game, ratings, rematch, abort), each step
// checked where it happens.
async fn a_rated_game_from_seek_to_rematch(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let (a_id, a) = new_player(addr, "Ana").await;
    let (b_id, b) = new_player(addr, "Ben").await;
    let id = seek2(addr, &a, true).await;
    let lobby = get(addr, "/api/v1/lobby").await.json();
    assert_eq!(lobby["seeks"][0]["game"], id.as_str());
    assert_eq!(lobby["seeks"][0]["seats"][0]["player"]["name"], "Ana");
    assert_eq!(lobby["seeks"][0]["seats"][1]["state"], "free");
    let r = post(addr, &format!("/api/v1/games/{id}/join"), Some(&b), &json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["started"], true);
    assert_eq!(r.json()["seat"], 1);
    let lobby = get(addr, "/api/v1/lobby").await.json();
    assert!(lobby["seeks"].as_array().unwrap().is_empty());
    assert_eq!(lobby["playing"][0]["game"], id.as_str());
    // Ana plays the first legal move, Ben the last: someone wins or they share.
    let keys = [Some(a.clone()), Some(b.clone())];
    let end = play_out(
        addr,
        &id,
        &keys,
        |seat, legal| if seat == 0 { 0 } else { legal.len() - 1 },
    )
    .await;
    let scores = end["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect::<Vec<_>>();
    let pa = wait_for(addr, &format!("/api/v1/players/{a_id}"), None, |v| {
        v["rating"]["games"] == 1
    })
    .await;
    let pb = wait_for(addr, &format!("/api/v1/players/{b_id}"), None, |v| {
        v["rating"]["games"] == 1
    })
    .await;
    let (ra, rb) = (
        pa["rating"]["rating"].as_i64().unwrap(),
        pb["rating"]["rating"].as_i64().unwrap(),
    );
    match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => assert!(ra > 1500 && rb < 1500 && ra - 1500 == 1500 - rb, "{ra} {rb}"),
        std::cmp::Ordering::Less => assert!(rb > 1500 && ra < 1500 && rb - 1500 == 1500 - ra, "{ra} {rb}"),
        std::cmp::Ordering::Equal => assert_eq!((ra, rb), (1500, 1500)),
    }
    assert_eq!(pa["rating"]["provisional"], true);
    assert_eq!(pa["finished"][0]["game"], id.as_str());
    assert_eq!(pa["finished"][0]["rating_change"]["after"], ra);
    assert_eq!(pa["finished"][0]["record_url"], format!("/api/v1/games/{id}/record"));
    let board = get(addr, "/api/v1/ratings").await.json();
    let entries = board["entries"].as_array().unwrap();
    assert_eq!(entries.iter().filter(|e| e["kind"] == "ai").count(), 9);
    // One opponent is not enough to be listed (three distinct ones are: issue #50).
    assert_eq!(board["min_opponents"], 3);
    assert!(!entries.iter().any(|e| e["id"] == a_id.as_str()), "{board}");
    assert!(entries
        .windows(2)
        .all(|w| w[0]["rating"].as_i64() >= w[1]["rating"].as_i64()));
    // Rematch: Ben asks, Ana accepts; seats rotated.
    let r = post(addr, &format!("/api/v1/games/{id}/rematch"), Some(&b), &json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let re = s(&r.json()["game"]);
    assert_eq!(r.json()["seat"], 0, "Ben sat in seat 1; now seat 0");
    assert_eq!(r.json()["started"], false);
    let t = table(addr, &re).await;
    assert_eq!(t["seats"][1]["state"], "offered");
    assert_eq!(t["seats"][1]["player"]["id"], a_id.as_str());
    assert_eq!(t["rematch_of"], id.as_str());
    assert_eq!(table(addr, &id).await["rematch"], re.as_str());
    // An outsider cannot take the seat kept for Ana.
    let (c_id, c) = new_player(addr, "Cid").await;
    let r = post(addr, &format!("/api/v1/games/{re}/join"), Some(&c), &json!({})).await;
    assert_eq!(r.json()["error"], "game_full", "{}", r.text());
    let r = post(addr, &format!("/api/v1/games/{id}/rematch"), Some(&a), &json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(
        (r.json()["game"].clone(), r.json()["seat"].clone()),
        (json!(re), json!(1))
    );
    assert_eq!(r.json()["started"], true);
    // One move, then Ana aborts: no rating.
    let st = state(addr, &re).await;
    assert_eq!(st["seat_to_move"], 0);
    assert_eq!(
        play(addr, &re, Some(&b), &s(&st["legal_moves"][0]), 1).await.status,
        201
    );
    let r = post(addr, &format!("/api/v1/games/{re}/abort"), Some(&a), &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(state(addr, &re).await["status"], "aborted");
    let st = state(addr, &re).await;
    let r = play(addr, &re, Some(&a), &s(&st["legal_moves"][0]), 2).await;
    assert_eq!(r.json()["error"], "game_aborted", "{}", r.text());
    // Nor does a lobby tick rate it later: a rated game made after the abort, which Cid
    // resigns at once, is counted as not played ("too_few_moves") by a tick that began after
    // it, and so after the abort; that tick left Ana's rating as it was.
    let witness = seek2(addr, &c, true).await;
    let r = post(addr, &format!("/api/v1/games/{witness}/join"), Some(&b), &json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let r = post(addr, &format!("/api/v1/games/{witness}/resign"), Some(&c), &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    page_when(addr, &c_id, |v| {
        v["finished"].as_array().is_some_and(|f| {
            f.iter()
                .any(|g| g["game"] == witness.as_str() && g["not_counted"] == "too_few_moves")
        })
    })
    .await;
    let pa2 = get(addr, &format!("/api/v1/players/{a_id}")).await.json();
    assert_eq!(pa2["rating"], pa["rating"], "an aborted game is not rated");
    assert!(pa2["finished"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["game"] == re.as_str() && g["status"] == "aborted"));
    server.stop().await;
}

/// Quick play: two players asking for the same thing meet in one game; a third asking
/// for three players waits, the server restarts, and after the wait the AI takes the
/// free seats and plays.
async fn quick_play_meets_and_fills_with_the_ai_after_a_restart(db: String) {
    let c = config(&db);
    let time = c.time.clone();
    let server = start(c).await;
    let addr = server.addr;
    let (_, a) = new_player(addr, "Ana").await;
    let (_, b) = new_player(addr, "Ben").await;
    let (c_id, c) = new_player(addr, "Cid").await;
    let quick = json!({ "board": "tambo", "players": 2, "wait_seconds": 600 });
    let ra = post(addr, "/api/v1/lobby/quick", Some(&a), &quick).await;
    assert_eq!(ra.status, 201, "{}", ra.text());
    assert_eq!(ra.json()["started"], false);
    let rb = post(
        addr,
        "/api/v1/lobby/quick",
        Some(&b),
        &json!({ "board": "any", "players": "any", "wait_seconds": 600 }),
    )
    .await;
    assert_eq!(rb.status, 201, "{}", rb.text());
    assert_eq!(rb.json()["game"], ra.json()["game"]);
    assert_eq!(rb.json()["started"], true);
    let r = post(
        addr,
        "/api/v1/lobby/quick",
        Some(&c),
        &json!({ "board": "pisac", "players": 3, "ai_level": 2, "wait_seconds": 2 }),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let id = s(&r.json()["game"]);
    assert_eq!(table(addr, &id).await["fill_level"], 2);
    server.stop().await;
    // The next server (on the same time) fills it once its 2 s are up.
    let mut c2 = config(&db);
    c2.time = time.clone();
    let server = start(c2).await;
    time.advance(Duration::from_secs(2));
    let addr = server.addr;
    let t = wait_for(addr, &format!("/api/v1/games/{id}/table"), None, |t| {
        t["status"] == "open"
    })
    .await;
    assert_eq!(t["seats"][0]["player"]["id"], c_id.as_str());
    assert_eq!(
        (t["seats"][1]["kind"].clone(), t["seats"][1]["level"].clone()),
        (json!("ai"), json!(2))
    );
    assert_eq!(t["seats"][2]["kind"], "ai");
    // Cid moves; the AI seats answer.
    let st = state(addr, &id).await;
    assert_eq!(
        play(addr, &id, Some(&c), &s(&st["legal_moves"][0]), 1).await.status,
        201
    );
    wait_for(addr, &format!("/api/v1/games/{id}"), None, |st| {
        st["moves_played"].as_i64() >= Some(3)
    })
    .await;
    server.stop().await;
}

/// A seek's clock: nobody's time runs while the game waits for players; when the last seat
/// is taken the first seat's time starts; a rematch keeps the clock.
async fn a_seek_with_a_clock_starts_it_when_the_last_seat_is_taken(db: String) {
    let c = config(&db);
    let time = c.time.clone();
    let server = start(c).await;
    let addr = server.addr;
    let (_, a) = new_player(addr, "Ana").await;
    let (_, b) = new_player(addr, "Ben").await;
    let r = post(
        addr,
        "/api/v1/lobby/seeks",
        Some(&a),
        &json!({ "board": "chullpa", "players": 2,
                 "seats": [{ "kind": "me" }, { "kind": "open" }],
                 "clock": { "kind": "realtime", "minutes": 5, "increment_seconds": 2 } }),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let id = s(&r.json()["game"]);
    // The lobby and the table show the seek's clock (they said null: the bug this pins).
    let lobby = get(addr, "/api/v1/lobby").await.json();
    let listed = &lobby["seeks"][0]["clock"];
    assert_eq!(
        (
            listed["kind"].clone(),
            listed["initial_ms"].clone(),
            listed["increment_ms"].clone(),
            listed["on_timeout"].clone(),
            listed["running_seat"].clone(),
        ),
        (
            json!("realtime"),
            json!(300_000),
            json!(2_000),
            json!("out"),
            Value::Null
        ),
        "{lobby}"
    );
    assert_eq!(listed["seats"][1]["remaining_ms"], 300_000, "{lobby}");
    let t = table(addr, &id).await;
    assert_eq!(t["clock"]["initial_ms"], 300_000, "{t}");
    // An untimed seek has none.
    let untimed = seek2(addr, &a, false).await;
    assert_eq!(table(addr, &untimed).await["clock"], Value::Null);
    let state = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(state["clock"]["kind"], "realtime", "{state}");
    assert_eq!(
        state["clock"]["running_seat"],
        Value::Null,
        "no time runs while waiting: {state}"
    );
    assert_eq!(state["clock"]["seats"][0]["remaining_ms"], 300_000);
    time.advance(Duration::from_secs(30));
    let r = post(addr, &format!("/api/v1/games/{id}/join"), Some(&b), &json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["started"], true);
    let state = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(state["clock"]["running_seat"], 0, "{state}");
    // The 30 s before the join cost the first seat nothing.
    assert_eq!(state["clock"]["seats"][0]["remaining_ms"], 300_000, "{state}");
    // In play, the lobby's list shows it running for the first seat.
    let lobby = get(addr, "/api/v1/lobby").await.json();
    let playing = lobby["playing"].as_array().unwrap();
    let listed = playing
        .iter()
        .find(|g| g["game"] == id.as_str())
        .expect("listed in play");
    assert_eq!(listed["clock"]["running_seat"], 0, "{lobby}");
    server.stop().await;
}

/// A rated game where the AI takes a player's seat over — the player leaves, or runs out of
/// time under "the AI takes over" — ranks that player last whatever the AI then scores in
/// the seat (as Board Game Arena ranks a "zombie"): the player is rated, at their own
/// rating, and loses; the one who stayed wins.
async fn a_seat_the_ai_took_over_ranks_last(db: String) {
    let c = config(&db);
    let time = c.time.clone();
    let server = start(c).await;
    let addr = server.addr;
    let (a_id, a) = new_player(addr, "Ana").await;
    let (b_id, b) = new_player(addr, "Ben").await;
    let clock =
        json!({ "kind": "realtime", "minutes": 0.1, "increment_seconds": 10, "on_timeout": "ai", "ai_level": 1 });
    for (round, how) in ["leave", "timeout"].iter().enumerate() {
        let r = post(
            addr,
            "/api/v1/lobby/seeks",
            Some(&a),
            &json!({ "board": "chullpa", "players": 2, "rated": true, "clock": clock,
                     "seats": [{ "kind": "me" }, { "kind": "open" }] }),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.text());
        let id = s(&r.json()["game"]);
        let r = post(addr, &format!("/api/v1/games/{id}/join"), Some(&b), &json!({})).await;
        assert_eq!(r.status, 201, "{}", r.text());
        // Ana moves first; then Ben leaves, or lets his 6 s run out.
        let st = state(addr, &id).await;
        assert_eq!(
            play(addr, &id, Some(&a), &s(&st["legal_moves"][0]), 1).await.status,
            201
        );
        if *how == "leave" {
            let r = post(addr, &format!("/api/v1/games/{id}/leave"), Some(&b), &json!({})).await;
            assert_eq!(r.status, 200, "{}", r.text());
        } else {
            time.advance(Duration::from_secs(6));
        }
        wait_for(addr, &format!("/api/v1/games/{id}"), None, |st| {
            st["seats"][1]["kind"] == "ai"
        })
        .await;
        // Ana plays on against the AI in Ben's seat, badly (the last legal move each time).
        let end = play_out(addr, &id, &[Some(a.clone()), None], |_, legal| legal.len() - 1).await;
        let games = round as i64 + 1;
        let pa = wait_for(addr, &format!("/api/v1/players/{a_id}"), None, |v| {
            v["rating"]["games"] == games
        })
        .await;
        let pb = wait_for(addr, &format!("/api/v1/players/{b_id}"), None, |v| {
            v["rating"]["games"] == games
        })
        .await;
        let change = |p: &Value| {
            p["finished"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["game"] == id.as_str())
                .map(|g| g["rating_change"].clone())
                .unwrap()
        };
        let (ca, cb) = (change(&pa), change(&pb));
        let scores = &end["players"];
        assert_eq!(
            (ca["place"].clone(), cb["place"].clone()),
            (json!(1), json!(2)),
            "{how}: scores {scores}"
        );
        assert!(
            ca["after"].as_i64() > ca["before"].as_i64() && cb["after"].as_i64() < cb["before"].as_i64(),
            "{how}: {ca} {cb} (scores {scores})"
        );
        // Ben was rated at his own rating, not the AI level's (1000).
        assert!(cb["before"].as_i64().unwrap() > 1300, "{how}: {cb}");
        if *how == "leave" {
            // Ben, back, asks for a rematch: he sits down (in seat 0 now), Ana's seat is
            // offered to her.
            let r = post(addr, &format!("/api/v1/games/{id}/rematch"), Some(&b), &json!({})).await;
            assert_eq!((r.status, r.json()["seat"].clone()), (201, json!(0)), "{}", r.text());
            let t = table(addr, &s(&r.json()["game"])).await;
            assert_eq!(t["seats"][1]["state"], "offered", "{t}");
        }
    }
    server.stop().await;
}

/// A presence ping for `key`.
async fn present(addr: SocketAddr, key: &str) {
    let r = post(addr, "/api/v1/players/me/presence", Some(key), &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text());
}

/// Seeks expire after `idle` of `time`, looked for every 150 ms of it.
fn quick_expiry(db: &str, idle: Duration, time: &rumis_server::Time) -> rumis_server::Config {
    let mut c = config(db);
    c.seek_idle = idle;
    c.lobby_tick = Some(Duration::from_millis(150));
    c.time = time.clone();
    c
}

/// A waiting seek expires when its creator is not seen (no request with their key, no
/// presence ping) for `seek_idle`: it is aborted with an `expired` event and leaves the
/// lobby, and a join is refused; the seek of a creator who pings stays. The time comes from
/// the database: a seek made on a server that waits an hour expires on the next server,
/// which waits 2 s, after a restart.
async fn a_seek_expires_when_its_creator_is_gone(db: String) {
    let time = rumis_server::Time::manual();
    let server = start(quick_expiry(&db, Duration::from_secs(2), &time)).await;
    let addr = server.addr;
    let (_, a) = new_player(addr, "Ana").await;
    let (_, b) = new_player(addr, "Ben").await;
    let (_, c) = new_player(addr, "Cid").await;
    // Ana is last seen when her seek is written.
    let gone = seek2(addr, &a, true).await;
    let stays = seek2(addr, &b, true).await;
    let mut ws = subscribe(addr, &gone).await;
    next_of(&mut ws, "snapshot").await;
    let r = post(addr, "/api/v1/players/me/presence", Some(&b), &json!({})).await;
    assert_eq!(r.json()["seek_idle_ms"], 2000, "{}", r.text());
    // Ben stays (his page pings); Ana is gone. At 2 s her seek is not yet over its time.
    time.advance(Duration::from_secs(1));
    present(addr, &b).await;
    time.advance(Duration::from_secs(1));
    present(addr, &b).await;
    assert_eq!(table(addr, &gone).await["status"], "waiting");
    time.advance(Duration::from_millis(1));
    let e = next_of(&mut ws, "expired").await;
    assert_eq!((e["game"].clone(), e["idle_ms"].clone()), (json!(gone), json!(2000)));
    let t = table(addr, &gone).await;
    assert_eq!(
        (&t["status"], &t["called_off"]),
        (&json!("aborted"), &json!("expired")),
        "{t}"
    );
    let t = table(addr, &stays).await;
    assert_eq!(
        (&t["status"], &t["called_off"]),
        (&json!("waiting"), &Value::Null),
        "{t}"
    );
    let lobby = get(addr, "/api/v1/lobby").await.json();
    let listed: Vec<&Value> = lobby["seeks"].as_array().unwrap().iter().map(|t| &t["game"]).collect();
    assert_eq!(listed, vec![&json!(stays)], "{lobby}");
    let r = post(addr, &format!("/api/v1/games/{gone}/join"), Some(&c), &json!({})).await;
    assert_eq!(r.json()["error"], "game_aborted", "{}", r.text());
    // Ben's seek is still joinable while he is here.
    let r = post(addr, &format!("/api/v1/games/{stays}/join"), Some(&c), &json!({})).await;
    assert_eq!(r.json()["started"], true, "{}", r.text());
    server.stop().await;

    // A restart: the sighting is in the database, not in a server's memory. (The servers
    // share one time, as one machine's clock.)
    let server = start(quick_expiry(&db, Duration::from_secs(3600), &time)).await;
    let old = seek2(server.addr, &c, false).await;
    time.advance(Duration::from_secs(3));
    assert_eq!(table(server.addr, &old).await["status"], "waiting");
    server.stop().await;
    let server = start(quick_expiry(&db, Duration::from_secs(2), &time)).await;
    let t = wait_for(server.addr, &format!("/api/v1/games/{old}/table"), None, |t| {
        t["status"] != "waiting"
    })
    .await;
    assert_eq!(
        (&t["status"], &t["called_off"]),
        (&json!("aborted"), &json!("expired")),
        "{t}"
    );
    // The game that started is not touched by the expiry.
    assert_eq!(table(server.addr, &stays).await["status"], "open");
    server.stop().await;
}

/// Two instances on one PostgreSQL database, many seeks whose creators are gone: each
/// expires once (one `expired` event per game, heard through one instance).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(rumis_postgres_tests), ignore = "needs RUMIS_TEST_POSTGRES_URL")]
async fn a_seek_expires_once_with_two_instances_on_postgres() {
    let db = Db::postgres("seek_two").await;
    let url = db.url();
    // Both instances on one time, as on one machine's clock; the seeks expire when it moves.
    let time = rumis_server::Time::manual();
    let a = start(quick_expiry(&url, Duration::from_secs(3), &time)).await;
    let b = start(quick_expiry(&url, Duration::from_secs(3), &time)).await;
    let mut games = Vec::new();
    for i in 0..8 {
        let via = if i % 2 == 0 { a.addr } else { b.addr };
        let (_, key) = new_player(via, &format!("P{i}")).await;
        games.push(seek2(via, &key, false).await);
    }
    let mut sockets = Vec::new();
    for id in &games {
        let mut ws = subscribe(a.addr, id).await;
        let snapshot = next_of(&mut ws, "snapshot").await;
        assert_eq!(snapshot["state"]["status"], "waiting");
        sockets.push((id, ws));
    }
    time.advance(Duration::from_millis(3_001));
    for (id, ws) in sockets.iter_mut() {
        let e = next_of(ws, "expired").await;
        assert_eq!(e["game"], json!(id));
        // A bound on a second event that must not come (the thing tested, on the real clock).
        let again = tokio::time::timeout(Duration::from_millis(400), next_of(ws, "expired")).await;
        assert!(again.is_err(), "a second expiry of game {id}");
    }
    for id in &games {
        assert_eq!(table(b.addr, id).await["status"], "aborted");
    }
    a.stop().await;
    b.stop().await;
    db.remove().await;
}

/// A player offered a seat in a rematch declines it: the rematch is aborted, both games'
/// sockets say who declined, and the finished game offers none any more, so that a new
/// rematch can be asked for. Declining is refused, changing nothing, to the one who asked
/// (they abort instead), to an outsider, without a key, twice.
// long: one rematch offered, refused to each wrong asker, declined, then asked for again.
async fn a_rematch_can_be_declined(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let (a_id, a) = new_player(addr, "Ana").await;
    let (b_id, b) = new_player(addr, "Ben").await;
    let (_, c) = new_player(addr, "Cid").await;
    // A game that ended (aborted at once: a rematch needs only its end).
    let id = seek2(addr, &a, false).await;
    assert_eq!(
        post(addr, &format!("/api/v1/games/{id}/join"), Some(&b), &json!({}))
            .await
            .status,
        201
    );
    assert_eq!(
        post(addr, &format!("/api/v1/games/{id}/abort"), Some(&a), &json!({}))
            .await
            .status,
        200
    );
    // Why it was called off is kept with it, for a page opened later.
    assert_eq!(table(addr, &id).await["called_off"], "aborted");
    let decline = format!("/api/v1/games/{id}/rematch/decline");
    let r = post(addr, &decline, Some(&b), &json!({})).await;
    assert_eq!(
        (r.status, r.json()["error"].clone()),
        (409, json!("no_rematch")),
        "{}",
        r.text()
    );
    let r = post(addr, &format!("/api/v1/games/{id}/rematch"), Some(&a), &json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let re = s(&r.json()["game"]);
    let mut old_ws = subscribe(addr, &id).await;
    next_of(&mut old_ws, "snapshot").await;
    let mut new_ws = subscribe(addr, &re).await;
    next_of(&mut new_ws, "snapshot").await;
    let before = (table(addr, &id).await, table(addr, &re).await);
    for (key, status, code) in [
        (Some(a.as_str()), 409, "no_rematch"),
        (Some(c.as_str()), 409, "no_rematch"),
        (None, 401, "missing_key"),
        (Some("0123456789abcdef0123456789abcdef"), 403, "wrong_key"),
    ] {
        let r = post(addr, &decline, key, &json!({})).await;
        assert_eq!(
            (r.status, r.json()["error"].clone()),
            (status, json!(code)),
            "{}",
            r.text()
        );
        assert!(
            r.json()["reason"].as_str().is_some_and(|t| t.len() > 10),
            "{}",
            r.text()
        );
        assert_eq!((table(addr, &id).await, table(addr, &re).await), before);
    }
    let r = post(
        addr,
        "/api/v1/games/0123456789abcdef/rematch/decline",
        Some(&b),
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 404, "{}", r.text());
    // Ben declines.
    let r = post(addr, &decline, Some(&b), &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json(), json!({ "game": id, "rematch": re, "status": "aborted" }));
    let e = next_of(&mut old_ws, "rematch_declined").await;
    assert_eq!((e["rematch"].clone(), e["by"].clone()), (json!(re), json!(b_id)));
    assert_eq!(next_of(&mut new_ws, "rematch_declined").await["by"], json!(b_id));
    next_of(&mut new_ws, "aborted").await;
    let t = table(addr, &re).await;
    assert_eq!(
        (&t["status"], &t["called_off"]),
        (&json!("aborted"), &json!("rematch_declined")),
        "{t}"
    );
    assert_eq!(table(addr, &id).await["rematch"], Value::Null);
    let r = post(addr, &decline, Some(&b), &json!({})).await;
    assert_eq!(
        (r.status, r.json()["error"].clone()),
        (409, json!("no_rematch")),
        "{}",
        r.text()
    );
    // A new rematch can be asked for, and accepted.
    let r = post(addr, &format!("/api/v1/games/{id}/rematch"), Some(&b), &json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let again = s(&r.json()["game"]);
    assert_ne!(again, re);
    assert_eq!(table(addr, &again).await["seats"][1]["player"]["id"], json!(a_id));
    let r = post(addr, &format!("/api/v1/games/{id}/rematch"), Some(&a), &json!({})).await;
    assert_eq!(
        (r.json()["game"].clone(), r.json()["started"].clone()),
        (json!(again), json!(true))
    );
    server.stop().await;
}
