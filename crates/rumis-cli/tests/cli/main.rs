//! The `rumis` binary's tests, one test binary (issue #19: one per file linked the server
//! four times in every clean test build): `commands` runs the commands as a user types
//! them; `serve_*` run `rumis serve` as a process (a clock across a restart, a crash, the
//! edge limits).

mod commands;
mod serve_clock;
mod serve_crash;
mod serve_edge;
