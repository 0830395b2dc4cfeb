//! The view of a game (`wire::State`, `wire::Placements`, …), computed by the core from
//! the stored moves.

use rumis_core::{Game, Move};
use rumis_wire::game::Frame;

use rumis_wire as wire;

use crate::service::Loaded;
use crate::store::Summary;

/// The game after its first `at` moves (all of them when `None`, or when `at` is more).
pub fn game_at(l: &Loaded, at: Option<usize>) -> Game {
    rumis_wire::game::game_at(&l.game, at)
}

/// A placement for the colour to move, with the cubes it would occupy (computed by the
/// core).
pub fn placement(game: &Game, m: Move) -> wire::Placement {
    placement_on(game.site(), game.position(), m)
}

pub use rumis_wire::boards::placement_on;

/// Every legal placement of the colour to move after the first `at` moves, sorted by text.
pub fn placements(l: &Loaded, at: Option<usize>) -> wire::Placements {
    rumis_wire::game::placements(&game_at(l, at))
}

/// A game's state after its first `at` moves (all of them when `None`): the core's view of
/// the game (`rumis_wire::game::state`, the same as the engine in the browser gives), in
/// the frame of what the server stores, with its clock as at `now` (the server's time,
/// [`crate::Time::now_ms`]).
pub fn state(l: &Loaded, at: Option<usize>, now: i64) -> wire::State {
    let frame = Frame {
        id: l.id.clone(),
        status: l.status.to_string(),
        created: l.created,
        updated: l.updated,
        hot_seat: l.setup.hot_seat,
        seats: l
            .seats
            .iter()
            .map(|s| wire::SeatInfo {
                seat: s.seat,
                colours: s.colours.iter().map(|c| c.to_string()).collect(),
                kind: s.kind.name().to_string(),
                level: (s.level > 0).then_some(s.level),
            })
            .collect(),
        move_times: l.moves.iter().map(|m| m.created).collect(),
        clock: l.clock.as_ref().map(|c| c.info(now)),
        board_file: l.setup.board_file.clone(),
        walked_away: l.walked_away(),
        from_position: l.from_position.as_ref().map(|f| wire::FromPosition {
            moves: f.moves.max(0) as usize,
            game: f.game.clone(),
        }),
    };
    rumis_wire::game::state(&l.game, at, frame)
}

pub fn summary(s: &Summary) -> wire::Summary {
    wire::Summary {
        id: s.id.clone(),
        board: s.board.clone(),
        players: s.players,
        variant: s.variant.clone(),
        status: s.status.to_string(),
        to_move: (!s.to_move.is_empty()).then(|| s.to_move.clone()),
        moves_played: s.move_count,
        move_number: s.move_count + 1,
        created: s.created,
        updated: s.updated,
        custom: s.custom,
    }
}
