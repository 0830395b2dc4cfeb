//! Solitaire: fill an a x b x c box exactly with Rumis stones (RULES §6), each stone at
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

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use rumis_core::stone::rotations;
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
        })
    }

    fn piece(&self, id: usize) -> Piece {
        *self
            .pieces
            .iter()
            .find(|p| p.id() == id)
            .expect("a piece of the solver")
    }

    /// Searches, splitting the placements of the first cell across `threads` threads;
    /// `progress` is called with (first-cell branches done, total branches).
    pub fn solve(&self, goal: Goal, threads: usize, progress: &(dyn Fn(usize, usize) + Sync)) -> Report {
        let full: u128 = if self.size.volume() == 128 {
            u128::MAX
        } else {
            (1u128 << self.size.volume()) - 1
        };
        let total_cubes: u32 = self.pieces.iter().map(|p| p.stone.size() as u32).sum();
        let report = Mutex::new(Report {
            symmetries: self.symmetries.len(),
            ..Report::default()
        });
        let fixed = Mutex::new(vec![0u64; self.symmetries.len()]);
        let stop = AtomicBool::new(false);
        let next = AtomicU64::new(0);
        let done = AtomicU64::new(0);
        let branches = &self.by_cell[0];
        std::thread::scope(|s| {
            for _ in 0..threads.max(1) {
                s.spawn(|| {
                    let mut local = Report::default();
                    let mut local_fixed = vec![0u64; self.symmetries.len()];
                    let mut stack: Vec<usize> = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                        if i >= branches.len() || stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let p = &branches[i];
                        stack.clear();
                        stack.push(p.piece);
                        let mut found = |placed: &[(usize, u128)], local: &mut Report| {
                            self.record(placed, goal, local, &mut local_fixed);
                            if goal == Goal::First {
                                stop.store(true, Ordering::Relaxed);
                            }
                        };
                        let mut path = vec![(p.piece, p.mask)];
                        self.search(
                            full & !p.mask,
                            1u64 << p.piece,
                            total_cubes - self.sizes[p.piece],
                            &mut path,
                            &mut local,
                            &mut found,
                            &stop,
                        );
                        let d = done.fetch_add(1, Ordering::Relaxed) as usize + 1;
                        progress(d, branches.len());
                    }
                    let mut r = report.lock().expect("report lock");
                    r.placed += local.placed;
                    r.nodes += local.nodes;
                    for (k, v) in local.by_stone_set {
                        *r.by_stone_set.entry(k).or_default() += v;
                    }
                    r.fillings.extend(local.fillings);
                    let mut f = fixed.lock().expect("fixed lock");
                    for (a, b) in f.iter_mut().zip(local_fixed) {
                        *a += b;
                    }
                });
            }
        });
        let mut r = report.into_inner().expect("report lock");
        let f = fixed.into_inner().expect("fixed lock");
        r.distinct = f.iter().sum::<u64>() / self.symmetries.len().max(1) as u64;
        if goal == Goal::First {
            r.fillings.truncate(1);
        }
        r.fillings.sort();
        r
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

    fn record(&self, placed: &[(usize, u128)], goal: Goal, report: &mut Report, fixed: &mut [u64]) {
        report.placed += 1;
        let multi = self.pieces.iter().any(|p| p.colour != Colour::Red);
        let mut set: Vec<Piece> = placed.iter().map(|&(id, _)| self.piece(id)).collect();
        set.sort();
        let key = set
            .iter()
            .map(|p| {
                if multi {
                    format!("{}{}", p.colour, p.stone)
                } else {
                    p.stone.code().to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
        *report.by_stone_set.entry(key).or_default() += 1;
        // Burnside: which rotations map this filling onto itself?
        let mut sorted: Vec<(usize, u128)> = placed.to_vec();
        sorted.sort();
        for (k, perm) in self.symmetries.iter().enumerate() {
            let mut image: Vec<(usize, u128)> = placed.iter().map(|&(id, m)| (id, permute(m, perm))).collect();
            image.sort();
            if image == sorted {
                fixed[k] += 1;
            }
        }
        if goal != Goal::Count {
            report.fillings.push(
                placed
                    .iter()
                    .map(|&(id, cells)| Placed {
                        piece: self.piece(id),
                        cells,
                    })
                    .collect(),
            );
        }
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
mod tests {
    use super::*;

    fn count(size: &str, colours: usize) -> Report {
        Solver::new(BoxSize::parse(size).unwrap(), colours)
            .unwrap()
            .solve(Goal::All, 2, &|_, _| {})
    }

    #[test]
    fn box_symmetries() {
        assert_eq!(BoxSize::parse("3x3x3").unwrap().symmetries().len(), 24);
        assert_eq!(BoxSize::parse("2x2x3").unwrap().symmetries().len(), 8);
        assert_eq!(BoxSize::parse("2x3x4").unwrap().symmetries().len(), 4);
        assert!(BoxSize::parse("3x3").is_err());
        assert!(BoxSize::parse("6x6x6").is_err());
    }

    /// An independent brute force: try every subset of placements (by cell order of the
    /// whole placement list, no lowest-cell trick) on tiny boxes.
    fn brute(size: BoxSize, colours: usize) -> (u64, u64) {
        let solver = Solver::new(size, colours).unwrap();
        let all: Vec<(usize, u128)> = solver.by_cell.iter().flatten().map(|p| (p.piece, p.mask)).collect();
        let full = (1u128 << size.volume()) - 1;
        let mut fillings: Vec<Vec<(usize, u128)>> = Vec::new();
        fn go(
            all: &[(usize, u128)],
            from: usize,
            covered: u128,
            used: u64,
            full: u128,
            cur: &mut Vec<(usize, u128)>,
            out: &mut Vec<Vec<(usize, u128)>>,
        ) {
            if covered == full {
                let mut f = cur.clone();
                f.sort();
                out.push(f);
                return;
            }
            for i in from..all.len() {
                let (p, m) = all[i];
                if used >> p & 1 == 0 && m & covered == 0 {
                    cur.push((p, m));
                    go(all, i + 1, covered | m, used | 1 << p, full, cur, out);
                    cur.pop();
                }
            }
        }
        go(&all, 0, 0, 0, full, &mut Vec::new(), &mut fillings);
        // Distinct: canonical form = least image over the box's rotations.
        let syms = size.symmetries();
        let mut canon: Vec<Vec<(usize, u128)>> = fillings
            .iter()
            .map(|f| {
                syms.iter()
                    .map(|perm| {
                        let mut g: Vec<(usize, u128)> = f.iter().map(|&(p, m)| (p, permute(m, perm))).collect();
                        g.sort();
                        g
                    })
                    .min()
                    .unwrap()
            })
            .collect();
        canon.sort();
        canon.dedup();
        (fillings.len() as u64, canon.len() as u64)
    }

    #[test]
    fn small_boxes_agree_with_brute_force() {
        for size in ["2x2x2", "2x2x3", "1x2x4", "2x3x3"] {
            let r = count(size, 1);
            let (placed, distinct) = brute(BoxSize::parse(size).unwrap(), 1);
            assert_eq!((r.placed, r.distinct), (placed, distinct), "{size}");
            eprintln!("{size}: {} placed, {} distinct", r.placed, r.distinct);
            assert_eq!(r.by_stone_set.values().sum::<u64>(), r.placed);
        }
        // The brute force must have found something to agree on.
        assert!(count("2x3x3", 1).placed > 0);
        let r = count("2x2x2", 2);
        assert_eq!((r.placed, r.distinct), brute(BoxSize::parse("2x2x2").unwrap(), 2));
    }

    #[test]
    fn every_filling_is_an_exact_cover_with_each_stone_once() {
        for size in ["2x2x3", "2x3x3"] {
            let b = BoxSize::parse(size).unwrap();
            let r = count(size, 1);
            assert_eq!(r.fillings.len() as u64, r.placed);
            for f in &r.fillings {
                let mut covered = 0u128;
                for p in f {
                    assert_eq!(covered & p.cells, 0, "overlap");
                    assert_eq!(p.cells.count_ones() as usize, p.piece.stone.size());
                    covered |= p.cells;
                }
                assert_eq!(covered, (1u128 << b.volume()) - 1);
                let mut ids: Vec<Piece> = f.iter().map(|p| p.piece).collect();
                ids.sort();
                ids.dedup();
                assert_eq!(ids.len(), f.len(), "a stone used twice");
            }
        }
    }

    #[test]
    fn first_stops_with_one() {
        let r = Solver::new(BoxSize::parse("3x3x3").unwrap(), 1)
            .unwrap()
            .solve(Goal::First, 1, &|_, _| {});
        assert_eq!(r.fillings.len(), 1);
        assert_eq!(r.fillings[0].iter().map(|p| p.cells.count_ones()).sum::<u32>(), 27);
    }
}

#[cfg(test)]
mod known {
    use super::*;

    /// The seven Soma cube pieces are among the stones (V3 T4 L4 S4 A4 B4 Y4); the Soma
    /// cube's 11 520 fillings as placed (240 up to rotation and reflection) are a published
    /// figure, and must appear as one stone set of the 3 x 3 x 3 count.
    #[test]
    fn the_soma_cube_count_is_inside_the_three_cube() {
        let r = Solver::new(BoxSize::parse("3x3x3").unwrap(), 1)
            .unwrap()
            .solve(Goal::Count, 2, &|_, _| {});
        assert_eq!(r.by_stone_set.get("V3 T4 L4 S4 A4 B4 Y4"), Some(&11_520));
        assert_eq!(r.placed, 80_928);
        assert_eq!(r.distinct, 3_372);
        assert_eq!(r.by_stone_set.len(), 13);
    }
}
