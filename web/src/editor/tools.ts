// The brush the grid paints with: the footprint (a cell buildable or not), a printed
// height 1–9 or none, or a red frame for a player count (a rectangle dragged on the grid).
import { h } from "../ui";
import { t } from "../i18n";
import { COUNTS, Emitter } from "./state";
import type { Count } from "./state";

export type Tool = { kind: "footprint" } | { kind: "height"; value: number } | { kind: "frame"; count: Count };

export interface ToolEvents {
  tool: Tool;
}

export class ToolPicker extends Emitter<ToolEvents> {
  readonly el: HTMLElement;
  private current: Tool = { kind: "footprint" };
  private buttons: { tool: Tool; el: HTMLButtonElement }[] = [];

  constructor() {
    super();
    const button = (tool: Tool, label: string, title: string, id: string) => {
      const el = h("button", { type: "button", class: "ed-tool", id, title, "aria-pressed": "false", onclick: () => this.pick(tool) }, label);
      this.buttons.push({ tool, el });
      return el;
    };
    const heights = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((v) =>
      button(
        { kind: "height", value: v },
        v === 0 ? t("editor.tools.none") : String(v),
        v === 0 ? t("editor.tools.noneTitle") : t("editor.tools.heightTitle", { height: v }),
        `tool-height-${v}`,
      ),
    );
    const frames = COUNTS.map((c) => button({ kind: "frame", count: c }, t("editor.tools.frameFor", { count: c }), t("editor.tools.frameTitle", { count: c }), `tool-frame-${c}`));
    this.el = h(
      "div",
      { class: "ed-tools", role: "toolbar", "aria-label": t("editor.tools.label") },
      h("div", { class: "ed-tool-row" }, button({ kind: "footprint" }, t("editor.tools.footprint"), t("editor.tools.footprintTitle"), "tool-footprint")),
      h("div", { class: "ed-tool-row" }, h("span", { class: "label" }, t("editor.tools.height")), ...heights),
      h("div", { class: "ed-tool-row" }, h("span", { class: "label" }, t("editor.tools.frame")), ...frames),
    );
    this.mark();
  }

  get tool() {
    return this.current;
  }

  pick(tool: Tool) {
    this.current = tool;
    this.mark();
    this.emit("tool", tool);
  }

  private mark() {
    for (const b of this.buttons) {
      const on = JSON.stringify(b.tool) === JSON.stringify(this.current);
      b.el.classList.toggle("on", on);
      b.el.setAttribute("aria-pressed", String(on));
    }
  }
}
