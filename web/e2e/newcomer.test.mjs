// A newcomer's first steps, as found by playing them: the guide's card leaves the structure
// in sight, the texts say the rules as the core counts them, and a click that finds no place
// says so. Run: `cd web && npm run build && node --test e2e/newcomer.test.mjs`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, launch, api, outDir, webDir, openPage, shot } from "./harness.mjs";

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

const newPage = (lang, viewport) => openPage(browser, { viewport, locale: lang });

const LANGS = ["en", "de", "nl", "fr", "es", "pt", "it", "pl"];
const locale = (lang, area) => JSON.parse(readFileSync(join(webDir, "src", "locales", lang, `${area}.json`), "utf8"));
const fillIn = (text, params) => text.replace(/\{\{(\w+)\}\}/g, (_, k) => String(params[k]));
const rect = (page, sel) => page.$eval(sel, (e) => e.getBoundingClientRect().toJSON());
const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

for (const [name, viewport, lang] of [
  ["desk", { width: 1280, height: 800 }, "en"],
  ["phone", { width: 390, height: 844 }, "fr"],
]) {
  test(`the guide's card hides neither the structure nor the stones (${name})`, async () => {
    const page = await newPage(lang, viewport);
    await page.goto(server.url);
    await page.click("#guided-game");
    await page.waitForURL(/\/game\/[a-z0-9]+$/);
    await page.waitForSelector('#tutorial[data-step="welcome"]');
    await page.click("#tutorial-next");
    await page.waitForSelector('#tutorial[data-step="first_stone"] figure');
    // The card's picture is in: the card has its full size now.
    const card = await rect(page, "#tutorial");
    const stage = await rect(page, "#stage");
    assert.equal(overlap(card, stage), 0, `the card ${JSON.stringify(card)} covers the structure ${JSON.stringify(stage)}`);
    // Scrolled to the stones (a phone), the card does not follow over them.
    await page.locator("#tray").scrollIntoViewIfNeeded();
    assert.equal(overlap(await rect(page, "#tutorial"), await rect(page, "#tray")), 0, "the card covers the stones");
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `newcomer-guide-${name}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test("the score's explanation costs a point per stone never placed, as the core counts (rules §5), not per cube", async () => {
  const created = await api(server.url, "/games", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "ai", level: 1 }] }),
  });
  const page = await newPage("en", { width: 1280, height: 800 });
  const seat = created.seats[0];
  await page.goto(`${server.url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
  await page.waitForSelector('#players tr[data-colour="R"] td.score');
  // Nothing placed: 11 stones (40 cubes) not placed, and the score is −11.
  const title = await page.getAttribute('#players tr[data-colour="R"] td.score', "title");
  assert.match(title, /minus 11 for the stones not placed yet: -11/, title);
  assert.doesNotMatch(title, /cube/);
  const cube = { en: /cube/i, de: /Würfel/, nl: /blokje/, fr: /cube/i, es: /cubo/i, pt: /cubo/i, it: /cub[oi]/i, pl: /kost|sześcian/i };
  for (const lang of LANGS) {
    const players = locale(lang, "game").players;
    for (const key of ["score_head_title", "score_title"]) assert.doesNotMatch(players[key], cube[lang], `${lang}: game.players.${key} counts cubes`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("texts for a newcomer: being out agrees with how many are out; equal top scores share the win (rules §5)", () => {
  const draw = { en: /draw/i, de: /Unentschieden/, nl: /Gelijkspel/, fr: /Égalité/, es: /empate/i, pt: /empate/i, it: /pareggio/i, pl: /remis/i };
  for (const lang of LANGS) {
    const out = locale(lang, "tutorial").out;
    assert.ok(out.text_one && out.text_other && out.text_one !== out.text_other, `${lang}: tutorial.out has a singular and a plural`);
    assert.doesNotMatch(locale(lang, "game").status.draw, draw[lang], `${lang}: equal top scores share the win, not a draw`);
  }
});

test("a click on the board that plays nothing says why: no stone picked, or no place there", async () => {
  const created = await api(server.url, "/games", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ board: "Coricancha", players: 2, seats: [{ kind: "ai", level: 1 }, { kind: "human" }] }),
  });
  const page = await newPage("en", { width: 1280, height: 800 });
  const seat = created.seats[1];
  await page.goto(`${server.url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
  await page.waitForSelector('#status[data-state="your-turn"]', { timeout: 60000 });
  await page.waitForFunction(() => window.rumis.placements().length > 0 && document.body.dataset.moveNumber === "2");
  const state = await api(server.url, `/games/${created.id}`);
  const empty = state.position.columns.filter((c) => c.height === 0 && c.limit > 0).map((c) => [c.x, c.y]);
  const T = locale("en", "game").toast;
  const clickColumn = async ([x, y]) => {
    const [px, py] = await page.evaluate(([x, y]) => window.rumis.screenPoint(x, y, -0.5), [x, y]);
    await page.mouse.click(px, py);
  };
  // No stone chosen yet.
  await clickColumn(empty[0]);
  await page.waitForFunction((text) => document.getElementById("toast")?.textContent === text, T.pick_first);
  // A stone chosen, and a click on an empty column far from every place marked for it.
  let far = null;
  let stone = null;
  for (const code of await page.$$eval(".stone:not([disabled])", (bs) => bs.map((b) => b.dataset.stone))) {
    await page.click(`.stone[data-stone="${code}"]`);
    await page.waitForTimeout(700); // the view turns to show the places
    const anchors = await page.evaluate(() => window.rumis.markedAnchors());
    far = empty.find(([x, y]) => anchors.every((a) => Math.hypot(a[0] - x, a[1] - y) > 2));
    if (far) {
      stone = code;
      break;
    }
  }
  assert.ok(far, "some empty column lies away from every place of some stone");
  await clickColumn(far);
  await page.waitForFunction((text) => document.getElementById("toast")?.textContent === text, fillIn(T.no_place_here, { stone }));
  assert.equal(await page.evaluate(() => document.body.dataset.moveNumber), "2", "nothing was played");
  await shot(page, "newcomer-no-place-here");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a phone: a stone picked in the tray shows its places in sight, and a tap there places it", async () => {
  const created = await api(server.url, "/games", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "ai", level: 1 }] }),
  });
  const page = await newPage("de", { width: 390, height: 844 });
  const seat = created.seats[0];
  await page.goto(`${server.url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
  await page.waitForSelector('#status[data-state="your-turn"]');
  await page.locator("#tray").scrollIntoViewIfNeeded();
  await page.click('.stone[data-stone="L4"]');
  await page.waitForFunction(() => document.body.dataset.turning !== "1" && window.rumis.current());
  await page.waitForTimeout(600);
  const stage = await rect(page, "#stage");
  assert.ok(stage.top >= 0 && stage.bottom <= 844 && stage.bottom - stage.top > 300, `the structure is in sight: ${JSON.stringify(stage)}`);
  assert.equal(overlap(stage, await rect(page, '.stone[data-stone="L4"]')), 0, "the picked stone is not under the structure");
  const placement = await page.evaluate(() => window.rumis.current());
  const [x, y] = await page.evaluate((p) => window.rumis.anchorPoint(p), placement);
  assert.ok(y > stage.top && y < stage.bottom, "its place is on the structure's screen");
  await shot(page, "newcomer-phone-picked");
  await page.mouse.click(x, y);
  await page.waitForFunction(() => Number(document.body.dataset.moveNumber) > 1);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the level numbers never stand beside the rank numbers, from any side", async () => {
  const created = await api(server.url, "/games", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "ai", level: 1 }] }),
  });
  const page = await newPage("en", { width: 1280, height: 800 });
  const seat = created.seats[0];
  await page.goto(`${server.url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
  await page.waitForSelector('#status[data-state="your-turn"]');
  let nearest = Infinity;
  // All the way round, a sixteenth of a turn at a time.
  for (let i = 0; i < 16; i++) {
    const { levels, ranks } = await page.evaluate(() => window.rumis.numberPoints());
    assert.equal(levels.length, 4, "Chullpa with 2 players: levels 1 to 4");
    assert.equal(ranks.length, 4);
    for (const [lx, ly] of levels) for (const [rx, ry] of ranks) nearest = Math.min(nearest, Math.hypot(lx - rx, ly - ry));
    await page.keyboard.press("q");
  }
  assert.ok(nearest > 60, `a level number ${nearest.toFixed(0)} px from a rank number`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The start page says a refusal in the reader's language: the server's error code picks the
// text (its English `reason` is only for a code the app has no words for).
test("a refused game says why in the page's language (German)", async () => {
  const own = await startServer();
  try {
    // Two games without a human are allowed from one address; the page asks for a third.
    for (let i = 0; i < 2; i++) {
      await api(own.url, "/games", { method: "POST", body: JSON.stringify({ board: "chullpa", players: 2, seats: [{ kind: "ai", level: 9 }, { kind: "ai", level: 9 }] }) });
    }
    const page = await newPage("de", { width: 1280, height: 800 });
    await page.goto(own.url);
    await page.waitForSelector("select[data-seat='0']");
    await page.selectOption("select[data-seat='0']", "ai:1");
    await page.click("#create");
    await page.waitForFunction(() => document.getElementById("toast")?.classList.contains("error"));
    assert.equal(await page.textContent("#toast"), locale("de", "game").error.too_many_ai_games);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await own.stop();
  }
});
