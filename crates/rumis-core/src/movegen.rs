//! The fast legal-move generator: every template of a site tested at once, 64 per step.
//!
//! Columns are solid stacks, so whether a template fits depends only on one byte per
//! covered column: `h << 4 | w`, the column's height and a 4-bit window of the contact mask
//! of the colour that needs touching (`w` bit i set when the cell i levels above the top
//! shares a face with a cube of that colour). With `z = h[anchor] << 4`, a template fits iff
//!
//! ```text
//! r = (v[anchor] & kmask[anchor]) | sat_sub(z, zmax << 4)
//!   | OR over the other entries ((v[i] - (z + b[i] << 4)) & (0xf0 | kmask[i]))
//! ```
//!
//! lies in `1..=15`: a high nibble of zero says every column is at the height the stone
//! needs and the base is under the limit, a low nibble that is not zero says the cubes
//! touch. The first stone of a later colour uses the "any cube" mask and a limit of 0 (it
//! rests on the board); the first stone of the game uses a window of all ones.
//!
//! The site orders its templates into *chunks* of 64 slots, by number of covered columns
//! then by stone ([`GenTables`]), so a chunk does only the lookups it needs and a chunk whose
//! stones are all used is skipped. A legal-move set ([`MoveSet`]) is a bitset over these
//! slots; the site maps a slot to its template id and back.
//!
//! Four code paths compute the same bits: AVX-512 VBMI (`vpermb` holds the whole per-column
//! table of up to 128 columns in registers), AVX2 (`vpshufb` over 16-column sub-tables),
//! WebAssembly SIMD (`i8x16.swizzle` over the same sub-tables, 16 templates per
//! instruction) and a portable scalar loop. The widest one the CPU has is chosen at run
//! time ([`CodePath::active`]); on WebAssembly there is no run-time detection — a module
//! either is compiled with `simd128` (and then only an engine with SIMD can load it at all)
//! or has only the scalar path, so the web app builds modules of each (and one with
//! relaxed SIMD too) and picks one; the environment variable `RUMIS_CODE_PATH` (`avx512`, `avx2`,
//! `scalar`) forces a narrower one, e.g. to run under valgrind, which cannot run AVX-512:
//! the paths wider than it named then count as unavailable for the whole process.
//!
//! # Soundness
//! Running an AVX-512 or AVX2 path on a CPU without those instructions is undefined
//! behaviour (the WebAssembly SIMD path exists only in modules compiled with `simd128`), so a [`CodePath`] value alone proves nothing: every public function that
//! takes one (`Position::legal_set_with`, `Position::play_generate_with`, `perft_with`,
//! `random_playout_with`, `random_playout_in_place`) checks [`CodePath::is_available`]
//! first and refuses with [`CodePathUnavailable`], changing nothing. The crate's own loops
//! check once at their entry and pass the checked path down to crate-private functions.

use std::fmt;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::board::MAX_COLUMNS;
use crate::rng::Rng;
use crate::stone::STONE_COUNT;
use crate::template::{Move, Template};

/// Templates per chunk (one bit each in a `u64`).
pub const CHUNK: usize = 64;

/// The most chunks a site can have: 104 orientations at up to 128 shifts, plus one
/// partly filled chunk per number of covered columns.
pub const MAX_CHUNKS: usize = (104 * MAX_COLUMNS).div_ceil(CHUNK) + 4;

/// A way of computing legal-move sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CodePath {
    /// AVX-512 F + BW + VBMI (and BMI2): `vpermb` lookups, 64 templates per instruction.
    Avx512,
    /// AVX2: `vpshufb` lookups over 16-column sub-tables, 32 templates per instruction.
    Avx2,
    /// WebAssembly SIMD (`simd128`): `i8x16.swizzle` lookups over 16-column sub-tables,
    /// 16 templates per instruction. Only in a module compiled with the feature.
    Simd128,
    /// Portable Rust, one template at a time.
    Scalar,
}

impl CodePath {
    /// Widest first.
    pub const ALL: [CodePath; 4] = [CodePath::Avx512, CodePath::Avx2, CodePath::Simd128, CodePath::Scalar];

    /// The path's name: `avx512`, `avx2` or `scalar`.
    pub fn name(self) -> &'static str {
        match self {
            CodePath::Avx512 => "avx512",
            CodePath::Avx2 => "avx2",
            CodePath::Simd128 => "simd128",
            CodePath::Scalar => "scalar",
        }
    }

    /// The path of a name (any case, surrounding spaces ignored).
    pub fn from_name(s: &str) -> Option<CodePath> {
        CodePath::ALL
            .iter()
            .copied()
            .find(|p| p.name() == s.trim().to_ascii_lowercase())
    }

    /// Whether this process may run the path: this CPU has its instructions and
    /// `RUMIS_CODE_PATH` does not name a narrower path.
    #[inline]
    pub fn is_available(self) -> bool {
        self.cpu_has() && self.index() >= ceiling()
    }

    /// Whether this CPU has the path's instructions (whatever `RUMIS_CODE_PATH` says).
    pub fn cpu_has(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx512vbmi")
                    && std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("popcnt")
            }
            // (The kernels count with POPCNT too: every CPU with AVX2 has it, but a virtual
            // machine may hide one and not the other.)
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx2 => {
                std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt")
            }
            // A compile-time feature on WebAssembly: a module built with it does not even
            // load (validate) on an engine without it, so there is nothing to detect.
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            CodePath::Simd128 => true,
            CodePath::Scalar => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// Position in [`CodePath::ALL`] (0 is the widest).
    #[inline]
    fn index(self) -> u8 {
        match self {
            CodePath::Avx512 => 0,
            CodePath::Avx2 => 1,
            CodePath::Simd128 => 2,
            CodePath::Scalar => 3,
        }
    }

    /// `Ok(self)` when [`CodePath::is_available`], else the error that says why not.
    pub fn check(self) -> Result<CodePath, CodePathUnavailable> {
        if self.is_available() {
            Ok(self)
        } else {
            Err(CodePathUnavailable { path: self })
        }
    }

    /// The paths this process can run, widest first.
    pub fn available() -> Vec<CodePath> {
        CodePath::ALL.iter().copied().filter(|p| p.is_available()).collect()
    }

    /// The widest path this CPU can run.
    pub fn best() -> CodePath {
        CodePath::ALL
            .iter()
            .copied()
            .find(|p| p.is_available())
            .unwrap_or(CodePath::Scalar)
    }

    /// The path every generation uses: the widest available (so a narrower one when
    /// `RUMIS_CODE_PATH` names it). Decided once per process.
    pub fn active() -> CodePath {
        static ACTIVE: AtomicU8 = AtomicU8::new(u8::MAX);
        let a = ACTIVE.load(Ordering::Relaxed);
        if let Some(&p) = CodePath::ALL.get(a as usize) {
            return p;
        }
        let p = CodePath::best();
        ACTIVE.store(p.index(), Ordering::Relaxed);
        p
    }
}

/// The index in [`CodePath::ALL`] of the widest path `RUMIS_CODE_PATH` allows (0 when it
/// is unset or names no path). Read once per process.
#[inline]
fn ceiling() -> u8 {
    static CEILING: AtomicU8 = AtomicU8::new(u8::MAX);
    let c = CEILING.load(Ordering::Relaxed);
    if c != u8::MAX {
        return c;
    }
    let c = std::env::var("RUMIS_CODE_PATH")
        .ok()
        .and_then(|s| CodePath::from_name(&s))
        .map_or(0, CodePath::index);
    CEILING.store(c, Ordering::Relaxed);
    c
}

/// A code path that this process cannot run was asked for; nothing was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CodePathUnavailable {
    /// The path asked for.
    pub path: CodePath,
}

impl fmt::Display for CodePathUnavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = if self.path.cpu_has() {
            "RUMIS_CODE_PATH forces a narrower one"
        } else {
            "this CPU lacks its instructions"
        };
        let can: Vec<&str> = CodePath::available().into_iter().map(CodePath::name).collect();
        write!(
            f,
            "the {} code path is not available ({why}); available: {}",
            self.path,
            can.join(", ")
        )
    }
}

impl std::error::Error for CodePathUnavailable {}

impl fmt::Display for CodePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The lookup data of one chunk: per entry (the anchor first) the column, the run's start
/// above the base (as `b << 4`, for the entries after the anchor, whose is 0) and the byte
/// mask `0xf0 | ((1 << k) - 1)` (the anchor's mask keeps only the contact bits); `zmax << 4`;
/// the stone's index (15 in padding slots); and the stones of the chunk's halves.
#[repr(C, align(64))]
#[derive(Clone)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct ChunkData {
    col: [[u8; CHUNK]; 4],
    /// The AVX2 path's second index: `col - 16` (wrapping), into its second sub-table; with
    /// windows ([`lane_windows`]), the column's place in the window of the slot's lane.
    idx2: [[u8; CHUNK]; 4],
    /// Entries 1-3 (`sub[i - 1]`).
    sub: [[u8; CHUNK]; 3],
    /// The AVX-512 path's index of entries 1-3 on a site of at most 32 columns: the column
    /// plus 32 times its `sub` offset, into four copies of the packed bytes, each lowered
    /// by one more offset (see `gen_avx512`). The subtraction then happens once a
    /// generation instead of once a chunk, and the chunk loads one row less an entry.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    fold: [[u8; CHUNK]; 3],
    /// The stones with a template in slots 0-31 and 32-63 (here rather than in
    /// [`ChunkMeta`] so that the SIMD loops walk one array).
    half_stones: [u16; 2],
    _pad: [u8; CHUNK - 4],
    mask: [[u8; CHUNK]; 4],
    lim: [u8; CHUNK],
    /// Zeros: the limit row of a colour's first stone (it rests on the board).
    zero: [u8; CHUNK],
    stone: [u8; CHUNK],
    /// The WebAssembly SIMD path's lookups without windows: per entry and quarter chunk
    /// (16 slots), the lowest column of its templates (`wbase`) and how many 16-column
    /// tables from there hold them all (`wn`, 1-8); `widx` the column minus its quarter's
    /// base. A quarter holds consecutive shifts of one stone, whose columns lie close
    /// together, so it mostly needs one or two `swizzle`s where the whole board takes up
    /// to eight. (Not in native builds: the x86 paths look up the whole board at once.)
    #[cfg(target_arch = "wasm32")]
    widx: [[u8; CHUNK]; 4],
    #[cfg(target_arch = "wasm32")]
    wbase: [[u8; CHUNK / 16]; 4],
    #[cfg(target_arch = "wasm32")]
    wn: [[u8; CHUNK / 16]; 4],
    /// The same lookups in at most two windows of 16 columns: per entry and quarter, the
    /// fewest windows that hold its columns, each starting at a used column (`wpair`), and
    /// per slot the column's place in the first (`wfirst`) and the second (`wsecond`)
    /// window, or 0x80 where it is not in it. Every index then lies in 0..16 or from 128
    /// on, so each window is one `lut` (one `pshufb` with relaxed SIMD) with no index
    /// arithmetic and no loop: Coricancha's quarters mostly need two windows where the
    /// tables from the base take 2.6 on average. A quarter with an entry that needs three
    /// or more (`wide`, rare) keeps the based lookups.
    #[cfg(target_arch = "wasm32")]
    wfirst: [[u8; CHUNK]; 4],
    #[cfg(target_arch = "wasm32")]
    wsecond: [[u8; CHUNK]; 4],
    #[cfg(target_arch = "wasm32")]
    wpair: [[[u8; 2]; CHUNK / 16]; 4],
    #[cfg(target_arch = "wasm32")]
    wide: [bool; CHUNK / 16],
    /// The WebAssembly SIMD path's quarters (16 slots): the stones with a template in each.
    #[cfg(target_arch = "wasm32")]
    quarter_stones: [u16; CHUNK / 16],
}

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
impl ChunkData {
    /// The byte offset of the limit row to use.
    fn lim_row(first: bool) -> usize {
        if first {
            std::mem::offset_of!(ChunkData, zero)
        } else {
            std::mem::offset_of!(ChunkData, lim)
        }
    }
}

