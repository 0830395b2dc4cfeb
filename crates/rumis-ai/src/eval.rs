//! Cheap evaluation of a placement: what a greedy player and the search's move priors use.

use rumis_core::{Colour, Cube, Move, MoveSet, Position, Site};

/// Features of a placement, from the mover's side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    /// Columns the placement tops that the mover's side did not top before.
    pub gained: i32,
    /// Columns it takes from the other sides, per other side.
    pub covered: f32,
    /// Cubes in the stone placed.
    pub size: i32,
    /// ln(1 + the placements the mover's side would have after it): its room to place the
    /// stones it still holds, each of which costs a point if it is never placed.
    pub own_room: f32,
    /// The same for the other sides, per other side.
    pub other_room: f32,
}

/// How much each feature is worth to the greedy player (points of score). Tuned by greedy
/// against random and against the first weights on all six boards (docs/strength.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    pub own_tops: f32,
    pub other_tops: f32,
    pub size: f32,
    pub own_room: f32,
    pub other_room: f32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            own_tops: 1.0,
            other_tops: 3.0,
            size: 0.8,
            own_room: 0.0,
            other_room: 6.0,
        }
    }
}

/// Whether two colours are on the same side (the same player in the two-player four-colour
/// game).
fn same_side(site: &Site, a: Colour, b: Colour) -> bool {
    a == b || (site.player_of(a).is_some() && site.player_of(a) == site.player_of(b))
}

/// The colours not on `me`'s side (at least 1, to divide by).
fn other_colours(site: &Site, me: Colour) -> f32 {
    site.order().iter().filter(|&&c| !same_side(site, c, me)).count().max(1) as f32
}

/// The cells a cube of `c` could still fill touching `c`'s own cubes: empty cells within
/// a column's height limit, at most four above its top (a stone stands at most four cubes
/// tall in one column), with a cube of `c` below (the column's top) or beside at the same
/// level. A colour's later stones must touch its own (rules §4.5), so a colour with few
/// such cells can be walled in by the others' next stones and is out with its stones in
/// hand (each a point lost), which the playouts, whose others play at random, rarely show.
pub fn outlets(site: &Site, pos: &Position, c: Colour) -> usize {
    let limits = site.limits();
    let mut count = 0;
    for col in site.footprint() {
        let height = pos.height(col);
        let top = height.saturating_add(4).min(limits[col]);
        for level in height + 1..=top {
            let bit = 1u16 << (level - 1);
            let below = level == height + 1 && height > 0 && pos.cube_levels(col, c) & (bit >> 1) != 0;
            let beside = site
                .neighbours(col)
                .iter()
                .any(|&n| pos.cube_levels(n as usize, c) & bit != 0);
            count += usize::from(below || beside);
        }
    }
    count
}

/// The columns part of the features: what the placement tops and takes, and its size. Each
/// column a stone covers ends with the stone's cube on top (columns are solid stacks).
fn column_features(site: &Site, pos: &Position, m: Move, me: Colour) -> Features {
    let t = site.template(m);
    let (mut gained, mut covered) = (0, 0);
    for &c in &t.columns[..t.len as usize] {
        match pos.top(c as usize) {
            Some(Cube::Stone(k)) if same_side(site, k, me) => {}
            Some(Cube::Stone(_)) => {
                gained += 1;
                covered += 1;
            }
            _ => gained += 1,
        }
    }
    Features {
        gained,
        covered: covered as f32 / other_colours(site, me),
        size: t.stone.size() as i32,
        ..Features::default()
    }
}

/// Every feature of a placement for the colour to move.
pub fn features(site: &Site, pos: &Position, m: Move) -> Features {
    features_with(&Weights::default(), site, pos, m, true)
}

