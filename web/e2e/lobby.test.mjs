// The lobby in two browsers: Ana and Ben pick names, meet in the lobby, sit down, play two
// moves with the keyboard (each game page on one socket) and the rest through the API, see
// their ratings move as the ranking says, start a rematch with the seats rotated, and Ana
// aborts it after one move.
// Run: `npm --prefix web run build && node --test e2e/lobby.test.mjs` (after `cargo build`).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launch, api, sleep, openPage, shot, pickName, keyboardMove } from "./harness.mjs";

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

async function newPage(viewport = { width: 1280, height: 800 }) {
  const page = await openPage(browser, { viewport });
  // The WebSockets the page holds (made, not yet closed), by address.
  page.sockets = new Map();
  page.on("websocket", (ws) => {
    page.sockets.set(ws, ws.url());
    ws.on("close", () => page.sockets.delete(ws));
  });
  return page;
}


const gameId = (page) => page.url().match(/\/game\/([0-9a-f]{16})$/)[1];

async function rating(id, games) {
  for (let i = 0; i < 100; i++) {
    const p = await api(server.url, `/players/${id}`);
    if (p.rating.games === games) return p.rating;
    await sleep(100);
  }
  throw new Error(`${id}: the rating did not count ${games} games`);
}

// long: one pair of players' story in order (meet, play, rate, rematch, abort), each step
// checked where it happens.
test("two players meet in the lobby, play a rated game, rematch with rotated seats, abort", async () => {
  const ana = await newPage();
  const ben = await newPage();
  const a = await pickName(ana, server.url, "Ana");
  const b = await pickName(ben, server.url, "Ben");
  assert.match(a.key, /^[0-9a-f]{32}$/);

  // Ana opens a rated two-player Chullpa game and waits on its page.
  await ana.selectOption("#seek-board", "Chullpa");
  await ana.selectOption("#seek-players", "2");
  await ana.click("#seek-create");
  await ana.waitForURL(/\/game\/[0-9a-f]{16}$/);
  const id = gameId(ana);
  await ana.waitForSelector("#waiting");

  // Ben sees it appear in his lobby without reloading, and sits down.
  await ben.waitForSelector(`.lobby-card[data-game="${id}"] .join-game`, { timeout: 10000 });
  assert.match(await ben.textContent(`.lobby-card[data-game="${id}"]`), /Ana \(1500\?\)/);
  await shot(ben, "lobby");
  const phone = await newPage({ width: 390, height: 844 });
  await phone.goto(`${server.url}/lobby`);
  await phone.fill("#player-name", "Cid");
  await phone.click("#name-ok");
  await phone.waitForSelector(`.lobby-card[data-game="${id}"]`);
  await shot(phone, "lobby-phone");
  await ben.click(`.lobby-card[data-game="${id}"] .join-game`);
  await ben.waitForURL(`**/game/${id}`);
  await ana.waitForSelector("#waiting", { state: "detached", timeout: 10000 });
  assert.match(await ana.textContent("#table-seats"), /Ana.*Ben/s);

  // Two moves from the keyboard, the rest through the API with each player's key.
  await keyboardMove(ana, { waitTurn: true });
  await keyboardMove(ben, { waitTurn: true });
  // One game page, one socket on the game's events (its table, seats and rematch follow the
  // same one as the board).
  for (const p of [ana, ben]) {
    const held = [...p.sockets.values()].filter((u) => u.endsWith(`/api/v1/games/${id}/events`));
    assert.equal(held.length, 1, `the game sockets of one page: ${JSON.stringify(held)}`);
  }
  const keys = [a.key, b.key];
  for (;;) {
    const st = await api(server.url, `/games/${id}`);
    if (st.over) break;
    const seat = st.seat_to_move;
    const m = seat === 0 ? st.legal_moves[0] : st.legal_moves[st.legal_moves.length - 1];
    await api(server.url, `/games/${id}/moves`, {
      method: "POST",
      headers: { Authorization: `Bearer ${keys[seat]}` },
      body: JSON.stringify({ placement: m, expected_move_number: st.move_number }),
    });
  }
  const end = await api(server.url, `/games/${id}`);
  await ana.waitForSelector('#status[data-state="over"]', { timeout: 30000 });

  // The ratings move as the ranking says.
  const [ra, rb] = [await rating(a.id, 1), await rating(b.id, 1)];
  const [sa, sb] = end.players;
  if (sa > sb) assert.ok(ra.rating > 1500 && rb.rating < 1500 && ra.rating - 1500 === 1500 - rb.rating, `${ra.rating} ${rb.rating}`);
  else if (sb > sa) assert.ok(rb.rating > 1500 && ra.rating < 1500 && rb.rating - 1500 === 1500 - ra.rating, `${ra.rating} ${rb.rating}`);
  else assert.deepEqual([ra.rating, rb.rating], [1500, 1500]);

  // Rematch: Ana asks, Ben accepts on his game page; the seats are rotated.
  await ana.waitForFunction((r) => document.querySelector("#table-seats")?.textContent.includes(`(${r}?)`), ra.rating);
  await ana.waitForSelector("#rematch");
  await ana.click("#rematch");
  await ana.waitForURL((u) => /\/game\/[0-9a-f]{16}$/.test(u.pathname) && !u.pathname.endsWith(id));
  const re = gameId(ana);
  await ben.waitForFunction(() => document.querySelector("#rematch")?.textContent === "Accept the rematch", null, { timeout: 10000 });
  await ben.click("#rematch");
  await ben.waitForURL(`**/game/${re}`);
  const table = await api(server.url, `/games/${re}/table`);
  assert.equal(table.rematch_of, id);
  assert.deepEqual(table.seats.map((s) => s.player.name), ["Ben", "Ana"], "Ana sat in seat 0, now seat 1");
  assert.equal(table.status, "open");

  // Ben moves first now; then Ana aborts: no result, no rating.
  await keyboardMove(ben, { waitTurn: true });
  await ana.waitForSelector("#abort");
  await ana.click("#abort");
  await ana.waitForSelector("#aborted");
  await ben.waitForSelector("#aborted", { timeout: 10000 });
  assert.equal((await api(server.url, `/games/${re}`)).status, "aborted");
  await sleep(1200);
  assert.deepEqual((await api(server.url, `/players/${a.id}`)).rating, ra, "an aborted game is not rated");

  // Ana's page: her rating, both games, the record; the leaderboard.
  await ana.goto(`${server.url}/players/${a.id}`);
  await ana.waitForSelector("#finished-games");
  assert.match(await ana.textContent("#player-rating"), new RegExp(`Rating ${ra.rating}\\? after 1 rated game`));
  assert.equal(await ana.locator("#finished-games li").count(), 2);
  await ana.click("#show-key");
  assert.equal(await ana.textContent("#key-code"), a.key);
  await shot(ana, "player");
  await phone.goto(`${server.url}/players/${a.id}`);
  await phone.waitForSelector("#finished-games");
  await shot(phone, "player-phone");
  await ben.goto(`${server.url}/leaderboard`);
  await ben.waitForSelector("#leaderboard li.ai");
  assert.equal(await ben.locator("#leaderboard li.ai").count(), 9);
  // One opponent each: not listed until three distinct ones (issue #50), and the page says so.
  assert.equal(await ben.locator("#leaderboard li.player").count(), 0);
  assert.match(await ben.textContent("#listed-after"), /3 different opponents/);
  await shot(ben, "leaderboard");

  // The key brought to another device (a fresh context) by its link is the same player.
  const other = await newPage({ width: 390, height: 844 });
  await other.goto(`${server.url}/players/import#key=${b.key}`);
  assert.equal(new URL(other.url()).hash, "", "the key leaves the address bar");
  await other.click("#import-key");
  await other.waitForURL(`**/players/${b.id}`);
  assert.equal(await other.evaluate(() => JSON.parse(localStorage.getItem("rumis.player")).id), b.id);

  for (const p of [ana, ben, phone, other]) assert.deepEqual(p.errors, []);
  for (const p of [ana, ben, phone, other]) assert.deepEqual(await p.evaluate(() => window.__rumisMissingKeys ?? []), []);
  for (const p of [ana, ben, phone, other]) await p.context().close();
});
