//! The set of legal placements: a bitset over the slots.

use super::*;

/// A set of placements of one site: a bitset over the site's generator slots
/// ([`GenTables`]), so membership, counting and a uniform pick cost a few instructions.
/// Iteration yields template ids in slot order; [`MoveSet::to_moves`] sorts them by id.
#[derive(Clone)]
pub struct MoveSet {
    pub(super) words: [u64; MAX_CHUNKS],
    /// Words in use (the site's chunk count).
    pub(super) n: usize,
    /// `ends[j + 1]`: the number of placements in words `0..=j` (`ends[0]` is 0), written
    /// by the AVX-512 kernels on sites of at most 32 chunks for their playouts' pick
    /// (`MoveSet::pick_slot_on`); stale after any other writer.
    pub(super) ends: [u16; MAX_CHUNKS + 1],
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
            ends: [0; MAX_CHUNKS + 1],
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
    pub(super) fn nth_in(&self, tables: &GenTables, i: usize, path: CodePath) -> Move {
        Move(tables.slot_to_id[self.nth_slot(tables, i, path)])
    }

    /// The slot of the `i`-th placement in slot order, `i < len()`.
    #[inline(always)]
    pub(super) fn nth_slot(&self, tables: &GenTables, i: usize, path: CodePath) -> usize {
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
    /// `slot_template`): what a playout places next, by [`GenTables::placing`]. On the
    /// AVX-512 path with at most 32 words, the set must come from that path's generator
    /// (as a playout's does), whose running counts (`ends`) it reads: the word is found by
    /// one comparison of them all, without the loop whose exit the branch predictor
    /// misses once a pick, on the chain from one ply to the next.
    #[inline(always)]
    pub(crate) fn pick_slot_on(&self, tables: &GenTables, len: usize, rng: &mut Rng, path: CodePath) -> Option<usize> {
        if len == 0 {
            return None;
        }
        let i = rng.below(len);
        #[cfg(target_arch = "x86_64")]
        if path == CodePath::Avx512 && self.n <= 32 {
            // SAFETY: the AVX-512 path is only used where it is available.
            let slot = unsafe { x86::nth_slot_by_ends(&self.words, &self.ends, self.n, i) };
            debug_assert_eq!(slot, self.nth_slot(tables, i, path), "the ends of the words");
            return Some(slot);
        }
        Some(self.nth_slot(tables, i, path))
    }
}
