// GameStore (src/game/store.ts): the game as the page knows it, kept up to date from the
// socket's events, against a stand-in backend whose game is a list of moves. Each event is
// applied in order, one at a time; a move is read as the state right after it (`?at=N`) and
// shown with its cubes; a short gap is walked move by move, a long one (or an undo, a
// resynchronisation, a reconnection far behind) reads the whole state again.
import { afterEach, describe, expect, test, vi } from "vitest";
import type { GameEvent, GameState, Letter, Placement, PlacementsAnswer } from "../src/api";
import type { GameBackend } from "../src/engine/backend";
import { GameStore, type MoveShown } from "../src/game/store";

/** Move n's placement: stone `I1` or `L4`, alternating, at column n. */
const placementOf = (n: number) => `${n % 2 ? "I1" : "L4"}@a${n}`;
/** Two seats: seat 0 (Red) a person, seat 1 (Yellow) the AI. */
const colourOf = (n: number): Letter => (n % 2 ? "R" : "Y");

/** The state after `n` moves of a game of `total` (status "open" until it ends). */
function stateAt(n: number, over = false, status: GameState["status"] = "open"): GameState {
  return {
    id: "g",
    status: over ? "finished" : status,
    seats: [
      { seat: 0, colours: ["R"], kind: "human", level: null },
      { seat: 1, colours: ["Y"], kind: "ai", level: 3 },
    ],
    moves_played: n,
    move_number: n + 1,
    to_move: over ? null : colourOf(n + 1),
    seat_to_move: over ? null : n % 2,
    over,
    last_move: n > 0 ? { number: n, colour: colourOf(n), placement: placementOf(n), cubes: [[n, 0, 0]] } : null,
  } as unknown as GameState;
}

/** A stand-in backend: the game has `moves` moves; every call is written down. */
function fakeBackend(moves: number) {
  const calls: string[] = [];
  let onEvent: (e: GameEvent) => void = () => {};
  let onStatus: (up: boolean) => void = () => {};
  const game = {
    moves,
    status: "open" as GameState["status"],
    /** Answers to `placements` that lag behind (a move the server already has). */
    stalePlacements: 0,
    /** Hold the answer for the state after this move until `release()`. */
    holdAt: null as number | null,
    release: () => {},
  };
  const backend = {
    local: false,
    async state(_id: string, at?: number) {
      calls.push(at === undefined ? "state" : `state@${at}`);
      if (at !== undefined && at === game.holdAt) await new Promise<void>((r) => (game.release = r));
      if (at !== undefined && at > game.moves) throw new Error(`no move ${at}`);
      return stateAt(at ?? game.moves, false, at === undefined ? game.status : "open");
    },
    async placements(): Promise<PlacementsAnswer> {
      calls.push("placements");
      const lag = game.stalePlacements > 0 ? (game.stalePlacements--, 1) : 0;
      const placements: Placement[] = [{ placement: "I1@b2", stone: "I1", orientation: 0, cubes: [[1, 1, 0]] }];
      return { move_number: game.moves + 1 - lag, colour: "R", placements };
    },
    events(_id: string, e: (e: GameEvent) => void, s: (up: boolean) => void) {
      onEvent = e;
      onStatus = s;
      return { close: () => calls.push("close") };
    },
  } as unknown as GameBackend;
  return { backend, calls, game, send: (e: GameEvent) => onEvent(e), status: (up: boolean) => onStatus(up) };
}

