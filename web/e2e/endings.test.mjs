// How games end, as each page watching states it (issue #49, rules §5.1): a resignation in a
// lobby game on the other player's page (its notice, the move list's line, the result with
// its reason, "You win" and the rematch), no hint while people play each other (and the
// analysis once over), the next step after a game against the AI (on the server and in the
// browser), the guided first game's ending, a move marked in the list only until the next
// move, the status of one's own turn while the AI's stone lands, quick play's countdown, and a
// colour that can place no more while the others play on (its notice and line, once).
// Run: `cd web && npm run build && node --test e2e/endings.test.mjs` (RUMIS_BIN, harness.mjs).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, launch, api, webDir, waitMovePast, moveNumber, openPage, shot, pickName } from "./harness.mjs";

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

const locale = (lang, area) => JSON.parse(readFileSync(join(webDir, "src", "locales", lang, `${area}.json`), "utf8"));
const G = locale("en", "game");
const fill = (text, params) => text.replace(/\{\{(\w+)\}\}/g, (_, k) => String(params[k]));

const newPage = (options = {}) => openPage(browser, { locale: "en-GB", ...options });

const post = (path, body, token) =>
  api(server.url, path, { method: "POST", headers: token ? { Authorization: `Bearer ${token}` } : {}, body: JSON.stringify(body) });
const state = (id) => api(server.url, `/games/${id}`);
const text = (page, sel) => page.$eval(sel, (e) => e.textContent.trim());
const missingKeys = (page) => page.evaluate(() => window.__rumisMissingKeys);

/** The first legal move of the seat to move, through the API with its key. */
async function apiMove(id, keys) {
  const s = await state(id);
  await post(`/games/${id}/moves`, { placement: s.legal_moves[0], expected_move_number: s.move_number }, keys[s.seat_to_move]);
}

