//! The server under load: a `rumis serve` child process, and what /proc says of its memory
//! and CPU (and of this client's).

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::support::stop_child;
use crate::{Options, WATCHERS};

pub struct ServerProcess {
    child: std::process::Child,
    pub addr: SocketAddr,
    log: std::path::PathBuf,
}

pub fn start_server(o: &Options, url: &str, dir: &std::path::Path) -> ServerProcess {
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
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Stops the server (`stop_child`); its log.
    pub fn stop(mut self) -> String {
        stop_child(&mut self.child);
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

pub fn own_cpu_seconds() -> f64 {
    // SAFETY: rusage is a struct of integers, for which all zeroes is a value.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes the struct given.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 / 1e6;
    t(u.ru_utime) + t(u.ru_stime)
}

pub fn wall_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The client's own limit of open files, raised for its 4 N connections.
pub fn raise_own_fd_limit() {
    let _ = rumis_server::edge::raise_fd_limit();
}
