// The puzzle page (`/training`): a position cut from a game, solved in 3D with the game
// page's view and placer — the placement played is the answer. A composition of the state
// (state.ts), the panel (view.ts), the buttons (controls.ts) and the puzzles' source
// (source.ts: the server, or the puzzles shipped with the app and the engine in this
// browser). `/training?daily` opens the daily puzzle, `/training?id=ID` a puzzle by id,
// `/training` the next one for this player.
import { eitherEngine, serverAbsent } from "../engine/fallback";
import { errorText } from "../errors";
import { installTestHooks } from "../game/hooks";
import { GameView } from "../game/view";
import { languagePicker, t } from "../i18n";
import { Placer, typing, viewKey, viewTools } from "../placer";
import { h, toast } from "../ui";
import type { StoneInfo, TrainingPuzzle } from "../wire";
import { renderControls } from "./controls";
import { training } from "./source";
import { TrainingState } from "./state";
import { renderHead, renderRatings, renderResult, renderStatus } from "./view";

export class TrainingPage {
  private state = new TrainingState();
  private view!: GameView;
  private placer!: Placer;
  private stones = new Map<string, StoneInfo>();
  private el: Record<string, HTMLElement> = {};
  private boardKey = "";

  constructor(private root: HTMLElement) {}

  async start() {
    this.layout();
    window.addEventListener("keydown", (e) => this.onKey(e));
    try {
      for (const s of await eitherEngine.stones()) this.stones.set(s.code, s);
    } catch (e) {
      this.state.failedToLoad(errorText(e));
      return this.render();
    }
    const q = new URLSearchParams(location.search);
    const id = q.get("id");
    await this.load(() => (q.has("daily") ? training.daily() : id ? training.get(id) : training.next({})));
  }

  private layout() {
    const stage = h("div", { class: "stage", id: "stage" });
    const wrap = h("div", { class: "stage-wrap" }, stage);
    this.el = {
      head: h("div", { class: "training-head" }),
      status: h("div", { class: "status", id: "status", "aria-live": "polite" }),
      ratings: h("div", { class: "training-ratings" }),
      tray: h("div", { class: "tray", id: "tray" }),
      turns: h("div", { class: "turns", id: "turns" }),
      result: h("div", { class: "training-result", id: "result", "aria-live": "polite" }),
      controls: h("div", { class: "actions", id: "training-actions" }),
    };
    const side = h(
      "aside",
      { class: "side" },
      h("div", { class: "side-head" }, h("a", { href: "/", class: "home" }, "Rumis"), h("h1", { class: "game-title" }, t("training.title")), languagePicker()),
      this.el.head,
      this.el.status,
      this.el.ratings,
      this.el.result,
      this.el.tray,
      this.el.turns,
      this.el.controls,
    );
    this.root.replaceChildren(h("div", { class: "game" }, wrap, side));
    this.view = new GameView(stage);
    wrap.append(viewTools(this.view, () => this.view.setTopView(!this.view.topView)));
    this.placer = new Placer(this.view, this.stones, {
      place: (p) => void this.answer(p.placement),
      draw: (ghost) => {
        if (ghost) this.view.setGhost(ghost.cubes);
        else this.view.setGhost(this.state.bestGhost, "X", true);
        const places = this.state.canPlace ? this.placer.orientationPlacements() : [];
        this.view.setPlaces(places.map((p) => ({ anchor: this.placer.anchorCube(p), current: p === ghost })));
        this.view.setMarks([], this.state.outlined);
      },
    });
    installTestHooks(this.view, this.placer);
  }

  private async load(ask: () => Promise<TrainingPuzzle>) {
    this.state.phase = "loading";
    this.render();
    try {
      const p = await ask();
      this.state.load(p);
      history.replaceState(null, "", p.daily ? "/training?daily" : `/training?id=${encodeURIComponent(p.id)}`);
    } catch (e) {
      this.state.failedToLoad(errorText(e));
    }
    this.render();
  }

  private async answer(placement: string) {
    const p = this.state.puzzle;
    if (!p || !this.state.canPlace) return;
    this.state.checking();
    this.render();
    try {
      this.state.judged(await training.attempt(p.id, placement));
    } catch (e) {
      this.state.judged(null);
      toast(t("game.toast.not_placed", { reason: errorText(e) }), true);
    }
    this.placer.selected = null;
    this.render();
  }

  private render() {
    const s = this.state;
    const p = s.puzzle;
    document.body.dataset.training = s.phase;
    document.body.dataset.puzzle = p?.id ?? "";
    renderHead(this.el.head, s);
    renderStatus(this.el.status, s);
    renderRatings(this.el.ratings, s, serverAbsent());
    renderResult(this.el.result, s);
    renderControls(this.el.controls, s, {
      next: () => void this.load(() => training.next({})),
      retry: () => {
        s.retry();
        this.render();
      },
      daily: () => void this.load(() => training.daily()),
    });
    if (!p) return;
    const site = p.state.site;
    const key = `${p.id}`;
    if (key !== this.boardKey) {
      this.boardKey = key;
      this.view.setBoard(
        site.files,
        site.ranks,
        p.state.position.columns.map((c) => ({ x: c.x, y: c.y, limit: c.limit, printed: c.limit < site.hmax ? c.limit : null })),
        site.hmax,
      );
      this.view.setColumns(s.columns());
      this.view.resetView();
    }
    this.view.setColumns(s.columns());
    this.placer.set(s.canPlace ? p.placements.placements : [], s.mover, s.canPlace, s.stonesLeft);
    this.placer.attach(this.el.tray, this.el.turns, t("training.tray", { colour: t(`common.colour.${s.mover}`) }));
    this.placer.renderTray();
    this.placer.update();
  }

  private onKey(e: KeyboardEvent) {
    if (typing(e) || (e.target as HTMLElement)?.closest?.("dialog")) return;
    const k = e.key;
    const site = this.state.puzzle?.state.site;
    if (viewKey(this.view, k, () => this.view.setTopView(!this.view.topView))) return e.preventDefault();
    if (site && this.placer.key(k, site.files, site.ranks)) return e.preventDefault();
    if ((k === "Enter" || k === " ") && this.placer.current && (e.target as HTMLElement)?.tagName !== "BUTTON") {
      e.preventDefault();
      void this.answer(this.placer.current.placement);
    }
  }
}
