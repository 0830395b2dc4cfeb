// The app teaches the game: the start page and "How to play" in four languages, the
// pictures of "How to play" drawn from the core's lessons, and a guided first game from the
// start page to its end, with a check at each step that the rule explained is the one the
// core then enforces.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, launch, api, outDir, webDir, openPage } from "./harness.mjs";

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

const LANGS = ["en", "de", "nl", "fr", "es", "pt", "it", "pl"];
const texts = Object.fromEntries(
  LANGS.map((l) => [
    l,
    Object.fromEntries(["start", "howto", "tutorial"].map((a) => [a, JSON.parse(readFileSync(join(webDir, "src", "locales", l, `${a}.json`), "utf8"))])),
  ]),
);
const fill = (text, params) => text.replace(/\{\{(\w+)\}\}/g, (_, k) => String(params[k]));

const newPage = (lang = "en", viewport = { width: 1280, height: 800 }) => openPage(browser, { viewport, locale: lang });

const shot = (page, name, opts = {}) => page.screenshot({ path: join(outDir, `${name}.png`), ...opts });
const missingKeys = (page) => page.evaluate(() => window.__rumisMissingKeys);

test("the start page and How to play in each language: no missing key, translated, the start button in view", async () => {
  for (const lang of LANGS) {
    const page = await newPage(lang);
    await page.goto(server.url);
    await page.waitForSelector(".board-card img");
    const T = texts[lang];
    assert.equal((await page.textContent("#create")).trim(), T.start.create, `${lang}: the start button`);
    assert.equal((await page.textContent("#guided-game")).trim(), T.start.newcomer.guided, `${lang}: the newcomer's way in`);
    assert.equal(await page.$eval(".lang-picker", (s) => s.value), lang, `${lang}: the picker shows the language`);
    if (lang !== "en") {
      assert.notEqual(T.start.create, texts.en.start.create, `${lang} translates the start button`);
      assert.notEqual(T.start.newGame, texts.en.start.newGame, `${lang} translates "New game"`);
    }
    assert.match(await page.textContent("#boards"), new RegExp(fill(T.start[`columns_${new Intl.PluralRules(lang).select(20)}`], { count: 20 })), `${lang}: plural of columns`);
    assert.match(await page.textContent('.board-card[data-board="Chullpa"]'), new RegExp(`^Chullpa${T.start.nick.Chullpa} · 5×4`), `${lang}: the board's nickname`);
    assert.equal(await page.getAttribute(".seat-row .swatch-Y", "title"), fill(JSON.parse(readFileSync(join(webDir, "src", "locales", lang, "common.json"), "utf8")).colour.Y, {}));
    // At 1280 x 800 "Start the game" and the way in for newcomers are in view without scrolling.
    const box = await page.$eval("#create", (b) => b.getBoundingClientRect().toJSON());
    assert.ok(box.bottom <= 800 && box.top >= 0, `${lang}: the start button is in view (${JSON.stringify(box)})`);
    const newcomer = await page.$eval("#newcomer", (b) => b.getBoundingClientRect().toJSON());
    assert.ok(newcomer.top < 250, `${lang}: the newcomer's box comes first`);
    if (["en", "de", "es", "pl"].includes(lang)) await shot(page, `teach-start-${lang}`);
    assert.deepEqual(await missingKeys(page), [], `${lang}: start page keys`);

    await page.click("#howto-link");
    await page.waitForURL(/\/how-to-play$/);
    await page.waitForSelector('body[data-lessons="ready"]');
    assert.equal((await page.textContent("h1")).trim(), T.howto.title);
    const hole = await page.textContent('figure[data-lesson="hole"] .verdict');
    assert.ok(hole.includes(fill(T.howto.rule.hole, { column: "b2" })), `${lang}: the hole's verdict: ${hole}`);
    const sections = await page.$$eval(".howto-section h2", (hs) => hs.map((x) => x.textContent));
    assert.equal(sections.length, 11);
    assert.deepEqual(await missingKeys(page), [], `${lang}: How to play keys`);
    if (lang === "en") await shot(page, "teach-howto-en", { fullPage: true });
    // The language is remembered: switching it redraws the page in the new one.
    if (lang === "en") {
      await page.selectOption(".lang-picker", "fr");
      await page.waitForFunction(() => document.documentElement.lang === "fr");
      assert.equal((await page.textContent("h1")).trim(), texts.fr.howto.title);
      await page.goto(server.url);
      await page.waitForSelector("#create");
      assert.equal((await page.textContent("#create")).trim(), texts.fr.start.create);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test("every board's preview shows its whole volume, with 2 and with 4 players", async () => {
  const page = await newPage("en");
  await page.goto(server.url);
  await page.waitForSelector(".board-card img");
  for (const players of ["2", "4"]) {
    await page.click(`input[name="players"][value="${players}"]`, { force: true });
    await page.waitForFunction((p) => document.querySelector(`input[name="players"][value="${p}"]`).checked, players);
    // A picture that is cut off has structure at its border: every border pixel must be
    // the background.
    const cut = await page.$$eval(".board-card", async (cards) => {
      const out = [];
      for (const card of cards) {
        const img = card.querySelector("img");
        await img.decode();
        const c = document.createElement("canvas");
        c.width = img.naturalWidth;
        c.height = img.naturalHeight;
        const g = c.getContext("2d");
        g.drawImage(img, 0, 0);
        const { data } = g.getImageData(0, 0, c.width, c.height);
        let bad = 0;
        for (let x = 0; x < c.width; x++)
          for (let y = 0; y < c.height; y++) {
            if (x > 1 && y > 1 && x < c.width - 2 && y < c.height - 2) continue;
            const i = (y * c.width + x) * 4;
            if (Math.abs(data[i] - 0xf4) + Math.abs(data[i + 1] - 0xef) + Math.abs(data[i + 2] - 0xe4) > 24) bad++;
          }
        out.push([card.dataset.board, bad]);
      }
      return out;
    });
    assert.equal(cut.length, 6);
    for (const [board, bad] of cut) assert.equal(bad, 0, `${board} with ${players} players: the preview is cut off`);
  }
  await shot(page, "teach-start-4p");
  await page.context().close();
});

test("the pictures of How to play are the core's positions and placements", async () => {
  const lessons = await api(server.url, "/lessons");
  const page = await newPage("en");
  await page.goto(`${server.url}/how-to-play`);
  await page.waitForSelector('body[data-lessons="ready"]');
  const scenes = await page.evaluate(() => window.__rumisLessonScenes);
  const flat = (structure) => structure.flatMap((s) => s.cubes.map((c) => [...c, s.colour])).map(String).sort();
  const cubes = (list) => list.map(String).sort();
  assert.equal(lessons.examples.length, 9);
  for (const e of lessons.examples) {
    const drawn = scenes[e.id];
    assert.ok(drawn, `${e.id} is drawn`);
    assert.deepEqual(drawn.structure.map(String).sort(), flat(e.structure), `${e.id}: the position's cubes`);
    assert.deepEqual(cubes(drawn.placement), cubes(e.cubes), `${e.id}: the placement's cubes`);
    const verdict = await page.getAttribute(`figure[data-lesson="${e.id}"] .verdict`, "data-verdict");
    assert.equal(verdict, e.legal ? "legal" : e.rule, `${e.id}: the caption names the core's verdict`);
  }
  for (const s of lessons.scores) {
    const drawn = scenes[`score-${s.id}`];
    assert.deepEqual(drawn.structure.map(String).sort(), flat(s.structure), `score ${s.id}: the cubes`);
    for (const c of s.colours) {
      const row = await page.$$eval(`figure[data-lesson="score-${s.id}"] tr[data-colour="${c.colour}"] td`, (tds) => tds.map((td) => td.textContent));
      assert.deepEqual(row, [String(c.seen), `− ${c.stones_left}`, String(c.score)], `score ${s.id} ${c.colour}`);
    }
  }
  // The start: eleven stones not placed each.
  assert.deepEqual(lessons.scores[0].colours.map((c) => c.score), [-11, -11]);
  await page.locator('figure[data-lesson="hole"]').scrollIntoViewIfNeeded();
  await shot(page, "teach-howto-hole");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the solitaire's 3 × 3 × 3 solution opens on stone 1, each stone in its own shade", async () => {
  const solution = await api(server.url, "/puzzles/cube3");
  const page = await newPage("nl");
  await page.goto(`${server.url}/puzzle?show=cube`);
  await page.waitForFunction(() => document.body.dataset.step === "1");
  assert.match(await page.textContent("#status"), new RegExp(`^Steen 1 van ${solution.steps.length}`));
  for (let i = 1; i < solution.steps.length; i++) await page.keyboard.press("ArrowRight");
  await page.waitForFunction((n) => document.body.dataset.step === String(n), solution.steps.length);
  const shades = await page.evaluate(() => window.__rumisShades);
  assert.equal(shades.length, solution.steps.length);
  for (const s of shades) assert.equal(s.length, 1, "every cube of a stone in one shade");
  assert.equal(new Set(shades.map((s) => s[0])).size, solution.steps.length, "the stones' shades all differ");
  assert.deepEqual(await missingKeys(page), []);
  await shot(page, "teach-puzzle-cube3");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// ----- the guided first game -----

/** Cubes of a state's structure, as a set of "x,y,z". */
function occupied(state) {
  const set = new Map();
  for (const col of state.position.columns) col.cubes.forEach((c, z) => set.set(`${col.x},${col.y},${z}`, c));
  return set;
}
const around = ([x, y, z]) => [
  [x + 1, y, z],
  [x - 1, y, z],
  [x, y + 1, z],
  [x, y - 1, z],
  [x, y, z + 1],
  [x, y, z - 1],
];
const touches = (cubes, cells, pred) => cubes.some((c) => around(c).some((n) => pred(cells.get(String(n)))));

/** Flat dominoes on two neighbouring columns, as placement texts with their columns. */
function dominoes(state) {
  const cols = new Map(state.position.columns.map((c) => [`${c.x},${c.y}`, c]));
  const out = [];
  for (const a of state.position.columns)
    for (const [dx, dy] of [
      [1, 0],
      [0, 1],
    ]) {
      const b = cols.get(`${a.x + dx},${a.y + dy}`);
      if (b) out.push({ text: `D2@${a.cell},${b.cell}`, a, b });
    }
  return out;
}

async function waitTurn(id, seat) {
  for (let i = 0; i < 600; i++) {
    const st = await api(server.url, `/games/${id}`);
    if (st.over || st.seat_to_move === seat) return st;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the AI did not move in time");
}

async function refused(id, token, placement, expected) {
  const res = await fetch(`${server.url}/api/v1/games/${id}/moves`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ placement, expected_move_number: expected }),
  });
  const body = await res.json();
  assert.equal(res.status, 422, `${placement} is refused: ${JSON.stringify(body)}`);
  return body.reason;
}

const step = (page) => page.evaluate(() => document.body.dataset.tutorialStep ?? "");

// long: the guided game is one path, step after step, each checked where the page reaches it.
test("the guided first game from the start page to its end: each step's rule is the core's", async () => {
  const page = await newPage("en");
  await page.goto(server.url);
  await page.click("#guided-game");
  await page.waitForURL(/\/game\/[a-z0-9]+$/);
  const id = page.url().split("/game/")[1];
  await page.waitForSelector('#tutorial[data-step="welcome"]');
  const created = await api(server.url, `/games/${id}`);
  assert.deepEqual(
    [created.site.board, created.site.players, created.seats.map((s) => [s.kind, s.level])],
    ["Chullpa", 2, [["ai", 1], ["human", null]]],
    "Chullpa, 2 players, the AI at level 1 opens",
  );
  const tokens = await page.evaluate((id) => JSON.parse(localStorage.getItem(`rumis.tokens.${id}`)), id);
  const token = tokens["1"];
  assert.ok(token, "this browser holds the human seat");
  assert.match(await page.textContent("#tutorial"), /−11/, "the welcome explains the −11");
  await shot(page, "teach-tutorial-1-welcome");
  await page.click("#tutorial-next");

  const seen = [];
  const at = {}; // step -> yellow's stones placed when it showed
  let state = await waitTurn(id, 1);
  while (!state.over) {
    const placed = 11 - state.colours.find((c) => c.colour === "Y").stones_left.length;
    const cells = occupied(state);
    const { placements } = await api(server.url, `/games/${id}/placements`);
    const n = state.move_number;
    if (placed === 0) await page.waitForSelector('#tutorial[data-step="first_stone"]', { timeout: 10000 });
    if (placed === 1) await page.waitForSelector('#tutorial[data-step="contact"]', { timeout: 10000 });
    // Every step this turn brings, one after another, until none is left.
    for (;;) {
      // The guide has looked at this position (its placements included).
      await page.waitForFunction((n) => Number(document.body.dataset.tutorialAt) === n, state.moves_played, { timeout: 10000 });
      const now = await step(page);
      if (!now) break;
      if (now === "first_stone") {
        // As explained: every legal place rests on the board and touches the structure...
        for (const p of placements) {
          assert.ok(p.cubes.some((c) => c[2] === 0), `${p.placement} rests on the board`);
          assert.ok(touches(p.cubes, cells, Boolean), `${p.placement} touches the structure`);
        }
        // ...and a stone apart from it is refused for that reason.
        const apart = dominoes(state).find((d) => d.a.height === 0 && d.b.height === 0 && !touches([[d.a.x, d.a.y, 0], [d.b.x, d.b.y, 0]], cells, Boolean));
        assert.match(await refused(id, token, apart.text, n), /first stone must touch a cube already in the structure/);
        await shot(page, "teach-tutorial-2-first-stone");
      } else if (now === "contact") {
        // A reload resumes the guide where it was.
        await page.reload();
        await page.waitForSelector('#tutorial[data-step="contact"]');
        for (const p of placements) assert.ok(touches(p.cubes, cells, (c) => c === "Y"), `${p.placement} touches yellow`);
        const alone = dominoes(state).find(
          (d) => d.a.height === d.b.height && d.a.height < d.a.limit && !touches([[d.a.x, d.a.y, d.a.height], [d.b.x, d.b.y, d.b.height]], cells, (c) => c === "Y"),
        );
        assert.match(await refused(id, token, alone.text, n), /must touch a yellow cube/i);
      } else if (now === "support") {
        // It shows when a stone can rest on others (or a few stones in)...
        const onTop = placements.some((p) => p.cubes.some(([x, y, z]) => z > 0 && cells.has(`${x},${y},${z - 1}`)));
        assert.ok(onTop || placed >= 3, "building on top is possible now");
        // ...and a stone over a lower column leaves empty space under it: refused.
        const hollow = dominoes(state).find((d) => d.a.height > d.b.height && d.a.height < d.a.limit);
        assert.ok(hollow, "a domino can be laid over a step");
        assert.match(await refused(id, token, hollow.text, n), /empty space under it/);
        for (const p of placements)
          for (const [x, y, z] of p.cubes)
            assert.ok(z === 0 || cells.has(`${x},${y},${z - 1}`) || p.cubes.some((c) => String(c) === String([x, y, z - 1])), `${p.placement}: nothing hollow`);
      } else if (now === "height") {
        const limit = state.site.hmax;
        assert.match(await page.textContent("#tutorial"), new RegExp(`level ${limit}`));
        const reaches = placements.some((p) => p.cubes.some((c) => c[2] === limit - 1));
        assert.ok(reaches || placed >= 4, "a stone can reach the limit now");
        const col = state.position.columns.find((c) => c.height >= 1);
        assert.match(await refused(id, token, `I4@${col.cell}x4`, n), /above the height limit/);
        for (const p of placements) for (const c of p.cubes) assert.ok(c[2] < limit, `${p.placement} stays under the limit`);
        await shot(page, "teach-tutorial-3-height");
      } else if (now === "out") {
        const out = state.colours.filter((c) => c.out).map((c) => c.name);
        assert.ok(out.length > 0);
        for (const name of out) assert.match(await page.textContent("#tutorial"), new RegExp(name, "i"));
        // Two out at once read "Red and Yellow … are out", not "Red, Yellow … is out".
        if (out.length > 1) assert.match(await page.textContent("#tutorial"), / and .* are out /);
      }
      seen.push(now);
      at[now] = placed;
      await page.click("#tutorial-next");
      await page.waitForFunction((s) => document.body.dataset.tutorialStep !== s, now);
    }
    // Keep the I4 for the height step (stood up, it is too tall); otherwise the first legal place.
    const pick = placements.find((p) => seen.includes("height") || p.stone !== "I4") ?? placements[0];
    const res = await fetch(`${server.url}/api/v1/games/${id}/moves`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ placement: pick.placement, expected_move_number: n }),
    });
    assert.equal(res.status, 201, await res.text());
    state = await waitTurn(id, 1);
  }
  // The end: being out (if not shown yet), then the score, as the core counts it.
  if (!seen.includes("out")) {
    await page.waitForSelector('#tutorial[data-step="out"]', { timeout: 10000 });
    seen.push("out");
    await page.click("#tutorial-next");
  }
  await page.waitForSelector('#tutorial[data-step="score"]', { timeout: 10000 });
  seen.push("score");
  const final = await api(server.url, `/games/${id}`);
  const lines = await page.$$eval(".tutorial-scores li", (lis) => lis.map((li) => ({ ...li.dataset, text: li.textContent })));
  assert.equal(lines.length, 2);
  for (const c of final.colours) {
    const line = lines.find((l) => l.colour === c.colour);
    assert.equal(Number(line.score), c.score, `${c.colour}: the score shown is the core's`);
    assert.equal(Number(line.left), c.stones_left.length);
    assert.equal(Number(line.seen) - Number(line.left), c.score, `${c.colour}: seen from above − stones not placed`);
    assert.ok(line.text.includes(`= ${c.score}`));
  }
  assert.deepEqual(seen, ["first_stone", "contact", "support", "height", "out", "score"]);
  // One rule of placing per turn: each on a later turn than the one before.
  assert.ok(at.first_stone === 0 && at.contact === 1 && at.support > at.contact && at.height > at.support, JSON.stringify(at));
  await shot(page, "teach-tutorial-4-score");
  assert.deepEqual(await missingKeys(page), []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the guide can be skipped from How to play's guided game, and stays skipped after a reload", async () => {
  const page = await newPage("de");
  await page.goto(`${server.url}/how-to-play`);
  await page.waitForSelector('body[data-lessons="ready"]');
  await page.click("#howto-guided");
  await page.waitForURL(/\/game\/[a-z0-9]+$/);
  await page.waitForSelector('#tutorial[data-step="welcome"]');
  assert.equal((await page.textContent("#tutorial h2")).trim(), texts.de.tutorial.welcome.title);
  await page.click("#tutorial-skip");
  assert.equal(await page.$("#tutorial"), null);
  await page.reload();
  await page.waitForSelector("#status");
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(await page.$("#tutorial"), null, "no guide after skipping it");
  assert.deepEqual(await missingKeys(page), []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
