// The puzzle page's panel, drawn from the state: what the puzzle is, whose colour, the
// ratings, and once judged the verdict with why, the themes and the rating's change.
import { t } from "../i18n";
import { colourName, h, swatch } from "../ui";
import type { TrainingState } from "./state";
import { judgement, signed } from "./words";

/** The heading: the daily puzzle's date, or the puzzle's id, and the scenario and player count. */
export function renderHead(el: HTMLElement, s: TrainingState) {
  const p = s.puzzle;
  el.replaceChildren(
    h("div", { class: "small", id: "training-kind" }, p?.daily ? t("training.daily", { date: p.daily }) : (p?.id ?? "")),
    p ? h("div", { id: "training-setup" }, t("game.title", { board: p.board, count: p.players })) : "",
  );
}

/** The task, or where the attempt stands. */
export function renderStatus(el: HTMLElement, s: TrainingState) {
  el.dataset.state = s.phase;
  const p = s.puzzle;
  if (s.phase === "loading") return el.replaceChildren(t("training.loading"));
  if (s.phase === "error" || !p) return el.replaceChildren(t("training.loadFailed", { reason: s.error }));
  const colour = colourName(s.mover);
  const task = h("strong", {}, t("training.task", { colour }));
  if (s.phase === "checking") return el.replaceChildren(swatch(s.mover), " ", t("training.checking"));
  if (s.phase === "solved") return el.replaceChildren(swatch(s.mover), " ", h("strong", { class: "verdict good" }, t("training.wellDone")));
  if (s.phase === "failed") return el.replaceChildren(swatch(s.mover), " ", h("strong", { class: "verdict bad" }, t("training.notBest")));
  el.replaceChildren(swatch(s.mover), " ", task);
}

/** The puzzle's rating and the player's; whether this attempt is rated. */
export function renderRatings(el: HTMLElement, s: TrainingState, offline: boolean) {
  const p = s.puzzle;
  if (!p) return el.replaceChildren();
  const you = s.you
    ? t(offline ? "training.youLocal" : "training.you", { rating: Math.round(s.you.rating) })
    : t("training.youNone");
  el.replaceChildren(
    // After an attempt, the puzzle's rating it left (the same when it was not rated); without
    // a server the puzzles keep their files' ratings (a puzzle's rating is everyone's).
    h("div", { id: "puzzle-rating" }, t("training.rating", { rating: Math.round(offline ? p.rating : (s.result?.puzzle_rating.after ?? p.rating)) })),
    h("div", { id: "your-rating" }, you),
    p.tried && s.phase === "solving" ? h("div", { class: "small", id: "tried" }, t("training.tried")) : "",
  );
}

/** The verdict's why, the themes and the rating's change (after a judgement). */
export function renderResult(el: HTMLElement, s: TrainingState) {
  const r = s.result;
  if (!r) return el.replaceChildren();
  const lines = judgement(r, s.mover).map((line, i) => h(i === 0 ? "p" : "p", { class: i === 0 ? "verdict-line" : "small" }, line));
  const themes = r.themes.map((k) => t(`training.theme.${k}`)).join(", ");
  const change = r.change
    ? r.rated
      ? t("training.change", { before: Math.round(r.change.before), after: Math.round(r.change.after), diff: signed(r.change.after - r.change.before) })
      : t("training.unrated")
    : "";
  el.replaceChildren(
    h("div", { id: "explanation", "data-solved": String(r.solved) }, ...lines),
    h("p", { id: "themes" }, t("training.themes", { themes })),
    change ? h("p", { id: "rating-change" }, change) : "",
    r.solved ? "" : h("p", { class: "small" }, t("training.ghost")),
  );
}
