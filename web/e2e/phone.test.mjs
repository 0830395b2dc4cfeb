// A phone (issue #49): a tap shows where the stone would go and a second tap (on the pale
// stone, or "Place") places it, so a slip of the finger costs no move; and the start and game
// pages fit the screen's width, with the new-game form in sight without scrolling past every
// board. Run: `cd web && npm run build && node --test e2e/phone.test.mjs`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, launch, api, waitMovePast, moveNumber, outDir, webDir, shot, openPage } from "./harness.mjs";

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

const toasts = JSON.parse(readFileSync(join(webDir, "src", "locales", "en", "game.json"), "utf8")).toast;

/** A page in a context with a touch screen: its taps are pointer events of type "touch". */
async function phonePage(width, height = 844) {
  const page = await openPage(browser, { viewport: { width, height }, hasTouch: true, locale: "en" });
  const errors = page.errors;
  page.errors = errors;
  return page;
}

async function openGame(page) {
  const created = await api(server.url, "/games", {
    method: "POST",
    body: JSON.stringify({ board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "ai", level: 1 }] }),
  });
  const seat = created.seats[0];
  await page.goto(`${server.url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
  await page.waitForSelector('#status[data-state="your-turn"]');
  return created.id;
}

/** Pick a stone in the tray by a tap, and wait until the view has turned to its places. */
async function pickStone(page, stone) {
  await page.locator("#tray").scrollIntoViewIfNeeded();
  await page.tap(`.stone[data-stone="${stone}"]`);
  await page.waitForFunction((s) => window.rumis.selected()?.stone === s && window.rumis.current() && document.body.dataset.turning !== "1", stone);
}

/** The legal place of the chosen orientation whose spot on screen lies farthest from the ghost's, inside the structure's screen. */
async function farPlace(page) {
  return page.evaluate(() => {
    const r = document.getElementById("stage").getBoundingClientRect();
    const sel = window.rumis.selected();
    const [gx, gy] = window.rumis.anchorPoint(window.rumis.current());
    let best = null;
    for (const p of window.rumis.placements()) {
      if (p.stone !== sel.stone || p.orientation !== sel.orientation) continue;
      const [x, y] = window.rumis.anchorPoint(p.placement);
      if (x < r.left + 10 || x > r.right - 10 || y < r.top + 10 || y > r.bottom - 60) continue;
      const d = Math.hypot(x - gx, y - gy);
      if (!best || d > best.d) best = { placement: p.placement, x, y, d };
    }
    return best;
  });
}

test("a phone: the first tap shows the stone there, a tap on it places it; or the Place button", async () => {
  const page = await phonePage(390);
  const id = await openGame(page);
  await pickStone(page, "L4");
  const far = await farPlace(page);
  assert.ok(far && far.d > 20, `a place away from the ghost: ${JSON.stringify(far)}`);
  const ghost = await page.evaluate(() => window.rumis.current());
  await page.touchscreen.tap(far.x, far.y);
  await page.waitForFunction((was) => window.rumis.current() !== was, ghost);
  // Shown, not placed: the page says how to place it, and the server has no move.
  await page.waitForFunction((text) => document.getElementById("toast")?.textContent === text, toasts.tap_again);
  const shown = await page.evaluate(() => window.rumis.current());
  assert.equal(await moveNumber(page), 1, "the first tap placed nothing");
  assert.equal((await api(server.url, `/games/${id}`)).moves_played, 0, "the server has no move");
  await shot(page, "phone-tap-preview");
  // The second tap, on the pale stone where it now stands.
  const [x, y] = await page.evaluate((p) => window.rumis.anchorPoint(p), shown);
  await page.touchscreen.tap(x, y);
  await waitMovePast(page, 1);
  assert.equal((await api(server.url, `/games/${id}`)).moves[0].placement, shown, "the second tap placed what the first showed");

  // The next turn: a tap shows a place, the Place button places it.
  await page.waitForSelector('#status[data-state="your-turn"]');
  const before = await moveNumber(page);
  await pickStone(page, "D2");
  const again = await farPlace(page);
  assert.ok(again, "D2 has a place in sight");
  const was = await page.evaluate(() => window.rumis.current());
  await page.touchscreen.tap(again.x, again.y);
  await page.waitForFunction((was) => window.rumis.current() !== was, was);
  const chosen = await page.evaluate(() => window.rumis.current());
  assert.equal(await moveNumber(page), before, "the tap placed nothing");
  await page.tap("#place");
  await waitMovePast(page, before);
  const moves = (await api(server.url, `/games/${id}`)).moves;
  assert.equal(moves[2].placement, chosen, "Place placed the stone shown");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** No sideways scroll of the page: its scrolling width is the screen's. */
const scrollWidth = (page) => page.evaluate(() => ({ scroll: document.scrollingElement.scrollWidth, inner: innerWidth }));

for (const width of [360, 390, 414]) {
  test(`a phone ${width} px wide: the start and game pages fit its width, the new-game form is in sight`, async () => {
    const page = await phonePage(width);
    await page.goto(server.url);
    await page.waitForSelector(".board-card img");
    await page.waitForSelector("#create");
    let w = await scrollWidth(page);
    assert.ok(w.scroll <= w.inner, `the start page scrolls sideways: ${w.scroll} > ${w.inner}`);
    const lang = await page.$eval(".lang-picker", (e) => e.getBoundingClientRect().toJSON());
    assert.ok(lang.right <= width, `the language menu is cut off at ${lang.right}`);
    // The new-game form starts on the first screen, below the scenarios, every one of which
    // is still there to choose (a row that scrolls sideways).
    const setup = await page.$eval("#setup", (e) => e.getBoundingClientRect().top + scrollY);
    assert.ok(setup < 844, `"New game" starts ${Math.round(setup)} px down`);
    assert.equal(await page.locator(".board-card").count(), 6);
    const last = page.locator(".board-card").last();
    await last.scrollIntoViewIfNeeded();
    await last.tap();
    assert.equal(await last.getAttribute("aria-pressed"), "true", "the last scenario can be chosen");
    w = await scrollWidth(page);
    assert.ok(w.scroll <= w.inner, `the start page scrolls sideways after choosing: ${w.scroll} > ${w.inner}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `phone-start-${width}`);

    // The game page, with a stone picked: the orientation strip and the buttons wrap.
    await openGame(page);
    await pickStone(page, "T4");
    await page.waitForSelector("#orientations .orient");
    w = await scrollWidth(page);
    assert.ok(w.scroll <= w.inner, `the game page scrolls sideways: ${w.scroll} > ${w.inner}`);
    const right = await page.$$eval("#turns button", (bs) => Math.max(...bs.map((b) => b.getBoundingClientRect().right)));
    assert.ok(right <= width, `a button of the picked stone is cut off at ${right}`);
    await page.locator("#turns").scrollIntoViewIfNeeded();
    await shot(page, `phone-game-${width}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

// The words of other languages are longer (issue #49: the French players' table was about
// 40 px wider than a phone, where the panel itself scrolled sideways, not the page). The
// widest tables: four colours, one of them out while the others play on (its mark), the row
// to move in bold; then the final scores.
for (const lang of ["fr", "de", "es", "pt", "it", "pl"]) {
  test(`a phone 360 px wide in ${lang}: the players' table and the final scores fit the panel`, async () => {
    const post = (path, body, token) =>
      api(server.url, path, { method: "POST", headers: token ? { Authorization: `Bearer ${token}` } : {}, body: JSON.stringify(body) });
    // Each move the (11 × moves played)-th legal one: Green alone is out after move 34
    // (as in endings.test.mjs).
    const created = await post("/games", { board: "Chullpa", players: 4, seats: [0, 1, 2, 3].map(() => ({ kind: "human" })) });
    const keys = Object.fromEntries(created.seats.map((s) => [s.seat, s.token]));
    for (let i = 0; i < 34; i++) {
      const s = await api(server.url, `/games/${created.id}`);
      await post(`/games/${created.id}/moves`, { placement: s.legal_moves[(s.moves_played * 11) % s.legal_moves.length], expected_move_number: s.move_number }, keys[s.seat_to_move]);
    }
    const page = await openPage(browser, { viewport: { width: 360, height: 844 }, hasTouch: true, locale: lang });
    const context = page.context();
    const errors = page.errors;
    const seat = created.seats[0];
    await page.goto(`${server.url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
    await page.waitForSelector('#players tr[data-colour="G"] .out-mark');
    /** Neither the page nor the panel scrolls sideways, and the table ends inside the panel's padding. */
    const fits = async (table, what) => {
      const m = await page.evaluate((sel) => {
        const side = document.querySelector(".side");
        const pad = parseFloat(getComputedStyle(side).paddingRight);
        return {
          page: document.scrollingElement.scrollWidth,
          inner: innerWidth,
          side: side.scrollWidth,
          sideWidth: side.clientWidth,
          table: Math.round(document.querySelector(sel).getBoundingClientRect().right),
          inside: Math.round(side.getBoundingClientRect().right - pad),
        };
      }, table);
      assert.ok(m.page <= m.inner && m.side <= m.sideWidth && m.table <= m.inside, `${what} is too wide: ${JSON.stringify(m)}`);
    };
    await fits("#players table", "the players' table");
    // The panel is drawn anew with each state (the socket's first one may come after the
    // page's own): scroll to whichever table is there now, in one step.
    await page.evaluate(() => document.querySelector("#players").scrollIntoView({ block: "nearest" }));
    await shot(page, `phone-players-${lang}-360`);
    // Yellow and Blue resign (Green, out, plays no more): Red plays its last stones alone,
    // and the page shows the final scores.
    for (const s of created.seats.slice(1)) await post(`/games/${created.id}/resign`, {}, s.token);
    for (let guard = 0; guard < 10; guard++) {
      const s = await api(server.url, `/games/${created.id}`);
      if (s.over) break;
      await post(`/games/${created.id}/moves`, { placement: s.legal_moves[0], expected_move_number: s.move_number }, keys[s.seat_to_move]);
    }
    await page.waitForSelector("#final-scores", { timeout: 15000 });
    await fits("#final-scores", "the final scores");
    await fits("#players table", "the players' table at the end");
    // The panel is drawn anew with each state (the socket's first one may come after the
    // page's own): scroll to whichever table is there now, in one step.
    await page.evaluate(() => document.querySelector("#final-scores").scrollIntoView({ block: "nearest" }));
    await shot(page, `phone-final-${lang}-360`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
