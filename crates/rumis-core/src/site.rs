//! The building site of one game: a board read for a player count and variant, with every
//! placement template enumerated once and given a dense id (the move generator's index).

use std::collections::HashMap;
use std::fmt;

use crate::board::{cell_name, parse_cell, Board, MAX_COLUMNS};
use crate::error::SetupError;
use crate::movegen::GenTables;
use crate::stone::{Colour, Stone, STONE_COUNT};
use crate::template::{Move, Template};

/// The game being played on the board (rules §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum Variant {
    /// 2-4 players, one colour each.
    Standard,
    /// Two players with two colours each, under the limits for 4 players.
    TwoPlayerFourColors,
    /// 2 or 3 players after ruins of an unused colour were placed, under the limits for
    /// one player more.
    Ruinas,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 3] = [Variant::Standard, Variant::TwoPlayerFourColors, Variant::Ruinas];

    /// The variant's name, as the command line and records write it.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::TwoPlayerFourColors => "two-player-four-colors",
            Variant::Ruinas => "ruinas",
        }
    }

    /// The variant of a name (any case; `2p4c` and the British spelling too).
    pub fn from_name(s: &str) -> Option<Variant> {
        let s = s.trim().to_ascii_lowercase();
        match s.as_str() {
            "standard" => Some(Variant::Standard),
            "two-player-four-colors" | "two-player-four-colours" | "2p4c" => Some(Variant::TwoPlayerFourColors),
            "ruinas" => Some(Variant::Ruinas),
            _ => None,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What becomes of a colour that has stones left but no legal placement on its turn
/// (rules §5 and §6). A colour with no stones left can never place again: it is out under
/// either rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum StuckRule {
    /// The rulebooks' rule: it is out for the rest of the game.
    #[default]
    Out,
    /// The house rule: it passes this turn and plays again once a placement opens; the game
    /// ends when no colour can place.
    Pass,
}

impl StuckRule {
    /// Both rules.
    pub const ALL: [StuckRule; 2] = [StuckRule::Out, StuckRule::Pass];

    /// The rule's name: `out` or `pass`.
    pub fn name(self) -> &'static str {
        match self {
            StuckRule::Out => "out",
            StuckRule::Pass => "pass",
        }
    }

    /// The rule of a name (any case).
    pub fn from_name(s: &str) -> Option<StuckRule> {
        match s.trim().to_ascii_lowercase().as_str() {
            "out" => Some(StuckRule::Out),
            "pass" => Some(StuckRule::Pass),
            _ => None,
        }
    }
}

impl fmt::Display for StuckRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A stone and the (column, cube count) pairs it covers: what notation writes.
type ShapeKey = (Stone, Vec<(u8, u8)>);

/// A board prepared for one game.
#[derive(Clone, Debug)]
pub struct Site {
    // Private to users (read through the accessors below, so that a site's tables can
    // never disagree with its setup); the crate's own hot loops read them directly.
    pub(crate) board: Board,
    pub(crate) players: usize,
    pub(crate) variant: Variant,
    pub(crate) stuck_rule: StuckRule,
    pub(crate) order: Vec<Colour>,
    /// Per colour (`Colour as usize`): its owner, 0-based, if it plays ([`Site::player_of`],
    /// asked at every ply of a search's playouts: a lookup, not a search of `order`).
    player_by_colour: [Option<u8>; 4],
    pub(crate) ruin_colour: Option<Colour>,
    pub(crate) limit_players: usize,
    pub(crate) columns: usize,
    pub(crate) limit: [u8; MAX_COLUMNS],
    /// Buildable neighbours per column: the first `neighbour_count[c]` entries.
    neighbours: [[u8; 4]; MAX_COLUMNS],
    neighbour_count: [u8; MAX_COLUMNS],
    /// The same as bit masks (bit n of word n / 64).
    neighbour_masks: [[u64; 2]; MAX_COLUMNS],
    templates: Vec<Template>,
    /// Template ids of each stone: `by_stone[s]..by_stone[s + 1]`.
    by_stone: [u16; STONE_COUNT + 1],
    by_shape: HashMap<ShapeKey, Vec<u16>>,
    /// The templates laid out for the fast generator.
    gen: GenTables,
    /// Prefix XORs of the Zobrist keys of the cubes (`zobrist::cube_key`), `(kind * columns + column) * 17 + j` the XOR of the
    /// keys of levels 0..j: a run of cubes is two lookups, not a loop (whose varying trip
    /// count the branch predictor misses).
    run_keys: Vec<u64>,
}

