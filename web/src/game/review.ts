// A finished game's review on its end screen: asked with a button, its progress while the
// server (or the engine in this browser) searches, then per colour a summary (marks,
// average loss, accuracy), the marked moves (each a link into the replay), and for the move
// replayed what was played and the best move found with both estimates; the board shows
// that best move as a ghost (page.ts) and the move list the marks (movelist.ts). "Play from
// here" starts a game from the position replayed, against the AI at a chosen level: in this
// browser, or for a server game on the server too (fromhere.ts).
import type { GameBackend } from "../engine/backend";
import type { GameReview, Letter, ReviewedMove } from "../wire";
import { t } from "../i18n";
import { colourName, h, swatch } from "../ui";
import { errorText } from "./errors";

export type Mark = "inaccuracy" | "mistake" | "blunder";

/** The marks' symbols, as in chess annotation. */
export const MARK_SYMBOL: Record<Mark, string> = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** A mark as its symbol, with its word for screen readers (and as a tooltip). */
export function markBadge(mark: Mark) {
  const word = t(`game.review.mark_${mark}`);
  return h("span", { class: `mark mark-${mark}`, "data-mark": mark, title: word }, h("span", { "aria-hidden": "true" }, MARK_SYMBOL[mark]), h("span", { class: "sr-only" }, ` ${word}`));
}

export interface ReviewHooks {
  replay(n: number): void;
  /** The review arrived: the move list, the graph and the board show it. */
  changed(): void;
  /** A game from the first `at` moves, against the AI at `level`: on the server, or in this browser. */
  playFrom(at: number, level: number, where: "server" | "local"): void;
}

const pct = (v: number) => `${Math.round(v * 100)} %`;

export class ReviewPanel {
  review: GameReview | null = null;
  private asked: Promise<void> | null = null;
  private progress: [number, number] = [0, 0];
  private failed: string | null = null;
  private level = 5;
  readonly el = h("section", { class: "review", id: "review", "aria-label": t("game.review.title") });

  constructor(
    private id: string,
    private backend: GameBackend,
    private hooks: ReviewHooks,
  ) {}

  /** The review of move `n` (1-based), once the review is done. */
  move(n: number): ReviewedMove | undefined {
    return this.review?.moves.find((m) => m.number === n);
  }

  /** Marks by move number. */
  marks(): Map<number, Mark> {
    const out = new Map<number, Mark>();
    for (const m of this.review?.moves ?? []) if (m.mark) out.set(m.number, m.mark);
    return out;
  }

  private start() {
    this.failed = null;
    this.asked ??= this.backend
      .review(this.id, (done, total) => {
        this.progress = [done, total];
        this.draw();
      })
      .then((r) => {
        this.review = r;
        this.hooks.changed();
      })
      .catch((e) => {
        this.asked = null;
        this.failed = errorText(e);
        this.draw();
      });
    this.draw();
  }

  private at: number | null = null;

  /** Draws the panel for the replay at `at` moves (null: the end). */
  render(at: number | null, movesPlayed: number) {
    this.at = at;
    this.movesPlayed = movesPlayed;
    this.draw(at);
  }

  private movesPlayed = 0;