#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct ChunkMeta {
    /// Number of entries to look up (1-4).
    len: u8,
    /// The stones with a template in the chunk.
    stones: u16,
    /// Per stone: the chunk's slots holding its templates.
    slots: [u64; STONE_COUNT],
}

impl ChunkMeta {
    /// The slots of the live stones.
    #[inline(always)]
    fn valid(&self, live: u16) -> u64 {
        let mut v = 0;
        let mut l = live;
        while l != 0 {
            v |= self.slots[l.trailing_zeros() as usize];
            l &= l - 1;
        }
        v
    }
}

/// A site's templates laid out for the generator: chunks of 64 slots, ordered by number
/// of covered columns then by stone then by template id.
///
/// Its public face is the *slot layout* and nothing else, for programs (such as a search's
/// playout policy) that build their own bit masks over a [`MoveSet`]: the set's
/// [`MoveSet::words`] has [`GenTables::chunk_count`] words, bit `s` of word `j` stands for
/// slot `64 j + s`, and [`GenTables::slot_template`] / [`GenTables::template_slot`] map
/// slots and moves both ways (some slots are padding). The kernels' tables stay private,
/// so the layout inside a chunk may change between versions; only this mapping is
/// promised.
#[derive(Clone)]
pub struct GenTables {
    /// The chunks whose templates cover `l + 1` columns: `by_len[l]..by_len[l + 1]` (the
    /// SIMD paths' loops; the scalar one reads each chunk's `len`).
    #[cfg_attr(
        not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))),
        allow(dead_code)
    )]
    by_len: [usize; 5],
    chunks: Vec<ChunkData>,
    meta: Vec<ChunkMeta>,
    slot_to_id: Vec<u16>,
    /// Per slot, what placing its template puts where ([`Placing`]; empty in padding).
    placing: Vec<Placing>,
    /// The AVX2 path's pick selects with `pdep` (`x86::fast_pdep`; only where the CPU has
    /// BMI2).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fast_pdep: bool,
    id_to_slot: Vec<u16>,
    columns: usize,
    /// With 17-32 columns where every template lies in one of two windows of 16 columns
    /// (see [`lane_windows`]): the AVX2 path's gathers of the windows from its two tables
    /// of 16 columns (lane 0: the first window, lane 1: the second).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    gather: Option<[[u8; 32]; 2]>,
    /// The WebAssembly SIMD path's lookups without lane windows use two windows per
    /// quarter (see where it is set in `new`).
    #[cfg(target_arch = "wasm32")]
    #[cfg_attr(not(target_feature = "simd128"), allow(dead_code))]
    pairs: bool,
}

impl GenTables {
    /// The bytes its tables hold on the heap (their capacity).
    pub(crate) fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.chunks.capacity() * size_of::<ChunkData>()
            + self.meta.capacity() * size_of::<ChunkMeta>()
            + self.slot_to_id.capacity() * size_of::<u16>()
            + self.placing.capacity() * size_of::<Placing>()
            + self.id_to_slot.capacity() * size_of::<u16>()
    }
}

/// Two windows of at most 16 columns such that every template's columns lie in one of
/// them, for boards of 17-32 columns: the first and the last 16 of the columns that
/// templates use, taken rank by rank or file by file (on Chullpa, 5 files by 4 ranks,
/// files a-d and b-e: no stone is more than 4 cubes long). The AVX2 kernel then looks a
/// column up with one `vpshufb` instead of two (its 128-bit lanes hold the two windows).
fn lane_windows(templates: &[Template], columns: usize, files: usize) -> Option<[Vec<u8>; 2]> {
    if !(17..=32).contains(&columns) || files == 0 {
        return None;
    }
    let mut used = [false; 32];
    for t in templates {
        for &c in &t.columns[..t.len as usize] {
            used[c as usize] = true;
        }
    }
    let used: Vec<u8> = (0..columns as u8).filter(|&c| used[c as usize]).collect();
    let n = used.len().min(16);
    for by_file in [false, true] {
        let mut u = used.clone();
        if by_file {
            u.sort_by_key(|&c| (c as usize % files, c as usize / files));
        }
        let w = [u[..n].to_vec(), u[u.len() - n..].to_vec()];
        let fit = |t: &Template| {
            w.iter()
                .any(|w| t.columns[..t.len as usize].iter().all(|c| w.contains(c)))
        };
        if templates.iter().all(fit) {
            return Some(w);
        }
    }
    None
}

impl fmt::Debug for GenTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "GenTables {{ chunks: {}, templates: {}, columns: {} }}",
            self.chunks.len(),
            self.id_to_slot.len(),
            self.columns
        )
    }
}

/// What placing a slot's template puts where, in 8 bytes, in slot order: the covered
/// columns, their counts of cubes (0 past `len`) in the low nibbles of `count`, the stone
/// in the high nibble of `count[0]` and `len` in that of `count[1]`. A playout's pick gives
/// a slot; its placement reads this one record, where the template id and then the
/// template were two dependent loads on the chain from one ply to the next (from tables
/// the kernel's stream of chunks pushes out of L1: 22 kB of templates on Chullpa against
/// 10.5 kB of these).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(8))]
pub(crate) struct Placing {
    pub columns: [u8; 4],
    count: [u8; 4],
}

impl Placing {
    fn of(t: &Template) -> Placing {
        let mut count = t.count.map(|k| k & 15);
        count[0] |= (t.stone.index() as u8) << 4;
        count[1] |= (t.len & 15) << 4;
        Placing {
            columns: t.columns,
            count,
        }
    }

    /// The number of cubes in column entry `i` (0 past `len`).
    #[inline(always)]
    pub fn count(&self, i: usize) -> u8 {
        self.count[i & 3] & 15
    }

    /// The stone's index.
    #[inline(always)]
    pub fn stone(&self) -> usize {
        (self.count[0] >> 4) as usize
    }

    /// The number of covered columns (0 in padding).
    #[inline(always)]
    pub fn len(&self) -> u8 {
        self.count[1] >> 4
    }
}

/// No template: padding slots.
const NONE: u16 = u16::MAX;
/// The stone index of padding slots (never live).
const PAD_STONE: u8 = 15;

