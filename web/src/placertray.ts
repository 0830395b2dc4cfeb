// What the placer shows beside the structure: the tray of stones, and for the stone picked
// the strip of its orientations that have a place, the turn buttons, "next place" and
// "Place". Only drawing: every number comes from the placer (placer.ts), which takes it from
// the legal placements it was given, and every button calls back into it.
import type { Letter, StoneInfo } from "./wire";
import { t } from "./i18n";
import { stoneThumbnail } from "./thumbs";
import { h, stoneIcon } from "./ui";

/** A stone's picture in one orientation (a flat icon where there is no 2D canvas). */
function picture(info: StoneInfo, orientation: number, letter: Letter, size: number): HTMLElement | SVGElement {
  const url = stoneThumbnail(info, orientation, letter);
  return url ? h("img", { src: url, alt: "", width: size, height: size, "data-orientation": orientation }) : stoneIcon(info, orientation, letter);
}

export interface TrayStone {
  info: StoneInfo;
  /** Its legal places in any orientation. */
  count: number;
  /** The orientation its picture shows. */
  orientation: number;
  selected: boolean;
}

export function stonesGrid(stones: TrayStone[], letter: Letter, enabled: boolean, pick: (code: string) => void): HTMLElement {
  const grid = h("div", { class: "stones" });
  for (const s of stones) {
    const code = s.info.code;
    grid.append(
      h(
        "button",
        {
          class: `stone ${s.selected ? "selected" : ""} ${s.count === 0 ? "blocked" : ""}`,
          "data-stone": code,
          disabled: !enabled || s.count === 0,
          title: s.count === 0 ? t("game.tray.no_place", { stone: code }) : t("game.tray.places", { stone: code, count: s.count }),
          onclick: () => pick(code),
        },
        picture(s.info, s.orientation, letter, 52),
        h("span", {}, code),
      ),
    );
  }
  return grid;
}

export interface TurnsView {
  info: StoneInfo;
  letter: Letter;
  orientation: number;
  /** The places of each orientation that has one, by orientation. */
  counts: Map<number, number>;
}

export interface TurnsActions {
  orient(orientation: number): void;
  turn(axis: number): void;
  cycle(dir: number): void;
  place(): void;
}

/**
 * The picked stone's controls. Returns the "Place" button too, which the placer enables
 * whenever the ghost stands on a place (the cursor moves without a redraw of these).
 */
export function turnsPanel(v: TurnsView, act: TurnsActions): { nodes: HTMLElement[]; place: HTMLButtonElement } {
  const stone = v.info.code;
  // Every orientation with a place, in the engine's order (so the pictures stand still as
  // the stone is turned): one click picks the one wanted instead of turning towards it.
  const strip = h("div", { class: "orientations", id: "orientations", role: "group", "aria-label": t("game.orient.label", { stone }) });
  for (const [o, n] of [...v.counts.entries()].sort((a, b) => a[0] - b[0])) {
    const on = o === v.orientation;
    strip.append(
      h(
        "button",
        {
          class: `orient ${on ? "selected" : ""}`,
          "data-orientation": o,
          "data-count": n,
          "aria-pressed": on ? "true" : "false",
          title: t("game.orient.title", { count: n }),
          onclick: () => act.orient(o),
        },
        picture(v.info, o, v.letter, 36),
        h("span", { class: "orient-count" }, String(n)),
      ),
    );
  }
  const n = v.counts.get(v.orientation) ?? 0;
  const key = (k: string) => h("kbd", {}, k);
  const place = h("button", { id: "place", class: "primary", title: t("game.place.title"), disabled: true, onclick: () => act.place() }, t("game.place.label"));
  return {
    place,
    nodes: [
      h("div", { class: "label orient-head" }, t("game.orient.label", { stone })),
      strip,
      h(
        "div",
        { class: "turn-row" },
        h("button", { id: "prev-place", title: t("game.cycle.prev_title"), onclick: () => act.cycle(-1) }, t("game.cycle.prev"), " ", key("P")),
        h("button", { id: "next-place", title: t("game.cycle.next_title"), onclick: () => act.cycle(1) }, t("game.cycle.next"), " ", key("N")),
        place,
      ),
      h(
        "div",
        { class: "turn-row" },
        h("button", { id: "turn-z", title: t("game.turn.turn_title"), onclick: () => act.turn(2) }, t("game.turn.turn")),
        h("button", { id: "turn-x", title: t("game.turn.tip_title"), onclick: () => act.turn(0) }, t("game.turn.tip")),
        h("button", { id: "turn-y", title: t("game.turn.roll_title"), onclick: () => act.turn(1) }, t("game.turn.roll")),
        h("span", { class: "small", id: "orientation-count" }, n ? t("game.turn.count", { count: n }) : t("game.turn.none")),
      ),
    ],
  };
}
