//! A clock survives a crash of `rumis serve` (on SQLite and PostgreSQL): the real binary is killed with SIGKILL with a
//! game's clock running and started again on the same database; the time left is within a
//! second of the truth (the time that passed since the clock started, downtime included),
//! and a timeout that fell due while the server was down fires once it is back.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rumis_test_client as client;
use serde_json::{json, Value};

const WAIT: Duration = Duration::from_secs(60);

struct Served {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(url: &str) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rumis"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--database-url",
            url,
            "--rate",
            "100000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
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
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    Served { child, addr }
}

async fn state(addr: SocketAddr, id: &str) -> Value {
    let r = client::get(addr, &format!("/api/v1/games/{id}")).await.expect("state");
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

async fn create(addr: SocketAddr, clock: Value) -> Value {
    let seats = json!([{ "kind": "human" }, { "kind": "human" }]);
    let body = json!({ "board": "chullpa", "players": 2, "seats": seats, "clock": clock });
    let r = client::post(addr, "/api/v1/games", None, &body).await.expect("create");
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

fn left(st: &Value, seat: usize) -> i64 {
    st["clock"]["seats"][seat]["remaining_ms"].as_i64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_survives_sigkill_and_a_timeout_due_meanwhile_fires() {
    let dir = crate::scratch().join(format!("rumis-serve-clock-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    clock_survives_sigkill(&format!("sqlite://{}", dir.join("rumis.db").display())).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same on PostgreSQL. Built to run only when `RUMIS_TEST_POSTGRES_URL` is set
/// (build.rs); else listed as ignored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(rumis_postgres_tests), ignore = "needs RUMIS_TEST_POSTGRES_URL")]
async fn a_clock_survives_sigkill_on_postgres() {
    let admin = std::env::var("RUMIS_TEST_POSTGRES_URL")
        .expect("RUMIS_TEST_POSTGRES_URL: the tests were built with it set, so it must be set to run them");
    let (base, _) = admin.rsplit_once('/').expect("a PostgreSQL URL ends in /database");
    // The server creates the database.
    let url = format!("{base}/rumis_test_serve_clock_{}", std::process::id());
    clock_survives_sigkill(&url).await;
    rumis_server::drop_database(&url)
        .await
        .expect("the test database is dropped");
}

async fn clock_survives_sigkill(url: &str) {
    let mut server = serve(url);
    // A 10-minute clock (Red's time runs from the creation) and a 6-second one.
    // The long clock starts while its game is created: after `asked`, before `created`.
    let asked = Instant::now();
    let long = create(server.addr, json!({ "kind": "realtime", "minutes": 10 })).await;
    let created = Instant::now();
    let short = create(server.addr, json!({ "kind": "realtime", "minutes": 0.1 })).await;
    let (long, short) = (
        long["id"].as_str().unwrap().to_string(),
        short["id"].as_str().unwrap().to_string(),
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    // SIGKILL: no shutdown of any kind.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    // Down for 7 s: the short clock runs out meanwhile.
    tokio::time::sleep(Duration::from_secs(7)).await;
    server = serve(url);
    let read = Instant::now();
    let st = state(server.addr, &long).await;
    // The truth lies between the time left if the clock started at `asked` and was read once
    // the state answered, and the time left if it started at `created` and was read at
    // `read` (a loaded machine can take a second to answer); the shown time is within a
    // second of that span.
    let least = 600_000 - asked.elapsed().as_millis() as i64;
    let most = 600_000 - (read - created).as_millis() as i64;
    let shown = left(&st, 0);
    assert!(
        least - 1_000 <= shown && shown <= most + 1_000,
        "shown {shown} ms, truth between {least} and {most} ms"
    );
    assert_eq!(st["clock"]["running_seat"], 0);
    // The short game's timeout fell due while the server was down: it fires now, once.
    let deadline = Instant::now() + WAIT;
    loop {
        let st = state(server.addr, &short).await;
        if st["left"].as_array().is_some_and(|l| !l.is_empty()) {
            assert_eq!(
                st["left"],
                json!([{ "colour": "R", "after_move": 0, "reason": "time" }])
            );
            // Red forfeited: Yellow, the only player left, wins at once (rules §5.1).
            assert_eq!(
                (st["over"].clone(), st["winners"].clone()),
                (json!(true), json!([1])),
                "{st}"
            );
            break;
        }
        assert!(Instant::now() < deadline, "no timeout after the restart: {st}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(server);
}
