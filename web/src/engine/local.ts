// The local implementation of the engine interface: the game lives in the browser's
// IndexedDB as its record (games.ts), every question goes to the WebAssembly engine in the worker
// (client.ts), and the events the page follows are made here in the order things happen —
// a person's move, then each AI seat's, one after another.
import { ApiError, tokens } from "../api";
import type { GameMessage } from "../api";
import type { GameState } from "../wire";
import type { EventStream, GameBackend } from "./backend";
import { engine } from "./client";
import { localGames, localGameUrl } from "./games";
import type { LocalGame, LocalSeat } from "./games";
import type { PlayAnswer } from "./protocol";

export interface LocalSetup {
  /** A built-in scenario, or else */
  board?: string;
  /** a board file's text (the board editor's), which the game's record then carries. */
  board_file?: string;
  players: number;
  variant: string;
  seats: LocalSeat[];
  hot_seat: boolean;
  /** `out` (the rulebooks', the default) or `pass` (rules §6's house rule). */
  stuck_rule?: string;
}

function game(id: string): LocalGame {
  const g = localGames.get(id);
  if (!g) throw new ApiError(404, "unknown_game", `no local game ${id} in this browser`);
  return g;
}

class LocalBackend implements GameBackend {
  readonly local = true;
  private listeners = new Map<string, Set<(e: GameMessage) => void>>();
  /** Per game: the AI's turns run one at a time, after whatever came before. */
  private queues = new Map<string, Promise<void>>();

  /** Starts a local game: the core checks the setup and places any ruins. */
  async create(setup: LocalSetup): Promise<string> {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    const made = await engine.call({
      cmd: "new",
      ...(setup.board_file ? { board_file: setup.board_file } : { board: setup.board }),
      players: setup.players,
      variant: setup.variant,
      ...(setup.variant === "ruinas" ? { ruins_seed: seed } : {}),
      ...(setup.stuck_rule && setup.stuck_rule !== "out" ? { stuck_rule: setup.stuck_rule } : {}),
    });
    const id = localGames.newId();
    const now = Date.now();
    await localGames.save({ id, record: made.record, seats: setup.seats, hot_seat: setup.hot_seat, seed, created: now, updated: now });
    // Every person's seat is this browser's.
    setup.seats.forEach((s, i) => s.kind === "human" && tokens.add(id, i, "local"));
    return localGameUrl(id);
  }

  /**
   * Opens a record (a downloaded game, or one from the command line) as a local game whose
   * seats are all this device's: to replay it, see its analysis, or play it on. The core
   * reads and checks it; a bad record is refused with the core's words.
   */
  async open(text: string): Promise<string> {
    const r = await engine.call({ cmd: "read_record", text });
    const id = localGames.newId();
    const now = Date.now();
    const seats: LocalSeat[] = Array.from({ length: r.players }, () => ({ kind: "human" }));
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    await localGames.save({ id, record: r.record, seats, hot_seat: true, seed, created: now, updated: now });
    seats.forEach((_, i) => tokens.add(id, i, "local"));
    return localGameUrl(id);
  }

  stones() {
    return engine.call({ cmd: "stones" }).then((r) => r.stones);
  }

  state(id: string, at?: number): Promise<GameState> {
    const g = game(id);
    return engine.call({ cmd: "state", record: g.record, id, seats: g.seats, hot_seat: g.hot_seat, ...(at === undefined ? {} : { at }) });
  }

  placements(id: string) {
    return engine.call({ cmd: "placements", record: game(id).record });
  }

  async move(id: string, _token: string, placement: string, expected: number) {
    const g = game(id);
    const number = this.movesIn(g.record) + 1;
    if (expected !== number) throw new ApiError(409, "stale_move_number", `the next move is number ${number}, not ${expected}`);
    const played = await this.play(g, placement, "human");
    this.driveAi(id);
    return { number: played.number, move_number: played.number + 1 };
  }

  async undo(id: string, _token: string, expected: number) {
    const g = game(id);
    const number = this.movesIn(g.record) + 1;
    if (expected !== number) throw new ApiError(409, "stale_move_number", `the next move is number ${number}, not ${expected}`);
    const r = await engine.call({ cmd: "undo", record: g.record, seats: g.seats });
    g.record = r.record;
    await localGames.save(g);
    this.emit(id, { type: "undo", game: id, removed: r.removed, move_number: r.removed[0] ?? number, to_move: null });
    return { removed: r.removed };
  }

  hint(id: string, level: number) {
    return engine.call({ cmd: "hint", record: game(id).record, level, seed: game(id).seed });
  }

  analysis(id: string) {
    return engine.call({ cmd: "analysis", record: game(id).record });
  }