impl Move {
    /// The move of template id `index` on `site`, if the site has that many templates.
    #[inline]
    pub fn from_index(site: &Site, index: usize) -> Option<Move> {
        (index < site.templates.len()).then_some(Move(index as u16))
    }
}

/// The number of colours in play and the player count whose height limits apply: the
/// two-player four-colour game plays four colours under the four-player limits, Ruinas
/// one player's more (rules §6).
fn colour_and_limit_counts(players: usize, variant: Variant) -> Result<(usize, usize), SetupError> {
    if !(2..=4).contains(&players) {
        return Err(SetupError::Players(players));
    }
    match variant {
        Variant::Standard => Ok((players, players)),
        Variant::TwoPlayerFourColors if players != 2 => Err(SetupError::TwoPlayerFourColoursPlayers(players)),
        Variant::TwoPlayerFourColors => Ok((4, 4)),
        Variant::Ruinas if players == 4 => Err(SetupError::RuinasPlayers),
        Variant::Ruinas => Ok((players, players + 1)),
    }
}

/// The order of play: the colours given (each once, as many as play), or the first of R,
/// Y, G, B.
fn play_order(colours: Option<Vec<Colour>>, colour_count: usize) -> Result<Vec<Colour>, SetupError> {
    let Some(c) = colours else {
        return Ok(Colour::ALL[..colour_count].to_vec());
    };
    if c.len() != colour_count {
        return Err(SetupError::ColourCount {
            need: colour_count,
            got: c.len(),
        });
    }
    for (i, a) in c.iter().enumerate() {
        if c[..i].contains(a) {
            return Err(SetupError::ColourTwice(*a));
        }
    }
    Ok(c)
}

/// Each column's neighbours on the footprint (at most four, side by side), their count
/// and their bit mask, as `Site` keeps them.
type NeighbourTables = ([[u8; 4]; MAX_COLUMNS], [u8; MAX_COLUMNS], [[u64; 2]; MAX_COLUMNS]);

fn neighbour_tables(board: &Board, limit: &[u8; MAX_COLUMNS]) -> NeighbourTables {
    let files = board.files;
    let columns = files * board.ranks;
    let mut neighbours = [[0u8; 4]; MAX_COLUMNS];
    let mut neighbour_count = [0u8; MAX_COLUMNS];
    let mut neighbour_masks = [[0u64; 2]; MAX_COLUMNS];
    for c in 0..columns {
        let (x, y) = ((c % files) as i32, (c / files) as i32);
        let list: Vec<u8> = [(-1, 0), (1, 0), (0, -1), (0, 1)]
            .iter()
            .map(|(dx, dy)| (x + dx, y + dy))
            .filter(|&(nx, ny)| nx >= 0 && ny >= 0 && (nx as usize) < files && (ny as usize) < board.ranks)
            .map(|(nx, ny)| (nx as usize + ny as usize * files) as u8)
            .filter(|&n| limit[n as usize] > 0)
            .collect();
        neighbours[c][..list.len()].copy_from_slice(&list);
        neighbour_count[c] = list.len() as u8;
        for &n in &list {
            neighbour_masks[c][n as usize / 64] |= 1 << (n % 64);
        }
    }
    (neighbours, neighbour_count, neighbour_masks)
}