test("a resignation in a lobby game: the other player's page states it, names the reason and the winner, and offers the rematch", async () => {
  const ana = await newPage();
  const ben = await newPage();
  const a = await pickName(ana, server.url, "Ana");
  const b = await pickName(ben, server.url, "Ben");
  await ana.selectOption("#seek-board", "Chullpa");
  await ana.selectOption("#seek-players", "2");
  await ana.click("#seek-create");
  await ana.waitForURL(/\/game\/[0-9a-f]{16}$/);
  const id = ana.url().split("/").pop();
  await ben.goto(`${server.url}/lobby`);
  await ben.waitForSelector(`.lobby-card[data-game="${id}"] .join-game`, { timeout: 10000 });
  await ben.click(`.lobby-card[data-game="${id}"] .join-game`);
  await ben.waitForURL(`**/game/${id}`);
  await ana.waitForSelector("#waiting", { state: "detached", timeout: 10000 });
  const table = await api(server.url, `/games/${id}/table`);
  const seatOf = (name) => table.seats.find((s) => s.player?.name === name);
  const [sa, sb] = [seatOf("Ana"), seatOf("Ben")];
  const keys = { [sa.seat]: a.key, [sb.seat]: b.key };
  const colour = (s) => locale("en", "common").colour[s.colours[0]];

  // Fair play: no hint between people, and the button says why instead of failing.
  const hints = [];
  ana.on("request", (r) => r.url().includes("/hint") && hints.push(r.url()));
  await ana.waitForSelector("#hint[disabled]");
  assert.equal(await text(ana, "#hint-off"), G.hint.fair_play);
  await ana.keyboard.press("h");
  await ana.waitForFunction((t) => document.getElementById("toast")?.textContent === t, G.hint.fair_play);
  assert.deepEqual(hints, [], "no hint was asked for");

  // Two moves, then Ben resigns on his page.
  for (let i = 0; i < 2; i++) await apiMove(id, keys);
  await ben.waitForFunction(() => Number(document.body.dataset.moveNumber) === 3, null, { timeout: 15000 });
  await ben.click("#resign");
  await ben.click("#resign-yes");

  // Ana's page: the notice, the move list's line, the result with its reason, "You win", the rematch.
  const resigned = fill(G.ending.resigned, { who: fill(G.ending.named, { name: "Ben", colours: colour(sb) }) });
  const wins = fill(G.status.wins, { name: fill(G.ending.named, { name: "Ana", colours: colour(sa) }) });
  await ana.waitForSelector('body[data-over="true"]', { timeout: 15000 });
  await ana.waitForFunction((t) => document.getElementById("result-line")?.textContent === t, `${resigned} — ${wins}`, { timeout: 10000 });
  assert.equal(await text(ana, "#you-result"), G.you.win);
  assert.equal(await ana.getAttribute("#outcome", "data-result"), "win");
  await ana.waitForFunction((t) => document.getElementById("toast")?.textContent.startsWith(t), `${resigned} — ${wins}`);
  assert.equal(await ana.getAttribute("#toast", "aria-live"), "polite");
  assert.equal(await ana.getAttribute("#toast", "role"), "status");
  const line = await ana.$eval('#movelist tr.departed[data-why="resigned"]', (tr) => ({ text: tr.textContent, after: tr.dataset.after }));
  assert.equal(line.after, "2", "after the move it followed");
  assert.ok(line.text.includes(resigned), line.text);
  assert.equal(await text(ana, `#players tr[data-colour="${sb.colours[0]}"] .forfeit`), G.players.why_resigned);
  await ana.waitForSelector("#outcome #rematch");
  assert.equal(await text(ana, "#outcome #rematch"), locale("en", "lobby").rematch);
  assert.equal(await ana.getAttribute("#outcome #to-lobby", "href"), "/lobby");
  assert.equal(await ana.$("#play-again"), null, "a lobby game offers its rematch, not a game against the AI");
  // Over now: the analysis is given (fair play ends with the game).
  await ana.waitForSelector("#analysis svg.graph", { timeout: 60000 });
  await shot(ana, "endings-resigned-winner");

  // Ben's page: "You lose", with the same reason.
  await ben.waitForFunction((t) => document.getElementById("result-line")?.textContent === t, `${resigned} — ${wins}`, { timeout: 10000 });
  assert.equal(await text(ben, "#you-result"), G.you.lose);
  await shot(ben, "endings-resigned-loser");

  // A spectator's page says the result, and no "you".
  const eve = await newPage();
  await eve.goto(`${server.url}/game/${id}`);
  await eve.waitForFunction((t) => document.getElementById("result-line")?.textContent === t, `${resigned} — ${wins}`, { timeout: 10000 });
  assert.equal(await eve.$("#you-result"), null);
  assert.equal(await eve.$("#outcome #rematch"), null);

  for (const p of [ana, ben, eve]) assert.deepEqual(p.errors, []);
  for (const p of [ana, ben, eve]) assert.deepEqual(await missingKeys(p), []);
  for (const p of [ana, ben, eve]) await p.context().close();
});

test("a player who leaves: the other page says the AI plays on, and the hint comes back with no other person playing", async () => {
  const created = await post("/games", { board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "human" }] });
  const [r, y] = created.seats;
  const red = await newPage();
  const yellow = await newPage();
  await red.goto(`${server.url}/game/${created.id}#seat=${r.seat}&token=${r.token}`);
  await yellow.goto(`${server.url}/game/${created.id}#seat=${y.seat}&token=${y.token}`);
  await red.waitForSelector('#status[data-state="your-turn"]');
  assert.equal(await red.$eval("#hint", (b) => b.disabled), true, "no hint between people");
  await red.keyboard.press("n");
  await red.keyboard.press("Enter");
  await yellow.waitForSelector('#status[data-state="your-turn"]', { timeout: 15000 });
  await yellow.click("#leave");
  await yellow.click("#leave-yes");
  const left = fill(G.ending.left, { who: locale("en", "common").colour.Y });
  await red.waitForFunction((t) => document.body.dataset.notice === t, left, { timeout: 15000 });
  assert.match(await text(red, '#movelist tr.departed[data-why="left"][data-after="1"]'), new RegExp(left));
  assert.equal(await text(red, '#players tr[data-colour="Y"] .forfeit'), G.players.why_left);
  // The AI plays Yellow's move; Red plays alone against it now: the hint is offered again.
  await red.waitForSelector('#status[data-state="your-turn"]', { timeout: 30000 });
  await red.waitForSelector("#hint:not([disabled])");
  assert.equal(await red.$("#hint-off"), null);
  await shot(red, "endings-left");
  for (const p of [red, yellow]) assert.deepEqual(p.errors, []);
  for (const p of [red, yellow]) await p.context().close();
});

