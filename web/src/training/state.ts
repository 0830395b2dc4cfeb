// The puzzle page's state: the puzzle on screen, where the player stands with it (solving,
// waiting for the judgement, solved, failed) and the last judgement, and what the board
// shows for each. No drawing here (view.ts), no requests (page.ts).
import type { Xyz } from "../api";
import type { ColumnInfo, Letter, TrainingPuzzle, TrainingRating, TrainingResult } from "../wire";

export type Phase = "loading" | "solving" | "checking" | "solved" | "failed" | "error";

export class TrainingState {
  puzzle: TrainingPuzzle | null = null;
  result: TrainingResult | null = null;
  phase: Phase = "loading";
  error = "";
  /** The player's puzzle rating as last known (null: none is kept, online without a name). */
  you: TrainingRating | null = null;

  load(p: TrainingPuzzle) {
    this.puzzle = p;
    this.result = null;
    this.phase = "solving";
    this.you = p.you;
  }

  failedToLoad(reason: string) {
    this.phase = "error";
    this.error = reason;
  }

  checking() {
    this.phase = "checking";
  }

  /** The judgement came; a refusal (`null`: the placement was not taken) goes back to solving. */
  judged(r: TrainingResult | null) {
    if (!r) {
      this.phase = "solving";
      return;
    }
    this.result = r;
    this.phase = r.solved ? "solved" : "failed";
    if (r.you) this.you = r.you;
    if (this.puzzle) this.puzzle = { ...this.puzzle, tried: true };
  }

  /** Once more, the same position: the attempt is not rated any more. */
  retry() {
    this.result = null;
    this.phase = "solving";
  }

  get mover(): Letter {
    return (this.puzzle?.to_move ?? "X") as Letter;
  }

  get canPlace(): boolean {
    return this.phase === "solving";
  }

  /** The stones the mover still has. */
  get stonesLeft(): string[] {
    const s = this.puzzle?.state;
    return s?.colours.find((c) => c.colour === s.to_move)?.stones_left ?? [];
  }

  /** The columns shown: the position, and once solved the best placement in it. */
  columns(): ColumnInfo[] {
    const s = this.puzzle?.state;
    if (!s) return [];
    const solved = this.phase === "solved" ? this.result?.best.placement.cubes : null;
    if (!solved) return s.position.columns;
    return s.position.columns.map((c) => {
      const mine = solved.filter(([x, y]) => x === c.x && y === c.y);
      if (!mine.length) return c;
      const cubes = [...c.cubes];
      for (const [, , z] of mine) cubes[z] = this.mover;
      return { ...c, cubes, height: cubes.length, top: this.mover };
    });
  }

  /** The best placement as a ghost beside a wrong answer (as a review shows the better move). */
  get bestGhost(): Xyz[] | null {
    return this.phase === "failed" ? (this.result?.best.placement.cubes ?? null) : null;
  }

  /** The cubes outlined: the placement just judged. */
  get outlined(): Xyz[] | null {
    return this.phase === "solved" ? (this.result?.best.placement.cubes ?? null) : null;
  }
}
