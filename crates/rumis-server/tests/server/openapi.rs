//! Every field the server sends is in `docs/server-openapi.yaml`: real answers of a running
//! server (each endpoint, success and error), the WebSocket events of a game played to the
//! end, and a sample of every typed event (`rumis_server::wire`) are checked against the
//! document's schemas. A field added in Rust and not in the document fails here.

use crate::common;

use common::*;
use rumis_server::wire::{GameEvent, Score};
use serde_json::{json, Value};

fn document() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/server-openapi.yaml"))
        .expect("docs/server-openapi.yaml");
    serde_norway::from_str(&text).expect("the OpenAPI document is YAML")
}

/// Follows `$ref`s within the document.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let path = r.strip_prefix("#/").unwrap_or_else(|| panic!("a local $ref: {r}"));
            let target = path.split('/').fold(doc, |v, key| {
                v.get(key).unwrap_or_else(|| panic!("no {r} in the document"))
            });
            resolve(doc, target)
        }
        None => schema,
    }
}

/// The fields of `value` (at `at`) that `schema` does not describe.
fn undocumented(doc: &Value, value: &Value, schema: &Value, at: &str, out: &mut Vec<String>) {
    let schema = resolve(doc, schema);
    if let Some(branches) = schema.get("oneOf").and_then(Value::as_array) {
        // The branch that describes the value best (one describing it whole, if any).
        let best = branches
            .iter()
            .map(|b| {
                let mut o = Vec::new();
                undocumented(doc, value, b, at, &mut o);
                o
            })
            .min_by_key(Vec::len)
            .unwrap_or_default();
        out.extend(best);
        return;
    }
    match value {
        Value::Object(map) => {
            // allOf: the union of the parts' properties.
            let parts: Vec<&Value> = match schema.get("allOf").and_then(Value::as_array) {
                Some(all) => all.iter().map(|p| resolve(doc, p)).collect(),
                None => vec![schema],
            };
            for (key, v) in map {
                let here = format!("{at}.{key}");
                let property = parts
                    .iter()
                    .find_map(|p| p.get("properties").and_then(|ps| ps.get(key)))
                    .or_else(|| {
                        parts
                            .iter()
                            .find_map(|p| p.get("additionalProperties").filter(|a| a.is_object()))
                    });
                match property {
                    Some(p) => undocumented(doc, v, p, &here, out),
                    None => out.push(here),
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items") {
                for (i, v) in items.iter().enumerate() {
                    undocumented(doc, v, item, &format!("{at}[{i}]"), out);
                }
            }
        }
        _ => {}
    }
}

/// The schema of an answer: the path's method's status's JSON content.
fn answer_schema<'a>(doc: &'a Value, method: &str, path: &str, status: u16) -> &'a Value {
    let response = doc["paths"][path][method]["responses"]
        .get(status.to_string())
        .unwrap_or_else(|| panic!("{method} {path}: status {status} is not in the document"));
    let response = resolve(doc, response);
    response
        .pointer("/content/application~1json/schema")
        .unwrap_or_else(|| panic!("{method} {path} {status}: no JSON schema"))
}

struct Checker {
    doc: Value,
    missing: Vec<String>,
}

impl Checker {
    fn answer(&mut self, method: &str, path: &str, r: &client::Response) {
        let schema = answer_schema(&self.doc, method, path, r.status).clone();
        let at = format!("{} {path} {}", method.to_uppercase(), r.status);
        undocumented(&self.doc, &r.json(), &schema, &at, &mut self.missing);
    }

    fn event(&mut self, e: &Value) {
        let schema = json!({ "$ref": "#/components/schemas/Event" });
        let at = format!("event {}", e["type"]);
        undocumented(&self.doc, e, &schema, &at, &mut self.missing);
    }
}

/// The checker itself finds a field the document lacks.
#[test]
fn the_check_finds_an_undocumented_field() {
    let doc = document();
    let mut out = Vec::new();
    let schema = json!({ "$ref": "#/components/schemas/MoveAccepted" });
    undocumented(
        &doc,
        &json!({ "number": 1, "colour": "R", "new_field": 3 }),
        &schema,
        "x",
        &mut out,
    );
    assert_eq!(out, vec!["x.new_field".to_string()]);
}

