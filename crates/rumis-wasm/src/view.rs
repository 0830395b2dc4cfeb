//! What the app draws, in the shape of the server's answers (`GET /games/{id}`, `GET
//! /games/{id}/placements`: docs/server-api.md), so the same view modules draw a local game.

use rumis_core::{Colour, Cube, Game, Move, Outcome, Site};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// Who sits at a player's place: `"human"` or `"ai"` with a level.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct Seat {
    pub kind: String,
    #[serde(default)]
    pub level: Option<u8>,
}

/// What the app knows of a local game beyond its record.
#[derive(Default)]
pub struct Context {
    pub id: String,
    pub seats: Vec<Seat>,
    pub hot_seat: bool,
}

/// The facts of a site the view needs. The one place that reads `Site`'s fields, so a
/// change of the core's field access touches only this function.
struct Facts {
    board: String,
    files: usize,
    ranks: usize,
    players: usize,
    variant: &'static str,
    order: Vec<Colour>,
    ruin_colour: Option<Colour>,
    hmax: u8,
}

fn facts(site: &Site) -> Facts {
    Facts {
        board: site.board().name.clone(),
        files: site.board().files,
        ranks: site.board().ranks,
        players: site.players(),
        variant: site.variant().name(),
        order: site.order().to_vec(),
        ruin_colour: site.ruin_colour(),
        hmax: site.board().hmax(site.limit_players()),
    }
}

/// The height limit of column `c` (0 where not buildable).
fn limit(site: &Site, c: usize) -> u8 {
    site.limits()[c]
}

pub fn colours_in_order(game: &Game) -> Vec<Colour> {
    facts(game.site()).order
}

/// (board, players, variant) of a game.
pub fn setup_of(game: &Game) -> (String, usize, &'static str) {
    let f = facts(game.site());
    (f.board, f.players, f.variant)
}

fn cubes_json(cubes: &[(u8, u8, u8)]) -> Value {
    json!(cubes.iter().map(|&(x, y, z)| [x, y, z]).collect::<Vec<_>>())
}

/// A placement for the colour to move, with the cubes it would occupy (computed by the
/// core).
pub fn placement(game: &Game, m: Move) -> Value {
    let site = game.site();
    let t = site.template(m);
    json!({
        "placement": site.notation(m),
        "stone": t.stone.code(),
        "orientation": t.orientation as usize,
        "cubes": cubes_json(&site.cubes(game.position(), m)),
    })
}

/// Every legal placement of the colour to move, sorted by text.
pub fn placements(game: &Game) -> Value {
    let mut list: Vec<(String, Move)> = game.legal_moves().into_iter().map(|m| (game.notation(m), m)).collect();
    list.sort();
    json!({
        "move_number": game.moves().len() + 1,
        "colour": game.to_move().map(|c| c.to_string()),
        "placements": list.iter().map(|&(_, m)| placement(game, m)).collect::<Vec<_>>(),
    })
}

/// The state after the first `at` moves (all when `None` or more).
pub fn state_at(game: &Game, at: Option<usize>, ctx: &Context) -> Value {
    let played = game.moves().len();
    let mut shown = game.clone();
    while shown.moves().len() > at.unwrap_or(played).min(played) {
        shown.undo();
    }
    let mut v = state(&shown, ctx);
    v["moves_played"] = json!(played);
    v["status"] = json!(if game.is_over() { "finished" } else { "open" });
    v
}

/// The state of a game as it is now.
pub fn state(game: &Game, ctx: &Context) -> Value {
    let site = game.site();
    let f = facts(site);
    let pos = game.position();
    let shown = game.moves().len();
    let columns: Vec<Value> = site
        .footprint()
        .map(|c| {
            json!({
                "cell": site.column_name(c),
                "x": c % f.files,
                "y": c / f.files,
                "limit": limit(site, c),
                "height": pos.height(c),
                "top": pos.top(c).map(|t| t.letter().to_string()),
                "cubes": (1..=pos.height(c))
                    .map(|z| pos.cube(c, z).map(Cube::letter).unwrap_or('?').to_string())
                    .collect::<Vec<_>>(),
            })
        })
        .collect();
    let Outcome {
        scores,
        players,
        winners,
    } = game.outcome();
    let over = game.is_over();
    let colours: Vec<Value> = f
        .order
        .iter()
        .map(|&c| {
            json!({
                "colour": c.to_string(),
                "name": c.name(),
                "seat": site.player_of(c),
                "out": pos.is_out(c),
                "score": scores.iter().find(|s| s.0 == c).map(|s| s.1),
                "stones_left": pos.stones_left(c).iter().map(|s| s.code()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let seats: Vec<Value> = (0..f.players)
        .map(|p| {
            let seat = ctx.seats.get(p).cloned().unwrap_or(Seat {
                kind: "human".into(),
                level: None,
            });
            json!({
                "seat": p,
                "colours": site.colours_of(p).iter().map(|c| c.to_string()).collect::<Vec<_>>(),
                "kind": seat.kind,
                "level": seat.level.filter(|&l| l > 0),
            })
        })
        .collect();
    let moves: Vec<Value> = game
        .moves()
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            json!({
                "number": i + 1,
                "colour": game.mover(i).map(|c| c.to_string()),
                "placement": site.notation(m),
            })
        })
        .collect();
    let last_move = shown.checked_sub(1).and_then(|i| {
        let (&m, before, colour) = (game.moves().last()?, game.positions().get(i)?, game.mover(i)?);
        Some(json!({
            "number": shown,
            "colour": colour.to_string(),
            "placement": site.notation(m),
            "cubes": cubes_json(&site.cubes(before, m)),
        }))
    });
    let ruins: Vec<String> = game.ruins().iter().map(|&m| site.notation(m)).collect();
    let to_move = game.to_move();
    json!({
        "id": ctx.id,
        "status": if over { "finished" } else { "open" },
        "hot_seat": ctx.hot_seat,
        "site": {
            "board": f.board,
            "files": f.files,
            "ranks": f.ranks,
            "players": f.players,
            "variant": f.variant,
            "colours": f.order.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "ruin_colour": f.ruin_colour.map(|c| c.to_string()),
            "ruins": ruins,
            "hmax": f.hmax,
            // As the server's state says it: the page names the house rule in the title.
            "stuck_rule": site.stuck_rule().name(),
        },
        "seats": seats,
        "moves_played": shown,
        "at": shown,
        "move_number": shown + 1,
        "to_move": to_move.map(|c| c.to_string()),
        "seat_to_move": to_move.and_then(|c| site.player_of(c)),
        "over": over,
        "colours": colours,
        "players": players,
        "winners": over.then_some(winners),
        "moves": moves,
        "last_move": last_move,
        "legal_moves": game.legal_notations(),
        "position": { "cube_count": pos.cube_count(), "columns": columns },
    })
}
