//! A bounded open-loop load run against a separate `rumis serve` process (loopback only):
//! N live games with real-time clocks, three event WebSockets per game, and moves sent at a
//! fixed rate whether or not the earlier ones were answered (issue 17, *Load*).
//!
//! - **Games.** Nine in ten are played: four human seats, a 30-minute clock (+10 s a move),
//!   moves picked from the legal list by the client's own copy of the game (the core), so no
//!   state is read between moves. A finished game is replaced at once by a new one in its
//!   slot, so N games stay live. Every tenth game *stalls*: a 6-second clock (the shortest
//!   there is) and nobody moves, so its four seats time out one after another; these are
//!   created in a staggered way over the first 6 s of the run and replaced when they end.
//! - **Open loop.** Move k is planned at `t0 + k / rate`, going round the played games; a
//!   game's task sends its move at the planned time (or as soon as its previous request is
//!   answered, if that is later) and every latency is measured **from the planned time**,
//!   so a stall of the server is not hidden by the clients waiting for it (no coordinated
//!   omission).
//! - **Figures.** A move's acknowledgement (planned time → the answer read); its `move`
//!   event at each of the game's three WebSockets (planned time → the frame read); for every
//!   `timeout` event, how late it came after the due time that the game's last `clock`
//!   information gave (`now + remaining_ms` of the running seat; client and server share the
//!   machine's clock); the server's resident memory (`/proc/PID/status` VmRSS, sampled every
//!   200 ms, and VmHWM), the CPU of the server and of this client over the run.
//!
//! One connection per game for its HTTP requests (kept alive, as a browser does) and one per
//! WebSocket: 4 N connections from 127.0.0.1, so the server is started with its per-address
//! caps and its rate limit raised for the run (`--max-connections-per-address`,
//! `--ws-per-address`, `--rate`); the defaults are untouched.
//!
//! cargo build --release -p rumis-cli && cargo build --release -p rumis-server --example crowd
//! target/release/examples/crowd GAMES [--db sqlite|postgres] [--seconds S] [--rate R]
//!   [--bin target/release/rumis] [--postgres-url postgres://rumis:rumis@127.0.0.1:5432/postgres]
//!   [--stall-every 10] [--backup-at SECS]
//!
//! `--backup-at SECS` (SQLite only, issue 51): SECS seconds into the moves, the moves
//! acknowledged so far are noted and `rumis db backup` copies the database while the load
//! goes on; after the run the backup is restored (`rumis db restore`) and must hold every
//! one of them (crowd/backup.rs), else the run fails.
//! `scripts/load` runs it at 100, 300 and 1 000 games on both databases and prints the table.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::StreamExt;
use rumis_core::{Board, Colour, Game, Site, Variant};
use serde::Deserialize;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[path = "crowd/backup.rs"]
mod backup;

/// WebSockets per game.
const WATCHERS: usize = 3;
/// Seats (and colours) per game.
const SEATS: usize = 4;
/// The played games' clock, and the stalled games' (the shortest real-time clock).
const PLAYED_CLOCK: &str = r#"{"kind":"realtime","minutes":30,"increment_seconds":10,"on_timeout":"out"}"#;
const STALL_CLOCK: &str = r#"{"kind":"realtime","minutes":0.1,"on_timeout":"out"}"#;
const STALL_MS: u64 = 6_000;
/// One request's limit; a request that takes longer counts as an error.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);

