//! `rumis serve --log-format json`: each line on standard error is a JSON object, and the
//! access line of a request carries the id its answer's `X-Request-Id` says.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rumis_test_client as client;
use serde_json::Value;

const WAIT: Duration = Duration::from_secs(60);

struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_carry_the_request_id() {
    let dir = crate::scratch().join(format!("rumis-serve-logs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("logs.db").display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_rumis"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--database-url",
            &db,
            "--log-format",
            "json",
        ])
        .env("RUST_LOG", "info,rumis_server::access=debug")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rumis serve starts");
    let stdout = child.stdout.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let child = Killed(child);
    let mut first = String::new();
    tokio::task::block_in_place(|| BufReader::new(stdout).read_line(&mut first)).unwrap();
    let addr: std::net::SocketAddr = first
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });

    let r = client::get(addr, "/api/v1/boards").await.expect("an answer");
    assert_eq!(r.status, 200);
    let id = r.header("x-request-id").expect("a request id").to_string();
    let deadline = Instant::now() + WAIT;
    let line = tokio::task::block_in_place(|| loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = rx.recv_timeout(left).expect("the request's log line in time");
        let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        if v["span"]["id"] == id.as_str() {
            break v;
        }
    });
    assert_eq!(line["fields"]["message"], "answered", "{line}");
    assert_eq!(line["fields"]["route"], "/api/v1/boards", "{line}");
    assert_eq!(line["fields"]["status"], 200, "{line}");
    assert_eq!(line["span"]["name"], "request", "{line}");
    drop(child);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The options of this file refuse what they cannot use, before anything starts.
#[test]
fn bad_drain_seconds_and_log_formats_are_refused() {
    for (args, said) in [
        (&["--drain-seconds=-1"][..], "--drain-seconds"),
        (&["--drain-seconds", "NaN"][..], "--drain-seconds"),
        (&["--log-format", "xml"][..], "xml"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_rumis"))
            .args(["serve", "--addr", "127.0.0.1:0", "--database-url", "sqlite::memory:"])
            .args(args)
            .output()
            .expect("rumis runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} was accepted");
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(!err.contains("rumis server on"), "{args:?}: {err}");
    }
}
