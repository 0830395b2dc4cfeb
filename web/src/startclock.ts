// The new-game form's clock: none, real-time (minutes per game + seconds added per move) or
// correspondence (days per move), and what a timeout does (the seat's colours are out, or the
// AI plays on at a level). The server checks the numbers; this only offers sensible ones.
import type { ClockChoice } from "./game/clockapi";
import { t } from "./i18n";
import { h } from "./ui";

type Kind = "none" | "realtime" | "correspondence";

export class ClockForm {
  private kind: Kind = "none";
  private minutes = 10;
  private increment = 5;
  private days = 3;
  private onTimeout: "out" | "ai" = "out";
  private level = 3;

  /** The clock asked for, if any. */
  choice(): ClockChoice | null {
    const then = this.onTimeout === "ai" ? { on_timeout: "ai" as const, ai_level: this.level } : { on_timeout: "out" as const };
    if (this.kind === "realtime") return { kind: "realtime", minutes: this.minutes, increment_seconds: this.increment, ...then };
    if (this.kind === "correspondence") return { kind: "correspondence", days: this.days, ...then };
    return null;
  }

  /** The form's row; `offered`: a game with a clock (online, with a human seat). */
  render(offered: boolean, redraw: () => void): HTMLElement | string {
    if (!offered) {
      this.kind = "none";
      return "";
    }
    const set = (f: () => void) => () => (f(), redraw());
    // Each select has a name: the label before it (`for`), or its own `label` (aria-label).
    const select = (id: string, value: string, options: [string, string][], on: (v: string) => void, label?: string) =>
      h(
        "select",
        { id, "aria-label": label, onchange: (e: Event) => on((e.target as HTMLSelectElement).value) },
        ...options.map(([v, label]) => h("option", { value: v, selected: v === value }, label)),
      );
    const number = (id: string, value: number, min: number, max: number, step: number, on: (v: number) => void) =>
      h("input", {
        id,
        type: "number",
        value: String(value),
        min: String(min),
        max: String(max),
        step: String(step),
        onchange: (e: Event) => {
          const v = Number((e.target as HTMLInputElement).value);
          if (Number.isFinite(v)) on(v);
        },
      });
    const parts: (HTMLElement | string)[] = [
      h("label", { class: "label", for: "clock-kind" }, t("start.clock.label")),
      select(
        "clock-kind",
        this.kind,
        [
          ["none", t("start.clock.none")],
          ["realtime", t("start.clock.realtime")],
          ["correspondence", t("start.clock.correspondence")],
        ],
        (v) => set(() => (this.kind = v as Kind))(),
      ),
    ];
    if (this.kind === "realtime") {
      parts.push(
        h("label", {}, number("clock-minutes", this.minutes, 0.1, 180, 0.1, (v) => (this.minutes = v)), " ", t("start.clock.minutes")),
        h("label", {}, "+ ", number("clock-increment", this.increment, 0, 60, 1, (v) => (this.increment = v)), " ", t("start.clock.increment")),
      );
    } else if (this.kind === "correspondence") {
      const days = Array.from({ length: 14 }, (_, i) => [String(i + 1), t("start.clock.days", { count: i + 1 })] as [string, string]);
      parts.push(select("clock-days", String(this.days), days, (v) => (this.days = Number(v)), t("start.clock.daysLabel")));
    }
    if (this.kind !== "none") {
      const levels = Array.from({ length: 9 }, (_, i) => [String(i + 1), t("start.ai", { level: i + 1 })] as [string, string]);
      parts.push(
        h("label", { class: "label", for: "clock-timeout" }, t("start.clock.timeout")),
        select(
          "clock-timeout",
          this.onTimeout,
          [
            ["out", t("start.clock.out")],
            ["ai", t("start.clock.ai")],
          ],
          (v) => set(() => (this.onTimeout = v as "out" | "ai"))(),
        ),
      );
      if (this.onTimeout === "ai") parts.push(select("clock-level", String(this.level), levels, (v) => (this.level = Number(v)), t("start.clock.levelLabel")));
    }
    return h("div", { class: "row clock-row", id: "clock-row" }, ...parts);
  }
}
