//! A position: the structure, the stones left, whose turn it is, who is out (rules §4-6).
//!
//! Columns are solid stacks, so a column is its height plus the colour of each level. A
//! placement template is legal iff every covered column's height equals the stone's base
//! level plus the run's offset, the base is under the template's precomputed limit, and
//! the cubes it adds touch the right colour — a few byte lookups per column.

use std::fmt;

use crate::board::MAX_COLUMNS;
use crate::movegen::{self, CodePath, CodePathUnavailable, GenInput, MoveSet, Placing, Touch};
use crate::site::{Site, StuckRule, Variant};
use crate::stone::{Colour, Stone, ALL_STONES, STONE_COUNT};
use crate::template::{Move, Template};
use crate::zobrist::{cube_key, out_key, stone_key, turn_key};

/// A placement's runs of cubes: per covered column (the first `len`), the column and the
/// number of cubes; what [`Position::add_cubes`] needs, from a template or a slot's
/// [`Placing`].
struct Runs {
    columns: [u8; 4],
    count: [u8; 4],
    len: u8,
}

impl Runs {
    #[inline(always)]
    fn of(t: &Template) -> Runs {
        Runs {
            columns: t.columns,
            count: t.count,
            len: t.len,
        }
    }

    #[inline(always)]
    fn from_placing(p: &Placing) -> Runs {
        Runs {
            columns: p.columns,
            count: [p.count(0), p.count(1), p.count(2), p.count(3)],
            len: p.len(),
        }
    }
}

/// What a cube of the structure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Cube {
    /// A cube of a stone of this colour.
    Stone(Colour),
    /// Part of a ruin (Ruinas): scores for nobody.
    Ruin,
}

impl Cube {
    /// The letter drawn for the cube: the colour's letter, or `X` for a ruin.
    pub fn letter(self) -> char {
        match self {
            Cube::Stone(c) => c.letter(),
            Cube::Ruin => 'X',
        }
    }
}

/// Index of the ruins among the per-kind tables (after the four colours).
const RUIN: usize = 4;
/// Index of "any cube" for [`Position::contact_bits`]: the OR of every kind's contact table.
const ANY: usize = 5;

/// Why a placement is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The game is over: nobody moves.
    GameOver,
    /// The stone was placed already.
    StoneUsed {
        /// The colour that placed it (`None` for the ruins).
        colour: Option<Colour>,
        /// The stone.
        stone: Stone,
    },
    /// A covered column is not at the height the stone needs: there would be empty space
    /// under a cube, or the stone would go through the structure.
    Gap {
        /// The column, by its cell name.
        column: String,
        /// Its height.
        height: u8,
        /// The height the stone needs there.
        needed: u8,
    },
    /// A cube would be above the column's height limit.
    TooHigh {
        /// The level (1-based) of the highest cube.
        level: u8,
    },
    /// The first stone of a later colour must rest on the board.
    FirstStoneNotOnBoard,
    /// The first stone of a later colour must touch the structure.
    FirstStoneNotTouching,
    /// A later stone must touch its own colour.
    NoOwnContact {
        /// The colour to move.
        colour: Colour,
    },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::GameOver => write!(f, "the game is over"),
            Illegal::StoneUsed { colour: Some(c), stone } => write!(f, "{} has already placed {stone}", c.name()),
            Illegal::StoneUsed { colour: None, stone } => write!(f, "the ruins already hold {stone}"),
            Illegal::Gap { column, height, needed } => {
                if height < needed {
                    write!(f, "the stone would leave empty space under it at {column} (the column is {height} high, the stone needs {needed})")
                } else {
                    write!(f, "the stone would pass through the structure at {column} (the column is {height} high, the stone needs {needed})")
                }
            }
            Illegal::TooHigh { level } => write!(f, "the stone would reach level {level}, above the height limit"),
            Illegal::FirstStoneNotOnBoard => {
                write!(f, "a colour's first stone must rest on the board (one cube at level 1)")
            }
            Illegal::FirstStoneNotTouching => {
                write!(f, "a colour's first stone must touch a cube already in the structure")
            }
            Illegal::NoOwnContact { colour } => {
                write!(f, "the stone must touch a {} cube", colour.name())
            }
        }
    }
}

impl std::error::Error for Illegal {}

/// Why a colour cannot leave the game now ([`Position::retire`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RetireError {
    /// The game is over: nobody is to move.
    GameOver,
    /// The colour does not play in this game.
    NotInGame(Colour),
    /// The colour is out already (it resigned, ran out of time, or cannot place).
    AlreadyOut(Colour),
}

impl fmt::Display for RetireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetireError::GameOver => write!(f, "the game is over"),
            RetireError::NotInGame(c) => write!(f, "{} does not play in this game", c.name()),
            RetireError::AlreadyOut(c) => write!(f, "{} is out already", c.name()),
        }
    }
}

impl std::error::Error for RetireError {}

/// The contact a placement needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Contact {
    /// The first stone of the game.
    None,
    /// The first stone of a later colour: touch any cube and rest on the board.
    FirstStone,
    /// Touch a cube of the colour.
    Own(usize),
}

/// A position of a game on a [`Site`]. It holds no reference to its site: every method that
/// needs the board takes it, so copying a position is a plain memory copy.
#[derive(Clone)]
pub struct Position {
    heights: [u8; MAX_COLUMNS],
    /// Per column: bit z set when the cube at level z + 1 is of this kind (R, Y, G, B, ruin).
    cubes: [[u16; MAX_COLUMNS]; 5],
    /// Per column: bit z set when the cell at level z + 1 shares a face with a cube of this
    /// kind (R, Y, G, B, ruin).
    touch: [[u16; MAX_COLUMNS]; 5],
    /// Stones not yet placed, per colour.
    left: [u16; 4],
    ruins_left: u16,
    /// Stones placed, per kind (R, Y, G, B, ruin).
    used: [u16; 5],
    placed: [u8; 4],
    cube_count: u16,
    /// Index into the site's order of play.
    seat: u8,
    /// Colours out, one bit per colour index.
    out: u8,
    /// Colours that forfeited (resigned, or ran out of time): out, and ranked below every
    /// colour that did not (rules §5.1). One bit per colour index.
    forfeited: u8,
    plies: u16,
    /// The Zobrist hash, kept up to date by each placement, unless `hash_stale`.
    hash: u64,
    /// The crate's loops that play positions only to count or score them (random
    /// playouts, perft) skip the hash's updates, a sixteenth of a playout's instructions;
    /// such a position says so here and [`Position::hash`] computes it afresh.
    hash_stale: bool,
}