/// Every typed event, as it serializes, is in the document.
#[test]
fn every_typed_event_is_documented() {
    let doc = document();
    let g = || "0123456789abcdef".to_string();
    let samples = [
        GameEvent::Move {
            game: g(),
            number: 1,
            colour: "R".into(),
            placement: "L4@a1,a2,a3,b1".into(),
            by: "human".into(),
            move_number: 2,
            to_move: Some("Y".into()),
            passed: vec!["G".into()],
        },
        GameEvent::Out {
            game: g(),
            colour: "Y".into(),
            after_move: 5,
        },
        GameEvent::GameOver {
            game: g(),
            after_move: 9,
            scores: vec![Score {
                colour: "R".into(),
                score: 3,
            }],
            winners: vec![0],
            places: vec![1, 2],
            forfeited: vec![1],
        },
        GameEvent::Undo {
            game: g(),
            removed: vec![3, 4],
            move_number: 3,
            to_move: Some("R".into()),
        },
        GameEvent::AiThinking {
            game: g(),
            colour: "G".into(),
            move_number: 6,
            level: 3,
        },
        GameEvent::Deleted { game: g() },
        GameEvent::Abandoned { game: g() },
    ];
    let mut out = Vec::new();
    for e in samples {
        let v = serde_json::to_value(&e).unwrap();
        let kind = v["type"].as_str().unwrap().to_string();
        // The event's own schema, by the discriminator's mapping.
        let schema = json!({ "$ref": doc["components"]["schemas"]["Event"]["discriminator"]["mapping"][&kind]
            .as_str()
            .unwrap_or_else(|| panic!("event type {kind} is not in the document's mapping")) });
        undocumented(&doc, &v, &schema, &format!("event {kind}"), &mut out);
    }
    assert!(out.is_empty(), "fields not in docs/server-openapi.yaml: {out:#?}");
}

/// Real answers of every endpoint, and the events of a game played to its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_and_event_is_documented() {
    let dir = TempDir::new("openapi");
    let server = start(config(&dir.db_url())).await;
    let addr = server.addr;
    let mut c = Checker {
        doc: document(),
        missing: Vec::new(),
    };
    c.answer("get", "/api/v1/boards", &get(addr, "/api/v1/boards").await);
    c.answer("get", "/api/v1/stones", &get(addr, "/api/v1/stones").await);
    c.answer("get", "/healthz", &get(addr, "/healthz").await);
    c.answer("get", "/readyz", &get(addr, "/readyz").await);

    // An AI-only game played to its end, watched.
    let ai = create(
        addr,
        json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "ai", "level": 1 }, { "kind": "ai", "level": 2 }] }),
    )
    .await;
    let ai_id = ai["id"].as_str().unwrap().to_string();
    let mut ws = subscribe(addr, &ai_id).await;
    loop {
        let e = next_event(&mut ws).await;
        c.event(&e);
        let over = e["type"] == "game_over" || (e["type"] == "snapshot" && e["state"]["over"] == true);
        if over {
            break;
        }
    }

    let created = post(
        addr,
        "/api/v1/games",
        None,
        &json!({ "board": "chullpa", "players": 2, "hot_seat": true }),
    )
    .await;
    c.answer("post", "/api/v1/games", &created);
    let created = created.json();
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["seats"][0]["token"].as_str().unwrap().to_string();
    let game = format!("/api/v1/games/{id}");
    let mut ws = subscribe(addr, &id).await;
    c.event(&next_of(&mut ws, "snapshot").await);
    let first = play(addr, &id, Some(&token), "L4@a1,a2,a3,b1", 1).await;
    c.answer("post", "/api/v1/games/{id}/moves", &first);
    c.answer(
        "post",
        "/api/v1/games/{id}/moves",
        &play(addr, &id, Some(&token), "L4@a1,a2,a3,b1", 1).await,
    );
    c.answer(
        "post",
        "/api/v1/games/{id}/moves",
        &play(addr, &id, Some(&token), "I1@e4", 1).await,
    );
    c.answer(
        "post",
        "/api/v1/games/{id}/moves",
        &play(addr, &id, Some(&token), "nonsense", 2).await,
    );
    c.event(&next_of(&mut ws, "move").await);
    c.answer("get", "/api/v1/games", &get(addr, "/api/v1/games?status=open").await);
    c.answer(
        "get",
        "/api/v1/games",
        &get(addr, "/api/v1/games?status=finished").await,
    );
    c.answer("get", "/api/v1/games/{id}", &get(addr, &game).await);
    c.answer("get", "/api/v1/games/{id}", &get(addr, &format!("{game}?at=0")).await);
    c.answer(
        "get",
        "/api/v1/games/{id}",
        &get(addr, "/api/v1/games/00000000000000ff").await,
    );
    c.answer(
        "get",
        "/api/v1/games/{id}/placements",
        &get(addr, &format!("{game}/placements")).await,
    );
    c.answer(
        "post",
        "/api/v1/games/{id}/hint",
        &post(addr, &format!("{game}/hint"), None, &json!({ "level": 4 })).await,
    );
    c.answer(
        "get",
        "/api/v1/games/{id}/analysis",
        &get(addr, &format!("/api/v1/games/{ai_id}/analysis")).await,
    );
    let undo = post(
        addr,
        &format!("{game}/undo"),
        Some(&token),
        &json!({ "expected_move_number": 2 }),
    )
    .await;
    c.answer("post", "/api/v1/games/{id}/undo", &undo);
    c.event(&next_of(&mut ws, "undo").await);
    let deleted = client::request(addr, "DELETE", &game, Some(&token), None)
        .await
        .unwrap();
    c.answer("delete", "/api/v1/games/{id}", &deleted);
    c.event(&next_of(&mut ws, "deleted").await);
    c.answer(
        "post",
        "/api/v1/puzzles/cube",
        &post(
            addr,
            "/api/v1/puzzles/cube",
            None,
            &json!({ "size": "3x3x3", "moves": [] }),
        )
        .await,
    );
    c.answer(
        "get",
        "/api/v1/puzzles/{name}",
        &get(addr, "/api/v1/puzzles/cube3").await,
    );
    server.stop().await;
    assert!(
        c.missing.is_empty(),
        "fields not in docs/server-openapi.yaml: {:#?}",
        c.missing
    );
}

