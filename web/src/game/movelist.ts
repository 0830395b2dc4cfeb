// The list of moves beside the structure: number, colour, stone and notation, and after the
// move it followed each player who resigned, ran out of time, left or can place no more.
// Pointing at a move (or clicking it, which keeps it marked until the next move, Esc or a
// second click) asks for its stone to be highlighted.
import type { GameState, Letter } from "../wire";
import { t } from "../i18n";
import { colourName, h, swatch } from "../ui";
import { Emitter } from "./emitter";
import type { Line } from "./notices";
import { markBadge } from "./review";
import type { Mark } from "./review";

export interface MoveListEvents {
  /** Highlight this move's stone (null: none). */
  highlight: number | null;
}

export class MoveList extends Emitter<MoveListEvents> {
  readonly el: HTMLElement;
  private body: HTMLElement;
  private pinned: number | null = null;
  private count = -1;
  private shownLines = "";
  private marks = new Map<number, Mark>();
  private shownMarks = 0;

  constructor() {
    super();
    this.body = h("tbody");
    this.el = h(
      "section",
      { class: "movelist", id: "movelist", "aria-label": t("game.moves.title") },
      h("h2", {}, t("game.moves.title")),
      h(
        "div",
        // It scrolls: it takes the focus, so the keyboard scrolls it too (WCAG 2.1.1).
        { class: "movelist-scroll", tabindex: 0, role: "group", "aria-label": t("game.moves.title") },
        h(
          "table",
          {},
          h(
            "thead",
            {},
            h("tr", {}, h("th", {}, "#"), h("th", { "aria-label": t("game.moves.colour") }), h("th", {}, t("game.moves.stone")), h("th", {}, t("game.moves.notation"))),
          ),
          this.body,
        ),
      ),
    );
    this.el.addEventListener("mouseleave", () => this.emit("highlight", this.pinned));
  }

  /** The moves of this state and the departures between them; the newest in view. */
  render(state: GameState, lines: Line[] = []) {
    const moves = state.moves;
    const linesKey = JSON.stringify(lines.map((l) => [l.after, l.text]));
    if (moves.length === this.count && linesKey === this.shownLines && this.marks.size === this.shownMarks && this.body.children.length) return;
    this.shownMarks = this.marks.size;
    // A move marked stays so until the next one is played (it said "this one" for the rest
    // of the game, in a glow of no player's colour).
    const moved = this.count >= 0 && moves.length !== this.count;
    this.count = moves.length;
    this.shownLines = linesKey;
    if (this.pinned !== null && (moved || this.pinned > moves.length)) this.unpin();
    const departed = (after: number) =>
      lines
        .filter((l) => l.after === after)
        .map((l) =>
          h(
            "tr",
            { class: "departed", "data-why": l.departure.why, "data-colours": l.departure.colours.join(""), "data-after": l.after },
            h("td", {}),
            h("td", {}, ...l.departure.colours.map(swatch)),
            h("td", { colspan: 2, class: "small" }, l.text),
          ),
        );
    const rows = departed(0).concat(moves.flatMap((m) => [
      h(
        "tr",
        {
          "data-number": m.number,
          "data-colour": m.colour,
          class: m.number === this.pinned ? "pinned" : "",
          title: t("game.moves.row_title"),
          onmouseenter: () => this.emit("highlight", m.number),
          onclick: () => this.pin(m.number),
        },
        h("td", { class: "num" }, String(m.number)),
        h("td", { title: colourName(m.colour as Letter) }, swatch(m.colour as Letter)),
        h("td", { class: "stone-code" }, m.placement.split("@")[0]),
        h("td", { class: "notation" }, m.placement, this.marks.has(m.number) ? markBadge(this.marks.get(m.number)!) : null),
      ),
      // The pass rule (rules §6): who could not place after this move and passed.
      ...(m.passed ?? []).map((c) =>
        h("tr", { class: "passed", "data-passed": c, "data-after": m.number }, h("td", {}), h("td", {}, swatch(c)), h("td", { colspan: 2, class: "small" }, t("game.moves.passed", { colour: colourName(c) }))),
      ),
      ...departed(m.number),
    ]));
    if (!moves.length) rows.unshift(h("tr", {}, h("td", { colspan: 3, class: "small" }, t("game.moves.none"))));
    this.body.replaceChildren(...rows);
    const scroll = this.el.querySelector(".movelist-scroll") as HTMLElement;
    scroll.scrollTop = scroll.scrollHeight;
  }

  private pin(n: number | null) {
    this.pinned = this.pinned === n ? null : n;
    for (const tr of this.body.querySelectorAll("tr")) tr.classList.toggle("pinned", Number((tr as HTMLElement).dataset.number) === this.pinned);
    this.emit("highlight", this.pinned);
  }

  /** A review's marks by move number (drawn after the notation). */
  setMarks(marks: Map<number, Mark>) {
    this.marks = marks;
    this.count = -1;
  }

  /** No move marked any more. */
  unpin() {
    if (this.pinned !== null) this.pin(null);
  }

  get pinnedMove() {
    return this.pinned;
  }
}
