//! A bounded measurement of the AI's shares (issue #50, point 5): a calm player's AI reply
//! (level 1) and hint (the default level), quiet and under the tester's flood — 30 games
//! with one human seat and three level-9 AI seats from 10 addresses, their human seats
//! moving whenever it is their turn, then also level-9 hints (4.5 s each) from the same 10
//! addresses (two under way from each, as many as the server allows an address).
//!
//! The server runs in this process on 127.0.0.1, on a fresh SQLite file, with its default
//! AI workers (the number of CPUs) and `--trusted-proxy 127.0.0.1`: every client says who it
//! is with `X-Forwarded-For` (the flood from 10.0.0.1-10, the calm player from 10.9.9.9), as
//! clients behind a proxy would. The rate limit is raised: this measures CPU shares, not it.
//!
//! Phases: `quiet`, `games` (the flood of games, after 10 s to fill the line), `games+hints`
//! (after another 10 s). Each prints the calm player's AI reply times (from the move's
//! acknowledgement until the AI's move is in the game's state, polled every 5 ms) and hint
//! times (the request's round trip; the default level 6, 1 000 simulations, in a game at
//! its first move), p50 and max, and what the flood got done.
//!
//! cargo build --release -p rumis-server --example ai_share
//! target/release/examples/ai_share [REPLIES] [HINTS] [NICE]   (defaults 8 and 4 a phase,
//! and the server's `Config::search_nice`; 0 runs the searches at the requests' priority)

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rumis_server::Config;
use rumis_test_client as client;
use serde_json::{json, Value};

const CALM: &str = "10.9.9.9";

