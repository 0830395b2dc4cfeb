//! Scenario boards as data (rules §3): the footprint, printed heights, Hmax per player
//! count and the frames that shrink the footprint for fewer players.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

use serde::Deserialize;
use toml::Spanned;

use crate::evidence::{Constraint, Evidence, RawEvidence};

pub use crate::limits::{MAX_COLUMNS, MAX_FILES, MAX_LEVEL};

/// Where a board's shape comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ProvenanceKind {
    /// Printed in the rulebook.
    PrintedRules,
    /// Designed to fit what is known.
    Reconstruction,
}

impl ProvenanceKind {
    /// The kind's word, as board files write it.
    pub fn as_str(&self) -> &'static str {
        match self {
            ProvenanceKind::PrintedRules => "printed-rules",
            ProvenanceKind::Reconstruction => "reconstruction",
        }
    }
}

/// A rectangle of cells, both ends inclusive (a red frame of the rulebook).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The first and last file (0-based) inside the frame.
    pub files: (u8, u8),
    /// The first and last rank (0-based) inside the frame.
    pub ranks: (u8, u8),
}

impl Frame {
    /// Whether the cell at file `x`, rank `y` is inside the frame.
    pub fn contains(&self, x: usize, y: usize) -> bool {
        (self.files.0 as usize..=self.files.1 as usize).contains(&x)
            && (self.ranks.0 as usize..=self.ranks.1 as usize).contains(&y)
    }
}

impl fmt::Display for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}",
            cell_name(self.files.0 as usize, self.ranks.0 as usize),
            cell_name(self.files.1 as usize, self.ranks.1 as usize)
        )
    }
}

/// A scenario board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The scenario's name (lower case, as `Board::builtin` finds it).
    pub name: String,
    /// Other names the board is found by.
    pub aliases: Vec<String>,
    /// Where the board's figures come from.
    pub provenance: ProvenanceKind,
    /// One sentence on where the shape comes from.
    pub source: String,
    /// Number of files (x extent).
    pub files: usize,
    /// Number of ranks (y extent).
    pub ranks: usize,
    /// Per cell, `x + y * files`: `None` not buildable, `Some(0)` buildable with no printed
    /// height, `Some(h)` a printed height.
    cells: Vec<Option<u8>>,
    /// Hmax for 2, 3 and 4 players.
    pub hmax: [u8; 3],
    /// The frame for 2, 3 and 4 players, if any.
    pub frames: [Option<Frame>; 3],
    /// Sourced facts the board was fitted to; each one's constraints hold (checked when
    /// the file is read).
    pub evidence: Vec<Evidence>,
}

/// A board file that cannot be used, with where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError {
    /// The file's name, as given to the reader.
    pub file: String,
    /// The line (1-based) at fault.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for BoardError {}

/// The name of a cell: file letter then rank number, `a1` front left.
pub fn cell_name(x: usize, y: usize) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

/// Reads a cell name such as `c12` (either case); `None` if it is not one.
pub fn parse_cell(s: &str) -> Option<(usize, usize)> {
    let mut chars = s.chars();
    let f = chars.next()?.to_ascii_lowercase();
    if !f.is_ascii_lowercase() {
        return None;
    }
    let rest = chars.as_str();
    if rest.is_empty() || rest.len() > 3 || !rest.bytes().all(|b| b.is_ascii_digit()) || rest.starts_with('0') {
        return None;
    }
    let rank: usize = rest.parse().ok()?;
    Some(((f as u8 - b'a') as usize, rank - 1))
}

/// `hmax = { 2 = 4, 3 = 3, 4 = 3 }`, as written.
type RawHmax = BTreeMap<String, Spanned<i64>>;
/// `frames = { 2 = "a1:d6" }`, as written.
type RawFrames = BTreeMap<String, Spanned<String>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    name: Spanned<String>,
    #[serde(default)]
    aliases: Vec<String>,
    provenance: Spanned<String>,
    #[serde(default)]
    source: String,
    hmax: Spanned<RawHmax>,
    #[serde(default)]
    frames: Option<RawFrames>,
    grid: Spanned<String>,
    #[serde(default)]
    evidence: Vec<RawEvidence>,
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].bytes().filter(|&b| b == b'\n').count() + 1
}

