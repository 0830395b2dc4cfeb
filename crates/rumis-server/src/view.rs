//! The JSON view of a game, computed by the core from the stored moves.

use rumis_core::{Cube, Game, Move, Outcome, Position, Site};
use serde_json::{json, Value};

use crate::service::Loaded;
use crate::store::Summary;

/// The game after its first `at` moves (all of them when `None`, or when `at` is more).
pub fn game_at(l: &Loaded, at: Option<usize>) -> Game {
    let played = l.game.moves().len();
    let shown = at.unwrap_or(played).min(played);
    let mut game: Game = l.game.clone();
    while game.moves().len() > shown {
        game.undo();
    }
    game
}

/// Cubes as `[[x, y, z], ...]`.
pub fn cubes_json(cubes: &[(u8, u8, u8)]) -> Value {
    json!(cubes.iter().map(|&(x, y, z)| [x, y, z]).collect::<Vec<_>>())
}

/// A placement for the colour to move, with the cubes it would occupy (computed by the
/// core).
pub fn placement(game: &Game, m: Move) -> Value {
    placement_on(game.site(), game.position(), m)
}

/// A placement on a position, with its stone, orientation and the cubes it would occupy.
pub fn placement_on(site: &Site, pos: &Position, m: Move) -> Value {
    let t = site.template(m);
    json!({
        "placement": site.notation(m),
        "stone": t.stone.code(),
        "orientation": t.orientation,
        "cubes": cubes_json(&site.cubes(pos, m)),
    })
}

/// Every legal placement of the colour to move after the first `at` moves, sorted by text.
pub fn placements(l: &Loaded, at: Option<usize>) -> Value {
    let game = game_at(l, at);
    let mut list: Vec<(String, Move)> = game.legal_moves().into_iter().map(|m| (game.notation(m), m)).collect();
    list.sort();
    json!({
        "move_number": game.moves().len() + 1,
        "colour": game.to_move().map(|c| c.to_string()),
        "placements": list.iter().map(|&(_, m)| placement(&game, m)).collect::<Vec<_>>(),
    })
}

/// The last move played in `game`, with the cubes it took (on the position before it).
fn last_move(game: &Game) -> Value {
    let n = game.moves().len();
    let (Some(&m), Some(before), Some(colour)) = (
        game.moves().last(),
        n.checked_sub(1).and_then(|i| game.positions().get(i)),
        n.checked_sub(1).and_then(|i| game.mover(i)),
    ) else {
        return Value::Null;
    };
    json!({
        "number": n,
        "colour": colour.to_string(),
        "placement": game.notation(m),
        "cubes": cubes_json(&game.site().cubes(before, m)),
    })
}

/// A game's state after its first `at` moves (all of them when `None`).
pub fn state(l: &Loaded, at: Option<usize>) -> Value {
    let played = l.game.moves().len();
    let game = game_at(l, at);
    let shown = game.moves().len();
    let site = game.site();
    let pos = game.position();
    let board = &site.board;
    let columns: Vec<Value> = site
        .footprint()
        .map(|c| {
            let cubes: Vec<String> = (1..=pos.height(c))
                .map(|z| pos.cube(c, z).map(Cube::letter).unwrap_or('?').to_string())
                .collect();
            json!({
                "cell": site.column_name(c),
                "x": c % board.files,
                "y": c / board.files,
                "limit": site.limit[c],
                "height": pos.height(c),
                "top": pos.top(c).map(|t| t.letter().to_string()),
                "cubes": cubes,
            })
        })
        .collect();
    let Outcome {
        scores,
        players,
        winners,
    } = game.outcome();
    let over = game.is_over();
    let colours: Vec<Value> = site
        .order
        .iter()
        .map(|&c| {
            let stones: Vec<String> = pos.stones_left(c).iter().map(|s| s.code().to_string()).collect();
            json!({
                "colour": c.to_string(),
                "name": c.name(),
                "seat": site.player_of(c),
                "out": pos.is_out(c),
                "score": scores.iter().find(|s| s.0 == c).map(|s| s.1),
                "stones_left": stones,
            })
        })
        .collect();
    let seats: Vec<Value> = l
        .seats
        .iter()
        .map(|s| {
            json!({
                "seat": s.seat,
                "colours": s.colours.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
                "kind": s.kind.name(),
                "level": (s.level > 0).then_some(s.level),
            })
        })
        .collect();
    let moves: Vec<Value> = l.moves[..shown]
        .iter()
        .map(|m| json!({ "number": m.number, "colour": m.colour, "placement": m.placement, "created": m.created }))
        .collect();
    let to_move = game.to_move();
    json!({
        "id": l.id,
        "status": l.status,
        "created": l.created,
        "updated": l.updated,
        "hot_seat": l.setup.hot_seat,
        "site": {
            "board": board.name,
            "files": board.files,
            "ranks": board.ranks,
            "players": site.players,
            "variant": site.variant.name(),
            "colours": site.order.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "ruin_colour": site.ruin_colour.map(|c| c.to_string()),
            "ruins": l.setup.ruins,
            "hmax": board.hmax(site.limit_players),
        },
        "seats": seats,
        "moves_played": played,
        "at": shown,
        "move_number": shown + 1,
        "to_move": to_move.map(|c| c.to_string()),
        "seat_to_move": to_move.and_then(|c| site.player_of(c)),
        "over": over,
        "colours": colours,
        "players": players,
        "winners": if over { json!(winners) } else { Value::Null },
        "moves": moves,
        "last_move": last_move(&game),
        "legal_moves": game.legal_notations(),
        "position": { "cube_count": pos.cube_count(), "columns": columns },
    })
}

pub fn summary(s: &Summary) -> Value {
    json!({
        "id": s.id,
        "board": s.board,
        "players": s.players,
        "variant": s.variant,
        "status": s.status,
        "to_move": (!s.to_move.is_empty()).then_some(&s.to_move),
        "moves_played": s.move_count,
        "move_number": s.move_count + 1,
        "created": s.created,
        "updated": s.updated,
    })
}
