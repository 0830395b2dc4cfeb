//! A bounded measurement of the lobby's fan-out (issue #50, point 3): a game's state read
//! and a move, timed from 127.0.0.1 ten times a second, while 1 000 lobby subscribers are
//! connected and one player key makes 30 lobby changes a second (a seek, then its abort:
//! under the default rate limit of 40 requests a second); and the server's memory per lobby
//! socket and per game socket. Loopback only; a fresh SQLite file; every phase bounded.
//!
//! The server is a separate process (`--bin`, default `target/release/rumis`) started with
//! its default limits, so that its CPU and memory are its own and a build of another commit
//! can be measured by the same program. Clients come from many loopback addresses
//! (127.F.0.x), ten sockets an address, under the default per-address caps.
//!
//! The lobby is filled first, about as the tester's was: `--tables` waiting seeks and as many
//! lobby games in play (30 and 30 by default: a ~40 KB message). Then, with the reader running throughout:
//! 1. `quiet`: no subscriber, no change;
//! 2. the subscribers connect (the server's RSS before and after: per lobby socket);
//! 3. blocks of `--seconds`, in the order L I I L L I … (`--pairs` of each): `loaded`
//!    (30 changes a second) and `idle` (subscribers connected, no change), so that a drift
//!    of the shared machine falls on both alike;
//! 4. after the last loaded block, a few seconds' quiet: how many subscribers hold the
//!    newest version;
//! 5. the subscribers close; `quiet` again; then as many game watchers connect to one game
//!    (RSS before and after: per game socket).
//!
//! Each block prints the reader's state-read and move latencies (p50 / p99 / max, from the
//! planned time of the step: a stalled server counts against the steps it delayed), the
//! server's CPU (share of one core), and what the subscribers received.
//!
//! cargo build --release -p rumis-cli && cargo build --release -p rumis-server --example lobby_fanout
//! target/release/examples/lobby_fanout [--bin target/release/rumis] [--subscribers 1000]
//!     [--changes 30] [--seconds 10] [--pairs 2] [--tables 30]

use std::io::{BufRead, BufReader};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use rumis_test_client as client;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpSocket;
use tokio_tungstenite::tungstenite::Message;

#[path = "support/mod.rs"]
mod support;
use support::{cpu_seconds, memory_kb, pct_ms, stop_child};

struct Options {
    bin: String,
    subscribers: usize,
    changes: f64,
    seconds: u64,
    pairs: usize,
    /// Waiting seeks, and as many lobby games in play.
    tables: usize,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        bin: "target/release/rumis".into(),
        subscribers: 1000,
        changes: 30.0,
        seconds: 10,
        pairs: 2,
        tables: 30,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--bin" => o.bin = value()?,
            "--subscribers" => o.subscribers = value()?.parse().map_err(|e| format!("{a}: {e}"))?,
            "--changes" => o.changes = value()?.parse().map_err(|e| format!("{a}: {e}"))?,
            "--seconds" => o.seconds = value()?.parse().map_err(|e| format!("{a}: {e}"))?,
            "--pairs" => o.pairs = value()?.parse().map_err(|e| format!("{a}: {e}"))?,
            "--tables" => o.tables = value()?.parse().map_err(|e| format!("{a}: {e}"))?,
            other => return Err(format!("unknown option {other}")),
        }
    }
    let good = (1..=4000).contains(&o.subscribers)
        && o.changes > 0.0
        && o.changes <= 38.0
        && (1..=120).contains(&o.seconds)
        && (1..=5).contains(&o.pairs)
        && (1..=50).contains(&o.tables);
    if !good {
        return Err(
            "1 ≤ --subscribers ≤ 4000, 0 < --changes ≤ 38 (the rate limit), 1 ≤ --seconds ≤ 120, 1 ≤ --pairs ≤ 5"
                .into(),
        );
    }
    Ok(o)
}

// ---------------------------------------------------------------------------------------
// The server process.

struct ServerProcess {
    child: std::process::Child,
    addr: SocketAddr,
}

