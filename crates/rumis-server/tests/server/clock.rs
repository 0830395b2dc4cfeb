//! Clocks, timeouts, resign and leave (issue 17): the server enforces the clock from the
//! database; a timeout fires once (two instances on one PostgreSQL database too); the game's
//! rule decides (out, or the AI takes over); resign at any turn; bad clocks are refused and
//! change nothing.

use crate::common;

on_both_databases!(
    bad_clocks_are_refused_and_create_nothing,
    a_clock_runs_only_for_the_seat_to_move,
    a_timeout_under_out_forfeits_and_ends_a_two_player_game,
    a_timeout_gives_the_seat_to_the_ai,
    resign_at_any_turn_and_again,
    leave_gives_the_seat_to_the_ai,
    a_late_move_is_refused_and_changes_nothing,
    undo_takes_back_a_resignation_after_the_move
);

use std::time::Duration;

use common::*;
use serde_json::{json, Value};

async fn count_games(addr: std::net::SocketAddr) -> usize {
    let r = get(addr, "/api/v1/games?status=open&limit=50").await;
    r.json()["games"].as_array().unwrap().len()
}

fn two_humans(clock: Value) -> Value {
    json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "human" }, { "kind": "human" }], "clock": clock })
}

async fn bad_clocks_are_refused_and_create_nothing(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let cases = [
        (json!({ "kind": "realtime", "minutes": -1 }), "not -1"),
        (json!({ "kind": "realtime", "minutes": 1e12 }), "0.1 to 180"),
        (
            json!({ "kind": "realtime", "minutes": 5, "increment_seconds": 1e9 }),
            "0 to 60",
        ),
        (json!({ "kind": "realtime" }), "needs minutes"),
        (json!({ "kind": "correspondence", "days": 0 }), "1 to 14"),
        (json!({ "kind": "correspondence", "days": 99999999999i64 }), "1 to 14"),
        (json!({ "kind": "sudden", "minutes": 5 }), "realtime"),
        (
            json!({ "kind": "realtime", "minutes": 5, "on_timeout": "ai" }),
            "ai_level",
        ),
        (
            json!({ "kind": "realtime", "minutes": 5, "on_timeout": "ai", "ai_level": 0 }),
            "1 to 9",
        ),
    ];
    for (clock, words) in cases {
        let r = post(addr, "/api/v1/games", None, &two_humans(clock.clone())).await;
        assert_eq!(r.status, 400, "{clock}: {}", r.text());
        let body = r.json();
        assert_eq!(body["error"], "bad_clock", "{clock}: {body}");
        assert!(s(&body["reason"]).contains(words), "{clock}: {body}");
    }
    // Not a number at all, or an unknown field: the body is refused before.
    let r = post(
        addr,
        "/api/v1/games",
        None,
        &two_humans(json!({ "kind": "realtime", "minutes": "ten" })),
    )
    .await;
    assert_eq!((r.status, r.json()["error"].clone()), (400, json!("bad_json")));
    // Hot-seat and AI-only games have no clock.
    let mut hot = two_humans(json!({ "kind": "realtime", "minutes": 5 }));
    hot["hot_seat"] = json!(true);
    let r = post(addr, "/api/v1/games", None, &hot).await;
    assert_eq!((r.status, r.json()["error"].clone()), (400, json!("bad_clock")));
    let ai_only = json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "ai", "level": 1 }, { "kind": "ai", "level": 1 }],
        "clock": { "kind": "correspondence", "days": 2 } });
    let r = post(addr, "/api/v1/games", None, &ai_only).await;
    assert_eq!((r.status, r.json()["error"].clone()), (400, json!("bad_clock")));
    assert_eq!(count_games(addr).await, 0, "a refused game was created");
    server.stop().await;
}

