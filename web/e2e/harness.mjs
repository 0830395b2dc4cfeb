// The end-to-end harness: a `rumis serve` on a free port with a fresh database and the built
// web app, and Debian's Chromium driven by playwright-core.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
export const webDir = resolve(here, "..");
const repo = resolve(webDir, "..");
export const outDir = join(here, "out");
mkdirSync(outDir, { recursive: true });

// The test process's scratch directories, removed when it exits (a server may still hold
// its database open then; on Linux the files go all the same).
const scratch = [];
process.on("exit", () => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory under the system's temporary one, removed when the test process exits. */
export function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

export function binary() {
  if (process.env.RUMIS_BIN) return process.env.RUMIS_BIN;
  const target = process.env.CARGO_TARGET_DIR ?? join(repo, "target");
  for (const p of [join(target, "debug", "rumis"), join(target, "release", "rumis")]) if (existsSync(p)) return p;
  throw new Error("no rumis binary: run `cargo build` first, or set RUMIS_BIN");
}

/**
 * Start a server; resolves to { url, dir, stop }. `addr` and `dir` restart one where another
 * stopped (same port, same database).
 */
export async function startServer({ addr = "127.0.0.1:0", dir = scratchDir("rumis-e2e-") } = {}) {
  const child = spawn(
    binary(),
    ["serve", "--addr", addr, "--database-url", `sqlite://${join(dir, "e2e.db")}`, "--rate", "2000", "--keys-per-hour", "10000", "--web-dir", join(webDir, "dist")],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  const url = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`the server did not start:\n${log}`)), 30000);
    const look = (chunk) => {
      log += chunk;
      const m = log.match(/http:\/\/127\.0\.0\.1:\d+/);
      if (m) {
        clearTimeout(timer);
        ok(m[0]);
      }
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    child.on("exit", (code) => fail(new Error(`the server exited (${code}):\n${log}`)));
  });
  return {
    url,
    dir,
    log: () => log,
    stop: () => new Promise((ok) => (child.exitCode !== null ? ok() : (child.on("exit", ok), child.kill("SIGTERM")))),
  };
}

/**
 * What every browser context of the tests gets unless its test asks otherwise (issue #19: the
 * browser tests are most of the test run's CPU time). Measured on 2 cores, one test file
 * (app.test.mjs) or one page load at a time:
 * - `reducedMotion: "reduce"`: the app then drops no stone in (its setting `animate` follows
 *   the system's wish, src/game/actions.ts), so an opponent's move costs one frame, not
 *   half a second of frames on the software renderer (app.test.mjs: 78-81 → 65-67
 *   CPU-seconds). The tests of the drops (follow.test.mjs) ask for motion.
 * - `serviceWorkers: "block"`: the app's offline copy (src/offline.ts) would download and
 *   store every file of the app, both engine modules included, in every new context (a
 *   start page's load: 2.5 → 2.0 CPU-seconds). The tests of offline play allow it.
 */
export const CONTEXT_DEFAULTS = Object.freeze({ reducedMotion: "reduce", serviceWorkers: "block" });

export async function launch() {
  const browser = await chromium.launch({
    // Debian's chromium ($CHROMIUM if set), through a script that merges the lists of
    // features to disable (below, and Playwright's own): Chromium honours only the last.
    executablePath: join(here, "chromium.sh"),
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      "--use-gl=swiftshader",
      "--enable-unsafe-swiftshader",
      "--ignore-gpu-blocklist",
      // Every browser context is a window of its own, and this Chromium (156, new headless
      // mode) preloads each window's address-bar popup as a web page (chrome://omnibox-popup,
      // its "AI mode" page too) in a renderer of its own, which no test ever opens. Measured
      // on 2 cores, a new context and the start page: 1.8-1.9 → 0.8 CPU-seconds, the
      // renderers 1.2 → 0.4 (18 renderer processes for 6 contexts → 12) (issue #19: the
      // browser tests open about 60 contexts). A Chromium without these features ignores
      // the names. (Merged with Playwright's list by chromium.sh.)
      "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
    ],
  });
  // Every context starts from CONTEXT_DEFAULTS; a test's own options win. (The tests make
  // their pages in contexts of their own, never with `browser.newPage()`.)
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ ...CONTEXT_DEFAULTS, ...options });
  return browser;
}

