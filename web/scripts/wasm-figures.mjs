// The engine's figures in Chromium beside the native build, in one run (issue #22): the three
// WebAssembly modules of web/dist (scalar, SIMD and relaxed SIMD, on a page's main thread
// so nothing else is timed) and the same requests natively (`cargo run --release -p
// rumis-wasm --example figures`, built here if need be). Per engine: random playouts per second on Chullpa and
// Coricancha with 4 players, and a level-8 move on Coricancha with 4 players, first in a
// fresh instance (cold: the engine compiles its optimised code while it works) and then
// warm. The rounds alternate the engines (the machine's speed drifts); the summary gives
// each figure's median and its ratio to native.
// Run after `npm run build`: `node scripts/wasm-figures.mjs [ROUNDS]` (default 3).
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { launch, webDir } from "../e2e/harness.mjs";
import { startStatic } from "../e2e/static.mjs";

const rounds = Number(process.argv[2] ?? 3);
const assets = join(webDir, "dist", "assets");
const modules = readdirSync(assets).filter((f) => f.endsWith(".wasm"));
for (const wasm of modules) {
  const br = statSync(join(assets, `${wasm}.br`)).size;
  const gz = statSync(join(assets, `${wasm}.gz`)).size;
  console.log(`module ${wasm}: ${(statSync(join(assets, wasm)).size / 1024).toFixed(0)} KiB, brotli ${(br / 1024).toFixed(0)} KiB, gzip ${(gz / 1024).toFixed(0)} KiB`);
}

const PLAYOUTS = [
  ["chullpa", 20000],
  ["coricancha", 5000],
];

/** The native figures: one process of the example, its JSON lines. */
function native() {
  const list = [
    ...PLAYOUTS.map(([board, count]) => ({
      name: `${board} playouts`,
      setup: { cmd: "new", board, players: 4 },
      request: { cmd: "playouts", count, seed: 1 },
    })),
    { name: "level 8", setup: { cmd: "new", board: "coricancha", players: 4 }, request: { cmd: "ai", level: 8, seed: 1 } },
  ];
  const out = execFileSync("cargo", ["run", "--release", "-q", "-p", "rumis-wasm", "--example", "figures", "--", JSON.stringify(list)], {
    cwd: join(webDir, ".."),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const lines = out.trim().split("\n").map((l) => JSON.parse(l));
  const [c, k, l8] = lines;
  return { chullpa: PLAYOUTS[0][1] / c.seconds, coricancha: PLAYOUTS[1][1] / k.seconds, level8: l8.seconds };
}

// In the page: instantiate the module (fresh), time a cold level-8 move, then the warm
// figures.
async function inPage([url, playouts]) {
  const { instance } = await WebAssembly.instantiate(await (await fetch(url)).arrayBuffer(), { env: { rumis_now_ms: () => performance.now() } });
  const x = instance.exports;
  const call = (req) => {
    const data = new TextEncoder().encode(JSON.stringify(req));
    const ptr = x.rumis_alloc(data.length);
    new Uint8Array(x.memory.buffer, ptr, data.length).set(data);
    const len = x.rumis_call(ptr, data.length);
    return JSON.parse(new TextDecoder().decode(new Uint8Array(x.memory.buffer, x.rumis_answer_ptr(), len)));
  };
  const level8 = () => {
    const { record } = call({ cmd: "new", board: "coricancha", players: 4 });
    const t = performance.now();
    const a = call({ cmd: "ai", record, level: 8, seed: 1 });
    if (a.simulations !== 10000) throw new Error(`level 8 ran ${a.simulations} simulations`);
    return (performance.now() - t) / 1000;
  };
  const engine = call({ cmd: "engine" });
  const f = { path: engine.code_path + (engine.relaxed_simd ? "+relaxed" : ""), cold: level8() };
  for (const [board, count] of playouts) {
    const { record } = call({ cmd: "new", board, players: 4 });
    const t = performance.now();
    call({ cmd: "playouts", record, count, seed: 1 });
    f[board] = count / ((performance.now() - t) / 1000);
  }
  f.level8 = level8();
  return f;
}

const site = await startStatic();
const browser = await launch();
const rows = { native: [] };
try {
  for (let r = 0; r < rounds; r++) {
    const n = native();
    rows.native.push(n);
    console.log(`round ${r + 1} native: chullpa ${n.chullpa.toFixed(0)}/s, coricancha ${n.coricancha.toFixed(0)}/s, level 8 ${n.level8.toFixed(3)} s`);
    // The modules' order turns each round: whichever ran just after another module's
    // page was slower in some rounds, so no module keeps that place.
    for (const wasm of modules.map((_, i) => modules[(i + r) % modules.length])) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${site.url}/icon.svg`);
      const f = await page.evaluate(inPage, [`/assets/${wasm}`, PLAYOUTS]);
      await context.close();
      (rows[f.path] ??= []).push(f);
      console.log(
        `round ${r + 1} ${f.path}: chullpa ${f.chullpa.toFixed(0)}/s, coricancha ${f.coricancha.toFixed(0)}/s, level 8 ${f.level8.toFixed(3)} s (cold ${f.cold.toFixed(3)} s)`,
      );
    }
  }
} finally {
  await browser.close();
  await site.stop();
}

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const n = Object.fromEntries(["chullpa", "coricancha", "level8"].map((k) => [k, median(rows.native.map((f) => f[k]))]));
console.log(`\nmedians of ${rounds} rounds (CPU: ${cpuModel()}):`);
console.log(`native: chullpa ${n.chullpa.toFixed(0)}/s, coricancha ${n.coricancha.toFixed(0)}/s, level 8 ${n.level8.toFixed(3)} s`);
for (const [path, fs] of Object.entries(rows)) {
  if (path === "native") continue;
  const m = Object.fromEntries(["chullpa", "coricancha", "level8", "cold"].map((k) => [k, median(fs.map((f) => f[k]))]));
  const pct = (k) => `${((100 * m[k]) / n[k]).toFixed(0)} % of native`;
  console.log(
    `${path} in Chromium: chullpa ${m.chullpa.toFixed(0)}/s (${pct("chullpa")}), coricancha ${m.coricancha.toFixed(0)}/s (${pct("coricancha")}), level 8 ${m.level8.toFixed(3)} s warm, ${m.cold.toFixed(3)} s cold (native ${n.level8.toFixed(3)} s)`,
  );
}

function cpuModel() {
  try {
    return execFileSync("sh", ["-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}
