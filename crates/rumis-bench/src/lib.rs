//! Nothing but a home for the Criterion benchmarks in `benches/` (`cargo bench -p
//! rumis-bench --bench movegen`); `rumis bench` and `scripts/compare-speed` are the
//! project's speed figures (docs/performance.md).
