//! The lobby's refusals: bad input of every kind is refused with its code and a reason, and
//! changes nothing (the lobby, the table, the players).

use crate::common;
use crate::lobby::{seek2, table};

on_both_databases!(bad_input_is_refused_and_changes_nothing);

use common::*;
use serde_json::{json, Value};

/// Bad input is refused with its code, and the lobby, the table and the players are
/// unchanged after each refusal.
async fn bad_input_is_refused_and_changes_nothing(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let (a_id, a) = new_player(addr, "Ana").await;
    let (_, b) = new_player(addr, "Ben").await;
    let (_, c) = new_player(addr, "Cid").await;
    new_player(addr, "Élan").await;
    let seek = seek2(addr, &a, true).await;
    let snapshot = || async {
        (
            get(addr, "/api/v1/lobby").await.json(),
            table(addr, &seek).await,
            get(addr, &format!("/api/v1/players/{a_id}")).await.json(),
        )
    };
    let before = snapshot().await;
    let cases = bad_inputs(&seek, &a, &b);
    for (method, path, key, body, status, code) in &cases {
        let body = (!body.is_null()).then_some(body);
        let r = request(addr, method, path, *key, body).await;
        assert_eq!(r.status, *status, "{method} {path}: {}", r.text());
        assert_eq!(r.json()["error"], *code, "{method} {path}: {}", r.text());
        assert!(
            r.json()["reason"].as_str().is_some_and(|t| t.len() > 10),
            "{}",
            r.text()
        );
        assert_eq!(snapshot().await, before, "{method} {path} changed something");
    }
    // A full game: the third player is refused and nothing changes.
    let r = post(addr, &format!("/api/v1/games/{seek}/join"), Some(&b), &json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let full = table(addr, &seek).await;
    let r = post(addr, &format!("/api/v1/games/{seek}/join"), Some(&c), &json!({})).await;
    assert_eq!(
        (r.status, r.json()["error"].clone()),
        (409, json!("game_full")),
        "{}",
        r.text()
    );
    assert_eq!(table(addr, &seek).await, full);
    // After two moves abort is refused, and nothing changes.
    let keys = [a.clone(), b.clone()];
    for n in 1..=2 {
        let st = state(addr, &seek).await;
        let seat = st["seat_to_move"].as_u64().unwrap() as usize;
        let m = s(&st["legal_moves"][0]);
        assert_eq!(play(addr, &seek, Some(&keys[seat]), &m, n).await.status, 201);
    }
    let before = table(addr, &seek).await;
    let r = post(addr, &format!("/api/v1/games/{seek}/abort"), Some(&a), &json!({})).await;
    assert_eq!(
        (r.status, r.json()["error"].clone()),
        (409, json!("not_abortable")),
        "{}",
        r.text()
    );
    assert_eq!(table(addr, &seek).await, before);
    assert_eq!(state(addr, &seek).await["status"], "open");
    server.stop().await;
}

/// A bad input: (method, path, key, body, the status and the error code it is refused with).
type Case<'a> = (&'a str, String, Option<&'a str>, Value, u16, &'a str);

