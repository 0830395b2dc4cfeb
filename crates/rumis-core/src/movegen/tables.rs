//! The site's templates laid out in chunks of 64 slots for the kernels, and the mapping
//! between slots and moves.

use super::*;

/// The lookup data of one chunk: per entry (the anchor first) the column, the run's start
/// above the base (as `b << 4`, for the entries after the anchor, whose is 0) and the byte
/// mask `0xf0 | ((1 << k) - 1)` (the anchor's mask keeps only the contact bits); `zmax << 4`;
/// the stone's index (15 in padding slots); and the stones of the chunk's halves.
#[repr(C, align(64))]
#[derive(Clone)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct ChunkData {
    pub(super) col: [[u8; CHUNK]; 4],
    /// The AVX2 path's second index: `col - 16` (wrapping), into its second sub-table; with
    /// windows ([`lane_windows`]), the column's place in the window of the slot's lane.
    pub(super) idx2: [[u8; CHUNK]; 4],
    /// Entries 1-3 (`sub[i - 1]`).
    pub(super) sub: [[u8; CHUNK]; 3],
    /// The AVX-512 path's index of entries 1-3 on a site of at most 32 columns: the column
    /// plus 32 times its `sub` offset, into four copies of the packed bytes, each lowered
    /// by one more offset (see `gen_avx512`). The subtraction then happens once a
    /// generation instead of once a chunk, and the chunk loads one row less an entry.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    pub(super) fold: [[u8; CHUNK]; 3],
    /// The stones with a template in slots 0-31 and 32-63 (here rather than in
    /// [`ChunkMeta`] so that the SIMD loops walk one array).
    pub(super) half_stones: [u16; 2],
    pub(super) _pad: [u8; CHUNK - 4],
    pub(super) mask: [[u8; CHUNK]; 4],
    pub(super) lim: [u8; CHUNK],
    /// Zeros: the limit row of a colour's first stone (it rests on the board).
    pub(super) zero: [u8; CHUNK],
    pub(super) stone: [u8; CHUNK],
    /// The WebAssembly SIMD path's lookups without windows: per entry and quarter chunk
    /// (16 slots), the lowest column of its templates (`wbase`) and how many 16-column
    /// tables from there hold them all (`wn`, 1-8); `widx` the column minus its quarter's
    /// base. A quarter holds consecutive shifts of one stone, whose columns lie close
    /// together, so it mostly needs one or two `swizzle`s where the whole board takes up
    /// to eight. (Not in native builds: the x86 paths look up the whole board at once.)
    #[cfg(target_arch = "wasm32")]
    pub(super) widx: [[u8; CHUNK]; 4],
    #[cfg(target_arch = "wasm32")]
    pub(super) wbase: [[u8; CHUNK / 16]; 4],
    #[cfg(target_arch = "wasm32")]
    pub(super) wn: [[u8; CHUNK / 16]; 4],
    /// The same lookups in at most two windows of 16 columns: per entry and quarter, the
    /// fewest windows that hold its columns, each starting at a used column (`wpair`), and
    /// per slot the column's place in the first (`wfirst`) and the second (`wsecond`)
    /// window, or 0x80 where it is not in it. Every index then lies in 0..16 or from 128
    /// on, so each window is one `lut` (one `pshufb` with relaxed SIMD) with no index
    /// arithmetic and no loop: Coricancha's quarters mostly need two windows where the
    /// tables from the base take 2.6 on average. A quarter with an entry that needs three
    /// or more (`wide`, rare) keeps the based lookups.
    #[cfg(target_arch = "wasm32")]
    pub(super) wfirst: [[u8; CHUNK]; 4],
    #[cfg(target_arch = "wasm32")]
    pub(super) wsecond: [[u8; CHUNK]; 4],
    #[cfg(target_arch = "wasm32")]
    pub(super) wpair: [[[u8; 2]; CHUNK / 16]; 4],
    #[cfg(target_arch = "wasm32")]
    pub(super) wide: [bool; CHUNK / 16],
    /// The WebAssembly SIMD path's quarters (16 slots): the stones with a template in each.
    #[cfg(target_arch = "wasm32")]
    pub(super) quarter_stones: [u16; CHUNK / 16],
}

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
impl ChunkData {
    /// The byte offset of the limit row to use.
    pub(super) fn lim_row(first: bool) -> usize {
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
    pub(super) len: u8,
    /// The stones with a template in the chunk.
    pub(super) stones: u16,
    /// Per stone: the chunk's slots holding its templates.
    pub(super) slots: [u64; STONE_COUNT],
}

impl ChunkMeta {
    /// The slots of the live stones.
    #[inline(always)]
    pub(super) fn valid(&self, live: u16) -> u64 {
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
    pub(super) by_len: [usize; 5],
    pub(super) chunks: Vec<ChunkData>,
    pub(super) meta: Vec<ChunkMeta>,
    pub(super) slot_to_id: Vec<u16>,
    /// Per slot, what placing its template puts where ([`Placing`]; empty in padding).
    pub(super) placing: Vec<Placing>,
    /// Per slot, the same as whole rows ([`SlotDelta`]), on x86-64 for sites of at most
    /// 32 columns (empty elsewhere).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) deltas: Vec<SlotDelta>,
    /// The AVX2 path's pick selects with `pdep` (`x86::fast_pdep`; only where the CPU has
    /// BMI2).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fast_pdep: bool,
    pub(super) id_to_slot: Vec<u16>,
    pub(super) columns: usize,
    /// With 17-32 columns where every template lies in one of two windows of 16 columns
    /// (see [`lane_windows`]): the AVX2 path's gathers of the windows from its two tables
    /// of 16 columns (lane 0: the first window, lane 1: the second).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) gather: Option<[[u8; 32]; 2]>,
    /// The WebAssembly SIMD path's lookups without lane windows use two windows per
    /// quarter (see where it is set in `new`).
    #[cfg(target_arch = "wasm32")]
    #[cfg_attr(not(target_feature = "simd128"), allow(dead_code))]
    pub(super) pairs: bool,
}

impl GenTables {
    /// The bytes its tables hold on the heap (their capacity).
    pub(crate) fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.chunks.capacity() * size_of::<ChunkData>()
            + self.meta.capacity() * size_of::<ChunkMeta>()
            + self.slot_to_id.capacity() * size_of::<u16>()
            + self.placing.capacity() * size_of::<Placing>()
            + self.deltas.capacity() * size_of::<SlotDelta>()
            + self.id_to_slot.capacity() * size_of::<u16>()
    }
}

/// Two windows of at most 16 columns such that every template's columns lie in one of
/// them, for boards of 17-32 columns: the first and the last 16 of the columns that
/// templates use, taken rank by rank or file by file (on Chullpa, 5 files by 4 ranks,
/// files a-d and b-e: no stone is more than 4 cubes long). The AVX2 kernel then looks a
/// column up with one `vpshufb` instead of two (its 128-bit lanes hold the two windows).
pub(super) fn lane_windows(templates: &[Template], columns: usize, files: usize) -> Option<[Vec<u8>; 2]> {
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
    pub(super) count: [u8; 4],
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

/// What placing a slot's template adds to a position of a site of at most 32 columns, as
/// rows of the position's own layout: per column, the contact bits of the stone's cubes
/// (the cells above each column's run and beside each cube) and its cubes, both relative
/// to the stone's lowest level, and the cubes added to the column's height. The AVX-512
/// and AVX2 placements shift the first two up by that level (the anchor column's height)
/// and OR them in, and add the third: three vector operations a row, with no loop over the
/// covered columns, whose count (one to four) the branch predictor cannot know. A slot is
/// three cache lines (258 kB on Chullpa), against a few dozen instructions and their
/// branches for the loop over a [`Placing`].
#[derive(Clone, Debug, Default)]
#[repr(C, align(64))]
pub(crate) struct SlotDelta {
    pub touch: [u16; 32],
    pub cubes: [u16; 32],
    pub heights: [u8; 32],
    /// The anchor's column, whose height is the stone's lowest level.
    pub anchor: u8,
    /// The stone's number of cubes.
    pub cube_count: u8,
    /// The stone's index.
    pub stone: u8,
}

impl SlotDelta {
    fn of(t: &Template, neighbours: &[[u64; 2]; MAX_COLUMNS]) -> SlotDelta {
        let mut d = SlotDelta {
            anchor: t.columns[t.anchor as usize & 3],
            stone: t.stone.index() as u8,
            ..SlotDelta::default()
        };
        for i in 0..(t.len as usize).min(4) {
            let c = t.columns[i] as usize & 31;
            let run = ((1u16 << t.count[i]) - 1) << t.base[i];
            d.cubes[c] |= run;
            d.heights[c] += t.count[i];
            d.cube_count += t.count[i];
            d.touch[c] |= run << 1;
            for (n, touch) in d.touch.iter_mut().enumerate() {
                if neighbours[c][0] >> n & 1 != 0 {
                    *touch |= run;
                }
            }
        }
        d
    }
}

/// No template: padding slots.
pub(super) const NONE: u16 = u16::MAX;
/// The stone index of padding slots (never live).
pub(super) const PAD_STONE: u8 = 15;

impl GenTables {
    /// `files`: the board's width, to find the AVX2 windows (columns are `x + files * y`);
    /// `neighbours`: per column, its buildable neighbours as a bit mask (bit n of word n / 64).
    pub(crate) fn new(
        templates: &[Template],
        columns: usize,
        files: usize,
        neighbours: &[[u64; 2]; MAX_COLUMNS],
    ) -> GenTables {
        assert!(columns <= MAX_COLUMNS, "a site has at most {MAX_COLUMNS} columns");
        let windows = lane_windows(templates, columns, files);
        let layout = slot_layout(templates, windows.as_ref());
        let mut chunks: Vec<ChunkData> = Vec::new();
        let mut meta: Vec<ChunkMeta> = Vec::new();
        #[cfg(target_arch = "wasm32")]
        let mut lookups = Lookups::default();
        let mut id_to_slot = vec![NONE; templates.len()];
        for (j, ids) in layout.chunks(CHUNK).enumerate() {
            let (cd, m) = ChunkData::of(templates, ids, j, windows.as_ref(), &mut id_to_slot);
            #[cfg(target_arch = "wasm32")]
            let cd = cd.with_wasm_windows(ids, &m, &mut lookups);
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
            // Only the x86-64 AVX-512 placement reads them.
            deltas: if cfg!(target_arch = "x86_64") && columns <= 32 {
                layout
                    .iter()
                    .map(|&id| {
                        templates
                            .get(id as usize)
                            .map(|t| SlotDelta::of(t, neighbours))
                            .unwrap_or_default()
                    })
                    .collect()
            } else {
                Vec::new()
            },
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

    /// What placing the template of a slot adds, as whole rows, on a site of at most 32
    /// columns; `None` elsewhere (and for a slot past the last).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn slot_delta(&self, slot: usize) -> Option<&SlotDelta> {
        self.deltas.get(slot)
    }

    /// Whether slots have deltas ([`GenTables::slot_delta`]).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn has_deltas(&self) -> bool {
        !self.deltas.is_empty()
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

/// The slot layout: the template id in each slot ([`NONE`] in padding), in whole chunks
/// per number of covered columns, by stone then id; with `windows`, dealt to their lanes.
fn slot_layout(templates: &[Template], windows: Option<&[Vec<u8>; 2]>) -> Vec<u16> {
    // Where each template may go: bit w set when its columns lie in window w.
    let fits = |t: &Template| -> u8 {
        match windows {
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
    layout
}

/// The WebAssembly SIMD path's table lookups per generation (every quarter computed):
/// from each quarter's base column, and in at most two windows.
#[cfg(target_arch = "wasm32")]
#[derive(Default)]
struct Lookups {
    based: usize,
    pairs: usize,
}

/// Building a site's chunks ([`GenTables::new`]).
impl ChunkData {
    /// A chunk of padding: no template, stone [`PAD_STONE`] in every slot.
    fn empty() -> ChunkData {
        ChunkData {
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
        }
    }

    /// The lookup data and the meta of chunk `j`, whose slots hold the templates `ids`
    /// ([`NONE`] in padding); records each template's slot in `id_to_slot`.
    fn of(
        templates: &[Template],
        ids: &[u16],
        j: usize,
        windows: Option<&[Vec<u8>; 2]>,
        id_to_slot: &mut [u16],
    ) -> (ChunkData, ChunkMeta) {
        let mut cd = ChunkData::empty();
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
                cd.idx2[k][s] = match windows {
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
        (cd, m)
    }

    /// The WebAssembly SIMD path's lookups of the chunk whose slots hold `ids` (see the
    /// `w*` fields), and their count in `lookups`.
    #[cfg(target_arch = "wasm32")]
    fn with_wasm_windows(self, ids: &[u16], m: &ChunkMeta, lookups: &mut Lookups) -> ChunkData {
        let mut cd = self;
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
        for (q, quarter) in ids.chunks(16).enumerate() {
            if quarter.iter().any(|&id| id != NONE) {
                let based: usize = (0..m.len as usize).map(|k| cd.wn[k][q] as usize).sum();
                lookups.based += based;
                lookups.pairs += if cd.wide[q] { based } else { 2 * m.len as usize };
            }
        }
        cd
    }
}
