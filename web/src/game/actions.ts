// The buttons and settings under the tray, and the share links.
import type { GameState, Hint } from "../wire";
import { t } from "../i18n";
import { h, prefs } from "../ui";
import { playerName } from "./panels";
import { noMoreMoves } from "./ended";

export interface ActionHooks {
  hint(): void;
  undo(): void;
  /** A setting changed (`labels`, `sound`, `animate`, `limits`). */
  setting(name: string, on: boolean): void;
}

/** The settings and their defaults. */
export const SETTINGS: Record<string, boolean> = {
  labels: false,
  sound: false,
  // Stones dropping in, unless the system asks for less motion.
  animate: !window.matchMedia?.("(prefers-reduced-motion: reduce)").matches,
  limits: true,
  // The text mode, for a screen reader (game/textmode.ts); the start page has the same switch.
  blind: false,
};

function setting(name: string, hooks: ActionHooks) {
  return h(
    "label",
    { class: "opt" },
    h("input", {
      type: "checkbox",
      id: `opt-${name}`,
      checked: prefs.get(name, SETTINGS[name]),
      onchange: (e: Event) => {
        const on = (e.target as HTMLInputElement).checked;
        prefs.set(name, on);
        hooks.setting(name, on);
      },
    }),
    " ",
    t(`game.settings.${name}`),
  );
}

/**
 * Fair play: no hint (and no analysis) while people play the game against each other — the
 * server refuses them until the end (`403 fair_play`); a game against the AI alone, or at one
 * screen, keeps them.
 */
export function fairPlay(s: GameState): boolean {
  return !noMoreMoves(s) && !s.hot_seat && s.seats.filter((x) => x.kind === "human").length > 1;
}

export function renderActions(el: HTMLElement, id: string, recordUrl: string, s: GameState, canPlay: boolean, replaying: boolean, hint: Hint | null, hooks: ActionHooks) {
  el.replaceChildren();
  if (!noMoreMoves(s) && !replaying && fairPlay(s)) {
    // Not a request that fails: the button says why there is none.
    el.append(
      h("button", { id: "hint", title: t("game.hint.fair_play"), disabled: true, "aria-describedby": "hint-off" }, t("game.actions.hint")),
      h("span", { class: "small hint-off", id: "hint-off" }, t("game.hint.fair_play")),
    );
  } else if (!noMoreMoves(s) && !replaying) {
    el.append(h("button", { id: "hint", title: t("game.actions.hint_title"), disabled: !canPlay, onclick: () => hooks.hint() }, t("game.actions.hint")));
    if (s.hot_seat)
      el.append(h("button", { id: "undo", title: t("game.actions.undo_title"), disabled: s.moves_played === 0, onclick: () => hooks.undo() }, t("game.actions.undo")));
  }
  el.append(
    h("a", { class: "button", id: "record", href: recordUrl, download: `rumis-${id}.txt`, title: t("game.actions.record_title") }, t("game.actions.record")),
    h("div", { class: "settings" }, ...["blind", "animate", "limits", "labels", "sound"].map((n) => setting(n, hooks))),
  );
  if (hint) {
    el.append(
      h(
        "div",
        { class: "hint-text", id: "hint-text" },
        t("game.hint.text", { placement: hint.placement, percent: Math.round(hint.estimate * 100), count: hint.simulations }),
      ),
    );
  }
}

export function renderShare(el: HTMLElement, id: string, s: GameState) {
  el.replaceChildren();
  if (s.over) return;
  const links = JSON.parse(localStorage.getItem(`rumis.share.${id}`) ?? "[]") as { seat: number; url: string }[];
  // Each link's field is named by the words before it.
  const field = (value: string, label: string) =>
    h("input", { readonly: true, value, "aria-label": label, onclick: (e: Event) => (e.target as HTMLInputElement).select() });
  const link = (label: string, value: string) => h("div", { class: "link" }, label, " ", field(value, label));
  el.append(h("div", { class: "label" }, t("game.share.title")));
  for (const l of links) el.append(link(t("game.share.seat", { seat: l.seat + 1, name: playerName(s, l.seat) }), l.url));
  el.append(link(t("game.share.watch"), `${location.origin}/game/${id}`));
}
