// The start page: a way in for newcomers (a guided first game, how to play), then pick a
// scenario, players, variant and seats; join by link; recent games.
import { api, tokens } from "./api";
import { errorText } from "./errors";
import type { BoardInfo, Layout, Letter, PerCount } from "./wire";
import { h, prefs, swatch, toast } from "./ui";
import { languagePicker, t } from "./i18n";
import { boardPicture } from "./boardpic";
import { startGuidedGame } from "./tutorial/launch";
import { localBackend } from "./engine/local";
import { engine } from "./engine/client";
import { localGames, localGameUrl } from "./engine/games";
import { ClockForm } from "./startclock";
import { evidenceBox, provenanceLine } from "./boardfacts";
import { HouseRules } from "./houserules";

const ORDER: Letter[] = ["R", "Y", "G", "B"];

interface SeatChoice {
  kind: "human" | "ai";
  level: number;
}

const colourName = (c: Letter) => t(`common.colour.${c}`);
/** The built-in scenarios, whose nicknames (the shape each builds) are translated. */
const NICKNAMED = ["Chullpa", "Pirka", "Tambo", "Pisac", "Coricancha", "Cucho"];
/**
 * The text mode's switch (for a screen reader: the game as text, game/textmode.ts), the same
 * setting as the game page's.
 */
function textModeSwitch() {
  const box = h("input", { type: "checkbox", id: "text-mode-switch", checked: prefs.get("blind", false), onchange: (e: Event) => prefs.set("blind", (e.target as HTMLInputElement).checked) });
  return h("label", { class: "opt text-mode-switch" }, box, " ", t("blind.switch"));
}

/** A colour's swatch, named in the page's language. */
const namedSwatch = (c: Letter) => {
  const s = swatch(c);
  s.title = colourName(c);
  return s;
};

export class StartPage {
  private boards: BoardInfo[] = [];
  private board = "Chullpa";
  private players = 2;
  private variant = "standard";
  private hotSeat = false;
  /** Play in this browser (the WebAssembly engine) instead of on the server. */
  private local = false;
  /** Whether a server answered. */
  private server = true;
  private seats: SeatChoice[] = [
    { kind: "human", level: 3 },
    { kind: "ai", level: 3 },
    { kind: "ai", level: 3 },
    { kind: "ai", level: 3 },
  ];
  private el: Record<string, HTMLElement> = {};
  private clock = new ClockForm();
  private houseRules = new HouseRules();

  constructor(private root: HTMLElement) {}

  async start() {
    document.title = t("start.title");
    this.root.replaceChildren(
      h(
        "div",
        { class: "start" },
        h(
          "header",
          { class: "hero" },
          h("div", { class: "hero-text" }, h("h1", {}, "Rumis"), h("p", {}, t("start.tagline"))),
          h(
            "nav",
            { class: "hero-links" },
            h("a", { href: "/lobby", id: "lobby-link" }, t("lobby.startLink")),
            h("a", { href: "/how-to-play", id: "howto-link" }, t("start.howtoLink")),
            h("a", { href: "/training?daily", id: "daily-link" }, t("start.dailyLink")),
            h("a", { href: "/puzzle", id: "puzzle-link" }, t("start.puzzleLink")),
            h("a", { href: "/boards/edit", id: "editor-link" }, t("editor.startLink")),
            languagePicker(),
            textModeSwitch(),
          ),
        ),
        this.newcomer(),
        h(
          "div",
          { class: "start-main" },
          (this.el.boards = h("section", { class: "boards", id: "boards" }, t("start.loading"))),
          (this.el.setup = h("section", { class: "setup", id: "setup" })),
        ),
        h("div", { class: "start-more" }, (this.el.join = h("section", { class: "join" })), (this.el.recent = h("section", { class: "recent", id: "recent" }))),
      ),
    );
    this.renderJoin();
    try {
      this.boards = await api.boards();
    } catch {
      // No server (a static copy of the app, or offline): the engine in this browser has
      // the boards, and every game is a local one.
      this.server = false;
      this.local = true;
      // What needs a server (the lobby, joining by link) is not offered: a static host has
      // no /lobby page (it answered "not found"). The guided game, How to play, the
      // solitaire and the board editor run on the engine here too.
      document.getElementById("lobby-link")?.setAttribute("hidden", "");
      this.el.join.hidden = true;
      try {
        this.boards = (await engine.call({ cmd: "boards" })).boards;
      } catch (e) {
        this.el.boards.textContent = t("start.unreachable", { reason: errorText(e) });
        return;
      }
    }
    this.renderBoards();
    this.renderSetup();
    void this.renderRecent();
  }

