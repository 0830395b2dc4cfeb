//! The server's OpenAPI document, `docs/server-openapi.yaml`, is written from the code
//! (`rumis_server::openapi`: the handlers' `#[utoipa::path]` annotations and the schemas of
//! the types they name): the first test fails when the checked-in file is not what the code
//! writes, and writes it with `UPDATE_CONTRACT=1`.
//!
//! The others check real answers of a running server (each endpoint, success and error) and
//! the events of its sockets against the document's schemas: a field that an answer carries
//! and its schema lacks fails, and so does a value outside its schema's enumeration (an
//! error code, a colour) or a status its operation does not declare. The schemas are the
//! types' own, so what this still guards is the handlers: that each answers the statuses and
//! the body its annotation declares (the lobby's handlers answer `json!` values, the lobby
//! socket a message built by hand), and that every error code an answer carries is in
//! `ERROR_CODES`.

use crate::common;

use common::*;
use serde_json::{json, Value};

/// Writes `docs/server-openapi.yaml` (this command is its first line).
const COMMAND: &str = "UPDATE_CONTRACT=1 cargo test --profile test-run -p rumis-server --test server openapi";

fn document() -> Value {
    rumis_server::openapi::document()
}

/// The checked-in document is what the code writes.
#[test]
fn the_document_is_written_from_the_code() {
    let yaml = serde_norway::to_string(&document()).expect("the document as YAML");
    let text = format!(
        "# Written by `{COMMAND}` from the routes' annotations\n\
         # (crates/rumis-server/src/routes/) and the types of crates/rumis-wire: change them, not this file.\n{yaml}"
    );
    rumis_wire::contract::check("docs/server-openapi.yaml", &text, COMMAND);
}

/// Every `$ref` of the document names something in it, and no value is `null` (what a
/// tool reading the document, schemathesis among them, refuses).
#[test]
fn every_reference_resolves() {
    fn walk(doc: &Value, v: &Value, at: &str, out: &mut Vec<String>) {
        match v {
            Value::Null => out.push(format!("{at}: null")),
            Value::Object(map) => {
                if let Some(r) = map.get("$ref").and_then(Value::as_str) {
                    let found = r
                        .strip_prefix("#/")
                        .and_then(|p| p.split('/').try_fold(doc, |v, key| v.get(key)));
                    if found.is_none() {
                        out.push(format!("{at}: {r} is not in the document"));
                    }
                }
                for (key, v) in map {
                    walk(doc, v, &format!("{at}/{key}"), out);
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    walk(doc, v, &format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
    }
    let doc = document();
    let mut out = Vec::new();
    walk(&doc, &doc, "", &mut out);
    assert!(out.is_empty(), "{out:#?}");
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

/// What of `value` (at `at`) `schema` does not describe: a field it lacks, or a value
/// outside its enumeration.
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
    if let Some(words) = schema.get("enum").and_then(Value::as_array) {
        if !words.contains(value) {
            out.push(format!("{at} = {value}, not in {words:?}"));
        }
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
    fn new() -> Checker {
        Checker {
            doc: document(),
            missing: Vec::new(),
        }
    }

    fn answer(&mut self, method: &str, path: &str, r: &client::Response) {
        let schema = answer_schema(&self.doc, method, path, r.status).clone();
        let at = format!("{} {path} {}", method.to_uppercase(), r.status);
        undocumented(&self.doc, &r.json(), &schema, &at, &mut self.missing);
    }

    /// A message of a socket, against the schema `name` of the document's components.
    fn message(&mut self, name: &str, e: &Value) {
        let schema = json!({ "$ref": format!("#/components/schemas/{name}") });
        let at = format!("{name} {}", e["type"]);
        undocumented(&self.doc, e, &schema, &at, &mut self.missing);
    }

    fn event(&mut self, e: &Value) {
        self.message("Event", e);
    }

    fn assert_none_missing(&self) {
        assert!(
            self.missing.is_empty(),
            "not in the OpenAPI document (docs/server-openapi.yaml):\n{:#?}",
            self.missing
        );
    }
}

/// The checker itself finds a field the document lacks, and a word outside an enumeration.
#[test]
fn the_check_finds_an_undocumented_field() {
    let doc = document();
    let mut out = Vec::new();
    let schema = json!({ "$ref": "#/components/schemas/MoveAck" });
    undocumented(
        &doc,
        &json!({ "number": 1, "colour": "R", "new_field": 3 }),
        &schema,
        "x",
        &mut out,
    );
    assert_eq!(out, vec!["x.new_field".to_string()]);
    let mut out = Vec::new();
    undocumented(
        &doc,
        &json!({ "error": "no_such_code", "reason": "" }),
        &json!({ "$ref": "#/components/schemas/ErrorBody" }),
        "e",
        &mut out,
    );
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].starts_with("e.error = \"no_such_code\""), "{out:?}");
}

/// Real answers of every endpoint, and the events of a game played to its end.
// long: every endpoint called once in one session, each answer checked against its schema as it comes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_and_event_is_documented() {
    let dir = TempDir::new("openapi");
    let server = start(config(&dir.db_url())).await;
    let addr = server.addr;
    let mut c = Checker::new();
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
    c.assert_none_missing();
}

/// Clocks, resign and leave: a timed game's answers and events are in the document.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clock_answers_and_events_are_documented() {
    let dir = TempDir::new("openapi-clock");
    let server = start(config(&dir.db_url())).await;
    let addr = server.addr;
    let mut c = Checker::new();
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
    c.assert_none_missing();
}

/// Players, the lobby, abort, rematch and ratings: real answers (success and refusal), every
/// event they send and the lobby socket's message, against the document.
// long: one lobby session in order (each answer and event is checked as the session makes it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_answers_and_events_are_documented() {
    let dir = TempDir::new("openapi-lobby");
    let server = start(config(&dir.db_url())).await;
    let addr = server.addr;
    let mut c = Checker::new();
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
    c.message("LobbyMessage", &first);
    server.stop().await;
    c.assert_none_missing();
}