fn player_key(key: &str) -> Option<usize> {
    match key {
        "2" => Some(0),
        "3" => Some(1),
        "4" => Some(2),
        _ => None,
    }
}

/// A board file being read: its name and text, for errors that say where.
struct Reader<'a> {
    file: &'a str,
    text: &'a str,
}

impl Reader<'_> {
    fn at_offset(&self, offset: usize, message: String) -> BoardError {
        self.at_line(line_of(self.text, offset), message)
    }

    fn at_line(&self, line: usize, message: String) -> BoardError {
        BoardError {
            file: self.file.to_string(),
            line,
            message,
        }
    }

    fn provenance(&self, raw: &Spanned<String>) -> Result<ProvenanceKind, BoardError> {
        match raw.get_ref().as_str() {
            "printed-rules" => Ok(ProvenanceKind::PrintedRules),
            "reconstruction" => Ok(ProvenanceKind::Reconstruction),
            other => Err(self.at_offset(
                raw.span().start,
                format!("provenance must be \"printed-rules\" or \"reconstruction\", not \"{other}\""),
            )),
        }
    }

    /// The height limit for each player count, every count given.
    fn hmax(&self, raw: &Spanned<RawHmax>) -> Result<[u8; 3], BoardError> {
        let mut hmax = [0u8; 3];
        for (key, value) in raw.get_ref() {
            let Some(i) = player_key(key) else {
                return Err(self.at_offset(
                    value.span().start,
                    format!("hmax key \"{key}\" is not a player count (2, 3 or 4)"),
                ));
            };
            let v = *value.get_ref();
            if !(1..=MAX_LEVEL as i64).contains(&v) {
                return Err(self.at_offset(
                    value.span().start,
                    format!("hmax for {key} players is {v}; it must be 1 to {MAX_LEVEL}"),
                ));
            }
            hmax[i] = v as u8;
        }
        match hmax.iter().position(|h| *h == 0) {
            Some(i) => Err(self.at_offset(raw.span().start, format!("hmax for {} players is missing", i + 2))),
            None => Ok(hmax),
        }
    }

    /// The grid's rows, each with its line in the file, without blank rows around them.
    fn grid_rows<'g>(&self, raw: &'g Spanned<String>) -> (usize, Vec<(usize, &'g str)>) {
        let gspan = raw.span().start;
        let mut first_line = line_of(self.text, gspan);
        let after = &self.text[gspan.min(self.text.len())..];
        if ["\"\"\"\n", "'''\n", "\"\"\"\r\n", "'''\r\n"]
            .iter()
            .any(|opening| after.starts_with(opening))
        {
            first_line += 1;
        }
        let mut rows: Vec<(usize, &str)> = raw
            .get_ref()
            .lines()
            .enumerate()
            .map(|(i, l)| (first_line + i, l.trim()))
            .collect();
        while rows.last().is_some_and(|r| r.1.is_empty()) {
            rows.pop();
        }
        while rows.first().is_some_and(|r| r.1.is_empty()) {
            rows.remove(0);
        }
        (first_line, rows)
    }

    /// The grid: files, ranks and cells; rows listed back rank first, like a chess diagram.
    fn grid(&self, raw: &Spanned<String>) -> Result<(usize, usize, Vec<Option<u8>>), BoardError> {
        let (first_line, rows) = self.grid_rows(raw);
        if rows.is_empty() {
            return Err(self.at_line(first_line, "the grid is empty".into()));
        }
        let files = rows[0].1.chars().count();
        let ranks = rows.len();
        if files > MAX_FILES {
            return Err(self.at_line(
                rows[0].0,
                format!("the grid is {files} files wide; the engine supports at most {MAX_FILES}"),
            ));
        }
        if files * ranks > MAX_COLUMNS {
            return Err(self.at_line(
                rows[0].0,
                format!(
                    "the grid has {files} x {ranks} = {} cells; the engine supports at most {MAX_COLUMNS}",
                    files * ranks
                ),
            ));
        }
        let mut cells = vec![None; files * ranks];
        for (r, &(line, row)) in rows.iter().enumerate() {
            let n = row.chars().count();
            if n != files {
                return Err(self.at_line(
                    line,
                    format!("grid row has {n} cells but the first row has {files} (ragged rows)"),
                ));
            }
            let y = ranks - 1 - r;
            for (x, ch) in row.chars().enumerate() {
                cells[x + y * files] = match ch {
                    '.' => None,
                    '#' => Some(0),
                    '1'..='9' => Some(ch as u8 - b'0'),
                    _ => {
                        return Err(self.at_line(
                            line,
                            format!(
                                "unknown character '{ch}' at {} in the grid (use '#', '.', or a height 1-9)",
                                cell_name(x, y)
                            ),
                        ))
                    }
                };
            }
        }
        if cells.iter().all(|c| c.is_none()) {
            return Err(self.at_line(first_line, "the footprint is empty: no cell is buildable".into()));
        }
        Ok((files, ranks, cells))
    }

    /// The frames by player count, each inside the grid and holding a buildable cell.
    fn frames(
        &self,
        raw: &RawFrames,
        files: usize,
        ranks: usize,
        cells: &[Option<u8>],
    ) -> Result<[Option<Frame>; 3], BoardError> {
        let mut frames = [None; 3];
        for (key, value) in raw {
            let line = line_of(self.text, value.span().start);
            let Some(i) = player_key(key) else {
                return Err(self.at_line(line, format!("frame key \"{key}\" is not a player count (2, 3 or 4)")));
            };
            let frame = parse_frame(value.get_ref()).ok_or_else(|| {
                self.at_line(
                    line,
                    format!("frame \"{}\" is not a rectangle like \"a1:d6\"", value.get_ref()),
                )
            })?;
            if frame.files.1 as usize >= files || frame.ranks.1 as usize >= ranks {
                return Err(self.at_line(
                    line,
                    format!("frame {frame} for {key} players lies outside the {files} x {ranks} grid"),
                ));
            }
            let inside = (0..files * ranks).any(|i| cells[i].is_some() && frame.contains(i % files, i / files));
            if !inside {
                return Err(self.at_line(line, format!("frame {frame} for {key} players holds no buildable cell")));
            }
            frames[i] = Some(frame);
        }
        Ok(frames)
    }

    /// One piece of evidence, its constraints checked against the board.
    fn evidence(&self, raw: RawEvidence, board: &Board) -> Result<Evidence, BoardError> {
        let at = raw.span_start();
        let evidence = raw
            .read()
            .map_err(|(offset, message)| self.at_offset(offset, message))?;
        for c in &evidence.constraints {
            if let Err(have) = c.check(board) {
                return Err(self.at_offset(
                    at,
                    format!(
                        "the board contradicts its own evidence \"{}\": it needs {c}, but {have}",
                        evidence.fact
                    ),
                ));
            }
        }
        Ok(evidence)
    }
}

