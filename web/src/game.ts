// The game page: the structure, the tray, placing stones, live updates, the end screen.
import { api, ApiError, Events, tokens } from "./api";
import type { Analysis, GameState, Hint, Letter, Placement, StoneInfo } from "./api";
import { Structure3D } from "./view3d";
import { Placer, typing, viewKey, viewTools } from "./placer";
import { COLOUR_NAMES, h, hex, knock, prefs, swatch, toast } from "./ui";

export class GamePage {
  private view!: Structure3D;
  private state: GameState | null = null;
  private placer!: Placer;
  private stones = new Map<string, StoneInfo>();
  private mine: Record<string, string> = {};
  private hint: Hint | null = null;
  private busy = false;
  private aiThinking = false;
  private connected = false;
  private replayAt: number | null = null;
  private analysis: Analysis | null = null;
  private seq = 0;
  private events: Events | null = null;
  private el: Record<string, HTMLElement> = {};
  private boardKey = "";

  constructor(
    private root: HTMLElement,
    private id: string,
  ) {}

  async start() {
    this.takeTokenFromLink();
    this.mine = tokens.get(this.id);
    this.layout();
    try {
      const stones = await api.stones();
      for (const s of stones) this.stones.set(s.code, s);
      await this.refresh();
    } catch (e) {
      this.el.status.textContent = e instanceof ApiError && e.code === "unknown_game" ? "No such game." : `${(e as Error).message}`;
      return;
    }
    this.events = new Events(
      this.id,
      (e) => {
        if (e.type === "ai_thinking") {
          this.aiThinking = true;
          this.renderStatus();
        } else if (e.type === "move" && prefs.get("sound", false)) knock();
        if (e.type !== "ai_thinking") void this.refresh();
      },
      (up) => {
        const was = this.connected;
        this.connected = up;
        this.renderConnection();
        if (up && !was) void this.refresh();
      },
    );
    window.addEventListener("keydown", (e) => this.onKey(e));
    window.addEventListener("pagehide", () => this.events?.close());
  }

  /** A seat link carries `#seat=N&token=T`: keep the token here and take it out of the address bar. */
  private takeTokenFromLink() {
    const q = new URLSearchParams(location.hash.slice(1));
    const token = q.get("token");
    if (token && /^[0-9a-f]{32}$/.test(token)) {
      for (const seat of (q.get("seat") ?? "0").split(",")) tokens.add(this.id, Number(seat) || 0, token);
      history.replaceState(null, "", location.pathname);
    }
  }

  private layout() {
    const stage = h("div", { class: "stage", id: "stage" });
    const wrap = h("div", { class: "stage-wrap" }, stage);
    const side = h("aside", { class: "side" });
    this.el = {
      stage,
      side,
      title: h("h1", { class: "game-title" }, "Rumis"),
      conn: h("span", { class: "conn", id: "conn" }),
      status: h("div", { class: "status", id: "status", "aria-live": "polite" }, "Loading…"),
      players: h("div", { class: "players", id: "players" }),
      tray: h("div", { class: "tray", id: "tray" }),
      turns: h("div", { class: "turns", id: "turns" }),
      actions: h("div", { class: "actions", id: "actions" }),
      share: h("div", { class: "share", id: "share" }),
      end: h("div", { class: "end", id: "end" }),
      help: h(
        "details",
        { class: "help" },
        h("summary", {}, "Keys"),
        h(
          "p",
          {},
          "[ ] choose a stone · R turn about the vertical, T tip, Y roll · arrows move · N / P next or previous place · Enter place · Esc drop · Q / E turn the structure · + / − zoom · V top view · H hint · U undo",
        ),
      ),
    };
    side.append(
      h("div", { class: "side-head" }, h("a", { href: "/", class: "home" }, "Rumis"), this.el.title, this.el.conn),
      this.el.status,
      this.el.players,
      this.el.tray,
      this.el.turns,
      this.el.actions,
      this.el.end,
      this.el.share,
      this.el.help,
    );
    this.root.replaceChildren(h("div", { class: "game" }, wrap, side));
    this.view = new Structure3D(stage);
    wrap.append(viewTools(this.view, () => this.toggleTop()));
    this.view.setLabels(prefs.get("labels", false));
    this.placer = new Placer(this.view, this.stones, {
      place: (p) => void this.place(p),
      draw: (ghost, cells, cursor) => {
        if (ghost) this.view.setGhost(ghost.cubes, this.mover());
        else if (this.hint && this.canPlay()) this.view.setGhost(this.hint.cubes, this.mover(), true);
        else this.view.setGhost(null);
        this.view.setMarks(cells, this.state?.last_move?.cubes ?? null, cursor);
      },
    });
    this.placer.attach(this.el.tray, this.el.turns, "Your stones — pick one");
    // Hooks for the end-to-end tests: where things are on screen, and what the page holds.
    (window as unknown as Record<string, unknown>).rumis = {
      screenPoint: (x: number, y: number, z: number) => this.view.screenPoint(x, y, z),
      placements: () => this.placer.placements,
      current: () => this.placer.current?.placement ?? null,
      selected: () => this.placer.selected,
      /** The page point over the column where a placement's anchor cube would rest. */
      anchorPoint: (placement: string) => {
        const p = this.placer.placements.find((q) => q.placement === placement);
        if (!p) return null;
        const [x, y] = this.placer.anchorColumn(p);
        return this.view.screenPoint(x, y, this.view.height(x, y) - 0.5);
      },
    };
  }

