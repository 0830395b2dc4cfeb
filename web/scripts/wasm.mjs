// Builds the engine's three WebAssembly modules (crates/rumis-wasm: the core and the AI) and
// puts them where the app imports them (src/engine/, not kept in git):
// - rumis.wasm: the portable scalar generator, for any engine;
// - rumis-simd.wasm: compiled with WebAssembly SIMD (`-C target-feature=+simd128`), whose
//   generator runs the simd128 path. An engine without SIMD cannot even compile it, so
//   the app loads it only where `WebAssembly.validate` accepts a tiny SIMD module
//   (src/engine/simd.ts);
// - rumis-relaxed.wasm: SIMD and relaxed SIMD (`+simd128,+relaxed-simd`): the same path
//   with `i8x16.relaxed_swizzle` where its answer is every engine's (the core's `lut`),
//   for engines that validate a tiny relaxed-SIMD module (Chromium since 114).
// Each module has its own target directory, apart from the workspace's `target/debug`: other
// RUSTFLAGS in the same one would make each build undo the other's, and a directory of
// their own lets them build at once, beside a `cargo test` of the workspace (scripts/test)
// instead of waiting for its lock. Each build ends in one single-threaded LTO step, so the
// three at once keep both cores busy. Cargo rebuilds only what changed, so this is quick when nothing
// did. Needs `rustup target add wasm32-unknown-unknown` (.ci/run does it); without the
// target it fails and says so.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { copyFileSync, renameSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const target = process.env.CARGO_TARGET_DIR ?? join(root, "target");
const engineDir = join(root, "web", "src", "engine");
export const WASM = join(engineDir, "rumis.wasm");
export const WASM_SIMD = join(engineDir, "rumis-simd.wasm");
export const WASM_RELAXED = join(engineDir, "rumis-relaxed.wasm");

async function build(targetDir, rustflags, out) {
  const env = { ...process.env, CARGO_TARGET_DIR: targetDir };
  // The SIMD build's flags replace any the caller set, so the builds stay apart.
  if (rustflags) env.RUSTFLAGS = rustflags;
  else delete env.RUSTFLAGS;
  try {
    await promisify(execFile)("cargo", ["build", "--quiet", "-p", "rumis-wasm", "--target", "wasm32-unknown-unknown", "--profile", "wasm"], {
      cwd: root,
      env,
      maxBuffer: 64 << 20,
    });
  } catch (e) {
    throw new Error(
      `building the WebAssembly engine failed (is the target installed? \`rustup target add wasm32-unknown-unknown\`): ${e.message}\n${e.stderr ?? ""}`,
    );
  }
  // Copied aside, then renamed into place: the unit tests that load a module each build it
  // first, at once in several processes, and none may read a module half copied.
  const aside = `${out}.${process.pid}.tmp`;
  copyFileSync(join(targetDir, "wasm32-unknown-unknown", "wasm", "rumis_wasm.wasm"), aside);
  renameSync(aside, out);
  return out;
}

/** Builds the three modules, at once: `{ scalar, simd, relaxed }`, their paths. */
export async function buildWasmModules() {
  const [scalar, simd, relaxed] = await Promise.all([
    build(join(target, "wasm-scalar"), null, WASM),
    build(join(target, "wasm-simd"), "-C target-feature=+simd128", WASM_SIMD),
    build(join(target, "wasm-relaxed"), "-C target-feature=+simd128,+relaxed-simd", WASM_RELAXED),
  ]);
  return { scalar, simd, relaxed };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [name, path] of Object.entries(await buildWasmModules())) {
    console.log(`engine module (${name}): ${path} (${(statSync(path).size / 1024).toFixed(0)} KiB)`);
  }
}