  /** The first thing a newcomer sees: learn by playing, or read the rules with pictures. */
  private newcomer() {
    const guided = h("button", { class: "primary", id: "guided-game" }, t("start.newcomer.guided")) as HTMLButtonElement;
    guided.addEventListener("click", async () => {
      guided.disabled = true;
      try {
        location.href = await startGuidedGame();
      } catch (e) {
        guided.disabled = false;
        toast(errorText(e), true);
      }
    });
    return h(
      "section",
      { class: "newcomer", id: "newcomer" },
      h("div", {}, h("strong", {}, t("start.newcomer.title")), " ", h("span", {}, t("start.newcomer.text"))),
      h("div", { class: "newcomer-actions" }, guided, h("a", { class: "button", href: "/how-to-play", id: "newcomer-rules" }, t("start.newcomer.rules"))),
    );
  }

  /** The board's picture: its volume for the player count whose limits apply. */
  private preview(b: BoardInfo): string {
    const cells = b.layouts[String(this.limitPlayers()) as keyof PerCount<Layout>]?.cells ?? [];
    return boardPicture(b.files, b.ranks, cells) ?? "";
  }

  /** The player count whose limits apply (Ruinas plays under the next count's, 2p4c under 4). */
  private limitPlayers() {
    if (this.variant === "two-player-four-colors") return 4;
    if (this.variant === "ruinas") return this.players + 1;
    return this.players;
  }

  private renderBoards() {
    const el = this.el.boards;
    // On a phone the cards are one row that scrolls sideways: a card chosen stays where it was.
    const left = el.querySelector(".board-grid")?.scrollLeft ?? 0;
    el.replaceChildren(h("h2", {}, t("start.scenario")));
    const grid = h("div", { class: "board-grid" });
    for (const b of this.boards) {
      const layout = b.layouts[String(this.limitPlayers()) as keyof PerCount<Layout>];
      const facts = [
        NICKNAMED.includes(b.name) ? t(`start.nick.${b.name}`) : (b.aliases[0] ?? ""),
        `${b.files}×${b.ranks}`,
        t("start.height", { hmax: layout?.hmax ?? "?" }),
        t("start.columns", { count: layout?.cells.length ?? 0 }),
      ].filter(Boolean);
      const card = h(
        "button",
        {
          class: `board-card ${b.name === this.board ? "selected" : ""}`,
          "data-board": b.name,
          "aria-pressed": b.name === this.board ? "true" : "false",
          onclick: () => {
            this.board = b.name;
            this.renderBoards();
          },
        },
        h("img", { src: this.preview(b), alt: t("start.boardAlt", { name: b.name }), width: 220, height: 150 }),
        h("strong", {}, b.name),
        h("span", { class: "small" }, facts.join(" · ")),
        provenanceLine(b),
      );
      // The evidence beside the card, not in it: a card is one button.
      grid.append(h("div", { class: "board-item", "data-board": b.name }, card, evidenceBox(b)));
    }
    el.append(grid);
    grid.scrollLeft = left;
  }

  private seatColours(): Letter[][] {
    if (this.variant === "two-player-four-colors") return [["R", "G"], ["Y", "B"]];
    return ORDER.slice(0, this.players).map((c) => [c]);
  }

  /** A seat's row of the setup: its colours, and who plays it (a person or an AI level). */
  private seatRow(cols: Letter[], i: number) {
    const s = this.seats[i];
    const aiLabel = (l: number) => (l === 1 ? t("start.aiBeginner", { level: l }) : l === 9 ? t("start.aiStrongest", { level: l }) : t("start.ai", { level: l }));
    const kind = h(
      "select",
      {
        "aria-label": t("start.seat", { n: i + 1 }),
        "data-seat": i,
        onchange: (e: Event) => {
          const v = (e.target as HTMLSelectElement).value;
          if (v === "human") s.kind = "human";
          else {
            s.kind = "ai";
            s.level = Number(v.slice(3));
          }
          this.renderSetup();
        },
      },
      h("option", { value: "human", selected: s.kind === "human" }, t("start.human")),
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((l) => h("option", { value: `ai:${l}`, selected: s.kind === "ai" && s.level === l }, aiLabel(l))),
    );
    return h(
      "div",
      { class: "seat-row" },
      h("span", {}, t("start.seat", { n: i + 1 })),
      ...cols.map(namedSwatch),
      h("span", { class: "small seat-colours" }, cols.map(colourName).join(" & ")),
      kind,
    );
  }

