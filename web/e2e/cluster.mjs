// The browser players of `scripts/cluster`: two Chromium contexts, each a player holding
// one seat of an online two-player Chullpa game (created through the API with two human
// seats; each page opens its seat's link, `/game/ID#seat=N&token=T`), play moves from the
// keyboard (N, Enter) through the proxy while the cluster's instances are killed or
// restarted; a game that ends is followed by another, until the STOP file appears.
// Not a *.test.mjs: the browser tests start their own server.
//
// node web/e2e/cluster.mjs URL NAME OUT READY STOP MARKS
//
// READY is written once both pages are in the first game; OUT gets the figures as JSON;
// MARKS is the file `scripts/cluster` appends `NAME EPOCH_MS` to when it kills or stops an
// instance.
// Measured in each page (a `WebSocket` wrapped by an init script): every game socket, when
// it opened and closed (and with which code), and, for a socket opened again, when the page
// showed at least the move its first message (the snapshot) said the game was at: the
// page's *wait* for a close is from the close to that moment (or, if the page left its
// game, ended, or the run ended first, to then: *not reopened*).
// Also counted: the page's uncaught errors and error notices (#toast.error), the most game
// sockets one page held open at once, and the moves each page saw applied after its Enter
// (*acknowledged*) that the server's game does not have at the end (*lost*). At the end of
// each game (and of the run) both pages and the server must agree on its move number.
// Screenshots: web/e2e/out/cluster-NAME-a.png, cluster-NAME-b.png at the end, and
// cluster-NAME-MARK-a.png, -b.png a second after each mark.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch, outDir, moveNumber, sleep } from "./harness.mjs";

const [url, name, outFile, readyFile, stopFile, marksFile] = process.argv.slice(2);
if (!marksFile) throw new Error("usage: node web/e2e/cluster.mjs URL NAME OUT READY STOP MARKS");
const stopped = () => existsSync(stopFile);

async function api(path, init = {}) {
  const headers = { "content-type": "application/json", ...(init.headers ?? {}) };
  for (let i = 0; ; i++) {
    try {
      const r = await fetch(`${url}/api/v1${path}`, { ...init, headers, signal: AbortSignal.timeout(20000) });
      if (r.status < 500) return { status: r.status, json: await r.json() };
    } catch {}
    if (i === 20) throw new Error(`${path}: no answer through the proxy`);
    await sleep(500);
  }
}

// In every page: the game sockets' lives and the page's error notices.
function instrument() {
  const rec = (window.__cluster = { sockets: [], toasts: [], maxOpen: 0, open: 0 });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(u, protocols) {
      super(u, protocols);
      if (!/\/api\/v1\/games\/[^/]+\/events$/.test(String(u))) return;
      const s = { made: Date.now(), opened: null, closed: null, code: null, snapshotAt: null, current: null };
      rec.sockets.push(s);
      this.addEventListener("open", () => {
        s.opened = Date.now();
        rec.open++;
        rec.maxOpen = Math.max(rec.maxOpen, rec.open);
      });
      this.addEventListener("close", (e) => {
        if (s.opened !== null) rec.open--;
        s.closed = Date.now();
        s.code = e.code;
      });
      this.addEventListener("message", (m) => {
        if (s.snapshotAt !== null) return;
        let e;
        try {
          e = JSON.parse(String(m.data));
        } catch {
          return;
        }
        if (e?.type !== "snapshot") return;
        s.snapshotAt = e.state.move_number;
        const check = () => {
          if (Number(document.body.dataset.moveNumber) >= s.snapshotAt) s.current = Date.now();
          else setTimeout(check, 20);
        };
        check();
      });
    }
  };
  const seen = () => {
    const t = document.getElementById("toast");
    if (t?.classList.contains("error") && t.textContent && rec.toasts.at(-1) !== t.textContent) rec.toasts.push(t.textContent);
  };
  document.addEventListener("DOMContentLoaded", () =>
    new MutationObserver(seen).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true }),
  );
}

const figures = {
  name,
  games: [],
  moves_acknowledged: 0,
  moves_lost: 0,
  moves_not_applied: 0,
  page_errors: [],
  error_notices: [],
  socket_closes: {},
  reopened: 0,
  not_reopened: 0,
  wait_max_ms: 0,
  waits_ms: [],
  max_game_sockets_open: 0,
  agree: null,
  final: [],
};