impl GenTables {
    /// `files`: the board's width, to find the AVX2 windows (columns are `x + files * y`).
    pub(crate) fn new(templates: &[Template], columns: usize, files: usize) -> GenTables {
        assert!(columns <= MAX_COLUMNS, "a site has at most {MAX_COLUMNS} columns");
        let windows = lane_windows(templates, columns, files);
        // Where each template may go: bit w set when its columns lie in window w.
        let fits = |t: &Template| -> u8 {
            match &windows {
                None => 3,
                Some(w) => (0..2)
                    .filter(|&i| t.columns[..t.len as usize].iter().all(|c| w[i].contains(c)))
                    .fold(0, |a, i| a | 1 << i),
            }
        };
        let mut order: Vec<u16> = (0..templates.len() as u16).collect();
        order.sort_by_key(|&id| {
            let t = &templates[id as usize];
            (t.len, t.stone.index(), id)
        });
        // The slots: per number of columns, whole chunks. With windows, runs of 16 slots
        // (the 128-bit lanes of the AVX2 kernel) alternate between the two windows: the
        // templates are dealt, in order, to the window they lie in, or if they lie in both
        // to the one that has fewer so far, and each window's list fills its lanes.
        let mut layout: Vec<u16> = Vec::new();
        let mut i = 0;
        while i < order.len() {
            let len = templates[order[i] as usize].len;
            let end = i + order[i..]
                .iter()
                .take_while(|&&id| templates[id as usize].len == len)
                .count();
            let mut lists: [Vec<u16>; 2] = [Vec::new(), Vec::new()];
            for &id in &order[i..end] {
                let w = match fits(&templates[id as usize]) {
                    1 => 0,
                    2 => 1,
                    // Without windows: one list, in order.
                    _ if windows.is_none() => 0,
                    _ => (lists[1].len() < lists[0].len()) as usize,
                };
                lists[w].push(id);
            }
            if windows.is_none() {
                layout.extend_from_slice(&lists[0]);
                layout.resize(layout.len().next_multiple_of(CHUNK), NONE);
            } else {
                let lanes = lists[0].len().max(lists[1].len()).div_ceil(CHUNK / 2) * (CHUNK / 16);
                for lane in 0..lanes {
                    let list = &lists[lane % 2];
                    let at = lane / 2 * 16;
                    for p in at..at + 16 {
                        layout.push(list.get(p).copied().unwrap_or(NONE));
                    }
                }
            }
            i = end;
        }
        let mut chunks: Vec<ChunkData> = Vec::new();
        let mut meta: Vec<ChunkMeta> = Vec::new();
        // The WebAssembly SIMD path's table lookups per generation (every quarter computed):
        // from each quarter's base column, and in at most two windows.
        #[cfg(target_arch = "wasm32")]
        #[derive(Default)]
        struct Lookups {
            based: usize,
            pairs: usize,
        }
        #[cfg(target_arch = "wasm32")]
        let mut lookups = Lookups::default();
        let mut id_to_slot = vec![NONE; templates.len()];
        for (j, ids) in layout.chunks(CHUNK).enumerate() {
            let mut cd = ChunkData {
                col: [[0; CHUNK]; 4],
                idx2: [[0; CHUNK]; 4],
                sub: [[0; CHUNK]; 3],
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                fold: [[0; CHUNK]; 3],
                half_stones: [0; 2],
                _pad: [0; CHUNK - 4],
                mask: [[0; CHUNK]; 4],
                lim: [0; CHUNK],
                zero: [0; CHUNK],
                stone: [PAD_STONE; CHUNK],
                #[cfg(target_arch = "wasm32")]
                widx: [[0; CHUNK]; 4],
                #[cfg(target_arch = "wasm32")]
                wbase: [[0; CHUNK / 16]; 4],
                #[cfg(target_arch = "wasm32")]
                wn: [[1; CHUNK / 16]; 4],
                #[cfg(target_arch = "wasm32")]
                wfirst: [[0x80; CHUNK]; 4],
                #[cfg(target_arch = "wasm32")]
                wsecond: [[0x80; CHUNK]; 4],
                #[cfg(target_arch = "wasm32")]
                wpair: [[[0; 2]; CHUNK / 16]; 4],
                #[cfg(target_arch = "wasm32")]
                wide: [false; CHUNK / 16],
                #[cfg(target_arch = "wasm32")]
                quarter_stones: [0; CHUNK / 16],
            };
            let mut m = ChunkMeta {
                len: 0,
                stones: 0,
                slots: [0; STONE_COUNT],
            };
            for (s, &id) in ids.iter().enumerate() {
                if id == NONE {
                    continue;
                }
                let t = &templates[id as usize];
                m.len = t.len;
                // Entry 0 is the anchor; the others follow in template order.
                let entries =
                    std::iter::once(t.anchor as usize).chain((0..t.len as usize).filter(|&e| e != t.anchor as usize));
                for (k, e) in entries.enumerate() {
                    let kmask = (1u8 << t.count[e]) - 1;
                    let c = t.columns[e];
                    cd.col[k][s] = c;
                    cd.idx2[k][s] = match &windows {
                        Some(w) => w[s / 16 % 2].iter().position(|&x| x == c).expect("the lane's window") as u8,
                        None => c.wrapping_sub(16),
                    };
                    if k > 0 {
                        cd.sub[k - 1][s] = t.base[e] << 4;
                        // Only read on sites of at most 32 columns, whose bases are 0-3.
                        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                        {
                            cd.fold[k - 1][s] = c.wrapping_add(t.base[e].wrapping_mul(32));
                        }
                    }
                    cd.mask[k][s] = if k == 0 { kmask } else { 0xf0 | kmask };
                }
                cd.lim[s] = t.zmax << 4;
                cd.stone[s] = t.stone.index() as u8;
                m.stones |= 1 << t.stone.index();
                cd.half_stones[s / 32] |= 1 << t.stone.index();
                #[cfg(target_arch = "wasm32")]
                {
                    cd.quarter_stones[s / 16] |= 1 << t.stone.index();
                }
                m.slots[t.stone.index()] |= 1 << s;
                id_to_slot[id as usize] = (j * CHUNK + s) as u16;
            }
            #[cfg(target_arch = "wasm32")]
            for k in 0..m.len as usize {
                for (q, quarter) in ids.chunks(16).enumerate() {
                    let cols = || (0..16).filter(|&p| quarter[p] != NONE).map(|p| cd.col[k][16 * q + p]);
                    let (Some(lo), Some(hi)) = (cols().min(), cols().max()) else {
                        continue;
                    };
                    cd.wbase[k][q] = lo;
                    cd.wn[k][q] = (hi - lo) / 16 + 1;
                    for (p, &id) in quarter.iter().enumerate() {
                        if id != NONE {
                            cd.widx[k][16 * q + p] = cd.col[k][16 * q + p] - lo;
                        }
                    }
                    // The fewest windows of 16 that hold the columns: each starts at the
                    // lowest column the windows before it leave out.
                    let mut starts: Vec<u8> = Vec::new();
                    let mut sorted: Vec<u8> = cols().collect();
                    sorted.sort_unstable();
                    for c in sorted {
                        if starts.last().is_none_or(|&s| c >= s + 16) {
                            starts.push(c);
                        }
                    }
                    if starts.len() > 2 {
                        cd.wide[q] = true;
                        continue;
                    }
                    let second = starts.get(1).copied().unwrap_or(starts[0]);
                    cd.wpair[k][q] = [starts[0], second];
                    for (p, &id) in quarter.iter().enumerate() {
                        if id != NONE {
                            let c = cd.col[k][16 * q + p];
                            if c < starts[0] + 16 {
                                cd.wfirst[k][16 * q + p] = c - starts[0];
                            } else {
                                cd.wsecond[k][16 * q + p] = c - second;
                            }
                        }
                    }
                }
            }
            #[cfg(target_arch = "wasm32")]
            for (q, quarter) in ids.chunks(16).enumerate() {
                if quarter.iter().any(|&id| id != NONE) {
                    let based: usize = (0..m.len as usize).map(|k| cd.wn[k][q] as usize).sum();
                    lookups.based += based;
                    lookups.pairs += if cd.wide[q] { based } else { 2 * m.len as usize };
                }
            }
            chunks.push(cd);
            meta.push(m);
        }
        assert!(chunks.len() <= MAX_CHUNKS);
        // The WebAssembly SIMD path looks up in two windows (`ChunkData::wpair`) where
        // that takes fewer lookups than the tables from the base column and few quarters
        // need more windows (`wide`, which keep the based lookups): in V8 the two kinds
        // mixed in one loop cost more than the windows saved where one quarter in four or
        // more is wide (Pirka, Tambo, Cucho), and where the windows take as many lookups
        // (Pisac) they cost a little more (Node, random playouts: Coricancha 0.89 of the
        // time, Pisac 1.03).
        #[cfg(target_arch = "wasm32")]
        let pairs = {
            let wide = chunks
                .iter()
                .map(|c| c.wide.iter().filter(|&&w| w).count())
                .sum::<usize>();
            wide * 10 <= chunks.len() * 4 && lookups.pairs < lookups.based
        };
        let by_len = std::array::from_fn(|l| meta.iter().filter(|m| (m.len as usize) <= l).count());
        // The gathers that build the two windows from the tables of columns 0-15 and
        // 16-31 (index 0x80: nothing).
        let gather = windows.map(|w| {
            let mut g = [[0x80u8; 32]; 2];
            for (lane, win) in w.iter().enumerate() {
                for (p, &c) in win.iter().enumerate() {
                    g[(c / 16) as usize][16 * lane + p] = c % 16;
                }
            }
            g
        });
        GenTables {
            by_len,
            chunks,
            meta,
            placing: layout
                .iter()
                .map(|&id| templates.get(id as usize).map(Placing::of).unwrap_or_default())
                .collect(),
            slot_to_id: layout,
            #[cfg(target_arch = "x86_64")]
            fast_pdep: x86::fast_pdep(),
            #[cfg(not(target_arch = "x86_64"))]
            fast_pdep: false,
            id_to_slot,
            columns,
            gather,
            #[cfg(target_arch = "wasm32")]
            pairs,
        }
    }

    /// Whether every template lies in one of two windows of 16 columns, which the AVX2 path
    /// then looks up with one `vpshufb` per column (`lane_windows`; boards of 17-32
    /// columns such as Chullpa).
    pub fn has_windows(&self) -> bool {
        self.gather.is_some()
    }

    /// Number of chunks of 64 slots: the length of [`MoveSet::words`] for this site.
    #[inline]
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// The move in a slot, if the slot is not padding.
    #[inline]
    pub fn slot_template(&self, slot: usize) -> Option<Move> {
        self.slot_to_id.get(slot).copied().filter(|&id| id != NONE).map(Move)
    }

    /// What placing the template of a slot puts where (an empty record for padding).
    #[inline(always)]
    pub(crate) fn placing(&self, slot: usize) -> Placing {
        self.placing.get(slot).copied().unwrap_or_default()
    }

    /// The slot of a move.
    #[inline]
    pub fn template_slot(&self, m: Move) -> usize {
        self.id_to_slot[m.0 as usize] as usize
    }

    /// A uniformly random move among the set bits of `words`, a bit mask over the slots
    /// as in [`GenTables::nth_in_words`]: `None`, drawing nothing from `rng`, when there is
    /// none. (Counting with POPCNT where the CPU has it: a program built for any x86-64
    /// counts bits with a dozen instructions otherwise.)
    #[inline]
    pub fn pick_in_words(&self, words: &[u64], rng: &mut Rng) -> Option<Move> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has POPCNT, the one feature the function enables.
            return unsafe { x86::pick_in_words_popcnt(self, words, rng) };
        }
        pick_in_words(self, words, rng)
    }

    /// The `i`-th move, in slot order, of a bit mask over the slots (bit `s` of word `j`
    /// is slot `64 j + s`), such as a [`MoveSet`]'s words masked by a program's own
    /// selection: `None` when the mask has `i` or fewer bits, or the bit is a padding slot.
    /// (With POPCNT where the CPU has it, as [`GenTables::pick_in_words`], and the bit
    /// selected by `pdep` where it is fast, as the AVX2 path's pick: 1.5 % of level 9's
    /// search on Zen 3, whose informed playouts draw four times a ply.)
    #[inline]
    pub fn nth_in_words(&self, words: &[u64], i: usize) -> Option<Move> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            if self.fast_pdep {
                // SAFETY: the CPU has POPCNT, and BMI2 where `fast_pdep` is set
                // (`x86::fast_pdep`): the two features the function enables.
                return unsafe { x86::nth_in_words_bmi2(self, words, i) };
            }
            // SAFETY: the CPU has POPCNT, the one feature the function enables.
            return unsafe { x86::nth_in_words_popcnt(self, words, i) };
        }
        nth_in_words(self, words, i)
    }

    /// Writes `words & mask` to `out` (word by word, as far as the shortest goes) and
    /// returns its number of set bits: a program's own selection of a set's placements,
    /// to draw from with [`GenTables::nth_in_words`] (with POPCNT where the CPU has it).
    #[inline]
    pub fn mask_words(&self, words: &[u64], mask: &[u64], out: &mut [u64]) -> usize {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has POPCNT, the one feature the function enables.
            return unsafe { x86::mask_words_popcnt(words, mask, out) };
        }
        mask_words(words, mask, out)
    }
}

/// [`GenTables::pick_in_words`], compiled for the caller's target features.
#[inline(always)]
fn pick_in_words(t: &GenTables, words: &[u64], rng: &mut Rng) -> Option<Move> {
    let count: usize = words.iter().map(|w| w.count_ones() as usize).sum();
    if count == 0 {
        return None;
    }
    nth_in_words(t, words, rng.below(count))
}

/// [`GenTables::nth_in_words`], compiled for the caller's target features.
#[inline(always)]
fn nth_in_words(t: &GenTables, words: &[u64], i: usize) -> Option<Move> {
    let (j, k) = word_and_rank(words, i)?;
    t.slot_template(j * CHUNK + select(words[j], k) as usize)
}

/// [`GenTables::mask_words`], compiled for the caller's target features.
#[inline(always)]
fn mask_words(words: &[u64], mask: &[u64], out: &mut [u64]) -> usize {
    let mut count = 0;
    for ((o, w), m) in out.iter_mut().zip(words).zip(mask) {
        *o = w & m;
        count += o.count_ones() as usize;
    }
    count
}

/// The word of `words` holding their `i`-th set bit and the bit's rank in it, found by the
/// words' popcounts in order; `None` when there are `i` or fewer set bits. (The generator
/// stores only the words, one per chunk: a count per chunk beside them, for a binary
/// search here, cost more in stores than the search saved: issue #20.)
#[inline(always)]
fn word_and_rank(words: &[u64], i: usize) -> Option<(usize, u32)> {
    let mut k = i;
    for (j, w) in words.iter().enumerate() {
        let c = w.count_ones() as usize;
        if k < c {
            return Some((j, k as u32));
        }
        k -= c;
    }
    None
}

/// A set of placements of one site: a bitset over the site's generator slots
/// ([`GenTables`]), so membership, counting and a uniform pick cost a few instructions.
/// Iteration yields template ids in slot order; [`MoveSet::to_moves`] sorts them by id.
#[derive(Clone)]
pub struct MoveSet {
    words: [u64; MAX_CHUNKS],
    /// Words in use (the site's chunk count).
    n: usize,
}

impl Default for MoveSet {
    fn default() -> Self {
        MoveSet::new()
    }
}

impl fmt::Debug for MoveSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MoveSet {{ len: {} }}", self.len())
    }
}

impl PartialEq for MoveSet {
    fn eq(&self, other: &Self) -> bool {
        let n = self.n.max(other.n);
        self.words[..n] == other.words[..n]
    }
}

impl Eq for MoveSet {}

impl MoveSet {
    /// An empty set.
    pub fn new() -> MoveSet {
        MoveSet {
            words: [0; MAX_CHUNKS],
            n: 0,
        }
    }

    /// Empties the set.
    pub fn clear(&mut self) {
        self.words[..self.n].fill(0);
        self.n = 0;
    }

    /// The words in use: bit `s` of word `j` is slot `64 j + s`.
    pub fn words(&self) -> &[u64] {
        &self.words[..self.n]
    }

