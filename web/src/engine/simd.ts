// Which of the engine's three modules this browser can run: the one compiled with
// WebAssembly SIMD and relaxed SIMD, the one with SIMD alone (the move generator's simd128
// path either way), or the portable scalar one. Both are compile-time features of a
// module — an engine without one refuses the whole module — so the question is asked of
// tiny modules that use one instruction each.

/** `(func (result v128) i32.const 0 i8x16.splat)`: valid only where SIMD is. */
const PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // types: () -> v128
  0x03, 0x02, 0x01, 0x00, // one function of type 0
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b, // body: i32.const 0, i8x16.splat, end
]);

/** `(func (result v128) (i8x16.relaxed_swizzle (i8x16.splat 0) (i8x16.splat 0)))`: valid
 * only where relaxed SIMD is. */
const RELAXED_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // types: () -> v128
  0x03, 0x02, 0x01, 0x00, // one function of type 0
  0x0a, 0x0f, 0x01, 0x0d, 0x00, // code: one body of 13 bytes, no locals
  0x41, 0x00, 0xfd, 0x0f, 0x41, 0x00, 0xfd, 0x0f, // (i32.const 0, i8x16.splat) twice
  0xfd, 0x80, 0x02, 0x0b, // i8x16.relaxed_swizzle (0xfd 0x100), end
]);

function validates(probe: Uint8Array<ArrayBuffer>): boolean {
  try {
    return WebAssembly.validate(probe);
  } catch {
    return false;
  }
}

export function hasSimd(): boolean {
  return validates(PROBE);
}

export function hasRelaxedSimd(): boolean {
  return validates(PROBE) && validates(RELAXED_PROBE);
}

/** The module to load: the relaxed-SIMD one where it runs, else the SIMD one where that
 * runs, else the scalar one. */
export function pickModule(urls: { relaxed: string; simd: string; scalar: string }): string {
  return hasRelaxedSimd() ? urls.relaxed : hasSimd() ? urls.simd : urls.scalar;
}