async fn a_clock_runs_only_for_the_seat_to_move(db: String) {
    let c = config(&db);
    let time = c.time.clone();
    let server = start(c).await;
    let addr = server.addr;
    let created = create(
        addr,
        two_humans(json!({ "kind": "realtime", "minutes": 5, "increment_seconds": 3 })),
    )
    .await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    let st = state(addr, &id).await;
    let c = &st["clock"];
    assert_eq!(c["kind"], "realtime");
    assert_eq!(c["initial_ms"], 300_000);
    assert_eq!(c["running_seat"], 0);
    assert_eq!(st["left"], json!([]));
    let mut ws = subscribe(addr, &id).await;
    next_of(&mut ws, "snapshot").await;
    time.advance(Duration::from_millis(400));
    let r = play(addr, &id, t[0].as_deref(), "L4@a1,a2,a3,b1", 1).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let e = next_of(&mut ws, "clock").await;
    let c = &e["clock"];
    assert_eq!(c["running_seat"], 1);
    let red = c["seats"][0]["remaining_ms"].as_i64().unwrap();
    let yellow = c["seats"][1]["remaining_ms"].as_i64().unwrap();
    // Red used the 400 ms that passed and got 3 s back; Yellow's time has not run.
    assert_eq!(red, 300_000 + 3_000 - 400);
    assert_eq!(yellow, 300_000);
    // Yellow's time runs now, Red's stands.
    time.advance(Duration::from_millis(300));
    let st = state(addr, &id).await;
    assert_eq!(st["clock"]["seats"][0]["remaining_ms"].as_i64().unwrap(), red);
    assert_eq!(st["clock"]["seats"][1]["remaining_ms"], 300_000 - 300);
    server.stop().await;
}

async fn a_timeout_under_out_forfeits_and_ends_a_two_player_game(db: String) {
    let c = config(&db);
    let time = c.time.clone();
    let server = start(c).await;
    let addr = server.addr;
    // Red has 6 s and moves at once (gaining 5 s a move); Yellow then lets its 6 s run out.
    let created = create(
        addr,
        two_humans(json!({ "kind": "realtime", "minutes": 0.1, "increment_seconds": 5, "on_timeout": "out" })),
    )
    .await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    let mut ws = subscribe(addr, &id).await;
    next_of(&mut ws, "snapshot").await;
    assert_eq!(play(addr, &id, t[0].as_deref(), "L4@a1,a2,a3,b1", 1).await.status, 201);
    // A millisecond short of Yellow's 6 s the clock has not run out (the timeout task only
    // fires a clock that is due on the server's time).
    time.advance(Duration::from_millis(5_999));
    let st = state(addr, &id).await;
    assert_eq!(
        (st["clock"]["seats"][1]["remaining_ms"].clone(), st["left"].clone()),
        (json!(1), json!([])),
        "{st}"
    );
    time.advance(Duration::from_millis(1));
    let e = next_of(&mut ws, "timeout").await;
    assert_eq!(
        (e["seat"].clone(), e["rule"].clone(), e["colours"].clone()),
        (json!(1), json!("out"), json!(["Y"]))
    );
    let st = state(addr, &id).await;
    assert_eq!(
        st["left"],
        json!([{ "colour": "Y", "after_move": 1, "reason": "time" }])
    );
    assert!(st["colours"][1]["out"].as_bool().unwrap());
    // Yellow forfeited (rules §5.1): with nobody left against Red, the game ended there,
    // and Red wins, whatever the scores.
    assert_eq!(st["over"], true, "{st}");
    assert_eq!(st["status"], "finished", "{st}");
    assert_eq!(st["to_move"], Value::Null);
    assert_eq!(
        (st["winners"].clone(), st["places"].clone(), st["forfeited"].clone()),
        (json!([0]), json!([1, 2]), json!([1])),
        "{st}"
    );
    let over = next_of(&mut ws, "game_over").await;
    assert_eq!(
        (
            over["winners"].clone(),
            over["places"].clone(),
            over["forfeited"].clone()
        ),
        (json!([0]), json!([1, 2]), json!([1])),
        "{over}"
    );
    // A late move by Yellow is refused: the game is over.
    let r = play(addr, &id, t[1].as_deref(), "L4@c1,c2,c3,d1", 2).await;
    assert_eq!(
        (r.status, r.json()["error"].clone()),
        (409, json!("game_over")),
        "{}",
        r.text()
    );
    // The record carries the timeout and replays to the same end; the analysis reads it.
    let rec = get(addr, &format!("/api/v1/games/{id}/record")).await.text();
    assert!(rec.contains("Y:out {time}"), "{rec}");
    let game = rumis_core::record::read_game(&rec).unwrap();
    assert!(game.is_over());
    assert_eq!(game.outcome().winners, vec![0]);
    let r = get(addr, &format!("/api/v1/games/{id}/analysis")).await;
    assert_eq!(r.status, 200, "{}", r.text());
    server.stop().await;
}