  private renderSetup() {
    const el = this.el.setup;
    const radio = (name: string, value: string, label: string, checked: boolean, on: () => void, disabled = false) =>
      h(
        "label",
        { class: `pill ${checked ? "on" : ""} ${disabled ? "disabled" : ""}` },
        h("input", { type: "radio", name, value, checked, disabled, onchange: on }),
        label,
      );
    const players = h(
      "div",
      { class: "row" },
      h("span", { class: "label" }, t("start.players")),
      ...[2, 3, 4].map((n) =>
        radio("players", String(n), String(n), this.players === n, () => {
          this.players = n;
          if (n === 4 && this.variant === "ruinas") this.variant = "standard";
          if (n !== 2 && this.variant === "two-player-four-colors") this.variant = "standard";
          this.refreshSetup();
        }),
      ),
    );
    const variants: [string, string, boolean][] = [
      ["standard", t("start.variants.standard"), true],
      ["two-player-four-colors", t("start.variants.twoFour"), this.players === 2],
      ["ruinas", t("start.variants.ruinas"), this.players < 4],
    ];
    const variant = h(
      "div",
      { class: "row" },
      h("span", { class: "label" }, t("start.variant")),
      ...variants.map(([v, label, ok]) =>
        radio("variant", v, label, this.variant === v, () => {
          this.variant = v;
          this.refreshSetup();
        }, !ok),
      ),
    );
    const seatRows = this.seatColours().map((cols, i) => this.seatRow(cols, i));
    const humans = this.seatColours().filter((_, i) => this.seats[i].kind === "human").length;
    const mode =
      humans > 1 && !this.local
        ? h(
            "div",
            { class: "row" },
            h("span", { class: "label" }, t("start.humans")),
            radio("mode", "hot", t("start.hotSeat"), this.hotSeat, () => ((this.hotSeat = true), this.renderSetup())),
            radio("mode", "online", t("start.online"), !this.hotSeat, () => ((this.hotSeat = false), this.renderSetup())),
          )
        : null;
    const where = this.server
      ? h(
          "div",
          { class: "row" },
          h("span", { class: "label" }, t("start.where")),
          radio("where", "server", t("start.whereServer"), !this.local, () => ((this.local = false), this.renderSetup())),
          radio("where", "local", t("start.whereLocal"), this.local, () => ((this.local = true), this.renderSetup())),
        )
      : h("p", { class: "small", id: "no-server" }, t("start.noServer"));
    el.replaceChildren(
      h("h2", {}, t("start.newGame")),
      where,
      players,
      variant,
      h("div", { class: "seats" }, ...seatRows),
      mode ?? "",
      // Clocks are kept by the server; a game in this browser has none.
      this.clock.render(!this.local && humans > 0 && !(humans > 1 && this.hotSeat), () => this.renderSetup()),
      this.houseRules.el,
      // Sticky: "Start the game" stays in view on a short screen.
      h("div", { class: "create-bar" }, h("button", { class: "primary", id: "create", onclick: () => this.create() }, t("start.create"))),
      (this.el.created = h("div", { class: "created", id: "created" })),
    );
  }

  private refreshSetup() {
    this.renderSetup();
    this.renderBoards();
  }

  private async create() {
    const colours = this.seatColours();
    const seats = colours.map((_, i) => {
      const s = this.seats[i];
      return s.kind === "human" ? { kind: "human" } : { kind: "ai", level: s.level };
    });
    const humans = seats.filter((s) => s.kind === "human").length;
    const hotSeat = humans > 1 && (this.hotSeat || this.local);
    if (this.local) {
      try {
        location.href = await localBackend.create({
          board: this.board,
          players: this.players,
          variant: this.variant,
          seats: seats as { kind: "human" | "ai"; level?: number }[],
          hot_seat: hotSeat,
          // The house rule chosen applies here too (it was dropped for games in this browser).
          stuck_rule: this.houseRules.stuckRule,
        });
      } catch (e) {
        toast(errorText(e), true);
      }
      return;
    }
    let created;
    try {
      const clock = hotSeat ? null : this.clock.choice();
      const stuck = this.houseRules.stuckRule;
      created = await api.create({ board: this.board, players: this.players, variant: this.variant, hot_seat: hotSeat, seats, ...(clock ? { clock } : {}), ...(stuck === "out" ? {} : { stuck_rule: stuck }) });
    } catch (e) {
      toast(errorText(e), true);
      return;
    }
    const human = created.seats.filter((s) => s.token);
    if (hotSeat || human.length <= 1) {
      for (const s of human) tokens.add(created.id, s.seat, s.token!);
      location.href = `/game/${created.id}`;
      return;
    }
    // Online: this browser takes the first human seat; the others get links.
    const [me, ...others] = human;
    tokens.add(created.id, me.seat, me.token!);
    const links = others.map((s) => ({ seat: s.seat, url: `${location.origin}/game/${created.id}#seat=${s.seat}&token=${s.token}` }));
    localStorage.setItem(`rumis.share.${created.id}`, JSON.stringify(links));
    const box = this.el.created;
    box.replaceChildren(
      h("p", {}, t("start.shareLinks")),
      ...links.map((l) =>
        h(
          "div",
          { class: "link" },
          t("start.seatLink", { n: l.seat + 1 }),
          " ",
          h("input", { readonly: true, value: l.url, class: "seat-link", onclick: (e: Event) => (e.target as HTMLInputElement).select() }),
        ),
      ),
      h("a", { class: "button primary", href: `/game/${created.id}`, id: "go" }, t("start.playSeat", { n: me.seat + 1 })),
    );
  }

