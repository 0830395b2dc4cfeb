// The engine's figures in Chromium (the two WebAssembly modules of web/dist, scalar and
// SIMD, on the page's main thread so nothing else is timed): random playouts per second on Chullpa and Coricancha
// with 4 players, and a level-8 move on Coricancha with 4 players. The same requests
// natively: `cargo run --release -p rumis-wasm --example figures`.
// Run after `npm run build`: `node scripts/wasm-figures.mjs`.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { launch, webDir } from "../e2e/harness.mjs";
import { startStatic } from "../e2e/static.mjs";

const assets = join(webDir, "dist", "assets");
const modules = readdirSync(assets).filter((f) => f.endsWith(".wasm"));
for (const wasm of modules) {
  const br = statSync(join(assets, `${wasm}.br`)).size;
  const gz = statSync(join(assets, `${wasm}.gz`)).size;
  console.log(`module ${wasm}: ${(statSync(join(assets, wasm)).size / 1024).toFixed(0)} KiB, brotli ${(br / 1024).toFixed(0)} KiB, gzip ${(gz / 1024).toFixed(0)} KiB`);
}

const site = await startStatic();
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(`${site.url}/icon.svg`);
  for (const wasm of modules) {
  const figures = await page.evaluate(async (url) => {
    const { instance } = await WebAssembly.instantiate(await (await fetch(url)).arrayBuffer(), { env: { rumis_now_ms: () => performance.now() } });
    const x = instance.exports;
    const call = (req) => {
      const data = new TextEncoder().encode(JSON.stringify(req));
      const ptr = x.rumis_alloc(data.length);
      new Uint8Array(x.memory.buffer, ptr, data.length).set(data);
      const len = x.rumis_call(ptr, data.length);
      return JSON.parse(new TextDecoder().decode(new Uint8Array(x.memory.buffer, x.rumis_answer_ptr(), len)));
    };
    const out = [`${url}: code path ${call({ cmd: "engine" }).code_path}`];
    for (const [board, players, count] of [["chullpa", 4, 20000], ["coricancha", 4, 5000]]) {
      const { record } = call({ cmd: "new", board, players });
      const t = performance.now();
      call({ cmd: "playouts", record, count, seed: 1 });
      const s = (performance.now() - t) / 1000;
      out.push(`${board} ${players}p: ${count} random playouts in ${s.toFixed(3)} s = ${(count / s).toFixed(0)} games/s in Chromium`);
    }
    const { record } = call({ cmd: "new", board: "coricancha", players: 4 });
    const t = performance.now();
    const a = call({ cmd: "ai", record, level: 8, seed: 1 });
    out.push(`coricancha 4p level 8 first move: ${a.placement} (${a.simulations} simulations) in ${((performance.now() - t) / 1000).toFixed(3)} s in Chromium`);
    return out;
  }, `/assets/${wasm}`);
  for (const f of figures) console.log(f);
  }
} finally {
  await browser.close();
  await site.stop();
}
