// The engine's speed in Node.js: the same requests natively (the rumis-wasm crate's
// `figures` example, release build), in the scalar, the SIMD and the relaxed-SIMD module
// (relaxed SIMD turned on in Node.js 20, where it is behind a flag), side by side: perft (leaves per second), random playouts (games per second) and a level-8 move.
// Run after `node scripts/wasm.mjs`: `node scripts/wasm-bench.mjs [NAME]` (builds the
// example; NAME picks the figures whose name contains it). Natively it runs the CPU's widest
// path and AVX2 (`RUMIS_CODE_PATH=avx2`), the yardstick. Each figure is the best of
// REPS runs (3; `REPS=5 node ...`): on a shared machine the fastest run is the one least
// disturbed by others.
// The browser's figures: scripts/wasm-figures.mjs.
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { transformWithOxc } from "vite";
import { setFlagsFromString } from "node:v8";
import { WASM, WASM_RELAXED, WASM_SIMD } from "./wasm.mjs";

setFlagsFromString("--experimental-wasm-relaxed-simd");

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");

const FIGURES = [
  { name: "chullpa 4p perft 3", unit: "leaves", setup: { cmd: "new", board: "chullpa", players: 4 }, request: { cmd: "perft", depth: 3 } },
  { name: "coricancha 4p perft 2", unit: "leaves", setup: { cmd: "new", board: "coricancha", players: 4 }, request: { cmd: "perft", depth: 2 } },
  { name: "chullpa 4p playouts", unit: "games", setup: { cmd: "new", board: "chullpa", players: 4 }, request: { cmd: "playouts", count: 20000, seed: 1 } },
  { name: "coricancha 4p playouts", unit: "games", setup: { cmd: "new", board: "coricancha", players: 4 }, request: { cmd: "playouts", count: 5000, seed: 1 } },
  { name: "coricancha 4p level 8 move", unit: null, setup: { cmd: "new", board: "coricancha", players: 4 }, request: { cmd: "ai", level: 8, seed: 1 } },
];
const only = process.argv[2];
const figures = only ? FIGURES.filter((f) => f.name.includes(only)) : FIGURES;

const REPS = Number(process.env.REPS ?? 3);
const best = (rows) => figures.map((f) => rows.filter((r) => r.name === f.name).reduce((a, b) => (b.seconds < a.seconds ? b : a)));
const amount = (f, answer) => (f.unit === "leaves" ? answer.leaves : f.unit === "games" ? answer.games : 1);

function native(path) {
  const list = Array.from({ length: REPS }, () => figures).flat();
  const out = execFileSync("cargo", ["run", "--quiet", "--release", "-p", "rumis-wasm", "--example", "figures", "--", JSON.stringify(list)], {
    cwd: root,
    encoding: "utf8",
    env: path ? { ...process.env, RUMIS_CODE_PATH: path } : process.env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return best(out.trim().split("\n").map((l) => JSON.parse(l)));
}

async function inModule(path) {
  const file = join(here, "..", "src", "engine", "module.ts");
  const { code } = await transformWithOxc(readFileSync(file, "utf8"), file, { lang: "ts" });
  const { instantiate } = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
  const wasm = await instantiate(readFileSync(path));
  const path_ = wasm.call({ cmd: "engine" }).code_path;
  const rows = [];
  for (const f of Array.from({ length: REPS }, () => figures).flat()) {
    const { record } = wasm.call(f.setup);
    const t = performance.now();
    const answer = wasm.call({ ...f.request, record });
    rows.push({ name: f.name, seconds: (performance.now() - t) / 1000, answer, path: path_ });
  }
  return best(rows);
}

for (const [name, path] of [["scalar", WASM], ["simd", WASM_SIMD], ["relaxed", WASM_RELAXED]]) {
  const data = readFileSync(path);
  const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  const gz = gzipSync(data, { level: 9 }).length;
  console.log(`module ${name}: ${statSync(path).size} bytes raw, ${gz} gzip -9, ${br} brotli 11`);
}
const n = native(null);
const n2 = native("avx2");
const s = await inModule(WASM);
const v = await inModule(WASM_SIMD);
const x = await inModule(WASM_RELAXED);
console.log(`node ${process.version}; wasm code paths: ${s[0].path}, ${v[0].path}, ${x[0].path} (relaxed)`);
const rate = (f, r) => amount(f, r.answer) / r.seconds;
for (const [i, f] of figures.entries()) {
  const of = (r, base) => (100 * (f.unit ? rate(f, r) / rate(f, base) : base.seconds / r.seconds)).toFixed(0);
  for (const [label, r] of [["native best", n[i]], ["native avx2", n2[i]], ["wasm scalar", s[i]], ["wasm simd128", v[i]], ["wasm relaxed", x[i]]]) {
    if (r.answer.error) throw new Error(`${label} ${f.name}: ${r.answer.reason}`);
    const what = f.unit ? `${rate(f, r).toFixed(0)} ${f.unit}/s` : `${r.answer.placement} (${r.answer.simulations} simulations)`;
    const share = label.startsWith("native") ? "" : ` = ${of(r, n[i])} % of native best, ${of(r, n2[i])} % of native AVX2`;
    console.log(`${f.name.padEnd(28)} ${label.padEnd(13)} ${r.seconds.toFixed(3).padStart(8)} s  ${what}${share}`);
  }
  const counts = [n[i], n2[i], s[i], v[i], x[i]].map((r) => JSON.stringify(r.answer));
  if (new Set(counts).size !== 1) console.log(`  DIFFERENT ANSWERS: ${counts.join(" | ")}`);
}
