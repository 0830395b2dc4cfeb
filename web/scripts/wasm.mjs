// Builds the engine's two WebAssembly modules (crates/rumis-wasm: the core and the AI) and
// puts them where the app imports them (src/engine/, not kept in git):
// - rumis.wasm: the portable scalar generator, for any engine;
// - rumis-simd.wasm: compiled with WebAssembly SIMD (`-C target-feature=+simd128`), whose
//   generator runs the simd128 path. An engine without SIMD cannot even compile it, so
//   the app loads it only where `WebAssembly.validate` accepts a tiny SIMD module
//   (src/engine/simd.ts).
// The SIMD build has its own target directory: other RUSTFLAGS in the same one would make
// each build undo the other's. Cargo rebuilds only what changed, so this is quick when
// nothing did. Needs `rustup target add wasm32-unknown-unknown` (.ci/run does it); without
// the target it fails and says so.
import { execFileSync } from "node:child_process";
import { copyFileSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const target = process.env.CARGO_TARGET_DIR ?? join(root, "target");
const engineDir = join(root, "web", "src", "engine");
export const WASM = join(engineDir, "rumis.wasm");
export const WASM_SIMD = join(engineDir, "rumis-simd.wasm");

function build(targetDir, rustflags, out) {
  const env = { ...process.env, CARGO_TARGET_DIR: targetDir };
  // The SIMD build's flags replace any the caller set, so the two builds stay apart.
  if (rustflags) env.RUSTFLAGS = rustflags;
  else delete env.RUSTFLAGS;
  try {
    execFileSync("cargo", ["build", "--quiet", "-p", "rumis-wasm", "--target", "wasm32-unknown-unknown", "--profile", "wasm"], {
      cwd: root,
      env,
      stdio: ["ignore", "inherit", "inherit"],
    });
  } catch (e) {
    throw new Error(
      `building the WebAssembly engine failed (is the target installed? \`rustup target add wasm32-unknown-unknown\`): ${e.message}`,
    );
  }
  copyFileSync(join(targetDir, "wasm32-unknown-unknown", "wasm", "rumis_wasm.wasm"), out);
  return out;
}

/** Builds both modules; returns the scalar one's path (as before the SIMD module). */
export function buildWasm() {
  buildWasmModules();
  return WASM;
}

/** Builds both modules: `{ scalar, simd }`, their paths. */
export function buildWasmModules() {
  return {
    scalar: build(target, null, WASM),
    simd: build(join(target, "wasm-simd"), "-C target-feature=+simd128", WASM_SIMD),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [name, path] of Object.entries(buildWasmModules())) {
    console.log(`engine module (${name}): ${path} (${(statSync(path).size / 1024).toFixed(0)} KiB)`);
  }
}
