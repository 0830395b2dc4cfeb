// The game as this browser knows it, kept up to date from the WebSocket's events. Events are
// applied in order, one at a time: a move event is applied by reading the state right after
// that move (`?at=N`, history that can no longer change), so every move is seen, with its
// cubes, in order, and nothing read for one event can undo what a later one said (the old
// page re-read "now" on every event and so lost `ai_thinking`). The whole state is read again
// only on a gap too long to walk, an undo, a resynchronisation or a reconnection.
import type { EventStream, GameBackend } from "../engine/backend";
import { ApiError } from "../api";
import type { GameMessage, Xyz } from "../api";
import type { ClockInfo, GameState, Letter, Placement } from "../wire";
import { Emitter } from "./emitter";

/** A move as the page shows it. */
export interface MoveShown {
  number: number;
  colour: Letter;
  placement: string;
  stone: string;
  cubes: Xyz[] | null;
  /** Played by a seat this browser holds (no need to show it to its player again). */
  mine: boolean;
  ai: boolean;
}

/** An AI searching for a move. */
export interface Thinking {
  colour: Letter;
  move_number: number;
  level: number;
}

export interface StoreEvents {
  /** A new state unrelated to the one before (first load, undo, gap, reconnection). */
  reset: { state: GameState; placements: Placement[] | null };
  /** The next move, with the state right after it. */
  move: { move: MoveShown; state: GameState; placements: Placement[] | null };
  thinking: Thinking | null;
  connection: boolean;
  failed: Error;
  /** The clocks changed (a move, a timeout, a resignation). */
  clock: ClockInfo;
  /** The AI took a seat over after this many moves (its player left, or ran out of time). */
  takenOver: { seat: number; after: number };
  /** Each event of the game's socket, as it comes (before it is applied). */
  event: GameMessage;
}

/** Gaps up to this many moves are walked move by move (and shown); longer ones jump. */
const WALK = 8;

export class GameStore extends Emitter<StoreEvents> {
  /** The newest state applied (the page may still be showing an older one). */
  state: GameState | null = null;
  thinking: Thinking | null = null;
  connected = false;
  private queue: Promise<void> = Promise.resolve();
  private events: EventStream | null = null;
  private cubes = new Map<number, Xyz[]>();
  /** Since a task failed, until one succeeds; the read again that is waiting, and its delay. */
  private failing = false;
  private retry: ReturnType<typeof setTimeout> | 0 = 0;
  private retryDelay = 1000;

  constructor(
    readonly id: string,
    private tokenFor: (seat: number) => string | null,
    private backend: GameBackend,
  ) {
    super();
  }

  /** Read the game, then follow its events. */
  async start(): Promise<GameState> {
    // The first read's failure (no such game) is the caller's to show, not a toast.
    const first = this.fresh();
    this.queue = first.catch(() => undefined);
    await first;
    this.events = this.backend.events(
      this.id,
      (e) => {
        this.emit("event", e);
        void this.run(() => this.apply(e));
      },
      (up) => {
        const was = this.connected;
        this.connected = up;
        this.emit("connection", up);
        // Events may have been missed while the socket was down: its snapshot says where
        // the game is, and `apply` walks or jumps there.
        if (!up && was) this.thinking = null;
      },
    );
    return this.state!;
  }

  close() {
    this.events?.close();
  }

  /** After our own move: make sure it is applied even if its event is late or lost. */
  catchUp(number: number) {
    window.setTimeout(
      () =>
        this.run(async () => {
          if (this.state && this.state.moves_played < number) await this.walk(number);
        }),
      1500,
    );
  }

  /** Read everything again (after an undo of ours, say). */
  reload() {
    return this.run(() => this.fresh());
  }

  /** The cubes of move `number`, from what was seen or read again. */
  async cubesOf(number: number): Promise<Xyz[] | null> {
    const known = this.cubes.get(number);
    if (known) return known;
    const s = await this.backend.state(this.id, number);
    const cubes = s.last_move?.number === number ? s.last_move.cubes : null;
    if (cubes) this.cubes.set(number, cubes);
    return cubes;
  }

  private run(task: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(task).then(
      () => {
        this.failing = false;
        this.retryDelay = 1000;
      },
      (e: Error) => this.failed(e),
    );
    return this.queue;
  }

