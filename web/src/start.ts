// The start page: pick a scenario, players, variant and seats; join by link; recent games.
import { api, tokens } from "./api";
import type { BoardInfo, Letter } from "./api";
import { Structure3D } from "./view3d";
import { COLOUR_NAMES, h, swatch, toast } from "./ui";

const ORDER: Letter[] = ["R", "Y", "G", "B"];

interface SeatChoice {
  kind: "human" | "ai";
  level: number;
}

export class StartPage {
  private boards: BoardInfo[] = [];
  private board = "Chullpa";
  private players = 2;
  private variant = "standard";
  private hotSeat = false;
  private seats: SeatChoice[] = [
    { kind: "human", level: 3 },
    { kind: "ai", level: 3 },
    { kind: "ai", level: 3 },
    { kind: "ai", level: 3 },
  ];
  private previews = new Map<string, string>();
  private previewView: Structure3D | null = null;
  private el: Record<string, HTMLElement> = {};

  constructor(private root: HTMLElement) {}

  async start() {
    this.root.replaceChildren(
      h(
        "div",
        { class: "start" },
        h(
          "header",
          { class: "hero" },
          h("h1", {}, "Rumis"),
          h("p", {}, "Build an Inca structure, stone by stone. Whoever shows the most of their colour from above wins."),
          h("a", { href: "/puzzle", id: "puzzle-link" }, "Solitaire: build the cube →"),
        ),
        (this.el.boards = h("section", { class: "boards", id: "boards" }, "Loading the scenarios…")),
        (this.el.setup = h("section", { class: "setup", id: "setup" })),
        (this.el.join = h("section", { class: "join" })),
        (this.el.recent = h("section", { class: "recent", id: "recent" })),
      ),
    );
    this.renderJoin();
    try {
      this.boards = await api.boards();
    } catch (e) {
      this.el.boards.textContent = `The server cannot be reached: ${(e as Error).message}`;
      return;
    }
    this.renderBoards();
    this.renderSetup();
    void this.renderRecent();
  }

  private preview(b: BoardInfo): string {
    const key = `${b.name}|${this.limitPlayers()}`;
    const cached = this.previews.get(key);
    if (cached) return cached;
    if (!this.previewView) {
      const host = h("div", { class: "preview-host" });
      document.body.appendChild(host);
      this.previewView = new Structure3D(host);
    }
    const layout = b.layouts?.[String(this.limitPlayers())];
    const cells = layout?.cells ?? [];
    this.previewView.setBoard(b.files, b.ranks, cells, layout?.hmax ?? 4);
    this.previewView.setColumns([]);
    this.previewView.setVolume(cells);
    this.previewView.zoom(0.78);
    const url = this.previewView.snapshot();
    this.previews.set(key, url);
    return url;
  }

  /** The player count whose limits apply (Ruinas plays under the next count's, 2p4c under 4). */
  private limitPlayers() {
    if (this.variant === "two-player-four-colors") return 4;
    if (this.variant === "ruinas") return this.players + 1;
    return this.players;
  }

  private renderBoards() {
    const el = this.el.boards;
    el.replaceChildren(h("h2", {}, "Scenario"));
    const grid = h("div", { class: "board-grid" });
    for (const b of this.boards) {
      const layout = b.layouts?.[String(this.limitPlayers())];
      const card = h(
        "button",
        {
          class: `board-card ${b.name === this.board ? "selected" : ""}`,
          "data-board": b.name,
          onclick: () => {
            this.board = b.name;
            this.renderBoards();
          },
        },
        h("img", { src: this.preview(b), alt: `${b.name} board`, width: 220, height: 150 }),
        h("strong", {}, b.name),
        h("span", { class: "small" }, `${b.aliases[0] ?? ""} · ${b.files}×${b.ranks} · height ${layout?.hmax ?? "?"} · ${layout?.cells.length ?? "?"} columns`),
        h("span", { class: "provenance", title: b.source ?? "" }, b.provenance ? (b.provenance === "printed-rules" ? "Board as printed in the rules" : `Board: a ${b.provenance}`) : ""),
      );
      grid.append(card);
    }
    el.append(grid);
    const chosen = this.boards.find((b) => b.name === this.board);
    if (chosen?.source) el.append(h("p", { class: "small source" }, `${chosen.name}: ${chosen.source}`));
  }

