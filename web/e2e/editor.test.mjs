// The board editor (/boards/edit): a board drawn from scratch is checked by the core as it
// is drawn, a bad one is refused with the core's message next to the field and the cell it
// names, the downloaded file is what `rumis boards --board-file` reads (same columns and
// Hmax), a file can be opened again, and a built-in board is a starting point with its preview.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, launch, api, outDir, binary, webDir, openPage } from "./harness.mjs";

let server;
let browser;
const NAME = 'Tëst "Steps" \\ 1';

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const shot = (page, name) => page.screenshot({ path: join(outDir, `${name}.png`), fullPage: true });
const state = (page) => page.evaluate(() => document.body.dataset.editor);

/** Waits for the core's verdict on the board as it is now. */
async function verdict(page, want) {
  await page.waitForFunction((w) => document.body.dataset.editor === w, want, { timeout: 15000 });
}

async function centre(page, cell) {
  const b = await page.$eval(`.ed-cell[data-cell="${cell}"]`, (e) => e.getBoundingClientRect().toJSON());
  return [b.x + b.width / 2, b.y + b.height / 2];
}

/** Presses on one cell and lets go on another (a stroke of the brush); `jump`: in one pointer move. */
async function drag(page, from, to, jump = false) {
  const [x0, y0] = await centre(page, from);
  const [x1, y1] = await centre(page, to);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  if (!jump) await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 3 });
  await page.mouse.move(x1, y1, { steps: jump ? 1 : 3 });
  await page.mouse.up();
}

/** `rumis boards --board-file` on a file: its row (name, size, columns 2/3/4, Hmax 2/3/4). */
function cliRow(path) {
  const out = execFileSync(binary(), ["boards", "--board-file", path], { encoding: "utf8" });
  const m = out.match(/^(\S.*?)\s+(\d+x\d+)\s+(\d+\/\d+\/\d+)\s+(\d+\/\d+\/\d+)\s+(.*?)\s{2,}/m);
  assert.ok(m, out);
  return { out, name: m[1], size: m[2], columns: m[3], hmax: m[4], frames: m[5] };
}

