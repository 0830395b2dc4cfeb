//! The updater: playing a placement onto a position (the cubes, their contact masks, the
//! stones, the hash, whose turn it is), retiring a colour and placing the ruins.

use super::*;

/// A placement's runs of cubes: per covered column (the first `len`), the column and the
/// number of cubes; what [`Position::add_cubes`] needs, from a template or a slot's
/// [`Placing`].
struct Runs {
    columns: [u8; 4],
    count: [u8; 4],
    len: u8,
}

impl Runs {
    #[inline(always)]
    fn of(t: &Template) -> Runs {
        Runs {
            columns: t.columns,
            count: t.count,
            len: t.len,
        }
    }

    #[inline(always)]
    fn from_placing(p: &Placing) -> Runs {
        Runs {
            columns: p.columns,
            count: [p.count(0), p.count(1), p.count(2), p.count(3)],
            len: p.len(),
        }
    }
}

impl Position {
    /// Plays a legal placement for the colour to move.
    pub fn play(&mut self, site: &Site, m: Move) -> Result<(), Illegal> {
        self.check(site, m)?;
        self.play_unchecked(site, m);
        Ok(())
    }

    /// Makes this position a copy of `from`, both positions of `site`: what `clone_from`
    /// gives, but only the board's columns are copied (rounded up to whole 64-byte groups,
    /// as the AVX-512 placement reads and writes them, so that its loads take their data
    /// from these stores). The entries past the board's columns are zero in every position
    /// of a site — nothing writes them — and a position is 2.6 kB, most of it those entries:
    /// perft copies one per leaf's parent, and the full copy was a fifth of its time.
    #[inline(always)]
    ///
    /// `CUBES` false leaves the cubes as they were: for a position that is only played
    /// with `play_count` and dropped (perft's last ply), which never reads them.
    pub(crate) fn copy_from_same_site<const CUBES: bool>(&mut self, from: &Position, site: &Site) {
        // Naming every field: a new one is a compile error here, not a field left stale.
        let Position {
            heights: _,
            cubes: _,
            touch: _,
            left,
            ruins_left,
            used,
            placed,
            cube_count,
            seat,
            out,
            forfeited,
            plies,
            hash,
            hash_stale,
        } = *from;
        for g in 0..site.columns.div_ceil(64).min(MAX_COLUMNS / 64) {
            let r = 64 * g..64 * g + 64;
            self.heights[r.clone()].copy_from_slice(&from.heights[r]);
        }
        for g in 0..site.columns.div_ceil(32).min(MAX_COLUMNS / 32) {
            let r = 32 * g..32 * g + 32;
            for kind in 0..5 {
                if CUBES {
                    self.cubes[kind][r.clone()].copy_from_slice(&from.cubes[kind][r.clone()]);
                }
                self.touch[kind][r.clone()].copy_from_slice(&from.touch[kind][r.clone()]);
            }
        }
        (self.left, self.ruins_left, self.used, self.placed) = (left, ruins_left, used, placed);
        (self.cube_count, self.seat, self.out, self.plies) = (cube_count, seat, out, plies);
        (self.forfeited, self.hash, self.hash_stale) = (forfeited, hash, hash_stale);
    }

    /// Plays a placement known to be legal for the colour to move, then passes the turn to
    /// the next colour that can place; a colour passed over is out, or under
    /// [`StuckRule::Pass`] passes (see `Position::settle_by` in the source).
    pub fn play_unchecked(&mut self, site: &Site, m: Move) {
        let next = self.place::<true, true>(site, m, CodePath::Scalar);
        self.settle(site, next);
    }

    /// Plays a placement known to be legal for the colour to move, like
    /// [`Position::play_unchecked`], and leaves in `set` the legal placements of the colour
    /// that moves next (empty when the game is over), found on `path`; returns their
    /// number; refused (and nothing played) when this process cannot run `path`. Each
    /// colour passed over costs one generation.
    pub fn play_generate_with(
        &mut self,
        site: &Site,
        m: Move,
        path: CodePath,
        set: &mut MoveSet,
    ) -> Result<usize, CodePathUnavailable> {
        let path = path.check()?;
        Ok(self.play_generate::<true>(site, m, path, set))
    }

