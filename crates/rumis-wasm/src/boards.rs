//! The built-in boards and the stones, in the shape of the server's `GET /boards` and
//! `GET /stones`, for a start page without a server.

use rumis_core::cell_name;
use rumis_core::{Board, Stone};
use serde_json::{json, Value};

pub fn board_json(b: &Board) -> Value {
    let per_count = |f: &dyn Fn(usize) -> Value| json!({ "2": f(2), "3": f(3), "4": f(4) });
    json!({
        "name": b.name,
        "aliases": b.aliases,
        "provenance": b.provenance.as_str(),
        "source": b.source,
        "files": b.files,
        "ranks": b.ranks,
        "hmax": per_count(&|p| json!(b.hmax(p))),
        "layouts": per_count(&|p| layout(b, p)),
    })
}

/// The buildable cells for `players`, frames applied.
fn layout(b: &Board, players: usize) -> Value {
    let cells: Vec<Value> = b
        .layout(players)
        .into_iter()
        .map(|(x, y, printed, limit)| json!({ "cell": cell_name(x, y), "x": x, "y": y, "printed": printed, "limit": limit }))
        .collect();
    json!({ "hmax": b.hmax(players), "cells": cells })
}

pub fn stone_json(s: Stone) -> Value {
    let orientations = s.orientations();
    json!({
        "code": s.code(),
        "size": s.size(),
        "orientations": orientations
            .iter()
            .map(|cells| cells.iter().map(|&(x, y, z)| [x, y, z]).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
        "turns": (0..orientations.len())
            .map(|o| [s.turn(o, 0), s.turn(o, 1), s.turn(o, 2)])
            .collect::<Vec<_>>(),
    })
}
