//! A placement template (a stone's orientation and shift on a site, independent of the
//! position) and a move, a template's id. Below the site, the generator and the position,
//! which all speak of them.

use crate::stone::Stone;

/// A placement of a stone on the site, independent of the position: an orientation and a
/// shift. Each covered column holds one unbroken run of `k` cubes starting `b` levels above
/// the anchor column's height.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Template {
    /// The stone placed.
    pub stone: Stone,
    /// Index into `stone.orientations()`. An orientation's cell (x, y, z) is at file
    /// `x + dx`, rank `y + dy` and `z` levels above the stone's lowest level (see
    /// `enumerate_templates`): x is the file, y the rank, z the level, the axes of
    /// [`Stone::turn`].
    pub orientation: u8,
    /// Number of covered columns (1-4).
    pub len: u8,
    /// The entry whose run starts at the stone's lowest level (b = 0).
    pub anchor: u8,
    /// Covered columns, sorted by file then rank.
    pub columns: [u8; 4],
    /// Per column: the run's start above the stone's lowest level.
    pub base: [u8; 4],
    /// Per column: the number of cubes.
    pub count: [u8; 4],
    /// The highest level (0-based) the stone's lowest cube may take under the height limits.
    pub zmax: u8,
}

impl Template {
    /// Per covered column: (column, run start above the stone's lowest level, cube count).
    pub fn entries(&self) -> impl Iterator<Item = (usize, u8, u8)> + '_ {
        (0..self.len as usize).map(move |i| (self.columns[i] as usize, self.base[i], self.count[i]))
    }
}

/// A placement: a template id on its site (see [`Site::templates`](crate::Site::templates)). Opaque: a move is
/// only meaningful on the site that made it, so it is made by the site (legal-move
/// generation, notation) or from a checked index ([`Move::from_index`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(transparent))]
pub struct Move(pub(crate) u16);

impl Move {
    /// The template id on its site: an index into [`Site::templates`](crate::Site::templates). (The default
    /// move is index 0, a placeholder such as a search tree's root.)
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