  private seatColours(): Letter[][] {
    if (this.variant === "two-player-four-colors") return [["R", "G"], ["Y", "B"]];
    return ORDER.slice(0, this.players).map((c) => [c]);
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
      h("span", { class: "label" }, "Players"),
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
      ["standard", "Standard", true],
      ["two-player-four-colors", "Two players, four colours", this.players === 2],
      ["ruinas", "Ruinas (ruins first)", this.players < 4],
    ];
    const variant = h(
      "div",
      { class: "row" },
      h("span", { class: "label" }, "Variant"),
      ...variants.map(([v, label, ok]) =>
        radio("variant", v, label, this.variant === v, () => {
          this.variant = v;
          this.refreshSetup();
        }, !ok),
      ),
    );
    const seatRows = this.seatColours().map((cols, i) => {
      const s = this.seats[i];
      const kind = h(
        "select",
        {
          "aria-label": `seat ${i + 1}`,
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
        h("option", { value: "human", selected: s.kind === "human" }, "Human"),
        ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((l) =>
          h("option", { value: `ai:${l}`, selected: s.kind === "ai" && s.level === l }, `AI level ${l}${l === 1 ? " (beginner)" : l === 9 ? " (strongest)" : ""}`),
        ),
      );
      return h("div", { class: "seat-row" }, h("span", {}, `Seat ${i + 1}`), ...cols.map((c) => swatch(c)), h("span", { class: "small" }, cols.map((c) => COLOUR_NAMES[c]).join(" & ")), kind);
    });
    const humans = this.seatColours().filter((_, i) => this.seats[i].kind === "human").length;
    const mode =
      humans > 1
        ? h(
            "div",
            { class: "row" },
            h("span", { class: "label" }, "Humans"),
            radio("mode", "hot", "Take turns on this device", this.hotSeat, () => ((this.hotSeat = true), this.renderSetup())),
            radio("mode", "online", "Online: share a link per seat", !this.hotSeat, () => ((this.hotSeat = false), this.renderSetup())),
          )
        : null;
    el.replaceChildren(
      h("h2", {}, "New game"),
      players,
      variant,
      h("div", { class: "seats" }, ...seatRows),
      mode ?? "",
      h("button", { class: "primary", id: "create", onclick: () => this.create() }, "Start the game"),
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
    const hotSeat = humans > 1 && this.hotSeat;
    let created;
    try {
      created = await api.create({ board: this.board, players: this.players, variant: this.variant, hot_seat: hotSeat, seats });
    } catch (e) {
      toast((e as Error).message, true);
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
      h("p", {}, "Send each friend their seat's link. Whoever holds a link plays that seat."),
      ...links.map((l) =>
        h("div", { class: "link" }, `Seat ${l.seat + 1}: `, h("input", { readonly: true, value: l.url, class: "seat-link", onclick: (e: Event) => (e.target as HTMLInputElement).select() })),
      ),
      h("a", { class: "button primary", href: `/game/${created.id}`, id: "go" }, `Play seat ${me.seat + 1}`),
    );
  }

  private renderJoin() {
    const input = h("input", { type: "text", placeholder: "a game link or id", id: "join-input", "aria-label": "game link or id" }) as HTMLInputElement;
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
      else toast("That is neither a game link nor a game id.", true);
    };
    input.addEventListener("keydown", (e) => e.key === "Enter" && go());
    this.el.join.replaceChildren(h("h2", {}, "Join a game"), h("div", { class: "row" }, input, h("button", { onclick: go }, "Join")));
  }

  private async renderRecent() {
    const el = this.el.recent;
    try {
      const [open, finished] = await Promise.all([api.games("open", 8), api.games("finished", 8)]);
      const row = (g: (typeof open)[number]) =>
        h(
          "li",
          {},
          h("a", { href: `/game/${g.id}` }, `${g.board}, ${g.players} players${g.variant === "standard" ? "" : ` (${g.variant})`}`),
          h("span", { class: "small" }, ` · ${g.moves_played} moves · ${g.status === "finished" ? "finished" : `${g.to_move ?? ""} to move`}${Object.keys(tokens.get(g.id)).length ? " · your game" : ""}`),
        );
      el.replaceChildren(
        h("h2", {}, "Recent games"),
        open.length + finished.length === 0 ? h("p", { class: "small" }, "None yet.") : h("ul", {}, ...open.map(row), ...finished.map(row)),
      );
    } catch {
      el.replaceChildren();
    }
  }
}
