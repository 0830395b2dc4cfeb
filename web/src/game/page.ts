// The game page: a composition of the store (the game as known, from the server's events),
// the follower (moves shown one after another), the 3D view, the placer, the move list and
// the panels. Modules tell the page what happened through typed events; the page decides.
import { ApiError, tokens } from "../api";
import { serverBackend } from "../engine/backend";
import type { EventStream, GameBackend } from "../engine/backend";
import type { GameMessage, Xyz } from "../api";
import type { GameState, Hint, Letter, Placement, StoneInfo } from "../wire";
import { t } from "../i18n";
import { Placer, typing, viewKey, viewTools } from "../placer";
import { h, knock, prefs, toast } from "../ui";
import { ActionHooks, SETTINGS, fairPlay, renderActions, renderShare } from "./actions";
import { KeysControl } from "./keys";
import { EndScreen } from "./end";
import { localBackend } from "../engine/local";
import { ReviewPanel } from "./review";
import { playFromOnServer, renderFromPosition } from "./fromhere";
import { errorText } from "./errors";
import { Follower } from "./follow";
import { MoveList } from "./movelist";
import { Notices } from "./notices";
import { Outcome } from "./outcome";
import type { Names } from "./result";
import { loadProgress } from "../tutorial/progress";
import { playerName, renderPlayers, renderStatus } from "./panels";
import { GameStore } from "./store";
import type { MoveShown } from "./store";
import { installTestHooks } from "./hooks";
import { GameView } from "./view";
import { TextMode } from "./textmode";
import { cellNames, moveWords, scoreWords } from "./textwords";
import { SeatPanel, takeTokenFromLink } from "./seat";
import type { RecentMove } from "./view";
import { noMoreMoves } from "./ended";

export class GamePage {
  private view!: GameView;
  private store: GameStore;
  private seat: SeatPanel;
  private follower!: Follower;
  private placer!: Placer;
  private moveList = new MoveList();
  private keys = new KeysControl();
  /** The text mode (for a screen reader), shown while its setting is on. */
  private text!: TextMode;
  /** The last turn or ending the text mode said, so that each is said once. */
  private told = "";
  private end: EndScreen;
  private review: ReviewPanel;
  /** The best move the review found for the move replayed, drawn as a ghost. */
  private reviewGhost: Xyz[] | null = null;
  private outcome = new Outcome();
  private notices = new Notices();
  /** Players' names (a lobby game's table) and whether it is a lobby game (null: not known). */
  private names: Names = new Map();
  private lobby: boolean | null = null;
  /** The state on screen (the store may already know newer ones, still to be shown). */
  private state: GameState | null = null;
  private stones = new Map<string, StoneInfo>();
  private mine: Record<string, string> = {};
  private hint: Hint | null = null;
  private busy = false;
  /** A stone is dropping in: nothing to play until it has landed. */
  private dropping = false;
  private placements: Placement[] | null = null;
  private replayAt: number | null = null;
  /** The last move of each colour since this browser's own last move. */
  private recent = new Map<Letter, RecentMove>();
  private el: Record<string, HTMLElement> = {};
  private boardKey = "";
  private chosen = "";
  /** Where a guide (a guided first game) shows its card: in the panel, never over the structure. */
  readonly guideSlot = h("div", { class: "guide-slot", id: "guide-slot" });
  /** Who sits where, abort and rematch (game/table.ts), under the players. */
  readonly tableSlot = h("div", { class: "table-slot", id: "table-slot" });
  /** Where the lobby's rematch buttons go: with the game's next steps at its end. */
  get rematchSlot() {
    return this.outcome.rematchSlot;
  }

  /**
   * The game's events and whether they flow, from the page's own socket (the store's): what
   * else on the page follows the game (its table, the guide) needs no socket of its own.
   */
  readonly follow = (onEvent: (e: GameMessage) => void, onStatus: (up: boolean) => void): EventStream => {
    const off = [this.store.on("event", onEvent), this.store.on("connection", onStatus)];
    return { close: () => off.forEach((f) => f()) };
  };

