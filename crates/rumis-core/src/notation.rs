//! Placement notation (rules §7): `L4@a1,a2,a3,b1`, `I4@c2x4`, `Y4@a1x2,a2,b1`.

use std::fmt;

use crate::position::{Illegal, Position};
use crate::site::Site;
use crate::stone::Stone;
use crate::template::Move;

/// A placement that cannot be read or played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a placement on this board.
    Syntax(String),
    /// A placement that breaks a rule.
    Illegal(Illegal),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => f.write_str(s),
            MoveError::Illegal(i) => write!(f, "illegal: {i}"),
        }
    }
}

impl std::error::Error for MoveError {}

impl From<Illegal> for MoveError {
    fn from(i: Illegal) -> Self {
        MoveError::Illegal(i)
    }
}

/// A placement as written: the stone and the (column, cube count) pairs, sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The stone named.
    pub stone: Stone,
    /// The (column, cube count) pairs it covers, as written.
    pub cover: Vec<(u8, u8)>,
}

/// Reads a placement's text on a site (without looking at a position).
pub fn read(site: &Site, text: &str) -> Result<Written, MoveError> {
    let syntax = |m: String| MoveError::Syntax(m);
    let text = text.trim();
    let (code, cells) = text.split_once('@').ok_or_else(|| {
        syntax(format!(
            "'{text}' is not a placement: expected a stone code, '@' and columns, like L4@a1,a2,a3,b1"
        ))
    })?;
    let stone = Stone::from_code(code.trim()).ok_or_else(|| {
        syntax(format!(
            "'{code}' is not a stone; the stones are D2 I3 V3 I4 O4 T4 L4 S4 A4 B4 Y4"
        ))
    })?;
    let mut cover: Vec<(u8, u8)> = Vec::new();
    let mut cubes = 0usize;
    for part in cells.split(',') {
        let part = part.trim();
        if part.is_empty() {
            return Err(syntax(format!("'{text}' has an empty column")));
        }
        // The count follows the last x: a cell of file x (the 24th) may itself start with one.
        let (cell, k) = match part.rfind(['x', 'X']) {
            Some(i) if i > 0 => {
                // One digit, 1 to 4 (not "+2" or "02", which `parse` would take).
                let digits = &part[i + 1..];
                let k: u8 = Some(digits)
                    .filter(|d| d.len() == 1)
                    .and_then(|d| d.parse().ok())
                    .filter(|k| (1..=4).contains(k))
                    .ok_or_else(|| syntax(format!("'{part}': the cube count after 'x' must be 1 to 4")))?;
                (&part[..i], k)
            }
            _ => (part, 1),
        };
        let c = site.column_of(cell).ok_or_else(|| {
            syntax(format!(
                "'{cell}' is not a cell of {} (files a-{}, ranks 1-{})",
                site.board.name,
                (b'a' + site.board.files as u8 - 1) as char,
                site.board.ranks
            ))
        })?;
        if !site.is_buildable(c) {
            return Err(syntax(format!(
                "{} is outside the footprint of {} for this game",
                site.column_name(c),
                site.board.name
            )));
        }
        if cover.iter().any(|&(d, _)| d as usize == c) {
            return Err(syntax(format!("'{text}' names {} twice", site.column_name(c))));
        }
        cover.push((c as u8, k));
        cubes += k as usize;
    }
    if cubes != stone.size() {
        return Err(syntax(format!(
            "{stone} has {} cubes but '{text}' places {cubes}",
            stone.size()
        )));
    }
    // Canonical order: by file, then rank.
    let files = site.board.files;
    cover.sort_by_key(|&(c, _)| (c as usize % files, c as usize / files));
    Ok(Written { stone, cover })
}

/// Finds the placement a text means in a position: the columns and counts fix it, because
/// the cubes sit just above each column's height.
pub fn resolve(site: &Site, pos: &Position, w: &Written) -> Result<Move, MoveError> {
    let ids = site.templates_covering(w.stone, &w.cover);
    if ids.is_empty() {
        return Err(MoveError::Syntax(format!(
            "{} cannot cover {} on this board: not its shape, or taller than the height limit allows",
            w.stone,
            describe(site, &w.cover)
        )));
    }
    // Of the orientations covering these columns, the one whose runs start at the columns'
    // heights; if none does, report the first one's gap.
    for &id in ids {
        let t = site.template(Move(id));
        let z0 = pos.height(t.columns[t.anchor as usize] as usize);
        if t.entries().all(|(c, b, _)| pos.height(c) == z0 + b) {
            return Ok(Move(id));
        }
    }
    let t = site.template(Move(ids[0]));
    let z0 = pos.height(t.columns[t.anchor as usize] as usize);
    let (c, b, _) = t
        .entries()
        .find(|&(c, b, _)| pos.height(c) != z0 + b)
        .expect("some column differs");
    Err(MoveError::Illegal(Illegal::Gap {
        column: site.column_name(c),
        height: pos.height(c),
        needed: z0 + b,
    }))
}

fn describe(site: &Site, cover: &[(u8, u8)]) -> String {
    cover
        .iter()
        .map(|&(c, k)| {
            if k > 1 {
                format!("{}x{k}", site.column_name(c as usize))
            } else {
                site.column_name(c as usize)
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Reads a placement for the colour to move and checks it is legal.
pub fn parse_move(site: &Site, pos: &Position, text: &str) -> Result<Move, MoveError> {
    let w = read(site, text)?;
    let m = resolve(site, pos, &w)?;
    pos.check(site, m)?;
    Ok(m)
}
