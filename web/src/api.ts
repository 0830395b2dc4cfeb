// The server's API (docs/server-api.md). The browser only asks; every rule lives in the core.

export type Letter = "R" | "Y" | "G" | "B" | "X";
export type Xyz = [number, number, number];

// A game's clock in an answer or an event (docs/server-api.md, "Clocks"); its calls and
// the server's time as estimated here are game/clockapi.ts's.
export interface SeatClock {
  seat: number;
  remaining_ms: number;
}

export interface ClockInfo {
  kind: "realtime" | "correspondence";
  initial_ms: number;
  increment_ms: number;
  per_move_ms: number;
  on_timeout: "out" | "ai";
  ai_level: number | null;
  /** The server's time when it wrote this (ms since the epoch). */
  now: number;
  running_seat: number | null;
  /** Each seat's time left at `now`. */
  seats: SeatClock[];
}

export interface LeftInfo {
  colour: Letter;
  after_move: number;
  reason: string | null;
}

export interface LayoutCell {
  cell: string;
  x: number;
  y: number;
  printed: number | null;
  limit: number;
}

export interface BoardInfo {
  name: string;
  aliases: string[];
  files: number;
  ranks: number;
  hmax: Record<string, number>;
  columns: Record<string, number>;
  provenance?: string;
  source?: string;
  layouts?: Record<string, { hmax: number; cells: LayoutCell[] }>;
  /** Sourced facts the board was fitted to, each with what the tests check of it. */
  evidence?: Evidence[];
}

export interface Evidence {
  fact: string;
  source: string;
  constraints: { kind: string; text: string; players?: number; value?: number; counts?: number[] }[];
}

export interface StoneInfo {
  code: string;
  size: number;
  orientations: Xyz[][];
  turns: [number, number, number][];
}

export interface Placement {
  placement: string;
  stone: string;
  orientation: number;
  cubes: Xyz[];
}

export interface Column {
  cell: string;
  x: number;
  y: number;
  limit: number;
  height: number;
  top: Letter | null;
  cubes: Letter[];
}

export interface ColourState {
  colour: Letter;
  name: string;
  seat: number | null;
  out: boolean;
  score: number | null;
  stones_left: string[];
}

export interface Seat {
  seat: number;
  colours: Letter[];
  kind: "human" | "ai";
  level: number | null;
}

export interface MoveInfo {
  number: number;
  colour: Letter;
  placement: string;
  created?: number;
  /** The colours that could not place after this move and passed (the pass rule). */
  passed?: Letter[];
}

export interface GameState {
  id: string;
  /** `waiting`: seats still free in the lobby; `aborted`: called off before its second move. */
  status: "waiting" | "open" | "finished" | "abandoned" | "aborted";
  created: number;
  updated: number;
  hot_seat: boolean;
  site: {
    board: string;
    files: number;
    ranks: number;
    players: number;
    variant: string;
    colours: Letter[];
    ruin_colour: Letter | null;
    ruins: string[];
    hmax: number;
    /** "out" (the rulebooks) or "pass" (the house rule of rules §6). */
    stuck_rule?: "out" | "pass";
    /** A board of the players' own, with its file. */
    custom?: boolean;
    board_file?: string | null;
  };
  seats: Seat[];
  moves_played: number;
  at: number;
  move_number: number;
  to_move: Letter | null;
  seat_to_move: number | null;
  over: boolean;
  colours: ColourState[];
  players: number[];
  winners: number[] | null;
  /** Once over, each player's place (1 = first), the players that forfeited last (rules §5.1). */
  places?: number[] | null;
  /** The players that forfeited (resigned, or ran out of time under the "out" rule). */
  forfeited?: number[];
  moves: MoveInfo[];
  legal_moves: string[];
  last_move?: (MoveInfo & { cubes: Xyz[] }) | null;
  position: { cube_count: number; columns: Column[] };
  /** The game's clock, if it has one. */
  clock?: ClockInfo | null;
  /** Colours that left the game (resigned, or out of time). */
  left?: LeftInfo[];
}

export interface PlacementsAnswer {
  move_number: number;
  colour: Letter | null;
  placements: Placement[];
}

export interface CreatedSeat {
  seat: number;
  colours: Letter[];
  kind: "human" | "ai";
  level: number | null;
  token: string | null;
}

export interface Created {
  id: string;
  hot_seat: boolean;
  seats: CreatedSeat[];
  ruins: string[];
  state_url: string;
  events_url: string;
  record_url: string;
}

/** `201` to a move (`200`: the same move sent again, its first acknowledgement). */
export interface MoveAccepted {
  number: number;
  colour: Letter;
  placement: string;
  move_number: number;
  to_move: Letter | null;
  out: Letter[];
  over: boolean;
  /** The colours that could not place after this move and passed (the pass rule). */
  passed?: Letter[];
}

export interface UndoAccepted {
  removed: number[];
  move_number: number;
  to_move: Letter | null;
}

export interface Deleted {
  id: string;
  deleted: boolean;
}

