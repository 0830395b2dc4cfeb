//! Cheap evaluation of a placement: what a greedy player and the search's move ordering use.

use rumis_core::{Colour, Cube, Move, Position, Site};

/// Features of the position after a placement, from the mover's side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    /// Columns topped by the mover's side.
    pub own_tops: i32,
    /// Columns topped by the other sides.
    pub other_tops: i32,
    /// Empty cells at the top of a column, under the limit, that touch the mover's colour:
    /// where its next stones can go.
    pub liberties: i32,
    /// Cubes in the stone placed.
    pub size: i32,
}

/// Whether two colours are on the same side (the same player in the two-player four-colour
/// game).
fn same_side(site: &Site, a: Colour, b: Colour) -> bool {
    a == b || (site.player_of(a).is_some() && site.player_of(a) == site.player_of(b))
}

pub fn features(site: &Site, pos: &Position, m: Move) -> Features {
    let Some(me) = pos.to_move(site) else {
        return Features::default();
    };
    let mut after = pos.clone();
    after.play_unchecked(site, m);
    let mut f = Features {
        size: site.template(m).stone.size() as i32,
        ..Features::default()
    };
    for c in site.footprint() {
        let h = after.height(c);
        match after.top(c) {
            Some(Cube::Stone(k)) if same_side(site, k, me) => f.own_tops += 1,
            Some(Cube::Stone(_)) => f.other_tops += 1,
            _ => {}
        }
        if h < site.limit[c] {
            let mine = |cube: Option<Cube>| cube == Some(Cube::Stone(me));
            if mine(after.cube(c, h)) || site.neighbours(c).iter().any(|&n| mine(after.cube(n as usize, h + 1))) {
                f.liberties += 1;
            }
        }
    }
    f
}

/// The greedy value of a placement for the colour to move.
pub fn evaluate(site: &Site, pos: &Position, m: Move) -> f32 {
    let f = features(site, pos, m);
    let others = (site.order.len().max(2) - 1) as f32;
    f.own_tops as f32 - 0.8 * f.other_tops as f32 / others + 0.25 * f.liberties as f32 + 0.4 * f.size as f32
}
