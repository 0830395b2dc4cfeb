//! Shared test helpers: an independent, slow, obviously-correct legal-placement generator
//! (the "oracle") that reads a position only through its public API and checks rules §4
//! cube by cube on a voxel array, plus small builders for sites and games.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use rumis_core::{Board, Colour, Cube, Game, Position, Site, Stone, StuckRule, Variant};

/// The structure as a voxel array: `vox[x][y][z]` is the cube at level z + 1 of cell (x, y).
pub struct Voxels {
    pub files: usize,
    pub ranks: usize,
    pub levels: usize,
    vox: Vec<Option<Cube>>,
}

impl Voxels {
    pub fn from_position(site: &Site, pos: &Position) -> Voxels {
        let files = site.board().files;
        let ranks = site.board().ranks;
        let levels = rumis_core::MAX_LEVEL as usize + 1;
        let mut vox = vec![None; files * ranks * levels];
        for col in 0..site.columns() {
            let (x, y) = (col % files, col / files);
            let h = pos.height(col) as usize;
            for level in 1..=levels {
                let cube = pos.cube(col, level as u8);
                // The public API must describe a solid stack of exactly `height` cubes.
                assert_eq!(
                    cube.is_some(),
                    level <= h,
                    "column {col} has height {h} but cube({level}) = {cube:?}"
                );
                vox[(x * ranks + y) * levels + level - 1] = cube;
            }
        }
        Voxels {
            files,
            ranks,
            levels,
            vox,
        }
    }

    pub fn get(&self, x: i32, y: i32, z: i32) -> Option<Cube> {
        if x < 0 || y < 0 || z < 0 || x as usize >= self.files || y as usize >= self.ranks || z as usize >= self.levels
        {
            return None;
        }
        self.vox[(x as usize * self.ranks + y as usize) * self.levels + z as usize]
    }

    pub fn count(&self) -> usize {
        self.vox.iter().filter(|c| c.is_some()).count()
    }
}

/// What the contact rule (rules §4.5) asks of a colour's next stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactRule {
    /// The empty board: the first stone of the game.
    None,
    /// The first stone of a colour on a non-empty board: touch any cube and have a cube
    /// at level 1.
    First,
    /// Touch a cube of the colour.
    Own(Colour),
}

pub fn contact_rule(pos: &Position, colour: Colour) -> ContactRule {
    if pos.cube_count() == 0 {
        ContactRule::None
    } else if pos.stones_placed(colour) == 0 {
        ContactRule::First
    } else {
        ContactRule::Own(colour)
    }
}

/// The canonical notation of a set of cubes of a stone (rules §7).
pub fn notation_of(stone: Stone, cubes: &[(i32, i32, i32)]) -> String {
    // (file, rank) -> count; BTreeMap orders by file, then rank.
    let mut cols: BTreeMap<(i32, i32), usize> = BTreeMap::new();
    for &(x, y, _) in cubes {
        *cols.entry((x, y)).or_default() += 1;
    }
    let parts: Vec<String> = cols
        .iter()
        .map(|(&(x, y), &k)| {
            let cell = format!("{}{}", (b'a' + x as u8) as char, y + 1);
            if k > 1 {
                format!("{cell}x{k}")
            } else {
                cell
            }
        })
        .collect();
    format!("{}@{}", stone.code(), parts.join(","))
}

const FACES: [(i32, i32, i32); 6] = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)];