impl Board {
    /// About how many bytes the board holds on the heap (its names, cells and evidence).
    pub(crate) fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        self.name.capacity()
            + self
                .aliases
                .iter()
                .map(|a| size_of::<String>() + a.capacity())
                .sum::<usize>()
            + self.source.capacity()
            + self.cells.capacity() * size_of::<Option<u8>>()
            + self
                .evidence
                .iter()
                .map(|e| {
                    size_of::<Evidence>()
                        + e.fact.capacity()
                        + e.source.capacity()
                        + e.constraints.capacity() * size_of::<crate::evidence::Constraint>()
                })
                .sum::<usize>()
    }

    /// Reads a board file. `file` names it in error messages.
    pub fn from_toml(file: &str, text: &str) -> Result<Board, BoardError> {
        let read = Reader { file, text };
        let raw: RawBoard = toml::from_str(text).map_err(|e| {
            let offset = e.span().map(|s| s.start).unwrap_or(0);
            read.at_offset(offset, e.message().trim().to_string())
        })?;
        let name = raw.name.get_ref().trim().to_string();
        if name.is_empty() {
            return Err(read.at_offset(raw.name.span().start, "the board name is empty".into()));
        }
        let provenance = read.provenance(&raw.provenance)?;
        let hmax = read.hmax(&raw.hmax)?;
        let (files, ranks, cells) = read.grid(&raw.grid)?;
        let frames = match &raw.frames {
            Some(frames) => read.frames(frames, files, ranks, &cells)?,
            None => [None; 3],
        };
        let mut board = Board {
            name,
            aliases: raw.aliases,
            provenance,
            source: raw.source,
            files,
            ranks,
            cells,
            hmax,
            frames,
            evidence: Vec::new(),
        };
        // Evidence is read last: its constraints are checked against the board itself.
        for raw in raw.evidence {
            let evidence = read.evidence(raw, &board)?;
            board.evidence.push(evidence);
        }
        Ok(board)
    }

    /// An open box of `files` x `ranks` cells with one height limit for every player count
    /// (the solitaire boxes and test boards).
    pub fn open_box(files: usize, ranks: usize, height: u8) -> Result<Board, BoardError> {
        let row = "#".repeat(files);
        let grid: Vec<&str> = (0..ranks).map(|_| row.as_str()).collect();
        let text = format!(
            "name = \"Box {files}x{ranks}x{height}\"\nprovenance = \"reconstruction\"\nsource = \"An open box.\"\nhmax = {{ 2 = {height}, 3 = {height}, 4 = {height} }}\ngrid = \"\"\"\n{}\n\"\"\"\n",
            grid.join("\n")
        );
        Board::from_toml("<box>", &text)
    }

    /// The printed height of a cell: `None` outside the footprint, `Some(0)` none printed.
    pub fn cell(&self, x: usize, y: usize) -> Option<u8> {
        if x < self.files && y < self.ranks {
            self.cells[x + y * self.files]
        } else {
            None
        }
    }

    /// Whether a cell is buildable in a game that uses the limits for `players`.
    pub fn buildable(&self, x: usize, y: usize, players: usize) -> bool {
        self.cell(x, y).is_some() && self.frame(players).is_none_or(|f| f.contains(x, y))
    }

    /// The height limit of a cell for `players` (0 where not buildable).
    pub fn limit(&self, x: usize, y: usize, players: usize) -> u8 {
        if !self.buildable(x, y, players) {
            return 0;
        }
        let h = self.hmax(players);
        match self.cell(x, y) {
            Some(0) | None => h,
            Some(p) => p.min(h),
        }
    }

    /// Hmax, the height limit of the printed board for a player count.
    pub fn hmax(&self, players: usize) -> u8 {
        self.hmax[players.clamp(2, 4) - 2]
    }

    /// The red frame for a player count, if the board has one for it.
    pub fn frame(&self, players: usize) -> Option<Frame> {
        self.frames[players.clamp(2, 4) - 2]
    }

    /// Buildable columns for `players`.
    pub fn column_count(&self, players: usize) -> usize {
        (0..self.ranks)
            .flat_map(|y| (0..self.files).map(move |x| (x, y)))
            .filter(|&(x, y)| self.buildable(x, y, players))
            .count()
    }

    /// The buildable cells for `players` (frames applied), rank by rank from a1, each as
    /// (x, y, printed height or `None`, height limit).
    pub fn layout(&self, players: usize) -> Vec<(usize, usize, Option<u8>, u8)> {
        (0..self.ranks)
            .flat_map(|y| (0..self.files).map(move |x| (x, y)))
            .filter(|&(x, y)| self.buildable(x, y, players))
            .map(|(x, y)| (x, y, self.cell(x, y).filter(|&p| p > 0), self.limit(x, y, players)))
            .collect()
    }

    /// The cubes the board can hold for `players`.
    pub fn volume(&self, players: usize) -> usize {
        (0..self.ranks)
            .flat_map(|y| (0..self.files).map(move |x| (x, y)))
            .map(|(x, y)| self.limit(x, y, players) as usize)
            .sum()
    }

    /// Whether `name` is this board's name or one of its aliases, ignoring case.
    pub fn is_called(&self, name: &str) -> bool {
        let name = name.trim();
        self.name.eq_ignore_ascii_case(name) || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    }

    /// The six scenarios, built in.
    pub fn builtins() -> &'static [Board] {
        static BOARDS: OnceLock<Vec<Board>> = OnceLock::new();
        BOARDS.get_or_init(|| {
            BUILTIN_FILES
                .iter()
                .map(|(file, text)| Board::from_toml(file, text).expect("built-in board files are valid"))
                .collect()
        })
    }

    /// A built-in scenario by name or alias, ignoring case.
    pub fn builtin(name: &str) -> Option<&'static Board> {
        Board::builtins().iter().find(|b| b.is_called(name))
    }

    /// The file a built-in scenario is read from, by name or alias (to export and edit).
    pub fn builtin_file(name: &str) -> Option<&'static str> {
        let i = Board::builtins().iter().position(|b| b.is_called(name))?;
        Some(BUILTIN_FILES[i].1)
    }

    /// The names of the built-in scenarios, for messages.
    pub fn builtin_names() -> String {
        Board::builtins()
            .iter()
            .map(|b| b.name.to_lowercase())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn parse_frame(s: &str) -> Option<Frame> {
    let (a, b) = s.trim().split_once(':')?;
    let (x0, y0) = parse_cell(a.trim())?;
    let (x1, y1) = parse_cell(b.trim())?;
    if x0 > x1 || y0 > y1 || x1 >= MAX_FILES || y1 >= MAX_COLUMNS {
        return None;
    }
    Some(Frame {
        files: (x0 as u8, x1 as u8),
        ranks: (y0 as u8, y1 as u8),
    })
}

/// The six scenarios, embedded from the crate's own `boards/` folder (so that the crate
/// packages and builds on its own; the repository's top-level `boards` links to it). The
/// names are the ones board errors print.
const BUILTIN_FILES: [(&str, &str); 6] = [
    ("boards/chullpa.toml", include_str!("../boards/chullpa.toml")),
    ("boards/pirka.toml", include_str!("../boards/pirka.toml")),
    ("boards/tambo.toml", include_str!("../boards/tambo.toml")),
    ("boards/pisac.toml", include_str!("../boards/pisac.toml")),
    ("boards/coricancha.toml", include_str!("../boards/coricancha.toml")),
    ("boards/cucho.toml", include_str!("../boards/cucho.toml")),
];

// Checking evidence reads a board, so it lives here, beside the board, rather than in
// evidence.rs (which the board imports to read a file's evidence).
impl Constraint {
    /// Whether `board` satisfies this constraint; if not, what it has instead.
    pub fn check(&self, board: &Board) -> Result<(), String> {
        match *self {
            Constraint::MinCells { players, cells } => {
                let have = board.column_count(players);
                if have >= cells {
                    Ok(())
                } else {
                    Err(format!("the footprint for {players} players has {have} cells"))
                }
            }
            Constraint::Hmax { players, height } => {
                let have = board.hmax(players);
                if have == height {
                    Ok(())
                } else {
                    Err(format!("Hmax for {players} players is {have}"))
                }
            }
            Constraint::ReachesLevel { players, level } => {
                let top = board
                    .layout(players)
                    .iter()
                    .map(|&(_, _, _, limit)| limit)
                    .max()
                    .unwrap_or(0);
                if top >= level {
                    Ok(())
                } else {
                    Err(format!("the highest limit for {players} players is {top}"))
                }
            }
            Constraint::FramesFor(ref counts) => {
                let have: Vec<usize> = (2..=4).filter(|&p| board.frame(p).is_some()).collect();
                if &have == counts {
                    Ok(())
                } else if have.is_empty() {
                    Err("the board has no frame".into())
                } else {
                    let have: Vec<String> = have.iter().map(|c| c.to_string()).collect();
                    Err(format!("the board has frames for {} players", have.join(" and ")))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
