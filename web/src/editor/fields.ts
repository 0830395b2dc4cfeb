// The board's fields besides its cells: name, aliases, provenance, source, grid size, Hmax
// per player count, the red frames as text, and the evidence the file carries. Each group
// has a place for the core's refusal when its line is the one the message names.
import { h } from "../ui";
import { t } from "../i18n";
import { COUNTS, MAX_FILES, MAX_RANKS } from "./state";
import type { Count, EditorState } from "./state";
import type { Fault } from "./check";
import type { Target } from "./toml";
import type { CheckedBoard } from "../wire";

/** The groups a refusal can be shown at. */
type Slot = "name" | "aliases" | "provenance" | "source" | "hmax" | "frames";

export class FieldsView {
  readonly el: HTMLElement;
  private inputs: Record<string, HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement> = {};
  private slots = {} as Record<Slot, HTMLElement>;
  private evidenceList: HTMLElement;
  /** The core's words for each evidence entry's constraints, from the last board it read. */
  private evidenceTexts: string[][] = [];
  private fault: { target: Target; fault: Fault } | null = null;

  constructor(private state: EditorState) {
    const s = state;
    const slot = (name: Slot) => (this.slots[name] = h("div", { class: "ed-fault", id: `fault-${name}`, role: "alert" }));
    const input = (key: string, attrs: Record<string, string | number>, on: (v: string) => void) => {
      const el = h("input", { id: `ed-${key}`, ...attrs }) as HTMLInputElement;
      el.addEventListener("input", () => on(el.value));
      this.inputs[key] = el;
      return el;
    };
    const field = (label: string, control: HTMLElement, slotName?: Slot) =>
      h("label", { class: "ed-field" }, h("span", { class: "label" }, label), control, slotName ? slot(slotName) : null);

    const provenance = h(
      "select",
      { id: "ed-provenance" },
      h("option", { value: "reconstruction" }, t("editor.fields.reconstruction")),
      h("option", { value: "printed-rules" }, t("editor.fields.printedRules")),
    ) as HTMLSelectElement;
    provenance.addEventListener("change", () => s.setMeta({ provenance: provenance.value as "printed-rules" | "reconstruction" }));
    this.inputs.provenance = provenance;
    const source = h("textarea", { id: "ed-source", rows: 3 }) as HTMLTextAreaElement;
    source.addEventListener("input", () => s.setMeta({ source: source.value }));
    this.inputs.source = source;

    const size = h(
      "div",
      { class: "ed-field" },
      h("span", { class: "label" }, t("editor.fields.size")),
      h(
        "div",
        { class: "ed-inline" },
        h("label", {}, t("editor.fields.files"), " ", input("files", { type: "number", min: 1, max: MAX_FILES }, (v) => s.resize(Number(v), s.draft.ranks))),
        h("label", {}, t("editor.fields.ranks"), " ", input("ranks", { type: "number", min: 1, max: MAX_RANKS }, (v) => s.resize(s.draft.files, Number(v)))),
      ),
      h("span", { class: "small" }, t("editor.fields.sizeHint", { files: MAX_FILES, cells: 128 })),
    );
    const perCount = (title: string, key: "hmax" | "frame", make: (c: Count) => HTMLElement, slotName: Slot) =>
      h(
        "div",
        { class: "ed-field", id: `ed-${key}-group` },
        h("span", { class: "label" }, title),
        h("div", { class: "ed-inline" }, ...COUNTS.map((c) => h("label", { class: "ed-count" }, t("editor.fields.players", { count: c }), make(c)))),
        slot(slotName),
      );
    const hmax = perCount(t("editor.fields.hmax"), "hmax", (c) => input(`hmax-${c}`, { type: "number", min: 1, max: 15, class: "ed-num" }, (v) => s.setHmax(c, v)), "hmax");
    const frames = perCount(
      t("editor.fields.frames"),
      "frame",
      (c) =>
        h(
          "span",
          { class: "ed-frame" },
          input(`frame-${c}`, { type: "text", placeholder: t("editor.fields.noFrame"), size: 7, spellcheck: "false" }, (v) => s.setFrame(c, v)),
          h("button", { type: "button", class: "ed-clear", title: t("editor.fields.clearFrame", { count: c }), "aria-label": t("editor.fields.clearFrame", { count: c }), onclick: () => s.setFrame(c, "") }, "×"),
        ),
      "frames",
    );
    this.evidenceList = h("div", { class: "ed-evidence", id: "ed-evidence" });

    this.el = h(
      "div",
      { class: "ed-fields" },
      field(t("editor.fields.name"), input("name", { type: "text", maxlength: 60 }, (v) => s.setMeta({ name: v })), "name"),
      field(
        t("editor.fields.aliases"),
        input("aliases", { type: "text", placeholder: t("editor.fields.aliasesHint") }, (v) =>
          s.setMeta({ aliases: v.split(",").map((a) => a.trim()).filter(Boolean) }),
        ),
        "aliases",
      ),
      field(t("editor.fields.provenance"), provenance, "provenance"),
      field(t("editor.fields.source"), source, "source"),
      size,
      hmax,
      frames,
      h("div", { class: "ed-field" }, h("span", { class: "label" }, t("editor.fields.evidence")), this.evidenceList),
    );
    state.on("change", () => this.fill());
    this.fill();
  }

