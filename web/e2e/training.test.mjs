// The game's puzzles (src/training/), solved in 3D as a game's move: the daily puzzle from
// the start page solved with a player's key (the rating moves), the next one failed with
// the explanation and the best as a ghost; then the same on a static server (no `rumis
// serve`), the puzzles shipped with the app and judged by the engine in the browser, the
// rating kept in the browser.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { api, launch, openPage, shot, startServer, webDir } from "./harness.mjs";
import { startStatic } from "./static.mjs";

let server;
let site;
let browser;

before(async () => {
  [server, site, browser] = await Promise.all([startServer(), startStatic(), launch()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await site?.stop();
});

/** Every shipped puzzle by id (the repository's puzzles/). */
const shipped = new Map(
  readdirSync(join(webDir, "..", "puzzles"))
    .filter((n) => n.endsWith(".json"))
    .flatMap((n) => JSON.parse(readFileSync(join(webDir, "..", "puzzles", n), "utf8")).puzzles.map((p) => [p.id, p])),
);

async function puzzleShown(page, not = "") {
  await page.waitForFunction((not) => document.body.dataset.training === "solving" && document.body.dataset.puzzle !== not, not);
  return shipped.get(await page.evaluate(() => document.body.dataset.puzzle));
}

/**
 * Places `placement` as a player does from the keyboard: its stone picked, N to step through
 * the stone's places (each shown as the ghost) until it stands there, Enter. (The pointer's
 * way depends on which column is in front from where the view looks: the daily puzzle
 * changes every day.)
 */
async function place(page, placement) {
  const p = await page.evaluate((t) => window.rumis.placements().find((q) => q.placement === t), placement);
  assert.ok(p, `${placement} is among the placements offered`);
  await page.evaluate((stone) => window.rumis.select(stone), p.stone);
  const count = await page.evaluate((stone) => window.rumis.placements().filter((q) => q.stone === stone).length, p.stone);
  for (let i = 0; i <= count && (await page.evaluate(() => window.rumis.current())) !== placement; i++) await page.keyboard.press("n");
  assert.equal(await page.evaluate(() => document.body.dataset.ghost), placement, "the ghost stands where the stone goes");
  await page.keyboard.press("Enter");
}

/** A placement offered that is not the puzzle's best. */
async function wrongPlacement(page, best) {
  return page.evaluate((best) => window.rumis.placements().find((q) => q.placement !== best).placement, best);
}

async function solveThenFail(page, name) {
  // Solved: the verdict, the themes, the rating's change.
  const first = await puzzleShown(page);
  assert.ok(first, "a shipped puzzle");
  assert.match(await page.textContent("#status"), /to move/);
  assert.equal(await page.$("#themes"), null, "the themes wait for the answer");
  await shot(page, `${name}-puzzle`);
  await place(page, first.best);
  await page.waitForFunction(() => document.body.dataset.training === "solved");
  assert.match(await page.textContent("#status"), /Well done/);
  assert.match(await page.textContent("#explanation"), new RegExp(`${first.best.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is the best placement`));
  assert.match(await page.textContent("#themes"), /Themes: /);
  assert.match(await page.textContent("#rating-change"), /1,500 → 1,662 \(\+162\)/);
  await shot(page, `${name}-solved`);

  // The next one, failed: why, with both outcomes, and the best as a ghost.
  await page.click("#next-puzzle");
  const second = await puzzleShown(page, first.id);
  assert.notEqual(second.id, first.id);
  const wrong = await wrongPlacement(page, second.best);
  await place(page, wrong);
  await page.waitForFunction(() => document.body.dataset.training === "failed");
  const why = await page.textContent("#explanation");
  assert.ok(why.includes(`${wrong} is worse than ${second.best}.`), why);
  assert.match(why, /Yours, .*The best, /s);
  assert.match(await page.textContent("#rating-change"), /1,662 → 1,\d{3} \(−\d+\)/);
  assert.ok(await page.evaluate(() => window.rumis.ghostColour()), "the best is drawn as a ghost");
  assert.ok(await page.isVisible("#retry-puzzle"));
  await shot(page, `${name}-failed`);

  // Once more: not rated any more.
  await page.click("#retry-puzzle");
  await page.waitForFunction(() => document.body.dataset.training === "solving");
  assert.ok(await page.isVisible("#tried"));
  assert.deepEqual(page.errors, []);
}

test("a puzzle solved, then one failed with its explanation, on the server", { timeout: 120_000 }, async () => {
  const player = await api(server.url, "/players", { method: "POST", body: JSON.stringify({ name: "puzzler" }) });
  const page = await openPage(browser);
  await page.goto(server.url);
  await page.evaluate((p) => localStorage.setItem("rumis.player", JSON.stringify({ id: p.id, name: p.name, key: p.key })), player);
  await page.goto(server.url);
  await page.click("#daily-link");
  await page.waitForURL(/\/training\?daily$/);
  const daily = await api(server.url, "/training/daily");
  await puzzleShown(page);
  assert.equal(await page.evaluate(() => document.body.dataset.puzzle), daily.id, "the server's daily puzzle");
  assert.match(await page.textContent("#training-kind"), /Daily puzzle · \d{4}-\d\d-\d\d/);
  assert.match(await page.textContent("#your-rating"), /Your puzzle rating: 1,500/);
  await solveThenFail(page, "training");
  // The server counted both first attempts for the key's player.
  const me = await api(server.url, `/training/${daily.id}`, { headers: { Authorization: `Bearer ${player.key}` } });
  assert.equal(me.tried, true);
  assert.equal(me.you.attempts, 2);
});

test("the same without a server: the shipped puzzles, the engine, the rating in this browser", { timeout: 180_000 }, async () => {
  const page = await openPage(browser);
  await page.goto(site.url);
  await page.waitForSelector("#no-server");
  await page.click("#daily-link");
  await page.waitForURL(/\/training\?daily$/);
  await puzzleShown(page);
  assert.match(await page.textContent("#your-rating"), /kept in this browser\): 1,500/);
  await solveThenFail(page, "training-offline");
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem("rumis.training")));
  assert.equal(kept.tried.length, 2);
  assert.equal(kept.you.attempts, 2);
  // A reload keeps the rating.
  await page.reload();
  await puzzleShown(page);
  assert.match(await page.textContent("#your-rating"), new RegExp(`: ${Math.round(kept.you.rating).toLocaleString("en")}$`));
});
