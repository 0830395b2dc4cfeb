// End-to-end tests of the web app in real Chromium against a real `rumis serve`.
// Run: `npm --prefix web run e2e` (after `cargo build` and `npm --prefix web run build`).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launch, api, waitMovePast, moveNumber, sleep, openPage, shot, yourTurn, keyboardMove } from "./harness.mjs";

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

const newPage = (viewport = { width: 1280, height: 800 }) => openPage(browser, { viewport });


test("the start page shows every scenario with a 3D preview and its provenance", async () => {
  const page = await newPage();
  await page.goto(server.url);
  await page.waitForSelector(".board-card img");
  const cards = await page.$$eval(".board-card", (els) =>
    els.map((e) => ({ name: e.dataset.board, img: e.querySelector("img").src, text: e.textContent })),
  );
  assert.deepEqual(
    cards.map((c) => c.name).sort(),
    ["Chullpa", "Coricancha", "Cucho", "Pirka", "Pisac", "Tambo"],
  );
  for (const c of cards) {
    assert.match(c.img, /^data:image\/png;base64,/);
    assert.ok(c.img.length > 3000, `${c.name}'s preview is a picture, not an empty canvas`);
    assert.match(c.text, /Board as printed in the rules|Board: a reconstruction/, `${c.name} notes its provenance`);
  }
  await shot(page, "start");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a game against the AI: mouse, keyboard, an illegal click, a spectator, a reload, to the end", async () => {
  const page = await newPage();
  await page.goto(server.url);
  await page.waitForSelector(".board-card");
  await page.click('.board-card[data-board="Chullpa"]');
  await page.selectOption('select[data-seat="1"]', "ai:1");
  await page.click("#create");
  await page.waitForURL(/\/game\/[a-z0-9]+$/);
  const id = page.url().split("/game/")[1];
  assert.ok(await yourTurn(page));

  // With the mouse: pick a stone, hover where one of its placements rests, click.
  await page.click(".stone:not([disabled])");
  const sel = await page.evaluate(() => window.rumis.selected());
  const target = await page.evaluate(
    (sel) => window.rumis.placements().find((p) => p.stone === sel.stone && p.orientation === sel.orientation).placement,
    sel,
  );
  const [x, y] = await page.evaluate((t) => window.rumis.anchorPoint(t), target);
  await page.mouse.move(x, y);
  await page.waitForFunction(() => document.body.dataset.ghost !== "");
  const ghost = await page.evaluate(() => document.body.dataset.ghost);
  assert.equal(ghost, target, "the ghost snaps to the placement under the pointer");
  await page.mouse.click(x, y);
  await waitMovePast(page, 1);
  let state = await api(server.url, `/games/${id}`);
  assert.equal(state.moves[0].placement, target, "the stone went where the ghost showed");

  // The AI answers.
  assert.ok(await yourTurn(page));
  state = await api(server.url, `/games/${id}`);
  assert.equal(state.moves_played, 2);
  assert.equal(state.moves[1].colour, "Y");
  await shot(page, "chullpa-in-progress");

  // An illegal click changes nothing: a stone chosen, a click off the board.
  await page.keyboard.press("]");
  const box = await page.locator("#stage canvas").boundingBox();
  await page.mouse.click(box.x + 8, box.y + 8);
  await sleep(600);
  assert.equal((await api(server.url, `/games/${id}`)).moves_played, 2);
  assert.equal(await moveNumber(page), 3);

  // With the keyboard.
  const k = await keyboardMove(page);
  state = await api(server.url, `/games/${id}`);
  assert.equal(state.moves[2].placement, k.placement);

  // A spectator follows live.
  const watcher = await newPage();
  await watcher.goto(`${server.url}/game/${id}`);
  await watcher.waitForSelector("#status");
  await watcher.waitForFunction(() => document.body.dataset.moveNumber);
  assert.ok(await yourTurn(page));
  const seen = await moveNumber(watcher);
  assert.equal(await watcher.locator(".stone:not([disabled])").count(), 0, "a spectator cannot pick stones");
  await keyboardMove(page);
  await waitMovePast(watcher, seen, 20000);

  // A reload in the middle restores the game and the seat.
  assert.ok(await yourTurn(page));
  const mid = await moveNumber(page);
  await page.reload();
  assert.ok(await yourTurn(page));
  assert.equal(await moveNumber(page), mid);
  assert.ok((await page.locator(".stone:not([disabled])").count()) > 0, "the seat is still ours after a reload");

  // Play to the end.
  for (let i = 0; i < 60 && (await yourTurn(page)); i++) await keyboardMove(page);
  await page.waitForSelector("#final-scores");
  state = await api(server.url, `/games/${id}`);
  assert.ok(state.over);
  const shown = await page.$$eval("#final-scores tr[data-colour]", (rows) =>
    rows.map((r) => [r.dataset.colour, Number(r.querySelector(".final-score").dataset.score)]),
  );
  assert.deepEqual(
    shown,
    state.colours.map((c) => [c.colour, c.score]),
    "the final scores are the server's",
  );
  await watcher.waitForSelector("#final-scores", { timeout: 20000 });
  await page.waitForSelector("#analysis svg polyline", { timeout: 120000 });
  await shot(page, "end");

  // Replay: step back one move.
  await page.click("#step-back");
  await page.waitForFunction((n) => document.getElementById("status").textContent.includes(`after move ${n - 1}`), state.moves_played);
  const record = await (await fetch(`${server.url}/api/v1/games/${id}/record`)).text();
  assert.match(record, /\[Board "Chullpa"\]/);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(watcher.errors, []);
  await watcher.context().close();
  await page.context().close();
});