  constructor(
    private root: HTMLElement,
    private id: string,
    private backend: GameBackend = serverBackend,
  ) {
    this.store = new GameStore(id, (seat) => this.tokenFor(seat), backend);
    this.review = new ReviewPanel(id, backend, {
      replay: (n) => void this.replay(n),
      changed: () => {
        this.moveList.setMarks(this.review.marks());
        if (this.replayAt !== null) void this.replay(this.replayAt);
        else if (this.state) this.render();
      },
      playFrom: (at, level, where) => void this.playFrom(at, level, where),
    });
    this.end = new EndScreen(id, { replay: (n) => this.replay(n) }, backend, this.review);
    this.seat = new SeatPanel(id, (n) => this.tokenFor(n), () => void this.store.reload());
  }

  async start() {
    takeTokenFromLink(this.id);
    this.mine = tokens.get(this.id);
    this.layout();
    this.store.on("reset", ({ state, placements }) => this.follower.reset(state, placements));
    this.store.on("move", ({ move, state, placements }) => {
      if (prefs.get("sound", SETTINGS.sound) && !move.mine) knock();
      this.follower.move(move, state, placements);
    });
    this.store.on("thinking", () => this.state && this.renderStatus());
    this.store.on("connection", () => this.renderConnection());
    this.store.on("failed", (e) => toast(errorText(e), true));
    this.store.on("clock", (c) => this.seat.clock(c));
    this.store.on("takenOver", ({ seat, after }) => this.notices.tookOver(seat, after));
    try {
      for (const s of await this.backend.stones()) this.stones.set(s.code, s);
      await this.store.start();
    } catch (e) {
      this.el.status.textContent = e instanceof ApiError && e.code === "unknown_game" ? t("game.status.no_game") : errorText(e);
      return;
    }
    window.addEventListener("keydown", (e) => this.onKey(e));
    window.addEventListener("pagehide", () => this.store.close());
  }

  private layout() {
    const stage = h("div", { class: "stage", id: "stage" });
    const skip = h("button", { class: "skip", id: "skip", title: t("game.follow.skip_title"), hidden: true, onclick: () => this.follower.skip() }, t("game.follow.skip"));
    const wrap = h("div", { class: "stage-wrap" }, stage, skip);
    const side = h("aside", { class: "side" });
    this.el = {
      stage,
      wrap,
      side,
      skip,
      title: h("h1", { class: "game-title" }, "Rumis"),
      conn: h("span", { class: "conn", id: "conn" }),
      status: h("div", { class: "status", id: "status", "aria-live": "polite" }, t("game.status.loading")),
      fromPosition: h("div", { class: "small from-position", id: "from-position", hidden: true }),
      players: h("div", { class: "players", id: "players" }),
      tray: h("div", { class: "tray", id: "tray" }),
      turns: h("div", { class: "turns", id: "turns" }),
      actions: h("div", { class: "actions", id: "actions" }),
      share: h("div", { class: "share", id: "share" }),
      end: h("div", { class: "end", id: "end" }),
    };
    this.text = new TextMode({
      place: (text) => this.place(text),
      turn: () => this.statusWords(),
      time: () => this.timeWords(),
    });
    this.text.el.hidden = !prefs.get("blind", SETTINGS.blind);
    const help = h("a", { class: "button help-link", id: "how-to-play", href: "/how-to-play", title: t("game.help.title"), "aria-label": t("game.help.title") }, "?");
    side.append(
      h("div", { class: "side-head" }, h("a", { href: "/", class: "home" }, "Rumis"), this.el.title, this.el.conn, help, this.keys.button),
      this.el.status,
      this.el.fromPosition,
      this.text.el,
      this.outcome.el,
      this.guideSlot,
      this.el.players,
      this.seat.clocksEl,
      this.tableSlot,
      this.el.tray,
      this.el.turns,
      this.el.actions,
      // Resign and leave are the server's (a game in this browser has neither: they failed).
      ...this.seat.actionsEl.filter((el) => !this.backend.local || el.id !== "seat-actions"),
      this.el.end,
      this.el.share,
      this.keys.dialog,
    );
    this.root.replaceChildren(h("div", { class: "game" }, wrap, side));
    // The move list sits over the structure's corner on a wide screen, under the status on a phone.
    const narrow = window.matchMedia("(max-width: 760px)");
    this.view = new GameView(stage);
    const placeList = () => {
      if (narrow.matches) this.el.players.after(this.moveList.el);
      else wrap.append(this.moveList.el);
      // The structure is centred beside the list, not under it.
      this.view.setInsetRight(narrow.matches ? 0 : this.moveList.el.offsetWidth + 16);
    };
    placeList();
    narrow.addEventListener("change", placeList);
    wrap.append(viewTools(this.view, () => this.toggleTop()));
    this.view.setLabels(prefs.get("labels", SETTINGS.labels));
    this.view.setLimitsShown(prefs.get("limits", SETTINGS.limits));
    this.follower = new Follower(this.view, prefs.get("animate", SETTINGS.animate));
    this.follower.on("show", ({ state, placements, move, falling }) => this.show(state, placements, move, falling));
    this.follower.on("landed", ({ move }) => this.landed(move));
    this.follower.on("busy", (on) => (skip.hidden = !on || !this.follower.animate));
    this.moveList.on("highlight", (n) => void this.highlight(n));
    this.placer = new Placer(this.view, this.stones, {
      place: (p) => void this.place(p.placement),
      draw: (ghost, _cells, cursor) => this.drawPlacing(ghost, cursor),
    });
    this.placer.attach(this.el.tray, this.el.turns, t("game.tray.yours"));
    installTestHooks(this.view, this.placer);
  }