impl Site {
    /// Prepares `board` for a game. `colours` is the order of play; `None` uses the first
    /// colours of R, Y, G, B.
    pub fn new(
        board: Board,
        players: usize,
        variant: Variant,
        colours: Option<Vec<Colour>>,
    ) -> Result<Site, SetupError> {
        let (colour_count, limit_players) = colour_and_limit_counts(players, variant)?;
        let order = play_order(colours, colour_count)?;
        let ruin_colour = match variant {
            Variant::Ruinas => Colour::ALL.iter().copied().find(|c| !order.contains(c)),
            _ => None,
        };

        let files = board.files;
        let columns = files * board.ranks;
        let mut limit = [0u8; MAX_COLUMNS];
        for (c, l) in limit.iter_mut().enumerate().take(columns) {
            *l = board.limit(c % files, c / files, limit_players);
        }
        let (neighbours, neighbour_count, neighbour_masks) = neighbour_tables(&board, &limit);
        let mut player_by_colour = [None; 4];
        for (seat, &c) in order.iter().enumerate() {
            // (The first seat of a colour, as `position` finds it; a colour plays once.)
            if player_by_colour[c as usize].is_none() {
                player_by_colour[c as usize] = Some(match variant {
                    Variant::TwoPlayerFourColors => seat % 2,
                    _ => seat,
                } as u8);
            }
        }
        let mut site = Site {
            board,
            players,
            variant,
            stuck_rule: StuckRule::Out,
            order,
            player_by_colour,
            ruin_colour,
            limit_players,
            columns,
            limit,
            neighbours,
            neighbour_count,
            neighbour_masks,
            templates: Vec::new(),
            by_stone: [0; STONE_COUNT + 1],
            by_shape: HashMap::new(),
            gen: GenTables::new(&[], columns, files, &neighbour_masks),
            run_keys: (0..5 * columns)
                .flat_map(|kc| {
                    let key = move |z: u8| crate::zobrist::cube_key(kc / columns, kc % columns, z);
                    (0..=16u8).map(move |j| (0..j).fold(0, |x, z| x ^ key(z)))
                })
                .collect(),
        };
        site.enumerate_templates();
        site.gen = GenTables::new(&site.templates, columns, files, &site.neighbour_masks);
        Ok(site)
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// About how many bytes the site holds, itself and its tables on the heap: what a cache
    /// of sites (a server's, of boards players made) counts to stay within a budget.
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        let shapes: usize = self
            .by_shape
            .iter()
            .map(|(k, v)| size_of::<ShapeKey>() + k.1.capacity() * 2 + size_of::<Vec<u16>>() + v.capacity() * 2)
            .sum();
        size_of::<Site>()
            + self.templates.capacity() * size_of::<Template>()
            + self.run_keys.capacity() * size_of::<u64>()
            + shapes
            + self.gen.heap_bytes()
            + self.board.memory_bytes()
    }

    /// Number of players (2-4).
    #[inline]
    pub fn players(&self) -> usize {
        self.players
    }

    /// The game played on the board.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// What a colour that cannot place does (rules §5-6); set with
    /// [`Site::with_stuck_rule`].
    #[inline]
    pub fn stuck_rule(&self) -> StuckRule {
        self.stuck_rule
    }

    /// The colours in order of play.
    #[inline]
    pub fn order(&self) -> &[Colour] {
        &self.order
    }

    /// Ruinas: the colour whose stones are the ruins.
    #[inline]
    pub fn ruin_colour(&self) -> Option<Colour> {
        self.ruin_colour
    }

    /// The player count whose footprint and Hmax apply (one more than the players in
    /// Ruinas, 4 in the two-player four-colour game).
    #[inline]
    pub fn limit_players(&self) -> usize {
        self.limit_players
    }

    /// Number of grid cells (`files * ranks`); column `c` is cell `(c % files, c / files)`.
    #[inline]
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// The height limit of each column (0 where not buildable), indexed by column
    /// (`columns()` long).
    #[inline]
    pub fn limits(&self) -> &[u8] {
        &self.limit[..self.columns]
    }