/// The colours that do not play in this game, as out bits.
fn absent_colours(site: &Site) -> u8 {
    Colour::ALL
        .iter()
        .filter(|c| !site.order.contains(c))
        .fold(0, |m, c| m | 1 << c.index())
}

impl Position {
    /// The empty board, with the first colour that can move to move.
    pub fn new(site: &Site) -> Position {
        let mut p = Position {
            heights: [0; MAX_COLUMNS],
            cubes: [[0; MAX_COLUMNS]; 5],
            touch: [[0; MAX_COLUMNS]; 5],
            left: [0; 4],
            ruins_left: if site.ruin_colour.is_some() { ALL_STONES } else { 0 },
            used: [0; 5],
            placed: [0; 4],
            cube_count: 0,
            seat: 0,
            out: 0,
            forfeited: 0,
            plies: 0,
            hash: turn_key(0),
            hash_stale: false,
        };
        for c in &site.order {
            p.left[c.index()] = ALL_STONES;
        }
        // Colours not in the game are out from the start; they are never to move.
        p.out = absent_colours(site);
        p.hash = p.hash_from_scratch();
        p.settle(site, 0);
        p
    }

    /// The colour to move, or `None` when the game is over.
    pub fn to_move(&self, site: &Site) -> Option<Colour> {
        (!self.is_over()).then(|| site.order[self.seat as usize])
    }

    /// Whether no colour can place any more.
    pub fn is_over(&self) -> bool {
        self.out == 0xf
    }

    /// Whether a colour will never place again. Under [`StuckRule::Pass`] a colour that is
    /// stuck for now but has stones left is not out (it has no placement now, and passes).
    pub fn is_out(&self, c: Colour) -> bool {
        self.out >> c.index() & 1 == 1
    }

    /// Placements made so far (not counting ruins).
    pub fn plies(&self) -> usize {
        self.plies as usize
    }

    /// The Zobrist key of the position, kept up to date move by move: the cubes, the stones
    /// used, the colours out and the colour to move.
    pub fn hash(&self) -> u64 {
        if self.hash_stale {
            self.hash_from_scratch()
        } else {
            self.hash
        }
    }

    /// The height of a column (the number of cubes on it).
    pub fn height(&self, column: usize) -> u8 {
        self.heights[column]
    }

    /// The cube at `level` (1-based) of a column.
    pub fn cube(&self, column: usize, level: u8) -> Option<Cube> {
        if level == 0 || level > self.heights[column] {
            return None;
        }
        let bit = 1u16 << (level - 1);
        (0..5)
            .find(|&k| self.cubes[k][column] & bit != 0)
            .map(|k| match Colour::from_index(k) {
                Some(c) => Cube::Stone(c),
                None => Cube::Ruin,
            })
    }

    /// The top cube of a column.
    pub fn top(&self, column: usize) -> Option<Cube> {
        self.cube(column, self.heights[column])
    }

    /// Cubes in the structure, ruins included.
    pub fn cube_count(&self) -> usize {
        self.cube_count as usize
    }

    /// The stones a colour has not placed.
    pub fn stones_left(&self, c: Colour) -> Vec<Stone> {
        Stone::ALL
            .iter()
            .copied()
            .filter(|s| self.left[c.index()] >> s.index() & 1 == 1)
            .collect()
    }

    /// How many stones a colour has not placed ([`Position::stones_left`] without the list).
    pub fn stones_in_hand(&self, c: Colour) -> usize {
        self.left[c.index()].count_ones() as usize
    }

    /// A column's cubes of colour `c`, one bit per level: bit z set when the cube at level
    /// z + 1 is that colour's (what [`Position::cube`] answers, for every level at once).
    pub fn cube_levels(&self, column: usize, c: Colour) -> u16 {
        self.cubes[c.index()][column]
    }

    /// A column's ruin cubes (Ruinas), one bit per level as in [`Position::cube_levels`].
    pub fn ruin_levels(&self, column: usize) -> u16 {
        self.cubes[RUIN][column]
    }

    /// Whether a colour still has a stone.
    pub fn has_stone(&self, c: Colour, s: Stone) -> bool {
        self.left[c.index()] >> s.index() & 1 == 1
    }

    /// Stones a colour has placed.
    pub fn stones_placed(&self, c: Colour) -> usize {
        self.placed[c.index()] as usize
    }

    /// The ruin stones not yet placed (Ruinas).
    pub fn ruins_left(&self) -> Vec<Stone> {
        Stone::ALL
            .iter()
            .copied()
            .filter(|s| self.ruins_left >> s.index() & 1 == 1)
            .collect()
    }

    fn contact_for(&self, colour: Colour) -> Contact {
        if self.cube_count == 0 {
            Contact::None
        } else if self.placed[colour.index()] == 0 {
            Contact::FirstStone
        } else {
            Contact::Own(colour.index())
        }
    }

    /// Whether a template fits the structure (support and height) for any owner; returns
    /// the base level.
    #[inline(always)]
    fn base_if_supported(&self, t: &Template) -> Option<u8> {
        let z0 = self.heights[t.columns[t.anchor as usize] as usize];
        if z0 > t.zmax {
            return None;
        }
        for i in 0..t.len as usize {
            if self.heights[t.columns[i] as usize] != z0 + t.base[i] {
                return None;
            }
        }
        Some(z0)
    }

    /// The contact bits a template's cubes would have with cubes of `kind`.
    #[inline(always)]
    fn contact_bits(&self, t: &Template, kind: usize) -> u16 {
        let mut bits = 0;
        for i in 0..t.len as usize {
            let c = t.columns[i] as usize;
            let touch = if kind == ANY {
                self.touch.iter().fold(0, |a, k| a | k[c])
            } else {
                self.touch[kind][c]
            };
            bits |= (touch >> self.heights[c]) & ((1u16 << t.count[i]) - 1);
        }
        bits
    }

