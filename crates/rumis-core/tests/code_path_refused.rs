//! Forcing a code path this process may not run is refused with a clear error, and
//! nothing is computed or played.
//!
//! Running AVX-512 or AVX2 code on a CPU without those instructions is undefined
//! behaviour, so every public function that takes a [`CodePath`] checks it. A test cannot
//! take instructions away from the CPU it runs on; it lowers the process's ceiling
//! instead: `RUMIS_CODE_PATH=scalar` makes the wider paths unavailable to this process
//! through the same `CodePath::is_available` check that a CPU lacking them fails. (This
//! file holds one test, so that setting the variable before the first check is the whole
//! process's setting; the ceiling is read once.) On a CPU that really lacks a path, the
//! last part checks the refusal for that path without any ceiling's help, through
//! `CodePath::cpu_has`.

use rumis_core::{
    perft_with, random_playout_in_place, random_playout_with, Board, CodePath, CodePathUnavailable, MoveSet, Position,
    Rng, Site, Variant,
};

#[test]
fn a_path_this_process_may_not_run_is_refused() {
    // Before anything in the core reads the variable (it is read once per process).
    std::env::set_var("RUMIS_CODE_PATH", "scalar");

    let board = Board::builtin("chullpa").unwrap().clone();
    let site = Site::new(board, 2, Variant::Standard, None).unwrap();
    let start = Position::new(&site);
    let mut moves = Vec::new();
    start.legal_moves(&site, &mut moves);
    assert_eq!(CodePath::available(), vec![CodePath::Scalar]);
    assert_eq!(CodePath::active(), CodePath::Scalar);

    for path in [CodePath::Avx512, CodePath::Avx2] {
        let refused = CodePathUnavailable { path };
        assert!(!path.is_available());
        assert_eq!(path.check(), Err(refused));

        // Every public function taking a path refuses it and changes nothing.
        let mut set = MoveSet::new();
        assert_eq!(start.legal_set_with(&site, path, &mut set), Err(refused));
        assert!(set.is_empty());
        let mut pos = start.clone();
        assert_eq!(pos.play_generate_with(&site, moves[0], path, &mut set), Err(refused));
        assert_eq!(pos, start, "{path}: nothing played");
        assert_eq!(perft_with(&site, &start, 2, path), Err(refused));
        assert_eq!(random_playout_with(&site, &start, &mut Rng::new(1), path), Err(refused));
        assert_eq!(
            random_playout_in_place(&site, &mut pos, &mut Rng::new(1), path, &mut set),
            Err(refused)
        );
        assert_eq!(pos, start, "{path}: no playout");

        // The message names the path, says why and what can run.
        let why = if path.cpu_has() {
            "RUMIS_CODE_PATH forces a narrower one"
        } else {
            "this CPU lacks its instructions"
        };
        assert_eq!(
            refused.to_string(),
            format!(
                "the {} code path is not available ({why}); available: scalar",
                path.name()
            )
        );
    }

    // The scalar path still runs, with the pinned figure (perft(2) of 2-player Chullpa).
    let scalar = perft_with(&site, &start, 2, CodePath::Scalar).unwrap();
    assert_eq!(scalar, rumis_core::perft(&site, &start, 2));

    // A path the CPU itself lacks (none on a CPU with AVX-512 VBMI) is refused for that
    // reason.
    for path in CodePath::ALL.into_iter().filter(|p| !p.cpu_has()) {
        let e = path.check().unwrap_err();
        assert!(e.to_string().contains("this CPU lacks its instructions"), "{e}");
    }
}