  private renderJoin() {
    const input = h("input", { type: "text", placeholder: t("start.joinPlaceholder"), id: "join-input", "aria-label": t("start.joinPlaceholder") }) as HTMLInputElement;
    const go = () => {
      const v = input.value.trim();
      if (!v) return;
      try {
        const u = new URL(v, location.origin);
        const m = u.pathname.match(/\/game\/([A-Za-z0-9]+)/);
        if (m) {
          location.href = `/game/${m[1]}${u.hash}`;
          return;
        }
      } catch {
        // Not a link: an id.
      }
      if (/^[A-Za-z0-9]+$/.test(v)) location.href = `/game/${v}`;
      else toast(t("start.joinBad"), true);
    };
    input.addEventListener("keydown", (e) => e.key === "Enter" && go());
    this.el.join.replaceChildren(h("h2", {}, t("start.join")), h("div", { class: "row" }, input, h("button", { onclick: go }, t("start.joinButton"))));
  }

  private async renderRecent() {
    const el = this.el.recent;
    await localGames.ready();
    const mine = localGames.list().slice(0, 8);
    const localList: HTMLElement[] = mine.length
      ? [
          h("h2", {}, t("start.localGames")),
          h(
            "ul",
            { id: "local-games" },
            ...mine.map((g) => {
              const board = g.record.match(/\[Board "(.*)"\]/)?.[1] ?? "?";
              const players = Number(g.record.match(/\[Players "(\d)"\]/)?.[1] ?? 0);
              const moves = g.record.match(/(\d+)\. /g)?.length ?? 0;
              const done = /\[Result "/.test(g.record);
              const facts = [t("start.moves", { count: moves }), done ? t("start.finished") : ""].filter(Boolean);
              return h("li", {}, h("a", { href: localGameUrl(g.id) }, t("start.recentGame", { board, count: players })), h("span", { class: "small" }, ` · ${facts.join(" · ")}`));
            }),
          ),
        ]
      : [];
    const open = h("input", {
      type: "file",
      id: "open-record",
      accept: ".txt,text/plain",
      onchange: async (e: Event) => {
        const file = (e.target as HTMLInputElement).files?.[0];
        if (!file) return;
        try {
          location.href = await localBackend.open(await file.text());
        } catch (err) {
          toast(errorText(err), true);
        }
      },
    });
    localList.push(h("label", { class: "button open-record", title: t("start.openRecordTitle") }, t("start.openRecord"), open));
    el.replaceChildren(...localList);
    if (!this.server) return;
    try {
      const [open, finished] = await Promise.all([api.games("open", 8), api.games("finished", 8)]);
      const variantName = (v: string) => (v === "two-player-four-colors" ? t("start.variants.twoFour") : v === "ruinas" ? t("start.variants.ruinas") : "");
      const row = (g: (typeof open)[number]) => {
        const v = variantName(g.variant);
        const facts = [
          t("start.moves", { count: g.moves_played }),
          g.status === "finished" ? t("start.finished") : g.to_move ? t("start.toMove", { colour: colourName(g.to_move) }) : "",
          Object.keys(tokens.get(g.id)).length ? t("start.yours") : "",
        ].filter(Boolean);
        return h(
          "li",
          {},
          h("a", { href: `/game/${g.id}` }, t("start.recentGame", { board: g.board, count: g.players }) + (v ? ` (${v})` : "")),
          h("span", { class: "small" }, ` · ${facts.join(" · ")}`),
        );
      };
      el.replaceChildren(
        ...localList,
        h("h2", {}, t("start.recent")),
        open.length + finished.length === 0 ? h("p", { class: "small" }, t("start.none")) : h("ul", {}, ...open.map(row), ...finished.map(row)),
      );
    } catch {
      el.replaceChildren(...localList);
    }
  }
}
