//! `POST /api/v1/boards/check` and `GET /api/v1/boards/{name}/toml`, for the board editor:
//! every verdict is the core's (`Board::from_toml`), with its message and line; bad input is
//! a 4xx, never a 5xx.

use crate::common;

use common::*;
use rumis_core::Board;
use serde_json::{json, Value};

const HEAD: &str = "name = \"T\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 2, 3 = 3, 4 = 4 }\n";

/// A 3 x 2 board with a printed height, a hole, a frame for 2 players and evidence.
const GOOD: &str = "name = \"Steps\"\naliases = [\"stairs\"]\nprovenance = \"reconstruction\"\nsource = \"A test.\"\nhmax = { 2 = 3, 3 = 4, 4 = 5 }\nframes = { 2 = \"a1:b2\" }\ngrid = \"\"\"\n#2.\n###\n\"\"\"\n\n[[evidence]]\nfact = \"Five cells for 3.\"\nsource = \"here\"\nmin_cells = { 3 = 5 }\nframes_for = [2]\n";

async fn check(addr: std::net::SocketAddr, body: &Value) -> rumis_test_client::Response {
    post(addr, "/api/v1/boards/check", None, body).await
}

/// The core's error for `text`, read as the server reads it.
fn core_error(file: &str, text: &str) -> rumis_core::BoardError {
    Board::from_toml(file, text).expect_err("a bad board")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_good_board_comes_back_as_the_core_reads_it() {
    let db = Db::sqlite("boards-good");
    let server = start(config(&db.url())).await;
    let r = check(server.addr, &json!({ "toml": GOOD })).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let b = &r.json()["board"];
    assert_eq!(b["name"], "Steps");
    assert_eq!(b["aliases"], json!(["stairs"]));
    assert_eq!(b["provenance"], "reconstruction");
    assert_eq!(b["source"], "A test.");
    assert_eq!((b["files"].as_u64(), b["ranks"].as_u64()), (Some(3), Some(2)));
    // Back rank first in the file: the '2' is b2 and the hole c2.
    let footprint: Vec<(String, Value)> = b["footprint"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["cell"].as_str().unwrap().to_string(), c["printed"].clone()))
        .collect();
    assert_eq!(
        footprint,
        [
            ("a1".to_string(), Value::Null),
            ("b1".to_string(), Value::Null),
            ("c1".to_string(), Value::Null),
            ("a2".to_string(), Value::Null),
            ("b2".to_string(), json!(2)),
        ]
    );
    assert_eq!(b["hmax"], json!({ "2": 3, "3": 4, "4": 5 }));
    assert_eq!(
        b["frames"]["2"],
        json!({ "text": "a1:b2", "files": [0, 1], "ranks": [0, 1] })
    );
    assert_eq!(b["frames"]["3"], Value::Null);
    assert_eq!(b["columns"], json!({ "2": 4, "3": 5, "4": 5 }));
    // b2 is printed 2: its limit is 2 under every Hmax; the others take Hmax.
    assert_eq!(b["volume"], json!({ "2": 3 * 3 + 2, "3": 4 * 4 + 2, "4": 5 * 4 + 2 }));
    let l2 = b["layouts"]["2"]["cells"].as_array().unwrap();
    let cells: Vec<&str> = l2.iter().map(|c| c["cell"].as_str().unwrap()).collect();
    assert_eq!(cells, ["a1", "b1", "a2", "b2"], "the frame for 2 players leaves out c1");
    assert_eq!(l2[3]["limit"], 2);
    assert_eq!(l2[3]["printed"], 2);
    let ev = &b["evidence"][0];
    assert_eq!(ev["fact"], "Five cells for 3.");
    assert_eq!(
        ev["constraints"],
        json!([
            { "kind": "min_cells", "players": 3, "value": 5, "text": "at least 5 cells for 3 players" },
            { "kind": "frames_for", "counts": [2], "text": "a red frame for 2 players only" },
        ])
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_built_in_boards_files_check_as_the_built_in_boards() {
    let db = Db::sqlite("boards-builtin");
    let server = start(config(&db.url())).await;
    let addr = server.addr;
    let list = get(addr, "/api/v1/boards").await.json();
    for info in list["boards"].as_array().unwrap() {
        let name = info["name"].as_str().unwrap();
        let r = get(addr, &format!("/api/v1/boards/{}/toml", name.to_lowercase())).await;
        assert_eq!(r.status, 200, "{name}: {}", r.text());
        assert!(r.header("content-type").unwrap().starts_with("text/plain"), "{name}");
        assert_eq!(
            r.text(),
            Board::builtin_file(name).unwrap(),
            "{name}: the file as built in"
        );
        let c = check(addr, &json!({ "toml": r.text(), "file": format!("{name}.toml") })).await;
        assert_eq!(c.status, 200, "{name}: {}", c.text());
        let b = &c.json()["board"];
        for key in [
            "name",
            "files",
            "ranks",
            "hmax",
            "columns",
            "layouts",
            "provenance",
            "source",
        ] {
            assert_eq!(b[key], info[key], "{name}: {key}");
        }
    }
    // An alias finds the file too; pinned: Coricancha's frame for 2 players only, 40/80/80.
    let r = get(addr, "/api/v1/boards/pyramid/toml").await;
    let c = check(addr, &json!({ "toml": r.text() })).await.json();
    assert_eq!(c["board"]["name"], "Coricancha");
    assert_eq!(c["board"]["columns"], json!({ "2": 40, "3": 80, "4": 80 }));
    assert_eq!(c["board"]["frames"]["2"]["text"], "a1:e8");
    assert_eq!(c["board"]["frames"]["3"], Value::Null);
    assert_eq!(c["board"]["evidence"].as_array().unwrap().len(), 3);
    let r = get(addr, "/api/v1/boards/nowhere/toml").await;
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["error"], "unknown_board");
    assert!(r.json()["reason"].as_str().unwrap().contains("chullpa"), "{}", r.text());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_bad_board_gets_the_cores_reason_and_line() {
    let db = Db::sqlite("boards-bad");
    let server = start(config(&db.url())).await;
    let wide = "#".repeat(27);
    let tall = ["############"; 11].join("\n");
    // (what, file, the line the core names, a word of its message)
    let cases: Vec<(&str, String, usize, &str)> = vec![
        ("ragged rows", format!("{HEAD}grid = \"\"\"\n##\n###\n\"\"\"\n"), 6, "ragged"),
        ("empty footprint", format!("{HEAD}grid = \"\"\"\n..\n..\n\"\"\"\n"), 5, "footprint is empty"),
        (
            "frame outside",
            format!("{HEAD}frames = {{ 2 = \"a1:c2\" }}\ngrid = \"\"\"\n##\n##\n\"\"\"\n"),
            4,
            "lies outside the 2 x 2 grid",
        ),
        ("too wide", format!("{HEAD}grid = \"\"\"\n{wide}\n\"\"\"\n"), 5, "at most 26"),
        ("too many cells", format!("{HEAD}grid = \"\"\"\n{tall}\n\"\"\"\n"), 5, "at most 128"),
        (
            "contradicts its evidence",
            format!("{HEAD}grid = \"\"\"\n##\n\"\"\"\n\n[[evidence]]\nfact = \"Many.\"\nsource = \"\"\nmin_cells = {{ 2 = 5 }}\n"),
            9,
            "contradicts its own evidence",
        ),
        ("broken TOML", "name = \"T\nprovenance = 1\n".to_string(), 1, ""),
        ("unknown character", format!("{HEAD}grid = \"\"\"\n#x\n\"\"\"\n"), 5, "unknown character 'x' at b1"),
        ("no hmax", "name = \"T\"\nprovenance = \"reconstruction\"\ngrid = \"#\"\n".to_string(), 1, "hmax"),
    ];
    for (what, text, line, word) in cases {
        let r = check(server.addr, &json!({ "toml": text, "file": "mine.toml" })).await;
        assert_eq!(r.status, 422, "{what}: {}", r.text());
        let e = core_error("mine.toml", &text);
        let body = r.json();
        assert_eq!(body["error"], "bad_board", "{what}");
        assert_eq!(body["reason"], e.to_string(), "{what}: the core's words");
        assert_eq!(body["file"], "mine.toml", "{what}");
        assert_eq!(body["line"], line, "{what}: {}", body["reason"]);
        assert_eq!(body["message"], e.message, "{what}");
        assert!(e.message.contains(word), "{what}: {}", e.message);
    }
    // Without a file name the messages name board.toml.
    let r = check(
        server.addr,
        &json!({ "toml": format!("{HEAD}grid = \"\"\"\n..\n\"\"\"\n") }),
    )
    .await;
    assert!(
        r.json()["reason"].as_str().unwrap().starts_with("board.toml:5: "),
        "{}",
        r.text()
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_and_oversized_requests_are_refused_without_a_server_error() {
    let db = Db::sqlite("boards-size");
    let server = start(config(&db.url())).await;
    let addr = server.addr;
    // Over the server's body limit (16 KiB): refused before the core sees it.
    let big = format!("{GOOD}# {}\n", "x".repeat(20_000));
    let r = check(addr, &json!({ "toml": big })).await;
    assert_eq!(r.status, 413, "{}", r.text());
    assert_eq!(r.json()["error"], "body_too_large");
    for (body, code) in [
        (json!({}), "bad_json"),
        (json!({ "toml": 3 }), "bad_json"),
        (json!({ "toml": GOOD, "colour": "R" }), "bad_json"),
        (json!([GOOD]), "bad_json"),
    ] {
        let r = check(addr, &body).await;
        assert_eq!(r.status, 400, "{body}: {}", r.text());
        assert_eq!(r.json()["error"], code, "{body}");
    }
    let r = rumis_test_client::request(addr, "POST", "/api/v1/boards/check", None, None)
        .await
        .unwrap();
    assert_eq!(r.status, 400, "an empty body: {}", r.text());
    let r = get(addr, "/api/v1/boards/check").await;
    assert_eq!(r.status, 405, "{}", r.text());
    server.stop().await;

    // A server that takes larger bodies still takes no board file over 16 KiB.
    let mut c = config(&db.url());
    c.body_limit = 64 * 1024;
    let server = start(c).await;
    let big = format!("{GOOD}# {}\n", "x".repeat(20_000));
    let r = check(server.addr, &json!({ "toml": big })).await;
    assert_eq!(r.status, 413, "{}", r.text());
    assert!(
        r.json()["reason"].as_str().unwrap().contains("at most 16384"),
        "{}",
        r.text()
    );
    // Just under it is read (and this one is good).
    let fits = format!("{GOOD}# {}\n", "x".repeat(16 * 1024 - GOOD.len() - 3));
    assert_eq!(fits.len(), 16 * 1024);
    let r = check(server.addr, &json!({ "toml": fits })).await;
    assert_eq!(r.status, 200, "{}", r.text());
    server.stop().await;
}
