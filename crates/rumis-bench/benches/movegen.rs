//! Criterion benchmarks of the kernels behind `rumis bench`: one legal-move generation per
//! code path (averaged over the positions of random Chullpa games), random playouts, and
//! bulk-counted perft. `cargo bench -p rumis-bench --bench movegen`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rumis_core::{perft_with, random_playout_in_place, Board, CodePath, MoveSet, Position, Rng, Site, Variant};

fn site(name: &str) -> Site {
    Site::new(Board::builtin(name).unwrap().clone(), 4, Variant::Standard, None).unwrap()
}

/// The positions of `games` random games.
fn positions(site: &Site, games: usize) -> Vec<Position> {
    let mut rng = Rng::new(2);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut p = Position::new(site);
        while !p.is_over() {
            out.push(p.clone());
            p.legal_moves(site, &mut moves);
            p.play_unchecked(site, moves[rng.below(moves.len())]);
        }
    }
    out
}

fn generation(c: &mut Criterion) {
    for name in ["chullpa", "coricancha"] {
        let s = site(name);
        let ps = positions(&s, 50);
        let mut g = c.benchmark_group(format!("generate/{name}"));
        g.throughput(Throughput::Elements(ps.len() as u64));
        for path in CodePath::available() {
            let mut set = MoveSet::new();
            g.bench_function(path.name(), |b| {
                b.iter(|| {
                    let mut n = 0;
                    for p in &ps {
                        n += p.legal_set_with(&s, path, &mut set).unwrap_or(0);
                    }
                    black_box(n)
                })
            });
        }
        g.finish();
    }
}

fn playouts(c: &mut Criterion) {
    for name in ["chullpa", "coricancha"] {
        let s = site(name);
        let start = Position::new(&s);
        let mut g = c.benchmark_group(format!("playout/{name}"));
        g.throughput(Throughput::Elements(100));
        for path in CodePath::available() {
            let mut rng = Rng::new(1);
            let mut set = MoveSet::new();
            let mut p = start.clone();
            g.bench_function(path.name(), |b| {
                b.iter(|| {
                    for _ in 0..100 {
                        p.clone_from(&start);
                        random_playout_in_place(&s, &mut p, &mut rng, path, &mut set).unwrap();
                        black_box(&p);
                    }
                })
            });
        }
        g.finish();
    }
}

fn perft3(c: &mut Criterion) {
    let s = site("chullpa");
    let start = Position::new(&s);
    let mut g = c.benchmark_group("perft3/chullpa");
    g.sample_size(10);
    g.throughput(Throughput::Elements(39_583_340));
    for path in CodePath::available().into_iter().filter(|&p| p != CodePath::Scalar) {
        g.bench_function(path.name(), |b| b.iter(|| black_box(perft_with(&s, &start, 3, path))));
    }
    g.finish();
}

criterion_group!(benches, generation, playouts, perft3);
criterion_main!(benches);
