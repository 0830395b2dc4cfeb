// After `vite build`: writes dist/sw.js, the service worker that keeps the app for offline
// use, with the list of the build's files (their names carry content hashes, so they are
// known only now) and a version from their contents (a new build replaces the old cache).
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, dirname, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(web, "dist");
// The pages that play without a server, each as a folder's index.html (the app routes by
// address, and its files are addressed from the root), so a plain static file server serves
// /puzzle, /training, /how-to-play and /boards/edit without rewrite rules.
for (const page of ["puzzle", "training", "how-to-play", "boards/edit"]) {
  mkdirSync(join(dist, page), { recursive: true });
  copyFileSync(join(dist, "index.html"), join(dist, page, "index.html"));
}
// The game's puzzles (the repository's puzzles/, one file per scenario and player count) in
// one file for the puzzle page without a server (src/training/local.ts); kept offline with
// the rest.
const puzzleDir = join(web, "..", "puzzles");
const puzzleFiles = readdirSync(puzzleDir).filter((n) => n.endsWith(".json")).sort();
const sets = puzzleFiles.map((n) => JSON.parse(readFileSync(join(puzzleDir, n), "utf8")));
writeFileSync(join(dist, "training.json"), JSON.stringify(sets));
console.log(`training.json: ${sets.reduce((n, s) => n + s.puzzles.length, 0)} puzzles from ${puzzleFiles.length} files`);
const files = [];
const hash = createHash("sha256");
for (const name of readdirSync(dist, { recursive: true }).map(String).sort()) {
  const path = join(dist, name);
  if (!statSync(path).isFile() || /\.(br|gz)$/.test(name) || name === "sw.js") continue;
  hash.update(name).update(readFileSync(path));
  // The engine modules are cached when the worker first fetches one (sw.template.js).
  if (name.endsWith(".wasm")) continue;
  files.push("/" + relative(dist, path).split(sep).join("/"));
}
const version = `rumis-${hash.digest("hex").slice(0, 16)}`;
// The engine's three modules (Vite names them rumis-HASH.wasm, rumis-simd-HASH.wasm and
// rumis-relaxed-HASH.wasm) and the worker's probes, so the service worker keeps the module
// this browser loads.
const wasm = readdirSync(join(dist, "assets")).filter((n) => n.endsWith(".wasm"));
const modules = {
  relaxed: wasm.find((n) => n.startsWith("rumis-relaxed-")),
  simd: wasm.find((n) => n.startsWith("rumis-simd-")),
  scalar: wasm.find((n) => /^rumis-(?!simd-|relaxed-)/.test(n)),
};
if (!modules.relaxed || !modules.simd || !modules.scalar) throw new Error(`dist/assets lacks an engine module: ${wasm.join(", ")}`);
const simdTs = readFileSync(join(web, "src", "engine", "simd.ts"), "utf8");
const probe = (name) => {
  const bytes = simdTs.match(new RegExp(`const ${name} = new Uint8Array\\(\\[([^\\]]*)\\]\\)`))?.[1].replace(/\/\/[^\n]*/g, "");
  if (!bytes) throw new Error(`src/engine/simd.ts: no ${name} module found`);
  return `[${bytes.split(",").map((b) => b.trim()).filter(Boolean).join(", ")}]`;
};
const worker = readFileSync(join(web, "scripts", "sw.template.js"), "utf8")
  .replace("__VERSION__", version)
  .replace("__FILES__", JSON.stringify(files, null, 2))
  .replace(
    "__MODULES__",
    JSON.stringify({ relaxed: `/assets/${modules.relaxed}`, simd: `/assets/${modules.simd}`, scalar: `/assets/${modules.scalar}` }),
  )
  .replace("__PROBE__", probe("PROBE"))
  .replace("__RELAXED_PROBE__", probe("RELAXED_PROBE"));
writeFileSync(join(dist, "sw.js"), worker);
console.log(`service worker ${version}: ${files.length} files kept for offline use`);