  /** A search at a time, so that the page shows the progress as the server's does. */
  async review(id: string, progress: (done: number, total: number) => void) {
    const record = game(id).record;
    progress(0, 0);
    for (;;) {
      const r = await engine.call({ cmd: "review", record, searches: 1 });
      progress(r.done, r.total);
      if (r.review) return r.review;
    }
  }

  /**
   * "Play from here": a new local game from the first `at` moves of `record` (any game's,
   * the server's too), with the colour to move there played by this browser's person and
   * every other seat by the AI at `level`. The core cuts the record (its `undo`, one move
   * at a time) and checks it.
   */
  async playFrom(record: string, at: number, level: number): Promise<string> {
    let r = await engine.call({ cmd: "read_record", text: record });
    let text = r.record;
    while (this.movesIn(text) > at) text = (await engine.call({ cmd: "undo", record: text })).record;
    r = await engine.call({ cmd: "read_record", text });
    const s = await engine.call({ cmd: "state", record: r.record, id: "", seats: Array.from({ length: r.players }, () => ({ kind: "human" })), hot_seat: true });
    const mover = s.seat_to_move ?? 0;
    const seats: LocalSeat[] = Array.from({ length: r.players }, (_, i) => (i === mover ? { kind: "human" } : { kind: "ai", level }));
    const id = localGames.newId();
    const now = Date.now();
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    await localGames.save({ id, record: r.record, seats, hot_seat: false, seed, created: now, updated: now });
    tokens.add(id, mover, "local");
    return localGameUrl(id);
  }

  recordUrl(id: string): string {
    return `data:text/plain;charset=utf-8,${encodeURIComponent(localGames.get(id)?.record ?? "")}`;
  }

  events(id: string, onEvent: (e: GameMessage) => void, onStatus: (up: boolean) => void): EventStream {
    const set = this.listeners.get(id) ?? new Set();
    this.listeners.set(id, set);
    set.add(onEvent);
    onStatus(true);
    // As the server's socket does: a snapshot first; then, after a reload with an AI to
    // move, the AI goes on.
    void this.state(id).then(
      (state) => {
        onEvent({ type: "snapshot", state });
        this.driveAi(id);
      },
      () => onStatus(false),
    );
    return { close: () => set.delete(onEvent) };
  }

  private emit(id: string, e: GameMessage) {
    for (const l of this.listeners.get(id) ?? []) l(e);
  }

  private movesIn(record: string): number {
    // The record's move numbers ("12. L4@…"); the core wrote it, so the last is the count.
    const all = record.match(/(\d+)\. /g);
    return all ? Number(all[all.length - 1].slice(0, -2)) : 0;
  }

  private async play(g: LocalGame, placement: string, by: "human" | "ai"): Promise<PlayAnswer> {
    const p = await engine.call({ cmd: "play", record: g.record, placement });
    g.record = p.record;
    await localGames.save(g);
    // The state names who passed after the move (the pass rule, rules §6), as the server's event does.
    const s = await this.state(g.id);
    const passed = s.moves[p.number - 1]?.passed ?? [];
    this.emit(g.id, { type: "move", game: g.id, number: p.number, colour: p.colour, placement: p.placement, by, move_number: p.number + 1, to_move: p.to_move, passed });
    for (const c of p.out) this.emit(g.id, { type: "out", game: g.id, colour: c, after_move: p.number });
    if (p.over) {
      const scores = s.colours.map((c) => ({ colour: c.colour, score: c.score ?? 0 }));
      this.emit(g.id, { type: "game_over", game: g.id, after_move: p.number, scores, winners: s.winners ?? [], places: s.places ?? [], forfeited: s.forfeited ?? [] });
    }
    return p;
  }

  /** While an AI seat is to move, it chooses (in the worker) and plays. */
  private driveAi(id: string) {
    const before = this.queues.get(id) ?? Promise.resolve();
    const next = before.then(async () => {
      for (;;) {
        const g = localGames.get(id);
        if (!g) return;
        const s = await this.state(id);
        const seat = s.seat_to_move === null ? null : g.seats[s.seat_to_move];
        if (s.over || !s.to_move || !seat || seat.kind !== "ai") return;
        const level = seat.level ?? 3;
        this.emit(id, { type: "ai_thinking", game: id, colour: s.to_move, move_number: s.move_number, level });
        const choice = await engine.call({ cmd: "ai", record: g.record, level, seed: g.seed + s.move_number });
        // The game may have changed while the AI thought (an undo): then think again.
        const now = localGames.get(id);
        if (!now || now.record !== g.record) continue;
        await this.play(now, choice.placement, "ai");
      }
    });
    this.queues.set(
      id,
      next.catch((e) => console.error("local AI:", e)),
    );
  }
}

export const localBackend = new LocalBackend();