    /// What the generator needs to find `colour`'s placements.
    #[inline]
    fn gen_input(&self, colour: Colour) -> GenInput<'_> {
        let k = colour.index();
        let (touch, first) = match self.contact_for(colour) {
            Contact::None => (Touch::Nothing, false),
            Contact::FirstStone => (Touch::Any(&self.touch), true),
            Contact::Own(k) => (Touch::One(&self.touch[k]), false),
        };
        GenInput {
            heights: &self.heights,
            touch,
            left: self.left[k],
            first,
        }
    }

    /// Every legal placement for the colour to move, sorted by template id.
    pub fn legal_moves(&self, site: &Site, out: &mut Vec<Move>) {
        let mut set = MoveSet::new();
        self.legal_set(site, &mut set);
        set.to_moves(site.gen_tables(), out);
    }

    /// Fills `set` with the legal placements for the colour to move (empty when the game is
    /// over), on the active code path; returns their number.
    pub fn legal_set(&self, site: &Site, set: &mut MoveSet) -> usize {
        self.legal_set_on(site, CodePath::active(), set)
    }

    /// As [`Position::legal_set`] on a chosen code path; refused (and `set` unchanged)
    /// when this process cannot run it.
    pub fn legal_set_with(&self, site: &Site, path: CodePath, set: &mut MoveSet) -> Result<usize, CodePathUnavailable> {
        let path = path.check()?;
        Ok(self.legal_set_on(site, path, set))
    }

    /// [`Position::legal_set_with`] on a path the caller checked.
    #[inline]
    pub(crate) fn legal_set_on(&self, site: &Site, path: CodePath, set: &mut MoveSet) -> usize {
        let Some(colour) = self.to_move(site) else {
            set.clear();
            return 0;
        };
        movegen::generate(site.gen_tables(), &self.gen_input(colour), path, set)
    }

    /// The number of legal placements for the colour to move.
    pub fn count_moves(&self, site: &Site) -> u64 {
        match self.to_move(site) {
            Some(colour) => movegen::count(site.gen_tables(), &self.gen_input(colour), CodePath::active()) as u64,
            None => 0,
        }
    }

    /// The placements `colour` would have if it were to move now (0 once it is out): its
    /// room to play, which the AI's evaluation weighs for every colour.
    pub fn count_moves_for(&self, site: &Site, colour: Colour) -> u64 {
        if self.is_out(colour) || self.left[colour.index()] == 0 {
            return 0;
        }
        movegen::count(site.gen_tables(), &self.gen_input(colour), CodePath::active()) as u64
    }

    /// Fills `set` with the placements `colour` would have if it were to move now (empty
    /// once it is out, as [`Position::count_moves_for`] counts them); returns their number.
    /// What the AI's estimate of the room a placement takes from the others starts from.
    pub fn legal_set_for(&self, site: &Site, colour: Colour, set: &mut MoveSet) -> usize {
        if self.is_out(colour) || self.left[colour.index()] == 0 {
            set.clear();
            return 0;
        }
        movegen::generate(site.gen_tables(), &self.gen_input(colour), CodePath::active(), set)
    }

    /// The placements each colour (by colour index) would have after the colour to move
    /// places `m`, a legal placement, counted as by [`Position::count_moves_for`] but without
    /// passing the turn (the AI's evaluation of room, for every child of a search node).
    pub fn count_moves_after(&self, site: &Site, m: Move) -> [u64; 4] {
        self.count_moves_after_for(site, m, |_| true)
    }

    /// [`Position::count_moves_after`] for the colours `wanted` says (0 for the others):
    /// the AI's evaluation leaves out the mover's own when it does not weigh it.
    pub fn count_moves_after_for(&self, site: &Site, m: Move, wanted: impl Fn(Colour) -> bool) -> [u64; 4] {
        let mut after = self.clone();
        after.place::<true, true>(site, m, CodePath::Scalar);
        let mut out = [0; 4];
        for &c in site.order.iter().filter(|&&c| wanted(c)) {
            out[c.index()] = after.count_moves_for(site, c);
        }
        out
    }

    /// Whether `colour` has a legal placement now.
    pub fn has_move(&self, site: &Site, colour: Colour) -> bool {
        self.has_move_on(site, colour, CodePath::active())
    }

    #[inline]
    fn has_move_on(&self, site: &Site, colour: Colour, path: CodePath) -> bool {
        self.left[colour.index()] != 0 && movegen::any(site.gen_tables(), &self.gen_input(colour), path)
    }

    /// Checks a placement for the colour to move, saying why it is illegal.
    pub fn check(&self, site: &Site, m: Move) -> Result<(), Illegal> {
        let colour = self.to_move(site).ok_or(Illegal::GameOver)?;
        let t = site.template(m);
        if !self.has_stone(colour, t.stone) {
            return Err(Illegal::StoneUsed {
                colour: Some(colour),
                stone: t.stone,
            });
        }
        let z0 = self.check_structure(site, t)?;
        match self.contact_for(colour) {
            Contact::None => Ok(()),
            Contact::FirstStone if z0 != 0 => Err(Illegal::FirstStoneNotOnBoard),
            Contact::FirstStone if self.contact_bits(t, ANY) == 0 => Err(Illegal::FirstStoneNotTouching),
            Contact::Own(k) if self.contact_bits(t, k) == 0 => Err(Illegal::NoOwnContact { colour }),
            _ => Ok(()),
        }
    }

    /// Rules 1-4 (grid, footprint, height, support), with the reason; returns the base level.
    fn check_structure(&self, site: &Site, t: &Template) -> Result<u8, Illegal> {
        let z0 = self.heights[t.columns[t.anchor as usize] as usize];
        for (c, b, _) in t.entries() {
            if self.heights[c] != z0 + b {
                return Err(Illegal::Gap {
                    column: site.column_name(c),
                    height: self.heights[c],
                    needed: z0 + b,
                });
            }
        }
        if z0 > t.zmax {
            let top = t.entries().map(|(_, b, k)| z0 + b + k).max().unwrap_or(0);
            return Err(Illegal::TooHigh { level: top });
        }
        Ok(z0)
    }

    /// Plays a legal placement for the colour to move.
    pub fn play(&mut self, site: &Site, m: Move) -> Result<(), Illegal> {
        self.check(site, m)?;
        self.play_unchecked(site, m);
        Ok(())
    }

    /// Makes this position a copy of `from`, both positions of `site`: what `clone_from`
    /// gives, but only the board's columns are copied (rounded up to whole 64-byte groups,
    /// as the AVX-512 placement reads and writes them, so that its loads take their data
    /// from these stores). The entries past the board's columns are zero in every position
    /// of a site — nothing writes them — and a position is 2.6 kB, most of it those entries:
    /// perft copies one per leaf's parent, and the full copy was a fifth of its time.
    #[inline(always)]
    ///
    /// `CUBES` false leaves the cubes as they were: for a position that is only played
    /// with `play_count` and dropped (perft's last ply), which never reads them.
    pub(crate) fn copy_from_same_site<const CUBES: bool>(&mut self, from: &Position, site: &Site) {
        // Naming every field: a new one is a compile error here, not a field left stale.
        let Position {
            heights: _,
            cubes: _,
            touch: _,
            left,
            ruins_left,
            used,
            placed,
            cube_count,
            seat,
            out,
            forfeited,
            plies,
            hash,
            hash_stale,
        } = *from;
        for g in 0..site.columns.div_ceil(64).min(MAX_COLUMNS / 64) {
            let r = 64 * g..64 * g + 64;
            self.heights[r.clone()].copy_from_slice(&from.heights[r]);
        }
        for g in 0..site.columns.div_ceil(32).min(MAX_COLUMNS / 32) {
            let r = 32 * g..32 * g + 32;
            for kind in 0..5 {
                if CUBES {
                    self.cubes[kind][r.clone()].copy_from_slice(&from.cubes[kind][r.clone()]);
                }
                self.touch[kind][r.clone()].copy_from_slice(&from.touch[kind][r.clone()]);
            }
        }
        (self.left, self.ruins_left, self.used, self.placed) = (left, ruins_left, used, placed);
        (self.cube_count, self.seat, self.out, self.plies) = (cube_count, seat, out, plies);
        (self.forfeited, self.hash, self.hash_stale) = (forfeited, hash, hash_stale);
    }

    /// Plays a placement known to be legal for the colour to move, then passes the turn to
    /// the next colour that can place; a colour passed over is out, or under
    /// [`StuckRule::Pass`] passes (see `Position::settle_by` in the source).
    pub fn play_unchecked(&mut self, site: &Site, m: Move) {
        let next = self.place::<true, true>(site, m, CodePath::Scalar);
        self.settle(site, next);
    }

    /// Plays a placement known to be legal for the colour to move, like
    /// [`Position::play_unchecked`], and leaves in `set` the legal placements of the colour
    /// that moves next (empty when the game is over), found on `path`; returns their
    /// number; refused (and nothing played) when this process cannot run `path`. Each
    /// colour passed over costs one generation.
    pub fn play_generate_with(
        &mut self,
        site: &Site,
        m: Move,
        path: CodePath,
        set: &mut MoveSet,
    ) -> Result<usize, CodePathUnavailable> {
        let path = path.check()?;
        Ok(self.play_generate::<true>(site, m, path, set))
    }

    /// [`Position::play_generate_with`] without keeping the Zobrist hash up to date: for
    /// playouts, which only score where they end. The hash is computed afresh if it is
    /// asked for later ([`Position::hash`], a pass over the whole board), so where hashes
    /// are read along the way the other is cheaper.
    pub fn play_generate_unhashed_with(
        &mut self,
        site: &Site,
        m: Move,
        path: CodePath,
        set: &mut MoveSet,
    ) -> Result<usize, CodePathUnavailable> {
        let path = path.check()?;
        Ok(self.play_generate::<false>(site, m, path, set))
    }

    /// [`Position::play_generate_with`] without the check, for the crate's loops (perft,
    /// playouts) that checked `path` once at their entry: a path this CPU cannot run would
    /// execute instructions it does not have, so this must never be public.
    #[inline(always)]
    ///
    /// `HASH` false skips the hash's updates and marks it stale (see `hash_stale`): for the
    /// loops that only count or score what they play.
    pub(crate) fn play_generate<const HASH: bool>(
        &mut self,
        site: &Site,
        m: Move,
        path: CodePath,
        set: &mut MoveSet,
    ) -> usize {
        if !HASH {
            self.hash_stale = true;
        }
        let next = self.place::<true, HASH>(site, m, path);
        self.settle_generate::<HASH>(site, next, path, set)
    }

    /// [`Position::play_generate`] of the placement in generator slot `slot` (a slot of a
    /// legal placement, as the pick gives it).
    #[inline(always)]
    pub(crate) fn play_generate_slot<const HASH: bool>(
        &mut self,
        site: &Site,
        slot: usize,
        path: CodePath,
        set: &mut MoveSet,
    ) -> usize {
        if !HASH {
            self.hash_stale = true;
        }
        let next = self.place_slot::<true, HASH>(site, slot, path);
        self.settle_generate::<HASH>(site, next, path, set)
    }

    /// Puts the stone on the structure; returns the next seat.
    #[inline(always)]
    ///
    /// `CUBES` false leaves the cubes stale: only for a position that is counted and
    /// dropped (`play_count`), as nothing that counts placements reads them. `HASH` false
    /// leaves the hash as it was: the caller marks it stale.
    fn place<const CUBES: bool, const HASH: bool>(&mut self, site: &Site, m: Move, path: CodePath) -> usize {
        let t = site.template(m);
        self.place_runs::<CUBES, HASH>(site, &Runs::of(t), t.stone.index(), path)
    }

    /// [`Position::place`] of the template in a generator slot, read from the slot's
    /// [`Placing`] (one load from the pick's slot, where the template id and then the
    /// template are two).
    #[inline(always)]
    fn place_slot<const CUBES: bool, const HASH: bool>(&mut self, site: &Site, slot: usize, path: CodePath) -> usize {
        let p = site.gen_tables().placing(slot);
        self.place_runs::<CUBES, HASH>(site, &Runs::from_placing(&p), p.stone(), path)
    }

    /// What [`Position::place`] does, given the stone's runs and its index.
    #[inline(always)]
    fn place_runs<const CUBES: bool, const HASH: bool>(
        &mut self,
        site: &Site,
        t: &Runs,
        stone: usize,
        path: CodePath,
    ) -> usize {
        let colour = site.order[self.seat as usize];
        let k = colour.index();
        match path {
            // SAFETY: `path` is available: `place` is private, and its public ways in
            // (`play_unchecked` on the scalar path, `play_generate_with`) check it; the
            // crate-private `play_generate` is only reached from loops that checked it.
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx512 => unsafe { self.add_cubes_avx512::<CUBES, HASH>(site, t, k) },
            _ => self.add_cubes::<HASH>(site, t, k),
        }
        // A stone's index is below 11 (a nibble in `Placing`, masked so).
        let bit = 1u16 << (stone & 15);
        self.left[k] &= !bit;
        self.used[k] |= bit;
        if HASH {
            self.hash ^= stone_key(k, Stone::ALL[stone % STONE_COUNT]);
        }
        self.placed[k] += 1;
        self.plies += 1;
        let next = self.seat as usize + 1;
        if next == site.order.len() {
            0
        } else {
            next
        }
    }

    /// A colour leaves the game now (it resigned or its time ran out): it has *forfeited*
    /// (rules §5.1). It is out from here on, as if it had no placement (rules §5), keeps
    /// its score with a point off per stone it did not place, and ranks below every colour
    /// that did not forfeit. When at most one player has not forfeited (a player forfeits
    /// by any colour of theirs leaving), the game ends at once; otherwise, when it was to move, the turn passes on as
    /// after a placement, and the colour to move stays the same if not.
    pub fn retire(&mut self, site: &Site, colour: Colour) -> Result<(), RetireError> {
        if self.is_over() {
            return Err(RetireError::GameOver);
        }
        if !site.order.contains(&colour) {
            return Err(RetireError::NotInGame(colour));
        }
        if self.is_out(colour) {
            return Err(RetireError::AlreadyOut(colour));
        }
        let was_to_move = self.to_move(site) == Some(colour);
        self.out |= 1 << colour.index();
        self.forfeited |= 1 << colour.index();
        self.hash ^= out_key(colour.index());
        if self.only_one_player_stays(site) {
            self.end_now();
        } else if was_to_move {
            let next = (self.seat as usize + 1) % site.order.len();
            self.settle(site, next);
        }
        Ok(())
    }

    /// Whether at most one player has not forfeited (a player forfeits by any colour of
    /// theirs leaving: rules §5.1).
    fn only_one_player_stays(&self, site: &Site) -> bool {
        let mut staying = [true; 4];
        for &c in &site.order {
            if let Some(p) = site.player_of(c).filter(|&p| p < 4) {
                staying[p] &= !self.has_forfeited(c);
            }
        }
        staying[..site.players().min(4)].iter().filter(|&&s| s).count() <= 1
    }

    /// Ends the game here: every colour is out, the turn at the first seat (as when the
    /// game ends by itself).
    fn end_now(&mut self) {
        self.hash ^= turn_key(self.seat);
        for k in 0..4 {
            if self.out >> k & 1 == 0 {
                self.out |= 1 << k;
                self.hash ^= out_key(k);
            }
        }
        self.seat = 0;
        self.hash ^= turn_key(0);
    }

    /// Whether a colour forfeited the game (resigned, or ran out of time: rules §5.1).
    pub fn has_forfeited(&self, c: Colour) -> bool {
        self.forfeited >> c.index() & 1 == 1
    }

    /// Places a ruin stone (Ruinas, before the first move): rules 1-4, no contact.
    pub fn place_ruin(&mut self, site: &Site, m: Move) -> Result<(), Illegal> {
        let t = site.template(m);
        if self.ruins_left >> t.stone.index() & 1 == 0 {
            return Err(Illegal::StoneUsed {
                colour: None,
                stone: t.stone,
            });
        }
        self.check_structure(site, t)?;
        self.add_cubes::<true>(site, &Runs::of(t), RUIN);
        self.ruins_left &= !(1 << t.stone.index());
        self.used[RUIN] |= 1 << t.stone.index();
        // The structure changed before the first move: whether a colour can move is
        // decided afresh.
        self.out = absent_colours(site);
        self.seat = 0;
        self.settle(site, 0);
        self.hash = self.hash_from_scratch();
        self.hash_stale = false;
        Ok(())
    }

    /// The ruin placements that fit now (rules 1-4) for the ruin stones left.
    pub fn ruin_moves(&self, site: &Site) -> Vec<Move> {
        let templates = site.templates();
        let mut out = Vec::new();
        for s in self.ruins_left() {
            for id in site.stone_range(s) {
                if self.base_if_supported(&templates[id]).is_some() {
                    out.push(Move(id as u16));
                }
            }
        }
        out
    }

    #[inline(always)]
    fn add_cubes<const HASH: bool>(&mut self, site: &Site, t: &Runs, kind: usize) {
        for i in 0..t.len as usize {
            let c = t.columns[i] as usize & (MAX_COLUMNS - 1);
            let k = t.count[i];
            let h = self.heights[c];
            // h + k <= 15: the run's bits and the cell above it fit in 16 bits.
            let run = ((1u16 << k) - 1) << h;
            self.cubes[kind][c] |= run;
            if HASH {
                self.hash ^= site.run_key(kind, c, h, k);
            }
            // The cell above shares a face with the top cube, and so do the cells beside
            // each cube.
            self.touch[kind][c] |= run << 1;
            for &n in site.neighbours(c) {
                self.touch[kind][n as usize & (MAX_COLUMNS - 1)] |= run;
            }
            self.heights[c] = h + k;
            self.cube_count += k as u16;
        }
    }

    /// [`Position::add_cubes`] with the heights and contact masks updated by whole 64-byte
    /// vectors: the generator reads them right after, with wide loads, which could not
    /// take their data from narrow stores still in flight and would wait for them.
    /// Callable (with `unsafe`) only where the CPU has AVX-512 F and BW.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn add_cubes_avx512<const CUBES: bool, const HASH: bool>(&mut self, site: &Site, t: &Runs, kind: usize) {
        use std::arch::x86_64::*;
        let len = (t.len as usize).min(4);
        let mut runs = [0u16; 4];
        let mut cols = [0usize; 4];
        for i in 0..len {
            let c = t.columns[i] as usize & (MAX_COLUMNS - 1);
            let k = t.count[i];
            let h = self.heights[c];
            let run = ((1u16 << k) - 1) << h;
            if CUBES {
                self.cubes[kind][c] |= run;
            }
            if HASH {
                self.hash ^= site.run_key(kind, c, h, k);
            }
            self.cube_count += k as u16;
            runs[i] = run;
            cols[i] = c;
        }
        // Groups of 64 heights, 32 contact masks (MAX_COLUMNS = 128).
        for g in 0..site.columns.div_ceil(64).min(2) {
            // SAFETY: g <= 1 and `heights` has MAX_COLUMNS = 128 bytes: 64 bytes at 64 g
            // are ours to read and write (the store below).
            let p = unsafe { self.heights.as_mut_ptr().add(64 * g) };
            // SAFETY: see `p`.
            let mut v = unsafe { _mm512_loadu_si512(p.cast()) };
            for (&c, &k) in cols[..len].iter().zip(&t.count) {
                if c / 64 == g {
                    v = _mm512_mask_add_epi8(v, 1u64 << (c % 64), v, _mm512_set1_epi8(k as i8));
                }
            }
            // SAFETY: see `p`.
            unsafe { _mm512_storeu_si512(p.cast(), v) };
        }
        let touch = &mut self.touch[kind];
        for g in 0..site.columns.div_ceil(32).min(4) {
            // SAFETY: g <= 3 and a contact-mask row has MAX_COLUMNS = 128 u16s: 32 u16s
            // (64 bytes) at 32 g are ours to read and write (the store below).
            let p = unsafe { touch.as_mut_ptr().add(32 * g) };
            // SAFETY: see `p`.
            let mut v = unsafe { _mm512_loadu_si512(p.cast()) };
            for (&c, &run) in cols[..len].iter().zip(&runs) {
                let m = (site.neighbour_mask(c)[g / 2] >> (32 * (g % 2))) as u32;
                v = _mm512_or_si512(v, _mm512_maskz_set1_epi16(m, run as i16));
                if c / 32 == g {
                    let above = _mm512_maskz_set1_epi16(1 << (c % 32), (run << 1) as i16);
                    v = _mm512_or_si512(v, above);
                }
            }
            // SAFETY: see `p`.
            unsafe { _mm512_storeu_si512(p.cast(), v) };
        }
    }

    /// Gives the turn to the first colour, from seat `from` on in order of play, that can
    /// place (see [`Position::settle_by`], where the rule lives).
    fn settle(&mut self, site: &Site, from: usize) {
        let path = CodePath::active();
        self.settle_by::<true>(site, from, |input| {
            movegen::any(site.gen_tables(), input, path) as usize
        });
    }

    /// [`Position::settle`], keeping the generated placements of the colour to move.
    #[inline(always)]
    fn settle_generate<const HASH: bool>(
        &mut self,
        site: &Site,
        from: usize,
        path: CodePath,
        set: &mut MoveSet,
    ) -> usize {
        let n = self.settle_by::<HASH>(site, from, |input| {
            movegen::generate(site.gen_tables(), input, path, set)
        });
        if n == 0 {
            set.clear();
        }
        n
    }

    /// Passing the turn (rules §5-6), the one place that decides it: from seat `from` on in
    /// order of play, the first colour that can place is to move. A colour met that has no
    /// stone left is out. A colour met with stones but no placement is out for good under
    /// [`StuckRule::Out`]; under [`StuckRule::Pass`] it passes (it stays in and is asked
    /// again on its next turn). A full round without a placement ends the game: nothing on
    /// the structure changes while colours pass, so nobody will ever place again; every
    /// colour is then out. `count` gives the number of placements of a colour (and may
    /// keep them); returns the count of the colour to move, 0 when the game is over.
    #[inline(always)]
    /// `HASH` false leaves the hash as it was (see [`Position::place`]).
    fn settle_by<const HASH: bool>(
        &mut self,
        site: &Site,
        from: usize,
        mut count: impl FnMut(&GenInput) -> usize,
    ) -> usize {
        let n = site.order.len();
        if HASH {
            self.hash ^= turn_key(self.seat);
        }
        let mut passed = 0u8;
        for i in 0..n {
            let seat = if from + i >= n { from + i - n } else { from + i };
            let colour = site.order[seat];
            if self.is_out(colour) {
                continue;
            }
            if self.left[colour.index()] != 0 {
                let found = count(&self.gen_input(colour));
                if found > 0 {
                    self.seat = seat as u8;
                    if HASH {
                        self.hash ^= turn_key(self.seat);
                    }
                    return found;
                }
                // Only reached when a colour is stuck: the default rule's path pays nothing.
                if site.stuck_rule == StuckRule::Pass {
                    passed |= 1 << colour.index();
                    continue;
                }
            }
            self.out |= 1 << colour.index();
            if HASH {
                self.hash ^= out_key(colour.index());
            }
        }
        // The game is over: the colours that passed are out now too.
        while passed != 0 {
            let k = passed.trailing_zeros() as usize;
            self.out |= 1 << k;
            if HASH {
                self.hash ^= out_key(k);
            }
            passed &= passed - 1;
        }
        self.seat = 0;
        if HASH {
            self.hash ^= turn_key(0);
        }
        0
    }

    /// Plays the placement in generator slot `slot` (a slot of a legal placement for the
    /// colour to move), like [`Position::play_unchecked`]; returns the number of legal
    /// placements of the colour that moves next (0 when the game is over), counted on
    /// `path` (available) without listing them: the last ply of a bulk-counting perft.
    #[inline(always)]
    pub(crate) fn play_count(&mut self, site: &Site, slot: usize, path: CodePath) -> usize {
        self.hash_stale = true;
        let next = self.place_slot::<false, false>(site, slot, path);
        self.settle_by::<false>(site, next, |input| movegen::count(site.gen_tables(), input, path))
    }

    /// The Zobrist hash computed from scratch (the incremental one must always equal it).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = turn_key(self.seat);
        for k in 0..5 {
            for c in 0..MAX_COLUMNS {
                let mut bits = self.cubes[k][c];
                while bits != 0 {
                    h ^= cube_key(k, c, bits.trailing_zeros() as u8);
                    bits &= bits - 1;
                }
            }
            for s in Stone::ALL {
                if self.used[k] >> s.index() & 1 == 1 {
                    h ^= stone_key(k, s);
                }
            }
        }
        for k in 0..4 {
            if self.out >> k & 1 == 1 {
                h ^= out_key(k);
            }
        }
        h
    }

    /// Score of a colour: columns whose top cube is of that colour, minus one per stone
    /// never placed.
    pub fn score(&self, site: &Site, colour: Colour) -> i32 {
        let k = colour.index();
        let tops = site
            .footprint()
            .filter(|&c| {
                let h = self.heights[c];
                h > 0 && self.cubes[k][c] >> (h - 1) & 1 == 1
            })
            .count() as i32;
        tops - self.left[k].count_ones() as i32
    }

    /// Every colour's [`score`](Position::score), by colour index, in one pass over the
    /// columns and without allocating: the end of every playout of the search is scored
    /// (a colour not in the game gets a meaningless figure).
    pub fn colour_scores(&self, site: &Site) -> [i32; 4] {
        let mut tops = [0i32; 4];
        // Columns off the footprint stay at height 0.
        for c in 0..site.columns.min(MAX_COLUMNS) {
            let h = self.heights[c];
            if h > 0 {
                let top = 1u16 << ((h - 1) & 15);
                for (k, t) in tops.iter_mut().enumerate() {
                    *t += i32::from(self.cubes[k][c] & top != 0);
                }
            }
        }
        for (t, left) in tops.iter_mut().zip(self.left) {
            *t -= left.count_ones() as i32;
        }
        tops
    }

    /// The scores in order of play.
    pub fn scores(&self, site: &Site) -> Vec<(Colour, i32)> {
        let all = self.colour_scores(site);
        site.order.iter().map(|&c| (c, all[c.index()])).collect()
    }

    /// The result: in the two-player four-colour game a player's score is its better
    /// colour's; the players are ranked by score, equal scores sharing a place, below them
    /// every player that forfeited (rules §5.1), sharing the last place; the winners are
    /// the first place's players that did not forfeit.
    pub fn outcome(&self, site: &Site) -> Outcome {
        self.outcome_with(site, &[])
    }

    /// The result as [`Position::outcome`], with the players in `also_forfeited` (0-based)
    /// counted as forfeited too: an online game's seat whose player walked away and whose
    /// colours the AI plays on (the server's rule, rules §5.1).
    pub fn outcome_with(&self, site: &Site, also_forfeited: &[usize]) -> Outcome {
        let scores = self.scores(site);
        let (players, forfeited): (Vec<i32>, Vec<usize>) = match site.variant {
            Variant::TwoPlayerFourColors => {
                let colours_of = |p: usize| scores.iter().filter(move |(c, _)| site.player_of(*c) == Some(p));
                (
                    (0..2).map(|p| colours_of(p).map(|s| s.1).max().unwrap_or(0)).collect(),
                    // A player forfeits by a colour of theirs leaving (both leave together
                    // when the player resigns or runs out of time).
                    (0..2)
                        .filter(|&p| colours_of(p).any(|(c, _)| self.has_forfeited(*c)))
                        .collect(),
                )
            }
            _ => (
                scores.iter().map(|s| s.1).collect(),
                (0..scores.len()).filter(|&i| self.has_forfeited(scores[i].0)).collect(),
            ),
        };
        let mut forfeited: Vec<usize> = forfeited
            .into_iter()
            .chain(also_forfeited.iter().copied().filter(|&p| p < players.len()))
            .collect();
        forfeited.sort_unstable();
        forfeited.dedup();
        let places = places(&players, &forfeited);
        let winners = (0..players.len())
            .filter(|&p| places[p] == 1 && !forfeited.contains(&p))
            .collect();
        Outcome {
            scores,
            players,
            winners,
            forfeited,
            places,
        }
    }
}