  // ----- data -----

  private async refresh() {
    const seq = ++this.seq;
    try {
      const state = await (this.replayAt === null ? api.state(this.id) : api.state(this.id, this.replayAt));
      const placements = state.over || this.replayAt !== null ? null : await api.placements(this.id);
      if (seq !== this.seq) return;
      if (placements && placements.move_number !== state.move_number) {
        // A move landed between the two requests: ask again.
        void this.refresh();
        return;
      }
      const moved = this.state !== null && this.state.moves_played !== state.moves_played;
      // The game just ended: show the structure as it is scored.
      if (this.state && !this.state.over && state.over && this.replayAt === null) this.setTop(true);
      this.state = state;
      if (moved) {
        this.hint = null;
        this.aiThinking = false;
      }
      const left = state.over || this.replayAt !== null ? [] : (state.colours.find((c) => c.colour === state.to_move)?.stones_left ?? []);
      this.placer.set(placements?.placements ?? [], this.mover(), this.canPlay(), left);
      this.render();
    } catch (e) {
      if (seq === this.seq) toast((e as Error).message, true);
    }
  }

  private canPlay(): boolean {
    const s = this.state;
    if (!s || s.over || s.seat_to_move === null || this.replayAt !== null) return false;
    return this.tokenFor(s.seat_to_move) !== null;
  }

  private tokenFor(seat: number): string | null {
    return this.mine[String(seat)] ?? null;
  }

  private mover(): Letter {
    return (this.state?.to_move ?? "X") as Letter;
  }

  // ----- rendering -----

  private render() {
    const s = this.state!;
    document.body.dataset.moveNumber = String(s.move_number);
    document.body.dataset.over = String(s.over);
    const key = `${s.site.board}|${s.site.players}|${s.site.variant}`;
    if (key !== this.boardKey) {
      this.boardKey = key;
      this.view.setBoard(
        s.site.files,
        s.site.ranks,
        s.position.columns.map((c) => ({ x: c.x, y: c.y, limit: c.limit, printed: c.limit < s.site.hmax ? c.limit : null })),
        s.site.hmax,
      );
      if (s.over) this.setTop(true);
    }
    this.el.title.textContent = `${s.site.board} · ${s.site.players} players${s.site.variant === "standard" ? "" : ` · ${s.site.variant}`}`;
    this.view.setColumns(s.position.columns);
    this.renderStatus();
    this.renderPlayers();
    this.renderTray();
    this.renderActions();
    this.renderShare();
    this.renderEnd();
    this.update();
  }

  private renderConnection() {
    this.el.conn.textContent = this.connected ? "● live" : "○ reconnecting…";
    this.el.conn.className = `conn ${this.connected ? "up" : "down"}`;
  }

