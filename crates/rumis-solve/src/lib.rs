//! Solitaire: fill an a x b x c box exactly with Rumis stones (rules §6), each stone at
//! most once; count the fillings as placed and up to the rotations of the box.
//!
//! The search is the classic bitboard exact cover for polycubes: the box's cells are bits
//! of a `u128`, every placement of every stone is precomputed as a mask and filed under its
//! lowest cell, and the search always fills the lowest empty cell — every filling is found
//! exactly once. Distinct fillings are counted with Burnside's lemma: each filling found
//! adds, for every rotation of the box that maps it onto itself, one to that rotation's
//! fixed count; the number of orbits is the average of the fixed counts.

pub mod puzzle;
pub mod tower;

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use rumis_core::rotations;
use rumis_core::{Colour, Stone};

/// A stone of a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    pub colour: Colour,
    pub stone: Stone,
}

impl Piece {
    fn id(self) -> usize {
        self.colour.index() * 11 + self.stone.index()
    }
}

/// The box to fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxSize {
    pub x: usize,
    pub y: usize,
    pub z: usize,
}

impl BoxSize {
    /// Reads `AxBxC`.
    pub fn parse(s: &str) -> Result<BoxSize, String> {
        let parts: Vec<&str> = s.split(['x', 'X']).collect();
        let dims: Option<Vec<usize>> = parts
            .iter()
            .map(|p| p.trim().parse().ok().filter(|&d| d >= 1))
            .collect();
        match dims.as_deref() {
            Some(&[x, y, z]) if x * y * z <= 128 => Ok(BoxSize { x, y, z }),
            Some(&[x, y, z]) => Err(format!(
                "a {x}x{y}x{z} box has {} cells; the solver takes at most 128",
                x * y * z
            )),
            _ => Err(format!("'{s}' is not a box size like 3x3x3")),
        }
    }

    pub fn volume(self) -> usize {
        self.x * self.y * self.z
    }

    fn cell(self, x: i32, y: i32, z: i32) -> Option<usize> {
        let inside =
            x >= 0 && y >= 0 && z >= 0 && (x as usize) < self.x && (y as usize) < self.y && (z as usize) < self.z;
        inside.then(|| x as usize + self.x * (y as usize + self.y * z as usize))
    }

    pub fn coords(self, c: usize) -> (i32, i32, i32) {
        (
            (c % self.x) as i32,
            (c / self.x % self.y) as i32,
            (c / (self.x * self.y)) as i32,
        )
    }

    /// The rotations that map the box onto itself, as permutations of its cells.
    pub fn symmetries(self) -> Vec<Vec<usize>> {
        let dims = [self.x as i32, self.y as i32, self.z as i32];
        let mut out = Vec::new();
        for m in rotations() {
            // The image of the box's extent: the box maps onto itself iff the rotated
            // dimensions equal the original ones.
            let mut ok = true;
            for (row, &dim) in m.iter().zip(dims.iter()) {
                let col = row.iter().position(|&v| v != 0).expect("a permutation matrix");
                if dims[col] != dim {
                    ok = false;
                }
            }
            if !ok {
                continue;
            }
            let perm = (0..self.volume())
                .map(|c| {
                    let (x, y, z) = self.coords(c);
                    let v = [x, y, z];
                    let mut w = [0i32; 3];
                    for (i, row) in m.iter().enumerate() {
                        let col = row.iter().position(|&v| v != 0).expect("a permutation matrix");
                        // A negative axis maps coordinate t to extent - 1 - t.
                        w[i] = if row[col] > 0 { v[col] } else { dims[col] - 1 - v[col] };
                    }
                    self.cell(w[0], w[1], w[2]).expect("the box maps onto itself")
                })
                .collect();
            out.push(perm);
        }
        out
    }
}

/// One stone placed in the box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placed {
    pub piece: Piece,
    pub cells: u128,
}

/// A filling: the placed stones, in the order the search placed them.
pub type Filling = Vec<Placed>;

/// Called with each filling found: (piece id, cells) per stone.
type OnFilling<'a> = dyn FnMut(&[(usize, u128)], &mut Report) + 'a;