    /// Every placement template of the site as a move, in template order.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        (0..self.templates.len()).map(|i| Move(i as u16))
    }

    /// The same site under another stuck-colour rule (the default is [`StuckRule::Out`]).
    /// Every setup option other than the rule is unchanged, so a caller that knows a
    /// variant can pass the rule along the same way: `Site::new(..)?.with_stuck_rule(r)`.
    pub fn with_stuck_rule(mut self, rule: StuckRule) -> Site {
        self.stuck_rule = rule;
        self
    }

    fn enumerate_templates(&mut self) {
        let files = self.board.files as i32;
        let ranks = self.board.ranks as i32;
        for stone in Stone::ALL {
            self.by_stone[stone.index()] = self.templates.len() as u16;
            for (o, cells) in stone.orientations().iter().enumerate() {
                // Runs per (x, y): every orientation of these stones has one unbroken run
                // per column.
                let mut runs: Vec<(i32, i32, u8, u8)> = Vec::new();
                for &(x, y, z) in cells {
                    match runs.iter_mut().find(|r| r.0 == x as i32 && r.1 == y as i32) {
                        Some(r) => {
                            r.2 = r.2.min(z as u8);
                            r.3 += 1;
                        }
                        None => runs.push((x as i32, y as i32, z as u8, 1)),
                    }
                }
                runs.sort_unstable();
                let anchor = runs.iter().position(|r| r.2 == 0).expect("a stone has a cube at z = 0") as u8;
                for dy in 0..ranks {
                    for dx in 0..files {
                        let mut t = Template {
                            stone,
                            orientation: o as u8,
                            len: runs.len() as u8,
                            anchor,
                            columns: [0; 4],
                            base: [0; 4],
                            count: [0; 4],
                            zmax: 0,
                        };
                        let mut zmax = i32::MAX;
                        let mut fits = true;
                        for (i, &(x, y, b, k)) in runs.iter().enumerate() {
                            let (cx, cy) = (x + dx, y + dy);
                            if cx >= files || cy >= ranks {
                                fits = false;
                                break;
                            }
                            let c = (cx + cy * files) as usize;
                            if self.limit[c] == 0 {
                                fits = false;
                                break;
                            }
                            zmax = zmax.min(self.limit[c] as i32 - b as i32 - k as i32);
                            t.columns[i] = c as u8;
                            t.base[i] = b;
                            t.count[i] = k;
                        }
                        if !fits || zmax < 0 {
                            continue;
                        }
                        t.zmax = zmax as u8;
                        let id = self.templates.len() as u16;
                        self.by_shape.entry((stone, self.shape_key(&t))).or_default().push(id);
                        self.templates.push(t);
                    }
                }
            }
        }
        self.by_stone[STONE_COUNT] = self.templates.len() as u16;
    }

    fn shape_key(&self, t: &Template) -> Vec<(u8, u8)> {
        t.entries().map(|(c, _, k)| (c as u8, k)).collect()
    }

    /// Every placement template of the site, indexed by template id ([`Move::index`]).
    pub fn templates(&self) -> &[Template] {
        &self.templates
    }

    /// The templates in the fast generator's chunked order (slots), with the maps between
    /// slots and template ids.
    pub fn gen_tables(&self) -> &GenTables {
        &self.gen
    }

    /// The template of a move.
    pub fn template(&self, m: Move) -> &Template {
        &self.templates[m.0 as usize]
    }

    /// The template ids of one stone.
    pub fn stone_range(&self, s: Stone) -> std::ops::Range<usize> {
        self.by_stone[s.index()] as usize..self.by_stone[s.index() + 1] as usize
    }

    /// The XOR of the Zobrist keys of `k` cubes of `kind` at a column from level `h` on
    /// (`h + k` <= 16: heights stay under 16), that is of `cube_key(kind, column, z)` for z
    /// in h..h + k.
    #[inline(always)]
    pub(crate) fn run_key(&self, kind: usize, column: usize, h: u8, k: u8) -> u64 {
        let base = (kind * self.columns + column) * 17;
        self.run_keys[base + (h + k).min(16) as usize] ^ self.run_keys[base + h.min(16) as usize]
    }

    /// The buildable neighbours of a column as a bit mask (bit n of word n / 64).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn neighbour_mask(&self, c: usize) -> [u64; 2] {
        self.neighbour_masks[c & (MAX_COLUMNS - 1)]
    }

    /// Buildable neighbours of a column.
    pub fn neighbours(&self, c: usize) -> &[u8] {
        &self.neighbours[c][..self.neighbour_count[c] as usize]
    }

    /// Whether a column is on the grid and may be built on.
    pub fn is_buildable(&self, c: usize) -> bool {
        c < self.columns && self.limit[c] > 0
    }

    /// The buildable columns.
    pub fn footprint(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.columns).filter(|&c| self.limit[c] > 0)
    }

    /// The cell name of a column (`a1` front left).
    pub fn column_name(&self, c: usize) -> String {
        cell_name(c % self.board.files, c / self.board.files)
    }

    /// The column of a cell name on this board, if it is on the grid.
    pub fn column_of(&self, name: &str) -> Option<usize> {
        let (x, y) = parse_cell(name)?;
        (x < self.board.files && y < self.board.ranks).then_some(x + y * self.board.files)
    }

    /// The canonical notation of a placement (rules §7).
    pub fn notation(&self, m: Move) -> String {
        let t = self.template(m);
        let mut s = String::with_capacity(24);
        s.push_str(t.stone.code());
        s.push('@');
        for (i, (c, _, k)) in t.entries().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(&self.column_name(c));
            if k > 1 {
                s.push('x');
                s.push(char::from(b'0' + k));
            }
        }
        s
    }

    /// Templates of `stone` covering exactly these (column, cube count) pairs, sorted.
    pub(crate) fn templates_covering(&self, stone: Stone, cover: &[(u8, u8)]) -> &[u16] {
        self.by_shape
            .get(&(stone, cover.to_vec()))
            .map(|v| v.as_slice())
            .unwrap_or(&[])
    }

    /// The owner (0-based player) of a colour: in the two-player four-colour game player 1
    /// plays the 1st and 3rd colour, player 2 the 2nd and 4th.
    #[inline]
    pub fn player_of(&self, colour: Colour) -> Option<usize> {
        self.player_by_colour[colour as usize].map(usize::from)
    }

    /// The colours a player plays.
    pub fn colours_of(&self, player: usize) -> Vec<Colour> {
        self.order
            .iter()
            .copied()
            .filter(|&c| self.player_of(c) == Some(player))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(name: &str, players: usize) -> Site {
        Site::new(Board::builtin(name).unwrap().clone(), players, Variant::Standard, None).unwrap()
    }

    #[test]
    fn the_owner_of_a_colour_is_its_seat_or_its_seat_mod_two() {
        let board = Board::builtin("chullpa").unwrap();
        let orders: [Option<Vec<Colour>>; 3] = [
            None,
            Some(vec![Colour::Blue, Colour::Red, Colour::Green, Colour::Yellow]),
            Some(vec![Colour::Green, Colour::Yellow]),
        ];
        let mut sites = 0;
        for variant in [Variant::Standard, Variant::TwoPlayerFourColors, Variant::Ruinas] {
            for players in 2..=4 {
                for colours in &orders {
                    let Ok(s) = Site::new(board.clone(), players, variant, colours.clone()) else {
                        continue;
                    };
                    sites += 1;
                    for c in Colour::ALL {
                        // The rule as the rulebooks state it, by searching the order of play.
                        let by_search = s.order.iter().position(|&o| o == c).map(|seat| match variant {
                            Variant::TwoPlayerFourColors => seat % 2,
                            _ => seat,
                        });
                        assert_eq!(s.player_of(c), by_search, "{variant:?} {players} {colours:?} {c:?}");
                    }
                }
            }
        }
        assert!(sites >= 10, "only {sites} setups made");
    }

    #[test]
    fn chullpa_template_count() {
        // A 5 x 4 box: all orientations and shifts that fit under Hmax 8.
        let s = site("chullpa", 4);
        assert_eq!(s.templates().len(), 1285);
        for t in s.templates() {
            assert_eq!(t.base[t.anchor as usize], 0);
            let cubes: u8 = t.count[..t.len as usize].iter().sum();
            assert_eq!(cubes as usize, t.stone.size());
        }
    }

    #[test]
    fn cubes_of_a_placement() {
        use crate::game::Game;
        use std::sync::Arc;
        let mut g = Game::new(Arc::new(site("chullpa", 2)));
        let m = g.play_text("L4@a1,a2,a3,b1").unwrap();
        assert_eq!(
            g.site().cubes(g.start(), m),
            vec![(0, 0, 0), (0, 1, 0), (0, 2, 0), (1, 0, 0)]
        );
        // Yellow stands an I3 up on c1, beside red; then red lays a domino on top of a1
        // and b1, one level up.
        let y = g.play_text("I3@c1x3").unwrap();
        assert_eq!(
            g.site().cubes(&g.positions()[1], y),
            vec![(2, 0, 0), (2, 0, 1), (2, 0, 2)]
        );
        let before = g.position().clone();
        let r = g.play_text("D2@a1,b1").unwrap();
        assert_eq!(g.site().cubes(&before, r), vec![(0, 0, 1), (1, 0, 1)]);
        // Every legal placement's cubes, less their least corner, are its orientation's
        // cells.
        for pos in g.positions() {
            let mut moves = Vec::new();
            pos.legal_moves(g.site(), &mut moves);
            for m in moves {
                let t = g.site().template(m);
                let cubes = g.site().cubes(pos, m);
                let min = |f: fn(&(u8, u8, u8)) -> u8| cubes.iter().map(f).min().unwrap();
                let (mx, my, mz) = (min(|c| c.0), min(|c| c.1), min(|c| c.2));
                let mut cells: Vec<(i8, i8, i8)> = cubes
                    .iter()
                    .map(|c| ((c.0 - mx) as i8, (c.1 - my) as i8, (c.2 - mz) as i8))
                    .collect();
                cells.sort_unstable();
                assert_eq!(cells, t.stone.orientations()[t.orientation as usize]);
                let files = g.site().board.files;
                assert!(cubes
                    .iter()
                    .all(|&(x, y, z)| z < g.site().limit[x as usize + y as usize * files]));
            }
        }
    }

    #[test]
    fn frames_shrink_the_footprint() {
        assert_eq!(site("pisac", 2).footprint().count(), 24);
        assert_eq!(site("pisac", 3).footprint().count(), 30);
        assert_eq!(site("coricancha", 2).footprint().count(), 40);
        // No frame for 3 players (rules §3): the whole board, at least the 62 cells a
        // reported 3-player game showed from above.
        assert_eq!(site("coricancha", 3).footprint().count(), 80);
        assert_eq!(site("cucho", 2).footprint().count(), 7 * 7 - 9);
        assert_eq!(site("cucho", 4).footprint().count(), 64 - 16);
    }

    #[test]
    fn setup_errors() {
        let b = Board::builtin("chullpa").unwrap().clone();
        assert!(Site::new(b.clone(), 5, Variant::Standard, None).is_err());
        assert!(Site::new(b.clone(), 3, Variant::TwoPlayerFourColors, None).is_err());
        assert!(Site::new(b.clone(), 4, Variant::Ruinas, None).is_err());
        assert!(Site::new(b.clone(), 2, Variant::Standard, Some(vec![Colour::Red, Colour::Red])).is_err());
        assert!(Site::new(b.clone(), 2, Variant::Standard, Some(vec![Colour::Red])).is_err());
        let s = Site::new(b, 2, Variant::Ruinas, Some(vec![Colour::Blue, Colour::Red])).unwrap();
        assert_eq!(s.ruin_colour, Some(Colour::Yellow));
        assert_eq!(s.limit_players, 3);
    }

    #[test]
    fn two_player_four_colours_owners() {
        let b = Board::builtin("chullpa").unwrap().clone();
        let s = Site::new(b, 2, Variant::TwoPlayerFourColors, None).unwrap();
        assert_eq!(s.colours_of(0), vec![Colour::Red, Colour::Green]);
        assert_eq!(s.colours_of(1), vec![Colour::Yellow, Colour::Blue]);
        assert_eq!(s.limit_players, 4);
    }
}