    /// The number of placements in the set.
    pub fn len(&self) -> usize {
        self.words().iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set has no placement.
    pub fn is_empty(&self) -> bool {
        self.words().iter().all(|&w| w == 0)
    }

    /// Whether the set holds the placement `m` (of the site whose tables these are).
    pub fn contains(&self, tables: &GenTables, m: Move) -> bool {
        let s = tables.template_slot(m);
        self.words[s / CHUNK] >> (s % CHUNK) & 1 == 1
    }

    /// The slots in the set, in order.
    pub fn slots(&self) -> impl Iterator<Item = usize> + '_ {
        self.words().iter().enumerate().flat_map(|(j, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let s = w.trailing_zeros() as usize;
                    w &= w - 1;
                    j * CHUNK + s
                })
            })
        })
    }

    /// The placements, in slot order.
    pub fn iter<'a>(&'a self, tables: &'a GenTables) -> impl Iterator<Item = Move> + 'a {
        self.slots().map(|s| Move(tables.slot_to_id[s]))
    }

    /// The placements sorted by template id.
    pub fn to_moves(&self, tables: &GenTables, out: &mut Vec<Move>) {
        out.clear();
        let mut ids = [0u64; MAX_CHUNKS];
        for s in self.slots() {
            let id = tables.slot_to_id[s] as usize;
            ids[id / 64] |= 1 << (id % 64);
        }
        for (j, &w) in ids.iter().enumerate().take(tables.id_to_slot.len().div_ceil(64)) {
            let mut w = w;
            while w != 0 {
                out.push(Move((j * 64 + w.trailing_zeros() as usize) as u16));
                w &= w - 1;
            }
        }
    }

    /// The `i`-th placement in slot order (`None` unless `i < len()`).
    #[inline(always)]
    pub fn nth(&self, tables: &GenTables, i: usize) -> Option<Move> {
        self.nth_on(tables, i, CodePath::Scalar)
    }

    /// [`MoveSet::nth`], selecting the bit with BMI2 `pdep` on the AVX-512 path (whose
    /// CPUs all have a fast one); `path` must be available.
    #[inline(always)]
    pub(crate) fn nth_on(&self, tables: &GenTables, i: usize, path: CodePath) -> Option<Move> {
        if i >= self.len() {
            return None;
        }
        Some(self.nth_in(tables, i, path))
    }

    /// [`MoveSet::nth_on`] for `i < len()`.
    #[inline(always)]
    fn nth_in(&self, tables: &GenTables, i: usize, path: CodePath) -> Move {
        Move(tables.slot_to_id[self.nth_slot(tables, i, path)])
    }

    /// The slot of the `i`-th placement in slot order, `i < len()`.
    #[inline(always)]
    fn nth_slot(&self, tables: &GenTables, i: usize, path: CodePath) -> usize {
        // The word that holds the placement: the first whose running count passes i,
        // found by popcounts of the words in order. The generator stores only the words,
        // one per chunk (a count per chunk beside them, for a binary search here, cost
        // more in stores than the search saved: issue #20).
        let (mut j, mut k) = (0, i);
        loop {
            // i < len(), the sum of the popcounts of the words in use: the loop stops at
            // a word in use.
            let c = self.words[j].count_ones() as usize;
            if k < c {
                break;
            }
            k -= c;
            j += 1;
        }
        let (w, k) = (self.words[j], k as u32);
        // (Only the x86 paths read `tables`: its `fast_pdep`.)
        #[cfg(not(target_arch = "x86_64"))]
        let _ = tables;
        let bit = match path {
            // SAFETY: the AVX-512 path is only used where it is available, which includes
            // BMI2; k < popcount(w) < 64.
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx512 => unsafe { x86::select_pdep(w, k) },
            // SAFETY: `fast_pdep` is set only where the CPU has BMI2.
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx2 if tables.fast_pdep => unsafe { x86::select_pdep(w, k) },
            _ => select(w, k),
        };
        j * CHUNK + bit as usize
    }

    /// A uniformly random placement, given the set's size.
    #[inline(always)]
    pub fn pick(&self, tables: &GenTables, len: usize, rng: &mut Rng) -> Option<Move> {
        self.pick_on(tables, len, rng, CodePath::Scalar)
    }

    /// [`MoveSet::pick`] with [`MoveSet::nth_on`].
    #[inline(always)]
    pub(crate) fn pick_on(&self, tables: &GenTables, len: usize, rng: &mut Rng, path: CodePath) -> Option<Move> {
        if len == 0 {
            return None;
        }
        Some(self.nth_in(tables, rng.below(len), path))
    }

    /// [`MoveSet::pick_on`], giving the slot of the placement (its template is
    /// `slot_template`): what a playout places next, by [`GenTables::placing`].
    #[inline(always)]
    pub(crate) fn pick_slot_on(&self, tables: &GenTables, len: usize, rng: &mut Rng, path: CodePath) -> Option<usize> {
        if len == 0 {
            return None;
        }
        Some(self.nth_slot(tables, rng.below(len), path))
    }
}

/// The position of the `i`-th set bit of `w` (`i < popcount(w)`).
#[inline(always)]
fn select(w: u64, i: u32) -> u32 {
    // Halve the window three times, without branches (keep the low part when the bit is
    // in it, else drop it and count its bits off), then look the byte up.
    let mut w = w;
    let mut i = i;
    let mut base = 0;
    for half in [32u32, 16, 8] {
        let low = (w & ((1u64 << half) - 1)).count_ones();
        let up = 0u32.wrapping_sub((i >= low) as u32);
        i -= low & up;
        w >>= half & up;
        base += half & up;
    }
    base + SELECT_IN_BYTE[(w & 0xff) as usize][(i & 7) as usize] as u32
}

/// `SELECT_IN_BYTE[b][i]`: the position of the `i`-th set bit of `b` (0 past the last).
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        let mut bit = 0;
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b][i] = bit as u8;
                i += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// What the generator needs from a position for one colour.
#[derive(Clone, Copy)]
pub(crate) struct GenInput<'a> {
    pub heights: &'a [u8; MAX_COLUMNS],
    /// The contact masks to touch.
    pub touch: Touch<'a>,
    /// The colour's stones left.
    pub left: u16,
    /// The first stone of a later colour: rest on the board.
    pub first: bool,
}

/// Which cubes a placement must touch.
#[derive(Clone, Copy)]
pub(crate) enum Touch<'a> {
    /// Nothing: every placement touches (the first stone of the game).
    Nothing,
    /// The cubes of one kind: its contact mask per column.
    One(&'a [u16; MAX_COLUMNS]),
    /// Any cube: the contact masks of every kind, to be ORed.
    Any(&'a [[u16; MAX_COLUMNS]]),
}

/// The per-column bytes `h << 4 | window`, for the first `n` columns (the rest stay 0).
#[inline(always)]
fn pack(input: &GenInput, n: usize, out: &mut [u8; MAX_COLUMNS]) {
    let n = n.min(MAX_COLUMNS);
    match input.touch {
        Touch::One(touch) => {
            for ((o, &h), &t) in out[..n].iter_mut().zip(&input.heights[..n]).zip(&touch[..n]) {
                *o = (h << 4) | ((t >> (h & 15)) & 15) as u8;
            }
        }
        Touch::Any(kinds) => {
            let mut any = [0u16; MAX_COLUMNS];
            for kind in kinds {
                for (a, &t) in any[..n].iter_mut().zip(&kind[..n]) {
                    *a |= t;
                }
            }
            for ((o, &h), &t) in out[..n].iter_mut().zip(&input.heights[..n]).zip(&any[..n]) {
                *o = (h << 4) | ((t >> (h & 15)) & 15) as u8;
            }
        }
        Touch::Nothing => {
            for (o, &h) in out[..n].iter_mut().zip(&input.heights[..n]) {
                *o = (h << 4) | 15;
            }
        }
    }
}

/// Kernel modes.
const SET: u8 = 0;
const COUNT: u8 = 1;
const ANY: u8 = 2;

/// Where a kernel writes: per chunk its word (empty for `ANY` and `COUNT`).
pub(crate) struct Out<'a> {
    words: &'a mut [u64],
}

/// Fills `out` with the legal placements on `path` (which must be available); returns
/// their number.
#[inline]
pub(crate) fn generate(tables: &GenTables, input: &GenInput, path: CodePath, out: &mut MoveSet) -> usize {
    let n = tables.chunks.len();
    out.n = n;
    let o = Out {
        words: &mut out.words[..n],
    };
    match path {
        // SAFETY: `path` is available on this CPU: `generate` is crate-private, and every
        // public way in (`Position::legal_set_with`, `perft_with`, `random_playout_with`,
        // `play_generate_with`, …) checks `CodePath::is_available` or uses
        // `CodePath::active`, which only yields available paths. The x86 functions read
        // `tables` and `input` within their bounds (chunks of `CHUNK` bytes, padded tables).
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx512 => unsafe { x86::gen_avx512::<SET>(tables, input, o) as usize },
        // SAFETY: as above, `path` (AVX2) is available on this CPU.
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx2 => unsafe { x86::gen_avx2::<SET>(tables, input, o) as usize },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        CodePath::Simd128 => wasm::gen_simd128::<SET>(tables, input, o) as usize,
        _ => gen_scalar::<SET>(tables, input, o) as usize,
    }
}

/// Whether there is a legal placement.
pub(crate) fn any(tables: &GenTables, input: &GenInput, path: CodePath) -> bool {
    let o = Out { words: &mut [] };
    match path {
        // SAFETY: as in `generate`: `path` is available (crate-private, every public way
        // in checks it).
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx512 => unsafe { x86::gen_avx512::<ANY>(tables, input, o) != 0 },
        // SAFETY: as above, `path` (AVX2) is available on this CPU.
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx2 => unsafe { x86::gen_avx2::<ANY>(tables, input, o) != 0 },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        CodePath::Simd128 => wasm::gen_simd128::<ANY>(tables, input, o) != 0,
        _ => gen_scalar::<ANY>(tables, input, o) != 0,
    }
}

/// The number of legal placements, without writing them.
#[inline]
pub(crate) fn count(tables: &GenTables, input: &GenInput, path: CodePath) -> usize {
    let o = Out { words: &mut [] };
    match path {
        // SAFETY: as in `generate`: `path` is available (crate-private, every public way
        // in checks it).
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx512 => unsafe { x86::gen_avx512::<COUNT>(tables, input, o) as usize },
        // SAFETY: as above, `path` (AVX2) is available on this CPU.
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx2 => unsafe { x86::gen_avx2::<COUNT>(tables, input, o) as usize },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        CodePath::Simd128 => wasm::gen_simd128::<COUNT>(tables, input, o) as usize,
        _ => gen_scalar::<COUNT>(tables, input, o) as usize,
    }
}

/// The portable path. `SET`: writes every chunk's word and count before it, and returns
/// the number of placements; `COUNT`: only returns it; `ANY`: returns 1 at the first
/// legal placement, else 0.
fn gen_scalar<const MODE: u8>(t: &GenTables, input: &GenInput, out: Out) -> u32 {
    let mut packed = [0u8; MAX_COLUMNS];
    pack(input, t.columns, &mut packed);
    let mut total = 0;
    for (j, (cd, m)) in t.chunks.iter().zip(&t.meta).enumerate() {
        let live = m.stones & input.left;
        let bits = if live == 0 {
            0
        } else {
            let valid = m.valid(live);
            match m.len {
                1 => chunk_scalar::<1>(cd, &packed, valid, input.first),
                2 => chunk_scalar::<2>(cd, &packed, valid, input.first),
                3 => chunk_scalar::<3>(cd, &packed, valid, input.first),
                _ => chunk_scalar::<4>(cd, &packed, valid, input.first),
            }
        };
        if MODE == ANY {
            if bits != 0 {
                return 1;
            }
        } else {
            if MODE == SET {
                out.words[j] = bits;
            }
            total += bits.count_ones();
        }
    }
    total
}