    /// [`Position::play_generate_with`] without keeping the Zobrist hash up to date: for
    /// playouts, which only score where they end. The hash is computed afresh if it is
    /// asked for later ([`Position::hash`], a pass over the whole board), so where hashes
    /// are read along the way the other is cheaper.
    pub fn play_generate_unhashed_with(
        &mut self,
        site: &Site,
        m: Move,
        path: CodePath,
        set: &mut MoveSet,
    ) -> Result<usize, CodePathUnavailable> {
        let path = path.check()?;
        Ok(self.play_generate::<false>(site, m, path, set))
    }

    /// [`Position::play_generate_with`] without the check, for the crate's loops (perft,
    /// playouts) that checked `path` once at their entry: a path this CPU cannot run would
    /// execute instructions it does not have, so this must never be public.
    #[inline(always)]
    ///
    /// `HASH` false skips the hash's updates and marks it stale (see `hash_stale`): for the
    /// loops that only count or score what they play.
    pub(crate) fn play_generate<const HASH: bool>(
        &mut self,
        site: &Site,
        m: Move,
        path: CodePath,
        set: &mut MoveSet,
    ) -> usize {
        if !HASH {
            self.hash_stale = true;
        }
        let next = self.place::<true, HASH>(site, m, path);
        self.settle_generate::<HASH>(site, next, path, set)
    }

    /// [`Position::play_generate`] of the placement in generator slot `slot` (a slot of a
    /// legal placement, as the pick gives it).
    #[inline(always)]
    pub(crate) fn play_generate_slot<const HASH: bool>(
        &mut self,
        site: &Site,
        slot: usize,
        path: CodePath,
        set: &mut MoveSet,
    ) -> usize {
        if !HASH {
            self.hash_stale = true;
        }
        let next = self.place_slot::<true, HASH>(site, slot, path);
        self.settle_generate::<HASH>(site, next, path, set)
    }

    /// The first half of [`Position::play_generate_slot`] (without the hash), for loops
    /// that generate for several games at once: places the stone in generator slot
    /// `slot` and returns the seat from which the turn passes on, for
    /// [`Position::next_input`] and [`Position::settle_generate_given`].
    #[inline(always)]
    pub(crate) fn place_slot_unhashed(&mut self, site: &Site, slot: usize, path: CodePath) -> usize {
        self.hash_stale = true;
        self.place_slot::<true, false>(site, slot, path)
    }

    /// [`Position::place_slot_unhashed`] of the placement `m` (legal for the colour to
    /// move), by its template id.
    #[inline(always)]
    pub(crate) fn place_unhashed(&mut self, site: &Site, m: Move, path: CodePath) -> usize {
        self.hash_stale = true;
        self.place::<true, false>(site, m, path)
    }

