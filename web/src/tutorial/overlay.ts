// The guide over a guided first game: a card that explains each rule the first time it
// matters, with "Next" and "Skip". It follows the game by itself (the game's events, from
// the game page's socket, and its own state fetches), so the game page knows nothing of it but the place for its card:
// a slot in the panel, so that the card never hides the structure or the marked places.
import { tokens } from "../api";
import { serverBackend } from "../engine/backend";
import type { EventStream, GameBackend } from "../engine/backend";
import type { Follow } from "../game/table";
import type { GameState, Letter, Placement } from "../wire";
import { h, toast } from "../ui";
import { t } from "../i18n";
import { lessons } from "../howto/lessons";
import { exampleFigure } from "../howto/page";
import { loadProgress, saveProgress } from "./progress";
import type { Progress } from "./progress";
import { seenFromAbove, STEPS } from "./steps";
import type { Moment } from "./steps";
import { yourResult, yourResultText } from "../game/result";
import { startRealGame } from "./launch";
import { errorText } from "../errors";

/** Attaches the guide, its card in `host`, when this browser started game `id` as a guided
 * game: a server's game, or a local one (`backend`, the engine in this browser). */
export function attachTutorial(id: string, host: HTMLElement, follow: Follow, backend: GameBackend = serverBackend) {
  const progress = loadProgress(id);
  if (!progress || progress.skipped) return;
  new Tutorial(id, progress, host, follow, backend);
}

class Tutorial {
  private card = h("aside", { class: "tutorial", id: "tutorial", role: "dialog", "aria-live": "polite" });
  private state: GameState | null = null;
  private placements: Placement[] = [];
  private timer = 0;
  private events: EventStream;
  private shown = "";

  constructor(
    private id: string,
    private progress: Progress,
    host: HTMLElement,
    follow: Follow,
    private backend: GameBackend,
  ) {
    host.append(this.card);
    this.events = follow(() => this.soon(), () => this.soon());
    this.soon();
  }

