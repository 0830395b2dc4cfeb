// The check of a proxy in front of the server (scripts/proxy-check): through $RUMIS_URL
// (nginx's or Caddy's address; $RUMIS_PROXY names it), the app loads, a game against the
// AI (level 1) plays a few moves from the keyboard, and the game's WebSocket (one), opened
// through the proxy, brings the AI's moves. Screenshots: web/e2e/out/proxy-NAME-start.png
// and proxy-NAME-game.png. Not a *.test.mjs: the browser tests start their own server.
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, outDir, waitMovePast, moveNumber, openPage } from "./harness.mjs";

const url = process.env.RUMIS_URL;
const name = process.env.RUMIS_PROXY ?? "proxy";
if (!url) throw new Error("RUMIS_URL: the proxy's address");
const MOVES = 4;
const browser = await launch();
try {
  const page = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  const errors = page.errors;
  // The game's event sockets and the frames they brought.
  const sockets = [];
  page.on("websocket", (ws) => {
    const s = { url: ws.url(), frames: 0, moves: 0 };
    sockets.push(s);
    ws.on("framereceived", (f) => {
      s.frames++;
      if (typeof f.payload === "string" && f.payload.includes('"type":"move"')) s.moves++;
    });
  });
  const shot = (what) => page.screenshot({ path: join(outDir, `proxy-${name}-${what}.png`) });

  await page.goto(url);
  await page.waitForSelector(".board-card img");
  await shot("start");
  await page.click('.board-card[data-board="Chullpa"]');
  await page.selectOption('select[data-seat="1"]', "ai:1");
  await page.click("#create");
  await page.waitForURL(/\/game\/[a-z0-9]+$/);
  const id = page.url().split("/game/")[1];
  let played = 0;
  while (played < MOVES) {
    await page.waitForSelector('#status[data-state="your-turn"], #status[data-state="over"]', { timeout: 60000 });
    if ((await page.getAttribute("#status", "data-state")) !== "your-turn") break;
    const before = await moveNumber(page);
    await page.keyboard.press("n");
    await page.keyboard.press("Enter");
    await waitMovePast(page, before);
    played++;
  }
  // The AI's reply to the last move, by the socket.
  await page.waitForSelector('#status[data-state="your-turn"], #status[data-state="over"]', { timeout: 60000 });
  await shot("game");
  const state = await (await fetch(`${url}/api/v1/games/${id}`)).json();
  const events = sockets.filter((s) => s.url.includes(`/api/v1/games/${id}/events`));
  const frames = events.reduce((n, s) => n + s.frames, 0);
  const moveEvents = events.reduce((n, s) => n + s.moves, 0);
  assert.equal(played, MOVES, "the moves were played");
  assert.ok(state.moves_played >= 2 * MOVES, `the AI answered each move: ${state.moves_played} moves`);
  // One socket on the game's events: the page's table follows the board's (the app opened
  // two before, and each event came twice).
  assert.equal(events.length, 1, `one game socket through the proxy: ${JSON.stringify(sockets)}`);
  assert.ok(events.every((s) => s.url.startsWith(url.replace(/^http/, "ws"))), JSON.stringify(events));
  assert.ok(moveEvents >= MOVES, `move events by the socket: ${moveEvents}`);
  assert.deepEqual(errors, []);
  console.log(
    `${name}: the app loaded through ${url}; a game against AI level 1, ${played} moves from the keyboard, ` +
      `${state.moves_played} in the game; ${events.length} game socket(s), ${frames} frames, ${moveEvents} move events; ` +
      `screenshots ${outDir}/proxy-${name}-start.png, proxy-${name}-game.png`,
  );
} finally {
  await browser.close();
}
