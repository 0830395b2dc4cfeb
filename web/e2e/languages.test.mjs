// The four languages added last (Spanish, Portuguese, Italian, Polish; issue #54), picked by
// the browser's language: the start page and a game page at a desk (1280 × 800) and a phone
// (390 × 844) — the game page also in the text mode and with the list of keys open — have
// every key, no sideways scroll, and no button or label whose text is cut off. The
// screenshots are in e2e/out/lang-*.png.
// Run: `cd web && npm run build && node --test e2e/languages.test.mjs`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
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

const VIEWS = { desk: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/**
 * Sideways scroll, and controls or cells whose text does not fit their box or that end past
 * the window (but not inside a container that scrolls sideways on purpose, such as the
 * boards' row on a phone).
 */
const overflow = (page) =>
  page.evaluate(() => {
    const cut = [];
    const inScroller = (e) => {
      for (let p = e.parentElement; p; p = p.parentElement) if (/auto|scroll/.test(getComputedStyle(p).overflowX)) return true;
      return false;
    };
    for (const e of document.querySelectorAll("button, label, th, td, select, a, h1, h2, h3, #status, summary")) {
      const r = e.getBoundingClientRect();
      if (!r.width || getComputedStyle(e).visibility === "hidden" || inScroller(e)) continue;
      if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "visible") cut.push(`${e.tagName}#${e.id}.${e.className}: ${e.textContent.trim().slice(0, 40)}`);
      if (r.right > innerWidth + 1) cut.push(`${e.tagName}#${e.id}.${e.className} ends at ${Math.round(r.right)}: ${e.textContent.trim().slice(0, 40)}`);
    }
    return { page: document.scrollingElement.scrollWidth, inner: innerWidth, cut };
  });

for (const lang of (process.env.LANGS ?? "es,pt,it,pl").split(",")) {
  for (const [view, viewport] of Object.entries(VIEWS)) {
    test(`${lang} at ${view}: the start page and a game page fit, every key there`, async () => {
      const page = await openPage(browser, { viewport, locale: lang, hasTouch: view === "phone" });
      const context = page.context();
      const errors = page.errors;
      await page.goto(server.url);
      await page.waitForSelector(".board-card img");
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang, "the browser's language is picked");
      assert.equal(await page.$eval(".lang-picker", (s) => s.value), lang);
      await page.screenshot({ path: join(outDir, `lang-start-${lang}-${view}.png`) });
      let m = await overflow(page);
      assert.ok(m.page <= m.inner, `${lang} ${view}: the start page scrolls sideways (${m.page} > ${m.inner})`);
      assert.deepEqual(m.cut, [], `${lang} ${view}: cut off on the start page`);

      const created = await api(server.url, "/games", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ board: "Chullpa", players: 2, seats: [{ kind: "ai", level: 1 }, { kind: "human" }] }),
      });
      const seat = created.seats[1];
      await page.goto(`${server.url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
      await page.waitForSelector('#status[data-state="your-turn"]', { timeout: 60000 });
      // A stone picked: the tray's and the turn controls' texts are there too.
      await page.keyboard.press("]");
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(outDir, `lang-game-${lang}-${view}.png`) });
      m = await overflow(page);
      assert.ok(m.page <= m.inner, `${lang} ${view}: the game page scrolls sideways (${m.page} > ${m.inner})`);
      assert.deepEqual(m.cut, [], `${lang} ${view}: cut off on the game page`);
      // The text mode, turned on in the page's settings: its controls and table fit too.
      await page.keyboard.press("Escape");
      await page.check("#opt-blind");
      await page.waitForSelector("#text-mode:not([hidden]) #text-places option");
      await page.screenshot({ path: join(outDir, `lang-text-${lang}-${view}.png`) });
      m = await overflow(page);
      assert.ok(m.page <= m.inner, `${lang} ${view}: the text mode scrolls sideways (${m.page} > ${m.inner})`);
      assert.deepEqual(m.cut, [], `${lang} ${view}: cut off in the text mode`);
      // The list of keys.
      await page.click("#keys-button");
      await page.waitForSelector("#keys-dialog[open]");
      await page.screenshot({ path: join(outDir, `lang-keys-${lang}-${view}.png`) });
      m = await overflow(page);
      assert.deepEqual(m.cut, [], `${lang} ${view}: cut off in the list of keys`);
      assert.deepEqual(await page.evaluate(() => window.__rumisMissingKeys), [], `${lang} ${view}: missing keys`);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

