// The board in 3D for 2, 3 or 4 players (tabs): the space a game may fill, each cell up to
// its height limit, as the core last read the board. While the board is refused it keeps
// the last board the core accepted, marked as such.
import { h } from "../ui";
import { t } from "../i18n";
import { fitCamera } from "../fit";
import { Structure3D } from "../view3d";
import { COUNTS, Emitter } from "./state";
import type { Count } from "./state";
import type { CheckedBoard } from "../wire";

export interface PreviewEvents {
  /** The player count shown changed. */
  count: Count;
}

export class PreviewView extends Emitter<PreviewEvents> {
  readonly el: HTMLElement;
  private view: Structure3D | null = null;
  private stage: HTMLElement;
  private facts: HTMLElement;
  private tabs: HTMLButtonElement[];
  private board: CheckedBoard | null = null;
  private shown: Count = 2;
  private drawn = "";

  constructor() {
    super();
    this.tabs = COUNTS.map(
      (c) =>
        h(
          "button",
          { type: "button", role: "tab", class: "ed-tab", id: `preview-${c}`, "aria-selected": "false", onclick: () => this.setCount(c) },
          t("editor.preview.players", { count: c }),
        ) as HTMLButtonElement,
    );
    this.stage = h("div", { class: "ed-stage", id: "ed-preview" });
    this.facts = h("p", { class: "small", id: "ed-preview-facts", "aria-live": "polite" });
    this.el = h("section", { class: "ed-preview" }, h("h2", {}, t("editor.preview.title")), h("div", { class: "ed-tabs", role: "tablist" }, ...this.tabs), this.stage, this.facts);
    this.markTabs();
  }

  get count() {
    return this.shown;
  }

  setCount(c: Count) {
    this.shown = c;
    this.markTabs();
    this.draw();
    this.emit("count", c);
  }

  /** The board the core accepted last (`stale`: the draft has changed and is refused since). */
  show(board: CheckedBoard | null, stale: boolean) {
    if (board) this.board = board;
    this.el.classList.toggle("stale", stale);
    this.draw();
    if (stale) this.facts.textContent = this.board ? t("editor.preview.stale") : "";
  }

  private markTabs() {
    this.tabs.forEach((b, i) => {
      const on = COUNTS[i] === this.shown;
      b.classList.toggle("on", on);
      b.setAttribute("aria-selected", String(on));
    });
  }

  private draw() {
    const b = this.board;
    if (!b) return;
    // One view for the page, made when there is first something to show (WebGL contexts are few).
    this.view ??= new Structure3D(this.stage);
    const key = `${this.shown}` as const;
    const layout = b.layouts[key];
    // Drawn again only when the shape changed: a new name or fact leaves the picture (and
    // the camera the person may have turned) as it is.
    const drawn = JSON.stringify([b.files, b.ranks, layout]);
    if (drawn !== this.drawn) {
      this.drawn = drawn;
      this.view.setBoard(b.files, b.ranks, layout.cells, layout.hmax);
      this.view.setColumns([]);
      this.view.setVolume(layout.cells);
      fitCamera(this.view.camera, this.view.controls, b.files, b.ranks, Math.max(1, ...layout.cells.map((c) => c.limit)));
    }
    this.stage.dataset.board = b.name;
    this.stage.dataset.players = key;
    this.stage.dataset.columns = String(b.columns[key]);
    const frame = b.frames[key];
    this.facts.textContent = [
      t("editor.preview.columns", { count: b.columns[key] }),
      t("editor.preview.hmax", { hmax: b.hmax[key] }),
      t("editor.preview.volume", { count: b.volume[key] }),
      frame ? t("editor.preview.frame", { frame: frame.text }) : t("editor.preview.noFrame"),
    ].join(" · ");
  }

  /** The frame of the count shown, as the core read it (for the grid to draw). */
  frame() {
    return this.board?.frames[`${this.shown}`] ?? null;
  }
}
