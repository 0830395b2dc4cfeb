// The lobby's forms: who you are (a name, once), a seek (a game with open seats) and quick
// play. Each form reports what was asked through its callback; the page sends it.
import { t } from "../i18n";
import { h } from "../ui";
import type { Me } from "../players/api";
import { ClockForm } from "../startclock";
import type { ClockChoice } from "../game/clockapi";

export const SCENARIOS = ["Chullpa", "Pirka", "Tambo", "Pisac", "Coricancha", "Cucho"];

const options = (values: (string | number)[], label: (v: string) => string, chosen?: string) =>
  values.map((v) => h("option", { value: String(v), selected: String(v) === chosen }, label(String(v))));

export function nameForm(onName: (name: string) => void): HTMLElement {
  const input = h("input", { id: "player-name", maxlength: 24, placeholder: t("lobby.namePlaceholder"), autocomplete: "nickname" });
  return h(
    "form",
    { class: "name-form", onsubmit: (e: Event) => (e.preventDefault(), input.value.trim() && onName(input.value.trim())) },
    h("label", { for: "player-name" }, t("lobby.pickName")),
    input,
    h("button", { class: "primary", id: "name-ok", type: "submit" }, t("lobby.nameOk")),
  );
}

export function identity(m: Me, rating: string): HTMLElement {
  return h(
    "p",
    { class: "identity", id: "identity" },
    t("lobby.youAre", { name: m.name }),
    " ",
    h("strong", { id: "my-rating" }, rating),
    " · ",
    h("a", { href: `/players/${m.id}`, id: "my-page" }, t("lobby.myPage")),
    " · ",
    h("a", { href: "/leaderboard" }, t("lobby.leaderboard")),
  );
}

export interface SeekChoice {
  board: string;
  players: number;
  rated: boolean;
  /** The game's clock; it starts when the last seat is taken. */
  clock: ClockChoice | null;
}

export function seekForm(onSeek: (c: SeekChoice) => void): HTMLElement {
  const board = h("select", { id: "seek-board", "aria-label": t("lobby.boardLabel") }, ...options(SCENARIOS, (v) => v));
  const players = h("select", { id: "seek-players", "aria-label": t("lobby.playersLabel") }, ...options([2, 3, 4], (v) => t("lobby.playersN", { count: Number(v) })));
  const rated = h("input", { type: "checkbox", id: "seek-rated", checked: true });
  const clock = new ClockForm();
  const clockRow = h("div", { class: "row seek-clock" });
  const redraw = () => clockRow.replaceChildren(clock.render(true, redraw));
  redraw();
  return h(
    "form",
    {
      class: "seek-form",
      onsubmit: (e: Event) => (e.preventDefault(), onSeek({ board: board.value, players: Number(players.value), rated: rated.checked, clock: clock.choice() })),
    },
    h("h2", {}, t("lobby.seekTitle")),
    h("div", { class: "row" }, board, players, h("label", {}, rated, " ", t("lobby.rated"))),
    clockRow,
    h("button", { class: "primary", id: "seek-create", type: "submit" }, t("lobby.seekCreate")),
  );
}

export interface QuickChoice {
  board: string;
  players: string;
  rated: boolean;
  ai_level: number;
  wait_seconds: number;
}

export function quickForm(onQuick: (c: QuickChoice) => void): HTMLElement {
  const board = h("select", { id: "quick-board", "aria-label": t("lobby.boardLabel") }, ...options(["any", ...SCENARIOS], (v) => (v === "any" ? t("lobby.any") : v)));
  const players = h(
    "select",
    { id: "quick-players", "aria-label": t("lobby.playersLabel") },
    ...options(["any", 2, 3, 4], (v) => (v === "any" ? t("lobby.any") : t("lobby.playersN", { count: Number(v) }))),
  );
  const level = h("select", { id: "quick-level" }, ...options([1, 2, 3, 4, 5, 6, 7, 8, 9], (v) => t("lobby.aiLevel", { level: v }), "3"));
  const wait = h("select", { id: "quick-wait" }, ...options([30, 60, 120, 300], (v) => t("lobby.waitSeconds", { count: Number(v) }), "60"));
  const rated = h("input", { type: "checkbox", id: "quick-rated", checked: true });
  const submit = (e: Event) => {
    e.preventDefault();
    onQuick({ board: board.value, players: players.value, rated: rated.checked, ai_level: Number(level.value), wait_seconds: Number(wait.value) });
  };
  return h(
    "form",
    { class: "quick-form", onsubmit: submit },
    h("h2", {}, t("lobby.quickTitle")),
    h("p", { class: "muted" }, t("lobby.quickExplain")),
    h("div", { class: "row" }, board, players, h("label", {}, rated, " ", t("lobby.rated"))),
    h("div", { class: "row" }, h("label", {}, t("lobby.fillWith"), " ", level), h("label", {}, t("lobby.after"), " ", wait)),
    h("button", { class: "primary", id: "quick-play", type: "submit" }, t("lobby.quickGo")),
  );
}
