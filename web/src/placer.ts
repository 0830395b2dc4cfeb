// Choosing, turning and placing a stone among the legal placements the server gave: which
// stone, orientation and place are chosen, the ghost that snaps, the pointer and the keys.
// Used by the game and the puzzle pages. It only ever offers placements from the list it was
// given (the engine's); what it shows in the panel is drawn by placertray.ts.
import type { Xyz } from "./api";
import type { Letter, Placement, StoneInfo } from "./wire";
import type { Structure3D } from "./view3d";
import { t } from "./i18n";
import { h, toast } from "./ui";
import { stonesGrid, turnsPanel, type TrayStone } from "./placertray";

/** Where the pointer sits on a stone orientation: its first cube on the lowest level. */
function anchorOf(cells: Xyz[]): [number, number] {
  const c = cells.find((c) => c[2] === 0) ?? cells[0];
  return [c[0], c[1]];
}

function shiftOf(p: Placement): [number, number] {
  return [Math.min(...p.cubes.map((c) => c[0])), Math.min(...p.cubes.map((c) => c[1]))];
}

export interface PlacerHooks {
  /** Play this placement. */
  place(p: Placement): void;
  /** Redraw: the ghost (or null), the columns to mark, the keyboard cursor. */
  draw(ghost: Placement | null, cells: [number, number][], cursor: [number, number] | null): void;
}

export class Placer {
  placements: Placement[] = [];
  private index = new Map<string, Placement>();
  selected: { stone: string; orientation: number } | null = null;
  cursor: [number, number] | null = null;
  current: Placement | null = null;
  private enabled = false;
  private letter: Letter = "X";
  private trayEl: HTMLElement | null = null;
  private turnsEl: HTMLElement | null = null;
  private stonesLeft: string[] = [];
  private trayLabel = "";
  /** The "Place" button while a stone is picked: enabled while the ghost stands on a place. */
  private placeButton: HTMLButtonElement | null = null;
  private toldTapAgain = false;

  constructor(
    private view: Structure3D,
    private stones: Map<string, StoneInfo>,
    private hooks: PlacerHooks,
  ) {
    const canvas = view.canvas;
    // Only a mouse hovers: a finger's moves are drags that turn the structure, and must not
    // carry the ghost along.
    canvas.addEventListener("pointermove", (e) => e.pointerType === "mouse" && this.pointer(e.clientX, e.clientY));
    let down: [number, number] | null = null;
    canvas.addEventListener("pointerdown", (e) => (down = [e.clientX, e.clientY]));
    canvas.addEventListener("pointerup", (e) => {
      // A click, not the end of a drag that turned the structure. A mouse's click places
      // what its hover already showed; a touch (or pen) has shown nothing yet, so its tap
      // only moves the ghost there, and a tap on the ghost places it.
      if (down && Math.hypot(e.clientX - down[0], e.clientY - down[1]) < 6) this.click(e.clientX, e.clientY, e.pointerType !== "mouse");
      down = null;
    });
  }

  /** New legal placements (after every change of the position). */
  set(placements: Placement[], letter: Letter, enabled: boolean, stonesLeft: string[]) {
    this.placements = placements;
    this.letter = letter;
    this.enabled = enabled;
    this.stonesLeft = stonesLeft;
    this.index.clear();
    for (const p of placements) {
      const [sx, sy] = shiftOf(p);
      this.index.set(`${p.stone}|${p.orientation}|${sx},${sy}`, p);
    }
    if (!enabled || (this.selected && !stonesLeft.includes(this.selected.stone))) this.selected = null;
  }

  /** Where the tray and the turn buttons go. */
  attach(tray: HTMLElement, turns: HTMLElement, label: string) {
    this.trayEl = tray;
    this.turnsEl = turns;
    this.trayLabel = label;
  }

  renderTray() {
    const tray = this.trayEl;
    if (!tray) return;
    tray.replaceChildren();
    this.turnsEl?.replaceChildren();
    this.placeButton = null;
    if (!this.stonesLeft.length) return;
    const stones: TrayStone[] = [];
    for (const code of this.stonesLeft) {
      const info = this.stones.get(code);
      if (!info) continue;
      const sel = this.selected?.stone === code;
      const count = this.placements.filter((p) => p.stone === code).length;
      stones.push({ info, count, selected: sel, orientation: sel ? this.selected!.orientation : (this.bestOrientation(code) ?? 0) });
    }
    tray.append(h("div", { class: "label" }, this.trayLabel), stonesGrid(stones, this.letter, this.enabled, (code) => this.select(code)));
    const sel = this.selected;
    if (this.enabled && sel && this.turnsEl) {
      const panel = turnsPanel(
        { info: this.stones.get(sel.stone)!, letter: this.letter, orientation: sel.orientation, counts: this.orientationCounts(sel.stone) },
        { orient: (o) => this.orient(o), turn: (axis) => this.turn(axis), cycle: (dir) => this.cycle(dir), place: () => this.commit() },
      );
      this.placeButton = panel.place;
      this.placeButton.disabled = !this.current;
      this.turnsEl.append(...panel.nodes);
    }
  }