/// The features, leaving out the room terms when both weigh nothing (counting placements
/// is the costly part), and the own room unless `own` or it weighs something.
fn features_with(w: &Weights, site: &Site, pos: &Position, m: Move, own: bool) -> Features {
    let Some(me) = pos.to_move(site) else {
        return Features::default();
    };
    let mut f = column_features(site, pos, m, me);
    if w.own_room == 0.0 && w.other_room == 0.0 {
        return f;
    }
    let own = own || w.own_room != 0.0;
    let counts = pos.count_moves_after_for(site, m, |c| own || !same_side(site, c, me));
    // The room of a side is its best colour's (two colours in the two-player four-colour game).
    let mut other_room = 0.0f32;
    for &c in site.order() {
        let room = crate::math::ln(1.0 + counts[c.index()] as f32);
        if same_side(site, c, me) {
            f.own_room = f.own_room.max(room);
        } else {
            other_room += room;
        }
    }
    f.other_room = other_room / other_colours(site, me);
    f
}

fn value(w: &Weights, f: &Features) -> f32 {
    w.own_tops * f.gained as f32 + w.other_tops * f.covered + w.size * f.size as f32 + w.own_room * f.own_room
        - w.other_room * f.other_room
}

/// The greedy value of a placement for the colour to move.
pub fn evaluate(site: &Site, pos: &Position, m: Move) -> f32 {
    evaluate_with(&Weights::default(), site, pos, m)
}

pub fn evaluate_with(w: &Weights, site: &Site, pos: &Position, m: Move) -> f32 {
    value(w, &features_with(w, site, pos, m, false))
}

/// The value of a placement for `me` (the colour to move) from the columns it covers alone:
/// no room terms, so no copy of the position.
pub fn quick(w: &Weights, site: &Site, pos: &Position, m: Move, me: Colour) -> f32 {
    value(w, &column_features(site, pos, m, me))
}

/// The room each placement of the colour to move leaves the other sides, estimated at the
/// price of one generation per other colour for the whole node, where the greedy
/// evaluation counts every colour's placements after each child: a placement takes from a
/// colour the placements of it that share a column with the stone (the level they rested
/// on is gone), and the estimate leaves out the ones it makes (placements of the other
/// colour on top of the stone, where that colour can touch itself; and, for a colour that
/// has placed nothing yet, anywhere beside the new cubes), so past the first stone it never
/// counts more than the greedy evaluation does.
#[derive(Clone, Debug, Default)]
pub struct RoomEstimate {
    set: MoveSet,
    /// Per other colour: (its placements now, where its rows start in `rows`, words a row).
    colours: Vec<(usize, usize, usize)>,
    /// Per other colour and column: a bit for each of the colour's placements (in the
    /// order of its set) that covers the column.
    rows: Vec<u64>,
    others: f32,
}

impl RoomEstimate {
    /// Takes the other sides' placements on `pos`, where `me` moves.
    pub fn prepare(&mut self, site: &Site, pos: &Position, me: Colour) {
        self.colours.clear();
        self.rows.clear();
        self.others = other_colours(site, me);
        let columns = site.columns();
        let tables = site.gen_tables();
        for &c in site.order() {
            if same_side(site, c, me) {
                continue;
            }
            let n = pos.legal_set_for(site, c, &mut self.set);
            let words = n.div_ceil(64);
            let start = self.rows.len();
            self.rows.resize(start + columns * words, 0);
            for (i, m) in self.set.iter(tables).enumerate() {
                let t = site.template(m);
                for &x in &t.columns[..t.len as usize] {
                    self.rows[start + x as usize * words + i / 64] |= 1 << (i % 64);
                }
            }
            self.colours.push((n, start, words));
        }
    }

