//! Cheap evaluation of a placement: what a greedy player and the search's move priors use.

use rumis_core::{Colour, Cube, Move, Position, Site};

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
    features_with(&Weights::default(), site, pos, m)
}

/// The features, leaving out the room terms when both weigh nothing (counting placements
/// is the costly part).
fn features_with(w: &Weights, site: &Site, pos: &Position, m: Move) -> Features {
    let Some(me) = pos.to_move(site) else {
        return Features::default();
    };
    let mut f = column_features(site, pos, m, me);
    if w.own_room == 0.0 && w.other_room == 0.0 {
        return f;
    }
    let counts = pos.count_moves_after(site, m);
    // The room of a side is its best colour's (two colours in the two-player four-colour game).
    let mut other_room = 0.0f32;
    for &c in site.order() {
        let room = (1.0 + counts[c.index()] as f32).ln();
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
    value(w, &features_with(w, site, pos, m))
}

/// The value of a placement for `me` (the colour to move) from the columns it covers alone:
/// no room terms, so no copy of the position.
pub fn quick(w: &Weights, site: &Site, pos: &Position, m: Move, me: Colour) -> f32 {
    value(w, &column_features(site, pos, m, me))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rumis_core::{Board, Game, Rng, Variant};
    use std::sync::Arc;

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
