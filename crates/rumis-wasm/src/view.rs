//! What the app draws, in the shape of the server's answers (`GET /games/{id}`, `GET
//! /games/{id}/placements`: docs/server-api.md), so the same view modules draw a local game:
//! the server's own functions (`rumis_wire::game`), in the frame of a game in this browser.

use rumis_core::{Colour, Game};
use rumis_wire::game::Frame;
use rumis_wire::{Placements, SeatInfo, State};

use crate::Seat;

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

/// Every legal placement of the colour to move, sorted by text.
pub fn placements(game: &Game) -> Placements {
    rumis_wire::game::placements(game)
}

/// The state after the first `at` moves (all when `None` or more): the server's
/// (`rumis_wire::game::state`), in the frame of a game in this browser.
pub fn state_at(game: &Game, at: Option<usize>, ctx: &Context) -> State {
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
    rumis_wire::game::state(game, at, frame)
}

/// The state of a game as it is now.
pub fn state(game: &Game, ctx: &Context) -> State {
    state_at(game, None, ctx)
}