    /// Per other colour (in the site's order, the mover's side left out), the placements
    /// it keeps after `m`: those not sharing a column with it.
    pub fn kept(&self, site: &Site, m: Move) -> impl Iterator<Item = usize> + '_ {
        let t = site.template(m);
        let columns: [usize; 4] = std::array::from_fn(|i| t.columns[i] as usize);
        let len = t.len as usize;
        self.colours.iter().map(move |&(n, start, words)| {
            let row = |k: usize| &self.rows[start + columns[k] * words..][..words];
            let mut lost = 0;
            for w in 0..words {
                let mut bits = 0u64;
                for k in 0..len {
                    bits |= row(k)[w];
                }
                lost += bits.count_ones() as usize;
            }
            n - lost
        })
    }

    /// The greedy evaluation's room term for the other sides after `m`, from the estimate.
    pub fn other_room(&self, site: &Site, m: Move) -> f32 {
        self.kept(site, m).map(|k| crate::math::ln(1.0 + k as f32)).sum::<f32>() / self.others
    }
}

/// The greedy value of placement `m` for `me` (the colour to move) with the other sides'
/// room from `room` (prepared on `pos` for `me`) rather than counted: the greedy player's
/// choice at a fraction of its price. The own room is left out (its weight is 0).
pub fn estimated(w: &Weights, site: &Site, pos: &Position, m: Move, me: Colour, room: &RoomEstimate) -> f32 {
    let mut f = column_features(site, pos, m, me);
    f.other_room = room.other_room(site, m);
    value(w, &f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rumis_core::{Board, Game, Rng, Variant};
    use std::sync::Arc;

    /// Blue's first stone in Coricancha's corner, where the height limit is 1 but at i2:
    /// three cells left to touch it (h1 and h2 beside it, i2's second level); after Red's
    /// stone elsewhere, Yellow's I4 over i2 and Green's L4 over h1 and h2 wall it in (a
    /// level-8 game against three level 5s, out after one stone). The A4 standing on i2 instead leaves it six.
    #[test]
    fn outlets_count_the_cells_left_to_touch() {
        let mut g = crate::test_game("coricancha", 4, Variant::Standard);
        for m in ["I4@g8,h8,i8,j8", "L4@i5,j5,j6,j7", "O4@i3,i4,j3,j4"] {
            g.play_text(m).unwrap();
        }
        let blue = g.to_move().unwrap();
        assert_eq!(outlets(g.site(), g.position(), blue), 0, "no blue cube yet");
        let mut corner = g.clone();
        corner.play_text("O4@i1,i2,j1,j2").unwrap();
        assert_eq!(outlets(corner.site(), corner.position(), blue), 3);
        corner.play_text("T4@d8,e7,e8,f8").unwrap();
        corner.play_text("I4@i2,i3,i4,i5").unwrap();
        assert_eq!(outlets(corner.site(), corner.position(), blue), 2, "i2's top is taken");
        corner.play_text("L4@g1,h1,h2,h3").unwrap();
        assert_eq!(outlets(corner.site(), corner.position(), blue), 0);
        assert!(!corner.position().has_move(corner.site(), blue), "walled in: out");
        let mut standing = g.clone();
        standing.play_text("A4@h1,i1,i2x2").unwrap();
        assert_eq!(outlets(standing.site(), standing.position(), blue), 6);
    }

    /// The features against a slow count on the position after the placement: the change
    /// in the columns each side tops, and each colour's placements there.
    #[test]
    fn features_match_the_position_after_the_placement() {
        for (board, players, variant) in [
            ("chullpa", 2, Variant::Standard),
            ("pisac", 3, Variant::Standard),
            ("cucho", 2, Variant::TwoPlayerFourColors),
            ("tambo", 2, Variant::Ruinas),
        ] {
            let site = Arc::new(Site::new(Board::builtin(board).unwrap().clone(), players, variant, None).unwrap());
            let mut g = match variant {
                Variant::Ruinas => Game::with_random_ruins(site.clone(), 3),
                _ => Game::new(site.clone()),
            };
            let mut rng = Rng::new(6);
            while let Some(me) = g.to_move() {
                let pos = g.position();
                let tops = |p: &Position| {
                    let (mut own, mut other) = (0, 0);
                    for c in site.footprint() {
                        match p.top(c) {
                            Some(Cube::Stone(k)) if same_side(&site, k, me) => own += 1,
                            Some(Cube::Stone(_)) => other += 1,
                            _ => {}
                        }
                    }
                    (own, other)
                };
                let others = site.order().iter().filter(|&&c| !same_side(&site, c, me)).count() as f32;
                let moves = g.legal_moves();
                for &m in moves.iter().step_by(5) {
                    let f = features(&site, pos, m);
                    let mut after = pos.clone();
                    after.play_unchecked(&site, m);
                    let ((own0, other0), (own1, other1)) = (tops(pos), tops(&after));
                    assert_eq!(f.gained, own1 - own0, "{board}: {}", g.notation(m));
                    assert_eq!(
                        f.covered * others,
                        (other0 - other1) as f32,
                        "{board}: {}",
                        g.notation(m)
                    );
                    // Room: every colour's count, here by cloning and looking at each colour.
                    let counts = pos.count_moves_after(&site, m);
                    for &c in site.order() {
                        let want = if after.to_move(&site) == Some(c) {
                            after.count_moves(&site)
                        } else {
                            after.count_moves_for(&site, c)
                        };
                        assert_eq!(counts[c.index()], want, "{board}: {} {c:?}", g.notation(m));
                    }
                }
                g.play(moves[rng.below(moves.len())]).unwrap();
            }
        }
    }

    /// The room estimate against the position after each placement: every other colour
    /// that has placed a stone keeps exactly its placements there that share no column with
    /// the stone, and no colour is ever given more than its count there.
    #[test]
    fn the_room_estimate_keeps_what_the_stone_does_not_touch() {
        let mut checked = 0;
        for (board, players, variant, seed) in [
            ("coricancha", 4, Variant::Standard, 3),
            ("tambo", 3, Variant::Standard, 4),
            ("cucho", 2, Variant::TwoPlayerFourColors, 5),
            ("pirka", 2, Variant::Ruinas, 6),
        ] {
            let site = Arc::new(Site::new(Board::builtin(board).unwrap().clone(), players, variant, None).unwrap());
            let mut g = match variant {
                Variant::Ruinas => Game::with_random_ruins(site.clone(), 3),
                _ => Game::new(site.clone()),
            };
            let mut rng = Rng::new(seed);
            let mut est = RoomEstimate::default();
            let mut set = MoveSet::new();
            while let Some(me) = g.to_move() {
                let pos = g.position().clone();
                // On the empty board every colour may place anywhere; after the first stone,
                // only touching a cube: that first step is no estimate's business.
                if pos.cube_count() == 0 {
                    let moves = g.legal_moves();
                    g.play(moves[rng.below(moves.len())]).unwrap();
                    continue;
                }
                est.prepare(&site, &pos, me);
                let others: Vec<Colour> = site
                    .order()
                    .iter()
                    .copied()
                    .filter(|&c| !same_side(&site, c, me))
                    .collect();
                let moves = g.legal_moves();
                for &m in moves.iter().step_by(7) {
                    let mut after = pos.clone();
                    after.play_unchecked(&site, m);
                    let t = site.template(m);
                    let stone = &t.columns[..t.len as usize];
                    let counts = pos.count_moves_after(&site, m);
                    for (&c, kept) in others.iter().zip(est.kept(&site, m)) {
                        assert!(kept as u64 <= counts[c.index()], "{board}: {} {c:?}", g.notation(m));
                        if pos.stones_placed(c) == 0 {
                            continue;
                        }
                        after.legal_set_for(&site, c, &mut set);
                        let apart = set
                            .iter(site.gen_tables())
                            .filter(|&p| {
                                let u = site.template(p);
                                u.columns[..u.len as usize].iter().all(|x| !stone.contains(x))
                            })
                            .count();
                        assert_eq!(kept, apart, "{board}: {} {c:?}", g.notation(m));
                        checked += 1;
                    }
                }
                g.play(moves[rng.below(moves.len())]).unwrap();
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    /// What the estimate is for: finding the placement a greedy player picks without
    /// counting the room after each. In games of mostly greedy moves on Coricancha with 4
    /// players and Tambo with 3, the greedy choice (the greedy evaluation's best; ties
    /// count against) is the estimate's best more often than the columns-covered
    /// evaluation's (the quick priors), and among its best four in three positions of four.
    /// (When written: Coricancha first 0.53 against 0.35, among the best four 0.81; Tambo
    /// 3 first 0.60 against 0.41, among the best four 0.91.)
    #[test]
    fn the_room_estimate_finds_the_greedy_choice() {
        for (board, players) in [("coricancha", 4), ("tambo", 3)] {
            let site =
                Arc::new(Site::new(Board::builtin(board).unwrap().clone(), players, Variant::Standard, None).unwrap());
            let w = Weights::default();
            let (mut positions, mut first, mut best_four, mut quick_first) = (0, 0, 0, 0);
            for seed in 0..4 {
                let mut g = Game::new(site.clone());
                let mut rng = Rng::new(seed);
                let mut est = RoomEstimate::default();
                while let Some(me) = g.to_move() {
                    let pos = g.position().clone();
                    let moves = g.legal_moves();
                    let greedy: Vec<f32> = moves.iter().map(|&m| evaluate(&site, &pos, m)).collect();
                    let choice = (0..moves.len())
                        .max_by(|&a, &b| greedy[a].total_cmp(&greedy[b]))
                        .unwrap();
                    if pos.cube_count() > 0 && moves.len() > 1 {
                        est.prepare(&site, &pos, me);
                        // Placements the evaluation puts level with the choice or above it.
                        let rank = |value: &dyn Fn(Move) -> f32| {
                            let v = value(moves[choice]);
                            (0..moves.len())
                                .filter(|&i| i != choice && value(moves[i]) >= v)
                                .count()
                        };
                        let r = rank(&|m| estimated(&w, &site, &pos, m, me, &est));
                        positions += 1;
                        first += (r == 0) as usize;
                        best_four += (r < 4) as usize;
                        quick_first += (rank(&|m| quick(&w, &site, &pos, m, me)) == 0) as usize;
                    }
                    // Two moves in three greedy, the others random.
                    let m = if rng.below(3) < 2 {
                        moves[choice]
                    } else {
                        moves[rng.below(moves.len())]
                    };
                    g.play(m).unwrap();
                }
            }
            let share = |n: usize| n as f64 / positions as f64;
            eprintln!(
                "{board} {players}: {positions} positions, the greedy choice the estimate's best {:.2} (the quick evaluation's {:.2}), among its best four {:.2}",
                share(first),
                share(quick_first),
                share(best_four)
            );
            assert!(first > quick_first, "{board}");
            assert!(share(best_four) >= 0.75, "{board}");
        }
    }

    /// The greedy player takes the columns it can take from the other colour.
    #[test]
    fn greedy_covers_the_other_colour() {
        let text = "name = \"Strip\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 3, 3 = 3, 4 = 3 }\ngrid = \"\"\"\n####\n\"\"\"\n";
        let board = Board::from_toml("strip.toml", text).unwrap();
        let site = Arc::new(Site::new(board, 2, Variant::Standard, None).unwrap());
        let mut g = Game::new(site.clone());
        g.play_text("I3@a1,b1,c1").unwrap();
        let moves = g.legal_moves();
        let best = moves
            .iter()
            .copied()
            .max_by(|&a, &b| evaluate(&site, g.position(), a).total_cmp(&evaluate(&site, g.position(), b)))
            .unwrap();
        let name = g.notation(best);
        g.play(best).unwrap();
        // Yellow's first stone must rest on the board, so on d1; at best it reaches over
        // two of red's columns (an L4 standing at d1 with its arm over c1 and b1).
        let tops = |k| (0..4).filter(|&c| g.position().top(c) == Some(Cube::Stone(k))).count();
        assert_eq!((tops(Colour::Red), tops(Colour::Yellow)), (1, 3), "{name}");
    }
}
