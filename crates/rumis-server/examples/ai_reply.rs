//! How long a level-1 AI seat takes to answer a move, one game at a time: a server on
//! 127.0.0.1 with one AI worker, on a fresh SQLite file (or on `RUMIS_AI_REPLY_DATABASE_URL`,
//! e.g. an empty PostgreSQL database). For each game: the human's move is sent, and the time
//! until the AI's `move` event arrives on the game's WebSocket is taken. The reply includes
//! the AI turn's lease (service/ai_turns.rs): one write taken before the search, and its
//! release after the move's commit.
//!
//! cargo run --release -p rumis-server --example ai_reply -- [GAMES]

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use rumis_server::Config;
use rumis_test_client as client;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

async fn next_move(
    ws: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .expect("an event within 30 s")
            .expect("the socket stays open")
            .expect("a message");
        if let Message::Text(t) = msg {
            let e: Value = serde_json::from_str(&t).expect("events are JSON");
            if e["type"] == "move" {
                return e;
            }
        }
    }
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let games: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(50);
    let dir = std::env::temp_dir().join(format!("rumis-ai-reply-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = std::env::var("RUMIS_AI_REPLY_DATABASE_URL")
        .unwrap_or_else(|_| format!("sqlite://{}", dir.join("reply.db").display()));
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), db);
    config.rate_burst = 1e9;
    config.rate_per_second = 1e9;
    config.ai_workers = 1;
    let server = rumis_server::start(config).await.expect("server starts");
    let addr = server.addr;
    let mut replies = Vec::with_capacity(games);
    for _ in 0..games {
        let seats = json!([{ "kind": "human" }, { "kind": "ai", "level": 1 }]);
        let r = client::post(
            addr,
            "/api/v1/games",
            None,
            &json!({ "board": "chullpa", "players": 2, "seats": seats }),
        )
        .await
        .expect("create");
        assert_eq!(r.status, 201, "{}", r.text());
        let created = r.json();
        let id = created["id"].as_str().unwrap().to_string();
        let token = created["seats"][0]["token"].as_str().unwrap().to_string();
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/v1/games/{id}/events"))
            .await
            .expect("the game's socket");
        let sent = Instant::now();
        let body = json!({ "placement": "L4@a1,a2,a3,b1", "expected_move_number": 1 });
        let r = client::post(addr, &format!("/api/v1/games/{id}/moves"), Some(&token), &body)
            .await
            .expect("move");
        assert_eq!(r.status, 201, "{}", r.text());
        loop {
            if next_move(&mut ws).await["number"] == 2 {
                break;
            }
        }
        replies.push(sent.elapsed());
    }
    replies.sort();
    let at = |q: f64| replies[((replies.len() as f64 * q) as usize).min(replies.len() - 1)];
    println!(
        "{games} AI replies (level 1, one at a time): p50 {:.1} ms, p90 {:.1} ms, max {:.1} ms",
        at(0.5).as_secs_f64() * 1e3,
        at(0.9).as_secs_f64() * 1e3,
        replies[replies.len() - 1].as_secs_f64() * 1e3
    );
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