fn start_server(bin: &str, url: &str, log: &std::path::Path) -> ServerProcess {
    let mut child = std::process::Command::new(bin)
        .args(["serve", "--addr", "127.0.0.1:0", "--database-url", url])
        .stdout(std::process::Stdio::piped())
        .stderr(std::fs::File::create(log).expect("a log file"))
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {bin}: {e}"));
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("the server's first line");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            let _ = child.kill();
            panic!("the server did not start: {line:?}")
        });
    ServerProcess { child, addr }
}

impl ServerProcess {
    fn stop(mut self) {
        stop_child(&mut self.child);
    }
}

// ---------------------------------------------------------------------------------------
// Clients from many loopback addresses.

/// The `n`th client address of a family (`family` is the second byte: 127.F.0.x).
fn address(family: u8, n: usize) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, family, (n / 250) as u8, (n % 250 + 1) as u8))
}

/// One request from `from` (a connection each, closed after).
async fn request(
    from: IpAddr,
    to: SocketAddr,
    method: &str,
    path: &str,
    key: Option<&str>,
    body: &Value,
) -> (u16, Value) {
    let run = async {
        let socket = TcpSocket::new_v4()?;
        socket.bind(SocketAddr::new(from, 0))?;
        let mut s = socket.connect(to).await?;
        let body = body.to_string();
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {to}\r\nConnection: close\r\n");
        if let Some(k) = key {
            head.push_str(&format!("Authorization: Bearer {k}\r\n"));
        }
        if method == "POST" {
            head.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        head.push_str("\r\n");
        if method == "POST" {
            head.push_str(&body);
        }
        s.write_all(head.as_bytes()).await?;
        let mut buf = Vec::new();
        s.read_to_end(&mut buf).await?;
        Ok::<_, std::io::Error>(buf)
    };
    let buf = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("an answer in time")
        .expect("an answer");
    let text = String::from_utf8_lossy(&buf);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

async fn new_player(from: IpAddr, to: SocketAddr, name: &str) -> String {
    let (status, v) = request(from, to, "POST", "/api/v1/players", None, &json!({ "name": name })).await;
    assert_eq!(status, 201, "{v}");
    v["key"].as_str().unwrap().to_string()
}

fn seek_body() -> Value {
    json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "open" }] })
}

async fn seek(from: IpAddr, to: SocketAddr, key: &str) -> String {
    let (status, v) = request(from, to, "POST", "/api/v1/lobby/seeks", Some(key), &seek_body()).await;
    assert_eq!(status, 201, "{v}");
    v["game"].as_str().unwrap().to_string()
}