async fn a_timeout_gives_the_seat_to_the_ai(db: String) {
    let c = config(&db);
    let time = c.time.clone();
    let server = start(c).await;
    let addr = server.addr;
    let created = create(
        addr,
        two_humans(json!({ "kind": "realtime", "minutes": 0.1, "on_timeout": "ai", "ai_level": 1 })),
    )
    .await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    let mut ws = subscribe(addr, &id).await;
    next_of(&mut ws, "snapshot").await;
    assert_eq!(play(addr, &id, t[0].as_deref(), "L4@a1,a2,a3,b1", 1).await.status, 201);
    time.advance(Duration::from_secs(6));
    let e = next_of(&mut ws, "timeout").await;
    assert_eq!(
        (e["seat"].clone(), e["rule"].clone(), e["level"].clone()),
        (json!(1), json!("ai"), json!(1))
    );
    let changed = next_of(&mut ws, "seat_changed").await;
    assert_eq!(
        (changed["kind"].clone(), changed["reason"].clone()),
        (json!("ai"), json!("time"))
    );
    // The AI plays Yellow's move; nobody's colours are out.
    let m = next_of(&mut ws, "move").await;
    assert_eq!((m["number"].clone(), m["by"].clone()), (json!(2), json!("ai")));
    let st = state(addr, &id).await;
    assert_eq!(st["seats"][1]["kind"], "ai");
    assert_eq!(st["left"], json!([]));
    assert!(!st["colours"][1]["out"].as_bool().unwrap());
    // Yellow's old token no longer moves.
    let r = play(addr, &id, t[1].as_deref(), "L4@c1,c2,c3,d1", 3).await;
    assert!(r.status == 403 || r.status == 409, "{}", r.text());
    server.stop().await;
}

async fn resign_at_any_turn_and_again(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let seats = json!([{ "kind": "human" }, { "kind": "human" }, { "kind": "human" }]);
    let created = create(addr, json!({ "board": "chullpa", "players": 3, "seats": seats })).await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    let resign = |token: Option<String>| {
        let id = id.clone();
        async move {
            post(
                addr,
                &format!("/api/v1/games/{id}/resign"),
                token.as_deref(),
                &json!({}),
            )
            .await
        }
    };
    // Green resigns while Red is to move (not its turn): the turn stays with Red.
    let r = resign(t[2].clone()).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.json(),
        json!({ "seat": 2, "retired": ["G"], "to_move": "R", "over": false })
    );
    // Again: nothing changes.
    let r = resign(t[2].clone()).await;
    assert_eq!(r.json()["retired"], json!([]));
    // No token, a wrong one: refused, nothing changes.
    assert_eq!(resign(None).await.status, 401);
    assert_eq!(resign(Some("0".repeat(32))).await.status, 403);
    assert_eq!(state(addr, &id).await["left"].as_array().unwrap().len(), 1);
    // Red plays; Yellow resigns on its own turn: with Green gone too, Red is the only
    // player left, and the game ends at once with Red the winner (rules §5.1).
    assert_eq!(play(addr, &id, t[0].as_deref(), "L4@a1,a2,a3,b1", 1).await.status, 201);
    let mut ws = subscribe(addr, &id).await;
    next_of(&mut ws, "snapshot").await;
    let r = resign(t[1].clone()).await;
    assert_eq!(
        r.json(),
        json!({ "seat": 1, "retired": ["Y"], "to_move": null, "over": true })
    );
    let over = next_of(&mut ws, "game_over").await;
    assert_eq!(over["scores"].as_array().unwrap().len(), 3);
    assert_eq!(
        (over["winners"].clone(), over["places"].clone()),
        (json!([0]), json!([1, 2, 2]))
    );
    let st = state(addr, &id).await;
    assert_eq!(st["status"], "finished");
    assert_eq!(st["forfeited"], json!([1, 2]));
    // Each colour's score: what it shows from above, less its stones not placed.
    assert_eq!(st["colours"][0]["score"], 4 - 10);
    assert_eq!(st["colours"][1]["score"], -11);
    let rec = get(addr, &format!("/api/v1/games/{id}/record")).await.text();
    assert!(
        rec.contains("G:out {resigned}") && rec.contains("Y:out {resigned}"),
        "{rec}"
    );
    let back = rumis_core::record::read_game(&rec).unwrap();
    assert_eq!((back.retirements().len(), back.outcome().winners), (2, vec![0]));
    // Resigning a finished game: nothing to leave.
    assert_eq!(resign(t[0].clone()).await.json()["retired"], json!([]));
    server.stop().await;
}