struct Placement {
    piece: usize,
    mask: u128,
}

/// A unit of work: a partial filling that the lowest-empty-cell search completes.
struct Unit {
    path: Vec<(usize, u128)>,
    free: u128,
    /// Pieces placed or set aside.
    used: u64,
    /// Cubes of the pieces neither placed nor set aside.
    cubes_left: u32,
    /// Fillings as placed that each completion stands for.
    weight: u64,
    /// The rotations (indices into the box's symmetries) that may map a completion onto
    /// itself; Burnside adds `weight` for each one that does.
    checks: Vec<usize>,
}

/// What to find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    Count,
    First,
    All,
}

/// The answer for a box.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Fillings as placed.
    pub placed: u64,
    /// Fillings up to the rotations of the box.
    pub distinct: u64,
    /// Rotations of the box.
    pub symmetries: usize,
    /// Fillings as placed, per set of stones used (listed by code, colours prefixed when
    /// more than one colour is in play).
    pub by_stone_set: BTreeMap<String, u64>,
    /// The fillings themselves (for `First` and `All`).
    pub fillings: Vec<Filling>,
    /// Search nodes visited.
    pub nodes: u64,
}

pub struct Solver {
    size: BoxSize,
    pieces: Vec<Piece>,
    by_cell: Vec<Vec<Placement>>,
    symmetries: Vec<Vec<usize>>,
    sizes: Vec<u32>,
    break_symmetry: bool,
    /// States a thread's memo keeps before it starts afresh (see `Solver::completions`).
    memo_states: usize,
}

impl Solver {
    /// A solver for a box with the stones of the first `colours` colours.
    pub fn new(size: BoxSize, colours: usize) -> Result<Solver, String> {
        if !(1..=4).contains(&colours) {
            return Err(format!("--colors must be 1 to 4, not {colours}"));
        }
        let pieces: Vec<Piece> = Colour::ALL[..colours]
            .iter()
            .flat_map(|&colour| Stone::ALL.iter().map(move |&stone| Piece { colour, stone }))
            .collect();
        let mut by_cell: Vec<Vec<Placement>> = (0..size.volume()).map(|_| Vec::new()).collect();
        let mut sizes = vec![0; 44];
        for p in &pieces {
            sizes[p.id()] = p.stone.size() as u32;
            for o in p.stone.orientations() {
                for dz in 0..size.z as i32 {
                    for dy in 0..size.y as i32 {
                        for dx in 0..size.x as i32 {
                            let cells: Option<Vec<usize>> = o
                                .iter()
                                .map(|&(x, y, z)| size.cell(x as i32 + dx, y as i32 + dy, z as i32 + dz))
                                .collect();
                            let Some(cells) = cells else { continue };
                            let mask = cells.iter().fold(0u128, |m, &c| m | 1 << c);
                            by_cell[mask.trailing_zeros() as usize].push(Placement { piece: p.id(), mask });
                        }
                    }
                }
            }
        }
        Ok(Solver {
            size,
            pieces,
            by_cell,
            symmetries: size.symmetries(),
            sizes,
            break_symmetry: true,
            memo_states: MEMO_STATES,
        })
    }

    fn piece(&self, id: usize) -> Piece {
        *self
            .pieces
            .iter()
            .find(|p| p.id() == id)
            .expect("a piece of the solver")
    }

    /// Whether counting uses the rotations of the box to cut the search (the default; the
    /// argument is at `Solver::count_units`). Off, counting searches every filling as placed — the
    /// plain search the tests compare against.
    pub fn symmetry_breaking(mut self, on: bool) -> Solver {
        self.break_symmetry = on;
        self
    }

    fn full(&self) -> u128 {
        if self.size.volume() == 128 {
            u128::MAX
        } else {
            (1u128 << self.size.volume()) - 1
        }
    }

    fn total_cubes(&self) -> u32 {
        self.pieces.iter().map(|p| p.stone.size() as u32).sum()
    }

