// The text mode (issue #54): the game for a screen reader. The structure is a table of its
// columns; every move is said in words in a live region; a stone is placed by typing its
// notation (with the legal placements offered as completions) or by choosing one of a
// stone's legal placements, listed in words; buttons ask the score, whose turn it is, the
// time left and what a column holds. Its controls stay in place between renders (only their
// contents change), so the focus never jumps. The placements are the core's list; typed text
// goes to the core as it is, which reads it (any case, any column order) or says why not.
import type { GameState, Placement } from "../wire";
import { t } from "../i18n";
import { h } from "../ui";
import { cellNames, columnWords, findColumn, placementWords, scoreWords } from "./textwords";

export interface TextModeHooks {
  /** Play this placement text (typed, or chosen): the core reads and judges it; true if played. */
  place(text: string): Promise<boolean>;
  /** Whose turn it is, in words (the status line). */
  turn(): string;
  /** The time left, in words, or null for a game without a clock. */
  time(): string | null;
}

/** The log keeps the last few lines: a screen reader reads each as it comes. */
const LOG_LINES = 8;

export class TextMode {
  readonly el: HTMLElement;
  private log = h("div", { id: "text-log", class: "text-log", role: "log", "aria-live": "polite", "aria-labelledby": "text-log-title", tabindex: 0 });
  private answer = h("p", { id: "text-answer", class: "text-answer", role: "status", "aria-live": "polite" });
  private notation = h("input", { id: "text-move", type: "text", autocomplete: "off", spellcheck: "false", list: "text-move-list", "aria-describedby": "text-move-help" });
  private completions = h("datalist", { id: "text-move-list" });
  private placeTyped = h("button", { type: "submit", id: "text-move-go" }, t("blind.place"));
  private stone = h("select", { id: "text-stone" });
  private places = h("select", { id: "text-places", size: 6 });
  private placeChosen = h("button", { type: "button", id: "text-places-go" }, t("blind.place_chosen"));
  private column = h("input", { id: "text-column", type: "text", autocomplete: "off", spellcheck: "false", size: 5 });
  private table = h("tbody");
  private state: GameState | null = null;
  private placements: Placement[] = [];
  private canPlay = false;
  private shown = "";