// long: one user's session in the editor, in order: each step builds on the board the last one left.
test("build a board from scratch, see the core refuse a bad frame, download it for the CLI, open a scenario", async () => {
  const page = await openPage(browser, { viewport: { width: 1400, height: 900 }, locale: "en", acceptDownloads: true });
  const context = page.context();
  const errors = page.errors;

  // From the start page's link.
  await page.goto(server.url);
  await page.click("#editor-link");
  await page.waitForURL(/\/boards\/edit$/);
  // A new board has no buildable cell yet: the page says where to begin, not an error in red.
  await verdict(page, "empty");
  assert.equal(await page.textContent("#fault-grid"), "");
  assert.equal(await page.textContent(".ed-status"), JSON.parse(readFileSync(join(webDir, "src", "locales", "en", "editor.json"), "utf8")).start);
  assert.equal(await page.$$eval(".ed-status.bad, .ed-cell.fault, .ed-bad", (els) => els.length), 0, "nothing in red");
  assert.equal(await page.isDisabled("#ed-download"), true, "nothing to download yet");
  await shot(page, "editor-open");

  // A name with a quote, a backslash and an accent: the file escapes them as TOML does.
  await page.fill("#ed-name", NAME);
  await page.fill("#ed-aliases", "steps, Stufen");
  await page.fill("#ed-files", "4");
  await page.fill("#ed-ranks", "3");
  assert.equal(await page.$$eval(".ed-cell", (c) => c.length), 12);
  // The footprint: a1–c1 in one quick stroke (b1 between two pointer events), then a2 and b2.
  await drag(page, "a1", "c1", true);
  await page.click('.ed-cell[data-cell="a2"]');
  await page.click('.ed-cell[data-cell="b2"]');
  // A printed height 2 on b2 (Hmax 4 for 2 players: b2's limit is 2).
  await page.click("#tool-height-2");
  await page.click('.ed-cell[data-cell="b2"]');
  // The frame for 2 players: a1–b2.
  await page.click("#tool-frame-2");
  await drag(page, "b2", "a1");
  await verdict(page, "ok");
  assert.equal(await page.inputValue("#ed-frame-2"), "a1:b2");
  assert.equal(await page.textContent('.ed-cell[data-cell="b2"]'), "2");
  assert.match(await page.textContent("#ed-status"), /accepts this board \(5 columns for 4 players\)/);
  // The preview for 2 players: the frame's four cells; for 4 players all five.
  await page.waitForFunction(() => document.querySelector("#ed-preview").dataset.columns === "4");
  assert.equal(await page.getAttribute("#ed-preview", "data-players"), "2");
  assert.match(await page.textContent("#ed-preview-facts"), /4 columns · Hmax 4 · room for 14 cubes · red frame a1:b2/);
  assert.equal(await page.isVisible("#ed-frame-box"), true, "the frame drawn on the grid");
  await page.click("#preview-4");
  await page.waitForFunction(() => document.querySelector("#ed-preview").dataset.columns === "5");
  assert.match(await page.textContent("#ed-preview-facts"), /5 columns · Hmax 8 · room for 34 cubes · no frame/);
  await page.click("#preview-2");
  await shot(page, "editor-board");

  // A frame for 3 players outside the 4 x 3 grid: the core's message at the frame field, at
  // its line, with the cell it names marked; nothing to download.
  await page.fill("#ed-frame-3", "a1:e3");
  await verdict(page, "refused");
  const fault = await page.textContent("#fault-frames");
  assert.match(fault, /^Line \d+: frame a1:e3 for 3 players lies outside the 4 x 3 grid$/, fault);
  assert.match(await page.textContent("#ed-status"), /^board\.toml:\d+: frame a1:e3 for 3 players lies outside the 4 x 3 grid$/);
  assert.equal(await page.$eval("#ed-frame-3", (e) => e.classList.contains("ed-bad")), true);
  assert.equal(await page.$eval('.ed-cell[data-cell="a1"]', (e) => e.classList.contains("fault")), true, "a1, named, is marked");
  assert.equal(await page.isDisabled("#ed-download"), true);
  assert.equal(await page.$eval(".ed-preview", (e) => e.classList.contains("stale")), true);
  await shot(page, "editor-error");
  await page.click('#ed-frame-group .ed-clear >> nth=1');
  await verdict(page, "ok");
  assert.equal(await page.$$eval(".ed-cell.fault", (c) => c.length), 0);

  // More refusals, each at its place: an Hmax out of range, a grid over the engine's 128 cells.
  await page.fill("#ed-hmax-4", "40");
  await verdict(page, "refused");
  assert.match(await page.textContent("#fault-hmax"), /^Line \d+: hmax for 4 players is 40; it must be 1 to 15$/);
  await page.fill("#ed-hmax-4", "8");
  await verdict(page, "ok");
  await page.fill("#ed-files", "12");
  await page.fill("#ed-ranks", "11");
  await verdict(page, "refused");
  assert.match(await page.textContent("#fault-grid"), /the grid has 12 x 11 = 132 cells; the engine supports at most 128/);
  await page.fill("#ed-ranks", "3");
  await page.fill("#ed-files", "4");
  await verdict(page, "ok");
  assert.equal(await page.$$eval(".ed-cell.on", (c) => c.length), 5, "the cells kept through the resize");

  // Download: the very file the core accepted, and the CLI reads it with the same figures.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#ed-download")]);
  assert.equal(download.suggestedFilename(), "test-steps-1.toml");
  const dir = mkdtempSync(join(tmpdir(), "rumis-editor-"));
  const file = join(dir, "test-steps.toml");
  await download.saveAs(file);
  const row = cliRow(file);
  assert.deepEqual(
    { name: row.name, size: row.size, columns: row.columns, hmax: row.hmax, frames: row.frames },
    { name: NAME, size: "4x3", columns: "4/5/5", hmax: "4/6/8", frames: "2p a1:b2" },
    row.out,
  );
  assert.match(row.out, /aliases: steps, Stufen/);
  const checked = (await api(server.url, "/boards/check", { method: "POST", body: JSON.stringify({ toml: readFileSync(file, "utf8") }) })).board;
  assert.deepEqual(checked.columns, { 2: 4, 3: 5, 4: 5 });
  // `rumis show` plays on it: b2's limit is its printed 2 for 2 players.
  const show = execFileSync(binary(), ["show", "--board-file", file, "--players", "2"], { encoding: "utf8" });
  assert.ok(show.includes(NAME), show);
  assert.match(show, /Height limits:\n\s+a\s+b\s+c\s+d\n\s+3\s*\n\s+2\s+4\s+2\s*\n\s+1\s+4\s+4\s*\n/, show);

  // Open a file: a bad one changes nothing and says why (with its name and line); the
  // downloaded one comes back as it was.
  await page.click("#ed-new");
  await verdict(page, "empty");
  const bad = join(dir, "ragged.toml");
  writeFileSync(bad, readFileSync(file, "utf8").replace("\n###.\n", "\n##.\n"));
  await page.setInputFiles("#ed-upload", bad);
  await page.waitForFunction(() => document.querySelector("#fault-upload").textContent.length > 0);
  assert.match(await page.textContent("#fault-upload"), /ragged\.toml:\d+: grid row has 3 cells but the first row has 4 \(ragged rows\)/);
  assert.equal(await page.inputValue("#ed-name"), "My board", "a refused file changes nothing");
  await page.setInputFiles("#ed-upload", file);
  await page.waitForFunction((name) => document.querySelector("#ed-name").value === name, NAME);
  await verdict(page, "ok");
  assert.equal(await page.inputValue("#ed-frame-2"), "a1:b2");
  assert.equal(await page.textContent("#fault-upload"), "");

  // Start from a built-in board: Coricancha, with its evidence; its preview for 3 players.
  const boards = await api(server.url, "/boards");
  const cori = boards.boards.find((b) => b.name === "Coricancha");
  await page.selectOption("#ed-builtin", "Coricancha");
  await page.waitForFunction(() => document.querySelector("#ed-preview").dataset.board === "Coricancha");
  await verdict(page, "ok");
  await page.click("#preview-3");
  await page.waitForFunction(() => document.querySelector("#ed-preview").dataset.players === "3");
  assert.equal(Number(await page.getAttribute("#ed-preview", "data-columns")), cori.columns["3"]);
  assert.equal(await page.$$eval(".ed-fact", (f) => f.length), 3, "its three facts");
  assert.match(await page.textContent("#ed-evidence"), /Checks: at least 62 cells for 3 players/);
  // The picture is drawn: many colours, not a blank canvas.
  const colours = await page.$eval("#ed-preview canvas", (c) => {
    const g = document.createElement("canvas");
    g.width = c.width;
    g.height = c.height;
    const x = g.getContext("2d");
    x.drawImage(c, 0, 0);
    const { data } = x.getImageData(0, 0, g.width, g.height);
    const seen = new Set();
    for (let i = 0; i < data.length; i += 4 * 37) seen.add((data[i] >> 4) * 256 + (data[i + 1] >> 4) * 16 + (data[i + 2] >> 4));
    return seen.size;
  });
  assert.ok(colours > 20, `the preview shows the board (${colours} colours)`);
  await shot(page, "editor-builtin");
  // A frame for 3 players contradicts its evidence (the reported 3-player game): the core's
  // message at that fact.
  await page.fill("#ed-frame-3", "a1:g8");
  await verdict(page, "refused");
  const fact = await page.textContent('.ed-fact.ed-bad');
  assert.match(fact, /contradicts its own evidence/, fact);

  assert.deepEqual(await page.evaluate(() => window.__rumisMissingKeys), []);
  assert.deepEqual(errors, []);
  assert.equal(await state(page), "refused");
  await context.close();
  rmSync(dir, { recursive: true, force: true });
});
