// The text mode (issue #54): a whole game of Chullpa against level 2, played with the keyboard
// alone, checked through what a screen reader receives — Chromium's accessibility tree, as
// Playwright's ARIA snapshot gives it. The switch is turned on at the start page with Tab and
// Space; every move after that is made from the text mode's controls, reached with Tab: on
// even turns the first legal placement of a stone's list (Enter), on odd turns the notation
// typed (the words of the list's chosen placement written back as notation, its columns
// backwards and in lower case, which the core reads). Each AI move must be announced in the
// live region in words that name the stone and the cells the server says it covered; the ask
// buttons must answer what the server's state says (score, turn, no clock, a column); a
// refused placement must be said and change nothing. The tree's text of the text mode at three
// moments (the first turn, the middle, the end) goes to e2e/out/blind-tree-{1,2,3}.txt and
// the test's output. A second test Tabs through the whole game page (text mode on): every
// control is reached, shows its focus, and the focus comes back round (no trap); the visible
// Keys button opens the list of shortcuts with Enter (and K), Esc gives the focus back. A
// third asks the time left in a game with a clock.
// Run: `cd web && npm run build && node --test e2e/blind.test.mjs` (RUMIS_BIN, harness.mjs).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, launch, api, outDir, openPage } from "./harness.mjs";

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

const post = (path, body) => api(server.url, path, { method: "POST", body: JSON.stringify(body) });

/** Tab (or Shift+Tab) until the element with this id has the focus; fails after 80 presses. */
async function tabTo(page, id, back = false) {
  for (let i = 0; i < 80; i++) {
    if ((await page.evaluate(() => document.activeElement?.id)) === id) return;
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  throw new Error(`Tab never reached #${id}`);
}

/** The text mode as a screen reader receives it (the accessibility tree, as YAML). */
const tree = (page) => page.locator("#text-mode").ariaSnapshot();

/** The live region's lines, from the accessibility tree. */
async function logLines(page) {
  const snap = await page.locator("#text-log").ariaSnapshot();
  return [...snap.matchAll(/- paragraph: (.*)$/gm)].map((m) => m[1].replace(/^"|"$/g, ""));
}

/** "L4 on d5, d6 (2 cubes), e7, level 2" written back as notation: columns backwards, lower case. */
function notationOf(words) {
  const m = words.match(/^(\S+) on (.*), levels? \d/);
  assert.ok(m, `a placement in words: ${words}`);
  const columns = m[2].split(", ").map((c) => {
    const stacked = c.match(/^(\w+) \((\d+) cubes?\)$/);
    return stacked ? `${stacked[1]}x${stacked[2]}` : c;
  });
  return `${m[1]}@${columns.reverse().join(",")}`.toLowerCase();
}

/** The cells a move covered, by the server's state after it (its last move's cubes), by file then rank. */
function cellsOf(state) {
  const names = new Map(state.position.columns.map((c) => [`${c.x},${c.y}`, c.cell]));
  const xy = [...new Set(state.last_move.cubes.map(([x, y]) => `${x},${y}`))].map((k) => k.split(",").map(Number));
  return xy.sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([x, y]) => names.get(`${x},${y}`));
}

/** The last move in the words the text mode must say: "L4 on d5, d6 (2 cubes), e7, level 2". */
function wordsOf(state) {
  const cubes = state.last_move.cubes;
  const names = new Map(state.position.columns.map((c) => [`${c.x},${c.y}`, c.cell]));
  const count = (cell) => cubes.filter(([x, y]) => names.get(`${x},${y}`) === cell).length;
  const columns = cellsOf(state).map((cell) => (count(cell) > 1 ? `${cell} (${count(cell)} cubes)` : cell));
  const low = Math.min(...cubes.map((c) => c[2])) + 1;
  const high = Math.max(...cubes.map((c) => c[2])) + 1;
  const stone = state.last_move.placement.split("@")[0];
  return `${stone} on ${columns.join(", ")}, ${low === high ? `level ${low}` : `levels ${low} to ${high}`}`;
}

/** Wait until the live region has said this line. */
async function said(page, line) {
  try {
    await page.waitForFunction((line) => [...document.querySelectorAll("#text-log p")].some((p) => p.textContent === line), line, { timeout: 15_000 });
  } catch {
    throw new Error(`the live region never said "${line}"; it says:\n${(await logLines(page)).join("\n")}`);
  }
}

/** Press the button with this id from the keyboard and read the answer it gives. */
async function ask(page, id) {
  await tabTo(page, id);
  await page.evaluate(() => (document.getElementById("text-answer").textContent = ""));
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.getElementById("text-answer").textContent !== "");
  return (await page.locator("#text-answer").ariaSnapshot()).replace(/^- status: /, "").replace(/^"|"$/g, "");
}

