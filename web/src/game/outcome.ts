// The end of a game for the one who played it: the result named for this browser's seat
// ("You win", "2nd of 4") and the next step — a rematch (a lobby game: its button comes from
// game/table.ts, into `rematchSlot`), the same game again or the AI a level stronger (a game
// against the AI, here or on the server), back to the lobby, or a new game.
import "./endings.css";
import type { GameState } from "../wire";
import { t } from "../i18n";
import { h, toast } from "../ui";
import { errorText } from "./errors";
import { againPlan, levelUp, startAgain } from "./again";
import type { AgainPlan } from "./again";
import { yourResult, yourResultText } from "./result";

export interface OutcomeContext {
  held(seat: number): boolean;
  /** A lobby game (true), another game of the server (false), not known yet (null). */
  lobby: boolean | null;
  /** Played in this browser. */
  local: boolean;
  /** A guided first game: its next step is a real game against the same AI. */
  guided: boolean;
}

export class Outcome {
  readonly el = h("section", { class: "outcome", id: "outcome", hidden: true, "aria-label": t("game.next.label") });
  /** Where the lobby's rematch buttons go (filled by game/table.ts). */
  readonly rematchSlot = h("span", { class: "rematch-slot", id: "rematch-slot" });
  private starting = false;

  render(s: GameState, replaying: boolean, c: OutcomeContext) {
    const over = s.over && s.status !== "aborted" && !replaying;
    this.el.hidden = !over;
    if (!over) return this.el.replaceChildren();
    const you = yourResult(s, c.held);
    // A lobby game has its rematch instead (known once its table is read).
    const plan = c.local || c.lobby === false ? againPlan(s, c.held) : null;
    const steps: (HTMLElement | null)[] = [this.rematchSlot];
    if (plan) steps.push(...this.again(s, plan, c, you?.kind === "win" || you?.kind === "share"));
    if (c.lobby) steps.push(h("a", { class: "button", id: "to-lobby", href: "/lobby" }, t("game.next.lobby")));
    else if (c.lobby === false || c.local) steps.push(h("a", { class: "button", id: "new-game", href: "/" }, t("game.next.new_game")));
    this.el.dataset.result = you ? you.kind : "none";
    this.el.replaceChildren(
      ...(you ? [h("h2", { class: "you-result", id: "you-result" }, yourResultText(you))] : []),
      h("div", { class: "next-steps", id: "next-steps" }, ...steps.filter((x): x is HTMLElement => x !== null)),
    );
  }

  /** Play again, and the AI a level stronger (the first step after a win). */
  private again(s: GameState, plan: AgainPlan, c: OutcomeContext, won: boolean): HTMLElement[] {
    const go = (p: AgainPlan) => async (e: Event) => {
      if (this.starting) return;
      this.starting = true;
      (e.target as HTMLButtonElement).disabled = true;
      try {
        location.href = await startAgain(s, p, c.local);
      } catch (err) {
        this.starting = false;
        (e.target as HTMLButtonElement).disabled = false;
        toast(errorText(err), true);
      }
    };
    if (c.guided) return [h("button", { class: "primary", id: "play-again", onclick: go(plan) }, t("game.next.real_game", { level: plan.level ?? 1 }))];
    const up = plan.level !== null && plan.level < 9 ? levelUp(plan) : null;
    const again = h("button", { class: won && up ? "" : "primary", id: "play-again", onclick: go(plan) }, plan.level === null ? t("game.next.again") : t("game.next.again_level", { level: plan.level }));
    if (!up) return [again];
    const next = h("button", { class: won ? "primary" : "", id: "next-level", onclick: go(up) }, t("game.next.next_level", { level: up.level ?? 0 }));
    return won ? [next, again] : [again, next];
  }
}