/// Clocks, resign and leave: a timed game's answers and events, and a sample of each typed
/// event of theirs, are in the document.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clock_answers_and_events_are_documented() {
    use rumis_server::wire::{ClockInfo, SeatClock};
    let dir = TempDir::new("openapi-clock");
    let server = start(config(&dir.db_url())).await;
    let addr = server.addr;
    let mut c = Checker {
        doc: document(),
        missing: Vec::new(),
    };
    let body = json!({ "board": "chullpa", "players": 3, "seats": [{ "kind": "human" }, { "kind": "human" }, { "kind": "human" }],
        "clock": { "kind": "realtime", "minutes": 5, "increment_seconds": 2, "on_timeout": "ai", "ai_level": 1 } });
    let created = post(addr, "/api/v1/games", None, &body).await;
    c.answer("post", "/api/v1/games", &created);
    let created = created.json();
    let id = created["id"].as_str().unwrap().to_string();
    let t = tokens(&created);
    let game = format!("/api/v1/games/{id}");
    let mut ws = subscribe(addr, &id).await;
    c.event(&next_of(&mut ws, "snapshot").await);
    c.answer(
        "post",
        "/api/v1/games",
        &post(
            addr,
            "/api/v1/games",
            None,
            &json!({ "board": "chullpa", "players": 2,
        "clock": { "kind": "realtime", "minutes": -3 } }),
        )
        .await,
    );
    play(addr, &id, t[0].as_deref(), "L4@a1,a2,a3,b1", 1).await;
    c.event(&next_of(&mut ws, "clock").await);
    c.answer(
        "post",
        "/api/v1/games/{id}/resign",
        &post(addr, &format!("{game}/resign"), t[2].as_deref(), &json!({})).await,
    );
    c.event(&next_of(&mut ws, "resigned").await);
    c.answer(
        "post",
        "/api/v1/games/{id}/resign",
        &post(addr, &format!("{game}/resign"), None, &json!({})).await,
    );
    c.answer(
        "post",
        "/api/v1/games/{id}/leave",
        &post(addr, &format!("{game}/leave"), t[1].as_deref(), &json!({ "level": 1 })).await,
    );
    c.event(&next_of(&mut ws, "seat_changed").await);
    c.answer(
        "post",
        "/api/v1/games/{id}/leave",
        &post(addr, &format!("{game}/leave"), t[1].as_deref(), &json!({ "level": 10 })).await,
    );
    c.answer("get", "/api/v1/games/{id}", &get(addr, &game).await);
    server.stop().await;
    let g = || "0123456789abcdef".to_string();
    let clock = ClockInfo {
        kind: "realtime".into(),
        initial_ms: 60_000,
        increment_ms: 0,
        per_move_ms: 0,
        on_timeout: "out".into(),
        ai_level: None,
        now: 1,
        running_seat: Some(0),
        seats: vec![SeatClock {
            seat: 0,
            remaining_ms: 5,
        }],
    };
    for e in [
        GameEvent::Clock { game: g(), clock },
        GameEvent::Timeout {
            game: g(),
            seat: 1,
            colours: vec!["Y".into()],
            rule: "ai".into(),
            level: Some(3),
            after_move: 4,
        },
    ] {
        c.event(&serde_json::to_value(&e).unwrap());
    }
    assert!(
        c.missing.is_empty(),
        "fields not in docs/server-openapi.yaml: {:#?}",
        c.missing
    );
}

