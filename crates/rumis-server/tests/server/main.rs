//! The server's tests, one test binary (issue #19: twelve binaries each linked the whole
//! server, a tenth of a clean test build). Each module is one subject; `common` holds the
//! helpers and `on_both_databases!` (a test on SQLite, and one on PostgreSQL).

#[macro_use]
mod common;

mod ai_share;
mod api;
mod boards;
mod clock;
mod crash;
mod edge;
mod endings;
mod from_position;
mod integrity;
mod lessons;
mod lobby;
mod lobby_refusals;
mod migrations;
mod openapi;
mod ops;
mod own_boards;
mod player_keys;
mod positions;
mod resets;
mod review;
mod robust;
mod shutdown;
mod sockets;
mod takeover;
mod training;
mod web_files;