/// The bad inputs of [`bad_input_is_refused_and_changes_nothing`], around `seek` (Ana's, `a`,
/// Ben's key `b` not seated yet).
// long: a table, one bad input a case (each laid out over eight lines by rustfmt).
fn bad_inputs<'a>(seek: &str, a: &'a str, b: &'a str) -> Vec<Case<'a>> {
    let unknown = "0123456789abcdef";
    vec![
        (
            "POST",
            "/api/v1/players".into(),
            None,
            json!({ "name": "  " }),
            400,
            "bad_name",
        ),
        (
            "POST",
            "/api/v1/players".into(),
            None,
            json!({ "name": "x".repeat(25) }),
            400,
            "bad_name",
        ),
        (
            "POST",
            "/api/v1/players".into(),
            None,
            json!({ "name": "a\u{7}b" }),
            400,
            "bad_name",
        ),
        (
            "POST",
            "/api/v1/players".into(),
            None,
            json!({ "name": "An\u{200B}a" }),
            400,
            "bad_name",
        ),
        (
            "POST",
            "/api/v1/players".into(),
            None,
            json!({ "name": "An\u{202E}a" }),
            400,
            "bad_name",
        ),
        (
            "POST",
            "/api/v1/players".into(),
            None,
            json!({ "name": "An\u{2066}a" }),
            400,
            "bad_name",
        ),
        (
            "POST",
            "/api/v1/players".into(),
            None,
            json!({ "name": "An\u{FEFF}a" }),
            400,
            "bad_name",
        ),
        // Names are unique whatever their case and spacing (issue #50: two players could
        // both be "Ana").
        (
            "POST",
            "/api/v1/players".into(),
            None,
            json!({ "name": "Ana" }),
            409,
            "name_taken",
        ),
        (
            "POST",
            "/api/v1/players".into(),
            None,
            json!({ "name": " aNA " }),
            409,
            "name_taken",
        ),
        (
            "POST",
            "/api/v1/players".into(),
            None,
            json!({ "name": "\u{C9}LAN" }),
            409,
            "name_taken",
        ),
        (
            "POST",
            "/api/v1/players".into(),
            None,
            json!({ "nom": "x" }),
            400,
            "bad_json",
        ),
        (
            "GET",
            format!("/api/v1/players/{unknown}"),
            None,
            Value::Null,
            404,
            "unknown_player",
        ),
        (
            "GET",
            "/api/v1/players/nope".into(),
            None,
            Value::Null,
            404,
            "unknown_player",
        ),
        (
            "GET",
            "/api/v1/players/me".into(),
            None,
            Value::Null,
            401,
            "missing_key",
        ),
        (
            "GET",
            "/api/v1/players/me".into(),
            Some("0123456789abcdef0123456789abcdef"),
            Value::Null,
            403,
            "wrong_key",
        ),
        (
            "POST",
            format!("/api/v1/games/{unknown}/join"),
            Some(b),
            json!({}),
            404,
            "unknown_seek",
        ),
        (
            "POST",
            "/api/v1/games/zz/join".into(),
            Some(b),
            json!({}),
            404,
            "unknown_seek",
        ),
        (
            "POST",
            format!("/api/v1/games/{seek}/join"),
            None,
            json!({}),
            401,
            "missing_key",
        ),
        (
            "POST",
            format!("/api/v1/games/{seek}/join"),
            Some("ffffffffffffffffffffffffffffffff"),
            json!({}),
            403,
            "wrong_key",
        ),
        (
            "POST",
            format!("/api/v1/games/{seek}/join"),
            Some(a),
            json!({}),
            409,
            "already_seated",
        ),
        (
            "POST",
            format!("/api/v1/games/{seek}/join"),
            Some(b),
            json!({ "seat": 0 }),
            409,
            "seat_taken",
        ),
        (
            "POST",
            format!("/api/v1/games/{seek}/join"),
            Some(b),
            json!({ "seat": 7 }),
            409,
            "seat_taken",
        ),
        (
            "POST",
            format!("/api/v1/games/{seek}/join"),
            Some(b),
            json!({ "seat": -1 }),
            400,
            "bad_json",
        ),
        (
            "POST",
            "/api/v1/lobby/seeks".into(),
            Some(b),
            json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "me" }] }),
            400,
            "bad_setup",
        ),
        (
            "POST",
            "/api/v1/lobby/seeks".into(),
            Some(b),
            json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "ai", "level": 3 }] }),
            400,
            "bad_setup",
        ),
        (
            "POST",
            "/api/v1/lobby/seeks".into(),
            Some(b),
            json!({ "board": "chullpa", "players": 3, "seats": [{ "kind": "me" }, { "kind": "open" }] }),
            400,
            "bad_setup",
        ),
        (
            "POST",
            "/api/v1/lobby/seeks".into(),
            Some(b),
            json!({ "board": "atlantis", "players": 2, "seats": [{ "kind": "me" }, { "kind": "open" }] }),
            400,
            "unknown_board",
        ),
        (
            "POST",
            "/api/v1/lobby/seeks".into(),
            Some(b),
            json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "open" }], "clock": { "kind": "realtime", "minutes": -5 } }),
            400,
            "bad_clock",
        ),
        (
            "POST",
            "/api/v1/lobby/seeks".into(),
            Some(b),
            json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "open" }], "clock": { "kind": "realtime", "minutes": 1e12 } }),
            400,
            "bad_clock",
        ),
        (
            "POST",
            "/api/v1/lobby/seeks".into(),
            Some(b),
            json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "open" }], "clock": { "kind": "realtime", "minutes": 5, "increment_seconds": -1 } }),
            400,
            "bad_clock",
        ),
        (
            "POST",
            "/api/v1/lobby/seeks".into(),
            Some(b),
            json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "open" }], "clock": { "kind": "realtime", "minutes": 5, "increment_seconds": 1e9 } }),
            400,
            "bad_clock",
        ),
        (
            "POST",
            "/api/v1/lobby/seeks".into(),
            Some(b),
            json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "open" }], "clock": { "kind": "correspondence", "days": -3 } }),
            400,
            "bad_clock",
        ),
        (
            "POST",
            "/api/v1/lobby/seeks".into(),
            Some(b),
            json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "open" }], "clock": { "kind": "correspondence", "days": 99999999999i64 } }),
            400,
            "bad_clock",
        ),
        (
            "POST",
            "/api/v1/lobby/seeks".into(),
            Some(b),
            json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "open" }], "clock": { "kind": "realtime", "minutes": 5, "on_timeout": "ai", "ai_level": 99 } }),
            400,
            "bad_clock",
        ),
        (
            "POST",
            "/api/v1/lobby/seeks".into(),
            Some(b),
            json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "open" }], "clock": { "kind": "realtime", "minutes": -1e308 } }),
            400,
            "bad_clock",
        ),
        (
            "POST",
            "/api/v1/players/me/presence".into(),
            None,
            Value::Null,
            401,
            "missing_key",
        ),
        (
            "POST",
            "/api/v1/players/me/presence".into(),
            Some("0123456789abcdef0123456789abcdef"),
            Value::Null,
            403,
            "wrong_key",
        ),
        (
            "POST",
            "/api/v1/lobby/seeks".into(),
            None,
            json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "open" }] }),
            401,
            "missing_key",
        ),
        (
            "POST",
            "/api/v1/lobby/quick".into(),
            Some(b),
            json!({ "wait_seconds": 999999 }),
            400,
            "bad_setup",
        ),
        (
            "POST",
            "/api/v1/lobby/quick".into(),
            Some(b),
            json!({ "players": 5 }),
            400,
            "bad_setup",
        ),
        (
            "POST",
            "/api/v1/lobby/quick".into(),
            Some(b),
            json!({ "ai_level": 0 }),
            400,
            "bad_setup",
        ),
        (
            "POST",
            "/api/v1/lobby/quick".into(),
            Some(b),
            json!({ "board": "atlantis" }),
            400,
            "bad_setup",
        ),
        (
            "POST",
            format!("/api/v1/games/{seek}/abort"),
            Some(b),
            Value::Null,
            403,
            "wrong_token",
        ),
        (
            "POST",
            format!("/api/v1/games/{seek}/abort"),
            None,
            Value::Null,
            401,
            "missing_token",
        ),
        (
            "POST",
            format!("/api/v1/games/{seek}/rematch"),
            Some(a),
            Value::Null,
            409,
            "no_rematch",
        ),
        (
            "POST",
            format!("/api/v1/games/{seek}/moves"),
            Some(a),
            json!({ "placement": "D2@a1x2", "expected_move_number": 1 }),
            409,
            "waiting_for_players",
        ),
        (
            "GET",
            "/api/v1/ratings?limit=x".into(),
            None,
            Value::Null,
            400,
            "bad_query",
        ),
    ]
}