/// Players, the lobby, abort, rematch and ratings: real answers (success and refusal) and
/// every event they send, against the document.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_answers_and_events_are_documented() {
    let doc = document();
    let g = || "0123456789abcdef".to_string();
    let mut out = Vec::new();
    for e in [
        GameEvent::Seated {
            game: g(),
            seat: 1,
            player: Some(g()),
            name: Some("Ana".into()),
            started: true,
        },
        GameEvent::Filled {
            game: g(),
            seats: vec![1, 2],
            level: 3,
        },
        GameEvent::Aborted { game: g() },
        GameEvent::RematchOffered {
            game: g(),
            rematch: g(),
            by: g(),
        },
        GameEvent::RematchDeclined {
            game: g(),
            rematch: g(),
            by: g(),
        },
        GameEvent::Expired {
            game: g(),
            idle_ms: 300_000,
        },
        GameEvent::Rated { game: g() },
    ] {
        let v = serde_json::to_value(&e).unwrap();
        let kind = v["type"].as_str().unwrap().to_string();
        let schema = json!({ "$ref": doc["components"]["schemas"]["Event"]["discriminator"]["mapping"][&kind]
            .as_str()
            .unwrap_or_else(|| panic!("event type {kind} is not in the document's mapping")) });
        undocumented(&doc, &v, &schema, &format!("event {kind}"), &mut out);
    }
    assert!(out.is_empty(), "fields not in docs/server-openapi.yaml: {out:#?}");

    let dir = TempDir::new("openapi-lobby");
    let server = start(config(&dir.db_url())).await;
    let addr = server.addr;
    let mut c = Checker {
        doc,
        missing: Vec::new(),
    };
    let pa = post(addr, "/api/v1/players", None, &json!({ "name": "Ana" })).await;
    c.answer("post", "/api/v1/players", &pa);
    c.answer(
        "post",
        "/api/v1/players",
        &post(addr, "/api/v1/players", None, &json!({ "name": "" })).await,
    );
    let pb = post(addr, "/api/v1/players", None, &json!({ "name": "Ben" }))
        .await
        .json();
    let (a, b) = (
        pa.json()["key"].as_str().unwrap().to_string(),
        pb["key"].as_str().unwrap().to_string(),
    );
    let a_id = pa.json()["id"].as_str().unwrap().to_string();
    let seek = post(
        addr,
        "/api/v1/lobby/seeks",
        Some(&a),
        &json!({ "board": "chullpa", "players": 2, "rated": true, "seats": [{ "kind": "me" }, { "kind": "open" }] }),
    )
    .await;
    c.answer("post", "/api/v1/lobby/seeks", &seek);
    c.answer(
        "post",
        "/api/v1/lobby/seeks",
        &post(
            addr,
            "/api/v1/lobby/seeks",
            None,
            &json!({ "board": "chullpa", "players": 2, "seats": [] }),
        )
        .await,
    );
    let id = seek.json()["game"].as_str().unwrap().to_string();
    let mut ws = subscribe(addr, &id).await;
    c.event(&next_of(&mut ws, "snapshot").await);
    c.answer("get", "/api/v1/lobby", &get(addr, "/api/v1/lobby").await);
    c.answer(
        "get",
        "/api/v1/games/{id}/table",
        &get(addr, &format!("/api/v1/games/{id}/table")).await,
    );
    c.answer(
        "post",
        "/api/v1/games/{id}/moves",
        &play(addr, &id, Some(&a), "D2@a1x2", 1).await,
    );
    let join = post(addr, &format!("/api/v1/games/{id}/join"), Some(&b), &json!({})).await;
    c.answer("post", "/api/v1/games/{id}/join", &join);
    c.event(&next_of(&mut ws, "seated").await);
    c.answer(
        "post",
        "/api/v1/games/{id}/join",
        &post(addr, &format!("/api/v1/games/{id}/join"), Some(&b), &json!({})).await,
    );
    c.answer(
        "post",
        "/api/v1/games/{id}/abort",
        &post(addr, &format!("/api/v1/games/{id}/abort"), Some(&b), &json!({})).await,
    );
    c.event(&next_of(&mut ws, "aborted").await);
    c.answer(
        "post",
        "/api/v1/games/{id}/abort",
        &post(addr, &format!("/api/v1/games/{id}/abort"), Some(&b), &json!({})).await,
    );
    c.answer(
        "post",
        "/api/v1/games/{id}/rematch",
        &post(addr, &format!("/api/v1/games/{id}/rematch"), Some(&a), &json!({})).await,
    );
    c.event(&next_of(&mut ws, "rematch_offered").await);
    let decline = format!("/api/v1/games/{id}/rematch/decline");
    c.answer(
        "post",
        "/api/v1/games/{id}/rematch/decline",
        &post(addr, &decline, Some(&b), &json!({})).await,
    );
    c.event(&next_of(&mut ws, "rematch_declined").await);
    c.answer(
        "post",
        "/api/v1/games/{id}/rematch/decline",
        &post(addr, &decline, Some(&b), &json!({})).await,
    );
    c.answer(
        "post",
        "/api/v1/players/me/presence",
        &post(addr, "/api/v1/players/me/presence", Some(&b), &json!({})).await,
    );
    c.answer(
        "post",
        "/api/v1/players/me/presence",
        &post(addr, "/api/v1/players/me/presence", None, &json!({})).await,
    );
    c.answer(
        "post",
        "/api/v1/lobby/quick",
        &post(
            addr,
            "/api/v1/lobby/quick",
            Some(&b),
            &json!({ "players": 3, "wait_seconds": 0 }),
        )
        .await,
    );
    c.answer(
        "post",
        "/api/v1/lobby/quick",
        &post(addr, "/api/v1/lobby/quick", Some(&b), &json!({ "players": 9 })).await,
    );
    c.answer(
        "get",
        "/api/v1/players/{id}",
        &get(addr, &format!("/api/v1/players/{a_id}")).await,
    );
    c.answer(
        "get",
        "/api/v1/players/{id}",
        &get(addr, "/api/v1/players/0123456789abcdef").await,
    );
    c.answer(
        "get",
        "/api/v1/players/me",
        &client::request(addr, "GET", "/api/v1/players/me", Some(&b), None)
            .await
            .unwrap(),
    );
    c.answer("get", "/api/v1/players/me", &get(addr, "/api/v1/players/me").await);
    c.answer("get", "/api/v1/ratings", &get(addr, "/api/v1/ratings").await);
    let mut lobby = tokio_tungstenite::connect_async(format!("ws://{addr}/api/v1/lobby/events"))
        .await
        .unwrap()
        .0;
    let first = next_event(&mut lobby).await;
    assert_eq!(first["type"], "lobby");
    c.answer(
        "get",
        "/api/v1/lobby",
        &client::Response {
            status: 200,
            headers: Vec::new(),
            body: first.to_string().into_bytes(),
        },
    );
    server.stop().await;
    assert!(
        c.missing.is_empty(),
        "fields not in docs/server-openapi.yaml: {:#?}",
        c.missing
    );
}
/// The TypeScript declarations of the lessons' answer (`web/src/howto/`), read just enough
/// to list an object type's members. The other answers' and the events' types are written
/// from the wire types (`web/src/wire.ts`, checked by rumis-wire's `tests/contract.rs`); the
/// lessons' are not wire types.
struct Ts {
    /// Comments removed.
    text: String,
}

