//! Which code path computes the legal-move sets: what the CPU (or the WebAssembly
//! module) has, and what `RUMIS_CODE_PATH` allows.

use super::*;

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
pub(super) fn ceiling() -> u8 {
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