  /** Fetch the state again shortly (events come in bursts: a move, then the AI's). */
  private soon() {
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.refresh(), 120);
  }

  private async refresh() {
    try {
      const state = await this.backend.state(this.id);
      // The legal places, to tell when building on top or reaching the limit first matters.
      this.placements = this.moment(state).myTurn ? (await this.backend.placements(this.id)).placements : [];
      this.state = state;
    } catch {
      return; // The next event or reconnection tries again.
    }
    this.update();
  }

  private moment(state: GameState): Moment {
    const held = Object.keys(tokens.get(this.id)).map(Number);
    const mine: Letter[] = state.seats.filter((s) => held.includes(s.seat)).flatMap((s) => s.colours);
    const placed = mine.length ? 11 - (state.colours.find((c) => c.colour === mine[0])?.stones_left.length ?? 11) : 0;
    return { state, mine, myTurn: state.seat_to_move !== null && held.includes(state.seat_to_move), placed, placements: this.placements };
  }

  private update() {
    const state = this.state;
    if (!state || this.progress.skipped) return;
    if (!this.progress.current) {
      const m = this.moment(state);
      // One rule per turn for the rules of placing: a newcomer reads one, then plays.
      const fresh = this.progress.readAt !== state.moves_played;
      const next = STEPS.find((s) => !this.progress.seen.includes(s.id) && (fresh || !s.paced) && s.when(m));
      if (next) {
        this.progress.current = next.id;
        saveProgress(this.id, this.progress);
      }
    }
    this.render(state);
    // The position the guide has looked at (for the browser tests to wait on).
    document.body.dataset.tutorialAt = String(state.moves_played);
    if (state.over && !this.progress.current) this.events.close();
  }

  private next() {
    if (this.progress.current) this.progress.seen.push(this.progress.current);
    this.progress.readAt = this.state?.moves_played ?? null;
    this.progress.current = null;
    saveProgress(this.id, this.progress);
    this.update();
  }

  private skip() {
    this.progress.skipped = true;
    this.progress.current = null;
    saveProgress(this.id, this.progress);
    this.events.close();
    this.card.remove();
    delete document.body.dataset.tutorialStep;
  }

  private render(state: GameState) {
    const id = this.progress.current;
    const key = `${id}|${state.moves_played}`;
    if (key === this.shown) return;
    this.shown = key;
    document.body.dataset.tutorialStep = id ?? "";
    if (!id) {
      this.card.hidden = true;
      return;
    }
    const step = STEPS.find((s) => s.id === id)!;
    const index = STEPS.indexOf(step) + 1;
    const m = this.moment(state);
    const out = state.colours.filter((c) => c.out).map((c) => t(`common.colour.${c.colour}`));
    const params: Record<string, string | number> = {
      colour: m.mine[0] ? t(`common.colour.${m.mine[0]}`) : "",
      // "Red and Yellow are out": the verb agrees with how many (`_one` / `_other`).
      out: out.length > 1 ? `${out.slice(0, -1).join(", ")}${t("game.status.and")}${out[out.length - 1]}` : (out[0] ?? ""),
      count: out.length,
      hmax: state.site.hmax,
    };
    const figure = h("div", { class: "tutorial-figure" });
    if (step.figure) {
      void lessons()
        .then((l) => {
          const e = l.examples.find((x) => x.id === step.figure);
          // Without notation: the guide has not explained it (the pictures say it).
          if (e && this.progress.current === id) figure.replaceChildren(exampleFigure(e, true));
        })
        .catch(() => undefined);
    }
    this.card.hidden = false;
    this.card.dataset.step = id;
    // Compact, since the card sits above the stones in the panel: the link to the rules on the
    // counter's line, the picture beside its caption.
    this.card.replaceChildren(
      h(
        "div",
        { class: "small tutorial-head" },
        h("span", {}, t("tutorial.counter", { n: index, total: STEPS.length })),
        h("a", { href: `/how-to-play#${step.section}`, target: "_blank", rel: "noopener", id: "tutorial-more" }, t("tutorial.more")),
      ),
      h("h2", {}, t(`tutorial.${id}.title`)),
      h("p", {}, t(`tutorial.${id}.text`, params)),
      id === "score" ? this.scores(state) : "",
      id === "score" ? this.ending(state) : "",
      figure,
      h(
        "div",
        { class: "tutorial-actions" },
        h("button", { class: "primary", id: "tutorial-next", onclick: () => this.next() }, t("tutorial.next")),
        h("button", { id: "tutorial-skip", onclick: () => this.skip() }, t("tutorial.skip")),
      ),
    );
  }

  /** The guided game's end: won or lost, and the next step — a real game against the same AI. */
  private ending(state: GameState) {
    const held = Object.keys(tokens.get(this.id)).map(Number);
    const you = yourResult(state, (seat) => held.includes(seat));
    const real = h("button", { class: "primary", id: "tutorial-real-game" }, t("tutorial.realGame")) as HTMLButtonElement;
    real.addEventListener("click", async () => {
      real.disabled = true;
      try {
        location.href = await startRealGame();
      } catch (e) {
        real.disabled = false;
        toast(errorText(e), true);
      }
    });
    return h(
      "div",
      { class: "tutorial-ending", id: "tutorial-ending", "data-result": you?.kind ?? "" },
      you ? h("p", { class: "tutorial-result", id: "tutorial-result" }, h("strong", {}, yourResultText(you))) : "",
      h("p", {}, t("tutorial.next_game")),
      real,
    );
  }

  /** Each colour's final score in words: seen from above, less the stones not placed. */
  private scores(state: GameState) {
    return h(
      "ul",
      { class: "tutorial-scores" },
      ...state.colours.map((c) => {
        const seen = seenFromAbove(state, c.colour);
        return h(
          "li",
          { "data-colour": c.colour, "data-seen": seen, "data-left": c.stones_left.length, "data-score": c.score ?? "" },
          t("tutorial.scoreLine", { colour: t(`common.colour.${c.colour}`), seen, count: c.stones_left.length, score: c.score ?? 0 }),
        );
      }),
    );
  }
}
