// Local games in IndexedDB, from a plain static server (static.mjs, no `rumis serve`): a
// game kept in localStorage by the version before moves into IndexedDB on the next visit
// (and out of localStorage), opens and resumes, and a move played then is still there
// after a reload.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { launch, moveNumber, outDir, waitMovePast, webDir, openPage } from "./harness.mjs";
import { startStatic } from "./static.mjs";

let site;
let browser;

before(async () => {
  site = await startStatic();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await site?.stop();
});

/** The games IndexedDB holds, by id: their records. */
const stored = (page) =>
  page.evaluate(
    () =>
      new Promise((ok, fail) => {
        const r = indexedDB.open("rumis");
        r.onerror = () => fail(r.error);
        r.onsuccess = () => {
          const all = r.result.transaction("games").objectStore("games").getAll();
          all.onsuccess = () => ok(Object.fromEntries(all.result.map((g) => [g.id, g.record])));
          all.onerror = () => fail(all.error);
        };
      }),
  );

test("a game kept in localStorage moves into IndexedDB, resumes, and keeps its moves over a reload", { timeout: 90_000 }, async () => {
  const page = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  const context = page.context();
  const errors = page.errors;
  // A hot-seat game of two moves as the version before kept it, its record made by the
  // engine module itself.
  const wasm = readdirSync(join(webDir, "dist", "assets")).find((f) => /^rumis-simd-.*\.wasm$/.test(f));
  await page.goto(`${site.url}/icon.svg`);
  const record = await page.evaluate(async (url) => {
    const { instance } = await WebAssembly.instantiate(await (await fetch(url)).arrayBuffer(), { env: { rumis_now_ms: () => performance.now() } });
    const x = instance.exports;
    const call = (req) => {
      const data = new TextEncoder().encode(JSON.stringify(req));
      const ptr = x.rumis_alloc(data.length);
      new Uint8Array(x.memory.buffer, ptr, data.length).set(data);
      const len = x.rumis_call(ptr, data.length);
      return JSON.parse(new TextDecoder().decode(new Uint8Array(x.memory.buffer, x.rumis_answer_ptr(), len)));
    };
    let { record } = call({ cmd: "new", board: "chullpa", players: 2 });
    for (let i = 0; i < 2; i++) record = call({ cmd: "play", record, placement: call({ cmd: "legal", record }).legal[0] }).record;
    const old = { id: "Lold01", record, seats: [{ kind: "human" }, { kind: "human" }], hot_seat: true, seed: 7, created: 1, updated: 2 };
    localStorage.setItem("rumis.local.Lold01", JSON.stringify(old));
    localStorage.setItem("rumis.tokens.Lold01", JSON.stringify({ 0: "local", 1: "local" }));
    return record;
  }, `/assets/${wasm}`);

  // The start page lists it; it has moved.
  await page.goto(site.url);
  await page.waitForSelector('#local-games a[href="/?local=Lold01"]');
  assert.equal(await page.evaluate(() => localStorage.getItem("rumis.local.Lold01")), null, "no longer in localStorage");
  assert.equal((await stored(page)).Lold01, record, "the same record in IndexedDB");

  // It opens where it was, and a move played now survives a reload.
  await page.click('#local-games a[href="/?local=Lold01"]');
  await page.waitForSelector('#status[data-state="your-turn"]');
  assert.equal(await moveNumber(page), 3);
  await page.keyboard.press("n");
  await page.keyboard.press("Enter");
  await waitMovePast(page, 3);
  await page.reload();
  await page.waitForSelector('#status[data-state="your-turn"]');
  assert.equal(await moveNumber(page), 4);
  assert.match((await stored(page)).Lold01, /3\. /, "the third move is in IndexedDB");
  await page.screenshot({ path: join(outDir, "local-store-resumed.png") });
  assert.deepEqual(errors, []);
  await context.close();
});