struct Options {
    games: usize,
    postgres: bool,
    seconds: f64,
    rate: f64,
    bin: String,
    postgres_url: String,
    stall_every: usize,
    /// Seconds into the moves at which to take a backup (SQLite).
    backup_at: Option<f64>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        games: 100,
        postgres: false,
        seconds: 60.0,
        rate: 200.0,
        bin: "target/release/rumis".into(),
        postgres_url: "postgres://rumis:rumis@127.0.0.1:5432/postgres".into(),
        stall_every: 10,
        backup_at: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--db" => {
                o.postgres = match value()?.as_str() {
                    "sqlite" => false,
                    "postgres" | "postgresql" => true,
                    other => return Err(format!("--db is sqlite or postgres, not {other}")),
                }
            }
            "--seconds" => o.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--rate" => o.rate = value()?.parse().map_err(|e| format!("--rate: {e}"))?,
            "--bin" => o.bin = value()?,
            "--postgres-url" => o.postgres_url = value()?,
            "--stall-every" => o.stall_every = value()?.parse().map_err(|e| format!("--stall-every: {e}"))?,
            "--backup-at" => o.backup_at = Some(value()?.parse().map_err(|e| format!("--backup-at: {e}"))?),
            n => o.games = n.parse().map_err(|_| format!("unknown argument {n}"))?,
        }
    }
    if o.games < 2 || o.seconds <= 0.0 || o.seconds > 600.0 || o.rate <= 0.0 || o.rate > 5_000.0 {
        return Err("GAMES ≥ 2, 0 < --seconds ≤ 600, 0 < --rate ≤ 5000".into());
    }
    if let Some(at) = o.backup_at {
        if o.postgres {
            return Err(
                "--backup-at takes a backup with `rumis db backup`, which copies SQLite databases only \
                 (PostgreSQL: pg_dump); use it with --db sqlite"
                    .into(),
            );
        }
        if !(0.0..o.seconds).contains(&at) {
            return Err("--backup-at SECS: 0 ≤ SECS < --seconds".into());
        }
    }
    Ok(o)
}

// ---------------------------------------------------------------------------------------
// The server process.

struct ServerProcess {
    child: std::process::Child,
    addr: SocketAddr,
    log: std::path::PathBuf,
}

fn start_server(o: &Options, url: &str, dir: &std::path::Path) -> ServerProcess {
    // Every connection comes from 127.0.0.1: an HTTP connection per game and its
    // WebSockets, with room for a replaced game's sockets that are still closing.
    let per_address = (o.games * (WATCHERS + 1) * 2 + 256).to_string();
    let log = dir.join("server.log");
    let mut child = std::process::Command::new(&o.bin)
        .args(["serve", "--addr", "127.0.0.1:0", "--database-url", url])
        .args(["--rate", "1000000", "--max-connections-per-address", &per_address])
        .args(["--ws-per-address", &per_address, "--web-dir", dir.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::fs::File::create(&log).expect("a log file"))
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", o.bin));
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("the server's first line");
    // "rumis server on http://127.0.0.1:PORT/ (…)"
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            let _ = child.kill();
            panic!(
                "the server did not start: {line:?}; log:\n{}",
                std::fs::read_to_string(&log).unwrap_or_default()
            )
        });
    ServerProcess { child, addr, log }
}

