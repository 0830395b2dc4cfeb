// A board of one's own, from the editor to an online game and back to the CLI: drawn from
// scratch (a few cells, a printed height, a frame for 2 players), refused while bad, the
// downloaded file read by `rumis show --board-file`, "Play on this board" against the AI
// at level 1 to the end, and the downloaded record replayed by `rumis score --record` to
// the scores the page shows. The start page's cards show each board's evidence, and the
// new-game form offers the pass house rule.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, launch, api, outDir, binary, moveNumber, waitMovePast, scratchDir, shot, openPage } from "./harness.mjs";

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


async function verdict(page, want) {
  await page.waitForFunction((w) => document.body.dataset.editor === w, want, { timeout: 15000 });
}

async function centre(page, cell) {
  const b = await page.$eval(`.ed-cell[data-cell="${cell}"]`, (e) => e.getBoundingClientRect().toJSON());
  return [b.x + b.width / 2, b.y + b.height / 2];
}

async function drag(page, from, to) {
  const [x0, y0] = await centre(page, from);
  const [x1, y1] = await centre(page, to);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move(x1, y1, { steps: 4 });
  await page.mouse.up();
}

test("a board drawn in the editor: the CLI reads it, a game on it is played to the end against the AI, its record replays in the CLI", async () => {
  const page = await openPage(browser, { viewport: { width: 1400, height: 900 }, locale: "en", acceptDownloads: true });
  const context = page.context();
  const errors = page.errors;
  const dir = scratchDir("rumis-boards-");

  await page.goto(`${server.url}/boards/edit`);
  // A new board: nothing drawn yet, where to begin (not a refusal in red).
  await verdict(page, "empty");
  assert.equal(await page.isDisabled("#ed-play-button"), true, "no game on a board the core refuses");
  await page.fill("#ed-name", "Patio");
  await page.fill("#ed-files", "3");
  await page.fill("#ed-ranks", "3");
  // Six cells: a1–c1 and a2–c2; b2 printed 2; the frame for 2 players a1:b2.
  await drag(page, "a1", "c1");
  await drag(page, "a2", "c2");
  await page.click("#tool-height-2");
  await page.click('.ed-cell[data-cell="b2"]');
  await page.click("#tool-frame-2");
  await drag(page, "a1", "b2");
  await verdict(page, "ok");
  assert.equal(await page.inputValue("#ed-frame-2"), "a1:b2");
  // A bad Hmax: the core's message at its field; no game, no download.
  await page.fill("#ed-hmax-2", "0");
  await verdict(page, "refused");
  assert.match(await page.textContent("#fault-hmax"), /^Line \d+: hmax for 2 players is 0; it must be 1 to 15$/);
  assert.equal(await page.isDisabled("#ed-play-button"), true);
  await page.fill("#ed-hmax-2", "3");
  await verdict(page, "ok");

  // The download is what `rumis show --board-file` plays on: the frame's four cells, b2 at 2.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#ed-download")]);
  const file = join(dir, "patio.toml");
  await download.saveAs(file);
  const show = execFileSync(binary(), ["show", "--board-file", file, "--players", "2"], { encoding: "utf8" });
  assert.ok(show.includes("Patio"), show);
  assert.match(show, /Height limits:\n\s+a\s+b\s+c\s*\n\s+3\s*\n\s+2\s+3\s+2\s*\n\s+1\s+3\s+3\s*\n/, show);

  // Play on it: 2 players, the AI at level 1.
  await page.click("#ed-play-button");
  await page.waitForSelector("#ed-play:not([hidden])");
  await page.selectOption("#play-players", "2");
  await page.selectOption("#play-against", "ai:1");
  await shot(page, "editor-play");
  await Promise.all([page.waitForURL(/\/game\/[0-9a-f]{16}$/), page.click("#play-start")]);
  const id = page.url().split("/").pop();
  const created = await api(server.url, `/games/${id}`);
  assert.equal(created.site.board, "Patio");
  assert.equal(created.site.custom, true);
  assert.equal(created.site.board_file, readFileSync(file, "utf8"), "the game is on the very file downloaded");
  assert.deepEqual(
    created.position.columns.map((c) => [c.cell, c.limit]),
    [["a1", 3], ["b1", 3], ["a2", 3], ["b2", 2]],
  );
  await page.waitForFunction(() => document.querySelector(".game-title")?.textContent.includes("own board"));

  // To the end, from the keyboard: the next place for the chosen stone, then Enter.
  for (let i = 0; i < 20; i++) {
    await page.waitForSelector('#status[data-state="your-turn"], #status[data-state="over"]', { timeout: 60000 });
    if ((await page.getAttribute("#status", "data-state")) === "over") break;
    const before = await moveNumber(page);
    await page.keyboard.press("n");
    assert.ok(await page.evaluate(() => window.rumis.current()), "N shows a place");
    await page.keyboard.press("Enter");
    await waitMovePast(page, before);
  }
  await page.waitForSelector("#final-scores", { timeout: 60000 });
  const shown = await page.$$eval("#final-scores tr[data-colour]", (rows) =>
    rows.map((r) => `${r.dataset.colour} ${Number(r.querySelector(".final-score").dataset.score)}`),
  );
  await shot(page, "own-board-end");

  // The record from the page's button replays in the CLI alone, to the same scores.
  const [rec] = await Promise.all([page.waitForEvent("download"), page.click("#record")]);
  const recordFile = join(dir, "patio-game.txt");
  await rec.saveAs(recordFile);
  const text = readFileSync(recordFile, "utf8");
  assert.match(text, /^\[BoardFile "/m, text);
  const score = execFileSync(binary(), ["score", "--record", recordFile], { encoding: "utf8" });
  const lines = score.split("\n").filter((l) => /^[RYGB] -?\d+$/.test(l));
  assert.deepEqual(lines, shown, score);
  assert.match(score, /winner/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the start page: each board's evidence and provenance, and the pass house rule for a new game", async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: "en" });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector(".board-card img");
  const boards = (await api(server.url, "/boards")).boards;
  const cori = boards.find((b) => b.name === "Coricancha");
  assert.ok(cori.evidence.length >= 1);
  const box = page.locator('.board-item[data-board="Coricancha"] .evidence');
  assert.equal(await box.getAttribute("data-evidence"), String(cori.evidence.length));
  await box.locator("summary").click();
  const text = await box.textContent();
  for (const e of cori.evidence) assert.ok(text.includes(e.fact) && text.includes(e.source), `${e.fact} with its source`);
  assert.match(text, /Checked by the tests: at least 62 cells for 3 players/);
  assert.match(await page.textContent('.board-card[data-board="Coricancha"] .provenance'), /reconstruction/);
  await page.locator('.board-item[data-board="Coricancha"]').screenshot({ path: join(outDir, "board-card-evidence.png") });

  // The house rule: a stuck colour passes; the game is created under it and says so.
  await page.click('.board-card[data-board="Chullpa"]');
  await page.click("#stuck-rules summary");
  await page.click('#stuck-rules label:has(input[value="pass"])');
  assert.equal(await page.isChecked('#stuck-rules input[value="pass"]'), true);
  await page.locator("#setup").screenshot({ path: join(outDir, "new-game-house-rules.png") });
  await Promise.all([page.waitForURL(/\/game\/[0-9a-f]{16}$/), page.click("#create")]);
  const id = page.url().split("/").pop();
  assert.equal((await api(server.url, `/games/${id}`)).site.stuck_rule, "pass");
  await page.waitForFunction(() => document.querySelector(".game-title")?.dataset.stuckRule === "pass");
  assert.match(await page.textContent(".game-title"), /a stuck colour passes/);

  // A game under the rule played to its end (the CLI's self-play, sent move by move): each
  // pass the server names is a line of the page's move list.
  const dir = scratchDir("rumis-pass-");
  const recordFile = join(dir, "pass.txt");
  execFileSync(binary(), ["selfplay", "--board", "chullpa", "--players", "4", "--stuck-rule", "pass", "--seed", "11", "--out", recordFile]);
  const moves = readFileSync(recordFile, "utf8")
    .split("\n")
    .filter((l) => !l.startsWith("["))
    .join(" ")
    .split(/\s+/)
    .filter((w) => w.includes("@"));
  const hot = await api(server.url, "/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ board: "chullpa", players: 4, stuck_rule: "pass", hot_seat: true }) });
  const token = hot.seats[0].token;
  const passes = [];
  for (const [i, placement] of moves.entries()) {
    const ack = await api(server.url, `/games/${hot.id}/moves`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ placement, expected_move_number: i + 1 }),
    });
    for (const c of ack.passed) passes.push(`${i + 1}${c}`);
  }
  assert.ok(passes.length > 0, "a colour passed in this game");
  await page.goto(`${server.url}/game/${hot.id}`);
  await page.waitForSelector("#final-scores");
  const listed = await page.$$eval("#movelist tr.passed", (rows) => rows.map((r) => `${r.dataset.after}${r.dataset.passed}`));
  assert.deepEqual(listed, passes);
  assert.match(await page.textContent("#movelist tr.passed"), /cannot place and passes/);
  await page.$eval("#movelist tr.passed", (r) => r.scrollIntoView({ block: "center" }));
  await page.locator("#movelist").screenshot({ path: join(outDir, "pass-in-move-list.png") });
  await context.close();
});
