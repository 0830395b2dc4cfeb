// Accessibility (issue #54): axe-core's WCAG 2.0/2.1 A and AA rules on every page of the app
// and on the game page in each of its states, in Chromium. A test fails on any violation of
// impact "critical" or "serious", naming its rule, impact, the elements (axe's selectors) and
// what is wrong; at the end a table gives the counts per page and state, by impact (each
// element that fails a rule counts once, as axe lists them).
// The pages: the start page (at a desk, on a phone, with every field of the clock shown), How
// to play, the lobby (before a name is chosen, and after, with another player's game open),
// the board editor, the solitaire, the puzzles (one to solve and one answered), the
// leaderboard, a player's page and the import of a key;
// the game page with one's own stone picked (at a desk and on a phone), with the AI thinking,
// with a clock running, the end screen of a game played to its end and a review of it (a move
// stepped back to), the guided first game, the text mode (a move announced and a command
// answered, at a desk and on a phone) and the list of keys open.
// axe-core (the package, pinned in package.json) is evaluated in the page rather than added
// as a script tag: the document it audits gains no element, and a Content-Security-Policy, if
// the server ever sends one, would not stop it.
// Run: `cd web && npm run build && node --test e2e/a11y.test.mjs` (RUMIS_BIN, harness.mjs).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { startServer, launch, api, openPage, openSeat, pickName } from "./harness.mjs";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const IMPACTS = ["critical", "serious", "moderate", "minor"];
const FAILING = new Set(["critical", "serious"]);

