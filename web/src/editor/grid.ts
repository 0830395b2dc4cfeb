// The board's grid, seen from above with rank 1 at the bottom (as the file's grid reads,
// turned the right way up): click or drag to paint with the chosen tool. It shows the red
// frame of one player count as the core read it, and marks the cells and the row the
// core's last refusal is about.
import { h } from "../ui";
import { t } from "../i18n";
import { cellName } from "./state";
import type { Count, EditorState } from "./state";
import type { ToolPicker } from "./tools";

type Rect = { files: [number, number]; ranks: [number, number] };

export class GridView {
  readonly el: HTMLElement;
  private grid: HTMLElement;
  private buttons: HTMLButtonElement[] = [];
  private frameBox = h("div", { class: "ed-frame-box", id: "ed-frame-box", hidden: true });
  private size = "";
  /** The frame drawn: the core's reading of the frame for `frameCount`, or a rectangle being dragged. */
  private frame: Rect | null = null;
  private dragFrame: Rect | null = null;
  private faultRow: number | null = null;
  private faultCells: [number, number][] = [];
  /** A stroke of the brush under way: the value it paints, or the corner a frame started at. */
  private stroke: { value: number | null; last: [number, number] } | { corner: [number, number] } | null = null;
  private keyCorner: [number, number] | null = null;

  constructor(
    private state: EditorState,
    private tools: ToolPicker,
  ) {
    // A group of buttons, not an ARIA grid: a grid's cells would sit in rows, and it would
    // promise moving between them with the arrow keys, which this one does not.
    this.grid = h("div", { class: "ed-grid", id: "ed-grid", role: "group", "aria-label": t("editor.grid.label") });
    this.el = h("div", { class: "ed-grid-wrap" }, this.grid);
    this.grid.addEventListener("pointerdown", (e) => this.down(e));
    this.grid.addEventListener("pointermove", (e) => this.move(e));
    window.addEventListener("pointerup", () => this.up());
    this.grid.addEventListener("click", (e) => this.keyClick(e));
    state.on("change", () => this.refresh());
    tools.on("tool", () => (this.keyCorner = null));
    this.refresh();
  }

  /** The red frame to draw (from the core's reading), or none. */
  showFrame(frame: Rect | null) {
    this.frame = frame;
    this.refresh();
  }

  /** Marks what the core's refusal names: a row of the grid, cells. */
  showFault(row: number | null, cells: [number, number][]) {
    this.faultRow = row;
    this.faultCells = cells;
    this.refresh();
  }

  private build() {
    const { files, ranks } = this.state.draft;
    // Cells as large as the column allows for a small board, and still clickable on a big one.
    const cell = Math.max(20, Math.min(44, Math.floor(520 / files), Math.floor(560 / ranks)));
    this.grid.style.setProperty("--ed-cell", `${cell}px`);
    this.grid.style.gridTemplateColumns = `2em repeat(${files}, var(--ed-cell))`;
    this.buttons = [];
    const children: HTMLElement[] = [];
    for (let y = ranks - 1; y >= 0; y--) {
      children.push(h("span", { class: "ed-coord" }, String(y + 1)));
      for (let x = 0; x < files; x++) {
        const b = h("button", { type: "button", class: "ed-cell", "data-x": x, "data-y": y, "data-cell": cellName(x, y) });
        this.buttons[x + y * files] = b;
        children.push(b);
      }
    }
    children.push(h("span", {}));
    for (let x = 0; x < files; x++) children.push(h("span", { class: "ed-coord" }, String.fromCharCode(97 + x)));
    this.grid.replaceChildren(...children, this.frameBox);
    this.size = `${files}x${ranks}`;
  }

