//! Learned move priors: features of a placement that a player would name, and a softmax
//! model over them whose weights are data (`priors.toml`, learned from game records by
//! `rumis train-priors`, [`crate::train`]).
//!
//! A model's score of a placement is the dot product of its weights with the placement's
//! features; the probability that a player picks a placement is the softmax of the scores
//! over the legal placements. The search uses exp(score - best score), the probability
//! relative to the likeliest placement's, as a child's prior mean.
//!
//! A model has two weight vectors: `full`, over every feature, where the search can pay
//! for counting the placements left to each colour (at the root and, in two-player games,
//! at nodes visited often), and `quick`, over the features that need no copy of the
//! position (the room features weigh nothing there), everywhere else.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use rumis_core::{Colour, Cube, Move, Position, Site, Template};

/// The number of features.
pub const FEATURES: usize = 22;

/// The features' names, as the weights file spells them.
pub const NAMES: [&str; FEATURES] = [
    "gained",
    "covered",
    "kept",
    "secured",
    "secured_taken",
    "left_one_below_limit",
    "size",
    "size_early",
    "columns",
    "level",
    "top_height",
    "edge",
    "centre",
    "first_size",
    "first_edge",
    "own_contact",
    "other_contact",
    "open_faces",
    "own_room",
    "other_room",
    "others_stuck",
    "own_stuck",
];

/// Where the room features start: those need the placements counted after the placement
/// (a copy of the position per placement), the quick weights leave them out.
pub const ROOM_FEATURES: std::ops::Range<usize> = 18..22;

/// A placement's features, in the order of [`NAMES`].
pub type Features = [f32; FEATURES];

/// What each feature means (for the weights file's comments and `--help`):
///
/// - `gained`: columns the stone tops that the mover's side did not top before;
/// - `covered`: of those, the ones taken from another side, per other side (the greedy
///   evaluation's term);
/// - `kept`: columns the stone covers that the mover's side already topped;
/// - `secured`: columns the stone raises to their height limit: nobody covers them again;
/// - `secured_taken`: of those, the ones taken from another side;
/// - `left_one_below_limit`: columns the stone tops one level below their limit: the next
///   stone on them is out of reach for good;
/// - `size`: cubes in the stone; `size_early`: the same times the share of the mover's
///   stones still in hand (big stones early);
/// - `columns`: columns the stone covers (lying flat against standing);
/// - `level`: the stone's lowest level over the board's highest limit; `top_height`: the
///   mean new height of its columns over their limits;
/// - `edge`: share of its columns on the footprint's edge; `centre`: one less the mean
///   distance of its columns from the footprint's centre over the farthest;
/// - `first_size`, `first_edge`: size and edge for a colour's first stone (zero after);
/// - `own_contact`, `other_contact`: faces the stone shares with cubes of the mover's side
///   and of the other sides (the latter takes cells the others could touch);
/// - `open_faces`: empty cells under the limits that share a face with the stone, over ten
///   (where the mover's later stones can touch its colour);
/// - `own_room`: ln(1 + the mover's placements after it), the room for the stones it holds;
/// - `other_room`: the same per other side, averaged;
/// - `others_stuck`: other colours in play left with no placement; `own_stuck`: the mover
///   left with none.
pub fn describe() -> &'static str {
    "features of a placement: columns gained, covered from others, kept, secured at the \
     height limit, stone size, level, edge and centre, first stone, contact faces, open \
     faces and the room left to each side"
}

/// Whether two colours are on the same side (the same player in the two-player four-colour
/// game).
fn same_side(site: &Site, a: Colour, b: Colour) -> bool {
    a == b || (site.player_of(a).is_some() && site.player_of(a) == site.player_of(b))
}

/// What the features need of a site, computed once per site rather than per placement.
#[derive(Clone, Debug)]
pub struct SiteShape {
    /// Per column: on the footprint's edge (fewer than 4 buildable neighbours).
    edge: Vec<bool>,
    /// Per column: 1 - its distance from the footprint's centre over the farthest column's.
    centre: Vec<f32>,
    /// The highest height limit.
    top_limit: f32,
    /// Colours not on each colour's side, at least 1 (to divide by).
    others: [f32; 4],
}

