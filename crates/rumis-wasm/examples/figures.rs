//! The speed figures of the engine natively, for the side-by-side with the browser
//! (web/scripts/wasm-figures.mjs runs the same requests in Chromium):
//! `cargo run --release -p rumis-wasm --example figures`.

use std::time::Instant;

use serde_json::{json, Value};

fn call(v: Value) -> Value {
    serde_json::from_str(&rumis_wasm::handle(&v.to_string())).expect("an answer is JSON")
}

fn main() {
    for (board, players, count) in [("chullpa", 4, 20_000), ("coricancha", 4, 5_000)] {
        let record = call(json!({ "cmd": "new", "board": board, "players": players }))["record"].clone();
        let t = Instant::now();
        let a = call(json!({ "cmd": "playouts", "record": record, "count": count, "seed": 1 }));
        let s = t.elapsed().as_secs_f64();
        println!(
            "{board} {players}p: {} random playouts in {s:.3} s = {:.0} games/s natively",
            a["games"],
            count as f64 / s
        );
    }
    let record = call(json!({ "cmd": "new", "board": "coricancha", "players": 4 }))["record"].clone();
    let t = Instant::now();
    let a = call(json!({ "cmd": "ai", "record": record, "level": 8, "seed": 1 }));
    println!(
        "coricancha 4p level 8 first move: {} ({} simulations) in {:.3} s natively",
        a["placement"],
        a["simulations"],
        t.elapsed().as_secs_f64()
    );
}