  /** How many legal places a stone has in each orientation that has one. */
  orientationCounts(code: string): Map<number, number> {
    const counts = new Map<number, number>();
    for (const p of this.placements) if (p.stone === code) counts.set(p.orientation, (counts.get(p.orientation) ?? 0) + 1);
    return counts;
  }

  /** The orientation with the most places for a stone (the one it is picked up in). */
  private bestOrientation(code: string): number | null {
    const counts = this.orientationCounts(code);
    if (counts.size === 0) return null;
    return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
  }

  /** The legal placements of the chosen stone in its chosen orientation. */
  orientationPlacements(): Placement[] {
    const sel = this.selected;
    if (!sel) return [];
    return this.placements.filter((p) => p.stone === sel.stone && p.orientation === sel.orientation);
  }

  select(code: string) {
    if (!this.enabled) return;
    const most = this.bestOrientation(code);
    if (most === null) return;
    // Keep the orientation when the stone is chosen again; else the one with the most places.
    const orientation = this.selected?.stone === code ? this.selected.orientation : most;
    this.selected = { stone: code, orientation };
    if (!this.cursor) {
      const first = this.orientationPlacements()[0];
      if (first) this.cursor = this.anchorColumn(first);
    }
    this.renderTray();
    this.update();
  }

  drop() {
    this.selected = null;
    this.renderTray();
    this.update();
  }

  /** Pick an orientation from the strip; the ghost goes to its place nearest the cursor. */
  orient(orientation: number) {
    const sel = this.selected;
    if (!sel) return;
    const list = this.placements.filter((p) => p.stone === sel.stone && p.orientation === orientation);
    if (!list.length) return;
    sel.orientation = orientation;
    const [cx, cy] = this.cursor ?? this.anchorColumn(list[0]);
    const dist = (p: Placement) => {
      const [x, y] = this.anchorColumn(p);
      return Math.hypot(x - cx, y - cy);
    };
    this.cursor = this.anchorColumn(list.reduce((a, b) => (dist(b) < dist(a) ? b : a)));
    this.renderTray();
    this.update();
  }

  /** Place the ghost's placement (the "Place" button, Enter). */
  commit() {
    if (this.enabled && this.current) this.hooks.place(this.current);
  }

  turn(axis: number) {
    const sel = this.selected;
    if (!sel) return;
    sel.orientation = this.stones.get(sel.stone)!.turns[sel.orientation][axis];
    this.renderTray();
    this.update();
  }

  /** The cube of a placement the pointer aims at: its anchor column's lowest cube of the stone. */
  anchorCube(p: Placement): Xyz {
    const [x, y] = this.anchorColumn(p);
    const zs = p.cubes.filter((c) => c[0] === x && c[1] === y).map((c) => c[2]);
    return [x, y, Math.min(...zs)];
  }

  anchorColumn(p: Placement): [number, number] {
    const [ax, ay] = anchorOf(this.stones.get(p.stone)!.orientations[p.orientation]);
    const [sx, sy] = shiftOf(p);
    return [sx + ax, sy + ay];
  }

  /** The chosen stone's placement for a column: exact, or the nearest within reach. */
  private placementAt(cursor: [number, number], reach: number): Placement | null {
    const sel = this.selected;
    if (!sel) return null;
    const [ax, ay] = anchorOf(this.stones.get(sel.stone)!.orientations[sel.orientation]);
    const exact = this.index.get(`${sel.stone}|${sel.orientation}|${cursor[0] - ax},${cursor[1] - ay}`);
    if (exact) return exact;
    let best: Placement | null = null;
    let bestD = reach + 1e-9;
    for (const p of this.orientationPlacements()) {
      const [x, y] = this.anchorColumn(p);
      const d = Math.hypot(x - cursor[0], y - cursor[1]);
      if (d <= bestD) {
        bestD = d;
        best = p;
      }
    }
    return best;
  }

  update() {
    const on = this.enabled && this.selected !== null;
    this.current = on && this.cursor ? this.placementAt(this.cursor, 1.5) : null;
    const cells = on ? this.orientationPlacements().map((p) => this.anchorColumn(p)) : [];
    this.hooks.draw(this.current, cells, on ? this.cursor : null);
    document.body.dataset.ghost = this.current ? this.current.placement : "";
    if (this.placeButton) this.placeButton.disabled = !this.current;
  }

  private pointer(x: number, y: number) {
    if (!this.enabled || !this.selected) return;
    this.cursor = this.view.pick(x, y);
    this.update();
  }

