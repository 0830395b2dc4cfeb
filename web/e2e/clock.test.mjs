// Clocks, timeouts, resign and the your-turn signal in the browser, with two browser contexts
// (two players, each with their own seat link): a clock of 0.1 or 0.2 minute runs out for the
// player who stops moving — under "out" the other wins at once (two players), under "AI takes over" the AI plays
// that seat; resign (confirmed in place) at a turn not one's own; the tab's title says "your
// turn" in the page that is not in front; the new-game form asks for a clock.
// Run: `cd web && npm run build && node --test e2e/clock.test.mjs` (after `cargo build`).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launch, api, outDir, openPage, openSeat } from "./harness.mjs";

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

const newPage = (locale = "en-GB") => openPage(browser, { locale });

const post = (path, body, token) =>
  api(server.url, path, { method: "POST", headers: token ? { Authorization: `Bearer ${token}` } : {}, body: JSON.stringify(body) });
const state = (id) => api(server.url, `/games/${id}`);

/** Seat `i`'s page of a game made through the API, once it shows the clocks. */
async function openClocks(page, created, i) {
  await openSeat(page, server.url, created, i);
  await page.waitForSelector("#clocks:not([hidden]) td.time");
}

/** Red (seat 0) moves at once through the API, so that Yellow's time starts now. */
async function redMoves(created) {
  const s = await state(created.id);
  await post(`/games/${created.id}/moves`, { placement: s.legal_moves[0], expected_move_number: 1 }, created.seats[0].token);
}

const twoHumans = (clock) => post("/games", { board: "chullpa", players: 2, seats: [{ kind: "human" }, { kind: "human" }], clock });

test("under 'out' the player who stops moving times out and the other wins; clocks tick; the title says your turn", async () => {
  // 24 s: long enough for both pages to open on a busy machine before Yellow's time is up
  // (12 s was not, on a 2-core AMD EPYC with the Rust tests running beside).
  const created = await twoHumans({ kind: "realtime", minutes: 0.4, increment_seconds: 5, on_timeout: "out" });
  await redMoves(created);
  const red = await newPage();
  const yellow = await newPage();
  await openClocks(yellow, created, 1);
  await openClocks(red, created, 0);
  // Yellow's page is not in front (Red's was opened last and is the one used): its title says it is Yellow's turn.
  await yellow.waitForFunction(() => document.title.startsWith("●"), null, { timeout: 5000 });
  assert.match(await yellow.title(), /Your turn/);
  assert.doesNotMatch(await red.title(), /Your turn/);
  // Yellow's clock ticks on Red's page, Red's stands.
  const ms = (page, seat) => page.$eval(`#clocks td.time[data-seat="${seat}"]`, (el) => Number(el.dataset.ms));
  const y0 = await ms(red, 1);
  await red.waitForTimeout(600);
  const y1 = await ms(red, 1);
  assert.ok(y1 < y0 - 300 && y1 > 0, `Yellow's clock runs: ${y0} then ${y1}`);
  assert.ok(y0 <= 24000, `${y0}`);
  assert.equal(await ms(red, 0), (await ms(red, 0)), "Red's clock stands");
  await red.screenshot({ path: join(outDir, "clock-running.png") });
  // Yellow's time runs out: Yellow forfeits, and in two players the game ends at once with
  // Red the winner (rules §5.1). Both pages say why, and who won for whom.
  const why = "Yellow ran out of time — Red wins.";
  await red.waitForFunction((t) => document.getElementById("result-line")?.textContent === t, why, { timeout: 30000 });
  const after = await state(created.id);
  assert.deepEqual(after.left, [{ colour: "Y", after_move: 1, reason: "time" }]);
  assert.deepEqual([after.over, after.winners, after.places, after.forfeited], [true, [0], [1, 2], [1]]);
  assert.equal(await red.textContent("#you-result"), "You win");
  assert.match(await red.textContent('#movelist tr.departed[data-why="time"][data-after="1"]'), /Yellow ran out of time/);
  await yellow.waitForFunction((t) => document.getElementById("result-line")?.textContent === t, why, { timeout: 10000 });
  assert.equal(await yellow.textContent("#you-result"), "You lose");
  await red.screenshot({ path: join(outDir, "clock-timeout-out.png") });
  await red.waitForSelector('body[data-over="true"]', { timeout: 15000 });
  assert.doesNotMatch(await red.title(), /Your turn/);
  assert.deepEqual([...red.errors, ...yellow.errors], []);
  await red.context().close();
  await yellow.context().close();
});