let server;
let browser;
/** Per page or state: { critical, serious, moderate, minor }, in the order measured. */
const counts = new Map();

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  const rows = [...counts].map(([name, c]) => [name, ...IMPACTS.map((i) => String(c[i]))]);
  const head = ["page / state", ...IMPACTS];
  const width = head.map((_, k) => Math.max(head[k].length, ...rows.map((r) => r[k].length)));
  const line = (r) => `| ${r.map((cell, k) => (k ? cell.padStart(width[k]) : cell.padEnd(width[k]))).join(" | ")} |`;
  const total = IMPACTS.map((i) => String([...counts.values()].reduce((n, c) => n + c[i], 0)));
  console.log(["axe-core (" + TAGS.join(", ") + "): elements failing, by impact", line(head), `|${width.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line), line(["total", ...total])].join("\n"));
});

const newPage = (options = {}) => openPage(browser, { locale: "en-GB", ...options });

const post = (path, body, token) =>
  api(server.url, path, { method: "POST", headers: token ? { Authorization: `Bearer ${token}` } : {}, body: JSON.stringify(body) });

/**
 * Runs axe on the page as it is, records the counts under `name` and fails on any critical or
 * serious violation (after the page's context is closed).
 */
async function audit(page, name) {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.evaluate(AXE);
  const violations = await page.evaluate(
    (tags) => window.axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] }).then((r) => r.violations),
    TAGS,
  );
  const c = Object.fromEntries(IMPACTS.map((i) => [i, 0]));
  const failing = [];
  for (const v of violations)
    for (const node of v.nodes) {
      const impact = node.impact ?? v.impact;
      c[impact] += 1;
      if (FAILING.has(impact)) failing.push({ v, node, impact });
    }
  counts.set(name, c);
  const errors = page.errors;
  await page.context().close();
  const report = failing.map(
    ({ v, node, impact }) =>
      `  ${v.id} (${impact}) at ${node.target.map((t) => (Array.isArray(t) ? t.join(" >>> ") : t)).join(", ")}: ${v.help}\n    ${(node.failureSummary ?? "").replace(/\n/g, "\n    ")}`,
  );
  assert.equal(failing.length, 0, `${name}: ${failing.length} critical or serious violations of WCAG 2.1 AA:\n${report.join("\n")}`);
  assert.deepEqual(errors, []);
}

/** The first legal move of the seat to move, through the API with its key. */
async function apiMove(created) {
  const s = await api(server.url, `/games/${created.id}`);
  await post(`/games/${created.id}/moves`, { placement: s.legal_moves[0], expected_move_number: s.move_number }, created.seats[s.seat_to_move].token);
}

test("the start page", async () => {
  const page = await newPage();
  await page.goto(server.url);
  await page.waitForSelector(".board-card img");
  await audit(page, "start");
});

test("the start page on a phone", async () => {
  const page = await newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(server.url);
  await page.waitForSelector(".board-card img");
  await audit(page, "start (phone)");
});

test("the start page with a clock chosen: its every field shown", async () => {
  const page = await newPage();
  await page.goto(server.url);
  await page.waitForSelector(".board-card img");
  await page.selectOption("#clock-kind", "correspondence");
  await page.selectOption("#clock-timeout", "ai");
  await page.waitForSelector("#clock-days");
  await page.waitForSelector("#clock-level");
  await audit(page, "start (clock fields)");
});

test("How to play", async () => {
  const page = await newPage();
  await page.goto(`${server.url}/how-to-play`);
  await page.waitForSelector('body[data-lessons="ready"]');
  await audit(page, "how to play");
});

test("the lobby before a name is chosen", async () => {
  const page = await newPage();
  await page.goto(`${server.url}/lobby`);
  await page.waitForSelector("#player-name");
  await audit(page, "lobby (no name)");
});

test("the lobby with a name chosen and another player's game open", async () => {
  const other = await newPage();
  await pickName(other, server.url, "Cai");
  await other.selectOption("#seek-board", "Chullpa");
  await other.click("#seek-create");
  await other.waitForURL(/\/game\/[0-9a-f]{16}$/);
  const id = other.url().split("/").pop();
  const page = await newPage();
  await pickName(page, server.url, "Ana");
  await page.waitForSelector(`.lobby-card[data-game="${id}"] .join-game`, { timeout: 10000 });
  await audit(page, "lobby (named)");
  await other.context().close();
});

test("the board editor", async () => {
  const page = await newPage();
  await page.goto(`${server.url}/boards/edit`);
  await page.waitForFunction(() => ["ok", "empty", "refused"].includes(document.body.dataset.editor), null, { timeout: 15000 });
  await audit(page, "board editor");
});

test("the solitaire", async () => {
  const page = await newPage();
  await page.goto(`${server.url}/puzzle`);
  await page.waitForSelector('#status[data-state="building"]');
  await audit(page, "solitaire");
});

test("the puzzles: one to solve", async () => {
  const page = await newPage();
  await page.goto(`${server.url}/training?daily`);
  await page.waitForFunction(() => document.body.dataset.training === "solving");
  await audit(page, "puzzle");
});

test("the puzzles: one answered", async () => {
  const page = await newPage();
  await page.goto(`${server.url}/training?daily`);
  await page.waitForFunction(() => document.body.dataset.training === "solving");
  // The first place offered, from the keyboard: solved, or (most often) why not.
  await page.evaluate(() => window.rumis.select(window.rumis.placements()[0].stone));
  await page.keyboard.press("n");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => ["failed", "solved"].includes(document.body.dataset.training));
  await audit(page, "puzzle answered");
});

test("the leaderboard", async () => {
  const page = await newPage();
  await page.goto(`${server.url}/leaderboard`);
  await page.waitForSelector("#leaderboard li.ai");
  await audit(page, "leaderboard");
});

test("a player's page", async () => {
  const page = await newPage();
  const me = await pickName(page, server.url, "Ben");
  await page.goto(`${server.url}/players/${me.id}`);
  await page.waitForSelector("#player-rating");
  await audit(page, "player page");
});

test("bringing a key from another device", async () => {
  const page = await newPage();
  await page.goto(`${server.url}/players/import`);
  await page.waitForSelector("#key-in");
  await audit(page, "key import");
});

for (const [name, viewport] of [
  ["", { width: 1280, height: 800 }],
  [" (phone)", { width: 390, height: 844 }],
])
  test(`a game in play: one's own turn with a stone picked${name}`, async () => {
    const created = await post("/games", { board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "human" }] });
    for (let i = 0; i < 6; i++) await apiMove(created);
    const page = await newPage({ viewport });
    await openSeat(page, server.url, created, 0);
    await page.waitForSelector('#status[data-state="your-turn"]');
    await page.click(".stone:not([disabled])");
    await page.waitForFunction(() => window.rumis.selected());
    await audit(page, `game: stone picked${name}`);
  });