/// The text of `s` from `open` (a `{` or `<`) to its matching close, without them.
fn enclosed(s: &str, open: usize) -> &str {
    let (o, c) = match s.as_bytes()[open] {
        b'{' => (b'{', b'}'),
        b'<' => (b'<', b'>'),
        b'(' => (b'(', b')'),
        other => panic!("not an opening bracket: {}", other as char),
    };
    let mut depth = 0;
    for (i, &b) in s.as_bytes().iter().enumerate().skip(open) {
        if b == o {
            depth += 1;
        } else if b == c && !(c == b'>' && i > 0 && s.as_bytes()[i - 1] == b'=') {
            depth -= 1;
            if depth == 0 {
                return &s[open + 1..i];
            }
        }
    }
    panic!("unbalanced: {}", &s[open..]);
}

/// Splits at `sep` where no bracket is open.
fn split_top(s: &str, sep: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let b = s.as_bytes();
    for i in 0..b.len() {
        match b[i] {
            b'{' | b'(' | b'[' | b'<' => depth += 1,
            b'>' if i > 0 && b[i - 1] == b'=' => {}
            b'}' | b')' | b']' | b'>' => depth -= 1,
            c if depth == 0 && sep.contains(&c) => {
                out.push(s[start..i].to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].to_string());
    out.into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

impl Ts {
    fn load() -> Ts {
        let web = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/src/");
        let mut text = String::new();
        for f in ["howto/lessons.ts", "howto/scene.ts"] {
            text.push_str(&std::fs::read_to_string(format!("{web}{f}")).unwrap_or_else(|e| panic!("{f}: {e}")));
            text.push('\n');
        }
        Ts::from_text(&text)
    }

    fn from_text(text: &str) -> Ts {
        // Comments out: `/* ... */` and `// ...` (no string in a type holds either).
        let mut out = String::new();
        let mut rest = text;
        while let Some(i) = rest.find("/*") {
            out.push_str(&rest[..i]);
            rest = rest[i..].split_once("*/").map_or("", |(_, r)| r);
        }
        out.push_str(rest);
        let text = out
            .lines()
            .map(|l| l.split_once("//").map_or(l, |(a, _)| a))
            .collect::<Vec<_>>()
            .join("\n");
        Ts { text }
    }

    /// An interface's members (with its parents') or a type alias's expression.
    fn named(&self, name: &str) -> Option<Vec<(String, String)>> {
        let interface = format!("interface {name} ");
        if let Some(i) = self.text.find(&interface) {
            let head_end = i + self.text[i..].find('{').unwrap();
            let head = &self.text[i + interface.len()..head_end];
            let mut members = members(enclosed(&self.text, head_end));
            if let Some(parents) = head.trim().strip_prefix("extends") {
                for p in parents.split(',') {
                    members.extend(self.members_of(p.trim()));
                }
            }
            return Some(members);
        }
        let alias = format!("type {name} =");
        let i = self.text.find(&alias)?;
        let rest = &self.text[i + alias.len()..];
        let end = split_top(rest, b";")[0].len();
        Some(self.members_of(&rest[..end]))
    }

    /// The members an object type expression declares: its inline objects and named types
    /// at the top (arrays, `| null` and `&` see through; `Record<..>` is a map, not members).
    fn members_of(&self, expr: &str) -> Vec<(String, String)> {
        let b = expr.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'{' => {
                    let inner = enclosed(expr, i);
                    out.extend(members(inner));
                    i += inner.len() + 2;
                }
                b'<' => i += enclosed(expr, i).len() + 2,
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let start = i;
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                        i += 1;
                    }
                    let word = &expr[start..i];
                    if word != "Record" {
                        out.extend(self.named(word).unwrap_or_default());
                    }
                }
                b'"' => {
                    i += 1;
                    while i < b.len() && b[i] != b'"' {
                        i += 1;
                    }
                    i += 1;
                }
                _ => i += 1,
            }
        }
        out
    }

    /// The value type of a `Record<string, X>` in the expression.
    fn record_value(&self, expr: &str) -> Option<String> {
        let i = expr.find("Record<")? + "Record".len();
        let inner = enclosed(expr, i);
        Some(inner.split_once(',')?.1.trim().to_string())
    }

    /// The branch of a union alias whose `type` is `kind`.
    fn branch(&self, alias: &str, kind: &str) -> Option<String> {
        let key = format!("type {alias} =");
        let i = self.text.find(&key)?;
        let rest = &self.text[i + key.len()..];
        let body = &split_top(rest, b";")[0];
        split_top(body, b"|").into_iter().find(|b| {
            self.members_of(b)
                .iter()
                .any(|(k, t)| k == "type" && t.trim() == format!("\"{kind}\""))
        })
    }
}

