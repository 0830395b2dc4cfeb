// Which of the engine's two modules this browser can run: the one compiled with
// WebAssembly SIMD (the move generator's simd128 path) or the portable scalar one. SIMD is
// a compile-time feature of a module — an engine without it refuses the whole module — so
// the question is asked of a tiny module that uses one SIMD instruction.

/** `(func (result v128) i32.const 0 i8x16.splat)`: valid only where SIMD is. */
const PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // types: () -> v128
  0x03, 0x02, 0x01, 0x00, // one function of type 0
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b, // body: i32.const 0, i8x16.splat, end
]);

export function hasSimd(): boolean {
  try {
    return WebAssembly.validate(PROBE);
  } catch {
    return false;
  }
}

/** The module to load: the SIMD one where it runs, else the scalar one. */
export function pickModule(urls: { simd: string; scalar: string }): string {
  return hasSimd() ? urls.simd : urls.scalar;
}