    /// What passing the turn from seat `from` generates first: the input of the first
    /// colour from there on, in order of play, that is not out and has a stone left
    /// (`settle_by`'s first count); `None` when it generates nothing (the game ends).
    #[inline(always)]
    pub(crate) fn next_input(&self, site: &Site, from: usize) -> Option<GenInput<'_>> {
        let n = site.order.len();
        (0..n)
            .map(|i| site.order[if from + i >= n { from + i - n } else { from + i }])
            .find(|&c| !self.is_out(c) && self.left[c.index()] != 0)
            .map(|c| self.gen_input(c))
    }

    /// The second half of [`Position::play_generate_slot`]: passes the turn from seat
    /// `from`, given the count `given` (with the placements in `set`) of the first colour
    /// it generates for (what [`Position::next_input`] gave); a colour passed over costs
    /// one generation more, as there (and every colour, `given` being `None`). Returns
    /// what `play_generate_slot` does.
    #[inline(always)]
    pub(crate) fn settle_generate_given(
        &mut self,
        site: &Site,
        from: usize,
        path: CodePath,
        set: &mut MoveSet,
        given: Option<usize>,
    ) -> usize {
        let mut given = given;
        let n = self.settle_by::<false>(site, from, |input| match given.take() {
            Some(c) => c,
            None => movegen::generate(site.gen_tables(), input, path, set),
        });
        if n == 0 {
            set.clear();
        }
        n
    }

    /// Puts the stone on the structure; returns the next seat.
    #[inline(always)]
    ///
    /// `CUBES` false leaves the cubes stale: only for a position that is counted and
    /// dropped (`play_count`), as nothing that counts placements reads them. `HASH` false
    /// leaves the hash as it was: the caller marks it stale.
    pub(super) fn place<const CUBES: bool, const HASH: bool>(&mut self, site: &Site, m: Move, path: CodePath) -> usize {
        // Where slots have deltas (see `place_slot`), by the move's slot.
        #[cfg(target_arch = "x86_64")]
        if !HASH && matches!(path, CodePath::Avx512 | CodePath::Avx2) && site.gen_tables().has_deltas() {
            return self.place_slot::<CUBES, HASH>(site, site.gen_tables().template_slot(m), path);
        }
        let t = site.template(m);
        self.place_runs::<CUBES, HASH>(site, &Runs::of(t), t.stone.index(), path)
    }

    /// [`Position::place`] of the template in a generator slot, read from the slot's
    /// [`Placing`] (one load from the pick's slot, where the template id and then the
    /// template are two).
    #[inline(always)]
    fn place_slot<const CUBES: bool, const HASH: bool>(&mut self, site: &Site, slot: usize, path: CodePath) -> usize {
        #[cfg(target_arch = "x86_64")]
        if !HASH && matches!(path, CodePath::Avx512 | CodePath::Avx2) {
            if let Some(d) = site.gen_tables().slot_delta(slot) {
                let k = site.order[self.seat as usize].index();
                if path == CodePath::Avx512 {
                    // SAFETY: `path` is available (see `place_runs`), and the site has at
                    // most 32 columns (it has deltas).
                    unsafe { self.add_slot_avx512::<CUBES>(d, k) };
                } else {
                    // SAFETY: as above (AVX2).
                    unsafe { self.add_slot_avx2::<CUBES>(d, k) };
                }
                return self.placed_stone::<HASH>(site, k, d.stone as usize);
            }
        }
        let p = site.gen_tables().placing(slot);
        self.place_runs::<CUBES, HASH>(site, &Runs::from_placing(&p), p.stone(), path)
    }

    /// What [`Position::place`] does, given the stone's runs and its index.
    #[inline(always)]
    fn place_runs<const CUBES: bool, const HASH: bool>(
        &mut self,
        site: &Site,
        t: &Runs,
        stone: usize,
        path: CodePath,
    ) -> usize {
        let colour = site.order[self.seat as usize];
        let k = colour.index();
        match path {
            // SAFETY: `path` is available: `place` is private, and its public ways in
            // (`play_unchecked` on the scalar path, `play_generate_with`) check it; the
            // crate-private `play_generate` is only reached from loops that checked it.
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx512 => unsafe { self.add_cubes_avx512::<CUBES, HASH>(site, t, k) },
            _ => self.add_cubes::<HASH>(site, t, k),
        }
        self.placed_stone::<HASH>(site, k, stone)
    }

    /// The rest of a placement of `stone` by colour index `k`, its cubes added: the stone
    /// used, the counts, the next seat (returned).
    #[inline(always)]
    fn placed_stone<const HASH: bool>(&mut self, site: &Site, k: usize, stone: usize) -> usize {
        // A stone's index is below 11 (a nibble in `Placing`, masked so).
        let bit = 1u16 << (stone & 15);
        self.left[k] &= !bit;
        self.used[k] |= bit;
        if HASH {
            self.hash ^= stone_key(k, Stone::ALL[stone % STONE_COUNT]);
        }
        self.placed[k] += 1;
        self.plies += 1;
        let next = self.seat as usize + 1;
        if next == site.order.len() {
            0
        } else {
            next
        }
    }

    /// A colour leaves the game now (it resigned or its time ran out): it has *forfeited*
    /// (rules §5.1). It is out from here on, as if it had no placement (rules §5), keeps
    /// its score with a point off per stone it did not place, and ranks below every colour
    /// that did not forfeit. When at most one player has not forfeited (a player forfeits
    /// by any colour of theirs leaving), the game ends at once; otherwise, when it was to move, the turn passes on as
    /// after a placement, and the colour to move stays the same if not.
    pub fn retire(&mut self, site: &Site, colour: Colour) -> Result<(), RetireError> {
        if self.is_over() {
            return Err(RetireError::GameOver);
        }
        if !site.order.contains(&colour) {
            return Err(RetireError::NotInGame(colour));
        }
        if self.is_out(colour) {
            return Err(RetireError::AlreadyOut(colour));
        }
        let was_to_move = self.to_move(site) == Some(colour);
        self.out |= 1 << colour.index();
        self.forfeited |= 1 << colour.index();
        self.hash ^= out_key(colour.index());
        if self.only_one_player_stays(site) {
            self.end_now();
        } else if was_to_move {
            let next = (self.seat as usize + 1) % site.order.len();
            self.settle(site, next);
        }
        Ok(())
    }

    /// Whether at most one player has not forfeited (a player forfeits by any colour of
    /// theirs leaving: rules §5.1).
    fn only_one_player_stays(&self, site: &Site) -> bool {
        let mut staying = [true; 4];
        for &c in &site.order {
            if let Some(p) = site.player_of(c).filter(|&p| p < 4) {
                staying[p] &= !self.has_forfeited(c);
            }
        }
        staying[..site.players().min(4)].iter().filter(|&&s| s).count() <= 1
    }

    /// Ends the game here: every colour is out, the turn at the first seat (as when the
    /// game ends by itself).
    fn end_now(&mut self) {
        self.hash ^= turn_key(self.seat);
        for k in 0..4 {
            if self.out >> k & 1 == 0 {
                self.out |= 1 << k;
                self.hash ^= out_key(k);
            }
        }
        self.seat = 0;
        self.hash ^= turn_key(0);
    }

    /// Whether a colour forfeited the game (resigned, or ran out of time: rules §5.1).
    pub fn has_forfeited(&self, c: Colour) -> bool {
        self.forfeited >> c.index() & 1 == 1
    }

    /// Places a ruin stone (Ruinas, before the first move): rules 1-4, no contact.
    pub fn place_ruin(&mut self, site: &Site, m: Move) -> Result<(), Illegal> {
        let t = site.template(m);
        if self.ruins_left >> t.stone.index() & 1 == 0 {
            return Err(Illegal::StoneUsed {
                colour: None,
                stone: t.stone,
            });
        }
        self.check_structure(site, t)?;
        self.add_cubes::<true>(site, &Runs::of(t), RUIN);
        self.ruins_left &= !(1 << t.stone.index());
        self.used[RUIN] |= 1 << t.stone.index();
        // The structure changed before the first move: whether a colour can move is
        // decided afresh.
        self.out = absent_colours(site);
        self.seat = 0;
        self.settle(site, 0);
        self.hash = self.hash_from_scratch();
        self.hash_stale = false;
        Ok(())
    }

    #[inline(always)]
    fn add_cubes<const HASH: bool>(&mut self, site: &Site, t: &Runs, kind: usize) {
        for i in 0..t.len as usize {
            let c = t.columns[i] as usize & (MAX_COLUMNS - 1);
            let k = t.count[i];
            let h = self.heights[c];
            // h + k <= 15: the run's bits and the cell above it fit in 16 bits.
            let run = ((1u16 << k) - 1) << h;
            self.cubes[kind][c] |= run;
            if HASH {
                self.hash ^= site.run_key(kind, c, h, k);
            }
            // The cell above shares a face with the top cube, and so do the cells beside
            // each cube.
            self.touch[kind][c] |= run << 1;
            for &n in site.neighbours(c) {
                self.touch[kind][n as usize & (MAX_COLUMNS - 1)] |= run;
            }
            self.heights[c] = h + k;
            self.cube_count += k as u16;
        }
    }

    /// [`Position::add_cubes`] with the heights and contact masks updated by whole 64-byte
    /// vectors: the generator reads them right after, with wide loads, which could not
    /// take their data from narrow stores still in flight and would wait for them.
    /// Callable (with `unsafe`) only where the CPU has AVX-512 F and BW.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn add_cubes_avx512<const CUBES: bool, const HASH: bool>(&mut self, site: &Site, t: &Runs, kind: usize) {
        use std::arch::x86_64::*;
        let len = (t.len as usize).min(4);
        let mut runs = [0u16; 4];
        let mut cols = [0usize; 4];
        for i in 0..len {
            let c = t.columns[i] as usize & (MAX_COLUMNS - 1);
            let k = t.count[i];
            let h = self.heights[c];
            let run = ((1u16 << k) - 1) << h;
            if CUBES {
                self.cubes[kind][c] |= run;
            }
            if HASH {
                self.hash ^= site.run_key(kind, c, h, k);
            }
            self.cube_count += k as u16;
            runs[i] = run;
            cols[i] = c;
        }
        // Groups of 64 heights, 32 contact masks (MAX_COLUMNS = 128).
        for g in 0..site.columns.div_ceil(64).min(2) {
            // SAFETY: g <= 1 and `heights` has MAX_COLUMNS = 128 bytes: 64 bytes at 64 g
            // are ours to read and write (the store below).
            let p = unsafe { self.heights.as_mut_ptr().add(64 * g) };
            // SAFETY: see `p`.
            let mut v = unsafe { _mm512_loadu_si512(p.cast()) };
            for (&c, &k) in cols[..len].iter().zip(&t.count) {
                if c / 64 == g {
                    v = _mm512_mask_add_epi8(v, 1u64 << (c % 64), v, _mm512_set1_epi8(k as i8));
                }
            }
            // SAFETY: see `p`.
            unsafe { _mm512_storeu_si512(p.cast(), v) };
        }
        let touch = &mut self.touch[kind];
        for g in 0..site.columns.div_ceil(32).min(4) {
            // SAFETY: g <= 3 and a contact-mask row has MAX_COLUMNS = 128 u16s: 32 u16s
            // (64 bytes) at 32 g are ours to read and write (the store below).
            let p = unsafe { touch.as_mut_ptr().add(32 * g) };
            // SAFETY: see `p`.
            let mut v = unsafe { _mm512_loadu_si512(p.cast()) };
            for (&c, &run) in cols[..len].iter().zip(&runs) {
                let m = (site.neighbour_mask(c)[g / 2] >> (32 * (g % 2))) as u32;
                v = _mm512_or_si512(v, _mm512_maskz_set1_epi16(m, run as i16));
                if c / 32 == g {
                    let above = _mm512_maskz_set1_epi16(1 << (c % 32), (run << 1) as i16);
                    v = _mm512_or_si512(v, above);
                }
            }
            // SAFETY: see `p`.
            unsafe { _mm512_storeu_si512(p.cast(), v) };
        }
    }

    /// [`Position::add_cubes_avx512`] from a slot's [`SlotDelta`], without the hash: the
    /// height of the anchor's column is the stone's lowest level, by which the delta's
    /// contact and cube rows are shifted up. Callable (with `unsafe`) only where the CPU
    /// has AVX-512 F and BW, on a site of at most 32 columns (the rows cover 32).
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn add_slot_avx512<const CUBES: bool>(&mut self, d: &SlotDelta, kind: usize) {
        use std::arch::x86_64::*;
        let level = _mm_cvtsi32_si128(i32::from(self.heights[d.anchor as usize & (MAX_COLUMNS - 1)]));
        // SAFETY: each delta row is 64 bytes but the heights' 32 (read as 32); `heights`
        // and each row of `touch` and `cubes` have at least 64 bytes, read and written
        // here as one vector (whole, so that the generator's wide loads right after take
        // their data from this store).
        unsafe {
            let heights = self.heights.as_mut_ptr().cast();
            let added = _mm512_zextsi256_si512(_mm256_loadu_si256(d.heights.as_ptr().cast()));
            _mm512_storeu_si512(heights, _mm512_add_epi8(_mm512_loadu_si512(heights), added));
            let touch = self.touch[kind].as_mut_ptr().cast();
            let touched = _mm512_sll_epi16(_mm512_loadu_si512(d.touch.as_ptr().cast()), level);
            _mm512_storeu_si512(touch, _mm512_or_si512(_mm512_loadu_si512(touch), touched));
            if CUBES {
                let cubes = self.cubes[kind].as_mut_ptr().cast();
                let put = _mm512_sll_epi16(_mm512_loadu_si512(d.cubes.as_ptr().cast()), level);
                _mm512_storeu_si512(cubes, _mm512_or_si512(_mm512_loadu_si512(cubes), put));
            }
        }
        self.cube_count += u16::from(d.cube_count);
    }

    /// [`Position::add_slot_avx512`] by 32-byte vectors, where the CPU has AVX2 (callable
    /// with `unsafe` only there, on a site of at most 32 columns). The AVX2 generator reads
    /// 16 bytes at a time, each inside one of these stores.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx2")]
    fn add_slot_avx2<const CUBES: bool>(&mut self, d: &SlotDelta, kind: usize) {
        use std::arch::x86_64::*;
        let level = _mm_cvtsi32_si128(i32::from(self.heights[d.anchor as usize & (MAX_COLUMNS - 1)]));
        // SAFETY: each delta row has at least 32 bytes, as have `heights` and each row of
        // `touch` and `cubes` at offsets 0 and 32 (64 bytes and more); each is read and
        // written here as whole 32-byte vectors.
        unsafe {
            let heights = self.heights.as_mut_ptr().cast();
            let added = _mm256_loadu_si256(d.heights.as_ptr().cast());
            _mm256_storeu_si256(heights, _mm256_add_epi8(_mm256_loadu_si256(heights), added));
            for half in 0..2 {
                let touch = self.touch[kind].as_mut_ptr().add(16 * half).cast();
                let touched = _mm256_sll_epi16(_mm256_loadu_si256(d.touch.as_ptr().add(16 * half).cast()), level);
                _mm256_storeu_si256(touch, _mm256_or_si256(_mm256_loadu_si256(touch), touched));
                if CUBES {
                    let cubes = self.cubes[kind].as_mut_ptr().add(16 * half).cast();
                    let put = _mm256_sll_epi16(_mm256_loadu_si256(d.cubes.as_ptr().add(16 * half).cast()), level);
                    _mm256_storeu_si256(cubes, _mm256_or_si256(_mm256_loadu_si256(cubes), put));
                }
            }
        }
        self.cube_count += u16::from(d.cube_count);
    }

    /// Gives the turn to the first colour, from seat `from` on in order of play, that can
    /// place (see [`Position::settle_by`], where the rule lives).
    pub(super) fn settle(&mut self, site: &Site, from: usize) {
        let path = CodePath::active();
        self.settle_by::<true>(site, from, |input| {
            movegen::any(site.gen_tables(), input, path) as usize
        });
    }

    /// [`Position::settle`], keeping the generated placements of the colour to move.
    #[inline(always)]
    fn settle_generate<const HASH: bool>(
        &mut self,
        site: &Site,
        from: usize,
        path: CodePath,
        set: &mut MoveSet,
    ) -> usize {
        let n = self.settle_by::<HASH>(site, from, |input| {
            movegen::generate(site.gen_tables(), input, path, set)
        });
        if n == 0 {
            set.clear();
        }
        n
    }

    /// Passing the turn (rules §5-6), the one place that decides it: from seat `from` on in
    /// order of play, the first colour that can place is to move. A colour met that has no
    /// stone left is out. A colour met with stones but no placement is out for good under
    /// [`StuckRule::Out`]; under [`StuckRule::Pass`] it passes (it stays in and is asked
    /// again on its next turn). A full round without a placement ends the game: nothing on
    /// the structure changes while colours pass, so nobody will ever place again; every
    /// colour is then out. `count` gives the number of placements of a colour (and may
    /// keep them); returns the count of the colour to move, 0 when the game is over.
    #[inline(always)]
    /// `HASH` false leaves the hash as it was (see [`Position::place`]).
    fn settle_by<const HASH: bool>(
        &mut self,
        site: &Site,
        from: usize,
        mut count: impl FnMut(&GenInput) -> usize,
    ) -> usize {
        let n = site.order.len();
        if HASH {
            self.hash ^= turn_key(self.seat);
        }
        let mut passed = 0u8;
        for i in 0..n {
            let seat = if from + i >= n { from + i - n } else { from + i };
            let colour = site.order[seat];
            if self.is_out(colour) {
                continue;
            }
            if self.left[colour.index()] != 0 {
                let found = count(&self.gen_input(colour));
                if found > 0 {
                    self.seat = seat as u8;
                    if HASH {
                        self.hash ^= turn_key(self.seat);
                    }
                    return found;
                }
                // Only reached when a colour is stuck: the default rule's path pays nothing.
                if site.stuck_rule == StuckRule::Pass {
                    passed |= 1 << colour.index();
                    continue;
                }
            }
            self.out |= 1 << colour.index();
            if HASH {
                self.hash ^= out_key(colour.index());
            }
        }
        // The game is over: the colours that passed are out now too.
        while passed != 0 {
            let k = passed.trailing_zeros() as usize;
            self.out |= 1 << k;
            if HASH {
                self.hash ^= out_key(k);
            }
            passed &= passed - 1;
        }
        self.seat = 0;
        if HASH {
            self.hash ^= turn_key(0);
        }
        0
    }

    /// Plays the placement in generator slot `slot` (a slot of a legal placement for the
    /// colour to move), like [`Position::play_unchecked`]; returns the number of legal
    /// placements of the colour that moves next (0 when the game is over), counted on
    /// `path` (available) without listing them: the last ply of a bulk-counting perft.
    #[inline(always)]
    pub(crate) fn play_count(&mut self, site: &Site, slot: usize, path: CodePath) -> usize {
        self.hash_stale = true;
        let next = self.place_slot::<false, false>(site, slot, path);
        self.settle_by::<false>(site, next, |input| movegen::count(site.gen_tables(), input, path))
    }
}
