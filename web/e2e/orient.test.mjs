// Orienting a stone without trial and error (issue #49): the picked stone's strip shows every
// orientation that has a legal place, with its count, and one click there picks it; "next
// place" walks the legal places in any orientation, as N does.
// Run: `cd web && npm run build && node --test e2e/orient.test.mjs`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launch, api, waitMovePast, moveNumber, outDir, shot, openPage } from "./harness.mjs";

let server;
let browser;
let stones;

before(async () => {
  server = await startServer();
  browser = await launch();
  stones = new Map((await api(server.url, "/stones")).stones.map((s) => [s.code, s]));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function openGame(viewport = { width: 1280, height: 800 }) {
  const created = await api(server.url, "/games", {
    method: "POST",
    body: JSON.stringify({ board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "ai", level: 1 }] }),
  });
  const page = await openPage(browser, { viewport });
  const errors = page.errors;
  page.errors = errors;
  const seat = created.seats[0];
  await page.goto(`${server.url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
  await page.waitForSelector('#status[data-state="your-turn"]');
  return { page, id: created.id };
}


/** The strip as shown: orientation → the count on its button. */
const strip = (page) =>
  page.$$eval("#orientations .orient", (bs) => bs.map((b) => [Number(b.dataset.orientation), Number(b.querySelector(".orient-count").textContent)]));

/** The server's legal placements of a stone, counted by orientation. */
async function legalCounts(id, stone) {
  const { placements } = await api(server.url, `/games/${id}/placements`);
  const counts = new Map();
  for (const p of placements) if (p.stone === stone) counts.set(p.orientation, (counts.get(p.orientation) ?? 0) + 1);
  return { placements: placements.filter((p) => p.stone === stone), counts };
}

test("a T4 is laid flat with one click on the orientation strip, and placed there", async () => {
  const { page, id } = await openGame();
  await page.click('.stone[data-stone="T4"]');
  await page.waitForSelector("#orientations .orient");
  const picked = (await page.evaluate(() => window.rumis.selected())).orientation;
  // Flat: every cube of the orientation on one level.
  const flat = stones.get("T4").orientations.flatMap((cells, o) => (cells.every((c) => c[2] === cells[0][2]) ? [o] : []));
  const shown = (await strip(page)).map(([o]) => o);
  // One the stone is not picked up in, so the click has to change it.
  const target = shown.find((o) => flat.includes(o) && o !== picked);
  assert.ok(target !== undefined, `a flat orientation other than ${picked} in the strip ${shown} (flat: ${flat})`);
  await page.click(`#orientations .orient[data-orientation="${target}"]`);
  await page.waitForFunction((o) => window.rumis.selected()?.orientation === o && window.rumis.current(), target);
  const ghost = await page.evaluate(() => window.rumis.current());
  const { placements } = await legalCounts(id, "T4");
  const p = placements.find((q) => q.placement === ghost);
  assert.ok(p, `the ghost ${ghost} is a legal placement of T4`);
  assert.equal(p.orientation, target, "the ghost is in the orientation clicked");
  assert.equal(await page.getAttribute(`#orientations .orient[data-orientation="${target}"]`, "aria-pressed"), "true");
  await shot(page, "orient-t4-flat");
  const before = await moveNumber(page);
  await page.click("#place");
  await waitMovePast(page, before);
  const state = await api(server.url, `/games/${id}`);
  assert.equal(state.moves[0].placement, ghost, "the move made is the ghost's placement");
  assert.equal(new Set(p.cubes.map((c) => c[2])).size, 1, `T4 lies flat: ${JSON.stringify(p.cubes)}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the strip's counts are the legal placements of each orientation, after a move too", async () => {
  const { page, id } = await openGame();
  for (const round of [0, 1]) {
    if (round === 1) {
      // A position with stones on it: play a move (N then Enter) and wait for the AI's.
      const before = await moveNumber(page);
      await page.keyboard.press("n");
      await page.keyboard.press("Enter");
      await waitMovePast(page, before + 1);
      await page.waitForSelector('#status[data-state="your-turn"]');
    }
    for (const stone of ["T4", "L4", "D2", "Y4"]) {
      const button = page.locator(`.stone[data-stone="${stone}"]:not([disabled])`);
      if (!(await button.count())) continue;
      await button.click();
      await page.waitForFunction((s) => window.rumis.selected()?.stone === s, stone);
      const { counts } = await legalCounts(id, stone);
      const shown = await strip(page);
      assert.deepEqual(new Map(shown), counts, `${stone} (round ${round}): the strip ${JSON.stringify(shown)}`);
      assert.ok(shown.every(([, n]) => n > 0), "only orientations with a place");
      // The selected orientation's count agrees with the line under the turn buttons.
      const sel = await page.evaluate(() => window.rumis.selected().orientation);
      assert.match(await page.textContent("#orientation-count"), new RegExp(`^${counts.get(sel)} place`));
    }
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the next-place button walks the stone's legal places in every orientation, and says its key", async () => {
  const { page, id } = await openGame();
  await page.click('.stone[data-stone="D2"]');
  await page.waitForSelector("#next-place");
  assert.equal(await page.textContent("#next-place kbd"), "N");
  assert.equal(await page.textContent("#prev-place kbd"), "P");
  const { placements } = await legalCounts(id, "D2");
  const legal = new Set(placements.map((p) => p.placement));
  const seen = [];
  for (let i = 0; i < placements.length; i++) {
    const was = await page.evaluate(() => window.rumis.current());
    await page.click("#next-place");
    await page.waitForFunction((was) => window.rumis.current() !== was, was);
    seen.push(await page.evaluate(() => window.rumis.current()));
  }
  assert.ok(seen.every((p) => legal.has(p)), "every place shown is legal");
  assert.equal(new Set(seen).size, placements.length, "each legal place once, then round again");
  const orientations = new Set(placements.filter((p) => seen.includes(p.placement)).map((p) => p.orientation));
  assert.ok(orientations.size > 1, "the walk turns the stone as needed");
  // Previous goes back one.
  await page.click("#prev-place");
  await page.waitForFunction((p) => window.rumis.current() === p, seen.at(-2));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
