//! The boards and the stones as the app reads them (`GET /boards`, `GET /stones`, `POST
//! /boards/check`: docs/server-api.md), built from the core. The server and the engine in
//! the browser both answer with these, so a page cannot tell them apart.

use rumis_core::{cell_name, Board, Constraint, Frame, Move, Position, Site, Stone};

use crate::{
    BoardInfo, CheckedBoard, ConstraintInfo, Cube, EvidenceInfo, FootprintCell, FrameInfo, Layout, LayoutCell,
    PerCount, Placement, StoneInfo,
};

/// The longest board file taken, whatever the server's body limit: a board has at most
/// 128 cells, so a longer file is almost all evidence text.
pub const MAX_BOARD_TEXT: usize = 16 * 1024;

/// The file name used in messages when the client names none.
pub const DEFAULT_FILE: &str = "board.toml";

/// The name a game's own board file goes by in messages (`board_file:3: ...`).
pub const INLINE_FILE: &str = "board_file";

/// Cubes as the wire writes them, `[x, y, z]`.
pub fn cubes_of(cubes: &[(u8, u8, u8)]) -> Vec<Cube> {
    cubes.iter().map(|&(x, y, z)| [x, y, z]).collect()
}

/// A placement on a position, with its stone, orientation and the cubes it would occupy.
pub fn placement_on(site: &Site, pos: &Position, m: Move) -> Placement {
    let t = site.template(m);
    Placement {
        placement: site.notation(m),
        stone: t.stone.code().to_string(),
        orientation: t.orientation as usize,
        cubes: cubes_of(&site.cubes(pos, m)),
    }
}

/// A board's buildable cells for a player count (frames applied), from the core.
pub fn layout(b: &Board, players: usize) -> Layout {
    Layout {
        hmax: b.hmax(players),
        cells: b
            .layout(players)
            .into_iter()
            .map(|(x, y, printed, limit)| LayoutCell {
                cell: cell_name(x, y),
                x,
                y,
                printed,
                limit,
            })
            .collect(),
    }
}

/// A scenario as `GET /boards` lists it.
pub fn board_info(b: &Board) -> BoardInfo {
    BoardInfo {
        name: b.name.clone(),
        aliases: b.aliases.clone(),
        files: b.files,
        ranks: b.ranks,
        hmax: PerCount::by(|p| b.hmax(p)),
        columns: PerCount::by(|p| b.column_count(p)),
        provenance: b.provenance.as_str().into(),
        source: b.source.clone(),
        layouts: PerCount::by(|p| layout(b, p)),
        evidence: evidence_info(b),
    }
}

/// A board as the editor needs it: every field of its file, and what the core derives
/// from it for each player count.
pub fn checked_board(b: &Board) -> CheckedBoard {
    let footprint = (0..b.ranks)
        .flat_map(|y| (0..b.files).map(move |x| (x, y)))
        .filter_map(|(x, y)| {
            b.cell(x, y).map(|p| FootprintCell {
                cell: cell_name(x, y),
                x,
                y,
                printed: (p > 0).then_some(p),
            })
        })
        .collect();
    CheckedBoard {
        name: b.name.clone(),
        aliases: b.aliases.clone(),
        provenance: b.provenance.as_str().into(),
        source: b.source.clone(),
        files: b.files,
        ranks: b.ranks,
        footprint,
        hmax: PerCount::by(|p| b.hmax(p)),
        frames: PerCount::by(|p| b.frame(p).map(|f| frame_info(&f))),
        columns: PerCount::by(|p| b.column_count(p)),
        volume: PerCount::by(|p| b.volume(p)),
        layouts: PerCount::by(|p| layout(b, p)),
        evidence: evidence_info(b),
    }
}

/// A board's sourced facts: each fact, its source and its checkable constraints.
pub fn evidence_info(b: &Board) -> Vec<EvidenceInfo> {
    b.evidence
        .iter()
        .map(|e| EvidenceInfo {
            fact: e.fact.clone(),
            source: e.source.clone(),
            constraints: e.constraints.iter().map(constraint_info).collect(),
        })
        .collect()
}

fn frame_info(f: &Frame) -> FrameInfo {
    FrameInfo {
        text: f.to_string(),
        files: [f.files.0, f.files.1],
        ranks: [f.ranks.0, f.ranks.1],
    }
}

/// A constraint as its file writes it (`kind`, and `players` with `value`, or the frame
/// counts), with the core's words for it.
fn constraint_info(c: &Constraint) -> ConstraintInfo {
    let text = c.to_string();
    match *c {
        Constraint::MinCells { players, cells } => ConstraintInfo::MinCells {
            players,
            value: cells,
            text,
        },
        Constraint::Hmax { players, height } => ConstraintInfo::Hmax {
            players,
            value: height,
            text,
        },
        Constraint::ReachesLevel { players, level } => ConstraintInfo::ReachesLevel {
            players,
            value: level,
            text,
        },
        Constraint::FramesFor(ref counts) => ConstraintInfo::FramesFor {
            counts: counts.clone(),
            text,
        },
    }
}

/// A stone: each orientation's cells and where a quarter turn about x, y or z takes it.
pub fn stone_info(s: Stone) -> StoneInfo {
    let orientations = s.orientations();
    StoneInfo {
        code: s.code().into(),
        size: s.size(),
        orientations: orientations
            .iter()
            .map(|cells| cells.iter().map(|&(x, y, z)| [x, y, z]).collect())
            .collect(),
        turns: (0..orientations.len())
            .map(|o| [s.turn(o, 0), s.turn(o, 1), s.turn(o, 2)])
            .collect(),
    }
}