async fn leave_gives_the_seat_to_the_ai(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let created = create(addr, two_humans(json!({ "kind": "correspondence", "days": 2 }))).await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    let leave = |token: Option<String>, body: Value| {
        let id = id.clone();
        async move { post(addr, &format!("/api/v1/games/{id}/leave"), token.as_deref(), &body).await }
    };
    let r = leave(t[0].clone(), json!({ "level": 12 })).await;
    assert_eq!((r.status, r.json()["error"].clone()), (400, json!("bad_seat")));
    assert_eq!(state(addr, &id).await["seats"][0]["kind"], "human");
    // Red leaves on its turn: the AI plays Red's move at once.
    let r = leave(t[0].clone(), json!({ "level": 1 })).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.json(),
        json!({ "seat": 0, "kind": "ai", "level": 1, "changed": true })
    );
    let st = state_when(addr, &id, "the AI plays Red", |st| st["moves_played"] == 1).await;
    assert_eq!(st["seats"][0]["kind"], "ai");
    // Yellow's time runs now (correspondence: two days for this move).
    assert_eq!(st["clock"]["running_seat"], 1);
    assert!(st["clock"]["seats"][1]["remaining_ms"].as_i64().unwrap() > 2 * 86_400_000 - 60_000);
    // Leaving again changes nothing.
    let r = leave(t[0].clone(), json!({})).await;
    assert_eq!(r.json()["changed"], false);
    server.stop().await;
}

/// Two instances on one PostgreSQL database, many games timing out at once: each timeout
/// fires once (one `timeout` event per game, seen through one instance, which hears both
/// through the database; one leaving in each record).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(rumis_postgres_tests), ignore = "needs RUMIS_TEST_POSTGRES_URL")]
async fn a_timeout_fires_once_with_two_instances_on_postgres() {
    let db = Db::postgres("clock_two").await;
    let url = db.url();
    // Both instances on one time, as on one machine's clock.
    let (ca, mut cb) = (config(&url), config(&url));
    let time = ca.time.clone();
    cb.time = time.clone();
    let a = start(ca).await;
    let b = start(cb).await;
    let mut games = Vec::new();
    for i in 0..12 {
        // Half created through each instance; all fall due at once.
        let via = if i % 2 == 0 { a.addr } else { b.addr };
        // Red (human) times out and is out; Yellow (AI, untimed) plays on: one timeout a game.
        let body = json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "human" }, { "kind": "ai", "level": 1 }],
            "clock": { "kind": "realtime", "minutes": 0.1 } });
        let created = create(via, body).await;
        games.push(s(&created["id"]));
    }
    let mut sockets = Vec::new();
    for id in &games {
        let mut ws = subscribe(a.addr, id).await;
        next_of(&mut ws, "snapshot").await;
        sockets.push(ws);
    }
    time.advance(Duration::from_secs(6));
    for (id, ws) in games.iter().zip(sockets.iter_mut()) {
        let e = next_of(ws, "timeout").await;
        assert_eq!(e["game"], json!(id));
        // Nothing else of this game may say "timeout" for a while after (a bound on a
        // second event that must not come: the thing tested, on the real clock).
        let again = tokio::time::timeout(Duration::from_millis(300), next_of(ws, "timeout")).await;
        assert!(again.is_err(), "a second timeout in game {id}");
    }
    for id in &games {
        let st = state(b.addr, id).await;
        assert_eq!(st["left"].as_array().unwrap().len(), 1, "{id}: {}", st["left"]);
        let rec = get(a.addr, &format!("/api/v1/games/{id}/record")).await.text();
        assert_eq!(rec.matches(":out").count(), 1, "{rec}");
    }
    a.stop().await;
    b.stop().await;
    db.remove().await;
}

