// The solitaire (rules §6): try the 3 × 3 × 3 cube yourself with the rules checked by the
// server, or watch a solution — a 3 × 3 × 3 filling, or the 5 × 5 × 5 in turn — stone by stone.
import { eitherEngine } from "./engine/fallback";
import { errorText } from "./errors";
import type { Xyz } from "./api";
import type { Letter, PuzzleSolution, PuzzleState, StoneInfo } from "./wire";
import { Structure3D } from "./view3d";
import type { ColumnCubes } from "./view3d";
import { Placer, typing, viewKey, viewTools } from "./placer";
import { h, toast } from "./ui";
import { languagePicker, t } from "./i18n";
import { tintStones } from "./shades";

const SIZE = "3x3x3";
const PLAYER: Letter = "R";

type Mode = "try" | "cube" | "tower5";

/** Columns of cubes from a list of stones' cubes, each with its colour. */
function columnsOf(stones: { colour: Letter; cubes: Xyz[] }[]): ColumnCubes[] {
  const cols = new Map<string, ColumnCubes & { z: Letter[] }>();
  for (const s of stones)
    for (const [x, y, z] of s.cubes) {
      const key = `${x},${y}`;
      let c = cols.get(key);
      if (!c) cols.set(key, (c = { x, y, cubes: [], z: [] }));
      c.z[z] = s.colour;
    }
  // Every column is a solid stack, so the levels are 0..n-1.
  return [...cols.values()].map((c) => ({ x: c.x, y: c.y, cubes: Array.from(c.z, (l) => l ?? "X") }));
}

export class PuzzlePage {
  private view!: Structure3D;
  private placer!: Placer;
  private stones = new Map<string, StoneInfo>();
  private mode: Mode = "try";
  private moves: string[] = [];
  private state: PuzzleState | null = null;
  private solution: PuzzleSolution | null = null;
  private step = 0;
  private timer = 0;
  private el: Record<string, HTMLElement> = {};
  private boardKey = "";

  constructor(private root: HTMLElement) {}

  async start() {
    const stage = h("div", { class: "stage", id: "stage" });
    const wrap = h("div", { class: "stage-wrap" }, stage);
    this.el = {
      tabs: h("div", { class: "tabs" }),
      status: h("div", { class: "status", id: "status", "aria-live": "polite" }),
      tray: h("div", { class: "tray", id: "tray" }),
      turns: h("div", { class: "turns", id: "turns" }),
      actions: h("div", { class: "actions", id: "actions" }),
      about: h("div", { class: "small about" }),
    };
    const side = h(
      "aside",
      { class: "side" },
      h("div", { class: "side-head" }, h("a", { href: "/", class: "home" }, "Rumis"), h("h1", { class: "game-title" }, t("puzzle.title")), languagePicker()),
      this.el.tabs,
      this.el.status,
      this.el.tray,
      this.el.turns,
      this.el.actions,
      this.el.about,
    );
    this.root.replaceChildren(h("div", { class: "game" }, wrap, side));
    this.view = new Structure3D(stage);
    wrap.append(viewTools(this.view, () => this.view.setTopView(!this.view.topView)));
    this.placer = new Placer(this.view, this.stones, {
      place: (p) => void this.play(p.placement),
      draw: (ghost, cells, cursor) => {
        this.view.setGhost(ghost?.cubes ?? null, PLAYER);
        const last = this.state?.placed.at(-1)?.cubes ?? null;
        this.view.setMarks(cells, last, cursor);
      },
    });
    this.placer.attach(this.el.tray, this.el.turns, t("puzzle.pick"));
    (window as unknown as Record<string, unknown>).rumis = {
      placements: () => this.placer.placements,
      current: () => this.placer.current?.placement ?? null,
      selected: () => this.placer.selected,
    };
    window.addEventListener("keydown", (e) => this.onKey(e));
    try {
      for (const s of await eitherEngine.stones()) this.stones.set(s.code, s);
    } catch (e) {
      this.el.status.textContent = (e as Error).message;
      return;
    }
    const q = new URLSearchParams(location.search).get("show");
    await this.setMode(q === "tower5" || q === "cube" ? q : "try");
  }

  private async setMode(mode: Mode) {
    this.mode = mode;
    clearInterval(this.timer);
    const tab = (m: Mode, label: string) =>
      h("button", { class: `tab ${this.mode === m ? "on" : ""}`, id: `tab-${m}`, onclick: () => void this.setMode(m) }, label);
    this.el.tabs.replaceChildren(
      tab("try", t("puzzle.tab.try")),
      tab("cube", t("puzzle.tab.cube")),
      tab("tower5", t("puzzle.tab.tower5")),
    );
    this.el.tray.replaceChildren();
    this.el.turns.replaceChildren();
    this.el.actions.replaceChildren();
    this.solution = null;
    this.state = null;
    if (mode === "try") {
      this.el.about.textContent = t("puzzle.about.try");
      try {
        this.moves = JSON.parse(localStorage.getItem("rumis.puzzle.cube3") ?? "[]");
      } catch {
        this.moves = [];
      }
      await this.refresh();
    } else {
      this.el.about.textContent = mode === "tower5" ? t("puzzle.about.tower5") : t("puzzle.about.cube");
      try {
        this.solution = await eitherEngine.puzzleSolution(mode === "tower5" ? "tower5" : "cube3");
      } catch (e) {
        this.el.status.textContent = (e as Error).message;
        return;
      }
      // From the first stone on, so the building can be followed.
      this.step = 1;
      this.showBoard(this.solution.size);
      this.renderWatch();
    }
  }