  constructor(private hooks: TextModeHooks) {
    const form = h(
      "form",
      { class: "text-move", id: "text-move-form", onsubmit: (e: Event) => (e.preventDefault(), this.submitTyped()) },
      h("label", { for: "text-move" }, t("blind.notation")),
      h("div", { class: "text-row" }, this.notation, this.placeTyped),
      this.completions,
      h("p", { class: "small", id: "text-move-help" }, t("blind.notation_help")),
    );
    this.stone.addEventListener("change", () => this.fillPlaces());
    this.placeChosen.addEventListener("click", () => this.submitChosen());
    // Enter on a placement of the list places it, as the button does.
    this.places.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        this.submitChosen();
      }
    });
    const chooser = h(
      "div",
      { class: "text-chooser" },
      h("label", { for: "text-stone" }, t("blind.stone")),
      this.stone,
      h("label", { for: "text-places" }, t("blind.places")),
      h("div", { class: "text-places-wrap" }, this.places),
      this.placeChosen,
    );
    const ask = (id: string, label: string, say: () => string) => h("button", { type: "button", id, onclick: () => this.say(say()) }, label);
    const asks = h(
      "div",
      { class: "text-ask", role: "group", "aria-labelledby": "text-ask-title" },
      h("h3", { id: "text-ask-title" }, t("blind.ask")),
      h(
        "div",
        { class: "text-row" },
        ask("text-ask-score", t("blind.ask_score"), () => (this.state ? scoreWords(this.state) : "")),
        ask("text-ask-turn", t("blind.ask_turn"), () => this.hooks.turn()),
        ask("text-ask-time", t("blind.ask_time"), () => this.hooks.time() ?? t("blind.no_clock")),
      ),
      h(
        "form",
        { class: "text-row", onsubmit: (e: Event) => (e.preventDefault(), this.say(this.columnAnswer())) },
        h("label", { for: "text-column" }, t("blind.column")),
        this.column,
        h("button", { type: "submit", id: "text-ask-column" }, t("blind.ask_column")),
      ),
      this.answer,
    );
    const heads = ["column", "file", "rank", "height", "top", "limit"].map((k) => h("th", { scope: "col" }, t(`blind.th_${k}`)));
    const table = h("table", { class: "text-columns", id: "text-columns" }, h("caption", { id: "text-table-caption" }, t("blind.table")), h("thead", {}, h("tr", {}, ...heads)), this.table);
    this.el = h(
      "section",
      { class: "text-mode", id: "text-mode", "aria-labelledby": "text-mode-title" },
      h("h2", { id: "text-mode-title" }, t("blind.title")),
      h("h3", { id: "text-log-title" }, t("blind.log")),
      this.log,
      form,
      chooser,
      asks,
      // It scrolls: the keys scroll it too, once it has the focus.
      h("div", { class: "text-table-wrap", tabindex: 0, role: "region", "aria-labelledby": "text-table-caption" }, table),
    );
  }

  /** A line for the live region: a move, whose turn it is, an error. */
  announce(text: string) {
    this.log.append(h("p", {}, text));
    while (this.log.childElementCount > LOG_LINES) this.log.firstElementChild!.remove();
  }

  private say(text: string) {
    // The same words asked twice are read again: the region changes in between.
    this.answer.textContent = "";
    window.setTimeout(() => (this.answer.textContent = text), 50);
  }

  private columnAnswer(): string {
    const name = this.column.value;
    if (!this.state || !name.trim()) return t("blind.no_column", { cell: name.trim() });
    const c = findColumn(this.state, name);
    return c ? columnWords(c) : t("blind.no_column", { cell: name.trim() });
  }

  /** The state shown, the mover's legal placements (the core's) and whether they are ours to play. */
  render(state: GameState, placements: Placement[] | null, canPlay: boolean) {
    this.state = state;
    this.placements = canPlay ? (placements ?? []) : [];
    this.canPlay = canPlay;
    this.renderTable(state);
    // The lists are filled again only when they change: a screen reader's place in them stays.
    const key = `${state.move_number}|${canPlay}|${this.placements.length}`;
    if (key !== this.shown) {
      this.shown = key;
      this.renderChooser();
    }
    // Never disabled: a control that is disabled under the focus drops it (to the page's
    // start) at every turn of the others; pressed out of turn, it says so instead.
  }

  private renderTable(s: GameState) {
    const rows = [...s.position.columns]
      .sort((a, b) => a.x - b.x || a.y - b.y)
      .map((c) => {
        const file = c.cell.replace(/\d+$/, "");
        const rank = c.cell.slice(file.length);
        return h(
          "tr",
          { "data-cell": c.cell },
          h("th", { scope: "row" }, c.cell),
          h("td", {}, file),
          h("td", {}, rank),
          h("td", {}, String(c.height)),
          h("td", {}, c.top ? t(`common.colour.${c.top}`) : t("blind.none")),
          h("td", {}, String(c.limit)),
        );
      });
    this.table.replaceChildren(...rows);
  }

  private stonesWithPlaces(): [string, number][] {
    const counts = new Map<string, number>();
    for (const p of this.placements) counts.set(p.stone, (counts.get(p.stone) ?? 0) + 1);
    return [...counts];
  }

  private renderChooser() {
    const keep = this.stone.value;
    const stones = this.stonesWithPlaces();
    this.stone.replaceChildren(...stones.map(([code, count]) => h("option", { value: code }, t("blind.stone_option", { stone: code, count }))));
    if (stones.some(([code]) => code === keep)) this.stone.value = keep;
    this.completions.replaceChildren(...this.placements.map((p) => h("option", { value: p.placement })));
    this.fillPlaces();
  }

  private fillPlaces() {
    const cells = this.state ? cellNames(this.state) : new Map<string, string>();
    const mine = this.placements.filter((p) => p.stone === this.stone.value);
    this.places.replaceChildren(...mine.map((p, i) => h("option", { value: p.placement, selected: i === 0 }, placementWords(p.stone, p.cubes, cells))));
  }

  private submitTyped() {
    const text = this.notation.value.trim();
    if (!text) return this.announce(t("blind.type_first"));
    if (!this.canPlay) return this.announce(t("game.error.not_your_turn"));
    // What was typed stays until the core has taken it (a refused text can be mended).
    void this.hooks.place(text).then((ok) => ok && (this.notation.value = ""));
  }

  private submitChosen() {
    const text = this.places.value;
    if (!this.canPlay || !text) return this.announce(t("game.error.not_your_turn"));
    void this.hooks.place(text);
  }
}
