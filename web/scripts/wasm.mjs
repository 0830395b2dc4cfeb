// Builds the engine's WebAssembly module (crates/rumis-wasm: the core and the AI) and puts
// it where the app imports it (src/engine/rumis.wasm, not kept in git). Cargo rebuilds only
// what changed, so this is quick when nothing did. Needs `rustup target add
// wasm32-unknown-unknown` (.ci/run does it); without the target it fails and says so.
import { execFileSync } from "node:child_process";
import { copyFileSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const target = process.env.CARGO_TARGET_DIR ?? join(root, "target");
export const WASM = join(root, "web", "src", "engine", "rumis.wasm");

export function buildWasm() {
  try {
    execFileSync("cargo", ["build", "--quiet", "-p", "rumis-wasm", "--target", "wasm32-unknown-unknown", "--profile", "wasm"], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
    });
  } catch (e) {
    throw new Error(
      `building the WebAssembly engine failed (is the target installed? \`rustup target add wasm32-unknown-unknown\`): ${e.message}`,
    );
  }
  copyFileSync(join(target, "wasm32-unknown-unknown", "wasm", "rumis_wasm.wasm"), WASM);
  return WASM;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildWasm();
  console.log(`engine module: ${WASM} (${(statSync(WASM).size / 1024).toFixed(0)} KiB)`);
}