    /// The plain units of work: every placement of the lowest cell, each completion a
    /// filling as placed, tested against every rotation for Burnside's count.
    fn plain_units(&self) -> Vec<Unit> {
        let all: Vec<usize> = (0..self.symmetries.len()).collect();
        self.by_cell[0]
            .iter()
            .map(|p| Unit {
                path: vec![(p.piece, p.mask)],
                free: self.full() & !p.mask,
                used: 1 << p.piece,
                cubes_left: self.total_cubes() - self.sizes[p.piece],
                weight: 1,
                checks: all.clone(),
            })
            .collect()
    }

    /// The units of work of a count that uses the box's rotation group G.
    ///
    /// G acts on placements (a stone keeps its identity and its cells are rotated), and so
    /// on fillings; it maps the fillings that contain a stone S onto fillings that contain
    /// S. Take a filling F with S at the cells m, its orbit G·F and its stabiliser
    /// Stab(F) = {g : gF = F}. Each stone is used at most once, so a g with gF = F maps S's
    /// placement in F onto S's placement in F: Stab(F) ⊆ Stab(m). Choose one placement r
    /// in every orbit of S's placements under G. The fillings of G·F with S at r are gF for
    /// the g with gm = r — a coset of Stab(m), |Stab(m)| rotations giving
    /// |Stab(m)| / |Stab(F)| distinct fillings — while G·F holds |G| / |Stab(F)| fillings.
    /// So each filling with S at a representative r stands for w = |G| / |Stab(r)| fillings
    /// as placed (all with the same stone set), and for w · |Stab(F)| in Burnside's sum
    /// Σ_F |Stab(F)| = |G| · orbits; only rotations of Stab(r) need testing for Stab(F). When
    /// r has a trivial stabiliser (the common case) w = |G| and no test is needed at all.
    ///
    /// The fillings are split by their first stone in a fixed order S1, S2, …: phase i
    /// counts the fillings that contain Si and none of S1 … Si-1 (a set G maps onto
    /// itself, since rotations keep the stones), placing Si first at each representative
    /// and completing the box by the lowest-empty-cell search with S1 … Si-1 set aside.
    /// Every filling contains some stone, so the phases together count each orbit once.
    fn count_units(&self) -> Vec<Unit> {
        let g = self.symmetries.len() as u64;
        let full = self.full();
        let total = self.total_cubes();
        // Big stones first: placed first, they leave the least to search.
        let mut order: Vec<usize> = self.pieces.iter().map(|p| p.id()).collect();
        order.sort_by_key(|&id| (std::cmp::Reverse(self.sizes[id]), id));
        let mut units = Vec::new();
        let mut forbidden = 0u64;
        let mut forbidden_cubes = 0u32;
        for &s in &order {
            let mut masks: Vec<u128> = self
                .by_cell
                .iter()
                .flatten()
                .filter(|p| p.piece == s)
                .map(|p| p.mask)
                .collect();
            masks.sort_unstable();
            let mut seen = std::collections::HashSet::new();
            for &r in &masks {
                if seen.contains(&r) {
                    continue;
                }
                let mut stab = Vec::new();
                for (k, perm) in self.symmetries.iter().enumerate() {
                    let image = permute(r, perm);
                    if image == r {
                        stab.push(k);
                    }
                    seen.insert(image);
                }
                let weight = g / stab.len() as u64;
                let used = forbidden | 1 << s;
                let free = full & !r;
                let cubes_left = total - forbidden_cubes - self.sizes[s];
                if cubes_left < free.count_ones() {
                    continue;
                }
                let unit = |path: Vec<(usize, u128)>, free: u128, used: u64, cubes_left: u32| Unit {
                    path,
                    free,
                    used,
                    cubes_left,
                    weight,
                    checks: stab.clone(),
                };
                if free == 0 {
                    units.push(unit(vec![(s, r)], 0, used, cubes_left));
                    continue;
                }
                // Split further by the placements of the lowest empty cell, for the threads.
                for p in &self.by_cell[free.trailing_zeros() as usize] {
                    if used >> p.piece & 1 == 0 && p.mask & !free == 0 {
                        units.push(unit(
                            vec![(s, r), (p.piece, p.mask)],
                            free & !p.mask,
                            used | 1 << p.piece,
                            cubes_left - self.sizes[p.piece],
                        ));
                    }
                }
            }
            forbidden |= 1 << s;
            forbidden_cubes += self.sizes[s];
        }
        units
    }

