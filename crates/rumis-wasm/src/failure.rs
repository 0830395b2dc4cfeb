//! A command's failure, as the engine answers it (the server's error body's shape).

use rumis_wire as wire;

/// A failed command: a stable code for programs and a sentence for people, and fields for
/// a program as the server's error body has them (a refused board file's `file`, `line`
/// and `message`; boxed, as most refusals have none and every command's result carries a
/// `Failure`).
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub code: &'static str,
    pub reason: String,
    pub detail: Box<wire::ErrorDetail>,
}

pub(crate) fn fail(code: &'static str, reason: impl Into<String>) -> Failure {
    Failure {
        code,
        reason: reason.into(),
        detail: Box::default(),
    }
}