// long: one whole game by keyboard, in order: each step reads the page the last one left.
test("a whole game against level 2 in the text mode, by keyboard alone", { timeout: 600_000 }, async () => {
  const page = await openPage(browser, { viewport: { width: 1280, height: 800 }, locale: "en-GB" });
  const context = page.context();
  const errors = page.errors;

  // The switch on the start page, reached with Tab and turned on with Space.
  await page.goto(server.url);
  await page.waitForSelector(".board-card img");
  await tabTo(page, "text-mode-switch");
  await page.keyboard.press("Space");
  assert.equal(await page.evaluate(() => localStorage.getItem("rumis.pref.blind")), "1");

  const created = await post("/games", { board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "ai", level: 2 }] });
  const seat = created.seats[0];
  await page.goto(`${server.url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
  await page.waitForSelector("#text-mode:not([hidden])");
  const state = () => api(server.url, `/games/${created.id}`);
  const trees = [];
  const keep = async (label) => {
    const text = await tree(page);
    trees.push(text);
    writeFileSync(join(outDir, `blind-tree-${trees.length}.txt`), text + "\n");
    // The output shows the tree up to the first rows of each long list (the file has it all).
    const lines = text.split("\n");
    const short = lines.filter((l, i) => !/^\s+- (option|row|rowheader|cell)\b/.test(l) || lines.slice(Math.max(0, i - 14), i).some((p) => !/^\s+- (option|row|rowheader|cell)\b/.test(p)));
    console.log(`--- the accessibility tree of the text mode, ${label} (${lines.length} lines, ${short.length} shown) ---\n${short.join("\n")}`);
  };

  // What a screen reader is given: a region, a log, a combobox with completions, the lists, the table.
  await page.waitForSelector('#status[data-state="your-turn"]');
  const first = await tree(page);
  assert.match(first, /- region "Text mode"/);
  assert.match(first, /- log "Moves, read out"/);
  assert.match(first, /- combobox "Your placement, in notation"/);
  assert.match(first, /- listbox "Its legal placements"/);
  assert.match(first, /- table "The structure, column by column"/);
  const s0 = await state();
  // Every column of the board is a row of the table, in the server's words.
  const rows = (await page.locator("#text-columns tbody").ariaSnapshot()).match(/- row /g) ?? [];
  assert.equal(rows.length, s0.position.columns.length);
  const completions = await page.$$eval("#text-move-list option", (os) => os.map((o) => o.value));
  assert.deepEqual([...completions].sort(), [...s0.legal_moves].sort(), "the completions are the legal placements");

  // The commands, asked from the keyboard, answer what the server's state says.
  assert.equal(await ask(page, "text-ask-turn"), "Your turn (Red)");
  assert.equal(await ask(page, "text-ask-time"), "This game has no clock.");
  const NAMES = { R: "Red", Y: "Yellow" };
  const scores = s0.colours.map((c) => `${NAMES[c.colour]} ${c.score}, ${c.stones_left.length} stones left`).join("; ");
  assert.equal(await ask(page, "text-ask-score"), `${scores}.`);

  // A placement the core refuses is said, and nothing is played.
  await tabTo(page, "text-move");
  await page.keyboard.type("L4@a1,a2");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => [...document.querySelectorAll("#text-log p")].some((p) => p.textContent.startsWith("Not placed:")));
  assert.equal((await state()).moves_played, 0);
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Backspace");
  await keep("at the first turn");

  let turns = 0;
  let aiMoves = 0;
  for (;;) {
    await page.waitForSelector('#status[data-state="your-turn"], #status[data-state="over"]', { timeout: 120_000 });
    const before = await state();
    if (before.over) break;
    // The AI's move before this turn was announced in words: its stone and the cells it took.
    if (before.moves_played > 0 && before.last_move.colour === "Y") {
      await said(page, `Yellow placed ${wordsOf(before)}.`);
      aiMoves += 1;
    }
    await page.waitForFunction((n) => Number(document.body.dataset.moveNumber) === n, before.move_number);
    if (turns === 6) {
      // What a column holds, asked while it is our turn (nothing moves meanwhile): the column
      // of the AI's last move, as the server has it.
      const cell = cellsOf(before)[0];
      const col = before.position.columns.find((c) => c.cell === cell);
      await tabTo(page, "text-column");
      await page.keyboard.type(cell.toUpperCase());
      await page.keyboard.press("Enter");
      await page.waitForFunction((cell) => document.getElementById("text-answer").textContent.startsWith(`${cell}:`), cell);
      const answer = await page.textContent("#text-answer");
      const colours = col.cubes.map((l) => NAMES[l]).join(", ");
      assert.equal(answer, `${cell}: height ${col.height}, height limit ${col.limit}, ${NAMES[col.top]} on top; from the bottom: ${colours}.`);
      await keep("in the middle of the game");
    }
    if (turns % 2 === 0) {
      // A stone's legal placements, in words: the first one, with Enter.
      await tabTo(page, "text-places");
      await page.keyboard.press("Enter");
    } else {
      // Notation typed: the chosen placement's words written back, which the core reads.
      const option = (await page.locator("#text-places").ariaSnapshot()).match(/- option "([^"]+)" \[selected\]/);
      assert.ok(option, "a placement is chosen in the list");
      await tabTo(page, "text-move", true);
      await page.keyboard.type(notationOf(option[1]));
      await page.keyboard.press("Enter");
    }
    await page.waitForFunction((n) => Number(document.body.dataset.moveNumber) > n || document.body.dataset.over === "true", before.move_number, { timeout: 30_000 });
    const after = await state();
    assert.equal(after.moves[before.moves_played]?.colour, "R", "our placement was played");
    // Our own move is said too (the state right after it: its cubes).
    await said(page, `Red placed ${wordsOf(await api(server.url, `/games/${created.id}?at=${before.moves_played + 1}`))}.`);
    turns += 1;
  }
  const end = await state();
  assert.ok(end.over);
  assert.ok(turns >= 6, `we played ${turns} moves`);
  assert.ok(aiMoves >= 5, `${aiMoves} AI moves were announced`);
  // The ending is said in the log too.
  const lines = await logLines(page);
  assert.ok(lines.some((l) => /wins\.|share the win\./.test(l)), `the result is announced: ${lines.join(" | ")}`);
  await keep("at the end");
  console.log(`turns played: ${turns}; AI moves announced: ${aiMoves}; moves in the game: ${end.moves_played}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the game page by keyboard: every control reached, its focus seen, no trap, the keys listed", { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-GB" });
  await context.addInitScript(() => localStorage.setItem("rumis.pref.blind", "1"));
  const page = await context.newPage();
  const created = await post("/games", { board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "ai", level: 2 }] });
  const seat = created.seats[0];
  await page.goto(`${server.url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
  await page.waitForSelector('#status[data-state="your-turn"]');
  await page.waitForSelector("#text-places option");

  // Tab from the page's start until the focus comes back to the first control: every control
  // on the way shows where the focus is (an outline), and none keeps it (no trap).
  const seen = [];
  for (let i = 0; i < 300; i++) {
    await page.keyboard.press("Tab");
    const f = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const name = el.id ? `#${el.id}` : `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}"`;
      return { name, outline: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0 };
    });
    if (!f) continue;
    if (seen.length && f.name === seen[0].name) break;
    seen.push(f);
  }
  assert.ok(seen.length > 0 && seen.length < 300, `Tab comes back to the first control (${seen.length} stops)`);
  const unseen = seen.filter((f) => !f.outline).map((f) => f.name);
  assert.deepEqual(unseen, [], "every control shows its focus");
  // Every control that can be used is on the way.
  const controls = await page.evaluate(() =>
    [...document.querySelectorAll('a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex="0"]')]
      .filter((el) => el.getClientRects().length > 0 && !el.closest("[hidden], dialog:not([open])"))
      .map((el) => (el.id ? `#${el.id}` : null))
      .filter(Boolean),
  );
  const reached = new Set(seen.map((f) => f.name));
  assert.deepEqual(
    controls.filter((c) => !reached.has(c)),
    [],
    "Tab reaches every control",
  );
  console.log(`Tab stops on the game page (text mode on): ${seen.length}`);

  // The keys: a visible button (not a folded line), opened with Enter; Esc gives the focus back.
  assert.ok(await page.locator("#keys-button").isVisible());
  await tabTo(page, "keys-button");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#keys-dialog[open]");
  const keys = await page.locator("#keys-dialog").ariaSnapshot();
  console.log(`--- the list of keys, as the accessibility tree gives it ---\n${keys}`);
  assert.match(keys, /- dialog "Keys of the game page"/);
  for (const item of ["[ ] choose a stone", "Enter place", "H hint", "? or K show this list"]) assert.ok(keys.includes(`- listitem: ${item}`) || keys.includes(`- listitem: "${item}"`), `the list names "${item}"`);
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.getElementById("keys-dialog").open);
  assert.equal(await page.evaluate(() => document.activeElement?.id), "keys-button");
  // K opens it from anywhere on the page but a text field.
  await page.keyboard.press("k");
  await page.waitForSelector("#keys-dialog[open]");
  assert.ok(await page.evaluate(() => !!document.activeElement?.closest("#keys-dialog")), "the focus is in the open dialog");
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.getElementById("keys-dialog").open);
  await context.close();
});

test("the time left, asked in the text mode of a game with a clock", { timeout: 60_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-GB" });
  await context.addInitScript(() => localStorage.setItem("rumis.pref.blind", "1"));
  const page = await context.newPage();
  const created = await post("/games", {
    board: "Chullpa",
    players: 2,
    seats: [{ kind: "human" }, { kind: "human" }],
    clock: { kind: "realtime", minutes: 10, increment_seconds: 5, on_timeout: "out" },
  });
  const seat = created.seats[0];
  await page.goto(`${server.url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
  await page.waitForSelector("#clocks:not([hidden]) td.time");
  // Each seat by its colours, with the time the clock shows: ten minutes or a little less.
  const answer = await ask(page, "text-ask-time");
  assert.match(answer, /^Red: (10:00|9:\d\d); Yellow: (10:00|9:\d\d)\.$/);
  await context.close();
});
