// The seats' clocks on the game page: from the server's clock (each seat's time left at the
// server's `now`, and whose time runs), counted down here between events. The server's time
// is estimated from a state read's round trip (clockapi.ts ServerTime), so a slow network
// neither adds nor takes time; the server alone decides when time runs out.
import { api } from "../api";
import type { ClockInfo, GameState } from "../wire";
import { t } from "../i18n";
import { h, swatch } from "../ui";
import { ServerTime, formatLeft, timeLeft } from "./clockapi";

/** How often the server's time is sampled again (a state read). */
const RESAMPLE_MS = 60_000;

/** A clock's rule in words: "10 min + 5 s a move", "3 days a move". */
export function ruleText(c: ClockInfo): string {
  return c.kind === "realtime"
    ? t("game.clock.realtime", { minutes: c.initial_ms / 60_000, seconds: c.increment_ms / 1000 })
    : t("game.clock.correspondence", { count: Math.round(c.per_move_ms / 86_400_000) });
}

export class Clocks {
  readonly el = h("div", { class: "clocks", id: "clocks", hidden: true });
  private info: ClockInfo | null = null;
  private state: GameState | null = null;
  private time = new ServerTime();
  private ticker = 0;
  private sampler = 0;
  private cells = new Map<number, HTMLElement>();

  constructor(private id: string) {}

  /** Starts sampling the server's time (only for a game with a clock). */
  private startSampling() {
    if (this.sampler) return;
    const sample = async () => {
      const sent = Date.now();
      try {
        const s = await api.state(this.id, 0);
        if (s.clock) this.time.sample(s.clock.now, sent, Date.now());
      } catch {
        // The next sample will do; events keep the clocks right meanwhile.
      }
    };
    void sample();
    this.sampler = window.setInterval(() => void sample(), RESAMPLE_MS);
  }

  /** The state shown: its seats, and its clock. */
  set(state: GameState) {
    this.state = state;
    if (state.clock !== undefined) this.setClock(state.clock ?? null);
    else this.render();
  }

  /** A clock from an event or a state. */
  setClock(info: ClockInfo | null) {
    // An older clock (events and state reads may cross) never replaces a newer one.
    if (info && this.info && info.now < this.info.now) return;
    this.info = info;
    if (info) {
      this.time.hint(info.now);
      this.startSampling();
    }
    this.render();
  }

  private render() {
    const c = this.info;
    const s = this.state;
    this.el.hidden = !c || !s;
    this.cells.clear();
    if (!c || !s) {
      this.el.replaceChildren();
      window.clearInterval(this.ticker);
      this.ticker = 0;
      return;
    }
    const rule = ruleText(c);
    const rows = s.seats.map((seat) => {
      const time = h("td", { class: "time", "data-seat": String(seat.seat) });
      this.cells.set(seat.seat, time);
      const running = c.running_seat === seat.seat && !s.over;
      return h(
        "tr",
        { class: running ? "running" : "", "data-seat": String(seat.seat) },
        h("td", { class: "who" }, ...seat.colours.map((col) => swatch(col))),
        time,
      );
    });
    const onTimeout = c.on_timeout === "ai" ? t("game.clock.then_ai", { level: c.ai_level ?? 0 }) : t("game.clock.then_out");
    this.el.replaceChildren(h("div", { class: "small clock-rule" }, rule, " · ", onTimeout), h("table", {}, h("tbody", {}, ...rows)));
    this.tick();
    if (!this.ticker) this.ticker = window.setInterval(() => this.tick(), 100);
  }

  /** Each seat's time left now, in words ("4:59"), or null for a game without a clock. */
  leftNow(): { seat: number; text: string }[] | null {
    const c = this.info;
    if (!c || !this.state) return null;
    const now = this.time.now();
    return this.state.seats.map((s) => ({ seat: s.seat, text: formatLeft(timeLeft(c, s.seat, now), (n) => t("game.clock.days", { count: n })) }));
  }

  /** Writes each seat's time left now. */
  private tick() {
    const c = this.info;
    if (!c) return;
    const now = this.time.now();
    for (const [seat, cell] of this.cells) {
      const ms = timeLeft(c, seat, now);
      const text = formatLeft(ms, (n) => t("game.clock.days", { count: n }));
      if (cell.textContent !== text) cell.textContent = text;
      cell.dataset.ms = String(Math.round(ms));
      cell.classList.toggle("low", c.running_seat === seat && ms < 10_000);
    }
  }
}
