// One engine interface for the game page, with two implementations: the server's API
// (online games and any game a `rumis serve` holds) and the local WebAssembly engine in a
// Web Worker (local.ts: hot-seat and against the AI, in this browser, no server needed).
// Either way the rules are the core's: the page only asks.
import { api, Events } from "../api";
import type { GameMessage } from "../api";
import type { Analysis, GameReview, GameState, Hint, Placements, StoneInfo } from "../wire";

export interface EventStream {
  close(): void;
}

export interface GameBackend {
  /** The game is played in this browser (no server, no links to share). */
  readonly local: boolean;
  stones(): Promise<StoneInfo[]>;
  state(id: string, at?: number): Promise<GameState>;
  placements(id: string): Promise<Placements>;
  move(id: string, token: string, placement: string, expected: number): Promise<{ number: number; move_number: number }>;
  undo(id: string, token: string, expected: number): Promise<{ removed: number[] }>;
  hint(id: string, level: number): Promise<Hint>;
  analysis(id: string): Promise<Analysis>;
  /**
   * A finished game's review: on the server asked once and computed in the background
   * (`progress(done, total)` as its searches go), locally by the engine in its worker
   * (`progress(0, 0)`: under way, no count).
   */
  review(id: string, progress: (done: number, total: number) => void): Promise<GameReview>;
  /** Where the record downloads from. */
  recordUrl(id: string): string;
  /** The game's events, in order (a snapshot first); `onStatus` says whether they flow. */
  events(id: string, onEvent: (e: GameMessage) => void, onStatus: (up: boolean) => void): EventStream;
}

export const serverBackend: GameBackend = {
  local: false,
  stones: api.stones,
  state: api.state,
  placements: api.placements,
  move: api.move,
  undo: api.undo,
  hint: api.hint,
  analysis: api.analysis,
  review: async (id, progress) => {
    let r = await api.askReview(id);
    while (!r.review) {
      progress(r.done, r.total);
      await new Promise((ok) => setTimeout(ok, 700));
      r = await api.review(id);
    }
    return r.review;
  },
  recordUrl: api.recordUrl,
  events: (id, onEvent, onStatus) => new Events(id, onEvent, onStatus),
};
