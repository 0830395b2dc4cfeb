//! The positions and placements the web app's "How to play" page draws (the server's
//! `GET /api/v1/lessons`, and the WebAssembly engine's `lessons` command for the app
//! without a server: one list, in one place). Each example is a board, a few moves and one placement; the core plays the moves
//! and judges the placement exactly as it judges a submitted move (`Game::play_text`), so a
//! picture can never disagree with the engine. The answer carries every cube of the
//! position and of the placement, so the page draws exactly those.

use std::sync::OnceLock;

use rumis_core::notation::read;
use rumis_core::{Board, Colour, Cube, Game, Illegal, Move, MoveError, Position, Site, Variant};
use serde::Serialize;

/// A cube as `[x, y, z]` (z = level − 1), as the server's wire format has it.
pub type WireCube = [u8; 3];

fn cubes_of(cubes: &[(u8, u8, u8)]) -> Vec<WireCube> {
    cubes.iter().map(|&(x, y, z)| [x, y, z]).collect()
}

/// One picture: the moves that build the position, then the placement shown on it.
struct Example {
    id: &'static str,
    board: &'static str,
    players: usize,
    moves: &'static [&'static str],
    placement: &'static str,
}

/// Chullpa with two players, red (R) then yellow (Y), as in the guided first game.
const RED_L: &str = "L4@a1,a2,b1,c1";
const YELLOW_I: &str = "I3@d1,d2,d3";

const EXAMPLES: &[Example] = &[
    // The game's first stone goes anywhere on the board.
    Example {
        id: "first_stone",
        board: "chullpa",
        players: 2,
        moves: &[],
        placement: RED_L,
    },
    // Every other colour's first stone: on the board and touching the structure...
    Example {
        id: "first_touching",
        board: "chullpa",
        players: 2,
        moves: &[RED_L],
        placement: YELLOW_I,
    },
    // ...so not away from it...
    Example {
        id: "first_apart",
        board: "chullpa",
        players: 2,
        moves: &[RED_L],
        placement: "I3@e2,e3,e4",
    },
    // ...and not up on it.
    Example {
        id: "first_on_top",
        board: "chullpa",
        players: 2,
        moves: &[RED_L],
        placement: "D2@a1,b1",
    },
    // Later stones touch their own colour (others' may be touched too).
    Example {
        id: "contact",
        board: "chullpa",
        players: 2,
        moves: &[RED_L, YELLOW_I],
        placement: "O4@b2,b3,c2,c3",
    },
    Example {
        id: "no_contact",
        board: "chullpa",
        players: 2,
        moves: &[RED_L, YELLOW_I],
        placement: "D2@e1,e2",
    },
    // Nothing may be left empty under a cube.
    Example {
        id: "hole",
        board: "chullpa",
        players: 2,
        moves: &[RED_L, YELLOW_I],
        placement: "I3@a2,b2,c2",
    },
    // A stone may rest on others: every cube on a cube.
    Example {
        id: "on_top",
        board: "chullpa",
        players: 2,
        moves: &[RED_L, YELLOW_I],
        placement: "I3@a1,b1,c1",
    },
    // The height limit: Chullpa with two players takes four levels.
    Example {
        id: "too_high",
        board: "chullpa",
        players: 2,
        moves: &["I4@a1x4", "I3@b1,c1,d1"],
        placement: "D2@a1x2",
    },
];

/// Positions to score: the empty board (everyone's eleven stones still to place) and a few
/// moves in.
const SCORED: &[(&str, &str, usize, &[&str])] = &[
    ("start", "chullpa", 2, &[]),
    ("middle", "chullpa", 2, &[RED_L, YELLOW_I, "O4@b2,b3,c2,c3", "D2@c1,d1"]),
];

/// `200` to `GET /lessons`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Lessons {
    pub examples: Vec<LessonExample>,
    pub scores: Vec<LessonScore>,
}

/// A lesson's board: its buildable cells for the lesson's player count.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct LessonBoard {
    pub name: String,
    pub files: usize,
    pub ranks: usize,
    pub hmax: u8,
    pub cells: Vec<LessonCell>,
}

/// A cell of a lesson's board: where it is, the height printed on it (if any) and how
/// high it may be built.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct LessonCell {
    pub x: usize,
    pub y: usize,
    pub printed: Option<u8>,
    pub limit: u8,
}

