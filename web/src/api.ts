// The server's API (docs/server-api.md). The browser only asks; every rule lives in the core.
// The answers' and events' types are written from the server's (wire.ts).
import type {
  Analysis,
  Boards,
  Created,
  ErrorBody,
  GameEvent,
  GameList,
  GameState,
  Hint,
  MoveAck,
  Placements,
  PuzzleSolution,
  PuzzleState,
  ReviewProgress,
  Snapshot,
  Stones,
  UndoAck,
} from "./wire";

/** A cube's or a cell's `[x, y, z]`: file index, rank index, 0-based level. */
export type Xyz = [number, number, number];

/** An error answer of the API, with its stable code and its sentence for people. */
export class ApiError extends Error {
  constructor(
    public status: number,
    public code: string,
    reason: string,
    /** The error body's other fields (a refused board file's `line` and `message`). */
    public detail: Record<string, unknown> = {},
  ) {
    super(reason);
  }
}

export async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "network", "the server cannot be reached");
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const e = (data ?? {}) as Partial<ErrorBody>;
    throw new ApiError(res.status, e.error ?? "http", e.reason ?? `${res.status} ${res.statusText}`);
  }
  return data as T;
}

export const api = {
  boards: () => call<Boards>("GET", "/boards").then((r) => r.boards),
  stones: () => call<Stones>("GET", "/stones").then((r) => r.stones),
  games: (status: "open" | "finished", limit = 12) =>
    call<GameList>("GET", `/games?status=${status}&limit=${limit}`).then((r) => r.games),
  create: (body: unknown) => call<Created>("POST", "/games", body),
  state: (id: string, at?: number) =>
    call<GameState>("GET", `/games/${encodeURIComponent(id)}${at === undefined ? "" : `?at=${at}`}`),
  placements: (id: string) => call<Placements>("GET", `/games/${encodeURIComponent(id)}/placements`),
  /**
   * Sends a move until it is acknowledged: after a network error or a busy server the same
   * move goes again (with a growing pause, for about half a minute), and the server answers
   * a move it already accepted with its first acknowledgement — so a move that committed
   * while its answer was lost is never shown as an error.
   */
  move: async (id: string, token: string, placement: string, expected: number) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call<MoveAck>(
          "POST",
          `/games/${encodeURIComponent(id)}/moves`,
          { placement, expected_move_number: expected },
          token,
        );
      } catch (e) {
        const again = e instanceof ApiError && (e.status === 0 || e.status >= 500) && attempt < 8;
        if (!again) throw e;
        await new Promise((r) => setTimeout(r, Math.min(250 * 2 ** attempt, 8000)));
      }
    }
  },
  undo: (id: string, token: string, expected: number) =>
    call<UndoAck>("POST", `/games/${encodeURIComponent(id)}/undo`, { expected_move_number: expected }, token),
  hint: (id: string, level: number) => call<Hint>("POST", `/games/${encodeURIComponent(id)}/hint`, { level }),
  analysis: (id: string) => call<Analysis>("GET", `/games/${encodeURIComponent(id)}/analysis`),
  /** Asks for a finished game's review (once per game on the server), or reads where it stands. */
  askReview: (id: string) => call<ReviewProgress>("POST", `/games/${encodeURIComponent(id)}/review`, {}),
  review: (id: string) => call<ReviewProgress>("GET", `/games/${encodeURIComponent(id)}/review`),
  puzzle: (size: string, moves: string[]) => call<PuzzleState>("POST", "/puzzles/cube", { size, moves }),
  puzzleSolution: (name: string) => call<PuzzleSolution>("GET", `/puzzles/${encodeURIComponent(name)}`),
  recordUrl: (id: string) => `/api/v1/games/${encodeURIComponent(id)}/record`,
};

/** The messages of a game's WebSocket (docs/server-api.md): a snapshot, then its events. */
export type GameMessage = Snapshot | GameEvent;

/** The close code of a socket a stopping server closes ("service restart"): reconnect soon. */
export const CLOSE_RESTART = 1012;

/**
 * When a dropped socket connects again, and the delay after that: soon after a server's
 * restart (a short random wait, so that its clients do not all come back at once, and the
 * delay starts over), else after `delay`, which doubles up to 8 s.
 */
export function reconnectDelay(code: number, delay: number, random = Math.random): { wait: number; next: number } {
  if (code === CLOSE_RESTART) return { wait: 100 + Math.floor(random() * 400), next: 500 };
  return { wait: delay, next: Math.min(delay * 2, 8000) };
}

/**
 * The game's live events, in the order the server sent them; the socket reconnects by
 * itself with a growing delay after a drop (and then starts again with a snapshot).
 */
export class Events {
  private ws: WebSocket | null = null;
  private closed = false;
  private delay = 500;

  constructor(
    private id: string,
    private onEvent: (e: GameMessage) => void,
    private onStatus: (connected: boolean) => void,
  ) {
    this.open();
  }

  private open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const url = `${proto}://${location.host}/api/v1/games/${encodeURIComponent(this.id)}/events`;
    // A seat's token (a player's key is their seats' token) lets the server keep this socket
    // a place that watchers cannot take. A browser cannot set headers on a WebSocket and a
    // URL is logged, so it goes as a subprotocol beside `rumis`, which the server selects.
    const held = Object.values(tokens.get(this.id))[0];
    const ws = held ? new WebSocket(url, ["rumis", `rumis.token.${held}`]) : new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.onStatus(true);
    };
    ws.onmessage = (m) => {
      let e: GameMessage;
      try {
        e = JSON.parse(String(m.data));
      } catch {
        return; // Not an event of ours: ignore it.
      }
      if (e && typeof e.type === "string") this.onEvent(e);
    };
    ws.onclose = (e) => {
      this.onStatus(false);
      if (this.closed) return;
      const { wait, next } = reconnectDelay(e.code, this.delay);
      setTimeout(() => this.open(), wait);
      this.delay = next;
    };
  }

  close() {
    this.closed = true;
    this.ws?.close();
  }
}

/** Seat tokens this browser holds, per game, kept across reloads. */
export const tokens = {
  get(id: string): Record<string, string> {
    try {
      return JSON.parse(localStorage.getItem(`rumis.tokens.${id}`) ?? "{}");
    } catch {
      return {};
    }
  },
  add(id: string, seat: number, token: string) {
    const t = tokens.get(id);
    t[String(seat)] = token;
    localStorage.setItem(`rumis.tokens.${id}`, JSON.stringify(t));
  },
};