    /// Searches, splitting the units of work (placements of the first cells) across
    /// `threads` threads; `progress` is called with (units done, total units). A count
    /// uses the rotations of the box to search about 1/|G| of the fillings (unless
    /// [`Solver::symmetry_breaking`] turned it off); `First` and `All` search every
    /// filling as placed.
    pub fn solve(&self, goal: Goal, threads: usize, progress: &(dyn Fn(usize, usize) + Sync)) -> Report {
        let units = if goal == Goal::Count && self.break_symmetry {
            self.count_units()
        } else {
            self.plain_units()
        };
        let report = Mutex::new(Report {
            symmetries: self.symmetries.len(),
            ..Report::default()
        });
        let fixed_sum = AtomicU64::new(0);
        let by_set = Mutex::new(HashMap::<u64, u64>::new());
        let stop = AtomicBool::new(false);
        let next = AtomicU64::new(0);
        let done = AtomicU64::new(0);
        let identity: Vec<bool> = self
            .symmetries
            .iter()
            .map(|perm| perm.iter().enumerate().all(|(c, &d)| c == d))
            .collect();
        let work = || {
            let mut memo = Memo::default();
            let mut local = Report::default();
            let mut local_fixed = 0u64;
            let mut local_sets: HashMap<u64, u64> = HashMap::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                if i >= units.len() || stop.load(Ordering::Relaxed) {
                    break;
                }
                let u = &units[i];
                let mut found = |placed: &[(usize, u128)], local: &mut Report| {
                    let fixing = u
                        .checks
                        .iter()
                        .filter(|&&k| self.fixes(placed, &self.symmetries[k]))
                        .count() as u64;
                    local.placed += u.weight;
                    local_fixed += u.weight * fixing;
                    let set = placed.iter().fold(0u64, |b, &(id, _)| b | 1 << id);
                    *local_sets.entry(set).or_default() += u.weight;
                    if goal != Goal::Count {
                        local.fillings.push(
                            placed
                                .iter()
                                .map(|&(id, cells)| Placed {
                                    piece: self.piece(id),
                                    cells,
                                })
                                .collect(),
                        );
                    }
                    if goal == Goal::First {
                        stop.store(true, Ordering::Relaxed);
                    }
                };
                if goal == Goal::Count && self.break_symmetry {
                    local_fixed += self.count_unit(u, &identity, &mut memo, &mut local, &mut local_sets);
                } else {
                    let mut path = u.path.clone();
                    self.search(u.free, u.used, u.cubes_left, &mut path, &mut local, &mut found, &stop);
                }
                let d = done.fetch_add(1, Ordering::Relaxed) as usize + 1;
                progress(d, units.len());
            }
            let mut r = report.lock().expect("report lock");
            r.placed += local.placed;
            r.nodes += local.nodes;
            r.fillings.extend(local.fillings);
            fixed_sum.fetch_add(local_fixed, Ordering::Relaxed);
            let mut b = by_set.lock().expect("stone set lock");
            for (k, v) in local_sets {
                *b.entry(k).or_default() += v;
            }
        };
        // One thread works on the caller's (so that its CPU time counts the search).
        if threads <= 1 {
            work();
        } else {
            std::thread::scope(|s| {
                for _ in 0..threads {
                    s.spawn(work);
                }
            });
        }
        let mut r = report.into_inner().expect("report lock");
        r.distinct = fixed_sum.into_inner() / self.symmetries.len().max(1) as u64;
        r.by_stone_set = by_set
            .into_inner()
            .expect("stone set lock")
            .into_iter()
            .map(|(set, n)| (self.set_name(set), n))
            .collect();
        if goal == Goal::First {
            r.fillings.truncate(1);
        }
        r.fillings.sort();
        r
    }

    /// Counts a unit's completions (symmetry broken): adds them to `local` and, by stone set,
    /// to `sets`; answers how many fillings the rotations of its `checks` fix, for
    /// Burnside. Counting needs, per unit, how many completions there are per stone set and
    /// how many a rotation fixes: the memo counts the first without listing the
    /// completions, and a rotation other than the identity fixes only fillings made of
    /// placements it maps onto themselves (each stone is placed once), which a search
    /// restricted to those finds at once.
    fn count_unit(
        &self,
        u: &Unit,
        identity: &[bool],
        memo: &mut Memo,
        local: &mut Report,
        sets: &mut HashMap<u64, u64>,
    ) -> u64 {
        let base = u.path.iter().fold(0u64, |b, &(id, _)| b | 1 << id);
        let (start, len) = self.completions(u.free, u.used, u.cubes_left, memo, &mut local.nodes);
        let mut all = 0;
        for &(added, n) in &memo.arena[start as usize..(start + len) as usize] {
            all += n;
            *sets.entry(base | added).or_default() += u.weight * n;
        }
        local.placed += u.weight * all;
        let mut fixed_sum = 0;
        for &k in &u.checks {
            let perm = &self.symmetries[k];
            let fixed = if identity[k] {
                all
            } else if u.path.iter().all(|&(_, m)| permute(m, perm) == m) {
                self.fixed_completions(u.free, u.used, u.cubes_left, perm, &mut local.nodes)
            } else {
                0
            };
            fixed_sum += u.weight * fixed;
        }
        fixed_sum
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        free: u128,
        used: u64,
        cubes_left: u32,
        path: &mut Vec<(usize, u128)>,
        report: &mut Report,
        found: &mut OnFilling,
        stop: &AtomicBool,
    ) {
        report.nodes += 1;
        if free == 0 {
            found(path, report);
            return;
        }
        if cubes_left < free.count_ones() || stop.load(Ordering::Relaxed) {
            return;
        }
        let cell = free.trailing_zeros() as usize;
        for p in &self.by_cell[cell] {
            if used >> p.piece & 1 == 0 && p.mask & !free == 0 {
                path.push((p.piece, p.mask));
                self.search(
                    free & !p.mask,
                    used | 1 << p.piece,
                    cubes_left - self.sizes[p.piece],
                    path,
                    report,
                    found,
                    stop,
                );
                path.pop();
            }
        }
    }

    /// The completions of a partial filling (`free` the cells still empty, `used` the
    /// stones placed or set aside) by the lowest-empty-cell search, counted per set of
    /// stones they add: a range of `memo.arena`, each entry (stones added, completions).
    ///
    /// The lowest-empty-cell search reaches the same partial filling — the same empty
    /// cells and the same stones used — by many paths (stones swapped between the cells
    /// below), and what can complete it depends only on that: each state is searched
    /// once per thread and its counts kept (a dynamic programme over the states). This
    /// counts fillings without listing them; the search, not the memo, serves `First`,
    /// `All` and the fillings whose symmetry must be tested one by one.
    fn completions(&self, free: u128, used: u64, cubes_left: u32, memo: &mut Memo, nodes: &mut u64) -> (u32, u32) {
        if let Some(&r) = memo.map.get(&(free, used)) {
            return r;
        }
        *nodes += 1;
        let mut acc: Vec<(u64, u64)> = Vec::new();
        if free == 0 {
            acc.push((0, 1));
        } else if cubes_left >= free.count_ones() {
            let cell = free.trailing_zeros() as usize;
            for p in &self.by_cell[cell] {
                if used >> p.piece & 1 == 0 && p.mask & !free == 0 {
                    let (start, len) = self.completions(
                        free & !p.mask,
                        used | 1 << p.piece,
                        cubes_left - self.sizes[p.piece],
                        memo,
                        nodes,
                    );
                    for &(added, n) in &memo.arena[start as usize..(start + len) as usize] {
                        let added = added | 1 << p.piece;
                        match acc.iter_mut().find(|e| e.0 == added) {
                            Some(e) => e.1 += n,
                            None => acc.push((added, n)),
                        }
                    }
                }
            }
        }
        // Bounded memory: a full memo starts afresh. The callers have already copied the
        // ranges they were given, so dropping them is safe.
        if memo.map.len() >= self.memo_states || memo.arena.len() + acc.len() > u32::MAX as usize {
            memo.map.clear();
            memo.arena.clear();
        }
        let r = (memo.arena.len() as u32, acc.len() as u32);
        memo.arena.extend_from_slice(&acc);
        memo.map.insert((free, used), r);
        r
    }

    /// The completions of a partial filling that the rotation `perm` maps onto themselves,
    /// counted by the lowest-empty-cell search over the placements `perm` maps onto
    /// themselves (a stone is placed once, so a fixed filling's placements are each fixed).
    fn fixed_completions(&self, free: u128, used: u64, cubes_left: u32, perm: &[usize], nodes: &mut u64) -> u64 {
        *nodes += 1;
        if free == 0 {
            return 1;
        }
        if cubes_left < free.count_ones() {
            return 0;
        }
        let cell = free.trailing_zeros() as usize;
        let mut n = 0;
        for p in &self.by_cell[cell] {
            if used >> p.piece & 1 == 0 && p.mask & !free == 0 && permute(p.mask, perm) == p.mask {
                n += self.fixed_completions(
                    free & !p.mask,
                    used | 1 << p.piece,
                    cubes_left - self.sizes[p.piece],
                    perm,
                    nodes,
                );
            }
        }
        n
    }

    /// Whether the rotation `perm` maps the filling onto itself: every stone's cells onto
    /// that same stone's cells (each stone is placed at most once).
    fn fixes(&self, placed: &[(usize, u128)], perm: &[usize]) -> bool {
        placed.iter().all(|&(id, m)| {
            let image = permute(m, perm);
            placed.iter().any(|&(other, cells)| other == id && cells == image)
        })
    }

    /// A set of stones by code, colours prefixed when more than one colour is in play.
    fn set_name(&self, set: u64) -> String {
        let multi = self.pieces.iter().any(|p| p.colour != Colour::Red);
        let mut stones: Vec<Piece> = (0..64)
            .filter(|&id| set >> id & 1 == 1)
            .map(|id| self.piece(id))
            .collect();
        stones.sort();
        stones
            .iter()
            .map(|p| {
                if multi {
                    format!("{}{}", p.colour, p.stone)
                } else {
                    p.stone.code().to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
    /// A filling's stones with their cells named `a1.1` (file, rank, level).
    pub fn describe(&self, f: &Filling) -> String {
        let mut parts: Vec<String> = f
            .iter()
            .map(|p| {
                let mut cells: Vec<String> = Vec::new();
                let mut m = p.cells;
                while m != 0 {
                    let (x, y, z) = self.size.coords(m.trailing_zeros() as usize);
                    cells.push(format!("{}{}.{}", (b'a' + x as u8) as char, y + 1, z + 1));
                    m &= m - 1;
                }
                let name = if self.pieces.len() > 11 {
                    format!("{}{}", p.piece.colour, p.piece.stone)
                } else {
                    p.piece.stone.code().to_string()
                };
                format!("{name}:{}", cells.join(","))
            })
            .collect();
        parts.sort();
        parts.join(" ")
    }
}

/// States a thread's memo keeps before it starts afresh (about 50 bytes each with the
/// map's overhead and the counts: at most a few hundred MB).
const MEMO_STATES: usize = 1 << 22;

/// The counted completions of the states searched so far (see `Solver::completions`).
#[derive(Default)]
struct Memo {
    map: HashMap<(u128, u64), (u32, u32), BuildHasherDefault<StateHasher>>,
    arena: Vec<(u64, u64)>,
}

/// A multiply-rotate hash for the memo's keys (bit sets): std's SipHash costs more than the
/// search step it saves.
#[derive(Default)]
struct StateHasher(u64);

impl Hasher for StateHasher {
    fn finish(&self) -> u64 {
        // A product's low bits depend only on the factors' low bits; the map picks buckets
        // by the low bits, so fold the high half in.
        self.0 ^ self.0 >> 32
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(26) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
}

fn permute(mask: u128, perm: &[usize]) -> u128 {
    let mut out = 0u128;
    let mut m = mask;
    while m != 0 {
        let c = m.trailing_zeros() as usize;
        out |= 1 << perm[c];
        m &= m - 1;
    }
    out
}

#[cfg(test)]
mod tests;