/** Every 4xx and 5xx answer; the detail fields come with some codes only. */
export interface ErrorBody {
  error: string;
  reason: string;
  retry_after_seconds?: number;
  /** `waiting_for_players`: how many seats are still free. */
  free_seats?: number;
  move_number?: number;
  to_move?: Letter | null;
  index?: number;
  file?: string;
  line?: number;
  message?: string;
}

export interface BoardList {
  boards: BoardInfo[];
}

export interface StoneList {
  stones: StoneInfo[];
}

export interface GameList {
  status: string;
  games: GameSummary[];
}

export interface Hint extends Placement {
  colour: Letter;
  estimate: number;
  simulations: number;
  level: number;
}

export interface Analysis {
  colours: Letter[];
  moves_played: number;
  simulations: number;
  estimates: Record<string, number>[];
  moves: { number: number; colour: Letter; placement: string; loss: number }[];
  worst: number[];
}

export interface PuzzleState {
  size: [number, number, number];
  volume: number;
  filled: number;
  solved: boolean;
  stuck: boolean;
  stones_left: string[];
  placed: { placement: string; stone: string; cubes: Xyz[] }[];
  placements: Placement[];
}

export interface PuzzleSolution {
  name: string;
  size: [number, number, number];
  record: string | null;
  steps: { colour: Letter; placement: string; cubes: Xyz[] }[];
}

export interface GameSummary {
  id: string;
  board: string;
  players: number;
  variant: string;
  status: string;
  to_move: Letter | null;
  moves_played: number;
  move_number: number;
  created: number;
  updated: number;
  /** On a board of one's own. */
  custom?: boolean;
}

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
  boards: () => call<BoardList>("GET", "/boards").then((r) => r.boards),
  stones: () => call<StoneList>("GET", "/stones").then((r) => r.stones),
  games: (status: "open" | "finished", limit = 12) =>
    call<GameList>("GET", `/games?status=${status}&limit=${limit}`).then((r) => r.games),
  create: (body: unknown) => call<Created>("POST", "/games", body),
  state: (id: string, at?: number) =>
    call<GameState>("GET", `/games/${encodeURIComponent(id)}${at === undefined ? "" : `?at=${at}`}`),
  placements: (id: string) => call<PlacementsAnswer>("GET", `/games/${encodeURIComponent(id)}/placements`),
  /**
   * Sends a move until it is acknowledged: after a network error or a busy server the same
   * move goes again (with a growing pause, for about half a minute), and the server answers
   * a move it already accepted with its first acknowledgement — so a move that committed
   * while its answer was lost is never shown as an error.
   */
  move: async (id: string, token: string, placement: string, expected: number) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call<MoveAccepted>(
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
    call<UndoAccepted>("POST", `/games/${encodeURIComponent(id)}/undo`, { expected_move_number: expected }, token),
  hint: (id: string, level: number) => call<Hint>("POST", `/games/${encodeURIComponent(id)}/hint`, { level }),
  analysis: (id: string) => call<Analysis>("GET", `/games/${encodeURIComponent(id)}/analysis`),
  puzzle: (size: string, moves: string[]) => call<PuzzleState>("POST", "/puzzles/cube", { size, moves }),
  puzzleSolution: (name: string) => call<PuzzleSolution>("GET", `/puzzles/${encodeURIComponent(name)}`),
  recordUrl: (id: string) => `/api/v1/games/${encodeURIComponent(id)}/record`,
};

/** The messages of a game's WebSocket (docs/server-api.md). */
export type GameEvent =
  | { type: "snapshot"; state: GameState }
  | {
      type: "move";
      game: string;
      number: number;
      colour: Letter;
      placement: string;
      by: "ai" | "human";
      move_number: number;
      to_move: Letter | null;
      passed?: Letter[];
    }
  | { type: "out"; game: string; colour: Letter; after_move: number }
  | {
      type: "game_over";
      game: string;
      after_move: number;
      scores: { colour: Letter; score: number }[];
      winners: number[];
      places?: number[];
      forfeited?: number[];
    }
  | { type: "ai_thinking"; game: string; colour: Letter; move_number: number; level: number }
  | { type: "undo"; game: string; removed: number[]; move_number: number; to_move: Letter | null }
  | { type: "deleted"; game: string }
  | { type: "abandoned"; game: string }
  | { type: "resync" }
  | { type: "clock"; game: string; clock: ClockInfo }
  | { type: "resigned"; game: string; seat: number; colours: Letter[]; after_move: number }
  | { type: "timeout"; game: string; seat: number; colours: Letter[]; rule: "out" | "ai"; level: number | null; after_move: number }
  | { type: "seat_changed"; game: string; seat: number; kind: "ai" | "human"; level: number | null; reason: string }
  | { type: "seated"; game: string; seat: number; player: string | null; name: string | null; started: boolean }
  | { type: "filled"; game: string; seats: number[]; level: number }
  | { type: "aborted"; game: string }
  | { type: "rematch_offered"; game: string; rematch: string; by: string }
  | { type: "rematch_declined"; game: string; rematch: string; by: string }
  | { type: "expired"; game: string; idle_ms: number }
  | { type: "rated"; game: string };

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
    private onEvent: (e: GameEvent) => void,
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
      let e: GameEvent;
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