/// `name?: type` members of an object literal's body.
fn members(body: &str) -> Vec<(String, String)> {
    split_top(body, b";\n")
        .into_iter()
        .filter_map(|m| {
            let (k, t) = m.split_once(':')?;
            let k = k.trim().trim_end_matches('?').trim_start_matches("readonly ").trim();
            (!k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
                .then(|| (k.to_string(), t.trim().to_string()))
        })
        .collect()
}

/// The fields of `schema` (the document's) that the TypeScript type `ts` does not declare.
fn missing_in_ts(doc: &Value, ts: &Ts, schema: &Value, expr: &str, at: &str, out: &mut Vec<String>) {
    let schema = resolve(doc, schema);
    if let Some(items) = schema.get("items") {
        return missing_in_ts(doc, ts, items, expr, at, out);
    }
    let mut properties: Vec<(String, Value)> = Vec::new();
    let parts: Vec<&Value> = match schema.get("allOf").and_then(Value::as_array) {
        Some(all) => all.iter().map(|p| resolve(doc, p)).collect(),
        None => vec![schema],
    };
    for p in &parts {
        if let Some(ps) = p.get("properties").and_then(Value::as_object) {
            properties.extend(ps.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
    }
    if properties.is_empty() {
        if let Some(extra) = schema.get("additionalProperties").filter(|a| a.is_object()) {
            match ts.record_value(expr) {
                Some(value) => missing_in_ts(doc, ts, extra, &value, &format!("{at}.*"), out),
                None => out.push(format!("{at} (a map; the TypeScript type is {expr:?})")),
            }
        }
        return;
    }
    let declared = ts.members_of(expr);
    for (key, sub) in properties {
        let here = format!("{at}.{key}");
        match declared.iter().find(|(k, _)| *k == key) {
            Some((_, t)) => missing_in_ts(doc, ts, &sub, t, &here, out),
            None => out.push(here),
        }
    }
}

/// The document's answers whose TypeScript types are not written from the wire types.
const TS_TYPES: &[(&str, &str)] = &[("#/paths/~1api~1v1~1lessons/get/responses/200", "Lessons")];

/// The schema at a JSON pointer of the document (an answer: its JSON content's schema).
fn schema_at<'a>(doc: &'a Value, pointer: &str) -> &'a Value {
    let v = doc
        .pointer(pointer.trim_start_matches('#'))
        .unwrap_or_else(|| panic!("no {pointer} in the document"));
    let v = resolve(doc, v);
    v.pointer("/content/application~1json/schema").unwrap_or(v)
}

/// Every field of the lessons' answer in the document is declared in the web app's
/// TypeScript types: with the test above (every field sent is in the document), a field
/// added in Rust and not in `web/src/howto/` fails here.
#[test]
fn every_documented_lesson_field_is_in_the_web_apps_types() {
    let doc = document();
    let ts = Ts::load();
    let mut out = Vec::new();
    for (pointer, name) in TS_TYPES {
        assert!(ts.named(name).is_some(), "no TypeScript type {name}");
        missing_in_ts(
            &doc,
            &ts,
            schema_at(&doc, pointer),
            name,
            &format!("{name} ({pointer})"),
            &mut out,
        );
    }
    assert!(
        out.is_empty(),
        "fields not declared in the web app's TypeScript: {out:#?}"
    );
}

/// The TypeScript check itself finds a member a type lacks, through arrays, inline objects,
/// `extends`, intersections and maps.
#[test]
fn the_typescript_check_finds_an_undeclared_field() {
    let doc = document();
    let ts = Ts::from_text(
        "export interface A extends B { x: number; list: { y: string }[]; m: Record<string, { z: number }> }\n\
         export interface B { /* a comment */ w?: (C & { v: number }) | null; }\n\
         export interface C { u: string }\n\
         export type E = | { type: \"one\"; a: number } | { type: \"two\"; b: number };",
    );
    let schema = json!({ "type": "object", "properties": {
        "x": {}, "list": { "type": "array", "items": { "properties": { "y": {}, "y2": {} } } },
        "m": { "type": "object", "additionalProperties": { "type": "object", "properties": { "z": {}, "z2": {} } } },
        "w": { "properties": { "u": {}, "v": {}, "t": {} } }, "extra": {} } });
    let mut out = Vec::new();
    missing_in_ts(&doc, &ts, &schema, "A", "A", &mut out);
    // (The document's properties come in name order.)
    assert_eq!(out, ["A.extra", "A.list.y2", "A.m.*.z2", "A.w.t"]);
    assert!(ts.branch("E", "two").unwrap().contains("b: number"));
    assert_eq!(ts.branch("E", "three"), None);
}