/// `tables` waiting seeks and as many lobby games in play, each from its own players and
/// addresses.
async fn fill_lobby(to: SocketAddr, tables: usize) {
    let tasks: Vec<_> = (0..2 * tables)
        .map(|i| {
            tokio::spawn(async move {
                let from = address(2, i);
                let key = new_player(from, to, &format!("Seeker {i:03}")).await;
                let game = seek(from, to, &key).await;
                if i >= tables {
                    let other = address(2, 100 + i);
                    let key = new_player(other, to, &format!("Joiner {i:03}")).await;
                    let (status, v) = request(
                        other,
                        to,
                        "POST",
                        &format!("/api/v1/games/{game}/join"),
                        Some(&key),
                        &json!({}),
                    )
                    .await;
                    assert_eq!(status, 201, "{v}");
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
}

// ---------------------------------------------------------------------------------------
// The subscribers.

#[derive(Default)]
struct Received {
    messages: AtomicU64,
    bytes: AtomicU64,
}

type Ws = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

async fn connect_ws(from: IpAddr, to: SocketAddr, path: &str) -> Ws {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    let stream = socket.connect(to).await.expect("connects");
    let (ws, _) = tokio_tungstenite::client_async(format!("ws://{to}{path}"), stream)
        .await
        .expect("a WebSocket");
    ws
}

/// The `"version":N` of a lobby message, without parsing the rest (the old server's
/// messages have none: 0).
fn version_of(text: &str) -> u64 {
    text.find("\"version\":")
        .map(|i| {
            text[i + 10..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .fold(0u64, |v, d| v * 10 + (d - b'0') as u64)
        })
        .unwrap_or(0)
}

/// A subscriber: reads every message (answering pings), noting the newest version.
async fn subscriber(
    mut ws: Ws,
    received: Arc<Received>,
    newest: Arc<AtomicU64>,
    first: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
) {
    let mut got_first = false;
    while let Some(Ok(m)) = ws.next().await {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if let Message::Text(t) = m {
            received.messages.fetch_add(1, Ordering::Relaxed);
            received.bytes.fetch_add(t.len() as u64, Ordering::Relaxed);
            newest.store(version_of(&t), Ordering::Relaxed);
            if !got_first {
                got_first = true;
                first.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
    let _ = ws.close(None).await;
}

// ---------------------------------------------------------------------------------------
// The reader: a state read and a move, ten times a second, in a hot-seat game of its own.

#[derive(Default)]
struct Samples {
    reads: Vec<u32>,
    moves: Vec<u32>,
    /// Steps not sent: their time passed while an earlier step waited.
    skipped: usize,
}

async fn hot_seat_game(to: SocketAddr) -> (String, String) {
    let body = json!({ "board": "chullpa", "players": 2, "hot_seat": true });
    loop {
        match client::post(to, "/api/v1/games", None, &body).await {
            Ok(r) if r.status == 201 => {
                let v = r.json();
                return (
                    v["id"].as_str().unwrap().to_string(),
                    v["seats"][0]["token"].as_str().unwrap().to_string(),
                );
            }
            Ok(r) => eprintln!("creating the reader's game: {} {}", r.status, r.text()),
            Err(e) => eprintln!("creating the reader's game: {e}"),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Ten steps a second, each planned ahead and timed from its planned time; a step whose
/// time passed while an earlier one waited is skipped (counted), not sent in a burst
/// (which the rate limit would refuse).
async fn reader(to: SocketAddr, samples: Arc<Mutex<Samples>>, stop: Arc<AtomicBool>) {
    const EVERY: Duration = Duration::from_millis(100);
    let (mut id, mut token) = hot_seat_game(to).await;
    let start = tokio::time::Instant::now();
    let mut k = 0u32;
    while !stop.load(Ordering::Relaxed) {
        let mut planned = start + EVERY * k;
        k += 1;
        while planned + EVERY < tokio::time::Instant::now() {
            samples.lock().unwrap().skipped += 1;
            planned = start + EVERY * k;
            k += 1;
        }
        tokio::time::sleep_until(planned).await;
        let st = match client::get(to, &format!("/api/v1/games/{id}")).await {
            Ok(r) if r.status == 200 => r.json(),
            other => {
                eprintln!("state read: {:?}", other.map(|r| (r.status, r.text())));
                continue;
            }
        };
        let read = planned.elapsed();
        let Some(m) = st["legal_moves"]
            .as_array()
            .and_then(|l| l.first())
            .and_then(Value::as_str)
        else {
            (id, token) = hot_seat_game(to).await;
            continue;
        };
        let sent = tokio::time::Instant::now();
        let body = json!({ "placement": m, "expected_move_number": st["move_number"] });
        let r = client::post(to, &format!("/api/v1/games/{id}/moves"), Some(&token), &body).await;
        let moved = sent.elapsed();
        if !matches!(&r, Ok(r) if r.status == 201) {
            eprintln!("move: {:?}", r.map(|r| (r.status, r.text())));
            continue;
        }
        let mut s = samples.lock().unwrap();
        s.reads.push(read.as_micros() as u32);
        s.moves.push(moved.as_micros() as u32);
    }
}

/// One key's lobby changes at `rate` a second: a seek, then its abort, open-loop.
async fn changer(to: SocketAddr, key: String, rate: f64, stop: Arc<AtomicBool>, made: Arc<AtomicU64>) {
    let from = address(0, 1); // 127.0.0.2
    let start = tokio::time::Instant::now();
    let mut k = 0u32;
    let mut open: Option<String> = None;
    let at = |k: u32| start + Duration::from_secs_f64(k as f64 / rate);
    while !stop.load(Ordering::Relaxed) {
        // Behind (a stalled server): on from now, not a burst the rate limit would refuse.
        while at(k + 1) < tokio::time::Instant::now() {
            k += 1;
        }
        tokio::time::sleep_until(at(k)).await;
        k += 1;
        match open.take() {
            None => {
                let (status, v) = request(from, to, "POST", "/api/v1/lobby/seeks", Some(&key), &seek_body()).await;
                if status != 201 {
                    eprintln!("seek: {status} {v}");
                    continue;
                }
                open = v["game"].as_str().map(String::from);
            }
            Some(game) => {
                let (status, v) = request(
                    from,
                    to,
                    "POST",
                    &format!("/api/v1/games/{game}/abort"),
                    Some(&key),
                    &json!({}),
                )
                .await;
                if status != 200 {
                    eprintln!("abort: {status} {v}");
                    open = Some(game);
                    continue;
                }
            }
        }
        made.fetch_add(1, Ordering::Relaxed);
    }
    if let Some(game) = open {
        request(
            from,
            to,
            "POST",
            &format!("/api/v1/games/{game}/abort"),
            Some(&key),
            &json!({}),
        )
        .await;
        made.fetch_add(1, Ordering::Relaxed);
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    if xs.is_empty() {
        f64::NAN
    } else {
        xs[xs.len() / 2]
    }
}

struct Block {
    kind: &'static str,
    read_p50: f64,
    move_p50: f64,
    /// The block's samples, for the figures of each condition over all its blocks.
    reads: Vec<u32>,
    moves: Vec<u32>,
}

fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("lobby_fanout: {e}");
            std::process::exit(2);
        }
    };
    let _ = rumis_server::edge::raise_fd_limit();
    let dir = std::env::temp_dir().join(format!("rumis-lobby-fanout-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("lobby.db").display());
    let server = start_server(&o.bin, &url, &dir.join("server.log"));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    runtime.block_on(drive(&o, server.addr, server.child.id()));
    server.stop();
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "load average at the start: {}",
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
}

async fn drive(o: &Options, to: SocketAddr, pid: u32) {
    let t0 = Instant::now();
    fill_lobby(to, o.tables).await;
    let lobby = client::get(to, "/api/v1/lobby").await.expect("the lobby").body.len();
    println!(
        "server {} (pid {pid}); lobby filled: {lobby} bytes in GET /api/v1/lobby, in {:.1} s",
        o.bin,
        t0.elapsed().as_secs_f64()
    );
    let samples = Arc::new(Mutex::new(Samples::default()));
    let stop_reader = Arc::new(AtomicBool::new(false));
    let reading = tokio::spawn(reader(to, samples.clone(), stop_reader.clone()));
    let bench = Bench {
        to,
        pid,
        seconds: o.seconds,
        rate: o.changes,
        samples,
        received: Arc::new(Received::default()),
        key: new_player(address(0, 1), to, "Changer").await,
    };
    let mut blocks: Vec<Block> = Vec::new();
    blocks.push(bench.block("quiet", false).await);
    let subscribers = Subscribers::connect(o, &bench).await;
    let order = ["loaded", "idle", "idle", "loaded"];
    for p in 0..o.pairs {
        for kind in &order[(p % 2) * 2..(p % 2) * 2 + 2] {
            blocks.push(bench.block(kind, *kind == "loaded").await);
        }
    }
    subscribers.settle_and_close().await;
    blocks.push(bench.block("quiet", false).await);
    game_watchers(o, to, pid).await;
    stop_reader.store(true, Ordering::Relaxed);
    let _ = reading.await;
    summary(&blocks);
}

/// What a block measures with: the reader's samples and what the subscribers received.
struct Bench {
    to: SocketAddr,
    pid: u32,
    seconds: u64,
    rate: f64,
    samples: Arc<Mutex<Samples>>,
    received: Arc<Received>,
    /// The changer's player key.
    key: String,
}

impl Bench {
    /// A block: the reader's samples, the server's CPU and what the subscribers got, over
    /// `seconds`, with the changer running when `loaded`; printed, and kept for the summary.
    async fn block(&self, kind: &'static str, loaded: bool) -> Block {
        let (to, pid, received) = (self.to, self.pid, &self.received);
        *self.samples.lock().unwrap() = Samples::default();
        let (m0, b0) = (
            received.messages.load(Ordering::Relaxed),
            received.bytes.load(Ordering::Relaxed),
        );
        let cpu0 = cpu_seconds(pid);
        let t = Instant::now();
        let stop = Arc::new(AtomicBool::new(false));
        let made = Arc::new(AtomicU64::new(0));
        let changing =
            loaded.then(|| tokio::spawn(changer(to, self.key.clone(), self.rate, stop.clone(), made.clone())));
        tokio::time::sleep(Duration::from_secs(self.seconds)).await;
        stop.store(true, Ordering::Relaxed);
        if let Some(c) = changing {
            c.await.unwrap();
        }
        let wall = t.elapsed().as_secs_f64();
        let cpu = (cpu_seconds(pid) - cpu0) / wall * 100.0;
        let mut s = std::mem::take(&mut *self.samples.lock().unwrap());
        s.reads.sort_unstable();
        s.moves.sort_unstable();
        let messages = received.messages.load(Ordering::Relaxed) - m0;
        let bytes = received.bytes.load(Ordering::Relaxed) - b0;
        println!(
            "{kind:>6}: state read p50 {:.1} / p99 {:.1} / max {:.1} ms, move p50 {:.1} / p99 {:.1} / max {:.1} ms ({} steps, {} skipped); \
             server CPU {cpu:.0} %; {} changes; subscribers got {messages} messages, {:.1} MB",
            pct_ms(&s.reads, 0.5),
            pct_ms(&s.reads, 0.99),
            pct_ms(&s.reads, 1.0),
            pct_ms(&s.moves, 0.5),
            pct_ms(&s.moves, 0.99),
            pct_ms(&s.moves, 1.0),
            s.reads.len(),
            s.skipped,
            made.load(Ordering::Relaxed),
            bytes as f64 / 1e6,
        );
        Block {
            kind,
            read_p50: pct_ms(&s.reads, 0.5),
            move_p50: pct_ms(&s.moves, 0.5),
            reads: s.reads,
            moves: s.moves,
        }
    }
}

/// The lobby's subscribers: each one's newest version, and their tasks.
struct Subscribers {
    stop: Arc<AtomicBool>,
    newest: Vec<Arc<AtomicU64>>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Subscribers {
    /// `--subscribers` lobby sockets, 50 opened at once, ten from an address; the server's
    /// memory before and after (printed: per lobby socket).
    async fn connect(o: &Options, bench: &Bench) -> Subscribers {
        let (to, pid) = (bench.to, bench.pid);
        let rss0 = memory_kb(pid).0;
        let stop = Arc::new(AtomicBool::new(false));
        let first = Arc::new(AtomicU64::new(0));
        let mut newest = Vec::new();
        let mut tasks = Vec::new();
        let t = Instant::now();
        for batch in (0..o.subscribers).collect::<Vec<_>>().chunks(50) {
            let opened = futures_util::future::join_all(
                batch
                    .iter()
                    .map(|&i| connect_ws(address(1, i / 10), to, "/api/v1/lobby/events")),
            )
            .await;
            for ws in opened {
                let v = Arc::new(AtomicU64::new(0));
                newest.push(v.clone());
                tasks.push(tokio::spawn(subscriber(
                    ws,
                    bench.received.clone(),
                    v,
                    first.clone(),
                    stop.clone(),
                )));
            }
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        while (first.load(Ordering::Relaxed) as usize) < o.subscribers && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
        let rss1 = memory_kb(pid).0;
        println!(
            "{} lobby subscribers connected in {:.1} s, {} with their first message; server RSS {:.1} → {:.1} MB: {:.0} KB a lobby socket",
            o.subscribers,
            t.elapsed().as_secs_f64(),
            first.load(Ordering::Relaxed),
            rss0 as f64 / 1024.0,
            rss1 as f64 / 1024.0,
            rss1.saturating_sub(rss0) as f64 / o.subscribers as f64
        );
        Subscribers { stop, newest, tasks }
    }

    /// Settled: 4 s after the last change, how many subscribers hold the newest version
    /// (printed); then they close, and 3 s go by for the server to drop them.
    async fn settle_and_close(self) {
        tokio::time::sleep(Duration::from_secs(4)).await;
        let versions: Vec<u64> = self.newest.iter().map(|v| v.load(Ordering::Relaxed)).collect();
        let top = versions.iter().copied().max().unwrap_or(0);
        println!(
            "4 s after the last change: {} of {} subscribers on the newest version ({top})",
            versions.iter().filter(|&&v| v == top).count(),
            versions.len()
        );
        self.stop.store(true, Ordering::Relaxed);
        for s in &self.tasks {
            s.abort();
        }
        drop(self.tasks);
        tokio::time::sleep(Duration::from_secs(3)).await;
    }
}

/// Game watchers: as many sockets as `--subscribers` on one game, the server's memory before
/// and after (printed: per game socket).
async fn game_watchers(o: &Options, to: SocketAddr, pid: u32) {
    let (game, _) = hot_seat_game(to).await;
    let path = format!("/api/v1/games/{game}/events");
    let rss0 = memory_kb(pid).0;
    let mut watchers = Vec::new();
    for batch in (0..o.subscribers).collect::<Vec<_>>().chunks(50) {
        let opened =
            futures_util::future::join_all(batch.iter().map(|&i| connect_ws(address(3, i / 10), to, &path))).await;
        for mut ws in opened {
            // Its snapshot read.
            let _ = tokio::time::timeout(Duration::from_secs(30), ws.next()).await;
            watchers.push(ws);
        }
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss1 = memory_kb(pid).0;
    println!(
        "{} game watchers on one game: server RSS {:.1} → {:.1} MB: {:.0} KB a game socket",
        watchers.len(),
        rss0 as f64 / 1024.0,
        rss1 as f64 / 1024.0,
        rss1.saturating_sub(rss0) as f64 / watchers.len().max(1) as f64
    );
}

/// The blocks' figures by condition: the medians of their p50s, and their samples pooled.
fn summary(blocks: &[Block]) {
    let of = |kind: &str, f: fn(&Block) -> f64| median(blocks.iter().filter(|b| b.kind == kind).map(f).collect());
    println!(
        "medians of the blocks' p50: state read quiet {:.2} / idle {:.2} / loaded {:.2} ms; move quiet {:.2} / idle {:.2} / loaded {:.2} ms",
        of("quiet", |b| b.read_p50),
        of("idle", |b| b.read_p50),
        of("loaded", |b| b.read_p50),
        of("quiet", |b| b.move_p50),
        of("idle", |b| b.move_p50),
        of("loaded", |b| b.move_p50),
    );
    for kind in ["quiet", "idle", "loaded"] {
        let pooled = |f: fn(&Block) -> &Vec<u32>| {
            let mut all: Vec<u32> = blocks
                .iter()
                .filter(|b| b.kind == kind)
                .flat_map(|b| f(b).clone())
                .collect();
            all.sort_unstable();
            all
        };
        let (reads, moves) = (pooled(|b| &b.reads), pooled(|b| &b.moves));
        println!(
            "all {kind} blocks: state read p50 {:.2} / p90 {:.2} / p99 {:.2} ms, move p50 {:.2} / p90 {:.2} / p99 {:.2} ms ({} steps)",
            pct_ms(&reads, 0.5),
            pct_ms(&reads, 0.9),
            pct_ms(&reads, 0.99),
            pct_ms(&moves, 0.5),
            pct_ms(&moves, 0.9),
            pct_ms(&moves, 0.99),
            reads.len()
        );
    }
}