  private showBoard([x, y, z]: [number, number, number]) {
    const key = `${x}x${y}x${z}`;
    if (key === this.boardKey) return;
    this.boardKey = key;
    const cells = [];
    for (let j = 0; j < y; j++) for (let i = 0; i < x; i++) cells.push({ x: i, y: j, limit: z });
    this.view.setBoard(x, y, cells, z);
  }

  // ----- trying -----

  private async refresh() {
    let st: PuzzleState;
    try {
      st = await eitherEngine.puzzle(SIZE, this.moves);
    } catch (e) {
      // A stored attempt that no longer fits (an old version): start afresh.
      toast(errorText(e), true);
      this.moves = [];
      localStorage.removeItem("rumis.puzzle.cube3");
      st = await eitherEngine.puzzle(SIZE, []);
    }
    this.state = st;
    this.showBoard(st.size);
    this.view.setColumns(columnsOf(st.placed.map((p) => ({ colour: PLAYER, cubes: p.cubes }))));
    this.placer.set(st.placements, PLAYER, !st.solved, st.stones_left);
    this.placer.renderTray();
    this.placer.update();
    document.body.dataset.filled = String(st.filled);
    const s = this.el.status;
    s.dataset.state = st.solved ? "solved" : st.stuck ? "stuck" : "building";
    s.textContent = st.solved
      ? t("puzzle.solved", { count: st.placed.length })
      : st.stuck
        ? t("puzzle.stuck", { filled: st.filled, volume: st.volume })
        : `${t("puzzle.filled", { filled: st.filled, volume: st.volume })} · ${t("puzzle.left", { count: st.stones_left.length })}`;
    this.el.actions.replaceChildren(
      h("button", { id: "undo", disabled: this.moves.length === 0, onclick: () => void this.undo() }, t("puzzle.undo")),
      h("button", { id: "reset", disabled: this.moves.length === 0, onclick: () => void this.reset() }, t("puzzle.reset")),
    );
  }

  private async play(placement: string) {
    const next = [...this.moves, placement];
    try {
      await eitherEngine.puzzle(SIZE, next);
    } catch (e) {
      toast(t("puzzle.notPlaced", { reason: (e as Error).message }), true);
      return;
    }
    this.moves = next;
    localStorage.setItem("rumis.puzzle.cube3", JSON.stringify(this.moves));
    this.placer.selected = null;
    await this.refresh();
  }

  private async undo() {
    this.moves.pop();
    localStorage.setItem("rumis.puzzle.cube3", JSON.stringify(this.moves));
    await this.refresh();
  }

  private async reset() {
    this.moves = [];
    localStorage.removeItem("rumis.puzzle.cube3");
    await this.refresh();
  }

  // ----- watching -----

  private renderWatch() {
    const sol = this.solution!;
    const shown = sol.steps.slice(0, this.step);
    this.view.setColumns(columnsOf(shown));
    // One colour's stones (the 3 × 3 × 3) in shades of it, so each stone reads apart.
    if (sol.name === "cube3") tintStones(this.view, shown.map((s) => s.cubes));
    this.view.setGhost(null);
    this.view.setMarks([], shown.at(-1)?.cubes ?? null);
    const last = shown.at(-1);
    this.el.status.textContent = last
      ? t("puzzle.stone", { n: this.step, total: sol.steps.length, colour: t(`common.colour.${last.colour}`), placement: last.placement })
      : t("puzzle.empty", { count: sol.steps.length });
    document.body.dataset.step = String(this.step);
    const slider = h("input", { type: "range", min: 0, max: sol.steps.length, value: this.step, id: "step", "aria-label": t("puzzle.slider") }) as HTMLInputElement;
    slider.addEventListener("input", () => this.go(Number(slider.value)));
    const playing = this.timer !== 0;
    this.el.actions.replaceChildren(
      h(
        "div",
        { class: "replay" },
        h("button", { onclick: () => this.go(0), title: t("puzzle.first") }, "«"),
        h("button", { id: "step-back", onclick: () => this.go(this.step - 1), title: t("puzzle.back") }, "◀"),
        slider,
        h("button", { id: "step-forward", onclick: () => this.go(this.step + 1), title: t("puzzle.forward") }, "▶"),
        h("button", { id: "autoplay", onclick: () => this.autoplay(), title: t("puzzle.play") }, playing ? t("puzzle.pause") : t("puzzle.play")),
      ),
      sol.record ? h("a", { class: "button", href: `data:text/plain;charset=utf-8,${encodeURIComponent(sol.record)}`, download: `${sol.name}.txt` }, t("puzzle.record")) : "",
    );
  }

  private go(n: number) {
    if (!this.solution) return;
    this.step = Math.min(Math.max(n, 0), this.solution.steps.length);
    this.renderWatch();
  }

  private autoplay() {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = 0;
    } else {
      if (this.solution && this.step >= this.solution.steps.length) this.step = 0;
      this.timer = window.setInterval(() => {
        if (!this.solution || this.step >= this.solution.steps.length) {
          clearInterval(this.timer);
          this.timer = 0;
          this.renderWatch();
        } else this.go(this.step + 1);
      }, 700);
    }
    this.renderWatch();
  }

  private onKey(e: KeyboardEvent) {
    if (typing(e)) return;
    const k = e.key;
    if (viewKey(this.view, k, () => this.view.setTopView(!this.view.topView))) return e.preventDefault();
    if (this.mode === "try") {
      if (this.placer.key(k, 3, 3)) return e.preventDefault();
      if (k === "Enter" && this.placer.current) {
        e.preventDefault();
        void this.play(this.placer.current.placement);
      } else if (k === "u" || k === "U") void this.undo();
    } else if (k === "ArrowRight") this.go(this.step + 1);
    else if (k === "ArrowLeft") this.go(this.step - 1);
  }
}
