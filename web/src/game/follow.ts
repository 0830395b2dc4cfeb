// Showing the game's moves one after another, in order: each move by someone else drops
// into place (about half a second), the next waits for it. `skip` shows what is queued at
// once; the setting `animate` turns dropping off. Every move shown is recorded in order in
// `window.__rumisShownMoves` (the browser tests compare it with the server's record).
import type { GameState, Placement } from "../wire";
import { Emitter } from "./emitter";
import type { MoveShown } from "./store";
import type { GameView } from "./view";

export const DROP_MS = 500;

type Item =
  | { kind: "reset"; state: GameState; placements: Placement[] | null }
  | { kind: "move"; move: MoveShown; state: GameState; placements: Placement[] | null };

export interface ShownRecord {
  number: number;
  colour: string;
  placement: string;
  animated: boolean;
  /** When it was shown and when its stone had landed (ms, the page's clock). */
  shownAt: number;
  landedAt: number | null;
}

export interface FollowEvents {
  /** Show this state; `falling` are cubes to leave out, they are about to drop in. */
  show: { state: GameState; placements: Placement[] | null; move: MoveShown | null; falling: boolean };
  /** The stone of `move` has landed (or there was none to drop). */
  landed: { move: MoveShown | null };
  /** Whether moves are being dropped in now (for the skip button). */
  busy: boolean;
}

export class Follower extends Emitter<FollowEvents> {
  readonly shown: ShownRecord[] = [];
  private queue: Item[] = [];
  private running = false;
  private skipping = false;

  constructor(
    private view: GameView,
    public animate: boolean,
  ) {
    super();
    (window as unknown as { __rumisShownMoves: ShownRecord[] }).__rumisShownMoves = this.shown;
  }

  reset(state: GameState, placements: Placement[] | null) {
    this.push({ kind: "reset", state, placements });
  }

  move(move: MoveShown, state: GameState, placements: Placement[] | null) {
    this.push({ kind: "move", move, state, placements });
  }

  /** Show every queued move at once. */
  skip() {
    if (!this.running) return;
    this.skipping = true;
    this.view.land();
  }

  get busy() {
    return this.running;
  }

  private push(item: Item) {
    // A new whole state makes the moves queued before it moot.
    if (item.kind === "reset") this.queue = [];
    this.queue.push(item);
    if (!this.running) void this.run();
  }

  private async run() {
    this.running = true;
    this.emit("busy", true);
    try {
      while (this.queue.length) {
        const item = this.queue.shift()!;
        if (item.kind === "reset") {
          this.emit("show", { state: item.state, placements: item.placements, move: null, falling: false });
          this.emit("landed", { move: null });
          continue;
        }
        const { move } = item;
        const drop = this.animate && !this.skipping && !move.mine && !!move.cubes && !document.hidden;
        const record: ShownRecord = { number: move.number, colour: move.colour, placement: move.placement, animated: drop, shownAt: performance.now(), landedAt: null };
        this.shown.push(record);
        this.emit("show", { state: item.state, placements: item.placements, move, falling: drop });
        if (drop) await this.view.drop(move.cubes!, move.colour, DROP_MS);
        record.landedAt = performance.now();
        this.emit("landed", { move });
      }
    } finally {
      this.running = false;
      this.skipping = false;
      this.emit("busy", false);
    }
  }
}