test("hot-seat on Coricancha with four players: turns, undo, top view", async () => {
  const page = await newPage();
  await page.goto(server.url);
  await page.waitForSelector(".board-card");
  await page.click('.board-card[data-board="Coricancha"]');
  await page.click('input[name="players"][value="4"]', { force: true });
  for (const seat of [1, 2, 3]) await page.selectOption(`select[data-seat="${seat}"]`, "human");
  await page.click('input[name="mode"][value="hot"]', { force: true });
  await page.click("#create");
  await page.waitForURL(/\/game\/[a-z0-9]+$/);
  const id = page.url().split("/game/")[1];
  const colours = [];
  for (let i = 0; i < 6; i++) {
    assert.ok(await yourTurn(page));
    await keyboardMove(page);
    colours.push((await api(server.url, `/games/${id}`)).moves[i].colour);
  }
  assert.deepEqual(colours, ["R", "Y", "G", "B", "R", "Y"], "every seat plays on this one device");
  await page.keyboard.press("]");
  await page.keyboard.press("n");
  await shot(page, "coricancha-in-progress");
  await page.keyboard.press("Escape");
  await page.click("#undo");
  await page.waitForFunction(() => Number(document.body.dataset.moveNumber) === 6);
  assert.equal((await api(server.url, `/games/${id}`)).moves_played, 5);
  await page.click("#top-view");
  await shot(page, "coricancha-top-view");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("online seats: the second player joins by link and plays their seat only", async () => {
  const page = await newPage();
  await page.goto(server.url);
  await page.waitForSelector(".board-card");
  await page.click('.board-card[data-board="Tambo"]');
  await page.selectOption('select[data-seat="1"]', "human");
  await page.click('input[name="mode"][value="online"]', { force: true });
  await page.click("#create");
  const link = await page.inputValue(".seat-link");
  assert.match(link, /\/game\/[a-z0-9]+#seat=1&token=[0-9a-f]{32}$/);
  await page.click("#go");
  assert.ok(await yourTurn(page));
  const friend = await newPage({ width: 390, height: 844 });
  await friend.goto(link);
  await friend.waitForSelector('#status[data-state="waiting"]');
  assert.ok(!friend.url().includes("token"), "the token leaves the address bar");
  await keyboardMove(page);
  assert.ok(await yourTurn(friend));
  await keyboardMove(friend);
  assert.ok(await yourTurn(page));
  const state = await api(server.url, `/games/${page.url().split("/game/")[1]}`);
  assert.deepEqual(
    state.moves.map((m) => m.colour),
    ["R", "Y"],
  );
  await shot(friend, "tambo-phone");
  assert.deepEqual(page.errors, []);
  assert.deepEqual(friend.errors, []);
  await friend.context().close();
  await page.context().close();
});

test("a hint shows a legal stone, and Enter plays it", async () => {
  const created = await api(server.url, "/games", {
    method: "POST",
    body: JSON.stringify({ board: "pisac", players: 3, variant: "ruinas", seats: [{ kind: "human" }, { kind: "ai", level: 1 }, { kind: "ai", level: 1 }] }),
  });
  const page = await newPage();
  const seat = created.seats.find((s) => s.token);
  await page.goto(`${server.url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
  assert.ok(await yourTurn(page));
  await page.click("#hint");
  await page.waitForSelector("#hint-text", { timeout: 60000 });
  const text = await page.textContent("#hint-text");
  const placement = text.match(/Hint: (\S+)/)[1];
  const legal = await page.evaluate(() => window.rumis.placements().map((p) => p.placement));
  assert.ok(legal.includes(placement), `the hint ${placement} is a legal placement`);
  const before = await moveNumber(page);
  await page.keyboard.press("Enter");
  await waitMovePast(page, before);
  const state = await api(server.url, `/games/${created.id}`);
  assert.equal(state.moves[0].placement, placement);
  await shot(page, "pisac-ruinas");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the solitaire: build the 3×3×3 with the rules checked, and watch the 5×5×5 in turn", async () => {
  const page = await newPage();
  await page.goto(`${server.url}/puzzle`);
  await page.waitForSelector('#status[data-state="building"]');
  const solution = await api(server.url, "/puzzles/cube3");
  assert.ok(solution.steps.length >= 7);
  // Place each stone of a known filling from the keyboard: choose the stone, step through
  // its places until the ghost is the one wanted, Enter.
  let filled = 0;
  for (const [i, step] of solution.steps.entries()) {
    const stone = step.placement.split("@")[0];
    await page.click(`.stone[data-stone="${stone}"]`);
    let found = false;
    for (let k = 0; k < 400 && !found; k++) {
      await page.keyboard.press("n");
      found = (await page.evaluate(() => window.rumis.current())) === step.placement;
    }
    assert.ok(found, `${step.placement} is offered`);
    await page.keyboard.press("Enter");
    filled += step.cubes.length;
    await page.waitForFunction((f) => Number(document.body.dataset.filled) === f, filled);
    if (i === 0) {
      // A stone already used is refused by the server, and the page changes nothing.
      const res = await fetch(`${server.url}/api/v1/puzzles/cube`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ size: "3x3x3", moves: [step.placement, step.placement] }),
      });
      assert.equal(res.status, 422);
      assert.match((await res.json()).reason, /stone 2/);
    }
  }
  await page.waitForSelector('#status[data-state="solved"]');
  await shot(page, "puzzle-solved");
  // A reload keeps the attempt; taking back a stone reopens the box.
  await page.reload();
  await page.waitForSelector('#status[data-state="solved"]');
  await page.click("#undo");
  await page.waitForSelector('#status[data-state="building"]');
  await page.click("#reset");
  await page.waitForFunction(() => document.body.dataset.filled === "0");

  // The viewers open on the first stone, so the building can be followed.
  await page.click("#tab-tower5");
  await page.waitForFunction(() => document.body.dataset.step === "1");
  await page.click("#step-forward");
  await page.waitForFunction(() => document.body.dataset.step === "2");
  assert.match(await page.textContent("#status"), /Stone 2 of 33/);
  await page.click("#step-back");
  await shot(page, "puzzle-tower5");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("after a network drop the page reconnects by itself and catches up", async () => {
  const own = await startServer();
  const created = await api(own.url, "/games", {
    method: "POST",
    body: JSON.stringify({ board: "chullpa", players: 2, hot_seat: true }),
  });
  const token = created.seats[0].token;
  const page = await newPage();
  await page.goto(`${own.url}/game/${created.id}#seat=0,1&token=${token}`);
  await page.waitForSelector("#conn.up");
  await page.evaluate(() => document.getElementById("opt-labels").click());
  await own.stop();
  await page.waitForSelector("#conn.down");
  // The server comes back on the same address and database; a move is made elsewhere.
  const again = await startServer({ addr: own.url.replace("http://", ""), dir: own.dir });
  try {
    const first = (await api(again.url, `/games/${created.id}/placements`)).placements[0].placement;
    await api(again.url, `/games/${created.id}/moves`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
      body: JSON.stringify({ placement: first, expected_move_number: 1 }),
    });
    await page.waitForSelector("#conn.up", { timeout: 30000 });
    await waitMovePast(page, 1, 30000);
    assert.ok(await yourTurn(page), "the hot-seat page goes on with the next colour");
    await keyboardMove(page);
    await shot(page, "chullpa-labels");
    assert.deepEqual(page.errors, []);
  } finally {
    await page.context().close();
    await again.stop();
  }
});

test("two players with four colours: one seat plays two colours, the AI the other two", async () => {
  const page = await newPage();
  await page.goto(server.url);
  await page.waitForSelector(".board-card");
  await page.click('.board-card[data-board="Pirka"]');
  await page.click('input[name="variant"][value="two-player-four-colors"]', { force: true });
  assert.equal(await page.locator(".seat-row").count(), 2, "two seats");
  await page.selectOption('select[data-seat="1"]', "ai:1");
  await page.click("#create");
  await page.waitForURL(/\/game\/[a-z0-9]+$/);
  const id = page.url().split("/game/")[1];
  assert.ok(await yourTurn(page));
  await keyboardMove(page);
  assert.ok(await yourTurn(page));
  await keyboardMove(page);
  const state = await api(server.url, `/games/${id}`);
  assert.equal(state.site.variant, "two-player-four-colors");
  assert.deepEqual(
    state.moves.slice(0, 3).map((m) => m.colour),
    ["R", "Y", "G"],
    "the human plays red and green, the AI yellow between them",
  );
  assert.match(await page.textContent("#players"), /better colour counts/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
