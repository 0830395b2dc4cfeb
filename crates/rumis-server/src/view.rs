//! The view of a game (`wire::State`, `wire::Placements`, …), computed by the core from
//! the stored moves.

use rumis_core::{Cube, Game, Move, Outcome};

use crate::wire;

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

/// A placement for the colour to move, with the cubes it would occupy (computed by the
/// core).
pub fn placement(game: &Game, m: Move) -> wire::Placement {
    placement_on(game.site(), game.position(), m)
}

pub use rumis_wire::boards::{cubes_of, placement_on};

/// Every legal placement of the colour to move after the first `at` moves, sorted by text.
pub fn placements(l: &Loaded, at: Option<usize>) -> wire::Placements {
    let game = game_at(l, at);
    let mut list: Vec<(String, Move)> = game.legal_moves().into_iter().map(|m| (game.notation(m), m)).collect();
    list.sort();
    wire::Placements {
        move_number: game.moves().len() + 1,
        colour: game.to_move().map(|c| c.to_string()),
        placements: list
            .iter()
            .map(|&(_, m)| placement_on(game.site(), game.position(), m))
            .collect(),
    }
}

/// The last move played in `game`, with the cubes it took (on the position before it).
fn last_move(game: &Game) -> Option<wire::LastMove> {
    let n = game.moves().len();
    let i = n.checked_sub(1)?;
    let (&m, before, colour) = (game.moves().last()?, game.positions().get(i)?, game.mover(i)?);
    Some(wire::LastMove {
        number: n,
        colour: colour.to_string(),
        placement: game.notation(m),
        cubes: cubes_of(&game.site().cubes(before, m)),
    })
}

/// A game's state after its first `at` moves (all of them when `None`).
pub fn state(l: &Loaded, at: Option<usize>) -> wire::State {
    let played = l.game.moves().len();
    let game = game_at(l, at);
    let shown = game.moves().len();
    let site = game.site();
    let pos = game.position();
    let board = site.board();
    let columns = site
        .footprint()
        .map(|c| wire::ColumnInfo {
            cell: site.column_name(c),
            x: c % board.files,
            y: c / board.files,
            limit: site.limits()[c],
            height: pos.height(c),
            top: pos.top(c).map(|t| t.letter().to_string()),
            cubes: (1..=pos.height(c))
                .map(|z| pos.cube(c, z).map(Cube::letter).unwrap_or('?').to_string())
                .collect(),
        })
        .collect();
    let Outcome {
        scores,
        players,
        winners,
    } = game.outcome();
    let over = game.is_over();
    let colours = site
        .order()
        .iter()
        .map(|&c| wire::ColourInfo {
            colour: c.to_string(),
            name: c.name().to_string(),
            seat: site.player_of(c),
            out: pos.is_out(c),
            score: scores.iter().find(|s| s.0 == c).map(|s| s.1),
            stones_left: pos.stones_left(c).iter().map(|s| s.code().to_string()).collect(),
        })
        .collect();
    let seats = l
        .seats
        .iter()
        .map(|s| wire::SeatInfo {
            seat: s.seat,
            colours: s.colours.iter().map(|c| c.to_string()).collect(),
            kind: s.kind.name().to_string(),
            level: (s.level > 0).then_some(s.level),
        })
        .collect();
    let moves = l.moves[..shown]
        .iter()
        .enumerate()
        .map(|(i, m)| wire::MoveInfo {
            number: m.number,
            colour: m.colour.clone(),
            placement: m.placement.clone(),
            created: m.created,
            passed: crate::game::passed_after(&game, i)
                .iter()
                .map(|c| c.to_string())
                .collect(),
        })
        .collect();
    let to_move = game.to_move();
    wire::State {
        id: l.id.clone(),
        status: l.status.clone(),
        created: l.created,
        updated: l.updated,
        hot_seat: l.setup.hot_seat,
        site: wire::SiteInfo {
            board: board.name.clone(),
            files: board.files,
            ranks: board.ranks,
            players: site.players(),
            variant: site.variant().name().to_string(),
            colours: site.order().iter().map(|c| c.to_string()).collect(),
            ruin_colour: site.ruin_colour().map(|c| c.to_string()),
            ruins: l.setup.ruins.clone(),
            hmax: board.hmax(site.limit_players()),
            stuck_rule: site.stuck_rule().name().to_string(),
            custom: l.setup.board_file.is_some(),
            board_file: l.setup.board_file.clone(),
        },
        seats,
        moves_played: played,
        at: shown,
        move_number: shown + 1,
        to_move: to_move.map(|c| c.to_string()),
        seat_to_move: to_move.and_then(|c| site.player_of(c)),
        over,
        colours,
        players,
        winners: over.then_some(winners),
        moves,
        last_move: last_move(&game),
        legal_moves: game.legal_notations(),
        position: wire::PositionInfo {
            cube_count: pos.cube_count(),
            columns,
        },
        clock: clock_of(l),
        left: left_of(&game),
    }
}

/// The clock as at the server's time now (its `now` lets a browser count down from it).
fn clock_of(l: &Loaded) -> Option<wire::ClockInfo> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    l.clock.as_ref().map(|c| c.info(now))
}

/// The colours that left the game up to the position shown.
fn left_of(game: &Game) -> Vec<wire::LeftInfo> {
    game.retirements()
        .iter()
        .map(|r| wire::LeftInfo {
            colour: r.colour.to_string(),
            after_move: r.after,
            reason: r.reason.clone(),
        })
        .collect()
}

pub fn summary(s: &Summary) -> wire::Summary {
    wire::Summary {
        id: s.id.clone(),
        board: s.board.clone(),
        players: s.players,
        variant: s.variant.clone(),
        status: s.status.clone(),
        to_move: (!s.to_move.is_empty()).then(|| s.to_move.clone()),
        moves_played: s.move_count,
        move_number: s.move_count + 1,
        created: s.created,
        updated: s.updated,
        custom: s.custom,
    }
}