test("under 'AI takes over' the AI plays the seat whose time ran out", async () => {
  const created = await twoHumans({ kind: "realtime", minutes: 0.1, increment_seconds: 5, on_timeout: "ai", ai_level: 1 });
  await redMoves(created);
  const red = await newPage("de-DE");
  await openClocks(red, created, 0);
  assert.match(await red.textContent("#clocks .clock-rule"), /KI 1 spielt weiter/);
  // After Yellow's 6 s the AI plays Yellow's move, and it is Red's turn again.
  await red.waitForFunction(() => Number(document.body.dataset.moveNumber) >= 3, null, { timeout: 20000 });
  const s = await state(created.id);
  assert.equal(s.seats[1].kind, "ai");
  assert.equal(s.moves[1].colour, "Y");
  assert.deepEqual(s.left, []);
  await red.waitForSelector('#players tr[data-colour="Y"] td.who:text("KI 1")');
  // Said on Red's page, in German: Yellow's time ran out, the AI plays on.
  assert.equal(await red.textContent('#movelist tr.departed[data-why="time_ai"] td:last-child'), "Gelb hat die Zeit überschritten — die KI spielt weiter");
  assert.deepEqual(red.errors, []);
  await red.context().close();
});

test("resign, confirmed in place, at a turn not one's own; the others play on", async () => {
  const created = await post("/games", { board: "chullpa", players: 3, seats: [{ kind: "human" }, { kind: "human" }, { kind: "human" }], clock: { kind: "correspondence", days: 1 } });
  const green = await newPage("fr-FR");
  await openClocks(green, created, 2);
  await green.click("#resign");
  await green.click("#resign-no");
  assert.equal((await state(created.id)).left.length, 0, "cancelled: nothing happened");
  await green.click("#resign");
  assert.match(await green.textContent("#seat-actions"), /Abandonner \?/);
  await green.click("#resign-yes");
  await green.waitForSelector('#players tr[data-colour="G"].out');
  const s = await state(created.id);
  assert.deepEqual(s.left, [{ colour: "G", after_move: 0, reason: "resigned" }]);
  assert.equal(s.to_move, "R");
  // The move list says it before the first move; the game goes on for the others.
  assert.equal(await green.textContent('#movelist tr.departed[data-why="resigned"][data-after="0"] td:last-child'), "Vert a abandonné");
  assert.equal(await green.getAttribute("#status", "data-state"), "waiting");
  // Nothing left to resign: the buttons are gone.
  await green.waitForSelector("#seat-actions", { state: "hidden" });
  await green.screenshot({ path: join(outDir, "clock-resigned.png") });
  assert.deepEqual(green.errors, []);
  await green.context().close();
});

test("the new-game form asks for a clock", async () => {
  const page = await newPage();
  await page.goto(server.url);
  await page.selectOption("#clock-kind", "realtime");
  await page.fill("#clock-minutes", "3");
  await page.dispatchEvent("#clock-minutes", "change");
  await page.selectOption("#clock-timeout", "ai");
  await page.selectOption("#clock-level", "2");
  await page.screenshot({ path: join(outDir, "clock-form.png") });
  await page.click("#create");
  await page.waitForURL(/\/game\/[a-z0-9]+$/);
  const id = page.url().split("/").pop();
  const s = await state(id);
  assert.equal(s.clock.kind, "realtime");
  assert.equal(s.clock.initial_ms, 180000);
  assert.equal(s.clock.on_timeout, "ai");
  assert.equal(s.clock.ai_level, 2);
  await page.waitForSelector("#clocks:not([hidden])");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
