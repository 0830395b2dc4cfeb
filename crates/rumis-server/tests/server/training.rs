//! The game's puzzles (issue #53; service/training.rs): the daily puzzle, the next one, and
//! attempts judged and rated (Glicko-2: a player's first attempt at a puzzle moves their
//! puzzle rating and the puzzle's, later ones do not), refused clearly when bad.

use std::net::SocketAddr;
use std::time::Duration;

use crate::common;
use common::*;
use rumis_ai::puzzles::pick::{self, Candidate};
use rumis_ai::puzzles::{Puzzle, PuzzleSet};
use serde_json::{json, Value};

on_both_databases!(
    a_first_attempt_is_rated_and_a_second_is_not,
    the_daily_puzzle_is_the_days,
    bad_attempts_are_refused_and_change_nothing,
    an_attempt_without_a_key_is_judged_only
);

/// The shipped puzzles (the repository's `puzzles/`), as the server has them built in.
fn shipped() -> Vec<(PuzzleSet, Puzzle)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../puzzles");
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let set = PuzzleSet::from_json(&std::fs::read_to_string(e.unwrap().path()).unwrap()).unwrap();
        for p in &set.puzzles {
            out.push((set.clone(), p.clone()));
        }
    }
    out
}

fn find(id: &str) -> (PuzzleSet, Puzzle) {
    shipped()
        .into_iter()
        .find(|(_, p)| p.id == id)
        .expect("a shipped puzzle")
}

/// A legal placement of the puzzle's position other than its best.
fn wrong(id: &str) -> String {
    let (set, p) = find(id);
    let site = set.site().unwrap();
    let (game, best) = p.position(&site).unwrap();
    let m = game.legal_moves().into_iter().find(|&m| m != best).unwrap();
    game.notation(m)
}

async fn read(addr: SocketAddr, path: &str, key: Option<&str>) -> Value {
    let r = request(addr, "GET", path, key, None).await;
    assert_eq!(r.status, 200, "{path}: {}", r.text());
    r.json()
}