/// A finished game's review: its answers under way, done, and refused are in the document.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn review_answers_are_documented() {
    let dir = TempDir::new("openapi-review");
    let mut config = config(&dir.db_url());
    config.review_simulations = 50;
    let server = start(config).await;
    let addr = server.addr;
    let mut c = Checker {
        doc: document(),
        missing: Vec::new(),
    };
    let path = "/api/v1/games/{id}/review";
    let open = create(addr, json!({ "board": "chullpa", "players": 2 })).await;
    let open = format!("/api/v1/games/{}/review", open["id"].as_str().unwrap());
    c.answer("post", path, &post(addr, &open, None, &json!({})).await);
    c.answer("get", path, &get(addr, &open).await);
    let ai = create(
        addr,
        json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "ai", "level": 1 }, { "kind": "ai", "level": 1 }] }),
    )
    .await;
    let id = ai["id"].as_str().unwrap().to_string();
    state_when(addr, &id, "the AI plays the game to its end", |st| {
        st["status"] == "finished"
    })
    .await;
    let review = format!("/api/v1/games/{id}/review");
    let asked = post(addr, &review, None, &json!({})).await;
    assert_eq!(asked.status, 202, "{}", asked.text());
    c.answer("post", path, &asked);
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let r = get(addr, &review).await;
        c.answer("get", path, &r);
        if r.status == 200 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the review is done in time");
        // A pause between looks at the review's searches (the machine's own work, which no
        // time of the server's moves): every answer on the way is checked, so not `eventually`.
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    c.answer("post", path, &post(addr, &review, None, &json!({})).await);
    server.stop().await;
    assert!(
        c.missing.is_empty(),
        "fields not in docs/server-openapi.yaml: {:#?}",
        c.missing
    );
}

/// The game's puzzles: a puzzle (daily, next, by id; with a key and without), an attempt
/// solved and one failed, and the refusals are in the document.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn training_answers_are_documented() {
    let dir = TempDir::new("openapi-training");
    let server = start(config(&dir.db_url())).await;
    let addr = server.addr;
    let mut c = Checker {
        doc: document(),
        missing: Vec::new(),
    };
    let (_, key) = new_player(addr, "trainee").await;
    let daily = request(addr, "GET", "/api/v1/training/daily", Some(&key), None).await;
    c.answer("get", "/api/v1/training/daily", &daily);
    c.answer(
        "get",
        "/api/v1/training/daily",
        &get(addr, "/api/v1/training/daily").await,
    );
    let next = request(addr, "GET", "/api/v1/training/next?players=3", Some(&key), None).await;
    c.answer("get", "/api/v1/training/next", &next);
    c.answer(
        "get",
        "/api/v1/training/next",
        &get(addr, "/api/v1/training/next?theme=none").await,
    );
    let daily = daily.json();
    let id = daily["id"].as_str().unwrap().to_string();
    let path = "/api/v1/training/{id}";
    c.answer("get", path, &get(addr, &format!("/api/v1/training/{id}")).await);
    c.answer("get", path, &get(addr, "/api/v1/training/nosuch").await);
    let attempt = "/api/v1/training/{id}/attempt";
    let at = format!("/api/v1/training/{id}/attempt");
    // Every placement offered until one solves and one fails (the first is seldom the best).
    let (mut solved, mut failed) = (false, false);
    for p in daily["placements"]["placements"].as_array().unwrap() {
        let r = post(addr, &at, Some(&key), &json!({ "placement": p["placement"] })).await;
        assert_eq!(r.status, 200, "{}", r.text());
        c.answer("post", attempt, &r);
        let won = r.json()["solved"] == json!(true);
        (solved, failed) = (solved || won, failed || !won);
        if solved && failed {
            break;
        }
    }
    assert!(solved && failed);
    c.answer(
        "post",
        attempt,
        &post(addr, &at, None, &json!({ "placement": "L4@a1,a2,a3,b1" })).await,
    );
    c.answer(
        "post",
        attempt,
        &post(addr, &at, None, &json!({ "placement": "?" })).await,
    );
    server.stop().await;
    c.assert_none_missing();
}