impl SiteShape {
    pub fn new(site: &Site) -> SiteShape {
        let files = site.board().files.max(1);
        let n = site.columns();
        let cells: Vec<usize> = site.footprint().collect();
        let count = cells.len().max(1) as f32;
        let (mut cx, mut cy) = (0.0f32, 0.0f32);
        for &c in &cells {
            cx += (c % files) as f32;
            cy += (c / files) as f32;
        }
        let (cx, cy) = (cx / count, cy / count);
        let dist = |c: usize| (((c % files) as f32 - cx).powi(2) + ((c / files) as f32 - cy).powi(2)).sqrt();
        let far = cells.iter().map(|&c| dist(c)).fold(0.0f32, f32::max).max(1e-6);
        let mut edge = vec![false; n];
        let mut centre = vec![0.0; n];
        for &c in &cells {
            edge[c] = site.neighbours(c).len() < 4;
            centre[c] = 1.0 - dist(c) / far;
        }
        let mut others = [1.0f32; 4];
        for &me in site.order() {
            others[me.index()] = site.order().iter().filter(|&&c| !same_side(site, c, me)).count().max(1) as f32;
        }
        SiteShape {
            edge,
            centre,
            top_limit: site.footprint().map(|c| site.limits()[c]).max().unwrap_or(1).max(1) as f32,
            others,
        }
    }
}

/// The features of placement `m` for `me`, the colour to move on `pos`. With `room` the
/// room features are counted too (costly: a copy of the position and a count of each
/// colour's placements); without, they are zero.
pub fn features(site: &Site, shape: &SiteShape, pos: &Position, m: Move, me: Colour, room: bool) -> Features {
    let mut f = [0.0f32; FEATURES];
    let t = site.template(m);
    // The stone's lowest level: for a legal placement every column gives the same.
    let z0 = t
        .entries()
        .map(|(c, b, _)| pos.height(c).saturating_sub(b))
        .max()
        .unwrap_or(0);
    column_features(&mut f, site, shape, pos, t, z0, me);
    face_features(&mut f, site, pos, t, z0, me);
    if room {
        room_features(&mut f, site, shape, pos, m, me);
    }
    f
}

/// Features 0-14: what the stone's columns gain, cover, keep and secure, and where and how
/// high it lies.
fn column_features(f: &mut Features, site: &Site, shape: &SiteShape, pos: &Position, t: &Template, z0: u8, me: Colour) {
    let len = t.len as usize;
    let (mut gained, mut covered, mut kept, mut secured, mut secured_taken, mut below) = (0, 0, 0, 0, 0, 0);
    let (mut edge, mut centre, mut top_height) = (0.0f32, 0.0f32, 0.0f32);
    for (c, b, k) in t.entries() {
        let new_height = z0 + b + k;
        let limit = site.limits()[c];
        let taken = match pos.top(c) {
            Some(Cube::Stone(k)) if same_side(site, k, me) => {
                kept += 1;
                false
            }
            Some(Cube::Stone(_)) => {
                gained += 1;
                covered += 1;
                true
            }
            _ => {
                gained += 1;
                false
            }
        };
        if new_height >= limit {
            secured += 1;
            if taken {
                secured_taken += 1;
            }
        } else if new_height + 1 == limit {
            below += 1;
        }
        edge += shape.edge[c] as u8 as f32;
        centre += shape.centre[c];
        top_height += new_height as f32 / limit.max(1) as f32;
    }
    let lenf = len.max(1) as f32;
    let size = t.stone.size() as f32;
    let in_hand = pos.stones_left(me).len() as f32 / rumis_core::STONE_COUNT as f32;
    let first = pos.stones_placed(me) == 0;
    f[0] = gained as f32;
    f[1] = covered as f32 / shape.others[me.index()];
    f[2] = kept as f32;
    f[3] = secured as f32;
    f[4] = secured_taken as f32;
    f[5] = below as f32;
    f[6] = size;
    f[7] = size * in_hand;
    f[8] = len as f32;
    f[9] = z0 as f32 / shape.top_limit;
    f[10] = top_height / lenf;
    f[11] = edge / lenf;
    f[12] = centre / lenf;
    if first {
        f[13] = size;
        f[14] = edge / lenf;
    }
}