  private drawPlacing(ghost: Placement | null, cursor: [number, number] | null) {
    if (ghost) this.view.setGhost(ghost.cubes);
    else if (this.hint && this.canPlay()) this.view.setGhost(this.hint.cubes, "X", true);
    else if (this.reviewGhost && this.replayAt !== null) this.view.setGhost(this.reviewGhost, "X", true);
    else this.view.setGhost(null);
    const places = this.canPlay() ? this.placer.orientationPlacements() : [];
    this.view.setPlaces(places.map((p) => ({ anchor: this.placer.anchorCube(p), current: p === ghost })));
    this.view.setMarks([], null, cursor);
    // A stone newly chosen (or turned): turn to a side where its places are seen.
    const sel = this.placer.selected;
    const chosen = sel ? `${sel.stone}|${sel.orientation}` : "";
    if (chosen !== this.chosen) {
      this.chosen = chosen;
      if (sel) this.view.turnToSee(places.map((p) => this.placer.anchorCube(p)));
    }
  }

  // ----- showing -----

  private show(state: GameState, placements: Placement[] | null, move: MoveShown | null, falling: boolean) {
    if (this.replayAt !== null) return;
    if (!move) {
      // A whole new state: the last round is what its last move says.
      this.recent.clear();
      const last = state.last_move;
      const seat = last && state.seats.find((s) => s.colours.includes(last.colour));
      if (last && !(seat?.kind === "human" && this.tokenFor(seat.seat))) this.recent.set(last.colour, { number: last.number, colour: last.colour, cubes: last.cubes });
    } else if (move.mine) this.recent.clear();
    // The game just ended: show the structure as it is scored.
    if (this.state && !this.state.over && state.over) this.setTop(true);
    if (!this.state || this.state.move_number !== state.move_number) {
      this.hint = null;
      this.busy = false;
    }
    this.state = state;
    this.placements = placements;
    this.dropping = falling;
    if (move) this.text.announce(moveWords(move.colour, move.stone, move.cubes ?? state.last_move?.cubes ?? null, move.placement, cellNames(state)));
    this.notices.update(state, this.names, this.held);
    this.setPlacer();
    this.render(falling && move?.cubes ? move.cubes : []);
  }

