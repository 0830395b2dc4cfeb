//! A game as the app draws it (`GET /games/{id}`, `GET /games/{id}/placements`:
//! docs/server-api.md), computed by the core from the game's moves. The server adds what it
//! stores (ids, times, seats, the clock) in a [`Frame`]; the engine in the browser adds the
//! local game's; the rest — the position, the colours, the scores, the moves and who
//! passed — is the same function of the game for both.

use rumis_core::{Colour, Cube, Game, Outcome};

use crate::boards::{cubes_of, placement_on};
use crate::{
    ClockInfo, ColourInfo, ColumnInfo, FromPosition, GameEvent, LastMove, LeftInfo, MoveInfo, Placements, PositionInfo,
    Score, SeatInfo, SiteInfo, State,
};

/// What a state says beyond the game itself: who plays it, and when.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    pub id: String,
    pub status: String,
    pub created: i64,
    pub updated: i64,
    pub hot_seat: bool,
    pub seats: Vec<SeatInfo>,
    /// When each move was made (milliseconds since 1970), by move; 0 past the list.
    pub move_times: Vec<i64>,
    pub clock: Option<ClockInfo>,
    /// A board of one's own: its file, as the game was created with it.
    pub board_file: Option<String>,
    /// A game made from a position: where it began.
    pub from_position: Option<FromPosition>,
    /// The seats counted as forfeited besides those whose colours left the game: online,
    /// those whose player walked away and whose colours the AI plays on (rules §5.1).
    pub walked_away: Vec<usize>,
}

/// The `game_over` event of a game that has ended after `after_move` moves: its scores
/// and result as the core's outcome ranks them (forfeits last, rules §5.1).
pub fn game_over(id: &str, after_move: i64, outcome: Outcome) -> GameEvent {
    GameEvent::GameOver {
        game: id.into(),
        after_move,
        scores: outcome
            .scores
            .iter()
            .map(|(c, s)| Score {
                colour: c.to_string(),
                score: *s,
            })
            .collect(),
        winners: outcome.winners,
        places: outcome.places,
        forfeited: outcome.forfeited,
    }
}

/// The game after its first `at` moves (all of them when `None`, or when `at` is more).
pub fn game_at(game: &Game, at: Option<usize>) -> Game {
    game.after(at.unwrap_or(usize::MAX))
}

/// The colours that passed right after move `i` (from 0) under the pass rule (rules §6):
/// those between the mover and the next colour to move that are not out.
pub fn passed_after(game: &Game, i: usize) -> Vec<Colour> {
    let order = &game.site().order();
    let (Some(mover), Some(after)) = (game.mover(i), game.positions().get(i + 1)) else {
        return Vec::new();
    };
    let next = after.to_move(game.site());
    let Some(from) = order.iter().position(|&c| c == mover) else {
        return Vec::new();
    };
    (1..order.len())
        .map(|k| order[(from + k) % order.len()])
        .take_while(|&c| Some(c) != next)
        .filter(|&c| !after.is_out(c))
        .collect()
}

/// Every legal placement of the colour to move, sorted by text.
pub fn placements(game: &Game) -> Placements {
    let mut list: Vec<(String, rumis_core::Move)> =
        game.legal_moves().into_iter().map(|m| (game.notation(m), m)).collect();
    list.sort();
    Placements {
        move_number: game.moves().len() + 1,
        colour: game.to_move().map(|c| c.to_string()),
        placements: list
            .iter()
            .map(|&(_, m)| placement_on(game.site(), game.position(), m))
            .collect(),
    }
}

/// The last move of a game, with the cubes it took.
pub fn last_move(game: &Game) -> Option<LastMove> {
    let n = game.moves().len();
    let i = n.checked_sub(1)?;
    let (&m, before, colour) = (game.moves().last()?, game.positions().get(i)?, game.mover(i)?);
    Some(LastMove {
        number: n,
        colour: colour.to_string(),
        placement: game.notation(m),
        cubes: cubes_of(&game.site().cubes(before, m)),
    })
}

/// The colours that left the game (resigned, or ran out of time) up to its last move.
pub fn left_of(game: &Game) -> Vec<LeftInfo> {
    game.retirements()
        .iter()
        .map(|r| LeftInfo {
            colour: r.colour.to_string(),
            after_move: r.after,
            reason: r.reason.clone(),
        })
        .collect()
}

/// A game's state after its first `at` moves (all of them when `None`).
pub fn state(whole: &Game, at: Option<usize>, frame: Frame) -> State {
    let played = whole.moves().len();
    let game = game_at(whole, at);
    let shown = game.moves().len();
    let site = game.site();
    let pos = game.position();
    let board = site.board();
    let columns = site
        .footprint()
        .map(|c| ColumnInfo {
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
        forfeited,
        places,
    } = game.outcome_with(&frame.walked_away);
    let over = game.is_over();
    let colours = site
        .order()
        .iter()
        .map(|&c| ColourInfo {
            colour: c.to_string(),
            name: c.name().to_string(),
            seat: site.player_of(c),
            out: pos.is_out(c),
            score: scores.iter().find(|s| s.0 == c).map(|s| s.1),
            stones_left: pos.stones_left(c).iter().map(|s| s.code().to_string()).collect(),
        })
        .collect();
    let moves = game
        .moves()
        .iter()
        .enumerate()
        .map(|(i, &m)| MoveInfo {
            number: i as i64 + 1,
            colour: game.mover(i).map(|c| c.to_string()).unwrap_or_default(),
            placement: game.notation(m),
            created: frame.move_times.get(i).copied().unwrap_or(0),
            passed: passed_after(&game, i).iter().map(|c| c.to_string()).collect(),
        })
        .collect();
    let to_move = game.to_move();
    State {
        id: frame.id,
        status: frame.status,
        created: frame.created,
        updated: frame.updated,
        hot_seat: frame.hot_seat,
        site: SiteInfo {
            board: board.name.clone(),
            files: board.files,
            ranks: board.ranks,
            players: site.players(),
            variant: site.variant().name().to_string(),
            colours: site.order().iter().map(|c| c.to_string()).collect(),
            ruin_colour: site.ruin_colour().map(|c| c.to_string()),
            ruins: game.ruins().iter().map(|&m| game.notation(m)).collect(),
            hmax: board.hmax(site.limit_players()),
            stuck_rule: site.stuck_rule().name().to_string(),
            custom: frame.board_file.is_some(),
            board_file: frame.board_file,
        },
        seats: frame.seats,
        moves_played: played,
        at: shown,
        move_number: shown + 1,
        to_move: to_move.map(|c| c.to_string()),
        seat_to_move: to_move.and_then(|c| site.player_of(c)),
        over,
        colours,
        players,
        winners: over.then_some(winners),
        places: over.then_some(places),
        forfeited,
        moves,
        last_move: last_move(&game),
        legal_moves: game.legal_notations(),
        position: PositionInfo {
            cube_count: pos.cube_count(),
            columns,
        },
        clock: frame.clock,
        left: left_of(&game),
        from_position: frame.from_position,
    }
}