for (const [name, viewport] of [
  ["", { width: 1280, height: 800 }],
  [" (phone)", { width: 390, height: 844 }],
])
  test(`a game in play in the text mode: a move announced, a command answered${name}`, async () => {
    const created = await post("/games", { board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "human" }] });
    for (let i = 0; i < 4; i++) await apiMove(created);
    const page = await newPage({ viewport });
    await page.addInitScript(() => localStorage.setItem("rumis.pref.blind", "1"));
    await openSeat(page, server.url, created, 0);
    await page.waitForSelector('#status[data-state="your-turn"]');
    await page.waitForSelector("#text-mode:not([hidden]) #text-places option");
    await apiMove(created);
    await page.waitForSelector('#status[data-state="waiting"]');
    await page.waitForSelector("#text-log p");
    await page.click("#text-ask-score");
    await page.waitForFunction(() => document.getElementById("text-answer").textContent !== "");
    await audit(page, `game: text mode${name}`);
  });

test("a game in play: the list of keys open", async () => {
  const created = await post("/games", { board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "human" }] });
  const page = await newPage();
  await openSeat(page, server.url, created, 0);
  await page.waitForSelector('#status[data-state="your-turn"]');
  await page.keyboard.press("k");
  await page.waitForSelector("#keys-dialog[open]");
  await audit(page, "game: keys listed");
});

test("a game in play: the AI thinking", async () => {
  // Level 9 searches for seconds (longer on a loaded machine): its indicator is up meanwhile.
  const created = await post("/games", { board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "ai", level: 9 }] });
  const page = await newPage();
  await openSeat(page, server.url, created, 0);
  await page.waitForSelector('#status[data-state="your-turn"]');
  await apiMove(created);
  await page.waitForSelector('#ai-thinking[data-thinking="true"]', { timeout: 15000 });
  await audit(page, "game: AI thinking");
  // The game ends, so that the search need not go on beside the other tests.
  await post(`/games/${created.id}/resign`, {}, created.seats[0].token);
});

test("a game in play: a clock running", async () => {
  const created = await post("/games", {
    board: "Chullpa",
    players: 2,
    seats: [{ kind: "human" }, { kind: "human" }],
    clock: { kind: "realtime", minutes: 10, increment_seconds: 5, on_timeout: "out" },
  });
  await apiMove(created);
  const page = await newPage();
  await openSeat(page, server.url, created, 0);
  await page.waitForSelector("#clocks:not([hidden]) td.time");
  const ms = () => page.$eval('#clocks td.time[data-seat="1"]', (el) => Number(el.dataset.ms));
  const first = await ms();
  await page.waitForFunction((first) => Number(document.querySelector('#clocks td.time[data-seat="1"]').dataset.ms) < first, first);
  await audit(page, "game: clock running");
});

/** A game of two people played to its end through the API (each the first legal move). */
async function finishedGame() {
  const created = await post("/games", { board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "human" }] });
  for (let i = 0; i < 200; i++) {
    const s = await api(server.url, `/games/${created.id}`);
    if (s.over) return created;
    await post(`/games/${created.id}/moves`, { placement: s.legal_moves[0], expected_move_number: s.move_number }, created.seats[s.seat_to_move].token);
  }
  throw new Error("the game did not end in 200 moves");
}

test("a finished game: the end screen", async () => {
  const page = await newPage();
  await openSeat(page, server.url, await finishedGame(), 0);
  await page.waitForSelector("#final-scores");
  await page.waitForSelector("#step-back");
  await audit(page, "game: end screen");
});

test("a finished game: a review, a move stepped back to", async () => {
  const page = await newPage();
  await openSeat(page, server.url, await finishedGame(), 0);
  await page.waitForSelector("#step-back");
  const last = await page.evaluate(() => Number(document.body.dataset.moveNumber));
  await page.click("#step-back");
  await page.waitForFunction((last) => Number(document.body.dataset.moveNumber) < last, last);
  await audit(page, "game: review");
});

test("a finished game: its review done (marks, summary, the best move's ghost, play from here)", { timeout: 180_000 }, async () => {
  const page = await newPage();
  await openSeat(page, server.url, await finishedGame(), 0);
  await page.click("#review-start");
  await page.waitForSelector("#review-summary", { timeout: 150_000 });
  await page.click("#step-back");
  await page.waitForSelector("#review-move");
  await page.waitForSelector("#play-from");
  await audit(page, "game: review done");
});

test("the guided first game", async () => {
  const page = await newPage();
  await page.goto(server.url);
  await page.waitForSelector(".board-card img");
  await page.click("#guided-game");
  await page.waitForURL(/\/game\/[a-z0-9]+$/);
  await page.waitForSelector('#tutorial[data-step="welcome"]');
  await audit(page, "guided first game");
});
