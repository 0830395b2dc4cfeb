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