  private renderStatus() {
    const s = this.state;
    if (!s) return;
    const el = this.el.status;
    el.replaceChildren();
    if (this.replayAt !== null) {
      el.append(`Replay: after move ${this.replayAt} of ${s.moves_played}`);
    } else if (s.over) {
      const w = (s.winners ?? []).map((p) => this.playerName(p));
      el.append(h("strong", {}, w.length === 1 ? `${w[0]} wins.` : `A draw between ${w.join(" and ")}.`));
    } else {
      const to = s.to_move as Letter;
      const seat = s.seats.find((x) => x.seat === s.seat_to_move);
      el.append(swatch(to), " ");
      if (this.canPlay()) el.append(h("strong", {}, `Your turn (${COLOUR_NAMES[to]})`));
      else if (seat?.kind === "ai")
        el.append(
          `${COLOUR_NAMES[to]} (AI level ${seat.level}) `,
          h("span", { class: "thinking", id: "ai-thinking" }, this.aiThinking ? "is thinking…" : "is to move…"),
        );
      else el.append(`Waiting for ${COLOUR_NAMES[to]}`);
    }
    el.dataset.state = s.over ? "over" : this.canPlay() ? "your-turn" : "waiting";
  }

  private playerName(p: number) {
    const s = this.state!;
    const seat = s.seats.find((x) => x.seat === p);
    const cols = seat?.colours.map((c) => COLOUR_NAMES[c]).join(" & ") ?? `Player ${p + 1}`;
    return cols;
  }

  private renderPlayers() {
    const s = this.state!;
    const rows = s.colours.map((c) => {
      const seat = s.seats.find((x) => x.colours.includes(c.colour));
      const who =
        seat?.kind === "ai" ? `AI ${seat.level}` : seat && this.tokenFor(seat.seat) ? (s.hot_seat ? "here" : "you") : "human";
      return h(
        "tr",
        {
          class: `${c.colour === s.to_move && !s.over ? "to-move" : ""} ${c.out && !s.over ? "out" : ""}`,
          "data-colour": c.colour,
        },
        h("td", {}, c.colour === s.to_move && !s.over ? "▶" : ""),
        h("td", {}, swatch(c.colour), " ", c.name),
        h("td", { class: "who" }, who),
        h("td", { class: "left", title: "stones left" }, `${c.stones_left.length} left`),
        h("td", { class: "score", "data-score": String(c.score) }, String(c.score)),
        h("td", { class: "out-mark" }, c.out && !s.over ? "out" : ""),
      );
    });
    const table = h(
      "table",
      {},
      h("thead", {}, h("tr", {}, h("th"), h("th", {}, "colour"), h("th", {}, "seat"), h("th", {}, "stones"), h("th", {}, "score"), h("th"))),
      h("tbody", {}, ...rows),
    );
    this.el.players.replaceChildren(table);
    if (s.site.variant === "two-player-four-colors") {
      this.el.players.append(
        h("p", { class: "small" }, s.players.map((v, i) => `${this.playerName(i)}: ${v}`).join(" · "), " (a player's better colour counts)"),
      );
    }
  }

  private renderTray() {
    const s = this.state!;
    const to = (s.to_move ?? "X") as Letter;
    this.placer.attach(this.el.tray, this.el.turns, this.canPlay() ? "Your stones — pick one" : `${COLOUR_NAMES[to]}'s stones`);
    this.placer.renderTray();
  }

  private renderActions() {
    const s = this.state!;
    const a = this.el.actions;
    a.replaceChildren();
    if (!s.over && this.replayAt === null) {
      a.append(h("button", { id: "hint", title: "Ask the AI for a move (H)", disabled: !this.canPlay(), onclick: () => this.askHint() }, "Hint"));
      if (s.hot_seat)
        a.append(h("button", { id: "undo", title: "Take back the last move (U)", disabled: s.moves_played === 0, onclick: () => this.undo() }, "Undo"));
    }
    a.append(
      h("a", { class: "button", id: "record", href: api.recordUrl(this.id), download: `rumis-${this.id}.txt` }, "Record"),
      h(
        "label",
        { class: "opt" },
        h("input", {
          type: "checkbox",
          id: "labels",
          checked: prefs.get("labels", false),
          onchange: (e: Event) => {
            const on = (e.target as HTMLInputElement).checked;
            prefs.set("labels", on);
            this.view.setLabels(on);
            this.render();
          },
        }),
        " labels on stones",
      ),
      h(
        "label",
        { class: "opt" },
        h("input", {
          type: "checkbox",
          checked: prefs.get("sound", false),
          onchange: (e: Event) => prefs.set("sound", (e.target as HTMLInputElement).checked),
        }),
        " sound",
      ),
    );
    if (this.hint) {
      a.append(
        h(
          "div",
          { class: "hint-text", id: "hint-text" },
          `Hint: ${this.hint.placement} — win estimate ${Math.round(this.hint.estimate * 100)}% (${this.hint.simulations} simulations). Press Enter or click it to play it.`,
        ),
      );
    }
  }