/// A colour's cubes in a structure (`X` for ruins).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct ColourCubes {
    #[cfg_attr(feature = "contract", ts(type = "Letter"))]
    pub colour: String,
    pub cubes: Vec<[usize; 3]>,
}

/// What a refused placement's rule names (absent fields are not sent).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct RuleDetail {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub stone: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub column: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub height: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub needed: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub level: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub colour: Option<String>,
}

/// A placement judged by the core, on a position drawn in 3D.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct LessonExample {
    pub id: String,
    pub board: LessonBoard,
    pub players: usize,
    pub moves: Vec<String>,
    pub structure: Vec<ColourCubes>,
    #[cfg_attr(feature = "contract", ts(type = "Letter"))]
    pub colour: String,
    pub placement: String,
    pub stone: String,
    #[cfg_attr(feature = "contract", schema(value_type = Vec<[u8; 3]>))]
    pub cubes: Vec<WireCube>,
    pub legal: bool,
    pub rule: Option<String>,
    pub detail: RuleDetail,
    pub reason: Option<String>,
}

/// A colour's score in a scored position.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct ColourScore {
    #[cfg_attr(feature = "contract", ts(type = "Letter"))]
    pub colour: String,
    pub seen: usize,
    pub stones_left: usize,
    pub score: Option<i32>,
}

/// A position scored by the core.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct LessonScore {
    pub id: String,
    pub board: LessonBoard,
    pub players: usize,
    pub moves: Vec<String>,
    pub structure: Vec<ColourCubes>,
    pub colours: Vec<ColourScore>,
}

/// The lessons, computed once (they depend on nothing but the core); an error names the
/// example the core refused (a defect of this list, not of any input).
pub fn lessons() -> Result<Lessons, String> {
    static ANSWER: OnceLock<Result<Lessons, String>> = OnceLock::new();
    ANSWER.get_or_init(build).clone()
}

fn build() -> Result<Lessons, String> {
    let examples = EXAMPLES.iter().map(example).collect::<Result<Vec<_>, _>>()?;
    let scores = SCORED
        .iter()
        .map(|&(id, board, players, moves)| scored(id, board, players, moves))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Lessons { examples, scores })
}

/// A game on a built-in board after `moves`, each checked by the core.
fn game_after(board: &str, players: usize, moves: &[&str]) -> Result<Game, String> {
    let board: &Board = Board::builtin(board).ok_or_else(|| format!("no board {board}"))?;
    let site = Site::new(board.clone(), players, Variant::Standard, None).map_err(|e| e.to_string())?;
    let mut game = Game::new(std::sync::Arc::new(site));
    for m in moves {
        game.play_text(m).map_err(|e| format!("lesson move {m}: {e}"))?;
    }
    Ok(game)
}

fn board_of(site: &Site) -> LessonBoard {
    let b = &site.board();
    let cells = b
        .layout(site.limit_players())
        .into_iter()
        .map(|(x, y, printed, limit)| LessonCell { x, y, printed, limit })
        .collect();
    LessonBoard {
        name: b.name.clone(),
        files: b.files,
        ranks: b.ranks,
        hmax: b.hmax(site.limit_players()),
        cells,
    }
}

/// Every cube of a position, grouped by colour (`X` for ruins), each `[x, y, z]` with z = level − 1.
fn structure(site: &Site, pos: &Position) -> Vec<ColourCubes> {
    let mut by: Vec<(String, Vec<[usize; 3]>)> = Vec::new();
    let files = site.board().files;
    for c in site.footprint() {
        for level in 1..=pos.height(c) {
            let letter = match pos.cube(c, level) {
                Some(Cube::Stone(colour)) => colour.to_string(),
                Some(Cube::Ruin) => "X".to_string(),
                None => continue,
            };
            let cube = [c % files, c / files, level as usize - 1];
            match by.iter_mut().find(|(l, _)| *l == letter) {
                Some((_, list)) => list.push(cube),
                None => by.push((letter, vec![cube])),
            }
        }
    }
    by.sort_by(|a, b| a.0.cmp(&b.0));
    by.into_iter()
        .map(|(colour, cubes)| ColourCubes { colour, cubes })
        .collect()
}