  private draw(at: number | null = this.at) {
    this.el.replaceChildren(h("h2", {}, t("game.review.title")));
    const r = this.review;
    if (!r) {
      if (this.asked) {
        const [done, total] = this.progress;
        this.el.append(
          h("progress", { id: "review-progress", ...(total > 0 ? { max: total, value: done } : {}), "aria-label": t("game.review.working") }),
          h("div", { class: "small", id: "review-status", role: "status" }, total > 0 ? t("game.review.progress", { done, total }) : t("game.review.working")),
        );
      } else {
        this.el.append(
          h("button", { id: "review-start", onclick: () => this.start() }, t("game.review.start")),
          h("div", { class: "small" }, t("game.review.about")),
        );
        if (this.failed) this.el.append(h("div", { class: "small error", role: "alert" }, t("game.review.failed", { reason: this.failed })));
      }
    } else {
      this.el.append(this.summary(r));
      if (at !== null && at > 0) this.el.append(this.detail(at));
      const marked = r.moves.filter((m) => m.mark);
      this.el.append(
        h("div", { class: "small" }, marked.length ? t("game.review.marked") : t("game.review.none_marked")),
        h(
          "ul",
          { class: "review-marked", id: "review-marked" },
          ...marked.map((m) =>
            h(
              "li",
              {},
              h("a", { href: "#", "data-number": m.number, onclick: (e: Event) => (e.preventDefault(), this.hooks.replay(m.number)) }, `${m.number}. ${colourName(m.colour as Letter)} ${m.played.placement}`),
              " ",
              markBadge(m.mark as Mark),
            ),
          ),
        ),
      );
    }
    if (at !== null && at < this.movesPlayed) this.el.append(this.playFrom(at));
  }

  private summary(r: GameReview) {
    return h(
      "table",
      { id: "review-summary" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, t("game.end.colour")),
          h("th", { title: t("game.review.mark_inaccuracy") }, MARK_SYMBOL.inaccuracy, h("span", { class: "sr-only" }, ` ${t("game.review.mark_inaccuracy")}`)),
          h("th", { title: t("game.review.mark_mistake") }, MARK_SYMBOL.mistake, h("span", { class: "sr-only" }, ` ${t("game.review.mark_mistake")}`)),
          h("th", { title: t("game.review.mark_blunder") }, MARK_SYMBOL.blunder, h("span", { class: "sr-only" }, ` ${t("game.review.mark_blunder")}`)),
          h("th", {}, t("game.review.average_loss")),
          h("th", {}, t("game.review.accuracy")),
        ),
      ),
      h(
        "tbody",
        {},
        ...r.summaries.map((c) =>
          h(
            "tr",
            { "data-colour": c.colour },
            h("td", {}, swatch(c.colour as Letter), " ", colourName(c.colour as Letter)),
            h("td", {}, String(c.inaccuracies)),
            h("td", {}, String(c.mistakes)),
            h("td", {}, String(c.blunders)),
            h("td", {}, `${(c.average_loss * 100).toFixed(1)} %`),
            h("td", { class: "accuracy" }, String(Math.round(c.accuracy))),
          ),
        ),
      ),
    );
  }

  /** The move replayed: what was played, the best found, both estimates. */
  private detail(n: number) {
    const m = this.move(n);
    if (!m) return h("div");
    const same = m.best.placement === m.played.placement;
    return h(
      "div",
      { id: "review-move", "data-number": n },
      h("strong", {}, t("game.review.move", { number: n, colour: colourName(m.colour as Letter) })),
      m.mark ? h("span", {}, " ", markBadge(m.mark as Mark)) : null,
      h("div", {}, t("game.review.played", { placement: m.played.placement, estimate: pct(m.played_value) })),
      h("div", { id: "review-best" }, same ? t("game.review.best_played") : t("game.review.best", { placement: m.best.placement, estimate: pct(m.best_value) })),
    );
  }

  private playFrom(at: number) {
    const select = h(
      "select",
      { id: "play-from-level", "aria-label": t("game.review.level"), onchange: (e: Event) => (this.level = Number((e.target as HTMLSelectElement).value)) },
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((l) => h("option", { value: l, ...(l === this.level ? { selected: true } : {}) }, t("game.review.level_n", { level: l }))),
    );
    const local = h("button", { id: "play-from", onclick: () => this.hooks.playFrom(at, this.level, "local") }, t(this.backend.local ? "game.review.play_from" : "game.review.play_from_local", { number: at }));
    // A server game's position may be played on the server too (a game of its own there, unrated).
    const server = this.backend.local ? [] : [h("button", { id: "play-from-server", onclick: () => this.hooks.playFrom(at, this.level, "server") }, t("game.review.play_from_server", { number: at })), " "];
    return h("div", { class: "play-from" }, ...server, local, " ", select);
  }
}
