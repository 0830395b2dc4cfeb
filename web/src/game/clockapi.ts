// Clocks, resigning and leaving in the server's API (docs/server-api.md, "Clocks"): the
// shapes, the calls, and the server's time as this browser estimates it.
import { call } from "../api";
import type { ClockInfo, LeaveAck, ResignAck } from "../wire";

/** A clock as the new-game form asks for it. */
export interface ClockChoice {
  kind: "realtime" | "correspondence";
  minutes?: number;
  increment_seconds?: number;
  days?: number;
  on_timeout: "out" | "ai";
  ai_level?: number;
}

const game = (id: string) => `/games/${encodeURIComponent(id)}`;

export const clockApi = {
  resign: (id: string, token: string, seat?: number) =>
    call<ResignAck>("POST", `${game(id)}/resign`, seat === undefined ? {} : { seat }, token),
  leave: (id: string, token: string, seat?: number) =>
    call<LeaveAck>("POST", `${game(id)}/leave`, seat === undefined ? {} : { seat }, token),
};

/**
 * The server's clock as seen from here: `serverNow()` = `Date.now()` + the offset. Each
 * state read gives a sample: the server wrote `now` somewhere between sending the request
 * and getting the answer, so at about their middle; the sample from the quickest round
 * trip is kept (the least uncertain). A clock from an event (no round trip of its own)
 * uses the offset known.
 */
export class ServerTime {
  private offset = 0;
  private best = Infinity;

  /** A sample: the server's `now` in an answer to a request sent at `sent` and answered at `got` (Date.now()). */
  sample(now: number, sent: number, got: number) {
    const rtt = Math.max(0, got - sent);
    if (rtt > this.best) return;
    this.best = rtt;
    this.offset = now - (sent + rtt / 2);
  }

  /** An answer without a round trip (an event): used only while nothing better is known. */
  hint(now: number) {
    if (this.best === Infinity) this.offset = now - Date.now();
  }

  now(): number {
    return Date.now() + this.offset;
  }
}

/** A seat's time left at the server's time `serverNow`. */
export function timeLeft(c: ClockInfo, seat: number, serverNow: number): number {
  const s = c.seats.find((x) => x.seat === seat);
  if (!s) return 0;
  if (c.running_seat !== seat) return s.remaining_ms;
  return Math.max(0, s.remaining_ms - Math.max(0, serverNow - c.now));
}

/** "4:59", "0:07.3" under ten seconds, "2 d 03 h" for days. */
export function formatLeft(ms: number, days: (n: number) => string): string {
  if (ms >= 86_400_000) {
    const d = Math.floor(ms / 86_400_000);
    const h = Math.floor((ms % 86_400_000) / 3_600_000);
    return `${days(d)} ${String(h).padStart(2, "0")} h`;
  }
  const total = Math.max(0, ms) / 1000;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const sec = total < 10 ? s.toFixed(1).padStart(4, "0") : String(Math.floor(s)).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}