/// Rules 1-4 for one placed shape (absolute cubes): grid, footprint, height, support with
/// the cell itself empty.
pub fn fits_structure(site: &Site, vox: &Voxels, cubes: &[(i32, i32, i32)]) -> bool {
    let files = site.board().files as i32;
    let ranks = site.board().ranks as i32;
    for &(x, y, z) in cubes {
        // 1. Grid.
        if x < 0 || y < 0 || z < 0 || x >= files || y >= ranks {
            return false;
        }
        let col = (x + y * files) as usize;
        // 2. Footprint (for this number of players) and 3. height: level z + 1 must be at
        // most the cell's limit, min(printed, Hmax).
        let limit = site.limits()[col] as i32;
        if limit == 0 || z + 1 > limit {
            return false;
        }
        // The cell itself is empty.
        if vox.get(x, y, z).is_some() {
            return false;
        }
        // 4. Support: on the board, or on a cube of the structure or of the stone.
        let supported = z == 0 || vox.get(x, y, z - 1).is_some() || cubes.contains(&(x, y, z - 1));
        if !supported {
            return false;
        }
    }
    true
}

/// Rule 5 for one placed shape.
pub fn fits_contact(vox: &Voxels, cubes: &[(i32, i32, i32)], rule: ContactRule) -> bool {
    let touches = |want: &dyn Fn(Cube) -> bool| {
        cubes.iter().any(|&(x, y, z)| {
            FACES.iter().any(|&(dx, dy, dz)| {
                let n = (x + dx, y + dy, z + dz);
                !cubes.contains(&n) && vox.get(n.0, n.1, n.2).is_some_and(want)
            })
        })
    };
    match rule {
        ContactRule::None => true,
        ContactRule::First => cubes.iter().any(|c| c.2 == 0) && touches(&|_| true),
        ContactRule::Own(colour) => touches(&|c| c == Cube::Stone(colour)),
    }
}