/// One request from `from` (through the trusted proxy's header).
async fn call(
    addr: SocketAddr,
    from: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> client::Response {
    try_call(addr, from, method, path, token, body).await.expect("answered")
}

/// [`call`], or the client's error (its timeout: a flood's hint may wait longer).
async fn try_call(
    addr: SocketAddr,
    from: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> std::io::Result<client::Response> {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut head =
        format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nX-Forwarded-For: {from}\r\n");
    if let Some(t) = token {
        head.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    if method == "POST" {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    head.push_str(&body);
    client::raw(addr, head.as_bytes()).await
}

async fn state(addr: SocketAddr, from: &str, id: &str) -> Value {
    call(addr, from, "GET", &format!("/api/v1/games/{id}"), None, None)
        .await
        .json()
}

/// A game of `seats` created by `from`; its id and the human seat's token.
async fn create(addr: SocketAddr, from: &str, board: &str, seats: Value) -> (String, String) {
    let players = seats.as_array().unwrap().len();
    let body = json!({ "board": board, "players": players, "seats": seats });
    let r = call(addr, from, "POST", "/api/v1/games", None, Some(&body)).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let c = r.json();
    let token = c["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|s| s["token"].as_str())
        .unwrap()
        .to_string();
    (c["id"].as_str().unwrap().to_string(), token)
}

/// The human seat's first legal move, if it is to move.
async fn play_if_mine(addr: SocketAddr, from: &str, id: &str, token: &str, seat: u64) -> bool {
    let st = state(addr, from, id).await;
    if st["over"] == true || st["seat_to_move"] != seat {
        return false;
    }
    let Some(m) = st["legal_moves"].as_array().and_then(|l| l.first()).cloned() else {
        return false;
    };
    let body = json!({ "placement": m, "expected_move_number": st["move_number"] });
    call(
        addr,
        from,
        "POST",
        &format!("/api/v1/games/{id}/moves"),
        Some(token),
        Some(&body),
    )
    .await
    .status
        == 201
}

/// The calm player's game: a human seat against the AI at level 1; and a game at its
/// first move to ask hints in (the same search every time: the opening, its hardest).
struct Calm {
    id: String,
    token: String,
    hint_game: String,
}

impl Calm {
    async fn new(addr: SocketAddr) -> Calm {
        let seats = json!([{ "kind": "human" }, { "kind": "ai", "level": 1 }]);
        let (id, token) = create(addr, CALM, "chullpa", seats.clone()).await;
        let (hint_game, _) = create(addr, CALM, "chullpa", seats).await;
        Calm { id, token, hint_game }
    }

    /// The time of one AI reply: moves ([`Calm::try_reply`]) until one comes.
    async fn reply(&mut self, addr: SocketAddr) -> Duration {
        loop {
            if let Some(t) = self.try_reply(addr).await {
                return t;
            }
        }
    }

    /// One move and the time until the AI's reply is in the state; `None` when the AI had
    /// no reply to make (its colour is out, so the turn came back at once, or the move
    /// ended the game).
    async fn try_reply(&mut self, addr: SocketAddr) -> Option<Duration> {
        loop {
            let st = state(addr, CALM, &self.id).await;
            if st["over"] == true || st["legal_moves"].as_array().is_none_or(|l| l.is_empty()) {
                *self = Calm::new(addr).await;
                continue;
            }
            if st["seat_to_move"] != 0 {
                tokio::time::sleep(Duration::from_millis(5)).await;
                continue;
            }
            let number = st["move_number"].as_i64().unwrap();
            let m = st["legal_moves"][0].clone();
            let body = json!({ "placement": m, "expected_move_number": number });
            let r = call(
                addr,
                CALM,
                "POST",
                &format!("/api/v1/games/{}/moves", self.id),
                Some(&self.token),
                Some(&body),
            )
            .await;
            assert_eq!(r.status, 201, "{}", r.text());
            let t = Instant::now();
            loop {
                let st = state(addr, CALM, &self.id).await;
                if st["move_number"].as_i64().unwrap() > number + 1 {
                    return Some(t.elapsed());
                }
                // (Without this the measurement waited forever once the AI's colour was out.)
                if st["over"] == true || st["seat_to_move"] == 0 {
                    return None;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
    }

    async fn hint(&self, addr: SocketAddr) -> (u16, Duration) {
        let t = Instant::now();
        let r = call(
            addr,
            CALM,
            "POST",
            &format!("/api/v1/games/{}/hint", self.hint_game),
            None,
            Some(&json!({})),
        )
        .await;
        (r.status, t.elapsed())
    }
}

fn summary(mut times: Vec<Duration>) -> String {
    if times.is_empty() {
        return "none".into();
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    format!(
        "p50 {:.0} ms, p90 {:.0} ms, max {:.0} ms (n {})",
        ms(times[times.len() / 2]),
        ms(times[times.len() * 9 / 10]),
        ms(*times.last().unwrap()),
        times.len()
    )
}

#[derive(Default)]
struct Flood {
    stop: AtomicBool,
    human_moves: AtomicUsize,
    hints_ok: AtomicUsize,
    hints_refused: AtomicUsize,
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let replies = args.first().copied().unwrap_or(8);
    let hints = args.get(1).copied().unwrap_or(4);
    let nice = args.get(2).map(|&n| n as i32);
    let dir = std::env::temp_dir().join(format!("rumis-ai-share-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = Config::new(
        "127.0.0.1:0".parse().unwrap(),
        format!("sqlite://{}", dir.join("a.db").display()),
    );
    config.rate_burst = 1e9;
    config.rate_per_second = 1e9;
    config.limits.trusted_proxy = Some("127.0.0.1".parse().unwrap());
    if let Some(n) = nice {
        config.search_nice = n;
    }
    let workers = config.ai_workers;
    let config_nice = config.search_nice;
    let server = rumis_server::start(config).await.expect("server starts");
    let addr = server.addr;
    println!(
        "AI workers (threads for AI moves, hints and analyses): {workers}; searches {} below the requests' priority",
        config_nice
    );

    let mut calm = Calm::new(addr).await;
    let flood = Arc::new(Flood::default());
    let mut tasks = Vec::new();
    for phase in ["quiet", "games", "games+hints"] {
        match phase {
            "games" => tasks.extend(flood_games(addr, &flood).await),
            "games+hints" => tasks.extend(flood_hints(addr, &flood).await),
            _ => {}
        }
        if phase != "quiet" {
            tokio::time::sleep(Duration::from_secs(10)).await;
        }
        measure_calm(phase, addr, &mut calm, &flood, replies, hints).await;
    }
    flood.stop.store(true, Ordering::Relaxed);
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(30), t).await;
    }
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The flood's games: ten addresses, three games each of three level-9 AI seats and a person
/// who moves whenever it is their turn (looking every 300 ms).
async fn flood_games(addr: SocketAddr, flood: &Arc<Flood>) -> Vec<tokio::task::JoinHandle<()>> {
    let mut tasks = Vec::new();
    for a in 1..=10 {
        for _ in 0..3 {
            let from = format!("10.0.0.{a}");
            let seats = json!([{ "kind": "ai", "level": 9 }, { "kind": "ai", "level": 9 },
                               { "kind": "ai", "level": 9 }, { "kind": "human" }]);
            let (id, token) = create(addr, &from, "coricancha", seats).await;
            let flood = flood.clone();
            tasks.push(tokio::spawn(async move {
                while !flood.stop.load(Ordering::Relaxed) {
                    if play_if_mine(addr, &from, &id, &token, 3).await {
                        flood.human_moves.fetch_add(1, Ordering::Relaxed);
                    }
                    tokio::time::sleep(Duration::from_millis(300)).await;
                }
            }));
        }
    }
    tasks
}

/// The flood's hints: each of ten addresses asks level-9 hints on a game of its own (one
/// person against the AI), two at a time, without a pause while they are answered.
async fn flood_hints(addr: SocketAddr, flood: &Arc<Flood>) -> Vec<tokio::task::JoinHandle<()>> {
    let mut tasks = Vec::new();
    for a in 1..=10 {
        let from = format!("10.0.0.{a}");
        let (id, _) = create(
            addr,
            &from,
            "chullpa",
            json!([{ "kind": "human" }, { "kind": "ai", "level": 1 }]),
        )
        .await;
        for _ in 0..2 {
            let (flood, from, id) = (flood.clone(), from.clone(), id.clone());
            tasks.push(tokio::spawn(async move {
                while !flood.stop.load(Ordering::Relaxed) {
                    let path = format!("/api/v1/games/{id}/hint");
                    let body = json!({ "level": 9 });
                    let r = try_call(addr, &from, "POST", &path, None, Some(&body)).await;
                    if r.is_ok_and(|r| r.status == 200) {
                        flood.hints_ok.fetch_add(1, Ordering::Relaxed);
                    } else {
                        flood.hints_refused.fetch_add(1, Ordering::Relaxed);
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                }
            }));
        }
    }
    tasks
}

/// One phase's figures: the calm player's AI replies and hints, timed one after another,
/// and what the flood did meanwhile; printed.
async fn measure_calm(phase: &str, addr: SocketAddr, calm: &mut Calm, flood: &Flood, replies: usize, hints: usize) {
    let (moves0, hints0, refused0) = (
        flood.human_moves.load(Ordering::Relaxed),
        flood.hints_ok.load(Ordering::Relaxed),
        flood.hints_refused.load(Ordering::Relaxed),
    );
    let started = Instant::now();
    let mut reply_times = Vec::new();
    for _ in 0..replies {
        reply_times.push(calm.reply(addr).await);
    }
    let mut hint_times = Vec::new();
    let mut hint_refused = 0;
    for _ in 0..hints {
        let (status, t) = calm.hint(addr).await;
        if status == 200 {
            hint_times.push(t);
        } else {
            hint_refused += 1;
        }
    }
    println!(
        "{phase:>12}: calm AI reply (level 1) {}; calm hint {}, refused {hint_refused}; \
         in {:.0} s the flood's people moved {} times, its hints answered {}, refused {}",
        summary(reply_times),
        summary(hint_times),
        started.elapsed().as_secs_f64(),
        flood.human_moves.load(Ordering::Relaxed) - moves0,
        flood.hints_ok.load(Ordering::Relaxed) - hints0,
        flood.hints_refused.load(Ordering::Relaxed) - refused0,
    );
}