/**
 * A page in a browser context of its own (the context's `options`; 1280 × 800 unless they say
 * otherwise), the page's uncaught errors gathered in `page.errors` for the test to check.
 */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  return page;
}

/** A screenshot of the page as it is, `web/e2e/out/NAME.png`. */
export const shot = (page, name) => page.screenshot({ path: join(outDir, `${name}.png`) });

export async function api(url, path, init) {
  // The server takes a POST only as JSON (415 otherwise); fetch would say text/plain.
  if (init?.body !== undefined) {
    init = { ...init, headers: { "Content-Type": "application/json", ...(init.headers ?? {}) } };
  }
  const res = await fetch(`${url}/api/v1${path}`, init);
  const body = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** A two-player Chullpa game of two level-1 AI seats on the server at `url`, played to its
 * end by the server; its id. */
export async function aiGameToItsEnd(url) {
  const created = await api(url, "/games", {
    method: "POST",
    body: JSON.stringify({ board: "chullpa", players: 2, seats: [{ kind: "ai", level: 1 }, { kind: "ai", level: 1 }] }),
  });
  for (let i = 0; i < 600; i++) {
    const s = await api(url, `/games/${created.id}`);
    if (s.status === "finished") return created.id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the AI did not finish the game");
}

/** Wait until the page's move number is past `n`; returns the new one. */
export async function waitMovePast(page, n, timeout = 60000) {
  await page.waitForFunction((n) => Number(document.body.dataset.moveNumber) > n, n, { timeout });
  return Number(await page.evaluate(() => document.body.dataset.moveNumber));
}

export async function moveNumber(page) {
  return Number(await page.evaluate(() => document.body.dataset.moveNumber));
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until it is this page's turn or the game is over; whether it is the page's turn.
 */
export async function yourTurn(page, timeout = 60000) {
  await page.waitForSelector('#status[data-state="your-turn"], #status[data-state="over"]', { timeout });
  return (await page.getAttribute("#status", "data-state")) === "your-turn";
}

/**
 * Plays one move from the keyboard: N shows the next place for the chosen stone, Enter plays
 * it, and the page's move number moves on. With `waitTurn`, first waits for this page's turn
 * (30 s). Returns the placement and the move's number.
 */
export async function keyboardMove(page, { waitTurn = false } = {}) {
  if (waitTurn) await page.waitForSelector('#status[data-state="your-turn"]', { timeout: 30000 });
  const before = await moveNumber(page);
  await page.keyboard.press("n");
  const placement = await page.evaluate(() => window.rumis.current());
  assert.ok(placement, "N shows a place for a stone");
  await page.keyboard.press("Enter");
  await waitMovePast(page, before);
  return { placement, number: before };
}

/**
 * Chooses a name in the lobby of the server at `url`: the player this page's browser context
 * now is (`{ id, name, key }`, as the app keeps it).
 */
export async function pickName(page, url, name) {
  await page.goto(`${url}/lobby`);
  await page.fill("#player-name", name);
  await page.click("#name-ok");
  await page.waitForSelector("#identity");
  return page.evaluate(() => JSON.parse(localStorage.getItem("rumis.player")));
}

/**
 * Opens seat `i`'s link of a game made through the API (`created`: the answer of
 * `POST /games`, the seat's token in the address), once the page shows the game.
 */
export async function openSeat(page, url, created, i = 0) {
  const seat = created.seats[i];
  await page.goto(`${url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
  await page.waitForSelector("#status");
  await page.waitForFunction(() => document.body.dataset.moveNumber);
}

