// Players, the lobby, abort, rematch and ratings (docs/server-api.md, "Players and the
// lobby"). The player's key is kept in this browser only and sent as the bearer; it moves
// for every seat its player holds (it is those seats' token).
import { ApiError, reconnectDelay, tokens } from "../api";
import type { AbortAck, DeclineAck, Leaderboard, Lobby, NewPlayer, PlayerPage, Presence, Seated, Table } from "../wire";

/** Who this browser is: the player's id, name and key (or nobody yet). */
export interface Me {
  id: string;
  name: string;
  key: string;
}
const ME = "rumis.player";
export const me = {
  get(): Me | null {
    try {
      const v = JSON.parse(localStorage.getItem(ME) ?? "null");
      return v && typeof v.key === "string" ? v : null;
    } catch {
      return null;
    }
  },
  set(m: Me) {
    localStorage.setItem(ME, JSON.stringify(m));
  },
  forget() {
    localStorage.removeItem(ME);
  },
};

/** A request to the API, with the player's key as the bearer when given. */
export async function call<T>(method: string, path: string, body?: unknown, key?: string): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (key) headers["Authorization"] = `Bearer ${key}`;
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "network", "the server cannot be reached");
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, data?.error ?? "http", data?.reason ?? String(res.status));
  return data as T;
}

const g = (id: string) => encodeURIComponent(id);
const key = () => me.get()?.key;

/** Keeps the seat's token (the player's key) for the game page, then goes there. */
export function sitDown(s: Pick<Seated, "game" | "seat">) {
  const k = key();
  if (k) tokens.add(s.game, s.seat, k);
  location.href = `/game/${s.game}`;
}

export const players = {
  create: (name: string) => call<NewPlayer>("POST", "/players", { name }),
  /** Who a key belongs to (for importing a key on this device). */
  whoIs: (k: string) => call<PlayerPage>("GET", "/players/me", undefined, k),
  page: (id: string) => call<PlayerPage>("GET", `/players/${g(id)}`),
  lobby: () => call<Lobby>("GET", "/lobby"),
  table: (id: string) => call<Table>("GET", `/games/${g(id)}/table`),
  seek: (body: unknown) => call<Seated>("POST", "/lobby/seeks", body, key()),
  quick: (body: unknown) => call<Seated>("POST", "/lobby/quick", body, key()),
  join: (id: string) => call<Seated>("POST", `/games/${g(id)}/join`, {}, key()),
  abort: (id: string, token: string) => call<AbortAck>("POST", `/games/${g(id)}/abort`, {}, token),
  rematch: (id: string) => call<Seated>("POST", `/games/${g(id)}/rematch`, {}, key()),
  /** Declines the rematch offered after game `id`: it is called off. */
  declineRematch: (id: string) => call<DeclineAck>("POST", `/games/${g(id)}/rematch/decline`, {}, key()),
  /** The presence ping: this player is here, so their waiting games do not expire. */
  presence: (k: string) => call<Presence>("POST", "/players/me/presence", {}, k),
  leaderboard: () => call<Leaderboard>("GET", "/ratings"),
};

/** How often a page of the app tells the server this player is here. */
export const PRESENCE_EVERY_MS = 60_000;
let presenceTimer = 0;

/**
 * Tells the server, now and every minute while this page is open, that this browser's
 * player is here: a waiting game they made expires only when no page of theirs has said so
 * for the server's `seek_idle` (five minutes). Once per page; nothing without a player.
 */
export function keepPresence() {
  if (presenceTimer) return;
  const ping = () => {
    const k = key();
    if (k) players.presence(k).catch(() => {});
  };
  ping();
  presenceTimer = window.setInterval(ping, PRESENCE_EVERY_MS);
}

/** The lobby's live list: a WebSocket that reconnects by itself. */
export class LobbyFeed {
  private ws: WebSocket | null = null;
  private closed = false;
  private delay = 500;
  constructor(private onLobby: (l: Lobby) => void) {
    this.open();
  }
  private open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/api/v1/lobby/events`);
    this.ws = ws;
    ws.onopen = () => (this.delay = 500);
    ws.onmessage = (m) => {
      try {
        const v = JSON.parse(String(m.data));
        if (v?.type === "lobby") this.onLobby(v as Lobby);
      } catch {
        /* not ours */
      }
    };
    ws.onclose = (e) => {
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
