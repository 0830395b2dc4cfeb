// The next game after one against the AI (or at one screen): the same setup again, or with
// the AI a level stronger — on the server or in this browser, as the game was. This browser
// takes the same seats as before.
import { api, tokens } from "../api";
import type { GameState } from "../wire";
import type { ClockChoice } from "./clockapi";
import { localBackend } from "../engine/local";

export interface SeatPlan {
  kind: "human" | "ai";
  level?: number;
}

export interface AgainPlan {
  seats: SeatPlan[];
  /** The AI's strongest level now, if an AI plays. */
  level: number | null;
}

/**
 * What "play again" repeats: every seat this browser holds stays a person's, every seat the
 * AI played from the start stays the AI's. None when someone else played here (a game
 * between people has its rematch), or when this browser held no seat.
 */
export function againPlan(s: GameState, held: (seat: number) => boolean): AgainPlan | null {
  if (!s.over || s.status === "aborted") return null;
  const forfeited = s.forfeited ?? [];
  const seats: SeatPlan[] = [];
  for (const x of [...s.seats].sort((a, b) => a.seat - b.seat)) {
    if (held(x.seat)) seats.push({ kind: "human" });
    // An AI seat from the start (not one whose player walked away).
    else if (x.kind === "ai" && !forfeited.includes(x.seat)) seats.push({ kind: "ai", level: x.level ?? 3 });
    else return null;
  }
  if (!seats.some((x) => x.kind === "human")) return null;
  const levels = seats.filter((x) => x.kind === "ai").map((x) => x.level ?? 3);
  return { seats, level: levels.length ? Math.max(...levels) : null };
}

/** The AI a level stronger (each AI seat, up to 9). */
export function levelUp(plan: AgainPlan): AgainPlan {
  const seats = plan.seats.map((x) => (x.kind === "ai" ? { kind: "ai" as const, level: Math.min((x.level ?? 3) + 1, 9) } : x));
  return { seats, level: plan.level === null ? null : Math.min(plan.level + 1, 9) };
}

/** The game's clock as the new-game form asks for it. */
function clockOf(s: GameState): ClockChoice | undefined {
  const c = s.clock;
  if (!c) return undefined;
  const then = c.on_timeout === "ai" ? { on_timeout: "ai" as const, ai_level: c.ai_level ?? 3 } : { on_timeout: "out" as const };
  if (c.kind === "realtime") return { kind: "realtime", minutes: c.initial_ms / 60000, increment_seconds: c.increment_ms / 1000, ...then };
  return { kind: "correspondence", days: Math.max(1, Math.round(c.per_move_ms / 86_400_000)), ...then };
}

/** Starts the game planned, like `s` otherwise; resolves to its page's address. */
export async function startAgain(s: GameState, plan: AgainPlan, local: boolean): Promise<string> {
  const board = s.site.custom && s.site.board_file ? { board_file: s.site.board_file } : { board: s.site.board };
  const humans = plan.seats.filter((x) => x.kind === "human").length;
  const common = { ...board, players: s.site.players, variant: s.site.variant, hot_seat: s.hot_seat && humans > 1, stuck_rule: s.site.stuck_rule ?? "out" };
  if (local) return localBackend.create({ ...common, seats: plan.seats });
  const clock = clockOf(s);
  const created = await api.create({ ...common, seats: plan.seats, ...(clock && humans === 1 ? { clock } : {}) });
  for (const x of created.seats) if (x.token) tokens.add(created.id, x.seat, x.token);
  return `/game/${created.id}`;
}
