//! The core's tests, one test binary (issue #19: a binary per file meant ten links of
//! the same code in every clean test build). Each module is one subject; `common` holds the
//! slow oracle and the shared configurations. Two stay binaries of their own:
//! `code_path_refused.rs` sets the process's `RUMIS_CODE_PATH`, and `serde.rs` needs the
//! `serde` feature.

mod common;

mod codepaths;
mod oracle;
mod perft;
mod perft_boards;
mod perft_deep;
mod properties;
mod records;
mod retire;
mod rules;
mod stuck_rule;
