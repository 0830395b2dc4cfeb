//! The eleven stones, their orientations and the four colours (rules §2).

use std::fmt;

/// One of the four colours of stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Colour {
    /// Red, the first to play.
    Red = 0,
    /// Yellow.
    Yellow = 1,
    /// Green.
    Green = 2,
    /// Blue.
    Blue = 3,
}

impl Colour {
    /// The four colours in their usual order of play.
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Yellow, Colour::Green, Colour::Blue];

    /// The colour's index (0-3) in tables.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour of an index 0-3.
    pub fn from_index(i: usize) -> Option<Colour> {
        Colour::ALL.get(i).copied()
    }

    /// The colour's letter: R, Y, G or B.
    pub fn letter(self) -> char {
        ['R', 'Y', 'G', 'B'][self.index()]
    }

    /// The colour of a letter (any case).
    pub fn from_letter(c: char) -> Option<Colour> {
        match c.to_ascii_uppercase() {
            'R' => Some(Colour::Red),
            'Y' => Some(Colour::Yellow),
            'G' => Some(Colour::Green),
            'B' => Some(Colour::Blue),
            _ => None,
        }
    }

    /// The colour's name in English.
    pub fn name(self) -> &'static str {
        ["red", "yellow", "green", "blue"][self.index()]
    }

    /// Reads a word that is one colour letter ("R", "y").
    pub fn from_word(w: &str) -> Option<Colour> {
        let mut ch = w.chars();
        match (ch.next().and_then(Colour::from_letter), ch.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One of the eleven polycubes of 2, 3 and 4 cubes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Stone {
    /// The domino.
    D2 = 0,
    /// The straight tricube.
    I3,
    /// The bent tricube.
    V3,
    /// The straight tetracube.
    I4,
    /// The square tetracube.
    O4,
    /// The T tetracube.
    T4,
    /// The L tetracube.
    L4,
    /// The S tetracube.
    S4,
    /// A screw tetracube (the mirror image of `B4`).
    A4,
    /// A screw tetracube (the mirror image of `A4`).
    B4,
    /// The branch (tripod) tetracube.
    Y4,
}

/// The cells of each stone in its reference orientation, from rules §2.
const SHAPES: [&[(i8, i8, i8)]; 11] = [
    &[(0, 0, 0), (1, 0, 0)],
    &[(0, 0, 0), (1, 0, 0), (2, 0, 0)],
    &[(0, 0, 0), (1, 0, 0), (0, 1, 0)],
    &[(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)],
    &[(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)],
    &[(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)],
    &[(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)],
    &[(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)],
    &[(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)],
    &[(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1)],
    &[(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],
];

/// The number of stones of a colour.
pub const STONE_COUNT: usize = 11;

/// Every stone of a colour, as a bit set over [`Stone::index`].
pub const ALL_STONES: u16 = (1 << STONE_COUNT) - 1;

impl Stone {
    /// The eleven stones, in index order.
    pub const ALL: [Stone; 11] = [
        Stone::D2,
        Stone::I3,
        Stone::V3,
        Stone::I4,
        Stone::O4,
        Stone::T4,
        Stone::L4,
        Stone::S4,
        Stone::A4,
        Stone::B4,
        Stone::Y4,
    ];

    /// The stone's index (0-10) in tables and bit sets.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The stone of an index 0-10.
    pub fn from_index(i: usize) -> Option<Stone> {
        Stone::ALL.get(i).copied()
    }

    /// The stone's code in notation (`D2`, `L4`, …).
    pub fn code(self) -> &'static str {
        ["D2", "I3", "V3", "I4", "O4", "T4", "L4", "S4", "A4", "B4", "Y4"][self.index()]
    }

    /// Reads a stone code, in upper or lower case.
    pub fn from_code(code: &str) -> Option<Stone> {
        Stone::ALL.iter().copied().find(|s| s.code().eq_ignore_ascii_case(code))
    }

    /// Number of unit cubes.
    pub fn size(self) -> usize {
        SHAPES[self.index()].len()
    }

    /// The cells of the reference orientation.
    pub fn cells(self) -> &'static [(i8, i8, i8)] {
        SHAPES[self.index()]
    }

    /// The distinct orientations reachable by the 24 proper rotations (no mirror images),
    /// each normalised to start at (0, 0, 0) and sorted; in a fixed order.
    pub fn orientations(self) -> Vec<Vec<(i8, i8, i8)>> {
        let mut seen: Vec<Vec<(i8, i8, i8)>> = Vec::new();
        for rot in rotations() {
            let mut cells: Vec<(i8, i8, i8)> = self.cells().iter().map(|&c| apply(&rot, c)).collect();
            normalise(&mut cells);
            if !seen.contains(&cells) {
                seen.push(cells);
            }
        }
        seen
    }

    /// The index (into [`Stone::orientations`]) of the orientation that orientation
    /// `orientation` becomes after a quarter turn (90°, right-handed, the positive
    /// direction) about axis `axis`: 0 = x (file), 1 = y (rank), 2 = z (level, up),
    /// normalised as `orientations()` normalises. The axes are the ones the templates use:
    /// `Site` puts an orientation's cell (x, y, z) at file `x + dx`, rank `y + dy`, and
    /// `z` levels above the stone's lowest level. Out-of-range arguments give back
    /// `orientation` unchanged.
    pub fn turn(self, orientation: usize, axis: usize) -> usize {
        let all = self.orientations();
        let Some(cells) = all.get(orientation) else {
            return orientation;
        };
        let quarter = |(x, y, z): (i8, i8, i8)| match axis {
            0 => (x, -z, y),
            1 => (z, y, -x),
            _ => (-y, x, z),
        };
        if axis > 2 {
            return orientation;
        }
        let mut turned: Vec<(i8, i8, i8)> = cells.iter().map(|&c| quarter(c)).collect();
        normalise(&mut turned);
        all.iter()
            .position(|o| *o == turned)
            .expect("a proper rotation of an orientation is an orientation")
    }
}

impl fmt::Display for Stone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A rotation of the grid as a 3 x 3 integer matrix (rows of x, y, z).
pub type Matrix = [[i8; 3]; 3];

fn apply(m: &Matrix, (x, y, z): (i8, i8, i8)) -> (i8, i8, i8) {
    let v = [x, y, z];
    let r = |row: &[i8; 3]| row[0] * v[0] + row[1] * v[1] + row[2] * v[2];
    (r(&m[0]), r(&m[1]), r(&m[2]))
}

fn det(m: &Matrix) -> i32 {
    let m = m.map(|r| r.map(i32::from));
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
}

/// The 24 proper rotations of the cube: signed permutation matrices with determinant +1.
pub fn rotations() -> Vec<Matrix> {
    const PERMS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut out = Vec::with_capacity(24);
    for p in PERMS {
        for signs in 0..8 {
            let mut m = [[0i8; 3]; 3];
            for (row, &col) in p.iter().enumerate() {
                m[row][col] = if signs >> row & 1 == 1 { -1 } else { 1 };
            }
            if det(&m) == 1 {
                out.push(m);
            }
        }
    }
    out
}

fn normalise(cells: &mut [(i8, i8, i8)]) {
    let mx = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let my = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let mz = cells.iter().map(|c| c.2).min().unwrap_or(0);
    for c in cells.iter_mut() {
        *c = (c.0 - mx, c.1 - my, c.2 - mz);
    }
    cells.sort_unstable();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_four_rotations() {
        let r = rotations();
        assert_eq!(r.len(), 24);
        for (i, a) in r.iter().enumerate() {
            for b in &r[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn orientation_counts_match_the_rules() {
        let counts: Vec<usize> = Stone::ALL.iter().map(|s| s.orientations().len()).collect();
        assert_eq!(counts, vec![3, 3, 12, 3, 3, 12, 24, 12, 12, 12, 8]);
        assert_eq!(counts.iter().sum::<usize>(), 104);
    }

    #[test]
    fn screws_are_mirror_images_never_rotations() {
        let a = Stone::A4.orientations();
        let b = Stone::B4.orientations();
        assert!(a.iter().all(|o| !b.contains(o)));
        // Mirroring A4 in x gives an orientation of B4.
        let mut m: Vec<_> = Stone::A4.cells().iter().map(|&(x, y, z)| (-x, y, z)).collect();
        normalise(&mut m);
        assert!(b.contains(&m));
    }

    #[test]
    fn four_quarter_turns_give_the_orientation_back() {
        for s in Stone::ALL {
            for o in 0..s.orientations().len() {
                for axis in 0..3 {
                    let t = (0..4).fold(o, |t, _| s.turn(t, axis));
                    assert_eq!(t, o, "{s} orientation {o} axis {axis}");
                }
            }
        }
    }

    #[test]
    fn turns_reach_every_orientation() {
        for s in Stone::ALL {
            let n = s.orientations().len();
            let mut seen = vec![false; n];
            let mut stack = vec![0];
            seen[0] = true;
            while let Some(o) = stack.pop() {
                for axis in 0..3 {
                    let t = s.turn(o, axis);
                    assert!(t < n);
                    if !seen[t] {
                        seen[t] = true;
                        stack.push(t);
                    }
                }
            }
            assert!(seen.iter().all(|&v| v), "{s}: every orientation reachable by turns");
        }
    }

    #[test]
    fn turns_by_hand() {
        let d = Stone::D2.orientations();
        let along = |cells: &[(i8, i8, i8)]| d.iter().position(|o| o == cells).unwrap();
        let x = along(&[(0, 0, 0), (1, 0, 0)]);
        let y = along(&[(0, 0, 0), (0, 1, 0)]);
        let z = along(&[(0, 0, 0), (0, 0, 1)]);
        assert_eq!(Stone::D2.turn(x, 2), y, "lying along x, turned about z: along y");
        assert_eq!(Stone::D2.turn(x, 1), z, "lying along x, turned about y: standing");
        assert_eq!(Stone::D2.turn(x, 0), x, "turning about its own axis changes nothing");
        assert_eq!(Stone::D2.turn(y, 0), z);
        // V3 flat (0,0,0),(1,0,0),(0,1,0) (cells are listed sorted): a quarter turn about z (x -> y, y -> -x) gives
        // (0,0,0),(0,1,0),(-1,0,0), normalised (0,0,0),(1,0,0),(1,1,0).
        let v = Stone::V3.orientations();
        let flat = v.iter().position(|o| o == &[(0, 0, 0), (0, 1, 0), (1, 0, 0)]).unwrap();
        let turned = v.iter().position(|o| o == &[(0, 0, 0), (1, 0, 0), (1, 1, 0)]).unwrap();
        assert_eq!(Stone::V3.turn(flat, 2), turned);
        // Out of range: unchanged, no panic.
        assert_eq!(Stone::V3.turn(99, 0), 99);
        assert_eq!(Stone::V3.turn(flat, 3), flat);
    }

    #[test]
    fn forty_cubes_per_colour() {
        assert_eq!(Stone::ALL.iter().map(|s| s.size()).sum::<usize>(), 40);
    }

    #[test]
    fn colour_lists() {
        use Colour::*;
        assert_eq!(Colour::parse_list("R Y G"), Ok(vec![Red, Yellow, Green]));
        assert_eq!(Colour::parse_list("b,r"), Ok(vec![Blue, Red]));
        assert_eq!(Colour::parse_list("RYGB"), Ok(vec![Red, Yellow, Green, Blue]));
        assert!(Colour::parse_list("R X").unwrap_err().to_string().contains("'X'"));
        assert!(Colour::parse_list("Red").is_err());
        assert_eq!(Colour::parse_list(""), Ok(vec![]));
    }

    #[test]
    fn codes_round_trip() {
        for s in Stone::ALL {
            assert_eq!(Stone::from_code(&s.code().to_lowercase()), Some(s));
        }
        assert_eq!(Stone::from_code("Z9"), None);
    }
}