#[inline(always)]
fn chunk_scalar<const L: usize>(cd: &ChunkData, packed: &[u8; MAX_COLUMNS], valid: u64, first: bool) -> u64 {
    let mut bits = 0;
    let mut v = valid;
    while v != 0 {
        let s = v.trailing_zeros() as usize & (CHUNK - 1);
        v &= v - 1;
        let v0 = packed[cd.col[0][s] as usize & (MAX_COLUMNS - 1)];
        let z = v0 & 0xf0;
        let lim = if first { 0 } else { cd.lim[s] };
        let mut r = (v0 & cd.mask[0][s]) | z.saturating_sub(lim);
        for i in 1..L {
            let vi = packed[cd.col[i][s] as usize & (MAX_COLUMNS - 1)];
            r |= vi.wrapping_sub(z.wrapping_add(cd.sub[i - 1][s])) & cd.mask[i][s];
        }
        bits |= ((r.wrapping_sub(1) < 15) as u64) << s;
    }
    bits
}

/// The WebAssembly SIMD path: the AVX2 kernel's lookups with `i8x16.swizzle`, a quarter
/// chunk (16 slots) per instruction. Compiled only into modules built with `simd128`
/// (`RUSTFLAGS="-C target-feature=+simd128"`), where every engine that loads the module
/// has the instructions, so these functions are safe to call.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm {
    use super::*;
    use core::arch::wasm32::*;

    /// Slots `16 q..16 q + 16` of a row (`q` is masked to 0-3).
    #[inline(always)]
    fn quarter(p: &[u8; CHUNK], q: usize) -> v128 {
        // SAFETY: (q & 3) * 16 + 16 <= CHUNK: 16 readable bytes.
        unsafe { v128_load(p.as_ptr().add((q & 3) * 16).cast()) }
    }

    /// A table lookup whose indices all lie in 0..16 or 128..256. In a module built with
    /// relaxed SIMD (`+relaxed-simd`), `i8x16.relaxed_swizzle`: for such indices every
    /// engine gives `swizzle`'s answer (the lane, or 0 from 128 on; only 16..128 may differ
    /// between engines), and on x86 it is one `pshufb` where `swizzle` costs V8 two (it
    /// first saturates the indices from 16 up into `pshufb`'s zeroing range). Chullpa's
    /// random playouts in Chromium: 1.10× as fast.
    #[cfg(target_feature = "relaxed-simd")]
    #[inline(always)]
    fn lut(table: v128, idx: v128) -> v128 {
        i8x16_relaxed_swizzle(table, idx)
    }

    /// [`lut`] in a module without relaxed SIMD.
    #[cfg(not(target_feature = "relaxed-simd"))]
    #[inline(always)]
    fn lut(table: v128, idx: v128) -> v128 {
        i8x16_swizzle(table, idx)
    }

    /// Per stone index (0-15): 0x70 if the stone is live, else 0x7f (the AVX2 path's
    /// `threshold_table`).
    #[inline(always)]
    fn threshold_table(left: u16) -> v128 {
        // Byte i: byte i / 8 of `left`, then its bit i % 8.
        let spread = lut(u16x8_splat(left), i8x16(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1));
        let bit = u64x2_splat(0x8040_2010_0804_0201);
        let live = i8x16_eq(v128_and(spread, bit), bit);
        v128_bitselect(u8x16_splat(0x70), u8x16_splat(0x7f), live)
    }

    /// [`super::pack`] with the windows of sixteen columns at once, where the colour has
    /// cubes to touch (every move after each colour's first). LLVM vectorises the
    /// portable loop's shift by each column's height, which WebAssembly SIMD lacks, into
    /// a lane-by-lane extract and insert that V8 runs as such (6-7 % of Coricancha's
    /// random playouts in Node). Here the shift is a multiplication: for a height `h` of
    /// at most 12, `t << (12 - h)` puts bits `h..h + 4` of `t` at 12-15; above 12,
    /// `(t >> 3) << (15 - h)` does.
    #[inline(always)]
    fn pack(input: &GenInput, n: usize, out: &mut [u8; MAX_COLUMNS]) {
        let Touch::One(touch) = input.touch else {
            return super::pack(input, n, out);
        };
        // The factors 1 << (12 - h), or 1 << (15 - h) above 12, as low and high bytes.
        const fn factor(h: usize) -> u16 {
            if h <= 12 {
                1 << (12 - h)
            } else {
                1 << (15 - h)
            }
        }
        const LOW: [u8; 16] = {
            let mut t = [0; 16];
            let mut h = 0;
            while h < 16 {
                t[h] = factor(h) as u8;
                h += 1;
            }
            t
        };
        const HIGH: [u8; 16] = {
            let mut t = [0; 16];
            let mut h = 0;
            while h < 16 {
                t[h] = (factor(h) >> 8) as u8;
                h += 1;
            }
            t
        };
        // SAFETY: 16-byte arrays.
        let (low, high) = unsafe { (v128_load(LOW.as_ptr().cast()), v128_load(HIGH.as_ptr().cast())) };
        let n = n.min(MAX_COLUMNS);
        let thirteen = u16x8_splat(13);
        let window = |t: v128, h: v128, f: v128| {
            let t = v128_bitselect(t, u16x8_shr(t, 3), i16x8_lt(h, thirteen));
            u16x8_shr(i16x8_mul(t, f), 12)
        };
        for g in 0..n.div_ceil(16).min(MAX_COLUMNS / 16) {
            // SAFETY: g < MAX_COLUMNS / 16, so 16 g + 16 <= MAX_COLUMNS: 16 heights (bytes)
            // and twice 8 contact masks (u16) readable, 16 bytes of `out` writable.
            unsafe {
                let h = v128_and(v128_load(input.heights.as_ptr().add(16 * g).cast()), u8x16_splat(15));
                let (fl, fh) = (lut(low, h), lut(high, h));
                let f0 = i8x16_shuffle::<0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23>(fl, fh);
                let f1 = i8x16_shuffle::<8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31>(fl, fh);
                let t0 = v128_load(touch.as_ptr().add(16 * g).cast());
                let t1 = v128_load(touch.as_ptr().add(16 * g + 8).cast());
                let w0 = window(t0, u16x8_extend_low_u8x16(h), f0);
                let w1 = window(t1, u16x8_extend_high_u8x16(h), f1);
                // Heights are at most 15, so shifting 16-bit lanes by 4 shifts each byte.
                let bytes = v128_or(i16x8_shl(h, 4), u8x16_narrow_i16x8(w0, w1));
                v128_store(out.as_mut_ptr().add(16 * g).cast(), bytes);
            }
        }
        // The portable loop leaves the columns past the board's at 0 (the caller's zeros).
        for o in &mut out[n..(n.div_ceil(16) * 16).min(MAX_COLUMNS)] {
            *o = 0;
        }
    }

    /// See [`super::gen_scalar`] for `MODE`.
    pub(super) fn gen_simd128<const MODE: u8>(t: &GenTables, input: &GenInput, out: Out) -> u32 {
        // Twice the most columns, zeros past the board's: the based lookups below read up
        // to eight tables of 16 from any column.
        let mut packed = [0u8; 2 * MAX_COLUMNS];
        let (board, _) = packed.split_at_mut(MAX_COLUMNS);
        pack(input, t.columns, board.try_into().expect("MAX_COLUMNS bytes"));
        let packed = &packed;
        let table = |k: usize| {
            // SAFETY: k < 8, so 16 k + 16 <= MAX_COLUMNS (128): 16 readable bytes.
            unsafe { v128_load(packed.as_ptr().add((k & 7) * 16).cast()) }
        };
        if let Some(g) = &t.gather {
            // The two windows of 16 columns ([`lane_windows`]): quarters 0 and 2 of a
            // chunk look up the first, 1 and 3 the second. A gather index of 0x80 is out
            // of range, which `swizzle` answers with 0.
            let (a, b) = (table(0), table(1));
            let win = |w: usize| {
                // SAFETY: each gather row has 32 bytes and w is 0 or 1.
                let (g0, g1) = unsafe {
                    (
                        v128_load(g[0].as_ptr().add(16 * (w & 1)).cast()),
                        v128_load(g[1].as_ptr().add(16 * (w & 1)).cast()),
                    )
                };
                v128_or(lut(a, g0), lut(b, g1))
            };
            return run::<2, true, false, MODE>(t, input, packed, [win(0), win(1)], out);
        }
        if t.columns <= 16 {
            return run::<1, false, false, MODE>(t, input, packed, [table(0)], out);
        }
        // More columns: each quarter's lookups start at its own base column
        // (`ChunkData::wbase`). Table k from there is looked up with the index minus 16 k,
        // which `swizzle` answers with 0 unless it lies in 0..16 (unlike `vpshufb`, no XOR
        // telescoping is needed), so the OR over the tables is the column's byte.
        if t.pairs {
            run::<0, false, true, MODE>(t, input, packed, [], out)
        } else {
            run::<0, false, false, MODE>(t, input, packed, [], out)
        }
    }

    /// One quarter's 16 bits (`range`'s kernel). `range` writes the four quarters out
    /// rather than looping over them: V8 checks for interrupts at every loop's back edge
    /// and kept the loop's running values in stack slots, and with `q` constant every
    /// offset here is (Node, Coricancha 4p: random playouts 1.4-1.9× as fast).
    #[inline(always)]
    fn quarter_bits<const L: usize, const NT: usize, const WIN: bool, const PAIRS: bool>(
        cd: &ChunkData,
        packed: &[u8; 2 * MAX_COLUMNS],
        x: &[v128; NT],
        lim_row: usize,
        q: usize,
        [f0, bias, sixteen, threshold]: [v128; 4],
    ) -> u64 {
        // `lut`'s indices: a column's place in its window (0..16), a column of a board of
        // at most 16, a stone (0..16, padding `PAD_STONE`), a gather's (0..16 or 0x80).
        // The based lookups keep `swizzle`: theirs run past 16 (table k's minus 16 k).
        let look = |i: usize| {
            if WIN {
                return lut(x[q & 1], quarter(&cd.idx2[i], q));
            }
            if NT == 1 {
                return lut(x[0], quarter(&cd.col[i], q));
            }
            if PAIRS && !cd.wide[q & 3] {
                // Two windows (see `ChunkData::wpair`).
                let [a, b] = cd.wpair[i][q & 3];
                // SAFETY: a, b <= 127, so a + 16 and b + 16 <= packed's length (256).
                let (ta, tb) = unsafe {
                    (
                        v128_load(packed.as_ptr().add(a as usize & 127).cast()),
                        v128_load(packed.as_ptr().add(b as usize & 127).cast()),
                    )
                };
                return v128_or(lut(ta, quarter(&cd.wfirst[i], q)), lut(tb, quarter(&cd.wsecond[i], q)));
            }
            // The tables from this quarter's base column on (see `ChunkData::wbase`).
            let (base, n) = (cd.wbase[i][q & 3] as usize & 127, cd.wn[i][q & 3] as usize);
            let mut idx = quarter(&cd.widx[i], q);
            // SAFETY: base <= 127, so base + 16 <= packed's length (256).
            let mut r = i8x16_swizzle(unsafe { v128_load(packed.as_ptr().add(base).cast()) }, idx);
            for k in 1..n.min(8) {
                idx = i8x16_sub(idx, sixteen);
                // SAFETY: base + 16 k + 16 <= 127 + 128 = 255 < 256.
                let tab = unsafe { v128_load(packed.as_ptr().add(base + 16 * k).cast()) };
                r = v128_or(r, i8x16_swizzle(tab, idx));
            }
            r
        };
        let v0 = look(0);
        let z = v128_and(v0, f0);
        // A colour's first stone rests on the board: its limit row is `zero`.
        // SAFETY: lim_row is the offset of a CHUNK-byte row of ChunkData and
        // (q & 3) * 16 + 16 <= CHUNK: 16 readable bytes.
        let lim = unsafe { v128_load((cd as *const ChunkData).cast::<u8>().add(lim_row + (q & 3) * 16).cast()) };
        let mut r = v128_or(u8x16_sub_sat(z, lim), v128_and(v0, quarter(&cd.mask[0], q)));
        for i in 1..L {
            let v = look(i);
            let d = i8x16_sub(v, i8x16_add(z, quarter(&cd.sub[i - 1], q)));
            r = v128_or(r, v128_and(d, quarter(&cd.mask[i], q)));
        }
        // 1 <= r <= 15 exactly when r + 0x70 is above 0x70 as a signed byte (one
        // signed compare; an unsigned one costs V8 three instructions on x86).
        let ok = if NT == 0 {
            i8x16_gt(i8x16_add(r, bias), bias)
        } else {
            // Nothing is above 0x7f, the threshold of used stones and padding.
            i8x16_gt(i8x16_add(r, bias), lut(threshold, quarter(&cd.stone, q)))
        };
        (i8x16_bitmask(ok) as u64) << (16 * q)
    }

    /// Every chunk, by number of covered columns. `x`: the one table of a board of at most
    /// 16 columns (`NT` = 1), the two windows (`WIN`), or none (`NT` = 0: the lookups read
    /// `packed` from each quarter's base column).
    #[inline(always)]
    fn run<const NT: usize, const WIN: bool, const PAIRS: bool, const MODE: u8>(
        t: &GenTables,
        input: &GenInput,
        packed: &[u8; 2 * MAX_COLUMNS],
        x: [v128; NT],
        out: Out,
    ) -> u32 {
        debug_assert!(MODE != SET || out.words.len() == t.chunks.len());
        let mut total = 0;
        let mut out = out;
        let r = &t.by_len;
        if range::<1, NT, WIN, PAIRS, MODE>(t, input, packed, &x, r[0], r[1], &mut out, &mut total)
            || range::<2, NT, WIN, PAIRS, MODE>(t, input, packed, &x, r[1], r[2], &mut out, &mut total)
            || range::<3, NT, WIN, PAIRS, MODE>(t, input, packed, &x, r[2], r[3], &mut out, &mut total)
            || range::<4, NT, WIN, PAIRS, MODE>(t, input, packed, &x, r[3], r[4], &mut out, &mut total)
        {
            return 1;
        }
        total
    }

    /// Chunks `a..b`, whose templates cover `L` columns. With `ANY`, returns whether one
    /// has a legal placement; otherwise writes their words (`SET`) and counts.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn range<const L: usize, const NT: usize, const WIN: bool, const PAIRS: bool, const MODE: u8>(
        t: &GenTables,
        input: &GenInput,
        packed: &[u8; 2 * MAX_COLUMNS],
        x: &[v128; NT],
        a: usize,
        b: usize,
        out: &mut Out,
        total: &mut u32,
    ) -> bool {
        let f0 = u8x16_splat(0xf0);
        let bias = u8x16_splat(0x70);
        let sixteen = u8x16_splat(16);
        let lim_row = ChunkData::lim_row(input.first);
        let threshold = threshold_table(input.left);
        let k = [f0, bias, sixteen, threshold];
        // Two ways to leave out the slots of used stones (and padding), each where it
        // measured faster in V8 (Node, random playouts): where a lookup is one `swizzle`
        // (the windows, or one table: Chullpa), the AVX2 path's threshold compare, and
        // quarters skipped by their stones (Chullpa's playouts 1.25-1.35× as fast as
        // with masking); with the based lookups (more than 32 columns: Coricancha),
        // whose quarters keep more vectors live, the threshold's vector cost more than it
        // saved, and the bits are masked with the slots of the live stones.
        for j in a..b {
            let bits = if NT == 0 {
                // SAFETY: j < by_len[4] == meta.len() == chunks.len() (`GenTables::new`).
                let (m, cd) = unsafe { (t.meta.get_unchecked(j), t.chunks.get_unchecked(j)) };
                let live = m.stones & input.left;
                // The slots of live stones (padding is in no stone's slots): quarters without
                // one are skipped, and the kernel's bits are masked with them.
                let valid = if live == 0 { 0 } else { m.valid(live) };
                let mut bits = 0u64;
                if valid & 0xffff != 0 {
                    bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 0, k);
                }
                if valid & 0xffff_0000 != 0 {
                    bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 1, k);
                }
                if valid & 0xffff_0000_0000 != 0 {
                    bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 2, k);
                }
                if valid & 0xffff_0000_0000_0000 != 0 {
                    bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 3, k);
                }
                bits & valid
            } else {
                // SAFETY: j < by_len[4] == chunks.len() (`GenTables::new`).
                let cd = unsafe { t.chunks.get_unchecked(j) };
                let left = input.left;
                let mut bits = 0u64;
                if cd.quarter_stones[0] & left != 0 {
                    bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 0, k);
                }
                if cd.quarter_stones[1] & left != 0 {
                    bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 1, k);
                }
                if cd.quarter_stones[2] & left != 0 {
                    bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 2, k);
                }
                if cd.quarter_stones[3] & left != 0 {
                    bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 3, k);
                }
                bits
            };
            if MODE == ANY {
                if bits != 0 {
                    return true;
                }
            } else {
                if MODE == SET {
                    // SAFETY: j < chunks.len() == words.len() (see
                    // `generate`).
                    unsafe {
                        *out.words.get_unchecked_mut(j) = bits;
                    }
                }
                *total += bits.count_ones();
            }
        }
        false
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;
    use std::arch::x86_64::*;

    /// [`GenTables::pick_in_words`] with POPCNT.
    #[target_feature(enable = "popcnt")]
    pub(super) fn pick_in_words_popcnt(t: &GenTables, words: &[u64], rng: &mut Rng) -> Option<Move> {
        super::pick_in_words(t, words, rng)
    }

    /// [`GenTables::nth_in_words`] with POPCNT.
    #[target_feature(enable = "popcnt")]
    pub(super) fn nth_in_words_popcnt(t: &GenTables, words: &[u64], i: usize) -> Option<Move> {
        super::nth_in_words(t, words, i)
    }

    /// [`GenTables::nth_in_words`] with POPCNT and the bit selected by `pdep`.
    #[target_feature(enable = "popcnt,bmi2")]
    pub(super) fn nth_in_words_bmi2(t: &GenTables, words: &[u64], i: usize) -> Option<Move> {
        let (j, k) = word_and_rank(words, i)?;
        t.slot_template(j * CHUNK + select_pdep(words[j], k) as usize)
    }

    /// [`GenTables::mask_words`] with POPCNT.
    #[target_feature(enable = "popcnt")]
    pub(super) fn mask_words_popcnt(words: &[u64], mask: &[u64], out: &mut [u64]) -> usize {
        super::mask_words(words, mask, out)
    }

    /// The position of the `k`-th set bit of `w` (`k < popcount(w)`); callable where the
    /// CPU has BMI2.
    #[inline]
    #[target_feature(enable = "bmi2")]
    pub(super) fn select_pdep(w: u64, k: u32) -> u32 {
        _pdep_u64(1u64 << (k & 63), w).trailing_zeros()
    }

    /// Whether this CPU has BMI2 and runs `pdep` in hardware (a few cycles), so that the
    /// AVX2 path's pick selects its bit with it too: every Intel CPU with BMI2 and AMD's
    /// from Zen 3 (family 0x19) on. AMD's Zen 1 and 2 (family 0x17) and Hygon's (0x18) run
    /// it in microcode, tens of cycles a set bit, where the table select is far cheaper.
    /// (Every CPU with AVX-512 VBMI has a fast one: that path always uses it.)
    pub(super) fn fast_pdep() -> bool {
        static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *FAST.get_or_init(|| {
            if !std::arch::is_x86_feature_detected!("bmi2") {
                return false;
            }
            // SAFETY: CPUID exists on every x86-64 CPU; leaves 0 and 1 always do.
            #[allow(unused_unsafe)]
            let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1)) };
            // "AuthenticAMD" and "HygonGenuine" begin "Auth" and "Hygo" (in EBX).
            let zen_like = vendor.ebx == u32::from_le_bytes(*b"Auth") || vendor.ebx == u32::from_le_bytes(*b"Hygo");
            let base = signature.eax >> 8 & 0xf;
            let family = if base == 0xf {
                base + (signature.eax >> 20 & 0xff)
            } else {
                base
            };
            !(zen_like && family < 0x19)
        })
    }

    /// Per stone index (0-15): 0xff if the stone is live.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn live_table(left: u16) -> __m128i {
        let l = _mm_set1_epi16(left as i16);
        let lo = _mm_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128);
        let hi = _mm_setr_epi16(256, 512, 1024, 2048, 4096, 8192, 16384, i16::MIN);
        let a = _mm_cmpeq_epi16(_mm_and_si128(l, lo), lo);
        let b = _mm_cmpeq_epi16(_mm_and_si128(l, hi), hi);
        _mm_packs_epi16(a, b)
    }

    /// Per stone index (0-15), in both 128-bit lanes: 0x70 if the stone is live, else 0x7f.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn threshold_table(left: u16) -> __m256i {
        // Byte i of each lane: byte i / 8 of `left`, then its bit i % 8.
        let spread = _mm256_shuffle_epi8(
            _mm256_set1_epi16(left as i16),
            _mm256_setr_epi8(
                0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
            ),
        );
        let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
        let live = _mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit);
        _mm256_blendv_epi8(_mm256_set1_epi8(0x7f), _mm256_set1_epi8(0x70), live)
    }

    /// The packed bytes `h << 4 | window` of columns `base..base + 64` (`base` is 0 or 64),
    /// computing only the first `halves` groups of 32 columns (the rest are 0).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn pack64(input: &GenInput, base: usize, halves: usize) -> __m512i {
        // One 64-byte load, as the AVX-512 placement stores them.
        let base = base.min(MAX_COLUMNS - 64);
        // SAFETY: `heights` has MAX_COLUMNS (128) bytes and base <= 64: 64 readable bytes.
        let heights = unsafe { _mm512_loadu_si512(input.heights.as_ptr().add(base).cast()) };
        let half = |off: usize| {
            let at = base + off;
            let h = _mm512_cvtepu8_epi16(if off == 0 {
                _mm512_castsi512_si256(heights)
            } else {
                _mm512_extracti64x4_epi64::<1>(heights)
            });
            // SAFETY: a contact-mask row has MAX_COLUMNS (128) u16s and at <= 96: 32
            // readable u16s (64 bytes).
            let load = |t: &[u16; MAX_COLUMNS]| unsafe { _mm512_loadu_si512(t.as_ptr().add(at).cast()) };
            let fifteen = _mm512_set1_epi16(15);
            let w = match input.touch {
                Touch::Nothing => fifteen,
                Touch::One(t) => _mm512_and_si512(_mm512_srlv_epi16(load(t), h), fifteen),
                Touch::Any(kinds) => {
                    let any = kinds
                        .iter()
                        .fold(_mm512_setzero_si512(), |a, t| _mm512_or_si512(a, load(t)));
                    _mm512_and_si512(_mm512_srlv_epi16(any, h), fifteen)
                }
            };
            _mm512_cvtepi16_epi8(_mm512_or_si512(_mm512_slli_epi16::<4>(h), w))
        };
        let lo = if halves > 0 { half(0) } else { _mm256_setzero_si256() };
        let hi = if halves > 1 { half(32) } else { _mm256_setzero_si256() };
        _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
    }

    /// The packed bytes of columns `base..base + 16` (`base` <= 112).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn pack16(input: &GenInput, base: usize) -> __m128i {
        let base = base.min(MAX_COLUMNS - 16);
        // Heights are at most 15; saying so lets the compiler use `vpsrlvd` as it is
        // (otherwise it guards against shift counts of 32 and more).
        // SAFETY: `heights` has MAX_COLUMNS bytes and base <= MAX_COLUMNS - 16.
        let raw = unsafe { _mm_loadu_si128(input.heights.as_ptr().add(base).cast()) };
        let h = _mm_and_si128(raw, _mm_set1_epi8(15));
        let ha = _mm256_cvtepu8_epi32(h);
        let hb = _mm256_cvtepu8_epi32(_mm_srli_si128::<8>(h));
        let load = |t: &[u16; MAX_COLUMNS], off: usize| {
            // SAFETY: off is 0 or 8 and base <= MAX_COLUMNS - 16: 8 readable u16s.
            _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(t.as_ptr().add(base + off).cast()) })
        };
        let fifteen = _mm256_set1_epi32(15);
        let (wa, wb) = match input.touch {
            Touch::Nothing => (fifteen, fifteen),
            Touch::One(t) => (
                _mm256_and_si256(_mm256_srlv_epi32(load(t, 0), ha), fifteen),
                _mm256_and_si256(_mm256_srlv_epi32(load(t, 8), hb), fifteen),
            ),
            Touch::Any(kinds) => {
                let a = kinds
                    .iter()
                    .fold(_mm256_setzero_si256(), |a, t| _mm256_or_si256(a, load(t, 0)));
                let b = kinds
                    .iter()
                    .fold(_mm256_setzero_si256(), |a, t| _mm256_or_si256(a, load(t, 8)));
                (
                    _mm256_and_si256(_mm256_srlv_epi32(a, ha), fifteen),
                    _mm256_and_si256(_mm256_srlv_epi32(b, hb), fifteen),
                )
            }
        };
        let a = _mm256_or_si256(_mm256_slli_epi32::<4>(ha), wa);
        let b = _mm256_or_si256(_mm256_slli_epi32::<4>(hb), wb);
        // u32 -> u16: per 128-bit lane [a0-3 b0-3 | a4-7 b4-7]; reorder to [a0-7 | b0-7].
        let p = _mm256_permute4x64_epi64::<0xd8>(_mm256_packus_epi32(a, b));
        _mm_packus_epi16(_mm256_castsi256_si128(p), _mm256_extracti128_si256::<1>(p))
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn load512(p: &[u8; CHUNK]) -> __m512i {
        // SAFETY: `p` is CHUNK = 64 readable bytes.
        unsafe { _mm512_loadu_si512(p.as_ptr().cast()) }
    }

    /// The AVX-512 VBMI path (see [`super::gen_scalar`] for `MODE`); callable (with
    /// `unsafe`) only where the CPU has AVX-512 F, BW and VBMI. Every memory access is to
    /// fixed-size arrays within their bounds; `vpermb` and `vpshufb` read no memory,
    /// whatever the index bytes hold.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
    pub(super) fn gen_avx512<const MODE: u8>(t: &GenTables, input: &GenInput, out: Out) -> u32 {
        if t.columns > 64 {
            gen_avx512_inner::<WIDE, MODE>(t, input, out)
        } else if t.columns > 32 {
            gen_avx512_inner::<PLAIN, MODE>(t, input, out)
        } else {
            gen_avx512_inner::<FOLD, MODE>(t, input, out)
        }
    }

    /// How `range512` looks the columns up. `PLAIN`: one `vpermb` into the 64 packed
    /// bytes, then the entry's offset subtracted. `WIDE` (65-128 columns): `vpermi2b` into
    /// 128 bytes, then the offset. `FOLD` (at most 32 columns): the anchor by `vpermb` as
    /// in `PLAIN`; entries 1-3 by `vpermi2b` into four copies of the 32 packed bytes, copy
    /// `b` lowered by `b << 4`, at `ChunkData::fold` (column + 32 b). The same bytes come
    /// out as `PLAIN`'s after its subtraction; a chunk saves a load and an add an entry,
    /// and loads are what a chunk waits on (on Zen 4 a 64-byte load takes the cycle's
    /// load bandwidth).
    const PLAIN: u8 = 0;
    const WIDE: u8 = 1;
    const FOLD: u8 = 2;

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
    fn gen_avx512_inner<const LOOK: u8, const MODE: u8>(t: &GenTables, input: &GenInput, out: Out) -> u32 {
        debug_assert!(MODE != SET || out.words.len() == t.chunks.len());
        // Built in registers: a wide load of bytes just stored one by one would wait for
        // the stores.
        let halves = t.columns.div_ceil(32);
        let (lo, hi) = match LOOK {
            WIDE => (pack64(input, 0, halves), pack64(input, 64, halves - 2)),
            PLAIN => (pack64(input, 0, halves), _mm512_setzero_si512()),
            _ => {
                // Columns 0-31 in both halves, then the four copies: b = 0, 1 in `lo`,
                // b = 2, 3 in `hi`.
                let p = pack64(input, 0, 1);
                let p = _mm512_shuffle_i64x2::<0x44>(p, p);
                let step = _mm512_inserti64x4::<1>(_mm512_setzero_si512(), _mm256_set1_epi8(0x10));
                let lo = _mm512_sub_epi8(p, step);
                let hi = _mm512_sub_epi8(lo, _mm512_set1_epi8(0x20));
                (lo, hi)
            }
        };
        let k = Ctx512 {
            lo,
            hi,
            live: _mm512_broadcast_i32x4(live_table(input.left)),
            lim_row: ChunkData::lim_row(input.first),
            left: input.left,
        };
        let mut total = 0;
        let mut out = out;
        let r = &t.by_len;
        if range512::<1, LOOK, MODE>(t, &k, r[0], r[1], &mut out, &mut total)
            || range512::<2, LOOK, MODE>(t, &k, r[1], r[2], &mut out, &mut total)
            || range512::<3, LOOK, MODE>(t, &k, r[2], r[3], &mut out, &mut total)
            || range512::<4, LOOK, MODE>(t, &k, r[3], r[4], &mut out, &mut total)
        {
            return 1;
        }
        total
    }

    struct Ctx512 {
        lo: __m512i,
        hi: __m512i,
        live: __m512i,
        lim_row: usize,
        left: u16,
    }

    /// Chunks `a..b`, whose templates cover `L` columns. With `ANY`, returns whether one
    /// has a legal placement; otherwise writes their words and returns false.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
    fn range512<const L: usize, const LOOK: u8, const MODE: u8>(
        t: &GenTables,
        k: &Ctx512,
        a: usize,
        b: usize,
        out: &mut Out,
        total: &mut u32,
    ) -> bool {
        let f0 = _mm512_set1_epi8(0xf0u8 as i8);
        let one = _mm512_set1_epi8(1);
        let fifteen = _mm512_set1_epi8(15);
        for j in a..b {
            // SAFETY: j < by_len[4] == meta.len() == chunks.len() (`GenTables::new`).
            let m = unsafe { t.meta.get_unchecked(j) };
            if m.stones & k.left == 0 {
                if MODE == SET {
                    // SAFETY: j < chunks.len() == words.len() (see
                    // `generate`).
                    unsafe {
                        *out.words.get_unchecked_mut(j) = 0;
                    }
                }
                continue;
            }
            // SAFETY: j < by_len[4] == chunks.len().
            let cd = unsafe { t.chunks.get_unchecked(j) };
            let look = |i: usize| {
                let idx = load512(&cd.col[i]);
                if LOOK == WIDE {
                    _mm512_permutex2var_epi8(k.lo, idx, k.hi)
                } else {
                    _mm512_permutexvar_epi8(idx, k.lo)
                }
            };
            let v0 = look(0);
            let z = _mm512_and_si512(v0, f0);
            // SAFETY: lim_row is the offset of a 64-byte row of ChunkData.
            let lim = unsafe { _mm512_loadu_si512((cd as *const ChunkData).cast::<u8>().add(k.lim_row).cast()) };
            let mut r = _mm512_ternarylogic_epi32::<0xf8>(_mm512_subs_epu8(z, lim), v0, load512(&cd.mask[0]));
            for i in 1..L {
                // The entry's byte less its offset (`sub`), as `FOLD` looks it up already.
                let lowered = if LOOK == FOLD {
                    _mm512_permutex2var_epi8(k.lo, load512(&cd.fold[i - 1]), k.hi)
                } else {
                    _mm512_sub_epi8(look(i), load512(&cd.sub[i - 1]))
                };
                let d = _mm512_sub_epi8(lowered, z);
                r = _mm512_ternarylogic_epi32::<0xf8>(r, d, load512(&cd.mask[i]));
            }
            let valid = _mm512_movepi8_mask(_mm512_shuffle_epi8(k.live, load512(&cd.stone)));
            let bits = _mm512_mask_cmplt_epu8_mask(valid, _mm512_sub_epi8(r, one), fifteen);
            if MODE == ANY {
                if bits != 0 {
                    return true;
                }
            } else {
                if MODE == SET {
                    // SAFETY: j < chunks.len() == words.len() (see
                    // `generate`).
                    unsafe {
                        *out.words.get_unchecked_mut(j) = bits;
                    }
                }
                *total += bits.count_ones();
            }
        }
        false
    }

    /// The AVX2 path (see [`super::gen_scalar`] for `MODE`); callable (with `unsafe`)
    /// only where the CPU has AVX2. Every memory access is to fixed-size arrays within
    /// their bounds; `vpshufb` reads no memory.
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) fn gen_avx2<const MODE: u8>(t: &GenTables, input: &GenInput, out: Out) -> u32 {
        if t.gather.is_some() {
            return gen_avx2_inner::<1, true, MODE>(t, input, out);
        }
        match t.columns.div_ceil(16) {
            0 | 1 => gen_avx2_inner::<1, false, MODE>(t, input, out),
            2 => gen_avx2_inner::<2, false, MODE>(t, input, out),
            3 => gen_avx2_inner::<3, false, MODE>(t, input, out),
            4 => gen_avx2_inner::<4, false, MODE>(t, input, out),
            5 => gen_avx2_inner::<5, false, MODE>(t, input, out),
            6 => gen_avx2_inner::<6, false, MODE>(t, input, out),
            7 => gen_avx2_inner::<7, false, MODE>(t, input, out),
            _ => gen_avx2_inner::<8, false, MODE>(t, input, out),
        }
    }

    #[inline]
    #[target_feature(enable = "avx")]
    fn load256(p: &[u8; CHUNK], half: usize) -> __m256i {
        // SAFETY: half is 0 or 1 (masked so): 32 readable bytes of the 64 at `p`.
        unsafe { _mm256_loadu_si256(p.as_ptr().add((half & 1) * 32).cast()) }
    }

    /// `NT` sub-tables of 16 columns. Sub-table `t` is stored XORed with sub-table `t - 1`,
    /// and looked up with the index minus `16 t`: `vpshufb` gives 0 where that is negative
    /// (bit 7 set), so the XOR of all lookups telescopes to the right entry. With `WIN`
    /// (and `NT` = 1), one table holds the site's two windows of 16 columns, one per
    /// 128-bit lane, and is looked up with `idx2` ([`lane_windows`]).
    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    fn gen_avx2_inner<const NT: usize, const WIN: bool, const MODE: u8>(
        t: &GenTables,
        input: &GenInput,
        out: Out,
    ) -> u32 {
        debug_assert!(MODE != SET || out.words.len() == t.chunks.len());
        let mut x = [_mm256_setzero_si256(); NT];
        if WIN {
            // `gen_avx2` takes WIN only when `t.gather` is Some (one branch per generation).
            let Some(g) = t.gather.as_ref() else { return 0 };
            let a = _mm256_broadcastsi128_si256(pack16(input, 0));
            let b = _mm256_broadcastsi128_si256(pack16(input, 16));
            // SAFETY: each gather row is 32 bytes.
            let (g0, g1) = unsafe {
                (
                    _mm256_loadu_si256(g[0].as_ptr().cast()),
                    _mm256_loadu_si256(g[1].as_ptr().cast()),
                )
            };
            x[0] = _mm256_or_si256(_mm256_shuffle_epi8(a, g0), _mm256_shuffle_epi8(b, g1));
        } else {
            let mut prev = _mm_setzero_si128();
            for (k, xk) in x.iter_mut().enumerate() {
                let tab = pack16(input, 16 * k);
                *xk = _mm256_broadcastsi128_si256(_mm_xor_si128(tab, prev));
                prev = tab;
            }
        }
        let k = Ctx256 {
            x,
            threshold: threshold_table(input.left),
            lim_row: ChunkData::lim_row(input.first),
            left: input.left,
            every_half: input.left.count_ones() >= EVERY_HALF_FROM,
        };
        let mut total = 0;
        let mut out = out;
        let r = &t.by_len;
        if range256::<1, NT, WIN, MODE>(t, &k, r[0], r[1], &mut out, &mut total)
            || range256::<2, NT, WIN, MODE>(t, &k, r[1], r[2], &mut out, &mut total)
            || range256::<3, NT, WIN, MODE>(t, &k, r[2], r[3], &mut out, &mut total)
            || range256::<4, NT, WIN, MODE>(t, &k, r[3], r[4], &mut out, &mut total)
        {
            return 1;
        }
        total
    }

    struct Ctx256<const NT: usize> {
        x: [__m256i; NT],
        threshold: __m256i,
        lim_row: usize,
        left: u16,
        /// Whether the colour has [`EVERY_HALF_FROM`] stones or more left: then, with one
        /// table, every half is computed instead of tested for live stones.
        every_half: bool,
    }

    /// With one table (a board of at most 16 columns, or Chullpa's two windows) a half
    /// costs one `vpshufb` a column, less than the tests' mispredictions: which halves are
    /// live changes with each stone a colour places, and the colours take turns, so the
    /// tests miss several times a generation. While a colour has most of its stones, few
    /// of its halves are dead and computing them all costs little; with few stones left
    /// most are dead, and the tests pay again. From six stones (of 11) on, computing all
    /// was 3-8 % faster on every such board (in-process A/B; compute all to the end: about
    /// as fast, 14 % more instructions). With two tables or more a half costs two or more
    /// lookups a column and the tests pay throughout (docs/performance.md, "The half tests").
    const EVERY_HALF_FROM: u32 = 6;

    /// As [`range512`], 32 templates per instruction.
    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    fn range256<const L: usize, const NT: usize, const WIN: bool, const MODE: u8>(
        t: &GenTables,
        k: &Ctx256<NT>,
        a: usize,
        b: usize,
        out: &mut Out,
        total: &mut u32,
    ) -> bool {
        let f0 = _mm256_set1_epi8(0xf0u8 as i8);
        let bias = _mm256_set1_epi8(0x70);
        let sixteen = _mm256_set1_epi8(16);
        for j in a..b {
            // With tests, only the halves are tested: a chunk whose stones are all used costs
            // two tests and the stores, one with live stones two tests fewer than with a
            // chunk test.
            // SAFETY: j < by_len[4] == chunks.len() (`GenTables::new`).
            let cd = unsafe { t.chunks.get_unchecked(j) };
            let half = |half: usize| {
                let look = |i: usize| {
                    if WIN {
                        return _mm256_shuffle_epi8(k.x[0], load256(&cd.idx2[i], half));
                    }
                    let mut r = _mm256_shuffle_epi8(k.x[0], load256(&cd.col[i], half));
                    if NT > 1 {
                        let mut idx = load256(&cd.idx2[i], half);
                        r = _mm256_xor_si256(r, _mm256_shuffle_epi8(k.x[1], idx));
                        for xk in &k.x[2..] {
                            idx = _mm256_sub_epi8(idx, sixteen);
                            r = _mm256_xor_si256(r, _mm256_shuffle_epi8(*xk, idx));
                        }
                    }
                    r
                };
                let v0 = look(0);
                let z = _mm256_and_si256(v0, f0);
                // SAFETY: lim_row is the offset of a 64-byte row of ChunkData and half is 0
                // or 1: 32 readable bytes.
                let lim = unsafe {
                    _mm256_loadu_si256((cd as *const ChunkData).cast::<u8>().add(k.lim_row + 32 * half).cast())
                };
                let mut r = _mm256_or_si256(
                    _mm256_subs_epu8(z, lim),
                    _mm256_and_si256(v0, load256(&cd.mask[0], half)),
                );
                for i in 1..L {
                    let v = look(i);
                    let d = _mm256_sub_epi8(v, _mm256_add_epi8(z, load256(&cd.sub[i - 1], half)));
                    r = _mm256_or_si256(r, _mm256_and_si256(d, load256(&cd.mask[i], half)));
                }
                // 1 <= r <= 15 exactly when r + 0x70 is above 0x70 as a signed byte; nothing
                // is above 0x7f, the threshold of used stones and padding.
                let ok = _mm256_cmpgt_epi8(
                    _mm256_add_epi8(r, bias),
                    _mm256_shuffle_epi8(k.threshold, load256(&cd.stone, half)),
                );
                _mm256_movemask_epi8(ok) as u32 as u64
            };
            // See `Ctx256::every_half`. Computed anyway, a half of used stones gives no
            // bits (their threshold).
            let bits = if NT == 1 && k.every_half {
                half(0) | half(1) << 32
            } else {
                let lo = if cd.half_stones[0] & k.left != 0 { half(0) } else { 0 };
                let hi = if cd.half_stones[1] & k.left != 0 { half(1) } else { 0 };
                lo | hi << 32
            };
            if MODE == ANY {
                if bits != 0 {
                    return true;
                }
            } else {
                if MODE == SET {
                    // SAFETY: j < chunks.len() == words.len() (see
                    // `generate`).
                    unsafe {
                        *out.words.get_unchecked_mut(j) = bits;
                    }
                }
                *total += bits.count_ones();
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_finds_each_bit() {
        for w in [
            1u64,
            0x8000_0000_0000_0001,
            0xdead_beef_0bad_f00d,
            u64::MAX,
            0x0100_0000_0000_0000,
        ] {
            let mut bits = Vec::new();
            let mut x = w;
            while x != 0 {
                bits.push(x.trailing_zeros());
                x &= x - 1;
            }
            for (i, &b) in bits.iter().enumerate() {
                assert_eq!(select(w, i as u32), b, "{w:x} {i}");
                // The AVX2 path's pick selects with `pdep` where it is fast.
                #[cfg(target_arch = "x86_64")]
                if std::arch::is_x86_feature_detected!("bmi2") {
                    // SAFETY: this CPU has BMI2.
                    assert_eq!(unsafe { x86::select_pdep(w, i as u32) }, b, "{w:x} {i}");
                }
            }
        }
    }

    /// The picks over a program's own bit masks: the `i`-th move is the `i`-th of the
    /// mask's slots in order, on every code path's counting (with and without POPCNT);
    /// an empty mask gives none and draws nothing.
    #[test]
    fn picks_in_words_follow_the_slots() {
        use crate::{Board, Site, Variant};
        let site = Site::new(
            Board::builtin("coricancha").unwrap().clone(),
            4,
            Variant::Standard,
            None,
        )
        .unwrap();
        let t = site.gen_tables();
        let mut rng = Rng::new(11);
        for round in 0..200 {
            // Random masks over the real slots, sparse and dense.
            let words: Vec<u64> = (0..t.chunk_count())
                .map(|j| {
                    let real = (0..CHUNK).filter(|&s| t.slot_template(j * CHUNK + s).is_some());
                    let real = real.fold(0u64, |w, s| w | 1 << s);
                    let r = rng.next_u64() & if round % 2 == 0 { rng.next_u64() } else { !0 };
                    r & real
                })
                .collect();
            let slots: Vec<Move> = (0..t.chunk_count() * CHUNK)
                .filter(|&s| words[s / CHUNK] >> (s % CHUNK) & 1 == 1)
                .map(|s| t.slot_template(s).unwrap())
                .collect();
            for (i, &m) in slots.iter().enumerate() {
                assert_eq!(t.nth_in_words(&words, i), Some(m));
                assert_eq!(nth_in_words(t, &words, i), Some(m), "without POPCNT");
                #[cfg(target_arch = "x86_64")]
                if std::arch::is_x86_feature_detected!("popcnt") {
                    // SAFETY: this CPU has POPCNT.
                    let popcnt = unsafe { x86::nth_in_words_popcnt(t, &words, i) };
                    assert_eq!(popcnt, Some(m), "with POPCNT, the bit by the table");
                }
            }
            assert_eq!(t.nth_in_words(&words, slots.len()), None);
            let (mut a, mut b) = (rng.clone(), rng.clone());
            let want = slots[b.below(slots.len())];
            assert_eq!(t.pick_in_words(&words, &mut a), Some(want));
            assert_eq!(pick_in_words(t, &words, &mut rng), Some(want), "without POPCNT");
            // A selection of them: the words masked and counted, on both builds.
            let mask: Vec<u64> = (0..t.chunk_count()).map(|_| rng.next_u64()).collect();
            let mut out = vec![0; t.chunk_count()];
            let count = t.mask_words(&words, &mask, &mut out);
            assert!(out.iter().zip(&words).zip(&mask).all(|((o, w), m)| *o == w & m));
            assert_eq!(
                count,
                slots
                    .iter()
                    .filter(|&&m| out[t.template_slot(m) / CHUNK] >> (t.template_slot(m) % CHUNK) & 1 == 1)
                    .count()
            );
            let mut out2 = vec![!0; t.chunk_count()];
            assert_eq!(mask_words(&words, &mask, &mut out2), count, "without POPCNT");
            assert_eq!(out2, out);
        }
        let empty = vec![0u64; t.chunk_count()];
        let before = rng.clone().next_u64();
        assert_eq!(t.pick_in_words(&empty, &mut rng), None);
        assert_eq!(rng.next_u64(), before, "an empty mask draws nothing");
    }

    #[test]
    fn code_path_names() {
        for p in CodePath::ALL {
            assert_eq!(CodePath::from_name(p.name()), Some(p));
        }
        assert!(CodePath::Scalar.is_available());
        assert!(CodePath::active().is_available());
    }
}