/// Each player's place (1 = first) from the players' scores, equal scores sharing a place
/// (dense: 1, 1, 2); the players in `forfeited` come after all the others, sharing the last
/// place (rules §5.1).
pub fn places(scores: &[i32], forfeited: &[usize]) -> Vec<usize> {
    let mut distinct: Vec<i32> = (0..scores.len())
        .filter(|i| !forfeited.contains(i))
        .map(|i| scores[i])
        .collect();
    distinct.sort_unstable_by(|a, b| b.cmp(a));
    distinct.dedup();
    let last = distinct.len() + 1;
    (0..scores.len())
        .map(|i| {
            if forfeited.contains(&i) {
                last
            } else {
                distinct.iter().position(|&s| s == scores[i]).map_or(last, |p| p + 1)
            }
        })
        .collect()
}

/// Scores and winners of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    /// Each colour's score, in order of play.
    pub scores: Vec<(Colour, i32)>,
    /// Each player's score (a colour's own, or the better of two colours).
    pub players: Vec<i32>,
    /// The winning players (0-based), more than one for a shared win; none when every
    /// player forfeited.
    pub winners: Vec<usize>,
    /// The players (0-based) that forfeited (rules §5.1), in order.
    pub forfeited: Vec<usize>,
    /// Each player's place, 1 = first: by score, equal scores sharing a place, the players
    /// that forfeited after all the others ([`places`]).
    pub places: Vec<usize>,
}

