// "Play from here" on the server (issue #53): from a finished server game's replay, a
// middle position is played on as a new server game against the AI at the level chosen.
// The new game opens on its page with that position — the board shows the cubes the
// server's state has there, the source game's at that move — says where it began, and the
// AI answers the person's move.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { api, launch, moveNumber, openPage, shot, startServer, waitMovePast, aiGameToItsEnd } from "./harness.mjs";

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const sorted = (cubes) => cubes.map((c) => c.join(" ")).sort();

/** A state's structure, cube by cube (`x y z letter`). */
const cubesOf = (st) => sorted(st.position.columns.flatMap((c) => c.cubes.map((letter, z) => [c.x, c.y, z, letter])));

/** The structure the page draws, cube by cube. */
const cubesShown = async (page) => sorted(await page.evaluate(() => window.rumis.cubes()));

test("from a finished server game's replay, a middle position played on the server against the AI", { timeout: 180_000 }, async () => {
  const id = await aiGameToItsEnd(server.url);
  const source = await api(server.url, `/games/${id}`);
  const n = Math.floor(source.moves_played / 2);
  const there = await api(server.url, `/games/${id}?at=${n}`);
  const page = await openPage(browser);
  await page.goto(`${server.url}/game/${id}`);
  await page.waitForSelector("#final-scores");

  // Replayed to move n: both choices are offered, the server's and this browser's.
  await page.evaluate((n) => {
    const slider = document.querySelector("#replay");
    slider.value = String(n);
    slider.dispatchEvent(new Event("input"));
  }, n);
  await page.waitForSelector("#play-from-server");
  assert.ok((await page.textContent("#play-from-server")).includes(String(n)));
  assert.ok(await page.isVisible("#play-from"), "the local choice stays");
  await page.waitForFunction((want) => window.rumis.cubes().length === want, cubesOf(there).length);
  assert.deepEqual(await cubesShown(page), cubesOf(there), "the replay shows move n");
  await page.locator("#play-from-server").scrollIntoViewIfNeeded();
  await shot(page, "from-here-replay");

  await page.selectOption("#play-from-level", "1");
  await page.click("#play-from-server");
  await page.waitForURL((url) => /^\/game\/[0-9a-f]{16}$/.test(url.pathname) && !url.pathname.endsWith(id));
  const created = new URL(page.url()).pathname.split("/").pop();
  await page.waitForFunction((m) => Number(document.body.dataset.moveNumber) === m, n + 1);

  // The new game is the position: the server's state of it is the source's at move n, and
  // the board draws exactly its cubes.
  const st = await api(server.url, `/games/${created}`);
  assert.deepEqual(st.from_position, { moves: n, game: id });
  assert.deepEqual(cubesOf(st), cubesOf(there));
  assert.deepEqual(st.moves.map((m) => m.placement), there.moves.map((m) => m.placement));
  assert.equal(st.to_move, there.to_move);
  assert.deepEqual(await cubesShown(page), cubesOf(st), "the board shows the server's position");
  assert.deepEqual(
    st.seats.map((s) => [s.kind, s.level]),
    st.seats.map((s) => (s.seat === st.seat_to_move ? ["human", null] : ["ai", 1])),
    "this browser's person to move, the AI at the level chosen",
  );
  const origin = await page.textContent("#from-position");
  assert.ok(origin.includes(String(n)), origin);
  assert.equal(await page.getAttribute("#from-game", "href"), `/game/${id}`);
  await shot(page, "from-here-position");

  // The person plays (a stone, the first place offered, Enter); the AI answers.
  await page.click(".stone:not([disabled])");
  await page.keyboard.press("n");
  const placement = await page.evaluate(() => window.rumis.current());
  assert.ok(placement, "N shows a place");
  await page.keyboard.press("Enter");
  await waitMovePast(page, n + 2);
  const after = await api(server.url, `/games/${created}`);
  assert.equal(after.moves[n].placement, placement, "the person's move");
  assert.ok(after.moves_played >= n + 2, "the AI answered");
  const ai = after.seats.find((s) => s.kind === "ai");
  assert.ok(ai.colours.includes(after.moves[n + 1].colour), "the AI's colour moved next");
  assert.equal(await moveNumber(page), after.move_number);
  await page.waitForFunction((want) => window.rumis.cubes().length === want, cubesOf(after).length);
  assert.deepEqual(await cubesShown(page), cubesOf(after));
  await shot(page, "from-here-answered");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
