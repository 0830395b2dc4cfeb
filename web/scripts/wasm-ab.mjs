// The engine modules of web/dist side by side in one Chromium page: each instantiated once
// and warmed up (a level-8 move, then playouts), then random playouts on Chullpa and
// Coricancha with 4 players, the modules alternated (order reversed every other round), so
// that the machine's drift falls on all alike. For kernel changes within the modules
// (scripts/wasm-figures.mjs measures each module against the native build, in pages of
// their own). Run after `npm run build`: `node scripts/wasm-ab.mjs [ROUNDS]` (default 12);
// prints each module's median and its ratio to the first module's.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { launch, webDir } from "../e2e/harness.mjs";
import { startStatic } from "../e2e/static.mjs";

const rounds = Number(process.argv[2] ?? 12);
const modules = readdirSync(join(webDir, "dist", "assets"))
  .filter((f) => f.endsWith(".wasm"))
  .sort((a, b) => (a.includes("-simd-") ? -1 : b.includes("-simd-") ? 1 : a.localeCompare(b)));

async function inPage([urls, rounds]) {
  const load = async (url) => {
    const bytes = await (await fetch(url)).arrayBuffer();
    const { instance } = await WebAssembly.instantiate(bytes, { env: { rumis_now_ms: () => performance.now() } });
    const x = instance.exports;
    return (req) => {
      const data = new TextEncoder().encode(JSON.stringify(req));
      const ptr = x.rumis_alloc(data.length);
      new Uint8Array(x.memory.buffer, ptr, data.length).set(data);
      const len = x.rumis_call(ptr, data.length);
      return JSON.parse(new TextDecoder().decode(new Uint8Array(x.memory.buffer, x.rumis_answer_ptr(), len)));
    };
  };
  const rate = (call, board, count) => {
    const { record } = call({ cmd: "new", board, players: 4 });
    const t = performance.now();
    call({ cmd: "playouts", record, count, seed: 1 });
    return count / ((performance.now() - t) / 1000);
  };
  const engines = [];
  for (const url of urls) {
    const call = await load(url);
    const { code_path, relaxed_simd } = call({ cmd: "engine" });
    const scalar = code_path === "scalar";
    // Warm-up: V8 optimises a function only after it has run a while.
    call({ cmd: "ai", record: call({ cmd: "new", board: "coricancha", players: 4 }).record, level: scalar ? 4 : 8, seed: 1 });
    rate(call, "chullpa", scalar ? 500 : 10000);
    engines.push({ url, call, name: code_path + (relaxed_simd ? "+relaxed" : ""), scalar, chullpa: [], coricancha: [] });
  }
  for (let r = 0; r < rounds; r++) {
    for (const e of r % 2 ? [...engines].reverse() : engines) {
      e.chullpa.push(rate(e.call, "chullpa", e.scalar ? 500 : 10000));
      e.coricancha.push(rate(e.call, "coricancha", e.scalar ? 150 : 2500));
    }
  }
  return engines.map(({ url, name, chullpa, coricancha }) => ({ url, name, chullpa, coricancha }));
}

const site = await startStatic();
const browser = await launch();
try {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${site.url}/icon.svg`);
  const rows = await page.evaluate(inPage, [modules.map((m) => `/assets/${m}`), rounds]);
  const median = (v) => {
    const s = [...v].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const base = rows[0];
  console.log(`${rounds} rounds in one page, random playouts per second (4 players), medians; ratio to ${base.name}:`);
  for (const r of rows) {
    const [c, k] = [median(r.chullpa), median(r.coricancha)];
    const of = (m, b) => (m / median(b)).toFixed(3);
    console.log(
      `${r.name.padEnd(16)} chullpa ${c.toFixed(0).padStart(7)}/s (${of(c, base.chullpa)}; ${Math.min(...r.chullpa).toFixed(0)}-${Math.max(...r.chullpa).toFixed(0)}), coricancha ${k.toFixed(0).padStart(6)}/s (${of(k, base.coricancha)}; ${Math.min(...r.coricancha).toFixed(0)}-${Math.max(...r.coricancha).toFixed(0)})  ${r.url}`,
    );
  }
} finally {
  await browser.close();
  await site.stop();
}
