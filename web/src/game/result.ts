// How a game ends for whom, as its state states it (rules §5.1): who resigned, ran out of
// time, left (the AI plays on) or is out of places, the result line that says why, and the
// result of the seat this browser holds. Nothing is ranked here: `places`, `forfeited` and
// `winners` are the server's (the core's outcome), only put into words.
import type { GameState, Letter } from "../wire";
import { t } from "../i18n";
import { colourName } from "../ui";

export type Why = "resigned" | "time" | "left" | "time_ai" | "out";

export interface Departure {
  /** The player (seat) whose colours leave; for `out`, the colour's player. */
  player: number | null;
  colours: Letter[];
  why: Why;
  /** The move after which it happened, when the state says so. */
  after: number | null;
}

/** Players' names where the page knows them (a lobby game's table), by seat. */
export type Names = ReadonlyMap<number, string>;

/** A departure's identity, the same in every state that has it. */
export const departureKey = (d: Departure) => `${d.why}:${d.colours.join("")}`;

/** Whether the AI plays this seat because its player walked away (left, or ran out of time
 * under "the AI takes over"): a forfeit the state lists, on a seat the AI now plays. */
function walkedAway(s: GameState, seat: number) {
  return (s.forfeited ?? []).includes(seat) && s.seats.find((x) => x.seat === seat)?.kind === "ai";
}

/** Why the AI took a seat over: its clock ran out under "the AI takes over" (its time is
 * spent), else its player left. */
function takeOverWhy(s: GameState, seat: number): Why {
  const c = s.clock;
  const spent = c?.on_timeout === "ai" && (c.seats.find((x) => x.seat === seat)?.remaining_ms ?? 1) <= 0;
  return spent ? "time_ai" : "left";
}

/**
 * Everyone who left the game or can place no more, in the order the state knows them:
 * resignations and timeouts (`left`, with the move after which), seats the AI took over,
 * and colours out of places (every colour is out at the end: no news then).
 */
export function departures(s: GameState): Departure[] {
  const out: Departure[] = [];
  const gone = new Set<Letter>();
  for (const l of s.left ?? []) {
    const player = s.colours.find((c) => c.colour === l.colour)?.seat ?? null;
    const why: Why = l.reason === "time" ? "time" : "resigned";
    const same = out.find((d) => d.player === player && d.after === l.after_move && d.why === why);
    if (same) same.colours.push(l.colour);
    else out.push({ player, colours: [l.colour], why, after: l.after_move });
    gone.add(l.colour);
  }
  for (const seat of s.seats) {
    if (!walkedAway(s, seat.seat) || seat.colours.every((c) => gone.has(c))) continue;
    out.push({ player: seat.seat, colours: [...seat.colours], why: takeOverWhy(s, seat.seat), after: null });
  }
  for (const c of s.colours) if (c.out && !gone.has(c.colour)) out.push({ player: c.seat, colours: [c.colour], why: "out", after: null });
  return out;
}

/** A player as named on this page: "Ana (Yellow)" where the name is known, else "Yellow". */
export function who(s: GameState, player: number | null, names: Names, colours?: Letter[]): string {
  const cs = colours ?? s.seats.find((x) => x.seat === player)?.colours ?? [];
  const shown = cs.map(colourName).join(" & ") || t("game.status.player", { n: (player ?? 0) + 1 });
  const name = player === null ? undefined : names.get(player);
  return name ? t("game.ending.named", { name, colours: shown }) : shown;
}

/** The notice of a departure: "Yellow resigned", "Red ran out of time — the AI plays on". */
export function departureText(s: GameState, d: Departure, names: Names): string {
  // Out of places is a colour's, not a player's (in two players, four colours, one of two).
  const name = d.why === "out" ? who(s, d.player, names, d.colours) : who(s, d.player, names);
  return t(`game.ending.${d.why}`, { who: name });
}

/** The result with its reason: "Yellow resigned — Red wins.", or "Red wins." as before. */
export function resultLine(s: GameState, names: Names): string {
  const w = (s.winners ?? []).map((p) => who(s, p, names));
  const result = w.length === 1 ? t("game.status.wins", { name: w[0] }) : t("game.status.draw", { names: w.join(t("game.status.and")) });
  const forfeits = (s.forfeited ?? []).map((p) => {
    const d = departures(s).find((x) => x.player === p && x.why !== "out");
    // A forfeit says how: resigned, out of time (the AI playing on or not), or left.
    const why = d?.why === "time_ai" ? "time" : d?.why === "left" ? "gone" : (d?.why ?? "resigned");
    return t(`game.ending.${why}`, { who: who(s, p, names) });
  });
  return forfeits.length ? t("game.ending.because", { why: forfeits.join("; "), result }) : result;
}

export type YourResult = { kind: "win" | "share" | "lose" } | { kind: "place"; place: number; count: number };

/**
 * The result of the one seat this browser holds (none in a game played at one screen, or
 * watched): won, shared the win, lost (two players), or the place among more.
 */
export function yourResult(s: GameState, held: (seat: number) => boolean): YourResult | null {
  if (!s.over || s.status === "aborted" || s.hot_seat) return null;
  const mine = s.seats.filter((x) => held(x.seat));
  if (mine.length !== 1) return null;
  const p = mine[0].seat;
  const winners = s.winners ?? [];
  if (winners.includes(p)) return { kind: winners.length === 1 ? "win" : "share" };
  const count = s.players.length;
  const place = s.places?.[p];
  if (count <= 2 || !place) return { kind: "lose" };
  return { kind: "place", place, count };
}

/** "You win", "You share the win", "You lose", "2nd of 4". */
export function yourResultText(r: YourResult): string {
  return r.kind === "place" ? t(`game.you.place_${Math.min(r.place, 4)}`, { count: r.count }) : t(`game.you.${r.kind}`);
}
