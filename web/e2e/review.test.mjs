// A finished game's review (issue #53): on the server, asked from the end screen, its
// progress, then the marks in the move list, the summary, and in the replay the best move
// found as a ghost beside the move played with both estimates; "play from here" starts a
// local game at the position replayed, against the AI; and the same review offline, from a
// static server, by the engine in the browser.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { api, launch, outDir, scratchDir, startServer, shot, openPage, aiGameToItsEnd } from "./harness.mjs";
import { startStatic } from "./static.mjs";

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

/** The review's marked moves and the move list's marks, as the page shows them. */
const marksShown = (page) =>
  page.evaluate(() => ({
    list: [...document.querySelectorAll("#movelist tr[data-number] .mark")].map((m) => [Number(m.closest("tr").dataset.number), m.dataset.mark, m.textContent.trim()]),
    marked: [...document.querySelectorAll("#review-marked a")].map((a) => Number(a.dataset.number)),
  }));

test("a server game's review: progress, marks, the best move's ghost, and play from here", { timeout: 240_000 }, async () => {
  const id = await aiGameToItsEnd(server.url);
  const page = await openPage(browser, { viewport: { width: 1280, height: 900 } });
  const context = page.context();
  const errors = page.errors;
  await page.goto(`${server.url}/game/${id}`);
  await page.waitForSelector("#final-scores");
  await page.click("#review-start");
  await page.waitForSelector("#review-progress");
  await page.waitForSelector("#review-summary", { timeout: 200_000 });
  await shot(page, "review-done");

  // The page shows the server's review: its marks in the move list and the list of marks.
  const review = (await api(server.url, `/games/${id}/review`)).review;
  const want = review.moves.filter((m) => m.mark).map((m) => m.number);
  const symbols = { inaccuracy: "?!", mistake: "?", blunder: "??" };
  const shown = await marksShown(page);
  assert.deepEqual(shown.marked, want);
  assert.deepEqual(
    shown.list,
    review.moves.filter((m) => m.mark).map((m) => [m.number, m.mark, `${symbols[m.mark]} ${m.mark}`]),
    "each mark by its symbol, with its word for screen readers",
  );
  assert.equal(await page.$$eval("#review-summary tbody tr", (r) => r.length), 2);

  // A move whose best was not played: replayed, the best move is the ghost, with both
  // estimates beside the move played.
  // (Not the last move: the replay's end is the end screen itself.)
  const differs = review.moves.find((m) => m.best.placement !== m.played.placement && m.number < review.moves_played);
  assert.ok(differs, "a level-1 game has a move the search would not have played");
  await page.evaluate((n) => {
    const slider = document.querySelector("#replay");
    slider.value = String(n);
    slider.dispatchEvent(new Event("input"));
  }, differs.number);
  await page.waitForSelector(`#review-move[data-number="${differs.number}"]`);
  const text = await page.textContent("#review-move");
  assert.ok(text.includes(differs.played.placement) && text.includes(differs.best.placement), text);
  assert.ok(text.includes(`${Math.round(differs.best_value * 100)} %`) && text.includes(`${Math.round(differs.played_value * 100)} %`), text);
  await page.waitForFunction(() => window.rumis.ghostColour() !== null);
  await shot(page, "review-ghost");

  // Play from here: a local game at that position, this browser's person to move (the AI
  // at the level chosen in the other seat).
  await page.selectOption("#play-from-level", "2");
  await page.click("#play-from");
  await page.waitForURL(/\/\?local=L[a-z0-9]+$/);
  await page.waitForFunction(() => document.body.dataset.moveNumber);
  assert.equal(Number(await page.evaluate(() => document.body.dataset.moveNumber)), differs.number + 1, "the position replayed");
  await shot(page, "review-play-from-here");
  assert.deepEqual(errors, []);
  await context.close();
});

test("offline, on a static server: a local game's review by the engine in the browser", { timeout: 240_000 }, async () => {
  // The server's record of a finished game, opened as a local game where no server is.
  const id = await aiGameToItsEnd(server.url);
  const record = await (await fetch(`${server.url}/api/v1/games/${id}/record`)).text();
  const file = join(scratchDir("rumis-review-"), "record.txt");
  writeFileSync(file, record);
  const site = await startStatic();
  const page = await openPage(browser, { viewport: { width: 1280, height: 900 } });
  const context = page.context();
  const errors = page.errors;
  try {
    await page.goto(site.url);
    await page.waitForSelector("#no-server");
    await page.setInputFiles("#open-record", file);
    await page.waitForURL(/\/\?local=L[a-z0-9]+$/);
    await page.waitForSelector("#final-scores");
    // Every text the review's status line shows, as it shows it.
    await page.evaluate(() => {
      window.reviewStatuses = [];
      new MutationObserver(() => {
        const text = document.querySelector("#review-status")?.textContent;
        if (text && text !== window.reviewStatuses.at(-1)) window.reviewStatuses.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.click("#review-start");
    await page.waitForSelector("#review-summary", { timeout: 200_000 });
    await shot(page, "review-offline");
    // The engine's progress was shown search by search, as the server's is.
    const counts = (await page.evaluate(() => window.reviewStatuses))
      .map((text) => /(\d+) of (\d+)/.exec(text))
      .filter(Boolean)
      .map((m) => Number(m[1]));
    assert.ok(counts.length >= 3 && counts.includes(1), `the progress shown: ${counts}`);
    assert.deepEqual(counts, [...counts].sort((a, b) => a - b), "the progress only grows");
    // The same review as the server's for the same record and budget.
    const served = (await (await fetch(`${server.url}/api/v1/games/${id}/review`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).json());
    let review = served.review;
    for (let i = 0; !review && i < 400; i++) {
      await new Promise((r) => setTimeout(r, 500));
      review = (await api(server.url, `/games/${id}/review`)).review;
    }
    const want = review.moves.filter((m) => m.mark).map((m) => m.number);
    assert.deepEqual((await marksShown(page)).marked, want, "the browser's review marks what the server's does");
    assert.ok(!site.requests.some((p) => p.startsWith("/api/") && p !== "/api/v1/boards"), `no server asked: ${site.requests}`);
  } finally {
    await context.close();
    await site.stop();
  }
  assert.deepEqual(errors, []);
});
