//! The server under load: a `rumis serve` child process, and what /proc says of its memory
//! and CPU (and of this client's).

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

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

    /// SIGINT (the server stops cleanly), then SIGKILL after 10 s.
    pub fn stop(mut self) -> String {
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
pub fn memory_kb(pid: u32) -> (u64, u64) {
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
pub fn cpu_seconds(pid: u32) -> f64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // After the command's ")" the fields start at 3 (state); utime and stime are 14 and 15.
    let rest = text.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i - 3).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // SAFETY: sysconf only reads a constant.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    (ticks(14) + ticks(15)) / hz.max(1.0)
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
