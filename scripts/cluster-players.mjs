// The players of `scripts/cluster`: GAMES games at once through a proxy's URL, each with
// one WebSocket on its events, for SECONDS, then a check of what the database kept. Half
// the games are two people (both seats played here), half a person against the AI (level
// 1, so that AI turns are many and short: an instance killed holds some of them).
//
// node --experimental-websocket scripts/cluster-players.mjs URL GAMES SECONDS MARKS OUT
//
// MARKS: a file `scripts/cluster` appends `NAME EPOCH_MS` lines to (when it killed or
// stopped an instance); failed requests are reported relative to the first mark.
// OUT: the figures as JSON (also printed).
//
// A move is *acknowledged* when its POST answered 201. At the end every game is read
// again: an acknowledged move missing from it, or another placement at its number, is
// *lost*. A socket's *gap* runs from its close to the next socket of its game opening (a
// game that ended in between is not counted). A request *failed* when it got no answer or a 5xx. A game is *stranded* when the
// AI is still to move in it after the run plus a wait of two AI leases.

import { readFileSync, writeFileSync } from 'node:fs';

const [url, gamesArg, secondsArg, marksFile, outFile, leaseArg] = process.argv.slice(2);
const GAMES = Number(gamesArg ?? 12);
const SECONDS = Number(secondsArg ?? 30);
const LEASE = Number(leaseArg ?? 3);
// Between a person's moves: keeps the load a steady few moves a second per game.
const THINK_MS = 150;

