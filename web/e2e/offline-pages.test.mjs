// The pages for learning without a server: web/dist from a plain static file server
// (static.mjs, no `rumis serve`, no /api), the engine in the browser answering. How to play
// draws the core's lessons, the solitaire checks stones, the guided first game is a local
// game with its guide; and after a reload with the network cut (service worker) each still
// works.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, outDir, shot, openPage } from "./harness.mjs";
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


/** Places one stone of the solitaire from the keyboard (the first place offered). */
async function placeFirst(page) {
  const before = Number(await page.evaluate(() => document.body.dataset.filled));
  await page.click(".stone:not([disabled])");
  await page.keyboard.press("n");
  assert.ok(await page.evaluate(() => window.rumis.current()), "N shows a place");
  await page.keyboard.press("Enter");
  await page.waitForFunction((b) => Number(document.body.dataset.filled) > b, before);
  return Number(await page.evaluate(() => document.body.dataset.filled));
}

test("without a server: How to play, the solitaire and the guided game on the engine, also offline after a reload", { timeout: 150_000 }, async () => {
  // The app's offline copy is what this test reloads from (the harness blocks it elsewhere).
  const page = await openPage(browser, { viewport: { width: 1280, height: 800 }, serviceWorkers: "allow" });
  const context = page.context();
  const errors = page.errors;

  // The start page offers them, with no server to answer.
  await page.goto(site.url);
  await page.waitForSelector("#no-server");
  for (const id of ["#guided-game", "#howto-link", "#puzzle-link", "#editor-link"]) assert.ok(await page.isVisible(id), `${id} is offered`);
  assert.ok(!(await page.isVisible("#lobby-link")), "the lobby needs a server (a static host has no /lobby)");
  assert.equal(await page.$("#clock-kind"), null, "no clock for a game in this browser: the server keeps clocks");

  // How to play: every picture drawn from the engine's lessons (the core's verdicts).
  await page.click("#howto-link");
  await page.waitForURL(/\/how-to-play$/);
  await page.waitForSelector('body[data-lessons="ready"]');
  const figures = await page.$$eval(".howto figure", (f) => f.length);
  assert.ok(figures >= 10, `${figures} pictures`);
  assert.match(await page.textContent('figure[data-lesson="hole"] .verdict'), /b2/);
  await shot(page, "offline-howto");

  // The solitaire: stones checked by the engine, the attempt kept.
  await page.goto(`${site.url}/puzzle`);
  await page.waitForSelector('#status[data-state="building"]');
  const filled = await placeFirst(page);
  assert.ok(filled >= 2);
  await shot(page, "offline-puzzle");

  // The guided first game: a local game against level 1 with the guide's card.
  await page.goto(site.url);
  await page.click("#guided-game");
  await page.waitForURL(/\/\?local=L[a-z0-9]+$/);
  await page.waitForSelector('#tutorial[data-step="welcome"]');
  await page.click("#tutorial-next");
  await page.waitForSelector('#tutorial[data-step="first_stone"] figure');
  await shot(page, "offline-guided");
  const guided = page.url();

  // Offline: a reload of each still works from the service worker's copy. The network is
  // cut at the server (it answers nothing), not by the browser's emulated offline mode
  // (`context.setOffline`): on an Intel Xeon (Chromium 148) that let the service worker's
  // network-first requests for the pages through, and the server answered them (issue #49).
  // Nor both: where the emulation holds, the requests would never reach the cut to test it.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  // Whatever the page still had in flight ends before the cut, which would fail it.
  await page.waitForLoadState("networkidle");
  const served = site.requests.length;
  site.cut();
  try {
    // The cut holds for the page and its service worker: a file the worker did not keep
    // (answered 404 by a server that is up) is a network error.
    const probe = await page.evaluate(() => fetch("/not-kept").then((r) => `answered ${r.status}`, () => "failed"));
    assert.equal(probe, "failed", "the network is cut");
    await page.reload();
    await page.waitForSelector('#tutorial[data-step="first_stone"]');
    await page.goto(`${site.url}/puzzle`);
    await page.waitForFunction((f) => Number(document.body.dataset.filled) === f, filled);
    assert.ok((await placeFirst(page)) > filled, "a second stone, offline");
    await page.goto(`${site.url}/how-to-play`);
    await page.waitForSelector('body[data-lessons="ready"]');
    await page.goto(guided);
    await page.waitForSelector('#tutorial[data-step="first_stone"]');
    await shot(page, "offline-guided-reload");
  } finally {
    // The next tests use the same server.
    site.restore();
  }
  assert.deepEqual(site.requests.slice(served), [], `the server answered nothing (it refused ${site.refused.join(" ")})`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("without a server: the pass house rule chosen on the start page holds in the browser's game", { timeout: 60_000 }, async () => {
  const page = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  const context = page.context();
  const errors = page.errors;
  await page.goto(site.url);
  await page.waitForSelector("#no-server");
  await page.waitForSelector(".board-card img");
  await page.click('.board-card[data-board="Chullpa"]');
  await page.click("#stuck-rules summary");
  await page.click('#stuck-rules label:has(input[value="pass"])');
  await page.click("#create");
  await page.waitForURL(/\/\?local=L[a-z0-9]+$/);
  // The engine made the game under the house rule (before, a game in this browser was
  // always made under the rulebooks' rule, whatever was chosen).
  await page.waitForFunction(() => document.querySelector(".game-title")?.dataset.stuckRule === "pass");
  assert.match(await page.textContent(".game-title"), /a stuck colour passes/);
  assert.deepEqual(errors, []);
  await context.close();
});

const verdict = (page, want) => page.waitForFunction((w) => document.body.dataset.editor === w, want, { timeout: 15000 });

test("without a server: the board editor checks a board with the engine, says where it is wrong, and plays a game on it", { timeout: 90_000 }, async () => {
  const page = await openPage(browser, { viewport: { width: 1400, height: 900 }, locale: "en" });
  const context = page.context();
  const errors = page.errors;
  await page.goto(site.url);
  await page.waitForSelector("#no-server");
  await page.click("#editor-link");
  await page.waitForURL(/\/boards\/edit\/?$/);
  // The engine's verdicts, in the server's words: a new board (where to begin, nothing
  // in red), then one drawn here.
  await verdict(page, "empty");
  assert.match(await page.textContent(".ed-status"), /Start here/);
  // A built-in scenario's own file, from the engine, checked by it.
  await page.selectOption("#ed-builtin", "Coricancha");
  await page.waitForFunction(() => document.querySelector("#ed-preview").dataset.board === "Coricancha");
  await verdict(page, "ok");
  assert.match(await page.textContent("#ed-evidence"), /Checks: at least 62 cells for 3 players/);
  await page.click("#ed-new");
  await verdict(page, "empty");
  await page.fill("#ed-name", "Offline steps");
  await page.fill("#ed-files", "4");
  await page.fill("#ed-ranks", "3");
  for (const cell of ["a1", "b1", "c1", "a2", "b2"]) await page.click(`.ed-cell[data-cell="${cell}"]`);
  await verdict(page, "ok");
  assert.match(await page.textContent("#ed-status"), /accepts this board \(5 columns for 4 players\)/);
  // Refused at its line, with the core's sentence; put right, accepted again.
  await page.fill("#ed-hmax-4", "40");
  await verdict(page, "refused");
  assert.match(await page.textContent("#fault-hmax"), /^Line \d+: hmax for 4 players is 40; it must be 1 to 15$/);
  assert.equal(await page.isDisabled("#ed-play-button"), true, "no game on a refused board");
  await page.fill("#ed-hmax-4", "8");
  await verdict(page, "ok");
  await shot(page, "offline-editor");
  // A game on it against the AI, in this browser; its record carries the board.
  await page.click("#ed-play-button");
  await page.selectOption("#play-against", "ai:1");
  await page.click("#play-start");
  await page.waitForURL(/\/\?local=L[a-z0-9]+$/);
  await page.waitForSelector('#status[data-state="your-turn"]');
  assert.match(await page.textContent(".game-title"), /Offline steps/);
  const record = await page.evaluate(() => {
    const id = new URL(location.href).searchParams.get("local");
    return new Promise((ok, fail) => {
      const r = indexedDB.open("rumis");
      r.onsuccess = () => {
        const get = r.result.transaction("games").objectStore("games").get(id);
        get.onsuccess = () => ok(get.result?.record ?? null);
        get.onerror = () => fail(get.error);
      };
      r.onerror = () => fail(r.error);
    });
  });
  assert.match(record ?? "", /\[BoardFile "/, "the record carries the board file");
  await shot(page, "offline-editor-game");
  assert.deepEqual(errors, []);
  await context.close();
});