/// Features 15-17, the faces: each cube of the stone against its four side neighbours and
/// the cells above and below. The stone's own cells are empty on `pos`, so they are told
/// apart by the list of its cubes.
fn face_features(f: &mut Features, site: &Site, pos: &Position, t: &Template, z0: u8, me: Colour) {
    let mut cells = [(0usize, 0u8); 4];
    let mut ncells = 0;
    for (c, b, k) in t.entries() {
        for j in 0..k {
            if ncells < 4 {
                cells[ncells] = (c, z0 + b + j);
                ncells += 1;
            }
        }
    }
    let cells = &cells[..ncells];
    let (mut own_contact, mut other_contact, mut open) = (0, 0, 0);
    let mut face = |n: usize, z: u8| {
        if cells.contains(&(n, z)) {
            return;
        }
        if z < pos.height(n) {
            match pos.cube(n, z + 1) {
                Some(Cube::Stone(k)) if same_side(site, k, me) => own_contact += 1,
                Some(Cube::Stone(_)) => other_contact += 1,
                _ => {}
            }
        } else if z < site.limits()[n] {
            open += 1;
        }
    };
    for &(c, z) in cells {
        for &n in site.neighbours(c) {
            face(n as usize, z);
        }
        if z > 0 {
            face(c, z - 1);
        }
        face(c, z + 1);
    }
    f[15] = own_contact as f32;
    f[16] = other_contact as f32;
    f[17] = open as f32 / 10.0;
}

/// Features 18-21, the room ([`ROOM_FEATURES`]): the placements each colour has left after
/// the stone (a copy of the position and a count of each colour's placements).
fn room_features(f: &mut Features, site: &Site, shape: &SiteShape, pos: &Position, m: Move, me: Colour) {
    let counts = pos.count_moves_after(site, m);
    let (mut own, mut other, mut stuck) = (0.0f32, 0.0f32, 0.0f32);
    let mut own_any = false;
    for &c in site.order() {
        let n = counts[c.index()];
        let r = crate::math::ln(1.0 + n as f32);
        if same_side(site, c, me) {
            own = own.max(r);
            own_any |= n > 0;
        } else {
            other += r;
            if n == 0 && !pos.is_out(c) {
                stuck += 1.0;
            }
        }
    }
    f[18] = own;
    f[19] = other / shape.others[me.index()];
    f[20] = stuck;
    f[21] = (!own_any) as u8 as f32;
}

/// A softmax model over the features: its weights with and without the room features.
#[derive(Clone, Debug, PartialEq)]
pub struct PriorModel {
    pub full: Features,
    pub quick: Features,
}

impl PriorModel {
    /// The score of a placement's features (the softmax's logit).
    pub fn score(weights: &Features, f: &Features) -> f32 {
        weights.iter().zip(f).map(|(w, x)| w * x).sum()
    }

    /// Reads a weights file: a `[full]` and a `[quick]` table of `feature = weight`; every
    /// feature named must be one of [`NAMES`] (a feature not named weighs 0), every weight
    /// a finite number, and `quick` may not weigh a room feature.
    pub fn from_toml(text: &str) -> Result<PriorModel, String> {
        let value: toml::Table = toml::from_str(text).map_err(|e| format!("not a weights file: {e}"))?;
        PriorModel::from_table(&value)
    }

    /// The same from a parsed table (a weights file, or one scenario's table of
    /// `scenario-priors.toml`).
    fn from_table(value: &toml::Table) -> Result<PriorModel, String> {
        for key in value.keys() {
            if key != "full" && key != "quick" {
                return Err(format!("unknown table [{key}]: a weights file has [full] and [quick]"));
            }
        }
        let read = |name: &str| -> Result<Features, String> {
            let table = value
                .get(name)
                .ok_or_else(|| format!("no [{name}] table"))?
                .as_table()
                .ok_or_else(|| format!("'{name}' is not a table"))?;
            let mut w = [0.0f32; FEATURES];
            for (k, v) in table {
                let i = NAMES
                    .iter()
                    .position(|n| n == k)
                    .ok_or_else(|| format!("[{name}]: unknown feature '{k}'"))?;
                let x = match v {
                    toml::Value::Float(x) => *x,
                    toml::Value::Integer(x) => *x as f64,
                    _ => return Err(format!("[{name}] {k}: not a number")),
                };
                if !x.is_finite() || x.abs() > 1e6 {
                    return Err(format!("[{name}] {k}: {x} is not a usable weight"));
                }
                w[i] = x as f32;
            }
            Ok(w)
        };
        let model = PriorModel {
            full: read("full")?,
            quick: read("quick")?,
        };
        if let Some(i) = ROOM_FEATURES.clone().find(|&i| model.quick[i] != 0.0) {
            return Err(format!("[quick] {}: the quick weights cannot count the room", NAMES[i]));
        }
        Ok(model)
    }