/// The one template a placement text names on this board (lessons name unambiguous ones),
/// so that an illegal placement can be drawn where it would be.
fn template_of(site: &Site, text: &str) -> Result<Move, String> {
    let w = read(site, text).map_err(|e| format!("lesson placement {text}: {e}"))?;
    let found: Vec<Move> = site
        .stone_range(w.stone)
        .filter_map(|id| Move::from_index(site, id))
        .filter(|&m| {
            let mut cover: Vec<(u8, u8)> = site.template(m).entries().map(|(c, _, k)| (c as u8, k)).collect();
            let files = site.board().files;
            cover.sort_by_key(|&(c, _)| (c as usize % files, c as usize / files));
            cover == w.cover
        })
        .collect();
    match found.as_slice() {
        [m] => Ok(*m),
        [] => Err(format!("lesson placement {text} names no placement")),
        _ => Err(format!("lesson placement {text} is ambiguous")),
    }
}

/// The rule a refusal names, as a stable code (the page shows its text for the code).
fn rule(i: &Illegal) -> (&'static str, RuleDetail) {
    let none = RuleDetail::default();
    let gap = |column: &String, height: &u8, needed: &u8| RuleDetail {
        column: Some(column.clone()),
        height: Some(*height),
        needed: Some(*needed),
        ..RuleDetail::default()
    };
    match i {
        Illegal::GameOver => ("game_over", none),
        Illegal::StoneUsed { stone, .. } => (
            "stone_used",
            RuleDetail {
                stone: Some(stone.code().into()),
                ..none
            },
        ),
        Illegal::Gap { column, height, needed } if height < needed => ("hole", gap(column, height, needed)),
        Illegal::Gap { column, height, needed } => ("through", gap(column, height, needed)),
        Illegal::TooHigh { level } => (
            "too_high",
            RuleDetail {
                level: Some(*level),
                ..none
            },
        ),
        Illegal::FirstStoneNotOnBoard => ("first_not_on_board", none),
        Illegal::FirstStoneNotTouching => ("first_not_touching", none),
        Illegal::NoOwnContact { colour } => (
            "no_own_contact",
            RuleDetail {
                colour: Some(colour.to_string()),
                ..none
            },
        ),
    }
}

fn example(e: &Example) -> Result<LessonExample, String> {
    let game = game_after(e.board, e.players, e.moves)?;
    let site = game.site();
    let pos = game.position();
    let colour: Colour = game.to_move().ok_or("the lesson's game is over")?;
    let m = template_of(site, e.placement)?;
    // The verdict is the one a submitted move gets: `play_text`, as the server's
    // `submit_move` asks.
    let mut trial = game.clone();
    let (legal, rule, detail, reason) = match trial.play_text(e.placement) {
        Ok(_) => (true, None, RuleDetail::default(), None),
        Err(MoveError::Illegal(i)) => {
            let (code, detail) = rule(&i);
            (false, Some(code.to_string()), detail, Some(i.to_string()))
        }
        Err(MoveError::Syntax(s)) => return Err(format!("lesson placement {}: {s}", e.placement)),
    };
    // The template drawn is the one judged: the core's check of it agrees.
    if pos.check(site, m).is_ok() != legal {
        return Err(format!(
            "lesson placement {}: the drawn placement is not the one judged",
            e.placement
        ));
    }
    let t = site.template(m);
    Ok(LessonExample {
        id: e.id.into(),
        board: board_of(site),
        players: site.players(),
        moves: e.moves.iter().map(|m| m.to_string()).collect(),
        structure: structure(site, pos),
        colour: colour.to_string(),
        placement: site.notation(m),
        stone: t.stone.code().into(),
        cubes: cubes_of(&site.cubes(pos, m)),
        legal,
        rule,
        detail,
        reason,
    })
}

fn scored(id: &str, board: &str, players: usize, moves: &[&str]) -> Result<LessonScore, String> {
    let game = game_after(board, players, moves)?;
    let site = game.site();
    let pos = game.position();
    let scores = pos.scores(site);
    let colours = site
        .order()
        .iter()
        .map(|&c| {
            let seen = site
                .footprint()
                .filter(|&col| pos.top(col) == Some(Cube::Stone(c)))
                .count();
            ColourScore {
                colour: c.to_string(),
                seen,
                stones_left: pos.stones_left(c).len(),
                score: scores.iter().find(|s| s.0 == c).map(|s| s.1),
            }
        })
        .collect();
    Ok(LessonScore {
        id: id.into(),
        board: board_of(site),
        players: site.players(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        structure: structure(site, pos),
        colours,
    })
}