  private click(x: number, y: number, preview: boolean) {
    if (!this.enabled) return;
    if (preview && this.current && this.view.hitsGhost(x, y)) return this.hooks.place(this.current);
    const col = this.view.pick(x, y);
    if (!col) return;
    // A click that does nothing leaves a newcomer guessing: say what is missing.
    if (!this.selected) return toast(t("game.toast.pick_first"));
    this.cursor = col;
    this.update();
    if (!this.current) toast(t("game.toast.no_place_here", { stone: this.selected.stone }));
    else if (!preview) this.hooks.place(this.current);
    else if (!this.toldTapAgain) {
      // Once: a newcomer used to "a tap places" learns why nothing was placed.
      this.toldTapAgain = true;
      toast(t("game.toast.tap_again"));
    }
  }

  /** The next (or previous) place for the chosen stone, in any orientation. */
  cycle(dir: number) {
    if (!this.enabled) return;
    if (!this.selected) {
      const first = this.placements[0];
      if (!first) return;
      this.select(first.stone);
    }
    const sel = this.selected!;
    const list = this.placements.filter((p) => p.stone === sel.stone);
    if (!list.length) return;
    const i = this.current ? list.findIndex((p) => p.placement === this.current!.placement) : -1;
    const next = list[(i + dir + list.length) % list.length];
    sel.orientation = next.orientation;
    this.cursor = this.anchorColumn(next);
    this.renderTray();
    this.update();
  }

  stepStone(dir: number) {
    if (!this.enabled) return;
    const left = this.stonesLeft.filter((code) => this.placements.some((p) => p.stone === code));
    if (!left.length) return;
    const i = this.selected ? left.indexOf(this.selected.stone) : -1;
    this.select(left[(i + dir + left.length) % left.length]);
  }

  moveCursor(dx: number, dy: number, files: number, ranks: number) {
    if (!this.selected) return;
    const [x, y] = this.cursor ?? [0, 0];
    this.cursor = [Math.min(Math.max(x + dx, 0), files - 1), Math.min(Math.max(y + dy, 0), ranks - 1)];
    this.update();
  }

  /** The placing keys; true when the key was one of them. */
  key(k: string, files: number, ranks: number): boolean {
    switch (k) {
      case "[":
        this.stepStone(-1);
        return true;
      case "]":
        this.stepStone(1);
        return true;
      case "r":
      case "R":
        this.turn(2);
        return true;
      case "t":
      case "T":
        this.turn(0);
        return true;
      case "y":
      case "Y":
        this.turn(1);
        return true;
      case "n":
      case "N":
        this.cycle(1);
        return true;
      case "p":
      case "P":
        this.cycle(-1);
        return true;
      case "ArrowLeft":
        this.moveCursor(-1, 0, files, ranks);
        return true;
      case "ArrowRight":
        this.moveCursor(1, 0, files, ranks);
        return true;
      case "ArrowUp":
        this.moveCursor(0, 1, files, ranks);
        return true;
      case "ArrowDown":
        this.moveCursor(0, -1, files, ranks);
        return true;
      case "Escape":
        this.drop();
        return true;
    }
    return false;
  }
}

/** The view keys shared by every page with a structure: turn, zoom, top view, reset. */
export function viewKey(view: Structure3D, k: string, toggleTop: () => void): boolean {
  switch (k) {
    case "q":
    case "Q":
      view.rotateBy(-Math.PI / 8);
      return true;
    case "e":
    case "E":
      view.rotateBy(Math.PI / 8);
      return true;
    case "+":
    case "=":
      view.zoom(0.85);
      return true;
    case "-":
      view.zoom(1.18);
      return true;
    case "v":
    case "V":
      toggleTop();
      return true;
    case "0":
      view.resetView();
      return true;
  }
  return false;
}

/** The buttons over the structure: turntable, zoom, top view, reset. */
export function viewTools(view: Structure3D, toggleTop: () => void): HTMLElement {
  return h(
    "div",
    { class: "view-tools" },
    h("button", { title: t("game.view.left_title"), "aria-label": t("game.view.left"), onclick: () => view.rotateBy(-Math.PI / 8) }, "⟲"),
    h("button", { title: t("game.view.right_title"), "aria-label": t("game.view.right"), onclick: () => view.rotateBy(Math.PI / 8) }, "⟳"),
    h("button", { title: t("game.view.zoom_in_title"), "aria-label": t("game.view.zoom_in"), onclick: () => view.zoom(0.85) }, "+"),
    h("button", { title: t("game.view.zoom_out_title"), "aria-label": t("game.view.zoom_out"), onclick: () => view.zoom(1.18) }, "−"),
    h("button", { id: "top-view", title: t("game.view.top_title"), onclick: toggleTop }, t("game.view.top")),
    h("button", { title: t("game.view.reset_title"), "aria-label": t("game.view.reset"), onclick: () => view.resetView() }, "⌂"),
  );
}

/** Keystrokes meant for a text field are not moves. */
export function typing(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  // A checkbox just ticked keeps the focus: the keys still play.
  const box = t instanceof HTMLInputElement && (t.type === "checkbox" || t.type === "radio");
  return (!!t && !box && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) || e.ctrlKey || e.metaKey || e.altKey;
}
