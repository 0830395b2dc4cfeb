// The end of a game: the final scores, the replay controls, and the win-estimate graph
// (axes: move number, win chance 0–100 %; a legend of the colours).
import type { GameBackend } from "../engine/backend";
import type { Analysis, GameState, Letter } from "../wire";
import { t } from "../i18n";
import { colourName, h, hex, swatch } from "../ui";
import { topsOf } from "./panels";
import { errorText } from "./errors";
import type { ReviewPanel } from "./review";

export interface EndHooks {
  replay(n: number): void;
}

const NS = "http://www.w3.org/2000/svg";

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

export class EndScreen {
  private analysis: Analysis | null = null;
  private asked: Promise<Analysis> | null = null;

  constructor(
    private id: string,
    private hooks: EndHooks,
    private backend: GameBackend,
    private review: ReviewPanel,
  ) {}

  render(el: HTMLElement, s: GameState, replayAt: number | null) {
    el.replaceChildren();
    if (!s.over && replayAt === null) return;
    if (s.over && replayAt === null) {
      const rows = s.colours.map((c) => {
        const tops = topsOf(s, c.colour);
        const penalty = tops - (c.score ?? 0);
        return h(
          "tr",
          { "data-colour": c.colour },
          h("td", {}, swatch(c.colour), " ", colourName(c.colour)),
          h("td", {}, String(tops)),
          h("td", {}, penalty ? `−${penalty}` : "0"),
          // The same minus sign as the penalty beside it and the players' table.
          h("td", { class: "final-score", "data-score": String(c.score) }, (c.score ?? 0) < 0 ? `−${-(c.score ?? 0)}` : String(c.score ?? 0)),
        );
      });
      el.append(
        h("h2", {}, t("game.end.final")),
        h(
          "table",
          { id: "final-scores" },
          h(
            "thead",
            {},
            h("tr", {}, h("th", {}, t("game.end.colour")), h("th", {}, t("game.end.tops")), h("th", {}, t("game.end.penalty")), h("th", {}, t("game.end.score"))),
          ),
          h("tbody", {}, ...rows),
        ),
      );
    }
    const n = s.moves_played;
    const at = replayAt ?? n;
    const slider = h("input", { type: "range", min: 0, max: n, value: at, id: "replay", "aria-label": t("game.end.position") }) as HTMLInputElement;
    slider.addEventListener("input", () => this.hooks.replay(Number(slider.value)));
    el.append(
      h("h2", {}, t("game.end.replay")),
      h(
        "div",
        { class: "replay" },
        h("button", { onclick: () => this.hooks.replay(0), title: t("game.end.first") }, "«"),
        h("button", { id: "step-back", onclick: () => this.hooks.replay(Math.max(at - 1, 0)), title: t("game.end.back") }, "◀"),
        slider,
        h("button", { id: "step-forward", onclick: () => this.hooks.replay(Math.min(at + 1, n)), title: t("game.end.forward") }, "▶"),
        h("button", { onclick: () => this.hooks.replay(n), title: t("game.end.last") }, "»"),
        h("span", { class: "small" }, `${at}/${n}`),
      ),
      h("h2", {}, t("game.end.estimates")),
      this.graph(),
    );
    this.review.render(replayAt, n);
    el.append(this.review.el);
  }

  private graph(): HTMLElement {
    const box = h("div", { class: "analysis", id: "analysis" });
    // The review's estimates once it is done (its searches are the stronger).
    const reviewed = this.review.review;
    const a: Pick<Analysis, "colours" | "estimates" | "moves" | "worst"> | null = reviewed
      ? { colours: reviewed.colours, estimates: reviewed.estimates, moves: [], worst: [] }
      : this.analysis;
    if (reviewed) box.dataset.from = "review";
    if (!a) {
      box.append(t("game.end.analysing"));
      // One request however often the screen is drawn meanwhile.
      this.asked ??= this.backend.analysis(this.id);
      this.asked
        .then((r) => {
          this.analysis = r;
          box.replaceWith(this.graph());
        })
        .catch((e) => {
          this.asked = null;
          box.textContent = t("game.end.no_analysis", { reason: errorText(e) });
        });
      return box;
    }
    // Plot area inside margins for the axes' numbers and titles.
    const W = 320,
      H = 170,
      L = 54,
      R = 8,
      T = 8,
      B = 34;
    const pw = W - L - R,
      ph = H - T - B;
    const last = Math.max(a.estimates.length - 1, 1);
    const x = (i: number) => L + (i / last) * pw;
    const y = (f: number) => T + ph * (1 - f);
    const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "graph", role: "img", "aria-label": t("game.end.graph_label") });
    for (const f of [0, 0.25, 0.5, 0.75, 1]) {
      g.append(svg("line", { x1: L, x2: W - R, y1: y(f), y2: y(f), stroke: f === 0 ? "#6f6452" : "#e3dac8", "stroke-width": 1 }));
      g.append(svg("text", { x: L - 4, y: y(f) + 3.5, "text-anchor": "end", "font-size": 10, fill: "#6f6452", class: "tick-y" }, `${f * 100} %`));
    }
    g.append(svg("line", { x1: L, x2: L, y1: T, y2: T + ph, stroke: "#6f6452", "stroke-width": 1 }));
    const step = Math.max(1, Math.ceil(last / 6 / 5) * 5);
    for (let i = 0; i <= last; i += step) {
      g.append(svg("line", { x1: x(i), x2: x(i), y1: T + ph, y2: T + ph + 4, stroke: "#6f6452" }));
      g.append(svg("text", { x: x(i), y: T + ph + 14, "text-anchor": "middle", "font-size": 10, fill: "#6f6452", class: "tick-x" }, String(i)));
    }
    g.append(svg("text", { x: L + pw / 2, y: H - 4, "text-anchor": "middle", "font-size": 11, fill: "#2b251d", class: "axis-x" }, t("game.end.axis_move")));
    g.append(
      svg(
        "text",
        { x: 10, y: T + ph / 2, "text-anchor": "middle", "font-size": 11, fill: "#2b251d", transform: `rotate(-90 10 ${T + ph / 2})`, class: "axis-y" },
        t("game.end.axis_chance"),
      ),
    );
    for (const c of a.colours) {
      const pts = a.estimates.map((e, i) => `${x(i).toFixed(1)},${y(e[c] ?? 0).toFixed(1)}`).join(" ");
      g.append(svg("polyline", { points: pts, fill: "none", stroke: hex(c), "stroke-width": 2, "data-colour": c }));
    }
    box.append(
      g,
      h(
        "div",
        { class: "legend", id: "legend" },
        ...a.colours.map((c: Letter) => h("span", { class: "legend-item" }, h("span", { class: "legend-line", style: `background:${hex(c)}` }), colourName(c))),
      ),
    );
    const worst = a.worst.map((num) => a.moves.find((m) => m.number === num)).filter((m): m is NonNullable<typeof m> => !!m && m.loss > 0.005);
    if (worst.length) {
      box.append(
        h("div", { class: "small" }, t("game.end.worst")),
        h(
          "ol",
          { class: "worst" },
          ...worst.map((m) =>
            h(
              "li",
              {},
              h("a", { href: "#", onclick: (e: Event) => (e.preventDefault(), this.hooks.replay(m.number)) }, `${m.number}. ${colourName(m.colour)} ${m.placement}`),
              ` −${Math.round(m.loss * 100)} %`,
            ),
          ),
        ),
      );
    }
    return box;
  }
}