  /** The draft's values into the inputs, except the one being typed in. */
  private fill() {
    const d = this.state.draft;
    const values: Record<string, string> = {
      name: d.name,
      aliases: d.aliases.join(", "),
      provenance: d.provenance,
      source: d.source,
      files: String(d.files),
      ranks: String(d.ranks),
    };
    for (const c of COUNTS) {
      values[`hmax-${c}`] = d.hmax[c];
      values[`frame-${c}`] = d.frames[c];
    }
    for (const [k, v] of Object.entries(values)) {
      const el = this.inputs[k];
      if (el && el !== document.activeElement && el.value !== v) el.value = v;
    }
    this.renderEvidence();
  }

  /** What the core read last: the words of each evidence constraint. */
  showBoard(board: CheckedBoard) {
    this.evidenceTexts = board.evidence.map((e) => e.constraints.map((c) => c.text));
    this.renderEvidence();
  }

  /** The core's refusal next to the field its line holds (or nowhere here, when it is elsewhere). */
  showFault(target: Target | null, fault: Fault | null) {
    this.fault = target && fault ? { target, fault } : null;
    for (const el of Object.values(this.slots)) el.textContent = "";
    for (const el of Object.values(this.inputs)) el.classList.remove("ed-bad");
    if (this.fault) {
      const tg = this.fault.target;
      const text = t("editor.fault", { line: fault!.line ?? "?", message: fault!.message });
      const at: Slot | null =
        tg.part === "grid" ? null : tg.part === "frame" ? "frames" : tg.part === "hmax" ? "hmax" : tg.part === "evidence" || tg.part === "head" ? null : tg.part;
      if (at) this.slots[at].textContent = text;
      // The grid's own refusals are shown at the grid (page.ts).
      const input =
        tg.part === "hmax" && tg.count ? this.inputs[`hmax-${tg.count}`] : tg.part === "frame" && tg.count ? this.inputs[`frame-${tg.count}`] : tg.part === "grid" ? null : this.inputs[tg.part];
      input?.classList.add("ed-bad");
    }
    this.renderEvidence();
  }

  private renderEvidence() {
    const d = this.state.draft;
    const fault = this.fault?.target.part === "evidence" ? this.fault : null;
    if (!d.evidence.length) {
      this.evidenceList.replaceChildren(h("p", { class: "small" }, t("editor.fields.noEvidence")));
      return;
    }
    this.evidenceList.replaceChildren(
      ...d.evidence.map((e, i) => {
        const texts = this.evidenceTexts.length === d.evidence.length ? this.evidenceTexts[i] : [];
        const bad = fault && fault.target.part === "evidence" && fault.target.index === i;
        return h(
          "div",
          { class: `ed-fact ${bad ? "ed-bad" : ""}`, "data-index": i },
          h("p", {}, e.fact),
          e.source ? h("p", { class: "small" }, t("editor.fields.factSource", { source: e.source })) : null,
          texts.length ? h("p", { class: "small" }, t("editor.fields.checks", { checks: texts.join("; ") })) : null,
          bad ? h("div", { class: "ed-fault", role: "alert" }, t("editor.fault", { line: fault.fault.line ?? "?", message: fault.fault.message })) : null,
          h("button", { type: "button", class: "ed-drop", onclick: () => this.state.dropEvidence(i) }, t("editor.fields.dropFact")),
        );
      }),
    );
  }
}