/** A store that holds seat 0's token, started, with what it announced written down. */
async function started(moves: number) {
  const fake = fakeBackend(moves);
  const store = new GameStore("g", (seat) => (seat === 0 ? "token" : null), fake.backend);
  const seen: string[] = [];
  const shown: MoveShown[] = [];
  const failures: Error[] = [];
  store.on("reset", ({ state, placements }) => seen.push(`reset ${state.moves_played}${placements ? " +placements" : ""}`));
  store.on("move", ({ move, state, placements }) => {
    shown.push(move);
    seen.push(`move ${move.number} (state ${state.moves_played})${placements ? " +placements" : ""}`);
  });
  store.on("thinking", (t) => seen.push(t ? `thinking ${t.colour} ${t.move_number}` : "thinking none"));
  store.on("connection", (up) => seen.push(up ? "up" : "down"));
  store.on("failed", (e) => failures.push(e));
  await store.start();
  fake.calls.length = 0;
  seen.length = 0;
  // Every event queued so far, applied (the store's private queue of tasks).
  const settled = () => (store as unknown as { queue: Promise<void> }).queue;
  return { store, ...fake, seen, shown, failures, settled };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("GameStore", () => {
  test("start reads the whole game, with the placements when a seat it holds is to move", async () => {
    const fake = fakeBackend(2);
    const store = new GameStore("g", (seat) => (seat === 0 ? "token" : null), fake.backend);
    const resets: string[] = [];
    store.on("reset", ({ state, placements }) => resets.push(`${state.moves_played} ${placements?.map((p) => p.placement)}`));
    const state = await store.start();
    expect(state.moves_played).toBe(2);
    expect(store.state).toBe(state);
    expect(fake.calls).toEqual(["state", "placements"]);
    expect(resets).toEqual(["2 I1@b2"]);
  });

  test("no placements are read when the seat to move is not this browser's", async () => {
    const fake = fakeBackend(1); // after 1 move, seat 1 (the AI) is to move
    const store = new GameStore("g", (seat) => (seat === 0 ? "token" : null), fake.backend);
    await store.start();
    expect(fake.calls).toEqual(["state"]);
  });

  test("the next move's event is applied from the state right after it, and shown", async () => {
    const s = await started(2);
    s.game.moves = 3;
    s.send({ type: "move", game: "g", number: 3 } as GameEvent);
    await s.settled();
    expect(s.calls).toEqual(["state@3"]);
    expect(s.seen).toEqual(["move 3 (state 3)"]);
    expect(s.shown[0]).toEqual({ number: 3, colour: "R", placement: "I1@a3", stone: "I1", cubes: [[3, 0, 0]], mine: true, ai: false });
    expect(s.store.state?.moves_played).toBe(3);
    expect(await s.store.cubesOf(3)).toEqual([[3, 0, 0]]);
    expect(s.calls).toEqual(["state@3"]); // the cubes were kept, not read again
  });

  test("a short gap is walked move by move, in order, with the placements only at its end", async () => {
    const s = await started(1);
    s.game.moves = 4;
    s.send({ type: "move", game: "g", number: 4 } as GameEvent);
    await s.settled();
    expect(s.calls).toEqual(["state@2", "state@3", "state@4", "placements"]);
    expect(s.seen).toEqual(["move 2 (state 2)", "move 3 (state 3)", "move 4 (state 4) +placements"]);
    expect(s.shown.map((m) => [m.colour, m.ai, m.mine])).toEqual([
      ["Y", true, false],
      ["R", false, true],
      ["Y", true, false],
    ]);
  });

  test("a gap longer than 8 moves jumps: the whole state is read again", async () => {
    const s = await started(1);
    s.game.moves = 10;
    s.send({ type: "move", game: "g", number: 10 } as GameEvent);
    await s.settled();
    expect(s.calls).toEqual(["state", "placements"]);
    expect(s.seen).toEqual(["reset 10 +placements"]);
    expect(s.shown).toEqual([]);
  });

  test("a move already applied is ignored", async () => {
    const s = await started(3);
    s.send({ type: "move", game: "g", number: 2 } as GameEvent);
    s.send({ type: "move", game: "g", number: 3 } as GameEvent);
    await s.settled();
    expect(s.calls).toEqual([]);
    expect(s.seen).toEqual([]);
    expect(s.store.state?.moves_played).toBe(3);
  });

  test("events are applied one at a time: a later event waits for a slow read of an earlier one", async () => {
    const s = await started(2);
    s.game.moves = 4;
    s.game.holdAt = 3;
    s.send({ type: "move", game: "g", number: 3 } as GameEvent);
    s.send({ type: "move", game: "g", number: 4 } as GameEvent);
    s.send({ type: "ai_thinking", game: "g", colour: "R", move_number: 5, level: 3 } as GameEvent);
    await new Promise((r) => setTimeout(r, 10));
    // Move 3's state is still on its way: nothing later has been applied.
    expect(s.seen).toEqual([]);
    expect(s.calls).toEqual(["state@3"]);
    s.game.release();
    await s.settled();
    expect(s.seen).toEqual(["move 3 (state 3)", "move 4 (state 4) +placements", "thinking R 5"]);
    expect(s.calls).toEqual(["state@3", "state@4", "placements"]);
    expect(s.store.thinking).toEqual({ colour: "R", move_number: 5, level: 3 });
  });

  // (A resynchronisation is a fresh snapshot on the socket: the server sends no event of
  // its own for it, routes/game_events.rs. The snapshots' test is the next one.)
  test("an undo reads the whole state again", async () => {
    const s = await started(4);
    s.game.moves = 2;
    s.send({ type: "undo", game: "g", removed: [4, 3], move_number: 3, to_move: "R" } as GameEvent);
    await s.settled();
    expect(s.calls).toEqual(["state", "placements"]);
    expect(s.seen).toEqual(["reset 2 +placements"]);
    expect(s.store.state?.moves_played).toBe(2);
  });

  test("after a reconnection the snapshot walks the moves missed, or jumps back after an undo", async () => {
    const s = await started(2);
    s.send({ type: "ai_thinking", game: "g", colour: "Y", move_number: 3, level: 3 } as GameEvent);
    await s.settled();
    s.status(true);
    s.status(false);
    // The AI that was thinking may have moved meanwhile: no longer shown as thinking.
    expect(s.store.thinking).toBeNull();
    expect(s.store.connected).toBe(false);
    s.game.moves = 4;
    s.status(true);
    s.send({ type: "snapshot", state: stateAt(4) });
    await s.settled();
    expect(s.seen).toEqual(["thinking Y 3", "up", "down", "up", "move 3 (state 3)", "move 4 (state 4) +placements"]);
    // Away again; an undo took two moves back.
    s.seen.length = 0;
    s.game.moves = 2;
    s.send({ type: "snapshot", state: stateAt(2) });
    await s.settled();
    expect(s.seen).toEqual(["reset 2 +placements"]);
    expect(s.store.state?.moves_played).toBe(2);
  });

  test("a snapshot with no new move but another status (aborted while away) is the state", async () => {
    const s = await started(1);
    s.send({ type: "snapshot", state: stateAt(1) });
    await s.settled();
    expect(s.seen).toEqual([]);
    s.send({ type: "snapshot", state: stateAt(1, false, "aborted") });
    await s.settled();
    expect(s.seen).toEqual(["reset 1"]);
    expect(s.store.state?.status).toBe("aborted");
  });

  test("placements older than the state are read again; a game that keeps changing fails", async () => {
    const s = await started(2);
    s.game.stalePlacements = 1;
    await s.store.reload();
    expect(s.calls).toEqual(["state", "placements", "state", "placements"]);
    expect(s.seen).toEqual(["reset 2 +placements"]);
    s.calls.length = 0;
    s.seen.length = 0;
    s.game.stalePlacements = 3;
    await s.store.reload();
    expect(s.calls).toEqual(["state", "placements", "state", "placements", "state", "placements"]);
    expect(s.seen).toEqual([]);
    expect(s.failures.map((e) => e.message)).toEqual(["the game changes too fast to follow"]);
  });

  test("a read that fails is announced, and the events after it are still applied", async () => {
    const s = await started(2);
    const clocks: unknown[] = [];
    s.store.on("clock", (c) => clocks.push(c));
    // Move 3 is announced but the server does not have it (yet).
    s.send({ type: "move", game: "g", number: 3 } as GameEvent);
    await s.settled();
    expect(s.failures.map((e) => e.message)).toEqual(["no move 3"]);
    expect(s.store.state?.moves_played).toBe(2);
    s.game.moves = 3;
    s.send({ type: "clock", game: "g", clock: {} } as GameEvent);
    s.send({ type: "move", game: "g", number: 3 } as GameEvent);
    await s.settled();
    expect(s.failures.map((e) => e.message)).toEqual(["no move 3"]);
    expect(clocks).toEqual([{}]);
    expect(s.seen).toEqual(["move 3 (state 3)"]);
  });

  test("an event whose read failed is not left behind: the whole game is read again after 1 s", async () => {
    vi.useFakeTimers();
    const s = await started(2);
    s.send({ type: "move", game: "g", number: 3 } as GameEvent);
    await s.settled();
    expect(s.failures.map((e) => e.message)).toEqual(["no move 3"]);
    expect(s.store.state?.moves_played).toBe(2);
    // The server answers again (a busy database, an instance stopping behind a proxy).
    s.game.moves = 3;
    s.calls.length = 0;
    await vi.advanceTimersByTimeAsync(999);
    expect(s.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await s.settled();
    expect(s.calls[0]).toBe("state");
    expect(s.seen).toEqual(["reset 3"]);
    expect(s.store.state?.moves_played).toBe(3);
    expect(s.failures).toHaveLength(1);
  });

  test("catchUp walks to our own move when its event never came", async () => {
    vi.stubGlobal("window", globalThis);
    vi.useFakeTimers();
    const s = await started(2);
    s.game.moves = 3;
    s.store.catchUp(3);
    expect(s.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1500);
    await s.settled();
    expect(s.seen).toEqual(["move 3 (state 3)"]);
    // Already there: a second catch-up reads nothing.
    s.store.catchUp(3);
    await vi.advanceTimersByTimeAsync(1500);
    await s.settled();
    expect(s.calls).toEqual(["state@3"]);
  });

  test("close closes the event stream", async () => {
    const s = await started(0);
    s.store.close();
    expect(s.calls).toEqual(["close"]);
  });
});