async fn a_late_move_is_refused_and_changes_nothing(db: String) {
    // The timeout task looks once at the start and then not for an hour (of the server's
    // time): the move comes after the clock ran out but before the timeout is applied.
    let mut c = config(&db);
    c.clock_poll = Duration::from_secs(3600);
    let time = c.time.clone();
    let server = start(c).await;
    let addr = server.addr;
    let created = create(addr, two_humans(json!({ "kind": "realtime", "minutes": 0.1 }))).await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    time.advance(Duration::from_millis(6_300));
    let r = play(addr, &id, t[0].as_deref(), "L4@a1,a2,a3,b1", 1).await;
    assert_eq!(
        (r.status, r.json()["error"].clone()),
        (409, json!("time_ran_out")),
        "{}",
        r.text()
    );
    let st = state(addr, &id).await;
    assert_eq!(st["moves_played"], 0);
    assert_eq!(st["clock"]["seats"][0]["remaining_ms"], 0);
    assert_eq!(st["left"], json!([]));
    server.stop().await;
}

async fn undo_takes_back_a_resignation_after_the_move(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let created = create(addr, json!({ "board": "chullpa", "players": 3, "hot_seat": true })).await;
    let id = s(&created["id"]);
    let token = tokens(&created)[0].clone();
    // Yellow resigns before any move (it stays), Red plays, Green resigns (on its turn, the
    // seat to move is Green's: Yellow is out).
    let resign = |seat: usize| {
        let (id, token) = (id.clone(), token.clone());
        async move {
            post(
                addr,
                &format!("/api/v1/games/{id}/resign"),
                token.as_deref(),
                &json!({ "seat": seat }),
            )
            .await
        }
    };
    assert_eq!(resign(1).await.json()["retired"], json!(["Y"]));
    assert_eq!(play(addr, &id, token.as_deref(), "L4@a1,a2,a3,b1", 1).await.status, 201);
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/resign"),
        token.as_deref(),
        &json!({}),
    )
    .await;
    assert_eq!(r.json()["retired"], json!(["G"]), "{}", r.text());
    assert_eq!(state(addr, &id).await["left"].as_array().unwrap().len(), 2);
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/undo"),
        token.as_deref(),
        &json!({ "expected_move_number": 2 }),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    // The move and the resignation after it are taken back; the one before stays, in the
    // store as in the core (the state is a replay of what is stored).
    let st = state(addr, &id).await;
    assert_eq!(st["moves_played"], 0);
    assert_eq!(
        st["left"],
        json!([{ "colour": "Y", "after_move": 0, "reason": "resigned" }])
    );
    assert_eq!(st["to_move"], "R");
    // A seat the token does not hold, in a hot-seat game: refused.
    let r = resign(7).await;
    assert_eq!((r.status, r.json()["error"].clone()), (400, json!("bad_seat")));
    server.stop().await;
}
