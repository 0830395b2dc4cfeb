// The lobby's lists: seeks waiting for players and games in play, each a card with who
// sits where. The view only draws; what a click means is the page's (typed handlers).
import { language, t } from "../i18n";
import { h, swatch } from "../ui";
import type { Letter, Table, TableSeat } from "../wire";
import { ruleText } from "../game/clocks";

export interface LobbyHandlers {
  join(game: string): void;
  open(game: string, seat: number): void;
  watch(game: string): void;
}

/** A rating as shown, "?" while provisional. */
export function ratingText(r: { rating: number; provisional: boolean }): string {
  return `${r.rating}${r.provisional ? "?" : ""}`;
}

/** A player's name with the rating. */
export function playerLabel(p: { name: string; rating: number; provisional: boolean }): string {
  return `${p.name} (${ratingText(p)})`;
}

function seatLabel(s: TableSeat): string {
  if (s.state === "ai") return t("lobby.seat.ai", { level: s.level ?? 0 });
  if (s.state === "free") return t("lobby.seat.free");
  if (s.state === "offered" && s.player) return t("lobby.seat.offered", { name: s.player.name });
  return s.player ? playerLabel(s.player) : t("lobby.seat.guest");
}

function card(g: Table, myId: string | null, on: LobbyHandlers): HTMLElement {
  const mine = g.seats.find((s) => s.player?.id === myId && s.state === "taken");
  const seats = h(
    "ul",
    { class: "table-seats" },
    ...g.seats.map((s) => h("li", { class: `seat-${s.state}` }, ...s.colours.map((c) => swatch(c as Letter)), " ", seatLabel(s))),
  );
  const facts = [
    t(`lobby.board`, { board: g.board, count: g.players }),
    g.rated ? t("lobby.rated") : t("lobby.casual"),
    g.variant !== "standard" ? g.variant : "",
    g.clock ? ruleText(g.clock) : "",
    g.fill_at ? t("lobby.fillAt", { level: g.fill_level ?? 0, time: new Date(g.fill_at).toLocaleTimeString(language()) }) : "",
  ].filter(Boolean);
  const act = mine
    ? h("button", { class: "open-game", onclick: () => on.open(g.game, mine.seat) }, t("lobby.open"))
    : g.status === "waiting" && g.seats.some((s) => s.state === "free")
      ? h("button", { class: "join-game primary", "data-game": g.game, onclick: () => on.join(g.game) }, t("lobby.join"))
      : h("button", { class: "watch-game", onclick: () => on.watch(g.game) }, t("lobby.watch"));
  return h("li", { class: "lobby-card", "data-game": g.game }, h("div", { class: "facts" }, facts.join(" · ")), seats, act);
}

export function renderList(el: HTMLElement, title: string, games: Table[], myId: string | null, on: LobbyHandlers, empty: string) {
  el.replaceChildren(
    h("h2", {}, title),
    games.length ? h("ul", { class: "lobby-list" }, ...games.map((g) => card(g, myId, on))) : h("p", { class: "muted" }, empty),
  );
}
