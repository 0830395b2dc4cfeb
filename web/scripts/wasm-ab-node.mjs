// Engine modules side by side in Node.js, for changes to the WebAssembly kernels: any
// module files (e.g. the relaxed module built before and after a change, each copied aside
// from src/engine/), each instantiated once and warmed up, then random playouts on one board
// with 4 players, the modules alternated round by round. Each round's time is the process's
// CPU time (user + system), which a busy machine disturbs less than the clock; each module's
// figure is the median over the rounds of its time divided by the first module's in the
// same round, with the quartiles. The games are the same in every module (the plies
// printed must agree). Relaxed SIMD is turned on (Node.js 20 has it behind a flag).
//
//   node scripts/wasm-ab-node.mjs BEFORE.wasm AFTER.wasm [...]
//   BOARD=pirka ROUNDS=25 COUNT=1000 node scripts/wasm-ab-node.mjs ...
//
// (scripts/wasm-ab.mjs alternates the built modules in Chromium; scripts/wasm-figures.mjs
// measures them against the native build.)
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { transformWithOxc } from "vite";

setFlagsFromString("--experimental-wasm-relaxed-simd");

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node scripts/wasm-ab-node.mjs FIRST.wasm OTHER.wasm [...]");
  process.exit(2);
}
const board = process.env.BOARD ?? "coricancha";
const count = Number(process.env.COUNT ?? 1000);
const rounds = Number(process.env.ROUNDS ?? 15);

const file = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "engine", "module.ts");
const { code } = await transformWithOxc(readFileSync(file, "utf8"), file, { lang: "ts" });
const { instantiate } = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);

const modules = [];
for (const path of files) {
  const wasm = await instantiate(readFileSync(path));
  const { record } = wasm.call({ cmd: "new", board, players: 4 });
  wasm.call({ cmd: "playouts", count, seed: 999, record });
  modules.push({ path, wasm, record, times: [], plies: null });
}
for (let round = 0; round < rounds; round++) {
  for (const m of modules) {
    const before = process.cpuUsage();
    const answer = m.wasm.call({ cmd: "playouts", count, seed: round + 1, record: m.record });
    const used = process.cpuUsage(before);
    m.times.push((used.user + used.system) / 1e6);
    m.plies = (m.plies ?? 0) + answer.plies;
  }
}
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[xs.length >> 1];
for (const m of modules) {
  const ratios = sorted(m.times.map((t, i) => t / modules[0].times[i]));
  const rate = Math.round(count / median(m.times));
  console.log(
    `${basename(m.path)}: ${board} 4p, ${rate} games/s (CPU), against the first ${median(ratios).toFixed(3)} ` +
      `(quartiles ${ratios[ratios.length >> 2].toFixed(3)}-${ratios[(3 * ratios.length) >> 2].toFixed(3)}), ${m.plies} plies`,
  );
}