    /// Reads a weights file from disk.
    pub fn load(path: &std::path::Path) -> Result<PriorModel, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        PriorModel::from_toml(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The model compiled in (`crates/rumis-ai/priors.toml`).
    pub fn builtin() -> &'static PriorModel {
        static MODEL: OnceLock<PriorModel> = OnceLock::new();
        // A unit test parses the file, so the fallback (all weights 0) is never taken.
        MODEL.get_or_init(|| {
            PriorModel::from_toml(BUILTIN).unwrap_or(PriorModel {
                full: [0.0; FEATURES],
                quick: [0.0; FEATURES],
            })
        })
    }
}

const BUILTIN: &str = include_str!("../priors.toml");

/// The per-scenario models compiled in: tables named after a board, each a weights file's
/// `[full]` and `[quick]`.
const SCENARIO_MODELS: &str = include_str!("../scenario-priors.toml");

/// The general models of one player count compiled in: tables `players-N`, each a weights
/// file's `[full]` and `[quick]`.
const PLAYER_COUNT_MODELS: &str = include_str!("../player-count-priors.toml");

/// A file of named models (`scenario-priors.toml`, `player-count-priors.toml`): each table
/// a weights file's `[full]` and `[quick]`; names in lower case.
fn parse_named_models(file: &str, text: &str) -> Result<HashMap<String, PriorModel>, String> {
    let value: toml::Table = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    value
        .iter()
        .map(|(name, table)| {
            let table = table
                .as_table()
                .ok_or_else(|| format!("{file}: '{name}' is not a table"))?;
            let model = PriorModel::from_table(table).map_err(|e| format!("{file} [{name}]: {e}"))?;
            Ok((name.to_ascii_lowercase(), model))
        })
        .collect()
}

fn parse_scenario_models(text: &str) -> Result<HashMap<String, PriorModel>, String> {
    parse_named_models("scenario-priors.toml", text)
}

/// The player counts' models by count; a table not named `players-N` (N = 2-4) is refused.
fn parse_player_count_models(text: &str) -> Result<HashMap<usize, PriorModel>, String> {
    const FILE: &str = "player-count-priors.toml";
    parse_named_models(FILE, text)?
        .into_iter()
        .map(|(name, model)| {
            let players = name
                .strip_prefix("players-")
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|n| (2..=4).contains(n))
                .ok_or_else(|| format!("{FILE}: [{name}] is not a player count (players-2, -3 or -4)"))?;
            Ok((players, model))
        })
        .collect()
}

/// The learned model of a scenario (by the board's name, any case), where one was learned
/// from that board's records and measured better than the general model
/// ([`general_model`]); `None` elsewhere.
pub fn scenario_model(board_name: &str) -> Option<&'static PriorModel> {
    static MODELS: OnceLock<HashMap<String, PriorModel>> = OnceLock::new();
    // A unit test parses the file, so the fallback (no scenario models) is never taken.
    MODELS
        .get_or_init(|| parse_scenario_models(SCENARIO_MODELS).unwrap_or_default())
        .get(&board_name.trim().to_ascii_lowercase())
}

/// The general learned model for games of this many players (the two-player four-colour
/// game counts 2): the one learned from games of that count alone where it measured better
/// (`player-count-priors.toml`), else the one learned from every count
/// ([`PriorModel::builtin`]).
pub fn general_model(players: usize) -> &'static PriorModel {
    static MODELS: OnceLock<HashMap<usize, PriorModel>> = OnceLock::new();
    // A unit test parses the file, so the fallback (no player-count models) is never taken.
    MODELS
        .get_or_init(|| parse_player_count_models(PLAYER_COUNT_MODELS).unwrap_or_default())
        .get(&players)
        .unwrap_or_else(|| PriorModel::builtin())
}

