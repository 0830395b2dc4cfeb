//! The `rumis` binary's tests, one test binary (issue #19: one per file linked the server
//! four times in every clean test build): `commands` runs the commands as a user types
//! them, `players` those of the AI's players; `serve_*` run `rumis serve` as a process (a
//! backup while it serves, a clock across a restart, a crash, the edge limits).

mod commands;
mod players;
#[cfg(feature = "server")]
mod serve_backup;
#[cfg(feature = "server")]
mod serve_clock;
#[cfg(feature = "server")]
mod serve_crash;
#[cfg(feature = "server")]
mod serve_edge;
#[cfg(feature = "server")]
mod serve_logs;

/// Where the tests write their files: cargo's scratch directory for integration tests
/// (under `target/`), so a test run leaves nothing behind in the system's `/tmp`.
pub fn scratch() -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