/// Every legal placement of `colour` in `pos` (as if it were that colour's turn), in
/// canonical notation, sorted and without duplicates.
pub fn oracle_moves(site: &Site, pos: &Position, colour: Colour) -> Vec<String> {
    let vox = Voxels::from_position(site, pos);
    assert_eq!(vox.count(), pos.cube_count(), "cube_count disagrees with the cubes");
    let rule = contact_rule(pos, colour);
    let top = (0..site.columns()).map(|c| site.limits()[c]).max().unwrap_or(0) as i32;
    let mut out = Vec::new();
    // One buffer for every candidate's cubes: with a new vector each time, the core's
    // integration tests took 52-67 user CPU-seconds instead of 43-51 (alternated, three
    // times each), most of the difference in malloc and free (#19).
    let mut cubes: Vec<(i32, i32, i32)> = Vec::new();
    for stone in pos.stones_left(colour) {
        for orientation in stone.orientations() {
            for x in 0..site.board().files as i32 {
                for y in 0..site.board().ranks as i32 {
                    for z in 0..top {
                        cubes.clear();
                        cubes.extend(
                            orientation
                                .iter()
                                .map(|&(dx, dy, dz)| (x + dx as i32, y + dy as i32, z + dz as i32)),
                        );
                        if fits_structure(site, &vox, &cubes) && fits_contact(&vox, &cubes, rule) {
                            out.push(notation_of(stone, &cubes));
                        }
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The oracle's moves for the colour to move (empty when the game is over).
pub fn oracle_to_move(site: &Site, pos: &Position) -> Vec<String> {
    match pos.to_move(site) {
        Some(c) => oracle_moves(site, pos, c),
        None => Vec::new(),
    }
}

/// The oracle's passing of the turn (rules §5-6), read off the rules' words rather than
/// the engine's code: from seat `from_seat` on in order of play, a colour already out (or
/// not in the game) is skipped; a colour with no stone left is out; the first colour with a
/// placement is to move; a colour with stones but no placement is out for good under the
/// rulebooks' rule, and under the house rule passes (stays in). When nobody can place,
/// the game is over and every colour is out. Returns the colour to move, the colours out
/// (by colour index) and the mover's placements.
pub fn oracle_turn(
    site: &Site,
    after: &Position,
    was_out: &dyn Fn(Colour) -> bool,
    from_seat: usize,
) -> (Option<Colour>, [bool; 4], Vec<String>) {
    let mut out = [false; 4];
    for c in Colour::ALL {
        out[c.index()] = was_out(c) || !site.order().contains(&c);
    }
    let n = site.order().len();
    for i in 0..n {
        let c = site.order()[(from_seat + i) % n];
        if out[c.index()] {
            continue;
        }
        if after.stones_left(c).is_empty() {
            out[c.index()] = true;
            continue;
        }
        let moves = oracle_moves(site, after, c);
        if !moves.is_empty() {
            return (Some(c), out, moves);
        }
        match site.stuck_rule() {
            StuckRule::Out => out[c.index()] = true,
            StuckRule::Pass => {}
        }
    }
    (None, [true; 4], Vec::new())
}

/// Perft on the oracle: plays each oracle move through the engine's parser (so the
/// positions' structures are the engine's) and counts leaves; the turn passes by
/// [`oracle_turn`], and the engine must agree with it at every node (who is to move, who
/// is out), so a wrong pass or a wrong out fails here rather than being counted. The root
/// is taken as the engine has it.
pub fn oracle_perft(game: &mut Game, depth: u32) -> u64 {
    let site = game.site_arc().clone();
    let pos = game.position();
    let mut out = [false; 4];
    for c in Colour::ALL {
        out[c.index()] = pos.is_out(c);
    }
    let moves = oracle_to_move(&site, pos);
    oracle_perft_from(game, depth, out, moves)
}

fn oracle_perft_from(game: &mut Game, depth: u32, out: [bool; 4], moves: Vec<String>) -> u64 {
    let Some(mover) = game.to_move() else {
        return 1;
    };
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    let site = game.site_arc().clone();
    let seat = site.order().iter().position(|&c| c == mover).unwrap();
    let mut n = 0;
    for m in &moves {
        game.play_text(m)
            .unwrap_or_else(|e| panic!("oracle move {m} refused: {e}"));
        let after = game.position();
        let (next, next_out, next_moves) = oracle_turn(&site, after, &|c| out[c.index()], seat + 1);
        assert_eq!(
            after.to_move(&site),
            next,
            "after {m}: the engine and the oracle pass the turn differently"
        );
        for c in Colour::ALL {
            assert_eq!(after.is_out(c), next_out[c.index()], "after {m}: is {c:?} out?");
        }
        n += oracle_perft_from(game, depth - 1, next_out, next_moves);
        game.undo();
    }
    n
}

pub fn site(board: &Board, players: usize, variant: Variant) -> Arc<Site> {
    Arc::new(Site::new(board.clone(), players, variant, None).unwrap())
}

pub fn builtin(name: &str) -> &'static Board {
    Board::builtin(name).unwrap()
}

/// A board from a grid (back rank first) and Hmax for 2, 3, 4 players, with optional frames.
pub fn board(grid: &str, hmax: [u8; 3], frames: &str) -> Board {
    let text = format!(
        "name = \"Test\"\nprovenance = \"reconstruction\"\nhmax = {{ 2 = {}, 3 = {}, 4 = {} }}\n{frames}\ngrid = \"\"\"\n{grid}\n\"\"\"\n",
        hmax[0], hmax[1], hmax[2]
    );
    Board::from_toml("test.toml", &text).unwrap()
}

/// A configuration to test: (label, site, ruin seed for Ruinas).
pub type Config = (String, Arc<Site>, Option<u64>);

/// Every configuration the oracle tests cover.
pub fn configurations() -> &'static [Config] {
    static CONFIGS: OnceLock<Vec<Config>> = OnceLock::new();
    CONFIGS.get_or_init(build_configurations)
}

fn build_configurations() -> Vec<Config> {
    let mut out = Vec::new();
    for b in Board::builtins() {
        for players in 2..=4 {
            out.push((
                format!("{} {players}p", b.name),
                site(b, players, Variant::Standard),
                None,
            ));
        }
        out.push((
            format!("{} 2p4c", b.name),
            site(b, 2, Variant::TwoPlayerFourColors),
            None,
        ));
        for players in 2..=3 {
            out.push((
                format!("{} ruinas {players}p", b.name),
                site(b, players, Variant::Ruinas),
                Some(0),
            ));
        }
    }
    // Orders of play other than R, Y, G, B (in Ruinas the ruins then take red).
    use Colour::*;
    for (name, players, variant, order) in [
        ("pirka", 3, Variant::Standard, vec![Blue, Red, Yellow]),
        ("cucho", 2, Variant::Ruinas, vec![Green, Blue]),
        ("tambo", 2, Variant::TwoPlayerFourColors, vec![Blue, Green, Yellow, Red]),
    ] {
        let s = Site::new(builtin(name).clone(), players, variant, Some(order.clone())).unwrap();
        let ruins = (variant == Variant::Ruinas).then_some(3);
        out.push((format!("{name} {players}p {variant} {order:?}"), Arc::new(s), ruins));
    }
    let open = Board::open_box(5, 5, 4).unwrap();
    out.push(("box 5x5x4 4p".into(), site(&open, 4, Variant::Standard), None));
    out.push(("box 5x5x4 2p".into(), site(&open, 2, Variant::Standard), None));
    let custom = custom_board();
    for players in 2..=4 {
        out.push((
            format!("custom {players}p"),
            site(&custom, players, Variant::Standard),
            None,
        ));
    }
    out.push((
        "custom 2p4c".into(),
        site(&custom, 2, Variant::TwoPlayerFourColors),
        None,
    ));
    out.push(("custom ruinas 2p".into(), site(&custom, 2, Variant::Ruinas), Some(0)));
    // The house rule (a stuck colour passes) where random games often have a colour stuck
    // and later back, and with each variant.
    let pass = |s: Arc<Site>| Arc::new((*s).clone().with_stuck_rule(StuckRule::Pass));
    for (name, players, variant) in [
        ("cucho", 4, Variant::Standard),
        ("tambo", 3, Variant::Standard),
        ("pirka", 3, Variant::Standard),
        ("chullpa", 2, Variant::TwoPlayerFourColors),
        ("pisac", 2, Variant::Ruinas),
    ] {
        let ruins = (variant == Variant::Ruinas).then_some(1);
        out.push((
            format!("{name} {players}p {variant} pass"),
            pass(site(builtin(name), players, variant)),
            ruins,
        ));
    }
    for players in 2..=4 {
        out.push((
            format!("custom {players}p pass"),
            pass(site(&custom, players, Variant::Standard)),
            None,
        ));
    }
    out.push((
        "strip 4x1x3 2p pass".into(),
        pass(site(&strip_board(), 2, Variant::Standard)),
        None,
    ));
    out
}

/// A strip of four columns, a1-d1, height limit 3: small enough that a colour is soon
/// stuck, and a neighbour's stone can open a place for it again (tests/core/rules.rs).
pub fn strip_board() -> Board {
    let text = "name = \"Strip\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 3, 3 = 3, 4 = 3 }\ngrid = \"\"\"\n####\n\"\"\"\n";
    Board::from_toml("strip.toml", text).unwrap()
}

/// A custom board: printed heights, holes, a frame for 2 and 3 players, Hmax 3/4/5.
pub fn custom_board() -> Board {
    board(
        "1#2.#3\n#5#4#.\n.##2#1\n3#.#4#\n##1###",
        [3, 4, 5],
        "frames = { 2 = \"a1:d5\", 3 = \"a2:f5\" }",
    )
}

/// A new game for a configuration (ruins from `seed` for Ruinas).
pub fn new_game(site: &Arc<Site>, ruin_seed: Option<u64>) -> Game {
    match (site.variant(), ruin_seed) {
        (Variant::Ruinas, Some(seed)) => Game::with_random_ruins(site.clone(), seed),
        (Variant::Ruinas, None) => Game::with_random_ruins(site.clone(), 0),
        _ => Game::new(site.clone()),
    }
}
