//! The edge of `rumis serve` under a connection flood, on the real binary started with an
//! open-file limit of 1 024 (`ulimit -n 1024`): 1 100 connections from one address, slow
//! heads and idle ones, do not keep a client at another loopback address (127.0.0.2) from
//! its answers, and the server closes slow heads after the header timeout and idle
//! connections after the idle timeout (both set short here). And its memory: 2 000 idle
//! event WebSockets on one game keep it under 200 MB resident, and it gives memory back
//! once they close.

use std::io::{BufRead, BufReader};
use std::net::{IpAddr, SocketAddr};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rumis_test_client as client;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// The bound on any single wait; reaching it fails the test.
const WAIT: Duration = Duration::from_secs(60);

struct Served {
    child: Child,
    addr: SocketAddr,
    log: std::path::PathBuf,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

/// `rumis serve` under `ulimit -n 1024` on 127.0.0.1 (which every loopback address
/// reaches); its log goes to a file.
fn serve(tag: &str, extra: &[&str]) -> Served {
    serve_with_fds(tag, 1024, extra)
}

fn serve_with_fds(tag: &str, fds: u32, extra: &[&str]) -> Served {
    let dir = crate::scratch();
    let db = dir.join(format!("rumis-serve-edge-{tag}-{}.db", std::process::id()));
    let log = dir.join(format!("rumis-serve-edge-{tag}-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&db);
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(format!("ulimit -n {fds} && exec \"$@\""))
        .arg("bash")
        .arg(env!("CARGO_BIN_EXE_rumis"))
        .args(["serve", "--addr", "127.0.0.1:0", "--rate", "100000", "--database-url"])
        .arg(format!("sqlite://{}", db.display()))
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("rumis serve starts");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(WAIT).expect("rumis serve prints its URL");
    let port: u16 = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|a| a.rsplit(':').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    Served {
        child,
        addr: SocketAddr::from(([127, 0, 0, 1], port)),
        log,
    }
}

/// A connection from a given loopback address.
async fn connect_from(from: IpAddr, to: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(from, 0))?;
    socket.connect(to).await
}

/// One GET from `from`, on its own connection; its status and how long it took.
async fn timed_get(from: IpAddr, to: SocketAddr, path: &str) -> (u16, Duration) {
    let t = Instant::now();
    let mut s = tokio::time::timeout(WAIT, connect_from(from, to))
        .await
        .expect("connects in time")
        .expect("connects");
    let req = format!("GET {path} HTTP/1.1\r\nHost: {to}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut buf))
        .await
        .expect("answered in time")
        .unwrap();
    let text = String::from_utf8_lossy(&buf);
    let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, t.elapsed())
}

/// Waits until the server closes `s` (reading and dropping whatever comes); how long.
async fn closed_after(mut s: impl tokio::io::AsyncRead + Unpin, from: Instant) -> Duration {
    let mut buf = [0u8; 1024];
    loop {
        match tokio::time::timeout(WAIT, s.read(&mut buf))
            .await
            .expect("closed in time")
        {
            Ok(0) | Err(_) => return from.elapsed(),
            Ok(_) => {}
        }
    }
}

// long: one flood against one server process, in its phases (open, served beside it, timed
// out), each measured where it happens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_from_one_address_leaves_others_served_and_is_timed_out() {
    // This process holds the flood's sockets: more than its usual 1 024.
    rumis_server::edge::raise_fd_limit();
    let served = serve("flood", &["--header-timeout", "2", "--idle-timeout", "6"]);
    let addr = served.addr;
    let r = client::post(
        addr,
        "/api/v1/games",
        None,
        &json!({ "board": "chullpa", "players": 2 }),
    )
    .await
    .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_str().unwrap().to_string();
    let state = format!("/api/v1/games/{id}");
    let other: IpAddr = "127.0.0.2".parse().unwrap();
    let (status, baseline) = timed_get(other, addr, &state).await;
    assert_eq!(status, 200);

    // The flood: 1 100 connections from 127.0.0.1, half of them starting a head and
    // trickling it, half saying nothing.
    let flooder: IpAddr = "127.0.0.1".parse().unwrap();
    let started = Instant::now();
    // Each connection's read half is watched from the moment it is open, and its close is
    // timed from then: opening 1 100 connections may itself take seconds on a busy machine,
    // so time from the start of the flood cannot tell "closed at once" from "closed at the
    // header timeout".
    let mut slow_closed = Vec::new();
    let mut idle_closed = Vec::new();
    let mut slow_writers = Vec::new();
    let mut idle_writers = Vec::new();
    // When each connection was open, from the flood's start.
    let mut opened_at = Vec::new();
    for i in 0..1100 {
        let mut s = connect_from(flooder, addr).await.expect("the kernel accepts the flood");
        let open = Instant::now();
        opened_at.push(open - started);
        if i % 2 == 0 {
            let _ = s.write_all(b"GET / HTTP/1.1\r\nX-Slow: ").await;
        }
        let (r, w) = s.into_split();
        let closed = tokio::spawn(closed_after(r, open));
        if i % 2 == 0 {
            slow_closed.push(closed);
            slow_writers.push(w);
        } else {
            idle_closed.push(closed);
            idle_writers.push(w);
        }
    }
    let opened = started.elapsed();
    // Trickle a byte into every slow head every half second (for 2 s: the heads stay
    // unfinished), while another address asks for the game's state.
    let trickle = tokio::spawn(async move {
        for _ in 0..4 {
            for w in &mut slow_writers {
                let _ = w.write_all(b"x").await;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        (slow_writers, idle_writers)
    });
    let mut times = Vec::new();
    for _ in 0..20 {
        let (status, t) = timed_get(other, addr, &state).await;
        assert_eq!(status, 200, "the state answers another address during the flood");
        times.push(t);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    times.sort();
    let worst = *times.last().unwrap();
    eprintln!(
        "flood of 1100 opened in {opened:?}; state from 127.0.0.2: baseline {baseline:?}, during the flood median {:?}, worst {worst:?}",
        times[times.len() / 2]
    );
    // The aim is under 100 ms; a loaded machine gets a generous bound.
    assert!(worst < Duration::from_secs(2), "worst {worst:?}");

    // The server closes every flood connection: the ones over the per-address cap at
    // once, slow heads after the header timeout, idle ones after the idle timeout.
    let _writers = trickle.await.unwrap();
    let mut slow_times = Vec::new();
    for c in slow_closed {
        slow_times.push(c.await.unwrap());
    }
    let mut idle_times = Vec::new();
    for c in idle_closed {
        idle_times.push(c.await.unwrap());
    }
    let (slow_closed, idle_closed) = (slow_times, idle_times);
    let late = |v: &[Duration], from: f64| v.iter().filter(|d| d.as_secs_f64() >= from).count();
    let slow_max = slow_closed.iter().max().unwrap();
    let idle_max = idle_closed.iter().max().unwrap();
    eprintln!(
        "slow heads: {} of 550 held past 1.5 s, all closed by {slow_max:?}; idle: {} of 550 held past 5.5 s, all closed by {idle_max:?}",
        late(&slow_closed, 1.5),
        late(&idle_closed, 5.5)
    );
    // Slow heads are closed at the header timeout (2 s), before the idle one (6 s); the
    // ones over the per-address cap at once (times from each connection's own opening).
    // The per-address cap (256 kept): among the connections opened before any kept one could
    // time out (the header timeout, 2 s from the flood's start), no more than 256 were kept;
    // the others were closed at once. (Counted over all 1 100, the number closed at once
    // depended on the machine's speed: a flood that takes 7 s to open frees room as its
    // first slow heads time out, and more of the later ones are kept.)
    let mut closes: Vec<(Duration, Duration)> = Vec::new();
    let (mut slow_it, mut idle_it) = (slow_closed.iter(), idle_closed.iter());
    for (i, at) in opened_at.iter().enumerate() {
        let closed = if i % 2 == 0 { slow_it.next() } else { idle_it.next() };
        closes.push((*at, *closed.unwrap()));
    }
    let window = Duration::from_secs(2);
    let in_window = closes.iter().filter(|(at, _)| *at < window).count();
    let kept_in_window = closes
        .iter()
        .filter(|(at, closed)| *at < window && closed.as_secs_f64() >= 1.5)
        .count();
    eprintln!("opened in the first 2 s: {in_window}, of them kept: {kept_in_window}");
    assert!(
        kept_in_window <= 256 + 8,
        "{kept_in_window} of the {in_window} opened in the first 2 s were kept (the cap keeps 256)"
    );
    assert!(*slow_max < Duration::from_secs(5), "slow heads closed by {slow_max:?}");
    assert!(*idle_max < Duration::from_secs(20));
    // Those the server kept were kept about their timeouts, not closed at random.
    assert!(
        late(&slow_closed, 1.5) > 0,
        "some slow heads were held until the header timeout"
    );
    assert!(
        late(&idle_closed, 5.5) > 0,
        "some idle connections were held until the idle timeout"
    );
    let log = std::fs::read_to_string(&served.log).unwrap();
    let refusals = log.lines().filter(|l| l.contains("refused")).count();
    eprintln!("log: {refusals} lines about refusals\n{log}");
    assert!(refusals >= 1, "refusals are logged");
    assert!(refusals <= 10, "refusals are logged at a limited rate");
    // The server is still well afterwards.
    let (status, _) = timed_get(flooder, addr, &state).await;
    assert_eq!(status, 200);
}

/// Exact timeouts on a few connections from one address: a slow head is closed about
/// the header timeout after its first byte, an idle connection and a kept-alive one after
/// the idle timeout, a slow body gets a JSON 408.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_heads_and_idle_connections_are_closed_after_their_timeouts() {
    let served = serve(
        "timeouts",
        &["--header-timeout", "1", "--idle-timeout", "3", "--body-timeout", "1"],
    );
    let addr = served.addr;
    let from: IpAddr = "127.0.0.3".parse().unwrap();
    let t = Instant::now();
    let mut slow = connect_from(from, addr).await.unwrap();
    slow.write_all(b"GET /api/v1 HTTP/1.1\r\n").await.unwrap();
    let idle = connect_from(from, addr).await.unwrap();
    let mut kept = connect_from(from, addr).await.unwrap();
    kept.write_all(format!("GET /api/v1 HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut body = connect_from(from, addr).await.unwrap();
    body.write_all(
        format!(
            "POST /api/v1/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{{"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let slow_t = tokio::spawn(closed_after(slow, t));
    let idle_t = tokio::spawn(closed_after(idle, t));
    let kept_t = tokio::spawn(closed_after(kept, t));
    let mut answer = Vec::new();
    tokio::time::timeout(WAIT, body.read_to_end(&mut answer))
        .await
        .unwrap()
        .unwrap();
    let body_t = t.elapsed();
    let (slow_t, idle_t, kept_t) = (slow_t.await.unwrap(), idle_t.await.unwrap(), kept_t.await.unwrap());
    eprintln!("closed after: slow head {slow_t:?}, slow body {body_t:?}, idle {idle_t:?}, kept alive {kept_t:?}");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"error\":\"request_timeout\""), "{answer}");
    let secs = |d: Duration| d.as_secs_f64();
    // Before the idle timeout: the head and body timeouts are their own.
    assert!((0.9..2.5).contains(&secs(slow_t)), "slow head {slow_t:?}");
    assert!((0.9..2.5).contains(&secs(body_t)), "slow body {body_t:?}");
    assert!((2.9..15.0).contains(&secs(idle_t)), "idle {idle_t:?}");
    assert!((2.9..15.0).contains(&secs(kept_t)), "kept alive {kept_t:?}");
}

/// The resident memory of a process, in bytes (Linux).
fn rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc is there");
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS");
    kb * 1024
}

/// How many times an event socket's opening was answered 503 busy and tried again.
static BUSY_RETRIES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Opens an event WebSocket by hand (the handshake only) and keeps it idle. A 503 busy
/// (the database pool waited past its bound: it happened once in CI on a saturated
/// machine, 20 openings at a time) is what a client should meet by waiting its
/// `retry-after` and trying again, as the web app does; this test is about memory, so it
/// does that, at most five times a socket.
async fn idle_socket(addr: SocketAddr, id: &str) -> TcpStream {
    for _ in 0..5 {
        match open_idle_socket(addr, id).await {
            Ok(s) => return s,
            Err(retry_after) => {
                BUSY_RETRIES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                tokio::time::sleep(retry_after).await;
            }
        }
    }
    panic!("the server answered 503 busy five times in a row");
}

/// One try of [`idle_socket`]: the socket, or how long a 503 busy asked to wait.
async fn open_idle_socket(addr: SocketAddr, id: &str) -> Result<TcpStream, Duration> {
    let mut s = TcpStream::connect(addr).await.expect("connects");
    let req = format!(
        "GET /api/v1/games/{id}/events HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    // The 101 and the snapshot: read until the snapshot's frame has come (it is the
    // first thing after the head); enough that the server has done its work.
    let mut buf = vec![0u8; 16 * 1024];
    let mut got = Vec::new();
    loop {
        let n = tokio::time::timeout(WAIT, s.read(&mut buf))
            .await
            .expect("answers in time")
            .unwrap();
        assert!(n > 0, "the server closed a socket: {}", String::from_utf8_lossy(&got));
        got.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&got);
        let Some((head, _)) = text.split_once("\r\n\r\n") else {
            continue;
        };
        if head.starts_with("HTTP/1.1 503") {
            let secs = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("retry-after:")
                        .map(|v| v.trim().to_string())
                })
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or_else(|| panic!("a 503 says when to try again: {head}"));
            return Err(Duration::from_secs(secs));
        }
        assert!(head.starts_with("HTTP/1.1 101"), "{text}");
        if text.contains("snapshot") {
            return Ok(s);
        }
    }
}

/// The retry above, against a stand-in server whose first answer is a 503 busy: the helper
/// waits the second it is told and opens the socket on the second try.
#[tokio::test]
async fn an_event_socket_answered_503_busy_is_opened_again_after_its_retry_after() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        let answers = [
            "HTTP/1.1 503 Service Unavailable\r\nretry-after: 1\r\ncontent-length: 16\r\n\r\n{\"error\":\"busy\"}",
            "HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n\r\n\u{81}\u{14}{\"type\":\"snapshot\"}",
        ];
        let mut kept = Vec::new();
        for answer in answers {
            let (mut s, _) = listener.accept().await.unwrap();
            let mut buf = [0u8; 1024];
            let _ = s.read(&mut buf).await.unwrap();
            s.write_all(answer.as_bytes()).await.unwrap();
            kept.push(s);
        }
        kept
    });
    let before = BUSY_RETRIES.load(std::sync::atomic::Ordering::Relaxed);
    let t = Instant::now();
    let _socket = idle_socket(addr, "0123456789abcdef").await;
    assert!(t.elapsed() >= Duration::from_millis(900), "waited {:?}", t.elapsed());
    assert!(BUSY_RETRIES.load(std::sync::atomic::Ordering::Relaxed) > before);
    assert_eq!(server.await.unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_thousand_idle_sockets_fit_in_200_mb_and_memory_is_given_back() {
    rumis_server::edge::raise_fd_limit();
    let served = serve_with_fds(
        "sockets",
        4096,
        &[
            "--max-connections-per-address",
            "3000",
            "--ws-per-address",
            "3000",
            "--ws-per-game",
            "3000",
        ],
    );
    let addr = served.addr;
    let pid = served.child.id();
    let r = client::post(
        addr,
        "/api/v1/games",
        None,
        &json!({ "board": "coricancha", "players": 4 }),
    )
    .await
    .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_str().unwrap().to_string();
    let mb = |b: u64| b as f64 / (1024.0 * 1024.0);
    let before = rss(pid);
    let t = Instant::now();
    let mut sockets = Vec::new();
    for _ in 0..100 {
        let batch: Vec<_> = (0..20)
            .map(|_| {
                let id = id.clone();
                tokio::spawn(async move { idle_socket(addr, &id).await })
            })
            .collect();
        for b in batch {
            sockets.push(b.await.unwrap());
        }
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let open = rss(pid);
    eprintln!(
        "2000 sockets opened in {:?} ({} openings answered 503 busy and tried again)",
        t.elapsed(),
        BUSY_RETRIES.load(std::sync::atomic::Ordering::Relaxed)
    );
    drop(sockets);
    // The server sees the closes, ends the sessions and frees their memory.
    let mut after = rss(pid);
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        after = rss(pid);
        if mb(after) < mb(before) + 0.5 * (mb(open) - mb(before)) {
            break;
        }
    }
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| d.count())
        .unwrap_or(0);
    eprintln!("server open files after the close: {fds}");
    eprintln!(
        "server resident memory: {:.1} MB before, {:.1} MB with 2000 idle sockets ({:.0} KB a socket), {:.1} MB after they closed",
        mb(before),
        mb(open),
        (open.saturating_sub(before)) as f64 / 2000.0 / 1024.0,
        mb(after)
    );
    assert!(mb(open) < 200.0, "{:.1} MB with 2000 sockets", mb(open));
    assert!(
        mb(after) < mb(before) + 0.5 * (mb(open) - mb(before)),
        "memory given back: {:.1} MB after",
        mb(after)
    );
    // Still serving.
    let (status, _) = timed_get("127.0.0.1".parse().unwrap(), addr, &format!("/api/v1/games/{id}")).await;
    assert_eq!(status, 200);
}
