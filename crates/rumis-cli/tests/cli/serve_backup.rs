//! `rumis db backup` while `rumis serve` runs and players submit moves: the backup,
//! restored into a new database with `rumis db restore` and checked with `rumis db check`,
//! holds every move acknowledged before the backup began (and the server started on it
//! serves them).

use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rumis_test_client as client;
use serde_json::json;

use crate::serve_crash::{create, serve, state};

const WAIT: Duration = Duration::from_secs(60);

/// (game, move number, placement) of each acknowledged move, in order.
type Log = Arc<Mutex<Vec<(String, i64, String)>>>;

/// `rumis ARGS`: (success, stdout, stderr).
fn rumis(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rumis"))
        .args(args)
        .output()
        .expect("rumis runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Plays every seat of a game (its tokens) until stopped, logging each move acknowledged.
async fn player(addr: SocketAddr, id: String, tokens: Vec<Option<String>>, stop: Arc<AtomicBool>, log: Log) {
    let mut k = 0usize;
    while !stop.load(Ordering::SeqCst) {
        let st = state(addr, &id).await;
        let (Some(seat), Some(legal), Some(n)) = (
            st["seat_to_move"].as_u64(),
            st["legal_moves"].as_array(),
            st["move_number"].as_i64(),
        ) else {
            break; // over
        };
        let token = tokens[seat as usize].clone().expect("every seat is human");
        let m = legal[(k * 5) % legal.len()].as_str().unwrap().to_string();
        k += 1;
        let body = json!({ "placement": m, "expected_move_number": n });
        let r = client::post(addr, &format!("/api/v1/games/{id}/moves"), Some(&token), &body)
            .await
            .expect("the move is answered");
        assert_eq!(r.status, 201, "{}", r.text());
        log.lock().unwrap().push((id.clone(), n, m));
    }
}

fn url_of(path: &Path) -> String {
    format!("sqlite://{}", path.display())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_serving_restores_every_acknowledged_move() {
    let dir = crate::scratch().join(format!("rumis-serve-backup-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = url_of(&dir.join("live.db"));
    let server = serve(&db, &["--ai-workers", "0"]);
    let addr = server.addr;
    let stop = Arc::new(AtomicBool::new(false));
    let log: Log = Default::default();
    let mut players = Vec::new();
    for board in ["pisac", "tambo", "coricancha"] {
        let (id, tokens) = create(addr, json!({ "board": board, "players": 4 })).await;
        players.push(tokio::spawn(player(addr, id, tokens, stop.clone(), log.clone())));
    }
    tokio::time::timeout(WAIT, async {
        while log.lock().unwrap().len() < 24 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("moves are played");

    // The backup, while the players go on submitting.
    let backup = dir.join("backup.db");
    let before = log.lock().unwrap().clone();
    let backup_arg = backup.to_str().unwrap().to_string();
    let (ok, out, err) = tokio::task::block_in_place(|| rumis(&["db", "backup", &backup_arg, "--database-url", &db]));
    assert!(ok, "{out}{err}");
    assert!(out.contains("backed up"), "{out}");
    let during = log.lock().unwrap().len();
    stop.store(true, Ordering::SeqCst);
    for p in players {
        p.await.unwrap();
    }
    drop(server);
    eprintln!(
        "backup: {} moves acknowledged before it began, {} by its end",
        before.len(),
        during
    );

    // A file that exists is not overwritten; nor is a database.
    let (ok, _, err) = rumis(&["db", "backup", &backup_arg, "--database-url", &db]);
    assert!(!ok && err.contains("exists already"), "{err}");
    let (ok, _, err) = rumis(&["db", "restore", &backup_arg, "--database-url", &db]);
    assert!(!ok && err.contains("exists already"), "{err}");
    let (ok, _, err) = rumis(&["db", "backup", "x.db", "--database-url", "postgres://u@127.0.0.1/x"]);
    assert!(!ok && err.contains("pg_dump"), "{err}");

    let (ok, _, err) = rumis(&["db", "check", "--database-url", &url_of(&dir.join("missing.db"))]);
    assert!(!ok && err.contains("there is no database at"), "{err}");
    assert!(!dir.join("missing.db").exists(), "a check creates no database");

    let restored = url_of(&dir.join("restored.db"));
    let (ok, out, err) = rumis(&["db", "restore", &backup_arg, "--database-url", &restored]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("integrity: ok") && out.contains("restored"), "{out}");
    let (ok, out, err) = rumis(&["db", "check", "--database-url", &restored]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("integrity: ok") && out.contains("migrations: all"),
        "{out}"
    );

    // Every move acknowledged before the backup began is in the restored database.
    let server = serve(&restored, &["--ai-workers", "0"]);
    for game in before
        .iter()
        .map(|(g, _, _)| g.clone())
        .collect::<std::collections::BTreeSet<_>>()
    {
        let st = state(server.addr, &game).await;
        let moves = st["moves"].as_array().unwrap();
        for (_, n, m) in before.iter().filter(|(g, _, _)| *g == game) {
            let kept = &moves[(*n - 1) as usize];
            assert_eq!(kept["placement"], m.as_str(), "move {n} of {game}: {st}");
        }
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