impl ServerProcess {
    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGINT (the server stops cleanly), then SIGKILL after 10 s.
    fn stop(mut self) -> String {
        unsafe {
            // SAFETY: a signal to our own child process.
            libc::kill(self.child.id() as i32, libc::SIGINT);
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

/// `VmRSS` and `VmHWM` of a process, in KB.
fn memory_kb(pid: u32) -> (u64, u64) {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// CPU seconds (user + system) of a process.
fn cpu_seconds(pid: u32) -> f64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // After the command's ")" the fields start at 3 (state); utime and stime are 14 and 15.
    let rest = text.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i - 3).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // SAFETY: sysconf only reads a constant.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    (ticks(14) + ticks(15)) / hz.max(1.0)
}

fn own_cpu_seconds() -> f64 {
    // SAFETY: rusage is a struct of integers, for which all zeroes is a value.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes the struct given.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 / 1e6;
    t(u.ru_utime) + t(u.ru_stime)
}

fn wall_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

// ---------------------------------------------------------------------------------------
// HTTP: one kept-alive connection per game slot.

struct Http {
    addr: SocketAddr,
    conn: Option<TcpStream>,
    buf: Vec<u8>,
}

impl Http {
    fn new(addr: SocketAddr) -> Http {
        Http {
            addr,
            conn: None,
            buf: Vec::with_capacity(4096),
        }
    }

    /// One request; a connection the server closed (idle) is made again and the request
    /// sent again once (moves are safe to send again).
    async fn request(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> Result<(u16, Vec<u8>), String> {
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n", self.addr);
        if let Some(t) = token {
            head.push_str("Authorization: Bearer ");
            head.push_str(t);
            head.push_str("\r\n");
        }
        if method == "POST" {
            head.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        head.push_str("\r\n");
        head.push_str(body);
        let mut last = String::new();
        for _ in 0..2 {
            match tokio::time::timeout(REQUEST_TIMEOUT, self.exchange(head.as_bytes())).await {
                Ok(Ok(r)) => return Ok(r),
                Ok(Err(e)) => last = e.to_string(),
                Err(_) => {
                    self.conn = None;
                    return Err("timed out".into());
                }
            }
            self.conn = None;
        }
        Err(last)
    }

    async fn exchange(&mut self, request: &[u8]) -> std::io::Result<(u16, Vec<u8>)> {
        if self.conn.is_none() {
            let s = TcpStream::connect(self.addr).await?;
            s.set_nodelay(true)?;
            self.conn = Some(s);
        }
        let conn = self.conn.as_mut().unwrap();
        conn.write_all(request).await?;
        self.buf.clear();
        let bad = |m: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, m.to_string());
        let mut chunk = [0u8; 4096];
        let end = loop {
            if let Some(p) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break p;
            }
            let n = conn.read(&mut chunk).await?;
            if n == 0 {
                return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "closed"));
            }
            self.buf.extend_from_slice(&chunk[..n]);
        };
        let head = std::str::from_utf8(&self.buf[..end]).map_err(|_| bad("head not UTF-8"))?;
        let status: u16 = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("no status"))?;
        let mut length = None;
        let mut close = false;
        for line in head.split("\r\n").skip(1) {
            if let Some((k, v)) = line.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    length = v.trim().parse::<usize>().ok();
                } else if k.eq_ignore_ascii_case("connection") && v.trim().eq_ignore_ascii_case("close") {
                    close = true;
                }
            }
        }
        let length = length.ok_or_else(|| bad("no content-length"))?;
        let start = end + 4;
        while self.buf.len() < start + length {
            let n = conn.read(&mut chunk).await?;
            if n == 0 {
                return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "short body"));
            }
            self.buf.extend_from_slice(&chunk[..n]);
        }
        let body = self.buf[start..start + length].to_vec();
        if close {
            self.conn = None;
        }
        Ok((status, body))
    }
}

// ---------------------------------------------------------------------------------------
// Figures.

#[derive(Default)]
struct Figures {
    /// Microseconds from the planned time.
    ack: Vec<u32>,
    event: Vec<u32>,
    /// Milliseconds after the due time (negative: before it).
    timeout_late: Vec<i64>,
    errors: HashMap<String, u64>,
    games_created: u64,
    sockets_opened: u64,
}

struct Run {
    addr: SocketAddr,
    site: Arc<Site>,
    figures: Mutex<Figures>,
    /// The moves sent, and of them acknowledged (201).
    sent: AtomicU64,
    acked: AtomicU64,
    /// (game id, move number) of each move acknowledged, while a backup is to come (None:
    /// no `--backup-at`, or the backup has begun).
    acked_moves: Mutex<Option<Vec<(String, u32)>>>,
    /// Set once the moves are over and a grace for their last events has passed: the
    /// watchers stop.
    done: tokio::sync::watch::Sender<bool>,
}

impl Run {
    fn error(&self, what: impl Into<String>) {
        *self.figures.lock().unwrap().errors.entry(what.into()).or_insert(0) += 1;
    }
}

fn micros(d: Duration) -> u32 {
    d.as_micros().min(u32::MAX as u128) as u32
}

// ---------------------------------------------------------------------------------------
// A live game: its id, tokens, the client's copy, and its three watchers.

/// The planned send time of each move of a game, for its watchers.
type Planned = Arc<Mutex<HashMap<i64, tokio::time::Instant>>>;