  private renderShare() {
    const el = this.el.share;
    el.replaceChildren();
    const s = this.state!;
    const links = JSON.parse(localStorage.getItem(`rumis.share.${this.id}`) ?? "[]") as { seat: number; url: string }[];
    if (s.over) return;
    const spectate = `${location.origin}/game/${this.id}`;
    el.append(h("div", { class: "label" }, "Share"));
    for (const l of links) {
      el.append(
        h("div", { class: "link" }, `Seat ${l.seat + 1} (${this.playerName(l.seat)}): `, h("input", { readonly: true, value: l.url, onclick: (e: Event) => (e.target as HTMLInputElement).select() })),
      );
    }
    el.append(h("div", { class: "link" }, "Watch: ", h("input", { readonly: true, value: spectate, onclick: (e: Event) => (e.target as HTMLInputElement).select() })));
  }

  private renderEnd() {
    const s = this.state!;
    const el = this.el.end;
    el.replaceChildren();
    if (!s.over && this.replayAt === null) return;
    if (s.over && this.replayAt === null) {
      const rows = s.colours.map((c) => {
        const tops = s.position.columns.filter((col) => col.top === c.colour).length;
        const penalty = tops - (c.score ?? 0);
        return h(
          "tr",
          { "data-colour": c.colour },
          h("td", {}, swatch(c.colour), " ", c.name),
          h("td", {}, String(tops)),
          h("td", {}, penalty ? `−${penalty}` : "0"),
          h("td", { class: "final-score", "data-score": String(c.score) }, String(c.score)),
        );
      });
      el.append(
        h("h2", {}, "Final scores"),
        h(
          "table",
          { id: "final-scores" },
          h("thead", {}, h("tr", {}, h("th", {}, "colour"), h("th", {}, "seen from above"), h("th", {}, "stones not placed"), h("th", {}, "score"))),
          h("tbody", {}, ...rows),
        ),
      );
    }
    // Replay: step and scrub through the game.
    const n = s.moves_played;
    const at = this.replayAt ?? n;
    const slider = h("input", { type: "range", min: 0, max: n, value: at, id: "replay", "aria-label": "replay position" }) as HTMLInputElement;
    slider.addEventListener("input", () => this.replay(Number(slider.value)));
    el.append(
      h("h2", {}, "Replay"),
      h(
        "div",
        { class: "replay" },
        h("button", { onclick: () => this.replay(0), title: "start" }, "«"),
        h("button", { id: "step-back", onclick: () => this.replay(Math.max(at - 1, 0)), title: "step back" }, "◀"),
        slider,
        h("button", { id: "step-forward", onclick: () => this.replay(Math.min(at + 1, n)), title: "step forward" }, "▶"),
        h("button", { onclick: () => this.replay(n), title: "end" }, "»"),
        h("span", { class: "small" }, `${at}/${n}`),
      ),
    );
    el.append(h("h2", {}, "Win estimates"), this.analysisGraph());
  }