async fn attempt(addr: SocketAddr, id: &str, key: Option<&str>, placement: &str) -> client::Response {
    post(
        addr,
        &format!("/api/v1/training/{id}/attempt"),
        key,
        &json!({ "placement": placement }),
    )
    .await
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

async fn a_first_attempt_is_rated_and_a_second_is_not(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let (_, key) = new_player(addr, "solver").await;
    let daily = read(addr, "/api/v1/training/daily", Some(&key)).await;
    let id = s(&daily["id"]);
    assert_eq!(daily["you"]["rating"], json!(1500.0), "{}", daily["you"]);
    assert_eq!(daily["tried"], json!(false));
    let (set, p) = find(&id);
    assert_eq!(daily["to_move"], json!(p.to_move));
    assert_eq!(daily["state"]["moves_played"], json!(p.moves.len()));
    assert_eq!(daily["state"]["site"]["board"], json!(set.board));
    assert!(daily["placements"]["placements"]
        .as_array()
        .unwrap()
        .iter()
        .any(|pl| pl["placement"] == json!(p.best)));

    // Solved: both ratings move, the player's up and the puzzle's down.
    let r = attempt(addr, &id, Some(&key), &p.best).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(
        (v["solved"].clone(), v["rated"].clone()),
        (json!(true), json!(true)),
        "{v}"
    );
    assert_eq!(v["themes"], json!(p.themes.iter().map(|t| t.key()).collect::<Vec<_>>()));
    let (before, after) = (f(&v["change"]["before"]), f(&v["change"]["after"]));
    assert_eq!(before, 1500.0);
    // Glicko-2 against the puzzle's 1500/350/0.06 (rumis_ai's pinned figure).
    assert_eq!(after.round(), 1662.0, "{v}");
    assert!(
        f(&v["puzzle_rating"]["after"]) < f(&v["puzzle_rating"]["before"]),
        "{v}"
    );
    assert_eq!(v["you"]["attempts"], json!(1));

    // Again, wrong this time: judged, not rated.
    let other = wrong(&id);
    let v = attempt(addr, &id, Some(&key), &other).await.json();
    assert_eq!(
        (v["solved"].clone(), v["rated"].clone()),
        (json!(false), json!(false)),
        "{v}"
    );
    assert_eq!(f(&v["change"]["after"]), after, "{v}");
    assert_eq!(f(&v["puzzle_rating"]["before"]), f(&v["puzzle_rating"]["after"]));
    let again = read(addr, &format!("/api/v1/training/{id}"), Some(&key)).await;
    assert_eq!(again["tried"], json!(true));
    assert_eq!(f(&again["you"]["rating"]), after);

    // The next puzzle is another, untried; failed, with why.
    let next = read(addr, "/api/v1/training/next", Some(&key)).await;
    let id2 = s(&next["id"]);
    assert_ne!(id2, id);
    assert_eq!(next["tried"], json!(false));
    let puzzle_before = f(&next["rating"]);
    let other = wrong(&id2);
    let v = attempt(addr, &id2, Some(&key), &other).await.json();
    assert_eq!(
        (v["solved"].clone(), v["rated"].clone()),
        (json!(false), json!(true)),
        "{v}"
    );
    let (_, p2) = find(&id2);
    assert_eq!(v["best"]["placement"]["placement"], json!(p2.best));
    assert_eq!(v["played"]["placement"]["placement"], json!(other));
    assert!(f(&v["played"]["value"]) < f(&v["best"]["value"]), "{v}");
    let reason = s(&v["reason"]);
    assert!(
        reason.starts_with(&format!("{other} is worse than {}", p2.best)),
        "{reason}"
    );
    if v["kind"] == "exact" {
        assert!(v["played"]["place"].is_u64() && v["best"]["margin"].is_i64(), "{v}");
    }
    assert!(f(&v["change"]["after"]) < f(&v["change"]["before"]), "{v}");
    assert_eq!(f(&v["change"]["before"]), after);
    assert!(
        f(&v["puzzle_rating"]["after"]) > f(&v["puzzle_rating"]["before"]),
        "{v}"
    );
    assert_eq!(f(&v["puzzle_rating"]["before"]).round() as i64, puzzle_before as i64);
    assert_eq!(v["you"]["attempts"], json!(2));
    // The puzzle's new rating is what it is given at.
    let shown = read(addr, &format!("/api/v1/training/{id2}"), None).await;
    assert_eq!(shown["rating"], json!(f(&v["puzzle_rating"]["after"]).round() as i64));
    server.stop().await;
}

async fn the_daily_puzzle_is_the_days(db: String) {
    let c = config(&db);
    let time = c.time.clone();
    let server = start(c).await;
    let addr = server.addr;
    let candidates: Vec<Candidate> = shipped()
        .into_iter()
        .map(|(set, p)| Candidate {
            id: p.id,
            board: set.board,
            players: set.players,
            rating: p.rating,
            themes: p.themes,
        })
        .collect();
    let first = read(addr, "/api/v1/training/daily", None).await;
    let day = pick::day_of(time.now_ms());
    assert_eq!(first["daily"], json!(pick::date_of(day)));
    assert_eq!(first["id"], json!(pick::daily(day, &candidates).unwrap().id));
    assert!(first["you"].is_null());
    // Later the same day: the same puzzle.
    let to_midnight = pick::DAY_MS - time.now_ms().rem_euclid(pick::DAY_MS);
    time.advance(Duration::from_millis(to_midnight as u64 - 1));
    let same = read(addr, "/api/v1/training/daily", None).await;
    assert_eq!(
        (same["id"].clone(), same["daily"].clone()),
        (first["id"].clone(), first["daily"].clone())
    );
    // Past midnight (UTC): the next day's.
    time.advance(Duration::from_millis(1));
    let next = read(addr, "/api/v1/training/daily", None).await;
    assert_eq!(next["daily"], json!(pick::date_of(day + 1)));
    let expected = pick::daily(day + 1, &candidates).unwrap();
    assert_eq!(next["id"], json!(expected.id));
    assert_ne!(
        pick::daily(day, &candidates).unwrap().id,
        expected.id,
        "two days, two puzzles"
    );
    server.stop().await;
}

async fn bad_attempts_are_refused_and_change_nothing(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let (_, key) = new_player(addr, "careless").await;
    let id = s(&read(addr, "/api/v1/training/daily", None).await["id"]);
    let (_, p) = find(&id);
    let puzzle_rating = read(addr, &format!("/api/v1/training/{id}"), None).await["rating"].clone();
    for (path, body, status, code) in [
        (
            "/api/v1/training/nosuch-2-000000000000/attempt".to_string(),
            json!({ "placement": "I2@a1x2" }),
            404,
            "unknown_puzzle",
        ),
        (
            format!("/api/v1/training/{id}/attempt"),
            json!({ "placement": "what?" }),
            400,
            "malformed_move",
        ),
        (
            format!("/api/v1/training/{id}/attempt"),
            json!({ "placement": "L4@a1,a2,a3,b1" }),
            422,
            "illegal_move",
        ),
        (
            format!("/api/v1/training/{id}/attempt"),
            json!({ "move": p.best }),
            400,
            "bad_json",
        ),
        (
            format!("/api/v1/training/{id}/attempt"),
            json!({ "placement": 5 }),
            400,
            "bad_json",
        ),
    ] {
        let r = post(addr, &path, Some(&key), &body).await;
        assert_eq!(
            (r.status, r.json()["error"].clone()),
            (status, json!(code)),
            "{path} {body}: {}",
            r.text()
        );
    }
    // The illegal placement's reason says why (the core's words).
    let r = attempt(addr, &id, Some(&key), "L4@a1,a2,a3,b1").await;
    assert!(
        r.json()["reason"].as_str().unwrap().starts_with("L4@a1,a2,a3,b1: "),
        "{}",
        r.text()
    );
    let r = attempt(addr, &id, Some("0123456789abcdef0123456789abcdef"), &p.best).await;
    assert_eq!(
        (r.status, r.json()["error"].clone()),
        (403, json!("wrong_key")),
        "{}",
        r.text()
    );
    for (query, code) in [
        ("theme=nonsense", "bad_query"),
        ("players=7", "bad_query"),
        ("scenario=atlantis", "bad_query"),
        ("colour=red", "bad_query"),
    ] {
        let r = request(addr, "GET", &format!("/api/v1/training/next?{query}"), Some(&key), None).await;
        assert_eq!(
            (r.status, r.json()["error"].clone()),
            (400, json!(code)),
            "{query}: {}",
            r.text()
        );
    }
    let r = get(addr, "/api/v1/training/nosuch").await;
    assert_eq!(
        (r.status, r.json()["error"].clone()),
        (404, json!("unknown_puzzle")),
        "{}",
        r.text()
    );
    // Nothing moved.
    let after = read(addr, &format!("/api/v1/training/{id}"), Some(&key)).await;
    assert_eq!(after["tried"], json!(false));
    assert_eq!(after["you"]["attempts"], json!(0));
    assert_eq!(after["you"]["rating"], json!(1500.0));
    assert_eq!(after["rating"], puzzle_rating);
    // A filter is kept: the next puzzle of a scenario, player count and theme is one.
    let v = read(
        addr,
        "/api/v1/training/next?scenario=tambo&players=3&theme=last-stone",
        Some(&key),
    )
    .await;
    let (set, p) = find(&s(&v["id"]));
    assert_eq!((set.board.as_str(), set.players), ("Tambo", 3));
    assert!(p.themes.iter().any(|t| t.key() == "last-stone"), "{:?}", p.themes);
    server.stop().await;
}

async fn an_attempt_without_a_key_is_judged_only(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let v = read(addr, "/api/v1/training/next?players=2", None).await;
    let id = s(&v["id"]);
    let (_, p) = find(&id);
    let r = attempt(addr, &id, None, &p.best).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(
        (v["solved"].clone(), v["rated"].clone()),
        (json!(true), json!(false)),
        "{v}"
    );
    assert!(v["you"].is_null() && v["change"].is_null(), "{v}");
    assert_eq!(v["puzzle_rating"]["before"], v["puzzle_rating"]["after"]);
    server.stop().await;
}