struct Live {
    id: String,
    tokens: Vec<String>,
    game: Game,
    planned: Planned,
    watchers: Vec<tokio::task::JoinHandle<()>>,
}

#[derive(Deserialize)]
struct CreatedSeat {
    token: Option<String>,
}

#[derive(Deserialize)]
struct Created {
    id: String,
    seats: Vec<CreatedSeat>,
}

/// The fields of an event this client reads; the rest is skipped unparsed.
#[derive(Deserialize)]
struct EventLite<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    number: Option<i64>,
    clock: Option<ClockLite>,
    state: Option<StateLite>,
}

#[derive(Deserialize)]
struct StateLite {
    clock: Option<ClockLite>,
}

#[derive(Deserialize)]
struct ClockLite {
    now: i64,
    running_seat: Option<usize>,
    seats: Vec<SeatLite>,
}

#[derive(Deserialize)]
struct SeatLite {
    seat: usize,
    remaining_ms: i64,
}

impl ClockLite {
    fn due(&self) -> Option<i64> {
        let s = self.running_seat?;
        self.seats
            .iter()
            .find(|x| x.seat == s)
            .map(|x| self.now + x.remaining_ms)
    }
}

/// Creates a game and connects its watchers (each has read its snapshot when this returns).
async fn create(run: &Arc<Run>, http: &mut Http, stall: bool) -> Result<Live, String> {
    let body = format!(
        r#"{{"board":"chullpa","players":{SEATS},"clock":{}}}"#,
        if stall { STALL_CLOCK } else { PLAYED_CLOCK }
    );
    let (status, answer) = http.request("POST", "/api/v1/games", None, &body).await?;
    if status != 201 {
        return Err(format!("create: {status} {}", String::from_utf8_lossy(&answer)));
    }
    let created: Created = serde_json::from_slice(&answer).map_err(|e| format!("create: {e}"))?;
    let planned: Planned = Default::default();
    let mut watchers = Vec::new();
    for w in 0..WATCHERS {
        let url = format!("ws://{}/api/v1/games/{}/events", run.addr, created.id);
        let (mut ws, _) = tokio::time::timeout(REQUEST_TIMEOUT, tokio_tungstenite::connect_async(url))
            .await
            .map_err(|_| "websocket: connect timed out".to_string())?
            .map_err(|e| format!("websocket: {e}"))?;
        let first = tokio::time::timeout(REQUEST_TIMEOUT, ws.next())
            .await
            .map_err(|_| "websocket: no snapshot".to_string())?;
        let due = match first {
            Some(Ok(tokio_tungstenite::tungstenite::Message::Text(t))) => serde_json::from_str::<EventLite>(&t)
                .ok()
                .and_then(|e| e.state)
                .and_then(|s| s.clock)
                .and_then(|c| c.due()),
            _ => return Err("websocket: no snapshot".into()),
        };
        // The first watcher of each game also times its timeouts.
        watchers.push(tokio::spawn(watch(run.clone(), ws, planned.clone(), w == 0, due)));
    }
    {
        let mut f = run.figures.lock().unwrap();
        f.games_created += 1;
        f.sockets_opened += WATCHERS as u64;
    }
    Ok(Live {
        id: created.id,
        tokens: created.seats.into_iter().map(|s| s.token.unwrap_or_default()).collect(),
        game: Game::new(run.site.clone()),
        planned,
        watchers,
    })
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// One WebSocket of a game: the arrival of each `move` event (from its planned time) and,
/// for the first watcher, the lateness of each `timeout`; ends at `game_over` or when the
/// run's moves are over (and a grace for the last events).
async fn watch(run: Arc<Run>, mut ws: Socket, planned: Planned, times_timeouts: bool, mut due: Option<i64>) {
    use tokio_tungstenite::tungstenite::Message;
    let mut event = Vec::new();
    let mut late = Vec::new();
    let mut done = run.done.subscribe();
    loop {
        if *done.borrow() {
            break;
        }
        let msg = tokio::select! {
            m = ws.next() => m,
            _ = done.changed() => break,
        };
        let text = match msg {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(_)) => continue,
            Some(Err(e)) => {
                run.error(format!("websocket: {e}"));
                break;
            }
            None => {
                run.error("websocket: closed by the server");
                break;
            }
        };
        let now = tokio::time::Instant::now();
        let Ok(e) = serde_json::from_str::<EventLite>(&text) else {
            run.error("websocket: unreadable event");
            continue;
        };
        match e.kind {
            "move" => {
                let at = e.number.and_then(|n| planned.lock().unwrap().get(&n).copied());
                if let Some(at) = at {
                    event.push(micros(now.saturating_duration_since(at)));
                }
            }
            "clock" => due = e.clock.and_then(|c| c.due()),
            "timeout" if times_timeouts => {
                if let Some(d) = due {
                    late.push(wall_ms() - d);
                }
            }
            "game_over" => break,
            _ => {}
        }
    }
    let _ = ws.close(None).await;
    let mut f = run.figures.lock().unwrap();
    f.event.extend(event);
    f.timeout_late.extend(late);
}

