// An attempt's judgement in the player's language, from the judgement's fields (the
// server's `reason` is English): what the placement played and the best lead to.
import { t } from "../i18n";
import { colourName } from "../ui";
import type { Letter, TrainingPlacement, TrainingResult } from "../wire";

/** Where the mover ends after a placement: "Yellow wins by 2 points", a win estimate. */
export function outcome(p: TrainingPlacement, mover: Letter): string {
  const colour = colourName(mover);
  if (p.margin === null || p.place === null) return t("training.estimate", { colour, value: Math.round(p.value * 100) });
  if (p.margin > 0) return t("training.wins", { colour, count: p.margin });
  if (p.margin === 0) return t("training.ties", { colour });
  return t(p.shared ? "training.behindShared" : "training.behind", { colour, place: p.place, count: -p.margin });
}

/** The judgement's lines: the verdict, then (when wrong) each placement's outcome. */
export function judgement(r: TrainingResult, mover: Letter): string[] {
  if (r.solved) return [t("training.solved", { placement: r.best.placement.placement }), t("training.after", { placement: r.best.placement.placement, outcome: outcome(r.best, mover) })];
  return [
    t("training.failed", { played: r.played.placement.placement, best: r.best.placement.placement }),
    t("training.yours", { placement: r.played.placement.placement, outcome: outcome(r.played, mover) }),
    t("training.theBest", { placement: r.best.placement.placement, outcome: outcome(r.best, mover) }),
    t(r.kind === "exact" ? "training.exactNote" : "training.searchedNote"),
  ];
}

/** A rating's change, signed: "+162", "−41". */
export function signed(n: number): string {
  const r = Math.round(n);
  return r > 0 ? `+${r}` : r < 0 ? `−${-r}` : "±0";
}