const figures = {
  games_started: 0,
  games_finished: 0,
  moves_acknowledged: 0,
  moves_lost: 0,
  requests: 0,
  requests_failed: 0,
  failures: [],
  move_conflicts: 0,
  ws_opened: 0,
  ws_closed: {},
  ws_reconnects: 0,
  ws_not_reopened_game_over: 0,
  ws_still_connecting: 0,
  ws_connect_timeouts: 0,
  ws_events: 0,
  ws_gap_max_ms: 0,
  ai_moves_seen: 0,
  ai_wait_max_ms: 0,
  ai_waits_over_2s: 0,
  games_stranded: 0,
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => Date.now();

/// One request; a failure (no answer, or 5xx) is counted with its time and what it was.
async function call(method, path, { token, body } = {}) {
  figures.requests++;
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const t = now();
  try {
    const r = await fetch(url + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await r.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {}
    if (r.status >= 500) {
      // The server's own errors name themselves (`busy`: its database pool had no
      // connection within 3 s); a proxy's do not.
      figures.requests_failed++;
      const why = json?.error ?? 'from the proxy';
      figures.failures.push({ at: t, what: `${method} ${path.replace(/[0-9a-f]{8,}/, '{id}')} ${r.status} ${why}` });
    }
    return { status: r.status, json };
  } catch (e) {
    figures.requests_failed++;
    figures.failures.push({ at: t, what: `${method} ${path.replace(/[0-9a-f]{8,}/, '{id}')} ${e.cause?.code ?? e.name}` });
    return { status: 0, json: null };
  }
}

/// The game's event socket, opened again (after 200 ms) whenever it closes, until `done`.
function watch(id, game) {
  const wsUrl = url.replace(/^http/, 'ws') + `/api/v1/games/${id}/events`;
  let first = true;
  let closedAt = null; // when its socket last closed, until one opens again
  const open = () => {
    if (game.done) {
      // Closed, and its game ended before the socket was opened again.
      if (!first) figures.ws_not_reopened_game_over++;
      return;
    }
    const ws = new WebSocket(wsUrl);
    game.ws = ws;
    // One that neither opens nor fails within 5 s is given up and opened again.
    const patience = setTimeout(() => {
      if (ws.readyState !== WebSocket.CONNECTING || game.done) return;
      figures.ws_connect_timeouts++;
      ws.onclose = null;
      ws.close();
      open();
    }, 5000);
    ws.onopen = () => {
      clearTimeout(patience);
      figures.ws_opened++;
      if (!first) figures.ws_reconnects++;
      first = false;
      if (closedAt !== null) figures.ws_gap_max_ms = Math.max(figures.ws_gap_max_ms, now() - closedAt);
      closedAt = null;
    };
    ws.onmessage = () => {
      figures.ws_events++;
    };
    ws.onclose = (e) => {
      clearTimeout(patience);
      if (game.done) return;
      figures.ws_closed[e.code] = (figures.ws_closed[e.code] ?? 0) + 1;
      closedAt ??= now();
      setTimeout(open, 200);
    };
    ws.onerror = () => {};
  };
  open();
}

const acknowledged = new Map(); // game id -> [{ number, placement }]

async function playOne(slot, until) {
  const ai = slot % 2 === 1;
  const seats = ai ? [{ kind: 'human' }, { kind: 'ai', level: 1 }] : [{ kind: 'human' }, { kind: 'human' }];
  const created = await call('POST', '/api/v1/games', { body: { board: 'chullpa', players: 2, seats } });
  if (created.status !== 201) {
    await sleep(500);
    return;
  }
  figures.games_started++;
  const id = created.json.id;
  const tokens = created.json.seats.map((s) => s.token ?? null);
  const game = { done: false, ws: null };
  acknowledged.set(id, []);
  watch(id, game);
  let k = slot;
  let aiAskedAt = null;
  try {
    while (now() < until) {
      const st = await call('GET', `/api/v1/games/${id}`);
      if (st.status !== 200) {
        await sleep(200);
        continue;
      }
      const s = st.json;
      if (s.over) {
        figures.games_finished++;
        return;
      }
      const token = tokens[s.seat_to_move];
      if (!token) {
        // The AI's turn: read again soon.
        aiAskedAt ??= now();
        await sleep(100);
        continue;
      }
      if (aiAskedAt !== null) {
        const waited = now() - aiAskedAt;
        figures.ai_moves_seen++;
        figures.ai_wait_max_ms = Math.max(figures.ai_wait_max_ms, waited);
        if (waited > 2000) figures.ai_waits_over_2s++;
        aiAskedAt = null;
      }
      const legal = s.legal_moves;
      const placement = legal[(k * 7) % legal.length];
      k++;
      const number = s.move_number;
      const r = await call('POST', `/api/v1/games/${id}/moves`, {
        token,
        body: { placement, expected_move_number: number },
      });
      if (r.status === 201) {
        figures.moves_acknowledged++;
        acknowledged.get(id).push({ number, placement });
        if (tokens[(s.seat_to_move + 1) % 2] === null) aiAskedAt = now();
      } else if (r.status === 409) {
        // A proxy's retry of a move that was committed before its answer was lost.
        figures.move_conflicts++;
      }
      await sleep(THINK_MS);
    }
  } finally {
    game.done = true;
    // A socket opened again but not yet open when its game ended.
    if (game.ws?.readyState === WebSocket.CONNECTING) figures.ws_still_connecting++;
    game.ws?.close();
  }
}

async function slotLoop(slot, until) {
  while (now() < until) await playOne(slot, until);
}

const start = now();
const until = start + SECONDS * 1000;
await Promise.all(Array.from({ length: GAMES }, (_, i) => slotLoop(i, until)));

// What the database kept: every acknowledged move, and no AI turn left behind.
const deadline = now() + 2 * LEASE * 1000 + 5000;
const stranded = new Set();
for (const [id, moves] of acknowledged) {
  let s = null;
  for (;;) {
    const r = await call('GET', `/api/v1/games/${id}`);
    if (r.status === 200) {
      s = r.json;
      const aiToMove = !s.over && s.seats?.[s.seat_to_move]?.kind === 'ai';
      if (!aiToMove || now() > deadline) {
        if (aiToMove) stranded.add(id);
        break;
      }
    } else if (now() > deadline) {
      break;
    }
    await sleep(200);
  }
  const kept = new Map((s?.moves ?? []).map((m) => [m.number, m.placement]));
  for (const m of moves) if (kept.get(m.number) !== m.placement) figures.moves_lost++;
}
figures.games_stranded = stranded.size;

// Failed requests relative to the first mark (a kill or the first stop).
let marks = [];
try {
  marks = readFileSync(marksFile, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [name, at] = l.split(' ');
      return { name, at: Number(at) };
    });
} catch {}
const t0 = marks[0]?.at ?? start;
const fails = figures.failures.map((f) => f.at - t0);
figures.failed_from_ms = fails.length ? Math.min(...fails) : null;
figures.failed_to_ms = fails.length ? Math.max(...fails) : null;
const kinds = {};
for (const f of figures.failures) kinds[f.what] = (kinds[f.what] ?? 0) + 1;
figures.failures = kinds;
figures.marks = marks.map((m) => ({ name: m.name, after_ms: m.at - start }));
figures.seconds = SECONDS;
figures.games_at_once = GAMES;
writeFileSync(outFile, JSON.stringify(figures, null, 2));
console.log(JSON.stringify(figures, null, 2));