  /**
   * A task failed: said once (until one succeeds), and when the server may answer later (no
   * answer, a 5xx: a busy database, an instance stopping behind a proxy) the whole game is
   * read again after 1 s, then 2, 4, 8, until it answers. An event whose reads failed is not
   * sent again: without this the page stayed a move behind, showing the opponent to move
   * while the game waited for this player (scripts/cluster's browsers saw it).
   */
  private failed(e: Error) {
    if (!this.failing) this.emit("failed", e);
    this.failing = true;
    const later = !(e instanceof ApiError) || e.status === 0 || e.status >= 500;
    if (!later || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = 0;
      void this.run(() => this.fresh());
    }, this.retryDelay);
    this.retryDelay = Math.min(this.retryDelay * 2, 8000);
  }

  private async apply(e: GameMessage) {
    const cur = this.state?.moves_played ?? 0;
    switch (e.type) {
      case "snapshot": {
        const n = e.state.moves_played;
        if (!this.state || n < cur || n - cur > WALK) await this.fresh(e.state);
        else if (n > cur) await this.walk(n);
        // No move since, but the game itself changed (aborted, expired, started) while the
        // socket was away or before it first connected: the snapshot is the state.
        else if (e.state.status !== this.state.status) await this.fresh(e.state);
        return;
      }
      case "move":
        if (e.number <= cur) return;
        if (e.number - cur > WALK) await this.fresh();
        else await this.walk(e.number);
        return;
      case "ai_thinking":
        this.thinking = { colour: e.colour, move_number: e.move_number, level: e.level };
        this.emit("thinking", this.thinking);
        return;
      case "out":
      case "game_over":
        // Both belong to a move already applied (its state says who is out and the end).
        if (e.after_move > cur) await this.walk(e.after_move);
        return;
      case "undo":
        await this.fresh();
        return;
      case "clock":
        this.emit("clock", e.clock);
        return;
      case "seat_changed":
        // Said before the AI's first move for the seat, which the state read next may hold already.
        if (e.kind === "ai") this.emit("takenOver", { seat: e.seat, after: cur });
        await this.fresh();
        return;
      case "resigned":
      case "timeout":
      case "aborted":
      case "expired":
      case "abandoned":
        // Who plays (or is out), or whether the game goes on at all, changed without a
        // move: the whole state says it (an aborted game's status line said "Waiting for
        // Red" until a reload).
        await this.fresh();
        return;
      case "seated":
      case "filled":
        // The last seat taken (by a player, or by the AI after quick play's wait): the game
        // starts, and its status line said "Your turn" while it waited for them.
        if (e.type === "filled" || e.started) await this.fresh();
        return;
      case "rematch_declined":
        // Declining calls the rematch off (it is this game when its id is the rematch's).
        if (e.rematch === this.id) await this.fresh();
        return;
    }
  }

  /** Apply the moves after the current state up to `target`, one by one. */
  private async walk(target: number) {
    for (let n = (this.state?.moves_played ?? 0) + 1; n <= target; n++) {
      const at = await this.backend.state(this.id, n);
      // The state after move n, as it was then.
      const state: GameState = { ...at, moves_played: n, status: at.over ? "finished" : "open" };
      const last = state.last_move;
      if (!last || last.number !== n) throw new Error(`move ${n} is missing from the game`);
      this.cubes.set(n, last.cubes);
      const seat = this.state?.seats.find((s) => s.colours.includes(last.colour));
      const move: MoveShown = {
        number: n,
        colour: last.colour,
        placement: last.placement,
        stone: last.placement.split("@")[0],
        cubes: last.cubes,
        mine: !!seat && seat.kind === "human" && this.tokenFor(seat.seat) !== null,
        ai: seat?.kind === "ai",
      };
      // Only the last state of a walk can be the position to play on now.
      const got = n === target ? await this.placementsFor(state) : null;
      const placements = got === "stale" ? null : got;
      this.state = state;
      this.emit("move", { move, state, placements });
    }
  }

  /** Read the whole state now (or take the snapshot given). */
  private async fresh(given?: GameState) {
    for (let tries = 0; tries < 3; tries++) {
      const state = given && tries === 0 ? given : await this.backend.state(this.id);
      const placements = await this.placementsFor(state);
      if (placements === "stale") continue;
      this.state = state;
      if (state.last_move) this.cubes.set(state.last_move.number, state.last_move.cubes);
      this.emit("reset", { state, placements });
      return;
    }
    throw new Error("the game changes too fast to follow");
  }

  /** The legal placements when a seat this browser holds is to move (checked against the state's move number). */
  private async placementsFor(state: GameState): Promise<Placement[] | null | "stale"> {
    // An aborted game has a colour to move but takes no move (the server answers 409).
    if (state.over || state.status === "aborted" || state.status === "waiting" || state.seat_to_move === null || this.tokenFor(state.seat_to_move) === null) return null;
    const p = await this.backend.placements(this.id);
    return p.move_number === state.move_number ? p.placements : "stale";
  }
}
