//! A conversation with `rumis engine` (docs/engine-protocol.md): never a panic, and the
//! output is a sequence of answers under the documented framing, one per command.
//! Each input is kept cheap, so that ten million conversations fit in well under an hour
//! on one core: the engine plays at level 1, level/thread changes are dropped from the
//! input, a conversation is at most 64 lines, and at most one command that lists, chooses
//! among or draws all legal moves (`genmove`, `legal_moves`, a Ruinas `new_game`, whose
//! random ruins are placed moves) runs in one; the engine builds each setup's site once per
//! process (engine.rs), so a conversation costs its commands, not its set-up. The fuzzer
//! spends its time on the protocol and the game commands rather than on move generation.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../crates/rumis-cli/src/text.rs"]
mod text;

#[allow(dead_code)]
#[path = "../../crates/rumis-cli/src/engine.rs"]
mod engine;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    let mut script = String::from("set_level 1\n");
    let mut commands = 1;
    let mut heavy = 0;
    for line in input.lines().take(64) {
        if line.contains("set_level") || line.contains("set_threads") || line.contains('\r') {
            continue;
        }
        if line.contains("genmove") || line.contains("legal_moves") || line.contains("ruinas") {
            heavy += 1;
            if heavy > 1 {
                continue;
            }
        }
        script.push_str(line);
        script.push('\n');
        let command = line.split('#').next().unwrap_or("").trim();
        if !command.is_empty() {
            commands += 1;
            if command.split_whitespace().any(|w| w == "quit") && is_quit(command) {
                break;
            }
        }
    }
    let mut out = Vec::new();
    engine::converse(script.as_bytes(), &mut out).expect("writing to memory");
    let out = String::from_utf8(out).expect("answers are UTF-8");
    // Framing: answers end with an empty line and hold none; each starts with = or ?.
    let answers: Vec<&str> = out.split_terminator("\n\n").collect();
    assert!(out.is_empty() || out.ends_with("\n\n"), "{out:?}");
    for a in &answers {
        assert!(a.starts_with('=') || a.starts_with('?'), "{a:?} in {out:?}");
        assert!(!a.split('\n').skip(1).any(str::is_empty), "{a:?}");
    }
    assert_eq!(answers.len(), commands, "{script:?}\n{out:?}");
});

/// `quit` or `ID quit` (the engine stops there).
fn is_quit(command: &str) -> bool {
    let mut words = command.split_whitespace();
    match words.next() {
        Some("quit") => true,
        Some(w) if w.chars().all(|c| c.is_ascii_digit()) => words.next() == Some("quit"),
        _ => false,
    }
}
