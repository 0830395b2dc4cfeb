//! The few transcendental functions the players use (the reward's margin, the priors'
//! softmax, the search's exploration term, the greedy evaluation's room), computed by the
//! `libm` crate's portable code rather than the platform's: `f32::ln` and friends call the
//! C library natively (glibc, with variants chosen by the CPU) and a port of musl's in
//! WebAssembly, which differ in the last bit for some inputs (`tanh(0.5)` among them, the
//! margin of a four-point lead). A search is many such values compared, so one bit could
//! choose another move: with these the same record and budget give the same search, hint
//! and review natively on every CPU and in the browser's engine.

#[inline]
pub fn ln(x: f32) -> f32 {
    libm::logf(x)
}

#[inline]
pub fn exp(x: f32) -> f32 {
    libm::expf(x)
}

#[inline]
pub fn exp64(x: f64) -> f64 {
    libm::exp(x)
}

#[inline]
pub fn tanh(x: f32) -> f32 {
    libm::tanhf(x)
}

#[cfg(test)]
mod tests {
    /// The values pinned are libm's; glibc's `tanhf(0.5)` is 0.46211717 (one bit up), so
    /// with `f32::tanh` natively the reward of a four-point lead was not the browser's.
    #[test]
    fn the_functions_are_the_portable_ones() {
        assert_eq!(super::tanh(0.5).to_bits(), 0.462_117_14_f32.to_bits());
        assert_eq!(super::tanh(-0.5).to_bits(), (-0.462_117_14_f32).to_bits());
        assert_eq!(super::ln(1.0), 0.0);
        assert_eq!(super::exp(0.0), 1.0);
        assert_eq!(super::exp64(0.0), 1.0);
    }
}