test("a game against the AI on the server ends with the next step: the next level starts a new game", async () => {
  const created = await post("/games", { board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "ai", level: 1 }] });
  const seat = created.seats[0];
  const page = await newPage();
  await page.goto(`${server.url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
  await page.waitForSelector('#status[data-state="your-turn"]');
  // A game against the AI keeps its hint.
  assert.equal(await page.$eval("#hint", (b) => b.disabled), false);
  assert.equal(await page.$("#hint-off"), null);
  // Red plays a stone, then resigns: the game ends at once, Yellow (the AI) wins.
  const before = await moveNumber(page);
  await page.keyboard.press("n");
  await page.keyboard.press("Enter");
  await waitMovePast(page, before + 1);
  await page.click("#resign");
  await page.click("#resign-yes");
  await page.waitForSelector("#you-result");
  const red = locale("en", "common").colour.R;
  const yellow = locale("en", "common").colour.Y;
  assert.equal(await text(page, "#result-line"), `${fill(G.ending.resigned, { who: red })} — ${fill(G.status.wins, { name: yellow })}`);
  assert.equal(await text(page, "#you-result"), G.you.lose);
  assert.equal(await text(page, "#play-again"), fill(G.next.again_level, { level: 1 }));
  assert.equal(await text(page, "#next-level"), fill(G.next.next_level, { level: 2 }));
  assert.equal(await page.getAttribute("#new-game", "href"), "/");
  assert.equal(await page.$("#to-lobby"), null);
  await shot(page, "endings-ai-lost");
  await page.click("#next-level");
  await page.waitForURL((u) => /\/game\/[0-9a-f]{16}$/.test(u.pathname) && !u.pathname.endsWith(created.id));
  const next = await state(page.url().split("/").pop());
  assert.deepEqual(
    next.seats.map((s) => [s.kind, s.level]),
    [
      ["human", null],
      ["ai", 2],
    ],
  );
  assert.equal(next.site.board, "Chullpa");
  await page.waitForSelector('#status[data-state="your-turn"]');
  assert.deepEqual(page.errors, []);
  assert.deepEqual(await missingKeys(page), []);
  await page.context().close();
});

test("a game in the browser against the AI: one's own turn is never 'Waiting for' oneself, and the end offers the next game", async () => {
  // Motion on: the AI's stone drops in, and the page says whose turn is coming meanwhile.
  const page = await newPage({ reducedMotion: "no-preference" });
  await page.goto(server.url);
  await page.waitForSelector("select[data-seat='1']");
  await page.click('input[name="where"][value="local"]', { force: true });
  await page.selectOption("select[data-seat='1']", "ai:1");
  await page.click("#create");
  await page.waitForURL(/\?local=/);
  await page.waitForSelector('#status[data-state="your-turn"]', { timeout: 30000 });
  // Every status text, as it changes.
  await page.evaluate(() => {
    window.__statuses = [];
    const el = document.getElementById("status");
    new MutationObserver(() => window.__statuses.push(el.textContent)).observe(el, { childList: true, subtree: true, characterData: true });
  });
  const red = locale("en", "common").colour.R;
  for (let i = 0; i < 3; i++) {
    const n = await moveNumber(page);
    await page.keyboard.press("n");
    await page.keyboard.press("Enter");
    await waitMovePast(page, n + 1, 30000);
    await page.waitForSelector('#status[data-state="your-turn"]', { timeout: 30000 });
  }
  // Resign and leave are the server's: a game in this browser offers neither.
  assert.equal(await page.$("#resign"), null);
  const statuses = await page.evaluate(() => window.__statuses);
  assert.ok(!statuses.includes(fill(G.status.waiting, { colour: red })), `never "Waiting for Red": ${JSON.stringify(statuses)}`);
  assert.ok(statuses.some((s) => s.includes(fill(G.status.landing, { colour: red }))), `the stone landing: ${JSON.stringify(statuses)}`);
  // Play on to the end, as fast as the AI answers (the stones land at once without motion).
  await page.uncheck("#opt-animate");
  for (let guard = 0; guard < 40; guard++) {
    const over = await page.evaluate(() => document.body.dataset.over === "true");
    if (over) break;
    await page.waitForFunction(() => document.body.dataset.over === "true" || document.getElementById("status").dataset.state === "your-turn", null, { timeout: 30000 });
    if (await page.evaluate(() => document.body.dataset.over === "true")) break;
    const n = await moveNumber(page);
    await page.keyboard.press("n");
    await page.keyboard.press("Enter");
    await page.waitForFunction((n) => Number(document.body.dataset.moveNumber) > n || document.body.dataset.over === "true", n, { timeout: 30000 });
  }
  await page.waitForSelector("#you-result", { timeout: 30000 });
  const result = await page.getAttribute("#outcome", "data-result");
  assert.ok(["win", "share", "lose"].includes(result), result);
  assert.equal(await text(page, "#you-result"), G.you[result]);
  assert.equal(await text(page, "#play-again"), fill(G.next.again_level, { level: 1 }));
  assert.equal(await text(page, "#next-level"), fill(G.next.next_level, { level: 2 }));
  // The step after a win comes first.
  const first = await page.$eval("#next-steps", (el) => el.querySelector("button.primary")?.id);
  assert.equal(first, result === "lose" ? "play-again" : "next-level");
  await shot(page, "endings-local-end");
  const old = page.url();
  await page.click("#play-again");
  await page.waitForURL((u) => u.search.startsWith("?local=") && u.href !== old);
  await page.waitForSelector('#status[data-state="your-turn"]', { timeout: 30000 });
  assert.equal(await text(page, '#players tr[data-colour="Y"] td.who'), fill(G.players.ai, { level: 1 }));
  assert.deepEqual(page.errors, []);
  assert.deepEqual(await missingKeys(page), []);
  await page.context().close();
});

test("the guided first game ends with the result and a real game against level 1", async () => {
  const page = await newPage();
  await page.goto(server.url);
  await page.click("#guided-game");
  await page.waitForURL(/\/game\/[0-9a-f]{16}$/);
  await page.waitForSelector('#tutorial[data-step="welcome"]');
  await page.click("#tutorial-next");
  await page.waitForSelector('#tutorial[data-step="first_stone"] figure');
  // The first card's picture says the verdict without notation (not explained yet).
  const verdict = await text(page, "#tutorial figure .verdict");
  assert.ok(!/@/.test(verdict), `no notation before it is explained: ${verdict}`);
  assert.ok(verdict.startsWith(locale("en", "howto").verdict.legal_plain), verdict);
  // Yellow resigns at once: the game ends, the guide says so and offers the real game.
  await page.click("#resign");
  await page.click("#resign-yes");
  // The card showing (the first stone's) goes on to being out, then to the score.
  await page.waitForSelector('body[data-over="true"]', { timeout: 15000 });
  for (let i = 0; i < 4; i++) {
    const now = await page.evaluate(() => document.body.dataset.tutorialStep);
    if (now === "score") break;
    await page.click("#tutorial-next");
    await page.waitForFunction((s) => document.body.dataset.tutorialStep && document.body.dataset.tutorialStep !== s, now, { timeout: 15000 });
  }
  assert.equal(await page.evaluate(() => document.body.dataset.tutorialStep), "score");
  const T = locale("en", "tutorial");
  assert.equal(await text(page, "#tutorial-result"), G.you.lose);
  assert.equal(await text(page, "#tutorial-real-game"), T.realGame);
  // The page's own next step says the same.
  assert.equal(await text(page, "#play-again"), fill(G.next.real_game, { level: 1 }));
  assert.equal(await page.$("#next-level"), null);
  await shot(page, "endings-guided-end");
  const id = page.url().split("/").pop();
  await page.click("#tutorial-real-game");
  await page.waitForURL((u) => /\/game\/[0-9a-f]{16}$/.test(u.pathname) && !u.pathname.endsWith(id));
  const real = await state(page.url().split("/").pop());
  assert.deepEqual(
    real.seats.map((s) => [s.kind, s.level]),
    [
      ["ai", 1],
      ["human", null],
    ],
  );
  await page.waitForSelector("#status");
  await page.waitForTimeout(500);
  assert.equal(await page.$("#tutorial"), null, "a real game: no guide");
  assert.deepEqual(page.errors, []);
  assert.deepEqual(await missingKeys(page), []);
  await page.context().close();
});

test("a move clicked in the list is marked until the next move, not for the rest of the game", async () => {
  const created = await post("/games", { board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "ai", level: 1 }] });
  const seat = created.seats[0];
  const page = await newPage();
  await page.goto(`${server.url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
  await page.waitForSelector('#status[data-state="your-turn"]');
  let n = await moveNumber(page);
  await page.keyboard.press("n");
  await page.keyboard.press("Enter");
  n = await waitMovePast(page, n + 1);
  await page.waitForSelector('#status[data-state="your-turn"]');
  await page.click('#movelist tr[data-number="1"]');
  await page.mouse.move(5, 5);
  await page.waitForFunction(() => window.rumis.highlighted() > 0);
  assert.equal(await page.$$eval("#movelist tr.pinned", (trs) => trs.length), 1);
  await shot(page, "endings-move-pinned");
  await page.keyboard.press("n");
  await page.keyboard.press("Enter");
  await waitMovePast(page, n);
  await page.waitForFunction(() => window.rumis.highlighted() === 0);
  assert.equal(await page.$$eval("#movelist tr.pinned", (trs) => trs.length), 0);
  // Esc unmarks it too.
  await page.waitForSelector('#status[data-state="your-turn"]');
  await page.click('#movelist tr[data-number="2"]');
  await page.mouse.move(5, 5);
  await page.waitForFunction(() => window.rumis.highlighted() > 0);
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => window.rumis.highlighted() === 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("quick play counts down to the AI taking the free seats, and nobody is to move before", async () => {
  const page = await newPage();
  const me = await pickName(page, server.url, "Quinn");
  // Through the form: the countdown from the wait chosen.
  await page.selectOption("#quick-board", "Chullpa");
  await page.selectOption("#quick-wait", "30");
  await page.click("#quick-play");
  await page.waitForURL(/\/game\/[0-9a-f]{16}$/);
  await page.waitForSelector("#fill-countdown");
  const first = await text(page, "#fill-countdown");
  assert.match(first, /^AI level 3 takes the free seats in 0:[0-3]\d\.$/, first);
  await page.waitForFunction((t) => document.getElementById("fill-countdown")?.textContent !== t, first, { timeout: 5000 });
  // While it waits nobody moves: not "Your turn".
  await page.waitForSelector('#status[data-state="waiting-players"]');
  assert.equal(await text(page, "#status"), G.status.waiting_players);
  await shot(page, "endings-quick-countdown");
  const waiting = page.url().split("/").pop();
  await post(`/games/${waiting}/abort`, {}, me.key);
  // A short wait (through the API): the AI fills the seat, and the game starts on the page.
  const seated = await post("/lobby/quick", { board: "Chullpa", players: 2, wait_seconds: 4 }, me.key);
  await page.evaluate(([g, seat, key]) => localStorage.setItem(`rumis.tokens.${g}`, JSON.stringify({ [seat]: key })), [seated.game, seated.seat, me.key]);
  await page.goto(`${server.url}/game/${seated.game}`);
  await page.waitForSelector("#fill-countdown");
  await page.waitForSelector("#fill-countdown", { state: "detached", timeout: 15000 });
  await page.waitForFunction(() => ["your-turn", "waiting"].includes(document.getElementById("status").dataset.state), null, { timeout: 15000 });
  assert.deepEqual(page.errors, []);
  assert.deepEqual(await missingKeys(page), []);
  await page.context().close();
});

test("the final scores fit the panel in German, at a desk and on a phone", async () => {
  const created = await post("/games", { board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "ai", level: 1 }] });
  const seat = created.seats[0];
  await post(`/games/${created.id}/resign`, {}, seat.token);
  for (const [name, viewport] of [
    ["desk", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ]) {
    const page = await newPage({ viewport, locale: "de-DE" });
    await page.goto(`${server.url}/game/${created.id}#seat=${seat.seat}&token=${seat.token}`);
    await page.waitForSelector("#final-scores");
    const fit = await page.evaluate(() => {
      const side = document.querySelector(".side");
      const table = document.getElementById("final-scores").getBoundingClientRect();
      return { table: table.right, side: side.getBoundingClientRect().right, scroll: side.scrollWidth, width: side.clientWidth };
    });
    assert.ok(fit.table <= fit.side && fit.scroll <= fit.width, `${name}: the table is clipped: ${JSON.stringify(fit)}`);
    assert.equal(await text(page, "#you-result"), locale("de", "game").you.lose);
    // The panel is drawn anew with each state (the socket's first one may come after the
    // page's own): scroll to whichever table is there now, in one step.
    await page.evaluate(() => document.querySelector("#final-scores").scrollIntoView({ block: "nearest" }));
    await shot(page, `endings-final-de-${name}`);
    assert.deepEqual(page.errors, []);
    assert.deepEqual(await missingKeys(page), []);
    await page.context().close();
  }
});

test("a colour that can place no more while the others play on: the page followed live says so once, and the move list has its line", async () => {
  // Four people at Chullpa, each move chosen from the legal ones by the same rule (the
  // (11 × moves played)-th, wrapping): Green alone is out after move 34 and the others play
  // on (found with this rule; the server lists the legal moves in a fixed order).
  const created = await post("/games", { board: "Chullpa", players: 4, seats: [0, 1, 2, 3].map(() => ({ kind: "human" })) });
  const keys = Object.fromEntries(created.seats.map((s) => [s.seat, s.token]));
  const play = async () => {
    const s = await state(created.id);
    await post(`/games/${created.id}/moves`, { placement: s.legal_moves[(s.moves_played * 11) % s.legal_moves.length], expected_move_number: s.move_number }, keys[s.seat_to_move]);
  };
  for (let i = 0; i < 33; i++) await play();
  const before = await state(created.id);
  assert.deepEqual(before.colours.filter((c) => c.out).map((c) => c.colour), [], "nobody is out yet");
  // A spectator's page, following the game live.
  const page = await newPage();
  await page.goto(`${server.url}/game/${created.id}`);
  await page.waitForFunction(() => Number(document.body.dataset.moveNumber) === 34, null, { timeout: 15000 });
  await page.evaluate(() => {
    window.__notices = [];
    new MutationObserver(() => window.__notices.push(document.body.dataset.notice)).observe(document.body, { attributeFilter: ["data-notice"] });
  });
  await play();
  const after = await state(created.id);
  assert.deepEqual(after.colours.filter((c) => c.out).map((c) => c.colour), ["G"], "Green alone is out");
  assert.equal(after.over, false, "the others play on");
  const out = fill(G.ending.out, { who: locale("en", "common").colour.G });
  await page.waitForFunction((t) => document.body.dataset.notice === t, out, { timeout: 15000 });
  await page.waitForFunction((t) => document.getElementById("toast")?.textContent === t, out);
  // (The line starts with the colour's swatch, its letter.)
  const line = await text(page, '#movelist tr.departed[data-why="out"][data-colours="G"][data-after="34"]');
  assert.ok(line.endsWith(out), line);
  assert.equal(await text(page, '#players tr[data-colour="G"] .out-mark'), G.players.out);
  await shot(page, "endings-out");
  // The next move: no second notice, and still one line.
  await play();
  await page.waitForFunction(() => Number(document.body.dataset.moveNumber) === 36, null, { timeout: 15000 });
  await page.waitForTimeout(300);
  assert.deepEqual(await page.evaluate(() => window.__notices), [out], "said once");
  assert.equal(await page.$$eval('#movelist tr.departed[data-why="out"]', (trs) => trs.length), 1);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(await missingKeys(page), []);
  await page.context().close();
});