impl fmt::Display for PriorModel {
    /// The weights file's text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, w) in [("full", &self.full), ("quick", &self.quick)] {
            writeln!(f, "[{name}]")?;
            for (i, n) in NAMES.iter().enumerate() {
                if name == "quick" && ROOM_FEATURES.contains(&i) {
                    continue;
                }
                writeln!(f, "{n} = {:.4}", w[i])?;
            }
            if name == "full" {
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

/// A model's quick score ([`PriorModel::score`] of the quick weights over [`features`]
/// without the room) at a fraction of its price, for the playouts: what does not change
/// with the position (size, columns, edge, centre) is summed once per template, and the
/// faces are counted a column at a time on the position's cube bits rather than cell by
/// cell. The same score up to the order of the additions (a test holds it to
/// [`features`]).
#[derive(Clone, Debug)]
pub struct QuickScorer {
    /// Per template: the weighted features fixed by the template alone.
    fixed: Vec<f32>,
    /// Per template: the same for a colour's first stone (`first_size`, `first_edge`).
    first: Vec<f32>,
    /// Per template: its size times the weight of `size_early`.
    early: Vec<f32>,
    /// Per template: the weight of `top_height` over its number of columns.
    top_per_column: Vec<f32>,
    /// Per template: its own cells in the windows [`QuickScorer::score`] counts faces on
    /// (a side neighbour's levels of an entry's run, where the neighbour is an entry too),
    /// the same for every height the stone lands at.
    inner_faces: Vec<u8>,
    /// Per column: one over its height limit, and the levels under it as bits.
    inverse_limit: Vec<f32>,
    under_limit: Vec<u32>,
    weights: Features,
    shape: SiteShape,
    /// Per colour: the other colour of its side (the two-player four-colour game), else
    /// itself.
    partner: [Colour; 4],
}

impl QuickScorer {
    pub fn new(site: &Site, shape: &SiteShape, weights: &Features) -> QuickScorer {
        let w = weights;
        let n = site.templates().len();
        let (mut fixed, mut first, mut early, mut top_per_column) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        let mut inner_faces = Vec::with_capacity(n);
        for t in site.templates() {
            let len = (t.len as usize).max(1) as f32;
            let size = t.stone.size() as f32;
            let (mut edge, mut centre) = (0.0f32, 0.0f32);
            for (c, _, _) in t.entries() {
                edge += shape.edge[c] as u8 as f32;
                centre += shape.centre[c];
            }
            fixed.push(w[6] * size + w[8] * t.len as f32 + w[11] * (edge / len) + w[12] * (centre / len));
            first.push(w[13] * size + w[14] * (edge / len));
            early.push(w[7] * size);
            top_per_column.push(w[10] / len);
            let mut inner = 0;
            for (c, b, k) in t.entries() {
                for &n in site.neighbours(c) {
                    if let Some((_, nb, nk)) = t.entries().find(|e| e.0 == n as usize) {
                        inner += (b + k).min(nb + nk).saturating_sub(b.max(nb));
                    }
                }
            }
            inner_faces.push(inner);
        }
        let limits = site.limits();
        QuickScorer {
            fixed,
            first,
            early,
            top_per_column,
            inner_faces,
            inverse_limit: limits.iter().map(|&l| 1.0 / l.max(1) as f32).collect(),
            under_limit: limits.iter().map(|&l| (1u32 << l.min(31)) - 1).collect(),
            weights: *weights,
            shape: shape.clone(),
            partner: Colour::ALL.map(|me| {
                site.order()
                    .iter()
                    .copied()
                    .find(|&c| c != me && same_side(site, c, me))
                    .unwrap_or(me)
            }),
        }
    }

    /// Reads what the quick score needs of `pos` for `me`, the colour to move, into
    /// `view`: once a ply, for every placement scored there (four a ply in the informed
    /// playouts, every legal one at an expansion). Before, each score read the colours'
    /// cube bits of every column it looked at, its neighbours' four times over.
    pub fn look(&self, site: &Site, pos: &Position, me: Colour, view: &mut ScoreView) {
        let partner = self.partner[me.index()];
        // Every column of the board (the position's arrays hold MAX_COLUMNS).
        let columns = site.limits().len().min(rumis_core::MAX_COLUMNS);
        view.columns.resize(columns, ColumnBits(0));
        for (c, (out, &under)) in view.columns.iter_mut().zip(&self.under_limit[..columns]).enumerate() {
            let own = (pos.cube_levels(c, me) | pos.cube_levels(c, partner)) as u64;
            let height = pos.height(c);
            let filled = (1u64 << height) - 1;
            let other = filled & !own & !(pos.ruin_levels(c) as u64);
            let open = !filled & under as u64;
            *out = ColumnBits(own | other << 16 | open << 32 | (height as u64) << 48);
        }
        view.me = me;
        view.in_hand = pos.stones_in_hand(me) as f32 / rumis_core::STONE_COUNT as f32;
        view.first_stone = pos.stones_placed(me) == 0;
    }

    /// The quick score of legal placement `m` on the position `view` looked at
    /// ([`QuickScorer::look`]).
    pub fn score(&self, site: &Site, view: &ScoreView, m: Move) -> f32 {
        let w = &self.weights;
        let t = site.template(m);
        let id = m.index();
        let limits = site.limits();
        let columns = &view.columns[..];
        let z0 = t
            .entries()
            .map(|(c, b, _)| columns[c].height().saturating_sub(b))
            .max()
            .unwrap_or(0);
        let mut score = self.fixed[id] + w[9] * (z0 as f32 / self.shape.top_limit);
        let (mut gained, mut covered, mut kept, mut secured, mut secured_taken, mut below) = (0, 0, 0, 0, 0, 0);
        let mut top_height = 0.0f32;
        let mut counts = 0u64;
        for (c, b, k) in t.entries() {
            let column = columns[c];
            let h = column.height();
            let new_height = z0 + b + k;
            let limit = limits[c];
            let top = 1u64 << h >> 1;
            let taken = if column.0 & top != 0 {
                kept += 1;
                false
            } else {
                let taken = column.0 >> 16 & top != 0;
                gained += 1;
                covered += taken as u32;
                taken
            };
            if new_height >= limit {
                secured += 1;
                secured_taken += taken as u32;
            } else if new_height + 1 == limit {
                below += 1;
            }
            top_height += new_height as f32 * self.inverse_limit[c];
            // Faces: the side neighbours' cells at the stone's levels, then the cells
            // under and over its run in this column. Each is counted on a window of at
            // most four levels from `low`, in the three lanes at once: the window of each
            // lane, then each lane's set bits summed by halves (the build is for any x86-64,
            // without POPCNT) into a running count per lane. The stone's own cells in its
            // neighbours' windows are open cells here, taken off below.
            let start = z0 + b;
            let mut faces = |col: &ColumnBits, low: u8, width: u8| {
                let x = (col.0 >> low) & WINDOW[width as usize];
                let x = x - ((x >> 1) & 0x5555_5555_5555_5555);
                counts += (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
            };
            for &n in site.neighbours(c) {
                faces(&columns[n as usize], start, k);
            }
            if start > 0 {
                faces(&column, start - 1, 1);
            }
            faces(&column, start + k, 1);
        }
        let [own_contact, other_contact, open] = [0, 16, 32].map(|lane| (counts >> lane & 0xffff) as u32);
        // (Saturating: a placement over the height limit, never scored, would have fewer.)
        let open = open.saturating_sub(self.inner_faces[id] as u32);
        score += w[0] * gained as f32
            + w[1] * (covered as f32 / self.shape.others[view.me.index()])
            + w[2] * kept as f32
            + w[3] * secured as f32
            + w[4] * secured_taken as f32
            + w[5] * below as f32
            + self.early[id] * view.in_hand
            + self.top_per_column[id] * top_height
            + w[15] * own_contact as f32
            + w[16] * other_contact as f32
            + w[17] * (open as f32 / 10.0);
        if view.first_stone {
            score += self.first[id];
        }
        score
    }
}

/// What [`QuickScorer::score`] reads of a position for the colour to move
/// ([`QuickScorer::look`]); kept between plies so that its room is allocated once.
#[derive(Clone, Debug)]
pub struct ScoreView {
    columns: Vec<ColumnBits>,
    me: Colour,
    in_hand: f32,
    first_stone: bool,
}

impl Default for ScoreView {
    fn default() -> ScoreView {
        ScoreView {
            columns: Vec::new(),
            me: Colour::Red,
            in_hand: 0.0,
            first_stone: false,
        }
    }
}

/// The levels `low..low + width` of each of the three lanes of a [`ColumnBits`] shifted down
/// by `low`, by `width` (at most 4, a stone's run in a column).
const WINDOW: [u64; 5] = [
    0,
    0x0001_0001_0001,
    0x0003_0003_0003,
    0x0007_0007_0007,
    0x000f_000f_000f,
];

// A window ends at most one level over the height limit, level 15 at most: in its lane.
const _: () = assert!(rumis_core::MAX_LEVEL <= 15);

/// One column's cubes as level bits, for the colour to move, in three 16-bit lanes (levels
/// are at most 15): its side's (bits 0-15), the other sides' but not the ruins (16-31), and
/// the empty levels under the height limit (32-47); then its height (48-55).
#[derive(Clone, Copy, Debug)]
struct ColumnBits(u64);

impl ColumnBits {
    fn height(self) -> u8 {
        (self.0 >> 48) as u8
    }
}

#[cfg(test)]
mod tests;
