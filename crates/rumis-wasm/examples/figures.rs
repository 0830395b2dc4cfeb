//! The speed figures of the engine natively, for the side-by-side with WebAssembly
//! (web/scripts/wasm-bench.mjs in Node.js and web/scripts/wasm-figures.mjs in Chromium
//! run the same requests): `cargo run --release -p rumis-wasm --example figures`.
//!
//! With an argument, a JSON list of `{"name", "setup", "request"}`: each `setup` (a `new`
//! request) makes a record, `request` is timed with it (its `record` filled in); one JSON
//! line per figure, `{"name", "seconds", "answer"}`. Without, the default list below.

use std::time::Instant;

use serde_json::{json, Value};

fn call(v: &Value) -> Value {
    serde_json::from_str(&rumis_wasm::handle(&v.to_string())).expect("an answer is JSON")
}

fn main() {
    let list: Value = match std::env::args().nth(1) {
        Some(text) => serde_json::from_str(&text).expect("a JSON list of figures"),
        None => json!([
            { "name": "chullpa 4p playouts", "setup": { "cmd": "new", "board": "chullpa", "players": 4 },
              "request": { "cmd": "playouts", "count": 20000, "seed": 1 } },
            { "name": "coricancha 4p playouts", "setup": { "cmd": "new", "board": "coricancha", "players": 4 },
              "request": { "cmd": "playouts", "count": 5000, "seed": 1 } },
            { "name": "coricancha 4p level 8", "setup": { "cmd": "new", "board": "coricancha", "players": 4 },
              "request": { "cmd": "ai", "level": 8, "seed": 1 } },
        ]),
    };
    let engine = call(&json!({ "cmd": "engine" }));
    eprintln!("native code path: {}", engine["code_path"]);
    for f in list.as_array().expect("a list") {
        let record = call(&f["setup"])["record"].clone();
        let mut request = f["request"].clone();
        request["record"] = record;
        let t = Instant::now();
        let answer = call(&request);
        let seconds = t.elapsed().as_secs_f64();
        println!("{}", json!({ "name": f["name"], "seconds": seconds, "answer": answer }));
    }
}