  private analysisGraph(): HTMLElement {
    const box = h("div", { class: "analysis", id: "analysis" });
    const a = this.analysis;
    if (!a) {
      box.append("Analysing the game…");
      api
        .analysis(this.id)
        .then((r) => {
          this.analysis = r;
          box.replaceWith(this.analysisGraph());
        })
        .catch((e) => (box.textContent = `No analysis: ${(e as Error).message}`));
      return box;
    }
    const W = 300,
      H = 120,
      n = Math.max(a.estimates.length - 1, 1);
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("class", "graph");
    for (const f of [0.25, 0.5, 0.75]) {
      const l = document.createElementNS(ns, "line");
      Object.entries({ x1: 0, x2: W, y1: H * (1 - f), y2: H * (1 - f), stroke: "#d8cfbd", "stroke-width": 1 }).forEach(([k, v]) =>
        l.setAttribute(k, String(v)),
      );
      svg.appendChild(l);
    }
    for (const c of a.colours) {
      const pts = a.estimates.map((e, i) => `${((i / n) * W).toFixed(1)},${(H * (1 - (e[c] ?? 0))).toFixed(1)}`).join(" ");
      const pl = document.createElementNS(ns, "polyline");
      pl.setAttribute("points", pts);
      pl.setAttribute("fill", "none");
      pl.setAttribute("stroke", hex(c));
      pl.setAttribute("stroke-width", "2");
      svg.appendChild(pl);
    }
    box.append(svg);
    const worst = a.worst
      .map((num) => a.moves.find((m) => m.number === num))
      .filter((m): m is NonNullable<typeof m> => !!m && m.loss > 0.005);
    if (worst.length) {
      box.append(
        h("div", { class: "small" }, "Moves that lost the most:"),
        h(
          "ol",
          { class: "worst" },
          ...worst.map((m) =>
            h(
              "li",
              {},
              h("a", { href: "#", onclick: (e: Event) => (e.preventDefault(), this.replay(m.number)) }, `${m.number}. ${m.colour} ${m.placement}`),
              ` −${Math.round(m.loss * 100)}%`,
            ),
          ),
        ),
      );
    }
    return box;
  }

  // ----- placing -----

  private update() {
    this.placer.update();
  }

  private async place(p: Placement) {
    const s = this.state;
    if (!s || this.busy || s.seat_to_move === null) return;
    const token = this.tokenFor(s.seat_to_move);
    if (!token) return;
    this.busy = true;
    try {
      await api.move(this.id, token, p.placement, s.move_number);
      if (prefs.get("sound", false)) knock();
      this.placer.selected = null;
      this.hint = null;
    } catch (e) {
      toast(`Not placed: ${(e as Error).message}`, true);
    } finally {
      this.busy = false;
    }
    await this.refresh();
  }

  private async askHint() {
    if (!this.canPlay()) return;
    this.el.status.append(h("span", { class: "small", id: "hint-wait" }, " (thinking of a hint…)"));
    try {
      this.hint = await api.hint(this.id, 6);
      this.placer.selected = null;
      this.renderTray();
      this.renderActions();
      this.update();
    } catch (e) {
      toast(`No hint: ${(e as Error).message}`, true);
    }
    document.getElementById("hint-wait")?.remove();
  }

  private async undo() {
    const s = this.state;
    if (!s || !s.hot_seat) return;
    const token = Object.values(this.mine)[0];
    if (!token) return;
    try {
      await api.undo(this.id, token, s.move_number);
      this.placer.selected = null;
    } catch (e) {
      toast(`Cannot undo: ${(e as Error).message}`, true);
    }
    await this.refresh();
  }

  private replay(n: number) {
    const s = this.state;
    if (!s) return;
    this.replayAt = n >= s.moves_played && s.over ? null : n;
    if (this.replayAt !== null) this.setTop(false);
    void this.refresh();
  }

  private setTop(on: boolean) {
    this.view.setTopView(on);
    document.getElementById("top-view")?.classList.toggle("on", on);
  }

  private toggleTop() {
    this.setTop(!this.view.topView);
  }

  private onKey(e: KeyboardEvent) {
    if (typing(e) || !this.state) return;
    const k = e.key;
    const { files, ranks } = this.state.site;
    if (k === "Escape") this.hint = null;
    if (this.placer.key(k, files, ranks) || viewKey(this.view, k, () => this.toggleTop())) {
      e.preventDefault();
      if (k === "Escape") this.renderActions();
      return;
    }
    if (k === "Enter" || (k === " " && (e.target as HTMLElement)?.tagName !== "BUTTON")) {
      e.preventDefault();
      if (this.placer.current) void this.place(this.placer.current);
      else if (this.hint && this.canPlay()) void this.place(this.hint);
    } else if (k === "h" || k === "H") {
      e.preventDefault();
      void this.askHint();
    } else if ((k === "u" || k === "U") && this.state.hot_seat) {
      e.preventDefault();
      void this.undo();
    }
  }
}