  private setPlacer() {
    const s = this.state!;
    const left = noMoreMoves(s) ? [] : (s.colours.find((c) => c.colour === s.to_move)?.stones_left ?? []);
    this.placer.set(this.placements ?? [], this.mover(), this.canPlay(), left);
  }

  private landed(move: MoveShown | null) {
    if (this.replayAt !== null || !this.state) return;
    if (move?.cubes && !move.mine) this.recent.set(move.colour, { number: move.number, colour: move.colour, cubes: move.cubes });
    if (this.dropping) {
      this.dropping = false;
      this.setPlacer();
    }
    this.render();
    this.view.frameGrowth();
  }

  private canPlay(): boolean {
    const s = this.state;
    if (!s || s.over || s.status === "aborted" || s.status === "waiting" || s.seat_to_move === null || this.replayAt !== null || this.busy || this.dropping) return false;
    return this.tokenFor(s.seat_to_move) !== null;
  }

  private tokenFor(seat: number): string | null {
    return this.mine[String(seat)] ?? null;
  }

  private held = (seat: number) => this.tokenFor(seat) !== null;

  /** What the lobby's table says of this game: the players' names, and whether it is a lobby game. */
  setTable(names: Names, lobby: boolean) {
    this.names = names;
    this.lobby = lobby;
    if (this.state) this.render();
  }

  private mover(): Letter {
    return (this.state?.to_move ?? "X") as Letter;
  }

