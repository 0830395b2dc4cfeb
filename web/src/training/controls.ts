// The puzzle page's buttons: the next puzzle, once more, the daily puzzle, each enabled by
// where the attempt stands.
import { t } from "../i18n";
import { h } from "../ui";
import type { TrainingState } from "./state";

export interface TrainingActions {
  next(): void;
  retry(): void;
  daily(): void;
}

export function renderControls(el: HTMLElement, s: TrainingState, act: TrainingActions) {
  const judged = s.phase === "solved" || s.phase === "failed";
  el.replaceChildren(
    judged || s.phase === "error" ? h("button", { id: "next-puzzle", class: "primary", onclick: () => act.next() }, t("training.next")) : "",
    s.phase === "failed" ? h("button", { id: "retry-puzzle", onclick: () => act.retry() }, t("training.retry")) : "",
    s.phase === "solving" ? h("button", { id: "skip-puzzle", onclick: () => act.next() }, t("training.skip")) : "",
    s.puzzle?.daily ? "" : h("button", { id: "daily-puzzle", onclick: () => act.daily() }, t("training.dailyButton")),
  );
}
