//! What the app draws, in the shape of the server's answers (`GET /games/{id}`, `GET
//! /games/{id}/placements`: docs/server-api.md), so the same view modules draw a local game:
//! the server's own functions (`rumis_wire::game`), in the frame of a game in this browser.

use rumis_core::{Colour, Game, Move};
use rumis_wire::game::Frame;
use rumis_wire::SeatInfo;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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

pub fn colours_in_order(game: &Game) -> Vec<Colour> {
    game.site().order().to_vec()
}

/// (board, players, variant) of a game.
pub fn setup_of(game: &Game) -> (String, usize, &'static str) {
    let site = game.site();
    (site.board().name.clone(), site.players(), site.variant().name())
}

/// A placement for the colour to move, with the cubes it would occupy (computed by the
/// core).
pub fn placement(game: &Game, m: Move) -> Value {
    serde_json::to_value(rumis_wire::boards::placement_on(game.site(), game.position(), m)).unwrap_or(Value::Null)
}

/// Every legal placement of the colour to move, sorted by text.
pub fn placements(game: &Game) -> Value {
    serde_json::to_value(rumis_wire::game::placements(game)).unwrap_or(Value::Null)
}

/// The state after the first `at` moves (all when `None` or more): the server's
/// (`rumis_wire::game::state`), in the frame of a game in this browser.
pub fn state_at(game: &Game, at: Option<usize>, ctx: &Context) -> Value {
    let site = game.site();
    let board = site.board();
    let frame = Frame {
        id: ctx.id.clone(),
        status: if game.is_over() { "finished" } else { "open" }.into(),
        hot_seat: ctx.hot_seat,
        seats: (0..site.players())
            .map(|p| {
                let seat = ctx.seats.get(p).cloned().unwrap_or(Seat {
                    kind: "human".into(),
                    level: None,
                });
                SeatInfo {
                    seat: p,
                    colours: site.colours_of(p).iter().map(|c| c.to_string()).collect(),
                    kind: seat.kind,
                    level: seat.level.filter(|&l| l > 0),
                }
            })
            .collect(),
        // A board of one's own: its file, as the record carries it.
        board_file: (!board.is_builtin()).then(|| board.to_toml()),
        ..Frame::default()
    };
    serde_json::to_value(rumis_wire::game::state(game, at, frame)).unwrap_or(Value::Null)
}

/// The state of a game as it is now.
pub fn state(game: &Game, ctx: &Context) -> Value {
    state_at(game, None, ctx)
}
