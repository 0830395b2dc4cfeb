// The news of a game followed live, said once each: a player who resigned, ran out of time,
// left (the AI plays on) or can place no more, and the end with its reason — as a notice that
// stays a few seconds (the toast, announced politely to screen readers), and, for the move
// list, the move after which each was first seen here (the state says it of resignations and
// timeouts only).
import type { GameState } from "../wire";
import { toast } from "../ui";
import { departureKey, departureText, departures, resultLine, yourResult, yourResultText } from "./result";
import type { Departure, Names } from "./result";

/** How long a notice stays (ms): long enough to read two sentences. */
const NOTICE_MS = 8000;

export interface Line {
  after: number;
  departure: Departure;
  text: string;
}

export class Notices {
  /** The departures already known (null before the first state). */
  private known: Set<string> | null = null;
  private wasOver = false;
  /** The moves played when each departure was first seen here. */
  private seenAt = new Map<string, number>();
  /** The moves played when the AI took each seat over, as the events said (by seat). */
  private takenOver = new Map<number, number>();
  /** The last notice given (for the browser tests). */
  last = "";

  /** The AI took `seat` over after `after` moves (told before the state that shows it). */
  tookOver(seat: number, after: number) {
    if (!this.takenOver.has(seat)) this.takenOver.set(seat, after);
  }

  /** A live state newly shown: say what is new since the one before. */
  update(s: GameState, names: Names, held: (seat: number) => boolean) {
    const now = departures(s);
    const first = this.known === null;
    const news: string[] = [];
    for (const d of now) {
      const key = departureKey(d);
      if (this.known?.has(key)) continue;
      // Out at the end is every colour's lot: the result says the end.
      if (!first && !(s.over && d.why === "out")) {
        this.seenAt.set(key, s.moves_played);
        news.push(departureText(s, d, names));
      }
    }
    this.known = new Set(now.map(departureKey));
    if (!first && s.over && !this.wasOver && s.status !== "aborted") {
      const you = yourResult(s, held);
      // The reason is in the result line: the departures that ended it need no words of their own.
      news.length = 0;
      news.push(resultLine(s, names), ...(you ? [`${yourResultText(you)}.`] : []));
    }
    this.wasOver = s.over;
    if (news.length) {
      this.last = news.join(" ");
      toast(this.last, false, NOTICE_MS);
      document.body.dataset.notice = this.last;
    }
  }

  /**
   * The move list's lines: each departure after the move it followed, where that is known —
   * from the state (resignations, timeouts) or from seeing it happen here. One from before
   * this page was opened (a seat the AI took over, a colour out) is marked in the players'
   * table instead, never at a wrong place in the list.
   */
  lines(s: GameState, names: Names): Line[] {
    return departures(s).flatMap((d) => {
      const takenOver = d.why === "left" || d.why === "time_ai" ? this.takenOver.get(d.player ?? -1) : undefined;
      const after = d.after ?? takenOver ?? this.seenAt.get(departureKey(d)) ?? null;
      return after === null ? [] : [{ after, departure: d, text: departureText(s, d, names) }];
    });
  }
}
