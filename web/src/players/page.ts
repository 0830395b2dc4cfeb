// A player's page (`/players/ID`): name, rating, games open and finished with their
// records; on your own page, the key to take to another device (a link or a code) and a
// form to bring a key from another device (`/players/import#key=...` fills it in: the
// fragment never reaches a server's log).
import { errorText } from "../errors";
import { t } from "../i18n";
import { h, toast } from "../ui";
import { me, players, sitDown } from "./api";
import type { PlayerGame, PlayerPage as Page } from "../wire";
import { ratingText } from "../lobby/view";

function gameRow(g: PlayerGame, mine: boolean): HTMLElement {
  const others = g.seats.map((s) => (s.player ? s.player.name : s.state === "ai" ? t("lobby.seat.ai", { level: s.level ?? 0 }) : t("lobby.seat.free"))).join(", ");
  const change = g.rating_change
    ? h("span", { class: g.rating_change.after >= g.rating_change.before ? "up" : "down" }, ` ${g.rating_change.before} → ${g.rating_change.after} (${t("players.place", { place: g.rating_change.place })})`)
    : g.not_counted
      ? h("span", { class: "not-counted" }, ` (${t(`players.not_counted.${g.not_counted}`)})`)
      : null;
  const open = () => (mine && g.seat !== null && g.status !== "finished" ? sitDown({ game: g.game, seat: g.seat }) : (location.href = `/game/${g.game}`));
  return h(
    "li",
    { class: "player-game", "data-game": g.game },
    h("a", { href: `/game/${g.game}`, onclick: (e: Event) => (e.preventDefault(), open()) }, `${g.board} · ${t(`players.status.${g.status}`)}`),
    ` · ${others}${g.rated ? ` · ${t("lobby.rated")}` : ""}${g.assisted ? ` · ${t("players.assisted")}` : ""}`,
    change,
    " · ",
    h("a", { href: g.record_url, download: "" }, t("players.record")),
  );
}

export class PlayerPage {
  constructor(
    private root: HTMLElement,
    private id: string | null,
  ) {}

  async start() {
    document.title = t("players.title");
    const head = h("header", { class: "hero" }, h("div", { class: "hero-text" }, h("h1", {}, h("a", { href: "/" }, "Rumis"), " · ", h("a", { href: "/lobby" }, t("lobby.title")))));
    const body = h("div", { class: "player-page", id: "player-page" });
    this.root.replaceChildren(h("div", { class: "lobby" }, head, body));
    if (this.id === null) return body.replaceChildren(this.importBox());
    let p: Page;
    try {
      p = await players.page(this.id);
    } catch (e) {
      return body.replaceChildren(h("p", {}, errorText(e)));
    }
    const mine = me.get()?.id === p.id;
    const parts: (HTMLElement | null)[] = [
      h("h2", { id: "player-name" }, p.name),
      h("p", { id: "player-rating" }, t("players.rating", { rating: ratingText(p.rating), count: p.rating.games })),
      p.rating.provisional ? h("p", { class: "muted" }, t("players.provisional")) : null,
      h("h3", {}, t("players.open")),
      p.open.length ? h("ul", { id: "open-games" }, ...p.open.map((g) => gameRow(g, mine))) : h("p", { class: "muted" }, t("players.none")),
      h("h3", {}, t("players.finished")),
      p.finished.length ? h("ul", { id: "finished-games" }, ...p.finished.map((g) => gameRow(g, mine))) : h("p", { class: "muted" }, t("players.none")),
      mine ? this.exportBox() : null,
      this.importBox(),
    ];
    body.replaceChildren(...parts.filter((x): x is HTMLElement => x !== null));
  }

  /** The key as a link and as a code, shown only on request. */
  private exportBox(): HTMLElement {
    const m = me.get()!;
    const link = `${location.origin}/players/import#key=${m.key}`;
    const out = h("div", { class: "key-out", hidden: true }, h("p", { id: "key-link-label" }, t("players.exportLink")), h("input", { readonly: true, value: link, id: "key-link", "aria-labelledby": "key-link-label" }), h("p", {}, t("players.exportCode")), h("code", { id: "key-code" }, m.key));
    return h("section", { class: "key-box" }, h("h3", {}, t("players.exportTitle")), h("p", { class: "muted" }, t("players.exportWarn")), h("button", { id: "show-key", onclick: () => (out.hidden = !out.hidden) }, t("players.exportShow")), out);
  }

  private importBox(): HTMLElement {
    const fromLink = new URLSearchParams(location.hash.slice(1)).get("key") ?? "";
    if (fromLink) history.replaceState(null, "", location.pathname);
    const input = h("input", { id: "key-in", value: fromLink, placeholder: t("players.importPlaceholder"), "aria-label": t("players.importTitle") });
    const go = async (e: Event) => {
      e.preventDefault();
      const key = input.value.trim().replace(/^.*#key=/, "");
      try {
        const p = await players.whoIs(key);
        me.set({ id: p.id, name: p.name, key });
        location.href = `/players/${p.id}`;
      } catch (err) {
        toast(errorText(err), true);
      }
    };
    return h("form", { class: "key-box", onsubmit: go }, h("h3", {}, t("players.importTitle")), input, h("button", { type: "submit", id: "import-key" }, t("players.importGo")));
  }
}

export class LeaderboardPage {
  constructor(private root: HTMLElement) {}

  async start() {
    document.title = t("players.leaderboard");
    const list = h("ol", { class: "leaderboard", id: "leaderboard" });
    const listed = h("p", { class: "muted", id: "listed-after" });
    this.root.replaceChildren(
      h("div", { class: "lobby" }, h("header", { class: "hero" }, h("div", { class: "hero-text" }, h("h1", {}, h("a", { href: "/" }, "Rumis"), " · ", t("players.leaderboard")))), h("p", { class: "muted" }, t("players.scale")), listed, list),
    );
    try {
      const myId = me.get()?.id;
      const board = await players.leaderboard();
      listed.textContent = t("players.listed_after", { count: board.min_opponents });
      for (const e of board.entries) {
        const name = e.kind === "ai" ? t("lobby.seat.ai", { level: e.level ?? 0 }) : h("a", { href: `/players/${e.id}` }, e.name ?? "");
        list.append(h("li", { class: `${e.kind}${e.id && e.id === myId ? " me" : ""}` }, name, " ", h("strong", {}, `${e.rating}${e.provisional ? "?" : ""}`), e.games !== null ? ` · ${t("players.games", { count: e.games })}` : ""));
      }
    } catch (e) {
      list.replaceChildren(h("li", {}, errorText(e)));
    }
  }
}
