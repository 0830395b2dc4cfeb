//! The playout policy ([`PlayoutPolicy`]: answer the last move, bigger stones first), which
//! a tree's simulations play out by (`TreeSearch::playout`, in `tree.rs`), and a playout
//! of its own ([`playout()`]).

use rumis_core::{Move, Position, Rng, Site};

/// The playout policy, on the core's move bitsets without listing the moves: per generator
/// chunk, the slots of stones of 2, 3 and 4 cubes ("bigger stones first") and, per column,
/// the slots of the placements that cover it ("answer the last move").
pub(super) struct PlayoutPolicy {
    pub(super) sizes: [Vec<u64>; 3],
    /// Column `c`'s words are `covers[c * chunks..(c + 1) * chunks]`.
    pub(super) covers: Vec<u64>,
    pub(super) chunks: usize,
    pub(super) big_first: bool,
    pub(super) answer: bool,
    /// The words of the placements covering the last move's columns, then (`scratch`) of
    /// those in the set.
    pub(super) covered: Vec<u64>,
    pub(super) scratch: Vec<u64>,
    /// The words of the biggest stones `pick_in` draws from, per word set (see
    /// [`PlyDraws`]).
    pub(super) masked: [Vec<u64>; 2],
}

/// What the draws of one ply from one set share ([`PlayoutPolicy::pick_again`]): the
/// count of the placements answering the last move once they are in `scratch`, and per
/// word set drawn from (0: those answers, 1: the whole set) the count of its biggest
/// stones' placements once `pick_in` has put them in `masked`. Informed playouts draw four
/// times a ply; each draw after the first then skips the masking and counting, and takes
/// the same random numbers (the same games).
#[derive(Default)]
pub(super) struct PlyDraws {
    pub(super) answers: Option<usize>,
    pub(super) biggest: [Option<usize>; 2],
}

/// The word sets of [`PlyDraws::biggest`].
const ANSWERS: usize = 0;
const WHOLE_SET: usize = 1;

impl PlayoutPolicy {
    pub(super) fn new(site: &Site, big_first: bool, answer: bool) -> PlayoutPolicy {
        let tables = site.gen_tables();
        let chunks = tables.chunk_count();
        let mut sizes = [vec![0u64; chunks], vec![0u64; chunks], vec![0u64; chunks]];
        let mut covers = vec![0u64; chunks * site.footprint().max().map_or(0, |c| c + 1)];
        for slot in 0..chunks * 64 {
            if let Some(m) = tables.slot_template(slot) {
                let t = site.template(m);
                sizes[t.stone.size() - 2][slot / 64] |= 1 << (slot % 64);
                for &c in &t.columns[..t.len as usize] {
                    covers[c as usize * chunks + slot / 64] |= 1 << (slot % 64);
                }
            }
        }
        PlayoutPolicy {
            sizes,
            covers,
            chunks,
            big_first,
            answer,
            covered: vec![0; chunks],
            scratch: vec![0; chunks],
            masked: [vec![0; chunks], vec![0; chunks]],
        }
    }

    /// Half the time (when answering) a placement that covers a column of the last move, if
    /// there is one; else three times in four (when bigger stones go first) a uniformly
    /// random placement of the biggest stones that have one; else a uniformly random
    /// placement (`n` > 0 placements in `set`).
    pub(super) fn pick(
        &mut self,
        site: &Site,
        set: &rumis_core::MoveSet,
        n: usize,
        last: Option<Move>,
        rng: &mut Rng,
    ) -> Move {
        self.pick_again(site, set, n, last, rng, &mut PlyDraws::default())
    }

    /// [`Self::pick`], drawn again from the same set after the last move `last`:
    /// `answers` keeps whether the placements answering it are in `scratch` already (and
    /// whether there are any), so that several draws a ply find them once.
    pub(super) fn pick_again(
        &mut self,
        site: &Site,
        set: &rumis_core::MoveSet,
        n: usize,
        last: Option<Move>,
        rng: &mut Rng,
        draws: &mut PlyDraws,
    ) -> Move {
        if let Some(last) = last.filter(|_| self.answer && rng.below(2) == 0) {
            let answers = match draws.answers {
                Some(count) => count,
                None => {
                    // The placements covering a column of the last move: the columns' words
                    // ORed (a column at a time, which the compiler does several words at
                    // once), then those of the set, counted.
                    let t = site.template(last);
                    let chunks = self.chunks;
                    self.covered.fill(0);
                    for &c in &t.columns[..t.len as usize] {
                        let c = c as usize * chunks;
                        for (out, cover) in self.covered.iter_mut().zip(&self.covers[c..c + chunks]) {
                            *out |= cover;
                        }
                    }
                    let count = site
                        .gen_tables()
                        .mask_words(set.words(), &self.covered, &mut self.scratch);
                    *draws.answers.insert(count)
                }
            };
            if answers > 0 {
                let scratch = std::mem::take(&mut self.scratch);
                let m = self.pick_in(site, &scratch, answers, ANSWERS, draws, rng);
                self.scratch = scratch;
                return m;
            }
        }
        self.pick_rest(site, set, n, draws, rng)
    }

    /// The draw when not answering: bigger stones first or uniform.
    pub(super) fn pick_rest(
        &mut self,
        site: &Site,
        set: &rumis_core::MoveSet,
        n: usize,
        draws: &mut PlyDraws,
        rng: &mut Rng,
    ) -> Move {
        if self.big_first {
            return self.pick_in(site, set.words(), n, WHOLE_SET, draws, rng);
        }
        set.pick(site.gen_tables(), n, rng)
            .expect("the colour to move has a placement")
    }

    /// A placement of the bitset `words` of `count` > 0 placements: three times in four
    /// (when bigger stones go first) among the biggest stones, else among all.
    /// `source` names `words` for `draws` (`ANSWERS` or `WHOLE_SET`).
    pub(super) fn pick_in(
        &mut self,
        site: &Site,
        words: &[u64],
        count: usize,
        source: usize,
        draws: &mut PlyDraws,
        rng: &mut Rng,
    ) -> Move {
        let tables = site.gen_tables();
        if self.big_first && rng.below(4) != 0 {
            let masked = &mut self.masked[source];
            let biggest = *draws.biggest[source].get_or_insert_with(|| {
                // The biggest stones that have a placement here.
                self.sizes
                    .iter()
                    .rev()
                    .map(|mask| tables.mask_words(words, mask, masked))
                    .find(|&count| count > 0)
                    .unwrap_or(0)
            });
            if biggest > 0 {
                if let Some(m) = tables.nth_in_words(masked, rng.below(biggest)) {
                    return m;
                }
            }
        }
        // The draw `pick_in_words` makes, with the count known.
        tables
            .nth_in_words(words, rng.below(count))
            .expect("a non-empty set of placements")
    }
}

/// Plays one game to the end from `pos` with the search's playout policy.
pub fn playout(site: &Site, pos: &mut Position, rng: &mut Rng) {
    let mut policy = PlayoutPolicy::new(site, true, true);
    let mut set = rumis_core::MoveSet::new();
    let mut last = None;
    while pos.to_move(site).is_some() {
        let n = pos.legal_set(site, &mut set);
        let m = policy.pick(site, &set, n, last, rng);
        pos.play_unchecked(site, m);
        last = Some(m);
    }
}