  private render(falling: Xyz[] = []) {
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
      this.view.setColumns(s.position.columns);
      this.view.resetView();
      if (s.over) this.setTop(true);
    }
    const variant = s.site.variant === "ruinas" ? ` · ${t("game.variant.ruinas")}` : s.site.variant === "two-player-four-colors" ? ` · ${t("game.variant.four_colours")}` : "";
    const house = [s.site.custom ? t("game.variant.custom") : "", s.site.stuck_rule === "pass" ? t("game.variant.passRule") : ""].filter(Boolean);
    this.el.title.textContent = t("game.title", { board: s.site.board, count: s.site.players }) + variant + house.map((x) => ` · ${x}`).join("");
    this.el.title.dataset.stuckRule = s.site.stuck_rule ?? "out";
    this.view.setColumns(s.position.columns, falling);
    this.view.setRecent(this.replayAt === null ? [...this.recent.values()].filter((r) => !falling.length || r.cubes !== falling) : []);
    this.renderStatus();
    renderFromPosition(this.el.fromPosition, s);
    this.renderText();
    renderPlayers(this.el.players, this.seen());
    this.moveList.render(s, this.notices.lines(s, this.names));
    this.renderTray();
    this.renderActions();
    if (!this.backend.local) renderShare(this.el.share, this.id, s);
    this.end.render(this.el.end, s, this.replayAt);
    this.outcome.render(s, this.replayAt !== null, { held: this.held, lobby: this.lobby, local: this.backend.local, guided: loadProgress(this.id) !== null });
    this.placer.update();
    this.seat.render(s, this.store.state ?? s, this.replayAt !== null, this.el.title.textContent ?? "Rumis");
  }

  private seen() {
    const s = this.state!;
    const behind = this.replayAt === null && (this.store.state?.moves_played ?? 0) > s.moves_played;
    const pending = this.dropping ? "landing" : this.busy ? "placing" : null;
    return { state: s, canPlay: this.canPlay(), thinking: this.store.thinking, behind, replayAt: this.replayAt, tokenFor: (n: number) => this.tokenFor(n), names: this.names, pending } as const;
  }

  private renderStatus() {
    renderStatus(this.el.status, this.seen());
  }

  /** The text mode's table and lists, and the turn or the ending said once. */
  private renderText() {
    if (this.text.el.hidden) return;
    const s = this.state!;
    const canPlay = this.canPlay();
    this.text.render(s, this.placements, canPlay);
    const now = s.over ? "over" : canPlay ? `turn ${s.move_number}` : "";
    if (now && now !== this.told && this.replayAt === null) this.text.announce(s.over ? `${this.statusWords()} ${scoreWords(s)}` : this.statusWords());
    this.told = now;
  }

  /** The status line in words (without its colour swatch's letter). */
  private statusWords(): string {
    const parts = [...this.el.status.childNodes].filter((n) => !(n instanceof HTMLElement && n.classList.contains("swatch")));
    return parts
      .map((n) => n.textContent ?? "")
      .join("")
      .trim();
  }

  /** Each seat's time left, in words; null without a clock. */
  private timeWords(): string | null {
    const s = this.state;
    const left = this.seat.timeLeft();
    if (!s || !left) return null;
    return left.map((l) => t("blind.time_line", { who: playerName(s, l.seat), time: l.text })).join("; ") + ".";
  }

  private renderConnection() {
    const up = this.store.connected;
    // A local game has no connection: it is played in this browser.
    this.el.conn.textContent = this.backend.local ? t("game.conn.local") : up ? t("game.conn.up") : t("game.conn.down");
    this.el.conn.className = `conn ${up ? "up" : "down"}`;
  }

  private renderTray() {
    const to = this.mover();
    this.placer.attach(this.el.tray, this.el.turns, this.canPlay() ? t("game.tray.yours") : t("game.tray.theirs", { colour: t(`common.colour.${to}`) }));
    this.placer.renderTray();
  }

  private renderActions() {
    const hooks: ActionHooks = { hint: () => void this.askHint(), undo: () => void this.undo(), setting: (n, on) => this.setting(n, on) };
    renderActions(this.el.actions, this.id, this.backend.recordUrl(this.id), this.state!, this.canPlay(), this.replayAt !== null, this.hint, hooks);
  }

  private setting(name: string, on: boolean) {
    if (name === "labels") {
      this.view.setLabels(on);
      this.render();
    } else if (name === "limits") this.view.setLimitsShown(on);
    else if (name === "blind") {
      this.text.el.hidden = !on;
      this.told = "";
      if (on && this.state) this.renderText();
    } else if (name === "animate") {
      this.follower.animate = on;
      if (!on) this.follower.skip();
    }
  }

  private async highlight(n: number | null) {
    if (n === null || !this.state || n > this.state.moves.length) return this.view.setHighlight(null);
    try {
      this.view.setHighlight(await this.store.cubesOf(n));
    } catch {
      this.view.setHighlight(null);
    }
  }

  // ----- acting -----

  /** Plays a placement's text (the core reads it: any case, any column order); true if played. */
  private async place(text: string): Promise<boolean> {
    const s = this.state;
    if (!s || this.busy || s.seat_to_move === null) return false;
    const token = this.tokenFor(s.seat_to_move);
    if (!token) return false;
    this.busy = true;
    try {
      const r = await this.backend.move(this.id, token, text, s.move_number);
      if (prefs.get("sound", SETTINGS.sound)) knock();
      this.placer.selected = null;
      this.hint = null;
      // The move's event shows it; this covers a socket that is down.
      this.store.catchUp(r.number);
      // Nothing to place until the next position is shown (unless its event came first).
      if (this.state?.move_number === s.move_number) {
        this.placer.set([], this.mover(), false, []);
        this.renderTray();
        this.placer.update();
        this.renderText();
      }
      return true;
    } catch (e) {
      this.busy = false;
      const said = t("game.toast.not_placed", { reason: errorText(e) });
      toast(said, true);
      this.text.announce(said);
      return false;
    }
  }

  private async askHint() {
    // Between people there is none until the end (fair play): say so, ask nothing.
    if (this.state && fairPlay(this.state)) return toast(t("game.hint.fair_play"));
    if (!this.canPlay()) return;
    this.el.status.append(h("span", { class: "small", id: "hint-wait" }, " ", t("game.hint.wait")));
    try {
      this.hint = await this.backend.hint(this.id, 6);
      this.placer.selected = null;
      this.renderTray();
      this.renderActions();
      this.placer.update();
    } catch (e) {
      toast(t("game.toast.no_hint", { reason: errorText(e) }), true);
    }
    document.getElementById("hint-wait")?.remove();
  }

  private async undo() {
    const s = this.state;
    if (!s || !s.hot_seat) return;
    const token = Object.values(this.mine)[0];
    if (!token) return;
    try {
      await this.backend.undo(this.id, token, s.move_number);
      this.placer.selected = null;
    } catch (e) {
      toast(t("game.toast.no_undo", { reason: errorText(e) }), true);
    }
    await this.store.reload();
  }

  private async replay(n: number) {
    const live = this.store.state;
    if (!live) return;
    this.replayAt = n >= live.moves_played && live.over ? null : n;
    // Beside the move replayed, the best the review found for it (when it was not played).
    const reviewed = this.review.move(n);
    this.reviewGhost = this.replayAt !== null && reviewed && reviewed.best.placement !== reviewed.played.placement ? reviewed.best.cubes : null;
    if (this.replayAt === null) {
      this.state = null;
      this.show(live, null, null, false);
      this.landed(null);
      return;
    }
    this.setTop(false);
    try {
      const at = await this.backend.state(this.id, n);
      if (this.replayAt !== n) return;
      this.state = at;
      this.placer.set([], this.mover(), false, []);
      this.render();
      const last = at.last_move;
      this.view.setRecent(last ? [{ number: last.number, colour: last.colour, cubes: last.cubes }] : []);
      this.view.setGhost(this.reviewGhost, "X", true);
    } catch (e) {
      toast(errorText(e), true);
    }
  }

  /**
   * "Play from here": a game from the first `at` moves, against the AI at `level`: on the
   * server (a server game's position, fromhere.ts), or in this browser.
   */
  private async playFrom(at: number, level: number, where: "server" | "local") {
    try {
      if (where === "server") {
        location.href = await playFromOnServer(this.id, await this.backend.state(this.id, at), level);
        return;
      }
      const res = await fetch(this.backend.recordUrl(this.id));
      if (!res.ok) throw new ApiError(res.status, "http", `${res.status} ${res.statusText}`);
      location.href = await localBackend.playFrom(await res.text(), at, level);
    } catch (e) {
      toast(errorText(e), true);
    }
  }

  private setTop(on: boolean) {
    this.view.setTopView(on);
    document.getElementById("top-view")?.classList.toggle("on", on);
  }

  private toggleTop() {
    this.setTop(!this.view.topView);
  }

  private onKey(e: KeyboardEvent) {
    // An open dialog (the keys') has its own keys: Esc closes it, Tab stays inside.
    if (typing(e) || !this.state || (e.target as HTMLElement)?.closest?.("dialog")) return;
    const k = e.key;
    const { files, ranks } = this.state.site;
    if ((k === "s" || k === "S") && this.follower.busy) {
      e.preventDefault();
      this.follower.skip();
      return;
    }
    if (this.keys.key(k)) {
      e.preventDefault();
      return;
    }
    if (k === "Escape") {
      this.hint = null;
      this.moveList.unpin();
    }
    if (this.placer.key(k, files, ranks) || viewKey(this.view, k, () => this.toggleTop())) {
      e.preventDefault();
      if (k === "Escape") this.renderActions();
      return;
    }
    // Enter places the stone or the hint shown, wherever the focus was left; with nothing to
    // place, and always on a link, the keys' button or in the text mode, it presses the
    // control it is on.
    const own = !!(e.target as HTMLElement)?.closest?.("#text-mode, #keys-button, a, summary");
    const pending = this.placer.current ?? (this.hint && this.canPlay() ? this.hint : null);
    if ((k === "Enter" || (k === " " && (e.target as HTMLElement)?.tagName !== "BUTTON")) && !own && pending) {
      e.preventDefault();
      void this.place(pending.placement);
    } else if (k === "h" || k === "H") {
      e.preventDefault();
      void this.askHint();
    } else if ((k === "u" || k === "U") && this.state.hot_seat) {
      e.preventDefault();
      void this.undo();
    }
  }
}