const browser = await launch();
try {
  const pages = [];
  for (const who of ["a", "b"]) {
    const context = await browser.newContext({ viewport: { width: 1024, height: 700 } });
    await context.addInitScript(instrument);
    const page = await context.newPage();
    page.on("pageerror", (e) => figures.page_errors.push(`${who}: ${e}`));
    pages.push(Object.assign(page, { who }));
  }

  /** A page's socket records, folded into the figures (before it leaves a game, and at the end). */
  const collect = async (page, end) => {
    const r = await page.evaluate(() => window.__cluster);
    figures.max_game_sockets_open = Math.max(figures.max_game_sockets_open, r.maxOpen);
    for (const t of r.toasts) figures.error_notices.push(`${page.who}: ${t}`);
    const ss = r.sockets;
    for (let i = 0; i < ss.length; i++) {
      const s = ss[i];
      if (s.closed === null) continue; // still open (collected before the page leaves its game)
      figures.socket_closes[s.code] = (figures.socket_closes[s.code] ?? 0) + 1;
      // The next socket that opened, and when the page was current with it.
      const next = ss.slice(i + 1).find((n) => n.opened !== null);
      let back = next && next.current !== null ? Math.max(next.opened, next.current) : null;
      if (back === null) figures.not_reopened++;
      else figures.reopened++;
      const wait = (back ?? end) - s.closed;
      figures.waits_ms.push(wait);
      figures.wait_max_ms = Math.max(figures.wait_max_ms, wait);
    }
  };

  /** One player's turns, from the keyboard, until its game ends or the run stops. */
  const play = async (page, acked) => {
    while (!stopped()) {
      try {
        await page.waitForSelector('#status[data-state="your-turn"], #status[data-state="over"]', { timeout: 1000 });
      } catch {
        continue;
      }
      if ((await page.getAttribute("#status", "data-state")) === "over") return;
      await sleep(300); // a person's think
      if (stopped()) return;
      const before = await moveNumber(page);
      await page.keyboard.press("n");
      const placement = await page.evaluate(() => window.rumis.current());
      await page.keyboard.press("Enter");
      try {
        await page.waitForFunction((n) => Number(document.body.dataset.moveNumber) > n, before, { timeout: 20000 });
        acked.push(placement);
        figures.moves_acknowledged++;
      } catch {
        figures.moves_not_applied++;
      }
    }
  };

  // Both pages on screen a second after each mark (a kill, a stop).
  const shot = (p, what) => p.screenshot({ path: join(outDir, `cluster-${name}${what}-${p.who}.png`) }).catch(() => {});
  const shotMarks = (async () => {
    const taken = new Set();
    while (!stopped()) {
      let lines = [];
      try {
        lines = readFileSync(marksFile, "utf8").trim().split("\n").filter(Boolean);
      } catch {}
      for (const l of lines) {
        const [mark] = l.split(" ");
        if (taken.has(mark)) continue;
        taken.add(mark);
        await sleep(1000);
        for (const p of pages) await shot(p, `-${mark}`);
      }
      await sleep(200);
    }
  })();

  /** Both pages and the server on the same move of game `id` (given 15 s to settle). */
  const agree = async (id) => {
    const settle = Date.now() + 15000;
    for (;;) {
      const server = (await api(`/games/${id}`)).json.move_number;
      const seen = { server, a: await moveNumber(pages[0]), b: await moveNumber(pages[1]) };
      if ((seen.a === server && seen.b === server) || Date.now() > settle) {
        figures.final.push(seen);
        figures.agree = (figures.agree ?? true) && seen.a === server && seen.b === server;
        return;
      }
      await sleep(250);
    }
  };

  let first = true;
  let id = null;
  while (first || !stopped()) {
    const created = await api("/games", {
      method: "POST",
      body: JSON.stringify({ board: "chullpa", players: 2, seats: [{ kind: "human" }, { kind: "human" }] }),
    });
    if (created.status !== 201) throw new Error(`creating a game: ${created.status} ${JSON.stringify(created.json)}`);
    if (id !== null) for (const p of pages) await collect(p, Date.now());
    id = created.json.id;
    await Promise.all(
      pages.map(async (p, seat) => {
        await p.goto(`${url}/game/${id}#seat=${seat}&token=${created.json.seats[seat].token}`);
        await p.waitForSelector("#status[data-state]", { timeout: 60000 });
      }),
    );
    if (first) writeFileSync(readyFile, `${Date.now()}\n`);
    first = false;
    const acked = [];
    await Promise.all(pages.map((p) => play(p, acked)));
    await agree(id);
    const st = (await api(`/games/${id}`)).json;
    const kept = new Set((st.moves ?? []).map((m) => m.placement));
    const lost = acked.filter((p) => !kept.has(p)).length;
    figures.moves_lost += lost;
    figures.games.push({ id, moves: st.moves_played, over: st.over, acknowledged: acked.length, lost });
  }

  await shotMarks;
  for (const p of pages) {
    await shot(p, "");
    await collect(p, Date.now());
  }
} finally {
  await browser.close();
}
figures.waits_ms.sort((x, y) => y - x);
writeFileSync(outFile, JSON.stringify(figures, null, 2));
console.log(JSON.stringify(figures, null, 2));
