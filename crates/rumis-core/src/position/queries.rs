//! What a position says: its cubes and stones, the legal placements (through the
//! generator), whether a placement is legal and why not, and the hash from scratch.

use super::*;

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
    pub(super) fn gen_input(&self, colour: Colour) -> GenInput<'_> {
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
    pub(super) fn check_structure(&self, site: &Site, t: &Template) -> Result<u8, Illegal> {
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