/// Puts the client's copy right from the server's state (after a refused move).
async fn resync(run: &Run, http: &mut Http, live: &mut Live) -> Result<(), String> {
    let (status, body) = http
        .request("GET", &format!("/api/v1/games/{}", live.id), None, "")
        .await?;
    if status != 200 {
        return Err(format!("state: {status}"));
    }
    let v: Value = serde_json::from_slice(&body).map_err(|e| e.to_string())?;
    let mut game = Game::new(run.site.clone());
    let left: Vec<(usize, Colour)> = v["left"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| {
            let c = l["colour"].as_str()?.chars().next().and_then(Colour::from_letter)?;
            Some((l["after_move"].as_u64()? as usize, c))
        })
        .collect();
    let moves: Vec<String> = v["moves"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["placement"].as_str().map(String::from))
        .collect();
    for i in 0..=moves.len() {
        for &(after, c) in &left {
            if after == i {
                game.retire(c, Some("time")).map_err(|e| e.to_string())?;
            }
        }
        if let Some(m) = moves.get(i) {
            game.play_text(m).map_err(|e| e.to_string())?;
        }
    }
    live.game = game;
    Ok(())
}

/// A played slot: sends its moves at their planned times, replacing its game when it ends.
async fn play_slot(
    run: Arc<Run>,
    mut live: Live,
    slot: u64,
    slots: u64,
    t0: tokio::time::Instant,
    end: tokio::time::Instant,
    period: Duration,
) {
    let mut http = Http::new(run.addr);
    let mut rng = slot.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut k: u64 = 0;
    loop {
        let planned = t0 + period.mul_f64((k * slots + slot) as f64);
        k += 1;
        if planned >= end {
            break;
        }
        if live.game.is_over() {
            match create(&run, &mut http, false).await {
                Ok(l) => live = l,
                Err(e) => {
                    run.error(e);
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    continue;
                }
            }
        }
        tokio::time::sleep_until(planned).await;
        let legal = live.game.legal_moves();
        if legal.is_empty() {
            // Cannot happen while the game is not over (the core passes or ends the turn).
            run.error("client: no legal move");
            live.game = Game::new(run.site.clone());
            continue;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let m = legal[(rng % legal.len() as u64) as usize];
        let colour = live.game.to_move().expect("a colour to move");
        let seat = run.site.player_of(colour).unwrap_or(0);
        let number = live.game.moves().len() as i64 + 1;
        let body = format!(
            r#"{{"placement":"{}","expected_move_number":{number}}}"#,
            live.game.notation(m)
        );
        live.planned.lock().unwrap().insert(number, planned);
        run.sent.fetch_add(1, Ordering::Relaxed);
        let answer = http
            .request(
                "POST",
                &format!("/api/v1/games/{}/moves", live.id),
                Some(&live.tokens[seat]),
                &body,
            )
            .await;
        let took = planned.elapsed();
        match answer {
            Ok((201, _)) => {
                run.acked.fetch_add(1, Ordering::Relaxed);
                if let Some(v) = run.acked_moves.lock().unwrap().as_mut() {
                    v.push((live.id.clone(), number as u32));
                }
                run.figures.lock().unwrap().ack.push(micros(took));
                live.game.play(m).expect("a legal move");
            }
            Ok((status, body)) => {
                let code = serde_json::from_slice::<Value>(&body)
                    .ok()
                    .and_then(|v| v["error"].as_str().map(String::from))
                    .unwrap_or_default();
                run.error(format!("move: {status} {code}"));
                if let Err(e) = resync(&run, &mut http, &mut live).await {
                    run.error(format!("resync: {e}"));
                }
            }
            Err(e) => {
                run.error(format!("move: {e}"));
                if let Err(e) = resync(&run, &mut http, &mut live).await {
                    run.error(format!("resync: {e}"));
                }
            }
        }
        if live.game.is_over() {
            // Its watchers end at `game_over`; the slot's next game is made before its
            // next planned move.
            live.watchers.clear();
        }
    }
    for w in live.watchers.drain(..) {
        let _ = w.await;
    }
}

/// A stalled slot: a game where nobody moves, so its seats time out one after another;
/// replaced when it is over, until the run's end.
async fn stall_slot(run: Arc<Run>, start: tokio::time::Instant, end: tokio::time::Instant) {
    tokio::time::sleep_until(start).await;
    let mut http = Http::new(run.addr);
    while tokio::time::Instant::now() + Duration::from_millis(STALL_MS) < end {
        match create(&run, &mut http, true).await {
            Ok(mut live) => {
                // The first watcher ends at `game_over` (four timeouts) or the run's end.
                let first = live.watchers.remove(0);
                let _ = first.await;
                for w in live.watchers.drain(..) {
                    let _ = w.await;
                }
            }
            Err(e) => {
                run.error(e);
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
}

fn pct_ms(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize] as f64 / 1000.0
}

fn raise_own_fd_limit() {
    let _ = rumis_server::edge::raise_fd_limit();
}

fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("crowd: {e}");
            std::process::exit(2);
        }
    };
    raise_own_fd_limit();
    let dir = std::env::temp_dir().join(format!("rumis-crowd-{}-{}", std::process::id(), o.games));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = if o.postgres {
        let base = o
            .postgres_url
            .rsplit_once('/')
            .map(|(b, _)| b)
            .unwrap_or(&o.postgres_url);
        format!("{base}/rumis_crowd_{}_{}", std::process::id(), o.games)
    } else {
        format!("sqlite://{}", dir.join("crowd.db").display())
    };
    let server = start_server(&o, &url, &dir);
    let pid = server.pid();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let (report, taken) = runtime.block_on(drive(&o, server.addr, pid, &url, &dir));
    let log = server.stop();
    let verdict = taken.map(|t| runtime.block_on(backup::check(&o.bin, &t)));
    if o.postgres {
        if let Err(e) = runtime.block_on(rumis_server::drop_database(&url)) {
            eprintln!("crowd: {e}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if std::env::var_os("CROWD_LOG").is_some() {
        eprintln!("{log}");
    }
    let server_errors: Vec<&str> = log.lines().filter(|l| l.contains("ERROR")).collect();
    println!("{report}");
    println!(
        "load average before the run: {}; server log: {} lines, {} errors",
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
        log.lines().count(),
        server_errors.len()
    );
    for l in server_errors.iter().take(5) {
        println!("  server: {l}");
    }
    match verdict {
        Some(Ok(lines)) => lines.iter().for_each(|l| println!("{l}")),
        Some(Err(lines)) => {
            lines.iter().for_each(|l| println!("{l}"));
            std::process::exit(1);
        }
        None => {}
    }
}

/// At `at`, notes the moves acknowledged so far and backs the database up (the load going on).
fn spawn_backup(
    o: &Options,
    run: &Arc<Run>,
    url: &str,
    dir: &std::path::Path,
    t0: tokio::time::Instant,
) -> Option<tokio::task::JoinHandle<backup::Taken>> {
    let at = o.backup_at?;
    let (run, bin, url, file) = (run.clone(), o.bin.clone(), url.to_string(), dir.join("backup.db"));
    Some(tokio::spawn(async move {
        tokio::time::sleep_until(t0 + Duration::from_secs_f64(at)).await;
        // Every move in this list was answered 201 before the backup's process starts.
        let acked = run.acked_moves.lock().unwrap().take().unwrap_or_default();
        tokio::task::spawn_blocking(move || backup::take(&bin, &url, &file, at, acked))
            .await
            .expect("the backup's thread")
    }))
}

async fn drive(
    o: &Options,
    addr: SocketAddr,
    pid: u32,
    url: &str,
    dir: &std::path::Path,
) -> (String, Option<backup::Taken>) {
    let board = Board::builtin("chullpa").expect("Chullpa").clone();
    let site = Arc::new(Site::new(board, SEATS, Variant::Standard, None).expect("a site"));
    let stalled = o.games.checked_div(o.stall_every).unwrap_or(0);
    let played = o.games - stalled;
    let setup_started = Instant::now();
    let run = Arc::new(Run {
        addr,
        site,
        figures: Mutex::new(Figures::default()),
        sent: AtomicU64::new(0),
        acked: AtomicU64::new(0),
        acked_moves: Mutex::new(o.backup_at.map(|_| Vec::new())),
        done: tokio::sync::watch::channel(false).0,
    });
    // The played games and their watchers, 16 made at once.
    let gate = Arc::new(tokio::sync::Semaphore::new(16));
    let mut tasks = Vec::new();
    for _ in 0..played {
        let (run, gate) = (run.clone(), gate.clone());
        tasks.push(tokio::spawn(async move {
            let _p = gate.acquire().await;
            let mut http = Http::new(run.addr);
            create(&run, &mut http, false).await
        }));
    }
    let mut lives = Vec::new();
    for t in tasks {
        match t.await.expect("a creation") {
            Ok(l) => lives.push(l),
            Err(e) => panic!("set-up: {e}"),
        }
    }
    let setup_seconds = setup_started.elapsed().as_secs_f64();
    let t0 = tokio::time::Instant::now() + Duration::from_millis(500);
    let end = t0 + Duration::from_secs_f64(o.seconds);
    let (rss_ready, _) = memory_kb(pid);
    // Memory, sampled until the end.
    let peak = Arc::new(AtomicU64::new(rss_ready));
    let sampler = {
        let (peak, end) = (peak.clone(), end + Duration::from_secs(3));
        tokio::spawn(async move {
            while tokio::time::Instant::now() < end {
                let (rss, _) = memory_kb(pid);
                peak.fetch_max(rss, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        })
    };
    tokio::time::sleep_until(t0).await;
    let (client_cpu0, server_cpu0, wall0) = (own_cpu_seconds(), cpu_seconds(pid), Instant::now());
    let period = Duration::from_secs_f64(1.0 / o.rate);
    let mut slots = Vec::new();
    for (j, live) in lives.into_iter().enumerate() {
        slots.push(tokio::spawn(play_slot(
            run.clone(),
            live,
            j as u64,
            played as u64,
            t0,
            end,
            period,
        )));
    }
    let backup = spawn_backup(o, &run, url, dir, t0);
    for j in 0..stalled {
        let start = t0 + Duration::from_millis(STALL_MS * j as u64 / stalled.max(1) as u64);
        slots.push(tokio::spawn(stall_slot(run.clone(), start, end)));
    }
    tokio::time::sleep_until(end).await;
    let wall = wall0.elapsed().as_secs_f64();
    let (client_cpu, server_cpu) = (own_cpu_seconds() - client_cpu0, cpu_seconds(pid) - server_cpu0);
    // The last events of the moves, then the watchers stop.
    tokio::time::sleep_until(end + Duration::from_secs(3)).await;
    let _ = run.done.send(true);
    for s in slots {
        let _ = s.await;
    }
    let _ = sampler.await;
    let taken = match backup {
        Some(b) => Some(b.await.expect("the backup")),
        None => None,
    };
    let (rss_end, hwm) = memory_kb(pid);
    let peak = peak.load(Ordering::Relaxed).max(hwm);

    let mut f = run.figures.lock().unwrap();
    f.ack.sort_unstable();
    f.event.sort_unstable();
    f.timeout_late.sort_unstable();
    let sent = run.sent.load(Ordering::Relaxed);
    let acked = run.acked.load(Ordering::Relaxed);
    let late_p50 = f.timeout_late.get(f.timeout_late.len() / 2).copied();
    let late_max = f.timeout_late.last().copied();
    let late_over_1s = f.timeout_late.iter().filter(|&&l| l > 1000).count();
    let errors: u64 = f.errors.values().sum();
    let mut lines = vec![
        format!(
            "{} games ({played} played, {stalled} stalled), {} WebSockets, {}; set-up {setup_seconds:.1} s; \
             moves for {:.0} s at {} a second (planned {})",
            o.games,
            o.games * WATCHERS,
            if o.postgres { "PostgreSQL" } else { "SQLite" },
            o.seconds,
            o.rate,
            (o.seconds * o.rate).round()
        ),
        format!(
            "moves sent {sent}, acknowledged {acked} ({:.0}/s); ack p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            acked as f64 / o.seconds,
            pct_ms(&f.ack, 0.5),
            pct_ms(&f.ack, 0.99),
            pct_ms(&f.ack, 1.0)
        ),
        format!(
            "move events at the other clients: {} of {}; p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            f.event.len(),
            acked * WATCHERS as u64,
            pct_ms(&f.event, 0.5),
            pct_ms(&f.event, 0.99),
            pct_ms(&f.event, 1.0)
        ),
        format!(
            "timeouts seen {}: late p50 {} ms, max {} ms, {late_over_1s} later than 1 s",
            f.timeout_late.len(),
            late_p50.map_or("-".into(), |v| v.to_string()),
            late_max.map_or("-".into(), |v| v.to_string())
        ),
        format!(
            "server RSS: {:.0} MB with every socket open, peak {:.0} MB, end {:.0} MB; games made {}, sockets opened {}",
            rss_ready as f64 / 1024.0,
            peak as f64 / 1024.0,
            rss_end as f64 / 1024.0,
            f.games_created,
            f.sockets_opened
        ),
        format!(
            "CPU over the {wall:.0} s of moves: server {:.0} % of a core, this client {:.0} %",
            server_cpu / wall * 100.0,
            client_cpu / wall * 100.0
        ),
        format!("errors {errors}"),
    ];
    let mut errs: Vec<_> = f.errors.iter().collect();
    errs.sort_by(|a, b| b.1.cmp(a.1));
    for (e, n) in errs.iter().take(8) {
        lines.push(format!("  {n} × {e}"));
    }
    // One row of the table scripts/load prints.
    lines.push(format!(
        "row: | {} | {} | {} | {acked} | {:.1} / {:.1} / {:.0} | {:.1} / {:.1} / {:.0} | {:.0} / {:.0} | {} | {} / {} | {:.0} % / {:.0} % | {errors} |",
        if o.postgres { "PostgreSQL" } else { "SQLite" },
        o.games,
        o.games * WATCHERS,
        pct_ms(&f.ack, 0.5),
        pct_ms(&f.ack, 0.99),
        pct_ms(&f.ack, 1.0),
        pct_ms(&f.event, 0.5),
        pct_ms(&f.event, 0.99),
        pct_ms(&f.event, 1.0),
        peak as f64 / 1024.0,
        rss_end as f64 / 1024.0,
        f.timeout_late.len(),
        late_p50.map_or("-".into(), |v| format!("{v} ms")),
        late_max.map_or("-".into(), |v| format!("{v} ms")),
        server_cpu / wall * 100.0,
        client_cpu / wall * 100.0,
    ));
    (lines.join("\n"), taken)
}
