// The lobby (`/lobby`): pick a name once, then open a seek, join a free seat, quick play,
// or watch a game in play. The lists are live (the lobby's WebSocket).
import { errorText } from "../errors";
import { languagePicker, t } from "../i18n";
import { h, toast } from "../ui";
import { keepPresence, LobbyFeed, me, players, sitDown } from "../players/api";
import type { Lobby } from "../wire";
import { identity, nameForm, quickForm, seekForm } from "./controls";
import type { QuickChoice, SeekChoice } from "./controls";
import { ratingText, renderList } from "./view";
import type { LobbyHandlers } from "./view";

export class LobbyPage {
  private el: Record<string, HTMLElement> = {};
  private feed: LobbyFeed | null = null;
  private lobby: Lobby = { seeks: [], playing: [] };
  private handlers: LobbyHandlers = {
    join: (game) => void this.act(() => players.join(game)),
    open: (game, seat) => sitDown({ game, seat }),
    watch: (game) => (location.href = `/game/${game}`),
  };

  constructor(private root: HTMLElement) {}

  async start() {
    document.title = t("lobby.title");
    this.el = {
      who: h("section", { class: "who", id: "who" }),
      forms: h("section", { class: "lobby-forms", id: "lobby-forms" }),
      seeks: h("section", { class: "seeks", id: "seeks" }),
      playing: h("section", { class: "playing", id: "playing" }),
    };
    this.root.replaceChildren(
      h(
        "div",
        { class: "lobby" },
        h("header", { class: "hero" }, h("div", { class: "hero-text" }, h("h1", {}, h("a", { href: "/" }, "Rumis"), " · ", t("lobby.title"))), h("nav", { class: "hero-links" }, languagePicker())),
        this.el.who,
        h("div", { class: "lobby-main" }, this.el.forms, h("div", { class: "lobby-lists" }, this.el.seeks, this.el.playing)),
      ),
    );
    await this.renderWho();
    this.renderLists();
    this.feed = new LobbyFeed((l) => {
      this.lobby = l;
      this.renderLists();
    });
    window.addEventListener("pagehide", () => this.feed?.close());
    // While the lobby is open this player is here: their seeks do not expire.
    keepPresence();
  }

  private async renderWho() {
    const m = me.get();
    if (!m) {
      this.el.who.replaceChildren(nameForm((name) => void this.pickName(name)));
      this.el.forms.replaceChildren();
      return;
    }
    let rating = "";
    try {
      const p = await players.page(m.id);
      rating = ratingText(p.rating);
    } catch (e) {
      toast(errorText(e), true);
    }
    this.el.who.replaceChildren(identity(m, rating));
    this.el.forms.replaceChildren(
      quickForm((c) => void this.quick(c)),
      seekForm((c) => void this.seek(c)),
    );
  }

  private async pickName(name: string) {
    try {
      const p = await players.create(name);
      me.set({ id: p.id, name: p.name, key: p.key });
      await this.renderWho();
      this.renderLists();
    } catch (e) {
      toast(errorText(e), true);
    }
  }

  private renderLists() {
    const myId = me.get()?.id ?? null;
    renderList(this.el.seeks, t("lobby.seeks"), this.lobby.seeks, myId, this.handlers, t("lobby.noSeeks"));
    renderList(this.el.playing, t("lobby.playing"), this.lobby.playing, myId, this.handlers, t("lobby.noPlaying"));
  }

  private async act(f: () => Promise<{ game: string; seat: number; started: boolean }>) {
    if (!me.get()) return toast(t("lobby.nameFirst"), true);
    try {
      sitDown(await f());
    } catch (e) {
      toast(errorText(e), true);
    }
  }

  private seek(c: SeekChoice) {
    const seats = [{ kind: "me" }, ...Array.from({ length: c.players - 1 }, () => ({ kind: "open" }))];
    return this.act(() => players.seek({ board: c.board, players: c.players, rated: c.rated, seats, ...(c.clock ? { clock: c.clock } : {}) }));
  }

  private quick(c: QuickChoice) {
    const body = { ...c, players: c.players === "any" ? "any" : Number(c.players) };
    return this.act(() => players.quick(body));
  }
}
