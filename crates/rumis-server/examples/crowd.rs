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

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rumis_core::{Board, Site, Variant};

#[path = "crowd/backup.rs"]
mod backup;
#[path = "crowd/games.rs"]
mod games;
#[path = "crowd/http.rs"]
mod http;
#[path = "crowd/process.rs"]
mod process;
#[path = "crowd/report.rs"]
mod report;
#[path = "support/mod.rs"]
mod support;

use games::{create, play_slot, stall_slot, Figures, Live, Run};
use http::Http;
use process::{own_cpu_seconds, raise_own_fd_limit, start_server};
use report::Measured;
use support::{cpu_seconds, memory_kb};

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

/// The run: the games made, the moves sent for `--seconds` while memory is sampled, then
/// its figures in words (and the backup taken, if one was asked for).
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
    let lives = make_games(&run, played).await;
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
    let slots = start_slots(o, &run, lives, stalled, t0, end);
    let backup = spawn_backup(o, &run, url, dir, t0);
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
    let measured = Measured {
        played,
        stalled,
        setup_seconds,
        rss_ready,
        peak: peak.load(Ordering::Relaxed).max(hwm),
        rss_end,
        wall,
        server_cpu,
        client_cpu,
    };
    (report::words(o, &run, &measured), taken)
}

/// The played games and their watchers, 16 made at once.
async fn make_games(run: &Arc<Run>, played: usize) -> Vec<Live> {
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
    lives
}

/// The slots' tasks: a played slot for each game made, sending its moves from `t0` to
/// `end`, and the stalled slots, started one after another over the first `STALL_MS`.
fn start_slots(
    o: &Options,
    run: &Arc<Run>,
    lives: Vec<Live>,
    stalled: usize,
    t0: tokio::time::Instant,
    end: tokio::time::Instant,
) -> Vec<tokio::task::JoinHandle<()>> {
    let period = Duration::from_secs_f64(1.0 / o.rate);
    let played = lives.len() as u64;
    let mut slots = Vec::new();
    for (j, live) in lives.into_iter().enumerate() {
        slots.push(tokio::spawn(play_slot(
            run.clone(),
            live,
            j as u64,
            played,
            t0,
            end,
            period,
        )));
    }
    for j in 0..stalled {
        let start = t0 + Duration::from_millis(STALL_MS * j as u64 / stalled.max(1) as u64);
        slots.push(tokio::spawn(stall_slot(run.clone(), start, end)));
    }
    slots
}