/// Equal positions: the same structure, stones, turn and colours out. The hash is left out:
/// it is a function of the rest, and a stale one (see `hash_stale`) is not kept up.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        // Naming every field: a new one is a compile error here, not a field left out.
        let Position {
            heights,
            cubes,
            touch,
            left,
            ruins_left,
            used,
            placed,
            cube_count,
            seat,
            out,
            forfeited,
            plies,
            hash: _,
            hash_stale: _,
        } = self;
        *heights == other.heights
            && *cubes == other.cubes
            && *touch == other.touch
            && *left == other.left
            && *ruins_left == other.ruins_left
            && *used == other.used
            && *placed == other.placed
            && *cube_count == other.cube_count
            && *seat == other.seat
            && *out == other.out
            && *forfeited == other.forfeited
            && *plies == other.plies
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position {{ plies: {}, seat: {}, out: {:04b}, hash: {:016x} }}",
            self.plies,
            self.seat,
            self.out,
            self.hash()
        )
    }
}

// `Site::cubes` reads a position, so it lives here, above both, rather than in site.rs
// (which would then import this file, which imports it).
impl Site {
    /// The cubes a placement would occupy on a position, as (file, rank, level), 0-based
    /// (level 0 rests on the board), sorted. The stone's lowest level is the highest of
    /// `height - base` over its columns (for a legal placement every column gives the
    /// same). The cubes less their least x, y and z are the cells of
    /// `stone.orientations()[orientation]`.
    pub fn cubes(&self, pos: &Position, m: Move) -> Vec<(u8, u8, u8)> {
        let t = self.template(m);
        let z0 = t
            .entries()
            .map(|(c, b, _)| pos.height(c).saturating_sub(b))
            .max()
            .unwrap_or(0);
        let files = self.board.files;
        let mut out: Vec<(u8, u8, u8)> = t
            .entries()
            .flat_map(|(c, b, k)| (0..k).map(move |j| ((c % files) as u8, (c / files) as u8, z0 + b + j)))
            .collect();
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::{Board, Game, Rng, Variant};

    /// The loops that skip the hash's updates (playouts, perft: `play_generate::<false>`)
    /// mark it stale, and `hash` then computes it afresh: along random games on every code
    /// path, a position played so equals the same game played with `play` (whose hash is
    /// kept up, not stale), hashes the same, and keeps hashing right when played on with
    /// `play`. A position made by `play` is never stale, so the tests that compare `hash`
    /// with `hash_from_scratch` check the kept-up hash.
    #[test]
    fn a_stale_hash_is_computed_afresh() {
        let site = Site::new(Board::builtin("pisac").unwrap().clone(), 4, Variant::Standard, None).unwrap();
        for path in CodePath::available() {
            let mut rng = Rng::new(7);
            let mut kept = Position::new(&site);
            let mut skipped = kept.clone();
            let mut set = MoveSet::new();
            let mut n = skipped.legal_set_on(&site, path, &mut set);
            let mut plies = 0;
            while let Some(m) = set.pick_on(site.gen_tables(), n, &mut rng, path) {
                kept.play(&site, m).unwrap();
                assert!(!kept.hash_stale);
                assert_eq!(kept.hash, kept.hash_from_scratch());
                n = skipped.play_generate_unhashed_with(&site, m, path, &mut set).unwrap();
                assert!(skipped.hash_stale);
                assert_eq!(skipped, kept, "{path} ply {plies}");
                assert_eq!(skipped.hash(), kept.hash(), "{path} ply {plies}");
                plies += 1;
                if plies == 12 {
                    // Played on with `play`, a stale position still hashes right.
                    let mut moves = Vec::new();
                    skipped.legal_moves(&site, &mut moves);
                    let mut on = skipped.clone();
                    let mut on_kept = kept.clone();
                    on.play(&site, moves[0]).unwrap();
                    on_kept.play(&site, moves[0]).unwrap();
                    assert_eq!(on.hash(), on_kept.hash());
                }
            }
            assert!(kept.is_over() && plies > 20, "{path}: {plies} plies");
        }
    }

    /// A placement by its generator slot (the playouts' and perft's `Placing` records)
    /// is the placement by its template: along random games on every built-in board and
    /// player count, with ruins, and on a 128-column box, on every code path, the position
    /// played by slot equals the one played by `play`, and the set it generates is the
    /// colour to move's. Perft's counts ask the same of the last ply (`play_count`).
    #[test]
    fn a_placement_by_slot_is_the_placement_by_template() {
        let mut games: Vec<Game> = Vec::new();
        for board in Board::builtins() {
            for players in 2..=4 {
                let s = Site::new(board.clone(), players, Variant::Standard, None).unwrap();
                games.push(Game::new(Arc::new(s)));
            }
            let s = Site::new(board.clone(), 3, Variant::Ruinas, None).unwrap();
            games.push(Game::with_random_ruins(Arc::new(s), 7));
        }
        let s = Site::new(Board::open_box(16, 8, 4).unwrap(), 4, Variant::Standard, None).unwrap();
        games.push(Game::new(Arc::new(s)));
        let mut plies = 0;
        for path in CodePath::available() {
            let mut rng = Rng::new(21);
            for game in &games {
                let site = game.site();
                let tables = site.gen_tables();
                let mut by_slot = game.position().clone();
                let mut by_move = by_slot.clone();
                let (mut set, mut check) = (MoveSet::new(), MoveSet::new());
                let mut n = by_slot.legal_set_on(site, path, &mut set);
                while let Some(slot) = set.pick_slot_on(tables, n, &mut rng, path) {
                    let m = tables.slot_template(slot).expect("a legal placement's slot");
                    let mut counted = by_slot.clone();
                    let count = counted.play_count(site, slot, path);
                    n = by_slot.play_generate_slot::<false>(site, slot, path, &mut set);
                    by_move.play(site, m).unwrap();
                    assert!(by_slot == by_move, "{} on {path}", site.board.name);
                    assert_eq!(n, by_move.legal_set_on(site, path, &mut check));
                    assert_eq!(set.words(), check.words());
                    assert_eq!(count, n);
                    plies += 1;
                }
                assert!(by_move.is_over());
            }
        }
        assert!(plies > 500, "{plies}");
    }

    /// `copy_from_same_site` copies only the board's columns: at every position of random
    /// games (on every built-in board and player count, with ruins, and on a 128-column
    /// box) a scratch position that held another position of the game becomes equal to it,
    /// and the entries past the board's columns are zero.
    #[test]
    fn a_copy_of_the_columns_is_the_whole_position() {
        let mut games: Vec<Game> = Vec::new();
        for board in Board::builtins() {
            for players in 2..=4 {
                let s = Site::new(board.clone(), players, Variant::Standard, None).unwrap();
                games.push(Game::new(Arc::new(s)));
            }
            let s = Site::new(board.clone(), 3, Variant::Ruinas, None).unwrap();
            games.push(Game::with_random_ruins(Arc::new(s), 7));
        }
        let s = Site::new(Board::open_box(16, 8, 4).unwrap(), 4, Variant::Standard, None).unwrap();
        games.push(Game::new(Arc::new(s)));
        let mut rng = Rng::new(20);
        let mut positions = 0;
        for game in &games {
            let site = game.site();
            for _ in 0..2 {
                let mut pos = game.position().clone();
                let mut scratch = pos.clone();
                let mut moves = Vec::new();
                while !pos.is_over() {
                    pos.legal_moves(site, &mut moves);
                    let previous = pos.clone();
                    pos.play_unchecked(site, moves[rng.below(moves.len())]);
                    scratch.copy_from_same_site::<true>(&pos, site);
                    assert!(scratch == pos, "{}: the copy differs", site.board.name);
                    let tail = site.columns..MAX_COLUMNS;
                    assert!(pos.heights[tail.clone()].iter().all(|&h| h == 0));
                    assert!((0..5).all(|k| pos.cubes[k][tail.clone()].iter().all(|&c| c == 0)));
                    assert!((0..5).all(|k| pos.touch[k][tail.clone()].iter().all(|&c| c == 0)));
                    scratch = previous;
                    positions += 1;
                }
            }
        }
        assert!(positions > 500, "{positions}");
    }
}