  private refresh() {
    const d = this.state.draft;
    if (this.size !== `${d.files}x${d.ranks}`) this.build();
    const frame = this.dragFrame ?? this.frame;
    const inside = (x: number, y: number) => !!frame && x >= frame.files[0] && x <= frame.files[1] && y >= frame.ranks[0] && y <= frame.ranks[1];
    for (let y = 0; y < d.ranks; y++)
      for (let x = 0; x < d.files; x++) {
        const b = this.buttons[x + y * d.files];
        const c = d.cells[x + y * d.files];
        b.textContent = c ? String(c) : "";
        b.classList.toggle("on", c !== null);
        b.classList.toggle("framed", inside(x, y));
        b.classList.toggle("outside", !!frame && !inside(x, y));
        b.classList.toggle("fault", this.faultRow === y || this.faultCells.some(([a, r]) => a === x && r === y));
        const what = c === null ? t("editor.grid.off") : c === 0 ? t("editor.grid.on") : t("editor.grid.printed", { height: c });
        b.setAttribute("aria-label", `${cellName(x, y)}: ${what}`);
      }
    // The frame as one red rectangle over its cells, like the rulebook's red line.
    const box = this.frameBox;
    const onGrid = frame && frame.files[0] < d.files && frame.ranks[0] < d.ranks;
    const lo = onGrid && this.buttons[frame.files[0] + frame.ranks[0] * d.files];
    const hi = onGrid && this.buttons[Math.min(frame.files[1], d.files - 1) + Math.min(frame.ranks[1], d.ranks - 1) * d.files];
    box.hidden = !(lo && hi);
    if (lo && hi) {
      const pad = 3;
      box.style.left = `${lo.offsetLeft - pad}px`;
      box.style.top = `${hi.offsetTop - pad}px`;
      box.style.width = `${hi.offsetLeft + hi.offsetWidth - lo.offsetLeft + 2 * pad}px`;
      box.style.height = `${lo.offsetTop + lo.offsetHeight - hi.offsetTop + 2 * pad}px`;
    }
  }

  private cellAt(target: EventTarget | null): [number, number] | null {
    const el = (target as HTMLElement | null)?.closest?.(".ed-cell") as HTMLElement | null;
    if (!el || !this.grid.contains(el)) return null;
    return [Number(el.dataset.x), Number(el.dataset.y)];
  }

  private down(e: PointerEvent) {
    const at = this.cellAt(e.target);
    if (!at || e.button !== 0) return;
    e.preventDefault();
    const tool = this.tools.tool;
    if (tool.kind === "frame") {
      this.stroke = { corner: at };
      this.dragTo(at);
      return;
    }
    // The footprint brush paints the opposite of the first cell it touches, all stroke long.
    const value = tool.kind === "height" ? tool.value : this.state.cell(...at) === null ? 0 : null;
    this.stroke = { value, last: at };
    this.state.paint([at], value);
  }

  private move(e: PointerEvent) {
    if (!this.stroke) return;
    const at = this.cellAt(document.elementFromPoint(e.clientX, e.clientY));
    if (!at) return;
    if ("corner" in this.stroke) this.dragTo(at);
    else {
      // A quick stroke skips cells between two pointer events: paint the line between them.
      const [x0, y0] = this.stroke.last;
      const n = Math.max(Math.abs(at[0] - x0), Math.abs(at[1] - y0));
      const line: [number, number][] = [];
      for (let i = 1; i <= n; i++) line.push([Math.round(x0 + ((at[0] - x0) * i) / n), Math.round(y0 + ((at[1] - y0) * i) / n)]);
      this.stroke.last = at;
      if (line.length) this.state.paint(line, this.stroke.value);
    }
  }

  private dragTo(at: [number, number]) {
    if (!this.stroke || !("corner" in this.stroke)) return;
    const [x0, y0] = this.stroke.corner;
    this.dragFrame = { files: [Math.min(x0, at[0]), Math.max(x0, at[0])], ranks: [Math.min(y0, at[1]), Math.max(y0, at[1])] };
    this.refresh();
  }

  private up() {
    const stroke = this.stroke;
    this.stroke = null;
    if (stroke && "corner" in stroke && this.dragFrame) {
      const f = this.dragFrame;
      this.dragFrame = null;
      const tool = this.tools.tool;
      if (tool.kind === "frame") this.state.setFrameCorners(tool.count as Count, [f.files[0], f.ranks[0]], [f.files[1], f.ranks[1]]);
    }
  }

  /** Enter or Space on a cell (a click without a pointer): one cell, or a frame's corners one after the other. */
  private keyClick(e: MouseEvent) {
    if (e.detail !== 0) return;
    const at = this.cellAt(e.target);
    if (!at) return;
    const tool = this.tools.tool;
    if (tool.kind === "frame") {
      if (!this.keyCorner) this.keyCorner = at;
      else {
        this.state.setFrameCorners(tool.count, this.keyCorner, at);
        this.keyCorner = null;
      }
    } else this.state.paint([at], tool.kind === "height" ? tool.value : this.state.cell(...at) === null ? 0 : null);
  }
}
